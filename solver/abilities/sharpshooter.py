"""The Sharpshooter ability: a shot that chooses which enemy unit on its line of fire it hits. New York's
Sharpshooter has it printed; a Watchtower gives it to any unit standing there with a ranged attack.

B13 DESCRIPTION OF NEW ICONS, Sharpshooter: "A Sharpshooter can choose which enemy unit in the line of fire it
shoots. (It does not need to be the first enemy unit.) The armor of the unit being shot at works normally
against the shot." RULINGS 32: any enemy on the line, an HQ included (3E UNIT TILES: an HQ is a unit tile).

B13 HILL, WATCHTOWER: "A shooting unit on a Watchtower with any ranged attack gains Sharpshooter ability - as long
as it stays on the Hill." The terrain data names the rule (``feature watchtower ...: sharpshooter`` in
``solver/terrain/babel13.terrain``); this family plays it, so the family is present wherever the position has
terrain. Units do not move during a battle, so "as long as it stays" is the hex it stands on now. Readings:

* every plain ranged attack of the unit chooses its target (the unit's melee edges act as usual);
* the Shotgun's blast ("Like most shooters, the shotgun hits the first enemy unit in the line of fire", B13 NEW
  YORK) and the Rocket ("The first enemy it hits") choose their enemy too, as "any ranged attack" says; rule option
  ``watchtower-specials=first`` keeps them hitting the first enemy (their modules, shotgun.py and rocket.py,
  ask :func:`sharpshoots`);
* a Gauss beam already wounds every enemy on its line: there is nothing to choose.

A player choice of the battle, asked of the shooter's controller for each of its ranged attacks and enumerated
like the Medics' choices (:func:`solver.engine.battle.battle_tree`). The shot keeps its bonuses (Officer II). A family
that stops a shot on the way (the point ``shot_meets``: High ground, Thick Forest, a Warehouse, a redirector) ends
the line of choice there; the hex where it ends is a target of its own when something is there (an enemy, a
Warehouse the shot wounds, a redirector turning it). The line is first looked along with nothing kept (a family
may record what a shot does where it ends, such as a Warehouse's wounds), then the chosen shot is flown for real.
"""

from __future__ import annotations

import copy
from typing import TYPE_CHECKING, Callable, TypeVar

from ..engine.fight import Hit
from ..hexes import Direction, Hex
from ..terrain import Feature
from ..engine.points import Ability
from .terrain import rule_at

if TYPE_CHECKING:  # pragma: no cover
    from ..engine.battle import Fight
    from ..engine.effects import Bonus
    from ..position import Unit

RULE = "B13 DESCRIPTION OF NEW ICONS, Sharpshooter; RULINGS 32"
T = TypeVar("T")


class Sharpshooter(Ability):
    tile_abilities = frozenset({"sharpshooter"})
    #: The Watchtower gives the ability: present wherever there is terrain (B13 HILL, WATCHTOWER).
    position_features = frozenset({"terrain"})

    def act(self, fight: Fight, unit: Unit, phase: int, bonus: Bonus | None) -> list[Hit] | None:
        rule = sharpshoots(fight, unit)
        if rule is None or not any(edge.ranged for edge in unit.tile.edges or ()):
            return None  # the Shotgun and the Rocket ask sharpshoots() themselves, at their own point
        strikes = fight.strikes_of(unit, bonus)
        for ability in fight.points.strikes:
            strikes = ability.strikes(fight, unit, phase, bonus, strikes)
        hits: list[Hit] = []
        for strike in strikes:
            if strike.kind == "melee":
                hit = fight.melee(unit, strike.direction, strike.strength, phase)
                struck = [hit] if hit else []
            else:
                strength = strike.strength
                struck = aim(fight, unit, strike.direction, phase, lambda distance: strength, "ranged", rule)
            for hit in struck:
                if fight.tracing and strike.how:
                    hit.note = "; ".join(filter(None, (" + ".join(strike.how), hit.note)))
                hits.append(hit)
        edges = unit.oriented.edges
        for d in unit.oriented.attacks:
            if edges[d].special:
                for ability in fight.points.edge_hits:
                    hits += ability.edge_hits(fight, unit, d, edges[d], bonus, phase)
        return hits


def sharpshoots(fight: Fight, unit: Unit) -> str | None:
    """The rule that gives ``unit`` the Sharpshooter ability now (its tile, or the Watchtower it stands on), or
    None."""
    if "sharpshooter" in unit.tile.abilities:
        return RULE
    terrain = fight.position.terrain
    if terrain:
        feature: Feature | None = rule_at(terrain, unit.hex, "sharpshooter", unit)
        if feature is not None:
            return f"{feature.passage}; {RULE}"
    return None


def aim(fight: Fight, shooter: Unit, direction: Direction, phase: int, strength_at: Callable[[int], int],
        kind: str, rule: str) -> list[Hit]:
    """The hits of a Sharpshooter's shot along ``direction``: its controller chooses the target among the enemies
    on the line (and the hex where a family stops the shot, when something is there); ``strength_at(distance)``
    is the shot's strength at that many hexes (the Shotgun's falls off). Armor works normally."""
    line = list(fight.board.line_of_fire(shooter.hex, direction))
    look = lambda: _targets(fight, shooter, direction, phase, strength_at, line)  # noqa: E731
    options = dry(fight, look) if fight.points.shot_meets else look()
    if not options:
        return []
    labels = []
    for distance, hex_ in options:
        target = fight.units.get(hex_)
        labels.append(f"shoots {target.tile.key} on {hex_}" if target is not None and fight.enemies(shooter, target)
                      else f"shot ends on {hex_}")
    answer = fight.choose(fight.side(shooter), f"{shooter.tile.key} on {shooter.hex} in phase {phase}", labels)
    if fight.tracing:
        fight.note(phase, "sharpshooter", f"{shooter.tile.key} on {shooter.hex} {labels[answer]}", rule)
    chosen = options[answer][0]
    # fly the chosen shot for real: the hexes before the target let it pass, as they did when looking
    for distance, hex_ in enumerate(line[:chosen], start=1):
        strength = strength_at(distance)
        for ability in fight.points.shot_meets:
            fate = ability.shot_meets(fight, shooter, hex_, direction, strength, phase)
            if fate is not None:
                return fate
        if distance == chosen:
            return _hit(fight, shooter, hex_, direction, strength, kind)
    return []  # pragma: no cover - the chosen distance is on the line


def _targets(fight: Fight, shooter: Unit, direction: Direction, phase: int, strength_at: Callable[[int], int],
             line: list[Hex]) -> list[tuple[int, Hex]]:
    """``(distance, hex)`` of every target the shot may choose, in the order of the line."""
    found: list[tuple[int, Hex]] = []
    before = copy.deepcopy(fight.memo)  # a family records only where it stops a shot
    for distance, hex_ in enumerate(line, start=1):
        target = fight.units.get(hex_)
        enemy = target is not None and fight.enemies(shooter, target)
        for ability in fight.points.shot_meets:
            fate = ability.shot_meets(fight, shooter, hex_, direction, strength_at(distance), phase)
            if fate is not None:
                if enemy or fate or fight.memo != before:  # something is there for the shot to end on
                    found.append((distance, hex_))
                return found
        if enemy and not (shooter.is_hq and target is not None and target.is_hq):
            found.append((distance, hex_))
        if enemy and not flies_past(fight, hex_):
            break
    return found


def flies_past(fight: Fight, hex_: Hex) -> bool:
    """Whether a shot that chooses its target may fly on past the enemy on ``hex_``: not off High ground, which
    blocks the line even with an enemy on it (B13 FOREST, HIGH: "hiding units which are on the other side ... High
    forest even protects against the Sharpshooter"; RULINGS 45: the unit on it can itself be shot)."""
    terrain = fight.position.terrain
    return not (terrain and rule_at(terrain, hex_, "blocks-fire") is not None)


def _hit(fight: Fight, shooter: Unit, hex_: Hex, direction: Direction, strength: int, kind: str) -> list[Hit]:
    target = fight.units[hex_]
    armor = 1 if target.oriented.edges[direction.opposite].armor else 0
    wounds = strength - armor
    if wounds <= 0:
        return []
    return [Hit(shooter.hex, hex_, wounds, kind, "armor −1" if armor else "", direction)]


def dry(fight: Fight, look: Callable[[], T]) -> T:
    """``look()`` with everything the families record during it undone: their bookkeeping, the trace."""
    memo, reports = copy.deepcopy(fight.memo), dict(fight.reports)
    log = fight.state.log
    told = len(log) if log is not None else 0
    try:
        return look()
    finally:
        fight.memo, fight.reports = memo, reports
        if log is not None:
            del log[told:]
