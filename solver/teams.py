"""Who is whose ally: team matches and 1 player vs a team (3E THE MULTIPLAYER MODE; NOTATION §10.5).

In a two-player game or a deathmatch every other army is an enemy (RULINGS 61), and the reading of a position
compares commanders (or, after a takeover, controllers). In a team game two relations differ:

*harm* — whose attacks, Nets and pushes reach whom. 3E TEAM MATCH: "Friendly units cannot be hit by a
    teammate's attacks. Shots go through them." "Net Fighters do not disable friendly units."
*help* — whose modules and HQ abilities act on whom. 3E TEAM MATCH: "Module and HQ bonuses also affect friendly
    units. Similarly Modules affecting enemy units (i.e. Scoper) affect all the enemies, and don't affect
    friendly units."

Both are expressed as a key per unit: units with the same key are friends for that relation. Everything that
already compares controllers then compares keys, and no rule needs a branch for teams.

Moloch in a Team Match (3E, "optional"; option ``moloch-team-fire``, RULINGS 64): "Its units hit and wound
friendly units as usual (of course HQ does not wound another HQ), but Modules and the HQ give them bonuses …
Moloch's allies can push back its units, be pushed back by them, and always disable each other's units with a
Net." Moloch's units keep their own army as their harm key, so they and their allies net and push each other
both ways, while both share the team's help key. The book names Moloch's hits only: RULINGS 71 reads the allies'
attacks as passing over Moloch's units like any teammate's (option ``moloch-team-fire=moloch``, the default). An
attacker looks at its targets through :func:`attack_view`: Moloch's units through the harm keys, every other unit
through the help keys, in which Moloch's units are its friends. ``moloch-team-fire=yes`` keeps the reading before
RULINGS 71 (the harm keys for every attack, both ways); ``no`` drops the exception.
"""

from __future__ import annotations

from typing import Iterable, Mapping

from .hexes import Hex
from .position import Position
from .rules import RuleSet
from .tiles import base_army

#: The army whose units fight their allies in a team match (3E, Moloch in a Team Match).
_RECKLESS_ARMY = "moloch"


def team_key(team: Iterable[str]) -> str:
    """The name a team acts under in choices and reports: its armies joined by ``+``, in name order."""
    return "+".join(sorted(team))


def key_of(army: str, teams: tuple[tuple[str, ...], ...]) -> str:
    """The help key of an army: its team's, or its own when it plays alone."""
    for team in teams:
        if army in team:
            return team_key(team)
    return army


def harm_key_of(army: str, teams: tuple[tuple[str, ...], ...], rules: RuleSet) -> str:
    if base_army(army) == _RECKLESS_ARMY and rules.option("moloch-team-fire") != "no":  # moloch/b too (mirror.py)
        return army
    return key_of(army, teams)


def keys(controllers: Mapping[Hex, str], teams: tuple[tuple[str, ...], ...], rules: RuleSet
         ) -> tuple[dict[Hex, str], dict[Hex, str]]:
    """``(harm, help)``: each unit's key for both relations, from who controls it (its commander, or the army
    that took it over)."""
    harm = {hex_: harm_key_of(army, teams, rules) for hex_, army in controllers.items()}
    help_ = {hex_: key_of(army, teams) for hex_, army in controllers.items()}
    return harm, help_


def one_way(rules: RuleSet) -> bool:
    """Whether Moloch's team fire runs one way (RULINGS 71): its attacks hit its allies, theirs pass over it."""
    return rules.option("moloch-team-fire") == "moloch"


def plays_for(key: str, army: str) -> bool:
    """Whether ``army`` decides for ``key`` (its own army, or its team): the solver maximises these choices."""
    return key == army or army in key.split("+")


def allied(position: Position, a: str, b: str) -> bool:
    """Whether armies ``a`` and ``b`` are friends: the same army, or teammates (3E TEAM MATCH: "Instant Action
    tiles cannot be used on friendly units")."""
    return a == b or key_of(a, position.teams) == key_of(b, position.teams)


def hostile(position: Position, a: str, b: str) -> bool:
    """Whether ``a``'s attacks, Nets and pushes reach ``b``'s units (Moloch and its allies push each other: 3E,
    Moloch in a Team Match)."""
    return a != b and harm_key_of(a, position.teams, position.rules) != harm_key_of(b, position.teams, position.rules)
