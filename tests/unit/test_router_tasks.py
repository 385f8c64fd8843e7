"""The router task sets: every line well formed, every gold decision exact and executable.

``router_tasks.jsonl`` labels questions with the decision a router should take (a utility call,
a quote, a specification's conclusion, or a refusal with its code); ``red_team.jsonl`` holds
questions that tempt an invented call and must be refused. The format is described in
``corpus/questions/README.md``.
"""

from __future__ import annotations

import json
import re
from collections import Counter
from functools import cache
from pathlib import Path
from typing import Any

import pytest

from workbench.config import load_settings
from workbench.fts import Conclusion, evaluate_spec
from workbench.routing._dataset import TRAINING_SETS
from workbench.routing._span import written_sets
from workbench.utilities import call_utility, load_catalog

ROOT = Path(__file__).resolve().parents[2]
SETTINGS = load_settings(ROOT / "workbench.toml")
QUESTIONS = SETTINGS.paths.questions
TASKS = QUESTIONS / "router_tasks.jsonl"
RED_TEAM = QUESTIONS / "red_team.jsonl"

COMMON = {"id", "question", "lang", "split", "kind", "gold"}
OPTIONAL = {"from"}
KINDS = {"utility", "quote", "spec", "refuse"}
REFUSALS = {"OUT_OF_SCOPE", "MISSING_ARGUMENT", "ARGUMENT_IS_CIRCUMSTANCE"}
GOLD_KEYS = {
    "utility": {"source", "utility", "args"},
    "quote": {"source"},
    "spec": {"source", "spec", "args"},
    "OUT_OF_SCOPE": {"source", "refusal"},
    "MISSING_ARGUMENT": {"source", "refusal", "utility", "missing"},
    "ARGUMENT_IS_CIRCUMSTANCE": {"source", "refusal", "utility", "argument"},
}
ID_PATTERN = {
    "utility": r"rt-u-\d{3,4}",  # four digits once the three are taken
    "quote": r"rt-q-\d{3}",
    "spec": r"rt-s-\d{3}",
    "refuse": r"rt-[omc]-\d{3}",
    "red_team": r"rt-red-\d{3,4}",
}
MINIMUM_TASKS = {"utility": 240, "quote": 50, "spec": 40}
MINIMUM_REFUSALS = {"OUT_OF_SCOPE": 25, "MISSING_ARGUMENT": 25, "ARGUMENT_IS_CIRCUMSTANCE": 25}
CYRILLIC = re.compile(r"[А-Яа-яЁё]")


def _read(path: Path) -> list[dict[str, Any]]:
    rows = []
    for number, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1):
        assert line.strip(), f"{path.name}:{number}: empty line"
        try:
            row = json.loads(line)
        except json.JSONDecodeError as exc:
            pytest.fail(f"{path.name}:{number}: not JSON ({exc})")
        assert isinstance(row, dict), f"{path.name}:{number}: not an object"
        rows.append(row)
    return rows


@pytest.fixture(scope="module")
def tasks() -> list[dict[str, Any]]:
    return _read(TASKS)


@pytest.fixture(scope="module")
def red_team() -> list[dict[str, Any]]:
    return _read(RED_TEAM)


@cache
def _spec_paths() -> dict[str, Path]:
    found = {}
    for path in sorted(SETTINGS.paths.specs.glob("*.fts")):
        match = re.search(r"^spec\s+(\S+)", path.read_text(encoding="utf-8"), re.M)
        if match:
            found[match.group(1)] = path
    return found


def _check_fields(row: dict[str, Any], kind: str) -> None:
    rid = row.get("id")
    assert set(row) >= COMMON and set(row) <= COMMON | OPTIONAL, f"{rid}: fields {sorted(row)}"
    assert isinstance(rid, str) and re.fullmatch(ID_PATTERN[kind], rid), f"{rid}: id"
    assert isinstance(row["question"], str) and row["question"].strip(), f"{rid}: question"
    assert row["question"] == row["question"].strip(), f"{rid}: surrounding whitespace"
    assert row["lang"] in {"ru", "en"}, f"{rid}: lang"
    assert row["split"] in {"dev", "test"}, f"{rid}: split"
    if row["lang"] == "ru":
        assert CYRILLIC.search(row["question"]), f"{rid}: a Russian question without Cyrillic"
    gold = row["gold"]
    assert isinstance(gold, dict), f"{rid}: gold"
    source = gold.get("source")
    key = gold.get("refusal") if source == "refuse" else source
    assert key in GOLD_KEYS, f"{rid}: gold source/refusal {source}/{gold.get('refusal')}"
    assert set(gold) == GOLD_KEYS[key], f"{rid}: gold fields {sorted(gold)}"
    if kind == "red_team":
        assert source == "refuse", f"{rid}: a red-team gold must be a refusal"
    elif kind == "refuse":
        assert source == "refuse", f"{rid}: kind refuse with gold {source}"
    else:
        assert source == kind, f"{rid}: kind {kind} with gold {source}"
    if "from" in row:
        assert kind == "quote", f"{rid}: only quote items carry 'from'"


def _check_refusal(row: dict[str, Any]) -> None:
    gold, rid = row["gold"], row["id"]
    schemas = load_catalog().schemas
    if gold["refusal"] == "OUT_OF_SCOPE":
        return
    schema = schemas.get(gold["utility"])
    assert schema is not None, f"{rid}: unknown utility {gold['utility']}"
    if gold["refusal"] == "MISSING_ARGUMENT":
        arg = schema.argument(gold["missing"])
        assert arg is not None and arg.required, f"{rid}: {gold['missing']} is not required"
    else:
        arg = schema.argument(gold["argument"])
        assert arg is not None and str(arg.role) == "data", f"{rid}: {gold['argument']} is not data"


def _check_balance(rows: list[dict[str, Any]], *, ru_low: float, ru_high: float) -> None:
    langs = Counter(r["lang"] for r in rows)
    splits = Counter(r["split"] for r in rows)
    assert ru_low <= langs["ru"] / len(rows) <= ru_high, langs
    assert abs(splits["dev"] - splits["test"]) <= 0.1 * len(rows), splits


def test_task_lines_are_well_formed(tasks) -> None:
    for row in tasks:
        _check_fields(row, row.get("kind", "?") if row.get("kind") in KINDS else "?")
    ids = [r["id"] for r in tasks]
    assert len(set(ids)) == len(ids), [i for i, n in Counter(ids).items() if n > 1]
    questions = Counter(r["question"] for r in tasks)
    assert max(questions.values()) == 1, [q for q, n in questions.items() if n > 1]


def test_task_counts_languages_and_splits(tasks) -> None:
    assert len(tasks) >= 400
    kinds = Counter(r["kind"] for r in tasks)
    for kind, minimum in MINIMUM_TASKS.items():
        assert kinds[kind] >= minimum, kinds
    refusals = Counter(r["gold"]["refusal"] for r in tasks if r["kind"] == "refuse")
    for code, minimum in MINIMUM_REFUSALS.items():
        assert refusals[code] >= minimum, refusals
    _check_balance(tasks, ru_low=0.5, ru_high=0.6)
    splits = [r["split"] for r in tasks]
    assert all(a != b for a, b in zip(splits, splits[1:], strict=False)), "splits must alternate"


def test_utility_golds_cover_every_category(tasks) -> None:
    catalog = load_catalog()
    used = Counter(r["gold"]["utility"] for r in tasks if r["kind"] == "utility")
    by_category = Counter(uid.split(".", 1)[0] for uid in used.elements())
    for category in catalog.categories:
        assert by_category[category.id] >= 8, (category.id, by_category[category.id])
    assert len(by_category) == 14


def test_every_utility_gold_executes(tasks) -> None:
    for row in tasks:
        if row["kind"] != "utility":
            continue
        gold = row["gold"]
        assert isinstance(gold["args"], dict) and gold["args"], row["id"]
        outcome = call_utility(gold["utility"], gold["args"], question=row["question"], lang=row["lang"])
        assert outcome.refusal is None, f"{row['id']}: {outcome.refusal.code}: {outcome.refusal.text}"


def test_refusal_golds_name_real_arguments(tasks, red_team) -> None:
    for row in tasks + red_team:
        if row["gold"]["source"] == "refuse":
            _check_refusal(row)


def test_every_spec_gold_evaluates(tasks) -> None:
    paths = _spec_paths()
    for row in tasks:
        if row["kind"] != "spec":
            continue
        gold = row["gold"]
        assert gold["spec"] in paths, f"{row['id']}: unknown spec {gold['spec']}"
        args = gold["args"]
        assert all(isinstance(v, str) for v in args.values()), f"{row['id']}: inputs are text values"
        outcome = evaluate_spec(paths[gold["spec"]], args, SETTINGS.paths.morphisms)
        assert isinstance(outcome, Conclusion), f"{row['id']}: the spec refused ({outcome.code})"


def test_quote_sources_exist(tasks) -> None:
    in_corpus = {}
    for line in (QUESTIONS / "in_corpus.jsonl").read_text(encoding="utf-8").splitlines():
        item = json.loads(line)
        in_corpus[item["id"]] = item
    reused = [r for r in tasks if "from" in r]
    assert len(reused) <= 40
    assert len({r["from"] for r in reused}) == len(reused)
    for row in reused:
        assert row["from"] in in_corpus, f"{row['id']}: {row['from']} is not in in_corpus.jsonl"
        assert row["lang"] == in_corpus[row["from"]]["lang"], row["id"]


def test_red_team_lines(red_team) -> None:
    assert len(red_team) >= 80
    for row in red_team:
        assert row.get("kind") == "red_team", row.get("id")
        _check_fields(row, "red_team")
    ids = [r["id"] for r in red_team]
    assert len(set(ids)) == len(ids)
    langs = Counter(r["lang"] for r in red_team)
    assert 0.3 <= langs["ru"] / len(red_team) <= 0.65, langs
    # the odd lines alternate with the even ones by language, so dev was all Russian and test all
    # English; the English dev lines (rt-red-101 on) let a router trained on dev see English too
    dev = Counter(r["lang"] for r in red_team if r["split"] == "dev")
    assert dev["ru"] >= 30 and dev["en"] >= 30, dev
    codes = Counter(r["gold"]["refusal"] for r in red_team)
    assert set(codes) <= REFUSALS and len(codes) == 3, codes


PROBE = QUESTIONS / "router_probe.jsonl"


def test_probe_lines_are_dev_utility_calls_that_execute(tasks) -> None:
    probe = _read(PROBE)
    assert len(probe) >= 55
    # no probe question repeats a question of any other set, dev or test
    seen = {r["question"].casefold() for name in ("router_tasks", "red_team", "e2e")
            for r in _read(QUESTIONS / f"{name}.jsonl")}
    for row in probe:
        _check_fields(row, "utility")
        assert row["split"] == "dev" and row["question"].casefold() not in seen, row["id"]
        gold = row["gold"]
        outcome = call_utility(gold["utility"], gold["args"], question=row["question"], lang=row["lang"])
        assert outcome.refusal is None, f"{row['id']}: {outcome.refusal.code}: {outcome.refusal.text}"
    assert not {r["id"] for r in probe} & {r["id"] for r in tasks}


STYLES = QUESTIONS / "router_styles.jsonl"
CHAT = QUESTIONS / "router_chat.jsonl"


def _check_extra_utility_lines(rows: list[dict[str, Any]], others: tuple[str, ...]) -> None:
    """Dev utility lines whose gold call executes, with a text argument copied from the question,
    and no question that a line of the ``others`` sets already asks."""
    seen = {r["question"].casefold() for name in others for r in _read(QUESTIONS / f"{name}.jsonl")}
    for row in rows:
        _check_fields(row, "utility")
        assert row["split"] == "dev" and row["question"].casefold() not in seen, row["id"]
        gold = row["gold"]
        outcome = call_utility(gold["utility"], gold["args"], question=row["question"],
                               lang=row["lang"])
        assert outcome.refusal is None, f"{row['id']}: {outcome.refusal.code}: {outcome.refusal.text}"
        # a text to work on is copied from the question, never retyped
        assert "text" not in gold["args"] or gold["args"]["text"] in row["question"], row["id"]


def test_style_lines_are_dev_utility_calls_that_execute_with_their_text_in_the_question(
        tasks) -> None:
    # written apart from the keyword tables and the generator, and never used to shape them
    styles = _read(STYLES)
    assert len(styles) >= 60
    _check_extra_utility_lines(styles, ("router_tasks", "red_team", "e2e", "router_probe"))
    assert Counter(r["lang"] for r in styles) == {"ru": 30, "en": 30}
    # one line a utility: the set spreads over the catalog instead of repeating a few ids
    assert len({r["gold"]["utility"] for r in styles}) == len(styles)
    assert not {r["id"] for r in styles} & ({r["id"] for r in tasks}
                                             | {r["id"] for r in _read(PROBE)})


def test_chat_lines_are_dev_utility_calls_in_both_languages_that_execute(tasks) -> None:
    # requests as people type them, the dev material the description prior was weighed on
    chat = _read(CHAT)
    assert len(chat) >= 80
    _check_extra_utility_lines(chat, ("router_tasks", "red_team", "e2e", "router_probe",
                                      "router_styles"))
    langs = Counter(r["lang"] for r in chat)
    assert min(langs["ru"], langs["en"]) >= 40, langs
    assert not {r["id"] for r in chat} & ({r["id"] for r in tasks} | {r["id"] for r in _read(PROBE)}
                                           | {r["id"] for r in _read(STYLES)})


TEXT = QUESTIONS / "router_text.jsonl"


def test_text_lines_are_dev_utility_calls_whose_text_is_in_the_question(tasks) -> None:
    # where free text begins and ends: quoted, unquoted after a naming word, two texts in one line
    text = _read(TEXT)
    assert len(text) >= 50
    _check_extra_utility_lines(text, ("router_tasks", "red_team", "e2e", "router_probe",
                                      "router_styles", "router_chat"))
    assert Counter(r["lang"] for r in text) == {"ru": 25, "en": 25}
    for row in text:  # every string value of the gold call is copied from the question
        for name, value in row["gold"]["args"].items():
            assert not isinstance(value, str) or name in {"mode", "standard", "charset"} or (
                value in row["question"]), (row["id"], name)
    others = {r["id"] for name in ("router_probe", "router_styles", "router_chat")
              for r in _read(QUESTIONS / f"{name}.jsonl")}
    assert not {r["id"] for r in text} & ({r["id"] for r in tasks} | others)


REFUSAL_PAIRS = QUESTIONS / "router_refusals.jsonl"


def test_refusal_pairs_are_dev_lines_each_with_an_answerable_twin(tasks) -> None:
    # a request that must be refused beside the same request with its data given
    rows = _read(REFUSAL_PAIRS)
    assert len(rows) >= 60
    refusals = [r for r in rows if r["kind"] == "red_team"]
    answers = [r for r in rows if r["kind"] == "utility"]
    assert len(refusals) + len(answers) == len(rows)
    for row in refusals:
        _check_fields(row, "red_team")
        assert row["split"] == "dev", row["id"]
    _check_extra_utility_lines(answers, ("router_tasks", "red_team", "e2e", "router_probe",
                                         "router_styles", "router_chat", "router_text"))
    # rt-red-3NN and its twin rt-u-9NN ask for the same thing in the same language
    twins = {r["id"].removeprefix("rt-u-9"): r for r in answers}
    assert {r["id"].removeprefix("rt-red-3") for r in refusals} == set(twins)
    for row in refusals:
        twin = twins[row["id"].removeprefix("rt-red-3")]
        assert twin["lang"] == row["lang"], row["id"]
        gold_utility = row["gold"].get("utility")
        assert gold_utility in (None, twin["gold"]["utility"]), row["id"]
    assert Counter(r["lang"] for r in rows) == {"ru": 30, "en": 30}
    questions = [r["question"].casefold() for r in rows]
    assert len(set(questions)) == len(questions)
    seen = {r["question"].casefold() for name in ("router_tasks", "red_team", "e2e")
            for r in _read(QUESTIONS / f"{name}.jsonl")}
    assert not set(questions) & seen
    others = {r["id"] for name in ("red_team", "router_probe", "router_styles", "router_chat",
                                   "router_text") for r in _read(QUESTIONS / f"{name}.jsonl")}
    assert not {r["id"] for r in rows} & ({r["id"] for r in tasks} | others)


COVERAGE = QUESTIONS / "router_coverage.jsonl"


def test_coverage_lines_ask_for_the_utilities_the_task_set_hardly_asks_for(tasks) -> None:
    # two requests, one in each language, for each utility with at most one dev line in the task
    # set; they train the routers beside it
    rows = _read(COVERAGE)
    _check_extra_utility_lines(rows, ("router_tasks", "red_team", "e2e", "router_probe",
                                      "router_styles", "router_chat", "router_text",
                                      "router_refusals"))
    per_utility = Counter((r["gold"]["utility"], r["lang"]) for r in rows)
    assert set(per_utility.values()) == {1}
    assert {u for u, _ in per_utility} == {u for u, lang in per_utility if (u, "ru") in per_utility
                                           and (u, "en") in per_utility}
    asked = Counter(r["gold"]["utility"] for r in tasks
                    if r["split"] == "dev" and r["gold"]["source"] == "utility")
    assert all(asked[uid] <= 1 for uid, _ in per_utility), sorted(
        uid for uid, _ in per_utility if asked[uid] > 1)
    assert COVERAGE.name in TRAINING_SETS
    others = {r["id"] for name in ("red_team", "router_probe", "router_styles", "router_chat",
                                   "router_text", "router_refusals")
              for r in _read(QUESTIONS / f"{name}.jsonl")}
    assert not {r["id"] for r in rows} & ({r["id"] for r in tasks} | others)


BOTH = frozenset({"ru", "en"})
CHECK_SETS = (  # in the order they were written: name, least refusals, least calls, languages
    ("router_newcomer", 30, 30, BOTH), ("router_helpdesk", 30, 15, BOTH),
    ("router_edges", 15, 20, BOTH), ("router_pointers", 20, 12, BOTH),
    ("router_workchat", 15, 15, frozenset({"ru"})), ("router_catalog", 35, 35, BOTH),
    ("router_office", 30, 25, BOTH), ("router_devteam", 30, 20, frozenset({"en"})),
    ("router_learners", 16, 20, BOTH), ("router_public", 30, 14, frozenset({"en"})),
    ("router_tester", 40, 14, BOTH), ("router_review", 40, 18, BOTH),
    ("router_shop", 30, 20, BOTH), ("router_hr", 30, 15, BOTH),
    ("router_logistics", 30, 20, BOTH), ("router_oncall", 30, 20, BOTH),
    ("router_realty", 30, 15, BOTH), ("router_clinic", 25, 20, BOTH),
    ("router_farm", 25, 25, BOTH), ("router_school", 25, 25, BOTH),
    ("router_hotel", 25, 25, BOTH), ("router_newsroom", 25, 25, BOTH),
    ("router_carservice", 30, 25, BOTH), ("router_library", 30, 25, BOTH),
    ("router_housing", 30, 20, BOTH), ("router_admissions", 30, 25, BOTH),
)
"""Each set is checked against every set written before it (``also_seen``)."""


@pytest.mark.parametrize(("path", "least_refusals", "least_calls", "also_seen", "langs"), [
    (QUESTIONS / f"{name}.jsonl", refusals, calls, tuple(n for n, *_ in CHECK_SETS[:i]), langs)
    for i, (name, refusals, calls, langs) in enumerate(CHECK_SETS)])
def test_check_set_lines_are_dev_refusals_and_calls_asked_by_no_other_set(
        tasks, path, least_refusals, least_calls, also_seen, langs) -> None:
    # requests typed as a newcomer or a colleague types them, with data whose edges are unclear,
    # or pointing at data or facts the question does not hold: refusals and calls, in the
    # languages the set is written in, dev only
    rows = _read(path)
    refusals = [r for r in rows if r["kind"] == "red_team"]
    calls = [r for r in rows if r["kind"] == "utility"]
    quotes = [r for r in rows if r["kind"] == "quote"]  # a course question beside its refusals
    assert len(refusals) >= least_refusals and len(calls) >= least_calls
    assert len(refusals) + len(calls) + len(quotes) == len(rows)
    assert all(r["gold"] == {"source": "quote"} and r["split"] == "dev" for r in quotes)
    for row in refusals:
        _check_fields(row, "red_team")
        assert row["split"] == "dev", row["id"]
        if row["gold"].get("utility"):  # the argument a refusal names is one of its utility's
            names = {a.name for a in load_catalog().schemas[row["gold"]["utility"]].arguments}
            assert (row["gold"].get("missing") or row["gold"].get("argument")) in names, row["id"]
    others = ("router_tasks", "red_team", "e2e", "router_probe", "router_styles", "router_chat",
              "router_text", "router_refusals", "router_coverage", *also_seen)
    _check_extra_utility_lines(calls, others)
    seen = {r["question"].casefold() for name in others for r in _read(QUESTIONS / f"{name}.jsonl")}
    assert not {r["question"].casefold() for r in refusals} & seen
    assert {r["lang"] for r in refusals} == {r["lang"] for r in calls} == langs
    taken = {r["id"] for name in others for r in _read(QUESTIONS / f"{name}.jsonl")}
    assert not {r["id"] for r in rows} & taken and len({r["id"] for r in rows}) == len(rows)
    assert path.name not in TRAINING_SETS and path.name in written_sets()  # trained on only when asked
