"""Suites: the runs of one demo belong together, and the report and `runs list` say which."""

from __future__ import annotations

from pathlib import Path

import pandas as pd
import pytest

from workbench import cli
from workbench.report import ReportError, build_report, report_scope
from workbench.runs import (
    complete_suites,
    current_suite,
    latest_suite,
    load_run,
    mark_suite_complete,
    suite,
    write_run,
)


def drift(root: Path, status: str) -> Path:
    return write_run("drift", pd.DataFrame({"fragment_id": ["f1", "f2"], "path": ["a.md", "b.md"],
                                            "status": ["match", status]}), results_dir=root,
                     digests={"corpus": "c" * 64, "index": "i" * 64})


def test_runs_written_inside_a_suite_name_it(tmp_path: Path) -> None:
    outside = drift(tmp_path, "match")
    with suite("demo-1") as suite_id:
        assert current_suite() == suite_id
        inside = drift(tmp_path, "changed")
    assert current_suite() is None
    assert load_run(inside).manifest["suite"] == "demo-1"
    assert "suite" not in load_run(outside).manifest


def test_a_suite_without_its_marker_is_not_complete(tmp_path: Path) -> None:
    with suite("demo-1"):
        drift(tmp_path, "match")
    with suite("demo-2"):  # stopped halfway: no marker
        drift(tmp_path, "changed")
    assert latest_suite(tmp_path) is None
    marker = mark_suite_complete("demo-1", tmp_path)
    assert marker.name == "demo-1.json"
    assert latest_suite(tmp_path) == "demo-1"
    assert len(complete_suites(tmp_path)[0]["runs"]) == 1
    (tmp_path / "suites" / "broken.json").write_text("{", encoding="utf-8")
    assert latest_suite(tmp_path) == "demo-1"  # a damaged marker is not a complete suite


def test_the_report_takes_the_latest_complete_suite_a_named_suite_or_named_runs(
        tmp_path: Path) -> None:
    with suite("demo-1"):
        first = drift(tmp_path, "changed")
    mark_suite_complete("demo-1", tmp_path)
    with suite("demo-2"):  # incomplete
        drift(tmp_path, "missing_file")
    later = drift(tmp_path, "drifted")  # outside any suite, newest
    assert report_scope(tmp_path).suite == "demo-1"
    page = build_report(tmp_path).read_text(encoding="utf-8")
    assert first.name in page and later.name not in page
    page = build_report(tmp_path, suite="demo-2").read_text(encoding="utf-8")
    assert "missing_file" in page and first.name not in page
    page = build_report(tmp_path, runs=[later.name]).read_text(encoding="utf-8")
    assert later.name in page and "the runs named on the command line" in page
    with pytest.raises(ReportError, match="no run of suite demo-9"):
        build_report(tmp_path, suite="demo-9")
    with pytest.raises(ReportError, match="no run nope"):
        build_report(tmp_path, runs=["nope"])


def test_report_verb_takes_suite_and_runs(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    with suite("demo-1"):
        run = drift(tmp_path, "changed")
    assert cli.main(["report", "--results", str(tmp_path), "--suite", "demo-1"]) == 0
    assert cli.main(["report", "--results", str(tmp_path), "--runs", run.name]) == 0
    assert "report:" in capsys.readouterr().out


def test_runs_list_says_what_each_run_ran_on(tmp_path: Path,
                                              capsys: pytest.CaptureFixture[str]) -> None:
    with suite("demo-1"):
        drift(tmp_path, "match")
    write_run("gates", pd.DataFrame({"id": ["q1"]}), results_dir=tmp_path,
              extra={"mode": "bi-encoder", "split": "test", "sets": ["in_corpus", "out_of_corpus"]})
    write_run("routers", pd.DataFrame({"id": ["t1"]}), results_dir=tmp_path,
              extra={"split": "test", "tasksets": ["router_tasks.jsonl"]})
    assert cli.main(["runs", "list", "--results", str(tmp_path)]) == 0
    out = capsys.readouterr().out
    header = out.splitlines()[0].split()
    for column in ("kind", "suite", "corpus", "index", "mode", "split", "sets"):
        assert column in header
    assert "demo-1" in out and "c" * 10 in out and "i" * 10 in out and "c" * 11 not in out
    assert "bi-encoder" in out and "in_corpus,out_of_corpus" in out and "router_tasks.jsonl" in out
