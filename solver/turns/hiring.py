"""Mercenaries and the Mad Bomber in a whole game: who hired which tile, the draw a hire takes, and the Bomber's way
from the board (or a discard) onto a player's draw pile (2E SPECIAL EXPANSION: 4 MERCENARIES FROM ALABAMA).

What one action does with a mercenary tile (drawn without touching the deck, placed as the placing army's unit) is
:mod:`solver.turns.mercenaries`'; how the Bomber fights is :mod:`solver.abilities.mad_bomber`'s. This module keeps what
only a game record knows, in :class:`solver.turns.game.GameState`: ``hired`` (each army's hired tiles) and the Bomber on
top of a pile (``on_top``, as the Smart Bio-droid's return: RULINGS 24), or out of the game (``gone``).

The rules, one sentence each (2E):

* RULES: "In 2 player game each player gets one or two mercenary tiles ... In 3 or 4 player game every player
  chooses one mercenary tile." A record names a hire where it is drawn (NOTATION §7 ``draw``): how many each
  player agreed to take before the game is not written, so the checker holds each army to the most the book
  allows (two, or one with three or more armies) and each tile to its copies (one each).
* "Each mercenary tile can be drawn once per game during any tile-drawing, instead of a normal army tile." The
  hire is one of the tiles of that draw (the count of 3E DRAWING TILES is unchanged) and leaves the deck as it
  was: this is what hiring costs.
* Mad Bomber as non player character: "before placing HQs, players should place Mad Bomber in the middle of the
  board"; "After an explosion, Mad Bomber goes on top of the next player's unused pile of tiles - this tile will
  then be drawn in the next round. In a multi-player game, Mad Bomber goes to the player to the right of the
  player who detonated"; "If discarded, Mad Bomber returns to the game just as if he had exploded (he goes to the
  next player in turn order)"; "If Mad Bomber gets hit from several players at the same time ... he is removed
  from the game and does not return"; netted and killed, "he returns just as if he detonated". He is then a tile
  of that pile: the pile counts him and he is the next tile drawn.
* The neutral Bomber is not hired: he reaches a hand only from the top of a pile. Under option
  ``mad-bomber=mercenary`` he may also be hired like any mercenary (2E, Mad Bomber as a mercenary: "Most of the
  rules given above are still valid").
* "To the right": option ``bomber-right`` (the next player in turn order, by default). The hired Bomber set off:
  option ``hired-bomber`` (he returns as the neutral one does, by default; RULINGS 57 leaves it unsettled).
"""

from __future__ import annotations

from collections import Counter
from dataclasses import replace
from typing import TYPE_CHECKING, Iterable

from ..errors import IllegalAction, RuleNotImplemented
from ..hexes import CENTRE
from .mercenaries import BOMBER, HIT_BY, is_mercenary, right_of as seat_right_of
from ..position import Draw, Position, Unit
from ..tiles import NEUTRAL_ARMY, Tile

if TYPE_CHECKING:  # pragma: no cover
    from .game import GameState

# --- the rules, one sentence each: the text IllegalAction reports ----------------------------------------------

HIRES_TWO = ("in a 2 player game each player gets one or two mercenary tiles (2E SPECIAL EXPANSION: 4 MERCENARIES "
             "FROM ALABAMA, RULES)")
HIRES_ONE = ("in a 3 or 4 player game every player chooses one mercenary tile (2E SPECIAL EXPANSION: 4 MERCENARIES "
             "FROM ALABAMA, RULES)")
ONCE = ("each mercenary tile can be drawn once per game, instead of a normal army tile (2E SPECIAL EXPANSION: 4 "
        "MERCENARIES FROM ALABAMA, RULES)")
NPC_NOT_HIRED = ("the Mad Bomber as a non-player character belongs to no army and is not hired: he reaches a hand "
                 "only from the top of a pile (2E Mad Bomber as non player character; option mad-bomber=mercenary "
                 "hires him)")
IN_THE_MIDDLE = ("the Mad Bomber is set up in the middle of the board before the HQs are placed (2E Mad Bomber as "
                 "non player character: 'before placing HQs, players should place Mad Bomber in the middle')")
RULE = "2E SPECIAL EXPANSION: 4 MERCENARIES FROM ALABAMA, Mad Bomber"


def is_bomber(tile: Tile) -> bool:
    return tile.army == NEUTRAL_ARMY and tile.name == BOMBER


# --- the start of a record ---------------------------------------------------------------------------------------


def start_problem(position: Position) -> str | None:
    """What the start of a record breaks: before any HQ, the neutral Bomber stands in the middle."""
    if any(u.is_hq for u in position.units):
        return None
    for unit in position.units:
        if unit.is_neutral and unit.hex != CENTRE:
            return f"{unit.tile.key} on {unit.hex}: {IN_THE_MIDDLE}"
    return None


def hired_at_start(position: Position) -> tuple[tuple[str, tuple[Tile, ...]], ...]:
    """The hires a record's start shows: mercenaries in a hand or commanded on the board (the neutral Bomber in a
    hand came from a pile under option mad-bomber=npc, and is no hire)."""
    npc = position.rules.option("mad-bomber") == "npc"
    found: dict[str, list[Tile]] = {}
    for army, tiles in position.hands:
        found.setdefault(army, []).extend(t for t in tiles if is_mercenary(t) and not (npc and is_bomber(t)))
    for unit in position.units:
        if is_mercenary(unit.tile) and unit.owner is not None:
            found.setdefault(unit.owner, []).append(unit.tile)
    return tuple(sorted((army, tuple(tiles)) for army, tiles in found.items() if tiles))


# --- drawing -----------------------------------------------------------------------------------------------------


def drawn(state: GameState, draw: Draw, army: str, position: Position) -> tuple[Position, dict[str, tuple[Tile, ...]]]:
    """``position`` (after :func:`solver.turns.actions.apply` of ``draw``) with the pile counting off a Bomber drawn from
    its top, and the armies' hires with this draw's; raises :class:`IllegalAction` for a hire the rules forbid.

    The tiles on top of the pile are the first drawn (:func:`solver.turns.game._draw` checks that); every other mercenary
    tile of the draw is a hire."""
    on_top = dict(state.on_top).get(army, ())[:len(draw.tiles)]
    from_top = Counter(t for t in on_top if is_mercenary(t))
    hires = list((Counter(t for t in draw.tiles if is_mercenary(t)) - from_top).elements())
    hired = dict(state.hired)
    text = str(draw)
    for tile in hires:
        if is_bomber(tile) and position.rules.option("mad-bomber") == "npc":
            raise IllegalAction(text, NPC_NOT_HIRED)
        taken = sum(tiles.count(tile) for tiles in hired.values()) + _elsewhere(state, tile)
        if taken >= tile.count:
            raise IllegalAction(text, f"{ONCE}: {tile.key}")
        mine = hired.get(army, ())
        most = 2 if len(state.armies) == 2 else 1
        if tile not in mine and len(set(mine)) >= most:
            raise IllegalAction(text, HIRES_TWO if most == 2 else HIRES_ONE)
        hired[army] = mine + (tile,)
    returned = sum(from_top.values())
    if returned:
        decks = tuple((name, n - returned if name == army else n) for name, n in position.decks)
        position = replace(position, decks=decks)
    return position, hired


def _elsewhere(state: GameState, tile: Tile) -> int:
    """Copies of a mercenary tile that are in play but no army's hire (the neutral Bomber on the board, on a pile,
    in a hand, or out of the game)."""
    position = state.position
    hired_copies = sum(tiles.count(tile) for _, tiles in state.hired)
    seen = (sum(1 for u in position.units if u.tile == tile) + sum(ts.count(tile) for _, ts in position.hands)
            + sum(ts.count(tile) for _, ts in state.on_top) + sum(ts.count(tile) for _, ts in state.discards)
            + state.gone.count(tile))
    return max(0, seen - hired_copies)


# --- the Bomber leaving the board or the hand --------------------------------------------------------------------


def right_of(state: GameState, army: str) -> str:
    """The player 'to the right' of ``army`` (option bomber-right, :func:`.mercenaries.right_of`), counted from
    ``army``'s turn in progress or next (the Loner of 1 vs a team has two seats)."""
    players, count = state.players, len(state.players)
    seat = next(((state.seat + i) % count for i in range(count) if players[(state.seat + i) % count] == army),
                state.seat)
    return seat_right_of(players, seat, state.in_play, state.position.rules)


def to_pile(state: GameState, tile: Tile, army: str, why: str) -> GameState:
    """The Bomber on top of ``army``'s draw pile: 'this tile will then be drawn in the next round'."""
    piles = dict(state.on_top)
    piles[army] = (tile,) + piles.get(army, ())
    position = state.position
    decks = tuple((name, n + 1 if name == army else n) for name, n in position.decks)
    line = f"turn {state.turn}: the Mad Bomber, {why}, goes on top of {army}'s pile ({RULE})"
    return replace(state, on_top=tuple(sorted(piles.items())), position=replace(position, decks=decks),
                   history=state.history + (line,))


def set_off(state: GameState, tile: Tile, detonators: Iterable[str], why: str = "set off by {}") -> GameState:
    """The Bomber set off (or discarded: ``why``) by ``detonators``: out of the game when several, else onto the
    pile of the player to the right of the one."""
    armies = sorted(set(detonators))
    if len(armies) > 1:
        return replace(state, gone=state.gone + (tile,), history=state.history + (
            f"turn {state.turn}: the Mad Bomber is hit by {' and '.join(armies)} in one phase and leaves the game "
            f"({RULE})",))
    return to_pile(state, tile, right_of(state, armies[0]), why.format(armies[0]))


def left_board(state: GameState, before: Position, after: Position, detonators: Iterable[str] | None,
               why: str = "set off by {}") -> GameState:
    """``state`` with each Bomber that left the board between ``before`` and ``after`` where the rules send him;
    ``detonators`` are the armies that set him off (None: nobody did, which no rule covers)."""
    gone = Counter(_bombers(before.units)) - Counter(_bombers(after.units))
    for unit in gone.elements():
        if unit.owner is not None and state.position.rules.option("hired-bomber") == "discarded":
            discards = dict(state.discards)
            discards[unit.owner] = discards.get(unit.owner, ()) + (unit.tile,)
            state = replace(state, discards=tuple(sorted(discards.items())))
        elif detonators is None and unit.owner is not None and after.hq(unit.owner) is None:
            # 3E HQ DESTROYED: the fallen army's tile "is removed from the board together with all its Unit tiles":
            # the Bomber it hired goes with them, out of the game.
            state = replace(state, gone=state.gone + (unit.tile,), history=state.history + (
                f"turn {state.turn}: the Mad Bomber leaves the game with {unit.owner}'s units (3E THE MULTIPLAYER "
                "MODE, HQ DESTROYED)",))
        elif detonators is None:
            raise RuleNotImplemented("where the Mad Bomber goes when he leaves the board without being hit (2E "
                                     "Mad Bomber: only an explosion or a discard returns him)")
        else:
            state = set_off(state, unit.tile, detonators, why)
    return state


def _bombers(units: Iterable[Unit]) -> list[Unit]:
    # owner and tile only: wounds or facing do not make another Bomber
    return [Unit(CENTRE, u.tile, owner=u.owner) for u in units if is_bomber(u.tile)]


def settled(state: GameState, reports: tuple[tuple[str, object], ...]) -> tuple[tuple[str, object], ...]:
    """A battle's reports with where the neutral Bomber goes settled by the game's seating: a value the position
    alone left open (:class:`~solver.engine.fight.Unsettled`: three or more armies) becomes the player to the right
    of his one detonator (RULINGS 56; option bomber-right), as :func:`set_off` sends him."""
    from ..engine.fight import Unsettled

    detonators = sorted(set(battle_detonators(reports) or ()))
    return tuple((key, right_of(state, detonators[0]) if isinstance(value, Unsettled) and len(detonators) == 1
                  else value) for key, value in reports)


def battle_detonators(reports: Iterable[tuple[str, object]]) -> tuple[str, ...] | None:
    found = dict(reports).get(HIT_BY)
    return tuple(found) if isinstance(found, (tuple, list)) else None


def summary(state: GameState) -> list[str]:
    """The record's hires, for `nhex check`."""
    return [f"hired: {army} " + " ".join(t.key for t in tiles) for army, tiles in state.hired if tiles]
