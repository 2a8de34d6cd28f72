"""Play a whole game of random legal moves through the engine and print its record (how the records
mad-bomber-hired.nhex, mad-bomber-three-players.nhex, doomsday-vs-moloch-bomber.nhex and score-three-players.nhex
were made; each was then checked with `nhex check`).

    python tests/data/games/random_game.py HEADER.nhex SEED [--no-moves] > game.nhex

HEADER.nhex is the start of a record (`game`, `players`, `rules`, `mode`, start units). Each turn draws from what the
army has left (the tiles on top of its pile first; with option mad-bomber=mercenary, sometimes a hire of the Mad
Bomber), discards one of three, then plays random legal actions; a turn `nhex` refuses is drawn again. Seeded, so the
same seed gives the same game. A data-making tool, not a test.
"""

from __future__ import annotations

import random
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[3]))

from solver.turns import actions, game, hiring
from solver.notation import text as notation  # noqa: E402
from solver.notation.cards import Turn  # noqa: E402
from solver.errors import IllegalAction  # noqa: E402
from solver.position import Action, Discard, Draw, Move, Pass, Place, PlaceHQ, Use  # noqa: E402
from solver.tiles import tile  # noqa: E402

BOMBER = tile("mercenary:mad-bomber")


def _draw(rng: random.Random, state: game.GameState, army: str) -> Draw | None:
    position = state.position
    count = min(game._opening_limit(state, army) - len(position.hand(army)), position.deck(army) or 0)
    if count <= 0:
        return None
    top = list(dict(state.on_top).get(army, ()))[:count]
    pool = list(state.pool(army))
    for t in top:
        if t in pool:
            pool.remove(t)
    drawn = top[:]
    hire = (position.rules.option("mad-bomber") == "mercenary" and BOMBER not in top
            and not any(BOMBER in tiles for _, tiles in state.hired) and hiring._elsewhere(state, BOMBER) == 0)
    if hire and len(drawn) < count and rng.random() < 0.5:
        drawn.append(BOMBER)
    drawn += rng.sample(pool, count - len(drawn))
    return Draw(tuple(drawn))


def _turn(rng: random.Random, state: game.GameState, army: str, moves: bool) -> list[Action]:
    position = state.position
    if position.hq(army) is None:
        return [PlaceHQ(rng.choice(position.empty_hexes()))]
    played: list[Action] = []
    draw = _draw(rng, state, army)
    if draw is not None:
        played.append(draw)
        position = actions.apply(position, draw, army)
        hand = list(position.hand(army))
        if len(hand) >= 3:
            thrown = rng.choice([t for t in hand if t != BOMBER] or hand)  # he is kept, mostly
            if rng.random() < 0.15 and BOMBER in hand:
                thrown = BOMBER
            discard = Discard(thrown)
            played.append(discard)
            position = actions.apply(position, discard, army)
    used = actions.NOTHING_USED
    for _ in range(3):
        legal = [a for a in actions.legal_actions(position, army, used)
                 if isinstance(a, (Place, Use)) or (moves and isinstance(a, Move))]
        if not legal or rng.random() < 0.15:
            break
        bomber = [a for a in legal if isinstance(a, Place) and a.tile == BOMBER]
        action = rng.choice(bomber) if bomber and rng.random() < 0.8 else rng.choice(legal)
        try:
            after = actions.results(position, action, army, used)[0][1]
        except (IllegalAction, game.Undecidable):
            break
        played.append(action)
        used = actions.spend(position, action, army, used)
        position = after
        if actions.starts_battle(action, position):
            break
    return played or [Pass()]


def play(header: str, seed: int, moves: bool = True, turns: int = 200) -> tuple[game.GameState, list[str]]:
    rng = random.Random(seed)
    state = game.start(notation.parse(header))
    lines: list[str] = []
    while state.result is None and len(lines) < turns:
        army, number = state.to_move, state.turn
        for _ in range(60):
            played = _turn(rng, state, army, moves)
            try:
                state = game.play_turn(state, Turn(number, army, tuple(played)))
            except (IllegalAction, game.Undecidable):
                continue
            lines.append(f"{number}. {army}: " + "; ".join(str(a) for a in played))
            break
        else:
            break  # no legal turn found: the record stops here
    return state, lines


if __name__ == "__main__":
    header = Path(sys.argv[1]).read_text()
    final, record = play(header, int(sys.argv[2]), moves="--no-moves" not in sys.argv)
    print(header.rstrip("\n") + "\n" + "\n".join(record))
    print(f"# {final.winners} {final.hq}", file=sys.stderr)
