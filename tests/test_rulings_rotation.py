"""The rotation property over positions using each reading of issue 24 (RULINGS 65-71, the New York HQ netted in
a battle, control in the turn rules): rotating a whole position by 60° rotates every battle outcome and every
legal action's result, and changes nothing else (GUIDE: property tests; the positions are those the rulings' own
tests use, in tests/test_doomsday.py, test_battle.py, test_multiplayer.py, test_new_york.py, test_terrain_turn.py,
where each test cites its ruling and source: imported from there where they stand as a constant)."""

from __future__ import annotations

import pytest

from solver.engine import battle
from solver.notation.text import parse_position
from solver.position import Position
from solver.turns import actions
from test_battle import CLOWN_NEAR_FOUNDATIONS
from test_doomsday import ENDLESS_LOOP, TURNED_NE
from test_multiplayer import MOLOCH_IN_THE_WAY
from test_new_york import MEDIC_BESIDE_THE_HQ, NETTED_MID_BATTLE

BATTLES = {
    # RULINGS 65: a branch back in a redirector on its own path loops without end (and 51's reading, an option)
    "65 endless loop": ENDLESS_LOOP,
    "65 endless loop and a Medic": """
        c5 doomsday:delta-shooter N
        c4 doomsday:fireblast N
        c3 doomsday:tripler N
        d2 doomsday:doom-net-fighter S
        d3 doomsday:fireblast SW
        c1 moloch:blocker S
        a3 moloch:hq
        b1 moloch:medic NE
    """,
    "51 loop stops (redirect-loop=stop)": """
        rules 3.0 redirect-loop=stop
        c5 doomsday:delta-shooter N
        c4 doomsday:fireblast N
        c3 doomsday:tripler N
        d2 doomsday:doom-net-fighter S
        d3 doomsday:fireblast SW
        c1 moloch:blocker S
        a1 moloch:hq
    """,
    "65 exit edge, no loop": """
        c5 doomsday:delta-shooter N
        c3 doomsday:tripler N
        c2 doomsday:fireblast NE
        d1 doomsday:doom-net-fighter S
        d2 doomsday:fireblast SW
        b3 moloch:blocker N
        a1 moloch:hq
    """,
    # RULINGS 66: a long-distance module over an empty hex
    "66 long link over an empty hex": """
        c4 doomsday:officer N
        c2 doomsday:delta-shooter N
        c1 moloch:blocker N
        e3 doomsday:main-war-processor N
        e1 doomsday:omega-shooter N
    """,
    # RULINGS 67: armor and the rocket
    "67 rocket and armor": """
        c4 new-york:rocket-launcher N
        c3 neojungle:wall-of-trees S
    """,
    # RULINGS 68: the Clown's blast destroys foundations
    "68 Clown and foundations": CLOWN_NEAR_FOUNDATIONS,
    # RULINGS 70: a teammate's shot turned; a Scoper beside a redirector
    "70 teammate's shot turned": "team doomsday outpost\nteam moloch borgo\nc1 borgo:hq\n" + TURNED_NE,
    "70 Scoper beside a redirector": """
        c5 outpost:hmg N
        c4 doomsday:fireblast NE
        b4 outpost:scoper N
        e2 moloch:blocker S
        a1 outpost:hq
        b1 doomsday:hq
    """,
    # RULINGS 71: Moloch's team fire, one way and both ways
    "71 one way": MOLOCH_IN_THE_WAY + "c3 moloch:hybrid S\n",
    "71 both ways (moloch-team-fire=yes)": "rules 3.0 moloch-team-fire=yes\n" + MOLOCH_IN_THE_WAY,
    # the New York HQ netted in the middle of a battle; a Medic hit beside it (ny-medic-direct-hit)
    "New York HQ netted mid-battle": NETTED_MID_BATTLE,
    "ny-medic-direct-hit=any-wound": "rules 3.0 ny-medic-direct-hit=any-wound\n" + MEDIC_BESIDE_THE_HQ,
}


def _ends(position: Position) -> set:
    return {(o.position, tuple(sorted(o.hq.items())), o.reports) for o in battle.resolve(position)}


@pytest.mark.parametrize("name", sorted(BATTLES))
@pytest.mark.parametrize("steps", range(1, 6))
def test_rotating_a_rulings_position_rotates_every_battle_outcome(name: str, steps: int) -> None:
    position = parse_position(BATTLES[name])
    expected = {(p.rotated(steps), hq, reports) for p, hq, reports in _ends(position)}
    assert _ends(position.rotated(steps)) == expected


TURNS = {
    # control: the Doomsday HQ's rotation asks the controller (PL VEGAS, Sztab; ES Doomsday sheet, CG)
    "Doomsday HQ and a taken unit": """
        to-move doomsday
        e3 doomsday:hq
        c3 vegas:agitator N
        c2 doomsday:delta-shooter N
        d2 doomsday:gamma-shooter N
        a3 vegas:hq N
    """,
    # control: a Tight Bunker held through a taken unit (B13 BUNKER, TIGHT)
    "Tight Bunker held for Vegas": """
        to-move vegas
        terrain bunker tight c1 c2
        e1 vegas:hq N
        a3 moloch:hq
        c3 vegas:agitator N
        c2 moloch:blocker N
        hand vegas vegas:agitator
    """,
}


@pytest.mark.parametrize("name", sorted(TURNS))
@pytest.mark.parametrize("steps", range(1, 6))
def test_rotating_a_rulings_position_rotates_the_results_of_the_legal_actions(name: str, steps: int) -> None:
    position = parse_position(TURNS[name])
    side = position.to_move
    assert side is not None

    def results(where: Position) -> set:
        return {after for action in actions.legal_actions(where, side)
                for _, after in actions.results(where, action, side)}

    assert results(position.rotated(steps)) == {p.rotated(steps) for p in results(position)}
