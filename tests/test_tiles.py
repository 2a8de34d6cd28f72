"""The army database (solver/armies/*.army) and its format (grammar/army.lark)."""

from __future__ import annotations

import pytest

from solver.errors import NotationError
from solver.hexes import Direction
from solver.render.tables import edges_text, tile_json, tiles_json
from solver.tiles import ARMY_NAMES, Kind, army, army_name, armies, normal_name, parse_army, tile

ALL_ARMIES = list(armies().values())


def test_the_database_holds_the_nine_armies_of_the_notation():
    assert tuple(armies()) == ARMY_NAMES


@pytest.mark.parametrize("army_", ALL_ARMIES, ids=lambda a: a.name)
def test_every_army_totals_35_tiles_with_exactly_one_hq(army_):
    assert army_.size == 35
    assert [t.kind for t in army_.tiles].count(Kind.HQ) == 1
    assert army_.hq.count == 1 and army_.hq.health == 20


@pytest.mark.parametrize("army_", ALL_ARMIES, ids=lambda a: a.name)
def test_board_tiles_have_six_edges_and_instants_none(army_):
    for t in army_.tiles:
        if t.kind in (Kind.INSTANT, Kind.FOUNDATION):
            assert t.edges is None, t
        else:
            assert t.edges is not None and len(t.edges) == 6, t


@pytest.mark.parametrize("army_", ALL_ARMIES, ids=lambda a: a.name)
def test_every_tile_is_found_by_its_name_and_every_alias(army_):
    for t in army_.tiles:
        for name in (t.name, *t.aliases):
            assert tile(f"{army_.name}:{name}") is t
            assert tile(name, army_.name) is t


def test_names_ignore_case_underscores_and_diacritics():
    assert tile("Moloch:Gauss_Cannon") is tile("moloch:gauss-cannon")
    assert tile("moloch:DZIAŁKO-GAUSSA") is tile("moloch:gauss-cannon")
    assert tile("new_york:officer-i") is tile("new-york:officer-1")
    assert normal_name("  Łowca  ") == "lowca"


def test_army_aliases_are_accepted():
    assert army_name("Posterunek") == "outpost"
    assert army_name("NY") == "new-york"
    assert army_name("doomsday-machine") == "doomsday"
    assert tile("hegemonia:hq") is army("hegemony").hq


def test_an_unknown_army_names_the_known_ones():
    with pytest.raises(ValueError, match=r"unknown army 'martians' \(expected one of moloch, outpost"):
        army_name("martians")


def test_the_mercenary_pool_holds_only_the_mad_bomber():
    """NOTATION §10.4; 2E SPECIAL EXPANSION (Mad Bomber); RULINGS 56: "one wound kills him" (health 1)."""
    assert army_name("mercenaries") == "mercenary"
    bomber = tile("mercenary:mad-bomber")
    assert (bomber.kind, bomber.count, bomber.health, bomber.initiative) == ("warrior", 1, 1, ())
    assert all(edge.is_blank for edge in bomber.edges)
    assert "mercenary" not in armies()  # not an army a player commands


def test_the_other_mercenaries_have_no_tile_data():
    """tiles README, Open doubts 1: no source gives the four Mercenaries from Alabama."""
    from solver.tiles import MissingTileData

    with pytest.raises(MissingTileData, match="no data for the Mercenaries"):
        tile("mercenary:gunner")


def test_an_unknown_tile_names_its_army():
    with pytest.raises(ValueError, match="army moloch has no tile 'tank'"):
        tile("moloch:tank")


def test_a_bare_tile_name_needs_an_army():
    with pytest.raises(ValueError, match="needs its army"):
        tile("blocker")


def test_an_icon_on_edge_e_of_a_tile_facing_f_acts_towards_f_plus_e():
    commando = tile("outpost:commando")  # its shot is printed on edge 2 (SE)
    assert commando.edge(2).ranged == 1
    for facing in Direction:
        towards = Direction((facing + 2) % 6)
        assert commando.edge_towards(facing, towards).ranged == 1
        assert sum(commando.edge_towards(facing, d).ranged for d in Direction) == 1


def test_initiatives_are_listed_highest_first():
    assert tile("outpost:hmg").initiative == (2, 1)
    assert tile("moloch:blocker").initiative == ()


def test_health_is_toughness_plus_one_and_twenty_for_an_hq():
    assert tile("moloch:blocker").health == 3
    assert tile("moloch:hybrid").health == 1
    assert tile("borgo:hq").health == 20


# --- the JSON of `nhex tiles --json` (NOTATION §9) -----------------------------------------------------------


@pytest.mark.parametrize("army_", ALL_ARMIES, ids=lambda a: a.name)
def test_tiles_json_has_the_keys_and_types_of_notation_9(army_):
    entries = tiles_json(army_)
    assert sum(e["count"] for e in entries) == 35
    for entry in entries:
        assert {"tile", "kind", "count", "initiative", "toughness", "mobility", "edges"} <= entry.keys()
        assert entry["kind"] in ("hq", "warrior", "module", "instant", "foundation")
        assert entry["tile"].startswith(f"{army_.name}:")
        assert isinstance(entry["initiative"], list) and isinstance(entry["mobility"], bool)
        assert len(entry["edges"]) == 6
        for edge in entry["edges"]:
            assert {"melee", "ranged", "armor", "net", "link"} <= edge.keys()
            assert isinstance(edge["melee"], int) and isinstance(edge["armor"], bool)


def test_tiles_json_of_the_moloch_blocker_matches_the_notation_example():
    entry = tile_json(tile("moloch:blocker"))
    assert {k: entry[k] for k in ("tile", "kind", "count", "initiative", "toughness", "mobility")} == {
        "tile": "moloch:blocker", "kind": "warrior", "count": 2, "initiative": [], "toughness": 2, "mobility": False}
    assert entry["edges"][0] == {"melee": 0, "ranged": 0, "armor": True, "net": False, "link": False}
    assert entry["edges"][1] == {"melee": 0, "ranged": 0, "armor": False, "net": False, "link": False}


def test_instants_have_six_blank_edges_in_json():
    entry = tile_json(tile("moloch:battle"))
    assert entry["kind"] == "instant"
    assert all(not any(e.values()) for e in entry["edges"])


def test_edges_are_described_compactly_by_direction():
    assert edges_text(tile("moloch:juggernaut")) == "N melee 2 armor · NE ranged 1 · SE SW armor"
    assert edges_text(tile("moloch:hq")) == "all melee 1 link"
    assert edges_text(tile("outpost:commando"), Direction.N) == "SE ranged 1"
    assert edges_text(tile("outpost:commando"), Direction.SW) == "N ranged 1"


# --- the army format -----------------------------------------------------------------------------------------

_GOOD = """army tiny "Tiny"
tile hq "Tiny HQ"
  kind hq
  count 1
  initiative 0
  edge N NE SE S SW NW: melee 1, link
"""


def test_a_minimal_army_file_reads():
    tiny = parse_army(_GOOD, "tiny.army")
    assert tiny.name == "tiny" and tiny.size == 1
    assert tiny.hq.edge(3).melee == 1 and tiny.hq.edge(3).link


@pytest.mark.parametrize("text, expected", [
    (_GOOD + "  edge N: laser 1\n", "tiny.army:7:11: unknown edge icon 'laser'"),
    (_GOOD + "  edge N: armor\n", "tiny.army:7:3: edge N of hq is described twice"),
    (_GOOD + "  kind giant\n", "tiny.army:7:8: unknown kind 'giant' (expected one of hq, warrior, module, instant, foundation)"),
    (_GOOD + "  edge S: melee\n", "tiny.army:7:11: melee needs a strength"),
    (_GOOD + "  ability flying\n", "tiny.army:7:3: unknown ability 'flying'"),
    ('tile hq "HQ"\n', "tiny.army:1:1: a tile before the `army` line"),
    (_GOOD.replace("  kind hq\n", ""), "tiny.army:2:1: tile hq needs a `kind` and a `count` line"),
    (_GOOD + "army other \"Other\"\n", "tiny.army:7:1: a second `army` line"),
    (_GOOD + "tile hq2 \"Second HQ\"\n  kind hq\n  count 1\n", "tiny.army:1:1: army tiny must have exactly one HQ tile"),
    (_GOOD + "  count\n", "tiny.army:7:8: syntax error: unexpected '\\n'"),
])
def test_a_malformed_army_file_names_the_place(text, expected):
    with pytest.raises(NotationError) as caught:
        parse_army(text, "tiny.army")
    assert str(caught.value) == expected


# --- aliases (issue 10): clean names in the languages of the rulebooks (English, Polish, Spanish) --------------

import re as _re

_CLEAN = _re.compile(r"^[a-z0-9]+(-[a-z0-9]+){0,3}$")
#: Words that come from image files, web pages or other languages than the rulebooks', not from a tile's name.
_DEBRIS = ("image", "file", "png", "jpg", "svg", "http", "www", "boucher", "bagarreur", "garde", "chasseur",
           "eventreur", "equipe", "unite-centrale", "poings")


def test_every_alias_of_every_tile_is_a_clean_name():
    from solver.tiles import armies

    for army in armies().values():
        for alias in army.aliases:
            assert _CLEAN.match(alias) and not any(word in alias for word in _DEBRIS), (army.name, alias)
        for t in army.tiles:
            for alias in t.aliases:
                assert _CLEAN.match(alias), (t.key, alias)
                assert not any(word in alias for word in _DEBRIS), (t.key, alias)
            assert t.polish is None or "(image" not in t.polish, t.key


@pytest.mark.parametrize("written, meant", [
    ("moloch:wartownik", "moloch:guard"), ("moloch:opancerzony-wartownik", "moloch:armored-guard"),
    ("moloch:Opancerzony_Wartownik", "moloch:armored-guard"), ("moloch:sentry", "moloch:guard"),
    ("moloch:nalot", "moloch:air-strike"), ("moloch:bomb", "moloch:air-strike"), ("outpost:sztab", "outpost:hq"),
    ("nowy-jork:gliniarz", "new-york:cop"), ("maszyna-zaglady:pulapka", "doomsday:trap"),
    ("neodzungla:korzen", "neojungle:roots"), ("borgo:nozownik", "borgo:butcher"),
])
def test_polish_and_english_aliases_name_their_tile(written, meant):
    from solver.tiles import tile

    assert tile(written).key == meant


def test_moloch_wartownik_parses_on_a_unit_line():
    from solver.notation.text import parse_unit

    assert parse_unit("c3 moloch:wartownik N").tile.key == "moloch:guard"


def test_an_edge_is_blank_exactly_when_it_equals_the_blank_edge():
    """``Edge.is_blank`` reads the fields one by one (the search's keys ask it per edge, issue 27): it must say what
    ``edge == BLANK_EDGE`` says, on every edge of the database and on an edge with each single icon."""
    from dataclasses import replace

    from solver.tiles import BLANK_EDGE, mercenaries

    edges = {e for a in ALL_ARMIES for t in a.tiles for e in (t.edges or ())}
    edges |= {e for t in mercenaries().tiles for e in (t.edges or ())}
    edges |= {replace(BLANK_EDGE, **{name: value}) for name, value in (
        ("melee", 1), ("ranged", 2), ("armor", True), ("net", True), ("link", True), ("special", frozenset({"x"})))}
    assert any(e.is_blank for e in edges) and not all(e.is_blank for e in edges)
    for edge in edges:
        assert edge.is_blank == (edge == BLANK_EDGE), edge


def test_toughness_bonuses_only_add():
    """The New York HQ's arrival point skips the reading of the links for a unit within its printed toughness
    (solver/abilities/new_york_hq.py): sound only while no module's toughness-bonus takes toughness away."""
    from solver.tiles import mercenaries

    tiles = [t for a in ALL_ARMIES for t in a.tiles] + list(mercenaries().tiles)
    givers = [t for t in tiles if t.module is not None and t.module.type == "toughness-bonus"]
    assert givers and all((t.module.value or 0) > 0 for t in givers)
