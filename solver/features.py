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

from .cards import ExpectDraw, ExpectScore, ExpectWinner, GameRecord
from .errors import RuleNotImplemented
from .expansion import Location
from .hexes import Direction
from .tiles import NEUTRAL_ARMY
from .position import BuyEnergy, Place, PlaceHQ, Position, Procedure, Push, Use

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

    if position.terminals:
        add("the Duel board's Terminals and Cells (PL OPIS PLANSZY, TERMINALE)", "terminals")
    for army, points in position.energy:
        if points:
            add(f"Energy Points and procedures (PL ENERGIA; {army} has {points})", f"energy {army}")
    # Terrain and Prize markers: solver/abilities/terrain.py, terrain_turn.py and prizes.py. Turrets only stand
    # and turn between battles; in battle they would attack, with numbers the book does not give.
    if battle:
        for turret in position.turrets:
            add("Turret attacks (B13 TURRETS: the rulebook gives no Turret initiative or strength)",
                f"turret {turret.hex.label}")
    for unit in position.units:
        if unit.is_neutral:
            add("the neutral Mad Bomber (2E SPECIAL EXPANSION, Mad Bomber as non player character; RULINGS 56)",
                f"unit {unit.hex.label}")
        elif unit.tile.army == NEUTRAL_ARMY:
            add("the hired Mad Bomber (2E SPECIAL EXPANSION, Mad Bomber as a mercenary; RULINGS 57)",
                f"unit {unit.hex.label}")
    if position.teams:
        add("team matches (3E THE MULTIPLAYER MODE, TEAM MATCH)", "team")
    if position.mode != "deathmatch":
        add("the score mode (3E THE MULTIPLAYER MODE)", "mode")
    if position.scores:
        add("scores (3E THE MULTIPLAYER MODE)", f"score {position.scores[0][0]}")
    if not battle and position.rules.enabled("reinforcement"):
        add("the Reinforcement variant (reinforcement=yes; 3E GAME VARIANTS, REINFORCEMENT)", "rules")
    # moloch-team-fire matters only in a team match, refused above; `beginning` only in a record (below).
    return found


def unimplemented_action(action: Action) -> Feature | None:
    """The §10 feature an action needs whose rule the engine lacks, if any."""
    if isinstance(action, Procedure):
        return Feature(f"the Duel board's procedures (procedure {action.kind}; PL PROCEDURY)")
    if isinstance(action, BuyEnergy):
        return Feature("buying Energy (PL ENERGIA)")
    if isinstance(action, Push):
        return Feature("the New York Pusher's push (B13 Push Back icon)")
    if isinstance(action, Place) and action.by is not None:
        return Feature("the Smart Transporter's placement (PL Transporter)")
    if isinstance(action, PlaceHQ) and action.facing is not Direction.N:
        return Feature("directional HQs (an HQ placed facing other than N; PL Vegas, Sztab)")
    if isinstance(action, Use) and action.foundations:
        return Feature("hitting foundations instead of units (B13 ROOTS ISSUES)")
    return None


def unimplemented_in_record(record: GameRecord) -> list[Feature]:
    """The §10 features of a game record the engine lacks: its start position's, its seating's, its lines'."""
    found = unimplemented(record.position)
    if record.position.rules.option("beginning") != "standard":
        found.append(Feature("the Alternative Beginning (beginning=alternative; 3E GAME VARIANTS)",
                             record.position.location("rules")))
    if len(record.players) != len(set(record.players)):
        found.append(Feature("1 player vs a team (3E THE MULTIPLAYER MODE, 1 PLAYER VS A TEAM)"))
    for entry in record.entries:
        if isinstance(entry, (ExpectWinner, ExpectDraw, ExpectScore)):
            found.append(Feature(f"`{entry}` lines (NOTATION §10.7)", entry.where))
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
    error = RuleNotImplemented(str(feature))
    # Where the file states the feature, for `FILE:LINE:COLUMN` (NOTATION §9, exit 4).
    error.where = feature.where  # type: ignore[attr-defined]
    return error
