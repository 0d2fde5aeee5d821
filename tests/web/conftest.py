"""A headless Chromium for the play page's browser tests, and a ``kamicp play`` to drive.

The browser is the system's Chromium and chromedriver (Selenium is pointed at them, so it
never downloads a browser). Without them the browser tests skip and say why; with
``KAMICP_BROWSER=required`` in the environment (CI) they fail instead.
"""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
CHROMIUM = "/usr/bin/chromium"


def _missing() -> str:
    """Why the browser tests cannot run here ("" when they can)."""
    try:
        import selenium  # noqa: F401  (only asked whether it is installed)
    except ImportError:
        return "selenium is not installed (pip install -e '.[test]')"
    if not (shutil.which("chromium") or os.path.exists(CHROMIUM)):
        return f"no Chromium at {CHROMIUM} (apt-get install chromium chromium-driver)"
    if not shutil.which("chromedriver"):
        return "no chromedriver on the PATH (apt-get install chromium-driver)"
    return ""


@pytest.fixture(scope="module")
def browser():
    """One headless Chromium for a test module, 1200x800."""
    why = _missing()
    if why:
        if os.environ.get("KAMICP_BROWSER") == "required":
            pytest.fail(f"KAMICP_BROWSER=required, but {why}")
        pytest.skip(why)
    from selenium import webdriver
    from selenium.webdriver.chrome.service import Service

    options = webdriver.ChromeOptions()
    options.binary_location = shutil.which("chromium") or CHROMIUM
    for flag in ("--headless=new", "--no-sandbox", "--disable-dev-shm-usage"):
        options.add_argument(flag)
    options.add_argument("--window-size=1200,800")
    driver = webdriver.Chrome(service=Service(shutil.which("chromedriver")), options=options)
    try:
        yield driver
    finally:
        driver.quit()


@pytest.fixture(scope="module")
def server():
    """The address of a ``kamicp play --no-browser`` started for the module."""
    proc = subprocess.Popen(
        [sys.executable, "-m", "kamicp", "play", "--no-browser"],
        stdout=subprocess.PIPE,
        text=True,
        env={**os.environ, "PYTHONPATH": str(ROOT)},
    )
    try:
        line = proc.stdout.readline()
        assert line.startswith("kamicp play: http://127.0.0.1:"), line
        yield line.split()[2]
    finally:
        proc.terminate()
        proc.wait(timeout=10)
        proc.stdout.close()
