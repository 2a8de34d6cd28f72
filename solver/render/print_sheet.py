"""A printable set of cards: A4 pages of card fronts, each followed by the page of their backs.

Four cards go on a page, two by two, each 90 mm wide (the card's shape, 640 × 980, kept). The backs' page puts
each card's back where its front is once the sheet is turned over its long edge, as a duplex printer does: the
columns swap, the rows stay. A back shows the level, the goal in words, the solution and its explanation
(:func:`solver.render.card_svg.back`).

``write_pdf`` writes one PDF with every page (cairosvg draws each page's SVG on one cairo PDF surface, so no
PDF library is needed); ``page_svgs`` gives the same pages as SVG texts, for a printer or a viewer that takes
SVG.
"""

from __future__ import annotations

import io
import re
from collections.abc import Sequence

from ..notation.cards import Puzzle
from .card_svg import HEIGHT, WIDTH, card_svg

#: A4 in millimetres; the pages' SVG user unit is 0.1 mm.
PAGE_MM = (210.0, 297.0)
#: One card on paper, in millimetres: 90 mm wide, its height in the card's proportion.
CARD_MM = (90.0, 90.0 * HEIGHT / WIDTH)
#: Cards per page: columns, rows.
GRID = (2, 2)
#: Space between cards, in millimetres (room to cut).
GAP_MM = 6.0

_ROOT = re.compile(r"<svg\b[^>]*>")


def slots() -> list[tuple[float, float]]:
    """The top-left corner of each card's place on a page (mm), row by row."""
    columns, rows = GRID
    width = columns * CARD_MM[0] + (columns - 1) * GAP_MM
    height = rows * CARD_MM[1] + (rows - 1) * GAP_MM
    left, top = (PAGE_MM[0] - width) / 2, (PAGE_MM[1] - height) / 2
    return [(left + c * (CARD_MM[0] + GAP_MM), top + r * (CARD_MM[1] + GAP_MM))
            for r in range(rows) for c in range(columns)]


def back_slot(index: int) -> int:
    """Where the back of the card in slot ``index`` goes on the backs' page: the same row, the mirrored column
    (the sheet is turned over its long edge)."""
    columns = GRID[0]
    row, column = divmod(index, columns)
    return row * columns + (columns - 1 - column)


def _nested(svg: str, x_mm: float, y_mm: float) -> str:
    """A card's SVG as an element placed at (x, y) mm of a page, at :data:`CARD_MM`."""
    body = svg.split("?>", 1)[-1] if svg.lstrip().startswith("<?xml") else svg
    tag = (f'<svg x="{x_mm * 10:.1f}" y="{y_mm * 10:.1f}" width="{CARD_MM[0] * 10:.1f}" '
           f'height="{CARD_MM[1] * 10:.1f}" viewBox="0 0 {WIDTH} {HEIGHT}" '
           f'xmlns="http://www.w3.org/2000/svg" xmlns:xlink="http://www.w3.org/1999/xlink">')
    return _ROOT.sub(lambda _: tag, body.strip(), count=1)


def _page(cards: Sequence[str | None]) -> str:
    width, height = PAGE_MM
    parts = [f'<svg xmlns="http://www.w3.org/2000/svg" xmlns:xlink="http://www.w3.org/1999/xlink" '
             f'width="{width}mm" height="{height}mm" viewBox="0 0 {width * 10:.0f} {height * 10:.0f}">',
             f'<rect x="0" y="0" width="{width * 10:.0f}" height="{height * 10:.0f}" fill="#ffffff"/>']
    for (x, y), svg in zip(slots(), cards):
        if svg is not None:
            parts.append(_nested(svg, x, y))
    parts.append("</svg>")
    return "\n".join(parts)


def page_svgs(puzzles: Sequence[Puzzle]) -> list[str]:
    """Every page as an SVG text: for each group of four cards, the fronts' page and then the backs' page."""
    per_page = GRID[0] * GRID[1]
    pages = []
    for start in range(0, len(puzzles), per_page):
        group = puzzles[start:start + per_page]
        fronts: list[str | None] = [card_svg(p).as_svg() for p in group]
        backs: list[str | None] = [None] * per_page
        for index, puzzle in enumerate(group):
            backs[back_slot(index)] = card_svg(puzzle, solution=True).as_svg()
        pages += [_page(fronts), _page(backs)]
    return pages


def write_pdf(puzzles: Sequence[Puzzle], path: str) -> int:
    """Write every page to one PDF at ``path``; the number of pages. Needs cairosvg and the cairo library."""
    import cairocffi  # type: ignore[import-untyped]  # the cairo binding cairosvg draws with
    import cairosvg.surface  # type: ignore[import-untyped]
    from cairosvg.parser import Tree  # type: ignore[import-untyped]

    from ..streams import write_atomically

    points = [mm * 72 / 25.4 for mm in PAGE_MM]
    with io.BytesIO() as out:  # drawn in memory, then written whole (a PDF cut short is no PDF)
        document = cairocffi.PDFSurface(out, *points)

        class Page(cairosvg.surface.PDFSurface):
            """cairosvg's PDF surface drawing on the shared document instead of a new file."""

            def _create_surface(self, width: float, height: float) -> tuple[object, float, float]:
                document.set_size(width, height)
                return document, width, height

        pages = page_svgs(puzzles)
        for svg in pages:
            Page(Tree(bytestring=svg.encode("utf-8")), None, 96)
            document.show_page()
        document.finish()
        write_atomically(path, out.getvalue())
    return len(pages)


__all__ = ["page_svgs", "write_pdf", "slots", "back_slot", "CARD_MM", "PAGE_MM"]
