"""Invariants over Smart and Vegas positions (hypothesis, seeded, small): rotating the whole position by 60°
changes nothing but labels — in a battle (takeovers, Mines), in who controls what, and in what the player may do
between battles (the Smart HQ's moves, Transporter swaps, Rotation, Castling, Mines)."""

from __future__ import annotations

from hypothesis import HealthCheck, given, seed, settings
from hypothesis import strategies as st

from solver.turns import actions
from solver.engine import battle, effects
from solver.hexes import STANDARD, Direction
from solver.position import Position, Unit
from solver.search.solve import normalised
from solver.tiles import Kind, army, tile

HEXES = sorted(STANDARD.hexes)
PAIRS = (("smart", "vegas"), ("vegas", "smart"), ("vegas", "outpost"))


@st.composite
def positions(draw: st.DrawFn, max_units: int = 9) -> Position:
    first, second = draw(st.sampled_from(PAIRS))
    hexes = draw(st.lists(st.sampled_from(HEXES), min_size=2, max_size=max_units, unique=True))
    units = []
    used: dict[str, int] = {}
    for i, hex_ in enumerate(hexes):
        side = army(first if i % 2 == 0 else second)
        choices = [t for t in side.tiles if t.kind in (Kind.WARRIOR, Kind.MODULE, Kind.HQ)
                   and used.get(t.key, 0) < t.count]
        chosen = draw(st.sampled_from(choices))
        used[chosen.key] = used.get(chosen.key, 0) + 1
        facing = draw(st.sampled_from(list(Direction)))
        if chosen.is_hq:
            units.append(Unit(hex_, chosen, facing, hp=draw(st.integers(1, 20))))
        else:
            units.append(Unit(hex_, chosen, facing, wounds=draw(st.integers(0, chosen.toughness))))
    empty = [h for h in HEXES if h not in hexes]
    mines = draw(st.lists(st.sampled_from(empty), max_size=2, unique=True)) if empty else []
    return Position(tuple(units), foundations=tuple(Unit(h, tile("vegas:mine")) for h in mines))


def _mines(foundations: tuple[Unit, ...], steps: int = 0) -> frozenset:
    """Foundations by hex and tile: they are always written facing N (NOTATION §10.1), so a turned board's Mine
    is not a turned Mine."""
    return frozenset((f.hex.rotated(steps) if steps else f.hex, f.tile.key) for f in foundations)


def _end_states(position: Position) -> set:
    return {(o.position.units, _mines(o.position.foundations), tuple(sorted(o.hq.items())))
            for o in battle.resolve(position)}


@seed(11)
@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(positions(), st.integers(1, 5))
def test_rotating_a_duel_position_rotates_every_battle_outcome(position: Position, steps: int) -> None:
    expected = {(Position(units).rotated(steps).units, frozenset((h.rotated(steps), k) for h, k in f), hq)
                for units, f, hq in _end_states(position)}
    assert _end_states(position.rotated(steps)) == expected


@seed(12)
@settings(max_examples=80, deadline=None)
@given(positions(), st.integers(1, 5))
def test_rotating_a_duel_position_rotates_who_controls_what(position: Position, steps: int) -> None:
    def control(p: Position) -> dict:
        reading = effects.read({u.hex: u for u in p.units}, p.rules)
        return {"sides": dict(reading.sides), "nets": reading.nets}
    before = control(position)
    after = control(position.rotated(steps))
    assert after["sides"] == {h.rotated(steps): a for h, a in before["sides"].items()}
    assert after["nets"] == frozenset(h.rotated(steps) for h in before["nets"])


HANDS = {"smart": ("smart:ripper", "smart:terror"), "vegas": ("vegas:mine", "vegas:rotation", "vegas:castling")}


@seed(13)
@settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(positions(max_units=6), st.integers(1, 5))
def test_rotating_a_duel_position_rotates_what_the_player_may_do(position: Position, steps: int) -> None:
    player = next(u.army for u in position.units)
    hand = tuple(tile(k) for k in HANDS.get(player, ()))
    position = Position(position.units, foundations=position.foundations, to_move=player,
                        hands=((player, hand),) if hand else ())

    def outcomes(p: Position) -> set:
        found = set()
        for action in actions.legal_actions(p, player):
            for _, after in actions.results(p, action, player):
                found.add((normalised(after).units, _mines(after.foundations), after.hands))
        return found

    # Facings that look the same are listed once, by a representative (actions.distinct_facings): compare them
    # as one.
    expected = {(normalised(Position(u).rotated(steps)).units, frozenset((x.rotated(steps), k) for x, k in f), h)
                for u, f, h in outcomes(position)}
    assert outcomes(position.rotated(steps)) == expected
