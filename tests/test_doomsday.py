"""The Doomsday Machine (issue 13). ES = ../shared/rules/rulebook-es-armies-doomsday-puzzles.txt, the Doomsday
Machine sheet (Spanish OCR; quoted with an English translation); RULINGS = ../shared/RULINGS.md 49-57."""

from __future__ import annotations

import pytest

from solver.engine import battle, effects
from solver.notation import text as notation
from solver.hexes import Hex


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


def test_long_distance_modules_reach_over_an_empty_first_hex():
    """RULINGS 66 (amends 54): the first official app, Long Distance Modules: "In case of units 2 hexes away Long
    Distance Modules work over enemy units and empty spaces." The Officer on c4 reaches the Delta Shooter on c2 over
    the empty c3, the Main War Processor on e3 the Omega Shooter on e1 over the empty e2."""
    found = bonuses("""
        c4 doomsday:officer N
        c2 doomsday:delta-shooter N
        e3 doomsday:main-war-processor N
        e1 doomsday:omega-shooter N
    """)
    assert found["c2"].ranged == 1
    assert found["e1"].extra_actions == 1


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


# --- redirection (RULINGS 49-52) -----------------------------------------------------------------------------------

def test_fireblast_turns_a_friendly_shot_out_of_its_exit_edge():
    """ES Fireblast: "Cualquier disparo a distancia amigo que entre en esta unidad cambia de dirección de ataque
    al salir" (any friendly ranged shot that enters this unit changes its direction of attack on leaving).
    RULINGS 50: with its strength, and it goes no further on the old line."""
    result = fight("""
        c5 doomsday:delta-shooter N
        c4 doomsday:fireblast NE
        e2 moloch:blocker S
        c1 moloch:blocker N
    """)
    assert wounds(result, "e2") == 2
    assert wounds(result, "c1") == 0


def test_shot_entering_by_the_exit_edge_passes_over_the_redirector():
    """RULINGS 50: 'an attack entering through an exit edge passes over it like any friend' (ES legend:
    'salida' exit, 'entrada' entrance)."""
    result = fight("""
        c5 doomsday:delta-shooter N
        c4 doomsday:fireblast S
        e2 moloch:blocker S
        c1 moloch:blocker N
    """)
    assert wounds(result, "c1") == 2
    assert wounds(result, "e2") == 0


def test_fireblast_armor_on_its_exit_edge_and_enemy_shots_wound_it():
    """RULINGS 49: the Fireblast has armor on N, its exit edge (ES: "Resistente & Armadura", tough and armor);
    RULINGS 50: enemy attacks wound it. A Hybrid's strength-1 shot on the armored side does nothing; on
    another side it wounds."""
    result = fight("""
        c4 doomsday:fireblast N
        c1 moloch:hybrid S
        d4 doomsday:fireblast N
        d1 moloch:hybrid S
        a1 doomsday:hq
    """)
    assert wounds(result, "c4") == 0
    result = fight("""
        c4 doomsday:fireblast S
        c1 moloch:hybrid S
    """)
    assert wounds(result, "c4") == 1


def test_tripler_sends_the_shot_out_of_its_three_exits_at_once():
    """ES Tripler: "Cualquier disparo a distancia amigo que entre en esta unidad cambia de dirección de ataque
    para las 3 salidas, atacando simultáneamente a las unidades en las 3 direcciones. Resistente." (any friendly
    ranged shot entering this unit turns towards the 3 exits, attacking the units in the 3 directions at once.
    Tough.)"""
    result = fight("""
        c5 doomsday:delta-shooter N
        c4 doomsday:tripler N
        c2 moloch:blocker N
        e2 moloch:blocker N
        a2 moloch:hq
    """)
    assert [wounds(result, h) for h in ("c2", "e2")] == [2, 2]
    assert result.hq["moloch"] == 18


def test_redirectors_chain():
    """RULINGS 50: 'chains redirect again'; ES CONSEJOS TÁCTICOS: "mediante la creación de una cadena de unidades
    especiales de reorientación" (by building a chain of special redirecting units)."""
    result = fight("""
        c5 doomsday:delta-shooter N
        c4 doomsday:fireblast NW
        b3 doomsday:fireblast N
        b1 moloch:blocker N
        c1 moloch:blocker N
    """)
    assert wounds(result, "b1") == 2
    assert wounds(result, "c1") == 0


def test_redirect_loop_stops_the_shot_under_option_redirect_loop_stop():
    """RULINGS 51 (no passage), kept as option redirect-loop=stop (RULINGS 65): a shot never enters the same
    redirector twice; it stops there. Two Fireblasts and a Doom Net Fighter send the shot round c4 → b3 → c3 → c4:
    nothing is hit and the battle ends."""
    result = fight("""
        rules 3.0 redirect-loop=stop
        c5 doomsday:delta-shooter N
        c4 doomsday:fireblast NW
        b3 doomsday:fireblast NE
        c3 doomsday:doom-net-fighter S
        c1 moloch:blocker N
        a2 moloch:blocker N
    """)
    assert wounds(result, "c1") == 0 and wounds(result, "a2") == 0
    assert any(e.rule == "RULINGS 51" for e in result.trace)


def test_gauss_beam_turns_at_a_redirector_and_wounds_every_enemy_on_the_new_line():
    """RULINGS 50: 'a Gauss beam turns there, wounds every enemy on the new line, and goes no further on the old
    one'."""
    result = fight("""
        c5 doomsday:gauss-cannon N
        c4 doomsday:fireblast NE
        d3 moloch:blocker N
        e2 moloch:blocker N
        c2 moloch:hq
    """)
    assert wounds(result, "d3") == 1 and wounds(result, "e2") == 1
    assert result.hq["moloch"] == 20


def test_netted_redirector_redirects_nothing():
    """RULINGS 50: 'a netted redirector redirects nothing' (3E NET: a netted unit cannot perform any action);
    the shot flies over it like over any friend."""
    result = fight("""
        c5 doomsday:delta-shooter N
        c4 doomsday:fireblast NE
        b4 borgo:net-fighter NW
        e2 moloch:blocker S
        c1 moloch:blocker N
    """)
    assert wounds(result, "c1") == 2
    assert wounds(result, "e2") == 0


def test_module_linked_to_the_redirector_changes_nothing_and_armor_counts_from_the_new_direction():
    """RULINGS 50: 'modules linked to it change nothing' and 'armor counts from the new direction'. The Officer on
    d4 links only the Fireblast; the Blocker's armor faces the turned shot (3E ARMOR: −1)."""
    result = fight("""
        c5 doomsday:delta-shooter N
        c4 doomsday:fireblast NE
        d4 doomsday:officer NW
        e2 moloch:blocker SW
    """)
    assert wounds(result, "e2") == 1


def test_two_branches_on_one_unit_are_one_attack_for_a_medic():
    """RULINGS 52: two branches of one shooter's redirected attack that hit the same unit in one phase are one
    attack for a Medic (3E USING MEDICS: 'an attack ... of 1 enemy unit'). The Tripler's N and NE branches both
    turn onto d2 (4 wounds, enough to kill the Blocker); the Moloch Medic absorbs them both."""
    text = """
        c5 doomsday:delta-shooter N
        c4 doomsday:tripler N
        c3 doomsday:fireblast NE
        d3 doomsday:fireblast N
        d2 moloch:blocker N
        {medic}
    """
    assert unit(fight(text.format(medic="")), "d2") is None
    saved = fight(text.format(medic="d1 moloch:medic S"))
    assert wounds(saved, "d2") == 0 and unit(saved, "d1") is None


def test_enemy_met_before_the_redirector_takes_the_shot():
    """RULINGS 50: 'an enemy met before it takes the shot' (3E RANGED ATTACK: the first enemy on the line)."""
    result = fight("""
        c5 doomsday:delta-shooter N
        c4 moloch:blocker N
        c3 doomsday:fireblast NE
        e1 moloch:blocker N
    """)
    assert wounds(result, "c4") == 2 and wounds(result, "e1") == 0


# --- the Trap (RULINGS 53) -------------------------------------------------------------------------------------------

def test_trap_explodes_when_an_enemy_melee_attack_hits_its_marked_side():
    """ES Trap: "Cualquier ataque enemigo en el lado marcado activa Trap explotando de inmediato, infringe 1 daño
    a cada unidad adyacente (los bonos no hacen efecto) amiga y enemiga (incluyendo CGs). Después de la
    explosión se descarta." (Any enemy attack on the marked side sets the Trap off at once: 1 wound to every
    adjacent unit, bonuses having no effect, friend and foe, HQs included. After the explosion it is
    discarded.)"""
    result = fight("""
        c3 doomsday:trap N
        c2 moloch:hunter-killer S
        d3 doomsday:delta-shooter S
        c4 doomsday:hq
        a1 moloch:hq
    """)
    assert unit(result, "c3") is None  # discarded
    assert unit(result, "c2") is None  # 1 wound kills the Hunter-Killer
    assert wounds(result, "d3") == 1  # friends too
    assert result.hq["doomsday"] == 19  # HQs included


def test_trap_explodes_on_a_ranged_attack_on_its_marked_side():
    """ES Trap ("Cualquier ataque enemigo", any enemy attack); RULINGS 53: melee or ranged."""
    result = fight("""
        c3 doomsday:trap N
        c1 moloch:hybrid S
        d3 doomsday:delta-shooter S
    """)
    assert unit(result, "c3") is None and wounds(result, "d3") == 1


def test_trap_hit_on_another_side_only_dies():
    """RULINGS 53: 'an attack on another side ... only wounds it (one wound kills it)'."""
    result = fight("""
        c3 doomsday:trap S
        c1 moloch:hybrid S
        d3 doomsday:delta-shooter S
    """)
    assert unit(result, "c3") is None and wounds(result, "d3") == 0


def test_trap_explodes_on_a_gauss_beam():
    """RULINGS 53: 'a Gauss beam too'. The Moloch Gauss Cannon's beam (printed SW) reaches the Trap's marked side."""
    result = fight("""
        c3 doomsday:trap N
        c1 moloch:gauss-cannon NW
        d3 doomsday:delta-shooter S
    """)
    assert unit(result, "c3") is None and wounds(result, "d3") == 1


def test_netted_trap_cannot_explode():
    """RULINGS 53: 'a netted Trap cannot explode' (3E NET: a netted unit performs no action)."""
    result = fight("""
        c3 doomsday:trap N
        c2 moloch:hunter-killer S
        b3 moloch:net-fighter NE
        d3 doomsday:delta-shooter S
    """)
    assert unit(result, "c3") is None and wounds(result, "d3") == 0


def test_medic_neither_saves_the_trap_nor_is_spent():
    """ES Trap: "No se puede reparar de ninguna manera" (it cannot be repaired in any way); RULINGS 53: a Medic
    neither saves it nor is spent. The Medic on c5 reaches the Trap two hexes away (RULINGS 54)."""
    result = fight("""
        c3 doomsday:trap N
        c2 moloch:hunter-killer S
        c5 doomsday:medic N
    """)
    assert unit(result, "c3") is None and unit(result, "c5") is not None


def test_instant_only_wounds_the_trap():
    """RULINGS 53: 'an instant only wounds it' (an instant comes from no side)."""
    p = position("""
        c3 doomsday:trap N
        d3 doomsday:delta-shooter S
    """)
    (_, after), = battle.wound(p, [(Hex.parse("c3"), 1)], "moloch:air-strike")
    assert after.unit_at(Hex.parse("c3")) is None
    assert after.unit_at(Hex.parse("d3")).wounds == 0


# --- the HQ's rotation (RULINGS 55) ---------------------------------------------------------------------------------

from solver.turns import actions  # noqa: E402
from solver.errors import IllegalAction  # noqa: E402
from solver.position import Move  # noqa: E402

from battle_helpers import fight, outcomes, position

ROTATION_BOARD = """
    to-move doomsday
    c3 doomsday:hq
    c4 doomsday:delta-shooter N
    d4 doomsday:officer N
    a1 moloch:hq
    b1 moloch:hybrid S
"""


def rotations(text: str, army: str = "doomsday") -> list[str]:
    p = position(text)
    return [str(a) for a in actions.legal_actions(p, army) if isinstance(a, Move) and a.by == "hq"]


def test_hq_turns_one_friendly_unit_in_any_direction():
    """ES CG: "En su turno puede girar una unidad amiga en cualquier dirección" (in its turn it may turn one
    friendly unit in any direction). Every other facing of each own unit, modules included; never the HQ."""
    found = rotations(ROTATION_BOARD)
    assert "move c4 c4 S by hq" in found and "move d4 d4 SE by hq" in found
    assert len(found) == 10  # five other facings for each of the two units
    assert not any(a.startswith("move c3") for a in found)
    after = actions.apply(position(ROTATION_BOARD), Move(Hex.parse("c4"), Hex.parse("c4"), _dir("S"), "hq"),
                          "doomsday")
    assert after.unit_at(Hex.parse("c4")).facing.name == "S"


def _dir(name: str):
    from solver.hexes import Direction

    return Direction[name]


def test_hq_rotation_only_once_a_turn():
    """ES CONSEJOS TÁCTICOS: "la posibilidad de girar una unidad cada turno" (the chance to turn one unit every
    turn); RULINGS 55: once."""
    p = position(ROTATION_BOARD)
    first = Move(Hex.parse("c4"), Hex.parse("c4"), _dir("S"), "hq")
    used = actions.spend(p, first, "doomsday", actions.NOTHING_USED)
    after = actions.apply(p, first, "doomsday")
    assert not [a for a in actions.legal_actions(after, "doomsday", used) if isinstance(a, Move)]
    with pytest.raises(IllegalAction, match="once"):
        actions.apply(after, Move(Hex.parse("d4"), Hex.parse("d4"), _dir("S"), "hq"), "doomsday", used)


def test_hq_rotation_never_moves_a_unit_nor_turns_an_enemy():
    """RULINGS 55: 'it never moves a unit'; ES 'una unidad amiga' (a friendly unit)."""
    p = position(ROTATION_BOARD)
    with pytest.raises(IllegalAction, match="TO = FROM"):
        actions.apply(p, Move(Hex.parse("c4"), Hex.parse("c5"), _dir("S"), "hq"), "doomsday")
    with pytest.raises(IllegalAction, match="friendly"):
        actions.apply(p, Move(Hex.parse("b1"), Hex.parse("b1"), _dir("N"), "hq"), "doomsday")


def test_hq_rotation_is_the_doomsday_players_own_and_the_opponent_is_not_refused():
    """ES CG: 'En su turno' (in its turn). On the opponent's turn the Doomsday HQ grants nothing, and listing the
    opponent's moves is no longer refused (issue 13)."""
    text = ROTATION_BOARD.replace("to-move doomsday", "to-move moloch") + "hand moloch moloch:battle\n"
    assert rotations(text, "moloch") == []
    assert "use moloch:battle" in [str(a) for a in actions.legal_actions(position(text), "moloch")]


def test_netted_unit_or_netted_hq_cannot_turn():
    """RULINGS 55: 'not a netted unit, nothing while the HQ is netted' (3E NET)."""
    netted_unit = ROTATION_BOARD + "    b4 moloch:net-fighter NE\n"  # nets c4 (NE of b4)
    assert not any(r.startswith("move c4") for r in rotations(netted_unit))
    netted_hq = ROTATION_BOARD + "    b3 moloch:net-fighter NE\n"  # nets c3 (NE of b3)
    assert rotations(netted_hq) == []


# --- Battle and Push Back: the base instants by name (NOTATION §5) ------------------------------------------------


def test_doomsday_battle_tile_starts_a_battle():
    """ES BATTLE: "Comienza una batalla ... No se puede utilizar si un jugador ha robado la última loseta" (starts a
    battle ... cannot be used once a player has drawn the last tile): the base Battle tile's rule."""
    p = position("to-move doomsday\nc3 doomsday:hq\na1 moloch:hq\nhand doomsday doomsday:battle\n")
    use = next(a for a in actions.legal_actions(p, "doomsday") if str(a) == "use doomsday:battle")
    after = actions.apply(p, use, "doomsday")
    assert actions.starts_battle(use, after)
    last = position("to-move doomsday\nc3 doomsday:hq\na1 moloch:hq\nhand doomsday doomsday:battle\n"
                    "deck doomsday 0\n")
    assert "use doomsday:battle" not in [str(a) for a in actions.legal_actions(last, "doomsday")]


def test_doomsday_push_back_pushes_an_adjacent_enemy_and_the_enemy_chooses_the_hex():
    """ES PUSH BACK: "Empuja a una unidad enemiga adyacente a un hexágono vacio. Si hay varios, el enemigo
    selecciona el hexágono." (Pushes an adjacent enemy unit to an empty hex. If there are several, the enemy picks
    the hex.) A module may push (RULINGS 59)."""
    p = position("to-move doomsday\nc2 doomsday:hq\nc4 doomsday:medic N\nc3 moloch:blocker N\na1 moloch:hq\n"
                 "hand doomsday doomsday:push-back\n")
    push = next(a for a in actions.player_actions(p, "doomsday") if str(a) == "use doomsday:push-back c4 c3")
    results = actions.results(p, push, "doomsday")
    assert sorted(label for label, _ in results) == ["moloch puts the pushed unit on b2",
                                                     "moloch puts the pushed unit on d2"]


# --- a whole game: nhex check replays a Doomsday record ------------------------------------------------------------

DOOMSDAY_GAME = """
game
players doomsday moloch
1. doomsday: hq c4
2. moloch: hq c1
3. doomsday: draw delta-shooter; place delta-shooter c5 NE
4. moloch: draw blocker hybrid; place blocker b1 SE; place hybrid e1 SW
5. doomsday: draw fireblast officer medic; discard medic; place fireblast d4 N; move c5 c5 N by hq; place officer b4 NE
6. moloch: draw battle guard scout; discard guard; use battle
"""


def test_a_doomsday_game_record_replays_with_the_hqs_rotation_and_a_battle():
    """ES CG: "En su turno puede girar una unidad amiga" (in its turn it may turn one friendly unit), written
    `move HEX HEX FACING by hq` (NOTATION §10.4); nothing of the army is refused in a record (issue 13)."""
    from solver.turns.game import check

    report = check(notation.parse(DOOMSDAY_GAME))
    assert report.verdict == "legal", (report.line, report.action, report.problem)


def test_a_second_hq_rotation_in_one_turn_is_illegal_in_a_record():
    """RULINGS 55: once in its player's turn."""
    from solver.turns.game import check

    record = DOOMSDAY_GAME.replace("move c5 c5 N by hq;", "move c5 c5 N by hq; move c5 c5 NW by hq;")
    report = check(notation.parse(record))
    assert report.verdict == "illegal" and "once" in (report.problem or "")


def test_redirect_loop_stops_under_either_reading_of_rulings_51():
    """RULINGS 51 (option redirect-loop=stop, RULINGS 65), option redirect-revisit: 'shot' (every branch of the shot
    shares what it entered) or 'branch' (only its own path); a loop ends either way."""
    text = """
        rules 3.0 redirect-loop=stop redirect-revisit=branch
        c5 doomsday:delta-shooter N
        c4 doomsday:fireblast NW
        b3 doomsday:fireblast NE
        c3 doomsday:doom-net-fighter S
        c1 moloch:blocker N
    """
    result = fight(text)
    assert wounds(result, "c1") == 0
    assert any(e.rule == "RULINGS 51" for e in result.trace)


def test_long_medic_linked_to_two_units_hit_at_once_its_owner_picks():
    """ES: "En el caso del Módulo Médic, si está conectado a dos unidades, y ambas son destruidas, el jugador elige
    cuál de ellos se verá afectado por Médic" (where the Medic is linked to two units and both are destroyed, the
    player chooses which of them the Medic affects); RULINGS 54. Its link reaches c4 and c3."""
    found = outcomes("""
        c5 doomsday:medic N
        c4 doomsday:omega-shooter N
        c3 doomsday:alpha-shooter N
        b3 moloch:hunter-killer N
        b4 moloch:hunter-killer N
    """)
    survivors = sorted(tuple(sorted(h for h in ("c3", "c4") if unit(o, h) is not None)) for o in found)
    assert survivors == [("c3",), ("c4",)]
    assert all(any("Medic" in c for c in o.choices) for o in found)


# --- the Small Bomb (ES sheet; solver/abilities/small_bomb.py, shared with the Neojungle) ---------------------------

SMALL_BOMB = """
    c3 doomsday:hq
    a1 moloch:hq
    b3 moloch:hybrid N
    b4 doomsday:tripler N
    c4 moloch:blocker N
    hand doomsday small-bomb
    to-move doomsday
"""


def test_doomsday_small_bomb_wounds_friend_and_foe_on_three_adjacent_hexes_but_no_hq():
    """ES sheet, SMALL BOMB: "Realiza 1 daño a cada unidad (amiga o enemiga) que se encuentre en los 3 hexágonos
    adyacentes atacados. No afecta a los CGs." (It deals 1 wound to each unit, friend or foe, on the 3 adjacent
    hexes attacked. It does not affect HQs.) The Tripler (toughness 1: "Resistente") and the Blocker keep one
    wound each; the Hybrid dies; on b3 c3 c4 the Doomsday HQ is spared."""
    from solver.turns import actions

    (only,) = actions.results(position(SMALL_BOMB), notation.parse_action("use small-bomb b3 b4 c4", "doomsday"),
                              "doomsday")
    after = only[1]
    assert after.unit_at(Hex.parse("b3")) is None
    assert after.unit_at(Hex.parse("b4")).wounds == 1 and after.unit_at(Hex.parse("c4")).wounds == 1
    (spared,) = actions.results(position(SMALL_BOMB), notation.parse_action("use doomsday:small-bomb b3 c3 c4",
                                                                           "doomsday"), "doomsday")
    assert spared[1].unit_at(Hex.parse("c3")).hp == 20


def test_doomsday_small_bomb_hexes_must_be_mutually_adjacent():
    """ES sheet: "los 3 hexágonos adyacentes" (the 3 adjacent hexes); B13 Small bomb: "mutually adjacent"."""
    from solver.turns import actions
    from solver.errors import IllegalAction

    with pytest.raises(IllegalAction, match="mutually adjacent"):
        actions.results(position(SMALL_BOMB), notation.parse_action("use small-bomb b3 b4 c5", "doomsday"), "doomsday")


def test_doomsday_small_bomb_only_kills_a_trap_and_sets_off_the_mad_bomber():
    """RULINGS 53: an instant only wounds the Trap ("Cualquier ataque enemigo en el lado marcado activa Trap": an
    instant comes from no side), and one wound kills it; RULINGS 56: any hit, an instant's too, sets the Mad Bomber
    off: 1 wound to every adjacent unit but HQs (2E Mad Bomber as non player character)."""
    from solver.turns import actions

    text = """
        c1 doomsday:hq
        e3 moloch:hq
        b3 doomsday:trap N
        b4 mercenary:mad-bomber
        a3 moloch:hybrid N
        c5 moloch:blocker N
        b2 moloch:blocker N
        hand doomsday small-bomb
        to-move doomsday
    """
    (only,) = actions.results(position(text), notation.parse_action("use small-bomb b3 b4 a3", "doomsday"),
                              "doomsday")
    after = only[1]
    assert after.unit_at(Hex.parse("b3")) is None and after.unit_at(Hex.parse("b4")) is None  # Trap, Bomber gone
    assert after.unit_at(Hex.parse("a3")) is None  # the bomb's wound
    assert after.unit_at(Hex.parse("c5")).wounds == 1  # the Bomber's blast (c5 touches b4, not b3)
    assert after.unit_at(Hex.parse("b2")).wounds == 0  # b2 touches b3: the Trap did not explode


def test_a_whole_doomsday_game_record_replays_with_the_hqs_rotations():
    """tests/data/games/doomsday-vs-moloch-bomber.nhex, made by playing legal moves through the engine: `nhex check`
    replays the Doomsday HQ's rotations (ES sheet, CG: "girar una unidad amiga", turn a friendly unit, once in its
    own turn; RULINGS 55) and every battle to Moloch's win at the Final Battle."""
    from pathlib import Path

    from solver.turns import game

    text = (Path(__file__).parent / "data" / "games" / "doomsday-vs-moloch-bomber.nhex").read_text()
    assert text.count("by hq") >= 5
    report = game.check(notation.parse(text))
    assert report.ok and report.state.winners == ("moloch",) and report.state.hq == {"doomsday": 15, "moloch": 19}
    twice = text.replace("move a1 a1 NW by hq", "move a1 a1 NW by hq; move a2 a2 NE by hq")
    again = game.check(notation.parse(twice))
    assert again.verdict == "illegal" and again.action == "move a2 a2 NE by hq"


TAKEN_BY_VEGAS = """
    to-move doomsday
    e3 doomsday:hq
    c3 vegas:agitator N
    c2 doomsday:delta-shooter N
    a3 vegas:hq N
"""


def test_hq_rotation_does_not_turn_a_unit_vegas_has_taken_over():
    """ES CG: "puede girar una unidad amiga" (it may turn one *friendly* unit); PL VEGAS, Sztab: a taken unit "pod
    każdym względem traktowana jest jak własna" (is treated in every respect as its taker's own). The Agitator on
    c3 holds the Delta Shooter on c2: it is Vegas's, so the Doomsday HQ neither lists nor accepts turning it."""
    assert rotations(TAKEN_BY_VEGAS) == []
    with pytest.raises(IllegalAction, match="friendly"):
        actions.apply(position(TAKEN_BY_VEGAS), Move(Hex.parse("c2"), Hex.parse("c2"), _dir("S"), "hq"), "doomsday")
    freed = TAKEN_BY_VEGAS.replace("c3 vegas:agitator N", "c3 vegas:agitator S")  # looks away: c2 is Doomsday's
    assert "move c2 c2 S by hq" in rotations(freed)


# --- redirect loops (RULINGS 65) -----------------------------------------------------------------------------------

ENDLESS_LOOP = """
    c5 doomsday:delta-shooter N
    c4 doomsday:fireblast N
    c3 doomsday:tripler N
    d2 doomsday:doom-net-fighter S
    d3 doomsday:fireblast SW
    c1 moloch:blocker S
    a1 moloch:hq
    e1 doomsday:hq
"""


def test_a_branch_back_in_a_redirector_on_its_own_path_loops_without_end():
    """RULINGS 65: the first official app, Doomsday, "Infinite Combo": "A split ranged attack, which gets back to
    a splitting Unit creates an infinite loop and inflicts an infinite damage"; ES Doomsday sheet: "No es un
    error, es tan solo una característica de Doomsday" (it is not a mistake, just a feature of Doomsday). The
    shot goes c4 → the Tripler on c3; its NE branch goes d2 → d3 → back into c4 through an entrance edge. Every
    enemy a branch reaches is destroyed whatever its toughness or armor: the armored Blocker (3 health) on c1 and
    the Moloch HQ on a1."""
    result = fight(ENDLESS_LOOP)
    assert unit(result, "c1") is None
    assert result.hq["moloch"] == 0
    assert any(e.rule.startswith("RULINGS 65") and "loops without end" in e.text for e in result.trace)
    stopped = fight("rules 3.0 redirect-loop=stop\n" + ENDLESS_LOOP)  # RULINGS 51's reading, kept as an option
    assert wounds(stopped, "c1") == 1 and stopped.hq["moloch"] == 18


def test_a_shot_entering_a_redirector_by_its_exit_edge_makes_no_loop():
    """RULINGS 65: "A shot entering a redirector through an exit edge passes over it (50) and makes no loop." The
    Tripler on c3 sends the shot N; the Fireblast on c2, the Doom Net Fighter on d1 and the Fireblast on d2 bring
    that branch back into the Tripler through its NE edge, an exit: it passes over and hits the Blocker on b3 for
    2, an ordinary hit, as the NW branch hits the HQ on a1."""
    result = fight("""
        c5 doomsday:delta-shooter N
        c3 doomsday:tripler N
        c2 doomsday:fireblast NE
        d1 doomsday:doom-net-fighter S
        d2 doomsday:fireblast SW
        b3 moloch:blocker N
        a1 moloch:hq
        e3 doomsday:hq
    """)
    assert wounds(result, "b3") == 2 and result.hq["moloch"] == 18
    assert not any("loops without end" in e.text for e in result.trace)


def test_a_medic_takes_the_whole_endless_attack_as_one_and_is_spent():
    """RULINGS 65: "a Medic linked to such a unit takes the whole attack for it, as one attack (RULINGS 3, 4, 52),
    and is spent". A Moloch Medic linked to the Blocker on c1 saves it and is discarded."""
    text = ENDLESS_LOOP.replace("a1 moloch:hq", "a3 moloch:hq") + "    b1 moloch:medic NE\n"  # links c1
    found = outcomes(text)
    saved = [o for o in found if unit(o, "c1") is not None]
    assert saved and all(unit(o, "b1") is None and wounds(o, "c1") == 0 for o in saved)


# --- redirection in team play; Scoper and Spy (RULINGS 70) ---------------------------------------------------------

TURNED_NE = """
    c5 outpost:hmg N
    c4 doomsday:fireblast NE
    e2 moloch:blocker S
    a1 outpost:hq
    b1 doomsday:hq
    a3 moloch:hq
"""


def _hurt(outcome: battle.Outcome, label: str) -> bool:
    found = unit(outcome, label)
    return found is None or found.wounds > 0


def test_a_redirector_turns_a_teammates_shot():
    """RULINGS 70 (the Polish Doomsday Machine 3.0 rulebook, SYTUACJE SZCZEGÓLNE): a redirector also redirects its
    teammates' ranged attacks, each keeping its kind. The allied Outpost HMG's shot turns NE at the Fireblast and
    wounds the Moloch Blocker on e2."""
    result = fight("team doomsday outpost\nteam moloch borgo\nc1 borgo:hq\n" + TURNED_NE)
    assert _hurt(result, "e2") and wounds(result, "c4") == 0


def test_a_scoper_cannot_link_to_a_redirector():
    """RULINGS 70: "redirectors are not modules, so a Scoper or a Spy cannot link to them" (PL Doomsday Machine 3.0,
    SYTUACJE SZCZEGÓLNE). The Outpost Scoper on b4 touches the Fireblast, which stays Doomsday's: the HMG's shot
    wounds it and goes no further."""
    result = fight(TURNED_NE + "    b4 outpost:scoper N\n")
    assert _hurt(result, "c4") and wounds(result, "e2") == 0


def test_a_spy_cannot_link_to_a_redirector():
    """RULINGS 70 (as above). The New York Spy Shooter on c5 (its NW edge, turned N) shoots into the adjacent
    Doomsday Fireblast: a Spy uses enemy *modules* as friendly (B13 NEW YORK, Spy), and a redirector is none, so the
    shot wounds the Fireblast instead of turning."""
    text = TURNED_NE.replace("c5 outpost:hmg N", "c5 new-york:spy-shooter NE").replace("a1 outpost:hq", "a1 new-york:hq")
    result = fight(text)
    assert _hurt(result, "c4") and wounds(result, "e2") == 0
