"""Solver scale: cards with many plays (issue 15: 'Scale of cards'). Run by hand:

    python bench/bench_scale.py [--jobs J] [--max-time S] [--naive] [CARD ...]

The cards (bench/scale-*.nhex) are benchmark positions, not puzzles: a crowded board with Move, Push Back and a
Mobility unit (the Hegemony Runner, on the board and in the offer). Targets on one core: play 2 of 4 on 8 empty
hexes under 10 s, play 3 of 5 on 8 empty hexes under 60 s. For each card: tiles offered, tiles to play, empty
hexes, verdict, states of the turn (plays), action orders, positions played out, seconds (wall and CPU), how
far past ``--max-time`` it stopped, the peak resident memory of the process and of its workers (issue 15:
"report peak RSS of the largest solve"), and why it stopped. A search stopped while it still lists plays has
played out what it listed, so its verdict column says ``cooked`` when two plays are already proven to win
(the solver still claims no verdict: ``nhex solve`` exits 3).
"""

from __future__ import annotations

import argparse
import resource
import sys
import time
from pathlib import Path

HERE = Path(__file__).parent
sys.path.insert(0, str(HERE.parent))  # run from a checkout without installing

from solver.notation import text as notation  # noqa: E402
from solver.search.solve import Solver  # noqa: E402


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--jobs", type=int, default=1)
    parser.add_argument("--max-time", type=float, default=None)
    parser.add_argument("--naive", action="store_true")
    parser.add_argument("cards", nargs="*", default=sorted(str(p) for p in HERE.glob("scale-*.nhex")))
    args = parser.parse_args()
    print(f"{'card':14} {'offer':>5} {'play':>4} {'empty':>5} {'verdict':>7} {'plays':>7} {'orders':>8} "
          f"{'positions':>9} {'pruned':>7} {'wall s':>7} {'cpu s':>7} {'over s':>6} {'rss MB':>7} {'workers':>7}  stopped",
          flush=True)
    for path in args.cards:
        puzzle = notation.load(path)
        started, cpu = time.perf_counter(), time.process_time()
        # The solver is kept until the figures are taken: it holds the turn's graph, whose freeing (seconds on a
        # big card) comes after the report in `nhex solve` too.
        solver = Solver(puzzle, jobs=args.jobs, naive=args.naive, max_time=args.max_time)
        report = solver.solve()
        elapsed, cpu = time.perf_counter() - started, time.process_time() - cpu
        over = "" if args.max_time is None else f"{elapsed - args.max_time:+.2f}"
        empty = len(puzzle.position.board) - len(puzzle.position.units)
        own = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024  # kB on Linux
        workers = resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss / 1024
        print(f"{Path(path).stem:14} {len(puzzle.offer):>5} {puzzle.tiles_to_play:>4} {empty:>5} "
              f"{report.verdict:>7} {report.plays:>7} {report.paths:>8} {report.positions:>9} {report.pruned:>7} {elapsed:>7.2f} "
              f"{cpu:>7.2f} {over:>6} {own:>7.0f} {workers:>7.0f}  {report.stopped or ''}", flush=True)
        del solver, report

if __name__ == "__main__":
    main()
