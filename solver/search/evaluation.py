"""The evaluation of the ends of a turn: what follows the turn is played out and the card's goal judged on it.

Every distinct position the player can stop in is played out: what ``then`` says follows (by default the Final
Battle), and a battle the play itself causes by filling the board. Choices inside a battle are played out as a
game: the player picks the best answer, the opponent the worst (:func:`battle_value`). Each distinct position is
evaluated once, as soon as the enumeration lists it (so a search stopped by ``--max-time`` has played out what it
listed: :class:`Evaluation`). The goal expressions of NOTATION §6 are judged here (:func:`goal_holds`).
"""

from __future__ import annotations

import gc
import multiprocessing
import time
from dataclasses import dataclass, replace
from typing import TYPE_CHECKING, Any, Callable, Iterable

from ..engine import battle
from .. import teams
from ..notation.cards import Alive, And, Destroy, DrawOrWin, Goal, HpCompare, Not, Or, Puzzle, Survive, Win
from ..hexes import Hex
from ..position import Position

if TYPE_CHECKING:
    from .enumeration import State

# --- goals ------------------------------------------------------------------------------------------------------------


@dataclass(frozen=True)
class Ending:
    """What the goal is judged on: health of every HQ at the start and the end, and the end board."""

    start_hp: dict[str, int]
    end_hp: dict[str, int]
    position: Position
    watched: dict[Hex, Hex | None]  # a hex named by the goal -> where that unit stood after the play


_COMPARE: dict[str, Callable[[int, int], bool]] = {
    ">=": lambda a, b: a >= b, ">": lambda a, b: a > b, "<=": lambda a, b: a <= b,
    "<": lambda a, b: a < b, "==": lambda a, b: a == b,
}


def side_standing(player: str, ending: Ending) -> tuple[bool, int, int]:
    """``(alive, mine, best enemy)``: whether the player's side still stands, its measure and the best other
    side's. The measure is HQ health (3E VICTORY), a side's total in team play (3E TEAM MATCH: "the team with the
    highest total of remaining Toughness"), points in the score mode (3E SCORE RULE)."""
    position = ending.position
    if position.mode == "score":
        # HQs take no damage; a team's points are its armies' together (2E Optional Score Rules: "both teams share
        # their point count"), as game._standings counts them.
        scores = dict(position.scores)
        points: dict[str, int] = {}
        for army in {*ending.end_hp, *scores}:
            key = teams.key_of(army, position.teams)
            points[key] = points.get(key, 0) + scores.get(army, 0)
        mine = points.pop(teams.key_of(player, position.teams), 0)
        return True, mine, max(points.values(), default=0)
    hp = ending.end_hp
    sides: dict[str, list[int]] = {}
    for army, value in hp.items():
        sides.setdefault(teams.key_of(army, position.teams), []).append(value)
    own = teams.key_of(player, position.teams)
    own_side = sides.pop(own, [0])
    return all(v > 0 for v in own_side), sum(own_side), max((sum(v) for v in sides.values()), default=0)


def goal_holds(goal: Goal, player: str, ending: Ending) -> bool:
    """NOTATION §6 goal expressions; ``win`` and ``draw-or-win`` compare the player's side with every other."""
    hp = ending.end_hp
    if isinstance(goal, Win):
        alive, mine, best_enemy = side_standing(player, ending)
        return alive and mine > 0 and mine > best_enemy
    if isinstance(goal, DrawOrWin):
        _, mine, best_enemy = side_standing(player, ending)
        return mine >= best_enemy
    if isinstance(goal, Survive):
        return hp.get(player, 0) > 0
    if isinstance(goal, Destroy):
        return hp.get(goal.army, 0) == 0
    if isinstance(goal, HpCompare):
        value = ending.start_hp.get(goal.army, 0) - hp.get(goal.army, 0) if goal.damage else hp.get(goal.army, 0)
        return _COMPARE[goal.op](value, goal.value)
    if isinstance(goal, Alive):
        where = ending.watched.get(goal.hex)
        standing = where is not None and ending.position.unit_at(where) is not None
        return standing if goal.alive else not standing
    if isinstance(goal, Not):
        return not goal_holds(goal.goal, player, ending)
    if isinstance(goal, And):
        return all(goal_holds(g, player, ending) for g in goal.goals)
    if isinstance(goal, Or):
        return any(goal_holds(g, player, ending) for g in goal.goals)
    raise TypeError(f"unknown goal {goal!r}")  # pragma: no cover


def margin(player: str, end_hp: dict[str, int]) -> int:
    """How far ahead the player's HQ ends: the score that ranks failing plays (tries)."""
    mine = end_hp.get(player, 0)
    return mine - max((v for a, v in end_hp.items() if a != player), default=0)


# --- playing out what follows the turn -----------------------------------------------------------------------------


@dataclass(frozen=True)
class Verdict:
    """The value of one end-of-turn position: does the goal hold with best play, and by what margin."""

    wins: bool
    margin: int
    line: tuple[str, ...]  # the battle choices of the principal variation
    hp: tuple[tuple[str, int], ...] = ()  # HQ health at its end
    battles: int = 0  # battles fought in it (a destroyed HQ ends the game before a second one)


def battle_value(node: battle.Node, player: str, judge: Callable[[battle.Outcome], Verdict]) -> Verdict:
    """Minimax over a battle's choice tree: the player maximises, every other army minimises."""
    if isinstance(node, battle.Leaf):
        return judge(node.outcome)
    values = [battle_value(branch, player, judge) for _, branch in node.branches]
    key = (lambda v: (v.wins, v.margin))
    return max(values, key=key) if teams.plays_for(node.army, player) else min(values, key=key)


@dataclass(frozen=True)
class Card:
    """What the search needs of a puzzle card, picklable for worker processes."""

    player: str
    goal: Goal
    then: str
    start_hp: tuple[tuple[str, int], ...]


def goal_hexes(goal: Goal) -> Iterable[Hex]:
    if isinstance(goal, Alive):
        yield goal.hex
    elif isinstance(goal, Not):
        yield from goal_hexes(goal.goal)
    elif isinstance(goal, (And, Or)):
        for g in goal.goals:
            yield from goal_hexes(g)


def evaluate(card: Card, end: Position, watched: dict[Hex, Hex | None], battles: int) -> Verdict:
    """Play out ``battles`` battles (0, 1 or 2) after the turn and judge the goal with best play."""
    return _judge_at(card, dict(card.start_hp), watched, end, battles)


def _judge_at(card: Card, start_hp: dict[str, int], watched: dict[Hex, Hex | None], position: Position,
              remaining: int) -> Verdict:
    """:func:`evaluate` from ``position`` with ``remaining`` battles to fight. A function of the module, not a
    closure of :func:`evaluate`: a closure that calls itself is a reference cycle, one per position played out."""

    def judge(outcome: battle.Outcome) -> Verdict:
        if remaining > 1 and all(v > 0 for v in outcome.hq.values()):
            deeper = _judge_at(card, start_hp, watched, outcome.position, remaining - 1)
            return replace(deeper, line=outcome.choices + deeper.line, battles=deeper.battles + 1)
        verdict = _verdict_of(card, start_hp, watched, {a: outcome.hq.get(a, 0) for a in start_hp},
                              outcome.position, outcome.choices)
        return replace(verdict, battles=1)

    if remaining == 0:
        hp = {u.army: u.health for u in position.units if u.is_hq}
        return _verdict_of(card, start_hp, watched, {a: hp.get(a, 0) for a in start_hp}, position, ())
    # Most battles ask nobody anything: played straight through, not step by step as a tree of choices.
    single = battle.straight(position)
    if single is not None:
        return judge(single)
    return battle_value(battle.battle_tree(position), card.player, judge)


def _verdict_of(card: Card, start_hp: dict[str, int], watched: dict[Hex, Hex | None], hp: dict[str, int],
                end: Position, line: tuple[str, ...]) -> Verdict:
    ending = Ending(start_hp, hp, end, watched)
    return Verdict(goal_holds(card.goal, card.player, ending), margin(card.player, hp), line,
                   tuple(sorted(hp.items())))


def _evaluate_chunk(args: tuple[Card, list[tuple[Position, tuple, int]]]) -> list[Verdict]:
    card, items = args
    return [evaluate(card, position, dict(watched), battles) for position, watched, battles in items]


def battles_after(puzzle: Puzzle, state: State) -> int:
    """How many battles follow a state of the turn: those the play caused by filling the board, then what the
    card's `then` says (a Battle tile that ends the turn is the battle `then battle` asks for)."""
    after = {"final-battle": 1, "battle": 1, "nothing": 0}[puzzle.then]
    if state.battles_done and puzzle.then == "battle" and state.over:
        after = 0
    return state.battles_done + after


def card_of(puzzle: Puzzle) -> Card:
    """What the evaluation needs of a puzzle card (picklable for worker processes)."""
    start_hp = {u.army: u.health for u in puzzle.position.units if u.is_hq}
    return Card(puzzle.player, puzzle.goal, puzzle.then, tuple(sorted(start_hp.items())))


class Evaluation:
    """Plays out the ends of the turn as the enumeration lists them: in this process, or, once there are enough to
    be worth it, in ``jobs`` worker processes fed while the listing goes on. Until ``deadline``: what was not
    played out by then is left out (:meth:`finish` says so)."""

    #: Ends played out here before a pool is started: fewer are not worth the workers' start.
    POOL_AFTER = 400
    CHUNK = 100

    def __init__(self, card: Card, jobs: int, max_time: float | None, started: float,
                 progress: Callable[[str, int, int | None], None] | None,
                 reserve: Callable[[], float] = lambda: 0.0) -> None:
        self.card = card
        self.max_time = max_time
        self.deadline = None if max_time is None else started + max_time
        self.jobs = jobs
        self.progress = progress
        self.items: list[tuple[Position, tuple, int]] = []
        self.verdicts: list[Verdict] = []
        self.pool: Any = None
        self.sent = 0  # items handed to the pool, in chunks
        self.pending: list[Any] = []  # the pool's results, in order
        self.stopped: str | None = None
        self.reserve = reserve  # seconds kept before the deadline for the decision that follows

    def _late(self) -> bool:
        return self.deadline is not None and time.perf_counter() > self.deadline - self.reserve()

    def add(self, position: Position, watched: tuple, battles: int) -> int:
        """Queue an end; its index among the verdicts that :meth:`finish` returns."""
        self.items.append((position, watched, battles))
        if self.jobs > 1:
            if self.pool is None and len(self.items) >= self.POOL_AFTER:
                from .dispatch import mp_context

                self.pool = mp_context().Pool(self.jobs, initializer=evaluation_worker)
            if self.pool is not None and len(self.items) - self.sent >= self.CHUNK:
                self._send()
        elif self.stopped is None:
            self._play_here()
        return len(self.items) - 1

    def _send(self) -> None:
        """What is queued and not yet sent, to the workers in chunks of at most :data:`CHUNK` (the backlog of the
        pool's start too, so that both workers share it)."""
        while self.sent < len(self.items):
            chunk = self.items[self.sent:self.sent + self.CHUNK]
            self.sent += len(chunk)
            self.pending.append(self.pool.apply_async(_evaluate_chunk, ((self.card, chunk),)))

    def _play_here(self) -> None:
        """Everything queued and not yet played out, one position at a time, so that the limit is kept closely."""
        while len(self.verdicts) < len(self.items):
            if self._late():
                self.stopped = f"--max-time {self.max_time:g} s reached"
                return
            self.verdicts += _evaluate_chunk((self.card, [self.items[len(self.verdicts)]]))
            done = len(self.verdicts)
            if self.progress and done % 64 == 0:
                self.progress("evaluate", done, None)

    def abandon(self) -> None:
        """Stop the workers, if any, without waiting for what they play out."""
        if self.pool is not None:
            self.pool.terminate()
            self.pool.join()
            self.pool = None

    def finish(self) -> tuple[list[Verdict], str | None]:
        """Every verdict played out, in the order the ends were added, and why it stopped short if it did."""
        total = len(self.items)
        if self.pool is None:
            self._play_here()
            if self.progress:
                self.progress("evaluate", len(self.verdicts), total)
            return self.verdicts, self.stopped
        if self.sent < total:
            self._send()
        for pending in self.pending:
            try:  # wait for the next chunk no longer than the time left
                wait = None if self.deadline is None else max(0.0, self.deadline - self.reserve()
                                                              - time.perf_counter())
                self.verdicts += pending.get(wait)
            except multiprocessing.TimeoutError:
                self.stopped = f"--max-time {self.max_time:g} s reached"
                break
            if self.progress:
                self.progress("evaluate", len(self.verdicts), total)
        if self.stopped:
            self.abandon()  # what the workers still play out is not waited for
        else:
            self.pool.close()
            self.pool.join()
            self.pool = None
        return self.verdicts, self.stopped


def evaluation_worker() -> None:
    """A worker of :class:`_Evaluation`: Ctrl-C is its parent's, and the cycle collector, paused in the parent
    while it lists plays (and so in the forked child), runs again: a worker is an ordinary process. (Battles make
    no reference cycles: the parent plays them out with the collector paused, tests/test_search_speed.py.)"""
    from .dispatch import ignore_interrupts

    ignore_interrupts()
    gc.enable()
