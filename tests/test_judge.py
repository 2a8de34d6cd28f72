"""The questions a judge asks (issue 26): the position after turn N, the battle of turn N traced, whether one
action is legal; a tile's card and one rule option; "did you mean" for a name mistyped."""

from __future__ import annotations

import json
from pathlib import Path

from solver.cli import EXIT_BAD_INPUT, EXIT_NO, EXIT_OK, main
from solver.notation.text import load, parse
from solver.position import Position
from solver.turns.game import check

HERE = Path(__file__).parent
GAME = str(HERE / "data" / "games" / "hegemony-vs-outpost-2e.nhex")  # one battle, in turn 11
CARD = str(HERE.parent / "puzzles" / "01-point-blank.nhex")


def run(capsys, *argv: str) -> tuple[int, str, str]:
    status = main(list(argv))
    out, err = capsys.readouterr()
    return status, out, err


# --- nhex fmt RECORD --turn N ------------------------------------------------------------------------------------


def test_fmt_turn_prints_the_position_after_that_turn_as_a_position_file(capsys):
    status, out, err = run(capsys, "fmt", GAME, "--turn", "5")
    assert status == EXIT_OK and err == ""
    position = parse(out)
    assert isinstance(position, Position)
    assert position == check(load(GAME), upto=5).state.position
    assert position.to_move == "hegemony"  # turn 6 is Hegemony's
    assert [str(u) for u in position.units if u.tile.key == "outpost:brawler"] == ["c2 outpost:brawler NW"]


def test_fmt_turn_output_is_a_consistent_position(capsys, tmp_path):
    out = run(capsys, "fmt", GAME, "--turn", "11")[1]
    after = tmp_path / "after-11.nhex"
    after.write_text(out, encoding="utf-8")
    status, said, _ = run(capsys, "check", str(after))
    assert status == EXIT_OK and said.startswith("consistent:")
    assert parse(out).hq("hegemony").hp == 14  # the battle of turn 11 is in it


def test_fmt_turn_zero_is_the_start(capsys):
    status, out, _ = run(capsys, "fmt", GAME, "--turn", "0")
    assert status == EXIT_OK and not parse(out).units  # the record starts on an empty board


def test_fmt_turn_beyond_the_record_is_bad_input(capsys):
    status, out, err = run(capsys, "fmt", GAME, "--turn", "12")
    assert status == EXIT_BAD_INPUT and out == ""
    assert err.strip() == f"{GAME}:1:1: --turn 12: the record has turns 1 to 11"


def test_fmt_turn_of_a_position_is_bad_input(capsys):
    status, out, err = run(capsys, "fmt", CARD, "--turn", "1")
    assert status == EXIT_BAD_INPUT and out == "" and "--turn is for game records" in err


def test_fmt_turn_stops_at_an_illegal_turn_with_its_rule(capsys, tmp_path):
    bad = tmp_path / "bad.nhex"
    bad.write_text(Path(GAME).read_text(encoding="utf-8").replace("place medic b2 S", "place medic c3 S"),
                   encoding="utf-8")
    status, out, err = run(capsys, "fmt", str(bad), "--turn", "5")
    assert status == EXIT_NO and out == ""
    assert err.startswith(f"{bad}:16: place outpost:medic c3 S: illegal: a tile goes on an empty hex")
    assert run(capsys, "fmt", str(bad), "--turn", "2")[0] == EXIT_OK  # before the fault: fine


# --- nhex battle RECORD --turn N ---------------------------------------------------------------------------------


def test_battle_turn_traces_the_battle_of_that_turn_from_the_position_it_began_in(capsys):
    status, out, err = run(capsys, "battle", GAME, "--turn", "11", "--no-board")
    assert status == EXIT_OK and err == ""
    assert out.startswith("The battle of turn 11: the Battle tile; 3E BATTLE")
    assert "outpost:brawler on c2 is netted by hegemony:net-fighter on d1" in out
    assert "HQ health after the battle: hegemony 14, outpost 18" in out


def test_battle_turn_json_gives_the_turn_and_each_battle_with_its_trace(capsys):
    status, out, _ = run(capsys, "battle", GAME, "--turn", "11", "--json", "--trace")
    data = json.loads(out)
    assert status == EXIT_OK and data["turn"] == 11 and len(data["battles"]) == 1
    battle = data["battles"][0]
    assert battle["why"] == "the Battle tile; 3E BATTLE"
    assert battle["outcomes"][0]["hq"] == {"hegemony": 14, "outpost": 18}
    assert any(e["kind"] == "death" for e in battle["outcomes"][0]["trace"])
    plain = json.loads(run(capsys, "battle", GAME, "--turn", "11", "--json")[1])
    assert "trace" not in plain["battles"][0]["outcomes"][0]  # --trace adds it (NOTATION §9 stays as it is)


def test_battle_turn_without_a_battle_names_the_turns_that_have_one(capsys):
    status, out, err = run(capsys, "battle", GAME, "--turn", "10")
    assert status == EXIT_BAD_INPUT and out == ""
    assert err.strip() == f"{GAME}:48:1: --turn 10: no battle is fought in turn 10; battles are fought in turn 11"


def test_battle_of_a_record_without_turn_asks_for_one(capsys):
    status, out, err = run(capsys, "battle", GAME)
    assert status == EXIT_BAD_INPUT and out == ""
    assert "name the turn whose battle to show with --turn N; battles are fought in turn 11" in err


def test_battle_turn_of_a_position_is_bad_input(capsys):
    status, _, err = run(capsys, "battle", CARD, "--turn", "3")
    assert status == EXIT_BAD_INPUT and "--turn is for game records" in err


def test_battle_turn_finds_every_battle_of_a_long_game(capsys):
    """Each battle of a 56-turn deathmatch is found in its turn, and each ends as the replay says."""
    game = str(HERE / "data" / "games" / "four-player-deathmatch-midgame.nhex")
    state = check(load(game)).state
    fought = state.fought
    assert len(fought) == state.battles == 4
    data = json.loads(run(capsys, "battle", game, "--turn", str(fought[1].turn), "--json")[1])
    assert data["battles"][0]["why"] == fought[1].why


# --- nhex check POSITION --action ACTION -------------------------------------------------------------------------


POSITION = """to-move hegemony
a1 outpost:annihilator S
b1 hegemony:hq N hp=20
b2 outpost:medic S
c1 hegemony:officer-1 SW
c2 outpost:brawler NW
c3 outpost:hq N hp=20
hand hegemony runner net-fighter
deck hegemony 30
deck outpost 30
"""


def test_check_action_legal_exits_0(capsys, monkeypatch):
    monkeypatch.setattr("sys.stdin", __import__("io").StringIO(POSITION))
    status, out, _ = run(capsys, "check", "-", "--action", "place runner c4 N")
    assert status == EXIT_OK and out.strip() == "legal for hegemony: place hegemony:runner c4 N"


def test_check_action_on_a_taken_hex_is_illegal_with_the_rule(capsys, monkeypatch):
    """3E USING TILES: "each space may only contain a single unit"."""
    monkeypatch.setattr("sys.stdin", __import__("io").StringIO(POSITION))
    status, out, _ = run(capsys, "check", "-", "--action", "place runner c2 N", "--json")
    data = json.loads(out)
    assert status == EXIT_NO and data["verdict"] == "illegal" and data["index"] == 1
    assert data["action"] == "place hegemony:runner c2 N" and "3E USING TILES" in data["rule"]


def test_check_actions_in_order_name_the_one_that_fails(capsys, monkeypatch):
    monkeypatch.setattr("sys.stdin", __import__("io").StringIO(POSITION))
    status, out, _ = run(capsys, "check", "-", "--action", "place runner c4 N", "--action", "place runner d4 N")
    assert status == EXIT_NO
    assert out.strip() == ("illegal for hegemony: place hegemony:runner d4 N (after place hegemony:runner c4 N): "
                           "the tile is not in front of the player (3E USING TILES)")


def test_check_action_of_a_card_plays_its_offer_within_play_n(capsys):
    status, out, _ = run(capsys, "check", CARD, "--action", "place brawler b2 N", "--json")
    assert status == EXIT_OK and json.loads(out)["army"] == "borgo"


def test_check_action_mistyped_is_located_in_the_option(capsys):
    status, out, err = run(capsys, "check", CARD, "--action", "place brawler c9 N")
    assert status == EXIT_BAD_INPUT and out == "" and err.startswith("--action:1:15: hex c9 is not on the standard")


def test_check_action_on_a_record_says_how_to_ask(capsys):
    status, _, err = run(capsys, "check", GAME, "--action", "place runner c4 N")
    assert status == EXIT_BAD_INPUT and "nhex fmt RECORD --turn N" in err


# --- nhex tiles ARMY TILE, nhex rules NAME -------------------------------------------------------------------------


def test_tiles_army_tile_gives_the_blockers_card_with_its_armor(capsys):
    """3E ARMOR: armor "protects from all Strength 1 Ranged attacks" on its side; the Blocker has no initiative."""
    status, out, err = run(capsys, "tiles", "moloch", "blocker")
    text = " ".join(out.split())
    assert status == EXIT_OK and err == ""
    assert text.startswith("Blocker (moloch:blocker): warrior, 2 in the army")
    assert "N: armor: a ranged attack arriving on this side loses 1 strength" in text and "[3E ARMOR]" in text
    assert "toughness 2: it survives 2 wounds and dies at the third [3E TOUGHNESS]" in text
    assert "no initiative" in text


def test_tiles_card_of_an_alias_names_the_same_tile(capsys):
    assert run(capsys, "tiles", "moloch", "bloker")[1] == run(capsys, "tiles", "moloch", "blocker")[1]


def test_tiles_card_says_each_ability_with_its_passage(capsys):
    text = " ".join(run(capsys, "tiles", "moloch", "gauss-cannon")[1].split())
    assert "initiative 1: it acts in phase 1 [3E INITIATIVE]" in text
    assert "SW: Gauss beam: 1 wound to every enemy unit on the line" in text and "RULINGS 11" in text
    hq = " ".join(run(capsys, "tiles", "outpost", "hq")[1].split())
    assert "linked friendly units act once more, one phase after their last normal action [ES Outpost sheet, HQ]" in hq
    soldier = " ".join(run(capsys, "tiles", "hegemony", "universal-soldier")[1].split())
    assert "NW: melee and ranged on one side: both attacks are made" in soldier and "RULINGS 12" in soldier


def test_tiles_card_json_is_the_database_entry_with_the_card(capsys):
    status, out, _ = run(capsys, "tiles", "outpost", "medic", "--json")
    entry = json.loads(out)
    assert status == EXIT_OK and entry["tile"] == "outpost:medic" and entry["count"] == 2
    assert {"text": "Medic: a linked friendly unit ignores every wound of one enemy attack (or instant), and the "
                    "Medic is discarded", "passage": "3E MEDIC; 3E USING MEDICS; RULINGS 4"} in entry["card"]


def test_every_tile_has_a_card_with_words_for_each_of_its_abilities():
    from solver.render.tile_card import ABILITY_WORDS, INSTANT_WORDS, MODULE_WORDS, card_lines
    from solver.tiles import Kind, armies

    for army in armies().values():
        for tile in army.tiles:
            lines = card_lines(tile)
            assert lines[0].text.startswith(f"{tile.title} ({tile.key})")
            assert all(ability in ABILITY_WORDS for ability in tile.abilities), tile.key
            assert tile.module is None or tile.module.type in MODULE_WORDS, tile.key
            assert tile.kind is not Kind.INSTANT or tile.name in INSTANT_WORDS, tile.key


def test_rules_name_gives_one_option_in_full(capsys):
    status, out, _ = run(capsys, "rules", "tie-break")
    assert status == EXIT_OK
    assert out.splitlines() == [
        "tie-break: Equal HQ health after the Final Battle: one more turn each and an additional Battle ('yes'), or "
        "a draw ('no'). Default 'yes' under rules 3.0, 'no' under rules 2.0.",
        "  values: yes | no",
        "  default under rules 3.0: yes (from 3E)",
        "  default under rules 2.0: no (from 2E)",
        "  passage: RULINGS 29; 3E VICTORY; 2E VICTORY; PL ZWYCIESTWO (the Duel book: a draw).",
        "  set it in a file: rules 3.0 tie-break=no",
    ]
    data = json.loads(run(capsys, "rules", "tie-break", "--json")[1])
    assert data["name"] == "tie-break" and data["editions"]["2.0"] == {"default": "no", "source": "2E"}


# --- "did you mean" -------------------------------------------------------------------------------------------------


def test_a_mistyped_tile_army_or_option_is_bad_input_with_did_you_mean(capsys):
    assert run(capsys, "tiles", "moloch", "blokcer")[:3:2] == (
        EXIT_BAD_INPUT, "nhex: army moloch has no tile 'blokcer'; did you mean 'blocker'?\n")
    status, _, err = run(capsys, "tiles", "posterunk")
    assert status == EXIT_BAD_INPUT and err.rstrip().endswith("; did you mean 'outpost'?")
    status, _, err = run(capsys, "rules", "clown-hit-hq")
    assert status == EXIT_BAD_INPUT and err.rstrip().endswith("; did you mean 'clown-hits-hq'?")


def test_a_name_nothing_like_a_known_one_gets_no_guess(capsys):
    status, _, err = run(capsys, "tiles", "moloch", "tank")
    assert status == EXIT_BAD_INPUT and err == "nhex: army moloch has no tile 'tank'\n"


def test_a_mistyped_command_option_or_choice_is_a_usage_error_with_did_you_mean(capsys):
    import pytest

    for argv, said in ((["sovle", CARD], "invalid choice: 'sovle'"),
                       (["solve", CARD, "--tris", "2"], "--tris: did you mean '--tries'?"),
                       (["generate", "--player", "molok", "--opponent", "borgo", "--level", "1"],
                        "invalid choice: 'molok'")):
        with pytest.raises(SystemExit) as caught:
            main(argv)
        err = capsys.readouterr().err
        assert caught.value.code == EXIT_BAD_INPUT and said in err and "did you mean '" in err, err


# --- traces: a unit that acts and hits nothing says so -----------------------------------------------------------


IDLE = "c3 moloch:hq hp=5\nb2 moloch:hybrid N\nd4 outpost:hq hp=5\nc1 outpost:runner S\n"


def test_a_unit_that_shoots_at_nothing_says_so_in_the_trace():
    """3E RANGED ATTACK: a shot hits the first enemy on its line; the Hybrid on b2 facing N has none."""
    from solver.engine.battle import resolve

    (outcome,) = resolve(parse(IDLE), trace=True)
    said = [str(e) for e in outcome.trace if e.kind == "miss"]
    assert said == ["moloch:hybrid on b2 shoots N: nothing in its line  [3E RANGED ATTACK]",
                    "outpost:runner on c1 strikes SE: no enemy beside it  [3E MELEE ATTACK]",
                    "moloch:hq on c3 strikes N NE SE S SW NW: no enemy beside it  [3E MELEE ATTACK]",
                    "outpost:hq on d4 strikes N NE SE S SW NW: no enemy beside it  [3E MELEE ATTACK]"]


def test_a_beam_that_reaches_no_enemy_says_the_unit_acted_for_nothing():
    from solver.engine.battle import resolve

    (outcome,) = resolve(parse(IDLE.replace("moloch:hybrid N", "moloch:gauss-cannon N")), trace=True)
    assert "moloch:gauss-cannon on b2 acts: no enemy in reach" in [e.text for e in outcome.trace]


def test_an_attack_that_hits_is_not_called_a_miss():
    from solver.engine.battle import resolve

    (outcome,) = resolve(parse(IDLE.replace("c1 outpost:runner S", "b1 outpost:runner S")), trace=True)
    texts = [e.text for e in outcome.trace]
    assert "moloch:hybrid on b2 hits outpost:runner on b1 for 2 (ranged)" in texts
    assert [t for t in texts if t.startswith("moloch:hybrid")] == ["moloch:hybrid on b2 hits outpost:runner on b1 "
                                                                   "for 2 (ranged)"]


def test_battle_trace_without_json_prints_the_trace(capsys, monkeypatch):
    monkeypatch.setattr("sys.stdin", __import__("io").StringIO(IDLE))
    status, out, _ = run(capsys, "battle", "-", "--trace", "--no-board")
    assert status == EXIT_OK and "shoots N: nothing in its line" in out


# --- nhex generate without a terminal ------------------------------------------------------------------------------


def test_generate_without_a_terminal_says_what_it_does_on_standard_error(tmp_path, monkeypatch, capsys):
    """Issue 26: piped (or with --json) the bar is not drawn; a first line, a line per card and a line a minute
    while no card comes say the run is at work."""
    from types import SimpleNamespace

    import solver.cli as cli
    from solver.search import generate as generate_module
    from solver.search.generate import regrade

    card = load(str(sorted((HERE.parent / "puzzles" / "generated").glob("*.nhex"))[0]))
    made = generate_module.Generated(card, regrade(card).grade, "w:0:0", 3, 1.0, SimpleNamespace(plays=10, positions=9))

    def fake(player, opponent, level, count, seed, *, on_card=None, on_drafts=None, **options):
        on_drafts(120)  # a minute passes (HEARTBEAT_SECONDS is 0 here) with no card
        on_card(made)
        return [made]

    monkeypatch.setattr(generate_module, "generate", fake)
    monkeypatch.setattr(cli, "HEARTBEAT_SECONDS", 0.0)
    opponent = "outpost" if card.player != "outpost" else "moloch"
    status = main(["generate", "--player", card.player, "--opponent", opponent, "--level", "2", "--count", "1",
                   "--seed", "5", "--jobs", "1", "-o", str(tmp_path), "--json"])
    out, err = capsys.readouterr()
    lines = err.splitlines()
    assert status == EXIT_OK and json.loads(out)[0]["level"] == card.level
    assert lines[0] == (f"nhex generate: 1 level-2 {card.player} card against {opponent} (seed 5, 1 jobs) into "
                        f"{tmp_path}; a card may take minutes")
    assert lines[1].startswith("… 0/1 cards, 120 drafts played out")
    assert lines[2].startswith(f"card 1/1: {tmp_path / generate_module.file_name(made)}")


CLOWN = """game
players outpost moloch
deck outpost 20
deck moloch 20
c3 outpost:hq
c1 moloch:hq
c2 moloch:clown S
1. outpost: draw battle scout move; discard move; use battle
"""


def test_battle_turn_shows_a_battle_the_record_cannot_settle_with_every_outcome(capsys, monkeypatch):
    """RULINGS 10: the Clown may explode (1 wound to the Outpost HQ) or strike with its edges, which face away;
    a record cannot say which (solver/turns/game.py), so the check stops there, undecidable. The judge still sees
    that battle, every outcome with its choice, and the fault on standard error."""
    monkeypatch.setattr("sys.stdin", __import__("io").StringIO(CLOWN))
    status, out, err = run(capsys, "battle", "-", "--turn", "1", "--no-board")
    assert status == EXIT_OK
    assert "Outcome 1 of 2" in out and "Outcome 2 of 2" in out
    assert err.startswith("<stdin>:8: battle: undecidable: battle outcome depends on choices")


def test_a_tile_named_as_an_army_says_whose_tile_it_is(capsys):
    status, out, err = run(capsys, "tiles", "blocker")
    assert status == EXIT_BAD_INPUT and out == ""
    assert err == "nhex: 'blocker' is no army but a tile of moloch: `nhex tiles moloch blocker` shows its card\n"


def test_battle_turn_of_a_record_settles_where_the_bomber_goes_from_its_seating(capsys):
    """2E Mad Bomber as non player character: "In a multi-player game, Mad Bomber goes to the player to the right
    of the player who detonated Mad Bomber" (RULINGS 56; option bomber-right). A position alone has no seating
    (exit 4); the record has, and its battle says what its replay did."""
    game = str(HERE / "data" / "games" / "mad-bomber-three-players.nhex")
    state = check(load(game)).state
    assert any("turn 7: the Mad Bomber, set off by moloch in the battle, goes on top of borgo's pile" in line
               for line in state.history)
    status, out, _ = run(capsys, "battle", game, "--turn", "7", "--json")
    (outcome,) = json.loads(out)["battles"][0]["outcomes"]
    assert status == EXIT_OK
    assert (outcome["mad_bomber_hit_by"], outcome["mad_bomber_goes_to"]) == (["moloch"], "borgo")


def test_another_armys_tile_says_whose_it_is(capsys):
    status, _, err = run(capsys, "tiles", "moloch", "sniper")
    assert status == EXIT_BAD_INPUT
    assert err == "nhex: army moloch has no tile 'sniper'; outpost, hegemony, smart, vegas, new-york have one\n"


def test_a_sharpshooter_with_no_enemy_on_its_line_says_it_acted_for_nothing():
    """B13 DESCRIPTION OF NEW ICONS, Sharpshooter: it "can choose which enemy unit in the line of fire it shoots";
    with none on its line its action (the family's own, solver/abilities/sharpshooter.py) comes to nothing."""
    from solver.engine.battle import resolve

    (outcome,) = resolve(parse("c3 new-york:hq hp=5\nd2 new-york:sharpshooter N\ne3 moloch:hq hp=5\n"), trace=True)
    assert "new-york:sharpshooter on d2 acts: no enemy in reach" in [e.text for e in outcome.trace]
