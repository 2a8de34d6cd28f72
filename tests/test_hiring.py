"""Mercenaries and the Mad Bomber in game records (issue 13): who hires which tile, the draw a hire takes, and the
Bomber's way back onto a player's draw pile.

2E = ../shared/rules/rulebook-en-2nd-edition.txt, SPECIAL EXPANSION: 4 MERCENARIES FROM ALABAMA (RULES; Mad Bomber
as non player character; Mad Bomber as a mercenary); RULINGS 56-57; NOTATION §7, §10.4. The module: solver/turns/hiring.py.
"""

from __future__ import annotations

import json
import subprocess
import sys
from dataclasses import replace
from pathlib import Path

import pytest

from solver.turns import game, hiring
from solver.notation import text as notation
from solver.errors import IllegalAction
from solver.position import Draw
from solver.tiles import tile

ROOT = Path(__file__).parent.parent
GAMES = Path(__file__).parent / "data" / "games"
BOMBER = tile("mercenary:mad-bomber")


def checked(text: str) -> game.CheckReport:
    return game.check(notation.parse(text, "<test>"))


def legal(text: str) -> game.GameState:
    report = checked(text)
    assert report.ok, report.fault("<test>")
    return report.state


def piles(state: game.GameState) -> dict:
    """The tiles lying on top of each pile, to be drawn first."""
    return {army: tiles for army, tiles in state.on_top if tiles}


# A start after the HQs: the Outpost's Heavy Machine Gun on c4 shoots N, at the middle hex.
SHOOTER = "a1 outpost:hq\ne3 moloch:hq\nc4 outpost:hmg N\n"


# --- hiring (2E RULES) -----------------------------------------------------------------------------------------------


def test_a_hire_is_one_of_the_draws_tiles_and_leaves_the_deck_as_it_was():
    """2E RULES: "Each mercenary tile can be drawn once per game during any tile-drawing, instead of a normal army
    tile"; "Mercenary, when played, belongs to one's army". The Outpost's opening draw (1 tile, 3E GAME SEQUENCE)
    is the Bomber (option mad-bomber=mercenary): its deck keeps 34 tiles and the placed Bomber is the Outpost's."""
    state = legal("game\nplayers outpost moloch\nrules 3.0 mad-bomber=mercenary\n1. outpost: hq c3\n2. moloch: hq a1\n"
                  "3. outpost: draw mercenary:mad-bomber; place mercenary:mad-bomber b3 N\n")
    assert state.position.deck("outpost") == 34
    assert state.hired == (("outpost", (BOMBER,)),)
    placed = [u for u in state.position.units if u.tile == BOMBER]
    assert [(u.owner, u.hex.label) for u in placed] == [("outpost", "b3")]


def test_each_mercenary_tile_is_hired_once_per_game():
    """2E RULES: "Each mercenary tile can be drawn once per game": the Outpost holds the Bomber, so Moloch cannot
    hire him too."""
    report = checked("game\nplayers outpost moloch\nrules 3.0 mad-bomber=mercenary\n1. outpost: hq c3\n2. moloch: hq a1\n"
                     "3. outpost: draw mercenary:mad-bomber\n"
                     "4. moloch: draw mercenary:mad-bomber moloch:hybrid\n")
    assert report.verdict == "illegal" and report.line == 7
    assert report.problem.startswith(hiring.ONCE)


def test_the_neutral_bomber_is_not_hired():
    """2E, Mad Bomber as non player character: he "doesn't belong to any army" (option mad-bomber=npc, the default):
    a player gets him only from the top of a pile."""
    report = checked("game\nplayers outpost moloch\n1. outpost: hq c3\n2. moloch: hq a1\n"
                     "3. outpost: draw mercenary:mad-bomber\n")
    assert report.verdict == "illegal" and report.problem == hiring.NPC_NOT_HIRED


@pytest.mark.parametrize("players, most", [(("outpost", "moloch"), 2), (("outpost", "moloch", "borgo"), 1)])
def test_how_many_mercenaries_a_player_hires(players, most):
    """2E RULES: "In 2 player game each player gets one or two mercenary tiles ... In 3 or 4 player game every
    player chooses one mercenary tile." Only the Bomber has data (tiles README, Open doubts 1); the rule works for
    any tile given as data, here made-up copies of him under other names."""
    others = [replace(BOMBER, name=f"hired-{i}") for i in range(3)]
    record = notation.parse("game\nplayers " + " ".join(players) + "\nrules 3.0 mad-bomber=mercenary\n"
                            "a1 outpost:hq\ne3 moloch:hq\n" + ("c1 borgo:hq\n" if len(players) == 3 else ""))
    state = replace(game.start(record), hired=(("outpost", tuple(others[:most])),))
    after = game.actions.apply(state.position, Draw((others[most],)), "outpost")
    with pytest.raises(IllegalAction) as refused:
        hiring.drawn(state, Draw((others[most],)), "outpost", after)
    assert refused.value.rule == (hiring.HIRES_TWO if most == 2 else hiring.HIRES_ONE)


# --- the Mad Bomber's way back (2E, Mad Bomber as non player character) ----------------------------------------------


def test_before_the_hqs_the_bomber_stands_in_the_middle(tmp_path):
    """2E: "In the beginning of the game, before placing HQs, players should place Mad Bomber in the middle of the
    board." A record starting with him elsewhere is bad input (exit 2, located)."""
    with pytest.raises(ValueError, match="middle of the board"):
        game.start(notation.parse("game\nplayers outpost moloch\nb2 mercenary:mad-bomber\n"))
    assert legal("game\nplayers outpost moloch\nc3 mercenary:mad-bomber\n1. outpost: hq a1\n").position.hq("outpost")
    path = tmp_path / "b.nhex"
    path.write_text("game\nplayers outpost moloch\nb2 mercenary:mad-bomber\n1. outpost: hq a1\n")
    done = subprocess.run([sys.executable, "-m", "solver", "check", str(path)], cwd=ROOT, capture_output=True,
                          text=True, timeout=120)
    assert done.returncode == 2 and "middle of the board" in done.stderr and "Traceback" not in done.stderr


SET_OFF = "game\nplayers outpost moloch\nc3 mercenary:mad-bomber\n" + SHOOTER + (
    "1. outpost: draw outpost:battle outpost:move outpost:scout; discard outpost:scout; use outpost:battle\n")


def test_set_off_in_a_battle_he_goes_on_top_of_the_next_players_pile():
    """2E: "After an explosion, Mad Bomber goes on top of the next player's unused pile of tiles - this tile will
    then be drawn in the next round." The Outpost's Heavy Machine Gun sets him off: Moloch's pile grows by him."""
    state = legal(SET_OFF)
    assert piles(state) == {"moloch": (BOMBER,)}
    assert state.position.deck("moloch") == 35
    assert any("set off by outpost in the battle, goes on top of moloch's pile" in line for line in state.history)


def test_the_bomber_on_top_is_drawn_first():
    """2E: "this tile will then be drawn in the next round": Moloch's draw must start with him (as the Smart
    Bio-droid's, RULINGS 24); he leaves the pile's count with him."""
    report = checked(SET_OFF + "2. moloch: draw moloch:hybrid moloch:blocker\n")
    assert report.verdict == "illegal" and report.problem == game.DRAWN_FIRST
    state = legal(SET_OFF + "2. moloch: draw mercenary:mad-bomber moloch:hybrid\n")
    assert state.position.deck("moloch") == 33 and BOMBER in state.position.hand("moloch")
    assert state.hired == ()  # drawn off the pile, not hired


def test_a_discarded_bomber_goes_to_the_next_player():
    """2E: "If discarded, Mad Bomber returns to the game just as if he had exploded (he goes to the next player in
    turn order)": Moloch discards him and the Outpost's pile gets him."""
    state = legal(SET_OFF + "2. moloch: draw mercenary:mad-bomber moloch:hybrid; discard mercenary:mad-bomber\n")
    assert piles(state) == {"outpost": (BOMBER,)} and BOMBER not in state.position.hand("moloch")
    assert state.position.deck("outpost") == 31  # 34 - the HMG on the board - 3 drawn + the Bomber


@pytest.mark.parametrize("right, pile", [("next", "moloch"), ("previous", "borgo")])
def test_with_three_players_he_goes_to_the_player_to_the_right(right, pile):
    """2E: "In a multi-player game, Mad Bomber goes to the player to the right of the player who detonated Mad
    Bomber." The books never say which way the turns pass: option bomber-right, by default the next player in
    turn order (the sentence on discarding says "the next player in turn order")."""
    state = legal(f"game\nplayers outpost moloch borgo\nrules 3.0 bomber-right={right}\nc3 mercenary:mad-bomber\n"
                  + SHOOTER + "c1 borgo:hq\n" + SET_OFF.splitlines()[-1] + "\n")
    assert piles(state) == {pile: (BOMBER,)}


@pytest.mark.parametrize("fate", ["returns", "discarded"])
def test_where_the_hired_bomber_goes_is_a_rule_option(fate):
    """RULINGS 57: where the hired Bomber goes is unsettled. 2E, Mad Bomber as a mercenary: "Most of the rules
    given above are still valid" (he returns, the default) or "Mercenary, when played, belongs to one's army just
    as any other tile" (his owner's discard pile): option hired-bomber. His blast wounds only the owner's enemies,
    HQs included."""
    text = SET_OFF.replace("c3 mercenary:mad-bomber", "c3 mercenary:mad-bomber owner=moloch")
    state = legal(text.replace("players outpost moloch\n", f"players outpost moloch\nrules 3.0 mad-bomber=mercenary "
                                                          f"hired-bomber={fate}\n"))
    if fate == "returns":
        assert piles(state) == {"moloch": (BOMBER,)}
    else:
        assert state.on_top == () and BOMBER in state.discard_pile("moloch")
    assert state.hired == (("moloch", (BOMBER,)),)  # his owner= in the start position shows the hire


# --- whole records, end to end --------------------------------------------------------------------------------------


def test_the_hired_bomber_record_replays_end_to_end():
    """tests/data/games/mad-bomber-hired.nhex (made by playing legal moves through the engine): a hire, three
    explosions and a discard, each return drawn first; `nhex check --json` (NOTATION §9)."""
    done = subprocess.run([sys.executable, "-m", "solver", "check", "--json", str(GAMES / "mad-bomber-hired.nhex")],
                          cwd=ROOT, capture_output=True, text=True, timeout=120)
    assert done.returncode == 0, done.stderr
    data = json.loads(done.stdout)
    assert data["verdict"] == "legal" and data["winners"] == ["moloch"] and data["hq"] == {"outpost": 15, "moloch": 19}
    assert data["hired"] == {"outpost": ["mercenary:mad-bomber"]}
    state = game.check(notation.parse((GAMES / "mad-bomber-hired.nhex").read_text())).state
    returns = [line for line in state.history if "Mad Bomber" in line]
    assert returns[0].startswith("turn 4: the Mad Bomber, set off by moloch in the battle, goes on top of outpost's")
    assert any(line.startswith("turn 25: the Mad Bomber, discarded by outpost, goes on top of moloch's") for line in returns)


def test_the_three_player_bomber_record_replays_end_to_end():
    """tests/data/games/mad-bomber-three-players.nhex: an instant sets him off (RULINGS 56), he goes round the
    table, and "If Mad Bomber gets hit from several players at the same time ... he is removed from the game"."""
    state = game.check(notation.parse((GAMES / "mad-bomber-three-players.nhex").read_text())).state
    assert state.winners == ("borgo",)
    assert "turn 5: the Mad Bomber, set off by moloch's moloch:air-strike, goes on top of borgo's pile" in state.history[0]
    assert any("hit by moloch and outpost in one phase and leaves the game" in line for line in state.history)
    assert state.gone == (BOMBER,)


def test_a_fallen_armys_hired_bomber_leaves_the_game_with_its_units():
    """3E THE MULTIPLAYER MODE, HQ DESTROYED: "its tile is removed from the board together with all its Unit tiles":
    the Bomber the fallen army hired (option mad-bomber=mercenary) goes with them, unhit, out of the game."""
    state = legal("game\nplayers outpost moloch borgo\nrules 3.0 mad-bomber=mercenary\n"
                  "a1 outpost:hq\ne3 moloch:hq hp=1\nc1 borgo:hq\nd4 outpost:hmg NE\nb4 mercenary:mad-bomber owner=moloch\n"
                  "1. outpost: draw outpost:battle outpost:move outpost:scout; discard outpost:scout; use outpost:battle\n")
    assert "moloch" in state.out and state.gone == (BOMBER,) and piles(state) == {}
    assert not any(u.tile == BOMBER for u in state.position.units)
