"""docs/extending.md runs: a stale snippet there fails the suite.

The page is worked through in an empty temporary folder, top to bottom: a fenced block whose
info string names a file after its language (```` ```python stages.py ````) is written to that
file (appended when the name comes again), and every plain ```` ```python ```` block is executed,
in order, in one namespace, with that folder as the current one. What the page registers, the
modules it imports and the ``sys.path`` entry its settings add are all taken back afterwards.
"""

from __future__ import annotations

import os
import re
import sys
from collections.abc import Iterator
from pathlib import Path

import pytest

from workbench import registry

PAGE = Path(__file__).resolve().parents[2] / "docs" / "extending.md"
_FENCE = re.compile(r"^```([^\n`]*)\n(.*?)^```[ \t]*$", re.MULTILINE | re.DOTALL)


def blocks(text: str) -> list[tuple[str, str | None, str]]:
    """``(language, file or None, body)`` of every fenced block of ``text``, in order."""
    found = []
    for match in _FENCE.finditer(text):
        info = match.group(1).split()
        language = info[0] if info else ""
        found.append((language, info[1] if len(info) > 1 else None, match.group(2)))
    return found


@pytest.fixture
def isolated(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[Path]:
    """An empty current folder; the registry, sys.path and sys.modules restored afterwards."""
    monkeypatch.chdir(tmp_path)
    monkeypatch.setattr(sys, "path", list(sys.path))
    monkeypatch.setattr(sys, "dont_write_bytecode", True)
    monkeypatch.delenv("WORKBENCH_CONFIG", raising=False)
    modules = set(sys.modules)
    with registry.restoring():
        yield tmp_path
    for name in set(sys.modules) - modules:
        module = sys.modules[name]
        file = getattr(module, "__file__", None) or ""
        if file and Path(file).resolve().is_relative_to(tmp_path.resolve()):
            del sys.modules[name]


def run_page(text: str, folder: Path) -> int:
    """Write the page's file blocks and execute its plain Python blocks; the count executed."""
    namespace: dict[str, object] = {"__name__": "docs_extending"}
    executed = 0
    for number, (language, file, body) in enumerate(blocks(text), start=1):
        if file is not None:
            target = folder / file
            target.parent.mkdir(parents=True, exist_ok=True)
            with target.open("a", encoding="utf-8") as handle:
                handle.write(body)
        elif language == "python":
            code = compile(body, f"{PAGE.name}, block {number}", "exec")
            exec(code, namespace)  # the page's own snippets, run as a reader would run them
            executed += 1
    return executed


def test_every_block_of_the_page_runs(isolated: Path) -> None:
    before = {kind: registry.names(kind) for kind in ("gate", "relevance_rule", "router")}
    executed = run_page(PAGE.read_text(encoding="utf-8"), isolated)
    assert executed >= 6
    assert (isolated / "stages.py").is_file() and (isolated / "workbench.toml").is_file()
    assert "short-question" in registry.names("gate") and "short-question" not in before["gate"]


def test_a_stale_snippet_fails(isolated: Path) -> None:
    text = "```python\nfrom workbench.gates import no_such_name\n```\n"
    with pytest.raises(ImportError):
        run_page(text, isolated)


def test_file_blocks_are_written_and_appended(isolated: Path) -> None:
    text = ("```python helper.py\nA = 1\n```\n\n```python helper.py\nB = 2\n```\n\n"
            "```python\nimport helper\nassert (helper.A, helper.B) == (1, 2)\n```\n")
    sys.path.insert(0, str(isolated))
    assert run_page(text, isolated) == 1
    assert (isolated / "helper.py").read_text(encoding="utf-8") == "A = 1\nB = 2\n"
    assert os.getcwd() == str(isolated)
