"""The instants that turn or swap own units without moving them to a new hex: Rotation (Vegas, PL OBRÓT) and
Castling (Vegas, PL ROSZADA; Neojungle, B13 THE NEW INSTANT TILES, Castling). Owned by instant name, so every
army's tile of that name follows the same text.

PL ŻETONY NATYCHMIASTOWE, OBRÓT: "Zagranie tego żetonu pozwala dowolnie obrócić jeden własny Żeton." (Playing it
turns one own tile as the player likes.) RULINGS 26: not a netted unit (PL KWESTIA SIECIARZA: "Zasieciowana
jednostka nie może się poruszyć w żaden sposób"), as with Move. ``use vegas:rotation HEX FACING``.

PL ROSZADA: "Dwie sąsiadujące ze sobą własne jednostki (także Sztab) mogą zamienić się miejscami, lecz nie mogą
się przy tym obrócić. Zasieciowana jednostka nie może wykonać Roszady." (Two adjacent own units, the HQ too, may
swap places but may not turn while doing it. A netted unit cannot castle.) RULINGS 40; B13 Castling.
``use vegas:castling HEX HEX`` (unordered, NOTATION §10.1).

"Own" is who controls the unit (:func:`solver.turns.actions.controller`): a unit Vegas has taken over is Vegas's "in
every respect" (PL VEGAS, Sztab).
"""

from __future__ import annotations

from dataclasses import replace
from typing import TYPE_CHECKING, Iterable

from ..errors import IllegalAction
from ..position import Use
from ..tiles import Kind, Tile
from ..engine.points import Ability

if TYPE_CHECKING:  # pragma: no cover
    from ..turns.actions import Spent
    from ..hexes import Hex
    from ..position import Action, Position, Unit

ROTATION_OWN = ("Rotation: one unit the player controls, not netted, turned to a new facing (PL OBRÓT: \"dowolnie "
                "obrócić jeden własny Żeton\"; RULINGS 26; an HQ unless rotation-turns-hq=no)")
CASTLING_PAIR = ("Castling: two adjacent units the player controls, an HQ too, neither netted (PL ROSZADA: \"Dwie "
                 "sąsiadujące ze sobą własne jednostki (także Sztab)\"; \"Zasieciowana jednostka nie może wykonać "
                 "Roszady\"; RULINGS 40)")


def _usable(position: Position, action: Action, name: str, army: str) -> bool:
    return isinstance(action, Use) and action.tile.kind is Kind.INSTANT and action.tile.name == name


def _common(position: Position, use: Use, army: str) -> tuple[tuple[str, tuple[Tile, ...]], ...]:
    """The checks every instant shares, and the hands without it."""
    from ..turns import actions
    if use.tile.army != army:
        raise IllegalAction(str(use), actions.OWN_TILES)
    if actions.board_full(position):
        raise IllegalAction(str(use), actions.BOARD_FULL)
    actions._supported(position)
    return actions._from_hand(position, use, use.tile, army)


def _own_free(position: Position, army: str, hex_: Hex) -> bool:
    from ..turns.actions import controller, netted
    unit = position.unit_at(hex_)
    return unit is not None and controller(position, unit) == army and hex_ not in netted(position)


def _in_hand(position: Position, army: str, name: str) -> list[Tile]:
    return [t for t in dict.fromkeys(position.hand(army))
            if t.kind is Kind.INSTANT and t.name == name and t.army == army]


class Rotation(Ability):
    instants = frozenset({"rotation"})
    #: One unit turned where it stands: the search's bound counts it at its best anywhere, as the Move tile's.
    within_hq_bound = True
    places_plainly = True  # it claims no placement from the hand and acts on no arrival
    bound_moved_units = 1
    bound_moves_named = True  # the unit on the hex the use names

    def bound_moved(self, position: Position, use: Use) -> tuple[tuple[Hex, Unit], ...] | None:
        unit = position.unit_at(use.targets[0])
        if unit is None or use.facing is None:
            return None
        return ((unit.hex, replace(unit, facing=use.facing)),)  # turned where it stands (turn_results)

    def turn_actions(self, position: Position, army: str, used: frozenset[Spent],
                     every_destination: bool) -> Iterable[Action]:
        from ..turns.actions import _same_look, board_full, distinct_facings
        tiles = _in_hand(position, army, "rotation")
        if not tiles or board_full(position):
            return
        hq_too = position.rules.enabled("rotation-turns-hq")
        for tile in tiles:
            for unit in position.units:
                if _own_free(position, army, unit.hex) and (hq_too or not unit.is_hq):
                    for facing in distinct_facings(unit.tile):
                        if not _same_look(unit.tile, facing, unit.facing):
                            yield Use(tile, (unit.hex,), facing)

    def turn_results(self, position: Position, action: Action, army: str,
                     used: frozenset[Spent]) -> tuple[tuple[str, Position], ...] | None:
        if not _usable(position, action, "rotation", army):
            return None
        assert isinstance(action, Use)
        from ..turns import actions
        hands = _common(position, action, army)
        hex_ = action.targets[0]
        unit = position.unit_at(hex_)
        if (unit is None or not _own_free(position, army, hex_) or action.facing is None
                or (unit.is_hq and not position.rules.enabled("rotation-turns-hq"))):
            raise IllegalAction(str(action), ROTATION_OWN)
        if action.facing == unit.facing:
            raise IllegalAction(str(action), actions.MOVE_NOTHING)
        return (("", position.replaced(units=actions._moved(position, hex_, hex_, action.facing), hands=hands)),)


class Castling(Ability):
    instants = frozenset({"castling"})
    #: Two units change hexes (keeping their facings): the search's bound counts both at their best anywhere.
    within_hq_bound = True
    places_plainly = True  # it claims no placement from the hand and acts on no arrival
    bound_moved_units = 2
    bound_moves_named = True  # the two units on the hexes the use names

    def bound_moved(self, position: Position, use: Use) -> tuple[tuple[Hex, Unit], ...] | None:
        a, b = use.targets
        first, second = position.unit_at(a), position.unit_at(b)
        if first is None or second is None:
            return None
        return ((a, replace(first, hex=b)), (b, replace(second, hex=a)))  # each keeps its facing (turn_results)

    def turn_actions(self, position: Position, army: str, used: frozenset[Spent],
                     every_destination: bool) -> Iterable[Action]:
        from ..turns.actions import board_full
        tiles = _in_hand(position, army, "castling")
        if not tiles or board_full(position):
            return
        for tile in tiles:
            for unit in position.units:
                if not _own_free(position, army, unit.hex):
                    continue
                for _, near in position.board.neighbours(unit.hex):
                    if near > unit.hex and _own_free(position, army, near):
                        yield Use(tile, (unit.hex, near))

    def turn_results(self, position: Position, action: Action, army: str,
                     used: frozenset[Spent]) -> tuple[tuple[str, Position], ...] | None:
        if not _usable(position, action, "castling", army):
            return None
        assert isinstance(action, Use)
        from ..turns import actions
        hands = _common(position, action, army)
        a, b = action.targets
        if a.distance(b) != 1 or not _own_free(position, army, a) or not _own_free(position, army, b):
            raise IllegalAction(str(action), CASTLING_PAIR)
        # "nie mogą się przy tym obrócić": each keeps its facing.
        units = tuple(replace(u, hex=b) if u.hex == a else replace(u, hex=a) if u.hex == b else u
                      for u in position.units)
        after = position.replaced(units=units, hands=hands)
        return (("", actions._arrived(actions._arrived(after, a), b)),)
