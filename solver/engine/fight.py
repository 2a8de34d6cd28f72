"""The values a battle passes between its loop (:mod:`solver.engine.battle`) and the ability families
(:mod:`solver.abilities`): what one unit strikes with, the hits that land at the end of a phase, trace events.

They live in a module of their own so that the loop and the abilities can both import them without importing
each other.
"""

from __future__ import annotations

from dataclasses import dataclass

from ..hexes import Direction, Hex

#: One attack, whose wounds a Medic absorbs together: ``(source, target, n)``; the source is None for an instant tile;
#: ``n`` tells apart several attacks of one source on one target (:attr:`Hit.attack`), 0 for most.
Attack = tuple["Hex | None", Hex, int]


@dataclass(frozen=True, slots=True)
class Strike:
    """One attack a unit makes on one edge in one action, before it is aimed: ``kind`` is ``melee`` or
    ``ranged``; ``strength`` includes the bonuses of its kind.

    A Universal Soldier's edge makes two strikes (RULINGS 12), each meeting armor on its own (3E ARMOR). ``how``
    says how the strength was made, for the trace (issue: a judge reads every bonus): ``("ranged 1", "Officer
    on b2 +1")``.
    """

    direction: Direction
    kind: str
    #: The strength printed on the edge for this kind of attack.
    printed: int
    strength: int
    how: tuple[str, ...] = ()


#: The wounds of an attack that loops without end (RULINGS 65: a redirected shot back in a redirector on its own
#: path "inflicts an infinite damage"): more than any unit or HQ bears; the trace writes it ∞.
ENDLESS = 10**6


def wounds_text(wounds: int) -> str:
    """How the trace writes a number of wounds: ∞ for an endless attack (:data:`ENDLESS`)."""
    return "∞" if wounds >= ENDLESS else str(wounds)


@dataclass(slots=True)
class Hit:
    """Wounds that land on ``target`` at the end of the phase; ``source`` is None for an instant tile."""

    source: Hex | None
    target: Hex
    wounds: int
    kind: str  # melee, ranged, gauss, blast, instant, or an ability's own kind
    note: str = ""  # how the wounds were made: bonuses, armor (the trace shows it)
    #: The way the attack travelled as it reached the target (a melee or ranged attack, a beam), so that the side
    #: it arrives on is known even after a redirection; None for a blast or an instant.
    direction: Direction | None = None
    #: Which of several separate attacks of one source on one target this is (two venom markers on one unit
    #: are two attacks, RULINGS 37); hits with the same source, target and number are one attack for a Medic.
    attack: int = 0


@dataclass(frozen=True, slots=True)
class Event:
    """One line of a battle's trace: what happened, in which phase, and the rule behind it; ``how`` says how a
    hit's wounds were made (printed strength, each bonus and its source, armor, a conversion), apart from
    ``text`` so that words drawn from the text (card explanations) stay as they are."""

    phase: int | None
    kind: str
    text: str
    rule: str = ""
    how: str = ""

    def __str__(self) -> str:
        return self.text + (f": {self.how}" if self.how else "") + (f"  [{self.rule}]" if self.rule else "")


@dataclass(frozen=True, slots=True)
class Unsettled:
    """A report value (:attr:`solver.engine.battle.Outcome.reports`) that the position alone cannot settle: ``rule`` names
    what is missing (the Mad Bomber's destination with three or more armies needs a game record's seating). Writing
    it out is refused with that rule (exit 4); a game record settles it from what it knows."""

    rule: str
