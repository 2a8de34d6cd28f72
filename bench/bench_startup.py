"""Start-up time of the ``nhex`` command (issue 10, "Fast start"): run by hand, never in the tests.

    python bench/bench_startup.py [RUNS]

Times, over RUNS runs (default 20), the wall time of ``nhex fmt`` on a small position, started as the console script
pip installs starts it (``import re, sys; from solver.cli import main; sys.exit(main())``; ``python -m`` would add
runpy's 5 ms, which no user pays), with a
warm cache (solver/cache.py) and with the cache turned off (every start builds the parser tables and reads
the army files), next to a bare ``python -c pass`` for the interpreter's own share; then prints the ten
slowest imports of one run (``python -X importtime``). The goal is a ``nhex fmt`` of a small file within
0.1 s of the interpreter's own start on this machine.
"""

from __future__ import annotations

import os
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
SMALL = ROOT / "bench" / "six-units.nhex"


def timed(command: list[str], runs: int, env: dict[str, str]) -> tuple[float, float]:
    times = []
    for _ in range(runs):
        start = time.perf_counter()
        subprocess.run(command, cwd=ROOT, env=env, stdout=subprocess.DEVNULL, check=True)
        times.append(time.perf_counter() - start)
    return min(times), statistics.median(times)


def main() -> None:
    runs = int(sys.argv[1]) if len(sys.argv) > 1 else 20
    # The wrapper pip writes for the `nhex = "solver.cli:main"` entry point (pyproject.toml), word for word but the
    # argv[0] clean-up.
    fmt = [sys.executable, "-c", "import re, sys; from solver.cli import main; sys.exit(main())", "fmt", str(SMALL)]
    # As an installed nhex starts: from compiled bytecode (pip writes it). With PYTHONDONTWRITEBYTECODE set, a
    # module changed since its last compile would be compiled again on every start (20 ms for solver.notation.text).
    environment = {k: v for k, v in os.environ.items() if k != "PYTHONDONTWRITEBYTECODE"}
    subprocess.run([sys.executable, "-m", "compileall", "-q", str(ROOT / "solver")], env=environment,
                   stdout=subprocess.DEVNULL, check=True)
    with tempfile.TemporaryDirectory() as folder:
        warm = dict(environment, NHEX_CACHE_DIR=folder)
        subprocess.run(fmt, cwd=ROOT, env=warm, stdout=subprocess.DEVNULL, check=True)  # fill the cache
        cold = dict(environment, NHEX_CACHE_DIR="")
        rows = [
            ("python -c pass", timed([sys.executable, "-c", "pass"], runs, warm)),
            ("nhex fmt (cache warm)", timed(fmt, runs, warm)),
            ("nhex fmt (no cache)", timed(fmt, max(3, runs // 4), cold)),
        ]
        base = rows[0][1][1]
        print(f"{'':24} {'min':>8} {'median':>8} {'median - python':>16}")
        for name, (least, middle) in rows:
            print(f"{name:24} {least:8.3f} {middle:8.3f} {middle - base:16.3f}")
        lines = subprocess.run([sys.executable, "-X", "importtime", *fmt[1:]], cwd=ROOT, env=warm,
                               stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True, check=True).stderr
    imports = []
    for line in lines.splitlines():
        parts = line.split("|")
        if len(parts) == 3 and parts[1].strip().isdigit():
            imports.append((int(parts[1]), parts[2].rstrip()))
    print("\nslowest imports (cumulative microseconds, python -X importtime):")
    for micros, name in sorted(imports, reverse=True)[:10]:
        print(f"{micros:10d} {name}")


if __name__ == "__main__":
    main()
