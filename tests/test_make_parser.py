"""The notation's generated parser (solver/notation/_parser.py, written by ``python -m solver.notation.make_parser``) is
the parser of today's grammar/position.lark: made from that very text, and reading every notation file of the
repository exactly as a parser Lark builds from the grammar reads it (the same trees, the same errors at the same
places). Issue 10, "Fast start": the generated module spares every start Lark's grammar compiler.
"""

from __future__ import annotations

from pathlib import Path

import pytest
from lark import Lark, Tree
from lark.exceptions import UnexpectedInput

from solver.notation import _parser as _position_parser, make_parser
from solver.notation.text import _parser
from solver.resources import grammar_text

ROOT = Path(__file__).resolve().parent.parent
FILES = sorted({*ROOT.glob("puzzles/**/*.nhex"), *ROOT.glob("tests/**/*.nhex"), *ROOT.glob("bench/*.nhex")})


def test_the_generated_parser_is_made_from_todays_grammar():
    assert _position_parser.GRAMMAR_SHA256 == make_parser.grammar_hash(), (
        "grammar/position.lark changed: run `python -m solver.notation.make_parser` and commit solver/notation/_parser.py")


@pytest.fixture(scope="module")
def built() -> Lark:
    return Lark(grammar_text("position.lark"), **make_parser.OPTIONS)  # type: ignore[arg-type]


def _plain(tree: object) -> object:
    """A tree as nested tuples: rule names, token types, texts and places (the two parsers' classes differ)."""
    if isinstance(tree, str):  # a token
        token = tree
        return (getattr(token, "type"), str(token), getattr(token, "line"), getattr(token, "column"))
    assert hasattr(tree, "data") and hasattr(tree, "children")
    meta = getattr(tree, "meta")
    place = (meta.line, meta.column) if not meta.empty else None
    return (str(getattr(tree, "data")), place, tuple(_plain(c) for c in getattr(tree, "children")))


def _read(parse: object, text: str) -> object:
    try:
        return _plain(parse(text))  # type: ignore[operator]
    except Exception as error:  # both parsers raise Lark's errors, each its own class of the same name
        return (type(error).__name__, getattr(error, "line", None), getattr(error, "column", None))


@pytest.mark.parametrize("path", FILES, ids=lambda p: str(p.relative_to(ROOT)))
def test_the_generated_parser_reads_each_file_as_lark_does(path: Path, built: Lark):
    text = path.read_text(encoding="utf-8", errors="replace").removeprefix("\ufeff")
    assert _read(_parser().parse, text) == _read(built.parse, text)


def test_the_generated_parser_raises_lark_errors_where_lark_does(built: Lark):
    for text in ("c3 moloch:hq hp=12 =\n", "goal (win\n", 'story "open\n', "b2 ?\n", "1. moloch: place\n"):
        assert _read(_parser().parse, text) == _read(built.parse, text)
        with pytest.raises(UnexpectedInput):
            built.parse(text)
    assert isinstance(built.parse("c3 moloch:hq\n"), Tree)


def test_the_parser_read_back_from_the_cache_reads_each_file_as_the_one_built(tmp_path, monkeypatch):
    """A start loads the parser pickled in the user's cache (solver/notation/text.py, solver/cache.py)."""
    from solver import cache

    monkeypatch.setenv("NHEX_CACHE_DIR", str(tmp_path))
    built = cache.remembered("parser-test", ("one",), _position_parser.Lark_StandAlone)
    again = cache.remembered("parser-test", ("one",), lambda: pytest.fail("built again instead of read back"))
    assert again is not built
    for path in FILES:
        text = path.read_text(encoding="utf-8", errors="replace").removeprefix("\ufeff")
        assert _read(again.parse, text) == _read(built.parse, text)
