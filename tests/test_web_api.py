"""The HTTP API of ``nhex serve`` (issue 28), in process with Starlette's test client: its JSON is the command
line's, byte for byte, on the bundled cards and positions; bad input, missing rules, oversize bodies, time limits,
concurrency caps and the security headers."""

from __future__ import annotations

import asyncio
import multiprocessing
import threading
import time
import warnings
from pathlib import Path

import pytest

pytest.importorskip("starlette")
pytest.importorskip("httpx")

with warnings.catch_warnings():  # Starlette 1.x asks for httpx2 and still works with httpx
    warnings.simplefilter("ignore")
    from starlette.testclient import TestClient  # noqa: E402

from solver import cli  # noqa: E402
from solver.web import api  # noqa: E402
from solver.web.app import LOOPBACK_NAMES, create_app  # noqa: E402
from solver.web.jobs import Busy, Failed, Gone, Jobs, Limits, Stopping, TimeUp  # noqa: E402

ROOT = Path(__file__).resolve().parent.parent
CARDS = sorted((ROOT / "puzzles").glob("*.nhex"))
POSITIONS = [ROOT / "tests/data/2e-example-battle.nhex", ROOT / "tests/data/notation-crossfire.nhex",
             ROOT / "bench/six-units.nhex", ROOT / "bench/sixteen-units.nhex"]
RECORDS = sorted((ROOT / "tests/data/games").glob("*.nhex"))
#: Cards the solver proves in well under a second each (the solve comparisons run every one of them twice).
QUICK_CARDS = [ROOT / "puzzles" / name for name in ("01-point-blank.nhex", "03-net-drop.nhex", "12-clear-shot.nhex")]
LARGE_CARD = ROOT / "bench/scale-play2.nhex"  # play 2 of 4 on 8 empty hexes: minutes to prove
TURRET = "c1 moloch:hq\nc5 outpost:hq\nterrain base turrets c3\nturret c3 N\nc2 outpost:commando N\n"


@pytest.fixture(scope="module")
def client():
    with TestClient(create_app()) as client:
        yield client


def command_line(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, str, str]:
    capsys.readouterr()
    status = cli.main(list(argv))
    out, err = capsys.readouterr()
    return status, out, err


def name(path: Path) -> str:
    return str(path.relative_to(ROOT))


@pytest.mark.parametrize("path", CARDS + POSITIONS, ids=name)
def test_battle_is_the_command_lines_json(client, capsys, path):
    for query, flags in (("", ()), ("?trace=1", ("--trace",))):
        status, out, _ = command_line(capsys, "battle", str(path), "--json", *flags)
        answer = client.post(f"/api/battle{query}", content=path.read_bytes())
        assert (answer.status_code, answer.headers["Nhex-Exit-Status"]) == (200, str(status))
        assert answer.text == out
        assert answer.headers["content-type"] == "application/json"


@pytest.mark.parametrize("path", CARDS + POSITIONS[:2], ids=name)
def test_moves_is_the_command_lines_json(client, capsys, path):
    status, out, err = command_line(capsys, "moves", str(path), "--json")
    answer = client.post("/api/moves", content=path.read_bytes())
    if status == cli.EXIT_BAD_INPUT:  # a position with nobody to move: the same located message
        assert answer.status_code == 400 and err.split(":", 1)[1].strip() == answer.json()["located"]
        return
    assert (answer.status_code, answer.text) == (200, out)


@pytest.mark.parametrize("path", CARDS + POSITIONS[:2] + RECORDS, ids=name)
def test_check_is_the_command_lines_json(client, capsys, path):
    status, out, _ = command_line(capsys, "check", str(path), "--json")
    answer = client.post("/api/check", content=path.read_bytes())
    assert answer.headers["Nhex-Exit-Status"] == str(status)
    assert (answer.status_code, answer.text) == (200, out)


@pytest.mark.parametrize("path", QUICK_CARDS, ids=name)
def test_solve_is_the_command_lines_json(client, capsys, path):
    status, out, _ = command_line(capsys, "solve", str(path), "--json", "--counters", "--jobs", "1")
    answer = client.post("/api/solve?counters=1", content=path.read_bytes())
    assert (answer.status_code, answer.headers["Nhex-Exit-Status"], answer.text) == (200, str(status), out)
    without = client.post("/api/solve?counters=1&tries=0", content=path.read_bytes()).json()
    assert "tries" not in without or without["tries"] == []


def test_a_solve_streams_its_progress_then_the_answer(client):
    lines = client.post("/api/solve?progress=1", content=QUICK_CARDS[2].read_bytes()).text.splitlines()
    import json

    parsed = [json.loads(line) for line in lines]
    assert parsed[-1]["status"] == 0 and parsed[-1]["result"]["verdict"] == "sound"
    assert all("progress" in line for line in parsed[:-1])


def test_bad_input_is_400_with_the_located_message(client, capsys, tmp_path):
    text = "c3 moloch:hq\nc3 outpost:hq\n"
    (tmp_path / "bad.nhex").write_text(text)
    _, _, err = command_line(capsys, "battle", str(tmp_path / "bad.nhex"))
    for path in ("/api/battle", "/api/moves", "/api/check", "/api/solve"):
        answer = client.post(path, content=text)
        assert answer.status_code == 400, path
        assert answer.headers["Nhex-Exit-Status"] == "2"
        body = answer.json()
        assert (body["error"], body["line"], body["column"]) == ("bad input", 2, 1)
        if path == "/api/battle":
            assert f"{tmp_path / 'bad.nhex'}:{body['located']}" == err.strip()
    answer = client.post("/api/battle", content=b"c3 moloch:hq \xff\n")
    assert answer.status_code == 400 and "UTF-8" in answer.json()["message"]
    assert client.post("/api/solve", content=(ROOT / "tests/data/2e-example-battle.nhex").read_bytes()
                       ).json()["message"].startswith("nhex solve takes a puzzle card")


def test_a_missing_rule_is_422_naming_it(client, capsys, tmp_path):
    (tmp_path / "turret.nhex").write_text(TURRET)
    _, _, err = command_line(capsys, "battle", str(tmp_path / "turret.nhex"))
    answer = client.post("/api/battle", content=TURRET)
    assert answer.status_code == 422
    body = answer.json()
    assert body["error"] == "not implemented" and "Turret attacks" in body["rule"]
    assert (body["line"], body["column"]) == (4, 1)
    assert err.strip() == f"{tmp_path / 'turret.nhex'}:{body['located']}"


def test_bodies_over_256_kib_are_413(client):
    big = b"# " + b"x" * (api.MAX_BODY + 10) + b"\n"
    for path in ("/api/battle", "/api/solve", "/api/read"):
        assert client.post(path, content=big).status_code == 413
    chunked = client.post("/api/battle", content=iter([big[:200_000], big[200_000:]]))  # no Content-Length
    assert chunked.status_code == 413
    assert client.post("/api/battle", content=b"#" * api.MAX_BODY).status_code == 200  # exactly the limit


def test_bad_query_values_are_400(client):
    card = QUICK_CARDS[0].read_bytes()
    for query in ("max_time=abc", "max_time=-1", "max_time=nan", "tries=x", "counters=maybe"):
        answer = client.post(f"/api/solve?{query}", content=card)
        assert answer.status_code == 400 and answer.json()["error"] == "bad query", query


def test_a_job_past_its_hard_time_limit_is_killed():
    with TestClient(create_app(Limits(quick_time=0.001))) as client:
        answer = client.post("/api/battle", content=QUICK_CARDS[0].read_bytes())
        assert answer.status_code == 503 and answer.json()["error"] == "time limit"
    assert not multiprocessing.active_children()


def test_a_solve_stops_at_its_time_limit_with_what_it_found():
    with TestClient(create_app(Limits(solve_time_cap=1.0))) as client:
        started = time.monotonic()
        answer = client.post("/api/solve?max_time=30", content=LARGE_CARD.read_bytes())  # capped at 1 s
        assert time.monotonic() - started < 1.0 + Limits().grace
    body = answer.json()
    assert (answer.status_code, answer.headers["Nhex-Exit-Status"]) == (200, "3")
    assert body["solved"] is False and body["verdict"] is None and "--max-time 1 s" in body["stopped"]


def test_a_solve_past_its_hard_limit_is_killed():
    """The solver stops itself at its time limit; the process is killed when it has not answered by the hard
    limit (here a solve given no limit of its own, killed at 0.5 s)."""
    async def scenario() -> None:
        jobs = Jobs(Limits())
        with pytest.raises(TimeUp):
            await jobs._run("solve", LARGE_CARD.read_bytes(), {"max_time": None}, 0.5, None, None)

    started = time.monotonic()
    asyncio.run(scenario())
    assert time.monotonic() - started < 15  # the fork server's start included, on a loaded machine
    assert not multiprocessing.active_children()


def test_solves_over_the_cap_are_503_with_retry_after():
    with TestClient(create_app(Limits(solves=1))) as client:
        jobs: Jobs = client.app.state.jobs  # type: ignore[attr-defined]
        first = threading.Thread(target=client.post, args=("/api/solve?max_time=2",),
                                 kwargs={"content": LARGE_CARD.read_bytes()})
        first.start()
        deadline = time.monotonic() + 10
        while jobs._solves == 0 and time.monotonic() < deadline:
            time.sleep(0.02)
        answer = client.post("/api/solve", content=QUICK_CARDS[0].read_bytes())
        streamed = client.post("/api/solve?progress=1", content=QUICK_CARDS[0].read_bytes())
        first.join()
    assert answer.status_code == 503 and int(answer.headers["Retry-After"]) >= 1
    assert streamed.status_code == 503 and answer.json()["error"] == "busy"


def test_quick_jobs_wait_in_a_bounded_queue():
    async def scenario() -> list[str]:
        jobs = Jobs(Limits(quick=1, queue=1))
        release = asyncio.Event()

        async def slow(*_args: object) -> object:
            await release.wait()
            return "done"

        jobs._run = slow  # type: ignore[method-assign]
        running = asyncio.create_task(jobs.quick("battle", b"", {}))
        await asyncio.sleep(0)
        waiting = asyncio.create_task(jobs.quick("battle", b"", {}))
        await asyncio.sleep(0)
        with pytest.raises(Busy):
            await jobs.quick("battle", b"", {})
        release.set()
        return [await running, await waiting]

    assert asyncio.run(scenario()) == ["done", "done"]


async def started_job() -> None:
    """Until a job's process runs (the fork server may be starting: a second or two on a loaded machine)."""
    deadline = time.monotonic() + 30
    while not multiprocessing.active_children():
        assert time.monotonic() < deadline, "no job process started"
        await asyncio.sleep(0.05)


def test_stopping_a_solve_kills_its_process():
    async def scenario() -> None:
        jobs = Jobs(Limits())
        task = asyncio.create_task(jobs.solve(LARGE_CARD.read_bytes(), {"max_time": 30.0}))
        await started_job()
        task.cancel()
        with pytest.raises(asyncio.CancelledError):
            await task

    asyncio.run(scenario())
    assert not multiprocessing.active_children()


def test_security_headers_and_only_the_apps_own_scripts(client):
    for answer in (client.get("/"), client.post("/api/check", content=b""), client.get("/static/app.js")):
        policy = answer.headers["Content-Security-Policy"]
        assert "script-src 'self'" in policy and "unsafe" not in policy and "default-src 'none'" in policy
        assert answer.headers["X-Content-Type-Options"] == "nosniff"
        assert answer.headers["X-Frame-Options"] == "DENY"
    assert client.post("/api/check", content=b"").headers["Cache-Control"] == "no-store"
    page = client.get("/").text
    assert '<script type="module" src="/static/app.js"></script>' in page and "<script>" not in page
    assert "http://" not in page and "https://" not in page  # nothing from elsewhere: it works offline


def test_a_post_from_another_sites_page_is_refused(client):
    card = QUICK_CARDS[0].read_bytes()
    assert client.post("/api/battle", content=card, headers={"Origin": "http://evil.example"}).status_code == 403
    assert client.post("/api/battle", content=card, headers={"Origin": "http://testserver"}).status_code == 200
    assert client.post("/api/battle", content=card).status_code == 200  # a script: no Origin


def test_on_loopback_only_loopback_host_names_are_answered():
    with TestClient(create_app(hosts=LOOPBACK_NAMES), base_url="http://127.0.0.1:8000") as client:
        assert client.get("/").status_code == 200
        assert client.get("/", headers={"Host": "evil.example:8000"}).status_code == 400


def test_no_request_names_a_path(client):
    assert client.get("/api/tile/moloch:hybrid.svg").text.lstrip().startswith("<?xml")
    for key in ("..%2F..%2Fetc%2Fpasswd", "moloch:nothing", "%2Fetc%2Fpasswd"):
        assert client.get(f"/api/tile/{key}.svg").status_code == 404
    assert client.get("/static/../app.py").status_code == 404


def test_read_gives_the_canonical_text_the_board_and_the_gate(client):
    view = client.post("/api/read", content=b"c3   moloch:hq hp=7\nc2 outpost:hq\n").json()
    assert view["ok"] and view["canonical"] == "to-move moloch\nc2 outpost:hq N hp=20\nc3 moloch:hq N hp=7\n"
    assert 'data-hex="c3"' in view["board"] and "c3: Moloch HQ (moloch) facing N" in view["board"]
    assert view["used"] == {"moloch:hq": 1, "outpost:hq": 1}
    bad = client.post("/api/read", content=b"c3 moloch:hq\nc3 outpost:hq\n").json()
    assert not bad["ok"] and bad["error"]["located"] == "2:1: hex c3 already holds moloch:hq"
    assert bad["error"]["hex"] == "c3" and 'class="hex bad"' in bad["board"]
    marked = client.post("/api/read", params={"mark": "c3 (0,-3)"}, content=b"board extended\nc3 moloch:hq\n").json()
    assert 'class="hex marked" data-hex="c3"' in marked["board"]
    assert 'class="hex marked" data-hex="(0,-3)"' in marked["board"]
    card = client.post("/api/read", content=QUICK_CARDS[2].read_bytes()).json()
    assert card["kind"] == "puzzle" and card["card"]["offer"] == ["outpost:sniper", "outpost:officer",
                                                                  "outpost:scout"]


def test_apply_plays_a_listed_action(client):
    card = QUICK_CARDS[2].read_bytes()
    listed = client.post("/api/moves", content=card).json()
    assert "use outpost:sniper c3" in listed
    after = client.post("/api/apply", params={"action": "use outpost:sniper c3"}, content=card).json()
    text = after["results"][0]["text"]
    assert "net-fighter" not in text and "hand outpost outpost:officer outpost:scout" in text
    illegal = client.post("/api/apply", params={"action": "place outpost:officer c1 N"}, content=card)
    assert illegal.status_code == 200 and illegal.headers["Nhex-Exit-Status"] == "1" and illegal.json()["rule"]


def test_card_pictures(client):
    card = QUICK_CARDS[2].read_bytes()
    assert client.post("/api/card?side=front", content=card).text.lstrip().startswith("<?xml")
    assert client.post("/api/card?side=back&format=png", content=card).content.startswith(b"\x89PNG")
    assert client.post("/api/card", content=b"c3 moloch:hq\n").status_code == 400
    board = client.post("/api/board", content=b"c3 moloch:hq\n").text
    assert "Moloch HQ" not in board and "data-hex" not in board and "<svg" in board  # no click targets
    assert client.post("/api/board?format=png", content=b"c3 moloch:hq\n").content.startswith(b"\x89PNG")
    assert client.post("/api/board", content=b"c3 moloch:hq\nc3 moloch:hq\n").json()["line"] == 2


def test_tiles_and_rules_lists(client, capsys):
    listed = client.get("/api/tiles").json()
    tiles = listed["armies"]
    assert set(tiles) >= {"moloch", "outpost", "borgo", "hegemony", "doomsday", "mercenary"}
    assert sum(t["count"] for t in tiles["moloch"]) == 35
    assert [t["tile"] for t in tiles["mercenary"]] == ["mercenary:mad-bomber"]
    assert listed["prizes"][0] == "first-aid-kit"
    _, out, _ = command_line(capsys, "rules", "--json")
    import json

    assert client.get("/api/rules").json() == json.loads(out)
    terrain = client.get("/api/terrain").json()
    assert "thick" in terrain["types"]["forest"] and terrain["compulsory"]["warehouse"] == ["closed"]


def test_the_serve_command_checks_its_options():
    parser = cli.build_parser("serve")
    args = parser.parse_args(["serve"])
    assert (args.host, args.port, args.open) == ("127.0.0.1", 8000, False)
    for bad in (["--port", "70000"], ["--port", "x"], ["--solves", "0"], ["--max-time", "nan"]):
        with pytest.raises(SystemExit):
            parser.parse_args(["serve", *bad])
    with pytest.raises(SystemExit) as stop:
        cli.main(["serve", "--max-time", "0"])
    assert stop.value.code == 2


def test_a_record_replayed_turn_by_turn(client, capsys):
    path = ROOT / "tests/data/games/hegemony-vs-outpost-2e.nhex"
    replay = client.post("/api/record", content=path.read_bytes()).json()
    _, out, _ = command_line(capsys, "check", str(path), "--json")
    import json

    checked = json.loads(out)
    assert len(replay["turns"]) == checked["turns"] and replay["stopped"] is None
    assert replay["turns"][-1]["hq"] == checked["hq"]
    assert any(event.startswith("battle (turn 11") for event in replay["turns"][-1]["events"])
    after = client.post("/api/read", content=replay["turns"][0]["text"].encode()).json()
    assert after["ok"] and [u["tile"] for u in after["units"]] == ["outpost:hq"]


def test_a_client_gone_during_a_solve_ends_it():
    """A solve reports progress every quarter second; the client is still asked every half second whether it is
    there, and a solve whose client went away is killed."""
    async def scenario() -> float:
        jobs = Jobs(Limits())
        started = time.monotonic()

        async def gone() -> bool:
            return time.monotonic() - started > 1.0

        with pytest.raises(Gone):
            await jobs.solve(LARGE_CARD.read_bytes(), {"max_time": 30.0}, gone=gone)
        return time.monotonic() - started

    assert asyncio.run(scenario()) < 15  # not the 30 s the solve asked for
    assert not multiprocessing.active_children()


def test_stopping_the_server_ends_the_jobs_under_way():
    async def scenario() -> None:
        jobs = Jobs(Limits())
        task = asyncio.create_task(jobs.solve(LARGE_CARD.read_bytes(), {"max_time": 30.0}))
        await started_job()
        jobs.stopping = True
        with pytest.raises(Stopping):
            await task

    asyncio.run(scenario())
    assert not multiprocessing.active_children()


@pytest.mark.parametrize("path", CARDS + POSITIONS + RECORDS, ids=name)
def test_the_pages_canonical_text_is_nhex_fmt(client, capsys, path):
    _, out, _ = command_line(capsys, "fmt", str(path))
    view = client.post("/api/read", content=path.read_bytes()).json()
    assert view["ok"] and view["canonical"] == out
    assert view["board"].count('class="hex') >= 19


def test_a_failure_of_the_engine_is_a_500_that_says_so(monkeypatch):
    """A bug is not an answer: the job's process says what failed, and the server answers 500 with it."""
    async def scenario() -> str:
        jobs = Jobs(Limits())
        with pytest.raises(Failed) as failed:
            await jobs.quick("no-such-command", b"", {})
        return str(failed.value)

    assert "no-such-command" in asyncio.run(scenario())
    assert api.error_response(Failed("the battle failed: KeyError")).status_code == 500


def test_battle_steps_are_the_engines_boards(client):
    """The board after each phase, played again along each outcome's choices, ends exactly on the outcome: one
    battle without choices, one where Moloch chooses between its Medics (tests/test_medics.py)."""
    example = (ROOT / "tests/data/2e-example-battle.nhex").read_bytes()
    medics = b"c3 moloch:blocker N\nc4 moloch:medic N\nb3 moloch:medic N\nc2 borgo:brawler S\n" \
             b"b2 moloch:blocker N\nb1 borgo:brawler S\n"
    for text in (example, medics):
        outcomes = client.post("/api/battle", content=text).json()["outcomes"]
        replayed = client.post("/api/steps", content=text).json()["outcomes"]
        assert len(replayed) == len(outcomes) == (1 if text == example else 2)
        for outcome, steps in zip(outcomes, replayed):
            assert steps is not None and steps["boards"][0]["phase"] is None
            last = client.post("/api/read", content=steps["boards"][-1]["text"].encode()).json()
            assert {u["hex"]: (u["tile"], u["wounds"]) for u in last["units"]} == \
                {hex_: (u["tile"], u["wounds"]) for hex_, u in outcome["units"].items()}
            assert {u["army"]: u["hp"] for u in last["units"] if u["kind"] == "hq"} == \
                {army: hp for army, hp in outcome["hq"].items() if hp > 0}
    phases = [b["phase"] for b in client.post("/api/steps", content=example).json()["outcomes"][0]["boards"]]
    assert phases == [None, 4, 3, 2, 1, 0]
