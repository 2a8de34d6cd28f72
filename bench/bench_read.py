"""Reads per second of notation text (issue 15, "Reading"): run by hand, never in the tests.

    python bench/bench_read.py [SECONDS]

Times ``notation.parse`` (text -> checked Position or Puzzle: the parser, the reader, the consistency checks)
on the two battle benchmark positions and on a few bundled puzzle cards, each for about SECONDS (default 2)
after one warm-up read; prints reads per second and the time of one read. Every read parses the text again:
nothing is cached between reads but the parser itself and the army database, as in any long-running use.
"""

from __future__ import annotations

import sys
import time
from pathlib import Path

HERE = Path(__file__).parent
ROOT = HERE.parent
sys.path.insert(0, str(ROOT))  # run from a checkout without installing

from solver import notation  # noqa: E402

FILES = (
    "bench/six-units.nhex",
    "bench/sixteen-units.nhex",
    "puzzles/01-point-blank.nhex",
    "puzzles/04-officers-orders.nhex",
    "puzzles/13-saboteurs-hour.nhex",
    "puzzles/22-mothers-strength.nhex",
)


def measure(text: str, source: str, seconds: float) -> tuple[int, float]:
    notation.parse(text, source)  # warm-up: the parser tables and the army database are loaded once
    count, start = 0, time.perf_counter()
    while (elapsed := time.perf_counter() - start) < seconds:
        for _ in range(50):
            notation.parse(text, source)
        count += 50
    return count, elapsed


def main() -> None:
    seconds = float(sys.argv[1]) if len(sys.argv) > 1 else 2.0
    for name in FILES:
        path = ROOT / name
        text = path.read_text(encoding="utf-8")
        count, elapsed = measure(text, name, seconds)
        lines = sum(1 for line in text.splitlines() if line.strip() and not line.lstrip().startswith("#"))
        print(f"{name:36} {lines:3d} lines {count / elapsed:9.0f} reads/s  {elapsed / count * 1e3:6.3f} ms a read")


if __name__ == "__main__":
    main()
