"""Cards per minute: ten level-2 cards for each base army as the player (issue: generator speed). Run by hand:

    python bench/bench_generate.py [--count 10] [--level 2] [--jobs 2] [--seed bench] [--player ARMY ...]

The goal is ten level-2 cards in under 60 seconds on the project's 2-core machines, with ``--jobs 2``. The
cards depend on the seed only, so the figures are repeatable up to the machine's speed; the number of drafts
played out (a work counter, not a time) is printed too.

``--each`` times every card on its own instead (issue 15: "a level-3 or level-4 card in under 60 s on two
cores, median over ten seeds"): card *i* is ``nhex generate --count 1 --seed SEED-i --jobs J``, one card made
by ``--jobs`` workers (their climbs at once); each line gives its wall and CPU seconds (the workers'), its
drafts and attempts, and the last line the medians. The cards are made one after the other.

    python bench/bench_generate.py --each --level 3 --count 10 --jobs 2 --player moloch

``--each --budget N`` times ``generate_one`` with the seed ``SEED:i:0`` instead, stopped after N drafts and run
``--jobs`` at a time: the same work in any version, so its CPU seconds compare the speed of the draft pipeline
(enumeration, battles, tuning) between two checkouts.
"""

from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path

HERE = Path(__file__).parent
sys.path.insert(0, str(HERE.parent))  # run from a checkout without installing

from solver.search.generate import ARMIES, NoCard, generate, generate_one  # noqa: E402

#: The opponent each army meets in the benchmark (every army once as the player, once as the opponent).
OPPONENT = {"moloch": "outpost", "outpost": "borgo", "borgo": "hegemony", "hegemony": "moloch",
            "smart": "vegas", "vegas": "new-york", "new-york": "neojungle", "neojungle": "doomsday",
            "doomsday": "moloch"}


def _one(args: tuple[str, str, int, str, int | None]) -> tuple[str, float, float, int, bool]:
    player, opponent, level, seed, budget = args
    drafts = [0]

    def count(_reason: str) -> None:
        drafts[0] += 1

    wall, cpu = time.perf_counter(), time.process_time()
    made = generate_one(player, opponent, level, seed, budget=budget, on_candidate=count)
    return seed, time.perf_counter() - wall, time.process_time() - cpu, drafts[0], made is not None


def each_card(args: argparse.Namespace) -> None:
    """One card at a time, made by ``--jobs`` workers (what a user waits for with ``--count 1``)."""
    import resource
    import statistics

    def cpu() -> float:
        own, workers = resource.getrusage(resource.RUSAGE_SELF), resource.getrusage(resource.RUSAGE_CHILDREN)
        return own.ru_utime + own.ru_stime + workers.ru_utime + workers.ru_stime

    for player in args.player:
        opponent = OPPONENT[player]
        walls, cpus = [], []
        for i in range(args.count):
            seed = f"{args.seed}-{i}"
            wall, used = time.perf_counter(), cpu()
            try:
                (made,) = generate(player, opponent, args.level, 1, seed, jobs=args.jobs)
                found = f"{made.candidates:4} drafts, attempt {made.seed.rsplit(':', 1)[1]}"
            except NoCard:
                found = "NO CARD"
            walls.append(time.perf_counter() - wall)
            cpus.append(cpu() - used)
            print(f"{player:9} vs {opponent:9} seed {seed:10} level {args.level}: {walls[-1]:7.1f} s wall "
                  f"{cpus[-1]:7.1f} s cpu, {found}", flush=True)
        print(f"{player:9} vs {opponent:9} median over {len(walls)} cards: {statistics.median(walls):.1f} s wall, "
              f"{statistics.median(cpus):.1f} s cpu per card ({args.jobs} jobs)", flush=True)
    workers = resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss / 1024
    print(f"peak RSS of a worker {workers:.0f} MB")


def each(args: argparse.Namespace) -> None:
    import multiprocessing
    import statistics

    tasks = [(player, OPPONENT[player], args.level, f"{args.seed}:{i}:0", args.budget)
             for player in args.player for i in range(args.count)]
    walls, cpus = [], []
    with multiprocessing.get_context("fork").Pool(args.jobs) as pool:
        for (player, opponent, _, _, _), (seed, wall, cpu, drafts, made) in zip(tasks, pool.imap(_one, tasks)):
            walls.append(wall)
            cpus.append(cpu)
            print(f"{player:9} vs {opponent:9} seed {seed:14} level {args.level}: {wall:7.1f} s wall "
                  f"{cpu:7.1f} s cpu, {drafts:4} drafts, {'card' if made else 'NO CARD'}", flush=True)
    import resource

    # Peak resident memory of the largest worker (issue 15: "report peak RSS ... of generation"); kB on Linux.
    workers = resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss / 1024
    print(f"median over {len(walls)} seeds: {statistics.median(walls):.1f} s wall, "
          f"{statistics.median(cpus):.1f} s cpu per card ({args.jobs} jobs); peak RSS of a worker {workers:.0f} MB")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--count", type=int, default=10)
    parser.add_argument("--level", type=int, default=2)
    parser.add_argument("--jobs", type=int, default=2)
    parser.add_argument("--seed", default="bench")
    parser.add_argument("--player", nargs="*", choices=ARMIES, default=list(ARMIES))
    parser.add_argument("--each", action="store_true", help="time each card on its own, with the median")
    parser.add_argument("--budget", type=int, default=None,
                        help="with --each: stop each card after this many drafts (a fixed amount of work, to compare "
                             "the draft pipeline's speed between versions; the cards found then are few)")
    args = parser.parse_args()
    if args.each:
        (each if args.budget else each_card)(args)
        return
    worst = 0.0
    for player in args.player:
        started = time.perf_counter()
        cards = generate(player, OPPONENT[player], args.level, args.count, args.seed, jobs=args.jobs)
        elapsed = time.perf_counter() - started
        worst = max(worst, elapsed)
        drafts = sum(c.candidates for c in cards)
        print(f"{player:9} vs {OPPONENT[player]:9} {len(cards):3} level-{args.level} cards in {elapsed:6.1f} s "
              f"({drafts} drafts played out, {args.jobs} jobs)", flush=True)
    import resource

    own = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
    workers = resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss / 1024
    print(f"slowest army: {worst:.1f} s for {args.count} cards; peak RSS {own:.0f} MB here, {workers:.0f} MB in a worker")


if __name__ == "__main__":
    main()
