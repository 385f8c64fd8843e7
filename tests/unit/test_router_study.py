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


def test_span_routers_join_the_study_paired_with_the_baseline(tmp_path, monkeypatch) -> None:
    from workbench.routing import RuleRouter

    settings = _settings(tmp_path)
    tasks = _tasks(tmp_path)
    folders = []
    for name in ("span", "span-navec", "span-minilm", "span-no-refusals"):
        folder = tmp_path / "routers" / name
        folder.mkdir(parents=True)
        (folder / "config.json").write_text(name, encoding="utf-8")  # digested, never read here
        folders.append(folder)
    built: list[str] = []
    real = study_module.build_router

    def build(spec: str):
        if spec.startswith("span:"):
            built.append(Path(spec.partition(":")[2]).name)
            return RuleRouter()  # any router: the study only routes and pairs
        return real(spec)

    monkeypatch.setattr(study_module, "build_router", build)
    without = study_routers(settings, [], tasksets=[tasks], split="dev")
    study = study_routers(settings, [], tasksets=[tasks], split="dev", span_folders=folders)
    assert without.routers == ["rule"] and not study.cached  # the span folders are part of the key
    assert built == ["span", "span-navec", "span-minilm", "span-no-refusals"]
    assert study.routers == ["rule", "span", "span-navec", "span-minilm", "span-no-refusals"]
    assert [t.router_b for t in study.tests] == study.routers[1:]
    # the three generative findings (not measured here) and the three of the span family
    assert len(study.findings) == 6 and "(span family)" in study.findings[4].claim
    assert study.findings[3].routers == ("span-navec", "span")
    again = study_routers(settings, [], tasksets=[tasks], split="dev", span_folders=folders)
    assert again.cached and again.routers == study.routers
    (folders[1] / "config.json").write_text("retrained", encoding="utf-8")
    assert not study_routers(settings, [], tasksets=[tasks], split="dev", span_folders=folders).cached
