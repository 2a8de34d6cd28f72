"""The multiplayer modes' battle rules (3E THE MULTIPLAYER MODE): a fallen army leaves the board at the end of
the battle (deathmatch), and HQ wounds become points (the score mode). Team play is a matter of who is whose
ally, which :mod:`solver.teams` derives for the reading of the position; the turn order, the Final Battle and
victory are :mod:`solver.game`'s.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Sequence

from ..fight import Hit
from ..hexes import Hex
from . import Ability

if TYPE_CHECKING:  # pragma: no cover
    from ..battle import Fight

#: 3E DEATHMATCH WITH AN OPTIONAL SCORE RULE: "Players may never score more than 20 points."
MOST_POINTS = 20


class FallenArmies(Ability):
    """3E THE MULTIPLAYER MODE, DEATHMATCH, HQ DESTROYED: "If any player loses their HQ, its tile is removed
    from the board together with all its Unit tiles at the end of the Battle. The player is out and the game
    continues without them." Its units act until then (RULINGS 61). Teams end the game instead when an HQ falls
    (3E TEAM MATCH, 1 PLAYER VS A TEAM), so the rule is the deathmatch's; the score mode destroys no HQ."""

    position_features = frozenset({"multiplayer"})

    def battle_end(self, fight: Fight) -> None:
        if fight.teams or fight.position.mode != "deathmatch":
            return
        fallen = {u.army for u in fight.position.units if u.is_hq} - {u.army for u in fight.units.values() if u.is_hq}
        if not fallen:
            return
        for hex_, unit in list(fight.units.items()):
            if unit.army in fallen:
                del fight.units[hex_]
        if fight.tracing:
            fight.note(None, "fallen", f"{', '.join(sorted(fallen))} lost the HQ: every unit of the army leaves the "
                       "board at the end of the battle", "3E THE MULTIPLAYER MODE, HQ DESTROYED")


class ScoreMode(Ability):
    """3E DEATHMATCH WITH AN OPTIONAL SCORE RULE, ATTACKING HQ: "HQs have unlimited Toughness, and every time a
    player's unit hits an opponent's HQ, the Wounds inflicted count as points and are marked by moving that
    player's HQ marker." "Players may never score more than 20 points" (RULINGS 62: the rest is lost). An instant
    tile is no player's unit: its wounds on an HQ count for nobody."""

    position_features = frozenset({"score"})

    def hq_wounds(self, fight: Fight, phase: int | None, hex_: Hex, hits: Sequence[Hit]) -> bool:
        for hit in hits:
            attacker = fight.units.get(hit.source) if hit.source is not None else None
            if attacker is None:
                continue
            army = fight.side(attacker)  # no teams in the score mode: the side is the controlling army
            before = fight.scores.get(army, 0)
            fight.scores[army] = min(MOST_POINTS, before + hit.wounds)
            if fight.tracing:
                fight.note(phase, "score", f"{army} scores {fight.scores[army] - before} on {fight.units[hex_].tile.key}"
                           f": {fight.scores[army]} points", "3E DEATHMATCH WITH AN OPTIONAL SCORE RULE")
        return True
