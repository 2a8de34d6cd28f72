"""The page of ``nhex serve`` in a real Chromium (issue 28): tiles placed and rotated by clicking, notation pasted,
the URL round trip, a bad position's located error, a battle stepped through, card 12 solved and its solution shown.

Debian's ``chromium`` and ``chromium-driver`` packages, driven by Selenium; without them these tests skip, saying
how to install them (``.ci/run`` does). One browser and one server (``python -m solver serve``, the command itself)
for the module: a few seconds in all.
"""

from __future__ import annotations

import os
import shutil
import socket
import subprocess
import sys
import tempfile
import time
import urllib.parse
import urllib.request
from pathlib import Path
from typing import Any, Callable, Iterator

import pytest

CHROMIUM, CHROMEDRIVER = Path("/usr/bin/chromium"), Path("/usr/bin/chromedriver")
if not (CHROMIUM.exists() and CHROMEDRIVER.exists()):
    pytest.skip("the browser tests need Chromium: sudo apt-get install chromium chromium-driver",
                allow_module_level=True)
pytest.importorskip("selenium", reason="the browser tests need selenium: pip install '.[test]'")

from selenium import webdriver  # noqa: E402
from selenium.common.exceptions import StaleElementReferenceException  # noqa: E402
from selenium.webdriver.chrome.service import Service  # noqa: E402
from selenium.webdriver.common.by import By  # noqa: E402
from selenium.webdriver.support.ui import WebDriverWait  # noqa: E402

from solver.tiles import tile as tile_of  # noqa: E402

ROOT = Path(__file__).resolve().parent.parent
CARD_12 = next((ROOT / "puzzles").glob("12-*.nhex"))
EXAMPLE_BATTLE = ROOT / "tests/data/2e-example-battle.nhex"
#: No network here and none wanted: every flag that would make Chromium call home is off.
FLAGS = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
         "--disable-background-networking", "--disable-component-update", "--disable-sync",
         "--window-size=1366,768"]


server_pids: dict[str, int] = {}


def _free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])


def _children(pid: int) -> list[int]:
    """The processes whose parent is ``pid`` (Linux /proc)."""
    found = []
    for entry in Path("/proc").iterdir():
        if entry.name.isdigit():
            try:
                fields = (entry / "stat").read_text().rsplit(")", 1)[1].split()
            except OSError:
                continue
            if int(fields[1]) == pid:
                found.append(int(entry.name))
    return found


def job_processes(server_pid: int) -> list[int]:
    """The server's job processes: the children of its fork server (solver/web/jobs.py)."""
    return [job for child in _children(server_pid)
            if b"forkserver" in Path(f"/proc/{child}/cmdline").read_bytes() for job in _children(child)]


@pytest.fixture(scope="module")
def server() -> Iterator[str]:
    port = _free_port()
    process = subprocess.Popen([sys.executable, "-m", "solver", "serve", "--port", str(port)], cwd=ROOT,
                               stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
    url = f"http://127.0.0.1:{port}/"
    try:
        deadline = time.monotonic() + 30
        while True:
            try:
                urllib.request.urlopen(url, timeout=1).close()
                break
            except OSError:
                if process.poll() is not None or time.monotonic() > deadline:
                    raise RuntimeError(f"nhex serve did not start: {process.stderr.read()!r}")  # type: ignore[union-attr]
                time.sleep(0.1)
        server_pids[url] = process.pid
        yield url
    finally:
        process.terminate()
        process.wait(timeout=10)


@pytest.fixture(scope="module")
def browser() -> Iterator[Any]:
    profile = tempfile.mkdtemp(prefix="nhex-chromium-")
    options = webdriver.ChromeOptions()
    options.binary_location = str(CHROMIUM)
    for flag in [*FLAGS, f"--user-data-dir={profile}"]:
        options.add_argument(flag)
    options.set_capability("goog:loggingPrefs", {"browser": "ALL"})  # the console, for CSP violations and errors
    driver = webdriver.Chrome(service=Service(str(CHROMEDRIVER)), options=options)
    try:
        yield driver
    finally:
        driver.quit()
        shutil.rmtree(profile, ignore_errors=True)


def wait(driver: Any, condition: Callable[[Any], Any], seconds: float = 15) -> Any:
    # The board is drawn anew after every answer: an element looked up as it is replaced is looked up again.
    return WebDriverWait(driver, seconds, poll_frequency=0.05,
                         ignored_exceptions=[StaleElementReferenceException]).until(condition)


def notation(driver: Any) -> str:
    return str(driver.find_element(By.ID, "notation").get_attribute("value"))


def hex_label(driver: Any, hex_: str) -> str:
    return str(driver.find_element(By.CSS_SELECTOR, f'#board [data-hex="{hex_}"]').get_attribute("aria-label"))


def open_text(driver: Any, server: str, text: str) -> None:
    driver.get(f"{server}?nhex={urllib.parse.quote(text, safe='')}")
    wait(driver, lambda d: d.find_element(By.ID, "gate").text not in ("", "reading…"))


def click(driver: Any, selector: str) -> None:
    driver.find_element(By.CSS_SELECTOR, selector).click()


def test_place_and_rotate_tiles_by_clicking(browser, server):
    open_text(browser, server, "")
    for army, tile, hex_ in (("outpost", "outpost:hq", "c5"), ("moloch", "moloch:hq", "c1"),
                             ("outpost", "outpost:commando", "c3")):
        click(browser, f'#armies [data-army="{army}"]')
        click(browser, f'#palette [data-tile="{tile}"]')
        click(browser, f'#board [data-hex="{hex_}"]')
        wait(browser, lambda d: f"{hex_} {tile} N" in notation(d))
    copies = tile_of("outpost:commando").count
    left = browser.find_element(By.CSS_SELECTOR, '#palette [data-tile="outpost:commando"] .count').text
    assert left == f"{copies - 1}/{copies}"  # the printed count, less the one on the board
    click(browser, '#palette [data-tile="outpost:commando"]')  # put the tile down: clicks select again
    click(browser, '#board [data-hex="c3"]')
    click(browser, "#rotate-right")
    wait(browser, lambda d: "c3 outpost:commando NE" in notation(d))
    browser.find_element(By.TAG_NAME, "body").send_keys("r")
    wait(browser, lambda d: "c3 outpost:commando SE" in notation(d))
    assert "Commando (outpost) facing SE" in hex_label(browser, "c3")
    browser.find_element(By.TAG_NAME, "body").send_keys("R")  # Shift+R: anticlockwise
    wait(browser, lambda d: "c3 outpost:commando NE" in notation(d))
    click(browser, "#remove")
    wait(browser, lambda d: "commando" not in notation(d))
    assert hex_label(browser, "c3") == "c3: empty"
    click(browser, "#undo")  # the removal undone, then redone
    wait(browser, lambda d: "c3 outpost:commando NE" in notation(d))
    click(browser, "#redo")
    wait(browser, lambda d: "commando" not in notation(d))


def test_paste_notation_and_the_url_round_trip(browser, server):
    open_text(browser, server, "")
    text = CARD_12.read_text(encoding="utf-8")
    area = browser.find_element(By.ID, "notation")
    browser.execute_script("arguments[0].value = arguments[1]; arguments[0].dispatchEvent(new Event('input'));",
                           area, text)
    wait(browser, lambda d: d.find_element(By.ID, "gate").text.startswith("consistent puzzle card"))
    assert "Net Fighter" in hex_label(browser, "c3")
    assert "12 Clear Shot" in browser.find_element(By.ID, "card-info").text
    shared = browser.current_url
    assert urllib.parse.unquote(shared.split("?nhex=", 1)[1]) == text
    browser.get("about:blank")
    browser.get(shared)
    wait(browser, lambda d: notation(d) == text)
    assert "Net Fighter" in hex_label(browser, "c3")


def test_a_bad_position_shows_its_located_error(browser, server):
    open_text(browser, server, "c3 moloch:hq\nc3 outpost:hq\n")
    gate = browser.find_element(By.ID, "gate")
    assert gate.text == "2:1: hex c3 already holds moloch:hq"
    assert "error" in str(gate.get_attribute("class"))
    assert browser.find_elements(By.CSS_SELECTOR, '#board .hex.bad[data-hex="c3"]')
    assert not browser.find_element(By.ID, "battle-btn").is_enabled()
    assert not browser.find_element(By.ID, "solve-btn").is_enabled()


def test_a_battle_stepped_through(browser, server):
    open_text(browser, server, EXAMPLE_BATTLE.read_text(encoding="utf-8"))
    click(browser, "#battle-btn")
    label = browser.find_element(By.ID, "step-label")
    wait(browser, lambda d: label.text == "Before the battle (1/7)")
    assert "netted by hegemony:net-fighter on c4" in browser.find_element(By.ID, "events").text
    click(browser, "#step-next")
    click(browser, "#step-next")
    wait(browser, lambda d: label.text == "Initiative phase 3 (3/7)")
    events = browser.find_element(By.ID, "events").text
    assert "hits outpost:annihilator on a2 for 3 (melee)" in events and "3E MELEE ATTACK" in events
    assert "melee 1 + hegemony:hq on b3 +1 + hegemony:officer-1 on b4 +1" in events  # how the wounds were made
    wait(browser, lambda d: hex_label(d, "a2") == "a2: empty")  # the Annihilator died in phase 3
    click(browser, "#step-last")
    wait(browser, lambda d: label.text == "After the battle (7/7)")
    assert "HQ: hegemony 14, outpost 18" in browser.find_element(By.ID, "events").text
    wait(browser, lambda d: hex_label(d, "c3") == "c3: empty")  # the Brawler died in phase 0


def test_card_12_is_solved_and_its_solution_shown(browser, server):
    open_text(browser, server, CARD_12.read_text(encoding="utf-8"))
    click(browser, "#solve-btn")
    click(browser, "#solve-go")
    verdict = browser.find_element(By.ID, "verdict")
    wait(browser, lambda d: verdict.text.startswith("SOUND"), seconds=60)
    solution = browser.find_element(By.CSS_SELECTOR, "#solutions article.solution")
    assert "use outpost:sniper c3; place outpost:officer c3 N" in solution.text
    assert "Why it wins:" in solution.text
    solution.find_element(By.CSS_SELECTOR, ".show-play").click()
    wait(browser, lambda d: "Officer (outpost)" in hex_label(d, "c3"))
    assert "c3 outpost:officer N" in notation(browser)


def test_the_console_stays_clean(browser, server):
    """No script error and nothing the Content-Security-Policy refused, through a read, a battle and the palettes."""
    browser.get_log("browser")  # what earlier tests left
    open_text(browser, server, EXAMPLE_BATTLE.read_text(encoding="utf-8"))
    click(browser, "#battle-btn")
    wait(browser, lambda d: d.find_element(By.ID, "step-label").text.startswith("Before the battle"))
    click(browser, '#armies [data-army="neojungle"]')
    severe = [entry["message"] for entry in browser.get_log("browser") if entry["level"] == "SEVERE"]
    assert not severe


@pytest.mark.skipif(not Path("/proc/self/stat").exists(), reason="counts the server's processes in /proc")
def test_stop_ends_a_long_solve_and_its_process(browser, server):
    open_text(browser, server, (ROOT / "bench/scale-play2.nhex").read_text(encoding="utf-8"))
    click(browser, "#solve-btn")
    click(browser, "#solve-go")
    wait(browser, lambda d: "enumerating" in d.find_element(By.ID, "solve-stage").text
         or "playing out" in d.find_element(By.ID, "solve-stage").text)
    assert job_processes(server_pids[server])
    click(browser, "#solve-stop")
    wait(browser, lambda d: d.find_element(By.ID, "verdict").text == "stopped: nothing proven")
    wait(browser, lambda d: not job_processes(server_pids[server]), seconds=5)
    assert browser.find_element(By.ID, "solve-go").is_enabled()


def test_the_page_fits_a_phone(browser, server):
    browser.execute_cdp_cmd("Emulation.setDeviceMetricsOverride",
                            {"width": 390, "height": 844, "deviceScaleFactor": 1, "mobile": True})
    try:
        open_text(browser, server, CARD_12.read_text(encoding="utf-8"))
        assert browser.execute_script("return document.documentElement.scrollWidth") <= 390
        board = browser.find_element(By.ID, "board").rect
        assert board["width"] >= 300 and board["y"] < 200  # the board comes first, across the screen
    finally:
        browser.execute_cdp_cmd("Emulation.clearDeviceMetricsOverride", {})


if os.environ.get("NHEX_SCREENSHOTS"):  # for a person to look at: NHEX_SCREENSHOTS=DIR pytest tests/test_web_browser.py
    def test_screenshots(browser, server):
        folder = Path(os.environ["NHEX_SCREENSHOTS"])
        folder.mkdir(parents=True, exist_ok=True)
        open_text(browser, server, CARD_12.read_text(encoding="utf-8"))
        browser.save_screenshot(str(folder / "laptop.png"))
