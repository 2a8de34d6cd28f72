"""Whole games: the turn structure, the battles between turns, the end of the game, and checking a record.

3E GAME SEQUENCE, DRAWING TILES, UNLUCKY DRAW, BATTLE, ENDING THE GAME and VICTORY. What one action may do
is :mod:`solver.actions`' business and how a battle goes is :mod:`solver.battle`'s. This module keeps what
a position does not hold: which tiles are left to draw, the discard piles, whose turn it is, who drew the
last tile, and whether the game is over (:class:`GameState`).

Glossary (see also :mod:`solver.actions`):

pool
    An army's tiles that nobody has seen yet: its draw pile. A game record names every tile drawn, so the
    checker knows what is left and refuses a tile the army has no copy of.
opening
    A player's first draw: 1 tile for the first player, 2 for the second (3E GAME SEQUENCE).
Final Battle
    The battle after the turn that follows the one in which a player drew their last tile (3E ENDING THE
    GAME).
tie-break
    After a tied Final Battle, each player takes one more turn, then an additional Battle is fought
    (3E VICTORY).

Battles with several outcomes: a game record cannot say which choice a player made in a battle (which
attack a Medic absorbs, whether the Clown explodes...). When every outcome leaves the HQs with the same
health, the checker goes on with the first one. Otherwise it stops with "battle outcome depends on choices".
The choices of the wounded side after a Sniper, Grenade or Air Strike are treated the same way, with
the whole position compared instead of HQ health.
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass, field, replace
from typing import Iterable

from . import actions, battle
from .cards import ExpectHp, GameRecord, Turn
from .errors import IllegalAction, NhexError, RuleNotImplemented
from .features import refuse_record
from .position import Action, Discard, Draw, Move, Pass, Place, PlaceHQ, Position, Unit, Use
from .tiles import Kind, Tile, army as army_data

# --- the rules of a turn, one sentence each ---------------------------------------------------------------------

OUT_OF_TURN = "players take turns in the order of the `players` line (3E GAME SEQUENCE)"
TURN_NUMBER = "turns are numbered one after the other"
GAME_OVER = "the game is over (3E VICTORY)"
HQ_FIRST = "the game starts with each player placing their HQ, first player first (3E GAME SEQUENCE)"
HQ_ONLY = "in the turn that places the HQ nothing else is done (3E GAME SEQUENCE)"
HQ_LATE = "HQs are placed at the start of the game only (3E GAME SEQUENCE)"
DRAW_FIRST = "a turn starts by drawing up to 3 tiles (3E DRAWING TILES)"
NO_DRAW = "the player did not draw, though tiles are left in the deck (3E DRAWING TILES)"
DRAW_ONCE = "a player draws once a turn, and again only after an Unlucky Draw (3E DRAWING TILES, UNLUCKY DRAW)"
UNLUCKY_DISCARD_ALL = ("Unlucky Draw: every tile in front of the player is discarded before drawing anew "
                       "(3E UNLUCKY DRAW)")
DISCARD_FIRST = "after drawing to 3 tiles the player first discards 1 of them (3E DRAWING TILES)"
BATTLE_BEGUN = ("the Battle has begun: the turn is over and no other tile may be used or even discarded "
                "(3E BATTLE)")
TIE_BREAK_HAND = ("in the tie-break turn a player with nothing left to draw may only use the abilities of the "
                  "tiles on the board (3E VICTORY; option tie-break-hand)")
NOT_IN_DECK = "the army has no copy of that tile left to draw (3E SETUP: each army has its 35 tiles)"
MAYBE = "outcome depends on choices"


def draw_count_rule(count: int, opening: bool) -> str:
    if opening:
        return (f"the first player draws 1 tile in their first turn and the second player 2 (3E GAME SEQUENCE); "
                f"here {count}")
    return f"the player draws up to 3 tiles in front of them, or what is left of the deck: {count} here (3E DRAWING TILES)"


class Undecidable(NhexError):
    """The record cannot say what happened: an outcome depends on choices the notation does not write."""

    def __init__(self, action: str, message: str) -> None:
        super().__init__(f"{action}: {message}")
        self.action = action
        self.message = message


# --- the state of a game ------------------------------------------------------------------------------------------

Piles = tuple[tuple[str, tuple[Tile, ...]], ...]


@dataclass(frozen=True, slots=True)
class GameState:
    """A game between two turns. It holds everything a :class:`Position` does not.

    ``position`` holds the board, the hands, the deck sizes and whose turn it is. ``pools`` holds the tiles
    still in each deck and ``discards`` each discard pile (used instants, discarded tiles, dead units).
    ``turn`` is the number of the next turn. ``drawn`` lists the armies that have made their opening draw.
    ``last_tile_turn`` is the turn in which a player first drew their last tile. ``tie_break_last`` is the
    last turn of a tie-break. ``result`` is the winning army or ``"draw"``, and stays None while the game
    goes on. ``history`` has one line for each battle and for the end of the game.
    """

    position: Position
    players: tuple[str, ...]
    turn: int = 1
    pools: Piles = ()
    discards: Piles = ()
    drawn: frozenset[str] = frozenset()
    last_tile_turn: int | None = None
    tie_break_last: int | None = None
    result: str | None = None
    history: tuple[str, ...] = ()

    def pool(self, army: str) -> tuple[Tile, ...]:
        return next((tiles for name, tiles in self.pools if name == army), ())

    def discard_pile(self, army: str) -> tuple[Tile, ...]:
        return next((tiles for name, tiles in self.discards if name == army), ())

    @property
    def hq(self) -> dict[str, int]:
        """Each player's HQ health (0 when destroyed or not placed yet)."""
        found = {}
        for army in self.players:
            unit = self.position.hq(army)
            found[army] = unit.hp if unit is not None and unit.hp is not None else 0
        return found

    @property
    def battles(self) -> int:
        return sum(1 for line in self.history if line.startswith("battle"))

    @property
    def to_move(self) -> str:
        return self.position.to_move or self.players[0]


def _with_pile(piles: Piles, army: str, tiles: Iterable[Tile]) -> Piles:
    merged = dict(piles)
    merged[army] = merged.get(army, ()) + tuple(tiles)
    return tuple(sorted(merged.items()))


def _minus_pool(piles: Piles, army: str, tiles: Iterable[Tile]) -> Piles:
    left = list(dict(piles).get(army, ()))
    for t in tiles:
        left.remove(t)
    merged = dict(piles)
    merged[army] = tuple(left)
    return tuple(sorted(merged.items()))


def army_tiles(army: str) -> Counter[Tile]:
    """Every tile of an army's deck: its 35 tiles but the HQ, which is set aside (3E SETUP)."""
    return Counter({t: t.count for t in army_data(army).tiles if t.kind is not Kind.HQ})


def position_problems(position: Position) -> list[tuple[str, str, str]]:
    """What breaks the tile counts beyond :meth:`Position.problems`: ``(statement, army, message)``.

    A hand holds only its army's tiles and never an HQ (3E SETUP: "Each player places their HQ tile aside
    from their deck"). The tiles on the board, in hand and in the deck are never more than the army has.
    """
    found = []
    for army, tiles in position.hands:
        for t in tiles:
            if t.army != army:
                found.append(("hand", army, f"{army}'s hand holds {t.key}, a tile of another army"))
            elif t.kind is Kind.HQ:
                found.append(("hand", army, f"{t.key} is set aside at the start and never drawn (3E SETUP)"))
    for army in position.armies:
        size = army_data(army).size
        seen = sum(1 for u in position.units if u.tile.army == army) + len(position.hand(army))
        deck = position.deck(army)
        if deck is not None and seen + deck > size:
            found.append(("deck", army, f"{army} has {seen} tiles on the board and in hand and {deck} in the deck, "
                                        f"but the army has only {size}"))
    return found


def start(record: GameRecord) -> GameState:
    """The state before the record's first turn: decks full but for what the start position shows."""
    players = record.players
    refuse_record(record)  # NOTATION §10 features the engine does not play yet (exit 4)
    if len(players) != 2:
        raise RuleNotImplemented("games of 3 or 4 players (3E THE MULTIPLAYER MODE)")
    position = record.position
    problems = position_problems(position)
    if problems:
        raise ValueError(problems[0][2])
    strangers = [u for u in position.units if u.army not in players]
    if strangers:
        raise ValueError(f"{strangers[0].tile.key} on {strangers[0].hex} belongs to no player")
    pools, decks, drawn = [], [], set()
    for army in players:
        pool = army_tiles(army)
        pool.subtract(u.tile for u in position.units if u.tile.army == army and not u.is_hq)
        pool.subtract(position.hand(army))
        tiles = tuple(sorted(pool.elements(), key=lambda t: t.key))
        deck = position.deck(army)
        deck = len(tiles) if deck is None else deck
        if deck < sum(army_tiles(army).values()) or position.hand(army):
            drawn.add(army)
        pools.append((army, tiles))
        decks.append((army, deck))
    to_move = position.to_move or players[0]
    position = replace(position, decks=tuple(decks), to_move=to_move)
    first = next((e.number for e in record.entries if isinstance(e, Turn)), 1)
    return GameState(position, players, first, tuple(pools), (), frozenset(drawn))


# --- battles --------------------------------------------------------------------------------------------------------


def _gone(before: Iterable[Unit], after: Iterable[Unit]) -> Counter[tuple[str, Tile]]:
    """The units that left the board, by commander and tile."""
    return Counter((u.army, u.tile) for u in before) - Counter((u.army, u.tile) for u in after)


def _to_discards(state: GameState, before: Position, after: Position) -> Piles:
    discards = state.discards
    for (army, tile), n in _gone(before.units, after.units).items():
        discards = _with_pile(discards, army, [tile] * n)
    return discards


def _fight(state: GameState, why: str) -> GameState:
    """One battle, decided as the module docstring says; a destroyed HQ ends the game (3E VICTORY)."""
    outcomes = battle.resolve(state.position)
    health = {tuple(sorted(o.hq.items())) for o in outcomes}
    if len(health) > 1:
        ways = " / ".join(f"{', '.join(o.choices) or 'no choice'} -> "
                          + ", ".join(f"{a} {hp}" for a, hp in sorted(o.hq.items())) for o in outcomes)
        raise Undecidable("battle", f"battle {MAYBE}: {ways}")
    after = outcomes[0].position
    state = replace(state, position=after, discards=_to_discards(state, state.position, after))
    hq = state.hq
    state = replace(state, history=state.history + (
        f"battle (turn {state.turn}, {why}): " + ", ".join(f"{a} {hq[a]}" for a in state.players),))
    standing = [a for a in state.players if hq[a] > 0]
    if len(standing) < len(state.players):
        result = standing[0] if len(standing) == 1 else "draw"
        return _over(state, result, "an HQ is destroyed (3E VICTORY)")
    return state


def _over(state: GameState, result: str, why: str) -> GameState:
    text = "draw" if result == "draw" else f"{result} wins"
    return replace(state, result=result, history=state.history + (f"game over: {text}: {why}",))


def _battle(state: GameState, why: str) -> GameState:
    """A battle, then more while the board stays full (3E BATTLE: "If the board is still full after the Battle
    is completely finished, resolve the next Battles until the board is not full or until the game is
    over")."""
    while True:
        before = state.position.units
        state = _fight(state, why)
        if state.result is not None or not actions.board_full(state.position):
            return state
        if state.position.units == before:
            # Nothing changed, so no further Battle can change anything either (option full-board-deadlock).
            if state.position.rules.option("full-board-deadlock") == "draw":
                return _over(state, "draw", "the board stays full and a Battle changes nothing "
                                            "(option full-board-deadlock=draw)")
            return _compare(state, "the board stays full and a Battle changes nothing", tie="draw")
        why = "the board is still full; 3E BATTLE"


def _compare(state: GameState, why: str, tie: str | None) -> GameState:
    """The end by health: the higher HQ wins (3E VICTORY); a tie ends as ``tie`` or, when None, leads to the
    tie-break turns."""
    hq = state.hq
    best = max(hq.values())
    leaders = [a for a in state.players if hq[a] == best]
    if len(leaders) == 1:
        return _over(state, leaders[0], f"{why}: higher HQ health (3E VICTORY)")
    if tie is not None:
        return _over(state, tie, f"{why}: equal HQ health (3E VICTORY)")
    # 3E VICTORY: "each player takes one more turn as if the game were to continue as normal ... Then, an
    # additional Battle begins."
    return replace(state, tie_break_last=state.turn + len(state.players),
                   history=state.history + (f"tie after {why}: each player takes one more turn (3E VICTORY)",))


# --- a turn ---------------------------------------------------------------------------------------------------------


def _decided(results: tuple[tuple[str, Position], ...], action: Action) -> Position:
    """The one result of an action in a record: every result must be the same position."""
    first = results[0][1]
    if any(p.units != first.units for _, p in results[1:]):
        raise Undecidable(str(action), f"{MAYBE}: " + " / ".join(label for label, _ in results))
    return first


def _opening_limit(state: GameState, army: str) -> int:
    """How many tiles the player holds after drawing (3E GAME SEQUENCE: 1 for the first player's first draw,
    2 for the second's; then up to 3)."""
    if army in state.drawn:
        return 3
    return min(state.players.index(army) + 1, 3)


def play_turn(state: GameState, turn: Turn) -> GameState:
    """``state`` after ``turn``, with any battle it starts and the Final Battle when it is due.

    Raises :class:`IllegalAction` at the first action the rules forbid, and :class:`Undecidable` when the
    record cannot say what happened.
    """
    header = f"{turn.number}. {turn.army}"
    if state.result is not None:
        raise IllegalAction(header, GAME_OVER)
    if turn.number != state.turn:
        raise IllegalAction(header, f"{TURN_NUMBER}: this is turn {state.turn}")
    if turn.army != state.to_move:
        raise IllegalAction(header, f"it is {state.to_move}'s turn: {OUT_OF_TURN}")
    if state.position.hq(turn.army) is None:
        state = _hq_turn(state, turn)
    else:
        state = _normal_turn(state, turn)
    return _end_turn(state, turn.number)


def _hq_turn(state: GameState, turn: Turn) -> GameState:
    first = turn.actions[0]
    if not isinstance(first, PlaceHQ):
        raise IllegalAction(str(first), HQ_FIRST)
    for extra in turn.actions[1:]:
        raise IllegalAction(str(extra), HQ_ONLY)
    return replace(state, position=actions.apply(state.position, first, turn.army))


@dataclass(slots=True)
class _Turn:
    """The bookkeeping of one turn in progress (local to :func:`_normal_turn`)."""

    limit: int
    must_draw: bool
    hand_locked: bool
    drawn: bool = False
    must_discard: bool = False
    unlucky: bool = False  # all the tiles in front are instants and nothing but discards happened since
    over: bool = False
    used: frozenset[actions.Spent] = field(default_factory=frozenset)


def _normal_turn(state: GameState, turn: Turn) -> GameState:
    army = turn.army
    position = state.position
    deck = position.deck(army) or 0
    limit = _opening_limit(state, army)
    tie_break = state.tie_break_last is not None
    now = _Turn(limit=limit, must_draw=deck > 0 and len(position.hand(army)) < limit,
                hand_locked=tie_break and deck == 0 and not position.rules.enabled("tie-break-hand"))
    for action in turn.actions:
        try:
            state = _turn_action(state, action, army, turn.number, now)
        except RuleNotImplemented as error:
            error.action = str(action)  # where the record needs the missing rule
            raise
    if now.must_draw and not now.drawn:
        raise IllegalAction(f"{turn.number}. {army}", NO_DRAW)
    if now.must_discard:
        raise IllegalAction(f"{turn.number}. {army}", DISCARD_FIRST)
    return state


def _turn_action(state: GameState, action: Action, army: str, number: int, now: _Turn) -> GameState:
    """One action of a normal turn, checked against the order of the turn (3E DRAWING TILES, BATTLE)."""
    text = str(action)
    if now.over:
        raise IllegalAction(text, BATTLE_BEGUN)
    if isinstance(action, Draw):
        return _draw(state, action, army, number, now)
    if isinstance(action, Pass):
        return state  # nothing happens; a turn that had to draw still fails on the missing draw
    if isinstance(action, PlaceHQ):
        raise IllegalAction(text, HQ_LATE)
    if not isinstance(action, Move):
        if now.must_draw and not now.drawn:
            raise IllegalAction(text, DRAW_FIRST)
        if now.must_discard and not isinstance(action, Discard):
            raise IllegalAction(text, DISCARD_FIRST)
        if now.hand_locked and not isinstance(action, Discard):
            raise IllegalAction(text, TIE_BREAK_HAND)
        now.must_discard = False
        if not isinstance(action, Discard):
            now.unlucky = False
    state, now.used = _act(state, action, army, now.used)
    if actions.starts_battle(action, state.position):
        now.over = True
        why = "the Battle tile" if isinstance(action, Use) else "the board is full"
        state = _battle(state, f"{why}; 3E BATTLE")
    return state


def _act(state: GameState, action: Action, army: str, used: frozenset[actions.Spent]
         ) -> tuple[GameState, frozenset[actions.Spent]]:
    """One action from the hand or the board, with its tiles going to the discard pile."""
    before = state.position
    after = _decided(actions.results(before, action, army, used), action)
    discards = _to_discards(state, before, after)
    if isinstance(action, (Discard, Use)):
        discards = _with_pile(discards, army, [action.tile])
    return replace(state, position=after, discards=discards), actions.spend(before, action, army, used)


def _draw(state: GameState, draw: Draw, army: str, number: int, now: _Turn) -> GameState:
    text = str(draw)
    hand = state.position.hand(army)
    if now.drawn:
        if not now.unlucky:
            raise IllegalAction(text, DRAW_ONCE)
        if hand:
            raise IllegalAction(text, UNLUCKY_DISCARD_ALL)
    deck = state.position.deck(army) or 0
    count = min(now.limit - len(hand), deck)
    if len(draw.tiles) != count:
        raise IllegalAction(text, draw_count_rule(count, opening=now.limit < 3))
    left = Counter(state.pool(army))
    for t in draw.tiles:
        if t.army == army and left[t] <= 0:
            raise IllegalAction(text, f"{NOT_IN_DECK}: {t.key}")
        left[t] -= 1
    position = actions.apply(state.position, draw, army)
    hand = position.hand(army)
    now.drawn = True
    now.must_discard = len(hand) == 3
    now.unlucky = all(t.kind is Kind.INSTANT for t in hand)
    last = state.last_tile_turn
    if position.deck(army) == 0 and last is None:
        last = number  # 3E ENDING THE GAME: this player finishes the turn, the other takes one, then the Final Battle
    return replace(state, position=position, pools=_minus_pool(state.pools, army, draw.tiles),
                   drawn=state.drawn | {army}, last_tile_turn=last)


def _end_turn(state: GameState, number: int) -> GameState:
    """The battles due after turn ``number`` (the Final Battle, the additional Battle), then the next turn."""
    if state.result is None and state.tie_break_last == number:
        state = _battle(state, "the additional Battle after a tie; 3E VICTORY")
        if state.result is None:
            state = _compare(state, "the additional Battle", tie="draw")
    elif (state.result is None and state.tie_break_last is None and state.last_tile_turn is not None
          and number == state.last_tile_turn + 1):
        state = _battle(state, "the Final Battle; 3E ENDING THE GAME")
        if state.result is None:
            # RULINGS 29: the tie-break turns under 3.0 (option tie-break), a draw under 2.0.
            state = _compare(state, "the Final Battle", tie=None if state.position.rules.enabled("tie-break") else "draw")
    players = state.players
    following = players[(players.index(state.to_move) + 1) % len(players)]
    return replace(state, turn=number + 1, position=replace(state.position, to_move=following))


# --- checking a record -------------------------------------------------------------------------------------------


@dataclass(frozen=True)
class CheckReport:
    """What checking a game record found.

    ``verdict`` is ``legal``, ``illegal`` (an action the rules forbid), ``wrong`` (an ``expect`` line that
    does not hold) or ``undecidable`` (the record cannot say what happened). ``line``, ``action`` and
    ``problem`` place the first fault. ``state`` is the game as it stood before the turn with the fault,
    or at the end when there is none.
    """

    state: GameState
    verdict: str = "legal"
    line: int | None = None
    action: str | None = None
    problem: str | None = None
    turns: int = 0

    @property
    def ok(self) -> bool:
        return self.verdict == "legal"

    def fault(self, source: str) -> str:
        """``FILE:LINE: <action>: illegal: <rule>`` (or ``wrong:`` / ``undecidable:``)."""
        return f"{source}:{self.line}: {self.action}: {self.verdict}: {self.problem}"

    def summary(self) -> str:
        state = self.state
        lines = [f"legal: {self.turns} turn{'s' if self.turns != 1 else ''}, "
                 f"{state.battles} battle{'s' if state.battles != 1 else ''}"]
        lines += [f"  {line}" for line in state.history]
        lines.append("hq: " + ", ".join(f"{army} {hp}" for army, hp in state.hq.items()))
        if state.result == "draw":
            lines.append("result: draw")
        elif state.result is not None:
            lines.append(f"winner: {state.result}")
        else:
            lines.append(f"the game goes on: turn {state.turn} is {state.to_move}'s")
        return "\n".join(lines)


def check(record: GameRecord) -> CheckReport:
    """Replay a game record and report its first fault, or the final state (HQ health, winner).

    ``expect hp ARMY N`` lines are compared with the HQ health at that point. A destroyed HQ, or one not
    yet placed, counts as 0.
    """
    state = start(record)
    turns = 0
    for entry in record.entries:
        if isinstance(entry, ExpectHp):
            health = state.hq.get(entry.army, 0)
            if health != entry.hp:
                return CheckReport(state, "wrong", entry.line, f"expect hp {entry.army} {entry.hp}",
                                   f"the {entry.army} HQ has {health} health", turns)
            continue
        if not isinstance(entry, Turn):  # the §10.7 lines, which start() has refused already
            raise RuleNotImplemented(f"`{entry}` lines (NOTATION §10.7)")
        try:
            state = play_turn(state, entry)
        except IllegalAction as error:
            return CheckReport(state, "illegal", entry.line, error.action, error.rule, turns)
        except Undecidable as error:
            return CheckReport(state, "undecidable", entry.line, error.action, error.message, turns)
        except RuleNotImplemented as error:
            where = getattr(error, "action", f"{entry.number}. {entry.army}")
            return CheckReport(state, "unsupported", entry.line, where, error.rule, turns)
        turns += 1
    return CheckReport(state, turns=turns)


def check_play(position: Position, army: str, plays: Iterable[Action], limit: int | None = None
               ) -> tuple[int, str, str] | None:
    """The first action of ``plays`` that is illegal whatever the other player chose before it, as
    ``(index, action, rule)``, or None when every action is legal in every branch (a puzzle's solution).

    ``limit`` is how many tiles may be played (NOTATION §6 ``play N``).
    """
    branches = [(position, actions.NOTHING_USED)]
    played = 0
    for index, action in enumerate(plays):
        if isinstance(action, (Place, Use)):
            played += 1
            if limit is not None and played > limit:
                return index, str(action), f"the card lets the player play {limit} tile{'s' if limit != 1 else ''} (NOTATION §6 play)"
        following = []
        for before, used in branches:
            if actions.board_full(before) or before.to_move is None:
                return index, str(action), BATTLE_BEGUN
            try:
                found = actions.results(before, action, army, used)
            except IllegalAction as error:
                return index, str(action), error.rule
            for _, after in found:
                done = actions.starts_battle(action, after)
                following.append((replace(after, to_move=None) if done else after,
                                  actions.spend(before, action, army, used)))
        branches = following
    return None


def moves_listing(position: Position, army: str) -> list[tuple[str, list[str]]]:
    """``nhex moves``: the legal actions of ``army``, grouped by the tile in hand, then the free moves."""
    groups: dict[str, list[str]] = {}
    for action in actions.legal_actions(position, army):
        if isinstance(action, Move):
            title = f"free moves by {action.by}"
        elif isinstance(action, (Discard, Place, Use)):
            title = action.tile.key
        else:  # an ability family's own action (`prize …`, `push …`): grouped by its keyword
            title = f"{str(action).split()[0]} actions"
        groups.setdefault(title, []).append(str(action))
    return list(groups.items())
