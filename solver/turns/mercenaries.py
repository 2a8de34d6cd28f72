"""Mercenaries from Alabama (2E SPECIAL EXPANSION: 4 MERCENARIES FROM ALABAMA): hired tiles, for any tile the
mercenary pool's data file (``solver/armies/mercenary.army``) gives.

2E RULES: "In 2 player game each player gets one or two mercenary tiles ... In 3 or 4 player game every player
chooses one mercenary tile. Chosen mercenary tile should be placed face down near other army tiles. Each mercenary
tile can be drawn once per game during any tile-drawing, instead of a normal army tile. Mercenary, when played,
belongs to one's army just as any other tile from this army."

What a position can say is played here: a mercenary tile in a hand was drawn instead of an army tile, so drawing
it leaves the deck as it was (:func:`draws_from_deck`), and placed it becomes the placing army's unit, written
``owner=ARMY`` (NOTATION §10.4; :func:`placed_owner`). The Mad Bomber is the exception: as a non-player character
(option ``mad-bomber=npc``, the default) he stays neutral wherever a player puts him (2E: "A player can put Mad
Bomber somewhere on the board, discard him or keep him - just like with normal tiles"); with
``mad-bomber=mercenary`` the placing player "puts his army marker ... on him" (2E, Mad Bomber as a mercenary).
How many each player hires ("one or two", "one") and "once per game" need the whole game: a game record keeps them
(solver/turns/hiring.py, with the Mad Bomber's way back onto a draw pile).

The four Mercenaries' tiles have no data in any source found (``reference/tiles/mercenaries.json``): naming one is
exit 4 (solver/tiles.py). Adding them is one file: their ``tile`` entries in ``solver/armies/mercenary.army``.
"""

from __future__ import annotations

from typing import Container, Sequence

from ..rules import RuleSet
from ..tiles import NEUTRAL_ARMY, Tile

BOMBER = "mad-bomber"
#: Who set him off in a battle, neutral or hired (an additive extension of NOTATION §10.8, README): the armies
#: whose hits reached him in the phase he blew up or died. A game record places him from it (solver/turns/hiring.py).
HIT_BY = "mad_bomber_hit_by"


def is_mercenary(tile: Tile) -> bool:
    return tile.army == NEUTRAL_ARMY


def draws_from_deck(tile: Tile) -> bool:
    """2E: a mercenary is drawn 'instead of a normal army tile': not from the deck."""
    return not is_mercenary(tile)


def placed_owner(tile: Tile, army: str, rules: RuleSet) -> str | None:
    """The ``owner=`` of a unit ``army`` places from ``tile``: None for an army's own tile and for the neutral Mad
    Bomber (option ``mad-bomber=npc``); ``army`` for a hired mercenary."""
    if not is_mercenary(tile):
        return None
    if tile.name == BOMBER and rules.option("mad-bomber") == "npc":
        return None
    return army


def right_of(players: Sequence[str], seat: int, in_play: Container[str], rules: RuleSet) -> str:
    """The player 'to the right' of the one in seat ``seat`` of ``players`` (2E Mad Bomber as non player character:
    "the player to the right of the player who detonated Mad Bomber"), by option ``bomber-right``: the next seat in
    turn order (``next``, the default) or the previous one, skipping seats whose army is not ``in_play`` and the
    detonator's own other seat (the Loner of 1 vs a team sits twice). The detonator itself when nobody else is
    left. A game record's turn order and a position's ``players`` line are both such a seating."""
    army, count = players[seat], len(players)
    step = 1 if rules.option("bomber-right") == "next" else -1
    for i in range(1, count + 1):
        other = players[(seat + step * i) % count]
        if other != army and other in in_play:
            return other
    return army
