"""The Small Bomb (Neojungle, Doomsday Machine): one wound on each of three mutually adjacent hexes.

B13 THE NEW INSTANT TILES, Small bomb: "It gives one wound to every unit (enemy and friendly) which stands on the
three hexes under attack. The 3 hexes must be mutually adjacent (as shown on the tile for a Small bomb). All 3
hexes must be on the board. The small bomb does not wound Headquarters." B13 FOUNDATION TILES: foundations "can
be destroyed only by damaging Instant Action Tiles (Sniper, Grenade, Bomb, Small bomb)". RULINGS 41: empty hexes
allowed, armor no help (3E ARMOR: instants ignore it), foundations on the hexes destroyed. B13 ROOTS ISSUES: on a
hex holding a unit and a foundation "the attacker chooses whether the Roots or the Unit is hit", written
``use … small-bomb HEX HEX HEX foundation HEX …`` (NOTATION §10.3): a listed hex's foundation is destroyed and its
unit spared; an unlisted one's unit is wounded and its foundation stays. A Medic absorbs a wound as for any
instant (3E MEDIC). Owned by instant name, so the Doomsday Machine's Small Bomb is the same rule.
"""

from __future__ import annotations

from itertools import combinations
from typing import TYPE_CHECKING, Iterable

from ..errors import IllegalAction
from ..hexes import Hex
from ..position import Use
from ..tiles import Kind
from ..engine.points import Ability
from .terrain import spares_foundations

if TYPE_CHECKING:  # pragma: no cover
    from ..turns.actions import Spent
    from ..position import Action, Position

NAME = "small-bomb"
SMALL_BOMB_AREA = ("Small Bomb: three mutually adjacent hexes, all on the board (B13 THE NEW INSTANT TILES, Small "
                   "bomb; RULINGS 41)")
FOUNDATION_HEX = ("foundation: a hex under attack holding a unit and a foundation (B13 ROOTS ISSUES; NOTATION "
                  "§10.3)")


def triangles(position: Position) -> list[tuple[Hex, Hex, Hex]]:
    """Every set of three mutually adjacent hexes of the board, each once, in label order."""
    board = position.board
    found: set[tuple[Hex, Hex, Hex]] = set()
    for a in board:
        near = [h for _, h in board.neighbours(a)]
        for b, c in combinations(near, 2):
            if b.distance(c) == 1:
                x, y, z = sorted((a, b, c))
                found.add((x, y, z))
    return sorted(found)


def shared_hexes(position: Position, hexes: Iterable[Hex]) -> list[Hex]:
    """The hexes holding a unit and a foundation."""
    under = {f.hex for f in position.foundations}
    return [h for h in hexes if h in under and position.unit_at(h) is not None]


class SmallBomb(Ability):
    instants = frozenset({NAME})

    def turn_actions(self, position: Position, army: str, used: frozenset[Spent],
                     every_destination: bool) -> Iterable[Action]:
        from ..turns.actions import board_full

        tiles = [t for t in dict.fromkeys(position.hand(army)) if t.name == NAME and t.kind is Kind.INSTANT
                 and t.army == army]
        if not tiles or board_full(position):
            return
        for tile in tiles:
            for area in triangles(position):
                shared = shared_hexes(position, area)
                for k in range(len(shared) + 1):
                    for chosen in combinations(shared, k):
                        yield Use(tile, area, None, chosen)

    def turn_results(self, position: Position, action: Action, army: str,
                     used: frozenset[Spent]) -> tuple[tuple[str, Position], ...] | None:
        if not (isinstance(action, Use) and action.tile.name == NAME and action.tile.kind is Kind.INSTANT):
            return None
        from ..turns import actions
        from ..engine import battle

        hands = actions._from_hand(position, action, action.tile, army)
        if action.tile.army != army:
            raise IllegalAction(str(action), actions.OWN_TILES)
        if actions.board_full(position):
            raise IllegalAction(str(action), actions.BOARD_FULL)
        area = action.targets
        if (len(area) != 3 or len(set(area)) != 3 or any(h not in position.board for h in area)
                or any(a.distance(b) != 1 for a, b in combinations(area, 2))):
            raise IllegalAction(str(action), SMALL_BOMB_AREA)
        shared = set(shared_hexes(position, area))
        if any(h not in shared for h in action.foundations):
            raise IllegalAction(str(action), FOUNDATION_HEX)
        spared = spares_foundations(position.terrain, area)
        destroyed = {h for h in area if (position.unit_at(h) is None or h in action.foundations) and h not in spared}
        after = position.replaced(hands=hands,
                        foundations=tuple(f for f in position.foundations if f.hex not in destroyed))
        hits = [(h, 1) for h in area if h not in destroyed
                and (u := position.unit_at(h)) is not None and not u.is_hq]
        if not hits:
            return (("", after),)
        return tuple(("; ".join(choices), result) for choices, result in battle.wound(after, hits, action.tile.key))
