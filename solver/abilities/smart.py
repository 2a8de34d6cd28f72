"""Smart (PL SMART): the HQ's free move of adjacent units, the Transporter's swap on placement, the Bio-droid's
regeneration, and the Terror instant.

PL SMART, Sztab: "każda sąsiadująca ze Sztabem własna jednostka może wykonać dodatkowy ruch i/lub obrót w
identyczny sposób, jakby miała cechę Mobilność. Jednostka może wykonać nawet taki ruch, po którym już nie będzie
sąsiadowała ze Sztabem. Sztab nie może poruszyć sam siebie." (Each own unit adjacent to the HQ may make an extra
move and/or rotation exactly as if it had Mobility, even a move that takes it away from the HQ. The HQ cannot move
itself.) Sytuacje szczególne: "Gracz może w tej samej turze poruszyć ten sam żeton korzystając kolejno z
wszystkich dostępnych możliwości, np. cechy specjalnej Sztabu, Żetonu natychmiastowego Ruch, jak i Mobilności"
(one unit may use, one after another, the HQ's move, a Move tile and its own Mobility in one turn). RULINGS 21.

PL SMART, Transporter: "w momencie wystawiania żetonów na planszę gracz dowodzący armią Smarta może zdjąć z
planszy Transporter i w jego miejsce położyć jeden ze swoich zagrywanych żetonów planszy. Jeśli Transporter
otrzymał wcześniej jakąś ranę, nie przechodzi ona na żeton, na który Transporter jest podmieniany." (When placing
tiles, Smart may take a Transporter off the board and put one of the board tiles it plays in its place; the
Transporter's wounds do not pass to the new tile.) RULINGS 22; ``place TILE HEX FACING by transporter``.

PL SMART, Bio-droid: "jeśli Bio-droid zginie, automatycznie wraca on na górę stosu żetonów gracza dowodzącego
Smartem. Gdy gracz będzie dociągał żetony, pierwszy na rękę trafi Bio-droid." (A destroyed Bio-droid goes back
on top of Smart's pile and is the first tile drawn.) Sytuacje szczególne: also when it dies while taken over.
RULINGS 24. A position knows only how many tiles a deck holds, so the battle and the turn rules add the
Bio-droid back to that count; that it is drawn first is for the game record's checker (not done: see
:data:`solver.engine.points.TURN_NOT_IMPLEMENTED`, ``regenerate``).

PL ŻETONY NATYCHMIASTOWE, TERROR: "w najbliższej turze przeciwnik nie może wystawić żadnej jednostki na planszę
(może jednak normalnie zagrywać Żetony Natychmiastowe, poruszać jednostki itd.)" (in the opponent's next turn
they may place no unit on the board, but may play instants, move units, etc.) RULINGS 23. Its use here takes it
from the hand; its effect lies in the opponent's next turn, which the position does not record.
"""

from __future__ import annotations

from dataclasses import replace
from typing import TYPE_CHECKING, Iterable, Iterator, Mapping

from ..errors import IllegalAction
from ..hexes import Direction, Hex
from ..position import Move, Place, Use
from ..tiles import Kind, Tile
from ..engine.points import Ability

if TYPE_CHECKING:  # pragma: no cover
    from ..turns.actions import Spent
    from ..engine.battle import Fight
    from ..position import Action, Position, Unit

HQ_MOVE = "grant-move-and-rotate"

NO_HQ_MOVE = ("Smart HQ: the unit must be the player's own, adjacent to a working Smart HQ, and not the HQ itself "
              "(PL SMART, Sztab: 'każda sąsiadująca ze Sztabem własna jednostka'; 'Sztab nie może poruszyć sam "
              "siebie'; RULINGS 21)")
HQ_MOVE_ONCE = "Smart HQ: one extra move and/or rotation per unit per turn (PL SMART, Sztab; RULINGS 21)"
NO_TRANSPORTER = ("Transporter: the tile goes on the hex of a Transporter the player controls, not netted "
                  "(PL SMART, Transporter; RULINGS 22; option transporter-netted-swap)")
SWAP_A_BOARD_TILE = "Transporter: only a board tile (unit or module) from the hand is put in its place (PL SMART, Transporter)"


def _grants(unit: Unit) -> bool:
    module = unit.tile.module
    return unit.is_hq and module is not None and module.type == HQ_MOVE


def _moved_to(position: Position, source: Hex, target: Hex, facing: Direction | None) -> Position:
    """The position after the HQ's move of the unit on ``source``: moved, then what acts on its arrival."""
    from ..turns import actions
    moved = position.replaced(units=actions._moved(position, source, target, facing))
    return actions._arrived(moved, target)


class SmartHQ(Ability):
    """``move FROM TO FACING by hq``: the Smart HQ's extra move for each adjacent own unit (RULINGS 21)."""

    module_effects = frozenset({HQ_MOVE})
    #: It deals nothing: it moves and turns units, as Mobility does (:meth:`bound_frees`).
    within_hq_bound = True
    places_plainly = True  # it claims no placement from the hand and acts on no arrival

    def quiet_in_turn(self, position: Position, player: str, offer: tuple[Tile, ...]) -> bool:
        # "własna jednostka" (an own unit): the HQ moves Smart's units, in Smart's turn only.
        hq = position.hq(player)
        return hq is None or not _grants(hq)

    def bound_frees(self, position: Position, army: str, used: frozenset[Spent]) -> tuple[str, frozenset[Hex] | None]:
        # The units next to the HQ (the bound widens this to every unit where another move may bring one there).
        hq = position.hq(army)
        if hq is None or not _grants(hq):
            return "", None
        return "move", frozenset(near for _, near in position.board.neighbours(hq.hex))

    def _granted(self, position: Position, army: str, unit: Unit) -> bool:
        from ..turns.actions import netted
        if unit.is_hq:
            return False
        nets = netted(position)
        for _, near in position.board.neighbours(unit.hex):
            hq = position.unit_at(near)
            # the HQ's own army: a netted HQ grants nothing (3E NET: a netted unit gives no bonuses)
            if hq is not None and _grants(hq) and hq.army == army and hq.hex not in nets:
                return True
        return False

    def _moves(self, position: Position, army: str, used: frozenset[Spent], nets: frozenset[Hex],
               reach: int) -> Iterator[tuple[Unit, Hex, Direction]]:
        """Each unit the HQ lets move now (a movable unit next to it that has not taken this move), with each hex
        and facing it may end on."""
        from ..turns import actions
        for unit in list(actions._movable(position, army, nets)):
            if actions.Spent(unit.hex, "hq") in used or not self._granted(position, army, unit):
                continue
            for target, facing in actions._turns(position, unit, reach):
                yield unit, target, facing

    def turn_actions(self, position: Position, army: str, used: frozenset[Spent],
                     every_destination: bool) -> Iterable[Action]:
        from ..turns import actions
        nets = actions.netted(position)
        reach = actions._recon_reach(position, army, nets, False)
        for unit, target, facing in self._moves(position, army, used, nets, reach):
            yield Move(unit.hex, target, facing, "hq")

    def turn_outcomes(self, position: Position, army: str, used: frozenset[Spent]
                      ) -> list[tuple[Action, tuple[tuple[str, Position], ...]]] | None:
        # turn_actions and turn_results in one pass: the nets, the Recon Center's reach and each unit's own checks
        # read once, not once per move (the Smart level-3 card's listing spent a third of its time on them). The
        # mover checks of turn_results are _movable's; the step's are made here.
        from ..turns import actions
        actions._supported(position)
        nets = actions.netted(position)
        reach = actions._recon_reach(position, army, nets, False)
        return [(Move(unit.hex, target, facing, "hq"), (("", _moved_to(position, unit.hex, target, facing)),))
                for unit, target, facing in self._moves(position, army, used, nets, reach)
                if actions._step_problem(position, unit, target, facing, reach) is None]

    def turn_results(self, position: Position, action: Action, army: str,
                     used: frozenset[Spent]) -> tuple[tuple[str, Position], ...] | None:
        if not isinstance(action, Move) or action.by != "hq":
            return None
        from ..turns import actions
        actions._supported(position)
        nets = actions.netted(position)
        problem = actions._mover_problem(position, army, action.source, nets, actions.FREE_MOVE_OWN)
        if problem is not None:
            raise IllegalAction(str(action), problem)
        unit = position.unit_at(action.source)
        assert unit is not None
        if not self._granted(position, army, unit):
            raise IllegalAction(str(action), NO_HQ_MOVE)
        if actions.Spent(unit.hex, "hq") in used:
            raise IllegalAction(str(action), HQ_MOVE_ONCE)
        problem = actions._step_problem(position, unit, action.target, action.facing,
                                        actions._recon_reach(position, army, nets, False))
        if problem is not None:
            raise IllegalAction(str(action), problem)
        return (("", _moved_to(position, action.source, action.target, action.facing)),)

    def spent(self, position: Position, action: Action, army: str, used: frozenset[Spent]) -> frozenset[Spent]:
        if isinstance(action, Move) and action.by == "hq":
            from ..turns.actions import Spent
            return used | {Spent(action.target, "hq")}
        return used


class Transporter(Ability):
    """``place TILE HEX FACING by transporter`` (RULINGS 22). The Transporter's Mobility is the ordinary one."""

    tile_abilities = frozenset({"transport"})

    def _swappable(self, position: Position, army: str, hex_: Hex) -> bool:
        from ..turns.actions import controller, netted
        unit = position.unit_at(hex_)
        if unit is None or "transport" not in unit.tile.abilities or controller(position, unit) != army:
            return False
        if unit.army != army and not position.rules.enabled("transporter-swap-by-controller"):
            return False  # a Transporter taken over: only its own army's ability (option)
        return hex_ not in netted(position) or position.rules.enabled("transporter-netted-swap")

    def turn_actions(self, position: Position, army: str, used: frozenset[Spent],
                     every_destination: bool) -> Iterable[Action]:
        from ..turns.actions import board_full, distinct_facings
        if board_full(position):
            return
        hexes = [u.hex for u in position.units if self._swappable(position, army, u.hex)]
        if not hexes:
            return
        for tile in dict.fromkeys(position.hand(army)):
            if tile.kind in (Kind.WARRIOR, Kind.MODULE) and tile.army == army:
                for hex_ in hexes:
                    for facing in distinct_facings(tile):
                        yield Place(tile, hex_, facing, "transporter")

    def turn_results(self, position: Position, action: Action, army: str,
                     used: frozenset[Spent]) -> tuple[tuple[str, Position], ...] | None:
        if not isinstance(action, Place) or action.by != "transporter":
            return None
        from ..turns import actions
        actions._supported(position)
        tile = action.tile
        if tile.kind not in (Kind.WARRIOR, Kind.MODULE):
            raise IllegalAction(str(action), SWAP_A_BOARD_TILE)
        if tile.army != army:
            raise IllegalAction(str(action), actions.OWN_TILES)
        hands = actions._from_hand(position, action, tile, army)
        if actions.board_full(position):
            raise IllegalAction(str(action), actions.BOARD_FULL)
        if not self._swappable(position, army, action.hex):
            raise IllegalAction(str(action), NO_TRANSPORTER)
        from ..position import Unit
        # The Transporter is discarded; its wounds do not pass on ("nie przechodzi ona na żeton").
        units = tuple(u for u in position.units if u.hex != action.hex) + (Unit(action.hex, tile, action.facing),)
        return (("", actions._arrived(position.replaced(units=units, hands=hands), action.hex)),)


class Regeneration(Ability):
    """A destroyed Bio-droid goes back on top of its army's pile (RULINGS 24): the deck count grows by one."""

    tile_abilities = frozenset({"regenerate"})

    def after_damage(self, fight: Fight, phase: int | None, damage: Mapping[Hex, int], removed: set[Hex]) -> None:
        for hex_ in sorted(removed):
            unit = fight.units.get(hex_)
            if unit is None or "regenerate" not in unit.tile.abilities:
                continue
            # Its army's pile, whoever controls it ("wraca on mimo to na górę stosu … Smarta", even when taken).
            owner = unit.tile.army
            if fight.position.deck(owner) is not None:
                fight.position = replace(fight.position, decks=tuple(
                    (army, n + 1 if army == owner else n) for army, n in fight.position.decks))
            if fight.tracing:
                fight.note(phase, "regenerate", f"{unit.tile.key} goes back on top of the {owner} pile",
                           "PL SMART, Bio-droid; RULINGS 24")


class Terror(Ability):
    """Using Terror takes it from the hand (RULINGS 23: its ban lies in the opponent's next turn, a Battle between
    counting for none, RULINGS 69; :mod:`solver.turns.game` keeps it)."""

    instants = frozenset({"terror"})

    def turn_actions(self, position: Position, army: str, used: frozenset[Spent],
                     every_destination: bool) -> Iterable[Action]:
        from ..turns.actions import board_full
        if board_full(position):
            return
        for tile in dict.fromkeys(position.hand(army)):
            if tile.kind is Kind.INSTANT and tile.name == "terror" and tile.army == army:
                yield Use(tile)

    def turn_results(self, position: Position, action: Action, army: str,
                     used: frozenset[Spent]) -> tuple[tuple[str, Position], ...] | None:
        if not isinstance(action, Use) or action.tile.name != "terror":
            return None
        from ..turns import actions
        if action.tile.army != army:
            raise IllegalAction(str(action), actions.OWN_TILES)
        if actions.board_full(position):
            raise IllegalAction(str(action), actions.BOARD_FULL)
        return (("", position.replaced(hands=actions._from_hand(position, action, action.tile, army))),)
