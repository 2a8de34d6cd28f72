"""nhex: the rules engine and puzzle solver of Neuroshima Hex!, as a Python library.

The few names a program needs, independent of the package's folders (docs/API.md)::

    import solver

    card = solver.read("puzzles/01-first-blood.nhex")     # a Position, Puzzle or GameRecord
    report = solver.solve(card)                            # the verdict, every winning play, the tries
    ends = solver.battle(card.position)                    # every distinct end of the battle
    print(solver.write(ends[0].position))                  # the canonical notation

Each function imports its layer when first called, so ``import solver`` costs a command's start nothing.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, Callable

from .errors import IllegalAction, NotationError, RuleNotImplemented

if TYPE_CHECKING:
    from .engine.battle import Outcome
    from .notation.cards import GameRecord, Puzzle
    from .notation.text import Document
    from .position import Action, Position
    from .search.generate import Generated
    from .search.solve import Report
    from .turns.game import CheckReport

__all__ = ["read", "parse", "write", "battle", "moves", "apply", "check", "solve", "generate",
           "NotationError", "IllegalAction", "RuleNotImplemented"]


def read(path: str) -> Document:
    """The position, puzzle card or game record in a file (``"-"``: standard input). A mistake raises
    :class:`NotationError` located as ``FILE:LINE:COLUMN``."""
    from .notation.text import parse as parse_text, read_source

    text, source = read_source(path)
    return parse_text(text, source)


def parse(text: str, source: str = "<input>") -> Document:
    """The position, puzzle card or game record written in ``text``; errors are located in ``source``."""
    from .notation.text import parse as parse_text

    return parse_text(text, source)


def write(document: Document) -> str:
    """The canonical notation of a position, card or record: ``parse(write(d)) == d``."""
    from .notation.text import write as write_text

    return write_text(document)


def battle(position: Position, *, trace: bool = False) -> tuple[Outcome, ...]:
    """Every distinct end of a battle fought on ``position`` (one when no player has a choice), each with the
    choices that lead to it, its position, and with ``trace=True`` the events phase by phase."""
    from .engine.battle import resolve

    return resolve(position, trace=trace)


def moves(position: Position, army: str | None = None) -> list[Action]:
    """The legal actions of ``army`` (default: the side to move) between battles."""
    from .turns.actions import legal_actions

    side = army if army is not None else position.to_move
    if side is None:
        raise ValueError("the position says no side to move: name the army")
    return legal_actions(position, side)


def apply(position: Position, action: Action, army: str | None = None) -> Position:
    """The position after ``army`` (default: the side to move) does ``action``; an illegal action raises
    :class:`IllegalAction` naming the rule it breaks."""
    from .turns.actions import apply as apply_action

    side = army if army is not None else position.to_move
    if side is None:
        raise ValueError("the position says no side to move: name the army")
    return apply_action(position, action, side)


def check(record: GameRecord, upto: int | None = None) -> CheckReport:
    """A game record replayed turn by turn: its first illegal action or failed expectation, else the final state;
    with ``upto``, the state after that turn (``nhex fmt RECORD --turn N``). ``report.state.fought`` holds each
    battle's turn, cause and starting position (``nhex battle RECORD --turn N``)."""
    from .turns.game import check as check_record

    return check_record(record, upto)


def solve(card: Puzzle, **options: Any) -> Report:
    """Every winning play of a puzzle card, or the proof that there is none, with the tries and why they fail.
    ``options`` are those of ``nhex solve`` (``naive``, ``max_time``, ``max_solutions``, ``jobs``, ``tries``)."""
    from .search.solve import solve as solve_card

    return solve_card(card, **options)


def generate(player: str, opponent: str, *, level: int = 1, count: int = 1, seed: object = 0, jobs: int = 1,
             on_card: Callable[[Generated], None] | None = None) -> list[Generated]:
    """``count`` new puzzle cards with exactly one solution, ``player``'s army against ``opponent``'s, graded
    ``level`` (1-4); the same seed makes the same cards."""
    from .search.generate import generate as generate_cards

    return generate_cards(player, opponent, level, count, seed, jobs=jobs, on_card=on_card)
