"""The HTML report in real headless Chromium: charts render offline, no script errors."""

from __future__ import annotations

import re
import time
from pathlib import Path
from typing import Any

import pandas as pd
import pytest

from workbench.report import build_report
from workbench.runs import write_run

GATES = ["gate0", "threshold", "disagreement", "relevance", "verbatim"]


def _records(root: Path) -> None:
    rows = []
    for number, (name, fires, gold) in enumerate([("in_corpus", "answered", True),
                                                  ("in_corpus", "threshold", True),
                                                  ("out_of_corpus", "gate0", False),
                                                  ("relevance_traps", "relevance", False)]):
        row = {"id": f"q{number}", "set": name, "split": "dev", "question": f"вопрос {number}",
               "n_hits": 1, "top_is_gold": gold, "top_score": 0.9}
        row.update({f"wf_{g}": g == fires for g in GATES})
        row.update({f"rule_{r}": fires == "relevance" and r == "entities"
                    for r in ("entities", "lang-match", "term-coverage")})
        rows.append(row)
    write_run("gates", pd.DataFrame(rows), results_dir=root,
              extra={"order": GATES, "mode": "bi-encoder"})
    write_run("answers", pd.DataFrame({"id": ["q0"], "set": ["in_corpus"], "mode": ["A"],
                                       "leak": [False], "leak_reason": [""]}),
              results_dir=root, extra={"mode": "bi-encoder"})
    ids = ["t0", "t1", "t2"]
    write_run("routers", pd.DataFrame({"router": ["rule"] * 3 + ["base"] * 3, "id": ids * 2,
                                       "correct": [True, True, False, False, True, True]}),
              results_dir=root, extra={"routers": ["rule", "base"]},
              summary={"rule": {"items": 3, "source_accuracy": 2 / 3},
                       "base": {"items": 3, "source_accuracy": 2 / 3}})
    write_run("drift", pd.DataFrame({"fragment_id": ["f1", "f2"], "path": ["a.md", "b.md"],
                                     "status": ["match", "changed"]}), results_dir=root)
    write_run("negative_control", pd.DataFrame({
        "kind": ["quote_char_changed", "utility_invented_id"], "source": ["quote", "utility"],
        "number": [0, 0], "caught": [True, False], "invariant": ["quote_verbatim", ""]}),
        results_dir=root)


@pytest.mark.slow
def test_report_renders_offline_in_chromium(browser: Any, tmp_path: Path) -> None:
    _records(tmp_path / "results")
    path = build_report(tmp_path / "results")
    page = browser.new_page(viewport={"width": 1280, "height": 900})
    errors: list[str] = []
    requests: list[str] = []
    page.on("console", lambda m: errors.append(m.text) if m.type == "error" else None)
    page.on("pageerror", lambda e: errors.append(str(e)))

    def refuse(route: Any) -> None:
        requests.append(route.request.url)
        route.abort()

    page.route(re.compile(r"^(https?|wss?)://"), refuse)
    try:
        page.goto(path.as_uri())
        page.wait_for_selector(".plotly-graph-div .main-svg", timeout=15_000)
        charts = page.locator(".plotly-graph-div")
        assert charts.count() == 4  # gates, routers, drift, negative control
        for index in range(charts.count()):
            assert charts.nth(index).locator(".main-svg").count() >= 1
        assert page.locator(".plotly-graph-div .bars path").count() > 0  # bars were drawn
        assert page.locator("section#leakage h2").inner_text().startswith("Leakage")
        assert page.locator("#banner-leakage.ok .big").inner_text() == "0"
        assert page.locator("#banner-selection .big").count() == 1  # wrong answers beside it
        # no section is wider than the page: wide tables scroll inside their own box
        overflow = page.evaluate("document.documentElement.scrollWidth > window.innerWidth")
        assert overflow is False
        page.screenshot(path=str(tmp_path / "report.png"), full_page=True)
    finally:
        page.close()
    assert errors == [], f"the report logged JavaScript errors: {errors}"
    assert requests == [], f"the report reached for the network: {requests}"
    assert (tmp_path / "report.png").stat().st_size > 10_000


LOAD_LIMIT_S = 2.0
"""The longest a report may take to load in Chromium, and to draw every chart."""


@pytest.mark.slow
def test_report_loads_within_two_seconds(browser: Any, tmp_path: Path) -> None:
    _records(tmp_path / "results")
    path = build_report(tmp_path / "results")
    assert path.stat().st_size < 2.5e6  # plotly.js packed once, the data compact
    page = browser.new_page(viewport={"width": 1280, "height": 900})
    try:
        page.goto(path.as_uri(), wait_until="load")  # warm the browser's caches once
        timings = []
        for _ in range(3):
            started = time.perf_counter()
            page.goto(path.as_uri(), wait_until="load")
            loaded = time.perf_counter() - started
            page.wait_for_function("document.body.dataset.wbCharts === 'drawn'", timeout=15_000)
            timings.append((loaded, time.perf_counter() - started))
        loaded, drawn = min(timings)
        assert loaded <= LOAD_LIMIT_S, f"the page took {loaded:.2f} s to load"
        assert drawn <= LOAD_LIMIT_S, f"the charts took {drawn:.2f} s to draw"
        assert page.locator(".plotly-graph-div .main-svg").count() >= 4
    finally:
        page.close()
