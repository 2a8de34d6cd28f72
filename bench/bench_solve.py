"""Solver speed on every bundled card, with and without deduplication (issue: puzzle solver). Run by hand:

    python bench/bench_solve.py [--jobs J] [--repeat N]

For each card: offered tiles, empty hexes, plays enumerated, action orders, distinct positions played out, states
pruned after being made, steps cut before being made (placement runs and last uses: ``unmade``), seconds; then the
same with --naive (every facing, no transpositions) and the ratio of the times.

Times are CPU seconds of this process (``time.process_time``), the best of ``--repeat`` runs (default 2): the
project's machines are shared, and wall-clock times there move by 2-3x with the load of other processes; the
best of two also leaves out the first run's filling of the tile caches. With ``--jobs`` above 1 the workers'
time is not counted: use ``--jobs 1`` (the default) for ratios.
"""

from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path

HERE = Path(__file__).parent
sys.path.insert(0, str(HERE.parent))  # run from a checkout without installing

from solver.notation import text as notation  # noqa: E402
from solver.search.solve import Solver  # noqa: E402


def best(run, repeat: int):
    """The result of ``run()`` and its least CPU time over ``repeat`` runs."""
    times = []
    for _ in range(max(1, repeat)):
        started = time.process_time()
        result = run()
        times.append(time.process_time() - started)
    return result, min(times)


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--jobs", type=int, default=1)
    parser.add_argument("--repeat", type=int, default=2)
    parser.add_argument("cards", nargs="*", default=sorted(str(p) for p in (HERE.parent / "puzzles").glob("*.nhex")))
    args = parser.parse_args()
    print(f"{'card':24} {'offer':>5} {'empty':>5} {'verdict':>7} {'plays':>6} {'orders':>6} {'positions':>9} "
          f"{'pruned':>6} {'unmade':>6} {'cpu s':>6} | {'naive pos':>9} {'naive s':>7} {'ratio':>5}")
    for path in args.cards:
        puzzle = notation.load(path)
        report, fast = best(lambda: Solver(puzzle, jobs=args.jobs).solve(), args.repeat)
        naive, slow = best(lambda: Solver(puzzle, jobs=args.jobs, naive=True).solve(), args.repeat)
        empty = len(puzzle.position.board) - len(puzzle.position.units)
        print(f"{Path(path).stem:24} {len(puzzle.offer):>5} {empty:>5} {report.verdict:>7} {report.plays:>6} "
              f"{report.paths:>6} {report.positions:>9} {report.pruned:>6} {report.runs_cut + report.uses_cut:>6} "
              f"{fast:>6.2f} | {naive.positions:>9} {slow:>7.2f} "
              f"{slow / fast:>5.1f}", flush=True)


if __name__ == "__main__":
    main()
