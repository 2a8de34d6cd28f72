"""How the ability families become present (solver/engine/points.py): by the tiles they are carried by, or by
a feature of the position (``Ability.position_features``: a non-empty field, or a derived feature). One mechanism
for battles and for the turns between them."""

from __future__ import annotations

import pytest

from solver.engine import points as abilities
from solver.engine.points import Ability
from solver.abilities import duel_board, multiplayer, prizes, terrain, terrain_turn
from solver.notation.text import parse

HQS = "a1 outpost:hq\ne3 moloch:hq\n"


def kinds(families: tuple[Ability, ...]) -> set[type]:
    return {type(f) for f in families}


def test_terrain_makes_its_families_present_in_battle_and_between_battles():
    """B13 TERRAINS AND SCENARIOS: the terrain is no tile; NOTATION §10.3 `terrain` lines make its rules apply."""
    position = parse(HQS + "terrain hill fortress c3\nc3 outpost:brawler N\n")
    assert terrain.Terrain in kinds(abilities.points_for(position).boost)
    assert terrain_turn.TerrainTurn in kinds(abilities.turn_points(position).barred)
    plain = parse(HQS + "c3 outpost:brawler N\n")
    assert not abilities.points_for(plain).boost
    assert not abilities.turn_points(plain).barred


def test_a_prize_marker_on_a_unit_or_held_makes_the_prize_family_present():
    """B13 PRIZE MARKERS: a marker on a unit modifies it; a held one may be put on a unit in the owner's turn."""
    on_unit = parse(HQS + "c3 outpost:brawler N prize=first-aid-kit\n")
    assert prizes.Prizes in kinds(abilities.points_for(on_unit).boost)
    held = parse("to-move outpost\n" + HQS + "prizes outpost mobility\n")
    assert prizes.Prizes in kinds(abilities.turn_points(held).turn_actions)
    assert abilities.features_of(on_unit) == {"unit-prizes"}
    assert abilities.features_of(held) == {"held_prizes"}


def test_the_duel_board_and_the_multiplayer_modes_use_the_same_mechanism():
    """NOTATION §10.2 (`terminals`, `energy`) and §10.5 (three HQs, `mode score`)."""
    duel = parse(HQS + "terminals c3\n")
    assert duel_board.DuelBoard in kinds(abilities.turn_points(duel).turn_actions)
    three = parse(HQS + "c3 borgo:hq\n")
    assert multiplayer.FallenArmies in kinds(abilities.points_for(three).battle_end)


def test_a_family_written_with_the_former_present_in_hook_is_refused_loudly():
    """A family that says when it is present with a ``present_in`` method would never be asked: the search for
    families says so instead of leaving it silently absent."""
    class Stale(Ability):
        @classmethod
        def present_in(cls, position: object) -> bool:
            return True

    assert "present_in" in vars(Stale)
    assert not hasattr(Ability, "present_in")
    with pytest.raises(TypeError):
        abilities._check_family(Stale)
