""""Did you mean …": the known names closest to a mistyped one (difflib), for the messages that refuse a name.

Used wherever a name the user types is looked up (an army, a tile, a rule option, a command, an option's value),
so that each refusal ends the same way: ``…; did you mean 'blocker'?``.
"""

from __future__ import annotations

import difflib
from typing import Iterable, Mapping


def close_names(word: str, known: Iterable[str], limit: int = 3) -> list[str]:
    """The known names most like ``word``, best first (none when nothing is close)."""
    return difflib.get_close_matches(word.lower(), sorted(set(known)), n=limit, cutoff=0.7)


def did_you_mean(word: str, known: Iterable[str] | Mapping[str, str]) -> str:
    """``"; did you mean 'x'?"`` (or ``'x' or 'y'``) to end a message refusing ``word``; empty when no known name
    is close. ``known`` may map each name (an alias too) to the name to suggest: an alias matched suggests its
    canonical name, once."""
    names = known if isinstance(known, Mapping) else {name: name for name in known}
    found = list(dict.fromkeys(names[name] for name in close_names(word, names)))
    if not found:
        return ""
    quoted = [repr(name) for name in found]
    return "; did you mean " + (quoted[0] if len(quoted) == 1 else ", ".join(quoted[:-1]) + " or " + quoted[-1]) + "?"
