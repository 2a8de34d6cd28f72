"""Battles per second on a 6-unit and a busy 16-unit position (issue: battle speed). Run by hand:

    python bench/bench_battle.py [SECONDS]
"""

from __future__ import annotations

import sys
import time
from pathlib import Path

HERE = Path(__file__).parent
sys.path.insert(0, str(HERE.parent))  # run from a checkout without installing

from solver import battle, notation  # noqa: E402


def measure(path: Path, seconds: float) -> tuple[int, float]:
    position = notation.load(str(path))
    battle.resolve(position)  # warm the caches once
    count, start = 0, time.perf_counter()
    while (elapsed := time.perf_counter() - start) < seconds:
        for _ in range(100):
            battle.resolve(position)
        count += 100
    return count, elapsed


def main() -> None:
    seconds = float(sys.argv[1]) if len(sys.argv) > 1 else 3.0
    for name in ("six-units.nhex", "sixteen-units.nhex"):
        count, elapsed = measure(HERE / name, seconds)
        print(f"{name:20} {count / elapsed:10.0f} battles/s  ({count} in {elapsed:.2f} s, one core)")


if __name__ == "__main__":
    main()
