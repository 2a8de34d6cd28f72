"""The actions of a turn as values (NOTATION §5, §10): what a game record's turn line and a card's solution say.

They are reached as :mod:`solver.position`'s names (``from solver.position import Place``) and live here so that a
start that only reads a position does not build their eleven dataclasses (about 8 ms, issue 10, "Fast start"):
``solver.position`` loads this module on the first use of one of them.
"""

from __future__ import annotations

from dataclasses import dataclass

from .expansion import label_order
from .hexes import Direction, Hex
from .position import PROCEDURES, UNORDERED_INSTANTS
from .tiles import Tile

# --- actions (NOTATION §5) ---------------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class Discard:
    tile: Tile

    def __str__(self) -> str:
        return f"discard {self.tile.key}"


@dataclass(frozen=True, slots=True)
class Place:
    """A tile put on the board from the hand; ``by`` is ``transporter`` for the Smart Transporter's placement
    on its own hex (NOTATION §10.2), else None."""

    tile: Tile
    hex: Hex
    facing: Direction = Direction.N
    by: str | None = None

    def __str__(self) -> str:
        return f"place {self.tile.key} {self.hex.label} {self.facing.name}" + (f" by {self.by}" if self.by else "")


@dataclass(frozen=True, slots=True)
class Use:
    """An instant tile played from the hand; ``targets`` are hexes, ``facing`` where the instant takes one."""

    tile: Tile
    targets: tuple[Hex, ...] = ()
    facing: Direction | None = None
    #: Hexes holding a unit and a foundation where the foundation is hit instead (NOTATION §10.3), label order.
    foundations: tuple[Hex, ...] = ()

    def __post_init__(self) -> None:
        # Hexes whose order means nothing are kept in label order (NOTATION §10.1).
        if self.tile.name in UNORDERED_INSTANTS and len(self.targets) > 1:
            object.__setattr__(self, "targets", label_order(self.targets))
        if len(self.foundations) > 1:
            object.__setattr__(self, "foundations", label_order(tuple(set(self.foundations))))

    def __str__(self) -> str:
        parts = ["use", self.tile.key, *(h.label for h in self.targets)]
        if self.facing is not None:
            parts.append(self.facing.name)
        if self.foundations:
            parts += ["foundation", *(h.label for h in self.foundations)]
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
    """``hq HEX [FACING]``: the facing (a directional HQ's, Vegas) is written only when it is not N (§10.2)."""

    hex: Hex
    facing: Direction = Direction.N

    def __str__(self) -> str:
        return f"hq {self.hex.label}" + (f" {self.facing.name}" if self.facing is not Direction.N else "")


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


@dataclass(frozen=True, slots=True)
class Procedure:
    """A Duel-board procedure bought with Energy (NOTATION §10.2; PL PROCEDURY): ``kind`` one of
    :data:`PROCEDURES`, its hexes and facings as written there (``swap``: the unit from the first hex ends on the
    second facing the first facing). ``laser`` and ``swap`` keep their hexes in label order."""

    kind: str
    hexes: tuple[Hex, ...] = ()
    facings: tuple[Direction, ...] = ()

    def __post_init__(self) -> None:
        if self.kind == "laser" and len(self.hexes) == 2:
            object.__setattr__(self, "hexes", label_order(self.hexes))
        elif self.kind == "swap" and len(self.hexes) == 2 and len(self.facings) == 2 and self.hexes[1] < self.hexes[0]:
            # The facings move with their hexes: swapping the written order swaps both pairs.
            object.__setattr__(self, "hexes", (self.hexes[1], self.hexes[0]))
            object.__setattr__(self, "facings", (self.facings[1], self.facings[0]))

    @property
    def cost(self) -> int:
        return PROCEDURES[self.kind][2]

    def __str__(self) -> str:
        return " ".join(["procedure", self.kind, *(h.label for h in self.hexes), *(f.name for f in self.facings)])


@dataclass(frozen=True, slots=True)
class BuyEnergy:
    """``energy tile TILE`` (1 Energy for a tile left in hand) or ``energy hq N`` (N Energy for N HQ health)."""

    tile: Tile | None = None
    hq_health: int = 0

    def __str__(self) -> str:
        return f"energy tile {self.tile.key}" if self.tile is not None else f"energy hq {self.hq_health}"


@dataclass(frozen=True, slots=True)
class Push:
    """The New York Pusher's free push (B13 Push Back icon): arguments as ``use … push-back``."""

    pusher: Hex
    target: Hex
    destination: Hex

    def __str__(self) -> str:
        # Without a destination: the push as its player decides it, before the pushed unit's owner chooses.
        dest = f" {self.destination.label}" if self.destination is not None else ""
        return f"push {self.pusher.label} {self.target.label}{dest}"


@dataclass(frozen=True, slots=True)
class PutPrize:
    """``prize NAME HEX``: a held Prize marker put on an own unit (B13 PRIZE MARKERS)."""

    prize: str
    hex: Hex

    def __str__(self) -> str:
        return f"prize {self.prize} {self.hex.label}"


Action = Discard | Place | Use | Move | PlaceHQ | Draw | Pass | Procedure | BuyEnergy | Push | PutPrize
