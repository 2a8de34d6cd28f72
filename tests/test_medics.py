"""Medic chains (3E USING MEDICS; RULINGS 4 as amended by issue 9): the latter Medic, interconnected Medics, and a
latter Medic wanted twice in one phase. 3E = ../shared/rules/rulebook-en-3rd-edition.txt."""

from __future__ import annotations

from solver.engine import battle

from battle_helpers import outcomes


def standing(outcome: battle.Outcome) -> dict[str, int]:
    """Every unit left, by hex, with its wounds."""
    return {u.hex.label: u.wounds for u in outcome.position.units}


# The Medic on c4 (facing N) links c3, d4 and b4; the Medic on b3 (facing N) links b2, c4 and a3: it is the
# latter Medic of c4, and c4 is not linked back to it (not interconnected).
CHAIN = """
    c3 moloch:blocker N
    c4 moloch:medic N
    b3 moloch:medic N
    c2 borgo:brawler S
"""


def test_the_latter_medic_is_discarded_when_the_first_absorbs():
    """3E USING MEDICS: "If a unit is connected to a Medic Module, which has another Medic connected (but the
    Modules are not interconnected), when the unit is attacked, the Wound is absorbed by the latter (Medic)." The
    Brawler's blow on c3 is absorbed through c4 and the Medic on b3 is discarded; c4 stays."""
    (result,) = outcomes(CHAIN)
    assert standing(result) == {"c2": 0, "c3": 0, "c4": 0}
    assert any(e.kind == "medic" and "Medic on c4 absorbs borgo:brawler on c2" in e.text
               and "the Medic on b3 is discarded" in e.text for e in result.trace)


def test_a_latter_medic_wanted_twice_is_its_owners_to_give():
    """RULINGS 4 as amended (issue 9): the Medic on b3 is both c4's latter Medic and the Medic of the Blocker on
    b2, and both Blockers are struck in phase 2. Moloch chooses: b3 saves b2 and c4 absorbs the blow on c3 itself
    (both Blockers unhurt, both Medics gone), or b3 is discarded for c4 and the blow on b2 lands (c4 stays). 3E
    USING MEDICS: "Medics are always active": no end state leaves a Medic idle."""
    found = outcomes(CHAIN + """
        b2 moloch:blocker N
        b1 borgo:brawler S
    """)
    assert sorted(sorted(standing(o).items()) for o in found) == sorted([
        sorted({"b1": 0, "c2": 0, "b2": 0, "c3": 0}.items()),
        sorted({"b1": 0, "c2": 0, "b2": 2, "c3": 0, "c4": 0}.items()),
    ])
    assert all(len(o.choices) == 1 and o.choices[0].startswith("moloch: Medics: ") for o in found)


def test_a_chain_whose_latter_medic_is_hit_ends_at_the_first():
    """3E USING MEDICS: "If both a Medic and the connected unit are hit simultaneously, the Medic is destroyed and
    cannot save the unit": the Medic on b3, hit in the same phase, takes no loss for c4, which absorbs the blow on
    c3 itself."""
    (result,) = outcomes(CHAIN + """
        a3 borgo:brawler NE
    """)
    assert "c4" not in standing(result) and standing(result)["c3"] == 0


def test_between_interconnected_medics_the_owner_picks_which_goes():
    """3E USING MEDICS: "If 2 Medics are interconnected (each has the connection icon turned in the other's
    direction) the owner decides which of them absorbs Wounds." c4 (facing N) and d4 (facing NE) link each
    other."""
    found = outcomes("""
        c3 moloch:blocker N
        c4 moloch:medic N
        d4 moloch:medic NE
        c2 borgo:brawler S
    """)
    kept = sorted(tuple(h for h in ("c4", "d4") if h in standing(o)) for o in found)
    assert kept == [("c4",), ("d4",)]
    assert all(standing(o)["c3"] == 0 for o in found)


def test_two_medics_sharing_one_latter_medic_the_owner_gives_it_to_either():
    """RULINGS 4 as amended, with RULINGS 8: the Moloch Medic on c4 (facing N, linking d4 and b4) is taken by the
    Scoper on c5 and works for the Outpost, as the latter Medic of both Outpost Medics d4 and b4 (neither links
    c4 back); each of them saves a Runner from a Hybrid's shot. c4 can be discarded only once: the Outpost picks
    the chain it ends, and the other first Medic absorbs the shot itself."""
    found = outcomes("""
        c4 moloch:medic N
        d4 outpost:medic NE
        b4 outpost:medic NW
        c5 outpost:scoper N
        d3 outpost:runner S
        b3 outpost:runner S
        d2 moloch:hybrid S
        b2 moloch:hybrid S
    """)
    assert sorted(sorted(standing(o)) for o in found) == [
        ["b2", "b3", "b4", "c5", "d2", "d3"], ["b2", "b3", "c5", "d2", "d3", "d4"]]
    assert all(standing(o)["b3"] == 0 and standing(o)["d3"] == 0 for o in found)
    assert all(o.choices[0].startswith("outpost: Medics: ") for o in found)
