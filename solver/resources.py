"""Where the data shipped with nhex lives: the grammars and the army files; typed access to parse trees.

The grammars sit in the top-level ``grammar/`` folder of the checkout and are installed as the
``solver.grammar`` package, so both places are looked in: the installed package first, then the checkout
(tests run from a checkout import ``solver`` from the source tree, where ``solver.grammar`` does not exist).
"""

from __future__ import annotations

import re
from functools import cache
from importlib import resources
from pathlib import Path

from lark import Lark, Token, Tree

_CHECKOUT = Path(__file__).resolve().parent.parent


@cache
def grammar_text(name: str) -> str:
    try:
        return (resources.files("solver.grammar") / name).read_text(encoding="utf-8")
    except (ModuleNotFoundError, FileNotFoundError):
        return (_CHECKOUT / "grammar" / name).read_text(encoding="utf-8")


def lark_parser(name: str, **options: object) -> Lark:
    """The LALR parser of grammar ``name``, its tables kept in the user's cache (solver/cache.py) so that a
    start loads them instead of building them (about 50 ms a grammar)."""
    from . import cache
    from lark import __version__ as lark_version

    text = grammar_text(name)
    file = cache.path(f"grammar-{name}", text, lark_version, repr(sorted(options.items())))
    if file is not None:
        try:
            file.parent.mkdir(parents=True, exist_ok=True)
        except OSError:
            file = None
    return Lark(text, parser="lalr", cache=str(file) if file is not None else False, **options)


def terminals(node: Tree[Token]) -> list[Token]:
    """The children of a grammar rule made of terminals only (lark types every child as a token or a tree)."""
    children = [c for c in node.children if isinstance(c, Token)]
    assert len(children) == len(node.children), node
    return children


def terminal(child: Tree[Token] | Token) -> Token:
    """A child that the grammar makes a terminal."""
    assert isinstance(child, Token), child
    return child


def subtree(child: Tree[Token] | Token) -> Tree[Token]:
    """A child that the grammar makes a rule (a statement, a goal, an action), not a terminal."""
    assert isinstance(child, Tree), child
    return child


def unquote(token: Token) -> str:
    """The text of a quoted string token; ``\\"`` and ``\\\\`` are its escapes (NOTATION §1), shared by the
    notation and the army files."""
    return re.sub(r"\\(.)", r"\1", str(token)[1:-1])


def army_files() -> list[tuple[str, str]]:
    """``(file name, text)`` of every shipped army file, sorted by name."""
    folder = resources.files("solver.armies")
    return sorted(
        (entry.name, entry.read_text(encoding="utf-8"))
        for entry in folder.iterdir()
        if entry.name.endswith(".army")
    )
