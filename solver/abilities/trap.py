"""The Trap (Doomsday Machine): an enemy attack on its marked side makes it explode.

ES Doomsday sheet, Trap: "Cualquier ataque enemigo en el lado marcado activa Trap explotando de inmediato,
infringe 1 daño a cada unidad adyacente (los bonos no hacen efecto) amiga y enemiga (incluyendo CGs). Después de
la explosión se descarta. No se puede reparar de ninguna manera." (Any enemy attack on the marked side sets the
Trap off, exploding at once: 1 wound to every adjacent unit (bonuses have no effect), friend and foe (HQs
included). After the explosion it is discarded. It cannot be repaired in any way.)

RULINGS 53: an enemy melee or ranged attack, a Gauss beam too, arriving on the marked side (``trap-trigger`` in
the army file) makes it explode in that phase: 1 wound, no bonuses, armor ignored, to every adjacent unit of every
army, HQs included; it is then discarded, and a Medic neither saves it nor is spent on it; an attack on another
side, or an instant (which comes from no side), only wounds it; a netted Trap cannot explode. The blast lands with
the phase's other hits (the point ``reactions``), so what it wounds may itself react (a Mad Bomber).
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Sequence

from ..engine.fight import Hit
from ..hexes import Hex
from ..engine.points import Ability
from .redirection import netted_now

if TYPE_CHECKING:  # pragma: no cover
    from ..engine.battle import Fight

RULE = "RULINGS 53; ES Trap"
#: The attacks that set it off: melee, ranged, a Gauss beam (RULINGS 53).
TRIGGERS = frozenset({"melee", "ranged", "gauss"})


class Trap(Ability):
    tile_abilities = frozenset({"trap"})
    #: The marked side (no attack of its own: named here so that the search's bound knows the tile whole).
    edge_specials = frozenset({"trap-trigger"})
    order = 50
    #: For the search's bound: a Trap deals each adjacent unit, HQs included, at most 1 wound, once (RULINGS 53),
    #: counted as a blast of 1 in every battle, whoever sets it off.
    within_hq_bound = True
    bound_blast = 1

    def reactions(self, fight: Fight, phase: int | None, hits: Sequence[Hit]) -> list[Hit]:
        blasts: list[Hit] = []
        exploded: set[Hex] = set()
        for hit in hits:
            trap = fight.units.get(hit.target)
            if (trap is None or "trap" not in trap.tile.abilities or hit.target in exploded
                    or hit.kind not in TRIGGERS or hit.direction is None or hit.source is None):
                continue
            attacker = fight.units.get(hit.source)
            if attacker is None or not fight.enemies(attacker, trap):
                continue
            side = hit.direction.opposite  # the side of the Trap the attack arrives on
            if "trap-trigger" not in trap.oriented.edges[side].special:
                continue
            if hit.target in netted_now(fight, phase):
                if fight.tracing:
                    fight.note(phase, "trap", f"{trap.tile.key} on {trap.hex} is netted and cannot explode", RULE)
                continue
            exploded.add(trap.hex)
            fight.removed_now(trap.hex)
            if fight.tracing:
                fight.note(phase, "trap", f"{trap.tile.key} on {trap.hex} is hit on its marked side by "
                           f"{attacker.tile.key} on {attacker.hex} and explodes", RULE)
            for _, near in fight.board.neighbours(trap.hex):
                if near in fight.units:
                    blasts.append(Hit(trap.hex, near, 1, "trap", "Trap: 1 wound, no bonuses, armor ignored"))
        return blasts
