"""Mirror matches: two (or more) players of one army (issue 14; README, notation extensions).

NOTATION v1.1 names every player by their army: a unit's tile (``army:tile``), ``to-move``, hands, decks, goals,
turn lines, ``expect`` lines, ``team`` and ``score``. The extension gives a player a *label* after its army,
``moloch/a``, written wherever v1.1 writes an army (``players moloch/a moloch/b``, ``c3 moloch/b:hq``,
``7. moloch/b: draw officer; place officer c2 S``, ``expect winner moloch/a``). A labelled army is the army's
tiles under that name (:func:`solver.tiles.army`): each player has their own pile, HQ and units, and every rule
that compares a unit's army with a player's (whose unit, whose module, whose Net, whose HQ) tells the two apart
with no branch of its own. What a tile *does* is its army's (``tiles.base_army``): Moloch's team fire, Neojungle's
venom markers.

The rulebooks never forbid two players one army: 3E PREPARING THE GAME, "Each player chooses an army and takes
its 35 tiles"; 2E "Each player commands a single army represented by 35 tiles". What makes units friendly or
enemy is whose they are (3E, "friendly units" are a player's own and, in a team match, a teammate's).

A labelled army must be seated: a file that names one has a ``players`` line (in a position or a puzzle card too,
where that line only declares the seats), so that a mistyped label is bad input, not a silent third player; and
where an army is played by labelled players its bare name (``moloch:hq``) names nobody unless it is seated too
(``players moloch moloch/b``: the first Moloch player keeps the plain name). An unlabelled army keeps
its v1.1 meaning everywhere (a position needs no ``players``; one may name other armies than it seats).
"""

from __future__ import annotations

import re
from typing import TYPE_CHECKING, Iterable, Sequence

from .tiles import ARMY_NAMES, LABEL_SEPARATOR, NEUTRAL_ARMY, base_army, is_labelled

if TYPE_CHECKING:
    from .position import Position


def seat_problem(name: str, players: tuple[str, ...]) -> str | None:
    """Why the army ``name``, named somewhere in a file whose ``players`` line seats ``players`` (empty: none),
    names no player of that file; None when it does. Only labels are checked: an unlabelled army keeps its v1.1
    meaning (a position needs no `players`)."""
    if name == NEUTRAL_ARMY or name in players:
        return None
    labelled = [p for p in players if is_labelled(p) and base_army(p) == base_army(name)]
    if is_labelled(name):
        if not players:
            return (f"{name} is a labelled player (a mirror match): seat the players with a `players` line, as in "
                    f"`players {base_army(name)}/a {base_army(name)}/b`")
        return f"unknown player {name}: the players are {' '.join(players)}"
    if labelled:
        return (f"{name} is played here by {' and '.join(labelled)}: name the player, as in "
                f"{labelled[0]}:hq or `to-move {labelled[0]}`")
    return None


_STRING = re.compile(r'"[^"\\]*+(?:\\.[^"\\]*+)*+"')  # possessive: no state kept per character (issue 25)
_ARMY = re.compile(r"(?<![\w/:-])(" + "|".join(sorted(ARMY_NAMES, key=len, reverse=True))
                   + r")(" + re.escape(LABEL_SEPARATOR) + r"[a-z0-9-]+)?(?![\w/-])")


def players_line(lines: Iterable[str], seated: Sequence[str] = ()) -> str | None:
    """The ``players`` line the writer puts in a position or a card whose canonical ``lines`` name a labelled
    army: the players of its own ``players`` line as it seated them (``seated``: they mark the players of one army
    on pictures, :func:`mark`), then every other army the lines name, in name order. Without labels, the seating
    as written when the file had one (the neutral Mad Bomber goes to "the player to the right", README: a position's
    seating), else None: such a file is written as v1.1 writes it."""
    names = {m.group(0) for line in lines for m in _ARMY.finditer(_STRING.sub("", line))}
    if not any(is_labelled(a) for a in names):
        return " ".join(["players", *seated]) if seated else None
    first = [a for a in dict.fromkeys(seated) if a in names]
    return " ".join(["players", *first, *sorted(names - set(first))])


#: The labels ``nhex generate`` gives the player and the opponent of a mirror card (``moloch/a`` against
#: ``moloch/b``): the first seat's letter, then the second's.
MIRROR_LABELS = ("a", "b")


def mirror_pair(army: str) -> tuple[str, str]:
    """The player and the opponent of a mirror match of ``army``."""
    return tuple(f"{army}{LABEL_SEPARATOR}{label}" for label in MIRROR_LABELS)  # type: ignore[return-value]


def seats_of(position: Position, players: Sequence[str] = (), also: Iterable[str | None] = ()) -> tuple[str, ...]:
    """The players pictures tell apart, in seat order: a game record's ``players`` line (``players``), else the
    position's or card's own (``position.seats``), first; then every other army ``position`` (and ``also``: a card's
    player) names, in label order (the order of a file without a ``players`` line)."""
    names = {u.army for u in (*position.units, *position.foundations)}
    names |= {u.tile.army for u in (*position.units, *position.foundations)}
    names |= {a for a, _ in position.hands} | {a for a, _ in position.decks} | {a for a, _ in position.held_prizes}
    names |= {a for a, _ in position.energy} | {a for a, _ in position.scores} | {a for t in position.teams for a in t}
    names |= {n for n in (position.to_move, *also) if n}
    seated = list(dict.fromkeys(players or position.seats))
    return tuple(seated + sorted(n for n in names if n and n != NEUTRAL_ARMY and n not in seated))


def mark(army: str, seats: Sequence[str] = ()) -> int:
    """How pictures mark ``army`` apart from the other players of its army: 0 not at all (the first seat among them,
    or the army's only player), 1 the second seat, 2 the third, and so on (solver/render: underlined, then italic, on
    the terminal; body and edge swapped, then a dashed rim, on a card). ``seats`` is :func:`seats_of`; a player it
    lacks is put among its army's players in label order."""
    same = [s for s in seats if base_army(s) == base_army(army)]
    if army not in same:
        same = sorted({*same, army})
    return same.index(army) if len(same) > 1 else 0
