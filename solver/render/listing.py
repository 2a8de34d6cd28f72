"""Tables of many cards (``nhex solve-all``, ``nhex generate``) that never cut a name a user types.

A file name or a key's action is something the user copies into the next command, so it is never cut nor broken
inside a word: the table gives such a column the width of its longest word, breaks a key between its actions, and
where even then the table cannot fit the console (80 columns in a pipe), each row becomes a small block instead,
the names on lines of their own::

    doomsday-vs-new-york-level2-h16-0-0.nhex
        SOUND · 2042 plays · 190 positions · 2.39 seconds
        move c5 c5 N by hq; place doomsday:gamma-shooter c4 SE
"""

from __future__ import annotations

import textwrap
from dataclasses import dataclass
from typing import Literal

from rich import box
from rich.console import Console, ConsoleOptions, Group, RenderResult
from rich.table import Table
from rich.text import Text

#: ``name``: a word the user types (a file name), never cut nor broken; ``key``: actions, broken only between
#: actions and words; ``text``: free words; ``number``: right-aligned figures.
Kind = Literal["name", "key", "text", "number"]


@dataclass(frozen=True)
class Column:
    header: str
    kind: Kind = "text"
    #: The style of the cells (``bold`` for a verdict); a cell may bring its own (a :class:`Text`).
    style: str = ""


@dataclass(frozen=True)
class Listing:
    """Rows of cells under headed columns, drawn as a table where it fits the console and as blocks where not."""

    title: str
    columns: tuple[Column, ...]
    rows: tuple[tuple[str, ...], ...]
    caption: str = ""

    def table(self) -> Table:
        table = Table(title=self.title, caption=self.caption or None, box=box.SIMPLE_HEAD, header_style="bold")
        for index, column in enumerate(self.columns):
            cells = [row[index] for row in self.rows]
            if column.kind == "name":
                table.add_column(column.header, no_wrap=True, style=column.style or None,
                                 min_width=max((len(c) for c in cells), default=0))
            elif column.kind == "key":
                words = [w for c in cells for w in c.split()]
                table.add_column(column.header, overflow="fold", style=column.style or None,
                                 min_width=max((len(w) for w in words), default=0))
            elif column.kind == "number":
                table.add_column(column.header, justify="right", no_wrap=True, style=column.style or None)
            else:
                table.add_column(column.header, style=column.style or None)
        for row in self.rows:
            table.add_row(*(cell.replace("; ", ";\n") if column.kind == "key" else cell
                            for column, cell in zip(self.columns, row)))
        return table

    def blocks(self, width: int) -> Group:
        """Each row as a block: its names on lines of their own, the short cells on one line (each number followed
        by its column's header), its keys wrapped between words, indented."""
        parts: list[Text] = [Text(self.title, style="bold")]
        for row in self.rows:
            short: list[str] = []
            parts.append(Text())
            for column, cell in zip(self.columns, row):
                if not cell:
                    continue
                if column.kind == "name":
                    parts.append(Text(cell, style=f"bold {column.style}".strip()))
                elif column.kind == "number":
                    short.append(f"{cell} {_singular(column.header) if cell == '1' else column.header}")
                elif column.kind == "text":
                    short.append(cell)
            if short:
                parts.append(_wrapped(" · ".join(short), width))
            for column, cell in zip(self.columns, row):
                if column.kind == "key" and cell:
                    parts.append(_wrapped(cell, width))
        if self.caption:
            parts += [Text(), Text(self.caption, style="dim")]
        return Group(*parts)

    def narrowest(self) -> int:
        """The narrowest the table can be drawn with no cell cut: names whole, keys and words unbroken, each column
        with its padding and a rule between (:data:`rich.box.SIMPLE_HEAD`)."""
        widths = []
        for index, column in enumerate(self.columns):
            cells = [row[index] for row in self.rows]
            words = [w for c in cells for w in (c.split() if column.kind in ("key", "text") else [c])]
            widths.append(max([len(w) for w in words] + [max(len(w) for w in column.header.split())]))
        return sum(widths) + 3 * len(widths) + 1

    def __rich_console__(self, console: Console, options: ConsoleOptions) -> RenderResult:
        if self.narrowest() <= options.max_width:
            yield self.table()
        else:
            yield self.blocks(options.max_width)


def _singular(header: str) -> str:
    """``plays`` → ``play``, ``near misses`` → ``near miss``: the header after the figure 1."""
    return header[:-2] if header.endswith("sses") else header[:-1] if header.endswith("s") else header


def _wrapped(words: str, width: int, indent: int = 4) -> Text:
    return Text("\n".join(textwrap.wrap(words, width=max(20, width - indent), initial_indent=" " * indent,
                                        subsequent_indent=" " * indent, break_long_words=False,
                                        break_on_hyphens=False)))
