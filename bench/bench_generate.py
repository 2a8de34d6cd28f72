"""Cards per minute: ten level-2 cards for each base army as the player (issue: generator speed). Run by hand:

    python bench/bench_generate.py [--count 10] [--level 2] [--jobs 2] [--seed bench] [--player ARMY ...]

The goal is ten level-2 cards in under 60 seconds on the project's 2-core machines, with ``--jobs 2``. The
cards depend on the seed only, so the figures are repeatable up to the machine's speed; the number of drafts
played out (a work counter, not a time) is printed too.
"""

from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path

HERE = Path(__file__).parent
sys.path.insert(0, str(HERE.parent))  # run from a checkout without installing

from solver.generate import ARMIES, generate  # noqa: E402

#: The opponent each army meets in the benchmark (every army once as the player, once as the opponent).
OPPONENT = {"moloch": "outpost", "outpost": "borgo", "borgo": "hegemony", "hegemony": "moloch"}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--count", type=int, default=10)
    parser.add_argument("--level", type=int, default=2)
    parser.add_argument("--jobs", type=int, default=2)
    parser.add_argument("--seed", default="bench")
    parser.add_argument("--player", nargs="*", choices=ARMIES, default=list(ARMIES))
    args = parser.parse_args()
    worst = 0.0
    for player in args.player:
        started = time.perf_counter()
        cards = generate(player, OPPONENT[player], args.level, args.count, args.seed, jobs=args.jobs)
        elapsed = time.perf_counter() - started
        worst = max(worst, elapsed)
        drafts = sum(c.candidates for c in cards)
        print(f"{player:9} vs {OPPONENT[player]:9} {len(cards):3} level-{args.level} cards in {elapsed:6.1f} s "
              f"({drafts} drafts played out, {args.jobs} jobs)", flush=True)
    print(f"slowest army: {worst:.1f} s for {args.count} cards")


if __name__ == "__main__":
    main()
