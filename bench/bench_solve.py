"""Solver speed on every bundled card, with and without deduplication (issue: puzzle solver). Run by hand:

    python bench/bench_solve.py [--jobs J]

For each card: offered tiles, empty hexes, plays enumerated, action orders, distinct positions played out,
seconds; then the same with --naive (every facing, no transpositions) and the ratio of the times.
"""

from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path

HERE = Path(__file__).parent
sys.path.insert(0, str(HERE.parent))  # run from a checkout without installing

from solver import notation  # noqa: E402
from solver.search import Solver  # noqa: E402


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--jobs", type=int, default=None)
    parser.add_argument("cards", nargs="*", default=sorted(str(p) for p in (HERE.parent / "puzzles").glob("*.nhex")))
    args = parser.parse_args()
    print(f"{'card':24} {'offer':>5} {'empty':>5} {'verdict':>7} {'plays':>6} {'orders':>6} {'positions':>9} "
          f"{'s':>6} | {'naive pos':>9} {'naive s':>7} {'ratio':>5}")
    for path in args.cards:
        puzzle = notation.load(path)
        started = time.perf_counter()
        report = Solver(puzzle, jobs=args.jobs).solve()
        fast = time.perf_counter() - started
        started = time.perf_counter()
        naive = Solver(puzzle, jobs=args.jobs, naive=True).solve()
        slow = time.perf_counter() - started
        empty = len(puzzle.position.board) - len(puzzle.position.units)
        print(f"{Path(path).stem:24} {len(puzzle.offer):>5} {empty:>5} {report.verdict:>7} {report.plays:>6} "
              f"{report.paths:>6} {report.positions:>9} {fast:>6.2f} | {naive.positions:>9} {slow:>7.2f} "
              f"{slow / fast:>5.1f}")


if __name__ == "__main__":
    main()
