"""Where the data shipped with nhex lives: the grammars and the army files.

The grammars sit in the top-level ``grammar/`` folder of the checkout and are installed as the
``solver.grammar`` package, so both places are looked in: the installed package first, then the checkout
(tests run from a checkout import ``solver`` from the source tree, where ``solver.grammar`` does not exist).
"""

from __future__ import annotations

from functools import cache
from importlib import resources
from pathlib import Path

_CHECKOUT = Path(__file__).resolve().parent.parent


@cache
def grammar_text(name: str) -> str:
    try:
        return (resources.files("solver.grammar") / name).read_text(encoding="utf-8")
    except (ModuleNotFoundError, FileNotFoundError):
        return (_CHECKOUT / "grammar" / name).read_text(encoding="utf-8")


def army_files() -> list[tuple[str, str]]:
    """``(file name, text)`` of every shipped army file, sorted by name."""
    folder = resources.files("solver.armies")
    return sorted(
        (entry.name, entry.read_text(encoding="utf-8"))
        for entry in folder.iterdir()
        if entry.name.endswith(".army")
    )
