"""Invariants over New York and Neojungle positions (hypothesis, seeded, small): rotating a whole position by 60°
(every hex, facing and foundation) rotates every battle outcome and every legal action's result, and changes
nothing else (developers' guide: property tests). Venom markers, Roots, Spies, Sharpshooters, Rockets and the
Motherland are all drawn."""

from __future__ import annotations

from hypothesis import HealthCheck, given, seed, settings
from hypothesis import strategies as st

from solver.turns import actions
from solver.engine import battle
from solver.hexes import STANDARD, Direction
from solver.position import Position, Unit
from solver.tiles import Kind, army, tile

ARMIES = ("new-york", "neojungle")
HEXES = sorted(STANDARD.hexes)
ROOTS = tile("neojungle:roots")


@st.composite
def positions(draw: st.DrawFn) -> Position:
    """New York against Neojungle: at most one HQ each, each tile no more often than its army has it, at most two
    venom markers, Roots under some hexes."""
    hexes = draw(st.lists(st.sampled_from(HEXES), min_size=2, max_size=10, unique=True))
    units = []
    used: dict[str, int] = {}
    markers = draw(st.integers(0, 2))
    for i, hex_ in enumerate(hexes):
        side = army(ARMIES[i % 2])
        choices = [t for t in side.tiles if t.kind in (Kind.WARRIOR, Kind.MODULE, Kind.HQ)
                   and used.get(t.key, 0) < t.count]
        chosen = draw(st.sampled_from(choices))
        used[chosen.key] = used.get(chosen.key, 0) + 1
        facing = draw(st.sampled_from(list(Direction)))
        venom = 1 if markers and i % 2 == 0 and draw(st.booleans()) else 0
        markers -= venom
        if chosen.is_hq:
            units.append(Unit(hex_, chosen, facing, hp=draw(st.integers(1, 20)), venom=venom))
        else:
            units.append(Unit(hex_, chosen, facing, wounds=draw(st.integers(0, chosen.toughness)), venom=venom))
    roots = draw(st.lists(st.sampled_from(HEXES), max_size=2, unique=True))
    return Position(tuple(units), foundations=tuple(Unit(h, ROOTS, Direction.N) for h in roots))


def _end_states(position: Position) -> set:
    return {(o.position.units, o.position.foundations, tuple(sorted(o.hq.items())))
            for o in battle.resolve(position)}


@seed(1313)
@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(positions(), st.integers(1, 5))
def test_rotating_a_babel13_position_rotates_every_battle_outcome(position: Position, steps: int) -> None:
    expected = set()
    for units, foundations, hq in _end_states(position):
        turned = Position(units, foundations=foundations).rotated(steps)
        expected.add((turned.units, turned.foundations, hq))
    assert _end_states(position.rotated(steps)) == expected


@seed(1314)
@settings(max_examples=15, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(positions(), st.integers(1, 5), st.sampled_from(ARMIES))
def test_rotating_a_babel13_position_rotates_the_results_of_the_legal_actions(position: Position, steps: int,
                                                                             side: str) -> None:
    hands = {"new-york": ("pusher", "sniper", "push-back"), "neojungle": ("roots", "small-bomb")}
    position = Position(position.units, foundations=position.foundations, to_move=side,
                        hands=((side, tuple(tile(f"{side}:{name}") for name in hands[side])),))

    def outcomes(where: Position) -> set:
        found = set()
        for action in actions.legal_actions(where, side):
            for _, after in actions.results(where, action, side):
                found.add((after.units, after.foundations))
        return found

    turned = position.rotated(steps)
    expected = {(Position(u, foundations=f).rotated(steps).units, Position(u, foundations=f).rotated(steps).foundations)
                for u, f in outcomes(position)}
    assert outcomes(turned) == expected
