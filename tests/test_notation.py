"""The notation (docs/NOTATION.md): every example reads, every value writes back canonically, and every
mistake is reported as ``FILE:LINE:COLUMN: message``."""

from __future__ import annotations

import re
import sys
from pathlib import Path

import pytest

from solver.notation import cards
from solver.notation.cards import GameRecord, Puzzle
from solver.errors import NotationError
from solver.hexes import EXTENDED, Direction, Hex
from solver.notation.text import load, parse, parse_action, parse_position, parse_unit, write
from solver.position import Discard, Draw, Move, Place, PlaceHQ, Position, ProblemKind, Unit, Use
from solver.tiles import tile

HERE = Path(__file__).parent
# The project's own notation reference (the v1.1 contract and nhex's extensions): in the checkout, so that a fresh
# clone runs every test.
NOTATION_MD = HERE.parent / "docs" / "NOTATION.md"
MALFORMED = sorted((HERE / "malformed").glob("*.nhex"))
_LABEL = re.compile(r"^[a-e][1-9]$")


def notation_examples() -> list[str]:
    """The ```-blocks of NOTATION.md written in the notation: not the JSON, not the board diagram."""
    blocks = re.findall(r"```(\w*)\n(.*?)```", NOTATION_MD.read_text(encoding="utf-8"), re.S)
    return [body for language, body in blocks
            if language != "json" and not all(_LABEL.match(word) for word in body.split())]


_ACTION_VERBS = {"discard", "place", "use", "move", "hq", "draw", "pass", "procedure", "push", "prize"}


def read_example(text: str, source: str = "NOTATION.md example"):
    """One example block of NOTATION.md as a document.

    Most blocks are whole files. Some §10 blocks are fragments that show a few lines as they stand in a file:
    position statements beside a record's turn lines (§10.2, §10.7) or beside loose action lines (§10.3: "a
    record's turn line, a card's solution, `nhex moves`"). Such a fragment is read as the game record it is cut
    from: `game`, `players` (the armies of its turn lines, else of its units), its position lines, its turn and
    expect lines, and its loose actions as one turn of the first player.
    """
    lines = [line.split("#")[0].strip() for line in text.splitlines()]
    lines = [line for line in lines if line]
    words = [line.split()[0].lower() for line in lines]
    turns = [line for line in lines if re.match(r"^\d+\.", line)]
    loose = [line for line, word in zip(lines, words) if word in _ACTION_VERBS
             or (word == "energy" and line.split()[1].lower() in ("tile", "hq"))]
    expects = [line for line, word in zip(lines, words) if word == "expect"]
    if not lines or words[0] in ("puzzle", "game") or not (turns or loose or expects):
        return parse(text, source)
    armies = [re.match(r"^\d+\.\s*([\w-]+)", t).group(1) for t in turns]
    armies += [w.split(":")[0] for line in lines if not line.startswith(("expect", *_ACTION_VERBS))
               for w in line.split()[1:2] if ":" in w]
    players = list(dict.fromkeys(armies))
    players += [a for a in ("moloch", "outpost") if a not in players][: max(0, 2 - len(players))]
    statements = [line for line in lines if line not in turns and line not in loose and line not in expects]
    record = ["game", "players " + " ".join(players), *statements]
    # A fragment's turns are cut from the middle of a game: they are renumbered from 1, as a record numbers them.
    renumbered = iter(range(1, len(turns) + 1))
    record += [re.sub(r"^\d+\.", lambda _: f"{next(renumbered)}.", line) if line in turns else line
               for line in lines if line in turns or line in expects]
    if loose:
        record.append(f"{len(turns) + 1}. {players[0]}: " + "; ".join(loose))
    return parse("\n".join(record) + "\n", source)


# --- the examples of NOTATION.md -----------------------------------------------------------------------------


def test_notation_md_has_a_position_a_puzzle_and_a_game_example():
    kinds = {type(read_example(example)) for example in notation_examples()}
    assert kinds == {Position, Puzzle, GameRecord}


@pytest.mark.parametrize("example", notation_examples(), ids=lambda text: text.strip().splitlines()[0][:30])
def test_every_notation_example_reads_and_writes_back_in_canonical_form(example):
    document = read_example(example)
    canonical = write(document)
    assert parse(canonical) == document
    assert write(parse(canonical)) == canonical  # fmt is idempotent


def test_the_position_example_reads_as_written():
    position = parse_position(notation_examples()[0])
    assert str(position.unit_at(Hex.parse("b2"))) == "b2 moloch:blocker NE wounds=1"
    assert position.hq("outpost").hp == 7 and position.hq("moloch").hp == 5
    assert position.to_move == "outpost"  # the first army named


def test_the_game_example_names_bare_tiles_by_the_acting_army():
    game = next(d for d in map(parse, notation_examples()) if isinstance(d, GameRecord))
    assert game.players == ("outpost", "moloch")
    fourth = game.entries[3]
    assert fourth.army == "moloch"
    assert fourth.actions == (Draw((tile("moloch:move"), tile("moloch:officer"))),
                              Use(tile("moloch:move"), (Hex.parse("c2"), Hex.parse("d2")), Direction.S),
                              Place(tile("moloch:officer"), Hex.parse("c1"), Direction.S))


def test_the_bundled_puzzle_card_is_the_notation_example():
    puzzle = load(str(HERE / "data" / "notation-crossfire.nhex"))
    assert isinstance(puzzle, Puzzle)
    assert (puzzle.number, puzzle.title, puzzle.player, puzzle.tiles_to_play) == (1, "Crossfire", "outpost", 2)
    assert puzzle.solution == (Place(tile("outpost:commando"), Hex.parse("c2"), Direction.SW),)


# --- the canonical form (NOTATION §1, §5) ---------------------------------------------------------------------


def test_the_writer_uses_lower_case_kebab_names_upper_case_directions_and_writes_every_facing():
    position = parse("C3 Outpost:HQ HP=7\nb2 MOLOCH:gauss_cannon sw\nd2 Moloch:Blocker\n")
    assert write(position) == ("to-move outpost\nb2 moloch:gauss-cannon SW\nc3 outpost:hq N hp=7\n"
                               "d2 moloch:blocker N\n")


def test_aliases_are_read_and_written_as_the_database_name():
    assert str(parse_unit("c3 moloch:dzialko-gaussa se")) == "c3 moloch:gauss-cannon SE"


def test_comments_blank_lines_indentation_and_crlf_carry_no_meaning():
    plain = parse("c3 moloch:hq\nc2 outpost:hq\n")
    noisy = parse("# a comment\r\n\r\n   c3 moloch:hq   # the HQ\r\n# between\r\n\r\n\tc2 outpost:hq\r\n# end")
    assert noisy == plain


def test_a_file_may_end_without_a_newline_and_may_be_empty():
    assert parse("c3 moloch:hq") == parse("c3 moloch:hq\n")
    assert parse("") == Position()


def test_units_are_ordered_so_equal_positions_are_equal():
    assert parse("c3 moloch:hq\nb2 outpost:hq\nto-move moloch") == parse("b2 outpost:hq\nto-move moloch\nc3 moloch:hq")


def test_defaults_facing_north_hq_health_twenty_standard_board():
    position = parse("c3 moloch:hq\nb2 moloch:blocker\n")
    assert position.unit_at(Hex.parse("b2")).facing is Direction.N
    assert position.hq("moloch").hp == 20
    assert position.board.shape == "standard"


def test_hexes_may_be_written_as_axial_coordinates():
    assert parse("(0,0) moloch:hq") == parse("c3 moloch:hq")
    assert str(parse_unit("c3 moloch:hq")) == "c3 moloch:hq N hp=20"


def test_an_extended_board_names_its_outer_ring_by_coordinates():
    position = parse("board extended\n(0,-3) moloch:hq\n")
    assert position.board == EXTENDED
    assert write(position) == "board extended\nto-move moloch\n(0,-3) moloch:hq N hp=20\n"


def test_a_custom_board_holds_exactly_its_hexes():
    position = parse("board custom (0,0) (1,-1) (5,5)\n(5,5) moloch:hq\n")
    assert len(position.board) == 3
    assert parse(write(position)) == position


def test_foundations_share_a_hex_with_a_unit():
    position = parse("c3 vegas:hq\nc4 vegas:mine\nc4 vegas:guardian S wounds=1\n")
    assert [str(f) for f in position.foundations] == ["c4 vegas:mine N"]
    assert position.unit_at(Hex.parse("c4")).tile is tile("vegas:guardian")


def test_venom_and_prizes_round_trip():
    """NOTATION §4 attributes; prizes are written in the canonical order of §10.3."""
    unit = parse_unit("c3 moloch:blocker NE prize=mobility,first-aid-kit")
    assert (unit.army, unit.prizes) == ("moloch", ("first-aid-kit", "mobility"))
    assert parse_unit(str(unit)) == unit
    assert repr(unit) == "Unit.parse('c3 moloch:blocker NE prize=first-aid-kit,mobility')"
    position = parse("a1 neojungle:hq\nc3 moloch:blocker NE venom=2\n")
    assert position.unit_at(Hex.parse("c3")).venom == 2
    assert parse(write(position)) == position


def test_owner_naming_the_tiles_own_army_is_a_consistency_error():
    """NOTATION §4: `owner=` says who commands a tile "where it differs from its army"; an army's own tile is
    commanded by its army, so naming that army has no meaning (issue 10)."""
    with pytest.raises(NotationError, match=r"^<unit>:1:22: owner= names the army commanding .*: moloch:blocker is "
                                            r"commanded by moloch"):
        parse_unit("c3 moloch:blocker NE owner=moloch")


def test_owner_puts_another_armys_unit_under_a_players_command_and_reads_back():
    """NOTATION §4 ("who commands the tile, where it differs from its army") for the B13 campaign's allied units
    (SCENARIO 2: "the Neojungle player selects 5 Moloch units ... and puts them on the board"): the unit is its
    commander's in every rule (README, extensions)."""
    unit = parse_unit("c3 moloch:blocker NE owner=vegas")
    assert unit.army == "vegas" and unit.tile.army == "moloch"
    assert str(unit) == "c3 moloch:blocker NE owner=vegas"


def test_rules_options_are_read_and_written():
    position = parse("rules 3.0 clown-hits-hq=no\nc3 moloch:hq\n")
    assert position.rules.option("clown-hits-hq") == "no"
    assert write(position).startswith("rules 3.0 clown-hits-hq=no\n")
    assert parse("rules 3.0 clown-hits-hq=yes\n").rules.is_default  # the default is not an override


def test_hands_and_decks():
    position = parse("hand moloch battle air-strike\ndeck moloch 0\ndeck outpost 12\n")
    assert position.hand("moloch") == (tile("moloch:battle"), tile("moloch:air-strike"))
    assert (position.deck("moloch"), position.deck("outpost"), position.deck("borgo")) == (0, 12, None)
    assert "hand moloch moloch:battle moloch:air-strike\n" in write(position)


# --- puzzle cards and goals -----------------------------------------------------------------------------------

_CARD = 'puzzle "Goals"\nplayer outpost\noffer move commando\nc3 outpost:hq\nc1 moloch:hq\n'


def goal_of(text: str) -> cards.Goal:
    return parse(_CARD + f"goal {text}\n").goal


def test_goal_atoms():
    assert goal_of("win") == cards.Win()
    assert goal_of("draw-or-win") == cards.DrawOrWin()
    assert goal_of("survive") == cards.Survive()
    assert goal_of("destroy moloch") == cards.Destroy("moloch")
    assert goal_of("hp outpost >= 3") == cards.HpCompare("outpost", ">=", 3)
    assert goal_of("damage moloch > 2") == cards.HpCompare("moloch", ">", 2, damage=True)
    assert goal_of("alive c3") == cards.Alive(Hex.parse("c3"))
    assert goal_of("dead b2") == cards.Alive(Hex.parse("b2"), alive=False)


def test_not_binds_tighter_than_and_which_binds_tighter_than_or():
    win, survive, destroy = cards.Win(), cards.Survive(), cards.Destroy("moloch")
    assert goal_of("not win and survive or destroy moloch") == cards.Or((cards.And((cards.Not(win), survive)), destroy))
    assert goal_of("not (win or survive)") == cards.Not(cards.Or((win, survive)))


@pytest.mark.parametrize("text", [
    "win and survive and destroy moloch",
    "(win and survive) and destroy moloch",
    "win and (survive and destroy moloch)",
    "(win or survive) or destroy moloch",
    "win or (survive or alive c3)",
    "(win or survive) and not (dead c3 and hp moloch < 4)",
    "not not win",
])
def test_written_goals_keep_their_grouping(text):
    goal = goal_of(text)
    assert goal_of(str(goal)) == goal


def test_a_puzzle_defaults_to_playing_all_offered_tiles_but_one_then_the_final_battle():
    puzzle = parse(_CARD)
    assert puzzle.tiles_to_play == 1 and puzzle.then == "final-battle" and puzzle.goal == cards.Win()
    assert puzzle.position.to_move == "outpost"


def test_a_puzzle_solution_ends_at_the_explanation():
    puzzle = parse(_CARD + 'solution\nuse move c3 c4 S\nplace commando c2 SW\nexplanation "Move, then shoot."\n')
    assert [str(a) for a in puzzle.solution] == ["use outpost:move c3 c4 S", "place outpost:commando c2 SW"]
    assert puzzle.explanation == "Move, then shoot."


def test_strings_escape_quotes_and_backslashes():
    puzzle = parse('puzzle 7 "Say \\"hi\\" \\\\ bye"\nplayer outpost\noffer move\nc3 outpost:hq\n')
    assert puzzle.title == 'Say "hi" \\ bye'
    assert write(puzzle).startswith('puzzle 7 "Say \\"hi\\" \\\\ bye"\n')


# --- actions ---------------------------------------------------------------------------------------------------


@pytest.mark.parametrize("text, army, expected", [
    ("discard move", "outpost", Discard(tile("outpost:move"))),
    ("place commando c2 sw", "outpost", Place(tile("outpost:commando"), Hex.parse("c2"), Direction.SW)),
    ("place commando c2", "outpost", Place(tile("outpost:commando"), Hex.parse("c2"), Direction.N)),
    ("use moloch:push-back c3 c2 b1", "moloch", Use(tile("moloch:push-back"), tuple(map(Hex.parse, ("c3", "c2", "b1"))))),
    ("use sniper c3", "outpost", Use(tile("outpost:sniper"), (Hex.parse("c3"),))),
    ("use rotation c3 NE", "vegas", Use(tile("vegas:rotation"), (Hex.parse("c3"),), Direction.NE)),
    ("use battle", "outpost", Use(tile("outpost:battle"))),
    ("move c3 c4", "outpost", Move(Hex.parse("c3"), Hex.parse("c4"))),
    ("move c3 c3 SE by hq", "smart", Move(Hex.parse("c3"), Hex.parse("c3"), Direction.SE, "hq")),
    ("move c3 c4 by transport", "hegemony", Move(Hex.parse("c3"), Hex.parse("c4"), None, "transport")),
    ("hq c3", "moloch", PlaceHQ(Hex.parse("c3"))),
    ("draw move officer", "moloch", Draw((tile("moloch:move"), tile("moloch:officer")))),
])
def test_actions_read_and_write_back(text, army, expected):
    action = parse_action(text, army)
    assert action == expected
    assert parse_action(str(action), "borgo") == action  # the canonical form names every army


def test_action_errors_are_located():
    with pytest.raises(NotationError, match=r"<action>:1:5: move takes 2 hexes, not 1"):
        parse_action("use move c3", "outpost")
    with pytest.raises(NotationError, match=r"<action>:1:1: expected one action"):
        parse_action("c3 moloch:hq", "moloch")


# --- semantic checks on values built in Python --------------------------------------------------------------


def test_problems_are_named_on_a_position_built_in_python():
    c3 = Hex.parse("c3")
    position = Position((Unit(c3, tile("moloch:hq")), Unit(c3, tile("outpost:hq")),
                         Unit(Hex.parse("b2"), tile("moloch:blocker"), wounds=5)))
    assert {p.kind for p in position.problems()} == {ProblemKind.HEX_TAKEN, ProblemKind.WOUNDS_KILL}


def test_a_sound_position_has_no_problems():
    assert parse("c3 moloch:hq\nb2 moloch:blocker wounds=2\n").problems() == []


# --- malformed files: each gives exactly the error in its first line -------------------------------------------


def test_there_is_a_malformed_file_for_every_check_the_issue_names():
    names = {p.stem for p in MALFORMED}
    assert {"unknown-army", "unknown-tile", "hex-label-off-the-board", "two-units-on-one-hex",
            "facing-not-a-direction", "wounds-already-kill", "more-copies-than-the-army-has",
            "hp-on-a-non-hq"} <= names
    # issue 10, "Consistent reading": each check has its file
    assert {"string-with-an-unknown-escape", "hp-in-arabic-indic-digits", "wounds-in-fullwidth-digits",
            "first-turn-not-1", "turn-numbers-skip", "offered-hq", "play-more-than-offered",
            "to-move-army-not-on-the-board", "goal-destroys-an-army-not-on-the-board", "custom-board-hex-twice",
            "owner-on-an-army-tile", "level-5", "level-0", "player-without-an-hq", "number-of-5000-digits",
            "level-in-other-digits"} <= names


@pytest.mark.parametrize("path", MALFORMED, ids=lambda p: p.stem)
def test_a_malformed_file_gives_its_expected_error(path):
    first_line = path.read_text(encoding="utf-8").splitlines()[0]
    expected = first_line.removeprefix("# expect: ")
    assert expected != first_line, "the first line must be `# expect: LINE:COLUMN: message`"
    with pytest.raises(NotationError) as caught:
        load(str(path))
    assert str(caught.value) == f"{path}:{expected}"


def test_a_missing_file_is_a_notation_error(tmp_path):
    with pytest.raises(NotationError, match="no such file"):
        load(str(tmp_path / "nowhere.nhex"))


def test_a_byte_order_mark_is_not_part_of_the_text(tmp_path):
    path = tmp_path / "bom.nhex"
    path.write_bytes("\ufeffc3 moloch:hq\n".encode("utf-8"))
    assert load(str(path)) == parse("c3 moloch:hq\n")


def test_a_file_that_is_not_utf8_is_a_notation_error(tmp_path):
    path = tmp_path / "latin1.nhex"
    path.write_bytes('puzzle "Caf\xe9"\n'.encode("latin-1"))
    with pytest.raises(NotationError, match=r"latin1.nhex:1:12: the file is not UTF-8 text \(NOTATION §1\)$"):
        load(str(path))


def test_a_goal_nested_beyond_reason_is_a_notation_error():
    # At the interpreter's own recursion limit, as nhex runs: mypy (tests/test_types.py) raises it in-process.
    limit = sys.getrecursionlimit()
    sys.setrecursionlimit(1000)
    try:
        with pytest.raises(NotationError, match="nested too deeply"):
            parse(_CARD + "goal " + "not " * 5000 + "win\n")
    finally:
        sys.setrecursionlimit(limit)


def test_a_turn_may_pass():
    """nhex extension of NOTATION §7: `N. ARMY: pass`, a turn in which nothing happens."""
    from solver.notation.cards import GameRecord
    from solver.position import Pass

    record = parse("game\nplayers outpost moloch\n1. outpost: hq c3\n2. moloch: hq c1\n3. outpost: pass\n")
    assert isinstance(record, GameRecord)
    assert record.entries[-1].actions == (Pass(),)
    assert write(record).splitlines()[-1] == "3. outpost: pass"


# --- the project's notation reference stands alone (issue 26) ---------------------------------------------------------


def _paragraphs(text: str) -> list[str]:
    """Paragraphs and list items, each on one line with its spaces folded (headings and fences apart)."""
    items, current = [], []
    for line in text.splitlines():
        stripped = line.strip()
        starts = stripped.startswith(("- ", "|", "#", "```")) or not stripped
        if starts and current:
            items.append(" ".join(current))
            current = []
        if stripped and not stripped.startswith(("#", "```")):
            current.append(stripped)
    if current:
        items.append(" ".join(current))
    return items


def test_docs_notation_holds_every_extension_and_reading_the_readme_lists():
    """docs/NOTATION.md §11 is the README's notation sections (extensions, readings, §10, terrain, scenarios): a
    fresh clone documents what it reads and writes in docs/, and the two never drift apart."""
    readme = (HERE.parent / "README.md").read_text(encoding="utf-8")
    listed = readme[readme.index("### Extensions to the notation"):readme.index("## Solving puzzle cards")]
    reference = " ".join(" ".join(_paragraphs(NOTATION_MD.read_text(encoding="utf-8"))).split())
    missing = [item for item in _paragraphs(listed) if " ".join(item.split()) not in reference]
    assert not missing, f"README notation items missing from docs/NOTATION.md §11: {missing[:3]}"
