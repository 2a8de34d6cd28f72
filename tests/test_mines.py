"""Mines, Vegas's (PL ŻETONY PODŁOŻA, Mina) and New York's (B13 FOUNDATION TILES, Mine): one family,
solver/abilities/mines.py. RULINGS 25 and 42. Polish from the OCR of ../shared/rules/rulebook-pl-duel-smart-vegas.txt,
diacritics restored, with an English translation."""

from __future__ import annotations

import pytest

from solver.turns import actions
from solver.engine import battle
from solver.errors import IllegalAction
from solver.hexes import Direction, Hex
from solver.position import Place, Position, Use
from solver.tiles import tile

from battle_helpers import position

H = Hex.parse


def board(p: Position) -> dict[str, str]:
    return {u.hex.label: u.tile.key for u in p.units}


def mines(p: Position) -> set[str]:
    return {f.hex.label for f in p.foundations}


BASE = """
    c3 vegas:hq N
    a1 moloch:hq N
    b2 moloch:blocker N
    to-move vegas
"""


def test_a_mine_goes_only_on_a_free_hex():
    """PL ŻETONY PODŁOŻA: "Żeton Podłoża można położyć tylko na wolne pole." (A foundation goes only on a free
    hex.) It is placed facing N (NOTATION §10.1) and listed among the legal actions."""
    p = position(BASE + "hand vegas vegas:mine")
    listed = {str(a) for a in actions.legal_actions(p, "vegas")}
    assert "place vegas:mine b3 N" in listed and "place vegas:mine b2 N" not in listed
    after = actions.apply(p, Place(tile("vegas:mine"), H("b3"), Direction.N), "vegas")
    assert mines(after) == {"b3"} and board(after) == board(p)
    with pytest.raises(IllegalAction):
        actions.apply(p, Place(tile("vegas:mine"), H("b2"), Direction.N), "vegas")
    with pytest.raises(IllegalAction):
        actions.apply(position(BASE + "b3 vegas:mine N\nhand vegas vegas:mine"),
                      Place(tile("vegas:mine"), H("b3"), Direction.N), "vegas")


def test_a_unit_placed_on_a_mine_is_destroyed_with_it():
    """PL ŻETONY PODŁOŻA: "Jeśli jakakolwiek własna lub wroga jednostka (oprócz Sztabu) znajdzie się na polu z Miną,
    zarówno ona, jak i Mina, automatycznie zostają zniszczone i usunięte z planszy." (If any unit, own or enemy,
    except an HQ, comes onto a hex with a Mine, both are destroyed and removed.)"""
    p = position(BASE + "e1 vegas:mine N\nhand vegas vegas:guardian")
    after = actions.apply(p, Place(tile("vegas:guardian"), H("e1"), Direction.N), "vegas")
    assert "e1" not in board(after) and mines(after) == set()


def test_a_unit_pushed_onto_a_mine_is_destroyed_with_it():
    """RULINGS 25: a push counts like a move ("znajdzie się na polu z Miną": whatever brings it there)."""
    p = position(BASE + "a2 vegas:mine N\nhand vegas vegas:push-back")
    found = dict(actions.results(p, Use(tile("vegas:push-back"), (H("c3"), H("b2"))), "vegas"))
    onto_mine = next(r for label, r in found.items() if label.endswith("a2"))
    elsewhere = next(r for label, r in found.items() if label.endswith("b1"))
    assert "a2" not in board(onto_mine) and "b2" not in board(onto_mine) and mines(onto_mine) == set()
    assert board(elsewhere)["b1"] == "moloch:blocker" and mines(elsewhere) == {"a2"}


def test_an_hq_moved_onto_a_mine_destroys_it_unharmed():
    """PL ŻETONY PODŁOŻA: "Jeśli na polu z Miną znajdzie się Sztab, Mina zostaje automatycznie zniszczona, nie
    czyniąc Sztabowi żadnej szkody." (An HQ on a Mine's hex destroys the Mine unharmed.) RULINGS 42."""
    p = position(BASE + "b3 vegas:mine N\nhand vegas vegas:move")
    after = actions.apply(p, Use(tile("vegas:move"), (H("c3"), H("b3")), Direction.N), "vegas")
    hq = after.unit_at(H("b3"))
    assert hq is not None and hq.is_hq and hq.health == 20 and mines(after) == set()


def test_a_medic_saves_the_unit_from_a_mine_and_the_mine_still_goes():
    """PL ŻETONY PODŁOŻA: "Medyk może w normalny sposób przejąć obrażenia zadawane przez Minę." (A Medic may absorb
    the Mine's damage as usual.) RULINGS 25: the Mine goes all the same; the Medic is discarded."""
    text = """
        c3 vegas:hq N
        a1 moloch:hq N
        d2 vegas:guardian N
        c1 vegas:medic {medic}
        d1 vegas:mine N
        to-move vegas
        hand vegas vegas:move
    """
    move = Use(tile("vegas:move"), (H("d2"), H("d1")), Direction.N)
    saved = actions.apply(position(text.format(medic="SE")), move, "vegas")  # the Medic links d1
    assert board(saved)["d1"] == "vegas:guardian" and "c1" not in board(saved) and mines(saved) == set()
    lost = actions.apply(position(text.format(medic="N")), move, "vegas")  # the Medic links nothing
    assert "d1" not in board(lost) and "c1" in board(lost) and mines(lost) == set()


def test_a_sniper_destroys_an_enemy_mine():
    """PL ŻETONY PODŁOŻA: "Mogą zostać zniszczone tylko przez atak za pomocą Żetonów Natychmiastowych (np.
    Snajper …)" (Only an instant's attack destroys them, e.g. a Sniper); PL SNAJPER: "Zadaje 1 ranę dowolnemu
    wrogiemu żetonowi na planszy" (1 wound to any enemy token on the board). An own Mine is no target."""
    p = position("""
        c3 vegas:hq N
        a1 moloch:hq N
        e1 vegas:mine N
        e3 outpost:hq N
        to-move outpost
        hand outpost outpost:sniper
    """)
    assert "use outpost:sniper e1" in {str(a) for a in actions.legal_actions(p, "outpost")}
    after = actions.apply(p, Use(tile("outpost:sniper"), (H("e1"),)), "outpost")
    assert mines(after) == set() and after.hand("outpost") == ()
    own = position("c3 vegas:hq N\na1 moloch:hq N\ne1 vegas:mine N\nto-move vegas\nhand vegas vegas:sniper")
    with pytest.raises(IllegalAction):
        actions.apply(own, Use(tile("vegas:sniper"), (H("e1"),)), "vegas")


def test_an_air_strike_destroys_the_mines_in_its_area():
    """PL ŻETONY PODŁOŻA: instants destroy foundations ("Granat, czy Bomba z gry podstawowej"); the Air Strike
    hits its whole area (3E AIR STRIKE)."""
    p = position("""
        a1 vegas:hq N
        e1 moloch:hq N
        c3 vegas:mine N
        d3 vegas:mine N
        b2 vegas:guardian N
        to-move moloch
        hand moloch moloch:air-strike
    """)
    after = actions.apply(p, Use(tile("moloch:air-strike"), (H("c3"),)), "moloch")
    assert mines(after) == set() and board(after)["b2"] == "vegas:guardian"
    assert after.unit_at(H("b2")).wounds == 1


def test_an_air_strike_over_a_mine_and_roots_destroys_both():
    """B13 FOUNDATION TILES: foundations "can be destroyed only by damaging Instant Action Tiles (Sniper, Grenade,
    Bomb, Small bomb)", the Air Strike's whole area too (3E AIR STRIKE). With a Vegas Mine and Neojungle Roots (under
    no unit) in one area, both go: the Roots had stayed, the Mines family taking the whole instant for itself."""
    p = position("""
        c3 neojungle:hq
        a1 moloch:hq
        e1 vegas:hq
        b3 neojungle:roots
        b2 vegas:mine
        c2 vegas:guardian N
        to-move moloch
        hand moloch moloch:air-strike
    """)
    results = actions.results(p, Use(tile("moloch:air-strike"), (H("b2"),)), "moloch")
    assert [(r.foundations, r.unit_at(H("c2")).wounds) for _, r in results] == [((), 1)]


def test_a_mine_is_inert_in_battle_and_blocks_no_shot():
    """PL ŻETONY PODŁOŻA: "Żetony Podłoża nie blokują linii strzału" (foundations do not block a line of fire);
    they are not units (nothing wounds, nets or takes them), so a battle goes on around them."""
    outcome = battle.resolve(position("""
        c3 vegas:shooter N
        d2 vegas:mine N
        e1 moloch:hq N
        a3 vegas:hq N
    """))
    assert len(outcome) == 1
    assert outcome[0].hq["moloch"] == 19 and mines(outcome[0].position) == {"d2"}


def test_a_mine_does_not_count_for_a_full_board():
    """PL ŻETONY PODŁOŻA: "Żeton Podłoża nie liczy się przy sprawdzaniu zapełnienia planszy" (a foundation does
    not count when the board is checked for being full)."""
    p = position(BASE + "hand vegas vegas:mine")
    after = actions.apply(p, Place(tile("vegas:mine"), H("e3"), Direction.N), "vegas")
    assert not actions.starts_battle(Place(tile("vegas:mine"), H("e3"), Direction.N), after)


def test_new_yorks_mine_follows_the_same_rule():
    """B13 FOUNDATION TILES, Mine: the same tile rule as the Duel Mine (a unit entering is destroyed with it):
    one family serves both armies."""
    p = position("""
        c3 moloch:hq N
        a1 outpost:hq N
        d2 new-york:mine N
        d3 moloch:blocker N
        to-move moloch
        hand moloch moloch:move
    """)
    after = actions.apply(p, Use(tile("moloch:move"), (H("d3"), H("d2")), Direction.N), "moloch")
    assert "d2" not in board(after) and "d3" not in board(after) and mines(after) == set()


def test_a_new_york_mine_in_hand_is_placeable_beside_a_neojungle_hq():
    """Issue 12: "Mine or Roots in hand are placeable (today `moves` silently lists only a discard)"; B13 FOUNDATION
    TILES: "A Foundation Tile can be placed only on an empty hex". Every empty hex is offered, facing N, with a
    Neojungle HQ (its Motherland family present) on the board."""
    p = position("""
        c3 neojungle:hq
        a1 new-york:hq
        b3 neojungle:slicer N
        to-move new-york
        hand new-york new-york:mine
    """)
    places = {a.hex.label for a in actions.legal_actions(p, "new-york") if isinstance(a, Place)}
    assert places == {h.label for h in p.empty_hexes()} and len(places) == 16
