"""Invariants over Doomsday Machine positions (hypothesis, seeded, small): rotating a whole position by 60° rotates
every battle outcome (redirection, long links, the Trap, the Mad Bomber included) and the Doomsday HQ's rotations,
and changes nothing else (GUIDE: property tests)."""

from __future__ import annotations

from hypothesis import HealthCheck, given, seed, settings
from hypothesis import strategies as st

from solver.turns import actions
from solver.engine import battle
from solver.hexes import STANDARD, Direction
from solver.position import Move, Position, Unit
from solver.tiles import Kind, army, tile

OPPONENTS = ("moloch", "outpost", "borgo", "hegemony")
HEXES = sorted(STANDARD.hexes)
BOMBER = tile("mercenary:mad-bomber")


@st.composite
def positions(draw: st.DrawFn) -> Position:
    """The Doomsday Machine against a base army, each tile no more often than its army has it, sometimes with the
    neutral Mad Bomber or a hired one."""
    other = draw(st.sampled_from(OPPONENTS))
    hexes = draw(st.lists(st.sampled_from(HEXES), min_size=3, max_size=12, unique=True))
    units = []
    used: dict[str, int] = {}
    bomber = draw(st.sampled_from((None, "neutral", "hired")))
    for i, hex_ in enumerate(hexes):
        if i == 0 and bomber is not None:
            units.append(Unit(hex_, BOMBER, Direction.N, owner=None if bomber == "neutral" else other))
            continue
        side = army("doomsday" if i % 2 else other)
        choices = [t for t in side.tiles if t.kind in (Kind.WARRIOR, Kind.MODULE, Kind.HQ)
                   and used.get(t.key, 0) < t.count]
        chosen = draw(st.sampled_from(choices))
        used[chosen.key] = used.get(chosen.key, 0) + 1
        facing = draw(st.sampled_from(list(Direction)))
        if chosen.is_hq:
            units.append(Unit(hex_, chosen, facing, hp=draw(st.integers(1, 20))))
        else:
            units.append(Unit(hex_, chosen, facing, wounds=draw(st.integers(0, chosen.toughness))))
    return Position(tuple(units), to_move="doomsday")


def _end_states(position: Position) -> set:
    return {(o.position.units, tuple(sorted(o.hq.items())), o.reports) for o in battle.resolve(position)}


@seed(13)
@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(positions(), st.integers(1, 5))
def test_rotating_a_doomsday_position_rotates_every_battle_outcome(position: Position, steps: int) -> None:
    expected = {(Position(units).rotated(steps).units, hq, reports)
                for units, hq, reports in _end_states(position)}
    assert _end_states(position.rotated(steps)) == expected


@seed(13)
@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(positions(), st.integers(1, 5))
def test_rotating_a_doomsday_position_rotates_the_hqs_rotations(position: Position, steps: int) -> None:
    def turned(p: Position) -> set:
        return {(m.source, m.facing) for m in actions.legal_actions(p, "doomsday")
                if isinstance(m, Move) and m.by == "hq"}

    expected = {(h.rotated(steps), f.rotated(steps) if f is not None else f) for h, f in turned(position)}
    rotated = turned(position.rotated(steps))
    # Facings that look the same are listed once, by the first clockwise from N: compare the units' looks.
    def looks(p: Position, pairs: set) -> set:
        return {(h, p.unit_at(h).tile.oriented(f).edges) for h, f in pairs}

    assert looks(position.rotated(steps), rotated) == looks(position.rotated(steps), expected)
