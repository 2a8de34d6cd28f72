"""What a card says, in words a player reads: its goal, its armies' names, its neutral units.

The card's file writes a goal as an expression (NOTATION §6: ``destroy moloch``, ``damage hegemony == 0``); the
terminal picture and the printed card put the sentence beside it, so that a card read alone says what is asked.
"""

from __future__ import annotations

from ..notation.cards import Alive, And, Destroy, DrawOrWin, Goal, HpCompare, Not, Or, Puzzle, Survive, Win
from ..position import Position
from ..tiles import base_army

#: What follows the player's turn (NOTATION §6 ``then``), as the end of a goal's sentence.
THEN_WORDS = {"final-battle": "after the Final Battle", "battle": "after the battle",
              "nothing": "at the end of the turn"}

_COMPARE_HP = {">=": "at least {n} health", ">": "more than {n} health", "<=": "at most {n} health",
               "<": "less than {n} health", "==": "exactly {n} health"}
_COMPARE_DAMAGE = {">=": "at least {n}", ">": "more than {n}", "<=": "at most {n}", "<": "less than {n}",
                   "==": "exactly {n}"}


def army_title(name: str) -> str:
    """An army's name as the rulebooks print it ("New York", "Doomsday Machine"); a mirror match's labelled player
    keeps its label (``moloch/b`` → "Moloch (b)"); a name without data is title-cased."""
    from ..tiles import army

    base = base_army(name)
    try:
        title = army(base).title
    except (ValueError, KeyError):
        title = base.replace("-", " ").title()
    label = name[len(base) + 1:] if name != base else ""
    return f"{title} ({label})" if label else title


def _hq(army: str, player: str) -> str:
    return "your HQ" if army == player else f"the {army_title(army)} HQ"


def _clause(goal: Goal, player: str) -> str:
    """One goal as a clause without its ending (``then``), lower-case."""
    if isinstance(goal, Win):
        return "your HQ stands with more health than every enemy HQ (or is the only one standing)"
    if isinstance(goal, DrawOrWin):
        return "no enemy HQ has more health than yours (a draw or a win)"
    if isinstance(goal, Survive):
        return "your HQ is still standing"
    if isinstance(goal, Destroy):
        return f"destroy {_hq(goal.army, player)}"
    if isinstance(goal, HpCompare):
        if goal.damage:
            if goal.op == "==" and goal.value == 0:
                return f"{_hq(goal.army, player)} loses no health"
            n = _COMPARE_DAMAGE[goal.op].format(n=goal.value)
            return f"{_hq(goal.army, player)} loses {n} health this turn"
        if goal.op == "<=" and goal.value == 0:
            return f"{_hq(goal.army, player)} is destroyed"
        return f"{_hq(goal.army, player)} ends with {_COMPARE_HP[goal.op].format(n=goal.value)}"
    if isinstance(goal, Alive):
        return (f"the unit on {goal.hex.label} is still standing" if goal.alive
                else f"the unit on {goal.hex.label} is destroyed")
    if isinstance(goal, Not):
        return f"it is not so that {_clause(goal.goal, player)}"
    if isinstance(goal, And):
        parts = [_clause(g, player) for g in goal.goals]
        return ", ".join(parts[:-1]) + " and " + parts[-1] if len(parts) > 1 else parts[0]
    if isinstance(goal, Or):
        parts = [_clause(g, player) for g in goal.goals]
        return "either " + ", or ".join(parts) if len(parts) > 1 else parts[0]
    raise TypeError(f"not a goal: {goal!r}")


def goal_words(goal: Goal, player: str, then: str = "final-battle") -> str:
    """The goal as one sentence addressed to the player: ``destroy moloch`` → "Destroy the Moloch HQ, after the
    Final Battle."; ``damage hegemony == 0`` for Hegemony → "Your HQ loses no health, after the Final Battle."."""
    clause = _clause(goal, player)
    return f"{clause[0].upper()}{clause[1:]}, {THEN_WORDS[then]}."


def puzzle_goal_words(puzzle: Puzzle) -> str:
    """A card's goal in words (:func:`goal_words` with its player and what follows its turn)."""
    return goal_words(puzzle.goal, puzzle.player, puzzle.then)


def opponents_words(position: Position, player: str) -> str:
    """Who the player faces, by name: every other army with a unit on the board, then the neutral units by name
    ("Moloch · the Mad Bomber, neutral"); a neutral Mad Bomber is nobody's army (NOTATION §10.4), so it is not
    called "Mercenaries"."""
    armies = sorted({u.army for u in position.units if not u.is_neutral and u.army != player})
    neutral = sorted({u.tile.title for u in position.units if u.is_neutral})
    words = [army_title(a) for a in armies] + [f"the {t.removeprefix('The ')}, neutral" for t in neutral]
    return ", ".join(words)
