"""Invariants over battles of three and four armies (hypothesis, seeded, small): rotating a whole position by 60°
rotates every outcome and changes nothing else (GUIDE: property tests; issue 14: "rotation invariance of 3-4 army
battles"). Deathmatch (a fallen army's units leave at the end of the battle: 3E THE MULTIPLAYER MODE, HQ
DESTROYED), the score rule (3E DEATHMATCH WITH AN OPTIONAL SCORE RULE), team matches with and without Moloch's
exception (3E TEAM MATCH; option moloch-team-fire) and 1 player vs a team (3E 1 PLAYER VS A TEAM) are all drawn,
with now and then a unit commanded by another army (`owner=`, README)."""

from __future__ import annotations

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from solver.engine import battle
from solver.hexes import STANDARD, Direction
from solver.position import Position, Unit
from solver.rules import RuleSet
from solver.tiles import Kind, army

ARMIES = ("moloch", "outpost", "borgo", "hegemony")
HEXES = sorted(STANDARD.hexes)


@st.composite
def positions(draw: st.DrawFn) -> Position:
    """Three or four base armies, each with its HQ and a few units (each tile no more often than its army has it);
    a deathmatch, a score game, a team match or one player against a team."""
    armies = draw(st.permutations(ARMIES))[:draw(st.integers(3, 4))]
    shape = draw(st.sampled_from(("deathmatch", "score", "teams", "loner")))
    teams: tuple[tuple[str, ...], ...] = ()
    if shape == "teams" and len(armies) == 4:
        teams = ((armies[0], armies[1]), (armies[2], armies[3]))
    elif shape == "loner":
        teams = ((armies[1], armies[2]),)
    hexes = draw(st.lists(st.sampled_from(HEXES), min_size=len(armies) + 1, max_size=12, unique=True))
    units, used = [], {}
    for i, hex_ in enumerate(hexes):
        side = army(armies[i % len(armies)])
        if i < len(armies):
            hq = next(t for t in side.tiles if t.is_hq)
            units.append(Unit(hex_, hq, Direction.N, hp=draw(st.integers(1, 20))))
            continue
        choices = [t for t in side.tiles if t.kind in (Kind.WARRIOR, Kind.MODULE) and used.get(t.key, 0) < t.count]
        chosen = draw(st.sampled_from(choices))
        used[chosen.key] = used.get(chosen.key, 0) + 1
        # Now and then another army's unit under this army's command (`owner=`, the B13 campaign's allies).
        owner = draw(st.sampled_from([None, None, None, *[a for a in armies if a != chosen.army]]))
        units.append(Unit(hex_, chosen, draw(st.sampled_from(list(Direction))),
                          wounds=draw(st.integers(0, chosen.toughness)), owner=owner))
    rules = RuleSet.make("3.0", [("moloch-team-fire", draw(st.sampled_from(("moloch", "yes", "no"))))]) if teams else None
    scores = tuple((a, draw(st.integers(0, 20))) for a in armies) if shape == "score" else ()
    extra = {"rules": rules} if rules is not None else {}
    return Position(tuple(units), teams=teams, mode="score" if shape == "score" else "deathmatch", scores=scores,
                    **extra)


def _ends(position: Position) -> set:
    return {(o.position.units, tuple(sorted(o.hq.items())), o.position.scores) for o in battle.resolve(position)}


@settings(max_examples=120, deadline=None, suppress_health_check=[HealthCheck.too_slow], derandomize=True)
@given(positions(), st.integers(1, 5))
def test_rotating_a_three_or_four_army_battle_rotates_every_outcome(position: Position, steps: int) -> None:
    expected = {(Position(units).rotated(steps).units, hq, scores) for units, hq, scores in _ends(position)}
    assert _ends(position.rotated(steps)) == expected


@settings(max_examples=30, deadline=None, suppress_health_check=[HealthCheck.too_slow], derandomize=True)
@given(positions())
def test_a_fallen_army_has_no_unit_left_after_a_deathmatch_battle(position: Position) -> None:
    """3E HQ DESTROYED: "its tile is removed from the board together with all its Unit tiles at the end of the
    Battle" (deathmatch with three or more armies; RULINGS 61). In the score mode HQs take no damage."""
    for outcome in battle.resolve(position):
        fallen = {a for a, hp in outcome.hq.items() if hp <= 0}
        if position.mode == "score":
            assert not fallen
        elif not position.teams:
            assert not [u for u in outcome.position.units if u.army in fallen]
