"""One source for every measured figure: run records -> docs/figures.json -> the README block."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from workbench.report import (
    END,
    START,
    FiguresBlockError,
    read_figures,
    readme_block,
    render_figures,
    report_scope,
    scope_figures,
    write_figures,
)
from workbench.runs import latest_suite

ROOT = Path(__file__).resolve().parents[2]
FIGURES = ROOT / "docs" / "figures.json"


def test_the_readme_block_is_the_rendering_of_the_committed_figures() -> None:
    """Runs on a clean clone: the README says exactly what docs/figures.json holds."""
    block = readme_block((ROOT / "README.md").read_text(encoding="utf-8"))
    assert block == render_figures(read_figures(FIGURES))


def test_the_committed_figures_agree_with_the_latest_local_suite() -> None:
    results = ROOT / "results"
    suite = latest_suite(results) if results.is_dir() else None
    if suite is None:
        pytest.skip("no complete `workbench demo` suite under results/ (a clean clone)")
    committed = read_figures(FIGURES)
    if committed.get("suite") != suite:
        pytest.fail(f"docs/figures.json is of suite {committed.get('suite')}, the latest complete "
                    f"suite is {suite}: run `workbench report --markdown`")
    assert json.loads(json.dumps(scope_figures(report_scope(results)))) == committed


def test_write_figures_fills_the_block_from_the_runs(tmp_path: Path) -> None:
    from test_report import write_all

    results = tmp_path / "results"
    write_all(results)
    readme = tmp_path / "README.md"
    readme.write_text(f"# x\n\nbefore\n{START}\nstale\n{END}\nafter\n", encoding="utf-8")
    figures = scope_figures(report_scope(results))
    block = write_figures(figures, tmp_path / "docs" / "figures.json", readme)
    text = readme.read_text(encoding="utf-8")
    assert "stale" not in text and text.startswith("# x\n\nbefore\n") and text.endswith("after\n")
    assert readme_block(text) == block == render_figures(read_figures(tmp_path / "docs" / "figures.json"))
    assert "1 of 3 verified answers (in_corpus 0, out_of_corpus 1, relevance_traps 0)" in block
    assert "out-of-corpus questions refused 0.0% (0/1) (target ≥ 97%: NOT met)" in block
    assert "rule vs base: b=" not in block or "p=" in block


def test_a_readme_without_markers_is_refused(tmp_path: Path) -> None:
    readme = tmp_path / "README.md"
    readme.write_text("# no block\n", encoding="utf-8")
    with pytest.raises(FiguresBlockError):
        write_figures({"quote": {}}, tmp_path / "f.json", readme)
    assert readme.read_text(encoding="utf-8") == "# no block\n"


def test_the_negative_control_is_given_with_and_without_the_kind_expected_to_pass() -> None:
    block = render_figures({"suite": "s", "quote": {}, "routers": None, "negative_control": {
        "forgeries": 4560, "caught": 4293, "expected_to_pass": ["valid_evidence_other_question"],
        "expected_to_pass_forgeries": 240, "expected_to_pass_caught": 0,
        "forgeries_without": 4320, "caught_without": 4293, "genuine": 1317,
        "genuine_passed": 1317}})
    assert "4,293 of 4,560 forgeries caught (94.1%)" in block
    assert "4,293 of 4,320 (99.4%)" in block and "expected to pass: 0 of 240" in block
