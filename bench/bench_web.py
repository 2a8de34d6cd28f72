"""A bounded load test of ``nhex serve`` on loopback (issue 28): it keeps answering under concurrent requests.

Starts ``python -m solver serve`` on a free port of 127.0.0.1, then sends, all at once, ``--battles`` battle
requests (the sixteen-unit position, with the trace) and then ``--solves`` solve requests of a large card, with 20 more battles while they run
(bench/scale-play2.nhex: play 2 of 4 on 8 empty hexes, minutes to prove, so every solve runs to its ``max_time``),
and prints each round's status codes and p50/p95/max latencies. Every request has a client time limit, the whole
run a deadline; the server is stopped at the end. Run by hand, never in the tests:

    python bench/bench_web.py [--battles 50] [--solves 10] [--max-time 10]
"""

from __future__ import annotations

import argparse
import asyncio
import socket
import statistics
import subprocess
import sys
import time
import urllib.request
from collections import Counter
from pathlib import Path

import httpx

ROOT = Path(__file__).resolve().parent.parent
POSITION = ROOT / "bench/sixteen-units.nhex"
LARGE_CARD = ROOT / "bench/scale-play2.nhex"


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])


async def one(client: httpx.AsyncClient, path: str, body: bytes) -> tuple[int | str, float]:
    started = time.perf_counter()
    try:
        answer = await client.post(path, content=body)
        status: int | str = answer.status_code
    except httpx.HTTPError as error:
        status = type(error).__name__
    return status, time.perf_counter() - started


async def round_of(url: str, name: str, path: str, body: bytes, count: int, timeout: float) -> None:
    limits = httpx.Limits(max_connections=count, max_keepalive_connections=count)
    async with httpx.AsyncClient(base_url=url, timeout=timeout, limits=limits) as client:
        started = time.perf_counter()
        results = await asyncio.gather(*(one(client, path, body) for _ in range(count)))
        wall = time.perf_counter() - started
    statuses = Counter(status for status, _ in results)
    print(f"{name}: {count} concurrent, all answered in {wall:.2f} s; status {dict(statuses)}")
    for status in sorted(statuses, key=str):
        times = sorted(seconds for s, seconds in results if s == status)
        p95 = times[min(len(times) - 1, int(round(0.95 * (len(times) - 1))))]
        print(f"  {status}: p50 {statistics.median(times) * 1000:.0f} ms, p95 {p95 * 1000:.0f} ms, "
              f"max {times[-1] * 1000:.0f} ms")


async def solves_and_battles(url: str, args: argparse.Namespace) -> None:
    """The solves, and a second after they start, battles while they run (the cores are the solves')."""
    solves = asyncio.create_task(round_of(url, "solve", f"/api/solve?max_time={args.max_time:g}",
                                          LARGE_CARD.read_bytes(), args.solves, args.max_time + 30))
    await asyncio.sleep(1.0)
    await round_of(url, "battle during the solves", "/api/battle?trace=1", POSITION.read_bytes(), 20, 60)
    await solves


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--battles", type=int, default=50)
    parser.add_argument("--solves", type=int, default=10)
    parser.add_argument("--max-time", type=float, default=10.0, help="each solve's time limit (s)")
    args = parser.parse_args()
    port = free_port()
    url = f"http://127.0.0.1:{port}"
    server = subprocess.Popen([sys.executable, "-m", "solver", "serve", "--port", str(port)], cwd=ROOT,
                              stdout=subprocess.DEVNULL)
    try:
        deadline = time.monotonic() + 30
        while True:
            try:
                urllib.request.urlopen(url + "/", timeout=1).close()
                break
            except OSError:
                if server.poll() is not None or time.monotonic() > deadline:
                    print("nhex serve did not start", file=sys.stderr)
                    return 1
                time.sleep(0.1)
        asyncio.run(round_of(url, "battle", "/api/battle?trace=1", POSITION.read_bytes(), args.battles, 60))
        asyncio.run(solves_and_battles(url, args))
    finally:
        server.terminate()
        server.wait(timeout=20)
    return 0


if __name__ == "__main__":
    sys.exit(main())
