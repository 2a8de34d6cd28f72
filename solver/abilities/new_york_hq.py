"""The New York HQ's toughness point, and its immediate loss.

B13 NEW YORK, HQ: "The HQ gives its own adjacent units one additional Toughness (Endurance) point. (If the unit
receives one wound it doesn't die - instead a wound marker should be placed on it). If such a unit becomes
nonadjacent to the HQ, or when the HQ is caught in a net, the unit immediately loses the additional Toughness,
and it could die immediately as a result".

The point itself is an ordinary link bonus (module effect ``toughness-bonus`` on the HQ's six link icons, read by
:func:`solver.engine.effects.bonuses`). This family owns its *loss* (RULINGS 30):

* in a battle, when the HQ is destroyed a unit that lived by its point dies at the end of that phase, with the
  HQ (RULINGS 14: a destroyed unit keeps its effects until the end of its phase) — the point ``after_damage``;
  and so when the HQ is caught in a net in the battle: a Net Fighter that becomes free at the end of a phase
  (the unit netting it died) and nets the HQ takes the point away at once, and a unit it kept alive dies with
  the phase's dead ("when the HQ is caught in a net, the unit immediately loses the additional Toughness");
* between battles, when a unit moves or is pushed away, or a Net is placed on the HQ, or the HQ moves away —
  the point ``arrived``: after every arrival, a unit whose wounds exceed the toughness the position now gives it
  is removed.

A Medic beside the HQ that absorbs an attack is discarded all the same (RULINGS 31, B13 MORE ON MEDIC IN NEW
YORK): the battle discards it; the point does not keep it. The same sentence, "If Medic adjacent to NJ's HQ takes
wound, it is killed and removed from board immediately - bonus from NS's HQ will not help him in that situation",
also reads as any wound: option ``ny-medic-direct-hit`` = ``absorb-only`` (RULINGS 31's reading, the default: a
Medic hit directly keeps the point like any unit) | ``any-wound`` (a Medic wounded directly beside the HQ is judged
without the HQ's point, and dies at the end of the phase if its wounds then kill it).
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Mapping

from ..hexes import Hex
from ..tiles import Kind
from ..engine.points import Ability

if TYPE_CHECKING:  # pragma: no cover
    from ..engine.battle import Fight
    from ..position import Position, Unit
    from ..tiles import Tile

RULE = "RULINGS 30; B13 NEW YORK, HQ: the unit 'immediately loses the additional Toughness'"


#: The instants that move units and wound none (3E MOVE, PUSH BACK).
_MOVES_ONLY = frozenset({"move", "push-back"})

MEDIC_RULE = ("B13 MORE ON MEDIC IN NEW YORK: 'If Medic adjacent to NJ's HQ takes wound, it is killed ... bonus "
              "from NS's HQ will not help him'; option ny-medic-direct-hit=any-wound")


def _medics_hit(fight: Fight, phase: int | None, damage: Mapping[Hex, int], removed: set[Hex]) -> None:
    """Option ny-medic-direct-hit=any-wound: a Medic wounded directly this phase beside a New York HQ whose point
    it gets dies if its wounds exceed its toughness without that point."""
    units = fight.units
    hit = [h for h in damage if h not in removed and h in units and _is_medic(units[h])
           and _givers_near(units, h)]
    if not hit:
        return
    from ..engine import effects  # effects imports this package

    bare = {h: u for h, u in units.items() if h not in removed and not _gives_toughness(u)}
    reading = effects.read(bare, fight.rules, fight.points, fight.teams, fight.position.foundations)
    for ability in fight.points.boost:  # Fortress, First Aid Kit still count: only the HQ's point is lost
        ability.boost(fight, reading.bonuses)
    for hex_ in hit:
        medic = units[hex_]
        bonus = reading.bonuses.get(hex_)
        if medic.wounds > medic.tile.toughness + (bonus.toughness if bonus else 0):
            removed.add(hex_)
            if fight.tracing:
                fight.note(phase, "death", f"{medic.tile.key} on {hex_} is wounded beside the New York HQ: its "
                           "point does not help a Medic, which dies", MEDIC_RULE)


def _is_medic(unit: Unit) -> bool:
    module = unit.tile.module
    return module is not None and module.type == "medic"


def _givers_near(units: Mapping[Hex, Unit], hex_: Hex) -> list[Hex]:
    """The toughness givers standing next to ``hex_``."""
    from ..hexes import around

    return [h for h in around(hex_) if h in units and _gives_toughness(units[h])]


def _past_its_toughness(unit: Unit) -> bool:
    """Whether a unit (not an HQ) carries more wounds than its printed toughness: only the position's toughness
    bonuses keep it alive, and only it may die when one is lost between battles."""
    return not unit.is_hq and unit.wounds > unit.tile.toughness


def _gives_toughness(unit: Unit) -> bool:
    module = unit.tile.module
    return module is not None and module.type == "toughness-bonus"


class HQToughness(Ability):
    module_effects = frozenset({"toughness-bonus"})

    def after_damage(self, fight: Fight, phase: int | None, damage: Mapping[Hex, int], removed: set[Hex]) -> None:
        if damage and fight.rules.option("ny-medic-direct-hit") == "any-wound":
            _medics_hit(fight, phase, damage, removed)
        units = fight.units
        if not removed or not any(_gives_toughness(u) for u in units.values()):
            return  # the links change only when a unit leaves: the HQ itself, or a Net Fighter's netter (B13)
        from ..engine import effects  # effects imports this package

        while True:  # a unit dying here may itself have netted or held someone: read again until nothing changes
            standing = {h: u for h, u in units.items() if h not in removed}
            reading = effects.read(standing, fight.rules, fight.points, fight.teams, fight.position.foundations)
            for ability in fight.points.boost:  # Fortress, First Aid Kit: what the position adds (the point boost)
                ability.boost(fight, reading.bonuses)
            dying = []
            for hex_, unit in standing.items():
                if unit.is_hq or not unit.wounds:
                    continue
                bonus = reading.bonuses.get(hex_)
                if unit.wounds > unit.tile.toughness + (bonus.toughness if bonus else 0):
                    dying.append((hex_, unit))
            if not dying:
                return
            if fight.tracing:
                fight.explain(reading, phase, standing)  # the causes first: who is netted, who no longer is
            for hex_, unit in dying:
                removed.add(hex_)
                if fight.tracing:
                    why = ("is netted" if any(h in reading.nets for h in _givers_near(standing, hex_))
                           else "is gone")
                    fight.note(phase, "death", f"{unit.tile.key} on {hex_} loses the HQ's toughness point (the HQ "
                               f"{why}) and dies", RULE)

    def quiet_in_turn(self, position: Position, player: str, offer: tuple[Tile, ...]) -> bool:
        # The point's loss between battles (arrived) removes only a unit wounded past its printed toughness: with
        # none on the board and no offered instant that wounds (Move and Push Back only move units), there is none
        # all turn. The fast listings of a plain board (solver.search.enumeration) then hold; a New York draft's
        # listing took 2.5-3 times as long without them (issue 27).
        return (not any(_past_its_toughness(unit) for unit in position.units)
                and all(tile.kind is not Kind.INSTANT or tile.name in _MOVES_ONLY for tile in offer))

    def arrived(self, position: Position, hex_: Hex) -> Position:
        from ..position import position_toughness

        # The position's toughness bonuses only add (a module's toughness-bonus is positive, tests/test_tiles.py; a
        # Fortress and a First Aid Kit +1), so a unit within its printed toughness lives: the links are read only
        # for a unit past it (a reading per placement cost a tenth of a New York draft's listing, issue 27).
        dead = [u for u in position.units if _past_its_toughness(u) and u.wounds > position_toughness(position, u)]
        if not dead:
            return position
        return position.replaced(units=tuple(u for u in position.units if u not in dead))
