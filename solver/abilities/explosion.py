"""The Clown's explosion (Moloch): in its phase it may explode instead of attacking.

RULINGS 10; ES Moloch sheet, Payaso: "puede explotar … 1 herida a todas las unidades adyacentes, incluyendo los
CGs" (it may explode … 1 wound to every adjacent unit, HQs included); PL Klaun. No bonuses, armor ignored; a
netted Clown cannot explode (it does not act at all). Option ``clown-hits-hq=no`` spares HQs (the PL reading of
the blast as a Bomb); ``clown-may-explode=no`` makes it a plain warrior.

RULINGS 68 (option ``clown-destroys-foundations``, default ``yes``): the blast "is treated exactly as the Bomb"
(the designer's answers to disputed questions, Babel 13 part), so on the six hexes next to the Clown it destroys
the foundations (Roots, Mines) as RULINGS 41's instants do — where an instant would (B13 SCENARIO 4, Bunker Hidden,
and Thick Forest spare them, :func:`~solver.abilities.terrain.spares_foundations`) — and a unit standing on one is
hit as well. They leave the board at once; the position is read again at the next phase (the Motherland's Roots
change its links). ``no`` keeps RULINGS 25: only instants destroy foundations.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from ..engine.fight import Hit
from ..engine.points import Ability

if TYPE_CHECKING:  # pragma: no cover
    from ..engine.battle import Fight
    from ..engine.effects import Bonus
    from ..position import Unit


class Explosion(Ability):
    tile_abilities = frozenset({"explosion"})
    #: The blast deals 1 to every adjacent unit, HQs included, instead of the Clown's attack: the search's bound
    #: counts it for every side of the Clown (bound_blast), beside its attacks.
    within_hq_bound = True
    bound_blast = 1

    def act(self, fight: Fight, unit: Unit, phase: int, bonus: Bonus | None) -> list[Hit] | None:
        if "explosion" not in unit.tile.abilities or not fight.rules.enabled("clown-may-explode"):
            return None
        answer = fight.choose(fight.side(unit), f"{unit.tile.key} on {unit.hex} in phase {phase}",
                              ("attacks", "explodes"))
        if answer == 0:
            return None
        hits = blast(fight, unit, phase, hq=fight.rules.enabled("clown-hits-hq"), rule="RULINGS 10; ES Payaso, PL Klaun")
        if fight.rules.enabled("clown-destroys-foundations"):
            _destroy_foundations(fight, unit, phase)
        return hits


def _destroy_foundations(fight: Fight, clown: Unit, phase: int) -> None:
    """RULINGS 68: the foundations on the six hexes next to the exploding Clown are destroyed, as by a Bomb."""
    from dataclasses import replace

    from .terrain import spares_foundations

    position = fight.position
    near = {h for _, h in fight.board.neighbours(clown.hex)}
    hit = {f.hex for f in position.foundations if f.hex in near}
    destroyed = hit - spares_foundations(position.terrain, hit)
    if not destroyed:
        return
    gone = [f for f in position.foundations if f.hex in destroyed]
    fight.position = replace(position, foundations=tuple(f for f in position.foundations if f.hex not in destroyed))
    fight.changed = fight.stale = True  # the Roots under the Motherland's links: read the position again
    if fight.tracing:
        for f in gone:
            fight.note(phase, "explosion", f"the blast destroys {f.tile.key} on {f.hex}",
                       "RULINGS 68; the designer's answers (Babel 13): the Clown's explosion 'is treated exactly as "
                       "the Bomb'")


def blast(fight: Fight, unit: Unit, phase: int, *, hq: bool, rule: str) -> list[Hit]:
    """The unit explodes and leaves the board: 1 wound to every adjacent unit, friend or foe, no bonuses, armor
    ignored; HQs only when ``hq``. Shared by every tile that explodes (the Clown, the Explosives prize)."""
    fight.removed_now(unit.hex)
    if fight.tracing:
        fight.note(phase, "explosion", f"{unit.tile.key} on {unit.hex} explodes", rule)
    hits = []
    for _, hex_ in fight.board.neighbours(unit.hex):
        target = fight.units.get(hex_)
        if target is None or (target.is_hq and not hq):
            continue
        hits.append(Hit(unit.hex, hex_, 1, "blast", "blast 1: no bonuses, armor ignored"))
    return hits
