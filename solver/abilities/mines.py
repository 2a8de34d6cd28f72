"""Mines (Vegas, PL ŻETONY PODŁOŻA; New York, B13 FOUNDATION TILES, Mine): a foundation tile that destroys the
unit that comes onto it, and itself with it.

PL ŻETONY PODŁOŻA: "Żeton Podłoża można położyć tylko na wolne pole. Na Żeton Podłoża może zostać w normalny
sposób postawiona lub przesunięta za pomocą Ruchu (…) dowolna jednostka, zarówno własna, jak i wroga. Żetony
Podłoża nie są traktowane jak jednostki i nie da się ich przesuwać, odpychać, sieciować, przejmować, ranić, itd.
Mogą zostać zniszczone tylko przez atak za pomocą Żetonów Natychmiastowych (np. Snajper, albo też Granat, czy
Bomba z gry podstawowej). Żetony Podłoża nie blokują linii strzału (…) nie liczy się przy sprawdzaniu zapełnienia
planszy." (A foundation goes only on a free hex. Any unit, own or enemy, may be placed on it or moved onto it.
Foundations are not units: they cannot be moved, pushed, netted, taken over, wounded. Only an attack of an
instant tile destroys them (Sniper, Grenade, Bomb). They block no line of fire and do not count for a full
board.)

"Jeśli jakakolwiek własna lub wroga jednostka (oprócz Sztabu) znajdzie się na polu z Miną, zarówno ona, jak i
Mina, automatycznie zostają zniszczone i usunięte z planszy. Medyk może w normalny sposób przejąć obrażenia
zadawane przez Minę. Jeśli na polu z Miną znajdzie się Sztab, Mina zostaje automatycznie zniszczona, nie czyniąc
Sztabowi żadnej szkody." (If any unit, own or enemy, except an HQ, comes onto a hex with a Mine, both it and the
Mine are destroyed and removed. A Medic may absorb the Mine's damage as usual. An HQ on a Mine's hex destroys the
Mine and takes no harm.) RULINGS 25 (a push counts like a move; the Mine goes even when a Medic saves the
unit), RULINGS 42 (an HQ).

The family owns: placing a Mine (``turn_actions``/``turn_results`` for ``place … mine``), a unit arriving on one
(``arrived``), instants that destroy one (a Sniper on an enemy Mine's hex; a Grenade, Air Strike or Bomb whose
area holds Mines), and the Mine's part in a battle: none (it is inert; :func:`solver.engine.battle` accepts a
foundation a family carries). New York's Mine is the same tile rule (B13 FOUNDATION TILES, Mine), so the family
is carried by every foundation tile named ``mine``.
"""

from __future__ import annotations

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

MINE_FREE_HEX = ("a foundation goes only on a free hex (PL ŻETONY PODŁOŻA: \"Żeton Podłoża można położyć tylko na "
                 "wolne pole\")")
MINE_SNIPER = "Sniper: one chosen enemy unit or enemy Mine on the board, never an HQ (PL SNAJPER: \"dowolnemu wrogiemu żetonowi\")"
RULE = "PL ŻETONY PODŁOŻA, Mina; RULINGS 25, 42"


def is_mine(tile: Tile) -> bool:
    return tile.kind is Kind.FOUNDATION and tile.name == "mine"


def mine_at(position: Position, hex_: Hex) -> Unit | None:
    return next((f for f in position.foundations if f.hex == hex_ and is_mine(f.tile)), None)


def without_mines(position: Position, hexes: Iterable[Hex]) -> Position:
    gone = set(hexes)
    return position.replaced(foundations=tuple(f for f in position.foundations
                                               if not (f.hex in gone and is_mine(f.tile))))


def _free_for_foundation(position: Position, hex_: Hex) -> bool:
    return (hex_ in position.board and position.unit_at(hex_) is None
            and not any(f.hex == hex_ for f in position.foundations))


class Mines(Ability):
    # Wounding instants whose area may hold a Mine: this family finishes what they do to it.
    _WOUNDING = frozenset({"sniper", "grenade", "air-strike", "bomb"})

    @classmethod
    def carried_by(cls, tile: Tile) -> bool:
        return is_mine(tile)

    # --- placing a Mine ---
    def turn_actions(self, position: Position, army: str, used: frozenset[Spent],
                     every_destination: bool) -> Iterable[Action]:
        from ..turns.actions import board_full
        if board_full(position):
            return
        for tile in dict.fromkeys(position.hand(army)):
            if is_mine(tile) and tile.army == army:
                for hex_ in position.board:
                    if _free_for_foundation(position, hex_):
                        yield Place(tile, hex_, Direction.N)
            elif tile.kind is Kind.INSTANT and tile.army == army and tile.name == "sniper":
                # A Sniper on an enemy Mine's hex (no unit stands on a Mine: it would have been destroyed).
                for mine in position.foundations:
                    if is_mine(mine.tile) and mine.army != army and position.unit_at(mine.hex) is None:
                        yield Use(tile, (mine.hex,))

    def turn_results(self, position: Position, action: Action, army: str,
                     used: frozenset[Spent]) -> tuple[tuple[str, Position], ...] | None:
        if isinstance(action, Place) and is_mine(action.tile):
            return (("", self._place(position, action, army)),)
        if isinstance(action, Use) and action.tile.name in self._WOUNDING and action.tile.kind is Kind.INSTANT:
            return self._instant(position, action, army, used)
        return None

    def _place(self, position: Position, place: Place, army: str) -> Position:
        from ..turns import actions
        tile = place.tile
        if tile.army != army:
            raise IllegalAction(str(place), actions.OWN_TILES)
        hands = actions._from_hand(position, place, tile, army)
        if place.hex not in position.board:
            raise IllegalAction(str(place), actions.OFF_BOARD)
        if actions.board_full(position):
            raise IllegalAction(str(place), actions.BOARD_FULL)
        if not _free_for_foundation(position, place.hex):
            raise IllegalAction(str(place), MINE_FREE_HEX)
        return position.replaced(foundations=position.foundations + (Unit(place.hex, tile, Direction.N),),
                       hands=hands)

    def _instant(self, position: Position, use: Use, army: str, used: frozenset[Spent]
                 ) -> tuple[tuple[str, Position], ...] | None:
        """Instants destroy Mines: "Mogą zostać zniszczone tylko przez atak za pomocą Żetonów Natychmiastowych (np.
        Snajper, albo też Granat, czy Bomba …)" (only an instant's attack destroys them)."""
        from ..turns import actions
        name = use.tile.name
        target = use.targets[0] if use.targets else None
        if target is None or not any(is_mine(f.tile) for f in position.foundations):
            return None
        if name in ("sniper", "grenade"):
            mine = mine_at(position, target)
            if mine is None or position.unit_at(target) is not None:
                return None  # a unit is the target: the ordinary rule
            if use.tile.army != army:
                raise IllegalAction(str(use), actions.OWN_TILES)
            if mine.army == army:
                raise IllegalAction(str(use), MINE_SNIPER if name == "sniper" else actions.GRENADE_TARGET)
            if name == "grenade":
                hq = position.hq(army)
                if hq is None:
                    raise IllegalAction(str(use), actions.GRENADE_NO_HQ)
                if hq.hex in actions.netted(position):
                    raise IllegalAction(str(use), actions.GRENADE_NETTED)
                if hq.hex.distance(target) != 1:
                    raise IllegalAction(str(use), actions.GRENADE_TARGET)
            hands = actions._from_hand(position, use, use.tile, army)
            gone = [h for h in (target,) if h not in spares_foundations(position.terrain, (target,))]
            return (("", without_mines(position.replaced(hands=hands), gone)),)
        # Air Strike, Bomb: the area's units as usual, and every Mine in the area is destroyed.
        area = actions.air_strike_area(position, target)
        if area is None or not any(mine_at(position, h) for h in area):
            return None
        bare = position.replaced(foundations=tuple(f for f in position.foundations if not is_mine(f.tile)))
        spared = spares_foundations(position.terrain, area)
        kept = tuple(f for f in position.foundations if is_mine(f.tile) and (f.hex not in area or f.hex in spared))
        # The rest of the area is the other families' (Roots there are destroyed too: B13 FOUNDATION TILES, "They
        # can be destroyed only by damaging Instant Action Tiles (Sniper, Grenade, Bomb, Small bomb)"), else the
        # ordinary rule's.
        found = actions._claimed(bare, use, army, used)
        results = found if found is not None else actions._use_results(bare, use, army)
        return tuple((label, after.replaced(foundations=after.foundations + kept)) for label, after in results)

    # --- a unit arriving on a Mine ---
    def arrived(self, position: Position, hex_: Hex) -> Position:
        mine = mine_at(position, hex_)
        unit = position.unit_at(hex_)
        if mine is None or unit is None:
            return position
        cleared = without_mines(position, (hex_,))
        if unit.is_hq:
            return cleared  # "Mina zostaje automatycznie zniszczona, nie czyniąc Sztabowi żadnej szkody"
        from ..engine import battle, effects
        units = {u.hex: u for u in position.units}
        bonus = effects.read(units, position.rules).bonuses.get(hex_)
        wounds = unit.health + (bonus.toughness if bonus else 0)
        # "Medyk może w normalny sposób przejąć obrażenia zadawane przez Minę": the Mine's blow is one attack
        # of no unit, which a Medic linked to the unit absorbs (3E MEDIC, as for an instant tile).
        found = battle.wound(cleared, [(hex_, wounds)], f"{mine.tile.key} on {hex_}")
        if len(found) > 1:
            raise RuleNotImplemented(f"the choice among Medics for a Mine's blow ({mine.tile.key} on {hex_})")
        return found[0][1]
