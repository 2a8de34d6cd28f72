"""Prize markers (B13 PRIZE MARKERS): what each does in battle, and `prize NAME HEX` between battles."""

from __future__ import annotations

import pytest

from battle_helpers import fight as outcome
from battle_helpers import outcomes, units
from solver.turns import actions
from solver.engine import battle
from solver.errors import IllegalAction, RuleNotImplemented
from solver.hexes import Hex
from solver.notation.text import parse, parse_action
from solver.position import Move, PutPrize


def h(label: str) -> Hex:
    return Hex.parse(label)




HQS = "a1 outpost:hq\ne1 moloch:hq\n"


def test_a_first_aid_kit_gives_one_more_toughness():
    """B13 PRIZE MARKERS, FIRST AID KIT: 'The unit has an additional Toughness point'."""
    o = outcome(HQS + "c5 moloch:hybrid N\nc3 hegemony:runner N prize=first-aid-kit\n")
    assert units(o)["c3"] == "c3 hegemony:runner N wounds=1 prize=first-aid-kit"


def test_an_enhanced_hit_raises_melee_strength():
    """B13 PRIZE MARKERS, ENHANCED HIT: 'The unit's hit strength is increased by 1'."""
    plain = outcome(HQS + "c4 hegemony:runner N\nc3 moloch:blocker S\n")
    assert units(plain)["c3"].endswith("wounds=1")
    o = outcome(HQS + "c4 hegemony:runner N prize=enhanced-hit\nc3 moloch:blocker S\n")
    assert units(o)["c3"].endswith("wounds=2")


def test_an_enhanced_shot_raises_ranged_strength_only():
    """B13 PRIZE MARKERS, ENHANCED SHOT: 'The unit's shot strength is increased by 1'."""
    o = outcome(HQS + "c5 moloch:hybrid N prize=enhanced-shot\nc3 hegemony:gladiator N\n")
    assert "c3" not in units(o)
    o = outcome(HQS + "c4 hegemony:runner N prize=enhanced-shot\nc3 moloch:blocker S\n")
    assert units(o)["c3"].endswith("wounds=1")


def test_the_accelerator_lets_a_unit_strike_first():
    """B13 PRIZE MARKERS, THE ACCELERATOR: 'The unit's Initiative is increased by 1'. A runner and a ripper
    (both initiative 2) facing each other kill each other; with the Accelerator the ripper strikes at 3 first."""
    both = outcome(HQS + "c4 hegemony:runner N\nc3 moloch:ripper S\n")
    assert "c3" not in units(both) and "c4" not in units(both)
    o = outcome(HQS + "c4 hegemony:runner N\nc3 moloch:ripper S prize=accelerator\n")
    assert "c3" in units(o) and "c4" not in units(o)


def test_an_additional_action_strikes_again_one_initiative_lower():
    """B13 PRIZE MARKERS, ADDITIONAL ACTION: 'another action in the next Initiative segment following its normal
    action'; RULINGS 48."""
    o = outcome(HQS + "c5 moloch:hybrid N prize=additional-action\nc2 hegemony:gladiator N\n")
    assert "c2" not in units(o)  # two shots of 1 on a gladiator of toughness 1
    assert [e.phase for e in o.trace if e.kind == "ranged"] == [3, 2]


def test_an_additional_action_below_initiative_0_is_lost():
    """RULINGS 48: lost below 0 ('no further actions can be performed after the Initiative 0 segment')."""
    o = outcome(HQS + "c4 outpost:hmg N prize=additional-action\nc1 moloch:blocker N\n")
    assert [e.phase for e in o.trace if e.kind == "ranged"] == [2, 1, 0]
    o = outcome(HQS + "c5 moloch:gauss-cannon SE prize=additional-action\nc2 hegemony:gladiator N\n")
    assert [e.phase for e in o.trace if e.kind == "gauss"] == [1, 0]


def test_explosives_wound_every_neighbour_hqs_included_and_remove_the_unit():
    """B13 PRIZE MARKERS, EXPLOSIVES: 'the unit can choose to explode instead of doing its normal attack ... 1
    wound to all adjacent units (enemy and friendly alike) ... may, for example, wound Headquarters'; RULINGS
    47."""
    found = outcomes("c2 outpost:hq\ne1 moloch:hq\nc3 moloch:ripper S prize=first-aid-kit,explosives\n"
                     "d3 moloch:blocker N\n")
    attacked, exploded = sorted(found, key=lambda o: "c3" not in units(o))
    assert "wounds=1" in units(attacked)["c3"] and attacked.hq["outpost"] == 20
    assert "c3" not in units(exploded)
    assert exploded.hq["outpost"] == 19
    assert units(exploded)["d3"] == "d3 moloch:blocker N wounds=1"  # friend and foe alike
    assert any("explodes" in c for c in exploded.choices)


def test_a_universal_marker_on_a_unit_is_refused_by_name():
    """B13 PRIZE MARKERS, UNIVERSAL MARKERS: 'their meaning is described by the particular scenario'."""
    with pytest.raises(RuleNotImplemented, match="universal-2"):
        battle.resolve(parse(HQS + "c3 moloch:blocker N prize=universal-2\n"))


# --- between battles --------------------------------------------------------------------------------------------

HELD = "a1 outpost:hq\ne1 moloch:hq\nprizes moloch mobility explosives\nc3 moloch:blocker N\nc4 outpost:runner N\n"


def test_a_held_prize_is_put_on_an_own_unit_far_away():
    """B13 PRIZE MARKERS: 'he can place it on a unit of his choice in any of his later turns. Every friendly unit
    is eligible'."""
    position = parse(HELD)
    after = actions.apply(position, parse_action("prize mobility c3", "moloch"), "moloch")
    assert after.unit_at(h("c3")).prizes == ("mobility",)
    assert after.held_prizes == (("moloch", ("explosives",)),)


def test_the_legal_actions_offer_every_held_prize_on_every_own_unit_but_the_hq():
    """B13 PRIZE MARKERS: 'Headquarters cannot have Prize markers'."""
    listed = {str(a) for a in actions.player_actions(parse(HELD), "moloch") if isinstance(a, PutPrize)}
    assert listed == {"prize mobility c3", "prize explosives c3"}


@pytest.mark.parametrize("action, problem", [
    ("prize mobility e1", "Headquarters cannot have Prize markers"),
    ("prize mobility c4", "own units"),
    ("prize first-aid-kit c3", "holds no first-aid-kit"),
])
def test_a_prize_cannot_go_on_an_hq_an_enemy_or_come_from_nowhere(action, problem):
    with pytest.raises(IllegalAction, match=problem):
        actions.apply(parse(HELD), parse_action(action, "moloch"), "moloch")


def test_a_unit_cannot_have_more_than_two_prizes():
    """B13 PRIZE MARKERS: 'A unit cannot have more than 2 Prize Markers on it.'"""
    position = parse(HELD.replace("c3 moloch:blocker N", "c3 moloch:blocker N prize=first-aid-kit,accelerator"))
    with pytest.raises(IllegalAction, match="more than 2"):
        actions.apply(position, parse_action("prize mobility c3", "moloch"), "moloch")


def test_a_mobility_marker_gives_its_unit_a_free_move():
    """B13 PRIZE MARKERS, MOBILITY: 'The unit has Mobility (ability to move one hex and change facing during the
    owner's turn).'"""
    position = parse("a1 outpost:hq\ne1 moloch:hq\nc3 moloch:blocker N prize=mobility\n")
    moves = {str(a) for a in actions.player_actions(position, "moloch") if isinstance(a, Move)}
    assert "move c3 c2 S" in moves
    plain = parse("a1 outpost:hq\ne1 moloch:hq\nc3 moloch:blocker N\n")
    assert not [a for a in actions.player_actions(plain, "moloch") if isinstance(a, Move)]


def test_a_prize_goes_on_a_unit_its_holder_has_taken_over_not_on_one_taken_from_it():
    """B13 PRIZE MARKERS: 'Every friendly unit is eligible'; PL VEGAS, Sztab: a taken unit "pod każdym względem
    traktowana jest jak własna" (is in every respect its taker's own). The Agitator on c3 holds the Blocker on c2."""
    text = ("e1 vegas:hq N\na3 moloch:hq\nc3 vegas:agitator N\nc2 moloch:blocker N\n"
            "prizes vegas mobility\nprizes moloch explosives\n")
    assert "prize mobility c2" in {str(a) for a in actions.player_actions(parse(text), "vegas")}
    assert "prize explosives c2" not in {str(a) for a in actions.player_actions(parse(text), "moloch")}
    with pytest.raises(IllegalAction, match="own units"):
        actions.apply(parse(text), parse_action("prize explosives c2", "moloch"), "moloch")
