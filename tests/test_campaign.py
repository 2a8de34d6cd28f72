"""The Babel 13 campaign between scenarios (B13 CAMPAIGN: THE BABEL 13 MISSION, SPECIAL CAMPAIGN RULES)."""

from __future__ import annotations

import pytest

from solver.campaign import campaign_winner, free_turns, scenario_result


def test_the_scenario_winner_is_the_hq_with_fewer_injuries_and_regains_three():
    """SPECIAL CAMPAIGN RULES: 'the winning HQ (which has received fewer injuries) regains 3 Hit Points'."""
    result = scenario_result({"new-york": 20, "neojungle": 20}, {"new-york": 17, "neojungle": 15})
    assert result.winner == "new-york" and not result.tie and not result.campaign_over
    assert result.injuries == {"new-york": 3, "neojungle": 5}
    assert result.next_hp == {"new-york": 20, "neojungle": 15}  # 17 + 3, at most 20


def test_injuries_count_from_the_scenarios_start_not_from_20():
    """NOTE (two markers per side): the winner of one scenario is decided by 'the number of injuries received in
    this scenario'."""
    result = scenario_result({"new-york": 10, "neojungle": 18}, {"new-york": 8, "neojungle": 13})
    assert result.winner == "new-york"  # 2 injuries against 5, although its health is lower
    assert result.next_hp == {"new-york": 11, "neojungle": 13}


def test_a_tied_scenario_is_won_by_neojungle_and_nobody_regains():
    """SPECIAL CAMPAIGN RULES: 'In the case of a tie, no one gains the 3 points, and the scenario winner ... is
    considered to be Neojungle.'"""
    result = scenario_result({"new-york": 20, "neojungle": 20}, {"new-york": 16, "neojungle": 16})
    assert result.tie and result.winner == "neojungle"
    assert result.next_hp == {"new-york": 16, "neojungle": 16}


def test_a_destroyed_hq_ends_the_campaign():
    """SPECIAL CAMPAIGN RULES: 'The total destruction of the opponent's HQ in any scenario means the end of the
    campaign and victory for the player whose HQ remains on the board.'"""
    result = scenario_result({"new-york": 20, "neojungle": 9}, {"new-york": 4, "neojungle": 0})
    assert result.campaign_over and result.winner == "new-york"


def test_scenario_2_gives_the_winner_the_difference_in_injuries_as_free_turns():
    """SCENARIO 2, Start: 'if the previous winner's HQ received 3 wounds and the opponent's HQ received 5, then the
    starting player takes 2 free turns'."""
    result = scenario_result({"new-york": 20, "neojungle": 20}, {"new-york": 17, "neojungle": 15})
    assert free_turns(result) == 2


def test_the_campaign_is_won_by_the_most_hit_points():
    """VICTORY: 'The army whose Headquarters finishes with highest amount of Hit Points wins the campaign.'"""
    assert campaign_winner({"new-york": 12, "neojungle": 9}) == "new-york"
    assert campaign_winner({"new-york": 9, "neojungle": 9}) is None


def test_a_scenario_has_two_sides():
    with pytest.raises(ValueError):
        scenario_result({"new-york": 20}, {"new-york": 20})
