"""Where many independent jobs run: in this process, in local worker processes, or on a Dask cluster.

One small interface for every command that spreads work (``nhex generate``, ``nhex solve-all``): a
:class:`Dispatcher` maps a *pure*, module-level function over a list of tasks and yields ``(index, result)``
pairs, either in the tasks' order or as they complete. The caller decides what to do with them; since the
function is pure and the caller orders what it keeps by ``index``, the results do not depend on where the jobs
ran (issue 15, "Beyond one machine": same seeds, same cards, whatever the scheduler).

* :class:`Serial`: in this process, one after the other (``--jobs 1``; monkeypatching in tests still works).
* :class:`Processes`: a local pool of worker processes (fork where the platform has it), as before.
* :class:`DaskCluster`: an existing Dask distributed cluster, by scheduler address (``--scheduler ADDRESS``,
  or the path of a scheduler file). Dask is an optional extra (``pip install 'nhex[distributed]'``); without
  it, :func:`open_dispatcher` raises :class:`DispatchError`. Every worker must run the same nhex: the cluster is
  asked for each worker's :func:`fingerprint` when it is joined, and a worker whose code or army data differs
  is refused (its cards would differ).

Workers of a cluster do not share this machine's memory, so a live counter kept by the workers (the
generator's "drafts played out") exists only for local processes; :attr:`Dispatcher.shares_memory` says which.
"""

from __future__ import annotations

import hashlib
import multiprocessing
import os
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any, TypeVar

from ..errors import NhexError

T = TypeVar("T")
R = TypeVar("R")

#: How often (seconds) a waiting dispatcher calls ``idle`` (the progress reports).
IDLE = 0.5
#: How long joining a cluster may take before nhex gives up (seconds).
CONNECT_TIMEOUT = 10.0


#: How long a cluster may have no workers before nhex gives up (seconds; ``--wait-workers``).
WAIT_WORKERS = 600.0
#: How often (seconds) nhex says again that it is still waiting for a worker.
WAITING_NOTE = 30.0


class DispatchError(NhexError):
    """A cluster cannot be used: Dask is not installed, the scheduler cannot be reached, or a worker runs other
    code. Reported like a wrong option value (exit 2)."""


class ClusterLost(Exception):
    """The cluster had no worker for longer than the caller would wait (``--wait-workers``): the run stops, keeping
    what was proven (exit 3, a limit the user set)."""


def mp_context() -> Any:
    """The multiprocessing context of local workers: fork where the platform has it (workers start at once and
    inherit the parsed armies), else spawn. Shared values handed to :class:`Processes` come from this context."""
    return multiprocessing.get_context("fork" if "fork" in multiprocessing.get_all_start_methods() else "spawn")


class Dispatcher:
    """Maps a pure function over tasks. ``results`` yields ``(index, result)``: in order (``ordered``) or as the
    jobs complete; ``idle`` is called about every :data:`IDLE` seconds while nothing completes, and after each
    result. A job that raises raises here, in the caller."""

    #: Whether workers share this machine (a ``multiprocessing`` value handed to ``initializer`` reaches them).
    shares_memory = True
    #: How many jobs run at once (on a cluster: its workers when it was joined).
    workers = 1

    def results(self, function: Callable[[T], R], tasks: Sequence[T], *, ordered: bool = True,
                idle: Callable[[], None] | None = None) -> Iterator[tuple[int, R]]:
        raise NotImplementedError

    def stream(self, function: Callable[[T], R], next_task: Callable[[], T | None], *, window: int,
               idle: Callable[[], None] | None = None) -> Iterator[R]:
        """``function`` over tasks asked for one at a time: ``next_task()`` is called whenever fewer than ``window``
        jobs are running (``None``: nothing to start now); results are yielded as the jobs complete, and the
        stream ends when nothing runs and ``next_task()`` has nothing. The caller may change what ``next_task``
        returns between results, so a run of any length holds only ``window`` tasks (issue 25: ``nhex generate
        --count 999999999`` allocated the count's lists before the first card)."""
        raise NotImplementedError

    def close(self) -> None:
        """Stop every job still running and release the workers."""

    def __enter__(self) -> Dispatcher:
        return self

    def __exit__(self, *_: object) -> None:
        self.close()


class Serial(Dispatcher):
    """In this process, in order (ordered or not: the order of completion is the order of the tasks)."""

    def results(self, function: Callable[[T], R], tasks: Sequence[T], *, ordered: bool = True,
                idle: Callable[[], None] | None = None) -> Iterator[tuple[int, R]]:
        for index, task in enumerate(tasks):
            result = function(task)
            if idle is not None:
                idle()
            yield index, result

    def stream(self, function: Callable[[T], R], next_task: Callable[[], T | None], *, window: int,
               idle: Callable[[], None] | None = None) -> Iterator[R]:
        while (task := next_task()) is not None:
            result = function(task)
            if idle is not None:
                idle()
            yield result


@dataclass(frozen=True)
class _Job:
    """One task with its index and function: a plain object, so that Dask never reads a task written as a tuple
    (``(callable, args...)``) as a graph of its own."""

    function: Callable[[Any], Any]
    index: int
    task: Any


def _run(job: _Job) -> tuple[int, Any]:
    return job.index, job.function(job.task)


def ignore_interrupts() -> None:
    """What every local worker process does as it starts (the generator's, solve-all's and the solver's pools):
    it leaves Ctrl-C to its parent, which stops the pool and says so once (issue 10), and it quits, quietly, when
    the parent is gone (:func:`quit_with_parent`)."""
    import signal

    signal.signal(signal.SIGINT, signal.SIG_IGN)
    quit_with_parent()


#: How often (seconds) a worker process looks whether its parent is still there.
PARENT_WATCH = 0.5


def quit_with_parent() -> None:
    """A worker whose parent was killed (``kill -9``: no pool shutdown reaches it) would finish its draft and
    then die on the closed pipe with a BrokenPipeError traceback (issue 25). A watcher thread sees the parent
    go (the process is handed to another: its parent id changes) and ends the worker at once, silently."""
    import threading
    import time

    parent = os.getppid()

    def watch() -> None:
        while os.getppid() == parent:
            time.sleep(PARENT_WATCH)
        os._exit(0)  # nothing of the worker's is worth keeping: its results had nowhere to go

    threading.Thread(target=watch, name="nhex-parent-watch", daemon=True).start()


def _start_process(initializer: Callable[..., None] | None, initargs: tuple) -> None:
    ignore_interrupts()
    if initializer is not None:
        initializer(*initargs)


class Processes(Dispatcher):
    """A pool of ``jobs`` local worker processes; ``initializer(*initargs)`` runs in each as it starts."""

    def __init__(self, jobs: int, initializer: Callable[..., None] | None = None, initargs: tuple = ()) -> None:
        self.workers = jobs
        self.pool = mp_context().Pool(jobs, initializer=_start_process, initargs=(initializer, initargs))

    def results(self, function: Callable[[T], R], tasks: Sequence[T], *, ordered: bool = True,
                idle: Callable[[], None] | None = None) -> Iterator[tuple[int, R]]:
        jobs = [_Job(function, index, task) for index, task in enumerate(tasks)]
        found = (self.pool.imap if ordered else self.pool.imap_unordered)(_run, jobs)
        for _ in jobs:
            while True:
                try:
                    item = found.next(timeout=IDLE)
                    break
                except multiprocessing.TimeoutError:
                    if idle is not None:
                        idle()
            if idle is not None:
                idle()
            yield item

    def stream(self, function: Callable[[T], R], next_task: Callable[[], T | None], *, window: int,
               idle: Callable[[], None] | None = None) -> Iterator[R]:
        import queue

        # The pool's result thread puts each outcome here; this generator is the only reader.
        finished: queue.SimpleQueue[tuple[bool, Any]] = queue.SimpleQueue()
        running = 0
        while True:
            while running < window and (task := next_task()) is not None:
                self.pool.apply_async(function, (task,), callback=lambda result: finished.put((True, result)),
                                      error_callback=lambda error: finished.put((False, error)))
                running += 1
            if not running:
                return
            try:
                ok, outcome = finished.get(timeout=IDLE)
            except queue.Empty:
                if idle is not None:
                    idle()
                continue
            running -= 1
            if not ok:
                raise outcome  # a job that raised raises here, in the caller
            if idle is not None:
                idle()
            yield outcome

    def close(self) -> None:
        self.pool.terminate()
        self.pool.join()


class DaskCluster(Dispatcher):
    """An existing Dask distributed cluster. Tasks go to the scheduler as they are (pickled), with the function
    by reference: the workers import it from their own nhex, which must be the same as this one."""

    shares_memory = False

    def __init__(self, address: str, *, timeout: float | None = None, wait_workers: float = WAIT_WORKERS,
                 say: Callable[[str], None] | None = None) -> None:
        self.wait_workers = wait_workers
        self.say = say or (lambda _: None)
        self._alone_since: float | None = None  # when the cluster was last seen without a worker
        self._said = 0.0
        try:
            import distributed
        except ImportError:
            raise DispatchError(f"--scheduler {address}: Dask is not installed; install the extra with "
                                f"pip install 'nhex[distributed]'") from None
        self._distributed = distributed
        timeout = CONNECT_TIMEOUT if timeout is None else timeout
        try:
            if os.path.isfile(address):  # a scheduler file, as `dask scheduler --scheduler-file` writes
                self.client = distributed.Client(scheduler_file=address, timeout=timeout, set_as_default=False)
            else:
                self.client = distributed.Client(address, timeout=timeout, set_as_default=False)
        except (OSError, TimeoutError, ValueError) as error:
            raise DispatchError(f"--scheduler {address}: cannot reach the Dask scheduler: {error}") from None
        self.address = address
        try:
            self.check_workers()
        except BaseException:
            self.client.close()
            raise
        self.futures: list[Any] = []

    def check_workers(self, mine: str | None = None) -> None:
        """Every worker runs nhex with the same code and data as this process (``mine``: its fingerprint), else
        its cards would differ."""
        mine = mine or fingerprint()
        try:
            theirs = self.client.run(fingerprint)
        except Exception as error:  # a worker without nhex cannot even unpickle the function
            raise DispatchError(f"--scheduler {self.address}: a worker cannot run nhex ({type(error).__name__}: "
                                f"{error}); install the same nhex on every worker") from None
        if not theirs:
            raise DispatchError(f"--scheduler {self.address}: the cluster has no workers")
        other = sorted(worker for worker, print_ in theirs.items() if print_ != mine)
        if other:
            raise DispatchError(f"--scheduler {self.address}: worker {other[0]} runs a different nhex "
                                f"({theirs[other[0]]}, here {mine}); install the same version everywhere")
        self.workers = len(theirs)

    def results(self, function: Callable[[T], R], tasks: Sequence[T], *, ordered: bool = True,
                idle: Callable[[], None] | None = None) -> Iterator[tuple[int, R]]:
        # pure=False: the keys are not hashed from the tasks (nhex values are not all tokenizable cheaply), and
        # a task given twice runs twice, as with the local pools.
        futures = self.client.map(_run, [_Job(function, index, task) for index, task in enumerate(tasks)], pure=False)
        self.futures.extend(futures)
        try:
            pending = list(futures)
            while pending:
                yield from self._done(pending, ordered, idle)
        finally:
            self.client.cancel(futures)

    def _done(self, pending: list[Any], ordered: bool, idle: Callable[[], None] | None) -> Iterator[Any]:
        """The results of the jobs of ``pending`` that are done (only the first, if ``ordered``), each taken out of
        ``pending``; if none is, a wait for one instead. A job that raised raises here."""
        ready = ([pending[0]] if pending[0].done() else []) if ordered else [f for f in pending if f.done()]
        if not ready:
            self._wait(pending[:1] if ordered else pending, idle)
            return
        for future in ready:
            pending.remove(future)
            yield self._result(future, idle)
        if idle is not None:
            idle()

    def stream(self, function: Callable[[T], R], next_task: Callable[[], T | None], *, window: int,
               idle: Callable[[], None] | None = None) -> Iterator[R]:
        pending: list[Any] = []
        try:
            while True:
                while len(pending) < window and (task := next_task()) is not None:
                    pending.append(self.client.submit(function, task, pure=False))
                if not pending:
                    return
                yield from self._done(pending, False, idle)
        finally:
            if pending:
                self.client.cancel(pending)

    def _wait(self, pending: list[Any], idle: Callable[[], None] | None) -> None:
        """Up to :data:`IDLE` seconds for a job to complete; meanwhile, a cluster left without workers is said
        (and for how long nhex will wait), and past ``wait_workers`` the run stops (:class:`ClusterLost`)."""
        try:  # distributed.TimeoutError is the built-in TimeoutError
            with self.client.as_current():  # wait() asks the current client, not the futures'
                self._distributed.wait(pending, timeout=IDLE, return_when="FIRST_COMPLETED")
            return
        except TimeoutError:
            if idle is not None:
                idle()
        self._watch_workers()

    def _result(self, future: Any, idle: Callable[[], None] | None) -> Any:
        """A completed job's result. Its data lives on the worker that ran it: a worker lost since then takes
        it along, and the job runs again (on a worker yet to come), so this waits as :meth:`_wait` does."""
        while True:
            try:
                return future.result(timeout=IDLE)  # a job that raised raises here
            except TimeoutError:
                if idle is not None:
                    idle()
                self._watch_workers()

    def _watch_workers(self) -> None:
        """Whether the cluster has a worker: a cluster without is said, and past ``wait_workers`` given up."""
        import time

        now = time.monotonic()
        if self.client.scheduler_info().get("workers"):
            if self._alone_since is not None:
                self.say(f"a worker joined the Dask cluster at {self.address}: going on")
                self._alone_since = None
            return
        if self._alone_since is None:
            self._alone_since = self._said = now
            self.say(f"the Dask cluster at {self.address} has no workers: waiting for one (giving up after "
                     f"{self.wait_workers:g} s: --wait-workers)")
        elif now - self._alone_since > self.wait_workers:
            raise ClusterLost(f"the Dask cluster at {self.address} has had no workers for {self.wait_workers:g} s: "
                              f"gave up (--wait-workers)")
        elif now - self._said >= WAITING_NOTE:
            self._said = now
            self.say(f"still waiting for a worker of the Dask cluster at {self.address} "
                     f"({now - self._alone_since:.0f} s of {self.wait_workers:g})")

    def close(self) -> None:
        if self.futures:
            self.client.cancel(self.futures)
        self.client.close()


def open_dispatcher(jobs: int = 1, scheduler: str | None = None, *, initializer: Callable[..., None] | None = None,
                    initargs: tuple = (), wait_workers: float = WAIT_WORKERS,
                    say: Callable[[str], None] | None = None) -> Dispatcher:
    """The dispatcher for ``--scheduler``/``--jobs``: a Dask cluster when an address is given, else ``jobs``
    local processes (this process alone for one job). ``initializer(*initargs)`` runs in each local worker
    process (never on a cluster's workers, nor in this process). The caller closes it (or uses ``with``).
    A cluster left without workers is said through ``say`` and given up after ``wait_workers`` seconds."""
    if scheduler is not None:
        return DaskCluster(scheduler, wait_workers=wait_workers, say=say)
    if jobs > 1:
        return Processes(jobs, initializer, initargs)
    return Serial()


def fingerprint() -> str:
    """nhex's version and a digest of its code and data (every file of the ``solver`` package, grammars and
    armies included): two processes with the same fingerprint make the same cards from the same seed."""
    from ..resources import version

    root = Path(__file__).resolve().parent.parent
    digest = hashlib.sha256()
    grammar = root.parent / "grammar"
    # Installed, the grammars are solver/grammar/; in a checkout, grammar/ beside solver/: the same names here.
    folders = [(root, "")] + ([(grammar, "grammar/")] if grammar.is_dir() else [])
    files = sorted((prefix + path.relative_to(folder).as_posix(), path) for folder, prefix in folders
                   for path in folder.rglob("*")
                   if path.is_file() and path.suffix in (".py", ".lark", ".army", ".terrain"))
    for name, path in files:
        digest.update(name.encode())
        digest.update(path.read_bytes())
    return f"nhex {version()} {digest.hexdigest()[:12]}"
