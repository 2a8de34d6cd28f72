"""A seeded mutation fuzzer over every command (issue 10): malformed notation never gives a traceback, and every
error of bad input (exit 2) or of a missing rule (exit 4) is located, ``FILE:LINE:COLUMN: message``.

Mutants are made from the files in puzzles/ and tests/ by a seeded random generator, so a failure reproduces:
the test id names the mutant, and ``NHEX_FUZZ=N`` runs N mutants instead of the CI's few hundred
(``NHEX_FUZZ_SEED=S`` another seed). The command line runs in-process (``solver.cli.main``), which is what the
console script calls, so a traceback is an exception that escapes it.
"""

from __future__ import annotations

import io
import os
import random
import re
from pathlib import Path

import pytest

from solver.cli import main

ROOT = Path(__file__).resolve().parent.parent
SEEDS = sorted([*(ROOT / "puzzles").glob("*.nhex"), *(ROOT / "tests" / "data").rglob("*.nhex"),
                *(ROOT / "tests" / "malformed").glob("*.nhex"), *(ROOT / "bench").glob("*.nhex")])
COUNT = int(os.environ.get("NHEX_FUZZ", "300"))
SEED = os.environ.get("NHEX_FUZZ_SEED", "issue-10")

#: What a careless or hurried hand types: notation's own punctuation, digits of other scripts, a byte-order
#: mark, escapes, huge and negative numbers, names of other armies.
SNIPPETS = [" ", "\n", "\t", ":", ";", "=", "#", '"', "\\", "\\q", '\\"', "(", ")", ",", "-", "_", ".", "0", "1",
            "7", "-1", "99", "9" * 30, "9" * 5000, "\u0663", "\uff11", "\ufeff", "\u00e9", "\u0142", "\x00", "\r\n",
            "c3", "z9", "(0,-3)", "(9,9)", "N", "SW", "X", "hp=", "wounds=", "venom=2", "owner=moloch", "prize=a",
            "moloch:", "outpost:hq", "borgo:medic", "vegas:agitator", "new-york:shotgun", "mercenary:mad-bomber",
            "neojungle:roots", "puzzle", "game", "solution", "explanation", "offer", "play", "goal", "not", "and",
            "or", "(", "level 9", "to-move", "hand", "deck", "board custom", "board extended", "rules 2.0",
            "then nothing", "use", "place", "move", "draw", "discard", "pass", "hq", "expect hp", "1.", "3.",
            "players", "destroy", "alive", "dead", "damage", ">=", "=="]

#: (command, extra arguments): every command that reads a file, with its JSON form where it has one.
COMMANDS = [("fmt", ()), ("show", ()), ("check", ()), ("check", ("--json",)), ("moves", ()), ("moves", ("--json",)),
            ("battle", ("--no-board",)), ("battle", ("--json",)),
            ("solve", ("--jobs", "1", "--max-time", "2", "--tries", "1", "--brief")),
            ("solve", ("--jobs", "1", "--max-time", "2", "--json")), ("card", ("--svg", "{tmp}/card.svg")),
            ("show", ("--turn", "2"))]

LOCATED = re.compile(r"^(\S.*|<stdin>):\d+:\d+: \S")


def mutate(text: str, rng: random.Random) -> str:
    lines = text.split("\n")
    for _ in range(rng.randint(1, 4)):
        kind = rng.randrange(8)
        if not lines:
            lines = [""]
        row = rng.randrange(len(lines))
        line = lines[row]
        at = rng.randint(0, len(line))
        if kind == 0 and line:  # delete a stretch
            end = min(len(line), at + rng.randint(1, 6))
            lines[row] = line[:at] + line[end:]
        elif kind == 1:  # insert a snippet
            lines[row] = line[:at] + rng.choice(SNIPPETS) + line[at:]
        elif kind == 2:  # replace a word with a snippet or another line's word
            words = line.split(" ")
            other = rng.choice(lines).split(" ")
            words[rng.randrange(len(words))] = rng.choice([rng.choice(SNIPPETS), rng.choice(other)])
            lines[row] = " ".join(words)
        elif kind == 3:  # delete a line
            del lines[row]
        elif kind == 4:  # duplicate a line
            lines.insert(row, line)
        elif kind == 5:  # swap two lines
            other = rng.randrange(len(lines))
            lines[row], lines[other] = lines[other], line
        elif kind == 6:  # change a number
            lines[row] = re.sub(r"\d+", lambda m: rng.choice(["0", "-1", "5", "9" * 12, "4300", "\u0663"]), line,
                                count=1)
        else:  # change the case or the separators of a name
            lines[row] = line.upper() if rng.random() < 0.5 else line.replace("-", "_")
    return "\n".join(lines)


def mutants() -> list:
    """``pytest.param(name, text, argv, from_stdin)`` of each mutant, its id naming it (index, command, seed)."""
    rng = random.Random(SEED)
    made = []
    for index in range(COUNT):
        seed_file = rng.choice(SEEDS)
        text = mutate(seed_file.read_text(encoding="utf-8"), rng)
        command, extra = COMMANDS[index % len(COMMANDS)]
        from_stdin = rng.random() < 0.2
        name = f"{index}-{command}-{seed_file.stem}" + ("-stdin" if from_stdin else "")
        made.append(pytest.param(name, text, (command, *extra), from_stdin, id=name))
    return made


class _Stdin(io.TextIOWrapper):
    """Standard input with bytes underneath, as a terminal or a pipe gives it."""


@pytest.mark.parametrize("name, text, argv, from_stdin", mutants())
def test_a_mutant_gives_no_traceback_and_no_unlocated_error(name, text, argv, from_stdin, tmp_path, capsys,
                                                            monkeypatch):
    path = tmp_path / "mutant.nhex"
    path.write_text(text, encoding="utf-8", errors="surrogatepass")
    argv = tuple(a.replace("{tmp}", str(tmp_path)) for a in argv)
    if from_stdin:
        monkeypatch.setattr("sys.stdin", _Stdin(io.BytesIO(path.read_bytes()), encoding="utf-8"))
    command, *options = argv
    status = main([command, "-" if from_stdin else str(path), *options])
    out, err = capsys.readouterr()
    assert status in (0, 1, 2, 3, 4), (status, err)
    if status in (2, 4):
        assert err and LOCATED.match(err), f"unlocated error for {name}: {err!r}\n--- mutant ---\n{text}"
        assert out == "", f"exit {status} wrote to standard output for {name}"
