"""Units and positions: the plain, immutable values everything else works on.

Building a position is not validating it: a :class:`Position` may hold anything the notation can say, and
:meth:`Position.problems` names what is wrong with it. ``str()`` of every value is its canonical notation.
"""

from __future__ import annotations

from dataclasses import dataclass, field, fields, replace
from enum import Enum
from functools import cached_property
from typing import TYPE_CHECKING, Callable, Iterable, Iterator

from .expansion import Location, TerrainElement, Turret, label_order, prize_order
from .hexes import STANDARD, Board, Direction, Hex
from .rules import DEFAULT_RULES, RuleSet
from .tiles import NEUTRAL_ARMY, Kind, Oriented, Tile

if TYPE_CHECKING:  # a scenario's values are built by solver/notation/scenarios.py, imported only where a file has one
    from .action_values import Action as Action
    from .action_values import BuyEnergy as BuyEnergy
    from .action_values import Discard as Discard
    from .action_values import Draw as Draw
    from .action_values import Move as Move
    from .action_values import Pass as Pass
    from .action_values import Place as Place
    from .action_values import PlaceHQ as PlaceHQ
    from .action_values import Procedure as Procedure
    from .action_values import Push as Push
    from .action_values import PutPrize as PutPrize
    from .action_values import Use as Use
    from .notation.scenarios import Scenario

HQ_HEALTH = 20
#: Kind.HQ read once: an enum member read through its class costs a descriptor call in Python 3.11 (issue 15).
_HQ = Kind.HQ
HAND_SIZE = 3
#: 3E GAME VARIANTS, REINFORCEMENT: "draw up to 6 tiles instead of 3" (rule option reinforcement=yes).
HAND_SIZE_REINFORCEMENT = 6


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
        if self.hp is None and self.tile.kind is _HQ:
            object.__setattr__(self, "hp", HQ_HEALTH)
        if len(self.prizes) > 1:  # canonical order (NOTATION §10.3), so equal units are equal
            object.__setattr__(self, "prizes", prize_order(self.prizes))
        object.__setattr__(self, "army", self.owner or self.tile.army)
        object.__setattr__(self, "oriented", self.tile.oriented(self.facing))
        object.__setattr__(self, "_hash", _unit_hash(self))

    def __hash__(self) -> int:
        # Positions are deduplicated by the million in the search: hash once, at construction.
        return self._hash

    def marked(self, wounds: int, hp: int | None) -> Unit:
        """``replace(self, wounds=wounds, hp=hp)``, made faster for the battle's loop, which marks wounds and
        health many times a battle: every other field, the derived ones too, is copied as it is."""
        # The slots' own setters (a frozen dataclass refuses setattr), one per field: about 2.5x faster than a
        # loop of object.__setattr__ (issue 15); _SET_FIELDS is checked against the fields below.
        clone = _new_object(Unit)
        _set_hex(clone, self.hex)
        _set_tile(clone, self.tile)
        _set_facing(clone, self.facing)
        _set_wounds(clone, wounds)
        _set_hp(clone, hp)
        _set_venom(clone, self.venom)
        _set_owner(clone, self.owner)
        _set_prizes(clone, self.prizes)
        _set_army(clone, self.army)
        _set_oriented(clone, self.oriented)
        # _unit_hash(clone), written out
        _set_hash(clone, hash((self.hex, self.tile.key, self.facing, wounds, hp, self.venom, self.owner, self.prizes)))
        return clone

    @property
    def is_hq(self) -> bool:
        return self.tile.kind is _HQ

    @property
    def is_neutral(self) -> bool:
        """The neutral Mad Bomber (NOTATION §10.4): a mercenary tile with no ``owner=`` belongs to no army."""
        return self.owner is None and self.tile.army == NEUTRAL_ARMY

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
        from .notation.text import parse_unit

        return parse_unit(text)


def _unit_hash(unit: Unit) -> int:
    return hash((unit.hex, unit.tile.key, unit.facing, unit.wounds, unit.hp, unit.venom, unit.owner, unit.prizes))


_UNIT_FIELDS = tuple(f.name for f in fields(Unit))
_new_object = object.__new__
_set_hex, _set_tile, _set_facing, _set_wounds, _set_hp, _set_venom, _set_owner, _set_prizes, _set_army, \
    _set_oriented, _set_hash = (vars(Unit)[name].__set__ for name in _UNIT_FIELDS)
# Unit.marked sets every field by name, in this order: a field added to Unit must be added there too.
assert _UNIT_FIELDS == ("hex", "tile", "facing", "wounds", "hp", "venom", "owner", "prizes", "army", "oriented",
                        "_hash"), _UNIT_FIELDS


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
    TERRAIN = "a unit where the terrain lets it not stand"


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

    The NOTATION §10 (v1.1) additions: ``terminals`` (Duel board, label order), ``energy`` (army, Energy
    Points), ``terrain`` elements and ``turrets`` (Babel 13), ``held_prizes`` (army, Prize markers held but not
    put on a unit), ``teams`` (each a sorted tuple of armies), the multiplayer ``mode`` and ``scores``.
    ``locations`` records where each statement stood in its file (never compared): see :meth:`location`.
    """

    units: tuple[Unit, ...] = ()
    board: Board = STANDARD
    rules: RuleSet = DEFAULT_RULES
    to_move: str | None = None
    hands: tuple[tuple[str, tuple[Tile, ...]], ...] = ()
    decks: tuple[tuple[str, int], ...] = ()
    foundations: tuple[Unit, ...] = ()
    terminals: tuple[Hex, ...] = ()
    energy: tuple[tuple[str, int], ...] = ()
    terrain: tuple[TerrainElement, ...] = ()
    turrets: tuple[Turret, ...] = ()
    held_prizes: tuple[tuple[str, tuple[str, ...]], ...] = ()
    teams: tuple[tuple[str, ...], ...] = ()
    mode: str = "deathmatch"
    scores: tuple[tuple[str, int], ...] = ()
    #: A scenario's conditions (HQ terrain, free turns, victory, the radio: solver/notation/scenarios.py), None in a plain game.
    scenario: Scenario | None = None
    locations: tuple[tuple[str, Location], ...] = field(default=(), compare=False, repr=False)
    #: A position's or a card's `players` line as written (a mirror match's seats, by which pictures mark the players
    #: of one army: solver/mirror.py); never compared, like ``locations``.
    seats: tuple[str, ...] = field(default=(), compare=False, repr=False)

    def __hash__(self) -> int:
        # Cached: the search keys its tables by positions (the fields never change).
        cached = self.__dict__.get("_hash")
        if cached is None:
            cached = hash((self.units, self.board, self.rules, self.to_move, self.hands, self.decks,
                           self.foundations, self.terminals, self.energy, self.terrain, self.turrets,
                           self.held_prizes, self.teams, self.mode, self.scores, self.scenario))
            self.__dict__["_hash"] = cached
        return cached

    def __post_init__(self) -> None:
        for name, order in _FIELD_ORDER.items():
            object.__setattr__(self, name, order(getattr(self, name)))
        if self.terminals or self.energy or self.terrain or self.turrets or self.held_prizes or self.teams \
                or self.scores:
            self._order_additions()

    def _order_additions(self) -> None:
        """The §10 fields in canonical order, so that equal positions are equal however they were written."""
        for name, order in _ADDITION_ORDER.items():
            object.__setattr__(self, name, order(getattr(self, name)))

    def location(self, key: str) -> Location | None:
        """Where the statement ``key`` stood in the file (``terrain c1``, ``unit b3``, ``energy smart``, ...)."""
        return next((where for name, where in self.locations if name == key), None)

    # --- looking things up ---
    @cached_property
    def _by_hex(self) -> dict[Hex, Unit]:
        return {u.hex: u for u in self.units}

    def forget_lookups(self) -> None:
        """Drop the lookup tables worked out from the units (:attr:`_by_hex`); asked again, they are worked out
        again. The search calls it on a state's position once the state is expanded: a big card keeps hundreds of
        thousands of positions, each table a few hundred bytes, read again for few of them (bench/scale-play3)."""
        self.__dict__.pop("_by_hex", None)

    def unit_at(self, hex_: Hex) -> Unit | None:
        return self._by_hex.get(hex_)

    def __iter__(self) -> Iterator[Unit]:
        return iter(self.units)

    def __len__(self) -> int:
        return len(self.units)

    @property
    def armies(self) -> tuple[str, ...]:
        """Every army with a unit on the board, a hand or a deck, sorted by name."""
        names = {u.army for u in self.units if not u.is_neutral} | {a for a, _ in self.hands} | {a for a, _ in self.decks}
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
        return self.replaced(units=tuple(units))

    def replaced(self, **changes: object) -> Position:
        """``dataclasses.replace(self, **changes)``, put in canonical order as ``__post_init__`` would, but only
        for the fields that change: the turn's enumeration makes a position per action it lists, and the generic
        replace (every field read, the whole constructor, every field sorted again) cost a third of a card's
        search. Equal to ``replace(self, **changes)`` in every field (tests/test_position_replaced.py)."""
        clone = object.__new__(Position)
        values = clone.__dict__
        mine = self.__dict__
        for name in _FIELD_NAMES:  # the fields only: what was worked out from them (_hash, _by_hex) is not kept
            values[name] = mine[name]
        for name, value in changes.items():
            if name not in values:
                raise TypeError(f"Position has no field {name!r}")
            values[name] = value
        for name in changes:
            order = _FIELD_ORDER.get(name) or _ADDITION_ORDER.get(name)
            if order is not None:
                values[name] = order(values[name])
        return clone

    def with_units_in_order(self, units: tuple[Unit, ...]) -> Position:
        """Like :meth:`with_units` for units already in board order (a subset of this position's, in its order,
        some changed in place): the battle builds one such position per outcome, so it skips the sorting."""
        clone = object.__new__(Position)
        values = clone.__dict__
        values.update(self.__dict__)
        values.pop("_by_hex", None)  # what was worked out from the old units
        values.pop("_hash", None)
        values["units"] = units
        return clone

    def rotated(self, steps: int = 1) -> Position:
        """The whole position turned clockwise about ``c3`` (every hex and every facing)."""
        return replace(
            self,
            units=tuple(u.rotated(steps) for u in self.units),
            # a foundation has no facing: it is written and placed facing N (NOTATION §10.1)
            foundations=tuple(replace(f, hex=f.hex.rotated(steps)) for f in self.foundations),
            board=self.board.rotated(steps),
            terminals=tuple(h.rotated(steps) for h in self.terminals),
            terrain=tuple(e.rotated(steps) for e in self.terrain),
            turrets=tuple(t.rotated(steps) for t in self.turrets),
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
        found: list[Problem] = []
        units_at: dict[Hex, Unit] = {}
        foundations_at: dict[Hex, Unit] = {}
        hq_of: dict[str, Unit] = {}
        running: dict[str, int] = {}  # copies so far by tile key (every read checks this: keys hash in C, issue 15)

        def count_copy(tile: Tile, unit: Unit | None = None, hand: str | None = None) -> None:
            copies = running[tile.key] = running.get(tile.key, 0) + 1
            if copies == tile.count + 1:  # the first copy too many, reported once per tile
                total = sum(u.tile == tile for u in placed) + sum(t == tile for _, held in self.hands for t in held)
                found.append(Problem(ProblemKind.TOO_MANY_COPIES,
                                     f"{total} copies of {tile.key}, but the army has {tile.count}", unit, hand, tile))

        for unit in placed:
            found += self._unit_problems(unit, unit in foundations, units_at, foundations_at, hq_of)
            count_copy(unit.tile, unit)
        for army, tiles in self.hands:
            most = HAND_SIZE_REINFORCEMENT if self.rules.enabled("reinforcement") else HAND_SIZE
            if len(tiles) > most:
                found.append(Problem(ProblemKind.HAND_TOO_BIG, f"{army} holds {len(tiles)} tiles; a hand has at most {most}", hand=army))
            for t in tiles:
                count_copy(t, hand=army)
        return found

    def _unit_problems(self, unit: Unit, is_foundation: bool, units_at: dict[Hex, Unit],
                       foundations_at: dict[Hex, Unit], hq_of: dict[str, Unit]) -> list[Problem]:
        """What is wrong with one line, given the lines before it (recorded in the three maps)."""
        tile = unit.tile
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
        if self.terrain:  # Babel 13: Closed, Fatal, Jungle, Swamp, a Tight Bunker (solver/abilities/terrain_turn.py)
            from .abilities.terrain_turn import standing_problem

            problem = standing_problem(self, unit)
            if problem is not None:
                found.append(Problem(ProblemKind.TERRAIN, f"{unit.hex.label} {tile.key}: {problem}", unit))
        if unit.is_hq:
            if unit.wounds:
                found.append(Problem(ProblemKind.WOUNDS_ON_HQ, f"{unit.hex.label} {tile.key}: an HQ has no wound markers; write its health as hp=", unit))
            if not 1 <= unit.health <= HQ_HEALTH:
                found.append(Problem(ProblemKind.BAD_HP, f"{unit.hex.label} {tile.key}: HQ health must be 1 to {HQ_HEALTH}, not {unit.health}", unit))
            if unit.army in hq_of:
                found.append(Problem(ProblemKind.SECOND_HQ, f"{unit.army} already has an HQ on {hq_of[unit.army].hex.label}", unit))
            hq_of.setdefault(unit.army, unit)
        elif unit.wounds >= tile.health and unit.wounds > position_toughness(self, unit):
            found.append(Problem(ProblemKind.WOUNDS_KILL, f"{unit.hex.label} {tile.key}: {unit.wounds} wound{'s' if unit.wounds != 1 else ''} would already kill it (it dies at {position_toughness(self, unit) + 1})", unit))
        return found

    def __str__(self) -> str:
        from .notation.text import write_position

        return write_position(self)


_FIELD_NAMES = tuple(f.name for f in fields(Position))
#: How ``Position.__post_init__`` puts the units, foundations, hands and decks in canonical order (units by hex), so
#: that two positions with the same contents are equal however they were built.
_FIELD_ORDER: dict[str, Callable[[tuple], tuple]] = {
    "units": lambda units: tuple(sorted(units, key=_unit_order)),
    "foundations": lambda foundations: tuple(sorted(foundations, key=_unit_order)),
    "hands": lambda hands: tuple(sorted(hands)),
    "decks": lambda decks: tuple(sorted(decks)),
}
#: How ``Position._order_additions`` puts each NOTATION §10 field in canonical order. 0 Energy and 0 points are the
#: defaults and are not kept, as the reader does not keep them.
_ADDITION_ORDER: dict[str, Callable[[tuple], tuple]] = {
    "terminals": lambda hexes: label_order(tuple(set(hexes))),
    "energy": lambda energy: tuple(sorted((a, n) for a, n in energy if n)),
    "terrain": lambda terrain: tuple(sorted(terrain, key=lambda e: e.hexes)),
    "turrets": lambda turrets: tuple(sorted(turrets, key=lambda t: t.hex)),
    "held_prizes": lambda held: tuple(sorted((a, prize_order(p)) for a, p in held)),
    "teams": lambda teams: tuple(sorted(tuple(sorted(team)) for team in teams)),
    "scores": lambda scores: tuple(sorted((a, n) for a, n in scores if n)),
}


def _unit_order(unit: Unit) -> tuple[int, int, str]:
    return (unit.hex.q, unit.hex.r, unit.tile.key)


def _gives_toughness(tile: Tile) -> bool:
    module = tile.module
    return module is not None and module.type == "toughness-bonus"


def position_toughness(position: Position, unit: Unit) -> int:
    """The unit's toughness counting every bonus the position itself gives it (NOTATION §10.1 Wounds): its
    printed toughness, +N from each module linked to it that gives ``toughness-bonus`` (the New York HQ, B13: to
    the units its controller controls, a unit Vegas took over being Vegas's; lost while that HQ is netted; read
    as the battle reads the links, :func:`solver.engine.effects.toughness_bonuses`), +1 on a Fortress hex (B13 FORTRESS; never for HQs), +1 for a First
    Aid Kit prize (B13 PRIZE MARKERS). A unit dies when its wounds exceed this number."""
    toughness = unit.tile.toughness
    if unit.is_hq:
        return toughness
    if unit.hex in position.board and any(_gives_toughness(u.tile) for u in position.units):
        from .engine.effects import toughness_bonuses  # the links are derived from the whole position

        toughness += toughness_bonuses(position).get(unit.hex, 0)
    if any(unit.hex in element.hexes and element.has("fortress") for element in position.terrain):
        toughness += 1
    if "first-aid-kit" in unit.prizes:
        toughness += 1
    return toughness


# --- actions (NOTATION §5): solver/action_values.py, loaded on first use -------------------------------------
#: The action values this module lends from solver/action_values.py.
_ACTIONS = frozenset({"Action", "BuyEnergy", "Discard", "Draw", "Move", "Pass", "Place", "PlaceHQ", "Procedure",
                      "Push", "PutPrize", "Use"})


def __getattr__(name: str) -> object:
    """``Place``, ``Move`` … (solver/action_values.py), imported on their first use, not by every start."""
    if name in _ACTIONS:
        from . import action_values

        return getattr(action_values, name)
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")


#: Duel-board procedures (NOTATION §10.2): hexes, facings and Energy cost.
PROCEDURES: dict[str, tuple[int, int, int]] = {
    "rotation": (1, 1, 1), "swap": (2, 2, 2), "push": (3, 0, 2), "laser": (2, 0, 3), "erase": (1, 0, 3),
    "detonation": (0, 0, 4),
}
#: Sources of a free move the notation knows (NOTATION §5, §10.2-10.4); ``by mobility`` is the default.
MOVE_SOURCES = ("mobility", "hq", "transport", "takeover", "dismal", "control-panel")
#: Sources whose move is a rotation in place: ``TO`` = ``FROM``, and the new facing is written.
ROTATION_SOURCES = ("takeover", "control-panel")
#: Instants whose hexes are unordered, written in label order (NOTATION §10.1).
UNORDERED_INSTANTS = frozenset({"small-bomb", "castling"})

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
