"""The Sharpshooter (New York): it chooses which enemy unit on its line of fire it shoots.

B13 DESCRIPTION OF NEW ICONS, Sharpshooter: "A Sharpshooter can choose which enemy unit in the line of fire it
shoots. (It does not need to be the first enemy unit.) The armor of the unit being shot at works normally
against the shot." RULINGS 32: any enemy on the line, an HQ included (3E UNIT TILES: an HQ is a unit tile).

A player choice of the battle, asked of the Sharpshooter's controller for each of its ranged attacks and
enumerated like the Medics' choices (:func:`solver.battle.battle_tree`). Its ranged attacks keep their bonuses
(Officer II); its melee edges, if any, act as usual. A terrain or redirection family that stops a shot on the way
(the point ``shot_meets``) ends the line of choice there.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from ..fight import Hit
from ..hexes import Direction
from . import Ability

if TYPE_CHECKING:  # pragma: no cover
    from ..battle import Fight
    from ..effects import Bonus
    from ..position import Unit

RULE = "B13 DESCRIPTION OF NEW ICONS, Sharpshooter; RULINGS 32"


class Sharpshooter(Ability):
    tile_abilities = frozenset({"sharpshooter"})

    def act(self, fight: Fight, unit: Unit, phase: int, bonus: Bonus | None) -> list[Hit] | None:
        if "sharpshooter" not in unit.tile.abilities:
            return None
        hits: list[Hit] = []
        for strike in fight.strikes_of(unit, bonus):
            if strike.kind == "melee":
                hit = fight.melee(unit, strike.direction, strike.strength, phase)
                if hit:
                    hits.append(hit)
                continue
            options = targets(fight, unit, strike.direction, strike.strength, phase)
            if not options:
                continue
            labels = [f"shoots {fight.units[h.target].tile.key} on {h.target}" if h.target in fight.units
                      else f"shot ends on {h.target}" for h in options]
            chosen = options[fight.choose(fight.side(unit), f"{unit.tile.key} on {unit.hex} in phase {phase}",
                                          labels)]
            if chosen.wounds > 0:
                hits.append(chosen)
            if fight.tracing:
                fight.note(phase, "sharpshooter", f"{unit.tile.key} on {unit.hex} {labels[options.index(chosen)]}",
                           RULE)
        return hits


def targets(fight: Fight, unit: Unit, direction: Direction, strength: int, phase: int) -> list[Hit]:
    """One hit per enemy on the line the Sharpshooter may choose (armor applied), in the order of the line."""
    found: list[Hit] = []
    for hex_ in fight.board.line_of_fire(unit.hex, direction):
        for ability in fight.points.shot_meets:
            fate = ability.shot_meets(fight, unit, hex_, direction, strength, phase)
            if fate is not None:
                return found + fate
        target = fight.units.get(hex_)
        if target is None or not fight.enemies(unit, target):
            continue
        armor = 1 if target.oriented.edges[direction.opposite].armor else 0
        found.append(Hit(unit.hex, hex_, strength - armor, "ranged", "armor −1" if armor else ""))
    return found
