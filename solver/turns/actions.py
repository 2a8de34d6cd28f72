"""Between battles: what a player may do with the tiles in front of them and the units on the board.

The rules are 3E USING TILES, INSTANT ACTION TILES, MOBILITY, MODULES and USING NETS, plus the Recon Center
and the Transport from the army sheets (ES, PL). Battles belong to :mod:`solver.engine.battle`. The order of a turn
(drawing, the compulsory discard, when a Battle follows) belongs to :mod:`solver.turns.game`.

Glossary (see also :mod:`solver.hexes` and :mod:`solver.engine.battle`):

own unit
    A unit the acting player controls (:func:`controller`: its army, or the army that took it over).
free move
    A move of one hex and/or a rotation that the board grants instead of a tile in hand: Mobility, a
    Transport. It is written ``move FROM TO FACING [by SOURCE]`` (NOTATION §5).
used
    The free moves already taken this turn, a frozenset of :class:`Spent`. Each grant works once a turn.
    The caller carries it from action to action with :func:`spend`.
reach
    How far one move may go: 1 hex, or 2 with a working Recon Center (option ``recon-center-moves``).
choice
    Something decided by a player other than the one acting: where a pushed unit goes (its owner decides,
    3E PUSH BACK), or which Medic absorbs an instant's wounds (the wounded side, 3E USING MEDICS).
    :func:`results` lists every answer. :func:`apply` needs the answer written into the action, or no
    choice at all.

Nets and modules follow from where the tiles stand (NOTATION §4). They are asked of :mod:`solver.engine.effects`
for the position an action starts from, so they work the moment a tile lands (3E NET: "Nets disable the
opponents as soon as they are placed on the board"; 3E MODULES: "immediately—not just during the Battle").

The API is :func:`legal_actions`, :func:`player_actions`, :func:`apply`, :func:`results`, :func:`spend`,
:func:`starts_battle` and :func:`board_full`. All of them are pure: a position is never changed.
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from functools import lru_cache
from typing import Iterator, Sequence

from ..engine import battle, effects, points as hooks
from . import mercenaries
from .. import teams
from ..errors import IllegalAction, NhexError, RuleNotImplemented
from ..engine.features import refuse, refuse_action
from ..hexes import DIRECTIONS, STANDARD, Board, Direction, Hex
from ..position import HAND_SIZE, HAND_SIZE_REINFORCEMENT, Action, Discard, Draw, Move, Pass, Place, PlaceHQ, Position, Unit, Use
from ..rules import RuleSet
from ..tiles import Kind, Tile, army as army_data

#: Instants by tile name. Other armies' tiles with these names follow the same texts (NOTATION §5).
_INSTANTS = frozenset({"battle", "move", "push-back", "sniper", "grenade", "air-strike", "bomb"})


# --- the rules, one sentence each: the text IllegalAction reports ----------------------------------------------

NOT_IN_HAND = "the tile is not in front of the player (3E USING TILES)"
OFF_BOARD = "the hex is not on the board (3E BOARD DESCRIPTION)"
HEX_TAKEN = "a tile goes on an empty hex (3E USING TILES: 'each space may only contain a single unit')"
BOARD_FULL = "the board is full: a Battle has begun and the turn is over (3E USING TILES, BATTLE)"
HQ_BY_PLACE = "the HQ is placed at the start of the game, with `hq HEX` (3E GAME SEQUENCE)"
PLACE_BY = ("`place … by transporter` puts the tile on the hex of the player's own Transporter (PL SMART, "
            "Transporter): there is none there")
INSTANT_NOT_PLACED = "an Instant Action tile is used, not placed on the board (3E USING TILES)"
UNIT_NOT_USED = "a unit tile is placed on the board, not used (3E USING TILES)"
SECOND_HQ = "the army's HQ is already on the board (3E GAME SEQUENCE)"
HAND_LIMIT = "a player may never have more than 3 tiles in front of them (3E DRAWING TILES)"
HAND_LIMIT_REINFORCEMENT = "a player may have at most 6 tiles in front of them (3E GAME VARIANTS, REINFORCEMENT)"
OWN_TILES = "a player draws and plays only their own army's tiles (3E SETUP)"
DECK_SHORT = "the deck holds fewer tiles than that (3E DRAWING TILES)"
BATTLE_AFTER_LAST_TILE = ("Battle: not once any player has drawn their last tile; a Battle then begins only when "
                          "the board fills (3E BATTLE, ENDING THE GAME)")
NO_UNIT = "there is no unit there"
MOVE_OWN = "Move: the moved unit must be the player's own (3E MOVE: 'a friendly unit')"
FREE_MOVE_OWN = "a free move moves one of the player's own units (3E MOBILITY; ES/PL Hegemony Transport)"
MOVE_NETTED = "a netted unit cannot move or turn (3E NET: it 'cannot attack, move, push, ... or perform any actions')"
MOVE_TOO_FAR = "a move goes to an adjacent empty hex (3E MOVE, MOBILITY)"
MOVE_TOO_FAR_RECON = "a move goes at most 2 hexes, to an empty hex, even with the Recon Center (ES/PL Recon Center)"
MOVE_PATH = "a 2-hex move needs an empty hex between (option recon-center-path=empty-step)"
MOVE_NOTHING = "a move must move or turn the unit (3E MOVE: 'Move ... and/or Rotate')"
NO_MOBILITY = "Mobility: the unit has no Mobility (3E MOBILITY)"
MOBILITY_ONCE = "Mobility: a unit moves 1 space and/or turns once in its player's turn (3E MOBILITY)"
NO_TRANSPORT = "Transport: the unit is not linked to a working Transport of its side (ES/PL Hegemony Transport)"
TRANSPORT_ONCE = ("Transport: a linked unit gets one extra move a turn from each Transport (ES/PL Hegemony "
                  "Transport; 3E MODULES; option transport-stack)")
TRANSPORT_FIXED = "the Transport cannot be moved (ES Hegemony sheet: 'Transport no puede moverse'; option transport-movable=no)"
PUSH_OWN = "Push Back: the pushing unit must be the player's own (3E PUSH BACK: 'a friendly unit')"
PUSH_ADJACENT = "Push Back: the pushed unit is an enemy unit adjacent to the pusher (3E PUSH BACK)"
PUSH_NETTED = "Push Back: netted units cannot push or be pushed (3E PUSH BACK; USING NETS)"
PUSH_NET_FIGHTER = ("Push Back: a Net Fighter may be pushed only by a third unit, not by the unit it nets "
                    "(3E USING NETS)")
PUSH_HQ = "Push Back: HQs are not pushed (option push-back-hq=no)"
PUSH_NO_ROOM = ("Push Back: no empty hex puts a hex between the units, so the tile cannot be used "
                "(3E PUSH BACK)")
PUSH_DEST = ("Push Back: the unit goes one hex, onto an empty hex one hex further from the pusher "
             "(3E PUSH BACK)")
SNIPER_TARGET = "Sniper: one chosen enemy unit on the board, never an HQ (3E SNIPER)"
GRENADE_NO_HQ = "Grenade: thrown onto a hex adjacent to the player's HQ, which is not on the board (3E GRENADE)"
GRENADE_NETTED = "Grenade: cannot be thrown from a netted HQ (3E GRENADE)"
GRENADE_TARGET = "Grenade: an enemy unit, never an HQ, on a hex adjacent to the player's HQ (3E GRENADE)"
AIR_STRIKE_EDGE = ("Air Strike: the target hex and all six around it must be on the board "
                   "(3E AIR STRIKE: 'as long as its blast radius does not extend beyond the board')")


class ChoiceRequired(NhexError):
    """The action is legal, but what it does depends on another player's choice: :func:`results` lists
    them."""

    def __init__(self, action: str, choices: Sequence[str]) -> None:
        super().__init__(f"{action}: the result depends on a choice: {' | '.join(choices)}")
        self.action = action
        self.choices = tuple(choices)


@dataclass(frozen=True, slots=True)
class Spent:
    """One free move already taken this turn: the unit, by the hex it stands on now, and its grant.

    ``source`` is ``mobility`` or ``transport``. For a Transport, ``giver`` is the Transport that gave the
    move, because each Transport gives its own move (option ``transport-stack``).
    """

    hex: Hex
    source: str
    giver: Hex | None = None


NOTHING_USED: frozenset[Spent] = frozenset()


# --- what follows from the position -----------------------------------------------------------------------------


@lru_cache(maxsize=4096)
def _reading(units: tuple[Unit, ...], rules: RuleSet, teams: tuple[tuple[str, ...], ...] = ()
             ) -> tuple[effects.Sides, frozenset[Hex]]:
    by_hex = {u.hex: u for u in units}
    sides = effects.takeovers(by_hex, rules)
    if not teams:
        return sides, effects.netted(by_hex, sides)
    # Team play: Nets spare teammates (3E TEAM MATCH; solver.teams); control stays the takeovers'.
    return sides, effects.read(by_hex, rules, teams=teams).nets


@lru_cache(maxsize=4096)
def _position_reading(position: Position) -> tuple[effects.Sides, frozenset[Hex]]:
    """:func:`_reading` of a position, remembered by the position itself: its hash is kept, while the units'
    tuple is hashed again (a Python call per unit) at every question, and the turn rules ask a position's
    controllers and nets hundreds of thousands of times in a big card's search."""
    return _reading(position.units, position.rules, position.teams)


def netted(position: Position) -> frozenset[Hex]:
    """The netted hexes of ``position`` (memoised: the turn rules ask about one position many times). In team
    play Nets spare teammates (3E TEAM MATCH; :mod:`solver.teams`)."""
    return _position_reading(position)[1]


def sides(position: Position) -> effects.Sides:
    """Who controls each unit taken over in ``position`` (PL VEGAS: derived, never written)."""
    return _position_reading(position)[0]


def controller(position: Position, unit: Unit) -> str:
    """Who controls ``unit`` between battles: the army that took it over, else its commander (PL VEGAS, Sztab:
    a taken unit "pod każdym względem traktowana jest jak własna", in every respect Vegas's own; RULINGS 17).
    Every "is this the player's unit" of the turn rules asks this."""
    return effects.side(unit, sides(position))


@lru_cache(maxsize=64)
def _main_battlefield(board: Board) -> frozenset[Hex]:
    # 3E EXPANDED BATTLEFIELD: "the Battle still commences as soon as the main battlefield is filled up".
    if board.shape in ("standard", "extended"):
        return STANDARD.hexes
    return board.hexes


#: Public name of the main battlefield's hexes for the solver (solver.search.enumeration: a run filling them).
main_battlefield = _main_battlefield


def board_full(position: Position) -> bool:
    """No empty hex is left on the main battlefield, so a Battle begins (3E USING TILES)."""
    main = _main_battlefield(position.board)
    if position.terrain:  # B13 THE GENERAL RULES OF TERRAIN: Closed and Fatal hexes are never filled
        main = main - frozenset().union(*(f.never_filled(position) for f in hooks.turn_points(position).never_filled))
    if len(position.units) < len(main):
        return False
    return all(position.unit_at(h) is not None for h in main)


def starts_battle(action: Action, after: Position) -> bool:
    """Whether a Battle begins once ``action`` is done: a Battle tile, or the board filled (3E BATTLE)."""
    if isinstance(action, Use) and action.tile.name == "battle":
        return True
    return isinstance(action, Place) and board_full(after)


@lru_cache(maxsize=None)
def distinct_facings(tile: Tile) -> tuple[Direction, ...]:
    """The facings that put the tile's icons on different sides. The first one clockwise from N stands for
    facings that look the same (a Saboteur or an HQ has one, a Scout linking every other side two)."""
    seen: dict[tuple, Direction] = {}
    for facing in DIRECTIONS:
        seen.setdefault(tile.oriented(facing).edges, facing)
    return tuple(seen.values())


def _same_look(tile: Tile, a: Direction, b: Direction) -> bool:
    return tile.oriented(a).edges == tile.oriented(b).edges


@lru_cache(maxsize=None)
def _missing_turn_rule(tile: Tile) -> str | None:
    """The tile's between-battles rule that nhex does not implement, if it has one (the ability families say
    which they implement: :data:`solver.engine.points.TURN_NOT_IMPLEMENTED`)."""
    if tile.kind is Kind.FOUNDATION and not hooks.turn_points_of(frozenset({tile})).arrived:
        return f"foundation tiles ({tile.key}, Babel 13)"
    return hooks.missing_turn_rule(tile)


def _supported(position: Position) -> None:
    """Refuse, with the rule's name, positions whose units have between-battle rules nhex lacks."""
    refuse(position)  # NOTATION §10 features the engine does not play yet
    for unit in position.units:
        missing = _missing_turn_rule(unit.tile)
        if missing is not None:
            raise RuleNotImplemented(missing)
    for foundation in position.foundations:
        missing = _missing_turn_rule(foundation.tile)
        if missing is not None:
            raise RuleNotImplemented(missing)


def _last_tile_drawn(position: Position) -> bool:
    return any(count == 0 for _, count in position.decks)


# --- small builders ---------------------------------------------------------------------------------------------


def _without(hands: tuple[tuple[str, tuple[Tile, ...]], ...], army: str, tile: Tile
             ) -> tuple[tuple[str, tuple[Tile, ...]], ...]:
    out = []
    for name, tiles in hands:
        if name == army:
            i = tiles.index(tile)
            tiles = tiles[:i] + tiles[i + 1:]
            if not tiles:  # an empty hand is no entry, so equal positions stay equal however they were reached
                continue
        out.append((name, tiles))
    return tuple(out)


def _from_hand(position: Position, action: Action, tile: Tile, army: str) -> tuple[tuple[str, tuple[Tile, ...]], ...]:
    if tile not in position.hand(army):
        raise IllegalAction(str(action), NOT_IN_HAND)
    return _without(position.hands, army, tile)


def _moved(position: Position, source: Hex, target: Hex, facing: Direction | None) -> tuple[Unit, ...]:
    """The units with the one on ``source`` now on ``target``, turned to ``facing`` (kept when None)."""
    units = []
    for unit in position.units:
        if unit.hex == source:
            unit = replace(unit, hex=target, facing=unit.facing if facing is None else facing)
        units.append(unit)
    return tuple(units)


# --- moves: the Move tile, Mobility, Transport ----------------------------------------------------------------------


def _recon_reach(position: Position, army: str, nets: frozenset[Hex], by_tile: bool) -> int:
    """2 when a working Recon Center of the mover's side stands on the board, else 1.

    ES/PL Recon Center: while it is on the board, friendly units move 2 hexes instead of 1 (option
    ``recon-center-moves``: every move, or the Move tile only). A netted Recon Center adds nothing (3E NET:
    it cannot "add bonuses").
    """
    if not by_tile and position.rules.option("recon-center-moves") == "move-tile":
        return 1
    taken = sides(position)
    captured = effects.captured_modules({u.hex: u for u in position.units}, nets, taken)
    for unit in position.units:
        module = unit.tile.module
        if (module is not None and module.type == "double-move" and unit.hex not in nets
                and effects.side_of(unit, captured, taken) == army):
            return 2  # a Recon Center a Scoper holds works for the Scoper's side (RULINGS 8)
    return 1


def barred(position: Position, tile: Tile, hex_: Hex, army: str) -> str | None:
    """Why ``army``'s ``tile`` may not be placed, moved or pushed onto ``hex_`` (terrain: the point ``barred``),
    or None. A position without terrain bars nothing."""
    if not position.terrain:
        return None
    for family in hooks.turn_points(position).barred:
        problem = family.barred(position, tile, hex_, army)
        if problem is not None:
            return problem
    return None


def destinations(position: Position, unit: Unit, reach: int) -> list[Hex]:
    """The empty hexes ``unit`` may move to with ``reach`` (3E MOVE, MOBILITY; ES/PL Recon Center)."""
    found = _destinations(position, unit, reach)
    if position.terrain:
        army = controller(position, unit)  # a unit Vegas took over enters a Tight Bunker as Vegas's
        found = [h for h in found if barred(position, unit.tile, h, army) is None]
    return found


def _destinations(position: Position, unit: Unit, reach: int) -> list[Hex]:
    board = position.board
    found = []
    for _, near in board.neighbours(unit.hex):
        if position.unit_at(near) is None:
            found.append(near)
    if reach >= 2:
        stepping = position.rules.option("recon-center-path") == "empty-step"
        for _, near in board.neighbours(unit.hex):
            for _, far in board.neighbours(near):
                if far == unit.hex or far in found or unit.hex.distance(far) != 2:
                    continue
                if position.unit_at(far) is not None:
                    continue
                if stepping and position.unit_at(near) is not None:
                    continue
                found.append(far)
    return found


def _step_problem(position: Position, unit: Unit, target: Hex, facing: Direction | None, reach: int) -> str | None:
    """Why moving ``unit`` to ``target``/``facing`` is not a legal move of ``reach``, or None."""
    if target not in position.board:
        return OFF_BOARD
    if target == unit.hex:
        if facing is None or facing == unit.facing:
            return MOVE_NOTHING
        return None
    if position.unit_at(target) is not None:
        return HEX_TAKEN
    problem = barred(position, unit.tile, target, controller(position, unit))
    if problem is not None:
        return problem
    if target not in destinations(position, unit, reach):
        if reach >= 2 and unit.hex.distance(target) == 2:
            return MOVE_PATH
        return MOVE_TOO_FAR_RECON if reach >= 2 else MOVE_TOO_FAR
    return None


def _mover_problem(position: Position, army: str, source: Hex, nets: frozenset[Hex], own_rule: str) -> str | None:
    unit = position.unit_at(source)
    if unit is None:
        return f"{NO_UNIT} ({source})"
    if controller(position, unit) != army:
        return own_rule
    if source in nets:
        return MOVE_NETTED
    if _fixed(position, unit):
        return TRANSPORT_FIXED
    return None


def _fixed(position: Position, unit: Unit) -> bool:
    """A Transport under option transport-movable=no: nothing moves it (ES 'Transport no puede moverse')."""
    module = unit.tile.module
    return module is not None and module.type == "grant-mobility" and not position.rules.enabled("transport-movable")


def has_transport(position: Position, army: str | None = None) -> bool:
    """Whether a Transport (a module granting Mobility) stands on the board, of ``army``'s if given: without one, no
    unit is moved by one (asked before any link is read: the solver asks it of every state)."""
    return any(u.tile.module is not None and u.tile.module.type == "grant-mobility"
               and (army is None or u.army == army) for u in position.units)


def _transport_table(position: Position, army: str, nets: frozenset[Hex]) -> dict[Hex, list[Hex]]:
    """For each unit, the working Transports linked to it on ``army``'s side, in hex order (effects.links: a
    Scoper's capture counts). One reading of the links for every unit: the free moves of a state ask it of each."""
    if not has_transport(position):
        return {}  # no links to read (the solver asks this for every unit it moves)
    units = {u.hex: u for u in position.units}
    taken = sides(position)
    table: dict[Hex, list[Hex]] = {}
    for module, target, side in effects.links(units, nets, taken):
        if effects.side(side, taken) == army and effects.link_effect(module).type == "grant-mobility":
            table.setdefault(target.hex, []).append(module.hex)
    for givers in table.values():
        givers.sort()
    return table


def _transport_giver(position: Position, unit: Unit, army: str, nets: frozenset[Hex], used: frozenset[Spent],
                     table: dict[Hex, list[Hex]] | None = None) -> Hex | None:
    """The Transport whose move ``unit`` may take now, or None (option ``transport-stack``). ``table``: the
    position's :func:`_transport_table`, if read already."""
    givers = (table if table is not None else _transport_table(position, army, nets)).get(unit.hex, [])
    taken = {s.giver for s in used if s.hex == unit.hex and s.source == "transport"}
    if position.rules.option("transport-stack") == "one":
        return givers[0] if givers and not taken else None
    return next((g for g in givers if g not in taken), None)


def _free_move_problem(position: Position, move: Move, army: str, nets: frozenset[Hex],
                       used: frozenset[Spent]) -> str | None:
    problem = _mover_problem(position, army, move.source, nets, FREE_MOVE_OWN)
    if problem is not None:
        return problem
    unit = position.unit_at(move.source)
    assert unit is not None
    if move.by == "mobility":
        if not (unit.tile.mobility or "mobility" in unit.prizes):  # a Mobility Prize marker (B13 PRIZE MARKERS)
            return NO_MOBILITY
        if Spent(unit.hex, "mobility") in used:
            return MOBILITY_ONCE
    elif move.by == "transport":
        transports = _transport_table(position, army, nets)
        if not transports.get(unit.hex):
            return NO_TRANSPORT
        if _transport_giver(position, unit, army, nets, used, transports) is None:
            return TRANSPORT_ONCE
    else:
        raise RuleNotImplemented(f"free moves by {move.by}")
    return _step_problem(position, unit, move.target, move.facing, _recon_reach(position, army, nets, False))


def _free_move(position: Position, move: Move, army: str, used: frozenset[Spent]) -> Position:
    _supported(position)
    nets = netted(position)
    problem = _free_move_problem(position, move, army, nets, used)
    if problem is not None:
        raise IllegalAction(str(move), problem)
    return position.replaced(units=_moved(position, move.source, move.target, move.facing))


# --- push back ------------------------------------------------------------------------------------------------------


def push_destinations(position: Position, pusher: Hex, target: Hex) -> list[Hex]:
    """The empty hexes next to ``target`` one hex further from ``pusher`` (3E PUSH BACK: "creating a
    distance of one hex between them ... only a single space away")."""
    found = [h for _, h in position.board.neighbours(target)
             if h.distance(pusher) == 2 and position.unit_at(h) is None]
    pushed = position.unit_at(target)
    if position.terrain and pushed is not None:
        found = [h for h in found if barred(position, pushed.tile, h, controller(position, pushed)) is None]
    return found


def _push_problem(position: Position, army: str, pusher_hex: Hex, target_hex: Hex, nets: frozenset[Hex]) -> str | None:
    pusher = position.unit_at(pusher_hex)
    target = position.unit_at(target_hex)
    if pusher is None:
        return f"{NO_UNIT} ({pusher_hex})"
    if controller(position, pusher) != army:
        return PUSH_OWN
    if (target is None or not teams.hostile(position, army, controller(position, target))
            or pusher_hex.distance(target_hex) != 1):
        return PUSH_ADJACENT
    if pusher_hex in nets or target_hex in nets:
        return PUSH_NETTED
    if target.is_hq and not position.rules.enabled("push-back-hq"):
        return PUSH_HQ
    if _fixed(position, target):
        return TRANSPORT_FIXED
    towards = target_hex.direction_to(pusher_hex)
    if towards is not None and effects.edges_of(target)[towards].net:
        return PUSH_NET_FIGHTER
    if not push_destinations(position, pusher_hex, target_hex):
        return PUSH_NO_ROOM
    return None


def _pusher_picks(position: Position, target: Hex) -> bool:
    """Whether the pusher, not the pushed unit's owner, picks where it goes: the neutral Mad Bomber (2E; RULINGS 56)."""
    unit = position.unit_at(target)
    return unit is not None and unit.is_neutral


def push_chooser(position: Position, pushed: Unit, pusher_army: str) -> str:
    """Who picks the hex a pushed unit goes to: its owner (3E PUSH BACK), that is its controller, a unit Vegas
    took over being Vegas's (PL VEGAS, Sztab); the pusher for the neutral Mad Bomber (2E Mad Bomber: "If pushed
    back, the player doing the pushing determines the direction"; RULINGS 56)."""
    return pusher_army if pushed.is_neutral else controller(position, pushed)


def _pushed(position: Position, use: Use, army: str) -> tuple[tuple[str, Position], ...]:
    """Every result of a push: one per destination the pushed unit's owner may choose."""
    pusher, target = use.targets[0], use.targets[1]
    problem = _push_problem(position, army, pusher, target, netted(position))
    if problem is not None:
        raise IllegalAction(str(use), problem)
    hands = _from_hand(position, use, use.tile, army)
    allowed = push_destinations(position, pusher, target)
    if len(use.targets) == 3:
        if use.targets[2] not in allowed:
            raise IllegalAction(str(use), PUSH_DEST)
        allowed = [use.targets[2]]
    pushed = position.unit_at(target)
    assert pushed is not None  # _push_problem found a unit to push there
    owner = push_chooser(position, pushed, army)
    # 3E PUSH BACK: "The Pushed Back unit may not be Rotated during the Push Back" (facing kept).
    return tuple((f"{owner} puts the pushed unit on {dest}",
                  _after_push(_arrived(position.replaced(units=_moved(position, target, dest, None), hands=hands),
                                       dest), target, dest))
                 for dest in allowed)


def _after_push(position: Position, source: Hex, dest: Hex) -> Position:
    """The families that react to a push (a Rocky Hill: the point ``pushed``); only terrain does today."""
    if not position.terrain:
        return position
    for family in hooks.turn_points(position).pushed:
        position = family.pushed(position, source, dest)
    return position


# --- instants that wound: Sniper, Grenade, Air Strike --------------------------------------------------------------


def _sniper_problem(position: Position, army: str, target: Hex) -> str | None:
    unit = position.unit_at(target)
    if unit is None or teams.allied(position, controller(position, unit), army) or unit.is_hq:
        return SNIPER_TARGET
    return None


def _grenade_problem(position: Position, army: str, target: Hex, nets: frozenset[Hex]) -> str | None:
    hq = position.hq(army)
    if hq is None:
        return GRENADE_NO_HQ
    if hq.hex in nets:
        return GRENADE_NETTED
    unit = position.unit_at(target)
    if (unit is None or teams.allied(position, controller(position, unit), army) or unit.is_hq
            or hq.hex.distance(target) != 1):
        return GRENADE_TARGET
    return None


def air_strike_area(position: Position, centre: Hex) -> tuple[Hex, ...] | None:
    """The seven hexes an Air Strike on ``centre`` hits, or None when any is off the board (3E AIR STRIKE)."""
    area = (centre, *(centre.neighbour(d) for d in DIRECTIONS))
    if all(h in position.board for h in area):
        return area
    return None


def _hits(position: Position, use: Use, army: str) -> list[tuple[Hex, int]]:
    """The wounds an instant deals, after checking that it may be played so."""
    name = use.tile.name
    target = use.targets[0]
    if name == "sniper":
        problem = _sniper_problem(position, army, target)
        if problem is not None:
            raise IllegalAction(str(use), problem)
        return [(target, 1)]  # 3E ARMOR: armor does not protect against instant tiles
    if name == "grenade":
        nets = netted(position)
        problem = _grenade_problem(position, army, target, nets)
        if problem is not None:
            raise IllegalAction(str(use), problem)
        # 3E GRENADE: "destroys one chosen enemy unit completely": as many wounds as it can still take,
        # toughness given by modules included.
        unit = position.unit_at(target)
        assert unit is not None
        bonus = effects.bonuses({u.hex: u for u in position.units}, nets, position.rules, sides(position)).get(target)
        return [(target, unit.health + (bonus.toughness if bonus else 0))]
    area = air_strike_area(position, target)
    if area is None:
        raise IllegalAction(str(use), AIR_STRIKE_EDGE)
    # 3E AIR STRIKE: one wound to each tile in the area, "both friendly and enemy, except for Headquarters".
    return [(h, 1) for h in area if (u := position.unit_at(h)) is not None and not u.is_hq]


def _wounded(position: Position, use: Use, army: str) -> tuple[tuple[str, Position], ...]:
    hits = _hits(position, use, army)
    after = position.replaced(hands=_from_hand(position, use, use.tile, army))
    if not hits:
        return (("", after),)
    # 3E MEDIC: a Medic absorbs the wounds of "Sniper, Grenade or any other Instant Action tile": the battle
    # module owns that rule, and every way the wounded side may use its Medics.
    return tuple(("; ".join(choices), result) for choices, result in battle.wound(after, hits, use.tile.key))


# --- the instants ---------------------------------------------------------------------------------------------------


def _use_results(position: Position, use: Use, army: str) -> tuple[tuple[str, Position], ...]:
    tile = use.tile
    if tile.kind is not Kind.INSTANT:
        raise IllegalAction(str(use), UNIT_NOT_USED)
    if tile.name not in _INSTANTS:
        raise RuleNotImplemented(f"the instant tile {tile.key}")  # a family's instant is claimed in results()
    if tile.army != army:
        raise IllegalAction(str(use), OWN_TILES)
    if board_full(position):
        raise IllegalAction(str(use), BOARD_FULL)
    _supported(position)
    name = tile.name
    if name == "battle":
        if _last_tile_drawn(position):
            raise IllegalAction(str(use), BATTLE_AFTER_LAST_TILE)
        return (("", position.replaced(hands=_from_hand(position, use, tile, army))),)
    if name == "move":
        source, target = use.targets
        nets = netted(position)
        problem = _mover_problem(position, army, source, nets, MOVE_OWN)
        if problem is None:
            unit = position.unit_at(source)
            assert unit is not None
            problem = _step_problem(position, unit, target, use.facing, _recon_reach(position, army, nets, True))
        if problem is not None:
            raise IllegalAction(str(use), problem)
        hands = _from_hand(position, use, tile, army)
        return (("", _arrived(position.replaced(units=_moved(position, source, target, use.facing), hands=hands),
                              target)),)
    if name == "push-back":
        return _pushed(position, use, army)
    return _wounded(position, use, army)


# --- applying one action ---------------------------------------------------------------------------------------------


def _place(position: Position, place: Place, army: str) -> Position:
    tile = place.tile
    if tile.kind is Kind.INSTANT:
        raise IllegalAction(str(place), INSTANT_NOT_PLACED)
    if tile.kind is Kind.HQ:
        raise IllegalAction(str(place), HQ_BY_PLACE)
    if tile.army != army and not mercenaries.is_mercenary(tile):  # a hired mercenary is the army's (2E)
        raise IllegalAction(str(place), OWN_TILES)
    if place.by is not None:  # a family claims the placements it grants (the Smart Transporter's)
        raise IllegalAction(str(place), PLACE_BY)
    missing = _missing_turn_rule(tile)
    if missing is not None:
        raise RuleNotImplemented(missing)
    hands = _from_hand(position, place, tile, army)
    if place.hex not in position.board:
        raise IllegalAction(str(place), OFF_BOARD)
    if position.unit_at(place.hex) is not None:
        raise IllegalAction(str(place), HEX_TAKEN)
    problem = barred(position, tile, place.hex, army)
    if problem is not None:
        raise IllegalAction(str(place), problem)
    if board_full(position):  # only the outer ring of the extended board can be empty then
        raise IllegalAction(str(place), BOARD_FULL)
    # The fast path the solver leans on: one tuple insert, nothing else re-checked.
    owner = mercenaries.placed_owner(tile, army, position.rules) if tile.army != army else None
    return position.replaced(units=position.units + (Unit(place.hex, tile, place.facing, owner=owner),), hands=hands)


def _place_hq(position: Position, action: PlaceHQ, army: str) -> Position:
    if position.hq(army) is not None:
        raise IllegalAction(str(action), SECOND_HQ)
    if action.hex not in position.board:
        raise IllegalAction(str(action), OFF_BOARD)
    if position.unit_at(action.hex) is not None:
        raise IllegalAction(str(action), HEX_TAKEN)
    problem = barred(position, army_data(army).hq, action.hex, army)
    if problem is not None:
        raise IllegalAction(str(action), problem)
    # 3E GAME SEQUENCE: "The first player places their HQ on any empty space on the board."
    # PL VEGAS, Sztab: a directional HQ's facing decides its takeover edge (NOTATION §10.2 `hq HEX FACING`).
    return position.replaced(units=position.units + (Unit(action.hex, army_data(army).hq, action.facing),))


def _draw(position: Position, draw: Draw, army: str) -> Position:
    if any(t.army != army and not mercenaries.is_mercenary(t) for t in draw.tiles):
        raise IllegalAction(str(draw), OWN_TILES)
    hand = position.hand(army)
    most = HAND_SIZE_REINFORCEMENT if position.rules.enabled("reinforcement") else HAND_SIZE
    if len(hand) + len(draw.tiles) > most:
        raise IllegalAction(str(draw), HAND_LIMIT if most == HAND_SIZE else HAND_LIMIT_REINFORCEMENT)
    decks = position.decks
    left = position.deck(army)
    from_deck = sum(1 for t in draw.tiles if mercenaries.draws_from_deck(t))  # a mercenary is not (2E)
    if left is not None:
        if left < from_deck:
            raise IllegalAction(str(draw), DECK_SHORT)
        decks = tuple((name, n - from_deck if name == army else n) for name, n in decks)
    hands = tuple((name, tiles) for name, tiles in position.hands if name != army) + ((army, hand + draw.tiles),)
    return position.replaced(hands=hands, decks=decks)


def apply(position: Position, action: Action, army: str, used: frozenset[Spent] = NOTHING_USED) -> Position:
    """The position after ``army`` does ``action``. ``position`` itself is left untouched.

    Raises :class:`~solver.errors.IllegalAction` naming the rule the action breaks. Raises
    :class:`ChoiceRequired` when the result depends on another player's choice (use :func:`results`).
    ``used`` holds the free moves already taken this turn. A Battle tile or a full board means a Battle
    follows (:func:`starts_battle`); this module leaves the fighting to :mod:`solver.engine.battle`.
    """
    claimed = _claimed(position, action, army, used)
    if claimed is not None:
        if len(claimed) > 1:
            raise ChoiceRequired(str(action), [label for label, _ in claimed])
        return claimed[0][1]
    refuse_action(action)  # NOTATION §10 actions no family has claimed and the engine does not play yet
    if isinstance(action, Place):
        return _arrived(_place(position, action, army), action.hex)
    if isinstance(action, Move):
        return _arrived(_free_move(position, action, army, used), action.target)
    if isinstance(action, Use):
        found = results(position, action, army)
        if len(found) > 1:
            raise ChoiceRequired(str(action), [label for label, _ in found])
        return found[0][1]
    if isinstance(action, Discard):
        return position.replaced(hands=_from_hand(position, action, action.tile, army))
    if isinstance(action, PlaceHQ):
        return _place_hq(position, action, army)
    if isinstance(action, Draw):
        return _draw(position, action, army)
    if isinstance(action, Pass):
        return position
    raise RuleNotImplemented(f"the action {action}")


def _claimed(position: Position, action: Action, army: str, used: frozenset[Spent]
             ) -> tuple[tuple[str, Position], ...] | None:
    """The results of an action that an ability family owns (the point ``turn_results``), else None."""
    for family in hooks.turn_points(position).turn_results:
        found = family.turn_results(position, action, army, used)
        if found is not None:
            return found
    return None


def _arrived(position: Position, hex_: Hex) -> Position:
    """A unit has just been placed, moved or pushed onto ``hex_``: the families that react to it (a Mine under
    it, a unit leaving the New York HQ's toughness point) act."""
    for family in hooks.turn_points(position).arrived:
        position = family.arrived(position, hex_)
    return position


#: Public name of the arrival point for the solver's own placements (solver.search.solve).
arrived = _arrived


def results(position: Position, action: Action, army: str, used: frozenset[Spent] = NOTHING_USED
            ) -> tuple[tuple[str, Position], ...]:
    """Every position ``action`` can lead to, each with the other player's choice that leads there.

    A push-back that names its destination has one result. One without it (as :func:`player_actions`
    lists it) has one result per hex the pushed unit's owner may choose. Sniper, Grenade and Air Strike
    have one result per distinct way the wounded side can use its Medics. Every other action has one
    result, labelled ``""``.
    """
    claimed = _claimed(position, action, army, used)
    if claimed is not None:
        return claimed
    if isinstance(action, Use):
        refuse_action(action)  # NOTATION §10: a Use that hits foundations
        return _use_results(position, action, army)
    return (("", apply(position, action, army, used)),)


def spend(position: Position, action: Action, army: str, used: frozenset[Spent]) -> frozenset[Spent]:
    """The free moves taken this turn once ``action`` (legal in ``position``) is done.

    A unit keeps what it has used when it moves: entries follow it from ``FROM`` to ``TO``. Entries for a
    hex that a unit has just entered or been placed on belonged to a unit that is gone, so they are dropped.
    """
    if isinstance(action, Move):
        moved = (action.source, action.target)
    elif isinstance(action, Use) and action.tile.name == "move":
        moved = (action.targets[0], action.targets[1])
    elif isinstance(action, Place):
        return _family_spent(position, action, army, frozenset(s for s in used if s.hex != action.hex))
    else:
        return _family_spent(position, action, army, used)
    source, target = moved
    kept: set[Spent] = set()
    for s in used:
        if s.hex == target and source != target:
            continue
        kept.add(Spent(target if s.hex == source else s.hex, s.source, target if s.giver == source else s.giver))
    if isinstance(action, Move) and action.by in ("mobility", "transport"):
        giver = None
        if action.by == "transport":
            unit = position.unit_at(source)
            assert unit is not None
            giver = _transport_giver(position, unit, army, netted(position), used)
        kept.add(Spent(target, action.by, giver))
    result = frozenset(kept)
    for family in hooks.turn_points(position).spent:
        result = family.spent(position, action, army, result)
    return result


def _family_spent(position: Position, action: Action, army: str, used: frozenset[Spent]) -> frozenset[Spent]:
    for family in hooks.turn_points(position).spent:
        used = family.spent(position, action, army, used)
    return used


# --- listing the legal actions --------------------------------------------------------------------------------------


def legal_actions(position: Position, army: str, used: frozenset[Spent] = NOTHING_USED) -> list[Action]:
    """Every legal action of ``army``: each tile in its hand (discard, place, use) and each free move.

    Every item is a complete action line: a push-back appears once for each hex the pushed unit may go to,
    as a game record writes it. Facings that look the same appear once (:func:`distinct_facings`). On a
    full board the turn is over and nothing is legal.
    """
    return list(_actions(position, army, used, every_destination=True))


def player_actions(position: Position, army: str, used: frozenset[Spent] = NOTHING_USED) -> list[Action]:
    """The decisions that are ``army``'s own: :func:`legal_actions` with each push-back listed once, without
    its destination (the pushed unit's owner chooses it; :func:`results` gives every answer)."""
    return list(_actions(position, army, used, every_destination=False))


def _actions(position: Position, army: str, used: frozenset[Spent], every_destination: bool) -> Iterator[Action]:
    if board_full(position):
        return
    _supported(position)
    points = hooks.turn_points(position)
    if any(family.turn_over(position, used) for family in points.turn_over):
        # A family has closed the turn but for its own actions (after buying Energy, only purchases: PL LICZNIK ENERGII).
        for family in points.turn_actions:
            yield from family.turn_actions(position, army, used, every_destination)
        return
    nets = netted(position)
    hand = position.hand(army)
    for tile in dict.fromkeys(hand):
        yield Discard(tile)
        if tile.kind in (Kind.WARRIOR, Kind.MODULE):
            for hex_ in position.empty_hexes():
                if position.terrain and barred(position, tile, hex_, army) is not None:
                    continue
                for facing in distinct_facings(tile):
                    yield Place(tile, hex_, facing)
        elif tile.kind is Kind.INSTANT and tile.army == army:
            yield from _instant_actions(position, army, tile, nets, every_destination)
    yield from _free_moves(position, army, nets, used)
    for family in points.turn_actions:
        yield from family.turn_actions(position, army, used, every_destination)


def _turns(position: Position, unit: Unit, reach: int) -> Iterator[tuple[Hex, Direction]]:
    """Every (hex, facing) a move of ``unit`` can end on, a pure rotation included, never standing still."""
    for facing in distinct_facings(unit.tile):
        if not _same_look(unit.tile, facing, unit.facing):
            yield unit.hex, facing
    for target in destinations(position, unit, reach):
        for facing in distinct_facings(unit.tile):
            yield target, facing


def _movable(position: Position, army: str, nets: frozenset[Hex]) -> Iterator[Unit]:
    for unit in position.units:
        if _mover_problem(position, army, unit.hex, nets, MOVE_OWN) is None:
            yield unit


def _instant_actions(position: Position, army: str, tile: Tile, nets: frozenset[Hex],
                     every_destination: bool) -> Iterator[Action]:
    name = tile.name
    if name not in _INSTANTS:
        if name in hooks.turn_points(position).instants:
            return  # the family that owns the instant lists its uses (the point turn_actions)
        raise RuleNotImplemented(f"the instant tile {tile.key}")
    if name == "battle":
        if not _last_tile_drawn(position):
            yield Use(tile)
    elif name == "move":
        reach = _recon_reach(position, army, nets, True)
        for unit in _movable(position, army, nets):
            for target, facing in _turns(position, unit, reach):
                yield Use(tile, (unit.hex, target), facing)
    elif name == "push-back":
        for pusher in position.units:
            if controller(position, pusher) != army:
                continue
            for _, target in position.board.neighbours(pusher.hex):
                if _push_problem(position, army, pusher.hex, target, nets) is not None:
                    continue
                if every_destination or _pusher_picks(position, target):
                    for dest in push_destinations(position, pusher.hex, target):
                        yield Use(tile, (pusher.hex, target, dest))
                else:
                    yield Use(tile, (pusher.hex, target))
    elif name == "sniper":
        for unit in position.units:
            if _sniper_problem(position, army, unit.hex) is None:
                yield Use(tile, (unit.hex,))
    elif name == "grenade":
        hq = position.hq(army)
        if hq is not None:
            for _, target in position.board.neighbours(hq.hex):
                if _grenade_problem(position, army, target, nets) is None:
                    yield Use(tile, (target,))
    else:  # air-strike, bomb
        for centre in position.board:
            if air_strike_area(position, centre) is not None:
                yield Use(tile, (centre,))


def _free_moves(position: Position, army: str, nets: frozenset[Hex], used: frozenset[Spent]) -> Iterator[Move]:
    # What grants a unit a move is asked first, whether it may move (its controller, a net) only then: most units
    # have neither Mobility nor a Transport, and the turn's enumeration lists the free moves of every state.
    reach = None
    transports = _transport_table(position, army, nets)
    for unit in position.units:
        sources = []
        if (unit.tile.mobility or "mobility" in unit.prizes) and Spent(unit.hex, "mobility") not in used:
            sources.append("mobility")
        if unit.hex in transports and _transport_giver(position, unit, army, nets, used, transports) is not None:
            sources.append("transport")
        if not sources or _mover_problem(position, army, unit.hex, nets, MOVE_OWN) is not None:
            continue
        if reach is None:
            reach = _recon_reach(position, army, nets, False)
        for by in sources:
            for target, facing in _turns(position, unit, reach):
                yield Move(unit.hex, target, facing, by)
