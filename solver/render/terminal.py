r"""Terminal pictures (rich): the board as it lies on the table, puzzle cards, game records and the army database.

The board is drawn with flat-topped ASCII hexes, columns ``a``..``e`` left to right and every other column
half a hex lower, exactly like the diagram of NOTATION §2; any set of axial hexes (``extended``, ``custom``
boards) is drawn the same way. Inside a hex, from top to bottom::

       ___________
      /    M1     \        the mark of the N side
     /R1   c3    + \       the NW and NE marks, the hex label
    /    HunKil     \      the unit's short name, in its army's colour (``~HunKil~`` when netted)
    \   ↗NE  hp 7   /      its facing; HQ health, wounds (w), venom (v), a foundation under it
     \#     ~     M2/      the SW, S and SE marks
      \___________/

A mark says what acts across that side: ``M2`` melee 2, ``R1`` ranged 1, ``#`` armor, ``~`` net, ``+`` module
link, and a letter for the special icons (legend under the board). Marks are plain ASCII so the columns stay
aligned in every terminal; the facing arrows are the only non-ASCII glyphs inside a hex.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Callable, Iterable, Sequence

from rich import box
from rich.console import Console, ConsoleOptions, Group, RenderableType, RenderResult
from rich.panel import Panel
from rich.table import Table
from rich.text import Text

from ..engine import effects
from ..notation.cards import Expectation, ExpectHp, GameRecord, Puzzle, Turn
from ..errors import RuleNotImplemented
from ..hexes import DIRECTIONS, Direction, Hex
from ..position import Position, Unit
from ..rules import RuleOption
from ..mirror import mark, seats_of
from ..tiles import Army, Edge, Kind, Tile, base_army
from .tables import edges_text, initiative_text, module_text
from .words import puzzle_goal_words

#: One colour per army, nine distinct hues (and white for armies without data, such as mercenaries).
ARMY_COLOURS: dict[str, str] = {
    "moloch": "red1",
    "outpost": "green3",
    "borgo": "dark_orange",
    "hegemony": "dodger_blue1",
    "smart": "cyan",
    "vegas": "magenta",
    "new-york": "yellow1",
    "neojungle": "medium_purple1",
    "doomsday": "grey82",
}

ARROWS = {Direction.N: "↑", Direction.NE: "↗", Direction.SE: "↘", Direction.S: "↓", Direction.SW: "↙",
          Direction.NW: "↖"}

#: The letters of the special edge icons (the army format's names), in legend order.
SPECIAL_MARKS = {"gauss": "G", "shotgun": "S", "rocket": "K", "redirect-entrance": "<", "redirect-exit": ">",
                 "trap-trigger": "!"}

OUTLINE = "grey50"
LABEL = "grey58"


#: How a mirror match's second, third and fourth player of one army are marked beside its colour (solver/mirror.py).
SEAT_MARKS = ("", " underline", " italic", " underline italic")


def army_colour(army: str, seats: tuple[str, ...] = ()) -> str:
    # a mirror match's players of one army are its colour, the second seat underlined, the third in italics
    # (solver/mirror.py: ``seats`` is the picture's players in seat order)
    return ARMY_COLOURS.get(base_army(army), "white") + SEAT_MARKS[min(mark(army, seats), len(SEAT_MARKS) - 1)]


# --- armies told apart without colour -----------------------------------------------------------------------

#: Each army's tag on a board printed without colour (piped, ``NO_COLOR``): ``MOL:Blockr``, ``OUT:HQ``.
ARMY_TAGS: dict[str, str] = {"moloch": "MOL", "outpost": "OUT", "borgo": "BOR", "hegemony": "HEG", "smart": "SMA",
                             "vegas": "VEG", "new-york": "NY", "neojungle": "NEO", "doomsday": "DDM"}
NEUTRAL_TAG = "NTR"  # the neutral Mad Bomber: nobody's


def tag_of(army: str) -> str:
    """An army's tag; a mirror match's labelled player adds its label's first two letters (``MOL/b``)."""
    base = base_army(army)
    tag = ARMY_TAGS.get(base, base[:3].upper())
    return f"{tag}/{army[len(base) + 1:][:2]}" if army != base else tag


def army_tag(unit: Unit) -> str:
    """The tag of the army that commands ``unit`` (:data:`NEUTRAL_TAG` for the neutral Mad Bomber)."""
    return NEUTRAL_TAG if unit.is_neutral else tag_of(unit.army)


def plain_console(console: Console) -> bool:
    """Whether ``console`` shows no colour: piped or redirected, ``NO_COLOR`` set, or ``--no-color``."""
    return bool(console.no_color) or console.color_system is None


class ForConsole:
    """A picture drawn when it is printed, for the console it is printed on: with army tags where that console
    shows no colour (the same picture serves a terminal and a pipe), its lines broken for the console's width."""

    def __init__(self, draw: Callable[[bool, int], RenderableType]) -> None:
        self.draw = draw  # (plain, width) -> the picture

    def __rich_console__(self, console: Console, options: ConsoleOptions) -> RenderResult:
        yield self.draw(plain_console(console), options.max_width)


# --- short names ----------------------------------------------------------------------------------------------

_VOWELS = frozenset("aeiouy")


def _squeeze(word: str, width: int) -> str:
    """Shorten a word to ``width`` letters: drop vowels from the right, keeping the first three letters (so the
    word stays recognisable) and any vowel between two equal letters (``assassin`` -> ``assass``, not
    ``assssn``), then cut."""
    letters = list(word)
    i = len(letters) - 1
    while len(letters) > width and i >= 3:
        between_equals = i + 1 < len(letters) and letters[i - 1] == letters[i + 1]
        if letters[i] in _VOWELS and not between_equals:
            del letters[i]
        i -= 1
    return "".join(letters[:width])


def short_name(tile: Tile) -> str:
    """A 2-6 letter name for the board, derived from the tile name: ``hunter-killer`` -> ``HunKil``,
    ``blocker`` -> ``Blockr``, ``officer-1`` -> ``Offcr1``; the HQ is ``HQ``. Distinct within each army."""
    if tile.kind is Kind.HQ:
        return "HQ"
    words = [w for w in tile.name.split("-") if w not in ("of", "the")] or [tile.name]
    if sum(map(len, words)) <= 6:
        return "".join(w.capitalize() for w in words)
    # Share six letters among the words, shortest word first, so a digit or `mk3` is kept whole.
    parts = [""] * len(words)
    budget = 6
    for n, i in enumerate(sorted(range(len(words)), key=lambda i: len(words[i]))):
        parts[i] = _squeeze(words[i], budget // (len(words) - n))
        budget -= len(parts[i])
    return "".join(p.capitalize() for p in parts)


# --- edge marks ----------------------------------------------------------------------------------------------


def edge_mark(edge: Edge) -> str:
    """What one side shows on the board: ``M2``, ``R1``, ``M2#``, ``M1+``, ``~`` ... (empty for a blank edge)."""
    text = ""
    if edge.melee and edge.ranged and edge.melee == edge.ranged:
        text += f"MR{edge.melee}"
    else:
        text += (f"M{edge.melee}" if edge.melee else "") + (f"R{edge.ranged}" if edge.ranged else "")
    text += "#" if edge.armor else ""
    text += "~" if edge.net else ""
    text += "+" if edge.link else ""
    text += "".join(SPECIAL_MARKS[s] for s in sorted(edge.special) if s in SPECIAL_MARKS)
    return text


def _marks(unit: Unit) -> dict[Direction, str]:
    return {d: edge_mark(unit.tile.edge_towards(unit.facing, d)) for d in DIRECTIONS}


# --- the board -----------------------------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class _Shape:
    """The size of one drawn hex: ``side`` underscores along the top, ``slant`` rows per slanted side."""

    side: int = 11
    slant: int = 3

    @property
    def width(self) -> int:
        return self.side + 2 * self.slant

    def origin(self, hex_: Hex) -> tuple[int, int]:
        """Top-left corner of the hex's box before shifting: columns step right, each half a hex lower."""
        return hex_.q * (self.side + self.slant), (2 * hex_.r + hex_.q) * self.slant

    def interior(self, row: int) -> tuple[int, int]:
        """(first column, width) of the space inside the hex on ``row`` (1 .. 2*slant-1), from the box's left."""
        h, side = self.slant, self.side
        if row <= h:
            return h - row + 1, side + 2 * (row - 1)
        j = row - h
        return j, side + 2 * h - 2 * j


class _Canvas:
    """A grid of styled characters, turned into one rich Text at the end."""

    def __init__(self, width: int, height: int) -> None:
        self.chars = [[" "] * width for _ in range(height)]
        self.styles: list[list[str]] = [[""] * width for _ in range(height)]

    def put(self, x: int, y: int, text: str, style: str = "") -> None:
        for i, char in enumerate(text):
            self.chars[y][x + i] = char
            self.styles[y][x + i] = style

    def text(self) -> Text:
        out = Text(no_wrap=True, overflow="crop")
        for y, row in enumerate(self.chars):
            end = len("".join(row).rstrip())
            run_start = 0
            for x in range(1, end + 1):
                if x == end or self.styles[y][x] != self.styles[y][run_start]:
                    out.append("".join(row[run_start:x]), self.styles[y][run_start] or None)
                    run_start = x
            if y < len(self.chars) - 1:
                out.append("\n")
        return out


class _HexRow:
    """The inside of one row of one hex: texts placed left, right or centred without overlapping."""

    def __init__(self, width: int) -> None:
        self.width = width
        self.items: list[tuple[int, str, str]] = []

    def free(self, start: int, length: int) -> bool:
        if start < 0 or start + length > self.width:
            return False
        # One blank column between texts keeps marks and labels apart.
        return all(start + length < s or start > s + len(t) for s, t, _ in self.items)

    def place(self, text: str, style: str, where: str) -> bool:
        if not text:
            return True
        start = {"left": 0, "right": self.width - len(text), "centre": (self.width - len(text)) // 2}[where]
        if not self.free(start, len(text)):
            return False
        self.items.append((start, text, style))
        return True


MAX_BOARD_WIDTH = 240
MAX_BOARD_HEIGHT = 200


def render_board(position: Position, shape: _Shape = _Shape(), seats: tuple[str, ...] | None = None, *,
                 plain: bool = False) -> Text:
    """The board with every unit, drawn as on the table (``seats``: a game record's players, solver/mirror.py).
    ``plain``: for a console without colour, each unit's name carries its army's tag (``MOL:Blockr``)."""
    seats = seats_of(position) if seats is None else seats
    hexes = sorted(position.board.hexes)
    if not hexes:
        return Text("(a board without hexes)", style="italic")
    origins = {h: shape.origin(h) for h in hexes}
    left = min(x for x, _ in origins.values())
    top = min(y for _, y in origins.values())
    width = max(x for x, _ in origins.values()) - left + shape.width
    height = max(y for _, y in origins.values()) - top + 2 * shape.slant + 1
    if width > MAX_BOARD_WIDTH or height > MAX_BOARD_HEIGHT:
        return Text(f"(a custom board of {len(hexes)} hexes spread too wide to draw; its units are listed below)",
                    style="italic")
    canvas = _Canvas(width, height)
    foundations = {f.hex: f for f in position.foundations}
    netted = netted_hexes(position)
    ground = _ground_words(position)
    for hex_ in hexes:
        x, y = origins[hex_]
        _draw_outline(canvas, x - left, y - top, shape)
    for hex_ in hexes:
        x, y = origins[hex_]
        _draw_inside(canvas, x - left, y - top, shape, hex_, position.unit_at(hex_), foundations.get(hex_),
                     hex_ in netted, seats, ground.get(hex_), plain)
    return canvas.text()


#: Terrain types (B13) as the board writes them, with the style of their word.
TERRAIN_STYLES = {"forest": "green4", "hill": "tan", "water": "steel_blue1", "wasteland": "khaki3", "base": "grey70",
                  "bunker": "grey62", "warehouse": "orange3", "rock": "grey58", "hole": "grey42"}
TERMINAL_STYLE = "bold bright_cyan"


def _ground_words(position: Position) -> dict[Hex, tuple[str, str, str]]:
    """What lies on each hex besides a unit: (word, details, style) of its Babel 13 terrain (``forest``,
    ``thick``) or a Duel board Terminal (``Terminal``). The board writes the word in an empty hex and a short
    form under a unit; the lines under the board list them all (:func:`ground_lines`)."""
    words: dict[Hex, tuple[str, str, str]] = {}
    for element in position.terrain:
        details = ",".join(element.features)
        for hex_ in element.hexes:
            words[hex_] = (element.type, details, TERRAIN_STYLES.get(element.type, "bold"))
    for hex_ in position.terminals:
        words[hex_] = ("Terminal", "", TERMINAL_STYLE)
    return words


def netted_hexes(position: Position) -> frozenset[Hex]:
    """The netted units: not written in a file (NOTATION §4) but what a reader of the board needs to see.
    Only units on the board count; a picture must draw even a position the rules would refuse."""
    try:
        return effects.netted({u.hex: u for u in position.units if u.hex in position.board})
    except RuleNotImplemented:  # a picture is no place to stop on a rule nhex lacks
        return frozenset()


def _draw_outline(canvas: _Canvas, x: int, y: int, shape: _Shape) -> None:
    h, side = shape.slant, shape.side
    canvas.put(x + h, y, "_" * side, OUTLINE)
    for i in range(1, h + 1):
        canvas.put(x + h - i, y + i, "/", OUTLINE)
        canvas.put(x + h + side + i - 1, y + i, "\\", OUTLINE)
    for j in range(1, h + 1):
        canvas.put(x + j - 1, y + h + j, "\\", OUTLINE)
        canvas.put(x + side + 2 * h - j, y + h + j, "/", OUTLINE)
    canvas.put(x + h, y + 2 * h, "_" * side, OUTLINE)


def _draw_inside(canvas: _Canvas, x: int, y: int, shape: _Shape, hex_: Hex, unit: Unit | None,
                 foundation: Unit | None, netted: bool = False, seats: tuple[str, ...] = (),
                 ground: tuple[str, str, str] | None = None, plain: bool = False) -> None:
    h = shape.slant
    rows = {row: _HexRow(shape.interior(row)[1]) for row in range(1, 2 * h)}
    name_row, status_row, top, bottom = h, h + 1, 1, 2 * h - 1
    shown = unit or foundation
    if shown is None:
        rows[name_row].place(hex_.label, f"dim {LABEL}", "centre")
        if ground is not None:  # an empty hex of terrain or a Terminal: its word above the label, details below
            word, details, style = ground
            rows[name_row - 1].place(word, f"bold {style}", "centre")
            if not rows[status_row].place(details, style, "centre"):
                rows[status_row].place(details[:rows[status_row].width], style, "centre")
    else:
        colour = army_colour(shown.army, seats)
        status: list[tuple[str, str]] = []
        if unit is not None:
            name = (army_tag(unit) + ":" if plain else "") + short_name(unit.tile)
            rows[name_row].place(f"~{name}~" if netted else name, f"bold {colour}" + (" reverse" if netted else ""),
                                 "centre")
            marks = _marks(unit)
            rows[top].place(marks[Direction.N], colour, "centre")
            rows[top + 1].place(marks[Direction.NW], colour, "left")
            rows[top + 1].place(marks[Direction.NE], colour, "right")
            rows[bottom].place(marks[Direction.SW], colour, "left")
            rows[bottom].place(marks[Direction.SE], colour, "right")
            rows[bottom].place(marks[Direction.S], colour, "centre")
            if unit.is_hq or not all(e.is_blank for e in unit.tile.edges or ()):  # the Mad Bomber faces nowhere
                status.append((ARROWS[unit.facing] + unit.facing.name, "bold"))
            status += [(word, style) for word, style in _health(unit)]
        else:
            rows[name_row].place((army_tag(shown) + ":" if plain else "") + short_name(shown.tile), f"italic {colour}",
                                 "centre")
        if foundation is not None and unit is not None:
            status.append((short_name(foundation.tile).lower(), f"italic {army_colour(foundation.army, seats)}"))
        if ground is not None:  # the terrain or Terminal under a unit, where the status row has room for it
            status.append((ground[0][:4].lower(), f"bold {ground[2]}"))
        _place_words(rows[status_row], status)
        _place_label(rows[top + 1], rows[top], hex_.label)
    for row, content in rows.items():
        start = shape.interior(row)[0]
        for offset, text, style in content.items:
            canvas.put(x + start + offset, y + row, text, style)


def _place_label(row: _HexRow, above: _HexRow, label: str) -> None:
    """The hex label between the NW and NE marks; a coordinate label sheds its parentheses (``0,-3``) where
    the marks leave no room, and goes up a row as a last resort."""
    for text in dict.fromkeys((label, label.strip("()"))):
        if row.place(text, LABEL, "centre") or above.place(text, LABEL, "left"):
            return


def _health(unit: Unit) -> list[tuple[str, str]]:
    words = []
    if unit.is_hq:
        low = unit.health <= 5
        words.append((f"hp {unit.hp}", "bold red" if low else "bold"))
    if unit.wounds:
        words.append((f"w{unit.wounds}", "bold red"))
    if unit.venom:
        words.append((f"v{unit.venom}", "bold green"))
    if unit.prizes:
        words.append(("$" * len(unit.prizes), "bold yellow"))
    return words


def _place_words(row: _HexRow, words: list[tuple[str, str]]) -> None:
    """Centre the words of the status row, dropping from the end whatever does not fit."""
    while words and sum(len(w) for w, _ in words) + len(words) - 1 > row.width:
        words = words[:-1]
    start = (row.width - (sum(len(w) for w, _ in words) + len(words) - 1)) // 2
    for word, style in words:
        row.items.append((start, word, style))
        start += len(word) + 1


# --- what goes under the board -------------------------------------------------------------------------------


def board_legend(position: Position) -> RenderableType:
    """The key to the marks, naming only what the board shows (a short legend is one that gets read)."""
    edges = [e for u in position.units for e in (u.tile.edges or ())]
    used = {
        "M": any(e.melee and e.melee != e.ranged for e in edges), "R": any(e.ranged and e.melee != e.ranged for e in edges),
        "MR": any(e.melee and e.melee == e.ranged for e in edges), "#": any(e.armor for e in edges),
        "~": any(e.net for e in edges), "+": any(e.link for e in edges),
    }
    entries = [(mark, meaning) for mark, meaning in (("M", "melee"), ("R", "ranged"), ("MR", "melee and ranged"),
                                                      ("#", "armor"), ("~", "net"), ("+", "module link")) if used[mark]]
    specials = {s for e in edges for s in e.special}
    entries += [(mark, _SPECIAL_WORDS[s]) for s, mark in SPECIAL_MARKS.items() if s in specials]
    if netted_hexes(position):
        entries.append(("~Name~", "netted"))
    if position.units:
        entries.append(("↗", "facing"))
    if any(u.is_hq for u in position.units):
        entries.append(("hp", "HQ health"))
    entries += [(mark, meaning) for mark, meaning, shown in (
        ("w", "wounds", any(u.wounds for u in position.units)), ("v", "venom", any(u.venom for u in position.units)),
        ("$", "prize", any(u.prizes for u in position.units))) if shown]
    ground = _ground_words(position)
    under = sorted({ground[u.hex][0] for u in position.units if u.hex in ground})
    entries += [(word[:4].lower(), f"on {'a ' if word == 'Terminal' else ''}{word}") for word in under]
    pieces = [Text.assemble((mark, "bold"), (f" {meaning}", "dim")) for mark, meaning in entries]
    return ForConsole(lambda plain, width: join_entries(pieces, width))


def join_entries(pieces: Sequence[Text], width: int, indent: int = 0, head: Text | None = None) -> Text:
    """``pieces`` joined by " · ", lines broken between entries, never inside one (a legend entry or a key's
    "Blockr blocker" stays whole at 80 columns); continuation lines indented by ``indent`` (after ``head``)."""
    text = head.copy() if head is not None else Text()
    column = len(text.plain)
    for i, piece in enumerate(pieces):
        if i and column + 3 + len(piece.plain) > width:
            text.append("\n" + " " * indent)
            column = indent
        elif i:
            text.append(" · ", style="dim")
            column += 3
        text.append_text(piece)
        column += len(piece.plain)
    return text


_SPECIAL_WORDS = {"gauss": "gauss beam", "shotgun": "shotgun", "rocket": "rocket", "redirect-entrance": "redirect in",
                  "redirect-exit": "redirect out", "trap-trigger": "trap trigger"}


def unit_key(position: Position, seats: tuple[str, ...] = (), *, plain: bool = False, width: int = 80) -> Text:
    """Which tile each short name stands for, by army: ``moloch  HQ hq · Blockr blocker``; ``plain`` (no colour):
    each army with its tag, ``moloch (MOL)``, every army listed even where no name needs a key."""
    by_army: dict[str, list[Tile]] = {}
    tags: dict[str, str] = {}
    for unit in (*position.units, *position.foundations):
        name = "neutral" if unit.is_neutral else unit.army
        tags[name] = army_tag(unit)
        tiles = by_army.setdefault(name, [])
        # A short name that is the whole tile name (HQ, Medic, Brain) needs no key.
        if unit.tile not in tiles and short_name(unit.tile).lower() != unit.tile.name.replace("-", ""):
            tiles.append(unit.tile)
    by_army = {army: tiles for army, tiles in by_army.items() if tiles or plain}
    heads = {army: f"{army} ({tags[army]})" if plain else army for army in by_army}
    text = Text()
    column = max((len(h) for h in heads.values()), default=0) + 2
    for army, tiles in by_army.items():
        if text:
            text.append("\n")
        head = Text(f"{heads[army]:<{column}}" if tiles else heads[army], style=f"bold {army_colour(army, seats)}")
        pieces = [Text.assemble((short_name(tile), army_colour(army, seats)),
                                (f" {tile.key if tile.army != army and army != 'neutral' else tile.name}", "dim"))
                  for tile in tiles]
        text.append_text(join_entries(pieces, width, column, head))
    return text


def _hq_health(position: Position, seats: tuple[str, ...] = ()) -> Text:
    text = Text()
    for unit in position.units:
        if unit.is_hq:
            if text:
                text.append("   ")
            text.append(f"{unit.army} HQ ", style=army_colour(unit.army, seats))
            text.append(str(unit.hp), style="bold red" if unit.health <= 5 else "bold")
    return text


def _tiles_line(label: str, army: str, tiles: Iterable[Tile], seats: tuple[str, ...] = ()) -> Text:
    text = Text(f"{label} ", style="bold")
    for i, tile in enumerate(tiles):
        if i:
            text.append(" · ", style="dim")
        text.append(tile.key if tile.army != army else tile.name, style=army_colour(tile.army, seats))
    return text


def result_text(winners: tuple[str, ...], seats: tuple[str, ...] = ()) -> Text:
    """How a finished game ended: ``game over: moloch wins``, ``game over: borgo and moloch win`` (a team, or a
    shared victory), ``game over: a draw``."""
    text = Text("game over: ", style="bold")
    if not winners:
        return text.append("a draw", style="bold")
    for i, army in enumerate(winners):
        if i:
            text.append(" and " if i == len(winners) - 1 else ", ")
        text.append(army, style=f"bold {army_colour(army, seats)}")
    return text.append(" wins" if len(winners) == 1 else " win", style="bold")


def _position_facts(position: Position, *, to_move: bool = True, seats: tuple[str, ...] = (),
                    winners: tuple[str, ...] | None = None) -> list[RenderableType]:
    """The lines about a position that the board does not show: whose move (or who won, once the game is over:
    ``winners``), hands, decks, rule options."""
    lines: list[RenderableType] = []
    if winners is not None:
        lines.append(result_text(winners, seats))
    elif to_move and position.to_move:
        lines.append(Text.assemble(("to move ", "bold"),
                                   (position.to_move, f"bold {army_colour(position.to_move, seats)}")))
    for army, tiles in position.hands:
        lines.append(_tiles_line(f"hand of {army}", army, tiles, seats) if tiles else Text(f"hand of {army} (empty)"))
    for army, count in position.decks:
        lines.append(Text.assemble(("deck ", "bold"), (army, army_colour(army, seats)),
                                   f" {count} tile{'s' * (count != 1)}"))
    lines += ground_lines(position, seats)
    if not position.rules.is_default:
        lines.append(Text(str(position.rules), style="bold"))
    if position.board.shape != "standard":
        size = len(position.board)
        lines.append(Text(f"board {position.board.shape} ({size} hex{'es' * (size != 1)})", style="dim"))
    return lines


def ground_lines(position: Position, seats: tuple[str, ...] = ()) -> list[RenderableType]:
    """Babel 13 terrain, Prize markers held and the Duel board in words, under the board: each terrain element with
    its features and hexes, each army's held markers, the Terminals and each army's Energy (NOTATION §10.2-10.3),
    lines broken between entries."""
    lines: list[RenderableType] = []
    if position.terrain:
        pieces = []
        for element in position.terrain:
            piece = Text(" ".join(h.label for h in element.hexes) + " ")
            piece.append(element.type, style=f"bold {TERRAIN_STYLES.get(element.type, '')}".strip())
            if element.features:
                piece.append(f" ({', '.join(element.features)})")
            details = [f"strength {element.strength}"] if element.strength is not None else []
            details += [f"{element.wounds} wounds"] if element.wounds else []
            details += list(element.prizes)
            if details:
                piece.append(f" [{', '.join(details)}]")
            pieces.append(piece)
        head = Text("terrain ", style="bold")
        lines.append(ForConsole(lambda plain, width: join_entries(pieces, width, len("terrain "), head)))
    for army, prizes in position.held_prizes:  # B13 PRIZE MARKERS: held, to be put on a unit
        lines.append(Text.assemble(("prizes held by ", "bold"), (army, f"bold {army_colour(army, seats)}"),
                                   f": {', '.join(prizes)}"))
    if position.terminals or position.energy:
        text = Text("Duel board ", style="bold")
        text.append("Terminals ", style=TERMINAL_STYLE)
        text.append(" ".join(h.label for h in position.terminals) or "none")
        text.append(" · Energy ", style="dim")
        for i, (army, count) in enumerate(position.energy):
            if i:
                text.append(", ")
            text.append(army, style=army_colour(army, seats))
            text.append(f" {count}")
        if not position.energy:
            text.append("none")
        lines.append(text)
    return lines


def render_position(position: Position, *, to_move: bool = True, players: tuple[str, ...] = (),
                    also: tuple[str, ...] = (), winners: tuple[str, ...] | None = None) -> Group:
    """The board, its legend and key, HQ health and the facts of the position (``players``: a game record's seats,
    ``also``: a card's player, by which a mirror match's players are marked, solver/mirror.py; ``winners``: a
    finished game's, said instead of whose move it is)."""
    seats = seats_of(position, players, also)
    parts: list[RenderableType] = []
    health = _hq_health(position, seats)
    if health:
        parts.append(health)
    parts.append(ForConsole(lambda plain, width: render_board(position, seats=seats, plain=plain)))
    if position.units or position.foundations:
        parts.append(board_legend(position))
        parts.append(ForConsole(lambda plain, width: unit_key(position, seats, plain=plain, width=width)))
    parts += _position_facts(position, to_move=to_move, seats=seats, winners=winners)
    return Group(*parts)


# --- puzzle cards and game records ---------------------------------------------------------------------------

def _goal_text(puzzle: Puzzle) -> Text:
    """The goal as written, then in words (solver/render/words.py)."""
    return Text.assemble((str(puzzle.goal), "bold"), (f"  {puzzle_goal_words(puzzle)}", "dim"))


def tile_table(tiles: Iterable[Tile], *, title: str | None = None, counts: bool = False) -> Table:
    """A compact table of tiles: name, kind, initiative, toughness, edges, module effect and abilities."""
    table = Table(title=title, title_justify="left", show_edge=False, pad_edge=False, box=None, padding=(0, 1))
    table.add_column("tile", style="bold", no_wrap=True)
    table.add_column("kind")
    if counts:
        table.add_column("count", justify="right")
    table.add_column("init", justify="right")
    table.add_column("tough", justify="right")
    table.add_column("edges (N = front)")
    table.add_column("module / abilities")
    for tile in tiles:
        extra = "; ".join(x for x in (module_text(tile), ", ".join(sorted(tile.abilities))) if x)
        row: list[RenderableType] = [Text(tile.name, style=f"bold {army_colour(tile.army)}"), str(tile.kind)]
        if counts:
            row.append(str(tile.count))
        row += [initiative_text(tile), str(tile.toughness) if tile.is_unit else "", edges_text(tile), extra]
        table.add_row(*row)
    return table


def render_puzzle(puzzle: Puzzle) -> Group:
    colour = army_colour(puzzle.player, seats_of(puzzle.position, also=(puzzle.player,)))
    head = Text()
    head.append("level ", style="dim")
    head.append(str(puzzle.level) if puzzle.level is not None else "?", style="bold")
    head.append("   player ", style="dim")
    head.append(puzzle.player, style=f"bold {colour}")
    head.append("   play ", style="dim")
    head.append(f"{puzzle.tiles_to_play} of {len(puzzle.offer)}", style="bold")
    head.append("   then ", style="dim")
    head.append(puzzle.then.replace("-", " "), style="bold")
    lines: list[RenderableType] = [head, Text.assemble(("goal ", "dim"), _goal_text(puzzle))]
    if puzzle.story:
        lines.append(Text(puzzle.story, style="italic"))
    lines.append(tile_table(puzzle.offer, title="offer"))
    if puzzle.solution is not None:
        lines.append(Text("a solution is recorded on the card (`nhex fmt` prints it)", style="dim"))
    title = (f"Puzzle {puzzle.number} · " if puzzle.number is not None else "Puzzle · ") + puzzle.title
    card = Panel(Group(*lines), title=Text(title, style="bold"), title_align="left", border_style=colour,
                 expand=False)
    to_move = puzzle.position.to_move not in (None, puzzle.player)
    return Group(card, render_position(puzzle.position, to_move=to_move, also=(puzzle.player,)))


def _turn_text(entry: Turn | Expectation, seats: tuple[str, ...] = ()) -> Text:
    if not isinstance(entry, (Turn, ExpectHp)):  # the v1.1 expectations (NOTATION §10.7) as written
        return Text.assemble(("    ", "dim"), (str(entry), "dim"))
    colour = army_colour(entry.army, seats)
    if isinstance(entry, ExpectHp):
        return Text.assemble(("    expect ", "dim"), (f"{entry.army} HQ {entry.hp}", colour))
    text = Text.assemble((f"{entry.number:>3}. ", "bold"), (entry.army, f"bold {colour}"), ": ")
    for i, action in enumerate(entry.actions):
        if i:
            text.append("; ", style="dim")
        text.append(str(action).replace(f"{entry.army}:", ""))
    return text


def render_game(game: GameRecord) -> Group:
    seats = seats_of(game.position, game.players)
    players = Text("players ", style="dim")
    for i, army in enumerate(game.players):
        if i:
            players.append(" · ", style="dim")
        players.append(army, style=f"bold {army_colour(army, seats)}")
    parts: list[RenderableType] = [Panel(players, title=Text("Game record", style="bold"), title_align="left",
                                         expand=False)]
    if game.position.units or game.position.foundations or game.position.board.shape != "standard":
        parts.append(render_position(game.position, to_move=game.position.to_move != game.players[0],
                                     players=game.players))
    turns = [_turn_text(e, seats) for e in game.entries]
    parts.append(Group(*turns) if turns else Text("(no turns yet)", style="dim"))
    return Group(*parts)


def render_document(document: Position | Puzzle | GameRecord) -> RenderableType:
    """The picture of any document the notation reads."""
    if isinstance(document, Puzzle):
        return render_puzzle(document)
    if isinstance(document, GameRecord):
        return render_game(document)
    return render_position(document)


# --- the army database ---------------------------------------------------------------------------------------


def render_tiles(army: Army) -> Table:
    """Every tile of one army: name (with its board name and aliases), kind and count, initiative, toughness,
    edges, module effect and abilities. No vertical rules, so it stays readable in 80 columns."""
    colour = army_colour(army.name)
    table = Table(title=Text(f"{army.title} ({army.name}) · {army.size} tiles", style=f"bold {colour}"),
                  title_justify="left", header_style="bold", box=box.SIMPLE_HEAD, pad_edge=False, expand=False)
    # The names a user types (tile names, aliases) are never cut: their column is as wide as the longest, one name
    # a line; the descriptions wrap, and a long word in them folds (issue 26: "doom-net-fight…" at 80 columns).
    typed = max((len(n) for t in army.tiles for n in (t.name, *t.aliases)), default=4)
    table.add_column("tile", no_wrap=True, min_width=typed)
    table.add_column("kind", no_wrap=True)
    table.add_column("edges (N = front)", ratio=3, overflow="fold")
    table.add_column("module · abilities", ratio=2, overflow="fold")
    for tile in army.tiles:
        name = Text(tile.name, style=f"bold {colour}")
        if tile.is_unit or tile.kind is Kind.FOUNDATION:
            name.append(f"\n{short_name(tile)}", style=colour)
        for alias in tile.aliases:
            name.append(f"\n{alias}", style="dim")
        # kind and count, then initiative and toughness, a line each: the descriptions keep the room
        kind = Text(f"{tile.kind} ×{tile.count}")
        if tile.initiative:
            kind.append(f"\ninit {initiative_text(tile)}", style="dim")
        if tile.is_unit:
            kind.append(f"\ntough {tile.toughness}", style="dim")
        extra = " · ".join(x for x in (module_text(tile), ", ".join(sorted(tile.abilities))) if x)
        table.add_row(name, kind, edges_text(tile).replace(" · ", "\n"), extra.replace(" · ", "\n"))
    return table


def indented(words: str, style: str = "", indent: int = 4) -> ForConsole:
    """A paragraph wrapped to the console's width, ``indent`` columns in (no trailing blanks on a pipe)."""
    import textwrap

    return ForConsole(lambda plain, width: Text("\n".join(textwrap.wrap(
        words, width=max(20, width - indent), initial_indent=" " * indent, subsequent_indent=" " * indent,
        break_long_words=False, break_on_hyphens=False)), style=style))


# --- the rule options ------------------------------------------------------------------------------------------


def render_rules(options: Iterable[RuleOption], editions: Sequence[str]) -> Group:
    """``nhex rules``: one block per option, its name never cut whatever the width: the name, its choices and its
    default under each edition (with the book it comes from) on the first line, then its reading and its passage,
    indented and wrapped to the console."""
    blocks: list[RenderableType] = []
    for option in options:
        head = Text(option.name, style="bold")
        head.append("  " + " | ".join(option.choices))
        head.append("   default ", style="dim")
        defaults = {e: f"{option.default_for(e)} ({option.default_source(e)})" for e in editions}
        if len(set(defaults.values())) == 1:  # the same in every edition
            head.append(next(iter(defaults.values())))
        else:
            head.append(" · ".join(f"{e}: {value}" for e, value in defaults.items()))
        blocks.append(head)
        blocks.append(indented(option.summary))
        blocks.append(indented(option.passage, "dim"))
        blocks.append(Text())
    return Group(Text("Rule options (set them with `rules 3.0 NAME=VALUE`)", style="bold underline"), Text(), *blocks)
