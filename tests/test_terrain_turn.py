"""Babel 13 terrain between battles: where units may go, what the ground does to a unit arriving, Dismal Forest
moves and the Control Panel (B13 = ``rulebook-en-babel13.txt``, TERRAINS AND SCENARIOS)."""

from __future__ import annotations

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from solver.turns import actions
from solver.errors import IllegalAction
from solver.expansion import TERRAIN_FEATURES, TerrainElement
from solver.hexes import STANDARD, Direction, Hex
from solver.notation.text import parse, parse_action
from solver.position import Move, Place, Position, Unit
from solver.tiles import army as army_of, tile as tile_of

HQS = "a1 outpost:hq\ne1 moloch:hq\n"


def h(label: str) -> Hex:
    return Hex.parse(label)


def play(text: str, action: str, army: str = "moloch"):
    position = parse(text)
    return actions.apply(position, parse_action(action, army), army)


def places(text: str, army: str = "moloch") -> set[str]:
    return {a.hex.label for a in actions.player_actions(parse(text), army) if isinstance(a, Place)}


def test_no_unit_is_placed_or_moved_onto_a_closed_hex():
    """B13 BASE, CLOSED: 'No units can be placed or moved onto a Closed Base hex.' (Rock, Warehouse: as above)"""
    text = HQS + "terrain rock closed,high c3\nhand moloch moloch:blocker\nc4 moloch:hybrid N prize=mobility\n"
    assert "c3" not in places(text) and "c2" in places(text)
    with pytest.raises(IllegalAction, match="Closed"):
        play(text, "place moloch:blocker c3 N")
    with pytest.raises(IllegalAction, match="Closed"):
        play(text, "move c4 c3 N")


def test_an_hq_is_not_placed_on_a_closed_hex_a_hole_or_the_control_panel():
    """B13 HOLE, FATAL: 'Headquarters cannot enter a Hole for any reason'; THE CONTROL PANEL: 'A HQ cannot stand
    on the Control Panel'."""
    for terrain in ("rock closed c3", "hole fatal c3", "base control-panel c3"):
        with pytest.raises(IllegalAction):
            play(f"terrain {terrain}\na1 outpost:hq\n", "hq c3")


def test_a_full_board_does_not_need_closed_or_fatal_hexes():
    """B13 THE GENERAL RULES OF TERRAIN: 'If all the hexes of the board except Closed Terrain and Fatal Terrain
    are occupied, the board is considered to be full and a Battle starts immediately.'"""
    from solver.tiles import Kind, army

    labels = ["a2", "a3", "b1", "b2", "b3", "b4", "c1", "c2", "c4", "c5", "d1", "d2", "d3", "d4", "e2"]
    tiles = [t.key for side in ("moloch", "hegemony") for t in army(side).tiles if t.kind is Kind.WARRIOR
             for _ in range(t.count)]
    lines = "a1 outpost:hq\ne1 moloch:hq\n" + "".join(f"{x} {t} N\n" for x, t in zip(labels, tiles))
    position = parse("terrain rock closed c3\nterrain hole fatal e3\n" + lines)
    assert actions.board_full(position)
    assert not actions.board_full(parse("terrain rock closed c3\n" + lines))


def test_a_unit_falls_into_a_hole():
    """B13 HOLE, FATAL: 'Any Unit on a Fatal Hole for any reason falls fatally and is automatically removed'."""
    after = play(HQS + "terrain hole fatal c3\nhand moloch moloch:blocker\n", "place moloch:blocker c3 N")
    assert after.unit_at(h("c3")) is None
    assert after.hand("moloch") == ()


def test_jungle_bars_units_with_a_toughness_icon():
    """B13 FOREST, JUNGLE: 'Units that have additional Toughness (Toughness icon marked on the tile itself ...)
    are too large to be placed or moved into Jungle in any way.'"""
    text = HQS + "terrain forest jungle c3\nhand moloch moloch:blocker moloch:hybrid\n"
    with pytest.raises(IllegalAction, match="Jungle"):
        play(text, "place moloch:blocker c3 N")
    assert play(text, "place moloch:hybrid c3 N").unit_at(h("c3")) is not None


def test_a_tough_unit_sinks_in_a_swamp():
    """B13 WATER, SWAMP: heavy units 'placed or moved onto Swamp for any reason ... immediately sink'."""
    text = HQS + "terrain water swamp c3\nhand moloch moloch:blocker moloch:hybrid\n"
    assert play(text, "place moloch:blocker c3 N").unit_at(h("c3")) is None
    assert play(text, "place moloch:hybrid c3 N").unit_at(h("c3")) is not None


def test_a_unit_pushed_off_a_rocky_hill_dies():
    """B13 HILL, ROCKY: 'If a unit on a rocky Hill ... is pushed, it is automatically killed'."""
    text = HQS + "terrain hill rocky c3\nc3 outpost:runner N\nc4 moloch:hybrid N\nhand moloch moloch:push-back\n"
    ((_, after),) = actions.results(parse(text), parse_action("use moloch:push-back c4 c3 c2", "moloch"), "moloch")
    assert after.unit_at(h("c2")) is None and after.unit_at(h("c3")) is None


def test_a_wounded_unit_leaving_a_fortress_dies():
    """B13 HILL, FORTRESS: 'If the unit leaves the Fortress Terrain for any reason, it immediately loses that
    extra Endurance point (and dies if it was still alive only thanks to that bonus)'."""
    text = HQS + "terrain hill fortress c3\nc3 moloch:hybrid N wounds=1 prize=mobility\n"
    after = play(text, "move c3 c2 N")
    assert after.unit_at(h("c2")) is None and after.unit_at(h("c3")) is None


def test_only_the_army_inside_a_tight_bunker_may_enter_it():
    """B13 BUNKER, TIGHT: 'If there is already a unit in a Tight Bunker, then only the player who controls it can
    place or move additional units there.'"""
    text = HQS + "terrain bunker tight c3 c4\nc3 outpost:runner N\nhand moloch moloch:blocker\nhand outpost outpost:hmg\n"
    with pytest.raises(IllegalAction, match="Tight"):
        play(text, "place moloch:blocker c4 N")
    assert play(text, "place outpost:hmg c4 N", "outpost").unit_at(h("c4")) is not None
    empty = text.replace("c3 outpost:runner N\n", "")
    assert play(empty, "place moloch:blocker c4 N").unit_at(h("c4")) is not None


def test_a_unit_moves_through_dismal_forest_once_a_turn():
    """B13 FOREST, DISMAL: 'a player may move one of their own units in the Dismal Forest to any other empty space
    in the same Forest element, or to other adjacent Forest elements. The Unit may change facing.'"""
    text = HQS + ("terrain forest dismal b1 c1\nterrain forest thick c2 d2\nterrain forest dismal e3\n"
                  "b1 moloch:blocker N\nb4 moloch:hybrid N\n")
    moves = {str(a) for a in actions.player_actions(parse(text), "moloch")
             if isinstance(a, Move) and a.by == "dismal"}
    assert {m.split()[2] for m in moves} == {"c1", "c2", "d2"}  # not e3: that forest is not adjacent
    after = play(text, "move b1 d2 S by dismal")
    assert str(after.unit_at(h("d2"))) == "d2 moloch:blocker S"
    used = actions.spend(parse(text), parse_action("move b1 d2 S by dismal", "moloch"), "moloch",
                         actions.NOTHING_USED)
    with pytest.raises(IllegalAction, match="one Dismal Forest move a turn"):
        actions.apply(after, parse_action("move d2 c2 S by dismal", "moloch"), "moloch", used)


def test_dismal_forest_has_no_effect_on_an_hq():
    """B13 FOREST, DISMAL: 'Dismal forest has no effect on Headquarters.'"""
    with pytest.raises(IllegalAction, match="Dismal"):
        play("terrain forest dismal a1 b1\na1 outpost:hq\ne1 moloch:hq\n", "move a1 b1 N by dismal", "outpost")


def test_the_unit_on_the_control_panel_turns_the_turrets():
    """B13 THE CONTROL PANEL: 'The player controlling the Control Panel may at any time during their round rotate
    Turrets.'"""
    text = HQS + "terrain base closed,turrets c3\nterrain base control-panel c4\nturret c3 N\nc4 moloch:blocker N\n"
    after = play(text, "move c3 c3 SE by control-panel")
    assert after.turrets[0].facing is Direction.SE
    with pytest.raises(IllegalAction, match="does not control"):
        play(text, "move c3 c3 SE by control-panel", "outpost")
    turns = [a for a in actions.player_actions(parse(text), "moloch") if isinstance(a, Move) and a.by == "control-panel"]
    assert len(turns) == 5


def test_an_enemy_tight_bunker_leaves_the_board_full_for_the_locked_out_player():
    """B13 THE GENERAL RULES OF TERRAIN: 'If, on a player's turn, the only empty hexes are in an enemy-occupied
    Tight Bunker, so that the player cannot enter those hexes, then the board is considered to be full'."""
    from solver.tiles import Kind, army

    labels = ["a2", "a3", "b1", "b2", "b3", "b4", "c1", "c2", "c4", "c5", "d1", "d2", "d3", "d4", "e2"]
    tiles = [t.key for side in ("moloch", "hegemony") for t in army(side).tiles if t.kind is Kind.WARRIOR
             for _ in range(t.count)]
    lines = "a1 outpost:hq\ne1 moloch:hq\n" + "".join(f"{x} {t} N\n" for x, t in zip(labels, tiles))
    # c3 and e3, in the Bunker, are the only empty hexes; c4, in it too, holds a Moloch unit
    text = "terrain bunker tight c3 c4 e3\n" + lines
    assert actions.board_full(parse("to-move hegemony\ndeck hegemony 20\n" + text))
    assert not actions.board_full(parse("to-move moloch\n" + text))


# --- rotation invariance between battles --------------------------------------------------------------------------

TURN_FEATURES = [(t, f) for t, fs in TERRAIN_FEATURES.items() for f in fs if f not in ("turrets",)]


@st.composite
def turn_positions(draw: st.DrawFn) -> Position:
    """Terrain elements, two HQs, a few Moloch units and a Moloch hand, Moloch to move."""
    hexes = draw(st.lists(st.sampled_from(sorted(STANDARD.hexes)), min_size=6, max_size=12, unique=True))
    cut = draw(st.integers(1, len(hexes) - 3))
    ground, free = hexes[:cut], hexes[cut:]
    terrain = []
    while ground:
        size = draw(st.integers(1, len(ground)))
        kind, feature = draw(st.sampled_from(TURN_FEATURES))
        features = (feature, "closed") if kind == "warehouse" else (feature,)
        if feature == "control-panel":
            size = 1
        terrain.append(TerrainElement(kind, features, tuple(ground[:size])))
        ground = ground[size:]
    units = [Unit(free[0], tile_of("moloch:hq")), Unit(free[1], tile_of("outpost:hq"))]
    warriors = [t for t in army_of("moloch").tiles if t.name in ("blocker", "hybrid", "ripper", "juggernaut")]
    for hex_ in free[2:draw(st.integers(2, len(free)))]:
        units.append(Unit(hex_, draw(st.sampled_from(warriors)), draw(st.sampled_from(list(Direction))),
                          prizes=draw(st.sampled_from([(), ("mobility",)]))))
    hand = (tile_of("moloch:juggernaut"), tile_of("moloch:move"))
    return Position(tuple(units), to_move="moloch", hands=(("moloch", hand),), terrain=tuple(terrain))


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow], derandomize=True)
@given(turn_positions(), st.integers(1, 5))
def test_rotating_a_position_with_terrain_rotates_its_legal_actions(position: Position, steps: int) -> None:
    """Rotating a whole position with terrain by 60° rotates the legal actions and changes nothing else (GUIDE:
    property tests)."""
    rotated = position.rotated(steps)
    expected = {_seen(rotated, _rotate(a, steps)) for a in actions.legal_actions(position, "moloch")}
    assert {_seen(rotated, a) for a in actions.legal_actions(rotated, "moloch")} == expected


def _seen(position: Position, action) -> str:
    """The action as text; an HQ looks the same every way, so its facing after a move is left out (the legal
    actions list one representative facing)."""
    from dataclasses import replace as copy

    from solver.position import Use

    source = action.source if isinstance(action, Move) else (
        action.targets[0] if isinstance(action, Use) and action.targets else None)
    unit = position.unit_at(source) if source is not None else None
    if unit is not None and unit.is_hq and getattr(action, "facing", None) is not None:
        action = copy(action, facing=None)
    return str(action)


def _rotate(action, steps: int):
    from dataclasses import fields, replace as copy

    from solver.hexes import Hex as H

    changes = {}
    for f in fields(action):
        value = getattr(action, f.name)
        if isinstance(value, H):
            changes[f.name] = value.rotated(steps)
        elif isinstance(value, Direction):
            changes[f.name] = value.rotated(steps)
        elif isinstance(value, tuple) and value and isinstance(value[0], H):
            changes[f.name] = tuple(v.rotated(steps) for v in value)
    return copy(action, **changes)


def test_nhex_moves_lists_dismal_moves_and_prize_actions():
    """`nhex moves` groups a family's actions by their keyword (B13 FOREST, DISMAL; PRIZE MARKERS); Closed Rock
    is never offered."""
    from solver.turns.game import moves_listing

    position = parse("to-move moloch\nterrain forest dismal b1 c1\nterrain rock closed c3\na1 outpost:hq\n"
                     "e1 moloch:hq\nb1 moloch:blocker N\nprizes moloch accelerator\nhand moloch moloch:hybrid\n")
    groups = dict(moves_listing(position, "moloch"))
    assert groups["prize actions"] == ["prize accelerator b1"]
    assert len(groups["free moves by dismal"]) == 6
    assert not any(" c3 " in line for line in groups["moloch:hybrid"])


GAME = """game
players outpost moloch
board standard
terrain hole fatal c3
terrain forest dismal a2 a3
prizes moloch mobility
1. outpost: hq c1
2. moloch: hq e3
3. outpost: draw runner; place runner a2 N
4. moloch: draw blocker hybrid; place blocker d3 N; prize mobility d3; move d3 d2 N; discard hybrid
5. outpost: draw commando hmg brawler; discard brawler; move a2 a3 S by dismal; place commando c3 N
"""


def test_a_game_record_with_terrain_and_prizes_is_checked_turn_by_turn():
    """`nhex check` plays the Babel 13 actions of a record: a held prize put on a unit whose Mobility marker then
    moves it, a Dismal Forest move, a Commando falling into a Hole (B13 HOLE, FATAL)."""
    from solver.turns import game

    report = game.check(parse(GAME, "<test>"))
    assert report.ok
    position = report.state.position
    assert position.unit_at(h("c3")) is None
    assert str(position.unit_at(h("d2"))) == "d2 moloch:blocker N prize=mobility"
    assert str(position.unit_at(h("a3"))) == "a3 outpost:runner S"
    assert position.held_prizes == ()
    bad = game.check(parse(GAME.replace("move d3 d2 N", "move d3 d2 N; move d2 d1 N"), "<test>"))
    assert not bad.ok and "once" in (bad.problem or "")


@pytest.mark.parametrize("text, problem", [
    ("terrain rock closed c3\nc3 moloch:blocker N\n", "no unit stands on this hex"),
    ("terrain hole fatal c3\nc3 moloch:hybrid N\n", "no unit stands on this hex"),
    ("terrain base control-panel c3\nc3 moloch:hq\n", "an HQ cannot stand here"),
    ("terrain water swamp c3\nc3 moloch:blocker N\n", "Toughness icon"),
    ("terrain bunker tight c3 c4\nc3 moloch:hybrid N\nc4 outpost:runner N\n", "two armies"),
])
def test_a_position_with_a_unit_where_the_terrain_lets_none_stand_is_bad_input(text, problem):
    """B13 BASE, CLOSED; HOLE, FATAL; THE CONTROL PANEL; WATER, SWAMP; BUNKER, TIGHT: such a position cannot
    arise, so reading it is a located error (exit 2), never a battle."""
    from solver.errors import NotationError

    with pytest.raises(NotationError, match=problem):
        parse(text, "t.nhex")


# --- a unit Vegas took over is Vegas's on the terrain too (PL VEGAS, Sztab) ---------------------------------------

TAKEN = "e1 vegas:hq N\na3 moloch:hq\nc3 vegas:agitator N\nc2 moloch:blocker N\n"  # the Agitator holds c2


def test_a_tight_bunker_held_through_a_taken_unit_is_its_takers():
    """B13 BUNKER, TIGHT: 'only the player who controls it can place or move additional units there'; PL VEGAS,
    Sztab: a taken unit "pod każdym względem traktowana jest jak własna" (is in every respect its taker's own).
    The Moloch Blocker on c2, held by the Agitator, holds the Bunker for Vegas."""
    text = "terrain bunker tight c1 c2\n" + TAKEN + "hand vegas vegas:agitator\nhand moloch moloch:blocker\n"
    assert "c1" in places("to-move vegas\n" + text, "vegas")
    assert "c1" not in places("to-move moloch\n" + text, "moloch")
    with pytest.raises(IllegalAction, match="Tight"):
        play(text, "place moloch:blocker c1 N")


def test_a_taken_unit_moves_through_dismal_forest_for_its_taker():
    """B13 FOREST, DISMAL: 'a player may move one of their own units in the Dismal Forest'; PL VEGAS, Sztab."""
    text = "terrain forest dismal c2 c1\n" + TAKEN
    assert "move c2 c1 N by dismal" in {str(a) for a in actions.player_actions(parse(text), "vegas")}
    assert not [a for a in actions.player_actions(parse(text), "moloch") if isinstance(a, Move) and a.by == "dismal"]
    with pytest.raises(IllegalAction, match="own unit"):
        play(text, "move c2 c1 N by dismal")


def test_a_taken_unit_on_the_control_panel_gives_it_to_its_taker():
    """B13 THE CONTROL PANEL: 'The player controlling the Control Panel may ... rotate Turrets'; PL VEGAS, Sztab."""
    text = "terrain base closed,turrets d4\nterrain base control-panel c2\nturret d4 N\n" + TAKEN
    assert str(play(text, "move d4 d4 S by control-panel", "vegas").turrets[0].facing.name) == "S"
    with pytest.raises(IllegalAction, match="does not control"):
        play(text, "move d4 d4 S by control-panel")
