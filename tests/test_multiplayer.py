"""The multiplayer modes: 3-4 players, deathmatch, the score rule, 1 player vs a team, team matches.

3E = ../shared/rules/rulebook-en-3rd-edition.txt, ADDITIONAL GAME MODES / THE MULTIPLAYER MODE; RULINGS 58-64;
NOTATION §10.5-10.7.
"""

from __future__ import annotations

import io
import json
from pathlib import Path

import pytest
from hypothesis import given, settings, strategies as st

from solver.turns import actions, game
from solver.engine import battle
from solver.notation import text as notation
from solver.cli import main
from solver.hexes import Hex

from battle_helpers import fight, position

GAMES = Path(__file__).parent / "data" / "games"


def on(outcome: battle.Outcome, label: str) -> str | None:
    unit = outcome.position.unit_at(Hex.parse(label))
    return None if unit is None else unit.tile.key


def checked(text: str) -> game.CheckReport:
    report = game.check(notation.parse(text, "<test>"))
    assert report.ok, f"{report.line}: {report.action}: {report.verdict}: {report.problem}"
    return report


# --- deathmatch (3E THE MULTIPLAYER MODE, DEATHMATCH) ------------------------------------------------------------


def test_a_fallen_army_leaves_the_board_at_the_end_of_the_battle():
    """3E HQ DESTROYED: "If any player loses their HQ, its tile is removed from the board together with all its
    Unit tiles at the end of the Battle." The Moloch HQ falls in phase 1; the Moloch Blocker is gone afterwards."""
    result = fight("""
        c3 moloch:hq hp=1
        a1 outpost:hq
        e1 borgo:hq
        c5 outpost:hmg N
        d3 moloch:blocker N
    """)
    assert result.hq["moloch"] == 0
    assert on(result, "d3") is None and on(result, "c3") is None
    assert any(e.kind == "fallen" for e in result.trace)


def test_a_fallen_armys_units_act_until_the_end_of_the_battle():
    """RULINGS 61: "an army whose HQ falls leaves the board at the end of that battle, its units acting until
    then". The Moloch HQ falls in phase 2; the Moloch Gauss Cannon on b3 still fires in phase 1, at the Borgo HQ,
    and leaves the board only at the end of the battle."""
    result = fight("""
        c3 moloch:hq hp=1
        a1 outpost:hq
        b1 borgo:hq
        c5 outpost:hmg N
        b3 moloch:gauss-cannon SE
    """)
    assert result.hq["moloch"] == 0 and result.hq["borgo"] == 19
    assert on(result, "b3") is None


def test_three_armies_each_one_an_enemy_of_the_others():
    """RULINGS 61: every other army is an enemy: a shot stops at the first unit of any other army."""
    result = fight("""
        a1 moloch:hq
        e1 outpost:hq
        e3 borgo:hq
        c5 outpost:hmg N
        c4 borgo:brawler S
        c3 moloch:blocker S
    """)
    assert result.hq == {"moloch": 20, "outpost": 20, "borgo": 20}
    assert on(result, "c4") is None  # the HMG's shots stop at the Borgo Brawler, the first other army's unit


def test_the_final_battle_waits_for_every_other_player_to_complete_a_turn():
    """3E THE MULTIPLAYER MODE, THE FINAL BATTLE: "If any of the players draws their last tile from the pile, the
    others complete their own turns as usual, and only then does the Final Battle start"."""
    report = checked("""
        game
        players moloch outpost borgo
        c3 moloch:hq
        a1 outpost:hq
        e3 borgo:hq
        deck moloch 1
        deck outpost 10
        deck borgo 10
        hand outpost outpost:medic outpost:scout
        hand borgo borgo:mutant borgo:medic
        1. moloch: draw moloch:blocker; place moloch:blocker c2 N
        2. outpost: draw outpost:runner; discard outpost:runner; place outpost:medic a2 N
        expect hp moloch 20
    """)
    assert report.state.battles == 0 and report.state.awaited == {"borgo"}
    final = checked("""
        game
        players moloch outpost borgo
        c3 moloch:hq
        a1 outpost:hq
        e3 borgo:hq
        deck moloch 1
        deck outpost 10
        deck borgo 10
        hand outpost outpost:medic outpost:scout
        hand borgo borgo:mutant borgo:medic
        1. moloch: draw moloch:blocker; place moloch:blocker c2 N
        2. outpost: draw outpost:runner; discard outpost:runner; place outpost:medic a2 N
        3. borgo: draw borgo:brawler; discard borgo:brawler; place borgo:mutant e2 N
    """)
    assert final.state.battles == 1 and final.state.tied  # every HQ at 20: the tie-break turns follow


def test_opening_draws_are_one_two_three_in_a_three_player_game():
    """3E DEATHMATCH, STARTING THE GAME: "Player 1 draws one tile, Player 2 draws two tiles, Player 3 draws three
    tiles and then each player draws tiles in the standard way (up to three)"."""
    text = """
        game
        players moloch outpost borgo
        1. moloch: hq c3
        2. outpost: hq a1
        3. borgo: hq e3
        4. moloch: draw moloch:blocker
        5. outpost: draw outpost:runner outpost:scout
        6. borgo: draw borgo:mutant borgo:medic
    """
    report = game.check(notation.parse(text))
    assert report.verdict == "illegal" and report.action == "draw borgo:mutant borgo:medic"
    assert "3 here" in (report.problem or "")


def test_the_four_player_deathmatch_record_replays_to_a_shared_victory():
    """3E THE MULTIPLAYER MODE, TIE: "each of the tied players takes an extra turn - starting with the next player
    after the player who ended the game and continuing in turn order. After each player has taken their turn an
    additional Battle commences. If the players are still tied, then the game ends in a draw and the tied players
    share the victory." The record ends with `expect winner moloch borgo`."""
    report = game.check(notation.load(str(GAMES / "four-player-deathmatch.nhex")))
    assert report.ok, report.fault("four-player-deathmatch.nhex")
    assert report.state.winners == ("moloch", "borgo")
    assert report.state.last_tile_turn == 51 and report.state.battles == 12


MIDGAME_RECORD = GAMES / "four-player-deathmatch-midgame.nhex"


def test_a_four_player_deathmatch_record_from_mid_game_goes_on_after_an_army_falls():
    """3E THE MULTIPLAYER MODE, DEATHMATCH, HQ DESTROYED: "If any player loses their HQ, its tile is removed from
    the board together with all its Unit tiles at the end of the Battle. The player is out and the game continues
    without them." The record starts mid-game (decks given, NOTATION §7: a record's position is its start); the
    Outpost HQ falls in turn 8's battle, its units leave, its seat is skipped, two more battles follow and the Final
    Battle comes once Moloch and Borgo have completed their turns after Hegemony drew its last tile (3E THE FINAL
    BATTLE: "the others complete their own turns as usual")."""
    text = MIDGAME_RECORD.read_text()
    report = game.check(notation.parse(text, str(MIDGAME_RECORD)))
    assert report.ok, report.fault(str(MIDGAME_RECORD))
    assert report.state.winners == ("hegemony",) and report.state.out == {"outpost"}
    assert report.state.last_tile_turn == 11 and report.state.battles == 4
    after_fall = game.check(notation.parse(text[:text.index("9. moloch")]))
    assert after_fall.ok and after_fall.state.hq["outpost"] == 0
    assert not [u for u in after_fall.state.position.units if u.army == "outpost"]
    seat_taken = text.replace(next(line for line in text.splitlines() if line.startswith("10. borgo")),
                              "10. outpost: draw outpost:runner")
    refused = game.check(notation.parse(seat_taken))
    assert not refused.ok and "it is borgo's turn" in (refused.problem or "")


def test_a_wrong_expect_winner_line_is_reported_at_its_line(tmp_path):
    """NOTATION §10.7: a false `expect winner` makes `nhex check` exit 1 at its line."""
    text = (GAMES / "four-player-deathmatch.nhex").read_text().replace("expect winner moloch borgo",
                                                                        "expect winner moloch")
    report = game.check(notation.parse(text))
    assert report.verdict == "wrong" and "moloch and borgo won" in (report.problem or "")


# --- the score rule (3E DEATHMATCH WITH AN OPTIONAL SCORE RULE) -------------------------------------------------


def test_score_mode_wounds_to_an_hq_are_the_attackers_points_and_the_hq_takes_none():
    """3E ATTACKING HQ: "HQs have unlimited Toughness, and every time a player's unit hits an opponent's HQ, the
    Wounds inflicted count as points and are marked by moving that player's HQ marker"."""
    result = fight("""
        mode score
        c3 moloch:hq
        a1 outpost:hq
        e1 borgo:hq
        c5 outpost:hmg N
    """)
    assert result.hq == {"moloch": 20, "outpost": 20, "borgo": 20}
    assert dict(result.position.scores) == {"outpost": 2}  # the HMG's two shots (initiative 2 and 1)


def test_score_mode_never_more_than_twenty_points():
    """3E: "Players may never score more than 20 points" (RULINGS 62: the rest is lost)."""
    result = fight("""
        mode score
        score outpost 19
        c3 moloch:hq
        a1 outpost:hq
        e1 borgo:hq
        c5 outpost:hmg N
    """)
    assert dict(result.position.scores) == {"outpost": 20}


SCORE_RACE = """
game
players outpost moloch borgo
mode score
score outpost 19
score moloch 19
deck outpost 20
deck moloch 20
deck borgo 20
a1 outpost:hq
e3 moloch:hq
c3 borgo:hq
c5 outpost:hmg N
c2 moloch:hunter-killer {facing}
1. outpost: draw battle move sniper; discard move; use battle
"""


def test_score_mode_the_first_to_twenty_points_wins_at_once_mid_game():
    """3E DEATHMATCH WITH AN OPTIONAL SCORE RULE: "The first player to get 20 points wins the game." The Outpost's
    Heavy Machine Gun hits the Borgo HQ in turn 1's battle (the second hit is lost: "Players may never score more
    than 20 points"); the game ends there, with 20 tiles still in every pile; the Borgo HQ takes no wound."""
    report = checked(SCORE_RACE.format(facing="NE") + "expect score outpost 20\nexpect score moloch 19\n"
                     "expect winner outpost\n")
    assert report.state.winners == ("outpost",) and report.state.hq["borgo"] == 20


def test_score_mode_two_players_reaching_twenty_in_one_battle_share_the_victory():
    """3E DEATHMATCH WITH AN OPTIONAL SCORE RULE: "If during the same Battle more than 1 player scores 20 points, all
    these players share the victory." The Hunter-Killer turned to the Borgo HQ scores Moloch's 20th point in the
    same battle."""
    report = checked(SCORE_RACE.format(facing="S") + "expect score outpost 20\nexpect score moloch 20\n"
                     "expect winner outpost moloch\n")
    assert set(report.state.winners) == {"outpost", "moloch"}


# --- teams (3E TEAM MATCH; 1 PLAYER VS A TEAM) -------------------------------------------------------------------


def test_shots_go_through_a_teammates_units():
    """3E TEAM MATCH: "Friendly units cannot be hit by a teammate's attacks. Shots go through them." The HMG's shots
    pass the allied Borgo Mutant and hit the Hegemony HQ."""
    result = fight("""
        team outpost borgo
        team moloch hegemony
        a1 outpost:hq
        e1 borgo:hq
        a3 moloch:hq
        c2 hegemony:hq
        c5 outpost:hmg N
        c4 borgo:mutant S
    """)
    assert on(result, "c4") == "borgo:mutant"
    assert result.hq["hegemony"] == 18


def test_nets_do_not_disable_a_teammate():
    """3E TEAM MATCH: "Net Fighters do not disable friendly units"; deathmatch nets every other army."""
    text = """
        c3 hegemony:net-fighter N
        d2 outpost:hmg N
        a1 outpost:hq
        e1 hegemony:hq
    """
    assert actions.netted(position("team outpost hegemony\n" + text + "a3 moloch:hq\ne3 borgo:hq\n")) == frozenset()
    assert Hex.parse("d2") in actions.netted(position(text))


def test_a_teammates_module_helps():
    """3E TEAM MATCH: "Module and HQ bonuses also affect friendly units." The Outpost Officer (+1 ranged, every
    side linked) boosts the allied Moloch Hybrid: its shot takes 2 from the Hegemony HQ."""
    result = fight("""
        rules 3.0 moloch-team-fire=no
        team outpost moloch
        team borgo hegemony
        a1 outpost:hq
        e1 moloch:hq
        a3 borgo:hq
        c2 hegemony:hq
        c4 moloch:hybrid N
        c5 outpost:officer N
    """)
    assert result.hq["hegemony"] == 18


def test_the_trace_of_a_team_battle_calls_no_teammate_a_takeover():
    """3E TEAM MATCH: teammates are "friendly units", not units taken over: the judge's trace must not tell a
    team's units as "fights for borgo+moloch (control takeover)" citing the Vegas rules (PL VEGAS, Sztab:
    "przejęcie kontroli", taking control), which it did for every unit of every team."""
    result = fight("""
        team borgo moloch
        team outpost hegemony
        c1 borgo:hq hp=5
        a1 moloch:hq hp=5
        e1 outpost:hq hp=4
        e3 hegemony:hq hp=6
        d1 borgo:mutant S
    """)
    assert result.hq["outpost"] == 3
    assert not [e for e in result.trace if "takeover" in str(e) or "VEGAS" in str(e)]


def test_a_vegas_takeover_in_a_team_match_is_still_told():
    """PL VEGAS, Sztab: the unit on the HQ's taking edge (SE, RULINGS 16) "pod każdym względem traktowana jest
    jak własna" (is treated in every respect as Vegas's own); in a team match it fights for Vegas's team, and the
    trace says so."""
    result = fight("""
        team vegas moloch
        team outpost hegemony
        c2 vegas:hq
        a1 moloch:hq
        e1 outpost:hq
        e3 hegemony:hq
        d2 outpost:runner N
    """)
    (told,) = [str(e) for e in result.trace if "takeover" in str(e)]
    assert "outpost:runner on d2 fights for moloch+vegas" in told


def test_moloch_in_a_team_hits_its_ally_unless_the_option_is_off():
    """3E TEAM MATCH, Moloch in a Team Match: "Its units hit and wound friendly units as usual (of course HQ does
    not wound another HQ)"; option moloch-team-fire=no drops the exception (RULINGS 64)."""
    text = """
        team moloch outpost
        team borgo hegemony
        a1 outpost:hq
        e1 moloch:hq
        a3 borgo:hq
        e3 hegemony:hq
        c2 outpost:runner N
        c3 moloch:hunter-killer N
    """

    def runner_hurt(outcome: battle.Outcome) -> bool:
        runner = outcome.position.unit_at(Hex.parse("c2"))
        return runner is None or runner.wounds > 0

    assert runner_hurt(fight(text))
    assert not runner_hurt(fight("rules 3.0 moloch-team-fire=no\n" + text))


def test_no_instant_on_a_teammates_unit():
    """3E TEAM MATCH: "Instant Action tiles cannot be used on friendly units"."""
    team = position("""
        team outpost borgo
        team moloch hegemony
        a1 outpost:hq
        e1 borgo:hq
        a3 moloch:hq
        e3 hegemony:hq
        c3 borgo:mutant N
        c2 moloch:blocker N
        hand outpost outpost:sniper
        to-move outpost
    """)
    targets = {str(a) for a in actions.legal_actions(team, "outpost") if str(a).startswith("use outpost:sniper")}
    assert targets == {"use outpost:sniper c2"}


def test_one_player_vs_a_team_seats_and_the_teams_hqs_at_13():
    """3E 1 PLAYER VS A TEAM: "the Loner places their HQ marker on space 20 and each team player on 13"; "The turn
    sequence should be: Player 1, Player 2, Player 1, Player 3"; RULINGS 63: each army places its HQ once, in order
    of first appearance."""
    report = checked("""
        game
        players hegemony borgo hegemony moloch
        1. hegemony: hq c3
        2. borgo: hq a1
        3. moloch: hq e3
        4. hegemony: draw hegemony:runner
        5. borgo: draw borgo:mutant borgo:medic
        6. hegemony: draw hegemony:net-fighter hegemony:boss; discard hegemony:boss
        7. moloch: draw moloch:blocker moloch:hybrid moloch:clown; discard moloch:clown
        expect hp borgo 13
        expect hp moloch 13
        expect hp hegemony 20
    """)
    assert report.state.to_move == "hegemony"  # the fifth seat is the first again: the Loner


def test_the_team_wins_when_two_opposing_hqs_fall_in_one_battle_against_the_loner():
    """3E 1 PLAYER VS A TEAM: "If two opposing HQs are destroyed in one battle, the team wins." (Checked on the
    victory rule itself: a Loner HQ and a team HQ fall together.)"""
    state = game.GameState(position("""
        team borgo moloch
        e3 moloch:hq hp=5
    """), ("hegemony", "borgo", "hegemony", "moloch"))  # the Hegemony and the Borgo HQs are gone
    assert game._after_battle(state).winners == ("borgo", "moloch")


def test_team_match_two_opposing_hqs_fall_the_stronger_survivor_wins():
    """3E TEAM MATCH: "If two opposing HQs are destroyed in one battle, the remaining two HQs are taken into
    consideration and the one with more Health points remaining wins"."""
    state = game.GameState(position("""
        team borgo moloch
        team outpost hegemony
        e3 moloch:hq hp=5
        e1 hegemony:hq hp=7
    """), ("borgo", "outpost", "moloch", "hegemony"))  # the Borgo and the Outpost HQs are gone
    assert game._after_battle(state).winners == ("outpost", "hegemony")


# --- invariants ---------------------------------------------------------------------------------------------------

_THREE_ARMIES = """
    a1 moloch:hq hp=6
    e1 outpost:hq hp=5
    c5 borgo:hq hp=4
    c3 outpost:hmg {a}
    c2 moloch:blocker {b}
    d3 borgo:brawler {c}
    b3 hegemony:net-fighter {a}
    e3 hegemony:hq
"""


@settings(max_examples=30, deadline=None, derandomize=True)
@given(st.sampled_from("N NE SE S SW NW".split()), st.sampled_from("N NE SE S SW NW".split()),
       st.sampled_from("N NE SE S SW NW".split()), st.integers(1, 5))
def test_rotating_a_four_army_battle_rotates_its_outcome(a, b, c, steps):
    """Rotating the whole position by 60° changes nothing but the labels (STYLE: differential tests)."""
    before = position(_THREE_ARMIES.format(a=a, b=b, c=c))
    plain = battle.resolve(before)
    turned = battle.resolve(before.rotated(steps))
    assert sorted(str(o.position.rotated(steps)) for o in plain) == sorted(str(o.position) for o in turned)
    assert sorted(tuple(sorted(o.hq.items())) for o in plain) == sorted(tuple(sorted(o.hq.items())) for o in turned)


# --- the 3E game variants (3E GAME VARIANTS) ------------------------------------------------------------------------

_MIDGAME = """
    game
    players moloch outpost
    {rules}
    c3 moloch:hq
    c1 outpost:hq
    deck moloch 20
    deck outpost 20
"""


def test_reinforcement_draws_up_to_six_discards_one_and_plays_at_most_two():
    """3E GAME VARIANTS, REINFORCEMENT: "during your turn, draw up to 6 tiles instead of 3, discard one and play a
    maximum of two tiles, any other tile you have to save for later"."""
    start = _MIDGAME.format(rules="rules 3.0 reinforcement=yes")
    draw = "1. moloch: draw moloch:blocker moloch:blocker moloch:hybrid moloch:officer moloch:medic moloch:clown; "
    checked(start + draw + "discard moloch:clown; place moloch:blocker a2 N; place moloch:hybrid b2 N\n")
    third = game.check(notation.parse(start + draw + "discard moloch:clown; place moloch:blocker a2 N; "
                                      "place moloch:hybrid b2 N; place moloch:officer b3 N\n"))
    assert third.verdict == "illegal" and "at most 2" in (third.problem or "")
    three = game.check(notation.parse(start + "1. moloch: draw moloch:blocker moloch:blocker moloch:hybrid\n"))
    assert three.verdict == "illegal" and "6 here" in (three.problem or "")


def test_reinforcement_an_unlucky_draw_needs_six_instants():
    """3E REINFORCEMENT: "The Unlucky Draw can only be considered if, after drawing tiles, the player has 6 Instant
    tiles." Three instants among six tiles allow no second draw."""
    start = _MIDGAME.format(rules="rules 3.0 reinforcement=yes")
    report = game.check(notation.parse(start + "1. moloch: draw moloch:battle moloch:battle moloch:move moloch:blocker "
                                       "moloch:hybrid moloch:officer; discard moloch:battle; discard moloch:battle; "
                                       "discard moloch:move; discard moloch:blocker; discard moloch:hybrid; "
                                       "discard moloch:officer; draw moloch:clown\n"))
    assert report.verdict == "illegal" and report.action == "draw moloch:clown"
    assert report.problem == game.DRAW_ONCE


def test_alternative_beginning_first_player_draws_three_discards_one_and_uses_one():
    """3E GAME VARIANTS, ALTERNATIVE BEGINNING: "Player 1 draws three tiles from their pile. Then he has to discard
    one and from the remaining two he chooses one tile to be used ... Next, starting with Player 2, players draw up
    to three tiles, choose one to discard"."""
    start = """
        game
        players moloch outpost
        rules 3.0 beginning=alternative
        1. moloch: hq c3
        2. outpost: hq c1
    """
    checked(start + "3. moloch: draw moloch:blocker moloch:hybrid moloch:clown; discard moloch:clown; "
                    "place moloch:blocker b2 N\n"
                    "4. outpost: draw outpost:runner outpost:scout outpost:medic; discard outpost:medic; "
                    "place outpost:runner d2 N; place outpost:scout d1 N\n")
    both = game.check(notation.parse(start + "3. moloch: draw moloch:blocker moloch:hybrid moloch:clown; "
                                     "discard moloch:clown; place moloch:blocker b2 N; place moloch:hybrid b3 N\n"))
    assert both.verdict == "illegal" and "at most 1" in (both.problem or "")


def test_battle_json_gives_every_armys_score_in_the_score_mode(capsys, monkeypatch):
    """NOTATION §10.8: `score` is {"ARMY": N} for every army in `score` mode; HQs take no damage there."""
    monkeypatch.setattr("sys.stdin", io.StringIO("mode score\nc3 moloch:hq\na1 outpost:hq\ne1 borgo:hq\n"
                                                 "c5 outpost:hmg N\n"))
    assert main(["battle", "-", "--json"]) == 0
    outcome = json.loads(capsys.readouterr().out)["outcomes"][0]
    assert outcome["score"] == {"borgo": 0, "moloch": 0, "outpost": 2}
    assert outcome["hq"] == {"borgo": 20, "moloch": 20, "outpost": 20}


# --- the solver in a team match (issue 14: every mode in `solve`) --------------------------------------------------

TEAM_CARD = """puzzle "Shoulder to Shoulder"
player borgo
offer borgo:officer borgo:medic
play 1
goal destroy outpost
{teams}
a3 borgo:hq hp=5
a1 moloch:hq hp=5
e1 outpost:hq hp=2
c5 hegemony:hq hp=9
e2 moloch:hunter-killer N
"""


def test_the_solver_lets_a_players_module_boost_its_teammates_unit():
    """3E TEAM MATCH: "Module and HQ bonuses also affect friendly units." Borgo's Officer linked to the allied Moloch
    Hunter-Killer makes its blow 2, enough for the Outpost HQ; every winning play is an Officer linking it. Without
    the team lines the Hunter-Killer is an enemy's unit and nothing wins."""
    from solver.search.solve import Solver

    teamed = Solver(notation.parse(TEAM_CARD.format(teams="team borgo moloch\nteam outpost hegemony")), jobs=1).solve()
    assert teamed.verdict == "cooked" and teamed.solutions
    assert all(any(str(a).startswith("place borgo:officer") for a in s.actions) for s in teamed.solutions)
    alone = Solver(notation.parse(TEAM_CARD.format(teams="")), jobs=1).solve()
    assert alone.verdict == "none"


@pytest.mark.parametrize("teams, wins", [("team borgo moloch\nteam outpost hegemony\n", True), ("", False)])
def test_a_card_in_the_score_mode_with_teams_counts_the_teams_points(teams, wins):
    """2E Optional Score Rules: "In Team Match mode, both teams share their point count ... the player, or team with
    a higher score wins." Borgo 10 and Moloch 18 make 28 against the Outpost's and Hegemony's 27: a card's `win` for
    Borgo holds (the solver had set Borgo's own 10 against the best other army, its teammate's 18 included). Alone,
    Borgo's 10 is behind."""
    from solver.search.solve import Ending, goal_holds

    puzzle = notation.parse(f'puzzle "g"\nplayer borgo\noffer borgo:medic\ngoal win\nmode score\n{teams}'
                            "score borgo 10\nscore moloch 18\nscore outpost 15\nscore hegemony 12\n"
                            "a3 borgo:hq\na1 moloch:hq\ne1 outpost:hq\ne3 hegemony:hq\n")
    hp = {"borgo": 20, "moloch": 20, "outpost": 20, "hegemony": 20}
    assert goal_holds(puzzle.goal, "borgo", Ending(hp, hp, puzzle.position, {})) is wins


MOLOCH_IN_THE_WAY = """
    team moloch outpost
    team borgo hegemony
    a1 outpost:hq
    e1 moloch:hq
    a3 borgo:hq
    e3 hegemony:hq
    c5 outpost:hmg N
    c4 moloch:blocker N
    c2 hegemony:ganger N
"""


@pytest.mark.parametrize("option, blocker_hit", [("", False), ("moloch-team-fire=moloch", False),
                                                  ("moloch-team-fire=yes", True), ("moloch-team-fire=no", False)])
def test_an_allys_shot_passes_over_molochs_units_unless_team_fire_runs_both_ways(option, blocker_hit):
    """RULINGS 71: Moloch's team fire runs one way. 3E TEAM MATCH: "Friendly units cannot be hit by a teammate's
    attacks. Shots go through them"; Moloch in a Team Match names only Moloch's hits on its allies ("Its units hit
    and wound friendly units as usual"). The Outpost HMG's shot passes over the allied Moloch Blocker and hits the
    Hegemony Ganger; option moloch-team-fire=yes (the reading before RULINGS 71) stops it at the Blocker."""
    result = fight((f"rules 3.0 {option}\n" if option else "") + MOLOCH_IN_THE_WAY)
    blocker, ganger = (result.position.unit_at(Hex.parse(x)) for x in ("c4", "c2"))
    assert (blocker.wounds > 0) is blocker_hit
    assert (ganger is None or ganger.wounds > 0) is not blocker_hit


def test_moloch_still_hits_its_ally_by_default():
    """RULINGS 71: "Moloch's units hit and wound their allies' units" under the default, one way."""
    text = MOLOCH_IN_THE_WAY.replace("c5 outpost:hmg N", "c5 outpost:hmg S").replace(
        "c4 moloch:blocker N", "c4 moloch:hybrid S")  # the Hybrid shoots south at the HMG; the HMG looks away
    hmg = fight(text).position.unit_at(Hex.parse("c5"))
    assert hmg is None or hmg.wounds > 0
