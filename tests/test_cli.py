"""The `nhex` command: output, exit status, and no traceback on bad input (NOTATION §9)."""

from __future__ import annotations

import io
import json
from pathlib import Path

import pytest

from solver.cli import EXIT_BAD_INPUT, EXIT_OK, main
from solver.notation.text import load, write

HERE = Path(__file__).parent
CROSSFIRE = str(HERE / "data" / "notation-crossfire.nhex")
MALFORMED = sorted((HERE / "malformed").glob("*.nhex"))


def run(capsys, *argv: str) -> tuple[int, str, str]:
    status = main(list(argv))
    out, err = capsys.readouterr()
    return status, out, err


def test_show_draws_the_bundled_puzzle(capsys):
    status, out, err = run(capsys, "show", CROSSFIRE)
    assert status == EXIT_OK and err == ""
    assert "Puzzle 1 · Crossfire" in out and "Blockr" in out and "hp 3" in out


def test_show_reads_standard_input(capsys, monkeypatch):
    monkeypatch.setattr("sys.stdin", io.StringIO("c3 moloch:hq hp=4\n"))
    status, out, _ = run(capsys, "show", "-")
    assert status == EXIT_OK and "moloch HQ 4" in out


def test_fmt_prints_the_canonical_form_and_is_idempotent(capsys, tmp_path):
    status, out, err = run(capsys, "fmt", CROSSFIRE)
    assert status == EXIT_OK and err == ""
    assert out == write(load(CROSSFIRE))
    again = tmp_path / "again.nhex"
    again.write_text(out, encoding="utf-8")
    assert run(capsys, "fmt", str(again))[1] == out


def test_fmt_of_a_messy_position(capsys, monkeypatch):
    monkeypatch.setattr("sys.stdin", io.StringIO("  C3 Moloch:HQ hp=5   # the HQ\nB2 moloch:Bloker ne\n"))
    status, out, _ = run(capsys, "fmt", "-")
    assert status == EXIT_OK
    assert out == "to-move moloch\nb2 moloch:blocker NE\nc3 moloch:hq N hp=5\n"


def test_tiles_lists_every_army(capsys):
    status, out, _ = run(capsys, "tiles")
    assert status == EXIT_OK
    for title in ("Moloch", "Outpost", "Borgo", "Hegemony", "Smart", "Vegas", "New York", "Neojungle",
                  "Doomsday Machine"):
        assert f"{title} (" in out
    assert out.count("35 tiles") == 9


def test_tiles_json_of_one_army_accepts_an_alias(capsys):
    status, out, _ = run(capsys, "tiles", "posterunek", "--json")
    assert status == EXIT_OK
    entries = json.loads(out)
    assert {e["tile"].split(":")[0] for e in entries} == {"outpost"}
    assert sum(e["count"] for e in entries) == 35


def test_tiles_json_of_the_whole_database(capsys):
    entries = json.loads(run(capsys, "tiles", "--json")[1])
    assert sum(e["count"] for e in entries) == 9 * 35
    assert len({e["tile"] for e in entries}) == len(entries)


@pytest.mark.parametrize("army, message", [
    ("martians", "nhex: unknown army 'martians'"),
])
def test_tiles_of_an_army_without_data_is_bad_input(capsys, army, message):
    status, out, err = run(capsys, "tiles", army)
    assert status == EXIT_BAD_INPUT and out == ""
    assert err.startswith(message)


def test_rules_lists_the_options(capsys):
    status, out, _ = run(capsys, "rules")
    assert status == EXIT_OK and "clown-hits-hq" in out
    options = json.loads(run(capsys, "rules", "--json")[1])
    assert {"name", "default", "choices", "summary", "passage"} <= options[0].keys()


@pytest.mark.parametrize("command", ["show", "fmt"])
@pytest.mark.parametrize("path", MALFORMED, ids=lambda p: p.stem)
def test_malformed_input_exits_2_with_the_located_message_and_no_output(capsys, command, path):
    expected = path.read_text(encoding="utf-8").splitlines()[0].removeprefix("# expect: ")
    status, out, err = run(capsys, command, str(path))
    assert (status, out, err) == (EXIT_BAD_INPUT, "", f"{path}:{expected}\n")


def test_a_missing_file_exits_2(capsys, tmp_path):
    status, out, err = run(capsys, "show", str(tmp_path / "nowhere.nhex"))
    assert status == EXIT_BAD_INPUT and out == "" and "no such file" in err


def test_standard_input_errors_are_located_in_stdin(capsys, monkeypatch):
    monkeypatch.setattr("sys.stdin", io.StringIO("c3 moloch:hq\nc9 moloch:blocker\n"))
    status, _, err = run(capsys, "fmt", "-")
    assert status == EXIT_BAD_INPUT and err.startswith("<stdin>:2:1: hex c9 is not on the standard board")


def test_an_unknown_command_is_a_usage_error(capsys):
    with pytest.raises(SystemExit) as caught:
        main(["frobnicate"])
    assert caught.value.code == 2
    assert "invalid choice" in capsys.readouterr().err


def test_show_draws_a_game_record_and_a_position(capsys, monkeypatch):
    monkeypatch.setattr("sys.stdin", io.StringIO("game\nplayers outpost moloch\n1. outpost: hq c3\n"))
    assert "1. outpost: hq c3" in run(capsys, "show", "-")[1]

def test_show_piped_never_crops_a_board_wider_than_80_columns(capsys, monkeypatch):
    monkeypatch.setattr("sys.stdin", io.StringIO("board extended\n(0,-3) moloch:hq\n"))
    out = run(capsys, "show", "-")[1]
    assert "0,-3" in out and "(3,0)" in out and "(-3,3)" in out  # the leftmost and rightmost columns
    assert max(len(line) for line in out.splitlines()) > 80
