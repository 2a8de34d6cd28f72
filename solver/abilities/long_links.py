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
works for (never on an enemy: the three modules help friends). A netted module gives nothing: the caller,
:func:`solver.effects.links`, skips netted modules before asking. The second hex is the first hex's neighbour
in the same direction; on the standard and extended boards (convex) it is on the board only when the first is.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Mapping

from ..hexes import Hex
from ..tiles import Tile
from . import Ability, Units

if TYPE_CHECKING:  # pragma: no cover
    from ..position import Unit


class LongLinks(Ability):
    @classmethod
    def carried_by(cls, tile: Tile) -> bool:
        return tile.module is not None and (tile.module.reach or 1) > 1

    def long_links(self, units: Units, module: Unit, works_for: str, sides: Mapping[Hex, str]) -> list[Unit] | None:
        effect = module.tile.module
        if effect is None or (effect.reach or 1) <= 1:
            return None
        wanted_enemy = effect.target == "enemy"
        linked = []
        for d in module.oriented.links:
            hex_ = module.hex
            for _ in range(effect.reach or 1):
                hex_ = hex_.neighbour(d)
                other = units.get(hex_)
                if other is not None and (sides.get(other.hex, other.army) != works_for) == wanted_enemy:
                    linked.append(other)
        return linked
