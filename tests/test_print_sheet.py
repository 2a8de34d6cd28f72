"""A printable set (issue 16): ``nhex card DIR --pdf OUT.pdf`` lays out fronts and backs on A4 pages
(solver/render/print_sheet.py), the backs with the level, the goal in words and the solution."""

from __future__ import annotations

import re
import xml.etree.ElementTree as ET
from pathlib import Path

import pytest

from solver.cli import main
from solver.notation.text import load
from solver.render.card_svg import back
from solver.render.print_sheet import CARD_MM, PAGE_MM, back_slot, page_svgs, slots

ROOT = Path(__file__).resolve().parent.parent
SVG = "{http://www.w3.org/2000/svg}"
CARDS = sorted((ROOT / "puzzles" / "generated").glob("*.nhex"))[:5]


def _texts(node: ET.Element) -> list[str]:
    return [" ".join(p.strip() for p in t.itertext() if p.strip()) for t in node.iter(f"{SVG}text")]


def _cards_on(page: str) -> list[tuple[float, float, list[str]]]:
    """Each card placed on a page: its x and y (0.1 mm) and its words."""
    root = ET.fromstring(page)
    return [(float(card.get("x")), float(card.get("y")), _texts(card)) for card in root.findall(f"{SVG}svg")]


def test_the_cards_fit_on_an_a4_page_without_overlapping() -> None:
    places = slots()
    assert len(places) == 4
    for x, y in places:
        assert 0 < x and x + CARD_MM[0] < PAGE_MM[0] and 0 < y and y + CARD_MM[1] < PAGE_MM[1]
    for i, (x, y) in enumerate(places):
        for x2, y2 in places[i + 1:]:
            assert abs(x - x2) >= CARD_MM[0] or abs(y - y2) >= CARD_MM[1]


def test_each_back_lies_behind_its_front_when_the_sheet_turns_over_its_long_edge() -> None:
    """Turned over its long (vertical) edge, a sheet's left column is the right one: rows stay."""
    assert [back_slot(i) for i in range(4)] == [1, 0, 3, 2]
    places = slots()
    for i in range(4):
        x, y = places[i]
        bx, by = places[back_slot(i)]
        assert by == y and abs((bx + CARD_MM[0] / 2) - (PAGE_MM[0] - (x + CARD_MM[0] / 2))) < 1e-6


def test_five_cards_make_two_sheets_fronts_then_backs() -> None:
    puzzles = [load(str(p)) for p in CARDS]
    pages = page_svgs(puzzles)
    assert len(pages) == 4  # fronts 1-4, their backs, front 5, its back
    first_fronts, first_backs = _cards_on(pages[0]), _cards_on(pages[1])
    assert len(first_fronts) == 4 and len(first_backs) == 4 and len(_cards_on(pages[2])) == 1
    for index, puzzle in enumerate(puzzles[:4]):
        x, y, words = first_fronts[index]
        assert puzzle.title in " ".join(words)
        assert not any(w.startswith("place ") or w.startswith("use ") for w in words)  # no solution on a front
        # Its back, on the next page, in the mirrored place, says the level, the goal and the solution.
        x_back = slots()[back_slot(index)][0] * 10
        (backside,) = [words for bx, by, words in first_backs if abs(bx - x_back) < 0.5 and abs(by - y) < 0.5
                       and puzzle.title in " ".join(words)]
        text = " ".join(backside)
        assert f"level {puzzle.level}" in backside
        assert "Goal: Your HQ stands with more health than every enemy HQ" in text
        assert all(str(action) in backside for action in puzzle.solution or ())


def test_the_back_of_a_card_says_its_goal_in_words() -> None:
    card = load(str(CARDS[0]))
    words = " ".join(_texts(ET.fromstring(back(card).as_svg())))
    assert ("Goal: Your HQ stands with more health than every enemy HQ (or is the only one standing), after the Final "
            "Battle.") in words


def test_nhex_card_prints_a_folder_as_one_pdf_and_as_svg_sheets(tmp_path: Path) -> None:
    folder = tmp_path / "set"
    folder.mkdir()
    for path in CARDS[:3]:
        (folder / path.name).write_text(path.read_text(encoding="utf-8"), encoding="utf-8")
    sheets = tmp_path / "sheets"
    assert main(["card", str(folder), "--sheets", str(sheets)]) == 0
    assert sorted(p.name for p in sheets.iterdir()) == ["page-01.svg", "page-02.svg"]
    assert ET.parse(sheets / "page-02.svg").getroot().tag == f"{SVG}svg"
    try:
        import cairosvg  # noqa: F401
    except (ImportError, OSError) as error:
        pytest.skip(f"a PDF needs cairosvg and the cairo library (Debian: libcairo2): {error}")
    out = tmp_path / "set.pdf"
    assert main(["card", str(folder), "--pdf", str(out)]) == 0
    data = out.read_bytes()
    assert data.startswith(b"%PDF")
    assert len(re.findall(rb"/Type\s*/Page\b", data)) == 2
    # A4 pages: 595 x 842 points.
    boxes = re.findall(rb"/MediaBox\s*\[\s*0 0 ([\d.]+) ([\d.]+)\s*\]", data)
    assert boxes and all(abs(float(w) - 595.3) < 1 and abs(float(h) - 841.9) < 1 for w, h in boxes)


def test_nhex_card_pdf_refuses_bad_targets(tmp_path: Path) -> None:
    folder = tmp_path / "empty"
    folder.mkdir()
    for argv in ([str(folder), "--pdf", str(tmp_path / "x.pdf")],  # no cards there
                 [str(CARDS[0]), "--pdf", str(tmp_path / "x.txt")],  # not a .pdf name
                 [str(CARDS[0]), "--pdf", str(tmp_path / "x.pdf"), "--solution"]):  # a back needs no flag
        with pytest.raises(SystemExit) as stopped:
            main(["card", *argv])
        assert stopped.value.code == 2
    assert not (tmp_path / "x.pdf").exists()
