"""Terminal pictures: the board keeps the table's layout, every tile draws, cards and records show what they say."""

from __future__ import annotations

import io
import re
from pathlib import Path

import pytest
from rich.console import Console

from solver.hexes import DIRECTIONS, EXTENDED, STANDARD, Board, Hex
from solver.notation.text import load, parse
from solver.position import Position, Unit
from solver.render.terminal import (ARMY_COLOURS, edge_mark, render_board, render_document, render_tiles,
                                    short_name)
from solver.tiles import Kind, armies, tile

HERE = Path(__file__).parent
NOTATION_MD = HERE.parent / "docs" / "NOTATION.md"  # the notation reference, in the checkout


def text_of(renderable, width: int = 120) -> str:
    console = Console(record=True, width=width, file=io.StringIO())
    console.print(renderable)
    return console.export_text()


def positions_of_labels(picture: str, labels: list[str]) -> dict[str, tuple[int, int]]:
    """(line, column) of each label in a picture, each label found exactly once."""
    found = {}
    for number, line in enumerate(picture.splitlines()):
        for match in re.finditer(r"(?<![\w(,-])([a-e][1-9])(?![\w)])", line):
            assert match.group(1) not in found, f"{match.group(1)} drawn twice"
            found[match.group(1)] = (number, match.start())
    assert sorted(found) == sorted(labels)
    return found


def sign(x: int) -> int:
    return (x > 0) - (x < 0)


# --- the board ---------------------------------------------------------------------------------------------


def test_the_empty_board_is_laid_out_like_the_notation_diagram():
    diagram = re.search(r"```\n(\s+c1\n.*?)```", NOTATION_MD.read_text(encoding="utf-8"), re.S).group(1)
    labels = [h.label for h in STANDARD]
    expected = positions_of_labels(diagram, labels)
    drawn = positions_of_labels(text_of(render_board(Position())), labels)
    for a in labels:
        for b in labels:
            # Same row in the diagram <=> same row drawn; above/below and left/right are kept.
            assert sign(drawn[a][0] - drawn[b][0]) == sign(expected[a][0] - expected[b][0]), (a, b)
            assert sign(drawn[a][1] - drawn[b][1]) == sign(expected[a][1] - expected[b][1]), (a, b)


def test_one_hex_picture():
    picture = text_of(render_board(parse("board custom (0,0)\nc3 moloch:juggernaut NE wounds=1\n")))
    assert picture.splitlines() == [
        "   ___________",
        "  /           \\",
        " /#    c3   M2#\\",
        "/    Juggrn     \\",
        "\\    ↗NE w1     /",
        " \\      #    R1/",
        "  \\___________/",
    ]


def test_an_hq_shows_its_health_and_links_on_all_six_sides():
    picture = text_of(render_board(parse("board custom (0,0)\nc3 outpost:hq hp=7\n")))
    assert "hp 7" in picture
    assert picture.count("M1+") == 6


def test_an_extended_board_draws_all_37_hexes():
    picture = text_of(render_board(parse("board extended\n")))
    assert all(h.label in picture for h in EXTENDED)
    assert "(0,-3)" in picture and "(-3,3)" in picture


def test_a_custom_board_draws_only_its_hexes_and_a_far_flung_one_is_described():
    picture = text_of(render_board(parse("board custom (0,0) (1,0)\n")))
    assert "c3" in picture and "d3" in picture and "c2" not in picture
    far = text_of(render_board(parse("board custom (0,0) (90,0)\n")))
    assert "too wide to draw" in far


def test_a_foundation_shows_under_the_unit_and_alone():
    picture = text_of(render_board(parse("c3 vegas:hq\nc4 vegas:mine\nc4 vegas:guardian S\nc2 vegas:mine\n")))
    assert "mine" in picture and "Mine" in picture


@pytest.mark.parametrize("army", list(armies().values()), ids=lambda a: a.name)
def test_every_board_tile_draws_in_every_facing(army):
    board = Board.custom([Hex(0, 0)])
    for t in army.tiles:
        if not (t.is_unit or t.kind is Kind.FOUNDATION):
            continue
        for facing in DIRECTIONS:
            unit = Unit(Hex(0, 0), t, facing)
            position = Position((unit,) if t.is_unit else (), board, foundations=() if t.is_unit else (unit,))
            assert short_name(t) in text_of(render_board(position)), (t, facing)


# --- names and marks -----------------------------------------------------------------------------------------


@pytest.mark.parametrize("army", list(armies().values()), ids=lambda a: a.name)
def test_short_names_are_distinct_within_an_army_and_fit_a_hex(army):
    names = [short_name(t) for t in army.tiles]
    assert len(set(names)) == len(names)
    assert all(re.fullmatch(r"[A-Za-z0-9]{2,6}", n) for n in names), names


def test_short_names_read_like_their_tiles():
    assert [short_name(tile(k)) for k in ("moloch:hunter-killer", "moloch:blocker", "hegemony:officer-1",
                                          "smart:golem-mk3", "borgo:assassin", "moloch:hq")] == [
        "HunKil", "Blockr", "Offcr1", "GolMk3", "Assass", "HQ"]


def test_every_edge_mark_is_short_plain_ascii():
    for army in armies().values():
        for t in army.tiles:
            for e in t.edges or ():
                mark = edge_mark(e)
                assert len(mark) <= 4 and mark.isascii(), (t, mark)


def test_each_army_has_its_own_colour():
    assert set(ARMY_COLOURS) == set(armies())
    assert len(set(ARMY_COLOURS.values())) == len(ARMY_COLOURS)


# --- documents ------------------------------------------------------------------------------------------------


def test_a_puzzle_card_shows_what_the_card_says_but_not_its_solution():
    picture = text_of(render_document(load(str(HERE / "data" / "notation-crossfire.nhex"))))
    for words in ("Puzzle 1 · Crossfire", "level 1", "player outpost", "play 2 of 3", "goal win",
                  "then final battle", "The Outpost HQ is down to 3 health", "commando", "scout", "move",
                  "moloch HQ 4", "outpost HQ 3", "Blockr"):
        assert words in picture, words
    assert "c2 SW" not in picture


def test_a_game_record_lists_its_numbered_turns():
    game = parse("game\nplayers outpost moloch\n1. outpost: hq c3\n2. moloch: hq c2\nexpect hp moloch 20\n"
                 "3. outpost: draw medic; place medic b3 N\n")
    picture = text_of(render_document(game))
    assert "players outpost · moloch" in picture
    assert "  1. outpost: hq c3" in picture
    assert "  3. outpost: draw medic; place medic b3 N" in picture
    assert "expect moloch HQ 20" in picture


def test_a_position_shows_whose_move_hands_decks_and_rules():
    picture = text_of(render_document(parse(
        "rules 2.0\nc3 moloch:hq hp=9\nhand moloch battle\ndeck moloch 4\nto-move moloch\n")))
    for words in ("moloch HQ 9", "to move moloch", "hand of moloch battle", "deck moloch 4 tiles", "rules 2.0"):
        assert words in picture, words


def test_the_legend_names_only_the_marks_on_the_board():
    picture = text_of(render_document(parse("c3 moloch:blocker\n")))
    assert "# armor" in picture and "melee" not in picture


@pytest.mark.parametrize("army", list(armies().values()), ids=lambda a: a.name)
def test_the_tiles_table_has_a_row_per_tile(army):
    picture = text_of(render_tiles(army))
    assert f"{army.size} tiles" in picture
    assert all(re.search(rf"^ {re.escape(t.name)}\b", picture, re.M) for t in army.tiles)


def test_a_unit_on_an_outer_hex_keeps_its_coordinates_between_its_marks():
    picture = text_of(render_board(parse("board extended\n(0,-3) moloch:hq\n")))
    assert "M1+ 0,-3  M1+" in picture


def test_a_netted_unit_is_marked_and_the_legend_says_so():
    picture = text_of(render_document(parse("c3 hegemony:hq\nc2 moloch:hq\nb2 hegemony:net-fighter N\n")))
    assert "~HQ~" in picture and "~Name~ netted" in picture
    assert "~NetFig~" not in picture
