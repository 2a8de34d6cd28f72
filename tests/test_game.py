"""Whole games: the turn structure, battles between turns, the end of the game, and `nhex check`.

Each docstring names the passage the test checks (3E = ../shared/rules/rulebook-en-3rd-edition.txt,
2E = the 2nd edition). The records under tests/data/games/illegal/ have one illegal action each, marked
`# <- illegal: <part of the rule>` on its line.
"""

from __future__ import annotations

import re
from collections import Counter
from pathlib import Path

import pytest

from solver.turns import game
from solver.cli import main
from solver.notation.text import parse
from solver.tiles import army as army_data

DATA = Path(__file__).parent / "data" / "games"
ILLEGAL = sorted((DATA / "illegal").glob("*.nhex"))


def record(text: str):
    return parse(text, "<test>")


def checked(text: str) -> game.CheckReport:
    return game.check(record(text))


def legal(text: str) -> game.CheckReport:
    report = checked(text)
    assert report.ok, f"{report.line}: {report.action}: {report.verdict}: {report.problem}"
    return report


def refused(text: str, fragment: str) -> game.CheckReport:
    report = checked(text)
    assert report.verdict == "illegal" and fragment in report.problem, (report.verdict, report.problem)
    return report


# --- the 2nd edition example game ------------------------------------------------------------------------------------


def test_the_2e_example_game_reaches_its_battle_with_the_books_hq_health():
    """2E EXAMPLE OF PLAY: HEGEMONY VS THE OUTPOST (rulebook-en-2nd-edition.txt, lines 589-731): ten book
    turns, then the battle the Outpost starts; 'The Battle is over ... Turn 11 begins. It's Hegemony's go.'
    The book's count ends with the Outpost HQ at 18 and the Hegemony HQ at 14."""
    report = game.check(parse((DATA / "hegemony-vs-outpost-2e.nhex").read_text(), "2e"))
    assert report.ok, report.fault("2e")
    state = report.state
    assert state.hq == {"outpost": 18, "hegemony": 14}
    assert state.battles == 1 and state.result is None and state.to_move == "hegemony"
    # After the battle: the Net Fighter, Annihilator, Medic, Brawler and Runner are gone.
    survivors = sorted(f"{u.hex} {u.tile.name}" for u in state.position.units)
    assert survivors == ["a2 universal-soldier", "b1 hq", "b3 hmg", "b4 ganger", "c1 officer-1", "c4 boss",
                         "d2 hq", "d4 commando", "e3 scout"]


def test_every_tile_is_somewhere_after_the_example_game():
    """3E SETUP: each army has 35 tiles. Every tile of the 2E example is in the deck, in hand, on the board
    or in the discard pile (used instants, discarded tiles, dead units)."""
    state = game.check(parse((DATA / "hegemony-vs-outpost-2e.nhex").read_text(), "2e")).state
    for army in state.players:
        seen = Counter(state.pool(army)) + Counter(state.position.hand(army)) + Counter(state.discard_pile(army))
        seen += Counter(u.tile for u in state.position.units if u.tile.army == army)
        assert seen == Counter({t: t.count for t in army_data(army).tiles})
        assert state.position.deck(army) == len(state.pool(army))


# --- one illegal action each -----------------------------------------------------------------------------------------


@pytest.mark.parametrize("path", ILLEGAL, ids=[p.stem for p in ILLEGAL])
def test_records_with_one_illegal_action_are_stopped_at_its_line(path: Path):
    """`nhex check` stops at the first illegal action with the rule it breaks (the brief; NOTATION §7, §9)."""
    text = path.read_text()
    (number, mark), = [(n, line) for n, line in enumerate(text.splitlines(), start=1) if "<- illegal" in line]
    fragment = mark.split("<- illegal:", 1)[1].strip()
    report = game.check(parse(text, str(path)))
    assert (report.verdict, report.line) == ("illegal", number), report.fault(path.name)
    assert fragment in report.problem, report.problem
    assert report.fault("F") == f"F:{number}: {report.action}: illegal: {report.problem}"


# --- the start of the game -------------------------------------------------------------------------------------------


OPENING = """
game
players outpost moloch
1. outpost: hq c3
2. moloch: hq a1
3. outpost: draw medic; place medic b2 N
4. moloch: draw hybrid guard; place hybrid b1 S
5. outpost: draw brawler commando move; discard move; place brawler c2 NW
6. moloch: draw ripper scout; discard scout; place ripper a2 NE
"""


def test_opening_draws_one_then_two_then_up_to_three():
    """3E GAME SEQUENCE: 'the First player draws 1 tile ... The Second player then draws 2 tiles ... Next,
    the First player draws up to 3 tiles, which means that if they saved 1 tile from their previous turn
    they would only draw 2 tiles to have a total of 3 tiles.' The Moloch Guard saved in turn 4 means two
    tiles drawn in turn 6; the Commando saved in turn 5 means two for the Outpost in turn 7."""
    state = legal(OPENING).state
    assert [t.name for t in state.position.hand("outpost")] == ["commando"]
    refused(OPENING + "7. outpost: draw scout medic sniper; discard scout\n", "2 here")
    legal(OPENING + "7. outpost: draw scout medic; discard scout; place medic d2 N\n")


def test_the_second_player_does_not_discard_from_two():
    """3E GAME SEQUENCE: the Second player draws 2 tiles; 'Each of these tiles may be used, saved for later,
    or discarded' (the compulsory discard comes with 3 tiles)."""
    legal("game\nplayers outpost moloch\n1. outpost: hq c3\n2. moloch: hq a1\n3. outpost: draw medic\n"
          "4. moloch: draw hybrid guard; place hybrid b1 S; place guard b2 N\n")


def test_the_hq_turns_come_first_and_place_only_the_hq():
    """3E GAME SEQUENCE: 'The first player places their HQ on any empty space on the board. Then the second
    player does the same. HQ's may be placed adjacent to each other.'"""
    legal("game\nplayers outpost moloch\n1. outpost: hq c3\n2. moloch: hq c2\n")
    refused("game\nplayers outpost moloch\n1. outpost: hq c3\n2. moloch: hq c3\n", "empty hex")
    refused(OPENING + "7. outpost: hq e3\n", "start of the game")


# --- drawing ---------------------------------------------------------------------------------------------------------


MIDGAME = """
game
players outpost moloch
deck outpost 20
deck moloch 20
c3 outpost:hq
c1 moloch:hq
"""


def test_up_to_three_tiles_and_one_discarded_first():
    """3E DRAWING TILES: 'After the tiles have been drawn, the player must choose 1 of the 3 tiles to
    discard ... A player may discard any number of the tiles they have drawn.'"""
    legal(MIDGAME + "1. outpost: draw commando scout medic; discard medic; discard scout; place commando c2 N\n")
    refused(MIDGAME + "1. outpost: draw commando scout; place commando c2 N\n", "up to 3")
    refused(MIDGAME + "1. outpost: draw commando scout medic; place commando c2 N\n", "first discards 1")
    refused(MIDGAME + "1. outpost: draw commando scout medic\n", "first discards 1")


def test_the_last_tile_with_fewer_than_three_needs_no_discard():
    """3E DRAWING TILES: 'If, nearing the end of the game, any player draws their last tile but still has
    fewer than 3 tiles in front of them, they do not have to discard a tile.'"""
    text = MIDGAME.replace("deck outpost 20", "deck outpost 2")
    report = legal(text + "1. outpost: draw commando scout; place commando c2 N\n")
    assert report.state.last_tile_turn == 1
    refused(text + "1. outpost: draw commando\n", "2 here")


def test_the_unlucky_draw():
    """3E UNLUCKY DRAW: 'After drawing, if all the tiles that a player has in front of them are Instant
    Action tiles (even if it is only 1 or 2 tiles at the beginning of the game) they may discard all of them
    and draw new tiles. The player may use this rule multiple times during the game and even in a single
    turn.'"""
    report = legal(MIDGAME + "1. outpost: draw battle move sniper; discard battle; discard move; discard sniper; "
                             "draw move battle move; discard move; discard battle; discard move; "
                             "draw commando scout medic; discard medic; place commando c2 N\n")
    assert len(report.state.discard_pile("outpost")) == 7
    refused(MIDGAME + "1. outpost: draw battle move sniper; discard battle; discard move; draw commando\n",
            "every tile in front")
    refused(MIDGAME + "1. outpost: draw battle move sniper; use sniper c1\n", "first discards")
    opening = "game\nplayers outpost moloch\n1. outpost: hq c3\n2. moloch: hq a1\n"
    legal(opening + "3. outpost: draw move; discard move; draw medic; place medic b2 N\n")


def test_a_drawn_tile_must_still_be_in_the_deck():
    """3E SETUP: 'Each player chooses an army and takes its 35 tiles' (the Outpost has one Sniper)."""
    refused(MIDGAME + "1. outpost: draw sniper scout medic; discard scout; use sniper c1\n", "Sniper")
    refused(MIDGAME + "1. outpost: draw sniper sniper medic; discard medic\n", "no copy")
    refused(MIDGAME + "1. outpost: draw moloch:hybrid scout medic; discard scout\n", "own army")


# --- battles ---------------------------------------------------------------------------------------------------------


def test_the_battle_tile_ends_the_turn_and_the_battle_is_fought():
    """3E BATTLE: 'When this token is played, the player's turn immediately ends, and the Battle begins.'"""
    text = MIDGAME + "c2 moloch:ripper S\n1. outpost: draw battle scout move; discard move; use battle\n"
    state = legal(text).state
    assert state.hq == {"outpost": 18, "moloch": 20} and state.battles == 1
    assert state.position.unit_at(state.position.hq("outpost").hex) is not None
    refused(text.replace("use battle", "use battle; discard scout"), "Battle has begun")


def test_a_full_board_starts_a_battle_and_ends_the_turn():
    """3E USING TILES: 'If, at any time during the game, the board is filled and no single space is left to
    place a tile on, a Battle begins'; 3E BATTLE: the player's turn is over."""
    text = ("game\nplayers outpost moloch\nboard custom (0,0) (0,-1) (1,-1) (1,0)\ndeck outpost 20\ndeck moloch 20\n"
            "c3 outpost:hq\nc2 moloch:hq\nd2 moloch:hybrid\n"
            "1. outpost: draw brawler scout medic; discard medic; place brawler d3 N\n")
    state = legal(text).state  # the Brawler (melee 2 N) kills the Hybrid on d2; the HQs trade nothing
    assert state.battles == 1 and state.position.unit_at(state.position.hq("moloch").hex) is not None
    assert [u.tile.name for u in state.position.units if u.army == "moloch"] == ["hq"]
    refused(text.replace("place brawler d3 N", "place brawler d3 N; discard scout"), "Battle has begun")


def test_battles_repeat_while_the_board_stays_full():
    """3E BATTLE: 'If the board is still full after the Battle is completely finished, resolve the next
    Battles until the board is not full or until the game is over.' The Blocker (3 health) next to the
    Moloch HQ takes one wound a battle."""
    text = ("game\nplayers outpost moloch\nboard custom (0,0) (0,-1) (0,1)\ndeck outpost 20\ndeck moloch 20\n"
            "c3 outpost:hq\nc2 moloch:hq\n"
            "1. outpost: draw brawler scout medic; discard medic; discard scout; place brawler c4 S\n")
    # The Brawler faces away (S, off the board) and the Moloch HQ cannot reach it: nothing changes, so the
    # game ends as a draw (option full-board-deadlock).
    report = legal(text)
    assert report.state.result == "draw" and report.state.battles == 1
    compare = legal(text.replace("deck outpost 20", "rules 3.0 full-board-deadlock=compare-health\n"
                                 "deck outpost 20").replace("c3 outpost:hq", "c3 outpost:hq hp=9"))
    assert compare.state.result == "moloch"
    wearing = ("game\nplayers moloch outpost\nboard custom (0,0) (0,-1) (1,-1)\ndeck outpost 20\ndeck moloch 20\n"
               "c3 moloch:hq\nc2 outpost:hq\n1. moloch: draw blocker scout medic; discard scout; discard medic; "
               "place blocker d2 N\n")
    state = legal(wearing).state
    assert state.battles == 3 and state.position.unit_at(state.position.hq("moloch").hex) is not None
    assert len(state.position.units) == 2 and state.hq == {"moloch": 20, "outpost": 20}


def test_a_destroyed_hq_ends_the_game_after_that_battle():
    """3E VICTORY: 'The game ends after the Final Battle or when an HQ's Health is reduced to zero. If one of
    the HQs is destroyed, the game ends and the player whose HQ survived wins. ... If either of the HQs are
    destroyed during a Battle, the Battle goes on as usual. If the other HQ is destroyed as well, the game
    ends in a draw.'"""
    path = DATA / "illegal" / "game-over.nhex"
    won = game.check(parse("\n".join(path.read_text().splitlines()[:-1]), "won")).state
    assert won.result == "moloch" and won.hq == {"outpost": 0, "moloch": 20}
    both = legal(MIDGAME.replace("c3 outpost:hq", "c3 outpost:hq hp=1").replace("c1 moloch:hq", "c2 moloch:hq hp=1")
                 + "b2 outpost:brawler NE\nd3 moloch:ripper NW\n"
                 "1. outpost: draw battle scout move; discard move; use battle\n")
    assert both.state.result == "draw"


def test_battle_outcomes_that_differ_in_hq_health_stop_the_check():
    """The brief: a record cannot say which choice a player made in a battle; outcomes that leave the HQs
    with different health stop the check with 'battle outcome depends on choices'. The Clown may explode
    (1 wound to the Outpost HQ) or strike with its melee edges, which face away from it."""
    report = checked(MIDGAME + "c2 moloch:clown S\n1. outpost: draw battle scout move; discard move; use battle\n")
    assert report.verdict == "undecidable" and "battle outcome depends on choices" in report.problem


# --- the end of the game ---------------------------------------------------------------------------------------------


ENDGAME = """
game
players outpost moloch
deck outpost 1
deck moloch 2
c3 outpost:hq hp=12
e3 moloch:hq hp=10
a2 outpost:runner N
"""


def test_the_final_battle_follows_the_opponents_last_turn():
    """3E ENDING THE GAME: 'If any player draws their last tile from the deck, they finish their turn. Then
    the opposing player takes their turn and the Final Battle begins.' 3E VICTORY: 'the player whose HQ
    has more Health left is the winner'."""
    text = ENDGAME + "1. outpost: draw commando; place commando c2 N\n"
    waiting = legal(text).state
    assert waiting.last_tile_turn == 1 and waiting.result is None and waiting.battles == 0
    done = legal(text + "2. moloch: draw hybrid guard; place guard e1 S\n").state
    assert done.battles == 1 and done.result == "outpost"
    refused(text + "2. moloch: draw hybrid guard\n3. outpost: move a2 a1 N\n", "game is over")


def test_a_tie_brings_one_more_turn_each_and_an_additional_battle():
    """3E VICTORY: 'If both HQs have the same amount of Health remaining, each player takes one more turn as
    if the game were to continue as normal (if a player has no more tiles left to draw, they may only use
    the abilities of the tiles they have on the board such as a unit's Mobility, etc.). Then, an additional
    Battle begins. If both HQs still have the same amount of Health remaining after this additional Battle,
    the game ends in a draw.'"""
    text = ENDGAME.replace("hp=12", "hp=10") + ("1. outpost: draw commando\n"
                                                "2. moloch: draw hybrid guard; place guard e1 S\n")
    tie = legal(text).state
    assert tie.result is None and tie.tie_break_last == 4 and tie.battles == 1
    draw = legal(text + "3. outpost: move a2 a1 S\n4. moloch: discard hybrid\n").state
    assert draw.result == "draw" and draw.battles == 2
    # The Outpost has nothing left to draw: its saved Commando stays in hand (option tie-break-hand).
    refused(text + "3. outpost: place commando d2 N\n", "tie-break turn")
    allowed = text.replace("deck outpost 1", "rules 3.0 tie-break-hand=yes\ndeck outpost 1")
    won = legal(allowed + "3. outpost: place commando d4 NW\n4. moloch: discard hybrid\n").state
    assert won.result == "outpost"  # the Commando (ranged 1 on SE) shoots the Moloch HQ from d4


def test_a_tie_break_turn_may_pass():
    """3E VICTORY (tie-break turn): a player who has nothing to draw may do nothing; the record writes it
    `N. ARMY: pass` (nhex extension of NOTATION §7)."""
    text = ENDGAME.replace("hp=12", "hp=10") + ("1. outpost: draw commando\n"
                                                "2. moloch: draw hybrid guard; place guard e1 S\n")
    draw = legal(text + "3. outpost: pass\n4. moloch: discard hybrid\n").state
    assert draw.result == "draw" and draw.battles == 2


def test_no_battle_tile_after_the_last_tile_is_drawn():
    """3E ENDING THE GAME: 'From the moment a player has drawn their last tile, a Battle can only be
    triggered by filling the board.'"""
    text = ENDGAME + "hand moloch moloch:battle\n1. outpost: draw commando; place commando c2 N\n"
    refused(text + "2. moloch: draw hybrid guard; discard guard; use battle\n", "last tile")


# --- expectations and the command line -------------------------------------------------------------------------------


def test_expect_hp_is_compared_with_the_hq_health():
    """NOTATION §7: 'the record may state the expected HQ health after it with `expect hp ARMY N`'."""
    report = checked(MIDGAME + "c2 moloch:ripper S\n1. outpost: draw battle scout move; discard move; use battle\n"
                               "expect hp outpost 17\n")
    assert report.verdict == "wrong" and report.problem == "the outpost HQ has 18 health"
    assert report.fault("F") == "F:10: expect hp outpost 17: wrong: the outpost HQ has 18 health"


def test_cli_check_exit_codes_and_messages(capsys, tmp_path):
    """NOTATION §9: exit 0 when all is legal (with a summary), 1 at an illegal action
    (`FILE:LINE: <action>: illegal: <rule>`), 2 for bad input."""
    assert main(["check", str(DATA / "hegemony-vs-outpost-2e.nhex")]) == 0
    out = capsys.readouterr().out
    assert "hq: outpost 18, hegemony 14" in out and "legal: 11 turns, 1 battle" in out
    bad = DATA / "illegal" / "sniper-hq.nhex"
    assert main(["check", str(bad)]) == 1
    assert capsys.readouterr().out.startswith(f"{bad}:8: use outpost:sniper c1: illegal: Sniper:")
    broken = tmp_path / "broken.nhex"
    broken.write_text("game\nplayers outpost moloch\ndeck moloch 40\nc3 moloch:hq\n")
    assert main(["check", str(broken)]) == 2
    assert re.match(rf"{re.escape(str(broken))}:3:1: moloch has 1 tiles", capsys.readouterr().err)


def test_cli_check_on_positions_and_puzzles(capsys, tmp_path):
    """`nhex check` on a position reports its consistency (exit 0); on a puzzle card it also checks that
    the solution's actions are legal."""
    position = tmp_path / "p.nhex"
    position.write_text("c3 outpost:hq hp=7\nc2 moloch:hq hp=5\nb2 moloch:blocker NE wounds=1\n")
    assert main(["check", str(position)]) == 0
    assert capsys.readouterr().out.startswith("consistent: 3 units")
    position.write_text("c3 outpost:hq\nhand outpost moloch:blocker\n")
    assert main(["check", str(position)]) == 2
    assert "a tile of another army" in capsys.readouterr().err
    assert main(["check", "tests/data/notation-crossfire.nhex"]) == 0
    card = tmp_path / "card.nhex"
    card.write_text(Path("tests/data/notation-crossfire.nhex").read_text().replace("place outpost:commando c2 SW",
                                                                       "place outpost:commando c1 SW"))
    assert main(["check", str(card)]) == 1
    assert "illegal: a tile goes on an empty hex" in capsys.readouterr().out


@pytest.mark.parametrize("rules", ["rules 2.0\n", "rules 3.0 tie-break=no\n"])
def test_equal_health_after_the_final_battle_is_a_draw_without_the_tie_break(rules):
    """RULINGS 29: under rules 2.0 (2E VICTORY) or with tie-break=no (PL ZWYCIESTWO) equal HQ health after the
    Final Battle ends the game in a draw, with no tie-break turns (NOTATION §10.6, option tie-break)."""
    text = ENDGAME.replace("hp=12", "hp=10").replace("deck outpost 1", rules + "deck outpost 1") + (
        "1. outpost: draw commando\n2. moloch: draw hybrid guard; place guard e1 S\n")
    state = legal(text).state
    assert state.result == "draw" and state.tie_break_last is None and state.battles == 1
