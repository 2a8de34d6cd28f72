"""``nhex solve-all DIR``: every puzzle card of a folder solved, one job per card (solver/search/dispatch.py).

The cards are read here first, so that a malformed one is reported (``FILE:LINE:COLUMN``, exit 2) before any
work starts; each job then gets the card's *text* (a cluster's workers need not see this file system), reads it
again and solves it with one process (:class:`search.Solver` with ``jobs=1``: the parallelism is across cards;
a folder of one card, solved here, gets the ``--jobs`` processes of ``nhex solve``).
A job returns plain data (:func:`solve_text`), the same wherever it ran; rows come back in the cards' order
(sorted file names), so the table and the JSON do not depend on ``--jobs`` or ``--scheduler``.

Each card's status is what ``nhex solve`` would exit with for it alone: 0 solved (sound or cooked), 1 no
solution, 3 stopped at ``--max-time`` (or ``--max-solutions``), 4 it needs a rule nhex does not implement
(the card is reported, the others are still solved). The command exits with the highest of them.
"""

from __future__ import annotations

import json
import os
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from functools import partial
from pathlib import Path
from typing import Any

from ..errors import NotationError, RuleNotImplemented
from .dispatch import Dispatcher

#: How a solve's report is written as NOTATION §9's JSON (solver.render.report.report_json).
ReportJson = Callable[..., dict[str, Any]]

EXIT_OK, EXIT_NO, EXIT_LIMIT, EXIT_NOT_IMPLEMENTED = 0, 1, 3, 4


@dataclass(frozen=True)
class CardJob:
    """One card to solve: its name (the path as given), its text and the solver's options."""

    file: str
    text: str
    naive: bool = False
    max_time: float | None = None
    max_solutions: int | None = None
    jobs: int = 1  # the solver's own processes: more than one only for a lone card solved in this process


def card_files(folder: str, *, recursive: bool = False) -> list[Path]:
    """The ``*.nhex`` files of a folder (and its sub-folders when ``recursive``), sorted by path."""
    root = Path(folder)
    if not root.is_dir():
        raise NotationError("no such folder" if not root.exists() else "is a file, not a folder", 0, 0, folder)
    # os.walk, not glob: glob skips a folder it cannot read without a word, and an unreadable folder would be
    # "0 cards", exit 0 (issue 25). A folder that cannot be read is reported as a file that cannot be (exit 2).
    found: list[Path] = []

    def refuse(error: OSError) -> None:
        raise NotationError(f"cannot read the folder: {error.strerror or error}", 0, 0,
                            str(error.filename or folder)) from None

    for where, folders, names in os.walk(root, onerror=refuse):
        # as glob's `*.nhex`: not a hidden file (a card being written is `.NAME.XXXX.part`, streams.write_atomically)
        found.extend(Path(where) / name for name in names if name.endswith(".nhex") and not name.startswith("."))
        if not recursive:
            break
        folders.sort()
    return sorted(path for path in found if path.is_file())


def read_cards(paths: Sequence[Path], **options: Any) -> list[CardJob]:
    """Every card read and checked once here (a malformed card or a file that is not a puzzle card raises
    :class:`NotationError` with its place); a card whose reading needs a missing rule is still a job, whose
    row says so."""
    from ..notation.cards import Puzzle
    from ..notation.text import parse, read_source

    jobs = []
    for path in paths:
        text, source = read_source(str(path))
        try:
            document = parse(text, source)
        except RuleNotImplemented:
            jobs.append(CardJob(source, text, **options))  # the job meets it again and reports the card
            continue
        if not isinstance(document, Puzzle):
            raise NotationError("nhex solve-all solves puzzle cards: this file is not one (it does not start with "
                                "`puzzle`)", 1, 1, source)
        jobs.append(CardJob(source, text, **options))
    return jobs


def solve_text(job: CardJob, report_json: ReportJson) -> dict[str, Any]:
    """One card solved (a pure job): NOTATION §9's ``nhex solve --json`` object, as ``report_json`` writes it
    (:func:`solver.render.report.report_json`, handed down by the command line, which stands above both), with
    ``file`` and ``status``; for a card that needs a missing rule, ``status`` 4 and the rule with its place
    (``rule``, ``line``, ``column``; 0 where the engine did not know it)."""
    from ..notation.cards import Puzzle
    from ..notation.text import parse
    from .solve import Solver

    try:
        puzzle = parse(job.text, job.file)
        if not isinstance(puzzle, Puzzle):  # read_cards let only cards through
            raise NotationError("not a puzzle card", 1, 1, job.file)
        report = Solver(puzzle, jobs=job.jobs, naive=job.naive, max_time=job.max_time, max_solutions=job.max_solutions,
                        tries=0).solve()
    except RuleNotImplemented as error:
        return {"file": job.file, "status": EXIT_NOT_IMPLEMENTED, "solved": False, "verdict": None,
                "rule": error.rule, "line": error.line, "column": error.column}
    status = EXIT_LIMIT if report.stopped else (EXIT_OK if report.solutions else EXIT_NO)
    # With the card, as `nhex solve --json` gives it: each solution's idea ("why") too.
    return {"file": job.file, "status": status, **report_json(report, puzzle=puzzle)}


def solve_all(jobs: Sequence[CardJob], dispatcher: Dispatcher, report_json: ReportJson,
              on_row: Callable[[dict[str, Any]], None] | None = None,
              idle: Callable[[], None] | None = None) -> list[dict[str, Any]]:
    """Every card solved by ``dispatcher``; the rows in the cards' order. ``on_row`` hears of each row as it
    comes back (in any order)."""
    rows: list[dict[str, Any] | None] = [None] * len(jobs)
    for index, row in dispatcher.results(partial(solve_text, report_json=report_json), jobs, ordered=False, idle=idle):
        rows[index] = row
        if on_row is not None:
            on_row(row)
    return [row for row in rows if row is not None]


class Journal:
    """What a batch has solved so far, kept beside its results file (``--out FILE``: ``FILE.partial``), so that an
    interrupted batch run again solves only the cards it had not (issue 25).

    One JSON line per card as it comes back, flushed to the disk: the row, and the *key* it was solved under (the
    card's name and text, the solver's options and nhex's fingerprint). A row is used again only under the same
    key: a card edited since, other options or another nhex solve it again. A line cut short by the interruption
    is skipped. When the batch completes, the results file is written whole and the journal removed."""

    def __init__(self, results: str | os.PathLike[str]) -> None:
        self.path = Path(f"{os.fspath(results)}.partial")
        self.rows: dict[str, dict[str, Any]] = {}
        try:
            lines = self.path.read_text(encoding="utf-8").splitlines()
        except FileNotFoundError:
            lines = []
        except (OSError, UnicodeDecodeError) as error:
            from ..streams import StreamFailure

            raise StreamFailure(f"cannot read {self.path}: {getattr(error, 'strerror', None) or error}") from None
        for line in lines:
            try:
                entry = json.loads(line)
                self.rows[entry["key"]] = entry["row"]
            except (ValueError, KeyError, TypeError):
                continue  # a line the interruption cut short
        self.stream: Any = None

    @staticmethod
    def key(job: CardJob, fingerprint: str) -> str:
        """What a card's row depends on: its name and text, the options and the code that solved it."""
        import hashlib

        what = json.dumps([fingerprint, job.file, job.text, job.naive, job.max_time, job.max_solutions])
        return hashlib.sha256(what.encode("utf-8")).hexdigest()

    def solved(self, key: str) -> dict[str, Any] | None:
        return self.rows.get(key)

    def add(self, key: str, row: dict[str, Any]) -> None:
        from ..streams import StreamFailure, reason

        try:
            if self.stream is None:
                self.stream = open(self.path, "a", encoding="utf-8")
            self.stream.write(json.dumps({"key": key, "row": row}) + "\n")
            self.stream.flush()
            os.fsync(self.stream.fileno())
        except OSError as error:
            raise StreamFailure(f"cannot write {self.path}: {reason(error)}") from None

    def close(self, *, complete: bool) -> None:
        if self.stream is not None:
            self.stream.close()
            self.stream = None
        if complete:
            self.path.unlink(missing_ok=True)


def exit_status(rows: Sequence[dict[str, Any]]) -> int:
    """The highest status of the cards (0 for an empty folder: there was nothing to fail)."""
    return max((row["status"] for row in rows), default=EXIT_OK)


def key_of(row: dict[str, Any]) -> str:
    """The row's key as one line (the first winning play's actions; several plays: the first, and how many)."""
    solutions = row.get("solutions") or row.get("found") or []
    if not solutions:
        return ""
    key = "; ".join(solutions[0]["actions"]) or "(play no tile)"
    return key if len(solutions) == 1 else f"{key}  (+{len(solutions) - 1} more)"
