"""Reads per second of notation text (issue 15, "Reading"): run by hand, never in the tests.

    python bench/bench_read.py [SECONDS] [--split]

Times ``notation.parse`` (text -> checked Position or Puzzle: the parser, the reader, the consistency checks)
on the two battle benchmark positions and on a few bundled puzzle cards, each for about SECONDS (default 2)
after one warm-up read; prints reads per second and the time of one read. Every read parses the text again:
nothing is cached between reads but the parser itself and the army database, as in any long-running use.

The time is taken in rounds of 20 reads and the best round (in CPU time) is reported besides the mean: on a
machine shared with other work the best round is the steadier figure (compare old and new code alternately in one shell).
``--split`` also times the two stages apart: text -> parse tree, and parse tree -> checked document.
"""

from __future__ import annotations

import sys
import time
from pathlib import Path
from typing import Callable

HERE = Path(__file__).parent
ROOT = HERE.parent
sys.path.insert(0, str(ROOT))  # run from a checkout without installing

from solver.notation import text as notation  # noqa: E402

FILES = (
    "bench/six-units.nhex",
    "bench/sixteen-units.nhex",
    "puzzles/01-point-blank.nhex",
    "puzzles/04-officers-orders.nhex",
    "puzzles/13-saboteurs-hour.nhex",
    "puzzles/22-mothers-strength.nhex",
)


def measure(read: Callable[[], object], seconds: float) -> tuple[int, float, float]:
    """Reads, total seconds, and the best round's seconds a read."""
    read()  # warm-up: the parser tables and the army database are loaded once
    count, best, start = 0, float("inf"), time.perf_counter()
    while (elapsed := time.perf_counter() - start) < seconds:
        began = time.process_time()  # CPU time: less disturbed by other work on a shared machine
        for _ in range(20):
            read()
        best = min(best, (time.process_time() - began) / 20)
        count += 20
    return count, elapsed, best


def _tree(text: str) -> object:
    parse = getattr(notation, "_tree", None)  # solver/lalr.py's loop where the checkout has it
    if parse is not None:
        return parse(text)
    reading = getattr(notation, "_reading_parser", notation._parser)  # the parser without places, where there is one
    return reading().parse(text)


def _reader(name: str, text: str) -> object:
    """A reader of the file, given its text where the reader takes it (to place nodes of a tree without places)."""
    return notation._Reader(name, text) if hasattr(notation, "_reading_parser") else notation._Reader(name)


def main() -> None:
    arguments = [a for a in sys.argv[1:] if a != "--split"]
    seconds = float(arguments[0]) if arguments else 2.0
    for name in FILES:
        path = ROOT / name
        text = path.read_text(encoding="utf-8")
        count, elapsed, best = measure(lambda: notation.parse(text, name), seconds)
        lines = sum(1 for line in text.splitlines() if line.strip() and not line.lstrip().startswith("#"))
        report = (f"{name:36} {lines:3d} lines {count / elapsed:7.0f} reads/s  {elapsed / count * 1e3:6.3f} ms a read"
                  f" (best {best * 1e3:.3f})")
        if "--split" in sys.argv:
            tree = _tree(text)
            parse_best = measure(lambda: _tree(text), seconds / 2)[2]
            read_best = measure(lambda: _reader(name, text).read(tree), seconds / 2)[2]  # type: ignore[attr-defined]
            report += f"  parse {parse_best * 1e3:.3f} + read {read_best * 1e3:.3f}"
        print(report)


if __name__ == "__main__":
    main()
