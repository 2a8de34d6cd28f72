"""NOTATION §10 (v1.1): the Duel board, Babel 13 terrain and prizes, foundations, the Mad Bomber, multiplayer.

The notation reads, keeps and writes every addition exactly; where the engine lacks a rule, the battle, the
legal actions and the game check refuse the position naming it (exit 4), never ignoring it.
"""

from __future__ import annotations

import pytest

from solver.turns import actions, game
from solver.engine import battle
from solver.notation import cards
from solver.notation.cards import GameRecord
from solver.errors import NotationError, RuleNotImplemented
from solver.expansion import Location, TerrainElement, Turret
from solver.engine.features import unimplemented
from solver.hexes import Direction, Hex
from solver.notation.text import parse, parse_action, parse_unit, write
from solver.position import (BuyEnergy, Move, Place, PlaceHQ, Position, Procedure, Push, PutPrize, Unit, Use,
                             position_toughness)
from solver.rules import RuleSet
from solver.tiles import tile


def h(label: str) -> Hex:
    return Hex.parse(label)


def round_trips(text: str):
    document = parse(text)
    canonical = write(document)
    assert parse(canonical) == document
    assert write(parse(canonical)) == canonical
    return document


# --- §10.1 conventions -------------------------------------------------------------------------------------------


@pytest.mark.parametrize("text, army, canonical", [
    ("use neojungle:small-bomb c4 b4 b3", "neojungle", "use neojungle:small-bomb b3 b4 c4"),
    ("use vegas:castling d4 d3", "vegas", "use vegas:castling d3 d4"),
    ("procedure laser e3 a1", "smart", "procedure laser a1 e3"),
    ("procedure swap d4 a2 NE S", "smart", "procedure swap a2 d4 S NE"),  # the facings move with their hexes
    ("procedure swap a2 d4 S NE", "smart", "procedure swap a2 d4 S NE"),
    ("use new-york:sniper d4 foundation d4", "new-york", "use new-york:sniper d4 foundation d4"),
    ("move e3 e2 NW by mobility", "outpost", "move e3 e2 NW"),  # the default source is not written
    ("move b4 b4 SE by hq", "smart", "move b4 b4 SE by hq"),
    ("place vegas:mine b1 N", "vegas", "place vegas:mine b1 N"),
])
def test_unordered_hexes_are_written_in_label_order_and_by_mobility_is_omitted(text, army, canonical):
    """NOTATION §10.1: ascending q, then r; `procedure swap`'s facings move with their hexes."""
    action = parse_action(text, army)
    assert str(action) == canonical
    assert parse_action(canonical, "borgo") == action


def test_a_swap_keeps_which_unit_ends_where_whatever_order_it_is_written_in():
    written = parse_action("procedure swap d4 a2 NE S", "smart")
    assert written == Procedure("swap", (h("a2"), h("d4")), (Direction.S, Direction.NE))
    assert written.cost == 2


def test_foundations_are_lines_of_their_own_facing_north_without_attributes():
    position = round_trips("e1 new-york:mine N\nd4 neojungle:roots\nd4 neojungle:slicer S\n")
    assert [str(f) for f in position.foundations] == ["d4 neojungle:roots N", "e1 new-york:mine N"]
    with pytest.raises(NotationError, match="a foundation faces N, not SE"):
        parse("e1 new-york:mine SE\n")
    with pytest.raises(NotationError, match="a foundation is placed facing N"):
        parse_action("place vegas:mine b1 S", "vegas")


def test_wounds_count_the_toughness_of_an_adjacent_new_york_hq():
    """NOTATION §10.1: `b4 new-york:cop SE wounds=1` beside its HQ is legal; B13 New York HQ (+1 toughness)."""
    position = parse("c4 new-york:hq\nb4 new-york:cop SE wounds=1\n")
    cop = position.unit_at(h("b4"))
    assert position_toughness(position, cop) == tile("new-york:cop").toughness + 1
    with pytest.raises(NotationError, match="1 wound would already kill it"):
        parse("c1 new-york:hq\nb4 new-york:cop SE wounds=1\n")  # no HQ beside it


def test_a_netted_new_york_hq_gives_no_toughness():
    """B13 New York HQ: the point is lost while the HQ is netted (army file rule); 3E USING NETS."""
    position = parse("c3 new-york:hq\nb3 new-york:cop SE\nc2 moloch:net-fighter S\nc1 moloch:hq\n")
    assert position_toughness(position, position.unit_at(h("b3"))) == tile("new-york:cop").toughness


def test_a_fortress_and_a_first_aid_kit_each_give_one_toughness_but_never_to_an_hq():
    """B13 FORTRESS ('This rule does not apply to Headquarters'); B13 PRIZE MARKERS, FIRST AID KIT."""
    position = parse("terrain hill fortress b4 c3\nb4 new-york:cop SE wounds=2 prize=first-aid-kit\nc3 moloch:hq\n")
    assert position_toughness(position, position.unit_at(h("b4"))) == tile("new-york:cop").toughness + 2
    assert position_toughness(position, position.hq("moloch")) == 0


# --- §10.2 Duel board ----------------------------------------------------------------------------------------


def test_terminals_and_energy_are_kept_and_written():
    position = round_trips("terminals e3 a1 b3\nenergy smart 3\nenergy vegas 0\nc3 smart:hq\n")
    assert position.terminals == (h("a1"), h("b3"), h("e3"))
    assert position.energy == (("smart", 3),)  # 0 is the default
    assert write(position) == "to-move smart\nterminals a1 b3 e3\nc3 smart:hq N hp=20\nenergy smart 3\n"


@pytest.mark.parametrize("text, army, expected", [
    ("procedure rotation b3 S", "smart", Procedure("rotation", (h("b3"),), (Direction.S,))),
    ("procedure push c3 c2 c1", "smart", Procedure("push", (h("c3"), h("c2"), h("c1")))),
    ("procedure erase c2", "smart", Procedure("erase", (h("c2"),))),
    ("procedure detonation", "smart", Procedure("detonation")),
    ("energy tile ripper", "smart", BuyEnergy(tile("smart:ripper"))),
    ("energy hq 2", "smart", BuyEnergy(hq_health=2)),
    ("place transporter c3 N by transporter", "smart",
     Place(tile("smart:transporter"), h("c3"), Direction.N, "transporter")),
    ("move c3 c3 NE by takeover", "vegas", Move(h("c3"), h("c3"), Direction.NE, "takeover")),
    ("hq c3 SE", "vegas", PlaceHQ(h("c3"), Direction.SE)),
])
def test_duel_actions_read_and_write_back(text, army, expected):
    action = parse_action(text, army)
    assert action == expected
    assert parse_action(str(action), "borgo") == action


def test_an_hq_facing_north_is_written_as_in_v1():
    assert str(parse_action("hq c3 N", "vegas")) == "hq c3"


def test_purchases_come_last_in_a_turn():
    """NOTATION §10.2: `energy …` may only be followed by further `energy …`."""
    record = round_trips("game\nplayers smart vegas\n1. smart: hq c3\n2. vegas: hq c1\n"
                         "3. smart: draw cyborg ripper; place cyborg b3 N; energy hq 1; energy tile smart:ripper\n")
    assert record.entries[-1].actions[-2:] == (BuyEnergy(hq_health=1), BuyEnergy(tile("smart:ripper")))
    with pytest.raises(NotationError, match="purchases come last"):
        parse("game\nplayers smart vegas\n1. smart: energy hq 1; place smart:cyborg b3 N\n")


# --- §10.3 Babel 13 ------------------------------------------------------------------------------------------


def test_terrain_lines_are_elements_with_features_in_the_books_order():
    position = round_trips("terrain forest poisonous,thick c1 b2 b1\n"
                           "terrain warehouse high,closed e2 strength=3 prizes=mobility,first-aid-kit "
                           "damaged-by=new-york\n")
    forest, warehouse = position.terrain
    assert forest == TerrainElement("forest", ("thick", "poisonous"), (h("b1"), h("b2"), h("c1")))
    assert str(forest) == "terrain forest thick,poisonous b1 b2 c1"
    assert (warehouse.strength, warehouse.wounds, warehouse.prizes, warehouse.damaged_by) == (
        3, 0, ("first-aid-kit", "mobility"), ("new-york",))


def test_a_control_panel_stands_alone_on_a_one_hex_base_line():
    assert parse("terrain base control-panel c3\n").terrain[0].features == ("control-panel",)
    with pytest.raises(NotationError, match="control-panel stands alone"):
        parse("terrain base control-panel,high c3\n")


def test_a_turret_stands_on_a_base_or_bunker_hex_whose_element_has_turrets():
    position = round_trips("terrain bunker turrets,tight c3 c4\nturret c4 SE owner=moloch\nturret c3 N\n")
    assert position.turrets == (Turret(h("c3"), Direction.N), Turret(h("c4"), Direction.SE, "moloch"))
    with pytest.raises(NotationError, match="a turret stands on a base or bunker hex"):
        parse("terrain base closed c3\nturret c3 N\n")


def test_prizes_held_and_on_units_in_canonical_order():
    position = round_trips("prizes new-york universal-3 explosives\n"
                           "b3 new-york:shooter N prize=mobility,enhanced-shot\n")
    assert position.held_prizes == (("new-york", ("explosives", "universal-3")),)
    assert position.unit_at(h("b3")).prizes == ("enhanced-shot", "mobility")
    with pytest.raises(NotationError, match="universal-3 prize marker is in play twice"):
        parse("prizes new-york universal-3\nterrain warehouse closed e2 prizes=universal-3\n")


@pytest.mark.parametrize("text, expected", [
    ("push d3 d2 d1", Push(h("d3"), h("d2"), h("d1"))),
    ("prize explosives b3", PutPrize("explosives", h("b3"))),
    ("move c2 c3 by dismal", Move(h("c2"), h("c3"), None, "dismal")),
    ("move c3 c3 S by control-panel", Move(h("c3"), h("c3"), Direction.S, "control-panel")),
    ("use sniper d4 a1 foundation d4", None),  # the wrong count of hexes is still an error
])
def test_babel_actions_read_and_write_back(text, expected):
    if expected is None:
        with pytest.raises(NotationError, match="sniper takes 1 hex"):
            parse_action(text, "new-york")
        return
    action = parse_action(text, "new-york")
    assert action == expected
    assert parse_action(str(action), "borgo") == action


def test_use_names_the_hexes_where_the_foundation_is_hit():
    action = parse_action("use neojungle:small-bomb b3 b4 c4 foundation c4 b3", "neojungle")
    assert action == Use(tile("neojungle:small-bomb"), (h("b3"), h("b4"), h("c4")), None, (h("b3"), h("c4")))
    assert str(action) == "use neojungle:small-bomb b3 b4 c4 foundation b3 c4"


# --- §10.4 the Mad Bomber and mercenaries ------------------------------------------------------------------------


def test_the_neutral_mad_bomber_belongs_to_no_army_and_the_hired_one_to_its_owner():
    """NOTATION §10.4; 2E SPECIAL EXPANSION: Mad Bomber as non player character / as a mercenary."""
    neutral = parse("c1 moloch:hq\nc3 mercenary:mad-bomber\n")
    bomber = neutral.unit_at(h("c3"))
    assert bomber.is_neutral and bomber.owner is None
    assert neutral.armies == ("moloch",) and neutral.to_move == "moloch"
    hired = parse_unit("b2 mercenary:mad-bomber owner=hegemony")
    assert not hired.is_neutral and hired.army == "hegemony"
    assert str(hired) == "b2 mercenary:mad-bomber N owner=hegemony"


def test_another_mercenary_is_a_rule_nhex_lacks_not_bad_input():
    """NOTATION §9: a well-formed input that needs missing data is exit 4 (RuleNotImplemented), located."""
    with pytest.raises(RuleNotImplemented, match=r"no data for the Mercenaries ") as refused:
        parse("c1 moloch:hq\nb2 mercenary:gunner owner=moloch\n", "m.nhex")
    assert refused.value.located("m.nhex").startswith("m.nhex:2:4: not implemented yet:")
    with pytest.raises(NotationError, match="needs owner=ARMY"):
        parse("b2 mercenary:gunner\n")


# --- §10.5 multiplayer -------------------------------------------------------------------------------------------


def test_teams_modes_and_scores():
    position = round_trips("mode score\nteam outpost hegemony\nteam borgo moloch\nscore borgo 7\nc3 borgo:hq\n")
    assert position.teams == (("borgo", "moloch"), ("hegemony", "outpost"))
    assert (position.mode, position.scores) == ("score", (("borgo", 7),))


def test_one_player_against_a_team_names_the_loner_twice():
    record = round_trips("game\nplayers hegemony borgo hegemony moloch\n")
    assert isinstance(record, GameRecord) and record.players == ("hegemony", "borgo", "hegemony", "moloch")


@pytest.mark.parametrize("players", ["hegemony hegemony borgo moloch", "borgo moloch outpost hegemony"])
def test_teammates_may_not_take_consecutive_turns(players):
    """3E TEAM MATCH, PLAYER ORDER; 1 PLAYER VS A TEAM, PLAYING ORDER: reported at the `players` line."""
    with pytest.raises(NotationError, match=r"<input>:2:1: .*consecutive turns"):
        parse(f"game\nplayers {players}\nteam borgo moloch\n")


# --- §10.6 rule options --------------------------------------------------------------------------------------


def test_the_variant_options_are_registered_with_their_defaults():
    rules = RuleSet()
    # RULINGS 71: Moloch's team fire runs one way by default ("yes", both ways, stays an option)
    assert [rules.option(o) for o in ("beginning", "reinforcement", "moloch-team-fire")] == ["standard", "no", "moloch"]


def test_the_tie_break_default_depends_on_the_edition():
    """RULINGS 29: 3E VICTORY (tie-break turns) under 3.0, 2E VICTORY (a draw) under 2.0."""
    assert RuleSet.make("3.0").option("tie-break") == "yes"
    assert RuleSet.make("2.0").option("tie-break") == "no"
    assert RuleSet.make("2.0", [("tie-break", "no")]).is_default is False  # the edition is not the default
    assert RuleSet.make("2.0", [("tie-break", "no")]) == RuleSet.make("2.0")
    assert str(parse("rules 2.0 tie-break=yes\n").rules) == "rules 2.0 tie-break=yes"


# --- §10.7 records -----------------------------------------------------------------------------------------------


def test_expect_winner_draw_and_score():
    record = round_trips("game\nplayers borgo hegemony\n1. borgo: hq c3\nexpect winner borgo\nexpect draw\n"
                         "expect score borgo 3\n")
    assert record.entries[1:] == (cards.ExpectWinner(("borgo",)), cards.ExpectDraw(), cards.ExpectScore("borgo", 3))


# --- refusals: the engine never ignores what it does not play -------------------------------------------------


def test_statement_locations_are_kept_for_refusals():
    position = parse("c3 moloch:hq\nterrain base turrets b1\nturret b1 N\nc1 outpost:hq\n", "t.nhex")
    assert position.location("turret b1") == Location("t.nhex", 3, 1)
    assert [str(f) for f in unimplemented(position, battle=True)] == [
        "Turret attacks (B13 BASE, TURRETS: 'in each Battle they automatically attack like units', but neither the "
        "rulebook nor the tile reference gives a Turret's initiative, strength or attacking edges) (at t.nhex:3:1)"]


@pytest.mark.parametrize("text, feature", [
    ("terrain bunker turrets b1\nturret b1 N\n", "Turret attacks"),
])
def test_a_battle_and_the_legal_actions_refuse_what_they_do_not_play(text, feature):
    position = parse("c3 moloch:hq\nc1 outpost:hq\n" + text)
    with pytest.raises(RuleNotImplemented, match=feature):
        battle.resolve(position)


def test_the_reinforcement_variant_allows_six_tiles_in_hand():
    """3E GAME VARIANTS, REINFORCEMENT: "draw up to 6 tiles instead of 3" (its turn rules: tests/test_multiplayer.py)."""
    hand = "hand moloch moloch:battle moloch:air-strike moloch:push-back moloch:blocker moloch:blocker\n"
    with pytest.raises(NotationError, match="a hand has at most 3"):
        parse("c3 moloch:hq\nc1 outpost:hq\n" + hand)
    position = parse("rules 3.0 reinforcement=yes\nc3 moloch:hq\nc1 outpost:hq\n" + hand)
    assert len(position.hand("moloch")) == 5
    assert battle.resolve(position)  # the fighting is the same
    assert actions.player_actions(position, "moloch")


@pytest.mark.parametrize("action", ["push c3 c2 c1"])
def test_applying_a_v11_action_is_refused(action):
    position = parse("c3 smart:hq\nc1 outpost:hq\n")
    with pytest.raises(RuleNotImplemented):
        actions.apply(position, parse_action(action, "smart"), "smart")


def test_an_expect_winner_line_before_the_end_is_wrong_at_its_line():
    """NOTATION §10.7: a false `expect winner` makes `nhex check` exit 1 at its line (the game goes on here)."""
    record = parse("game\nplayers moloch outpost\n1. moloch: hq c3\n2. outpost: hq c1\nexpect winner moloch\n",
                   "r.nhex")
    report = game.check(record)
    assert report.verdict == "wrong" and report.line == 5 and report.problem == "the game is not over"


def test_a_plain_position_has_no_unimplemented_feature():
    assert unimplemented(Position((Unit(h("c3"), tile("moloch:hq")),))) == []


def test_battle_json_names_the_owner_of_a_unit_written_with_owner():
    """NOTATION §10.8: `owner` for every unit written with owner=."""
    from solver.render.trace import outcome_json

    position = parse("c3 moloch:hq\nc1 outpost:hq\ne3 mercenary:mad-bomber owner=outpost\n")
    units = outcome_json(battle.Outcome(position, {}))["units"]
    assert units["e3"]["owner"] == "outpost" and "owner" not in units["c3"]
