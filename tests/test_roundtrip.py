"""Property tests: parse(write(x)) == x for generated positions, puzzle cards and game records, and a parser
fed any text raises nothing but NotationError (STYLE: "a fuzzed parser never raises anything but our errors")."""

from __future__ import annotations

from collections import Counter

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from solver import cards
from solver.cards import GameRecord, Puzzle
from solver.errors import NotationError
from solver.hexes import DIRECTIONS, EXTENDED, STANDARD, Board, Hex, hexes_within
from solver.notation import parse, write
from solver.position import (INSTANT_ARGUMENTS, Discard, Draw, Move, Place, PlaceHQ, Position, Unit, Use)
from solver.rules import EDITIONS, OPTIONS, RuleSet
from solver.tiles import ARMY_NAMES, Kind, Tile, armies

SETTINGS = settings(max_examples=120, deadline=None, suppress_health_check=[HealthCheck.too_slow])

TILES = {name: army.tiles for name, army in armies().items()}
UNIT_TILES = [t for tiles in TILES.values() for t in tiles if t.is_unit]
FOUNDATION_TILES = [t for tiles in TILES.values() for t in tiles if t.kind is Kind.FOUNDATION]
#: Printable text without line breaks: what a quoted string may hold.
STRING_TEXT = st.text(st.characters(blacklist_categories=("Cs", "Cc", "Zl", "Zp")), max_size=30)


# --- building blocks ----------------------------------------------------------------------------------------


@st.composite
def boards(draw) -> Board:
    kind = draw(st.sampled_from(["standard", "standard", "extended", "custom"]))
    if kind == "standard":
        return STANDARD
    if kind == "extended":
        return EXTENDED
    return Board.custom(draw(st.sets(st.sampled_from(sorted(hexes_within(4))), min_size=1, max_size=12)))


def rule_sets() -> st.SearchStrategy[RuleSet]:
    settings_ = st.lists(st.sampled_from(OPTIONS).flatmap(
        lambda o: st.tuples(st.just(o.name), st.sampled_from(o.choices))), max_size=3)
    return st.builds(RuleSet.make, st.sampled_from(EDITIONS), settings_)


class Copies:
    """Hands out tiles without ever exceeding an army's count of them (the reader rejects more)."""

    def __init__(self) -> None:
        self.used: Counter[Tile] = Counter()

    def take(self, tile: Tile) -> bool:
        if self.used[tile] >= tile.count:
            return False
        self.used[tile] += 1
        return True


@st.composite
def units(draw, hex_: Hex, copies: Copies, hq_armies: set[str]) -> Unit | None:
    tile = draw(st.sampled_from(UNIT_TILES))
    if (tile.is_hq and tile.army in hq_armies) or not copies.take(tile):
        return None
    facing = draw(st.sampled_from(DIRECTIONS))
    if tile.is_hq:
        hq_armies.add(tile.army)
        return Unit(hex_, tile, facing, hp=draw(st.integers(1, 20)))
    owner = None  # owner= is only for mercenary tiles (NOTATION §4), which have no tile data yet
    prizes = tuple(draw(st.lists(st.sampled_from(["gold", "silver", "fame"]), max_size=2)))
    return Unit(hex_, tile, facing, wounds=draw(st.integers(0, tile.health - 1)), venom=draw(st.integers(0, 3)),
                owner=owner, prizes=prizes)


@st.composite
def positions(draw, board: Board | None = None, to_move: str | None = None,
              copies: Copies | None = None, hq: str | None = None, game: bool = False) -> Position:
    """A position; with ``hq``, that army's HQ stands on it (a card's player, NOTATION §6)."""
    board = board or draw(boards())
    copies = copies or Copies()
    hexes = draw(st.permutations(sorted(board.hexes)))
    placed, hq_armies = [], set()
    if hq is not None:
        tile = armies()[hq].hq
        copies.take(tile)
        placed.append(Unit(hexes[0], tile, draw(st.sampled_from(DIRECTIONS)), hp=draw(st.integers(1, 20))))
        hq_armies.add(hq)
        hexes = hexes[1:]
    for hex_ in hexes[: draw(st.integers(0, min(8, len(hexes))))]:
        unit = draw(units(hex_, copies, hq_armies))
        if unit is not None:
            placed.append(unit)
    foundations = []
    for hex_ in draw(st.permutations(hexes))[: draw(st.integers(0, 2))]:
        tile = draw(st.sampled_from(FOUNDATION_TILES))
        if copies.take(tile):
            foundations.append(Unit(hex_, tile, draw(st.sampled_from(DIRECTIONS))))
    hands = []
    for army in draw(st.lists(st.sampled_from(ARMY_NAMES), max_size=2, unique=True)):
        hand = [t for t in draw(st.lists(st.sampled_from(TILES[army]), max_size=3)) if copies.take(t)]
        hands.append((army, tuple(hand)))
    decks = draw(st.dictionaries(st.sampled_from(ARMY_NAMES), st.integers(0, 35), max_size=2))
    # `to-move` names an army of the position (issue 10): one with a unit or a foundation, a hand or a deck.
    present = sorted({u.army for u in placed} | {f.tile.army for f in foundations} | {a for a, _ in hands} | set(decks))
    if not game and (to_move is None or to_move not in present):  # a game's turn order is its `players`
        to_move = draw(st.sampled_from(present)) if present else None
    return Position(tuple(placed), board, draw(rule_sets()), to_move, tuple(hands), tuple(decks.items()),
                    tuple(foundations))


def goals(board: Board, armies_on_board: list[str]) -> st.SearchStrategy[cards.Goal]:
    hexes = st.sampled_from(sorted(board.hexes))
    atoms = st.one_of(
        st.just(cards.Win()), st.just(cards.DrawOrWin()), st.just(cards.Survive()),
        st.builds(cards.Destroy, st.sampled_from(armies_on_board)),
        st.builds(cards.HpCompare, st.sampled_from(armies_on_board), st.sampled_from(cards.COMPARISONS),
                  st.integers(-3, 25), st.booleans()),
        st.builds(cards.Alive, hexes, st.booleans()),
    )
    return st.recursive(atoms, lambda inner: st.one_of(
        st.builds(cards.Not, inner),
        st.builds(cards.And, st.lists(inner, min_size=2, max_size=3).map(tuple)),
        st.builds(cards.Or, st.lists(inner, min_size=2, max_size=3).map(tuple)),
    ), max_leaves=8)


def actions(army: str, board: Board) -> st.SearchStrategy:
    tiles = TILES[army]
    hexes = st.sampled_from(sorted(board.hexes))
    facings = st.sampled_from(DIRECTIONS)
    placeable = [t for t in tiles if t.is_unit or t.kind is Kind.FOUNDATION]
    instants = [t for t in tiles if t.kind is Kind.INSTANT and t.name in INSTANT_ARGUMENTS]

    @st.composite
    def use(draw) -> Use:
        tile = draw(st.sampled_from(instants))
        (count,), takes_facing = INSTANT_ARGUMENTS[tile.name]
        targets = tuple(draw(hexes) for _ in range(count))
        return Use(tile, targets, draw(st.none() | facings) if takes_facing else None)

    return st.one_of(
        st.builds(Discard, st.sampled_from(tiles)),
        st.builds(Place, st.sampled_from(placeable), hexes, facings),
        use(),
        st.builds(Move, hexes, hexes, st.none() | facings, st.sampled_from(["mobility", "hq", "transport"])),
        st.builds(PlaceHQ, hexes),
        st.builds(Draw, st.lists(st.sampled_from(tiles), min_size=1, max_size=3).map(tuple)),
    )


@st.composite
def puzzles(draw) -> Puzzle:
    board = draw(boards())
    player = draw(st.sampled_from(ARMY_NAMES))
    copies = Copies()
    # The offer is drawn first: its first tile always fits, and the board then uses what copies are left.
    offerable = [t for t in TILES[player] if not t.is_hq]  # an HQ is never offered (issue 10)
    offer = tuple(t for t in draw(st.lists(st.sampled_from(offerable), min_size=1, max_size=4)) if copies.take(t))
    position = draw(positions(board, to_move=draw(st.sampled_from([player, *ARMY_NAMES])), copies=copies, hq=player))
    return Puzzle(
        position=position, title=draw(STRING_TEXT), player=player, offer=offer,
        number=draw(st.none() | st.integers(0, 999)), level=draw(st.none() | st.integers(1, 4)),
        story=draw(st.none() | STRING_TEXT), play=draw(st.none() | st.integers(0, len(offer))),
        goal=draw(goals(board, sorted({u.army for u in position.units}))), then=draw(st.sampled_from(cards.THEN)),
        solution=draw(st.none() | st.lists(actions(player, board), max_size=3).map(tuple)),
        explanation=draw(st.none() | STRING_TEXT),
    )


@st.composite
def game_records(draw) -> GameRecord:
    board = draw(boards())
    players = tuple(draw(st.lists(st.sampled_from(ARMY_NAMES), min_size=1, max_size=4, unique=True)))
    position = draw(positions(board, to_move=draw(st.sampled_from(players)), game=True))
    entries = []
    for number in range(1, draw(st.integers(0, 6)) + 1):
        if draw(st.booleans()):
            entries.append(cards.ExpectHp(draw(st.sampled_from(players)), draw(st.integers(0, 20))))
        army = draw(st.sampled_from(players))
        entries.append(cards.Turn(number, army, tuple(draw(st.lists(actions(army, board), min_size=1, max_size=4)))))
    return GameRecord(players, position, tuple(entries))


# --- the properties ------------------------------------------------------------------------------------------


@SETTINGS
@given(positions())
def test_a_position_reads_back_as_written(position):
    text = write(position)
    assert parse(text) == position, text


@SETTINGS
@given(puzzles())
def test_a_puzzle_card_reads_back_as_written(puzzle):
    text = write(puzzle)
    assert parse(text) == puzzle, text


@SETTINGS
@given(game_records())
def test_a_game_record_reads_back_as_written(game):
    text = write(game)
    assert parse(text) == game, text


@SETTINGS
@given(st.one_of(positions(), puzzles(), game_records()))
def test_writing_is_canonical_so_fmt_is_idempotent(document):
    text = write(document)
    assert write(parse(text)) == text


# --- fuzzing: nothing but NotationError ---------------------------------------------------------------------

#: Words of the notation, so that random lines get past the lexer and into the reader's checks.
WORDS = ["board", "standard", "extended", "custom", "(0,0)", "(9,-9)", "rules", "3.0", "2.0", "clown-hits-hq=no",
         "to-move", "hand", "deck", "puzzle", "level", "story", "player", "offer", "play", "goal", "then",
         "final-battle", "solution", "explanation", "game", "players", "expect", "hp", "1.", "0.", "99.", "win",
         "and", "or", "not", "(", ")", "alive", "dead", "destroy", "damage", ">=", "<", "==", "discard", "place",
         "use", "move", "by", "hq", "draw", "c3", "c9", "a1", "e3", "N", "NE", "sw", "x", "moloch", "outpost",
         "vegas", "martians", "moloch:hq", "moloch:blocker", "outpost:commando", "vegas:mine", "moloch:battle",
         "blocker", "commando", "move", "push-back", "hp=5", "hp=0", "wounds=9", "wounds=x", "venom=1",
         "owner=vegas", "prize=a,b", "=", ":", ";", "#", '"', '"a b"', "-1", "7", "\n", "\n", "\n", "\t", "\\"]


@settings(max_examples=300, deadline=None)
@given(st.lists(st.sampled_from(WORDS), max_size=40).map(" ".join))
def test_random_notation_words_raise_nothing_but_notation_errors(text):
    try:
        parse(text)
    except NotationError:
        pass


@settings(max_examples=200, deadline=None)
@given(st.text(max_size=200))
def test_random_text_raises_nothing_but_notation_errors(text):
    try:
        parse(text)
    except NotationError:
        pass


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.one_of(positions(), puzzles(), game_records()), st.data())
def test_a_damaged_document_raises_nothing_but_notation_errors(document, data):
    text = write(document)
    for _ in range(data.draw(st.integers(1, 4))):
        at = data.draw(st.integers(0, len(text)))
        cut = data.draw(st.integers(0, 6))
        text = text[:at] + data.draw(st.sampled_from(["", " ", "\n", "x", "9", "-", ":", '"', "(", "="])) + text[at + cut:]
    try:
        parse(text)
    except NotationError:
        pass
