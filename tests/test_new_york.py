"""New York (Babel 13), rule by rule. B13 = ../shared/rules/rulebook-en-babel13.txt; RULINGS = ../shared/RULINGS.md."""

from __future__ import annotations

from solver import actions, battle, notation
from solver.hexes import Hex
from solver.position import Position


def position(text: str) -> Position:
    return notation.parse_position(text)


def outcomes(text: str) -> tuple[battle.Outcome, ...]:
    return battle.resolve(position(text), trace=True)


def fight(text: str) -> battle.Outcome:
    found = outcomes(text)
    assert len(found) == 1, [o.choices for o in found]
    return found[0]


def at(outcome_position: Position, label: str):
    return outcome_position.unit_at(Hex.parse(label))


def after(text: str, action: str, army: str) -> Position:
    start = position(text)
    return actions.apply(start, notation.parse_action(action, army), army)


# --- the HQ's toughness point (B13 NEW YORK, HQ; RULINGS 30, 31) ------------------------------------------------


def test_wounded_unit_beside_its_new_york_hq_is_a_legal_position():
    """B13 NEW YORK, HQ: "If the unit receives one wound it doesn't die - instead a wound marker should be placed
    on it"; NOTATION §10.1 Wounds."""
    start = position("c3 new-york:hq\nc2 new-york:cop wounds=1")
    assert at(start, "c2").wounds == 1


def test_unit_beside_new_york_hq_survives_one_wound():
    """B13 NEW YORK, HQ: adjacent own units get one additional Toughness point."""
    result = fight("""
        c3 new-york:hq
        c2 new-york:cop S
        c1 borgo:brawler S
    """)
    # the brawler deals 2: one more than the point lets the cop bear
    assert at(result.position, "c2") is None
    result = fight("""
        c3 new-york:hq
        c2 new-york:cop S
        c1 borgo:mutant S
    """)
    assert at(result.position, "c2").wounds == 1


def test_hq_destroyed_in_a_phase_takes_the_wounded_unit_with_it_at_the_end_of_that_phase():
    """B13 NEW YORK, HQ: "when the HQ is ..." lost the unit "immediately loses the additional Toughness, and it
    could die immediately"; RULINGS 30: it dies at the end of the phase in which the HQ is destroyed."""
    result = fight("""
        c3 new-york:hq hp=1
        c2 new-york:cop N wounds=1
        d2 borgo:brawler SW
    """)
    assert at(result.position, "c3") is None
    assert at(result.position, "c2") is None
    assert any("toughness point" in e.text for e in result.trace)


def test_hq_that_survives_keeps_the_wounded_unit_alive():
    """B13 NEW YORK, HQ (control of the previous test): the HQ still stands, so the point stays."""
    result = fight("""
        c3 new-york:hq hp=5
        c2 new-york:cop N wounds=1
        d2 borgo:brawler SW
    """)
    assert at(result.position, "c2").wounds == 1


def test_wounded_unit_moved_away_from_its_hq_dies_at_once():
    """B13 NEW YORK, HQ: "If such a unit becomes nonadjacent to the HQ ... it could die immediately"."""
    text = "c3 new-york:hq\nc2 new-york:cop wounds=1\nhand new-york move\nto-move new-york"
    moved = after(text, "use move c2 c1 N", "new-york")
    assert at(moved, "c1") is None and at(moved, "c2") is None
    unhurt = after("c3 new-york:hq\nc2 new-york:cop\nhand new-york move\nto-move new-york",
                   "use move c2 c1 N", "new-york")
    assert at(unhurt, "c1") is not None


def test_net_placed_on_new_york_hq_kills_the_unit_living_by_its_point():
    """B13 NEW YORK, HQ: "or when the HQ is caught in a net, the unit immediately loses the additional
    Toughness"."""
    text = "c3 new-york:hq\nc2 new-york:cop wounds=1\nd4 borgo:hq\nhand borgo net-fighter\nto-move borgo"
    netted = after(text, "place net-fighter b2 N", "borgo")
    assert at(netted, "c2") is None
    assert at(netted, "b2") is not None
