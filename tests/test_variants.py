"""Issue 14's leftovers: `nhex check --json` with the winners and the score, the team score (2E), the 3E score cap as
an edition option, and the inputs nhex cannot play refused by name: Structures (exit 4), Leaders and
the Battle Atlas (no data: exit 4 at their line).

3E = ../shared/rules/rulebook-en-3rd-edition.txt (THE MULTIPLAYER MODE; GAME VARIANTS); 2E = the 2nd edition's
THE MULTIPLAYER MODE and CHANGES IN NEW EDITION, Optional Score Rules; NOTATION §9, §10.5-10.8.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from solver.engine import battle
from solver.turns import game
from solver.notation import text as notation
from solver.errors import RuleNotImplemented
from cli_helpers import nhex

ROOT = Path(__file__).parent.parent
GAMES = Path(__file__).parent / "data" / "games"


def test_check_json_gives_the_winners_and_every_armys_score():
    """NOTATION §10.7 (`expect winner`, `expect score`) and §10.8: `nhex check --json` on a score-mode record
    (tests/data/games/score-three-players.nhex, made by playing legal moves through the engine) says who won and
    the points: "If none of the players score the required number of points and the Final Battle ends, the player
    with the highest score wins" (3E DEATHMATCH WITH AN OPTIONAL SCORE RULE)."""
    done = nhex("check", "--json", str(GAMES / "score-three-players.nhex"))
    assert done.returncode == 0, done.stderr
    data = json.loads(done.stdout)
    assert data["winners"] == ["outpost"] and data["over"] is True
    assert data["score"] == {"outpost": 7, "moloch": 3, "borgo": 0}


def test_check_json_gives_shared_winners_and_the_armies_out():
    """3E THE MULTIPLAYER MODE, TIE: "the tied players share the victory"; HQ DESTROYED: "The player is out"
    (tests/data/games/four-player-deathmatch.nhex)."""
    done = nhex("check", "--json", str(GAMES / "four-player-deathmatch.nhex"))
    data = json.loads(done.stdout)
    report = game.check(notation.parse((GAMES / "four-player-deathmatch.nhex").read_text()))
    assert data["winners"] == list(report.state.winners) and len(data["winners"]) >= 1
    assert data.get("out", []) == [a for a in report.state.armies if a in report.state.out]
    assert "score" not in data


TEAM_SCORE = """game
players borgo outpost moloch hegemony
team borgo moloch
team outpost hegemony
mode score
score borgo 20
score moloch 19
a1 borgo:hq
c1 outpost:hq
e1 moloch:hq
e3 hegemony:hq
b1 moloch:hunter-killer N
1. borgo: draw borgo:battle; use borgo:battle
"""


def test_a_team_shares_its_points_and_forty_wins():
    """2E CHANGES IN NEW EDITION, Optional Score Rules: "In Team Match mode, both teams share their point count and a
    team which scores a total of 40 points wins" (3E gives no team score). Borgo 20 and Moloch 19: the Hunter-Killer's
    hit on the Outpost HQ makes 40, and the team wins; the HQ takes no wound."""
    report = game.check(notation.parse(TEAM_SCORE))
    assert report.ok, report.fault("<test>")
    assert report.state.winners == ("borgo", "moloch")
    assert dict(report.state.position.scores) == {"borgo": 20, "moloch": 20}
    assert report.state.hq["outpost"] == 20


def test_moloch_scores_nothing_on_its_allys_hq():
    """2E Optional Score Rules: "whenever Moloch inflicts any damage on the allied HQ, the wounds are not applied and
    the score does not count towards the total" (Moloch hits its allies: 3E, Moloch in a Team Match)."""
    (outcome,) = battle.resolve(notation.parse_position("""
        mode score
        team borgo moloch
        team outpost hegemony
        c1 borgo:hq
        a1 moloch:hq
        e1 outpost:hq
        e3 hegemony:hq
        b1 moloch:hunter-killer N
    """))
    assert dict(outcome.position.scores) == {} and outcome.hq["borgo"] == 20


@pytest.mark.parametrize("edition, points", [("3.0", 20), ("2.0", 21)])
def test_the_twenty_point_cap_is_the_third_editions(edition, points):
    """3E DEATHMATCH WITH AN OPTIONAL SCORE RULE: "Players may never score more than 20 points" (RULINGS 62); the 2E
    Optional Score Rules have no cap (option score-cap, default 'no' under rules 2.0)."""
    (outcome,) = battle.resolve(notation.parse_position(f"""
        rules {edition}
        mode score
        score moloch 19
        c1 outpost:hq
        a1 moloch:hq
        e3 borgo:hq
        b1 moloch:juggernaut NE
    """))
    assert dict(outcome.position.scores)["moloch"] == points


def test_the_score_rule_in_one_player_vs_a_team_is_refused_by_name():
    """3E 1 PLAYER VS A TEAM has no score variant and 2E has no 1 vs a team: neither book gives a goal (exit 4)."""
    with pytest.raises(RuleNotImplemented, match="1 player vs a team"):
        game.start(notation.parse("game\nplayers hegemony borgo hegemony moloch\nmode score\n"))


@pytest.mark.parametrize("text", ["c3 moloch:hq\nb2 moloch:structure N\n",
                                  "c3 moloch:hq\nto-move moloch\nhand moloch moloch:structure-bunker\n"])
def test_structure_tiles_are_refused_by_name(text):
    """3E GAME VARIANTS, STRUCTURES: "8 double-sided tiles (2 for each army)"; no source gives their names or icons,
    so a Structure named on the board or in a hand is refused by name (exit 4), not read as an unknown tile."""
    done = nhex("show", "-", stdin=text)
    assert done.returncode == 4 and "the Structure tile moloch:structure" in done.stderr


@pytest.mark.parametrize("line, what", [("leader moloch fury", "the Leaders variant"),
                                        ("atlas 3", "the Battle Atlas")])
def test_leaders_and_the_battle_atlas_are_refused_naming_the_missing_data(line, what):
    """3E GAME VARIANTS, LEADERS ("8 double-sided Leader cards") and BATTLE ATLAS ("1 Battle Atlas with 8
    Scenarios"): rules with no card or board data in our sources. Issue 14: "refuse them with exit 4 naming the
    missing data": a `leader` or `atlas` line is located and refused by name, in a position or a record, not taken
    for a syntax error. An Atlas board is a `board custom` (NOTATION §2) under the ordinary rules; its general rule
    ("If a Battle occurs due to the board being filled, and as a result no unit is removed from the board, the game
    always ends in an immediate draw") is option full-board-deadlock."""
    done = nhex("show", "-", stdin=f"c3 moloch:hq\n{line}\n")
    assert done.returncode == 4
    assert done.stderr.startswith(f"<stdin>:2:1: not implemented yet: {what}") and "no data" in done.stderr
    done = nhex("check", "-", stdin=f"game\nplayers moloch outpost\n{line}\n")
    assert done.returncode == 4 and done.stderr.startswith("<stdin>:3:1: not implemented yet")


def test_a_line_that_is_no_statement_is_still_a_syntax_error():
    """NOTATION §9: bad input is exit 2, located; only the two variants' words are refused as missing data."""
    done = nhex("show", "-", stdin='mission "Bridge"\nc3 moloch:hq\n')
    assert done.returncode == 2 and done.stderr.startswith("<stdin>:1:1: syntax error")


def test_rules_lists_the_new_options_with_their_passages():
    """GUIDE: every option is listed by `nhex rules` with its default and passage; score-cap's default follows the
    edition (3E caps, 2E does not)."""
    listed = {o["name"]: o for o in json.loads(nhex("rules", "--json").stdout)}
    assert "Players may never score more than 20 points" in listed["score-cap"]["passage"]
    assert listed["score-cap"]["editions"]["2.0"] == {"default": "no", "source": "2E"}
    assert "player to the right" in listed["bomber-right"]["passage"]
    assert "RULINGS 57" in listed["hired-bomber"]["passage"]
