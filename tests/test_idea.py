"""The idea of a card in words (issue 16): why the key wins and why a try fails, found by counterfactuals over the
battle traces (solver/search/idea.py), and the words of generated cards (solver/search/card_words.py)."""

from __future__ import annotations

import io
import re
from pathlib import Path

import pytest
from rich.console import Console

from solver.search import idea
from solver.notation import text as notation
from solver.search.card_words import THEMES, event_words, story, title
from solver.engine.fight import Event
from solver.render.report import render_report
from solver.search.solve import Solver

HERE = Path(__file__).parent
PUZZLES = HERE.parent / "puzzles"
GENERATED = sorted((PUZZLES / "generated").glob("*.nhex"))


def solved(name: str, tries: int = 1):
    puzzle = notation.load(str(PUZZLES / f"{name}.nhex"))
    return puzzle, Solver(puzzle, jobs=1, tries=tries).solve()


def why(name: str) -> idea.Why:
    puzzle, report = solved(name)
    (key,) = report.solutions
    return idea.why_wins(puzzle, key.actions, min(key.ends, key=str), key.verdict.line)


def test_cut_the_net_names_the_net_lifted_and_who_lifts_it() -> None:
    """Card 09: the Ganger kills the Net Fighter in phase 3 (3E USING NETS: a net holds until the end of the phase
    its Net Fighter dies in), so the Thug is free in phase 2 and hits the Borgo HQ."""
    found = why("09-cut-the-net")
    assert found.rules[0] == "a net lifted"
    text = str(found)
    assert "The Ganger on b3 kills the Net Fighter on b2 in phase 3" in text
    assert "freeing the Thug on c2" in text and "Borgo HQ for 2" in text


def test_officers_orders_names_the_bonus_and_its_giver() -> None:
    """Card 04: the Officer's link adds 1 to the Hybrid's shot (3E MODULES, Officer)."""
    found = why("04-officers-orders")
    assert found.rules[0] == "a bonus"
    assert "The Officer on c5 gives the Hybrid on c4 +1" in str(found)
    assert "for 2 instead of 1" in str(found)


def test_second_shot_names_the_extra_action() -> None:
    """Card 11: the Mother Module gives the Hybrid an additional action (3E MORE ON INITIATIVE)."""
    found = why("11-second-shot")
    assert found.rules[0] == "an extra action"
    assert "Mother Module on c5 gives the Hybrid on c4 an extra action" in str(found)


def test_medic_on_call_names_the_medic_and_the_attack_it_takes() -> None:
    """Card 06: the Medic absorbs the Hybrid's shot at the Brawler, which then strikes (3E USING MEDICS)."""
    found = why("06-medic-on-call")
    assert found.rules[0] == "a Medic spent"
    assert "Medic on d2 absorbs the attack of the Hybrid on c4 on the Brawler on c2" in str(found)


def test_saboteurs_hour_names_the_initiative_lowered() -> None:
    """Card 13: the Saboteur lowers the Hybrid's initiative, so the Annihilator shoots before it dies."""
    found = why("13-saboteurs-hour")
    assert found.rules[0] == "initiative"
    assert "Saboteur on c5 lowers the initiative of the Hybrid on c4" in str(found)


def test_turncoat_names_the_scoper_capture() -> None:
    """Card 15: the Scoper takes over the Moloch Officer, whose +1 now goes to the Commando (RULINGS 8)."""
    found = why("15-turncoat")
    assert found.rules[0] == "a capture"
    assert "Scoper on b3 takes over the Officer on b4" in str(found)


def test_change_of_heart_names_the_takeover() -> None:
    """Card 20: the Agitator's control takeover makes the Golem fight for Vegas (PL VEGAS, Agitator)."""
    found = why("20-change-of-heart")
    assert found.rules[0] == "a takeover"
    assert "fights for Vegas" in str(found)


def test_clear_shot_says_what_the_sniper_removes() -> None:
    """Card 12: the Sniper removes the Net Fighter, then the Officer stands on its hex."""
    found = why("12-clear-shot")
    assert "The Sniper removes the Net Fighter on c3, freeing the Commando on c4" in str(found)
    assert "The Officer on c3 gives the Commando on c4 +1" in str(found)


def test_a_try_fails_with_its_attacker_and_phase() -> None:
    """Card 03: without the net, the Hunter-Killer shoots the Hegemony HQ in phase 3."""
    puzzle, report = solved("03-net-drop", tries=1)
    (key,) = report.solutions
    (attempt,) = report.tries
    text = idea.why_fails(puzzle, attempt.actions, attempt.end, attempt.verdict.line, key.actions,
                          min(key.ends, key=str), key.verdict.line)
    assert "the Hunter-Killer on c2 hits the Hegemony HQ for 1 in phase 3".lower() in text.lower()


def test_a_try_that_keeps_the_net_says_the_net_holds() -> None:
    puzzle, report = solved("09-cut-the-net", tries=1)
    (key,) = report.solutions
    (attempt,) = report.tries
    text = idea.why_fails(puzzle, attempt.actions, attempt.end, attempt.verdict.line, key.actions,
                          min(key.ends, key=str), key.verdict.line)
    assert "stays netted by the Net Fighter on b2" in text


def test_a_battle_against_itself_has_no_difference() -> None:
    puzzle, report = solved("09-cut-the-net", tries=0)
    (key,) = report.solutions
    end = min(key.ends, key=str)
    once = idea.digest(end, idea.worst_battle(puzzle, end, key.verdict.line), puzzle.player)
    assert idea.contrast(once, once) == []
    assert once.hq_lost["borgo"] == 2


def test_the_solve_report_has_a_why_line_per_solution_and_try() -> None:
    puzzle, report = solved("09-cut-the-net", tries=2)
    console = Console(file=io.StringIO(), width=200, record=True, color_system=None)
    console.print(render_report(puzzle, report, explain=False, counters_only=True))
    text = console.export_text()
    assert text.count("Why it wins:") == len(report.solutions) == 1
    assert len(report.tries) == 2  # both leave the Thug netted: one panel, one "Why it fails" (issue 26)
    assert "Tries 1 and 2: the same end" in text and text.count("Why it fails:") == 1


# --- words ------------------------------------------------------------------------------------------------------------


def test_a_medic_line_is_said_in_full() -> None:
    """The garbled 'Medic on d2 absorbs Moloch Armored Hunter on d4 → Outpost Officer on d3' (issue 16)."""
    event = Event(3, "medic", "Medic on d2 absorbs moloch:armored-hunter on d4 → outpost:officer on d3; the Medic "
                  "on d2 is discarded", "3E USING MEDICS")
    said = event_words(event)
    assert "→" not in said
    assert said == "the Medic on d2 takes the attack of the Armored Hunter on d4 on the Officer on d3"


def test_no_the_the_in_tile_names() -> None:
    """'place the The Brain' (issue 16)."""
    assert idea.unit_words("moloch:the-brain", "c2") == "the Brain on c2"
    assert "the The" not in idea.plain("moloch:the-brain on c2 gives moloch:hybrid on c3 +1")


@pytest.mark.parametrize("rule", sorted(THEMES))
def test_titles_name_a_theme_and_no_hex(rule: str) -> None:
    for seed in ("a", "b", "c", "d"):
        made = title([rule], [], seed)
        assert made in THEMES[rule]
        assert not re.search(r"\b[a-e]\d\b", made)


def test_stories_vary_and_name_the_armies() -> None:
    told = {story("moloch", "outpost", {"moloch": 3, "outpost": 4}, 1, ["a bonus"], str(seed)) for seed in range(12)}
    assert len(told) >= 3
    assert all("Moloch" in s and "Outpost" in s for s in told)


@pytest.mark.parametrize("path", GENERATED, ids=[p.stem for p in GENERATED])
def test_stored_generated_card_words(path: Path) -> None:
    """A title never gives the key away (its tile and hex); no 'the The'; no raw arrows; the idea is said."""
    card = notation.load(str(path))
    key_hexes = set(re.findall(r"\b[a-e]\d\b", " ".join(str(a) for a in card.solution or ())))
    assert not key_hexes & set(re.findall(r"\b[a-e]\d\b", card.title))
    for action in card.solution or ():
        tile = getattr(action, "tile", None)
        if tile is not None:
            assert idea.tile_title(tile.key) not in card.title
    for words in (card.title, card.story or "", card.explanation or ""):
        assert "the The" not in words and "→" not in words
    assert "Why it wins: " in (card.explanation or "")


def test_solve_json_has_the_why_of_each_solution_and_try() -> None:
    from solver.render.report import report_json

    puzzle, report = solved("04-officers-orders", tries=1)
    data = report_json(report, counters_only=True, puzzle=puzzle)
    assert "Officer on c5 gives the Hybrid on c4 +1" in data["solutions"][0]["why"]
    # The try in its own terms (issue 26): no Officer stands on c5 in the try, so it is not named.
    assert data["tries"][0]["why"].endswith("end level at 3 health, and a win needs the Moloch HQ ahead.")
    assert "Officer on c5" not in data["tries"][0]["why"]
    assert "why" not in report_json(report, counters_only=True)["solutions"][0]


def test_the_title_follows_the_most_interesting_rule() -> None:
    assert title(["a unit placed", "a net lifted"], [], "x") in THEMES["a net lifted"]
    assert title([], ["1 actions", "denial"], "x") in ("No Way Out", "Every Answer", "Checkmate")


FREED = """\
puzzle "Freed"
player outpost
offer outpost:sniper outpost:scout
play 1
goal win
e3 outpost:hq hp=3
c1 moloch:hq hp=4
c4 outpost:commando SW
d4 outpost:officer N
d3 moloch:net-fighter S
"""


def test_a_sniper_frees_a_netted_officer_whose_bonus_makes_the_difference() -> None:
    """Issue 16's own example: the Sniper removes the Net Fighter that nets the Officer (3E USING NETS: a netted
    module gives nothing), so the Commando's shot gains the Officer's +1."""
    puzzle = notation.parse(FREED, "<freed>")
    found = idea.why_wins(puzzle, ["use outpost:sniper d3"])
    assert found.rules == ("a bonus freed",)
    assert str(found) == ("The Sniper removes the Net Fighter on d3, freeing the Officer on d4: the Commando now "
                          "hits the Moloch HQ for 2 instead of 1.")
    end, _ = idea.play(puzzle, [])
    assert idea.why_fails(puzzle, [], end, (), ["use outpost:sniper d3"]) == (
        "The Commando on c4 hits the Moloch HQ for 1 (the Officer on d4 is netted by the Net Fighter on d3).")


def test_a_sniper_that_sets_off_the_mad_bomber_credits_the_blast() -> None:
    """Card 18: the Sniper hits the Mad Bomber, and his blast (rulebook-en-2nd-edition.txt, Mad Bomber as non player
    character: 'If ... Mad Bomber is hit (by range or melee attack, Grenade, etc.), he explodes dealing 1 wound to
    all adjacent units except HQs'; RULINGS 56) removes the Net Fighter and its Medic; the words must not say the Sniper removed
    three units."""
    found = str(why("18-one-shot-two-nets"))
    assert found.startswith("The Sniper sets off the Mad Bomber on d4, whose blast removes the Net Fighter on d3 "
                            "and the Medic on e3, freeing the Ganger on c3")


# --- a try in its own terms (issue 26) ------------------------------------------------------------------------------


def destroy_card():
    """Card 01 with the goal `destroy moloch` (NOTATION §6): no play destroys the Moloch HQ (5 health)."""
    text = (PUZZLES / "01-point-blank.nhex").read_text(encoding="utf-8").replace("goal win", "goal destroy moloch")
    puzzle = notation.parse(text, "<destroy>")
    return puzzle, Solver(puzzle, jobs=1, tries=5).solve()


def test_a_try_says_what_it_does_and_which_part_of_the_goal_it_misses() -> None:
    """Issue 26's own example: the try taking the HQ from 5 to 3 is said as such, not "no unit makes the
    difference at the HQs, margin +2"."""
    from solver.render.report import report_json

    puzzle, report = destroy_card()
    assert report.verdict == "none"
    data = report_json(report, counters_only=True, puzzle=puzzle)
    first = data["tries"][0]
    assert first["actions"] == ["place borgo:brawler c2 N"]
    assert first["why"] == ("The Brawler on c2 hits the Moloch HQ for 2 in phase 3 and is killed in phase 0 by the "
                            "Moloch HQ. The Moloch HQ ends at 3, and the goal needs it destroyed: three more wounds.")


def test_tries_with_the_same_effect_are_grouped() -> None:
    """Tries that end alike share a panel. (Facings that give a tile the same effective edges are one try: the
    Brawler on a1 facing N or NW, towards nothing, is the one try "a1 N".)"""
    from solver.render.report import report_json

    puzzle, report = destroy_card()
    data = report_json(report, counters_only=True, puzzle=puzzle)
    same = {tuple(t["actions"]): t.get("same_as") for t in data["tries"]}
    assert same[("place borgo:brawler a1 N",)] == same[("place borgo:brawler a2 N",)] == 2
    assert same[("place borgo:brawler a1 NE",)] == 2  # it wounds a Blocker, and the HQ ends as without it
    assert ("place borgo:brawler a1 NW",) not in same
    assert same[("place borgo:brawler c2 N",)] is None
    console = Console(file=io.StringIO(), width=200, record=True, color_system=None)
    console.print(render_report(puzzle, report, explain=False, counters_only=True))
    text = console.export_text()
    assert "Tries 2, 3, 4 and 5: the same end" in text
    assert "place borgo:brawler a1 N: The Brawler on a1 hits nothing (it strikes N: no enemy beside it)." in text
    assert text.count("Why it fails:") == 2


def test_counts_are_said_plainly() -> None:
    def blows(*wounds: int) -> list[idea.Blow]:
        return [idea.Blow(3, "c2", "borgo:brawler", "c1", "moloch:hq", n, "melee", "") for n in wounds]

    assert idea._amounts(blows(2)) == "for 2"
    assert idea._amounts(blows(2, 2, 2)) == "with three hits of 2"
    assert idea._instead(blows(2, 2, 2), blows(2, 2)) == "with three hits of 2 instead of two"
    assert idea._instead(blows(2), blows(1)) == "for 2 instead of 1"
    assert idea._amounts(blows(2, 1)) == "with hits of 2 and 1"


@pytest.mark.parametrize("goal, missed", [
    ("hp moloch <= 2", "The Moloch HQ ends at 5, and the goal needs it at at most 2."),
    ("damage moloch >= 1", "The Moloch HQ loses 0, and the goal needs it to lose at least 1."),
    ("dead b1", "The Blocker on b1 still stands, and the goal needs it destroyed."),
    ("win and dead d1", "The Borgo HQ and the Moloch HQ end level at 5 health, and a win needs the Borgo HQ ahead; "
                        "the Blocker on d1 still stands, and the goal needs it destroyed."),
])
def test_the_goal_missed_in_words(goal: str, missed: str) -> None:
    text = (PUZZLES / "01-point-blank.nhex").read_text(encoding="utf-8").replace("goal win", f"goal {goal}")
    puzzle = notation.parse(text, "<goal>")
    end, _ = idea.play(puzzle, [])
    found = idea.why_try_fails(puzzle, [], end, (), {"borgo": 5, "moloch": 5})
    assert found.missed == missed
