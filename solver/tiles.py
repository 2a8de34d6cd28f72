"""Tiles and the army database.

A :class:`Tile` is what is printed on a piece of cardboard: its kind, how many copies the army has, its
initiatives, toughness, the icons on its six edges and its ability. The facts live in one readable data file
per army (``solver/armies/*.army``, grammar ``grammar/army.lark``); this module only reads them.

Edges are numbered clockwise from the printed top (edge 0 = front). An icon on edge ``e`` of a tile facing
``f`` acts towards direction ``(f + e) mod 6`` (NOTATION §3).
"""

from __future__ import annotations

import dataclasses
import re
from dataclasses import dataclass, field
from enum import StrEnum
from functools import cache, cached_property, lru_cache
from typing import TYPE_CHECKING

from .errors import NotationError
from .hexes import Direction
from .resources import army_files, lark_parser, subtree, terminals, unquote

if TYPE_CHECKING:  # Lark is imported only when an army file is read, not when the database comes from the cache
    from lark import Lark, Token, Tree
    from lark.exceptions import UnexpectedInput


class Kind(StrEnum):
    HQ = "hq"
    WARRIOR = "warrior"
    MODULE = "module"
    INSTANT = "instant"
    FOUNDATION = "foundation"


#: Icons an edge may carry besides strengths, armor, net and link.
EDGE_SPECIALS = frozenset({"gauss", "shotgun", "rocket", "redirect-entrance", "redirect-exit", "trap-trigger"})

#: What a module (or an HQ acting as one) does to the units it is linked to.
MODULE_EFFECTS = frozenset({
    "melee-bonus", "ranged-bonus", "initiative-bonus", "melee-and-ranged-bonus", "melee-and-initiative-bonus",
    "strength-and-initiative-bonus",
    "medic", "extra-initiative", "toughness-bonus", "melee-counts-as-ranged", "grant-mobility",
    "grant-move-and-rotate", "control-takeover", "take-over-enemy-modules", "double-move", "matrix",
})

ABILITIES = frozenset({
    "mobility", "gauss", "explosion", "venom", "sharpshooter", "spy", "shotgun", "rocket", "push", "transport",
    "regenerate", "redirect", "trap", "rotate-one-unit-per-turn",
})

#: Army names in their canonical spelling (NOTATION §3), in the order the rulebooks introduce them.
ARMY_NAMES = ("moloch", "outpost", "borgo", "hegemony", "smart", "vegas", "new-york", "neojungle", "doomsday")
#: Armies the notation names but for which no tile facts exist yet (tiles README, "Open doubts" 1).
ARMIES_WITHOUT_DATA: tuple[str, ...] = ()
#: The pool of hired tiles (NOTATION §3, §10.4): not an army of its own, no HQ, never in :func:`armies`. Its
#: only tile with data is the Mad Bomber; without ``owner=`` he is neutral (a unit of no army).
NEUTRAL_ARMY = "mercenary"


class MissingTileData(ValueError):
    """A tile the notation may name but whose facts nhex lacks (the Mercenaries): the reader turns it into
    :class:`~solver.errors.RuleNotImplemented` (exit 4), not a notation error."""


@dataclass(frozen=True, slots=True)
class Edge:
    """The icons on one edge of a tile."""

    melee: int = 0
    ranged: int = 0
    armor: bool = False
    net: bool = False
    link: bool = False
    special: frozenset[str] = frozenset()

    @property
    def is_blank(self) -> bool:
        """Equal to :data:`BLANK_EDGE`: every field at its default (zero, False, empty), read field by field
        rather than by the dataclass's ``==``, which builds two tuples (the search's keys ask it per edge)."""
        return not (self.melee or self.ranged or self.armor or self.net or self.link or self.special)


BLANK_EDGE = Edge()


@dataclass(frozen=True, slots=True)
class ModuleEffect:
    """A module's (or HQ's) effect on linked units: ``type`` from :data:`MODULE_EFFECTS`."""

    type: str
    value: int | None
    target: str  # "friendly" or "enemy"
    reach: int | None

    def __str__(self) -> str:
        text = self.type
        if self.value is not None:
            text += f" {self.value:+d}"
        text += f" {self.target}"
        if self.reach is not None:
            text += f" reach {self.reach}"
        return text


@dataclass(frozen=True, eq=False)
class Tile:
    """One tile of an army's database. Equal tiles have the same ``army:name`` key."""

    army: str
    name: str
    title: str
    kind: Kind
    count: int
    initiative: tuple[int, ...] = ()
    toughness: int = 0
    edges: tuple[Edge, ...] | None = None
    module: ModuleEffect | None = None
    abilities: frozenset[str] = frozenset()
    aliases: tuple[str, ...] = ()
    polish: str | None = None
    #: The name a card's picture prints where the title would not fit at a readable size ("Heavy MG").
    short: str | None = None
    rule: str | None = None
    confidence: str | None = None
    note: str | None = None
    key: str = field(init=False)

    def __post_init__(self) -> None:
        object.__setattr__(self, "key", f"{self.army}:{self.name}")

    def __eq__(self, other: object) -> bool:
        return isinstance(other, Tile) and other.key == self.key

    def __hash__(self) -> int:
        return hash(self.key)

    def __str__(self) -> str:
        return self.key

    def __repr__(self) -> str:
        return f"tile({self.key!r})"

    def __reduce__(self) -> tuple[object, tuple[str]]:
        # Tiles are database singletons; another process finds the same tile by its key.
        return (tile, (self.key,))

    @property
    def is_unit(self) -> bool:
        """Units are the tiles that stand on the board: HQs, warriors and modules."""
        return self.kind in (Kind.HQ, Kind.WARRIOR, Kind.MODULE)

    @property
    def is_hq(self) -> bool:
        return self.kind is Kind.HQ

    @property
    def mobility(self) -> bool:
        return "mobility" in self.abilities

    @property
    def health(self) -> int:
        """Wounds it takes to destroy the unit: toughness + 1; an HQ starts with 20 health instead."""
        return 20 if self.kind is Kind.HQ else self.toughness + 1

    def edge(self, number: int) -> Edge:
        return self.edges[number % 6] if self.edges else BLANK_EDGE

    def edge_towards(self, facing: Direction, direction: Direction) -> Edge:
        """The icons that act towards absolute ``direction`` when the tile faces ``facing``."""
        return self.edge(direction - facing)

    def oriented(self, facing: Direction) -> Oriented:
        """The tile's icons by absolute direction when it faces ``facing`` (computed once per facing)."""
        return self._oriented[facing]

    @cached_property
    def _oriented(self) -> tuple[Oriented, ...]:
        return tuple(Oriented.of(self, facing) for facing in Direction)


@dataclass(frozen=True, slots=True)
class Oriented:
    """A tile's icons turned to a facing: ``edges[d]`` acts towards absolute direction ``d``."""

    edges: tuple[Edge, ...]
    nets: tuple[Direction, ...]
    links: tuple[Direction, ...]
    #: The directions with an attack icon (melee, ranged or a special such as a Gauss beam).
    attacks: tuple[Direction, ...]
    #: The battle's table of the same: ``(direction, melee, ranged, has a special icon)`` per attack direction, so
    #: the loop reads plain integers instead of Edge values (issue 15).
    strikes: tuple[tuple[Direction, int, int, bool], ...] = ()
    #: Armor as a bitmask of the directions a shot travels in when it meets an armored edge (bit ``d`` is set when
    #: the edge facing ``(d + 3) mod 6`` has armor): ``shielded >> d & 1``.
    shielded: int = 0
    #: For a tile whose every attack is a plain melee one (HQs, most warriors): ``(direction, melee)`` per attack
    #: direction, the same order as ``strikes``, so the loop skips the ranged and special tests; None otherwise.
    melee_only: tuple[tuple[Direction, int], ...] | None = None

    @classmethod
    def of(cls, tile: Tile, facing: Direction) -> Oriented:
        edges = tuple(tile.edge(d - facing) for d in Direction)
        attacks = tuple(d for d in Direction if edges[d].melee or edges[d].ranged or edges[d].special)
        strikes = tuple((d, edges[d].melee, edges[d].ranged, bool(edges[d].special)) for d in attacks)
        melee_only = (tuple((d, melee) for d, melee, _, _ in strikes)
                      if all(melee and not ranged and not special for _, melee, ranged, special in strikes) else None)
        return cls(edges, tuple(d for d in Direction if edges[d].net), tuple(d for d in Direction if edges[d].link),
                   attacks, strikes, sum(1 << d for d in Direction if edges[(d + 3) % 6].armor), melee_only)


@dataclass(frozen=True)
class Army:
    name: str
    title: str
    polish: str | None
    aliases: tuple[str, ...]
    tiles: tuple[Tile, ...]
    source: str

    @property
    def size(self) -> int:
        return sum(t.count for t in self.tiles)

    @property
    def hq(self) -> Tile:
        return next(t for t in self.tiles if t.kind is Kind.HQ)


@lru_cache(maxsize=4096)  # a position names the same few armies and tiles again and again (issue 15, reading)
def normal_name(text: str) -> str:
    """Fold a name for lookup: case, ``_``/``-``/spaces and diacritics do not matter (NOTATION §1)."""
    if not text.isascii():  # an ASCII name has no diacritics to drop, and a start need not import unicodedata
        import unicodedata

        text = unicodedata.normalize("NFKD", text.replace("ł", "l").replace("Ł", "L"))
        text = "".join(c for c in text if not unicodedata.combining(c))
    text = text.lower()
    return re.sub(r"[^a-z0-9]+", "-", text).strip("-")


# --- reading the army files -------------------------------------------------------------------------------


@cache
def _army_parser() -> Lark:
    return lark_parser("army.lark", propagate_positions=True)


def parse_army(text: str, source: str = "<army>") -> Army:
    """Read one army file; errors are :class:`NotationError` located in ``source``."""
    from lark.exceptions import UnexpectedInput

    try:
        tree = _army_parser().parse(text)
    except UnexpectedInput as error:
        raise NotationError(f"syntax error: unexpected {_shown(error, text)}", error.line, error.column, source) from None
    return _ArmyReader(source).read(tree)


def _shown(error: UnexpectedInput, text: str) -> str:
    token = getattr(error, "token", None)
    if token is not None and str(token) and token.type != "$END":
        return repr(str(token))
    if token is not None and token.type == "$END":
        return "end of file"
    # Lark declares `pos_in_stream = None` on UnexpectedInput, so mypy takes it for None; its subclasses set the
    # offset (an int) in the text.
    offset: int = error.pos_in_stream  # type: ignore[assignment]
    char = text[offset] if 0 <= offset < len(text) else ""
    return repr(char) if char else "end of file"


class _ArmyReader:
    def __init__(self, source: str) -> None:
        self.source = source
        self.army: dict | None = None
        self.tiles: list[dict] = []

    def fail(self, message: str, node: Tree[Token] | Token) -> NotationError:
        if isinstance(node, str):  # a token made by hand has no place: 0, as in the notation reader
            return NotationError(message, node.line or 0, node.column or 0, self.source)
        return NotationError(message, node.meta.line, node.meta.column, self.source)

    def current(self, node: Tree[Token]) -> dict:
        if not self.tiles:
            raise self.fail(f"{node.data!s} before any tile", node)
        return self.tiles[-1]

    def read(self, tree: Tree[Token]) -> Army:
        for child in tree.children:
            stmt = subtree(child)
            getattr(self, f"stmt_{stmt.data}")(stmt, *stmt.children)
        if self.army is None:
            raise NotationError("an army file starts with an `army` line", 1, 1, self.source)
        name = self.army["name"]
        tiles = tuple(self.build(t, name) for t in self.tiles)
        seen: dict[str, str] = {}
        for t in tiles:
            for alias in (t.name, *t.aliases):
                if seen.get(alias, t.name) != t.name:
                    raise NotationError(f"name {alias!r} is used by both {seen[alias]} and {t.name}", 1, 1, self.source)
                seen[alias] = t.name
        # The mercenary pool is hired by armies and has no HQ (NOTATION §10.4); every army has exactly one.
        if sum(1 for t in tiles if t.kind is Kind.HQ) != (0 if name == NEUTRAL_ARMY else 1):
            raise NotationError(f"army {name} must have exactly one HQ tile", 1, 1, self.source)
        return Army(name, self.army["title"], self.army.get("polish"), tuple(self.army.get("aliases", ())), tiles,
                    self.source)

    def build(self, t: dict, army: str) -> Tile:
        node = t.pop("_node")
        if "kind" not in t or "count" not in t:
            raise self.fail(f"tile {t['name']} needs a `kind` and a `count` line", node)
        edges = t.pop("edges")
        kind = t["kind"]
        if kind in (Kind.INSTANT, Kind.FOUNDATION):
            if any(not e.is_blank for e in edges):
                raise self.fail(f"tile {t['name']}: a {kind} tile has no edges", node)
            edges_value = None
        else:
            edges_value = tuple(edges)
        return Tile(army=army, edges=edges_value, **t)

    # statements -------------------------------------------------------------------------------------------
    def stmt_army(self, node: Tree[Token], name: Token, title: Token, polish: Token | None = None) -> None:
        if self.army is not None:
            raise self.fail("a second `army` line", node)
        self.army = {"name": normal_name(name), "title": unquote(title)}
        if polish is not None:
            self.army["polish"] = unquote(polish)

    def stmt_army_alias(self, node: Tree[Token], *names: Token) -> None:
        if self.army is None or self.tiles:
            raise self.fail("army aliases go right after the `army` line", node)
        self.army.setdefault("aliases", []).extend(normal_name(unquote(n)) for n in names)

    def stmt_tile(self, node: Tree[Token], name: Token, title: Token) -> None:
        if self.army is None:
            raise self.fail("a tile before the `army` line", node)
        self.tiles.append({"name": normal_name(name), "title": unquote(title), "edges": [BLANK_EDGE] * 6,
                           "_node": node})

    def stmt_pl(self, node: Tree[Token], text: Token) -> None:
        self.current(node)["polish"] = unquote(text)

    def stmt_short(self, node: Tree[Token], text: Token) -> None:
        self.current(node)["short"] = unquote(text)

    def stmt_alias(self, node: Tree[Token], *names: Token) -> None:
        self.current(node)["aliases"] = tuple(normal_name(n) for n in names)

    def stmt_kind(self, node: Tree[Token], kind: Token) -> None:
        try:
            self.current(node)["kind"] = Kind(kind.lower())
        except ValueError:
            raise self.fail(f"unknown kind {str(kind)!r} (expected one of {', '.join(Kind)})", kind) from None

    def stmt_count(self, node: Tree[Token], count: Token) -> None:
        self.current(node)["count"] = int(count)

    def stmt_initiative(self, node: Tree[Token], *values: Token) -> None:
        self.current(node)["initiative"] = tuple(sorted((int(v) for v in values), reverse=True))

    def stmt_toughness(self, node: Tree[Token], value: Token) -> None:
        self.current(node)["toughness"] = int(value)

    def stmt_edge(self, node: Tree[Token], *children: Tree[Token] | Token) -> None:
        tile_ = self.current(node)
        directions = [Direction.parse(c) for c in children if isinstance(c, str)]
        fields: dict = {"special": set()}
        for icon in (c for c in children if not isinstance(c, str)):
            icon_tokens = terminals(icon)
            name = normal_name(icon_tokens[0])
            strength = int(icon_tokens[1]) if len(icon_tokens) > 1 else None
            if name not in ("melee", "ranged", "armor", "net", "link") and name not in EDGE_SPECIALS:
                raise self.fail(f"unknown edge icon {name!r}", icon_tokens[0])
            if name in ("melee", "ranged"):
                if strength is None:
                    raise self.fail(f"{name} needs a strength", icon_tokens[0])
                fields[name] = strength
            elif strength is not None:
                raise self.fail(f"{name} takes no strength", icon_tokens[1])
            elif name in ("armor", "net", "link"):
                fields[name] = True
            elif name in EDGE_SPECIALS:
                fields["special"].add(name)
            else:
                raise self.fail(f"unknown edge icon {name!r}", icon_tokens[0])
        fields["special"] = frozenset(fields["special"])
        for d in directions:
            if not tile_["edges"][d].is_blank:
                raise self.fail(f"edge {d} of {tile_['name']} is described twice", node)
            tile_["edges"][d] = Edge(**fields)

    def stmt_module(self, node: Tree[Token], *children: Token) -> None:
        parts = list(children)
        type_ = normal_name(parts.pop(0))
        if type_ not in MODULE_EFFECTS:
            raise self.fail(f"unknown module effect {type_!r}", children[0])
        value = int(parts.pop(0)) if parts and parts[0].type == "SIGNED" else None
        target = normal_name(parts.pop(0))
        if target not in ("friendly", "enemy"):
            raise self.fail(f"module target must be friendly or enemy, not {target!r}", children[-1])
        reach = int(parts.pop(0)) if parts else None
        self.current(node)["module"] = ModuleEffect(type_, value, target, reach)

    def stmt_ability(self, node: Tree[Token], *names: Token) -> None:
        abilities = {normal_name(n) for n in names}
        unknown = abilities - ABILITIES
        if unknown:
            raise self.fail(f"unknown ability {sorted(unknown)[0]!r}", node)
        self.current(node)["abilities"] = frozenset(abilities)

    def stmt_rule(self, node: Tree[Token], text: Token) -> None:
        self.current(node)["rule"] = unquote(text)

    def stmt_confidence(self, node: Tree[Token], level: Token) -> None:
        self.current(node)["confidence"] = str(level).lower()

    def stmt_note(self, node: Tree[Token], text: Token) -> None:
        self.current(node)["note"] = unquote(text)


# --- the database -------------------------------------------------------------------------------------------


@cache
def _all_armies() -> dict[str, Army]:
    """Every army file read, the mercenaries' pool too. Reading the files takes about 0.1 s, so what they say is
    kept in the user's cache under a hash of their text (solver/cache.py) and only rebuilt when a file changes."""
    from . import cache

    files = army_files()
    data = cache.remembered("armies", tuple(f"{name}\0{text}" for name, text in files), lambda: _army_data(files))
    loaded = {}
    for fields, tiles in data:
        army_ = Army(**fields, tiles=tuple(Tile(**t) for t in tiles))
        loaded[army_.name] = army_
    return loaded


def _army_data(files: list[tuple[str, str]]) -> list[tuple[dict, list[dict]]]:
    """The army files read into plain values (a Tile pickles as a database lookup, so its fields are kept)."""
    data = []
    # Equal edges are kept as one value, which the cache then stores (and a start reads back) once, not ~1,000 times.
    shared: dict[Edge, Edge] = {}
    for file_name, text in files:
        army_ = parse_army(text, f"solver/armies/{file_name}")
        fields = {f.name: getattr(army_, f.name) for f in dataclasses.fields(Army) if f.name != "tiles"}
        tiles = [{f.name: getattr(t, f.name) for f in dataclasses.fields(Tile) if f.init} for t in army_.tiles]
        for entry in tiles:
            if entry["edges"] is not None:
                entry["edges"] = tuple(shared.setdefault(edge, edge) for edge in entry["edges"])
        data.append((fields, tiles))
    return data


@cache
def armies() -> dict[str, Army]:
    """Every army of the database by canonical name (loaded once; the database is immutable)."""
    loaded = _all_armies()
    return {name: loaded[name] for name in ARMY_NAMES if name in loaded}


def mercenaries() -> Army:
    """The pool of hired tiles (only the Mad Bomber has data): :data:`NEUTRAL_ARMY`."""
    return _all_armies()[NEUTRAL_ARMY]


def _known_armies() -> list[Army]:
    return [*armies().values(), mercenaries()]


@cache
def _army_index() -> dict[str, str]:
    index = {}
    for army in _known_armies():
        index[army.name] = army.name
        for alias in army.aliases:
            index[alias] = army.name
    return index


@cache
def _tile_index() -> dict[tuple[str, str], Tile]:
    index = {}
    for army in _known_armies():
        for t in army.tiles:
            for alias in (*t.aliases, t.name):
                index[army.name, alias] = t
    return index


#: Separates an army from a player's label (``moloch/b``): two players of one army (a mirror match, README
#: notation extensions) are two labelled armies, each with its own pile of the army's tiles.
LABEL_SEPARATOR = "/"


#: A tile's key as traces and messages write it, ``army:tile``, or a labelled player's ``army/label:tile`` (a regular
#: expression: the words of a card (solver/search/idea.py, solver/search/generate.py) and the exit-4 message (solver/cli.py) find
#: the tiles they name by it).
KEY_PATTERN = r"[a-z][a-z0-9-]*(?:/[a-z0-9-]+)?:[a-z0-9][a-z0-9-]*"


def base_army(name: str) -> str:
    """The army of the database a (canonical) army name plays: ``moloch/b`` plays ``moloch``."""
    return name.partition(LABEL_SEPARATOR)[0]


def is_labelled(name: str) -> bool:
    return LABEL_SEPARATOR in name


def army_name(text: str) -> str:
    """The canonical name of an army, or of a labelled army ``ARMY/LABEL`` (a mirror match's player: its army's
    name, ``/``, its label folded like a name); ``ValueError`` for an unknown one."""
    if LABEL_SEPARATOR in text:
        army_text, _, label_text = text.partition(LABEL_SEPARATOR)
        label = normal_name(label_text)
        if not label or LABEL_SEPARATOR in label_text:
            raise ValueError(f"a player's label follows its army and one `/`, as in moloch/b, not {text!r}")
        base = army_name(army_text)
        if base == NEUTRAL_ARMY:
            raise ValueError(f"{NEUTRAL_ARMY} is not an army a player commands, so it takes no label")
        return f"{base}{LABEL_SEPARATOR}{label}"
    name = normal_name(text)
    found = _army_index().get(name)
    if found is None:
        if name in ARMIES_WITHOUT_DATA:
            raise ValueError(f"army {text!r} has no tile data yet (see the README's coverage table)")
        from .spelling import did_you_mean

        raise ValueError(f"unknown army {text!r} (expected one of {', '.join(ARMY_NAMES)})"
                         + did_you_mean(name, _army_index()))  # an alias matched suggests the army's name
    return found


def army(text: str) -> Army:
    name = army_name(text)
    return _labelled_army(name) if is_labelled(name) else _all_armies()[name]


@cache
def _labelled_army(name: str) -> Army:
    """A labelled army: its army's tiles under the labelled name, so that every rule that compares a tile's army
    with a player's (whose hand, whose unit, whose instant) tells the two players of a mirror match apart."""
    base = _all_armies()[base_army(name)]
    label = name.partition(LABEL_SEPARATOR)[2]
    return dataclasses.replace(base, name=name, title=f"{base.title} ({label})", aliases=(),
                               tiles=tuple(_labelled_tile(t, name) for t in base.tiles))


@cache  # one tile object per labelled key, like the database's (a game names a handful of labels)
def _labelled_tile(found: Tile, name: str) -> Tile:
    return dataclasses.replace(found, army=name)


@lru_cache(maxsize=4096)  # only found tiles are remembered: an unknown name raises again each time
def tile(key: str, default_army: str | None = None) -> Tile:
    """Look a tile up by ``army:name`` (or bare ``name`` with ``default_army``), aliases accepted."""
    if ":" in key:
        army_text, name = key.split(":", 1)
    elif default_army is not None:
        army_text, name = default_army, key
    else:
        raise ValueError(f"tile {key!r} needs its army, as in moloch:{key}")
    canonical = army_name(army_text)
    if is_labelled(canonical):
        return _labelled_tile(tile(f"{base_army(canonical)}:{name}"), canonical)
    found = _tile_index().get((canonical, normal_name(name)))
    if found is None:
        if canonical == NEUTRAL_ARMY:
            raise MissingTileData(f"the mercenary tile {normal_name(name)!r}: nhex has no data for the Mercenaries "
                                  "from Alabama (only the Mad Bomber; tiles README, Open doubts 1)")
        if normal_name(name).split("-")[0] == STRUCTURE:
            raise MissingTileData(f"the Structure tile {canonical}:{normal_name(name)}: 3E GAME VARIANTS, STRUCTURES "
                                  "gives the rules ('8 double-sided tiles (2 for each army)') but no source gives "
                                  "the tiles' names or icons; nhex has no data for them")
        from .spelling import did_you_mean

        raise ValueError(f"army {canonical} has no tile {name!r}"
                         + did_you_mean(normal_name(name), {alias: t.name for (owner, alias), t in _tile_index().items()
                                                            if owner == canonical}))
    return found


#: 3E GAME VARIANTS, STRUCTURES: two-hex warriors with no data in our sources. A unit or hand naming
#: ``ARMY:structure`` (or ``structure-…``) is refused by name (exit 4), not read as an unknown tile.
STRUCTURE = "structure"
