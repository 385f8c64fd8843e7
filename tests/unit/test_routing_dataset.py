"""The router training-data generator: size, shares, languages, executable golds, no leakage,
a pinned slice of lines, the wording files and the worked cases read from spec files."""

from __future__ import annotations

import hashlib
import json
import random
import re
import time
from collections.abc import Callable
from dataclasses import replace
from functools import cache
from pathlib import Path
from typing import Any

import pytest
import yaml

import workbench.routing
from workbench.config import load_settings
from workbench.errors import WorkbenchError
from workbench.fts import Conclusion, evaluate_spec
from workbench.routing._asks import SYNONYMS
from workbench.routing._dataset import (
    EXCLUDED_SPECS,
    DatasetBuildError,
    build_training_data,
    generate_training_data,
    held_out_questions,
    load_dev_quotes,
    load_dev_tasks,
    load_spec_cases,
    write_training_data,
)
from workbench.routing._wording import WordingFileError, load_wording
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


# ---------------------------------------------------------------------------------------------
# A pinned slice of lines: a small catalog and fixed sources, so that only an edit of the wording
# files, of the generator, or of these seven utilities moves the digest.

SLICE_UTILITIES = ("charset.encode", "date.convert_timezone", "hash.md5", "number.gcd",
                   "number.is_prime", "text.count_substring", "text.reverse")  # fmt: skip
SLICE_DIGEST = "7058fd79782916886b5263f568eab5fb86086afc84adaaa454c157b3fe2ceefe"
SLICE_SPEC = """# a rate by kind of supply
spec demo.rate "Ставка по виду поставки / Rate by kind of supply"
premise standard = vat.rate.standard_2026
type supply_kind = {export, domestic}
input supply_kind : supply_kind
input price : money
input paid_on : date
input with_documents : bool
output rate : percent
  when supply_kind = export -> 0 % because standard
  otherwise -> 22 % because standard
example "экспорт":
  supply_kind = export, price = 1_250_000.50 rub, paid_on = 2026-02-01, with_documents = yes => 0 %
boundary "внутри страны":
  supply_kind = domestic, price = 0 rub, paid_on = 2025-12-31, with_documents = no => 22 %
"""
SLICE_TASKS = [
    {"question": "Посчитай MD5 от строки «привет»", "lang": "ru", "split": "dev",
     "gold": {"source": "utility", "utility": "hash.md5", "args": {"text": "привет"}}},
    {"question": "What is the gcd of 12 and 18?", "lang": "en", "split": "dev",
     "gold": {"source": "utility", "utility": "number.gcd", "args": {"a": 12, "b": 18}}},
    {"question": "Какая ставка при экспорте?", "lang": "ru", "split": "dev",
     "gold": {"source": "spec", "spec": "demo.rate", "args": {"supply_kind": "export"}}},
    {"question": "Will it rain tomorrow?", "lang": "en", "split": "dev",
     "gold": {"source": "refuse", "refusal": "OUT_OF_SCOPE"}},
    {"question": "Reverse my text", "lang": "en", "split": "dev",
     "gold": {"source": "refuse", "refusal": "MISSING_ARGUMENT", "utility": "text.reverse",
              "missing": "text"}},
    {"question": "MD5 of the text in koi8-r", "lang": "en", "split": "dev",
     "gold": {"source": "refuse", "refusal": "ARGUMENT_IS_CIRCUMSTANCE", "utility": "hash.md5",
              "argument": "text"}},
    {"question": "Посчитай MD5 от строки «admin»", "lang": "ru", "split": "test",
     "gold": {"source": "utility", "utility": "hash.md5", "args": {"text": "admin"}}},
]  # fmt: skip
SLICE_QUOTES = [
    {"question": "Что такое суррогатная пара?", "lang": "ru", "split": "dev"},
    {"question": "What does NFC stand for?", "lang": "en", "split": "dev"},
    {"question": "Сколько байтов занимает эмодзи?", "lang": "ru", "split": "test"},
]


def _jsonl(items: list[dict[str, Any]]) -> str:
    return "".join(json.dumps(item, ensure_ascii=False) + "\n" for item in items)


def test_a_pinned_slice_of_lines_keeps_its_digest(tmp_path: Path) -> None:
    (tmp_path / "specs").mkdir()
    (tmp_path / "specs" / "rate.fts").write_text(SLICE_SPEC, encoding="utf-8")
    (tmp_path / "router_tasks.jsonl").write_text(_jsonl(SLICE_TASKS), encoding="utf-8")
    (tmp_path / "in_corpus.jsonl").write_text(_jsonl(SLICE_QUOTES), encoding="utf-8")
    catalog = load_catalog()
    small = replace(catalog, schemas={k: catalog.schemas[k] for k in SLICE_UTILITIES})
    data = build_training_data(
        small, lines=600, seed=13, specs_dir=tmp_path / "specs",
        quote_questions=tmp_path / "in_corpus.jsonl", questions_dir=tmp_path,
    )  # fmt: skip
    kinds = {_kind(r["gold"]) for r in data.rows}
    refusals = {"OUT_OF_SCOPE", "MISSING_ARGUMENT", "ARGUMENT_IS_CIRCUMSTANCE"}
    assert kinds == {"utility", "quote", "spec"} | refusals
    digest = hashlib.sha256(_jsonl(data.rows).encode("utf-8")).hexdigest()
    # A changed digest means changed lines: when the change is meant (a phrasing edited in
    # routing/wording/*.yaml), regenerate the training data and pin the new digest here.
    assert digest == SLICE_DIGEST, digest


def _kind(gold: dict[str, Any]) -> str:
    return str(gold["refusal"] if gold["source"] == "refuse" else gold["source"])


# ---------------------------------------------------------------------------------------------
# The wording files: read once, and a misshapen file is a typed error that names it

WORDING = Path(workbench.routing.__file__).parent / "wording"
WORDING_FILES = ("utility.yaml", "refusals.yaml", "openers.yaml", "spec.yaml")


def test_the_wording_is_read_once_and_holds_every_table() -> None:
    wording = load_wording()
    assert wording is load_wording()
    assert sorted(p.name for p in WORDING.glob("*.yaml")) == sorted(WORDING_FILES)
    assert set(wording.utility.noun_leads) == {c.id for c in load_catalog().categories}
    for table in (wording.openers, wording.spec_templates, wording.utility.arg_joiners,
                  wording.refusals.out_of_scope, wording.refusals.missing, wording.refusals.circumstance):
        assert set(table) == {"ru", "en"} and all(table.values())  # fmt: skip


Change = Callable[[str], str]


def _set(path: tuple[str | int, ...], value: Any) -> Change:
    """A change that sets one entry of the file's content."""

    def change(text: str) -> str:
        data = top = yaml.safe_load(text)
        for key in path[:-1]:
            data = data[key]
        data[path[-1]] = value
        return yaml.safe_dump(top, allow_unicode=True)

    return change


def _drop(*path: str) -> Change:
    """A change that deletes one entry of the file's content."""

    def change(text: str) -> str:
        data = top = yaml.safe_load(text)
        for key in path[:-1]:
            data = data[key]
        del data[path[-1]]
        return yaml.safe_dump(top, allow_unicode=True)

    return change


def _text(new: str) -> Change:
    return lambda _: new


def _swap(old: str, new: str) -> Change:
    return lambda text: text.replace(old, new, 1)


# (file, a change of its text, what the message says)
MALFORMED: list[tuple[str, Change, str]] = [
    ("utility.yaml", _swap("text_values:", "text_values: [unclosed"), "not valid YAML"),
    ("openers.yaml", _text("- just a list\n"), "expected a mapping"),
    ("spec.yaml", _text(""), "expected a mapping"),
    ("refusals.yaml", _drop("missing"), "missing key 'missing'"),
    ("spec.yaml", _set(("extra",), ["x"]), "unknown key 'extra'"),
    ("openers.yaml", _drop("openers", "en"), "missing key 'en'"),
    ("refusals.yaml", _set(("circumstance", "ru"), []), "at least one entry"),
    ("utility.yaml", _set(("text_values",), "привет"), "expected a list of strings"),
    ("utility.yaml", _set(("text_values", 0), 5), "text_values[0]: expected a string"),
    # an unquoted yes is a boolean to YAML, not the word
    ("utility.yaml", _swap('- "Hello"', "- yes"), "text_values[3]: expected a string, found bool"),
    ("spec.yaml", _set(("templates", "en", 0), "{titel}: {pairs}"), "placeholder {titel}"),
    ("refusals.yaml", _set(("missing", "en", 1), "{task for my file"), "not a template"),
    ("refusals.yaml", _set(("out_of_scope", "ru", 0), "Погода на {planet}?"), "placeholder {planet}"),
    ("utility.yaml", _set(("quote_marks", "ru", 0), ["«"]), "expected a pair of strings"),
    ("utility.yaml", _drop("form_leads", "how"), "missing key 'how'"),
    ("utility.yaml", _set(("task_forms", "en", "verbs"), {"find": 1}), "task_forms.en.verbs"),
    ("utility.yaml", _set(("noun_leads", "hash"), {}), "noun_leads.hash: expected a mapping"),
]


@pytest.mark.parametrize(("name", "change", "message"), MALFORMED)
def test_a_misshapen_wording_file_is_a_typed_error_naming_it(
    tmp_path: Path, name: str, change: Change, message: str
) -> None:
    for file in WORDING_FILES:
        (tmp_path / file).write_bytes((WORDING / file).read_bytes())
    changed = change((WORDING / name).read_text(encoding="utf-8"))
    assert changed != (WORDING / name).read_text(encoding="utf-8")
    (tmp_path / name).write_text(changed, encoding="utf-8")
    with pytest.raises(WordingFileError, match=re.escape(message)) as caught:
        load_wording(tmp_path)
    assert isinstance(caught.value, WorkbenchError)
    assert str(tmp_path / name) in str(caught.value)
    assert "\n" not in str(caught.value)


def test_a_missing_wording_file_is_a_typed_error_naming_it(tmp_path: Path) -> None:
    for file in WORDING_FILES[:-1]:
        (tmp_path / file).write_bytes((WORDING / file).read_bytes())
    with pytest.raises(WordingFileError, match=r"spec\.yaml cannot be read"):
        load_wording(tmp_path)


# ---------------------------------------------------------------------------------------------
# Worked cases of the spec files, read with the spec language's parser

CASES_SPEC = """spec demo.cases "Случаи / Cases"
premise p = vat.rate.standard_2026
type kind = {a, b}
  input kind : kind
  input amount : money
  input share : percent
  input delta : number
  input on : date
  input flag : bool
output r : bool
  when flag -> yes because p
  otherwise -> no because p
  example "all" : kind = a, amount = 2_000_000.01 rub, share = 22 %, delta = -3, on = 2026-01-01,
                  flag = yes => yes
  # example "commented out": kind = b => no
  boundary "spread over lines":
    flag = no, on = 2019-01-01, delta = 0.50, share = 0 %, amount = 0 rub, kind = b  # a comment
    => no
example: kind = a, amount = 1 rub, share = 1 %, delta = 1, on = 2026-01-01, flag = yes => yes
example "not every input": kind = a => no
"""


def test_spec_cases_come_from_the_parser(tmp_path: Path) -> None:
    (tmp_path / "cases.fts").write_text(CASES_SPEC, encoding="utf-8")
    cases = load_spec_cases(tmp_path)
    assert [(c.spec, c.title_ru, c.title_en) for c in cases] == [("demo.cases", "Случаи", "Cases")] * 2
    assert [c.label for c in cases] == ["all", "spread over lines"]
    assert cases[0].args == {"kind": "a", "amount": "2000000.01 rub", "share": "22 %", "delta": "-3",
                             "on": "2026-01-01", "flag": "yes"}  # fmt: skip
    # the arguments follow the order of the inputs, not of the bindings
    assert list(cases[1].args.items()) == [
        ("kind", "b"), ("amount", "0 rub"), ("share", "0 %"), ("delta", "0.50"), ("on", "2019-01-01"),
        ("flag", "no"),
    ]  # fmt: skip


def test_a_spec_file_that_does_not_parse_offers_no_case(tmp_path: Path) -> None:
    broken = 'spec demo.broken "Сломано / Broken"\ninput x : bool\nexample "x": x = yes => yes\noutput'
    (tmp_path / "broken.fts").write_text(broken, encoding="utf-8")
    (tmp_path / "excluded.fts").write_text(CASES_SPEC.replace("demo.cases", "vat.export_counterexample"),
                                           encoding="utf-8")  # fmt: skip
    assert load_spec_cases(tmp_path) == []


def test_spec_cases_of_the_corpus_read_money_without_separators() -> None:
    cases = [c for c in load_spec_cases() if c.spec == "vat.turnover_exemption"]
    assert [c.args["revenue_3_months"] for c in cases] == ["2000000 rub", "2000000.01 rub", "1500000 rub"]
    assert not [c for c in load_spec_cases() if c.spec in EXCLUDED_SPECS]
