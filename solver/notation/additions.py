"""Reading and writing the NOTATION §10 (v1.1) additions: Duel board, Babel 13 terrain and prizes, the Mad
Bomber, multiplayer, and the actions and record lines they bring.

:class:`AdditionsReader` is a mixin of :class:`solver.notation.text._Reader` (the v1 reader): it adds one
``stmt_*`` method per new statement, reads the new actions, and checks what only the whole file can tell
(a Turret's Base, a ``universal-N`` marker in play twice, the venom markers, the seating of teammates).
Kept apart from ``notation.py`` so that v1 stays as it was and each addition is found in one place.
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass, field
from functools import lru_cache
from typing import TYPE_CHECKING, Callable

if TYPE_CHECKING:
    from lark import Token, Tree
else:  # the notation's generated parser (solver/notation/make_parser.py) makes the tokens and trees read here
    from ._parser import Token, Tree

from ..errors import NotationError, RuleNotImplemented
from ..expansion import (COMPULSORY_FEATURES, PRIZE_NAMES, PRIZES_PER_UNIT, TERRAIN_ATTRIBUTES, TERRAIN_FEATURES,
                        UNIQUE_PRIZES, VENOM_PER_ARMY, Location, TerrainElement, Turret, prize_order)
from ..hexes import Direction, Hex
from ..position import MOVE_SOURCES, PROCEDURES, ROTATION_SOURCES, Position, Unit
from ..resources import terminals
from ..tiles import NEUTRAL_ARMY, Kind, MissingTileData, Tile, army_name, base_army, normal_name, tile

if TYPE_CHECKING:
    from ..action_values import Action, Procedure
    from ..hexes import Board
    from .scenarios import Reading

#: Statements of §10 that belong to game records only, and those that may also stand in positions.
GAME_ONLY = {"expect_winner", "expect_draw", "expect_score"}
ENERGY_PURCHASES = ("tile", "hq")
MAX_ENERGY = 5
MAX_SCORE = 20
MODES = ("deathmatch", "score")
ADDITION_ACTIONS = {"procedure", "push", "prize", "energy"}
#: The Neojungle army, whose venom markers are counted (NOTATION §10.3); data, not a rule branch.
VENOM_ARMY = "neojungle"


@dataclass
class Additions:
    """What the §10 statements of one file say, gathered while reading it."""

    terminals: list[Hex] = field(default_factory=list)
    terminals_node: Tree[Token] | None = None
    energy: dict[str, int] = field(default_factory=dict)
    energy_nodes: dict[str, Tree[Token]] = field(default_factory=dict)
    terrain: list[tuple[TerrainElement, Tree[Token]]] = field(default_factory=list)
    terrain_at: dict[Hex, int] = field(default_factory=dict)  # hex -> line of its element
    turrets: list[tuple[Turret, Tree[Token]]] = field(default_factory=list)
    held_prizes: dict[str, tuple[str, ...]] = field(default_factory=dict)
    prize_nodes: dict[str, Tree[Token]] = field(default_factory=dict)
    teams: list[tuple[tuple[str, str], Tree[Token]]] = field(default_factory=list)
    mode: str | None = None
    scores: dict[str, int] = field(default_factory=dict)
    score_nodes: list[Tree[Token]] = field(default_factory=list)
    scored: set[str] = field(default_factory=set)
    players_node: Tree[Token] | None = None
    locations: list[tuple[str, Location]] = field(default_factory=list)
    #: The scenario statements read so far (solver/notation/scenarios.py, imported only by a file that has one).
    scenario: Reading | None = None


#: Tiles by their text as written, with or without a default army (a file names the same tiles again and again;
#: issue 15). Only tiles found are kept: a name that is not a tile raises again each time it is looked up.
tile_named = lru_cache(maxsize=4096)(tile)


class AdditionsReader:
    """The §10 part of the notation reader (mixed into :class:`solver.notation.text._Reader`)."""

    if TYPE_CHECKING:  # provided by the v1 reader
        source: str
        board: Board
        kind: str
        in_solution: bool
        solution: list[tuple[Tree[Token], Action | None]] | None
        players: tuple[str, ...]
        entries: list
        placed: list[Unit]
        where: dict[int, dict[str, Tree[Token] | Token]]
        first_army: str | None

        def fail(self, message: str, node: Tree[Token] | Token) -> NotationError: ...
        def place(self, node: Tree[Token] | Token) -> tuple[int, int]: ...
        def army(self, token: Token) -> str: ...
        def hex(self, token: Token) -> Hex: ...
        def direction(self, token: Token) -> Direction: ...
        def tile(self, token: Token, default_army: str | None = None) -> Tile: ...
        def checked(self, node: Tree[Token] | Token, read: Callable, text: str) -> object: ...

    add: Additions

    def init_additions(self) -> None:
        self.add = Additions()

    def locate(self, key: str, node: Tree[Token] | Token) -> None:
        """Remember where the statement ``key`` stands (:meth:`Position.location`)."""
        self.add.locations.append((key, Location(self.source, *self.place(node))))

    def not_implemented(self, rule: str, node: Tree[Token] | Token) -> RuleNotImplemented:
        """A well-formed input that needs data or a rule nhex lacks: exit 4 at its place, never exit 2 (§9)."""
        return RuleNotImplemented(rule, *self.place(node), self.source)

    def player_army(self, token: Token) -> str:
        """An army a player commands: the mercenary pool is not one (NOTATION §10.4)."""
        name = self.army(token)
        if name == NEUTRAL_ARMY:
            raise self.fail(f"{NEUTRAL_ARMY} is not an army a player commands", token)
        return name

    def count(self, token: Token, what: str, most: int) -> int:
        if token.type == "INT" and len(token) > 9:  # NOTATION §1 readings: at most 9 digits (Python converts 4300)
            raise self.fail(f"{what} takes a number from 0 to {most}, not one of {len(token)} digits", token)
        if token.type != "INT" or not 0 <= int(token) <= most:
            raise self.fail(f"{what} takes a number from 0 to {most}, not {str(token)!r}", token)
        return int(token)

    def prize_names(self, token: Token, text: str) -> tuple[str, ...]:
        names = [normal_name(p) for p in text.split(",")]
        for name in names:
            if name not in PRIZE_NAMES:
                raise self.fail(f"unknown prize {name!r} (expected one of {' '.join(PRIZE_NAMES)})", token)
        return prize_order(names)

    # --- units: mercenaries, foundations, prizes -------------------------------------------------------------
    def unit_tile(self, token: Token, rest: tuple[Token | Tree[Token], ...]) -> Tile:
        """The tile of a unit line; a mercenary without data needs ``owner=`` (else bad input) and then a rule
        nhex lacks (NOTATION §10.4)."""
        try:
            tile_named(str(token))
        except MissingTileData as error:
            owners = [a for a in rest if isinstance(a, Tree) and normal_name(terminals(a)[0]) == "owner"]
            army, name = str(token).split(":", 1)
            if not owners and army_name(army) == NEUTRAL_ARMY:  # (a Structure's missing data needs no owner)
                raise self.fail(f"{normal_name(army)}:{normal_name(name)} needs owner=ARMY: only the Mad Bomber may "
                                "be neutral",
                                token) from None
            raise self.not_implemented(str(error), token) from None
        except ValueError:
            pass  # the v1 reader's message and place, below
        return self.tile(token)

    def check_unit_additions(self, unit: Unit, node: Tree[Token], parts: dict[str, Tree[Token] | Token]) -> None:
        """What §10 says about one unit line on its own (foundations, prizes, owners)."""
        tile_ = unit.tile
        if tile_.kind is Kind.FOUNDATION:
            attributes = [k for k in parts if k not in ("line", "hex", "tile", "facing")]
            if attributes:
                raise self.fail(f"a foundation takes no attributes ({attributes[0]}=)", parts[attributes[0]])
            if unit.facing is not Direction.N:
                raise self.fail(f"a foundation faces N, not {unit.facing.name}", parts.get("facing", node))
        if unit.prizes:
            if unit.is_hq:
                raise self.fail("prize markers never lie on an HQ", parts["prize"])
            if len(unit.prizes) > PRIZES_PER_UNIT:
                raise self.fail(f"a unit carries at most {PRIZES_PER_UNIT} prize markers, not {len(unit.prizes)}",
                                parts["prize"])
        if unit.owner == NEUTRAL_ARMY:
            raise self.fail(f"{NEUTRAL_ARMY} is not an army a player commands", parts["owner"])
        # A unit line starts with its hex: the hex's place is the line's (and a token's is at hand).
        self.locate(f"{'foundation' if tile_.kind is Kind.FOUNDATION else 'unit'} {unit.hex.label}", parts["hex"])

    # --- position statements (§10.2, §10.3, §10.5) -------------------------------------------------------------
    def stmt_terminals(self, node: Tree[Token], *hexes: Token) -> None:
        if self.add.terminals_node is not None:
            raise self.fail("a second `terminals` line", node)
        if not hexes:
            raise self.fail("`terminals` lists the Terminal hexes", node)
        for token in hexes:
            hex_ = self.hex(token)
            if hex_ in self.add.terminals:
                raise self.fail(f"hex {hex_.label} is named twice", token)
            self.add.terminals.append(hex_)
        self.add.terminals_node = node
        self.locate("terminals", node)

    def stmt_energy(self, node: Tree[Token], word: Token, value: Token) -> None:
        if normal_name(word) in ENERGY_PURCHASES:  # `energy tile TILE`, `energy hq N`: an action line
            if not self.in_solution:
                raise self.fail("an action line outside a solution (a puzzle's `solution` or a game record's turn)",
                                node)
            assert self.solution is not None
            self.solution.append((node, None))
            return
        if self.in_solution:
            raise self.fail("only action lines may follow `solution` (until `explanation`)", node)
        army = self.player_army(word)
        if army in self.add.energy_nodes:
            raise self.fail(f"a second `energy` line for {army}", node)
        points = self.count(value, "energy", MAX_ENERGY)
        self.add.energy_nodes[army] = node
        if points:  # 0 is the default and is not kept, so equal positions are equal
            self.add.energy[army] = points
        self.locate(f"energy {army}", node)

    def stmt_terrain(self, node: Tree[Token], type_token: Token, features_token: Token,
                     *rest: Token | Tree[Token]) -> None:
        type_ = normal_name(type_token)
        if type_ not in TERRAIN_FEATURES:
            raise self.fail(f"unknown terrain {str(type_token)!r} (expected one of {' '.join(TERRAIN_FEATURES)})",
                            type_token)
        allowed = TERRAIN_FEATURES[type_]
        features = [normal_name(f) for f in str(features_token).split(",")]
        for feature in features:
            if feature not in allowed:
                raise self.fail(f"{type_} has no feature {feature!r} (expected {' '.join(allowed)})", features_token)
        if len(set(features)) != len(features):
            raise self.fail("a feature is named twice", features_token)
        for compulsory in COMPULSORY_FEATURES.get(type_, ()):
            if compulsory not in features:
                raise self.fail(f"a {type_} is always {compulsory}: write it among its features", features_token)
        hex_tokens = [t for t in rest if isinstance(t, Token)]
        if "control-panel" in features and (len(features) > 1 or len(hex_tokens) != 1):
            raise self.fail("control-panel stands alone on a one-hex base line", features_token)
        if not hex_tokens:
            raise self.fail("a terrain line names its hexes", node)
        first_attribute = next((i for i, x in enumerate(rest) if isinstance(x, Tree)), len(rest))
        late = next((x for x in rest[first_attribute:] if isinstance(x, Token)), None)
        if late is not None:
            raise self.fail("hexes come before the attributes", late)
        hexes: list[Hex] = []
        for token in hex_tokens:
            hex_ = self.hex(token)
            if hex_ in hexes:
                raise self.fail(f"hex {hex_.label} is named twice", token)
            if hex_ in self.add.terrain_at:
                raise self.fail(f"hex {hex_.label} is already in the terrain element of line "
                                f"{self.add.terrain_at[hex_]}; a hex is in at most one", token)
            hexes.append(hex_)
        values: dict = {}
        for item in (x for x in rest if isinstance(x, Tree)):
            name_token, value_token = terminals(item)
            name, value = normal_name(name_token), str(value_token)
            if name not in TERRAIN_ATTRIBUTES:
                raise self.fail(f"unknown terrain attribute {name!r} (expected {', '.join(TERRAIN_ATTRIBUTES)})",
                                name_token)
            if type_ not in TERRAIN_ATTRIBUTES[name]:
                raise self.fail(f"{name}= is for a {' or '.join(TERRAIN_ATTRIBUTES[name])} line", name_token)
            key = name.replace("-", "_")
            if key in values:
                raise self.fail(f"{name}= is given twice", name_token)
            if name in ("strength", "wounds"):
                if not value.isdigit():
                    raise self.fail(f"{name}= takes a whole number, not {value!r}", value_token)
                values[key] = int(value)
            elif name == "prizes":
                values[key] = self.prize_names(value_token, value)
            else:  # damaged-by
                values[key] = tuple(self.player_army(Token("NAME", a, start_pos=value_token.start_pos,
                                                           line=value_token.line, column=value_token.column))
                                    for a in value.split(","))
        element = TerrainElement(type_, tuple(features), tuple(hexes), **values)
        for hex_ in hexes:
            self.add.terrain_at[hex_] = self.place(node)[0]
        self.add.terrain.append((element, node))
        self.locate(f"terrain {element.hexes[0].label}", node)

    def stmt_turret(self, node: Tree[Token], hex_token: Token, *rest: Token | Tree[Token]) -> None:
        hex_ = self.hex(hex_token)
        facing: Direction | None = None
        owner: str | None = None
        for item in rest:
            if isinstance(item, Token):
                if facing is not None:
                    raise self.fail(f"a second facing {str(item)!r}: a turret has one facing", item)
                facing = self.direction(item)
                continue
            name_token, value_token = terminals(item)
            if normal_name(name_token) != "owner":
                raise self.fail(f"unknown turret attribute {normal_name(name_token)!r} (expected owner)", name_token)
            if owner is not None:
                raise self.fail("owner= is given twice", name_token)
            owner = self.player_army(value_token)
        if facing is None:
            raise self.fail("a turret needs its facing: `turret HEX FACING`", node)
        if any(t.hex == hex_ for t, _ in self.add.turrets):
            raise self.fail(f"hex {hex_.label} already holds a turret", hex_token)
        self.add.turrets.append((Turret(hex_, facing, owner), node))
        self.locate(f"turret {hex_.label}", node)

    def stmt_prizes(self, node: Tree[Token], army_token: Token, *names: Token) -> None:
        army = self.player_army(army_token)
        if army in self.add.held_prizes:
            raise self.fail(f"a second `prizes` line for {army}", node)
        if not names:
            raise self.fail("`prizes ARMY NAME …` lists at least one marker", node)
        held: list[str] = []
        for token in names:
            held += self.prize_names(token, str(token))
        self.add.held_prizes[army] = prize_order(held)
        self.add.prize_nodes[army] = node
        self.locate(f"prizes {army}", node)

    def stmt_team(self, node: Tree[Token], *armies: Token) -> None:
        if len(armies) != 2:
            raise self.fail("a team is two armies: `team ARMY ARMY`", node)
        first, second = (self.player_army(a) for a in armies)
        if first == second:
            raise self.fail(f"{first} is named twice in one team", armies[1])
        for token, army in zip(armies, (first, second)):
            if any(army in team for team, _ in self.add.teams):
                raise self.fail(f"{army} is already in a team", token)
        self.add.teams.append(((first, second), node))
        if len(self.add.teams) == 1:
            self.locate("team", node)

    def stmt_mode(self, node: Tree[Token], name_token: Token) -> None:
        if self.add.mode is not None:
            raise self.fail("a second `mode` line", node)
        mode = normal_name(name_token)
        if mode not in MODES:
            raise self.fail(f"`mode` takes {' or '.join(MODES)}, not {str(name_token)!r}", name_token)
        self.add.mode = mode
        self.locate("mode", node)

    def stmt_score(self, node: Tree[Token], army_token: Token, value: Token) -> None:
        army = self.player_army(army_token)
        if army in self.add.scored:
            raise self.fail(f"a second `score` line for {army}", node)
        self.add.scored.add(army)
        points = self.count(value, "score", MAX_SCORE)
        if points:
            self.add.scores[army] = points
        self.add.score_nodes.append(node)
        self.locate(f"score {army}", node)

    # --- record lines (§10.7) -------------------------------------------------------------------------------
    def stmt_scenario_rule(self, node: Tree[Token], *_: Token | Tree[Token]) -> None:
        """A scenario statement (README, notation extensions; read by solver/notation/scenarios.py)."""
        from . import scenarios

        if self.add.scenario is None:
            self.add.scenario = scenarios.Reading()
        scenarios.read_statement(self, self.add.scenario, node)

    def stmt_expect_winner(self, node: Tree[Token], *armies: Token) -> None:
        from . import cards  # game records only: a position does not import it

        names = tuple(self.player_army(a) for a in armies)
        self.entries.append(cards.ExpectWinner(names, self.place(node)[0], self.location_of(node)))

    def stmt_expect_draw(self, node: Tree[Token]) -> None:
        from . import cards

        self.entries.append(cards.ExpectDraw(self.place(node)[0], self.location_of(node)))

    def stmt_expect_score(self, node: Tree[Token], army: Token, value: Token) -> None:
        from . import cards

        self.entries.append(cards.ExpectScore(self.player_army(army), self.count(value, "expect score", MAX_SCORE),
                                              self.place(node)[0], self.location_of(node)))

    def location_of(self, node: Tree[Token]) -> Location:
        return Location(self.source, *self.place(node))

    def check_players(self, node: Tree[Token], players: tuple[str, ...]) -> None:
        """2 to 4 players; one named twice only as the Loner of 1 vs a team, four names in all (§10.5)."""
        if len(players) > 4 and self.kind == "game":  # a position's `players` only seats labels (solver/mirror.py)
            raise self.fail(f"`players` names at most 4 armies, not {len(players)}", node)
        counts = Counter(players)
        if len(counts) != len(players) and not (len(players) == 4 and len(counts) == 3):
            # Two players of one army are told apart by a label (a mirror match: solver/mirror.py, README).
            twice = next(name for name, n in counts.items() if n > 1)
            raise self.fail(f"{twice} is named twice: only the Loner of 1 vs a team is (four names); two players "
                            f"of one army take labels, as in `players {twice}/a {twice}/b`", node)
        self.add.players_node = node

    # --- actions (§10.2, §10.3) -------------------------------------------------------------------------------
    def addition_action(self, node: Tree[Token], army: str) -> Action:
        from ..action_values import BuyEnergy, Push, PutPrize

        children = terminals(node)
        if node.data == "procedure":
            return self.procedure(node, children)
        if node.data == "push":
            pusher, target, destination = (self.hex(c) for c in children)
            return Push(pusher, target, destination)
        if node.data == "prize":
            return PutPrize(self.prize_names(children[0], str(children[0]))[0], self.hex(children[1]))
        word, value = children  # energy
        if normal_name(word) not in ENERGY_PURCHASES:
            raise self.fail(f"`energy` in a turn buys Energy: `energy tile TILE` or `energy hq N`, not {str(word)!r}",
                            word)
        if normal_name(word) == "tile":
            if value.type != "TILE":
                raise self.fail(f"`energy tile` names a tile, not {str(value)!r}", value)
            return BuyEnergy(tile=self.tile(value, army))
        if value.type != "INT" or int(value) < 1:
            raise self.fail(f"`energy hq` takes a number of HQ health points from 1, not {str(value)!r}", value)
        return BuyEnergy(hq_health=int(value))

    def procedure(self, node: Tree[Token], children: list[Token]) -> Procedure:
        from ..action_values import Procedure

        kind_token, *arguments = children
        kind = normal_name(kind_token)
        if kind not in PROCEDURES:
            raise self.fail(f"unknown procedure {str(kind_token)!r} (expected one of {' '.join(PROCEDURES)})",
                            kind_token)
        hex_count, facing_count, _ = PROCEDURES[kind]
        hexes = [a for a in arguments if a.type == "HEX"]
        words = [a for a in arguments if a.type != "HEX"]
        if any(arguments.index(w) < arguments.index(h) for w in words for h in hexes):
            raise self.fail("hexes come before the facings", words[0])
        if len(hexes) != hex_count:
            raise self.fail(f"procedure {kind} takes {hex_count} hex{'es' if hex_count != 1 else ''}, not "
                            f"{len(hexes)}", kind_token)
        if len(words) != facing_count:
            where = words[facing_count] if len(words) > facing_count else kind_token
            raise self.fail(f"procedure {kind} takes {facing_count or 'no'} facing{'s' if facing_count != 1 else ''},"
                            f" not {len(words)}", where)
        read = [self.hex(h) for h in hexes]
        if len(set(read)) != len(read):
            raise self.fail(f"procedure {kind} names one hex twice", node)
        return Procedure(kind, tuple(read), tuple(self.direction(w) for w in words))

    def check_purchases_last(self, nodes: list[Tree[Token]], actions: tuple[Action, ...]) -> None:
        """Purchases come last in a turn: `energy …` may only be followed by `energy …` (NOTATION §10.2)."""
        from ..action_values import BuyEnergy

        bought = False
        for node, action in zip(nodes, actions):
            if bought and not isinstance(action, BuyEnergy):
                raise self.fail("purchases come last in a turn: only `energy …` may follow `energy …`", node)
            bought = bought or isinstance(action, BuyEnergy)

    def move_source(self, by_token: Token, source: Hex, target: Hex, facing: Direction | None) -> str:
        by = normal_name(by_token)
        if by not in MOVE_SOURCES:
            raise self.fail(f"unknown source of a free move {str(by_token)!r} (expected {' '.join(MOVE_SOURCES)})",
                            by_token)
        if by in ROTATION_SOURCES and (source != target or facing is None):
            raise self.fail(f"a move by {by} is a rotation in place: `move HEX HEX FACING by {by}`, the same hex "
                            "twice", by_token)
        return by

    # --- the whole file ---------------------------------------------------------------------------------------
    def addition_fields(self) -> dict:
        """The §10 fields of the :class:`Position` being read."""
        return {
            "terminals": tuple(self.add.terminals), "energy": tuple(self.add.energy.items()),
            "terrain": tuple(e for e, _ in self.add.terrain), "turrets": tuple(t for t, _ in self.add.turrets),
            "held_prizes": tuple(self.add.held_prizes.items()), "teams": tuple(t for t, _ in self.add.teams),
            "mode": self.add.mode or "deathmatch", "scores": tuple(self.add.scores.items()),
            "locations": tuple(self.add.locations), "scenario": self.add.scenario and self.add.scenario.value(),
            "seats": self.players if self.kind != "game" else (),  # a record's are GameRecord.players
        }

    def check_additions(self, position: Position) -> None:
        """What §10 says about the file as a whole, each reported at the line that breaks it."""
        self.check_turrets()
        self.check_unique_prizes(position)
        self.check_venom(position)
        if self.add.score_nodes and self.add.mode != "score":
            raise self.fail("`score` belongs to the score mode (write `mode score`)", self.add.score_nodes[0])
        if self.kind == "game":
            self.check_seating()
        problem = None
        if position.scenario is not None:
            from .scenarios import consistency_problem

            problem = consistency_problem(position, self.source, record=self.kind == "game")
        if problem is not None:
            where = position.location(problem[0])
            raise NotationError(problem[1], where.line if where else 1, where.column if where else 1, self.source)

    def check_turrets(self) -> None:
        for turret, node in self.add.turrets:
            element = next((e for e, _ in self.add.terrain if turret.hex in e.hexes), None)
            if element is None or element.type not in ("base", "bunker") or not element.has("turrets"):
                raise self.fail(f"a turret stands on a base or bunker hex whose element has turrets; "
                                f"{turret.hex.label} is not one", node)

    def check_unique_prizes(self, position: Position) -> None:
        """A ``universal-N`` marker is in play at most once: on units, held, and in every Warehouse hex."""
        if not (self.add.held_prizes or self.add.terrain or any(unit.prizes for unit in self.placed)):
            return  # no marker anywhere (most positions)
        seen: list[tuple[int, int, str, Tree[Token] | Token]] = []
        for unit in self.placed:
            for name in unit.prizes:
                part = self.where[id(unit)].get("prize", self.where[id(unit)]["line"])
                seen.append((*self.place(part), name, part))
        for army, names in self.add.held_prizes.items():
            node = self.add.prize_nodes[army]
            seen += [(*self.place(node), name, node) for name in names]
        for element, node in self.add.terrain:
            seen += [(*self.place(node), name, node) for name in element.prizes for _ in element.hexes]
        counts: Counter[str] = Counter()
        for _, _, name, part in sorted(seen, key=lambda s: (s[0], s[1])):
            counts[name] += 1
            if name in UNIQUE_PRIZES and counts[name] == 2:
                raise self.fail(f"the {name} prize marker is in play twice; there is one", part)

    def check_venom(self, position: Position) -> None:
        """At most 2 venom markers on the board for each Neojungle army in the position (§10.3)."""
        if not any(unit.venom for unit in self.placed):
            return
        allowed = VENOM_PER_ARMY * sum(base_army(a) == VENOM_ARMY for a in position.armies)  # neojungle/b too
        total = 0
        for unit in self.placed:
            total += unit.venom
            if total > allowed:
                part = self.where[id(unit)].get("venom", self.where[id(unit)]["line"])
                raise self.fail(f"{total} venom marker{'s' if total != 1 else ''} on the board, but at most {allowed} "
                                f"({VENOM_PER_ARMY} for each Neojungle army in the position)", part)

    def check_seating(self) -> None:
        """Teammates may not take consecutive turns (3E TEAM MATCH, PLAYER ORDER; 1 PLAYER VS A TEAM)."""
        players = self.players
        teams = [set(team) for team, _ in self.add.teams]
        for team, node in self.add.teams:
            for army in team:
                if army not in players:
                    raise self.fail(f"{army} is not among the players", node)
        counts = Counter(players)
        loners = [a for a, n in counts.items() if n == 2]
        if loners:  # 1 vs a team: the others are one team
            teams.append({a for a in players if a != loners[0]})
        if not players or self.add.players_node is None:
            return
        for index, army in enumerate(players):
            following = players[(index + 1) % len(players)]
            if len(players) > 1 and (army == following or any({army, following} <= team for team in teams)):
                raise self.fail(f"{army} and {following} take consecutive turns; teammates may not (3E TEAM MATCH, "
                                "PLAYER ORDER)" if army != following else
                                f"{army} takes two consecutive turns (3E 1 PLAYER VS A TEAM, PLAYING ORDER)",
                                self.add.players_node)


# --- writing --------------------------------------------------------------------------------------------------


def lines_before_units(position: Position) -> list[str]:
    """The §10 statements written after `rules` and before the units (canonical order)."""
    lines = []
    if position.mode != "deathmatch":
        lines.append(f"mode {position.mode}")
    lines += [" ".join(["team", *team]) for team in position.teams]
    lines += [f"score {army} {points}" for army, points in position.scores]
    if position.terminals:
        lines.append(" ".join(["terminals", *(h.label for h in position.terminals)]))
    lines += [str(element) for element in position.terrain]
    lines += [str(turret) for turret in position.turrets]
    if position.scenario is not None:
        lines += position.scenario.lines()
    return lines


def lines_after_units(position: Position) -> list[str]:
    """The §10 statements written after the units and foundations, before the hands."""
    lines = [f"energy {army} {points}" for army, points in position.energy]
    lines += [" ".join(["prizes", army, *names]) for army, names in position.held_prizes]
    return lines
