"""Units and positions: the plain, immutable values everything else works on.

Building a position is not validating it: a :class:`Position` may hold anything the notation can say, and
:meth:`Position.problems` names what is wrong with it. ``str()`` of every value is its canonical notation.
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass, field, replace
from enum import Enum
from functools import cached_property
from typing import Iterable, Iterator

from .hexes import STANDARD, Board, Direction, Hex
from .rules import DEFAULT_RULES, RuleSet
from .tiles import Kind, Oriented, Tile

HQ_HEALTH = 20


@dataclass(frozen=True, slots=True)
class Unit:
    """A tile standing on a hex (a foundation tile too), with its facing and markers.

    ``hp`` is an HQ's health; ``wounds`` counts wound markers on any other unit. ``owner`` is set only where
    the commander differs from the tile's army (mercenaries, the Mad Bomber).
    """

    hex: Hex
    tile: Tile
    facing: Direction = Direction.N
    wounds: int = 0
    hp: int | None = None
    venom: int = 0
    owner: str | None = None
    prizes: tuple[str, ...] = ()
    #: Who commands the unit (derived: ``owner`` or the tile's army); a field because battles read it a lot.
    army: str = field(init=False, repr=False, compare=False)
    #: The tile's icons turned to the unit's facing (derived, for the same reason).
    oriented: Oriented = field(init=False, repr=False, compare=False)
    _hash: int = field(init=False, repr=False, compare=False)

    def __post_init__(self) -> None:
        if self.hp is None and self.tile.kind is Kind.HQ:
            object.__setattr__(self, "hp", HQ_HEALTH)
        object.__setattr__(self, "army", self.owner or self.tile.army)
        object.__setattr__(self, "oriented", self.tile.oriented(self.facing))
        object.__setattr__(self, "_hash", hash((self.hex, self.tile.key, self.facing, self.wounds, self.hp,
                                                self.venom, self.owner, self.prizes)))

    def __hash__(self) -> int:
        # Positions are deduplicated by the million in the search: hash once, at construction.
        return self._hash

    @property
    def is_hq(self) -> bool:
        return self.tile.kind is Kind.HQ

    @property
    def health(self) -> int:
        """Wounds still needed to destroy it (an HQ: its health)."""
        if self.is_hq:
            assert self.hp is not None  # __post_init__ gives every HQ its health
            return self.hp
        return self.tile.health - self.wounds

    def rotated(self, steps: int = 1) -> Unit:
        return replace(self, hex=self.hex.rotated(steps), facing=self.facing.rotated(steps))

    def __str__(self) -> str:
        parts = [self.hex.label, self.tile.key, self.facing.name]
        if self.hp is not None:
            parts.append(f"hp={self.hp}")
        if self.wounds:
            parts.append(f"wounds={self.wounds}")
        if self.venom:
            parts.append(f"venom={self.venom}")
        if self.owner:
            parts.append(f"owner={self.owner}")
        if self.prizes:
            parts.append(f"prize={','.join(self.prizes)}")
        return " ".join(parts)

    def __repr__(self) -> str:
        return f"Unit.parse({str(self)!r})"

    @classmethod
    def parse(cls, text: str) -> Unit:
        from .notation import parse_unit

        return parse_unit(text)


class ProblemKind(Enum):
    """What can be wrong with a position (each reported at the line that causes it)."""

    OFF_BOARD = "hex off the board"
    HEX_TAKEN = "two units on one hex"
    NOT_A_UNIT = "not a tile that stands on the board"
    WOUNDS_KILL = "wounds that would already kill the unit"
    HP_ON_NON_HQ = "hp on a unit that is not an HQ"
    BAD_HP = "HQ health out of range"
    WOUNDS_ON_HQ = "wounds on an HQ (its health is hp=)"
    TOO_MANY_COPIES = "more copies of a tile than the army has"
    SECOND_HQ = "a second HQ for one army"
    HAND_TOO_BIG = "more than 3 tiles in a hand"


@dataclass(frozen=True, slots=True)
class Problem:
    kind: ProblemKind
    message: str
    unit: Unit | None = None
    hand: str | None = None
    tile: Tile | None = None  # the tile a hand holds one copy too many of

    def __str__(self) -> str:
        return self.message


@dataclass(frozen=True)
class Position:
    """A board with units on it, whose turn it is, the hands and the decks.

    Units are kept sorted by hex, so two positions with the same units are equal however they were built.
    ``foundations`` (mines, roots) share hexes with units.
    """

    units: tuple[Unit, ...] = ()
    board: Board = STANDARD
    rules: RuleSet = DEFAULT_RULES
    to_move: str | None = None
    hands: tuple[tuple[str, tuple[Tile, ...]], ...] = ()
    decks: tuple[tuple[str, int], ...] = ()
    foundations: tuple[Unit, ...] = ()

    def __hash__(self) -> int:
        # Cached: the search keys its tables by positions (the fields never change).
        cached = self.__dict__.get("_hash")
        if cached is None:
            cached = hash((self.units, self.board, self.rules, self.to_move, self.hands, self.decks,
                           self.foundations))
            self.__dict__["_hash"] = cached
        return cached

    def __post_init__(self) -> None:
        object.__setattr__(self, "units", tuple(sorted(self.units, key=_unit_order)))
        object.__setattr__(self, "foundations", tuple(sorted(self.foundations, key=_unit_order)))
        object.__setattr__(self, "hands", tuple(sorted(self.hands)))
        object.__setattr__(self, "decks", tuple(sorted(self.decks)))

    # --- looking things up ---
    @cached_property
    def _by_hex(self) -> dict[Hex, Unit]:
        return {u.hex: u for u in self.units}

    def unit_at(self, hex_: Hex) -> Unit | None:
        return self._by_hex.get(hex_)

    def __iter__(self) -> Iterator[Unit]:
        return iter(self.units)

    def __len__(self) -> int:
        return len(self.units)

    @property
    def armies(self) -> tuple[str, ...]:
        """Every army with a unit on the board, a hand or a deck, sorted by name."""
        names = {u.army for u in self.units} | {a for a, _ in self.hands} | {a for a, _ in self.decks}
        if self.to_move:
            names.add(self.to_move)
        return tuple(sorted(names))

    def hq(self, army: str) -> Unit | None:
        return next((u for u in self.units if u.is_hq and u.army == army), None)

    def hand(self, army: str) -> tuple[Tile, ...]:
        return next((tiles for name, tiles in self.hands if name == army), ())

    def deck(self, army: str) -> int | None:
        return next((n for name, n in self.decks if name == army), None)

    def empty_hexes(self) -> list[Hex]:
        return [h for h in self.board if h not in self._by_hex]

    # --- building new positions ---
    def with_units(self, units: Iterable[Unit]) -> Position:
        return replace(self, units=tuple(units))

    def with_units_in_order(self, units: tuple[Unit, ...]) -> Position:
        """Like :meth:`with_units` for units already in board order (a subset of this position's, in its order,
        some changed in place): the battle builds one such position per outcome, so it skips the sorting."""
        clone = object.__new__(Position)
        fields = {k: v for k, v in self.__dict__.items() if k not in ("_by_hex", "_hash")}
        clone.__dict__.update(fields)
        object.__setattr__(clone, "units", units)
        return clone

    def rotated(self, steps: int = 1) -> Position:
        """The whole position turned clockwise about ``c3`` (every hex and every facing)."""
        return replace(
            self,
            units=tuple(u.rotated(steps) for u in self.units),
            foundations=tuple(f.rotated(steps) for f in self.foundations),
            board=self.board.rotated(steps),
        )

    # --- validity ---
    def problems(self, order: Iterable[Unit] | None = None) -> list[Problem]:
        """Everything that breaks a consistency rule.

        ``order`` gives the units and foundations in the order they were written (the default: board order).
        Where two lines clash (one hex, a second HQ, one copy too many) the later line is the one blamed,
        because that is where a reader of the file sees the mistake.
        """
        placed = list(order) if order is not None else [*self.units, *self.foundations]
        foundations = set(self.foundations)
        totals: Counter[Tile] = Counter(u.tile for u in placed)
        for _, tiles in self.hands:
            totals.update(tiles)
        found: list[Problem] = []
        units_at: dict[Hex, Unit] = {}
        foundations_at: dict[Hex, Unit] = {}
        hq_of: dict[str, Unit] = {}
        running: Counter[Tile] = Counter()

        def count_copy(tile: Tile, unit: Unit | None = None, hand: str | None = None) -> None:
            running[tile] += 1
            if running[tile] == tile.count + 1:  # the first copy too many, reported once per tile
                found.append(Problem(ProblemKind.TOO_MANY_COPIES,
                                     f"{totals[tile]} copies of {tile.key}, but the army has {tile.count}", unit, hand,
                                     tile))

        for unit in placed:
            found += self._unit_problems(unit, unit in foundations, units_at, foundations_at, hq_of)
            count_copy(unit.tile, unit)
        for army, tiles in self.hands:
            if len(tiles) > 3:
                found.append(Problem(ProblemKind.HAND_TOO_BIG, f"{army} holds {len(tiles)} tiles; a hand has at most 3", hand=army))
            for t in tiles:
                count_copy(t, hand=army)
        return found

    def _unit_problems(self, unit: Unit, is_foundation: bool, units_at: dict[Hex, Unit],
                       foundations_at: dict[Hex, Unit], hq_of: dict[str, Unit]) -> list[Problem]:
        """What is wrong with one line, given the lines before it (recorded in the three maps)."""
        tile = unit.tile
        where = f"{unit.hex.label} {tile.key}"
        found: list[Problem] = []
        if unit.hex not in self.board:
            found.append(Problem(ProblemKind.OFF_BOARD, f"hex {unit.hex.label} is not on the {self.board.shape} board", unit))
        # A foundation (mine, roots) shares its hex with a unit, but not with another foundation.
        taken = foundations_at if is_foundation and tile.kind is Kind.FOUNDATION else units_at
        if unit.hex in taken:
            found.append(Problem(ProblemKind.HEX_TAKEN, f"hex {unit.hex.label} already holds {taken[unit.hex].tile.key}", unit))
        taken.setdefault(unit.hex, unit)
        if taken is foundations_at:
            return found
        if not tile.is_unit:
            found.append(Problem(ProblemKind.NOT_A_UNIT, f"{tile.key} is {'an' if tile.kind is Kind.INSTANT else 'a'} {tile.kind} tile and does not stand on the board as a unit", unit))
            return found
        if unit.hp is not None and not unit.is_hq:
            found.append(Problem(ProblemKind.HP_ON_NON_HQ, f"hp= is only for HQs; {tile.key} takes wounds=", unit))
        if unit.is_hq:
            if unit.wounds:
                found.append(Problem(ProblemKind.WOUNDS_ON_HQ, f"{where}: an HQ has no wound markers; write its health as hp=", unit))
            if not 1 <= unit.health <= HQ_HEALTH:
                found.append(Problem(ProblemKind.BAD_HP, f"{where}: HQ health must be 1 to {HQ_HEALTH}, not {unit.health}", unit))
            if unit.army in hq_of:
                found.append(Problem(ProblemKind.SECOND_HQ, f"{unit.army} already has an HQ on {hq_of[unit.army].hex.label}", unit))
            hq_of.setdefault(unit.army, unit)
        elif unit.wounds >= tile.health:
            found.append(Problem(ProblemKind.WOUNDS_KILL, f"{where}: {unit.wounds} wound{'s' if unit.wounds != 1 else ''} would already kill it (it dies at {tile.health})", unit))
        return found

    def __str__(self) -> str:
        from .notation import write_position

        return write_position(self)


def _unit_order(unit: Unit) -> tuple[int, int, str]:
    return (unit.hex.q, unit.hex.r, unit.tile.key)


# --- actions (NOTATION §5) ---------------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class Discard:
    tile: Tile

    def __str__(self) -> str:
        return f"discard {self.tile.key}"


@dataclass(frozen=True, slots=True)
class Place:
    tile: Tile
    hex: Hex
    facing: Direction = Direction.N

    def __str__(self) -> str:
        return f"place {self.tile.key} {self.hex.label} {self.facing.name}"


@dataclass(frozen=True, slots=True)
class Use:
    """An instant tile played from the hand; ``targets`` are hexes, ``facing`` where the instant takes one."""

    tile: Tile
    targets: tuple[Hex, ...] = ()
    facing: Direction | None = None

    def __str__(self) -> str:
        parts = ["use", self.tile.key, *(h.label for h in self.targets)]
        if self.facing is not None:
            parts.append(self.facing.name)
        return " ".join(parts)


@dataclass(frozen=True, slots=True)
class Move:
    """A free move and/or rotation granted by the board (``by`` mobility, hq, transport, ...)."""

    source: Hex
    target: Hex
    facing: Direction | None = None
    by: str = "mobility"

    def __str__(self) -> str:
        parts = ["move", self.source.label, self.target.label]
        if self.facing is not None:
            parts.append(self.facing.name)
        if self.by != "mobility":
            parts += ["by", self.by]
        return " ".join(parts)


@dataclass(frozen=True, slots=True)
class PlaceHQ:
    hex: Hex

    def __str__(self) -> str:
        return f"hq {self.hex.label}"


@dataclass(frozen=True, slots=True)
class Draw:
    tiles: tuple[Tile, ...]

    def __str__(self) -> str:
        return "draw " + " ".join(t.key for t in self.tiles)


@dataclass(frozen=True, slots=True)
class Pass:
    """A turn in which the player does nothing at all (nhex extension of NOTATION §7: a tie-break turn with
    no tiles left to draw and nothing worth doing)."""

    def __str__(self) -> str:
        return "pass"


Action = Discard | Place | Use | Move | PlaceHQ | Draw | Pass

#: How many hexes each instant names, and whether it takes a facing (NOTATION §5 `use` arguments).
INSTANT_ARGUMENTS: dict[str, tuple[tuple[int, ...], bool]] = {
    "move": ((2,), True),
    "push-back": ((3,), False),
    "sniper": ((1,), False),
    "grenade": ((1,), False),
    "air-strike": ((1,), False),
    "bomb": ((1,), False),
    "small-bomb": ((3,), False),
    "castling": ((2,), False),
    "rotation": ((1,), True),
    "battle": ((0,), False),
    "terror": ((0,), False),
}
