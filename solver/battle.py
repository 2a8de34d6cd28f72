"""The battle: initiative phases from the highest down to 0, every unit of a phase acting at once.

3E BATTLE: "players' units of the same Initiative act simultaneously"; "destroyed units remain on the board
until the end of the Initiative phase in which they were destroyed" and keep their effects until then; HQ
damage is marked at the end of the phase. This module reads nets and module bonuses from
:mod:`solver.effects` at the start of every phase and never computes them itself.

Glossary (see also :mod:`solver.hexes`):

slot
    One printed initiative of a unit (a Stormtrooper has two). Its current value is the printed value moved
    by the unit's current modifiers, never below 0, recomputed at the start of every phase. A unit acts in
    phase p with an unused slot whose current value is p; a used slot never acts again (RULINGS 5).
extra slot
    The additional action an Outpost HQ or a Mother Module gives: one more slot at the unit's lowest current
    initiative − 1, lost below 0 (RULINGS 6).
attack
    For a Medic, everything one unit deals to one target in one phase (RULINGS 3).
choice
    Where the rules let a player decide (which attack a Medic absorbs, whether the Clown explodes, a
    Quartermaster's conversion), the battle asks an oracle. :func:`battle_tree` explores every answer, so
    :func:`resolve` can report every distinct end state and the solver can play the choices out.
"""

from __future__ import annotations

from dataclasses import dataclass, field, replace
from functools import lru_cache
from typing import Callable, Iterable, Sequence

from . import effects
from .effects import Bonus, edges_of
from .errors import RuleNotImplemented
from .features import refuse
from .hexes import DIRECTIONS, Direction, Hex, around
from .position import Position, Unit
from .tiles import Kind, Tile
from .rules import RuleSet

# --- results ----------------------------------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class Event:
    """One line of a battle's trace: what happened, in which phase, and the rule behind it."""

    phase: int | None
    kind: str
    text: str
    rule: str = ""

    def __str__(self) -> str:
        return self.text + (f"  [{self.rule}]" if self.rule else "")


@dataclass(frozen=True)
class Outcome:
    """One end state of a battle.

    ``position`` is the board after it (dead units and destroyed HQs removed, wounds and HQ health marked);
    ``hq`` the health of every HQ that stood when the battle began (0 when destroyed); ``choices`` the
    decisions that lead here; ``trace`` the events, when asked for.
    """

    position: Position
    hq: dict[str, int]
    choices: tuple[str, ...] = ()
    trace: tuple[Event, ...] = ()

    @property
    def key(self) -> tuple:
        return (self.position.units, tuple(sorted(self.hq.items())))


@dataclass(frozen=True)
class Choice:
    """A decision of ``army`` during the battle; ``branches`` pairs each answer with what follows."""

    army: str
    question: str
    branches: tuple[tuple[str, Node], ...]


@dataclass(frozen=True)
class Leaf:
    outcome: Outcome


Node = Choice | Leaf


class _NeedChoice(Exception):
    def __init__(self, army: str, question: str, options: Sequence[str]) -> None:
        self.army, self.question, self.options = army, question, tuple(options)


# --- the oracle: scripted answers, so that every combination of choices can be replayed ---------------------


class _Script:
    """Answers choices from a fixed list; asking beyond it raises :class:`_NeedChoice`."""

    def __init__(self, answers: Sequence[int]) -> None:
        self.answers = answers
        self.asked = 0
        self.made: list[str] = []

    def choose(self, army: str, question: str, options: Sequence[str]) -> int:
        if len(options) == 1:
            return 0
        if self.asked >= len(self.answers):
            raise _NeedChoice(army, question, options)
        answer = self.answers[self.asked]
        self.asked += 1
        self.made.append(f"{army}: {question}: {options[answer]}")
        return answer


# --- the fight -----------------------------------------------------------------------------------------------------

#: One attack, whose wounds a Medic absorbs together: ``(source, target)``; the source is None for an instant tile.
_Attack = tuple[Hex | None, Hex]


@dataclass(slots=True)
class _Hit:
    source: Hex | None  # None: an instant tile, whose hits are each an attack of their own
    target: Hex
    wounds: int
    kind: str  # melee, ranged, gauss, blast, instant
    note: str = ""


@dataclass(slots=True)
class _State:
    """The mutable bookkeeping of one battle run; never leaves this module."""

    units: dict[Hex, Unit]
    used: dict[Hex, set] = field(default_factory=dict)
    converted: set[Hex] = field(default_factory=set)
    log: list[Event] | None = None


def _slot_values(unit: Unit, bonus: Bonus | None) -> list[tuple[object, int]]:
    """Current value of each of the unit's slots, extra slots included (RULINGS 5, 6)."""
    printed = unit.tile.initiative
    if not printed:
        return []
    shift = bonus.initiative if bonus else 0
    slots: list[tuple[object, int]] = [(i, max(0, value + shift)) for i, value in enumerate(printed)]
    if bonus and bonus.extra_actions:
        lowest = min(v for _, v in slots)
        for k in range(1, bonus.extra_actions + 1):
            if lowest - k >= 0:
                slots.append((("extra", k), lowest - k))
    return slots


#: Abilities and edge icons of the expansion armies whose battle rules nhex does not implement yet. A battle
#: with such a unit on the board refuses to run rather than fight without them.
_MISSING_ABILITIES = {
    "venom": "venom (Neojungle Nightshade, Babel 13)",
    "sharpshooter": "the Sharpshooter's choice of target (Babel 13)",
    "spy": "spies (New York, Babel 13)",
    "shotgun": "the Shotgun (New York, Babel 13)",
    "rocket": "the Rocket Launcher (New York, Babel 13)",
    "push": "the Pusher (New York, Babel 13)",
    "regenerate": "regeneration (Smart Bio-droid, Duel)",
    "redirect": "redirection (Doomsday Machine)",
    "trap": "the Trap (Doomsday Machine)",
}


@lru_cache(maxsize=None)
def _missing_rule(tile: Tile) -> str | None:
    return next((_MISSING_ABILITIES[a] for a in sorted(tile.abilities) if a in _MISSING_ABILITIES), None)


def _refuse_missing_rules(position: Position) -> None:
    refuse(position, battle=True)  # NOTATION §10 features the battle does not play yet
    for unit in position.units:
        missing = _missing_rule(unit.tile)
        if missing is not None:
            raise RuleNotImplemented(f"{missing} ({unit.tile.key} on {unit.hex})")
    if position.foundations:
        raise RuleNotImplemented(f"foundations in battle ({position.foundations[0].tile.key}, Babel 13)")


class _Battle:
    def __init__(self, position: Position, oracle: _Script, trace: bool) -> None:
        _refuse_missing_rules(position)
        self.position = position
        self.rules: RuleSet = position.rules
        self.board = position.board
        self.oracle = oracle
        self.state = _State({u.hex: u for u in position.units}, log=[] if trace else None)
        self.tracing = trace

    # --- tracing ---
    def note(self, phase: int | None, kind: str, text: str, rule: str = "") -> None:
        assert self.state.log is not None  # a battle keeps a log when it is traced
        self.state.log.append(Event(phase, kind, text, rule))

    # --- the loop ---
    def run(self) -> Outcome:
        units = self.state.units
        hq_hexes = {u.army: h for h, u in units.items() if u.tile.kind is Kind.HQ}  # HQs do not move in battle
        nets = effects.netted(units)
        boni = effects.bonuses(units, nets, self.rules)
        slots = self.slots(boni)
        top = max((v for values in slots.values() for _, v in values), default=-1)
        changed = False
        for phase in range(top, -1, -1):
            if changed:  # nets, links and so initiatives change only when units leave the board
                nets = effects.netted(units)
                boni = effects.bonuses(units, nets, self.rules)
                slots = self.slots(boni)
                changed = False
            actors = self.actors(phase, nets, slots)
            if not actors:
                continue
            if self.tracing:
                self.note(phase, "phase", f"Initiative phase {phase}: " + ", ".join(
                    f"{u.tile.key} on {u.hex}" for u in actors), "3E BATTLE")
            hits: list[_Hit] = []
            removed: set[Hex] = set()
            for unit in actors:
                hits += self.act(unit, phase, boni.get(unit.hex), removed)
            self.land(hits, phase, nets, boni, removed)
            changed = bool(removed)
        hq = {army: (units[h].health if h in units else 0) for army, h in hq_hexes.items()}
        after = self.position.with_units_in_order(tuple(units.values()))
        return Outcome(after, hq, tuple(self.oracle.made), tuple(self.state.log or ()))

    def slots(self, boni: dict[Hex, Bonus]) -> dict[Hex, list[tuple[object, int]]]:
        """Every unit's slots with their current values (RULINGS 5, 6), for the phases until units next leave."""
        return {hex_: _slot_values(unit, boni.get(hex_)) for hex_, unit in self.state.units.items()
                if unit.tile.initiative}

    def actors(self, phase: int, nets: frozenset[Hex], slots: dict[Hex, list[tuple[object, int]]]) -> list[Unit]:
        acting = []
        units = self.state.units
        for hex_, values in slots.items():
            unit = units[hex_]
            used = self.state.used.get(hex_)
            for slot, value in values:
                if value == phase and not (used and slot in used):
                    if hex_ in nets:
                        if self.tracing:
                            self.note(phase, "netted", f"{unit.tile.key} on {hex_} is netted and does nothing",
                                      "3E NET")
                    else:
                        self.state.used.setdefault(hex_, set()).add(slot)
                        acting.append(unit)
                    break
        return acting

    # --- one unit's action ---
    def act(self, unit: Unit, phase: int, bonus: Bonus | None, removed: set[Hex]) -> list[_Hit]:
        if "explosion" in unit.tile.abilities and self.rules.enabled("clown-may-explode"):
            answer = self.oracle.choose(unit.army, f"{unit.tile.key} on {unit.hex} in phase {phase}",
                                        ("attacks", "explodes"))
            if answer == 1:
                return self.explode(unit, phase, removed)
        conversion = self.conversion(unit, phase, bonus) if bonus and bonus.quartermasters else None
        hits: list[_Hit] = []
        edges = edges_of(unit)
        melee_bonus = bonus.melee if bonus else 0
        ranged_bonus = bonus.ranged if bonus else 0
        for d in unit.oriented.attacks:
            edge = edges[d]
            melee, ranged = edge.melee, edge.ranged
            if conversion is not None and conversion[0] == d:
                if conversion[1] == "ranged":
                    ranged, melee = ranged + melee, 0
                else:
                    melee, ranged = melee + ranged, 0
                melee_extra = ranged_extra = melee_bonus + ranged_bonus
            else:
                melee_extra, ranged_extra = melee_bonus, ranged_bonus
            if melee:
                hit = self.melee(unit, d, melee + melee_extra, phase)
                if hit:
                    hits.append(hit)
            if ranged:
                hit = self.shot(unit, d, ranged + ranged_extra, phase)
                if hit:
                    hits.append(hit)
            if "gauss" in edge.special:
                hits += self.gauss(unit, d, ranged_bonus, phase)
        return hits

    def conversion(self, unit: Unit, phase: int, bonus: Bonus | None) -> tuple[Direction, str] | None:
        """A Quartermaster's optional melee⇄ranged conversion, once per battle per unit (RULINGS 9)."""
        if not bonus or not bonus.quartermasters or unit.hex in self.state.converted:
            return None
        edges = edges_of(unit)
        conversions: list[tuple[Direction, str]] = []
        for d in DIRECTIONS:
            if edges[d].melee:
                conversions.append((d, "ranged"))
            if edges[d].ranged:
                conversions.append((d, "melee"))
        options: list[tuple[Direction, str] | None] = [None, *conversions]
        labels = ["no conversion"] + [f"{d} {'melee to ranged' if kind == 'ranged' else 'ranged to melee'}"
                                      for d, kind in conversions]
        answer = self.oracle.choose(unit.army, f"Quartermaster for {unit.tile.key} on {unit.hex} in phase {phase}",
                                    labels)
        if answer:
            self.state.converted.add(unit.hex)
            if self.tracing:
                self.note(phase, "quartermaster", f"Quartermaster: {unit.tile.key} on {unit.hex} turns its {labels[answer]}",
                          "RULINGS 9; PL Kwatermistrz")
        return options[answer]

    def melee(self, unit: Unit, d: Direction, strength: int, phase: int) -> _Hit | None:
        target = self.state.units.get(around(unit.hex)[d])
        if target is None or target.army == unit.army or strength <= 0:
            return None
        if unit.tile.kind is Kind.HQ and target.tile.kind is Kind.HQ:
            if self.tracing:
                self.note(phase, "hq-vs-hq", f"{unit.tile.key} does not harm {target.tile.key}",
                          "3E THE HQs: an HQ never harms the other HQ")
            return None
        return _Hit(unit.hex, target.hex, strength, "melee")

    def shot(self, unit: Unit, d: Direction, strength: int, phase: int) -> _Hit | None:
        units = self.state.units
        for hex_ in self.board.line_of_fire(unit.hex, d):
            target = units.get(hex_)
            if target is None or target.army == unit.army:
                continue  # shots fly over friends (3E RANGED ATTACK)
            if unit.tile.kind is Kind.HQ and target.tile.kind is Kind.HQ:
                return None
            if target.oriented.edges[d.opposite].armor:
                strength -= 1
                if self.tracing:
                    self.note(phase, "armor", f"armor of {target.tile.key} on {hex_} stops 1 of the shot from {unit.hex}",
                              "3E ARMOR")
            return _Hit(unit.hex, hex_, strength, "ranged") if strength > 0 else None
        return None

    def gauss(self, unit: Unit, d: Direction, ranged_bonus: int, phase: int) -> list[_Hit]:
        """Every enemy on the line takes 1; armor saves only its own unit (RULINGS 11, 3E ARMOR)."""
        strength = 1 + (ranged_bonus if self.rules.enabled("gauss-boosted") else 0)
        hits = []
        for hex_ in self.board.line_of_fire(unit.hex, d):
            target = self.state.units.get(hex_)
            if target is None or not effects.are_enemies(unit, target):
                continue
            wounds = strength - (1 if edges_of(target)[d.opposite].armor else 0)
            if wounds > 0:
                hits.append(_Hit(unit.hex, hex_, wounds, "gauss"))
            else:
                if self.tracing:
                    self.note(phase, "armor", f"armor of {target.tile.key} on {hex_} stops the Gauss beam for itself",
                              "3E ARMOR")
        return hits

    def explode(self, unit: Unit, phase: int, removed: set[Hex]) -> list[_Hit]:
        """The Clown's blast: 1 wound to every adjacent unit, no bonuses, armor ignored (RULINGS 10)."""
        removed.add(unit.hex)
        if self.tracing:
            self.note(phase, "explosion", f"{unit.tile.key} on {unit.hex} explodes", "RULINGS 10; ES Payaso, PL Klaun")
        hits = []
        for d, hex_ in self.board.neighbours(unit.hex):
            target = self.state.units.get(hex_)
            if target is None or (target.is_hq and not self.rules.enabled("clown-hits-hq")):
                continue
            hits.append(_Hit(unit.hex, hex_, 1, "blast"))
        return hits

    # --- the end of a phase: wounds land together ---
    def land(self, hits: list[_Hit], phase: int | None, nets: frozenset[Hex], boni: dict[Hex, Bonus],
             removed: set[Hex]) -> None:
        units = self.state.units
        attacks: dict[_Attack, list[_Hit]] = {}
        for hit in hits:
            attacks.setdefault((hit.source, hit.target), []).append(hit)
            if self.tracing:
                self.note(phase, hit.kind, f"{_name(units, hit.source)} hits {_name(units, hit.target)} "
                              f"for {hit.wounds} ({hit.kind})", _RULE_OF_KIND[hit.kind])
        absorbed = self.medics(attacks, phase, nets, boni, removed) if _has_medics(boni) else set()
        damage: dict[Hex, int] = {}
        for key, group in attacks.items():
            if key not in absorbed:
                damage[key[1]] = damage.get(key[1], 0) + sum(h.wounds for h in group)
        for hex_, wounds in damage.items():
            unit = units[hex_]
            if hex_ in removed:
                continue  # an exploded Clown leaves the board whatever hits it
            if unit.is_hq:
                hp = max(0, unit.health - wounds)
                units[hex_] = replace(unit, hp=hp)
                if self.tracing:
                    self.note(phase, "hq", f"{unit.tile.key} loses {wounds}: health {hp}", "3E BATTLE: HQ damage at the end of the phase")
                if hp == 0:
                    removed.add(hex_)
                    if self.tracing:
                        self.note(phase, "destroyed", f"{unit.tile.key} is destroyed; the battle goes on", "3E VICTORY")
            else:
                bonus = boni.get(hex_)
                toughness = unit.tile.toughness + (bonus.toughness if bonus else 0)
                total = unit.wounds + wounds
                if total > toughness:
                    removed.add(hex_)
                    if self.tracing:
                        self.note(phase, "death", f"{unit.tile.key} on {hex_} dies", "3E TOUGHNESS")
                else:
                    units[hex_] = replace(unit, wounds=total)
                    if self.tracing:
                        self.note(phase, "wound", f"{unit.tile.key} on {hex_} has {total} wound{'s' if total > 1 else ''}",
                                  "3E TOUGHNESS")
        for hex_ in removed:
            units.pop(hex_, None)
            self.state.used.pop(hex_, None)

    def medics(self, attacks: dict[_Attack, list[_Hit]], phase: int | None, nets: frozenset[Hex],
               boni: dict[Hex, Bonus], removed: set[Hex]) -> set[_Attack]:
        """Which attacks the Medics absorb, and which Medics are discarded for it (3E USING MEDICS; RULINGS 4).

        Medics are mandatory, so every Medic that can absorb an attack does; which Medic takes which attack is its
        owner's choice ("its owner decides which attack is absorbed"; "the controlling player chooses which
        Medic"): the owner picks one of the maximal assignments of Medics to attacks.
        """
        units = self.state.units
        hit = {target for (_, target) in attacks}
        usable = {m for b in boni.values() for m in b.medics if m not in nets and m not in hit and m not in removed}
        if not usable:
            return set()
        pairs = [(medic, key) for medic in sorted(usable) for key in sorted(attacks, key=_attack_order)
                 if medic in _medics_of(boni, key[1]) and self.absorbable(key, attacks)]
        absorbed: set[_Attack] = set()
        for owner in sorted({units[m].army for m, _ in pairs}):
            options = _maximal_assignments([p for p in pairs if units[p[0]].army == owner])
            labels = ["; ".join(f"Medic on {m} absorbs {_name(units, k[0])} → {_name(units, k[1])}" for m, k in option)
                      for option in options]
            chosen = options[self.oracle.choose(owner, "Medics", labels)]
            busy = {m for m, _ in chosen}
            spent: set[Hex] = set()
            for medic, key in chosen:
                absorbed.add(key)
                discarded = self.discarded_medic(medic, (usable - spent - busy) | {medic}, boni, set(), owner)
                spent.add(discarded)
                removed.add(discarded)
                if self.tracing:
                    self.note(phase, "medic", f"Medic on {medic} absorbs {_name(units, key[0])} → "
                              f"{_name(units, key[1])}; the Medic on {discarded} is discarded", "3E USING MEDICS")
        return absorbed

    def absorbable(self, key: _Attack, attacks: dict[_Attack, list[_Hit]]) -> bool:
        if any(h.kind == "blast" for h in attacks[key]):
            return self.rules.enabled("medic-saves-from-clown")
        return True

    def discarded_medic(self, medic: Hex, usable: set[Hex], boni: dict[Hex, Bonus], seen: set[Hex], owner: str) -> Hex:
        """A Medic fed by another Medic passes the loss on (3E: 'absorbed by the latter'); interconnected ones:
        the owner picks."""
        seen = seen | {medic}
        feeders = [m for m in _medics_of(boni, medic) if m in usable and m not in seen]
        if not feeders:
            return medic
        candidates = []
        for feeder in sorted(feeders):
            if medic in _medics_of(boni, feeder):  # interconnected: either may go
                candidates.append(medic)
            candidates.append(self.discarded_medic(feeder, usable, boni, seen, owner))
        candidates = sorted(set(candidates))
        answer = self.oracle.choose(owner, f"which Medic is discarded for {medic}", [str(c) for c in candidates])
        return candidates[answer]


_RULE_OF_KIND = {
    "melee": "3E MELEE ATTACK",
    "ranged": "3E RANGED ATTACK",
    "gauss": "RULINGS 11; ES Cañón Gauss",
    "blast": "RULINGS 10; ES Payaso",
    "instant": "3E INSTANT ACTION TILES",
}


def _has_medics(boni: dict[Hex, Bonus]) -> bool:
    for bonus in boni.values():
        if bonus.medics:
            return True
    return False


def _attack_order(key: _Attack) -> tuple:
    source, target = key
    return (source is not None, source or target, target)


def _maximal_assignments(pairs: list[tuple[Hex, tuple]]) -> list[tuple[tuple[Hex, tuple], ...]]:
    """Every way to give Medics distinct attacks to absorb such that no idle Medic could still absorb one."""
    medics = sorted({m for m, _ in pairs})
    found: set[tuple] = set()

    def assign(i: int, taken: frozenset, chosen: tuple) -> None:
        if i == len(medics):
            matched = {m for m, _ in chosen}
            if all(m in matched or key in taken for m, key in pairs):
                found.add(tuple(sorted(chosen, key=lambda item: (item[0], _attack_order(item[1])))))
            return
        medic = medics[i]
        for m, key in pairs:
            if m == medic and key not in taken:
                assign(i + 1, taken | {key}, chosen + ((m, key),))
        assign(i + 1, taken, chosen)

    assign(0, frozenset(), ())
    return sorted(found, key=lambda option: [(m, _attack_order(k)) for m, k in option])


def _medics_of(boni: dict[Hex, Bonus], hex_: Hex) -> list[Hex]:
    bonus = boni.get(hex_)
    return bonus.medics if bonus else []


def _name(units: dict[Hex, Unit], hex_: Hex | None) -> str:
    if hex_ is None:
        return "the instant tile"
    unit = units.get(hex_)
    return f"{unit.tile.key} on {hex_}" if unit else str(hex_)


# --- the public functions ------------------------------------------------------------------------------------------


def _explore(run: Callable[[_Script], Outcome]) -> Node:
    def node(prefix: tuple[int, ...]) -> Node:
        script = _Script(prefix)
        try:
            return Leaf(run(script))
        except _NeedChoice as need:
            return Choice(need.army, need.question,
                          tuple((label, node(prefix + (i,))) for i, label in enumerate(need.options)))

    return node(())


def battle_tree(position: Position, *, trace: bool = False) -> Node:
    """The battle as a tree of the players' choices, each leaf one end state."""
    return _explore(lambda script: _Battle(position, script, trace).run())


def leaves(node: Node) -> Iterable[Outcome]:
    if isinstance(node, Leaf):
        yield node.outcome
    else:
        for _, branch in node.branches:
            yield from leaves(branch)


def resolve(position: Position, *, trace: bool = False) -> tuple[Outcome, ...]:
    """Every distinct end state of a battle on ``position`` (one when nobody has a choice)."""
    tree = battle_tree(position, trace=trace)
    if isinstance(tree, Leaf):
        return (tree.outcome,)
    distinct: dict[tuple, Outcome] = {}
    for outcome in leaves(tree):
        distinct.setdefault(outcome.key, outcome)
    return tuple(distinct.values())


def wound(position: Position, hits: Sequence[tuple[Hex, int]], cause: str) -> tuple[tuple[tuple[str, ...], Position], ...]:
    """Wounds dealt at one moment outside a battle (Sniper, Grenade, Air Strike), each hit a separate attack.

    3E MEDIC: a Medic absorbs the wounds "from an attack of 1 enemy unit (or Sniper, Grenade or any other
    Instant Action tile)". Returns every distinct result with the choices that lead to it.
    """

    def run(script: _Script) -> Outcome:
        fight = _Battle(position, script, trace=False)
        units = fight.state.units
        nets = effects.netted(units)
        boni = effects.bonuses(units, nets, position.rules)
        fight.land([_Hit(None, target, wounds, "instant", cause) for target, wounds in hits], None, nets, boni, set())
        return Outcome(replace(position, units=tuple(units.values())), {}, tuple(script.made))

    results: dict[tuple, tuple[tuple[str, ...], Position]] = {}
    for outcome in leaves(_explore(run)):
        results.setdefault(outcome.position.units, (outcome.choices, outcome.position))
    return tuple(results.values())
