"""A game record replayed up to a turn: the board a picture draws (``nhex show``, ``nhex card`` of a record).

The checker (:mod:`solver.turns.game`) plays every turn; a picture wants the board after turn N, or after the last
turn that could be played when a later one is illegal, and says which.
"""

from __future__ import annotations

from dataclasses import dataclass

from ..errors import IllegalAction
from ..notation.cards import GameRecord, Turn
from . import game


@dataclass(frozen=True)
class Replayed:
    """The game after turn ``shown`` (0: before the first), and why the replay stopped short of the turn asked for
    (``fault``: the turn, its line and the rule it breaks), if it did."""

    state: game.GameState
    shown: int
    fault: str | None = None

    @property
    def title(self) -> str:
        return f"after turn {self.shown}" if self.shown else "before the first turn"


def last_turn(record: GameRecord) -> int:
    turns = [e.number for e in record.entries if isinstance(e, Turn)]
    return turns[-1] if turns else 0


def replay(record: GameRecord, upto: int | None = None) -> Replayed:
    """The record played up to turn ``upto`` (default: its last turn). An illegal or undecidable turn ends the
    replay: the board is the one before it, and ``fault`` names it. Raises ``ValueError`` when ``upto`` is no
    turn of the record, and whatever :func:`solver.turns.game.start` raises for a start it cannot play."""
    last = last_turn(record)
    if upto is not None and not 0 <= upto <= last:
        raise ValueError(f"--turn {upto}: the record has turns 1 to {last}" if last
                         else f"--turn {upto}: the record has no turns yet")
    upto = last if upto is None else upto
    state = game.start(record)
    shown = 0
    for entry in record.entries:
        if not isinstance(entry, Turn):
            continue
        if entry.number > upto:
            break
        try:
            state = game.play_turn(state, entry)
        except (IllegalAction, game.Undecidable) as error:
            return Replayed(state, shown, f"turn {entry.number} (line {entry.line}) cannot be played: {error}")
        shown = entry.number
    return Replayed(state, shown)
