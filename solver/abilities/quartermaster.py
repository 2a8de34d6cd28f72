"""The Quartermaster (Hegemony; PL Kwatermistrz): once per battle, one linked unit may turn ONE attack of one
edge from melee to ranged or back, at its own strength.

RULINGS 9; ES/PL Hegemony sheets (PL Kwatermistrz). The converted attack counts both melee and ranged bonuses (PL). An
edge with two attacks (the Universal Soldier's melee 1 and ranged 1, RULINGS 12) still makes two attacks after
one of them is converted, each meeting armor on its own (3E ARMOR: armor "protects from all Strength 1 Ranged
attacks"). Optional: its owner's choice, so :func:`solver.engine.battle.resolve` enumerates it.
"""

from __future__ import annotations

from dataclasses import replace
from typing import TYPE_CHECKING

from ..engine.fight import Strike
from ..engine.points import Ability

if TYPE_CHECKING:  # pragma: no cover
    from ..engine.battle import Fight
    from ..engine.effects import Bonus
    from ..position import Unit


class Quartermaster(Ability):
    module_effects = frozenset({"melee-counts-as-ranged"})
    #: A turned attack keeps its strength and counts both bonuses: the search's bound counts every attack of every
    #: unit along its whole line with both (bound_turns_attacks), which is never less.
    within_hq_bound = True
    bound_turns_attacks = True

    def strikes(self, fight: Fight, unit: Unit, phase: int, bonus: Bonus | None,
                strikes: list[Strike]) -> list[Strike]:
        if not bonus or not bonus.quartermasters or unit.hex in fight.converted or not strikes:
            return strikes
        labels = ["no conversion"] + [
            f"{s.direction} {s.kind} to {_other(s.kind)}" for s in strikes]
        answer = fight.choose(fight.side(unit), f"Quartermaster for {unit.tile.key} on {unit.hex} in phase {phase}",
                              labels)
        if not answer:
            return strikes
        fight.converted.add(unit.hex)
        chosen = strikes[answer - 1]
        both = bonus.melee + bonus.ranged
        how: tuple[str, ...] = ()
        if fight.tracing:  # the judge's words: the conversion and every bonus of either kind, with its source
            how = (f"{chosen.kind} {chosen.printed} as {_other(chosen.kind)} (Quartermaster on "
                   f"{', '.join(map(str, bonus.quartermasters))})", *fight.added(unit, "melee", "ranged"))
        converted = replace(chosen, kind=_other(chosen.kind), strength=chosen.printed + both, how=how)
        if fight.tracing:
            fight.note(phase, "quartermaster", f"Quartermaster: {unit.tile.key} on {unit.hex} turns its "
                       f"{labels[answer]}", "RULINGS 9; PL Kwatermistrz")
        return [converted if s is chosen else s for s in strikes]


def _other(kind: str) -> str:
    return "ranged" if kind == "melee" else "melee"
