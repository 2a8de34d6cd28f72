"""The solver's shortcuts (issue 15) against the rules they must not bend: the play identity of expansion tiles,
a just-placed unit spared its free move, one battle per effective end."""

from __future__ import annotations

from dataclasses import replace
from pathlib import Path

import pytest

from solver import notation
from solver.hexes import Direction, Hex
from solver.position import Unit
from solver.search import Solver, play_identity
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
    from solver.search import effective_key

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
