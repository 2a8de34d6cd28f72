"""The page's view of a text: the board drawn as the card pictures draw it (solver/render/card_svg.py), each hex a
target the page can click, and what the page shows beside it (the canonical text, the card's fields, the tiles used,
the located error of the legality gate).

A text the reader refuses still has a board to show: the unit lines that read on their own are drawn, and the hex
of the line the error names is outlined, so that the mistake is seen where it is (lichess's editor shows an
illegal position too, and says why analysis is off).
"""

from __future__ import annotations

import re
from typing import Any, Iterable

import drawsvg as draw  # type: ignore[import-untyped]  # drawsvg ships no type hints

from ..errors import NotationError, RuleNotImplemented
from ..hexes import Direction, Hex
from ..notation.cards import GameRecord, Puzzle
from ..notation.text import parse, parse_unit, write
from ..position import Position, Unit
from ..render.card_svg import SIZE, SQRT3, draw_board, draw_instant, draw_tile, hex_corners
from ..tiles import Kind, Tile
from . import work

#: A unit line starts with its hex: ``c3``, or ``(q,r)`` on a custom board (NOTATION §4).
UNIT_LINE = re.compile(r"^\s*([a-z][0-9]+|\(-?\d+,\s*-?\d+\))\s+\S+:", re.IGNORECASE)
MARGIN = 8.0


def view(text: str, marked: Iterable[str] = ()) -> dict[str, Any]:
    """Everything the page shows of ``text``: ``ok``, ``kind``, ``canonical`` (the canonical text when it reads),
    ``error`` (bad input or a missing rule, located, with the ``hex`` of its line), ``board`` (SVG), ``units``,
    ``used`` (copies of each tile on the board and in hands), ``card`` (a puzzle card's fields), ``to_move``.
    ``marked``: hexes whose tiles are outlined (a battle's actors, a solution's tiles)."""
    error: dict[str, Any] | None = None
    document: Position | Puzzle | GameRecord | None = None
    try:
        document = parse(text, work.STDIN)
    except NotationError as refused:
        error = work.bad_input(refused)
    except RuleNotImplemented as missing:
        error = work.missing_rule(missing.rule, missing.located(work.STDIN))
    except ValueError as unknown:  # an unknown name found outside the reader's located checks
        error = {"error": "bad input", "message": str(unknown), "line": 0, "column": 0, "located": str(unknown)}
    if error is not None:
        error["hex"] = _hex_of_line(text, error["line"])
    position = _position(document) if document is not None else _lenient(text)
    bad = [error["hex"]] if error is not None and error["hex"] else []
    result: dict[str, Any] = {
        "ok": error is None,
        "kind": _kind(document),
        "canonical": write(document) if document is not None else None,
        "error": error,
        "board": board_svg(position, marked=marked, bad=bad),
        "units": [_unit_json(u) for u in position.units],
        "used": _used(position),
        "to_move": position.to_move,
        "card": _card(document) if isinstance(document, Puzzle) else None,
        "board_shape": position.board.shape,
        "rules": None if position.rules.is_default else str(position.rules),
        "hands": [[army, [t.key for t in tiles]] for army, tiles in position.hands],
        "terminals": [h.label for h in position.terminals],
        "energy": dict(position.energy),
    }
    return result


def _kind(document: object) -> str | None:
    return {Position: "position", Puzzle: "puzzle", GameRecord: "game"}.get(type(document))


def _position(document: Position | Puzzle | GameRecord) -> Position:
    return document if isinstance(document, Position) else document.position


def _lenient(text: str) -> Position:
    """The units of the lines that read on their own, for a text the reader refuses (no checks: it is only drawn;
    of two lines on one hex the later is drawn, as the reader blames the later)."""
    units: dict[Hex, Unit] = {}
    for line in text.splitlines():
        if UNIT_LINE.match(line):
            try:
                unit = parse_unit(line.split("#")[0].strip())
            except (NotationError, RuleNotImplemented, ValueError):
                continue
            units[unit.hex] = unit
    try:
        return Position(units=tuple(units.values()))
    except (NotationError, RuleNotImplemented, ValueError):
        return Position()


def _hex_of_line(text: str, line: int) -> str | None:
    lines = text.splitlines()
    if not 0 < line <= len(lines):
        return None
    found = UNIT_LINE.match(lines[line - 1])
    return found.group(1).lower() if found else None


def _unit_json(unit: Unit) -> dict[str, Any]:
    return {"hex": unit.hex.label, "tile": unit.tile.key, "title": unit.tile.title, "army": unit.army,
            "kind": unit.tile.kind.value, "facing": unit.facing.name, "hp": unit.hp, "wounds": unit.wounds,
            "venom": unit.venom, "owner": unit.owner, "prizes": list(unit.prizes)}


def _used(position: Position) -> dict[str, int]:
    used: dict[str, int] = {}
    for tile in [*(u.tile for u in position.units), *(u.tile for u in position.foundations),
                 *(t for _, held in position.hands for t in held)]:
        used[tile.key] = used.get(tile.key, 0) + 1
    return used


def _card(puzzle: Puzzle) -> dict[str, Any]:
    from ..render.words import puzzle_goal_words

    return {"number": puzzle.number, "title": puzzle.title, "level": puzzle.level, "player": puzzle.player,
            "offer": [t.key for t in puzzle.offer], "play": puzzle.tiles_to_play, "goal": puzzle_goal_words(puzzle),
            "story": puzzle.story, "has_solution": puzzle.solution is not None}


# --- pictures -------------------------------------------------------------------------------------------------


def board_svg(position: Position, *, marked: Iterable[str] = (), bad: Iterable[str] = (), targets: bool = True) -> str:
    """The board as the card pictures draw it, scaled to its own hexes, with a transparent target over each hex
    (``data-hex``, and a label naming what stands there, for screen readers and tests; the page's style sheet makes
    them transparent, so ``targets=False`` leaves them out of a picture that leaves the page)."""
    centres = [(SIZE * 1.5 * h.q, SIZE * SQRT3 * (h.r + h.q / 2)) for h in position.board]
    left = min(x for x, _ in centres) - SIZE - MARGIN
    top = min(y for _, y in centres) - SIZE * SQRT3 / 2 - MARGIN
    width = max(x for x, _ in centres) + SIZE + MARGIN - left
    height = max(y for _, y in centres) + SIZE * SQRT3 / 2 + MARGIN - top
    drawing = draw.Drawing(width, height, origin=(left, top), id_prefix="board", role="group",
                           aria_label="the board")
    group = draw.Group()
    marked_hexes = {h for h in position.board if h.label in set(marked)}
    draw_board(group, position, (0.0, 0.0), marked=marked_hexes)
    drawing.append(group)
    bad_labels, marked_labels = set(bad), set(marked)
    terminals = set(position.terminals)
    for hex_, (cx, cy) in zip(position.board, centres):
        if hex_ in terminals:  # the Duel board's Terminals (NOTATION §10.2), which the card pictures do not draw
            drawing.append(draw.Lines(*hex_corners(cx, cy, SIZE * 0.9), close=True, fill="none", stroke="#1f8a8a",
                                      stroke_width=4, stroke_dasharray="10,6", class_="terminal"))
            if position.unit_at(hex_) is None:
                drawing.append(draw.Text("Terminal", SIZE * 0.2, cx, cy - SIZE * 0.3, center=True,
                                         font_family="DejaVu Sans, Verdana, Arial, sans-serif", fill="#1f6a6a",
                                         font_weight="bold"))
    for hex_, (cx, cy) in zip(position.board, centres) if targets else ():
        unit = position.unit_at(hex_)
        what = (f"{unit.tile.title} ({unit.army}) facing {unit.facing.name}" if unit is not None else "empty") + \
            (", a Terminal" if hex_ in terminals else "")
        classes = ["hex"] + (["bad"] if hex_.label in bad_labels else []) + \
            (["marked"] if hex_.label in marked_labels else [])
        drawing.append(draw.Lines(*hex_corners(cx, cy, SIZE * 0.98), close=True, class_=" ".join(classes),
                                  data_hex=hex_.label, role="button", tabindex="0",
                                  aria_label=f"{hex_.label}: {what}"))
    return str(drawing.as_svg())


def picture(text: str) -> str | dict[str, Any]:
    """The board of ``text`` as a picture of its own (no targets), or the located error of a text that does not
    read."""
    try:
        document = parse(text, work.STDIN)
    except NotationError as refused:
        return work.bad_input(refused)
    return board_svg(_position(document), targets=False)


def card_picture(text: str, solution: bool) -> str | dict[str, Any]:
    """A card's front, or its back with the key (``solution``), as ``nhex card`` draws it; or why not."""
    from ..render.card_svg import card_svg

    try:
        puzzle = parse(text, work.STDIN)
    except NotationError as refused:
        return work.bad_input(refused)
    if not isinstance(puzzle, Puzzle):
        return work.bad_input(NotationError("a picture is drawn of a puzzle card", 1, 1))
    if solution and puzzle.solution is None:
        return work.bad_input(NotationError("the card has no `solution` to draw", 1, 1))
    return str(card_svg(puzzle, solution=solution).as_svg())


def tile_svg(tile: Tile, size: float = 40.0) -> str:
    """One tile facing north (an instant as a round token), for the palettes."""
    side = size * 2 + 4
    drawing = draw.Drawing(side, side * SQRT3 / 2 + 4, origin=(-side / 2, -(side * SQRT3 / 2 + 4) / 2))
    group = draw.Group()
    if tile.kind is Kind.INSTANT:
        draw_instant(group, tile, 0.0, 0.0, size)
    else:
        draw_tile(group, tile, Direction.N, 0.0, 0.0, size)
    drawing.append(group)
    return str(drawing.as_svg())
