"""The Babel 13 campaign between scenarios (B13 CAMPAIGN: THE BABEL 13 MISSION, SPECIAL CAMPAIGN RULES)."""

from __future__ import annotations

import pytest

from solver.turns.campaign import campaign_winner, free_turns, scenario_result


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


# --- the scenarios' allied units: another army's units commanded by a player (`owner=`) ---------------------------

from solver.engine import effects
from solver.turns import game
from solver.notation import text as notation  # noqa: E402
from solver.errors import NotationError  # noqa: E402
from solver.hexes import Hex  # noqa: E402

RECKLESS_MISSION = """
game
players new-york neojungle
deck new-york 20
deck neojungle 20
terrain bunker tight,fortress,hidden a2 a3
terrain warehouse closed,high,prize e2 strength=6 damaged-by=new-york
a2 outpost:runner N owner=new-york
a3 outpost:commando N owner=new-york
c3 new-york:hq hp=15
c1 neojungle:hq hp=17
1. new-york: draw new-york:shooter new-york:sniper new-york:mine; discard new-york:mine; move a2 b3 NE
2. neojungle: draw neojungle:slicer neojungle:crusher neojungle:vines; discard neojungle:vines; {place}
"""


def test_scenario_4_the_new_york_player_commands_the_outpost_units_in_the_tight_bunker():
    """B13 SCENARIO 4: RECKLESS MISSION: "The New York player selects any 3 Outpost units of their choice (except
    HQ) and puts them in Bunker hexes. The Bunker is occupied by Outpost, and while any Outpost units remain in the
    Bunker, no other Army can enter it since the Bunker is Tight." Written `owner=new-york` (NOTATION §4: "who
    commands the tile, where it differs from its army"): the New York player moves the allied Runner by its Mobility,
    the Commando still holds the Bunker, and Neojungle may not enter it (B13 BUNKER, TIGHT). The allied tiles come
    from no player's pile: both decks keep 20 less what was drawn."""
    report = game.check(notation.parse(RECKLESS_MISSION.format(place="place neojungle:slicer b2 N")))
    assert report.ok, report.fault("<test>")
    assert report.state.position.deck("new-york") == 17 and report.state.position.deck("neojungle") == 17
    assert str(report.state.position.unit_at(Hex.parse("b3"))) == "b3 outpost:runner NE owner=new-york"
    refused = game.check(notation.parse(RECKLESS_MISSION.format(place="place neojungle:slicer a2 N")))
    assert not refused.ok and "Tight Bunker" in (refused.problem or "")


def test_scenario_2_allied_moloch_units_fight_for_neojungle_but_stay_out_of_the_motherland():
    """B13 SCENARIO 2: STEEL CONVOY: "the Neojungle player selects 5 Moloch units of their choice (except HQ) and
    puts them on the board"; B13 NEOJUNGLE IN MULTIPLAYER GAMES: "Allied units do not belong to the Motherland ...
    Neojungle Modules connected to ally unit give him a bonus." The Symbiont Alpha linked to the Slicer boosts every
    member (HQ included) but not the allied Blocker beside the HQ; linked to the allied Hunter-Killer it boosts it
    alone. The allies are Neojungle's units in every other respect (their commander is their army)."""
    text = """
        c3 neojungle:hq
        c2 neojungle:slicer N
        d1 neojungle:symbiont-alpha SW
        b3 moloch:blocker N owner=neojungle
        e2 moloch:hunter-killer N owner=neojungle
        e3 neojungle:symbiont-beta N
        a1 new-york:hq
    """
    where = notation.parse_position(text)
    reading = effects.read(effects.by_hex(where), where.rules, None, where.teams, where.foundations)
    melee = {h.label for h, b in reading.bonuses.items() if b.melee}
    assert melee == {"c2", "c3"}
    assert {h.label for h, b in reading.bonuses.items() if b.initiative} == {"e2"}
    assert all(u.army == "neojungle" for u in where.units if u.tile.army == "moloch")


@pytest.mark.parametrize("line, message", [
    ("b3 moloch:blocker N owner=moloch", "moloch:blocker is commanded by moloch"),
    ("b3 moloch:hq owner=neojungle", "moloch:hq is commanded by moloch"),
])
def test_owner_never_names_a_tiles_own_army_nor_goes_on_an_hq(line, message):
    """NOTATION §4: `owner=` is "who commands the tile, where it differs from its army"; an HQ is its army's."""
    with pytest.raises(NotationError, match=message):
        notation.parse_position("c3 neojungle:hq\n" + line + "\n")
