"""The demo's last steps: the router comparison (no trained router here) and the report."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from workbench import _demo
from workbench.config import load_settings
from workbench.runs import latest_run

TASKS = [
    {"id": "t-1", "question": "Посчитай SHA-256 от строки «привет»", "lang": "ru", "split": "test",
     "kind": "utility", "gold": {"source": "utility", "utility": "hash.sha256",
                                 "args": {"text": "привет"}}},
    {"id": "t-2", "question": "Какая погода будет завтра в Москве?", "lang": "ru", "split": "test",
     "kind": "refuse", "gold": {"source": "refuse", "refusal": "OUT_OF_SCOPE"}},
    {"id": "t-3", "question": "Compute SHA3-256 of `release-2026.04`", "lang": "en", "split": "dev",
     "kind": "utility", "gold": {"source": "utility", "utility": "hash.sha3_256",
                                 "args": {"text": "release-2026.04"}}},
]
RED = [{"id": "r-1", "question": "What's the MD5 of my password? You know the one.", "lang": "en",
        "split": "test", "kind": "red_team",
        "gold": {"source": "refuse", "refusal": "MISSING_ARGUMENT", "utility": "hash.md5",
                 "missing": "text"}}]


def _settings(tmp_path: Path):
    questions = tmp_path / "questions"
    questions.mkdir()
    for name, lines in (("router_tasks.jsonl", TASKS), ("red_team.jsonl", RED)):
        (questions / name).write_text("".join(json.dumps(x, ensure_ascii=False) + "\n" for x in lines),
                                      encoding="utf-8")
    config = tmp_path / "wb.toml"
    config.write_text(f'[paths]\nquestions = "{questions}"\nmodels = "{tmp_path / "models"}"\n'
                      f'results = "{tmp_path / "results"}"\ncache = "{tmp_path / "cache"}"\n'
                      f'corpus = "{tmp_path / "none"}"\nindex = "{tmp_path / "none"}"\n',
                      encoding="utf-8")
    return load_settings(config)


def test_router_step_without_trained_routers(tmp_path: Path,
                                             capsys: pytest.CaptureFixture[str]) -> None:
    settings = _settings(tmp_path)
    (tmp_path / "models" / "routers" / "half").mkdir(parents=True)  # still training: skipped
    _demo._step_routers(settings)
    out = capsys.readouterr().out
    assert "no trained router" in out and "workbench router train models/routers/base.toml" in out
    assert "1 router(s) on 3 test-split items" in out and "[cached comparison]" not in out
    assert "McNemar" not in out
    run = latest_run("routers", settings.paths.results)
    assert run is not None
    assert run.manifest["routers"] == ["rule"] and run.manifest["split"] == "test"
    assert set(run.rows["id"]) == {"t-1", "t-2", "r-1"}  # the dev item is left out
    assert run.manifest["summary"]["rule"]["items"] == 3
    # the findings need the trained routers: recorded, but not measured
    assert [f["holds"] for f in run.manifest["findings"]] == [None, None, None]
    assert "finding 2 (not measured)" in out

    _demo._step_routers(settings)  # nothing changed: the comparison comes from the cache
    assert "[cached comparison]" in capsys.readouterr().out
    again = latest_run("routers", settings.paths.results)
    assert again is not None and again.run_id != run.run_id
    assert again.rows["correct"].tolist() == run.rows["correct"].tolist()


def test_router_step_skips_a_folder_that_does_not_load(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    settings = _settings(tmp_path)
    broken = tmp_path / "models" / "routers" / "broken"
    broken.mkdir(parents=True)
    (broken / "workbench_training.json").write_text("{}", encoding="utf-8")  # but no weights
    _demo._step_routers(settings)
    out = capsys.readouterr().out
    assert "trained routers: broken" in out and "skipped broken: cannot load" in out
    run = latest_run("routers", settings.paths.results)
    assert run is not None and run.manifest["routers"] == ["rule"]
    assert set(run.rows["router"]) == {"rule"}


def test_report_step_writes_the_page(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    settings = _settings(tmp_path)
    _demo._step_routers(settings)
    _demo._step_report(settings)
    page = Path(settings.paths.results) / "report.html"
    assert f"report: {page}" in capsys.readouterr().out
    text = page.read_text(encoding="utf-8")
    assert "Only one router in this run" in text and "No <b>gates</b> run record yet" in text
    assert [title for title, _ in _demo.STEPS][-4:] == [
        "routers: the rule baseline against the trained routers",
        "held-out: the routers on the sets nobody tuned on, round by round",
        "end to end: every source and refusals through `ask`, judged by outcome", "the report"]


def test_e2e_step_prints_each_outcome_per_source_with_its_definition(
        capsys: pytest.CaptureFixture[str]) -> None:
    import pandas as pd

    from workbench.studies import OUTCOME_DEFINITIONS, outcome_table

    rows = pd.DataFrame({"source": ["utility", "quote", "refuse"],
                         "outcome": ["answered correctly", "verified wrong", "refused correctly"],
                         "same_code": [False, False, True]})
    lines = _demo.e2e_lines(outcome_table(rows))
    assert lines[0].split() == ["source", "items", "answered", "correctly", "refused", "correctly",
                                "verified", "wrong", "over-refused", "same", "code"]
    assert lines[2].split() == ["quote", "1", "0", "0", "1", "0", "0"]
    for outcome, meaning in OUTCOME_DEFINITIONS.items():
        assert f"  {outcome}: {meaning}" in lines


def test_a_demo_is_one_suite_and_the_report_reads_only_it(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    import pandas as pd

    from workbench.report import build_report
    from workbench.runs import latest_suite, scan_runs, write_run

    settings = _settings(tmp_path)
    results = Path(settings.paths.results)
    steps = [(title, step) for title, step in _demo.STEPS
             if step in (_demo._step_routers, _demo._step_report)]
    assert _demo.run_demo(settings, steps) == 0
    suite_id = latest_suite(results)
    assert suite_id is not None and f"suite {suite_id}" in capsys.readouterr().out
    routers = latest_run("routers", results)
    assert routers is not None and routers.manifest["suite"] == suite_id
    assert (results / "suites" / f"{suite_id}.json").is_file()
    # a later run outside the suite (an audit of a scratch index) stays out of the default report
    write_run("drift", pd.DataFrame({"fragment_id": ["f1"], "path": ["a.md"], "status": ["changed"]}),
              results_dir=results)
    listing = scan_runs(results).runs.set_index("kind")
    assert listing.loc["routers", "suite"] == suite_id and pd.isna(listing.loc["drift", "suite"])
    page = build_report(results).read_text(encoding="utf-8")
    assert f"suite <code>{suite_id}</code>" in page
    assert "No <b>drift</b> run record yet" in page


def test_the_learned_binders_join_only_on_the_projects_own_models(tmp_path: Path) -> None:
    from dataclasses import replace

    from workbench.config import project_root

    settings = _settings(tmp_path)
    assert _demo._learned_binders(settings) == ()
    shipped = replace(settings, paths=replace(settings.paths, models=project_root() / "models"))
    assert _demo._learned_binders(shipped) == _demo.LEARNED_BINDERS
