"""Scenarios: the conditions a Babel 13 scenario adds to a game, read, written and applied (README, notation
extensions, "Scenarios and the campaign").

B13 THE GENERAL PRINCIPLE OF CREATING SCENARIOS AND CAMPAIGNS: "A Neuroshima Hex scenario is a single game which
applies additional conditions to the basic rules of the game ... E.g. there can be a requirement that a particular
army's HQ must be on a certain type of Terrain ... Determine the victory conditions ... Determine the first player."
The board, its terrain, Warehouses and allied units are written with NOTATION §10 statements; what a scenario adds
besides is one :class:`Scenario` value, written as these statements (each one line, any order)::

    scenario babel13-2                        # the book's scenario: brings in its lines (solver/terrain/babel13.scenarios)
    first-player new-york                     # who must be the first player (SCENARIO 1, Start)
    hq-terrain new-york on wasteland          # where an army's HQ must (on) or must not (not-on) be placed
    start-hp neojungle 17                     # the HQ's Hit Points as it is placed (the campaign's carried health)
    free-turns new-york 2                     # SCENARIO 2, Start: free turns after its HQ, before the other HQ
    victory fewer-injuries tie=neojungle      # SPECIAL CAMPAIGN RULES: the HQ with fewer injuries wins
    recover neojungle 4                       # SCENARIO 4, Start: Hit Points regained before the scenario
    warehouse-needs outpost in bunker         # SCENARIO 4: the Warehouse opens only while an Outpost unit is there
    radio universal-1                         # SCENARIO 4: the Prize marker that is the radio
    reinforcements new-york hegemony 3 radio=captured   # SCENARIO 5: allied units under a player's command
    survivors neojungle moloch                # SCENARIO 4, 5: allied units come back only as far as they survived

Where the book's scenario depends on the previous one, its data says so with two words that stand for the campaign's
result: ``previous-winner`` (an army) and ``injury-difference`` (a number), and ``radio=captured|lost``. A lone record
holding them cannot be played (exit 4, naming what is missing) unless it writes the value itself; ``nhex campaign``
fills them in from the previous scenarios (:mod:`solver.turns.campaign`).

The rules played here are one function each, called from one place of the turn rules and the game: ``hq_barred``
(the family in :mod:`solver.abilities.scenario`), :func:`placed_hq`, :func:`following`, :func:`opening_limit`,
:func:`decide`, :func:`settle` (the radio) and :func:`start_problem`.
"""

from __future__ import annotations

from dataclasses import dataclass, field, replace
from functools import lru_cache
import os
from typing import TYPE_CHECKING, Any, Iterable

from ..expansion import PRIZE_NAMES, TERRAIN_FEATURES, TerrainElement
from ..tiles import NEUTRAL_ARMY

if TYPE_CHECKING:
    from lark import Token, Tree

    from ..hexes import Hex
    from ..position import Position, Unit

#: Words that stand for the previous scenario's result in the book's data (and in a record played in a campaign).
PREVIOUS_WINNER = "previous-winner"
INJURY_DIFFERENCE = "injury-difference"
#: How a scenario's winner is decided; the only kind the book describes (SPECIAL CAMPAIGN RULES).
VICTORIES = ("fewer-injuries",)
RADIO_CONDITIONS = ("captured", "lost")
MAX_HP = 20

GENERAL = "B13 THE GENERAL PRINCIPLE OF CREATING SCENARIOS AND CAMPAIGNS"


@dataclass(frozen=True, slots=True)
class Scenario:
    """What one file's scenario statements say (only what is written: the book's lines a ``scenario NAME`` brings in
    are added by :func:`effective`, so writing a file back gives the same lines)."""

    name: str | None = None
    title: str | None = None
    first_player: str | None = None
    #: (army, on, terrain type): ``on`` True for "must be placed on", False for "cannot be placed on".
    hq_terrain: tuple[tuple[str, bool, str], ...] = ()
    start_hp: tuple[tuple[str, int], ...] = ()
    #: (army or previous-winner, N or None for the injury difference)
    free_turns: tuple[str, int | None] | None = None
    victory: str | None = None
    tie: str | None = None
    recover: tuple[tuple[str, int], ...] = ()
    #: (army of the units, terrain type)
    warehouse_needs: tuple[tuple[str, str], ...] = ()
    radio: str | None = None
    #: (army commanding, army of the tiles, at most N units, radio condition or None)
    reinforcements: tuple[tuple[str, str, int, str | None], ...] = ()
    #: (army commanding, army of the tiles): allied units that come back from earlier scenarios, as many as survived
    survivors: tuple[tuple[str, str], ...] = ()
    #: (army commanding, army of the tiles, on, terrain type): where a ``reinforcements`` line's units are put at the
    #: start (``on=TYPE``: only there; ``not-on=TYPE``: never there), written on that line
    places: tuple[tuple[str, str, bool, str], ...] = ()
    #: (army commanding, army of the tiles): ``reinforcements`` lines with ``exact=yes``, whose N units are all put
    #: on the board ("selects 5 Moloch units ... and puts them on the board"), not at most N
    exact: tuple[tuple[str, str], ...] = ()

    def __post_init__(self) -> None:
        for name in ("hq_terrain", "start_hp", "recover", "warehouse_needs", "reinforcements", "survivors", "places",
                     "exact"):
            object.__setattr__(self, name, tuple(sorted(getattr(self, name), key=lambda x: tuple(map(str, x)))))

    def lines(self) -> list[str]:
        """The canonical statements, in the order of the module docstring."""
        lines = []
        if self.name is not None:
            lines.append(f"scenario {self.name}" + (f" {_quote(self.title)}" if self.title is not None else ""))
        if self.first_player is not None:
            lines.append(f"first-player {self.first_player}")
        lines += [f"hq-terrain {army} {'on' if on else 'not-on'} {type_}" for army, on, type_ in self.hq_terrain]
        lines += [f"start-hp {army} {hp}" for army, hp in self.start_hp]
        if self.free_turns is not None:
            army, count = self.free_turns
            lines.append(f"free-turns {army} {INJURY_DIFFERENCE if count is None else count}")
        if self.victory is not None:
            lines.append(f"victory {self.victory}" + (f" tie={self.tie}" if self.tie else ""))
        lines += [f"recover {army} {hp}" for army, hp in self.recover]
        lines += [f"warehouse-needs {army} in {type_}" for army, type_ in self.warehouse_needs]
        if self.radio is not None:
            lines.append(f"radio {self.radio}")
        lines += [f"reinforcements {army} {ally} {n}" + (f" radio={cond}" if cond else "")
                  + "".join(f" {'on' if on else 'not-on'}={type_}" for who, of, on, type_ in self.places
                            if (who, of) == (army, ally))
                  + (" exact=yes" if (army, ally) in self.exact else "")
                  for army, ally, n, cond in self.reinforcements]
        lines += [f"survivors {army} {ally}" for army, ally in self.survivors]
        return lines

    def __str__(self) -> str:
        return "\n".join(self.lines())

    def rotated(self, steps: int = 1) -> Scenario:
        return self  # names armies and terrain types, never a hex

    # --- what it says ---
    def hp_at_start(self, army: str) -> int | None:
        return next((hp for name, hp in self.start_hp if name == army), None)

    def free_turns_of(self, army: str) -> int | None:
        """How many free turns ``army`` takes after placing its HQ (None: it takes none)."""
        if self.free_turns is None or self.free_turns[0] != army:
            return None
        return self.free_turns[1]


def _quote(text: str) -> str:
    return '"' + text.replace("\\", "\\\\").replace('"', '\\"') + '"'


# --- the book's scenarios: data ------------------------------------------------------------------------------------

#: The book's scenarios (a path as text: a start that reads a position imports no pathlib, tests/test_startup.py).
DATA = os.path.join(os.path.dirname(os.path.dirname(__file__)), "terrain", "babel13.scenarios")
DATA_NAME = os.path.basename(DATA)


@lru_cache(maxsize=None)
def book() -> dict[str, Scenario]:
    """The scenarios of ``solver/terrain/babel13.scenarios``, by name: each block from its ``scenario`` line to the
    next is read as a position of scenario statements (the notation's own reader)."""
    from .text import parse_position

    with open(DATA, encoding="utf-8") as stream:
        text = stream.read()
    blocks: list[tuple[int, list[str]]] = []
    for number, line in enumerate(text.splitlines(keepends=True)):
        if line.split("#")[0].strip().lower().startswith("scenario "):
            blocks.append((number, []))
        if blocks:
            blocks[-1][1].append(line)
        elif line.split("#")[0].strip():
            raise ValueError(f"{DATA_NAME}:{number + 1}: a line before the first `scenario` line")
    found = {}
    for first, block in blocks:
        # Blank lines before the block keep the data file's line numbers in its error messages.
        scenario = parse_position("\n" * first + "".join(block), DATA_NAME).scenario
        assert scenario is not None and scenario.name is not None
        found[scenario.name] = scenario
    return found


def effective(scenario: Scenario | None) -> Scenario | None:
    """The scenario with the book's lines of ``scenario NAME`` added; a written line replaces the book's line of
    the same kind (for the same army)."""
    if scenario is None or scenario.name is None:
        return scenario
    return _merged(scenario)


@lru_cache(maxsize=256)
def _merged(scenario: Scenario) -> Scenario:
    base = book()[scenario.name]  # type: ignore[index]

    def by_army(written: tuple, given: tuple) -> tuple:
        armies = {entry[0] for entry in written}
        return tuple(entry for entry in given if entry[0] not in armies) + written

    return Scenario(
        scenario.name, scenario.title or base.title,
        scenario.first_player or base.first_player,
        by_army(scenario.hq_terrain, base.hq_terrain),
        by_army(scenario.start_hp, base.start_hp),
        scenario.free_turns or base.free_turns,
        scenario.victory or base.victory,
        scenario.tie or base.tie,
        by_army(scenario.recover, base.recover),
        scenario.warehouse_needs or base.warehouse_needs,
        scenario.radio or base.radio,
        scenario.reinforcements or base.reinforcements,
        scenario.survivors or base.survivors,
        scenario.places if scenario.reinforcements else base.places,
        scenario.exact if scenario.reinforcements else base.exact,
    )


def of(position: Position) -> Scenario | None:
    """The position's scenario with the book's lines in."""
    return effective(position.scenario)


def source(scenario: Scenario, part: str = "") -> str:
    """The passage a scenario's rule comes from: the book's scenario (and its ``part``: Start, Additional Rules), or
    the scenario's own lines under the general principle."""
    if scenario.name is not None and scenario.name.startswith("babel13-"):
        number = scenario.name.removeprefix("babel13-")
        return f"B13 SCENARIO {number}" + (f": {scenario.title}" if scenario.title else "") + (f", {part}" if part else "")
    return f"the scenario's lines; {GENERAL}"


# --- reading (called by the notation reader, solver/notation/additions.py) ----------------------------------------


@dataclass
class Reading:
    """The scenario statements of one file as they are read, each kind remembered with its line (a second line of
    one kind for one army is bad input there)."""

    parts: dict = field(default_factory=dict)
    seen: set = field(default_factory=set)

    def value(self) -> Scenario | None:
        if not self.parts:
            return None
        parts = dict(self.parts)
        for key in ("hq_terrain", "start_hp", "recover", "warehouse_needs", "reinforcements", "survivors", "places",
                    "exact"):
            if key in parts:
                parts[key] = tuple(parts[key])
        return Scenario(**parts)


def read_statement(reader: Any, reading: Reading, node: Tree[Token]) -> None:  # noqa: C901 - one branch per keyword
    """One scenario statement: checks its words and stores what it says in ``reading``, or raises the reader's
    located error (``reader``: the notation's reader, solver/notation/text.py)."""
    from ..tiles import normal_name

    word, *rest = node.children
    items: list[Any] = list(rest)
    keyword = normal_name(str(word))
    words = [item for item in items if not hasattr(item, "data")]
    attributes: dict[str, tuple[str, Any]] = {}
    for item in items:
        if hasattr(item, "data"):
            name, value = item.children
            key = normal_name(str(name))
            if key in attributes:
                raise reader.fail(f"{key}= is given twice", name)
            attributes[key] = (str(value), value)

    def expect(count: int, shape: str, allowed: tuple[str, ...] = ()) -> None:
        if len(words) != count or any(w.type == "STRING" for w in words) and keyword != "scenario":
            raise reader.fail(f"`{keyword}` takes {shape}", node)
        for key, (_, token) in attributes.items():
            if key not in allowed:
                raise reader.fail(f"`{keyword}` takes no {key}=" + (f" (only {', '.join(allowed)}=)" if allowed
                                                                     else ""), token)

    def once(key: object, token: Any) -> None:
        if key in reading.seen:
            raise reader.fail(f"a second `{keyword}` line" + (f" for {key[1]}" if isinstance(key, tuple) else ""),
                              token)
        reading.seen.add(key)

    def army(token: Any) -> str:
        name = reader.army(token) if token.type == "NAME" else None
        if name is None:
            raise reader.fail(f"expected an army, not {str(token)!r}", token)
        return name

    def army_or_previous(token: Any) -> str:
        if token.type == "NAME" and normal_name(str(token)) == PREVIOUS_WINNER:
            return PREVIOUS_WINNER
        return army(token)

    def number(token: Any, least: int, most: int, what: str) -> int:
        if token.type != "INT" or not least <= reader.integer(token, what, signed=True) <= most:
            raise reader.fail(f"{what} takes a number from {least} to {most}, not {str(token)!r}", token)
        return int(str(token))

    def terrain_type(token: Any) -> str:
        name = normal_name(str(token))
        if name not in TERRAIN_FEATURES:
            raise reader.fail(f"unknown terrain {str(token)!r} (expected one of {' '.join(TERRAIN_FEATURES)})", token)
        return name

    parts = reading.parts
    if keyword == "scenario":
        once("scenario", node)
        if not 1 <= len(words) <= 2 or words[0].type != "NAME" or (len(words) == 2 and words[1].type != "STRING"):
            raise reader.fail('`scenario` takes a name and, optionally, a title: scenario babel13-1 "First Meeting"',
                              node)
        expect(len(words), "a name and an optional title")
        name = normal_name(str(words[0]))
        if reader.source != DATA_NAME and name not in book():
            raise reader.fail(f"unknown scenario {name!r} (the book's: {' '.join(book())})", words[0])
        parts["name"] = name
        if len(words) == 2:
            parts["title"] = reader.string(words[1])
    elif keyword == "first-player":
        expect(1, "an army (or previous-winner)")
        once(keyword, node)
        parts["first_player"] = army_or_previous(words[0])
    elif keyword == "hq-terrain":
        expect(3, "an army, on or not-on, and a terrain type: hq-terrain new-york on wasteland")
        who = army(words[0])
        how = normal_name(str(words[1]))
        if how not in ("on", "not-on"):
            raise reader.fail(f"expected on or not-on, not {str(words[1])!r}", words[1])
        type_ = terrain_type(words[2])
        once((keyword, f"{who} {type_}"), node)
        parts.setdefault("hq_terrain", []).append((who, how == "on", type_))
    elif keyword == "start-hp":
        expect(2, "an army and its HQ's Hit Points: start-hp neojungle 17")
        who = army(words[0])
        once((keyword, who), node)
        parts.setdefault("start_hp", []).append((who, number(words[1], 1, MAX_HP, "start-hp")))
    elif keyword == "free-turns":
        expect(2, "an army (or previous-winner) and a number (or injury-difference): free-turns new-york 2")
        once(keyword, node)
        who = army_or_previous(words[0])
        if words[1].type == "NAME" and normal_name(str(words[1])) == INJURY_DIFFERENCE:
            count = None
        else:
            count = number(words[1], 0, MAX_HP, "free-turns")
        parts["free_turns"] = (who, count)
    elif keyword == "victory":
        expect(1, "how the scenario is won: victory fewer-injuries [tie=ARMY]", ("tie",))
        once(keyword, node)
        kind = normal_name(str(words[0]))
        if kind not in VICTORIES:
            raise reader.fail(f"unknown victory {str(words[0])!r} (expected {' '.join(VICTORIES)})", words[0])
        parts["victory"] = kind
        if "tie" in attributes:
            text, token = attributes["tie"]
            from ._parser import Token as LarkToken

            parts["tie"] = army(LarkToken("NAME", text, start_pos=token.start_pos, line=token.line,
                                          column=token.column))
    elif keyword == "recover":
        expect(2, "an army and the Hit Points its HQ regains: recover neojungle 4")
        who = army(words[0])
        once((keyword, who), node)
        parts.setdefault("recover", []).append((who, number(words[1], 1, MAX_HP, "recover")))
    elif keyword == "warehouse-needs":
        expect(3, "an army, in, and a terrain type: warehouse-needs outpost in bunker")
        who = army(words[0])
        if normal_name(str(words[1])) != "in":
            raise reader.fail(f"expected in, not {str(words[1])!r}", words[1])
        once((keyword, who), node)
        parts.setdefault("warehouse_needs", []).append((who, terrain_type(words[2])))
    elif keyword == "radio":
        expect(1, "the Prize marker that is the radio: radio universal-1")
        once(keyword, node)
        name = normal_name(str(words[0]))
        if name not in PRIZE_NAMES or not name.startswith("universal-"):
            raise reader.fail(f"the radio is a Universal marker (B13 UNIVERSAL MARKERS: 'physical objects connected "
                              f"with the scenario's story'), universal-1 to universal-4, not {str(words[0])!r}",
                              words[0])
        parts["radio"] = name
    elif keyword == "reinforcements":
        expect(3, "the commanding army, the army of the units and how many: reinforcements new-york hegemony 3",
               ("radio", "on", "not-on", "exact"))
        who, ally = army(words[0]), army(words[1])
        if who == ally:
            raise reader.fail("reinforcements are another army's units", words[1])
        count = number(words[2], 1, 35, "reinforcements")
        condition = None
        if "radio" in attributes:
            condition, token = normal_name(attributes["radio"][0]), attributes["radio"][1]
            if condition not in RADIO_CONDITIONS:
                raise reader.fail(f"radio= takes {' or '.join(RADIO_CONDITIONS)}, not {attributes['radio'][0]!r}",
                                  token)
        if "on" in attributes and "not-on" in attributes:
            raise reader.fail("on= and not-on= together: write the hexes' type the units go on, or the one they avoid",
                              attributes["not-on"][1])
        for key in ("on", "not-on"):
            if key in attributes:
                parts.setdefault("places", []).append((who, ally, key == "on", terrain_type(attributes[key][1])))
        if "exact" in attributes:
            value, token = normal_name(attributes["exact"][0]), attributes["exact"][1]
            if value not in ("yes", "no"):
                raise reader.fail(f"exact= takes yes or no, not {attributes['exact'][0]!r}", token)
            if value == "yes":
                parts.setdefault("exact", []).append((who, ally))
        once((keyword, f"{who} {ally}"), node)
        parts.setdefault("reinforcements", []).append((who, ally, count, condition))
    elif keyword == "survivors":
        expect(2, "the commanding army and the army of the units: survivors neojungle moloch")
        who, ally = army(words[0]), army(words[1])
        if who == ally:
            raise reader.fail("survivors are another army's units", words[1])
        once((keyword, f"{who} {ally}"), node)
        parts.setdefault("survivors", []).append((who, ally))
    else:  # pragma: no cover - the grammar's SCENARIO_WORD has no other word
        raise reader.fail(f"unknown statement {keyword}", node)
    reader.locate(keyword if keyword in ("scenario", "free-turns", "victory", "first-player", "radio")
                  else f"{keyword} {normal_name(str(words[0]))}", node)


def consistency_problem(position: Position, source_name: str, record: bool = True) -> tuple[str, str] | None:
    """What the scenario lines of a file contradict in its position, as (statement key, message), or None: an HQ
    that must be placed on a terrain type no terrain line has (it could never be placed), and a ``start-hp`` that
    differs from the health of that army's HQ already on the board at a game record's start; in a position (a
    moment of the scenario, ``record`` False) the HQ may have received injuries since (B13 SPECIAL CAMPAIGN RULES,
    NOTE), never have more. The book's data file has no board."""
    scenario = position.scenario
    if scenario is None or source_name == DATA_NAME:
        return None
    full = effective(scenario)
    assert full is not None
    types = {e.type for e in position.terrain}
    for army, on, type_ in full.hq_terrain:
        if on and type_ not in types and position.hq(army) is None:
            key = f"hq-terrain {army}" if any(a == army for a, _, _ in scenario.hq_terrain) else "scenario"
            return key, f"the {army} HQ must be placed on {type_}, but no terrain line is {type_}"
    for army, hp in scenario.start_hp:
        hq = position.hq(army)
        if hq is not None and (hq.hp != hp if record else hq.health > hp):
            return f"start-hp {army}", (f"start-hp {army} {hp}, but the {army} HQ on {hq.hex} has hp={hq.hp}"
                                        + ("" if record else ", more than it started the scenario with"))
    return None


# --- the rules -----------------------------------------------------------------------------------------------------


def hq_barred(position: Position, hex_: Hex, army: str) -> str | None:
    """Why ``army`` may not place its HQ on ``hex_`` (B13 SCENARIO 1, Start: "The NY HQ must be placed on Wasteland
    Terrain, and the Neojungle HQ must be placed in Forest"; SCENARIO 5: "The New York HQ cannot be placed in the
    Forest"), or None."""
    scenario = of(position)
    if scenario is None:
        return None
    type_here = next((e.type for e in position.terrain if hex_ in e.hexes), None)
    for who, on, type_ in scenario.hq_terrain:
        if who != army:
            continue
        if on and type_here != type_:
            return f"the {army} HQ must be placed on {type_} ({source(scenario, 'Start')})"
        if not on and type_here == type_:
            return f"the {army} HQ cannot be placed on {type_} ({source(scenario, 'Start')})"
    return None


def placed_hq(position: Position, army: str) -> Position:
    """The HQ just placed with the scenario's starting Hit Points (``start-hp``)."""
    scenario = of(position)
    hp = scenario.hp_at_start(army) if scenario is not None else None
    hq = position.hq(army)
    if hp is None or hq is None:
        return position
    return position.with_units([u if u is not hq else replace(u, hp=hp) for u in position.units])


def missing_result(scenario: Scenario | None) -> str | None:
    """What a lone record cannot know: the previous scenario's result its lines stand for (exit 4)."""
    if scenario is None:
        return None
    if scenario.free_turns is not None and (scenario.free_turns[0] == PREVIOUS_WINNER or scenario.free_turns[1] is None):
        return ("the previous scenario's winner and injuries (B13 SCENARIO 2: STEEL CONVOY, Start: 'takes as many free "
                "turns as difference in injuries received by the two HQs in the previous scenario'): write `free-turns "
                "ARMY N` or check the scenarios in order with `nhex campaign`")
    return None


def start_problem(scenario: Scenario | None, players: tuple[str, ...]) -> str | None:
    """Why the seating breaks the scenario's first player, or None."""
    if scenario is None or scenario.first_player in (None, PREVIOUS_WINNER) or not players:
        return None
    if players[0] != scenario.first_player:
        return f"{scenario.first_player} is the first player ({source(scenario, 'Start')})"
    return None


def reinforcement_problem(scenario: Scenario | None, position: Position) -> str | None:
    """Why the allied units at the start break the scenario's reinforcements: more units of the ally than its line
    allows (a campaign sets the line the radio rules out to 0), or units of two conditional lines (only one side gets
    reinforcements)."""
    if scenario is None or not (scenario.reinforcements or scenario.survivors):
        return None
    # Where a scenario says which allied units its players may have, an allied unit it does not name is not allowed
    # (SCENARIO 2: "The surviving Allied units will appear in Scenarios 4 and 5, but not 3!").
    allowed = {(who, ally) for who, ally, _, _ in scenario.reinforcements} | set(scenario.survivors)
    for unit in position.units:
        if unit.owner and unit.tile.army != unit.owner and (unit.owner, unit.tile.army) not in allowed \
                and unit.tile.army != NEUTRAL_ARMY:
            return (f"{unit.tile.key} on {unit.hex} is commanded by {unit.owner}, but this scenario gives {unit.owner} "
                    f"no {unit.tile.army} units ({source(scenario)})")
    used = []
    for who, ally, most, condition in scenario.reinforcements:
        count = sum(1 for u in position.units if u.owner == who and u.tile.army == ally)
        if count:
            used.append((who, condition))
        if count > most and most == 0:  # a campaign has settled the condition (solver.turns.campaign)
            return (f"{count} {ally} unit{'s' if count != 1 else ''} commanded by {who} at the start, but {who} gets no "
                    f"reinforcements: the radio was {'not ' if condition == 'captured' else ''}captured in the previous "
                    f"scenario ({source(scenario, 'Start')})")
        if count > most:
            return (f"{count} {ally} units commanded by {who} at the start, but its reinforcements are at most "
                    f"{most} ({source(scenario, 'Start')})")
        if (who, ally) in scenario.exact and position.rules.option("allied-setup-count") == "exact":
            # "selects 5 Moloch units ... and puts them on the board": all of them, as far as the hexes they go on
            # (``on=``) hold them
            room = [sum(len(e.hexes) for e in position.terrain if e.type == type_)
                    for w, a, on, type_ in scenario.places if (w, a) == (who, ally) and on]
            needed = min([most, *room])
            if count < needed:
                return (f"{count} {ally} unit{'s' if count != 1 else ''} commanded by {who} at the start, but the "
                        f"scenario puts {needed} on the board ({source(scenario, 'System board')}; rule option "
                        f"allied-setup-count)")
    if len({c for _, c in used if c is not None}) > 1:
        return f"both sides have reinforcements, but only one gets them ({source(scenario)}: radio)"
    return None


def place_problem(scenario: Scenario | None, position: Position) -> tuple[Unit, str] | None:
    """The first allied unit at the start that stands where its ``reinforcements`` line does not put it, and why
    (``on=``/``not-on=``), or None: B13 SCENARIO 2, System board: "puts them on the board (not on the Hill)"; SCENARIO 3: "puts it on any Bunker
    hex"; SCENARIO 4: "puts them in Bunker hexes". Which hexes are of a type is the position's ``terrain`` lines (the
    book's boards are pictures). The ordinary limits ("any board hexes available to Neojungle", SCENARIO 2: no
    Closed, Fatal or enemy-held Tight hex, no Jungle for a Toughness icon) are the position's own (bad input), and
    "except HQ" is too: the notation has no allied HQ (``owner=`` on an HQ is bad input)."""
    if scenario is None or not scenario.places:
        return None
    types = {h: e.type for e in position.terrain for h in e.hexes}
    for unit in sorted(position.units, key=lambda u: (u.hex.label, u.tile.key)):
        if not unit.owner or unit.tile.army == unit.owner:
            continue
        for who, ally, on, type_ in scenario.places:
            if (who, ally) != (unit.owner, unit.tile.army):
                continue
            here = types.get(unit.hex)
            if on and here != type_:
                return unit, (f"{unit.tile.key} on {unit.hex} is not on {type_}: {who}'s {ally} units are put on {type_} "
                        f"hexes at the start ({source(scenario, 'System board')})")
            if not on and here == type_:
                return unit, (f"{unit.tile.key} on {unit.hex} is on {type_}: {who}'s {ally} units are not put on {type_} "
                        f"at the start ({source(scenario, 'System board')})")
    return None


def radio_lost(position: Position) -> bool:
    """B13 SCENARIO 4, Additional Rules: "If there is not an Outpost unit in the Bunker, the radio is destroyed":
    whether no unit of a ``warehouse-needs`` army stands in its terrain."""
    scenario = of(position)
    if scenario is None or not scenario.warehouse_needs:
        return False
    return not all(_guarded(position.units, position.terrain, army, type_) for army, type_ in scenario.warehouse_needs)


def _guarded(units: Iterable[Unit], terrain: tuple[TerrainElement, ...], army: str, type_: str) -> bool:
    hexes = {h for e in terrain if e.type == type_ for h in e.hexes}
    return any(u.tile.army == army and u.hex in hexes for u in units)


def guarded(units: Iterable[Unit], position: Position) -> bool:
    scenario = of(position)
    assert scenario is not None
    units = list(units)
    return all(_guarded(units, position.terrain, army, type_) for army, type_ in scenario.warehouse_needs)


def settle(position: Position) -> tuple[Position, str | None]:
    """The position with the Warehouse's markers destroyed when its guard is gone (``warehouse-needs``), and the
    line saying so (None when nothing changed)."""
    if not radio_lost(position):
        return position, None
    closed = [e for e in position.terrain if e.type == "warehouse" and e.prizes and (e.strength is None
                                                                                     or e.wounds < e.strength)]
    if not closed:
        return position, None
    terrain = tuple(replace(e, prizes=()) if e in closed else e for e in position.terrain)
    gone = sorted({p for e in closed for p in e.prizes})
    scenario = of(position)
    assert scenario is not None
    guard = ", ".join(f"no {army} unit in the {type_}" for army, type_ in scenario.warehouse_needs)
    return replace(position, terrain=terrain), (f"{guard}: the Warehouse's {', '.join(gone)} "
                                                f"{'is' if len(gone) == 1 else 'are'} destroyed ("
                                                f"{source(scenario, 'Additional Rules')})")


def injuries(start: dict[str, int], end: dict[str, int]) -> dict[str, int]:
    return {army: start[army] - end.get(army, 0) for army in start}


def decide(scenario: Scenario | None, start: dict[str, int], end: dict[str, int]) -> tuple[tuple[str, ...], str] | None:
    """The winner of a scenario that ends by comparison (the Final Battle, a deadlocked board), by its ``victory``
    line: B13 SPECIAL CAMPAIGN RULES, "the winning HQ (which has received fewer injuries)"; "In the case of a tie
    ... the scenario winner ... is considered to be Neojungle" (``tie=``; without it a tie is a draw). None: the
    ordinary rules decide (3E VICTORY)."""
    if scenario is None or scenario.victory != "fewer-injuries":
        return None
    hurt = injuries(start, end)
    fewest = min(hurt.values())
    leaders = tuple(a for a, n in hurt.items() if n == fewest)
    told = ", ".join(f"{a} {n}" for a, n in hurt.items())
    rule = "B13 SPECIAL CAMPAIGN RULES"
    if len(leaders) == 1:
        return leaders, f"fewer injuries in the scenario ({told}; {rule})"
    if scenario.tie is not None:
        return (scenario.tie,), f"equal injuries in the scenario ({told}): a tie counts as {scenario.tie}'s ({rule})"
    return (), f"equal injuries in the scenario ({told}; {rule})"


# --- a battle of a scenario's position (nhex battle) ---------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class Standing:
    """Where a scenario stands after a battle (``nhex battle`` of a scenario's position): each HQ's Hit Points at
    the scenario's start and the injuries received since (B13 SPECIAL CAMPAIGN RULES, NOTE: "keep track of injuries
    received in a particular scenario (to decide the winner in this one scenario)"), and who leads under ``victory
    fewer-injuries`` (None: the scenario has no such line)."""

    start_hp: dict[str, int]
    injuries: dict[str, int]
    leaders: tuple[str, ...] | None
    why: str | None

    def lines(self) -> list[str]:
        told = ", ".join(f"{army} {n} (from {self.start_hp[army]})" for army, n in self.injuries.items())
        lines = [f"injuries in the scenario: {told}"]
        if self.leaders is not None:
            who = " and ".join(self.leaders) if self.leaders else "nobody (a draw)"
            lines.append(f"the scenario's winner if it ended now: {who}: {self.why}")
        return lines

    def json(self) -> dict[str, object]:
        return {"start_hp": self.start_hp, "injuries": self.injuries,
                "leaders": None if self.leaders is None else list(self.leaders)}


def standing(before: Position, hq_after: dict[str, int]) -> Standing | None:
    """The scenario's injuries after a battle of ``before`` that left the HQs with ``hq_after`` (0: destroyed), or
    None outside a scenario. An HQ's start is its ``start-hp``, else its health in ``before`` (as `nhex check` counts
    from the health a record starts with, solver/turns/game.py)."""
    scenario = of(before)
    if scenario is None or not hq_after:
        return None
    start: dict[str, int] = {}
    for army in sorted(hq_after):
        hq = before.hq(army)
        written = scenario.hp_at_start(army)
        start[army] = written if written is not None else (hq.health if hq is not None else hq_after[army])
    hurt = injuries(start, hq_after)
    if scenario.victory is None:
        return Standing(start, hurt, None, None)
    standing_hqs = tuple(a for a in start if hq_after.get(a, 0) > 0)
    if len(standing_hqs) < len(start):
        # "In every scenario (unless written otherwise) there is an alternate default victory condition - the total
        # destruction of enemy Headquarters" (B13 THE GENERAL PRINCIPLE ...; SPECIAL CAMPAIGN RULES).
        return Standing(start, hurt, standing_hqs, f"an HQ is destroyed ({GENERAL}; B13 SPECIAL CAMPAIGN RULES)")
    decided = decide(scenario, start, hq_after)
    assert decided is not None
    return Standing(start, hurt, decided[0], decided[1])
