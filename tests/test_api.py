"""The package's public face (solver/__init__.py, docs/API.md): the names a Python user needs, independent of the
folder layout (issue 23). The examples of docs/API.md are run as they are written."""

from __future__ import annotations

import re
import subprocess
import sys
from pathlib import Path

import pytest

import solver

ROOT = Path(__file__).resolve().parent.parent
EXAMPLES = re.findall(r"```python\n(.*?)```", (ROOT / "docs" / "API.md").read_text(encoding="utf-8"), re.S)


@pytest.mark.parametrize("example", EXAMPLES, ids=[f"example-{i + 1}" for i in range(len(EXAMPLES))])
def test_every_example_of_the_api_page_runs(example: str, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(ROOT)
    exec(compile(example, "docs/API.md", "exec"), {})


def test_the_api_page_documents_every_public_name() -> None:
    page = (ROOT / "docs" / "API.md").read_text(encoding="utf-8")
    missing = [name for name in solver.__all__ if f"solver.{name}" not in page]
    assert not missing, f"docs/API.md does not document {missing}"


def test_importing_the_package_loads_no_layer() -> None:
    """``import solver`` is the start of every command: it must not load the parser, the engine or Lark."""
    code = ("import sys, solver; print(sorted(m for m in sys.modules if m.startswith(('solver.', 'lark'))))")
    loaded = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, cwd=ROOT, check=True).stdout
    assert loaded.strip() == "['solver.errors']"


def test_the_face_solves_a_card_as_the_command_does() -> None:
    card = solver.read(str(ROOT / "puzzles" / "01-point-blank.nhex"))
    report = solver.solve(card)
    assert [play.actions for play in report.solutions] == [("place borgo:brawler c2 N",)]


def test_an_illegal_action_through_the_face_names_its_rule() -> None:
    position = solver.parse("to-move moloch\nhand moloch blocker\nc1 moloch:hq hp=20\na3 borgo:hq hp=20\n")
    from solver.action_values import Place
    from solver.tiles import tile

    onto_the_hq = Place(tile("moloch:blocker"), position.units[1].hex)
    with pytest.raises(solver.IllegalAction) as raised:
        solver.apply(position, onto_the_hq)
    assert "occupied" in str(raised.value) or "empty" in str(raised.value)
