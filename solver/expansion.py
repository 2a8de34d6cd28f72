"""The values NOTATION §10 (v1.1) adds to a position: terrain elements, turrets and Prize markers (Babel 13),
and the tables that say which names are allowed.

Plain immutable values only: the rules behind them (what a Fortress does in a battle, how a Turret shoots)
belong to the rule modules; :func:`solver.engine.features.unimplemented` names the ones nhex does not play yet.
"""

from __future__ import annotations

from dataclasses import dataclass

from .hexes import Direction, Hex

#: Terrain types and the features each may have (NOTATION §10.3; B13 THE GENERAL RULES OF TERRAIN and the
#: headings of each terrain). Features are listed in the book's order, which is also the canonical order.
TERRAIN_FEATURES: dict[str, tuple[str, ...]] = {
    "forest": ("thick", "high", "dismal", "poisonous", "jungle"),
    "hill": ("high", "rocky", "fortress", "watchtower"),
    "water": ("deep", "whirlpool", "swamp"),
    "wasteland": ("plain", "radioactive"),
    "base": ("closed", "defense-systems", "turrets", "control-panel", "fortress", "high"),
    "bunker": ("turrets", "tight", "fortress", "hidden"),
    "warehouse": ("closed", "high", "prize"),
    "rock": ("high", "closed"),
    "hole": ("fatal",),
}

#: Features a terrain type must have: a Warehouse is always Closed (NOTATION §10.3).
COMPULSORY_FEATURES: dict[str, tuple[str, ...]] = {"warehouse": ("closed",)}

#: Attributes of a `terrain` line and the types that take them (NOTATION §10.3: Warehouse attributes).
TERRAIN_ATTRIBUTES: dict[str, tuple[str, ...]] = {
    "strength": ("warehouse",), "wounds": ("warehouse",), "prizes": ("warehouse",), "damaged-by": ("warehouse",),
}

#: Prize marker names in canonical order (B13 PRIZE MARKERS, NOTATION §10.3).
PRIZE_NAMES: tuple[str, ...] = (
    "first-aid-kit", "enhanced-hit", "enhanced-shot", "accelerator", "mobility", "explosives", "additional-action",
    "universal-1", "universal-2", "universal-3", "universal-4",
)
_PRIZE_ORDER = {name: index for index, name in enumerate(PRIZE_NAMES)}
#: Markers of which only one exists in the game (NOTATION §10.3: "a universal-N marker is in play at most once").
UNIQUE_PRIZES = frozenset(name for name in PRIZE_NAMES if name.startswith("universal-"))
#: At most this many Prize markers lie on one unit (NOTATION §10.3).
PRIZES_PER_UNIT = 2
#: Venom markers on the board for each Neojungle army (NOTATION §10.3).
VENOM_PER_ARMY = 2


def prize_order(names: tuple[str, ...] | list[str]) -> tuple[str, ...]:
    """Prize names in canonical order (unknown names last, as written: the reader rejects them anyway)."""
    return tuple(sorted(names, key=lambda n: _PRIZE_ORDER.get(n, len(PRIZE_NAMES))))


def label_order(hexes: tuple[Hex, ...] | list[Hex]) -> tuple[Hex, ...]:
    """Hexes whose order means nothing, in label order: ascending q, then r (NOTATION §10.1)."""
    return tuple(sorted(hexes))


@dataclass(frozen=True, slots=True)
class TerrainElement:
    """One physical terrain element (one `terrain` line): its type, features and hexes (label order).

    The Warehouse attributes apply to every hex of the element: ``strength`` (wounds that break into a hex),
    ``wounds`` (taken so far), ``prizes`` (markers lying in each hex, canonical order) and ``damaged_by`` (the
    armies that can wound it; empty = every army).
    """

    type: str
    features: tuple[str, ...]
    hexes: tuple[Hex, ...]
    strength: int | None = None
    wounds: int = 0
    prizes: tuple[str, ...] = ()
    damaged_by: tuple[str, ...] = ()

    def __post_init__(self) -> None:
        order = TERRAIN_FEATURES.get(self.type, ())
        features = sorted(set(self.features), key=lambda f: order.index(f) if f in order else len(order))
        object.__setattr__(self, "features", tuple(features))
        object.__setattr__(self, "hexes", label_order(self.hexes))
        object.__setattr__(self, "prizes", prize_order(self.prizes))
        object.__setattr__(self, "damaged_by", tuple(sorted(set(self.damaged_by))))

    def has(self, feature: str) -> bool:
        return feature in self.features

    def rotated(self, steps: int = 1) -> TerrainElement:
        return TerrainElement(self.type, self.features, tuple(h.rotated(steps) for h in self.hexes), self.strength,
                              self.wounds, self.prizes, self.damaged_by)

    def __str__(self) -> str:
        parts = ["terrain", self.type, ",".join(self.features), *(h.label for h in self.hexes)]
        if self.strength is not None:
            parts.append(f"strength={self.strength}")
        if self.wounds:
            parts.append(f"wounds={self.wounds}")
        if self.prizes:
            parts.append(f"prizes={','.join(self.prizes)}")
        if self.damaged_by:
            parts.append(f"damaged-by={','.join(self.damaged_by)}")
        return " ".join(parts)


@dataclass(frozen=True, slots=True)
class Turret:
    """A Turret on a Base or Bunker hex (B13 TURRETS); ``owner`` only where the scenario gives Turrets an army."""

    hex: Hex
    facing: Direction
    owner: str | None = None

    def rotated(self, steps: int = 1) -> Turret:
        return Turret(self.hex.rotated(steps), self.facing.rotated(steps), self.owner)

    def __str__(self) -> str:
        return f"turret {self.hex.label} {self.facing.name}" + (f" owner={self.owner}" if self.owner else "")


@dataclass(frozen=True, slots=True)
class Location:
    """Where a statement stands in its file, so that a refusal (exit 4) can point at it."""

    source: str
    line: int
    column: int

    def __str__(self) -> str:
        return f"{self.source}:{self.line}:{self.column}"
