"""The Doomsday Machine (issue 13). ES = ../shared/rules/rulebook-es-armies-doomsday-puzzles.txt, the Doomsday
Machine sheet (Spanish OCR; quoted with an English translation); RULINGS = ../shared/RULINGS.md 49-57."""

from __future__ import annotations

import pytest

from solver import battle, effects, notation
from solver.hexes import Hex
from solver.position import Position


def position(text: str) -> Position:
    return notation.parse_position(text)


def outcomes(text: str) -> tuple[battle.Outcome, ...]:
    return battle.resolve(position(text), trace=True)


def fight(text: str) -> battle.Outcome:
    found = outcomes(text)
    assert len(found) == 1, [o.choices for o in found]
    return found[0]


def unit(outcome: battle.Outcome, label: str):
    return outcome.position.unit_at(Hex.parse(label))


def wounds(outcome: battle.Outcome, label: str) -> int:
    found = unit(outcome, label)
    assert found is not None, f"nothing on {label}"
    return found.wounds


def bonuses(text: str) -> dict[str, effects.Bonus]:
    p = position(text)
    reading = effects.read({u.hex: u for u in p.units}, p.rules)
    return {h.label: b for h, b in reading.bonuses.items()}


# --- long-distance modules (RULINGS 54) ------------------------------------------------------------------------

SHEET_EXAMPLE = """
    c4 doomsday:officer N
    c3 doomsday:delta-shooter N
    c2 doomsday:gamma-shooter N
    c1 doomsday:alpha-shooter N
    e3 doomsday:main-war-processor N
    e2 moloch:blocker S
    e1 doomsday:omega-shooter N
"""


def test_sheet_example_officer_reaches_delta_and_gamma_not_alpha_three_hexes_away():
    """ES, the legend's example: "Officer afecta a ambos Delta y Gamma Shooters (trazados en verde). Sin
    embargo, no afecta a Alpha Shooter que está a 3 hexágonos de distancia ya que el Módulo está demasiado
    lejos" (the Officer affects both the Delta and the Gamma Shooter, drawn in green; it does not affect the
    Alpha Shooter 3 hexes away, since the Module is too far)."""
    found = bonuses(SHEET_EXAMPLE)
    assert found["c3"].ranged == 1 and found["c2"].ranged == 1
    assert "c1" not in found


def test_sheet_example_main_war_processor_works_over_the_enemy_unit():
    """ES, the same example: "Omega Shooter (trazado en rojo) está afectado por Main War Processor que puede
    afectar a la unidad a dos espacios de distancia y funciona incluso sobre la unidad enemiga" (the Omega
    Shooter, drawn in red, is affected by the Main War Processor, which can affect the unit two spaces away and
    works even over the enemy unit). The enemy in between gets nothing."""
    found = bonuses(SHEET_EXAMPLE)
    assert found["e1"].extra_actions == 1
    assert "e2" not in found


def test_sheet_example_in_battle_the_boosted_shooters_hit_harder():
    """ES legend: "Las unidades amigas conectadas por Módulos entre 1 & 2 hexágonos reciben la bonificación del
    Módulo" (friendly units linked by Modules 1 to 2 hexes away receive the Module's bonus). The Gamma Shooter
    two hexes from the Officer shoots at strength 2 over the Delta Shooter into the Moloch Blocker."""
    result = fight("""
        c4 doomsday:officer N
        c3 doomsday:gamma-shooter N
        c2 moloch:blocker N
        a1 moloch:hq
        e3 doomsday:hq
    """)
    # The Officer reaches the Gamma Shooter on c3 (adjacent): 2+2 over two phases (2 and 1) = 4 > Blocker's 3.
    assert unit(result, "c2") is None


def test_long_link_never_reaches_a_third_hex_nor_an_enemy():
    """RULINGS 54: "never three hexes and never an enemy"."""
    found = bonuses("""
        c5 doomsday:officer N
        c4 moloch:blocker N
        c3 moloch:hybrid N
        c2 doomsday:delta-shooter N
    """)
    assert found == {}


def test_long_link_medic_two_hexes_away_saves_a_unit():
    """ES Medic: "Una unidad conectada debe ignorar todos los daños de 1 ataque y el médico se descarta" (a
    linked unit must ignore all the damage of 1 attack and the Medic is discarded); RULINGS 54: the Medic
    reaches two hexes, over an enemy. The Moloch Hunter on c3 is between the Medic on c4 and the Delta on c2."""
    result = fight("""
        c4 doomsday:medic N
        c3 moloch:blocker N
        c2 doomsday:delta-shooter S
        c1 moloch:hunter-killer S
    """)
    assert unit(result, "c2") is not None and wounds(result, "c2") == 0
    assert unit(result, "c4") is None  # the Medic is discarded


def test_netted_long_distance_module_gives_nothing():
    """3E NET: a netted unit cannot 'add bonuses'; RULINGS 54 (issue 13: "a netted module gives nothing")."""
    found = bonuses("""
        c4 doomsday:officer N
        c3 doomsday:delta-shooter N
        c2 doomsday:gamma-shooter N
        b4 borgo:net-fighter NW
    """)
    assert found == {}
