"""Whole games: the turn structure, the battles between turns, the end of the game, and checking a record.

3E GAME SEQUENCE, DRAWING TILES, UNLUCKY DRAW, BATTLE, ENDING THE GAME and VICTORY. What one action may do
is :mod:`solver.turns.actions`' business and how a battle goes is :mod:`solver.engine.battle`'s. This module keeps what
a position does not hold: which tiles are left to draw, the discard piles, whose turn it is, who drew the
last tile, and whether the game is over (:class:`GameState`).

Glossary (see also :mod:`solver.turns.actions`):

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

from . import actions, hiring
from ..notation import scenarios
from ..engine import battle
from ..notation.cards import Expectation, ExpectDraw, ExpectHp, ExpectScore, ExpectWinner, GameRecord, Turn
from ..errors import IllegalAction, NhexError, RuleNotImplemented
from ..engine.features import refuse_record
from ..position import (HQ_HEALTH, HAND_SIZE, HAND_SIZE_REINFORCEMENT, Action, BuyEnergy, Discard, Draw, Move, Pass, Place, PlaceHQ,
                       Position, Procedure, Unit, Use)
from ..tiles import Kind, Tile, army as army_data

# --- the rules of a turn, one sentence each ---------------------------------------------------------------------

OUT_OF_TURN = "players take turns in the order of the `players` line (3E GAME SEQUENCE)"
#: 3E DEATHMATCH WITH AN OPTIONAL SCORE RULE: "The first player to get 20 points wins the game."
MOST_POINTS = 20
#: 2E CHANGES IN NEW EDITION, Optional Score Rules: "a team which scores a total of 40 points wins".
TEAM_POINTS = 40
PLAY_LIMIT = "this turn the player may use at most {} tile(s) (3E GAME VARIANTS: REINFORCEMENT, ALTERNATIVE BEGINNING)"
#: 3E 1 PLAYER VS A TEAM: each team HQ starts at 13 health.
LONER_TEAM_HEALTH = 13
TURN_NUMBER = "turns are numbered one after the other"
GAME_OVER = "the game is over (3E VICTORY)"
HQ_FIRST = "the game starts with each player placing their HQ, first player first (3E GAME SEQUENCE)"
HQ_ONLY = "in the turn that places the HQ nothing else is done (3E GAME SEQUENCE)"
HQ_LATE = "HQs are placed at the start of the game only (3E GAME SEQUENCE)"
DRAW_FIRST = "a turn starts by drawing up to 3 tiles (3E DRAWING TILES)"
NO_DRAW = "the player did not draw, though tiles are left in the deck (3E DRAWING TILES)"
DRAW_ONCE = "a player draws once a turn, and again only after an Unlucky Draw (3E DRAWING TILES, UNLUCKY DRAW)"
NO_UNLUCKY_DRAW = ("a player draws once a turn; these rules have no Unlucky Draw (2E GAME SEQUENCE; option "
                   "unlucky-draw=no, the default under rules 2.0)")
UNLUCKY_DISCARD_ALL = ("Unlucky Draw: every tile in front of the player is discarded before drawing anew "
                       "(3E UNLUCKY DRAW)")
DISCARD_FIRST = "after drawing to 3 tiles the player first discards 1 of them (3E DRAWING TILES)"
BATTLE_BEGUN = ("the Battle has begun: the turn is over and no other tile may be used or even discarded "
                "(3E BATTLE)")
TIE_BREAK_HAND = ("in the tie-break turn a player with nothing left to draw may only use the abilities of the "
                  "tiles on the board (3E VICTORY; option tie-break-hand)")
DRAWN_FIRST = ("a destroyed Bio-droid goes back on top of the pile and is the first tile drawn (PL SMART, Bio-droid: "
               "'Gdy gracz będzie dociągał żetony, pierwszy na rękę trafi Bio-droid'; RULINGS 24)")
TERROR_BAN = ("Terror: in the turn after an opponent's Terror no tile may be placed on the board (PL ŻETONY "
              "NATYCHMIASTOWE, TERROR: 'w najbliższej turze przeciwnik nie może wystawić żadnej jednostki'; RULINGS 23)")
NOT_IN_DECK = "the army has no copy of that tile left to draw (3E SETUP: each army has its 35 tiles)"
MAYBE = "outcome depends on choices"


def draw_count_rule(count: int, opening: bool) -> str:
    if opening:
        return (f"the first player draws 1 tile in their first turn and the second player 2 (3E GAME SEQUENCE); "
                f"here {count}")
    return f"the player draws up to 3 tiles in front of them, or what is left of the deck: {count} here (3E DRAWING TILES)"


class Undecidable(NhexError):
    """The record cannot say what happened: an outcome depends on choices the notation does not write."""

    def __init__(self, action: str, message: str, fought: Fought | None = None) -> None:
        super().__init__(f"{action}: {message}")
        self.action = action
        self.message = message
        #: The battle whose outcome the record cannot settle, when a battle is what it cannot settle.
        self.fought = fought


# --- the state of a game ------------------------------------------------------------------------------------------

Piles = tuple[tuple[str, tuple[Tile, ...]], ...]


@dataclass(frozen=True, slots=True)
class Fought:
    """A battle of a game: the turn it was fought in, why it began, and the game as it began (its position, its
    seating), so that a judge can ask for it again, traced (``nhex battle RECORD --turn N``)."""

    turn: int
    why: str
    state: GameState

    @property
    def before(self) -> Position:
        """The position the battle began from."""
        return self.state.position

    def settled(self, outcome: battle.Outcome) -> battle.Outcome:
        """The outcome with what a position alone leaves open settled from the game: where the neutral Mad Bomber
        goes with three or more armies (the player to the right of his detonator: :func:`hiring.right_of`)."""
        return replace(outcome, reports=hiring.settled(self.state, outcome.reports))


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
    #: The seat (index into ``players``) of the turn in progress or next, once every HQ is placed.
    seat: int = 0
    #: The armies still to take a turn before the Final Battle (3E THE MULTIPLAYER MODE, THE FINAL BATTLE: "the
    #: others complete their own turns as usual, and only then does the Final Battle start").
    awaited: frozenset[str] | None = None
    #: The armies that won (several share a victory); empty for a draw; None while the game goes on.
    winners: tuple[str, ...] | None = None
    #: Armies out of the game (their HQ fell in a deathmatch of three or more).
    out: frozenset[str] = frozenset()
    #: The tied armies playing a tie-break (3E THE MULTIPLAYER MODE, TIE: only they take the extra turns).
    tied: tuple[str, ...] = ()

    @property
    def armies(self) -> tuple[str, ...]:
        """Each army once, in the order of its first seat (the order the HQs are placed in: RULINGS 63)."""
        return tuple(dict.fromkeys(self.players))

    @property
    def in_play(self) -> tuple[str, ...]:
        return tuple(a for a in self.armies if a not in self.out)
    #: Tiles back on top of a pile, to be drawn first (a destroyed Smart Bio-droid: RULINGS 24).
    on_top: Piles = ()
    #: Armies whose next turn allows no placement (an opponent's Terror: RULINGS 23).
    terror: frozenset[str] = frozenset()
    #: Each army's hired mercenary tiles, and the mercenary tiles out of the game (:mod:`solver.turns.hiring`).
    hired: Piles = ()
    gone: tuple[Tile, ...] = ()
    #: A scenario's (solver/notation/scenarios.py): each HQ's Hit Points at the start, from which injuries count, and the
    #: free turns left to the army that takes them (B13 SCENARIO 2, Start).
    start_hp: tuple[tuple[str, int], ...] = ()
    free_left: int = 0
    #: Every battle fought so far, in order (:class:`Fought`); after a check stopped at a battle whose outcome the
    #: record cannot settle, that battle too.
    fought: tuple[Fought, ...] = ()

    def pool(self, army: str) -> tuple[Tile, ...]:
        return next((tiles for name, tiles in self.pools if name == army), ())

    def discard_pile(self, army: str) -> tuple[Tile, ...]:
        return next((tiles for name, tiles in self.discards if name == army), ())

    @property
    def hq(self) -> dict[str, int]:
        """Each player's HQ health (0 when destroyed or not placed yet)."""
        found = {}
        for army in self.armies:
            unit = self.position.hq(army)
            found[army] = unit.hp if unit is not None and unit.hp is not None else 0
        return found

    @property
    def battles(self) -> int:
        return sum(1 for line in self.history if line.startswith("battle"))

    @property
    def to_move(self) -> str:
        return self.position.to_move or self.players[0]

    @property
    def mode(self) -> str:
        """``two-player``, ``deathmatch``, ``score``, ``team`` (a team match) or ``loner`` (1 player vs a team)."""
        if len(self.players) != len(self.armies):
            return "loner"
        if self.position.teams:
            return "team"
        if self.position.mode == "score":
            return "score"
        return "deathmatch" if len(self.armies) > 2 else "two-player"

    def side_of(self, army: str) -> tuple[str, ...]:
        """The army's side: its team, or itself alone."""
        return next((team for team in self.position.teams if army in team), (army,))


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
            if t.army != army and not hiring.is_mercenary(t):  # a hired mercenary or the Bomber (2E)
                found.append(("hand", army, f"{army}'s hand holds {t.key}, a tile of another army"))
            elif t.kind is Kind.HQ:
                found.append(("hand", army, f"{t.key} is set aside at the start and never drawn (3E SETUP)"))
    for army in position.armies:
        size = army_data(army).size
        seen = sum(1 for u in position.units if u.tile.army == army) + sum(1 for t in position.hand(army)
                                                                            if t.army == army)
        deck = position.deck(army)
        if deck is not None and seen + deck > size:
            found.append(("deck", army, f"{army} has {seen} tiles on the board and in hand and {deck} in the deck, "
                                        f"but the army has only {size}"))
    return found


def start(record: GameRecord) -> GameState:
    """The state before the record's first turn: decks full but for what the start position shows."""
    players = record.players
    refuse_record(record)  # NOTATION §10 features the engine does not play yet (exit 4)
    position = record.position
    armies = tuple(dict.fromkeys(players))
    if len(armies) < len(players) and not position.teams:
        # 3E 1 PLAYER VS A TEAM: the Loner, named twice, plays alone; "Players 2 and 3 form a team".
        loner = next(a for a in armies if players.count(a) > 1)
        if position.mode == "score":
            raise RuleNotImplemented("the score rule in 1 player vs a team: neither rulebook gives its goal (3E 1 "
                                     "PLAYER VS A TEAM has no score variant; 2E has no 1 vs a team)")
        position = replace(position, teams=(tuple(a for a in armies if a != loner),))
    problems = position_problems(position)
    if problems:
        raise ValueError(problems[0][2])
    strangers = [u for u in position.units if u.army not in players and not u.is_neutral]
    if strangers:
        raise ValueError(f"{strangers[0].tile.key} on {strangers[0].hex} belongs to no player")
    problem = hiring.start_problem(position)
    if problem is not None:
        raise ValueError(problem)
    pools, decks, drawn = [], [], set()
    for army in armies:
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
    unplaced = [a for a in armies if position.hq(a) is None]
    to_move = position.to_move or (unplaced[0] if unplaced else players[0])
    position = replace(position, decks=tuple(decks), to_move=to_move)
    first = next((e.number for e in record.entries if isinstance(e, Turn)), 1)
    return GameState(position, players, first, tuple(pools), (), frozenset(drawn),
                     seat=players.index(to_move) if not unplaced else 0, hired=hiring.hired_at_start(position),
                     start_hp=_start_hp(position, armies, len(armies) < len(players)))


def _start_hp(position: Position, armies: tuple[str, ...], loner: bool) -> tuple[tuple[str, int], ...]:
    """Each HQ's health at the start of the game: the scenario's ``start-hp``, else the HQ's on the board, else what
    it is placed with (a scenario counts its injuries from here: B13 SPECIAL CAMPAIGN RULES, NOTE)."""
    scenario = scenarios.of(position)
    if scenario is None:
        return ()
    missing = scenarios.missing_result(scenario)
    if missing is not None:
        where = position.location("free-turns") or position.location("scenario")
        raise RuleNotImplemented(missing, where.line if where else 0, where.column if where else 0)
    found = []
    for army in armies:
        hq = position.hq(army)
        hp = scenario.hp_at_start(army) or (hq.hp if hq is not None else None)
        if hp is None:
            hp = LONER_TEAM_HEALTH if loner and _in_team(position, army) else HQ_HEALTH
        found.append((army, hp))
    return tuple(found)


def _in_team(position: Position, army: str) -> bool:
    return any(army in team for team in position.teams)


# --- battles --------------------------------------------------------------------------------------------------------


def _gone(before: Iterable[Unit], after: Iterable[Unit]) -> Counter[tuple[str, Tile]]:
    """The units that left the board, by commander and tile."""
    return Counter((u.army, u.tile) for u in before) - Counter((u.army, u.tile) for u in after)


def _to_discards(state: GameState, before: Position, after: Position) -> GameState:
    """``state`` with the units that left the board between ``before`` and ``after`` on their discard piles, or,
    for a tile that regenerates (the battle and the turn rules counted it back into its deck), back on top of
    its pile."""
    discards, pools, on_top = state.discards, state.pools, state.on_top
    for (army, tile), n in _gone(before.units, after.units).items():
        if hiring.is_bomber(tile):
            continue  # he goes onto a pile, or out of the game (solver.turns.hiring.left_board)
        if "regenerate" in tile.abilities and (after.deck(tile.army) or 0) > (before.deck(tile.army) or 0):
            pools = _with_pile(pools, tile.army, [tile] * n)
            on_top = _with_pile(on_top, tile.army, [tile] * n)
        else:
            discards = _with_pile(discards, army, [tile] * n)
    return replace(state, discards=discards, pools=pools, on_top=on_top)


def _fight(state: GameState, why: str) -> GameState:
    """One battle, decided as the module docstring says, then whatever its end decides (:func:`_after_battle`)."""
    before = state.position
    outcomes = battle.resolve(before)
    health = {(tuple(sorted(o.hq.items())), o.position.scores, o.reports) for o in outcomes}
    if len(health) > 1:
        ways = " / ".join(f"{', '.join(o.choices) or 'no choice'} -> "
                          + ", ".join(f"{a} {hp}" for a, hp in sorted(o.hq.items())) for o in outcomes)
        raise Undecidable("battle", f"battle {MAYBE}: {ways}", Fought(state.turn, why, state))
    after = outcomes[0].position
    state = replace(_to_discards(state, before, after), position=after,
                    fought=state.fought + (Fought(state.turn, why, state),))
    hq = state.hq
    line = f"battle (turn {state.turn}, {why}): " + ", ".join(f"{a} {hq[a]}" for a in state.in_play)
    if state.position.mode == "score":
        scores = dict(after.scores)
        line += "; score " + ", ".join(f"{a} {scores.get(a, 0)}" for a in state.in_play)
    state = replace(state, history=state.history + (line,))
    state = hiring.left_board(state, before, after, hiring.battle_detonators(outcomes[0].reports),
                              "set off by {} in the battle")
    return _after_battle(state)


def _after_battle(state: GameState) -> GameState:
    """Whether a battle has ended the game, by the mode's rule (3E VICTORY; THE MULTIPLAYER MODE)."""
    hq = state.hq
    fallen = [a for a in state.in_play if hq[a] == 0]
    mode = state.mode
    if state.position.mode == "score":
        # 3E SCORE RULE: "The first player to get 20 points wins ... If during the same Battle more than 1 player
        # scores 20 points, all these players share the victory." 2E: "a team which scores a total of 40 points
        # wins"; without the 3E cap (option score-cap) the most points among those past the goal win.
        points = _standings(state)
        goal = TEAM_POINTS if state.position.teams else MOST_POINTS
        past = {side: n for side, n in points.items() if n >= goal}
        if not past:
            return state
        top = tuple(a for side, n in past.items() if n == max(past.values()) for a in side)
        return _over(state, top, f"{goal} points (3E DEATHMATCH WITH AN OPTIONAL SCORE RULE; 2E Optional Score Rules)")
    if not fallen:
        return state
    if mode == "two-player":
        standing = tuple(a for a in state.in_play if hq[a] > 0)
        return _over(state, standing if len(standing) == 1 else (), "an HQ is destroyed (3E VICTORY)")
    if mode == "deathmatch":
        # 3E HQ DESTROYED: "The player is out and the game continues without them" (the units left the board at
        # the end of the battle: solver.abilities.multiplayer).
        state = replace(state, out=state.out | set(fallen), history=state.history + (
            f"{', '.join(fallen)} out: the HQ is destroyed (3E THE MULTIPLAYER MODE, HQ DESTROYED)",))
        standing = state.in_play
        if len(standing) <= 1:
            return _over(state, standing, "one army is left (3E THE MULTIPLAYER MODE)")
        return state
    # A team match or 1 player vs a team: the first side to destroy an enemy HQ wins.
    losing = {state.side_of(a) for a in fallen}
    sides = {state.side_of(a) for a in state.armies}
    if len(losing) == 1:
        winners = next(iter(sides - losing))
        return _over(state, winners, "an enemy HQ is destroyed (3E TEAM MATCH; 1 PLAYER VS A TEAM)")
    if mode == "loner":
        # 3E 1 PLAYER VS A TEAM: "If two opposing HQs are destroyed in one battle, the team wins."
        team = next(side for side in sides if len(side) > 1)
        return _over(state, team, "two opposing HQs are destroyed in one battle: the team wins (3E 1 PLAYER VS A TEAM)")
    # 3E TEAM MATCH: "the remaining two HQs are taken into consideration and the one with more Health points
    # remaining wins."
    survivors = sorted(((hq[a], a) for a in state.armies if hq[a] > 0), reverse=True)
    if len(survivors) == 2 and survivors[0][0] != survivors[1][0]:
        return _over(state, state.side_of(survivors[0][1]),
                     "two opposing HQs are destroyed in one battle: the HQ with more health left wins (3E TEAM MATCH)")
    return _over(state, (), "two opposing HQs are destroyed in one battle and the others are level (3E TEAM MATCH)")


def _over(state: GameState, winners: tuple[str, ...], why: str) -> GameState:
    """The game ends: ``winners`` share the victory; nobody wins a draw."""
    winners = tuple(a for a in state.armies if a in winners)
    result = "draw" if not winners else "+".join(winners)
    text = "draw" if not winners else f"{' and '.join(winners)} win{'s' if len(winners) == 1 else ''}"
    return replace(state, result=result, winners=winners, history=state.history + (f"game over: {text}: {why}",))


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
                return _over(state, (), "the board stays full and a Battle changes nothing "
                                            "(option full-board-deadlock=draw)")
            return _compare(state, "the board stays full and a Battle changes nothing", tie="draw")
        why = "the board is still full; 3E BATTLE"


def _standings(state: GameState) -> dict[tuple[str, ...], int]:
    """What decides the game by comparison, for each side still in it: HQ health (3E VICTORY), points in the score
    mode, or a side's total of remaining health in team play (3E TEAM MATCH: "the team with the highest total of
    remaining Toughness")."""
    hq = state.hq
    if state.position.mode == "score":
        scores = dict(state.position.scores)
        # 2E Optional Score Rules: "both teams share their point count"; alone, each player's own.
        sides = dict.fromkeys(state.side_of(a) for a in state.in_play if not state.tied or a in state.tied)
        return {side: sum(scores.get(a, 0) for a in side) for side in sides}
    sides = dict.fromkeys(state.side_of(a) for a in state.in_play if not state.tied or a in state.tied)
    return {side: sum(hq[a] for a in side) for side in sides}


def _compare(state: GameState, why: str, tie: str | None) -> GameState:
    """The end by comparison: the best side wins (3E VICTORY); a tie ends as ``tie`` (``draw``, or ``share`` for
    the tied players sharing the victory) or, when None, leads to the tie-break turns."""
    if state.start_hp and state.mode == "two-player":
        decided = scenarios.decide(scenarios.of(state.position), dict(state.start_hp), state.hq)
        if decided is not None:  # a scenario's own victory condition (victory fewer-injuries)
            return _over(state, decided[0], f"{why}: {decided[1]}")
    standings = _standings(state)
    best = max(standings.values())
    leaders = [side for side, value in standings.items() if value == best]
    if len(leaders) == 1:
        return _over(state, leaders[0], f"{why}: {'more points' if state.position.mode == 'score' else 'higher HQ health'} "
                                        "(3E VICTORY)")
    if tie == "draw":
        return _over(state, (), f"{why}: a tie (3E VICTORY)")
    tied = tuple(a for side in leaders for a in side)
    if tie == "share":
        # 3E THE MULTIPLAYER MODE, TIE: "If the players are still tied, then the game ends in a draw and the tied
        # players share the victory."
        return _over(state, tied, f"{why}: still tied, the tied players share the victory (3E THE MULTIPLAYER MODE, TIE)")
    # 3E VICTORY: "each player takes one more turn as if the game were to continue as normal ... Then, an
    # additional Battle begins." With three or more players only the tied ones play on (THE MULTIPLAYER MODE, TIE).
    playing = tied if state.mode in ("deathmatch", "score") else state.in_play
    seats = [a for a in state.players if a in playing]
    return replace(state, tie_break_last=state.turn + len(seats), tied=tuple(playing),
                   history=state.history + (f"tie after {why}: {', '.join(dict.fromkeys(seats))} take one more "
                                            "turn each (3E VICTORY)",))


# --- a turn ---------------------------------------------------------------------------------------------------------


def _decided(results: tuple[tuple[str, Position], ...], action: Action) -> Position:
    """The one result of an action in a record: every result must be the same position."""
    first = results[0][1]
    if any(p.units != first.units for _, p in results[1:]):
        raise Undecidable(str(action), f"{MAYBE}: " + " / ".join(label for label, _ in results))
    return first


def _opening_limit(state: GameState, army: str) -> int:
    """How many tiles the player holds after drawing (3E GAME SEQUENCE: 1 for the first player's first draw,
    2 for the second's; then up to 3). 3E GAME VARIANTS: REINFORCEMENT, "draw up to 6 tiles instead of 3";
    ALTERNATIVE BEGINNING, "Player 1 draws three tiles from their pile ... Next, starting with Player 2, players
    draw up to three tiles"."""
    rules = state.position.rules
    if army in state.drawn:
        return HAND_SIZE_REINFORCEMENT if rules.enabled("reinforcement") else HAND_SIZE
    free = _free_turns(state)
    if free is not None:
        # B13 SCENARIO 2, Start: the second player "begins with drawing 3 tiles"; the free turns' first draw by
        # option free-turn-draw (the book is silent).
        if army != free[0] or rules.option("free-turn-draw") == "three":
            return HAND_SIZE
    if rules.option("beginning") == "alternative":
        return HAND_SIZE
    return min(state.players.index(army) + 1, HAND_SIZE)


def _free_turns(state: GameState) -> tuple[str, int | None] | None:
    """The scenario's free turns (army, count), when it has them (B13 SCENARIO 2, Start)."""
    scenario = scenarios.of(state.position)
    return scenario.free_turns if scenario is not None else None


def _play_limit(state: GameState, army: str) -> int | None:
    """How many tiles the player may use this turn, where a variant limits it. 3E REINFORCEMENT: "play a maximum
    of two tiles"; ALTERNATIVE BEGINNING: in Player 1's first turn, "from the remaining two he chooses one tile to
    be used"."""
    rules = state.position.rules
    limit = None
    if rules.enabled("reinforcement"):
        limit = 2
    if rules.option("beginning") == "alternative" and army not in state.drawn and army == state.players[0]:
        limit = 1
    return limit


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
        return _end_turn(_hq_turn(state, turn), turn.number, turn.army, normal=False)
    return _end_turn(_normal_turn(state, turn), turn.number, turn.army, normal=True)


def _hq_turn(state: GameState, turn: Turn) -> GameState:
    first = turn.actions[0]
    if not isinstance(first, PlaceHQ):
        raise IllegalAction(str(first), HQ_FIRST)
    for extra in turn.actions[1:]:
        raise IllegalAction(str(extra), HQ_ONLY)
    position = actions.apply(state.position, first, turn.army)
    if state.mode == "loner" and state.players.count(turn.army) == 1:
        # 3E 1 PLAYER VS A TEAM: "the Loner places their HQ marker on space 20 and each team player on 13".
        hq = position.hq(turn.army)
        assert hq is not None
        position = position.with_units([u if u is not hq else replace(u, hp=LONER_TEAM_HEALTH)
                                        for u in position.units])
    scenario = scenarios.of(position)
    if scenario is None:
        return replace(state, position=position)
    # A scenario's starting Hit Points (start-hp) and free turns (B13 SCENARIO 2, Start).
    return replace(state, position=scenarios.placed_hq(position, turn.army),
                   free_left=scenario.free_turns_of(turn.army) or 0)


@dataclass(slots=True)
class _Turn:
    """The bookkeeping of one turn in progress (local to :func:`_normal_turn`)."""

    limit: int
    must_draw: bool
    hand_locked: bool
    play_limit: int | None = None
    played: int = 0
    drawn: bool = False
    must_discard: bool = False
    unlucky: bool = False  # all the tiles in front are instants and nothing but discards happened since
    terror: bool = False  # an opponent's Terror forbids placing this turn (RULINGS 23)
    over: bool = False
    used: frozenset[actions.Spent] = field(default_factory=frozenset)


def _normal_turn(state: GameState, turn: Turn) -> GameState:
    army = turn.army
    position = state.position
    deck = position.deck(army) or 0
    limit = _opening_limit(state, army)
    tie_break = state.tie_break_last is not None
    now = _Turn(limit=limit, must_draw=deck > 0 and len(position.hand(army)) < limit,
                hand_locked=tie_break and deck == 0 and not position.rules.enabled("tie-break-hand"),
                play_limit=_play_limit(state, army), terror=army in state.terror)
    # The ban lasts this one turn, the player's own: a Battle between (a Battle tile's or a full board's) is no
    # player's turn and uses none of it (RULINGS 69; Portal 3.0 FAQ v17-11b, errata: "the Battle is not part of the
    # turn of the player who called it").
    state = replace(state, terror=state.terror - {army})
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
    if now.over and not (isinstance(action, Move) and action.by == "takeover"):
        # RULINGS 18: the one thing after a battle is the turn of a unit taken over during it ("może ją obrócić
        # natychmiast po zakończeniu Bitwy", PL VEGAS, Sytuacje szczególne).
        raise IllegalAction(text, BATTLE_BEGUN)
    if isinstance(action, Draw):
        return _draw(state, action, army, number, now)
    if isinstance(action, Pass):
        return state  # nothing happens; a turn that had to draw still fails on the missing draw
    if isinstance(action, PlaceHQ):
        raise IllegalAction(text, HQ_LATE)
    if isinstance(action, Place) and now.terror:
        raise IllegalAction(text, TERROR_BAN)
    if isinstance(action, Use) and action.tile.name == "battle" and state.last_tile_turn is not None:
        # A Bio-droid back on an emptied pile does not undo that the last tile was drawn (RULINGS 24).
        raise IllegalAction(text, actions.BATTLE_AFTER_LAST_TILE)
    # Free moves and Duel-board Procedures come at any moment of the turn (3E MOBILITY; PL PROCEDURY: "w dowolnym
    # momencie swojej tury"), before the draw too, and use no tile in hand.
    if not isinstance(action, (Move, Procedure)):
        if now.must_draw and not now.drawn:
            raise IllegalAction(text, DRAW_FIRST)
        if now.must_discard and not isinstance(action, Discard):
            raise IllegalAction(text, DISCARD_FIRST)
        if now.hand_locked and not isinstance(action, Discard):
            raise IllegalAction(text, TIE_BREAK_HAND)
        now.must_discard = False
        if not isinstance(action, Discard):
            now.unlucky = False
            now.played += 1
            if now.play_limit is not None and now.played > now.play_limit:
                raise IllegalAction(text, PLAY_LIMIT.format(now.play_limit))
    state, now.used = _act(state, action, army, now.used)
    hq = state.position.hq(army)
    if isinstance(action, BuyEnergy) and hq is not None and hq.hp == 0:
        # Option energy-hq-last-point=yes: the HQ paid its last point. PL ZWYCIĘSTWO: "Gra kończy się ... gdy
        # Wytrzymałość Sztabu jednego z graczy spadnie do zera" (the game ends when an HQ's health drops to 0).
        now.over = True
        return _over(state, tuple(a for a in state.armies if a != army), "an HQ is destroyed (PL ZWYCIĘSTWO)")
    if actions.starts_battle(action, state.position):
        now.over = True
        # What the battle takes over is "just taken" after it: the turn rules reckon it from this moment.
        now.used = actions.spend(state.position, Pass(), army, now.used)
        why = "the Battle tile" if isinstance(action, Use) else "the board is full"
        state = _battle(state, f"{why}; 3E BATTLE")
    return state


def _act(state: GameState, action: Action, army: str, used: frozenset[actions.Spent]
         ) -> tuple[GameState, frozenset[actions.Spent]]:
    """One action from the hand or the board, with its tiles going to the discard pile."""
    before = state.position
    after = _decided(actions.results(before, action, army, used), action)
    state = _to_discards(state, before, after)
    discards = state.discards
    if isinstance(action, Discard) and hiring.is_bomber(action.tile):
        # 2E: "If discarded, Mad Bomber returns to the game just as if he had exploded"
        state = hiring.set_off(replace(state, position=after), action.tile, [army], "discarded by {}")
        after = state.position
    elif isinstance(action, (Discard, Use)):
        discards = _with_pile(discards, army, [action.tile])
    elif isinstance(action, BuyEnergy) and action.tile is not None:
        discards = _with_pile(discards, army, [action.tile])  # a tile sold for Energy is discarded too
    terror = state.terror
    if isinstance(action, Use) and action.tile.name == "terror":
        # "każdy z pozostałych graczy" (each of the other players) in a multiplayer game
        terror = terror | {p for p in state.players if p != army}
    # An instant that sets the Bomber off makes its army the detonator (RULINGS 56).
    state = hiring.left_board(replace(state, position=after, discards=discards, terror=terror), before, after, [army],
                              f"set off by {{}}'s {action.tile.key}" if isinstance(action, Use) else "set off by {}")
    if state.position.scenario is not None:  # the radio, destroyed once its guard is gone (B13 SCENARIO 4)
        settled, line = scenarios.settle(state.position)
        if line is not None:
            state = replace(state, position=settled, history=state.history + (line,))
    return state, actions.spend(before, action, army, used)


def _draw(state: GameState, draw: Draw, army: str, number: int, now: _Turn) -> GameState:
    text = str(draw)
    hand = state.position.hand(army)
    if now.drawn:
        if not now.unlucky:
            raise IllegalAction(text, DRAW_ONCE)
        if not state.position.rules.enabled("unlucky-draw"):  # 2E has no Unlucky Draw (option unlucky-draw)
            raise IllegalAction(text, NO_UNLUCKY_DRAW)
        if hand:
            raise IllegalAction(text, UNLUCKY_DISCARD_ALL)
    deck = state.position.deck(army) or 0
    count = min(now.limit - len(hand), deck)
    if len(draw.tiles) != count:
        raise IllegalAction(text, draw_count_rule(count, opening=now.limit < 3))
    left = Counter(state.pool(army))
    first = dict(state.on_top).get(army, ())
    if first and Counter(first[:len(draw.tiles)]) - Counter(draw.tiles):
        raise IllegalAction(text, DRAWN_FIRST)
    for t in draw.tiles:
        if t.army == army and left[t] <= 0:
            raise IllegalAction(text, f"{NOT_IN_DECK}: {t.key}")
        left[t] -= 1
    position = actions.apply(state.position, draw, army)
    position, hired = hiring.drawn(state, draw, army, position)  # hires, and a Bomber drawn off the pile's top
    hand = position.hand(army)
    now.drawn = True
    full = HAND_SIZE_REINFORCEMENT if state.position.rules.enabled("reinforcement") else HAND_SIZE
    now.must_discard = len(hand) == min(now.limit, full) and len(hand) >= HAND_SIZE
    # 3E UNLUCKY DRAW; REINFORCEMENT: "The Unlucky Draw can only be considered if, after drawing tiles, the
    # player has 6 Instant tiles."
    now.unlucky = all(t.kind is Kind.INSTANT for t in hand) and (full == HAND_SIZE or len(hand) == full)
    last, awaited = state.last_tile_turn, state.awaited
    if position.deck(army) == 0 and last is None:
        # 3E ENDING THE GAME: this player finishes the turn, the others take theirs, then the Final Battle (THE
        # MULTIPLAYER MODE, THE FINAL BATTLE: "the others complete their own turns as usual").
        last, awaited = number, frozenset(state.in_play) - {army}
    on_top = tuple((a, tiles[len(draw.tiles):] if a == army else tiles) for a, tiles in state.on_top)
    own = [t for t in draw.tiles if t.army == army]
    return replace(state, position=position, pools=_minus_pool(state.pools, army, own), hired=tuple(sorted(
        hired.items())), drawn=state.drawn | {army}, last_tile_turn=last, awaited=awaited, on_top=on_top)


def _end_turn(state: GameState, number: int, army: str, normal: bool) -> GameState:
    """The battles due after turn ``number`` (the Final Battle, the additional Battle), then the next turn."""
    if state.result is None and state.tie_break_last == number:
        state = _battle(state, "the additional Battle after a tie; 3E VICTORY")
        if state.result is None:
            state = _compare(state, "the additional Battle", tie="share" if len(state.armies) > 2 else "draw")
    elif state.result is None and state.tie_break_last is None and state.awaited is not None and number > (
            state.last_tile_turn or 0):
        awaited = state.awaited - {army}
        state = replace(state, awaited=awaited)
        if not awaited & set(state.in_play):
            state = _battle(state, "the Final Battle; 3E ENDING THE GAME")
            if state.result is None:
                # RULINGS 29: the tie-break turns under 3.0 (option tie-break), a draw under 2.0.
                state = _compare(state, "the Final Battle",
                                 tie=None if state.position.rules.enabled("tie-break") else "draw")
    if normal and state.free_left:
        state = replace(state, free_left=state.free_left - 1)
    seat, following = _following(state, normal)
    return replace(state, turn=number + 1, seat=seat, position=replace(state.position, to_move=following))


def _following(state: GameState, normal: bool) -> tuple[int, str]:
    """The seat and army of the next turn. HQs are placed first, each army once, in the order of their first
    seat (3E GAME SEQUENCE; RULINGS 63); then the seats take turns in order, past armies that are out (3E HQ
    DESTROYED) and, in a tie-break of three or more, past the armies not tied (3E THE MULTIPLAYER MODE, TIE)."""
    if state.free_left:  # B13 SCENARIO 2, Start: "He places his HQ, and then takes ... free turns"
        return state.seat, state.to_move
    unplaced = [a for a in state.in_play if state.position.hq(a) is None]
    if unplaced:
        return state.seat, unplaced[0]
    players = state.players
    seat = (state.seat + 1) % len(players) if normal else state.seat
    if not normal and _free_turns(state) is not None:
        # "Then the second player places their HQ, and begins with drawing 3 tiles."
        seat = players.index(state.to_move)
    playing = set(state.tied) if state.tie_break_last is not None and state.tied else set(state.in_play)
    for _ in range(len(players)):
        if players[seat] in playing:
            break
        seat = (seat + 1) % len(players)
    return seat, players[seat]


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
        lines += hiring.summary(state)
        lines.append("hq: " + ", ".join(f"{army} {hp}" for army, hp in state.hq.items()))
        if state.start_hp:
            hurt = scenarios.injuries(dict(state.start_hp), state.hq)
            lines.append("injuries in the scenario: " + ", ".join(f"{army} {n} (from {hp})" for (army, hp), n
                                                                    in zip(state.start_hp, hurt.values())))
        if state.position.mode == "score":
            scores = dict(state.position.scores)
            lines.append("score: " + ", ".join(f"{army} {scores.get(army, 0)}" for army in state.armies))
        if state.winners == ():
            lines.append("result: draw")
        elif state.winners is not None:
            lines.append(f"winner{'s' if len(state.winners) > 1 else ''}: {' '.join(state.winners)}")
        else:
            lines.append(f"the game goes on: turn {state.turn} is {state.to_move}'s")
        return "\n".join(lines)


def game_json(state: GameState) -> dict[str, object]:
    """What `nhex check --json` says of a game beside v1's keys (NOTATION §10.7; README, notation extensions):
    ``winners`` (every army sharing the victory; empty for a draw; null while the game goes on), ``score`` in the
    score mode, the armies ``out`` of a deathmatch, and ``hired``: each army's hired mercenaries."""
    data: dict[str, object] = {"winners": None if state.winners is None else list(state.winners)}
    if state.position.mode == "score":
        scores = dict(state.position.scores)
        data["score"] = {army: scores.get(army, 0) for army in state.armies}
    if state.out:
        data["out"] = [army for army in state.armies if army in state.out]
    if state.hired:
        data["hired"] = {army: [t.key for t in tiles] for army, tiles in state.hired}
    if state.start_hp:  # a scenario: its HQs' Hit Points at the start and the injuries received since
        data["start_hp"] = dict(state.start_hp)
        data["injuries"] = scenarios.injuries(dict(state.start_hp), state.hq)
    return data


def check(record: GameRecord, upto: int | None = None) -> CheckReport:
    """Replay a game record and report its first fault, or the final state (HQ health, winner).

    ``expect hp ARMY N`` lines are compared with the HQ health at that point. A destroyed HQ, or one not
    yet placed, counts as 0. With ``upto``, the replay stops after turn ``upto`` (0: before the first turn):
    the state is the game after that turn (``nhex fmt RECORD --turn N``, ``nhex battle RECORD --turn N``).
    """
    state = start(record)
    turns = 0
    fault = _scenario_problem(state, record)
    if fault is not None:
        return CheckReport(state, "illegal", fault[0], fault[1], fault[2], turns)
    for entry in record.entries:
        if upto is not None and isinstance(entry, Turn) and entry.number > upto:
            break
        if not isinstance(entry, Turn):
            problem = _expectation_problem(state, entry)
            if problem is not None:
                return CheckReport(state, "wrong", entry.line, str(entry), problem, turns)
            continue
        try:
            state = play_turn(state, entry)
        except IllegalAction as error:
            return CheckReport(state, "illegal", entry.line, error.action, error.rule, turns)
        except Undecidable as error:
            if error.fought is not None:  # the battle began: it is among the battles fought, its outcome open
                state = replace(state, fought=state.fought + (error.fought,))
            return CheckReport(state, "undecidable", entry.line, error.action, error.message, turns)
        except RuleNotImplemented as error:
            where = getattr(error, "action", f"{entry.number}. {entry.army}")
            return CheckReport(state, "unsupported", entry.line, where, error.rule, turns)
        turns += 1
    return CheckReport(state, turns=turns)


def _scenario_problem(state: GameState, record: GameRecord) -> tuple[int, str, str] | None:
    """A scenario's start that the record breaks (the first player, who takes the free turns, the reinforcements),
    as (line, what, rule) at the first turn line, or None."""
    scenario = scenarios.of(record.position)
    if scenario is None:
        return None
    first = next((e for e in record.entries if isinstance(e, Turn)), None)
    where = (first.line, f"{first.number}. {first.army}") if first is not None else (0, "players")
    problem = scenarios.start_problem(scenario, state.players)
    if problem is None and scenario.free_turns is not None and scenario.free_turns[0] != state.players[0]:
        problem = (f"the starting player, {state.players[0]}, takes the free turns, not {scenario.free_turns[0]} "
                   f"(B13 SCENARIO 2: STEEL CONVOY, Start: 'He places his HQ, and then takes as many free turns')")
    problem = problem or scenarios.reinforcement_problem(scenario, record.position)
    placed = scenarios.place_problem(scenario, record.position) if problem is None else None
    if placed is not None:  # at the unit's own line: where it stands is the fault
        at = record.position.location(f"unit {placed[0].hex.label}")
        return (at.line if at else where[0]), str(placed[0]), placed[1]
    return None if problem is None else (*where, problem)


def _expectation_problem(state: GameState, entry: Expectation) -> str | None:
    """What makes an ``expect`` line false where it stands (NOTATION §7, §10.7), or None when it holds."""
    if isinstance(entry, ExpectHp):
        health = state.hq.get(entry.army, 0)
        return None if health == entry.hp else f"the {entry.army} HQ has {health} health"
    if isinstance(entry, ExpectScore):
        points = dict(state.position.scores).get(entry.army, 0)
        return None if points == entry.score else f"{entry.army} has {points} points"
    if state.winners is None:
        return "the game is not over"
    if isinstance(entry, ExpectDraw):
        return None if not state.winners else f"{' and '.join(state.winners)} won"
    if isinstance(entry, ExpectWinner):
        if state.winners == tuple(a for a in state.armies if a in entry.armies) and set(entry.armies) <= set(state.armies):
            return None
        return f"{' and '.join(state.winners)} won" if state.winners else "the game ended in a draw"
    raise TypeError(f"not an expectation: {entry!r}")


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
        elif isinstance(action, Procedure):
            title = f"procedure {action.kind} ({action.cost} Energy)"
        elif isinstance(action, BuyEnergy):
            title = "Energy purchases (they end the turn)"
        elif isinstance(action, (Discard, Place, Use)):
            title = action.tile.key
        else:  # an action an ability grants (a Pusher's push): grouped by its verb
            title = f"{str(action).split()[0]} actions"
        groups.setdefault(title, []).append(str(action))
    return list(groups.items())
