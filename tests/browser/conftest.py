"""One headless Chromium per test module, and a helper that opens a widget export in it."""

from __future__ import annotations

import re
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import pytest

CHROMIUM = Path("/usr/bin/chromium")
CHROMIUM_ARGS = ["--headless", "--no-sandbox", "--disable-gpu", "--no-first-run",
                 "--disable-background-networking", "--disable-component-update", "--disable-sync"]


@dataclass
class Rendered:
    """An exported page open in the browser, with what it logged."""

    page: Any
    path: Path
    errors: list[str] = field(default_factory=list)
    requests: list[str] = field(default_factory=list)

    def assert_clean(self) -> None:
        assert self.errors == [], f"the page logged JavaScript errors: {self.errors}"
        assert self.requests == [], f"the page reached for the network: {self.requests}"
        assert self.page.evaluate("document.body.dataset.wbFailed") == "0"


@pytest.fixture(scope="module")
def browser() -> Iterator[Any]:
    if not CHROMIUM.exists():
        pytest.fail(f"{CHROMIUM} is missing: the browser tests need Debian's chromium package "
                    "(apt-get install chromium), which the test setup installs")
    from playwright.sync_api import sync_playwright

    with sync_playwright() as playwright:
        instance = playwright.chromium.launch(executable_path=str(CHROMIUM), args=CHROMIUM_ARGS)
        yield instance
        instance.close()


@pytest.fixture
def open_export(browser: Any, tmp_path: Path) -> Iterator[Callable[..., Rendered]]:
    """``open_export(widgets, name)``: export with ``export_html`` and open the page."""
    from workbench.widgets import export_html

    pages = []

    def render(widgets: Any, name: str = "widgets") -> Rendered:
        path = export_html(widgets, tmp_path / f"{name}.html", title=name)
        page = browser.new_page(viewport={"width": 1200, "height": 900})
        pages.append(page)
        rendered = Rendered(page, path)
        page.on("console", lambda m: rendered.errors.append(m.text) if m.type == "error" else None)
        page.on("pageerror", lambda e: rendered.errors.append(str(e)))

        def refuse(route: Any) -> None:
            rendered.requests.append(route.request.url)
            route.abort()

        page.route(re.compile(r"^(https?|wss?)://"), refuse)
        page.goto(path.as_uri())
        page.wait_for_function("document.body.dataset.wbRendered !== undefined", timeout=15_000)
        return rendered

    yield render
    for page in pages:
        page.close()
