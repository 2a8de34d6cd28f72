"""Battles per second on a 6-unit and a busy 16-unit position, and on a position with five Clowns whose every
explosion is its owner's choice (issue 15: a battle with choices costs about its distinct end states). Run by hand:

    python bench/bench_battle.py [SECONDS]

The five-Clown position has four Clowns more than Moloch's one: the notation refuses it (a position problem), so
it is built here from units; the battle does not count copies.
"""

from __future__ import annotations

import sys
import time
from pathlib import Path

HERE = Path(__file__).parent
sys.path.insert(0, str(HERE.parent))  # run from a checkout without installing

from solver.engine import battle
from solver.notation import text as notation  # noqa: E402
from solver.hexes import Direction, Hex  # noqa: E402
from solver.position import Position, Unit  # noqa: E402
from solver.tiles import tile  # noqa: E402


def five_clowns() -> Position:
    """Five Moloch Clowns in phase 2 beside Outpost units, each choosing to attack or explode (2^5 lines)."""
    base = notation.parse("e3 moloch:hq hp=10\na1 outpost:hq hp=10\nc1 outpost:runner S\nc3 outpost:annihilator N\n")
    clown = tile("moloch:clown")
    clowns = [Unit(Hex.parse(h), clown, Direction.parse(f))
              for h, f in (("b2", "SE"), ("c2", "S"), ("d2", "SW"), ("d3", "NW"), ("c4", "N"))]
    return Position(base.units + tuple(clowns))


def measure(position: Position, seconds: float, batch: int) -> tuple[int, float]:
    battle.resolve(position)  # warm the caches once
    count, start = 0, time.perf_counter()
    while (elapsed := time.perf_counter() - start) < seconds:
        for _ in range(batch):
            battle.resolve(position)
        count += batch
    return count, elapsed


def main() -> None:
    seconds = float(sys.argv[1]) if len(sys.argv) > 1 else 3.0
    cases = [(name, notation.load(str(HERE / name)), 100) for name in ("six-units.nhex", "sixteen-units.nhex")]
    cases.append(("five Clowns", five_clowns(), 5))
    for name, position, batch in cases:
        count, elapsed = measure(position, seconds, batch)
        print(f"{name:20} {count / elapsed:10.0f} battles/s  ({count} in {elapsed:.2f} s, one core)")
    print(f"{'':20} five Clowns: {len(battle.resolve(cases[-1][1]))} distinct end states of "
          f"{sum(1 for _ in battle.leaves(battle.battle_tree(cases[-1][1])))} lines of choices")


if __name__ == "__main__":
    main()
