"""Roots (Neojungle): a foundation tile that belongs to the Motherland.

B13 FOUNDATION TILES: a foundation "can be placed only on an empty hex. Once it is placed, then any unit (friendly
or enemy) can be placed or move onto (or be pushed onto, etc.) a foundation tile normally. Foundation Tiles are not
considered units, and they cannot be moved, pushed, netted, taken over etc. They can be destroyed only by damaging
Instant Action Tiles (Sniper, Grenade, Bomb, Small bomb). Foundation Tiles do not block lines of fire ... A hex
with only a Foundation Tile is not considered occupied for purposes of a full board". Roots: "Roots are part of
the Motherland ... Roots are not units, so modules cannot be linked to Roots." B13 ROOTS ISSUES: on a hex with
Roots and a unit attacked by an instant tile, "the attacker chooses whether the Roots or the Unit is hit"
(``use … foundation HEX``, NOTATION §10.3); an enemy unit on Roots does not cut them off.

The Roots under a unit are a target of their own: a Sniper or Grenade may choose enemy Roots under any unit (an
HQ, or the attacker's own unit, included), since the choice is "whether the Roots or the Unit is hit" and the
Roots are a legal target alone (B13 FOUNDATION TILES); the unit's legality matters only when it is hit.

This family owns placing Roots, a unit arriving on them (nothing happens), and the Sniper, Grenade, Air Strike
and Bomb when they touch Roots; their part in the Motherland is :mod:`.motherland`'s, the Small Bomb's is
:mod:`.small_bomb`'s. Where an Air Strike or Bomb touches Roots and Mines at once, the Mines family (earlier in
the families' order) destroys its Mines and hands the rest of the instant to the families again, so this family
then sees Roots alone; were the order ever reversed it refuses (exit 4) rather than leave the Mines standing.
"""

from __future__ import annotations

from dataclasses import replace
from typing import TYPE_CHECKING, Iterable

from ..errors import IllegalAction, RuleNotImplemented
from ..hexes import Direction, Hex
from ..position import Place, Unit, Use
from ..tiles import Kind, Tile
from ..engine.points import Ability
from .terrain import spares_foundations

if TYPE_CHECKING:  # pragma: no cover
    from ..turns.actions import Spent
    from ..position import Action, Position

FREE_HEX = "a foundation goes only on an empty hex (B13 FOUNDATION TILES)"
ROOTS_TARGET = ("Sniper/Grenade on a hex holding only Roots: the enemy's Roots (B13 FOUNDATION TILES; ROOTS "
                "ISSUES)")
FOUNDATION_HEX = "foundation: the attacked hex must hold a unit and a foundation (B13 ROOTS ISSUES; NOTATION §10.3)"
_WOUNDING = frozenset({"sniper", "grenade", "air-strike", "bomb"})


def is_roots(tile: Tile) -> bool:
    return tile.kind is Kind.FOUNDATION and tile.name == "roots"


def _free(position: Position, hex_: Hex) -> bool:
    return (hex_ in position.board and position.unit_at(hex_) is None
            and not any(f.hex == hex_ for f in position.foundations))


class Roots(Ability):
    @classmethod
    def carried_by(cls, tile: Tile) -> bool:
        return is_roots(tile)

    def turn_actions(self, position: Position, army: str, used: frozenset[Spent],
                     every_destination: bool) -> Iterable[Action]:
        from ..turns.actions import board_full

        if board_full(position):
            return
        for tile in dict.fromkeys(position.hand(army)):
            if is_roots(tile) and tile.army == army:
                for hex_ in position.board:
                    if _free(position, hex_):
                        yield Place(tile, hex_, Direction.N)
            elif tile.kind is Kind.INSTANT and tile.army == army and tile.name in ("sniper", "grenade"):
                for roots in position.foundations:
                    if not (is_roots(roots.tile) and roots.army != army
                            and (tile.name == "sniper" or _grenade_reach(position, army, roots.hex))):
                        continue
                    if position.unit_at(roots.hex) is None:
                        yield Use(tile, (roots.hex,))
                    else:  # the attacker may choose the Roots under a unit (ROOTS ISSUES)
                        yield Use(tile, (roots.hex,), None, (roots.hex,))

    def turn_results(self, position: Position, action: Action, army: str,
                     used: frozenset[Spent]) -> tuple[tuple[str, Position], ...] | None:
        if isinstance(action, Place) and is_roots(action.tile):
            return (("", self._place(position, action, army)),)
        if isinstance(action, Use) and action.tile.kind is Kind.INSTANT and action.tile.name in _WOUNDING:
            return self._instant(position, action, army)
        return None

    def arrived(self, position: Position, hex_: Hex) -> Position:
        return position  # a unit may stand on Roots; nothing happens (B13 FOUNDATION TILES)

    def _place(self, position: Position, place: Place, army: str) -> Position:
        from ..turns import actions

        if place.tile.army != army:
            raise IllegalAction(str(place), actions.OWN_TILES)
        hands = actions._from_hand(position, place, place.tile, army)
        if actions.board_full(position):
            raise IllegalAction(str(place), actions.BOARD_FULL)
        if not _free(position, place.hex):
            raise IllegalAction(str(place), FREE_HEX)
        return position.replaced(foundations=position.foundations + (Unit(place.hex, place.tile, Direction.N),),
                       hands=hands)

    def _touch(self, position: Position, use: Use, army: str) -> list[Hex]:
        """The hexes of ``use`` holding Roots, after checking the parts that are the Roots' own."""
        from ..turns import actions

        name = use.tile.name
        if name in ("sniper", "grenade"):
            area: tuple[Hex, ...] = use.targets[:1]
        else:
            found = actions.air_strike_area(position, use.targets[0]) if use.targets else None
            if found is None:
                return []
            area = found
        roots = [f.hex for f in position.foundations if is_roots(f.tile) and f.hex in area]
        if not roots:
            return []
        if any(f.hex in area and not is_roots(f.tile) for f in position.foundations):
            raise RuleNotImplemented("an instant on Roots and another foundation at once (B13 FOUNDATION TILES)")
        for h in use.foundations:
            if h not in area or position.unit_at(h) is None or not any(f.hex == h for f in position.foundations):
                raise IllegalAction(str(use), FOUNDATION_HEX)
        if name in ("sniper", "grenade"):
            target = use.targets[0]
            lone = position.unit_at(target) is None
            if lone or target in use.foundations:
                owner = next(f.army for f in position.foundations if f.hex == target)
                if owner == army or (name == "grenade" and not _grenade_reach(position, army, target)):
                    raise IllegalAction(str(use), ROOTS_TARGET)
        return roots

    def _instant(self, position: Position, use: Use, army: str) -> tuple[tuple[str, Position], ...] | None:
        from ..turns import actions
        from ..engine import battle

        roots = self._touch(position, use, army)
        if not roots:
            return None
        if use.tile.army != army:
            raise IllegalAction(str(use), actions.OWN_TILES)
        if actions.board_full(position):
            raise IllegalAction(str(use), actions.BOARD_FULL)
        hands = actions._from_hand(position, use, use.tile, army)
        spared = spares_foundations(position.terrain, roots)
        destroyed = {h for h in roots if (position.unit_at(h) is None or h in use.foundations) and h not in spared}
        after = position.replaced(hands=hands,
                        foundations=tuple(f for f in position.foundations if f.hex not in destroyed))
        if use.tile.name in ("sniper", "grenade") and (use.targets[0] in destroyed or (
                use.targets[0] in spared and position.unit_at(use.targets[0]) is None)):
            return (("", after),)  # the Roots destroyed, or spared by the terrain: the tile is spent either way
        hits = [(h, w) for h, w in actions._hits(position, replace(use, foundations=()), army) if h not in destroyed]
        if not hits:
            return (("", after),)
        return tuple(("; ".join(choices), result) for choices, result in battle.wound(after, hits, use.tile.key))


def _grenade_reach(position: Position, army: str, target: Hex) -> bool:
    from ..turns import actions

    hq = position.hq(army)
    return hq is not None and hq.hex not in actions.netted(position) and hq.hex.distance(target) == 1
