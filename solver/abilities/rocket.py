"""The Rocket Launcher (New York): a rocket on a path of its owner's choosing; 3 wounds to the first enemy.

B13 NEW YORK, Rocket Launcher: "The Rocket enters the adjacent hex in the direction indicated on the tile, and
then it can go two additional hexes, not necessarily in a straight line, chosen by the owner. The first enemy it
hits (including HQ) receives 3 wounds. It moves through the owner's pieces without hitting them. No bonuses
increasing firepower have effect on the rocket launcher." RULINGS 34: up to two more adjacent hexes in any
direction; a path that meets no enemy hits nothing.

The owner's choice is asked once per rocket among the distinct results its paths give (each enemy it can reach
first, and "nothing" when some path meets none), like any battle choice. Revisiting a hex reaches nothing a
shorter path does not, so paths need not revisit. Armor (RULINGS 67, settling 34: the designer's answers, Babel
13 part, armor lowers all ranged attacks, "Strzał, Shotgun, Rakieta") is the option ``rocket-armor``: by default
the armor on the side the rocket enters from lowers it by 1, as for any shot (3E ARMOR). On a
Watchtower (B13 HILL, WATCHTOWER: "any ranged attack gains Sharpshooter ability") the rocket may pass over enemies
on its path and hit one further on (:mod:`.sharpshooter`; option ``watchtower-specials``).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from ..engine.fight import Hit
from ..hexes import Direction, Hex
from ..tiles import Edge
from ..engine.points import Ability
from .sharpshooter import dry, flies_past, sharpshoots

if TYPE_CHECKING:  # pragma: no cover
    from ..engine.battle import Fight
    from ..engine.effects import Bonus
    from ..position import Unit

RULE = "B13 NEW YORK, Rocket Launcher; RULINGS 34, 67"
#: The rocket's strength and the hexes it may go after the first (B13: "two additional hexes").
STRENGTH = 3
FURTHER = 2


class Rocket(Ability):
    edge_specials = frozenset({"rocket"})

    def edge_hits(self, fight: Fight, unit: Unit, direction: Direction, edge: Edge, bonus: Bonus | None,
                  phase: int) -> list[Hit]:
        if "rocket" not in edge.special:
            return []
        rule = sharpshoots(fight, unit)
        chooses = rule is not None and fight.rules.option("watchtower-specials") == "choose"
        # the paths are looked along with nothing kept (a Warehouse records the wounds of a shot it stops), then
        # the chosen one is flown for real
        look = lambda: reachable(fight, unit, direction, phase, through_enemies=chooses)  # noqa: E731
        results = dry(fight, look) if fight.points.shot_meets else look()
        keys = sorted(results, key=lambda k: (k is None, str(k)))
        if not keys:
            return []
        labels = [f"rocket hits {fight.units[k[0]].tile.key} on {k[0]}" if k is not None and k[0] in fight.units
                  else "rocket hits nothing" if k is None else f"rocket stops on {k[0]}" for k in keys]
        answer = fight.choose(fight.side(unit), f"{unit.tile.key} on {unit.hex} in phase {phase}: the rocket's path",
                              labels)
        if fight.tracing:
            fight.note(phase, "rocket", f"{unit.tile.key} on {unit.hex}: {labels[answer]}", RULE)
        hits, path = results[keys[answer]]
        for hex_, step in path:
            for ability in fight.points.shot_meets:
                fate = ability.shot_meets(fight, unit, hex_, step, STRENGTH, phase)
                if fate is not None:
                    return fate
        return list(hits)


#: A hex the rocket enters, and the way it travels as it enters.
Step = tuple[Hex, Direction]


def reachable(fight: Fight, unit: Unit, direction: Direction, phase: int,
              through_enemies: bool = False) -> dict[tuple | None, tuple[tuple[Hit, ...], tuple[Step, ...]]]:
    """Every distinct result of the rocket's paths: its hits by (first enemy hex, armor), None for no enemy, each
    with one path giving it. ``through_enemies``: the rocket has the Sharpshooter ability (a Watchtower) and may
    pass over enemies to hit one further on its path; a path that passes every enemy it meets is no choice of
    target."""
    found: dict[tuple | None, tuple[tuple[Hit, ...], tuple[Step, ...]]] = {}
    board = fight.board
    armor_counts = fight.rules.enabled("rocket-armor")

    def enter(hex_: Hex, step: Direction, left: int, met: bool, path: tuple[Step, ...]) -> None:
        if hex_ not in board:
            return
        path = path + ((hex_, step),)
        for ability in fight.points.shot_meets:
            fate = ability.shot_meets(fight, unit, hex_, step, STRENGTH, phase)
            if fate is not None:
                found.setdefault((hex_, "stopped", tuple((h.target, h.wounds) for h in fate)), (tuple(fate), path))
                return
        target = fight.units.get(hex_)
        if target is not None and fight.enemies(unit, target):
            armor = 1 if armor_counts and target.oriented.edges[step.opposite].armor else 0
            wounds = STRENGTH - armor
            hits = (Hit(unit.hex, hex_, wounds, "rocket", "armor −1" if armor else ""),) if wounds > 0 else ()
            found.setdefault((hex_, armor), (hits, path))
            if not through_enemies or not flies_past(fight, hex_):
                return
            met = True
        if left == 0:
            if not met:
                found.setdefault(None, ((), path))
            return
        for d, nxt in board.neighbours(hex_):
            enter(nxt, d, left - 1, met, path)

    try:
        enter(unit.hex.neighbour(direction), direction, FURTHER, False, ())
    finally:
        del enter  # a closure that calls itself is a reference cycle: emptied, it is freed at once
    return found
