"""The Duel board: Terminals and Cells, Energy, the six Procedures, Duel victory (issue 11).

PL = ../shared/rules/rulebook-pl-duel-smart-vegas.txt (the Polish Duel book; its OCR drops the diacritics, quoted
here with them restored), headings OPIS PLANSZY, TERMINALE, LICZNIK ENERGII, PROCEDURY, ZWYCIĘSTWO; RULINGS
27-29; NOTATION §10.2. The Duel board takes any armies (PL "OPIS ARMII Z GRY PODSTAWOWEJ"): the base armies are
used here, so that these tests need no Smart or Vegas rule.
"""

from __future__ import annotations

import io
from contextlib import redirect_stdout
from dataclasses import replace
from pathlib import Path

import pytest

from solver.turns import actions, game
from solver.engine import battle
from solver.abilities import duel_board
from solver.abilities.duel_board import MAX_ENERGY, bought, cells, energy
from solver.cli import main
from solver.errors import IllegalAction
from solver.hexes import Direction, Hex
from solver.notation.text import parse, parse_action, parse_position
from solver.position import BuyEnergy, Procedure, Unit
from solver.tiles import tile

TERMINALS = "terminals a1 b2 c1 c3 c5 d2 e3\n"


def duel(body: str, *, moloch: int = 0, rules: str = "") -> object:
    text = (rules + "to-move moloch\n" + TERMINALS + (f"energy moloch {moloch}\n" if moloch else "") + body)
    return parse_position(text)


def after(position, line: str, army: str = "moloch", used=actions.NOTHING_USED):
    return actions.apply(position, parse_action(line, army), army, used)


def illegal(position, line: str, fragment: str, army: str = "moloch", used=actions.NOTHING_USED) -> None:
    with pytest.raises(IllegalAction) as caught:
        actions.results(position, parse_action(line, army), army, used)
    assert fragment in caught.value.rule, caught.value.rule


def listed(position, army: str = "moloch") -> list[str]:
    return [str(a) for a in actions.legal_actions(position, army)]


def h(label: str) -> Hex:
    return Hex.parse(label)


# --- Terminals and Cells (PL TERMINALE) ----------------------------------------------------------------------------


def test_any_unit_on_a_terminal_is_a_cell_hq_and_module_too():
    """PL TERMINALE: "Dowolna jednostka (tak Żołnierze, jak i Sztaby, czy Moduły), która stoi na polu Terminala
    nazywana jest Ogniwem" (any unit, soldiers as well as HQs or modules, standing on a Terminal is called a
    Cell). Off the Terminals nothing is a Cell; an enemy's Cell is the enemy's."""
    position = duel("c3 moloch:hq\nb2 moloch:medic N\nc1 moloch:hybrid S\nb3 moloch:blocker N\n"
                    "a1 outpost:hq\nd2 outpost:runner N\n")
    assert cells(position) == {h("c3"): "moloch", h("b2"): "moloch", h("c1"): "moloch", h("a1"): "outpost",
                               h("d2"): "outpost"}


def test_a_netted_unit_on_a_terminal_is_no_cell():
    """PL TERMINALE: "Zasieciowane Ogniwo przestaje być Ogniwem" (a netted Cell stops being a Cell)."""
    position = duel("c3 moloch:hq\nc1 moloch:hybrid S\nb1 hegemony:net-fighter N\na3 hegemony:hq\n")
    # The Net Fighter's net (edge NE) faces c1 from b1.
    assert h("c1") not in cells(position) and h("c3") in cells(position)
    illegal(duel("c3 moloch:hq\nc1 moloch:hybrid S\nb1 hegemony:net-fighter N\na3 hegemony:hq\n", moloch=1),
            "procedure rotation c1 N", "own Cells")


def test_a_foundation_on_a_terminal_is_no_cell():
    """PL TERMINALE: "Żetony Podłoża (np. Mina) nie mogą być Ogniwami" (foundation tiles, e.g. the Mine, cannot
    be Cells)."""
    position = duel("c3 moloch:hq\na3 outpost:hq\n")
    position = replace(position, foundations=(Unit(h("b2"), tile("vegas:mine")),))
    assert cells(position) == {h("c3"): "moloch"}


# --- Energy (PL LICZNIK ENERGII; RULINGS 27) ----------------------------------------------------------------------


def test_a_tile_left_in_hand_buys_one_energy_and_is_discarded():
    """PL LICZNIK ENERGII, 1: "po odrzuceniu 1 z 3 żetonów, każdy z pozostałych można wymienić na 1 punkt
    Energii" (after discarding 1 of the 3 tiles, each of the others may be exchanged for 1 Energy point)."""
    position = duel("c3 moloch:hq\na1 outpost:hq\nhand moloch moloch:hybrid moloch:battle\n", moloch=1)
    bought_one = after(position, "energy tile moloch:hybrid")
    assert energy(bought_one, "moloch") == 2
    assert bought_one.hand("moloch") == (tile("moloch:battle"),)
    illegal(position, "energy tile moloch:blocker", "tile still in front")


def test_hq_health_buys_energy_one_for_one():
    """PL LICZNIK ENERGII, 2: "gracz może także zakupić punkty Energii w zamian za punkty Wytrzymałości Sztabu,
    w cenie 1 PE za 1 punkt Wytrzymałości Sztabu" (Energy for HQ health, 1 EP for 1 health point)."""
    position = duel("c3 moloch:hq hp=7\na1 outpost:hq\n")
    paid = after(position, "energy hq 3")
    assert energy(paid, "moloch") == 3 and paid.hq("moloch").hp == 4


def test_both_kinds_of_purchase_in_one_turn_and_nothing_else_after():
    """PL LICZNIK ENERGII: "Gracz może w tej samej turze dokonać zakupu Energii na obydwa sposoby" (both kinds in
    one turn) and "Po zakupieniu Punktów Energii natychmiast następuje koniec tury tego gracza (nie może on już
    wykonać żadnej akcji, w tym nawet uruchomienia Procedury)" (after buying, the turn ends at once: no action,
    not even a Procedure)."""
    position = duel("c3 moloch:hq\nc1 moloch:hybrid S\na1 outpost:hq\nhand moloch moloch:blocker\n", moloch=1)
    first = parse_action("energy hq 1", "moloch")
    used = actions.spend(position, first, "moloch", actions.NOTHING_USED)
    assert bought(used)
    mid = actions.apply(position, first, "moloch")
    both = after(mid, "energy tile moloch:blocker", used=used)
    assert energy(both, "moloch") == 3
    illegal(mid, "procedure rotation c1 N", "turn is over", used=used)
    illegal(mid, "place moloch:blocker b1 N", "turn is over", used=used)
    # Only purchases are listed once one is made.
    rest = [str(a) for a in actions.legal_actions(mid, "moloch", used)]
    assert rest and all(line.startswith("energy ") for line in rest)


def test_energy_never_exceeds_five():
    """PL LICZNIK ENERGII: "Ilość Punktów Energii w żadnym momencie gry nie może przekroczyć 5" (Energy may at no
    moment of the game exceed 5)."""
    position = duel("c3 moloch:hq\na1 outpost:hq\nhand moloch moloch:blocker\n", moloch=4)
    assert MAX_ENERGY == 5
    assert energy(after(position, "energy hq 1"), "moloch") == 5
    illegal(position, "energy hq 2", "never exceeds 5")
    full = duel("c3 moloch:hq\na1 outpost:hq\nhand moloch moloch:blocker\n", moloch=5)
    illegal(full, "energy tile moloch:blocker", "never exceeds 5")
    assert not any(line.startswith("energy ") for line in listed(full))


def test_hq_health_keeps_its_last_point_unless_the_option_says_otherwise():
    """PL LICZNIK ENERGII, 2 sets no limit on the price "1 PE za 1 punkt Wytrzymałości Sztabu"; RULINGS 27 leaves
    paying down to 0 unsettled. nhex keeps the last point (option energy-hq-last-point=no); with 'yes' the HQ
    may pay it and is destroyed: PL ZWYCIĘSTWO "Gra kończy się ... gdy Wytrzymałość Sztabu jednego z graczy
    spadnie do zera" (the game ends when an HQ's health drops to zero)."""
    position = duel("c3 moloch:hq hp=2\na1 outpost:hq\n")
    illegal(position, "energy hq 2", "keeps at least 1 health")
    assert "energy hq 1" in listed(position) and "energy hq 2" not in listed(position)
    record = ("game\nplayers moloch outpost\n" + "rules 3.0 energy-hq-last-point=yes\n" + TERMINALS +
              "deck moloch 10\ndeck outpost 10\nc3 moloch:hq hp=2\na1 outpost:hq\n"
              "1. moloch: draw moloch:hybrid moloch:blocker moloch:guard; discard moloch:guard; energy hq 2\n")
    report = game.check(parse(record + "expect winner outpost\n", "<test>"))
    assert report.ok, report.fault("<test>")
    assert report.state.result == "outpost"


def test_a_purchase_comes_after_the_draw_in_a_record_and_the_sold_tile_is_discarded():
    """PL LICZNIK ENERGII, 1: "Podczas dociągu, po odrzuceniu 1 z 3 żetonów" (during the draw, after the discard);
    RULINGS 27: the purchases are the turn's last step."""
    start = ("game\nplayers moloch outpost\n" + TERMINALS + "deck moloch 10\ndeck outpost 10\n"
             "c3 moloch:hq\na1 outpost:hq\n")
    early = game.check(parse(start + "1. moloch: energy hq 1\n", "<test>"))
    assert early.verdict == "illegal" and "draw" in early.problem
    done = game.check(parse(start + "1. moloch: draw moloch:hybrid moloch:blocker moloch:guard; discard "
                                    "moloch:guard; place moloch:hybrid c1 S; energy tile moloch:blocker\n", "<test>"))
    assert done.ok, done.fault("<test>")
    assert energy(done.state.position, "moloch") == 1
    assert tile("moloch:blocker") in done.state.discard_pile("moloch")


# --- Procedures (PL PROCEDURY; RULINGS 28) ----------------------------------------------------------------------------


def test_a_procedure_is_paid_with_its_energy():
    """PL PROCEDURY: "Gracz może uruchamiać Procedury w dowolnym momencie swojej tury, płacąc za to wymaganą
    ilość Punktów Energii" (a player may run Procedures at any moment of the turn, paying the Energy needed)."""
    position = duel("c3 moloch:hq\nc1 moloch:hybrid S\nb2 moloch:hybrid N\na1 outpost:hq\n", moloch=1)
    turned = after(position, "procedure rotation c1 N")
    assert energy(turned, "moloch") == 0
    illegal(position, "procedure swap b2 c1 N N", "costs 2, moloch has 1")
    illegal(turned, "procedure rotation c1 S", "costs 1, moloch has 0")
    assert not any(line.startswith("procedure") for line in listed(turned))


def test_rotation_turns_one_own_cell_for_one_energy():
    """PL PROCEDURY, OBRÓT (koszt 1 PE): "Jedno własne Ogniwo może się obrócić w dowolnym kierunku" (one own
    Cell may turn to any facing). Not a unit off the Terminals, nor an enemy Cell."""
    position = duel("c3 moloch:hq\nc1 moloch:hybrid S\nb3 moloch:hybrid N\nd2 outpost:runner N\na1 outpost:hq\n",
                    moloch=2)
    turned = after(position, "procedure rotation c1 SE")
    assert turned.unit_at(h("c1")).facing is Direction.SE and energy(turned, "moloch") == 1
    illegal(position, "procedure rotation b3 S", "own Cells")
    illegal(position, "procedure rotation d2 S", "own Cells")
    illegal(position, "procedure rotation c1 S", "another facing")
    rotations = [line for line in listed(position) if line.startswith("procedure rotation")]
    assert sorted(rotations) == sorted(f"procedure rotation c1 {d.name}" for d in Direction if d is not Direction.S)


def test_swap_trades_two_own_cells_turning_them_freely():
    """PL PROCEDURY, ZAMIANA (koszt 2 PE): "Dwa własne Ogniwa mogą zamienić się miejscami i mogą się przy tym
    dowolnie obrócić" (two own Cells may trade places and turn freely as they do). NOTATION §10.2: the unit
    from the first hex ends on the second facing the first FACING."""
    position = duel("c3 moloch:hq\nc1 moloch:hybrid S\nb2 moloch:blocker N\na1 outpost:hq\n", moloch=2)
    swapped = after(position, "procedure swap b2 c1 SE NW")
    assert str(swapped.unit_at(h("c1"))) == "c1 moloch:blocker SE"
    assert str(swapped.unit_at(h("b2"))) == "b2 moloch:hybrid NW"
    assert energy(swapped, "moloch") == 0


def test_swap_never_moves_an_hq():
    """PL PROCEDURY, ZAMIANA: "Sztab nie może zostać poruszony za pomocą Zamiany" (the HQ cannot be moved by a
    Swap)."""
    position = duel("c3 moloch:hq\nc1 moloch:hybrid S\na1 outpost:hq\n", moloch=2)
    illegal(position, "procedure swap c1 c3 N N", "HQ is never moved")
    assert not any(line.startswith("procedure swap") for line in listed(position))


def test_push_by_a_cell_follows_push_back_and_the_owner_picks_the_hex():
    """PL PROCEDURY, ODEPCHNIĘCIE (koszt 2 PE): "Jedno własne Ogniwo może odepchnąć jedną jednostkę wroga" (one
    own Cell may push one enemy unit); RULINGS 28: as Push Back (an adjacent enemy, one hex further, its owner
    picks the hex, its facing kept)."""
    position = duel("c3 moloch:hq\nc2 outpost:runner NW\na1 outpost:hq\n", moloch=2)
    action = Procedure("push", (h("c3"), h("c2")))
    found = actions.results(position, action, "moloch")
    landed = sorted(next(u.hex.label for u in p.units if u.tile.name == "runner") for _, p in found)
    assert landed == ["b1", "c1", "d1"]
    assert all(energy(p, "moloch") == 0 and "outpost" in label for label, p in found)
    one = after(position, "procedure push c3 c2 c1")
    assert str(one.unit_at(h("c1"))) == "c1 outpost:runner NW"
    illegal(position, "procedure push c3 c2 b2", "one hex further")
    # The pusher must be a Cell: a unit off the Terminals pushes nothing.
    off = duel("c3 moloch:hq\nb3 moloch:hybrid N\nb4 outpost:runner N\na1 outpost:hq\n", moloch=2)
    illegal(off, "procedure push b3 b4 c5", "own Cells")


def test_laser_annihilates_every_enemy_tile_between_two_cells_and_spares_hqs():
    """PL PROCEDURY, LASER (koszt 3 PE): "Wszystkie wrogie Żetony planszy stojące na polach w prostej linii
    pomiędzy dwoma naszymi Ogniwami ... zostają unicestwione" (every enemy board tile on the hexes in a straight
    line between two of our Cells is annihilated), and "Laser, Kasacja i Detonacja nie czynią żadnej szkody
    Sztabom" (they do no harm to HQs). Own units between stay; toughness does not help."""
    position = duel("c1 moloch:hybrid S\nc5 moloch:hybrid N\nc2 outpost:hmg S\nc3 outpost:hq hp=5\n"
                    "c4 moloch:blocker N\na1 moloch:hq\nb2 outpost:mobile-armor N\n", moloch=3)
    (label, lasered), = actions.results(position, parse_action("procedure laser c1 c5", "moloch"), "moloch")
    assert lasered.unit_at(h("c2")) is None
    assert lasered.unit_at(h("c3")).hp == 5 and lasered.unit_at(h("c4")) is not None
    assert lasered.unit_at(h("b2")) is not None  # off the line
    assert energy(lasered, "moloch") == 0
    # Toughness does not save a unit from annihilation (the Mobile Armor has 1 toughness).
    tough = duel("c1 moloch:hybrid S\nc3 moloch:hybrid N\nc2 outpost:mobile-armor N\na1 moloch:hq\ne3 outpost:hq\n",
                 moloch=3)
    assert after(tough, "procedure laser c1 c3").unit_at(h("c2")) is None


def test_laser_needs_two_cells_on_a_straight_line():
    """PL PROCEDURY, LASER: "w prostej linii pomiędzy dwoma naszymi Ogniwami" (in a straight line between two of
    our Cells)."""
    position = duel("c1 moloch:hybrid S\nd2 moloch:hybrid N\nc5 moloch:hq\na1 outpost:hq\n", moloch=3)
    illegal(position, "procedure laser c1 e3", "own Cells")
    illegal(duel("c1 moloch:hybrid S\ne3 moloch:hybrid N\nc5 moloch:hq\na3 outpost:hq\n", moloch=3),
            "procedure laser c1 e3", "straight line")
    assert "procedure laser c1 c5" in listed(position)


def test_a_medic_absorbs_a_procedure_as_usual():
    """PL PROCEDURY: "Medyk w normalny sposób chroni przed Laserem, Kasacją i Detonacją" (a Medic protects
    against Laser, Erase and Detonation in the usual way): it absorbs the annihilation and is discarded, and
    with two Medics linked the wounded side chooses which (3E USING MEDICS), so there are two results."""
    body = ("c1 moloch:hybrid S\nc3 moloch:hybrid N\nc2 outpost:hmg S\nb1 outpost:medic SE\n"
            "a1 moloch:hq\ne3 outpost:hq\n")
    (_, saved), = actions.results(duel(body, moloch=3), parse_action("procedure laser c1 c3", "moloch"), "moloch")
    assert saved.unit_at(h("c2")) is not None and saved.unit_at(h("b1")) is None
    two = duel(body + "d1 outpost:medic SW\n", moloch=3)
    found = actions.results(two, parse_action("procedure laser c1 c3", "moloch"), "moloch")
    assert sorted(tuple(x for x in ("b1", "d1") if p.unit_at(h(x)) is None) for _, p in found) == [("b1",), ("d1",)]


def test_erase_needs_three_adjacent_own_cells_and_spares_hqs():
    """PL PROCEDURY, KASACJA (koszt 3 PE): "Jedna wroga jednostka sąsiadująca z 3 naszymi Ogniwami ... zostaje
    unicestwiona" (one enemy unit adjacent to 3 of our Cells is annihilated); never an HQ."""
    body = "b2 moloch:hybrid N\nc1 moloch:hybrid N\nc3 moloch:hq\nc2 outpost:mobile-armor N\ne3 outpost:hq\n"
    position = duel(body, moloch=3)
    assert after(position, "procedure erase c2").unit_at(h("c2")) is None
    assert [line for line in listed(position) if "erase" in line] == ["procedure erase c2"]
    two = duel(body.replace("c1 moloch:hybrid N", "d1 moloch:hybrid N"), moloch=3)
    illegal(two, "procedure erase c2", "at least 3 own Cells")
    hq = duel("b2 moloch:hybrid N\nc1 moloch:hybrid N\nc3 moloch:hq\nc2 outpost:hq\n", moloch=3)
    illegal(hq, "procedure erase c2", "never an HQ")


def test_detonation_annihilates_every_enemy_cell_but_hqs_and_netted_units():
    """PL PROCEDURY, DETONACJA (koszt 4 PE): "Wszystkie wrogie Ogniwa zostają unicestwione" (every enemy Cell is
    annihilated); an HQ is never harmed, and a netted unit on a Terminal is no Cell (PL TERMINALE)."""
    position = parse_position("to-move moloch\n" + TERMINALS + "energy moloch 4\n"
                              "c3 moloch:hq\nb2 moloch:hybrid N\na1 hegemony:hq\nc1 hegemony:runner S\n"
                              "d2 hegemony:thug N\nb3 hegemony:ganger N\nc5 hegemony:gladiator N\n"
                              "c4 moloch:net-fighter S\n")
    # The Net Fighter on c4 (nets on N and NW, facing S: towards S and SE) nets the Gladiator on c5.
    assert h("c5") not in cells(position)
    done = after(position, "procedure detonation")
    assert [u.hex.label for u in done.units if u.army == "hegemony"] == ["a1", "b3", "c5"]
    assert done.unit_at(h("b2")) is not None and energy(done, "moloch") == 0


def test_procedures_come_at_any_moment_of_the_turn_even_before_the_draw():
    """PL PROCEDURY: "w dowolnym momencie swojej tury ... i nie wpływa to w żaden sposób na dociąg, zagrywanie
    Żetonów, czy wywoływanie Bitwy" (at any moment of the turn, and it in no way affects drawing, playing tiles
    or starting a Battle)."""
    record = ("game\nplayers moloch outpost\n" + TERMINALS + "energy moloch 2\ndeck moloch 10\ndeck outpost 10\n"
              "c3 moloch:hq\nc1 moloch:hybrid S\na1 outpost:hq\n"
              "1. moloch: procedure rotation c1 SE; draw moloch:hybrid moloch:blocker moloch:guard; "
              "discard moloch:guard; procedure rotation c1 SW; place moloch:blocker b1 N\n")
    report = game.check(parse(record, "<test>"))
    assert report.ok, report.fault("<test>")
    assert energy(report.state.position, "moloch") == 0
    assert report.state.position.unit_at(h("c1")).facing is Direction.SW


def test_a_procedure_after_the_battle_is_refused():
    """PL PRZEBIEG GRY (Bitwa): "Rozegranie Bitwy kończy turę gracza ... Po rozegraniu Bitwy gracz nie może wykonać
    już żadnej akcji" (the Battle ends the player's turn; after it the player may do nothing more)."""
    record = ("game\nplayers moloch outpost\n" + TERMINALS + "energy moloch 2\ndeck moloch 10\ndeck outpost 10\n"
              "c3 moloch:hq\nc1 moloch:hybrid S\na1 outpost:hq\n"
              "1. moloch: draw moloch:battle moloch:blocker moloch:guard; discard moloch:guard; "
              "use moloch:battle; procedure rotation c1 SW\n")
    report = game.check(parse(record, "<test>"))
    assert report.verdict == "illegal" and "Battle has begun" in report.problem


def test_no_purchase_after_the_battle():
    """PL PRZEBIEG GRY: "Po rozegraniu Bitwy gracz nie może wykonać już żadnej akcji ... ani nawet odrzucić
    pozostałych żetonów" (after the Battle the player may do nothing, not even discard the other tiles): selling
    a tile for Energy is no different, and RULINGS 27's end-of-turn purchase comes before a Battle tile."""
    record = ("game\nplayers moloch outpost\n" + TERMINALS + "deck moloch 10\ndeck outpost 10\n"
              "c3 moloch:hq\nc1 moloch:hybrid S\na1 outpost:hq\n"
              "1. moloch: draw moloch:battle moloch:blocker moloch:guard; discard moloch:guard; "
              "use moloch:battle; energy tile moloch:blocker\n")
    report = game.check(parse(record, "<test>"))
    assert report.verdict == "illegal" and "Battle has begun" in report.problem


def test_moves_lists_procedures_and_purchases():
    """`nhex moves` on a Duel position lists the Procedures the Energy pays for and the purchases."""
    position = duel("c3 moloch:hq hp=4\nc1 moloch:hybrid S\na1 outpost:hq\nhand moloch moloch:blocker\n", moloch=1)
    lines = listed(position)
    assert "procedure rotation c1 N" in lines and "energy tile moloch:blocker" in lines
    assert [line for line in lines if line.startswith("energy hq")] == ["energy hq 1", "energy hq 2", "energy hq 3"]
    assert not any(line.startswith("procedure swap") for line in lines)  # 2 Energy needed


def test_nhex_moves_prints_the_procedures(tmp_path):
    path = tmp_path / "duel.nhex"
    path.write_text("to-move moloch\n" + TERMINALS + "energy moloch 1\nc3 moloch:hq\nc1 moloch:hybrid S\n"
                    "a1 outpost:hq\n")
    out = io.StringIO()
    with redirect_stdout(out):
        assert main(["moves", str(path)]) == 0
    assert "procedure rotation (1 Energy)" in out.getvalue() and "procedure rotation c1 N" in out.getvalue()


def test_rotating_a_duel_position_changes_nothing_but_labels():
    """Rotating a whole position by 60° (terminals too) turns every legal Procedure and its result with it."""
    position = duel("c1 moloch:hybrid S\nc5 moloch:hybrid N\nc2 outpost:hmg S\nc3 outpost:hq hp=5\n"
                    "d2 moloch:guard N\nb2 outpost:runner N\na1 moloch:hq\n", moloch=5)

    def turn(action, steps):
        if isinstance(action, Procedure):
            return Procedure(action.kind, tuple(x.rotated(steps) for x in action.hexes),
                             tuple(f.rotated(steps) for f in action.facings))
        return action

    base = {str(a): a for a in actions.legal_actions(position, "moloch") if isinstance(a, Procedure)}
    for steps in range(1, 6):
        rotated = position.rotated(steps)
        assert {str(turn(a, steps)) for a in base.values()} == \
               {str(a) for a in actions.legal_actions(rotated, "moloch") if isinstance(a, Procedure)}
        for action in base.values():
            if action.kind in ("laser", "detonation", "push", "erase"):
                expected = {p.rotated(steps) for _, p in actions.results(position, action, "moloch")}
                assert {p for _, p in actions.results(rotated, turn(action, steps), "moloch")} == expected


# --- battles and the end of a Duel game (PL ZWYCIĘSTWO; RULINGS 29) --------------------------------------------------


def test_a_battle_on_the_duel_board_is_an_ordinary_battle():
    """PL TERMINALE: "Ogniwo, poza możliwościami uruchamiania Procedur, pozostaje nadal zupełnie normalną
    jednostką" (apart from running Procedures a Cell stays a quite normal unit): Terminals and Energy change no
    battle."""
    body = "c3 moloch:hq hp=5\nc2 outpost:runner S\nc1 outpost:hq hp=5\nd2 moloch:hybrid NW\n"
    plain = battle.resolve(parse_position(body))
    board = battle.resolve(parse_position(TERMINALS + "energy moloch 3\n" + body))
    assert [o.hq for o in plain] == [o.hq for o in board]


ENDGAME = ("game\nplayers moloch outpost\n{rules}" + TERMINALS + "deck moloch 1\ndeck outpost 2\n"
           "c3 moloch:hq hp=10\ne3 outpost:hq hp=10\n")


def test_equal_hq_health_after_the_final_battle_is_a_draw_under_the_duel_rule():
    """PL ZWYCIĘSTWO: "W przypadku, gdy oba Sztaby mają tyle samo punktów Wytrzymałości, gra kończy się remisem"
    (when both HQs have the same health, the game ends in a draw). RULINGS 29: option tie-break=no (the
    default under rules 2.0); under rules 3.0 the 3E tie-break turns are played."""
    turns = "1. moloch: draw moloch:blocker; place moloch:blocker a1 N\n2. outpost: draw outpost:runner outpost:hmg\n"
    duel_rule = game.check(parse(ENDGAME.format(rules="rules 3.0 tie-break=no\n") + turns + "expect draw\n", "<test>"))
    assert duel_rule.ok and duel_rule.state.result == "draw"
    wrong = game.check(parse(ENDGAME.format(rules="rules 3.0 tie-break=no\n") + turns + "expect winner moloch\n",
                             "<test>"))
    assert wrong.verdict == "wrong" and wrong.problem == "the game ended in a draw"
    third = game.check(parse(ENDGAME.format(rules="") + turns, "<test>"))
    assert third.ok and third.state.result is None and third.state.tie_break_last is not None


def test_both_hqs_destroyed_in_one_battle_is_a_draw():
    """PL ZWYCIĘSTWO: "Jeśli któryś ze Sztabów zostanie zniszczony, mimo to Bitwa rozgrywana jest do końca. Jeśli
    w jej trakcie zniszczony zostanie również Sztab przeciwnika, gra kończy się remisem" (the Battle is played to
    its end; if the other HQ is destroyed in it too, the game is a draw)."""
    record = ("game\nplayers moloch outpost\n" + TERMINALS + "deck moloch 10\ndeck outpost 10\n"
              "c3 moloch:hq hp=1\nc1 outpost:hq hp=1\nd1 moloch:hybrid NW\nd3 outpost:runner N\n"
              "1. moloch: draw moloch:battle moloch:blocker moloch:guard; discard moloch:guard; use moloch:battle\n"
              "expect draw\n")
    report = game.check(parse(record, "<test>"))
    assert report.ok, report.fault("<test>")
    assert report.state.result == "draw"
    early = game.check(parse(record.replace("; use moloch:battle\n", "\n"), "<test>"))
    assert early.verdict == "wrong" and early.problem == "the game is not over"


def test_the_family_is_present_only_on_a_duel_board():
    """The Duel board is no tile: the family is present where the position states terminals or energy
    (NOTATION §10.2), and a Procedure elsewhere is refused, naming the missing board."""
    from solver.engine.points import turn_points
    from solver.errors import RuleNotImplemented

    plain = parse_position("to-move moloch\nc3 moloch:hq\nc1 moloch:hybrid S\na1 outpost:hq\n")
    assert not any(isinstance(f, duel_board.DuelBoard) for f in turn_points(plain).turn_results)
    with pytest.raises(RuleNotImplemented, match="no Duel board"):
        actions.apply(plain, parse_action("procedure rotation c1 N", "moloch"), "moloch")
    assert not any(isinstance(a, (Procedure, BuyEnergy)) for a in actions.legal_actions(plain, "moloch"))


def test_a_swapped_unit_keeps_the_free_move_it_has_used():
    """3E MOBILITY: a unit moves once in its player's turn; a Swap (PL ZAMIANA) carries the unit, and what it has
    used this turn goes with it."""
    position = parse_position("to-move outpost\n" + TERMINALS + "energy outpost 2\n"
                              "a3 moloch:hq\nc1 outpost:mobile-armor S\nb2 outpost:runner N\ne3 outpost:hq\n")
    move = parse_action("move c1 c1 SE", "outpost")
    used = actions.spend(position, move, "outpost", actions.NOTHING_USED)
    turned = actions.apply(position, move, "outpost")
    swap = parse_action("procedure swap b2 c1 N N", "outpost")
    used = actions.spend(turned, swap, "outpost", used)
    swapped = actions.apply(turned, swap, "outpost", used)
    assert swapped.unit_at(h("b2")).tile.name == "mobile-armor"
    illegal(swapped, "move b2 b2 S", "once in its player's turn", army="outpost", used=used)


# --- the solver on a Duel card ----------------------------------------------------------------------------------------


def test_the_solver_plays_procedures_short_circuit_is_sound_with_the_laser_as_key():
    """puzzles/25-short-circuit.nhex: `nhex solve` enumerates Procedures as actions of the player's turn (PL
    PROCEDURY). The only win is the Laser between the HQ and the Medic, then the Hybrid on the last empty hex;
    the other order fills the board first and the Battle ends the turn (PL PRZEBIEG GRY: "Rozegranie Bitwy
    kończy turę gracza")."""
    from solver.notation import text as notation
    from solver.search.solve import Solver

    path = Path(__file__).parent.parent / "puzzles" / "25-short-circuit.nhex"
    puzzle = notation.load(str(path))
    report = Solver(puzzle, jobs=1).solve()
    assert report.verdict == "sound" and report.contains_intended is True
    (solution,) = report.solutions
    assert solution.actions == ("procedure laser a1 e3", "place moloch:hybrid b4 SE")
    # Without the Energy there is no win: the Procedure is the key.
    poor = replace(puzzle, position=replace(puzzle.position, energy=()))
    assert Solver(poor, jobs=1).solve().verdict == "none"


# --- the book's example game (PL PRZYKŁAD ROZGRYWKI) --------------------------------------------------------------

EXAMPLE = Path(__file__).parent / "data" / "games" / "duel-example-pl.nhex"


def test_the_pl_example_game_ends_its_battle_with_the_books_hq_health():
    """PL PRZYKŁAD ROZGRYWKI, tura 7, Przebieg Bitwy: "Wytrzymałość Sztabu Smarta spada więc do 19" (the Smart HQ
    drops to 19); "wytrzymałość Sztabu Vegas spada do 18"; Mercenary, Bodyguard, Scout and Medic are removed, and
    "w segmencie Inicjatywy 0 nic się nie dzieje" (nothing happens in phase 0); then turn 8 is Vegas's."""
    report = game.check(parse(EXAMPLE.read_text(), str(EXAMPLE)))
    assert report.ok, report.fault(str(EXAMPLE))
    state = report.state
    assert state.hq == {"vegas": 18, "smart": 19} and state.battles == 1 and state.to_move == "vegas"
    assert sorted(f"{u.hex} {u.tile.key}" for u in state.position.units) == [
        "a2 vegas:hq", "b4 smart:gauss-cannon", "c1 vegas:agitator", "c3 smart:hq", "c4 smart:cyborg",
        "d1 smart:gauss-cannon", "d2 smart:mother-module"]



def test_three_points_of_contact_is_sound_with_erase_as_key():
    """puzzles/26-three-points-of-contact.nhex: PL KASACJA, "Jedna wroga jednostka sąsiadująca z 3 naszymi
    Ogniwami ... zostaje unicestwiona" (one enemy unit adjacent to 3 of our Cells is annihilated)."""
    from solver.notation import text as notation
    from solver.search.solve import Solver

    puzzle = notation.load(str(Path(__file__).parent.parent / "puzzles" / "26-three-points-of-contact.nhex"))
    report = Solver(puzzle, jobs=1).solve()
    assert report.verdict == "sound" and report.contains_intended is True
    assert report.solutions[0].actions == ("procedure erase c3",)


SHOVE = """puzzle "Shove"
player moloch
offer moloch:blocker
play 0
goal {goal}
terminals a1 a3 c1 c3 c5 e1 e3
energy moloch 2
c3 moloch:hq hp=2
c2 outpost:brawler S
b2 moloch:hybrid N
e3 outpost:hq hp=5
"""


def test_the_solver_lets_the_owner_choose_where_a_procedure_pushes():
    """PL PROCEDURY, ODEPCHNIĘCIE as Push Back (RULINGS 28): the pushed unit's owner picks the hex, so a push wins
    only if it wins wherever the unit goes (NOTATION §6: 'whatever the opponent chooses'). The HQ (a Cell on c3)
    pushes the Brawler off it: to b1, c1 or d1. From b1 the Brawler still hits the Hybrid on b2."""
    from solver.notation import text as notation
    from solver.search.solve import Solver

    safe = Solver(notation.parse(SHOVE.format(goal="survive"), "<card>"), jobs=1).solve()
    assert safe.verdict == "sound"
    assert safe.solutions[0].actions == ("procedure push c3 c2", "# the pushed unit's owner chooses among b1, c1, d1")
    both = Solver(notation.parse(SHOVE.format(goal="survive and alive b2"), "<card>"), jobs=1).solve()
    assert both.verdict == "none"


# --- rotation invariance on generated Duel positions (hypothesis) ----------------------------------------------------

from hypothesis import HealthCheck, given, settings  # noqa: E402
from hypothesis import strategies as st  # noqa: E402

_WARRIORS = ("moloch:hybrid", "moloch:blocker", "moloch:medic", "outpost:runner", "outpost:hmg", "outpost:medic",
             "outpost:mobile-armor")


@st.composite
def duel_positions(draw):
    from solver.hexes import STANDARD

    hexes = sorted(STANDARD.hexes)
    chosen = draw(st.lists(st.sampled_from(hexes), min_size=4, max_size=9, unique=True))
    terminals = draw(st.lists(st.sampled_from(hexes), min_size=3, max_size=7, unique=True))
    units = [Unit(chosen[0], tile("moloch:hq")), Unit(chosen[1], tile("outpost:hq"))]
    counts: dict[str, int] = {}
    for hex_ in chosen[2:]:
        key = draw(st.sampled_from(_WARRIORS))
        if counts.get(key, 0) >= 2:
            continue
        counts[key] = counts.get(key, 0) + 1
        units.append(Unit(hex_, tile(key), draw(st.sampled_from(list(Direction)))))
    from solver.position import Position

    return Position(tuple(units), to_move="moloch", terminals=tuple(terminals), energy=(("moloch", 5),))


@settings(max_examples=25, deadline=None, derandomize=True, suppress_health_check=[HealthCheck.too_slow])
@given(duel_positions(), st.integers(1, 5))
def test_turning_a_duel_position_turns_its_procedures(position, steps):
    """Rotating a whole Duel position by 60° (Terminals too) changes nothing but labels: the same Procedures
    are legal, turned, and each has the same results, turned."""
    def turn(action):
        return Procedure(action.kind, tuple(x.rotated(steps) for x in action.hexes),
                         tuple(f.rotated(steps) for f in action.facings))

    def look(action, where):
        # Facings that give a tile the same edges are one choice; the listing names the first clockwise from N.
        tiles = [where.unit_at(x).tile for x in action.hexes[:len(action.facings)]]
        return action.kind, action.hexes, tuple(t.oriented(f).edges for t, f in zip(tiles, action.facings))

    rotated = position.rotated(steps)
    mine = [a for a in actions.legal_actions(position, "moloch") if isinstance(a, Procedure)]
    assert sorted(map(str, {look(turn(a), rotated) for a in mine})) == sorted(map(str, {
        look(a, rotated) for a in actions.legal_actions(rotated, "moloch") if isinstance(a, Procedure)}))
    for action in mine:
        if action.kind in ("laser", "erase", "detonation", "push"):
            assert {p.rotated(steps) for _, p in actions.results(position, action, "moloch")} == \
                   {p for _, p in actions.results(rotated, turn(action), "moloch")}
