"""The Shotgun (New York): 3 wounds to the first enemy on its line if adjacent, 2 at two hexes, 1 at three.

B13 NEW YORK, Shotgun: "Like most shooters, the shotgun hits the first enemy unit in the line of fire. If the
target was adjacent to the Shotgun it gets 3 wounds, 2 wounds if it is 2 hexes away, 1 wound if it is 3 hexes
away, and no damage if it is farther away. No bonuses increasing firepower have an effect on the shotgun."
RULINGS 33: armor lowers the blast by 1 like any shot (3E ARMOR). On a Watchtower (B13 HILL, WATCHTOWER: "any
ranged attack gains Sharpshooter ability") it chooses its enemy on the line, wounding by that enemy's distance
(:mod:`.sharpshooter`; option ``watchtower-specials``).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from ..engine.fight import Hit
from ..hexes import Direction
from ..tiles import Edge
from ..engine.points import Ability
from .sharpshooter import aim, sharpshoots

if TYPE_CHECKING:  # pragma: no cover
    from ..engine.battle import Fight
    from ..engine.effects import Bonus
    from ..position import Unit

RULE = "B13 NEW YORK, Shotgun; RULINGS 33"


class Shotgun(Ability):
    edge_specials = frozenset({"shotgun"})

    def edge_hits(self, fight: Fight, unit: Unit, direction: Direction, edge: Edge, bonus: Bonus | None,
                  phase: int) -> list[Hit]:
        if "shotgun" not in edge.special:
            return []
        rule = sharpshoots(fight, unit)
        if rule is not None and fight.rules.option("watchtower-specials") == "choose":
            return aim(fight, unit, direction, phase, lambda distance: max(0, 4 - distance), "shotgun", rule)
        for distance, hex_ in enumerate(fight.board.line_of_fire(unit.hex, direction), start=1):
            strength = max(0, 4 - distance)
            for ability in fight.points.shot_meets:
                fate = ability.shot_meets(fight, unit, hex_, direction, strength, phase)
                if fate is not None:
                    return fate
            target = fight.units.get(hex_)
            if target is None or not fight.enemies(unit, target):
                continue  # it flies over friends like any shot (3E RANGED ATTACK)
            if unit.is_hq and target.is_hq:
                return []
            armor = 1 if target.oriented.edges[direction.opposite].armor else 0
            wounds = strength - armor
            if wounds <= 0:
                if fight.tracing:
                    fight.note(phase, "shotgun", f"the Shotgun on {unit.hex} does nothing to {target.tile.key} on "
                               f"{hex_} ({distance} hexes away{', armor' if armor else ''})", RULE)
                return []
            return [Hit(unit.hex, hex_, wounds, "shotgun",
                        f"shotgun at {distance}" + ("; armor −1" if armor else ""))]
        return []
