"""What a start of ``nhex`` builds and imports (issue 10, "Fast start"): the time itself is measured by hand
(bench/bench_startup.py), never here; these tests keep the shortcuts from changing what the user sees."""

from __future__ import annotations

import argparse
import subprocess
import sys
from pathlib import Path

import pytest

from solver import cli

ROOT = Path(__file__).resolve().parent.parent


def _help(parser_of: object, words: list[str], capsys: pytest.CaptureFixture[str]) -> str:
    with pytest.raises(SystemExit):
        parser_of.parse_args(words)  # type: ignore[attr-defined]
    return capsys.readouterr().out


@pytest.mark.parametrize("name", sorted(cli.COMMANDS))
def test_a_command_built_alone_has_the_help_it_has_among_all(name: str, capsys: pytest.CaptureFixture[str]):
    assert _help(cli.build_parser(name), [name, "--help"], capsys) == _help(cli.build_parser(), [name, "--help"],
                                                                           capsys)


@pytest.mark.parametrize("words", [
    ["fmt", "x.nhex"], ["solve", "--json", "--max-time", "5", "card.nhex"], ["tiles", "moloch"], ["rules", "--json"],
    ["show", "--turn", "3", "game.nhex"], ["generate", "--player", "outpost", "--opponent", "moloch", "--level", "2", "--seed", "7"],
])
def test_a_command_built_alone_reads_its_arguments_as_among_all(words: list[str]):
    assert vars(cli.build_parser(words[0]).parse_args(words)) == vars(cli.build_parser().parse_args(words))


def test_the_command_word_is_the_first_word_when_it_names_a_command():
    assert cli._command_word(["fmt", "x"]) == "fmt"
    assert cli._command_word(["--version"]) is None
    assert cli._command_word(["fmtx", "x"]) is None
    assert cli._command_word([]) is None


def test_a_wrong_command_is_named_among_all_the_commands(capsys: pytest.CaptureFixture[str]):
    assert cli.main.__name__ == "main"
    with pytest.raises(SystemExit) as stop:
        cli.main(["fmtx", "file.nhex"])
    assert stop.value.code == 2
    error = capsys.readouterr().err
    assert "invalid choice: 'fmtx'" in error and "'solve'" in error


def test_reading_a_position_imports_no_lark_and_no_puzzle_cards():
    """``nhex fmt`` of a position runs on the generated parser (solver/notation/make_parser.py) and never imports Lark,
    the card and record values, rich, json or pathlib; nor shutil (argparse's formatter would import it for the
    terminal's width) or unicodedata (names in ASCII need no folding of diacritics), nor the scenario rules or the actions of a turn."""
    probe = ("import sys, runpy; sys.argv = ['nhex', 'fmt', 'bench/six-units.nhex']\n"
             "try:\n    runpy.run_module('solver.cli', run_name='__main__')\nexcept SystemExit:\n    pass\n"
             "print(sorted(m for m in ('lark', 'solver.notation.cards', 'rich', 'json', 'pathlib', 'shutil', 'unicodedata',"
             " 'solver.notation.scenarios', 'solver.action_values')"
             " if m in sys.modules),"
             " file=sys.stderr)")
    done = subprocess.run([sys.executable, "-c", probe], cwd=ROOT, capture_output=True, text=True, check=True)
    assert "c3 moloch:hq N hp=12" in done.stdout
    assert done.stderr.strip() == "[]"


@pytest.mark.parametrize("columns", [None, "50", "0", "wide", "200"])
def test_help_is_as_wide_as_shutil_would_make_it(columns: str | None, monkeypatch: pytest.MonkeyPatch):
    """The formatter's width without importing shutil is the width argparse would take from shutil."""
    import shutil

    if columns is None:
        monkeypatch.delenv("COLUMNS", raising=False)
    else:
        monkeypatch.setenv("COLUMNS", columns)
    assert cli._Formatter("nhex")._width == argparse.HelpFormatter("nhex")._width  # type: ignore[attr-defined]
    assert cli._terminal_columns() == shutil.get_terminal_size().columns
