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
    assert "~MOL:HQ~" in picture and "~Name~ netted" in picture  # without colour, with its army's tag
    assert "~NetFig~" not in picture


# --- issue 26: every piece of the position, drawn; armies told apart without colour; a finished game's winner ------

CARDS = HERE.parent / "puzzles"


def _card_picture(number: int, width: int = 80) -> str:
    (path,) = CARDS.glob(f"{number:02d}-*.nhex")
    return text_of(render_document(load(str(path))), width)


def _hex_text(picture: str, label: str) -> str:
    """The lines of the picture from the row of ``label`` down to the status row, cut to the label's hex (the
    15 columns round it)."""
    lines = picture.splitlines()
    for number, line in enumerate(lines):
        match = re.search(rf"(?<![\w(,-]){label}(?![\w)])", line)
        if match:
            column = match.start()
            return "\n".join(row[max(0, column - 7):column + 9] for row in lines[number - 1:number + 3])
    raise AssertionError(f"{label} not drawn")


def test_venom_on_an_hq_is_drawn_beside_its_health():
    """Issue 26 (card 23, B13 VENOM ISSUES: "A Medic can take the venom damage"): the Moloch HQ's `venom=1` was in
    the legend ("v venom") but not on the board, which showed only "hp 2"."""
    picture = _card_picture(23)
    assert "hp 2 v1" in _hex_text(picture, "a1")
    assert "v venom" in picture


def test_the_duel_boards_terminals_and_energy_are_shown():
    """Issue 26 (cards 25 and 26, NOTATION §10.2; the key is a Laser between two Cells): each Terminal is marked on
    the board, an empty one by the word and one under a unit in its status row, and the Terminals and the Energy
    are listed under the board."""
    picture = _card_picture(26)
    assert "Terminal" in _hex_text(picture, "e1")  # empty
    assert "term" in _hex_text(picture, "b2")  # the Hybrid stands on one: a Cell
    assert "term" not in _hex_text(picture, "d3")
    assert "Duel board Terminals a1 b2 b3 c2 c5 e1 e3 · Energy moloch 3" in picture
    assert "term on a Terminal" in picture


def test_babel_13_terrain_is_drawn_on_the_board_and_listed_under_it():
    """Issue 26 (card 27, B13 FOREST, THICK; ROCK; HOLE): the card picture drew the terrain, `nhex show` did not."""
    picture = _card_picture(27)
    assert "rock" in _hex_text(picture, "b1") and "closed" in _hex_text(picture, "b1")
    assert "hole" in _hex_text(picture, "d1") and "fatal" in _hex_text(picture, "d1")
    assert "fore" in _hex_text(picture, "c1")  # under the Moloch HQ, in its status row
    assert "terrain b1 rock (high, closed) · c1 c2 forest (thick) · d1 hole (fatal)" in picture
    assert "terrain" not in _card_picture(23)


def test_without_colour_each_unit_carries_its_armys_tag():
    """Issue 26: piped or under NO_COLOR, the two HQs of card 18 were both "HQ" and the two Gangers and the Medic
    could be anybody's. Each unit's name carries its army's tag (the neutral Mad Bomber: NTR), and the key says
    which army each tag is; on a colour terminal the names stand alone."""
    picture = _card_picture(18)
    for label, name in (("c2", "MOL:HQ"), ("a3", "HEG:HQ"), ("c3", "~HEG:Ganger~"), ("e3", "MOL:Medic"),
                        ("d4", "NTR:MadBom")):
        assert name in _hex_text(picture, label), label
    assert "hegemony (HEG)" in picture and "moloch (MOL)" in picture and "neutral (NTR)" in picture
    coloured = Console(record=True, width=120, file=io.StringIO(), force_terminal=True, color_system="truecolor")
    coloured.print(render_document(load(str(next(CARDS.glob("18-*.nhex"))))))
    text = coloured.export_text()
    assert "MOL:" not in text and " HQ " in text
    no_color = Console(record=True, width=120, file=io.StringIO(), force_terminal=True, no_color=True)  # NO_COLOR
    no_color.print(render_document(load(str(next(CARDS.glob("18-*.nhex"))))))
    assert "MOL:HQ" in no_color.export_text()


def test_no_color_and_a_pipe_tell_the_armies_apart_from_the_command_line():
    from cli_helpers import nhex

    piped = nhex("show", "puzzles/01-point-blank.nhex")
    assert "BOR:HQ" in piped.stdout and "MOL:HQ" in piped.stdout


def test_a_finished_game_says_who_won_not_whose_move_it_is():
    """Issue 26: `nhex show` of a finished record said "to move moloch/a" under the board after the Final Battle.
    It says who won (3E VICTORY), and a shared victory names every winner."""
    from cli_helpers import nhex

    games = HERE / "data" / "games"
    shown = nhex("show", str(games / "moloch-mirror.nhex")).stdout
    board = shown[shown.index("The board after turn"):]
    assert "game over: moloch/b wins" in board and "to move" not in board
    team = nhex("show", str(games / "mirror-team-match.nhex")).stdout
    assert "game over: vegas/x and vegas/y win" in team
    going = nhex("show", "--turn", "10", str(games / "moloch-mirror.nhex")).stdout
    assert "game over" not in going[going.index("The board after turn"):] and "to move" in going


# --- issue 26: at 80 columns no name a user types is cut -----------------------------------------------------------


def _words_at(width: int, renderable) -> set[str]:
    return set(text_of(renderable, width).split())


def test_nhex_rules_at_80_columns_prints_every_option_name_whole():
    """Issue 26: `COLUMNS=80 nhex rules | cat` cut 21 of the 36 option names ("clown-may-ex…"). Each option is a
    block headed by its whole name; the readings wrap, indented, with no line over 80 columns."""
    import os
    import subprocess
    import sys

    from solver.rules import OPTIONS

    done = subprocess.run([sys.executable, "-m", "solver", "rules"], cwd=HERE.parent, capture_output=True, text=True,
                          env={**os.environ, "COLUMNS": "80"}, timeout=60)
    lines = done.stdout.splitlines()
    assert max(len(line) for line in lines) <= 80
    heads = {line.split()[0] for line in lines if line and not line.startswith(" ")}
    assert {o.name for o in OPTIONS} <= heads
    assert not any(line.endswith(" ") for line in lines)
    assert "…" not in done.stdout and done.returncode == 0


@pytest.mark.parametrize("army", sorted(armies()))
def test_nhex_tiles_at_80_columns_prints_every_tile_name_and_alias_whole(army):
    """Issue 26: `nhex tiles doomsday` at 80 columns cut tile names ("doom-net-fight…"); names and aliases are what
    a user types in a position file."""
    words = _words_at(80, render_tiles(armies()[army]))
    for t in armies()[army].tiles:
        assert t.name in words and set(t.aliases) <= words, t.key
    assert "…" not in text_of(render_tiles(armies()[army]), 80)


def test_a_listing_of_cards_never_cuts_a_file_name_or_a_keys_word():
    """Issue 26: `solve-all` and `generate` folded file names and keys ("01-point-blank.n / hex"). Where the table
    fits it is a table; where it cannot fit without cutting (80 columns, long names), each card is a block."""
    from solver.render.listing import Column, Listing

    listing = Listing("2 cards", (Column("card", "name"), Column("verdict"), Column("key", "key"),
                                  Column("plays", "number")),
                      (("doomsday-vs-new-york-level2-h16-0-0.nhex", "SOUND",
                        "move c5 c5 N by hq; place doomsday:gamma-shooter c4 SE", "2042"),
                       ("01-point-blank.nhex", "SOUND", "place borgo:brawler c2 N", "187")), "2 sound")
    for width in (60, 80, 140):
        picture = text_of(listing, width)
        assert max(len(line.rstrip()) for line in picture.splitlines()) <= width
        words = picture.split()
        for word in ("doomsday-vs-new-york-level2-h16-0-0.nhex", "01-point-blank.nhex", "doomsday:gamma-shooter",
                     "borgo:brawler", "SOUND", "2042"):
            assert word in words, (width, word)
    assert "plays" in text_of(listing, 140).splitlines()[2]  # wide: the table's header
    assert "2042 plays" in text_of(listing, 80)  # narrow: a block, each figure named


def test_prize_markers_held_are_listed_under_the_board():
    """B13 PRIZE MARKERS (card 28: "You hold one Prize marker from the Warehouse"): the card picture named the held
    marker, the terminal did not; the terrain list breaks between its elements."""
    picture = _card_picture(28)
    assert "prizes held by hegemony: enhanced-hit" in picture
    assert "\n        e1 water (swamp)" in picture  # the line broken between entries, indented


def test_a_listing_block_names_each_figure_in_the_singular_after_one():
    from solver.render.listing import Column, Listing

    listing = Listing("1 new card", (Column("file", "name"), Column("near misses", "number"),
                                     Column("drafts", "number")),
                      (("hegemony-vs-outpost-level1-cli-0-0-with-a-long-name-to-force-blocks.nhex", "1", "12"),))
    picture = text_of(listing, 60)
    assert "1 near miss · 12 drafts" in picture
