"""The solver's shortcuts (issue 15) against the rules they must not bend: the play identity of expansion tiles,
a just-placed unit spared its free move, one battle per effective end."""

from __future__ import annotations

import itertools

from dataclasses import replace
from pathlib import Path

import pytest

from battle_helpers import EVERY_NEW_RULE, position
from solver.notation import text as notation
from solver.hexes import Direction, Hex
from solver.position import Unit
from solver.search.solve import Solver, play_identity
from solver.tiles import tile

HERE = Path(__file__).parent


def _with(position, *units: Unit):
    return replace(position, units=position.units + units)


def test_a_fireblast_turned_to_take_a_friendly_shot_is_another_play_than_one_turned_away():
    """RULINGS 50 (ES Fireblast: "Cualquier disparo a distancia amigo que entre en esta unidad cambia de dirección
    de ataque al salir", any friendly ranged shot entering this unit changes direction on leaving): the Delta
    Shooter's shot at the friendly Fireblast matters although no enemy stands on that line, and the Fireblast's
    entrance and exit edges matter whatever their lines hold. Card 16's key (NE) and a Fireblast facing N must not
    be one play, nor be played out as one."""
    puzzle = notation.load(str(HERE.parent / "puzzles" / "16-bank-shot.nhex"))
    fireblast = tile("doomsday:fireblast")
    key = _with(puzzle.position, Unit(Hex.parse("c4"), fireblast, Direction.NE))
    away = _with(puzzle.position, Unit(Hex.parse("c4"), fireblast, Direction.N))
    assert play_identity(key) != play_identity(away)


def test_a_quartermasters_melee_edge_towards_a_distant_enemy_is_not_blank():
    """Hegemony Quartermaster (PL Kwatermistrz: one linked unit may turn one attack from melee to ranged): a melee
    edge facing an enemy two hexes away may shoot, so turning it away is another play."""
    from solver.search.solve import effective_key

    text = "c5 hegemony:hq hp=5\nc1 moloch:hq hp=5\nc3 hegemony:runner {facing}\n"
    keys = {}
    for module in ("c4 hegemony:quartermaster N\n", ""):
        for facing in ("N", "S"):
            keys[bool(module), facing] = effective_key(notation.parse(text.format(facing=facing) + module))
    # the Runner's one melee edge faces the Moloch HQ two hexes north (N) or its own HQ (S)
    assert keys[True, "N"] != keys[True, "S"]
    assert keys[False, "N"] == keys[False, "S"]  # without a Quartermaster the blow reaches nothing either way


SPARED = '''
puzzle "spared"
player hegemony
offer hegemony:runner hegemony:ganger
play 1
goal {goal}
c5 hegemony:hq hp=2
c1 moloch:hq hp=1
a3 moloch:guard S
e3 moloch:blocker S
'''


@pytest.mark.parametrize("goal", ["win", "alive c3"])
def test_a_runner_placed_and_moved_at_once_gives_the_same_plays_as_the_naive_search(goal):
    """3E MOBILITY: a unit may move in the turn it is placed. The default search does not list that move right
    after the placement (placing it there directly is the same play); the naive search does. Both must find
    the same plays, also when the goal watches the hex the unit is placed on (moving carries the watch)."""
    puzzle = notation.parse(SPARED.format(goal=goal))
    fast = Solver(puzzle, jobs=1).solve()
    naive = Solver(puzzle, jobs=1, naive=True).solve()
    assert fast.verdict == naive.verdict == "cooked"  # solutions to compare (play 2 gave 250 of them, in 100 s)
    assert sorted(s.actions for s in fast.solutions) == sorted(s.actions for s in naive.solutions)
    assert fast.plays < naive.plays


MOVERS = '''
puzzle "movers"
rules 3.0 recon-center-moves={recon}
player outpost
offer outpost:move outpost:runner outpost:recon-center
play 2
goal alive b4
c5 outpost:hq hp=5
c1 moloch:hq hp=5
b4 outpost:mobile-armor N
d4 outpost:runner N
d3 moloch:net-fighter S
a2 moloch:guard S
'''


def _walk(enumerator, walks: int):
    """States of the turn met on ``walks`` random walks from its start (seeded): a sample of every stage of the
    turn, the tiles played in any order, in a graph too big to build in a test."""
    import random

    chooser = random.Random(15)
    for _ in range(walks):
        state = enumerator.start()
        while not state.over:
            yield state
            steps = enumerator.steps(state)
            if not steps:
                break
            state = chooser.choice(chooser.choice(steps).branches)[1]


ENEMY_TRANSPORT = '''
puzzle "enemy transport"
player outpost
offer outpost:move outpost:runner outpost:recon-center
play 2
goal alive b4
c5 outpost:hq hp=5
c1 hegemony:hq hp=5
b4 outpost:mobile-armor N
d4 outpost:runner N
d3 hegemony:net-fighter S
b3 hegemony:transport S
a2 hegemony:guard S
'''


@pytest.mark.parametrize("text", [MOVERS.format(recon="all"), MOVERS.format(recon="move-tile"),
                                  (HERE.parent / "bench" / "scale-play2.nhex").read_text(), ENEMY_TRANSPORT],
                         ids=["recon-all", "recon-move-tile", "scale-play2", "enemy-transport"])
def test_mobility_and_the_move_tile_listed_on_a_plain_board_are_what_the_turn_rules_list(text):
    """The Mobility moves and the Move tile's uses that the search lists by itself on a plain board (Enumerator.
    plain_moves) must be the very steps the turn rules give, in the same order: the Runner on d4 is netted by the
    Net Fighter (3E NET: it 'cannot ... move'), a Recon Center placed makes moves 2 hexes (ES/PL Recon Center:
    every move, or only the Move tile's under option recon-center-moves=move-tile), the Mobile Armor's spent
    Mobility follows it when the Move tile moves it (3E MOBILITY: once a turn), and the goal watches it. An enemy's
    Transport next to the player's units changes none of their moves (it grants moves to its own side: 3E MODULES,
    PL HEGEMONIA Transport)."""
    from solver.search.solve import Enumerator

    puzzle = notation.parse(text)
    fast, rules = Enumerator(puzzle), Enumerator(puzzle)
    rules.plain = False
    assert fast.plain
    assert _same_moves(fast, rules, 150) > 1000


def _same_moves(fast, rules, walks: int, placements: bool = False) -> int:
    """Assert that two enumerators list the same free moves and instants (or with ``placements``, the same placement
    runs), in the same order, on every state of ``walks`` random walks of ``fast``; how many steps were compared."""
    compared = 0
    for state in _walk(fast, walks):
        if placements:
            mine, theirs = fast.placement_runs(state)[0], rules.placement_runs(state)[0]
        else:
            mine = fast.free_moves(state) + fast.instants(state)
            theirs = rules.free_moves(state) + rules.instants(state)
        assert [(s.action, s.branches) for s in mine] == [(s.action, s.branches) for s in theirs]
        compared += len(mine)
    return compared


SMART_HQ_MOVES = """puzzle "Smart HQ moves"
player smart
offer smart:move smart:cyborg smart:scout
play 2
goal win
c3 smart:hq hp=5
c1 moloch:hq hp=5
b3 smart:ripper N
d3 smart:cyborg NE
c4 smart:net-fighter S
b2 moloch:guard S
d2 moloch:hybrid S
"""


@pytest.mark.parametrize("text", [(HERE.parent / "puzzles" / "16-bank-shot.nhex").read_text(),
                                  (HERE.parent / "puzzles" / "19-over-the-top.nhex").read_text(),
                                  (HERE.parent / "puzzles" / "generated" /
                                   "doomsday-vs-moloch-level4-71-0-1.nhex").read_text(),
                                  SMART_HQ_MOVES,
                                  (HERE.parent / "puzzles" / "generated" /
                                   "smart-vs-hegemony-level3-43-0-0.nhex").read_text()],
                         ids=["card-16", "card-19", "doomsday-level4", "smart-hq", "smart-hq-enemy-transport"])
def test_the_moves_of_an_hq_family_listed_by_the_family_are_what_the_turn_rules_list(text):
    """On a plain board whose only ability families are HQs' moves (the Doomsday HQ's rotation, ES Doomsday CG and
    RULINGS 55; the Smart HQ's move, RULINGS 21), the search lists Mobility moves and placements as on a plain board
    and asks the families for their own moves instead of listing the whole turn (Enumerator.plain_families): the
    very steps the turn rules give, in the same order."""
    from solver.search.solve import Enumerator

    puzzle = notation.parse(text)
    fast, rules = Enumerator(puzzle), Enumerator(puzzle)
    rules.plain_families = False
    assert fast.plain_families and not fast.plain
    assert _same_moves(fast, rules, 60) > 300
    assert _same_moves(fast, rules, 4, placements=True) > 300


# --- a search cut short by --max-time (issue 15: "report what it proved") -----------------------------------------


def _cut_after(monkeypatch, states: int) -> None:
    """The enumeration runs out of time once ``states`` states are expanded: --max-time without the clock."""
    from solver.search import solve as search

    def check_time(self) -> None:
        if self.graph is not None and len(self.graph.steps) >= states:
            raise search._OutOfTime

    monkeypatch.setattr(search.Enumerator, "_check_time", check_time)


@pytest.mark.parametrize("states", [1, 40, 150, 400])  # the whole search expands 422 (the bound cuts the rest)
def test_a_search_stopped_while_listing_plays_reports_only_plays_the_whole_search_finds(monkeypatch, states):
    """Ends are played out as they are listed, so a search stopped by --max-time during the enumeration still
    reports winning plays: each must be one the complete search finds (its end set and its line), never more."""
    puzzle = notation.load(str(HERE / "data" / "notation-crossfire.nhex"))
    complete = Solver(puzzle, jobs=1).solve()
    whole = {frozenset(play_identity(p) for p in s.ends): s for s in complete.solutions}
    _cut_after(monkeypatch, states)
    cut = Solver(puzzle, jobs=1, max_time=3600).solve()
    assert cut.stopped is not None and "while enumerating plays" in cut.stopped
    assert cut.plays - cut.pruned == states  # the states expanded; the bound cut the others it reached
    for solution in cut.solutions:
        ends = frozenset(play_identity(p) for p in solution.ends)
        assert ends in whole and solution.verdict.wins
    if states >= 150:
        assert len(cut.solutions) >= 2, "the plays listed first include winning ones"


def test_a_stopped_search_with_two_winning_plays_says_the_card_is_cooked(monkeypatch, capsys):
    """Two plays proven to win make a card cooked whatever the rest of the search would find: the report says so,
    and still claims no verdict (exit 3; JSON verdict null, the plays under `found`)."""
    import json

    from solver.cli import main

    _cut_after(monkeypatch, 150)
    path = str(HERE / "data" / "notation-crossfire.nhex")
    assert main(["solve", "--jobs", "1", "--max-time", "3600", "--brief", path]) == 3
    out = capsys.readouterr().out
    assert "STOPPED" in out and "not proven complete" in out and "so the card is cooked" in out
    assert main(["solve", "--jobs", "1", "--max-time", "3600", "--json", path]) == 3
    data = json.loads(capsys.readouterr().out)
    assert data["verdict"] is None and data["solutions"] == [] and len(data["found"]) >= 2


# --- the tries: each end's least line, walked a step at a time -----------------------------------------------------


def _tries_by_every_order(solver, graph, value):
    """The strongest failing plays as the first solver found them: every line of up to 7 steps walked on its own.
    ``value``: each state's ends, with the facings open to its deferred units (the placeholder facings of a line are
    written as the least open facing, or the least of all where the unit moved on)."""
    from solver.search.enumeration import ANY_FACING, least_facing
    from solver.search.solve import Try

    seen = {}

    def written(line, pending, open_):
        facings = dict(open_)
        texts = list(line)
        for index, hex_ in pending:
            texts[index] = texts[index].rsplit(" ", 1)[0] + " " + least_facing(facings.get(hex_, ANY_FACING)).name
        return tuple(texts)

    def record(line, ends):
        label, _, worst = min(ends, key=lambda item: (item[2].wins, item[2].margin))
        key = frozenset(position for _, position, _ in ends)
        if worst.wins:
            return
        if key in seen and (len(seen[key].actions), seen[key].actions) <= (len(line), line):
            return
        refutation = ((label,) if label else ()) + worst.line
        seen[key] = Try(line, replace(worst, line=refutation), dict(worst.hp),
                        next(position for lab, position, _ in ends if lab == label))

    def walk(state, line, pending, depth):
        for position, open_, verdict in value.get(state, ()):
            record(written(line, pending, open_), [("", position, verdict)])
        if depth > 6:
            return
        for step in graph.steps.get(state, ()):
            if len(step.branches) == 1:
                nxt = step.branches[0][1]
                moved_on = [(i, h) for i, h in pending if h not in nxt.free or h in step.fill]
                kept = [(i, h) for i, h in pending if h in nxt.free and h not in step.fill]
                new = [(len(line) + j, h) for j, h in enumerate(step.fill) if h is not None]
                walk(nxt, written(line + step.action, moved_on, ()), tuple(kept + new), depth + 1)
                continue
            per_branch = [[(label, p, o, v) for p, o, v in value.get(nxt, ())] for label, nxt in step.branches]
            if not all(per_branch):
                continue
            for chosen in itertools.product(*per_branch):
                facings = {}
                for (_, nxt), (_, _, open_, _) in zip(step.branches, chosen):
                    for hex_, allowed in open_:
                        if hex_ in state.free:
                            facings[hex_] = facings.get(hex_, ANY_FACING) & allowed
                if all(facings.values()):
                    record(written(line, pending, tuple(facings.items())) + step.action,
                           [(label, p, v) for label, p, _, v in chosen])

    walk(graph.root, (), (), 0)
    ranked = sorted(seen.values(), key=lambda t: (-t.verdict.margin, len(t.actions), t.actions))
    return ranked[:solver.tries]


@pytest.mark.parametrize("name", ["12-clear-shot", "20-change-of-heart", "29-through-the-crowd", "05-scout-ahead"])
def test_the_tries_are_those_of_walking_every_order(monkeypatch, name):
    """find_tries keeps each state's least line per number of steps instead of walking every order (a big card has
    hundreds of thousands): the tries, their lines and refutations must be the same as the walk of every order."""
    from solver.search import solve as search

    captured = {}
    original = search.Solver.find_tries

    def spy(self, graph, value, winning):
        captured["reference"] = _tries_by_every_order(self, graph, value)
        return original(self, graph, value, winning)

    monkeypatch.setattr(search.Solver, "find_tries", spy)
    report = Solver(notation.load(str(HERE.parent / "puzzles" / f"{name}.nhex")), jobs=1, tries=50).solve()
    assert report.tries == captured["reference"] and report.tries


# --- no reference cycles left behind ---------------------------------------------------------------------------------


def test_a_solve_leaves_no_reference_cycles_to_the_collector():
    """The search pauses Python's cycle collector (enumeration._without_cyclic_gc) and leaves what it made in the
    collector's oldest generation, whose full passes are rare: a reference cycle made by a solve (a closure that
    calls itself, holding its tables) stayed in memory long after the solve, and a process solving card after card
    (`nhex solve-all`'s workers, the generator) grew by megabytes a card. Deferred facings (a generated card),
    Medics' choices (card 14's Air Strike), nets (cards 03, 18) and a Rocket Launcher's paths are each read here
    twice: the second time, nothing is left for the collector."""
    import gc

    from solver.engine import battle

    cards = [HERE.parent / "puzzles" / name for name in ("03-net-drop.nhex", "14-friendly-fire.nhex",
                                                         "18-one-shot-two-nets.nhex")]
    cards += sorted((HERE.parent / "puzzles" / "generated").glob("moloch-vs-borgo-level3-*.nhex"))
    rockets = position(EVERY_NEW_RULE)  # a Rocket Launcher whose owner chooses its path

    def work() -> None:
        for path in cards:
            Solver(notation.load(str(path)), jobs=1, tries=1).solve()
        battle.resolve(rockets)

    work()  # the first reading builds parsers and caches, once per process
    gc.collect()
    was = gc.isenabled()
    gc.disable()
    try:
        work()
        assert gc.collect() == 0
    finally:
        if was:
            gc.enable()


@pytest.mark.parametrize("tries", [False, True])
def test_states_that_stop_in_the_same_ends_share_them_and_each_counts_the_ends_cut(tries):
    """The ends of stopping are made once per position, deferred units, battles done and bound (issue 27:
    `Enumerator.completions`; bench/scale-play3 lists 232,024 states and stops in some 70,000 lists of ends), and
    where the tries' later searches cut by the tiles played (``may_cut``), by those too: each state gets the ends it
    would get alone, and the ends the bound cut count for every state that stops so."""
    from solver.search.enumeration import Enumerator

    def may_cut(played, ahead):
        return played > 0

    puzzle = notation.load(str(HERE.parent / "puzzles" / "10-about-face.nhex"))  # a Move tile: orders meet
    shared = Enumerator(puzzle, bound=True, free_facings=True)
    shared.may_cut = may_cut if tries else None
    graph = shared.build()
    remembered = {state: shared.completions(state, bounded=True) for state in graph.steps}
    table = shared._cut_completions if tries else shared.memo.completions
    assert len(table) < len(graph.steps)  # (101 states, 68 lists of ends)
    alone = Enumerator(puzzle, bound=True, free_facings=True)
    alone.may_cut = shared.may_cut
    for state in graph.steps:
        alone.memo.completions.clear()
        alone._cut_completions.clear()
        assert alone.completions(state, bounded=True) == remembered[state]
    assert alone.ends_cut == shared.ends_cut > 0
    assert alone.ends_cut_at == shared.ends_cut_at


def test_steps_the_bound_proves_hopeless_are_not_made_and_a_search_that_may_not_cut_them_makes_them():
    """Issue 27 (ratios to --naive): on the Neojungle's level-3 card most placement runs, and many uses of the
    Castling as the last tile, lead to states the bound prunes at once; they are cut before their states are made
    (`HqBound.placements`, `HqBound.last_use`), counted in the report, and the graph keeps only the other states.
    The tries' later searches share the listing but may cut less (``may_cut``), or nothing at all: one that may cut
    none of them lists those cores again, and its graph is the whole one."""
    from solver.search.enumeration import Enumerator

    puzzle = notation.load(str(HERE.parent / "puzzles" / "generated" / "neojungle-vs-hegemony-level3-c4-0-0.nhex"))
    first = Enumerator(puzzle, bound=True, free_facings=True)
    assert first.bound_runs
    kept = first.build()
    assert first.runs_cut > 3000 and first.uses_cut > 200 and len(kept.steps) + len(first.pruned) < 500
    later = Enumerator(puzzle, bound=True, free_facings=True)
    later.share_listing(first)
    later.may_cut = lambda played, ahead: False
    whole = later.build()
    assert later.runs_cut == later.uses_cut == 0 and not later.pruned
    alone = Enumerator(puzzle, free_facings=True).build()  # no bound at all
    assert set(whole.steps) == set(alone.steps) and len(alone.steps) > 4000
    again = Enumerator(puzzle, bound=True, free_facings=True)  # (the later search above relisted first's cores)
    again.build()
    unbounded = Enumerator(puzzle, free_facings=True)  # the tries' last resort: a search that prunes nothing
    unbounded.share_listing(again)
    assert set(unbounded.build().steps) == set(alone.steps)
    report = Solver(puzzle, jobs=1).solve()
    assert (report.runs_cut, report.uses_cut) == (first.runs_cut, first.uses_cut) and report.verdict == "sound"


def test_a_listed_graph_keeps_one_object_per_distinct_position_set_action_and_identity():
    """Issue 27 (memory: bench/scale-play3 under 1 GB): the states of the graph share their equal positions and
    sets, the steps their equal action texts, and an end's play identity (an object with its hash) is equal to the
    plain tuple it stands for and hashes alike, so that the tables that compare them find each other."""
    from solver.search.enumeration import Enumerator, Identity

    puzzle = notation.load(str(HERE.parent / "puzzles" / "10-about-face.nhex"))  # a Move tile: orders meet
    enumerator = Enumerator(puzzle, bound=True, free_facings=True)
    graph = enumerator.build()
    states = set(graph.steps) | {nxt for steps in graph.steps.values() for step in steps for _, nxt in step.branches}
    positions: dict = {}
    sets: dict = {}
    for state in states:
        assert positions.setdefault(state.position, state.position) is state.position
        for value in (state.used, state.placed, state.free, state.turnable):
            assert sets.setdefault(value, value) is value
    assert len(positions) < len(states)  # (a position reached with different tiles left is one object)
    texts: dict = {}
    for step in (step for steps in graph.steps.values() for step in steps):
        assert texts.setdefault(step.action, step.action) is step.action
    end = next(iter(states)).position
    plain = play_identity(end)
    assert Identity(plain) == plain and hash(Identity(plain)) == hash(plain)
    assert Identity(plain) == Identity(plain) and Identity(plain) != Identity((plain[0], "nobody"))
