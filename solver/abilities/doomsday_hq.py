"""The Doomsday Machine HQ's rotation: once in its player's turn, one friendly unit turns to any facing.

ES Doomsday sheet, CG: "En su turno puede girar una unidad amiga en cualquier dirección" (in its turn it may turn
one friendly unit in any direction); CONTENIDO EXTRA: "no puede moverse en absoluto, sino que puede girar sus
unidades con frecuencia en cada turno" (it cannot move at all, but may turn its units often, every turn); CONSEJOS
TÁCTICOS: "No te olvides de la posibilidad de girar una unidad cada turno" (do not forget you may turn one unit
every turn).

RULINGS 55: in its own turn, once, its player may turn one friendly unit anywhere on the board (a module, a tile
placed this turn), not the HQ itself, not a netted unit, nothing while the HQ is netted, never in a battle; it
never moves a unit. "Friendly" asks who controls the unit, not its printed army: a Doomsday unit that Vegas
has taken over is Vegas's "pod każdym względem" (PL VEGAS, Sztab: in every respect), so this HQ no longer turns
it. Written ``move HEX HEX FACING by hq`` with ``TO`` = ``FROM`` (NOTATION §10.4). Only an HQ with the
``rotate-one-unit-per-turn`` ability grants it; any other ``by hq`` move is another family's (the Smart HQ's).
"""

from __future__ import annotations

from dataclasses import replace
from typing import TYPE_CHECKING, Iterable

from ..errors import IllegalAction
from ..position import Move
from ..tiles import Kind, Tile
from ..engine.points import Ability

if TYPE_CHECKING:  # pragma: no cover
    from ..hexes import Direction, Hex
    from ..turns.actions import Spent
    from ..position import Action, Position, Unit

ABILITY = "rotate-one-unit-per-turn"
SOURCE = "hq-rotation"

ONCE = "the Doomsday HQ turns one friendly unit once in its player's turn (ES Doomsday sheet, CG; RULINGS 55)"
NO_HQ = "the Doomsday HQ's rotation needs the player's own Doomsday HQ on the board (ES Doomsday sheet, CG)"
HQ_NETTED = "a netted HQ grants no rotation (3E NET: a netted unit performs no action; RULINGS 55)"
NOT_OWN = "the Doomsday HQ turns a friendly unit (ES CG: 'girar una unidad amiga'; RULINGS 55)"
NOT_ITSELF = "the Doomsday HQ does not turn itself (RULINGS 55; 3E THE HQs: an HQ's ability never affects itself)"
NETTED = "a netted unit cannot turn (3E NET; RULINGS 55)"
NO_MOVE = "the Doomsday HQ's rotation turns a unit where it stands: TO = FROM (ES 'girar'; RULINGS 55)"
NOTHING = "a rotation must turn the unit to another facing (RULINGS 55)"


class DoomsdayHQRotation(Ability):
    tile_abilities = frozenset({ABILITY})
    #: It deals nothing and moves nothing: it only turns a unit (:meth:`bound_frees`).
    within_hq_bound = True
    places_plainly = True  # it claims no placement from the hand and acts on no arrival
    bound_frees_stay = True  # every friendly unit while the HQ grants it and it is unspent: placing changes neither

    def quiet_in_turn(self, position: Position, player: str, offer: tuple[Tile, ...]) -> bool:
        # "En su turno" (in its turn): the rotation is the Doomsday player's, and acts in no other army's turn.
        return _granting_hq(position, player) is None

    def bound_frees(self, position: Position, army: str, used: frozenset[Spent]) -> tuple[str, frozenset[Hex] | None]:
        # Any friendly unit anywhere on the board (RULINGS 55), once.
        return ("turn", None) if _granting_hq(position, army) is not None and not _spent(used) else ("", None)

    def turn_actions(self, position: Position, army: str, used: frozenset[Spent],
                     every_destination: bool) -> Iterable[Action]:
        from ..turns.actions import _same_look, controller, distinct_facings, netted

        hq = _granting_hq(position, army)
        if hq is None or _spent(used):
            return
        nets = netted(position)
        if hq.hex in nets:
            return
        for unit in position.units:
            if controller(position, unit) != army or unit.is_hq or unit.hex in nets \
                    or unit.tile.kind is Kind.FOUNDATION:
                continue
            for facing in distinct_facings(unit.tile):
                if not _same_look(unit.tile, facing, unit.facing):
                    yield Move(unit.hex, unit.hex, facing, "hq")

    def turn_outcomes(self, position: Position, army: str, used: frozenset[Spent]
                      ) -> list[tuple[Action, tuple[tuple[str, Position], ...]]] | None:
        # turn_actions lists only the rotations _problem allows (the same checks, read once): each with its result,
        # as turn_results makes it.
        found: list[tuple[Action, tuple[tuple[str, Position], ...]]] = []
        for action in self.turn_actions(position, army, used, False):
            assert isinstance(action, Move) and action.facing is not None
            found.append((action, (("", _rotated(position, action.source, action.facing)),)))
        return found

    def turn_results(self, position: Position, action: Action, army: str,
                     used: frozenset[Spent]) -> tuple[tuple[str, Position], ...] | None:
        if not isinstance(action, Move) or action.by != "hq":
            return None
        hq = _granting_hq(position, army)
        if hq is None:
            if position.hq(army) is not None:
                return None  # another army's HQ grants `by hq` moves (the Smart HQ): not this family's
            raise IllegalAction(str(action), NO_HQ)
        problem = _problem(position, action, army, hq, used)
        if problem is not None:
            raise IllegalAction(str(action), problem)
        assert action.facing is not None  # _problem refuses a rotation without a facing
        return (("", _rotated(position, action.source, action.facing)),)

    def spent(self, position: Position, action: Action, army: str, used: frozenset[Spent]) -> frozenset[Spent]:
        if isinstance(action, Move) and action.by == "hq":
            hq = _granting_hq(position, army)
            if hq is not None:
                from ..turns.actions import Spent

                return used | {Spent(hq.hex, SOURCE)}
        return used


def _rotated(position: Position, hex_: Hex, facing: Direction) -> Position:
    """The position with the unit on ``hex_`` turned to ``facing``."""
    return position.replaced(units=tuple(replace(u, facing=facing) if u.hex == hex_ else u for u in position.units))


def _granting_hq(position: Position, army: str) -> Unit | None:
    hq = position.hq(army)
    return hq if hq is not None and ABILITY in hq.tile.abilities else None


def _spent(used: frozenset[Spent]) -> bool:
    return any(s.source == SOURCE for s in used)


def _problem(position: Position, action: Move, army: str, hq: Unit, used: frozenset[Spent]) -> str | None:
    from ..turns.actions import _same_look, controller, netted

    if _spent(used):
        return ONCE
    nets = netted(position)
    if hq.hex in nets:
        return HQ_NETTED
    unit = position.unit_at(action.source)
    if unit is None:
        return f"there is no unit there ({action.source})"
    if controller(position, unit) != army:  # a unit Vegas took over is Vegas's (PL VEGAS, Sztab)
        return NOT_OWN
    if unit.is_hq:
        return NOT_ITSELF
    if action.target != action.source:
        return NO_MOVE
    if unit.hex in nets:
        return NETTED
    if action.facing is None or _same_look(unit.tile, action.facing, unit.facing):
        return NOTHING
    return None
