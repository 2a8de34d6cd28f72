"""Nothing a careful user or a hostile file does ends in a traceback, a wrong status or gigabytes (issue 25).

Each test reproduces one way nhex used to end badly, through the real command (a subprocess) where the fault lives
outside Python: closed streams, a full disk, an unprivileged user, a memory limit, a killed parent.
"""

from __future__ import annotations

import os
import shlex
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
PUZZLE = str(ROOT / "puzzles" / "01-point-blank.nhex")
EXIT_STREAM = 5


def shell(command: str, timeout: float = 120) -> subprocess.CompletedProcess:
    """``nhex COMMAND`` run by sh, whose redirections (``>&-``, ``> /dev/full``) the test writes in ``command``."""
    nhex = f"{shlex.quote(sys.executable)} -m solver.cli"
    done = subprocess.run(["sh", "-c", command.replace("nhex ", nhex + " ", 1)], cwd=ROOT, capture_output=True,
                          text=True, timeout=timeout)
    assert "Traceback" not in done.stderr, done.stderr
    return done


# --- 6. closed standard streams and a full disk: a message and a status of their own ---------------------------


@pytest.mark.parametrize("command", ["tiles", "tiles --json", f"fmt {PUZZLE}", f"show {PUZZLE}", "rules",
                                     f"battle {PUZZLE}", f"check --json {PUZZLE}", f"card {PUZZLE} --svg -",
                                     "--version", "solve --help"])
def test_a_closed_standard_output_is_named_with_status_5(command):
    done = shell(f"nhex {command} >&-")
    assert done.returncode == EXIT_STREAM
    assert done.stderr == "nhex: cannot write standard output: it is closed\n"


@pytest.mark.skipif(not os.path.exists("/dev/full"), reason="no /dev/full on this system")
@pytest.mark.parametrize("command", ["tiles", "tiles --json", f"fmt {PUZZLE}", f"show {PUZZLE}",
                                     f"solve --jobs 1 {PUZZLE}", f"moves --json {PUZZLE}", "completion bash",
                                     "--version"])
def test_a_full_disk_under_standard_output_is_named_with_status_5(command):
    done = shell(f"nhex {command} > /dev/full")
    assert done.returncode == EXIT_STREAM
    assert done.stderr == "nhex: cannot write standard output: No space left on device\n"


def test_a_closed_standard_input_is_named_with_status_5():
    done = shell("nhex fmt - <&-")
    assert done.returncode == EXIT_STREAM
    assert done.stderr == "nhex: cannot read standard input: it is closed\n"


def test_a_closed_standard_error_changes_no_status():
    """The message is lost with standard error; the status still says what happened."""
    assert shell("nhex tiles >&- 2>&-").returncode == EXIT_STREAM
    assert shell(f"nhex fmt {PUZZLE} 2>&-").returncode == 0


def test_a_reader_going_away_is_still_quiet_and_status_0():
    done = shell("nhex tiles | head -1; exit $?")
    assert done.returncode == 0 and done.stderr == ""


def test_every_command_lists_status_5_in_its_help():
    done = shell("nhex fmt --help")
    assert "  5  standard input or output, or a file being written, failed" in done.stdout
