"""Reading without Lark's ``propagate_positions`` (issue 15, "Reading"): every place the reader gives a node is the
place Lark's positioned parser gives it.

``notation.parse`` reads with a parser that builds no places on its trees (``notation._reading_parser``); the
reader takes a statement's place from its line and its first token, and asks the positioned parser
(``notation._parser``) for any other node's place (``_Reader.place``). Every error message and every
``Position.location`` depends on those places being Lark's own, so they are compared node by node on every
notation file of the repository and on seeded fuzzed texts: blank and commented lines, indentation, CRLF line
ends, hexes written as ``(q, r)`` across a line end, statements with no token (``solution``, ``game``, ``goal win``).
"""

from __future__ import annotations

from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from solver.notation import text as notation
from solver.notation._parser import Token, Tree, UnexpectedInput

ROOT = Path(__file__).resolve().parent.parent
FILES = sorted({*ROOT.glob("puzzles/**/*.nhex"), *ROOT.glob("tests/**/*.nhex"), *ROOT.glob("bench/*.nhex")})


def _compare(text: str) -> int:
    """Compare the reader's place of every node with Lark's; the number of statements compared."""
    try:
        plain = notation._reading_parser().parse(text)
    except UnexpectedInput:
        with pytest.raises(UnexpectedInput):  # the two parsers accept the same texts
            notation._parser().parse(text)
        return 0
    placed = notation._parser().parse(text)
    reader = notation._Reader("<text>", text, plain)
    # The statements first: their places come from the text alone, unless a statement has no token at all.
    for statement, twin in zip(plain.children, placed.children, strict=True):
        assert isinstance(statement, Tree) and statement.meta.empty  # no places on the reading parser's trees
        assert reader.place(statement) == (twin.meta.line, twin.meta.column), (text, statement)
    if all(notation._first_token(s) is not None for s in plain.children):
        assert reader.places is None, "a statement with a token was placed by parsing the text again"
    # Then every node, the parts of lines too.
    pairs: list[tuple[Tree[Token] | Token, Tree[Token] | Token]] = [(plain, placed)]
    while pairs:
        node, twin = pairs.pop()
        if isinstance(node, Token):
            assert isinstance(twin, Token) and (node.type, node.line, node.column) == (twin.type, twin.line, twin.column)
            continue
        assert isinstance(twin, Tree) and node.data == twin.data and len(node.children) == len(twin.children)
        if node is not plain and not twin.meta.empty:
            assert reader.place(node) == (twin.meta.line, twin.meta.column), (text, node)
        pairs += list(zip(node.children, twin.children))
    return len(plain.children)


@pytest.mark.parametrize("path", FILES, ids=lambda p: str(p.relative_to(ROOT)))
def test_every_node_of_every_file_is_placed_where_lark_places_it(path: Path):
    _compare(path.read_text(encoding="utf-8", errors="replace").removeprefix("\ufeff"))


STATEMENTS = [
    "c3 moloch:hq hp=12", "c1 outpost:hq", "b2 moloch:officer SE", "d2 moloch:hunter-killer NW wounds=1",
    "(0, -1) outpost:commando N", "(0,\n-2) moloch:blocker", "(1,-1)\toutpost:brawler S", "board standard",
    "board custom (0,0) (1,\n-1) (0,-1)", "rules 3 reinforcement=yes", "to-move moloch", "hand moloch moloch:net-fighter",
    "deck outpost 7", "puzzle 3 \"A title\"", "level 2", "player moloch", "offer moloch:gauss-cannon", "play 1",
    "goal win", "goal survive and not destroy outpost", "goal (hp outpost <= 3 or alive c2)", "solution",
    "place moloch:guard c2 N", "pass", "explanation \"Why.\"", "game", "players moloch outpost",
    "1. moloch: place moloch:guard c2 N; hq c3", "2. outpost: pass", "expect hp moloch 12", "expect draw",
    "expect winner moloch", "terminals a1 e3", "energy smart 2", "mode deathmatch", "team moloch outpost",
    "score moloch 3", "prizes moloch universal-1", "turret b2", "scenario first-turn",
]
#: What may stand around a statement on its line, and between lines.
BLANKS = st.sampled_from(["", " ", "  ", "\t", " \t "])
ENDS = st.sampled_from(["\n", "\r\n", "\n\n", "\n   \n", "\n# a comment\n", " # after\n", "\n\t# indented\n\n"])


@st.composite
def texts(draw: st.DrawFn) -> str:
    lines = draw(st.lists(st.sampled_from(STATEMENTS), min_size=1, max_size=8))
    text = draw(st.sampled_from(["", "\n", "# head\n", "  \n"]))
    for line in lines:
        text += draw(BLANKS) + line + draw(BLANKS) + draw(ENDS)
    return text if draw(st.booleans()) else text.rstrip("\r\n \t")


@settings(max_examples=300, deadline=None, derandomize=True)
@given(texts())
def test_the_places_of_fuzzed_texts_are_larks(text: str):
    _compare(text)


def test_the_fuzzed_texts_are_mostly_read():
    """The fuzzer above compares places only where the text parses: most of its texts must (a guard on it)."""
    import random

    rng = random.Random("places")
    read = 0
    for _ in range(200):
        lines = rng.sample(STATEMENTS, rng.randint(1, 6))
        read += _compare("\n".join(lines) + "\n") > 0
    assert read > 100
