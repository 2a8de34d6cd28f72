"""A per-user cache for what every start would otherwise rebuild: the parser tables and the army database.

Both are pure functions of text shipped with nhex (a grammar, the army files), so each cached file is named by
a checksum of that text together with the versions that shape it (nhex's cache format, Python): a changed
grammar or army file, or another checkout beside this one, simply gets its own file. The checksum only names
the file: a cached value is stored with the very text it was built from and used only when that text is today's
text, so a clash of checksums costs a rebuild, never a wrong value. (zlib's checksums rather than hashlib's
digests: importing hashlib costs every start a few milliseconds, issue 10.) The cache is an optimisation only:
when it cannot be read or written (a read-only home, a full disk, a torn file) nhex builds the value again and
carries on, exactly as without it.

The folder is ``$NHEX_CACHE_DIR`` when set (an empty value turns the cache off), else
``$XDG_CACHE_HOME/nhex``, else ``~/.cache/nhex``.
"""

from __future__ import annotations

import copyreg
import os
import pickle
import sys
import zlib
from types import ModuleType
from typing import TYPE_CHECKING, Any, Callable, TypeVar

if TYPE_CHECKING:
    from pathlib import Path

_T = TypeVar("_T")

#: Bumped whenever what is stored changes shape.
FORMAT = "3"


def _folder() -> str | None:
    chosen = os.environ.get("NHEX_CACHE_DIR")
    if chosen is not None:
        return chosen or None
    base = os.environ.get("XDG_CACHE_HOME") or os.path.join(os.path.expanduser("~"), ".cache")
    return os.path.join(base, "nhex")


def folder() -> Path | None:
    """The cache folder, or ``None`` when the user turned the cache off."""
    from pathlib import Path

    where = _folder()
    return None if where is None else Path(where)


def key(*parts: str) -> str:
    """A short checksum of ``parts`` and the versions that shape a cached value (it names a file, no more)."""
    data = "\0".join((FORMAT, sys.version, *parts)).encode("utf-8", "surrogatepass")
    return f"{zlib.crc32(data):08x}{zlib.adler32(data):08x}{len(data):x}"


def _file(name: str, parts: tuple[str, ...]) -> str | None:
    where = _folder()
    return None if where is None else os.path.join(where, f"{name}-{key(*parts)}.cache")


def path(name: str, *parts: str) -> Path | None:
    """Where the value named ``name`` built from ``parts`` is cached (``None``: no cache)."""
    from pathlib import Path

    file = _file(name, parts)
    return None if file is None else Path(file)


def remembered(name: str, parts: tuple[str, ...], build: Callable[[], _T]) -> _T:
    """``build()``, pickled once with ``parts`` and read back on every later start whose ``parts`` are the same."""
    file = _file(name, parts)
    if file is not None:
        try:
            with open(file, "rb") as stream:
                stored = pickle.load(stream)
            if isinstance(stored, tuple) and len(stored) == 2 and stored[0] == parts:
                value: _T = stored[1]
                return value
        except Exception:  # missing, torn or from an incompatible version: build it again
            pass
    value = build()
    if file is not None:
        _store(file, (parts, value))
    return value


def _store(file: str, value: object) -> None:
    """Write atomically (a temporary file renamed into place), so a parallel start never reads half a file."""
    import tempfile  # only when writing: a warm start does not pay for it

    try:
        os.makedirs(os.path.dirname(file), exist_ok=True)
        handle, temporary = tempfile.mkstemp(dir=os.path.dirname(file), prefix=os.path.basename(file),
                                             suffix=".tmp")
        try:
            with os.fdopen(handle, "wb") as stream:
                pickler = pickle.Pickler(stream, protocol=pickle.HIGHEST_PROTOCOL)
                pickler.dispatch_table = _DISPATCH
                pickler.dump(value)
            os.replace(temporary, file)
        except BaseException:
            os.unlink(temporary)
            raise
    except OSError:
        pass  # no cache this time; the value is still right


def _module(module: ModuleType) -> tuple[Callable[..., object], tuple[str]]:
    return __import__, (module.__name__,)


#: How values are pickled: as pickle does, and a module (a parser holds the ``re`` module it compiles with) by its
#: name. A table of this pickler's own: the process's ``copyreg`` stays as it was.
_DISPATCH: dict[type, Callable[[Any], Any]] = {**copyreg.dispatch_table, ModuleType: _module}
