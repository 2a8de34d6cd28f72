"""The army database as plain data: the JSON of ``nhex tiles --json`` (NOTATION §9) and short text descriptions.

Nothing here draws; :mod:`solver.render.terminal` puts these strings into tables and boards.
"""

from __future__ import annotations

from ..hexes import DIRECTIONS, Direction
from ..tiles import Army, Edge, Tile


def edge_json(edge: Edge) -> dict[str, object]:
    """One edge as NOTATION §9 spells it; ``special`` (gauss, shotgun, ...) only where the edge has one."""
    entry: dict[str, object] = {"melee": edge.melee, "ranged": edge.ranged, "armor": edge.armor, "net": edge.net,
                                "link": edge.link}
    if edge.special:
        entry["special"] = sorted(edge.special)
    return entry


def tile_json(tile: Tile) -> dict[str, object]:
    """One tile: the keys NOTATION §9 requires, then the extra ones (title, module, abilities, ...)."""
    edges = tile.edges if tile.edges is not None else (Edge(),) * 6
    entry: dict[str, object] = {
        "tile": tile.key,
        "kind": str(tile.kind),
        "count": tile.count,
        "initiative": list(tile.initiative),
        "toughness": tile.toughness,
        "mobility": tile.mobility,
        "edges": [edge_json(e) for e in edges],
        "title": tile.title,
    }
    if tile.module is not None:
        entry["module"] = {"type": tile.module.type, "value": tile.module.value, "target": tile.module.target,
                           "reach": tile.module.reach}
    entry["abilities"] = sorted(tile.abilities)
    entry["aliases"] = list(tile.aliases)
    if tile.rule:
        entry["rule"] = tile.rule
    if tile.confidence:
        entry["confidence"] = tile.confidence
    return entry


def tiles_json(army: Army) -> list[dict[str, object]]:
    """Every tile of the army, in the order of its data file (HQ first)."""
    return [tile_json(t) for t in army.tiles]


# --- words ---------------------------------------------------------------------------------------------------


def edge_words(edge: Edge) -> str:
    """``melee 2 armor``: what one edge carries, in the words of the army files."""
    words = []
    if edge.melee:
        words.append(f"melee {edge.melee}")
    if edge.ranged:
        words.append(f"ranged {edge.ranged}")
    words += [name for name in ("armor", "net", "link") if getattr(edge, name)]
    words += sorted(edge.special)
    return " ".join(words)


def edges_text(tile: Tile, facing: Direction = Direction.N) -> str:
    """The tile's edges, compactly: ``N melee 2 armor · NE ranged 1`` (directions that carry the same icons
    are named together, ``all`` when all six do). With a facing, the directions are the absolute ones."""
    if tile.edges is None:
        return ""
    groups: dict[str, list[Direction]] = {}
    for direction in DIRECTIONS:
        words = edge_words(tile.edge_towards(facing, direction))
        if words:
            groups.setdefault(words, []).append(direction)
    parts = []
    for words, directions in groups.items():
        where = "all" if len(directions) == 6 else " ".join(d.name for d in directions)
        parts.append(f"{where} {words}")
    return " · ".join(parts)


def initiative_text(tile: Tile) -> str:
    return ",".join(str(i) for i in tile.initiative) if tile.initiative else "–"


def module_text(tile: Tile) -> str:
    """What a module (or an HQ) gives the units it is linked to: ``+1 ranged``, ``-1 initiative to enemies``,
    ``medic (reach 2)``; empty when it gives nothing."""
    if tile.module is None:
        return ""
    effect = tile.module
    if effect.type.endswith("-bonus"):
        what = effect.type.removesuffix("-bonus").replace("-", " ")
        text = f"{effect.value:+d} {what}" if effect.value is not None else f"{what} bonus"
    else:
        text = effect.type.replace("-", " ")
    if effect.target == "enemy":
        text += " to enemies"
    if effect.reach is not None and effect.reach > 1:
        text += f" (reach {effect.reach})"
    return text
