"""The decision on a turn's graph: which plays win whatever the opponent does, the tries, the counts (NOTATION §6).

Where the opponent chooses during the turn (where a pushed unit goes, which Medic takes a Sniper's wound) a play
must win on every branch, and the player may adapt after seeing the choice (an AND-OR search). A *play* is then
identified by the set of end positions it can lead to: plays that differ only in the order of independent actions,
or in facings that give a tile the same effective edges, reach the same set and are *duals* of one another, not
cooks (STYLE: Popeye).
"""

from __future__ import annotations

import itertools
from dataclasses import dataclass, replace
from typing import Callable, Iterable

from ..position import Position
from .enumeration import Graph, State
from .evaluation import Verdict

#: How many lines to one winning end the report keeps: the key line and its first duals.
_DUALS_KEPT = 8

# --- solving ------------------------------------------------------------------------------------------------------


@dataclass(frozen=True)
class Solution:
    """One winning play: its key line, the duals that reach the same end positions, and its worst case."""

    actions: tuple[str, ...]
    duals: tuple[tuple[str, ...], ...]
    ends: frozenset[Position]
    hq: dict[str, int]
    verdict: Verdict


@dataclass(frozen=True)
class Try:
    """A failing play and what refutes it."""

    actions: tuple[str, ...]
    verdict: Verdict
    hq: dict[str, int]
    end: Position


@dataclass
class Report:
    verdict: str  # sound, cooked, none
    solutions: list[Solution]
    tries: list[Try]
    plays: int  # distinct plays examined (end states of the turn)
    paths: int  # action orders that lead to them
    positions: int  # distinct positions played out
    seconds: float
    stopped: str | None = None  # why the search stopped early, if it did
    contains_intended: bool | None = None
    pruned: int = 0  # states reached that the bound proved hopeless: neither expanded nor played out (among plays)


def winning_plays(graph: Graph, wins: Callable[[State], bool], identity: Callable[[Position], object],
                  lines_kept: int = 1, cap: int | None = None) -> dict[frozenset, list[tuple[str, ...]]]:
    """The plays that win whatever the opponent chooses (an AND-OR search over the turn's graph).

    The player picks a step; every answer of the opponent to it must still win, and the player may adapt
    afterwards. A play is the set of end positions it can lead to, compared by ``identity``: plays with the same
    set are one play, and the shortest ``lines_kept`` action lines reaching it are kept (the first is the key,
    the others its duals). ``cap`` bounds the plays kept per state: counting then says "at least ``cap``".
    """
    return _AndOr(graph, wins, identity, lines_kept, cap).plays(graph.root)


class _AndOr:
    """:func:`winning_plays`' search and its memo. A class, not a recursive closure: such a closure refers to itself
    through its cell, a reference cycle that kept the memo and the whole graph alive until the collector's next
    full pass (at exit: a second or more after a big card's report)."""

    def __init__(self, graph: Graph, wins: Callable[[State], bool], identity: Callable[[Position], object],
                 lines_kept: int, cap: int | None) -> None:
        self.graph = graph
        self.wins = wins
        self.identity = identity
        self.lines_kept = lines_kept
        self.cap = cap
        # Keyed by the states' identities: the graph holds one object per distinct state (Enumerator.core_steps),
        # and a state's own hash is a Python call, which the decision of a big graph made a million times.
        self.memo: dict[int, dict[frozenset, list[tuple[str, ...]]]] = {}
        self.steps_of = {id(state): steps for state, steps in graph.steps.items()}

    def add(self, found: dict[frozenset, list[tuple[str, ...]]], ends: frozenset, line: tuple[str, ...]) -> None:
        lines = found.get(ends)
        if lines is None:
            if self.cap is None or len(found) < self.cap:
                found[ends] = [line]
            return
        if line not in lines:
            lines.append(line)
            lines.sort(key=lambda item: (len(item), item))
            del lines[self.lines_kept:]

    def plays(self, state: State) -> dict[frozenset, list[tuple[str, ...]]]:
        memo, add = self.memo, self.add
        known = memo.get(id(state))
        if known is not None:
            return known
        memo[id(state)] = {}
        found: dict[frozenset, list[tuple[str, ...]]] = {}
        if self.wins(state):
            add(found, frozenset([self.identity(state.position)]), ())
        steps = self.steps_of.get(id(state))
        if steps is None:  # not expanded (a graph cut short by --max-time), or an equal copy of a state
            steps = self.graph.steps.get(state, [])
        for step in steps:
            branch_plays = [self.plays(nxt) for _, nxt in step.branches]
            if not all(branch_plays):
                continue
            if len(branch_plays) == 1:
                for ends, lines in branch_plays[0].items():
                    for line in lines:
                        add(found, ends, step.action + line)
                continue
            for combo in itertools.product(*(list(b.items()) for b in branch_plays)):
                ends = frozenset().union(*(e for e, _ in combo))
                line = step.action
                for (label, _), (_, sub) in zip(step.branches, combo):
                    if sub[0]:
                        line += (f"# if {label}: " + "; ".join(sub[0]),)
                add(found, ends, line)
        memo[id(state)] = found
        return found


def every_order(graph: Graph) -> Iterable[State]:
    """The end of every sequence of actions, repeated as often as orders reach it: what a search without a
    transposition table plays out (``--naive``, for the benchmark's ratio)."""
    stack = [graph.root]
    while stack:
        state = stack.pop()
        yield state
        for step in graph.steps.get(state, ()):
            stack.extend(nxt for _, nxt in step.branches)

def count_paths(graph: Graph) -> int:
    """Every order of actions, counted: what a search without transpositions would examine.

    Walked with a stack of its own (post-order), not a recursive closure: see :class:`_AndOr`."""
    memo: dict[int, int] = {}  # by identity, as in winning_plays
    steps_of = {id(state): steps for state, steps in graph.steps.items()}

    def successors(state: State) -> list[State]:
        steps = steps_of.get(id(state))
        if steps is None:
            steps = graph.steps.get(state, [])
        return [nxt for step in steps for _, nxt in step.branches]

    stack: list[tuple[State, bool]] = [(graph.root, False)]
    while stack:
        state, children_done = stack.pop()
        if children_done:
            memo[id(state)] = 1 + sum(memo[id(nxt)] for nxt in successors(state))
            continue
        if id(state) in memo:
            continue
        memo[id(state)] = 1  # a state on the way counts once, as a cycle's edge back to it would (never here)
        stack.append((state, True))
        stack.extend((nxt, False) for nxt in successors(state) if id(nxt) not in memo)
    return memo[id(graph.root)]

def find_tries(graph: Graph, value: dict[State, Verdict], tries: int) -> list[Try]:
    """The strongest failing plays: the lines whose worst case comes closest (by HQ margin), each with what
    refutes it (the opponent's choice during the turn, then the battle choices)."""
    seen: dict[frozenset, Try] = {}

    def record(line: tuple[str, ...], ends: list[tuple[str, State]]) -> None:
        key = frozenset(state.position for _, state in ends)
        known = seen.get(key)
        if known is not None and (len(known.actions), known.actions) <= (len(line), line):
            return  # keep the shortest line to each end, whatever order the graph was walked in
        verdicts: list[tuple[str, Verdict]] = []
        for label, state in ends:
            verdict = value.get(state)
            if verdict is None:  # not played out (the search stopped first): no try here
                return
            verdicts.append((label, verdict))
        label, worst = min(verdicts, key=lambda item: (item[1].wins, item[1].margin))
        if worst.wins:
            return
        refutation = ((label,) if label else ()) + worst.line
        seen[key] = Try(line, replace(worst, line=refutation), dict(worst.hp),
                        next(state.position for lab, state in ends if lab == label))

    # Every line of up to 7 steps is a try (a line of 7 steps ends where its last step leads; a step with the
    # opponent's answers is judged on all of them), and each end keeps its least line by (length, text). The
    # lines are walked a step at a time, keeping for each state only its least line of that many steps: what a
    # longer line adds to it is the same whatever came before, so no least line is lost, and the graph of a
    # big card (hundreds of thousands of orders) is walked once per step count instead of once per order.
    layer: dict[int, tuple[State, tuple[str, ...]]] = {id(graph.root): (graph.root, ())}
    for depth in range(8):
        following: dict[int, tuple[State, tuple[str, ...]]] = {}
        for state, line in layer.values():
            record(line, [("", state)])
            if depth > 6:
                continue
            for step in graph.steps.get(state, ()):
                if len(step.branches) > 1:
                    record(line + step.action, list(step.branches))
                    continue
                nxt = step.branches[0][1]
                longer = line + step.action
                kept = following.get(id(nxt))
                if kept is None or (len(longer), longer) < (len(kept[1]), kept[1]):
                    following[id(nxt)] = (nxt, longer)
        layer = following
    ranked = sorted(seen.values(), key=lambda t: (-t.verdict.margin, len(t.actions), t.actions))
    return ranked[:tries]
