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
from itertools import product
from typing import Callable, Iterable, Sequence

from . import abilities, effects, explain
from .effects import Bonus, edges_of
from .errors import RuleNotImplemented
from .features import refuse
from .fight import Attack, Event, Hit, Strike
from .hexes import DIRECTIONS, Direction, Hex, around
from .position import Position, Unit
from .tiles import Kind
from .rules import RuleSet

# --- results ----------------------------------------------------------------------------------------------------


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
    #: What the ability families report beside the board, sorted by name (``mad_bomber_goes_to``, NOTATION §10.8).
    reports: tuple[tuple[str, object], ...] = ()

    @property
    def key(self) -> tuple:
        return (self.position.units, tuple(sorted(self.hq.items())), self.position.scores, self.reports)


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

@dataclass(slots=True)
class _State:
    """The mutable bookkeeping of one battle run; never leaves this module and the abilities it hands it to."""

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


def _refuse_missing_rules(position: Position) -> None:
    refuse(position, battle=True)  # NOTATION §10 features the battle does not play yet
    for unit in position.units:
        missing = abilities.missing_rule(unit.tile)
        if missing is not None:
            raise RuleNotImplemented(f"{missing} ({unit.tile.key} on {unit.hex})")
    for foundation in position.foundations:
        # A foundation takes part in a battle only through the family that carries it (a Mine is inert).
        if not abilities.present(frozenset({foundation.tile})):
            raise RuleNotImplemented(f"foundations in battle ({foundation.tile.key}, Babel 13)")


class Fight:
    """One run of a battle, and the interface the ability families act through at the loop's points
    (:mod:`solver.abilities`): the units standing now, who controls them, the oracle for choices, the trace."""

    def __init__(self, position: Position, oracle: _Script, trace: bool) -> None:
        _refuse_missing_rules(position)
        self.position = position
        self.rules: RuleSet = position.rules
        self.board = position.board
        self.oracle = oracle
        self.state = _State({u.hex: u for u in position.units}, log=[] if trace else None)
        self.tracing = trace
        #: Traced battles only: every unit's bonuses with their sources, and the standing facts told so far.
        self.sources: dict[Hex, list[explain.Source]] = {}
        self.facts: dict[tuple, tuple[str, str, str]] = {}
        #: Traced battles only: the netted units of this phase, told under its heading.
        self.idle: list[Event] = []
        self.sides: effects.Sides = effects.NO_TAKEOVERS
        #: Whose modules help whom (differs from ``sides`` only in team matches; :mod:`solver.teams`).
        self.allies: effects.Sides = effects.NO_TAKEOVERS
        self.teams = position.teams
        #: Points scored in the score mode (3E DEATHMATCH WITH AN OPTIONAL SCORE RULE), by army.
        self.scores: dict[str, int] = dict(position.scores)
        #: Hexes leaving the board at the end of the current phase (an exploded unit, the dead).
        self.removed: set[Hex] = set()
        #: What the ability families remember during this run, each under its own key (a redirected shot's path).
        self.scratch: dict[object, object] = {}
        #: What they report with the outcome (:attr:`Outcome.reports`).
        self.reports: dict[str, object] = {}
        #: The attacks landing now, by (source, target, n), and those a Medic absorbed (read at after_damage).
        self.attacks: dict[Attack, list[Hit]] = {}
        self.absorbed: set[Attack] = set()
        #: Per-battle bookkeeping of the families, by family name (families themselves keep no state).
        self.memo: dict[str, object] = {}
        self.points = points = abilities.points_for(position)
        self._act = points.act
        self._strikes = points.strikes
        self._edge_hits = points.edge_hits
        self._shot_meets = points.shot_meets
        self._reactions = points.reactions
        self._hq_wounds = points.hq_wounds
        self._after_damage = points.after_damage
        self._phase_end = points.phase_end
        self._phase_hits = points.phase_hits
        self._battle_start = points.battle_start
        self._battle_end = points.battle_end

    # --- what the abilities read and do ---
    @property
    def units(self) -> dict[Hex, Unit]:
        return self.state.units

    @property
    def converted(self) -> set[Hex]:
        return self.state.converted

    def side(self, unit: Unit) -> str:
        """Who controls the unit now (a takeover moves control; RULINGS 17)."""
        return self.sides.get(unit.hex, unit.army)

    def enemies(self, a: Unit, b: Unit) -> bool:
        return self.sides.get(a.hex, a.army) != self.sides.get(b.hex, b.army)

    def choose(self, army: str, question: str, options: Sequence[str]) -> int:
        return self.oracle.choose(army, question, options)

    def removed_now(self, hex_: Hex) -> None:
        """The unit leaves the board at the end of this phase whatever hits it (it exploded)."""
        self.removed.add(hex_)

    def note(self, phase: int | None, kind: str, text: str, rule: str = "", how: str = "") -> None:
        assert self.state.log is not None  # a battle keeps a log when it is traced
        self.state.log.append(Event(phase, kind, text, rule, how))

    def read(self) -> effects.Reading:
        """Control, nets and links of the units standing now (:func:`effects.read`), plus what the position
        itself gives (the point ``boost``: terrain, Prize markers)."""
        reading = effects.read(self.state.units, self.rules, self.points, self.teams, self.position.foundations)
        for ability in self.points.boost:
            ability.boost(self, reading.bonuses)
        return reading

    # --- the loop ---
    def run(self) -> Outcome:
        units = self.state.units
        hq_hexes = {u.army: h for h, u in units.items() if u.tile.kind is Kind.HQ}  # HQs do not move in battle
        reading = self.read()
        self.sides, self.allies, nets, boni = reading.sides, reading.allies, reading.nets, reading.bonuses
        slots = self.slots(boni)
        if self.tracing:
            self.explain(reading, None)
        changed = False
        if self._battle_start:
            opening = [hit for ability in self._battle_start for hit in ability.battle_start(self)]
            if opening:
                self.removed = set()
                self.land(opening, None, nets, boni, self.removed)
                changed = bool(self.removed)
        top = max((v for values in slots.values() for _, v in values), default=-1)
        if self._phase_hits:
            top = max(top, 0)
        for phase in range(top, -1, -1):
            if changed:  # control, nets, links and so initiatives change only when units leave the board
                reading = self.read()
                self.sides, self.allies, nets, boni = reading.sides, reading.allies, reading.nets, reading.bonuses
                slots = self.slots(boni)
                changed = False
                if self.tracing:
                    self.explain(reading, phase)
            actors = self.actors(phase, nets, slots)
            hits: list[Hit] = []
            removed: set[Hex] = set()
            self.removed = removed
            for ability in self._phase_hits:
                hits += ability.phase_hits(self, phase)
            if self.tracing and (actors or self.idle):
                self.note(phase, "phase", f"Initiative phase {phase}: " + (", ".join(
                    f"{u.tile.key} on {u.hex}" for u in actors) or "nobody acts"), "3E BATTLE")
                for event in self.idle:
                    self.note(event.phase, event.kind, event.text, event.rule)
                self.idle = []
            if not actors and not hits:
                continue
            for unit in actors:
                hits += self.act(unit, phase, boni.get(unit.hex))
            self.land(hits, phase, nets, boni, removed)
            for ability in self._phase_end:
                ability.phase_end(self, phase, removed)
            changed = bool(removed)
        for ability in self._battle_end:
            ability.battle_end(self)
        hq = {army: (units[h].health if h in units else 0) for army, h in hq_hexes.items()}
        after = self.position.with_units_in_order(tuple(units.values()))
        if self.scores != dict(self.position.scores):
            after = replace(after, scores=tuple(self.scores.items()))
        return Outcome(after, hq, tuple(self.oracle.made), tuple(self.state.log or ()),
                       tuple(sorted(self.reports.items())))

    def explain(self, reading: effects.Reading, phase: int | None) -> None:
        """Traced battles only: read where every bonus comes from (for the hits' words) and state the nets,
        captures, takeovers and initiatives that take effect or end now (:mod:`solver.explain`)."""
        units = self.state.units
        self.sources = explain.sources(units, reading.nets, self.rules, reading.allies, self.points,
                                       self.position.foundations)
        facts = explain.facts(units, reading, self.sources)
        for kind, text, rule in explain.changes(self.facts, facts, units):
            self.note(phase, kind, text, rule)
        self.facts = facts

    def added(self, unit: Unit, *kinds: str) -> tuple[str, ...]:
        """Traced battles only: the bonuses of ``kinds`` (``melee``, ``ranged``) the unit gets now, each with
        the module or HQ giving it (``moloch:officer on b2 +1``)."""
        return explain.added(self.sources, unit.hex, *kinds)

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
                            self.idle.append(Event(phase, "netted", f"{unit.tile.key} on {hex_} is netted and does "
                                                   "nothing", "3E NET"))
                    else:
                        self.state.used.setdefault(hex_, set()).add(slot)
                        acting.append(unit)
                    break
        return acting

    # --- one unit's action ---
    def act(self, unit: Unit, phase: int, bonus: Bonus | None) -> list[Hit]:
        for ability in self._act:
            replaced = ability.act(self, unit, phase, bonus)
            if replaced is not None:
                return replaced
        hits: list[Hit] = []
        if not self._strikes and not self.tracing:
            # The common case, kept fast: no ability changes strikes, so aim each edge's attacks directly.
            edges = edges_of(unit)
            melee_bonus = bonus.melee if bonus else 0
            ranged_bonus = bonus.ranged if bonus else 0
            for d in unit.oriented.attacks:
                edge = edges[d]
                if edge.melee:
                    hit = self.melee(unit, d, edge.melee + melee_bonus, phase)
                    if hit:
                        hits.append(hit)
                if edge.ranged:
                    hits += self.fire(unit, unit.hex, d, edge.ranged + ranged_bonus, phase)
                if edge.special:
                    for ability in self._edge_hits:
                        hits += ability.edge_hits(self, unit, d, edge, bonus, phase)
            return hits
        strikes = self.strikes_of(unit, bonus)
        for ability in self._strikes:
            strikes = ability.strikes(self, unit, phase, bonus, strikes)
        for strike in strikes:
            if strike.kind == "melee":
                hit = self.melee(unit, strike.direction, strike.strength, phase)
                struck = [hit] if hit else []
            else:  # a redirected shot may hit several units (RULINGS 50)
                struck = self.fire(unit, unit.hex, strike.direction, strike.strength, phase)
            for hit in struck:
                if self.tracing:
                    hit.note = "; ".join(filter(None, (" + ".join(strike.how), hit.note)))
                hits.append(hit)
        if self._edge_hits:
            edges = edges_of(unit)
            for d in unit.oriented.attacks:
                if edges[d].special:
                    for ability in self._edge_hits:
                        hits += ability.edge_hits(self, unit, d, edges[d], bonus, phase)
        return hits

    def strikes_of(self, unit: Unit, bonus: Bonus | None) -> list[Strike]:
        """The melee and ranged attacks of the unit's edges, each with the bonuses of its kind (3E MODULES)."""
        edges = edges_of(unit)
        melee_bonus = bonus.melee if bonus else 0
        ranged_bonus = bonus.ranged if bonus else 0
        strikes = []
        for d in unit.oriented.attacks:
            edge = edges[d]
            if edge.melee:
                how = (f"melee {edge.melee}", *self.added(unit, "melee")) if self.tracing else ()
                strikes.append(Strike(d, "melee", edge.melee, edge.melee + melee_bonus, how))
            if edge.ranged:
                how = (f"ranged {edge.ranged}", *self.added(unit, "ranged")) if self.tracing else ()
                strikes.append(Strike(d, "ranged", edge.ranged, edge.ranged + ranged_bonus, how))
        return strikes

    def melee(self, unit: Unit, d: Direction, strength: int, phase: int) -> Hit | None:
        target = self.state.units.get(around(unit.hex)[d])
        if target is None or strength <= 0:
            return None
        sides = self.sides
        if (sides.get(unit.hex, unit.army) == sides.get(target.hex, target.army)) if sides else target.army == unit.army:
            return None
        if unit.tile.kind is Kind.HQ and target.tile.kind is Kind.HQ:
            if self.tracing:
                self.note(phase, "hq-vs-hq", f"{unit.tile.key} does not harm {target.tile.key}",
                          "3E THE HQs: an HQ never harms the other HQ")
            return None
        return Hit(unit.hex, target.hex, strength, "melee", "", d)

    def fire(self, unit: Unit, start: Hex, d: Direction, strength: int, phase: int) -> list[Hit]:
        """A ranged attack from ``start`` towards ``d``: it flies over friends and hits the first enemy on the
        line (3E RANGED ATTACK), unless an ability stops or turns it on the way (the point ``shot_meets``)."""
        units = self.state.units
        sides = self.sides
        own = sides.get(unit.hex, unit.army)
        meets = self._shot_meets
        for hex_ in self.board.line_of_fire(start, d):
            for ability in meets:
                fate = ability.shot_meets(self, unit, hex_, d, strength, phase)
                if fate is not None:
                    return fate
            target = units.get(hex_)
            if target is None or (sides.get(hex_, target.army) if sides else target.army) == own:
                continue  # shots fly over friends (3E RANGED ATTACK)
            if unit.tile.kind is Kind.HQ and target.tile.kind is Kind.HQ:
                return []
            note = ""
            if target.oriented.edges[d.opposite].armor:
                strength -= 1
                note = "armor −1"
                if self.tracing:
                    self.note(phase, "armor", f"armor of {target.tile.key} on {hex_} stops 1 of the shot from {unit.hex}",
                              "3E ARMOR")
            return [Hit(unit.hex, hex_, strength, "ranged", note, d)] if strength > 0 else []
        return []

    # --- the end of a phase: wounds land together ---
    def land(self, hits: list[Hit], phase: int | None, nets: frozenset[Hex], boni: dict[Hex, Bonus],
             removed: set[Hex]) -> None:
        units = self.state.units
        for ability in self._reactions:
            hits = hits + ability.reactions(self, phase, hits)
        attacks: dict[Attack, list[Hit]] = {}
        for hit in hits:
            attacks.setdefault((hit.source, hit.target, hit.attack), []).append(hit)
            if self.tracing:
                by = (f"the terrain ({hit.note})" if hit.kind in ("terrain", "drowning")
                      else _name(units, hit.source, hit.kind))
                self.note(phase, hit.kind, f"{by} hits {_name(units, hit.target)} "
                              f"for {hit.wounds} ({hit.kind})", _RULE_OF_KIND.get(hit.kind, ""), hit.note)
        absorbed = self.medics(attacks, phase, nets, boni, removed) if _has_medics(boni) else set()
        self.attacks, self.absorbed = attacks, absorbed  # what after_damage may read (venom: who really wounded)
        damage: dict[Hex, int] = {}
        for key, group in attacks.items():
            if key not in absorbed:
                damage[key[1]] = damage.get(key[1], 0) + sum(h.wounds for h in group)
        if self._hq_wounds:
            for hex_ in [h for h in damage if units[h].is_hq]:
                landing = [hit for key, group in attacks.items() if key[1] == hex_ and key not in absorbed
                           for hit in group]
                if any(family.hq_wounds(self, phase, hex_, landing) for family in self._hq_wounds):
                    del damage[hex_]
        for hex_, wounds in damage.items():
            unit = units[hex_]
            if hex_ in removed:
                continue  # an exploded unit leaves the board whatever hits it
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
        for ability in self._after_damage:
            ability.after_damage(self, phase, damage, removed)
        for hex_ in removed:
            units.pop(hex_, None)
            self.state.used.pop(hex_, None)

    def medics(self, attacks: dict[Attack, list[Hit]], phase: int | None, nets: frozenset[Hex],
               boni: dict[Hex, Bonus], removed: set[Hex]) -> set[Attack]:
        """Which attacks the Medics absorb, and which Medics are discarded for it (3E USING MEDICS; RULINGS 4).

        Medics are mandatory, so every Medic that can absorb an attack does; which Medic takes which attack is its
        controller's choice ("its owner decides which attack is absorbed"; "the controlling player chooses which
        Medic"): the controller picks one of the maximal assignments of its Medics to attacks. A Medic works for
        whoever controls it — a Medic on a free Scoper's linked side for the Outpost (RULINGS 8) — and absorbs
        only an attack of a unit that is an enemy of the unit it saves (3E MEDIC: "an attack of 1 enemy unit"):
        an enemy Medic linked to a New York Spy saves it from its own side's attack, its owner choosing (B13 Spy;
        RULINGS 35).
        """
        units = self.state.units
        hit = {key[1] for key in attacks}
        usable = {m for b in boni.values() for m in b.medics if m not in nets and m not in hit and m not in removed}
        if not usable:
            return set()
        captured = effects.captured_modules(units, nets, self.allies)
        controller = {m: effects.side_of(units[m], captured, self.allies) for m in usable}
        harm = {m: effects.side_of(units[m], captured, self.sides) for m in usable}
        pairs = [(medic, key) for medic in sorted(usable) for key in sorted(attacks, key=_attack_order)
                 if medic in _medics_of(boni, key[1]) and key[1] not in removed and self.absorbable(key, attacks)
                 and self.attacker_side(key, attacks) != self.side(units[key[1]])]
        absorbed: set[Attack] = set()
        for owner in sorted({controller[m] for m, _ in pairs}):
            own = frozenset(m for m in usable if controller[m] == owner)
            options = _medic_options([p for p in pairs if controller[p[0]] == owner], own, boni)
            options = _distinct(options, attacks)
            labels = ["; ".join(_medic_use(units, m, k, d, attacks[k][0].kind) for m, k, d in option)
                      for option in options]
            chosen = options[self.oracle.choose(owner, "Medics", labels)]
            for medic, key, discarded in chosen:
                absorbed.add(key)
                removed.add(discarded)
                if self.tracing:
                    wounds = sum(h.wounds for h in attacks[key])
                    self.note(phase, "medic", f"Medic on {medic} absorbs {_name(units, key[0], attacks[key][0].kind)}"
                              f" → {_name(units, key[1])}; the Medic on {discarded} is discarded",
                              "3E USING MEDICS" + ("; RULINGS 4" if discarded != medic else ""),
                              f"{wounds} wound{'s' if wounds != 1 else ''} of that attack ignored"
                              + (f"; the loss passes to the latter Medic on {discarded}" if discarded != medic else ""))
        return absorbed

    def attacker_side(self, key: Attack, attacks: dict[Attack, list[Hit]]) -> str | None:
        """Who controls the attacking unit; None for an instant tile, whose attack any Medic may absorb (3E
        MEDIC: "or Sniper, Grenade or any other Instant Action tile"), and for a blast, which wounds friend and
        foe and which a Medic may absorb on its own side's unit (RULINGS 4 and 10)."""
        source = key[0]
        if source is None or any(h.kind == "blast" for h in attacks[key]):
            return None
        unit = self.state.units.get(source)
        return self.side(unit) if unit is not None else None

    def absorbable(self, key: Attack, attacks: dict[Attack, list[Hit]]) -> bool:
        if any(h.kind == "blast" for h in attacks[key]):
            return self.rules.enabled("medic-saves-from-clown")
        if any(h.kind == "terrain" for h in attacks[key]):
            return self.rules.enabled("terrain-medic")
        return True


_RULE_OF_KIND = {
    "melee": "3E MELEE ATTACK",
    "ranged": "3E RANGED ATTACK",
    "gauss": "RULINGS 11; ES Cañón Gauss",
    "blast": "RULINGS 10; ES Payaso",
    "instant": "3E INSTANT ACTION TILES",
    "trap": "RULINGS 53; ES Trap",
    "bomber": "RULINGS 56-57; 2E Mad Bomber",
    "drowning": "B13 WATER, WHIRLPOOL",
}


def _has_medics(boni: dict[Hex, Bonus]) -> bool:
    for bonus in boni.values():
        if bonus.medics:
            return True
    return False


def _attack_order(key: Attack) -> tuple:
    source, target, n = key
    return (source is not None, source or target, target, n)


def _distinct(options: list[tuple[tuple[Hex, Attack, Hex], ...]],
              attacks: dict[Attack, list[Hit]]) -> list[tuple[tuple[Hex, Attack, Hex], ...]]:
    """The options with different effects: absorbing one or the other of two like attacks of one source on one
    target (two venom markers) is the same choice."""
    seen: set[tuple] = set()
    kept = []
    for option in options:
        effect = tuple(sorted((m, _attack_order(k)[:3], tuple((h.kind, h.wounds) for h in attacks[k]), d)
                              for m, k, d in option))
        if effect not in seen:
            seen.add(effect)
            kept.append(option)
    return kept


def _medic_options(pairs: list[tuple[Hex, Attack]], own: frozenset[Hex],
                   boni: dict[Hex, Bonus]) -> list[tuple[tuple[Hex, Attack, Hex], ...]]:
    """Every way one player's Medics may absorb attacks in one phase: ``(medic, attack, discarded Medic)`` each.

    3E USING MEDICS: a Medic fed by another Medic passes the loss on ("absorbed by the latter"); between two
    interconnected Medics the owner picks. RULINGS 4 as amended: a Medic wanted both as another Medic's latter
    Medic and to save a unit of its own is its owner's to give to either; a chain's first Medic absorbs the wound
    itself when its latter Medic is spent on another attack. Medics are mandatory: no Medic left idle (neither
    absorbing nor discarded for another) could still absorb an attack nobody absorbs.
    """
    found: set[tuple[tuple[Hex, Attack, Hex], ...]] = set()
    for assignment in _assignments(pairs):
        busy = frozenset(m for m, _ in assignment)
        domains = [sorted(_reachable(m, own - busy, boni)) for m, _ in assignment]
        for ends in product(*domains):
            if len(set(ends)) < len(ends):
                continue  # a Medic is discarded once
            if not all(end in _chain_ends(m, own - busy - (set(ends) - {end}), boni)
                       for (m, _), end in zip(assignment, ends)):
                continue
            gone = busy | set(ends)
            taken = {key for _, key in assignment}
            if all(m in gone or key in taken for m, key in pairs):
                found.add(tuple(sorted(((m, k, e) for (m, k), e in zip(assignment, ends)),
                                       key=lambda item: (item[0], _attack_order(item[1])))))
    return sorted(found, key=lambda option: [(m, _attack_order(k), e) for m, k, e in option])


def _assignments(pairs: list[tuple[Hex, Attack]]) -> list[tuple[tuple[Hex, Attack], ...]]:
    """Every way to give some Medics distinct attacks to absorb, each Medic one at most (none included)."""
    medics = sorted({m for m, _ in pairs})
    found: list[tuple[tuple[Hex, Attack], ...]] = []

    def assign(i: int, taken: frozenset, chosen: tuple) -> None:
        if i == len(medics):
            found.append(chosen)
            return
        for m, key in pairs:
            if m == medics[i] and key not in taken:
                assign(i + 1, taken | {key}, chosen + ((m, key),))
        assign(i + 1, taken, chosen)

    assign(0, frozenset(), ())
    return found


def _feeders(boni: dict[Hex, Bonus], medic: Hex, free: frozenset[Hex] | set[Hex]) -> list[Hex]:
    """The free Medics linked to ``medic`` (the "latter" Medics its loss may pass to)."""
    return sorted(m for m in _medics_of(boni, medic) if m in free)


def _reachable(medic: Hex, free: frozenset[Hex], boni: dict[Hex, Bonus]) -> set[Hex]:
    """``medic`` and every free Medic its loss could pass to along a chain."""
    seen = {medic}
    todo = [medic]
    while todo:
        for feeder in _feeders(boni, todo.pop(), free):
            if feeder not in seen:
                seen.add(feeder)
                todo.append(feeder)
    return seen


def _chain_ends(medic: Hex, free: frozenset[Hex] | set[Hex], boni: dict[Hex, Bonus],
                seen: frozenset[Hex] = frozenset()) -> set[Hex]:
    """The Medics that may be discarded when ``medic`` absorbs, with ``free`` Medics to pass the loss on to: the
    loss goes to a latter Medic while there is one (3E "absorbed by the latter"); of two interconnected Medics
    either may go (3E: "the owner decides")."""
    seen = seen | {medic}
    feeders = [f for f in _feeders(boni, medic, free) if f not in seen]
    if not feeders:
        return {medic}
    ends: set[Hex] = set()
    for feeder in feeders:
        if medic in _medics_of(boni, feeder):  # interconnected: either may go
            ends.add(medic)
        ends |= _chain_ends(feeder, free, boni, seen)
    return ends


def _medic_use(units: dict[Hex, Unit], medic: Hex, key: Attack, discarded: Hex, kind: str = "instant") -> str:
    by = f" (the Medic on {discarded} is discarded)" if discarded != medic else ""
    return f"Medic on {medic} absorbs {_name(units, key[0], kind)} → {_name(units, key[1])}{by}"


def _medics_of(boni: dict[Hex, Bonus], hex_: Hex) -> list[Hex]:
    bonus = boni.get(hex_)
    return bonus.medics if bonus else []


def _name(units: dict[Hex, Unit], hex_: Hex | None, kind: str = "instant") -> str:
    if hex_ is None:  # no unit strikes: an instant tile, or a marker such as venom (named by the hit's kind)
        return "the instant tile" if kind == "instant" else f"the {kind}"
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
    return _explore(lambda script: Fight(position, script, trace).run())


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
        fight = Fight(position, script, trace=False)
        units = fight.state.units
        reading = fight.read()
        fight.sides, fight.allies, nets, boni = reading.sides, reading.allies, reading.nets, reading.bonuses
        landing = [Hit(None, target, wounds, "instant", cause) for target, wounds in hits]
        for ability in fight.points.instant_hits:
            landing = ability.instant_hits(fight, landing)
        fight.land(landing, None, nets, boni, set())
        # fight.position: an ability may have changed more than the units (a Bio-droid back on its pile)
        return Outcome(replace(fight.position, units=tuple(units.values())), {}, tuple(script.made))

    results: dict[tuple, tuple[tuple[str, ...], Position]] = {}
    for outcome in leaves(_explore(run)):
        results.setdefault(outcome.position.units, (outcome.choices, outcome.position))
    return tuple(results.values())
