"""Prize markers (B13 PRIZE MARKERS): what each does on a unit, and putting a held marker on a unit.

In battle (point ``boost``): First Aid Kit +1 toughness, Enhanced Hit +1 melee, Enhanced Shot +1 ranged, the
Accelerator +1 initiative, Additional Action one more action at the unit's current initiative − 1 after its
normal one, lost below 0, adding to other extra actions (RULINGS 48, as RULINGS 6). Explosives (point ``act``):
in its segment its owner may explode the unit instead of attacking: 1 wound to every adjacent unit, friend or
foe, HQs included; the unit is removed and no Medic saves it; a Medic may save a neighbour (RULINGS 47).
Universal markers mean what the scenario says: they are held and put on units by the general rule ("he can
place it on a unit of his choice in any of his later turns"), but a battle with one on a unit is refused by name,
as nothing states what it does there.

Between battles (points ``turn_actions``/``turn_results``): ``prize NAME HEX`` puts a held marker on an own
unit, at any time during the owner's turn, even far away or netted; never on an HQ, at most two on a unit. A
Mobility marker gives its unit Mobility: the turn rules read it through :func:`has_mobility`.
"""

from __future__ import annotations

from dataclasses import replace
from typing import TYPE_CHECKING, Iterable

from ..errors import IllegalAction, RuleNotImplemented
from ..expansion import PRIZES_PER_UNIT, UNIQUE_PRIZES
from ..engine.fight import Hit
from ..engine.points import Ability
from .explosion import blast

if TYPE_CHECKING:  # pragma: no cover
    from ..turns.actions import Spent
    from ..engine.battle import Fight
    from ..engine.effects import Bonus
    from ..hexes import Hex
    from ..position import Action, Position, Unit

PASSAGE = "B13 PRIZE MARKERS"


def has_mobility(unit: Unit) -> bool:
    """The unit has Mobility, printed or from a Mobility marker (B13 PRIZE MARKERS, MOBILITY)."""
    return bool(unit.tile.mobility) or "mobility" in unit.prizes


class Prizes(Ability):
    position_features = frozenset({"held_prizes", "unit-prizes"})

    def boost(self, fight: Fight, bonuses: dict[Hex, Bonus]) -> None:
        from ..engine.effects import Bonus

        for hex_, unit in fight.units.items():
            if not unit.prizes:
                continue
            universal = [p for p in unit.prizes if p in UNIQUE_PRIZES]
            if universal:
                raise RuleNotImplemented(f"the {universal[0]} Prize marker on a unit: what it does is the "
                                         f"scenario's ({PASSAGE}, UNIVERSAL MARKERS: 'their meaning is described by "
                                         f"the particular scenario'), and no notation states it; {unit.tile.key} "
                                         f"on {hex_.label}")
            bonus = bonuses.setdefault(hex_, Bonus())
            for prize in unit.prizes:
                if prize == "first-aid-kit":
                    bonus.toughness += 1
                elif prize == "enhanced-hit":
                    bonus.melee += 1
                elif prize == "enhanced-shot":
                    bonus.ranged += 1
                elif prize == "accelerator":
                    bonus.initiative += 1
                elif prize == "additional-action":
                    bonus.extra_actions += 1

    def act(self, fight: Fight, unit: Unit, phase: int, bonus: Bonus | None) -> list[Hit] | None:
        if "explosives" not in unit.prizes:
            return None
        answer = fight.choose(fight.side(unit), f"{unit.tile.key} on {unit.hex} with Explosives in phase {phase}",
                              ("attacks", "explodes"))
        if answer == 0:
            return None
        hits = blast(fight, unit, phase, hq=True, rule=f"RULINGS 47; {PASSAGE}, EXPLOSIVES")
        # not the Clown's blast: a Medic may save a neighbour whatever medic-saves-from-clown says (RULINGS 47)
        return [replace(hit, kind="explosives") for hit in hits]

    # --- between battles: `prize NAME HEX` ---
    def turn_actions(self, position: Position, army: str, used: frozenset[Spent],
                     every_destination: bool) -> Iterable[Action]:
        from ..position import PutPrize

        held = dict(position.held_prizes).get(army, ())
        for name in sorted(set(held), key=held.index):
            for unit in position.units:
                if _problem(position, unit, army) is None:
                    yield PutPrize(name, unit.hex)

    def turn_results(self, position: Position, action: Action, army: str,
                     used: frozenset[Spent]) -> tuple[tuple[str, Position], ...] | None:
        from ..position import PutPrize

        if not isinstance(action, PutPrize):
            return None
        held = list(dict(position.held_prizes).get(army, ()))
        if action.prize not in held:
            raise IllegalAction(str(action), f"{army} holds no {action.prize} Prize marker ({PASSAGE})")
        unit = position.unit_at(action.hex)
        problem = "there is no unit there" if unit is None else _problem(position, unit, army)
        if problem is not None:
            raise IllegalAction(str(action), f"{problem} ({PASSAGE})")
        assert unit is not None
        held.remove(action.prize)
        units = tuple(replace(u, prizes=u.prizes + (action.prize,)) if u.hex == unit.hex else u
                      for u in position.units)
        held_prizes = tuple((a, tuple(held) if a == army else p) for a, p in position.held_prizes
                            if a != army or held)
        return (("", position.replaced(units=units, held_prizes=held_prizes)),)


def _problem(position: Position, unit: Unit, army: str) -> str | None:
    from ..turns.actions import controller

    if controller(position, unit) != army:  # a unit Vegas took over is Vegas's own (PL VEGAS, Sztab)
        return "a Prize marker goes on one of the owner's own units"
    if unit.is_hq:
        return "Headquarters cannot have Prize markers"
    if unit.tile.kind.value == "foundation":
        return "a foundation is not a unit"
    if len(unit.prizes) >= PRIZES_PER_UNIT:
        return "a unit cannot have more than 2 Prize markers"
    return None
