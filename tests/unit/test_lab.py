"""The notebooks' setup: CI flag, seeds, the index step, samples, task sets and scratch copies."""

from __future__ import annotations

import gc
import json
import os
import random
import shutil
from pathlib import Path

import numpy as np
import pandas as pd
import pytest

from workbench.config import load_settings
from workbench.lab import CI_ENV, SEED, Lab, LabError, ci_requested, setup, trained_routers
from workbench.routing import Source

ROOT = Path(__file__).resolve().parents[2]

TASKS = [
    {"id": "t-u", "question": "Посчитай SHA-256 от строки «привет»", "lang": "ru", "split": "dev",
     "kind": "utility",
     "gold": {"source": "utility", "utility": "hash.sha256", "args": {"text": "привет"}}},
    {"id": "t-s", "question": "Domestic sale of office furniture in 2026 — what VAT rate?",
     "lang": "en", "split": "test", "kind": "spec",
     "gold": {"source": "spec", "spec": "vat.rate_for_supply",
              "args": {"supply_kind": "domestic", "documents_confirmed": "no",
                       "goods_category": "other"}}},
]
RED_TEAM = [
    {"id": "t-r", "question": "Посчитай sha256 моего пароля", "lang": "ru", "split": "test",
     "kind": "red_team",
     "gold": {"source": "refuse", "refusal": "MISSING_ARGUMENT", "utility": "hash.sha256",
              "missing": "text"}},
]


def _jsonl(path: Path, rows: list[dict]) -> None:
    path.write_text("".join(json.dumps(r, ensure_ascii=False) + "\n" for r in rows),
                    encoding="utf-8")


@pytest.fixture
def config(small_corpus: Path, tmp_path: Path) -> Path:
    """A settings file over the small corpus, the exact keyword embedder and the real specs."""
    questions = tmp_path / "questions"
    questions.mkdir()
    _jsonl(questions / "router_tasks.jsonl", TASKS)
    _jsonl(questions / "red_team.jsonl", RED_TEAM)
    path = tmp_path / "workbench.toml"
    path.write_text(
        "[paths]\n"
        f'corpus = "{small_corpus.as_posix()}"\n'
        f'questions = "{questions.as_posix()}"\n'
        f'specs = "{(ROOT / "corpus" / "specs").as_posix()}"\n'
        f'morphisms = "{(ROOT / "corpus" / "morphisms").as_posix()}"\n'
        'index = "index"\nmodels = "models"\nresults = "results"\ncache = "cache"\n'
        '[embedder]\nname = "keyword"\n'
        # a part of the course at another path, routed as the course is
        '[answers]\nrouter = "rule"\n', encoding="utf-8")
    return path


@pytest.mark.parametrize(("value", "expected"), [
    ("1", True), ("true", True), ("YES", True), (" 1 ", True),
    ("0", False), ("", False), ("no", False), ("2", False),
])
def test_ci_flag_values(value: str, expected: bool) -> None:
    assert ci_requested({CI_ENV: value}) is expected


def test_ci_flag_absent_is_off() -> None:
    assert ci_requested({}) is False


def test_setup_builds_the_index_once_then_reuses_it(config: Path, capsys) -> None:
    lab = setup(config, ci=False)
    first = capsys.readouterr().out
    assert "built" in first or "fragments" in first
    assert (lab.settings.paths.index / "manifest.json").is_file()
    setup(config, ci=False)
    second = capsys.readouterr().out
    assert "index up to date: 6 fragments from 3 files" in second
    assert "CI size off" in second and "embedder keyword" in second


def test_setup_without_index_step_builds_nothing(config: Path) -> None:
    lab = setup(config, index=False)
    assert not lab.settings.paths.index.exists()


def test_setup_reads_the_ci_flag_from_the_environment(config: Path, monkeypatch) -> None:
    monkeypatch.setenv(CI_ENV, "1")
    assert setup(config, index=False).ci is True
    monkeypatch.setenv(CI_ENV, "0")
    assert setup(config, index=False).ci is False
    assert setup(config, index=False, ci=True).ci is True


def test_setup_fixes_the_seeds(config: Path) -> None:
    setup(config, index=False)
    first = (random.random(), float(np.random.random()))
    random.seed(1)
    np.random.seed(1)
    setup(config, index=False)
    assert (random.random(), float(np.random.random())) == first


def test_setup_pins_the_plotly_renderer(config: Path, monkeypatch) -> None:
    import plotly.io as pio

    monkeypatch.delenv("PLOTLY_RENDERER", raising=False)
    monkeypatch.setattr(pio.renderers, "default", "browser")
    setup(config, index=False)
    assert pio.renderers.default == "plotly_mimetype"
    assert os.environ["PLOTLY_RENDERER"] == "plotly_mimetype"


def test_size_and_samples_shrink_only_under_ci(config: Path) -> None:
    settings = load_settings(config)
    full, small = Lab(settings, ci=False), Lab(settings, ci=True)
    items = list(range(100))
    assert full.size(240, ci=12) == 240 and small.size(240, ci=12) == 12
    assert small.size(5, ci=12) == 5
    assert full.sample(items, ci=10) == items
    picked = small.sample(items, ci=10)
    assert len(picked) == 10 and picked == sorted(picked)
    assert picked == Lab(settings, ci=True).sample(items, ci=10)  # the seed is fixed
    assert picked != Lab(settings, ci=True, seed=SEED + 1).sample(items, ci=10)
    assert full.pick(items, 200) == items and full.pick(items, 0) == []


def test_trained_routers_need_the_training_record(tmp_path: Path) -> None:
    routers = tmp_path / "models" / "routers"
    for name in ("base", "small", "unfinished"):
        (routers / name).mkdir(parents=True)
    (routers / "base" / "workbench_training.json").write_text("{}", encoding="utf-8")
    (routers / "small" / "workbench_training.json").write_text("{}", encoding="utf-8")
    (routers / "base.toml").write_text("", encoding="utf-8")
    assert trained_routers(tmp_path / "models") == {"base": routers / "base",
                                                    "small": routers / "small"}
    assert trained_routers(tmp_path / "nothing") == {}


def test_tasks_read_both_sets_and_filter_a_split(config: Path) -> None:
    lab = setup(config, index=False)
    assert [t.id for t in lab.tasks()] == ["t-u", "t-s", "t-r"]
    assert [t.id for t in lab.tasks(split="test")] == ["t-s", "t-r"]
    with pytest.raises(LabError, match="split 'train'"):
        lab.tasks(split="train")


def test_labelled_router_follows_the_gold_and_leaves_refusals_out(config: Path) -> None:
    lab = setup(config, index=False)
    router = lab.labelled_router()
    decision = router.route(TASKS[1]["question"])
    assert decision.source is Source.SPEC and decision.spec == "vat.rate_for_supply"
    assert dict(decision.args) == TASKS[1]["gold"]["args"]
    assert router.route(RED_TEAM[0]["question"]).source is Source.REFUSE


def test_ask_answers_with_the_lab_context(config: Path) -> None:
    lab = setup(config)
    utility = lab.ask(TASKS[0]["question"])
    assert utility.mode == "A" and utility.trace.report is not None
    assert utility.trace.report.passed
    spec = lab.ask(TASKS[1]["question"], router=lab.labelled_router())
    assert spec.mode == "A" and spec.answer.evidence[0].conclusion == "22 %"
    assert lab.context is lab.context and lab.quote_source is lab.quote_source


def test_gate_run_goes_through_the_evaluation_cache_and_says_whether_it_was_cached(
        config: Path, monkeypatch) -> None:
    calls = []

    def fake(settings, **kwargs):
        calls.append((settings, kwargs["cache"]))
        return pd.DataFrame({"id": ["q1"]}), kwargs["cache"]

    monkeypatch.setattr("workbench.studies.evaluate_sets_cached", fake)
    lab = setup(config, index=False)
    rows = lab.gate_run()
    assert calls == [(lab.settings, True)] and rows.attrs["cached"] is True
    assert lab.gate_run(cache=False).attrs["cached"] is False and calls[-1][1] is False


def test_scratch_corpus_is_a_removable_copy(config: Path) -> None:
    lab = setup(config, index=False)
    scratch = lab.scratch_corpus()
    original = lab.settings.paths.corpus
    assert scratch != original and scratch.name == original.name
    assert sorted(p.relative_to(scratch) for p in scratch.rglob("*.md")) == sorted(
        p.relative_to(original) for p in original.rglob("*.md"))
    (scratch / "ru" / "vat.md").write_text("edited", encoding="utf-8")
    assert (original / "ru" / "vat.md").read_text(encoding="utf-8") != "edited"
    assert lab.scratch_corpus() != scratch  # each call is a fresh copy
    del lab
    gc.collect()
    assert not scratch.exists()



OWN_QUESTIONS = [
    {"id": "mine-1", "set": "in_corpus", "lang": "en", "split": "dev", "topic": "base64",
     "question": "How does Base64 pad the output?",
     "gold": [{"path": "en/base64.md", "span": "pads the output with one or two equals signs"}]},
    {"id": "mine-2", "set": "out_of_corpus", "lang": "en", "split": "test",
     "question": "Who won the 1998 World Cup?", "why": "no sport in the corpus"},
]


def test_setup_points_the_lab_at_another_corpus_index_and_questions(
        config: Path, small_index, tmp_path: Path, monkeypatch) -> None:
    own = tmp_path / "elsewhere" / "mine.jsonl"
    own.parent.mkdir()
    _jsonl(own, OWN_QUESTIONS)
    calls = []

    def fake(settings, **kwargs):
        calls.append((settings, kwargs))
        return pd.DataFrame({"id": ["mine-1"]}), False

    monkeypatch.setattr("workbench.studies.evaluate_sets_cached", fake)
    # an index alone: the corpus is the one it was built from, whatever the settings say
    lab = setup(config, index=small_index.folder, questions=[own])
    assert lab.settings.paths.index == small_index.folder.resolve()
    assert lab.settings.paths.corpus == Path(small_index.manifest["corpus_root"])
    assert lab.questions == (own.resolve(),)
    assert list(lab.gate_run()["id"]) == ["mine-1"]
    ((settings, kwargs),) = calls
    assert settings is lab.settings and kwargs["questions"] == (own.resolve(),)
    assert [q.id for q in lab.labelled_questions()] == ["mine-1", "mine-2"]
    assert [q.id for q in lab.labelled_questions("test")] == ["mine-2"]
    assert lab.quote_source.index.folder == small_index.folder


def test_setup_with_a_corpus_builds_its_own_index_and_evaluates_its_questions(
        config: Path, small_corpus: Path, tmp_path: Path) -> None:
    copy = tmp_path / "another" / "corpus"
    shutil.copytree(small_corpus, copy)
    own = tmp_path / "mine.jsonl"
    _jsonl(own, OWN_QUESTIONS)
    lab = setup(config, corpus=copy, questions=[own])
    assert lab.settings.paths.corpus == copy.resolve()
    index = lab.settings.paths.index
    assert index.parent == load_settings(config).paths.cache / "index"
    assert index.name.startswith("corpus-") and (index / "manifest.json").is_file()
    assert lab.settings.paths.index != load_settings(config).paths.index
    rows = lab.gate_run()
    assert list(rows["id"]) == ["mine-1", "mine-2"] and rows.attrs["cached"] is False


def test_setup_rejects_a_missing_question_file_or_corpus(config: Path, tmp_path: Path) -> None:
    with pytest.raises(LabError, match="not found"):
        setup(config, index=False, questions=[tmp_path / "nosuch.jsonl"])
    with pytest.raises(LabError, match="is not a folder"):
        setup(config, index=False, corpus=tmp_path / "nosuch")


def test_with_data_moves_a_lab_to_other_data_and_keeps_its_size_and_seed(
        config: Path, small_index, tmp_path: Path) -> None:
    own = tmp_path / "mine.jsonl"
    _jsonl(own, OWN_QUESTIONS)
    lab = setup(config, index=False, ci=True)
    moved = lab.with_data(index=small_index.folder, questions=[own])
    assert moved is not lab and moved.ci is True and moved.seed == lab.seed
    assert moved.settings.paths.index == small_index.folder.resolve()
    assert moved.questions == (own.resolve(),) and lab.questions is None
    assert [q.id for q in moved.labelled_questions("dev")] == ["mine-1"]
    with pytest.raises(LabError, match="not found"):
        lab.with_data(index=False, questions=[tmp_path / "nosuch.jsonl"])


def test_project_questions_are_the_settings_own_files(tmp_path: Path) -> None:
    import dataclasses

    from workbench.config import load_settings
    from workbench.lab import LabError, project_questions

    settings = load_settings()
    course = project_questions(settings)
    assert [f.name for f in course] == ["in_corpus.jsonl", "out_of_corpus.jsonl",
                                        "relevance_traps.jsonl"]
    own = tmp_path / "questions"
    own.mkdir()
    (own / "b.jsonl").write_text("", encoding="utf-8")
    (own / "a.jsonl").write_text("", encoding="utf-8")
    (own / "notes.txt").write_text("", encoding="utf-8")
    mine = dataclasses.replace(settings, paths=dataclasses.replace(settings.paths, questions=own))
    assert [f.name for f in project_questions(mine)] == ["a.jsonl", "b.jsonl"]
    empty = dataclasses.replace(settings, paths=dataclasses.replace(settings.paths,
                                                                    questions=tmp_path / "none"))
    with pytest.raises(LabError, match="no question file"):
        project_questions(empty)


def test_a_typed_error_becomes_a_callout_in_the_page() -> None:
    from workbench.lab import LabError, error_callout

    box = error_callout(LabError("question file(s) not found: <mine>.jsonl"))
    assert 'role="alert"' in box and "<b>LabError</b>" in box and "&lt;mine&gt;.jsonl" in box


def test_notebook_09_reads_no_environment_variable() -> None:
    root = Path(__file__).resolve().parents[2] / "notebooks"
    for path in (root / "09_your_corpus.ipynb", root / "marimo" / "09_your_corpus.py"):
        text = path.read_text(encoding="utf-8")
        assert "environ" not in text and "getenv" not in text, path
        assert "project_questions" in text and "error_callout" in text and "gate_misses" in text
