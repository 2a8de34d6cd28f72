"""Redirection (Doomsday Machine: Tripler, Doom Net Fighter, Fireblast): a friendly ranged attack entering a
redirector through an entrance edge leaves through its exit edge(s).

ES Doomsday sheet, Fireblast and Doom Net Fighter: "Cualquier disparo a distancia amigo que entre en esta unidad
cambia de dirección de ataque al salir" (any friendly ranged shot that enters this unit changes its direction of
attack on leaving); Tripler: "... cambia de dirección de ataque para las 3 salidas, atacando simultáneamente a
las unidades en las 3 direcciones" (... changes direction towards the 3 exits, attacking the units in the 3
directions at once); legend: "salida" (exit), "entrada" (entrance).

RULINGS 50: only a friendly ranged attack entering through an entrance edge turns; it leaves in the shooter's
phase with its strength and kind (a Gauss beam turns too, wounds every enemy on the new line and goes no further
on the old one); armor counts from the new direction; an attack entering through an exit edge passes over the
redirector like over any friend; enemy attacks wound it (it is an ordinary target); an enemy met before it takes
the shot; chains redirect again; a netted redirector redirects nothing; modules linked to the redirector change
nothing (the strength is the shooter's). RULINGS 52: two branches hitting one unit are one attack for a Medic —
the battle already keys an attack by (shooter, target).

RULINGS 65 (the default, option ``redirect-loop=endless``): a branch that re-enters, through an entrance edge, a
redirector already on its own path loops for ever ("A split ranged attack, which gets back to a splitting Unit
creates an infinite loop and inflicts an infinite damage", the first official app, Doomsday, "Infinite Combo";
ES Doomsday sheet: "No es un error, es tan solo una característica de Doomsday", it is not a mistake, just a
feature of Doomsday): every enemy unit, an HQ too, that a branch of that attack reaches is hit without end
(:data:`~solver.engine.fight.ENDLESS` wounds) and destroyed, whatever its toughness or armor; a Medic linked to
it takes the whole attack, as one attack, and is spent. A branch entering a redirector that only another branch
entered is turned again (no loop: that redirector is not on its own path). A shot entering through an exit edge
passes over (50). Option ``redirect-loop=stop`` keeps RULINGS 51: a shot never enters the same redirector twice
and stops there (option ``redirect-revisit``: ``shot``, all branches of one edge's attack share what they
entered, or ``branch``, only the redirectors on the branch's own path).

:func:`follow` is the one function that follows a shot through a redirector, for any kind of shot, reached through
the point ``shot_meets`` like every family that stops or turns a shot: the shooter's ranged attack goes on with
:meth:`solver.engine.battle.Fight.fire`, a Gauss beam with its own walk (``go_on``, :mod:`solver.abilities.gauss`).
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Callable

from ..engine import effects
from ..engine.fight import ENDLESS, Hit
from ..hexes import DIRECTIONS, Direction, Hex
from ..engine.points import Ability

if TYPE_CHECKING:  # pragma: no cover
    from ..engine.battle import Fight
    from ..position import Unit

RULE = "RULINGS 50; ES Tripler, Doom Net Fighter, Fireblast"
LOOP = "RULINGS 65; the first official app, Doomsday, 'Infinite Combo'; ES Doomsday sheet: 'no es un error'"
#: fight.memo keys: the redirectors entered (a stack, one set for the attack being followed), the enemies its
#: branches reached with the way each arrived, and whether a branch looped (RULINGS 65).
_PATHS, _REACHED, _LOOPED = "redirect", "redirect-reached", "redirect-looped"


class Redirection(Ability):
    tile_abilities = frozenset({"redirect"})
    #: The entrance and exit edges, read only by this family (:func:`exits`).
    edge_specials = frozenset({"redirect-entrance", "redirect-exit"})
    order = 40
    #: A shot turned may reach the HQ from anywhere, or loop for ever (RULINGS 65): the search's bound counts no limit
    #: on a shot that may meet a redirector of its side (bound_redirects), and the usual bound on every other.
    within_hq_bound = True
    bound_redirects = True

    def shot_meets(self, fight: Fight, shooter: Unit, hex_: Hex, direction: Direction, strength: int,
                   phase: int, go_on: Callable[[Hex, Direction], list[Hit]] | None = None) -> list[Hit] | None:
        if fight.memo.get(_PATHS):  # inside a redirected attack: note every enemy a branch reaches (RULINGS 65)
            unit = fight.units.get(hex_)
            if unit is not None and fight.enemies(shooter, unit):
                reached = fight.memo.setdefault(_REACHED, {})
                assert isinstance(reached, dict)
                reached.setdefault(hex_, direction)
        return follow(fight, shooter, hex_, direction, phase,
                      go_on or (lambda start, d: fight.fire(shooter, start, d, strength, phase)))


def exits(fight: Fight, shooter: Unit, hex_: Hex, direction: Direction, phase: int | None) -> tuple[Direction, ...]:
    """The directions a shot of ``shooter`` travelling ``direction`` leaves ``hex_`` by, when a redirector there
    turns it; () when nothing turns it there."""
    unit = fight.units.get(hex_)
    if unit is None or "redirect" not in unit.tile.abilities or fight.enemies(shooter, unit):
        return ()
    edges = unit.oriented.edges
    if "redirect-entrance" not in edges[direction.opposite].special:
        return ()  # entering by an exit edge (or a plain one): over it like over any friend
    if hex_ in netted_now(fight, phase):
        if fight.tracing:
            fight.note(phase, "redirect", f"{unit.tile.key} on {hex_} is netted and redirects nothing", RULE)
        return ()
    return tuple(d for d in DIRECTIONS if "redirect-exit" in edges[d].special)


def follow(fight: Fight, shooter: Unit, hex_: Hex, direction: Direction, phase: int,
           go_on: Callable[[Hex, Direction], list[Hit]]) -> list[Hit] | None:
    """A shot of ``shooter`` travelling ``direction`` enters ``hex_``: None when it flies on as usual, else the
    hits of every branch it turns into there, each going on with ``go_on(hex_, new_direction)``."""
    out = exits(fight, shooter, hex_, direction, phase)
    if not out:
        return None
    redirector = fight.units[hex_]
    paths = fight.memo.setdefault(_PATHS, [])
    assert isinstance(paths, list)
    endless = fight.rules.option("redirect-loop") == "endless"
    outer = not paths
    if outer:
        paths.append(set())
        fight.memo[_REACHED], fight.memo[_LOOPED] = {}, False
    entered: set[Hex] = paths[0]
    hits: list[Hit] = []
    try:
        if hex_ in entered:
            if endless:  # back in a redirector on its own path (the path is the branch's, below): for ever
                fight.memo[_LOOPED] = True
                if fight.tracing:
                    fight.note(phase, "redirect", f"the shot of {shooter.tile.key} on {shooter.hex} comes back into "
                               f"{redirector.tile.key} on {hex_}: it loops without end", LOOP)
            elif fight.tracing:
                fight.note(phase, "redirect", f"the shot of {shooter.tile.key} on {shooter.hex} enters "
                           f"{redirector.tile.key} on {hex_} a second time and stops", "RULINGS 51")
            return []
        entered.add(hex_)
        if fight.tracing:
            fight.note(phase, "redirect", f"{redirector.tile.key} on {hex_} turns the shot of {shooter.tile.key} on "
                       f"{shooter.hex} towards {', '.join(d.name for d in out)}", RULE)
        for d in out:
            hits += go_on(hex_, d)
        if endless or fight.rules.option("redirect-revisit") == "branch":
            entered.discard(hex_)
        return hits
    finally:
        if outer:
            paths.pop()
            if fight.memo.get(_LOOPED):
                hits[:] = _without_end(fight, shooter, hits, phase)


def _without_end(fight: Fight, shooter: Unit, hits: list[Hit], phase: int) -> list[Hit]:
    """RULINGS 65: every enemy a branch of a looping attack reached is hit without end, whatever its toughness or
    armor (one attack per target for a Medic, RULINGS 52): the hits made, and those armor had stopped."""
    reached = fight.memo.get(_REACHED)
    assert isinstance(reached, dict)
    found: list[Hit] = []
    seen: set[Hex] = set()
    for hit in hits:
        if hit.target in seen:
            continue  # two branches on one unit are one endless attack
        seen.add(hit.target)
        found.append(Hit(hit.source, hit.target, ENDLESS, hit.kind, _note(hit.note), hit.direction, hit.attack))
    for hex_, direction in reached.items():
        if hex_ not in seen and hex_ in fight.units:
            found.append(Hit(shooter.hex, hex_, ENDLESS, "ranged", _note(""), direction))
    if fight.tracing:
        fight.note(phase, "redirect", f"the endless shot of {shooter.tile.key} on {shooter.hex} destroys every enemy "
                   f"it reaches", LOOP)
    return found


def _note(note: str) -> str:
    return "; ".join(filter(None, (note, "an endless loop (RULINGS 65)")))


def netted_now(fight: Fight, phase: int | None) -> frozenset[Hex]:
    """The netted hexes in this phase, as read at its start: no unit leaves the board before its hits land, so
    the reading holds until then (shared with the families that must know it between, e.g. the Trap)."""
    key = ("nets", phase)
    nets = fight.memo.get(key)
    if nets is None:
        nets = fight.memo[key] = effects.netted(fight.units, fight.sides)
    assert isinstance(nets, frozenset)
    return nets
