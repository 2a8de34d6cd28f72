"""The Mad Bomber (issue 13). 2E = ../shared/rules/rulebook-en-2nd-edition.txt, SPECIAL EXPANSION: 4 MERCENARIES
FROM ALABAMA, "Mad Bomber as non player character" and "Mad Bomber as a mercenary"; RULINGS 56-57; NOTATION §10.4,
§10.8."""

from __future__ import annotations

import json

import pytest

from solver.turns import actions
from solver.notation import text as notation
from solver.errors import RuleNotImplemented
from solver.hexes import Hex
from solver.render.trace import battle_json


def at(outcome, label):
    return outcome.position.unit_at(Hex.parse(label))


def test_neutral_bomber_hit_explodes_wounding_every_adjacent_unit_but_hqs():
    """2E: "If, during any battle, Mad Bomber is hit (by range or melee attack, Grenade, etc.), he explodes dealing 1
    wound to all adjacent units except HQs." The Hybrid's shot stops at him (everyone's enemy, RULINGS 56); the
    blast wounds the Moloch Blocker and the Outpost unit beside him, not the Outpost HQ."""
    result = fight("""
        c3 mercenary:mad-bomber
        c5 moloch:hybrid N
        c2 moloch:blocker N
        d3 outpost:hmg N
        b3 outpost:hq
    """)
    assert at(result, "c3") is None
    assert at(result, "c2").wounds == 1  # the detonator's own unit too
    assert at(result, "d3") is None  # 1 wound kills the HMG
    assert result.hq["outpost"] == 20


def test_neutral_bomber_goes_onto_the_detonators_opponents_pile():
    """2E: "After an explosion, Mad Bomber goes on top of the next player's unused pile of tiles"; NOTATION §10.8
    `mad_bomber_goes_to`. Moloch detonates him: he goes to the Outpost."""
    result = fight("""
        c3 mercenary:mad-bomber
        c5 moloch:hybrid N
        a1 outpost:hq
        e3 moloch:hq
    """)
    assert dict(result.reports) == {"mad_bomber_goes_to": "outpost", "mad_bomber_hit_by": ("moloch",)}
    assert battle_json((result,))["outcomes"][0]["mad_bomber_goes_to"] == "outpost"
    assert battle_json((result,))["outcomes"][0]["mad_bomber_hit_by"] == ["moloch"]
    json.dumps(battle_json((result,)))


def test_bomber_hit_by_two_players_in_one_phase_leaves_the_game():
    """2E: "If Mad Bomber gets hit from several players at the same time (in the same initiative phase), he is
    removed from the game and does not return." (`mad_bomber_goes_to`: null)"""
    result = fight("""
        c3 mercenary:mad-bomber
        c5 moloch:hybrid N
        c1 outpost:commando NE
        a1 outpost:hq
        e3 moloch:hq
    """)
    assert at(result, "c3") is None
    assert battle_json((result,))["outcomes"][0]["mad_bomber_goes_to"] is None


def test_netted_bomber_cannot_explode_but_dies_and_returns_as_if_detonated():
    """2E: "Mad Bomber can be normally disabled with a net ... If disabled, he cannot explode, but he can receive
    wounds: if he is killed, he returns just as if he detonated." The Moloch Net Fighter on b3 nets him (NE)."""
    result = fight("""
        c3 mercenary:mad-bomber
        b3 moloch:net-fighter NE
        c5 moloch:hybrid N
        d3 outpost:hmg N
        a1 outpost:hq
    """)
    assert at(result, "c3") is None
    assert at(result, "d3").wounds == 0  # no blast
    assert dict(result.reports) == {"mad_bomber_goes_to": "outpost", "mad_bomber_hit_by": ("moloch",)}


def test_hq_strikes_the_neutral_bomber():
    """RULINGS 56: 'HQs strike him' (every army treats him as an enemy); the blast spares HQs."""
    result = fight("""
        c3 mercenary:mad-bomber
        c2 moloch:hq
        d3 moloch:blocker N
        a1 outpost:hq
    """)
    assert at(result, "c3") is None and at(result, "d3").wounds == 1
    assert result.hq == {"moloch": 20, "outpost": 20}


def test_hired_bomber_wounds_only_adjacent_enemies_hqs_included():
    """2E, Mad Bomber as a mercenary: "When detonated, Mad Bomber causes 1 wound to all adjacent enemy units
    (including HQs)." RULINGS 57: friendly shots pass over him."""
    result = fight("""
        c3 mercenary:mad-bomber owner=outpost
        c2 moloch:hq
        d3 outpost:hmg N
        b3 moloch:blocker N
        a1 outpost:hq
    """)
    assert at(result, "c3") is None
    assert at(result, "d3").wounds == 0  # his owner's unit
    assert at(result, "b3").wounds >= 1
    assert result.hq["moloch"] < 20  # the blast wounds the enemy HQ (and the HQ's own strike was on him)
    assert "mad_bomber_goes_to" not in battle_json((result,))["outcomes"][0]
    over = fight("""
        c4 mercenary:mad-bomber owner=outpost
        c5 outpost:hmg N
        c2 moloch:blocker N
        a1 outpost:hq
    """)
    assert at(over, "c4") is not None and at(over, "c2").wounds == 2


def test_an_instant_sets_the_bomber_off():
    """2E: "hit (by range or melee attack, Grenade, etc.)". A Sniper's wound sets him off between battles."""
    p = position("""
        to-move outpost
        c3 mercenary:mad-bomber
        c2 moloch:blocker N
        a1 outpost:hq
        e3 moloch:hq
        hand outpost outpost:sniper
    """)
    use = next(a for a in actions.legal_actions(p, "outpost") if str(a) == "use outpost:sniper c3")
    after = actions.apply(p, use, "outpost")
    assert after.unit_at(Hex.parse("c3")) is None
    assert after.unit_at(Hex.parse("c2")).wounds == 1


def test_the_pusher_picks_where_the_bomber_goes():
    """2E: "If pushed back, the player doing the pushing determines the direction." Each destination is the
    pushing player's own action."""
    p = position("""
        to-move moloch
        c3 mercenary:mad-bomber
        c4 moloch:blocker N
        a1 outpost:hq
        e3 moloch:hq
        hand moloch moloch:push-back
    """)
    listed = [str(a) for a in actions.player_actions(p, "moloch") if str(a).startswith("use moloch:push-back")]
    assert sorted(listed) == ["use moloch:push-back c4 c3 b2", "use moloch:push-back c4 c3 c2",
                              "use moloch:push-back c4 c3 d2"]


def test_several_armies_need_the_seating():
    """2E: "In a multi-player game, Mad Bomber goes to the player to the right of the player who detonated": a
    position without a `players` line has no seating, so `mad_bomber_goes_to` is refused by name (exit 4); the
    battle itself is played and says who set him off (a game record places him from that: tests/test_hiring.py)."""
    result = fight("""
        c3 mercenary:mad-bomber
        c5 moloch:hybrid N
        a1 outpost:hq
        e3 hegemony:hq
    """)
    assert dict(result.reports)["mad_bomber_hit_by"] == ("moloch",)
    with pytest.raises(RuleNotImplemented, match="seating"):
        battle_json((result,))


# --- Mercenaries from Alabama: hiring (2E RULES) ---------------------------------------------------------------------

from solver.position import Draw, Place  # noqa: E402
from solver.hexes import Direction  # noqa: E402
from solver.tiles import tile as tile_named  # noqa: E402

from battle_helpers import fight, position

BOMBER_TILE = tile_named("mercenary:mad-bomber")


def test_a_mercenary_is_drawn_instead_of_an_army_tile():
    """2E RULES: "Each mercenary tile can be drawn once per game during any tile-drawing, instead of a normal army
    tile": the deck keeps its tiles."""
    p = position("to-move moloch\nc3 moloch:hq\na1 outpost:hq\ndeck moloch 10\n")
    after = actions.apply(p, Draw((BOMBER_TILE, tile_named("moloch:battle"))), "moloch")
    assert after.deck("moloch") == 9 and BOMBER_TILE in after.hand("moloch")


def test_a_placed_bomber_is_neutral_or_hired_by_the_rule_option():
    """2E, Mad Bomber as non player character: "A player can put Mad Bomber somewhere on the board ... just like with
    normal tiles" (he stays neutral); as a mercenary: "The player which places Mad Bomber on the board puts his army
    marker ... on him" (option mad-bomber=mercenary). 2E RULES: "Mercenary, when played, belongs to one's army"."""
    text = "to-move moloch\nc3 moloch:hq\na1 outpost:hq\nhand moloch mercenary:mad-bomber\n"
    place = Place(BOMBER_TILE, Hex.parse("e3"), Direction.N)
    neutral = actions.apply(position(text), place, "moloch").unit_at(Hex.parse("e3"))
    assert neutral.is_neutral
    hired = actions.apply(position("rules 3.0 mad-bomber=mercenary\n" + text), place, "moloch").unit_at(Hex.parse("e3"))
    assert hired.owner == "moloch" and not hired.is_neutral


def test_the_four_mercenaries_without_data_are_refused_by_name():
    """tiles README, Open doubts 1: no source gives the four Mercenaries' tiles; naming one is exit 4, not bad
    input (NOTATION §9, §10.4)."""
    with pytest.raises(RuleNotImplemented, match="no data for the Mercenaries"):
        position("c3 moloch:hq\nb2 mercenary:gunslinger owner=moloch\n")


def test_battle_json_from_the_command_line_names_where_the_bomber_goes(tmp_path, capsys):
    """NOTATION §10.8: `mad_bomber_goes_to`, the army on whose draw pile he goes."""
    from solver.cli import main

    path = tmp_path / "bomber.nhex"
    path.write_text("c3 mercenary:mad-bomber\nc5 moloch:hybrid N\na1 outpost:hq\ne3 moloch:hq\n")
    assert main(["battle", str(path), "--json"]) == 0
    outcome = json.loads(capsys.readouterr().out)["outcomes"][0]
    assert outcome["mad_bomber_goes_to"] == "outpost" and "c3" not in outcome["units"]


THREE_ARMIES = """
    c3 mercenary:mad-bomber
    c5 moloch:hybrid N
    a1 outpost:hq
    e3 hegemony:hq
    e1 moloch:hq
"""


@pytest.mark.parametrize("seating, option, goes_to", [
    ("players moloch outpost hegemony", "", "outpost"),
    ("players moloch hegemony outpost", "", "hegemony"),
    ("players outpost hegemony moloch", "", "outpost"),  # the next seat wraps round the table
    ("players moloch outpost hegemony", "rules 3.0 bomber-right=previous", "hegemony"),
])
def test_a_positions_players_line_seats_the_armies_for_the_bomber(seating, option, goes_to):
    """2E Mad Bomber as non player character: "In a multi-player game, Mad Bomber goes to the player to the right of
    the player who detonated Mad Bomber." A position may state the seating with NOTATION's `players` line (an
    additive extension, README); "to the right" is the next seat in turn order, or the previous one with option
    bomber-right=previous, as in a game record."""
    result = fight("\n".join(filter(None, (option, seating))) + THREE_ARMIES)
    assert dict(result.reports)["mad_bomber_goes_to"] == goes_to
    assert battle_json((result,))["outcomes"][0]["mad_bomber_goes_to"] == goes_to


def test_without_a_seating_the_refusal_names_the_bombers_line(tmp_path, capsys):
    """The refusal that stays (no `players` line) is located at the Mad Bomber's line, not FILE:0:0 (issue 24)."""
    from solver.cli import main

    path = tmp_path / "three.nhex"
    path.write_text("c5 moloch:hybrid N\nc3 mercenary:mad-bomber\na1 outpost:hq\ne3 hegemony:hq\ne1 moloch:hq\n")
    assert main(["battle", str(path), "--json"]) == 4
    assert capsys.readouterr().err.startswith(f"{path}:2:4: not implemented yet: where mercenary:mad-bomber goes")


def test_a_positions_seating_is_kept_in_its_canonical_text():
    """The `players` line a position states is written back as it was (NOTATION §10.5 order), so that the seating
    survives `nhex` rewriting the file."""
    text = "players moloch hegemony outpost" + THREE_ARMIES
    written = str(position(text))
    assert written.splitlines()[0] == "players moloch hegemony outpost"
    assert position(written).seats == ("moloch", "hegemony", "outpost")
