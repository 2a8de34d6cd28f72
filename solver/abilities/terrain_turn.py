"""Babel 13 terrain between battles: the rules of ``solver/terrain/babel13.terrain`` that act on placing,
moving and pushing units (B13 TERRAINS AND SCENARIOS). The battle's rules are in :mod:`.terrain`.

``closed`` (Base, Warehouse, Rock)    point ``barred``: no unit is placed or moved (or pushed) there; a full
                                      board does not need it (point ``never_filled``).
``fatal`` (Hole)                      point ``arrived``: a unit arriving there for any reason is removed, no
                                      Medic saves it; ``bars-hq``: an HQ cannot enter it in any way; a full
                                      board does not need it.
``bars-tough`` (Jungle)               barred to units with a toughness icon printed on the tile (HQs excepted).
``sinks-tough`` (Swamp)               such a unit placed or moved there dies at once, no Medic (HQs excepted).
``push-kills`` (Rocky)                point ``pushed``: a unit pushed while on a Rocky Hill dies (HQs excepted).
``toughness`` (Fortress)              point ``arrived``: a unit leaving it loses the toughness and dies if its
                                      wounds now kill it.
``tight`` (Bunker)                    barred to every army but the one whose units are in the element; its empty
                                      hexes do not keep the board from being full on a locked-out player's turn.
``control-panel``                     ``bars-hq``: an HQ cannot stand on it. ``move HEX HEX FACING by
                                      control-panel`` turns the Turret on HEX: its controller may do it in its
                                      turn, each Turret once a turn (reading: "may at any time during their round
                                      rotate Turrets"; a netted unit on the Panel controls nothing, 3E NET).
``dismal-move`` (Dismal Forest)       ``move FROM TO FACING by dismal``: once a turn, one own unit (no HQ, not
                                      netted) in Dismal Forest moves to an empty hex of the same element or of an
                                      adjacent Forest element, and may turn.
"""

from __future__ import annotations

from dataclasses import replace
from typing import TYPE_CHECKING, Iterable

from ..errors import IllegalAction
from ..hexes import Direction, Hex
from ..tiles import Tile
from ..engine.points import Ability
from .terrain import element_of, features_at, rule_at

if TYPE_CHECKING:  # pragma: no cover
    from ..turns.actions import Spent
    from ..position import Action, Position, Unit


def _tough(tile: Tile) -> bool:
    """A toughness icon printed on the tile itself (B13 FOREST, JUNGLE: 'not provided by HQ etc')."""
    return tile.toughness > 0


class TerrainTurn(Ability):
    order = 50
    position_features = frozenset({"terrain"})

    # --- where a unit may go ---
    def barred(self, position: Position, tile: Tile, hex_: Hex, army: str) -> str | None:
        terrain = position.terrain
        entry = features_at(terrain).get(hex_)
        if entry is None:
            return None
        _, element, features = entry
        hq = tile.kind.value == "hq"
        for feature in features:
            if feature.has("closed"):
                return f"no unit can be placed or moved onto a Closed hex ({feature.passage})"
            if hq and feature.has("bars-hq"):
                return f"an HQ cannot enter {hex_.label} ({feature.passage})"
            if feature.has("bars-tough") and _tough(tile) and not hq:
                return f"a unit with a Toughness icon cannot enter Jungle ({feature.passage})"
            if feature.has("tight"):
                inside = _holders(position, element.hexes)
                if inside and army not in inside:
                    return f"an enemy holds this Tight Bunker ({feature.passage})"
        return None

    def never_filled(self, position: Position) -> frozenset[Hex]:
        """Closed and Fatal hexes; and, on a player's turn, the empty hexes of a Tight Bunker an enemy holds
        (B13 THE GENERAL RULES OF TERRAIN: 'the board is considered to be full')."""
        terrain = position.terrain
        found = {h for h, (_, _, features) in features_at(terrain).items()
                 if any(f.has("closed") or f.has("fatal") for f in features)}
        mover = position.to_move
        if mover is not None:
            for element in terrain:
                if "tight" in element.features:
                    inside = _holders(position, element.hexes)
                    if inside and mover not in inside:
                        found.update(element.hexes)
        return frozenset(found)

    # --- what happens to a unit arriving ---
    def arrived(self, position: Position, hex_: Hex) -> Position:
        from ..position import position_toughness

        unit = position.unit_at(hex_)
        if unit is None:
            return position
        terrain = position.terrain
        if rule_at(terrain, hex_, "fatal", unit) or (_tough(unit.tile) and rule_at(terrain, hex_, "sinks-tough", unit)):
            return _without(position, hex_)  # B13 HOLE, FATAL; WATER, SWAMP: no Medic saves it
        if not unit.is_hq and unit.wounds > position_toughness(position, unit):
            return _without(position, hex_)  # B13 HILL, FORTRESS: it left the Fortress and dies
        return position

    def pushed(self, position: Position, source: Hex, dest: Hex) -> Position:
        unit = position.unit_at(dest)
        if unit is not None and rule_at(position.terrain, source, "push-kills", unit):
            return _without(position, dest)  # B13 HILL, ROCKY: it falls into an abyss
        return position

    # --- `move … by dismal`, `move … by control-panel` ---
    def turn_actions(self, position: Position, army: str, used: frozenset[Spent],
                     every_destination: bool) -> Iterable[Action]:
        from ..turns.actions import distinct_facings, netted
        from ..position import Move

        nets = netted(position)
        if not any(s.source == "dismal" for s in used):
            for unit in position.units:
                if _dismal_mover(position, unit, army, nets) is None:
                    for target in _dismal_targets(position, unit):
                        for facing in distinct_facings(unit.tile):
                            yield Move(unit.hex, target, facing, "dismal")
        if _panel_controller(position, nets) == army:
            for turret in position.turrets:
                if not any(s.source == "control-panel" and s.hex == turret.hex for s in used):
                    for facing in Direction:
                        if facing is not turret.facing:
                            yield Move(turret.hex, turret.hex, facing, "control-panel")

    def turn_results(self, position: Position, action: Action, army: str,
                     used: frozenset[Spent]) -> tuple[tuple[str, Position], ...] | None:
        from ..turns.actions import _moved, netted
        from ..position import Move

        if not isinstance(action, Move) or action.by not in ("dismal", "control-panel"):
            return None
        nets = netted(position)
        if action.by == "dismal":
            passage = "B13 FOREST, DISMAL"
            if any(s.source == "dismal" for s in used):
                raise IllegalAction(str(action), f"one Dismal Forest move a turn ({passage})")
            unit = position.unit_at(action.source)
            problem = "there is no unit there" if unit is None else _dismal_mover(position, unit, army, nets)
            if problem is None and action.target not in _dismal_targets(position, unit):  # type: ignore[arg-type]
                problem = "the unit may go to an empty hex of the same Forest or of an adjacent Forest element"
            if problem is not None:
                raise IllegalAction(str(action), f"{problem} ({passage})")
            after = position.replaced(units=_moved(position, action.source, action.target, action.facing))
            from ..turns.actions import arrived

            return (("", arrived(after, action.target)),)
        passage = "B13 THE CONTROL PANEL"
        turret = next((t for t in position.turrets if t.hex == action.source), None)
        if turret is None or action.target != action.source or action.facing is None:
            raise IllegalAction(str(action), f"the Control Panel turns a Turret where it stands ({passage})")
        if _panel_controller(position, nets) != army:
            raise IllegalAction(str(action), f"{army} does not control the Control Panel ({passage})")
        if any(s.source == "control-panel" and s.hex == turret.hex for s in used):
            raise IllegalAction(str(action), f"each Turret is turned once a turn ({passage})")
        turrets = tuple(replace(t, facing=action.facing) if t.hex == turret.hex else t for t in position.turrets)
        return (("", position.replaced(turrets=turrets)),)

    def spent(self, position: Position, action: Action, army: str, used: frozenset[Spent]) -> frozenset[Spent]:
        from ..turns.actions import Spent
        from ..position import Move

        if isinstance(action, Move) and action.by in ("dismal", "control-panel"):
            return used | {Spent(action.target, action.by)}
        return used


def standing_problem(position: Position, unit: Unit) -> str | None:
    """Why ``unit`` cannot be standing where it is (a position file that cannot arise), or None: on a Closed
    hex, in a Hole (it would have fallen), an HQ on the Control Panel, a unit with a toughness icon in Jungle or
    Swamp (it could not enter; it would have sunk), two armies in one Tight Bunker."""
    hex_ = unit.hex
    terrain = position.terrain
    entry = features_at(terrain).get(hex_)
    if entry is None:
        return None
    _, element, features = entry
    hq = unit.is_hq
    for feature in features:
        if feature.has("closed") or (feature.has("fatal") and not hq):
            return f"no unit stands on this hex ({feature.passage})"
        if hq and feature.has("bars-hq"):
            return f"an HQ cannot stand here ({feature.passage})"
        if not hq and _tough(unit.tile) and (feature.has("bars-tough") or feature.has("sinks-tough")):
            return f"a unit with a Toughness icon cannot stand here ({feature.passage})"
        if feature.has("tight"):
            if len(_holders(position, element.hexes)) > 1:
                return f"units of two armies in one Tight Bunker ({feature.passage})"
    return None


def _without(position: Position, hex_: Hex) -> Position:
    return position.replaced(units=tuple(u for u in position.units if u.hex != hex_))


def _holders(position: Position, hexes: Iterable[Hex]) -> set[str]:
    """Who controls the units in a Tight Bunker's hexes: a unit Vegas took over holds it for Vegas (PL VEGAS,
    Sztab: "pod każdym względem traktowana jest jak własna", in every respect its taker's own)."""
    from ..turns.actions import controller

    return {controller(position, u) for h in hexes if (u := position.unit_at(h)) is not None}


def _dismal_mover(position: Position, unit: Unit, army: str, nets: frozenset[Hex]) -> str | None:
    from ..turns.actions import controller

    if controller(position, unit) != army:  # its controller's, a taken unit too (PL VEGAS, Sztab)
        return "a player moves their own unit"
    if rule_at(position.terrain, unit.hex, "dismal-move", unit) is None:
        return "the unit is not in Dismal Forest, or is an HQ"
    if unit.hex in nets:
        return "a netted unit cannot move (3E NET)"
    return None


def _dismal_targets(position: Position, unit: Unit) -> list[Hex]:
    """Empty hexes of the unit's Forest element and of the Forest elements adjacent to it, the unit may enter."""
    from ..turns.actions import barred, controller

    terrain = position.terrain
    home = element_of(terrain, unit.hex)
    assert home is not None
    near = {n for h in home.hexes for _, n in position.board.neighbours(h)}
    elements = [home] + [e for e in terrain if e is not home and e.type == "forest" and near & set(e.hexes)]
    return sorted(h for e in elements for h in e.hexes
                  if h != unit.hex and position.unit_at(h) is None and h in position.board
                  and barred(position, unit.tile, h, controller(position, unit)) is None)


def _panel_controller(position: Position, nets: frozenset[Hex]) -> str | None:
    """The controller of the free unit standing on a Control Panel, if any (B13 THE CONTROL PANEL; a unit Vegas
    took over is Vegas's, PL VEGAS, Sztab)."""
    from ..turns.actions import controller

    for hex_, (_, _, features) in features_at(position.terrain).items():
        if any(f.has("control-panel") for f in features):
            unit = position.unit_at(hex_)
            if unit is not None and hex_ not in nets:
                return controller(position, unit)
    return None
