"""The Motherland (Neojungle HQ): one Neojungle module linked to a member helps every member.

B13 NEOJUNGLE, HQ: "All NeoJungle units that are adjacent to HQ belong to the Motherland, and all NeoJungle units
adjacent to Motherland also belong to it. Modules that belong to NeoJungle which are linked to any unit in the
Motherland (but not to the Roots, which are not a unit) give their bonus to each unit in the Motherland
(including HQ)." B13 MODULES AND THE MOTHERLAND: the module must be "directly linked" to a member; a netted unit
still belongs; a unit taken over does not; enemy modules and Vines act only on the unit they link; no
non-Neojungle unit belongs, "even a Spy unit connected to Neojungle HQ". B13 ROOTS ISSUES: Roots belong and
connect "If an enemy unit is standing on Roots". B13 NEOJUNGLE IN MULTIPLAYER GAMES: allies never belong; the
whole Motherland takes bonuses only from Neojungle modules. RULINGS 38 gathers these.

Membership spreads over hexes from the HQ: a hex is in the Motherland when it holds the HQ, or a unit of the HQ's
army that the HQ's army controls, or that army's Roots, and it is adjacent to a hex already in. A Neojungle unit
standing on member Roots is a member (it occupies the Motherland's ground; the book is silent, the reading is
that Roots are "part of the Motherland" wherever a unit stands). The family works at the point ``links``: for
every plain link of a Neojungle module (working for Neojungle, a bonus for friends: not Vines) whose target is a
member, it adds the same link to every other member, each member once. A Medic passed on so may absorb for any
member (its bonus is its absorbing).

"Controls" is read through the team keys (solver/teams.py): in a team match every unit's side is its team's key,
so a Neojungle unit fighting for the team with Neojungle in it is Neojungle's own, and only a unit taken over by
an enemy has left the Motherland. A member is a Neojungle *tile* commanded by Neojungle: a unit of another army
commanded by Neojungle's player (`owner=`, the B13 campaign's allied units) is an ally and never belongs.
"""

from __future__ import annotations

from typing import Mapping, Sequence

from ..hexes import Hex, around
from ..position import Unit
from ..teams import plays_for
from ..tiles import Tile
from ..engine.points import Ability

RULE = "B13 NEOJUNGLE, HQ; MODULES AND THE MOTHERLAND; ROOTS ISSUES; RULINGS 38"
Link = tuple[Unit, Unit, Unit]


def is_roots(tile: Tile) -> bool:
    return tile.kind.value == "foundation" and tile.name == "roots"


def own(unit: Unit, sides: Mapping[Hex, str], army: str) -> bool:
    """Whether ``unit`` is one of ``army``'s own tiles, commanded by it and not taken over by an enemy."""
    return unit.army == army and unit.tile.army == army and plays_for(sides.get(unit.hex, army), army)


def members(units: Mapping[Hex, Unit], sides: Mapping[Hex, str], ground: Sequence[Unit], hq: Unit) -> set[Hex]:
    """The hexes of the units in ``hq``'s Motherland (HQ included; Roots connect but are no unit)."""
    army = hq.army
    roots = {f.hex for f in ground if is_roots(f.tile) and f.army == army}

    def joins(hex_: Hex) -> bool:
        if hex_ in roots:
            return True
        unit = units.get(hex_)
        return unit is not None and own(unit, sides, army)

    inside = {hq.hex}
    frontier = [hq.hex]
    while frontier:
        hex_ = frontier.pop()
        for near in around(hex_):
            if near not in inside and joins(near):
                inside.add(near)
                frontier.append(near)
    return {h for h in inside if h in units and own(units[h], sides, army)}


def motherland_hqs(units: Mapping[Hex, Unit], sides: Mapping[Hex, str]) -> list[Unit]:
    return [u for u in units.values() if u.is_hq and u.tile.module is not None and u.tile.module.type == "matrix"
            and plays_for(sides.get(u.hex, u.army), u.army)]


class Motherland(Ability):
    module_effects = frozenset({"matrix"})
    #: A module's bonus passed to every member is one the search's bound already counts for every unit of the
    #: player's (each module's once, as here: "each member once").
    within_hq_bound = True

    def links(self, units: Mapping[Hex, Unit], nets: frozenset[Hex], sides: Mapping[Hex, str],
              ground: Sequence[Unit], found: list[Link]) -> list[Link]:
        extra: list[Link] = []
        for hq in motherland_hqs(units, sides):
            inside = members(units, sides, ground, hq)
            army = hq.army
            given: dict[Hex, set[Hex]] = {}
            spread: list[tuple[Unit, Unit]] = []
            for module, target, holder in found:
                given.setdefault(module.hex, set()).add(target.hex)
                effect = module.tile.module
                if (target.hex in inside and own(module, {}, army) and own(holder, sides, army)
                        and effect is not None and effect.target != "enemy" and effect.type != "matrix"):
                    spread.append((module, holder))
            for module, holder in dict.fromkeys(spread):
                for hex_ in sorted(inside):
                    if hex_ not in given[module.hex] and hex_ != module.hex:
                        given[module.hex].add(hex_)
                        extra.append((module, units[hex_], holder))
        return found + extra if extra else found
