"""A trace a judge can read (issue 9, item 4): every hit says how its strength was made, every initiative change,
net, capture and takeover is stated when it takes effect, every Medic says which attack it absorbed; the JSON
carries the same events (``nhex battle --json --trace``). 3E = ../shared/rules/rulebook-en-3rd-edition.txt."""

from __future__ import annotations

import json

from solver.engine import battle
from solver.notation import text as notation
from solver.cli import main


def traced(text: str) -> battle.Outcome:
    (outcome,) = battle.resolve(notation.parse_position(text), trace=True)
    return outcome


def lines(outcome: battle.Outcome, kind: str | None = None) -> list[str]:
    return [str(e) for e in outcome.trace if kind is None or e.kind == kind]


def test_a_hit_names_its_printed_strength_every_bonus_with_its_source_and_armor():
    """3E MODULES (bonuses are cumulative; "Modules also affect HQs"), 3E THE HQs (the Moloch HQ's +1 ranged to
    adjacent units), 3E ARMOR ("protects from all Strength 1 Ranged attacks": −1): the Hybrid's shot is ranged 1,
    +1 from the Officer on b2, +1 from the Moloch HQ on c1, −1 for the Super-mutant's armor: 2 wounds."""
    outcome = traced("""
        c2 moloch:hybrid S
        c1 moloch:hq
        b2 moloch:officer N
        c3 borgo:super-mutant N
    """)
    (hit,) = [e for e in outcome.trace if e.kind == "ranged"]
    assert hit.text == "moloch:hybrid on c2 hits borgo:super-mutant on c3 for 2 (ranged)"
    assert hit.how == "ranged 1 + moloch:hq on c1 +1 + moloch:officer on b2 +1; armor −1"


def test_a_quartermasters_conversion_is_named_in_the_hit():
    """RULINGS 9; PL Kwatermistrz: the converted attack says it was converted, and by which Quartermaster."""
    found = battle.resolve(notation.parse_position("""
        a1 borgo:super-mutant NE
        b1 hegemony:universal-soldier NW
        c2 hegemony:quartermaster NW
    """), trace=True)
    hows = {e.how for o in found for e in o.trace if e.kind in ("melee", "ranged")}
    assert "ranged 1 as melee (Quartermaster on c2)" in hows


def test_every_initiative_change_names_its_source():
    """3E MORE ON INITIATIVE; RULINGS 5-7: the Scout's +1, the Saboteur's −1 (to an enemy, HQs included), an HQ's
    extra action (Outpost HQ: one more action at the lowest initiative − 1) are each stated with the tile and hex
    that gives them, at the start of the battle."""
    outcome = traced("""
        c3 outpost:hq hp=20
        c4 outpost:runner N
        c5 outpost:scout N
        b2 moloch:hybrid SE
        a2 outpost:saboteur N
        c1 moloch:hq hp=20
    """)
    told = lines(outcome, "initiative")
    assert any(t.startswith("outpost:runner on c4: initiative 2 → 3 (outpost:scout on c5 +1); extra action at 2 "
                            "(outpost:hq on c3: one extra action)") for t in told), told
    assert any(t.startswith("moloch:hybrid on b2: initiative 3 → 2 (outpost:saboteur on a2 −1)") for t in told), told
    assert all(e.phase is None for e in outcome.trace if e.kind == "initiative")


def test_a_net_is_stated_at_the_start_and_when_it_ends():
    """3E USING NETS; 3E BATTLE ("destroyed units remain on the board until the end of the Initiative phase"): the
    Net Fighter on c4 nets the Brawler on c3 until the Commando kills it in phase 4; from phase 3 on the Brawler is
    free, and the trace says so between the phases (the 2E example battle)."""
    outcome = battle.resolve(notation.load("tests/data/2e-example-battle.nhex"), trace=True)[0]
    nets = [(e.phase, e.text) for e in outcome.trace if e.kind == "net"]
    assert (None, "outpost:brawler on c3 is netted by hegemony:net-fighter on c4") in nets
    assert (3, "no longer so: outpost:brawler on c3 is netted by hegemony:net-fighter on c4") in nets


def test_a_scopers_capture_is_stated_when_it_takes_effect():
    """RULINGS 8 (ES/PL Scoper): the Moloch Medic on c3 works for the Outpost while the Scoper on b2 is free."""
    outcome = traced("""
        b2 outpost:scoper NW
        b3 moloch:hq hp=20
        c3 moloch:medic NE
        c4 moloch:medic SW
    """)
    assert "the Scoper on b2 takes over moloch:medic on c3: it works for outpost" in lines(outcome, "capture")[0]
    (medic,) = [e for e in outcome.trace if e.kind == "medic"]
    assert medic.text == ("Medic on c3 absorbs moloch:hq on b3 → outpost:scoper on b2; the Medic on c3 is "
                          "discarded")
    assert medic.how == "1 wound of that attack ignored"


def test_a_netted_unit_is_told_under_its_own_phase():
    """3E NET: the netted unit's idle turn is told in its phase, under that phase's heading."""
    outcome = traced("""
        c2 moloch:hunter-killer S
        d2 hegemony:net-fighter SW
        c3 hegemony:hq
    """)
    kinds = [(e.phase, e.kind) for e in outcome.trace]
    assert kinds.index((3, "phase")) < kinds.index((3, "netted"))


def test_battle_json_carries_the_trace_with_trace(tmp_path, capsys):
    """NOTATION §9, extended additively (README): ``--json --trace`` adds ``trace`` to each outcome, the same
    events as the terminal trace; plain ``--json`` is as before."""
    path = tmp_path / "shot.nhex"
    path.write_text("c2 moloch:hybrid S\nc1 moloch:hq\nb2 moloch:officer N\nc3 borgo:super-mutant N\n")
    assert main(["battle", "--json", str(path)]) == 0
    plain = json.loads(capsys.readouterr().out)
    assert "trace" not in plain["outcomes"][0]
    assert main(["battle", "--json", "--trace", str(path)]) == 0
    (outcome,) = json.loads(capsys.readouterr().out)["outcomes"]
    assert {k: v for k, v in outcome.items() if k != "trace"} == plain["outcomes"][0]
    hit = next(e for e in outcome["trace"] if e["kind"] == "ranged")
    assert hit == {"phase": 3, "kind": "ranged", "text": "moloch:hybrid on c2 hits borgo:super-mutant on c3 for 2 "
                   "(ranged)", "how": "ranged 1 + moloch:hq on c1 +1 + moloch:officer on b2 +1; armor −1",
                   "rule": "3E RANGED ATTACK"}


def test_a_mother_modules_extra_action_and_a_bosss_initiative_are_named():
    """RULINGS 6 (a Mother Module's extra action at the lowest initiative − 1) and RULINGS 13 (the Boss: +1
    initiative; ES Jefe), in the 2E example battle for the Boss."""
    outcome = traced("""
        c3 moloch:hybrid N
        c4 moloch:mother-module N
        c1 hegemony:hq hp=10
    """)
    assert ("moloch:hybrid on c3: extra action at 2 (moloch:mother-module on c4: one extra action)"
            in lines(outcome, "initiative")[0])
    example = battle.resolve(notation.load("tests/data/2e-example-battle.nhex"), trace=True)[0]
    assert any(e.text == "hegemony:runner on b1: initiative 2 → 3 (hegemony:boss on a1 +1)" for e in example.trace)
