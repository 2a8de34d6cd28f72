"""The bound that prunes the solver's search (issue 27: "a search that proves more by looking at less").

Soundness first (STYLE: Popeye lost solutions for years to an optimisation): the default search, which prunes
states by :mod:`solver.search.bound` and merges transpositions, must give exactly what ``--naive`` gives (no bound,
no transpositions, every order and facing played out), verdict and every solution, on every bundled and generated
card and on seeded random cards; and the bound must never be below what any completion of the turn achieves.
``NHEX_BOUND_CARDS=500`` runs more random cards locally (the suite runs a small seeded share).
"""

from __future__ import annotations

import os
import random
import time
from collections.abc import Callable
from pathlib import Path

import pytest

from solver.abilities.pusher import Pusher
from solver.engine import battle
from solver.notation import text as notation
from solver.notation.cards import Puzzle
from solver.search.bound import HqBound, Reach, possible, readable
from solver.search.enumeration import Enumerator, State
from solver.search.evaluation import battles_after
from solver.search import solve as search
from solver.search.solve import Solver, play_identity
from solver.tiles import Kind, army

HERE = Path(__file__).parent
ROOT = HERE.parent
BUNDLED = sorted((ROOT / "puzzles").glob("*.nhex")) + sorted((ROOT / "puzzles" / "generated").glob("*.nhex"))
RANDOM_CARDS = int(os.environ.get("NHEX_BOUND_CARDS", "40"))
BASE_ARMIES = ("moloch", "outpost", "borgo", "hegemony")
#: Armies whose families declare what they may still do in the turn (solver.engine.points.Ability.bound_frees: the
#: Doomsday HQ's rotation, the Smart HQ's moves) or add to the bound (the Trap's blast, long links, Vegas's
#: takeover: bound_takes_units; redirectors, venom, the Motherland, Castling and Rotation).
FAMILY_ARMIES = ("doomsday", "smart", "vegas", "neojungle")


def _plays(report) -> set[frozenset]:
    return {frozenset(play_identity(p) for p in s.ends) for s in report.solutions}


def assert_same_as_naive(puzzle: Puzzle) -> int:
    """The default search against --naive (verdict, plays, key lines) and against itself without the bound (the
    duals too: --naive lists more of them, every facing being its own line). How many states the bound cut."""
    fast = Solver(puzzle, jobs=1).solve()
    naive = Solver(puzzle, jobs=1, naive=True).solve()
    cut = fast.pruned or fast.ends_cut or fast.runs_cut or fast.uses_cut
    whole = fast if not cut else Solver(puzzle, jobs=1)._search(time.perf_counter(), search._NO_PRUNING)[0]
    assert fast.stopped is None and naive.stopped is None
    assert fast.verdict == naive.verdict == whole.verdict
    # The play identity reads effective edges, which --naive does not normalise: the plays are compared with the
    # search without the bound, their key lines with --naive.
    assert _plays(fast) == _plays(whole)
    assert sorted(s.actions for s in fast.solutions) == sorted(s.actions for s in naive.solutions)
    assert [(s.actions, s.duals) for s in fast.solutions] == [(s.actions, s.duals) for s in whole.solutions]
    return fast.pruned


@pytest.mark.parametrize("path", [p for p in BUNDLED if p.parent.name == "generated"], ids=lambda p: p.stem)
def test_the_pruned_search_finds_what_the_naive_one_finds_on_every_generated_card(path):
    """Issue 27: default ≡ naive, verdict and the full solution set (with duals), on every generated card (the
    bundled ones: tests/test_search.py, test_naive_and_default_search_give_the_same_verdict_and_solutions)."""
    assert_same_as_naive(notation.load(str(path)))


# --- seeded random cards -----------------------------------------------------------------------------------------

GOALS = ("win", "draw-or-win", "destroy {enemy}", "damage {enemy} >= {n}", "hp {enemy} <= {n}", "damage {enemy} == {n}",
         "not win", "win and survive", "destroy {enemy} or hp {player} > {n}", "not (damage {enemy} < {n})",
         "dead {hex}", "win or alive {hex}")


def random_card(rng: random.Random, players: tuple[str, ...] = BASE_ARMIES) -> str:
    """A card of two armies (the player's among ``players``, the enemy a base army): both HQs at low health, 5 to 12
    other units, 2 or 3 tiles offered of which 1 or 2 are played, and a goal of every shape the bound reads (and
    some it does not)."""
    player = rng.choice(players)
    enemy = rng.choice([a for a in BASE_ARMIES if a != player])
    board = notation.parse("c3 moloch:hq\n").board
    labels = sorted(h.label for h in board)
    rng.shuffle(labels)
    lines = []
    used: dict[str, int] = {}
    player_hq, enemy_hq = labels.pop(), labels.pop()
    lines.append(f"{player_hq} {player}:hq hp={rng.randint(1, 6)}")
    lines.append(f"{enemy_hq} {enemy}:hq hp={rng.randint(1, 6)}")
    for _ in range(rng.randint(7, 14)):
        side = army(player if rng.random() < 0.5 else enemy)
        choices = [t for t in side.tiles if t.kind in (Kind.WARRIOR, Kind.MODULE) and used.get(t.key, 0) < t.count]
        if not choices:
            continue
        chosen = rng.choice(choices)
        used[chosen.key] = used.get(chosen.key, 0) + 1
        lines.append(f"{labels.pop()} {chosen.key} {rng.choice(['N', 'NE', 'SE', 'S', 'SW', 'NW'])}")
    own = army(player)
    pool = [t for t in own.tiles if t.kind in (Kind.WARRIOR, Kind.MODULE, Kind.INSTANT)
            and used.get(t.key, 0) < t.count]
    offer = rng.sample(pool, rng.randint(2, 3))
    goal = rng.choice(GOALS).format(enemy=enemy, player=player, n=rng.randint(1, 4),
                                    hex=rng.choice([enemy_hq, lines[-1].split()[0]]))
    head = ['puzzle "random"', f"player {player}", "offer " + " ".join(t.key for t in offer),
            f"play {rng.randint(1, 2)}", f"goal {goal}"]
    return "\n".join(head + lines) + "\n"


def _bounded_tiles(name: str) -> list:
    """The tiles of an army that leave a card readable by the bound (no Redirector, Transporter, Terror, ...)."""
    def alone(tile) -> bool:
        return readable(notation.parse(f'puzzle "t"\nplayer {name}\noffer {tile.key}\nplay 1\ngoal win\n'
                                       f"c5 {name}:hq\nc1 moloch:hq\n"))
    return [t for t in army(name).tiles if t.kind in (Kind.WARRIOR, Kind.MODULE, Kind.INSTANT) and alone(t)]


def family_card(rng: random.Random) -> str:
    """A small card of a family army (:data:`FAMILY_ARMIES`) against a base army, with only the tiles the bound
    reads: 4 to 7 units besides the HQs, 2 tiles offered, 1 played. Half of them have tiles left in the player's
    deck, so that a Battle tile may be played and the Final Battle follows it (two battles); against the
    Neojungle the enemy HQ may carry venom markers, which wound it at every battle."""
    player = rng.choice(FAMILY_ARMIES)
    enemy = rng.choice(BASE_ARMIES)
    board = notation.parse("c3 moloch:hq\n").board
    labels = sorted(h.label for h in board)
    rng.shuffle(labels)
    venom = rng.randint(0, 2) if player == "neojungle" else 0
    lines = [f"{labels.pop()} {player}:hq hp={rng.randint(1, 5)}",
             f"{labels.pop()} {enemy}:hq hp={rng.randint(1, 5)}" + (f" venom={venom}" if venom else "")]
    used: dict[str, int] = {}
    own = _bounded_tiles(player)
    for _ in range(rng.randint(4, 7)):
        pool = own if rng.random() < 0.5 else army(enemy).tiles
        choices = [t for t in pool if t.kind in (Kind.WARRIOR, Kind.MODULE) and used.get(t.key, 0) < t.count]
        chosen = rng.choice(choices)
        used[chosen.key] = used.get(chosen.key, 0) + 1
        lines.append(f"{labels.pop()} {chosen.key} {rng.choice(['N', 'NE', 'SE', 'S', 'SW', 'NW'])}")
    offer = rng.sample([t for t in own if used.get(t.key, 0) < t.count], 2)
    goal = rng.choice(GOALS).format(enemy=enemy, player=player, n=rng.randint(1, 4), hex=lines[-1].split()[0])
    head = ['puzzle "family"', f"player {player}", "offer " + " ".join(t.key for t in offer), "play 1",
            f"goal {goal}"] + ([f"deck {player} 5"] if rng.random() < 0.5 else [])
    return "\n".join(head + lines) + "\n"


def random_puzzles(count: int, seed: str, players: tuple[str, ...] = BASE_ARMIES) -> list[tuple[int, Puzzle]]:
    """Seeded random cards: of the base armies (:func:`random_card`), or small ones of the families' armies
    (:func:`family_card`)."""
    found = []
    rng = random.Random(seed)
    while len(found) < count:
        text = family_card(rng) if players == FAMILY_ARMIES else random_card(rng, players)
        try:
            puzzle = notation.parse(text)
        except Exception:  # a draw the reader refuses (a goal naming a hex without a unit...): draw again
            continue
        assert isinstance(puzzle, Puzzle)
        found.append((len(found), puzzle))
    return found


class _TooBig(Exception):
    pass


def _at_most(count: int):
    def check(expanded: int) -> None:
        if expanded > count:
            raise _TooBig
    return check


@pytest.mark.parametrize("players", [BASE_ARMIES, FAMILY_ARMIES], ids=["base", "families"])
def test_the_pruned_search_finds_what_the_naive_one_finds_on_seeded_random_cards(players):
    """Issue 27: default ≡ naive on seeded random cards of the base armies (goals of every shape), and of the
    Doomsday Machine and Smart against them (their families' bounds)."""
    pruned = compared = 0
    for number, puzzle in random_puzzles(RANDOM_CARDS * 3, "bound-equivalence", players):
        try:  # the naive search walks every order: cards of a few hundred states keep the suite short
            Enumerator(puzzle).build(on_state=_at_most(300))
        except _TooBig:
            continue
        pruned += assert_same_as_naive(puzzle)
        compared += 1
    assert compared >= RANDOM_CARDS // 2
    assert pruned > 0  # the bound did cut something on these cards, so the comparison tested it


# --- the bound itself: never below what any completion achieves --------------------------------------------------


def _lowest_hp(position, army_name: str, battles: int, memo: dict) -> int:
    """The lowest health ``army_name``'s HQ can end at after ``battles`` battles, over every line of choices."""
    known = memo.get((position, battles))
    if known is not None:
        return known
    hp = next((u.health for u in position.units if u.is_hq and u.army == army_name), 0)
    if battles == 0 or hp == 0:
        return hp
    lowest = hp
    for outcome in battle.leaves(battle.battle_tree(position)):
        after = outcome.hq.get(army_name, 0)
        if battles > 1 and all(v > 0 for v in outcome.hq.values()):
            after = _lowest_hp(outcome.position, army_name, battles - 1, memo)
        lowest = min(lowest, after)
    memo[position, battles] = lowest
    return lowest


@pytest.mark.parametrize("players", [BASE_ARMIES, FAMILY_ARMIES], ids=["base", "families"])
def test_the_bound_is_never_below_the_damage_of_any_completion(players):
    """Issue 27: for every state of the turn's whole graph (nothing pruned), the damage bound is at least the most
    damage the enemy HQ takes at any end reachable from it, over every line of the battles' choices; and a state
    the bound calls hopeless has no winning end below it. The player's army a base one, or one whose families
    declare their bounds (the Doomsday Machine, Smart)."""
    checked = 0
    for number, puzzle in random_puzzles(RANDOM_CARDS * 2, "bound-property", players):
        played: dict = {}
        if not readable(puzzle):
            continue
        enemy = next(u.army for u in puzzle.position.units if u.is_hq and u.army != puzzle.player)
        start = next(u.health for u in puzzle.position.units if u.is_hq and u.army == enemy)
        # Both graphs: with deferred facings a state stands for its ends with every class of facing (the bound
        # counts a deferred unit in its best facing), and the solver asks the bound of each of those ends too.
        deferred = number % 2 == 1
        try:
            enumerator = Enumerator(puzzle, free_facings=deferred)
            graph = enumerator.build(on_state=_at_most(250))
        except _TooBig:
            continue
        bound = HqBound(puzzle)
        most: dict[int, int] = {}

        def deepest(state: State) -> int:  # the graph is acyclic: a turn only spends
            known = most.get(id(state))
            if known is None:
                now = next((u.health for u in state.position.units if u.is_hq and u.army == enemy), 0)
                known = start - min(_lowest_hp(end, enemy, battles_after(puzzle, state), played)
                                    for end, _ in enumerator.completions(state))
                for step in graph.steps.get(state, ()):
                    for _, nxt in step.branches:
                        known = max(known, deepest(nxt))
                most[id(state)] = known
            return known

        for state in graph.steps:
            now = next((u.health for u in state.position.units if u.is_hq and u.army == enemy), 0)
            dealt_from_here = deepest(state) - (start - now)
            assert bound.damage(state) >= dealt_from_here, (number, state.position)
            checked += 1
    assert checked > 1000, checked


def _whole_graph(puzzle: Puzzle, deferred: bool, most: int):
    """An enumerator of a card whose steps the bound may cut before making them (None if it may not, or if the turn
    has more than ``most`` states), and the turn's whole graph listed by it with nothing pruned or cut."""
    try:
        enumerator = Enumerator(puzzle, bound=True, free_facings=deferred)
        if not enumerator.bound_runs:
            return None
        enumerator.bound, enumerator.bound_runs = None, False
        return enumerator, enumerator.build(on_state=_at_most(most))
    except _TooBig:
        return None


def _runs_bounded(puzzle: Puzzle, deferred: bool, most: int = 250) -> int:
    """Asserts that the bound of every placement run of the turn's whole graph, worked out from the state it
    starts from (:meth:`HqBound.placements`: its tiles on their cells, the first on its cell and the others
    anywhere, or its tiles alone anywhere, each at least the one before), is not below
    :meth:`HqBound.damage` of any state the run leads to (the opponent's turns of a unit just taken over included);
    how many states were compared (0: the card does not bound runs, or its graph is too big)."""
    import itertools
    from solver.search.enumeration import deferrable

    listed = _whole_graph(puzzle, deferred, most)
    if listed is None:
        return 0
    enumerator, graph = listed
    bound = HqBound(puzzle)
    checked = 0
    for state in graph.steps:
        if state.over or state.played >= puzzle.tiles_to_play:
            continue
        tiles = [t for t in state.hand if t.kind in (Kind.WARRIOR, Kind.MODULE)]
        empty = state.position.empty_hexes()
        main = frozenset(empty) & enumerator.actions.main_battlefield(state.position.board)
        run_bound = bound.placements(state, main, lambda tile: enumerator.defer and deferrable(tile))
        for size in range(1, min(puzzle.tiles_to_play - state.played, len(tiles)) + 1):
            for combo in set(itertools.combinations(tiles, size)):
                anywhere = run_bound(combo, None)
                for cells in enumerator.assignments(combo, empty, state.position):
                    step = enumerator.place_run(state, combo, cells)
                    if enumerator.takeovers:
                        step = enumerator.opponent_turns(step)
                    here = run_bound(combo, cells)
                    first_only = run_bound(combo, (cells[0],) + (None,) * (len(cells) - 1))
                    assert anywhere >= first_only >= here, (combo, cells)
                    for _, after in step.branches:
                        assert here >= bound.damage(after), (combo, cells, after.position)
                        checked += 1
    return checked


def _last_uses_bounded(puzzle: Puzzle, deferred: bool, most: int = 250) -> int:
    """Asserts that the bound of every use of an instant tile that is the turn's last tile, worked out from the state
    it starts from (:meth:`HqBound.last_use`), is not below :meth:`HqBound.damage` of any state the use leads to
    (each answer of the opponent, and the turns of a unit just taken over); how many states were compared."""
    from solver.position import Use

    listed = _whole_graph(puzzle, deferred, most)
    if listed is None:
        return 0
    enumerator, graph = listed
    bound = HqBound(puzzle)
    checked = 0
    for state in graph.steps:
        if state.over or state.played + 1 != puzzle.tiles_to_play:
            continue
        last = bound.last_use(state)
        for tile in {t for t in state.hand if t.kind is Kind.INSTANT}:
            position = state.position.replaced(hands=((puzzle.player, (tile,)),), to_move=puzzle.player)
            for action in enumerator.actions.player_actions(position, puzzle.player, state.used):
                if not isinstance(action, Use) or action.tile != tile:
                    continue
                dealt = last(action)
                step = enumerator.use(state, position, action)
                if dealt is None or step is None:
                    continue
                if enumerator.takeovers:
                    step = enumerator.opponent_turns(step)
                for _, after in step.branches:
                    assert dealt >= bound.damage(after), (str(action), after.position)
                    checked += 1
    return checked


@pytest.mark.parametrize("players", [BASE_ARMIES, FAMILY_ARMIES], ids=["base", "families"])
def test_the_last_use_of_an_instant_is_bounded_before_its_results_are_made_never_below_their_bound(players):
    """Issue 27: a use of an instant that is the turn's last tile, bounded from the state it starts from (the units
    on the hexes it names at their best anywhere), is never below the bound of the states it leads to
    (:func:`_last_uses_bounded`), on seeded random cards and on the bundled and generated cards with instants."""
    checked = sum(_last_uses_bounded(puzzle, deferred=number % 2 == 1, most=3000 if players == FAMILY_ARMIES else 250)
                  for number, puzzle in random_puzzles(RANDOM_CARDS * 2, "use-bound", players) if readable(puzzle))
    if players == FAMILY_ARMIES:  # the Vegas and Neojungle cards: a Push Back with takeovers, a Castling
        for path in BUNDLED:
            puzzle = notation.load(str(path))
            if readable(puzzle) and any(t.kind is Kind.INSTANT for t in puzzle.offer):
                checked += _last_uses_bounded(puzzle, deferred=True, most=20000)
    assert checked > 500, checked


@pytest.mark.parametrize("players", [BASE_ARMIES, FAMILY_ARMIES], ids=["base", "families"])
def test_a_placement_run_is_bounded_before_it_is_made_never_below_the_bound_of_its_states(players):
    """Issue 27 (the ratio to --naive where most runs are pruned at once): a run's bound from the state it starts
    from is never below the bound of the states it leads to (:func:`_runs_bounded`), on seeded random cards."""
    checked = 0
    for number, puzzle in random_puzzles(RANDOM_CARDS * 2, "run-bound", players):
        if readable(puzzle):  # (the Doomsday HQ turns any unit once: its cards list a few thousand states)
            checked += _runs_bounded(puzzle, deferred=number % 2 == 1, most=3000 if players == FAMILY_ARMIES else 250)
    assert checked > 1000, checked


FILLS_THE_BOARD = """puzzle "the last hex"
player outpost
offer outpost:commando outpost:runner
play 1
goal win
a1 outpost:hq hp=5
c3 moloch:hq hp=5
""" + "".join(f"{hex_} moloch:{name} N\n" for hex_, name in zip(
    ["a2", "a3", "b1", "b2", "b3", "b4", "c1", "c4", "c5", "d1", "d2", "d3", "d4", "e1", "e2", "e3"],
    ["blocker", "blocker", "hybrid", "hybrid", "juggernaut", "protector", "armored-hunter", "armored-hunter",
     "guard", "armored-guard", "ripper", "stormtrooper", "hunter-killer", "hunter-killer", "scout", "officer"]))


REDIRECTOR_STILL_IN_HAND = """puzzle "a Fireblast still to come"
player doomsday
offer doomsday:delta-shooter doomsday:fireblast
play 2
goal win
a1 doomsday:hq hp=5
e3 moloch:hq hp=5
a2 moloch:blocker N
a3 moloch:blocker N
b1 moloch:hybrid N
b2 moloch:hybrid N
b3 moloch:juggernaut N
b4 moloch:protector N
c1 moloch:armored-hunter N
c2 moloch:armored-hunter N
c5 moloch:guard S
d1 moloch:armored-guard N
d2 moloch:ripper N
"""


def test_a_placement_run_with_a_redirector_still_in_hand_is_counted_without_limit():
    """RULINGS 65 (a shot turned round a loop wounds without end): where a redirector may still be placed after the
    run (PL DOOMSDAY MACHINE: a shot entering it leaves by its exit), the run's bound counts any shot of the player's
    without limit, as the bound of its state does: a Delta Shooter placed anywhere first, the Fireblast after it."""
    puzzle = notation.parse(REDIRECTOR_STILL_IN_HAND)
    assert _runs_bounded(puzzle, deferred=False, most=3000) > 100
    from solver.search.bound import UNBOUNDED
    enumerator = Enumerator(puzzle, bound=True)
    state = enumerator.start()
    empty = state.position.empty_hexes()
    main = frozenset(empty) & enumerator.actions.main_battlefield(state.position.board)
    shooter = next(t for t in puzzle.offer if t.name == "delta-shooter")
    run_bound = HqBound(puzzle).placements(state, main, lambda tile: False)
    assert all(run_bound((shooter,), cells) >= UNBOUNDED for cells in enumerator.assignments((shooter,), empty))


def test_a_placement_run_that_fills_the_board_counts_the_battle_it_starts():
    """3E USING TILES: a full board starts a battle at once; with the Final Battle after it, a Commando placed on
    the last hex beside the HQ strikes it twice, and the run's bound counts both battles; so does the bound of a
    run of two tiles known only by its first cell, the second going to the last hex."""
    puzzle = notation.parse(FILLS_THE_BOARD)
    assert _runs_bounded(puzzle, deferred=False) == 6 + 6  # two tiles, each in every facing on c2
    two_left = notation.parse(FILLS_THE_BOARD.replace("play 1", "play 2").replace("e3 moloch:officer N\n", ""))
    assert _runs_bounded(two_left, deferred=False) > 6 + 6


CONVERTED_BLOW = """puzzle "a converted blow with its melee bonus"
player hegemony
offer hegemony:ganger
play 1
goal damage moloch >= 2
a1 hegemony:hq hp=5
c2 moloch:hq hp=5
c4 hegemony:runner N
c5 hegemony:quartermaster N
d4 hegemony:officer-2 NW
"""


def test_an_end_counts_a_blow_the_quartermaster_turns_with_both_bonuses():
    """PL Kwatermistrz, RULINGS 9: the converted attack counts both the melee and the ranged bonuses. The Runner's
    blow (1, +1 from Officer II) turned into a shot reaches the Moloch HQ two hexes away for 2; the bound of the
    ends of a state counted it with the ranged bonus alone (1) and cut 19 of the 43 winning plays."""
    puzzle = notation.parse(CONVERTED_BLOW)
    assert_same_as_naive(puzzle)  # verdict, plays and key lines
    assert len(Solver(puzzle, jobs=1).solve().solutions) == 43


def test_an_end_the_bound_cuts_neither_wins_nor_ends_above_its_margin_bound():
    """Issue 27: the solver bounds each end of a state (one per class of its deferred units' facings) from each
    unit's own share, without making the end (:meth:`HqBound.stopping`): an end it cuts must lose when played out,
    by a margin no better than the bound it gave (the tries read that bound), and stopping ends the turn, so an
    unspent Mobility adds nothing there."""
    from solver.search.evaluation import card_of, evaluate

    checked = cut = 0
    for number, puzzle in random_puzzles(RANDOM_CARDS * 2, "end-bound"):
        if not readable(puzzle):
            continue
        enumerator = Enumerator(puzzle, free_facings=True)
        try:
            graph = enumerator.build(on_state=_at_most(250))
        except _TooBig:
            continue
        bound, card = HqBound(puzzle), card_of(puzzle)
        for state in graph.steps:
            stopping = bound.stopping(state)
            for end, open_ in enumerator.completions(state):
                ahead = stopping.cut(sum(stopping.shares[hex_][end.unit_at(hex_).facing] for hex_, _ in open_))
                checked += 1
                if ahead is None:
                    continue
                cut += 1
                verdict = evaluate(card, end, dict(state.watched), battles_after(puzzle, state))
                assert not verdict.wins and verdict.margin <= ahead, (number, end)
    assert checked > 1000 and cut > 100, (checked, cut)


DEFERRING_ARMIES = ("hegemony", "outpost", "moloch", "borgo")


def deferring_card(rng: random.Random, armies: tuple[str, ...] = DEFERRING_ARMIES) -> str | None:
    """A crowded card where facings are deferred and the opponent may answer during the turn: warriors or modules,
    Move and Push Back offered, 2 of them played, 4 to 6 empty hexes (the naive search walks every order and
    facing). The player and the enemy are two of ``armies``."""
    player, enemy = rng.sample(armies, 2)
    board = notation.parse("c3 moloch:hq\n").board
    labels = sorted(h.label for h in board)
    rng.shuffle(labels)
    lines = [f"{labels.pop()} {player}:hq hp={rng.randint(1, 4)}", f"{labels.pop()} {enemy}:hq hp={rng.randint(1, 4)}"]
    used: dict[str, int] = {}
    while len(labels) > rng.randint(4, 6):
        side = army(player if rng.random() < 0.5 else enemy)
        choices = [t for t in side.tiles if t.kind is Kind.WARRIOR and used.get(t.key, 0) < t.count]
        chosen = rng.choice(choices)
        used[chosen.key] = used.get(chosen.key, 0) + 1
        lines.append(f"{labels.pop()} {chosen.key} {rng.choice(['N', 'NE', 'SE', 'S', 'SW', 'NW'])}")
    own = army(player)
    warriors = [t for t in own.tiles if t.kind in (Kind.WARRIOR, Kind.MODULE) and used.get(t.key, 0) < t.count]
    instants = [t for t in own.tiles if t.name in ("move", "push-back")]
    if len(warriors) < 2 or not instants:
        return None
    offer = rng.sample(warriors, 2) + rng.sample(instants, rng.randint(1, len(instants)))
    goal = rng.choice(("win", "draw-or-win", "damage {enemy} >= 2", "not win", "win or alive {hex}")).format(
        enemy=enemy, hex=lines[-1].split()[0])
    head = ['puzzle "deferring"', f"player {player}", "offer " + " ".join(t.key for t in offer), "play 2",
            f"goal {goal}"]
    return "\n".join(head + lines) + "\n"


ROTATION_AND_DEFERRED = """puzzle "a deferred facing and the Doomsday HQ's rotation"
player doomsday
offer doomsday:omega-shooter doomsday:{second}
play 2
goal win
a1 doomsday:hq hp=3
e3 moloch:hq hp=2
b1 moloch:blocker N
c4 moloch:hybrid S
"""


@pytest.mark.parametrize("second, deferred", [("scout", True), ("push-back", False)])
def test_facings_are_deferred_where_the_doomsday_hq_rotation_is_the_only_family_and_nothing_is_answered(
        second, deferred):
    """ES Doomsday sheet, CG: "En su turno puede girar una unidad amiga en cualquier dirección" (in its turn it may
    turn one friendly unit in any direction): the rotation only sets a facing, so the Omega Shooter's facing is
    chosen at the end of the turn as on a plain board. Not where a Push Back is offered: after its answer the
    rotation may face a unit differently on each branch, which a facing chosen once for the play cannot (264 of
    4,044 winning plays were lost so). The same verdict, plays and key lines as --naive either way."""
    puzzle = notation.parse(ROTATION_AND_DEFERRED.format(second=second))
    assert Enumerator(puzzle, free_facings=True).defer is deferred
    assert_same_as_naive(puzzle)


AN_ENEMY_HQ_GRANTS = """puzzle "the enemy HQ's grant"
player hegemony
offer hegemony:runner hegemony:push-back
play 2
goal win
a1 hegemony:hq hp=3
e3 {enemy}:hq hp=2
b1 moloch:blocker N
c4 moloch:hybrid S
"""


def test_an_enemy_pusher_leaves_the_players_turn_plain_unless_a_takeover_could_make_it_the_players():
    """B13 Push Back: the Pusher pushes "once during each of his turns", for the army controlling it: New York's on
    Hegemony's side of the board pushes nothing in Hegemony's turn (Pusher.quiet_in_turn), which is listed as a plain
    board, equal to --naive. Where Vegas could take it over (PL VEGAS, Sztab: a taken unit is "pod każdym względem"
    Vegas's, in every respect), it may push for Vegas: the Pusher is not quiet in Vegas's turn."""
    text = AN_ENEMY_HQ_GRANTS.format(enemy="new-york") + "d3 new-york:pusher N\n"
    puzzle = notation.parse(text)
    assert Enumerator(puzzle, free_facings=True).plain
    assert_same_as_naive(puzzle)
    vegas = notation.parse(text.replace("player hegemony", "player vegas").replace("a1 hegemony:hq", "a1 vegas:hq")
                           .replace("offer hegemony:runner hegemony:push-back", "offer vegas:push-back vegas:move"))
    assert Pusher().quiet_in_turn(puzzle.position, "hegemony", puzzle.offer)
    assert not Pusher().quiet_in_turn(puzzle.position, "new-york", ())  # in New York's own turn it pushes
    assert not Pusher().quiet_in_turn(vegas.position, "vegas", vegas.offer)


@pytest.mark.parametrize("enemy", ["doomsday", "smart"])
def test_an_enemy_hqs_grant_of_moves_leaves_the_players_turn_plain(enemy):
    """ES Doomsday sheet, CG: "En su turno puede girar una unidad amiga" (in its turn it may turn one friendly unit);
    PL SMART, Sztab: "każda sąsiadująca ze Sztabem własna jednostka może wykonać dodatkowy ruch" (each own unit next
    to the HQ may make an extra move). Both act in their own army's turn only: in Hegemony's the enemy HQ's family is
    quiet (Ability.quiet_in_turn), the turn is listed as on a plain board, facings deferred though a Push Back is
    answered, with the same verdict, plays and key lines as --naive."""
    puzzle = notation.parse(AN_ENEMY_HQ_GRANTS.format(enemy=enemy))
    enumerator = Enumerator(puzzle, free_facings=True)
    assert enumerator.plain and enumerator.defer
    assert_same_as_naive(puzzle)
    own = notation.parse(AN_ENEMY_HQ_GRANTS.format(enemy="moloch").replace("player hegemony", "player doomsday")
                         .replace("hegemony:", "doomsday:").replace("doomsday:runner", "doomsday:omega-shooter"))
    assert not Enumerator(own, free_facings=True).plain


TURNED_AFTER_THE_ANSWER = """puzzle "a mobile unit turned after the answer"
player hegemony
offer hegemony:runner hegemony:push-back
play 2
goal win
a1 hegemony:hq hp=3
e3 moloch:hq hp=2
b1 moloch:blocker N
c4 moloch:hybrid S
"""


def test_a_unit_faced_before_the_opponent_answers_may_be_turned_differently_on_each_branch():
    """3E MOBILITY (a unit may move and/or rotate once a turn) with a Push Back whose destination the pushed unit's
    owner chooses (3E PUSH BACK): the Runner, placed before the push, may use its Mobility after the answer to face
    one way on one branch and another on the other. Its facing is deferred, so that turn must still be listed after
    the answer (State.turnable): without it 98 of the 5,668 winning plays --naive finds were lost."""
    puzzle = notation.parse(TURNED_AFTER_THE_ANSWER)
    assert Enumerator(puzzle, free_facings=True).defer
    report = Solver(puzzle, jobs=1).solve()
    assert any(line.startswith("# if ") and line.endswith(("N", "NE", "SE", "S", "SW", "NW"))
               and line.split(": ")[1].split()[1] == line.split(": ")[1].split()[2]
               for s in report.solutions for line in s.actions)
    # Every line written, duals too, turns a unit only to a facing it has not (3E MOVE: a rotation changes it).
    start = {u.hex.label: u.facing.name for u in puzzle.position.units}
    for solution in report.solutions:
        for line in (solution.actions, *solution.duals):
            assert not _turns_to_the_facing_it_has(line, start), line
    assert_same_as_naive(puzzle)


def _turns_to_the_facing_it_has(line: tuple[str, ...], start: dict[str, str]) -> bool:
    """Whether a line (with its "# if ...:" branches, each from the facings before the answer) turns a unit on its
    hex to the facing it already has."""
    def walk(actions: list[str], facing: dict[str, str]) -> bool:
        for action in actions:
            words = action.split()
            if words[0] == "place":
                facing[words[2]] = words[3]
            elif words[0] == "move":
                if words[1] == words[2] and facing.get(words[1]) == words[3]:
                    return True
                facing.pop(words[1], None)
                facing[words[2]] = words[3]
        return False

    facing = dict(start)
    for action in line:
        if action.startswith("# if "):
            if walk(action.split(": ", 1)[1].split("; "), dict(facing)):
                return True
        elif not action.startswith("#") and walk([action], facing):
            return True
    return False


def test_deferred_facings_find_what_the_naive_search_finds_where_the_opponent_answers():
    """Issue 27: the default search chooses a warrior's facing at the end of the turn (one per effective class)
    instead of at its placement or move; the naive search lists every facing at every step. Verdict, plays, key
    lines must agree, on crowded cards with Move and Push Back (whose owner answers) and tiles of every base army."""
    count = max(6, RANDOM_CARDS // 4)
    assert _deferring_cards_as_naive(random.Random("deferred-facings"), count) >= count // 2


def _deferring_cards_as_naive(rng: random.Random, count: int,
                              armies: Callable[[], tuple[str, ...]] = lambda: DEFERRING_ARMIES) -> int:
    """``count`` crowded cards (:func:`deferring_card`, of two of ``armies()``) held to --naive (skipping those the
    naive search or a report cannot take whole); how many of them deferred facings."""
    compared = deferred = 0
    while compared < count:
        text = deferring_card(rng, armies())
        if text is None:
            continue
        puzzle = notation.parse(text)
        try:
            Enumerator(puzzle, naive=True).build(on_state=_at_most(2500))
        except _TooBig:
            continue
        if Solver(puzzle, jobs=1).solve().stopped:  # past the plays a report lists (the answers multiply them)
            continue
        deferred += Enumerator(puzzle, free_facings=True).defer
        assert_same_as_naive(puzzle)
        compared += 1
    return deferred


def test_deferred_facings_beside_a_new_york_hq_find_what_the_naive_search_finds():
    """B13 NEW YORK, HQ: the point's loss between battles kills only a unit that lives by it ("If such a unit
    becomes nonadjacent to the HQ ... it could die immediately"). With none wounded and only Move and Push Back
    offered there is none all turn (HQToughness.quiet_in_turn), and facings are deferred as on a plain board: the
    same verdict, plays and key lines as --naive, on crowded cards of New York against a base army."""
    rng = random.Random("deferred-facings-new-york")
    deferred = _deferring_cards_as_naive(rng, max(4, RANDOM_CARDS // 8),
                                         lambda: ("new-york", rng.choice(DEFERRING_ARMIES)))
    assert deferred >= 2  # the others have a Pusher on the board, a family acting between battles


@pytest.mark.parametrize("goal, high, low, expected", [
    ("win", (3, 3), (0, 2), (True, False)),
    ("win", (3, 5), (0, 3), (False, False)),  # 3E VICTORY: more health than the enemy
    ("draw-or-win", (3, 5), (0, 3), (True, False)),
    ("destroy outpost", (3, 5), (0, 1), (False, False)),
    ("destroy outpost", (3, 5), (0, 0), (True, False)),
    ("damage outpost >= 3", (3, 5), (0, 3), (False, False)),  # started at 5: at most 2 dealt
    ("damage outpost >= 2", (3, 5), (0, 3), (True, False)),
    ("not win", (3, 5), (0, 3), (True, True)),
    ("not survive", (3, 5), (0, 3), (True, False)),
    ("win or destroy outpost", (3, 5), (0, 3), (False, False)),
    ("win and alive c3", (3, 5), (0, 0), (True, False)),
    ("dead c3", (3, 5), (0, 5), (True, False)),  # where a watched unit ends is not bounded
])
def test_goals_combine_bounds_by_their_structure(goal, high, low, expected):
    """Issue 27: "`and`, `or`, `not` flips the bound; a goal the bound cannot read prunes nothing" (NOTATION §6):
    ``(may hold, must hold)`` for the HQs' health between ``low`` and ``high`` (Moloch, Outpost)."""
    puzzle = notation.parse(f'puzzle "g"\nplayer moloch\noffer moloch:move\ngoal {goal}\n'
                            "c3 moloch:hq hp=3\nc1 outpost:hq hp=5\n")
    reach = Reach(dict(zip(("moloch", "outpost"), high)), dict(zip(("moloch", "outpost"), low)))
    assert possible(puzzle.goal, "moloch", {"moloch": 3, "outpost": 5}, reach) == expected


def test_ends_are_bounded_where_nothing_follows_the_turn():
    """NOTATION §6 ``then nothing``: no battle follows, so no unit deals anything and every deferred facing's share
    is nothing; the ends of a placement whose facing is deferred are still bounded, and the search equals --naive
    (a goal that may hold with nothing dealt, so that the states after the placement are not pruned)."""
    text = ('puzzle "nothing follows"\nplayer outpost\noffer outpost:commando outpost:brawler\nplay 1\n'
            "goal survive\nthen nothing\nc3 outpost:hq\na1 moloch:hq\n")
    puzzle = notation.parse(text)
    assert Enumerator(puzzle, free_facings=True).defer
    assert Solver(puzzle, jobs=1).solve().verdict == "cooked"
    assert_same_as_naive(puzzle)


DOOMSDAY_TURN = """puzzle "the Doomsday HQ turns the shooter"
player doomsday
offer doomsday:medic
play 1
goal destroy moloch
c5 doomsday:hq hp=5
e1 moloch:hq hp=1
c3 doomsday:alpha-shooter S
"""

SMART_MOVE = """puzzle "the Smart HQ moves the Ripper"
player smart
offer smart:officer
play 1
goal destroy moloch
c5 smart:hq hp=5
c2 moloch:hq hp=2
c4 smart:ripper S
"""

TAKEN_AND_TURNED = """puzzle "a taken Ripper turned on its own HQ"
player vegas
offer vegas:agitator
play 1
goal destroy moloch
e3 vegas:hq hp=5
c1 moloch:hq hp=2
c2 moloch:ripper S
"""

BANK_SHOT_FROM_HAND = """puzzle "a bank shot, the Fireblast alone in hand"
player doomsday
offer doomsday:fireblast
play 1
goal win
a3 doomsday:hq hp=1
e2 moloch:hq hp=2
c5 doomsday:delta-shooter N
d4 moloch:blocker N
b4 moloch:blocker N
d2 moloch:hybrid N
"""

CASTLED_TO_THE_HQ = """puzzle "a Monster castled next to the HQ"
player neojungle
offer neojungle:castling
play 1
goal destroy moloch
e3 neojungle:hq hp=5
c1 moloch:hq hp=1
c2 neojungle:medic S
c3 neojungle:monster N
"""

VENOM_ON_THE_HQ = """puzzle "two markers on the HQ"
player neojungle
offer neojungle:medic
play 1
goal destroy moloch
e3 neojungle:hq hp=5
c1 moloch:hq hp=2 venom=2
"""

VENOM_AT_EVERY_BATTLE = """puzzle "a marker wounds at every battle"
player neojungle
offer neojungle:battle
play 1
deck neojungle 5
goal destroy moloch
e3 neojungle:hq hp=5
c1 moloch:hq hp=2 venom=1
"""

TRAP_IN_HAND = """puzzle "a Trap beside the HQ"
player doomsday
offer doomsday:trap
play 1
goal destroy moloch
e3 doomsday:hq hp=5
c2 moloch:hq hp=1
"""


@pytest.mark.parametrize("text, key", [
    # ES Doomsday sheet, CG: "En su turno puede girar una unidad amiga en cualquier dirección" (in its turn it may
    # turn one friendly unit in any direction): the Alpha Shooter, turned to N, shoots NE at the HQ on e1.
    (DOOMSDAY_TURN, "move c3 c3 N by hq"),
    # PL SMART, Sztab: "każda sąsiadująca ze Sztabem własna jednostka może wykonać dodatkowy ruch i/lub obrót"
    # (each own unit next to the HQ may make an extra move and/or rotation): the Ripper steps to c3 facing N.
    (SMART_MOVE, "move c4 c3 N by hq"),
    # ES Doomsday sheet, Trap: "infringe 1 daño a cada unidad adyacente ... (incluyendo CGs)" (1 wound to every
    # adjacent unit, HQs included; RULINGS 53): the Moloch HQ's own blow on the marked side sets it off.
    (TRAP_IN_HAND, "place doomsday:trap c3 N"),
    # PL VEGAS, Agitator: the takeover "analogiczną jak cecha Sztabu" (as the HQ's), and Sztab: "w momencie
    # przejmowania gracz prowadzący armią Vegas może dowolnie obrócić przejmowaną właśnie jednostkę" (at the moment
    # of takeover Vegas may turn the unit being taken as it likes): the Moloch Ripper, taken and turned, strikes its
    # own HQ. Counted neither as Vegas's nor in any facing but its own, it would be pruned.
    (TAKEN_AND_TURNED, "move c2 c2 N by takeover"),
    # ES Doomsday sheet, Fireblast: "Cualquier disparo a distancia amigo que entre en esta unidad cambia de dirección
    # de ataque al salir" (any friendly ranged shot entering this unit changes direction on leaving; RULINGS 50): no
    # line of the Delta Shooter's meets the Moloch HQ, but the Fireblast placed on c4 turns its shot there. Before
    # it is placed, a redirector may still come onto a line (in hand): left out, the start would be pruned.
    (BANK_SHOT_FROM_HAND, "place doomsday:fireblast c4 NE"),
    # PL ROSZADA: "Dwie sąsiadujące ze sobą własne jednostki (także Sztab) mogą zamienić się miejscami, lecz nie
    # mogą się przy tym obrócić" (two adjacent own units, the HQ too, may swap places but not turn; B13 Castling):
    # the Monster, facing N, swaps with the Medic onto c2 and strikes the HQ. Counted as no move, it would be pruned.
    (CASTLED_TO_THE_HQ, "use neojungle:castling c2 c3"),
    # B13 DESCRIPTION OF NEW ICONS, Venom: "the poisoned unit receives one wound from the poison at the beginning of
    # each battle", HQs too: two markers on the Moloch HQ destroy it. Without the markers' wounds nothing could.
    (VENOM_ON_THE_HQ, ""),
    # The same book: "From now on the poisoned unit receives one wound from the poison at the beginning of each
    # battle": the one marker wounds the Moloch HQ at the Battle tile's battle and again at the Final Battle (3E
    # BATTLE: the Final Battle follows the last tile drawn; five are left). Counted at the first battle only, with
    # no Nightshade to bite again, the Battle tile would be pruned.
    (VENOM_AT_EVERY_BATTLE, "use neojungle:battle"),
], ids=["doomsday-hq-turn", "smart-hq-move", "trap-in-hand", "vegas-takeover", "redirector-in-hand", "castling",
        "venom-markers", "venom-at-every-battle"])
def test_a_family_that_declares_its_bound_keeps_the_play_that_needs_it(text, key):
    """Issue 27: each family that declares a bound (solver.engine.points.Ability.bound_frees, bound_blast) counts
    what it may still do: the only win here needs the family, and a bound that left it out would prune it."""
    puzzle = notation.parse(text)
    assert readable(puzzle)
    report = Solver(puzzle, jobs=1).solve()
    assert report.verdict != "none", report.solutions
    assert any(key in s.actions for s in report.solutions) if key else () in [s.actions for s in report.solutions]
    assert_same_as_naive(puzzle)


def test_a_family_without_a_bound_turns_pruning_off():
    """Issue 27: "A family that declares no bound turns pruning off for positions where it is present": card 24
    (Vegas's Mines, the Smart Transporter) is searched whole."""
    puzzle = notation.load(str(ROOT / "puzzles" / "24-minefield.nhex"))
    assert not readable(puzzle)
    report = Solver(puzzle, jobs=1).solve()
    assert report.pruned == 0 and report.ends_cut == 0


def test_a_shot_a_redirector_may_turn_is_counted_without_limit():
    """RULINGS 50 (a friendly shot entering a redirector through an entrance edge leaves by its exits) and 65 (a
    branch that loops wounds without end; the first official app, Doomsday, "Infinite Combo"): card 16's winning
    end has the Delta Shooter's shot on c5 meet the Fireblast on c4, which turns it onto the Moloch HQ. The bound
    counts a line meeting a redirector of the player's as dealing without limit, so that end is kept while ends
    with no shot towards a redirector or the HQ are cut."""
    puzzle = notation.load(str(ROOT / "puzzles" / "16-bank-shot.nhex"))
    assert readable(puzzle)
    report = Solver(puzzle, jobs=1).solve()
    assert report.verdict == "sound" and report.contains_intended
    assert report.pruned or report.ends_cut
    assert_same_as_naive(puzzle)


def test_an_unknown_instant_turns_pruning_off():
    """A Terror or a Small Bomb is no instant the bound knows: the card is searched whole."""
    text = ('puzzle "t"\nplayer smart\noffer smart:terror smart:ripper\nplay 1\ngoal win\n'
            "c5 smart:hq hp=4\nc1 moloch:hq hp=4\nc3 moloch:guard S\n")
    assert not readable(notation.parse(text))


@pytest.mark.parametrize("name, tries", [("01-point-blank", 3), ("02-long-shot", 3), ("10-about-face", 3),
                                         ("10-about-face", 40), ("12-clear-shot", 3), ("14-friendly-fire", 1)])
def test_the_tries_are_those_of_the_search_without_the_bound(name, tries):
    """The tries rank failing plays by margin (the generator rejects a card whose best try comes too close): a play
    the bound pruned has no margin, only a bound on it, so the solver searches again, pruning only plays that cannot
    rank, whenever one might. The tries are then those of the search that prunes nothing."""
    import time

    from solver.search import solve as search

    puzzle = notation.load(str(ROOT / "puzzles" / f"{name}.nhex"))
    pruned = Solver(puzzle, jobs=1, tries=tries).solve()
    whole, enumerator = Solver(puzzle, jobs=1, tries=tries)._search(time.perf_counter(), search._NO_PRUNING)
    assert not enumerator.pruned
    assert pruned.tries == whole.tries and pruned.verdict == whole.verdict


def test_the_tries_are_those_of_the_search_without_the_bound_on_generated_and_seeded_random_cards():
    """The same, where the bound cuts in each of the solver's searches: the first cuts nothing before a tile is
    played (the shortest failing plays rank first among equals); a play the bound cut ranks among the tries only
    with a margin bound above the weakest try's, or equal to it and no more action lines reaching it
    (solve._may_outrank); while one might, the solver searches again, cutting only plays with a margin bound below
    the weakest try's, or equal to it with more tiles played than a few lines. On every generated card, whose tries
    the generator reads, and on seeded random cards."""
    import time

    from solver.search import solve as search

    generated = [(path.stem, notation.load(str(path))) for path in BUNDLED if path.parent.name == "generated"]
    cards = generated + [(f"random {n}", p) for n, p in random_puzzles(RANDOM_CARDS, "tries-once")]
    once = floored = 0
    for name, puzzle in cards:
        try:
            Enumerator(puzzle).build(on_state=_at_most(3000))
        except _TooBig:
            continue
        solver = Solver(puzzle, jobs=1, tries=3)
        searches = []  # (floor, whether that search cut anything)
        original = solver._search

        def recorded(started, floor, original=original, searches=searches):
            report, enumerator = original(started, floor)
            searches.append((floor, bool(report.pruned or report.ends_cut)))
            return report, enumerator
        solver._search = recorded  # type: ignore[method-assign]
        pruned = solver.solve()
        whole, _ = Solver(puzzle, jobs=1, tries=3)._search(time.perf_counter(), search._NO_PRUNING)
        assert pruned.tries == whole.tries and pruned.verdict == whole.verdict, name
        once += len(searches) == 1 and searches[0][1]
        floored += any(isinstance(floor, tuple) and cut for floor, cut in searches)
    assert once > 0 and floored > 10, (once, floored)  # so the comparison tested both rules
