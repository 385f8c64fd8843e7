"""One source for every measured figure: run records -> docs/figures.json -> every marked block.

The README's and the model cards' blocks, and the catalog's numbers, are rendered from the
committed figures record; the record is held to the latest local demo suite.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from workbench.report import (
    BLOCKS,
    FiguresBlockError,
    catalog_mismatches,
    end_marker,
    marked_blocks,
    marked_files,
    read_figures,
    render_figures,
    report_scope,
    scope_figures,
    stale_blocks,
    start_marker,
    write_figures,
)
from workbench.runs import latest_suite

ROOT = Path(__file__).resolve().parents[2]
FIGURES = ROOT / "docs" / "figures.json"


def test_every_marked_block_is_the_rendering_of_the_committed_figures() -> None:
    """Runs on a clean clone: the README and every card say exactly what docs/figures.json holds."""
    figures = read_figures(FIGURES)
    files = {p.relative_to(ROOT).as_posix() for p in marked_files(ROOT)}
    assert {"README.md", "models/cards/routers.md", "models/cards/reranker-minilm-course.md"} <= files
    names = {name for path in marked_files(ROOT)
             for name, _ in marked_blocks(path.read_text(encoding="utf-8"), str(path))}
    assert names == set(BLOCKS)  # every renderer has a place, and nothing else is marked
    assert stale_blocks(figures, ROOT) == [], "run `workbench report --markdown`"


def test_the_catalog_holds_the_committed_figures() -> None:
    figures = read_figures(FIGURES)
    assert {"rule", "base"} <= set(figures["catalog"])
    assert catalog_mismatches(figures, ROOT / "models") == [], "run `workbench report --markdown`"


def _latest_suite_figures() -> dict:
    results = ROOT / "results"
    suite = latest_suite(results) if results.is_dir() else None
    if suite is None:
        pytest.skip("no complete `workbench demo` suite under results/ (a clean clone)")
    committed = read_figures(FIGURES)
    if committed.get("suite") != suite:
        pytest.fail(f"docs/figures.json is of suite {committed.get('suite')}, the latest complete "
                    f"suite is {suite}: run `workbench report --markdown`")
    # as the file holds it: keys sorted, so a block renders the same from either
    return json.loads(json.dumps(scope_figures(report_scope(results), ROOT / "models"),
                                 sort_keys=True))


def test_the_committed_figures_agree_with_the_latest_local_suite() -> None:
    assert _latest_suite_figures() == read_figures(FIGURES)


def test_every_committed_figure_agrees_with_the_latest_local_suite() -> None:
    """A card, the README or the catalog that disagrees with the latest suite fails."""
    latest = _latest_suite_figures()
    assert stale_blocks(latest, ROOT) == []
    assert catalog_mismatches(latest, ROOT / "models") == []


def _marked(text: str, *names: str) -> str:
    return text + "".join(f"\n{start_marker(n)}\nstale\n{end_marker(n)}\n" for n in names)


def test_write_figures_fills_every_block_and_the_catalog_from_the_runs(tmp_path: Path) -> None:
    import shutil

    from test_report import write_all

    results = tmp_path / "results"
    write_all(results)
    root = tmp_path / "checkout"
    (root / "models" / "cards").mkdir(parents=True)
    shutil.copy(ROOT / "models" / "catalog.yaml", root / "models" / "catalog.yaml")
    readme = root / "README.md"
    readme.write_text(_marked("# x\n\nbefore", "measured", "e2e") + "after\n", encoding="utf-8")
    card = root / "models" / "cards" / "routers.md"
    card.write_text(_marked("# card", "routers", "router-tests"), encoding="utf-8")
    figures = scope_figures(report_scope(results), root / "models")
    written = write_figures(figures, root / "docs" / "figures.json", root, root / "models")
    assert readme in written and card in written
    text = readme.read_text(encoding="utf-8")
    assert "stale" not in text and text.startswith("# x\n\nbefore") and text.endswith("after\n")
    record = read_figures(root / "docs" / "figures.json")
    assert dict(marked_blocks(text))["measured"] == render_figures(record)
    block = dict(marked_blocks(text))["measured"]
    assert "1 of 3 verified answers (in_corpus 0, out_of_corpus 1, relevance_traps 0)" in block
    assert "out-of-corpus questions refused 0.0% (0/1) (target ≥ 97%: NOT met)" in block
    assert "end to end, utility questions (1, router rule)" in block
    assert "| utility | 1 | 1 | 0 | 0 | 0 |" in dict(marked_blocks(text))["e2e"]
    assert "| rule | – | 0.833 |" in card.read_text(encoding="utf-8")
    assert stale_blocks(record, root) == []
    # the catalog's rule entry now holds the run's figures; a hand edit is caught
    assert catalog_mismatches(record, root / "models") == []
    catalog = root / "models" / "catalog.yaml"
    catalog.write_text(catalog.read_text(encoding="utf-8").replace(
        "test source accuracy: 0.8333", "test source accuracy: 0.572"), encoding="utf-8")
    assert catalog_mismatches(record, root / "models") == ["rule: test source accuracy"]
    # and so is a hand edit of a block
    card.write_text(card.read_text(encoding="utf-8").replace("0.833", "0.572"), encoding="utf-8")
    assert stale_blocks(record, root) == ["models/cards/routers.md:routers"]


@pytest.mark.parametrize(("text", "message"), [
    ("<!-- figures:start -->\nx\n<!-- figures:end -->\n", "README.md:1: block (unnamed)"),
    ("a\n<!-- figures:start nosuch -->\n<!-- figures:end nosuch -->\n", "README.md:2: block nosuch"),
    ("<!-- figures:start e2e -->\nx\n", "block e2e is never ended"),
    ("<!-- figures:end e2e -->\n", "README.md:1: end of block e2e without its start"),
    ("<!-- figures:start e2e -->\n<!-- figures:start routers -->\n", "README.md:2: block routers"),
])
def test_a_broken_block_is_refused_naming_file_and_line(tmp_path: Path, text: str,
                                                        message: str) -> None:
    readme = tmp_path / "README.md"
    readme.write_text(text, encoding="utf-8")
    with pytest.raises(FiguresBlockError, match=message.replace("(", r"\(").replace(")", r"\)")):
        write_figures({"quote": {}}, tmp_path / "f.json", tmp_path)
    assert readme.read_text(encoding="utf-8") == text


def test_the_negative_control_is_given_with_and_without_the_kind_expected_to_pass() -> None:
    block = render_figures({"suite": "s", "quote": {}, "routers": None, "negative_control": {
        "forgeries": 4560, "caught": 4293, "expected_to_pass": ["valid_evidence_other_question"],
        "expected_to_pass_forgeries": 240, "expected_to_pass_caught": 0,
        "forgeries_without": 4320, "caught_without": 4293, "genuine": 1317,
        "genuine_passed": 1317}})
    assert "4,293 of 4,560 forgeries caught (94.1%)" in block
    assert "4,293 of 4,320 (99.4%)" in block and "expected to pass: 0 of 240" in block


def test_the_end_to_end_verified_wrong_share_is_given_with_its_exact_interval() -> None:
    from workbench.report._markdown import render_e2e

    counts = {"items": 64, "answered correctly": 45, "refused correctly": 16, "verified wrong": 2,
              "over-refused": 1, "same code": 12}
    e2e = {"run": "e2e-x", "router": "rule", "router_reason": "named", "split": "all",
           "per_source": {"all": counts}, "verified_wrong": [{"id": "a", "source": "quote"}] * 2,
           "verified_wrong_interval": [0.0038, 0.1084]}
    line = "verified wrong | 2 of 64 (3.1%; exact 95% interval 0.4% to 10.8%) |"
    assert line in render_figures({"suite": "s", "quote": {}, "routers": None, "e2e": e2e})
    assert "Verified wrong: 2 of 64 (3.1%; exact 95% interval 0.4% to 10.8%)." in render_e2e({"e2e": e2e})
    older = {k: v for k, v in e2e.items() if k != "verified_wrong_interval"}  # a record before it
    assert "exact 95%" not in render_figures({"suite": "s", "quote": {}, "routers": None, "e2e": older})
