"""The ``nhex`` command (NOTATION §9): a thin layer over the modules, one function per sub-command.

Exit status: 0 done; 1 the answer is no (an illegal action, no solution); 2 bad input, reported as
``FILE:LINE:COLUMN: message`` with nothing written to standard output (a wrong option value: argparse's usage
error); 3 stopped at a limit the user set; 4 the input needs a rule nhex does not implement
(``FILE:LINE:COLUMN: not implemented yet: RULE``); 5 standard input or output, or a file being written, failed
(closed, a full disk, no permission: ``nhex: cannot write ...: REASON``); 130 interrupted. A reader of standard
output that goes away (a closed pipe) ends quietly, 0.

Start-up matters (issue 10): this module imports only the standard library; each command imports what it needs
when it runs, and the parser tables and army database come from the per-user cache (solver/cache.py).
"""

from __future__ import annotations

import argparse
import sys
import time
from typing import TYPE_CHECKING, Any, Callable, Iterable, NoReturn, Sequence, TypeVar

from .errors import NotationError, RuleNotImplemented

if TYPE_CHECKING:  # the sub-commands import what they need when they run (a quick start for every command)
    from rich.console import Console, RenderableType

    from .notation.cards import GameRecord
    from .notation.text import Document
    from .position import Position
    from .tiles import Tile
    from .turns.game import CheckReport
    from .turns.replay import Replayed

EXIT_OK, EXIT_NO, EXIT_BAD_INPUT, EXIT_LIMIT, EXIT_NOT_IMPLEMENTED = 0, 1, 2, 3, 4
#: Standard input or output, or a file nhex writes, failed (closed, a full disk, a folder it may not write).
EXIT_STREAM = 5


def _console() -> Console:
    from rich.console import Console

    class _Console(Console):
        def on_broken_pipe(self) -> None:
            # rich exits with status 1 when the reader goes away; nhex stops quietly with 0, as git does (main).
            self.quiet = True
            raise BrokenPipeError

    return _Console(highlight=False)


def _load(args: argparse.Namespace) -> Document:
    """The document of ``args.file``; its text and name stay on ``args`` for messages that point into it."""
    document, args.text, args.source = _read_document(args.file)
    return document


# --- sub-commands ----------------------------------------------------------------------------------------------


def cmd_show(args: argparse.Namespace) -> int:
    from .notation.cards import GameRecord, Puzzle
    from .render.terminal import render_document

    document = _load(args)
    if args.svg or args.png:  # the card-sized picture instead of the terminal's (a puzzle card: its front)
        _check_targets(args, "show")
        _write_picture(args, _picture(args, document))
        return EXIT_OK
    picture: RenderableType = render_document(document)
    if isinstance(document, GameRecord):
        position, picture = _game_picture(document, args.turn, picture, args.text, args.source)
    else:
        if args.turn is not None:
            raise NotationError("--turn is for game records: this file is a position or a puzzle card", 1, 1,
                                args.source)
        position = document.position if isinstance(document, Puzzle) else document
    console = _console()
    if not console.is_terminal:
        # Piped or redirected: 80 columns (text wraps to fit), wider only where the board needs it: never crop it.
        from .render.terminal import render_board

        board = render_board(position).plain.splitlines()
        console.width = max(80, max((len(line) for line in board), default=0))
    console.print(picture)
    return EXIT_OK


def _game_picture(record: GameRecord, turn: int | None, record_picture: RenderableType, text: str, source: str
                  ) -> tuple[Position, RenderableType]:
    """A game record's picture: the record, then the board after its last turn (or after turn ``turn``, 0 for
    the start), replayed by the checker; an illegal turn ends the replay and is named."""
    from rich.console import Group
    from rich.text import Text

    from .render.terminal import render_position

    done = _board_after(record, turn, text, source)
    state = done.state
    parts: list[RenderableType] = [record_picture, Text(f"The board {done.title}", style="bold"),
                                   render_position(state.position, players=record.players, winners=state.winners)]
    if state.history:
        parts.append(Text("\n".join(state.history), style="dim"))
    if done.fault is not None:
        parts.append(Text(f"{done.fault}; the board is the one after turn {done.shown}", style="bold red"))
    return state.position, Group(*parts)


def _board_after(record: GameRecord, turn: int | None, text: str, source: str) -> Replayed:
    """The record replayed up to turn ``turn`` (default: its last) for a picture, terminal or card
    (solver/turns/replay.py); a turn the record does not have is bad input."""
    from .turns.replay import last_turn, replay

    last = last_turn(record)
    if turn is not None and not 0 <= turn <= last:
        raise NotationError(f"--turn {turn}: the record has turns 1 to {last}" if last
                            else f"--turn {turn}: the record has no turns yet", 1, 1, source)
    return _game_started(lambda: replay(record, turn), text, source)


def _show_arguments(command: argparse.ArgumentParser) -> None:
    _file_argument(command)
    command.add_argument("--turn", type=_natural, metavar="N",
                         help="a game record: draw the board after turn N (0: the start; default: the last turn)")
    command.add_argument("--svg", metavar="OUT",
                         help="draw the picture as SVG to OUT instead (- for standard output), as `nhex card` does")
    command.add_argument("--png", metavar="OUT.png", help="draw the picture as PNG to OUT.png instead")


def cmd_fmt(args: argparse.Namespace) -> int:
    document = _load(args)
    from .notation.text import write

    if args.turn is not None:
        # A judge's question: the position after turn N, as a position file of its own (hands, decks, to-move).
        from .notation.cards import GameRecord  # only here: fmt of a position imports no card values (issue 10)

        if not isinstance(document, GameRecord):
            raise NotationError("--turn is for game records: this file is a position or a puzzle card", 1, 1,
                                args.source)
        report = _replayed(document, args.turn, args)
        if not report.ok:
            print(report.fault(args.source), file=sys.stderr)
            return EXIT_NO
        sys.stdout.write(write(report.state.position))
        return EXIT_OK
    sys.stdout.write(write(document))
    return EXIT_OK


def _fmt_arguments(command: argparse.ArgumentParser) -> None:
    _file_argument(command)
    command.add_argument("--turn", type=_natural, metavar="N",
                         help="a game record: print the position after turn N (0: the start) as a position file")


def _replayed(record: GameRecord, turn: int, args: argparse.Namespace) -> CheckReport:
    """The record checked up to turn ``turn`` (:func:`solver.turns.game.check`); a turn the record does not have
    is bad input, and a rule the replay needs that nhex lacks is exit 4 at the action that needs it."""
    from .notation.cards import Turn
    from .turns.game import check

    turns = [e for e in record.entries if isinstance(e, Turn)]
    first, last = (turns[0].number, turns[-1].number) if turns else (1, 0)
    if not first - 1 <= turn <= last:
        raise NotationError(f"--turn {turn}: the record has turns {first} to {last}" if last
                            else f"--turn {turn}: the record has no turns yet", 1, 1, args.source)
    report = _game_started(lambda: check(record, upto=turn), args.text, args.source)
    if report.verdict == "unsupported":
        column = _action_column(args.text, report.line or 0, record, report.action or "")
        raise RuleNotImplemented(f"{report.problem} (needed by {report.action})", report.line or 0, column,
                                 args.source)
    return report


def cmd_tiles(args: argparse.Namespace) -> int:
    import json

    from .render.terminal import render_tiles
    from .tiles import armies, army

    if args.tile:
        return _tile_card(args)
    if args.army:
        try:
            army(args.army)
        except ValueError:
            # `nhex tiles blocker`: a tile's name where an army's goes; say which armies have it.
            from .tiles import normal_name

            owners = [a.name for a in armies().values()
                      if any(normal_name(args.army) in (t.name, *t.aliases) for t in a.tiles)]
            if owners:
                raise ValueError(f"{args.army!r} is no army but a tile of {', '.join(owners)}: "
                                 f"`nhex tiles {owners[0]} {args.army}` shows its card") from None
            raise
    chosen = [army(args.army)] if args.army else list(armies().values())
    if args.json:
        from .render.tables import tiles_json

        print(json.dumps([entry for a in chosen for entry in tiles_json(a)], indent=1, ensure_ascii=False))
    else:
        console = _console()
        for a in chosen:
            console.print(render_tiles(a))
    return EXIT_OK


def _tile_card(args: argparse.Namespace) -> int:
    """``nhex tiles ARMY TILE``: one tile's card in words, each line with the passage behind it
    (solver/render/tile_card.py); ``--json``: its database entry with the card's lines under ``card``."""
    import json

    from .render.tile_card import card_json, card_lines
    from .tiles import army, tile

    if not args.army:
        _usage("tiles", "name the army before the tile, as in `nhex tiles moloch blocker`")
    chosen = army(args.army)
    try:
        found = tile(f"{chosen.name}:{args.tile}")
    except ValueError as error:
        # Another army's tile (`nhex tiles moloch sniper`): say whose it is rather than guess a spelling.
        from .tiles import armies, normal_name

        owners = [a.name for a in armies().values()
                  if any(normal_name(args.tile) in (t.name, *t.aliases) for t in a.tiles)]
        if owners:
            raise ValueError(f"army {chosen.name} has no tile {args.tile!r}; {', '.join(owners)} "
                             f"{'has' if len(owners) == 1 else 'have'} one") from None
        raise error
    if args.json:
        from .render.tables import tiles_json

        entry = next(e for e in tiles_json(army(found.army)) if e["tile"] == found.key)
        print(json.dumps(entry | {"card": card_json(found)}, indent=1, ensure_ascii=False))
        return EXIT_OK
    from rich.text import Text

    console = _console()
    for number, line in enumerate(card_lines(found)):
        text = Text(line.text, style="bold" if number == 0 else "")
        if line.passage:
            text.append(f"  [{line.passage}]", style="dim")
        console.print(text, overflow="fold")
    return EXIT_OK


def cmd_rules(args: argparse.Namespace) -> int:
    import json

    from .rules import EDITIONS, OPTIONS, rule_option

    chosen = [rule_option(args.name)] if args.name else list(OPTIONS)
    if args.json:
        options = [{"name": o.name, "default": o.default, "choices": list(o.choices), "summary": o.summary,
                    "passage": o.passage, "source": o.source,
                    "editions": {e: {"default": o.default_for(e), "source": o.default_source(e)}
                                 for e in EDITIONS}} for o in chosen]
        print(json.dumps(options[0] if args.name else options, indent=1))
        return EXIT_OK
    if args.name:  # one option, said in full: nothing cut, whatever the width
        o = chosen[0]
        print(f"{o.name}: {o.summary}")
        print(f"  values: {' | '.join(o.choices)}")
        for e in EDITIONS:
            print(f"  default under rules {e}: {o.default_for(e)} (from {o.default_source(e)})")
        print(f"  passage: {o.passage}")
        print(f"  set it in a file: rules {EDITIONS[0]} {o.name}={next(c for c in o.choices if c != o.default)}")
        return EXIT_OK
    from .render.terminal import render_rules

    _console().print(render_rules(OPTIONS, EDITIONS))
    return EXIT_OK


def cmd_battle(args: argparse.Namespace) -> int:
    import json

    from .engine.battle import resolve
    from .notation.cards import GameRecord
    from .position import Position
    from .render.trace import battle_json, render_battle

    document = _load(args)
    if isinstance(document, GameRecord):
        return _record_battle(document, args)
    if args.turn is not None:
        raise NotationError("--turn is for game records: this file is a position or a puzzle card", 1, 1,
                            args.source)
    position = document.position if not isinstance(document, Position) else document
    outcomes = resolve(position, trace=not args.json or args.trace)
    if args.json:
        print(json.dumps(battle_json(outcomes, trace=args.trace, before=position), indent=1))
        return EXIT_OK
    board: Callable[[Document], RenderableType] | None = None
    if not args.no_board:
        try:
            from .render.terminal import render_document as board
        except ImportError:  # the board picture is optional for a trace
            board = None
    _console().print(render_battle(position, outcomes, board))
    return EXIT_OK


def _record_battle(record: GameRecord, args: argparse.Namespace) -> int:
    """``nhex battle RECORD --turn N``: the battles fought in turn N, from the position each began in, traced as
    ``nhex battle`` traces a position. Several when the board stays full or the Final Battle follows."""
    import json

    from rich.console import Group
    from rich.text import Text

    from .engine.battle import resolve
    from .render.trace import battle_json, render_battle

    if args.turn is None:
        raise NotationError("a game record: name the turn whose battle to show with --turn N"
                            + _battle_turns_hint(record, args), 1, 1, args.source)
    report = _replayed(record, args.turn, args)
    fought = [f for f in report.state.fought if f.turn == args.turn]
    if not report.ok:
        print(report.fault(args.source), file=sys.stderr)
        if not (report.verdict == "undecidable" and fought):
            return EXIT_NO  # a turn up to N cannot be played: the game never reaches the battle asked for
        # The battle asked for is the one whose outcome the record cannot settle: shown with every outcome.
    if not fought:
        line = next((e.line for e in record.entries if getattr(e, "number", None) == args.turn), 1)
        raise NotationError(f"--turn {args.turn}: no battle is fought in turn {args.turn}"
                            + _battle_turns_hint(record, args), line, 1, args.source)
    battles = [(f, tuple(map(f.settled, resolve(f.before, trace=not args.json or args.trace)))) for f in fought]
    if args.json:
        print(json.dumps({"turn": args.turn, "battles": [
            {"why": f.why, **battle_json(outcomes, trace=args.trace, before=f.before)} for f, outcomes in battles]},
            indent=1))
        return EXIT_OK
    board: Callable[[Document], RenderableType] | None = None
    if not args.no_board:
        from .render.terminal import render_document as board
    parts: list[RenderableType] = []
    for number, (f, outcomes) in enumerate(battles, start=1):
        count = f" ({number} of {len(battles)})" if len(battles) > 1 else ""
        parts.append(Text(f"The battle of turn {args.turn}{count}: {f.why}", style="bold"))
        if board is not None:
            parts += [Text("The board as the battle begins", style="dim"), board(f.before)]
        parts.append(render_battle(f.before, outcomes, board))
    _console().print(Group(*parts))
    return EXIT_OK


def _battle_turns_hint(record: GameRecord, args: argparse.Namespace) -> str:
    """``; battles are fought in turns 4, 9`` (or that the record has none), for a message asking for a turn."""
    from .turns.game import check

    try:
        report = _game_started(lambda: check(record), args.text, args.source)
    except RuleNotImplemented:
        return ""
    turns = list(dict.fromkeys(f.turn for f in report.state.fought))
    if not turns:
        return "; the record has no battle" + ("" if report.ok else f" before its fault at line {report.line}")
    return f"; battles are fought in turn{'s' if len(turns) > 1 else ''} {', '.join(map(str, turns))}"


def _battle_arguments(command: argparse.ArgumentParser) -> None:
    _file_argument(command)
    command.add_argument("--turn", type=_natural, metavar="N",
                         help="a game record: the battle fought in turn N, from the position it began in")
    command.add_argument("--json", action="store_true", help="print JSON (NOTATION §9)")
    command.add_argument("--no-board", action="store_true", help="print the trace without the final board")
    command.add_argument("--trace", action="store_true",
                         help="every event, how each hit was made: the text output is always this trace; with "
                              "--json, add it to each outcome")


def cmd_solve(args: argparse.Namespace) -> int:
    import json

    from rich.progress import BarColumn, MofNCompleteColumn, Progress, TaskID, TextColumn, TimeElapsedColumn

    from .notation.cards import Puzzle
    from .render.report import render_report, report_json
    from .search.solve import Solver

    puzzle = _load(args)
    if not isinstance(puzzle, Puzzle):
        raise NotationError("nhex solve takes a puzzle card (a file that starts with `puzzle`)", 1, 1, args.source)
    console = _console()
    show_progress = not args.json and console.is_terminal
    progress = Progress(TextColumn("{task.description}"), BarColumn(), MofNCompleteColumn(), TimeElapsedColumn(),
                        console=console, transient=True, disable=not show_progress)
    tasks: dict[str, TaskID] = {}
    started = time.monotonic()

    def tick(stage: str, done: int, total: int | None) -> None:
        # The bar appears only on searches longer than a second (issue 5); short ones print just the report.
        if not tasks and time.monotonic() - started < 1.0 and stage == "enumerate":
            return
        if not tasks:
            progress.start()
        if stage not in tasks:
            tasks[stage] = progress.add_task("enumerating plays" if stage == "enumerate"
                                             else "playing out positions", total=total)
        progress.update(tasks[stage], completed=done, total=total)

    solver = Solver(puzzle, jobs=args.jobs, naive=args.naive, max_time=args.max_time,
                    max_solutions=args.max_solutions, tries=args.tries, progress=tick)
    try:
        report = solver.solve()
    finally:
        progress.stop()
    if args.json:
        print(json.dumps(report_json(report, counters_only=args.counters, puzzle=puzzle), indent=1))
    else:
        console.print(render_report(puzzle, report, explain=not args.brief, counters_only=args.counters,
                                    shown=None if args.all else SHOWN_SOLUTIONS))
    if report.stopped:
        return EXIT_LIMIT
    return EXIT_OK if report.solutions else EXIT_NO


def _solve_arguments(command: argparse.ArgumentParser) -> None:
    _file_argument(command)
    command.add_argument("--json", action="store_true", help="print JSON (NOTATION §9, plus verdict and tries)")
    _jobs_argument(command)
    command.add_argument("--tries", type=_natural, default=3, metavar="N",
                         help="show the N strongest failing plays and who refutes them (default 3; 0: none)")
    command.add_argument("--max-time", type=_seconds, default=None, metavar="S", help="stop after S seconds (exit 3)")
    command.add_argument("--max-solutions", type=_positive, default=None, metavar="N",
                         help="stop after N winning plays (exit 3)")
    command.add_argument("--all", action="store_true",
                         help=f"a panel for every winning play (default: the first {SHOWN_SOLUTIONS}, then a list)")
    command.add_argument("--naive", action="store_true", help="no deduplication of orders or facings (benchmarks)")
    command.add_argument("--brief", action="store_true", help="no battle trace under each solution")
    command.add_argument("--counters", action="store_true", help="work counters only, no times (golden reports)")


#: How many winning plays ``nhex solve`` draws in full before it lists the rest one a line (``--all``: every one).
SHOWN_SOLUTIONS = 5


def cmd_solve_all(args: argparse.Namespace) -> int:
    """``nhex solve-all DIR``: every card of a folder solved, one job per card, here or on a Dask cluster
    (solver/search/batch.py); a table (or ``--json``) in the cards' order, whatever ran them."""
    from pathlib import Path

    from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeElapsedColumn

    from .render.listing import Column, Listing
    from .render.report import report_json
    from .search.batch import Journal, card_files, exit_status, key_of, read_cards, solve_all
    from .search.dispatch import ClusterLost, fingerprint, open_dispatcher
    from .streams import write_atomically

    _scheduler_ready("solve-all", args.scheduler)
    jobs = read_cards(card_files(args.dir, recursive=args.recursive), naive=args.naive, max_time=args.max_time,
                      max_solutions=args.max_solutions)
    if args.out is not None:
        _writable_file(args.out, "out", command="solve-all")
    # --out: rows already solved by an interrupted run of the same batch are taken from its journal (batch.Journal)
    journal = Journal(args.out) if args.out is not None else None
    keys = [Journal.key(job, fingerprint()) for job in jobs] if journal is not None else []
    solved: dict[int, dict] = {}
    if journal is not None:
        solved = {index: row for index, key in enumerate(keys) if (row := journal.solved(key)) is not None}
    todo = [index for index in range(len(jobs)) if index not in solved]
    where = {jobs[index].file: index for index in todo}
    stopped: str | None = None
    console = _console()
    with Progress(TextColumn("{task.description}"), BarColumn(), MofNCompleteColumn(), TimeElapsedColumn(),
                  console=console, transient=True, disable=args.json or not console.is_terminal) as progress:
        task = progress.add_task("solving cards", total=len(jobs), completed=len(solved))
        if len(todo) == 1 and args.scheduler is None:  # one card: its positions spread over the cores instead
            from dataclasses import replace

            jobs[todo[0]] = replace(jobs[todo[0]], jobs=args.jobs or _cores())

        def came_back(row: dict) -> None:
            index = where[row["file"]]
            solved[index] = row
            if journal is not None:
                journal.add(keys[index], row)
            progress.advance(task)

        try:
            if todo:
                with open_dispatcher(min(args.jobs or _cores(), len(todo)), args.scheduler,
                                     wait_workers=_wait_workers(args), say=lambda m: _say(f"nhex: {m}")) as dispatcher:
                    solve_all([jobs[index] for index in todo], dispatcher, report_json, on_row=came_back)
        except ClusterLost as error:
            stopped = str(error)
        finally:
            if journal is not None:
                journal.close(complete=stopped is None and len(solved) == len(jobs))
    rows = [solved[index] for index in sorted(solved)]
    if stopped is not None:
        kept = f"; the {len(rows)} solved are kept in {journal.path}" if journal is not None else ""
        _say(f"nhex: {stopped}: {len(rows)} of {len(jobs)} cards solved{kept}")
    for row in rows:
        if row["status"] == EXIT_NOT_IMPLEMENTED:
            _say(RuleNotImplemented(row["rule"], row["line"], row["column"]).located(row["file"], *_rule_place(row)))
        if args.counters:
            row.pop("seconds", None)
    if stopped is None and args.out is not None:  # as --json prints it (--counters: without times)
        import json

        write_atomically(args.out, json.dumps(rows, indent=1) + "\n")
    if args.json:
        import json

        print(json.dumps(rows, indent=1))
        return max(exit_status(rows), EXIT_LIMIT if stopped else EXIT_OK)
    verdicts = [("not implemented" if r["status"] == EXIT_NOT_IMPLEMENTED else "stopped" if r.get("stopped")
                 else str(r["verdict"])) for r in rows]
    tally = ", ".join(f"{verdicts.count(v)} {v}" for v in dict.fromkeys(verdicts))
    columns = (Column("card", "name"), Column("verdict", style="bold"), Column("key", "key"), Column("plays", "number"),
               Column("positions", "number"), *(() if args.counters else (Column("seconds", "number"),)))
    cells = []
    for row, verdict in zip(rows, verdicts):
        name = Path(row["file"])
        name = name.relative_to(args.dir) if name.is_relative_to(args.dir) else name
        cell = [str(name), verdict.upper(), key_of(row), str(row.get("searched", "")), str(row.get("positions", ""))]
        if not args.counters:
            cell.append(f"{row['seconds']:.2f}" if "seconds" in row else "")
        cells.append(tuple(cell))
    # A file name and a key's words are never cut: a table where it fits, a block per card where not.
    table = Listing(f"{len(rows)} card{'s' if len(rows) != 1 else ''} in {args.dir}", columns, tuple(cells), tally)
    console.print(table)
    return max(exit_status(rows), EXIT_LIMIT if stopped else EXIT_OK)


def _rule_place(row: dict) -> tuple[int, int] | tuple[()]:
    """Where a card needs a missing rule, when the engine did not say: the first unit line of a tile the rule
    names (as ``nhex solve`` reports it), else ``FILE:0:0``."""
    if row["line"]:
        return ()
    from pathlib import Path

    located = _not_implemented(RuleNotImplemented(row["rule"]),
                               argparse.Namespace(text=Path(row["file"]).read_text(encoding="utf-8-sig"),
                                                  source=row["file"]))
    line, column = located[len(row["file"]) + 1:].split(":")[:2]
    return int(line), int(column)


def _solve_all_arguments(command: argparse.ArgumentParser) -> None:
    command.add_argument("dir", metavar="DIR", help="a folder of puzzle cards (*.nhex)")
    command.add_argument("-r", "--recursive", action="store_true", help="also the cards in its sub-folders")
    command.add_argument("--json", action="store_true",
                         help="print a JSON array: one `nhex solve --json` object per card, with file and status")
    _jobs_argument(command)
    _scheduler_argument(command)
    command.add_argument("--max-time", type=_seconds, default=None, metavar="S",
                         help="stop each card after S seconds (its status: 3)")
    command.add_argument("--max-solutions", type=_positive, default=None, metavar="N",
                         help="stop each card after N winning plays (its status: 3)")
    command.add_argument("--naive", action="store_true", help="no deduplication of orders or facings (benchmarks)")
    command.add_argument("--counters", action="store_true", help="work counters only, no times (comparable runs)")
    command.add_argument("--out", metavar="FILE", default=None,
                         help="also write the JSON array to FILE, whole at the end; an interrupted batch run again "
                              "solves only the cards it had not (kept in FILE.partial)")
    _wait_workers_argument(command)


def _scheduler_argument(command: argparse.ArgumentParser) -> None:
    """``--scheduler``, the same for every command that can run its jobs on a Dask cluster (solver/search/dispatch.py)."""
    command.add_argument("--scheduler", default=None, metavar="ADDRESS",
                         help="run the jobs on this Dask cluster (tcp://HOST:8786, or a scheduler file) instead of "
                              "local processes; needs pip install 'nhex[distributed]'")


def _wait_workers_argument(command: argparse.ArgumentParser) -> None:
    """``--wait-workers``: how long a Dask cluster may be left without workers (solver/search/dispatch.py)."""
    command.add_argument("--wait-workers", type=_seconds, default=None, metavar="S",
                         help="with --scheduler: give up after S seconds with no worker in the cluster (default "
                              "600); what was done is kept, exit 3")


def _wait_workers(args: argparse.Namespace) -> float:
    from .search.dispatch import WAIT_WORKERS

    return WAIT_WORKERS if args.wait_workers is None else float(args.wait_workers)


def _scheduler_ready(command: str, address: str | None) -> None:
    """A usage error (exit 2) before any work when ``--scheduler`` is given without Dask installed."""
    if address is None:
        return
    import importlib.util

    if importlib.util.find_spec("distributed") is None:
        _usage(command, f"--scheduler {address}: Dask is not installed; pip install 'nhex[distributed]'")


def _read_document(path: str) -> tuple[Document, str, str]:
    """The document, its text and the name errors give it (one reader for every command: notation.read_source)."""
    import gc

    # The modules a start imports and the document's parse allocate much and free little: a cyclic collection finds
    # nothing to free and costs a start about 5% (issue 10), so it waits until the document is read.
    collecting = gc.isenabled()
    gc.disable()
    try:
        from .notation.text import parse, read_source

        text, source = read_source(path)
        return parse(text, source), text, source
    finally:
        if collecting:
            gc.enable()


def cmd_moves(args: argparse.Namespace) -> int:
    import json

    from .turns.game import moves_listing

    army, position = _side_to_move(_load(args), args.source,
                                   "nhex moves takes a position or a puzzle card, not a game record")
    groups = moves_listing(position, army)
    if args.json:
        print(json.dumps([line for _, lines in groups for line in lines], indent=1))
        return EXIT_OK
    hand = " ".join(t.key for t in position.hand(army)) or "nothing"
    print(f"{army} to move, holding {hand}: {sum(len(lines) for _, lines in groups)} legal actions")
    for title, lines in groups:
        print(f"{title} ({len(lines)})")
        for line in lines:
            print(f"  {line}")
    return EXIT_OK


def _json_file_arguments(command: argparse.ArgumentParser) -> None:
    _file_argument(command)
    command.add_argument("--json", action="store_true", help="print a JSON array of action lines")


def _side_to_move(document: Document, source: str, not_a_record: str) -> tuple[str, Position]:
    """The army that acts and the position it acts in: a puzzle card's player holding the offer, or a position's
    side to move (``nhex moves``, ``nhex check --action``); a game record is refused with ``not_a_record``."""
    from .notation.cards import Puzzle
    from .position import Position

    if isinstance(document, Puzzle):
        return document.player, _with_hand(document.position, document.player, document.offer)
    if not isinstance(document, Position):
        raise NotationError(not_a_record, 1, 1, source)
    if document.to_move is None:
        raise NotationError("nobody is to move: add `to-move ARMY`", 1, 1, source)
    return document.to_move, document


def _with_hand(position: Position, army: str, tiles: Iterable[Tile]) -> Position:
    from dataclasses import replace

    hands = tuple((name, held) for name, held in position.hands if name != army) + ((army, tuple(tiles)),)
    return replace(position, hands=hands, to_move=army)


def cmd_check(args: argparse.Namespace) -> int:
    import json

    from .notation.cards import GameRecord, Puzzle
    from .turns.game import check, check_play, game_json, position_problems

    document = _load(args)
    text, source = args.text, args.source
    position = document.position if isinstance(document, (GameRecord, Puzzle)) else document
    for statement, army, message in position_problems(position):
        line, column = _statement_place(text, statement, army)
        raise NotationError(message, line, column, source)
    if args.action:
        return _check_actions(document, args)
    if isinstance(document, GameRecord):
        report = _game_started(lambda: check(document), text, source)
        if report.verdict == "unsupported":
            column = _action_column(text, report.line or 0, document, report.action or "")
            raise RuleNotImplemented(f"{report.problem} (needed by {report.action})", report.line or 0, column,
                                     source)
        if args.json:
            state = report.state
            result: dict[str, object] = {"winner": None, "draw": state.result == "draw"}
            if state.result not in (None, "draw"):
                result["winner"] = state.result
            data: dict = {"verdict": report.verdict, "turns": report.turns, "battles": state.battles,
                          "hq": dict(state.hq), "over": state.result is not None, **result}
            data |= game_json(state)  # winners, score, hires (NOTATION §10.7 and README extensions)
            if not report.ok:
                data |= {"line": report.line, "action": report.action, "rule": report.problem}
            print(json.dumps(data, indent=1))
        else:
            print(report.summary() if report.ok else report.fault(source))
        return EXIT_OK if report.ok else EXIT_NO
    if isinstance(document, Puzzle) and document.solution:
        fault = check_play(_with_hand(position, document.player, document.offer), document.player,
                           document.solution, document.tiles_to_play)
        if fault is not None:
            index, action, rule = fault
            line = _solution_line(text, index)
            if args.json:
                print(json.dumps({"verdict": "illegal", "line": line, "action": action, "rule": rule}, indent=1))
            else:
                print(f"{source}:{line}: {action}: illegal: {rule}")
            return EXIT_NO
        if args.json:
            print(json.dumps({"verdict": "consistent", "solution_actions": len(document.solution)}, indent=1))
        else:
            print(f"consistent; the solution's {len(document.solution)} action(s) are legal")
        return EXIT_OK
    counts = {a: sum(1 for u in position.units if u.army == a) for a in position.armies}
    if args.json:
        print(json.dumps({"verdict": "consistent", "units": counts, "to_move": position.to_move,
                          "hq": {u.army: u.hp for u in position.units if u.is_hq}}, indent=1))
        return EXIT_OK
    if not position.units and not position.foundations:
        print("consistent: an empty position (no units)"
              + (f", {position.to_move} to move" if position.to_move else ""))
        return EXIT_OK
    armies = ", ".join(f"{a} {n}" for a, n in counts.items())
    print(f"consistent: {len(position.units)} unit{'s' if len(position.units) != 1 else ''} ({armies or 'none'})"
          + (f", {position.to_move} to move" if position.to_move else ""))
    return EXIT_OK


def _check_actions(document: Document, args: argparse.Namespace) -> int:
    """``nhex check POSITION --action "ACTION"``: whether the side to move may take these actions, in order, from
    this position (a card: its player, holding the offer, within its ``play N``). Exit 0 legal, 1 illegal with
    the rule it breaks. The position is taken as it stands: its hand is what the player holds now."""
    import json

    from .notation.cards import Puzzle
    from .notation.text import parse_action
    from .turns.game import check_play

    army, position = _side_to_move(document, args.source,
                                   "--action takes a position or a puzzle card; for a game record, print its "
                                   "position after turn N with `nhex fmt RECORD --turn N` and check that")
    limit = document.tiles_to_play if isinstance(document, Puzzle) else None
    plays = [parse_action(written, army, f"--action {index}" if len(args.action) > 1 else "--action")
             for index, written in enumerate(args.action, start=1)]
    fault = check_play(position, army, plays, limit)
    if args.json:
        data: dict[str, object] = {"verdict": "legal" if fault is None else "illegal", "army": army,
                                   "actions": [str(a) for a in plays]}
        if fault is not None:
            data |= {"index": fault[0] + 1, "action": fault[1], "rule": fault[2]}
        print(json.dumps(data, indent=1))
    elif fault is None:
        print(f"legal for {army}: " + "; ".join(str(a) for a in plays))
    else:
        before = f" (after {'; '.join(str(a) for a in plays[:fault[0]])})" if fault[0] else ""
        print(f"illegal for {army}: {fault[1]}{before}: {fault[2]}")
    return EXIT_OK if fault is None else EXIT_NO


def cmd_campaign(args: argparse.Namespace) -> int:
    """``nhex campaign FILE...``: game records of a campaign's scenarios, in order (solver/turns/campaign.py)."""
    import json

    from .turns import campaign
    from .notation.cards import GameRecord

    records = []
    for path in args.files:
        document, _, source = _read_document(path)
        if not isinstance(document, GameRecord):
            raise NotationError("nhex campaign takes the game records of the scenarios, in order", 1, 1, source)
        records.append((source, document))
    report = campaign.play(records)
    fault = report.fault
    if fault is not None and fault.verdict == "unsupported":
        raise RuleNotImplemented(fault.rule, fault.line, 1, fault.source)
    if args.json:
        print(json.dumps(campaign.report_json(report), indent=1))
    else:
        print(campaign.summary(report))
        if fault is not None:
            print(f"{fault.source}:{fault.line}: {fault.what}: {fault.verdict}: {fault.rule}")
    return EXIT_OK if report.ok else EXIT_NO


def _campaign_arguments(command: argparse.ArgumentParser) -> None:
    command.add_argument("files", nargs="+", metavar="FILE", help="the game record of each scenario, in order")
    command.add_argument("--json", action="store_true", help="print JSON: each scenario's HQs, injuries and winner")


def _check_arguments(command: argparse.ArgumentParser) -> None:
    _file_argument(command)
    command.add_argument("--json", action="store_true",
                         help="print JSON: verdict, turns, battles, hq, winner or draw, and the first fault's line")
    command.add_argument("--action", action="append", metavar="ACTION",
                         help="a position or card: is this action legal for the side to move (exit 0 legal, 1 "
                              "illegal, with the rule)? Repeat it for several actions in order")


_R = TypeVar("_R")


def _game_started(run: Callable[[], _R], text: str, source: str) -> _R:
    """``run()``, which starts a game record: a start position that does not fit the players (a unit of no
    player) is bad input at that unit's line, and a game nhex cannot play (3 or 4 players) is exit 4 at the
    ``players`` line."""
    try:
        return run()
    except RuleNotImplemented as error:
        if not error.line:
            error.line, error.column = _players_place(text)
        raise
    except ValueError as error:
        if isinstance(error, NotationError):
            raise
        raise NotationError(str(error), *_unit_place(text, str(error)), source) from None


def _players_place(text: str) -> tuple[int, int]:
    for number, line in enumerate(text.splitlines(), start=1):
        if line.split("#")[0].strip().lower().startswith("players"):
            return number, len(line) - len(line.lstrip()) + 1
    return 1, 1


def _unit_place(text: str, message: str) -> tuple[int, int]:
    """Line and column of the unit line on the hex a message names (``... on c3 ...``), else 1, 1."""
    import re

    found = re.search(r" on ([a-e][1-5]|\(-?\d+,-?\d+\))", message)
    if found:
        for number, line in enumerate(text.splitlines(), start=1):
            words = line.split()
            if words and words[0].lower().replace(" ", "") == found.group(1):
                return number, len(line) - len(line.lstrip()) + 1
    return 1, 1


def _action_column(text: str, line: int, record: GameRecord, action: str) -> int:
    """The column of ``action`` in the turn line ``line`` of a game record (1: the turn, when it is not found)."""
    from .notation.cards import Turn

    lines = text.splitlines()
    turn = next((e for e in record.entries if isinstance(e, Turn) and e.line == line), None)
    if turn is None or not 0 < line <= len(lines):
        return 1
    written = [str(a) for a in turn.actions]
    if action not in written:
        return 1
    row = lines[line - 1]
    offset = row.find(":") + 1
    for index, part in enumerate(row[offset:].split("#")[0].split(";")):
        if index == written.index(action):
            return offset + len(part) - len(part.lstrip()) + 1
        offset += len(part) + 1
    return 1


def _statement_place(text: str, statement: str, army: str) -> tuple[int, int]:
    """Line and column of the first ``STATEMENT ARMY`` line of ``text`` (1, 1 when there is none)."""
    import re

    pattern = re.compile(rf"^\s*{statement}\s+{re.escape(army)}\b", re.IGNORECASE)
    for number, line in enumerate(text.splitlines(), start=1):
        if pattern.match(line):
            return number, len(line) - len(line.lstrip()) + 1
    return 1, 1


def _solution_line(text: str, index: int) -> int:
    """The line of the ``index``-th action after a puzzle's ``solution`` statement."""
    lines = text.splitlines()
    start = next(i for i, line in enumerate(lines) if line.split("#")[0].strip().lower() == "solution")
    count = -1
    for i in range(start + 1, len(lines)):
        if lines[i].split("#")[0].strip():
            count += 1
            if count == index:
                return i + 1
    return start + 1


def cmd_generate(args: argparse.Namespace) -> int:
    """``nhex generate``: new cards with exactly one winning play, written to a folder (docs/GENERATOR.md).

    Each card is written the moment it is decided, whole (a temporary file renamed into place), its pictures
    first and the card last: a card file in the folder is a card whose files are all there. Run again after an
    interruption, the same command keeps the cards already written (checked, not trusted) and makes the rest."""
    import json
    import os
    from pathlib import Path

    from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeElapsedColumn

    from .render.card_svg import save
    from .render.listing import Column, Listing
    from .search.dispatch import ClusterLost
    from .search.generate import NoCard, card_text, file_name, file_prefix, generate, stored_cards
    from .streams import StreamFailure, reason, write_atomically

    _scheduler_ready("generate", args.scheduler)
    out = Path(args.out)
    if out.exists() and not out.is_dir():
        _usage("generate", f"-o {args.out}: is a file; -o names the folder the cards go to")
    try:
        out.mkdir(parents=True, exist_ok=True)
        names = [entry.name for entry in os.scandir(out)]
    except OSError as error:
        raise StreamFailure(f"cannot use the folder {args.out}: {reason(error)}") from None
    if not os.access(out, os.W_OK):  # said now, not after the first card's hours of work
        raise StreamFailure(f"cannot write in the folder {args.out}: Permission denied")
    earlier = stored_cards(names, args.player, args.opponent, args.level, args.seed)
    for name in names:  # what a run killed while writing a card left of it (streams.write_atomically's temporary)
        if name.startswith(f".{file_prefix(args.player, args.opponent, args.level, args.seed)}") \
                and name.endswith(".part"):
            (out / name).unlink(missing_ok=True)
    del names

    def stored(index: int) -> tuple[int, str] | None:
        """The card an earlier run wrote for card ``index`` (its lowest attempt), read for the check."""
        for attempt, name in earlier.get(index, ()):
            try:
                return attempt, (out / name).read_text(encoding="utf-8")
            except (OSError, UnicodeDecodeError):
                continue  # unreadable: made again
        return None

    console = _console()
    columns = (TextColumn("{task.description}"), BarColumn(), MofNCompleteColumn(), TimeElapsedColumn(),
               TextColumn("[dim]{task.fields[drafts]} drafts played out"))
    written: list[dict[str, Any]] = []
    rows: list[tuple[str, ...]] = []
    started = time.perf_counter()

    def files_of(path: Path) -> tuple[Path, Path, Path]:
        """A card's file, and with --svg its front and back pictures."""
        return path, path.with_suffix(".svg"), path.with_name(path.stem + "-solution.svg")

    # Without the bar (not a terminal, or --json), lines on standard error say what the run is doing (issue 26:
    # a log or a pipe saw minutes of silence): a first line, one per card, and one a minute while none comes.
    logging = args.json or not console.is_terminal
    if logging:
        _say(f"nhex generate: {args.count} level-{args.level} {args.player} card{'s' if args.count != 1 else ''} "
             f"against {args.opponent} (seed {args.seed}, {args.jobs or _cores()} jobs) into {out}; a card may "
             "take minutes")
    with Progress(*columns, console=console, transient=True, disable=logging) as progress:
        task = progress.add_task(f"level-{args.level} {args.player} cards", total=args.count, drafts=0)

        def write_card(made: Any) -> None:
            """A card decided (card N of the run, in order): written (its pictures, then the card), and the files
            an earlier run left for that card under another attempt's name removed."""
            path = out / file_name(made)
            card, front, back = files_of(path)
            pictures = (front, back) if args.svg else ()
            for target in (card, *pictures):  # said before anything is written (issue 25: a folder named .svg)
                if target.is_dir():
                    raise StreamFailure(f"cannot write {target}: it is a folder")
            for target, back_side in zip(pictures, (False, True)):
                save(made.puzzle, str(target), solution=back_side)
            if not made.kept:
                write_atomically(card, card_text(made))
            index = len(written)
            for _, name in earlier.pop(index, ()):
                if name != card.name:
                    for stale in files_of(out / name):
                        stale.unlink(missing_ok=True)
            progress.update(task, completed=index + 1)
            key = "; ".join(str(a) for a in made.puzzle.solution or ())
            drafts = "kept" if made.kept else str(made.candidates)
            rows.append((card.name, key, ", ".join(made.grade.ideas) or "one tile", str(made.grade.plays),
                         str(made.grade.near_misses), drafts))
            written.append({"file": str(card), "level": made.puzzle.level,
                            "key": [str(a) for a in made.puzzle.solution or ()], "ideas": list(made.grade.ideas),
                            "plays": made.grade.plays, "near_misses": made.grade.near_misses,
                            "drafts": made.candidates, "kept": made.kept})
            if logging:
                # One line per card for logs and pipes (the bar is drawn only on a terminal).
                heard[0] = time.perf_counter()
                what = ("kept from an earlier run" if made.kept else
                        f"{made.grade.plays} plays; {made.candidates} drafts; {made.seconds:.0f} s")
                _say(f"card {index + 1}/{args.count}: {card} ({', '.join(made.grade.ideas) or 'one tile'}; "
                     f"{what}; {time.perf_counter() - started:.0f} s in all)")

        heard = [time.perf_counter()]  # when the last line was written

        def drafts(count: int) -> None:
            progress.update(task, drafts=count)
            now = time.perf_counter()
            if logging and now - heard[0] >= HEARTBEAT_SECONDS:
                heard[0] = now
                _say(f"… {len(written)}/{args.count} cards, {count} drafts played out, {now - started:.0f} s")

        status = EXIT_OK
        try:
            generate(args.player, args.opponent, args.level, args.count, args.seed, jobs=args.jobs or _cores(),
                     on_card=write_card, on_drafts=drafts, scheduler=args.scheduler, stored=stored,
                     wait_workers=_wait_workers(args), say=lambda message: _say(f"nhex: {message}"))
        except (NoCard, ClusterLost) as error:
            made = f"{len(written)} cards made so far are" if len(written) != 1 else "1 card made so far is"
            _say(f"nhex: {error}; the {made} in {out}, and the same command run again goes on from there")
            status = EXIT_LIMIT
    # A file name and a key's words are never cut: a table where it fits, a block per card where not.
    table = Listing(f"{len(written)} new level-{args.level} cards in {out}",
                    (Column("file", "name"), Column("key", "key"), Column("needs"), Column("plays", "number"),
                     Column("near misses", "number"), Column("drafts", "number")), tuple(rows))
    if args.json:
        print(json.dumps(written, indent=1))
    elif status == EXIT_OK or written:
        console.print(table)
    return status


#: How often ``nhex generate`` without its bar says it is still at work (seconds).
HEARTBEAT_SECONDS = 60.0

#: The armies ``nhex generate`` makes cards for: ``solver.search.generate.ARMIES``, written out here so that building
#: the argument parser does not import the generator (0.2 s); tests/test_cli.py checks the two agree.
GENERATE_ARMIES = ("moloch", "outpost", "borgo", "hegemony", "smart", "vegas", "new-york", "neojungle", "doomsday")


def _generate_arguments(command: argparse.ArgumentParser) -> None:
    ARMIES = GENERATE_ARMIES
    command.add_argument("--player", required=True, choices=ARMIES, help="the army that plays the card")
    command.add_argument("--opponent", required=True, choices=ARMIES, help="the army it plays against")
    command.add_argument("--level", type=int, required=True, choices=(1, 2, 3, 4), help="difficulty, 1 to 4")
    command.add_argument("--count", type=_positive, default=1, metavar="K", help="how many cards (default 1)")
    command.add_argument("--seed", default="0", metavar="S", help="random seed: the same seed gives the same cards")
    command.add_argument("-o", "--out", default=".", metavar="DIR", help="folder to write the cards to")
    _jobs_argument(command)
    _scheduler_argument(command)
    command.add_argument("--json", action="store_true",
                         help="print JSON: one object per card (file, key, ideas, plays, near misses, drafts)")
    command.add_argument("--svg", action="store_true", help="also draw each card, front and back, as SVG")
    _wait_workers_argument(command)


def cmd_card(args: argparse.Namespace) -> int:
    """``nhex card``: the printable picture of a puzzle card (SVG, or PNG by the file name), or of any position or
    game record (the board after its last turn, or after ``--turn N``)."""
    if args.pdf or args.sheets:
        return _print_cards(args)
    document = _load(args)
    if not args.svg and not args.png:
        raise NotationError("say where to draw the card: --svg OUT.svg or --png OUT.png, or print a set with "
                            "--pdf OUT.pdf", 1, 1, args.source)
    _check_targets(args, "card")
    _write_picture(args, _picture(args, document))
    return EXIT_OK


def _check_targets(args: argparse.Namespace, command: str) -> None:
    """``--svg``/``--png`` name files that can be written (``--svg -``: standard output; a PNG needs a file)."""
    if args.png == "-" or (args.svg == "-" and args.png):
        _usage(command, "--png - is not supported (a PNG on a terminal is noise): name a file, or use --svg -")
    for target, kind in ((args.svg, "svg"), (args.png, "png")):
        if target and target != "-":
            _writable_file(target, kind, command)


def _picture(args: argparse.Namespace, document: Document) -> Any:
    """The SVG drawing of a document: a puzzle card's front (``--solution``: its back), a position, or a game
    record after its last turn (``--turn N``: after turn N), replayed by the checker (solver/turns/replay.py)."""
    from pathlib import Path

    from .mirror import seats_of
    from .notation.cards import GameRecord, Puzzle
    from .render.card_svg import card_svg, position_svg, position_words

    solution = getattr(args, "solution", False)
    if isinstance(document, Puzzle):
        if args.turn is not None:
            raise NotationError("--turn is for game records: this file is a puzzle card", 1, 1, args.source)
        return card_svg(document, solution=solution)
    if solution:
        raise NotationError("--solution draws the back of a puzzle card: this file is a "
                            + ("game record" if isinstance(document, GameRecord) else "position"), 1, 1, args.source)
    name = "standard input" if args.file == "-" else Path(args.file).name
    if isinstance(document, GameRecord):
        done = _board_after(document, args.turn, args.text, args.source)
        lines = position_words(done.state.position, winners=done.state.winners)
        if done.fault:
            lines.append(done.fault)
        return position_svg(done.state.position, f"{name}, {done.title}",
                            subtitle="Game record · " + " · ".join(document.players),
                            lines=lines, seats=seats_of(done.state.position, document.players))
    if args.turn is not None:
        raise NotationError("--turn is for game records: this file is a position", 1, 1, args.source)
    return position_svg(document, name, subtitle="Position", lines=position_words(document))


def _write_picture(args: argparse.Namespace, picture: Any) -> None:
    """Write ``picture`` to ``--svg`` (``-``: standard output) and ``--png``."""
    if args.svg == "-":
        sys.stdout.write(picture.as_svg())
    from .render.card_svg import picture_bytes
    from .streams import write_atomically

    for target, kind in ((args.svg, "svg"), (args.png, "png")):  # each whole or not at all; cannot write: exit 5
        if target and target != "-":
            write_atomically(target, picture_bytes(picture, png=kind == "png"))


def _print_cards(args: argparse.Namespace) -> int:
    """``nhex card DIR --pdf OUT.pdf`` (or ``--sheets DIR``): every puzzle card of a folder (or one card file),
    fronts and backs laid out on A4 pages for printing (solver/render/print_sheet.py)."""
    from pathlib import Path

    from .notation.cards import Puzzle
    from .render.print_sheet import page_svgs, write_pdf

    if args.svg or args.png or args.solution:
        _usage("card", "--pdf and --sheets print fronts and backs: they take no --svg, --png or --solution")
    from .search.batch import card_files

    source = Path(args.file)
    files = card_files(args.file) if source.is_dir() else [source]
    if not files:
        _usage("card", f"{args.file}: no .nhex cards in this folder")
    puzzles = []
    for path in files:
        args.file = str(path)
        document = _load(args)
        if not isinstance(document, Puzzle):
            raise NotationError("nhex card takes puzzle cards (files that start with `puzzle`)", 1, 1, args.source)
        puzzles.append(document)
    if args.pdf:
        _writable_file(args.pdf, "pdf")
        pages = write_pdf(puzzles, args.pdf)  # whole or not at all; one that cannot be written: exit 5
        print(f"{len(puzzles)} cards on {pages} pages (fronts, then backs for turning over the long edge): "
              f"{args.pdf}")
    if args.sheets:
        folder = Path(args.sheets)
        if folder.exists() and not folder.is_dir():
            _usage("card", f"--sheets {args.sheets}: is a file; --sheets names a folder")
        from .streams import StreamFailure, reason, write_atomically

        try:
            folder.mkdir(parents=True, exist_ok=True)
        except OSError as error:
            raise StreamFailure(f"cannot make the folder {folder}: {reason(error)}") from None
        svgs = page_svgs(puzzles)
        for number, svg in enumerate(svgs, start=1):
            write_atomically(folder / f"page-{number:02d}.svg", svg)
        print(f"{len(puzzles)} cards on {len(svgs)} pages: {folder}/page-01.svg ...")
    return EXIT_OK


def _usage(command: str, message: str) -> None:
    """A wrong option value found after parsing: reported like argparse's own (``nhex COMMAND: error: ...``),
    exit status 2."""
    _say(f"nhex {command}: error: {message}")
    raise SystemExit(EXIT_BAD_INPUT)


def _writable_file(target: str, kind: str, command: str = "card") -> None:
    """``target`` can be written as a file: not a folder, its folder exists, and a PNG's name says so."""
    from pathlib import Path

    path = Path(target)
    try:
        path.is_dir() and path.parent.is_dir()
    except OSError as error:  # a folder on the way the user may not enter
        from .streams import StreamFailure, reason

        raise StreamFailure(f"cannot write {target}: {reason(error)}") from None
    if path.is_dir() or target.endswith(("/", "\\")):
        _usage(command, f"--{kind} {target}: is a folder; name the {kind.upper()} file to write")
    if not path.parent.is_dir():
        _usage(command, f"--{kind} {target}: the folder {path.parent} does not exist")
    if kind in ("png", "pdf") and path.suffix.lower() != f".{kind}":
        _usage(command, f"--{kind} {target}: a {kind.upper()} file's name ends in .{kind}")


def _card_arguments(command: argparse.ArgumentParser) -> None:
    _file_argument(command)
    command.add_argument("--svg", metavar="OUT", help="write the card as SVG to OUT (- for standard output)")
    command.add_argument("--png", metavar="OUT.png", help="write the card as PNG to OUT.png (needs the cairo library)")
    command.add_argument("--solution", action="store_true", help="draw the back: the key marked, the explanation")
    command.add_argument("--turn", type=_natural, metavar="N",
                         help="a game record: draw the board after turn N (0: the start; default: the last turn)")
    command.add_argument("--pdf", metavar="OUT.pdf",
                         help="FILE may be a folder: print every card in it, fronts and backs on A4 pages, to OUT.pdf")
    command.add_argument("--sheets", metavar="DIR",
                         help="the same pages as --pdf, as SVG files page-01.svg ... in DIR")


def _not_implemented(error: RuleNotImplemented, args: argparse.Namespace) -> str:
    """``FILE:LINE:COLUMN: not implemented yet: RULE`` at the line that needs the rule: where the error knows it,
    else the first unit line whose tile the rule names (``army:tile``, as battle and actions name it), else
    ``FILE:0:0``."""
    import re

    text: str | None = getattr(args, "text", None)
    source: str = getattr(args, "source", None) or getattr(args, "file", None) or "<input>"
    if error.line or text is None:
        return error.located(source)
    from .tiles import KEY_PATTERN, tile

    named = set()
    for key in re.findall(KEY_PATTERN, error.rule):
        try:
            named.add(tile(key))
        except ValueError:
            continue
    for number, line in enumerate(text.splitlines(), start=1):
        words = line.split("#")[0].split()
        for index, word in enumerate(words[:4]):
            if ":" in word and index <= 2:
                try:
                    found = tile(word)
                except ValueError:
                    continue
                if found in named:
                    return error.located(source, number, line.index(word) + 1)
    return error.located(source, 0, 0)


def cmd_completion(args: argparse.Namespace) -> int:
    """``nhex completion SHELL``: a static completion script (solver/completion.py), no cost at start-up."""
    from .completion import script

    sys.stdout.write(script(args.shell, build_parser()))
    return EXIT_OK


def _completion_arguments(command: argparse.ArgumentParser) -> None:
    command.add_argument("shell", choices=("bash", "zsh", "fish"), help="the shell to complete for")


def cmd_serve(args: argparse.Namespace) -> int:
    """``nhex serve``: the board in a browser, over the HTTP API (solver/web/)."""
    from .web.app import serve
    from .web.jobs import Limits

    if args.max_time <= 0:
        _usage("serve", f"--max-time {args.max_time:g}: a solve needs some time; give more than 0 seconds")
    limits = Limits(solve_time=min(20.0, args.max_time), solve_time_cap=args.max_time,
                    **({"solves": args.solves} if args.solves else {}))
    serve(args.host, args.port, args.open, limits)
    return EXIT_OK


def _serve_arguments(command: argparse.ArgumentParser) -> None:
    command.add_argument("--host", default="127.0.0.1", help="the address to listen on (default 127.0.0.1: this "
                         "machine only)")
    command.add_argument("--port", type=_port, default=8000, help="the port (default 8000)")
    command.add_argument("--open", action="store_true", help="open the page in the default browser")
    command.add_argument("--solves", type=_positive, default=None, metavar="N",
                         help="solves at once (default: one a core); more answer 503 with Retry-After")
    command.add_argument("--max-time", type=_seconds, default=120.0, metavar="S",
                         help="the longest a solve may ask for (default 120; a solve asks 20 unless it says)")


def _port(text: str) -> int:
    number = _natural(text)
    if not 0 < number < 65536:
        raise argparse.ArgumentTypeError(f"{text}: a port is 1 to 65535")
    return number


# --- the parser ------------------------------------------------------------------------------------------------


def _file_argument(command: argparse.ArgumentParser) -> None:
    command.add_argument("file", help="a file in the nhex notation, or - for standard input")


def _tiles_arguments(command: argparse.ArgumentParser) -> None:
    command.add_argument("army", nargs="?", help="one army (default: all)")
    command.add_argument("tile", nargs="?", help="one tile of that army: its card, each ability in words with "
                                                 "the rulebook passage")
    command.add_argument("--json", action="store_true", help="print JSON (NOTATION §9)")


def _json_argument(command: argparse.ArgumentParser) -> None:
    command.add_argument("--json", action="store_true", help="print JSON")


def _rules_arguments(command: argparse.ArgumentParser) -> None:
    command.add_argument("name", nargs="?", metavar="NAME",
                         help="one option: its values, its default under each edition and its passage")
    _json_argument(command)


#: name -> (handler, help, arguments). Each sub-command adds one entry here and nothing else to this module.
COMMANDS: dict[str, tuple[Callable[[argparse.Namespace], int], str, Callable[[argparse.ArgumentParser], None]]] = {
    "show": (cmd_show, "draw a position, puzzle card or game record (the board after its last turn)",
             _show_arguments),
    "fmt": (cmd_fmt, "print a file in canonical form (a game record after turn N: its position)", _fmt_arguments),
    "tiles": (cmd_tiles, "list the army database", _tiles_arguments),
    "battle": (cmd_battle, "resolve one battle phase by phase, naming the rule behind each event",
               _battle_arguments),
    "solve": (cmd_solve, "solve a puzzle card: every winning play, or a proof that there is none",
              _solve_arguments),
    "solve-all": (cmd_solve_all, "solve every puzzle card of a folder: a table of verdicts, keys and times",
                  _solve_all_arguments),
    "rules": (cmd_rules, "list the rule options with their defaults and the passages behind them (or one: NAME)",
              _rules_arguments),
    "moves": (cmd_moves, "list the legal actions of the side to move with the tiles in its hand", _json_file_arguments),
    "check": (cmd_check, "replay a game record (or check a position) and report the first illegal action",
              _check_arguments),
    "campaign": (cmd_campaign, "check a campaign's scenarios in order, carrying the HQs' Hit Points, and name its "
                 "winner", _campaign_arguments),
    "generate": (cmd_generate, "write new puzzle cards with exactly one winning play, graded 1 to 4",
                 _generate_arguments),
    "card": (cmd_card, "draw a puzzle card (front, or with --solution the back), a position or a game record as SVG "
                       "or PNG", _card_arguments),
    "completion": (cmd_completion, "print a shell completion script for bash, zsh or fish",
                   _completion_arguments),
    "serve": (cmd_serve, "start the web app: set up a board, battle, solve in a browser", _serve_arguments),
}

#: What each command's exit statuses mean (NOTATION §9), and an example, for its --help.
_COMMON_STATUSES = {
    2: "bad input: FILE:LINE:COLUMN: message on standard error, nothing written",
    4: "the input needs a rule nhex does not implement (named, at FILE:LINE:COLUMN)",
    5: "standard input or output, or a file being written, failed (closed, a full disk, no permission)",
    130: "interrupted (Ctrl-C)",
}
_EPILOGS: dict[str, tuple[dict[int, str], str]] = {
    "show": ({0: "drawn"}, "nhex show puzzles/01-point-blank.nhex\n  nhex show --turn 4 game.nhex\n"
                           "  nhex show position.nhex --png board.png"),
    "fmt": ({0: "printed", 1: "--turn N: a turn up to N is illegal (its fault on standard error)"},
            "nhex fmt messy.nhex > clean.nhex\n  nhex fmt --turn 11 game.nhex > after-11.nhex"),
    "tiles": ({0: "listed"}, "nhex tiles moloch\n  nhex tiles moloch blocker\n  nhex tiles --json | head"),
    "battle": ({0: "resolved", 1: "--turn N: a turn up to N is illegal, so the battle is never fought"},
               "nhex battle tests/data/2e-example-battle.nhex --no-board\n  nhex battle --turn 11 --json game.nhex"),
    "solve": ({0: "solved (SOUND or COOKED)", 1: "no solution",
               3: "stopped at --max-time or --max-solutions: nothing proven\n"
                  "     (JSON: verdict null, the plays found so far under `found`)"},
              "nhex solve puzzles/12-clear-shot.nhex\n  nhex solve --json --max-time 60 card.nhex"),
    "solve-all": ({0: "every card solved (SOUND or COOKED)", 1: "some card has no solution",
                   3: "some card stopped at --max-time or --max-solutions",
                   4: "some card needs a rule nhex does not implement (the others are still solved)"},
                  "nhex solve-all puzzles/\n  nhex solve-all --json --scheduler tcp://10.0.0.5:8786 cards/"),
    "rules": ({0: "listed"}, "nhex rules --json\n  nhex rules clown-hits-hq"),
    "moves": ({0: "listed"}, "nhex moves --json position.nhex"),
    "check": ({0: "legal (a game record) or consistent (a position, a card and its solution; --action: legal)",
               1: "an illegal action, or a false `expect`, at its line (--action: with the rule it breaks)"},
              "nhex check game.nhex\n  nhex check --json puzzles/03-net-drop.nhex\n"
              "  nhex check position.nhex --action 'place runner c4 N'"),
    "campaign": ({0: "every scenario legal and the campaign's winner named",
                  1: "an illegal action, a false `expect`, or a scenario that breaks the campaign (its file and line)"},
                 "nhex campaign s1.nhex s2.nhex s3.nhex s4.nhex s5.nhex\n  nhex campaign --json s1.nhex s2.nhex"),
    "generate": ({0: "the cards were written", 3: "stopped: some card could not be made within its drafts"},
                 "nhex generate --player outpost --opponent moloch --level 2 --count 3 --seed 7 -o cards/"),
    "card": ({0: "drawn"}, "nhex card puzzles/02-long-shot.nhex --svg front.svg\n"
                           "  nhex card puzzles/02-long-shot.nhex --solution --svg - > back.svg\n"
                           "  nhex card game.nhex --turn 12 --png board.png"),
    "serve": ({0: "stopped (Ctrl-C)"}, "nhex serve --open\n  nhex serve --host 0.0.0.0 --port 8731 --solves 2"),
    "completion": ({0: "printed"}, "source <(nhex completion bash)\n"
                                   "  nhex completion fish > ~/.config/fish/completions/nhex.fish"),
}


def _epilog(name: str) -> str:
    own, example = _EPILOGS[name]
    statuses = {**own, **_COMMON_STATUSES}
    lines = "\n".join(f"{code:>3}  {statuses[code]}" for code in sorted(statuses))
    return f"exit status:\n{lines}\n\nexample:\n  {example}"


# --- option values: checked by the parser, so a wrong one is a usage error (exit 2) ------------------------------


def _natural(text: str) -> int:
    """A whole number from 0 up."""
    if not (text.isascii() and text.isdigit()) or len(text) > 9:
        raise argparse.ArgumentTypeError(f"expected a whole number from 0 up, not {text!r}")
    return int(text)


def _positive(text: str) -> int:
    """A whole number from 1 up."""
    value = _natural(text)
    if value < 1:
        raise argparse.ArgumentTypeError(f"expected a whole number from 1 up, not {text!r}")
    return value


def _seconds(text: str) -> float:
    """A finite number of seconds from 0 up."""
    import math

    try:
        value = float(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"expected a number of seconds, not {text!r}") from None
    if not math.isfinite(value) or value < 0:
        raise argparse.ArgumentTypeError(f"expected a number of seconds from 0 up, not {text!r}")
    return value


def _jobs_argument(command: argparse.ArgumentParser) -> None:
    """``--jobs``, the same for every command that spreads work over processes."""
    command.add_argument("--jobs", type=_positive, default=None, metavar="J",
                         help="worker processes (default: every core, %(cores)s here)" % {"cores": _cores()})


def _cores() -> int:
    import os

    return os.cpu_count() or 1


class _Version(argparse.Action):
    """``--version``, looked up only when asked (importlib.metadata alone costs a start 0.05-0.1 s)."""

    def __call__(self, parser: argparse.ArgumentParser, namespace: argparse.Namespace, values: object,
                 option_string: str | None = None) -> None:
        from .resources import version

        print(f"nhex {version()}")
        parser.exit()


def _terminal_columns() -> int:
    """``shutil.get_terminal_size().columns``, without importing shutil: argparse's formatter asks for the width on
    every ``add_argument``, and shutil brings zlib, bz2 and lzma with it, 3 ms of every start (issue 10)."""
    import os

    try:
        columns = int(os.environ.get("COLUMNS", "0"))
    except ValueError:
        columns = 0
    if columns > 0:
        return columns
    try:
        return os.get_terminal_size(sys.__stdout__.fileno()).columns or 80  # type: ignore[union-attr]
    except (AttributeError, ValueError, OSError):
        return 80


class _Formatter(argparse.HelpFormatter):
    """argparse's formatter with the width shutil would give it (see _terminal_columns)."""

    def __init__(self, prog: str, indent_increment: int = 2, max_help_position: int = 24,
                 width: int | None = None) -> None:
        super().__init__(prog, indent_increment, max_help_position,
                         _terminal_columns() - 2 if width is None else width)


class _RawDescriptionFormatter(_Formatter, argparse.RawDescriptionHelpFormatter):
    """A command's help: its description and epilog (the exit statuses, an example) as written."""


class _Parser(argparse.ArgumentParser):
    """argparse's parser, whose usage errors end with "did you mean …" for a mistyped command, option value or
    option (solver/spelling.py); still exit 2."""

    def error(self, message: str) -> NoReturn:
        import re

        from .spelling import did_you_mean

        choice = re.search(r"invalid choice: '(.*?)' \(choose from (.*)\)$", message)
        if choice:
            message += did_you_mean(choice.group(1), re.findall(r"'([^']*)'", choice.group(2)))
        unknown = re.search(r"unrecognized arguments: (.*)$", message)
        if unknown:
            # Matched without their dashes, which every option shares (`--tris` is like `--tries`, not `--counters`).
            flags = {o.lstrip("-"): o for parser in _parsers(self) for action in parser._actions
                     for o in action.option_strings if o.startswith("--")}
            for word in unknown.group(1).split():
                if word.startswith("--"):
                    message += did_you_mean(word.split("=")[0].lstrip("-"), flags).replace("; did", f"; {word}: did", 1)
        super().error(message)


def _parsers(parser: argparse.ArgumentParser) -> list[argparse.ArgumentParser]:
    """The parser and every sub-command's parser under it."""
    found = [parser]
    for action in parser._actions:
        if isinstance(action, argparse._SubParsersAction):
            for sub in action.choices.values():
                found += _parsers(sub)
    return found


def build_parser(only: str | None = None) -> argparse.ArgumentParser:
    """The whole command line; with ``only``, the top level and that one sub-command alone: a start builds what it
    parses, not the eleven sub-commands' parsers (issue 10). What the user sees is the same either way (the top
    level's usage names no command, ``COMMAND``): main builds the whole line for ``--help``, ``--version`` and
    a word that is no command."""
    parser = _Parser(prog="nhex", description="Neuroshima Hex! rules engine and puzzle solver.",
                     formatter_class=_Formatter,
                     epilog="Every command takes a file path, or - for standard input. "
                            "`nhex COMMAND --help` lists its exit statuses and shows an example.")
    parser.add_argument("--version", action=_Version, nargs=0, help="print nhex's version and exit")
    sub = parser.add_subparsers(dest="command", required=True, metavar="COMMAND")
    for name, (_, help_text, add_arguments) in COMMANDS.items():
        if only is not None and name != only:  # only `nhex --help` and a wrong command word list the others
            continue
        add_arguments(sub.add_parser(name, help=help_text, description=help_text, epilog=_epilog(name),
                                     formatter_class=_RawDescriptionFormatter))
    return parser


def _command_word(argv: Sequence[str]) -> str | None:
    """The sub-command ``argv`` names, when its first word is one (else ``None``: options first, or a mistake)."""
    return argv[0] if argv and argv[0] in COMMANDS else None


def main(argv: Sequence[str] | None = None) -> int:
    # Standard output's failures (closed, a full disk) name it: exit 5, never 1 ("the answer is no").
    from .streams import GuardedOutput, StreamFailure

    stdout = sys.stdout
    sys.stdout = GuardedOutput(stdout)
    args = argparse.Namespace()
    try:
        try:
            parser = build_parser(_command_word(sys.argv[1:] if argv is None else argv))
            args = parser.parse_args(argv)
        except SystemExit:  # --help, --version, a usage error: what they printed is written now, or fails here
            sys.stdout.flush()
            raise
        _cap_jobs(args)
        status = COMMANDS[args.command][0](args)
        sys.stdout.flush()  # a closed pipe or a full disk shows here, inside the handling below, not at exit
        return status
    except NotationError as error:
        _say(str(error))
        return EXIT_BAD_INPUT
    except RuleNotImplemented as error:
        _say(_not_implemented(error, args))
        return EXIT_NOT_IMPLEMENTED
    except BrokenPipeError:
        # The reader went away (`nhex tiles | head -1`): stop quietly, as git does; what is still buffered goes
        # nowhere instead of failing again when Python flushes standard output at exit.
        _discard_output(stdout)
        return EXIT_OK
    except StreamFailure as error:
        _discard_output(stdout)
        _say(f"nhex: {error}")
        return EXIT_STREAM
    except ValueError as error:  # NhexError and the lookups of unknown names
        _say(f"nhex: {error}")
        return EXIT_BAD_INPUT
    except KeyboardInterrupt:
        _say("nhex: interrupted")
        return 130
    finally:
        sys.stdout = stdout


def _cap_jobs(args: argparse.Namespace) -> None:
    """``--jobs`` above the cores runs no faster and costs a process each (40 workers on 2 cores): capped at the
    cores, and said so on standard error."""
    jobs, cores = getattr(args, "jobs", None), _cores()
    if jobs is not None and jobs > cores:
        _say(f"nhex: --jobs {jobs}: this machine has {cores} core{'s' if cores != 1 else ''}; using {cores}")
        args.jobs = cores


def _say(message: str) -> None:
    """A message on standard error; a closed or full standard error loses it, it does not change the status."""
    if sys.stderr is None:  # closed from the start: print(file=None) would write to standard output instead
        return
    try:
        print(message, file=sys.stderr, flush=True)
    except (OSError, ValueError):
        pass


def _discard_output(stdout: Any) -> None:
    """What is still buffered for standard output goes nowhere, instead of failing again when Python flushes it
    at exit (a second traceback, status 120)."""
    import os

    try:
        devnull = os.open(os.devnull, os.O_WRONLY)
        os.dup2(devnull, stdout.fileno())
    except (AttributeError, OSError, ValueError):  # closed from the start, or not a file (tests capture it)
        pass


if __name__ == "__main__":
    sys.exit(main())
