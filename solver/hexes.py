"""Hex geometry: coordinates, the six directions, board shapes and lines of fire.

Glossary (used with one meaning throughout nhex):

hex
    One space of the board, named by axial coordinates ``(q, r)`` (q = column, r = row) with the centre
    ``c3`` at ``(0, 0)``; hexes are flat-topped (NOTATION §2).
direction
    One of the six ways out of a hex, clockwise from north: ``N NE SE S SW NW``.
edge
    One of a tile's six sides, numbered clockwise from its printed top (edge 0 = front).
facing
    The direction a placed tile's edge 0 points to; edge ``e`` of a tile facing ``f`` points to
    ``(f + e) mod 6``.
line of fire
    The hexes met going straight out of a hex in one direction, up to the first hex that is not on the
    board (RULINGS 15).

Everything here is a pure table or a pure function; boards are immutable values.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from enum import IntEnum
from functools import cached_property
from typing import Callable, Iterable, Iterator, NamedTuple


class Direction(IntEnum):
    """An absolute direction on the board, or (relative to a tile) an edge number."""

    N = 0
    NE = 1
    SE = 2
    S = 3
    SW = 4
    NW = 5

    @property
    def step(self) -> tuple[int, int]:
        return _STEPS[self]

    def rotated(self, steps: int) -> Direction:
        """This direction turned clockwise by ``steps`` sixths of a turn."""
        return Direction((self + steps) % 6)

    @property
    def opposite(self) -> Direction:
        return Direction((self + 3) % 6)

    def __str__(self) -> str:
        return self.name

    @classmethod
    def parse(cls, text: str) -> Direction:
        try:
            return cls[text.upper()]
        except KeyError:
            raise ValueError(f"not a direction: {text!r} (expected one of N NE SE S SW NW)") from None


DIRECTIONS: tuple[Direction, ...] = tuple(Direction)

# Axial steps for flat-topped hexes (redblob "flat-top axial"), NOTATION §2.
_STEPS: dict[Direction, tuple[int, int]] = {
    Direction.N: (0, -1),
    Direction.NE: (1, -1),
    Direction.SE: (1, 0),
    Direction.S: (0, 1),
    Direction.SW: (-1, 1),
    Direction.NW: (-1, 0),
}

_COLUMNS = "abcde"
_LABEL_RE = re.compile(r"^([a-eA-E])([1-9])$")
_COORD_RE = re.compile(r"^\(\s*(-?[0-9]+)\s*,\s*(-?[0-9]+)\s*\)$")  # ASCII digits (NOTATION §1)


class Hex(NamedTuple):
    """A hex by its axial coordinates.

    A named tuple rather than a dataclass: hexes are dictionary keys in every hot loop of the battle and
    the search, and tuples hash and compare in C.
    """

    q: int
    r: int

    def neighbour(self, direction: Direction) -> Hex:
        found = _NEIGHBOURS.get(self)
        if found is not None:
            return found[direction]
        dq, dr = _STEPS[direction]
        return Hex(self.q + dq, self.r + dr)

    def distance(self, other: Hex) -> int:
        dq = self.q - other.q
        dr = self.r - other.r
        return (abs(dq) + abs(dr) + abs(dq + dr)) // 2

    def direction_to(self, other: Hex) -> Direction | None:
        """The direction of an adjacent hex, or ``None`` when ``other`` is not adjacent."""
        return _DIRECTION_OF_STEP.get((other.q - self.q, other.r - self.r))

    def rotated(self, steps: int = 1) -> Hex:
        """This hex turned clockwise about ``c3`` by ``steps`` sixths of a turn."""
        q, r = self.q, self.r
        for _ in range(steps % 6):
            q, r = -r, q + r
        return Hex(q, r)

    @property
    def label(self) -> str:
        """The canonical name: ``c3`` on the standard battlefield, ``(q,r)`` elsewhere."""
        return _LABELS.get(self) or f"({self.q},{self.r})"

    def __str__(self) -> str:
        return self.label

    def __repr__(self) -> str:
        return f"Hex.parse({self.label!r})"

    @classmethod
    def parse(cls, text: str) -> Hex:
        """Read ``c3`` or ``(0,0)``; raises ``ValueError`` for anything else."""
        text = text.strip()
        match = _LABEL_RE.match(text)
        if match:
            hex_ = _BY_LABEL.get(text.lower())
            if hex_ is None:
                raise ValueError(f"no hex is labelled {text!r} (labels run a1-a3, b1-b4, c1-c5, d1-d4, e1-e3)")
            return hex_
        match = _COORD_RE.match(text)
        if match:
            longest = max(len(match.group(1).lstrip("-")), len(match.group(2).lstrip("-")))
            if longest > 9:
                raise ValueError(f"hex coordinates take at most 9 digits, not {longest}")
            return cls(int(match.group(1)), int(match.group(2)))
        raise ValueError(f"not a hex: {text!r}")


_DIRECTION_OF_STEP = {step: direction for direction, step in _STEPS.items()}
CENTRE = Hex(0, 0)


class _Neighbours(dict):
    """The six neighbours of every hex near the centre, indexed by direction; a hex further out (a custom board) has
    its neighbours worked out when asked, not kept."""

    def __missing__(self, hex_: Hex) -> tuple[Hex, ...]:
        return tuple(Hex(hex_.q + dq, hex_.r + dr) for dq, dr in (_STEPS[d] for d in DIRECTIONS))


_NEIGHBOURS = _Neighbours()
#: ``around(hex_)``: the six neighbours of a hex, indexed by direction. The table's own lookup, so a call costs no
#: Python frame (the battle asks this constantly; issue 15).
around: Callable[[Hex], tuple[Hex, ...]] = _NEIGHBOURS.__getitem__


def hexes_within(radius: int, centre: Hex = CENTRE) -> frozenset[Hex]:
    return frozenset(
        Hex(centre.q + dq, centre.r + dr)
        for dq in range(-radius, radius + 1)
        for dr in range(max(-radius, -dq - radius), min(radius, -dq + radius) + 1)
    )


def _standard_labels() -> dict[Hex, str]:
    labels = {}
    for column, q in zip(_COLUMNS, range(-2, 3)):
        rows = range(max(-2, -2 - q), min(2, 2 - q) + 1)
        for number, r in enumerate(rows, start=1):
            labels[Hex(q, r)] = f"{column}{number}"
    return labels


_NEIGHBOURS.update({
    h: tuple(Hex(h.q + dq, h.r + dr) for dq, dr in (_STEPS[d] for d in DIRECTIONS)) for h in hexes_within(6)
})
_LABELS = _standard_labels()
_BY_LABEL = {label: hex_ for hex_, label in _LABELS.items()}


@dataclass(frozen=True)
class Board:
    """A board shape: which hexes exist. ``shape`` is ``standard``, ``extended`` or ``custom``."""

    shape: str
    hexes: frozenset[Hex] = field(repr=False)

    def __contains__(self, hex_: object) -> bool:
        return hex_ in self.hexes

    def __iter__(self) -> Iterator[Hex]:
        return iter(sorted(self.hexes, key=lambda h: (h.q, h.r)))

    def __len__(self) -> int:
        return len(self.hexes)

    @cached_property
    def _neighbours(self) -> dict[Hex, tuple[tuple[Direction, Hex], ...]]:
        return {
            hex_: tuple((d, n) for d in DIRECTIONS if (n := hex_.neighbour(d)) in self.hexes)
            for hex_ in self.hexes
        }

    @cached_property
    def _lines(self) -> dict[tuple[Hex, Direction], tuple[Hex, ...]]:
        lines = {}
        for hex_ in self.hexes:
            for d in DIRECTIONS:
                line = []
                step = hex_.neighbour(d)
                while step in self.hexes:
                    line.append(step)
                    step = step.neighbour(d)
                lines[hex_, d] = tuple(line)
        return lines

    def neighbours(self, hex_: Hex) -> tuple[tuple[Direction, Hex], ...]:
        """The on-board neighbours of a hex with the direction to each."""
        return self._neighbours.get(hex_, ())

    def line_of_fire(self, hex_: Hex, direction: Direction) -> tuple[Hex, ...]:
        """The hexes a shot from ``hex_`` towards ``direction`` crosses, nearest first (RULINGS 15)."""
        return self._lines.get((hex_, direction), ())

    @cached_property
    def lines(self) -> dict[Hex, tuple[tuple[Hex, ...], ...]]:
        """The six lines of fire of every hex, indexed by direction: ``board.lines[hex_][d]`` (the battle's table;
        one lookup keyed by a hex, not by a hex and a direction)."""
        return {hex_: tuple(self._lines[hex_, d] for d in DIRECTIONS) for hex_ in self.hexes}

    def rotated(self, steps: int = 1) -> Board:
        if self.shape in ("standard", "extended"):
            return self
        return Board("custom", frozenset(h.rotated(steps) for h in self.hexes))

    def __str__(self) -> str:
        if self.shape == "custom":
            return "custom " + " ".join(f"({h.q},{h.r})" for h in self)
        return self.shape

    @classmethod
    def custom(cls, hexes: Iterable[Hex]) -> Board:
        return cls("custom", frozenset(hexes))


STANDARD = Board("standard", hexes_within(2))
EXTENDED = Board("extended", hexes_within(3))
