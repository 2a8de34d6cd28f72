"""The ``nhex`` command (NOTATION §9): a thin layer over the modules, one function per sub-command.

Exit status: 0 done; 1 the answer is no (an illegal action, no solution); 2 bad input, reported as
``FILE:LINE:COLUMN: message`` with nothing written to standard output; 3 stopped at a limit the user set.
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from typing import TYPE_CHECKING, Callable, Iterable, Sequence

from rich.console import Console

from .errors import NotationError, RuleNotImplemented

if TYPE_CHECKING:  # the sub-commands import what they need when they run (a quick start for `nhex --help`)
    from rich.console import RenderableType

    from .notation import Document
    from .position import Position
    from .tiles import Tile

EXIT_OK, EXIT_NO, EXIT_BAD_INPUT, EXIT_LIMIT = 0, 1, 2, 3


def _console() -> Console:
    return Console(highlight=False)


def _load(path: str) -> Document:
    from .notation import load

    return load(path)


# --- sub-commands ----------------------------------------------------------------------------------------------


def cmd_show(args: argparse.Namespace) -> int:
    from .render.terminal import render_document

    picture = render_document(_load(args.file))
    console = _console()
    if not console.is_terminal:
        # Piped or redirected: no screen to fit, so never crop the board to the default 80 columns.
        unbounded = console.options.update_width(10_000)
        console.width = max(console.width, console.measure(picture, options=unbounded).maximum)
    console.print(picture)
    return EXIT_OK


def cmd_fmt(args: argparse.Namespace) -> int:
    from .notation import write

    sys.stdout.write(write(_load(args.file)))
    return EXIT_OK


def cmd_tiles(args: argparse.Namespace) -> int:
    from .render.terminal import render_tiles
    from .tiles import armies, army

    chosen = [army(args.army)] if args.army else list(armies().values())
    if args.json:
        from .render.tables import tiles_json

        print(json.dumps([entry for a in chosen for entry in tiles_json(a)], indent=1, ensure_ascii=False))
    else:
        console = _console()
        for a in chosen:
            console.print(render_tiles(a))
    return EXIT_OK


def cmd_rules(args: argparse.Namespace) -> int:
    from .rules import EDITIONS, OPTIONS

    if args.json:
        print(json.dumps([{"name": o.name, "default": o.default, "choices": list(o.choices), "summary": o.summary,
                           "passage": o.passage, "source": o.source,
                           "editions": {e: {"default": o.default_for(e), "source": o.default_source(e)}
                                        for e in EDITIONS}} for o in OPTIONS], indent=1))
        return EXIT_OK
    from rich.table import Table

    table = Table(title="Rule options (set them with `rules 3.0 NAME=VALUE`)", show_lines=True)
    for column in ("option", "default (from)", "choices", "reading", "passage"):
        table.add_column(column)
    for o in OPTIONS:
        defaults = "\n".join(f"{e}: {o.default_for(e)} ({o.default_source(e)})" for e in EDITIONS)
        table.add_row(o.name, defaults, " | ".join(o.choices), o.summary, o.passage)
    _console().print(table)
    return EXIT_OK


def cmd_battle(args: argparse.Namespace) -> int:
    from .battle import resolve
    from .cards import Puzzle
    from .position import Position
    from .render.trace import battle_json, render_battle

    document = _load(args.file)
    position = document.position if not isinstance(document, Position) else document
    if not isinstance(document, (Position, Puzzle)):
        raise NotationError("nhex battle takes a position or a puzzle card, not a game record", 1, 1, args.file)
    outcomes = resolve(position, trace=not args.json or args.trace)
    if args.json:
        print(json.dumps(battle_json(outcomes, trace=args.trace), indent=1))
        return EXIT_OK
    board: Callable[[Document], RenderableType] | None = None
    if not args.no_board:
        try:
            from .render.terminal import render_document as board
        except ImportError:  # the board picture is optional for a trace
            board = None
    _console().print(render_battle(position, outcomes, board))
    return EXIT_OK


def _battle_arguments(command: argparse.ArgumentParser) -> None:
    _file_argument(command)
    command.add_argument("--json", action="store_true", help="print JSON (NOTATION §9)")
    command.add_argument("--no-board", action="store_true", help="print the trace without the final board")
    command.add_argument("--trace", action="store_true",
                         help="with --json: add each outcome's trace (every event, how each hit was made)")


def cmd_solve(args: argparse.Namespace) -> int:
    from rich.progress import BarColumn, MofNCompleteColumn, Progress, TaskID, TextColumn, TimeElapsedColumn

    from .cards import Puzzle
    from .render.report import render_report, report_json
    from .search import Solver

    puzzle = _load(args.file)
    if not isinstance(puzzle, Puzzle):
        raise NotationError("nhex solve takes a puzzle card (a file that starts with `puzzle`)", 1, 1, args.file)
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
        print(json.dumps(report_json(report, counters_only=args.counters), indent=1))
    else:
        console.print(render_report(puzzle, report, explain=not args.brief, counters_only=args.counters))
    if report.stopped:
        return EXIT_LIMIT
    return EXIT_OK if report.solutions else EXIT_NO


def _solve_arguments(command: argparse.ArgumentParser) -> None:
    _file_argument(command)
    command.add_argument("--json", action="store_true", help="print JSON (NOTATION §9, plus verdict and tries)")
    command.add_argument("--jobs", type=int, default=None, help="worker processes (default: all cores)")
    command.add_argument("--tries", type=int, default=0, metavar="N", help="also show the N strongest failing plays")
    command.add_argument("--max-time", type=float, default=None, metavar="S", help="stop after S seconds (exit 3)")
    command.add_argument("--max-solutions", type=int, default=None, metavar="N",
                         help="stop after N winning plays (exit 3)")
    command.add_argument("--naive", action="store_true", help="no deduplication of orders or facings (benchmarks)")
    command.add_argument("--brief", action="store_true", help="no battle trace under each solution")
    command.add_argument("--counters", action="store_true", help="work counters only, no times (golden reports)")


def _read_document(path: str) -> tuple[Document, str, str]:
    """The document and its text (``nhex check`` places consistency problems at their statement's line)."""
    from pathlib import Path

    from .notation import parse

    if path == "-":
        text = sys.stdin.read()
        return parse(text, "<stdin>"), text, "<stdin>"
    try:
        text = Path(path).read_text(encoding="utf-8")
    except (OSError, UnicodeDecodeError) as error:
        raise NotationError(f"cannot read the file: {error}", 0, 0, path) from None
    return parse(text, path), text, path


def cmd_moves(args: argparse.Namespace) -> int:
    from .cards import Puzzle
    from .game import moves_listing
    from .position import Position

    document = _load(args.file)
    if isinstance(document, Puzzle):
        army = document.player
        position = _with_hand(document.position, army, document.offer)
    elif isinstance(document, Position):
        if document.to_move is None:
            raise NotationError("nobody is to move: add `to-move ARMY`", 1, 1, args.file)
        army, position = document.to_move, document
    else:
        raise NotationError("nhex moves takes a position or a puzzle card, not a game record", 1, 1, args.file)
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


def _with_hand(position: Position, army: str, tiles: Iterable[Tile]) -> Position:
    from dataclasses import replace

    hands = tuple((name, held) for name, held in position.hands if name != army) + ((army, tuple(tiles)),)
    return replace(position, hands=hands, to_move=army)


def cmd_check(args: argparse.Namespace) -> int:
    from .cards import GameRecord, Puzzle
    from .game import check, check_play, position_problems

    document, text, source = _read_document(args.file)
    position = document.position if isinstance(document, (GameRecord, Puzzle)) else document
    for statement, army, message in position_problems(position):
        line, column = _statement_place(text, statement, army)
        raise NotationError(message, line, column, source)
    if isinstance(document, GameRecord):
        report = check(document)
        if report.verdict == "unsupported":
            print(report.fault(source).replace(": unsupported:", ": not implemented yet:"), file=sys.stderr)
            return EXIT_BAD_INPUT
        print(report.summary() if report.ok else report.fault(source))
        return EXIT_OK if report.ok else EXIT_NO
    if isinstance(document, Puzzle) and document.solution:
        fault = check_play(_with_hand(position, document.player, document.offer), document.player,
                           document.solution, document.tiles_to_play)
        if fault is not None:
            index, action, rule = fault
            print(f"{source}:{_solution_line(text, index)}: {action}: illegal: {rule}")
            return EXIT_NO
        print(f"consistent; the solution's {len(document.solution)} action(s) are legal")
        return EXIT_OK
    armies = ", ".join(f"{a} {sum(1 for u in position.units if u.army == a)}" for a in position.armies)
    print(f"consistent: {len(position.units)} units ({armies or 'none'})"
          + (f", {position.to_move} to move" if position.to_move else ""))
    return EXIT_OK


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
    """``nhex generate``: new cards with exactly one winning play, written to a folder (docs/GENERATOR.md)."""
    from pathlib import Path

    from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeElapsedColumn
    from rich.table import Table

    from .generate import NoCard, card_text, file_name, generate
    from .render.card_svg import save

    out = Path(args.out)
    out.mkdir(parents=True, exist_ok=True)
    console = _console()
    columns = (TextColumn("{task.description}"), BarColumn(), MofNCompleteColumn(), TimeElapsedColumn(),
               TextColumn("[dim]{task.fields[drafts]} drafts played out"))
    with Progress(*columns, console=console, transient=True, disable=not console.is_terminal) as progress:
        task = progress.add_task(f"level-{args.level} {args.player} cards", total=args.count, drafts=0)

        def tick(made: object) -> None:
            progress.update(task, completed=min(args.count, int(progress.tasks[0].completed) + 1))

        def drafts(count: int) -> None:
            progress.update(task, drafts=count)

        try:
            cards = generate(args.player, args.opponent, args.level, args.count, args.seed, jobs=args.jobs,
                             on_card=tick, on_drafts=drafts)
        except NoCard as error:
            print(f"nhex: {error}", file=sys.stderr)
            return EXIT_LIMIT
    table = Table(title=f"{len(cards)} new level-{args.level} cards in {out}")
    for column in ("file", "key", "needs", "plays", "near misses", "drafts"):
        table.add_column(column)
    for made in cards:
        path = out / file_name(made)
        path.write_text(card_text(made), encoding="utf-8")
        if args.svg:
            save(made.puzzle, str(path.with_suffix(".svg")))
            save(made.puzzle, str(path.with_name(path.stem + "-solution.svg")), solution=True)
        key = "; ".join(str(a) for a in made.puzzle.solution or ())
        table.add_row(path.name, key, ", ".join(made.grade.ideas) or "one tile", str(made.grade.plays),
                      str(made.grade.near_misses), str(made.candidates))
    console.print(table)
    return EXIT_OK


def _generate_arguments(command: argparse.ArgumentParser) -> None:
    from .generate import ARMIES

    command.add_argument("--player", required=True, choices=ARMIES, help="the army that plays the card")
    command.add_argument("--opponent", required=True, choices=ARMIES, help="the army it plays against")
    command.add_argument("--level", type=int, required=True, choices=(1, 2, 3, 4), help="difficulty, 1 to 4")
    command.add_argument("--count", type=int, default=1, metavar="K", help="how many cards (default 1)")
    command.add_argument("--seed", default="0", metavar="S", help="random seed: the same seed gives the same cards")
    command.add_argument("-o", "--out", default=".", metavar="DIR", help="folder to write the cards to")
    command.add_argument("--jobs", type=int, default=1, metavar="J", help="worker processes (default 1)")
    command.add_argument("--svg", action="store_true", help="also draw each card, front and back, as SVG")


def cmd_card(args: argparse.Namespace) -> int:
    """``nhex card``: the printable picture of a puzzle card (SVG, or PNG by the file name)."""
    from .cards import Puzzle
    from .render.card_svg import save

    puzzle = _load(args.file)
    if not isinstance(puzzle, Puzzle):
        raise NotationError("nhex card takes a puzzle card (a file that starts with `puzzle`)", 1, 1, args.file)
    if not args.svg and not args.png:
        raise NotationError("say where to draw the card: --svg OUT.svg or --png OUT.png", 1, 1, args.file)
    if args.svg:
        save(puzzle, args.svg, solution=args.solution)
    if args.png:
        save(puzzle, args.png if args.png.lower().endswith(".png") else args.png + ".png", solution=args.solution)
    return EXIT_OK


def _card_arguments(command: argparse.ArgumentParser) -> None:
    _file_argument(command)
    command.add_argument("--svg", metavar="OUT", help="write the card as SVG to OUT")
    command.add_argument("--png", metavar="OUT", help="write the card as PNG to OUT (needs the cairo library)")
    command.add_argument("--solution", action="store_true", help="draw the back: the key marked, the explanation")


# --- the parser ------------------------------------------------------------------------------------------------


def _file_argument(command: argparse.ArgumentParser) -> None:
    command.add_argument("file", help="a file in the nhex notation, or - for standard input")


def _tiles_arguments(command: argparse.ArgumentParser) -> None:
    command.add_argument("army", nargs="?", help="one army (default: all)")
    command.add_argument("--json", action="store_true", help="print JSON (NOTATION §9)")


def _json_argument(command: argparse.ArgumentParser) -> None:
    command.add_argument("--json", action="store_true", help="print JSON")


#: name -> (handler, help, arguments). Each sub-command adds one entry here and nothing else to this module.
COMMANDS: dict[str, tuple[Callable[[argparse.Namespace], int], str, Callable[[argparse.ArgumentParser], None]]] = {
    "show": (cmd_show, "draw a position or puzzle card on the terminal", _file_argument),
    "fmt": (cmd_fmt, "print a file in canonical form", _file_argument),
    "tiles": (cmd_tiles, "list the army database", _tiles_arguments),
    "battle": (cmd_battle, "resolve one battle phase by phase, naming the rule behind each event",
               _battle_arguments),
    "solve": (cmd_solve, "solve a puzzle card: every winning play, or a proof that there is none",
              _solve_arguments),
    "rules": (cmd_rules, "list the rule options with their defaults and the passages behind them", _json_argument),
    "moves": (cmd_moves, "list the legal actions of the side to move with the tiles in its hand", _json_file_arguments),
    "check": (cmd_check, "replay a game record (or check a position) and report the first illegal action",
              _file_argument),
    "generate": (cmd_generate, "write new puzzle cards with exactly one winning play, graded 1 to 4",
                 _generate_arguments),
    "card": (cmd_card, "draw a puzzle card (front, or with --solution the back) as SVG or PNG", _card_arguments),
}


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(prog="nhex", description="Neuroshima Hex! rules engine and puzzle solver.")
    sub = parser.add_subparsers(dest="command", required=True, metavar="COMMAND")
    for name, (_, help_text, add_arguments) in COMMANDS.items():
        add_arguments(sub.add_parser(name, help=help_text, description=help_text))
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    parser = build_parser()
    args = parser.parse_args(argv)
    handler = COMMANDS[args.command][0]
    try:
        return handler(args)
    except NotationError as error:
        print(str(error), file=sys.stderr)
        return EXIT_BAD_INPUT
    except RuleNotImplemented as error:
        print(f"nhex: {error}", file=sys.stderr)
        return EXIT_BAD_INPUT
    except ValueError as error:  # NhexError and the lookups of unknown names
        print(f"nhex: {error}", file=sys.stderr)
        return EXIT_BAD_INPUT
    except KeyboardInterrupt:
        print("nhex: interrupted", file=sys.stderr)
        return 130
    except BrokenPipeError:
        return EXIT_OK


if __name__ == "__main__":
    sys.exit(main())
