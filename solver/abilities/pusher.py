"""The Pusher (New York): once in each of its owner's turns, a free Push Back with the Pusher as the pushing unit.

B13 DESCRIPTION OF NEW ICONS, Push Back: "The unit with the Push Back can - once during each of his turns - push
back one enemy unit freely." RULINGS 36: it is the Push Back instant (3E PUSH BACK) with the Pusher as the
pushing unit: an adjacent enemy unit goes one hex further, its owner choosing among the free hexes; a netted
Pusher cannot push, nor can a netted unit be pushed (3E USING NETS); pushing an HQ follows ``push-back-hq``.
Written ``push PUSHER TARGET DEST`` (NOTATION §10.3); :func:`solver.turns.actions.player_actions` lists it once per
target without its destination (the pushed unit's owner's choice; :func:`solver.turns.actions.results` gives each).

Whether it may push in the turn it is placed is unsettled (RULINGS 36): the option ``pusher-when-placed``
(default ``yes``: "once during each of his turns" names no exception, and the push is the tile's ability, which
works from the moment it is on the board as a Mobility move does).
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Iterable

from ..errors import IllegalAction
from ..position import Place, Push
from ..engine.points import Ability

if TYPE_CHECKING:  # pragma: no cover
    from ..turns.actions import Spent
    from ..hexes import Hex
    from ..position import Action, Position, Unit
    from ..tiles import Tile

PUSHER_ONCE = "the Pusher pushes once in each of its owner's turns (B13 DESCRIPTION OF NEW ICONS, Push Back)"
PUSHER_ONLY = "only a unit with the Push Back icon pushes for free (B13 DESCRIPTION OF NEW ICONS, Push Back)"
PUSHER_PLACED = ("the Pusher does not push in the turn it is placed (option pusher-when-placed=no; RULINGS 36)")
PUSHED, PLACED = "push", "placed"


def _can_push(unit: Unit | None) -> bool:
    return unit is not None and "push" in unit.tile.abilities


class Pusher(Ability):
    tile_abilities = frozenset({"push"})

    def quiet_in_turn(self, position: Position, player: str, offer: tuple[Tile, ...]) -> bool:
        # B13 Push Back: "once during each of his turns": a Pusher pushes for the army controlling it, in that army's
        # turn. No Pusher of the player's army on the board or offered, and no tile that takes units over (which
        # could make another army's Pusher the player's): none pushes in this turn.
        from .takeover import ControlTakeover

        tiles = [unit.tile for unit in position.units] + list(offer)
        return not any(("push" in tile.abilities and tile.army == player) or ControlTakeover.carried_by(tile)
                       for tile in tiles)

    def turn_actions(self, position: Position, army: str, used: frozenset[Spent],
                     every_destination: bool) -> Iterable[Action]:
        from ..turns import actions

        if actions.board_full(position):
            return
        nets = actions.netted(position)
        for unit in position.units:
            if not _can_push(unit) or self._problem(position, army, unit.hex, used) is not None:
                continue
            for _, target in position.board.neighbours(unit.hex):
                if actions._push_problem(position, army, unit.hex, target, nets) is not None:
                    continue
                if every_destination:
                    for dest in actions.push_destinations(position, unit.hex, target):
                        yield Push(unit.hex, target, dest)
                else:
                    yield Push(unit.hex, target, None)  # type: ignore[arg-type]  # the owner's choice follows

    def _problem(self, position: Position, army: str, hex_: Hex, used: frozenset[Spent]) -> str | None:
        from ..turns.actions import Spent

        if Spent(hex_, PUSHED) in used:
            return PUSHER_ONCE
        if Spent(hex_, PLACED) in used and not position.rules.enabled("pusher-when-placed"):
            return PUSHER_PLACED
        return None

    def turn_results(self, position: Position, action: Action, army: str,
                     used: frozenset[Spent]) -> tuple[tuple[str, Position], ...] | None:
        if not isinstance(action, Push):
            return None
        from ..turns import actions

        if not _can_push(position.unit_at(action.pusher)):
            raise IllegalAction(str(action), PUSHER_ONLY)
        problem = self._problem(position, army, action.pusher, used) or actions._push_problem(
            position, army, action.pusher, action.target, actions.netted(position))
        if problem is not None:
            raise IllegalAction(str(action), problem)
        if actions.board_full(position):
            raise IllegalAction(str(action), actions.BOARD_FULL)
        allowed = actions.push_destinations(position, action.pusher, action.target)
        if action.destination is not None:
            if action.destination not in allowed:
                raise IllegalAction(str(action), actions.PUSH_DEST)
            allowed = [action.destination]
        pushed = position.unit_at(action.target)
        assert pushed is not None
        # 3E PUSH BACK: the pushed unit keeps its facing; its controller picks the hex.
        return tuple((f"{actions.push_chooser(position, pushed, army)} puts the pushed unit on {dest}",
                      actions._arrived(position.replaced(units=actions._moved(position, action.target, dest, None)),
                                       dest))
                     for dest in allowed)

    def spent(self, position: Position, action: Action, army: str, used: frozenset[Spent]) -> frozenset[Spent]:
        from ..turns.actions import Spent

        if isinstance(action, Push):
            return used | {Spent(action.pusher, PUSHED)}
        if isinstance(action, Place) and "push" in action.tile.abilities:
            return used | {Spent(action.hex, PLACED)}
        return used
