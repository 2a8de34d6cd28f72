"""Readings by edition (issue 9, item 5): each difference the 2nd-edition text states is a rule option whose
default follows the edition (``rules 2.0``), and ``nhex rules`` says which book each default comes from.
3E = ../shared/rules/rulebook-en-3rd-edition.txt, 2E = ../shared/rules/rulebook-en-2nd-edition.txt."""

from __future__ import annotations

import json

import pytest

from solver.turns import game
from solver.cli import main
from solver.notation.text import parse
from solver.rules import EDITIONS, OPTIONS, RuleSet, rule_option

# A tie after the Final Battle: the Outpost draws its last tile in turn 1, Moloch plays turn 2, the Final Battle
# leaves both HQs at 10 (test_game.ENDGAME with equal health).
TIE = """
game
players outpost moloch
{rules}
deck outpost 1
deck moloch 2
c3 outpost:hq hp=10
e3 moloch:hq hp=10
a2 outpost:runner N
1. outpost: draw commando
2. moloch: draw hybrid guard; place guard e1 S
"""


def check(text: str) -> game.CheckReport:
    report = game.check(parse(text, "<test>"))
    assert report.ok, f"{report.line}: {report.action}: {report.verdict}: {report.problem}"
    return report


def test_a_tie_after_the_final_battle_is_a_draw_under_rules_2_0():
    """2E VICTORY: "If both HQs have the same number of points remaining, the game ends with a draw." (RULINGS
    29; option tie-break, default 'no' under rules 2.0)."""
    state = check(TIE.format(rules="rules 2.0")).state
    assert state.result == "draw" and state.battles == 1 and state.tie_break_last is None


def test_a_tie_after_the_final_battle_brings_the_tie_break_under_rules_3_0():
    """3E VICTORY: "each player takes one more turn as if the game were to continue as normal ... Then, an
    additional Battle begins." (option tie-break, default 'yes' under rules 3.0)."""
    state = check(TIE.format(rules="rules 3.0")).state
    assert state.result is None and state.tie_break_last == 4


@pytest.mark.parametrize("rules, result", [("rules 3.0 tie-break=no", "draw"), ("rules 2.0 tie-break=yes", None)])
def test_the_tie_break_option_overrides_the_editions_default(rules, result):
    """RULINGS 29: 'tie-break=no' gives the PL Duel rule (PL ZWYCIESTWO: a draw) under 3.0; a 2.0 game may ask for
    the 3E tie-break."""
    assert check(TIE.format(rules=rules)).state.result == result


# Three players: the Outpost and Moloch tie for the lead after the Final Battle, Borgo is behind.
TIE_THREE = """
game
players outpost moloch borgo
{rules}
deck outpost 1
deck moloch 1
deck borgo 1
c3 outpost:hq hp=5
c1 moloch:hq hp=5
e3 borgo:hq hp=2
1. outpost: draw battle; discard battle
2. moloch: draw battle; discard battle
3. borgo: draw battle; discard battle
"""


def test_a_three_player_tie_is_a_draw_under_rules_2_0():
    """2E THE MULTIPLAYER MODE says nothing of ties, so 2E VICTORY applies: "If both HQs have the same number of
    points remaining, the game ends with a draw" — nobody wins, the trailing Borgo neither (option tie-break, default
    'no' under rules 2.0)."""
    state = check(TIE_THREE.format(rules="rules 2.0")).state
    assert state.result == "draw" and state.winners == () and state.battles == 1


def test_a_three_player_tie_brings_extra_turns_for_the_tied_players_only_under_rules_3_0():
    """3E THE MULTIPLAYER MODE, TIE: "each of the tied players takes an extra turn - starting with the next player
    after the player who ended the game and continuing in turn order. After each player has taken their turn an
    additional Battle commences." Borgo ended the game; the Outpost and Moloch play on."""
    state = check(TIE_THREE.format(rules="rules 3.0")).state
    assert state.result is None and set(state.tied) == {"outpost", "moloch"} and state.tie_break_last == 5


MIDGAME = """
game
players outpost moloch
{rules}
deck outpost 20
deck moloch 20
c3 outpost:hq
c1 moloch:hq
"""
UNLUCKY = "1. outpost: draw battle move sniper; discard battle; discard move; discard sniper; draw commando scout medic; " \
          "discard medic; place commando c2 N\n"


def test_rules_2_0_have_no_unlucky_draw():
    """3E UNLUCKY DRAW: "if all the tiles that a player has in front of them are Instant Action tiles ... they may
    discard all of them and draw new tiles". 2E GAME SEQUENCE has no such redraw: "In his turn a player draws UP TO
    three tiles ... Then, after the tiles have been drawn, the player must discard one of the three tiles"
    (option unlucky-draw, default 'no' under rules 2.0)."""
    check(MIDGAME.format(rules="rules 3.0") + UNLUCKY)
    report = game.check(parse(MIDGAME.format(rules="rules 2.0") + UNLUCKY, "<test>"))
    assert not report.ok and "no Unlucky Draw" in report.problem
    check(MIDGAME.format(rules="rules 2.0 unlucky-draw=yes") + UNLUCKY)


def test_every_option_says_where_its_default_comes_from_in_each_edition():
    """Developers' guide: every option cites its passage; issue 9: `nhex rules` lists which edition each default
    comes from. A default that differs in 2.0 comes from the 2E text."""
    for option in OPTIONS:
        assert option.source
        for edition in EDITIONS:
            assert option.default_for(edition) in option.choices
            if option.default_for(edition) != option.default:
                assert option.default_source(edition) == {"2.0": "2E"}[edition]
                assert "2E" in option.passage
    assert RuleSet.make("2.0").option("tie-break") == "no"
    assert rule_option("unlucky-draw").default_for("3.0") == "yes"


def test_nhex_rules_lists_each_editions_default_and_its_source(capsys):
    assert main(["rules", "--json"]) == 0
    options = {o["name"]: o for o in json.loads(capsys.readouterr().out)}
    assert options["tie-break"]["editions"] == {"3.0": {"default": "yes", "source": "3E"},
                                                "2.0": {"default": "no", "source": "2E"}}
    assert options["clown-hits-hq"]["editions"]["2.0"] == {"default": "yes", "source": "ES"}
    assert main(["rules"]) == 0
    assert "2.0: no (2E)" in capsys.readouterr().out
