"""The HTTP API (issue 28): the notation text as the request body, the command line's JSON as the answer.

``POST /api/battle`` (``?trace=1``), ``/api/moves``, ``/api/check``, ``/api/solve`` (``?max_time=S&tries=N``,
``&counters=1``, ``&progress=1`` for a stream of progress lines) answer exactly what ``nhex battle --json``,
``moves --json``, ``check --json`` and ``solve --json`` print, with the command's exit status in the header
``Nhex-Exit-Status``: 200 for 0 (done), 1 (the answer is no) and 3 (stopped at a limit); 400 bad input and 422 a
missing rule, each with the located message as JSON; 413 a body over 256 KiB; 503 too many jobs at once (with
``Retry-After``) or a job past the server's hard time limit. The page's own calls: ``POST /api/read`` (the board,
the canonical text, the legality gate; ``?mark=HEX HEX``), ``POST /api/apply``, ``POST /api/record``, ``POST /api/steps``, ``POST /api/board`` and
``POST /api/card`` (pictures), ``GET /api/tiles``, ``GET /api/rules``, ``GET /api/terrain``, ``GET
/api/tile/KEY.svg``. Everything that reads a text runs in a job's process (solver/web/jobs.py). No request names a
path: the server reads and writes no file for it.
"""

from __future__ import annotations

import asyncio
import json
import math
import re
from typing import Any, AsyncIterator

from starlette.requests import Request
from starlette.responses import JSONResponse, Response, StreamingResponse

from .. import cli
from . import board, work
from .jobs import Answer, Busy, Failed, Gone, Jobs, Stopping, TimeUp

#: The largest request body (bytes): a game record of a long game is a few KiB.
MAX_BODY = 256 * 1024

STATUS_CODES = {cli.EXIT_OK: 200, cli.EXIT_NO: 200, cli.EXIT_LIMIT: 200, cli.EXIT_BAD_INPUT: 400,
                cli.EXIT_NOT_IMPLEMENTED: 422}


class TooLarge(Exception):
    pass


class BadQuery(Exception):
    pass


async def body(request: Request) -> bytes:
    """The request body, refused past MAX_BODY (by its announced length, else as it arrives)."""
    announced = request.headers.get("content-length")
    if announced is not None and announced.isdigit() and int(announced) > MAX_BODY:
        raise TooLarge()
    chunks, size = [], 0
    async for chunk in request.stream():
        size += len(chunk)
        if size > MAX_BODY:
            raise TooLarge()
        chunks.append(chunk)
    return b"".join(chunks)


def answer_response(answer: Answer) -> Response:
    headers = {"Nhex-Exit-Status": str(answer.status)}
    if isinstance(answer.body, str):
        return Response(answer.body, STATUS_CODES[answer.status], headers, media_type="application/json")
    return JSONResponse(answer.body, STATUS_CODES[answer.status], headers)


def error_response(error: Exception) -> JSONResponse:
    if isinstance(error, TooLarge):
        return JSONResponse({"error": "too large", "message": f"the body is over {MAX_BODY // 1024} KiB"}, 413)
    if isinstance(error, BadQuery):
        return JSONResponse({"error": "bad query", "message": str(error)}, 400)
    if isinstance(error, Busy):
        return JSONResponse({"error": "busy", "message": str(error)}, 503,
                            {"Retry-After": str(error.retry_after)})
    if isinstance(error, TimeUp):
        return JSONResponse({"error": "time limit", "message": str(error)}, 503)
    if isinstance(error, Stopping):
        return JSONResponse({"error": "stopping", "message": str(error)}, 503)
    if isinstance(error, Failed):  # a bug in nhex: the answer says so, the server's console has the traceback
        return JSONResponse({"error": "internal error", "message": str(error)}, 500)
    raise error


def _flag(request: Request, name: str) -> bool:
    value = request.query_params.get(name, "0").lower()
    if value not in ("0", "1", "true", "false", "yes", "no", ""):
        raise BadQuery(f"{name}={value}: expected 1 or 0")
    return value in ("1", "true", "yes", "")


def _number(request: Request, name: str, whole: bool = False) -> float | None:
    value = request.query_params.get(name)
    if value is None:
        return None
    try:
        number = float(value) if not whole else int(value)
    except ValueError:
        raise BadQuery(f"{name}={value}: expected a number") from None
    if not math.isfinite(number) or number <= 0 and not (whole and number == 0):
        raise BadQuery(f"{name}={value}: expected a positive number")
    return number


def _jobs(request: Request) -> Jobs:
    jobs: Jobs = request.app.state.jobs
    return jobs


async def quick(request: Request) -> Response:
    """``/api/battle``, ``/api/moves``, ``/api/check``: the command's JSON (battle: ``?trace=1``)."""
    kind = request.url.path.rsplit("/", 1)[-1]
    try:
        options = {"trace": _flag(request, "trace")} if kind == "battle" else {}
        data = await body(request)
        return answer_response(await _jobs(request).quick(kind, data, options, request.is_disconnected))
    except Gone:
        return Response(status_code=499)
    except (TooLarge, BadQuery, Busy, TimeUp, Stopping, Failed) as error:
        return error_response(error)


async def solve(request: Request) -> Response:
    """``/api/solve``: ``nhex solve --json`` (``?max_time=S`` default 20, capped; ``tries``; ``counters``); with
    ``?progress=1`` a stream of JSON lines, ``{"progress": {"stage", "done", "total"}}`` then the answer
    ``{"status": N, "result": {...}}`` or ``{"status": N, "error": {...}}`` (ending the stream stops the solve)."""
    jobs = _jobs(request)
    try:
        tries = _number(request, "tries", whole=True)
        options: dict[str, Any] = {"max_time": jobs.solve_seconds(_number(request, "max_time")),
                                   "tries": 3 if tries is None else int(tries),
                                   "counters": _flag(request, "counters")}
        streamed = _flag(request, "progress")
        data = await body(request)
        if not streamed:
            return answer_response(await jobs.solve(data, options, gone=request.is_disconnected))
        jobs.ready_to_solve()
    except Gone:
        return Response(status_code=499)
    except (TooLarge, BadQuery, Busy, TimeUp, Stopping, Failed) as error:
        return error_response(error)
    return StreamingResponse(_stream(jobs, data, options), media_type="application/x-ndjson",
                             headers={"Cache-Control": "no-store"})


async def _stream(jobs: Jobs, data: bytes, options: dict[str, Any]) -> AsyncIterator[str]:
    lines: asyncio.Queue[str | None] = asyncio.Queue()

    async def progress(stage: str, done: int, total: int | None) -> None:
        await lines.put(json.dumps({"progress": {"stage": stage, "done": done, "total": total}}) + "\n")

    async def run() -> None:
        try:
            result = await jobs.solve(data, options, progress)
            key = "result" if isinstance(result.body, str) else "error"
            value = json.loads(result.body) if isinstance(result.body, str) else result.body
            await lines.put(json.dumps({"status": result.status, key: value}) + "\n")
        except (Busy, TimeUp, Stopping, Failed) as error:
            await lines.put(json.dumps({"status": None, "error": {"error": type(error).__name__.lower(),
                                                                  "message": str(error)}}) + "\n")
        finally:
            await lines.put(None)

    task = asyncio.create_task(run())
    try:
        while (line := await lines.get()) is not None:
            yield line
    finally:  # the client went away (the page's Stop): the job's process is killed with the task
        task.cancel()
        await asyncio.gather(task, return_exceptions=True)


async def read(request: Request) -> Response:
    """``/api/read``: the page's view of a text (solver/web/board.py): canonical text, board, legality gate."""
    marked = re.findall(r"\(-?\d+,-?\d+\)|[a-z][0-9]+", request.query_params.get("mark", ""))  # hex labels
    return await _page(request, "read", {"marked": marked})


async def _page(request: Request, kind: str, options: dict[str, Any]) -> Response:
    """A view of the page's, computed in a job's process like every answer of the engine's."""
    try:
        data = await body(request)
        answer = await _jobs(request).quick(kind, data, options, request.is_disconnected)
    except Gone:
        return Response(status_code=499)
    except (TooLarge, Busy, TimeUp, Stopping, Failed) as error:
        return error_response(error)
    if isinstance(answer.body, dict):
        return JSONResponse(answer.body, STATUS_CODES[answer.status])
    media = "application/json" if kind == "read" else "image/png" if options.get("format") == "png" else "image/svg+xml"
    return Response(answer.body, media_type=media)


async def tiles(request: Request) -> Response:
    """``/api/tiles``: every army's tiles as ``nhex tiles --json`` lists them, grouped by army, with titles; the
    mercenary pool last (the Mad Bomber, NOTATION §10.4); and ``prizes``, Babel 13's Prize markers."""
    from ..expansion import PRIZE_NAMES
    from ..render.tables import tiles_json
    from ..tiles import armies, mercenaries

    every = {**armies(), "mercenary": mercenaries()}
    return JSONResponse({"armies": {name: [entry | {"title": tile.title}
                                           for entry, tile in zip(tiles_json(army), army.tiles)]
                                    for name, army in every.items()},
                         "prizes": list(PRIZE_NAMES)})


async def rules(request: Request) -> Response:
    """``/api/rules``: ``nhex rules --json``."""
    from ..rules import EDITIONS, OPTIONS

    return JSONResponse([{"name": o.name, "default": o.default, "choices": list(o.choices), "summary": o.summary,
                          "passage": o.passage, "source": o.source,
                          "editions": {e: {"default": o.default_for(e), "source": o.default_source(e)}
                                       for e in EDITIONS}} for o in OPTIONS])


async def terrain(request: Request) -> Response:
    """``/api/terrain``: Babel 13's terrain types and their features (solver/terrain/babel13.terrain), for the
    page's terrain tool."""
    from ..terrain import terrain_set

    found = terrain_set()
    return JSONResponse({"types": found.types, "compulsory": found.compulsory, "passages": found.passages})


async def tile_picture(request: Request) -> Response:
    """``/api/tile/ARMY:TILE.svg``: one tile for the palettes (a name looked up, never a path)."""
    from ..tiles import tile

    try:
        found = tile(request.path_params["key"])
    except ValueError:
        return JSONResponse({"error": "unknown tile"}, 404)
    return Response(board.tile_svg(found), media_type="image/svg+xml",
                    headers={"Cache-Control": "max-age=3600"})


async def card(request: Request) -> Response:
    """``/api/card?side=front|back&format=svg|png``: the picture ``nhex card`` draws of the card in the body."""
    side, form = request.query_params.get("side", "front"), request.query_params.get("format", "svg")
    if side not in ("front", "back") or form not in ("svg", "png"):
        return error_response(BadQuery("side=front|back, format=svg|png"))
    return await _page(request, "card", {"side": side, "format": form})


async def board_picture(request: Request) -> Response:
    """``/api/board?format=svg|png``: the board of the text in the body, as the page draws it (without its click
    targets), for an image of a position."""
    form = request.query_params.get("format", "svg")
    if form not in ("svg", "png"):
        return error_response(BadQuery("format=svg|png"))
    return await _page(request, "board", {"format": form})


async def steps(request: Request) -> Response:
    """``/api/steps``: the board after each phase of each outcome of the battle (solver/web/work.py ``_steps``)."""
    try:
        data = await body(request)
        return answer_response(await _jobs(request).quick("steps", data, {}, request.is_disconnected))
    except Gone:
        return Response(status_code=499)
    except (TooLarge, Busy, TimeUp, Stopping, Failed) as error:
        return error_response(error)


async def record(request: Request) -> Response:
    """``/api/record``: a game record replayed turn by turn, the board after each (solver/web/work.py ``_record``)."""
    try:
        data = await body(request)
        return answer_response(await _jobs(request).quick("record", data, {}, request.is_disconnected))
    except Gone:
        return Response(status_code=499)
    except (TooLarge, Busy, TimeUp, Stopping, Failed) as error:
        return error_response(error)


async def apply(request: Request) -> Response:
    """``/api/apply?action=LINE``: the page's moves, applied (solver/web/work.py ``_apply``)."""
    action = request.query_params.get("action", "").strip()
    if not action or len(action) > 500:
        return error_response(BadQuery("action=LINE: one action line, as /api/moves lists it"))
    try:
        data = await body(request)
        return answer_response(await _jobs(request).quick("apply", data, {"action": action}, request.is_disconnected))
    except Gone:
        return Response(status_code=499)
    except (TooLarge, Busy, TimeUp, Stopping, Failed) as error:
        return error_response(error)
