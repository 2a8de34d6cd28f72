"""Puzzle cards and game records (NOTATION §6-7): a position plus what the card or the record says.

Goals are a small expression tree; :mod:`solver.search.solve` decides whether one holds.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from ..expansion import Location
from ..hexes import Hex
from ..position import Action, Position
from ..tiles import Tile

COMPARISONS = (">=", ">", "<=", "<", "==")
THEN = ("final-battle", "battle", "nothing")


# --- goals ----------------------------------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class Win:
    """The player's HQ stands with more health than every enemy HQ, or every enemy HQ is destroyed."""

    def __str__(self) -> str:
        return "win"


@dataclass(frozen=True, slots=True)
class DrawOrWin:
    def __str__(self) -> str:
        return "draw-or-win"


@dataclass(frozen=True, slots=True)
class Survive:
    def __str__(self) -> str:
        return "survive"


@dataclass(frozen=True, slots=True)
class Destroy:
    army: str

    def __str__(self) -> str:
        return f"destroy {self.army}"


@dataclass(frozen=True, slots=True)
class HpCompare:
    """``hp ARMY OP N`` (health after) or, with ``damage=True``, ``damage ARMY OP N`` (lost this turn)."""

    army: str
    op: str
    value: int
    damage: bool = False

    def __str__(self) -> str:
        return f"{'damage' if self.damage else 'hp'} {self.army} {self.op} {self.value}"


@dataclass(frozen=True, slots=True)
class Alive:
    hex: Hex
    alive: bool = True

    def __str__(self) -> str:
        return f"{'alive' if self.alive else 'dead'} {self.hex.label}"


@dataclass(frozen=True, slots=True)
class Not:
    goal: Goal

    def __str__(self) -> str:
        inner = str(self.goal)
        return f"not ({inner})" if isinstance(self.goal, (And, Or)) else f"not {inner}"


@dataclass(frozen=True, slots=True)
class And:
    goals: tuple[Goal, ...]

    def __str__(self) -> str:
        # An inner `and` keeps its parentheses too, so that the value reads back with the same grouping.
        return " and ".join(f"({g})" if isinstance(g, (And, Or)) else str(g) for g in self.goals)


@dataclass(frozen=True, slots=True)
class Or:
    goals: tuple[Goal, ...]

    def __str__(self) -> str:
        return " or ".join(f"({g})" if isinstance(g, Or) else str(g) for g in self.goals)


Goal = Win | DrawOrWin | Survive | Destroy | HpCompare | Alive | Not | And | Or


# --- documents ------------------------------------------------------------------------------------------------


@dataclass(frozen=True)
class Puzzle:
    """A puzzle card: the position, the offered tiles, how many may be played, the goal and what follows."""

    position: Position
    title: str
    player: str
    offer: tuple[Tile, ...]
    number: int | None = None
    level: int | None = None
    story: str | None = None
    play: int | None = None
    goal: Goal = Win()
    then: str = "final-battle"
    solution: tuple[Action, ...] | None = None
    explanation: str | None = None

    @property
    def tiles_to_play(self) -> int:
        """``play N``, by default all offered tiles but one (NOTATION §6)."""
        return self.play if self.play is not None else max(len(self.offer) - 1, 0)


@dataclass(frozen=True, slots=True)
class Turn:
    number: int
    army: str
    actions: tuple[Action, ...]
    line: int = field(default=0, compare=False)


@dataclass(frozen=True, slots=True)
class ExpectHp:
    army: str
    hp: int
    line: int = field(default=0, compare=False)

    def __str__(self) -> str:
        return f"expect hp {self.army} {self.hp}"


@dataclass(frozen=True, slots=True)
class ExpectWinner:
    """``expect winner ARMY …`` (NOTATION §10.7): the game is over here and these armies won (sorted)."""

    armies: tuple[str, ...]
    line: int = field(default=0, compare=False)
    where: Location | None = field(default=None, compare=False)

    def __post_init__(self) -> None:
        object.__setattr__(self, "armies", tuple(sorted(set(self.armies))))

    def __str__(self) -> str:
        return " ".join(["expect winner", *self.armies])


@dataclass(frozen=True, slots=True)
class ExpectDraw:
    """``expect draw`` (NOTATION §10.7): the game is over here and nobody won."""

    line: int = field(default=0, compare=False)
    where: Location | None = field(default=None, compare=False)

    def __str__(self) -> str:
        return "expect draw"


@dataclass(frozen=True, slots=True)
class ExpectScore:
    """``expect score ARMY N`` (NOTATION §10.7): the army's points here, in ``score`` mode."""

    army: str
    score: int
    line: int = field(default=0, compare=False)
    where: Location | None = field(default=None, compare=False)

    def __str__(self) -> str:
        return f"expect score {self.army} {self.score}"


Expectation = ExpectHp | ExpectWinner | ExpectDraw | ExpectScore


@dataclass(frozen=True)
class GameRecord:
    """A whole game: the turn order, the start position (normally an empty board) and every turn.

    ``players`` may name one army twice: the Loner of 1 vs a team (NOTATION §10.5).
    """

    players: tuple[str, ...]
    position: Position
    entries: tuple[Turn | Expectation, ...] = ()
