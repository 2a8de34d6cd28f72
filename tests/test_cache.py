"""The start-up cache (solver/cache.py): the parser tables and the army database, kept by a hash of their text."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

from solver import cache
from solver.resources import army_files
from solver.tiles import _all_armies, _army_data

ROOT = Path(__file__).resolve().parent.parent


def test_the_cached_army_database_is_the_database_read_from_the_files(tmp_path, monkeypatch):
    monkeypatch.setenv("NHEX_CACHE_DIR", str(tmp_path))
    files = army_files()
    parts = tuple(f"{name}\0{text}" for name, text in files)
    first = cache.remembered("armies", parts, lambda: _army_data(files))
    again = cache.remembered("armies", parts, lambda: [])  # read back, not rebuilt
    assert again == first
    for (fields, tiles), army in zip(first, sorted(_all_armies().values(), key=lambda a: a.source)):
        assert fields["name"] == army.name and [t["name"] for t in tiles] == [t.name for t in army.tiles]


def test_a_torn_cache_file_is_rebuilt(tmp_path, monkeypatch):
    monkeypatch.setenv("NHEX_CACHE_DIR", str(tmp_path))
    file = cache.path("numbers", "one")
    assert file is not None
    file.parent.mkdir(parents=True, exist_ok=True)
    file.write_bytes(b"\x80\x05torn")
    assert cache.remembered("numbers", ("one",), lambda: [1, 2, 3]) == [1, 2, 3]
    assert cache.remembered("numbers", ("one",), lambda: []) == [1, 2, 3]


def test_a_changed_text_gets_its_own_cache_file():
    assert cache.path("armies", "text one") != cache.path("armies", "text two")


def test_an_empty_cache_dir_turns_the_cache_off(monkeypatch):
    monkeypatch.setenv("NHEX_CACHE_DIR", "")
    assert cache.path("armies", "text") is None
    assert cache.remembered("x", ("y",), lambda: 5) == 5


def test_nhex_works_with_an_unwritable_cache_folder(tmp_path):
    blocked = tmp_path / "file-not-folder"
    blocked.write_text("")
    env = {"NHEX_CACHE_DIR": str(blocked / "nhex"), "PATH": "/usr/bin:/bin"}
    done = subprocess.run([sys.executable, "-m", "solver.cli", "fmt", "bench/six-units.nhex"], cwd=ROOT, env=env,
                          capture_output=True, text=True)
    assert done.returncode == 0 and done.stderr == "" and "c3 moloch:hq N hp=12" in done.stdout


def test_the_generate_armies_of_the_command_line_are_the_generators():
    from solver.cli import GENERATE_ARMIES
    from solver.search.generate import ARMIES

    assert GENERATE_ARMIES == ARMIES
