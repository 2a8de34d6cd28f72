"""The battle: initiative phases from the highest down to 0, every unit of a phase acting at once.

3E BATTLE: "players' units of the same Initiative act simultaneously"; "destroyed units remain on the board
until the end of the Initiative phase in which they were destroyed" and keep their effects until then; HQ
damage is marked at the end of the phase. This module reads nets and module bonuses from
:mod:`solver.engine.effects` at the start of every phase and never computes them itself.

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
from operator import attrgetter
from types import MappingProxyType
from typing import AbstractSet, Callable, Iterable, Mapping, Sequence, TypeVar, cast

from . import effects, explain, points as hooks
from .effects import Bonus, edges_of
from ..errors import RuleNotImplemented
from .features import refuse
from .fight import Attack, Event, Hit, Strike, wounds_text
from ..hexes import Direction, Hex, around
from ..position import Position, Unit
from ..tiles import Kind
from ..rules import RuleSet
from ..teams import one_way as team_fire_one_way

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


def _outcome(position: Position, hq: dict[str, int], choices: tuple[str, ...], trace: tuple[Event, ...],
             reports: tuple[tuple[str, object], ...]) -> Outcome:
    """``Outcome(position, hq, choices, trace, reports)``, made without the frozen dataclass's five
    object.__setattr__ calls: every battle ends with one (issue 15). The same fields, in the same instance dict."""
    outcome = _new_object(Outcome)
    outcome.__dict__.update(position=position, hq=hq, choices=choices, trace=trace, reports=reports)
    return outcome


_new_object = object.__new__


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


#: The points at which a family reads or changes the board between the phases' hits: with none of them present (and
#: no teams) a fight is steady (:attr:`Fight.steady`). Every other point acts within one unit's action.
_READING_POINTS = tuple(name for name in hooks.POINTS
                        if name not in ("act", "strikes", "edge_hits", "shot_meets", "battle_end", "instant_hits"))

# --- the fight -----------------------------------------------------------------------------------------------------

@dataclass(slots=True)
class _State:
    """The mutable bookkeeping of one battle run; never leaves this module and the abilities it hands it to."""

    units: dict[Hex, Unit]
    #: The slots each unit has used (RULINGS 5), each set frozen and replaced when it grows, so that a fork copies
    #: the table only.
    used: dict[Hex, frozenset] = field(default_factory=dict)
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


#: A battle's schedule until units next leave the board: for each initiative phase, ``(hex, slot)`` of every slot
#: acting in it, in the units' order and each unit's slots in order (what :meth:`Fight.actors` walks).
Schedule = dict[int, list[tuple[Hex, object]]]


def _schedule(units: dict[Hex, Unit], boni: dict[Hex, Bonus]) -> tuple[Schedule, int]:
    """The slots of every unit by the phase they act in (RULINGS 5, 6), and the highest such phase (-1: none)."""
    by_phase: Schedule = {}
    for hex_, unit in units.items():
        printed = unit.tile.initiative
        if not printed:
            continue
        bonus = boni.get(hex_) if boni else None
        if bonus is None or not (bonus.initiative or bonus.extra_actions):
            slots = _PLAIN_SLOTS[printed]
        else:
            key = (printed, bonus.initiative, bonus.extra_actions)
            slots = _MOVED_SLOTS.get(key)
            if slots is None:
                slots = _MOVED_SLOTS[key] = tuple(_slot_values(unit, bonus))
        for slot, value in slots:
            entries = by_phase.get(value)
            if entries is None:
                by_phase[value] = [(hex_, slot)]
            else:
                entries.append((hex_, slot))
    return by_phase, max(by_phase, default=-1)


class _PlainSlots(dict):
    """The slots of a printed initiative with no bonus, ``((0, v0), (1, v1), ...)``, built once per tuple."""

    def __missing__(self, printed: tuple[int, ...]) -> tuple[tuple[int, int], ...]:
        found = self[printed] = tuple((i, max(0, value)) for i, value in enumerate(printed))
        return found


_PLAIN_SLOTS = _PlainSlots()
#: The slots of a printed initiative moved by bonuses, by ``(printed, initiative bonus, extra actions)``.
_MOVED_SLOTS: dict[tuple[tuple[int, ...], int, int], tuple[tuple[object, int], ...]] = {}


def _prepare(position: Position) -> tuple[hooks.Points, bool, tuple[tuple[str, tuple], ...]]:
    """The families at each point of a battle on ``position``, once the battle has refused what it cannot play:
    §10 features (:func:`solver.engine.features.refuse`), tiles whose rule nhex lacks, foundations no family carries; and
    whether the fight is steady (:attr:`Fight.steady`); the loop's points with families, as ``(Fight attribute,
    families)`` (:data:`_LOOP_POINTS`)."""
    refuse(position, battle=True)  # NOTATION §10 features the battle does not play yet
    units = position.units
    # Keyed by the tiles' names (strings hash once) and what makes families present besides tiles.
    key = (frozenset(map(_TILE_KEY, units)), hooks.features_of(position))
    plan = _PLANS.get(key)
    if plan is None:
        if len(_PLANS) >= 4096:
            _PLANS.clear()
        tiles = frozenset(u.tile for u in units)
        points = hooks.points_for(position)
        plan = _PLANS[key] = (points, any(hooks.missing_rule(t) is not None for t in tiles),
                              not any(getattr(points, name) for name in _READING_POINTS),
                              tuple((f"_{name}", getattr(points, name)) for name in _LOOP_POINTS
                                    if getattr(points, name)))
    points, misses, steady, acting = plan
    if misses:
        for unit in units:
            missing = hooks.missing_rule(unit.tile)
            if missing is not None:
                raise RuleNotImplemented(f"{missing} ({unit.tile.key} on {unit.hex})")
    for foundation in position.foundations:
        # A foundation takes part in a battle only through the family that carries it (a Mine is inert).
        if not hooks.present(frozenset({foundation.tile})):
            raise RuleNotImplemented(f"foundations in battle ({foundation.tile.key}, Babel 13)")
    return points, steady and not position.teams, acting


#: An enum member read through its class costs a descriptor call in Python 3.11 (about 0.1 µs): the loop asks this
#: one of nearly every unit it touches, so it reads a module constant (issue 15).
_HQ = Kind.HQ
_TILE_KEY = attrgetter("tile.key")
_HEX = attrgetter("hex")

#: The points of every set of tiles and position features met lately; whether one of them lacks a rule; whether
#: no family acts at a reading point (:data:`_READING_POINTS`).
_PLANS: dict[tuple, tuple[hooks.Points, bool, bool, tuple[tuple[str, tuple], ...]]] = {}
#: The points the loop reads as attributes of the fight (``fight._act`` ...): a class attribute ``()`` each, set on a
#: fight only where families act at them.
_LOOP_POINTS = ("act", "strikes", "edge_hits", "shot_meets", "reactions", "hq_wounds", "after_damage", "phase_end",
                "phase_hits", "battle_start", "battle_end")


class Fight:
    """One run of a battle, and the interface the ability families act through at the loop's points
    (:mod:`solver.abilities`): the units standing now, who controls them, the oracle for choices, the trace.

    Families keep what they remember during a battle in :attr:`memo` only (as dicts, lists and sets of values):
    a battle with choices goes on from a copy of the fight at the start of the phase where a choice falls, and
    :meth:`fork` copies those containers."""

    # Values every fight starts with that are only ever replaced, never changed in place: class attributes, so
    # that a fight costs nothing to make for them (issue 15: a plain battle is a few dozen microseconds).
    #: The nets and bonuses of the last reading (see :meth:`__init__` for ``boni`` and ``schedule``).
    nets: frozenset[Hex] = frozenset()
    sides: effects.Sides = effects.NO_TAKEOVERS
    #: Whose modules help whom (differs from ``sides`` only in team matches; :mod:`solver.teams`).
    allies: effects.Sides = effects.NO_TAKEOVERS
    #: Whether Moloch's team fire runs one way in this reading (RULINGS 71: Moloch's units and its allies differ
    #: in ``sides``, and the allies' attacks pass over Moloch's units): then an attacker looks through :meth:`view`.
    one_way = False
    #: Where a battle played step by step stands (:meth:`step`): ``begin``, ``open``, ``act``, ``close`` or
    #: ``finish``, in the phase ``phase``.
    cursor = "begin"
    phase = -1
    #: The hashable image of the current reading in :meth:`key` (made when first asked), and the units the
    #: last reading was made of (kept only when the battle is played step by step).
    image: tuple | None = None
    read_units: tuple[Unit, ...] | None = None
    has_medics = False
    #: Units left the board in the last phase played: the next one reads the position again.
    changed = False
    #: Whether a unit that shapes the reading (a Net, a module or an HQ) has left since the last reading.
    stale = False
    #: Traced battles only (set by __init__ then): every unit's bonuses with their sources, the standing facts told
    #: so far, and the netted units of this phase, told under its heading.
    # (Read-only empty defaults: an untraced fight never adds to them.)
    sources: dict[Hex, list[explain.Source]] = MappingProxyType({})  # type: ignore[assignment]
    facts: dict[tuple, tuple[str, str, str]] = MappingProxyType({})  # type: ignore[assignment]
    idle: list[Event] = ()  # type: ignore[assignment]
    #: The attacks that landed last, by (source, target, n) (None: not grouped yet, see :attr:`attacks`), the hits
    #: themselves, and the attacks a Medic absorbed (read at after_damage); set by every landing.
    _attacks: dict[Attack, list[Hit]] | None = None
    _landed: Sequence[Hit] = ()
    absorbed: AbstractSet[Attack] = frozenset()
    #: The HQ of every army when the battle began (:meth:`begin`; HQs do not move in battle).
    hq_hexes: Mapping[str, Hex] = MappingProxyType({})
    #: The families at each point the loop reads (:data:`_LOOP_POINTS`): none, unless __init__ sets them.
    _act: tuple[hooks.Ability, ...] = ()
    _strikes: tuple[hooks.Ability, ...] = ()
    _edge_hits: tuple[hooks.Ability, ...] = ()
    _shot_meets: tuple[hooks.Ability, ...] = ()
    _reactions: tuple[hooks.Ability, ...] = ()
    _hq_wounds: tuple[hooks.Ability, ...] = ()
    _after_damage: tuple[hooks.Ability, ...] = ()
    _phase_end: tuple[hooks.Ability, ...] = ()
    _phase_hits: tuple[hooks.Ability, ...] = ()
    _battle_start: tuple[hooks.Ability, ...] = ()
    _battle_end: tuple[hooks.Ability, ...] = ()

    def __init__(self, position: Position, oracle: _Script, trace: bool) -> None:
        # Only what differs between fights is set here: CPython keeps up to 30 attributes of a class's instances in
        # a compact shared table, and makes and reads a fight with fewer faster (issue 15).
        points, steady, acting = _prepare(position)
        self.position = position
        self.rules: RuleSet = position.rules
        self.board = position.board
        self.oracle = oracle
        units = position.units
        self.state = _State(dict(zip(map(_HEX, units), units)), {}, set(), [] if trace else None)
        self.tracing = trace
        if trace:
            self.sources, self.facts, self.idle = {}, {}, []
        #: The bonuses of the last reading, and the slots acting in each phase until units next leave.
        self.boni: dict[Hex, Bonus] = {}
        self.schedule: Schedule = {}
        #: The phase being played: who acts in it (in order) and the hits made so far.
        self.pending: list[Unit] = []
        self.hits: list[Hit] = []
        #: Points scored in the score mode (3E DEATHMATCH WITH AN OPTIONAL SCORE RULE), by army.
        self.scores: dict[str, int] = dict(position.scores) if position.scores else {}
        #: Hexes leaving the board at the end of the current phase (an exploded unit, the dead).
        self.removed: set[Hex] = set()
        #: What they report with the outcome (:attr:`Outcome.reports`).
        self.reports: dict[str, object] = {}
        #: Per-battle bookkeeping of the families, each under its own key (families themselves keep no state): a
        #: redirected shot's path, the Warehouses' wounds.
        self.memo: dict[object, object] = {}
        #: The hexes emptied since the last reading (see also :attr:`stale`).
        self.gone: set[Hex] = set()
        self.points = points
        #: Whether a unit leaving the board changes the reading only by its own absence when it has no Net and no
        #: module (:meth:`forget`): no family reads or changes the board between the phases' hits.
        self.steady = steady
        for name, families in acting:
            setattr(self, name, families)

    @property
    def teams(self) -> tuple[tuple[str, ...], ...]:
        """The position's teams (:mod:`solver.teams`)."""
        return self.position.teams

    # --- what the abilities read and do ---
    @property
    def units(self) -> dict[Hex, Unit]:
        return self.state.units

    @property
    def converted(self) -> set[Hex]:
        return self.state.converted

    @property
    def attacks(self) -> dict[Attack, list[Hit]]:
        """The attacks that landed last, by (source, target, n) (read at ``after_damage``: venom asks who really
        wounded); grouped when first asked where the loop had no need to."""
        if self._attacks is None:
            grouped: dict[Attack, list[Hit]] = {}
            for hit in self._landed:
                grouped.setdefault((hit.source, hit.target, hit.attack), []).append(hit)
            self._attacks = grouped
        return self._attacks

    @attacks.setter
    def attacks(self, attacks: dict[Attack, list[Hit]]) -> None:
        self._attacks = attacks

    def side(self, unit: Unit) -> str:
        """Who controls the unit now (a takeover moves control; RULINGS 17)."""
        return self.sides.get(unit.hex, unit.army)

    def view(self, attacker: Unit) -> effects.Sides:
        """The keys ``attacker``'s attacks tell friends from enemies by: ``sides``, except where Moloch's team fire
        runs one way (RULINGS 71; 3E TEAM MATCH: "Friendly units cannot be hit by a teammate's attacks"), where a
        unit whose harm and help keys agree (not Moloch's) sees Moloch's units as the friends they are in help."""
        here, army = attacker.hex, attacker.army
        if self.one_way and self.sides.get(here, army) == self.allies.get(here, army):
            return self.allies
        return self.sides

    def enemies(self, a: Unit, b: Unit) -> bool:
        """Whether ``a``'s attacks reach ``b`` (3E RANGED ATTACK: shots fly over friends)."""
        sides = self.view(a) if self.one_way else self.sides
        return sides.get(a.hex, a.army) != sides.get(b.hex, b.army)

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

    def reread(self, phase: int | None) -> int:
        """Read the position again (control, nets, bonuses, the schedule); the highest phase anyone acts in."""
        reading = self.read()
        if reading.sides is not self.sides or reading.allies is not self.allies:  # (usually both NO_TAKEOVERS)
            self.sides, self.allies = reading.sides, reading.allies
            self.one_way = reading.allies != reading.sides and team_fire_one_way(self.rules)
        self.nets, self.boni = reading.nets, reading.bonuses
        self.schedule, top = _schedule(self.state.units, self.boni)
        self.has_medics = _has_medics(self.boni)
        self.changed = self.stale = False
        if self.image is not None:
            self.image = None
        if self.cursor != "run":
            self.read_units = tuple(self.state.units.values())
        self.gone = set()
        if self.tracing:
            self.explain(reading, phase)
        return top

    def forget(self) -> None:
        """The reading once units with no Net and no module have left (a steady fight only): no takeover and no
        link changes, a unit's net status depends only on the Net Fighters aiming at it (3E USING NETS), so the
        reading :meth:`reread` would give is the last one without the hexes emptied; their slots are skipped by
        :meth:`actors`."""
        gone = self.gone
        if self.nets and not gone.isdisjoint(self.nets):
            self.nets = self.nets - gone
        if not gone.isdisjoint(self.boni):
            boni = self.boni = dict(self.boni)  # a new dict: the old one may be shared with a fork
            for hex_ in gone:
                boni.pop(hex_, None)
        self.gone = set()
        self.changed = False
        if self.image is not None:
            self.image = None

    # --- the loop: the start, every phase from the highest down to 0, the end (each one step) ---
    def run(self) -> Outcome:
        self.cursor = "run"  # played straight through, not step by step
        phase = self.begin()
        schedule_only = not self._phase_hits
        while phase >= 0:
            self.play(phase)
            phase -= 1
            if schedule_only and not self.changed:
                # Nobody has left since the reading and no family makes hits of its own: a phase no slot of the
                # schedule acts in passes without an event (what play would find), so go to the next one that has.
                schedule = self.schedule
                while phase >= 0 and phase not in schedule:
                    phase -= 1
        return self.finish()

    def begin(self) -> int:
        """Read the position, deal the hits before the first phase; the first phase to play."""
        self.hq_hexes = {u.army: u.hex for u in self.position.units if u.tile.kind is _HQ}  # HQs do not move in battle
        top = self.reread(None)
        if self._battle_start:
            opening = [hit for ability in self._battle_start for hit in ability.battle_start(self)]
            if opening:
                self.removed = set()
                self.land(opening, None, self.nets, self.boni, self.removed)
                self.changed = bool(self.removed)
        if self._phase_hits:
            top = max(top, 0)
        return top

    def play(self, phase: int) -> None:
        """One initiative phase: who acts, their hits landing together, the phase's end (3E BATTLE)."""
        if self.open(phase):
            act, boni, hits = self.act, self.boni, self.hits
            for unit in self.pending:
                hits += act(unit, phase, boni.get(unit.hex))
            self.close(phase)

    def open(self, phase: int) -> bool:
        """The start of a phase: read the position again if units have left, find who acts (:attr:`pending`) and
        the hits no unit makes; False when nothing happens in it."""
        if self.changed:  # control, nets, links and so initiatives change only when units leave the board
            if self.stale or not self.steady or self.tracing:
                self.reread(phase)
            else:
                self.forget()
        actors = self.actors(phase, self.nets, self.schedule)
        hits: list[Hit] = []
        self.removed = set()
        for ability in self._phase_hits:
            hits += ability.phase_hits(self, phase)
        if self.tracing and (actors or self.idle):
            self.note(phase, "phase", f"Initiative phase {phase}: " + (", ".join(
                f"{u.tile.key} on {u.hex}" for u in actors) or "nobody acts"), "3E BATTLE")
            for event in self.idle:
                self.note(event.phase, event.kind, event.text, event.rule)
            self.idle = []
        self.pending, self.hits = actors, hits
        return bool(actors or hits)

    def close(self, phase: int) -> None:
        """The end of a phase: every hit lands at once, then the families' consequences."""
        removed = self.removed
        self.land(self.hits, phase, self.nets, self.boni, removed)
        for ability in self._phase_end:
            ability.phase_end(self, phase, removed)
        self.changed = bool(removed)
        self.pending, self.hits = [], []

    def finish(self) -> Outcome:
        for ability in self._battle_end:
            ability.battle_end(self)
        units = self.state.units
        hq: dict[str, int] = {}
        for army, h in self.hq_hexes.items():
            unit = units.get(h)
            # Unit.health, inline: an HQ's is its hp (a destroyed HQ has left the board: 0)
            hq[army] = 0 if unit is None else unit.hp if unit.hp is not None and unit.tile.kind is _HQ else unit.health
        after = self.position.with_units_in_order(tuple(units.values()))
        if (self.scores or self.position.scores) and self.scores != dict(self.position.scores):
            after = replace(after, scores=tuple(self.scores.items()))
        made, log, reports = self.oracle.made, self.state.log, self.reports
        return _outcome(after, hq, tuple(made) if made else (), tuple(log) if log else (),
                        tuple(sorted(reports.items())) if reports else ())

    # --- branching at a choice (battle_tree) ---
    def fork(self, answers: Sequence[int]) -> Fight:
        """A copy of this fight to go on from, answering its next choices with ``answers``: the units, the
        bookkeeping and the families' :attr:`memo` copied, the readings shared (never changed in place)."""
        clone = object.__new__(Fight)
        clone.__dict__.update(self.__dict__)
        clone.oracle = _Script(answers)
        state = self.state
        clone.state = _State(dict(state.units), dict(state.used), set(state.converted),
                             None if state.log is None else list(state.log))
        clone.scores = dict(self.scores)
        clone.reports = _copied(self.reports) if self.reports else {}
        clone.memo = _copied(self.memo) if self.memo else {}
        clone.removed = set(self.removed)
        clone.gone = set(self.gone)
        if self.tracing:  # an untraced fight's idle is the class's empty default
            clone.idle = list(self.idle)
        clone.pending = list(self.pending)
        clone.hits = list(self.hits)  # hits are not changed once made
        clone._attacks, clone._landed, clone.absorbed = None, (), _NONE_ABSORBED  # no landing yet
        return clone

    def key(self) -> tuple:
        """Everything the rest of the battle depends on: two fights with equal keys end alike (choices apart),
        so :func:`battle_tree` goes on from one of them only."""
        state = self.state
        if self.image is None:  # the reading's part, once per reading
            if self.steady and self.read_units is not None:
                # a steady fight's reading follows from the units it was made of (and those gone since)
                self.image = (self.read_units, self.nets, tuple(self.boni))
            else:
                self.image = (self.nets, _frozen(self.boni), _frozen(self.schedule), _frozen(self.sides),
                              _frozen(self.allies), _frozen(self.facts) if self.tracing else None,
                              _frozen(self.sources) if self.tracing else None)
        return (self.cursor, self.phase, tuple(state.units.values()),
                frozenset(state.used.items()), frozenset(state.converted),
                None if state.log is None else tuple(state.log), self.position, _frozen(self.scores),
                _frozen(self.reports), _frozen(self.memo), self.changed, self.stale, frozenset(self.gone),
                self.image, frozenset(self.removed), tuple(self.pending), _frozen(self.hits), tuple(self.idle))

    def may_choose(self) -> bool:
        """Whether the next :meth:`step` may ask a choice, as far as the families present say (a step thought
        not to is played without a copy; if it asks one after all, :func:`_grown` starts again with copies)."""
        cursor = self.cursor
        if cursor == "act":
            return bool(self.pending) and bool(self._act or self._strikes or self._edge_hits or self._shot_meets)
        if cursor == "close":
            return bool(self.has_medics or self._reactions or self._after_damage or self._hq_wounds
                        or self._phase_end)
        if cursor == "open" or cursor == "begin":
            return bool(not self.steady or self._phase_hits or self._battle_start)
        return bool(self._battle_end)

    def step(self) -> Outcome | None:
        """Play the next step of the battle (the start; a phase's opening, each actor, its closing; the end);
        the outcome after the last."""
        cursor = self.cursor
        if cursor == "act":
            if self.pending:
                unit = self.pending.pop(0)
                self.hits += self.act(unit, self.phase, self.boni.get(unit.hex))
            else:
                self.cursor = "close"
        elif cursor == "open":
            if self.phase < 0:
                self.cursor = "finish"
            elif self.open(self.phase):
                self.cursor = "act"
            else:
                self.phase -= 1
        elif cursor == "close":
            self.close(self.phase)
            self.phase -= 1
            self.cursor = "open"
        elif cursor == "begin":
            self.phase = self.begin()
            self.cursor = "open"
        else:
            return self.finish()
        return None

    def explain(self, reading: effects.Reading, phase: int | None, units: effects.Units | None = None) -> None:
        """Traced battles only: read where every bonus comes from (for the hits' words) and state the nets,
        captures, takeovers and initiatives that take effect or end now (:mod:`solver.engine.explain`).
        ``units``: those the reading was made of, when a family states it before the phase's dead have left (the
        New York HQ netted at the end of a phase: the net is told before the deaths it causes)."""
        if units is None:
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

    def actors(self, phase: int, nets: frozenset[Hex], schedule: Schedule) -> list[Unit]:
        """The units acting in ``phase``: each with an unused slot of that value acts once, the first such slot
        used up (RULINGS 5); a netted one does nothing (3E NET)."""
        entries = schedule.get(phase)
        if not entries:
            return []
        acting = []
        units = self.state.units
        used = self.state.used
        done = None
        for hex_, slot in entries:
            if hex_ is done:  # a unit's slots of one value are listed together, under one Hex (_schedule)
                continue  # one action a phase: the unit's first free slot of this value has been taken
            spent = used.get(hex_)
            if spent and slot in spent:
                continue
            unit = units.get(hex_)
            if unit is None:
                continue  # left the board since the reading (Fight.forget)
            done = hex_
            if hex_ in nets:
                if self.tracing:
                    self.idle.append(Event(phase, "netted", f"{unit.tile.key} on {hex_} is netted and does "
                                           "nothing", "3E NET"))
            else:
                used[hex_] = frozenset((slot,)) if spent is None else spent | {slot}
                acting.append(unit)
        return acting

    # --- one unit's action ---
    def act(self, unit: Unit, phase: int, bonus: Bonus | None) -> list[Hit]:
        for ability in self._act:
            told = len(self.state.log) if self.tracing and self.state.log is not None else 0
            replaced = ability.act(self, unit, phase, bonus)
            if replaced is not None:
                if self.tracing and not replaced and self.state.log is not None and len(self.state.log) == told:
                    # An ability's own action (a Sharpshooter's chosen shot) that hit nothing, said (issue 26).
                    self.note(phase, "miss", f"{unit.tile.key} on {unit.hex} acts: no enemy in reach", "3E BATTLE")
                return replaced
        hits: list[Hit] = []
        if not self._strikes and not self.tracing:
            # The common case, kept fast: no ability changes strikes, so aim each edge's attacks directly from the
            # tile's table (what Fight.melee does, inline; and Fight.fire too when no family meets shots).
            melee_bonus = bonus.melee if bonus else 0
            ranged_bonus = bonus.ranged if bonus else 0
            units = self.state.units
            sides = self.view(unit) if self.one_way else self.sides
            here = unit.hex
            own = sides.get(here, unit.army) if sides else unit.army
            hq = unit.tile.kind is _HQ
            melee_only = unit.oriented.melee_only
            if melee_only is not None:  # the same as below for a unit with only melee attacks, leaner
                around_here = around(here)
                for d, melee in melee_only:
                    target = units.get(around_here[d])
                    if (target is not None
                            and (sides.get(target.hex, target.army) if sides else target.army) != own
                            and not (hq and target.tile.kind is _HQ)):
                        strength = melee + melee_bonus
                        if strength > 0:
                            hits.append(Hit(here, target.hex, strength, "melee", "", d))
                return hits
            near = lines = None
            for d, melee, ranged, special in unit.oriented.strikes:
                if melee:
                    strength = melee + melee_bonus
                    if strength > 0:
                        if near is None:
                            near = around(here)
                        target = units.get(near[d])
                        if (target is not None
                                and (sides.get(target.hex, target.army) if sides else target.army) != own
                                and not (hq and target.tile.kind is _HQ)):
                            hits.append(Hit(here, target.hex, strength, "melee", "", d))
                if ranged:
                    if self._shot_meets:
                        hits += self.fire(unit, here, d, ranged + ranged_bonus, phase)
                    else:
                        if lines is None:
                            lines = self.board.lines.get(here, _NO_LINES)
                        for hex_ in lines[d]:  # Fight.fire, inline
                            target = units.get(hex_)
                            if target is None or (sides.get(hex_, target.army) if sides else target.army) == own:
                                continue  # shots fly over friends (3E RANGED ATTACK)
                            if not (hq and target.tile.kind is _HQ):
                                strength = ranged + ranged_bonus
                                if target.oriented.shielded >> d & 1:
                                    strength -= 1
                                    if strength > 0:
                                        hits.append(Hit(here, hex_, strength, "ranged", "armor −1", d))
                                elif strength > 0:
                                    hits.append(Hit(here, hex_, strength, "ranged", "", d))
                            break
                if special:
                    edge = unit.oriented.edges[d]
                    for ability in self._edge_hits:
                        hits += ability.edge_hits(self, unit, d, edge, bonus, phase)
            return hits
        told = len(self.state.log) if self.tracing and self.state.log is not None else 0
        strikes = self.strikes_of(unit, bonus)
        for ability in self._strikes:
            strikes = ability.strikes(self, unit, phase, bonus, strikes)
        missed = []
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
            if not struck and self.tracing:
                missed.append(strike)
        if self._edge_hits:
            edges = edges_of(unit)
            for d in unit.oriented.attacks:
                if edges[d].special:
                    for ability in self._edge_hits:
                        hits += ability.edge_hits(self, unit, d, edges[d], bonus, phase)
        if self.tracing and not hits and self.state.log is not None and len(self.state.log) == told:
            # The unit acts and hits nothing, and nothing above said why (issue 26): say where its attacks went.
            if not missed or not self.say_missed(unit, missed, phase):
                self.note(phase, "miss", f"{unit.tile.key} on {unit.hex} acts: no enemy in reach", "3E BATTLE")
        return hits

    def say_missed(self, unit: Unit, strikes: list[Strike], phase: int) -> bool:
        """Traced battles only: the attacks of a unit that hits nothing and found no enemy, said so, so that such a
        unit is not a bare name in its phase's heading (issue 26); whether anything was said. An attack that met
        an enemy and still did nothing (armor, HQ against HQ, a redirection) is told where that happens."""
        units = self.state.units
        own = self.side(unit)

        def enemy(hex_: Hex) -> bool:
            target = units.get(hex_)
            return target is not None and self.side(target) != own

        lines = self.board.lines.get(unit.hex, _NO_LINES)
        melee = [s.direction.name for s in strikes if s.kind == "melee" and not enemy(around(unit.hex)[s.direction])]
        ranged = [s.direction.name for s in strikes if s.kind != "melee" and not any(map(enemy, lines[s.direction]))]
        name = f"{unit.tile.key} on {unit.hex}"
        if melee:
            self.note(phase, "miss", f"{name} strikes {' '.join(melee)}: no enemy beside it", "3E MELEE ATTACK")
        if ranged:
            self.note(phase, "miss", f"{name} shoots {' '.join(ranged)}: nothing in "
                      + ("its line" if len(ranged) == 1 else "those lines"), "3E RANGED ATTACK")
        return bool(melee or ranged)

    def strikes_of(self, unit: Unit, bonus: Bonus | None) -> list[Strike]:
        """The melee and ranged attacks of the unit's edges, each with the bonuses of its kind (3E MODULES)."""
        melee_bonus = bonus.melee if bonus else 0
        ranged_bonus = bonus.ranged if bonus else 0
        strikes = []
        for d, melee, ranged, _ in unit.oriented.strikes:
            if melee:
                how = (f"melee {melee}", *self.added(unit, "melee")) if self.tracing else ()
                strikes.append(Strike(d, "melee", melee, melee + melee_bonus, how))
            if ranged:
                how = (f"ranged {ranged}", *self.added(unit, "ranged")) if self.tracing else ()
                strikes.append(Strike(d, "ranged", ranged, ranged + ranged_bonus, how))
        return strikes

    def melee(self, unit: Unit, d: Direction, strength: int, phase: int) -> Hit | None:
        target = self.state.units.get(around(unit.hex)[d])
        if target is None or strength <= 0:
            return None
        sides = self.view(unit) if self.one_way else self.sides
        if (sides.get(unit.hex, unit.army) == sides.get(target.hex, target.army)) if sides else target.army == unit.army:
            return None
        if unit.tile.kind is _HQ and target.tile.kind is _HQ:
            if self.tracing:
                self.note(phase, "hq-vs-hq", f"{unit.tile.key} does not harm {target.tile.key}",
                          "3E THE HQs: an HQ never harms the other HQ")
            return None
        return Hit(unit.hex, target.hex, strength, "melee", "", d)

    def fire(self, unit: Unit, start: Hex, d: Direction, strength: int, phase: int) -> list[Hit]:
        """A ranged attack from ``start`` towards ``d``: it flies over friends and hits the first enemy on the
        line (3E RANGED ATTACK), unless an ability stops or turns it on the way (the point ``shot_meets``)."""
        lines = self.board.lines.get(start)
        if lines is None:
            return []
        units = self.state.units
        sides = self.view(unit) if self.one_way else self.sides
        own = sides.get(unit.hex, unit.army) if sides else unit.army
        meets = self._shot_meets
        for hex_ in lines[d]:
            for ability in meets:
                fate = ability.shot_meets(self, unit, hex_, d, strength, phase)
                if fate is not None:
                    return fate
            target = units.get(hex_)
            if target is None or (sides.get(hex_, target.army) if sides else target.army) == own:
                continue  # shots fly over friends (3E RANGED ATTACK)
            if unit.tile.kind is _HQ and target.tile.kind is _HQ:
                return []
            note = ""
            if target.oriented.shielded >> d & 1:
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
        damage: dict[Hex, int] = {}
        slow = self.tracing or self._reactions or self._hq_wounds or self._after_damage
        if not slow and (self.has_medics if boni is self.boni else _has_medics(boni)):
            # Medics matter only where a hit lands on a unit one is linked to (what Fight.medics looks at first).
            for hit in hits:
                bonus = boni.get(hit.target)
                if bonus is not None and bonus.medics:
                    slow = True
                    break
        if not slow:
            # The common case, kept fast: every hit lands as it is; the attacks are grouped only if a family asks.
            for hit in hits:
                target = hit.target
                damage[target] = damage.get(target, 0) + hit.wounds
            self._landed, self._attacks, self.absorbed = hits, None, _NONE_ABSORBED
            self.mark(damage, phase, boni, removed)
            return
        for ability in self._reactions:
            hits = hits + ability.reactions(self, phase, hits)
        attacks: dict[Attack, list[Hit]] = {}
        for hit in hits:
            attacks.setdefault((hit.source, hit.target, hit.attack), []).append(hit)
            if self.tracing:
                by = (f"the terrain ({hit.note})" if hit.kind in ("terrain", "drowning")
                      else _name(units, hit.source, hit.kind))
                self.note(phase, hit.kind, f"{by} hits {_name(units, hit.target)} "
                              f"for {wounds_text(hit.wounds)} ({hit.kind})", _RULE_OF_KIND.get(hit.kind, ""), hit.note)
        absorbed = (self.medics(attacks, phase, nets, boni, removed)
                    if (self.has_medics if boni is self.boni else _has_medics(boni)) else set())
        self.attacks, self.absorbed = attacks, absorbed  # what after_damage may read (venom: who really wounded)
        for key, group in attacks.items():
            if key not in absorbed:
                target = key[1]
                for hit in group:
                    damage[target] = damage.get(target, 0) + hit.wounds
        if self._hq_wounds:
            for hex_ in [h for h in damage if units[h].is_hq]:
                landing = [hit for key, group in attacks.items() if key[1] == hex_ and key not in absorbed
                           for hit in group]
                if any(family.hq_wounds(self, phase, hex_, landing) for family in self._hq_wounds):
                    del damage[hex_]
        self.mark(damage, phase, boni, removed)

    def mark(self, damage: dict[Hex, int], phase: int | None, boni: dict[Hex, Bonus], removed: set[Hex]) -> None:
        """The wounds of a phase marked (3E TOUGHNESS; HQ damage, 3E BATTLE), the families' consequences, the
        dead and the exploded leaving the board."""
        units = self.state.units
        for hex_, wounds in damage.items():
            if hex_ in removed:
                continue  # an exploded unit leaves the board whatever hits it
            unit = units[hex_]
            if unit.tile.kind is _HQ:
                hp = max(0, unit.hp - wounds)  # type: ignore[operator]  # every HQ has its health (Unit)
                units[hex_] = unit.marked(unit.wounds, hp)
                if self.tracing:
                    self.note(phase, "hq", f"{unit.tile.key} loses {wounds_text(wounds)}: health {hp}", "3E BATTLE: HQ damage at the end of the phase")
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
                    units[hex_] = unit.marked(total, unit.hp)
                    if self.tracing:
                        self.note(phase, "wound", f"{unit.tile.key} on {hex_} has {total} wound{'s' if total > 1 else ''}",
                                  "3E TOUGHNESS")
        for ability in self._after_damage:
            ability.after_damage(self, phase, damage, removed)
        if removed:
            used = self.state.used
            for hex_ in removed:
                left = units.pop(hex_, None)
                used.pop(hex_, None)
                if left is not None and (left.oriented.nets or left.tile.module is not None):
                    self.stale = True
            self.gone |= removed

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
        if not any((bonus := boni.get(target)) is not None and bonus.medics for target in hit):
            return set()  # no unit struck has a Medic linked to it
        usable = {m for b in boni.values() for m in b.medics if m not in nets and m not in hit and m not in removed}
        if not usable:
            return set()
        captured = effects.captured_modules(units, nets, self.allies)
        controller = {m: effects.side_of(units[m], captured, self.allies) for m in usable}
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
                              f"{wounds_text(wounds)} wound{'s' if wounds != 1 else ''} of that attack ignored"
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


#: What the fast landing leaves in Fight.absorbed: no Medic was asked (read only with ``in``).
_NONE_ABSORBED: frozenset[Attack] = frozenset()
#: The lines of fire of a hex off the board: none in any direction.
_NO_LINES: tuple[tuple[Hex, ...], ...] = ((),) * 6


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
    # Each Medic absorbs one of its attacks or none (last), in the order of ``pairs``; no attack twice. A product,
    # not a recursive closure: a closure that calls itself is a reference cycle, left to the cycle collector (which
    # the search pauses) with everything it holds, once per Medic's battle.
    medics = sorted({m for m, _ in pairs})
    options = [[(m, key) for m, key in pairs if m == medic] + [None] for medic in medics]
    found: list[tuple[tuple[Hex, Attack], ...]] = []
    for combo in product(*options):
        chosen = tuple(choice for choice in combo if choice is not None)
        if len({key for _, key in chosen}) == len(chosen):
            found.append(chosen)
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


def _explore(run: Callable[[_Script], Outcome], prefix: tuple[int, ...] = ()) -> Node:
    """The tree of choices of ``run``, each line of choices run from the start. Recursive by its module-level name,
    not as a closure that calls itself (a reference cycle per tree, holding ``run`` and its position until the
    cycle collector's next full pass)."""
    script = _Script(prefix)
    try:
        return Leaf(run(script))
    except _NeedChoice as need:
        return Choice(need.army, need.question,
                      tuple((label, _explore(run, prefix + (i,))) for i, label in enumerate(need.options)))


def replayed(position: Position, *, trace: bool = False) -> Node:
    """The tree of :func:`battle_tree` made the plain way, kept to check the fast one against (the property tests):
    every line of choices replayed from the start of the battle, the position read afresh whenever units leave."""

    def run(script: _Script) -> Outcome:
        fight = Fight(position, script, trace)
        fight.steady = False  # read the position afresh after every removal (no Fight.forget)
        return fight.run()

    return _explore(run)


def battle_tree(position: Position, *, trace: bool = False) -> Node:
    """The battle as a tree of the players' choices, each leaf one end state."""
    return _absolute(_grown(position, trace), ())


def leaves(node: Node) -> Iterable[Outcome]:
    if isinstance(node, Leaf):
        yield node.outcome
    else:
        for _, branch in node.branches:
            yield from leaves(branch)


def straight(position: Position, *, trace: bool = False) -> Outcome | None:
    """The battle played straight through, when nobody has a choice in it (most battles): its one end state, which
    is the only leaf of :func:`battle_tree`; None when a player has a choice (then ask :func:`battle_tree`)."""
    try:
        return Fight(position, _Script(()), trace).run()
    except _NeedChoice:
        return None


def resolve(position: Position, *, trace: bool = False) -> tuple[Outcome, ...]:
    """Every distinct end state of a battle on ``position`` (one when nobody has a choice), each with the first
    choices (in the order of :func:`battle_tree`) that lead to it."""
    found = straight(position, trace=trace)  # most battles ask nobody anything: play them straight through
    if found is not None:
        return (found,)
    distinct: dict[tuple, Outcome] = {}
    seen: set[int] = set()

    def walk(node: _Grown, prefix: tuple[str, ...]) -> None:
        if id(node) in seen:
            return  # a state met before by other choices: its end states are all known, with earlier choices
        seen.add(id(node))
        if isinstance(node, _Made):
            walk(node.then, prefix + node.made)
        elif isinstance(node, Leaf):
            if node.outcome.key not in distinct:
                distinct[node.outcome.key] = replace(node.outcome, choices=prefix + node.outcome.choices)
        else:
            for _, branch in node.branches:
                walk(branch, prefix)

    try:
        walk(_grown(position, trace), ())
    finally:
        del walk  # a closure that calls itself is a reference cycle: emptied, it is freed at once
    return tuple(distinct.values())


# --- the tree of choices, grown step by step ---------------------------------------------------------------------


@dataclass(frozen=True)
class _Made:
    """Choices made in one step (relative to the step's start), then what follows."""

    made: tuple[str, ...]
    then: _Grown


@dataclass(frozen=True)
class _Choice:
    """A :class:`Choice` in the tree as grown."""

    army: str
    question: str
    branches: tuple[tuple[str, _Grown], ...]


#: The tree as grown: choices relative to where they are made, identical states shared.
_Grown = _Choice | Leaf | _Made


def _grown(position: Position, trace: bool) -> _Grown:
    """The battle's choices, each explored from the state where it falls (a copy of the fight at the start of the
    step that asks it: one unit's action, a phase's landing), not by replaying the battle from its start; fights
    that reach the same state by different choices go on as one (:meth:`Fight.key`), at every phase's end.

    Leaves and choices are relative: an outcome's ``choices`` and a :class:`_Made` hold what was chosen since
    the step they start at (:func:`_absolute` puts the whole lines back)."""
    try:
        return _Grower(careful=False).from_(Fight(position, _Script(()), trace), ())
    except _Unforeseen:
        return _Grower(careful=True).from_(Fight(position, _Script(()), trace), ())


class _Grower:
    """:func:`_grown`'s walk and what it keeps. A class, not a closure that calls itself: such a closure is a
    reference cycle, one per battle, left for the cycle collector."""

    def __init__(self, careful: bool) -> None:
        self.merged: dict[tuple, _Grown] = {}
        self.careful = careful  # every step on a copy (after a step thought choice-free asked one)
        self.branched = False

    def from_(self, base: Fight, answers: tuple[int, ...]) -> _Grown:
        closing = base.cursor == "close"
        copied = self.careful or bool(answers) or base.may_choose()
        if copied:
            fight = base.fork(answers)
        else:
            fight = base
            fight.oracle = _Script(())  # what this step chooses, apart from the steps before
        try:
            outcome = fight.step()
        except _NeedChoice as need:
            if not copied:
                raise _Unforeseen() from None
            self.branched = True  # from now on fights at a phase's end may meet
            return _Choice(need.army, need.question,
                          tuple((label, self.from_(base, answers + (i,))) for i, label in enumerate(need.options)))
        if outcome is not None:
            return Leaf(outcome)
        made = tuple(fight.oracle.made)
        if closing and self.branched:  # a phase has ended: merge the fights that reached the same state
            key = fight.key()
            then = self.merged.get(key)
            if then is None:
                then = self.merged[key] = self.from_(fight, ())
        else:
            then = self.from_(fight, ())
        return _Made(made, then) if made else then


class _Unforeseen(Exception):
    """A step that :meth:`Fight.may_choose` thought choice-free asked a choice (played without a copy)."""


def _absolute(node: _Grown, prefix: tuple[str, ...]) -> Node:
    """The tree with every outcome's whole line of choices."""
    if isinstance(node, _Made):
        return _absolute(node.then, prefix + node.made)
    if isinstance(node, Leaf):
        return Leaf(replace(node.outcome, choices=prefix + node.outcome.choices)) if prefix else node
    return Choice(node.army, node.question, tuple((label, _absolute(branch, prefix)) for label, branch in node.branches))


def _copied(value: _T) -> _T:
    """A copy of a family's bookkeeping: its dicts, lists and sets copied all the way down, values shared."""
    if isinstance(value, dict):
        return cast(_T, {k: _copied(v) for k, v in value.items()})
    if isinstance(value, list):
        return cast(_T, [_copied(v) for v in value])
    if isinstance(value, set):
        return cast(_T, {_copied(v) for v in value})
    return value


_T = TypeVar("_T")


def _frozen(value: object) -> object:
    """A hashable image of ``value`` for :meth:`Fight.key`: containers by content (a dict in its order), bonuses
    and hits by their fields; anything else unhashable by identity (never merged)."""
    if isinstance(value, dict):
        return ("dict", tuple((_frozen(k), _frozen(v)) for k, v in value.items()))
    if isinstance(value, list):
        return ("list", tuple(_frozen(v) for v in value))
    if isinstance(value, (set, frozenset)):
        return ("set", frozenset(_frozen(v) for v in value))
    if isinstance(value, tuple):
        return tuple(_frozen(v) for v in value)
    if isinstance(value, Bonus):
        return ("bonus", value.melee, value.ranged, value.initiative, value.extra_actions, value.toughness,
                tuple(value.medics), tuple(value.quartermasters))
    if isinstance(value, Hit):
        return ("hit", value.source, value.target, value.wounds, value.kind, value.note, value.direction)
    try:
        hash(value)
    except TypeError:
        return _Identity(value)
    return value


class _Identity:
    """An unhashable value in a key, equal only to itself (and kept alive with the key, so its id is its own)."""

    __slots__ = ("value",)

    def __init__(self, value: object) -> None:
        self.value = value

    def __hash__(self) -> int:
        return id(self.value)

    def __eq__(self, other: object) -> bool:
        return isinstance(other, _Identity) and other.value is self.value


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
        fight.one_way = reading.allies != reading.sides and team_fire_one_way(fight.rules)
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
