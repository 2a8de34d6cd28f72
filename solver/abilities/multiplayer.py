"""The multiplayer modes' battle rules (3E THE MULTIPLAYER MODE): a fallen army leaves the board at the end of
the battle (deathmatch), and HQ wounds become points (the score mode). Team play is a matter of who is whose
ally, which :mod:`solver.teams` derives for the reading of the position; the turn order, the Final Battle and
victory are :mod:`solver.turns.game`'s.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Sequence

from ..engine.fight import Hit
from ..hexes import Hex
from ..teams import allied
from ..engine.points import Ability

if TYPE_CHECKING:  # pragma: no cover
    from ..engine.battle import Fight
    from ..position import Unit

#: 3E DEATHMATCH WITH AN OPTIONAL SCORE RULE: "Players may never score more than 20 points."
MOST_POINTS = 20
#: 2E Optional Score Rules: "a team which scores a total of 40 points wins".
TEAM_POINTS = 40


class FallenArmies(Ability):
    """3E THE MULTIPLAYER MODE, DEATHMATCH, HQ DESTROYED: "If any player loses their HQ, its tile is removed
    from the board together with all its Unit tiles at the end of the Battle. The player is out and the game
    continues without them." Its units act until then (RULINGS 61). Teams end the game instead when an HQ falls
    (3E TEAM MATCH, 1 PLAYER VS A TEAM), so the rule is the deathmatch's; the score mode destroys no HQ."""

    position_features = frozenset({"multiplayer"})

    def battle_end(self, fight: Fight) -> None:
        if fight.teams or fight.position.mode != "deathmatch":
            return
        fallen = {u.army for u in fight.position.units if u.is_hq} - {u.army for u in fight.units.values() if u.is_hq}
        if not fallen:
            return
        for hex_, unit in list(fight.units.items()):
            if unit.army in fallen:
                del fight.units[hex_]
        if fight.tracing:
            fight.note(None, "fallen", f"{', '.join(sorted(fallen))} lost the HQ: every unit of the army leaves the "
                       "board at the end of the battle", "3E THE MULTIPLAYER MODE, HQ DESTROYED")


class ScoreMode(Ability):
    """3E DEATHMATCH WITH AN OPTIONAL SCORE RULE, ATTACKING HQ: "HQs have unlimited Toughness, and every time a
    player's unit hits an opponent's HQ, the Wounds inflicted count as points and are marked by moving that
    player's HQ marker." "Players may never score more than 20 points" (RULINGS 62: the rest is lost; option
    ``score-cap``: 2E has no such cap). An instant tile is no player's unit: its wounds on an HQ count for nobody.

    Teams (2E CHANGES IN NEW EDITION, Optional Score Rules; 3E gives no team score): "In Team Match mode, both teams
    share their point count and a team which scores a total of 40 points wins"; "whenever Moloch inflicts any
    damage on the allied HQ, the wounds are not applied and the score does not count towards the total". Each
    army keeps its own count (NOTATION §10.5 ``score ARMY N``); the team's is the sum, never above 40."""

    position_features = frozenset({"score"})

    def hq_wounds(self, fight: Fight, phase: int | None, hex_: Hex, hits: Sequence[Hit]) -> bool:
        target = fight.units[hex_]
        for hit in hits:
            attacker = fight.units.get(hit.source) if hit.source is not None else None
            if attacker is None:
                continue
            army = _scorer(fight, attacker)
            if allied(fight.position, army, target.army):
                if fight.tracing:
                    fight.note(phase, "score", f"{army} hits the allied {target.tile.key}: no wound, no point",
                               "2E Optional Score Rules (Moloch and the allied HQ)")
                continue
            before = fight.scores.get(army, 0)
            fight.scores[army] = before + min(hit.wounds, _room(fight, army))
            if fight.tracing:
                fight.note(phase, "score", f"{army} scores {fight.scores[army] - before} on {target.tile.key}"
                           f": {fight.scores[army]} points", "3E DEATHMATCH WITH AN OPTIONAL SCORE RULE")
        return True


def _scorer(fight: Fight, attacker: Unit) -> str:
    """The army whose unit hit: its controller (in a team game the controller's key may name the team: then the
    commander when a member, else the team's first member; the team's sum is the same)."""
    side = fight.side(attacker)
    members = side.split("+")
    return side if len(members) == 1 else (attacker.army if attacker.army in members else members[0])


def _room(fight: Fight, army: str) -> int:
    """How many more points ``army`` may score: up to 20 (option score-cap), or its team's 40 in all."""
    team = next((t for t in fight.teams if army in t), None)
    if team is not None:
        return max(0, TEAM_POINTS - sum(fight.scores.get(a, 0) for a in team))
    if not fight.rules.enabled("score-cap"):
        return 10**6  # 2E: "The first player to get 20 points wins"; nothing caps the count
    return max(0, MOST_POINTS - fight.scores.get(army, 0))
