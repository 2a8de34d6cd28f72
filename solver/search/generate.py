"""Puzzle generation: new cards with exactly one winning play, proven, graded and explained.

How a card is made (docs/GENERATOR.md says the same for composers):

1. **Draw.** A random position for the level's shape (:data:`SHAPES`): both HQs, a few units of each side,
   the offer. Everything is drawn from one :class:`random.Random` seeded by ``(seed, card, attempt)``, so the
   same seed gives the same cards, in any number of worker processes.
2. **Play everything out at full health.** Every play of the card is enumerated (:class:`search.Enumerator`)
   and evaluated (:func:`search.evaluate`) with both HQs at 20 health. While no HQ falls, the battle does not
   depend on HQ health, so a play's *margin* (player's HQ minus the enemy's, after the battle) only shifts by
   ``P - E`` when the HQs start at ``P`` and ``E``.
3. **Tune.** The best play's worst-case margin ``t`` (an AND-OR value: the player chooses, the opponent answers)
   is compared with every other play's. The card is kept only when exactly one play reaches ``t - 1`` (the
   margin rule: the key beats the best failing play by at least 2 health). HQ health is then set so that the
   key wins by exactly 1: ``E = P + t - 1``, with ``P`` above the most any play makes the player's HQ lose (no
   HQ falls, so step 2 holds). When the rule fails, the card is mutated (a tile added, removed, moved or
   turned, an offered tile changed) and played out again, keeping mutations that do not add near-keys.
4. **Count.** :func:`count_winning` plays the tuned card out again and stops at the second winning play
   (COOKED); otherwise :class:`search.Solver` proves the card SOUND over its whole play space and finds the
   card's solution. There is no shorter winning play (the key is the only one).
5. **Grade.** :func:`grade` reads what the key needs (tiles, an instant, a module, a net, an initiative
   race, an opponent's choice to deny) and checks it against the solver's statistics (:data:`BANDS`): a
   card asked for at level N is kept only when both say N.
6. **Deduplicate.** Cards are compared on their canonical text, minimised over the six rotations of the
   board (never mirrored: tiles have a handedness).

Glossary: *play* (everything the player does this turn, identified like the solver does, by the set of end
positions it may lead to); *key* (the one winning play); *margin* (player's HQ health minus the best enemy
HQ's after the battle, worst case over the opponent's choices); *near miss* (a failing play within 3 of the
key's margin); *idea* (one thing the key needs beyond placing one tile).
"""

from __future__ import annotations

import itertools
import random
import re
import time
from collections import Counter
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass, field, replace
from typing import Any

from ..engine import battle, effects
from . import card_words, idea, solve as search
from .card_words import event_words
from .idea import tile_title
from ..notation.cards import Puzzle, Win
from ..errors import NhexError, RuleNotImplemented
from ..hexes import DIRECTIONS, STANDARD, Direction, Hex
from ..mirror import mirror_pair
from ..notation.text import parse_action, write
from ..position import Action, Move, Place, Position, Unit, Use
from ..tiles import KEY_PATTERN, Kind, Tile, army, base_army, tile

#: The armies a card may be generated for, as the player or as the opponent: the base game's four and the
#: expansions' (the Mercenaries are hired tiles, not an army).
ARMIES = ("moloch", "outpost", "borgo", "hegemony", "smart", "vegas", "new-york", "neojungle", "doomsday")
#: HQ health while the play space is first played out: high enough that no HQ falls in one battle.
FULL = 20
#: The margin rule: the key beats the best failing play by at least this much HQ health.
MARGIN_GAP = 2
#: Rival plays few enough that the generator tries to block them one by one (a unit on the hex they use).
BLOCKABLE = 6
#: Drafts (and mutations) played out by :func:`generate_one` by default, by level (its climbs one after another).
BUDGET = {1: 400, 2: 400, 3: 200, 4: 150}
#: Drafts in one hill climb: after this many mutations without a card a fresh draft is drawn. An attempt of
#: :func:`generate` is one climb, so that two cores climb two at once for one card (issue 27).
CLIMB = 25
#: Attempts (climbs) at one card before :func:`generate` gives it up, by level: the drafts of 20 budgets.
ATTEMPTS = {level: 20 * drafts // CLIMB for level, drafts in BUDGET.items()}
#: Units on the board at most, HQs included: a card keeps room to play in (7 empty hexes at least).
MAX_UNITS = 12
#: Drafts whose turn lists more states are dropped before they are played out (they take long and rarely tune): the
#: states as :class:`Listing` lists them, with deferred facings (several times fewer than with every facing).
MAX_STATES = 12_000
#: A failing play this close to the key's margin (or closer, short of the gap) is a near miss.
NEAR = 3
#: Rival plays counted at most (the plays within the gap of the best one): beyond this a draft is far from a card.
RIVALS = 300
#: The hill climb's count for a draft that could not be played out (too many states, a rule not implemented):
#: worse than any draft that could, so that a climb never trades a playable draft for one it cannot read.
UNPLAYABLE = RIVALS + 1


# --- shapes of a card per level ----------------------------------------------------------------------------------


@dataclass(frozen=True)
class Shape:
    """What a random card of one level looks like before mutation."""

    play: tuple[int, ...]  # ``play N``, one of these
    offer: int  # offered tiles
    own: tuple[int, int]  # the player's units besides the HQ (least, most)
    enemy: tuple[int, int]  # the opponent's units besides the HQ
    specials: int  # least number of instants and modules in the offer
    warriors: int  # least number of warriors in the offer


SHAPES: dict[int, Shape] = {
    1: Shape(play=(1,), offer=2, own=(0, 1), enemy=(1, 3), specials=0, warriors=2),
    2: Shape(play=(1,), offer=3, own=(1, 3), enemy=(2, 4), specials=2, warriors=1),
    3: Shape(play=(2,), offer=3, own=(1, 3), enemy=(3, 5), specials=1, warriors=1),
    4: Shape(play=(2,), offer=3, own=(2, 4), enemy=(4, 6), specials=2, warriors=1),
}


@dataclass(frozen=True)
class Band:
    """What the solver's statistics must show for a level: play space and near misses."""

    plays: tuple[int, int]  # distinct plays examined (least, most)
    near: tuple[int, int]  # near-miss failing plays (least, most)


#: Solver statistics per level (docs/GENERATOR.md "Grading"): a level-1 card has a small play space and few
#: near misses; the higher levels a large one (two tiles) and near misses to tempt the solver.
BANDS: dict[int, Band] = {
    1: Band(plays=(1, 1_500), near=(0, 20)),
    2: Band(plays=(10, 5_000), near=(0, 60)),
    3: Band(plays=(100, 12_000), near=(0, 400)),
    4: Band(plays=(300, 12_000), near=(1, 400)),
}

#: Tiles kept out of generated cards: the Battle instant (no Battle once the last tile is drawn, and every card
#: ends in the Final Battle) and the Moloch Air Strike (its rules are transcribed with low confidence).
_LEFT_OUT = frozenset({"battle", "air-strike"})
#: Tiles that give the player free moves (Transport) or double them (Recon Center), or a free push (New York's
#: Pusher, B13 Push Back: "once during each of his turns - push back one enemy unit freely"): any harmless move or
#: push is a cook. The Pusher also sent a New York draft's listing to the general path (a family acting between
#: battles: 0.8-0.9 s a draft against 0.25-0.35 s on the same board without it).
_MOVERS = frozenset({"transport", "recon-center", "pusher"})
#: HQ abilities that give the player an action of its own every turn (the Doomsday HQ turns one friendly unit,
#: RULINGS 55): a key of two actions needs only one tile there, and two tiles make every draft's play space pass
#: MAX_STATES (each placement again with any friendly unit turned any way).
_FREE_ACTION_HQ = frozenset({"rotate-one-unit-per-turn"})


#: HQ modules that give each own unit next to the HQ a free move every turn (the Smart HQ, PL SMART, Sztab: "w
#: identyczny sposób, jakby miała cechę Mobilność", exactly as if it had Mobility): no unit of the player's is drawn
#: there, as no unit with Mobility is drawn on the player's side. Of 46 Smart drafts of two climbs, 22 had one there
#: and all 22 passed MAX_STATES (3-4 s each before they were dropped); none of the 21 playable ones had one.
_GRANTING_HQ = frozenset({"grant-move-and-rotate"})


def _granted(draft: Draft) -> frozenset[Hex]:
    """The hexes where a unit of the player's would get a free move from its HQ every turn (:data:`_GRANTING_HQ`)."""
    hq = next((u for u in draft.units if u.is_hq and u.tile.army == draft.player), None)
    if hq is None or hq.tile.module is None or hq.tile.module.type not in _GRANTING_HQ:
        return frozenset()
    return frozenset(beside for _, beside in STANDARD.neighbours(hq.hex))


def _moved_freely(draft: Draft) -> list[Unit]:
    """The player's units on :func:`_granted` hexes (a mutation may put one there: moving a unit or the HQ)."""
    granted = _granted(draft)
    return [u for u in draft.units if u.hex in granted and not u.is_hq and u.tile.army == draft.player]


def _board_tiles(name: str, *, own: bool) -> list[Tile]:
    tiles = []
    for t in army(name).tiles:
        if t.kind not in (Kind.WARRIOR, Kind.MODULE) or t.name in _LEFT_OUT:
            continue
        if own and (t.mobility or t.name in _MOVERS):
            continue
        tiles.append(t)
    return tiles


def _offer_tiles(name: str) -> list[Tile]:
    """The tiles an offer may hold: no warrior with Mobility and no Recon Center, whose free moves multiply
    the play space (and whose harmless moves are cooks)."""
    return [t for t in army(name).tiles if t.kind in (Kind.WARRIOR, Kind.MODULE, Kind.INSTANT)
            and t.name not in _LEFT_OUT and not t.mobility and t.name not in _MOVERS]


# --- drawing and mutating cards -----------------------------------------------------------------------------------


@dataclass(frozen=True)
class Draft:
    """A card being composed: the units (HQ health is set later), the offer and ``play``."""

    player: str
    opponent: str
    units: tuple[Unit, ...]
    offer: tuple[Tile, ...]
    play: int

    def puzzle(self, player_hp: int = FULL, enemy_hp: int = FULL) -> Puzzle:
        units = tuple(replace(u, hp=player_hp if u.army == self.player else enemy_hp) if u.is_hq else u
                      for u in self.units)
        return Puzzle(Position(units=units, to_move=self.player), title="", player=self.player, offer=self.offer,
                      play=self.play, goal=Win())

    @classmethod
    def of(cls, puzzle: Puzzle) -> Draft:
        """The draft behind a card (its HQ health is forgotten: the tuning sets it)."""
        return cls(puzzle.player, _opponent(puzzle), puzzle.position.units, puzzle.offer, puzzle.tiles_to_play)

    def used(self) -> dict[Tile, int]:
        counts: dict[Tile, int] = {}
        for t in itertools.chain((u.tile for u in self.units), self.offer):
            counts[t] = counts.get(t, 0) + 1
        return counts


def _spare(draft: Draft, tiles: Iterable[Tile]) -> list[Tile]:
    """Tiles of which the army still has a copy that is neither on the board nor offered."""
    used = draft.used()
    return [t for t in tiles if used.get(t, 0) < t.count]


def _random_unit(rng: random.Random, tile: Tile, hex_: Hex) -> Unit:
    facing = rng.choice(DIRECTIONS)
    wounds = rng.choice((0, 0, 0, 1)) if tile.health > 1 else 0
    return Unit(hex_, tile, facing, wounds=wounds)


def draw(rng: random.Random, player: str, opponent: str, level: int) -> Draft:
    """A random card of the level's shape (HQ health comes later, from the tuning)."""
    shape = SHAPES[level]
    hexes = list(STANDARD)
    rng.shuffle(hexes)
    mine, theirs = hexes.pop(), None
    # The enemy HQ stands two or more hexes away: an HQ next to the other makes very short puzzles.
    far = [h for h in hexes if h.distance(mine) >= 2]
    theirs = rng.choice(far)
    hexes.remove(theirs)
    units = [Unit(mine, army(player).hq, Direction.N), Unit(theirs, army(opponent).hq, Direction.N)]
    play = rng.choice(shape.play)
    if army(player).hq.abilities & _FREE_ACTION_HQ:
        play = 1
    draft = Draft(player, opponent, tuple(units), (), play)
    for side, (least, most) in ((opponent, shape.enemy), (player, shape.own)):
        for _ in range(rng.randint(least, most)):
            draft = _add_unit(rng, draft, side, hexes)
    offer: list[Tile] = []
    pool = _offer_tiles(player)
    warriors = [t for t in pool if t.kind is Kind.WARRIOR]
    specials = [t for t in pool if t.kind is not Kind.WARRIOR]
    wanted = [warriors] * shape.warriors + [specials] * shape.specials
    wanted += [pool] * (shape.offer - len(wanted))
    for choices in wanted:
        spare = _spare(replace(draft, offer=tuple(offer)), choices)
        if spare:
            offer.append(rng.choice(spare))
    return replace(draft, offer=tuple(sorted(offer, key=lambda t: t.key)))


def _add_unit(rng: random.Random, draft: Draft, side: str, hexes: list[Hex] | None = None) -> Draft:
    if len(draft.units) >= MAX_UNITS:
        return draft
    taken = {u.hex for u in draft.units}
    if side == draft.player:
        taken |= _granted(draft)
    empty = [h for h in (hexes if hexes is not None else STANDARD) if h not in taken]
    spare = _spare(draft, _board_tiles(side, own=side == draft.player))
    if not empty or not spare:
        return draft
    hex_ = rng.choice(empty)
    if hexes is not None:
        hexes.remove(hex_)
    return replace(draft, units=draft.units + (_random_unit(rng, rng.choice(spare), hex_),))


def mutate(rng: random.Random, draft: Draft) -> Draft:
    """One small change: add, remove, move or turn one tile, or change one offered tile."""
    others = [u for u in draft.units if not u.is_hq]
    taken = {u.hex for u in draft.units}
    empty = [h for h in STANDARD if h not in taken]
    kind = rng.choice(("add", "remove", "move", "move", "turn", "turn", "offer", "hq"))
    if kind == "add" or (kind in ("remove", "move", "turn") and not others):
        return _add_unit(rng, draft, rng.choice((draft.player, draft.opponent, draft.opponent)))
    if kind == "remove":
        victim = rng.choice(others)
        return replace(draft, units=tuple(u for u in draft.units if u is not victim))
    if kind in ("move", "hq"):
        pool = others if kind == "move" else [u for u in draft.units if u.is_hq]
        mover = rng.choice(pool)
        if not empty:
            return draft
        moved = replace(mover, hex=rng.choice(empty))
        return replace(draft, units=tuple(moved if u is mover else u for u in draft.units))
    if kind == "turn":
        return _turned(rng, draft, rng.choice(others))
    return _swap_offered(rng, draft, draft.offer[rng.randrange(len(draft.offer))])


def _turned(rng: random.Random, draft: Draft, unit: Unit) -> Draft:
    """The draft with ``unit`` turned to another facing, at random."""
    new = replace(unit, facing=rng.choice([d for d in DIRECTIONS if d != unit.facing]))
    return replace(draft, units=tuple(new if u is unit else u for u in draft.units))


def _swap_offered(rng: random.Random, draft: Draft, old: Tile) -> Draft:
    """The draft with the offered tile ``old`` swapped for another of the same kind (a warrior for a warrior, a
    special for a special) of which the army has a copy to spare."""
    index = draft.offer.index(old)
    rest = draft.offer[:index] + draft.offer[index + 1:]
    same_kind = [t for t in _offer_tiles(draft.player) if (t.kind is Kind.WARRIOR) == (old.kind is Kind.WARRIOR)
                 and t != old]
    spare = _spare(replace(draft, offer=rest), same_kind)
    if not spare:
        return draft
    return replace(draft, offer=tuple(sorted(rest + (rng.choice(spare),), key=lambda t: t.key)))


# --- playing a card out ----------------------------------------------------------------------------------------------


def parse_line(line: str, player: str) -> Action | None:
    """An action line of the play graph as an action; None for a comment or a push whose destination the
    opponent chooses (the graph writes it without one)."""
    if line.startswith("#"):
        return None
    try:
        return parse_action(line, player)
    except NhexError:
        return None


def replay(puzzle: Puzzle, lines: Sequence[str]) -> tuple[Action, ...] | None:
    """The key's lines as actions, each legal where it is played; a Push Back gets its destination written
    when there is only one. None when the key depends on a choice of the opponent."""
    from ..turns import actions as rules

    player = puzzle.player
    position = replace(puzzle.position, hands=((player, puzzle.offer),), to_move=player)
    used = rules.NOTHING_USED
    done: list[Action] = []
    for line in lines:
        if line.startswith("#"):
            return None
        action = parse_line(line, player)
        if action is None and line.split()[:2] and line.split()[1].endswith("push-back"):
            _, _, pusher, target = line.split()
            pusher_hex, target_hex = Hex.parse(pusher), Hex.parse(target)
            where = rules.push_destinations(position, pusher_hex, target_hex)
            if len(where) != 1:
                return None
            action = parse_line(f"{line} {where[0].label}", player)
        if action is None:
            return None
        try:
            after = rules.apply(position, action, player, used)
            used = rules.spend(position, action, player, used)
        except (NhexError, rules.ChoiceRequired):
            return None
        position = after
        done.append(action)
    return tuple(done)


#: A state's ends with their verdicts: one end, or where the enumeration defers facings one per choice of an
#: effective class for each deferred unit, with the facings left open to those units (the solver's ends).
Ends = list[tuple[Position, tuple, search.Verdict]]


@dataclass
class Table:
    """Every state of a card's turn with the value of stopping there, per end (see :data:`Ends`)."""

    puzzle: Puzzle
    graph: search.Graph
    ends: dict[search.State, Ends]
    positions: int  # distinct positions played out

    def every_end(self) -> Iterable[tuple[Position, search.Verdict]]:
        """Each end of each state with its verdict (an end reached through several states comes as often)."""
        return ((end, verdict) for here in self.ends.values() for end, _, verdict in here)


@dataclass
class Listing:
    """A card's turn listed as the solver lists it: the facings of the player's plain warriors and modules placed
    or moved this turn are chosen at its end, one facing per effective class (:class:`search.Enumerator`'s
    ``free_facings``). A draft's states are several times fewer than with every facing listed, and its ends the
    same plays (``tests/test_search_bound.py`` holds the deferred search to ``--naive``)."""

    enumerator: search.Enumerator
    graph: search.Graph
    ident: Callable[[Position], object]  # the play identity of an end, remembered

    @classmethod
    def of(cls, puzzle: Puzzle, on_state: Callable[[int], None] | None = None) -> Listing:
        enumerator = search.Enumerator(puzzle, free_facings=True)
        identities: dict[Position, search.Identity] = {}
        enumerator.identities = identities  # the ends' identities, made with the ends
        graph = enumerator.build(on_state=on_state)
        return cls(enumerator, graph, search.remembered_play_identity(identities))


def play_out(puzzle: Puzzle, listing: Listing, states: Iterable[search.State] | None = None,
             stop: Callable[[Position, search.Verdict], bool] | None = None,
             seen: dict[tuple, search.Verdict] | None = None) -> Table:
    """Evaluate the ends of the listing's states (all, or ``states`` in that order).

    ``stop`` is asked after every end evaluated and ends the work early when it says so (that state is then left
    out). Each play identity (the effective end position) is played out once, as the solver does; ``seen``
    carries those verdicts from an earlier call.
    """
    card = search.card_of(puzzle)
    ident = listing.ident
    seen = {} if seen is None else seen
    before = len(seen)
    ends: dict[search.State, Ends] = {}
    for state in (states if states is not None else listing.graph.steps):
        battles = search.battles_after(puzzle, state)
        here: Ends = []
        for end, open_ in listing.enumerator.completions(state):
            key = search.evaluation_key_of(ident, end, state.watched, battles)
            verdict = seen.get(key)
            if verdict is None:
                verdict = seen[key] = search.evaluate(card, end, dict(state.watched), battles)
            here.append((end, open_, verdict))
            if stop is not None and stop(end, verdict):
                return Table(puzzle, listing.graph, ends, len(seen) - before)
        ends[state] = here
    return Table(puzzle, listing.graph, ends, len(seen) - before)


def winning_plays(table: Table, keep: Callable[[search.Verdict], bool], ident: Callable[[Position], object],
                  cap: int | None = None) -> dict[frozenset, tuple[str, ...]]:
    """The plays whose every end the opponent may steer to is kept by ``keep``, each with its shortest line
    (:func:`search.winning_plays`, at most ``cap`` per state: counting then says "at least ``cap``")."""
    def endings(state: search.State) -> list[tuple[Position, tuple]]:
        return [(end, open_) for end, open_, verdict in table.ends.get(state, ()) if keep(verdict)]

    found = search.winning_plays(table.graph, lambda state: False, ident, 1, cap, endings=endings)
    return {ends: lines[0] for ends, lines in found.items()}


def best_margin(table: Table, ident: Callable[[Position], object]) -> int:
    """The best worst-case margin the player can force (max over own steps, min over the opponent's answers).

    Worked out first with each state's best end, as if the player could face a deferred unit after seeing the
    opponent's answer: an upper bound. Where a step with the opponent's answers leaves a state with deferred
    units, the player faces them before the answer (one facing for every branch: :func:`decision._common`), so
    the bound is then checked, and lowered until the player can force it, with the solver's AND-OR."""
    graph = table.graph
    lowest = -10 ** 6
    value: dict[search.State, int] = {}
    for state in search.post_order(graph):
        best = max((verdict.margin for _, _, verdict in table.ends.get(state, ())), default=lowest)
        for step in graph.steps.get(state, ()):
            best = max(best, min(value.get(nxt, lowest) for _, nxt in step.branches))
        value[state] = best
    bound = value[graph.root]
    facings_before_answers = any(state.free and len(step.branches) > 1
                                 for state, steps in graph.steps.items() for step in steps)
    if not facings_before_answers:
        return bound
    margins = sorted({verdict.margin for _, verdict in table.every_end() if verdict.margin <= bound},
                     reverse=True)
    for margin in margins:  # the root's own end is a play, so the root's margin at least is forced
        if winning_plays(table, lambda verdict: verdict.margin >= margin, ident, cap=300):
            return margin
    return lowest


# --- counting: the early-stopping verdict --------------------------------------------------------------------------


@dataclass(frozen=True)
class Count:
    """What :func:`count_winning` found: ``sound``, ``cooked`` or ``none``, and what it took."""

    verdict: str
    plays: dict[frozenset, tuple[str, ...]]
    states: int  # states of the turn
    positions: int  # distinct positions played out
    stopped_early: bool


def _linear(graph: search.Graph) -> list[search.State]:
    """The states reached from the root through the player's own steps only (no opponent's choice on the way)."""
    seen = {graph.root}
    order = [graph.root]
    for state in order:
        for step in graph.steps.get(state, ()):
            if len(step.branches) == 1:
                nxt = step.branches[0][1]
                if nxt not in seen:
                    seen.add(nxt)
                    order.append(nxt)
    return order


def count_winning(puzzle: Puzzle, stop_at: int = 2) -> Count:
    """Count the card's winning plays, stopping as soon as ``stop_at`` of them are certain (``cooked``).

    States reached without an opponent's choice are played out first: each winning end of one is a play of its
    own (its end set is just itself), so two of them with different end positions prove a cook without looking at
    the rest. Otherwise everything is played out and the plays are counted by the AND-OR of the solver.
    """
    listing = Listing.of(puzzle)
    graph, ident = listing.graph, listing.ident
    linear = _linear(graph)
    winners: set[object] = set()

    def stop(end: Position, verdict: search.Verdict) -> bool:
        if verdict.wins:
            winners.add(ident(end))
        return len(winners) >= stop_at

    seen: dict[tuple, search.Verdict] = {}
    table = play_out(puzzle, listing, linear, stop, seen)
    if len(winners) >= stop_at:
        cooks: dict[frozenset, tuple[str, ...]] = {frozenset([w]): () for w in winners}
        return Count("cooked", cooks, len(graph.steps), table.positions, True)
    rest = [s for s in graph.steps if s not in table.ends]
    if rest:
        more = play_out(puzzle, listing, rest, seen=seen)
        table.ends.update(more.ends)
        table.positions += more.positions
    plays = winning_plays(table, lambda verdict: verdict.wins, ident, cap=stop_at)
    verdict = "none" if not plays else ("sound" if len(plays) == 1 else "cooked")
    return Count(verdict, plays, len(graph.steps), table.positions, False)


# --- tuning HQ health -------------------------------------------------------------------------------------------------


@dataclass(frozen=True)
class Tuning:
    """The outcome of playing a draft out at full health."""

    ok: bool
    reason: str
    near_keys: int  # plays within the margin gap of the best one (1 when the draft is good)
    player_hp: int = 0
    enemy_hp: int = 0
    key: tuple[str, ...] = ()
    near_misses: int = 0
    plays: int = 0  # distinct ends the player may stop in (the plays the solver tells apart, one-end plays)
    ends: tuple[Position, ...] = ()  # the key's end positions (at full health)
    line: tuple[str, ...] = ()  # the battle choices of the key's worst case
    grade: Grade | None = None
    rivals: tuple[tuple[str, ...], ...] = ()  # when several plays come close: their lines
    solution: tuple[Action, ...] = ()
    too_many: bool = False  # dropped while its play space was built: larger than MAX_STATES


class _TooMany(Exception):
    """The draft's play space passed :data:`MAX_STATES` while it was being built."""


@dataclass
class _Played:
    """What playing a draft out at full health finds before any HQ health is drawn: a pure function of the draft,
    so :func:`generate_one` keeps it per draft and a draft met again (a mutation that changed nothing, a hill climb
    back to an earlier draft) is not played out again. ``refused`` when the draft fails before the health is drawn;
    else the tuning without health or grade, ``low`` and ``best`` to draw the health from, and the grade once made
    (it depends on neither health)."""

    refused: Tuning | None
    tuning: Tuning | None = None
    low: int = 0
    best: int = 0
    grade: Grade | None = None


def tune(draft: Draft, rng: random.Random, played: dict[Draft, _Played] | None = None) -> Tuning:
    """Play the draft out with both HQs at full health and set their health so that exactly one play wins.

    ``played`` remembers the play-out of each draft (:class:`_Played`); the health is drawn from ``rng`` every
    time, as without it, so the tunings and the random stream are the same."""
    found = played.get(draft) if played is not None else None
    if found is None:
        found = _play(draft)
        if played is not None:
            played[draft] = found
    if found.refused is not None:
        return found.refused
    tuning, low, best = found.tuning, found.low, found.best
    assert tuning is not None
    player_hp = low + rng.choice((0, 0, 1, 2))
    enemy_hp = player_hp + best - 1
    if player_hp > FULL or enemy_hp > FULL:
        player_hp, enemy_hp = low, low + best - 1
    if not (1 <= player_hp <= FULL and 1 <= enemy_hp <= FULL):
        return Tuning(False, "no HQ health fits", 1)
    if found.grade is None:
        outcome = _traced(tuning.ends, tuning.line)
        found.grade = grade(draft.puzzle(), tuning.key, tuning.ends, tuning.plays, tuning.near_misses, outcome)
    return replace(tuning, player_hp=player_hp, enemy_hp=enemy_hp, grade=found.grade)


def _play(draft: Draft) -> _Played:
    """:func:`tune` up to the drawing of the HQ health (see :class:`_Played`)."""
    puzzle = draft.puzzle()

    def too_many(states: int) -> None:
        # Stop building as soon as the draft is known to be dropped: a Smart draft of 15,000 states took 40 s.
        if states > MAX_STATES:
            raise _TooMany

    if _moved_freely(draft):
        return _Played(Tuning(False, "a unit of the player's beside its HQ moves freely: too many states", UNPLAYABLE,
                              too_many=True))
    try:
        try:
            listing = Listing.of(puzzle, on_state=too_many)
        except _TooMany:
            return _Played(Tuning(False, f"over {MAX_STATES} states: too many", UNPLAYABLE, too_many=True))
        table = play_out(puzzle, listing)
    except (NhexError, RuleNotImplemented) as error:
        return _Played(Tuning(False, f"unsupported: {error}", UNPLAYABLE))
    player, ident = draft.player, listing.ident
    every = list(table.every_end())
    worst_own = max(FULL - dict(v.hp).get(player, 0) for _, v in every)
    worst_enemy = max(FULL - hp for _, v in every for a, hp in v.hp if a != player)
    best = best_margin(table, ident)
    close = winning_plays(table, lambda verdict: verdict.margin >= best - (MARGIN_GAP - 1), ident, cap=RIVALS)
    if len(close) != 1:
        return _Played(Tuning(False, f"{len(close)} plays within {MARGIN_GAP - 1} of the best", len(close),
                              rivals=tuple(close.values())))
    ((key_ends, key),) = close.items()
    if not key:
        return _Played(Tuning(False, "the position wins without a tile", 1))
    solution = replay(puzzle, key)
    if solution is None:
        return _Played(Tuning(False, "the key depends on the opponent's choice", 1))
    key = tuple(str(a) for a in solution)
    # Health (drawn by tune): the player's HQ above what any play can cost it, the enemy's above what any play
    # deals it, and E = P + best - 1 so that the key wins by exactly 1.
    low = max(worst_own + 1, worst_enemy + 2 - best, 1)
    # Near misses: failing plays within NEAR of the key that still do better than playing no tile (the root's
    # one end: no tile played, no facing deferred).
    ((_, _, stand_still),) = table.ends[table.graph.root]
    floor = max(best - NEAR, stand_still.margin + 1)
    near = {ident(end) for end, verdict in every if floor <= verdict.margin < best - 1}
    # The key does not branch (replay said so): its end positions differ at most in facings that change
    # nothing (the solver's duals), so one of them stands for all.
    keys = [(end, verdict) for end, verdict in every if verdict.margin >= best - 1 and ident(end) in key_ends]
    worst, worst_verdict = min(keys, key=lambda item: (item[1].margin, str(item[0])))
    # The play space: the distinct ends the player may stop in, as the solver tells plays apart (the same
    # whether facings are listed or deferred; the states of the turn are not).
    plays = len({ident(end) for end, _ in every})
    tuning = Tuning(True, "", 1, 0, 0, key, len(near), plays, (worst,), worst_verdict.line, solution=solution)
    return _Played(None, tuning, low, best)


def _traced(ends: Sequence[Position], line: tuple[str, ...]) -> battle.Outcome:
    """The key's battle with its trace, on the branch of the worst case for the player."""
    outcomes = battle.resolve(ends[0], trace=True)
    return next((o for o in outcomes if o.choices == line), outcomes[0])


# --- grading -------------------------------------------------------------------------------------------------------------


@dataclass(frozen=True)
class Grade:
    """What the key needs, the solver's statistics, and the level both give."""

    tiles: int  # actions of the key (tiles placed or used, free moves)
    instant: bool
    module: bool
    net: bool
    initiative: bool
    denial: bool
    plays: int
    near_misses: int
    #: The expansions' rules the key brings into play (:data:`EXPANSION_IDEAS`), one idea each: "takeover",
    #: "redirection", "venom", ...
    expansion: tuple[str, ...] = ()

    @property
    def ideas(self) -> list[str]:
        found = [f"{self.tiles} actions"] if self.tiles > 1 else []
        for name in ("instant", "module", "net", "initiative", "denial"):
            if getattr(self, name):
                found.append(name)
        return found + list(self.expansion)

    @property
    def level(self) -> int:
        """1 + the ideas the key needs, at most 4 (docs/GENERATOR.md "Grading")."""
        count = (self.tiles - 1) + sum((self.instant, self.module, self.net, self.initiative, self.denial))
        return min(4, 1 + count + len(self.expansion))

    @property
    def in_band(self) -> bool:
        band = BANDS[self.level]
        return band.plays[0] <= self.plays <= band.plays[1] and band.near[0] <= self.near_misses <= band.near[1]


#: The expansions' rules that make an idea of their own, by the kind of the battle events they write (the
#: families' ``fight.note``): the key's battle has such an event that the battle without any tile has not.
EXPANSION_IDEAS = {
    "redirect": "redirection", "venom": "venom", "trap": "trap", "terrain": "terrain", "rocket": "rocket",
    "sharpshooter": "sharpshooter", "shotgun": "shotgun", "regenerate": "regeneration", "mad-bomber": "mad bomber",
    "warehouse": "warehouse",
}


def _expansion(puzzle: Puzzle, ends: Sequence[Position], outcome: battle.Outcome | None,
               baseline: Sequence[battle.Outcome]) -> tuple[str, ...]:
    """The expansions' rules the key brings into play: a unit whose controller the key changes (a control
    takeover, PL VEGAS "Przejęcie kontroli": control takeover), and every event of an expansion family
    (:data:`EXPANSION_IDEAS`) in the key's battle that the battle without any tile lacks."""
    found: list[str] = []
    start = {u.hex: u for u in puzzle.position.units}
    before = effects.takeovers(start, puzzle.position.rules)
    long_before = _long_links(start, puzzle.position.rules, puzzle.player)
    for end in ends:
        units = {u.hex: u for u in end.units}
        after = effects.takeovers(units, end.rules)
        # The same unit (same tile, same army) standing where it stood, or a unit new there.
        changed = any(effects.side(u, after) != effects.side(start[h], before)
                      if h in start and (start[h].tile, start[h].army) == (u.tile, u.army)
                      else effects.side(u, after) != u.army for h, u in units.items())
        if changed and "takeover" not in found:
            found.append("takeover")
        if _long_links(units, end.rules, puzzle.player) - long_before and "long link" not in found:
            found.append("long link")
    if outcome is not None:
        seen = {(e.kind, e.text) for other in baseline for e in other.trace}
        for event in outcome.trace:
            idea = EXPANSION_IDEAS.get(event.kind)
            if idea and (event.kind, event.text) not in seen and idea not in found:
                found.append(idea)
    return tuple(found)


def _long_links(units: dict[Hex, Unit], rules: Any, player: str) -> set[tuple[Hex, Hex]]:
    """The links over two hexes working for ``player`` (a long-distance module of the Doomsday Machine, RULINGS
    54: its Officer, Medic, Main War Processor reach the unit behind the first)."""
    sides = effects.takeovers(units, rules)
    nets = effects.netted(units, sides)
    return {(module.hex, other.hex) for module, other, holder in effects.links(units, nets, sides)
            if module.hex.distance(other.hex) == 2 and effects.side(holder, sides) == player}


def _attacks(tile: Tile) -> bool:
    return any(e.melee or e.ranged or e.special for e in (tile.edges or ()))


def _acts_before(unit: Unit, boni: dict[Hex, effects.Bonus], phase: int) -> bool:
    """Whether the unit had a slot at ``phase`` or above (it could act before dying in that phase)."""
    bonus = boni.get(unit.hex)
    shift = bonus.initiative if bonus else 0
    return any(max(0, v + shift) >= phase for v in unit.tile.initiative)


def _choices(node: battle.Node, army: str) -> bool:
    """Whether ``army`` makes a choice in the battle that changes its outcome."""
    if isinstance(node, battle.Leaf):
        return False
    if node.army == army:
        outcomes = {tuple(sorted(o.hq.items())) for _, branch in node.branches for o in battle.leaves(branch)}
        if len(outcomes) > 1:
            return True
    return any(_choices(branch, army) for _, branch in node.branches)


def grade(puzzle: Puzzle, key: Sequence[str], ends: Iterable[Position], plays: int, near_misses: int,
          outcome: battle.Outcome | None) -> Grade:
    """Grade the key (docs/GENERATOR.md "Grading")."""
    player = puzzle.player
    actions = [line for line in key if not line.startswith("#")]
    ends = list(ends)
    start = {u.hex: u for u in puzzle.position.units}
    instant = any(line.startswith("use ") for line in actions)
    module = False
    for line in actions:
        action = parse_action(line, player)
        if isinstance(action, Place) and action.tile.kind is Kind.MODULE:
            module = True
    net = initiative = denial = False
    before = effects.netted(start)
    for end in ends:
        units = {u.hex: u for u in end.units}
        after = effects.netted(units)
        for hex_ in after - before:
            u = units[hex_]
            if u.army != player and (_attacks(u.tile) or u.tile.module is not None):
                net = True
        for hex_ in before - after:
            u = start[hex_]
            if u.army == player and hex_ in units and (_attacks(u.tile) or u.tile.module is not None):
                net = True
        if puzzle.then != "nothing" and not denial:
            # A battle nobody has a choice in denies nothing: played straight through, not grown as a tree.
            denial = battle.straight(end) is None and _choices(battle.battle_tree(end), _opponent(puzzle))
    plain: list[battle.Outcome] = []
    if outcome is not None:
        # Only what the key changes counts: an enemy struck down before it acts that would have acted (or lived)
        # had the player played no tile.
        baseline: set[tuple[Hex, str]] = set()
        if puzzle.then != "nothing":
            plain = list(battle.resolve(puzzle.position, trace=True))
            for other in plain:
                baseline |= struck_first(other, puzzle.position, player)
        initiative = bool(struck_first(outcome, ends[0], player) - baseline)
    return Grade(len(actions), instant, module, net, initiative, denial, plays, near_misses,
                 _expansion(puzzle, ends, outcome, plain))


def struck_first(outcome: battle.Outcome, position: Position, player: str) -> set[tuple[Hex, str]]:
    """The enemy units with an attack that the battle destroys before their first initiative comes."""
    units = {u.hex: u for u in position.units}
    nets = effects.netted(units)
    boni = effects.bonuses(units, nets, position.rules)
    found = set()
    for event in outcome.trace:
        if event.kind != "death" or event.phase is None:
            continue
        for u in units.values():
            if u.army != player and event.text.startswith(f"{u.tile.key} on {u.hex} dies") \
                    and _attacks(u.tile) and u.hex not in nets and u.tile.initiative \
                    and not _acts_before(u, boni, event.phase) and not _acted(outcome, u):
                found.add((u.hex, u.tile.key))
    return found


def _acted(outcome: battle.Outcome, unit: Unit) -> bool:
    """Whether the unit is among the actors of some phase of the trace ("Initiative phase 3: A on b1, …")."""
    name = f"{unit.tile.key} on {unit.hex}"
    return any(e.kind == "phase" and name in e.text.split(": ", 1)[-1].split(", ") for e in outcome.trace)


def _opponent(puzzle: Puzzle) -> str:
    return next(u.army for u in puzzle.position.units if u.is_hq and u.army != puzzle.player)


# --- explaining -------------------------------------------------------------------------------------------------------

def _unit_name(position: Position, hex_: Hex) -> str:
    unit = position.unit_at(hex_)
    return f"the {pretty(unit.tile.key)} on {hex_}" if unit is not None else f"the unit on {hex_}"


def describe(line: str, player: str, position: Position | None = None) -> str:
    """An action line in words (units named as they stand on ``position``, the board before the action)."""
    action = parse_action(line, player)
    where = position or Position()
    if isinstance(action, Place):
        return f"place the {tile_title(action.tile.key)} on {action.hex} facing {action.facing.name}"
    if isinstance(action, Use):
        name, hexes = action.tile.name, action.targets
        if name == "move" and len(hexes) == 2:
            turn = f", facing {action.facing.name}" if action.facing is not None else ""  # N is 0: test for None
            if hexes[0] == hexes[1]:
                return f"use the Move tile to turn {_unit_name(where, hexes[0])}{turn}"
            return f"use the Move tile to move {_unit_name(where, hexes[0])} to {hexes[1]}{turn}"
        if name == "push-back" and len(hexes) >= 2:
            dest = f" to {hexes[2]}" if len(hexes) > 2 else ""
            return f"use Push Back: {_unit_name(where, hexes[0])} pushes {_unit_name(where, hexes[1])}{dest}"
        if name in ("sniper", "grenade") and hexes:
            return f"use the {tile_title(action.tile.key)} on {_unit_name(where, hexes[0])}"
        return f"use the {tile_title(action.tile.key)} ({' '.join(h.label for h in hexes)})"
    if isinstance(action, Move):
        if action.source == action.target and action.facing is not None:  # a turn where it stands (the Doomsday HQ's)
            return f"turn {_unit_name(where, action.source)} to face {action.facing.name} (a free turn, by {action.by})"
        turn = f", facing {action.facing.name}" if action.facing is not None else ""  # N is 0: test for None
        return f"move {_unit_name(where, action.source)} to {action.target}{turn} (a free move, by {action.by})"
    return line


def _described(puzzle: Puzzle, lines: Sequence[str]) -> list[str]:
    """The lines in words, each naming the units as they stand when it is played."""
    from ..turns import actions as rules

    player = puzzle.player
    position = replace(puzzle.position, hands=((player, puzzle.offer),), to_move=player)
    used = rules.NOTHING_USED
    words = []
    for line in lines:
        words.append(describe(line, player, position))
        action = parse_line(line, player)
        if action is None:
            continue
        try:
            position, used = rules.apply(position, action, player, used), rules.spend(position, action, player, used)
        except (NhexError, rules.ChoiceRequired):
            continue
    return words


_KEY = re.compile(rf"\b{KEY_PATTERN}\b")


def pretty(text: str) -> str:
    """Trace text for people: ``outpost:hq`` becomes ``Outpost HQ``, ``moloch:hunter-killer`` ``Moloch
    Hunter-Killer``."""
    def name(match: re.Match[str]) -> str:
        try:
            found = tile(match.group(0))
        except (ValueError, KeyError):  # words shaped like a key that name no tile stay as they are
            return match.group(0)
        army_title = army(found.army).title
        return f"{army_title} HQ" if found.kind is Kind.HQ else f"{army_title} {found.title.removeprefix('The ')}"

    return _KEY.sub(name, text)


def _battle_story(outcome: battle.Outcome, limit: int) -> list[str]:
    """The events of a battle that decide a card: hits on HQs, deaths, nets, Medics, explosions."""
    told = []
    for event in outcome.trace:
        hits_hq = event.kind in ("melee", "ranged", "gauss", "blast", "instant") and " HQ " in \
            pretty(event.text).split(" hits ", 1)[-1] + " "
        if hits_hq or event.kind in ("death", "netted", "medic", "destroyed", "explosion"):
            told.append(f"in phase {event.phase}, {event_words(event)}" if event.phase is not None
                        else f"before the first phase, {event_words(event)}")
    if len(told) > limit:
        told = told[:limit] + ["…"]
    return told


_IDEAS = {"instant": "an instant tile", "module": "a module's link", "net": "a net that matters",
          "initiative": "an enemy struck down before its initiative comes", "denial":
          "an answer to every choice the opponent has"}


def explain(puzzle: Puzzle, key: Sequence[str], outcome: battle.Outcome | None, graded: Grade,
            best_try: tuple[tuple[str, ...], int, battle.Outcome | None] | None, why: str = "",
            fails: str = "") -> str:
    """The explanation printed on the back of the card: the key, the idea (``why``, :func:`solver.search.idea.why_wins`),
    the key's battle trace, and the best try with why it fails (``fails``)."""
    player, opponent = puzzle.player, _opponent(puzzle)
    mine, theirs = army(player).title, army(opponent).title
    lines = [line for line in key if not line.startswith("#")]
    text = ["Key: " + "; then ".join(_described(puzzle, lines)) + "."]
    if why:
        text.append(f"Why it wins: {why}")
    if outcome is not None:
        story = _battle_story(outcome, 8)
        if story:
            text.append("In the Final Battle: " + "; ".join(story) + ".")
        hp = outcome.hq
        text.append(f"It ends {mine} {hp.get(player, 0)}, {theirs} {hp.get(opponent, 0)}: "
                    f"{mine} wins by {hp.get(player, 0) - hp.get(opponent, 0)}.")
    ideas = [f"{graded.tiles} actions" if graded.tiles > 1 else ""]
    ideas += [_IDEAS[name] for name in ("instant", "module", "net", "initiative", "denial") if getattr(graded, name)]
    ideas = [i for i in ideas if i]
    if ideas:
        text.append("It needs " + ", ".join(ideas) + f" (level {graded.level}).")
    if best_try is not None:
        line, margin, refutation = best_try
        shown = "; ".join(_described(puzzle, [a for a in line if not a.startswith("#")]))
        text.append(f"Best try: {shown or 'playing no tile'}")
        if fails:
            text[-1] += " — but " + fails[:1].lower() + fails[1:].rstrip(".")
        elif refutation is not None:
            hits = _battle_story(refutation, 3)
            if hits:
                text[-1] += " — but " + "; ".join(hits)
        text[-1] += f"; it ends {'level' if margin == 0 else f'{abs(margin)} behind'}."
    return " ".join(text)


def regrade(puzzle: Puzzle) -> Tuning:
    """Play a card out again as the generator did (at full HQ health) and grade it: a stored card's check."""
    return tune(Draft.of(puzzle), random.Random(0))


# --- canonical text and rotations ------------------------------------------------------------------------------------


def canonical(puzzle: Puzzle) -> str:
    """The card's text without its words and solution, minimised over the six rotations of the board."""
    bare = replace(puzzle, title="", number=None, level=None, story=None, solution=None, explanation=None)
    return min(write(replace(bare, position=bare.position.rotated(k))) for k in range(6))


# --- one card ------------------------------------------------------------------------------------------------------------


@dataclass
class Generated:
    """An accepted card with how it was found."""

    puzzle: Puzzle
    grade: Grade
    seed: str
    candidates: int  # drafts played out
    seconds: float
    report: search.Report = field(repr=False)
    #: A card an earlier run wrote, checked and kept (``nhex generate`` run again): no drafts were played for it.
    kept: bool = False


def finish(draft: Draft, tuning: Tuning, level: int, seed: str, candidates: int, started: float
           ) -> tuple[Generated | None, str]:
    """Count, prove and word a tuned and graded draft; None (and why) when it fails any test."""
    puzzle = draft.puzzle(tuning.player_hp, tuning.enemy_hp)
    count = count_winning(puzzle, stop_at=2)
    if count.verdict != "sound":
        return None, f"counting says {count.verdict}"
    if any(line.startswith("#") for line in tuning.key):
        return None, "the key branches on the opponent's choice"
    puzzle = replace(puzzle, solution=tuning.solution)
    report = search.Solver(puzzle, jobs=1, tries=1).solve()
    if report.verdict != "sound" or not report.contains_intended:
        return None, f"the solver says {report.verdict}"
    (found,) = report.solutions
    if min(len(line) for line in (found.actions, *found.duals)) < len(tuning.key):
        return None, "a shorter line reaches the key's end"
    if report.tries and found.verdict.margin - report.tries[0].verdict.margin < MARGIN_GAP:
        return None, "the best try comes too close"
    assert tuning.grade is not None
    puzzle = words(replace(puzzle, level=level), tuning, report)
    return Generated(puzzle, tuning.grade, seed, candidates, time.perf_counter() - started, report), ""


def words(puzzle: Puzzle, tuning: Tuning, report: search.Report) -> Puzzle:
    """The card's title, story and explanation, from its grade, the solver's key and best try, and their
    battle traces."""
    (found,) = report.solutions
    graded = tuning.grade
    assert graded is not None
    end = min(found.ends, key=str)
    why = idea.why_wins(puzzle, tuning.key, None, found.verdict.line)
    best_try, fails = None, ""
    if report.tries:
        attempt = report.tries[0]
        best_try = (attempt.actions, attempt.verdict.margin, _traced([attempt.end], attempt.verdict.line))
        fails = idea.why_fails(puzzle, attempt.actions, attempt.end, attempt.verdict.line, tuning.key, None,
                               found.verdict.line)
    outcome = _traced([end], found.verdict.line)
    player, opponent = puzzle.player, _opponent(puzzle)
    hp = {u.army: u.health for u in puzzle.position.units if u.is_hq}
    seed = canonical(puzzle)
    story = card_words.story(player, opponent, hp, puzzle.tiles_to_play, why.rules, seed)
    return replace(puzzle, title=card_words.title(why.rules, graded.ideas, seed), story=story,
                   explanation=explain(puzzle, tuning.key, outcome, graded, best_try, str(why), fails))


def reword(puzzle: Puzzle) -> Puzzle:
    """A stored card with the title, story and explanation the current generator would write for it."""
    tuning = regrade(puzzle)
    if not tuning.ok:
        raise NhexError(f"the card no longer tunes: {tuning.reason}")
    report = search.Solver(puzzle, jobs=1, tries=1).solve()
    if report.verdict != "sound":
        raise NhexError(f"the card is {report.verdict}")
    return words(puzzle, tuning, report)


def _block(rng: random.Random, draft: Draft, tuning: Tuning, *, popular: bool = False) -> Draft:
    """Take a hex away from one of the rival plays: a new unit stands where it placed a tile (or moved one).

    A hex that only some of the rivals use is taken first: one that every rival uses would block them all at once,
    and the play space would then have a new best play with new rivals, where blocking one leaves the others (and
    the last one standing is a card). Where every rival uses the same hexes but not the same tiles (a Crusher or
    a Swarm on one hex), an offered tile that only some of them play is swapped for another instead; where they
    differ only in a facing (a Rocket Launcher on c3 facing N or NE), the unit goes beside that hex, where some
    facings of the tile meet it (an attack, a link) and others do not.

    ``popular``: among the hexes some rivals use, one that most of them use. Many rivals are mostly one play that
    is enough alone, each with something harmless done with the tiles left (a Sniper shooting anywhere): taking
    that play's hex away removes them together."""
    needed_by: Counter[Hex] = Counter()  # how many rivals place (or move) a tile on each hex
    played_by: Counter[Tile] = Counter()  # ... play each tile
    facing_by: Counter[tuple[Hex, Direction]] = Counter()  # ... place a tile on a hex with a facing
    for line in tuning.rivals:
        hexes, tiles, facings = set(), set(), set()
        for text in line:
            if text.startswith("#"):
                continue
            action = parse_line(text, draft.player)
            if isinstance(action, (Place, Use)):
                tiles.add(action.tile)
            if isinstance(action, Place):
                hexes.add(action.hex)
                facings.add((action.hex, action.facing))
            elif isinstance(action, Use) and action.tile.name == "move":
                hexes.add(action.targets[-1])
        needed_by.update(hexes)
        played_by.update(tiles)
        facing_by.update(facings)
    rivals = len(tuning.rivals)
    taken = {u.hex for u in draft.units}
    free = sorted(hex_ for hex_ in needed_by if hex_ not in taken)
    some = [hex_ for hex_ in free if needed_by[hex_] < rivals]
    if popular and some:
        most = max(needed_by[hex_] for hex_ in some)
        some = [hex_ for hex_ in some if needed_by[hex_] == most]
    if not some:
        dividing = sorted((t for t in played_by if played_by[t] < rivals and t in draft.offer), key=lambda t: t.key)
        if dividing:
            return _swap_offered(rng, draft, rng.choice(dividing))
        turned = {hex_ for (hex_, _), count in facing_by.items() if count < rivals}
        around = {beside for hex_ in turned for _, beside in STANDARD.neighbours(hex_)}
        some = sorted(beside for beside in around if beside not in taken and beside not in needed_by)
        if turned and (not some or len(draft.units) >= MAX_UNITS):
            # No room for a unit beside the turned tile: a unit already there is turned instead.
            near = sorted((u for u in draft.units if u.hex in around and not u.is_hq), key=lambda u: u.hex)
            if near:
                return _turned(rng, draft, rng.choice(near))
    free = some or free
    if not free:
        return mutate(rng, draft)
    if len(draft.units) >= MAX_UNITS:
        return mutate(rng, draft)
    hex_ = rng.choice(free)
    side = rng.choice((draft.player, draft.opponent, draft.opponent))
    spare = _spare(draft, _board_tiles(side, own=side == draft.player))
    if not spare:
        return mutate(rng, draft)
    return replace(draft, units=draft.units + (_random_unit(rng, rng.choice(spare), hex_),))


def _score(tuning: Tuning, level: int) -> tuple[int, int]:
    """How far a draft is from a card: plays close to the key first, then how far its level is off."""
    if tuning.grade is None:
        return (tuning.near_keys, 9)
    distance = abs(tuning.grade.level - level) + (0 if tuning.grade.in_band else 1)
    return (tuning.near_keys - 1 if tuning.ok else tuning.near_keys, distance)


def _steer(rng: random.Random, draft: Draft, tuning: Tuning, level: int) -> Draft:
    """A mutation aimed at the level: the key's tile is swapped for a richer (or plainer) one, or a unit added
    (removed), while the key grades too low (too high)."""
    assert tuning.grade is not None
    too_low = tuning.grade.level < level
    used = tuning.solution
    tiles = [a.tile for a in used if isinstance(a, (Place, Use))]
    if tiles and rng.random() < 0.7:
        old = rng.choice(tiles)
        if old in draft.offer:
            rest = list(draft.offer)
            rest.remove(old)
            pool = [t for t in _offer_tiles(draft.player) if t != old
                    and ((t.kind is not Kind.WARRIOR) if too_low else (t.kind is Kind.WARRIOR))]
            spare = _spare(replace(draft, offer=tuple(rest)), pool)
            if spare:
                return replace(draft, offer=tuple(sorted([*rest, rng.choice(spare)], key=lambda t: t.key)))
    if too_low:
        return _add_unit(rng, draft, rng.choice((draft.player, draft.opponent, draft.opponent)))
    others = [u for u in draft.units if not u.is_hq]
    if others:
        victim = rng.choice(others)
        return replace(draft, units=tuple(u for u in draft.units if u is not victim))
    return mutate(rng, draft)


def generate_one(player: str, opponent: str, level: int, seed: object, *, budget: int | None = None,
                 restart: int = CLIMB, on_candidate: Callable[[str], None] | None = None) -> Generated | None:
    """One card from one seed: drafts, mutations and tuning until a card passes every test (or ``budget`` runs out).

    The draft is mutated while that does not add plays close to the best one (a hill climb on the number of
    near keys); after ``restart`` mutations without a card, a fresh draft is drawn.
    """
    started = time.perf_counter()
    budget = budget or BUDGET[level]
    rng = random.Random(f"nhex-generate:{seed}")
    draft = draw(rng, player, opponent, level)
    played: dict[Draft, _Played] = {}  # each draft played out once (tune)
    current = tune(draft, rng, played)
    since = 0
    for candidate in range(1, budget + 1):
        score = _score(current, level)
        if on_candidate:
            on_candidate(current.reason or f"level {current.grade.level if current.grade else '?'}")
        if score == (0, 0):
            made, why = finish(draft, current, level, str(seed), candidate, started)
            if made is not None:
                return made
            current = replace(current, ok=False, reason=why, near_keys=2)
            score = _score(current, level)
        since += 1
        if since > restart:
            draft, since = draw(rng, player, opponent, level), 0
            current = tune(draft, rng, played)
            continue
        freely = _moved_freely(draft) if current.too_many else []
        if freely:
            # A unit beside the Smart HQ (moved there, or the HQ moved beside it): taken off the board.
            victim = rng.choice(freely)
            trial = replace(draft, units=tuple(u for u in draft.units if u is not victim))
        elif current.too_many:
            # A mutation keeps the play space about as large as it was: an enemy unit on an empty hex shrinks it
            # (every offered tile has fewer places to go, and the player no more units to act with). Without this,
            # Doomsday drafts (its HQ lets one friendly unit turn each turn, besides every placement) stayed over
            # the limit for whole runs.
            trial = _add_unit(rng, draft, draft.opponent)
            if trial == draft:  # the board is full, or the opponent has no tile left
                trial = mutate(rng, draft)
        elif current.ok and score[1] > 0 and rng.random() < 0.6:
            trial = _steer(rng, draft, current, level)
        elif current.rivals and len(current.rivals) <= BLOCKABLE and rng.random() < 0.5:
            trial = _block(rng, draft, current)
        elif current.rivals and len(current.rivals) > BLOCKABLE and rng.random() < 0.3:
            trial = _block(rng, draft, current, popular=True)
        else:
            trial = mutate(rng, draft)
        result = tune(trial, rng, played)
        if _score(result, level) <= score:
            draft, current = trial, result
    return None


# --- many cards ----------------------------------------------------------------------------------------------------------


class NoCard(NhexError):
    """Every attempt at a card ran out of drafts (or gave a card the run already has)."""


#: Drafts played out so far by every worker (a shared counter set up by :func:`_start_worker`), or None.
_DRAFTS: Any = None


#: In a run without worker processes: what to call after each draft (the progress report).
_REPORT: Callable[[], None] | None = None


def _start_worker(counter: Any, report: Callable[[], None] | None = None) -> None:
    global _DRAFTS, _REPORT
    _DRAFTS, _REPORT = counter, report


def _count_draft(_reason: str) -> None:
    if _DRAFTS is not None:
        with _DRAFTS.get_lock():
            _DRAFTS.value += 1
    if _REPORT is not None:
        _REPORT()


def _job(args: tuple[str, str, int, str, int, int]) -> tuple[int, int, Generated | None, int]:
    """One attempt at one card, a single hill climb of :data:`CLIMB` drafts (a pure job for
    solver/search/dispatch.py), with the number of drafts it played out."""
    player, opponent, level, seed, index, attempt = args
    drafts = [0]

    def counted(reason: str) -> None:
        drafts[0] += 1
        _count_draft(reason)

    made = generate_one(player, opponent, level, f"{seed}:{index}:{attempt}", budget=CLIMB, on_candidate=counted)
    return index, attempt, made, drafts[0]


def _check_job(args: tuple[str, str, int, str, int, int, str]) -> tuple[int, int, Generated | None, int]:
    """A card a run wrote before (``nhex generate`` run again after an interruption): checked, not trusted. It
    is kept only when the file reads back as the very card the attempt makes (:func:`stored_card`); ``None`` has
    the attempt made again."""
    player, opponent, level, seed, index, attempt, text = args
    return index, attempt, stored_card(text, level, f"{seed}:{index}:{attempt}"), 0


def stored_card(text: str, level: int, seed: str) -> Generated | None:
    """The card of ``text`` if it is the card the generator makes for ``seed`` (``SEED:CARD:ATTEMPT``): it reads
    back, plays out and grades as it did (:func:`regrade`), the solver proves it sound with its key, and written
    again it is the same file, byte for byte (its words, its key, its proof's counts). Else ``None``."""
    from ..notation.text import parse

    try:
        puzzle = parse(text, "<stored card>")
    except (NhexError, RuleNotImplemented, RecursionError):
        return None
    if not isinstance(puzzle, Puzzle) or puzzle.level != level or not puzzle.solution:
        return None
    try:
        tuning = regrade(puzzle)
        if not tuning.ok or tuning.grade is None:
            return None
        report = search.Solver(puzzle, jobs=1, tries=1).solve()
        if report.verdict != "sound" or not report.contains_intended:
            return None
        made = Generated(words(puzzle, tuning, report), tuning.grade, seed, 0, 0.0, report, kept=True)
    except (NhexError, RuleNotImplemented, ValueError):
        return None
    return made if card_text(made) == text else None


#: Cards worked on at once beyond the workers: the next cards start while an earlier one is still being made.
AHEAD = 2


def generate(player: str, opponent: str, level: int, count: int, seed: object, *, jobs: int = 1,
             on_card: Callable[[Generated], None] | None = None, on_drafts: Callable[[int], None] | None = None,
             max_attempts: int | None = None, scheduler: str | None = None,
             stored: Callable[[int], tuple[int, str] | None] | None = None, wait_workers: float | None = None,
             say: Callable[[str], None] | None = None) -> list[Generated]:
    """``count`` distinct cards. Card ``i`` is the first of its attempts ``(seed, i, 0), (seed, i, 1), …`` that
    is not a rotation of an earlier card, so the result depends on the seed only, not on ``jobs`` nor on
    ``scheduler`` (a Dask cluster's address: the attempts run there, solver/search/dispatch.py). An attempt is one
    hill climb (:data:`CLIMB` drafts); a card is given up (:class:`NoCard`) after ``max_attempts`` (by default
    :data:`ATTEMPTS` of the level).

    A worker with no card to start runs a later attempt of the first card not yet decided, ahead of time: with
    two cores, one card has two climbs going at once. What such an attempt finds waits until every earlier
    attempt of its card has failed, so the cards are those of one worker; the run stops, and the attempts still
    running are dropped, as soon as the last card is decided.

    The cards are made one after the other, a few ahead (the workers, times :data:`AHEAD`), and ``on_card``
    hears of each as it is decided, in order: memory does not grow with ``count`` (issue 25), but for the texts
    that tell a new card from a rotation of an earlier one. Without ``on_card`` the cards are returned; with it,
    nothing is kept (each card holds its solver's report: megabytes a card over a long run). ``stored(i)``
    gives the attempt and text of card ``i`` as an earlier run wrote it, if any: such a card is checked
    (:func:`stored_card`) and kept, or made again, so that a run interrupted and run again ends with the cards of
    a run never interrupted. ``on_drafts`` hears of the number of drafts played out so far, about twice a
    second (with a scheduler: as each attempt comes back). ``wait_workers`` and ``say``: how long a cluster may
    be left without workers, and where the waiting is said (solver/search/dispatch.py).
    """
    from .dispatch import WAIT_WORKERS, Serial, mp_context, open_dispatcher

    for name in (player, opponent):
        if name not in ARMIES:
            raise NhexError(f"unknown army {name!r}: nhex generate makes cards for {', '.join(ARMIES)}")
    if player == opponent:  # a mirror match: two labelled players of the army (solver/mirror.py)
        player, opponent = mirror_pair(player)
    if level not in SHAPES:
        raise NhexError(f"level {level} is not one of 1, 2, 3, 4")
    attempts = ATTEMPTS[level] if max_attempts is None else max_attempts
    counter = mp_context().Value("l", 0)
    dispatcher = open_dispatcher(jobs, scheduler, initializer=_start_worker, initargs=(counter,),
                                 wait_workers=WAIT_WORKERS if wait_workers is None else wait_workers, say=say)
    returned = [0]  # drafts of the attempts that came back: what a cluster's workers can report
    last = [-1, 0.0]

    def report(final: bool = False) -> None:
        now = time.perf_counter()
        drafts = counter.value if dispatcher.shares_memory else returned[0]
        if on_drafts is not None and drafts != last[0] and (final or now - last[1] > 0.2):
            last[0], last[1] = drafts, now
            on_drafts(drafts)

    if isinstance(dispatcher, Serial):
        _start_worker(counter, report)

    window = max(1, dispatcher.workers)
    attempt: dict[int, int] = {}  # the attempt each started card is at, from `decided` on
    began: dict[int, float] = {}  # when each started card's first attempt was sent out
    done: dict[tuple[int, int], tuple[Generated | None, int]] = {}  # attempts come back (and their drafts)
    running: set[tuple[int, int]] = set()
    seen: set[str] = set()  # the canonical texts of the cards decided: a later rotation of one is not a new card
    chosen: list[Generated] = []
    decided = started = 0  # cards decided (0 .. decided-1), cards started (0 .. started-1)

    def next_task() -> tuple | None:
        nonlocal started
        for index in range(decided, started):  # an attempt to make again, or the next of a card
            key = (index, attempt[index])
            if key not in done and key not in running:
                running.add(key)
                return (player, opponent, level, str(seed), *key)
        if started < count and started - decided < window * AHEAD:
            index, started = started, started + 1
            began[index] = time.perf_counter()
            kept = stored(index) if stored is not None else None
            if kept is not None and 0 <= kept[0] < attempts:
                attempt[index] = kept[0]
                running.add((index, kept[0]))
                return (player, opponent, level, str(seed), index, kept[0], kept[1])
            attempt[index] = 0
            running.add((index, 0))
            return (player, opponent, level, str(seed), index, 0)
        if decided < started:  # ahead of time: the first attempt of the first undecided card not yet asked for
            ahead = next((tried for tried in range(attempt[decided] + 1, attempts)
                          if (decided, tried) not in done and (decided, tried) not in running), None)
            if ahead is not None:
                running.add((decided, ahead))
                return (player, opponent, level, str(seed), decided, ahead)
        return None

    def decide() -> None:
        """Decide every card whose current attempt is back, in order."""
        nonlocal decided
        while decided < started and (decided, attempt[decided]) in done:
            made, _ = done[decided, attempt[decided]]
            text = canonical(made.puzzle) if made is not None else None
            if text is not None and text not in seen:
                assert made is not None
                seen.add(text)
                # The card's drafts are those of its attempts up to this one; later ones run ahead are dropped.
                tried = [key for key in done if key[0] == decided]
                drafts = sum(done[key][1] for key in tried if key[1] <= attempt[decided])
                for key in tried:
                    del done[key]
                took = time.perf_counter() - began.pop(decided)
                if not made.kept:  # the card's drafts and time are those of all its attempts, not only the last
                    made = replace(made, candidates=drafts, seconds=took)
                del attempt[decided]
                decided += 1
                if on_card:  # the caller keeps what it needs of each card: nothing is kept here
                    on_card(made)
                else:
                    chosen.append(made)
                continue
            attempt[decided] += 1
            if attempt[decided] >= attempts:
                raise NoCard(f"no new card after {attempts} attempts at card {decided + 1} (seed {seed})")

    try:
        for index, tried, made, drafts, checked in dispatcher.stream(_any_job, next_task, window=window,
                                                                     idle=report):
            running.discard((index, tried))
            returned[0] += drafts
            if index < decided:
                continue  # an attempt run ahead of time for a card decided since
            if checked and made is None:
                attempt[index] = 0  # the stored card is not the one its name says: the card is made afresh
                continue
            done[index, tried] = (made, drafts)
            decide()
            if decided == count:
                break  # attempts still running ahead of time are not needed: closing the dispatcher stops them
        decide()
        report(final=True)  # the stream may stop before it says it is idle again
        return chosen
    finally:
        dispatcher.close()
        _start_worker(None)


def _any_job(args: tuple) -> tuple[int, int, Generated | None, int, bool]:
    """A card's attempt made (:func:`_job`) or, given the text an earlier run wrote for it, checked
    (:func:`_check_job`); the last value says which."""
    if len(args) == 7:
        return (*_check_job(args), True)
    return (*_job(args), False)


def file_name(made: Generated) -> str:
    """``PLAYER-vs-OPPONENT-levelN-SEED-CARD-ATTEMPT.nhex``: unique for one seed, and says how to make it again."""
    p = made.puzzle
    # a mirror card's moloch/a and moloch/b are asked for as --player moloch --opponent moloch
    return f"{file_prefix(p.player, _opponent(p), p.level or 0, made.seed)[:-1]}.nhex"


def file_prefix(player: str, opponent: str, level: int, seed: object) -> str:
    """The start of the names of a run's cards (:func:`file_name`: then ``CARD-ATTEMPT.nhex``)."""
    return f"{base_army(player)}-vs-{base_army(opponent)}-level{level}-{str(seed).replace(':', '-')}-"


def stored_cards(names: Iterable[str], player: str, opponent: str, level: int, seed: object
                 ) -> dict[int, list[tuple[int, str]]]:
    """The cards an earlier run of the same command wrote, among the file names ``names`` (a folder's): for each
    card, its attempts and file names, lowest attempt first."""
    pattern = re.compile(re.escape(file_prefix(player, opponent, level, seed)) + r"([0-9]{1,9})-([0-9]{1,9})\.nhex")
    found: dict[int, list[tuple[int, str]]] = {}
    for name in names:
        match = pattern.fullmatch(name)
        if match:
            found.setdefault(int(match.group(1)), []).append((int(match.group(2)), name))
    return {index: sorted(files) for index, files in found.items()}


def card_text(made: Generated) -> str:
    """The card in canonical notation, with a comment line that records how it was made."""
    g = made.grade
    head = (f"# nhex generate: seed {made.seed}; proven sound over {made.report.plays} plays "
            f"({made.report.positions} positions); {g.near_misses} near misses; "
            f"ideas: {', '.join(g.ideas) or 'none'}\n")
    return head + write(made.puzzle)
