"""The Duel board: Terminals and Cells, Energy and its purchase, and the six Procedures.

PL (rulebook-pl-duel-smart-vegas.txt), OPIS PLANSZY, TERMINALE, LICZNIK ENERGII, PROCEDURY; RULINGS 27-28;
NOTATION §10.2.

The Duel board is no tile: the family is present when the position states ``terminals`` or ``energy`` (the point
``position_features`` of :class:`~solver.engine.points.Ability`). It acts only between battles: the Procedures and the
purchases are actions of the player's turn (points ``turn_actions``, ``turn_results``, ``spent``); a battle does
not read Terminals or Energy.

Glossary
--------
Terminal
    One of the board's marked hexes (``terminals HEX …``; the printed board's seven are not known).
Cell (Ogniwo)
    A unit on a Terminal, HQs and modules too, that is not netted; a foundation never is (PL TERMINALE:
    "Dowolna jednostka (tak Żołnierze, jak i Sztaby, czy Moduły), która stoi na polu Terminala nazywana jest
    Ogniwem ... Zasieciowane Ogniwo przestaje być Ogniwem. Żetony Podłoża (np. Mina) nie mogą być Ogniwami").
    Whose Cell it is follows control (a unit Vegas has taken over is a Vegas Cell: RULINGS 17 "in every respect").
Energy
    0 to 5 points per army (``energy ARMY N``), bought at the end of a turn (RULINGS 27) and paid for Procedures.
annihilated (unicestwiony)
    Destroyed outright, as by a Grenade: as many wounds as the unit can still take; a Medic may absorb them
    (PL PROCEDURY: "Medyk w normalny sposób chroni przed Laserem, Kasacją i Detonacją").
"""

from __future__ import annotations

from dataclasses import replace
from functools import lru_cache
from types import MappingProxyType
from typing import TYPE_CHECKING, Iterable, Iterator, Mapping

from ..errors import IllegalAction
from ..hexes import DIRECTIONS, Hex
from ..position import BuyEnergy, Procedure, Unit
from ..engine.points import Ability

if TYPE_CHECKING:  # pragma: no cover - types only
    from ..turns.actions import Spent
    from ..engine.effects import Reading
    from ..position import Action, Position
    from ..rules import RuleSet

#: PL LICZNIK ENERGII: "Ilość Punktów Energii w żadnym momencie gry nie może przekroczyć 5".
MAX_ENERGY = 5

# --- the rules, one sentence each: the text IllegalAction reports ----------------------------------------------

NOT_ENOUGH_ENERGY = ("a Procedure is paid with the Energy it costs (PL PROCEDURY: 'płacąc za to wymaganą ilość "
                     "Punktów Energii')")
NOT_A_CELL = ("a Procedure is run by the player's own Cells: own units on a Terminal, not netted (PL TERMINALE: "
              "'Zasieciowane Ogniwo przestaje być Ogniwem')")
ROTATION_TURNS = "Rotation: the Cell turns to another facing (PL PROCEDURY, OBRÓT: 'może się obrócić')"
SWAP_TWO = "Swap: two different own Cells trade hexes (PL PROCEDURY, ZAMIANA: 'Dwa własne Ogniwa')"
SWAP_HQ = "Swap: an HQ is never moved by a Swap (PL PROCEDURY, ZAMIANA: 'Sztab nie może zostać poruszony')"
LASER_LINE = ("Laser: the two own Cells stand on one straight line of hexes (PL PROCEDURY, LASER: 'w prostej "
              "linii pomiędzy dwoma naszymi Ogniwami')")
ERASE_TARGET = ("Erase: one enemy unit, never an HQ, adjacent to at least 3 own Cells (PL PROCEDURY, KASACJA: "
                "'Jedna wroga jednostka sąsiadująca z 3 naszymi Ogniwami'; 'Kasacja ... nie czyni żadnej szkody "
                "Sztabom')")
PURCHASE_LAST = ("after buying Energy the turn is over: no other action, not even a Procedure (PL LICZNIK "
                 "ENERGII: 'Po zakupieniu Punktów Energii natychmiast następuje koniec tury')")
ENERGY_CAP = "Energy never exceeds 5 (PL LICZNIK ENERGII: 'nie może przekroczyć 5')"
ENERGY_TILE = "Energy: a tile still in front of the player buys 1 point (PL LICZNIK ENERGII, 1)"
ENERGY_HQ = ("Energy: HQ health buys Energy 1 for 1, and the HQ keeps at least 1 health (PL LICZNIK ENERGII, 2; "
             "option energy-hq-last-point)")
ENERGY_HQ_LAST = "Energy: HQ health buys Energy 1 for 1 (PL LICZNIK ENERGII, 2)"
ENERGY_NO_HQ = "Energy: HQ health buys Energy only from an HQ on the board (PL LICZNIK ENERGII, 2)"
ENERGY_POSITIVE = "Energy: at least 1 point is bought"

#: The mark ``used`` carries once Energy is bought this turn (no hex: it never follows a unit; off every board).
_BOUGHT_HEX = Hex(99, 99)


def _bought_mark() -> Spent:
    from ..turns.actions import Spent

    return Spent(_BOUGHT_HEX, "energy-purchase")


def bought(used: frozenset[Spent]) -> bool:
    """Whether Energy has been bought this turn (so the turn is over but for more purchases)."""
    return any(s.hex == _BOUGHT_HEX and s.source == "energy-purchase" for s in used)


# --- reading the position ----------------------------------------------------------------------------------------


def energy(position: Position, army: str) -> int:
    return next((n for name, n in position.energy if name == army), 0)


def with_energy(position: Position, army: str, points: int) -> Position:
    others = tuple((name, n) for name, n in position.energy if name != army)
    return position.replaced(energy=others + ((army, points),))


def _reading(position: Position) -> Reading:
    return _read(position.units, position.rules)


@lru_cache(maxsize=4096)
def _read(units: tuple[Unit, ...], rules: RuleSet) -> Reading:
    """Who controls what and the nets (memoised: a listing asks about one position many times)."""
    from ..engine import effects

    return effects.read({u.hex: u for u in units}, rules)


def cells(position: Position) -> Mapping[Hex, str]:
    """Every Cell on the board, by hex, with the army that controls it (PL TERMINALE)."""
    if not position.terminals:
        return {}
    return _cells(position.units, position.rules, position.terminals)


@lru_cache(maxsize=4096)
def _cells(units: tuple[Unit, ...], rules: RuleSet, terminals: tuple[Hex, ...]) -> Mapping[Hex, str]:
    """:func:`cells`, memoised like :func:`_read`: the listing of one state's Procedures asks for every one of
    them (read-only: a mapping shared by its callers)."""
    from ..engine import effects

    reading = _read(units, rules)
    by_hex = {u.hex: u for u in units}
    found = {}
    for hex_ in terminals:
        unit = by_hex.get(hex_)
        if unit is not None and hex_ not in reading.nets and not unit.is_neutral:
            found[hex_] = effects.side(unit, reading.sides)
    return MappingProxyType(found)


def own_cells(position: Position, army: str) -> list[Hex]:
    return [h for h, side in cells(position).items() if side == army]


def _enemy(position: Position, unit: Unit, army: str) -> bool:
    from ..engine import effects

    return effects.side(unit, _reading(position).sides) != army


def laser_line(position: Position, a: Hex, b: Hex) -> tuple[Hex, ...] | None:
    """The hexes strictly between ``a`` and ``b`` when they lie on one straight line of hexes, else None."""
    for direction in DIRECTIONS:
        line = position.board.line_of_fire(a, direction)
        if b in line:
            return line[:line.index(b)]
    return None


# --- the family ----------------------------------------------------------------------------------------------------


class DuelBoard(Ability):
    """Terminals, Cells, Energy and Procedures (PL OPIS PLANSZY)."""

    position_features = frozenset({"terminals", "energy"})

    # --- listing ---
    def turn_actions(self, position: Position, army: str, used: frozenset[Spent],
                     every_destination: bool) -> Iterable[Action]:
        if not bought(used):
            yield from procedures(position, army, every_destination)
        yield from purchases(position, army)

    # --- doing ---
    def turn_results(self, position: Position, action: Action, army: str,
                     used: frozenset[Spent]) -> tuple[tuple[str, Position], ...] | None:
        if isinstance(action, BuyEnergy):
            return (("", buy(position, action, army)),)
        if bought(used):
            # PL LICZNIK ENERGII: the purchase ends the turn at once; nothing follows but more purchases.
            raise IllegalAction(str(action), PURCHASE_LAST)
        if isinstance(action, Procedure):
            return run(position, action, army)
        return None

    def turn_over(self, position: Position, used: frozenset[Spent]) -> bool:
        return bought(used)

    def spent(self, position: Position, action: Action, army: str, used: frozenset[Spent]) -> frozenset[Spent]:
        if isinstance(action, BuyEnergy):
            return used | {_bought_mark()}
        if isinstance(action, Procedure) and action.kind == "swap":
            # The free moves a unit has taken this turn go with it to its new hex (as actions.spend does for moves).
            a, b = action.hexes
            where = {a: b, b: a}
            return frozenset(replace(s, hex=where.get(s.hex, s.hex), giver=where.get(s.giver, s.giver)
                                     if s.giver is not None else None) for s in used)
        return used


# --- Energy purchases (PL LICZNIK ENERGII; RULINGS 27) -----------------------------------------------------------


def purchases(position: Position, army: str) -> Iterator[BuyEnergy]:
    """Every purchase ``army`` may make now: one per distinct tile in hand, and each amount of HQ health."""
    room = MAX_ENERGY - energy(position, army)
    if room <= 0:
        return
    for tile in dict.fromkeys(position.hand(army)):
        yield BuyEnergy(tile=tile)
    hq = position.hq(army)
    if hq is not None and hq.hp is not None:
        spare = hq.hp if position.rules.enabled("energy-hq-last-point") else hq.hp - 1
        for points in range(1, min(room, spare) + 1):
            yield BuyEnergy(hq_health=points)


def buy(position: Position, action: BuyEnergy, army: str) -> Position:
    """The position after ``army`` buys Energy (PL LICZNIK ENERGII: a tile left in hand buys 1 point; HQ health
    buys points 1 for 1; Energy never exceeds 5)."""
    text = str(action)
    if action.tile is not None:
        points = 1
        hand = position.hand(army)
        if action.tile not in hand:
            raise IllegalAction(text, ENERGY_TILE)
        from ..turns.actions import _without

        position = position.replaced(hands=_without(position.hands, army, action.tile))
    else:
        points = action.hq_health
        if points < 1:
            raise IllegalAction(text, ENERGY_POSITIVE)
        hq = position.hq(army)
        if hq is None or hq.hp is None:
            raise IllegalAction(text, ENERGY_NO_HQ)
        last = position.rules.enabled("energy-hq-last-point")
        if points > hq.hp or (points == hq.hp and not last):
            raise IllegalAction(text, ENERGY_HQ_LAST if last else ENERGY_HQ)
        position = position.with_units(u if u is not hq else replace(u, hp=hq.hp - points) for u in position.units)
    total = energy(position, army) + points
    if total > MAX_ENERGY:
        raise IllegalAction(text, ENERGY_CAP)
    return with_energy(position, army, total)


# --- Procedures (PL PROCEDURY; RULINGS 28) -------------------------------------------------------------------------


def procedures(position: Position, army: str, every_destination: bool) -> Iterator[Procedure]:
    """Every Procedure ``army`` can pay for now, in the order of PL PROCEDURY. Rotations to a facing that looks
    the same, and swaps that leave the board as it was, are left out (they change nothing)."""
    from ..turns.actions import _push_problem, distinct_facings, netted, push_destinations

    points = energy(position, army)
    if points < 1 or not position.terminals:
        return
    board_cells = cells(position)
    own = [h for h, side in board_cells.items() if side == army]
    units = {h: position.unit_at(h) for h in own}
    # OBRÓT, 1
    for hex_ in own:
        unit = units[hex_]
        assert unit is not None
        for facing in distinct_facings(unit.tile):
            if unit.tile.oriented(facing).edges != unit.oriented.edges:
                yield Procedure("rotation", (hex_,), (facing,))
    if points >= 2:
        # ZAMIANA, 2
        movable = [h for h in own if not units[h].is_hq]  # type: ignore[union-attr]
        for i, a in enumerate(movable):
            for b in movable[i + 1:]:
                ua, ub = units[a], units[b]
                assert ua is not None and ub is not None
                for fa in distinct_facings(ua.tile):
                    for fb in distinct_facings(ub.tile):
                        if (ua.tile == ub.tile and ua.wounds == ub.wounds
                                and ua.tile.oriented(fa).edges == ub.oriented.edges
                                and ub.tile.oriented(fb).edges == ua.oriented.edges):
                            continue  # two alike units back where they were: nothing changes
                        yield Procedure("swap", (a, b), (fa, fb))
        # ODEPCHNIĘCIE, 2
        nets = netted(position)
        for pusher in own:
            for _, target in position.board.neighbours(pusher):
                if _push_problem(position, army, pusher, target, nets) is not None:
                    continue
                if every_destination:
                    for dest in push_destinations(position, pusher, target):
                        yield Procedure("push", (pusher, target, dest))
                else:
                    yield Procedure("push", (pusher, target))
    if points >= 3:
        # LASER, 3
        for i, a in enumerate(own):
            for b in own[i + 1:]:
                if laser_line(position, a, b) is not None:
                    yield Procedure("laser", (a, b))
        # KASACJA, 3
        for unit in position.units:
            if _erase_problem(position, army, unit.hex, own) is None:
                yield Procedure("erase", (unit.hex,))
    if points >= 4:
        # DETONACJA, 4
        yield Procedure("detonation")


def run(position: Position, action: Procedure, army: str) -> tuple[tuple[str, Position], ...]:
    """Every result of a Procedure (one per choice of the other player: where a pushed unit goes, which Medic
    absorbs), after checking it may be run, its Energy paid."""
    text = str(action)
    points = energy(position, army)
    if points < action.cost:
        raise IllegalAction(text, f"{NOT_ENOUGH_ENERGY}: {action.kind} costs {action.cost}, {army} has {points}")
    own = own_cells(position, army)
    paid = with_energy(position, army, points - action.cost)
    kind = action.kind
    if kind == "rotation":
        (hex_,), (facing,) = action.hexes, action.facings
        unit = _own_cell(position, hex_, own, text)
        if facing == unit.facing:
            raise IllegalAction(text, ROTATION_TURNS)
        return (("", paid.with_units(u if u.hex != hex_ else replace(u, facing=facing) for u in paid.units)),)
    if kind == "swap":
        (a, b), (fa, fb) = action.hexes, action.facings
        if a == b:
            raise IllegalAction(text, SWAP_TWO)
        ua, ub = _own_cell(position, a, own, text), _own_cell(position, b, own, text)
        if ua.is_hq or ub.is_hq:
            raise IllegalAction(text, SWAP_HQ)
        from ..turns.actions import _arrived

        units = [u for u in paid.units if u.hex not in (a, b)]
        units += [replace(ua, hex=b, facing=fa), replace(ub, hex=a, facing=fb)]
        # A unit put on a hex with a Mine meets it as one moved there (RULINGS 25).
        return (("", _arrived(_arrived(paid.with_units(units), a), b)),)
    if kind == "push":
        return _push(position, paid, action, army, own)
    if kind == "laser":
        a, b = action.hexes
        _own_cell(position, a, own, text)
        _own_cell(position, b, own, text)
        between = laser_line(position, a, b)
        if between is None:
            raise IllegalAction(text, LASER_LINE)
        # PL LASER: "Wszystkie wrogie Żetony planszy ... zostają unicestwione"; HQs spared (RULINGS 28), and
        # foundations too, which only instants destroy (RULINGS 25).
        targets = [u for h in between if (u := position.unit_at(h)) is not None and not u.is_hq
                   and _enemy(position, u, army)]
        return _annihilated(paid, targets, text)
    if kind == "erase":
        (target,) = action.hexes
        problem = _erase_problem(position, army, target, own)
        if problem is not None:
            raise IllegalAction(text, problem)
        erased = position.unit_at(target)
        assert erased is not None
        return _annihilated(paid, [erased], text)
    if kind == "detonation":
        # PL DETONACJA: "Wszystkie wrogie Ogniwa zostają unicestwione"; never an HQ (PL PROCEDURY).
        enemies = [position.unit_at(h) for h, side in cells(position).items() if side != army]
        return _annihilated(paid, [u for u in enemies if u is not None and not u.is_hq], text)
    raise IllegalAction(text, f"unknown procedure {kind}")  # the notation knows no other: defensive


def _own_cell(position: Position, hex_: Hex, own: list[Hex], text: str) -> Unit:
    unit = position.unit_at(hex_)
    if unit is None or hex_ not in own:
        raise IllegalAction(text, f"{NOT_A_CELL} ({hex_})")
    return unit


def _erase_problem(position: Position, army: str, target: Hex, own: list[Hex]) -> str | None:
    unit = position.unit_at(target)
    if unit is None or unit.is_hq or not _enemy(position, unit, army):
        return ERASE_TARGET
    if sum(1 for h in own if h.distance(target) == 1) < 3:
        return ERASE_TARGET
    return None


def _push(position: Position, paid: Position, action: Procedure, army: str, own: list[Hex]
          ) -> tuple[tuple[str, Position], ...]:
    """PL ODEPCHNIĘCIE: "Jedno własne Ogniwo może odepchnąć jedną jednostkę wroga", as the Push Back instant
    (RULINGS 28): an adjacent enemy, one hex further, on a hex its owner chooses."""
    from ..turns.actions import PUSH_DEST, _arrived, _moved, _push_problem, netted, push_chooser, push_destinations

    text = str(action)
    pusher, target = action.hexes[0], action.hexes[1]
    _own_cell(position, pusher, own, text)
    problem = _push_problem(position, army, pusher, target, netted(position))
    if problem is not None:
        raise IllegalAction(text, problem.replace("Push Back", "Push (procedure, as Push Back)", 1))
    allowed = push_destinations(position, pusher, target)
    if len(action.hexes) == 3:
        if action.hexes[2] not in allowed:
            raise IllegalAction(text, PUSH_DEST)
        allowed = [action.hexes[2]]
    pushed = position.unit_at(target)
    assert pushed is not None
    # 3E PUSH BACK: the pushed unit keeps its facing; its owner (its controller, PL VEGAS) picks the hex.
    return tuple((f"{push_chooser(position, pushed, army)} puts the pushed unit on {dest}",
                  _arrived(replace(paid, units=_moved(paid, target, dest, None)), dest))
                 for dest in allowed)


def _annihilated(position: Position, targets: list[Unit], cause: str) -> tuple[tuple[str, Position], ...]:
    """Each target destroyed outright, a Medic absorbing as usual (PL PROCEDURY: "Medyk w normalny sposób
    chroni przed Laserem, Kasacją i Detonacją"); one result per distinct way the wounded side uses its Medics."""
    if not targets:
        return (("", position),)
    from ..engine import battle

    boni = _reading(position).bonuses
    hits = [(u.hex, u.health + (boni[u.hex].toughness if u.hex in boni else 0)) for u in targets]
    return tuple(("; ".join(choices), result) for choices, result in battle.wound(position, hits, cause))


def procedure_moves(action: Procedure) -> tuple[tuple[Hex, Hex], ...]:
    """Where units go in a Procedure, as (from, to) pairs (for the solver's watched hexes); a push's destination
    is known only when written."""
    if action.kind == "swap":
        a, b = action.hexes
        return ((a, b), (b, a))
    if action.kind == "push" and len(action.hexes) == 3:
        return ((action.hexes[1], action.hexes[2]),)
    return ()


__all__ = ["DuelBoard", "MAX_ENERGY", "bought", "buy", "cells", "energy", "laser_line", "own_cells",
           "procedure_moves", "procedures", "purchases", "run", "with_energy"]
