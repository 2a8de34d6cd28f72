"""The enumeration of a puzzle card's turn: every state the player can reach, as a graph (NOTATION §6).

From the card's position the player may, in any order, place board tiles from the offer, use instant tiles from it
and make the free moves the board grants (Mobility, Transport, HQ abilities), using at most ``play N`` offered
tiles, and stop at any moment. The reachable states form a graph; a state is the position (facings normalised,
below) plus what is left to do, so every state is expanded once however many orders lead to it (a
transposition table: :class:`Enumerator` interns each state). Runs of consecutive placements are enumerated as
one assignment problem with python-constraint (distinct empty hexes, one facing per distinct set of effective
edges). The normal forms that tell plays apart (:func:`effective_key`, :func:`play_identity`) are here too.

The search as a whole is :mod:`solver.search.solve`; what follows the turn is :mod:`solver.search.evaluation`, the
AND-OR decision :mod:`solver.search.decision`, the bound that prunes states :mod:`solver.search.bound`.
"""

from __future__ import annotations

import gc
import itertools
import time
from collections import Counter
from contextlib import contextmanager
from dataclasses import dataclass, field, replace
from functools import cache
from types import ModuleType
from typing import Any, Callable, Iterable, Iterator, Sequence, TypeGuard

from constraint import AllDifferentConstraint, Problem

from ..engine import points as hooks
from ..notation.cards import Puzzle
from ..errors import IllegalAction
from ..hexes import Direction, Hex
from ..position import Action, Discard, Move, Place, Position, Procedure, Unit, Use
from ..tiles import Kind, Tile
from .evaluation import goal_hexes

# --- normal forms ---------------------------------------------------------------------------------------------------

#: An icon that can act, as :func:`effective_edges` keeps it: its name, with its strength or its specials.
_Icon = tuple[str] | tuple[str, int] | tuple[str, frozenset[str]]


@cache
def _representative(tile: Tile, facing: Direction) -> Direction:
    """The facing that stands for every facing giving the tile the same edges (NOTATION: duals)."""
    from ..turns.actions import distinct_facings

    edges = tile.oriented(facing).edges
    return next(f for f in distinct_facings(tile) if tile.oriented(f).edges == edges)


def normalised(position: Position) -> Position:
    """The position with every unit's facing replaced by its class representative."""
    units = position.units
    if all(_representative(u.tile, u.facing) == u.facing for u in units):
        return position
    # Only facings change, so the units stay in board order: no sorting.
    return position.with_units_in_order(tuple(
        u if _representative(u.tile, u.facing) == u.facing else replace(u, facing=_representative(u.tile, u.facing))
        for u in units))


def _turn_of(position: Position, hands: tuple, to_move: str | None) -> Position:
    """``position.replaced(hands=hands, to_move=to_move)`` for ``hands`` taken from another position (so already
    in canonical order), keeping the position's lookup by hex, which the units it keeps still fit: the turn rules
    read it for every action the enumeration lists from the clone."""
    clone = object.__new__(Position)
    clone.__dict__.update({k: v for k, v in position.__dict__.items() if k not in ("_hash",)})
    object.__setattr__(clone, "hands", hands)
    object.__setattr__(clone, "to_move", to_move)
    return clone


def effective_edges(position: Position, unit: Unit, scoper: bool = False) -> tuple:
    """The unit's icons that can act in this position, by absolute direction; the others are blank.

    A blow or a net needs an enemy on the adjacent hex, a link a unit its module can affect (a friend; an
    enemy for a Saboteur; any unit while a Scoper is on the board); a shot, beam or armor an enemy somewhere
    on that line. Nothing enters a hex or a line during a battle, so a facing change that only turns icons
    towards nothing changes no battle: two plays that differ only so are duals ("facings that give a tile
    the same effective edges", issue 5).
    """
    armies = {u.hex: u.army for u in position.units}
    return _effective_edges(_lines(position.board), armies.get, unit, scoper)


def _effective_edges(lines_by_hex: dict, army_at: Callable[[Hex], str | None], unit: Unit, scoper: bool) -> tuple:
    """:func:`effective_edges` with the board's lines and the army on each hex looked up once per position."""
    module = unit.tile.module
    links_enemies = module is not None and module.target == "enemy"
    army = unit.army
    lines = lines_by_hex[unit.hex]
    icons: list[tuple[_Icon, ...] | None] = [None] * 6
    for d, kept in _active(unit.oriented):
        # The army of the first unit on the line if it stands on the adjacent hex, and whether an enemy is on
        # the line: the scan stops at the first enemy (nothing beyond it changes what the edge keeps).
        near: str | None = None
        far_enemy = False
        first = True
        for h in lines[d]:
            other = army_at(h)
            if other is not None:
                if first:
                    near = other
                if other != army:
                    far_enemy = True
                    break
            first = False
        near_enemy = near is not None and near != army
        link = near is not None and (scoper or near_enemy == links_enemies)
        icons[d] = kept[near_enemy, link, far_enemy]
    return tuple(icons)


#: :func:`_active` per oriented tile, by identity: a tile's Oriented values are made once per facing and kept.
_ACTIVE: dict[int, tuple[Any, tuple]] = {}


def _active(oriented: Any) -> tuple:
    """The non-blank edges of an oriented tile, each with what it keeps in each of the 8 situations of its line
    (an enemy adjacent, a unit its link can affect, an enemy on the line)."""
    found = _ACTIVE.get(id(oriented))
    if found is None or found[0] is not oriented:
        table = tuple((d, {(a, b, c): _kept(edge, a, b, c) for a in (False, True) for b in (False, True)
                           for c in (False, True)})
                      for d, edge in enumerate(oriented.edges) if not edge.is_blank)
        found = _ACTIVE[id(oriented)] = (oriented, table)
    return found[1]


@cache
def _lines(board: Any) -> dict[Hex, tuple[tuple[Hex, ...], ...]]:
    """Every hex's six lines of fire on a board, by direction index (looked up once per board)."""
    return {h: tuple(board.line_of_fire(h, d) for d in Direction) for h in board}


def _kept(edge: Any, near_enemy: bool, link: bool, far_enemy: bool) -> tuple[_Icon, ...] | None:
    """The icons of one edge that can act, given what stands on its line (see :func:`effective_edges`)."""
    kept: list[_Icon] = []
    if edge.melee and near_enemy:
        kept.append(("melee", edge.melee))
    if edge.net and near_enemy:
        kept.append(("net",))
    if edge.link and link:
        kept.append(("link",))
    if edge.ranged and far_enemy:
        kept.append(("ranged", edge.ranged))
    if edge.armor and far_enemy:
        kept.append(("armor",))
    if edge.special and far_enemy:
        kept.append(("special", edge.special))
    return tuple(kept) or None


def play_identity(position: Position) -> tuple:
    """What tells two plays apart: the end position's effective key and whose turn follows (issue 5: order and
    inert facings make duals, not cooks). The solver and the generator both use it."""
    return (effective_key(position), position.to_move)


def remembered_play_identity(cache: dict[Position, Identity] | None = None) -> Callable[[Position], Identity]:
    """:func:`play_identity`, remembered per position for one search (it is asked about each end many times), in
    ``cache`` if given (the enumeration writes there the identities of the ends it makes: :meth:`Enumerator.completions`)."""
    if cache is None:
        cache = {}

    def identity(position: Position) -> Identity:
        found = cache.get(position)
        if found is None:
            found = cache[position] = Identity(play_identity(position))
        return found

    return identity


class Identity:
    """A play identity (:func:`play_identity`'s tuple) that computes its hash once: the decision puts each end's
    identity in sets and tables many times, and a tuple of tuples hashes all of its parts each time. Equal to the
    plain tuple, with its hash. Not a tuple subclass with the hash in its ``__dict__``: a big card keeps hundreds of
    thousands, and such a dictionary took four times the object (bench/scale-play3)."""

    __slots__ = ("value", "_hash")

    def __init__(self, value: tuple) -> None:
        self.value = value
        self._hash = hash(value)

    def __hash__(self) -> int:
        return self._hash

    def __eq__(self, other: object) -> bool:
        if isinstance(other, Identity):
            return self._hash == other._hash and self.value == other.value
        return self.value == other

    def __repr__(self) -> str:
        return f"Identity({self.value!r})"


def _besides_units(position: Position) -> tuple:
    """Everything of a position but its units (hands, decks, foundations, Energy, terrain, scores...): two ends
    are played out as one only when all of this is equal too, whatever the play identity leaves out."""
    return (position.board, position.rules, position.to_move, position.hands, position.decks, position.foundations,
            position.terminals, position.energy, position.terrain, position.turrets, position.held_prizes,
            position.teams, position.mode, position.scores)


def evaluation_key(identity: Callable[[Position], object], state: "State", battles: int) -> tuple:
    """What decides the value of an end of the turn: its play identity, the rest of the position, the goal's
    watched units and the battles that follow. Ends with one key are played out once (solver and generator)."""
    return evaluation_key_of(identity, state.position, state.watched, battles)


def evaluation_key_of(identity: Callable[[Position], object], position: Position, watched: tuple,
                      battles: int) -> tuple:
    """:func:`evaluation_key` of an end given by its position (a completion of a state: Enumerator.completions)."""
    return (identity(position), _besides_units(position), watched, battles)


def effective_key(position: Position) -> tuple:
    """What decides every battle on the board: units with their effective edges instead of their facings."""
    edges = _edge_reader(position)
    key: tuple = tuple((u.hex, u.tile.key, u.wounds, u.hp, u.army, edges(u), u.prizes, u.venom)
                       for u in position.units)
    if position.turrets or position.held_prizes:  # Babel 13: a Turret's facing, the Prize markers still held
        key += ((position.turrets, position.held_prizes),)
    return key


#: An army no unit has: on a board where anyone may be either side, every unit is read as this one's.
_EITHER_SIDE = "\0either side"


def _edge_reader(position: Position) -> Callable[[Unit], tuple]:
    """How :func:`effective_key` reads a unit's effective edges on this board (any facing of a unit of it): the plain
    line test, or the wide one where expansion rules reach further (:func:`_wide_reader`).

    Where a takeover is the only widening, the wide reading is the plain test with every unit on the board read as
    an enemy of every other and as one any link affects (:func:`_wide_reader`, ``takeover``): made so
    from the plain test's tables, which are several times faster."""
    lines = _lines(position.board)
    scoper = any(u.tile.module is not None and u.tile.module.type == "take-over-enemy-modules"
                 for u in position.units)
    wide = _widened(position)
    if wide is None:
        army_at = {u.hex: u.army for u in position.units}.get
        return lambda unit: _effective_edges(lines, army_at, unit, scoper)
    if wide == _TAKEOVER_ONLY:
        either = dict.fromkeys((u.hex for u in position.units), _EITHER_SIDE).get
        return lambda unit: _effective_edges(lines, either, unit, True)
    return _wide_reader(position, lines, scoper, wide)


#: Edge specials whose facing matters whatever stands on their line: a rocket's path bends (B13 NEW YORK, Rocket
#: Launcher), a redirector's entrance and exits and a Trap's marked side act on shots coming from anywhere.
_ALWAYS_ACTIVE = frozenset({"rocket", "redirect-entrance", "redirect-exit", "trap-trigger"})


@cache
def _widenings(tile: Tile) -> frozenset[str]:
    """The rules a tile brings that reach past the plain line test of :func:`effective_edges`
    (:func:`_wide_reader` says what each keeps)."""
    found = set(tile.abilities & {"redirect", "spy"})
    module = tile.module
    if module is not None:
        if module.type == "melee-counts-as-ranged":
            found.add("quartermaster")
        if (module.reach or 1) > 1:
            found.add("reach")
        if module.type == "control-takeover":
            found.add("takeover")
    if any(edge.special & _ALWAYS_ACTIVE for edge in tile.edges or ()):
        found.add("always-active")
    return frozenset(found)


_TAKEOVER_ONLY = frozenset({"takeover"})


def _widened(position: Position) -> frozenset[str] | None:
    """The rules on this board that make an icon act beyond the plain line test (None: none does)."""
    found = frozenset().union(*(_widenings(u.tile) for u in position.units))
    if position.teams:
        found |= {"teams"}
    return found or None


def _wide_reader(position: Position, lines_by_hex: dict, scoper: bool, wide: frozenset[str]
                 ) -> Callable[[Unit], tuple]:
    """:func:`effective_edges` where expansion rules reach further, for any unit (any facing) of one position; each
    widening keeps more icons, never fewer. What the widenings ask is read once per position, and each line walked
    once per edge (a draft of the generator against the Doomsday Machine asks this of hundreds of thousands of
    units).

    A Quartermaster may turn a melee attack into a ranged one (PL Kwatermistrz): a melee icon acts on any enemy on
    its line. A friendly shot entering a redirector turns (RULINGS 50): a shot or beam acts towards a redirector
    too. A module of reach 2 (RULINGS 54) links over the first hex to the second. A Spy takes the bonus of an enemy
    module or HQ whose link points at it (RULINGS 35); in team play an ally is a different army that modules may
    help: a link towards any unit is kept then. Rocket, redirector and Trap edges are always kept.

    A takeover (the Vegas HQ, an Agitator) decides who is an enemy from facings, and changes it inside a battle:
    a unit is released the moment its taker dies or is netted (PL VEGAS, Sztab: "Jednostka jest przejęta dopóty,
    dopóki jest przyłączona przez Sztab Vegas", a unit stays taken only while linked; RULINGS 17). So on its
    board every unit may be either side: each icon towards any unit is kept (a blow, net or link towards an
    adjacent unit, a shot or armor along a line holding one). Only icons towards nothing are blank, as
    everywhere: nothing enters a hex or a line during a battle."""
    at = position._by_hex.get
    takeover, teams = "takeover" in wide, "teams" in wide
    turning_melee, redirecting, spying = "quartermaster" in wide, "redirect" in wide, "spy" in wide

    def edges(unit: Unit) -> tuple:
        module = unit.tile.module
        links_enemies = module is not None and module.target == "enemy"
        reach = (module.reach or 1) if module is not None else 1
        army = unit.army
        lines = lines_by_hex[unit.hex]
        oriented = unit.oriented
        icons: list[tuple[_Icon, ...] | None] = [None] * 6
        for d, _ in _active(oriented):  # the non-blank edges
            edge = oriented.edges[d]
            near: Unit | None = None
            far_enemy = redirector = close = False
            for i, h in enumerate(lines[d]):
                other = at(h)
                if other is None:
                    continue
                if i == 0:
                    near = other
                if i < reach:
                    close = True
                if takeover or other.army != army:
                    far_enemy = True
                if redirecting and "redirect" in other.tile.abilities:
                    redirector = True
            near_enemy = near is not None and (takeover or near.army != army)
            link = close if reach > 1 else False
            if near is not None and (scoper or near_enemy == links_enemies or teams or takeover
                                     or (spying and "spy" in near.tile.abilities)):
                link = True
            kept: list[_Icon] = []
            if edge.melee and (near_enemy or (turning_melee and far_enemy)):
                kept.append(("melee", edge.melee))
            if edge.net and near_enemy:
                kept.append(("net",))
            if edge.link and link:
                kept.append(("link",))
            if edge.ranged and (far_enemy or redirector):
                kept.append(("ranged", edge.ranged))
            if edge.armor and far_enemy:
                kept.append(("armor",))
            if edge.special and (far_enemy or redirector or edge.special & _ALWAYS_ACTIVE):
                kept.append(("special", edge.special))
            icons[d] = tuple(kept) or None
        return tuple(icons)

    return edges


# --- the state graph -------------------------------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)  # slots: a big card's graph holds half a million states (bench/scale-play3)
class State:
    """A moment of the player's turn."""

    position: Position
    hand: tuple[Tile, ...]  # offered tiles not yet used, sorted by key
    played: int
    used: frozenset  # the free moves taken this turn (actions.Spent)
    after_batch: bool  # the last step placed tiles: the next one may not be another placement run
    watched: tuple[tuple[Hex, Hex | None], ...]
    battles_done: int = 0  # battles the play caused by filling the board
    over: bool = False  # the turn has ended (a Battle tile, a full board)
    placed: frozenset[Hex] = frozenset()  # the hexes the last step placed tiles on (after_batch only)
    #: The player's units whose facing is still to be chosen (deferred facings, :class:`Enumerator`): each stands in
    #: the position in a placeholder facing, and the ends of the turn choose it (:meth:`Enumerator.completions`).
    free: frozenset[Hex] = frozenset()
    #: Of those, the units whose facing the player chose before the opponent answered an instant this turn (where a
    #: pushed unit goes, how the wounded side uses its Medics): a turn on the spot after the answer may face such a
    #: unit differently on each branch, so it is listed for them (:meth:`Enumerator._plain_results`).
    turnable: frozenset[Hex] = frozenset()
    #: The hash, worked out once: the search keys several tables by states, a million times on a big card (the
    #: fields never change). Not part of the state's value.
    _hash: int | None = field(default=None, init=False, repr=False, compare=False)

    def __hash__(self) -> int:
        cached = self._hash
        if cached is None:
            cached = hash((self.position, self.hand, self.played, self.used, self.after_batch, self.watched,
                           self.battles_done, self.over, self.placed, self.free, self.turnable))
            object.__setattr__(self, "_hash", cached)
        return cached


def _takes_over(tile: Tile) -> bool:
    """Whether a tile takes enemy units over (the Vegas HQ, an Agitator: RULINGS 18)."""
    return tile.module is not None and tile.module.type == "control-takeover"


#: Steps cut before their states were made (:meth:`Enumerator.placement_runs`, :meth:`Enumerator.instants`): how
#: many, per kind (``"run"``, a placement run; ``"use"``, a use of an instant tile), the tiles played after them and
#: their margin bound.
StepsCut = tuple[tuple[tuple[str, int, int], int], ...]

#: No hexes: one object for the cores' (:meth:`Enumerator.steps`; every ``frozenset()`` is a new object).
_NO_HEXES: frozenset = frozenset()
#: The fields of a state that are sets (:meth:`Enumerator._interned`).
_STATE_SETS = ("used", "placed", "free", "turnable")
_STATE_FIELDS = ("position", "hand", "played", "used", "after_batch", "watched", "battles_done", "over", "placed",
                 "free", "turnable")


def _next(state: State, **changes: Any) -> State:
    """``dataclasses.replace`` for a state, without its checks (the enumeration makes one per action)."""
    return State(**{**{name: getattr(state, name) for name in _STATE_FIELDS}, **changes})


@dataclass(frozen=True, slots=True)  # slots: a big card's graph holds a million steps (bench/scale-play3)
class Step:
    """One edge of the graph: the player's action, and what it leads to for each answer of the opponent."""

    action: tuple[str, ...]  # canonical action lines (a placement run names several)
    branches: tuple[tuple[str, State], ...]  # (the opponent's choice, or "", next state)
    #: Per action line, the hex (in the next state) of the unit whose deferred facing ends that line, or None: the
    #: line carries a placeholder facing until the end of the turn chooses it (see :func:`resolve`). Empty: none.
    fill: tuple[Hex | None, ...] = ()


@dataclass
class Graph:
    root: State
    steps: dict[State, list[Step]] = field(default_factory=dict)


def _sorted_hand(tiles: Iterable[Tile]) -> tuple[Tile, ...]:
    return tuple(sorted(tiles, key=lambda t: t.key))


def _without(hand: tuple[Tile, ...], used: Iterable[Tile]) -> tuple[Tile, ...]:
    left = list(hand)
    for t in used:
        left.remove(t)
    return tuple(left)


def _respent(used: frozenset, source: Hex, target: Hex) -> frozenset:
    """The free moves taken this turn after a unit went from ``source`` to ``target`` (``actions.spend``): its
    entries follow it, and entries left on ``target`` by a unit gone from there are dropped."""
    if not used:
        return used
    from ..turns.actions import Spent

    kept = set()
    for s in used:
        if s.hex == target and source != target:
            continue
        kept.add(Spent(target if s.hex == source else s.hex, s.source, target if s.giver == source else s.giver))
    return frozenset(kept)


def _still(before: Unit | None, after: Unit | None) -> bool:
    """Whether the unit on a hex is still the one there before an action (wounds aside)."""
    return before is not None and after is not None and after.tile == before.tile and after.facing == before.facing


def _refreed(free: frozenset[Hex], source: Hex, target: Hex, freed: bool) -> frozenset[Hex]:
    """The deferred units after one moved from ``source`` to ``target`` (its facing deferred there if ``freed``)."""
    if not free and not freed:
        return free
    free = free - {source}
    return free | {target} if freed else free


def _follow(watched: tuple[tuple[Hex, Hex | None], ...], source: Hex, target: Hex) -> tuple:
    return tuple((goal_hex, target if now == source else now) for goal_hex, now in watched)


#: The instants that leave deferred facings sound: none reads a facing, and none moves a unit of the player's (a
#: Push Back moves an enemy; the Move tile is listed by :meth:`Enumerator.plain_moves`, which defers the facing).
_DEFERRING_INSTANTS = frozenset({"move", "push-back", "battle", "sniper", "grenade", "air-strike"})
#: The instants whose results the opponent chooses among (where a pushed unit goes; how the wounded side uses its
#: Medics): after one, the player may turn a unit differently on each branch (:attr:`State.turnable`).
_ANSWERED_INSTANTS = frozenset({"push-back", "sniper", "grenade", "air-strike"})
#: Every facing: what a deferred facing may still be where nothing will read it (a unit moved on, or killed).
ANY_FACING = frozenset(Direction)

#: One way to end the turn in a state with deferred facings: the position with each such unit in one facing, and
#: for each unit (by hex) every facing that gives it the same effective edges there (see :func:`resolve`).
Completion = tuple[Position, tuple[tuple[Hex, frozenset[Direction]], ...]]


class FacingClass:
    """One class of facings of a deferred unit where it stands (see :meth:`Enumerator.completions`): the facings that
    give it the same effective edges there, the one a line writes, the unit's entry in the play identity, and the
    unit turned so, made once per position and deferred units (a big card makes millions of ends of a few such
    classes)."""

    __slots__ = ("hex", "facing", "facings", "entry", "unit", "open")

    def __init__(self, hex_: Hex, facing: Direction, facings: frozenset[Direction], entry: tuple, unit: Unit) -> None:
        self.hex = hex_
        self.facing = facing
        self.facings = facings
        self.entry = entry
        self.unit = unit
        self.open = (hex_, facings)  # what a line from an end of this class leaves open to the unit (resolve)


#: Module effects read by the battles alone: no turn rule reads their links (the Recon Center's longer move, a
#: Transport's, the Scoper's capture, a Medic absorbing an instant's wound and a toughness bonus against one are).
_BATTLE_ONLY_MODULES = frozenset({"melee-bonus", "ranged-bonus", "melee-and-ranged-bonus", "initiative-bonus",
                                  "strength-and-initiative-bonus", "melee-and-initiative-bonus", "extra-initiative"})


@cache
def deferrable(tile: Tile) -> bool:
    """Whether a tile's facing may be deferred (:attr:`Enumerator.defer`): a warrior without nets, links, specials or
    abilities other than Mobility, or a module whose effect only the battles read (its links alone), whose six
    facings all look different (a facing written in a line is then the least of its class, as the naive search,
    which lists every facing, writes it)."""
    from ..turns.actions import distinct_facings

    edges = tile.edges or ()
    if len(distinct_facings(tile)) != 6 or any(edge.net or edge.special for edge in edges):
        return False
    if tile.kind is Kind.WARRIOR:
        return tile.module is None and tile.abilities <= {"mobility"} and not any(edge.link for edge in edges)
    return (tile.kind is Kind.MODULE and tile.module is not None and tile.module.type in _BATTLE_ONLY_MODULES
            and not tile.abilities and not any(edge.melee or edge.ranged or edge.armor for edge in edges))


def least_facing(facings: frozenset[Direction]) -> Direction:
    """The facing a line writes for a class of facings: the least by its name, as the least line names it."""
    return min(facings, key=lambda f: f.name)


def with_facing(line: str, facing: Direction) -> str:
    """An action line whose last word, a placeholder facing (placement, move), is written as ``facing``."""
    return line.rsplit(" ", 1)[0] + " " + facing.name


def resolve(step: Step, parent: State, child: State, line: tuple[str, ...],
            assignment: tuple[tuple[Hex, frozenset[Direction]], ...]
            ) -> tuple[tuple[str, ...], tuple[tuple[Hex, frozenset[Direction]], ...]]:
    """``step`` prepended to a line from ``child``: the step's placeholder facings written from ``assignment`` (the
    facings still open to each deferred unit of ``child`` for the line's ends), and the facings open to the deferred
    units of ``parent`` in turn. A unit the step moves on, or a unit gone from ``child``, may face any way in
    ``parent``: nothing reads that facing. (Facings closed by the opponent's answers: :func:`decision._common`.)"""
    if not parent.free and not step.fill:
        return step.action + line, ()
    open_ = dict(assignment)
    texts = list(step.action)
    for index, hex_ in enumerate(step.fill):
        if hex_ is not None:
            texts[index] = with_facing(texts[index], least_facing(open_.get(hex_, ANY_FACING)))
    filled = set(step.fill)
    kept = tuple(sorted(((h, open_[h] if h in child.free and h not in filled and h in open_ else ANY_FACING)
                         for h in parent.free), key=lambda item: item[0].label))
    turned = filled & parent.free
    if turned:
        # A unit deferred already and filled where it stands: a turn on its hex after the opponent's answer
        # (State.turnable). It writes the facing it turns to, and is a turn only from a facing outside that one's
        # class: the facing before it is one of the others (none left: the turn changes nothing, and is no line).
        kept = tuple((h, ANY_FACING - open_.get(h, ANY_FACING) if h in turned else facings) for h, facings in kept)
    return tuple(texts) + line, kept


@dataclass
class ListingMemo:
    """What an :class:`Enumerator` remembers while it lists a card's turn, all of it a function of the card: a later
    search of the same card (the solver's tries) takes it up whole (:meth:`Enumerator.share_listing`) and lists only
    what the earlier one did not. A table added here is shared with the others."""

    #: The steps of each core (:meth:`Enumerator.core_steps`), the placement runs among them, their sources and the
    #: steps cut before they were made.
    cores: dict[State, tuple[list[Step], int, list[Hex | None], StepsCut]] = field(default_factory=dict)
    #: One object per distinct state (states are compared by value; the decision keys its tables by identity).
    states: dict[State, State] = field(default_factory=dict)
    #: The units a Move tile or Mobility may move in a position (:meth:`Enumerator._plain_movers`), and how far.
    movers: dict[tuple[Position, Tile | None], list[Unit]] = field(default_factory=dict)
    reach: dict[tuple[Position, Tile | None], int] = field(default_factory=dict)
    #: Where one unit may go in a position, and what each move gives (:meth:`Enumerator._plain_results`).
    plain: dict[tuple[Position, Hex, Tile | None, bool, bool], list[tuple[Hex, str, Position, bool, bool]]] = field(
        default_factory=dict)
    #: One object per distinct position made: the states', their ends' (states that share a position share its ends)
    #: and the moves' results (:meth:`Enumerator._plain_results`), which are the positions of states met before.
    positions: dict[Position, Position] = field(default_factory=dict)
    #: The ends of stopping, per what :meth:`Enumerator.completions` reads of a state (its position, its deferred
    #: units, the battles done, whether the bound cuts): the ends, how many were cut and their margin bound.
    completions: dict[tuple, tuple[tuple[Completion, ...], int, int | None]] = field(default_factory=dict)
    #: One object per distinct set of hexes or free moves held by a state (each set is an object of 216 bytes or
    #: more, the empty one too, and the states of a big card hold a million of them: bench/scale-play3).
    sets: dict[frozenset, frozenset] = field(default_factory=dict)
    #: One object per distinct action text of a step (:meth:`Enumerator.core_steps`).
    texts: dict[tuple[str, ...], tuple[str, ...]] = field(default_factory=dict)
    #: The same for the hexes a step's lines leave a deferred facing to (:attr:`Step.fill`).
    fills: dict[tuple[Hex | None, ...], tuple[Hex | None, ...]] = field(default_factory=dict)
    #: One object per distinct unit entry of an end's play identity (:meth:`Enumerator._facing_classes`): the ends of
    #: a big card hold millions, of a few thousand distinct values.
    entries: dict[tuple, tuple] = field(default_factory=dict)


class Enumerator:
    """Builds the graph of everything the player can do this turn."""

    def __init__(self, puzzle: Puzzle, *, naive: bool = False, actions_module: ModuleType | None = None,
                 bound: bool = False, free_facings: bool = False) -> None:
        from ..turns import actions  # the turn rules: legal instants and free moves, and what they do

        self.actions = actions_module or actions
        self.puzzle = puzzle
        self.player = puzzle.player
        self.limit = puzzle.tiles_to_play
        self.naive = naive
        # Ability families acting between battles (a Mine, the Smart HQ, a takeover, the Transporter): their
        # placements and free moves go through the turn rules instead of the fast paths below.
        from ..engine import points as hooks
        tiles = {u.tile for u in puzzle.position.units} | {f.tile for f in puzzle.position.foundations}
        # A family that acts on nothing in this turn (the opponent's HQ's grant or Pusher, the New York HQ's point
        # with no unit living by it: Ability.quiet_in_turn) is left out.
        points = hooks.acting_in_turn(hooks.turn_points_of(frozenset(tiles | set(puzzle.offer))), puzzle.position,
                                      self.player, puzzle.offer)
        self.families = bool(points.turn_actions or points.arrived or points.spent)
        #: Whether a takeover may give the opponent a turn during the player's (:meth:`opponent_turns`): only with a
        #: tile that takes units over on the board or in the offer (no other tile comes into play this turn).
        self.takeovers = any(_takes_over(t) for t in tiles | set(puzzle.offer))
        # Whether a unit just placed may be spared its free move (see :meth:`free_moves`): only on a plain board,
        # where nothing but Mobility and a Transport moves units and nothing acts on arrival. The features checked
        # are those of the card's position: a turn adds none of them without a family (which turns this off).
        # Of the families, only the HQs' pure moves qualify (the Doomsday HQ's rotation, the Smart HQ's move: a
        # turn or a move of an own unit, with nothing on arrival but the ground's rules, which are excluded here).
        from ..abilities.doomsday_hq import DoomsdayHQRotation
        from ..abilities.smart import SmartHQ
        start = puzzle.position
        plain_families = not points.arrived and all(
            isinstance(family, (DoomsdayHQRotation, SmartHQ)) for family in points.turn_actions + points.spent)
        self.spare_placed = not (naive or not plain_families or start.foundations or start.terrain
                                 or start.held_prizes or start.terminals or start.teams or start.turrets
                                 or any("mobility" in u.prizes for u in start.units))
        #: Whether Mobility moves and the Move tile may be listed by :meth:`plain_moves` instead of through the
        #: turn rules: on the same plain boards, and with no ability family acting between battles at all, moving
        #: a unit does nothing but move it (a Transport on the board is checked per state). --naive keeps the
        #: general path, so the test comparing the two searches compares the fast path with the rules too.
        self.plain = self.spare_placed and not self.families
        #: The same boards where the only families are those HQs' moves: Mobility moves are listed as on a plain
        #: board, and the families' moves by the families (see :meth:`_free_move_steps`).
        self.plain_families = self.spare_placed and self.families
        #: Deferred facings (asked for by the solver; ``free_facings``): on a plain board, the facing of one of the
        #: player's warriors whose icons are blows, shots and armor only, or of a module whose links only battles
        #: read, is read by nothing the turn does (the turn rules read facings only where a unit moves, and the
        #: links of a few modules: those are left out, as nets are), only by the battles after it.
        #: Such a warrior placed, or moved to another hex (a move turns it freely), stands in a placeholder facing
        #: and its facing is chosen at the end of the turn, one facing per set of effective edges there: six states
        #: per unit and per step fewer, and the same ends (tests/test_search_bound.py holds the search to --naive).
        #: Only the base instants, which move no unit of the player's and read no facing, may be offered.
        #: The Doomsday HQ's rotation only sets a facing: on a board whose only family acting between battles it is,
        #: facings are deferred too, where the opponent answers nothing in the turn (the rotation, listed through
        #: the family, would then be the one way to face a deferred unit differently on each branch).
        instants = {t.name for t in puzzle.offer if t.kind is Kind.INSTANT}
        rotation_only = self.plain_families and not instants & _ANSWERED_INSTANTS and all(
            isinstance(family, DoomsdayHQRotation) for family in points.turn_actions + points.spent)
        self.defer = (free_facings and (self.plain or rotation_only) and instants <= _DEFERRING_INSTANTS
                      and not self.actions.has_transport(puzzle.position)
                      and not any(t.module is not None and t.module.type == "grant-mobility" for t in puzzle.offer))
        #: Where :meth:`completions` writes the play identities of the ends it makes (the solver's table), if given.
        self.identities: dict[Position, Identity] | None = None
        #: perf_counter() time at which :meth:`build` gives up (raises _OutOfTime), checked between results,
        #: so that --max-time stops within a small fraction of a second even inside one big state's steps.
        self.deadline: float | None = None
        #: When the search began (perf_counter), with a deadline: see :meth:`reserve`.
        self.started: float | None = None
        #: The graph being built and the actions listed so far: kept when the build stops early, so that the
        #: report can say how far it got.
        self.graph: Graph | None = None
        self.listed = 0
        #: What the listing remembers (the steps of each core, the interned states, ...): a later search of the card
        #: takes it up (:meth:`share_listing`).
        self.memo = ListingMemo()
        #: The bound that prunes states from which no completion reaches the goal (:mod:`solver.search.bound`), when
        #: asked for (the solver does; the generator, which ranks failing plays too, does not): never with --naive,
        #: nor on a card the bound cannot read. The states it pruned are neither expanded nor played out (a losing
        #: state, as the decision reads a state it does not find).
        from .bound import HqBound, readable
        self.bound = HqBound(puzzle) if bound and not naive and readable(puzzle) else None
        #: The states it pruned, each with its margin bound.
        self.pruned: dict[State, int] = {}
        #: Which hopeless states and ends the bound may cut, by the state and its margin bound (None: every one):
        #: the solver's tries rank failing plays by margin and length, and keep some of them (see Solver.solve).
        #: It is given the tiles played (all it reads of a state: :meth:`completions` remembers its ends by those).
        self.may_cut: Callable[[int, int], bool] | None = None
        #: :meth:`completions` remembered under ``may_cut``: this search's own, not the listing's shared memo.
        self._cut_completions: dict[tuple, tuple[tuple[Completion, ...], int, int | None]] = {}
        #: Ends of states that the bound proved hopeless to stop in (:meth:`completions`), and per such state the
        #: highest margin bound of an end cut there.
        self.ends_cut = 0
        self.ends_cut_at: dict[State, int] = {}
        #: Placement runs, and uses of instant tiles, that the bound proved hopeless before their states were made
        #: (:meth:`placement_runs`, :meth:`instants`), and per state they were cut from, each margin bound of those
        #: with the fewest tiles played for it.
        self.runs_cut = 0
        self.uses_cut = 0
        self.steps_cut_at: dict[State, dict[int, int]] = {}
        #: Whether placement runs may be bounded before they are made (:meth:`HqBound.placements`): where a tile
        #: placed is its unit put on the hex and nothing else (no terrain, every family acting between battles
        #: declares so: :attr:`solver.engine.points.Ability.places_plainly`).
        self.bound_runs = (self.bound is not None and self.bound.placements_bounded() and not start.terrain
                           and all(family.places_plainly for family in
                                   points.turn_actions + points.turn_results + points.spent + points.arrived))

    def share_listing(self, other: Enumerator) -> None:
        """Take up ``other``'s remembered listing of the same card (the steps of each core, the interned states, the
        ends made, the bound's tables): a later search of the card (the solver's
        tries) lists only what the earlier one did not. What either search cut or stopped at is its own."""
        self.memo = other.memo
        if self.bound is not None and other.bound is not None:
            self.bound = other.bound

    def forget_listing(self) -> None:
        """Drop what the listing remembered (:class:`ListingMemo`) and the bound's tables, once the graph is listed
        and no later search of the card will take them up (:meth:`share_listing`): the graph keeps what it needs,
        and the decision that follows reuses the memory (bench/scale-play3: 0.3 s, and some 150 MB it would add)."""
        self.memo = ListingMemo()
        self.bound = None

    def completions(self, state: State, bounded: bool = False) -> tuple[Completion, ...]:
        """The ends of the turn that stopping in ``state`` gives: the state's position itself, or with deferred
        facings one position per choice of an effective class for each deferred unit, each unit in the least facing
        of its class (a unit's effective edges read which armies stand on its lines, not the others' facings, so the
        classes are each unit's own). ``bounded``: without the ends the bound proves hopeless to stop in
        (:meth:`HqBound.stopping`), counted in :attr:`ends_cut`; they are neither made nor given an identity, and
        count as losing, as a pruned state does (a state the bound let through may still be hopeless to stop in:
        what the tiles left could do is not counted there; a big card has millions of such ends). States alike in
        what it reads (below) get the same tuple, kept while the enumerator lives (the solver keys by it)."""
        bounded = bounded and self.bound is not None
        # States that differ only in what is left to do (hand, spent abilities, tiles played) stop in the same ends:
        # made once. Where the cuts depend on the tiles played too (the tries' later searches: may_cut), by those as
        # well, and in this search's own table.
        memo_key: tuple = (state.position, state.free, state.battles_done, bounded)
        table = self.memo.completions
        if self.may_cut is not None:
            table, memo_key = self._cut_completions, (*memo_key, state.played)
        known = table.get(memo_key)
        if known is None:
            known = table[memo_key] = self._completions(state, bounded)
        ends, cut, ahead = known
        if cut:
            assert ahead is not None
            self.ends_cut_at[state] = max(self.ends_cut_at.get(state, ahead), ahead)
            self.ends_cut += cut
        return ends

    def _completions(self, state: State, bounded: bool) -> tuple[tuple[Completion, ...], int, int | None]:
        """:meth:`completions` worked out: the ends, how many were cut, and the highest margin bound among those."""
        stop = self.bound.stopping(state) if bounded and self.bound is not None else None

        def cut_at(total: int) -> int | None:  # the margin bound of an end cut with shares adding up to ``total``
            assert stop is not None
            ahead = stop.cut(total)
            return ahead if self._cuts(ahead, state.played) else None

        if not state.free:
            if stop is not None and (ahead := cut_at(0)) is not None:
                return (), 1, ahead
            return ((state.position, ()),), 0, None
        position = state.position
        base, index_of, per_unit = self._facing_classes(position, state.free)
        # The ends cut are those whose shares add up to at most ``most_cut`` (the bound's damage rises with them,
        # and the goal may only come within reach as it does): whole runs of choices are counted, not made.
        count = len(per_unit)
        values = [[stop.shares[c.hex][c.facing] for c in classes] for classes in per_unit] if stop else []
        most_cut = -1
        if stop is not None:
            highest = sum(max(v) for v in values)
            while most_cut < highest and cut_at(most_cut + 1) is not None:
                most_cut += 1
        best_after = [0] * (count + 1)  # the most the units from i on add
        choices_after = [1] * (count + 1)  # how many choices of classes the units from i on have
        for i in range(count - 1, -1, -1):
            best_after[i] = best_after[i + 1] + (max(values[i]) if values else 0)
            choices_after[i] = choices_after[i + 1] * len(per_unit[i])
        ends: list[Completion] = []
        cut_count, cut_total = 0, -1
        units = position.units
        chosen: list[FacingClass] = []

        def walk(i: int, total: int) -> None:
            nonlocal cut_count, cut_total
            if total + best_after[i] <= most_cut:  # every end from here is cut
                cut_count += choices_after[i]
                cut_total = max(cut_total, total + best_after[i])
                return
            if i < count:
                for class_, value in zip(per_unit[i], values[i] if values else itertools.repeat(0)):
                    chosen.append(class_)
                    walk(i + 1, total + value)
                    chosen.pop()
                return
            turned = {class_.hex: class_.unit for class_ in chosen}
            end = position.with_units_in_order(tuple(turned.get(u.hex, u) for u in units))
            # One object per end kept: states that share a position share its ends (a big card keeps millions).
            end = self.memo.positions.setdefault(end, end)
            if self.identities is not None and end not in self.identities:
                entries = list(base)
                for class_ in chosen:
                    entries[index_of[class_.hex]] = class_.entry
                self.identities[end] = Identity((tuple(entries), end.to_move))
            ends.append((end, tuple(class_.open for class_ in chosen)))

        try:
            walk(0, 0)
        finally:
            # A closure that calls itself is a reference cycle (through its own cell), holding the ends and the
            # state's tables until the cycle collector's next full pass, which the search pauses: emptied here,
            # it is freed at once (a big card makes hundreds of thousands of these).
            del walk
        if cut_count:
            ahead = cut_at(cut_total)
            assert ahead is not None  # the margin bound rises with the damage: the largest cut is cut
            return tuple(ends), cut_count, ahead
        return tuple(ends), 0, None

    def _facing_classes(self, position: Position, free: frozenset[Hex]) -> tuple[list, dict[Hex, int], list]:
        """For :meth:`completions`: the placeholder position's effective key as a list, each unit's place in it, and
        for each deferred unit its classes of facings, each with the unit's entry in the key. Made once per
        :meth:`completions` worked out, and not kept: the ends they make are (kept, these held 360 MB of
        bench/scale-play3's 2.2 GB, for a tries' search 3% faster)."""
        edges_of = _edge_reader(position)
        # The play identity of each end is made here too, from the placeholder position's: only the deferred
        # units' entries differ (effective_key).
        entries = self.memo.entries
        base = [entries.setdefault(entry, entry) for entry in effective_key(position)]
        index_of = {u.hex: i for i, u in enumerate(position.units)}
        per_unit = []
        for hex_ in sorted(free, key=lambda h: h.label):
            unit = position.unit_at(hex_)
            assert unit is not None  # a deferred hex holds the deferred unit
            classes: dict[tuple, list[Direction]] = {}
            for facing in Direction:
                turned = Unit(unit.hex, unit.tile, facing, unit.wounds, unit.hp, unit.venom, unit.owner, unit.prizes)
                classes.setdefault(edges_of(turned), []).append(facing)
            entry: tuple = (unit.hex, unit.tile.key, unit.wounds, unit.hp, unit.army)
            choices = []
            for edges, facings in classes.items():
                facing = least_facing(frozenset(facings))
                full = entry + (edges, unit.prizes, unit.venom)
                choices.append(FacingClass(hex_, facing, frozenset(facings), entries.setdefault(full, full),
                                           Unit(unit.hex, unit.tile, facing, unit.wounds, unit.hp, unit.venom,
                                                unit.owner, unit.prizes)))
            per_unit.append(choices)
        return base, index_of, per_unit

    def _check_time(self) -> None:
        if self.deadline is not None and time.perf_counter() > self.deadline - self.reserve():
            raise _OutOfTime

    def reserve(self) -> float:
        """Seconds to keep before the deadline for deciding on the graph listed so far and reporting it (the
        AND-OR, the tries and the count of orders), at most half of the time given."""
        if self.deadline is None or self.started is None:
            return 0.0
        expanded = len(self.graph.steps) if self.graph is not None else 0
        needed = (_REPORT_SECONDS + _DECISION_SECONDS_PER_STATE * expanded
                  + _DECISION_SECONDS_PER_STATE_REACHED * len(self.memo.states))
        return min(needed, (self.deadline - self.started) / 2)

    def start(self) -> State:
        position = self.puzzle.position
        watched = tuple((h, h) for h in sorted(set(goal_hexes(self.puzzle.goal))))
        if self.puzzle.then == "final-battle" and position.deck(self.player) is None:
            # The Final Battle follows because the last tile has been drawn: no Battle tile may be used now
            # (3E BATTLE: 'not ... if any of the players has drawn the last tile').
            position = position.replaced(decks=position.decks + ((self.player, 0),))
        return State(self._norm(position), _sorted_hand(self.puzzle.offer), 0, frozenset(), False, watched)

    def _norm(self, position: Position) -> Position:
        return position if self.naive else normalised(position)

    def build(self, on_state: Callable[[int], None] | None = None,
              on_expanded: Callable[[State], None] | None = None) -> Graph:
        """The turn's graph. ``on_state`` hears the count of states expanded so far, ``on_expanded`` each state
        just expanded (the solver plays it out while the rest is listed)."""
        with _without_cyclic_gc():
            return self._build(on_state, on_expanded)

    def _build(self, on_state: Callable[[int], None] | None,
               on_expanded: Callable[[State], None] | None = None) -> Graph:
        root = self.start()
        root = self._interned(root)
        graph = self.graph = Graph(root)
        stack = [root]
        while stack:
            state = stack.pop()
            if state in graph.steps or state in self.pruned:
                continue
            self._check_time()
            if self.bound is not None:
                cut = self.bound.cut(state)
                if self._cuts(cut, state.played):
                    self.pruned[state] = cut
                    continue
            steps = [] if state.over else self.steps(state)
            graph.steps[state] = steps
            if on_state:
                on_state(len(graph.steps))
            if on_expanded:
                on_expanded(state)
            state.position.forget_lookups()
            for step in steps:
                for _, nxt in step.branches:
                    if nxt not in graph.steps and nxt not in self.pruned:
                        stack.append(nxt)
        return graph

    # --- what can be done from a state ---
    def steps(self, state: State) -> list[Step]:
        """Every step from ``state``. A state is its *core* (position, hand, tiles played, what is spent, ...) and
        two restrictions that only leave steps out: no placement run right after one (``after_batch``), no free
        move of a unit just placed (``placed``). What follows a step depends on the core alone, so the steps are
        listed once per core (:meth:`core_steps`) and each state of that core takes the ones its restrictions
        allow: the graph is the same, and a position reached both after a placement run and after a free move
        (the same tiles placed and unit moved, in the other order) is worked out once."""
        core = state if not state.after_batch and not state.placed else _next(state, after_batch=False,
                                                                                placed=_NO_HEXES)
        found, runs, sources, cut = self.core_steps(core)
        if cut:
            self._count_steps_cut(state, cut)
        spared = state.placed
        if spared and state.watched:
            spared = spared - {now for _, now in state.watched}
        if not (state.after_batch and runs) and not (spared and not spared.isdisjoint(sources)):
            return found
        return [step for index, (step, source) in enumerate(zip(found, sources))
                if not (state.after_batch and index < runs) and (source is None or source not in spared)]

    def core_steps(self, core: State) -> tuple[list[Step], int, list[Hex | None], StepsCut]:
        """The steps of a core state (see :meth:`steps`), remembered: the placement runs first (how many is the
        second value), for each step the unit whose free move it is, if a unit just placed may be spared it, and the
        steps the bound cut before making them (:meth:`placement_runs`, :meth:`instants`).

        The steps are remembered for the searches that share the listing (the solver's tries), and a later search
        may cut less (:attr:`may_cut`), or nothing: one that may not cut every step an earlier one cut lists the core
        again."""
        found = self.memo.cores.get(core)
        if found is not None and (not found[3] or self._may_cut_all(found[3])):
            return found
        steps: list[Step] = []
        runs = 0
        cut: StepsCut = ()
        if core.played < self.limit:
            placed, cut = self.placement_runs(core)
            steps += placed
            runs = len(steps)
            uses, uses_cut = self._instants(core, bounded=True)
            steps += uses
            cut += uses_cut
            if self.families:
                steps += self.family_places(core)
        sources: list[Hex | None] = [None] * len(steps)
        for source, step in self._free_move_steps(core):
            steps.append(step)
            sources.append(source)
        granted = self.granted(core)
        steps += granted
        sources += [None] * len(granted)
        if self.takeovers:
            steps = [self.opponent_turns(step) for step in steps]
        # One object per distinct state, so that the tables keyed by states (the graph, the decision's memos) find
        # it by identity instead of comparing it field by field with an equal one; and one per distinct action
        # text (the same move is listed from many states).
        texts, fills = self.memo.texts, self.memo.fills
        for index, step in enumerate(steps):
            branches = step.branches
            canonical = tuple((label, self._interned(nxt)) for label, nxt in branches)
            action = texts.setdefault(step.action, step.action)
            fill = fills.setdefault(step.fill, step.fill)
            if action is not step.action or fill is not step.fill or any(
                    a[1] is not b[1] for a, b in zip(branches, canonical)):
                steps[index] = Step(action, canonical, fill)
        found = self.memo.cores[core] = (steps, runs, sources, cut)
        return found

    def _cuts(self, ahead: int | None, played: int) -> TypeGuard[int]:
        """Whether this search cuts what the bound proved hopeless with margin bound ``ahead`` (None: not proved)
        after ``played`` tiles (:attr:`may_cut`)."""
        return ahead is not None and (self.may_cut is None or self.may_cut(played, ahead))

    def _may_cut_all(self, cut: StepsCut) -> bool:
        """Whether this search cuts every step of ``cut`` (an earlier search's, sharing the listing)."""
        return self.bound_runs and all(self._cuts(ahead, played) for (_, played, ahead), _ in cut)

    def _count_steps_cut(self, state: State, cut: StepsCut) -> None:
        """Counts the steps cut from ``state`` (:meth:`placement_runs`, :meth:`instants`), and keeps, per margin bound
        among them, the fewest tiles played (the tries' ranking: :func:`solver.search.solve._may_outrank`)."""
        for (kind, played, ahead), count in cut:
            if kind == "run":
                if state.after_batch:  # no placement run follows another: none was cut from here
                    continue
                self.runs_cut += count
            else:
                self.uses_cut += count
            tiles = played - state.played
            table = self.steps_cut_at.setdefault(state, {})
            table[ahead] = min(table.get(ahead, tiles), tiles)

    def _interned(self, state: State) -> State:
        """The one object standing for ``state`` (see :meth:`core_steps`); a state met for the first time is kept
        with its position and sets shared with the states before it (equal values put in place of its own: neither
        the state's value nor its hash changes, and a big card's graph holds one object for each distinct value)."""
        known = self.memo.states.get(state)
        if known is not None:
            return known
        sets = self.memo.sets
        object.__setattr__(state, "position", self.memo.positions.setdefault(state.position, state.position))
        for name in _STATE_SETS:
            value = getattr(state, name)
            object.__setattr__(state, name, sets.setdefault(value, value))
        self.memo.states[state] = state
        return state

    def opponent_turns(self, step: Step) -> Step:
        """A takeover the player's action causes lets the taking army turn the unit at once (RULINGS 18): each
        way it may is one more branch of the opponent's choice."""
        from ..abilities.takeover import ControlTakeover
        branches = []
        turns = False
        for label, nxt in step.branches:
            if not any(_takes_over(u.tile) for u in nxt.position.units):
                branches.append((label, nxt))
                continue
            turns = True
            for turn, position, used in ControlTakeover().pending_turns(nxt.position, self.player, nxt.used):
                branches.append(("; ".join(filter(None, (label, turn))),
                                 _next(nxt, position=self._norm(position), used=used)))
        return replace(step, branches=tuple(branches)) if turns else step

    def placement_runs(self, state: State) -> tuple[list[Step], StepsCut]:
        """Every run of placements: a sub-multiset of the board tiles in hand, on distinct empty hexes; and how many
        runs the bound cut, by the tiles played after them and their margin bound.

        Where the bound may read a run before its state is made (:attr:`bound_runs`), a run whose state it proves
        hopeless (:meth:`HqBound.placements`) is not made: the state would be pruned at once (:meth:`build`), and a
        card lists tens of thousands of runs for a few hundred states expanded (issue 27)."""
        board_tiles = [t for t in state.hand if t.kind in (Kind.WARRIOR, Kind.MODULE, Kind.HQ)]
        room = self.limit - state.played
        empty = state.position.empty_hexes()
        runs: list[Step] = []
        cut: Counter[tuple[str, int, int]] = Counter()
        bounded = self._run_bound(state, board_tiles, empty)
        chosen_sets = set()
        for size in range(1, min(room, len(board_tiles)) + 1):
            played = state.played + size
            for combo in itertools.combinations(board_tiles, size):
                if combo in chosen_sets:
                    continue
                chosen_sets.add(combo)
                assignments = self.assignments(combo, empty, state.position)
                if bounded is not None and assignments:
                    # First the tiles alone, each at its most anywhere: most runs of a card fall at once.
                    ahead = bounded(combo, None)
                    if self._cuts(ahead, played):
                        self.listed += len(assignments)
                        cut["run", played, ahead] += len(assignments)
                        continue
                first: tuple[Hex, Direction] | None = None
                first_cut: int | None = None
                rest = (None,) * (size - 1)
                for number, assignment in enumerate(assignments):
                    if number % 64 == 63:
                        self._check_time()
                    self.listed += 1
                    if bounded is not None:
                        if size > 1 and assignment[0] != first:
                            # Then the first tile where it lands, the others anywhere: the assignments come sorted,
                            # so each first cell's runs come together and fall together.
                            first = assignment[0]
                            first_cut = bounded(combo, (first, *rest))
                            if not self._cuts(first_cut, played):
                                first_cut = None
                        ahead = first_cut if size > 1 and first_cut is not None else bounded(combo, assignment)
                        if self._cuts(ahead, played):
                            cut["run", played, ahead] += 1
                            continue
                    runs.append(self.place_run(state, combo, assignment))
        return runs, tuple(cut.items())

    def _run_bound(self, state: State, board_tiles: list[Tile], empty: list[Hex]
                   ) -> Callable[[Sequence[Tile], Sequence[tuple[Hex, Direction] | None] | None], int | None] | None:
        """The margin bound of a run's state (or of any run of its tiles: ``None`` for a cell or all) when the bound
        proves it hopeless, None when it may reach the goal (:meth:`HqBound.placements`); None where runs are not
        bounded before they are made (:attr:`bound_runs`, an HQ tile in hand: placing one adds an HQ to count)."""
        if not self.bound_runs or any(t.kind is Kind.HQ for t in board_tiles):
            return None
        bound = self.bound
        assert bound is not None
        position = state.position
        main_empty = frozenset(empty) & self.actions.main_battlefield(position.board)
        defer = self.defer
        dealt = bound.placements(state, main_empty, lambda tile: defer and deferrable(tile))
        margin = bound.margins(position)
        return lambda tiles, cells: margin(dealt(tiles, cells))

    def assignments(self, tiles: Sequence[Tile], empty: list[Hex], position: Position | None = None
                    ) -> list[tuple[tuple[Hex, Direction], ...]]:
        """Placements of ``tiles`` (in that order) on distinct empty hexes, one facing per edge class.

        python-constraint does the enumeration: one variable per tile, its domain the (hex, facing) pairs,
        all hexes different; copies of one tile take increasing hexes, since swapping them gives the same board.
        """
        if not empty:
            return []
        problem = Problem()
        hexes = [f"hex{i}" for i in range(len(tiles))]
        facings = [f"facing{i}" for i in range(len(tiles))]
        for hex_name, facing_name, tile in zip(hexes, facings, tiles):
            domain = list(range(len(empty)))
            if position is not None and position.terrain:  # hexes the terrain bars to this tile (B13)
                domain = [i for i in domain if self.actions.barred(position, tile, empty[i], self.player) is None]
                if not domain:
                    return []
            problem.addVariable(hex_name, domain)
            choices = list(Direction) if self.naive else list(self.actions.distinct_facings(tile))
            if self.defer and deferrable(tile):
                choices = choices[:1]  # the placeholder: the end of the turn chooses (see free)
            problem.addVariable(facing_name, [f.value for f in choices])
        if len(tiles) > 1:
            problem.addConstraint(AllDifferentConstraint(), hexes)
            for (a, ta), (b, tb) in itertools.pairwise(zip(hexes, tiles)):
                if ta == tb:
                    problem.addConstraint(lambda x, y: x < y, (a, b))
        found = []
        for number, solution in enumerate(problem.getSolutionIter()):
            if number % 1024 == 1023:
                self._check_time()  # three tiles on eight hexes are some 70,000 placements
            found.append(tuple((empty[solution[h]], Direction(solution[f])) for h, f in zip(hexes, facings)))
        return sorted(found)

    def place_run(self, state: State, tiles: Sequence[Tile], cells: Sequence[tuple[Hex, Direction]]) -> Step:
        position = state.position
        units = list(position.units)
        lines = []
        fill: list[Hex | None] = []
        for tile, (hex_, facing) in zip(tiles, cells):
            units.append(Unit(hex_, tile, facing))
            lines.append(str(Place(tile, hex_, facing)))
            fill.append(hex_ if self.defer and deferrable(tile) else None)
        position = position.with_units(units)
        if position.terrain or position.foundations:  # what the ground does to a unit placed on it
            for _, (hex_, _) in zip(tiles, cells):
                position = self.actions.arrived(position, hex_)
        used = state.used
        if self.families and not self.plain_families:
            # Through the turn rules, one tile after another (a unit placed on a Mine); what the run has used is
            # reckoned from the position before the run (a takeover is "just made" by the run as a whole). Not where
            # the only families are the HQs' moves (plain_families): they claim no placement, spend nothing on one
            # and nothing acts on arrival there, so a placement is the unit put on its hex, as on a plain board.
            before = state.position.replaced(hands=((self.player, tuple(tiles)),), to_move=self.player)
            position = before
            for tile, (hex_, facing) in zip(tiles, cells):
                position = self.actions.apply(position, Place(tile, hex_, facing), self.player, state.used)
            used = self.actions.spend(before, Place(tiles[0], cells[0][0], cells[0][1]), self.player, used)
            position = position.replaced(hands=state.position.hands, to_move=state.position.to_move)
        for _, (hex_, _) in zip(tiles, cells):
            used = frozenset(s for s in used if s.hex != hex_)
        freed = frozenset(h for h in fill if h is not None)
        nxt = _next(state, position=position, hand=_without(state.hand, tiles), played=state.played + len(tiles),
                      after_batch=True, used=used,
                      placed=frozenset(hex_ for hex_, _ in cells) if self.spare_placed else frozenset(),
                      free=state.free | freed)
        return Step(tuple(lines), (("", self.settle(nxt)),), tuple(fill) if freed else ())

    def settle(self, state: State) -> State:
        """A full board starts a battle at once (3E USING TILES); the turn ends with it."""
        if state.over or not self.actions.board_full(state.position):
            return state
        return _next(state, over=True, battles_done=state.battles_done + 1)

    def instants(self, state: State) -> list[Step]:
        """Every use of an instant tile in hand."""
        return self._instants(state, bounded=False)[0]

    def _instants(self, state: State, bounded: bool) -> tuple[list[Step], StepsCut]:
        """:meth:`instants`; ``bounded``: without the uses that the bound proves hopeless before their results are
        made, where the use is the last tile the turn may play (:meth:`HqBound.last_use`; the uses of a Move tile
        on a plain board are listed with their states at once and are not cut so), and how many were cut (as
        :meth:`placement_runs`)."""
        found: list[Step | None] = []
        cut: Counter[tuple[str, int, int]] = Counter()
        plain = self._plain(state.position)
        last = None
        if bounded and self.bound_runs and state.played + 1 == self.limit:
            assert self.bound is not None
            last, margin = self.bound.last_use(state), self.bound.margins(state.position)
        for tile in sorted({t for t in state.hand if t.kind is Kind.INSTANT}, key=lambda t: t.key):
            if plain and tile.name == "move" and tile.army == self.player:
                found += [step for _, step in self.plain_moves(state, tile, frozenset())]
                continue
            position = _turn_of(state.position, ((self.player, (tile,)),), self.player)
            for action in self.actions.player_actions(position, self.player, state.used):
                if not isinstance(action, Use) or action.tile != tile:
                    continue
                self._check_time()
                self.listed += 1
                if last is not None:
                    ahead = margin(last(action))
                    if self._cuts(ahead, self.limit):
                        cut["use", self.limit, ahead] += 1
                        continue
                found.append(self.use(state, position, action))
        return [s for s in found if s is not None], tuple(cut.items())

    def use(self, state: State, position: Position, action: Use) -> Step | None:
        try:
            results = self.actions.results(position, action, self.player, state.used)
        except IllegalAction:
            return None
        used = self.actions.spend(position, action, self.player, state.used)
        branches = []
        for label, after in results:
            watched = state.watched
            name = action.tile.name
            if name == "move":
                watched = _follow(watched, action.targets[0], action.targets[1])
            elif name == "castling":  # two units trade hexes (PL ROSZADA; B13 Castling)
                a, b = action.targets[0], action.targets[1]
                watched = tuple((g, b if now == a else a if now == b else now) for g, now in watched)
            elif name == "push-back":
                pushed = action.targets[1]
                landed = next((h for h in after.board if after.unit_at(h) is not None
                               and position.unit_at(h) is None), pushed)
                watched = _follow(watched, pushed, landed)
            after = _turn_of(after, state.position.hands, state.position.to_move)
            free = state.free
            turnable = state.turnable
            if free:  # a deferred unit the instant killed is gone (its facing is then read by nothing)
                free = frozenset(h for h in free if _still(state.position.unit_at(h), after.unit_at(h)))
                # The opponent chooses among the results: the facings were chosen before the answer.
                turnable = (turnable | free if len(results) > 1 else turnable) & free
            nxt = _next(state, position=self._norm(after), hand=_without(state.hand, [action.tile]),
                          played=state.played + 1, after_batch=False, watched=watched, used=used,
                          over=name == "battle", placed=frozenset(), free=free, turnable=turnable)
            if name == "battle":
                nxt = _next(nxt, battles_done=state.battles_done + 1)
            branches.append((label, self.settle(nxt)))
        if not branches:
            return None
        text: tuple[str, ...] = (str(action),)
        if action.tile.name == "push-back" and len(action.targets) == 2:
            destinations = self.actions.push_destinations(position, action.targets[0], action.targets[1])
            if len(destinations) == 1:  # no choice left to the owner: the canonical line names the hex
                text = (str(replace(action, targets=action.targets + (destinations[0],))),)
            else:
                text += (f"# the pushed unit's owner chooses among {', '.join(sorted(h.label for h in destinations))}",)
        return Step(text, tuple(branches))

    def free_moves(self, state: State) -> list[Step]:
        # Free moves come only from Mobility and from a Transport (actions: free move); without either on the
        # board there is nothing to list, and asking the turn rules on every state would cost a fifth of the time.
        # Babel 13 adds free actions of its own: held Prize markers put on units, Dismal Forest moves, the
        # Control Panel's turning of Turrets (solver/abilities: prizes, terrain_turn).
        # A unit placed by the step just taken need not move now: placing it where the move would take it, in
        # that facing, is a run of the same placements reaching the same position with its free move still
        # unspent (and free to place again), so every end of the move is an end of that run too. That holds for
        # Mobility and a Transport on a plain board; it is not assumed where anything else may act on arrival
        # or on a move (foundations such as a Mine, terrain, Prize markers, the Duel board, teams, an ability
        # family acting between battles: a takeover's turn, the Smart HQ, the Doomsday HQ), nor for a unit the
        # goal watches (moving it carries the watch along; placing it elsewhere does not).
        just_placed = state.placed  # empty unless self.spare_placed
        if just_placed and state.watched:
            just_placed = just_placed - {now for _, now in state.watched}
        return [step for source, step in self._free_move_steps(state)
                if source is None or source not in just_placed]

    def _free_move_steps(self, state: State) -> list[tuple[Hex | None, Step]]:
        """:meth:`free_moves` with no unit spared, each step with the unit it moves if a unit just placed would be
        spared that step (None for the others)."""
        extras = bool(state.position.held_prizes or state.position.terrain)
        if not self.families and not extras and not any(
                ((u.tile.mobility or "mobility" in u.prizes)
                 and self.actions.controller(state.position, u) == self.player)  # a taken unit is its taker's
                or (u.tile.module is not None and u.tile.module.type == "grant-mobility")
                for u in state.position.units) and not self._granted_moves(state.position):
            return []
        if not extras and self._plain(state.position):
            return self.plain_moves(state, None, frozenset())
        position = _turn_of(state.position, (), self.player)
        listed: Iterable[Action] | None = None
        outcomes: list[tuple[Action, tuple[tuple[str, Position], ...]]] | None = None
        if not extras and self.plain_families and self._plain_board(state.position):
            # A plain board whose only families are HQs' moves (spare_placed: the Doomsday HQ's rotation, the Smart
            # HQ's move), which act on `by hq` moves alone: Mobility moves are plain, and the families list their
            # own moves, instead of the whole turn's listing being made and filtered. The same steps, in the same
            # order as the turn rules give them (tests/test_search_speed.py compares the two).
            found = self.plain_moves(state, None, frozenset())
            if self.actions.board_full(position):
                return found
            points = hooks.turn_points(position)
            if len(points.turn_actions) == 1 and points.turn_results == points.turn_actions:
                # One family lists these moves and alone claims results: it may give them with their results.
                outcomes = points.turn_actions[0].turn_outcomes(position, self.player, state.used)
            if outcomes is None:
                listed = [action for family in points.turn_actions
                          for action in family.turn_actions(position, self.player, state.used, False)]
        else:
            found = []
        for action, used, results in self.legal_outcomes(
                state, position,
                lambda action: isinstance(action, Move) or (extras and not isinstance(action, (Discard, Place, Use))),
                listed, outcomes):
            branches = []
            for label, after in results:
                after = after.replaced(hands=state.position.hands, to_move=state.position.to_move)
                watched = (_follow(state.watched, action.source, action.target) if isinstance(action, Move)
                           else state.watched)
                nxt = _next(state, position=self._norm(after), used=used, after_batch=False, watched=watched,
                              placed=frozenset())
                branches.append((label, nxt))
            # With extras every free action is listed, a just-placed unit's move too (see free_moves).
            found.append((action.source if isinstance(action, Move) and not extras else None,
                          Step((str(action),), tuple(branches))))
        return found

    def _plain(self, position: Position) -> bool:
        """Whether :meth:`plain_moves` may list this position's moves: a plain board (``self.plain``) without a
        Transport of the player's, whose links grant moves and whose own moves are restricted (transport-movable)."""
        return self.plain and self._plain_board(position)

    def _plain_board(self, position: Position) -> bool:
        """No Transport of the player's on the board (see :meth:`_plain`). An enemy's grants moves to its own side
        only (``actions._transport_table``), which does not move in the player's turn, and neither Mobility nor the
        Move tile moves an enemy unit; no unit changes sides on these boards (a takeover is a family that rules
        them out)."""
        return not self.actions.has_transport(position, self.player)

    def plain_moves(self, state: State, tile: Tile | None, spared: frozenset[Hex]) -> list[tuple[Hex | None, Step]]:
        """The Mobility moves (``tile`` None) or the Move tile's uses on a plain board, without going through
        the turn rules action by action: the same steps, in the same order, as :meth:`free_moves` and
        :meth:`instants` find through ``actions`` (tests/test_search_speed.py compares them on every state of
        several cards). The mover is one of the player's units, not netted; Mobility once a turn (3E MOBILITY);
        an adjacent empty hex, or 2 hexes with a working Recon Center, and/or a rotation (3E MOVE); nothing acts
        on arrival on such a board, and facings are those of ``distinct_facings``, already normal."""
        used = state.used
        watched = state.watched
        free = state.free
        turnable = state.turnable
        found: list[tuple[Hex | None, Step]] = []
        position = state.position
        movers = self._plain_movers(position, tile)
        if tile is None:
            Spent = self.actions.Spent
            for unit in movers:
                source = unit.hex
                if source in spared or Spent(source, "mobility") in used:
                    continue
                for target, text, after, _, freed in self._plain_results(position, unit, tile, source in free,
                                                                         source in turnable):
                    self.listed += 1
                    nxt = State(after, state.hand, state.played,
                                _respent(used, source, target) | {Spent(target, "mobility")}, False,
                                _follow(watched, source, target) if watched else watched, state.battles_done,
                                state.over, frozenset(), _refreed(free, source, target, freed), turnable - {source})
                    found.append((source, Step((text,), (("", nxt),), (target,) if freed else ())))
        else:
            hand = _without(state.hand, [tile])
            for unit in movers:
                source = unit.hex
                for target, text, after, full, freed in self._plain_results(position, unit, tile, source in free,
                                                                            source in turnable):
                    self.listed += 1
                    nxt = State(after, hand, state.played + 1, _respent(used, source, target), False,
                                _follow(watched, source, target) if watched else watched,
                                state.battles_done + (full and not state.over), full or state.over, frozenset(),
                                _refreed(free, source, target, freed), turnable - {source})
                    found.append((source, Step((text,), (("", nxt),), (target,) if freed else ())))
        return found

    def _plain_movers(self, position: Position, tile: Tile | None) -> list[Unit]:
        """The units :meth:`plain_moves` may move in ``position``: the player's, not netted, with Mobility unless
        ``tile`` (the Move tile) moves them; Mobility whether or not it is spent yet. Remembered per position."""
        key = (position, tile)
        found = self.memo.movers.get(key)
        if found is None:
            actions = self.actions
            found = []
            if not actions.board_full(position):
                actions._supported(position)
                nets = actions.netted(position)
                found = [unit for unit in position.units
                         if (tile is not None or unit.tile.mobility or "mobility" in unit.prizes)
                         and unit.hex not in nets and actions.controller(position, unit) == self.player
                         and not actions._fixed(position, unit)]
                self.memo.reach[key] = (actions._recon_reach(position, self.player, nets, tile is not None) if found
                                        else 1)
            self.memo.movers[key] = found
        return found

    def _plain_results(self, position: Position, unit: Unit, tile: Tile | None, free: bool = False,
                       answered: bool = False) -> list[tuple[Hex, str, Position, bool, bool]]:
        """Each move of ``unit`` for :meth:`plain_moves`, as its target, its line, the position after it, whether
        that fills the board and whether the unit's facing is deferred there: remembered, since many states share a
        position (they differ in what is spent and in the tiles left).

        With deferred facings (:attr:`defer`) a move of a deferrable unit to another hex is one result, its facing
        a placeholder; a turn on the spot stays a move per facing (the facing it had is not one of them), and a unit
        whose facing is deferred already (``free``) has no turn on the spot to make, unless the opponent has
        answered since its facing was chosen (``answered``: :attr:`State.turnable`): a turn after the answer may
        face it differently on each branch, so it is one result, the unit deferred again where it stands
        (:func:`resolve`: the facing it had must lie outside the class it turns to)."""
        key = (position, unit.hex, tile, free, free and answered)
        found = self.memo.plain.get(key)
        if found is not None:
            return found
        self._check_time()
        found = []
        source = unit.hex
        board_full = self.actions.board_full
        defer = self.defer and deferrable(unit.tile)
        for target, facing in self.actions._turns(position, unit, self.memo.reach[position, tile]):
            # A turn on the spot of a unit faced before the opponent's answer: one result, its facing deferred
            # again (the line's facing is written from the ends: resolve).
            freed = defer and (target != source or (free and answered))
            if freed and found and found[-1][0] == target:
                continue  # one placeholder facing per target (the turn rules list a target's facings together)
            if defer and free and target == source and not answered:
                continue
            if freed:
                facing = self.actions.distinct_facings(unit.tile)[0]
            moved = Unit(target, unit.tile, facing, unit.wounds, unit.hp, unit.venom, unit.owner, unit.prizes)
            after = position.with_units([moved if u.hex == source else u for u in position.units])
            after = self.memo.positions.setdefault(after, after)
            text = str(Move(source, target, facing)) if tile is None else str(Use(tile, (source, target), facing))
            found.append((target, text, after, tile is not None and board_full(after), freed))
        self.memo.plain[key] = found
        return found

    def legal_outcomes(self, state: State, position: Position, keep: Callable[[Action], bool],
                       listed: Iterable[Action] | None = None,
                       outcomes: list[tuple[Action, tuple[tuple[str, Position], ...]]] | None = None
                       ) -> Iterator[tuple[Any, frozenset, tuple[tuple[str, Position], ...]]]:
        """The player's legal actions in ``position`` that ``keep`` selects, each with the grants it spends and its
        results (one per answer of the opponent); the free moves, procedures and family placements all read this.
        ``listed``: the actions to take instead of all the player's (a subset the caller has listed itself);
        ``outcomes``: the legal ones with their results, as a family lists them (``Ability.turn_outcomes``).
        The action is typed ``Any``: ``keep`` chose its kind, which each caller then reads."""
        if outcomes is not None:
            for action, results in outcomes:
                if keep(action):
                    self._check_time()
                    self.listed += 1
                    yield action, self.actions.spend(position, action, self.player, state.used), results
            return
        if listed is None:
            listed = self.actions.player_actions(position, self.player, state.used)
        for action in listed:
            if not keep(action):
                continue
            self._check_time()
            self.listed += 1
            try:
                results = self.actions.results(position, action, self.player, state.used)
            except IllegalAction:
                continue
            yield action, self.actions.spend(position, action, self.player, state.used), results

    def granted(self, state: State) -> list[Step]:
        """The Duel board's Procedures (PL PROCEDURY: at any moment of the turn, paid with Energy, no tile used).

        Energy purchases are left out: they end the turn and only lower the player's HQ health or sell a tile
        that this turn no longer plays (PL LICZNIK ENERGII), for Energy that no battle reads, so no goal is won
        by one that is not won without it."""
        position = state.position
        if not position.terminals or not position.energy:
            return []
        from ..abilities.duel_board import procedure_moves

        position = position.replaced(hands=(), to_move=self.player)
        found = []
        for action, used, results in self.legal_outcomes(state, position, lambda action: isinstance(action, Procedure)):
            branches = []
            for label, after in results:
                watched = state.watched
                moves = procedure_moves(action)
                if action.kind == "push" and len(action.hexes) == 2:
                    landed = next((h for h in after.board if after.unit_at(h) is not None
                                   and position.unit_at(h) is None), action.hexes[1])
                    moves = ((action.hexes[1], landed),)
                if moves:
                    watched = tuple((goal_hex, next((to for frm, to in moves if frm == now), now))
                                    for goal_hex, now in watched)
                after = after.replaced(hands=state.position.hands, to_move=state.position.to_move)
                branches.append((label, _next(state, position=self._norm(after), used=used, after_batch=False,
                                                watched=watched, placed=frozenset())))
            text: tuple[str, ...] = (str(action),)
            if action.kind == "push" and len(action.hexes) == 2:
                destinations = self.actions.push_destinations(position, action.hexes[0], action.hexes[1])
                if len(destinations) == 1:  # no choice left to the owner: the canonical line names the hex
                    text = (str(replace(action, hexes=action.hexes + (destinations[0],))),)
                else:
                    text += (f"# the pushed unit's owner chooses among "
                             f"{', '.join(sorted(h.label for h in destinations))}",)
            found.append(Step(text, tuple(branches)))
        return found


    def _granted_moves(self, position: Position) -> bool:
        """Whether an ability family on the board grants the player moves (the Doomsday HQ's rotation): asked only
        when the player's HQ has an ability, so plain armies pay nothing."""
        hq = position.hq(self.player)
        if hq is None or not hq.tile.abilities:
            return False
        return bool(hooks.turn_points(position.replaced(hands=())).turn_actions)
    def family_places(self, state: State) -> list[Step]:
        """Placements an ability family grants besides the empty hexes: a foundation (a Mine), a tile put on a
        Smart Transporter's hex. Each is one tile played."""
        position = state.position.replaced(hands=((self.player, state.hand),), to_move=self.player)
        found = []
        for action, used, results in self.legal_outcomes(
                state, position,
                lambda action: isinstance(action, Place) and (action.by is not None or action.tile.kind is Kind.FOUNDATION)):
            branches = []
            for label, after in results:
                after = after.replaced(hands=state.position.hands, to_move=state.position.to_move)
                watched = state.watched
                if action.by is not None:  # the unit that stood there (a Transporter) left the board
                    watched = tuple((g, None if now == action.hex else now) for g, now in watched)
                nxt = _next(state, position=self._norm(after), hand=_without(state.hand, [action.tile]),
                              played=state.played + 1, after_batch=False, used=used, watched=watched,
                              placed=frozenset())
                branches.append((label, self.settle(nxt)))
            found.append(Step((str(action),), tuple(branches)))
        return found


@contextmanager
def _without_cyclic_gc() -> Iterator[None]:
    """Python's cycle collector paused: the turn's graph and the decision make millions of objects that hold no
    reference cycles (freed by their counts as ever), and the collector's passes over them took a third of the
    time of a big card's enumeration. It runs again afterwards, as before."""
    enabled = gc.isenabled()
    gc.disable()
    try:
        yield
    finally:
        # What was made meanwhile goes to the oldest generation at once (freeze, then unfreeze: two list merges):
        # left young, the first collection after would walk all of it, a second or more past --max-time.
        gc.freeze()
        gc.unfreeze()
        if enabled:
            gc.enable()


#: What deciding on the turn's graph costs (winning_plays, the tries and count_paths), kept in hand before
#: --max-time: per state expanded and per state only reached, and a fixed part. Fitted on bench/scale-play2
#: (45,000 expanded of 68,000 reached: 2.55 s; 97,700 of 145,000: 4.5 s) and scale-play3 (10,600 of 178,000:
#: 1.75 s); the fixed part holds the decision's own half second and the report's words and battle traces. With
#: deferred facings a state has more ends to decide on. Fitted again once a state holding the cap's plays read no
#: further step (decision._AndOr), with the three tries of `nhex solve`: scale-play3 stopped with 20,147 states
#: expanded of 36,650 reached, 2.0 s from the stop to the report; 41,301 of 74,937, 4.2 s; 113,390 of 186,582,
#: 7.6 s (1.5e-4 a state expanded before: the searches stopped 10 s early at --max-time 30).
_DECISION_SECONDS_PER_STATE = 7e-5
_DECISION_SECONDS_PER_STATE_REACHED = 3.5e-6
_REPORT_SECONDS = 1.5


class _OutOfTime(Exception):
    """--max-time ran out while the plays were still being enumerated."""
