"""Terrain as data: the terrain types, their features and the rules each feature is made of, read from
``solver/terrain/*.terrain`` (grammar ``grammar/terrain.lark``).

Babel 13 (B13 TERRAINS AND SCENARIOS) describes each feature in a sentence; many features of different types
are the same rule ("HIGH – as above"). The data file names, for each feature, the *rules* it is made of
(``blocks-fire``, ``wound-at-0(1)``, ``toughness(1)``, ``except-hq`` ...); :mod:`solver.abilities.terrain`
plays those rules at the points of the loops. Adding a terrain type or a feature made of known rules is an edit
of the data file only.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import cache
from importlib import resources
from pathlib import Path

from lark import Lark, Token
from lark.exceptions import UnexpectedInput

from ..errors import NotationError
from ..resources import grammar_text, subtree, terminals, unquote

#: Every rule a feature may be made of, with what it means; :mod:`solver.abilities.terrain` plays each one.
RULES: dict[str, str] = {
    "adjacent-attacks-only": "a unit here is wounded only by attacks from an adjacent hex",
    "instant-proof": "Instant tiles' attacks have no effect on a unit here",
    "blocks-fire": "the hex stops every line of fire; a unit on it can itself be shot",
    "dismal-move": "once a turn a unit here may move within the element or to an adjacent element of its type",
    "wound-at-0": "every unit here takes N wounds in each battle's initiative-0 segment",
    "kill-at-0": "every unit here dies in each battle's initiative-0 segment",
    "defense-at-0": "in initiative 0 the element makes a strength-N attack on every adjacent unit",
    "bars-tough": "a unit with printed toughness above 1 cannot be placed or moved here",
    "sinks-tough": "a unit with printed toughness above 1 placed or moved here dies",
    "wound-kills": "a unit here that receives any wound dies",
    "push-kills": "a unit here that is pushed dies",
    "toughness": "a unit here has N more toughness, lost when it leaves",
    "sharpshooter": "a unit here with a ranged attack is a Sharpshooter",
    "closed": "no unit can be placed or moved here",
    "fatal": "a unit arriving here is removed from the board",
    "bars-hq": "an HQ cannot be placed, moved or pushed here",
    "turrets": "Turrets may stand here",
    "control-panel": "a unit here does not act; its controller may turn the Turrets",
    "tight": "while a unit is in the element only its controller may enter",
    "prize": "Prize markers lie here until the hex is broken open",
    "except-hq": "the feature's other rules do not apply to HQs",
    "no-medic": "a Medic cannot save a unit from the feature",
}


@dataclass(frozen=True, slots=True)
class Feature:
    """One terrain feature: its name, the passage it comes from, and its rules (name -> number, 0 if none)."""

    name: str
    passage: str
    rules: tuple[tuple[str, int], ...]

    def has(self, rule: str) -> bool:
        return any(name == rule for name, _ in self.rules)

    def value(self, rule: str) -> int:
        return next(value for name, value in self.rules if name == rule)


@dataclass(frozen=True, slots=True)
class TerrainSet:
    """The terrain types of one set (``babel13``) and their features."""

    types: dict[str, tuple[str, ...]]
    passages: dict[str, str]
    features: dict[str, Feature]
    compulsory: dict[str, tuple[str, ...]]


@cache
def _parser() -> Lark:
    return Lark(grammar_text("terrain.lark"), parser="lalr", propagate_positions=True)


def parse(text: str, source: str = "<terrain>") -> TerrainSet:
    """Read a terrain file; mistakes are ``FILE:LINE:COLUMN: message`` (NotationError)."""
    try:
        tree = _parser().parse(text if text.endswith("\n") else text + "\n")
    except UnexpectedInput as error:
        raise NotationError(f"{source}:{error.line}:{error.column}: not a terrain statement") from None
    types: dict[str, tuple[str, ...]] = {}
    passages: dict[str, str] = {}
    features: dict[str, Feature] = {}
    compulsory: dict[str, tuple[str, ...]] = {}
    for stmt in tree.children:
        stmt = subtree(stmt)
        where = f"{source}:{stmt.meta.line}:{stmt.meta.column}"
        if stmt.data == "terrain_type":
            type_name, type_passage, *listed = terminals(stmt)
            types[str(type_name)] = tuple(str(n) for n in listed)
            passages[str(type_name)] = unquote(type_passage)
        elif stmt.data == "compulsory":
            type_name, *listed = terminals(stmt)
            compulsory[str(type_name)] = tuple(str(n) for n in listed)
        else:
            name, passage, *atoms = stmt.children
            assert isinstance(name, Token) and isinstance(passage, Token)
            rules: list[tuple[str, int]] = []
            for atom in atoms:
                parts = terminals(subtree(atom))
                rule = str(parts[0])
                if rule not in RULES:
                    raise NotationError(f"{where}: unknown terrain rule {rule!r} in feature {name}")
                rules.append((rule, int(parts[1]) if len(parts) > 1 else 0))
            features[str(name)] = Feature(str(name), unquote(passage), tuple(rules))
    for type_, names in types.items():
        for feature in names + compulsory.get(type_, ()):
            if feature not in features:
                raise NotationError(f"{source}: terrain {type_} names feature {feature!r}, never described")
    return TerrainSet(types, passages, features, compulsory)


@cache
def terrain_set(name: str = "babel13") -> TerrainSet:
    """A shipped terrain file, by name."""
    try:
        text = (resources.files("solver.terrain") / f"{name}.terrain").read_text(encoding="utf-8")
    except (ModuleNotFoundError, FileNotFoundError):  # pragma: no cover - a checkout without the package data
        text = (Path(__file__).parent / f"{name}.terrain").read_text(encoding="utf-8")
    return parse(text, f"{name}.terrain")


def feature(name: str) -> Feature:
    return terrain_set().features[name]
