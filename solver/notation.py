"""The nhex notation: text → values (with every mistake located) and values → canonical text.

One Lark grammar (``grammar/position.lark``) reads positions, puzzle cards and game records; this module turns
its tree into :mod:`solver.position` and :mod:`solver.cards` values, checks them (unknown names, hexes off
the board, impossible markers, :meth:`Position.problems`), and writes them back in the canonical form of
NOTATION §1-7: lower-case kebab-case names, hex labels, upper-case directions, every facing written.
"""

from __future__ import annotations

import re
import sys
from functools import cache
from pathlib import Path
from typing import Callable, TypeVar

from lark import Lark, Token, Tree
from lark.exceptions import UnexpectedCharacters, UnexpectedEOF, UnexpectedInput, UnexpectedToken

from . import cards
from .cards import GameRecord, Goal, Puzzle
from .errors import NotationError
from .notation_additions import ADDITION_ACTIONS, GAME_ONLY, AdditionsReader, lines_after_units, lines_before_units
from .hexes import EXTENDED, STANDARD, Board, Direction, Hex
from .position import (HAND_SIZE, HAND_SIZE_REINFORCEMENT, INSTANT_ARGUMENTS, Action, Discard, Draw, Move, Pass, Place, PlaceHQ, Position, Problem,
                       ProblemKind, Unit, Use)
from .resources import grammar_text, subtree, terminal, terminals, unquote
from .rules import DEFAULT_RULES, RuleSet
from .tiles import NEUTRAL_ARMY, Kind, MissingTileData, Tile, army_name, normal_name, tile

Document = Position | Puzzle | GameRecord
_T = TypeVar("_T")

# A word shaped like a hex label (``c9``): named as a hex that is not there, not as a syntax error.
_LABEL_SHAPE = re.compile(r"^[a-z][0-9]+$", re.IGNORECASE)
_LABELS_HINT = "labels run a1-a3, b1-b4, c1-c5, d1-d4, e1-e3; name other hexes as (q,r)"

#: Which part of a unit line a problem points at (the attribute, else the tile, else the hex).
_PROBLEM_PART = {
    ProblemKind.OFF_BOARD: "hex", ProblemKind.HEX_TAKEN: "hex", ProblemKind.NOT_A_UNIT: "tile",
    ProblemKind.TOO_MANY_COPIES: "tile", ProblemKind.SECOND_HQ: "tile", ProblemKind.WOUNDS_KILL: "wounds",
    ProblemKind.WOUNDS_ON_HQ: "wounds", ProblemKind.HP_ON_NON_HQ: "hp", ProblemKind.BAD_HP: "hp",
}

_PUZZLE_STATEMENTS = {"puzzle", "level", "story", "player", "offer", "play", "goal", "then", "solution",
                      "explanation"}
_GAME_STATEMENTS = {"game", "players", "turn", "expect", *GAME_ONLY}
_TERMINAL_NAMES = {
    "_NL": "end of line", "HEX": "a hex", "TILE": "a tile", "NAME": "a name", "INT": "a number",
    "STRING": "a quoted string", "VALUE": "a value", "EQUAL": "'='", "COLON": "':'", "SEMICOLON": "';'",
    "EDITION": "an edition number", "COMPARISON": "a comparison", "LPAR": "'('", "RPAR": "')'",
    "COORD": "a hex as (q,r)", "TURN_NUMBER": "a turn number",
}


@cache
def _parser() -> Lark:
    return Lark(grammar_text("position.lark"), parser="lalr", propagate_positions=True, maybe_placeholders=False)


# --- reading ---------------------------------------------------------------------------------------------------


def load(path: str) -> Document:
    """Read a position, puzzle card or game record from a file (``-`` is standard input)."""
    if path == "-":
        return parse(sys.stdin.read(), "<stdin>")
    try:
        text = Path(path).read_text(encoding="utf-8-sig")  # a byte-order mark is not part of the text
    except FileNotFoundError:
        raise NotationError("no such file", 0, 0, path) from None
    except (OSError, UnicodeDecodeError) as error:
        raise NotationError(f"cannot read the file: {error}", 0, 0, path) from None
    return parse(text, path)


def parse(text: str, source: str = "<input>") -> Document:
    """Read notation text; every error is a :class:`NotationError` located in ``source``."""
    try:
        tree = _parser().parse(text)
    except UnexpectedInput as error:
        raise _syntax_error(error, text, source) from None
    try:
        return _Reader(source).read(tree)
    except RecursionError:  # only a goal nested thousands deep gets here
        raise NotationError("expression nested too deeply", 1, 1, source) from None


def parse_position(text: str, source: str = "<input>") -> Position:
    document = parse(text, source)
    if not isinstance(document, Position):
        raise NotationError("expected a position, found a puzzle card or a game record", 1, 1, source)
    return document


def parse_unit(text: str) -> Unit:
    position = parse_position(text, "<unit>")
    if len(position.units) + len(position.foundations) != 1:
        raise NotationError("expected exactly one unit line", 1, 1, "<unit>")
    return (position.units or position.foundations)[0]


def parse_action(text: str, army: str, source: str = "<action>") -> Action:
    """Read one action line, naming tiles without an army as ``army``'s."""
    try:
        tree = _parser().parse(text.strip() + "\n")
    except UnexpectedInput as error:
        raise _syntax_error(error, text, source) from None
    statements = [s for s in tree.children if isinstance(s, Tree)]
    if len(statements) == 1 and statements[0].data == "energy":  # `energy tile TILE`, `energy hq N` (§10.2)
        return _Reader(source).action(statements[0], army)
    if len(statements) != 1 or statements[0].data != "action":
        raise NotationError("expected one action", 1, 1, source)
    return _Reader(source).action(subtree(statements[0].children[0]), army)


def _syntax_error(error: UnexpectedInput, text: str, source: str) -> NotationError:
    if isinstance(error, UnexpectedToken):
        token = error.token
        if str(token).startswith('"') and token.type != "STRING":
            return _unterminated(error.line, error.column, source)
        found = "end of file" if token.type == "$END" else ("end of line" if token.type == "_NL" else repr(str(token)))
        expected = sorted(_TERMINAL_NAMES.get(t, repr(t.lower().strip('_'))) for t in error.expected
                          if not t.startswith("__"))
        hint = f" (expected {', '.join(expected[:6])}{', ...' if len(expected) > 6 else ''})" if expected else ""
        return NotationError(f"syntax error: unexpected {found}{hint}", error.line, error.column, source)
    if isinstance(error, UnexpectedCharacters):
        # Lark declares `pos_in_stream = None` on UnexpectedInput, so mypy takes it for None; the lexer's error
        # sets the offset (an int) in the text.
        offset: int = error.pos_in_stream  # type: ignore[assignment]
        char = text[offset] if offset < len(text) else ""
        line_end = text.find("\n", offset)
        rest = text[offset: line_end if line_end >= 0 else len(text)]
        if char == '"':
            return _unterminated(error.line, error.column, source)
        word = rest.split()[0] if char.strip() else char
        return NotationError(f"syntax error: unexpected {word!r}", error.line, error.column, source)
    if isinstance(error, UnexpectedEOF):
        lines = text.splitlines() or [""]
        return NotationError("syntax error: unexpected end of file", len(lines), len(lines[-1]) + 1, source)
    return NotationError(f"syntax error: {error}", getattr(error, "line", 0), getattr(error, "column", 0), source)


def _unterminated(line: int, column: int, source: str) -> NotationError:
    return NotationError("unterminated string (close it with \" on the same line)", line, column, source)


class _Reader(AdditionsReader):
    """Turns the parse tree of one file into a document, checking names and values as it goes (the NOTATION
    §10 additions: :class:`~solver.notation_additions.AdditionsReader`)."""

    def __init__(self, source: str) -> None:
        self.source = source
        self.board: Board = STANDARD
        self.board_node: Tree[Token] | None = None
        self.rules: RuleSet = DEFAULT_RULES
        self.units: list[Unit] = []
        self.foundations: list[Unit] = []
        self.placed: list[Unit] = []  # units and foundations in the order they were written
        self.where: dict[int, dict[str, Tree[Token] | Token]] = {}  # id(unit) -> its line's node and tokens
        self.to_move: str | None = None
        self.first_army: str | None = None
        self.hands: dict[str, tuple[Tile, ...]] = {}
        self.hand_nodes: dict[str, Tree[Token]] = {}
        self.offer_node: Tree[Token] | None = None
        self.decks: dict[str, int] = {}
        self.kind: str = "position"
        self.card: dict = {}
        self.solution: list[tuple[Tree[Token], Action | None]] | None = None
        self.in_solution = False
        self.head: Tree[Token] | None = None  # the first statement: `puzzle`, `game` or any position line
        self.game_seen = False
        self.players: tuple[str, ...] = ()
        self.entries: list[Tree[Token] | cards.ExpectHp] = []  # a turn is read once the players are known
        self.turn_trees: list[Tree[Token]] = []
        self.init_additions()

    def fail(self, message: str, node: Tree[Token] | Token) -> NotationError:
        if isinstance(node, Token):
            return NotationError(message, node.line or 0, node.column or 0, self.source)
        return NotationError(message, node.meta.line, node.meta.column, self.source)

    def checked(self, node: Tree[Token] | Token, read: Callable[[str], _T], text: str) -> _T:
        try:
            return read(text)
        except ValueError as error:
            raise self.fail(str(error), node) from None

    # --- names ---
    def army(self, token: Token) -> str:
        name = self.checked(token, army_name, str(token))
        self.first_army = self.first_army or name
        return name

    def tile(self, token: Token, default_army: str | None = None) -> Tile:
        text = str(token)
        if ":" not in text and default_army is None:
            raise self.fail(f"tile {text!r} needs its army here, as in moloch:{text}", token)
        try:
            tile(text, default_army)
        except MissingTileData as error:  # a mercenary nhex has no data for: exit 4, not bad input (§10.4)
            raise self.not_implemented(str(error), token) from None
        except ValueError:
            pass
        found = self.checked(token, lambda t: tile(t, default_army), text)
        if ":" in text and found.army != NEUTRAL_ARMY:
            self.first_army = self.first_army or found.army
        return found

    def hex(self, token: Token) -> Hex:
        try:
            hex_ = Hex.parse(str(token))
        except ValueError as error:
            if _LABEL_SHAPE.match(str(token)):
                raise self.fail(f"hex {str(token).lower()} is not on the {self.board.shape} board ({_LABELS_HINT})",
                                token) from None
            raise self.fail(str(error), token) from None
        if hex_ not in self.board:
            raise self.fail(f"hex {hex_.label} is not on the {self.board.shape} board", token)
        return hex_

    def direction(self, token: Token) -> Direction:
        return self.checked(token, Direction.parse, str(token))

    # --- the whole file ---
    def read(self, tree: Tree[Token]) -> Document:
        statements = [s for s in tree.children if isinstance(s, Tree)]
        self.head = statements[0] if statements else None
        if statements and statements[0].data == "puzzle":
            self.kind = "puzzle"
        elif statements and statements[0].data == "game":
            self.kind = "game"
        # The board shape decides which hexes exist, so it is read before anything names a hex.
        boards = [s for s in statements if s.data == "board"]
        for extra in boards[1:]:
            raise self.fail("a second `board` line", extra)
        if boards:
            shape, *coords = boards[0].children
            self.stmt_board(boards[0], terminal(shape), *(subtree(c) for c in coords))
        for statement in statements:
            if statement.data == "board":
                continue
            if statement.data in _PUZZLE_STATEMENTS and self.kind != "puzzle":
                raise self.fail(f"`{statement.data}` belongs in a puzzle card, which starts with a `puzzle` line",
                                statement)
            if statement.data in _GAME_STATEMENTS and self.kind != "game":
                raise self.fail(f"`{statement.data}` belongs in a game record, which starts with a `game` line",
                                statement)
            if self.in_solution and statement.data not in ("action", "explanation", "energy"):
                raise self.fail("only action lines may follow `solution` (until `explanation`)", statement)
            getattr(self, f"stmt_{statement.data}")(statement, *statement.children)
        position = self.position()
        if self.kind == "puzzle":
            return self.puzzle(position)
        if self.kind == "game":
            if not self.players:
                assert self.head is not None  # the `game` line
                raise self.fail("a game record needs a `players` line", self.head)
            entries = [self.turn(t) if isinstance(t, Tree) else t for t in self.entries]
            return GameRecord(self.players, position, tuple(entries))
        return position

    def position(self) -> Position:
        default = self.players[0] if self.kind == "game" and self.players else self.first_army
        to_move = self.to_move if self.to_move is not None else (None if self.kind == "puzzle" else default)
        if self.kind == "puzzle" and to_move is None:
            to_move = self.card.get("player")
        position = Position(tuple(self.units), self.board, self.rules, to_move,
                            tuple(self.hands.items()), tuple(self.decks.items()), tuple(self.foundations),
                            **self.addition_fields())
        problems = position.problems(self.placed)
        if problems:
            raise self.located(problems[0])
        self.check_additions(position)
        return position

    def located(self, problem: Problem) -> NotationError:
        """The problem at the token that causes it: the attribute, the tile or the hex of its line."""
        if problem.unit is None:
            assert problem.hand is not None  # a problem is with a unit or with a hand
            node = self.hand_nodes[problem.hand]
            held = terminals(node)[1:]
            if problem.kind is ProblemKind.HAND_TOO_BIG:
                return self.fail(problem.message,
                                 held[HAND_SIZE_REINFORCEMENT if self.rules.enabled("reinforcement") else HAND_SIZE])
            hand = self.hands[problem.hand]
            last = max(i for i, t in enumerate(hand) if t == problem.tile)
            return self.fail(problem.message, held[last])
        parts = self.where[id(problem.unit)]
        return self.fail(problem.message, parts.get(_PROBLEM_PART.get(problem.kind, "line"), parts["line"]))

    # --- position statements ---
    def stmt_board(self, node: Tree[Token], shape: Token, *coords: Tree[Token]) -> None:
        name = normal_name(shape)
        if name == "standard" and not coords:
            self.board = STANDARD
        elif name == "extended" and not coords:
            self.board = EXTENDED
        elif name == "custom":
            if not coords:
                raise self.fail("a custom board lists its hexes, as in `board custom (0,0) (1,-1)`", node)
            hexes = [self.checked(c.children[0], Hex.parse, str(c.children[0])) for c in coords]
            self.board = Board.custom(hexes)
        else:
            raise self.fail(f"unknown board shape {str(shape)!r} (expected standard, extended or custom (q,r) ...)",
                            shape)

    def stmt_rules(self, node: Tree[Token], edition: Token, *options: Tree[Token]) -> None:
        settings = [(normal_name(terminal(o.children[0])), normal_name(terminal(o.children[1]))) for o in options]
        self.locate("rules", node)
        try:
            self.rules = RuleSet.make(str(edition), settings)
        except ValueError as error:
            bad = next((o for o in options if normal_name(terminal(o.children[0])) in str(error)), edition)
            raise self.fail(str(error), bad) from None

    def stmt_unit(self, node: Tree[Token], hex_token: Token, tile_token: Token, *rest: Token | Tree[Token]) -> None:
        hex_ = self.hex(hex_token)
        tile_ = self.unit_tile(tile_token, rest)
        fields: dict = {}
        parts: dict[str, Tree[Token] | Token] = {"line": node, "hex": hex_token, "tile": tile_token}
        for item in rest:
            if isinstance(item, Token):
                if "facing" in fields:
                    raise self.fail(f"a second facing {str(item)!r}: a unit has one facing", item)
                fields["facing"] = self.direction(item)
                parts["facing"] = item
                continue
            name_token, value_token = terminals(item)
            name, value = normal_name(name_token), str(value_token)
            if name in fields or (name == "prize" and "prizes" in fields):
                raise self.fail(f"{name}= is given twice", name_token)
            parts[name] = name_token
            if name in ("hp", "wounds", "venom"):
                if not value.isdigit():
                    raise self.fail(f"{name}= takes a whole number, not {value!r}", value_token)
                fields[name] = int(value)
            elif name == "owner":
                fields["owner"] = self.army(value_token)
            elif name == "prize":
                fields["prizes"] = self.prize_names(value_token, value)
            else:
                raise self.fail(f"unknown unit attribute {name!r} (expected hp, wounds, venom, owner or prize)",
                                name_token)
        if fields.get("owner") == tile_.army:
            del fields["owner"]
        unit = Unit(hex_, tile_, **fields)
        if tile_.kind is Kind.FOUNDATION:
            self.foundations.append(unit)
        else:
            self.units.append(unit)
        self.placed.append(unit)
        self.where[id(unit)] = parts
        self.check_unit_additions(unit, node, parts)

    def stmt_to_move(self, node: Tree[Token], _keyword: Token, army: Token) -> None:
        self.to_move = self.army(army)

    def stmt_hand(self, node: Tree[Token], army: Token, *tiles: Token) -> None:
        name = self.army(army)
        if name in self.hands:
            raise self.fail(f"a second hand for {name}", node)
        self.hands[name] = tuple(self.own_tile(t, name, f"{name}'s hand") for t in tiles)
        self.hand_nodes[name] = node

    def stmt_deck(self, node: Tree[Token], army: Token, count: Token) -> None:
        name = self.army(army)
        if int(count) < 0:
            raise self.fail("a deck cannot hold fewer than 0 tiles", count)
        self.decks[name] = int(count)

    def own_tile(self, token: Token, army: str, holder: str) -> Tile:
        """A tile that must belong to ``army`` (a hand, an offer): other armies' tiles are not theirs to hold."""
        found = self.tile(token, army)
        if found.army != army:
            raise self.fail(f"{holder} cannot hold {found.key}, a tile of another army", token)
        return found

    # --- puzzle statements ---
    def set_card(self, key: str, value: object, node: Tree[Token], statement: str | None = None) -> None:
        if key in self.card:
            raise self.fail(f"a second `{statement or key}` line", node)
        self.card[key] = value

    def natural(self, token: Token, what: str, least: int = 0) -> int:
        value = int(token)
        if value < least:
            raise self.fail(f"{what} takes a number from {least} up, not {value}", token)
        return value

    def stmt_puzzle(self, node: Tree[Token], *children: Token) -> None:
        *number, title = children
        self.set_card("title", unquote(title), node, "puzzle")
        if number:
            self.set_card("number", self.natural(number[0], "a puzzle's number"), node, "puzzle")

    def stmt_level(self, node: Tree[Token], level: Token) -> None:
        self.set_card("level", self.natural(level, "level"), node)

    def stmt_story(self, node: Tree[Token], text: Token) -> None:
        self.set_card("story", unquote(text), node)

    def stmt_player(self, node: Tree[Token], army: Token) -> None:
        self.set_card("player", self.army(army), node)

    def stmt_offer(self, node: Tree[Token], *tiles: Token) -> None:
        player = self.card.get("player")
        if player is None:
            offered = tuple(self.tile(t) for t in tiles)  # checked against `player` once it is read
        else:
            offered = tuple(self.own_tile(t, player, f"the offer of {player}") for t in tiles)
        self.set_card("offer", offered, node)
        self.offer_node = node

    def stmt_play(self, node: Tree[Token], count: Token) -> None:
        self.set_card("play", self.natural(count, "play"), node)

    def stmt_goal(self, node: Tree[Token], expression: Tree[Token]) -> None:
        self.set_card("goal", self.goal(expression), node)

    def stmt_then(self, node: Tree[Token], what: Token) -> None:
        name = normal_name(what)
        if name not in cards.THEN:
            raise self.fail(f"`then` takes {', '.join(cards.THEN)}, not {str(what)!r}", what)
        self.set_card("then", name, node)

    def stmt_solution(self, node: Tree[Token]) -> None:
        if self.solution is not None:
            raise self.fail("a second `solution` line", node)
        self.solution = []
        self.in_solution = True

    def stmt_explanation(self, node: Tree[Token], text: Token) -> None:
        self.in_solution = False
        self.set_card("explanation", unquote(text), node)

    def stmt_action(self, node: Tree[Token], action: Tree[Token]) -> None:
        if not self.in_solution:
            raise self.fail("an action line outside a solution (a puzzle's `solution` or a game record's turn)",
                            node)
        assert self.solution is not None  # `in_solution` starts with the `solution` line
        self.solution.append((action, None))

    def puzzle(self, position: Position) -> Puzzle:
        for required in ("player", "offer"):
            if required not in self.card:
                assert self.head is not None  # the `puzzle` line
                raise self.fail(f"a puzzle card needs {'an' if required == 'offer' else 'a'} `{required}` line",
                                self.head)
        player = self.card["player"]
        self.check_offer(position, player)
        solution = None
        if self.solution is not None:
            solution = tuple(self.action(tree, player) for tree, _ in self.solution)
            self.check_purchases_last([tree for tree, _ in self.solution], solution)
        fields = {k: v for k, v in self.card.items() if k not in ("title",)}
        return Puzzle(position=position, title=self.card["title"], solution=solution, **fields)

    def check_offer(self, position: Position, player: str) -> None:
        """The offered tiles come from the player's army, and with the board they fit in its 35 tiles."""
        assert self.offer_node is not None
        tokens = [t for t in self.offer_node.children if isinstance(t, Token)]
        on_board = [u.tile for u in (*position.units, *position.foundations)] + list(position.hand(player))
        for index, (token, offered) in enumerate(zip(tokens, self.card["offer"])):
            if offered.army != player:
                raise self.fail(f"the offer of {player} cannot hold {offered.key}, a tile of another army", token)
            copies = on_board.count(offered) + self.card["offer"][: index + 1].count(offered)
            if copies > offered.count:
                total = on_board.count(offered) + self.card["offer"].count(offered)
                raise self.fail(f"{total} copies of {offered.key}, but the army has {offered.count}", token)

    def goal(self, node: Tree[Token]) -> Goal:
        kind = node.data
        children = node.children
        if kind == "goal_win":
            return cards.Win()
        if kind == "goal_draw_or_win":
            return cards.DrawOrWin()
        if kind == "goal_survive":
            return cards.Survive()
        if kind == "goal_destroy":
            return cards.Destroy(self.army(terminal(children[0])))
        if kind in ("goal_hp", "goal_damage"):
            army, comparison, value = (terminal(c) for c in children)
            return cards.HpCompare(self.army(army), str(comparison), int(value), kind == "goal_damage")
        if kind in ("goal_alive", "goal_dead"):
            return cards.Alive(self.hex(terminal(children[0])), kind == "goal_alive")
        if kind == "goal_negation":
            return cards.Not(self.goal(subtree(children[0])))
        if kind == "goal_and":
            return cards.And(tuple(self.goal(subtree(c)) for c in children))
        if kind == "goal_or":
            return cards.Or(tuple(self.goal(subtree(c)) for c in children))
        raise self.fail(f"unknown goal {kind}", node)  # pragma: no cover - the grammar has no other goal

    # --- game records ---
    def stmt_game(self, node: Tree[Token]) -> None:
        if self.game_seen:
            raise self.fail("a second `game` line", node)
        self.game_seen = True

    def stmt_players(self, node: Tree[Token], *armies: Token) -> None:
        if self.players:
            raise self.fail("a second `players` line", node)
        self.players = tuple(self.player_army(a) for a in armies)
        self.check_players(node, self.players)

    def stmt_turn(self, node: Tree[Token], number: Token, army: Token, *actions: Tree[Token]) -> None:
        self.army(army)
        self.entries.append(node)

    def turn(self, node: Tree[Token]) -> cards.Turn:
        number_child, army_child, *actions = node.children
        number, army_token = terminal(number_child), terminal(army_child)
        army = self.army(army_token)
        if self.players and army not in self.players:
            raise self.fail(f"{army} is not among the players", army_token)
        if int(str(number)[:-1]) < 1:
            raise self.fail("turns are numbered from 1", number)
        read = tuple(self.action(subtree(a), army) for a in actions)
        self.check_purchases_last([subtree(a) for a in actions], read)
        return cards.Turn(int(str(number)[:-1]), army, read, node.meta.line)

    def stmt_expect(self, node: Tree[Token], army: Token, hp: Token) -> None:
        self.entries.append(cards.ExpectHp(self.army(army), self.natural(hp, "expect hp"), node.meta.line))

    # --- actions ---
    def action(self, node: Tree[Token], army: str) -> Action:
        if node.data in ADDITION_ACTIONS:
            return self.addition_action(node, army)
        children = terminals(node)  # every action is made of terminals
        if node.data == "discard":
            return Discard(self.tile(children[0], army))
        if node.data == "place":
            tile_ = self.tile(children[0], army)
            if not tile_.is_unit and tile_.kind is not Kind.FOUNDATION:
                raise self.fail(f"{tile_.key} is an instant: play it with `use`, not `place`", children[0])
            facing = self.direction(children[2]) if len(children) > 2 else Direction.N
            if tile_.kind is Kind.FOUNDATION and facing is not Direction.N:
                raise self.fail(f"a foundation is placed facing N, not {facing.name}", children[2])
            by = normal_name(children[3]) if len(children) > 3 else None
            if by not in (None, "transporter"):
                raise self.fail(f"a tile is placed `by transporter` or from the hand, not by {str(children[3])!r}",
                                children[3])
            return Place(tile_, self.hex(children[1]), facing, by)
        if node.data == "use":
            return self.use(node, army)
        if node.data == "move":
            source, target = self.hex(children[0]), self.hex(children[1])
            rest = list(children[2:])
            by_token: Token | None = None
            new_facing: Direction | None = None
            if len(rest) == 2:
                new_facing, by_token = self.direction(rest[0]), rest[1]
            elif len(rest) == 1:
                # One word after the hexes: a facing, unless the `by` keyword came before it.
                if rest[0].type == "NAME" and _is_direction(rest[0]):
                    new_facing = self.direction(rest[0])
                else:
                    by_token = rest[0]
            by = "mobility" if by_token is None else self.move_source(by_token, source, target, new_facing)
            return Move(source, target, new_facing, by)
        if node.data == "hq":
            return PlaceHQ(self.hex(children[0]), self.direction(children[1]) if len(children) > 1 else Direction.N)
        if node.data == "draw":
            return Draw(tuple(self.tile(t, army) for t in children))
        if node.data == "pass_turn":
            return Pass()
        raise self.fail(f"unknown action {node.data}", node)  # pragma: no cover

    def use(self, node: Tree[Token], army: str) -> Use:
        tile_token, *arguments = terminals(node)
        tile_ = self.tile(tile_token, army)
        foundations: tuple[Hex, ...] = ()
        marker = next((i for i, a in enumerate(arguments) if a.type == "NAME" and normal_name(a) == "foundation"), None)
        if marker is not None:  # `use TILE TARGET … foundation HEX …` (NOTATION §10.3)
            listed = arguments[marker + 1:]
            if not listed or any(a.type != "HEX" for a in listed):
                raise self.fail("`foundation` is followed by the hexes whose foundation is hit", arguments[marker])
            foundations = tuple(self.hex(h) for h in listed)
            if len(set(foundations)) != len(foundations):
                raise self.fail("a hex is named twice after `foundation`", arguments[marker])
            arguments = arguments[:marker]
        if tile_.kind is not Kind.INSTANT:
            raise self.fail(f"{tile_.key} is a {tile_.kind} tile: put it on the board with `place`", tile_token)
        counts, takes_facing = INSTANT_ARGUMENTS.get(tile_.name, (None, False))
        if counts is None:
            raise self.fail(f"nhex does not know the arguments of instant {tile_.key}", tile_token)
        hexes = [a for a in arguments if a.type == "HEX"]
        words = [a for a in arguments if a.type != "HEX"]
        if any(arguments.index(w) < arguments.index(h) for w in words for h in hexes):
            raise self.fail("hexes come before the facing", words[0])
        if len(hexes) not in counts:
            raise self.fail(f"{tile_.name} takes {counts[0]} hex{'es' if counts[0] != 1 else ''}, not {len(hexes)}",
                            tile_token)
        if len(words) > (1 if takes_facing else 0):
            raise self.fail(f"unexpected {str(words[-1])!r}: {tile_.name} takes no facing" if not takes_facing
                            else f"unexpected {str(words[-1])!r}", words[-1])
        facing = self.direction(words[0]) if words else None
        return Use(tile_, tuple(self.hex(h) for h in hexes), facing, foundations)


def _is_direction(token: Token) -> bool:
    return str(token).upper() in Direction.__members__


def quote(text: str) -> str:
    return '"' + text.replace("\\", "\\\\").replace('"', '\\"') + '"'


# --- writing ---------------------------------------------------------------------------------------------------


def _position_lines(position: Position, *, skip_to_move: str | None = None) -> list[str]:
    lines = []
    if position.board is not STANDARD and position.board != STANDARD:
        lines.append(f"board {position.board}")
    if not position.rules.is_default:
        lines.append(str(position.rules))
    if position.to_move is not None and position.to_move != skip_to_move:
        lines.append(f"to-move {position.to_move}")
    lines += lines_before_units(position)
    lines += [str(u) for u in position.units]
    lines += [str(f) for f in position.foundations]
    lines += lines_after_units(position)
    lines += [" ".join(["hand", army, *(t.key for t in tiles)]) for army, tiles in position.hands]
    lines += [f"deck {army} {count}" for army, count in position.decks]
    return lines


def write_position(position: Position) -> str:
    return "\n".join(_position_lines(position)) + "\n"


def write_puzzle(puzzle: Puzzle) -> str:
    head = "puzzle" + (f" {puzzle.number}" if puzzle.number is not None else "") + f" {quote(puzzle.title)}"
    lines = [head]
    if puzzle.level is not None:
        lines.append(f"level {puzzle.level}")
    if puzzle.story is not None:
        lines.append(f"story {quote(puzzle.story)}")
    lines.append(f"player {puzzle.player}")
    lines.append(" ".join(["offer", *(t.key for t in puzzle.offer)]))
    if puzzle.play is not None:
        lines.append(f"play {puzzle.play}")
    lines.append(f"goal {puzzle.goal}")
    if puzzle.then != "final-battle":
        lines.append(f"then {puzzle.then}")
    lines += _position_lines(puzzle.position, skip_to_move=puzzle.player)
    if puzzle.solution is not None:
        lines.append("solution")
        lines += [str(a) for a in puzzle.solution]
    if puzzle.explanation is not None:
        lines.append(f"explanation {quote(puzzle.explanation)}")
    return "\n".join(lines) + "\n"


def write_game(game: GameRecord) -> str:
    lines = ["game", " ".join(["players", *game.players])]
    lines += _position_lines(game.position, skip_to_move=game.players[0] if game.players else None)
    for entry in game.entries:
        if isinstance(entry, cards.Turn):
            lines.append(f"{entry.number}. {entry.army}: " + "; ".join(str(a) for a in entry.actions))
        else:
            lines.append(str(entry))
    return "\n".join(lines) + "\n"


def write(document: Document) -> str:
    """The canonical text of any document."""
    if isinstance(document, Puzzle):
        return write_puzzle(document)
    if isinstance(document, GameRecord):
        return write_game(document)
    return write_position(document)
