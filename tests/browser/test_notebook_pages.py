"""Every committed Jupyter notebook, rendered with nbconvert and read offline in headless Chromium.

A notebook's saved outputs are what a reader without a kernel sees (a repository's viewer, an
HTML export). Each chart and widget is displayed with ``workbench.widgets.show``, which saves a
static copy beside the live output; this file checks that the copies are there and draw, that
no output area is blank, and that the page asks nothing of the network.
"""

from __future__ import annotations

import json
import re
from pathlib import Path
from typing import Any

import nbformat
import pytest
from nbconvert import HTMLExporter

pytestmark = pytest.mark.slow

NOTEBOOKS = sorted((Path(__file__).resolve().parents[2] / "notebooks").glob("*.ipynb"))
STATE_MIME = "application/vnd.jupyter.widget-state+json"
LIVE_ONLY = ("application/vnd.plotly.v1+json", "application/vnd.jupyter.widget-view+json")


def render_offline(notebook: Path, out: Path) -> Path:
    """The notebook as an HTML page whose own scaffolding fetches nothing.

    nbconvert's page loads require.js and MathJax from a CDN whatever the notebook holds; both
    are pointed at an empty inline script, so what remains is the notebook's own outputs.
    """
    exporter = HTMLExporter(template_name="lab")
    exporter.require_js_url = "data:text/javascript,"
    exporter.mathjax_url = "data:text/javascript,"
    body, _ = exporter.from_notebook_node(nbformat.read(notebook, as_version=4))
    out.write_text(body, encoding="utf-8")
    return out


@pytest.mark.parametrize("notebook", NOTEBOOKS, ids=[p.stem for p in NOTEBOOKS])
def test_saved_outputs_have_a_static_copy(notebook: Path) -> None:
    nb = json.loads(notebook.read_text(encoding="utf-8"))
    # saved widget state makes nbconvert pick the live view and load its manager from a CDN
    assert STATE_MIME not in nb["metadata"].get("widgets", {}), \
        "execute with --ExecutePreprocessor.store_widget_state=False (make notebooks)"
    for cell in nb["cells"]:
        for output in cell.get("outputs", []):
            data = output.get("data", {})
            if any(mime in data for mime in LIVE_ONLY):
                assert "image/svg+xml" in data or "text/html" in data, \
                    f"a live output without a static copy in {notebook.name}: {sorted(data)}"


@pytest.mark.parametrize("notebook", NOTEBOOKS, ids=[p.stem for p in NOTEBOOKS])
def test_rendered_page_shows_every_output_offline(notebook: Path, browser: Any,
                                                  tmp_path: Path) -> None:
    path = render_offline(notebook, tmp_path / f"{notebook.stem}.html")
    page = browser.new_page(viewport={"width": 1200, "height": 900})
    requests: list[str] = []
    errors: list[str] = []
    page.on("pageerror", lambda e: errors.append(str(e)))

    def refuse(route: Any) -> None:
        requests.append(route.request.url)
        route.abort()

    page.route(re.compile(r"^(https?|wss?|ftp)://"), refuse)
    page.goto(path.as_uri())
    page.wait_for_load_state("load")
    frames = page.locator("iframe.wb-snapshot")
    for i in range(frames.count()):
        frame = frames.nth(i).content_frame
        frame.locator("body[data-wb-rendered]").wait_for(state="attached", timeout=20_000)
        assert frame.locator("body").get_attribute("data-wb-failed") == "0"
        assert frame.locator("body").get_attribute("data-wb-rendered") == "1"
        assert frames.nth(i).bounding_box()["height"] > 120, "the snapshot frame did not grow"
    blank = page.evaluate("""() => [...document.querySelectorAll('.jp-OutputArea-output')]
        .filter((el) => el.getBoundingClientRect().height < 4
                        || (!el.innerText.trim() && !el.querySelector('svg, img, iframe')))
        .map((el) => el.outerHTML.slice(0, 160))""")
    page.screenshot(path=str(tmp_path / f"{notebook.stem}.png"), full_page=True)
    page.close()
    assert requests == [], f"the page reached for the network: {requests}"
    assert errors == [], f"the page raised: {errors}"
    assert blank == [], f"blank outputs: {blank}"
