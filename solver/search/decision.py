"""The decision on a turn's graph: which plays win whatever the opponent does, the tries, the counts (NOTATION §6).

Where the opponent chooses during the turn (where a pushed unit goes, which Medic takes a Sniper's wound) a play
must win on every branch, and the player may adapt after seeing the choice (an AND-OR search). A *play* is then
identified by the set of end positions it can lead to: plays that differ only in the order of independent actions,
or in facings that give a tile the same effective edges, reach the same set and are *duals* of one another, not
cooks (STYLE: Popeye).
"""

from __future__ import annotations

import bisect
import itertools
import time
from dataclasses import dataclass, replace
from typing import Callable, Iterable

from ..hexes import Direction, Hex
from ..position import Position
from .enumeration import ANY_FACING, Graph, State, Step, least_facing, resolve, with_facing
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
    ends_cut: int = 0  # ends of expanded states that the bound proved hopeless to stop in: not played out
    runs_cut: int = 0  # placement runs the bound proved hopeless before their states were made (not among plays)
    uses_cut: int = 0  # uses of instant tiles, the turn's last tile, that it proved hopeless so (the same)


#: The facings still open to each deferred unit of a state for a line's ends (:func:`enumeration.resolve`).
Open = tuple[tuple[Hex, frozenset[Direction]], ...]
#: The ends of a state that win, each with the facings open to the state's deferred units (none: ``()``).
Endings = Callable[[State], Iterable[tuple[Position, Open]]]


def winning_plays(graph: Graph, wins: Callable[[State], bool], identity: Callable[[Position], object],
                  lines_kept: int = 1, cap: int | None = None, endings: Endings | None = None,
                  deadline: float | None = None) -> _Plays:
    """The plays that win whatever the opponent chooses (an AND-OR search over the turn's graph).

    The player picks a step; every answer of the opponent to it must still win, and the player may adapt
    afterwards. A play is the set of end positions it can lead to, compared by ``identity``: plays with the same
    set are one play, and the shortest ``lines_kept`` action lines reaching it are kept (the first is the key,
    the others its duals). ``cap`` bounds the plays kept per state: counting then says "at least ``cap``"; a state
    with ``cap`` plays reads no further step, so the lines of a capped state's plays are the least of the steps it
    read (the plays themselves are those of the full walk: a later step would add no new one).
    ``endings``: where the graph defers facings, the winning ends of a state (else a state wins or not, by ``wins``).
    ``deadline`` (``time.perf_counter``): past it no more plays are added anywhere, the plays found stand (each is a
    winning play; not every one is listed), and the result's ``late`` attribute says so.
    """
    if endings is None:
        endings = lambda state: ((state.position, ()),) if wins(state) else ()  # noqa: E731
    search = _AndOr(graph, endings, identity, lines_kept, cap, deadline)
    found = search.plays(graph.root)
    result = _Plays({ends: [line for line, _ in lines] for ends, lines in found.items()})
    result.late = search.late
    return result


#: What the memo keeps of a state whose plays every step above has read (not read again, but for an equal copy of
#: the state, which works them out again).
_DROPPED: dict = {}


class _Plays(dict):
    """:func:`winning_plays`' result: the plays, and whether the deadline cut the listing short."""

    late = False


class _AndOr:
    """:func:`winning_plays`' search and its memo. A class, not a recursive closure: such a closure refers to itself
    through its cell, a reference cycle that kept the memo and the whole graph alive until the collector's next
    full pass (at exit: a second or more after a big card's report).

    A line is kept with the facings still open to the deferred units of its state (:func:`enumeration.resolve`
    writes them into the placements and moves above); a state without any has ``()``."""

    def __init__(self, graph: Graph, endings: Endings, identity: Callable[[Position], object],
                 lines_kept: int, cap: int | None, deadline: float | None = None) -> None:
        self.graph = graph
        self.endings = endings
        self.identity = identity
        self.lines_kept = lines_kept
        self.cap = cap
        self.deadline = deadline
        self.late = False
        self.added = 0
        # Keyed by the states' identities: the graph holds one object per distinct state (Enumerator.core_steps),
        # and a state's own hash is a Python call, which the decision of a big graph made a million times.
        self.memo: dict[int, dict[frozenset, list[tuple[tuple[str, ...], Open]]]] = {}
        self.steps_of = {id(state): steps for state, steps in graph.steps.items()}
        # What a step writes before a line, and leaves open above it, per set of facings open below it; and the
        # facings open on every branch of a step, per branch's: the same few, asked for millions of lines.
        self._resolved: dict[tuple[int, Open], tuple[tuple[str, ...], Open] | None] = {}
        self._shared: dict[tuple[int, tuple[Open, ...]], Open | None] = {}
        # How many steps above still read each state's plays: once none does, they are dropped (a big card's
        # states hold millions of lines, and only the root's are wanted).
        self.readers: dict[int, int] = {}
        for steps in self.steps_of.values():
            for step in steps:
                for _, nxt in step.branches:
                    self.readers[id(nxt)] = self.readers.get(id(nxt), 0) + 1

    def resolved(self, step: Step, state: State, nxt: State, line: tuple[str, ...],
                 open_: Open) -> tuple[tuple[str, ...], Open] | None:
        """:func:`enumeration.resolve`, the step's own lines remembered per set of open facings (a step belongs to
        the states of one core, which defer the same units). None where a unit is left open to no facing at all:
        a turn after the opponent's answer to the class the unit had already, which changes nothing."""
        if not state.free and not step.fill:
            return step.action + line, ()
        key = (id(step), open_)
        if key not in self._resolved:
            written = resolve(step, state, nxt, (), open_)
            self._resolved[key] = written if all(facings for _, facings in written[1]) else None
        found = self._resolved[key]
        return None if found is None else (found[0] + line, found[1])

    def shared(self, state: State, step: Step, opens: tuple[Open, ...]) -> Open | None:
        """:func:`_common` for a step's branches, remembered per the branches' open facings (asked only where the
        state has deferred units: elsewhere nothing is open, ``()``)."""
        key = (id(step), opens)
        if key not in self._shared:
            self._shared[key] = _common(state, [(nxt, o) for (_, nxt), o in zip(step.branches, opens)])
        return self._shared[key]

    def tick(self) -> None:
        """Counts work done; past the deadline a state keeps two plays at most, and no more lines: the walk ends
        quickly, and what it found still reaches the root (two plays prove a card cooked)."""
        self.added += 1
        if self.deadline is not None and self.added % 1024 == 0 and time.perf_counter() > self.deadline:
            self.late = True
            self.cap = 2

    def add(self, found: dict[frozenset, list[tuple[tuple[str, ...], Open]]], ends: frozenset,
            line: tuple[str, ...], open_: Open) -> bool:
        """Keep ``line`` to the play ``ends`` if it is among the play's ``lines_kept`` least; False when it is not,
        nor any line after it in the lines' order (the play's list is full and ends before it, or the play is
        new and the state keeps no more plays)."""
        self.tick()
        lines = found.get(ends)
        if lines is not None and self.late:
            return False
        if lines is None:
            if self.cap is None or len(found) < self.cap:
                found[ends] = [(line, open_)]
                return True
            return False
        if len(lines) >= self.lines_kept:
            last = lines[-1][0]
            if (len(line), line) >= (len(last), last):
                return False  # it would come after every line kept (after an equal one too): not kept
        if (line, open_) not in lines:
            bisect.insort(lines, (line, open_), key=_line_order)
            del lines[self.lines_kept:]
        return True

    def read(self, step: Step) -> None:
        """A step's states' plays read once more: dropped from the memo once every step reaching them has."""
        for _, nxt in step.branches:
            left = self.readers[id(nxt)] = self.readers[id(nxt)] - 1
            if left == 0:
                self.memo[id(nxt)] = _DROPPED

    def plays(self, state: State) -> dict[frozenset, list[tuple[tuple[str, ...], Open]]]:
        memo, add = self.memo, self.add
        known = memo.get(id(state))
        if known is not None and known is not _DROPPED:  # (a state read again after it was dropped: worked out again)
            return known
        memo[id(state)] = {}
        found: dict[frozenset, list[tuple[tuple[str, ...], Open]]] = {}
        for end, open_ in self.endings(state):
            add(found, frozenset([self.identity(end)]), (), open_)
        steps = self.steps_of.get(id(state))
        if steps is None:  # not expanded (a graph cut short by --max-time), or an equal copy of a state
            steps = self.graph.steps.get(state, [])
        for step in steps:
            if self.cap is not None and len(found) >= self.cap:
                # A full state adds no play from a later step (add refuses a new one), only lines to the plays it
                # has: its plays are those of a walk of every step, their lines the least of the steps before.
                # The steps after, and every state only they lead to, are never worked out (bench/scale-play3).
                break
            branch_plays = [self.plays(nxt) for _, nxt in step.branches]
            self.read(step)
            if not all(branch_plays):
                continue
            if len(branch_plays) == 1:
                nxt = step.branches[0][1]
                if not state.free and not step.fill:
                    # Nothing to write into the step's lines: each is the step's action before the line below, in
                    # the same order as those (a play's lines are kept least first), so once one is not kept no
                    # later one of that play is.
                    action = step.action
                    for ends, lines in branch_plays[0].items():
                        for line, _ in lines:
                            if not add(found, ends, action + line, ()):
                                break
                    continue
                # The facings written into the step's lines depend on the facings left open below, so the lines
                # keep their order only by length: once one is not kept, no longer one of that play is (one as
                # long may still be, another facing written may sort first).
                resolved = self.resolved
                for ends, lines in branch_plays[0].items():
                    refused = None
                    for line, open_ in lines:
                        if refused is not None and len(line) > refused:
                            break
                        written = resolved(step, state, nxt, line, open_)
                        if written is not None and not add(found, ends, *written) and refused is None:
                            refused = len(line)
                continue
            # Each branch's plays, each with its lines per set of open facings, written as the comment lines they
            # add below the step ("# if ...: ..."): once per branch, not once per choice of plays on the others.
            options = [[(ends, [(open_, (f"# if {label}: " + "; ".join(sub),) if sub else ())
                                for open_, sub in _by_open(lines)]) for ends, lines in b.items()]
                       for (label, _), b in zip(step.branches, branch_plays)]
            for combo in itertools.product(*options):
                self.tick()
                if self.cap is not None and len(found) >= self.cap:
                    break  # a play per choice on each branch: their number multiplies, the cap stops it
                ends = combo[0][0].union(*[e for e, _ in combo[1:]])
                # The player faces the deferred units before the opponent answers: one facing for every branch.
                for chosen in itertools.product(*[opens for _, opens in combo]):
                    shared = self.shared(state, step, tuple([o for o, _ in chosen])) if state.free else ()
                    if shared is None:
                        continue
                    line = step.action
                    for _, comment in chosen:
                        line += comment
                    add(found, ends, line, shared)
        memo[id(state)] = found
        return found


def _line_order(item: tuple[tuple[str, ...], Open]) -> tuple[int, tuple[str, ...]]:
    """The order of a play's lines: the shortest first, then by their text."""
    return len(item[0]), item[0]


def _by_open(lines: list[tuple[tuple[str, ...], Open]]) -> list[tuple[Open, tuple[str, ...]]]:
    """A branch's lines to one set of ends, the least line per distinct set of open facings."""
    first: dict[Open, tuple[str, ...]] = {}
    for line, open_ in lines:
        first.setdefault(open_, line)
    return [(open_, line) for open_, line in first.items()]


def _common(state: State, branches: list[tuple[State, Open]]) -> Open | None:
    """The facings open to ``state``'s deferred units on every branch of a step (a step with the opponent's answers
    moves no unit of the player's; a unit gone from a branch may face any way there). None: none in common."""
    if not state.free:
        return ()
    common = []
    for hex_ in sorted(state.free, key=lambda h: h.label):
        facings = ANY_FACING
        for nxt, open_ in branches:
            if hex_ in nxt.free:
                facings = facings & dict(open_).get(hex_, ANY_FACING)
        if not facings:
            return None
        common.append((hex_, facings))
    return tuple(common)


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

    Walked with a stack of its own (post-order), not a recursive closure: see :class:`_AndOr`; each state's
    successors are listed once, on the way down, and summed on the way back."""
    memo: dict[int, int] = {}  # by identity, as in winning_plays
    steps_of = {id(state): steps for state, steps in graph.steps.items()}
    stack: list[tuple[State, list[State] | None]] = [(graph.root, None)]
    while stack:
        state, successors = stack.pop()
        if successors is not None:
            memo[id(state)] = 1 + sum([memo[id(nxt)] for nxt in successors])
            continue
        if id(state) in memo:
            continue
        memo[id(state)] = 1  # a state on the way counts once, as a cycle's edge back to it would (never here)
        steps = steps_of.get(id(state))
        if steps is None:  # not expanded, or an equal copy of a state
            steps = graph.steps.get(state, [])
        successors = [nxt for step in steps for _, nxt in step.branches]
        stack.append((state, successors))
        stack.extend([(nxt, None) for nxt in successors if id(nxt) not in memo])
    return memo[id(graph.root)]

def post_order(graph: Graph) -> list[State]:
    """The states the graph's root leads to (expanded or not), each after every state its steps lead to (the graph
    is acyclic: a turn only spends). Walked with a stack of its own, not a recursive closure (see :class:`_AndOr`)."""
    order: list[State] = []
    done: set[State] = set()
    stack: list[tuple[State, bool]] = [(graph.root, False)]
    while stack:
        state, children_done = stack.pop()
        if children_done:
            order.append(state)
            continue
        if state in done:
            continue
        done.add(state)
        stack.append((state, True))
        stack.extend((nxt, False) for step in graph.steps.get(state, ()) for _, nxt in step.branches
                     if nxt not in done)
    return order


def least_lines(graph: Graph) -> dict[State, int]:
    """The fewest action lines that reach each state of the graph from its root, for the states expanded and those
    they lead to (a pruned state too): what the tries' ranking reads of a play's length (:func:`find_tries`)."""
    fewest = {graph.root: 0}
    for state in reversed(post_order(graph)):  # every way into a state is counted before it
        here = fewest[state]
        for step in graph.steps.get(state, ()):
            for _, nxt in step.branches:
                if fewest.get(nxt, here + len(step.action) + 1) > here + len(step.action):
                    fewest[nxt] = here + len(step.action)
    return fewest


def find_tries(graph: Graph, value: dict[State, Verdict] | Callable[[State], list[tuple[Position, Open, Verdict]]],
               tries: int) -> list[Try]:
    """The strongest failing plays: the lines whose worst case comes closest (by HQ margin), each with what
    refutes it (the opponent's choice during the turn, then the battle choices). ``value``: each state's verdict,
    or where the graph defers facings, each state's ends with their open facings and verdicts."""
    seen: dict[frozenset, Try] = {}
    ends_of: Callable[[State], list[tuple[Position, Open, Verdict]]]
    if isinstance(value, dict):
        table = value
        ends_of = lambda state: ([(state.position, (), table[state])] if state in table else [])  # noqa: E731
    else:
        ends_of = value

    def record(line: tuple[str, ...], ends: list[tuple[str, Position, Verdict]]) -> None:
        key = frozenset(position for _, position, _ in ends)
        known = seen.get(key)
        if known is not None and (len(known.actions), known.actions) <= (len(line), line):
            return  # keep the shortest line to each end, whatever order the graph was walked in
        label, _, worst = min(ends, key=lambda item: (item[2].wins, item[2].margin))
        if worst.wins:
            return
        refutation = ((label,) if label else ()) + worst.line
        seen[key] = Try(line, replace(worst, line=refutation), dict(worst.hp),
                        next(position for lab, position, _ in ends if lab == label))

    def written(line: tuple[str, ...], pending: tuple[tuple[int, Hex], ...], open_: Open) -> tuple[str, ...]:
        """The line with each placeholder facing written as the least facing open to its unit."""
        if not pending:
            return line
        facings = dict(open_)
        texts = list(line)
        for index, hex_ in pending:
            texts[index] = with_facing(texts[index], least_facing(facings.get(hex_, ANY_FACING)))
        return tuple(texts)

    def stop_here(state: State, line: tuple[str, ...], pending: tuple[tuple[int, Hex], ...]) -> None:
        for position, open_, verdict in ends_of(state):
            record(written(line, pending, open_), [("", position, verdict)])

    def answered(state: State, step: Step, line: tuple[str, ...], pending: tuple[tuple[int, Hex], ...]) -> None:
        """A step with the opponent's answers, judged on all of them, for each facing of the deferred units."""
        per_branch = [[(label, position, open_, verdict) for position, open_, verdict in ends_of(nxt)]
                      for label, nxt in step.branches]
        if not all(per_branch):  # a branch not played out (the search stopped first): no try here
            return
        for chosen in itertools.product(*per_branch):
            open_ = _common(state, [(nxt, o) for (_, nxt), (_, _, o, _) in zip(step.branches, chosen)])
            if open_ is not None:
                record(written(line, pending, open_) + step.action,
                       [(label, position, verdict) for label, position, _, verdict in chosen])

    # Every line of up to 7 steps is a try (a line of 7 steps ends where its last step leads; a step with the
    # opponent's answers is judged on all of them), and each end keeps its least line by (length, text). The
    # lines are walked a step at a time, keeping for each state only its least line of that many steps: what a
    # longer line adds to it is the same whatever came before, so no least line is lost, and the graph of a
    # big card (hundreds of thousands of orders) is walked once per step count instead of once per order.
    # ``pending``: where the line holds a placeholder facing, and the hex of the deferred unit it belongs to.
    layer: dict[int, tuple[State, tuple[str, ...], tuple[tuple[int, Hex], ...]]] = {
        id(graph.root): (graph.root, (), ())}
    for depth in range(8):
        following: dict[int, tuple[State, tuple[str, ...], tuple[tuple[int, Hex], ...]]] = {}
        for state, line, pending in layer.values():
            stop_here(state, line, pending)
            if depth > 6:
                continue
            for step in graph.steps.get(state, ()):
                if len(step.branches) > 1:
                    answered(state, step, line, pending)
                    continue
                nxt = step.branches[0][1]
                longer = line + step.action
                after = pending
                if pending or step.fill:
                    filled = set(step.fill)
                    moved_on = [(i, h) for i, h in pending if h not in nxt.free or h in filled]
                    longer = written(longer, tuple(moved_on), ())  # a facing nothing reads: the least of all
                    after = tuple((i, h) for i, h in pending if h in nxt.free and h not in filled) + tuple(
                        (len(line) + j, h) for j, h in enumerate(step.fill) if h is not None)
                kept = following.get(id(nxt))
                if kept is None or (len(longer), longer) < (len(kept[1]), kept[1]):
                    following[id(nxt)] = (nxt, longer, after)
        layer = following
    ranked = sorted(seen.values(), key=lambda t: (-t.verdict.margin, len(t.actions), t.actions))
    return ranked[:tries]
