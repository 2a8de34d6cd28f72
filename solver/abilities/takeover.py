"""Control takeover (Vegas HQ and Agitator; PL Przejęcie Kontroli): the enemy unit on the taking link fights for
Vegas "in every respect" while it stays linked.

PL VEGAS, Sztab: "Wroga jednostka, która jest połączona ze Sztabem Vegas (…jeden kierunek działania Cechy
specjalnej) zostaje automatycznie przejęta i pod każdym względem traktowana jest jak własna … Jednostka jest
przejęta dopóty, dopóki jest przyłączona przez Sztab Vegas. Nie można przejąć wrogiego Sztabu." (An enemy unit
linked to the Vegas HQ — which has ONE direction of its ability — is taken over automatically and treated in
every respect as Vegas's own … it stays taken while linked. An enemy HQ cannot be taken.) Agitator: "cechę
Przejęcia Kontroli, analogiczną jak cecha Sztabu" (the same ability as the HQ's).

This family owns the point ``takeovers`` (:func:`solver.engine.effects.takeovers`): control is derived from where the
tiles stand, read again at the start of every battle phase (RULINGS 17), so a unit is released the moment its
taker dies, is netted or is pushed away, and taken the moment a taker links it. Everything else — a taken
module boosting Vegas, a taken unit's former HQ striking it, Vegas Medics saving it, nets and shots treating it as
Vegas — follows from :func:`solver.engine.effects.side`, which every rule already asks.

PL VEGAS, Sytuacje szczególne:

* "Przejęcie Kontroli jest silniejsze od Sieci, tzn. jeśli Sieciarz i Agitator (lub Sztab Vegas) skierują na
  siebie nawzajem swoje działania, wtedy to Sieciarz zostaje przejęty, a Agitator nie zostaje zasieciowany."
  (Takeover is stronger than a Net: when a Net Fighter and an Agitator aim at each other, the Net Fighter is
  taken and the Agitator is not netted.) A taken Net Fighter is Vegas's, so its net on the Agitator is a net
  on a friend and nets nothing: reading takeovers before nets gives exactly this.
* Otherwise a netted taker takes nothing (RULINGS 19; PL Sieć: a netted unit may not "dodawać bonusów ani
  wykonywać jakichkolwiek akcji").
* "Agitator przejmuje Skopera, a nie odwrotnie. Jednak jeśli Skoper skieruje swoją cechę na Agitatora, zaś
  Agitator jest zwrócony w inną stronę niż Skoper, wtedy w normalny sposób Skoper przejmuje Agitatora."
  (The Agitator takes the Scoper, not the reverse; but a Scoper aimed at an Agitator that looks elsewhere
  takes the Agitator as usual.) A taken Scoper is Vegas's and captures no Vegas module; an Agitator a free
  Scoper holds works for the Scoper's side (RULINGS 8, 20), taking for the Outpost.

The reading is a shrinking fixed point: every taker starts active; a taker netted (or captured by a Scoper)
given the current takeovers stops taking; releasing units only adds nets on Vegas units, so the set of active
takers only shrinks and the reading ends.
"""

from __future__ import annotations

from dataclasses import replace
from typing import TYPE_CHECKING, Iterable

from ..errors import IllegalAction
from ..hexes import Hex, around
from ..position import Move
from ..tiles import Kind
from ..engine.points import Ability, Units

if TYPE_CHECKING:  # pragma: no cover
    from ..turns.actions import Spent
    from ..position import Action, Position, Unit
    from ..rules import RuleSet

#: ``move HEX HEX FACING by takeover`` (NOTATION §10.2): the taker's army turns the unit it has just taken.
BY_TAKEOVER = "takeover"
#: Spent markers: the hexes held by a takeover before the last action, and that an action was done this turn.
HELD_BEFORE = "held-before-last-action"
SNAPSHOT = "takeover-snapshot"
_NOWHERE = Hex(99, 99)

NOT_JUST_TAKEN = ("takeover rotation: only a unit just taken over, at the moment of the takeover, and only by "
                  "the army that took it (PL VEGAS, Sztab: \"w momencie przejmowania gracz prowadzący armią Vegas "
                  "może dowolnie obrócić przejmowaną właśnie jednostkę\"; RULINGS 18)")
TAKEOVER_IN_PLACE = "takeover rotation: the unit turns where it stands (NOTATION §10.2: TO = FROM)"

TAKEOVER = "control-takeover"
SCOPER = "take-over-enemy-modules"


def _takes(unit: Unit) -> bool:
    module = unit.tile.module
    return module is not None and module.type == TAKEOVER


def takers(units: Units) -> list[Unit]:
    """The units with the takeover link (the Vegas HQ, Agitators), in board order."""
    return [u for _, u in sorted(units.items()) if _takes(u)]


def linked(units: Units, taker: Unit) -> list[Unit]:
    """The units the taker's link icons point at (the Vegas HQ has one, its SE edge as printed: RULINGS 16)."""
    near = around(taker.hex)
    return [other for d in taker.oriented.links if (other := units.get(near[d])) is not None]


def controlled(units: Units, rules: RuleSet | None = None) -> dict[Hex, str]:
    """Who controls each unit taken over, by hex (see the module docstring for the reading)."""
    from ..engine.effects import netted  # the reading of nets needs the takeovers: imported when used

    active = takers(units)
    if not active:
        return {}
    while True:
        sides = _taken_by(units, active)
        nets = netted(units, sides)
        held = _held_by_scopers(units, active, nets, sides)
        still = [t for t in active if t.hex not in nets and t.hex not in held]
        if len(still) == len(active):
            # Takers a free Scoper holds take for the Scoper's side (RULINGS 8: the module works for it; option
            # takeover-by-captured-agitator).
            if rules is not None and not rules.enabled("takeover-by-captured-agitator"):
                return sides
            for taker in (t for t in takers(units) if t.hex in held and t.hex not in nets):
                side = sides.get(held[taker.hex].hex, held[taker.hex].army)
                for other in linked(units, taker):
                    if not other.is_hq and sides.get(other.hex, other.army) != side:
                        sides[other.hex] = side
            return sides
        active = still


def _taken_by(units: Units, active: list[Unit]) -> dict[Hex, str]:
    sides: dict[Hex, str] = {}
    for taker in active:
        for other in linked(units, taker):
            # "Nie można przejąć wrogiego Sztabu": an HQ is never taken; a friend is not "taken".
            if other.is_hq or other.army == taker.army:
                continue
            sides[other.hex] = taker.army
    return sides


def _held_by_scopers(units: Units, active: list[Unit], nets: frozenset[Hex], sides: dict[Hex, str]
                     ) -> dict[Hex, Unit]:
    """Takers (modules) that a free enemy Scoper links while the taker does not link the Scoper back."""
    held: dict[Hex, Unit] = {}
    for hex_, unit in units.items():
        module = unit.tile.module
        if module is None or module.type != SCOPER or hex_ in nets:
            continue
        own = sides.get(hex_, unit.army)
        near = around(hex_)
        for d in unit.oriented.links:
            other = units.get(near[d])
            if (other is None or not _takes(other) or other.tile.kind is not Kind.MODULE
                    or sides.get(other.hex, other.army) == own):
                continue
            if any(back.hex == hex_ for back in linked(units, other)):
                continue  # aimed at each other: the Agitator wins and takes the Scoper
            held[other.hex] = unit
    return held


def sides_of(position: Position) -> dict:
    from ..turns.actions import sides
    return dict(sides(position))


class ControlTakeover(Ability):
    """The takeover (the point ``takeovers``) and the free turn of a unit at the moment it is taken.

    PL VEGAS, Sztab: "w momencie przejmowania gracz prowadzący armią Vegas może dowolnie obrócić przejmowaną właśnie
    jednostkę" (at the moment of takeover Vegas may turn the unit being taken as it likes); Sytuacje szczególne:
    "Fakt, że jednostka uwolniła się spod kontroli … nie oznacza, że obraca się ona automatycznie w poprzednim
    kierunku" (a freed unit does not turn back by itself). RULINGS 18: once per takeover, right after the action
    that caused it. A unit is "just taken" when it is held now on a hex that was not held before the last action
    (the turn's ``used`` carries that snapshot; the first action of a turn has none before it, so nothing is
    just taken then). For a takeover inside a battle the turn comes right after it ("może ją obrócić natychmiast po
    zakończeniu Bitwy", PL VEGAS, Sytuacje szczególne): the game record's checker snapshots the held units when
    the battle begins and accepts the rotation after it; the solver's search ends with the battle and does not
    list it. The rotation is the taker's decision whoever's turn it is (NOTATION §10.2).
    """

    module_effects = frozenset({TAKEOVER})
    #: A taken unit fights for its taker "in every respect", and may be turned when taken: the search's bound counts
    #: every unit but the HQs as the player's (bound_takes_units). The takeover deals nothing itself.
    within_hq_bound = True
    places_plainly = True  # it claims no placement from the hand and acts on no arrival
    bound_takes_units = True

    def takeovers(self, units: Units, rules: RuleSet) -> dict[Hex, str]:
        return controlled(units, rules)

    def _just_taken(self, position: Position, army: str | None, used: frozenset[Spent]) -> list[Unit]:
        """Units just taken over by ``army`` (None: by anyone)."""
        if not any(s.source == SNAPSHOT for s in used):
            return []
        from ..turns.actions import sides
        before = {s.hex for s in used if s.source == HELD_BEFORE}
        held = sides(position)
        return [u for u in position.units if u.hex in held and (army is None or held[u.hex] == army)
                and u.hex not in before and not u.is_hq]

    def pending_turns(self, position: Position, player: str, used: frozenset[Spent]
                      ) -> list[tuple[str, Position, frozenset[Spent]]]:
        """Every way the other armies may turn the units they have just taken over (their decision, RULINGS 18),
        for a search that plays only ``player``'s actions: ``(label, position, used)``, the first one turning
        nothing. Only ``[("", position, used)]`` when nothing is pending."""
        from ..turns.actions import Spent, _moved, distinct_facings
        theirs = [u for u in self._just_taken(position, None, used) if sides_of(position).get(u.hex) != player]
        results = [("", position, used)]
        for unit in theirs:
            taker = sides_of(position)[unit.hex]
            grown = []
            for label, now, spent in results:
                done = spent | {Spent(unit.hex, HELD_BEFORE)}
                grown.append((label, now, done))
                for facing in distinct_facings(unit.tile):
                    if facing == unit.facing:
                        continue
                    turned = replace(now, units=_moved(now, unit.hex, unit.hex, facing))
                    text = f"{taker} turns the unit it took on {unit.hex} to {facing.name}"
                    grown.append(("; ".join(filter(None, (label, text))), turned, done))
            results = grown
        return results

    def turn_actions(self, position: Position, army: str, used: frozenset[Spent],
                     every_destination: bool) -> Iterable[Action]:
        from ..turns.actions import _same_look, distinct_facings
        for unit in self._just_taken(position, army, used):
            for facing in distinct_facings(unit.tile):
                if not _same_look(unit.tile, facing, unit.facing):
                    yield Move(unit.hex, unit.hex, facing, BY_TAKEOVER)

    def turn_results(self, position: Position, action: Action, army: str,
                     used: frozenset[Spent]) -> tuple[tuple[str, Position], ...] | None:
        if not isinstance(action, Move) or action.by != BY_TAKEOVER:
            return None
        from ..turns import actions
        if action.target != action.source:
            raise IllegalAction(str(action), TAKEOVER_IN_PLACE)
        unit = position.unit_at(action.source)
        # The taker's decision, whoever's turn it is (NOTATION §10.2: the record writes it in the turn line of
        # the action that caused the takeover); the turn rules list it only for the taker (turn_actions).
        if unit is None or unit not in self._just_taken(position, None, used):
            raise IllegalAction(str(action), NOT_JUST_TAKEN)
        if action.facing is None or action.facing == unit.facing:
            raise IllegalAction(str(action), actions.MOVE_NOTHING)
        return (("", position.replaced(units=actions._moved(position, unit.hex, unit.hex, action.facing))),)

    def spent(self, position: Position, action: Action, army: str, used: frozenset[Spent]) -> frozenset[Spent]:
        from ..turns.actions import Spent, sides
        kept = {s for s in used if s.source not in (HELD_BEFORE, SNAPSHOT)}
        if isinstance(action, Move) and action.by == BY_TAKEOVER:
            # Turned once: the unit is no longer "just taken"; others taken by the same action still are.
            held = {s for s in used if s.source == HELD_BEFORE} | {Spent(action.source, HELD_BEFORE)}
        else:
            held = {Spent(h, HELD_BEFORE) for h in sides(position)}
        return frozenset(kept | held | {Spent(_NOWHERE, SNAPSHOT)})
