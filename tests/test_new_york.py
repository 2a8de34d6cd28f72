"""New York (Babel 13), rule by rule. B13 = ../shared/rules/rulebook-en-babel13.txt; RULINGS = ../shared/RULINGS.md."""

from __future__ import annotations

from solver.abilities.new_york_hq import HQToughness
from solver.search.enumeration import Enumerator
from solver.search.solve import Solver
from solver.tiles import tile
from solver.turns import actions
from solver.notation import text as notation
from solver.hexes import Hex
from solver.position import Position


def at(outcome_position: Position, label: str):
    return outcome_position.unit_at(Hex.parse(label))


def after(text: str, action: str, army: str) -> Position:
    start = position(text)
    return actions.apply(start, notation.parse_action(action, army), army)


# --- the HQ's toughness point (B13 NEW YORK, HQ; RULINGS 30, 31) ------------------------------------------------


def test_wounded_unit_beside_its_new_york_hq_is_a_legal_position():
    """B13 NEW YORK, HQ: "If the unit receives one wound it doesn't die - instead a wound marker should be placed
    on it"; NOTATION §10.1 Wounds."""
    start = position("c3 new-york:hq\nc2 new-york:cop wounds=1")
    assert at(start, "c2").wounds == 1


def test_unit_beside_new_york_hq_survives_one_wound():
    """B13 NEW YORK, HQ: adjacent own units get one additional Toughness point."""
    result = fight("""
        c3 new-york:hq
        c2 new-york:cop S
        c1 borgo:brawler S
    """)
    # the brawler deals 2: one more than the point lets the cop bear
    assert at(result.position, "c2") is None
    result = fight("""
        c3 new-york:hq
        c2 new-york:cop S
        c1 borgo:mutant S
    """)
    assert at(result.position, "c2").wounds == 1


def test_hq_destroyed_in_a_phase_takes_the_wounded_unit_with_it_at_the_end_of_that_phase():
    """B13 NEW YORK, HQ: "when the HQ is ..." lost the unit "immediately loses the additional Toughness, and it
    could die immediately"; RULINGS 30: it dies at the end of the phase in which the HQ is destroyed."""
    result = fight("""
        c3 new-york:hq hp=1
        c2 new-york:cop N wounds=1
        d2 borgo:brawler SW
    """)
    assert at(result.position, "c3") is None
    assert at(result.position, "c2") is None
    assert any("toughness point" in e.text for e in result.trace)


def test_hq_that_survives_keeps_the_wounded_unit_alive():
    """B13 NEW YORK, HQ (control of the previous test): the HQ still stands, so the point stays."""
    result = fight("""
        c3 new-york:hq hp=5
        c2 new-york:cop N wounds=1
        d2 borgo:brawler SW
    """)
    assert at(result.position, "c2").wounds == 1


def test_wounded_unit_moved_away_from_its_hq_dies_at_once():
    """B13 NEW YORK, HQ: "If such a unit becomes nonadjacent to the HQ ... it could die immediately"."""
    text = "c3 new-york:hq\nc2 new-york:cop wounds=1\nhand new-york move\nto-move new-york"
    moved = after(text, "use move c2 c1 N", "new-york")
    assert at(moved, "c1") is None and at(moved, "c2") is None
    unhurt = after("c3 new-york:hq\nc2 new-york:cop\nhand new-york move\nto-move new-york",
                   "use move c2 c1 N", "new-york")
    assert at(unhurt, "c1") is not None


def test_net_placed_on_new_york_hq_kills_the_unit_living_by_its_point():
    """B13 NEW YORK, HQ: "or when the HQ is caught in a net, the unit immediately loses the additional
    Toughness"."""
    text = "c3 new-york:hq\nc2 new-york:cop wounds=1\nd4 borgo:hq\nhand borgo net-fighter\nto-move borgo"
    netted = after(text, "place net-fighter b2 N", "borgo")
    assert at(netted, "c2") is None
    assert at(netted, "b2") is not None


LIVING_BY_THE_POINT = """puzzle "a unit living by the point"
player new-york
offer new-york:move
play 1
goal damage moloch >= 2
c3 new-york:hq hp=5
c2 new-york:hammer N wounds=1
e1 moloch:hq hp=5
d2 moloch:blocker N
"""


def test_the_search_kills_a_unit_living_by_the_point_that_the_move_tile_takes_away():
    """B13 NEW YORK, HQ: "If such a unit becomes nonadjacent to the HQ ... it could die immediately". The Hammer,
    wounded once, lives by the point; the Move tile takes it next to the Moloch HQ only by taking it away from its
    own (d1), where it dies: no play deals 2. Unwounded, the same move is the one play. The search lists a turn as on
    a plain board only where no unit lives by the point (HQToughness.quiet_in_turn, issue 27): listed so, this card
    gave the move of the wounded Hammer as a solution."""
    puzzle = notation.parse(LIVING_BY_THE_POINT)
    assert not HQToughness().quiet_in_turn(puzzle.position, "new-york", puzzle.offer)
    assert Solver(puzzle, jobs=1).solve().verdict == "none"
    unhurt = notation.parse(LIVING_BY_THE_POINT.replace(" wounds=1", ""))
    assert HQToughness().quiet_in_turn(unhurt.position, "new-york", unhurt.offer)
    assert Enumerator(unhurt, free_facings=True).defer
    assert [s.actions for s in Solver(unhurt, jobs=1).solve().solutions] == [("use new-york:move c2 d1 SE",)]


def test_the_point_is_read_all_turn_where_an_offered_instant_may_wound():
    """B13 NEW YORK, HQ ("If the unit receives one wound it doesn't die"): a Sniper's wound may leave a unit living
    by the point, which a later move then kills, so with a Sniper offered the point is not quiet; Move and Push
    Back wound nobody."""
    unhurt = notation.parse(LIVING_BY_THE_POINT.replace(" wounds=1", ""))
    for offer, quiet in ((("move", "push-back"), True), (("move", "sniper"), False)):
        tiles = tuple(tile(f"new-york:{name}") for name in offer)
        assert HQToughness().quiet_in_turn(unhurt.position, "new-york", tiles) is quiet


# --- Sharpshooter, Shotgun, Rocket Launcher (B13 DESCRIPTION OF NEW ICONS; NEW YORK) ------------------------------


def test_sharpshooter_may_shoot_past_the_first_enemy_on_its_line():
    """B13 DESCRIPTION OF NEW ICONS, Sharpshooter: it "can choose which enemy unit in the line of fire it shoots.
    (It does not need to be the first enemy unit.)"; RULINGS 32: an HQ included."""
    found = outcomes("""
        c5 new-york:sharpshooter N
        c4 new-york:cop S
        c3 borgo:mutant S
        c2 borgo:hq hp=5 S
    """)
    hit_mutant = [o for o in found if at(o.position, "c3") is None]
    hit_hq = [o for o in found if at(o.position, "c2").hp == 4]
    assert len(found) == 2 and hit_mutant and hit_hq
    assert all(any("sharpshooter" in c for c in o.choices) for o in found)


def test_sharpshooter_armor_works_normally_against_the_chosen_target():
    """B13 Sharpshooter: "The armor of the unit being shot at works normally against the shot"."""
    found = outcomes("""
        c5 new-york:sharpshooter N
        c3 borgo:super-mutant S
        c2 borgo:mutant N
    """)
    # shooting the armored Super Mutant's front does nothing; shooting the Mutant behind kills it
    assert {at(o.position, "c2") is None for o in found} == {True, False}
    assert all(at(o.position, "c3").wounds == 0 for o in found)


def test_shotgun_wounds_by_distance_three_two_one_none():
    """B13 NEW YORK, Shotgun: 3 wounds adjacent, 2 at two hexes, 1 at three, none farther."""
    for gap, expected in ((1, 3), (2, 2), (3, 1)):
        target_row = 5 - gap
        result = fight(f"""
            c5 new-york:shotgun N
            c{target_row} borgo:hq hp=9
        """)
        assert at(result.position, f"c{target_row}").hp == 9 - expected
    result = fight("""
        c5 new-york:shotgun N
        c1 borgo:hq hp=9
    """)
    assert at(result.position, "c1").hp == 9


def test_shotgun_hits_the_first_enemy_only_and_takes_no_bonus():
    """B13 NEW YORK, Shotgun: "hits the first enemy unit in the line of fire ... No bonuses increasing firepower
    have an effect on the shotgun" (an Officer II beside it adds nothing)."""
    result = fight("""
        c5 new-york:shotgun N
        b4 new-york:officer-2 NE
        c3 borgo:hq hp=9
        c2 borgo:mutant S
    """)
    assert at(result.position, "c3").hp == 7
    assert at(result.position, "c2") is not None


def test_shotgun_blast_is_lowered_by_armor():
    """RULINGS 33: armor lowers the Shotgun's blast by 1 (3E ARMOR)."""
    result = fight("""
        c5 new-york:shotgun N
        c4 borgo:super-mutant S
    """)
    assert at(result.position, "c4") is None or at(result.position, "c4").wounds == 2


def test_rocket_passes_own_pieces_and_turns_to_the_enemy_its_owner_chooses():
    """B13 NEW YORK, Rocket Launcher (and EXAMPLE OF ROCKET LAUNCHER SHOT): the rocket enters the hex its edge
    points at, then "two additional hexes, not necessarily in a straight line, chosen by the owner"; "It moves
    through the owner's pieces"; 3 wounds to the first enemy, HQ included."""
    found = outcomes("""
        c4 new-york:rocket-launcher N
        c3 new-york:cop S
        a2 borgo:hq hp=9 S
        e2 borgo:mutant S
    """)
    hq_hit = [o for o in found if at(o.position, "a2").hp == 6]
    mutant_hit = [o for o in found if at(o.position, "e2") is None]
    assert hq_hit and mutant_hit
    # a path through empty hexes meets nobody: the owner may also waste the rocket
    assert any(at(o.position, "a2").hp == 9 and at(o.position, "e2") is not None for o in found)


def test_rocket_cannot_reach_beyond_three_hexes():
    """B13 Rocket Launcher: the adjacent hex and two more: an enemy four hexes away is safe."""
    result = fight("""
        c5 new-york:rocket-launcher N
        c1 borgo:hq hp=9 S
    """)
    assert at(result.position, "c1").hp == 9


def test_rocket_takes_no_firepower_bonus():
    """B13 Rocket Launcher: "No bonuses increasing firepower have effect on the rocket launcher"."""
    result = fight("""
        c5 new-york:rocket-launcher N
        b4 new-york:officer-2 NE
        c4 borgo:hq hp=9 S
    """)
    assert at(result.position, "c4").hp == 6


# --- Spies (B13 DESCRIPTION OF NEW ICONS, Spy; RULINGS 35) --------------------------------------------------------

from solver.engine import effects  # noqa: E402


def bonuses(text: str) -> dict[str, effects.Bonus]:
    where = position(text)
    reading = effects.read(effects.by_hex(where), where.rules, None, where.teams, where.foundations)
    return {h.label: b for h, b in reading.bonuses.items()}


def test_spy_takes_the_bonus_of_an_enemy_module_that_links_it():
    """B13 Spy: "A Spy can link itself to enemy Modules ... as if they were friendly ..., automatically receiving
    their bonuses"; "the module can still aid allies that are connected to it"; RULINGS 35: by the module's own
    link icons."""
    found = bonuses("""
        c3 neojungle:symbiont-alpha N
        c2 new-york:spy-cleaner N
        e3 borgo:mutant N
    """)
    assert found["c2"].melee == 1
    turned = bonuses("""
        c3 neojungle:symbiont-alpha S
        c2 new-york:spy-cleaner N
    """)
    assert turned.get("c2", effects.Bonus()).melee == 0  # the link icon points away: no link


def test_spy_takes_the_bonus_of_an_adjacent_enemy_hq():
    """B13 Spy: "link itself to enemy ... Headquarters"; RULINGS 35: an adjacent enemy HQ (its links point every
    way). The Borgo HQ gives +1 initiative."""
    found = bonuses("""
        c3 borgo:hq
        c2 new-york:spy-shooter N
        c4 new-york:cop N
    """)
    assert found["c2"].initiative == 1
    assert found.get("c4", effects.Bonus()).initiative == 0  # an ordinary unit is no spy


def test_enemy_medic_linked_to_a_spy_saves_it_its_owner_choosing():
    """B13 Spy: "If a Medic module is linked to several units (including a Spy) which all take damage
    simultaneously, then as usual the module's owner decides which linked unit will be cured"; RULINGS 35."""
    found = outcomes("""
        c3 neojungle:medic N
        c2 new-york:spy-shooter N
        c1 neojungle:slicer S
    """)
    # the Slicer bites the Spy (its shots go NE and NW, at nobody); the Neojungle Medic linked to the Spy saves
    # it from its own army's bite and is discarded
    assert len(found) == 1
    after_battle = found[0].position
    assert at(after_battle, "c2") is not None and at(after_battle, "c3") is None


# --- the Pusher (B13 DESCRIPTION OF NEW ICONS, Push Back; RULINGS 36) ---------------------------------------------

import pytest  # noqa: E402

from solver.turns.actions import NOTHING_USED, legal_actions, player_actions, results, spend  # noqa: E402
from solver.errors import IllegalAction  # noqa: E402
from solver.position import Push  # noqa: E402

from battle_helpers import fight, outcomes, position

PUSHER = """
    c3 new-york:pusher N
    c2 borgo:mutant S
    e3 new-york:hq
    a3 borgo:hq
    to-move new-york
"""


def test_pusher_pushes_an_adjacent_enemy_for_free_its_owner_choosing_where():
    """B13 Push Back icon: "The unit with the Push Back can - once during each of his turns - push back one enemy
    unit freely"; 3E PUSH BACK: one hex further, the pushed unit's owner choosing the hex."""
    start = position(PUSHER)
    listed = [a for a in legal_actions(start, "new-york") if isinstance(a, Push)]
    assert {str(a) for a in listed} == {"push c3 c2 b1", "push c3 c2 c1", "push c3 c2 d1"}
    decided = [a for a in player_actions(start, "new-york") if isinstance(a, Push)]
    assert [str(a) for a in decided] == ["push c3 c2"]
    found = results(start, decided[0], "new-york")
    assert len(found) == 3 and all(at(p, "c2") is None for _, p in found)
    after_push = results(start, notation.parse_action("push c3 c2 c1", "new-york"), "new-york")[0][1]
    assert at(after_push, "c1").tile.key == "borgo:mutant" and at(after_push, "c1").facing.name == "S"


def test_pusher_pushes_only_once_a_turn():
    """B13 Push Back icon: "once during each of his turns"."""
    start = position(PUSHER)
    push = notation.parse_action("push c3 c2 c1", "new-york")
    after_push = results(start, push, "new-york")[0][1]
    used = spend(start, push, "new-york", NOTHING_USED)
    with pytest.raises(IllegalAction, match="once"):
        results(after_push.with_units_in_order(after_push.units), Push(Hex.parse("c3"), Hex.parse("c1"), None),
                "new-york", used)
    assert not [a for a in legal_actions(after_push, "new-york", used) if isinstance(a, Push)]


def test_netted_pusher_cannot_push():
    """RULINGS 36; 3E PUSH BACK and USING NETS: netted units cannot push."""
    start = position(PUSHER + "\nb2 borgo:net-fighter N\n")  # its Net (SE) holds c3
    assert not [a for a in legal_actions(start, "new-york") if isinstance(a, Push)]
    with pytest.raises(IllegalAction):
        results(start, notation.parse_action("push c3 c2 c1", "new-york"), "new-york")


def test_only_a_pusher_pushes_for_free():
    """B13 Push Back icon: the free push belongs to "The unit with the Push Back"."""
    start = position(PUSHER + "\nd3 new-york:cop N\nd2 borgo:mutant S\n")
    with pytest.raises(IllegalAction, match="Push Back icon"):
        results(start, notation.parse_action("push d3 d2 d1", "new-york"), "new-york")


def test_pusher_may_push_in_the_turn_it_is_placed_unless_the_option_says_no():
    """RULINGS 36 (unsettled): option pusher-when-placed (default yes)."""
    for option, expected in (("yes", True), ("no", False)):
        start = position(f"""
            rules 3.0 pusher-when-placed={option}
            c2 borgo:mutant S
            e3 new-york:hq
            a3 borgo:hq
            hand new-york pusher
            to-move new-york
        """)
        place = notation.parse_action("place pusher c3 N", "new-york")
        placed = results(start, place, "new-york")[0][1]
        used = spend(start, place, "new-york", NOTHING_USED)
        assert bool([a for a in legal_actions(placed, "new-york", used) if isinstance(a, Push)]) is expected


def test_armor_lowers_the_rocket_by_one_and_the_old_doubt_stays_an_option():
    """RULINGS 67 (settles 34's armor point): the designer's answers to disputed questions, Babel 13 part: armor
    lowers all ranged attacks, "Strzał, Shotgun, Rakieta" (shot, Shotgun, Rocket). Default rocket-armor=yes: the
    Wall of Trees' armor takes 1 of the rocket's 3; option rocket-armor=no lets all 3 through."""
    assert at(fight("c4 new-york:rocket-launcher N\nc3 neojungle:wall-of-trees S\n").position, "c3").wounds == 2
    text = """
        rules 3.0 rocket-armor={}
        c4 new-york:rocket-launcher N
        c3 neojungle:wall-of-trees S
    """
    armored = fight(text.format("yes"))
    assert at(armored.position, "c3").wounds == 2
    bare = fight(text.format("no"))
    assert at(bare.position, "c3") is None


def test_a_unit_vegas_took_over_gets_no_toughness_from_its_former_new_york_hq():
    """B13 NEW YORK, HQ: "The HQ gives its own adjacent units one additional Toughness"; PL VEGAS, Sztab: a taken
    unit "pod każdym względem traktowana jest jak własna" (is in every respect its taker's own). The Cop on c2,
    held by the Agitator on c3, is Vegas's: one wound kills it, as in a battle (the reading of the links)."""
    text = "to-move new-york\nc3 vegas:agitator N\nc2 new-york:cop N wounds=1\nb2 new-york:hq\ne3 vegas:hq N\n"
    from solver.position import position_toughness

    taken = position(text.replace(" wounds=1", ""))
    assert position_toughness(taken, at(taken, "c2")) == 0
    import pytest
    from solver.errors import NotationError

    with pytest.raises(NotationError, match="would already kill it"):
        position(text)
    mine = position(text.replace("c3 vegas:agitator N", "c3 vegas:agitator S"))
    assert position_toughness(mine, at(mine, "c2")) == 1


NETTED_MID_BATTLE = """
    c3 new-york:hq
    c2 new-york:cop N wounds=1
    b2 borgo:net-fighter N
    b3 new-york:net-fighter NE
    b4 borgo:brawler N
    e1 borgo:hq
"""


def test_hq_netted_in_the_middle_of_a_battle_takes_its_point_away_at_once():
    """B13 NEW YORK, HQ: "when the HQ is caught in a net, the unit immediately loses the additional Toughness, and
    it could die immediately as a result". The Borgo Net Fighter on b2 aims at the HQ but is netted by the New
    York one on b3; the Brawler kills that one in phase 2, so from the end of phase 2 the HQ is netted and the
    wounded Cop on c2 dies with the phase's dead (RULINGS 30, 14)."""
    result = fight(NETTED_MID_BATTLE)
    assert at(result.position, "c2") is None
    death = next(e for e in result.trace if "loses the HQ's toughness point" in e.text)
    assert death.phase == 2
    kept = fight(NETTED_MID_BATTLE.replace("b4 borgo:brawler N", "b4 borgo:brawler S"))  # the b3 Net Fighter lives
    assert at(kept.position, "c2").wounds == 1


def test_the_trace_tells_the_net_that_ends_before_the_net_it_frees_and_the_death_it_causes():
    """Causes before effects: the New York Net Fighter's net ends, so the Borgo one nets the HQ, so the Cop dies."""
    texts = [e.text for e in fight(NETTED_MID_BATTLE).trace]
    ended = texts.index("no longer so: borgo:net-fighter on b2 is netted by new-york:net-fighter on b3")
    netted = texts.index("new-york:hq on c3 is netted by borgo:net-fighter on b2")
    death = next(i for i, t in enumerate(texts) if "loses the HQ's toughness point" in t)
    assert ended < netted < death


MEDIC_BESIDE_THE_HQ = """
    team new-york outpost
    team moloch borgo
    c3 new-york:hq
    c2 outpost:medic N
    c1 moloch:hybrid S
    a1 outpost:hq
    e1 moloch:hq
    a3 borgo:hq
"""


def test_a_medic_hit_directly_beside_the_new_york_hq_keeps_the_point_unless_the_option_says_any_wound():
    """B13 MORE ON MEDIC IN NEW YORK: "If Medic adjacent to NJ's HQ takes wound, it is killed and removed from board
    immediately - bonus from NS's HQ will not help him in that situation". RULINGS 31 reads "takes wound" as
    absorbing (option ny-medic-direct-hit=absorb-only, the default): the allied Outpost Medic (3E TEAM MATCH: "HQ
    bonuses also affect friendly units") shot by the Hybrid keeps the point and lives with one wound; "is wounded"
    is the other reading (any-wound): it dies."""
    kept = fight(MEDIC_BESIDE_THE_HQ)
    assert at(kept.position, "c2").wounds == 1
    assert fight("rules 3.0 ny-medic-direct-hit=absorb-only\n" + MEDIC_BESIDE_THE_HQ).position == kept.position
    lost = fight("rules 3.0 ny-medic-direct-hit=any-wound\n" + MEDIC_BESIDE_THE_HQ)
    assert at(lost.position, "c2") is None
    assert any("MORE ON MEDIC" in e.rule for e in lost.trace)
