"""The Mad Bomber (2E SPECIAL EXPANSION: 4 MERCENARIES FROM ALABAMA), neutral or hired: any hit sets him off.

2E, Mad Bomber as non player character: "If, during any battle, Mad Bomber is hit (by range or melee attack,
Grenade, etc.), he explodes dealing 1 wound to all adjacent units except HQs. After an explosion, Mad Bomber goes
on top of the next player's unused pile of tiles ... In a multi-player game, Mad Bomber goes to the player to the
right of the player who detonated Mad Bomber." "If Mad Bomber gets hit from several players at the same time (in
the same initiative phase), he is removed from the game and does not return." "Mad Bomber can be normally disabled
with a net ... If disabled, he cannot explode, but he can receive wounds: if he is killed, he returns just as if
he detonated." 2E, Mad Bomber as a mercenary: "When detonated, Mad Bomber causes 1 wound to all adjacent enemy
units (including HQs)."

RULINGS 56: the neutral Bomber (no ``owner=``, NOTATION §10.4) belongs to no army and every army treats him as an
enemy (his commander is the mercenary pool, which no player commands, so the ordinary "different commander" test
makes him everyone's enemy: shots stop at him, nets hold him, HQs strike him); one wound kills him (no toughness is
printed); his blast, 1 wound to every adjacent unit but HQs, lands with the hits of the phase that set him off (the
point ``reactions``, so an instant's hit sets him off too). RULINGS 57: the hired Bomber (``owner=ARMY``) is his
owner's unit and wounds only the owner's enemies, HQs included.

Where the neutral Bomber goes is reported with the battle's outcome as ``mad_bomber_goes_to`` (NOTATION §10.8):
the detonator's opponent with two armies, None when several armies hit him in one phase. With three or more
armies "the player to the right" needs the seating: a game record's turn order, or a position's ``players`` line
(NOTATION §10.5's line, allowed in a position as an additive extension, README), read by option ``bomber-right``
as a record reads it (:func:`solver.turns.mercenaries.right_of`). Without one, or when the detonator sits twice
(the Loner of 1 vs a team, whose seat the position does not tell), `nhex battle --json` refuses it (exit 4) at
the Mad Bomber's line. ``mad_bomber_hit_by`` (an additive key, README) names the armies that set him off, neutral or hired; a
game record puts him on a pile from it (solver/turns/hiring.py; where the hired one goes is unsettled, RULINGS 57: rule
option ``hired-bomber``). Between battles an instant's hit blasts him the same way (the
instant's army is the detonator), but the position keeps no piles: where he goes then is not tracked.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Sequence

from ..engine.fight import Hit, Unsettled
from ..hexes import Hex
from ..tiles import NEUTRAL_ARMY
from ..engine.points import Ability
from ..turns.mercenaries import BOMBER, HIT_BY, right_of
from .redirection import netted_now

if TYPE_CHECKING:  # pragma: no cover
    from ..engine.battle import Fight
    from ..position import Unit

RULE = "RULINGS 56; 2E Mad Bomber as non player character"
HIRED_RULE = "RULINGS 57; 2E Mad Bomber as a mercenary"
REPORT = "mad_bomber_goes_to"
#: The next player's seat for him: "the player to the right of the player who detonated" (2E).
SEATING = ("where mercenary:mad-bomber goes with three or more armies: 'the player to the right of the player who "
           "detonated' needs their seating, a `players` line naming every army once (2E Mad Bomber as non player "
           "character)")


class MadBomber(Ability):
    order = 60  # after the Trap, whose blast may set him off

    @classmethod
    def carried_by(cls, tile) -> bool:  # type: ignore[no-untyped-def]
        return tile.army == NEUTRAL_ARMY and tile.name == BOMBER

    def reactions(self, fight: Fight, phase: int | None, hits: Sequence[Hit]) -> list[Hit]:
        detonators: dict[Hex, set[str]] = {}
        for hit in hits:
            bomber = fight.units.get(hit.target)
            if bomber is None or not self.carried_by(bomber.tile) or hit.target in fight.removed:
                continue
            detonators.setdefault(hit.target, set()).add(_detonator(fight, hit))
        blasts: list[Hit] = []
        for hex_, armies in sorted(detonators.items()):
            bomber = fight.units[hex_]
            if any(h.target == hex_ and h.kind != "instant" for h in hits):
                # A battle's outcome says who set him off, and where the neutral Bomber goes.
                fight.reports[HIT_BY] = tuple(sorted(armies))
                if bomber.is_neutral:
                    fight.reports[REPORT] = _goes_to(fight, armies)
            if hex_ in netted_now(fight, phase):
                if fight.tracing:
                    fight.note(phase, "mad-bomber", f"the Mad Bomber on {hex_} is netted and cannot explode; "
                               "the hit kills him", RULE)
                continue
            fight.removed_now(hex_)
            if fight.tracing:
                who = " and ".join(sorted(armies))
                fight.note(phase, "explosion", f"the Mad Bomber on {hex_} is hit by {who} and explodes",
                           RULE if bomber.is_neutral else HIRED_RULE)
            for _, near in fight.board.neighbours(hex_):
                target = fight.units.get(near)
                if target is None or not _blasted(fight, bomber, target):
                    continue
                blasts.append(Hit(hex_, near, 1, "bomber", "Mad Bomber: 1 wound"))
        return blasts


def _blasted(fight: Fight, bomber: Unit, target: Unit) -> bool:
    """The neutral Bomber wounds every adjacent unit but HQs; the hired one every adjacent enemy, HQs included."""
    if bomber.is_neutral:
        return not target.is_hq
    return fight.enemies(bomber, target)


def _detonator(fight: Fight, hit: Hit) -> str:
    """The army whose attack hit him: the attacking unit's controller, or an instant tile's army (its key, which
    the hit carries as its note: :func:`solver.engine.battle.wound`)."""
    if hit.source is not None:
        source = fight.units.get(hit.source)
        if source is not None:
            return fight.side(source)
    return hit.note.split(":", 1)[0] if ":" in hit.note else "?"


def _goes_to(fight: Fight, detonators: set[str]) -> str | Unsettled | None:
    if len(detonators) > 1:
        return None  # "removed from the game and does not return"
    armies = sorted(set(fight.position.armies))
    (detonator,) = detonators
    others = [a for a in armies if a != detonator]
    if len(armies) == 2 and len(others) == 1:
        return others[0]
    # The seating: the position's `players` line (a game record places him itself, solver/turns/hiring.py, from
    # HIT_BY). Without one, the JSON refuses by name.
    seats = fight.position.seats
    if seats.count(detonator) == 1 and set(armies) <= set(seats):
        return right_of(seats, seats.index(detonator), armies, fight.rules)
    return Unsettled(SEATING)
