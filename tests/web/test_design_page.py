"""The design page served by uvicorn, in a real headless Chromium: a designer paints a
board, checks its par (or cancels the check, or leaves the page), opens files and saves
them."""

from __future__ import annotations

import contextlib
import multiprocessing
import os
import shutil
import socket
import threading
import time

import pytest
from starlette.applications import Starlette

from kamicp.formats import registry
from kamicp.web import drafts
from tests.web.test_design import PUZ, design_app, hard_board


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]


@contextlib.contextmanager
def serving(app: Starlette):
    """``app`` served by uvicorn in a thread; its URL."""
    import uvicorn  # only the browser tests need a real server

    port = free_port()
    server = uvicorn.Server(uvicorn.Config(app, port=port, log_level="warning"))
    thread = threading.Thread(target=server.run, daemon=True)
    thread.start()
    end = time.monotonic() + 20
    while not server.started and time.monotonic() < end:
        time.sleep(0.05)
    assert server.started, "uvicorn did not start"
    try:
        yield f"http://127.0.0.1:{port}"
    finally:
        server.should_exit = True
        thread.join(10)


@pytest.fixture(scope="module")
def served():
    with serving(design_app()) as url:
        yield url


@pytest.fixture(scope="module")
def downloads(tmp_path_factory):
    return tmp_path_factory.mktemp("downloads")


@pytest.fixture(scope="module")
def chrome(downloads):
    """A headless Chromium driven by Selenium; skipped when none is installed, unless
    KAMICP_BROWSER=required."""
    chromium = shutil.which("chromium") or shutil.which("chromium-browser")
    driver_path = shutil.which("chromedriver")
    if not (chromium and driver_path):
        if os.environ.get("KAMICP_BROWSER") == "required":
            pytest.fail("KAMICP_BROWSER=required but chromium or chromedriver is missing")
        pytest.skip("the browser tests need chromium and chromedriver on the PATH")
    from selenium import webdriver  # only the browser tests need Selenium
    from selenium.webdriver.chrome.service import Service

    options = webdriver.ChromeOptions()
    options.binary_location = chromium
    for flag in ("--headless=new", "--no-sandbox", "--disable-dev-shm-usage"):
        options.add_argument(flag)
    options.add_argument("--window-size=1200,900")
    options.add_experimental_option(
        "prefs",
        {"download.default_directory": str(downloads), "download.prompt_for_download": False},
    )
    driver = webdriver.Chrome(service=Service(driver_path), options=options)
    driver.execute_cdp_cmd(
        "Browser.setDownloadBehavior", {"behavior": "allow", "downloadPath": str(downloads)}
    )
    yield driver
    driver.quit()


def wait_for(condition, what: str, seconds: float = 30):
    end = time.monotonic() + seconds
    while time.monotonic() < end:
        found = condition()
        if found:
            return found
        time.sleep(0.05)
    raise AssertionError(f"waited {seconds} s for {what}")


class Page:
    """The design page in the browser, by the ids design.html gives its controls."""

    def __init__(self, driver, url: str):
        from selenium.webdriver.common.by import By

        self.driver, self.by = driver, By
        driver.get(f"{url}/design")
        wait_for(lambda: self.find("body").get_attribute("data-ready") == "true", "the page")

    def find(self, css: str):
        return self.driver.find_element(self.by.CSS_SELECTOR, css)

    def cell(self, i: int, j: int):
        return self.find(f'polygon[data-at="{i},{j}"]')

    def colours(self) -> dict:
        # one script, so a redraw cannot replace the cells while they are read
        return self.driver.execute_script(
            "return Object.fromEntries([...document.querySelectorAll('polygon.cell')]"
            ".map((c) => [c.dataset.at, c.dataset.colour]));"
        )

    def set(self, element_id: str, value) -> None:
        self.driver.execute_script(
            "const e = document.getElementById(arguments[0]); e.value = arguments[1];"
            "e.dispatchEvent(new Event('change'));",
            element_id,
            str(value),
        )

    def error(self) -> str:
        return self.find("#error").text

    def formats_ready(self) -> None:
        wait_for(lambda: self.find("#format").get_attribute("data-ready"), "the formats")

    def check(self) -> str:
        self.find("#check").click()
        verdict = self.find("#verdict")
        wait_for(
            lambda: verdict.get_attribute("data-verdict") not in ("busy", "") or self.error(),
            "the verdict",
            60,
        )
        assert self.error() == ""
        return verdict.text


def test_a_designer_paints_checks_par_and_downloads(chrome, served, downloads):
    from selenium.webdriver import ActionChains

    page = Page(chrome, served)
    page.set("rows", 3)
    page.set("columns", 3)
    wait_for(lambda: len(page.colours()) == 9, "a 3 x 3 board")
    assert set(page.colours().values()) == {"0"}
    page.set("colour-count", 2)
    page.set("colour-count", 3)  # the third colour comes back with a fresh name and colour
    wait_for(lambda: len(page.driver.find_elements(page.by.CSS_SELECTOR, ".swatch")) == 3, "3")
    assert page.find('.swatch[data-index="2"] .colour-name').get_attribute("value") == "3"
    page.find('.swatch[data-index="1"] .pick').click()
    ActionChains(chrome).click_and_hold(page.cell(0, 1)).move_to_element(
        page.cell(1, 1)
    ).release().perform()  # a drag paints every cell it crosses
    page.find('.swatch[data-index="2"] .pick').click()
    page.cell(2, 2).click()
    page.find("#tool-hole").click()
    page.cell(0, 2).click()
    assert page.colours() == {
        "0,0": "0", "0,1": "1", "0,2": "hole",
        "1,0": "0", "1,1": "1", "1,2": "0",
        "2,0": "0", "2,1": "0", "2,2": "2",
    }  # fmt: skip
    page.set("par", 2)
    assert page.check() == "par confirmed: 2 moves is the optimum"
    page.set("par", 1)
    assert page.check() == "par too low: no solution in 1 move (the optimum is 2)"
    page.formats_ready()
    page.set("format", "grid")
    page.find("#download").click()
    saved = wait_for(lambda: list(downloads.glob("design*.txt")), "the download")
    assert saved[0].read_text() == "name: design\npar: 1\noptimum: 2\n12.\n121\n113\n"


def test_a_kami2_level_opens_and_a_bad_file_says_why(chrome, served, tmp_path):
    page = Page(chrome, served)
    level = sorted(PUZ.glob("*.puz"))[0]
    page.find("#open-file").send_keys(str(level))
    wait_for(lambda: page.find("#geometry").get_attribute("value") == "kami2", "the level")
    [board] = registry.parse(level.read_text(), str(level))
    top = min(2 * p + s + r for r, p, s in board.cells)  # the highest drawn line
    expected = {
        ",".join(map(str, drafts.position("kami2", cell, top))): str(c)
        for cell, c in board.cells.items()
    }

    def painted():
        return {at: c for at, c in page.colours().items() if c != "hole"}

    # the geometry is set before the cells are painted: wait for the paint, not the field
    wait_for(lambda: painted() == expected, "the level's colours")
    # upright, as the play page draws it: entry j of every strip on one drawn line
    lines = chrome.execute_script(
        "return [...document.querySelectorAll('polygon.cell')]"
        ".map((c) => [c.dataset.at.split(',')[1], c.getBBox().y + c.getBBox().height / 2]);"
    )
    heights = {}
    for j, y in lines:
        heights.setdefault(j, []).append(y)
    assert len(heights) > 1 and all(max(h) - min(h) < 0.01 for h in heights.values())
    bad = tmp_path / "bad.txt"
    bad.write_text("RG\nR\n")
    page.find("#open-file").send_keys(str(bad))
    wait_for(page.error, "the error line")
    assert page.error() == "bad.txt:2: ragged row: 1 cells, the first row has 2"


def test_fill_undo_pivot_and_resize(chrome, served):
    from selenium.webdriver import ActionChains

    page = Page(chrome, served)
    page.set("rows", 2)
    page.set("columns", 3)
    wait_for(lambda: len(page.colours()) == 6, "a 2 x 3 board")
    page.find('.swatch[data-index="1"] .pick').click()
    page.cell(0, 0).click()
    page.find("#tool-fill").click()
    ActionChains(chrome).send_keys("3").perform()  # keys 1 to 9 pick colours
    assert page.find(".swatch.chosen").get_attribute("data-index") == "2"
    page.cell(1, 2).click()  # the patch of colour 0: every cell but 0,0
    filled = {"0,0": "1", "0,1": "2", "0,2": "2", "1,0": "2", "1,1": "2", "1,2": "2"}
    assert page.colours() == filled
    page.find("#undo").click()
    wait_for(lambda: page.colours()["1,2"] == "0", "the undo")
    assert sorted(page.colours().values()) == ["0"] * 5 + ["1"]
    page.set("colour-count", 1)
    wait_for(page.error, "the refusal")
    assert page.error() == "colour 2 is on the board: paint over it first"
    assert page.find("#colour-count").get_attribute("value") == "3"
    page.set("rules", "pivot")
    page.find("#tool-pivot").click()
    page.cell(1, 1).click()
    assert page.find("#board").get_attribute("data-pivot") == "1,1"
    # the board is drawn as the play page draws one (board.js): the ring on the pivot's cell
    ring = page.find("#board g.cells ~ circle.pivot")
    box = page.cell(1, 1).rect
    middle = (ring.rect["x"] + ring.rect["width"] / 2, ring.rect["y"] + ring.rect["height"] / 2)
    assert box["x"] < middle[0] < box["x"] + box["width"]
    assert box["y"] < middle[1] < box["y"] + box["height"]
    page.set("rows", 1)
    page.set("columns", 2)
    wait_for(lambda: len(page.colours()) == 2, "a 1 x 2 board")
    assert page.colours() == {"0,0": "1", "0,1": "0"}  # what still fits is kept
    assert page.find("#board").get_attribute("data-pivot") == "0,0"  # 1,1 is gone
    page.set("rows", 2)
    wait_for(lambda: len(page.colours()) == 4, "a 2 x 2 board")
    for half_typed in ("", 0, 99):  # not a size yet: nothing is asked, nothing refused
        page.set("rows", half_typed)
        time.sleep(0.3)
        assert page.error() == "" and len(page.colours()) == 4
    page.set("rows", 2)

    def enabled():
        return chrome.execute_script(
            "return [...document.querySelectorAll('#format option')]"
            ".filter((o) => !o.disabled).map((o) => o.value);"
        )

    # flood text also needs a par; the other Flood-It formats hold a hole-free square
    wait_for(lambda: enabled() == ["grid", "json", "floodit99", "digits"], "the formats")


def test_a_kami2_design_keeps_its_strips_level_as_it_grows(chrome, served):
    page = Page(chrome, served)
    page.set("rows", 3)
    page.set("columns", 4)
    page.set("geometry", "kami2")
    wait_for(lambda: page.find("#kami2-note").is_displayed(), "the KAMI 2 note")
    wait_for(lambda: len(page.colours()) == 12, "3 strips of 4")
    page.set("rows", 5)  # two strips more, level with the others: their top entries are off
    wait_for(lambda: len(page.colours()) == 17, "5 strips")
    assert "4,0" not in page.colours() and "4,2" in page.colours()
    page.find('.swatch[data-index="1"] .pick').click()
    page.cell(4, 2).click()  # painted, and the design still reads: the cells off are null
    wait_for(lambda: page.colours()["4,2"] == "1", "the paint")
    assert page.error() == ""


def test_a_check_can_be_cancelled(chrome, served, tmp_path):
    page = Page(chrome, served)
    level = tmp_path / "hard.txt"
    level.write_text(registry.dump(hard_board(), "grid"))
    page.find("#open-file").send_keys(str(level))
    wait_for(lambda: len(page.colours()) == 100, "the 10 x 10 board")
    page.set("time-limit", 120)
    before = {child.pid for child in multiprocessing.active_children()}
    page.find("#check").click()
    proof = page.find("#proof")
    wait_for(lambda: proof.text.startswith("proved so far: at least"), "the bounds so far")
    # the proof's child, forked by the server (which runs in a thread of this process)
    proving = {child.pid for child in multiprocessing.active_children()} - before
    assert proving
    page.find("#check").click()  # it reads Cancel while the check runs
    verdict = page.find("#verdict")
    wait_for(lambda: verdict.get_attribute("data-verdict") == "cancelled", "the cancel")
    assert verdict.text == "check cancelled" and page.find("#check").text == "Check par"

    def stopped():
        return not proving & {child.pid for child in multiprocessing.active_children()}

    wait_for(stopped, "the proof to stop", 10)


def test_a_page_that_goes_away_cancels_its_check(chrome, served, tmp_path):
    page = Page(chrome, served)
    level = tmp_path / "hard.txt"
    level.write_text(registry.dump(hard_board(), "grid"))
    page.find("#open-file").send_keys(str(level))
    wait_for(lambda: len(page.colours()) == 100, "the 10 x 10 board")
    page.set("time-limit", 120)
    before = {child.pid for child in multiprocessing.active_children()}
    page.find("#check").click()
    wait_for(lambda: page.find("#proof").text.startswith("proved so far"), "the bounds so far")
    proving = {child.pid for child in multiprocessing.active_children()} - before
    assert proving
    chrome.get("about:blank")  # the page goes: it cancels the jobs it left running

    def stopped():
        return not proving & {child.pid for child in multiprocessing.active_children()}

    wait_for(stopped, "the proof to stop", 10)


def test_saving_to_the_opened_file_asks_first(chrome, downloads, tmp_path):
    path = tmp_path / "level.txt"
    path.write_text("par: 2\noptimum: 2\nRG\nGB\n")
    with serving(design_app(str(path))) as url:
        page = Page(chrome, url)
        assert page.find("#name").get_attribute("value") == "level"
        assert page.find("#proof").text == "the file records a proved optimum of 2 moves"
        page.formats_ready()
        page.set("format", "grid")
        page.find("#download").click()  # unchanged, the board keeps its optimum
        downloaded = wait_for(lambda: list(downloads.glob("level*.txt")), "the download")
        assert "optimum: 2\n" in downloaded[0].read_text()
        assert page.colours() == {"0,0": "2", "0,1": "1", "1,0": "1", "1,1": "0"}
        page.cell(0, 1).click()  # paints colour 0, B
        page.formats_ready()
        page.find("#write").click()
        alert = wait_for(lambda: _alert(chrome), "the question")
        assert alert.text == f"{path} exists: overwrite it?"
        alert.dismiss()
        wait_for(page.error, "the refusal")
        assert page.error() == f"not saved: {path} is unchanged"
        assert path.read_text() == "par: 2\noptimum: 2\nRG\nGB\n"
        page.find("#write").click()
        wait_for(lambda: _alert(chrome), "the question").accept()
        wait_for(lambda: page.find("#verdict").text == f"saved to {path}", "the save")
        assert path.read_text() == "name: level\npar: 2\nRB\nGB\n"  # an edit drops the optimum


def _alert(driver):
    from selenium.common.exceptions import NoAlertPresentException

    try:
        return driver.switch_to.alert  # asks the browser for its text: raises without one
    except NoAlertPresentException:
        return None
