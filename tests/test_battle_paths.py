"""The fast battle (issue 15) against the plain one, on random positions of every army: the same tree of choices
with the same lines and end states, the same distinct outcomes, traced or not.

The fast battle plays a battle with no choice straight through, keeps a steady fight's reading when only units with
no Net and no module leave (``Fight.forget``), and explores choices from the state where they fall, merging fights
that reach the same state at a phase's end. The plain one (:func:`solver.engine.battle.replayed`) replays every line of
choices from the start and reads the position afresh after every removal.

Seeded and small in CI; ``NHEX_PATHS_SWEEP=N`` runs N positions.
"""

from __future__ import annotations

import os
import random

import pytest

from solver.engine import battle
from solver.errors import RuleNotImplemented
from solver.hexes import STANDARD, Direction
from solver.position import Position, Unit
from solver.tiles import Kind, armies, mercenaries

SWEEP = int(os.environ.get("NHEX_PATHS_SWEEP", "270"))
HEXES = sorted(STANDARD.hexes)
ARMIES = sorted(armies())


def random_position(rng: random.Random, first: str) -> Position:
    """``first`` against another army on 5 to 16 hexes: its HQ and the other's most of the time, warriors and
    modules at random facings, wounds up to what a unit survives, now and then the Mad Bomber."""
    second = rng.choice([a for a in ARMIES if a != first])
    pool = [t for name in (first, second) for t in armies()[name].tiles
            if t.kind in (Kind.HQ, Kind.WARRIOR, Kind.MODULE)]
    if rng.random() < 0.2:
        pool += [t for t in mercenaries().tiles if t.kind in (Kind.WARRIOR, Kind.MODULE)]
    free = list(HEXES)
    rng.shuffle(free)
    units: list[Unit] = []
    counts: dict[str, int] = {}
    for _ in range(rng.randint(5, 16)):
        choices = [t for t in pool if counts.get(t.key, 0) < t.count]
        if not choices or not free:
            break
        chosen = rng.choice(choices)
        counts[chosen.key] = counts.get(chosen.key, 0) + 1
        hex_, facing = free.pop(), rng.choice(list(Direction))
        if chosen.is_hq:
            units.append(Unit(hex_, chosen, facing, hp=rng.randint(1, 8)))
        else:
            units.append(Unit(hex_, chosen, facing, wounds=rng.randint(0, chosen.toughness)))
    return Position(tuple(units))


def lines(node: battle.Node) -> list[tuple]:
    """Every leaf of a tree in order, with its line of choices and the questions on the way."""
    if isinstance(node, battle.Leaf):
        return [(node.outcome.key, node.outcome.choices)]
    return [(node.army, node.question, label, *leaf) for label, branch in node.branches for leaf in lines(branch)]


def plain_or_refusal(position: Position, trace: bool) -> battle.Node | str:
    try:
        return battle.replayed(position, trace=trace)
    except RuleNotImplemented as refusal:
        return str(refusal)


@pytest.mark.parametrize("army", ARMIES)
def test_the_fast_battle_plays_as_the_plain_one(army: str) -> None:
    """On random positions of ``army`` against any other: the same tree (questions, lines, end states) and the
    same distinct outcomes with their first lines, untraced and traced (3E BATTLE: the rules do not change
    with how the engine walks them)."""
    rng = random.Random(f"paths-{army}")
    played = 0
    for _ in range(max(1, SWEEP // len(ARMIES))):
        position = random_position(rng, army)
        for trace in (False, True):
            plain = plain_or_refusal(position, trace)
            if isinstance(plain, str):
                with pytest.raises(RuleNotImplemented):
                    battle.resolve(position, trace=trace)
                continue
            played += 1
            assert lines(battle.battle_tree(position, trace=trace)) == lines(plain), str(position)
            expected: dict[tuple, tuple[str, ...]] = {}
            for outcome in battle.leaves(plain):
                expected.setdefault(outcome.key, outcome.choices)
            found = battle.resolve(position, trace=trace)
            assert [(o.key, o.choices) for o in found] == list(expected.items()), str(position)
            if trace:
                assert [o.trace for o in found] == [next(o.trace for o in battle.leaves(plain) if o.key == key)
                                                    for key in expected], str(position)
    assert played, "every position was refused"
