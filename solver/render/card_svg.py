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
import textwrap
from dataclasses import replace
from typing import Iterable, Sequence

import drawsvg as draw  # type: ignore[import-untyped]  # drawsvg ships no type hints

from ..engine import effects
from ..notation.cards import Puzzle
from ..errors import NhexError, RuleNotImplemented
from ..hexes import DIRECTIONS, Direction, Hex
from ..position import Move, Place, Position, PutPrize, Use
from ..mirror import mark, seats_of
from ..tiles import Edge, Kind, Tile, base_army

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
NEUTRAL = ("#9e9e9e", "#555555")


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
        group.append(draw.Lines(*_corners(cx, cy, size * 0.915), close=True, fill="none", stroke="#ffffff",
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


def _corners(cx: float, cy: float, size: float) -> list[float]:
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


# --- one tile -------------------------------------------------------------------------------------------------------


def draw_tile(group: draw.Group, tile: Tile, facing: Direction, cx: float, cy: float, size: float, *,
              wounds: int = 0, hp: int | None = None, netted: bool = False, highlight: bool = False,
              seats: Sequence[str] = ()) -> None:
    """A tile on its hex: body, name, initiative, edge icons, facing notch, toughness and wounds, HQ health, net.

    Toughness is a row of white squares under the name; a wound fills one of them red. The initiative is a
    white disc above the name, the HQ's health a big number in the middle."""
    body, dark = army_colours(tile.army, seats)
    group.append(draw.Lines(*_corners(cx, cy, size * 0.97), close=True, fill=dark, stroke=INK, stroke_width=1))
    _rim(group, tile.army, seats, cx, cy, size)
    group.append(draw.Lines(*_corners(cx, cy, size * 0.86), close=True, fill=body, stroke="none"))
    if tile.kind is Kind.MODULE:  # modules: a lighter ring inside, as printed
        group.append(draw.Circle(cx, cy, size * 0.52, fill="none", stroke="#ffffff", stroke_width=1.2,
                                 stroke_opacity=0.6, stroke_dasharray="3,2"))
    # Facing: a gold bar on the rim of the front edge (edge 0 of the printed tile).
    # A dark outline under it keeps it seen on the yellow tiles (Borgo, New York).
    # It lies on the dark rim, outside the body, clear of an armor bar or the attack icons of the front edge,
    # and is drawn before the icons: a net's half-disc, which reaches over the rim, stays on top of it.
    a = _polar(cx, cy, size * 0.87, _EDGE_ANGLE[facing] - 24)
    b = _polar(cx, cy, size * 0.87, _EDGE_ANGLE[facing] + 24)
    group.append(draw.Line(*a, *b, stroke=INK, stroke_width=size * 0.07 + 2.4, stroke_linecap="round"))
    group.append(draw.Line(*a, *b, stroke=GOLD, stroke_width=size * 0.07, stroke_linecap="round"))
    oriented = tile.oriented(facing)
    for d in DIRECTIONS:
        _edge_icons(group, oriented.edges[d], cx, cy, size, _EDGE_ANGLE[d])
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
                               font_family=FONT, font_weight="bold", fill="#ffffff"))
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
        group.append(draw.Lines(*_corners(cx, cy, size * 1.02), close=True, fill="none", stroke=GOLD,
                                stroke_width=4))


#: The expansions' edge marks: a small badge on the edge with a letter, as the legend explains.
SPECIAL_MARKS: dict[str, tuple[str, str]] = {
    "redirect-entrance": ("in", "redirection entrance"), "redirect-exit": ("out", "redirection exit"),
    "shotgun": ("S", "shotgun"), "rocket": ("R", "rocket"), "trap-trigger": ("T", "trap side"),
}


def _edge_icons(group: draw.Group, edge: Edge, cx: float, cy: float, size: float, angle: float) -> None:
    """The icons of one edge, drawn inside the tile along that edge, pointing out of the hex, no deeper than
    :data:`ICON_DEPTH` from the rim."""
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
    if edge.link:
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
    group.append(draw.Lines(*_corners(cx, cy, size * 0.97), close=True, fill=dark, stroke=INK, stroke_width=1))
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
    occupied = {u.hex for u in position.units}
    for hex_ in position.board:
        cx, cy = _pixel(hex_, size, origin)
        element = terrain.get(hex_)
        fill, ink = TERRAIN_COLOURS.get(element.type, ("#b9b9a0", INK)) if element else (EMPTY, "#8a7f68")
        group.append(draw.Lines(*_corners(cx, cy, size), close=True, fill=fill, stroke="#b5aa92", stroke_width=1.5))
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
        draw_tile(group, unit.tile, unit.facing, cx, cy, size, wounds=unit.wounds, hp=unit.hp,
                  netted=unit.hex in nets, highlight=unit.hex in marked, seats=seats)
    for unit in position.units:  # labels on top, so that no neighbour's icon hides them
        cx, cy = _pixel(unit.hex, size, origin)
        group.append(draw.Text(unit.hex.label, size * 0.15, cx + size * 0.5, cy + size * 0.70, center=True,
                               font_family=FONT, fill="#ffffff", font_weight="bold"))
        # What lies under the unit: its terrain, a foundation (a Mine, Roots), in a badge on the hex's lower
        # left corner, below the tile's rim: edge icons keep to the middle of the edges, so none is covered.
        under = [n for n in (terrain[unit.hex].type.title() if unit.hex in terrain else "",
                             ground[unit.hex].tile.title if unit.hex in ground else "") if n]
        if under:
            _badge(group, " + ".join(under), cx - size * 0.5, cy + size * 0.866, size)
        # Prize markers on the unit (B13 PRIZE MARKERS): a gold disc with their number in the tile's rim, at its
        # upper right corner; the card names them in words (prizes_on_units). A badge with the names there met the
        # hex label of the unit above, and no room at a corner holds two words clear of the neighbours' marks.
        if unit.prizes:
            mx, my = _polar(cx, cy, size * 0.96, -60)  # between the front bars of the N and NE edges, either facing
            group.append(draw.Circle(mx, my, size * 0.065, fill=GOLD, stroke=INK, stroke_width=0.8))
            group.append(draw.Text(str(len(unit.prizes)), size * 0.095, mx, my + size * 0.005, center=True,
                                   font_family=FONT, font_weight="bold", fill=INK))


def prizes_on_units(position: Position) -> str:
    """The Prize markers on the units of ``position`` in words, ``c2 Enhanced Hit + Mobility, b2 Accelerator``
    (empty when there are none): the board marks each such unit with a gold disc."""
    return ", ".join(f"{u.hex.label} " + " + ".join(prize_title(p) for p in u.prizes)
                     for u in sorted(position.units, key=lambda u: (u.hex.q, u.hex.r)) if u.prizes)


def _badge(group: draw.Group, text: str, bx: float, by: float, size: float, *, fill: str = "#ffffff") -> None:
    """A word in a rounded box centred on (bx, by)."""
    font = size * 0.13
    width = text_width(text, font, bold=True) + size * 0.12
    group.append(draw.Rectangle(bx - width / 2, by - font * 0.75, width, font * 1.4, rx=3, ry=3,
                                fill=fill, stroke=INK, stroke_width=0.6, fill_opacity=0.95))
    group.append(draw.Text(text, font, bx, by - font * 0.05, center=True, font_family=FONT,
                           font_weight="bold", fill=INK))


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
    group.append(draw.Lines(*_corners(cx, cy, size * 0.55), close=True, fill=body, fill_opacity=0.55,
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
    enemies = sorted({u.army for u in puzzle.position.units if u.army != puzzle.player})
    d.append(draw.Text(f"{_army_title(puzzle.player)} to play · against "
                       f"{', '.join(_army_title(e) for e in enemies)} · {side}",
                       15, 24, 64, font_family=FONT, fill="#ffffff"))
    if puzzle.level is not None:
        for k in range(4):
            x = WIDTH - 30 - (3 - k) * 26
            filled = k < puzzle.level
            d.append(draw.Lines(*_star(x, 36, 11), close=True, fill=GOLD if filled else "none",
                                stroke="#ffffff", stroke_width=1.5))
        d.append(draw.Text(f"level {puzzle.level}", 13, WIDTH - 30, 64, text_anchor="end", font_family=FONT,
                           fill="#ffffff"))


def _army_title(name: str) -> str:
    """The army's name as the rulebooks print it ("New York", "Doomsday Machine")."""
    from ..tiles import army

    try:
        return army(name).title
    except (NhexError, ValueError, KeyError):
        return name.title()


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
    if words:  # Prize markers in the player's hand, which may be put on a unit, and on units (B13 PRIZE MARKERS)
        d.append(draw.Text(words, 14, 24, y + 42 + small * 2 + 22, font_family=FONT, font_weight="bold", fill=INK,
                           line_height=1.3))
    gx = 24 + small * 2.1 * max(3, len(puzzle.offer)) + 6
    d.append(draw.Text("Goal", 17, gx, y + 26, font_family=FONT, font_weight="bold", fill=INK))
    goal = _goal_words(puzzle)
    d.append(draw.Text(_wrap_to(goal, 16, WIDTH - 20 - gx), 16, gx, y + 52, font_family=FONT, fill=INK,
                       line_height=1.25))
    top = _legend(d, HEIGHT - 32, [*(u.tile for u in puzzle.position.units), *puzzle.offer])
    if puzzle.story:
        story = _wrap(puzzle.story, 74)[:3]
        d.append(draw.Text(story, 13, 24, top - 17 * len(story), font_family=FONT, fill="#4a4438",
                           font_style="italic", line_height=1.3))
    return d


def _legend(d: draw.Drawing, y: float, tiles: Iterable[Tile] = ()) -> float:
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
    entries += [("front", "front"), ("toughness", "toughness"), ("wound", "wound")]
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
            _edge_icons(group, sample, x + 7, top + size * (0.866 * 0.86 - 0.18), size, -90.0)
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


def _goal_words(puzzle: Puzzle) -> str:
    goal = str(puzzle.goal)
    then = {"final-battle": "after the Final Battle", "battle": "after a battle",
            "nothing": "at the end of the turn"}[puzzle.then]
    if goal == "win":
        return f"Win {then}: your HQ stands with more health than the enemy's."
    return f"{goal} ({then})"


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
        else:
            _crosshair(board, *_pixel(source, SIZE, BOARD_ORIGIN), SIZE)
    d.append(board)
    y = BOARD_ORIGIN[1] + SIZE * SQRT3 * 2.5 + 22
    d.append(draw.Line(24, y, WIDTH - 24, y, stroke="#b5aa92", stroke_width=1))
    # The goal in words, so that the back read alone says what was asked (a printed set, print_sheet.py).
    goal = _wrap("Goal: " + _goal_words(puzzle), 80)[:2]
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


__all__ = ["card_svg", "front", "back", "save", "draw_tile", "draw_board", "key_marks", "ARMY_COLOURS"]
