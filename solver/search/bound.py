"""An admissible bound on what the player can still do to the goal from a state of the turn, to prune the search.

The search may leave a state unexpanded and unplayed only when no completion of the turn from it (stopping at
once included) can reach the goal: a state pruned so is a losing state, which is what the AND-OR makes of it, so
no winning play is lost and no losing one is made to win (``--naive`` prunes nothing, and
``tests/test_search_bound.py`` holds the two searches equal and the bound above every completion it tries).

What is bounded is the damage the enemy HQ can take in the battles that follow the turn: from the player's units,
and from a blast of its own army's (a Clown's blast wounds every adjacent unit).
Every term is generous, never tight:

* a unit strikes the HQ only if an attacking icon of it reaches the HQ's hex in its present facing (a melee icon
  on the adjacent hex, a ranged icon on any hex of its line, whatever stands between: a unit in the way may die
  first); a unit that may still move or turn this turn (its Mobility unspent, or any unit while a Move tile can
  still be played) counts as reaching it wherever it stands, and a unit whose facing the search has deferred
  counts in its best facing;
* each strike is at most the unit's strongest icon plus every strength bonus the player's modules on the board
  and in hand could give (the bonuses of the enemy's modules too while the player has a Scoper), as often as the
  unit has initiatives plus every extra initiative those modules could give;
* a Push Back still in hand may move the enemy HQ to any hex next to it (option ``push-back-hq``);
* each warrior (or tile with a blast, a Trap) still in hand adds its best as if placed where it reaches, the Move
  tile the most a unit gains by moving, and only as many of those as tiles may still be played;
* as many battles as may follow: those the turn has caused, one more while a tile may still be played (a full
  board, a Battle tile), and what ``then`` says.

The ends of a state (stopping there, each deferred facing chosen) are bounded unit by unit, without making their
positions (:meth:`HqBound.stopping`): the turn is over, so nothing moves and no Mobility counts. So are the states
that placement runs lead to, without making them (:meth:`HqBound.placements`), where a tile placed is only its unit
put on the hex (:attr:`solver.engine.points.Ability.places_plainly`): the same terms, each placed tile counted
where it lands; and those the last tile of the turn leads to when it is an instant (:meth:`HqBound.last_use`), the
units on the hexes the use names counted at their best anywhere.

An HQ's health never rises in a battle, so the player's own HQ ends at most where it stands; nothing here bounds
what the opponent deals, so it may end anywhere below. The goal is then read three-valued by its structure
(:func:`possible`): ``and``/``or`` combine, ``not`` swaps "may hold" and "must hold", and a goal the bound cannot
read (a watched unit alive or dead, team play, the score mode) may hold.

Soundness by construction: the bound reads only the base rules. It is used only where every ability family present
declares that it deals an HQ nothing beyond them (:attr:`solver.engine.points.Ability.within_hq_bound`: the Gauss
beam, counted as a ranged icon of the strength it declares; the Quartermaster, every attack then counted along its
line with both bonuses; the Clown's blast, counted on every side of it; a takeover, every unit but the HQs counted
as the player's: :meth:`HqBound._mine`; a redirector, any shot whose line meets one of the player's counted without
limit, :data:`UNBOUNDED`), every module effect and instant tile is one it knows, and the board holds
the player's and one enemy army's units alone, none commanded by another army. Anywhere else the search prunes
nothing.
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from functools import cache
from typing import TYPE_CHECKING, Callable, Iterable, Sequence

from ..engine import points as hooks
from ..notation.cards import Alive, And, Destroy, DrawOrWin, Goal, HpCompare, Not, Or, Puzzle, Survive, Win
from ..hexes import Direction, Hex
from ..position import Position, Unit, Use
from ..tiles import Edge, Kind, Tile
from ..turns.actions import Spent

if TYPE_CHECKING:
    from .enumeration import State

#: Module effects that add to a unit's attack, with the attacks they add to (RULINGS 13, 39: the Boss and Symbiont
#: Gamma add to melee only, or ranged too with ``boss-ranged``; counted for both, which is never less).
STRENGTH_EFFECTS: dict[str, tuple[str, ...]] = {
    "melee-bonus": ("melee",), "ranged-bonus": ("ranged",), "melee-and-ranged-bonus": ("melee", "ranged"),
    "strength-and-initiative-bonus": ("melee", "ranged"), "melee-and-initiative-bonus": ("melee",),
}
#: Module effects that give a unit more actions in a battle.
ACTION_EFFECTS = frozenset({"extra-initiative"})
#: Module effects that deal no HQ damage and move no unit: an earlier or later initiative, a Medic's absorbed
#: wound, toughness, the Recon Center's longer move (moves are counted wherever they go), the Scoper (its taken
#: bonuses are counted, below).
NEUTRAL_EFFECTS = frozenset({"initiative-bonus", "medic", "toughness-bonus", "double-move",
                             "take-over-enemy-modules"})
#: Module effects that let units move (a Transport's linked units, as if they had Mobility): a module of the
#: player's counts every unit of the player's as moving while the turn goes on; the enemy's moves nothing in it.
MOVING_EFFECTS = frozenset({"grant-mobility"})
#: Instant tiles the bound knows: none wounds an HQ (3E SNIPER, GRENADE: not an HQ; AIR STRIKE: "except for
#: Headquarters"); Move moves one own unit (counted), Push Back an enemy unit (the HQ: counted), Battle adds a battle.
KNOWN_INSTANTS = frozenset({"move", "push-back", "battle", "sniper", "grenade", "air-strike"})
#: What a shot that a redirector may turn deals, at most: more than any HQ's health (RULINGS 65: a loop wounds
#: without end).
UNBOUNDED = 10 ** 6
#: Tile abilities the base rules play: Mobility (counted as a move).
KNOWN_ABILITIES = frozenset({"mobility"})


def readable(puzzle: Puzzle) -> bool:
    """Whether the bound may be used on this card at all (see the module's last paragraph)."""
    position = puzzle.position
    tiles = frozenset({u.tile for u in position.units} | {f.tile for f in position.foundations} | set(puzzle.offer))
    present = hooks.present(tiles, hooks.features_of(position))
    if any(not family.within_hq_bound for family in present):
        return False
    if position.teams or position.mode == "score" or position.foundations:
        return False
    armies = {u.army for u in position.units}
    if len(armies) != 2 or puzzle.player not in armies or any(u.owner is not None for u in position.units):
        return False
    if any(t.army != puzzle.player for t in puzzle.offer):  # a mercenary offered: not the base rules
        return False
    covered = set().union(*(family.tile_abilities | family.edge_specials for family in present)) if present else set()
    effects = set().union(*(family.module_effects for family in present)) if present else set()
    for tile in tiles:
        if tile.kind is Kind.INSTANT:
            if tile.name not in KNOWN_INSTANTS and tile.name not in moving_instants():
                return False
            continue
        if tile.kind is Kind.FOUNDATION or not tile.abilities <= KNOWN_ABILITIES | covered:
            return False
        if any(edge.special - covered for edge in tile.edges or ()):
            return False
        module = tile.module
        if module is not None:
            if module.type in STRENGTH_EFFECTS or module.type in ACTION_EFFECTS:
                if module.value is None or module.value < 0 or module.target != "friendly":
                    return False
            elif module.type not in NEUTRAL_EFFECTS | MOVING_EFFECTS and module.type not in effects:
                return False
    return True


@cache
def named_movers() -> dict[str, hooks.Ability]:
    """The families whose instant's use moves only units on the hexes it names (``bound_moves_named``), by the
    instant's name: they may say where those units stand after it (:meth:`~solver.engine.points.Ability.bound_moved`)."""
    return {name: family() for family in hooks.families()
            if family.within_hq_bound and family.bound_moves_named for name in family.instants}


@cache
def moving_instants(named: bool = False) -> dict[str, int]:
    """The instants of families that declare how many of the player's units a use moves or turns
    (:attr:`solver.engine.points.Ability.bound_moved_units`), with that number; ``named``: of those, the ones
    whose use moves only units on the hexes it names (``bound_moves_named``)."""
    return {name: family.bound_moved_units for family in hooks.families()
            if family.within_hq_bound and family.bound_moved_units and (family.bound_moves_named or not named)
            for name in family.instants}


@dataclass(frozen=True)
class Reach:
    """What the bound reads of one state: each army's HQ health now, at most (``high``) and at least (``low``)
    after everything that may follow."""

    high: dict[str, int]
    low: dict[str, int]


@dataclass(frozen=True)
class Stopping:
    """:meth:`HqBound.stopping`: what the bound reads of stopping in one state, per choice of its deferred facings.
    An HQ's damage rises with what is dealt, and the goal may only come within reach as it does: the ends cut are
    those whose deferred units' shares add up to at most some total (:meth:`Enumerator.completions`)."""

    battles: int  # battles that follow
    fixed: int  # what the units not deferred (and the enemy's own blasts) deal the enemy HQ a battle, at most
    shares: dict[Hex, dict[Direction, int]]  # what each deferred unit deals it a battle, per facing
    margin_if_hopeless: Callable[[int], int | None]  # the margin bound, when no end dealing this much reaches the goal

    poisoned: int = 0  # what markers deal the enemy HQ in those battles, at most (HqBound._poisoned)

    def cut(self, deferred: int) -> int | None:
        """The margin bound of an end whose deferred units deal ``deferred`` a battle, None if it may reach the goal."""
        return self.margin_if_hopeless(self.battles * (self.fixed + deferred) + self.poisoned)


class HqBound:
    """The bound for one card's search: :meth:`hopeless` says whether a state can be pruned."""

    def __init__(self, puzzle: Puzzle) -> None:
        self.puzzle = puzzle
        self.player = puzzle.player
        self.limit = puzzle.tiles_to_play
        self.start_hp = {u.army: u.health for u in puzzle.position.units if u.is_hq}
        self.after = {"final-battle": 1, "battle": 1, "nothing": 0}[puzzle.then]
        position = puzzle.position
        tiles = frozenset({u.tile for u in position.units} | set(puzzle.offer))
        #: The families present that play edge icons of their own (a Gauss beam), each counted as a ranged icon of
        #: the strength the family declares (:meth:`~solver.engine.points.Ability.bound_line_strike`).
        present = hooks.present(tiles, hooks.features_of(position))
        #: The families present, asked what they may still do to the player's units in the turn (bound_frees).
        self.present = present
        self.freeing = tuple(family for family in present
                             if type(family).bound_frees is not hooks.Ability.bound_frees)
        #: Whether a module that lets units move is on the card (a Transport): nothing else in :meth:`_frees` may
        #: free a unit where neither it nor a freeing family nor a takeover is.
        self.transports = any(t.module is not None and t.module.type in MOVING_EFFECTS for t in tiles)
        self.line_families = tuple(family for family in present if family.edge_specials)
        #: Whether a family may turn melee attacks into ranged ones and back (a Quartermaster).
        self.turned = any(family.bound_turns_attacks for family in present)
        #: The families that let a unit carrying them blast every adjacent unit (a Clown), by the wounds dealt.
        self.blasts = tuple((family.tile_abilities, family.bound_blast) for family in present if family.bound_blast)
        #: Whether a family may make another army's unit fight for the player (a takeover): every unit but the HQs
        #: is then counted as the player's (:meth:`_mine`).
        self.takes = any(family.bound_takes_units for family in present)
        #: The tile abilities of the families that may turn a friendly shot (redirectors), none if absent.
        self.redirecting = frozenset().union(*(family.tile_abilities for family in present if family.bound_redirects))
        #: The most wounds markers may deal an HQ at the start of a battle after the first (venom; 0: none), and the
        #: tile abilities that put markers on (a Nightshade's venom).
        self.poison = max((family.bound_poison for family in present), default=0)
        self.poisoning = frozenset().union(*(family.tile_abilities for family in present if family.bound_poison))
        self._per_position: dict[tuple, tuple[int, tuple[tuple[Unit, int], ...]]] = {}
        self._per_tile: dict[tuple[Tile, int, int, int], int] = {}
        self._per_unit: dict[tuple, tuple[int, int]] = {}
        self._per_facing: dict[tuple, dict[Direction, int]] = {}
        #: What a tile placed deals where it lands and gains by moving (:meth:`placements`), per tile, cell, targets
        #: and bonuses: the runs of many states put the same tiles on the same cells.
        self._per_cell: dict[tuple, tuple[int, int]] = {}
        #: :meth:`cut`'s margin bound of a hopeless state (None: not hopeless), per what it reads of a state.
        self._ahead: dict[tuple, int | None] = {}

    # --- the damage bound ---
    def damage(self, state: State) -> int:
        """At most how much damage the player's units deal the enemy HQ in everything that follows ``state``."""
        position = state.position
        plays_left = 0 if state.over else max(0, self.limit - state.played)
        battles = state.battles_done + (1 if plays_left else 0) + self.after
        if battles == 0:
            return 0
        hand = state.hand if plays_left else ()
        melee, ranged, actions = self._bonuses(position, hand)
        moves = any(t.kind is Kind.INSTANT and t.name == "move" for t in hand)
        pushes = any(t.kind is Kind.INSTANT and t.name == "push-back" for t in hand)
        # A Castling or a Rotation in hand: how many units each use moves or turns.
        instants = moving_instants()
        movers = [instants[t.name] for t in hand if t.kind is Kind.INSTANT and t.name in instants]
        own_moves = moves or bool(movers)  # an instant in hand moves or turns a unit of the player's
        turned, moved = self._frees(state, hand, own_moves, pushes)
        free = state.free | turned  # a unit that may still be turned where it stands: its best facing there
        redirectors = self._redirectors(position)
        if self.redirecting and not state.over and self._redirector_may_come(state, hand, moved, own_moves,
                                                                                 redirectors):
            # A redirector placed, or moved, onto the line of any shot of the player's may turn it anywhere.
            if any(self._shoots(u.tile) for u in position.units if self._mine(u)) or any(
                    self._shoots(t) for t in hand):
                return battles * UNBOUNDED
        fixed, gains = self._units(position, melee, ranged, actions, pushes, free)
        # A unit whose Mobility is unspent may still move and turn while the turn goes on: it reaches the HQ
        # wherever it stands; so does a unit a family may still move. (A unit whose facing the search has deferred
        # is counted in its best facing where it stands: _units.)
        per_battle = fixed + sum(gain for unit, gain in gains if self._may_move(state, unit, moved))
        per_battle += self._from_hand(hand, [gain for _, gain in gains], plays_left, melee, ranged, actions,
                                      bool(redirectors))
        return battles * per_battle + self._poisoned(position, battles, hand)

    def _from_hand(self, hand: Sequence[Tile], gains: list[int], plays: int, melee: int, ranged: int, actions: int,
                   redirected: bool) -> int:
        """What the tiles in ``hand`` may add a battle, at most, as many of them as ``plays`` may still be played:
        a tile adds its best as if placed where it reaches (a warrior, or a tile with a blast: a Trap), the Move
        tile the most a unit gains by moving (``gains``: each unit's), a Castling or a Rotation the most as many
        units as a use moves or turns gain."""
        instants = moving_instants()
        options = [self._tile_best(t, melee, ranged, actions, redirected) for t in hand
                   if t.kind is Kind.WARRIOR or self._blast(t)]
        if any(t.kind is Kind.INSTANT and t.name == "move" for t in hand):
            options.append(max(gains, default=0))
        counts = [instants[t.name] for t in hand if t.kind is Kind.INSTANT and t.name in instants]
        if counts:
            most = sorted(gains, reverse=True)
            options.extend(sum(most[:count]) for count in counts)
        options.sort(reverse=True)
        return sum(options[:plays])

    def placements(self, state: State, main_empty: frozenset[Hex], deferred: Callable[[Tile], bool]
                   ) -> Callable[[Sequence[Tile], Sequence[tuple[Hex, Direction] | None] | None], int]:
        """:meth:`damage` of the state each placement run from ``state`` leads to, at most, without making that state
        (a card lists tens of thousands of runs and the bound prunes most of their states at once): a function of
        the run's tiles and their hexes and facings, or of some of them (a cell ``None``, or ``None`` for all: any run
        that places those tiles there, each other tile counted at its most on any empty hex, the board filled or
        not). ``main_empty``: the empty hexes of the main
        battlefield (the run that fills them all starts a battle and ends the turn); ``deferred``: whether a tile
        placed stands in a deferred facing (counted in its best one).

        Only where the run's state is ``state``'s position with the tiles' units added and nothing else (no family
        acts on a placement or on arrival, no terrain) and the families' frees stay as they are
        (:meth:`placements_bounded`). Then, term by term against :meth:`damage` of the run's state:

        * the bonuses are those of the same tiles (moved from the hand to the board), or fewer once no tile may be
          played (the hand is then not counted: the bonuses here count it, which is never less);
        * while a tile may still be played after the run, the units already there are counted as here (the same
          facings, frees and targets: no Push Back or Move tile is placed); once none may, as with an empty hand
          (no Push Back or Move tile left to use, nothing moved but by Mobility or a Transport), and after a full
          board nothing moves at all;
        * each unit placed deals what it deals where it stands (in its best facing if deferred or a family may
          turn every unit), and its best anywhere where it has Mobility or a Transport or a family may move it
          while the turn goes on;
        * the player's redirectors are those here and those the run places, and where one may still come onto a
          line after the run (one left in hand, or one that may move) any shot counts without limit, as
          :meth:`damage` counts such a state;
        * the tiles left in hand are counted as :meth:`damage` counts them, the Move tile with the units placed
          among those it may move;
        * the battles that follow: one more for a full board, one fewer where no tile may be played after the run.
        """
        position = state.position
        hand = state.hand
        plays_left = self.limit - state.played
        melee, ranged, actions = self._bonuses(position, hand)
        instants = moving_instants()
        mine = [u for u in position.units if self._mine(u)]
        here_now = self._redirectors(position)
        shooters = any(self._shoots(u.tile) for u in mine)

        def transports(tiles: Iterable[Tile]) -> bool:  # a Transport moves every unit of the player's (_frees)
            return self.transports and any(t.module is not None and t.module.type in MOVING_EFFECTS for t in tiles)

        def redirects(tile: Tile) -> bool:
            return bool(self.redirecting and tile.abilities & self.redirecting)

        standings: dict[tuple[tuple[Tile, ...], frozenset[Hex]], tuple] = {}

        def standing(rest: tuple[Tile, ...], redirectors: frozenset[Hex]
                     ) -> tuple[frozenset, int, int, int, list[int], frozenset[Hex], bool]:
            """What the units already there deal with ``rest`` in hand and the player's redirectors on
            ``redirectors``: the enemy HQ's hexes, the units as they stand, their moves counted, every unit's move
            counted (once a Transport is placed), their gains; the units moved, and the moves ``rest`` allows."""
            key = (rest, redirectors)
            if key not in standings:
                moves = any(t.kind is Kind.INSTANT and t.name == "move" for t in rest)
                pushes = any(t.kind is Kind.INSTANT and t.name == "push-back" for t in rest)
                own_moves = moves or any(t.kind is Kind.INSTANT and t.name in instants for t in rest)
                turned, moved = self._frees(state, rest, own_moves, pushes)
                fixed, gains = self._units(position, melee, ranged, actions, pushes, state.free | turned, redirectors)
                counted = sum(gain for unit, gain in gains if self._may_move(state, unit, moved))
                standings[key] = (self._enemy_hq_hexes(position, pushes), fixed, counted,
                                  sum(gain for _, gain in gains), [gain for _, gain in gains], moved, own_moves)
            return standings[key]

        going_on = tuple(hand)  # a tile may still be played after the run (its instants are all still in hand)
        moving = transports([u.tile for u in mine] + list(hand))
        # A family that frees every unit of the player's (placements_bounded) frees those placed too: each turned
        # stands in its best facing, each moved counts its best anywhere.
        frees = {family.bound_frees(position, self.player, state.used)[0] for family in self.freeing}
        placed_turned, placed_moved = "turn" in frees, "move" in frees
        # What one tile placed deals where it lands, and would gain by moving, per tile, hex, facing, whether a tile
        # may still be played after the run (the enemy HQ's hexes then differ) and the redirectors: a card makes
        # tens of thousands of runs from a few hundred cells.
        cells_dealt: dict[tuple[Tile, Hex, Direction, bool, frozenset[Hex]], tuple[int, int]] = {}
        tiles_dealt: dict[tuple[Tile, bool, frozenset[Hex]], tuple[int, int]] = {}
        empty = position.empty_hexes()
        poisoned: dict[int, int] = {}

        def cell(tile: Tile, hex_: Hex, facing: Direction, left: bool, redirectors: frozenset[Hex]
                 ) -> tuple[int, int]:
            key = (tile, hex_, facing, left, redirectors)
            found = cells_dealt.get(key)
            if found is None:
                targets = standing(going_on if left else (), redirectors)[0]
                placed = (tile, hex_, facing, deferred(tile) or placed_turned, targets, melee, ranged, actions,
                          redirectors)
                found = self._per_cell.get(placed)
                if found is None:
                    here, anywhere = self._strikes(position, Unit(hex_, tile, facing), targets, melee, ranged,
                                                   actions, placed[3], redirectors)
                    found = self._per_cell[placed] = (here, anywhere - here)
                cells_dealt[key] = found
            return found

        def anywhere(tile: Tile, left: bool, redirectors: frozenset[Hex]) -> tuple[int, int]:
            """The most ``tile`` deals placed on any empty hex in any facing, and the most it gains by moving."""
            key = (tile, left, redirectors)
            found = tiles_dealt.get(key)
            if found is None:
                values = [cell(tile, hex_, facing, left, redirectors) for hex_ in empty for facing in Direction]
                found = tiles_dealt[key] = (max((here for here, _ in values), default=0),
                                            max((gain for _, gain in values), default=0))
            return found

        def dealt(tiles: Sequence[Tile], full: bool, values: Sequence[tuple[int, int]],
                  redirectors: frozenset[Hex]) -> int:
            left = 0 if full else plays_left - len(tiles)
            battles = state.battles_done + full + (1 if left else 0) + self.after
            if battles == 0:
                return 0
            rest = list(hand)
            for tile in tiles:
                rest.remove(tile)
            targets, fixed, counted, every_move, existing, moved, own_moves = standing(going_on if left else (),
                                                                                      redirectors)
            if self.redirecting and not full:
                # As damage: a redirector that may still come onto a line (placed later, moved) turns any shot
                # anywhere, where the player has a shooter.
                later = tuple(rest) if left else ()
                # (a redirector the run places is not in the position: it moves by Mobility, a Transport, a family)
                may_come = self._redirector_may_come(state, later, moved, own_moves, redirectors) or any(
                    redirects(tile) and (tile.mobility or moving or placed_moved) for tile in tiles)
                if may_come and (shooters or any(self._shoots(t) for t in [*tiles, *later])):
                    return battles * UNBOUNDED
            per_battle = fixed
            if not full:
                # Once no tile may be played, a Transport placed by the run still moves every unit.
                per_battle += every_move if not left and transports(tiles) and not transports(u.tile for u in mine) \
                    else counted
            for tile, (here, gain) in zip(tiles, values):
                per_battle += here
                if not full and (tile.mobility or moving or placed_moved):
                    per_battle += gain
            if left:  # the units placed are among those the Move tile, a Castling or a Rotation may move
                per_battle += self._from_hand(rest, existing + [gain for _, gain in values], left, melee, ranged,
                                              actions, bool(redirectors))
            if battles not in poisoned:
                poisoned[battles] = self._poisoned(position, battles, hand)
            return battles * per_battle + poisoned[battles]

        def run(tiles: Sequence[Tile], cells: Sequence[tuple[Hex, Direction] | None] | None) -> int:
            if cells is None:
                cells = [None] * len(tiles)
            known = [(tile, where) for tile, where in zip(tiles, cells) if where is not None]
            if any(redirects(tile) for tile, where in zip(tiles, cells) if where is None):
                # Where a redirector lands decides what every shot may do: not bounded before it is placed.
                return (state.battles_done + 1 + self.after) * UNBOUNDED
            redirectors = here_now | {hex_ for tile, (hex_, _) in known if redirects(tile)}
            # A tile whose cell is not given counts at its most anywhere, and the board may be filled or not.
            placed = {hex_ for _, (hex_, _) in known}
            fills: tuple[bool, ...] = (main_empty <= placed,) if len(known) == len(tiles) else tuple(
                {False, len(tiles) >= len(main_empty) and len(main_empty - placed) <= len(tiles) - len(known)})
            found = 0
            for full in fills:
                left = not full and plays_left > len(tiles)
                values = [anywhere(tile, left, redirectors) if where is None
                          else cell(tile, where[0], where[1], left, redirectors) for tile, where in zip(tiles, cells)]
                found = max(found, dealt(tiles, full, values, redirectors))
            return found

        return run

    def last_use(self, state: State) -> Callable[[Use], int | None]:
        """:meth:`damage` of every state a use of an instant tile leads to from ``state``, at most, where that use is
        the last tile the turn may play, without making those states (nor the use's results: the opponent's answers
        to a Push Back, a takeover's turns): a function of the use, None for one it does not bound (a Battle tile,
        which adds a battle and ends the turn; a family's instant that does not declare ``bound_moves_named``).
        Where :meth:`placements` may be used, and against :meth:`damage` of such a state: no tile may be played
        after it, so the battles are those already caused and what ``then`` says, and the units are counted as with
        an empty hand (nothing moves but by Mobility or a Transport); the use itself moves or turns at most the
        units on the hexes it names (the Move tile's unit, the two a Castling swaps, the unit a Push Back pushes),
        each counted where the use leaves it when that is known (the Move tile's target and facing; a family's
        :meth:`~solver.engine.points.Ability.bound_moved`: the Castling's swap, the Rotation's turn), else at its
        best anywhere, where it fights for the player; a Push Back of the enemy HQ, or of a
        unit with a blast, counted as :meth:`damage` counts it (the HQ on any hex next to it). A Sniper, a Grenade or
        an Air Strike wounds units, never an HQ: nothing more is dealt. A use that names a redirector's hex (it may
        move it onto another line) is not bounded, nor any where a redirector may still move."""
        position = state.position
        hand = state.hand
        melee, ranged, actions = self._bonuses(position, hand)
        battles = state.battles_done + self.after
        named = moving_instants(named=True)
        families = named_movers()
        standing: dict[bool, tuple[int, dict[Hex, tuple[int, int, bool]], frozenset]] = {}
        # A redirector that may still move after the use (Mobility, a Transport) may turn any shot anywhere
        # (damage); one the use names may be moved by it: neither is bounded here.
        redirectors = self._redirectors(position)
        if self.redirecting and self._redirector_may_come(state, (), self._frees(state, (), False, False)[1], False,
                                                          redirectors):
            return lambda use: None
        redirecting = frozenset(u.hex for u in position.units if u.tile.abilities & self.redirecting)

        def units(pushes: bool) -> tuple[int, dict[Hex, tuple[int, int, bool]], frozenset]:
            """The units as they stand (their moves counted), and per unit of the player's what it deals where it
            stands, what it gains by moving and whether that gain is counted; the hexes counted in best facings."""
            if pushes not in standing:
                turned, moved = self._frees(state, (), False, False)
                free = state.free | turned
                fixed, gains = self._units(position, melee, ranged, actions, pushes, free)
                targets = self._enemy_hq_hexes(position, pushes)
                each = {}
                for unit, gain in gains:
                    counted = self._may_move(state, unit, moved)
                    here = self._strikes(position, unit, targets, melee, ranged, actions, unit.hex in free,
                                         redirectors)[0]
                    fixed += gain if counted else 0
                    each[unit.hex] = (here, gain, counted)
                standing[pushes] = (fixed, each, free)
            return standing[pushes]

        def dealt(use: Use) -> int | None:
            name = use.tile.name
            if name == "battle" or (name not in KNOWN_INSTANTS and name not in named) or (
                    redirecting and not redirecting.isdisjoint(use.targets)):
                return None
            if battles == 0:
                return 0
            pushes = name == "push-back" and any(
                (unit := position.unit_at(hex_)) is not None and (unit.is_hq or self._blast(unit.tile))
                for hex_ in use.targets)
            fixed, each, free = units(pushes)
            family = families.get(name)
            moves: tuple[tuple[Hex, Unit], ...] | None = None
            if name == "move" and use.facing is not None and (unit := position.unit_at(use.targets[0])) is not None:
                moves = ((unit.hex, replace(unit, hex=use.targets[1], facing=use.facing)),)
            elif family is not None:
                moves = family.bound_moved(position, use)
            per_battle = fixed
            if moves is None:  # each unit the use names at its best anywhere
                per_battle += sum(each[hex_][1] for hex_ in set(use.targets) if hex_ in each)
            else:  # each where the use leaves it (in its best facing where the bound counts its old hex so)
                targets = self._enemy_hq_hexes(position, pushes)
                for old, unit in moves:
                    if old not in each or each[old][2]:  # not the player's, or counted at its best anywhere
                        continue
                    moved_here = self._strikes(position, unit, targets, melee, ranged, actions,
                                               old in free or unit.hex in free, redirectors)[0]
                    per_battle += moved_here - each[old][0]
            return battles * per_battle + self._poisoned(position, battles, hand)

        return dealt

    def placements_bounded(self) -> bool:
        """Whether :meth:`placements` (and :meth:`last_use`) may be used on this card: every family present that
        frees units frees every unit of the player's, as long as what it reads stays (the Doomsday HQ's rotation:
        :attr:`~solver.engine.points.Ability.bound_frees_stay`), so a unit placed is freed as those already there
        and the frees of the state a run leads to are those here. (Redirectors are read per state: there, each
        method counts without limit what a redirector that may move or come could turn.)"""
        return all(family.bound_frees_stay for family in self.freeing)

    def margins(self, position: Position) -> Callable[[int | None], int | None]:
        """:meth:`cut`'s answer for a state with ``position``'s HQs, as a function of its bound (None: no bound, no
        answer), remembered per bound: the steps of one state give a few bounds, tens of thousands of times."""
        high = self._health(position)
        answers: dict[int, int | None] = {}

        def margin(dealt: int | None) -> int | None:
            if dealt is None:
                return None
            if dealt not in answers:
                answers[dealt] = self._margin_if_hopeless(high, dealt)
            return answers[dealt]

        return margin

    def _poisoned(self, position: Position, battles: int, hand: tuple[Tile, ...] = ()) -> int:
        """What markers may deal the enemy HQ at the starts of ``battles`` battles: those on it now at every one
        (a marker stays), and, where a unit of the player's (or a tile in ``hand``) may bite, as many as an army has
        at each after the first (B13 DESCRIPTION OF NEW ICONS, Venom: "From now on the poisoned unit receives one
        wound from the poison at the beginning of each battle"; VENOM ISSUES: two markers an army)."""
        if not self.poison or battles == 0:
            return 0
        now = max((u.venom for u in position.units if u.is_hq and u.army != self.player), default=0)
        bites = any(t.abilities & self.poisoning for t in hand) or any(
            u.tile.abilities & self.poisoning and self._mine(u) for u in position.units)
        return now + (battles - 1) * (max(now, self.poison) if bites else now)

    def _frees(self, state: State, hand: tuple[Tile, ...], moves: bool, pushes: bool
               ) -> tuple[frozenset[Hex], frozenset[Hex]]:
        """The hexes of the player's units that the families present may still turn where they stand, and those
        they (or the player's modules that move units) may still move, this turn
        (:meth:`solver.engine.points.Ability.bound_frees`): none once it is over. ``moves``, ``pushes``: a Move, a
        Push Back tile in hand.

        Where a unit may be taken (:attr:`takes`), another army's unit may be taken and turned while the turn goes
        on (PL VEGAS, Sztab: "w momencie przejmowania gracz prowadzący armią Vegas może dowolnie obrócić przejmowaną
        właśnie jednostkę", Vegas may turn the unit it is taking as it likes), and moved once taken (a Move tile)
        or pushed next to a taker first (a Push Back)."""
        if state.over or not (self.freeing or self.takes or self.transports):
            return frozenset(), frozenset()
        units = [u for u in state.position.units if self._mine(u)]
        own = frozenset(u.hex for u in units)
        moving = any(t.module is not None and t.module.type in MOVING_EFFECTS for t in [u.tile for u in units] + list(hand))
        # Where another move may still bring a unit onto a hex a family names, every unit counts (a Mobility tile in
        # hand moves only once placed: it is a unit of the player's then).
        elsewhere = moves or moving or any(u.tile.mobility and Spent(u.hex, "mobility") not in state.used for u in units)
        turned: frozenset[Hex] = frozenset()
        moved: frozenset[Hex] = own if moving else frozenset()
        if self.takes:
            others = frozenset(u.hex for u in units if u.army != self.player)
            turned |= others
            if moves or pushes:
                moved |= others
        for family in self.freeing:
            kind, hexes = family.bound_frees(state.position, self.player, state.used)
            if not kind:
                continue
            reached = own if hexes is None or elsewhere else own & hexes
            if kind == "turn":
                turned |= reached
            else:
                moved |= reached
        return turned, moved

    def _bonuses(self, position: Position, hand: tuple[Tile, ...]) -> tuple[int, int, int]:
        """Every melee and ranged strength bonus and every extra action the player's modules (and, with a Scoper,
        the enemy's) on the board and in ``hand`` could give one unit. Where a family may turn a melee attack into a
        ranged one or back (a Quartermaster), the turned attack counts both bonuses (PL Kwatermistrz; the battle's
        ``Quartermaster.strikes``): both are then their sum, as every attack may be the turned one."""
        tiles = [u.tile for u in position.units if u.army == self.player] + [t for t in hand]
        scoper = any(t.module is not None and t.module.type == "take-over-enemy-modules" for t in tiles)
        if scoper or self.takes:  # a module captured, or taken over with its unit
            tiles += [u.tile for u in position.units if u.army != self.player]
        melee = ranged = actions = 0
        for tile in tiles:
            module = tile.module
            if module is None or module.value is None:
                continue
            kinds = STRENGTH_EFFECTS.get(module.type, ())
            if "melee" in kinds:
                melee += module.value
            if "ranged" in kinds:
                ranged += module.value
            if module.type in ACTION_EFFECTS:
                actions += module.value
        if self.turned:
            melee = ranged = melee + ranged
        return melee, ranged, actions

    def _units(self, position: Position, melee: int, ranged: int, actions: int, pushes: bool,
               free: frozenset = frozenset(), redirectors: frozenset[Hex] | None = None
               ) -> tuple[int, tuple[tuple[Unit, int], ...]]:
        """The damage per battle of the player's units as they stand, and what each would add by standing
        anywhere and facing any way (a move); remembered per position and bonuses. A unit on a hex of ``free``
        (its facing deferred by the search) stands in its best facing. ``redirectors``: the player's (None: those
        of the position; :meth:`placements` adds those a run places)."""
        key = (position, melee, ranged, actions, pushes, free, redirectors)
        found = self._per_position.get(key)
        if found is not None:
            return found
        targets = self._enemy_hq_hexes(position, pushes)
        fixed = self._enemy_blasts(position, targets, pushes)
        if redirectors is None:
            redirectors = self._redirectors(position)
        gains = []
        for unit in position.units:
            if not self._mine(unit):
                continue
            here, anywhere = self._strikes(position, unit, targets, melee, ranged, actions, unit.hex in free,
                                           redirectors)
            fixed += here
            gains.append((unit, anywhere - here))
        found = self._per_position[key] = (fixed, tuple(gains))
        return found

    def _enemy_blasts(self, position: Position, targets: frozenset, pushes: bool) -> int:
        """What the enemy's own blasts may deal its HQ in a battle."""
        if not self.blasts:
            return 0
        dealt = 0
        for unit in position.units:
            if not self._mine(unit):
                # A blast wounds friends too, the HQ of its own army included (RULINGS 10: "todas las unidades
                # adyacentes, incluyendo los CGs"), once a battle (the Clown leaves the board); a Push Back may
                # bring the HQ or the Clown next to the other.
                blast = self._blast(unit.tile)
                if blast and (pushes or any(unit.hex.neighbour(d) in targets for d in Direction)):
                    dealt += blast
        return dealt

    def _strikes(self, position: Position, unit: Unit, targets: frozenset, melee: int, ranged: int, actions: int,
                 deferred: bool, redirectors: frozenset = frozenset()) -> tuple[int, int]:
        """What one unit of the player's deals the HQ in a battle where it stands (in its best facing if its facing
        is ``deferred``), and at most anywhere in any facing. A shot whose line meets one of ``redirectors`` (the
        player's) deals :data:`UNBOUNDED`, and so does anywhere a unit that shoots while there is one."""
        # What a unit of the player's deals depends on its hex, tile and facing and on the targets alone (the
        # lines of fire are the board's): remembered, since the ends of one state differ only in a few facings.
        unit_key = (unit.hex, unit.tile, unit.facing, deferred, targets, melee, ranged, actions, redirectors)
        known = self._per_unit.get(unit_key)
        if known is None:
            strikes = max(1, len(unit.tile.initiative)) + actions
            blast = self._blast(unit.tile)
            adjacent = blast and any(unit.hex.neighbour(d) in targets for d in Direction)
            facings = [unit] if not deferred else [
                Unit(unit.hex, unit.tile, facing, unit.wounds, unit.hp, unit.venom, unit.owner, unit.prizes)
                for facing in Direction]
            here = strikes * max(max(_reaching(position, turned, targets, melee, ranged, self.line_families,
                                               self.turned, redirectors) for turned in facings),
                                 blast if adjacent else 0)
            anywhere = strikes * max(_strongest(unit.tile, melee, ranged, self.line_families), blast)
            if redirectors and self._shoots(unit.tile):
                anywhere = UNBOUNDED
            known = self._per_unit[unit_key] = (here, anywhere)
        return known

    def _shares(self, position: Position, unit: Unit, targets: frozenset, melee: int, ranged: int,
                actions: int, redirectors: frozenset = frozenset()) -> dict[Direction, int]:
        """What one unit of the player's deals the HQ in a battle where it stands, for each facing it may be given."""
        key = (unit.hex, unit.tile, targets, melee, ranged, actions, redirectors)
        found = self._per_facing.get(key)
        if found is None:
            found = self._per_facing[key] = {facing: self._strikes(
                position, Unit(unit.hex, unit.tile, facing, unit.wounds, unit.hp, unit.venom, unit.owner, unit.prizes),
                targets, melee, ranged, actions, False, redirectors)[0] for facing in Direction}
        return found

    def stopping(self, state: State) -> Stopping:
        """:meth:`cut` of stopping in ``state`` at each of its ends, from the facings chosen for its deferred units
        (``state.free``; :meth:`Enumerator.completions`), without making the end's position: what the player's
        units deal is each unit's own, added, so an end's damage is the others' (:attr:`Stopping.fixed`) and the
        deferred units' shares in their facings (a big card has millions of ends, most of them cut).

        Stopping ends the turn: no tile is played after it and no unit moves, so an unspent Mobility adds nothing
        here (:meth:`damage` counts it for a state the turn may go on from)."""
        position = state.position
        battles = state.battles_done + self.after
        cut_for = self.margins(position)
        if battles == 0:  # nothing follows the turn (``then nothing``): no unit deals anything
            return Stopping(0, 0, {hex_: dict.fromkeys(Direction, 0) for hex_ in state.free}, cut_for)
        melee, ranged, actions = self._bonuses(position, ())
        targets = self._enemy_hq_hexes(position, False)
        fixed = self._enemy_blasts(position, targets, False)
        redirectors = self._redirectors(position)
        shares: dict[Hex, dict[Direction, int]] = {}
        for unit in position.units:
            if not self._mine(unit):
                continue
            if unit.hex not in state.free:
                fixed += self._strikes(position, unit, targets, melee, ranged, actions, False, redirectors)[0]
                continue
            shares[unit.hex] = self._shares(position, unit, targets, melee, ranged, actions, redirectors)
        return Stopping(battles, fixed, shares, cut_for, self._poisoned(position, battles))

    def _mine(self, unit: Unit) -> bool:
        """Whether a unit may fight for the player in a battle that follows: the player's, or any unit but an HQ
        where a unit may be taken over (PL VEGAS, Sztab: a taken unit "pod każdym względem traktowana jest jak
        własna", in every respect Vegas's own; "Nie można przejąć wrogiego Sztabu", an HQ is never taken)."""
        return unit.army == self.player or (self.takes and not unit.is_hq)

    def _redirectors(self, position: Position) -> frozenset[Hex]:
        """The hexes of the units that may turn the player's shots: redirectors that fight for the player (a
        redirector turns only a friendly shot, RULINGS 50)."""
        if not self.redirecting:
            return frozenset()
        return frozenset(u.hex for u in position.units if u.tile.abilities & self.redirecting and self._mine(u))

    def _may_move(self, state: State, unit: Unit, moved: frozenset[Hex]) -> bool:
        """Whether a unit counts at its best anywhere in what follows ``state``: a family (or a Transport, a takeover
        with a Move tile) may still move it, or its Mobility is unspent while the turn goes on."""
        return unit.hex in moved or (not state.over and unit.tile.mobility and self._mine(unit)
                                     and Spent(unit.hex, "mobility") not in state.used)

    def _redirector_may_come(self, state: State, hand: tuple[Tile, ...], moved: frozenset[Hex], moves: bool,
                             redirectors: frozenset[Hex]) -> bool:
        """Whether a redirector may still come onto a line this turn: placed from the hand, or moved (a Move tile,
        its Mobility, a family that moves units)."""
        if any(t.abilities & self.redirecting for t in hand):
            return True
        if redirectors and moves:
            return True
        position = state.position
        return any(hex_ in moved or (unit.tile.mobility and Spent(hex_, "mobility") not in state.used)
                   for hex_ in redirectors if (unit := position.unit_at(hex_)) is not None)

    def _shoots(self, tile: Tile) -> bool:
        """Whether a tile has an attack that flies along a line (a shot, a beam, or a blow a family may turn into
        one): what a redirector turns."""
        return any(_line_strike(edge, self.line_families) or (self.turned and edge.melee) for edge in tile.edges or ())

    def _enemy_hq_hexes(self, position: Position, pushes: bool) -> frozenset:
        hexes = {u.hex for u in position.units if u.is_hq and u.army != self.player}
        if pushes:  # a Push Back may move the HQ one hex (option push-back-hq)
            hexes |= {n for h in hexes for d in Direction if (n := h.neighbour(d)) in position.board}
        return frozenset(hexes)

    def _tile_best(self, tile: Tile, melee: int, ranged: int, actions: int, redirected: bool = False) -> int:
        """What a tile in hand deals at most placed anywhere: without limit for a shooter where a redirector of the
        player's stands (``redirected``)."""
        if redirected and self._shoots(tile):
            return UNBOUNDED
        key = (tile, melee, ranged, actions)
        found = self._per_tile.get(key)
        if found is None:
            found = self._per_tile[key] = ((max(1, len(tile.initiative)) + actions)
                                           * max(_strongest(tile, melee, ranged, self.line_families), self._blast(tile))
                                           if tile.kind is Kind.WARRIOR or self._blast(tile) else 0)
        return found

    def _blast(self, tile: Tile) -> int:
        """The most a tile's blast deals each adjacent unit (a Clown), 0 for a tile without one."""
        return max((wounds for abilities, wounds in self.blasts if abilities & tile.abilities), default=0)

    # --- the goal ---
    def _health(self, position: Position) -> dict[str, int]:
        """Each army's HQ health now: the most it can end at (an HQ's health never rises in a battle)."""
        now = {u.army: u.health for u in position.units if u.is_hq}
        return {army: now.get(army, 0) for army in self.start_hp}

    def _margin_if_hopeless(self, high: dict[str, int], dealt: int) -> int | None:
        """The most the player's HQ can end ahead (as :func:`evaluation.margin` counts it) when, with HQs at ``high``
        now and at most ``dealt`` to come to the enemy's, no end reaches the card's goal; None when one may."""
        # Nothing bounds what the opponent deals the player's HQ: it may end anywhere down to 0.
        low = {army: 0 if army == self.player else max(0, value - dealt) for army, value in high.items()}
        if possible(self.puzzle.goal, self.player, self.start_hp, Reach(high, low))[0]:
            return None
        return high.get(self.player, 0) - max((v for a, v in low.items() if a != self.player), default=0)

    def hopeless(self, state: State) -> bool:
        """Whether no completion of the turn from ``state`` can reach the card's goal."""
        return self.cut(state) is not None

    def cut(self, state: State) -> int | None:
        """The margin bound of ``state`` (the most the player's HQ can end ahead) when no completion from it
        reaches the goal: the state may be pruned; None when it may not."""
        # What the bound reads of a state, without the restrictions and watched units that tell states apart but
        # add nothing it counts: states that differ only so are asked once.
        key = (state.position, state.hand, state.played, state.used, state.over, state.battles_done, state.free)
        if key not in self._ahead:
            self._ahead[key] = self._margin_if_hopeless(self._health(state.position), self.damage(state))
        return self._ahead[key]


def _line_strike(edge: Edge, families: tuple[hooks.Ability, ...]) -> int:
    """An edge's ranged strength, or what a family's icon on it strikes along its line, whichever is more."""
    strength = edge.ranged
    if edge.special:
        for family in families:
            if family.edge_specials & edge.special:
                strength = max(strength, family.bound_line_strike(edge))
    return strength


def _strongest(tile: Tile, melee: int, ranged: int, families: tuple[hooks.Ability, ...]) -> int:
    """The strongest strike of a tile, each bonus added to the attacks it adds to (0: it does not attack)."""
    best = 0
    for edge in tile.edges or ():
        if edge.melee:
            best = max(best, edge.melee + melee)
        line = _line_strike(edge, families)
        if line:
            best = max(best, line + ranged)
    return best


def _reaching(position: Position, unit: Unit, targets: frozenset, melee: int, ranged: int,
              families: tuple[hooks.Ability, ...], turned: bool = False, redirectors: frozenset = frozenset()) -> int:
    """The strongest strike of ``unit`` as it stands and faces whose icon reaches a hex of ``targets`` (a melee icon
    the adjacent hex, a ranged one any hex of its line: what stands between is not asked). ``turned``: a melee
    attack may fly as a ranged one (a Quartermaster), along the line. A line meeting a hex of ``redirectors`` may be
    turned anywhere, and loop for ever (RULINGS 65): :data:`UNBOUNDED`."""
    best = 0
    board = position.board
    for direction, edge in zip(Direction, unit.oriented.edges):
        if edge.melee and unit.hex.neighbour(direction) in targets:
            best = max(best, edge.melee + melee)
        line = _line_strike(edge, families)
        if turned:
            line = max(line, edge.melee)
        if line:
            hexes = board.line_of_fire(unit.hex, direction)
            if redirectors and not redirectors.isdisjoint(hexes):
                return UNBOUNDED
            if not targets.isdisjoint(hexes):
                best = max(best, line + ranged)
    return best


def possible(goal: Goal, player: str, start_hp: dict[str, int], reach: Reach) -> tuple[bool, bool]:
    """``(may hold, must hold)`` of a goal over every end within ``reach`` (NOTATION §6, as
    :func:`solver.search.evaluation.goal_holds` reads it)."""
    high, low = reach.high, reach.low
    if isinstance(goal, Win):
        enemy_low = max((v for a, v in low.items() if a != player), default=0)
        enemy_high = max((v for a, v in high.items() if a != player), default=0)
        mine_high, mine_low = high.get(player, 0), low.get(player, 0)
        return (mine_high > 0 and mine_high > enemy_low), (mine_low > 0 and mine_low > enemy_high)
    if isinstance(goal, DrawOrWin):
        enemy_low = max((v for a, v in low.items() if a != player), default=0)
        enemy_high = max((v for a, v in high.items() if a != player), default=0)
        return high.get(player, 0) >= enemy_low, low.get(player, 0) >= enemy_high
    if isinstance(goal, Survive):
        return high.get(player, 0) > 0, low.get(player, 0) > 0
    if isinstance(goal, Destroy):
        return low.get(goal.army, 0) == 0, high.get(goal.army, 0) == 0
    if isinstance(goal, HpCompare):
        lo, hi = low.get(goal.army, 0), high.get(goal.army, 0)
        if goal.damage:
            start = start_hp.get(goal.army, 0)
            lo, hi = start - hi, start - lo
        return _compare(goal.op, lo, hi, goal.value)
    if isinstance(goal, Not):
        can, must = possible(goal.goal, player, start_hp, reach)
        return not must, not can
    if isinstance(goal, And):
        parts = [possible(g, player, start_hp, reach) for g in goal.goals]
        return all(c for c, _ in parts), all(m for _, m in parts)
    if isinstance(goal, Or):
        parts = [possible(g, player, start_hp, reach) for g in goal.goals]
        return any(c for c, _ in parts), any(m for _, m in parts)
    if isinstance(goal, Alive):  # where a watched unit ends is not bounded
        return True, False
    return True, False  # a goal the bound cannot read prunes nothing


def _compare(op: str, lo: int, hi: int, value: int) -> tuple[bool, bool]:
    """``(may hold, must hold)`` of ``x op value`` for an integer ``x`` in ``[lo, hi]``."""
    if op == ">=":
        return hi >= value, lo >= value
    if op == ">":
        return hi > value, lo > value
    if op == "<=":
        return lo <= value, hi <= value
    if op == "<":
        return lo < value, hi < value
    if op == "==":
        return lo <= value <= hi, lo == hi == value
    return True, False
