"""Babel 13 terrain in battle: the rules the features of ``solver/terrain/babel13.terrain`` are made of.

The terrain data (:mod:`solver.terrain`) says which rules each feature is; this family plays them at the points
of the battle loop. One function per rule, named after it; every passage is B13 TERRAINS AND SCENARIOS.

``toughness(N)`` (Fortress)            point ``boost``: +N toughness while the unit stands there.
``wound-at-0(N)`` (Poisonous, Radioactive)  point ``phase_hits``, initiative 0: N wounds to every unit there,
                                       HQs too (RULINGS 43); one attack, which a Medic absorbs unless
                                       ``terrain-medic=no``; armor does not stop it (it is not a shot).
``kill-at-0`` (Whirlpool)              initiative 0: every unit there drowns; a Medic may save it (one attack).
``defense-at-0(N)`` (Defense Systems)  initiative 0: each element makes one strength-N attack on every adjacent
                                       unit, except HQs and the unit on the Control Panel (RULINGS 46).
``wound-kills`` (Rocky, Deep)          point ``after_damage``: a unit there that received a wound dies.
``adjacent-attacks-only`` (Thick)      point ``shot_meets``: a shot from farther meets the unit and is spent
                                       on it without effect (RULINGS 44); melee is always adjacent.
``instant-proof`` (Thick, Hidden)      point ``instant_hits``: an Instant tile's attack does nothing there (to a
                                       foundation neither: :func:`spares_foundations`).
``blocks-fire`` (High)                 point ``shot_meets``: a line of fire stops on the hex; a unit standing
                                       on it can itself be shot (RULINGS 45).
``prize`` (Warehouse)                  attacks of the armies that may damage it wound the hex (melee from an
                                       adjacent unit, a shot meeting it); the army whose wound breaks it open
                                       takes its Prize markers, several armies at once destroy them.
``control-panel``                      point ``act``: the unit on it does none of its normal actions.
``sharpshooter`` (Watchtower)          played by :mod:`solver.abilities.sharpshooter`, which owns the ability.
Turrets                                refused by name (:mod:`solver.engine.features`): the book gives no Turret
                                       initiative, strength or attack edges.

The rules that act between battles (``closed``, ``fatal``, ``bars-*``, ``sinks-tough``, ``push-kills``,
``tight``, ``dismal-move``, the Control Panel's turning of Turrets) live in :mod:`solver.abilities.terrain_turn`.
"""

from __future__ import annotations

from dataclasses import replace
from functools import lru_cache
from typing import TYPE_CHECKING, Any, Callable, Iterable, Mapping

from ..errors import RuleNotImplemented
from ..expansion import TerrainElement
from ..engine.fight import Hit, Strike
from ..hexes import Direction, Hex
from ..terrain import Feature, terrain_set
from ..engine.points import Ability

if TYPE_CHECKING:  # pragma: no cover
    from ..engine.battle import Fight
    from ..engine.effects import Bonus
    from ..position import Unit

#: Wounds that kill any unit (a drowning): more than any toughness a unit can have.
KILL = 99


@lru_cache(maxsize=256)
def features_at(terrain: tuple[TerrainElement, ...]) -> dict[Hex, tuple[int, TerrainElement, tuple[Feature, ...]]]:
    """Every terrain hex: the index of its element, the element, and its features as data."""
    data = terrain_set()
    found = {}
    for index, element in enumerate(terrain):
        names = element.features + tuple(f for f in data.compulsory.get(element.type, ()) if f not in element.features)
        features = tuple(data.features[name] for name in names)
        for hex_ in element.hexes:
            found[hex_] = (index, element, features)
    return found


def rule_at(terrain: tuple[TerrainElement, ...], hex_: Hex, rule: str, unit: Unit | None = None) -> Feature | None:
    """The feature of ``hex_`` made of ``rule`` that applies to ``unit`` (``except-hq`` spares HQs), if any."""
    entry = features_at(terrain).get(hex_)
    if entry is None:
        return None
    for feature in entry[2]:
        if feature.has(rule) and not (unit is not None and unit.is_hq and feature.has("except-hq")):
            return feature
    return None


def spares_foundations(terrain: tuple[TerrainElement, ...], hexes: Iterable[Hex]) -> frozenset[Hex]:
    """Those of ``hexes`` where an Instant tile's attack does nothing, to a foundation as to a unit (B13 SCENARIO
    4, Bunker Hidden: "Bunker hexes are not affected by Instant Attacks"; RULINGS 44, Thick: "instants do nothing
    there"): the families that destroy foundations by instants (Mines, Roots, Small Bomb) leave them there."""
    if not terrain:
        return frozenset()
    return frozenset(h for h in hexes if rule_at(terrain, h, "instant-proof") is not None)


def element_of(terrain: tuple[TerrainElement, ...], hex_: Hex) -> TerrainElement | None:
    entry = features_at(terrain).get(hex_)
    return entry[1] if entry else None


class Terrain(Ability):
    order = 50  # the ground acts before the tiles standing on it
    position_features = frozenset({"terrain", "turrets"})

    # --- toughness (Fortress) ---
    def boost(self, fight: Fight, bonuses: dict[Hex, Bonus]) -> None:
        from ..engine.effects import Bonus

        terrain = fight.position.terrain
        for hex_, unit in fight.units.items():
            feature = rule_at(terrain, hex_, "toughness", unit)
            if feature is not None:
                bonuses.setdefault(hex_, Bonus()).toughness += feature.value("toughness")

    # --- initiative 0: Poisonous, Radioactive, Whirlpool, Defense Systems ---
    def phase_hits(self, fight: Fight, phase: int) -> list[Hit]:
        if phase != 0:
            return []
        terrain = fight.position.terrain
        hits = []
        for hex_, unit in fight.units.items():
            feature = rule_at(terrain, hex_, "wound-at-0", unit)
            if feature is not None:
                hits.append(Hit(None, hex_, feature.value("wound-at-0"), "terrain", feature.passage))
            feature = rule_at(terrain, hex_, "kill-at-0", unit)
            if feature is not None:
                hits.append(Hit(None, hex_, KILL, "drowning", feature.passage))
        for index, element in enumerate(terrain):
            for feature in features_at(terrain)[element.hexes[0]][2]:
                if not feature.has("defense-at-0"):
                    continue
                near = {n for h in element.hexes for _, n in fight.board.neighbours(h)} - set(element.hexes)
                for hex_ in sorted(near):
                    neighbour = fight.units.get(hex_)
                    if neighbour is None or neighbour.is_hq or rule_at(terrain, hex_, "control-panel"):
                        continue
                    # one attack of the element (RULINGS 46); its source is the element's first hex
                    hits.append(Hit(element.hexes[0], hex_, feature.value("defense-at-0"), "terrain",
                                    feature.passage))
        return hits

    # --- Rocky, Deep: any wound kills ---
    def after_damage(self, fight: Fight, phase: int | None, damage: Mapping[Hex, int], removed: set[Hex]) -> None:
        terrain = fight.position.terrain
        for hex_, wounds in damage.items():
            unit = fight.units.get(hex_)
            if wounds > 0 and unit is not None and hex_ not in removed:
                feature = rule_at(terrain, hex_, "wound-kills", unit)
                if feature is not None:
                    removed.add(hex_)
                    if fight.tracing:
                        fight.note(phase, "death", f"{unit.tile.key} on {hex_} is wounded there and dies",
                                   feature.passage)

    # --- lines of fire: High, Thick, Warehouses ---
    def shot_meets(self, fight: Fight, shooter: Unit, hex_: Hex, direction: Direction, strength: int,
                   phase: int, go_on: Callable[[Hex, Direction], list[Hit]] | None = None) -> list[Hit] | None:
        terrain = fight.position.terrain
        if hex_ not in features_at(terrain):
            return None
        target = fight.units.get(hex_)
        enemy = target is not None and fight.enemies(shooter, target)
        if enemy and target is not None and shooter.hex.distance(hex_) > 1:
            feature = rule_at(terrain, hex_, "adjacent-attacks-only", target)
            if feature is not None:
                if fight.tracing:
                    fight.note(phase, "terrain", f"the shot of {shooter.tile.key} on {shooter.hex} is spent on "
                               f"{target.tile.key} in {hex_} without effect", feature.passage)
                return []
        if target is None and rule_at(terrain, hex_, "prize") and _may_damage(fight, shooter, hex_):
            _wound_warehouse(fight, shooter, hex_, strength, phase)
            return []
        if enemy:
            return None  # a unit on a High hex can itself be shot (RULINGS 45)
        feature = rule_at(terrain, hex_, "blocks-fire")
        if feature is not None:
            if fight.tracing:
                fight.note(phase, "terrain", f"the shot of {shooter.tile.key} on {shooter.hex} stops at {hex_}",
                           feature.passage)
            return []
        return None

    # --- melee on Warehouses ---
    def strikes(self, fight: Fight, unit: Unit, phase: int, bonus: Bonus | None,
                strikes: list[Strike]) -> list[Strike]:
        terrain = fight.position.terrain
        for strike in strikes:
            if strike.kind != "melee":
                continue
            hex_ = unit.hex.neighbour(strike.direction)
            if rule_at(terrain, hex_, "prize") and hex_ not in fight.units and _may_damage(fight, unit, hex_):
                _wound_warehouse(fight, unit, hex_, strike.strength, phase)
        return strikes

    # --- the Control Panel ---
    def act(self, fight: Fight, unit: Unit, phase: int, bonus: Bonus | None) -> list[Hit] | None:
        feature = rule_at(fight.position.terrain, unit.hex, "control-panel")
        if feature is None:
            return None
        if fight.tracing:
            fight.note(phase, "terrain", f"{unit.tile.key} on {unit.hex} controls the Control Panel and does not "
                       "act", feature.passage)
        return []

    # --- Instant tiles: Thick, Hidden ---
    def instant_hits(self, fight: Fight, hits: list[Hit]) -> list[Hit]:
        terrain = fight.position.terrain
        return [h for h in hits if rule_at(terrain, h.target, "instant-proof", fight.units.get(h.target)) is None]

    # --- Warehouses broken open ---
    def phase_end(self, fight: Fight, phase: int, removed: set[Hex]) -> None:
        dealt = _memo(fight, "warehouse-wounds")
        fight.memo.pop("warehouse-wounds", None)
        if not dealt:
            return
        state = _warehouses(fight)
        for hex_, by_army in sorted(dealt.items()):
            wounds, prizes = state[hex_]
            strength = element_of(fight.position.terrain, hex_).strength  # type: ignore[union-attr]
            if strength is None:
                raise RuleNotImplemented(f"a Warehouse without a strength (B13 WAREHOUSE, PRIZE: 'as specified "
                                         f"in the scenario'; {hex_.label})")
            if wounds >= strength:
                continue  # already broken open
            total = wounds + sum(by_army.values())
            if total >= strength:
                total = strength
                if len(by_army) == 1:
                    army = next(iter(by_army))
                    _memo(fight, "prizes-gained").setdefault(army, []).extend(prizes)
                    if fight.tracing:
                        fight.note(phase, "warehouse", f"{army} breaks open the Warehouse on {hex_} and takes "
                                   f"{', '.join(prizes) or 'nothing'}", "B13 WAREHOUSE, PRIZE")
                elif fight.tracing:
                    fight.note(phase, "warehouse", f"{' and '.join(sorted(by_army))} break open the Warehouse on "
                               f"{hex_} at once: its Prize markers are destroyed", "B13 WAREHOUSE, PRIZE")
                state[hex_] = (total, ())
            else:
                state[hex_] = (total, prizes)

    def battle_end(self, fight: Fight) -> None:
        state = _memo(fight, "warehouses")
        gained = _memo(fight, "prizes-gained")
        if not state and not gained:
            return
        position = fight.position
        terrain = []
        for element in position.terrain:
            if state and any(h in state for h in element.hexes):
                # The wounds and markers of a Warehouse line apply to all its hexes (NOTATION §10.3): hexes
                # that now differ are written as lines of their own.
                groups: dict[tuple[int, tuple[str, ...]], list[Hex]] = {}
                for h in element.hexes:
                    groups.setdefault(state.get(h, (element.wounds, element.prizes)), []).append(h)
                for (wounds, prizes), hexes in groups.items():
                    terrain.append(replace(element, hexes=tuple(hexes), wounds=wounds, prizes=prizes))
            else:
                terrain.append(element)
        held: dict[str, list[str]] = {army: list(prizes) for army, prizes in position.held_prizes}
        for army, prizes in gained.items():
            held.setdefault(army, []).extend(prizes)
        fight.position = replace(position, terrain=tuple(terrain),
                                 held_prizes=tuple((a, tuple(p)) for a, p in held.items() if p))


def _may_damage(fight: Fight, unit: Unit, hex_: Hex) -> bool:
    """Whether ``unit`` wounds the Warehouse on ``hex_``: ``damaged-by`` names the armies that may. By option
    ``warehouse-damaged-by`` (default ``army``) a unit of another army under a named army's command may not: B13
    SCENARIO 4: "Only New York can damage the Warehouse (Outpost units may not)"."""
    element = element_of(fight.position.terrain, hex_)
    if element is None or not element.damaged_by:
        return element is not None
    side = fight.side(unit)
    if fight.rules.option("warehouse-damaged-by") == "army":
        return side in element.damaged_by and unit.tile.army in element.damaged_by
    return side in element.damaged_by


def _memo(fight: Fight, key: str) -> dict[Any, Any]:
    """This family's bookkeeping for the battle (``fight.memo``): warehouse wounds dealt in the current phase
    (hex -> army -> wounds), the Warehouses' state (hex -> (wounds, prizes)), Prize markers gained (army ->
    names)."""
    found = fight.memo.get(key)
    if not isinstance(found, dict):
        found = {}
        fight.memo[key] = found
    return found


def _warehouses(fight: Fight) -> dict[Hex, tuple[int, tuple[str, ...]]]:
    """The wounds and Prize markers of every Warehouse hex during this battle."""
    state = _memo(fight, "warehouses")
    if not state:
        state.update({h: (e.wounds, e.prizes) for e in fight.position.terrain if "prize" in e.features
                      for h in e.hexes})
    return state


def _wound_warehouse(fight: Fight, unit: Unit, hex_: Hex, strength: int, phase: int) -> None:
    """An attack of ``unit`` wounds the Warehouse hex; the wounds land with the phase's others (B13 WAREHOUSE,
    PRIZE: "each wound given to a particular Warehouse hex should be marked")."""
    if strength <= 0:
        return
    by_army = _memo(fight, "warehouse-wounds").setdefault(hex_, {})
    army = fight.side(unit)
    by_army[army] = by_army.get(army, 0) + strength
    if fight.tracing:
        fight.note(phase, "warehouse", f"{unit.tile.key} on {unit.hex} hits the Warehouse on {hex_} for {strength}",
                   "B13 WAREHOUSE, PRIZE")
