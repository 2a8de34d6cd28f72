"""Printable puzzle cards as SVG (drawsvg): the front with the board, the offer, the goal and the level, and
the back with the key marked and the explanation.

The board is drawn as on the table and as in NOTATION §2: flat-topped hexes, columns ``a``..``e`` left to right,
``c3`` in the middle. A unit is a hex in its army's colour, its name across the middle, its initiative top left,
a white notch on its front edge (the facing) and the icons of each edge drawn on that edge, pointing outwards:

* melee: one solid triangle per point of strength;
* ranged: one thin arrow per point of strength, longer than the triangles;
* armor: a thick grey bar along the edge;
* net: a cross-hatched half-disc;
* link (modules and HQs): a small ring;
* Gauss: a double bar with an arrow (the beam goes through everything).

HQ health is the big number in a disc; wounds are red dots; a netted unit is covered by a dashed net.
The back shows the board after the key (the key's tiles outlined in gold, moves as arrows, instant targets
as crosshairs), the solution's action lines and the explanation.
"""

from __future__ import annotations

import math
import re
import textwrap
from dataclasses import replace
from functools import lru_cache
from typing import Iterable, Sequence

import drawsvg as draw  # type: ignore[import-untyped]  # drawsvg ships no type hints

from ..engine import effects
from ..notation.cards import Puzzle
from ..errors import NhexError, RuleNotImplemented
from ..hexes import DIRECTIONS, Direction, Hex
from ..position import Move, Place, Position, Procedure, PutPrize, Use
from ..mirror import mark, seats_of
from ..expansion import TerrainElement
from ..tiles import NEUTRAL_ARMY, Edge, Kind, Tile, base_army
from .words import army_title, opponents_words, puzzle_goal_words

#: Army colours: (tile body, darker edge), close to the printed tiles.
ARMY_COLOURS: dict[str, tuple[str, str]] = {
    "moloch": ("#c0392b", "#7b1d14"),
    "outpost": ("#4e8b3a", "#2d5421"),
    "borgo": ("#e0a526", "#8a6210"),
    "hegemony": ("#3d6fb6", "#203f6e"),
    "smart": ("#2aa7a7", "#166363"),
    "vegas": ("#b04aa8", "#652a60"),
    "new-york": ("#d8c93a", "#847a1c"),
    "neojungle": ("#8a6fc9", "#4e3d7a"),
    "doomsday": ("#8c8c8c", "#4d4d4d"),
}
#: The neutral Mad Bomber (NOTATION §10.4), nobody's: a white body in a black rim (striped yellow on the board), unlike
#: the Doomsday Machine's grey.
NEUTRAL = ("#f4f1e8", "#1d1d1d")


def army_colours(army: str, seats: Sequence[str] = ()) -> tuple[str, str]:
    """(body, edge) of an army's tiles; a mirror match's second player of one army (by its seat among ``seats``,
    solver/mirror.py) has them swapped, so that their tiles differ on the card; the third has the first's colours
    and a dashed rim (:func:`dashed_rim`), the fourth the second's and the rim."""
    body, dark = ARMY_COLOURS.get(base_army(army), NEUTRAL)
    return (dark, body) if mark(army, seats) % 2 else (body, dark)


def dashed_rim(army: str, seats: Sequence[str] = ()) -> bool:
    """Whether a tile's rim is dashed: a mirror match's third and fourth player of one army (solver/mirror.py)."""
    return mark(army, seats) >= 2


def _rim(group: draw.Group, army: str, seats: Sequence[str], cx: float, cy: float, size: float) -> None:
    if dashed_rim(army, seats):
        group.append(draw.Lines(*hex_corners(cx, cy, size * 0.915), close=True, fill="none", stroke="#ffffff",
                                stroke_width=size * 0.05, stroke_dasharray=f"{size * 0.12:.1f},{size * 0.08:.1f}"))
INK = "#1d1d1d"
PAPER = "#f7f3ea"
EMPTY = "#e4ddcc"
GOLD = "#e8b400"
WOUND = "#d0021b"
FONT = "DejaVu Sans, Verdana, Arial, sans-serif"

WIDTH, HEIGHT = 640, 980
SIZE = 56.0  # hex radius on the board (centre to corner)
SQRT3 = math.sqrt(3)

# Angle of the middle of the edge facing each direction (SVG y grows downwards, flat-top hexes).
_EDGE_ANGLE = {Direction.N: -90.0, Direction.NE: -30.0, Direction.SE: 30.0, Direction.S: 90.0,
               Direction.SW: 150.0, Direction.NW: 210.0}


def _pixel(hex_: Hex, size: float, origin: tuple[float, float]) -> tuple[float, float]:
    """Flat-top axial to pixel (redblob): x = 3/2·q, y = √3·(r + q/2), in hex radii."""
    return origin[0] + size * 1.5 * hex_.q, origin[1] + size * SQRT3 * (hex_.r + hex_.q / 2)


def hex_corners(cx: float, cy: float, size: float) -> list[float]:
    """The six corners of a flat-top hex of radius ``size`` centred on (cx, cy), as x, y, x, y, … (draw.Lines)."""
    points: list[float] = []
    for k in range(6):
        angle = math.radians(60 * k)
        points += [cx + size * math.cos(angle), cy + size * math.sin(angle)]
    return points


def _polar(cx: float, cy: float, distance: float, angle: float) -> tuple[float, float]:
    rad = math.radians(angle)
    return cx + distance * math.cos(rad), cy + distance * math.sin(rad)


#: Advance widths of DejaVu Sans Bold and DejaVu Sans (the cards' font), in thousandths of the font size, for
#: the printable ASCII characters (32-126), measured from DejaVuSans-Bold.ttf and DejaVuSans.ttf: names are
#: fitted in their room and legend entries spaced by these.
_BOLD = (348, 456, 521, 838, 696, 1002, 872, 306, 457, 457, 523, 838, 380, 415, 380, 365, 696, 696, 696, 696, 696,
         696, 696, 696, 696, 696, 400, 400, 838, 838, 838, 580, 1000, 774, 762, 734, 830, 683, 683, 821, 837, 372,
         372, 775, 637, 995, 837, 850, 733, 850, 770, 720, 682, 812, 774, 1103, 771, 724, 725, 457, 365, 457, 838,
         500, 500, 675, 716, 593, 716, 678, 435, 716, 712, 343, 343, 665, 343, 1042, 712, 687, 716, 716, 493, 595,
         478, 712, 652, 924, 645, 652, 582, 712, 365, 712, 838)
_BOOK = (318, 401, 460, 838, 636, 950, 780, 275, 390, 390, 500, 838, 318, 361, 318, 337, 636, 636, 636, 636, 636,
         636, 636, 636, 636, 636, 337, 337, 838, 838, 838, 531, 1000, 684, 686, 698, 770, 632, 575, 775, 752, 295,
         295, 656, 557, 863, 748, 787, 603, 787, 695, 635, 611, 732, 684, 989, 685, 611, 685, 390, 337, 390, 838,
         500, 500, 613, 635, 550, 635, 615, 352, 635, 634, 278, 278, 579, 278, 974, 634, 612, 635, 635, 411, 521,
         392, 634, 592, 818, 592, 592, 525, 636, 337, 636, 838)


def text_width(text: str, font: float, *, bold: bool = False) -> float:
    """The width of ``text`` at font size ``font`` in DejaVu Sans (bold or not); other characters count as
    an M."""
    table = _BOLD if bold else _BOOK
    return font * sum(table[ord(c) - 32] if 32 <= ord(c) < 127 else 1000 for c in text) / 1000


#: Second halves of the long one-word tile names, where such a name is broken over two lines.
_COMPOUND_TAILS = ("master", "trooper", "shooter", "naut", "blast", "fighter", "launcher", "droid", "processor")


def _short(tile: Tile) -> list[str]:
    """The tile's name in at most two short lines."""
    name = "HQ" if tile.kind is Kind.HQ else (tile.short or tile.title).removeprefix("The ")
    if len(name) > 10 and " " not in name and "-" in name:  # Super-Mutant, Hunter-Killer: at the hyphen
        head, tail = name.split("-", 1)
        return [head + "-", tail]
    if len(name) > 10 and " " not in name:  # Quartermaster, Stormtrooper: where the compound joins
        for tail in _COMPOUND_TAILS:
            if name.lower().endswith(tail) and len(name) > len(tail) + 2:
                return [name[:-len(tail)] + "-", name[-len(tail):]]
    if len(name) <= 10 or " " not in name:
        return [name]
    lines = textwrap.wrap(name, width=max(10, (len(name) + 1) // 2))
    return lines if len(lines) <= 2 else [lines[0], " ".join(lines[1:])]


def _fit(lines: Sequence[str], width: float, height: float, largest: float) -> float:
    """The largest font size (at most ``largest``) at which ``lines`` fit in ``width`` × ``height``."""
    longest = max(text_width(line, 1.0, bold=True) for line in lines)
    return min(largest, width / longest, height / (1.1 * len(lines)))


#: Where the marks sit inside a tile, in hex radii from its centre. The edge icons fill a band along the rim
#: no deeper than :data:`ICON_DEPTH`; the name, the initiative and the toughness sit inside it, in rows that
#: do not meet (tests/test_card_svg.py checks the boxes).
ICON_DEPTH = 0.36
NAME_BOX = (0.92, 0.38)  # width, height, centred on the tile's centre
ONE_LINE_WIDTH = 1.04
INITIATIVE_AT, INITIATIVE_R = (0.0, -0.31), 0.10
TOUGHNESS_AT, PIP = 0.25, 0.10


def _name_font(tile: Tile, size: float) -> float:
    lines = _short(tile)
    # One line is low enough to run wider, between the icons of the side edges.
    width = NAME_BOX[0] if len(lines) > 1 else ONE_LINE_WIDTH
    return _fit(lines, size * width, size * NAME_BOX[1], size * 0.21)


def _initiative_rx(tile: Tile, size: float) -> float:
    """The half-width of the initiative disc: a circle for one value, an oval for two (2/1)."""
    return size * INITIATIVE_R * (1.0 if len(tile.initiative) <= 1 else 1.6)


Box = tuple[float, float, float, float]  # left, top, right, bottom


def label_boxes(tile: Tile, size: float) -> dict[str, Box]:
    """Where the words and numbers of a tile drawn at (0, 0) sit: its name (or the HQ's health disc), its
    initiative disc and its toughness row. No edge icon may enter them (tests/test_card_svg.py)."""
    boxes: dict[str, Box] = {}
    if tile.kind is Kind.HQ:
        r = size * 0.27
        boxes["health"] = (-r, -r, r, r)
        return boxes
    lines = _short(tile)
    font = _name_font(tile, size)
    half_w = max(text_width(line, font, bold=True) for line in lines) / 2
    half_h = font * 1.05 * len(lines) / 2
    boxes["name"] = (-half_w, size * 0.01 - half_h, half_w, size * 0.01 + half_h)
    if tile.initiative:
        rx, ry = _initiative_rx(tile, size), size * INITIATIVE_R
        ix, iy = size * INITIATIVE_AT[0], size * INITIATIVE_AT[1]
        boxes["initiative"] = (ix - rx, iy - ry, ix + rx, iy + ry)
    if tile.toughness:
        half = ((tile.toughness - 1) * 0.14 + PIP) * size / 2
        boxes["toughness"] = (-half, size * (TOUGHNESS_AT - PIP / 2), half, size * (TOUGHNESS_AT + PIP / 2))
    return boxes


# --- where a hex label or a marker may go on a tile ------------------------------------------------------------------

#: Where a small mark (a unit's hex label, a venom marker) may sit on a tile, in preference order: the corners of the
#: body, lower right first (where the empty hexes' labels are read), each tried from the rim inwards. The icons keep
#: to the middle of the edges, so a corner is free unless an edge's icons run long (tests/test_card_svg.py).
MARK_SPOTS = tuple((angle, distance) for angle in (60.0, 120.0, 0.0, 180.0, 240.0, 300.0)
                   for distance in (0.80, 0.72, 0.64, 0.56))


@lru_cache(maxsize=4096)
def _drawn_points(tile: Tile, facing: Direction, size: float) -> tuple[tuple[float, float, float], ...]:
    """What a tile at (0, 0) draws along its rim, as discs (x, y, radius) that cover it: its edge icons, sampled
    along every stroke, and the front bar."""
    group = draw.Group()
    oriented = tile.oriented(facing)
    for d in DIRECTIONS:
        _edge_icons(group, oriented.edges[d], 0.0, 0.0, size, _EDGE_ANGLE[d], long_link=long_link(tile))
    a = _polar(0.0, 0.0, size * 0.87, _EDGE_ANGLE[facing] - 24)
    b = _polar(0.0, 0.0, size * 0.87, _EDGE_ANGLE[facing] + 24)
    group.append(draw.Line(*a, *b, stroke_width=size * 0.07 + 2.4))
    discs: list[tuple[float, float, float]] = []
    for element in group.children:
        args = element.args
        half = float(args.get("stroke-width", 1.0)) / 2
        if "cx" in args:
            discs.append((float(args["cx"]), float(args["cy"]), float(args.get("r", 0.0)) + half))
            continue
        points: list[tuple[float, float]] = []
        for command, numbers in re.findall(r"([MLAZ])([^MLAZ]*)", str(args.get("d", ""))):
            values = [float(v) for v in re.findall(r"-?\d+(?:\.\d+)?(?:e-?\d+)?", numbers)]
            if command == "A":  # a half-disc (the net): the whole disc on its chord
                radius, end = values[0], (values[-2], values[-1])
                start = points[-1]
                discs.append(((start[0] + end[0]) / 2, (start[1] + end[1]) / 2, radius + half))
                points.append(end)
            elif command in "ML":
                points.append((values[0], values[1]))
            elif command == "Z" and points:
                points.append(points[0])
        for (x0, y0), (x1, y1) in zip(points, points[1:]):
            steps = max(1, int(math.hypot(x1 - x0, y1 - y0) / (size * 0.03)))
            discs += [(x0 + (x1 - x0) * k / steps, y0 + (y1 - y0) * k / steps, half) for k in range(steps + 1)]
        discs += [(x, y, half) for x, y in points]
    return tuple(discs)


def _box_meets_disc(box: Box, disc: tuple[float, float, float]) -> bool:
    x, y, r = disc
    dx = max(box[0] - x, 0.0, x - box[2])
    dy = max(box[1] - y, 0.0, y - box[3])
    return dx * dx + dy * dy < r * r


def _boxes_meet(a: Box, b: Box) -> bool:
    return not (a[2] <= b[0] or b[2] <= a[0] or a[3] <= b[1] or b[3] <= a[1])


def _in_tile(box: Box, size: float) -> bool:
    """The box lies on the tile (a flat-top hexagon of radius ``0.95·size`` at (0, 0))."""
    r = size * 0.95
    return all(abs(y) <= r * SQRT3 / 2 and abs(x) * SQRT3 / 2 + abs(y) / 2 <= r * SQRT3 / 2
               for x in (box[0], box[2]) for y in (box[1], box[3]))


def mark_spot(tile: Tile, facing: Direction, size: float, width: float, height: float,
              avoid: Sequence[Box] = ()) -> tuple[float, float] | None:
    """The centre (from the tile's centre) of the first of :data:`MARK_SPOTS` where a ``width`` × ``height`` mark
    meets none of the tile's icons, its front bar, its words and numbers (:func:`label_boxes`, an HQ's wound
    dots) and the boxes ``avoid``; ``None`` when every spot is taken."""
    taken = [*label_boxes(tile, size).values(), *avoid]
    if tile.kind is Kind.HQ:  # the wound dots under the health disc
        taken.append((-size * 0.45, size * 0.28, size * 0.45, size * 0.44))
    discs = _drawn_points(tile, facing, size)
    for angle, distance in MARK_SPOTS:
        x, y = _polar(0.0, 0.0, size * distance, angle)
        box = (x - width / 2, y - height / 2, x + width / 2, y + height / 2)
        if (_in_tile(box, size) and not any(_boxes_meet(box, t) for t in taken)
                and not any(_box_meets_disc(box, d) for d in discs)):
            return x, y
    return None


LABEL_FONT = 0.15  # a unit's hex label, in hex radii (8.4 px on the card)


def label_box(label: str, size: float) -> tuple[float, float]:
    """The width and height of a unit's hex label with its margin."""
    font = size * LABEL_FONT
    return text_width(label, font, bold=True) + size * 0.04, font * 0.85


def draw_label(group: draw.Group, unit_tile: Tile, facing: Direction, label: str, cx: float, cy: float, size: float,
               avoid: Sequence[Box] = (), *, ink: str = "#ffffff") -> Box:
    """A unit's hex label where none of its tile's marks is (:func:`mark_spot`); where every spot is taken, at the
    lower right corner on a dark backing, so that it reads as a label and not as part of an icon. Returns its box
    (from the tile's centre)."""
    width, height = label_box(label, size)
    spot = mark_spot(unit_tile, facing, size, width, height, avoid)
    x, y = spot if spot is not None else _polar(0.0, 0.0, size * 0.80, 60.0)
    if spot is None:
        group.append(draw.Rectangle(cx + x - width / 2, cy + y - height / 2 - 1, width, height + 2, rx=3, ry=3,
                                    fill=INK, fill_opacity=0.85))
    group.append(draw.Text(label, size * LABEL_FONT, cx + x, cy + y + size * 0.005, center=True, font_family=FONT,
                           fill="#ffffff" if spot is None else ink, font_weight="bold"))
    return x - width / 2, y - height / 2, x + width / 2, y + height / 2


# --- one tile -------------------------------------------------------------------------------------------------------


def draw_tile(group: draw.Group, tile: Tile, facing: Direction, cx: float, cy: float, size: float, *,
              wounds: int = 0, hp: int | None = None, netted: bool = False, highlight: bool = False,
              seats: Sequence[str] = (), army: str | None = None) -> None:
    """A tile on its hex: body, name, initiative, edge icons, facing notch, toughness and wounds, HQ health, net.

    Toughness is a row of white squares under the name; a wound fills one of them red. The initiative is a
    white disc above the name, the HQ's health a big number in the middle. ``army`` colours a tile that is no army's
    own (a hired Mad Bomber: its commander's colours); the neutral Mad Bomber is white in a black-and-yellow rim,
    nobody's colours."""
    army = army or tile.army
    body, dark = army_colours(army, seats)
    group.append(draw.Lines(*hex_corners(cx, cy, size * 0.97), close=True, fill=dark, stroke=INK, stroke_width=1))
    _rim(group, army, seats, cx, cy, size)
    if army == NEUTRAL_ARMY:  # hazard stripes on the black rim
        group.append(draw.Lines(*hex_corners(cx, cy, size * 0.915), close=True, fill="none", stroke=GOLD,
                                stroke_width=size * 0.09, stroke_dasharray=f"{size * 0.1:.1f},{size * 0.1:.1f}"))
    group.append(draw.Lines(*hex_corners(cx, cy, size * 0.86), close=True, fill=body, stroke="none"))
    if tile.kind is Kind.MODULE:  # modules: a lighter ring inside, as printed
        group.append(draw.Circle(cx, cy, size * 0.52, fill="none", stroke="#ffffff", stroke_width=1.2,
                                 stroke_opacity=0.6, stroke_dasharray="3,2"))
    # Facing: a gold bar on the rim of the front edge (edge 0 of the printed tile).
    # A dark outline under it keeps it seen on the yellow tiles (Borgo, New York).
    # It lies on the dark rim, outside the body, clear of an armor bar or the attack icons of the front edge,
    # and is drawn before the icons: a net's half-disc, which reaches over the rim, stays on top of it.
    # A tile without icons (the Mad Bomber) has no front worth showing.
    if not all(e.is_blank for e in tile.edges or ()) or tile.kind is Kind.HQ:
        a = _polar(cx, cy, size * 0.87, _EDGE_ANGLE[facing] - 24)
        b = _polar(cx, cy, size * 0.87, _EDGE_ANGLE[facing] + 24)
        group.append(draw.Line(*a, *b, stroke=INK, stroke_width=size * 0.07 + 2.4, stroke_linecap="round"))
        group.append(draw.Line(*a, *b, stroke=GOLD, stroke_width=size * 0.07, stroke_linecap="round"))
    oriented = tile.oriented(facing)
    for d in DIRECTIONS:
        _edge_icons(group, oriented.edges[d], cx, cy, size, _EDGE_ANGLE[d], long_link=long_link(tile))
    if netted:  # under the name and numbers, which stay readable
        for offset in (-0.4, -0.13, 0.13, 0.4):
            group.append(draw.Line(cx + size * offset - size * 0.35, cy - size * 0.5, cx + size * offset + size * 0.35,
                                   cy + size * 0.5, stroke="#111111", stroke_width=1.0, stroke_opacity=0.55,
                                   stroke_dasharray="4,2"))
            group.append(draw.Line(cx + size * offset + size * 0.35, cy - size * 0.5, cx + size * offset - size * 0.35,
                                   cy + size * 0.5, stroke="#111111", stroke_width=1.0, stroke_opacity=0.55,
                                   stroke_dasharray="4,2"))
    lines = _short(tile)
    if tile.kind is Kind.HQ:
        group.append(draw.Circle(cx, cy, size * 0.27, fill="#ffffff", stroke=INK, stroke_width=1.5))
        group.append(draw.Text(str(hp if hp is not None else 20), size * 0.32, cx, cy + size * 0.01, center=True,
                               font_family=FONT, font_weight="bold", fill=INK))
    else:
        font = _name_font(tile, size)
        group.append(draw.Text(lines, font, cx, cy + size * 0.01, center=True, line_height=1.05,
                               font_family=FONT, font_weight="bold", fill=INK if army == NEUTRAL_ARMY else "#ffffff"))
    if tile.initiative and tile.kind is not Kind.HQ:
        text = "/".join(str(i) for i in tile.initiative)
        ix, iy = cx + size * INITIATIVE_AT[0], cy + size * INITIATIVE_AT[1]
        group.append(draw.Ellipse(ix, iy, _initiative_rx(tile, size), size * INITIATIVE_R,
                                  fill="#ffffff", stroke=INK, stroke_width=0.8))
        group.append(draw.Text(text, size * (0.15 if len(text) == 1 else 0.12), ix, iy + size * 0.005,
                               center=True, font_family=FONT, font_weight="bold", fill=INK))
    pips = tile.toughness if tile.kind is not Kind.HQ else 0
    for k in range(max(pips, wounds if tile.kind is not Kind.HQ else 0)):
        px = cx + (k - (max(pips, 1) - 1) / 2) * size * 0.14
        group.append(draw.Rectangle(px - size * PIP / 2, cy + size * (TOUGHNESS_AT - PIP / 2), size * PIP,
                                    size * PIP, fill=WOUND if k < wounds else "#ffffff", stroke=INK,
                                    stroke_width=0.5))
    if tile.kind is Kind.HQ:
        for k in range(wounds):  # an HQ's wounds (health is its number): red dots under the disc
            group.append(draw.Circle(cx + (k - (wounds - 1) / 2) * size * 0.16, cy + size * 0.36, size * 0.06,
                                     fill=WOUND, stroke="#ffffff", stroke_width=1))
    if highlight:
        group.append(draw.Lines(*hex_corners(cx, cy, size * 1.02), close=True, fill="none", stroke=GOLD,
                                stroke_width=4))


def long_link(tile: Tile) -> bool:
    """Whether the tile's links reach two hexes (the Doomsday Officer: ``module … reach 2``), drawn unlike one."""
    return tile.module is not None and (tile.module.reach or 1) > 1


#: The expansions' edge marks: a small badge on the edge with a letter, as the legend explains.
SPECIAL_MARKS: dict[str, tuple[str, str]] = {
    "redirect-entrance": ("in", "redirection entrance"), "redirect-exit": ("out", "redirection exit"),
    "shotgun": ("S", "shotgun"), "rocket": ("R", "rocket"), "trap-trigger": ("T", "trap side"),
}


def _edge_icons(group: draw.Group, edge: Edge, cx: float, cy: float, size: float, angle: float, *,
                long_link: bool = False) -> None:
    """The icons of one edge, drawn inside the tile along that edge, pointing out of the hex, no deeper than
    :data:`ICON_DEPTH` from the rim. A link that reaches two hexes (``long_link``: the Doomsday Officer's,
    ``module … reach 2``) is two rings joined, one behind the other, where an ordinary link is one ring."""
    if edge.is_blank:
        return
    rim = size * 0.866 * 0.86  # centre to the middle of the tile body's edge
    along = angle + 90

    def at(depth: float, offset: float = 0.0) -> tuple[float, float]:
        """A point ``depth`` (in hex radii) inside the edge, ``offset`` along it."""
        return _polar(*_polar(cx, cy, rim - size * depth, angle), size * offset, along)

    attacks = bool(edge.melee) + bool(edge.ranged)
    if edge.armor:
        group.append(draw.Line(*at(0.05, -0.30), *at(0.05, 0.30), stroke="#d8d8d8", stroke_width=size * 0.08,
                               stroke_linecap="round"))
        group.append(draw.Line(*at(0.05, -0.30), *at(0.05, 0.30), stroke=INK, stroke_width=size * 0.015))
    if edge.link and long_link and not (edge.melee or edge.ranged or edge.net):
        group.append(draw.Line(*at(0.09), *at(0.29), stroke=INK, stroke_width=size * 0.05, stroke_linecap="round"))
        group.append(draw.Line(*at(0.09), *at(0.29), stroke="#ffffff", stroke_width=size * 0.025))
        for depth in (0.09, 0.29):
            group.append(draw.Circle(*at(depth), size * 0.055, fill="#ffffff", stroke=INK, stroke_width=1.2))
            group.append(draw.Circle(*at(depth), size * 0.02, fill=INK))
    elif edge.link:
        depth = 0.30 if (edge.melee or edge.ranged or edge.net) else 0.11
        group.append(draw.Circle(*at(depth), size * 0.055, fill="#ffffff", stroke=INK, stroke_width=1.2))
    # A net sharing its edge with an attack (the Borgo Net Fighter) moves to one side, smaller, and the attack
    # to the other, so that neither covers the other.
    net_at, net_r = (-0.29, 0.13) if edge.net and attacks else (0.0, 0.19)
    if edge.net:
        nx, ny = at(0.02, net_at)
        r = size * net_r
        start = _polar(nx, ny, r, angle + 90)
        end = _polar(nx, ny, r, angle - 90)
        path = draw.Path(fill="#ffffff", stroke=INK, stroke_width=1.2)
        path.M(*start).A(r, r, 0, 0, 0, *end).Z()
        group.append(path)
        for k in (-0.6, 0.0, 0.6):
            base, reach = net_at + k * net_r, 0.02 + net_r * 0.9 * (1 - abs(k) * 0.6)
            scale = net_r / 0.19
            group.append(draw.Line(*at(0.02, base), *at(reach, base + 0.08 * scale), stroke=INK, stroke_width=0.9))
            group.append(draw.Line(*at(0.02, base), *at(reach, base - 0.08 * scale), stroke=INK, stroke_width=0.9))
    shift = 0.16 if attacks == 2 else 0.0
    if edge.melee:
        n = edge.melee
        # Beside a net the triangles close up and move away from it.
        step, half, centre = (0.17, 0.075, 0.13) if edge.net else (0.22, 0.10, 0.0)
        for k in range(n):
            offset = centre + (k - (n - 1) / 2) * step - shift
            tip = at(0.01, offset)
            left, right = at(0.23, offset - half), at(0.23, offset + half)
            group.append(draw.Lines(*left, *tip, *right, *at(0.18, offset), close=True, fill="#ffffff", stroke=INK,
                                    stroke_width=1.1))
    if edge.ranged:
        n = edge.ranged
        for k in range(n):
            offset = (k - (n - 1) / 2) * 0.15 + shift + (0.13 if edge.net else 0.0)
            start, tip = at(0.30, offset), at(0.01, offset)
            group.append(draw.Line(*start, *at(0.10, offset), stroke=INK, stroke_width=size * 0.07))
            group.append(draw.Line(*start, *at(0.10, offset), stroke="#ffffff", stroke_width=size * 0.035))
            group.append(draw.Lines(*at(0.14, offset - 0.07), *tip, *at(0.14, offset + 0.07), close=True,
                                    fill="#ffffff", stroke=INK, stroke_width=1))
    if "gauss" in edge.special:
        for side in (-0.05, 0.05):
            group.append(draw.Line(*at(0.32, side), *at(0.12, side), stroke="#5fcdfb", stroke_width=size * 0.045))
        group.append(draw.Lines(*at(0.16, -0.11), *at(0.0), *at(0.16, 0.11), close=True, fill="#5fcdfb",
                                stroke=INK, stroke_width=1))
    marks = [SPECIAL_MARKS[s][0] for s in sorted(edge.special) if s in SPECIAL_MARKS]
    for k, mark in enumerate(marks):
        # Beside the edge's attack icons (or on the edge's middle when it has none).
        offset = (0.31 if attacks or edge.net else 0.0) + k * 0.2
        bx, by = at(0.12, offset if not attacks else -offset)
        group.append(draw.Circle(bx, by, size * 0.09, fill="#222222", stroke="#ffffff", stroke_width=1))
        group.append(draw.Text(mark, size * (0.11 if len(mark) == 1 else 0.085), bx, by + size * 0.005,
                               center=True, font_family=FONT, font_weight="bold", fill="#ffffff"))


def draw_instant(group: draw.Group, tile: Tile, cx: float, cy: float, size: float, seats: Sequence[str] = ()) -> None:
    """An instant tile: a round token in the army's colour with its name."""
    body, dark = army_colours(tile.army, seats)
    group.append(draw.Lines(*hex_corners(cx, cy, size * 0.97), close=True, fill=dark, stroke=INK, stroke_width=1))
    _rim(group, tile.army, seats, cx, cy, size)
    group.append(draw.Circle(cx, cy, size * 0.72, fill=body, stroke="#ffffff", stroke_width=2))
    lines = _short(tile)
    group.append(draw.Text(lines, _fit(lines, size * 1.2, size * 0.6, size * 0.21), cx, cy - size * 0.06,
                           center=True, line_height=1.05, font_family=FONT, font_weight="bold", fill="#ffffff"))
    group.append(draw.Text("instant", size * 0.13, cx, cy + size * 0.40, center=True, font_family=FONT,
                           fill="#ffffff", font_style="italic"))


# --- the board ------------------------------------------------------------------------------------------------------


def _netted(position: Position) -> frozenset[Hex]:
    try:
        return effects.netted({u.hex: u for u in position.units})
    except (NhexError, RuleNotImplemented):
        return frozenset()


def draw_board(group: draw.Group, position: Position, origin: tuple[float, float], size: float = SIZE, *,
               marked: Iterable[Hex] = (), seats: Sequence[str] | None = None) -> None:
    """Every hex of the board with its label, and every unit on it (``seats``: the players in seat order, by which
    a mirror match's players of one army are told apart, solver/mirror.py)."""
    marked = set(marked)
    seats = seats_of(position) if seats is None else seats
    nets = _netted(position)
    terrain = {h: element for element in position.terrain for h in element.hexes}
    ground = {f.hex: f for f in position.foundations}
    terminals = frozenset(position.terminals)
    occupied = {u.hex for u in position.units}
    for hex_ in position.board:
        cx, cy = _pixel(hex_, size, origin)
        element = terrain.get(hex_)
        fill, ink = TERRAIN_COLOURS.get(element.type, ("#b9b9a0", INK)) if element else (EMPTY, "#8a7f68")
        if hex_ in terminals:
            fill, ink = TERMINAL, INK
        group.append(draw.Lines(*hex_corners(cx, cy, size), close=True, fill=fill, stroke="#b5aa92", stroke_width=1.5))
        if hex_ in terminals:
            _terminal(group, cx, cy, size, empty=hex_ not in occupied)
        if element is not None and hex_ not in occupied:
            group.append(draw.Text(element.type.title(), size * 0.19, cx, cy - size * 0.52, center=True,
                                   font_family=FONT, font_weight="bold", fill=ink))
            details = terrain_details(element)
            if details:  # what the element does: Thick, Closed, Fatal ... (B13), under its name
                font = size * 0.14
                lines = textwrap.wrap(details, width=max(8, int(size * 1.45 / (font * 0.6))))[:3]
                group.append(draw.Text(lines, font, cx, cy - size * 0.32, center=True, line_height=1.1,
                                       font_family=FONT, fill=ink))
        if hex_ in ground and hex_ not in occupied:
            _foundation(group, ground[hex_].tile, cx, cy - size * 0.08, size, seats)  # above the hex label
        if hex_ not in occupied:
            group.append(draw.Text(hex_.label, size * 0.22, cx, cy + size * 0.62, center=True, font_family=FONT,
                                   fill=ink))
    for unit in position.units:
        cx, cy = _pixel(unit.hex, size, origin)
        draw_tile(group, unit.tile, unit.facing, cx, cy, _tile_size(unit.hex, terrain, terminals, size),
                  wounds=unit.wounds, hp=unit.hp, netted=unit.hex in nets, highlight=unit.hex in marked, seats=seats,
                  army=unit.army if unit.tile.army == NEUTRAL_ARMY else None)
    for unit in position.units:  # labels and markers on top, so that no neighbour's icon hides them
        cx, cy = _pixel(unit.hex, size, origin)
        on = _tile_size(unit.hex, terrain, terminals, size)
        avoid: list[Box] = []
        # Prize markers on the unit (B13 PRIZE MARKERS): a gold disc with their number in the tile's rim, at its
        # upper right corner; the card names them in words (prizes_on_units). A badge with the names there met the
        # hex label of the unit above, and no room at a corner holds two words clear of the neighbours' marks.
        if unit.prizes:
            mx, my = _polar(0.0, 0.0, on * 0.96, -60)  # between the front bars of the N and NE edges, either facing
            group.append(draw.Circle(cx + mx, cy + my, on * 0.065, fill=GOLD, stroke=INK, stroke_width=0.8))
            group.append(draw.Text(str(len(unit.prizes)), on * 0.095, cx + mx, cy + my + on * 0.005, center=True,
                                   font_family=FONT, font_weight="bold", fill=INK))
            avoid.append((mx - on * 0.1, my - on * 0.1, mx + on * 0.1, my + on * 0.1))
        # What lies under the unit: its terrain with its features (a Hill's Watchtower), a foundation (a Mine,
        # Roots), in a badge across the hex's lower left corner. On terrain and on a Terminal (whose ring and the
        # legend say what it is) the tile is drawn smaller, so that the ground shows round it.
        under = [n for n in (_terrain_words(terrain[unit.hex]) if unit.hex in terrain else "",
                             ground[unit.hex].tile.title if unit.hex in ground else "") if n]
        if under:
            badge = _badge(group, " + ".join(under), cx - size * 0.42, cy + size * 0.80, size)
            avoid.append((badge[0] - cx, badge[1] - cy, badge[2] - cx, badge[3] - cy))
        avoid.append(draw_label(group, unit.tile, unit.facing, unit.hex.label, cx, cy, on, avoid,
                                ink=INK if unit.is_neutral else "#ffffff"))
        for _ in range(unit.venom):  # Venom markers (B13 NEOJUNGLE): green discs where the tile has room
            spot = mark_spot(unit.tile, unit.facing, on, on * 0.26, on * 0.26, avoid)
            vx, vy = spot if spot is not None else _polar(0.0, 0.0, on * 0.62, 180.0)
            _venom(group, cx + vx, cy + vy, on)
            avoid.append((vx - on * 0.13, vy - on * 0.13, vx + on * 0.13, vy + on * 0.13))


def _tile_size(hex_: Hex, terrain: dict[Hex, TerrainElement], terminals: frozenset[Hex], size: float) -> float:
    """A unit's tile is drawn smaller on terrain or a Terminal, so that the ground shows round it."""
    return size * 0.84 if hex_ in terrain or hex_ in terminals else size


def duel_words(position: Position) -> list[str]:
    """The Duel board's Energy in words ("Energy: Moloch 3"): the Terminals are drawn, the Energy is not."""
    if not position.terminals and not position.energy:
        return []
    energy = ", ".join(f"{army_title(a)} {n}" for a, n in position.energy) or "none"
    return [f"Duel board · Energy: {energy}"]


def _terrain_words(element: TerrainElement) -> str:
    """A terrain element under a unit, as its badge names it: the type and what it does (``Hill: Watchtower``)."""
    details = terrain_details(element)
    return f"{element.type.title()}: {details}" if details else element.type.title()


VENOM = "#2f9e44"
TERMINAL = "#9fd8e6"  # a Terminal of the Duel board (NOTATION §10.2): the hex, and the ring round a Cell on it


def _terminal(group: draw.Group, cx: float, cy: float, size: float, *, empty: bool) -> None:
    """A Terminal: the hex in its colour with a socket drawn on it (three pins in a ring) and, when empty, its name."""
    if not empty:
        group.append(draw.Lines(*hex_corners(cx, cy, size * 0.96), close=True, fill="none", stroke="#1f6f86",
                                stroke_width=2.5))
        return
    group.append(draw.Circle(cx, cy - size * 0.2, size * 0.2, fill="#ffffff", stroke="#1f6f86", stroke_width=2))
    for angle in (-90.0, 30.0, 150.0):
        px, py = _polar(cx, cy - size * 0.2, size * 0.09, angle)
        group.append(draw.Circle(px, py, size * 0.035, fill="#1f6f86"))
    group.append(draw.Text("Terminal", size * 0.17, cx, cy + size * 0.22, center=True, font_family=FONT,
                           font_weight="bold", fill="#1f6f86"))


def _venom(group: draw.Group, x: float, y: float, size: float) -> None:
    """A Venom marker (B13 NEOJUNGLE): a green disc with a white V."""
    group.append(draw.Circle(x, y, size * 0.13, fill=VENOM, stroke="#ffffff", stroke_width=1.5))
    group.append(draw.Text("V", size * 0.17, x, y + size * 0.01, center=True, font_family=FONT, font_weight="bold",
                           fill="#ffffff"))


def prizes_on_units(position: Position) -> str:
    """The Prize markers on the units of ``position`` in words, ``c2 Enhanced Hit + Mobility, b2 Accelerator``
    (empty when there are none): the board marks each such unit with a gold disc."""
    return ", ".join(f"{u.hex.label} " + " + ".join(prize_title(p) for p in u.prizes)
                     for u in sorted(position.units, key=lambda u: (u.hex.q, u.hex.r)) if u.prizes)


def _badge(group: draw.Group, text: str, bx: float, by: float, size: float, *, fill: str = "#ffffff") -> Box:
    """A word in a rounded box centred on (bx, by); returns the box."""
    font = size * 0.15
    width = text_width(text, font, bold=True) + size * 0.12
    group.append(draw.Rectangle(bx - width / 2, by - font * 0.75, width, font * 1.4, rx=3, ry=3,
                                fill=fill, stroke=INK, stroke_width=0.8, fill_opacity=0.95))
    group.append(draw.Text(text, font, bx, by - font * 0.05, center=True, font_family=FONT,
                           font_weight="bold", fill=INK))
    return bx - width / 2, by - font * 0.75, bx + width / 2, by + font * 0.65


def prize_title(name: str) -> str:
    """A Prize marker's name as printed: ``enhanced-hit`` → ``Enhanced Hit``, ``universal-2`` → ``Universal 2``."""
    return name.replace("-", " ").title()


def terrain_details(element: object) -> str:
    """What a terrain element's line says beyond its type, in words: its features (``Closed, High``) and a
    Warehouse's strength, wounds and prizes."""
    words = [f.replace("-", " ").title() for f in getattr(element, "features", ())]
    if getattr(element, "strength", None) is not None:
        words.append(f"strength {element.strength}")  # type: ignore[attr-defined]
    if getattr(element, "wounds", 0):
        words.append(f"{element.wounds} wound{'s' if element.wounds > 1 else ''}")  # type: ignore[attr-defined]
    words += [prize_title(p) for p in getattr(element, "prizes", ())]
    return ", ".join(words)


#: Babel 13 terrain (solver/terrain/babel13.terrain): the hex's colour and the colour of words on it.
TERRAIN_COLOURS: dict[str, tuple[str, str]] = {
    "forest": ("#6f9a5a", "#ffffff"), "hill": ("#b0916a", "#ffffff"), "water": ("#7fb2d9", "#1d3a57"),
    "wasteland": ("#d8cf9a", "#5a5230"), "base": ("#a7a7a7", "#1d1d1d"), "bunker": ("#6d6d6d", "#ffffff"),
    "warehouse": ("#c9a46a", "#3d2b10"), "rock": ("#8d8376", "#ffffff"), "hole": ("#2b2b2b", "#ffffff"),
}


def _foundation(group: draw.Group, tile: Tile, cx: float, cy: float, size: float, seats: Sequence[str] = ()) -> None:
    """A foundation with no unit on it (a Mine, Roots): a flat hex in its army's colour with its name."""
    body, dark = army_colours(tile.army, seats)
    # Small enough that the hex label under it stays clear of its dashed edge.
    group.append(draw.Lines(*hex_corners(cx, cy, size * 0.55), close=True, fill=body, fill_opacity=0.55,
                            stroke=dark, stroke_width=2, stroke_dasharray="5,3"))
    lines = _short(tile)
    group.append(draw.Text(lines, _fit(lines, size * 0.9, size * 0.36, size * 0.19), cx, cy, center=True,
                           font_family=FONT, font_weight="bold", fill=INK))


def _arrow(group: draw.Group, start: tuple[float, float], end: tuple[float, float], colour: str = GOLD, *,
           trim: float = 0.0, aside: float = 0.0) -> None:
    """A gold arrow from ``start`` to ``end``: its tip stops ``0.45·SIZE`` short of the end (on the rim of the unit
    that arrives there, not over its name), its tail ``trim`` after the start, the whole ``aside`` to its left."""
    dx, dy = end[0] - start[0], end[1] - start[1]
    length = math.hypot(dx, dy) or 1.0
    ux, uy = dx / length, dy / length
    start = (start[0] + ux * trim + uy * aside, start[1] + uy * trim - ux * aside)
    end = (end[0] + uy * aside, end[1] - ux * aside)
    tip = (end[0] - ux * SIZE * 0.45, end[1] - uy * SIZE * 0.45)
    group.append(draw.Line(*start, *tip, stroke=colour, stroke_width=5, stroke_linecap="round"))
    left = (tip[0] - ux * 12 + uy * 9, tip[1] - uy * 12 - ux * 9)
    right = (tip[0] - ux * 12 - uy * 9, tip[1] - uy * 12 + ux * 9)
    group.append(draw.Lines(*left, *tip, *right, close=True, fill=colour, stroke=INK, stroke_width=1))


def _turn(group: draw.Group, cx: float, cy: float, size: float) -> None:
    """A unit turned where it stands: a gold arc round it with an arrowhead."""
    r = size * 0.92
    start, end = _polar(cx, cy, r, -150), _polar(cx, cy, r, -30)
    arc = draw.Path(fill="none", stroke=GOLD, stroke_width=5, stroke_linecap="round")
    arc.M(*start).A(r, r, 0, 0, 1, *end)
    group.append(arc)
    tip = _polar(cx, cy, r, -8)
    left, right = _polar(cx, cy, r - 11, -32), _polar(cx, cy, r + 11, -32)
    group.append(draw.Lines(*left, *tip, *right, close=True, fill=GOLD, stroke=INK, stroke_width=1))


def _crosshair(group: draw.Group, cx: float, cy: float, size: float) -> None:
    """A target: a gold ring round the tile's marks with ticks outside it, so that the name stays readable."""
    group.append(draw.Circle(cx, cy, size * 0.66, fill="none", stroke=INK, stroke_width=6, stroke_opacity=0.5))
    group.append(draw.Circle(cx, cy, size * 0.66, fill="none", stroke=GOLD, stroke_width=4))
    for angle in (0, 180):  # the ticks on the left and right corners, clear of the name and the edge icons
        a = _polar(cx, cy, size * 0.62, angle)
        b = _polar(cx, cy, size * 1.02, angle)
        group.append(draw.Line(*a, *b, stroke=GOLD, stroke_width=4))


# --- the card -------------------------------------------------------------------------------------------------------


def _wrap(text: str, width: int) -> list[str]:
    return textwrap.wrap(text, width=width) or [""]


def _wrap_to(text: str, font: float, room: float) -> list[str]:
    """``text`` in lines no wider than ``room`` at ``font`` (DejaVu Sans, measured)."""
    lines: list[str] = []
    for word in text.split():
        if lines and text_width(lines[-1] + " " + word, font) <= room:
            lines[-1] += " " + word
        else:
            lines.append(word)
    return lines or [""]


def _seats(puzzle: Puzzle) -> tuple[str, ...]:
    """A card's players in seat order (solver/mirror.py): its `players` line is written in label order."""
    return seats_of(puzzle.position, also=(puzzle.player,))


def _header(d: draw.Drawing, puzzle: Puzzle, side: str) -> None:
    body, dark = army_colours(puzzle.player, _seats(puzzle))
    d.append(draw.Rectangle(0, 0, WIDTH, 78, fill=dark))
    number = f"{puzzle.number}. " if puzzle.number is not None else ""
    title = number + puzzle.title
    d.append(draw.Text(title, 26 if len(title) < 34 else 20, 24, 38, font_family=FONT, font_weight="bold",
                       fill="#ffffff"))
    line = f"{army_title(puzzle.player)} to play · against {opponents_words(puzzle.position, puzzle.player)} · {side}"
    room = WIDTH - 24 - 110  # up to the level's word under the stars
    d.append(draw.Text(line, min(15.0, 15.0 * room / text_width(line, 15.0)), 24, 64, font_family=FONT,
                       fill="#ffffff"))
    if puzzle.level is not None:
        for k in range(4):
            x = WIDTH - 30 - (3 - k) * 26
            filled = k < puzzle.level
            d.append(draw.Lines(*_star(x, 36, 11), close=True, fill=GOLD if filled else "none",
                                stroke="#ffffff", stroke_width=1.5))
        d.append(draw.Text(f"level {puzzle.level}", 13, WIDTH - 30, 64, text_anchor="end", font_family=FONT,
                           fill="#ffffff"))


def _star(cx: float, cy: float, r: float) -> list[float]:
    points: list[float] = []
    for k in range(10):
        radius = r if k % 2 == 0 else r * 0.45
        angle = math.radians(-90 + 36 * k)
        points += [cx + radius * math.cos(angle), cy + radius * math.sin(angle)]
    return points


def _canvas() -> draw.Drawing:
    d = draw.Drawing(WIDTH, HEIGHT)
    d.append(draw.Rectangle(0, 0, WIDTH, HEIGHT, fill=PAPER, stroke=INK, stroke_width=3, rx=18, ry=18))
    return d


BOARD_ORIGIN = (WIDTH / 2, 96 + SIZE * SQRT3 * 2.5)


def front(puzzle: Puzzle) -> draw.Drawing:
    """The front of the card: board, offer, goal, level."""
    d = _canvas()
    _header(d, puzzle, "puzzle")
    board = draw.Group()
    draw_board(board, puzzle.position, BOARD_ORIGIN, seats=_seats(puzzle))
    d.append(board)
    y = BOARD_ORIGIN[1] + SIZE * SQRT3 * 2.5 + 22
    d.append(draw.Line(24, y, WIDTH - 24, y, stroke="#b5aa92", stroke_width=1))
    play = puzzle.tiles_to_play
    d.append(draw.Text(f"Offer — play {'1 tile' if play == 1 else f'up to {play} tiles'}", 17, 24, y + 26,
                       font_family=FONT, font_weight="bold", fill=INK))
    offer = draw.Group()
    # As large as on the board when three tiles or fewer: at 40 a three-word name (Heavy Machine Gun) was 5 px high.
    small = SIZE if len(puzzle.offer) <= 3 else 40.0
    for k, tile in enumerate(puzzle.offer):
        cx, cy = 24 + small + k * (small * 2.1), y + 42 + small
        if tile.kind is Kind.INSTANT:
            draw_instant(offer, tile, cx, cy, small, _seats(puzzle))
        else:
            draw_tile(offer, tile, Direction.N, cx, cy, small, seats=_seats(puzzle))
    d.append(offer)
    held = [p for army_name, prizes in puzzle.position.held_prizes if army_name == puzzle.player for p in prizes]
    words = [f"Prize markers held: {', '.join(prize_title(p) for p in held)}"] if held else []
    on_units = prizes_on_units(puzzle.position)
    if on_units:
        words.append(f"On units: {on_units}")
    words += duel_words(puzzle.position)
    if words:  # Prize markers in the player's hand, which may be put on a unit, and on units (B13 PRIZE MARKERS)
        d.append(draw.Text(words, 14, 24, y + 42 + small * 2 + 22, font_family=FONT, font_weight="bold", fill=INK,
                           line_height=1.3))
    gx = 24 + small * 2.1 * max(3, len(puzzle.offer)) + 6
    d.append(draw.Text("Goal", 17, gx, y + 26, font_family=FONT, font_weight="bold", fill=INK))
    goal = puzzle_goal_words(puzzle)
    d.append(draw.Text(_wrap_to(goal, 16, WIDTH - 20 - gx), 16, gx, y + 52, font_family=FONT, fill=INK,
                       line_height=1.25))
    top = _legend(d, HEIGHT - 32, [*(u.tile for u in puzzle.position.units), *puzzle.offer], puzzle.position)
    if puzzle.story:
        story = _wrap(puzzle.story, 74)[:3]
        d.append(draw.Text(story, 13, 24, top - 17 * len(story), font_family=FONT, fill="#4a4438",
                           font_style="italic", line_height=1.3))
    return d


def _legend(d: draw.Drawing, y: float, tiles: Iterable[Tile] = (), position: Position | None = None) -> float:
    """What the marks on this card mean, each drawn as on the tiles: the base marks always, the Gauss beam and the
    expansions' edge badges when a tile of the card has them. Each entry is its sample then its word, spaced by the
    word's width, so no two run together; more rows, upwards, take what the last cannot hold. Returns the
    top of the legend."""
    group = draw.Group()
    size, font = 34.0, 12.0
    tiles = list(tiles)
    entries: list[tuple[str, object]] = [(name, edge) for name, edge in (
        ("melee", Edge(melee=1)), ("ranged", Edge(ranged=1)), ("armor", Edge(armor=True)), ("net", Edge(net=True)),
        ("link", Edge(link=True)))]
    if any("gauss" in e.special for t in tiles for e in (t.edges or ())):  # only where a Gauss Cannon is drawn
        entries.append(("Gauss", Edge(special=frozenset({"gauss"}))))
    if any(long_link(t) for t in tiles):  # the Doomsday Officer's link reaches two hexes
        entries.append(("link, 2 hexes", Edge(link=True)))
    entries += [("front", "front"), ("toughness", "toughness"), ("wound", "wound")]
    if position is not None and any(u.venom for u in position.units):
        entries.append(("venom", "venom"))
    if position is not None and position.terminals:
        entries.append(("Terminal", "terminal"))
    specials = sorted({s for t in tiles for e in (t.edges or ()) for s in e.special if s in SPECIAL_MARKS})
    entries += [(SPECIAL_MARKS[s][1], s) for s in specials]
    places, x, row = [], 24.0, 0
    for name, _ in entries:
        width = 24 + text_width(name, font) + 14
        if x + width > WIDTH - 20:
            x, row = 24.0, row + 1
        places.append((x, row))
        x += width
    y -= 20 * row  # the last row sits at ``y``
    for (name, sample), (x, row) in zip(entries, places):
        top = y + row * 20
        if isinstance(sample, Edge):
            # The icon as on a tile's N edge, whose tile's centre sits below the line.
            _edge_icons(group, sample, x + 7, top + size * (0.866 * 0.86 - 0.18), size, -90.0,
                        long_link=name == "link, 2 hexes")
        elif sample == "venom":
            _venom(group, x + 9, top, 55.0)
        elif sample == "terminal":
            group.append(draw.Lines(*hex_corners(x + 9, top, 9), close=True, fill=TERMINAL, stroke="#1f6f86",
                                    stroke_width=1.5))
        elif sample == "front":
            group.append(draw.Line(x, top, x + 16, top, stroke=GOLD, stroke_width=4, stroke_linecap="round"))
        elif sample in ("toughness", "wound"):
            group.append(draw.Rectangle(x + 4, top - 5, 10, 10, fill="#ffffff" if sample == "toughness" else WOUND,
                                        stroke=INK, stroke_width=0.6))
        else:
            mark = SPECIAL_MARKS[str(sample)][0]
            group.append(draw.Circle(x + 9, top, 7, fill="#222222", stroke="#ffffff", stroke_width=1))
            group.append(draw.Text(mark, 8 if len(mark) == 1 else 6.5, x + 9, top + 0.5, center=True,
                                   font_family=FONT, font_weight="bold", fill="#ffffff"))
        group.append(draw.Text(name, font, x + 24, top + 4, font_family=FONT, fill=INK))
    d.append(group)
    return y - 12


def key_marks(puzzle: Puzzle) -> tuple[Position, set[Hex], list[tuple[str, Hex, Hex | None]]]:
    """The board after the key (as far as it can be replayed), the hexes it fills, and its moves and targets."""
    from ..turns import actions as rules

    position = replace(puzzle.position, hands=((puzzle.player, puzzle.offer),), to_move=puzzle.player)
    used = rules.NOTHING_USED
    placed: set[Hex] = set()
    marks: list[tuple[str, Hex, Hex | None]] = []
    for action in puzzle.solution or ():
        if isinstance(action, Place):
            placed.add(action.hex)
        elif isinstance(action, Move):
            marks.append(("turn", action.source, None) if action.source == action.target
                         else ("move", action.source, action.target))
            placed.add(action.target)
        elif isinstance(action, PutPrize):  # the marker's unit is outlined; the back draws the marker on it
            placed.add(action.hex)
        elif isinstance(action, Procedure):  # the Duel board's Procedures (NOTATION §10.2)
            hexes = action.hexes
            if action.kind == "erase" and hexes:
                marks.append(("target", hexes[0], None))
            elif action.kind == "laser" and len(hexes) == 2:
                marks.append(("laser", hexes[0], hexes[1]))
            elif action.kind == "rotation" and hexes:
                marks.append(("turn", hexes[0], None))
            elif action.kind == "swap" and len(hexes) == 2:
                marks += [("move", hexes[0], hexes[1]), ("move", hexes[1], hexes[0])]
            elif action.kind == "push" and len(hexes) >= 3:
                marks.append(("move", hexes[1], hexes[2]))
        elif isinstance(action, Use):
            if action.tile.name == "rotation" and action.targets:  # the unit turns where it stands
                marks.append(("turn", action.targets[0], None))
            elif action.tile.name == "castling" and len(action.targets) == 2:  # two units trade places
                a, b = action.targets
                marks += [("move", a, b), ("move", b, a)]
                placed.update((a, b))
            elif action.tile.name in ("move", "push-back") and len(action.targets) >= 2:
                source, target = action.targets[-2], action.targets[-1]
                marks.append(("turn", source, None) if source == target else ("move", source, target))
                if action.tile.name == "move":
                    placed.add(action.targets[-1])
            else:
                marks.extend(("target", t, None) for t in action.targets)
        try:
            after = rules.apply(position, action, puzzle.player, used)
            used = rules.spend(position, action, puzzle.player, used)
            position = after
        except (NhexError, rules.ChoiceRequired):
            break
    return replace(position, hands=(), to_move=None), placed, marks


def back(puzzle: Puzzle) -> draw.Drawing:
    """The back of the card: the board after the key, the key marked, the solution and the explanation."""
    d = _canvas()
    _header(d, puzzle, "solution")
    after, placed, marks = key_marks(puzzle)
    board = draw.Group()
    draw_board(board, after, BOARD_ORIGIN, marked=placed, seats=_seats(puzzle))
    swaps = {(a, b) for kind, a, b in marks if kind == "move" and b is not None and ("move", b, a) in marks}
    for kind, source, target in marks:
        if kind == "move" and target is not None:
            # Two units trading places (a Castling): two arrows side by side, each leaving its unit's rim.
            swap = (source, target) in swaps
            _arrow(board, _pixel(source, SIZE, BOARD_ORIGIN), _pixel(target, SIZE, BOARD_ORIGIN),
                   trim=SIZE * 0.45 if swap else 0.0, aside=7.0 if swap else 0.0)
        elif kind == "turn":
            _turn(board, *_pixel(source, SIZE, BOARD_ORIGIN), SIZE)
        elif kind == "laser" and target is not None:  # the beam between the two Cells, through what it annihilated
            a, b = _pixel(source, SIZE, BOARD_ORIGIN), _pixel(target, SIZE, BOARD_ORIGIN)
            length = math.hypot(b[0] - a[0], b[1] - a[1]) or 1.0
            trim = ((b[0] - a[0]) / length * SIZE * 0.6, (b[1] - a[1]) / length * SIZE * 0.6)  # from rim to rim
            a, b = (a[0] + trim[0], a[1] + trim[1]), (b[0] - trim[0], b[1] - trim[1])
            board.append(draw.Line(*a, *b, stroke=INK, stroke_width=9, stroke_opacity=0.5, stroke_linecap="round"))
            board.append(draw.Line(*a, *b, stroke="#ff2d55", stroke_width=5, stroke_linecap="round"))
        else:
            _crosshair(board, *_pixel(source, SIZE, BOARD_ORIGIN), SIZE)
    d.append(board)
    y = BOARD_ORIGIN[1] + SIZE * SQRT3 * 2.5 + 22
    d.append(draw.Line(24, y, WIDTH - 24, y, stroke="#b5aa92", stroke_width=1))
    # The goal in words, so that the back read alone says what was asked (a printed set, print_sheet.py).
    goal = _wrap("Goal: " + puzzle_goal_words(puzzle), 80)[:2]
    on_units = prizes_on_units(after)
    if on_units:  # the gold discs of the board in words
        goal += _wrap(f"Prize markers on units: {on_units}", 80)[:1]
    d.append(draw.Text(goal, 13, 24, y + 20, font_family=FONT, fill=INK, line_height=1.25))
    y += 17 * len(goal)
    d.append(draw.Text("Key", 17, 24, y + 26, font_family=FONT, font_weight="bold", fill=INK))
    lines = [str(a) for a in (puzzle.solution or ())] or ["(no solution on the card)"]
    d.append(draw.Text(lines, 16, 24, y + 50, font_family="DejaVu Sans Mono, monospace", fill=INK,
                       line_height=1.3, font_weight="bold"))
    if puzzle.explanation:
        top = y + 56 + 21 * len(lines)
        room = int((HEIGHT - 24 - top) / 17)
        text = _wrap(puzzle.explanation, 86)
        if len(text) > room:
            text = text[:max(room - 1, 0)] + ["…"]
        d.append(draw.Text(text, 12.5, 24, top, font_family=FONT, fill="#33302a", line_height=1.35))
    return d


def position_svg(position: Position, title: str, *, subtitle: str = "", lines: Sequence[str] = (),
                 seats: Sequence[str] | None = None) -> draw.Drawing:
    """Any position as a card-sized picture (``nhex card`` and ``nhex show --svg`` of a position or a game record):
    the board drawn as on a card, then what the board does not show in words (HQ health, whose move or who won,
    hands, decks, the Duel board's Energy, Prize markers, rule options) and the legend."""
    seats = seats_of(position) if seats is None else tuple(seats)
    d = _canvas()
    body, dark = army_colours(position.to_move, seats) if position.to_move else (INK, INK)
    d.append(draw.Rectangle(0, 0, WIDTH, 78, fill=dark))
    d.append(draw.Text(title, min(26.0, 26.0 * (WIDTH - 48) / max(text_width(title, 26.0, bold=True), 1.0)), 24, 38,
                       font_family=FONT, font_weight="bold", fill="#ffffff"))
    if subtitle:
        d.append(draw.Text(subtitle, min(15.0, 15.0 * (WIDTH - 48) / max(text_width(subtitle, 15.0), 1.0)), 24, 64,
                           font_family=FONT, fill="#ffffff"))
    hexes = list(position.board)
    board = draw.Group()
    if hexes:
        # The board's own middle on the card's: a standard board sits as on a puzzle card, another shape is
        # centred and scaled to the room above the words.
        xs = [_pixel(h, 1.0, (0.0, 0.0))[0] for h in hexes]
        ys = [_pixel(h, 1.0, (0.0, 0.0))[1] for h in hexes]
        span_x, span_y = max(xs) - min(xs) + 2.0, max(ys) - min(ys) + SQRT3
        size = min(SIZE, (WIDTH - 40) / span_x, (SIZE * SQRT3 * 5) / span_y)
        origin = (WIDTH / 2 - size * (max(xs) + min(xs)) / 2,
                  BOARD_ORIGIN[1] - size * (max(ys) + min(ys)) / 2)
        draw_board(board, position, origin, size, seats=seats)
    d.append(board)
    y = BOARD_ORIGIN[1] + SIZE * SQRT3 * 2.5 + 22
    d.append(draw.Line(24, y, WIDTH - 24, y, stroke="#b5aa92", stroke_width=1))
    words = [line for text in lines for line in _wrap_to(text, 15, WIDTH - 48)]
    top = _legend(d, HEIGHT - 32, [u.tile for u in position.units], position)
    room = max(0, int((top - 12 - (y + 28)) / 20))
    if len(words) > room:
        words = words[:max(room - 1, 0)] + ["…"]
    d.append(draw.Text(words, 15, 24, y + 28, font_family=FONT, fill=INK, line_height=1.3))
    return d


def position_words(position: Position, *, winners: Sequence[str] | None = None) -> list[str]:
    """What a picture of a position says under the board: HQ health, whose move (or who won), hands, decks,
    the Duel board's Energy, Prize markers on units and held, and the rule options where not the defaults."""
    lines = []
    health = [f"{army_title(u.army)} {u.hp}" for u in position.units if u.is_hq]
    if health:
        lines.append("HQ health: " + ", ".join(health))
    if winners is not None:
        lines.append("Game over: " + (" and ".join(army_title(w) for w in winners) + (" wins" if len(winners) == 1
                                                                                        else " win")
                                       if winners else "a draw"))
    elif position.to_move:
        lines.append(f"{army_title(position.to_move)} to move")
    for army_name, tiles in position.hands:
        lines.append(f"Hand of {army_title(army_name)}: " + (", ".join(t.title for t in tiles) or "empty"))
    for army_name, count in position.decks:
        lines.append(f"Deck of {army_title(army_name)}: {count} tile{'s' * (count != 1)}")
    lines += duel_words(position)
    on_units = prizes_on_units(position)
    if on_units:
        lines.append(f"Prize markers on units: {on_units}")
    for army_name, prizes in position.held_prizes:
        lines.append(f"Prize markers held by {army_title(army_name)}: {', '.join(prize_title(p) for p in prizes)}")
    if not position.rules.is_default:
        lines.append(str(position.rules))
    return lines


def card_svg(puzzle: Puzzle, *, solution: bool = False) -> draw.Drawing:
    """The card's front, or its back when ``solution`` is set."""
    return back(puzzle) if solution else front(puzzle)


def save(puzzle: Puzzle, path: str, *, solution: bool = False) -> None:
    """Write the card as SVG, or as PNG when ``path`` ends in ``.png`` (needs cairosvg and the cairo library),
    whole or not at all (:func:`solver.streams.write_atomically`: a run killed halfway leaves no half a picture)."""
    from ..streams import write_atomically

    write_atomically(path, picture_bytes(card_svg(puzzle, solution=solution), png=path.lower().endswith(".png")))


def picture_bytes(picture: draw.Drawing, *, png: bool = False) -> bytes:
    """A drawn card as the bytes of its file: SVG text in UTF-8, or PNG (needs cairosvg and the cairo library)."""
    if png:
        data: bytes = picture.rasterize().png_data
        return data
    return picture.as_svg().encode("utf-8")


def describe_marks(marks: Sequence[tuple[str, Hex, Hex | None]]) -> list[str]:
    """The key's marks in words (for tests and for readers without a picture)."""
    return [f"{kind} {a.label}" + (f" {b.label}" if b else "") for kind, a, b in marks]


__all__ = ["card_svg", "position_svg", "position_words", "front", "back", "save", "draw_tile", "draw_board", "key_marks", "ARMY_COLOURS"]
