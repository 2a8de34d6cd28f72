"""The application: the API's routes, the page's static files, security headers, and ``serve`` (uvicorn).

Safe by default (issue 28): it binds 127.0.0.1 unless told otherwise; on a loopback address it answers only
requests addressed to a loopback name (a web page elsewhere cannot reach it by DNS rebinding); every answer carries
a Content-Security-Policy that lets the page run only its own scripts and styles and talk only to its own server.
"""

from __future__ import annotations

import contextlib
import ipaddress
from pathlib import Path
from types import FrameType
from typing import AsyncIterator, Sequence

from starlette.applications import Starlette
from starlette.datastructures import Headers, MutableHeaders
from starlette.middleware import Middleware
from starlette.middleware.trustedhost import TrustedHostMiddleware
from starlette.responses import FileResponse, JSONResponse, Response
from starlette.routing import Mount, Route
from starlette.staticfiles import StaticFiles
from starlette.types import ASGIApp, Message, Receive, Scope, Send

from . import api
from .jobs import Jobs, Limits

STATIC = Path(__file__).resolve().parent / "static"
LOOPBACK_NAMES = ["127.0.0.1", "localhost", "::1", "[::1]"]

#: Only the page's own scripts, styles and pictures (SVG from the server; PNG exports as blob: URLs), no framing.
SECURITY_HEADERS = {
    "Content-Security-Policy": "default-src 'none'; script-src 'self'; style-src 'self'; img-src 'self' data: blob:; "
                               "connect-src 'self'; base-uri 'none'; form-action 'none'; frame-ancestors 'none'",
    "X-Content-Type-Options": "nosniff",
    "X-Frame-Options": "DENY",
    "Referrer-Policy": "no-referrer",
    "Cross-Origin-Opener-Policy": "same-origin",
    "Cross-Origin-Resource-Policy": "same-origin",
}


class SecurityHeaders:
    """Adds SECURITY_HEADERS to every answer (and ``no-store`` to the API's)."""

    def __init__(self, app: ASGIApp) -> None:
        self.app = app

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return

        async def with_headers(message: Message) -> None:
            if message["type"] == "http.response.start":
                headers = MutableHeaders(scope=message)
                for name, value in SECURITY_HEADERS.items():
                    headers.setdefault(name, value)
                if scope["path"].startswith("/api/") and "cache-control" not in headers:
                    headers["Cache-Control"] = "no-store"
            await send(message)

        await self.app(scope, receive, with_headers)


class SameOrigin:
    """Refuses (403) a request that a page of another site sent: its browser names that site in ``Origin``. Scripts
    (curl, Python) send no Origin and are answered; so is the page itself. A page elsewhere could otherwise make its
    visitors' browsers post battles and solves here: the answers it could not read, the work it could cause."""

    def __init__(self, app: ASGIApp) -> None:
        self.app = app

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] == "http" and scope["method"] not in ("GET", "HEAD", "OPTIONS"):
            headers = Headers(scope=scope)
            origin, host = headers.get("origin"), headers.get("host")
            if origin is not None and (host is None or origin.split("://", 1)[-1] != host):
                await JSONResponse({"error": "forbidden", "message": f"a request from {origin} is not answered"},
                                   403)(scope, receive, send)
                return
        await self.app(scope, receive, send)


async def index(request: object) -> Response:
    return FileResponse(STATIC / "index.html", media_type="text/html; charset=utf-8")


def create_app(limits: Limits | None = None, hosts: Sequence[str] | None = None) -> Starlette:
    """The application. ``hosts``: the host names it answers (None: any; ``serve`` on a loopback address passes
    the loopback names)."""

    @contextlib.asynccontextmanager
    async def lifespan(app: Starlette) -> AsyncIterator[None]:
        app.state.jobs = Jobs(limits or Limits())
        yield

    routes = [
        Route("/", index),
        Route("/api/battle", api.quick, methods=["POST"]),
        Route("/api/moves", api.quick, methods=["POST"]),
        Route("/api/check", api.quick, methods=["POST"]),
        Route("/api/solve", api.solve, methods=["POST"]),
        Route("/api/read", api.read, methods=["POST"]),
        Route("/api/apply", api.apply, methods=["POST"]),
        Route("/api/record", api.record, methods=["POST"]),
        Route("/api/steps", api.steps, methods=["POST"]),
        Route("/api/card", api.card, methods=["POST"]),
        Route("/api/board", api.board_picture, methods=["POST"]),
        Route("/api/tiles", api.tiles),
        Route("/api/rules", api.rules),
        Route("/api/terrain", api.terrain),
        Route("/api/tile/{key}.svg", api.tile_picture),
        Mount("/static", StaticFiles(directory=STATIC), name="static"),
    ]
    middleware = [Middleware(SecurityHeaders), Middleware(SameOrigin)]
    if hosts is not None:
        middleware.append(Middleware(TrustedHostMiddleware, allowed_hosts=list(hosts)))
    return Starlette(routes=routes, middleware=middleware, lifespan=lifespan)


def is_loopback(host: str) -> bool:
    if host == "localhost":
        return True
    try:
        return ipaddress.ip_address(host.strip("[]")).is_loopback
    except ValueError:
        return False


def serve(host: str = "127.0.0.1", port: int = 8000, open_browser: bool = False, limits: Limits | None = None) -> None:
    """Run the app on uvicorn until interrupted (``nhex serve``)."""
    import uvicorn

    url = f"http://{'[' + host + ']' if ':' in host else host}:{port}/"
    app = create_app(limits, LOOPBACK_NAMES if is_loopback(host) else None)
    # Ctrl-C ends the jobs under way (they answer 503, their processes killed: solver/web/jobs.py), so that a long
    # solve does not hold the server open; an answer still being sent gets two seconds.
    config = uvicorn.Config(app, host=host, port=port, log_level="warning", server_header=False,
                            timeout_graceful_shutdown=2)

    class Server(uvicorn.Server):
        def handle_exit(self, sig: int, frame: FrameType | None) -> None:
            jobs: Jobs | None = getattr(app.state, "jobs", None)
            if jobs is not None:  # the jobs under way answer 503 and their processes are killed
                jobs.stopping = True
            super().handle_exit(sig, frame)

    server = Server(config)
    if open_browser:
        import threading
        import webbrowser

        threading.Timer(1.0, webbrowser.open, args=(url,)).start()
    print(f"nhex serve: {url} (Ctrl-C to stop)", flush=True)
    server.run()
