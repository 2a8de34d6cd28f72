"""The puzzle generator (solver/search/generate.py, docs/GENERATOR.md).

The stored cards in puzzles/generated/ are each proven again here: the solver finds exactly one winning play,
it is the card's solution, the key beats the best failing play by the margin rule, and the card grades at
the level it says. Generation itself is checked on level-1 cards, the quickest to make.
"""

from __future__ import annotations

import random
from dataclasses import replace
from pathlib import Path

import pytest

import solver.search.generate as generate_module
from solver.cli import main
from solver.search.generate import (
    ARMIES,
    BANDS,
    MARGIN_GAP,
    Draft,
    Grade,
    canonical,
    count_winning,
    draw,
    generate,
    generate_one,
    mutate,
    regrade,
    replay,
)
from solver.notation.text import load, parse, write
from solver.search import solve as search
from solver.search.solve import Solver
from solver.hexes import STANDARD, Hex
from solver.tiles import tile

ROOT = Path(__file__).resolve().parent.parent
CARDS = sorted((ROOT / "puzzles" / "generated").glob("*.nhex"))


# --- the stored cards -------------------------------------------------------------------------------------------------


def test_the_stored_cards_cover_every_level_and_army() -> None:
    cards = [load(str(path)) for path in CARDS]
    assert len(cards) >= 20
    assert {c.level for c in cards} == {1, 2, 3, 4}
    assert {c.player for c in cards} == set(ARMIES)
    assert {c.player for c in cards if c.level >= 3} == set(ARMIES)  # issue 16: every army, the higher levels too
    assert len({canonical(c) for c in cards}) == len(cards), "two stored cards are one card turned"


@pytest.mark.parametrize("path", CARDS, ids=[p.stem for p in CARDS])
def test_stored_card_is_sound_and_graded(path: Path) -> None:
    card = load(str(path))
    report = Solver(card, jobs=1, tries=1).solve()
    assert report.verdict == "sound", [s.actions for s in report.solutions]
    assert report.contains_intended
    (key,) = report.solutions
    assert key.verdict.margin == 1  # the tuning: the key wins by exactly one
    if report.tries:  # the margin rule
        assert key.verdict.margin - report.tries[0].verdict.margin >= MARGIN_GAP
    again = regrade(card)
    assert again.ok, again.reason
    assert again.key == tuple(str(a) for a in card.solution or ())
    assert again.grade is not None and again.grade.level == card.level and again.grade.in_band
    assert card.explanation and card.explanation.startswith("Key: ")
    # The words on the card are the ones the generator writes for it today (generate.reword renews them).
    assert generate_module.words(card, again, report) == card


# --- counting ---------------------------------------------------------------------------------------------------------

COOKED = """\
puzzle "Already won"
player outpost
offer outpost:commando outpost:brawler
play 1
goal win
c3 outpost:hq hp=10
a1 moloch:hq hp=2
"""


def test_counting_stops_at_the_second_winning_play() -> None:
    count = count_winning(parse(COOKED, "<cooked>"), stop_at=2)
    assert count.verdict == "cooked" and count.stopped_early
    assert count.positions <= 3  # no need to play out the other plays
    assert count.positions < count.states


def test_counting_finds_no_solution() -> None:
    hopeless = parse(COOKED.replace("hp=10", "hp=1").replace("hp=2", "hp=20"), "<none>")
    count = count_winning(hopeless)
    assert count.verdict == "none" and not count.stopped_early and not count.plays


@pytest.mark.skipif(not CARDS, reason="no stored cards")
def test_counting_proves_a_stored_card_sound() -> None:
    card = load(str(CARDS[0]))
    count = count_winning(card)
    assert count.verdict == "sound" and len(count.plays) == 1


# --- making cards -----------------------------------------------------------------------------------------------------


def test_the_same_seed_gives_the_same_cards() -> None:
    first = generate_one("hegemony", "borgo", 1, "t2")
    again = generate_one("hegemony", "borgo", 1, "t2")
    assert first is not None and again is not None
    assert write(first.puzzle) == write(again.puzzle)


def test_the_same_seed_gives_the_same_card_in_another_interpreter() -> None:
    """No set or hash order leaks into the cards: two interpreters with different hash seeds agree."""
    import os
    import subprocess
    import sys

    program = ("from solver.search.generate import generate_one, card_text; "
               "print(card_text(generate_one('moloch', 'borgo', 1, 'hash-seed')))")
    texts = set()
    for hash_seed in ("1", "2"):
        env = {**os.environ, "PYTHONHASHSEED": hash_seed, "PYTHONPATH": str(ROOT)}
        texts.add(subprocess.run([sys.executable, "-c", program], env=env, capture_output=True, text=True,
                                 check=True, cwd=ROOT).stdout)
    assert len(texts) == 1


def test_the_fast_battle_and_the_remembered_drafts_do_not_change_the_cards(monkeypatch: pytest.MonkeyPatch) -> None:
    """Speed never changes a card (issue 27): a battle nobody has a choice in is played straight through
    (battle.straight) instead of step by step as a tree, and a draft met again is not played out again (tune's
    ``played``). The same seed gives the same drafts, tunings and card with every battle made as a tree and no
    draft remembered; the seed is one whose hill climb meets drafts again."""
    from solver.engine import battle

    def run() -> tuple[list[str], str]:
        reasons: list[str] = []
        made = generate_one("moloch", "outpost", 2, "d", on_candidate=reasons.append)
        assert made is not None
        return reasons, generate_module.card_text(made)

    tune, play = generate_module.tune, generate_module._play
    tunings: list[Draft] = []
    plays: list[Draft] = []
    monkeypatch.setattr(generate_module, "tune", lambda draft, rng, played=None: tunings.append(draft) or tune(
        draft, rng, played))
    monkeypatch.setattr(generate_module, "_play", lambda draft: plays.append(draft) or play(draft))
    fast = run()
    assert len(plays) == len(set(tunings)) < len(tunings), "no draft was met again: the memo is not exercised"
    straight: list[object] = []

    def as_a_tree(position: object, trace: bool = False) -> None:
        straight.append(position)
        return None  # "a player has a choice": battle_tree grows the tree step by step

    monkeypatch.setattr(generate_module, "tune", lambda draft, rng, played=None: tune(draft, rng))
    monkeypatch.setattr(battle, "straight", as_a_tree)
    assert run() == fast
    assert straight, "no battle was made as a tree"


def test_worker_processes_do_not_change_the_cards() -> None:
    alone = generate("outpost", "moloch", 1, 2, "procs", jobs=1)
    shared = generate("outpost", "moloch", 1, 2, "procs", jobs=2)
    assert [write(c.puzzle) for c in alone] == [write(c.puzzle) for c in shared]


def test_a_made_card_is_proven_and_at_its_level() -> None:
    made = generate_one("borgo", "moloch", 1, "proof")
    assert made is not None
    assert made.report.verdict == "sound" and made.report.contains_intended
    assert made.grade.level == made.puzzle.level == 1
    card = parse(generate_module.card_text(made), "<made>")
    assert card == made.puzzle  # the file reads back as the card
    assert made.puzzle.player == "borgo" and made.puzzle.play == 1 and len(made.puzzle.offer) == 2


def test_rotated_duplicates_are_replaced(monkeypatch: pytest.MonkeyPatch) -> None:
    made = generate_one("moloch", "hegemony", 1, "dup")
    other = generate_one("moloch", "hegemony", 1, "dup-other")
    assert made is not None and other is not None
    turned = replace(made, puzzle=replace(made.puzzle, position=made.puzzle.position.rotated(2)))
    calls = []

    def fake(player: str, opponent: str, level: int, seed: object, **options: object) -> object:
        calls.append(seed)
        return {"s:0:0": made, "s:1:0": turned, "s:1:1": other}[str(seed)]

    monkeypatch.setattr(generate_module, "generate_one", fake)
    cards = generate("moloch", "hegemony", 1, 2, "s", jobs=1)
    assert [c.seed for c in cards] == [made.seed, other.seed]
    assert calls == ["s:0:0", "s:1:0", "s:1:1"]


def _slow_attempts(made: object, log: Path, results: dict[str, tuple[float, bool]]):
    """A stand-in for ``generate_one`` for the tests of attempts run ahead: each seed sleeps, plays out three drafts
    and makes the card or not as ``results`` says, and is logged to a file (the calls come from worker processes)."""
    import time

    def fake(player: str, opponent: str, level: int, seed: object, *, on_candidate=None, **options: object):
        with log.open("a") as out:
            out.write(f"{seed}\n")
        wait, makes = results.get(str(seed), (30.0, False))
        time.sleep(wait)
        for _ in range(3):
            on_candidate("draft")
        return replace(made, seed=str(seed)) if makes else None

    return fake


def test_with_two_workers_a_later_attempt_runs_ahead_but_the_first_good_attempt_is_the_card(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """Issue 27: one card on two cores has two climbs going at once. Attempt 1 makes a card first, but attempt 0
    makes one too, later: the card is attempt 0's, as with one worker, and the run does not wait for attempt 2."""
    import time

    made = generate_one("moloch", "hegemony", 1, "dup")
    assert made is not None
    log = tmp_path / "calls"
    monkeypatch.setattr(generate_module, "generate_one",
                        _slow_attempts(made, log, {"s:0:0": (1.0, True), "s:0:1": (0.0, True)}))
    started = time.perf_counter()
    (card,) = generate("moloch", "hegemony", 1, 1, "s", jobs=2)
    assert card.seed == "s:0:0" and card.candidates == 3
    assert time.perf_counter() - started < 15.0  # attempt 2 (30 s) was stopped, not waited for
    calls = log.read_text().split()
    assert {"s:0:0", "s:0:1", "s:0:2"} <= set(calls)  # attempt 1 ran beside attempt 0, then attempt 2


def test_a_card_made_ahead_of_time_waits_for_the_earlier_attempts_to_fail_and_counts_their_drafts(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    made = generate_one("moloch", "hegemony", 1, "dup")
    assert made is not None
    log = tmp_path / "calls"
    monkeypatch.setattr(generate_module, "generate_one", _slow_attempts(
        made, log, {"s:0:0": (1.0, False), "s:0:1": (0.0, False), "s:0:2": (0.0, True), "s:0:3": (0.0, True)}))
    (card,) = generate("moloch", "hegemony", 1, 1, "s", jobs=2)
    assert card.seed == "s:0:2" and card.candidates == 9  # three attempts of three drafts
    assert card.seconds >= 1.0  # the card's time runs from its first attempt (attempt 0 took a second to fail)
    (alone,) = generate("moloch", "hegemony", 1, 1, "s", jobs=1)
    assert alone.seed == card.seed


def test_canonical_text_is_the_same_under_rotation_but_not_mirroring() -> None:
    card = parse(COOKED.replace("a1 moloch:hq", "b1 moloch:hq").replace("c3 outpost:hq", "c4 outpost:hq"), "<c>")
    for k in range(6):
        assert canonical(replace(card, position=card.position.rotated(k))) == canonical(card)
    moved = parse(COOKED.replace("a1 moloch:hq", "a2 moloch:hq"), "<c>")
    assert canonical(moved) != canonical(card)


def test_drafts_and_mutations_stay_legal() -> None:
    rng = random.Random(5)
    for level in (1, 2, 3, 4):
        for player in ARMIES:
            opponent = ARMIES[(ARMIES.index(player) + 1) % len(ARMIES)]
            draft = draw(rng, player, opponent, level)
            for _ in range(15):
                puzzle = draft.puzzle()
                assert not puzzle.position.problems(), puzzle.position.problems()
                held = {t: sum(1 for o in puzzle.offer if o == t) for t in puzzle.offer}
                assert all(held[t] + sum(1 for u in puzzle.position.units if u.tile == t) <= t.count for t in held)
                assert len(puzzle.position.units) <= generate_module.MAX_UNITS
                assert puzzle.position.hq(player) and puzzle.position.hq(opponent)
                draft = mutate(rng, draft)
            assert Draft.of(draft.puzzle()).puzzle() == draft.puzzle()


def test_no_tile_giving_the_player_a_free_move_or_push_is_drawn_on_its_side_or_offered() -> None:
    """docs/GENERATOR.md, step 1: a harmless free move or push is a second winning play. Mobility, the Transport, the
    Recon Center and the New York Pusher (B13 Push Back: "once during each of his turns - push back one enemy unit
    freely") stand only on the enemy's side."""
    for name in ARMIES:
        for own in (generate_module._board_tiles(name, own=True), generate_module._offer_tiles(name)):
            assert not [t.name for t in own if t.mobility or "push" in t.abilities
                        or t.name in ("transport", "recon-center")]
    assert "pusher" in {t.name for t in generate_module._board_tiles("new-york", own=False)}


def test_replay_writes_the_only_push_destination() -> None:
    card = parse("""\
puzzle "Push"
player moloch
offer moloch:push-back
play 1
goal win
c3 moloch:hq
c2 outpost:hq
b1 outpost:commando
b2 moloch:blocker
d1 outpost:medic
""", "<push>")
    actions = replay(card, ["use moloch:push-back b2 b1"])
    assert actions is not None
    (push,) = actions
    assert str(push) == "use moloch:push-back b2 b1 c1"


# --- grading ----------------------------------------------------------------------------------------------------------


def test_levels_count_the_ideas_the_key_needs() -> None:
    plain = Grade(1, False, False, False, False, False, plays=100, near_misses=0)
    assert plain.level == 1 and plain.ideas == []
    assert replace(plain, instant=True).level == 2
    assert replace(plain, tiles=2, net=True).level == 3
    assert replace(plain, tiles=2, module=True, initiative=True).level == 4
    assert replace(plain, tiles=3, instant=True, module=True, net=True).level == 4  # at most 4
    assert replace(plain, tiles=2, instant=True).ideas == ["2 actions", "instant"]


def test_the_bands_hold_the_statistics_of_each_level() -> None:
    plain = Grade(1, False, False, False, False, False, plays=100, near_misses=0)
    assert plain.in_band
    assert not replace(plain, plays=BANDS[1].plays[1] + 1).in_band
    big = replace(plain, tiles=2, instant=True, plays=BANDS[3].plays[0] - 1)
    assert not big.in_band


# --- the command ------------------------------------------------------------------------------------------------------


def test_nhex_generate_writes_cards_that_read_back(tmp_path: Path) -> None:
    status = main(["generate", "--player", "hegemony", "--opponent", "outpost", "--level", "1", "--count", "1",
                   "--seed", "cli", "-o", str(tmp_path), "--jobs", "1", "--svg"])
    assert status == 0
    (path,) = tmp_path.glob("*.nhex")
    attempt = path.stem.rsplit("-", 1)[1]  # card 0's first attempt (a climb of 25 drafts) that made a card
    assert path.name == f"hegemony-vs-outpost-level1-cli-0-{attempt}.nhex"
    card = load(str(path))
    assert card.level == 1 and card.solution and card.explanation
    assert path.read_text().startswith(f"# nhex generate: seed cli:0:{attempt};")
    assert path.with_suffix(".svg").exists() and (tmp_path / f"{path.stem}-solution.svg").exists()


def test_nhex_generate_stops_with_status_3_when_no_card_is_found(tmp_path: Path,
                                                                 monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(generate_module, "generate_one", lambda *args, **options: None)
    assert main(["generate", "--player", "borgo", "--opponent", "outpost", "--level", "2", "-o",
                 str(tmp_path)]) == 3
    assert not list(tmp_path.iterdir())


# --- every army; the expansions' ideas ----------------------------------------------------------------------------

def test_every_army_of_the_rulebooks_can_play_and_be_played_against() -> None:
    from solver.tiles import armies

    assert set(ARMIES) == {a for a in armies() if a != "mercenary"}  # the Mercenaries are hired, not an army
    for player in ARMIES:
        for opponent in ARMIES:
            if player != opponent:
                draft = draw(random.Random(f"{player}-{opponent}"), player, opponent, 2)
                assert not draft.puzzle().position.problems()


TAKEOVER = """\
puzzle "Agitator"
player vegas
offer vegas:agitator
play 1
goal win
a1 vegas:hq
e3 smart:hq
c3 smart:ripper S
"""


def test_a_key_that_takes_a_unit_over_has_the_takeover_idea() -> None:
    """PL VEGAS, Agitator ("Przejęcie kontroli": control takeover): an enemy unit linked to the Agitator fights
    for Vegas. A key that makes it so brings the expansion's rule into play: one idea more (docs/GENERATOR.md)."""
    from solver.hexes import Direction, Hex
    from solver.position import Unit
    from solver.tiles import tile

    card = parse(TAKEOVER, "<takeover>")
    linked = Unit(Hex.parse("c2"), tile("vegas:agitator"), Direction.S)  # its N edge, turned S, links c3
    away = Unit(Hex.parse("a3"), tile("vegas:agitator"), Direction.N)
    on = replace(card.position, units=card.position.units + (linked,))
    off = replace(card.position, units=card.position.units + (away,))
    assert generate_module._expansion(card, [on], None, []) == ("takeover",)
    assert generate_module._expansion(card, [off], None, []) == ()
    plain = Grade(1, False, True, False, False, False, plays=100, near_misses=0)
    assert replace(plain, expansion=("takeover",)).level == plain.level + 1
    assert replace(plain, expansion=("takeover",)).ideas == ["module", "takeover"]


VENOM = """\
puzzle "Nightshade"
player neojungle
offer neojungle:nightshade
play 1
goal win
a1 neojungle:hq
e3 new-york:hq
c3 new-york:pusher N
"""


def test_venom_in_the_keys_battle_and_not_without_the_key_is_an_idea() -> None:
    """Babel 13, Neojungle, venom: a unit wounded by the Nightshade is poisoned. The event is in the key's battle
    and not in the battle without any tile: the idea "venom"."""
    from solver.engine import battle
    from solver.hexes import Direction, Hex
    from solver.position import Unit
    from solver.tiles import tile

    card = parse(VENOM, "<venom>")
    end = replace(card.position, units=card.position.units
                  + (Unit(Hex.parse("c4"), tile("neojungle:nightshade"), Direction.N),))
    outcome = battle.resolve(end, trace=True)[0]
    baseline = battle.resolve(card.position, trace=True)
    if not any(e.kind == "venom" for e in outcome.trace):
        pytest.fail("the Nightshade's blow should poison the Pusher: " + "; ".join(e.text for e in outcome.trace))
    assert "venom" in generate_module._expansion(card, [end], outcome, baseline)
    assert generate_module._expansion(card, [card.position], baseline[0], baseline) == ()


def test_each_card_is_written_as_soon_as_it_is_proven(tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
                                                       capsys: pytest.CaptureFixture[str]) -> None:
    """Issue 16: a stopped run loses no card already found. The fake run proves one card, then stops: the card is
    on disk before the run ends, and a progress line names it (the output is not a terminal)."""
    from types import SimpleNamespace

    card = load(str(CARDS[0]))
    graded = regrade(card).grade
    made = generate_module.Generated(card, graded, "w:0:0", 3, 1.0, SimpleNamespace(plays=10, positions=9))
    seen = []

    def fake(player: str, opponent: str, level: int, count: int, seed: object, *, on_card=None, **options):
        on_card(made)
        seen.extend(tmp_path.glob("*.nhex"))  # written already, while the run goes on
        raise generate_module.NoCard("stopped")

    monkeypatch.setattr(generate_module, "generate", fake)
    assert main(["generate", "--player", card.player, "--opponent", "outpost" if card.player != "outpost" else
                 "moloch", "--level", "2", "--count", "2", "-o", str(tmp_path)]) == 3
    assert [p.name for p in seen] == [generate_module.file_name(made)]
    assert load(str(seen[0])).solution == card.solution
    err = capsys.readouterr().err
    assert f"card 1/2: {seen[0]}" in err


LONG_LINK = """\
puzzle "Officer"
player doomsday
offer doomsday:officer
play 1
goal win
a1 doomsday:hq
e3 moloch:hq
c1 doomsday:alpha-shooter S
"""


def test_a_key_that_links_over_two_hexes_has_the_long_link_idea() -> None:
    """RULINGS 54, ES Doomsday sheet: "Las unidades amigas conectadas por Módulos entre 1 & 2 hexágonos reciben
    la bonificación del Módulo" (friendly units linked by Modules 1 or 2 hexes away get the Module's bonus). The
    Officer on c3 facing N reaches the Alpha Shooter on c1 over the empty c2: the idea "long link"; next to it,
    on c2, it is a plain link."""
    from solver.hexes import Direction, Hex
    from solver.position import Unit
    from solver.tiles import tile

    card = parse(LONG_LINK, "<long>")

    def with_officer(label: str) -> object:
        officer = Unit(Hex.parse(label), tile("doomsday:officer"), Direction.N)
        return replace(card.position, units=card.position.units + (officer,))

    assert generate_module._expansion(card, [with_officer("c3")], None, []) == ("long link",)
    assert generate_module._expansion(card, [with_officer("c2")], None, []) == ()


def test_a_draft_over_the_state_limit_gets_an_enemy_unit_until_the_board_is_full(monkeypatch: pytest.MonkeyPatch):
    """A draft dropped for its play space (over MAX_STATES while it was built) is shrunk on the next try: an
    enemy unit on an empty hex, so that every offered tile has fewer places; a random mutation kept it as large
    (Doomsday drafts, whose HQ lets a friendly unit turn besides every placement, stayed over it for whole runs)."""
    seen: list[tuple[int, int]] = []

    def too_large(draft: generate_module.Draft, rng: random.Random, played: object = None) -> generate_module.Tuning:
        seen.append((len(draft.units), sum(u.army == draft.opponent for u in draft.units)))
        return generate_module.Tuning(False, "over the limit", 99, too_many=True)

    monkeypatch.setattr(generate_module, "tune", too_large)
    assert generate_one("doomsday", "outpost", 3, "shrink", budget=6, restart=100) is None
    for (units, enemies), (_, later) in zip(seen, seen[1:]):
        if units < generate_module.MAX_UNITS:
            assert later == enemies + 1
    assert seen[-1][0] == generate_module.MAX_UNITS


def test_no_unit_of_the_players_stands_beside_a_smart_hq_and_one_put_there_is_dropped_unplayed(
        monkeypatch: pytest.MonkeyPatch):
    """PL SMART, Sztab: each own unit next to the HQ may make an extra move "w identyczny sposób, jakby miała cechę
    Mobilność" (exactly as if it had Mobility). As no unit with Mobility is drawn on the player's side (docs/
    GENERATOR.md, step 1), none is drawn beside the Smart HQ: such drafts passed MAX_STATES (22 of 22 in two climbs).
    One a mutation puts there is dropped before its turn is listed, and the climb takes it off the board next."""
    from solver.hexes import Direction
    from solver.position import Unit

    rng = random.Random(7)
    for level in (1, 2, 3, 4):
        for _ in range(10):
            draft = draw(rng, "smart", "vegas", level)
            beside = generate_module._granted(draft)
            assert len(beside) >= 2
            assert not [u for u in draft.units if u.hex in beside and not u.is_hq and u.army == "smart"]
            grown = generate_module._add_unit(rng, draft, "smart")
            assert not [u for u in grown.units if u.hex in beside and not u.is_hq and u.army == "smart"]
    assert not generate_module._granted(draw(rng, "vegas", "smart", 3))  # the enemy's Smart HQ grants nothing here
    empty = sorted(h for h in generate_module._granted(draft) if draft.puzzle().position.unit_at(h) is None)
    assert empty
    crowded = replace(draft, units=draft.units + (Unit(empty[0], tile("smart:ripper"), Direction.N),))

    def unlisted(*args: object, **kwargs: object) -> None:
        raise AssertionError("the turn was listed")

    monkeypatch.setattr(generate_module.Listing, "of", unlisted)
    played = generate_module._play(crowded)
    assert played.refused is not None and played.refused.too_many


def test_an_army_whose_hq_gives_an_action_every_turn_is_offered_one_tile_to_play_at_every_level():
    """The Doomsday HQ turns one friendly unit in its player's turn (ES Doomsday sheet, CG: "En su turno puede
    girar una unidad amiga en cualquier dirección", in its turn it may turn one friendly unit in any direction;
    RULINGS 55): a key of two actions (a tile and the turn) needs one tile, and a draft of two tiles to play
    passed MAX_STATES every time. Other armies keep their level's two tiles."""
    for seed in range(5):
        assert generate_module.draw(random.Random(seed), "doomsday", "outpost", 3).play == 1
        assert generate_module.draw(random.Random(seed), "doomsday", "moloch", 4).play == 1
        assert generate_module.draw(random.Random(seed), "vegas", "doomsday", 3).play == 2


def test_a_turn_where_the_unit_stands_is_worded_as_a_turn_and_a_facing_of_n_is_written():
    """A key's words on a card: the Doomsday HQ's rotation (`move d3 d3 N by hq`, NOTATION §10.4, RULINGS 55) turns
    a unit where it stands, and N (the direction numbered 0) is a facing like the others."""
    position = parse("c1 doomsday:hq\nd3 doomsday:delta-shooter SW\ne2 outpost:hq\n")
    assert (generate_module.describe("move d3 d3 N by hq", "doomsday", position)
            == "turn the Doomsday Machine Delta Shooter on d3 to face N (a free turn, by hq)")
    outpost = parse("c1 outpost:hq\nd3 outpost:commando SW\ne2 moloch:hq\n")
    assert (generate_module.describe("use outpost:move d3 d2 N", "outpost", outpost)
            == "use the Move tile to move the Outpost Commando on d3 to d2, facing N")


# --- the draft table with deferred facings -----------------------------------------------------------------------------


def _table_of_every_facing(draft: Draft) -> dict:
    """What the generator read of a draft before it deferred facings: every facing listed, every state played out,
    the best margin by an AND-OR over the states (a concrete state has one end)."""
    puzzle = draft.puzzle()
    graph = search.Enumerator(puzzle).build()
    ident = search.remembered_play_identity()
    card = search.card_of(puzzle)
    verdict = {state: search.evaluate(card, state.position, dict(state.watched), search.battles_after(puzzle, state))
               for state in graph.steps}
    best: dict = {}

    def value(state: search.State) -> int:
        if state not in best:
            best[state] = max([verdict[state].margin] + [min(value(nxt) for _, nxt in step.branches)
                                                         for step in graph.steps[state]])
        return best[state]

    top = value(graph.root)
    close = search.winning_plays(graph, lambda state: verdict[state].margin >= top - (MARGIN_GAP - 1), ident, 1, 300)
    floor = max(top - generate_module.NEAR, verdict[graph.root].margin + 1)
    return {"best": top, "close": {ends: lines[0] for ends, lines in close.items()},
            "near": {ident(s.position) for s in graph.steps if floor <= verdict[s].margin < top - 1},
            "plays": len({ident(s.position) for s in graph.steps}),
            "hp": {tuple(sorted(set(v.hp))) for v in verdict.values()}}


def _table_deferred(draft: Draft) -> dict:
    puzzle = draft.puzzle()
    listing = generate_module.Listing.of(puzzle)
    table = generate_module.play_out(puzzle, listing)
    ident = listing.ident
    top = generate_module.best_margin(table, ident)
    close = generate_module.winning_plays(table, lambda v: v.margin >= top - (MARGIN_GAP - 1), ident, cap=300)
    ((_, _, root),) = table.ends[listing.graph.root]
    floor = max(top - generate_module.NEAR, root.margin + 1)
    every = list(table.every_end())
    return {"best": top, "close": close, "near": {ident(end) for end, v in every if floor <= v.margin < top - 1},
            "plays": len({ident(end) for end, _ in every}), "hp": {tuple(sorted(set(v.hp))) for _, v in every}}


def _drafts_with_push_back(count: int) -> list[Draft]:
    """Seeded level-3 drafts of the base armies whose offer holds a Push Back, the player's warrior placed before
    the push (its facing deferred, and the opponent answering where the pushed unit goes), small enough to list
    every facing quickly."""
    rng = random.Random("deferred draft tables")
    found: list[Draft] = []
    while len(found) < count:
        player, opponent = rng.sample(("moloch", "outpost", "borgo", "hegemony"), 2)
        draft = draw(rng, player, opponent, 3)
        offer = [t for t in draft.offer if t.name != "push-back"]
        push = [t for t in generate_module._offer_tiles(player) if t.name == "push-back"]
        if not push:
            continue
        draft = replace(draft, offer=tuple(sorted([*offer[:2], push[0]], key=lambda t: t.key)))
        for _ in range(3):  # a crowded board: fewer states
            draft = generate_module._add_unit(rng, draft, rng.choice((player, opponent)))
        found.append(draft)
    return found


@pytest.mark.parametrize("index", range(int(__import__("os").environ.get("NHEX_DRAFT_TABLES", "6"))))
def test_a_draft_table_with_deferred_facings_reads_what_listing_every_facing_reads(index: int) -> None:
    """The generator lists a draft's turn with the facings of the player's plain units chosen at its end, as the
    solver does: the best margin the player can force (facings chosen before the opponent answers a Push Back),
    the plays close to it with their key lines, the near misses, the play space and every health reached are
    those of the listing of every facing."""
    draft = _drafts_with_push_back(index + 1)[index]
    deferred, every = _table_deferred(draft), _table_of_every_facing(draft)
    if len(every["close"]) == 300:  # the cap reached: which 300 plays are kept depends on the order of the walk
        assert len(deferred["close"]) == 300
        deferred["close"] = every["close"] = None
    assert deferred == every


def test_the_best_margin_is_lowered_to_what_the_player_can_force_when_facings_come_before_the_answer(
        monkeypatch: pytest.MonkeyPatch) -> None:
    """Each state's best end gives an upper bound on the margin the player can force; where a deferred unit is
    faced before the opponent answers, the bound is checked with the solver's AND-OR and lowered until a play
    forces it. Random drafts almost never need the lowering (the player can place the unit after the answer), so
    the AND-OR is made to refuse the bound here: the margin given is then the next one a play forces."""
    draft = next(d for d in _drafts_with_push_back(6) if _has_facings_before_answers(d))
    puzzle = draft.puzzle()
    listing = generate_module.Listing.of(puzzle)
    table = generate_module.play_out(puzzle, listing)
    bound = generate_module.best_margin(table, listing.ident)
    forcing = generate_module.winning_plays
    asked: list[int] = []

    def refusing_the_bound(table, keep, ident, cap=None):  # type: ignore[no-untyped-def]
        verdict = _any_verdict(table)
        at_bound = keep(replace(verdict, margin=bound)) and not keep(replace(verdict, margin=bound - 1))
        asked.append(at_bound)
        return {} if at_bound else forcing(table, keep, ident, cap)

    monkeypatch.setattr(generate_module, "winning_plays", refusing_the_bound)
    lowered = generate_module.best_margin(table, listing.ident)
    margins = sorted({v.margin for _, v in table.every_end() if v.margin < bound}, reverse=True)
    expected = next(m for m in margins if forcing(table, lambda v, m=m: v.margin >= m, listing.ident, cap=300))
    assert asked[0] and lowered == expected < bound


def _has_facings_before_answers(draft: Draft) -> bool:
    graph = generate_module.Listing.of(draft.puzzle()).graph
    return any(state.free and len(step.branches) > 1 for state, steps in graph.steps.items() for step in steps)


def _any_verdict(table: generate_module.Table) -> search.Verdict:
    return next(verdict for _, verdict in table.every_end())


def _rivals(*lines: tuple[str, ...]) -> generate_module.Tuning:
    """A draft's play-out that found these rival plays (their action lines) close to the best."""
    return generate_module.Tuning(False, f"{len(lines)} plays within 1 of the best", len(lines), rivals=lines)


def _offered(army_name: str, *names: str) -> tuple:
    return tuple(sorted((tile(f"{army_name}:{name}") for name in names), key=lambda t: t.key))


def test_blocking_takes_a_hex_some_rival_does_without_before_one_every_rival_needs() -> None:
    """Two rival plays both place a tile on a1, and each another on a hex of its own: the block takes one of those
    (the other rival may then stand alone), never a1, which would block both and the best play with them."""
    rng = random.Random("block")
    draft = replace(draw(rng, "moloch", "outpost", 3), units=())
    tuning = _rivals(("place moloch:juggernaut a1 N", "place moloch:blocker b2 N"),
                     ("place moloch:juggernaut a1 N", "place moloch:blocker c3 N"))
    blocked = set()
    for seed in range(40):
        trial = generate_module._block(random.Random(seed), draft, tuning)
        (unit,) = trial.units
        blocked.add(unit.hex.label)
    assert blocked == {"b2", "c3"}


def test_rivals_on_the_same_hexes_with_other_tiles_are_told_apart_by_swapping_a_tile_only_some_play() -> None:
    """Two rival plays put a Crusher or a Swarm on c5 and Vines on e2 (a Neojungle draft that stayed at two rivals
    for twenty mutations): a unit on c5 or e2 would block both. The block swaps the Crusher or the Swarm for another
    offered tile instead, never the Vines that both play, and adds no unit."""
    draft = Draft("neojungle", "doomsday", (), _offered("neojungle", "crusher", "swarm", "vines"), 2)
    tuning = _rivals(("place neojungle:crusher c5 NE", "place neojungle:vines e2 N"),
                     ("place neojungle:swarm c5 N", "place neojungle:vines e2 N"))
    swapped = set()
    for seed in range(40):
        trial = generate_module._block(random.Random(seed), draft, tuning)
        assert trial.units == ()
        (gone,) = set(draft.offer) - set(trial.offer)
        assert len(trial.offer) == 3 and tile("neojungle:vines") in trial.offer
        swapped.add(gone.name)
    assert swapped == {"crusher", "swarm"}


def test_the_climb_ranks_a_draft_it_cannot_play_out_below_any_it_can() -> None:
    """A Neojungle climb went from 300 rival plays to a draft over MAX_STATES (then counted 99) and stayed there for
    twenty mutations: every playable mutation of it ranked worse. The unplayable draft now ranks below all."""
    crowded = generate_module.Tuning(False, "300 plays within 1 of the best", generate_module.RIVALS)
    too_many = generate_module.Tuning(False, "over the limit", generate_module.UNPLAYABLE, too_many=True)
    assert generate_module._score(too_many, 3) > generate_module._score(crowded, 3)


def test_rivals_that_differ_only_in_a_facing_are_told_apart_by_a_unit_beside_the_turned_tile() -> None:
    """Two rival plays put a Rocket Launcher on c3 facing N or NE and a Sergeant on d2 (a New York draft that stayed
    at two rivals): the same hexes, the same tiles. The block puts a unit beside c3, where one facing meets it and
    the other may not, never on c3 or d2 (both rivals need them)."""
    draft = Draft("new-york", "neojungle", (), _offered("new-york", "rocket-launcher", "sergeant", "sniper"), 2)
    tuning = _rivals(("place new-york:rocket-launcher c3 N", "place new-york:sergeant d2 N"),
                     ("place new-york:rocket-launcher c3 NE", "place new-york:sergeant d2 N"))
    c3 = Hex.parse("c3")
    beside = {hex_.label for _, hex_ in STANDARD.neighbours(c3)} - {"d2"}
    blocked = set()
    for seed in range(60):
        trial = generate_module._block(random.Random(seed), draft, tuning)
        assert trial.offer == draft.offer
        (unit,) = trial.units
        blocked.add(unit.hex.label)
    assert blocked == beside


def test_many_rivals_made_of_one_play_and_a_harmless_extra_lose_that_plays_hex_first() -> None:
    """Ten rival plays of a New York draft: seven are a Hammer on e1 alone or with a Sniper shot anywhere (the
    Hammer is enough; the shot harms nothing). The popular block takes e1, which removes the seven together; the
    plain block takes any hex some rival uses."""
    draft = Draft("new-york", "neojungle", (), _offered("new-york", "hammer", "push-back", "sniper"), 2)
    tuning = _rivals(("place new-york:hammer d3 NE", "use new-york:sniper e3"),
                     ("place new-york:hammer e1 S",),
                     ("place new-york:hammer e1 S", "use new-york:push-back e1 d2", "# the owner chooses"),
                     *(("place new-york:hammer e1 S", f"use new-york:sniper {at}")
                       for at in ("b4", "c3", "c5", "d2", "e3")),
                     ("use new-york:sniper d2", "place new-york:hammer d2 SE"),
                     ("use new-york:sniper e3", "place new-york:hammer e3 N"))
    popular, plain = set(), set()
    for seed in range(40):
        (unit,) = generate_module._block(random.Random(seed), draft, tuning, popular=True).units
        popular.add(unit.hex.label)
        (unit,) = generate_module._block(random.Random(seed), draft, tuning).units
        plain.add(unit.hex.label)
    assert popular == {"e1"}
    assert plain == {"d2", "d3", "e1", "e3"}


def test_rivals_that_differ_only_in_a_facing_on_a_full_board_are_told_apart_by_turning_a_unit_beside() -> None:
    """The facing block on a board with MAX_UNITS units (no unit may be added): a unit beside the turned tile (an
    Officer on d2 facing S or SW, both rivals with a Steel Boxer on d3) is turned instead; nothing else changes."""
    rng = random.Random("full")
    draft = draw(rng, "new-york", "neojungle", 3)
    empty = [h for h in STANDARD if h not in {u.hex for u in draft.units} | {Hex.parse("d2"), Hex.parse("d3")}]
    while len(draft.units) < generate_module.MAX_UNITS:
        draft = replace(draft, units=draft.units + (generate_module._random_unit(
            rng, tile("neojungle:swarm"), empty.pop()),))
    tuning = _rivals(("place new-york:officer-1 d2 S", "place new-york:steel-boxer d3 S"),
                     ("place new-york:officer-1 d2 SW", "place new-york:steel-boxer d3 S"))
    beside = {hex_ for _, hex_ in STANDARD.neighbours(Hex.parse("d2"))}
    turned = set()
    for seed in range(30):
        trial = generate_module._block(random.Random(seed), draft, tuning)
        assert trial.offer == draft.offer and len(trial.units) == len(draft.units)
        (old,) = set(draft.units) - set(trial.units)
        (new,) = set(trial.units) - set(draft.units)
        assert old.hex == new.hex in beside and old.facing != new.facing and not old.is_hq
        turned.add(new.hex)
    assert len(turned) > 1
