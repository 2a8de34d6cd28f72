"""Random dense positions that would have caught each class of battle defect found by differential testing
(issue 9): the Quartermaster merging an edge's two attacks, Medics grouped by printed army instead of controller,
Medic chains crossing sides or missing the owner's choices, a traced battle differing from the untraced one (the
loop's fast path), a hit whose explained strength is not the wounds it deals, bonus sources not adding up.

Seeded (``derandomize``) and small in CI. Locally: ``NHEX_RANDOM_SWEEP=20000 python -m pytest
tests/test_battle_random.py -k sweep`` runs every check on 20,000 positions of a plain seeded generator (one
untraced and one traced battle each), and ``NHEX_RANDOM_EXAMPLES=N`` asks hypothesis for N examples per property.
"""

from __future__ import annotations

import os
import random
import re
from itertools import product

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from solver.engine import battle, effects, explain
from solver.notation import text as notation
from solver.engine.battle import _chain_ends, _medic_options, _medics_of
from solver.engine.effects import Bonus
from solver.hexes import STANDARD, Direction, Hex
from solver.position import Position, Unit
from solver.tiles import Kind, army, tile

EXAMPLES = int(os.environ.get("NHEX_RANDOM_EXAMPLES", "200"))
SETTINGS = settings(max_examples=EXAMPLES, deadline=None, derandomize=True, database=None,
                    suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large])

BASE_ARMIES = ("moloch", "outpost", "borgo", "hegemony")
HEXES = sorted(STANDARD.hexes)
#: Tiles drawn more often, so that the crowded corners come up: Medics, Scopers, Quartermasters, nets, HQs.
FAVOURED = ("medic", "scoper", "quartermaster", "net-fighter", "net-master", "universal-soldier", "hq", "officer",
            "saboteur", "scout", "super-officer", "boss")


def build_position(pick, coin, number) -> Position:
    """Two base armies on 6 to 19 hexes of the standard board, each tile no more often than its army has it, the
    favoured tiles three times as likely; HQs at low health; wounds up to the most a unit survives. A third are
    built around an Outpost Scoper with enemy Medics beside it, a third around a Quartermaster linked to a
    Universal Soldier with an enemy in front (both are rare otherwise).

    ``pick(list)``, ``coin()`` and ``number(low, high)`` make the random choices: hypothesis's draws in the property
    tests, a seeded :class:`random.Random` in the sweep."""
    first, second = pick([(a, b) for a in BASE_ARMIES for b in BASE_ARMIES if a != b])
    units: list[Unit] = []
    used: dict[str, int] = {}
    scenario = number(0, 2)
    if scenario == 2:  # a Quartermaster linked to a Universal Soldier whose edge has an enemy in front
        first, second = "hegemony", pick(["moloch", "outpost", "borgo"])
        centre = pick([h for h in HEXES if h.distance(Hex(0, 0)) <= 1])
        link = pick(list(Direction))
        soldier_hex, facing = centre.neighbour(link), pick(list(Direction))
        front = soldier_hex.neighbour(Direction.NW.rotated(facing))
        units.append(Unit(centre, tile("hegemony:quartermaster"), link))
        units.append(Unit(soldier_hex, tile("hegemony:universal-soldier"), facing))
        used = {"hegemony:quartermaster": 1, "hegemony:universal-soldier": 1}
        if front in STANDARD.hexes and front != centre:
            enemy = pick([t for t in army(second).tiles if t.kind is Kind.WARRIOR])
            units.append(Unit(front, enemy, pick(list(Direction))))
            used[enemy.key] = 1
    elif scenario == 1:  # an Outpost Scoper with enemy Medics beside it
        first, second = "outpost", pick(["moloch", "borgo"])
        centre = pick([h for h in HEXES if h.distance(Hex(0, 0)) <= 1])
        units.append(Unit(centre, tile("outpost:scoper"), pick(list(Direction))))
        near = [h for _, h in STANDARD.neighbours(centre)]
        medic = tile(f"{second}:medic")
        for _ in range(number(1, medic.count)):
            free = [h for h in near if h not in {u.hex for u in units}]
            units.append(Unit(pick(free), medic, pick(list(Direction))))
        used = {"outpost:scoper": 1, medic.key: len(units) - 1}
    free = [h for h in HEXES if h not in {u.hex for u in units}]
    for _ in range(number(max(0, 6 - len(units)), 19 - len(units))):
        hex_ = pick(free)
        free.remove(hex_)
        side = army(first if coin() else second)
        choices = [t for t in side.tiles if t.kind in (Kind.WARRIOR, Kind.MODULE, Kind.HQ)
                   and used.get(t.key, 0) < t.count]
        weighted = [t for t in choices for _ in range(3 if t.name in FAVOURED else 1)]
        if not weighted:
            continue
        chosen = pick(weighted)
        used[chosen.key] = used.get(chosen.key, 0) + 1
        facing = pick(list(Direction))
        if chosen.is_hq:
            units.append(Unit(hex_, chosen, facing, hp=number(1, 6)))
        else:
            units.append(Unit(hex_, chosen, facing, wounds=number(0, chosen.toughness)))
    return Position(tuple(units))


@st.composite
def random_positions(draw: st.DrawFn) -> Position:
    return build_position(lambda items: draw(st.sampled_from(items)), lambda: draw(st.booleans()),
                          lambda low, high: draw(st.integers(low, high)))


def _ends(outcomes: tuple[battle.Outcome, ...]) -> set:
    return {(o.key, o.choices) for o in outcomes}


def check_traced_as_untraced(plain: tuple[battle.Outcome, ...], traced: tuple[battle.Outcome, ...]) -> None:
    """The loop's fast path (no trace, no ability changing strikes) and the traced path give the same end states
    with the same choices."""
    assert _ends(plain) == _ends(traced)


@SETTINGS
@given(random_positions())
def test_a_traced_battle_ends_as_the_untraced_one(position: Position) -> None:
    check_traced_as_untraced(battle.resolve(position), battle.resolve(position, trace=True))


_HIT = re.compile(r" for (\d+) \(")
_TERM = re.compile(r"([+−])(\d+)$")


def strength_of(how: str) -> int:
    """The wounds a hit's ``how`` adds up to: the printed strength (``ranged 1``, ``melee 1 as ranged (...)``,
    ``Gauss 1``, ``blast 1``), each bonus ``… +1`` / ``… −1``, and ``armor −1``."""
    main, *after = how.split("; ")
    first, *bonuses = main.split(" + ")
    total = int(first.split()[1].rstrip(":"))
    for term in bonuses:
        match = _TERM.search(term)
        assert match, (term, how)
        total += int(match.group(2)) * (1 if match.group(1) == "+" else -1)
    for part in after:
        if part.startswith("armor"):
            total -= 1
    return total


def check_hits_explained(traced: tuple[battle.Outcome, ...]) -> None:
    """Every hit of a traced battle says how it was made, one strike each (a Quartermaster's conversion included:
    the defect merged an edge's two attacks into one hit of strength 2), and its words add up to its wounds."""
    for outcome in traced:
        for event in outcome.trace:
            if event.kind in ("melee", "ranged", "gauss", "blast"):
                assert event.how, event
                (wounds,) = _HIT.findall(event.text)
                assert strength_of(event.how) == int(wounds), str(event)
                assert event.how.count(" as ") <= 1


@SETTINGS
@given(random_positions())
def test_every_hit_explains_exactly_the_wounds_it_deals(position: Position) -> None:
    check_hits_explained(battle.resolve(position, trace=True))


def check_sources(position: Position) -> None:
    units = effects.by_hex(position)
    reading = effects.read(units, position.rules)
    found = explain.sources(units, reading.nets, position.rules, reading.sides)
    assert explain.agrees(found, reading.bonuses)


@SETTINGS
@given(random_positions())
def test_a_unit_that_acts_and_hits_nothing_says_so(position: Position) -> None:
    check_misses(battle.resolve(position, trace=True))


@SETTINGS
@given(random_positions())
def test_bonus_sources_add_up_to_the_bonuses(position: Position) -> None:
    check_sources(position)


def _first_phase_medics(position: Position, outcome: battle.Outcome) -> None:
    """Medic rules checked on the first phase in which hits land (nothing has left the board yet, so the
    starting reading holds): controllers, one Medic per attack, mandatory Medics, chains within one side."""
    units = effects.by_hex(position)
    reading = effects.read(units, position.rules)
    captured = effects.captured_modules(units, reading.nets, reading.sides)
    hit_phases = [e.phase for e in outcome.trace if e.kind in ("melee", "ranged", "gauss", "blast")]
    if not hit_phases or any(e.kind == "explosion" for e in outcome.trace if e.phase == hit_phases[0]):
        return
    phase = hit_phases[0]
    events = [e for e in outcome.trace if e.phase == phase]
    controller = {h: effects.side_of(u, captured, reading.sides) for h, u in units.items()}
    attacks = {}
    for e in events:
        if e.kind in ("melee", "ranged", "gauss"):
            source, target = re.findall(r" on ([a-e][1-9])", e.text)[:2]
            attacks[(Hex.parse(source), Hex.parse(target))] = True
    absorbed, absorbing, discarded = [], set(), []
    for e in events:
        if e.kind != "medic":
            continue
        medic, source, target, gone = re.findall(r"on ([a-e][1-9])", e.text)
        medic, source, target, gone = map(Hex.parse, (medic, source, target, gone))
        absorbed.append((source, target))
        absorbing.add(medic)
        discarded.append(gone)
        assert controller[medic] != controller[source], e  # "an attack of 1 enemy unit"
        assert controller[gone] == controller[medic], e  # a chain never crosses sides
        # it saves a unit of its controller's side (a captured module still stands for its own army as a unit)
        assert effects.side(units[target], reading.sides) == controller[medic], e
    assert len(absorbed) == len(set(absorbed)), "one attack absorbed by two Medics"
    assert len(discarded) == len(set(discarded)), "one Medic discarded twice"
    hit = {t for _, t in attacks}
    usable = {m for b in reading.bonuses.values() for m in b.medics if m not in reading.nets and m not in hit}
    idle = usable - absorbing - set(discarded)
    for source, target in attacks:
        if (source, target) in absorbed:
            continue
        for medic in _medics_of(reading.bonuses, target):
            assert not (medic in idle and controller[medic] != controller[source]), \
                f"Medic on {medic} idle while {source} → {target} lands"
    for e in events:
        if e.kind == "medic":
            medic, *_, gone = map(Hex.parse, re.findall(r"on ([a-e][1-9])", e.text))
            if gone == medic:  # it absorbed itself: no free latter Medic of its side was left
                assert not [f for f in _medics_of(reading.bonuses, medic) if f in idle
                            and controller[f] == controller[medic] and medic not in _medics_of(reading.bonuses, f)], e


def check_medics(position: Position, traced: tuple[battle.Outcome, ...]) -> None:
    """3E USING MEDICS and RULINGS 4 and 8 on random positions: the defects grouped Medics by printed army (two
    Medics for one attack, the wrong player choosing) and let a chain cross sides."""
    for outcome in traced:
        _first_phase_medics(position, outcome)
        for choice in outcome.choices:
            owner, question, _ = choice.split(": ", 2)
            if question == "Medics":
                for target in re.findall(r"→ [a-z-]+:[a-z0-9-]+ on ([a-e][1-9])", choice):
                    assert position.unit_at(Hex.parse(target)).army == owner, choice


@SETTINGS
@given(random_positions())
def test_medics_work_for_their_controller_one_per_attack_and_are_mandatory(position: Position) -> None:
    check_medics(position, battle.resolve(position, trace=True))


_ACTORS = re.compile(r"^Initiative phase (\d+): (.*)$")


def check_misses(traced: tuple[battle.Outcome, ...]) -> None:
    """Issue 26: a unit that acts and hits nothing says so, and a unit said to hit nothing hits nothing. In each
    phase, every actor either makes a hit or is named by some event of the phase (a miss, an explosion, armor
    stopping its shot, HQ against HQ), and no unit both misses and hits."""
    for outcome in traced:
        events = list(outcome.trace)
        for heading in events:
            found = _ACTORS.match(heading.text) if heading.kind == "phase" else None
            if not found or found.group(2) == "nobody acts":
                continue
            phase = heading.phase
            told = [e for e in events if e.phase == phase and e.kind != "phase"]
            for actor in found.group(2).split(", "):
                key, _, hex_ = actor.partition(" on ")
                hits = [e for e in told if e.text.startswith(f"{actor} hits ")]
                misses = [e for e in told if e.kind == "miss" and e.text.startswith(f"{actor} ")]
                assert not (hits and misses), (actor, phase, [str(e) for e in told])
                named = [e for e in told if actor in e.text or f"from {hex_}" in e.text
                         or (key.endswith(":hq") and key in e.text)]
                assert hits or named, (f"{actor} acts in phase {phase} and nothing says what it did",
                                       [str(e) for e in told])


SWEEP = int(os.environ.get("NHEX_RANDOM_SWEEP", "100"))


def test_a_seeded_sweep_of_random_positions_passes_every_check() -> None:
    """The same checks on positions from a plain seeded generator, one untraced and one traced battle each: cheap
    enough to run 20,000 positions locally (``NHEX_RANDOM_SWEEP=20000``)."""
    rng = random.Random(9)
    for i in range(SWEEP):
        position = build_position(rng.choice, lambda: rng.random() < 0.5, rng.randint)
        plain, traced = battle.resolve(position), battle.resolve(position, trace=True)
        try:
            check_traced_as_untraced(plain, traced)
            check_hits_explained(traced)
            check_sources(position)
            check_medics(position, traced)
            check_misses(traced)
        except AssertionError as failure:
            raise AssertionError(f"position {i} of the sweep:\n{notation.write_position(position)}") from failure


# --- the Medics' choices against a brute force: every end state the owner can choose (RULINGS 4 as amended) --


@st.composite
def medic_graphs(draw: st.DrawFn) -> tuple[list, frozenset, dict]:
    """Up to 4 Medics of one owner, up to 3 attacks, which Medic may absorb which attack, and which Medics feed
    which (the latter Medics), drawn at random."""
    medics = [Hex(q, 0) for q in range(draw(st.integers(1, 4)))]
    attacks = [(Hex(9, k), Hex(8, k), 0) for k in range(draw(st.integers(1, 3)))]
    pairs = [(m, k) for m in medics for k in attacks if draw(st.booleans())]
    boni = {m: Bonus(medics=[f for f in medics if f != m and draw(st.integers(0, 2)) == 0]) for m in medics}
    return pairs, frozenset(medics), boni


def brute_force(pairs: list, own: frozenset, boni: dict) -> set:
    """Every ``(absorbed attacks, discarded Medics)`` the owner may bring about, by trying every role for every
    Medic: idle, absorbing an attack, or passing the loss of the Medic it is latter to along a chain."""
    medics = sorted(own)
    attacks = sorted({k for _, k in pairs}, key=str)
    results = set()
    for roles in product(*[[None] + [k for m2, k in pairs if m2 == m] for m in medics]):
        taken = [k for k in roles if k is not None]
        if len(taken) != len(set(taken)):
            continue
        busy = frozenset(m for m, k in zip(medics, roles) if k is not None)
        absorbing = [m for m, k in zip(medics, roles) if k is not None]
        for ends in product(*[sorted(own) for _ in absorbing]):
            if len(set(ends)) != len(ends):
                continue
            ok = all(e in _paths_ends(m, own - busy - (set(ends) - {e}), boni) for m, e in zip(absorbing, ends))
            gone = busy | set(ends)
            if ok and all(m in gone or k in taken for m, k in pairs):
                results.add((frozenset(taken), frozenset(ends)))
    assert attacks is not None
    return results


def _paths_ends(start: Hex, free: frozenset, boni: dict) -> set:
    """Where a loss starting at ``start`` may end: walk every simple path of free latter Medics; a path may stop
    only where no free latter Medic is left, or between two interconnected Medics."""
    ends = set()

    def walk(path: list) -> None:
        here = path[-1]
        nxt = [f for f in _medics_of(boni, here) if f in free and f not in path]
        if not nxt:
            ends.add(here)
        for f in nxt:
            if here in _medics_of(boni, f):
                ends.add(here)
            walk(path + [f])

    walk([start])
    return ends


@SETTINGS
@given(medic_graphs())
def test_the_medics_choices_are_every_end_state_the_owner_can_choose(graph: tuple) -> None:
    pairs, own, boni = graph
    options = _medic_options(pairs, own, boni)
    offered = {(frozenset(k for _, k, _ in o), frozenset(d for *_, d in o)) for o in options}
    assert offered == brute_force(pairs, own, boni)
    assert all(_chain_ends(m, own - {x for x, _, _ in o}, boni) for o in options for m, _, _ in o)
