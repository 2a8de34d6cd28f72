"""A scenario's conditions at the points of the turn rules and the battle (solver/notation/scenarios.py holds the rules).

* HQ placement (the point ``barred``, asked where the position has terrain): B13 SCENARIO 1, Start: "The NY HQ must
  be placed on Wasteland Terrain, and the Neojungle HQ must be placed in Forest"; SCENARIO 5: "The New York HQ
  cannot be placed in the Forest" (``hq-terrain``). Only the placement: an HQ on the board already was placed, and
  a push or a move of it later is the ordinary rules' business.
* ``nhex moves`` for an army whose HQ is not on the board lists only its HQ placements (the points ``turn_over`` and
  ``turn_actions``): "The game starts with each player placing their HQ" (3E GAME SEQUENCE).
* The radio (``warehouse-needs``): B13 SCENARIO 4, Additional Rules: "The Warehouse can be opened as long as at
  least one Outpost unit is still in the Bunker. If there is not an Outpost unit in the Bunker, the radio is
  destroyed". In a battle the guard is looked at when the battle starts and at the end of every initiative phase,
  after the Warehouses broken open in that phase have given up their markers (the terrain family acts first):
  a Warehouse broken open in the segment in which the last guard dies was opened while the guard still stood
  (the segment's wounds land together, 3E BATTLE). Between battles :func:`solver.notation.scenarios.settle` looks after
  every action of a game record.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Iterable

from ..notation import scenarios
from ..hexes import Hex
from ..tiles import Kind, Tile
from ..engine.points import Ability

if TYPE_CHECKING:
    from ..turns.actions import Spent
    from ..engine.battle import Fight
    from ..engine.fight import Hit
    from ..position import Action, Position


class ScenarioRules(Ability):
    position_features = frozenset({"scenario"})
    order = 200  # after the terrain family, which opens the Warehouses of a phase

    # --- HQ placement ---
    def barred(self, position: Position, tile: Tile, hex_: Hex, army: str) -> str | None:
        if tile.kind is Kind.HQ and position.hq(army) is None:
            return scenarios.hq_barred(position, hex_, army)
        return None

    def turn_over(self, position: Position, used: frozenset[Spent]) -> bool:
        army = position.to_move
        return army is not None and position.hq(army) is None and _hq_pending(position, army)

    def turn_actions(self, position: Position, army: str, used: frozenset[Spent],
                     every_destination: bool) -> Iterable[Action]:
        from ..turns.actions import barred
        from ..position import PlaceHQ
        from ..tiles import army as army_data

        if position.hq(army) is not None or not _hq_pending(position, army):
            return
        hq = army_data(army).hq
        for hex_ in position.empty_hexes():
            if barred(position, hq, hex_, army) is None and scenarios.hq_barred(position, hex_, army) is None:
                yield PlaceHQ(hex_)

    # --- the radio ---
    def battle_start(self, fight: Fight) -> list[Hit]:
        _guard(fight, None)
        return []

    def phase_end(self, fight: Fight, phase: int, removed: set[Hex]) -> None:
        _guard(fight, phase)


def _hq_pending(position: Position, army: str) -> bool:
    """Whether ``army`` is still to place its HQ: it has one (HQs are set aside, 3E SETUP) and it is not on the
    board."""
    from ..tiles import army as army_data

    try:
        return army_data(army).hq is not None
    except ValueError:  # pragma: no cover - armies are checked by the reader
        return False


def _guard(fight: Fight, phase: int | None) -> None:
    scenario = scenarios.of(fight.position)
    if scenario is None or not scenario.warehouse_needs or not fight.position.terrain or fight.memo.get("radio-lost"):
        return
    if scenarios.guarded(fight.units.values(), fight.position):
        return
    # The Warehouses' state during the battle is the terrain family's (solver/abilities/terrain.py): the markers
    # still lying in a closed Warehouse are destroyed there, and the terrain family writes them back at the end.
    from .terrain import _warehouses

    state = _warehouses(fight)
    gone: set[str] = set()
    for hex_, (wounds, prizes) in list(state.items()):
        element = next(e for e in fight.position.terrain if hex_ in e.hexes)
        if prizes and (element.strength is None or wounds < element.strength):
            state[hex_] = (wounds, ())
            gone.update(prizes)
    fight.memo["radio-lost"] = True
    if gone and fight.tracing:
        guard = ", ".join(f"no {army} unit in the {type_}" for army, type_ in scenario.warehouse_needs)
        fight.note(phase, "warehouse", f"{guard}: the Warehouse's {', '.join(sorted(gone))} destroyed",
                   scenarios.source(scenario, "Additional Rules"))
