"""Vegas (PL Duel book, ../shared/rules/rulebook-pl-duel-smart-vegas.txt, part VEGAS and its "Sytuacje
szczególne"; RULINGS 16-20, 25, 26, 40, 42): control takeover, Mines, Rotation, Castling, the HQ's facing.
Polish is quoted from the OCR with diacritics restored, followed by an English translation."""

from __future__ import annotations

import pytest

from solver.turns import actions
from solver.engine import battle, effects
from solver.notation import text as notation
from solver.errors import IllegalAction
from solver.hexes import Hex

from battle_helpers import fight, position


def sides(text: str) -> dict[str, str]:
    p = position(text)
    reading = effects.read({u.hex: u for u in p.units}, p.rules)
    return {h.label: army for h, army in reading.sides.items()}


def alive(outcome: battle.Outcome) -> set[str]:
    return {u.hex.label for u in outcome.position.units}


# --- control takeover (PL VEGAS, Sztab and Agitator) ------------------------------------------------------------


def test_a_unit_the_agitator_links_fights_for_vegas_and_strikes_its_own_hq():
    """PL VEGAS, Sztab: "zostaje automatycznie przejęta i pod każdym względem traktowana jest jak własna" (it is
    taken over automatically and treated in every respect as Vegas's own); Agitator: "cechę Przejęcia Kontroli,
    analogiczną jak cecha Sztabu" (the same takeover as the HQ's). The taken Ripper hits the Smart HQ."""
    text = """
        c3 vegas:agitator N
        c2 smart:ripper N
        c1 smart:hq N
        a3 vegas:hq N
    """
    assert sides(text) == {"c2": "vegas"}
    outcome = fight(text)
    assert outcome.hq["smart"] == 20 - 2
    assert "c2" not in alive(outcome)  # and its former HQ strikes it (RULINGS 17): melee 1 kills the Ripper


def test_the_vegas_hq_takes_over_only_through_its_one_takeover_edge():
    """PL VEGAS, Sztab: "należy zwrócić uwagę, że Sztab Vegas posiada jeden kierunek działania Cechy specjalnej"
    (mind that the Vegas HQ has one direction of its ability); RULINGS 16: edge SE as printed, turned with the HQ's
    facing."""
    text = """
        c3 vegas:hq N
        d3 smart:ripper N
        c2 smart:cyborg N
    """
    assert sides(text) == {"d3": "vegas"}
    turned = """
        c3 vegas:hq SW
        d3 smart:ripper N
        c2 smart:cyborg N
    """
    assert sides(turned) == {"c2": "vegas"}  # facing SW turns the takeover edge to N


def test_an_enemy_hq_is_never_taken_over():
    """PL VEGAS, Sztab: "Nie można przejąć wrogiego Sztabu." (An enemy HQ cannot be taken over.) The Smart HQ
    the Agitator links stays Smart's and strikes the Agitator."""
    text = """
        c3 vegas:agitator N
        c2 smart:hq N
    """
    assert sides(text) == {}
    assert "c3" not in alive(fight(text))


def test_takeover_beats_a_net_aimed_back_at_the_agitator():
    """PL VEGAS, Sytuacje szczególne: "Przejęcie Kontroli jest silniejsze od Sieci, tzn. jeśli Sieciarz i Agitator
    (lub Sztab Vegas) skierują na siebie nawzajem swoje działania, wtedy to Sieciarz zostaje przejęty, a Agitator
    nie zostaje zasieciowany." (Takeover is stronger than a Net: when a Net Fighter and an Agitator aim at each
    other, the Net Fighter is taken and the Agitator is not netted.) RULINGS 20."""
    text = """
        c3 vegas:agitator N
        c2 smart:net-fighter N
        d1 smart:hq N
    """
    p = position(text)
    reading = effects.read({u.hex: u for u in p.units}, p.rules)
    assert dict(reading.sides) == {Hex.parse("c2"): "vegas"}
    assert reading.nets == frozenset()
    assert "c2" not in alive(fight(text))  # its own HQ strikes the taken Net Fighter


def test_a_net_from_another_unit_stops_the_agitator():
    """RULINGS 19; PL OPIS POSZCZEGÓLNYCH IKON, Sieć: a netted unit may not "dodawać bonusów ani wykonywać
    jakichkolwiek akcji" (add bonuses or perform any actions): an Agitator netted by a Net Fighter it does not
    link takes nothing."""
    assert sides("""
        c3 vegas:agitator N
        c2 smart:ripper N
        c4 smart:net-fighter S
    """) == {}


def test_the_agitator_takes_the_scoper_aimed_back_at_it():
    """PL VEGAS, Sytuacje szczególne: "Przejęcie kontroli jest silniejsze od działania Skopera z armii Posterunku,
    tzn. jeśli Skoper i Agitator skierują na siebie nawzajem swoje działania, wtedy Agitator przejmuje Skopera,
    a nie odwrotnie." (Takeover is stronger than the Outpost Scoper: aimed at each other, the Agitator takes the
    Scoper, not the reverse.) RULINGS 20."""
    text = """
        c3 vegas:agitator N
        c2 outpost:scoper N
    """
    assert sides(text) == {"c2": "vegas"}
    p = position(text)
    units = {u.hex: u for u in p.units}
    taken = effects.takeovers(units, p.rules)
    assert effects.captured_modules(units, effects.netted(units, taken), taken) == {}


def test_a_scoper_takes_an_agitator_that_looks_elsewhere():
    """PL VEGAS, Sytuacje szczególne: "Jednak jeśli Skoper skieruje swoją cechę na Agitatora, zaś Agitator jest
    zwrócony w inną stronę niż Skoper, wtedy w normalny sposób Skoper przejmuje Agitatora." (But if the Scoper
    aims at the Agitator and the Agitator faces elsewhere, the Scoper takes the Agitator as usual.) The Agitator
    then works for the Outpost (RULINGS 8): the unit it links is the Outpost's."""
    text = """
        c3 vegas:agitator N
        c4 outpost:scoper N
        c2 smart:ripper N
    """
    p = position(text)
    units = {u.hex: u for u in p.units}
    taken = effects.takeovers(units, p.rules)
    assert Hex.parse("c3") in effects.captured_modules(units, effects.netted(units, taken), taken)
    assert sides(text) == {"c2": "outpost"}


def test_a_unit_is_released_in_the_phase_after_its_agitator_dies():
    """RULINGS 17; PL VEGAS, Sztab: "Jednostka jest przejęta dopóty, dopóki jest przyłączona" (the unit is taken
    only while it is linked). The Cyborg kills the Agitator in phase 3; in phase 2 the Ripper is Smart's again
    and strikes the Vegas Guardian."""
    text = """
        c3 vegas:agitator N
        c2 smart:ripper N
        c1 vegas:guardian N
        b3 smart:cyborg N
    """
    outcome = fight(text)
    assert "c3" not in alive(outcome) and "c1" not in alive(outcome)
    still_taken = fight("""
        c3 vegas:agitator N
        c2 smart:ripper N
        c1 vegas:guardian N
    """)
    assert "c1" in alive(still_taken)


def test_a_taken_module_boosts_vegas():
    """RULINGS 17 ("Vegas modules work on it, its former army's modules do not"); PL VEGAS, Sztab: "pod każdym
    względem" (in every respect). A taken Smart Officer adds +1 to a Vegas Shooter's shot."""
    outcome = fight("""
        c3 vegas:agitator N
        c2 smart:officer NE
        d1 vegas:shooter SE
        d3 smart:hq N
    """)
    assert outcome.hq["smart"] == 20 - 2


def test_a_vegas_medic_saves_a_taken_unit():
    """RULINGS 17; PL KWESTIA MEDYKA: "Medyk pochłania obrażenia zadane przez jednego wroga" (the Medic absorbs
    the wounds of one enemy). A taken Ripper is Vegas's, so the Vegas Medic linked to it absorbs the Smart
    Cyborg's shot and is discarded."""
    outcome = fight("""
        c3 vegas:agitator N
        c2 smart:ripper N
        c1 vegas:medic S
        b2 smart:cyborg N
    """)
    assert "c2" in alive(outcome) and "c1" not in alive(outcome)


def test_the_vegas_hq_is_placed_with_a_facing_that_turns_its_takeover_edge():
    """NOTATION §10.2 `hq HEX FACING`; PL VEGAS, Sztab: "jeden kierunek działania" (one direction of the ability):
    the HQ's facing is the player's choice when it is placed, and decides which hex it takes over."""
    from solver.position import PlaceHQ
    from solver.hexes import Direction
    start = position("to-move vegas\ndeck vegas 34")
    placed = actions.apply(start, PlaceHQ(Hex.parse("c3"), Direction.SW), "vegas")
    hq = placed.unit_at(Hex.parse("c3"))
    assert hq is not None and hq.facing is Direction.SW
    assert str(PlaceHQ(Hex.parse("c3"), Direction.SW)) == "hq c3 SW"


# --- the takeover rotation (RULINGS 18) ------------------------------------------------------------------------

TAKING = """
    a1 vegas:hq N
    c2 smart:ripper N
    e1 smart:hq N
    to-move vegas
    hand vegas vegas:agitator
"""


def test_vegas_may_turn_a_unit_at_the_moment_it_takes_it_over_once():
    """PL VEGAS, Sztab: "Ponadto w momencie przejmowania gracz prowadzący armią Vegas może dowolnie obrócić
    przejmowaną właśnie jednostkę." (At the moment of takeover Vegas may turn the unit being taken as it likes.)
    RULINGS 18: once per takeover, right after the action that caused it (`move HEX HEX FACING by takeover`)."""
    from solver.position import Move, Place
    from solver.hexes import Direction
    from solver.tiles import tile
    p = position(TAKING)
    place = Place(tile("vegas:agitator"), Hex.parse("c3"), Direction.N)
    used = actions.spend(p, place, "vegas", actions.NOTHING_USED)
    after = actions.apply(p, place, "vegas")
    turn = Move(Hex.parse("c2"), Hex.parse("c2"), Direction.NE, "takeover")
    assert "move c2 c2 NE by takeover" in {str(a) for a in actions.legal_actions(after, "vegas", used)}
    turned = actions.apply(after, turn, "vegas", used)
    assert turned.unit_at(Hex.parse("c2")).facing is Direction.NE
    again = actions.spend(after, turn, "vegas", used)
    with pytest.raises(IllegalAction, match="just taken"):
        actions.apply(turned, Move(Hex.parse("c2"), Hex.parse("c2"), Direction.S, "takeover"), "vegas", again)


def test_a_unit_held_since_an_earlier_turn_gets_no_takeover_rotation():
    """RULINGS 18: the turn comes only "at the moment of takeover" ("w momencie przejmowania"); a unit held since
    before the turn began is no longer being taken."""
    from solver.position import Move
    from solver.hexes import Direction
    held = position("a1 vegas:hq N\nc3 vegas:agitator N\nc2 smart:ripper N\ne1 smart:hq N\nto-move vegas")
    assert not any(isinstance(a, Move) and a.by == "takeover" for a in actions.legal_actions(held, "vegas"))
    with pytest.raises(IllegalAction):
        actions.apply(held, Move(Hex.parse("c2"), Hex.parse("c2"), Direction.S, "takeover"), "vegas")


def test_vegas_may_move_a_unit_it_controls():
    """PL VEGAS, Sztab: a taken unit "pod każdym względem traktowana jest jak własna" (is in every respect
    Vegas's own): Vegas's Move tile moves it, and Smart can no longer move it."""
    text = "a1 vegas:hq N\nc3 vegas:agitator N\nc2 smart:ripper N\ne1 smart:hq N\nhand vegas vegas:move\nhand smart smart:move"
    p = position(text)
    assert "use vegas:move c2 d1 N" in {str(a) for a in actions.legal_actions(p, "vegas")}
    assert not any(str(a).startswith("use smart:move c2") for a in actions.legal_actions(p, "smart"))


# --- Rotation and Castling (PL ŻETONY NATYCHMIASTOWE) ----------------------------------------------------------

INSTANTS = """
    a1 vegas:hq N
    b1 vegas:guardian N
    c3 smart:hq N
    to-move vegas
    hand vegas vegas:rotation vegas:castling
"""


def test_rotation_turns_one_own_unit_the_hq_too():
    """PL OBRÓT: "Zagranie tego żetonu pozwala dowolnie obrócić jeden własny Żeton." (Playing it turns one own tile
    as the player likes.) The Vegas HQ is a tile of its own, and its facing matters (its one takeover edge)."""
    p = position(INSTANTS)
    after = actions.apply(p, notation.parse_action("use vegas:rotation a1 SE", "vegas"), "vegas")
    assert after.unit_at(Hex.parse("a1")).facing.name == "SE" and after.hand("vegas") == (p.hand("vegas")[1],)
    with pytest.raises(IllegalAction):
        actions.apply(p, notation.parse_action("use vegas:rotation c3 SE", "vegas"), "vegas")


def test_rotation_of_a_netted_unit_is_not_allowed():
    """RULINGS 26; PL KWESTIA SIECIARZA: "Zasieciowana jednostka nie może się poruszyć w żaden sposób" (a netted
    unit cannot move in any way)."""
    p = position(INSTANTS + "c1 smart:net-fighter NE\n")  # its net (S, turned to SW) points at b1
    assert Hex.parse("b1") in actions.netted(p)
    with pytest.raises(IllegalAction):
        actions.apply(p, notation.parse_action("use vegas:rotation b1 S", "vegas"), "vegas")


def test_castling_swaps_two_adjacent_own_units_keeping_their_facings():
    """PL ROSZADA: "Dwie sąsiadujące ze sobą własne jednostki (także Sztab) mogą zamienić się miejscami, lecz nie
    mogą się przy tym obrócić." (Two adjacent own units, the HQ too, may swap places, without turning.) RULINGS 40."""
    p = position(INSTANTS.replace("b1 vegas:guardian N", "b1 vegas:guardian S"))
    after = actions.apply(p, notation.parse_action("use vegas:castling b1 a1", "vegas"), "vegas")
    assert after.unit_at(Hex.parse("a1")).tile.key == "vegas:guardian"
    assert after.unit_at(Hex.parse("a1")).facing.name == "S"
    assert after.unit_at(Hex.parse("b1")).is_hq


def test_castling_with_a_netted_unit_is_not_allowed():
    """PL ROSZADA: "Zasieciowana jednostka nie może wykonać Roszady." (A netted unit cannot castle.)"""
    p = position(INSTANTS + "c1 smart:net-fighter NE\n")
    with pytest.raises(IllegalAction):
        actions.apply(p, notation.parse_action("use vegas:castling a1 b1", "vegas"), "vegas")


def test_a_unit_taken_over_during_a_battle_may_be_turned_right_after_it():
    """PL VEGAS, Sytuacje szczególne: "Jeśli Agitator (lub Sztab Vegas) przejmie kontrolę nad wrogą jednostką w
    trakcie Bitwy, może ją obrócić natychmiast po zakończeniu Bitwy." (If the Agitator takes over an enemy unit
    during a Battle, Vegas may turn it right after the Battle.) RULINGS 18; NOTATION §10.2: the rotation follows
    the last action before the battle. The Shooter kills the Net Fighter holding the Agitator in phase 3; in
    phase 2 the Agitator takes the Ripper."""
    from solver.turns import game
    record = """
game
players vegas smart
deck vegas 20
deck smart 20
a1 vegas:hq
e3 smart:hq
c3 vegas:agitator N
c2 smart:ripper N
c4 smart:net-fighter S
"""
    turned = game.check(notation.parse(
        record + "1. vegas: draw shooter battle move; discard move; place shooter b4 N; use battle; "
                 "move c2 c2 S by takeover\n"))
    assert turned.ok, turned.problem
    assert turned.state.position.unit_at(Hex.parse("c2")).facing.name == "S"
    early = game.check(notation.parse(
        record + "1. vegas: draw shooter battle move; discard move; move c2 c2 S by takeover\n"))
    assert early.verdict == "illegal" and "just taken" in early.problem


DUEL_POSITION = """
to-move vegas
a1 vegas:hq SE
e1 smart:hq
c3 vegas:agitator N
c2 smart:ripper N
d3 smart:transporter N
b3 vegas:mine
hand vegas vegas:rotation vegas:castling vegas:mine
"""


def test_battle_moves_and_check_accept_a_smart_and_vegas_position(tmp_path, capsys):
    """Issue 11: "`battle`, `moves` and `check` accept every Smart and Vegas position"; the battle's trace names
    the takeover (PL VEGAS, Agitator)."""
    from solver.cli import main
    path = tmp_path / "duel.nhex"
    path.write_text(DUEL_POSITION)
    assert main(["battle", str(path)]) == 0
    out = capsys.readouterr().out
    assert "smart:ripper on c2 fights for vegas" in out
    assert main(["moves", str(path)]) == 0
    out = capsys.readouterr().out
    assert "use vegas:castling c2 c3" in out and "place vegas:mine b2 N" in out and "use vegas:rotation a1 N" in out
    assert main(["check", str(path)]) == 0


def test_the_solver_lets_vegas_turn_a_unit_the_players_move_hands_it():
    """RULINGS 18; PL VEGAS, Sztab: the takeover rotation is Vegas's at the moment of takeover, whoever's turn it
    is. Smart moving its Ripper onto the Agitator's link lets Vegas turn it against the Smart HQ: that play no
    longer keeps the Smart HQ whole, while moving it elsewhere does."""
    from solver.search.solve import Solver
    card = notation.parse('''puzzle "t"
player smart
offer smart:move
play 1
goal hp smart >= 20
b2 smart:hq
e3 vegas:hq
c3 vegas:agitator N
d1 smart:ripper N
''')
    plays = [s.actions for s in Solver(card, jobs=1).solve().solutions]
    assert ("use smart:move d1 c1 N",) in plays
    assert not any(a.startswith("use smart:move d1 c2") for play in plays for a in play)


def test_a_netted_vegas_hq_takes_nothing():
    """RULINGS 19; PL OPIS POSZCZEGÓLNYCH IKON, Sieć: a netted unit may not "wykonywać jakichkolwiek akcji" (perform
    any actions). The Net Fighter nets the Vegas HQ without being on its takeover edge."""
    assert sides("""
        c3 vegas:hq N
        d3 smart:ripper N
        c4 smart:net-fighter S
    """) == {}


def test_the_former_armys_modules_no_longer_boost_a_taken_unit():
    """RULINGS 17: "its former army's modules do not" work on it (PL VEGAS, Sztab: "pod każdym względem"). A Smart
    Officer linked to the taken Cyborg adds nothing: the Cyborg's shot at the Smart HQ is 1, not 2."""
    outcome = fight("""
        c3 vegas:agitator N
        c2 smart:cyborg N
        b2 smart:officer NE
        d1 smart:hq N
    """)
    assert outcome.hq["smart"] == 20 - 1


def test_the_solver_follows_both_units_of_a_castling():
    """PL ROSZADA: the two units "mogą zamienić się miejscami" (swap places): a goal naming one of them follows it."""
    from solver.search.solve import Enumerator
    card = notation.parse('''puzzle "t"
player vegas
offer vegas:castling
play 1
goal alive b1
a1 vegas:hq
b1 vegas:guardian N
e3 smart:hq
''')
    enumerator = Enumerator(card)
    step = next(s for s in enumerator.instants(enumerator.start()) if s.action == ("use vegas:castling a1 b1",))
    (_, after), = step.branches
    assert dict(after.watched)[Hex.parse("b1")] == Hex.parse("a1")


def test_rotation_of_the_hq_follows_the_option_rotation_turns_hq():
    """Option rotation-turns-hq (default yes): PL OBRÓT "jeden własny Żeton" (one own tile) names no exception."""
    rotate = notation.parse_action("use vegas:rotation a1 SE", "vegas")
    assert actions.apply(position(INSTANTS), rotate, "vegas").unit_at(Hex.parse("a1")).facing.name == "SE"
    with pytest.raises(IllegalAction):
        actions.apply(position("rules 3.0 rotation-turns-hq=no\n" + INSTANTS), rotate, "vegas")


def test_vegas_swaps_onto_a_transporter_it_has_taken_over_by_default():
    """Option transporter-swap-by-controller (default yes): PL VEGAS, Sztab "pod każdym względem" (in every
    respect) against PL SMART, Transporter "gracz dowodzący armią Smarta" (the Smart player)."""
    text = """
        a1 vegas:hq N
        e3 smart:hq N
        c3 vegas:agitator N
        c2 smart:transporter N
        to-move vegas
        hand vegas vegas:shooter
    """
    swap = notation.parse_action("place vegas:shooter c2 N by transporter", "vegas")
    assert actions.apply(position(text), swap, "vegas").unit_at(Hex.parse("c2")).tile.key == "vegas:shooter"
    with pytest.raises(IllegalAction):
        actions.apply(position("rules 3.0 transporter-swap-by-controller=no\n" + text), swap, "vegas")


def test_the_controller_of_a_taken_unit_picks_where_it_is_pushed():
    """3E PUSH BACK: the pushed unit's owner picks the hex; PL VEGAS, Sztab: a taken unit is in every respect its
    taker's own ("pod każdym względem traktowana jest jak własna"), so Vegas picks for the Ripper it holds."""
    from solver.notation.text import parse_action
    from solver.turns import actions

    text = ("a3 vegas:hq N\nc3 vegas:agitator N\nc2 smart:ripper N\ne1 smart:hq N\nb2 smart:bio-droid N\n"
            "hand smart smart:push-back\nto-move smart")
    found = actions.results(position(text), parse_action("use push-back b2 c2 d2", "smart"), "smart")
    assert [label for label, _ in found] == ["vegas puts the pushed unit on d2"]


def test_the_solver_moves_an_enemy_runner_vegas_has_taken_over():
    """PL VEGAS, Sztab: a taken unit "pod każdym względem traktowana jest jak własna" (is treated in every respect
    as its taker's own), its Mobility too; the search lists its move as the turn rules do, though the player has
    no mobile unit of its own (the enumeration's shortcut asked the printed army: issue 24)."""
    from solver.search.solve import Enumerator
    from solver.turns.actions import legal_actions
    from solver.position import Move

    card = notation.parse('''puzzle "t"
player vegas
offer vegas:agitator
play 1
goal win
a1 vegas:hq
b1 vegas:agitator S
b2 outpost:runner N
e3 outpost:hq
''')
    by_rules = {str(a) for a in legal_actions(card.position.replaced(to_move="vegas"), "vegas") if isinstance(a, Move)}
    assert any(a.startswith("move b2 ") for a in by_rules), by_rules
    enumerator = Enumerator(card)
    listed = {step.action[0] for step in enumerator.free_moves(enumerator.start())}
    assert {a for a in by_rules} <= listed, sorted(by_rules - listed)
