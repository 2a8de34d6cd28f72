"""What a job's process runs: one command of the command line on a text, its answer sent back through a pipe.

Each job runs in a process of its own (solver/web/jobs.py), so that a hard time limit can end it and nothing it
does touches the server. ``battle``, ``moves`` and ``check`` run the command line's own handlers (solver/cli.py)
with the text as standard input and standard output kept, so the JSON is the command line's byte for byte; ``solve``
runs the solver as ``nhex solve --json`` does, with a progress callback that reports through the pipe.

Messages on the pipe: ``("progress", stage, done, total)`` while a solve runs, then one
``("done", exit_status, body)``: the command's JSON text for 0, 1 and 3, or an error object for 2 and 4; or
``("failed", what)`` when the engine failed (a bug: its traceback goes to the server's standard error).
"""

from __future__ import annotations

import contextlib
import io
import json
import sys
import time
from multiprocessing.connection import Connection
from typing import TYPE_CHECKING, Any, Sequence

from .. import cli
from ..errors import NotationError, RuleNotImplemented

if TYPE_CHECKING:
    from ..engine.battle import Outcome
    from ..position import Position

#: The command line's source name for standard input, replaced by nothing in the messages the page shows.
STDIN = "<stdin>"
#: How often a solve's progress is sent (seconds): often enough for a bar, rarely enough to cost nothing.
PROGRESS_EVERY = 0.25


def run(kind: str, data: bytes, options: dict[str, Any], conn: Connection) -> None:
    """The process's body: answer one job and send it (an error the command line would report is an answer)."""
    try:
        status, body = answer(kind, data, options, lambda *message: conn.send(("progress", *message)))
        conn.send(("done", status, body))
    except Exception as error:  # a bug, not an answer: said as such, and told in full on the server's console
        import traceback

        traceback.print_exc()
        conn.send(("failed", f"{type(error).__name__}: {error}"))
    finally:
        conn.close()


def answer(kind: str, data: bytes, options: dict[str, Any],
           report: Any = None) -> tuple[int, str | bytes | dict[str, Any]]:
    """``(exit status, body)`` of one command on the text ``data`` (read as the command line reads standard input:
    UTF-8, a byte-order mark ignored): the JSON text of ``nhex KIND --json``, or for bad input (2) and a missing
    rule (4) an object with the located message."""
    args: Any = None
    sys.stdin = io.TextIOWrapper(io.BytesIO(data), encoding="utf-8")
    try:
        if kind == "solve":
            return _solve(options, report)
        if kind == "apply":
            return _apply(options["action"])
        if kind == "record":
            return _record()
        if kind == "steps":
            return _steps()
        if kind in ("read", "board", "card"):
            return _page(kind, options)
        argv = [kind, "-", "--json", *(["--trace"] if kind == "battle" and options.get("trace") else [])]
        args = cli.build_parser(kind).parse_args(argv)
        handler = cli.COMMANDS[kind][0]
        stdout = io.StringIO()
        with contextlib.redirect_stdout(stdout):
            status = handler(args)
        return status, stdout.getvalue()
    except NotationError as error:
        return cli.EXIT_BAD_INPUT, bad_input(error)
    except RuleNotImplemented as error:
        located = cli._not_implemented(error, args) if args is not None else error.located(STDIN)
        return cli.EXIT_NOT_IMPLEMENTED, missing_rule(error.rule, located)
    except ValueError as error:  # an unknown name the command line reports as `nhex: ...` (exit 2)
        return cli.EXIT_BAD_INPUT, {"error": "bad input", "message": str(error), "line": 0, "column": 0,
                                    "located": str(error)}


def _page(kind: str, options: dict[str, Any]) -> tuple[int, str | bytes | dict[str, Any]]:
    """The page's views of a text (solver/web/board.py): ``read`` (the board, the canonical text, the gate: always
    an answer, a text that does not read included), ``board`` (the board as a picture) and ``card`` (a card's
    front or back, as ``nhex card`` draws it); SVG text, or PNG bytes with ``format`` ``png``."""
    from ..notation.text import read_source
    from . import board

    text, _ = read_source("-")
    if kind == "read":
        return cli.EXIT_OK, json.dumps(board.view(text, options.get("marked", ())))
    drawn = board.picture(text) if kind == "board" else board.card_picture(text, options["side"] == "back")
    if isinstance(drawn, dict):
        return cli.EXIT_BAD_INPUT, drawn
    if options.get("format") == "png":
        import cairosvg  # type: ignore[import-untyped]  # cairosvg ships no type hints

        return cli.EXIT_OK, bytes(cairosvg.svg2png(bytestring=drawn.encode("utf-8")))
    return cli.EXIT_OK, drawn


def bad_input(error: NotationError) -> dict[str, Any]:
    """The located message of bad input, as the page shows it: ``LINE:COLUMN: message``."""
    return {"error": "bad input", "message": error.message, "line": error.line, "column": error.column,
            "located": f"{error.line}:{error.column}: {error.message}"}


def missing_rule(rule: str, located: str) -> dict[str, Any]:
    """A rule nhex does not implement, at the place the command line names (``<stdin>:LINE:COLUMN: ...``)."""
    place = located.removeprefix(f"{STDIN}:")
    line, column = (int(part) if part.isdigit() else 0 for part in place.split(":")[:2])
    return {"error": "not implemented", "rule": rule, "line": line, "column": column, "located": place}


def _solve(options: dict[str, Any], report: Any) -> tuple[int, str | bytes | dict[str, Any]]:
    """``nhex solve --json --jobs 1`` on standard input (cli.cmd_solve), telling ``report`` how far it is."""
    from ..notation.cards import Puzzle
    from ..notation.text import parse, read_source
    from ..render.report import report_json
    from ..search.solve import Solver

    puzzle = parse(*read_source("-"))
    if not isinstance(puzzle, Puzzle):
        raise NotationError("nhex solve takes a puzzle card (a file that starts with `puzzle`)", 1, 1, STDIN)
    sent = [0.0]

    def tick(stage: str, done: int, total: int | None) -> None:
        now = time.monotonic()
        if report is not None and (now - sent[0] >= PROGRESS_EVERY or done == total):
            sent[0] = now
            report(stage, done, total)

    # One process a solve: the server's cap on concurrent solves is its share of the cores.
    solver = Solver(puzzle, jobs=1, max_time=options.get("max_time"), max_solutions=options.get("max_solutions"),
                    tries=options.get("tries", 3), progress=tick)
    result = solver.solve()
    body = json.dumps(report_json(result, counters_only=bool(options.get("counters")), puzzle=puzzle), indent=1)
    status = cli.EXIT_LIMIT if result.stopped else cli.EXIT_OK if result.solutions else cli.EXIT_NO
    return status, body + "\n"


def _apply(line: str) -> tuple[int, str | bytes | dict[str, Any]]:
    """The page's "apply": the position after the side to move does the action ``line`` (as ``nhex moves`` lists
    it), one result for each choice the other player has (a push's destination, a Medic); a puzzle card is played
    as ``nhex moves`` reads it, the offer in the player's hand. The answer is ``{"results": [{"choice", "text",
    "battle"}]}``: each position's canonical text, and whether a battle follows (a full board, a Battle tile)."""
    from ..errors import IllegalAction
    from ..notation.cards import Puzzle
    from ..notation.text import parse, parse_action, read_source, write
    from ..position import Position
    from ..turns.actions import results, starts_battle

    document = parse(*read_source("-"))
    if isinstance(document, Puzzle):
        army, position = document.player, cli._with_hand(document.position, document.player, document.offer)
    elif isinstance(document, Position) and document.to_move is not None:
        army, position = document.to_move, document
    else:
        raise NotationError("an action is applied to a position with `to-move`, or to a puzzle card", 1, 1, STDIN)
    try:
        action = parse_action(line, army, "<action>")
        found = results(position, action, army)
    except NotationError as error:
        return cli.EXIT_BAD_INPUT, {"error": "bad input", "message": f"{line}: {error.message}", "line": 0,
                                    "column": 0, "located": f"{line}: {error.message}"}
    except IllegalAction as error:
        return cli.EXIT_NO, json.dumps({"illegal": error.action, "rule": error.rule})
    return cli.EXIT_OK, json.dumps({"results": [{"choice": label, "text": write(after),
                                                 "battle": starts_battle(action, after)} for label, after in found]})


def _record() -> tuple[int, str | bytes | dict[str, Any]]:
    """The page's record stepper: a game record replayed turn by turn as ``nhex show --turn N`` replays it
    (solver/cli.py ``_game_picture``), each turn with the board after it (canonical text) and the battles and the
    end it brought (the checker's history lines). An illegal or undecidable turn ends the replay and is named.
    ``{"turns": [{"number", "army", "line", "actions", "text", "events", "hq"}], "start", "stopped"}``."""
    from ..errors import IllegalAction
    from ..notation.cards import GameRecord, Turn
    from ..notation.text import parse, read_source, write
    from ..turns import game

    text, source = read_source("-")
    record = parse(text, source)
    if not isinstance(record, GameRecord):
        raise NotationError("turn by turn: a game record (a file that starts with `game`)", 1, 1, STDIN)
    state = cli._game_started(lambda: game.start(record), text, source)
    start, turns, stopped = write(state.position), [], None
    for entry in (e for e in record.entries if isinstance(e, Turn)):
        seen = len(state.history)
        try:
            state = game.play_turn(state, entry)
        except (IllegalAction, game.Undecidable) as error:
            stopped = {"number": entry.number, "line": entry.line, "message": str(error)}
            break
        turns.append({"number": entry.number, "army": entry.army, "line": entry.line,
                      "actions": [str(a) for a in entry.actions], "text": write(state.position),
                      "events": list(state.history[seen:]),
                      "hq": {u.army: u.hp for u in state.position.units if u.is_hq}})
    return cli.EXIT_OK if stopped is None else cli.EXIT_NO, json.dumps({"start": start, "turns": turns,
                                                                         "stopped": stopped})


def _steps() -> tuple[int, str | bytes | dict[str, Any]]:
    """The page's battle stepper: for each outcome of ``nhex battle`` (in its order), the board after the battle's
    start and after each initiative phase, played again along the outcome's own choices. The engine plays a battle
    step by step for its tree of choices (``Fight.step``); this drives the same steps with an oracle that answers
    each question as the outcome's choices say. A replay that does not end exactly on the outcome is left out
    (``null``: the page then shows what the trace states), so a board shown is always the engine's.
    ``{"outcomes": [{"boards": [{"phase": N or null, "text"}]} or null]}``."""
    from ..engine import battle
    from ..notation.cards import Puzzle
    from ..notation.text import parse, read_source
    from ..position import Position

    document = parse(*read_source("-"))
    if not isinstance(document, (Position, Puzzle)):
        raise NotationError("nhex battle takes a position or a puzzle card, not a game record", 1, 1, STDIN)
    position = document if isinstance(document, Position) else document.position
    return cli.EXIT_OK, json.dumps({"outcomes": [_replayed(position, outcome)
                                                 for outcome in battle.resolve(position)]})


def _replayed(position: Position, outcome: Outcome) -> dict[str, Any] | None:
    # The engine's step-by-step play, which battle_tree uses: its private oracle class, answered here by name.
    from ..engine.battle import Fight, _NeedChoice, _Script
    from ..notation.text import write

    class Replay(_Script):
        """Answers each question with the option the outcome's choices name, in their order."""

        def __init__(self, made: tuple[str, ...]) -> None:
            super().__init__(())
            self.lines = list(made)

        def choose(self, army: str, question: str, options: Sequence[str]) -> int:
            if len(options) == 1:
                return 0
            line = self.lines.pop(0) if self.lines else None
            for index, option in enumerate(options):
                if f"{army}: {question}: {option}" == line:
                    self.made.append(line)
                    return index
            raise LookupError(line)

    fight = Fight(position, Replay(outcome.choices), False)
    boards: list[dict[str, Any]] = []
    ended: Outcome | None = None
    try:
        while ended is None:
            cursor, phase = fight.cursor, fight.phase
            ended = fight.step()
            if ended is None and cursor in ("begin", "close"):  # the battle's start dealt, or a phase's hits landed
                units = tuple(fight.state.units.values())
                boards.append({"phase": None if cursor == "begin" else phase,
                               "text": write(fight.position.with_units_in_order(units))})
    except (LookupError, _NeedChoice):
        return None
    if ended.position.units != outcome.position.units or ended.hq != outcome.hq:
        return None
    return {"boards": boards}
