"""Babel 13 terrain in battle (B13 = ``rulebook-en-babel13.txt``, TERRAINS AND SCENARIOS) and terrain as data.

Each test cites the heading of the feature it plays; the readings are RULINGS 43-46.
"""

from __future__ import annotations

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from battle_helpers import fight as outcome
from battle_helpers import units
from solver.engine import battle
from solver.errors import NotationError, RuleNotImplemented
from solver.expansion import TERRAIN_FEATURES, TerrainElement
from solver.hexes import STANDARD, Direction, Hex
from solver.notation.text import parse
from solver.position import Position, Unit
from solver.terrain import RULES, parse as parse_terrain, terrain_set
from solver.tiles import Kind, army


def h(label: str) -> Hex:
    return Hex.parse(label)




HQS = "a1 outpost:hq\ne3 moloch:hq\n"


# --- terrain as data ---------------------------------------------------------------------------------------------


def test_the_terrain_file_names_every_type_and_feature_of_the_book_and_notation():
    """B13 TERRAINS AND SCENARIOS: nine types; NOTATION §10.3 lists the same types and features."""
    data = terrain_set()
    assert data.types == TERRAIN_FEATURES
    assert data.compulsory == {"warehouse": ("closed",)}
    for feature in data.features.values():
        assert feature.passage.startswith("B13")
        assert all(rule in RULES for rule, _ in feature.rules)
    assert data.features["fortress"].value("toughness") == 1
    # "HIGH – as above": one feature shared by Forest, Hill, Base, Warehouse and Rock
    assert sum("high" in features for features in data.types.values()) == 5


def test_a_mistake_in_a_terrain_file_is_named_with_its_line():
    with pytest.raises(NotationError, match=r"x.terrain:2:1: unknown terrain rule 'flying'"):
        parse_terrain('terrain hill "B13 HILL": high\nfeature high "B13": flying\n', "x.terrain")
    with pytest.raises(NotationError, match="never described"):
        parse_terrain('terrain hill "B13 HILL": high\n', "x.terrain")


# --- Forest ----------------------------------------------------------------------------------------------------


def test_thick_forest_spends_a_shot_from_afar_without_effect():
    """B13 FOREST, THICK: 'can be attacked and wounded only from a hex directly adjacent to it'; RULINGS 44: the
    shot is spent on it and goes no further (the runner behind is safe)."""
    o = outcome(HQS + "terrain forest thick c3\nc5 moloch:hybrid N\nc3 hegemony:runner N\nc2 hegemony:runner N\n")
    assert {"c3", "c2"} <= set(units(o))
    assert any("spent" in str(e) and "B13 FOREST, THICK" in str(e) for e in o.trace)


def test_thick_forest_does_not_protect_against_an_adjacent_shooter():
    """B13 FOREST, THICK: an attack from a directly adjacent hex wounds as usual."""
    o = outcome(HQS + "terrain forest thick c4\nc5 moloch:hybrid N\nc4 hegemony:runner N\n")
    assert "c4" not in units(o)


def test_high_forest_hides_the_unit_behind_it():
    """B13 FOREST, HIGH: 'blocks a shot fire line, hiding units which are on the other side'."""
    o = outcome(HQS + "terrain forest high c3\nc5 moloch:hybrid N\nc2 hegemony:runner N\n")
    assert "c2" in units(o)


def test_a_unit_standing_on_high_terrain_can_itself_be_shot():
    """RULINGS 45: High hides what is beyond it, not what stands on it."""
    o = outcome(HQS + "terrain hill high c3\nc5 moloch:hybrid N\nc3 hegemony:runner N\n")
    assert "c3" not in units(o)


def test_a_friend_on_high_terrain_still_blocks_the_line():
    """B13 FOREST, HIGH blocks the line; shots fly over friends (3E), not over High ground."""
    o = outcome(HQS + "terrain rock high c4\nc5 moloch:hybrid N\nc4 moloch:blocker N\nc3 hegemony:runner N\n")
    assert "c3" in units(o)


def test_high_forest_protects_against_the_gauss_cannon():
    """B13 FOREST, HIGH: 'High forest even protects against the Sharpshooter and Gauss cannon'."""
    free = outcome(HQS + "c5 moloch:gauss-cannon SE\nc2 hegemony:runner N\n")
    assert "c2" not in units(free)  # the beam reaches c2 without the forest
    o = outcome(HQS + "terrain forest high c3\nc5 moloch:gauss-cannon SE\nc2 hegemony:runner N\n")
    assert "c2" in units(o)


def test_thick_forest_protects_against_the_gauss_cannon_from_afar():
    """B13 FOREST, THICK: 'Any attack from a greater distance (even a Sharpshooter or Gauss cannon) ... is
    totally ineffective'."""
    o = outcome(HQS + "terrain forest thick c3\nc5 moloch:gauss-cannon SE\nc3 hegemony:runner N\n")
    assert "c3" in units(o)


def test_poisonous_forest_wounds_units_and_hqs_in_initiative_0():
    """B13 FOREST, POISONOUS: 'Each unit standing in Poisonous Forest automatically receives one wound in each
    Battle, in the Initiative 0 segment'; RULINGS 43: HQs too."""
    o = outcome("terrain forest poisonous a1 c3\na1 outpost:hq\ne3 moloch:hq\nc3 moloch:blocker N\n")
    assert o.hq["outpost"] == 19
    assert units(o)["c3"] == "c3 moloch:blocker N wounds=1"


def test_radioactive_wasteland_wounds_in_initiative_0():
    """B13 WASTELAND, RADIOACTIVE: one wound in each Battle, in the Initiative 0 segment; plain does nothing."""
    o = outcome(HQS + "terrain wasteland radioactive c3\nterrain wasteland plain c4\nc3 hegemony:runner N\n"
                "c4 hegemony:guard N\n")
    assert "c3" not in units(o)
    assert units(o)["c4"] == "c4 hegemony:guard N"


# --- Hill ------------------------------------------------------------------------------------------------------


def test_a_fortress_gives_one_more_toughness():
    """B13 HILL, FORTRESS: 'A unit in a Fortress has an extra Endurance point'."""
    o = outcome(HQS + "terrain hill fortress c3\nc5 moloch:hybrid N\nc3 hegemony:runner N\n")
    assert units(o)["c3"] == "c3 hegemony:runner N wounds=1"


def test_a_fortress_does_not_help_an_hq():
    """B13 HILL, FORTRESS: 'This rule does not apply to Headquarters' (its health is 20 whatever the ground)."""
    o = outcome("terrain hill fortress a1\na1 outpost:hq\nb2 moloch:hybrid NW\ne3 moloch:hq\n")
    assert o.hq["outpost"] == 19


def test_a_rocky_hill_kills_a_wounded_unit():
    """B13 HILL, ROCKY: 'If a unit on a rocky Hill receives any wound ... it is automatically killed'."""
    o = outcome(HQS + "terrain hill rocky c3\nc5 moloch:hybrid N\nc3 hegemony:gladiator N\n")
    assert "c3" not in units(o)


def test_a_rocky_hill_spares_an_hq():
    """B13 HILL, ROCKY: 'This rule does not apply to Headquarters'."""
    o = outcome("terrain hill rocky a1\na1 outpost:hq\nb2 moloch:hybrid NW\ne3 moloch:hq\n")
    assert o.hq["outpost"] == 19


def hqs_hp(found: tuple[battle.Outcome, ...], army_: str) -> set[int]:
    return {o.hq[army_] for o in found}


def test_a_shooter_on_a_watchtower_chooses_its_target_past_the_first_enemy():
    """B13 HILL, WATCHTOWER: 'A shooting unit on a Watchtower with any ranged attack gains Sharpshooter ability';
    B13 DESCRIPTION OF NEW ICONS, Sharpshooter: it 'can choose which enemy unit in the line of fire it shoots. (It
    does not need to be the first enemy unit.)' The Hybrid shoots the Mutant, or past it the Borgo HQ."""
    found = battle.resolve(parse("a1 moloch:hq\nterrain hill watchtower c5\nc5 moloch:hybrid N\n"
                                 "c3 borgo:mutant S\nc2 borgo:hq\n"))
    assert len(found) == 2
    assert {("c3" in units(o), o.hq["borgo"]) for o in found} == {(False, 20), (True, 19)}
    assert all(any("shoots" in c for c in o.choices) for o in found)


def test_off_the_watchtower_the_same_shooter_hits_the_first_enemy():
    """B13 HILL, WATCHTOWER: the ability lasts 'as long as it stays on the Hill'; 3E RANGED ATTACK: a shot hits the
    first enemy on its line. The same position with the Hill one hex away: one end, the Mutant shot."""
    found = battle.resolve(parse("a1 moloch:hq\nterrain hill watchtower d4\nc5 moloch:hybrid N\n"
                                 "c3 borgo:mutant S\nc2 borgo:hq\n"))
    assert len(found) == 1 and "c3" not in units(found[0]) and found[0].hq["borgo"] == 20


def test_a_unit_without_a_ranged_attack_on_a_watchtower_fights_as_usual():
    """B13 HILL, WATCHTOWER: only a unit 'with any ranged attack' gains the ability."""
    o = outcome("a1 moloch:hq\nterrain hill watchtower c4\nc4 outpost:brawler N\nc3 borgo:mutant N\ne3 borgo:hq\n")
    assert "c3" not in units(o)


def test_high_ground_stops_a_watchtower_shot_beyond_the_enemy_standing_on_it():
    """B13 FOREST, HIGH: 'hiding units which are on the other side ... High forest even protects against the
    Sharpshooter'; RULINGS 45: the unit on the High hex can itself be shot. The HQ behind is out of reach."""
    o = outcome("a1 moloch:hq\nterrain hill watchtower c5\nterrain forest high c3\nc5 moloch:hybrid N\n"
                "c3 borgo:mutant S\nc2 borgo:hq\n")
    assert "c3" not in units(o) and o.hq["borgo"] == 20


def test_a_watchtower_shot_at_a_unit_in_thick_forest_is_spent_on_it():
    """B13 FOREST, THICK: 'Any attack from a greater distance (even a Sharpshooter ...) is totally ineffective';
    RULINGS 44: the shot is spent on it and goes no further. The Hybrid may shoot the Mutant in the forest (in
    vain) or the adjacent Runner; never the HQ behind."""
    found = battle.resolve(parse("a1 moloch:hq\nterrain hill watchtower c5\nterrain forest thick c3\n"
                                 "c5 moloch:hybrid N\nc4 borgo:mutant N\nc3 borgo:mutant S\nc2 borgo:hq\n"))
    assert hqs_hp(found, "borgo") == {20}
    assert {"c4" in units(o) for o in found} == {True, False}
    assert all("c3" in units(o) for o in found)


def test_a_watchtower_shot_past_a_warehouse_is_not_possible_and_one_short_of_it_leaves_it_whole():
    """B13 WAREHOUSE, PRIZE: the wounds given to a Warehouse hex are marked; HIGH blocks the line. The shooter may
    shoot the Mutant before the Warehouse, which then takes no wound, or the Warehouse, which it breaks open."""
    found = battle.resolve(parse("a1 moloch:hq\ne3 borgo:hq\nterrain hill watchtower c5\n"
                                 "terrain warehouse closed,high,prize c2 strength=1 prizes=mobility\n"
                                 "c5 moloch:hybrid N\nc4 borgo:mutant N\n"))
    ends = {("c4" in units(o), next(str(e) for e in o.position.terrain if e.type == "warehouse"),
             o.position.held_prizes) for o in found}
    assert ends == {
        (False, "terrain warehouse closed,high,prize c2 strength=1 prizes=mobility", ()),
        (True, "terrain warehouse closed,high,prize c2 strength=1 wounds=1", (("moloch", ("mobility",)),)),
    }


def test_a_rocket_wounds_a_warehouse_only_on_the_path_it_flies():
    """B13 NEW YORK, Rocket Launcher: the owner chooses the path; B13 WAREHOUSE, PRIZE: 'Each wound given to a
    particular Warehouse hex should be marked'. Several paths reach the Warehouse: the one flown wounds it once (3),
    the others leave it whole (the paths are looked along before one is chosen, and that look wounds nothing)."""
    found = battle.resolve(parse("a1 new-york:hq\ne3 borgo:hq\nterrain warehouse closed,prize c3 strength=9\n"
                                 "c5 new-york:rocket-launcher N\nd4 borgo:mutant N\n"))
    ends = {("d4" in units(o), o.hq["borgo"], str(o.position.terrain[0])) for o in found}
    assert ends == {(True, 20, "terrain warehouse closed,prize c3 strength=9 wounds=3"),
                    (False, 20, "terrain warehouse closed,prize c3 strength=9"),
                    (True, 17, "terrain warehouse closed,prize c3 strength=9")}


def test_a_shotgun_on_a_watchtower_chooses_its_enemy_and_wounds_by_its_distance():
    """B13 HILL, WATCHTOWER ('any ranged attack'); B13 NEW YORK, Shotgun: 3 wounds adjacent, 2 at two hexes. The
    reading `watchtower-specials=choose`: the Mutant next to it (3) or the HQ two hexes away (2); `first` keeps the
    Shotgun on the first enemy, as 'Like most shooters, the shotgun hits the first enemy unit in the line of fire'."""
    text = "a1 new-york:hq\nterrain hill watchtower c5\nc5 new-york:shotgun N\nc4 borgo:mutant N\nc3 borgo:hq\n"
    found = battle.resolve(parse(text))
    assert {("c4" in units(o), o.hq["borgo"]) for o in found} == {(False, 20), (True, 18)}
    first = battle.resolve(parse("rules 3.0 watchtower-specials=first\n" + text))
    assert {("c4" in units(o), o.hq["borgo"]) for o in first} == {(False, 20)}


def test_a_rocket_on_a_watchtower_may_fly_over_an_enemy_to_hit_one_further_on():
    """B13 HILL, WATCHTOWER; B13 NEW YORK, Rocket Launcher: 'The Rocket enters the adjacent hex ... then it can go
    two additional hexes ... The first enemy it hits ... receives 3 wounds'. With the Sharpshooter ability
    (`watchtower-specials=choose`) the rocket passes the Mutant in front of it and may hit the HQ behind."""
    text = "a1 new-york:hq\nterrain hill watchtower c5\nc5 new-york:rocket-launcher N\nc4 borgo:mutant N\nc3 borgo:hq\n"
    found = battle.resolve(parse(text))
    assert (True, 17) in {("c4" in units(o), o.hq["borgo"]) for o in found}
    assert (False, 20) in {("c4" in units(o), o.hq["borgo"]) for o in found}
    first = battle.resolve(parse("rules 3.0 watchtower-specials=first\n" + text))
    assert {("c4" in units(o), o.hq["borgo"]) for o in first} == {(False, 20)}


# --- Water -----------------------------------------------------------------------------------------------------


def test_deep_water_drowns_a_wounded_unit():
    """B13 WATER, DEEP: 'If a unit in deep water receives any wound, it automatically dies'."""
    o = outcome(HQS + "terrain water deep c3\nc5 moloch:hybrid N\nc3 hegemony:gladiator N\n")
    assert "c3" not in units(o)


def test_a_whirlpool_drowns_every_unit_in_initiative_0_but_not_an_hq():
    """B13 WATER, WHIRLPOOL: 'Each unit in a Whirlpool is automatically killed at the end of the Battle ... in
    the Initiative 0 segment. This rule does not apply to HQ.'"""
    o = outcome("terrain water whirlpool a1 c3\na1 outpost:hq\ne3 moloch:hq\nc3 moloch:juggernaut N\n")
    assert "c3" not in units(o)
    assert o.hq["outpost"] == 20


def test_a_medic_saves_a_unit_from_the_whirlpool():
    """B13 WATER, WHIRLPOOL: 'A unit drowning in a Whirlpool can be saved by a Medic.'"""
    text = "terrain water whirlpool c3\na1 outpost:hq\ne3 moloch:hq\nc3 moloch:blocker N\nc4 moloch:medic {}\n"
    for facing in Direction:
        o = outcome(text.format(facing.name))
        if "c4" not in units(o):  # this facing links the Medic to c3: it absorbs the drowning and is discarded
            assert "c3" in units(o)
            return
    pytest.fail("no facing links the Medic to c3")


# --- Base, Warehouse ---------------------------------------------------------------------------------------------


def test_base_defense_systems_hit_every_adjacent_unit_but_hqs_and_the_control_panel():
    """B13 BASE, DEFENSE SYSTEMS: 'hits all adjacent units (except Headquarters) with strength 1 attacks'; THE
    CONTROL PANEL: 'A unit standing on the Control Panel is not attacked'; RULINGS 46: one attack per element."""
    o = outcome("terrain base closed,defense-systems c3 c4\nterrain base control-panel c2\n"
                "b3 outpost:hq\ne1 moloch:hq\nd3 moloch:blocker N\nc2 outpost:runner N\nc5 outpost:officer N\n")
    assert o.hq == {"outpost": 20, "moloch": 20}
    assert units(o)["d3"] == "d3 moloch:blocker N wounds=1"  # one attack of the element, not one per hex
    assert "c5" not in units(o)
    assert units(o)["c2"] == "c2 outpost:runner N"


def test_a_unit_on_the_control_panel_does_not_act():
    """B13 THE CONTROL PANEL: 'A unit which stands on it doesn't do any of its normal actions'."""
    o = outcome(HQS + "terrain base control-panel c5\nc5 moloch:hybrid N\nc4 hegemony:runner N\n")
    assert "c4" in units(o)


WAREHOUSE = "terrain warehouse closed,high,prize c3 strength={} prizes=first-aid-kit,mobility{}\n"


def test_a_shot_breaks_open_a_warehouse_and_its_army_takes_the_prizes():
    """B13 WAREHOUSE, PRIZE: 'The player who gives the final required wound, breaking open the Warehouse, gets
    the Prize Markers from the hex'; the Warehouse is High: the runner behind it is safe."""
    o = outcome(HQS + WAREHOUSE.format(1, "") + "c5 moloch:hybrid N\nc2 hegemony:runner N\n")
    assert "c2" in units(o)
    assert o.position.held_prizes == (("moloch", ("first-aid-kit", "mobility")),)
    (warehouse,) = o.position.terrain
    assert (warehouse.wounds, warehouse.prizes) == (1, ())


def test_a_warehouse_counts_its_wounds_until_its_strength():
    """B13 WAREHOUSE, PRIZE: 'Each wound given to a particular Warehouse hex should be marked'."""
    o = outcome(HQS + WAREHOUSE.format(3, "") + "c4 hegemony:thug N\n")
    (warehouse,) = o.position.terrain
    assert (warehouse.wounds, warehouse.prizes) == (2, ("first-aid-kit", "mobility"))
    assert o.position.held_prizes == ()


def test_only_the_armies_named_can_damage_a_warehouse():
    """B13 SCENARIO 3: 'Only New York can damage the Warehouse' (damaged-by=, NOTATION §10.3)."""
    o = outcome(HQS + WAREHOUSE.format(1, " damaged-by=new-york") + "c4 hegemony:thug N\n")
    assert o.position.terrain[0].wounds == 0


def test_a_warehouse_broken_open_by_two_armies_at_once_loses_its_prizes():
    """B13 WAREHOUSE, PRIZE: 'If units from more than one army break open the Warehouse at the same time, then
    the Prize markers are destroyed, and nobody receives them.'"""
    o = outcome(HQS + WAREHOUSE.format(2, "") + "c4 hegemony:thug N\nc2 moloch:ripper S\n")
    assert o.position.held_prizes == ()
    assert (o.position.terrain[0].wounds, o.position.terrain[0].prizes) == (2, ())


def test_one_warehouse_hex_broken_open_is_written_apart_from_the_others():
    """NOTATION §10.3: a Warehouse line's wounds and prizes apply to each of its hexes."""
    o = outcome("a1 outpost:hq\ne1 moloch:hq\nterrain warehouse closed,prize c3 d3 strength=1 prizes=mobility\nc4 hegemony:runner N\n")
    assert [str(e) for e in o.position.terrain] == [
        "terrain warehouse closed,prize c3 strength=1 wounds=1", "terrain warehouse closed,prize d3 strength=1 prizes=mobility"]


def test_turrets_are_refused_in_battle():
    """B13 TURRETS: 'in each Battle they automatically attack like units' - the book prints no numbers for them."""
    with pytest.raises(RuleNotImplemented, match="Turret"):
        battle.resolve(parse(HQS + "terrain base turrets,closed c3\nturret c3 N\n"))


# --- Instant tiles -----------------------------------------------------------------------------------------------


def test_an_instant_tile_does_nothing_in_thick_forest_or_a_hidden_bunker():
    """B13 FOREST, THICK: 'any attack by an Instant Tile is totally ineffective against it'; SCENARIO 4: Bunker
    Hidden: 'Bunker hexes are not affected by Instant Attacks'."""
    position = parse(HQS + "terrain forest thick c3\nterrain bunker hidden c4\nterrain forest high c2\n"
                     "c3 hegemony:runner N\nc4 hegemony:runner N\nc2 hegemony:runner N\n")
    ((_, after),) = battle.wound(position, [(h("c3"), 1), (h("c4"), 1), (h("c2"), 1)], "Grenade")
    assert {u.hex.label for u in after.units} == {"a1", "e3", "c3", "c4"}


def test_instants_leave_foundations_in_a_hidden_bunker_or_thick_forest():
    """B13 SCENARIO 4, Bunker Hidden: "Bunker hexes are not affected by Instant Attacks"; RULINGS 44 (B13 FOREST,
    THICK): "instants do nothing there". The hexes themselves are spared, so a foundation on them is too, though
    "They can be destroyed only by damaging Instant Action Tiles" (B13 FOUNDATION TILES): an Air Strike over a
    Mine in the Bunker, Roots in the Forest and a Mine in the open destroys the last one only."""
    from solver.turns import actions
    from solver.notation.text import parse_action

    position = parse("terrain bunker hidden b3\nterrain forest thick c4\na1 moloch:hq\ne1 vegas:hq\nd4 neojungle:hq\n"
                     "b3 vegas:mine\nc4 neojungle:roots\nd3 vegas:mine\nc2 vegas:guardian N\nto-move moloch\n"
                     "hand moloch air-strike\n")
    ((_, after),) = actions.results(position, parse_action("use moloch:air-strike c3", "moloch"), "moloch")
    assert sorted(str(f) for f in after.foundations) == ["b3 vegas:mine N", "c4 neojungle:roots N"]
    assert after.unit_at(h("c2")).wounds == 1


@pytest.mark.parametrize("use", ["use new-york:sniper b3", "use neojungle:small-bomb b3 b4 c4"])
def test_a_sniper_or_small_bomb_on_roots_in_a_hidden_bunker_is_spent_in_vain(use):
    """B13 SCENARIO 4, Bunker Hidden: "Bunker hexes are not affected by Instant Attacks": the Roots stay and the
    tile is used up (as a Grenade on a unit in Thick Forest: test_an_instant_tile_does_nothing_in_thick_forest_or_a_
    hidden_bunker). The Sniper was listed among the legal actions but refused when played."""
    from solver.turns import actions
    from solver.notation.text import parse_action

    army = use.split()[1].split(":")[0]
    position = parse(f"terrain bunker hidden b3\na1 new-york:hq\ne1 vegas:hq\nd4 neojungle:hq\nb3 neojungle:roots\n"
                     f"to-move {army}\nhand {army} {use.split()[1]}\n")
    action = parse_action(use, army)
    assert str(action) in {str(a) for a in actions.legal_actions(position, army)}
    ((_, after),) = actions.results(position, action, army)
    assert [str(f) for f in after.foundations] == ["b3 neojungle:roots N"] and after.hand(army) == ()


# --- rotation invariance -----------------------------------------------------------------------------------------

HEXES = sorted(STANDARD.hexes)
BATTLE_FEATURES = [(t, f) for t, fs in TERRAIN_FEATURES.items() for f in fs if f != "turrets"]


@st.composite
def terrain_positions(draw: st.DrawFn) -> Position:
    """Terrain elements with battle features, and units of two armies (New York's Shotgun and Rocket among them,
    for the Watchtower) on the hexes a unit may stand on."""
    hexes = draw(st.lists(st.sampled_from(HEXES), min_size=4, max_size=12, unique=True))
    cut = draw(st.integers(1, len(hexes) - 2))
    terrain, free = [], hexes[cut:]
    ground = hexes[:cut]
    while ground:
        size = draw(st.integers(1, len(ground)))
        kind, feature = draw(st.sampled_from(BATTLE_FEATURES))
        features = (feature, "closed") if kind == "warehouse" else (feature,)
        element = TerrainElement(kind, features, tuple(ground[:size]),
                                 strength=draw(st.integers(1, 3)) if kind == "warehouse" else None,
                                 prizes=("mobility",) if kind == "warehouse" else ())
        terrain.append(element)
        ground = ground[size:]
    closed = {x for e in terrain if "closed" in e.features or "fatal" in e.features for x in e.hexes}
    standing = [x for x in HEXES if x not in closed]
    chosen = draw(st.lists(st.sampled_from(standing), min_size=2, max_size=8, unique=True))
    sides = [army(draw(st.sampled_from(("moloch", "new-york")))), army("hegemony")]
    units, used = [], {}
    for i, hex_ in enumerate(chosen):
        side = sides[i % 2]
        choices = [t for t in side.tiles if t.kind in (Kind.WARRIOR, Kind.MODULE) and used.get(t.key, 0) < t.count]
        tile = draw(st.sampled_from(choices))
        used[tile.key] = used.get(tile.key, 0) + 1
        units.append(Unit(hex_, tile, draw(st.sampled_from(list(Direction)))))
    del free
    return Position(tuple(units), terrain=tuple(terrain))


def _ends(position: Position) -> set:
    return {(o.position.units, o.position.terrain, o.position.held_prizes) for o in battle.resolve(position)}


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow], derandomize=True)
@given(terrain_positions(), st.integers(1, 5))
def test_rotating_a_position_with_terrain_rotates_every_outcome(position: Position, steps: int) -> None:
    """Rotating a whole position with its terrain by 60° changes nothing but labels (GUIDE: property tests)."""
    expected = {(tuple(u.rotated(steps) for u in us), tuple(e.rotated(steps) for e in ts), held)
                for us, ts, held in _ends(position)}
    rotated = {(tuple(sorted(us, key=lambda u: u.hex)), tuple(sorted(ts, key=lambda e: e.hexes)), held)
               for us, ts, held in _ends(position.rotated(steps))}
    assert rotated == {(tuple(sorted(us, key=lambda u: u.hex)), tuple(sorted(ts, key=lambda e: e.hexes)), held)
                       for us, ts, held in expected}


# --- the solver on Babel 13 cards ------------------------------------------------------------------------------


def test_the_thicket_card_is_sound_and_its_thick_forest_decides_it():
    """puzzles/27-into-the-thicket.nhex: B13 FOREST, THICK keeps every shot from afar off the HQ, so only the
    Brawler on c2 wins; without the forest the Heavy Machine Gun wins from afar too (a cook)."""
    from pathlib import Path

    from solver.notation.text import load, parse as parse_card
    from solver.search.solve import Solver

    path = Path(__file__).parent.parent / "puzzles" / "27-into-the-thicket.nhex"
    report = Solver(load(str(path)), jobs=1).solve()
    assert report.verdict == "sound" and report.contains_intended
    assert report.solutions[0].actions == ("place outpost:brawler c2 N",)
    open_ground = parse_card(path.read_text().replace("terrain forest thick c1 c2\n", ""))
    assert Solver(open_ground, jobs=1).solve().verdict == "cooked"


def test_a_medic_absorbs_poison_unless_terrain_medic_is_no():
    """Rule option terrain-medic (B13 FOREST, POISONOUS is silent on Medics; WATER, WHIRLPOOL: 'can be saved by a
    Medic'): by default a linked Medic absorbs the forest's wound; with terrain-medic=no it cannot."""
    medic = "terrain forest poisonous c3\na1 outpost:hq\ne3 hegemony:hq\nc3 moloch:hybrid N\nc4 moloch:medic {}\n"
    for facing in Direction:
        o = outcome(medic.format(facing.name))
        if "c4" not in units(o):
            assert "c3" in units(o)
            strict = outcome("rules 3.0 terrain-medic=no\n" + medic.format(facing.name))
            assert "c3" not in units(strict) and "c4" in units(strict)
            return
    pytest.fail("no facing links the Medic to c3")


def test_battle_json_reports_held_prizes_and_warehouses():
    """NOTATION §10.8: `held_prizes` and `warehouses` in each outcome; `prizes` on units."""
    from solver.render.trace import outcome_json

    o = outcome(HQS + WAREHOUSE.format(1, "") + "c5 moloch:hybrid N prize=enhanced-shot\n")
    found = outcome_json(o)
    assert found["held_prizes"] == {"moloch": ["first-aid-kit", "mobility"]}
    assert found["warehouses"] == {"c3": {"wounds": 1, "prizes": []}}
    assert found["units"]["c5"]["prizes"] == ["enhanced-shot"]
