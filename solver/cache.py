"""A per-user cache for what every start would otherwise rebuild: the parser tables and the army database.

Both are pure functions of text shipped with nhex (a grammar, the army files), so each cached file is named by
a hash of that text together with the versions that shape it (nhex's cache format, Python, Lark): a changed
grammar or army file, or another checkout beside this one, simply gets its own file. The cache is an
optimisation only: when it cannot be read or written (a read-only home, a full disk, a torn file) nhex builds
the value again and carries on, exactly as without it.

The folder is ``$NHEX_CACHE_DIR`` when set (an empty value turns the cache off), else
``$XDG_CACHE_HOME/nhex``, else ``~/.cache/nhex``.
"""

from __future__ import annotations

import hashlib
import os
import pickle
import sys
from pathlib import Path
from typing import Callable, TypeVar

_T = TypeVar("_T")

#: Bumped whenever what is stored changes shape.
FORMAT = "1"


def folder() -> Path | None:
    """The cache folder, or ``None`` when the user turned the cache off."""
    chosen = os.environ.get("NHEX_CACHE_DIR")
    if chosen is not None:
        return Path(chosen) if chosen else None
    base = os.environ.get("XDG_CACHE_HOME") or os.path.join(os.path.expanduser("~"), ".cache")
    return Path(base) / "nhex"


def key(*parts: str) -> str:
    """A short hash of ``parts`` and the versions that shape a cached value."""
    digest = hashlib.sha256()
    for part in (FORMAT, sys.version, *parts):
        digest.update(part.encode("utf-8"))
        digest.update(b"\0")
    return digest.hexdigest()[:24]


def path(name: str, *parts: str) -> Path | None:
    """Where the value named ``name`` built from ``parts`` is cached (``None``: no cache)."""
    where = folder()
    if where is None:
        return None
    return where / f"{name}-{key(*parts)}.cache"


def remembered(name: str, parts: tuple[str, ...], build: Callable[[], _T]) -> _T:
    """``build()``, pickled once under a hash of ``parts`` and read back on every later start."""
    file = path(name, *parts)
    if file is not None:
        try:
            with open(file, "rb") as stream:
                value: _T = pickle.load(stream)
                return value
        except Exception:  # missing, torn or from an incompatible version: build it again
            pass
    value = build()
    if file is not None:
        _store(file, value)
    return value


def _store(file: Path, value: object) -> None:
    """Write atomically (a temporary file renamed into place), so a parallel start never reads half a file."""
    import tempfile  # only when writing: a warm start does not pay for it

    try:
        file.parent.mkdir(parents=True, exist_ok=True)
        handle, temporary = tempfile.mkstemp(dir=file.parent, prefix=file.name, suffix=".tmp")
        try:
            with os.fdopen(handle, "wb") as stream:
                pickle.dump(value, stream, protocol=pickle.HIGHEST_PROTOCOL)
            os.replace(temporary, file)
        except BaseException:
            os.unlink(temporary)
            raise
    except OSError:
        pass  # no cache this time; the value is still right
