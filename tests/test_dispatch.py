"""Jobs run here, in local processes or on a Dask cluster, with the same results (solver/search/dispatch.py,
solver/search/batch.py; issue 15 "Beyond one machine": same seeds, same cards, whatever the scheduler).

The cluster is a ``distributed.LocalCluster`` in this process (two workers of one thread each, no worker
processes: it starts in a twentieth of a second); the jobs still travel through the scheduler, pickled, as they
would to another machine. Every comparison is made on what the user sees: the files written, the JSON printed
(``--counters``: without times) and the exit status.
"""

from __future__ import annotations

import json
import sys
from collections.abc import Iterator
from pathlib import Path

import pytest

import solver.search.dispatch as dispatch
from solver.cli import main
from solver.search.dispatch import DaskCluster, DispatchError, Processes, Serial, open_dispatcher
from solver.search.generate import card_text, generate

distributed = pytest.importorskip("distributed")  # the test extra installs it: CI always runs these

ROOT = Path(__file__).resolve().parent.parent
#: Three quick cards (a second each, or less): two bundled puzzles and a generated level-1 card.
QUICK = ["puzzles/01-point-blank.nhex", "puzzles/08-out-of-line.nhex",
         "puzzles/generated/moloch-vs-outpost-level1-s1-0-0.nhex"]


def _negate(value: int) -> int:
    if value == 13:
        raise ValueError("thirteen")
    return -value


@pytest.fixture(scope="module")
def scheduler() -> Iterator[str]:
    with distributed.LocalCluster(n_workers=2, threads_per_worker=1, processes=False, dashboard_address=None) as cluster:
        yield cluster.scheduler_address


@pytest.fixture
def cards(tmp_path: Path) -> Path:
    """A folder of four cards: the three quick ones and one without a solution (the enemy HQ out of reach)."""
    folder = tmp_path / "cards"
    folder.mkdir()
    for name in QUICK:
        (folder / Path(name).name).write_text((ROOT / name).read_text(encoding="utf-8"), encoding="utf-8")
    hopeless = (ROOT / QUICK[0]).read_text(encoding="utf-8").replace("c1 moloch:hq hp=5", "c1 moloch:hq hp=20")
    assert hopeless != (ROOT / QUICK[0]).read_text(encoding="utf-8")
    (folder / "00-hopeless.nhex").write_text(hopeless, encoding="utf-8")
    return folder


# --- the interface -----------------------------------------------------------------------------------------------


def test_local_dispatchers_give_results_in_order_or_as_completed() -> None:
    tasks = list(range(7))
    for dispatcher in (Serial(), Processes(2)):
        with dispatcher:
            assert list(dispatcher.results(_negate, tasks)) == [(i, -i) for i in tasks]
            assert sorted(dispatcher.results(_negate, tasks, ordered=False)) == [(i, -i) for i in tasks]


def test_open_dispatcher_chooses_by_jobs_and_scheduler() -> None:
    with open_dispatcher(1) as alone:
        assert isinstance(alone, Serial)
    with open_dispatcher(2) as pool:
        assert isinstance(pool, Processes) and pool.shares_memory


def test_a_dask_cluster_gives_results_in_order_or_as_completed(scheduler: str) -> None:
    tasks = list(range(7))
    with open_dispatcher(4, scheduler) as cluster:
        assert isinstance(cluster, DaskCluster) and not cluster.shares_memory and cluster.workers == 2
        assert list(cluster.results(_negate, tasks)) == [(i, -i) for i in tasks]
        assert sorted(cluster.results(_negate, tasks, ordered=False)) == [(i, -i) for i in tasks]


def test_a_job_that_raises_raises_in_the_caller(scheduler: str) -> None:
    for dispatcher in (Serial(), DaskCluster(scheduler)):
        with dispatcher, pytest.raises(ValueError, match="thirteen"):
            list(dispatcher.results(_negate, [1, 13, 2]))


def test_a_worker_running_other_code_is_refused(scheduler: str) -> None:
    """A worker with another nhex would make other cards from the same seed: joining the cluster says so."""
    with DaskCluster(scheduler) as cluster:
        cluster.check_workers()  # the same code here and there
        with pytest.raises(DispatchError, match="runs a different nhex"):
            cluster.check_workers(mine="nhex 0.0.0 000000000000")


def test_the_fingerprint_covers_code_and_armies() -> None:
    print_ = dispatch.fingerprint()
    assert print_.startswith("nhex ") and len(print_.split()[-1]) == 12
    assert dispatch.fingerprint() == print_


def test_an_unreachable_scheduler_is_a_clear_error(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(dispatch, "CONNECT_TIMEOUT", 0.5)
    with pytest.raises(DispatchError, match="cannot reach the Dask scheduler"):
        DaskCluster("tcp://127.0.0.1:9")


def test_scheduler_without_dask_installed_is_exit_2(monkeypatch: pytest.MonkeyPatch, tmp_path: Path,
                                                   capsys: pytest.CaptureFixture[str]) -> None:
    """The extra is missing: a usage error naming it, before any work, and nothing written."""
    monkeypatch.setitem(sys.modules, "distributed", None)  # `import distributed` fails, find_spec says None
    with pytest.raises(DispatchError, match=r"nhex\[distributed\]"):
        DaskCluster("tcp://127.0.0.1:8786")
    out = tmp_path / "out"
    for command in (["generate", "--player", "borgo", "--opponent", "moloch", "--level", "1", "-o", str(out)],
                    ["solve-all", str(tmp_path)]):
        with pytest.raises(SystemExit) as stopped:  # a usage error, as argparse reports its own
            main([*command, "--scheduler", "tcp://127.0.0.1:8786"])
        assert stopped.value.code == 2
    captured = capsys.readouterr()
    assert captured.out == "" and "pip install 'nhex[distributed]'" in captured.err
    assert not out.exists()


# --- generate ----------------------------------------------------------------------------------------------------


def test_generate_on_a_dask_cluster_makes_the_local_cards(scheduler: str) -> None:
    here = generate("outpost", "moloch", 1, 2, "procs", jobs=1)
    drafts: list[int] = []
    there = generate("outpost", "moloch", 1, 2, "procs", scheduler=scheduler, on_drafts=drafts.append)
    assert [card_text(c) for c in there] == [card_text(c) for c in here]
    assert [c.seed for c in there] == [c.seed for c in here] == ["procs:0:0", "procs:1:0"]
    # The bar's last count is every attempt that came back: the cards' own attempts, and any a worker ran ahead of
    # time for a card decided before they were needed.
    assert drafts and drafts == sorted(drafts) and drafts[-1] >= sum(c.candidates for c in there)


def test_nhex_generate_with_a_scheduler_writes_the_same_files(scheduler: str, tmp_path: Path,
                                                              capsys: pytest.CaptureFixture[str]) -> None:
    written = {}
    for how, options in (("local", ["--jobs", "1"]), ("cluster", ["--scheduler", scheduler])):
        out = tmp_path / how
        assert main(["generate", "--player", "outpost", "--opponent", "moloch", "--level", "1", "--count", "2",
                     "--seed", "procs", "-o", str(out), "--json", *options]) == 0
        report = json.loads(capsys.readouterr().out)
        written[how] = ({p.name: p.read_text(encoding="utf-8") for p in out.iterdir()},
                        [{**card, "file": Path(card["file"]).name} for card in report])
    assert written["cluster"] == written["local"]
    assert len(written["local"][0]) == 2


# --- solve-all ---------------------------------------------------------------------------------------------------


def test_solve_all_gives_the_same_table_whatever_runs_it(scheduler: str, cards: Path,
                                                         capsys: pytest.CaptureFixture[str]) -> None:
    """One card has no solution: status 1 everywhere; the rows in file order with the same counters."""
    printed = {}
    for how, options in (("alone", ["--jobs", "1"]), ("processes", ["--jobs", "2"]),
                         ("cluster", ["--scheduler", scheduler])):
        assert main(["solve-all", str(cards), "--json", "--counters", *options]) == 1, how
        printed[how] = capsys.readouterr().out
    assert printed["alone"] == printed["processes"] == printed["cluster"]
    rows = json.loads(printed["alone"])
    assert [Path(r["file"]).name for r in rows] == ["00-hopeless.nhex", "01-point-blank.nhex",
                                                    "08-out-of-line.nhex", "moloch-vs-outpost-level1-s1-0-0.nhex"]
    assert [(r["status"], r["verdict"]) for r in rows] == [(1, "none"), (0, "sound"), (0, "sound"), (0, "sound")]
    assert rows[1]["solutions"][0]["actions"] == ["place borgo:brawler c2 N"]
    assert all("seconds" not in r for r in rows)


def test_solve_all_table_names_verdicts_keys_and_times(cards: Path, capsys: pytest.CaptureFixture[str]) -> None:
    (cards / "00-hopeless.nhex").unlink()
    assert main(["solve-all", str(cards), "--jobs", "1"]) == 0
    table = capsys.readouterr().out
    assert "3 cards in" in table and "3 sound" in table and "seconds" in table
    assert "SOUND" in table and "borgo:brawler" in table and "moloch:push-back" in table


def test_solve_all_solves_the_same_as_solve(cards: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["solve-all", str(cards), "--json", "--counters", "--jobs", "1"]) == 1
    rows = json.loads(capsys.readouterr().out)
    for row in rows:
        main(["solve", row["file"], "--json", "--counters", "--tries", "0", "--jobs", "1"])
        alone = json.loads(capsys.readouterr().out)
        assert {k: v for k, v in row.items() if k not in ("file", "status")} == alone


def test_solve_all_stops_each_card_at_max_time_with_status_3(cards: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["solve-all", str(cards), "--json", "--max-time", "0", "--jobs", "1"]) == 3
    rows = json.loads(capsys.readouterr().out)
    assert {r["status"] for r in rows} == {3} and all(r["verdict"] is None and r["stopped"] for r in rows)


def test_solve_all_refuses_a_malformed_card_before_solving(cards: Path, capsys: pytest.CaptureFixture[str]) -> None:
    (cards / "02-broken.nhex").write_text("puzzle \"Broken\"\nplayer borgo\nc9 borgo:hq\n", encoding="utf-8")
    assert main(["solve-all", str(cards), "--jobs", "1"]) == 2
    captured = capsys.readouterr()
    assert captured.out == "" and captured.err.startswith(f"{cards / '02-broken.nhex'}:")


def test_solve_all_refuses_a_file_that_is_not_a_card(cards: Path, capsys: pytest.CaptureFixture[str]) -> None:
    (cards / "position.nhex").write_text((ROOT / "tests/data/2e-example-battle.nhex").read_text(encoding="utf-8"),
                                         encoding="utf-8")
    assert main(["solve-all", str(cards)]) == 2
    captured = capsys.readouterr()
    assert captured.out == "" and "position.nhex:1:1: nhex solve-all solves puzzle cards" in captured.err


def test_solve_all_of_a_missing_folder_is_bad_input(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["solve-all", str(tmp_path / "nowhere")]) == 2
    assert "no such folder" in capsys.readouterr().err


def test_solve_all_of_an_empty_folder_solves_nothing(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["solve-all", str(tmp_path), "--json"]) == 0
    assert json.loads(capsys.readouterr().out) == []


def test_solve_all_recursive_finds_cards_in_sub_folders(cards: Path, capsys: pytest.CaptureFixture[str]) -> None:
    outer = cards.parent
    assert main(["solve-all", str(outer), "--json", "--jobs", "1"]) == 0
    assert json.loads(capsys.readouterr().out) == []
    (cards / "00-hopeless.nhex").unlink()
    (cards / "08-out-of-line.nhex").unlink()
    (cards / "moloch-vs-outpost-level1-s1-0-0.nhex").unlink()
    assert main(["solve-all", str(outer), "-r", "--json", "--counters", "--jobs", "1"]) == 0
    (row,) = json.loads(capsys.readouterr().out)
    assert row["file"] == str(cards / "01-point-blank.nhex")


def test_solve_all_names_a_card_that_needs_a_missing_rule_and_solves_the_others(
        cards: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch) -> None:
    """NOTATION §9: exit 4 for a card that needs a rule nhex does not implement, named at the line that needs
    it, as `nhex solve` reports it; in a batch the other cards are still solved (their rows are in the JSON)."""
    from solver.engine import points as abilities

    monkeypatch.setitem(abilities.NOT_IMPLEMENTED, "shotgun", "the Shotgun (New York, Babel 13)")
    abilities.missing_rule.cache_clear()
    try:
        (cards / "03-shotgun.nhex").write_text("puzzle \"Shotgun\"\nplayer borgo\noffer borgo:brawler\nplay 1\n"
                                               "goal win\nc3 borgo:hq hp=5\nc1 moloch:hq hp=5\n"
                                               "e3 new-york:shotgun N\n", encoding="utf-8")
        assert main(["solve-all", str(cards), "--json", "--counters", "--jobs", "1"]) == 4
    finally:
        abilities.missing_rule.cache_clear()
    captured = capsys.readouterr()
    rows = json.loads(captured.out)
    assert [r["status"] for r in rows] == [1, 0, 4, 0, 0]
    assert rows[2]["verdict"] is None and "Shotgun" in rows[2]["rule"]
    assert captured.err.startswith(f"{cards / '03-shotgun.nhex'}:8:4: not implemented yet: the Shotgun")


def test_a_lone_card_is_solved_with_every_job(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """One card in the folder: its positions are spread over --jobs processes (as `nhex solve` does), with the
    same answer as one process."""
    (tmp_path / "14.nhex").write_text((ROOT / "puzzles/14-friendly-fire.nhex").read_text(encoding="utf-8"),
                                      encoding="utf-8")
    printed = []
    for jobs in ("1", "2"):
        assert main(["solve-all", str(tmp_path), "--json", "--counters", "--jobs", jobs]) == 0
        printed.append(capsys.readouterr().out)
    assert printed[0] == printed[1]
    assert json.loads(printed[0])[0]["positions"] > 400  # enough for the solver's worker processes
