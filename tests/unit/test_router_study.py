"""The router study: one function, cached by content, pairing each router with the baseline."""

from __future__ import annotations

import dataclasses
from pathlib import Path

import pandas as pd

from workbench.config import load_settings
from workbench.studies import _router_study as study_module
from workbench.studies import compare_pair, paired_outcomes, study_routers


def _settings(tmp_path: Path):
    settings = load_settings()
    return dataclasses.replace(settings, paths=dataclasses.replace(settings.paths,
                                                                   cache=tmp_path / "cache"))


def _tasks(tmp_path: Path) -> Path:
    source = Path(load_settings().paths.questions) / "router_tasks.jsonl"
    lines = source.read_text(encoding="utf-8").splitlines()[:40]
    path = tmp_path / "tasks.jsonl"
    path.write_text("\n".join(lines) + "\n", encoding="utf-8")
    return path


def test_the_study_is_cached_by_content_and_skips_a_broken_folder(tmp_path, monkeypatch) -> None:
    settings = _settings(tmp_path)
    tasks = _tasks(tmp_path)
    broken = tmp_path / "models" / "half"
    broken.mkdir(parents=True)
    (broken / "workbench_training.json").write_text("{}", encoding="utf-8")
    lines: list[str] = []
    first = study_routers(settings, [broken], tasksets=[tasks], split="dev", progress=lines.append)
    assert not first.cached and first.routers == ["rule"] and "half" in first.skipped
    assert lines and lines[0].startswith("skipped half")
    assert first.tests == () and len(first.comparison.summary) == 1

    calls = []
    monkeypatch.setattr(study_module, "compare_routers",
                        lambda *a, **k: calls.append(1) or first.comparison)
    again = study_routers(settings, [], tasksets=[tasks], split="dev")
    assert again.cached and calls == []
    pd.testing.assert_frame_equal(again.comparison.items, first.comparison.items)
    tasks.write_text(tasks.read_text(encoding="utf-8").splitlines()[0] + "\n", encoding="utf-8")
    study_routers(settings, [], tasksets=[tasks], split="dev")
    assert calls == [1]  # an edited task set is a new key


def test_one_pairing_serves_a_comparison_and_a_run_records_rows() -> None:
    rows = pd.DataFrame({"router": ["a"] * 4 + ["b"] * 3, "id": [1, 2, 3, 4, 1, 2, 3],
                         "correct": [True, True, False, False, True, False, True]})
    paired = paired_outcomes(rows, "a", "b")
    assert list(paired["id"]) == [1, 2, 3]  # item 4 only a saw: not paired
    result = compare_pair(rows, "a", "b")
    assert (result.b, result.c) == (1, 1)
