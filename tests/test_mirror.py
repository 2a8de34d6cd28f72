"""Mirror matches: two players of one army (issue 14: "`players` may seat two players of the same army"; the 3E
variants list "mirror matches"). Notation: a player's label after its army, `moloch/a` (README, notation
extensions; solver/mirror.py).

No rulebook has a section on mirror matches, and none forbids one: 3E SETUP, "Each player chooses an army and takes
its 35 tiles"; 2E PREPARING THE GAME, "Each player commands a single army represented by 35 tiles". Everything else
follows from the general rules, which speak of a player's own and of enemy units, never of army names:
3E MODULES, "Modules do not affect enemy tiles (unless explicitly stated otherwise in their description)"; 3E NET,
"Nets disable the opponents as soon as they are placed on the board ... Nets also affect enemy HQs"; 3E MEDIC,
"If a unit with the Medic Module connected suffers one or more Wounds from an attack of 1 enemy unit ... the Wounds
are ignored"; 3E (INTRODUCTION), "The goal of each player is to destroy their opponent's Headquarters (HQ)".

3E = ../shared/rules/rulebook-en-3rd-edition.txt; B13 = ../shared/rules/rulebook-en-babel13.txt.
"""

from __future__ import annotations

import json
import re
from dataclasses import replace
from pathlib import Path

import pytest
from hypothesis import HealthCheck, assume, given, settings
from hypothesis import strategies as st

from battle_helpers import fight, position, units
from test_roundtrip import Copies, game_records, goals, positions as any_positions, puzzles, rule_sets
from solver.engine import battle, effects
from solver.turns import game
from solver.notation import text as notation
from solver.errors import NotationError
from solver.hexes import STANDARD, Direction
from solver.notation.cards import ExpectHp, ExpectWinner, GameRecord, Puzzle, Turn
from solver.position import Discard, Draw, Place, Position, Unit
from solver.tiles import ARMY_NAMES, Kind, army, base_army, tile
from cli_helpers import nhex

ROOT = Path(__file__).parent.parent
DATA = Path(__file__).parent / "data"
GAME = DATA / "games" / "moloch-mirror.nhex"
CARD = DATA / "moloch-mirror-card.nhex"


# --- battles: whose units, whose modules, whose HQ ----------------------------------------------------------------


def test_each_moloch_players_officer_boosts_only_its_own_units():
    """3E MODULES: "Modules do not affect enemy tiles". moloch/a's Officer (ranged +1) is linked to both Hybrids:
    moloch/a's shoots moloch/b's HQ for 2, moloch/b's shoots moloch/a's HQ for 1 (the moloch/a HQ next to it gives
    it nothing either); in phase 0 the moloch/a HQ, whose own units they are not, strikes moloch/b's Hybrid."""
    outcome = fight("""
        players moloch/a moloch/b
        c5 moloch/a:hq
        c1 moloch/b:hq
        c3 moloch/a:hybrid N
        d4 moloch/b:hybrid SW
        d3 moloch/a:officer N
    """)
    assert outcome.hq == {"moloch/a": 19, "moloch/b": 18}
    assert "d4" not in units(outcome) and "c3" in units(outcome)


def test_each_players_officer_boosts_its_own_hybrid_when_both_have_one():
    """3E MODULES (as above), both ways: each Officer is linked to both Hybrids, each Hybrid gets +1 from its own
    Officer only (2 damage each, never 3)."""
    outcome = fight("""
        players moloch/a moloch/b
        c5 moloch/a:hq
        c1 moloch/b:hq
        c3 moloch/a:hybrid N
        d4 moloch/b:hybrid SW
        d3 moloch/a:officer N
        c4 moloch/b:officer NE
    """)
    # c4's Officer facing NE links NE (d3), S+1=SW... its edges NE S NW turn to SE, SW, N: c3 (N) and d4 (SE)
    assert outcome.hq == {"moloch/a": 18, "moloch/b": 18}


def test_a_moloch_players_net_fighter_nets_the_other_moloch_player_and_spares_its_own():
    """3E NET: "Nets disable the opponents"; 3E TEAM MATCH: "Net Fighters do not disable friendly units". The
    moloch/a Net Fighter on c3 has nets N (c2, moloch/b's Hybrid, which does not shoot it) and NW (b2, moloch/a's
    own Hybrid, which shoots moloch/b's HQ)."""
    outcome = fight("""
        players moloch/a moloch/b
        e3 moloch/a:hq
        b1 moloch/b:hq
        c3 moloch/a:net-fighter N
        c2 moloch/b:hybrid S
        b2 moloch/a:hybrid N
    """)
    assert outcome.hq == {"moloch/a": 20, "moloch/b": 19}
    left = units(outcome)
    assert "c3" in left and "c2" in left and "b2" not in left  # the moloch/b HQ strikes b2 in phase 0


@pytest.mark.parametrize("medic_player, saved", [("moloch/b", False), ("moloch/a", True)])
def test_a_medic_saves_only_its_own_players_unit(medic_player, saved):
    """3E MEDIC: "If a unit with the Medic Module connected suffers one or more Wounds from an attack of 1 enemy
    unit ... the Wounds are ignored and the Medic tile is discarded"; 3E MODULES: "Modules do not affect enemy
    tiles". moloch/b's Hybrid shoots moloch/a's Blocker (one wound from death); the Medic on b2 is linked to it."""
    outcome = fight(f"""
        players moloch/a moloch/b
        e3 moloch/a:hq
        a3 moloch/b:hq
        c1 moloch/b:hybrid S
        c2 moloch/a:blocker S wounds=2
        b2 {medic_player}:medic NE
    """)
    left = units(outcome)
    assert ("c2" in left) is saved and ("b2" in left) is not saved


def test_a_neojungle_players_motherland_holds_only_its_own_units():
    """B13 NEOJUNGLE, HQ: "All NeoJungle units that are adjacent to HQ belong to the Motherland ... Modules that
    belong to NeoJungle which are linked to any unit in the Motherland ... give their bonus to each unit in the
    Motherland (including HQ)"; B13 NEOJUNGLE IN MULTIPLAYER GAMES: "Allied units do not belong to the Motherland";
    ROOTS ISSUES: "adjacent friendly Neojungle units". The other Neojungle player's Slicer on b2, next to the HQ and
    the c2 Slicer, is not a member: the Alpha's +1 melee goes to c1, c2 and the HQ only (the B13 EXAMPLE OF THE
    MOTHERLAND's layout, as in tests/test_neojungle.py)."""
    where = position("""
        players neojungle/a neojungle/b
        c3 neojungle/a:hq
        c2 neojungle/a:slicer N
        c1 neojungle/a:slicer N
        d1 neojungle/a:symbiont-alpha SW
        b2 neojungle/b:slicer N
        e3 neojungle/b:hq
    """)
    reading = effects.read(effects.by_hex(where), where.rules, None, where.teams, where.foundations)
    assert {h.label for h, b in reading.bonuses.items() if b.melee == 1} == {"c1", "c2", "c3"}


def test_each_player_of_the_mirror_has_its_own_hq_and_a_second_hq_of_one_player_is_bad_input():
    """3E SETUP: each player takes their army's 35 tiles, one HQ among them: two Moloch HQs are one each; a second
    HQ of one player is the v1 consistency error it always was (exit 2 at its line)."""
    assert len([u for u in position("players moloch/a moloch/b\nc1 moloch/a:hq\nc3 moloch/b:hq\n") if u.is_hq]) == 2
    with pytest.raises(NotationError, match="3:4: moloch/a already has an HQ on c1"):
        position("players moloch/a moloch/b\nc1 moloch/a:hq\nc3 moloch/a:hq\n")


def test_moloch_team_fire_holds_for_a_labelled_moloch_player():
    """3E TEAM MATCH, Moloch in a Team Match: "Its units hit and wound friendly units as usual" (option
    moloch-team-fire, RULINGS 64): moloch/a is Moloch, whatever its label. Its Hybrid shoots its ally Borgo's
    Mutant on c3; with the option off, the shot passes the friend and hits moloch/b's HQ."""
    text = """
        players moloch/a borgo moloch/b outpost
        team moloch/a borgo
        team moloch/b outpost
        e3 moloch/a:hq
        a3 borgo:hq
        c1 moloch/b:hq
        e1 outpost:hq
        c4 moloch/a:hybrid N
        c3 borgo:mutant N
    """
    reckless = fight(text)
    assert "c3" not in units(reckless) and reckless.hq["moloch/b"] == 20
    tame = fight(text.replace("players", "rules 3.0 moloch-team-fire=no\nplayers"))
    assert "c3" in units(tame) and tame.hq["moloch/b"] == 19


def test_in_the_score_mode_each_moloch_player_scores_its_own_hits():
    """3E DEATHMATCH WITH AN OPTIONAL SCORE RULE: "every time a player's unit hits an opponent's HQ, the Wounds
    inflicted count as points and are marked by moving that player's HQ marker" — the two Moloch players' markers
    apart: moloch/a's Hybrid scores 1 for moloch/a, moloch/b's (already at 4) 1 for moloch/b; HQs take no damage."""
    done = nhex("battle", "--json", "-", stdin="players moloch/a moloch/b outpost\nmode score\nscore moloch/b 4\n"
                "c5 moloch/a:hq\nc1 moloch/b:hq\na1 outpost:hq\nc3 moloch/a:hybrid N\nd4 moloch/b:hybrid SW\n")
    assert done.returncode == 0, done.stderr
    (outcome,) = json.loads(done.stdout)["outcomes"]
    assert outcome["score"] == {"moloch/a": 1, "moloch/b": 5, "outpost": 0}
    assert outcome["hq"] == {"moloch/a": 20, "moloch/b": 20, "outpost": 20}


def test_battle_json_names_the_players_by_their_labels():
    """NOTATION §9, `nhex battle --json`: `hq` gives the health of every army's HQ; in a mirror, every player's,
    under the player's name."""
    done = nhex("battle", "--json", "-", stdin="players moloch/a moloch/b\nc5 moloch/a:hq\nc1 moloch/b:hq\n"
                                                "c3 moloch/a:hybrid N\n")
    assert done.returncode == 0, done.stderr
    (outcome,) = json.loads(done.stdout)["outcomes"]
    assert outcome["hq"] == {"moloch/a": 20, "moloch/b": 19}
    assert outcome["units"]["c3"]["tile"] == "moloch/a:hybrid"


# --- turns: whose hand, whose pile -----------------------------------------------------------------------------


def test_moves_lists_only_the_players_own_tiles_and_a_tile_of_the_other_player_is_not_its_to_play():
    """3E SETUP: each player plays from their own 35 tiles. `nhex moves` for moloch/a lists moloch/a's hand; a
    record in which moloch/b draws one of moloch/a's tiles is an illegal action (exit 1)."""
    done = nhex("moves", "-", stdin="players moloch/a moloch/b\nto-move moloch/b\nc5 moloch/a:hq\nc1 moloch/b:hq\n"
                                    "hand moloch/b officer\n")
    assert done.returncode == 0, done.stderr
    assert "place moloch/b:officer" in done.stdout and "moloch/a:" not in done.stdout.replace("moloch/a:hq", "")
    record = ("game\nplayers moloch/a moloch/b\n1. moloch/a: hq c5\n2. moloch/b: hq c1\n"
              "3. moloch/a: draw hybrid; place hybrid c3 N\n4. moloch/b: draw moloch/a:officer moloch/b:officer\n")
    done = nhex("check", "-", stdin=record)
    assert done.returncode == 1 and done.stdout.startswith("<stdin>:6: draw moloch/a:officer") \
        and "only their own army's tiles" in done.stdout


def test_a_bare_tile_name_in_a_turn_is_the_acting_players():
    """NOTATION §5: "Tile names in use/place/discard may omit the army when it is the acting player's": in a mirror
    the acting player is a labelled army, and the tile is from that player's pile."""
    record = notation.parse("game\nplayers moloch/a moloch/b\n1. moloch/a: hq c5\n2. moloch/b: hq c1\n"
                            "3. moloch/a: draw hybrid; place hybrid c3 N\n")
    place = record.entries[-1].actions[-1]
    assert place.tile == tile("moloch/a:hybrid") and str(place) == "place moloch/a:hybrid c3 N"


def test_a_whole_mirror_game_is_replayed_by_check():
    """3E VICTORY (the Final Battle, then the higher HQ wins): the record of a whole Moloch-against-Moloch game
    (tests/data/games/moloch-mirror.nhex, made by playing legal moves through the engine) is legal, every `expect`
    line holds, and `nhex check --json` names the winner by its label."""
    done = nhex("check", "--json", str(GAME))
    assert done.returncode == 0, done.stderr
    data = json.loads(done.stdout)
    assert data["verdict"] == "legal" and data["over"] is True
    assert data["winners"] == ["moloch/b"] and data["winner"] == "moloch/b"
    assert data["hq"] == {"moloch/a": 9, "moloch/b": 18}
    state = game.start(notation.parse(GAME.read_text()))
    assert sorted(a for a, _ in state.position.decks) == ["moloch/a", "moloch/b"]


@pytest.mark.parametrize("name, winners, hq, score", [
    ("moloch-mirror-three-players.nhex", ["moloch/b"], {"moloch/a": 18, "borgo": 18, "moloch/b": 19}, None),
    ("mirror-team-match.nhex", ["vegas/x", "vegas/y"], {"neojungle/a": 18, "vegas/x": 20, "neojungle/b": 20,
                                                          "vegas/y": 19}, None),
    ("moloch-mirror-score.nhex", ["moloch/b"], {"moloch/a": 20, "outpost": 20, "moloch/b": 20},
     {"moloch/a": 2, "outpost": 1, "moloch/b": 6}),
])
def test_mirror_players_in_multiplayer_records_are_replayed_by_check(name, winners, hq, score):
    """3E THE MULTIPLAYER MODE: "In games for more players most of the rules are not changed": a deathmatch of two
    Moloch players and Borgo, and a TEAM MATCH of two Neojungle players against two Vegas players ("The first team
    to destroy any enemy HQ wins the game. If none of the HQs are completely destroyed, the team with the highest
    total of remaining Toughness ... wins": 20 + 19 against 18 + 20), each made by playing legal moves through the
    engine and replayed with every `expect` line holding; and a deathmatch WITH AN OPTIONAL SCORE RULE of two Moloch
    players and the Outpost, where each Moloch player scores the wounds its own units deal ("marked by moving that
    player's HQ marker") and `check --json` gives every player's score by its label."""
    done = nhex("check", "--json", str(DATA / "games" / name))
    assert done.returncode == 0, done.stdout + done.stderr
    data = json.loads(done.stdout)
    assert data["verdict"] == "legal" and data["over"] is True
    assert data["winners"] == winners and data["hq"] == hq
    assert data.get("score") == score


def test_a_wrong_winner_in_a_mirror_record_is_the_answer_no():
    """NOTATION §10.7: a false `expect winner` makes `nhex check` exit 1 at its line."""
    text = GAME.read_text().replace("expect winner moloch/b", "expect winner moloch/a")
    done = nhex("check", "-", stdin=text)
    line = text.splitlines().index("expect winner moloch/a") + 1
    assert done.returncode == 1 and done.stdout.startswith(f"<stdin>:{line}:") and "moloch/b won" in done.stdout


# --- puzzle cards: solve and generate ----------------------------------------------------------------------------


def test_a_mirror_puzzle_card_is_solved_with_its_one_solution():
    """3E MODULES, as above, and the HQ's bonus (moloch.army: "adjacent friendly units get +1 ranged strength"):
    the Stormtrooper on b2 stands next to both HQs and gets +1 from its own (moloch/a's) and from the Brain, never
    from moloch/b's. It hits the moloch/b HQ for 3 in phases 2 and 1, the Protector adds 1: 8 - 7 = 1 left, against
    moloch/a's 2. Were moloch/b's HQ to boost it too, the enemy HQ would fall (0) and more plays would win."""
    done = nhex("solve", "--json", str(CARD))
    assert done.returncode == 0, done.stderr
    data = json.loads(done.stdout)
    assert data["verdict"] == "sound"
    assert [s["actions"] for s in data["solutions"]] == [["place moloch/a:stormtrooper b2 N"]]
    assert data["solutions"][0]["hq"] == {"moloch/a": 2, "moloch/b": 1}


def test_generate_makes_a_mirror_card_when_player_and_opponent_are_one_army(tmp_path):
    """Issue 14: mirror matches in `nhex generate`: `--player moloch --opponent moloch` seats moloch/a against
    moloch/b, and the card it writes is solved as it says."""
    done = nhex("generate", "--player", "moloch", "--opponent", "moloch", "--level", "1", "--count", "1",
                "--seed", "3", "--jobs", "1", "--json", "-o", str(tmp_path))
    assert done.returncode == 0, done.stderr
    (made,) = json.loads(done.stdout)
    card = notation.parse(Path(made["file"]).read_text())
    assert Path(made["file"]).name.startswith("moloch-vs-moloch-level1-")
    assert card.player == "moloch/a" and {u.army for u in card.position.units} == {"moloch/a", "moloch/b"}
    solved = json.loads(nhex("solve", "--json", made["file"]).stdout)
    assert [s["actions"] for s in solved["solutions"]] == [made["key"]]


# --- bad input and the notation ---------------------------------------------------------------------------------


@pytest.mark.parametrize("text, where, words", [
    ("players moloch/a moloch/b\nc3 moloch/a:hq\nc1 moloch/c:hq\n", "3:4", "unknown player moloch/c"),
    ("game\nplayers moloch/a moloch/b\n1. moloch/a: hq c3\n2. moloch/x: hq c1\n", "4:4", "unknown player moloch/x"),
    ("players moloch/a moloch/b\nc3 moloch/a:hq\nb2 mercenary:mad-bomber owner=moloch/q\n", "3:31",
     "unknown player moloch/q"),
    ("c3 moloch/a:hq\nc1 moloch/b:hq\n", "1:4", "seat the players with a `players` line"),
    ("players moloch/a moloch/b\nc3 moloch:hq\nc1 moloch/b:hq\n", "2:4", "moloch is played here by moloch/a and"),
    ("game\nplayers moloch moloch\n", "2:1", "two players of one army take labels"),
    ("game\nplayers borgo moloch borgo\n", "2:1", "two players of one army take labels"),
    ("players moloch/ moloch/b\n", "1:15", "syntax error"),
    ("players mercenary/a moloch\n", "1:9", "mercenary is not an army a player commands"),
])
def test_a_player_label_nobody_is_seated_under_is_bad_input_at_its_place(text, where, words):
    """NOTATION §9: bad input is `FILE:LINE:COLUMN: message`, exit 2. A labelled player must be seated by `players`
    (in a position or a card too), so a mistyped label is an error, never a silent third player; where an army is
    played by labelled players, its bare name names nobody. Naming an army twice without labels is no longer the
    exit-4 refusal of a mirror match: the labels say how to write it."""
    done = nhex("fmt", "-", stdin=text)
    assert done.returncode == 2, (done.stdout, done.stderr)
    assert done.stderr.startswith(f"<stdin>:{where}:") and words in done.stderr, done.stderr


def test_one_of_the_two_players_may_keep_the_plain_army_name():
    """README, notation extensions: `players moloch moloch/b` seats two Moloch players, the first under the plain
    name; 3E MODULES ("Modules do not affect enemy tiles") tells them apart as it does moloch/a and moloch/b."""
    outcome = fight("""
        players moloch moloch/b
        c5 moloch:hq
        c1 moloch/b:hq
        c3 moloch:hybrid N
        d4 moloch/b:hybrid SW
        d3 moloch:officer N
    """)
    assert outcome.hq == {"moloch": 19, "moloch/b": 18}


def test_the_loner_of_one_player_vs_a_team_keeps_its_meaning():
    """NOTATION §10.5: "1 vs a team: the Loner named twice, `players hegemony borgo hegemony moloch`": unchanged."""
    record = notation.parse("game\nplayers hegemony borgo hegemony moloch\n")
    assert record.players == ("hegemony", "borgo", "hegemony", "moloch")
    assert game.start(record).position.teams == (("borgo", "moloch"),)


def test_the_two_players_of_one_army_look_different_on_a_card_and_on_the_terminal():
    """A card must be readable at the table: moloch/a's and moloch/b's tiles share Moloch's colours, the second
    seat's with body and edge swapped (underlined on the terminal); a plain army's are the army's."""
    from solver.render import card_svg, terminal

    seats = ("moloch/a", "moloch/b")
    assert card_svg.army_colours("moloch/a", seats) == card_svg.ARMY_COLOURS["moloch"]
    assert card_svg.army_colours("moloch/b", seats) == card_svg.ARMY_COLOURS["moloch"][::-1]
    assert terminal.army_colour("moloch/a", seats) != terminal.army_colour("moloch/b", seats)
    assert card_svg.army_colours("moloch") == card_svg.ARMY_COLOURS["moloch"]


def test_the_mark_follows_the_players_seat_not_the_labels_last_letter():
    """moloch/a and moloch/c (labels whose last letters have one parity) must not look alike: the mark is the seat
    among the players of that army: the first unmarked, the second marked, the third marked another way (a dashed
    rim on a card, italics on the terminal); seated `players moloch/c moloch/a`, moloch/c is the unmarked one, in a
    position or a card as in a game record (and `nhex fmt` keeps the seats). Without a players line (a position
    built in code) the labels' order decides."""
    from solver.mirror import mark, seats_of
    from solver.render import card_svg, terminal

    assert [mark(a, ("moloch/a", "moloch/c")) for a in ("moloch/a", "moloch/c")] == [0, 1]
    assert [mark(a, ("moloch/c", "moloch/a")) for a in ("moloch/a", "moloch/c")] == [1, 0]
    three = ("moloch/x", "borgo", "moloch/b", "moloch/z")
    assert [mark(a, three) for a in ("moloch/x", "moloch/b", "moloch/z", "borgo")] == [0, 1, 2, 0]
    styles = {terminal.army_colour(a, three) for a in ("moloch/x", "moloch/b", "moloch/z")}
    assert len(styles) == 3
    cards = {(card_svg.army_colours(a, three), card_svg.dashed_rim(a, three)) for a in ("moloch/x", "moloch/b",
                                                                                          "moloch/z")}
    assert len(cards) == 3
    placed = notation.parse("players moloch/c moloch/a\nc3 moloch/c:hq\nc1 moloch/a:hq\nc5 borgo:hq\n")
    assert seats_of(placed) == ("moloch/c", "moloch/a", "borgo")
    assert [mark(a, seats_of(placed)) for a in ("moloch/c", "moloch/a")] == [0, 1]
    written = notation.write(placed)
    assert written.startswith("players moloch/c moloch/a borgo\n") and notation.parse(written).seats == \
        ("moloch/c", "moloch/a", "borgo")
    unseated = Position(placed.units)
    assert [mark(a, seats_of(unseated)) for a in ("moloch/c", "moloch/a")] == [1, 0]
    assert mark("moloch", seats_of(notation.parse("players moloch moloch/b\nc3 moloch:hq\nc1 moloch/b:hq\n"))) == 0


def test_a_game_records_players_line_decides_which_player_is_marked_on_the_terminal_and_the_card():
    """`nhex show` of a record seated `players moloch/c moloch/a`: moloch/a (second seat) is underlined on the
    board and in the players line, moloch/c is not; a card's tiles of the second seat have the swapped colours."""
    from rich.console import Console

    from solver.render import card_svg, terminal

    record = notation.parse("game\nplayers moloch/c moloch/a\nc3 moloch/c:hq\nc1 moloch/a:hq\n")
    console = Console(record=True, width=120, color_system="truecolor", force_terminal=True)
    console.print(terminal.render_document(record))
    spans = [(text, str(style)) for text, style, _ in console._record_buffer if style is not None]  # noqa: SLF001
    assert any(text == "moloch/a" and "underline" in style for text, style in spans)
    assert all("underline" not in style for text, style in spans if text == "moloch/c")
    import drawsvg as draw

    body, dark = card_svg.ARMY_COLOURS["moloch"]
    rims = {}
    for player in ("moloch/a", "moloch/c"):
        group = draw.Group()
        card_svg.draw_tile(group, tile(f"{player}:hq"), Direction.N, 0, 0, 56, seats=record.players)
        rims[player] = group.children[0].args["fill"]  # the tile's rim: the edge colour
    assert rims == {"moloch/c": dark, "moloch/a": body}
    # A card (no players line kept: label order) still draws both players, one of them swapped.
    svg = card_svg.front(notation.parse(CARD.read_text())).as_svg()
    assert f'fill="{dark}"' in svg and f'fill="{body}"' in svg
def test_a_mirror_position_and_card_are_written_with_their_players_line():
    """README, notation extensions: the writer puts a `players` line (every army, in name order) in a position or
    card that names a labelled player, and reads it back as it wrote it; a file without labels is written as v1.1
    writes it."""
    text = CARD.read_text()
    card = notation.parse(text)
    written = notation.write(card)
    assert "players moloch/a moloch/b\n" in written and notation.parse(written) == card
    plain = notation.parse("c3 moloch:hq\nc1 borgo:hq\n")
    assert "players" not in notation.write(plain)
    assert notation.parse("Players MOLOCH/A moloch_x/B\nc3 Moloch/A:HQ\n".replace("moloch_x", "moloch")) == \
        notation.parse("players moloch/a moloch/b\nc3 moloch/a:hq N\n")


# --- properties -------------------------------------------------------------------------------------------------

MIRROR_ARMIES = ARMY_NAMES
HEXES = sorted(STANDARD.hexes)


@st.composite
def mirror_positions(draw: st.DrawFn, third: bool = True) -> Position:
    """Two labelled players of one army (sometimes a third player of another army), an HQ each and a few units,
    each player's tiles no more often than the army has them."""
    base = draw(st.sampled_from(MIRROR_ARMIES))
    players = [f"{base}/a", f"{base}/b"]
    if third and draw(st.booleans()):
        players.append(draw(st.sampled_from([a for a in ("moloch", "outpost", "borgo", "hegemony") if a != base])))
    hexes = draw(st.lists(st.sampled_from(HEXES), min_size=len(players), max_size=10, unique=True))
    placed, used = [], {}
    for i, hex_ in enumerate(hexes):
        side = army(players[i % len(players)])
        if i < len(players):
            placed.append(Unit(hex_, side.hq, draw(st.sampled_from(list(Direction))), hp=draw(st.integers(1, 20))))
            continue
        choices = [t for t in side.tiles if t.kind in (Kind.WARRIOR, Kind.MODULE) and used.get(t.key, 0) < t.count]
        chosen = draw(st.sampled_from(choices))
        used[chosen.key] = used.get(chosen.key, 0) + 1
        placed.append(Unit(hex_, chosen, draw(st.sampled_from(list(Direction))),
                           wounds=draw(st.integers(0, chosen.toughness))))
    return Position(tuple(placed))


def _ends(position: Position) -> set:
    return {(o.position.units, tuple(sorted(o.hq.items()))) for o in battle.resolve(position)}


def _swap_labels(text: str) -> str:
    return re.sub(r"/(a|b)\b", lambda m: "/" + ("b" if m.group(1) == "a" else "a"), text)


def _swapped(position: Position) -> Position:
    return Position(tuple(Unit(u.hex, tile(_swap_labels(u.tile.key)), u.facing, u.wounds, u.hp, u.venom)
                          for u in position.units))


@settings(max_examples=80, deadline=None, suppress_health_check=[HealthCheck.too_slow], derandomize=True)
@given(mirror_positions(), st.integers(1, 5))
def test_rotating_a_mirror_battle_rotates_every_outcome(position: Position, steps: int) -> None:
    """GUIDE, property tests: rotating a whole position by 60° changes nothing but labels — in a mirror match too."""
    expected = {(Position(units).rotated(steps).units, hq) for units, hq in _ends(position)}
    assert _ends(position.rotated(steps)) == expected


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow], derandomize=True)
@given(mirror_positions(third=False))
def test_swapping_the_two_labels_of_a_mirror_swaps_the_outcomes(position: Position) -> None:
    """The two players of a mirror differ only by their names: which is `a` and which is `b` changes nothing
    else (nothing of the rules reads a label)."""
    expected = {(_swapped(Position(units)).units, tuple(sorted((_swap_labels(a), hp) for a, hp in hq)))
                for units, hq in _ends(position)}
    assert _ends(_swapped(position)) == expected


@st.composite
def labelled_positions(draw: st.DrawFn) -> tuple[Position, Position]:
    """A two-army position of any two armies, and the same with each army played by a labelled player."""
    first, second = draw(st.lists(st.sampled_from(MIRROR_ARMIES), min_size=2, max_size=2, unique=True))
    hexes = draw(st.lists(st.sampled_from(HEXES), min_size=2, max_size=10, unique=True))
    plain, labelled, used = [], [], {}
    for i, hex_ in enumerate(hexes):
        side = army(first if i % 2 == 0 else second)
        if i < 2:
            chosen = side.hq
        else:
            choices = [t for t in side.tiles if t.kind in (Kind.WARRIOR, Kind.MODULE) and used.get(t.key, 0) < t.count]
            chosen = draw(st.sampled_from(choices))
        used[chosen.key] = used.get(chosen.key, 0) + 1
        facing = draw(st.sampled_from(list(Direction)))
        marks = {"hp": draw(st.integers(1, 20))} if chosen.is_hq else {"wounds": draw(st.integers(0, chosen.toughness))}
        plain.append(Unit(hex_, chosen, facing, **marks))
        labelled.append(Unit(hex_, tile(f"{chosen.army}/p:{chosen.name}"), facing, **marks))
    return Position(tuple(plain)), Position(tuple(labelled))


def _unlabelled(ends: set) -> set:
    return {(tuple(Unit(u.hex, tile(f"{base_army(u.tile.army)}:{u.tile.name}"), u.facing, u.wounds, u.hp, u.venom)
                   for u in units_), tuple(sorted((base_army(a), hp) for a, hp in hq))) for units_, hq in ends}


@settings(max_examples=100, deadline=None, suppress_health_check=[HealthCheck.too_slow], derandomize=True)
@given(labelled_positions())
def test_a_labelled_player_fights_exactly_as_its_army(pair: tuple[Position, Position]) -> None:
    """Differential: a player named `ARMY/p` is that army in every rule (its families, its HQ, its modules): a
    battle of any two armies ends as the same battle with both armies labelled, names aside."""
    plain, labelled = pair
    assert _unlabelled(_ends(labelled)) == _ends(plain)


#: Every army's name as a word of the notation (a tile's prefix too), the longest first.
_ARMY_WORD = re.compile(r"(?<![\w/-])(" + "|".join(sorted(ARMY_NAMES, key=len, reverse=True)) + r")(?![\w/-])")


def _relabel(text: str, chosen: set[str]) -> str:
    """The document with each chosen army played by a labelled player (`moloch` -> `moloch/x`) and, in a position
    or a card, a `players` line seating every army it names."""
    lines = text.splitlines()
    relabelled = [_ARMY_WORD.sub(lambda m: f"{m.group(1)}/x" if m.group(1) in chosen else m.group(1), line)
                  for line in lines]
    if lines and lines[0] != "game":
        named = sorted({m.group(0) for line in relabelled if not line.lstrip().startswith(("story", "explanation",
                                                                                             "puzzle"))
                        for m in re.finditer(r"(?<![\w/-])(?:" + "|".join(ARMY_NAMES) + r")(?:/x)?(?![\w/-])", line)})
        at = 1 if lines[0].startswith("puzzle") else 0
        relabelled.insert(at, " ".join(["players", *named]))
    return "\n".join(relabelled) + "\n"


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow], derandomize=True)
@given(st.data())
def test_a_document_with_labelled_players_reads_back_as_written(data) -> None:
    """STYLE/GUIDE property: parse∘write is identity — on positions, cards and records in which some armies are
    played by labelled players (tests/test_roundtrip.py's documents, relabelled as text)."""
    document = data.draw(st.one_of(any_positions(), puzzles(), game_records()))
    text = notation.write(document)
    present = sorted({m.group(1) for m in _ARMY_WORD.finditer(text)})
    if not present:
        return
    chosen = set(data.draw(st.lists(st.sampled_from(present), min_size=1, unique=True)))
    relabelled = _relabel(text, chosen)
    try:
        read = notation.parse(relabelled)
    except NotationError as error:
        # A record's units of an army outside `players`, relabelled, are unseated: that is the rule, not a bug.
        assert "unknown player" in str(error) or "is a labelled player" in str(error), (relabelled, error)
        return
    written = notation.write(read)
    assert notation.parse(written) == read, written
    assert notation.write(notation.parse(written)) == written


@st.composite
def mirror_documents(draw: st.DrawFn):
    """A position, a puzzle card or a game record of a mirror match: two or three labelled players of one army
    (sometimes with another army), with units, hands, decks, the player to move, a team, scores; a card's offer,
    goal and solution and a record's turns use the labelled players' own tiles."""
    base = draw(st.sampled_from(MIRROR_ARMIES))
    labels = draw(st.lists(st.sampled_from(["a", "b", "c", "red", "blue", "2"]), min_size=2, max_size=3, unique=True))
    players = [f"{base}/{label}" for label in labels]
    if len(players) == 2 and draw(st.booleans()):
        players.append(draw(st.sampled_from([a for a in ARMY_NAMES if a != base])))
    kind = draw(st.sampled_from(["position", "puzzle", "record"]))
    copies = Copies()
    hexes = draw(st.permutations(HEXES))
    placed = []
    for i, hex_ in enumerate(hexes[: draw(st.integers(1 if kind == "puzzle" else 0, 9))]):  # a card's HQ first
        side = army(players[i % len(players)])
        chosen = side.hq if i < len(players) else draw(st.sampled_from([t for t in side.tiles if t.is_unit
                                                                         and not t.is_hq]))
        if not copies.take(chosen):
            continue
        facing = draw(st.sampled_from(list(Direction)))
        placed.append(Unit(hex_, chosen, facing, hp=draw(st.integers(1, 20))) if chosen.is_hq else
                      Unit(hex_, chosen, facing, wounds=draw(st.integers(0, chosen.health - 1))))
    hands = []
    for player in draw(st.lists(st.sampled_from(players), max_size=2, unique=True)):
        held = [t for t in draw(st.lists(st.sampled_from(army(player).tiles), max_size=3)) if copies.take(t)]
        hands.append((player, tuple(held)))
    decks = tuple(draw(st.dictionaries(st.sampled_from(players), st.integers(0, 35), max_size=2)).items())
    score = draw(st.booleans())
    extras = {"mode": "score", "scores": tuple((p, draw(st.integers(0, 20))) for p in players)} if score else {}
    if len(players) >= 3 and draw(st.booleans()):
        extras["teams"] = ((players[0], players[2]),)
    present = sorted({u.army for u in placed} | {a for a, _ in hands} | {a for a, _ in decks})
    to_move = draw(st.sampled_from(present)) if present and kind == "position" else None
    if kind == "puzzle":
        to_move = players[0]
    position = Position(tuple(placed), STANDARD, draw(rule_sets()), to_move, tuple(hands), decks, **extras)
    if kind == "position":
        return position
    own = [t for t in army(players[0]).tiles if not t.is_hq]
    if kind == "puzzle":
        offer = tuple(t for t in draw(st.lists(st.sampled_from(own), min_size=1, max_size=3)) if copies.take(t))
        assume(offer)  # a card offers a tile at least (NOTATION §6)
        empty = [h for h in HEXES if position.unit_at(h) is None]
        solution = tuple(Place(t, draw(st.sampled_from(empty)), draw(st.sampled_from(list(Direction))))
                         for t in offer if t.is_unit)[:1] if empty else ()
        return Puzzle(position=position, title="Mirror", player=players[0], offer=offer,
                      goal=draw(goals(STANDARD, sorted({u.army for u in placed}))),  # armies on the board (§6)
                      solution=draw(st.none() | st.just(solution)))
    entries = []
    for number in range(1, draw(st.integers(1, 4)) + 1):
        player = players[(number - 1) % len(players)]
        tile_ = draw(st.sampled_from([t for t in army(player).tiles if not t.is_hq]))
        entries.append(Turn(number, player, (Draw((tile_,)), Discard(tile_))))
        if draw(st.booleans()):
            entries.append(draw(st.sampled_from([ExpectHp(player, draw(st.integers(0, 20))),
                                                 ExpectWinner(tuple(players[:2]))])))
    record = replace(position, to_move=players[0], hands=(), decks=(), mode="deathmatch", scores=(), teams=())
    return GameRecord(tuple(players), record, tuple(entries))


@settings(max_examples=80, deadline=None, suppress_health_check=[HealthCheck.too_slow], derandomize=True)
@given(mirror_documents())
def test_a_mirror_document_reads_back_as_written(document) -> None:
    """GUIDE, property tests: parse∘write is identity — on positions, cards and records of mirror matches (two or
    three players of one army, labelled), and writing is canonical (fmt is idempotent)."""
    text = notation.write(document)
    assert notation.parse(text) == document, text
    assert notation.write(notation.parse(text)) == text


#: Words of the notation with labels in them, so that random lines reach the reader's seat checks.
_WORDS = ["players", "game", "puzzle", '"t"', "player", "offer", "goal", "destroy", "hp", "<", "win", "solution",
          "to-move", "hand", "deck", "team", "score", "mode", "expect", "winner", "owner=moloch/b", "owner=moloch/",
          "moloch", "moloch/a", "moloch/b", "moloch/a/b", "moloch/-", "mercenary/a", "borgo/x", "vegas/a",
          "moloch/a:hq", "moloch/b:hq", "moloch/a:officer", "moloch/c:blocker", "moloch:hq", "mercenary:mad-bomber",
          "1.", "2.", "moloch/a:", "moloch/b:", "draw", "place", "officer", "c3", "c1", "N", "S", "hq", "3", ";",
          "\n", "\n", "\n"]


@settings(max_examples=300, deadline=None, derandomize=True)
@given(st.lists(st.sampled_from(_WORDS), max_size=30).map(" ".join))
def test_random_words_with_labels_raise_nothing_but_notation_errors(text: str) -> None:
    """GUIDE: "fuzzed parser raises only our errors" — with player labels in the words."""
    from solver.errors import RuleNotImplemented

    try:
        notation.parse(text)
    except (NotationError, RuleNotImplemented):
        pass
