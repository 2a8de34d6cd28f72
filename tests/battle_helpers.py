"""What the rule-by-rule battle tests share: a position from its notation, and its battle's outcomes."""

from __future__ import annotations

from solver.engine import battle
from solver.notation import text as notation
from solver.position import Position


#: A Neojungle and New York position with every rule those armies brought (issue 12): venom, roots, a Medic, a
#: Sharpshooter, a Shotgun, a Spy, a Pusher and a Rocket Launcher whose owner chooses its path.
EVERY_NEW_RULE = """
    c3 neojungle:hq hp=12
    c2 neojungle:nightshade S venom=1
    b3 neojungle:symbiont-gamma NE
    d3 neojungle:medic NW
    b4 neojungle:roots N
    e3 new-york:hq hp=10
    e2 new-york:sharpshooter NW wounds=1
    d4 new-york:shotgun NW
    d2 new-york:spy-shooter SW
    e1 new-york:rocket-launcher SW
    a3 new-york:pusher NE
"""


def position(text: str) -> Position:
    return notation.parse_position(text)


def outcomes(text: str) -> tuple[battle.Outcome, ...]:
    """Every distinct end of the battle, traced (each player choice gives its own outcome)."""
    return battle.resolve(position(text), trace=True)


def fight(text: str) -> battle.Outcome:
    """The one outcome of a battle in which nobody has a choice."""
    found = outcomes(text)
    assert len(found) == 1, [o.choices for o in found]
    return found[0]


def units(outcome: battle.Outcome) -> dict[str, str]:
    """The units left after the battle, as notation by hex label."""
    return {u.hex.label: str(u) for u in outcome.position.units}
