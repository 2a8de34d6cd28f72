"""What follows from where the tiles stand: nets, module links and the bonuses they give.

Nothing here is written in a position file (NOTATION §4: "netting, module links, control and the Motherland
are not written: they follow from the position"). Two functions carry the rules, one place each:

* :func:`netted` — which units a Net disables (3E USING NETS; RULINGS 2);
* :func:`bonuses` — what every module and HQ adds to the units it is linked to (3E MODULES; RULINGS 5-8).

Both take the units as a mapping from hex to :class:`~solver.position.Unit`, so the battle can ask again after
every phase with the units still standing, and the turn rules can ask about a position.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from functools import lru_cache
from typing import Mapping, Sequence

from .points import Points, points_on
from ..errors import RuleNotImplemented
from ..teams import keys as team_keys
from ..hexes import Hex, around
from ..position import Position, Unit
from ..rules import DEFAULT_RULES, RuleSet
from ..tiles import Edge, Kind, ModuleEffect

Units = Mapping[Hex, Unit]
#: Who controls each unit whose controller is not its commander (a takeover); every other unit is its army's.
Sides = Mapping[Hex, str]
NO_TAKEOVERS: Sides = {}


def edges_of(unit: Unit) -> tuple[Edge, ...]:
    """The unit's edges indexed by the absolute direction they act towards."""
    return unit.oriented.edges


def are_enemies(a: Unit, b: Unit, sides: Sides = NO_TAKEOVERS) -> bool:
    """Units of different controllers are enemies (the two-player and deathmatch games)."""
    return sides.get(a.hex, a.army) != sides.get(b.hex, b.army)


def side(unit: Unit, sides: Sides = NO_TAKEOVERS) -> str:
    """Who controls the unit: the army that took it over, or its commander."""
    return sides.get(unit.hex, unit.army)


def takeovers(units: Units, rules: RuleSet = DEFAULT_RULES, points: Points | None = None) -> Sides:
    """Who controls each unit taken over by another army, as the ability families present say (the point
    ``takeovers``; PL VEGAS, Sztab and Agitator; RULINGS 17-20). Derived from the position, never written."""
    families = (points or points_on(units.values())).takeovers
    if not families:
        return NO_TAKEOVERS
    sides: dict[Hex, str] = {}
    for ability in families:
        sides.update(ability.takeovers(units, rules))
    return sides


def by_hex(position: Position) -> dict[Hex, Unit]:
    return {u.hex: u for u in position.units}


# --- nets --------------------------------------------------------------------------------------------------------


def net_targets(units: Units, sides: Sides = NO_TAKEOVERS) -> dict[Hex, tuple[Hex, ...]]:
    """Every unit with a Net and the adjacent enemies its Nets point at (before any Net is cancelled)."""
    aims: dict[Hex, tuple[Hex, ...]] = {}
    for hex_, unit in units.items():
        directions = unit.oriented.nets
        if not directions:
            continue
        targets = []
        near = around(hex_)
        own = sides.get(hex_, unit.army)
        for d in directions:
            other = units.get(near[d])
            if other is not None and sides.get(other.hex, other.army) != own:
                targets.append(other.hex)
        if targets:
            aims[hex_] = tuple(targets)
    return aims


def netted(units: Units, sides: Sides = NO_TAKEOVERS) -> frozenset[Hex]:
    """The hexes of the units disabled by a Net.

    3E USING NETS: a netted Net Fighter nets nobody; two Nets aimed at each other cancel and both Net Fighters
    count as free; three or more Net Fighters netting each other in a ring are all free and their other Nets
    work. RULINGS 2: a ring that a free outside Net Fighter breaks is no ring any more and resolves as a chain.

    This is the grounded labelling of the "nets" graph (a unit is netted when some free unit nets it; free
    when every unit netting it is netted), and every ring left undecided by it — an unbroken cycle, mutual
    pairs included — counts as free with the Nets inside it void, then the labelling goes on downstream.
    """
    aims = net_targets(units, sides)
    if not aims:
        return frozenset()
    attackers: dict[Hex, set[Hex]] = {}
    for source, targets in aims.items():
        for target in targets:
            attackers.setdefault(target, set()).add(source)
    if attackers.keys().isdisjoint(aims):
        return frozenset(attackers)  # no Net Fighter is netted: each is free and nets every unit it aims at
    void: set[tuple[Hex, Hex]] = set()
    free: set[Hex] = set()
    caught: set[Hex] = set()
    undecided = set(attackers) | set(aims)
    while True:
        changed = True
        while changed:
            changed = False
            for hex_ in list(undecided):
                live = [a for a in attackers.get(hex_, ()) if (a, hex_) not in void]
                if any(a in free for a in live):
                    caught.add(hex_)
                elif all(a in caught for a in live):
                    free.add(hex_)
                else:
                    continue
                undecided.discard(hex_)
                changed = True
        if not undecided:
            return frozenset(caught)
        ring = _source_ring(undecided, aims, void)
        for source in ring:
            for target in aims.get(source, ()):
                if target in ring:
                    void.add((source, target))


def _source_ring(undecided: set[Hex], aims: dict[Hex, tuple[Hex, ...]], void: set[tuple[Hex, Hex]]) -> set[Hex]:
    """A ring of undecided Net Fighters that no other undecided unit nets from outside (a source component)."""
    edges = {h: [t for t in aims.get(h, ()) if t in undecided and (h, t) not in void] for h in undecided}
    components = _strongly_connected(sorted(undecided), edges)
    component_of = {h: i for i, comp in enumerate(components) for h in comp}
    entered = {component_of[t] for h in undecided for t in edges[h] if component_of[t] != component_of[h]}
    for i, component in enumerate(components):
        if i not in entered and (len(component) > 1):
            return set(component)
    # Every undecided unit sits downstream of a ring, so a source component is always a ring.
    raise AssertionError("net labelling found no ring to release")  # pragma: no cover


def _strongly_connected(nodes: list[Hex], edges: dict[Hex, list[Hex]]) -> list[list[Hex]]:
    index: dict[Hex, int] = {}
    low: dict[Hex, int] = {}
    stack: list[Hex] = []
    on_stack: set[Hex] = set()
    result: list[list[Hex]] = []

    def visit(node: Hex) -> None:
        index[node] = low[node] = len(index)
        stack.append(node)
        on_stack.add(node)
        for nxt in edges[node]:
            if nxt not in index:
                visit(nxt)
                low[node] = min(low[node], low[nxt])
            elif nxt in on_stack:
                low[node] = min(low[node], index[nxt])
        if low[node] == index[node]:
            component = []
            while True:
                top = stack.pop()
                on_stack.discard(top)
                component.append(top)
                if top == node:
                    break
            result.append(component)

    try:
        for node in nodes:
            if node not in index:
                visit(node)
    finally:
        del visit  # a closure that calls itself is a reference cycle: emptied, it is freed at once
    return result


# --- module links and bonuses ------------------------------------------------------------------------------------


@dataclass(slots=True)
class Bonus:
    """What the modules and HQs linked to one unit add to it."""

    melee: int = 0
    ranged: int = 0
    initiative: int = 0
    extra_actions: int = 0
    toughness: int = 0
    medics: list[Hex] = field(default_factory=list)
    quartermasters: list[Hex] = field(default_factory=list)


#: Module effects that decide who controls what; :func:`captured_modules` and :func:`takeovers` read them.
_CONTROL_EFFECTS = frozenset({"take-over-enemy-modules", "control-takeover"})

#: Module effects that work between battles, not on a unit's fighting (the turn rules read them).
_TURN_EFFECTS = frozenset({"grant-mobility", "grant-move-and-rotate", "double-move"})

#: THE table of module effects (3E MODULES; RULINGS 5-8, 13, 39): the :class:`Bonus` fields each effect adds to on
#: a linked unit. ``extra_actions`` adds one action per link, ``medics`` and ``quartermasters`` list the module's
#: hex, every other field adds the effect's value. Effects with no field act elsewhere: control (takeovers,
#: :func:`captured_modules`), the Motherland's matrix (a family's links, RULINGS 38), the turn effects. Both
#: :func:`bonuses` and the judge's trace (:func:`solver.engine.explain.sources`) read it through :func:`effect_fields`.
EFFECT_FIELDS: dict[str, tuple[str, ...]] = {
    "melee-bonus": ("melee",),
    "ranged-bonus": ("ranged",),
    "initiative-bonus": ("initiative",),
    "melee-and-ranged-bonus": ("melee", "ranged"),
    "melee-and-initiative-bonus": ("melee", "initiative"),  # Symbiont Gamma: never ranged (RULINGS 39)
    "strength-and-initiative-bonus": ("melee", "initiative"),  # the Boss: ranged only with boss-ranged (RULINGS 13)
    "extra-initiative": ("extra_actions",),
    "toughness-bonus": ("toughness",),
    "medic": ("medics",),
    "melee-counts-as-ranged": ("quartermasters",),
    **{kind: () for kind in _CONTROL_EFFECTS | _TURN_EFFECTS | {"matrix"}},
}

#: The fields of :class:`Bonus` that hold numbers (the others list module hexes).
NUMBER_FIELDS = ("melee", "ranged", "initiative", "toughness", "extra_actions")


def effect_fields(kind: str, rules: RuleSet = DEFAULT_RULES) -> tuple[str, ...]:
    """The :class:`Bonus` fields a module effect adds to (:data:`EFFECT_FIELDS`), the rule options applied: the
    Boss adds ranged strength only with ``boss-ranged=yes`` (RULINGS 13)."""
    fields = EFFECT_FIELDS.get(kind)
    if fields is None:
        raise RuleNotImplemented(f"module effect {kind!r}")
    if kind in _RULED_EFFECTS and rules.enabled("boss-ranged"):
        return fields + ("ranged",)
    return fields


def captured_modules(units: Units, nets: frozenset[Hex], sides: Sides = NO_TAKEOVERS) -> dict[Hex, Unit]:
    """Enemy modules a free Scoper takes over, each with the Scoper that holds it (RULINGS 8; ES/PL Scoper).

    A module is taken when a Scoper's link icon points at it, whatever the module's own facing (PL, Vegas
    notes). HQs are not modules and are never taken.
    """
    taken: dict[Hex, Unit] = {}
    for hex_, unit in units.items():
        module = unit.tile.module
        if module is None or module.type != "take-over-enemy-modules" or hex_ in nets:
            continue
        for d in unit.oriented.links:
            other = units.get(hex_.neighbour(d))
            if other is not None and other.tile.kind is Kind.MODULE and are_enemies(unit, other, sides):
                taken[other.hex] = unit
    return taken


def side_of(unit: Unit, captured: dict[Hex, Unit], sides: Sides = NO_TAKEOVERS) -> str:
    """Whose side a unit's module effects work for: its controller's, or that of the Scoper that took it."""
    holder = captured.get(unit.hex)
    return side(holder if holder is not None else unit, sides)


def links(units: Units, nets: frozenset[Hex], sides: Sides = NO_TAKEOVERS, points: Points | None = None,
          ground: Sequence[Unit] = ()) -> list[tuple[Unit, Unit, Unit]]:
    """Every working link: ``(module, linked unit, whose side it works for)``.

    A module works only through its own link icons, on the adjacent unit it points at (3E MODULES: "any Module
    must be directly connected to a unit"), and not while netted (3E NET: a netted unit cannot "add bonuses").
    Enemy modules on a free Scoper's linked sides work for the Scoper's side instead (RULINGS 8). Links that are
    not plain (a long-distance module's, RULINGS 54; a Spy's; the Motherland's) are the families' at the point
    ``links``; ``ground``: the foundations.
    """
    modules = []
    scoper = False
    for hex_, unit in units.items():
        module = unit.tile.module
        if module is not None and hex_ not in nets:
            modules.append((hex_, unit, module))
            if module.type == "take-over-enemy-modules":
                scoper = True
    taken = captured_modules(units, nets, sides) if scoper else None
    found = []
    for hex_, unit, module in modules:
        reach = module.reach
        if reach is not None and reach != 1:
            continue  # a long-distance module links through its family (solver/abilities/long_links.py)
        holder = taken.get(hex_, unit) if taken else unit
        wanted_enemy = module.target == "enemy"
        near = around(hex_)
        works_for = sides.get(holder.hex, holder.army) if sides else holder.army
        for d in unit.oriented.links:
            other = units.get(near[d])
            if other is not None and ((sides.get(other.hex, other.army) if sides else other.army) != works_for) \
                    == wanted_enemy:
                found.append((unit, other, holder))
    for family in (points or points_on(units.values())).links:
        found = family.links(units, nets, sides, ground, found)
    return found


def link_effect(module: Unit) -> ModuleEffect:
    """The effect of a unit that :func:`links` names as a module: only units with a module effect link."""
    effect = module.tile.module
    assert effect is not None, module
    return effect


def bonuses(units: Units, nets: frozenset[Hex], rules: RuleSet = DEFAULT_RULES,
            sides: Sides = NO_TAKEOVERS, points: Points | None = None, ground: Sequence[Unit] = ()
            ) -> dict[Hex, Bonus]:
    """What every unit gets from the modules and HQs linked to it; units with nothing are left out.

    3E MODULES: effects are cumulative, work at all times, also on HQs; an HQ's ability never affects the HQ
    itself (3E THE HQs); a module's effect is not an action. RULINGS 5-8 for initiative, extra actions,
    Saboteur and Scoper. The Boss adds ranged strength only with ``boss-ranged=yes`` (RULINGS 13).
    """
    result: dict[Hex, Bonus] = {}
    effect: object = _TURN
    adds: tuple = _TURN
    for module_unit, target, _side in links(units, nets, sides, points, ground):
        if target.hex == module_unit.hex:
            continue
        if module_unit.tile.module is not effect:  # links come module by module: one lookup for each
            effect = module_unit.tile.module
            assert isinstance(effect, ModuleEffect)  # only units with a module effect link
            # The rule set answers an option from its own memo (RuleSet.option): asked once per module here.
            ruled = effect.type in _RULED_EFFECTS and rules.enabled("boss-ranged")
            known = _INCREMENTS.get((effect.type, effect.value, ruled))
            adds = known if known is not None else _increments(effect, rules, module_unit, ruled)
        if adds is _TURN:
            continue
        bonus = result.get(target.hex)
        if bonus is None:
            bonus = result[target.hex] = Bonus()
        melee, ranged, initiative, toughness, extra, listed = adds
        if melee:
            bonus.melee += melee
        if ranged:
            bonus.ranged += ranged
        if initiative:
            bonus.initiative += initiative
        if toughness:
            bonus.toughness += toughness
        if extra:
            bonus.extra_actions += extra
        if listed:
            for name in listed:  # medics, quartermasters: the module's hex
                getattr(bonus, name).append(module_unit.hex)
    return result


#: What one link of an effect adds, by ``(type, value, boss-ranged)`` (the option only for :data:`_RULED_EFFECTS`,
#: else False): melee, ranged, initiative, toughness, extra actions and the listing fields, from
#: :data:`EFFECT_FIELDS` (built on first use).
_INCREMENTS: dict[tuple[str, int | None, bool], tuple] = {}
_TURN: tuple = ()
#: The module effects whose fields depend on a rule option (:func:`effect_fields`): the Boss (RULINGS 13).
_RULED_EFFECTS = frozenset({"strength-and-initiative-bonus"})


def _increments(effect: ModuleEffect, rules: RuleSet, module: Unit, ruled: bool) -> tuple:
    try:
        fields = effect_fields(effect.type, rules)
    except RuleNotImplemented:
        raise RuleNotImplemented(f"module effect {effect.type!r} ({module.tile.key})") from None
    value = effect.value or 0
    adds = _TURN if effect.type in _TURN_EFFECTS else (
        *(value * fields.count(name) for name in ("melee", "ranged", "initiative", "toughness")),
        fields.count("extra_actions"), tuple(name for name in fields if name not in NUMBER_FIELDS))
    _INCREMENTS[effect.type, effect.value, ruled] = adds
    return adds


# --- the whole reading ----------------------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class Reading:
    """Everything that follows from where the units stand, in the order the rules build it: who controls what
    (takeovers), then nets, then the links and what they give."""

    #: Whose attacks, Nets and pushes reach whom: units with the same key are friends (a team match gives keys
    #: of teams; :mod:`solver.teams`). Elsewhere only the units taken over are listed, under their controller.
    sides: Sides
    nets: frozenset[Hex]
    bonuses: dict[Hex, Bonus]
    #: Whose modules and HQ abilities act on whom, keyed the same way (the same as ``sides`` but in a team match
    #: with Moloch, whose units fight their allies yet share their bonuses).
    allies: Sides


def read(units: Units, rules: RuleSet = DEFAULT_RULES, points: Points | None = None,
         teams: tuple[tuple[str, ...], ...] = (), ground: Sequence[Unit] = ()) -> Reading:
    """``teams``: the position's teams (:mod:`solver.teams`); ``ground``: the foundation tiles under the units
    (Roots belong to the Motherland)."""
    sides = takeovers(units, rules, points)
    if not teams:
        nets = netted(units, sides)
        return Reading(sides, nets, bonuses(units, nets, rules, sides, points, ground), sides)
    harm, help_ = team_keys({h: sides.get(h, u.army) for h, u in units.items()}, teams, rules)
    nets = netted(units, harm)
    return Reading(harm, nets, bonuses(units, nets, rules, help_, points, ground), help_)


@lru_cache(maxsize=256)
def toughness_bonuses(position: Position) -> Mapping[Hex, int]:
    """The toughness the links give each unit of ``position`` between battles (the New York HQ's point, B13 NEW
    YORK, HQ), read as a battle reads it: by who controls the units (a unit Vegas took over is Vegas's, PL VEGAS,
    Sztab), with the Nets, the teams and the Spy's borrowed bonuses (memoised: a position is asked once per unit)."""
    reading = read(by_hex(position), position.rules, None, position.teams, position.foundations)
    return {h: b.toughness for h, b in reading.bonuses.items() if b.toughness}
