"""Neojungle (Babel 13), rule by rule. B13 = ../shared/rules/rulebook-en-babel13.txt; RULINGS = ../shared/RULINGS.md."""

from __future__ import annotations

from solver.turns import actions
from solver.engine import battle
from solver.notation import text as notation
from solver.hexes import Hex
from solver.position import Position

from battle_helpers import EVERY_NEW_RULE, fight, position


def at(where: Position, label: str):
    return where.unit_at(Hex.parse(label))


def after(text: str, action: str, army: str) -> tuple[tuple[str, Position], ...]:
    start = position(text)
    return actions.results(start, notation.parse_action(action, army), army)


# --- venom (B13 DESCRIPTION OF NEW ICONS, Venom; VENOM ISSUES; RULINGS 37) -------------------------------------


def test_nightshade_bite_that_wounds_poisons_the_hq():
    """B13 Venom: "If a unit with a venom icon wounds an enemy unit (including Headquarters) then the wounded unit
    ... is also poisoned"; VENOM ISSUES: "Venom affects HQ like any other unit"."""
    result = fight("""
        c2 neojungle:nightshade S
        c3 borgo:hq hp=5
    """)
    hq = at(result.position, "c3")
    assert hq.venom == 1 and hq.hp == 4


def test_poisoned_unit_takes_a_wound_before_the_first_initiative_phase():
    """B13 Venom: "the poisoned unit receives one wound from the poison at the beginning of each battle (before
    the initiative phases)": the poisoned Mutant dies before its phase and the Slicer is unhurt."""
    result = fight("""
        c2 neojungle:nightshade N
        c3 neojungle:slicer N
        c4 borgo:mutant N venom=1
    """)
    assert at(result.position, "c4") is None
    assert at(result.position, "c3").wounds == 0


def test_two_venom_markers_on_one_unit_deal_two_wounds():
    """B13 VENOM ISSUES: "If one unit has two Venom markers, then at the beginning of each battle it gets two
    wounds from venom"."""
    result = fight("""
        c1 neojungle:nightshade N
        c3 borgo:hq hp=5 venom=2
    """)
    assert at(result.position, "c3").hp == 3


def test_no_spare_venom_marker_means_the_bite_does_not_poison():
    """B13 VENOM ISSUES: "If a Nightshade wounds another unit, and there is no spare venom marker, then the bitten
    unit is not poisoned"."""
    result = fight("""
        c2 neojungle:nightshade S
        c3 borgo:hq hp=9 venom=2
    """)
    assert at(result.position, "c3").venom == 2
    assert at(result.position, "c3").hp == 6  # two from venom, one bite, and no third marker


def test_venom_marker_comes_back_when_its_unit_dies():
    """B13 VENOM ISSUES: "When a venom marker leaves the board (a poisoned unit dies), then Nightshades can again
    poison an enemy": the poisoned Mutant dies of venom, so the marker is spare for the bite on the HQ."""
    result = fight("""
        c2 neojungle:nightshade S
        c3 borgo:hq hp=9 venom=1
        a1 borgo:mutant S venom=1
    """)
    assert at(result.position, "a1") is None
    assert at(result.position, "c3").venom == 2


def test_medic_takes_the_venom_wound_and_the_marker_stays():
    """B13 VENOM ISSUES: "A Medic can take the venom damage at the start of a battle for a unit linked to it";
    RULINGS 37: the Medic absorbs the wound, not the marker."""
    result = fight("""
        e1 neojungle:nightshade N
        c2 borgo:mutant S venom=1
        c3 borgo:medic N
    """)
    mutant = at(result.position, "c2")
    assert mutant is not None and mutant.venom == 1 and mutant.wounds == 0
    assert at(result.position, "c3") is None


def test_one_medic_takes_one_of_two_venom_wounds():
    """B13 VENOM ISSUES: "If one unit has two Venom markers, then at the beginning of each battle it gets two wounds
    from venom" and "A Medic can take the venom damage at the start of a battle for a unit linked to it"; RULINGS
    37: each marker's wound is one attack, which a linked Medic absorbs as any other (RULINGS 4: one attack per
    Medic). The Medic takes one wound and is discarded; the other kills the Mutant (toughness 0)."""
    result = fight("""
        e1 neojungle:nightshade N
        c2 borgo:mutant S venom=2
        c3 borgo:medic N
    """)
    assert at(result.position, "c2") is None and at(result.position, "c3") is None
    assert sum("Medic on c3 absorbs the venom" in e.text for e in result.trace) == 1


def test_two_medics_take_both_venom_wounds_and_both_markers_stay():
    """B13 VENOM ISSUES (two markers, two wounds; a Medic takes the venom damage); RULINGS 37 (each marker one
    attack, the marker stays): two linked Medics absorb one marker's wound each, and the Runner lives."""
    result = fight("""
        e1 neojungle:nightshade N
        c2 outpost:runner S venom=2
        c3 outpost:medic N
        c1 outpost:medic S
    """)
    mutant = at(result.position, "c2")
    assert mutant is not None and mutant.wounds == 0 and mutant.venom == 2
    assert at(result.position, "c1") is None and at(result.position, "c3") is None


def test_a_second_neojungle_army_cannot_be_written_so_venom_markers_are_one_army_s():
    """B13 VENOM ISSUES: "There can be simultaneously only two Venom markers of Neojungle in play"; NOTATION §10.3:
    at most 2 "for each Neojungle army in the position". A position names each army once (`ARMY:TILE`); `owner=`
    may put a Nightshade under another army's command (a mercenary-like ally, README), but its markers are still
    the one Neojungle army's two: a third marker on the board is bad input."""
    import pytest

    from solver.errors import NotationError

    with pytest.raises(NotationError, match="3 venom markers on the board, but at most 2"):
        position("a1 neojungle:hq\ne3 borgo:hq\nc3 neojungle:nightshade N owner=borgo\n"
                 "b1 borgo:mutant N venom=1\nb2 neojungle:slicer N venom=1\nd2 borgo:butcher N venom=1\n")


def test_bite_absorbed_by_a_medic_poisons_nobody():
    """RULINGS 37: "A marker goes on a unit only when a Nightshade's attack really wounds it"."""
    result = fight("""
        c1 neojungle:nightshade S
        c2 borgo:mutant S
        c3 borgo:medic N
    """)
    assert at(result.position, "c2").venom == 0


def test_venom_wounds_carry_over_to_every_battle():
    """B13 Venom: "From now on the poisoned unit receives one wound ... at the beginning of each battle"."""
    first = fight("""
        c2 neojungle:nightshade S
        c3 borgo:hq hp=5
        a1 neojungle:slicer N
    """).position
    second = battle.resolve(first)[0].position
    assert at(first, "c3").hp == 4 and at(first, "c2") is None  # bitten once; the HQ killed the Nightshade
    assert at(second, "c3").hp == 3  # the marker alone wounds it again
    assert at(second, "c3").venom == 1


# --- the Motherland (B13 NEOJUNGLE, HQ; EXAMPLE OF THE MOTHERLAND; MODULES AND THE MOTHERLAND; RULINGS 38) -------

from solver.engine import effects  # noqa: E402


def bonuses(text: str) -> dict[str, effects.Bonus]:
    where = position(text)
    reading = effects.read(effects.by_hex(where), where.rules, None, where.teams, where.foundations)
    return {h.label: b for h, b in reading.bonuses.items()}


def test_example_of_the_motherland_connected_module_boosts_every_member_and_the_hq():
    """B13 EXAMPLE OF THE MOTHERLAND (picture lost; its caption): members are the units joined to the HQ through
    adjacent Neojungle units; "Modules that are properly connected to the Motherland ... provide a bonus to all
    Motherland units"; "The red Xs show Modules that are not connected to any other unit, and therefore give no
    bonus"; the red-outlined unit outside gets nothing. B13 NEOJUNGLE, HQ: "(including HQ)"."""
    found = bonuses("""
        c3 neojungle:hq
        c2 neojungle:slicer N
        c1 neojungle:slicer N
        d1 neojungle:symbiont-alpha SW
        e3 neojungle:crusher N
        e2 neojungle:symbiont-beta N
    """)
    # Alpha (melee +1) links c2, a member: c1, c2 and the HQ get +1; Alpha does not boost itself
    assert {h for h, b in found.items() if b.melee == 1} == {"c1", "c2", "c3"}
    # Beta links nothing (e1 is empty): no initiative for anyone; the Crusher on e3 is joined only through e2,
    # which is joined to nothing of the Motherland
    assert all(b.initiative == 0 for b in found.values())


def test_module_linked_to_a_unit_outside_the_motherland_helps_that_unit_only():
    """B13 MODULES AND THE MOTHERLAND: "A Module must be directly linked to some unit in the Motherland ... to
    affect the Motherland"; linked elsewhere it is an ordinary module."""
    found = bonuses("""
        c3 neojungle:hq
        c2 neojungle:slicer N
        e3 neojungle:crusher N
        e2 neojungle:symbiont-beta S
    """)
    assert found["e3"].initiative == 1
    assert all(found.get(h, effects.Bonus()).initiative == 0 for h in ("c2", "c3"))


def test_vines_act_only_on_the_enemy_unit_they_link():
    """B13 MODULES AND THE MOTHERLAND: "Vines are a Module which affect only enemy units not friendly units, so
    Vines do not affect the Motherland"."""
    found = bonuses("""
        c3 neojungle:hq
        c2 neojungle:vines N
        c1 borgo:mutant S
        b2 borgo:mutant N
    """)
    assert found["c1"].initiative == -1 and found["b2"].initiative == -1  # each linked enemy, directly
    assert found.get("c3", effects.Bonus()).initiative == 0


def test_netted_unit_still_belongs_and_connects_the_motherland():
    """B13 MODULES AND THE MOTHERLAND: "A netted unit still belongs to the Motherland - being in the Motherland is a
    passive feature"."""
    found = bonuses("""
        c3 neojungle:hq
        c2 neojungle:slicer N
        b1 borgo:net-fighter N
        c1 neojungle:slicer N
        d1 neojungle:symbiont-alpha NW
    """)
    # b1's Net (SE) holds c2; the chain HQ - c2 - c1 still stands and Alpha on d1 links c1
    assert found["c3"].melee == 1 and found["c2"].melee == 1


def test_spy_beside_the_neojungle_hq_is_never_in_the_motherland():
    """B13 MODULES AND THE MOTHERLAND: "No non-Neojungle Unit can be a part of Motherland (even a Spy unit
    connected to Neojungle HQ)"."""
    found = bonuses("""
        c3 neojungle:hq
        c2 neojungle:slicer N
        d1 neojungle:symbiont-alpha SW
        b2 new-york:spy-cleaner N
    """)
    assert found["c2"].melee == 1
    assert "b2" not in found or found["b2"].melee == 0


def test_roots_join_the_motherland_even_under_an_enemy_unit():
    """B13 FOUNDATION TILES, Roots: "Roots are part of the Motherland"; ROOTS ISSUES: "If an enemy unit is standing
    on Roots, they still belong to the Motherland and count for connecting to adjacent friendly Neojungle units"."""
    text = """
        c3 neojungle:hq
        c2 neojungle:roots N
        c2 borgo:mutant S
        c1 neojungle:slicer N
        d1 neojungle:symbiont-alpha NW
    """
    found = bonuses(text)
    assert found["c3"].melee == 1  # Alpha links c1, joined to the HQ through the Roots
    assert found.get("c2", effects.Bonus()).melee == 0  # the enemy on the Roots is no member
    without_roots = bonuses(text.replace("c2 neojungle:roots N\n", ""))
    assert without_roots.get("c3", effects.Bonus()).melee == 0


def test_symbiont_gamma_never_gives_ranged_even_with_boss_ranged():
    """B13 NEOJUNGLE, Modules (Symbiont Gamma: +1 melee, +1 initiative); RULINGS 39: "never ranged, whatever
    `boss-ranged` says" — that option reads the Hegemony Boss, which still gives ranged with it."""
    gamma = bonuses("rules 3.0 boss-ranged=yes\nc3 neojungle:symbiont-gamma N\nc2 neojungle:slicer N")["c2"]
    assert (gamma.melee, gamma.initiative, gamma.ranged) == (1, 1, 0)
    boss = bonuses("rules 3.0 boss-ranged=yes\nc3 hegemony:boss N\nc2 hegemony:ganger N")["c2"]
    assert boss.ranged == 1


def test_motherland_speeds_every_member_in_battle():
    """B13 NEOJUNGLE, HQ with Symbiont Beta (+1 initiative) linked to one member: the Slicer far from Beta strikes
    in phase 3, before the Borgo Butcher (initiative 3 too, so both strike; without the Motherland the Slicer
    would strike in phase 2, after the Butcher killed it)."""
    result = fight("""
        c3 neojungle:hq
        b3 neojungle:slicer NW
        d3 neojungle:symbiont-beta NW
        c2 neojungle:slicer N
        a2 borgo:butcher SE
    """)
    # b3's NW is a2: the Slicer acts in phase 3 with the Butcher and both die together
    assert at(result.position, "a2") is None


def test_the_motherland_works_in_a_team_match_and_no_ally_belongs_to_it():
    """B13 NEOJUNGLE IN MULTIPLAYER GAMES: "Allied units do not belong to the Motherland and they cannot use the
    Motherland's special ability. The whole Motherland only takes bonuses from Neojungle modules." In a team match
    the Motherland is Neojungle's as in a duel (it had collapsed to the one linked unit, every unit's side being its
    team's); the allied Moloch Blocker beside the HQ gets nothing."""
    text = """
        c3 neojungle:hq
        c2 neojungle:slicer N
        c1 neojungle:slicer N
        d1 neojungle:symbiont-alpha SW
        b3 moloch:blocker N
        a1 new-york:hq
        e3 moloch:hq
        e1 outpost:hq
    """
    alone = {h for h, b in bonuses(text).items() if b.melee == 1}
    teamed = {h for h, b in bonuses("team neojungle moloch\nteam new-york outpost\n" + text).items() if b.melee == 1}
    assert alone == teamed == {"c1", "c2", "c3"}


# --- Small Bomb (B13 THE NEW INSTANT TILES, Small bomb; RULINGS 41) -----------------------------------------------

import pytest  # noqa: E402

from solver.turns.actions import legal_actions  # noqa: E402
from solver.errors import IllegalAction  # noqa: E402
from solver.position import Place, Use  # noqa: E402

BOMB = """
    c3 neojungle:hq
    a1 borgo:hq
    b3 borgo:mutant N
    b4 neojungle:slicer N
    c4 borgo:super-mutant S
    hand neojungle small-bomb
    to-move neojungle
"""


def test_small_bomb_wounds_friend_and_foe_on_three_mutually_adjacent_hexes_but_no_hq():
    """B13 Small bomb: "one wound to every unit (enemy and friendly) which stands on the three hexes"; "does not
    wound Headquarters"; RULINGS 41: armor no help (the Super Mutant's front armor faces the bomb in vain)."""
    (only,) = after(BOMB, "use small-bomb b3 b4 c4", "neojungle")
    result = only[1]
    assert at(result, "b3") is None and at(result, "b4") is None
    assert at(result, "c4").wounds == 1
    (hq_spared,) = after(BOMB, "use small-bomb b3 c3 c4", "neojungle")
    assert at(hq_spared[1], "c3").hp == 20


def test_small_bomb_hexes_must_be_mutually_adjacent_and_on_the_board():
    """B13 Small bomb: "The 3 hexes must be mutually adjacent ... All 3 hexes must be on the board"."""
    with pytest.raises(IllegalAction, match="mutually adjacent"):
        after(BOMB, "use small-bomb b3 b4 c5", "neojungle")
    listed = [a for a in legal_actions(position(BOMB), "neojungle") if isinstance(a, Use)]
    assert len(listed) == 24  # the triangles of the standard board, each once
    assert all(a.targets[0].distance(a.targets[1]) == a.targets[1].distance(a.targets[2]) == 1 for a in listed)


def test_small_bomb_destroys_lone_roots_and_the_attacker_chooses_on_a_shared_hex():
    """B13 FOUNDATION TILES: foundations are destroyed by "Small bomb"; ROOTS ISSUES: on a hex with Roots and a unit
    "the attacker chooses whether the Roots or the Unit is hit"; NOTATION §10.3 `foundation HEX`."""
    text = BOMB.replace("b4 neojungle:slicer N", "b4 neojungle:roots N")
    (only,) = after(text, "use small-bomb b3 b4 c4", "neojungle")
    assert only[1].foundations == ()
    shared = BOMB + "\nb3 neojungle:roots N\n"
    (unit_hit,) = after(shared, "use small-bomb b3 b4 c4", "neojungle")
    assert at(unit_hit[1], "b3") is None and len(unit_hit[1].foundations) == 1
    (roots_hit,) = after(shared, "use small-bomb b3 b4 c4 foundation b3", "neojungle")
    assert at(roots_hit[1], "b3") is not None and roots_hit[1].foundations == ()


# --- Roots (B13 FOUNDATION TILES, Roots; ROOTS ISSUES) ---------------------------------------------------------


ROOTS = """
    c3 neojungle:hq
    a1 borgo:hq
    c2 borgo:mutant S
    hand neojungle roots
    to-move neojungle
"""


def test_roots_in_hand_are_placeable_on_empty_hexes_only():
    """B13 FOUNDATION TILES: "A Foundation Tile can be placed only on an empty hex"; issue 12: Roots in hand are
    placeable."""
    start = position(ROOTS)
    places = [a for a in legal_actions(start, "neojungle") if isinstance(a, Place)]
    assert len(places) == 19 - 3
    (placed,) = after(ROOTS, "place roots b2 N", "neojungle")
    assert [str(f) for f in placed[1].foundations] == ["b2 neojungle:roots N"]
    with pytest.raises(IllegalAction, match="empty hex"):
        after(ROOTS, "place roots c2 N", "neojungle")


def test_units_stand_on_roots_and_battles_run_with_them():
    """B13 FOUNDATION TILES: "any unit (friendly or enemy) can be placed or move onto ... a foundation tile
    normally"; nothing refused in battle."""
    result = fight("""
        c3 neojungle:hq
        c2 neojungle:roots N
        c2 borgo:mutant S
    """)
    assert at(result.position, "c2") is None  # the HQ's melee kills the Mutant; the Roots stay
    assert len(result.position.foundations) == 1


def test_sniper_on_roots_and_a_unit_hits_what_the_attacker_chooses():
    """B13 ROOTS ISSUES: "If there is a hex with Roots and a unit, and it's attacked by an instant tile (Grenade,
    Bomb, Sniper), then the attacker chooses whether the Roots or the Unit is hit by the attack"."""
    text = """
        c3 neojungle:hq
        e3 new-york:hq
        c2 neojungle:roots N
        c2 neojungle:slicer S
        b2 neojungle:roots N
        hand new-york sniper
        to-move new-york
    """
    start = position(text)
    uses = {str(a) for a in legal_actions(start, "new-york") if isinstance(a, Use)}
    assert {"use new-york:sniper c2", "use new-york:sniper c2 foundation c2", "use new-york:sniper b2"} <= uses
    (unit_hit,) = after(text, "use sniper c2", "new-york")
    assert at(unit_hit[1], "c2") is None and len(unit_hit[1].foundations) == 2
    (roots_hit,) = after(text, "use sniper c2 foundation c2", "new-york")
    assert at(roots_hit[1], "c2") is not None and [f.hex.label for f in roots_hit[1].foundations] == ["b2"]
    (lone,) = after(text, "use sniper b2", "new-york")
    assert [f.hex.label for f in lone[1].foundations] == ["c2"]


def test_castling_of_two_neojungle_units_uses_the_shared_family():
    """B13 THE NEW INSTANT TILES, Castling: "Two adjacent owned units (including Headquarters) can switch places, but
    they do not change their facing"; RULINGS 40. One family owns the instant `castling` for Vegas and Neojungle
    (solver/abilities/turning.py, on branch duel-armies): this test runs once it is merged."""
    pytest.importorskip("solver.abilities.turning")
    (swapped,) = after("""
        c3 neojungle:hq
        c2 neojungle:slicer S
        a1 borgo:hq
        hand neojungle castling
        to-move neojungle
    """, "use castling c2 c3", "neojungle")
    assert at(swapped[1], "c2").is_hq and at(swapped[1], "c3").facing.name == "S"


# --- nothing refused (issue 12) ------------------------------------------------------------------------------------


def test_a_neojungle_and_new_york_position_with_every_new_rule_plays_in_battle_and_moves():
    """Issue 12: "any Neojungle or New York position works in `battle`, `moves`, `check`; a Neojungle HQ on the
    board does not stop `moves`"."""
    text = EVERY_NEW_RULE + """
        hand neojungle small-bomb roots nightshade
        hand new-york push-back sniper
        to-move neojungle
    """
    start = position(text)
    assert len(battle.resolve(start)) == 2  # the Rocket Launcher's owner chooses its path
    assert legal_actions(start, "neojungle")
    assert legal_actions(start, "new-york")
