"""What the rule-by-rule battle tests share: a position from its notation, and its battle's outcomes."""

from __future__ import annotations

from solver.engine import battle
from solver.notation import text as notation
from solver.position import Position


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
