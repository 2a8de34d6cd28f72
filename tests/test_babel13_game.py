"""A New York against Neojungle game on Babel 13 terrain, replayed end to end (`nhex check`): every new action of
Babel 13 once (Mine, Roots, Castling, the Pusher's push, a Sniper on Roots, Small Bomb) and battles with venom,
Thick Forest and the Watchtower. B13 = ../shared/rules/rulebook-en-babel13.txt; the record's comments cite the
passage behind each turn."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

from solver.turns import game
from solver.hexes import Hex
from solver.notation.text import parse

ROOT = Path(__file__).resolve().parent.parent
RECORD = ROOT / "tests" / "data" / "games" / "new-york-vs-neojungle-b13.nhex"


def test_the_babel13_record_is_legal_and_ends_as_its_comments_say():
    """B13 FOUNDATION TILES (Mine, Roots destroyed by an instant), THE NEW INSTANT TILES (Castling, Small bomb),
    Push Back, Venom, FOREST THICK, HILL WATCHTOWER: the board after turn 9."""
    report = game.check(parse(RECORD.read_text(), str(RECORD)))
    assert report.ok, report.fault(str(RECORD))
    position = report.state.position
    units = {u.hex.label: u for u in position.units}
    assert units["e2"].tile.key == "neojungle:hq"  # pushed off d3 after the castling took it there
    assert units["e3"].tile.key == "neojungle:slicer"  # castled into the Jungle: no Toughness icon
    assert "c4" not in units and "d4" not in units and "c5" in units  # Pusher, Nightshade gone; Spy Shooter on c5
    assert units["c5"].tile.key == "new-york:spy-shooter"
    assert not position.foundations  # the Roots to the Sniper, the Mine to the Small Bomb
    assert all(u.venom == 0 for u in position.units)  # the poisoned Pusher died: its marker is back
    assert position.unit_at(Hex.parse("c3")).wounds == 0


def test_nhex_check_replays_the_babel13_record():
    done = subprocess.run([sys.executable, "-m", "solver", "check", str(RECORD)], capture_output=True, text=True,
                          cwd=ROOT)
    assert done.returncode == 0, done.stderr
    assert "legal: 9 turns, 2 battles" in done.stdout
