"""Which NOTATION §10 (v1.1) features a document carries that the engine does not play yet.

The notation reads, keeps and writes every §10 statement; the rules behind most of them (terrain, turrets,
prizes, the Duel board's Energy and procedures, multiplayer, the neutral Mad Bomber, ...) are not implemented.
A battle, the legal actions or a game check on such a position must not silently ignore them (a silently wrong
answer is the worst defect a rules engine can have): their entry points call :func:`refuse`, which raises
:class:`~solver.errors.RuleNotImplemented` naming the first such feature and where the file states it (exit 4).

Rule modules that implement a feature remove it from here: one place to look.
"""

from __future__ import annotations

from dataclasses import dataclass

from ..notation.cards import GameRecord
from ..errors import RuleNotImplemented
from ..expansion import Location
from ..position import BuyEnergy, Position, Procedure, Push, Use

Action = object  # any action value; only the §10 ones are looked at


@dataclass(frozen=True, slots=True)
class Feature:
    """A §10 feature a document uses: its rule's name (with the passage) and where the file states it."""

    rule: str
    where: Location | None = None

    def __str__(self) -> str:
        return self.rule + (f" (at {self.where})" if self.where is not None else "")


def unimplemented(position: Position, *, battle: bool = False) -> list[Feature]:
    """Every §10 feature of ``position`` whose rule the engine lacks, in the order of NOTATION §10.

    ``battle``: only what a battle needs (the Reinforcement variant changes the turns, not the fighting).
    """
    found: list[Feature] = []

    def add(rule: str, key: str) -> None:
        found.append(Feature(rule, position.location(key)))

    # The Duel board's Terminals and Energy: solver/abilities/duel_board.py. Terrain and Prize markers:
    # solver/abilities/terrain.py, terrain_turn.py and prizes.py. Turrets only stand and turn between battles; in
    # battle they would attack, with numbers the book does not give.
    if battle:
        for turret in position.turrets:
            add("Turret attacks (B13 BASE, TURRETS: 'in each Battle they automatically attack like units', but "
                "neither the rulebook nor the tile reference gives a Turret's initiative, strength or attacking "
                "edges)", f"turret {turret.hex.label}")
    # The Mad Bomber (RULINGS 56-57) plays in battles and between them (solver/abilities/mad_bomber.py) and in
    # game records (solver/turns/hiring.py).
    return found


def unimplemented_action(action: Action) -> Feature | None:
    """The §10 feature an action needs whose rule the engine lacks, if any."""
    # Procedures and purchases are the Duel board family's (solver/abilities/duel_board.py), present wherever the
    # position states `terminals` or `energy`; elsewhere there is no Duel board to run them on.
    if isinstance(action, Procedure):
        return Feature(f"procedure {action.kind}: the position has no Duel board (no `terminals`, NOTATION §10.2)")
    if isinstance(action, BuyEnergy):
        return Feature("buying Energy: the position has no Duel board (no `terminals` or `energy`, NOTATION §10.2)")
    if isinstance(action, Push):
        return Feature("the New York Pusher's push (B13 Push Back icon)")
    if isinstance(action, Use) and action.foundations:
        return Feature("hitting foundations instead of units (B13 ROOTS ISSUES)")
    return None


def unimplemented_in_record(record: GameRecord) -> list[Feature]:
    """The §10 features of a game record the engine lacks: its start position's, its seating's, its lines'."""
    # Mercenaries and the Mad Bomber: solver/turns/hiring.py keeps who hired which tile and the Bomber's way back onto a
    # draw pile.
    found = unimplemented(record.position)
    return found


def refuse(position: Position, *, battle: bool = False) -> None:
    """Raise :class:`RuleNotImplemented` for the first §10 feature of ``position`` the engine lacks."""
    found = unimplemented(position, battle=battle)
    if found:
        raise _refusal(found[0])


def refuse_action(action: Action) -> None:
    feature = unimplemented_action(action)
    if feature is not None:
        raise _refusal(feature)


def refuse_record(record: GameRecord) -> None:
    found = unimplemented_in_record(record)
    if found:
        raise _refusal(found[0])


def _refusal(feature: Feature) -> RuleNotImplemented:
    """The refusal, placed where the file states the feature (`FILE:LINE:COLUMN`, NOTATION §9, exit 4)."""
    where = feature.where
    if where is None:
        return RuleNotImplemented(feature.rule)
    return RuleNotImplemented(feature.rule, where.line, where.column, where.source)
