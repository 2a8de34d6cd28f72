"""Where the data shipped with nhex lives: the grammars and the army files; typed access to parse trees.

The grammars sit in the top-level ``grammar/`` folder of the checkout and are installed as the
``solver.grammar`` package, so both places are looked in: the installed package first, then the checkout
(tests run from a checkout import ``solver`` from the source tree, where ``solver.grammar`` does not exist).
"""

from __future__ import annotations

import os
import re
from functools import cache
from typing import TYPE_CHECKING

if TYPE_CHECKING:  # Lark itself is imported only to build a parser (the notation's comes generated, make_parser)
    from lark import Lark, Token, Tree

# Found by path, not through importlib.resources: its import alone costs every start several milliseconds (issue
# 10), and nhex is installed as plain files (setuptools), never run from a zip.
_PACKAGE = os.path.dirname(os.path.abspath(__file__))
_CHECKOUT = os.path.dirname(_PACKAGE)


@cache
def grammar_text(name: str) -> str:
    for folder in (os.path.join(_PACKAGE, "grammar"), os.path.join(_CHECKOUT, "grammar")):
        try:
            with open(os.path.join(folder, name), encoding="utf-8") as stream:
                return stream.read()
        except FileNotFoundError:
            continue
    raise FileNotFoundError(f"grammar {name} is neither in the installed package nor in the checkout")


def lark_parser(name: str, **options: object) -> Lark:
    """The LALR parser of grammar ``name``, its tables kept in the user's cache (solver/cache.py) so that a
    start loads them instead of building them (about 50 ms a grammar)."""
    from lark import Lark, __version__ as lark_version

    from . import cache

    text = grammar_text(name)
    file = cache.path(f"grammar-{name}", text, lark_version, repr(sorted(options.items())))
    if file is not None:
        try:
            file.parent.mkdir(parents=True, exist_ok=True)
        except OSError:
            file = None
    return Lark(text, parser="lalr", cache=str(file) if file is not None else False, **options)


# Trees come from Lark's parsers (army files, terrain) and from the notation's generated one, each with its own
# Token and Tree classes: a token is told from a tree as Lark's own code does, by being a string.


def terminals(node: Tree[Token]) -> list[Token]:
    """The children of a grammar rule made of terminals only (lark types every child as a token or a tree)."""
    children: list[Token] = [c for c in node.children if isinstance(c, str)]
    assert len(children) == len(node.children), node
    return children


def terminal(child: Tree[Token] | Token) -> Token:
    """A child that the grammar makes a terminal."""
    assert isinstance(child, str), child
    return child


def subtree(child: Tree[Token] | Token) -> Tree[Token]:
    """A child that the grammar makes a rule (a statement, a goal, an action), not a terminal."""
    assert not isinstance(child, str), child
    return child


def unquote(token: Token) -> str:
    """The text of a quoted string token; ``\\"`` and ``\\\\`` are its escapes (NOTATION §1), shared by the
    notation and the army files."""
    return re.sub(r"\\(.)", r"\1", str(token)[1:-1])


def army_files() -> list[tuple[str, str]]:
    """``(file name, text)`` of every shipped army file, sorted by name."""
    folder = os.path.join(_PACKAGE, "armies")
    files = []
    for name in sorted(os.listdir(folder)):
        if name.endswith(".army"):
            with open(os.path.join(folder, name), encoding="utf-8") as stream:
                files.append((name, stream.read()))
    return files


def version() -> str:
    """nhex's version: the installed package's, else the checkout's pyproject.toml."""
    try:
        from importlib.metadata import PackageNotFoundError, version as installed

        return installed("nhex")
    except PackageNotFoundError:
        project = os.path.join(os.path.dirname(_PACKAGE), "pyproject.toml")
        with open(project, encoding="utf-8") as stream:
            found = re.search(r'^version = "([^"]+)"', stream.read(), re.MULTILINE)
        return found.group(1) if found else "unknown"
