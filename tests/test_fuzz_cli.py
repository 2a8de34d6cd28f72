"""A seeded mutation fuzzer over every command (issue 10): malformed notation never gives a traceback, and every
error of bad input (exit 2) or of a missing rule (exit 4) is located, ``FILE:LINE:COLUMN: message``. The
expansions' inputs (Duel, Babel 13, Doomsday, multiplayer, scenario files and campaigns; issue 25) get mutants
of their own, with their own words (``NHEX_FUZZ_EXPANSIONS=N`` mutants each instead of 40).

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


# --- the expansions (issue 25): Duel, Babel 13, Doomsday, multiplayer and scenario files -------------------------

_DATA = ROOT / "tests" / "data"
#: Each expansion's inputs: cards, game records and scenario files that use its statements.
EXPANSIONS = {
    "duel": [ROOT / "puzzles" / "25-short-circuit.nhex", ROOT / "puzzles" / "26-three-points-of-contact.nhex",
             _DATA / "games" / "duel-example-pl.nhex"],
    "babel13": [ROOT / "puzzles" / "27-into-the-thicket.nhex", ROOT / "puzzles" / "28-spoils.nhex",
                ROOT / "puzzles" / "30-high-ground.nhex", _DATA / "games" / "new-york-vs-neojungle-b13.nhex"],
    "doomsday": [ROOT / "puzzles" / "16-bank-shot.nhex", ROOT / "puzzles" / "17-tripwire.nhex",
                 ROOT / "puzzles" / "19-over-the-top.nhex", _DATA / "games" / "doomsday-vs-moloch-bomber.nhex"],
    "multiplayer": [_DATA / "games" / "four-player-deathmatch.nhex", _DATA / "games" / "four-player-deathmatch-midgame.nhex",
                    _DATA / "games" / "score-three-players.nhex", _DATA / "games" / "mirror-team-match.nhex",
                    _DATA / "games" / "moloch-mirror-three-players.nhex", _DATA / "games" / "mad-bomber-three-players.nhex"],
    "scenario": sorted((_DATA / "scenarios").glob("*.nhex")),
}
#: Each expansion's own words, for the mutations (NOTATION §10 and the README's scenario lines).
EXPANSION_SNIPPETS = {
    "duel": ["terminals", "energy", "energy moloch 3", "energy tile", "energy hq 2", "procedure", "procedure reset",
             "terminals a1 e3", "energy outpost 99"],
    "babel13": ["terrain", "terrain forest thick", "terrain warehouse closed", "strength=6", "prizes=mobility",
                "damaged-by=moloch", "turret c3 N", "prize mobility c2", "prizes moloch", "universal-1", "high",
                "fatal", "control-panel", "move c3 c4 by dismal"],
    "doomsday": ["doomsday:hq", "doomsday:", "turning", "rotate", "NE", "doomsday"],
    "multiplayer": ["players", "team", "team moloch outpost", "mode score", "score moloch 7", "mode deathmatch",
                    "expect winner", "expect draw", "expect score", "hegemony", "moloch/b", "/a", "owner="],
    "scenario": ["scenario babel13-1", "scenario babel13-9", "first-player", "hq-terrain new-york on", "not-on",
                 "start-hp", "free-turns", "victory fewer-injuries", "tie=", "recover", "warehouse-needs",
                 "radio", "reinforcements", "radio=captured", "on=bunker", "exact=yes", "20", "21", "0"],
}
EXPANSION_COUNT = int(os.environ.get("NHEX_FUZZ_EXPANSIONS", "40"))  # mutants per expansion in CI
#: The quick commands: the expansions' rules are met in reading, checking, listing and resolving.
EXPANSION_COMMANDS = [("fmt", ()), ("check", ("--json",)), ("moves", ()), ("battle", ("--json",)), ("show", ()),
                      ("check", ())]


def expansion_mutants() -> list:
    rng = random.Random(f"{SEED}:expansions")
    made = []
    for expansion, files in EXPANSIONS.items():
        snippets = SNIPPETS + EXPANSION_SNIPPETS[expansion] * 3  # the expansion's words more often than the rest
        for index in range(EXPANSION_COUNT):
            seed_file = rng.choice(files)
            text = seed_file.read_text(encoding="utf-8")
            for _ in range(rng.randint(1, 3)):
                text = mutate(text, rng) if rng.random() < 0.6 else _insert(text, rng, snippets)
            command, extra = EXPANSION_COMMANDS[index % len(EXPANSION_COMMANDS)]
            if expansion == "scenario" and index % 5 == 4:  # the mutant first, then the campaign's later scenarios
                later = [str(f) for f in files if f.name[:2] > seed_file.name[:2] and "radio-lost" not in f.name]
                command, extra = "campaign", tuple(later[:2])
            name = f"{expansion}-{index}-{command}-{seed_file.stem}"
            made.append(pytest.param(name, text, (command, *extra), False, id=name))
    return made


def _insert(text: str, rng: random.Random, snippets: list[str]) -> str:
    """One of the expansion's words put in a line, or a line of them added."""
    lines = text.split("\n")
    row = rng.randrange(len(lines))
    if rng.random() < 0.5:
        words = lines[row].split(" ")
        words.insert(rng.randint(0, len(words)), rng.choice(snippets))
        lines[row] = " ".join(words)
    else:
        lines.insert(row, " ".join(rng.choice(snippets) for _ in range(rng.randint(1, 4))))
    return "\n".join(lines)


@pytest.mark.parametrize("name, text, argv, from_stdin", expansion_mutants())
def test_an_expansion_mutant_gives_no_traceback_and_no_unlocated_error(name, text, argv, from_stdin, tmp_path, capsys,
                                                                       monkeypatch):
    test_a_mutant_gives_no_traceback_and_no_unlocated_error(name, text, argv, from_stdin, tmp_path, capsys,
                                                            monkeypatch)
