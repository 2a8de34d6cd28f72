"""Babel 13 scenarios and the campaign (rulebook-en-babel13.txt, CAMPAIGN: THE BABEL 13 MISSION, SCENARIO 1-5,
SPECIAL CAMPAIGN RULES, VICTORY): the scenario statements (README, notation extensions; solver/notation/scenarios.py), the book's
scenarios as data (solver/terrain/babel13.scenarios), game records of scenarios and `nhex campaign`."""

from __future__ import annotations

import json
from dataclasses import replace
from pathlib import Path

import pytest

from solver.engine import battle
from solver.turns import campaign, game
from solver.notation import scenarios
from solver.notation import text as notation
from solver.errors import NotationError, RuleNotImplemented
from solver.turns.game import moves_listing
from solver.hexes import Hex
from solver.rules import RuleSet
from cli_helpers import nhex

ROOT = Path(__file__).resolve().parent.parent
DATA = ROOT / "tests" / "data" / "scenarios"
S1, S2 = DATA / "s1-first-meeting.nhex", DATA / "s2-steel-convoy.nhex"
S4, S5 = DATA / "s4-reckless-mission.nhex", DATA / "s5-battle-of-babel-13.nhex"
S3 = DATA / "s3-hit-the-bunker.nhex"


def text_of(path: Path, *changes: tuple[str, str]) -> str:
    text = path.read_text(encoding="utf-8")
    for old, new in changes:
        assert old in text, old
        text = text.replace(old, new)
    return text


def check(text: str) -> game.CheckReport:
    return game.check(notation.parse(text))


def play(*texts: tuple[str, str], rules: RuleSet | None = None) -> campaign.CampaignReport:
    records = []
    for name, text in texts:
        record = notation.parse(text, name)
        if rules is not None:
            record = replace(record, position=replace(record.position, rules=rules))
        records.append((name, record))
    return campaign.play(records)


FIRST_MEETING = """game
players new-york neojungle
scenario babel13-1
terrain wasteland plain a1 a2 b2 c3
terrain forest thick,jungle d3 e2 e3
1. {first}: hq {hq}
"""


# --- the book's scenarios as data ----------------------------------------------------------------------------------


def test_the_five_scenarios_of_the_babel_13_mission_are_data():
    """CAMPAIGN: THE BABEL 13 MISSION: "The campaign consists of 5 scenarios"; each `scenario babel13-N` brings in the
    book's start conditions: SCENARIO 1 "New York is the first player. The NY HQ must be placed on Wasteland
    Terrain, and the Neojungle HQ must be placed in Forest"; SCENARIO 2 "The winner of the previous scenario starts
    ... takes as many free turns as difference in injuries"; SCENARIO 4 "Neojungle HQ recovers 4 Hit Points", the
    radio; SCENARIO 5 "The New York HQ cannot be placed in the Forest", the reinforcements (3 Hegemony, 6 Borgo)."""
    book = scenarios.book()
    assert sorted(book) == [f"babel13-{n}" for n in range(1, 6)]
    assert book["babel13-1"].first_player == "new-york"
    assert set(book["babel13-1"].hq_terrain) == {("new-york", True, "wasteland"), ("neojungle", True, "forest")}
    assert book["babel13-2"].free_turns == (scenarios.PREVIOUS_WINNER, None)
    assert book["babel13-4"].recover == (("neojungle", 4),)
    assert book["babel13-4"].warehouse_needs == (("outpost", "bunker"),) and book["babel13-4"].radio == "universal-1"
    assert book["babel13-5"].hq_terrain == (("new-york", False, "forest"),)
    assert set(book["babel13-5"].reinforcements) == {("new-york", "hegemony", 3, "captured"),
                                                     ("neojungle", "borgo", 6, "lost")}
    # SPECIAL CAMPAIGN RULES hold in every scenario: fewer injuries win, a tie is Neojungle's.
    assert all(s.victory == "fewer-injuries" and s.tie == "neojungle" for s in book.values())


def test_a_line_written_in_the_file_replaces_the_books_line_of_its_kind():
    """The scenario data is the default (GENERAL PRINCIPLE: "Choose from the propositions described below (or invent
    your own and accurately describe them)"): `hq-terrain neojungle on wasteland` replaces the book's Forest."""
    position = notation.parse_position("scenario babel13-1\nhq-terrain neojungle on wasteland\n"
                                       "terrain wasteland plain a1 a2\nterrain forest thick b1\nc3 outpost:hq\n")
    full = scenarios.of(position)
    assert full is not None and set(full.hq_terrain) == {("new-york", True, "wasteland"),
                                                         ("neojungle", True, "wasteland")}


# --- HQ placement --------------------------------------------------------------------------------------------------


def test_scenario_1_the_new_york_hq_must_be_placed_on_wasteland_terrain():
    """rulebook-en-babel13.txt, SCENARIO 1: FIRST MEETING, Start: "The NY HQ must be placed on Wasteland Terrain"."""
    assert check(FIRST_MEETING.format(first="new-york", hq="c3")).ok
    refused = check(FIRST_MEETING.format(first="new-york", hq="c4"))
    assert refused.verdict == "illegal" and refused.line == 6
    assert refused.problem == "the new-york HQ must be placed on wasteland (B13 SCENARIO 1: FIRST MEETING, Start)"


def test_scenario_1_the_neojungle_hq_must_be_placed_in_forest():
    """SCENARIO 1: FIRST MEETING, Start: "the Neojungle HQ must be placed in Forest"."""
    text = FIRST_MEETING.format(first="new-york", hq="c3") + "2. neojungle: hq {}\n"
    assert check(text.format("e2")).ok
    refused = check(text.format("b2"))
    assert refused.verdict == "illegal" and "neojungle HQ must be placed on forest" in (refused.problem or "")


def test_scenario_1_new_york_is_the_first_player():
    """SCENARIO 1: FIRST MEETING, Start: "New York is the first player." A record seating Neojungle first breaks the
    scenario at its first turn."""
    text = FIRST_MEETING.format(first="neojungle", hq="e2").replace("players new-york neojungle",
                                                                     "players neojungle new-york")
    refused = check(text)
    assert refused.verdict == "illegal" and refused.action == "1. neojungle"
    assert refused.problem == "new-york is the first player (B13 SCENARIO 1: FIRST MEETING, Start)"


def test_scenario_1_hq_placement_refused_by_nhex_check_with_exit_1_naming_the_rule():
    """SCENARIO 1: FIRST MEETING, Start, through the console script: exit 1 and the rule at the record's line."""
    done = nhex("check", "-", stdin=FIRST_MEETING.format(first="new-york", hq="d3"))
    assert done.returncode == 1
    assert done.stdout.strip() == ("<stdin>:6: hq d3: illegal: the new-york HQ must be placed on wasteland "
                                   "(B13 SCENARIO 1: FIRST MEETING, Start)")


def test_scenario_1_moves_lists_only_the_hq_placements_on_the_allowed_terrain():
    """SCENARIO 1: FIRST MEETING, Start: "the Neojungle HQ must be placed in Forest". With its HQ still to place, the
    side to move has nothing to do but place it (3E GAME SEQUENCE), on a free Forest hex."""
    position = notation.parse_position("scenario babel13-1\nterrain wasteland plain a1 a2 b2 c3\n"
                                       "terrain forest thick,jungle d3 e2 e3\nto-move neojungle\nc3 new-york:hq\n"
                                       "e2 new-york:cop N\nhand neojungle\n")
    assert moves_listing(position, "neojungle") == [("hq actions", ["hq d3", "hq e3"])]
    done = nhex("moves", "--json", "-", stdin=str(position))
    assert done.returncode == 0 and json.loads(done.stdout) == ["hq d3", "hq e3"]


def test_scenario_5_the_new_york_hq_cannot_be_placed_in_the_forest():
    """SCENARIO 5: BATTLE OF BABEL 13, Start: "The New York HQ cannot be placed in the Forest." `nhex check` refuses
    the placement; `nhex moves` lists every free hex but the Forest's."""
    refused = check(text_of(S5, ("1. new-york: hq c3", "1. new-york: hq d1")))
    assert refused.verdict == "illegal" and refused.problem == ("the new-york HQ cannot be placed on forest "
                                                                "(B13 SCENARIO 5: BATTLE OF BABEL 13, Start)")
    position = notation.parse_position("scenario babel13-5\nterrain forest thick d1 e1 e2\nterrain base closed,high a1"
                                       "\nto-move new-york\nhand new-york\n")
    placed = {line.split()[1] for _, lines in moves_listing(position, "new-york") for line in lines}
    assert placed == {h.label for h in position.board} - {"d1", "e1", "e2", "a1"}


def test_hq_terrain_of_a_type_the_board_lacks_is_bad_input_at_its_line():
    """An `hq-terrain ARMY on TYPE` with no terrain of that type could never be obeyed: a located consistency error
    (exit 2), like every contradiction of a position (NOTATION §9)."""
    done = nhex("check", "-", stdin="c3 outpost:hq\nhq-terrain new-york on wasteland\n")
    assert done.returncode == 2
    assert done.stderr.strip() == "<stdin>:2:1: the new-york HQ must be placed on wasteland, but no terrain line is wasteland"


# --- Scenario 2: free turns ----------------------------------------------------------------------------------------


def test_scenario_2_the_winner_places_its_hq_and_takes_its_free_turns_before_the_second_hq():
    """SCENARIO 2: STEEL CONVOY, Start: "He places his HQ, and then takes as many free turns as difference in injuries
    received by the two HQs in the previous scenario ... Then the second player places their HQ". New York's one
    free turn comes before the Neojungle HQ: Neojungle may not place it at turn 2."""
    assert game.check(notation.load(str(S2))).ok
    early = check(STEEL_CONVOY.split("2. new-york")[0] + "2. neojungle: hq d3\n")
    assert early.verdict == "illegal" and early.action == "2. neojungle" and "new-york's turn" in (early.problem or "")


def test_scenario_2_the_second_player_begins_with_drawing_3_tiles_and_plays_first():
    """SCENARIO 2: STEEL CONVOY, Start: "Then the second player places their HQ, and begins with drawing 3 tiles.
    Play continues normally." Neojungle, the second player, draws 3 (not the 2 of 3E GAME SEQUENCE) and takes the
    first turn after the HQs; then New York (full decks: every draw is an opening draw)."""
    report = check(STEEL_CONVOY)
    assert report.ok, report.problem
    assert report.turns == 5 and report.state.to_move == "neojungle"
    two = check(STEEL_CONVOY.replace("draw neojungle:slicer neojungle:crusher neojungle:swarm; discard "
                                     "neojungle:swarm;", "draw neojungle:slicer neojungle:crusher;"))
    assert two.verdict == "illegal" and "3 here" in (two.problem or "")
    plain = check(STEEL_CONVOY.replace("free-turns new-york 1\n", "free-turns new-york 0\n"))
    assert plain.verdict == "illegal" and plain.action == "2. new-york"  # no free turn: Neojungle's HQ comes next


def test_scenario_2_the_free_turns_first_draw_follows_option_free_turn_draw():
    """SCENARIO 2: STEEL CONVOY is silent on the starting player's draw in a free turn: option `free-turn-draw`
    (default `three`); `opening` draws 1, as the first player's first turn (3E GAME SEQUENCE)."""
    opening = STEEL_CONVOY.replace("game\n", "game\nrules 3.0 free-turn-draw=opening\n")
    refused = check(opening)
    assert refused.verdict == "illegal" and refused.action.startswith("draw new-york:shooter")
    allowed = check(opening.replace("draw new-york:shooter new-york:cop new-york:hammer; discard new-york:hammer; "
                                    "place new-york:shooter b1 SE; place new-york:cop c2 N",
                                    "draw new-york:shooter; place new-york:shooter b1 SE"))
    assert allowed.ok, allowed.problem


def test_scenario_2_alone_cannot_know_its_free_turns_exit_4_naming_what_is_missing():
    """SCENARIO 2: STEEL CONVOY, Start: the free turns are "as many ... as difference in injuries received by the two
    HQs in the previous scenario": a lone record that does not write them needs a result nhex does not have (exit 4,
    at the `scenario` line), unless it is checked in a campaign."""
    text = text_of(S2, ("free-turns new-york 1\n", ""))
    done = nhex("check", "-", stdin=text)
    assert done.returncode == 4
    assert done.stderr.startswith("<stdin>:9:1: not implemented yet: the previous scenario's winner and injuries")
    assert "nhex campaign" in done.stderr


def test_scenario_2_free_turns_go_to_the_starting_player():
    """SCENARIO 2: STEEL CONVOY, Start: "The winner of the previous scenario starts. He places his HQ, and then takes
    ... free turns": a `free-turns` line for the second player breaks the scenario."""
    refused = check(text_of(S2, ("free-turns new-york 1", "free-turns neojungle 1")))
    assert refused.verdict == "illegal" and "the starting player, new-york, takes the free turns" in refused.problem


STEEL_CONVOY = """game
players new-york neojungle
scenario babel13-2
free-turns new-york 1
a1 moloch:blocker S owner=neojungle
a2 moloch:blocker S owner=neojungle
a3 moloch:ripper SW owner=neojungle
e1 moloch:guard NE owner=neojungle
e2 moloch:net-fighter SE owner=neojungle
1. new-york: hq c3
2. new-york: draw new-york:shooter new-york:cop new-york:hammer; discard new-york:hammer; place new-york:shooter b1 SE; place new-york:cop c2 N
3. neojungle: hq d3
4. neojungle: draw neojungle:slicer neojungle:crusher neojungle:swarm; discard neojungle:swarm; place neojungle:slicer d2 NW; place neojungle:crusher c4 N
5. new-york: draw new-york:hammer new-york:pusher new-york:cop; discard new-york:pusher; place new-york:hammer d4 N
"""


# --- the scenario's winner -----------------------------------------------------------------------------------------


def test_special_campaign_rules_the_scenario_is_won_by_the_hq_with_fewer_injuries():
    """SPECIAL CAMPAIGN RULES: "the winning HQ (which has received fewer injuries)"; NOTE: "keep track of injuries
    received in a particular scenario (to decide the winner in this one scenario)". New York ends scenario 1 with 15
    Hit Points against Neojungle's 19, but it started with 15 (`start-hp`) and received none: it wins."""
    report = game.check(notation.load(str(S1)))
    assert report.ok and report.state.winners == ("new-york",)
    assert report.state.hq == {"new-york": 15, "neojungle": 19}
    assert "fewer injuries in the scenario (new-york 0, neojungle 1" in report.state.history[-1]


def test_special_campaign_rules_a_tie_counts_as_neojungles():
    """SPECIAL CAMPAIGN RULES: "In the case of a tie, no one gains the 3 points, and the scenario winner ... is
    considered to be Neojungle." Both HQs receive 2 injuries in scenario 2; no tie-break turns are played."""
    report = game.check(notation.load(str(S2)))
    assert report.ok and report.state.winners == ("neojungle",) and report.turns == 5


def test_check_json_of_a_scenario_shows_the_winner_and_the_injuries():
    """SPECIAL CAMPAIGN RULES, NOTE: "at the scenario end you can see the starting and ending Hit Points of the
    Headquarters, and thus the number of injuries received in this scenario"."""
    done = nhex("check", "--json", str(S1))
    data = json.loads(done.stdout)
    assert done.returncode == 0 and data["verdict"] == "legal" and data["winner"] == "new-york"
    assert data["start_hp"] == {"new-york": 15, "neojungle": 20}
    assert data["injuries"] == {"new-york": 0, "neojungle": 1}
    text = nhex("check", str(S1)).stdout
    assert "injuries in the scenario: new-york 0 (from 15), neojungle 1 (from 20)" in text


def test_start_hp_sets_the_hq_placed_and_must_match_an_hq_on_the_board():
    """SPECIAL CAMPAIGN RULES: "At the beginning of each later scenario the HQ have whatever Hit Points they had at the
    end of the previous scenario": `start-hp` is the HQ's health as it is placed; an HQ already on the board with
    another hp= at a game record's start contradicts it (exit 2 at the `start-hp` line)."""
    report = check(FIRST_MEETING.format(first="new-york", hq="c3").replace("scenario babel13-1",
                                                                           "scenario babel13-1\nstart-hp new-york 9"))
    assert report.ok and report.state.hq["new-york"] == 9
    with pytest.raises(NotationError, match=r"start-hp new-york 12, but the new-york HQ on c3 has hp=11"):
        notation.parse("game\nplayers new-york neojungle\nstart-hp new-york 12\nc3 new-york:hq hp=11\n")


# --- Scenario 4: the radio -----------------------------------------------------------------------------------------


def outcome(path: Path):
    outcomes = battle.resolve(notation.load(str(path)))
    assert len(outcomes) == 1
    return outcomes[0].position


def test_scenario_4_new_york_captures_the_radio_while_an_outpost_unit_is_in_the_bunker():
    """SCENARIO 4: RECKLESS MISSION, Additional Rules: "If New York captures the radio ... The Warehouse can be opened
    as long as at least one Outpost unit is still in the Bunker." The radio is the Warehouse's Universal marker."""
    after = outcome(DATA / "s4-radio-guarded.nhex")
    assert dict(after.held_prizes) == {"new-york": ("universal-1",)}


def test_scenario_4_the_radio_is_destroyed_when_no_outpost_unit_is_left_in_the_bunker():
    """SCENARIO 4: RECKLESS MISSION, Additional Rules: "If there is not an Outpost unit in the Bunker, the radio is
    destroyed, and nobody can get it." The Runner dies in initiative 2; the Warehouse broken in initiative 1 is empty.
    `nhex battle --json` shows it."""
    after = outcome(DATA / "s4-radio-lost.nhex")
    assert not after.held_prizes
    assert all(not e.prizes for e in after.terrain if e.type == "warehouse")
    data = json.loads(nhex("battle", "--json", str(DATA / "s4-radio-lost.nhex")).stdout)
    assert data["outcomes"][0]["warehouses"] == {"b4": {"wounds": 6, "prizes": []}}
    assert "held_prizes" not in data["outcomes"][0]
    trace = nhex("battle", "--no-board", str(DATA / "s4-radio-lost.nhex")).stdout
    assert "no outpost unit in the bunker: the Warehouse's universal-1 destroyed" in " ".join(trace.split())


def test_scenario_4_the_radio_is_destroyed_when_the_last_outpost_unit_leaves_the_bunker():
    """SCENARIO 4: RECKLESS MISSION, Additional Rules: "If there is not an Outpost unit in the Bunker, the radio is
    destroyed". Between battles too: the New York player moves the allied Runner out of the Bunker by its Mobility."""
    text = """game
players new-york neojungle
scenario babel13-4
terrain bunker tight,fortress,hidden a2
terrain warehouse closed,high,prize b4 strength=6 prizes=universal-1 damaged-by=new-york
a2 outpost:runner N owner=new-york
c1 new-york:hq
e3 neojungle:hq
1. new-york: draw new-york:shooter; move a2 b2 N; place new-york:shooter d1 S
"""
    report = check(text)
    assert report.ok, report.problem
    assert all(not e.prizes for e in report.state.position.terrain if e.type == "warehouse")
    assert any("the Warehouse's universal-1 is destroyed (B13 SCENARIO 4: RECKLESS MISSION, Additional Rules)" in line
               for line in report.state.history)
    kept = check(text.replace("move a2 b2 N; ", ""))
    assert kept.ok and any(e.prizes == ("universal-1",) for e in kept.state.position.terrain)


def test_scenario_4_only_new_york_can_damage_the_warehouse_outpost_units_may_not():
    """SCENARIO 4: RECKLESS MISSION: "Only New York can damage the Warehouse (Outpost units may not)" (`damaged-by=
    new-york`, NOTATION §10.3). An Outpost unit the New York player commands does not wound it (option
    `warehouse-damaged-by`, default `army`); with `commander` it does."""
    text = ("terrain warehouse closed,high,prize b4 strength=6 prizes=universal-1 damaged-by=new-york\n"
            "c4 outpost:brawler SW owner=new-york\nc5 neojungle:crusher NW\ne1 new-york:hq\ne3 neojungle:hq\n")
    for rules, wounded in (("", False), ("rules 3.0 warehouse-damaged-by=commander\n", True)):
        after = battle.resolve(notation.parse_position(rules + text))[0].position
        assert [e.wounds > 0 for e in after.terrain] == [wounded], rules
    assert [e.wounds for e in battle.resolve(notation.parse_position(
        text.replace("outpost:brawler SW owner=new-york", "new-york:cop SW")))[0].position.terrain] == [1]


# --- the campaign --------------------------------------------------------------------------------------------------


def test_campaign_of_scenarios_1_and_2_carries_hit_points_and_names_the_winner():
    """SPECIAL CAMPAIGN RULES: "At the beginning of each later scenario the HQ have whatever Hit Points they had at
    the end of the previous scenario. At the end of a scenario, the winning HQ ... regains 3 Hit Points"; VICTORY:
    "The army whose Headquarters finishes with highest amount of Hit Points wins the campaign". Scenario 1: New York
    15 -> 15 wins and goes on with 18; Neojungle 19. Scenario 2: a tie (16, 17); Neojungle wins the campaign."""
    done = nhex("campaign", str(S1), str(S2))
    assert done.returncode == 0, done.stdout + done.stderr
    assert "hq: new-york 16, neojungle 17" in done.stdout
    assert "campaign winner: neojungle" in done.stdout
    data = json.loads(nhex("campaign", "--json", str(S1), str(S2)).stdout)
    assert data["verdict"] == "legal" and data["winner"] == "neojungle" and data["hq"] == {"new-york": 16,
                                                                                           "neojungle": 17}
    first, second = data["scenarios"]
    assert first["winner"] == "new-york" and first["next_hp"] == {"new-york": 18, "neojungle": 19}
    assert second["start_hp"] == {"new-york": 18, "neojungle": 19} and second["tie"]


def test_campaign_fills_in_scenario_2s_free_turns_and_hit_points_from_scenario_1():
    """SCENARIO 2: STEEL CONVOY, Start: "takes as many free turns as difference in injuries received by the two HQs in
    the previous scenario (E.g. if the previous winner's HQ received 3 wounds and the opponent's HQ received 5, then
    the starting player takes 2 free turns." Without its `free-turns` and `start-hp` lines scenario 2 is played with
    the campaign's: New York won by 1 injury, so 1 free turn; 18 and 19 Hit Points."""
    bare = text_of(S2, ("free-turns new-york 1\n", ""), ("start-hp new-york 18\n", ""), ("start-hp neojungle 19\n", ""))
    report = play((str(S1), S1.read_text()), ("s2.nhex", bare))
    assert report.ok and report.winner == "neojungle"
    assert report.played[1].filled == ("start-hp new-york 18", "start-hp neojungle 19", "free-turns new-york 1")


def test_campaign_refuses_a_scenario_starting_with_other_hit_points_than_carried():
    """SPECIAL CAMPAIGN RULES: the HQs start "with whatever Hit Points they had at the end of the previous scenario",
    the winner's 3 regained: scenario 2 after scenario 1 cannot start New York at 17 (exit 1, at the line)."""
    done = nhex("campaign", str(S1), "-", stdin=text_of(S2, ("start-hp new-york 18", "start-hp new-york 17")))
    assert done.returncode == 1
    assert ("<stdin>:10: start-hp new-york 17: illegal: new-york's HQ starts this scenario with 18 Hit Points: it ended "
            "the previous one with 15 and regains 3") in done.stdout


def test_campaign_refuses_free_turns_other_than_the_injury_difference():
    """SCENARIO 2: STEEL CONVOY, Start: the number of free turns is the difference in injuries (1 here, not 2)."""
    report = play((str(S1), S1.read_text()), ("s2.nhex", text_of(S2, ("free-turns new-york 1", "free-turns new-york 2"))))
    assert report.fault is not None and report.fault.line == 12
    assert report.fault.rule.startswith("new-york won the previous scenario and takes 1 free turn ")


def test_scenario_4_neojungle_hq_recovers_4_hit_points_in_a_campaign():
    """SCENARIO 4: RECKLESS MISSION, Start: "At the beginning of the scenario Neojungle HQ recovers 4 Hit Points"
    (never above 20: SPECIAL CAMPAIGN RULES). After scenario 1 (Neojungle 19, New York 15 + 3) scenario 4 starts at
    18 and 20."""
    s4 = text_of(S4, ("start-hp new-york 16", "start-hp new-york 18"), ("expect hp new-york 16", "expect hp new-york 18"))
    report = play((str(S1), S1.read_text()), ("s4.nhex", s4))
    assert report.ok, report.fault
    assert report.played[1].start_hp == {"new-york": 18, "neojungle": 20}
    s1 = text_of(S1, ("start-hp new-york 15", "start-hp new-york 15\nstart-hp neojungle 12"),
                 ("expect hp neojungle 19", "expect hp neojungle 11"))
    low = play(("s1.nhex", s1), ("s4.nhex", s4.replace("start-hp neojungle 20", "start-hp neojungle 16")))
    assert low.fault is not None and "recovers 4" in low.fault.rule and "with 15 Hit Points" in low.fault.rule


def test_scenario_5_reinforcements_go_to_the_side_the_radio_decided():
    """SCENARIO 4, Additional Rules: "If New York captures the radio, they will get reinforcements in the next
    scenario. If they fail, Neojungle will get reinforcements"; SCENARIO 5: "If New York gets reinforcements ..., they
    may place any 3 Hegemony units (except HQ). If Neojungle gets reinforcements, they may place 6 Borgo units." New
    York captured the radio in s4-reckless-mission.nhex: its 2 Hegemony units are allowed, Borgo units for Neojungle
    or a fourth Hegemony unit are not."""
    report = play((str(S4), S4.read_text()), (str(S5), S5.read_text()))
    assert report.ok and report.played[0].radio == ("universal-1", "new-york")
    borgo = play((str(S4), S4.read_text()), ("s5.nhex", text_of(S5, ("b3 hegemony:gladiator N owner=new-york",
                                                                       "b3 borgo:mutant N owner=neojungle"))))
    assert borgo.fault is not None and borgo.fault.rule == (
        "1 borgo unit commanded by neojungle at the start, but neojungle gets no reinforcements: the radio was captured "
        "in the previous scenario (B13 SCENARIO 5: BATTLE OF BABEL 13, Start)")
    many = text_of(S5, ("b3 hegemony:gladiator N owner=new-york", "b3 hegemony:gladiator N owner=new-york\n"
                        "a2 hegemony:ganger N owner=new-york\na3 hegemony:ganger N owner=new-york"))
    four = play((str(S4), S4.read_text()), ("s5.nhex", many))
    assert four.fault is not None and four.fault.rule.startswith("4 hegemony units commanded by new-york at the start")


def test_a_destroyed_hq_ends_the_campaign():
    """SPECIAL CAMPAIGN RULES: "The total destruction of the opponent's HQ in any scenario means the end of the
    campaign and victory for the player whose HQ remains on the board." Neojungle starts scenario 1 with 1 Hit Point
    and the Shooter destroys it: New York wins the campaign, and no scenario may follow."""
    s1 = text_of(S1, ("start-hp new-york 15", "start-hp new-york 15\nstart-hp neojungle 1"),
                 ("expect hp neojungle 19", "expect hp neojungle 0"))
    alone = play(("s1.nhex", s1))
    assert alone.ok and alone.winner == "new-york" and "total destruction" in alone.why
    after = play(("s1.nhex", s1), (str(S2), S2.read_text()))
    assert after.fault is not None and after.fault.source == str(S2) and "the campaign is over" in after.fault.rule


def test_the_campaign_winner_by_hit_points_and_the_options_for_the_last_scenario_and_a_tie():
    """VICTORY: "The army whose Headquarters finishes with highest amount of Hit Points wins the campaign." After
    scenario 5 Neojungle has 19, New York 16 (it won scenario 5 but regains its 3 only 'before starting the next
    scenario': option campaign-regain-last=no). With campaign-regain-last=yes both have 19: a tie, which option
    campaign-tie leaves drawn (default) or gives to the scenarios' tie army, Neojungle."""
    texts = ((str(S4), S4.read_text()), (str(S5), S5.read_text()))
    assert play(*texts).winner == "neojungle" and play(*texts).hp == {"new-york": 16, "neojungle": 19}
    regain = play(*texts, rules=RuleSet.make("3.0", [("campaign-regain-last", "yes")]))
    assert regain.ok and regain.hp == {"new-york": 19, "neojungle": 19} and regain.winner is None
    tie = play(*texts, rules=RuleSet.make("3.0", [("campaign-regain-last", "yes"), ("campaign-tie", "scenario-tie")]))
    assert tie.winner == "neojungle"


def test_a_campaign_takes_game_records_and_an_unfinished_scenario_stops_it():
    """A campaign goes on from the end of each scenario (SPECIAL CAMPAIGN RULES, NOTE: "at the scenario end"): a record
    that stops before its game is over cannot be followed (exit 1); a position is bad input (exit 2)."""
    unfinished = text_of(S1, ("4. neojungle: draw neojungle:slicer neojungle:crusher; place neojungle:slicer e2 N\n", ""))
    unfinished = unfinished.split("expect")[0]
    done = nhex("campaign", "-", str(S2), stdin=unfinished)
    assert done.returncode == 1 and "the scenario is not over" in done.stdout
    done = nhex("campaign", str(DATA / "s4-radio-lost.nhex"))
    assert done.returncode == 2 and "nhex campaign takes the game records" in done.stderr


# --- the notation ----------------------------------------------------------------------------------------------------


@pytest.mark.parametrize("line, column, message", [
    ("hq-terrain new-york above forest", 21, "expected on or not-on, not 'above'"),
    ("hq-terrain new-york on lava", 24, "unknown terrain 'lava'"),
    ("scenario babel13-9", 10, "unknown scenario 'babel13-9'"),
    ("start-hp neojungle 25", 20, "start-hp takes a number from 1 to 20, not '25'"),
    ("victory most-kills", 9, "unknown victory 'most-kills'"),
    ("victory fewer-injuries tie=martians", 28, "unknown army"),
    ("radio first-aid-kit", 7, "the radio is a Universal marker"),
    ("reinforcements new-york hegemony 3 radio=won", 42, "radio= takes captured or lost, not 'won'"),
    ("warehouse-needs outpost at bunker", 25, "expected in, not 'at'"),
    ("free-turns new-york", 1, "`free-turns` takes an army"),
])
def test_bad_scenario_lines_are_located_errors_exit_2(line: str, column: int, message: str):
    """Bad input is `FILE:LINE:COLUMN: message`, exit 2 (NOTATION §9), for the scenario lines too."""
    done = nhex("check", "-", stdin=f"c3 outpost:hq\n{line}\n")
    assert done.returncode == 2, done.stdout
    assert done.stderr.startswith(f"<stdin>:2:{column}: "), done.stderr
    assert message in done.stderr


def test_a_second_line_of_one_kind_is_bad_input():
    with pytest.raises(NotationError, match="a second `free-turns` line"):
        notation.parse("game\nplayers new-york neojungle\nfree-turns new-york 1\nfree-turns new-york 2\n")


@pytest.mark.parametrize("path", [S1, S2, S4, S5])
def test_scenario_records_read_back_as_written(path: Path):
    """parse∘write is the identity for the scenario lines (README, notation extensions); `nhex fmt` is idempotent."""
    document = notation.load(str(path))
    text = notation.write(document)
    assert notation.parse(text) == document
    assert nhex("fmt", "-", stdin=text).stdout == text


def test_canonical_scenario_lines():
    """The writer's form: keywords and names lower-case kebab-case, `not-on`, `injury-difference` spelled out, the
    title quoted."""
    position = notation.parse_position('SCENARIO Babel13_2 "Steel \\"Convoy\\""\nFree_Turns previous-winner '
                                       'Injury_Difference\nhq-terrain New_York not_on Forest\n'
                                       'Reinforcements neojungle borgo 6 radio=LOST\n')
    assert str(position) == ('scenario babel13-2 "Steel \\"Convoy\\""\nhq-terrain new-york not-on forest\nfree-turns previous-winner injury-difference\n'
                             'reinforcements neojungle borgo 6 radio=lost\n')


def test_scenario_lines_do_not_change_when_the_board_turns():
    """Rotating a whole position by 60° changes nothing but labels: the scenario names armies and terrain types."""
    position = notation.parse_position("scenario babel13-5\nterrain forest thick d1 e1 e2\nc3 new-york:hq\n"
                                       "to-move neojungle\nhand neojungle\n")
    turned = position.rotated()
    assert turned.scenario == position.scenario
    placed = sorted(line for _, lines in moves_listing(position, "neojungle") for line in lines)
    turned_placed = sorted(f"hq {Hex.parse(line.split()[1]).rotated().label}" for line in placed)
    assert sorted(line for _, lines in moves_listing(turned, "neojungle") for line in lines) == turned_placed


def test_the_rules_the_scenario_module_cites_are_refused_not_guessed():
    """A well-formed record that needs the previous scenario's result is exit 4, not bad input (NOTATION §9)."""
    with pytest.raises(RuleNotImplemented, match="the previous scenario's winner and injuries"):
        game.check(notation.parse("game\nplayers new-york neojungle\nscenario babel13-2\n1. new-york: hq c3\n"))


def test_prizes_gained_and_not_used_are_kept_for_the_next_scenario():
    """SPECIAL CAMPAIGN RULES: "Prizes gained and not yet used are kept and usable in the next scenario." New York
    breaks into a Warehouse holding the radio and a Mobility marker in scenario 4: scenario 5 must start with New York
    holding the Mobility marker (`prizes new-york mobility`); the radio is the story's, not a marker to use."""
    s4 = text_of(S4, ("prizes=universal-1", "prizes=mobility,universal-1"))
    forgotten = play(("s4.nhex", s4), ("s5.nhex", S5.read_text()))
    assert forgotten.fault is not None and forgotten.fault.rule.startswith("new-york holds mobility from the previous")
    kept = play(("s4.nhex", s4), ("s5.nhex", S5.read_text() + "prizes new-york mobility\n"))
    assert kept.ok, kept.fault


def test_scenario_2_surviving_moloch_units_come_back_in_scenario_4_as_far_as_they_survived():
    """SCENARIO 2: STEEL CONVOY, System board: "the Neojungle player selects 5 Moloch units ... The surviving Allied
    units will appear in Scenarios 4 and 5, but not 3!"; SCENARIO 4, Start: "Neojungle may place Moloch units surviving
    from Scenario 2". New York's Cop kills the Hunter-Killer in scenario 2; the two Blockers, the Net Fighter and the
    Ripper survive: scenario 4 may have a Blocker back, not the Hunter-Killer; scenario 3 has no Moloch unit at all."""
    s2 = S2.read_text()
    s4 = text_of(S4, ("start-hp new-york 16\nstart-hp neojungle 20\n", "")).split("expect")[0]
    back = play(("s2.nhex", s2), ("s4.nhex", s4))  # the Blocker on a1
    assert back.ok, back.fault
    dead = play(("s2.nhex", s2), ("s4.nhex", s4.replace("a1 moloch:blocker S", "a1 moloch:hunter-killer S")))
    assert dead.fault is not None and dead.fault.line == 13 and dead.fault.what.startswith("a1 moloch:hunter-killer")
    assert ("more moloch units under neojungle's command than survived the previous scenarios (moloch:blocker, "
            "moloch:blocker, moloch:net-fighter, moloch:ripper)") in dead.fault.rule
    s3 = "game\nplayers new-york neojungle\nscenario babel13-3\ne2 moloch:blocker N owner=neojungle\n1. new-york: hq c3\n"
    refused = check(s3)
    assert refused.verdict == "illegal" and refused.problem == (
        "moloch:blocker on e2 is commanded by neojungle, but this scenario gives neojungle no moloch units (B13 "
        "SCENARIO 3: HIT THE BUNKER!)")


def test_the_babel_13_mission_in_five_scenarios_with_nhex_campaign():
    """CAMPAIGN: THE BABEL 13 MISSION, all five scenarios in order through the console script: Hit Points carried
    (New York 15 -> 18 after winning scenario 1; Neojungle 17 + 4 = 20 at scenario 4's start), scenario 2's free turn,
    the Moloch Blocker surviving from scenario 2 into scenario 4, the radio captured in scenario 4 and New York's
    reinforcements in scenario 5; VICTORY: Neojungle, 19 Hit Points against 16."""
    files = [str(DATA / name) for name in ("s1-first-meeting.nhex", "s2-steel-convoy.nhex", "s3-hit-the-bunker.nhex",
                                           "s4-reckless-mission.nhex", "s5-battle-of-babel-13.nhex")]
    done = nhex("campaign", *files)
    assert done.returncode == 0, done.stdout + done.stderr
    assert "neojungle's HQ recovers 4 Hit Points at the start" in done.stdout
    assert "the radio (universal-1): captured by new-york" in done.stdout
    assert "new-york wins the scenario; the campaign ends, so it regains nothing" in done.stdout
    assert done.stdout.rstrip().endswith("hq: new-york 16, neojungle 19\ncampaign winner: neojungle (B13 VICTORY: 'The "
                                         "army whose Headquarters finishes with highest amount of Hit Points wins the "
                                         "campaign')")
    data = json.loads(nhex("campaign", "--json", *files).stdout)
    assert [s["winner"] for s in data["scenarios"]] == ["new-york", "neojungle", "neojungle", "neojungle", "new-york"]
    assert [s["start_hp"] for s in data["scenarios"]][3] == {"new-york": 16, "neojungle": 20}


def test_scenario_2_the_winner_of_the_previous_scenario_starts():
    """SCENARIO 2: STEEL CONVOY, Start: "The winner of the previous scenario starts." After New York won scenario 1, a
    record of scenario 2 seating Neojungle first is illegal at its first turn."""
    reversed_ = text_of(S2, ("players new-york neojungle", "players neojungle new-york"),
                        ("free-turns new-york 1\n", "")).split("1. new-york")[0] + "1. neojungle: hq d3\n"
    report = play((str(S1), S1.read_text()), ("s2.nhex", reversed_))
    assert report.fault is not None and report.fault.what == "1. neojungle"
    assert report.fault.rule == "new-york is the first player (B13 SCENARIO 2: STEEL CONVOY, Start)"


# --- where the allied units are put at the start (the scenarios' System board) ------------------------------------


def _refused_at_unit_line(text: str, unit: str, rule: str) -> None:
    """`nhex check` refuses the set-up at the allied unit's own line, exit 1, naming the scenario and the rule."""
    line = text.splitlines().index(unit) + 1
    done = nhex("check", "-", stdin=text)
    assert done.returncode == 1, done.stdout + done.stderr
    assert done.stdout.startswith(f"<stdin>:{line}: {unit}: illegal: "), done.stdout
    assert rule in done.stdout, done.stdout


def test_scenario_2_the_allied_moloch_units_are_not_put_on_the_hill():
    """SCENARIO 2: STEEL CONVOY, System board: "the Neojungle player selects 5 Moloch units of their choice (except
    HQ) and puts them on the board (not on the Hill)". The Hunter-Killer on c1 is allowed; on the Hill (a1) it is
    not (`reinforcements neojungle moloch 5 not-on=hill` in the book's data)."""
    assert scenarios.book()["babel13-2"].places == (("neojungle", "moloch", False, "hill"),)
    assert check(S2.read_text()).ok
    text = text_of(S2, ("c1 moloch:hunter-killer S owner=neojungle", "a1 moloch:hunter-killer S owner=neojungle"))
    _refused_at_unit_line(text, "a1 moloch:hunter-killer S owner=neojungle",
                          "moloch:hunter-killer on a1 is on hill: neojungle's moloch units are not put on hill at the "
                          "start (B13 SCENARIO 2: STEEL CONVOY, System board)")


def test_scenario_3_the_allied_borgo_unit_is_put_on_a_bunker_hex():
    """SCENARIO 3: HIT THE BUNKER!, System board: "the Neojungle player chooses one Borgo unit (except HQ) and puts it
    on any Bunker hex". The Mutant on a1 (Bunker) is allowed, on b1 it is not; a second Borgo unit is one too many."""
    assert check(S3.read_text()).ok
    text = text_of(S3, ("a1 borgo:mutant S owner=neojungle", "b1 borgo:mutant S owner=neojungle"))
    _refused_at_unit_line(text, "b1 borgo:mutant S owner=neojungle",
                          "borgo:mutant on b1 is not on bunker: neojungle's borgo units are put on bunker hexes at the "
                          "start (B13 SCENARIO 3: HIT THE BUNKER!, System board)")
    two = check(text_of(S3, ("a1 borgo:mutant S owner=neojungle",
                             "a1 borgo:mutant S owner=neojungle\na2 borgo:mutant S owner=neojungle")))
    assert two.verdict == "illegal" and two.problem == (
        "2 borgo units commanded by neojungle at the start, but its reinforcements are at most 1 (B13 SCENARIO 3: HIT "
        "THE BUNKER!, Start)")


def test_scenario_4_the_outpost_units_are_put_in_bunker_hexes_3_of_them():
    """SCENARIO 4: RECKLESS MISSION, System board: "The New York player selects any 3 Outpost units of their choice
    (except HQ) and puts them in Bunker hexes". s4-reckless-mission.nhex has 3 in its 3-hex Bunker. An Outpost unit
    outside the Bunker is refused at its line; so is a fourth one, and, under option `allied-setup-count` (default
    `exact`: "selects any 3 ... and puts them"), a missing one; `at-most` allows 2."""
    assert check(S4.read_text()).ok
    scout = "b3 outpost:scout SW owner=new-york"
    text = text_of(S4, (scout, "c1 outpost:scout SW owner=new-york"))
    _refused_at_unit_line(text, "c1 outpost:scout SW owner=new-york",
                          "outpost:scout on c1 is not on bunker: new-york's outpost units are put on bunker hexes at "
                          "the start (B13 SCENARIO 4: RECKLESS MISSION, System board)")
    bunker = text_of(S4, ("terrain bunker tight,fortress,hidden a2 a3 b3", "terrain bunker tight,fortress,hidden a2 a3 "
                                                                            "b3 b2"),
                     (scout, f"{scout}\nb2 outpost:commando N owner=new-york"))
    four = check(bunker)
    assert four.verdict == "illegal" and four.problem == (
        "4 outpost units commanded by new-york at the start, but its reinforcements are at most 3 (B13 SCENARIO 4: "
        "RECKLESS MISSION, Start)")
    two = text_of(S4, (f"{scout}\n", "")).split("expect")[0]
    short = check(two)
    assert short.verdict == "illegal" and short.line == two.splitlines().index("1. new-york: hq e1") + 1
    assert short.problem == ("2 outpost units commanded by new-york at the start, but the scenario puts 3 on the board "
                             "(B13 SCENARIO 4: RECKLESS MISSION, System board; rule option allied-setup-count)")
    assert check(two.replace("game\n", "game\nrules 3.0 allied-setup-count=at-most\n")).ok
    # A Bunker of 2 hexes holds 2: the book's picture is not the record's board.
    assert check(two.replace("hidden a2 a3 b3", "hidden a2 a3")).ok


def test_scenario_2_the_neojungle_player_puts_5_moloch_units_on_the_board():
    """SCENARIO 2: STEEL CONVOY, System board: "the Neojungle player selects 5 Moloch units of their choice (except
    HQ) and puts them on the board": 4 are too few (option `allied-setup-count`, default `exact`), 6 too many; SCENARIO
    5's "they may place any 3 Hegemony units" is at most 3 (s5-battle-of-babel-13.nhex has 2)."""
    four = check(text_of(S2, ("a3 moloch:blocker S owner=neojungle\n", "")))
    assert four.verdict == "illegal" and four.problem.startswith(
        "4 moloch units commanded by neojungle at the start, but the scenario puts 5 on the board (B13 SCENARIO 2")
    six = check(text_of(S2, ("a3 moloch:blocker S owner=neojungle", "a3 moloch:blocker S owner=neojungle\n"
                             "b3 moloch:guard N owner=neojungle")))
    assert six.verdict == "illegal" and six.problem.startswith("6 moloch units commanded by neojungle at the start")
    assert scenarios.book()["babel13-5"].exact == ()
    assert play((str(S4), S4.read_text()), (str(S5), S5.read_text())).ok


def test_scenario_4_surviving_moloch_units_go_only_on_hexes_available_to_neojungle():
    """SCENARIO 2, System board: "At the beginning of these scenarios before placing the Headquarters, the player puts
    the surviving Moloch units on any board hexes available to Neojungle." The Outposts hold the Tight Bunker (B13
    BUNKER, TIGHT: "only the player who controls it can place or move additional units there") and the Warehouse is
    Closed ("No units can be placed or moved onto a Closed ... hex"): a surviving Moloch unit on either is a position
    that cannot arise (bad input, exit 2); anywhere else it is allowed."""
    for hex_, message in (("b3", "units of two armies in one Tight Bunker (B13 BUNKER, TIGHT)"),
                          ("b4", "no unit stands on this hex (B13 BASE, CLOSED)")):
        text = text_of(S4, ("b3 outpost:scout SW owner=new-york\n", ""),
                       ("a1 moloch:blocker S owner=neojungle", f"{hex_} moloch:blocker S owner=neojungle"))
        done = nhex("check", "-", stdin=text)
        assert done.returncode == 2 and message in done.stderr, done.stderr
    assert check(text_of(S4, ("a1 moloch:blocker S owner=neojungle", "d1 moloch:blocker S owner=neojungle"))).ok


def test_allied_units_are_never_an_hq():
    """SCENARIO 2: "5 Moloch units of their choice (except HQ)"; SCENARIO 3, 4, 5 likewise: an HQ is never an allied
    unit, and the notation has none (`owner=` on an HQ is bad input, exit 2)."""
    text = text_of(S2, ("c1 moloch:hunter-killer S owner=neojungle", "c1 moloch:hq owner=neojungle"))
    done = nhex("check", "-", stdin=text)
    line = text.splitlines().index("c1 moloch:hq owner=neojungle") + 1
    assert done.returncode == 2 and done.stderr.startswith(f"<stdin>:{line}:"), done.stderr
    assert "an HQ is never another army's unit: moloch:hq is commanded by moloch (B13 campaign allies, SCENARIO 2-5: " \
        "'units of their choice (except HQ)')" in done.stderr


def test_reinforcements_on_and_not_on_read_and_write_back():
    """The `reinforcements` line's places (README, notation extensions): `on=TYPE` or `not-on=TYPE`, one of them."""
    position = notation.parse_position("Reinforcements neojungle moloch 5 Not_On=Hill\n")
    assert str(position) == "reinforcements neojungle moloch 5 not-on=hill\n"
    assert position.scenario is not None and position.scenario.places == (("neojungle", "moloch", False, "hill"),)
    for line, message in (("reinforcements neojungle borgo 1 on=lava", "unknown terrain 'lava'"),
                          ("reinforcements neojungle borgo 1 on=bunker not-on=hill", "on= and not-on= together")):
        with pytest.raises(NotationError, match=message):
            notation.parse_position(line + "\n")


# --- nhex battle of a scenario's position: its injuries ------------------------------------------------------------

MID_SCENARIO = """scenario babel13-3
start-hp new-york {start}
start-hp neojungle 17
c4 new-york:hq hp=14
c1 neojungle:hq hp=17
c2 new-york:hammer N
"""


def test_battle_of_a_scenario_reports_the_injuries_since_start_hp_and_who_leads():
    """SPECIAL CAMPAIGN RULES, NOTE: "separately keep track of injuries received in a particular scenario (to decide
    the winner in this one scenario)"; "the winning HQ (which has received fewer injuries) ... In the case of a tie
    ... the scenario winner ... is considered to be Neojungle". New York's HQ started the scenario with 16 and has 14;
    the Hammer gives the Neojungle HQ 2 wounds: 2 injuries each, a tie, Neojungle's. Had New York started with 15, it
    would lead with 1 injury against 2. `nhex battle` says so, and `--json` has each outcome's `scenario`."""
    done = nhex("battle", "--no-board", "-", stdin=MID_SCENARIO.format(start=16))
    assert done.returncode == 0, done.stderr
    text = " ".join(done.stdout.split())
    assert "injuries in the scenario: neojungle 2 (from 17), new-york 2 (from 16)" in text
    assert ("the scenario's winner if it ended now: neojungle: equal injuries in the scenario (neojungle 2, new-york "
            "2): a tie counts as neojungle's (B13 SPECIAL CAMPAIGN RULES)") in text
    done = nhex("battle", "--json", "-", stdin=MID_SCENARIO.format(start=15))
    (outcome,) = json.loads(done.stdout)["outcomes"]
    assert outcome["hq"] == {"neojungle": 15, "new-york": 14}
    assert outcome["scenario"] == {"start_hp": {"neojungle": 17, "new-york": 15},
                                   "injuries": {"neojungle": 2, "new-york": 1}, "leaders": ["new-york"]}
    plain = nhex("battle", "--json", "-", stdin="c4 new-york:hq hp=14\nc1 neojungle:hq\nc2 new-york:hammer N\n")
    assert "scenario" not in json.loads(plain.stdout)["outcomes"][0]


def test_a_scenario_position_may_show_an_hq_injured_since_its_start_hp_never_healed():
    """SPECIAL CAMPAIGN RULES, NOTE: the scenario's injuries count from the HQ's Hit Points "at the start of the
    scenario": a position later in the scenario may show the HQ with fewer (`start-hp new-york 16`, hp=14), never with
    more (bad input, exit 2); a game record starts at the scenario's start, where they must be equal."""
    assert notation.parse_position(MID_SCENARIO.format(start=16)).scenario is not None
    with pytest.raises(NotationError, match="start-hp new-york 13, but the new-york HQ on c4 has hp=14, more than it"):
        notation.parse_position(MID_SCENARIO.format(start=13))
    with pytest.raises(NotationError, match="start-hp new-york 16, but the new-york HQ on c4 has hp=14$"):
        notation.parse("game\nplayers new-york neojungle\n" + MID_SCENARIO.format(start=16))


def test_battle_of_a_scenario_an_hq_destroyed_wins_as_usual():
    """THE GENERAL PRINCIPLE OF CREATING SCENARIOS AND CAMPAIGNS: "In every scenario (unless written otherwise) there
    is an alternate default victory condition - the total destruction of enemy Headquarters"; SPECIAL CAMPAIGN RULES:
    "The total destruction of the opponent's HQ in any scenario means the end of the campaign and victory for the
    player whose HQ remains on the board" — whatever the injuries."""
    text = MID_SCENARIO.format(start=20).replace("c1 neojungle:hq hp=17", "c1 neojungle:hq hp=2").replace(
        "c4 new-york:hq hp=14", "c4 new-york:hq hp=5")
    done = nhex("battle", "--json", "-", stdin=text)
    (outcome,) = json.loads(done.stdout)["outcomes"]
    assert outcome["hq"]["neojungle"] == 0
    assert outcome["scenario"]["injuries"] == {"neojungle": 17, "new-york": 15}
    assert outcome["scenario"]["leaders"] == ["new-york"]
