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

from lark import Token, Tree

_CHECKOUT = Path(__file__).resolve().parent.parent


@cache
def grammar_text(name: str) -> str:
    try:
        return (resources.files("solver.grammar") / name).read_text(encoding="utf-8")
    except (ModuleNotFoundError, FileNotFoundError):
        return (_CHECKOUT / "grammar" / name).read_text(encoding="utf-8")


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
