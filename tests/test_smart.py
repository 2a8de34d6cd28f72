"""Smart (PL Duel book, ../shared/rules/rulebook-pl-duel-smart-vegas.txt, part SMART and its "Sytuacje
szczególne"; RULINGS 21-24): the HQ's free move, the Transporter, the Bio-droid, Terror. Polish from the OCR with
diacritics restored, followed by an English translation."""

from __future__ import annotations

import pytest

from solver.turns import actions
from solver.engine import battle
from solver.notation import text as notation
from solver.errors import IllegalAction
from solver.hexes import Direction, Hex
from solver.position import Move, Place, Position, Use
from solver.tiles import tile

from battle_helpers import position

H = Hex.parse


def board(p: Position) -> dict[str, str]:
    return {u.hex.label: u.tile.key for u in p.units}


HQ_AND_FRIENDS = """
    c3 smart:hq N
    d3 smart:cyborg N
    a1 vegas:hq N
    to-move smart
"""


def test_a_unit_next_to_the_smart_hq_moves_as_if_it_had_mobility_even_away_from_it():
    """PL SMART, Sztab: "każda sąsiadująca ze Sztabem własna jednostka może wykonać dodatkowy ruch i/lub obrót w
    identyczny sposób, jakby miała cechę Mobilność. Jednostka może wykonać nawet taki ruch, po którym już nie będzie
    sąsiadowała ze Sztabem." (Each own unit adjacent to the HQ may make an extra move and/or rotation as if it had
    Mobility, even one that takes it away from the HQ.) RULINGS 21."""
    p = position(HQ_AND_FRIENDS)
    listed = {str(a) for a in actions.legal_actions(p, "smart")}
    assert "move d3 e3 S by hq" in listed and "move d3 d3 S by hq" in listed
    after = actions.apply(p, Move(H("d3"), H("e3"), Direction.S, "hq"), "smart")
    assert board(after)["e3"] == "smart:cyborg" and after.unit_at(H("e3")).facing is Direction.S


def test_the_smart_hq_gives_each_unit_one_move_a_turn_and_never_moves_itself():
    """PL SMART, Sztab: "dodatkowy ruch" (one extra move); "Sztab nie może poruszyć sam siebie" (the HQ cannot
    move itself). RULINGS 21."""
    p = position(HQ_AND_FRIENDS)
    turn = Move(H("d3"), H("d3"), Direction.S, "hq")
    used = actions.spend(p, turn, "smart", actions.NOTHING_USED)
    after = actions.apply(p, turn, "smart")
    with pytest.raises(IllegalAction, match="one extra move"):
        actions.apply(after, Move(H("d3"), H("d3"), Direction.N, "hq"), "smart", used)
    assert not any(isinstance(a, Move) and a.source == H("c3") for a in actions.legal_actions(p, "smart"))
    with pytest.raises(IllegalAction):
        actions.apply(p, Move(H("c3"), H("c4"), Direction.N, "hq"), "smart")


def test_the_hq_move_adds_to_the_move_tile_and_to_mobility():
    """PL SMART, Sytuacje szczególne: "Gracz może w tej samej turze poruszyć ten sam żeton korzystając kolejno z
    wszystkich dostępnych możliwości, np. cechy specjalnej Sztabu, Żetonu natychmiastowego Ruch, jak i Mobilności
    samego Żetonu." (The same unit may use, one after another, the HQ's ability, the Move instant and its own
    Mobility in one turn.) The Transporter has Mobility."""
    p = position("""
        c3 smart:hq N
        c4 smart:transporter N
        a1 vegas:hq N
        to-move smart
        hand smart smart:move
    """)
    used = actions.NOTHING_USED
    for action in (Move(H("c4"), H("c4"), Direction.S, "hq"), Move(H("c4"), H("c5"), Direction.S, "mobility"),
                   Use(tile("smart:move"), (H("c5"), H("b4")), Direction.N)):
        used, p = actions.spend(p, action, "smart", used), actions.apply(p, action, "smart", used)
    assert board(p)["b4"] == "smart:transporter"


def test_a_netted_unit_or_a_netted_hq_gets_no_hq_move():
    """RULINGS 21; PL KWESTIA SIECIARZA: "Zasieciowana jednostka nie może się poruszyć w żaden sposób" (a netted
    unit cannot move in any way); a netted HQ gives nothing (PL Sieć: no "bonusów ani … akcji")."""
    unit_netted = position("""
        c3 smart:hq N
        d3 smart:cyborg N
        d4 borgo:net-fighter SW
        a1 vegas:hq N
        to-move smart
    """)
    assert H("d3") in actions.netted(unit_netted)
    assert not any(isinstance(a, Move) and a.by == "hq" for a in actions.legal_actions(unit_netted, "smart"))
    hq_netted = position("""
        c3 smart:hq N
        d3 smart:cyborg N
        c4 borgo:net-fighter SW
        a1 vegas:hq N
        to-move smart
    """)
    assert actions.netted(hq_netted) == {H("c3")}
    assert not any(isinstance(a, Move) and a.by == "hq" for a in actions.legal_actions(hq_netted, "smart"))


def test_a_unit_taken_over_is_not_smarts_own_for_the_hq_move():
    """RULINGS 21 ("a captured unit is not Smart's own"); PL VEGAS, Sztab: a taken unit "pod każdym względem
    traktowana jest jak własna" (is in every respect Vegas's own)."""
    p = position("""
        c3 smart:hq N
        d3 smart:cyborg N
        e3 vegas:agitator NW
        a1 vegas:hq N
        to-move smart
    """)
    assert actions.controller(p, p.unit_at(H("d3"))) == "vegas"
    assert not any(isinstance(a, Move) and a.by == "hq" for a in actions.legal_actions(p, "smart"))
    vegas_moves = {str(a) for a in actions.legal_actions(position(
        "c3 smart:hq N\nd3 smart:cyborg N\ne3 vegas:agitator NW\na1 vegas:hq N\nto-move vegas\nhand vegas vegas:move"),
        "vegas")}
    assert "use vegas:move d3 d4 N" in vegas_moves  # Vegas may Move a unit it controls


def test_the_transporter_swaps_for_a_placed_tile_and_keeps_its_wounds():
    """PL SMART, Transporter: "może zdjąć z planszy Transporter i w jego miejsce położyć jeden ze swoich
    zagrywanych żetonów planszy. Jeśli Transporter otrzymał wcześniej jakąś ranę, nie przechodzi ona na żeton"
    (Smart may take a Transporter off the board and put a board tile it plays in its place; the Transporter's wound
    does not pass on). RULINGS 22: the facing is free."""
    p = position("""
        c3 smart:hq N
        c2 smart:transporter N wounds=1
        a1 vegas:hq N
        to-move smart
        hand smart smart:ripper
    """)
    listed = {str(a) for a in actions.legal_actions(p, "smart")}
    assert "place smart:ripper c2 S by transporter" in listed
    after = actions.apply(p, Place(tile("smart:ripper"), H("c2"), Direction.S, "transporter"), "smart")
    ripper = after.unit_at(H("c2"))
    assert ripper.tile.key == "smart:ripper" and ripper.wounds == 0 and ripper.facing is Direction.S
    assert after.hand("smart") == ()
    with pytest.raises(IllegalAction):
        actions.apply(p, Place(tile("smart:ripper"), H("c3"), Direction.S, "transporter"), "smart")


def test_a_netted_transporter_does_not_swap_by_default():
    """Option transporter-netted-swap (RULINGS 22 leaves it open): PL KWESTIA SIECIARZA "Zasieciowana jednostka nie
    może się poruszyć w żaden sposób" (a netted unit cannot move in any way)."""
    text = """
        c3 smart:hq N
        c2 smart:transporter N
        c1 borgo:net-fighter NE
        a1 vegas:hq N
        to-move smart
        hand smart smart:ripper
    """
    swap = Place(tile("smart:ripper"), H("c2"), Direction.S, "transporter")
    with pytest.raises(IllegalAction):
        actions.apply(position(text), swap, "smart")
    allowed = position("rules 3.0 transporter-netted-swap=yes\n" + text)
    assert actions.apply(allowed, swap, "smart").unit_at(H("c2")).tile.key == "smart:ripper"


def test_a_destroyed_bio_droid_goes_back_on_its_pile_even_when_taken_over():
    """PL SMART, Bio-droid: "jeśli Bio-droid zginie, automatycznie wraca on na górę stosu żetonów" (a destroyed
    Bio-droid goes back on top of the pile); Sytuacje szczególne: "Jeśli Bio-droid został zlikwidowany w momencie,
    gdy był przejęty przez przeciwnika (np. przez Agitatora Vegas), wraca on mimo to na górę stosu żetonów gracza
    kierującego armią Smarta." (Also when it was taken over.) RULINGS 24."""
    outcome = battle.resolve(position("""
        c3 vegas:agitator N
        c2 smart:bio-droid N
        c1 smart:hq N
        a3 vegas:hq N
        deck smart 4
        deck vegas 9
    """))
    assert len(outcome) == 1
    after = outcome[0].position
    assert after.unit_at(H("c2")) is None and after.deck("smart") == 5 and after.deck("vegas") == 9


def test_terror_is_used_from_the_hand():
    """PL ŻETONY NATYCHMIASTOWE, TERROR: its ban lies in the opponent's next turn ("w najbliższej turze przeciwnik
    nie może wystawić żadnej jednostki"); using it takes it from the hand and changes nothing on the board."""
    p = position(HQ_AND_FRIENDS + "hand smart smart:terror")
    assert "use smart:terror" in {str(a) for a in actions.legal_actions(p, "smart")}
    after = actions.apply(p, Use(tile("smart:terror")), "smart")
    assert after.hand("smart") == () and after.units == p.units


def test_a_smart_hq_on_the_board_does_not_stop_ordinary_placements():
    """Issue 11: "A Smart or Vegas HQ on the board must not stop `moves` from listing ordinary placements"."""
    p = position("c3 smart:hq N\na1 vegas:hq N\nto-move smart\nhand smart smart:cyborg")
    assert "place smart:cyborg b3 N" in {str(a) for a in actions.legal_actions(p, "smart")}
    v = position("c3 smart:hq N\na1 vegas:hq SE\nto-move vegas\nhand vegas vegas:shooter")
    assert "place vegas:shooter b3 N" in {str(a) for a in actions.legal_actions(v, "vegas")}


# --- in a game record (solver/turns/game.py) -------------------------------------------------------------------------

DUEL = """
game
players smart vegas
deck smart 20
deck vegas 20
c3 smart:hq
a1 vegas:hq
"""


def _check(text: str):
    from solver.turns import game
    record = notation.parse(text)
    return game.check(record)


def test_a_destroyed_bio_droid_is_the_first_tile_drawn():
    """PL SMART, Bio-droid: "Gdy gracz będzie dociągał żetony, pierwszy na rękę trafi Bio-droid." (When the player
    draws, the Bio-droid is the first tile to come to hand.) RULINGS 24. The Vegas HQ kills it in the battle."""
    opening = DUEL + ("1. smart: draw bio-droid battle move; discard move; place bio-droid b1 N; use battle\n"
                      "2. vegas: draw shooter guardian bodyguard; discard bodyguard; place shooter e3 N\n")
    report = _check(opening + "3. smart: draw cyborg ripper twister; discard ripper; place cyborg e1 N\n")
    assert report.verdict == "illegal" and "first tile drawn" in report.problem, report.problem
    report = _check(opening + "3. smart: draw bio-droid cyborg ripper; discard ripper; place cyborg e1 N\n")
    assert report.ok, report.problem
    assert tile("smart:bio-droid") not in report.state.discard_pile("smart")


def test_after_terror_the_opponent_places_nothing_for_one_turn():
    """PL TERROR: "w najbliższej turze przeciwnik nie może wystawić żadnej jednostki na planszę (może jednak
    normalnie zagrywać Żetony Natychmiastowe, poruszać jednostki itd.)" (in their next turn the opponent may place
    no unit, but may play instants, move units, etc.) RULINGS 23: Mines and Transporter swaps too; one turn."""
    opening = DUEL + "1. smart: draw terror cyborg ripper; discard ripper; use terror; place cyborg e1 N\n"
    report = _check(opening + "2. vegas: draw shooter guardian medic; discard medic; place shooter e3 N\n")
    assert report.verdict == "illegal" and "Terror" in report.problem, report.problem
    report = _check(opening + "2. vegas: draw shooter guardian move; discard guardian; use move a1 a2 N\n"
                    "3. smart: draw twister golem-mk3 battle; discard battle\n"
                    "4. vegas: draw medic scout; discard scout; place shooter e3 N\n")
    assert report.ok, report.problem


def test_a_bio_droid_back_on_an_empty_pile_does_not_undo_the_last_draw():
    """RULINGS 24: "if that happens after the last tile was drawn, the end of the game stays triggered" (PL SMART,
    Bio-droid; 3E BATTLE: no Battle tile once a player has drawn their last tile)."""
    text = DUEL.replace("deck smart 20", "deck smart 3") + (
        "1. smart: draw bio-droid move ripper; discard move; place bio-droid b1 N\n"
        "2. vegas: draw sniper battle shooter; discard shooter; use sniper b1; use battle\n")
    report = _check(text)
    assert report.verdict == "illegal" and "last tile" in report.problem, report.problem
    assert report.action == "use vegas:battle"
    # the Sniper's kill did put the Bio-droid back: the pile's count is 1 again
    shot = position("a1 vegas:hq N\nc3 smart:hq N\nb1 smart:bio-droid N\ndeck smart 0\ndeck vegas 5\n"
                    "to-move vegas\nhand vegas vegas:sniper")
    after = actions.apply(shot, Use(tile("vegas:sniper"), (H("b1"),)), "vegas")
    assert after.unit_at(H("b1")) is None and after.deck("smart") == 1


def test_the_solver_counts_a_swapped_transporter_as_gone():
    """PL SMART, Transporter: "może zdjąć z planszy Transporter" (it is taken off the board): a goal naming the
    Transporter's hex follows the Transporter, not the tile put in its place."""
    from solver.search.solve import Enumerator
    card = notation.parse('''puzzle "t"
player smart
offer smart:ripper
play 1
goal dead d3
c3 smart:hq
a1 vegas:hq
d3 smart:transporter N
''')
    enumerator = Enumerator(card)
    steps = enumerator.family_places(enumerator.start())
    swap = next(s for s in steps if s.action == ("place smart:ripper d3 N by transporter",))
    (_, after), = swap.branches
    assert dict(after.watched)[H("d3")] is None
    assert after.position.unit_at(H("d3")).tile.key == "smart:ripper"


def test_a_battle_after_terror_is_no_turn_the_ban_lies_in_the_opponents_next_turn():
    """RULINGS 69 (Portal's 3.0 FAQ v17-11b, errata: "the Battle is not part of the turn of the player who called
    it"): what lasts "in the opponent's next turn" (PL TERROR: "w najbliższej turze przeciwnik", in the next turn
    the opponent; RULINGS 23) is counted without the Battle. Smart plays Terror, then a Battle: the Battle uses up
    nothing of the ban, and Vegas places nothing in the turn after it; one turn later it may."""
    opening = DUEL + "1. smart: draw terror battle ripper; discard ripper; use terror; use battle\n"
    report = _check(opening + "2. vegas: draw shooter guardian medic; discard medic; place shooter e3 N\n")
    assert report.verdict == "illegal" and "Terror" in report.problem, report.problem
    report = _check(opening + "2. vegas: draw shooter guardian move; discard guardian; use move a1 a2 N\n"
                    "3. smart: draw twister golem-mk3 cyborg; discard cyborg\n"
                    "4. vegas: draw medic scout; discard scout; place shooter e3 N\n")
    assert report.ok, report.problem
