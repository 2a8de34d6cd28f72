"""Long-distance modules (Doomsday Machine: Medic, Officer, Main War Processor; ``reach 2`` in the army file).

RULINGS 54; ES Doomsday sheet, legend: "Las unidades amigas conectadas por Módulos entre 1 & 2 hexágonos
reciben la bonificación del Módulo. En el caso de que las unidades estén a 2 hexágonos de distancia, los
Módulos de larga distancia actúan sobre las unidades enemigas" (friendly units connected by Modules between 1
and 2 hexes away receive the Module's bonus; where the units are 2 hexes away, the long-distance Modules act
over enemy units), and its example: "Officer afecta a ambos Delta y Gamma Shooters ... no afecta a Alpha
Shooter que está a 3 hexágonos de distancia ... Main War Processor ... puede afectar a la unidad a dos espacios
de distancia y funciona incluso sobre la unidad enemiga" (the Officer affects both the Delta and the Gamma
Shooter ... not the Alpha Shooter 3 hexes away ... the Main War Processor can affect the unit two spaces away
and works even over the enemy unit).

Along each linked side the module reaches the unit on the first hex and the unit on the second, over whatever
stands on the first (a friend, an enemy, nothing), never a third hex; it works only on units of the side it
works for (never on an enemy: the three modules help friends); a netted module gives nothing (3E NET). The
second hex is the first hex's neighbour in the same direction; on the standard and extended boards (convex) it
is on the board only when the first is. The plain links of :func:`solver.engine.effects.links` leave such modules to
this family (the point ``links``); a module a free Scoper holds works for the Scoper's side (RULINGS 8).
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Mapping, Sequence

from ..hexes import Hex
from ..tiles import Tile
from ..engine.points import Ability, Units

if TYPE_CHECKING:  # pragma: no cover
    from ..position import Unit


class LongLinks(Ability):
    #: Which friendly units a module reaches, never what it gives: the search's bound gives every unit of the
    #: player's every bonus of its modules, wherever they stand (:mod:`solver.search.bound`).
    within_hq_bound = True

    @classmethod
    def carried_by(cls, tile: Tile) -> bool:
        return tile.module is not None and (tile.module.reach or 1) > 1

    def links(self, units: Units, nets: frozenset[Hex], sides: Mapping[Hex, str], ground: Sequence[Unit],
              found: list[tuple[Unit, Unit, Unit]]) -> list[tuple[Unit, Unit, Unit]]:
        from ..engine.effects import captured_modules

        taken = None
        extra = []
        for hex_, module in units.items():
            effect = module.tile.module
            if effect is None or (effect.reach or 1) <= 1 or hex_ in nets:
                continue
            if taken is None:
                taken = captured_modules(units, nets, sides)
            holder = taken.get(hex_, module)
            works_for = sides.get(holder.hex, holder.army)
            wanted_enemy = effect.target == "enemy"
            for d in module.oriented.links:
                at = hex_
                for _ in range(effect.reach or 1):
                    at = at.neighbour(d)
                    other = units.get(at)
                    if other is not None and (sides.get(other.hex, other.army) != works_for) == wanted_enemy:
                        extra.append((module, other, holder))
        return found + extra if extra else found
