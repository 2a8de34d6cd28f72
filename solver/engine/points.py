"""The named points of the loops where ability families act, and the base class of every family.

The battle loop (:mod:`solver.engine.battle`), the reading of a position (:mod:`solver.engine.effects`) and the turn rules
(:mod:`solver.turns.actions`) know no army and no special tile. They name *points* — the moments where the rules let
something special happen — and ask the ability families present on the board what happens there. Each family
(the Clown's explosion, the Gauss beam, the Quartermaster, the Scoper, control takeover, redirection, long
links, venom, the Motherland, foundations, terrain, …) lives in one module of :mod:`solver.abilities` that owns its rule,
and the army files name which ability a tile has (``ability``, ``module`` and edge icons). Adding an army adds
data and, where its rules are new, a module there; the loops do not change.

This is python-chess's variant pattern and OpenSpiel's game hooks: the core names the hook, the family fills it.

The points
----------
Reading a position (:func:`solver.engine.effects.read`), at the start of every battle phase and between battles:

``takeovers(units, rules)``
    Units whose control passes to another army ("who controls this unit" is derived, never written).
``links(units, nets, sides, ground, found)``
    The working module links, given the plain ones ``found`` (a module's link icon pointing at an adjacent unit
    of the side it helps): a family returns the list with the links that are not plain (a long-distance module
    reaching two hexes, RULINGS 54; a Spy linking itself to enemy modules; the Motherland passing a module's bonus
    to every member). ``ground`` holds the foundation tiles (Roots belong to the Motherland).

A battle (:mod:`solver.engine.battle`):

``battle_start(fight)``
    Hits dealt before the first initiative phase (venom).
``phase_hits(fight, phase)``
    Attacks in a phase that no unit's initiative makes (terrain that strikes).
``act(fight, unit, phase, bonus)``
    A unit's action replaced by its ability (the Clown explodes instead of attacking). ``None``: the ordinary
    action, the unit's strikes, follows.
``strikes(fight, unit, phase, bonus, strikes)``
    The strikes of an ordinary action changed before they are aimed (a Quartermaster converts one).
``edge_hits(fight, unit, direction, edge, bonus, phase)``
    The hits of an edge icon that is not a plain melee or ranged attack (a Gauss beam).
``shot_meets(fight, shooter, hex, direction, strength, phase, go_on=None)``
    A ranged attack entering a hex; an ability may stop or turn it there (redirection, terrain). ``go_on(hex,
    direction)`` is how this kind of shot flies on from a hex (a Gauss beam's own walk); ``None``: as a plain
    ranged attack (:meth:`solver.engine.battle.Fight.fire`).
``reactions(fight, phase, hits)``
    Hits that other hits set off as they land (a Trap, a Mad Bomber).
``hq_wounds(fight, phase, hex, hits)``
    Wounds about to land on an HQ, which a family may deal with instead (the score mode).
``after_damage(fight, phase, damage, removed)``
    What follows the wounds of a phase (venom markers, toughness lost).
``phase_end(fight, phase, removed)`` / ``battle_end(fight)``
    Consequences at the end of a phase (removed units going elsewhere) and of the battle.
``boost(fight, bonuses)``
    What the position itself adds to units besides modules and HQs (a Fortress's toughness, Prize markers),
    added to ``bonuses`` each time the battle reads the position.
``instant_hits(fight, hits)``
    The hits of an Instant tile (Sniper, Grenade, Bomb ...) before they land; a family may drop some (Thick
    Forest and Hidden Bunkers are immune to instants).

Between battles (:mod:`solver.turns.actions`): ``turn_actions`` lists the actions an ability grants, ``turn_results``
applies one, ``turn_problem`` says why one is illegal, ``turn_over`` says that the family has closed the turn to
every action but its own (the Duel board's Energy purchases). ``barred(position, tile, hex, army)`` says why a tile
may not be placed, moved or pushed onto a hex (Closed terrain, Jungle, a Tight Bunker), ``never_filled(position)``
names the hexes a full board does not need (Closed and Fatal terrain), ``pushed(position, source, dest)`` reacts
to a push (a Rocky Hill); these three are asked only when the position has terrain.

A family keeps what it must remember during one battle in ``fight.memo`` (under its own key, as dicts, lists and
sets of plain values), nowhere else: a battle with choices goes on from copies of the fight where a choice falls
(:meth:`solver.engine.battle.Fight.fork` copies the memo) and merges fights whose states, memo included, are equal.

Each point's default does nothing; a family overrides the points it needs. A family is *present* when a tile on
the board (or in a hand) carries one of its triggers, or when the position has one of its ``position_features``,
in battle and between battles alike: a field of the position that is not empty (the Duel board is no tile: its
family is present where the position has ``terminals`` or ``energy``, NOTATION §10.2; terrain where it has
``terrain``), or a feature read off the position by :data:`DERIVED_FEATURES` (``multiplayer``: three or more HQs;
``unit-prizes``: a Prize marker on a unit). That is the one way the position itself makes a family present
(:func:`features_of`). The loops ask only the families present, and of them only those that override the point,
so a battle of plain warriors pays nothing for the expansions.
"""

from __future__ import annotations

import importlib
import operator
import pkgutil
from functools import lru_cache
from typing import TYPE_CHECKING, Callable, Iterable, Mapping, Sequence

from .fight import Hit, Strike
from ..hexes import Direction, Hex
from ..tiles import Edge, Kind, Tile

if TYPE_CHECKING:  # pragma: no cover - types only
    from ..turns.actions import Spent
    from .battle import Fight
    from .effects import Bonus
    from ..position import Action, Position, Unit, Use
    from ..rules import RuleSet

Units = Mapping[Hex, "Unit"]


class Ability:
    """One ability family: the triggers that make it present, and its rule at the points it overrides."""

    #: Tile abilities (``ability NAME`` in an army file) that make the family present.
    tile_abilities: frozenset[str] = frozenset()
    #: Module effects (``module TYPE``) that make it present.
    module_effects: frozenset[str] = frozenset()
    #: Edge icons (``edge …: NAME``) that make it present.
    edge_specials: frozenset[str] = frozenset()
    #: Features of the position that make the family present though no tile carries it: names of
    #: :class:`~solver.position.Position` fields, present when not empty (the Duel board's ``terminals``, ``terrain``),
    #: or of :data:`DERIVED_FEATURES` (``multiplayer``, ``score``, ``unit-prizes``).
    position_features: frozenset[str] = frozenset()
    #: Where several families act at one point, lower ``order`` acts first.
    order: int = 100
    #: Whether nothing the family does deals an HQ more damage than the base rules' bound of the search counts
    #: (:mod:`solver.search.bound`: the strongest icon reaching the HQ's hex, with every bonus). A family that does
    #: not declare it turns the search's pruning off wherever it is present, so that no bound is ever wrong.
    within_hq_bound: bool = False

    @classmethod
    def carried_by(cls, tile: Tile) -> bool:
        if cls.tile_abilities & tile.abilities:
            return True
        if tile.module is not None and tile.module.type in cls.module_effects:
            return True
        if cls.edge_specials and tile.edges:
            return any(cls.edge_specials & edge.special for edge in tile.edges)
        return False

    #: For the search's bound (with ``within_hq_bound``): whether the family may turn a unit's melee attack into a
    #: ranged one or back (a Quartermaster): every attack then counts along the whole line, with both bonuses.
    bound_turns_attacks: bool = False
    #: For the search's bound (with ``within_hq_bound``): the wounds a unit carrying the family may deal every
    #: adjacent unit, HQs included, in any direction (a Clown's blast; 0: none).
    bound_blast: int = 0
    #: For the search's bound (with ``within_hq_bound``): whether the family may make another army's unit (never
    #: an HQ) fight for the player, and turn it when taken (a takeover): the bound then counts every unit but the
    #: HQs as the player's, in its best facing while the turn goes on, and every module's bonuses.
    bound_takes_units: bool = False
    #: For the search's bound (with ``within_hq_bound``): whether a friendly shot meeting a unit carrying the family
    #: may be turned and go on, to the HQ or round a loop that never ends (a redirector, RULINGS 50 and 65): the bound
    #: counts no limit on what such a shot deals.
    bound_redirects: bool = False
    #: For the search's bound (with ``within_hq_bound``): the most wounds an HQ may take from markers at the start of
    #: every battle after the first, beside those already on it at the first (venom: B13 VENOM ISSUES, two markers).
    bound_poison: int = 0
    #: For the search's bound (with ``within_hq_bound``): how many of the player's units one use of the family's
    #: instant may move or turn (a Castling swaps two, a Rotation turns one): each counted at its best anywhere, as
    #: the Move tile's unit is. 0: the family's instants are none the bound knows.
    bound_moved_units: int = 0
    #: For the search's bound (with ``bound_moved_units``): whether one use of the family's instant moves or turns
    #: only units on the hexes it names (its targets: the two a Castling swaps, the one a Rotation turns), so that a
    #: use may be bounded before its result is made (:meth:`solver.search.bound.HqBound.last_use`).
    bound_moves_named: bool = False

    def bound_moved(self, position: Position, use: Use) -> tuple[tuple[Hex, Unit], ...] | None:
        """For the search's bound (with ``bound_moves_named``): where the units a use of the family's instant moves or
        turns stand after it, each with the hex it left (one result, whatever the opponent answers); None where the
        family does not say (the bound then counts each unit the use names at its best anywhere)."""
        return None

    #: For the search's bound (with :meth:`bound_frees`): whether what :meth:`bound_frees` says names no hexes (every
    #: unit of the player's) and stays the same after a tile is placed or an instant used (it reads only what those
    #: leave as they are: the family's HQ, what is spent of it), so that a placement run or the turn's last use may
    #: be bounded before its state is made. The Doomsday HQ's rotation declares it; the Smart HQ (the units next to
    #: it) does not.
    bound_frees_stay: bool = False

    def bound_frees(self, position: Position, army: str, used: frozenset[Spent]) -> tuple[str, frozenset[Hex] | None]:
        """For the search's bound (a family declaring ``within_hq_bound``): what the family may still do in
        ``army``'s turn, as it stands, to where ``army``'s units stand and face: ``("", None)`` nothing; ``("turn",
        hexes)``, the units on ``hexes`` (None: any unit) may be turned where they stand (the bound counts each in
        its best facing there); ``("move", hexes)``, moved and turned (each counted at its best anywhere). Where
        anything else may still move a unit of the player's (a Move tile, Mobility, a Transport), a unit could first
        be brought onto such a hex: the bound then counts every unit. Asked only while the turn may go on."""
        return "", None

    def bound_line_strike(self, edge: Edge) -> int:
        """For the search's bound (a family declaring ``within_hq_bound``): the strongest strike, before ranged
        bonuses, that an edge icon this family plays deals each unit on the edge's line, whatever stands between
        (0: none). Read only where the edge carries one of the family's ``edge_specials``."""
        return 0

    # --- reading a position ---
    def takeovers(self, units: Units, rules: RuleSet) -> dict[Hex, str]:
        return {}

    def links(self, units: Units, nets: frozenset[Hex], sides: Mapping[Hex, str], ground: Sequence[Unit],
              found: list[tuple[Unit, Unit, Unit]]) -> list[tuple[Unit, Unit, Unit]]:
        return found

    # --- the battle ---
    def battle_start(self, fight: Fight) -> list[Hit]:
        return []

    def phase_hits(self, fight: Fight, phase: int) -> list[Hit]:
        return []

    def act(self, fight: Fight, unit: Unit, phase: int, bonus: Bonus | None) -> list[Hit] | None:
        return None

    def strikes(self, fight: Fight, unit: Unit, phase: int, bonus: Bonus | None,
                strikes: list[Strike]) -> list[Strike]:
        return strikes

    def edge_hits(self, fight: Fight, unit: Unit, direction: Direction, edge: Edge, bonus: Bonus | None,
                  phase: int) -> list[Hit]:
        return []

    def shot_meets(self, fight: Fight, shooter: Unit, hex_: Hex, direction: Direction, strength: int,
                   phase: int, go_on: Callable[[Hex, Direction], list[Hit]] | None = None) -> list[Hit] | None:
        """``None``: the shot flies on as usual; a list: the shot ends here with these hits."""
        return None

    def reactions(self, fight: Fight, phase: int | None, hits: Sequence[Hit]) -> list[Hit]:
        return []

    def hq_wounds(self, fight: Fight, phase: int | None, hex_: Hex, hits: Sequence[Hit]) -> bool:
        """The HQ on ``hex_`` is to take ``hits`` (none absorbed); True when the family has dealt with them
        instead (the score mode turns them into the attackers' points)."""
        return False

    def after_damage(self, fight: Fight, phase: int | None, damage: Mapping[Hex, int], removed: set[Hex]) -> None:
        return None

    def phase_end(self, fight: Fight, phase: int, removed: set[Hex]) -> None:
        return None

    def battle_end(self, fight: Fight) -> None:
        return None

    def boost(self, fight: Fight, bonuses: dict[Hex, Bonus]) -> None:
        return None

    def instant_hits(self, fight: Fight, hits: list[Hit]) -> list[Hit]:
        return hits

    # --- between battles (solver/turns/actions.py) ---
    #: Instant tiles (by tile name) whose use this family owns: Rotation, Castling, Small Bomb, Terror, ...
    instants: frozenset[str] = frozenset()
    #: Whether a tile placed from the hand is, as far as this family goes, its unit put on the hex and nothing more:
    #: the family claims no such placement (:meth:`turn_results`), acts on no arrival (:meth:`arrived`) and moves or
    #: wounds nothing when one is made. The search may then bound a placement run before making its state
    #: (:meth:`solver.search.bound.HqBound.placements`); a family that does not declare it keeps every run made.
    places_plainly: bool = False

    def quiet_in_turn(self, position: Position, player: str, offer: tuple[Tile, ...]) -> bool:
        """Whether, in any turn of ``player``'s from ``position`` with ``offer`` in hand, the family's points between
        battles (above and below: turn actions, results, what is spent, arrivals, ...) change nothing, so that the
        search may list the turn as on a board without it (:func:`acting_in_turn`). False unless the family proves
        it: another army's HQ's grant, say, acts only in that army's turns."""
        return False

    def turn_actions(self, position: Position, army: str, used: frozenset[Spent],
                     every_destination: bool) -> Iterable[Action]:
        """Actions the family grants ``army`` besides the tiles in hand (free moves by an HQ, a Pusher's push,
        procedures, ...), and the uses of its instants held in ``army``'s hand. ``every_destination``: list a
        choice of the opponent's (where a pushed unit goes) as separate actions."""
        return ()

    def turn_results(self, position: Position, action: Action, army: str,
                     used: frozenset[Spent]) -> tuple[tuple[str, Position], ...] | None:
        """Every result of ``action`` with the other player's choice leading to it, when the action is this
        family's; None when it is not. Raises IllegalAction naming the rule an action of its own breaks."""
        return None

    def turn_outcomes(self, position: Position, army: str, used: frozenset[Spent]
                      ) -> list[tuple[Action, tuple[tuple[str, Position], ...]]] | None:
        """The legal actions among :meth:`turn_actions` (``every_destination`` False), in its order, each with its
        :meth:`turn_results`, where the family lists them faster together than one by one (what the results check
        of an action, read once for all); None: list them one by one. The search asks it where this family alone
        claims results (tests/test_search_speed.py compares the two)."""
        return None

    def turn_over(self, position: Position, used: frozenset[Spent]) -> bool:
        """Whether ``used`` shows that this family has ended the turn but for its own actions (after buying
        Energy only more purchases follow): the turn rules then list only the families' actions."""
        return False

    def spent(self, position: Position, action: Action, army: str, used: frozenset[Spent]) -> frozenset[Spent]:
        """What a turn-limited grant of this family has used once ``action`` is done (``used`` by default)."""
        return used

    def arrived(self, position: Position, hex_: Hex) -> Position:
        """A unit has just been placed, moved or pushed onto ``hex_`` in ``position`` (foundations react)."""
        return position

    def barred(self, position: Position, tile: Tile, hex_: Hex, army: str) -> str | None:
        """Why ``army``'s ``tile`` may not be placed, moved or pushed onto ``hex_`` (the rule), or None."""
        return None

    def never_filled(self, position: Position) -> frozenset[Hex]:
        """Hexes a board is full without (3E USING TILES: a full board starts a Battle)."""
        return frozenset()

    def pushed(self, position: Position, source: Hex, dest: Hex) -> Position:
        """The unit on ``source`` has just been pushed to ``dest``."""
        return position


#: Abilities, module effects and edge icons whose rules nhex does not implement yet, with the rule each needs. A
#: battle or a turn with such a tile on the board refuses to go on (exit 4) rather than do without the rule.
#: A family that implements one removes its line here.
NOT_IMPLEMENTED: dict[str, str] = {
}


@lru_cache(maxsize=None)
def missing_rule(tile: Tile) -> str | None:
    """The rule a tile needs that nhex does not implement yet, or None."""
    names = set(tile.abilities)
    if tile.module is not None:
        names.add(tile.module.type)
    for edge in tile.edges or ():
        names |= edge.special
    return next((NOT_IMPLEMENTED[n] for n in sorted(names) if n in NOT_IMPLEMENTED), None)


#: The package whose modules are the ability families (solver/abilities/).
FAMILIES_PACKAGE = "solver.abilities"


@lru_cache(maxsize=None)
def families() -> tuple[type[Ability], ...]:
    """Every ability family nhex implements: each :class:`Ability` subclass defined in a module of solver/abilities/,
    found by looking (so a new family is one new module, and no list needs editing), in the order of their
    ``order`` and then their names, which is the order they act in at a shared point."""
    found: list[type[Ability]] = []
    # The families are found by name, not imported: they stand above the engine and the turn rules (they import
    # both), and this module is how those loops reach them.
    package = importlib.import_module(FAMILIES_PACKAGE)
    for info in pkgutil.iter_modules(package.__path__):
        module = importlib.import_module(f"{FAMILIES_PACKAGE}.{info.name}")
        for value in vars(module).values():
            if (isinstance(value, type) and issubclass(value, Ability) and value is not Ability
                    and value.__module__ == module.__name__):
                found.append(_check_family(value))
    return tuple(sorted(found, key=lambda family: (family.order, family.__module__, family.__name__)))


def _check_family(family: type[Ability]) -> type[Ability]:
    if "present_in" in vars(family):  # a former second mechanism of presence: it would be silently ignored
        raise TypeError(f"{family.__name__}: a family is present by position_features, not present_in")
    return family


@lru_cache(maxsize=4096)
def present(tiles: frozenset[Tile], features: frozenset[str] = frozenset()) -> tuple[Ability, ...]:
    """The families carried by these tiles or switched on by these features of the position, one instance each
    (families keep no state: a battle's state is in the fight they are handed)."""
    return tuple(family() for family in families()
                 if family.position_features & features or any(family.carried_by(t) for t in tiles))


def present_on(units: Iterable[Unit]) -> tuple[Ability, ...]:
    return present(frozenset(u.tile for u in units))


def features_of(position: Position) -> frozenset[str]:
    """The features of a position, not of its tiles, that families are present by (:attr:`Ability.position_features`):
    every non-empty field of the position a family names (``terminals``, ``energy``, ``terrain``, ...), and every
    :data:`DERIVED_FEATURES` entry a family names that holds of the position."""
    names, values, derived = _feature_tests()
    read = values(position)
    found = [name for name, value in zip(names, read) if value] if any(read) else []
    for name, holds in derived:
        if holds(position):
            found.append(name)
    return frozenset(found) if found else _NO_FEATURES


_NO_FEATURES: frozenset[str] = frozenset()


@lru_cache(maxsize=None)
def _feature_tests() -> tuple[tuple[str, ...], Callable[[Position], tuple], tuple[tuple[str, Callable], ...]]:
    """What :func:`features_of` reads, made once: the field features' names, one getter of all their values (every
    battle asks; a C attrgetter instead of a getattr each), and the derived features with their tests."""
    names = _field_features()
    getter = operator.attrgetter(*names) if len(names) > 1 else (lambda position: (getattr(position, names[0]),)) \
        if names else (lambda position: ())
    return names, getter, tuple((name, DERIVED_FEATURES[name]) for name in _derived_features())


_KIND_OF = operator.attrgetter("tile.kind")  # in C: every battle asks these of every unit (issue 15)
_PRIZES_OF = operator.attrgetter("prizes")
_HQ = Kind.HQ  # an enum member read through its class costs a descriptor call in Python 3.11

#: Features read off a position rather than one of its fields, each with its test.
DERIVED_FEATURES: dict[str, Callable[[Position], bool]] = {
    # three or more HQs on the board (3E THE MULTIPLAYER MODE)
    "multiplayer": lambda position: list(map(_KIND_OF, position.units)).count(_HQ) >= 3,
    # the score mode (NOTATION §10.5 `mode score`)
    "score": lambda position: position.mode == "score",
    # a Prize marker on a unit (B13 PRIZE MARKERS; held markers are the field ``held_prizes``)
    "unit-prizes": lambda position: any(map(_PRIZES_OF, position.units)),
}


@lru_cache(maxsize=None)
def _field_features() -> tuple[str, ...]:
    return tuple(name for name in position_features() if name not in DERIVED_FEATURES)


@lru_cache(maxsize=None)
def _derived_features() -> tuple[str, ...]:
    return tuple(name for name in position_features() if name in DERIVED_FEATURES)


def at_point(abilities: tuple[Ability, ...], point: str) -> tuple[Ability, ...]:
    """The families among ``abilities`` that act at ``point`` (override its default)."""
    default = getattr(Ability, point)
    return tuple(a for a in abilities if getattr(type(a), point) is not default)


#: Every point of the loops, by name (the methods of :class:`Ability` that a family may override).
POINTS = ("takeovers", "links", "battle_start", "phase_hits", "act", "strikes", "edge_hits", "shot_meets",
          "reactions", "hq_wounds", "after_damage", "phase_end", "battle_end", "boost", "instant_hits")


class Points:
    """For one set of tiles, the families present at each point: ``points.act`` is the tuple of families
    acting at ``act``. Built once per set of tiles, so a loop pays one attribute read per point."""

    __slots__ = POINTS

    def __init__(self, present: tuple[Ability, ...]) -> None:
        for point in POINTS:
            setattr(self, point, at_point(present, point))

    takeovers: tuple[Ability, ...]
    links: tuple[Ability, ...]
    battle_start: tuple[Ability, ...]
    phase_hits: tuple[Ability, ...]
    act: tuple[Ability, ...]
    strikes: tuple[Ability, ...]
    edge_hits: tuple[Ability, ...]
    shot_meets: tuple[Ability, ...]
    reactions: tuple[Ability, ...]
    hq_wounds: tuple[Ability, ...]
    after_damage: tuple[Ability, ...]
    phase_end: tuple[Ability, ...]
    battle_end: tuple[Ability, ...]
    boost: tuple[Ability, ...]
    instant_hits: tuple[Ability, ...]


@lru_cache(maxsize=4096)
def points_of(tiles: frozenset[Tile], features: frozenset[str] = frozenset()) -> Points:
    return Points(present(tiles, features))


def points_on(units: Iterable[Unit]) -> Points:
    """The points' families for the tiles of these units."""
    return points_of(frozenset(u.tile for u in units))


def points_for(position: Position) -> Points:
    """The points' families for a whole position: those its tiles carry and those a feature of the position
    (:func:`features_of`: terrain, turrets, Prize markers, the Duel board, the multiplayer modes) switches on."""
    return points_of(frozenset(u.tile for u in position.units), features_of(position))


#: Between-battle rules nhex does not implement yet, by ability or module effect, as NOT_IMPLEMENTED.
TURN_NOT_IMPLEMENTED: dict[str, str] = {
}


@lru_cache(maxsize=None)
def missing_turn_rule(tile: Tile) -> str | None:
    """The between-battles rule a tile needs that nhex does not implement yet, or None."""
    names = set(tile.abilities)
    if tile.module is not None:
        names.add(tile.module.type)
    found = sorted(n for n in names if n in TURN_NOT_IMPLEMENTED)
    return f"{TURN_NOT_IMPLEMENTED[found[0]]} ({tile.key})" if found else None


class TurnPoints:
    """For one set of tiles (on the board and in hand), the families acting between battles."""

    __slots__ = ("present", "turn_actions", "turn_results", "turn_over", "spent", "arrived", "instants", "barred",
                 "never_filled", "pushed")

    def __init__(self, present: tuple[Ability, ...]) -> None:
        self.present = present
        self.turn_actions = at_point(present, "turn_actions")
        self.turn_over = at_point(present, "turn_over")
        self.turn_results = at_point(present, "turn_results")
        self.spent = at_point(present, "spent")
        self.arrived = at_point(present, "arrived")
        self.barred = at_point(present, "barred")
        self.never_filled = at_point(present, "never_filled")
        self.pushed = at_point(present, "pushed")
        #: The family owning each instant tile name.
        self.instants: dict[str, Ability] = {name: a for a in present for name in a.instants}


@lru_cache(maxsize=4096)
def turn_points_of(tiles: frozenset[Tile], features: frozenset[str] = frozenset()) -> TurnPoints:
    return TurnPoints(tuple(family() for family in families()
                            if family.position_features & features
                            or any(family.carried_by(t) or t.name in family.instants and t.kind.value == "instant"
                                   for t in tiles)))


def acting_in_turn(points: TurnPoints, position: Position, player: str, offer: Iterable[Tile]) -> TurnPoints:
    """``points`` without the families that act on nothing in ``player``'s turn from ``position`` with ``offer`` in
    hand (:meth:`Ability.quiet_in_turn`): what the search reads to choose its fast paths. The turn rules still ask every
    family present (:func:`turn_points`); a quiet one changes nothing there."""
    offer = tuple(offer)
    acting = tuple(family for family in points.present if not family.quiet_in_turn(position, player, offer))
    return points if len(acting) == len(points.present) else TurnPoints(acting)


@lru_cache(maxsize=None)
def position_features() -> tuple[str, ...]:
    """Every position field some family is present by (:attr:`Ability.position_features`)."""
    return tuple(sorted({name for family in families() for name in family.position_features}))


@lru_cache(maxsize=512)  # the turn rules ask it several times of each position (listing, results, spending)
def turn_points(position: Position) -> TurnPoints:
    """The families acting between battles in ``position``: carried by a unit or foundation on the board, or an
    instant in a hand, or present by a feature of the position (:attr:`Ability.position_features`: terrain, Prize
    markers, the Duel board, ...)."""
    tiles = {u.tile for u in position.units}
    tiles.update(f.tile for f in position.foundations)
    for _, hand in position.hands:
        tiles.update(hand)
    return turn_points_of(frozenset(tiles), features_of(position))
