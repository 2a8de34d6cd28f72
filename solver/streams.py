"""Where nhex's output goes, and what happens when it cannot go there (issue 25).

A closed standard output (``nhex tiles >&-``), a full disk (``> /dev/full``), a folder nobody may write: each is
a :class:`StreamFailure` naming what failed, which the command line reports on standard error with an exit status
of its own (5), never the status 1 that means "the answer is no". Files nhex writes (cards, pictures, batch
results) are written whole or not at all: to a temporary file in the same folder, then renamed into place, so that
a run killed halfway leaves the previous file or none, never half of one.
"""

from __future__ import annotations

import os
from typing import Any, TextIO


class StreamFailure(Exception):
    """Standard input or output, or a file being written, failed: closed, full, or not allowed."""


def reason(error: OSError) -> str:
    """The words of an operating-system error, without Python's ``[Errno N]`` (``No space left on device``)."""
    return error.strerror or str(error)


class GuardedOutput:
    """Standard output, whose failures say they are standard output's.

    ``sys.stdout`` is ``None`` when the process started with it closed; every write then fails as a write to a
    closed stream does. A reader that goes away (``BrokenPipeError``) is not a failure: it passes through, and the
    command line stops quietly (as git does)."""

    def __init__(self, stream: TextIO | None, name: str = "standard output") -> None:
        self.stream = stream
        self.name = name

    def _failed(self, error: OSError | None) -> StreamFailure:
        if error is None:
            return StreamFailure(f"cannot write {self.name}: it is closed")
        return StreamFailure(f"cannot write {self.name}: {reason(error)}")

    def write(self, text: str) -> int:
        if self.stream is None:
            raise self._failed(None)
        try:
            return self.stream.write(text)
        except BrokenPipeError:
            raise
        except OSError as error:
            raise self._failed(error) from None
        except ValueError:  # "I/O operation on closed file"
            raise self._failed(None) from None

    def writelines(self, lines: Any) -> None:
        for line in lines:
            self.write(line)

    def flush(self) -> None:
        if self.stream is None:
            return  # nothing was written to it, or the write already failed
        try:
            self.stream.flush()
        except BrokenPipeError:
            raise
        except OSError as error:
            raise self._failed(error) from None
        except ValueError:
            raise self._failed(None) from None

    def isatty(self) -> bool:
        return self.stream is not None and self.stream.isatty()

    def fileno(self) -> int:
        if self.stream is None:
            raise OSError(9, "Bad file descriptor")
        return self.stream.fileno()

    @property
    def encoding(self) -> str:
        return getattr(self.stream, "encoding", None) or "utf-8"

    def __getattr__(self, name: str) -> Any:
        return getattr(self.stream, name)


def write_atomically(path: str | os.PathLike[str], data: str | bytes) -> None:
    """Write ``data`` to ``path`` whole or not at all: a temporary file in the same folder, flushed to the disk,
    then renamed over ``path`` (a rename within one folder is atomic on POSIX and Windows). A failure removes the
    temporary file and raises :class:`StreamFailure` naming ``path``."""
    import tempfile  # here, not at the top: reading a position imports this module, and a start stays quick
    from pathlib import Path

    target = Path(path)
    try:
        if target.is_dir():
            raise StreamFailure(f"cannot write {target}: it is a folder")
        handle, temporary = tempfile.mkstemp(prefix=f".{target.name}.", suffix=".part", dir=target.parent)
    except OSError as error:
        raise StreamFailure(f"cannot write {target}: {reason(error)}") from None
    try:
        with os.fdopen(handle, "wb") as stream:
            stream.write(data.encode("utf-8") if isinstance(data, str) else data)
            stream.flush()
            os.fsync(stream.fileno())
        os.chmod(temporary, 0o666 & ~_umask())
        os.replace(temporary, target)
    except BaseException as error:  # an interrupt too: no temporary file is left behind
        try:
            os.unlink(temporary)
        except OSError:
            pass
        if isinstance(error, OSError):
            raise StreamFailure(f"cannot write {target}: {reason(error)}") from None
        raise


def _umask() -> int:
    """The process's umask (mkstemp makes files 0600; a card is as readable as any file the user writes)."""
    mask = os.umask(0)
    os.umask(mask)
    return mask
