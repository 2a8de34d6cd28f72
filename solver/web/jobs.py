"""Jobs outside the event loop: each battle, listing, check, solve, applied action, replayed record, and the page's
readings and pictures, in a process of its own, ended at a hard time limit, with caps on how many run at once
(issue 28, "Safe to put on a network").

A thread cannot be stopped, and a battle with many choices or a solve of a large card can run for minutes, so each
job is a process (forked from a server that has the engine imported already: the ``forkserver`` start method, with
the engine preloaded and warm: solver/web/preload.py), killed when its time is up, when the client goes away or when
the server stops. Two caps: solves (each takes a core for as long as it runs) answer "busy" at once when the cap is
reached, so that a client is told to come back rather than left waiting; the quick jobs wait in a short queue, and
answer "busy" only when it is full.
"""

from __future__ import annotations

import asyncio
import multiprocessing
import os
from dataclasses import dataclass, field
from multiprocessing.context import ForkServerContext, SpawnContext
from typing import Any, Awaitable, Callable

from . import work

#: The modules the fork server imports once, so that a job's process starts with the engine loaded and warm.
PRELOAD = ["solver.web.preload", "solver.engine.battle", "solver.turns.game", "solver.search.solve",
           "solver.render.report", "solver.render.trace", "solver.notation.text"]


class Busy(Exception):
    """Too many jobs of this kind at once: come back in ``retry_after`` seconds."""

    def __init__(self, kind: str, retry_after: int) -> None:
        super().__init__(f"too many {kind} jobs at once; try again in {retry_after} s")
        self.retry_after = retry_after


class TimeUp(Exception):
    """A job ran past its hard time limit and was ended."""

    def __init__(self, kind: str, seconds: float) -> None:
        super().__init__(f"the {kind} took longer than the server's limit of {seconds:g} s and was stopped")
        self.seconds = seconds


class Gone(Exception):
    """The client went away; its job was ended."""


class Failed(Exception):
    """The job's process failed: the engine raised what it should not, or the process died without an answer."""


class Stopping(Exception):
    """The server is stopping (Ctrl-C); the job was ended."""

    def __init__(self) -> None:
        super().__init__("the server is stopping")


@dataclass(frozen=True)
class Limits:
    """The server's limits. Solves: at most ``solves`` at once (default: one a core), each stopped by the solver at
    its ``max_time`` (default ``solve_time``, at most ``solve_time_cap``) and killed ``grace`` seconds after that.
    Other jobs: ``quick`` at once, ``queue`` more waiting, each killed after ``quick_time`` seconds."""

    solves: int = field(default_factory=lambda: max(1, os.cpu_count() or 1))
    solve_time: float = 20.0
    solve_time_cap: float = 120.0
    grace: float = 10.0
    quick: int = field(default_factory=lambda: 2 * max(1, os.cpu_count() or 1))
    queue: int = 64
    quick_time: float = 15.0


@dataclass(frozen=True)
class Answer:
    """A job's answer: the command line's exit status and its JSON text (0, 1, 3) or error object (2, 4); a
    picture's SVG text or PNG bytes."""

    status: int
    body: str | bytes | dict[str, Any]


Progress = Callable[[str, int, "int | None"], Awaitable[None]]


class Jobs:
    """The server's job runner: one per application, created in its lifespan (it owns the fork server)."""

    def __init__(self, limits: Limits) -> None:
        self.limits = limits
        self.context = _context()
        self._solves = 0
        self._quick = asyncio.Semaphore(limits.quick)
        self._waiting = 0
        #: Set when the server is told to stop: the jobs under way end at once (``serve``, solver/web/app.py).
        self.stopping = False

    def solve_seconds(self, asked: float | None) -> float:
        """The solver's own time limit for a request that asked for ``asked`` seconds (capped)."""
        return min(self.limits.solve_time if asked is None else asked, self.limits.solve_time_cap)

    def ready_to_solve(self) -> None:
        """Raises Busy when the cap on concurrent solves is reached (a stream checks before it starts)."""
        if self._solves >= self.limits.solves:
            raise Busy("solve", max(1, int(self.limits.solve_time // 4)))

    async def solve(self, data: bytes, options: dict[str, Any], progress: Progress | None = None,
                    gone: Callable[[], Awaitable[bool]] | None = None) -> Answer:
        self.ready_to_solve()
        self._solves += 1
        try:
            return await self._run("solve", data, options, options["max_time"] + self.limits.grace, progress, gone)
        finally:
            self._solves -= 1

    async def quick(self, kind: str, data: bytes, options: dict[str, Any],
                    gone: Callable[[], Awaitable[bool]] | None = None) -> Answer:
        if self._quick.locked() and self._waiting >= self.limits.queue:
            raise Busy(kind, 1)
        self._waiting += 1
        try:
            await self._quick.acquire()
        finally:
            self._waiting -= 1
        try:
            return await self._run(kind, data, options, self.limits.quick_time, None, gone)
        finally:
            self._quick.release()

    async def _run(self, kind: str, data: bytes, options: dict[str, Any], seconds: float, progress: Progress | None,
                   gone: Callable[[], Awaitable[bool]] | None) -> Answer:
        loop = asyncio.get_running_loop()
        receiving, sending = self.context.Pipe(duplex=False)
        process = self.context.Process(target=work.run, args=(kind, data, options, sending), daemon=True)
        messages: asyncio.Queue[tuple[Any, ...] | None] = asyncio.Queue()

        def readable() -> None:
            try:
                messages.put_nowait(receiving.recv())
            except (EOFError, OSError):  # the process ended (or was killed) without a word more
                loop.remove_reader(receiving.fileno())
                messages.put_nowait(None)

        # The fork server answers over a socket: the start waits off the loop, and runs to its end even when the
        # request is cancelled meanwhile, so that the process it starts is always the one killed below.
        starting = loop.run_in_executor(None, process.start)
        getting: asyncio.Future[tuple[Any, ...] | None] | None = None
        deadline = loop.time() + seconds
        asked = loop.time()  # when the client was last asked whether it is still there
        try:
            await asyncio.shield(starting)
            sending.close()
            loop.add_reader(receiving.fileno(), readable)
            while True:
                left = deadline - loop.time()
                if left <= 0:
                    raise TimeUp(kind, seconds)
                # asyncio.wait, not wait_for: Python 3.11's wait_for can swallow a cancellation that arrives as a
                # message does, and a stopped solve would then run on to its limit.
                if self.stopping:
                    raise Stopping()
                if gone is not None and loop.time() - asked >= 0.5:  # a solve's progress never lets the wait end
                    asked = loop.time()
                    if await gone():
                        raise Gone()
                getting = getting or asyncio.ensure_future(messages.get())
                done, _ = await asyncio.wait({getting}, timeout=min(left, 0.5))
                if not done:
                    continue
                message, getting = getting.result(), None
                if message is None:
                    raise Failed(f"the {kind} process ended without an answer")
                if message[0] == "failed":
                    raise Failed(f"the {kind} failed: {message[1]}")
                if message[0] == "done":
                    return Answer(message[1], message[2])
                if progress is not None:
                    await progress(*message[1:])
        finally:
            if getting is not None:
                getting.cancel()
            if not starting.done():
                await asyncio.wait({starting})
            sending.close()
            loop.remove_reader(receiving.fileno())
            receiving.close()
            if process.is_alive():
                process.kill()
            if process.pid is not None:
                try:
                    await asyncio.shield(loop.run_in_executor(None, process.join))
                except asyncio.CancelledError:  # cancelled again: the process was killed above, and ends at once
                    process.join(1)
                    raise


def _context() -> ForkServerContext | SpawnContext:
    """Fork server where the platform has one (Linux, macOS), else spawn; the engine preloaded in the server."""
    if "forkserver" in multiprocessing.get_all_start_methods():
        context = multiprocessing.get_context("forkserver")
        context.set_forkserver_preload(PRELOAD)
        return context
    return multiprocessing.get_context("spawn")
