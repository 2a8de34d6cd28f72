"""The command line as a user runs it, for the tests that try nhex end to end."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent


def nhex(*argv: str, stdin: str | bytes | None = None, timeout: float = 300) -> subprocess.CompletedProcess:
    """Run ``nhex ARGV`` from the repository's root; standard output and error as text, never a traceback."""
    data = stdin.encode("utf-8") if isinstance(stdin, str) else stdin
    done = subprocess.run([sys.executable, "-m", "solver.cli", *argv], cwd=ROOT, input=data, capture_output=True,
                          timeout=timeout)
    result = subprocess.CompletedProcess(done.args, done.returncode, done.stdout.decode("utf-8", "replace"),
                                         done.stderr.decode("utf-8", "replace"))
    assert "Traceback" not in result.stderr, result.stderr
    return result
