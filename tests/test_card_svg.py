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
from solver.notation.text import load, parse
from solver.render.card_svg import ARMY_COLOURS, BOARD_ORIGIN, GOLD, SIZE, _pixel, back, card_svg, front, key_marks

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


# --- every army's tiles, terrain, foundations: nothing drawn over a label ---------------------------------------------

from solver.hexes import DIRECTIONS, Direction  # noqa: E402
from solver.render.card_svg import (  # noqa: E402
    _EDGE_ANGLE,
    _edge_icons,
    _legend,
    _name_font,
    label_boxes,
    text_width,
)
from solver.tiles import Kind, armies, army, tile  # noqa: E402

ALL_TILES = [t for a in armies().values() for t in a.tiles if t.kind not in (Kind.INSTANT, Kind.FOUNDATION)]


def _icon_points(tile, facing: Direction, size: float) -> list[tuple[float, float]]:
    """Every corner and centre the edge icons of a tile at (0, 0) are drawn with (circles as four points)."""
    import drawsvg as draw

    group = draw.Group()
    oriented = tile.oriented(facing)
    for d in DIRECTIONS:
        _edge_icons(group, oriented.edges[d], 0.0, 0.0, size, _EDGE_ANGLE[d])
    picture = draw.Drawing(10, 10)
    picture.append(group)
    points: list[tuple[float, float]] = []
    for node in ET.fromstring(picture.as_svg()).iter():
        if node.tag == f"{SVG}circle":
            x, y, r = (float(node.get(k)) for k in ("cx", "cy", "r"))
            points += [(x - r, y), (x + r, y), (x, y - r), (x, y + r)]
        elif node.tag in (f"{SVG}path", f"{SVG}polygon", f"{SVG}polyline", f"{SVG}line"):
            if node.tag == f"{SVG}line":
                pairs = [(float(node.get("x1")), float(node.get("y1"))), (float(node.get("x2")), float(node.get("y2")))]
            else:
                pairs = _path_points(node.get("d") or node.get("points") or "")
            points += pairs + [((a[0] + b[0]) / 2, (a[1] + b[1]) / 2) for a, b in zip(pairs, pairs[1:])]
    return points


def _path_points(path: str) -> list[tuple[float, float]]:
    """The end points of a path's commands (M, L, A, Z, absolute, as drawsvg writes them) or a polygon's points."""
    tokens = re.findall(r"[A-Za-z]|-?\d+(?:\.\d+)?(?:e-?\d+)?", path)
    points: list[tuple[float, float]] = []
    command, numbers = "L", []
    for token in tokens + ["Z"]:
        if token.isalpha():
            command, numbers = token.upper(), []
            continue
        numbers.append(float(token))
        width = 7 if command == "A" else 2
        if len(numbers) == width:
            points.append((numbers[-2], numbers[-1]))
            numbers = []
    return points


def _inside(point: tuple[float, float], box: tuple[float, float, float, float], slack: float = 0.5) -> bool:
    x, y = point
    return box[0] + slack < x < box[2] - slack and box[1] + slack < y < box[3] - slack


@pytest.mark.parametrize("army_name", sorted(armies()))
def test_no_edge_icon_enters_a_tiles_name_initiative_or_toughness(army_name: str) -> None:
    """Issue 16: "some tile labels overlap their icons". For every tile of every army (the expansions' too), in
    every facing, no corner of an edge icon lies in the box of the name, the initiative disc, the toughness row
    or the HQ's health disc, and those boxes do not overlap one another."""
    size = 56.0
    for tile in [t for t in ALL_TILES if t.army == army_name]:
        boxes = label_boxes(tile, size)
        for facing in DIRECTIONS:
            for point in _icon_points(tile, facing, size):
                for name, box in boxes.items():
                    assert not _inside(point, box), (tile.key, facing, name, point, box)
        names = list(boxes)
        for i, a in enumerate(names):
            for b in names[i + 1:]:
                A, B = boxes[a], boxes[b]
                assert A[2] <= B[0] or B[2] <= A[0] or A[3] <= B[1] or B[3] <= A[1], (tile.key, a, b)
        # The name is readable: letters at least 8.5 px on a 640 px card (about 2.4 mm printed 90 mm wide), on each
        # of its lines; a title too long for that is printed by the short name of its army file ("Heavy MG").
        if "name" in boxes:
            assert _name_font(tile, size) >= 8.5, tile.key


def test_the_legend_entries_never_run_together() -> None:
    """Issue 16: the legend ran "wound□ toughness" together. Each entry's word ends before the next sample."""
    import drawsvg as draw

    picture = draw.Drawing(640, 980)
    tiles = [t for t in ALL_TILES if any(e.special for e in t.edges or ())]
    _legend(picture, 940, tiles)
    root = ET.fromstring(picture.as_svg())
    words = [(float(n.get("x")), float(n.get("y")), n.text or "") for n in root.iter(f"{SVG}text") if len(n.text or "") > 3]
    assert {"melee", "toughness", "wound", "redirection entrance", "shotgun"} <= {w for _, _, w in words}
    for (x, y, word), (x2, y2, _) in zip(words, words[1:]):
        if y == y2:
            assert x + text_width(word, 12) + 8 <= x2, (word, x, x2)
        assert x + text_width(word, 12) <= 640 - 12


TERRAIN_CARD = """\
puzzle "Terrain and foundations"
player vegas
offer vegas:mercenary
play 1
goal win
terrain forest thick d1
terrain hill fortress b2
terrain water deep d3
a1 vegas:hq hp=5
c1 smart:hq hp=4
b2 vegas:guardian N
d1 smart:ripper N
a2 vegas:mine
b2 vegas:mine
"""


def test_terrain_and_foundations_are_drawn_and_named() -> None:
    """Babel 13 terrain (each type its colour and its name) and foundations (a Mine, alone or under a unit)."""
    from solver.render.card_svg import TERRAIN_COLOURS

    card = parse(TERRAIN_CARD, "<terrain>")
    svg = front(card).as_svg()
    texts = _texts(svg)
    for colour in ("forest", "hill", "water"):
        assert TERRAIN_COLOURS[colour][0] in svg
    assert "Water" in texts  # an empty terrain hex is named
    # under a unit: a badge with the type and its features (issue 26: a unit on a Watchtower said only "Hill")
    assert "Forest: Thick" in texts and "Hill: Fortress + Mine" in texts
    assert "Mine" in texts  # a Mine with nothing on it


def test_the_header_names_the_armies_as_the_rulebooks_print_them() -> None:
    card = parse(TERRAIN_CARD.replace("player vegas", "player vegas").replace("smart:", "new-york:")
                 .replace("e3 new-york:ripper N", "e3 new-york:cop N").replace("d1 new-york:ripper N", "d1 new-york:cop N"),
                 "<header>")
    assert "Vegas to play · against New York · puzzle" in _texts(front(card).as_svg())


def test_terrain_features_and_prize_markers_are_drawn() -> None:
    """Issue 16 (terrain drawing): a terrain hex says what its element does under its name (B13: a Rock is
    Closed, a Hole Fatal, Water a Swamp), the Prize markers the player holds are listed with the offer and, on the
    back of card 28, the marker the key puts on the Guard is marked on the Guard and named (B13 PRIZE MARKERS)."""
    card = load(ROOT / "puzzles" / "28-spoils.nhex")
    texts = _texts(front(card).as_svg())
    assert "Closed" in texts and "Fatal" in texts and "Swamp" in texts
    assert "Prize markers held: Enhanced Hit" in texts
    after, placed, _ = key_marks(card)
    assert Hex.parse("c2") in placed
    assert any("Prize markers on units: c2 Enhanced Hit" in t for t in _texts(back(card).as_svg()))
    thicket = _texts(front(load(ROOT / "puzzles" / "27-into-the-thicket.nhex")).as_svg())
    assert "Thick" in thicket and "High, Closed" in thicket and "Forest" in thicket


def test_prize_markers_on_units_are_a_gold_disc_on_the_board_and_named_under_the_offer() -> None:
    """Issue 16: a badge naming a unit's Prize markers at its upper corner met the hex label of the unit above.
    The board marks such a unit with a gold disc holding the number of its markers (B13 PRIZE MARKERS: "at most
    two per unit"), in its rim between the front bars of its N and NE edges; the words go under the offer."""
    text = (ROOT / "puzzles" / "28-spoils.nhex").read_text().split("solution")[0]
    text = text.replace("prizes hegemony enhanced-hit\n", "")
    text = text.replace("c2 hegemony:guard N", "c2 hegemony:guard N prize=enhanced-hit,mobility")
    text = text.replace("b2 moloch:ripper NE", "b2 moloch:ripper NE prize=accelerator")
    svg = front(parse(text)).as_svg()
    assert "On units: b2 Accelerator, c2 Enhanced Hit + Mobility" in _texts(svg)
    root = ET.fromstring(svg)
    discs = [(float(c.get("cx")), float(c.get("cy")), float(c.get("r"))) for c in root.iter(f"{SVG}circle")
             if c.get("fill") == GOLD]
    guard = _pixel(Hex.parse("c2"), SIZE, BOARD_ORIGIN)
    above_label_bottom = _pixel(Hex.parse("c1"), SIZE, BOARD_ORIGIN)[1] + SIZE * 0.70  # c1's label baseline
    (x, y, r), = [d for d in discs if abs(d[0] - guard[0]) < SIZE and abs(d[1] - guard[1]) < SIZE]
    assert y - r > above_label_bottom  # clear of the label of the unit above
    assert (x - guard[0]) ** 2 + (y - guard[1]) ** 2 <= SIZE ** 2  # inside its own hex


def test_a_net_and_an_attack_on_one_edge_do_not_cover_each_other() -> None:
    """The Borgo Net Fighter's net shares an edge with its blows: the half-disc of the net and the triangles keep
    apart along the edge (the picture drew them over one another)."""
    import drawsvg as draw

    from solver.tiles import Edge

    group = draw.Group()
    _edge_icons(group, Edge(melee=3, net=True), 0.0, 0.0, 56.0, -90.0)  # the N edge: offsets run along x
    picture = draw.Drawing(10, 10)
    picture.append(group)
    root = ET.fromstring(picture.as_svg())
    paths = [n.get("d") or "" for n in root.iter(f"{SVG}path")]
    nets = [d for d in paths if "A" in d]  # the half-disc is an arc
    triangles = [d for d in paths if "A" not in d and len(_path_points(d)) >= 4]  # closed four-point shapes
    assert len(nets) == 1 and len(triangles) == 3
    net_x = [x for x, _ in _path_points(nets[0])]
    blow_x = [x for t in triangles for x, _ in _path_points(t)]
    assert max(net_x) <= min(blow_x) or max(blow_x) <= min(net_x), (net_x, blow_x)


def test_a_rotation_is_drawn_as_a_turn_and_a_castling_as_two_moves() -> None:
    """The back of a card whose key turns a unit with the Vegas Rotation shows the turn arc on that unit, not a
    target drawn over its name; a Castling shows the two units trading places (PL VEGAS: Obrót, "Rotation";
    Roszada, "Castling")."""
    from solver.render.card_svg import describe_marks

    card = load(ROOT / "puzzles" / "generated" / "vegas-vs-doomsday-level2-g16-1-0.nhex")
    assert [str(a) for a in card.solution] == ["use vegas:rotation d2 SE"]
    assert describe_marks(key_marks(card)[2]) == ["turn d2"]
    castling = parse("""\
puzzle "Castling"
player vegas
offer vegas:castling
play 1
goal win
a1 vegas:hq hp=5
b2 vegas:shooter N
c3 vegas:bodyguard N
e3 moloch:hq hp=5
solution
use vegas:castling b2 c3
""", "<castling>")
    after, placed, marks = key_marks(castling)
    assert describe_marks(marks) == ["move b2 c3", "move c3 b2"]
    assert {h.label for h in placed} == {"b2", "c3"}
    assert after.unit_at(Hex.parse("b2")).tile.name == "bodyguard"


def test_the_legend_names_the_gauss_beam_only_where_a_gauss_cannon_is_drawn() -> None:
    """The legend explains the marks of this card: a Gauss entry on a card without a Gauss Cannon pushed "wound"
    onto a row of its own."""
    import drawsvg as draw

    def words(tiles) -> set[str]:
        picture = draw.Drawing(640, 980)
        _legend(picture, 940, tiles)
        return {n.text or "" for n in ET.fromstring(picture.as_svg()).iter(f"{SVG}text")}

    assert "Gauss" not in words([tile("outpost:commando"), tile("moloch:blocker")])
    assert "Gauss" in words([tile("moloch:gauss-cannon")])


def test_readme_card_table_numbers_each_bundled_card_once_by_its_number_and_title():
    """README, "The bundled cards": one row per card of puzzles/, in order, numbered and named as the card's first
    line (`puzzle N "TITLE"`); the table once numbered five cards 16 and four 17 (issue 26)."""
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    rows = [(int(m.group(1)), m.group(2)) for m in re.finditer(r"^\| (\d\d) (.+?) \| \d \|", readme, re.MULTILINE)]
    cards = []
    for path in sorted((ROOT / "puzzles").glob("*.nhex")):
        first = re.match(r'puzzle (\d+) "(.*)"', path.read_text(encoding="utf-8"))
        assert first is not None, path
        cards.append((int(first.group(1)), first.group(2)))
    assert rows == sorted(cards)
    assert f"holds {len(cards)} cards" in readme or "holds thirty cards" in readme and len(cards) == 30


# --- issue 26: every piece of the position drawn, the card's words --------------------------------------------------

from solver.render.card_svg import NEUTRAL, TERMINAL, VENOM, label_box, mark_spot  # noqa: E402


def _card_file(number: int):
    (path,) = (ROOT / "puzzles").glob(f"{number:02d}-*.nhex")
    return load(str(path))


@pytest.mark.parametrize("army_name", sorted(armies()))
def test_a_units_hex_label_lies_clear_of_its_tiles_icons_in_every_facing(army_name: str) -> None:
    """Issue 26: "e3" on the Super-mutant read "a3", its "e" drawn over the SE armor bar. For every tile in every
    facing the label finds a spot (the card never falls back to its dark backing for a two-letter label) where no
    corner of an edge icon lies (the icons' points as tests/test_card_svg.py reads them from the SVG), on the tile."""
    size = 56.0
    width, height = label_box("e3", size)
    for tile in [t for t in ALL_TILES if t.army == army_name]:
        for facing in DIRECTIONS:
            spot = mark_spot(tile, facing, size, width, height)
            assert spot is not None, (tile.key, facing)
            box = (spot[0] - width / 2, spot[1] - height / 2, spot[0] + width / 2, spot[1] + height / 2)
            for point in _icon_points(tile, facing, size):
                assert not _inside(point, box, slack=0.0), (tile.key, facing, point, box)
            assert all(abs(x) < size and abs(y) < size * 0.87 for x in box[::2] for y in box[1::2])


def test_the_super_mutants_label_is_not_drawn_over_its_armor() -> None:
    """Card 22: the Super-mutant on e3 faces S, armor on its SE edge; its label sits elsewhere than the lower right
    corner, where the armor bar ends."""
    svg = front(_card_file(22)).as_svg()
    cx, cy = _pixel(Hex.parse("e3"), SIZE, BOARD_ORIGIN)
    (label,) = [n for n in ET.fromstring(svg).iter(f"{SVG}text") if (n.text or "") == "e3"]
    x, y = float(label.get("x")), float(label.get("y"))
    assert not (x > cx + SIZE * 0.3 and y > cy + SIZE * 0.5), (x - cx, y - cy)


def _circles_on_north_edge(edge, long: bool) -> int:
    import drawsvg as draw

    group = draw.Group()
    _edge_icons(group, edge, 0.0, 0.0, 56.0, -90.0, long_link=long)
    return sum(1 for child in group.children if "cx" in child.args and child.args["r"] > 2)  # rings, not their dots


def test_the_doomsday_officers_link_reaching_two_hexes_is_drawn_unlike_an_ordinary_link() -> None:
    """Issue 26 (card 19): the Doomsday Officer's link reaches two hexes (ES legend; `module ranged-bonus +1 friendly
    reach 2`): two rings joined, where the Moloch Officer's link is one ring; the legend says so."""
    from solver.render.card_svg import long_link
    from solver.tiles import Edge

    assert long_link(tile("doomsday:officer")) and not long_link(tile("moloch:officer"))
    assert _circles_on_north_edge(Edge(link=True), long=True) == 2
    assert _circles_on_north_edge(Edge(link=True), long=False) == 1
    assert "link, 2 hexes" in _texts(front(_card_file(19)).as_svg())
    assert "link, 2 hexes" not in _texts(front(_card_file(4)).as_svg())


def test_the_neutral_mad_bomber_is_nobodys_colour_and_not_called_mercenaries() -> None:
    """Issue 26 (card 18): the neutral Mad Bomber (NOTATION §10.4: no army) was drawn in the Doomsday grey and the
    header said "against Moloch, Mercenaries"."""
    svg = front(_card_file(18)).as_svg()
    texts = _texts(svg)
    assert "Hegemony to play · against Moloch, the Mad Bomber, neutral · puzzle" in texts
    assert not any("Mercenar" in t for t in texts)
    assert NEUTRAL[0] in svg and NEUTRAL[0] not in ARMY_COLOURS["doomsday"]
    assert ARMY_COLOURS["doomsday"][0] not in svg


def test_a_unit_on_a_watchtower_stands_in_a_ring_of_its_hill_with_the_watchtower_named() -> None:
    """Issue 26 (card 30, B13 HILL, WATCHTOWER): the Hybrid on the Watchtower was shown by a small "Hill" tag only.
    The tile is drawn smaller so the Hill shows round it, and the badge names the Watchtower."""
    from solver.render.card_svg import TERRAIN_COLOURS

    svg = back(_card_file(30)).as_svg()
    assert "Hill: Watchtower" in _texts(svg)
    cx, cy = _pixel(Hex.parse("c5"), SIZE, BOARD_ORIGIN)

    def first_corner(fill: str) -> list[float]:  # x of each hexagon of that fill whose first corner is on c5's row
        found = []
        for node in ET.fromstring(svg).iter(f"{SVG}path"):
            numbers = re.findall(r"-?\d+(?:\.\d+)?", node.get("d", ""))
            if node.get("fill") == fill and len(numbers) >= 12 and abs(float(numbers[1]) - cy) < 0.5:
                found.append(float(numbers[0]) - cx)
        return found

    assert any(abs(x - SIZE) < 0.5 for x in first_corner(TERRAIN_COLOURS["hill"][0]))  # the Hill, the whole hex
    # the Hybrid's tile reaches 0.84 of the way: the Hill shows round it (elsewhere a tile reaches 0.97)
    assert any(abs(x - SIZE * 0.84 * 0.97) < 0.5 for x in first_corner(ARMY_COLOURS["moloch"][1]))


def test_venom_on_an_hq_is_a_green_marker_on_the_card() -> None:
    """Issue 26 (card 23, B13 VENOM ISSUES): the poisoned Moloch HQ (`venom=1`) shows its marker; the legend says
    what it is."""
    svg = front(_card_file(23)).as_svg()
    assert svg.count(f'fill="{VENOM}"') == 2  # on a1, and in the legend
    assert "venom" in _texts(svg)
    assert VENOM not in front(_card_file(22)).as_svg()


def test_the_duel_boards_terminals_and_energy_are_on_the_card() -> None:
    """Issue 26 (cards 25 and 26, NOTATION §10.2): the key is a Laser Procedure between two Cells, which the picture
    must show: the Terminals (seven hexes) and Moloch's Energy."""
    card = _card_file(25)
    svg = front(card).as_svg()
    texts = _texts(svg)
    assert svg.count(f'fill="{TERMINAL}"') == len(card.position.terminals) + 1  # the legend's sample
    assert "Terminal" in texts
    assert any("Energy: Moloch 3" in t for t in texts)
    assert TERMINAL not in front(_card_file(23)).as_svg()


@pytest.mark.parametrize("number, words", [
    (3, "Your HQ loses no health, after the Final Battle."),
    (22, "Destroy the Borgo HQ, after the Final Battle."),
    (27, "Destroy the Moloch HQ, after the battle."),
])
def test_every_goal_is_printed_in_words(number: int, words: str) -> None:
    """Issue 26: cards 03, 22 and 27 printed their goals raw (`damage hegemony == 0 (after the Final Battle)`)."""
    card = _card_file(number)
    front_words = " ".join(_texts(front(card).as_svg()))
    back_words = " ".join(_texts(back(card).as_svg()))
    assert words in front_words and f"Goal: {words}" in back_words
    assert str(card.goal) not in front_words + back_words


# --- issue 26: any position or record drawn, not only puzzle cards ------------------------------------------------

GAMES = ROOT / "tests" / "data" / "games"


def test_nhex_card_draws_a_position_with_its_facts_in_words(tmp_path: Path) -> None:
    """Issue 26: `nhex card FILE --svg` took only puzzle cards. A position is drawn as on a card: its board, then
    HQ health and whose move it is in words."""
    position = tmp_path / "pos.nhex"
    position.write_text("to-move moloch\nc3 outpost:hq hp=7\nc1 moloch:hq hp=4 venom=1\nb2 moloch:blocker SE\n"
                        "e3 neojungle:hq\nhand moloch hybrid\n", encoding="utf-8")
    out = tmp_path / "pos.svg"
    assert main(["card", str(position), "--svg", str(out)]) == 0
    texts = _texts(out.read_text(encoding="utf-8"))
    assert "pos.nhex" in texts and "Position" in texts
    assert "HQ health: Moloch 4, Outpost 7, Neojungle 20" in " ".join(texts) and "Moloch to move" in " ".join(texts)
    assert "Blocker" in texts and "7" in texts
    assert sum(t == "V" for t in texts) == 2  # the venom on the Moloch HQ, and the legend's


def test_nhex_card_and_show_draw_a_game_record_after_its_last_turn_or_turn_n(tmp_path: Path,
                                                                           capsys: pytest.CaptureFixture[str]) -> None:
    """Issue 26: a record is drawn after its last turn (who won, when the game is over) or after `--turn N`,
    replayed by the checker (solver/turns/replay.py); `nhex show --svg -` prints the same picture."""
    record = str(GAMES / "moloch-mirror.nhex")
    assert main(["card", record, "--svg", str(tmp_path / "end.svg")]) == 0
    end = " ".join(_texts((tmp_path / "end.svg").read_text(encoding="utf-8")))
    assert "moloch-mirror.nhex, after turn 30" in end and "Game over: Moloch (b) wins" in end
    assert main(["show", record, "--turn", "4", "--svg", "-"]) == 0
    early = " ".join(_texts(capsys.readouterr().out))
    assert "after turn 4" in early and "Game over" not in early and "to move" in early
    assert main(["show", "--turn", "0", record, "--svg", "-"]) == 0
    assert "before the first turn" in " ".join(_texts(capsys.readouterr().out))


@pytest.mark.parametrize("argv, message", [
    (["card", "tests/data/games/moloch-mirror.nhex", "--turn", "99", "--svg", "-"], "--turn 99: the record has turns 1"),
    (["card", "tests/data/games/moloch-mirror.nhex", "--solution", "--svg", "-"], "--solution draws the back of a "
                                                                                  "puzzle card: this file is a game"),
    (["card", "puzzles/01-point-blank.nhex", "--turn", "2", "--svg", "-"], "--turn is for game records"),
    (["show", "puzzles/01-point-blank.nhex", "--png", "-"], "--png - is not supported"),
])
def test_a_picture_asked_wrongly_is_a_usage_error(argv: list[str], message: str, monkeypatch: pytest.MonkeyPatch,
                                                  capsys: pytest.CaptureFixture[str]) -> None:
    monkeypatch.chdir(ROOT)
    try:
        status = main(argv)
    except SystemExit as stop:
        status = stop.code
    captured = capsys.readouterr()
    assert status == 2 and captured.out == "" and message in captured.err


def test_nhex_show_png_of_a_puzzle_card_is_its_front(tmp_path: Path) -> None:
    _cairo()
    out = tmp_path / "front.png"
    assert main(["show", str(ROOT / "puzzles" / "25-short-circuit.nhex"), "--png", str(out)]) == 0
    assert out.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"


def test_every_bundled_card_has_an_explanation_on_its_back_in_english() -> None:
    """Issue 26: card 29's back had no explanation, and cards 19 and 20 quoted the Spanish and Polish books
    untranslated (STYLE: quote foreign words with a translation)."""
    for path in sorted((ROOT / "puzzles").glob("*.nhex")):
        card = load(str(path))
        assert card.explanation, path.name
        assert card.explanation[:40] in " ".join(_texts(back(card).as_svg())), path.name
    assert "'it works even over the enemy unit'" in _card_file(19).explanation
    assert "'at the moment of the takeover … may turn it as it likes'" in _card_file(20).explanation


def test_the_back_marks_a_duel_procedure_of_the_key() -> None:
    """Issue 26 (cards 25 and 26): the key is a Procedure, which the back did not mark: the Laser's beam between its
    two Cells, the Erase's target."""
    from solver.render.card_svg import describe_marks

    assert describe_marks(key_marks(_card_file(25))[2]) == ["laser a1 e3"]
    assert describe_marks(key_marks(_card_file(26))[2]) == ["target c3"]
    assert 'stroke="#ff2d55"' in back(_card_file(25)).as_svg()
