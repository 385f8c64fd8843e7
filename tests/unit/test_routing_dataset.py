"""The router training-data generator: size, shares, languages, executable golds, no leakage."""

from __future__ import annotations

import json
import random
import re
import time
from functools import cache
from pathlib import Path
from typing import Any

import pytest

from workbench.config import load_settings
from workbench.fts import Conclusion, evaluate_spec
from workbench.routing._dataset import (
    DatasetBuildError,
    build_training_data,
    generate_training_data,
    held_out_questions,
    load_dev_quotes,
    load_dev_tasks,
    write_training_data,
)
from workbench.routing._rule import SYNONYMS
from workbench.utilities import call_utility, coverage_report, load_catalog

ROOT = Path(__file__).resolve().parents[2]
QUESTIONS = ROOT / "corpus" / "questions"
SETTINGS = load_settings(ROOT / "workbench.toml")
SMALL = 3000


@cache
def _default() -> tuple[list[dict[str, Any]], float, dict[str, int]]:
    started = time.perf_counter()
    data = build_training_data()
    return data.rows, time.perf_counter() - started, data.dropped


def _refusal_share(rows: list[dict[str, Any]]) -> float:
    return sum(1 for r in rows if r["gold"]["source"] == "refuse") / len(rows)


def test_default_size_share_and_languages() -> None:
    rows, seconds, dropped = _default()
    assert len(rows) >= 30_000
    assert abs(_refusal_share(rows) - 0.238) <= 0.01
    ru = sum(1 for r in rows if r["lang"] == "ru") / len(rows)
    assert ru >= 0.40 and {r["lang"] for r in rows} == {"ru", "en"}
    print(f"\n{len(rows)} lines in {seconds:.1f} s; refusal share {_refusal_share(rows):.3f}; "
          f"Russian {ru:.3f}; dropped {dropped}")  # fmt: skip


def test_same_seed_same_lines_and_file(tmp_path: Path) -> None:
    first = generate_training_data(lines=SMALL, seed=7)
    assert first == generate_training_data(lines=SMALL, seed=7)
    assert first != generate_training_data(lines=SMALL, seed=8)
    a = write_training_data(tmp_path / "a.jsonl", lines=SMALL, seed=7)
    b = write_training_data(tmp_path / "b.jsonl", first)
    assert a.read_bytes() == b.read_bytes()
    assert not [p for p in tmp_path.iterdir() if p.name.endswith(".tmp")]


@pytest.mark.parametrize("share", [0.1, 0.238, 0.4])
def test_refusal_share_follows_the_setting(share: float) -> None:
    rows = generate_training_data(lines=SMALL, refusal_share=share, seed=3)
    assert abs(_refusal_share(rows) - share) <= 0.01


def test_refusal_share_zero_builds_the_no_refusal_variant() -> None:
    rows = generate_training_data(lines=SMALL, refusal_share=0.0)
    assert len(rows) == SMALL
    assert all(r["gold"]["source"] != "refuse" for r in rows)


def test_bad_settings_raise_typed_errors() -> None:
    with pytest.raises(DatasetBuildError):
        generate_training_data(lines=10, refusal_share=1.5)
    with pytest.raises(DatasetBuildError):
        generate_training_data(lines=0)


def test_every_kind_of_line_is_present() -> None:
    rows, _, _ = _default()
    kinds = {r["gold"]["source"] for r in rows}
    codes = {r["gold"]["refusal"] for r in rows if r["gold"]["source"] == "refuse"}
    assert kinds == {"utility", "quote", "spec", "refuse"}
    assert codes == {"OUT_OF_SCOPE", "MISSING_ARGUMENT", "ARGUMENT_IS_CIRCUMSTANCE"}
    cyrillic = re.compile(r"[а-яё]", re.IGNORECASE)
    for lang in ("ru", "en"):
        kinds_in_lang = {r["gold"]["source"] for r in rows if r["lang"] == lang}
        assert kinds_in_lang == kinds, lang
    ru_utility = [r for r in rows if r["lang"] == "ru" and r["gold"]["source"] == "utility"]
    assert all(cyrillic.search(r["question"]) for r in ru_utility[:200])


def test_a_sample_of_utility_golds_executes() -> None:
    rows, _, _ = _default()
    sample = random.Random(0).sample(rows, 500)
    checked = 0
    for row in sample:
        gold = row["gold"]
        if gold["source"] != "utility":
            continue
        outcome = call_utility(gold["utility"], gold["args"], question=row["question"], lang=row["lang"])
        assert outcome.ok, f"{row['question']}: {outcome.refusal}"
        checked += 1
    assert checked > 250


def test_a_sample_of_refusal_golds_is_refused_by_the_catalog() -> None:
    rows, _, _ = _default()
    schemas = load_catalog().schemas
    for row in random.Random(1).sample(rows, 500):
        gold = row["gold"]
        if gold.get("refusal") == "MISSING_ARGUMENT":
            schema = schemas[gold["utility"]]
            arg = schema.argument(gold["missing"])
            assert arg is not None and arg.required
            outcome = call_utility(gold["utility"], {}, question=row["question"])
            assert outcome.refusal is not None and outcome.refusal.code == "MISSING_ARGUMENT"
        elif gold.get("refusal") == "ARGUMENT_IS_CIRCUMSTANCE":
            arg = schemas[gold["utility"]].argument(gold["argument"])
            assert arg is not None and str(arg.role) == "data"


def test_spec_golds_evaluate() -> None:
    rows, _, _ = _default()
    paths = {}
    for path in sorted(SETTINGS.paths.specs.glob("*.fts")):
        match = re.search(r"^spec\s+(\S+)", path.read_text(encoding="utf-8"), re.M)
        if match:
            paths[match.group(1)] = path
    cases = {json.dumps(r["gold"], sort_keys=True) for r in rows if r["gold"]["source"] == "spec"}
    assert len(cases) >= 10
    for case in sorted(cases):
        gold = json.loads(case)
        outcome = evaluate_spec(paths[gold["spec"]], gold["args"], SETTINGS.paths.morphisms)
        assert isinstance(outcome, Conclusion), f"{gold}: {outcome}"


def _task_questions(split: str) -> set[str]:
    found = set()
    for name in ("router_tasks.jsonl", "red_team.jsonl"):
        for line in (QUESTIONS / name).read_text(encoding="utf-8").splitlines():
            item = json.loads(line)
            if item["split"] == split:
                found.add(item["question"])
    return found


def test_no_test_question_of_the_task_sets_is_copied() -> None:
    rows, _, _ = _default()
    held_out = {" ".join(q.split()).casefold() for q in held_out_questions(QUESTIONS)}
    assert held_out == {" ".join(q.split()).casefold() for q in _task_questions("test")}
    generated = {" ".join(r["question"].split()).casefold() for r in rows}
    assert not generated & held_out
    # and no test question hides behind an opener either
    assert not any(g.endswith(h[1:]) for g in generated for h in held_out)


def test_dev_tasks_are_worded_into_the_lines() -> None:
    rows, _, _ = _default()
    dev = _task_questions("dev")
    generated = [r["question"] for r in rows]
    assert sum(1 for q in generated if q in dev) > 50
    named = [r for r in rows if r["gold"]["source"] == "utility"
             and any(n in r["question"] for n in SYNONYMS.get(r["gold"]["utility"], ()))]
    assert len(named) > len(rows) * 0.15


def test_quotes_come_from_the_dev_split_only() -> None:
    dev = {q for q, _ in load_dev_quotes(QUESTIONS / "in_corpus.jsonl")}
    test_split = set()
    for line in (QUESTIONS / "in_corpus.jsonl").read_text(encoding="utf-8").splitlines():
        item = json.loads(line)
        if item["split"] == "test":
            test_split.add(item["question"])
    rows, _, _ = _default()
    quotes = [r["question"] for r in rows if r["gold"]["source"] == "quote"]
    assert quotes
    for question in quotes:
        assert not any(question.endswith(t[1:]) for t in test_split), question
    assert any(q in dev for q in quotes)


def test_load_dev_tasks_never_reads_the_test_split() -> None:
    tasks = load_dev_tasks(QUESTIONS)
    assert set(tasks) >= {"utility", "spec", "out_of_scope", "missing_argument", "argument_is_circumstance"}
    assert all(item["split"] == "dev" for items in tasks.values() for item in items)


def test_coverage_report_reads_the_file(tmp_path: Path) -> None:
    rows, _, _ = _default()
    path = write_training_data(tmp_path / "router_train.jsonl", rows)
    report = coverage_report(path)
    assert report.dataset_lines == len(rows)
    assert report.unreadable_lines == 0
    assert not report.unknown_in_dataset
    assert report.dataset_utilities >= report.catalog_utilities - 5
    print("\n" + report.render())
