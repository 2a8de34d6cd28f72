"""Puzzle solving: every winning play of a card, proven over the whole play space, with its reasons.

How a card is solved (NOTATION §6), each part in its own module:

1. **Enumerate** (:mod:`solver.search.enumeration`) the states of the turn as a graph: a state is the position
   (facings normalised) plus what is left to do, so every state is expanded once however many orders lead to it.
2. **Bound** (:mod:`solver.search.bound`): a state from which no completion of the turn can reach the goal, by an
   admissible bound on what the player can still do to it, is neither expanded nor played out.
3. **Evaluate** (:mod:`solver.search.evaluation`) every distinct position the player can stop in: what ``then``
   says follows, with best play on both sides inside a battle.
4. **Decide** (:mod:`solver.search.decision`) with an AND-OR search which plays win whatever the opponent chooses
   during the turn; plays reaching the same set of ends are duals, not cooks.

Verdicts: ``sound`` (exactly one winning play), ``cooked`` (several), ``none`` — always with the number of
plays and positions the proof covered. ``--naive`` turns off every shortcut (no normal facings, no transpositions,
no bounds): the test comparing the two searches holds the shortcuts to it.
"""

from __future__ import annotations

import os
import time
from dataclasses import replace
from typing import Any, Callable, Iterable

from ..errors import IllegalAction
from ..notation.cards import Puzzle
from ..position import Position
from .decision import (_DUALS_KEPT, Report, Solution, Try, count_paths, every_order, find_tries, least_lines,
                       post_order, winning_plays)
from .enumeration import (Enumerator, Graph, Identity, State, _OutOfTime, _without_cyclic_gc, effective_key,
                          normalised, play_identity, remembered_play_identity, evaluation_key, evaluation_key_of)
from .evaluation import (Card, Ending, Evaluation, Verdict, battles_after, card_of, evaluate, goal_holds)

#: The most winning plays a report lists without --max-solutions: where the opponent answers during the turn, a
#: play is a choice of play on each branch, and their number multiplies past any use (bench/scale-play3).
_MOST_PLAYS = 10_000

#: A margin floor no margin reaches: the search prunes nothing (see :meth:`Solver.solve`).
_NO_PRUNING = -(10 ** 9)

#: The names the rest of nhex reads here (the search's public face; the generator reads the parts through it).
__all__ = ["Card", "Ending", "Enumerator", "Graph", "Identity", "Report", "Solution", "Solver", "State", "Try",
           "Verdict", "battles_after", "card_of", "effective_key", "evaluate", "evaluation_key", "evaluation_key_of",
           "goal_holds", "normalised", "play_identity", "post_order", "remembered_play_identity", "solve",
           "winning_plays"]

def _may_outrank(enumerator: Enumerator, weakest: Try) -> bool:
    """Whether a play the bound cut might rank among the tries above ``weakest`` (ranked by margin, then by fewer
    action lines, then by their text: :func:`decision.find_tries`): a play through a state cut with a margin bound
    above the weakest try's margin, or equal to it where the fewest lines reaching that state are not more than
    the weakest try's (every line of a play through a state is at least the lines that reach it). A placement run
    cut before its state was made counts from the state it starts from, with its tiles' lines added."""
    margin, length = weakest.verdict.margin, len(weakest.actions)
    # (state, margin bound, lines beyond those reaching the state)
    cut = [(state, bound, 0) for state, bound in [*enumerator.pruned.items(), *enumerator.ends_cut_at.items()]]
    cut += [(state, bound, tiles) for state, table in enumerator.steps_cut_at.items() for bound, tiles in table.items()]
    if all(bound < margin for _, bound, _ in cut):
        return False
    if any(bound > margin for _, bound, _ in cut):
        return True
    assert enumerator.graph is not None
    fewest = least_lines(enumerator.graph)
    return any(bound == margin and fewest.get(state, 0) + lines <= length for state, bound, lines in cut)


class Solver:
    def __init__(self, puzzle: Puzzle, *, jobs: int | None = None, naive: bool = False,
                 max_time: float | None = None, max_solutions: int | None = None, tries: int = 0,
                 progress: Callable[[str, int, int | None], None] | None = None) -> None:
        self.puzzle = puzzle
        self.jobs = jobs or os.cpu_count() or 1
        self.naive = naive
        self.max_time = max_time
        self.max_solutions = max_solutions
        self.tries = tries
        self.progress = progress
        self._graph_kept: Enumerator | None = None  # see solve()
        self._tables_kept: tuple | None = None
        self.card = card_of(puzzle)
        self._identities: dict[Position, Identity] = {}
        #: Each evaluation key played out by an earlier search of this card, with its verdict: a later search (the
        #: tries') plays out only what the earlier did not.
        self._played: dict[tuple, Verdict] = {}
        self.identity = remembered_play_identity(self._identities)  # one table for the evaluation and the decision

    def final_battles(self, state: State) -> int:
        return battles_after(self.puzzle, state)

    def solve(self) -> Report:
        started = time.perf_counter()
        # With tries asked for, the bound cuts nothing before a tile is played at first: the shortest failing plays,
        # which rank first among equals, are then played out.
        report, enumerator = self._search(started, (None, 0) if self.tries else None)
        lines = 0
        while self.tries and (enumerator.pruned or enumerator.ends_cut or enumerator.steps_cut_at) \
                and report.stopped is None:
            # The tries rank failing plays by margin, then by fewer action lines, and the bound cut plays whose
            # margin is not known, only bounded: while one of them might rank among the tries found, search again
            # cutting less (_may_outrank), so that the tries are exactly those of the whole search (the generator's
            # "best try too close" reads them). Each search cuts only plays with a margin bound below the weakest
            # try's (the tries of a search that cuts less can only rank higher), or equal to it and more tiles
            # played than a few lines, one more each time up to the weakest try's own (which is then exact).
            weakest = report.tries[-1] if len(report.tries) >= self.tries else None
            if weakest is not None and not _may_outrank(enumerator, weakest):
                break
            if weakest is None:  # fewer failing plays found than asked for: any play cut may be one
                lines += 1
                floor: tuple[int | None, int] | int = (None, lines) if lines <= self.puzzle.tiles_to_play \
                    else _NO_PRUNING
            else:
                lines = min(lines + 1, len(weakest.actions))
                floor = (weakest.verdict.margin, lines)
            again, enumerator = self._search(started, floor)
            # Stopped by --max-time, a later search proves less than the first, whose verdict stands (its tries
            # then rank the plays it played out).
            if again.stopped is not None:
                break
            report = again
        return report

    def _search(self, started: float, floor: tuple[int | None, int] | int | None) -> tuple[Report, Enumerator]:
        """One search: the graph listed, its ends played out, the decision. The bound cuts what ``floor`` lets it:
        None, every hopeless state and end; ``(margin, lines)``, only those whose margin bound is below ``margin``,
        or equal to it (any, if ``margin`` is None) with more tiles played than ``lines`` (every tile played is an
        action line: :meth:`solve`); :data:`_NO_PRUNING`, nothing."""
        enumerator = Enumerator(self.puzzle, naive=self.naive, bound=floor != _NO_PRUNING, free_facings=True)
        if self._graph_kept is not None:  # an earlier search of this card: what it listed is listed again at once
            enumerator.share_listing(self._graph_kept)
        if isinstance(floor, tuple):
            least, most_lines = floor

            def may_cut(played: int, ahead: int) -> bool:
                if least is not None and ahead < least:
                    return True
                return (least is None or ahead == least) and played > most_lines
            enumerator.may_cut = may_cut
        if not self.naive:
            enumerator.identities = self._identities
        deadline = None if self.max_time is None else started + self.max_time
        enumerator.deadline, enumerator.started = deadline, started

        def on_state(count: int) -> None:
            if self.progress and count % 64 == 0:
                self.progress("enumerate", count, None)

        # Each end is played out once per play identity (its effective key): ends that differ only in facings
        # that turn icons towards nothing fight the same battles (effective_edges), so one stands for all.
        same = (lambda position: position) if self.naive else self.identity
        # Each state's ends (one, or one per effective class of its deferred facings: Enumerator.completions), each
        # with its evaluation key.
        # The key, then its index among the verdicts (or its verdict, played out by an earlier search).
        keys: dict[State, list[tuple[Position, tuple, Any]]] = {}
        work: dict[tuple, Any] = {}  # evaluation key -> its place among the positions played out, or its verdict
        evaluation = Evaluation(self.card, self.jobs, self.max_time, started, self.progress, enumerator.reserve)
        # States that stop in the same ends get the same tuple of them (Enumerator.completions keeps one per what
        # it reads of a state): watched alike and followed by as many battles, they share one list of ends and
        # keys, by that tuple's identity (bench/scale-play3 has 232,024 expanded states and some 70,000 such
        # lists). Not in a naive search, whose lists are rewritten per state.
        shared: dict[tuple, list[tuple[Position, tuple, Any]]] | None = None if self.naive else {}

        def on_expanded(state: State) -> None:
            # Played out as soon as it is listed (not after the whole graph), so that a search stopped by
            # --max-time while it still lists plays has played out what it listed and can say which of those
            # plays are proven to win (issue 15: "report what it proved"); with --jobs the workers play out
            # while this process lists. --naive plays out every order afterwards instead.
            battles = self.final_battles(state)
            completions = enumerator.completions(state, bounded=True)
            alike = (id(completions), state.watched, battles)
            if shared is not None:
                listed = shared.get(alike)
                if listed is not None:
                    keys[state] = listed
                    return
            ends = keys[state] = [(end, open_, evaluation_key_of(same, end, state.watched, battles))
                                  for end, open_ in completions]
            if not self.naive:
                for end, _, key in ends:
                    if key not in work:
                        known = self._played.get(key)
                        work[key] = known if known is not None else evaluation.add(end, state.watched, battles)
                # Each end's place among the positions played out, kept instead of its key (hashing the keys of a
                # million ends again took seconds).
                keys[state] = [(end, open_, work[key]) for end, open_, key in ends]
            if shared is not None:
                shared[alike] = keys[state]

        # The turn's graph is kept by the solver until the solver itself goes: freeing millions of states takes a
        # second or more, which would come after --max-time and before the report (issue 15: "within a second").
        self._graph_kept = enumerator
        listing_stopped = None
        try:
            try:
                graph = enumerator.build(on_state, on_expanded)
            except _OutOfTime:
                graph = enumerator.graph if enumerator.graph is not None else Graph(enumerator.start())
                listing_stopped = (f"--max-time {self.max_time:g} s reached while enumerating plays "
                                   f"({len(graph.steps)} states of the turn expanded, {enumerator.listed} actions "
                                   f"listed)")
            if self.naive and listing_stopped is None:
                for state in self.every_order(graph):  # every order played out, as a search without transpositions
                    for end, _, key in keys[state]:
                        work.setdefault(key, evaluation.add(end, state.watched, key[3]))
            if self.naive:  # (stopped while listing: nothing played out, every index past the verdicts)
                for state, ends in keys.items():
                    keys[state] = [(end, open_, work.get(key, len(work))) for end, open_, key in ends]
            verdicts, stopped = evaluation.finish()
        except BaseException:
            evaluation.abandon()  # Ctrl-C or an error: the workers stop now, not when the process ends
            raise
        if listing_stopped is not None:
            stopped = (f"{listing_stopped}; {len(verdicts)} positions played out: the winning plays found are "
                       f"proven, the other plays are not")
            if self.naive or not verdicts:
                stopped = f"{listing_stopped}; nothing was played out"
        # Only what was played out counts: the decision on a graph cut short finds only plays whose every end
        # was listed and played out (an end not listed has no value and wins nothing). The collector is paused
        # here too: the table of a million ends set off full passes over the graph, seconds past --max-time.
        with _without_cyclic_gc():
            value: dict[State, list[tuple[Position, tuple, Verdict]]] = {}
            # One list of verdicts per list of keys, as states share those (kept in ``keys``: their ids stand).
            valued: dict[int, list[tuple[Position, tuple, Verdict]] | None] = {}
            for state in graph.steps:
                listed = keys[state]
                if id(listed) not in valued:
                    ends = []
                    for end, open_, found in listed:
                        if isinstance(found, Verdict):
                            ends.append((end, open_, found))
                        elif found < len(verdicts):
                            ends.append((end, open_, verdicts[found]))
                    # A state counts once all its ends are played out.
                    valued[id(listed)] = ends if len(ends) == len(listed) else None
                ends_valued = valued[id(listed)]
                if ends_valued is not None:
                    value[state] = ends_valued
            positions = len(verdicts)
            if not self.naive:
                for key, found in work.items():
                    if isinstance(found, Verdict):
                        positions += 1
                    elif found < len(verdicts) and self.tries:  # (only the tries' searches come later)
                        self._played[key] = verdicts[found]
            if not self.tries:  # no later search takes the listing up: its tables go before the decision's are made
                enumerator.forget_listing()
            report = self.decide(graph, value, positions, started, stopped, len(enumerator.pruned),
                                 enumerator.ends_cut, (enumerator.runs_cut, enumerator.uses_cut))
        self._tables_kept = (keys, value)  # freed with the solver, not before the report (as the graph)
        return report, enumerator

    # --- AND-OR: which states win, and the distinct winning plays -----------------------------------------------
    def decide(self, graph: Graph, value: dict[State, list[tuple[Position, tuple, Verdict]]], positions: int,
               started: float, stopped: str | None, pruned: int = 0, ends_cut: int = 0,
               steps_cut: tuple[int, int] = (0, 0)) -> Report:
        """``value``: each state's ends played out, with the facings open to its deferred units and their verdicts."""
        effective = self.identity

        def endings(state: State) -> list[tuple[Position, tuple]]:
            return [(end, open_) for end, open_, verdict in value.get(state, ()) if verdict.wins]

        # Each state keeps at most N + 1 plays (--max-solutions N, or _MOST_PLAYS): the root then still has more than
        # N if the whole search has (each play of a step's state is a play of the state above), and the AND-OR
        # stays linear where the opponent's answers multiply the plays (a play per choice of a play on each branch:
        # bench/scale-play3 has some 10^12 lines to winning ends).
        most = _MOST_PLAYS if self.max_solutions is None else self.max_solutions
        deadline = None if self.max_time is None else started + self.max_time
        winning = winning_plays(graph, lambda state: False, effective, _DUALS_KEPT, cap=most + 1, endings=endings,
                                deadline=deadline)
        if winning.late:
            stopped = stopped or (f"--max-time {self.max_time:g} s reached while listing the winning plays: the "
                                  f"{min(len(winning), most)} listed are proven, not every winning play is listed")
        solutions = []
        by_key: dict[Identity, list[Verdict]] = {}
        positions_of: dict[Identity, set[Position]] = {}
        wanted: set = set().union(*winning)  # the ends of the winning plays: the only ones a solution reads
        for state_ends in value.values():
            for end, _, verdict in state_ends:
                key = effective(end)
                if key in wanted:
                    by_key.setdefault(key, []).append(verdict)
                    positions_of.setdefault(key, set()).add(end)
        for ends, lines in sorted(winning.items(), key=lambda item: (len(item[1][0]), item[1][0])):
            verdicts = [v for end in ends for v in by_key.get(end, ())]
            worst = min(verdicts, key=lambda v: (v.wins, v.margin))
            end_positions = frozenset(p for end in ends for p in positions_of.get(end, ()))
            solutions.append(Solution(lines[0], tuple(lines[1:]), end_positions, dict(worst.hp), worst))
        if len(solutions) > most:
            solutions = solutions[:most]
            stopped = stopped or (f"--max-solutions {most} reached" if self.max_solutions is not None else
                                  f"more than {most:,} winning plays: {most:,} of them listed (--max-solutions N "
                                  f"lists N)")
        verdict_name = "none" if not solutions else ("sound" if len(solutions) == 1 else "cooked")
        tries = self.find_tries(graph, value, winning) if self.tries else []
        # The plays the proof covers: the states expanded and those the bound proved hopeless.
        report = Report(verdict_name, solutions, tries, len(graph.steps) + pruned, self.count_paths(graph), positions,
                        time.perf_counter() - started, stopped, pruned=pruned, ends_cut=ends_cut,
                        runs_cut=steps_cut[0], uses_cut=steps_cut[1])
        if self.puzzle.solution is not None:
            report.contains_intended = self.finds_intended(solutions, effective)
        return report

    def finds_intended(self, solutions: list[Solution], effective: Callable[[Position], Identity]) -> bool:
        """Whether the card's own solution is among the winning plays: it is played out on the card's position
        and its end compared with theirs, so that an equivalent facing or another order still counts."""
        from ..turns import actions

        position = self.puzzle.position
        used = actions.NOTHING_USED
        hand = ((self.puzzle.player, self.puzzle.offer),)
        position = position.replaced(hands=hand, to_move=self.puzzle.player)
        try:
            for action in self.puzzle.solution or ():
                after = actions.apply(position, action, self.puzzle.player, used)
                used = actions.spend(position, action, self.puzzle.player, used)
                position = after
        except (IllegalAction, actions.ChoiceRequired):
            return False
        end = effective(replace(normalised(position), hands=(), to_move=self.puzzle.position.to_move))
        return any(end in {effective(p) for p in solution.ends} for solution in solutions)

    def every_order(self, graph: Graph) -> Iterable[State]:
        """:func:`decision.every_order`: what a search without a transposition table plays out (``--naive``)."""
        return every_order(graph)

    def count_paths(self, graph: Graph) -> int:
        """:func:`decision.count_paths`: every order of actions, counted."""
        return count_paths(graph)

    def find_tries(self, graph: Graph, value: dict[State, list[tuple[Position, tuple, Verdict]]],
                   winning: dict[frozenset, list[tuple[str, ...]]]) -> list[Try]:
        """:func:`decision.find_tries`: the strongest failing plays, as many as ``--tries`` asks."""
        return find_tries(graph, lambda state: value.get(state, []), self.tries)


def solve(puzzle: Puzzle, **options: Any) -> Report:
    return Solver(puzzle, **options).solve()
