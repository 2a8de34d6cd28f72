"""Venom (Neojungle Nightshade): the markers, and the wound they deal at the start of every battle.

B13 DESCRIPTION OF NEW ICONS, Venom: "If a unit with a venom icon wounds an enemy unit (including Headquarters)
then the wounded unit not only receives the wound as usual, but is also poisoned (shown by placing a venom
marker on it). From now on the poisoned unit receives one wound from the poison at the beginning of each battle
(before the initiative phases)." B13 VENOM ISSUES: only two markers of a Neojungle army in play; a bite with
none spare poisons nobody; a marker comes back when its unit dies; two markers, two wounds; "A Medic can take
the venom damage at the start of a battle for a unit linked to it"; venom affects HQs like any unit.

RULINGS 37: a marker goes on only when a Nightshade's attack really wounds (not absorbed by a Medic, not on a
unit that dies of it); each marker's wound is one attack a linked Medic absorbs (the marker stays); all the venom
wounds land together before the first initiative phase (the point ``battle_start``).

Markers are counted per board (``venom=N`` on units, NOTATION §4), which is per Neojungle army: a position names
each army once (NOTATION §2, ``ARMY:TILE``; ``owner=`` puts a tile under another army's command, but the tile
and its markers stay the one Neojungle army's), so one board holds at most one Neojungle army's two markers, and "venom with two Neojungle armies" cannot arise. When
more Nightshade bites land in one phase than markers are spare, the player whose Nightshades bit chooses who is
poisoned.

The family is present with any tile of an army that has a venom tile (read from the army files): markers stay in
play after their Nightshades die; a position with markers and no such army has no markers to count (NOTATION
§10.3: at most 2 "for each Neojungle army in the position").
"""

from __future__ import annotations

from dataclasses import replace
from functools import lru_cache
from itertools import combinations
from typing import TYPE_CHECKING, Mapping

from ..engine.fight import Hit
from ..hexes import Hex
from ..tiles import Tile, base_army
from ..engine.points import Ability

if TYPE_CHECKING:  # pragma: no cover
    from ..engine.battle import Fight

#: Venom markers of one Neojungle army (B13 VENOM ISSUES: "only two Venom markers of Neojungle in play").
MARKERS = 2


@lru_cache(maxsize=1)
def _poisoning_armies() -> frozenset[str]:
    from ..tiles import armies

    return frozenset(name for name, army in armies().items() if any("venom" in t.abilities for t in army.tiles))


RULE = "B13 DESCRIPTION OF NEW ICONS, Venom; VENOM ISSUES; RULINGS 37"


class Venom(Ability):
    tile_abilities = frozenset({"venom"})
    module_effects = frozenset({"matrix"})
    order = 20
    #: A marker wounds an HQ too, once at the start of every battle (B13: "venom affects HQs like any unit"), and
    #: an army has two: the search's bound counts the markers on the HQ now at the first battle and two at each
    #: later one (bound_poison). A bite is an ordinary attack, counted as one.
    within_hq_bound = True
    bound_poison = MARKERS

    @classmethod
    def carried_by(cls, tile: Tile) -> bool:
        # Markers stay in play when every Nightshade is gone: any tile of a poisoning army keeps the family here.
        return base_army(tile.army) in _poisoning_armies() or super().carried_by(tile)

    def battle_start(self, fight: Fight) -> list[Hit]:
        hits = []
        for hex_, unit in fight.units.items():
            for marker in range(unit.venom):
                # each marker's wound is one attack (RULINGS 37): a Medic absorbs one, a second Medic the other
                hits.append(Hit(None, hex_, 1, "venom", attack=marker))
            if unit.venom and fight.tracing:
                fight.note(None, "venom", f"{unit.tile.key} on {hex_} takes {unit.venom} from venom", RULE)
        return hits

    def after_damage(self, fight: Fight, phase: int | None, damage: Mapping[Hex, int], removed: set[Hex]) -> None:
        units = fight.units
        bitten: list[Hex] = []
        poisoner = None
        for (source, target, n), group in fight.attacks.items():
            if source is None or (source, target, n) in fight.absorbed or target in removed:
                continue
            unit = units.get(source)
            if unit is None or "venom" not in unit.tile.abilities or not any(h.wounds > 0 for h in group):
                continue
            poisoner = fight.side(unit)
            if target not in bitten:
                bitten.append(target)
        if not bitten:
            return
        in_play = sum(u.venom for h, u in units.items() if h not in removed)
        spare = max(0, MARKERS - in_play)
        bitten.sort()
        if spare < len(bitten):
            options = list(combinations(bitten, spare))
            assert poisoner is not None
            answer = fight.choose(poisoner, "which bitten units are poisoned (no spare venom marker for the rest)",
                                  [", ".join(str(h) for h in option) or "none" for option in options])
            bitten = list(options[answer])
        for hex_ in bitten:
            units[hex_] = replace(units[hex_], venom=units[hex_].venom + 1)
            if fight.tracing:
                fight.note(phase, "venom", f"{units[hex_].tile.key} on {hex_} is poisoned", RULE)

