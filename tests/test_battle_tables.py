"""The tables the battle's loop reads instead of the plain values (issue 15): each must say exactly what the value
it stands for says, for every tile, facing and hex, so that the fast loop cannot drift from the rules.

Outcomes of the fast loop against the plain one are compared in tests/test_battle_paths.py (every army, choices
included) and tests/test_battle_random.py (traced against untraced); these tests check the tables themselves.
"""

from __future__ import annotations

import pickle
import random
from dataclasses import replace

from solver.notation import text as notation
from solver.engine.battle import Fight, _Script
from solver.hexes import DIRECTIONS, STANDARD, Direction, Hex, around
from solver.position import Unit
from solver.rules import DEFAULT_RULES, RuleSet
from solver.tiles import Kind, armies, mercenaries

TILES = [t for a in armies().values() for t in a.tiles if t.kind in (Kind.HQ, Kind.WARRIOR, Kind.MODULE)] + [
    t for t in mercenaries().tiles if t.kind in (Kind.HQ, Kind.WARRIOR, Kind.MODULE)]


def test_a_tile_with_only_melee_attacks_has_them_as_a_table_in_the_order_of_its_strikes() -> None:
    """3E MELEE ATTACK: Oriented.melee_only lists (direction, strength) of a tile whose every attack icon is a
    plain melee one, in the order of Oriented.strikes; any ranged or special icon leaves it None."""
    for tile_ in TILES:
        for facing in Direction:
            oriented = tile_.oriented(facing)
            plain = all(melee and not ranged and not special for _, melee, ranged, special in oriented.strikes)
            expected = tuple((d, melee) for d, melee, _, _ in oriented.strikes) if plain else None
            assert oriented.melee_only == expected, (tile_.key, facing)


def test_a_marked_unit_is_the_unit_with_its_wounds_and_health_replaced() -> None:
    """Unit.marked (the battle's fast copy) equals dataclasses.replace, derived fields and hash included."""
    rng = random.Random(15)
    for tile_ in TILES:
        unit = Unit(rng.choice(sorted(STANDARD.hexes)), tile_, rng.choice(list(Direction)),
                    wounds=0 if tile_.is_hq else rng.randint(0, 2), venom=rng.randint(0, 2),
                    owner=rng.choice([None, "moloch"]), prizes=rng.choice([(), ("medal",)]))
        wounds, hp = rng.randint(0, 3), (rng.randint(0, 19) if tile_.is_hq else None)
        marked, replaced = unit.marked(wounds, hp), replace(unit, wounds=wounds, hp=hp)
        assert marked == replaced and hash(marked) == hash(replaced), tile_.key
        assert (marked.army, marked.oriented) == (replaced.army, replaced.oriented), tile_.key


def test_the_neighbours_of_a_hex_off_the_table_are_worked_out_and_not_kept() -> None:
    """hexes.around answers from its table near the centre and works out any other hex (a custom board), the same
    six steps in direction order (NOTATION §2), without growing the table."""
    far = Hex(40, -17)
    size = len(around.__self__)  # type: ignore[attr-defined]
    assert around(far) == tuple(far.neighbour(d) for d in DIRECTIONS)
    assert around(Hex(0, 0)) == tuple(Hex(0, 0).neighbour(d) for d in DIRECTIONS)
    assert len(around.__self__) == size  # type: ignore[attr-defined]


def test_a_rule_set_asked_for_its_options_stays_equal_to_an_unasked_one() -> None:
    """RuleSet keeps the options asked (the battle asks in its loop); that memory is never compared, hashed or
    written (RULINGS 13: boss-ranged)."""
    asked = DEFAULT_RULES.with_options([("boss-ranged", "yes")])
    fresh = RuleSet(asked.edition, asked.overrides)
    assert asked.enabled("boss-ranged") and not DEFAULT_RULES.enabled("boss-ranged")
    assert asked == fresh and hash(asked) == hash(fresh) and str(asked) == str(fresh) and repr(asked) == repr(fresh)
    assert pickle.loads(pickle.dumps(asked)) == fresh and fresh.enabled("boss-ranged")


def test_a_fight_of_a_plain_battle_keeps_its_attributes_in_the_shared_table() -> None:
    """A plain battle's fight sets fewer than 30 attributes (CPython keeps up to 30 in a table shared by a class's
    instances; more and each fight gets a dict of its own, slower to make and to read): a speed check, kept
    because a new attribute set in Fight.__init__ would undo it silently."""
    for text in ("c3 moloch:hq hp=12\nc1 outpost:hq hp=9\nc2 outpost:commando N\nd2 moloch:hunter-killer NW\n"
                 "b2 moloch:officer SE\nd1 outpost:brawler S\n",):
        fight = Fight(notation.parse(text), _Script(()), False)
        fight.run()
        assert len(vars(fight)) < 30, sorted(vars(fight))
