"""Spies (New York): a Spy links itself to enemy modules and HQs as if they were its own.

B13 DESCRIPTION OF NEW ICONS, Spy: "A Spy can link itself to enemy Modules or Headquarters as if they were
friendly Modules or Headquarters, automatically receiving their bonuses and benefits (Note that the module can
still aid allies that are connected to it). If a Medic module is linked to several units (including a Spy) which
all take damage simultaneously, then as usual the module's owner decides which linked unit will be cured."
RULINGS 35: a Spy takes the bonus of an enemy module whose own link icon points at it (3E MODULES: links work by
the module's icons), and so of an adjacent enemy HQ (its links point every way); the module still aids its own
side; a Medic's choices stay with its owner (the battle asks the Medic's controller); a Spy is never in the
Motherland (B13 MODULES AND THE MOTHERLAND: the family :mod:`.motherland` admits only the HQ's army).

The family works at the point ``links``: it adds, for every enemy module that is not netted and helps friends,
the link its icon makes to an adjacent Spy. Modules that hurt enemies (Vines) keep treating the Spy as an enemy.
"""

from __future__ import annotations

from typing import Mapping, Sequence

from ..hexes import Hex, around
from ..position import Unit
from ..engine.points import Ability

Link = tuple[Unit, Unit, Unit]


class Spy(Ability):
    tile_abilities = frozenset({"spy"})
    order = 50  # before the Motherland reads the links (a Spy's link never spreads: it is no member)

    def links(self, units: Mapping[Hex, Unit], nets: frozenset[Hex], sides: Mapping[Hex, str],
              ground: Sequence[Unit], found: list[Link]) -> list[Link]:
        spies = [u for u in units.values() if "spy" in u.tile.abilities]
        if not spies:
            return found
        extra: list[Link] = []
        for spy in spies:
            spy_side = sides.get(spy.hex, spy.army)
            for d, near in enumerate(around(spy.hex)):
                module_unit = units.get(near)
                if module_unit is None or near in nets:
                    continue
                effect = module_unit.tile.module
                if effect is None or effect.target == "enemy" or sides.get(near, module_unit.army) == spy_side:
                    continue
                if any(module_unit.oriented.links and near.neighbour(x) == spy.hex for x in module_unit.oriented.links):
                    extra.append((module_unit, spy, module_unit))
        return found + extra if extra else found
