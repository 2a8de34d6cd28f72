"""Neojungle (Babel 13), rule by rule. B13 = ../shared/rules/rulebook-en-babel13.txt; RULINGS = ../shared/RULINGS.md."""

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


def at(where: Position, label: str):
    return where.unit_at(Hex.parse(label))


def after(text: str, action: str, army: str) -> tuple[tuple[str, Position], ...]:
    start = position(text)
    return actions.results(start, notation.parse_action(action, army), army)


# --- venom (B13 DESCRIPTION OF NEW ICONS, Venom; VENOM ISSUES; RULINGS 37) -------------------------------------


def test_nightshade_bite_that_wounds_poisons_the_hq():
    """B13 Venom: "If a unit with a venom icon wounds an enemy unit (including Headquarters) then the wounded unit
    ... is also poisoned"; VENOM ISSUES: "Venom affects HQ like any other unit"."""
    result = fight("""
        c2 neojungle:nightshade S
        c3 borgo:hq hp=5
    """)
    hq = at(result.position, "c3")
    assert hq.venom == 1 and hq.hp == 4


def test_poisoned_unit_takes_a_wound_before_the_first_initiative_phase():
    """B13 Venom: "the poisoned unit receives one wound from the poison at the beginning of each battle (before
    the initiative phases)": the poisoned Mutant dies before its phase and the Slicer is unhurt."""
    result = fight("""
        c2 neojungle:nightshade N
        c3 neojungle:slicer N
        c4 borgo:mutant N venom=1
    """)
    assert at(result.position, "c4") is None
    assert at(result.position, "c3").wounds == 0


def test_two_venom_markers_on_one_unit_deal_two_wounds():
    """B13 VENOM ISSUES: "If one unit has two Venom markers, then at the beginning of each battle it gets two
    wounds from venom"."""
    result = fight("""
        c1 neojungle:nightshade N
        c3 borgo:hq hp=5 venom=2
    """)
    assert at(result.position, "c3").hp == 3


def test_no_spare_venom_marker_means_the_bite_does_not_poison():
    """B13 VENOM ISSUES: "If a Nightshade wounds another unit, and there is no spare venom marker, then the bitten
    unit is not poisoned"."""
    result = fight("""
        c2 neojungle:nightshade S
        c3 borgo:hq hp=9 venom=2
    """)
    assert at(result.position, "c3").venom == 2
    assert at(result.position, "c3").hp == 6  # two from venom, one bite, and no third marker


def test_venom_marker_comes_back_when_its_unit_dies():
    """B13 VENOM ISSUES: "When a venom marker leaves the board (a poisoned unit dies), then Nightshades can again
    poison an enemy": the poisoned Mutant dies of venom, so the marker is spare for the bite on the HQ."""
    result = fight("""
        c2 neojungle:nightshade S
        c3 borgo:hq hp=9 venom=1
        a1 borgo:mutant S venom=1
    """)
    assert at(result.position, "a1") is None
    assert at(result.position, "c3").venom == 2


def test_medic_takes_the_venom_wound_and_the_marker_stays():
    """B13 VENOM ISSUES: "A Medic can take the venom damage at the start of a battle for a unit linked to it";
    RULINGS 37: the Medic absorbs the wound, not the marker."""
    result = fight("""
        e1 neojungle:nightshade N
        c2 borgo:mutant S venom=1
        c3 borgo:medic N
    """)
    mutant = at(result.position, "c2")
    assert mutant is not None and mutant.venom == 1 and mutant.wounds == 0
    assert at(result.position, "c3") is None


def test_bite_absorbed_by_a_medic_poisons_nobody():
    """RULINGS 37: "A marker goes on a unit only when a Nightshade's attack really wounds it"."""
    result = fight("""
        c1 neojungle:nightshade S
        c2 borgo:mutant S
        c3 borgo:medic N
    """)
    assert at(result.position, "c2").venom == 0


def test_venom_wounds_carry_over_to_every_battle():
    """B13 Venom: "From now on the poisoned unit receives one wound ... at the beginning of each battle"."""
    first = fight("""
        c2 neojungle:nightshade S
        c3 borgo:hq hp=5
        a1 neojungle:slicer N
    """).position
    second = battle.resolve(first)[0].position
    assert at(first, "c3").hp == 4 and at(first, "c2") is None  # bitten once; the HQ killed the Nightshade
    assert at(second, "c3").hp == 3  # the marker alone wounds it again
    assert at(second, "c3").venom == 1
