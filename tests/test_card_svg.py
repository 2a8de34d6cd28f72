"""Card pictures (solver/render/card_svg.py): the SVG says what the card says, and the PNG shows it.

The PNG checks need cairosvg and the cairo C library (Debian's libcairo2, on the project's machines). Where
either is missing they are skipped with the reason; the SVG checks always run.
"""

from __future__ import annotations

import re
import xml.etree.ElementTree as ET
from pathlib import Path

import pytest

from solver.cli import main
from solver.hexes import Hex
from solver.notation import load, parse
from solver.render.card_svg import ARMY_COLOURS, BOARD_ORIGIN, SIZE, _pixel, back, card_svg, front, key_marks

ROOT = Path(__file__).resolve().parent.parent
SVG = "{http://www.w3.org/2000/svg}"

CARD = """\
puzzle 7 "Crossfire at c2"
level 2
story "One good shot decides the last battle."
player outpost
offer outpost:commando outpost:sniper outpost:medic
play 1
goal win
c3 outpost:hq hp=3
c1 moloch:hq hp=4
b2 moloch:blocker SE wounds=1
d1 moloch:net-fighter SW
e3 moloch:gauss-cannon NW
solution
place outpost:commando c2 SW
explanation "The Commando's shot goes north into the Moloch HQ."
"""


def _card():
    return parse(CARD, "<card>")


def _texts(svg: str) -> list[str]:
    root = ET.fromstring(svg)
    # A text of several lines is one <text> with a <tspan> per line: its lines joined by spaces.
    return [" ".join(part.strip() for part in node.itertext() if part.strip()) for node in root.iter(f"{SVG}text")]


def _cairo() -> object:
    """cairosvg, or a skip naming what is missing."""
    try:
        import cairosvg  # noqa: F401
    except (ImportError, OSError) as error:  # OSError: cairocffi did not find the cairo C library
        pytest.skip(f"PNG rendering needs cairosvg and the cairo library (Debian: libcairo2): {error}")
    return cairosvg


def test_front_is_well_formed_svg_with_every_hex_unit_and_offered_tile() -> None:
    svg = front(_card()).as_svg()
    root = ET.fromstring(svg)
    assert root.tag == f"{SVG}svg"
    texts = _texts(svg)
    # Every hex of the board is labelled, every unit named, the HQ healths and the level shown.
    for label in ("a1", "c1", "c3", "c5", "e3"):
        assert label in texts
    assert "Blocker" in texts and "Net Fighter" in " ".join(texts) and "Gauss Cannon" in " ".join(texts)
    assert "3" in texts and "4" in texts  # HQ health
    assert "7. Crossfire at c2" in texts and "level 2" in texts
    assert any("Offer" in t and "play 1 tile" in t for t in texts)
    assert "Commando" in texts and "Sniper" in texts and "Medic" in texts
    # The wound on the Blocker is a red dot.
    assert svg.count('fill="#d0021b"') >= 1 + 1  # the wound, and the legend's sample


def test_front_draws_the_army_colours_and_the_netted_unit() -> None:
    svg = front(_card()).as_svg()
    assert ARMY_COLOURS["outpost"][0] in svg and ARMY_COLOURS["moloch"][0] in svg
    # The Moloch Net Fighter on d1 facing SW nets NW and SW... of which c1 is its own HQ: nothing netted there;
    # the dashed net overlay appears only when a unit is netted.
    netted = parse(CARD.replace("d1 moloch:net-fighter SW", "d2 moloch:net-fighter SW"), "<card>")
    assert 'stroke-dasharray="4,2"' in front(netted).as_svg()
    assert 'stroke-dasharray="4,2"' not in svg


def test_back_marks_the_key_and_prints_the_solution_and_explanation() -> None:
    card = _card()
    after, placed, marks = key_marks(card)
    assert placed == {Hex.parse("c2")}
    assert after.unit_at(Hex.parse("c2")) is not None
    svg = back(card).as_svg()
    texts = _texts(svg)
    assert "place outpost:commando c2 SW" in texts
    assert any("The Commando's shot goes north" in t for t in texts)
    assert 'stroke="#e8b400"' in svg and 'stroke-width="4"' in svg  # the gold outline of the key's tile
    assert card_svg(card, solution=True).as_svg() == svg


def test_back_draws_moves_and_targets() -> None:
    card = parse(CARD.replace("place outpost:commando c2 SW", "use outpost:sniper b2"), "<card>")
    _, placed, marks = key_marks(card)
    assert placed == set() and marks == [("target", Hex.parse("b2"), None)]
    mover = CARD.replace("outpost:medic", "outpost:move").replace("c3 outpost:hq hp=3", "c3 outpost:hq hp=3\nd3 outpost:commando N")
    moved = parse(mover.replace("place outpost:commando c2 SW", "use outpost:move d3 d4 S"), "<card>")
    after, placed, marks = key_marks(moved)
    assert marks == [("move", Hex.parse("d3"), Hex.parse("d4"))] and placed == {Hex.parse("d4")}
    assert after.unit_at(Hex.parse("d4")) is not None and after.unit_at(Hex.parse("d3")) is None
    turned = parse(mover.replace("place outpost:commando c2 SW", "use outpost:move d3 d3 S"), "<card>")
    assert key_marks(turned)[2] == [("turn", Hex.parse("d3"), None)]
    arcs = re.compile(r'd="M[^"]*A[^"]*"')  # paths with an arc: net half-discs, and the turn's arc
    assert len(arcs.findall(back(turned).as_svg())) == len(arcs.findall(back(moved).as_svg())) + 1


def test_png_shows_the_board_in_the_army_colours(tmp_path: Path) -> None:
    cairosvg = _cairo()
    from PIL import Image

    out = tmp_path / "card.png"
    cairosvg.svg2png(bytestring=front(_card()).as_svg().encode(), write_to=str(out))  # type: ignore[attr-defined]
    image = Image.open(out).convert("RGB")
    assert image.size == (640, 980)

    def colour_at(label: str) -> tuple[int, int, int]:
        # Inside the tile body towards its E corner: no icon is drawn there.
        x, y = _pixel(Hex.parse(label), SIZE, BOARD_ORIGIN)
        return image.getpixel((round(x + SIZE * 0.55), round(y)))  # type: ignore[return-value]

    def hex_colour(code: str) -> tuple[int, int, int]:
        return int(code[1:3], 16), int(code[3:5], 16), int(code[5:7], 16)

    def near(a: tuple[int, int, int], b: tuple[int, int, int]) -> bool:
        return all(abs(x - y) <= 12 for x, y in zip(a, b))

    assert near(colour_at("c3"), hex_colour(ARMY_COLOURS["outpost"][0]))
    assert near(colour_at("c1"), hex_colour(ARMY_COLOURS["moloch"][0]))
    assert near(colour_at("a1"), hex_colour("#e4ddcc"))  # an empty hex


def test_nhex_card_writes_svg_and_png(tmp_path: Path) -> None:
    source = tmp_path / "card.nhex"
    source.write_text(CARD, encoding="utf-8")
    svg = tmp_path / "front.svg"
    assert main(["card", str(source), "--svg", str(svg)]) == 0
    assert ET.parse(svg).getroot().tag == f"{SVG}svg"
    assert main(["card", str(source), "--svg", str(tmp_path / "back.svg"), "--solution"]) == 0
    assert "place outpost:commando c2 SW" in (tmp_path / "back.svg").read_text()
    assert main(["card", str(source)]) == 2  # nowhere to draw it
    _cairo()
    png = tmp_path / "card.png"
    assert main(["card", str(source), "--png", str(png), "--solution"]) == 0
    assert png.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"


def test_every_generated_card_draws() -> None:
    for path in sorted((ROOT / "puzzles" / "generated").glob("*.nhex")):
        card = load(str(path))
        assert "<svg" in front(card).as_svg() and "<svg" in back(card).as_svg(), path.name
