"""The Gauss Cannon's beam (Moloch): every enemy unit on its line takes 1 wound.

RULINGS 11; ES Moloch sheet, Cañón Gauss: strength 1, never boosted (option ``gauss-boosted``); it wounds every
enemy on the line, HQs included, and passes over friends; armor lowers it only for the unit that has it
(3E ARMOR). A friendly redirector turns it (RULINGS 50; :mod:`solver.abilities.redirection`).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from ..engine.fight import Hit
from ..hexes import Direction, Hex
from ..tiles import Edge
from ..engine.points import Ability

if TYPE_CHECKING:  # pragma: no cover
    from ..engine.battle import Fight
    from ..engine.effects import Bonus
    from ..position import Unit


class GaussBeam(Ability):
    edge_specials = frozenset({"gauss"})
    #: The beam wounds the units on its line, HQs included, with strength 1 and the ranged bonuses at most: the
    #: search's bound counts it as a ranged icon of :meth:`bound_line_strike` (a redirector, which may turn it, is
    #: a family of its own that declares no bound).
    within_hq_bound = True

    def bound_line_strike(self, edge: Edge) -> int:
        return 1 if "gauss" in edge.special else 0

    def edge_hits(self, fight: Fight, unit: Unit, direction: Direction, edge: Edge, bonus: Bonus | None,
                  phase: int) -> list[Hit]:
        if "gauss" not in edge.special:
            return []
        boost = bonus.ranged if bonus and fight.rules.enabled("gauss-boosted") else 0
        return beam(fight, unit, unit.hex, direction, boost, phase)


def beam(fight: Fight, unit: Unit, start: Hex, direction: Direction, boost: int, phase: int) -> list[Hit]:
    """The beam of ``unit`` from ``start`` towards ``direction``: every enemy on the line takes its wound; a friendly
    redirector entered through an entrance edge turns it, and it goes no further on this line (RULINGS 50)."""
    strength = 1 + boost
    hits: list[Hit] = []
    meets = fight.points.shot_meets

    def go_on(at: Hex, d: Direction) -> list[Hit]:
        return beam(fight, unit, at, d, boost, phase)

    for hex_ in fight.board.line_of_fire(start, direction):
        # the beam is a shot: what stops, spends or turns a shot on its way does so to the beam (High, Thick:
        # B13 FOREST; a redirector, RULINGS 50), and a turned beam goes on as a beam
        for ability in meets:
            fate = ability.shot_meets(fight, unit, hex_, direction, strength, phase, go_on)
            if fate is not None:
                return hits + fate
        target = fight.units.get(hex_)
        if target is None or not fight.enemies(unit, target):
            continue
        armor = target.oriented.shielded >> direction & 1  # the edge facing the beam has armor (Oriented)
        wounds = strength - armor
        how = ""
        if fight.tracing:
            how = " + ".join(("Gauss 1", *(fight.added(unit, "ranged") if boost else ()))) + ("; armor −1" if armor
                                                                                             else "")
        if wounds > 0:
            hits.append(Hit(unit.hex, hex_, wounds, "gauss", how, direction))
        elif fight.tracing:
            fight.note(phase, "armor", f"armor of {target.tile.key} on {hex_} stops the Gauss beam for itself",
                       "3E ARMOR")
    return hits
