"""Between battles: one test per rule of solver/turns/actions.py.

Each docstring names the passage the test checks. 3E is ../shared/rules/rulebook-en-3rd-edition.txt and
2E the 2nd edition. ES and PL are the army sheets (rulebook-es-armies-doomsday-puzzles.txt and
rulebook-pl-duel-smart-vegas.txt).
"""

from __future__ import annotations

from dataclasses import replace

import pytest

from solver.turns import actions
from solver.turns.actions import ChoiceRequired, Spent, apply, legal_actions, player_actions, results, spend
from solver.errors import IllegalAction, RuleNotImplemented
from solver.hexes import Direction, Hex
from solver.notation.text import parse_action, parse_position
from solver.position import Move, Place, Position, Use
from solver.rules import RuleSet
from solver.tiles import tile


def pos(text: str) -> Position:
    return parse_position(text)


def act(text: str, army: str):
    return parse_action(text, army)


def do(position: Position, text: str, army: str, used=actions.NOTHING_USED) -> Position:
    return apply(position, act(text, army), army, used)


def refused(position: Position, text: str, army: str, rule: str, used=actions.NOTHING_USED) -> None:
    with pytest.raises(IllegalAction) as caught:
        do(position, text, army, used)
    assert caught.value.rule == rule, caught.value.rule
    assert caught.value.action == str(act(text, army))


def at(position: Position, label: str):
    return position.unit_at(Hex.parse(label))


def with_rules(position: Position, **options: str) -> Position:
    return replace(position, rules=RuleSet.make("3.0", [(k.replace("_", "-"), v) for k, v in options.items()]))


# --- placing tiles -------------------------------------------------------------------------------------------------


def test_a_tile_goes_on_an_empty_hex_with_any_facing():
    """3E USING TILES: 'Unit tiles cannot be placed on top of other tiles on the board (each space may only
    contain a single unit)'."""
    p = pos("c3 outpost:hq\nc1 moloch:hq\nhand outpost outpost:commando")
    after = do(p, "place commando c2 SW", "outpost")
    assert str(at(after, "c2")) == "c2 outpost:commando SW"
    assert after.hand("outpost") == ()
    refused(p, "place commando c3 N", "outpost", actions.HEX_TAKEN)


def test_only_tiles_in_front_of_the_player_are_played():
    """3E USING TILES: the tiles a player uses are the ones drawn and lying in front of them."""
    p = pos("c3 outpost:hq\nc1 moloch:hq\nhand outpost outpost:scout")
    refused(p, "place commando c2 N", "outpost", actions.NOT_IN_HAND)
    refused(p, "discard commando", "outpost", actions.NOT_IN_HAND)
    assert do(p, "discard scout", "outpost").hand("outpost") == ()


def test_instants_are_used_and_units_are_placed():
    """3E USING TILES: 'Instant Action tiles ... are not placed on the board, but only shown to the
    opponent and their effects are resolved'; unit tiles are placed."""
    p = pos("c3 outpost:hq\nc1 moloch:hq\nhand outpost outpost:move outpost:runner")
    with pytest.raises(IllegalAction) as caught:
        apply(p, Place(tile("outpost:move"), Hex.parse("c2")), "outpost")
    assert caught.value.rule == actions.INSTANT_NOT_PLACED
    with pytest.raises(IllegalAction) as caught:
        apply(p, Use(tile("outpost:runner"), (Hex.parse("c2"),)), "outpost")
    assert caught.value.rule == actions.UNIT_NOT_USED


def test_apply_is_pure():
    """STYLE: values at the bottom; apply builds a new position and leaves the old one as it was."""
    p = pos("c3 outpost:hq\nc1 moloch:hq\nb2 moloch:blocker\nhand outpost outpost:sniper outpost:commando")
    text = str(p)
    do(p, "use sniper b2", "outpost")
    do(p, "place commando c2 N", "outpost")
    assert str(p) == text


def test_the_hq_is_placed_at_the_start_with_hq():
    """3E GAME SEQUENCE: 'The first player places their HQ on any empty space on the board. Then the second
    player does the same. HQ's may be placed adjacent to each other.'"""
    p = pos("c3 outpost:hq")
    after = do(p, "hq c2", "moloch")
    assert str(at(after, "c2")) == "c2 moloch:hq N hp=20"
    refused(p, "hq c3", "moloch", actions.HEX_TAKEN)
    refused(after, "hq d2", "moloch", actions.SECOND_HQ)


def test_a_placed_tile_does_not_move_unless_an_action_says_so():
    """3E USING TILES: 'After a tile has been placed, it may not be moved or rotated in any way except for
    special actions'. Warriors without Mobility get no free move; enemy units are never moved by a Move."""
    p = pos("c3 outpost:hq\nc1 moloch:hq\nc2 outpost:commando\nd1 moloch:hybrid\nhand outpost outpost:move")
    refused(p, "move c2 b2 N", "outpost", actions.NO_MOBILITY)
    refused(p, "use move d1 d2 N", "outpost", actions.MOVE_OWN)
    assert not [a for a in legal_actions(p, "outpost") if isinstance(a, Move)]


def test_a_full_board_ends_the_turn():
    """3E USING TILES: 'If, at any time during the game, the board is filled and no single space is left to
    place a tile on, a Battle begins'; 3E BATTLE: 'When a Battle starts—by playing a Battle tile or filling
    up the board—the player's turn is over'."""
    p = pos("board custom (0,0) (0,-1) (1,-1)\nc3 outpost:hq\nc2 moloch:hq\nhand outpost outpost:medic outpost:scout")
    action = act("place medic d2 N", "outpost")
    after = apply(p, action, "outpost")
    assert actions.board_full(after) and actions.starts_battle(action, after)
    assert legal_actions(after, "outpost") == []
    with pytest.raises(IllegalAction) as caught:
        apply(replace(after, hands=(("outpost", (tile("outpost:move"),)),)), Use(tile("outpost:move"),
              (Hex.parse("c3"), Hex.parse("c3")), Direction.S), "outpost")
    assert caught.value.rule == actions.BOARD_FULL


def test_the_extended_board_fights_when_the_main_battlefield_is_full():
    """3E EXPANDED BATTLEFIELD: 'the Battle still commences as soon as the main battlefield is filled up'."""
    from solver.hexes import EXTENDED, STANDARD
    from solver.position import Unit

    # A position value is not validated, so any tile may stand for the 19 units.
    full = Position(tuple(Unit(h, tile("moloch:blocker")) for h in STANDARD), EXTENDED,
                    hands=(("moloch", (tile("moloch:hybrid"),)),))
    assert actions.board_full(full) and legal_actions(full, "moloch") == []
    assert not actions.board_full(replace(full, units=full.units[1:]))


def test_drawing_never_gives_more_than_three_tiles():
    """3E DRAWING TILES: 'a player may never have more than 3 tiles in front of them on their turn'."""
    p = pos("c3 outpost:hq\nhand outpost outpost:scout outpost:move\ndeck outpost 10")
    after = do(p, "draw commando", "outpost")
    assert [t.key for t in after.hand("outpost")] == ["outpost:scout", "outpost:move", "outpost:commando"]
    assert after.deck("outpost") == 9
    refused(p, "draw commando brawler", "outpost", actions.HAND_LIMIT)


# --- the Battle tile -------------------------------------------------------------------------------------------------


def test_the_battle_tile_starts_a_battle():
    """3E BATTLE (instant): 'If a player uses this tile a Battle begins'."""
    p = pos("c3 outpost:hq\nc1 moloch:hq\nhand outpost outpost:battle\ndeck outpost 5\ndeck moloch 5")
    action = act("use battle", "outpost")
    assert actions.starts_battle(action, apply(p, action, "outpost"))


def test_no_battle_tile_once_any_player_drew_the_last_tile():
    """3E BATTLE: 'A Battle Instant Action tile cannot be used if any of the players have drawn the last tile
    from their deck'; 3E ENDING THE GAME: 'a Battle can only be triggered by filling the board'."""
    p = pos("c3 outpost:hq\nc1 moloch:hq\nhand outpost outpost:battle\ndeck outpost 5\ndeck moloch 0")
    refused(p, "use battle", "outpost", actions.BATTLE_AFTER_LAST_TILE)
    assert not [a for a in legal_actions(p, "outpost") if isinstance(a, Use)]


# --- the Move tile ---------------------------------------------------------------------------------------------------


def test_move_tile_moves_a_friendly_unit_one_hex_and_or_turns_it():
    """3E MOVE: 'This tile allows its user to Move a friendly unit to an adjacent, unoccupied hex and/or
    Rotate it freely in any direction.'"""
    p = pos("c3 outpost:hq\nc1 moloch:hq\nb2 outpost:commando\nhand outpost outpost:move")
    assert str(at(do(p, "use move b2 b1 S", "outpost"), "b1")) == "b1 outpost:commando S"
    assert str(at(do(p, "use move b2 b2 NE", "outpost"), "b2")) == "b2 outpost:commando NE"
    refused(p, "use move b2 d2 N", "outpost", actions.MOVE_TOO_FAR)
    refused(p, "use move b2 c3 N", "outpost", actions.HEX_TAKEN)
    refused(p, "use move b2 b2 N", "outpost", actions.MOVE_NOTHING)


def test_move_tile_moves_hqs_and_modules_too():
    """2E EXAMPLE OF PLAY, turns 3 and 6: the Move tile moves an HQ; 3E MODULES: modules 'cannot Move or
    Rotate unless a Move tile is played on them'."""
    p = pos("c3 outpost:hq\nc1 moloch:hq\nb2 outpost:scout\nhand outpost outpost:move")
    assert at(do(p, "use move c3 d3 N", "outpost"), "d3").is_hq
    assert at(do(p, "use move b2 a1 N", "outpost"), "a1").tile.key == "outpost:scout"


def test_nets_act_the_moment_a_tile_lands():
    """3E NET: 'Nets disable the opponents as soon as they are placed on the board, not only during a
    Battle' and a netted unit 'cannot attack, move, push ... or perform any actions'."""
    p = pos("c3 outpost:hq\nc1 moloch:hq\nb2 outpost:commando\nhand moloch moloch:net-fighter\n"
            "hand outpost outpost:move")
    assert do(p, "use move b2 b1 N", "outpost")  # free before the net lands
    netted = do(p, "place net-fighter b1 S", "moloch")  # its net (edge N) now points S at b2
    assert Hex.parse("b2") in actions.netted(netted)
    refused(netted, "use move b2 a1 N", "outpost", actions.MOVE_NETTED)
    refused(netted, "use move b2 b2 S", "outpost", actions.MOVE_NETTED)


def test_two_nets_aimed_at_each_other_leave_both_free_to_move():
    """3E USING NETS: 'two Nets aimed at each other nullify each other's function, while both Net Fighters
    are treated as non-netted (e.g. they may be Moved normally with a Move tile)'."""
    p = pos("e1 hegemony:hq\ne3 moloch:hq\nb2 moloch:net-fighter S\nb3 hegemony:net-fighter NW\n"
            "hand moloch moloch:move")
    # The Moloch Net Fighter nets S (b3) and SE; the Hegemony one faces NW, so its net (edge NE) points N at b2.
    assert actions.netted(p) == frozenset()
    assert at(do(p, "use move b2 a1 S", "moloch"), "a1") is not None


# --- Push Back -------------------------------------------------------------------------------------------------------


PUSH_EXAMPLE = """
# 3E PUSH BACK example (2E 'An example of pushing back'): a Moloch unit between two Outpost warriors
c3 moloch:hunter-killer
c2 outpost:runner       # the upper one: b1, c1 and d1 behind it are taken
d3 outpost:brawler      # the right-hand one: d4, e2 and e3 behind it are free
b1 outpost:scout
c1 outpost:medic
d1 outpost:hq
a3 moloch:hq            # touches no Outpost unit, so it pushes nothing
hand moloch moloch:push-back
"""


def test_push_back_example_from_the_rulebook():
    """3E PUSH BACK example: 'It is impossible to push the warrior with green outline away, because both
    hexes behind him are occupied and the only free hex is adjacent to the unit that performs the push. It
    is, however, possible to push the Warrior with blue outline away. Additionally, the player who commands
    the Outpost may choose which hex to move their unit to.'"""
    p = pos(PUSH_EXAMPLE)
    refused(p, "use push-back c3 c2 b2", "moloch", actions.PUSH_NO_ROOM)
    pushes = sorted(str(a) for a in legal_actions(p, "moloch") if isinstance(a, Use))
    assert pushes == ["use moloch:push-back c3 d3 d4", "use moloch:push-back c3 d3 e2",
                      "use moloch:push-back c3 d3 e3"]
    # The Outpost player, not Moloch, picks the hex: one result per choice, labelled with it.
    (open_push,) = [a for a in player_actions(p, "moloch") if isinstance(a, Use)]
    found = results(p, open_push, "moloch")
    assert sorted(label for label, _ in found) == ["outpost puts the pushed unit on d4",
                                             "outpost puts the pushed unit on e2",
                                             "outpost puts the pushed unit on e3"]
    assert sorted(str(at(after, label[-2:])) for label, after in found) == [
        "d4 outpost:brawler N", "e2 outpost:brawler N", "e3 outpost:brawler N"]
    with pytest.raises(ChoiceRequired):
        apply(p, open_push, "moloch")


def test_push_back_goes_one_hex_further_and_keeps_the_facing():
    """3E PUSH BACK: 'creating a distance of one hex between them ... only a single space away ... The
    Pushed Back unit may not be Rotated during the Push Back.'"""
    p = pos(PUSH_EXAMPLE)
    after = do(p, "use push-back c3 d3 e3", "moloch")
    assert at(after, "d3") is None and str(at(after, "e3")) == "e3 outpost:brawler N"
    assert after.hand("moloch") == ()
    refused(p, "use push-back c3 d3 d2", "moloch", actions.PUSH_DEST)  # still adjacent to the pusher
    refused(p, "use push-back c3 d3 c4", "moloch", actions.PUSH_DEST)  # next to the pusher again


def test_push_back_moves_an_enemy_unit_adjacent_to_an_own_unit():
    """3E PUSH BACK: 'This tile allows a friendly unit to Push Back an adjacent enemy unit'."""
    p = pos(PUSH_EXAMPLE)
    refused(p, "use push-back c2 c3 c4", "moloch", actions.PUSH_OWN)
    refused(p, "use push-back c3 d1 e1", "moloch", actions.PUSH_ADJACENT)  # not adjacent
    refused(p, "use push-back c3 c4 c5", "moloch", actions.PUSH_ADJACENT)  # nobody there


def test_modules_and_hqs_push_and_hqs_are_pushed():
    """3E PUSH BACK names 'a friendly unit' and 'an adjacent enemy unit'; 2E TILE DESCRIPTIONS: tiles
    'affect both: unit tiles and HQ tiles'; the PL Duel example game has a Mother module push (turn 5).
    Option push-back-hq=no keeps HQs in place."""
    p = pos("c3 moloch:scout\nc2 outpost:hq\nc5 moloch:hq\nhand moloch moloch:push-back")
    after = do(p, "use push-back c3 c2 c1", "moloch")
    assert at(after, "c1").is_hq
    refused(with_rules(p, push_back_hq="no"), "use push-back c3 c2 c1", "moloch", actions.PUSH_HQ)


def test_netted_units_neither_push_nor_are_pushed():
    """3E PUSH BACK: 'Netted units cannot Push or be Pushed Back'; 3E USING NETS: 'A disabled unit cannot
    move, thus it cannot be pushed away.'"""
    base = "c5 moloch:hq\na1 outpost:hq\nc3 moloch:guard\nc2 outpost:runner\nhand moloch moloch:push-back\n"
    netted_target = pos(base + "b2 moloch:net-fighter SE")
    # b2's Net Fighter faces SE: its nets (edges N, NW) point SE (c3, its own) and NE (c2, the Runner).
    assert Hex.parse("c2") in actions.netted(netted_target)
    refused(netted_target, "use push-back c3 c2 c1", "moloch", actions.PUSH_NETTED)
    netted_pusher = pos(base + "b3 hegemony:net-fighter N")  # its net (edge NE) points NE at c3
    assert Hex.parse("c3") in actions.netted(netted_pusher)
    refused(netted_pusher, "use push-back c3 c2 c1", "moloch", actions.PUSH_NETTED)


def test_a_net_fighter_is_pushed_only_by_a_third_unit():
    """3E USING NETS: 'A Net Fighter can be pushed away but by a third party (not by the unit that is being
    disabled by him).' Two Net Fighters netting each other are both free (3E USING NETS), yet neither may
    push the other."""
    p = pos("c5 moloch:hq\na1 hegemony:hq\nc3 moloch:net-fighter N\nc2 hegemony:net-fighter SE\n"
            "d2 moloch:guard\nhand moloch moloch:push-back")
    # The Moloch one nets N (c2) and NW (b2, empty); the Hegemony one faces SE, its net (edge NE) points S at c3.
    assert actions.netted(p) == frozenset()
    refused(p, "use push-back c3 c2 c1", "moloch", actions.PUSH_NET_FIGHTER)
    after = do(p, "use push-back d2 c2 b1", "moloch")  # the Guard on d2 is a third party
    assert at(after, "b1").tile.key == "hegemony:net-fighter"


# --- Sniper, Grenade, Air Strike ------------------------------------------------------------------------------------


def test_sniper_deals_one_wound_to_an_enemy_unit_whatever_its_armor():
    """3E SNIPER: 'The Sniper inflicts one Wound on a single chosen enemy unit on the board. The Sniper may
    not hit enemy HQs.' 3E ARMOR: armor 'does not protect against Wounds dealt ... by Instant Action tiles
    (Sniper, Air Strike, Grenade...)'."""
    p = pos("c3 outpost:hq\nc1 moloch:hq\nc2 moloch:blocker S\nb2 outpost:commando\n"
            "hand outpost outpost:sniper")  # the Blocker's armor faces the Outpost HQ: no matter
    after = do(p, "use sniper c2", "outpost")
    assert at(after, "c2").wounds == 1
    assert at(do(replace(after, hands=p.hands), "use sniper c2", "outpost"), "c2").wounds == 2
    refused(p, "use sniper c1", "outpost", actions.SNIPER_TARGET)
    refused(p, "use sniper b2", "outpost", actions.SNIPER_TARGET)
    refused(p, "use sniper e3", "outpost", actions.SNIPER_TARGET)
    dead = do(pos("c3 outpost:hq\nc1 moloch:hq\nc2 moloch:hybrid\nhand outpost outpost:sniper"), "use sniper c2",
              "outpost")
    assert at(dead, "c2") is None


def test_a_medic_absorbs_an_instant_tiles_wounds():
    """3E MEDIC: 'If a unit with the Medic Module connected suffers one or more Wounds from an attack of 1
    enemy unit (or Sniper, Grenade or any other Instant Action tile) the Wounds are ignored and the Medic
    tile is discarded.'"""
    p = pos("c3 outpost:hq\nc1 moloch:hq\nc2 moloch:hybrid\nb1 moloch:medic SE\nhand outpost outpost:sniper")
    # The Medic on b1 faces SE: its links (edges N, SE, SW) point SE at c2 (the Hybrid), S and NE.
    after = do(p, "use sniper c2", "outpost")
    assert at(after, "c2").wounds == 0 and at(after, "b1") is None


def test_the_wounded_side_chooses_among_its_medics():
    """3E USING MEDICS: 'If a single unit is connected to 2 or more Medic Modules, the controlling player
    chooses which Medic absorbs the Wound'; results() lists both, apply() will not guess."""
    p = pos("c3 outpost:hq\nc1 moloch:hq\nc2 moloch:hybrid\nb1 moloch:medic SE\nd1 moloch:medic SW\n"
            "hand outpost outpost:sniper")
    action = act("use sniper c2", "outpost")
    found = results(p, action, "outpost")
    assert len(found) == 2
    assert {tuple(sorted(u.hex.label for u in after.units)) for _, after in found} == {
        ("c1", "c2", "c3", "d1"), ("b1", "c1", "c2", "c3")}
    assert all(label for label, _ in found)
    with pytest.raises(ChoiceRequired):
        apply(p, action, "outpost")


def test_grenade_destroys_an_enemy_unit_next_to_the_players_hq():
    """3E GRENADE: 'This tile destroys one chosen enemy unit completely. A Grenade can only be thrown onto a
    hex adjacent to your HQ. It does not affect enemy HQs.'"""
    p = pos("c3 borgo:hq\nc2 moloch:hq\nd2 moloch:blocker\nc5 moloch:hybrid\nb2 borgo:mutant\n"
            "hand borgo borgo:grenade")
    after = do(p, "use grenade d2", "borgo")  # a Blocker takes 3 wounds; the Grenade destroys it at once
    assert at(after, "d2") is None
    refused(p, "use grenade c2", "borgo", actions.GRENADE_TARGET)
    refused(p, "use grenade c5", "borgo", actions.GRENADE_TARGET)
    refused(p, "use grenade b2", "borgo", actions.GRENADE_TARGET)


def test_no_grenade_from_a_netted_hq():
    """3E GRENADE: 'A Grenade cannot be thrown from a netted HQ.'"""
    p = pos("c3 borgo:hq\nc1 moloch:hq\nc2 moloch:net-fighter S\nd2 moloch:hybrid\nhand borgo borgo:grenade")
    assert Hex.parse("c3") in actions.netted(p)
    refused(p, "use grenade d2", "borgo", actions.GRENADE_NETTED)
    assert not [a for a in legal_actions(p, "borgo") if isinstance(a, Use)]


def test_air_strike_wounds_seven_hexes_friends_too_hqs_spared():
    """3E AIR STRIKE: 'the player deals one Wound to the target and all tiles adjacent to it (both friendly
    and enemy, except for Headquarters) ... can be played on any space (including empty ones), as long as
    its blast radius does not extend beyond the board.'"""
    p = pos("c3 moloch:hq\nc5 outpost:hq\nc2 moloch:blocker\nd2 outpost:commando\nb3 moloch:hybrid\n"
            "hand moloch moloch:air-strike")
    after = do(p, "use air-strike c3", "moloch")
    assert at(after, "c3").hp == 20 and at(after, "c2").wounds == 1
    assert at(after, "d2") is None and at(after, "b3") is None
    refused(p, "use air-strike c1", "moloch", actions.AIR_STRIKE_EDGE)
    centres = sorted(a.targets[0].label for a in legal_actions(p, "moloch") if isinstance(a, Use))
    assert centres == ["b2", "b3", "c2", "c3", "c4", "d2", "d3"]


def test_each_air_strike_hit_is_its_own_attack_for_medics():
    """3E USING MEDICS: 'If both a Medic and the connected unit are hit simultaneously, the Medic is
    destroyed and cannot save the unit'; a Medic outside the blast saves its unit."""
    inside = pos("c1 moloch:hq\nc5 outpost:hq\nc3 outpost:commando\nc2 outpost:medic S\n"
                 "hand moloch moloch:air-strike")
    after = do(inside, "use air-strike c3", "moloch")
    assert at(after, "c3") is None and at(after, "c2") is None
    outside = pos("c1 moloch:hq\na1 outpost:hq\nd4 outpost:commando\nc5 outpost:medic N\n"
                  "hand moloch moloch:air-strike")  # the Medic on c5 links NE to d4, outside the blast
    after = do(outside, "use air-strike d3", "moloch")
    assert at(after, "d4") is not None and at(after, "c5") is None


# --- free moves: Mobility, Transport, Recon Center -------------------------------------------------------------------


def test_mobility_moves_one_hex_and_or_turns_once_a_turn():
    """3E MOBILITY: 'A unit may Move 1 space and/or Rotate freely during its own turn (even after both tiles
    have been played). The unit may only Move to an empty hex.'"""
    p = pos("c3 outpost:hq\nc1 moloch:hq\nb2 outpost:runner\nhand outpost outpost:commando")
    action = act("move b2 b1 S", "outpost")
    after = apply(p, action, "outpost")
    assert str(at(after, "b1")) == "b1 outpost:runner S"
    used = spend(p, action, "outpost", actions.NOTHING_USED)
    assert used == {Spent(Hex.parse("b1"), "mobility")}
    refused(after, "move b1 a1 N", "outpost", actions.MOBILITY_ONCE, used)
    refused(p, "move b2 c1 N", "outpost", actions.HEX_TAKEN)
    refused(p, "move b2 d2 N", "outpost", actions.MOVE_TOO_FAR)
    # before or after placing: placing the Commando changes nothing for the Runner
    placed = do(p, "place commando e1 N", "outpost")
    assert at(do(placed, "move b2 b2 SE", "outpost"), "b2").facing is Direction.SE
    assert not [a for a in legal_actions(after, "outpost", used) if isinstance(a, Move)]


def test_a_netted_unit_has_no_mobility():
    """3E MOBILITY and 3E NET: a netted unit 'cannot ... move'."""
    p = pos("c3 outpost:hq\nc1 moloch:hq\nb2 outpost:runner\nb1 moloch:net-fighter S")
    refused(p, "move b2 a1 N", "outpost", actions.MOVE_NETTED)


def test_transport_gives_linked_units_a_move_as_if_they_had_mobility():
    """ES Hegemony sheet, Transport: 'On your turn each connected unit may perform an additional move action
    and/or rotate as if it had mobility. Connected units may move immediately after the tile is placed on
    the board and are allowed to move away.' (PL Hegemonia, Transport, the same.)"""
    p = pos("c3 hegemony:hq\nc1 moloch:hq\nb2 hegemony:thug\nhand hegemony hegemony:transport")
    placed = do(p, "place transport b3 N", "hegemony")  # links on all six sides: b2 and c3 are linked
    action = act("move b2 a2 S by transport", "hegemony")
    after = apply(placed, action, "hegemony")
    assert str(at(after, "a2")) == "a2 hegemony:thug S"
    used = spend(placed, action, "hegemony", actions.NOTHING_USED)
    refused(after, "move a2 a3 N by transport", "hegemony", actions.TRANSPORT_ONCE, used)  # still linked
    moved_away = do(placed, "move b2 a1 S by transport", "hegemony")  # 'allowed to move away'
    assert at(moved_away, "a1") is not None
    refused(p, "move b2 a1 S by transport", "hegemony", actions.NO_TRANSPORT)
    assert at(do(placed, "move c3 d3 N by transport", "hegemony"), "d3").is_hq


def test_a_runner_on_a_transport_moves_twice_and_two_transports_give_two_moves():
    """3E MODULES: Transport modules' 'effects are not cumulative and each of them works independently'
    (option transport-stack: per-transport by default, one in all with 'one')."""
    from solver.position import Unit

    # The army has one Transport, so two take a hand-built position (a position value is not validated).
    p = Position(tuple(Unit(Hex.parse(h), tile(t)) for h, t in (
        ("c3", "hegemony:hq"), ("c1", "moloch:hq"), ("b2", "hegemony:runner"), ("b3", "hegemony:transport"),
        ("b1", "hegemony:transport"))))
    def play(position, lines):
        used = actions.NOTHING_USED
        for text in lines:
            action = act(text, "hegemony")
            position, used = apply(position, action, "hegemony", used), spend(position, action, "hegemony", used)
        return position, used

    # b2 touches both Transports (b1 and b3): its own Mobility, then one move from each Transport.
    after, used = play(p, ["move b2 b2 S", "move b2 b2 SE by transport", "move b2 b2 NE by transport"])
    assert str(at(after, "b2")) == "b2 hegemony:runner NE"
    refused(after, "move b2 b2 N by transport", "hegemony", actions.TRANSPORT_ONCE, used)
    refused(after, "move b2 a1 N", "hegemony", actions.MOBILITY_ONCE, used)
    one, used = play(with_rules(p, transport_stack="one"), ["move b2 b2 S by transport"])
    refused(one, "move b2 b2 SE by transport", "hegemony", actions.TRANSPORT_ONCE, used)


def test_a_netted_transport_gives_nothing():
    """3E NET: a netted unit cannot 'add bonuses, or perform any actions'; 3E MODULES."""
    p = pos("c3 hegemony:hq\nc1 moloch:hq\nb2 hegemony:thug\nb3 hegemony:transport\nb4 moloch:net-fighter N")
    assert Hex.parse("b3") in actions.netted(p)
    refused(p, "move b2 a1 N by transport", "hegemony", actions.NO_TRANSPORT)


def test_a_scoper_takes_an_enemy_transport_for_the_outpost():
    """RULINGS 8; ES Outpost sheet, Scoper: 'While Scoper is connected to an enemy module, that module gives its
    bonuses to the Outpost units instead of the enemy's' (the Transport's move included, through its own
    links)."""
    p = pos("c3 hegemony:hq\nc5 outpost:hq\nb3 hegemony:transport\nb4 outpost:scoper\na2 outpost:commando\n"
            "b2 hegemony:thug")
    assert at(do(p, "move a2 a1 N by transport", "outpost"), "a1").tile.key == "outpost:commando"
    refused(p, "move b2 b1 N by transport", "hegemony", actions.NO_TRANSPORT)


def test_transport_movable_option():
    """ES Hegemony sheet, Transport: 'Transport no puede moverse' (option transport-movable=no); by default a
    Move tile moves it (PL: it only 'cannot move itself'; 3E MODULES)."""
    p = pos("c3 hegemony:hq\nc1 moloch:hq\nb3 hegemony:transport\nhand hegemony hegemony:move")
    assert at(do(p, "use move b3 b4 N", "hegemony"), "b4") is not None
    refused(with_rules(p, transport_movable="no"), "use move b3 b4 N", "hegemony", actions.TRANSPORT_FIXED)


def test_the_recon_center_lets_outpost_units_move_two_hexes():
    """ES Outpost sheet, Recon Center: 'all friendly units that use the Move action may move 2 spaces instead
    of 1'; PL Posterunek, Centrum rozpoznania: 'every time any Outpost unit moves, it may move up to 2
    hexes' (option recon-center-moves)."""
    p = pos("c3 outpost:hq\nc1 moloch:hq\nb2 outpost:runner\ne3 outpost:recon-center\nhand outpost outpost:move")
    assert at(do(p, "use move c3 c5 N", "outpost"), "c5").is_hq
    assert at(do(p, "move b2 a3 N", "outpost"), "a3") is not None
    refused(p, "move b2 e1 N", "outpost", actions.MOVE_TOO_FAR_RECON)
    tile_only = with_rules(p, recon_center_moves="move-tile")
    refused(tile_only, "move b2 a3 N", "outpost", actions.MOVE_TOO_FAR)
    assert at(do(tile_only, "use move c3 c5 N", "outpost"), "c5").is_hq


def test_recon_center_path_option():
    """Option recon-center-path=empty-step: a 2-hex move needs an empty hex between (ES/PL name no path)."""
    p = pos("c3 outpost:hq\nc1 moloch:hq\nc2 outpost:commando\nb2 moloch:hybrid\nd2 moloch:hybrid\n"
            "e3 outpost:recon-center\nhand outpost outpost:move")
    assert at(do(p, "use move c3 b1 N", "outpost"), "b1").is_hq  # b2 and c2 between are taken
    refused(with_rules(p, recon_center_path="empty-step"), "use move c3 b1 N", "outpost", actions.MOVE_PATH)


def test_a_netted_recon_center_gives_nothing():
    """3E NET: a netted unit cannot 'add bonuses'."""
    p = pos("c3 outpost:hq\nc1 moloch:hq\ne3 outpost:recon-center\ne2 moloch:net-fighter S\n"
            "hand outpost outpost:move")
    assert Hex.parse("e3") in actions.netted(p)
    refused(p, "use move c3 c5 N", "outpost", actions.MOVE_TOO_FAR)


# --- the lists -------------------------------------------------------------------------------------------------------


LISTED = [
    PUSH_EXAMPLE,
    "c3 outpost:hq\nc1 moloch:hq\nb2 outpost:runner\ne3 outpost:recon-center\nb1 moloch:net-fighter S\n"
    "hand outpost outpost:move outpost:sniper outpost:scout",
    "c3 borgo:hq\nc2 moloch:hq\nd2 moloch:blocker\nb2 borgo:assassin\nhand borgo borgo:grenade borgo:move",
    "c3 hegemony:hq\nc1 moloch:hq\nb2 hegemony:runner\nb3 hegemony:transport\nd2 moloch:medic\nd3 moloch:hybrid\n"
    "hand hegemony hegemony:push-back hegemony:sniper hegemony:battle",
    "c3 moloch:hq\nc5 outpost:hq\nc4 outpost:medic N\nd3 outpost:commando\nhand moloch moloch:air-strike moloch:push-back",
]


@pytest.mark.parametrize("text", LISTED)
def test_every_listed_action_is_legal_and_lines_round_trip(text):
    """legal_actions lists complete action lines; apply accepts each, and each line reads back as itself
    (NOTATION §5 canonical form)."""
    p = pos(text)
    army = p.hands[0][0] if p.hands else p.to_move
    listed = legal_actions(p, army)
    assert listed and len(listed) == len(set(listed))
    for action in listed:
        assert parse_action(str(action), army) == action
        results(p, action, army)  # legal: raises nothing


def test_same_looking_facings_are_listed_once():
    """A Saboteur links on all six sides and a Scout on three alternate ones: placing them with facings that
    look the same is one action (STYLE: plays that differ only in a symmetric facing are one play)."""
    assert actions.distinct_facings(tile("outpost:saboteur")) == (Direction.N,)
    assert actions.distinct_facings(tile("outpost:scout")) == (Direction.N, Direction.NE)
    assert len(actions.distinct_facings(tile("outpost:commando"))) == 6


def test_player_actions_leave_the_push_destination_open():
    """3E PUSH BACK: 'the player controlling the enemy unit decides which one to place their unit on': it is
    not the pushing player's decision."""
    p = pos(PUSH_EXAMPLE)
    opened = [str(a) for a in player_actions(p, "moloch") if isinstance(a, Use)]
    assert opened == ["use moloch:push-back c3 d3"]


def _every_action(position: Position, army: str):
    """Every action the notation can write with the hexes of the board and the tiles in hand."""
    hexes = list(position.board)
    for tile_ in dict.fromkeys(position.hand(army)):
        yield actions.Discard(tile_)
        if tile_.is_unit:
            for h in hexes:
                for f in Direction:
                    yield Place(tile_, h, f)
            continue
        name = tile_.name
        if name == "battle":
            yield Use(tile_)
        elif name == "move":
            for a in hexes:
                for b in hexes:
                    for f in Direction:
                        yield Use(tile_, (a, b), f)
        elif name == "push-back":
            for a in hexes:
                for b in hexes:
                    for c in hexes:
                        yield Use(tile_, (a, b, c))
        else:
            for a in hexes:
                yield Use(tile_, (a,))
    for a in hexes:
        for b in hexes:
            for f in Direction:
                for by in ("mobility", "transport"):
                    yield Move(a, b, f, by)


def _canonical(position: Position, action):
    """The listed form of an action: its facing replaced by the first one that looks the same."""
    if isinstance(action, Place):
        same = [f for f in actions.distinct_facings(action.tile) if
                action.tile.oriented(f).edges == action.tile.oriented(action.facing).edges]
        return replace(action, facing=same[0])
    if isinstance(action, (Move, Use)) and action.facing is not None:
        source = action.source if isinstance(action, Move) else action.targets[0]
        unit = position.unit_at(source)
        if unit is not None:
            same = [f for f in actions.distinct_facings(unit.tile)
                    if unit.tile.oriented(f).edges == unit.tile.oriented(action.facing).edges]
            return replace(action, facing=same[0])
    return action


def _no_visible_change(position: Position, action) -> bool:
    target, source = ((action.target, action.source) if isinstance(action, Move) else
                      (action.targets[1], action.targets[0]) if isinstance(action, Use) and len(action.targets) == 2
                      else (None, None))
    unit = position.unit_at(source) if source is not None else None
    return (unit is not None and target == source
            and unit.tile.oriented(action.facing).edges == unit.oriented.edges)


@pytest.mark.parametrize("text", LISTED)
def test_apply_accepts_exactly_the_listed_actions(text):
    """Perft-style: the list (legal_actions) and the judge (apply) are separate code; over every action the
    notation can write here they agree, up to facings that look the same (listed once) and rotations that
    change nothing visible (legal, but never listed)."""
    p = pos(text)
    army = p.hands[0][0]
    listed = set(legal_actions(p, army))
    for action in _every_action(p, army):
        try:
            results(p, action, army)
            accepted = True
        except IllegalAction:
            accepted = False
        if accepted and _no_visible_change(p, action):
            continue
        assert accepted == (_canonical(p, action) in listed), (str(action), accepted)


def _rotated_action(action, steps: int):
    if isinstance(action, Place):
        return replace(action, hex=action.hex.rotated(steps), facing=action.facing.rotated(steps))
    if isinstance(action, Use):
        return replace(action, targets=tuple(h.rotated(steps) for h in action.targets),
                       facing=None if action.facing is None else action.facing.rotated(steps))
    if isinstance(action, Move):
        return replace(action, source=action.source.rotated(steps), target=action.target.rotated(steps),
                       facing=None if action.facing is None else action.facing.rotated(steps))
    return action


@pytest.mark.parametrize("text", LISTED)
def test_turning_the_board_turns_the_legal_actions(text):
    """STYLE, differential tests: the rules do not change when the whole board is rotated by 60° (hexes and
    facings). Every legal action, turned, is legal on the turned position."""
    p = pos(text)
    army = p.hands[0][0]
    for steps in range(1, 6):
        turned = p.rotated(steps)
        listed = legal_actions(p, army)
        assert len(legal_actions(turned, army)) == len(listed)
        for action in listed:
            results(turned, _rotated_action(action, steps), army)


def test_a_recon_center_taken_by_a_scoper_works_for_the_scopers_side():
    """RULINGS 8 / ES-PL Scoper: an enemy module on the Scoper's linked side works for the Outpost instead; so
    does a Recon Center (ES/PL Recon Center). Made with an owner since one army cannot face itself (the notation
    keeps owner= for mercenaries)."""
    p = _owned_by_moloch(pos("c3 outpost:scoper N\nc2 outpost:recon-center\ne3 outpost:runner N\nc5 moloch:hq\n"
                             "to-move outpost"), "c2")
    targets = {a.target for a in legal_actions(p, "outpost") if isinstance(a, Move) and a.source == Hex.parse("e3")}
    assert Hex.parse("e1") in targets  # two hexes away
    mine = _owned_by_moloch(pos("c2 outpost:recon-center\ne3 outpost:runner N\nc5 moloch:hq\nto-move outpost"), "c2")
    targets = {a.target for a in legal_actions(mine, "outpost") if isinstance(a, Move) and a.source == Hex.parse("e3")}
    assert Hex.parse("e1") not in targets


def _owned_by_moloch(position, label):
    """The position with the unit on ``label`` commanded by Moloch."""
    from dataclasses import replace

    units = tuple(replace(u, owner="moloch") if u.hex == Hex.parse(label) else u for u in position.units)
    return replace(position, units=units)
