"""The README's pictures of the play page, taken in a headless Chromium at 1200x800.

    python bench/screenshots.py [OUT]

Starts ``kamicp play --no-browser``, then saves into OUT (default ``docs/``):

- ``play-kami2.png``: the KAMI 2 level ``puzzles/puz/islands.puz`` one optimal move in,
  with a hint shown (the region outlined, the colour's swatch marked, the moves left);
- ``play-hex.png``: ``puzzles/hex/blobs.txt`` solved by the page's Solve button, the proof
  line shown, the solution stopped two moves in.

Needs Chromium and chromedriver (``apt-get install chromium chromium-driver``) and Selenium.
"""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
import time
from pathlib import Path

import kamicp
from kamicp.game.regions import region_graph

__all__ = ["FADE", "ROOT", "SIZE", "browser", "main", "shoot"]

ROOT = Path(__file__).resolve().parents[1]
SIZE = (1200, 800)
FADE = 0.6  # seconds: the cells' colour transition (0.35 s in style.css) has ended by then


def browser():
    """A headless Chromium of :data:`SIZE`, driven through the system's chromedriver."""
    from selenium import webdriver  # only this script and the browser tests need Selenium
    from selenium.webdriver.chrome.service import Service

    options = webdriver.ChromeOptions()
    for flag in ("--headless=new", "--no-sandbox", "--disable-dev-shm-usage"):
        options.add_argument(flag)
    options.add_argument("--hide-scrollbars")
    driver = webdriver.Chrome(service=Service(shutil.which("chromedriver")), options=options)
    driver.set_window_size(*SIZE)
    # the window's size includes the browser's frame: make the page itself SIZE
    inner = driver.execute_script("return [window.innerWidth, window.innerHeight]")
    driver.set_window_size(2 * SIZE[0] - inner[0], 2 * SIZE[1] - inner[1])
    return driver


def _until(driver, script: str, seconds: float = 120):
    from selenium.webdriver.support.ui import WebDriverWait

    WebDriverWait(driver, seconds, poll_frequency=0.1).until(lambda d: d.execute_script(script))


def _open(driver, url: str, path: Path) -> None:
    driver.get(url)
    _until(driver, "return document.body.dataset.ready === 'true'")
    driver.find_element("id", "file").send_keys(str(path))
    _until(driver, f"return document.getElementById('title').textContent.includes({path.stem!r})")


def shoot(driver, url: str, out: Path) -> list[Path]:
    """Take both pictures with ``driver`` from the page at ``url``; answer their paths."""
    level = ROOT / "puzzles" / "puz" / "islands.puz"
    board = kamicp.load(level)
    g = region_graph(board)
    region, colour = kamicp.solve(board, "bfs").solution[0]
    _open(driver, url, level)
    driver.find_elements("css selector", ".swatch")[colour].click()
    cell = board.order.index(g.cells[region][0])
    driver.find_element("css selector", f'#board .cell[data-cell="{cell}"]').click()
    _until(driver, "return document.getElementById('status').dataset.used === '1'")
    driver.find_element("id", "hint").click()
    _until(driver, "return document.getElementById('hint-text').dataset.movesLeft !== undefined")
    time.sleep(FADE)
    kami2 = out / "play-kami2.png"
    driver.save_screenshot(str(kami2))

    _open(driver, url, ROOT / "puzzles" / "hex" / "blobs.txt")
    driver.find_element("id", "solve").click()
    _until(driver, "return document.getElementById('status').dataset.used === '2'")
    driver.find_element("id", "stop").click()
    time.sleep(FADE)
    hexes = out / "play-hex.png"
    driver.save_screenshot(str(hexes))
    return [kami2, hexes]


def main(argv: list[str] | None = None) -> int:
    """Start the page, take the pictures, stop the page; print where they went."""
    argv = sys.argv[1:] if argv is None else argv
    out = Path(argv[0]) if argv else ROOT / "docs"
    out.mkdir(parents=True, exist_ok=True)
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    server = subprocess.Popen(
        [sys.executable, "-m", "kamicp", "play", "--no-browser"],
        stdout=subprocess.PIPE,
        text=True,
        env=env,
    )
    driver = None
    try:
        url = server.stdout.readline().split()[2]
        driver = browser()
        for path in shoot(driver, url, out):
            print(f"{path}: {path.stat().st_size // 1024} kB")
    finally:
        if driver is not None:
            driver.quit()
        server.terminate()
        server.wait()
    return 0


if __name__ == "__main__":
    sys.exit(main())
