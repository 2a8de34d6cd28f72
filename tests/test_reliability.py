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


# --- 1. a goal nested deeper than the writers can write is refused where it is read ------------------------------


def _card_with_goal(goal: str) -> str:
    return f'puzzle "deep"\nlevel 1\nplayer outpost\noffer outpost:move\n\ngoal {goal}\nc3 outpost:hq\nc1 moloch:hq\n'


def _nested(depth: int) -> str:
    """A goal of ``depth`` levels: `not`, `and` and `or` in turn, each inside the one before."""
    goal = "win"
    for level in range(depth):
        goal = ("not " + goal, f"(win and {goal})", f"(dead c2 or {goal})")[level % 3]
    return goal


@pytest.mark.parametrize("command", [["fmt"], ["show"], ["check"], ["battle"], ["moves"], ["solve", "--jobs", "1"],
                                     ["card", "--svg", "OUT"]])
def test_a_goal_nested_too_deeply_is_refused_at_its_line_by_every_command(command, tmp_path, capsys):
    """NOTATION §6 gives goals `not`, `and`, `or` and brackets, and no depth; the reader allows 100 levels (a card
    nests two or three) and refuses more at the goal's line, so no command accepts what another dies on."""
    from solver.cli import main
    from solver.notation.text import GOAL_DEPTH

    path = tmp_path / "deep.nhex"
    for depth in (GOAL_DEPTH + 1, 500, 3000):
        path.write_text(_card_with_goal(_nested(depth)))
        argv = [str(tmp_path / "out.svg") if word == "OUT" else word for word in command]
        assert main([*argv[:1], str(path), *argv[1:]]) == 2
        assert capsys.readouterr().err == (f"{path}:6:1: goal nested too deeply: {depth} levels of `not`, `and`, "
                                           f"`or`; at most {GOAL_DEPTH}\n")


@pytest.mark.parametrize("command", [["fmt"], ["show"], ["check"], ["card", "--svg", "OUT"],
                                     ["card", "--solution", "--svg", "OUT"]])
def test_a_goal_nested_to_the_limit_is_read_written_and_drawn(command, tmp_path, capsys):
    from solver.cli import main
    from solver.notation.text import GOAL_DEPTH, parse

    path = tmp_path / "deep.nhex"
    path.write_text(_card_with_goal(_nested(GOAL_DEPTH)))
    argv = [str(tmp_path / "out.svg") if word == "OUT" else word for word in command]
    assert main([*argv[:1], str(path), *argv[1:]]) == 0
    if command == ["fmt"]:
        written = capsys.readouterr().out
        assert parse(written).goal == parse(path.read_text()).goal  # type: ignore[union-attr]


# --- 2. every number is checked where it is read ---------------------------------------------------------------

#: Files with a number in every statement that takes one: cards, records of every expansion, scenarios.
NUMBERED = [ROOT / "puzzles" / "01-point-blank.nhex", ROOT / "tests" / "data" / "games" / "duel-example-pl.nhex",
            ROOT / "tests" / "data" / "games" / "moloch-mirror-score.nhex",
            ROOT / "tests" / "data" / "games" / "doomsday-vs-moloch-bomber.nhex",
            ROOT / "tests" / "data" / "games" / "new-york-vs-neojungle-b13.nhex",
            *sorted((ROOT / "tests" / "data" / "scenarios").glob("*.nhex"))]


def _numbers(text: str) -> list[tuple[int, int, int]]:
    """Each whole number outside comments and strings: (line, column, offset) (not the digits of hexes or names)."""
    import re

    found = []
    offset = 0
    for number, line in enumerate(text.splitlines(keepends=True), start=1):
        code = re.sub(r'"(?:[^"\\]|\\.)*"', lambda m: " " * len(m.group()), line.split("#")[0])
        for match in re.finditer(r"(?<![\w\-.(,])\d+(?![\w\-])", code):
            found.append((number, match.start() + 1, offset + match.start()))
        offset += len(line)
    return found


@pytest.mark.parametrize("path", NUMBERED, ids=lambda p: p.name)
def test_a_number_of_5000_digits_is_located_wherever_it_stands(path, tmp_path, capsys):
    """README, "Readings of the notation": numbers are at most 9 digits, and a longer one is refused at its place,
    whatever the statement (`energy`, `score`, `deck`, `start-hp`, a turn's number...), never by Python's own
    4,300-digit limit without a place."""
    from solver.cli import main

    text = path.read_text(encoding="utf-8")
    places = _numbers(text)
    assert places
    target = tmp_path / path.name
    for line, column, offset in places:
        digits = len(text[offset:]) - len(text[offset:].lstrip("0123456789"))
        target.write_text(text[:offset] + "7" * 5000 + text[offset + digits:], encoding="utf-8")
        assert main(["fmt", str(target)]) == 2, (line, column)
        error = capsys.readouterr().err
        assert error.startswith(f"{target}:{line}:{column}: ") and "at most 9 digits" in error, (line, column, error)


# --- 5. --jobs is capped at the cores --------------------------------------------------------------------------


@pytest.mark.parametrize("command", [["solve", "--brief", PUZZLE], ["solve-all", str(ROOT / "puzzles"), "--max-time", "0"]])
def test_more_jobs_than_cores_are_capped_at_the_cores_and_said_so(command, monkeypatch, capsys):
    """`--jobs 40` on a machine of one core forks no 40 workers: one, and standard error says so."""
    import solver.cli
    from solver.search import solve

    monkeypatch.setattr(solver.cli, "_cores", lambda: 1)
    asked: list[int] = []
    original = solve.Solver.__init__

    def recording(self, *args, **kwargs):  # type: ignore[no-untyped-def]
        asked.append(kwargs.get("jobs", 1))
        original(self, *args, **kwargs)

    monkeypatch.setattr(solve.Solver, "__init__", recording)
    solver.cli.main([command[0], "--jobs", "40", *command[1:]])
    assert capsys.readouterr().err.startswith("nhex: --jobs 40: this machine has 1 core; using 1\n")
    assert asked and set(asked) == {1}


# --- 7, 8. folders the user may not write or read (run unprivileged) -------------------------------------------


def _unprivileged() -> list[str]:
    """A command prefix that runs nhex without the power to ignore file permissions: as `nobody` when this test
    runs as root and nobody can run this Python; else as root with every capability dropped (CAP_DAC_OVERRIDE
    gone, root meets the permission bits as any user does); as the user itself when it is not root."""
    import shutil

    if os.geteuid() != 0:
        return []
    setpriv = shutil.which("setpriv")
    if setpriv is None:
        pytest.skip("running as root without setpriv: no way to run unprivileged")
    for prefix in ([setpriv, "--reuid=nobody", "--regid=nogroup", "--clear-groups", "--"],
                   [setpriv, "--inh-caps=-all", "--bounding-set=-all", "--"]):
        probe = subprocess.run([*prefix, sys.executable, "-c", "import os, solver; open('/proc/self/status')"],
                               cwd=ROOT, capture_output=True)
        if probe.returncode == 0:
            return prefix
    pytest.skip("cannot run this Python unprivileged here")


def unprivileged(*argv: str) -> subprocess.CompletedProcess:
    done = subprocess.run([*_unprivileged(), sys.executable, "-m", "solver.cli", *argv], cwd=ROOT,
                          capture_output=True, text=True, timeout=300, env={**os.environ, "HOME": "/nonexistent"})
    assert "Traceback" not in done.stderr, done.stderr
    return done


@pytest.fixture
def shared_tmp():
    """A folder any user may enter, of its own under the system's temporary folder (pytest's is the user's alone,
    and other pytest sessions set its mode back to 0700 when they start)."""
    import shutil
    import tempfile

    folder = Path(tempfile.mkdtemp(prefix="nhex-reliability-"))
    os.chmod(folder, 0o777)
    yield folder
    for where, folders, _ in os.walk(folder):
        for name in folders:
            os.chmod(os.path.join(where, name), 0o755)
    shutil.rmtree(folder, ignore_errors=True)


@pytest.mark.parametrize("option, target", [("--sheets", "locked/sheets"), ("--sheets", "locked"),
                                            ("--svg", "locked/front.svg"), ("--png", "locked/front.png")])
def test_a_card_into_a_folder_the_user_cannot_write_is_named_with_status_5(option, target, shared_tmp):
    locked = shared_tmp / "locked"
    locked.mkdir(mode=0o555)
    os.chmod(locked, 0o555)
    done = unprivileged("card", PUZZLE, option, str(shared_tmp / target))
    assert done.returncode == EXIT_STREAM, done.stderr
    named = shared_tmp / target if option != "--sheets" or target == "locked" else shared_tmp / target
    assert done.stderr.startswith("nhex: cannot ") and "Permission denied" in done.stderr
    assert str(named if target != "locked" else locked / "page-01.svg") in done.stderr
    assert list(locked.iterdir()) == []


@pytest.mark.parametrize("command", [["solve-all"], ["solve-all", "-r"], ["card", "--sheets", "SHEETS"]])
def test_a_folder_the_user_cannot_read_is_named_not_taken_for_an_empty_one(command, shared_tmp):
    """`nhex solve-all DIR` on a folder nobody may list said "0 cards", exit 0: it says it cannot read it, exit 2
    (as for a file that cannot be read: `FILE:0:0: cannot read the file`)."""
    import shutil

    closed = shared_tmp / "cards" / ("inner" if "-r" in command else "")
    closed.mkdir(parents=True, exist_ok=True)
    shutil.copy(PUZZLE, closed)
    os.chmod(closed, 0o300)  # written to, never listed
    argv = [str(shared_tmp / "sheets") if word == "SHEETS" else word for word in command]
    done = unprivileged(argv[0], str(shared_tmp / "cards"), *argv[1:])
    assert done.returncode == 2
    assert done.stderr == f"{str(closed).rstrip('/')}:0:0: cannot read the folder: Permission denied\n"


# --- 4. generate --count 999999999: memory does not depend on the count -----------------------------------------

#: Address space allowed a command under test (bytes): a few times what nhex needs (generate: about 60 MB).
MEMORY = 1 << 30


def limited(*argv: str, memory: int = MEMORY, stdin: bytes | None = None, **popen: object) -> subprocess.Popen:
    """``nhex ARGV`` started in a process whose address space is capped (resource.RLIMIT_AS): what would take
    gigabytes fails with MemoryError instead of taking them."""
    import resource
    import signal

    def cap() -> None:
        resource.setrlimit(resource.RLIMIT_AS, (memory, memory))
        # Ctrl-C as a user's terminal sends it: a suite started in the background (`.ci/run &`) ignores SIGINT, and
        # Python started with SIGINT ignored never raises KeyboardInterrupt (as in test_cli_user's interrupts).
        signal.signal(signal.SIGINT, signal.SIG_DFL)

    return subprocess.Popen([sys.executable, "-m", "solver.cli", *argv], cwd=ROOT, preexec_fn=cap,
                            stdin=subprocess.PIPE if stdin is not None else subprocess.DEVNULL,
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, **popen)  # type: ignore[call-overload]


def test_generate_with_a_count_of_a_billion_makes_its_first_card_in_little_memory(tmp_path):
    """The cards are made one by one: a count of 999,999,999 allocated lists of that length first (8.8 GB)."""
    import signal
    import time

    out = tmp_path / "cards"
    process = limited("generate", "--player", "outpost", "--opponent", "moloch", "--level", "1", "--seed", "7",
                      "--count", "999999999", "--jobs", "1", "-o", str(out))
    deadline = time.monotonic() + 120
    while process.poll() is None and not list(out.glob("*.nhex")) and time.monotonic() < deadline:
        time.sleep(0.2)
    assert process.poll() is None, process.communicate()[1].decode()
    process.send_signal(signal.SIGINT)
    _, err = process.communicate(timeout=60)
    # What it said, in the message, if it did not stop as interrupted.
    assert process.returncode == 130, err.decode()[-2000:]
    assert "MemoryError" not in err.decode() and "Traceback" not in err.decode()
    assert (out / "outpost-vs-moloch-level1-7-0-0.nhex").is_file()


# --- 9. generate --svg where a picture's path is a folder ---------------------------------------------------------


def test_generate_svg_onto_a_folder_names_the_svg_and_writes_nothing_of_the_card(tmp_path, capsys):
    from solver.cli import main

    (tmp_path / "outpost-vs-moloch-level1-7-0-0-solution.svg").mkdir()
    status = main(["generate", "--player", "outpost", "--opponent", "moloch", "--level", "1", "--seed", "7",
                   "--jobs", "1", "--svg", "-o", str(tmp_path)])
    assert status == EXIT_STREAM
    err = capsys.readouterr().err
    assert f"nhex: cannot write {tmp_path}/outpost-vs-moloch-level1-7-0-0-solution.svg: it is a folder\n" in err
    assert sorted(p.name for p in tmp_path.iterdir()) == ["outpost-vs-moloch-level1-7-0-0-solution.svg"]


# --- cards are never half-written ----------------------------------------------------------------------------------


def test_a_file_written_atomically_is_the_old_one_or_the_new_one_never_half(tmp_path, monkeypatch):
    from solver import streams

    path = tmp_path / "card.nhex"
    path.write_text("old card\n")

    def killed(_: int) -> None:
        raise KeyboardInterrupt  # the run stopped in the middle of writing

    monkeypatch.setattr(os, "fsync", killed)
    with pytest.raises(KeyboardInterrupt):
        streams.write_atomically(path, "new card\n" * 1000)
    assert path.read_text() == "old card\n" and [p.name for p in tmp_path.iterdir()] == ["card.nhex"]
    monkeypatch.undo()
    streams.write_atomically(path, "new card\n")
    assert path.read_text() == "new card\n" and [p.name for p in tmp_path.iterdir()] == ["card.nhex"]
    assert path.stat().st_mode & 0o777 == 0o666 & ~_umask()


def _umask() -> int:
    mask = os.umask(0)
    os.umask(mask)
    return mask


# --- resume: the same generate command run again keeps what was proven and makes the rest --------------------------


def test_generate_run_again_keeps_the_proven_cards_redoes_the_damaged_and_ends_as_an_uninterrupted_run(tmp_path, capsys):
    import json

    from solver.cli import main

    def run(folder: Path, count: int) -> list[dict]:
        argv = ["generate", "--player", "outpost", "--opponent", "moloch", "--level", "1", "--seed", "r",
                "--jobs", "1", "--json", "--count", str(count), "-o", str(folder)]
        assert main(argv) == 0
        return json.loads(capsys.readouterr().out)

    whole = tmp_path / "whole"
    run(whole, 4)
    expected = {p.name: p.read_bytes() for p in whole.iterdir()}
    cut = tmp_path / "cut"
    first = run(cut, 2)  # interrupted after two cards
    assert not any(card["kept"] for card in first)
    names = sorted(p.name for p in cut.iterdir())
    damaged = cut / names[1]
    damaged.write_bytes(damaged.read_bytes()[:200])  # half a card (what a write without rename could leave)
    again = run(cut, 4)
    assert [card["kept"] for card in again] == [True, False, False, False]
    assert {p.name: p.read_bytes() for p in cut.iterdir()} == expected


# --- 11. kill -9 of generate --jobs 2: the workers go quietly ------------------------------------------------------


def _children(pid: int) -> set[int]:
    try:
        return {int(child) for task in os.listdir(f"/proc/{pid}/task")
                for child in Path(f"/proc/{pid}/task/{task}/children").read_text().split()}
    except OSError:
        return set()


def _running(pid: int) -> bool:
    """Alive and not a zombie (an orphan's corpse waits for an init that may not reap it in a container)."""
    try:
        return Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()[0] != "Z"
    except OSError:
        return False


@pytest.mark.skipif(not Path("/proc/self/task").is_dir(), reason="needs /proc to find the workers")
def test_workers_of_a_killed_generate_quit_at_once_and_say_nothing(tmp_path):
    import signal
    import time

    errors = tmp_path / "stderr"
    with open(errors, "wb") as stream:
        process = subprocess.Popen([sys.executable, "-m", "solver.cli", "generate", "--player", "moloch",
                                    "--opponent", "hegemony", "--level", "4", "--count", "20", "--jobs", "2",
                                    "-o", str(tmp_path / "cards")], cwd=ROOT, stdout=subprocess.DEVNULL,
                                   stderr=stream)
    deadline = time.monotonic() + 60
    workers: set[int] = set()
    while len(workers) < 2 and time.monotonic() < deadline:
        time.sleep(0.2)
        workers = {child for child in _children(process.pid) if _running(child)}
    assert len(workers) >= 2
    time.sleep(1.0)  # the workers are in the middle of their drafts
    process.send_signal(signal.SIGKILL)
    process.wait(timeout=10)
    deadline = time.monotonic() + 10
    while any(_running(worker) for worker in workers) and time.monotonic() < deadline:
        time.sleep(0.1)
    assert not any(_running(worker) for worker in workers), "the orphaned workers went on with their drafts"
    # Only the parent's own first line (a pipe or a log is told what the run does, issue 26): no worker's traceback.
    said = errors.read_text().splitlines()
    assert all(line.startswith("nhex generate: ") for line in said), said


# --- 10. a Dask cluster that loses all its workers ------------------------------------------------------------------


def _slow_square(value: int) -> int:
    import time

    time.sleep(0.3)
    return value * value


def test_a_cluster_left_without_workers_is_said_and_given_up_after_the_bound_keeping_the_results():
    """The run says it is waiting and for how long, gives up after --wait-workers, and what came back stays."""
    distributed = pytest.importorskip("distributed")
    from solver.search.dispatch import ClusterLost, DaskCluster

    said: list[str] = []
    with distributed.LocalCluster(n_workers=1, threads_per_worker=1, processes=False,
                                  dashboard_address=None) as cluster:
        with DaskCluster(cluster.scheduler_address, wait_workers=1.5, say=said.append) as dispatcher:
            tasks = iter(range(1, 50))
            got: list[int] = []
            with pytest.raises(ClusterLost, match=r"has had no workers for 1.5 s: gave up \(--wait-workers\)"):
                for result in dispatcher.stream(_slow_square, lambda: next(tasks, None), window=1):
                    got.append(result)
                    if len(got) == 2:
                        cluster.scale(0)  # every worker leaves
            assert got[:2] == [1, 4]
    assert said and said[0] == (f"the Dask cluster at {cluster.scheduler_address} has no workers: waiting for one "
                                f"(giving up after 1.5 s: --wait-workers)")


def test_generate_on_a_cluster_that_loses_its_workers_keeps_its_cards_and_exits_3(tmp_path, monkeypatch, capsys):
    distributed = pytest.importorskip("distributed")
    from solver.cli import main
    from solver.search import generate

    with distributed.LocalCluster(n_workers=1, threads_per_worker=1, processes=False,
                                  dashboard_address=None) as cluster:
        def written(made: object, _real=generate.card_text) -> str:  # the first card written: the workers go
            cluster.scale(0)
            return _real(made)  # type: ignore[arg-type]

        monkeypatch.setattr(generate, "card_text", written)
        status = main(["generate", "--player", "outpost", "--opponent", "moloch", "--level", "1", "--seed", "7",
                       "--count", "3", "--scheduler", cluster.scheduler_address, "--wait-workers", "1",
                       "-o", str(tmp_path)])
    err = capsys.readouterr().err
    assert status == 3
    assert "has no workers: waiting for one (giving up after 1 s: --wait-workers)" in err
    made = sorted(p.name for p in tmp_path.iterdir())
    assert made[0] == "outpost-vs-moloch-level1-7-0-0.nhex" and len(made) < 3  # the workers left after the first
    kept = "1 card made so far is" if len(made) == 1 else "2 cards made so far are"
    assert f"gave up (--wait-workers); the {kept} in {tmp_path}, and the same command run again" in err


# --- resume: solve-all --out continues an interrupted batch --------------------------------------------------------


def test_solve_all_run_again_after_an_interruption_solves_only_the_rest(tmp_path, monkeypatch, capsys):
    import json

    from solver.cli import main
    from solver.search import batch

    cards = tmp_path / "cards"
    cards.mkdir()
    for name in ("01-point-blank.nhex", "02-long-shot.nhex", "08-out-of-line.nhex"):
        (cards / name).write_text((ROOT / "puzzles" / name).read_text(encoding="utf-8"), encoding="utf-8")
    assert main(["solve-all", str(cards), "--jobs", "1", "--json", "--counters"]) == 0
    whole = json.loads(capsys.readouterr().out)

    real, solved = batch.solve_text, []

    def interrupted(job, report_json):  # type: ignore[no-untyped-def]
        if len(solved) == 2:
            raise KeyboardInterrupt
        solved.append(job.file)
        return real(job, report_json)

    out = tmp_path / "rows.json"
    monkeypatch.setattr(batch, "solve_text", interrupted)
    assert main(["solve-all", str(cards), "--jobs", "1", "--out", str(out)]) == 130
    assert not out.exists() and len(Path(f"{out}.partial").read_text().splitlines()) == 2
    solved.clear()
    (cards / "02-long-shot.nhex").write_text((cards / "02-long-shot.nhex").read_text() + "# edited\n")
    capsys.readouterr()
    assert main(["solve-all", str(cards), "--jobs", "1", "--out", str(out), "--counters"]) == 0
    assert solved == [str(cards / "02-long-shot.nhex"), str(cards / "08-out-of-line.nhex")]  # edited, and the rest
    assert json.loads(out.read_text()) == whole and not Path(f"{out}.partial").exists()


# --- 3. reading memory stays proportional to the file ---------------------------------------------------------------


def _peak_of(path: Path, *argv: str, memory: int) -> tuple[int, str]:
    """Status and standard error of `nhex ARGV FILE` under an address space of ``memory`` bytes."""
    process = limited(*argv, str(path), memory=memory)
    _, err = process.communicate(timeout=300)
    return process.returncode, err.decode()


CARD_HEAD = 'puzzle "long"\nlevel 1\nplayer outpost\noffer outpost:move\ngoal win\nc3 outpost:hq\nc1 moloch:hq\n'


@pytest.mark.parametrize("name, text, status", [
    # a story of 8 MB, escapes in it: the string's expression kept a state per character (200 MB a megabyte)
    ("story", CARD_HEAD.replace("goal win\n", 'goal win\nstory "' + 'ab\\"' * 2_000_000 + '"\n'), 0),
    ("comment", "c3 outpost:hq\n# " + "x" * 8_000_000 + "\nc1 moloch:hq\n", 0),
    ("blank lines", "c3 outpost:hq\n" + "\n  " * 2_000_000 + "c1 moloch:hq\n", 0),
    # 8 MB of unit lines: refused at the first statement too many, before a parse tree of 2 KB a line
    ("unit lines", "c3 outpost:hq\nc1 moloch:hq\n" + "c2 moloch:blocker N\n" * 400_000, 2),
    ("one long line", "c3 outpost:hq\nc1 moloch:hq\nhand moloch" + " moloch:blocker" * 500_000 + "\n", 2),
])
def test_reading_a_large_file_takes_memory_in_proportion_to_it(name, text, status, tmp_path):
    """A few times the file's size, under RLIMIT_AS: the address space of the interpreter and nhex's modules
    (about 200 MB here, mostly shared libraries mapped) plus 8 times the file."""
    path = tmp_path / "large.nhex"
    path.write_text(text)
    returncode, err = _peak_of(path, "check", memory=(200 << 20) + 8 * len(text))
    assert "MemoryError" not in err and "Traceback" not in err, err[-500:]
    assert returncode == status, err[-500:]
    if status == 2:
        assert err.startswith(f"{path}:") and "too many" in err


def test_the_limits_of_a_file_are_far_above_any_real_one():
    """Every file of the repository is far inside the limits (a tenth of them at most)."""
    from solver.notation.text import MAX_STATEMENTS, MAX_WORDS, _WORDS

    for path in [*ROOT.glob("puzzles/**/*.nhex"), *ROOT.glob("tests/**/*.nhex")]:
        text = path.read_text(encoding="utf-8-sig")
        words = [m.group() for m in _WORDS.finditer(text) if m.group()[0] not in "#\n"]
        assert len(words) < MAX_WORDS // 10, path
        statements = [line for line in text.splitlines() if line.split("#")[0].strip()]
        assert len(statements) < MAX_STATEMENTS // 10, path


def test_what_a_killed_write_left_is_no_card_and_goes_when_generate_runs_again(tmp_path, capsys):
    from solver.cli import main

    left = tmp_path / ".outpost-vs-moloch-level1-7-0-0.nhex.k2j4_x.part"
    left.write_text("puzzle \"half")
    other = tmp_path / ".notes.part"  # not a card of this run's: left alone
    other.write_text("mine")
    assert main(["solve-all", str(tmp_path), "--json"]) == 0 and capsys.readouterr().out.strip() == "[]"
    assert main(["generate", "--player", "outpost", "--opponent", "moloch", "--level", "1", "--seed", "7",
                 "--jobs", "1", "-o", str(tmp_path)]) == 0
    assert sorted(p.name for p in tmp_path.iterdir()) == [".notes.part", "outpost-vs-moloch-level1-7-0-0.nhex"]


def test_solve_all_on_a_cluster_that_loses_its_workers_keeps_the_rows_solved_and_exits_3(tmp_path, monkeypatch,
                                                                                           capsys):
    distributed = pytest.importorskip("distributed")
    from solver.cli import main
    from solver.search import batch

    cards = tmp_path / "cards"
    cards.mkdir()
    # A quick card first, then two that take about a second each: the worker is asked to leave when the first row
    # comes back, and three cards of some milliseconds were sometimes all solved before it had left (a loaded
    # machine, the solver faster), which is another test (status 0).
    for name in ("01-point-blank.nhex", "generated/doomsday-vs-outpost-level3-61-0-1.nhex",
                 "generated/neojungle-vs-hegemony-level3-c4-0-0.nhex"):
        (cards / Path(name).name).write_text((ROOT / "puzzles" / name).read_text(encoding="utf-8"), encoding="utf-8")
    out = tmp_path / "rows.json"
    with distributed.LocalCluster(n_workers=1, threads_per_worker=1, processes=False,
                                  dashboard_address=None) as cluster:
        real = batch.Journal.add

        def add(self, key, row):  # type: ignore[no-untyped-def]  # the first row back: every worker leaves
            real(self, key, row)
            cluster.scale(0)

        monkeypatch.setattr(batch.Journal, "add", add)
        status = main(["solve-all", str(cards), "--scheduler", cluster.scheduler_address, "--wait-workers", "1",
                       "--out", str(out)])
    err = capsys.readouterr().err
    assert status == 3 and "has no workers: waiting for one (giving up after 1 s: --wait-workers)" in err
    import re

    said = re.search(r"gave up \(--wait-workers\): ([12]) of 3 cards solved; the \1 solved are kept in (\S+)\n", err)
    assert said and said.group(2) == f"{out}.partial", err
    assert not out.exists() and len(Path(f"{out}.partial").read_text().splitlines()) == int(said.group(1))
