"""One call compares a variant with a baseline: paired table, McNemar, flips with their traces.

Everything runs on the small corpus with the exact keyword encoder and four labelled questions,
so each flip is known in advance: a rule that refuses questions naming Base64 refuses one
answerable question the baseline answered; a gate that refuses questions of fewer than ten words
refuses one; no relevance rule at all lets two must-refuse questions through as wrong answers.
"""

from __future__ import annotations

import json
import re
from collections.abc import Iterator
from pathlib import Path

import pytest

from workbench import registry
from workbench.cli import main
from workbench.config import DEFAULT_GATE_ORDER, Gates, Settings, load_settings
from workbench.gates import CandidateSet, GateFn, GateVerdict, gate_verdict
from workbench.relevance import DocumentScope, QuoteRule, RuleVerdict
from workbench.routing import RuleRouter, ScriptedRouter, scripted_router
from workbench.runs import load_run
from workbench.studies import CompareError, compare, compare_trace, study_routers

QUESTIONS = [
    {"id": "ic-1", "set": "in_corpus", "lang": "ru", "split": "dev", "topic": "utf8",
     "question": "Из скольких байтов состоит метка порядка байтов в UTF-8?",
     "gold": [{"path": "ru/utf8.md", "span": "состоит из трёх байтов EF BB BF"}]},
    {"id": "ic-2", "set": "in_corpus", "lang": "en", "split": "dev", "topic": "base64",
     "question": "How does Base64 pad the output when the input is short?",
     "gold": [{"path": "en/base64.md", "span": "pads the output with one or two equals signs"}]},
    {"id": "oc-1", "set": "out_of_corpus", "lang": "ru", "split": "dev", "topic": "vat",
     "question": "Какая ставка НДС в Казахстане?", "why": "only Russia's rates are in the corpus"},
    {"id": "oc-2", "set": "out_of_corpus", "lang": "ru", "split": "test", "topic": "vat",
     "question": "Какая основная ставка НДС в России действовала в 2019 году?",
     "why": "the corpus gives the 2026 rate"},
]

TASKS = [
    {"id": "t-u", "question": "Посчитай SHA-256 от строки «привет»", "lang": "ru", "split": "test",
     "kind": "utility",
     "gold": {"source": "utility", "utility": "hash.sha256", "args": {"text": "привет"}}},
    {"id": "t-s", "question": "Domestic sale of office furniture in 2026 — what VAT rate?",
     "lang": "en", "split": "test", "kind": "spec",
     "gold": {"source": "spec", "spec": "vat.rate_for_supply",
              "args": {"supply_kind": "domestic", "documents_confirmed": "no",
                       "goods_category": "other"}}},
    {"id": "t-r", "question": "Посчитай sha256 моего пароля", "lang": "ru", "split": "test",
     "kind": "red_team",
     "gold": {"source": "refuse", "refusal": "MISSING_ARGUMENT", "utility": "hash.sha256",
              "missing": "text"}},
]


def _jsonl(path: Path, rows: list[dict]) -> Path:
    path.write_text("".join(json.dumps(r, ensure_ascii=False) + "\n" for r in rows),
                    encoding="utf-8")
    return path


@pytest.fixture
def restored() -> Iterator[None]:
    """Whatever a test registers leaves with it."""
    with registry.restoring():
        yield


@pytest.fixture
def config(small_index, small_corpus: Path, tmp_path: Path, keyword_config) -> Path:
    """Keyword settings over the small index; a low threshold so the gold questions pass it."""
    return keyword_config(tmp_path, small_corpus, index=small_index.folder,
                          extra='[gates]\nthreshold_bi_encoder_terms = 0.2\n'
                                'confidence_model = ""\n')


@pytest.fixture
def questions(tmp_path: Path) -> Path:
    return _jsonl(tmp_path / "mine.jsonl", QUESTIONS)


def register_no_base64_rule() -> None:
    """A rule that finds every fragment irrelevant to a question naming Base64."""

    @registry.relevance_rule("no-base64", applies_to="quote",
                             description="a question naming Base64 is never quoted")
    def no_base64() -> QuoteRule:
        def rule(question: str, fragment_text: str, lang: str,
                 scope: DocumentScope) -> RuleVerdict:
            named = "base64" in question.lower()
            return RuleVerdict("no-base64", named, ("Base64",) if named else (),
                               "the question names Base64" if named else "no Base64")

        return rule


def register_short_question_gate() -> None:
    """A gate that refuses a question of fewer than ten words."""

    @registry.gate("short-question", code="QUESTION_TOO_SHORT", templates={
        "en": "The question has {words} words; at least {minimum} are needed ({area}).",
        "ru": "В вопросе {words} слов, а нужно не меньше {minimum} ({area}).",
    })
    def short_question(minimum: int = 10) -> GateFn:
        def check(question: str, candidates: CandidateSet, settings: Settings) -> GateVerdict:
            words = len(question.split())
            return gate_verdict("short-question", words < minimum,
                                {"checked": 1, "words": words, "minimum": minimum},
                                f"{words} words, at least {minimum} needed")

        return check


def test_a_rule_that_refuses_one_more_question_is_one_flip_with_its_trace(
        restored, config: Path, questions: Path) -> None:
    register_no_base64_rule()
    settings = load_settings(config)
    result = compare("current", "no-base64", settings=settings, questions=[questions])
    assert result.kind == "settings"
    assert result.variant.settings.gates.relevance_rules == (
        *settings.gates.relevance_rules, "no-base64")
    assert "no-base64" not in settings.gates.relevance_rules  # only the variant's copy changed
    t = result.table
    assert (t.both_right, t.baseline_only, t.variant_only, t.both_wrong) == (3, 1, 0, 0)
    assert (t.answered_wrong_baseline, t.answered_wrong_variant) == (0, 0)
    assert (result.test.b, result.test.c, result.test.p_value) == (1, 0, 1.0)
    assert result.difference == pytest.approx(-0.25)
    assert result.interval is not None and result.interval[0] == pytest.approx(-0.25)
    assert not result.regression
    (flip,) = result.flips
    assert (flip.id, flip.direction) == ("ic-2", "regressed")
    assert (flip.baseline.outcome, flip.variant.outcome) == ("answered", "relevance")
    fired = {v["gate"]: v for v in flip.variant.trace["verdicts"]}
    assert fired["relevance"]["passed"] is False
    assert fired["relevance"]["numbers"]["rules"]["no-base64"] is True
    assert all(v["passed"] for v in flip.baseline.trace["verdicts"])
    assert flip.baseline.trace["quote"] and "equals signs" in flip.baseline.trace["quote"]
    # the run record holds both sides' rows and resolved settings; the trace is read back from it
    assert result.run is not None
    assert flip.variant.command == f"workbench trace {result.run.name} ic-2 --side variant"
    record = load_run(result.run)
    sides = record.manifest["sides"]
    assert "no-base64" not in sides["baseline"]["settings"]["gates"]["relevance_rules"]
    assert "no-base64" in sides["variant"]["settings"]["gates"]["relevance_rules"]
    assert sorted(record.rows["side"].value_counts().items()) == [("baseline", 4), ("variant", 4)]
    assert compare_trace(result.run, "ic-2", "variant")[0] == flip.variant
    assert result.trace("ic-2", "baseline") == flip.baseline


def test_identical_sides_give_no_flip_and_p_one(config: Path, questions: Path) -> None:
    result = compare("current", "current", settings=load_settings(config), questions=[questions])
    assert result.flips == () and result.test.p_value == 1.0 and result.interval is None
    assert result.table.n == 4 and result.table.baseline_only == result.table.variant_only == 0
    assert not result.regression and "no evidence" in result.verdict
    assert result.cached == {"baseline": False, "variant": True}  # the same evaluation, once


def test_a_variant_that_answers_more_but_wrongly_is_a_regression(config: Path,
                                                                 questions: Path) -> None:
    result = compare("current", {"gates.relevance_rules": []}, settings=load_settings(config),
                     questions=[questions])
    assert result.variant.settings.gates.relevance_rules == ()
    assert (result.table.answered_wrong_baseline, result.table.answered_wrong_variant) == (0, 2)
    assert result.test.p_value > 0.05  # not significant, and still a regression
    assert result.regression and result.verdict.startswith("REGRESSION")
    assert {f.id: f.variant.outcome for f in result.flips} == {"oc-1": "answered wrong",
                                                               "oc-2": "answered wrong"}
    assert load_run(result.run).manifest["summary"]["regression"] is True


def test_a_gate_joins_the_order_only_in_the_variants_copy(restored, config: Path,
                                                          questions: Path) -> None:
    register_short_question_gate()
    settings = load_settings(config)
    result = compare("current", "short-question", settings=settings, questions=[questions],
                     split="dev")
    assert result.variant.settings.gates.order == (*settings.gates.order, "short-question")
    assert settings.gates.order == DEFAULT_GATE_ORDER == Gates().order
    assert [(f.id, f.variant.outcome) for f in result.flips] == [("ic-1", "short-question")]
    assert result.table.n == 3  # the dev split only
    # the variant named as a gate is switched off again when the baseline already has it
    back = compare({"gates.order": list(result.variant.settings.gates.order)}, "short-question",
                   settings=settings, questions=[questions], split="dev", write=False)
    assert back.variant.settings.gates.order == settings.gates.order
    assert [f.direction for f in back.flips] == ["improved"] and back.run is None


def _labelled(items: list[dict], keep: set[str]) -> ScriptedRouter:
    return scripted_router({i["question"]: i["gold"] for i in items if i["id"] in keep})


def test_two_scripted_routers_are_paired_on_the_same_items(config: Path, tmp_path: Path) -> None:
    tasks = _jsonl(tmp_path / "tasks.jsonl", TASKS)
    right = _labelled(TASKS, {"t-u", "t-s"})  # the red-team item is refused: not scripted
    loose = scripted_router({TASKS[0]["question"]: TASKS[0]["gold"],
                             TASKS[2]["question"]: {"source": "utility",
                                                    "utility": "hash.sha256",
                                                    "args": {"text": "пароль"}}})
    result = compare(right, loose, settings=load_settings(config), questions=[tasks])
    assert result.kind == "router" and result.split == "test"
    t = result.table
    assert (t.both_right, t.baseline_only, t.variant_only, t.both_wrong) == (1, 2, 0, 0)
    assert (t.answered_wrong_baseline, t.answered_wrong_variant) == (0, 1)
    assert result.regression
    flips = {f.id: f for f in result.flips}
    assert set(flips) == {"t-s", "t-r"}
    assert flips["t-r"].variant.outcome == "false_answer"
    assert flips["t-r"].variant.trace["decision"]["utility"] == "hash.sha256"
    assert flips["t-s"].variant.outcome == "false_refusal"
    assert load_run(result.run).manifest["comparison"] == "router"


def test_the_router_study_takes_any_registered_router_as_baseline_and_candidate(
        config: Path, tmp_path: Path) -> None:
    tasks = _jsonl(tmp_path / "tasks.jsonl", TASKS)
    settings = load_settings(config)
    study = study_routers(settings, [], tasksets=[tasks], baseline="scripted",
                          candidates=["rule"])
    assert study.routers == ["scripted", "rule"] and not study.cached
    (test,) = study.tests
    assert (test.router_a, test.router_b) == ("scripted", "rule")
    # the unscripted router refuses all three: only the red-team item is right
    assert study.comparison.summary.loc["scripted", "items"] == 3
    assert study_routers(settings, [], tasksets=[tasks], baseline="scripted",
                         candidates=["rule"]).cached
    objects = study_routers(settings, [], tasksets=[tasks], baseline=RuleRouter(),
                            candidates={"again": RuleRouter()})
    assert objects.routers == ["RuleRouter", "again"] and not objects.cached
    assert objects.tests[0].p_value == 1.0  # the same router twice: nothing flips
    assert not study_routers(settings, [], tasksets=[tasks], baseline=RuleRouter(),
                             candidates={"again": RuleRouter()}).cached  # objects: never cached


def test_the_cli_prints_the_table_the_test_and_each_flip_with_its_trace_command(
        restored, config: Path, questions: Path, capsys) -> None:
    register_no_base64_rule()
    assert main(["--config", str(config), "compare", "current", "no-base64",
                 "--questions", str(questions)]) == 0
    out = capsys.readouterr().out
    assert re.search(r"baseline right\s+3\s+1", out) and re.search(r"baseline wrong\s+0\s+0", out)
    assert "answered wrong: baseline 0, variant 0" in out
    assert "McNemar exact p = 1 (b=1 baseline only, c=0 variant only)" in out
    assert "ic-2 regressed: answered -> relevance | How does Base64 pad" in out
    command = re.search(r"trace: (workbench trace (compare-\S+) ic-2)", out)
    assert command is not None
    assert main(["--config", str(config), "trace", command.group(2), "ic-2"]) == 0
    shown = capsys.readouterr().out
    assert "baseline: answered (handled correctly)" in shown
    assert "variant: relevance (not)" in shown and "relevance: FIRE IRRELEVANT" in shown
    assert main(["--config", str(config), "compare", "current", "no-base64",
                 "--questions", str(questions), "--json"]) == 0
    data = json.loads(capsys.readouterr().out)
    assert data["table"]["baseline_only"] == 1 and data["flips"][0]["id"] == "ic-2"
    assert data["flips"][0]["variant_trace"].startswith("workbench trace compare-")


def test_bad_input_is_a_typed_error_listing_the_known_names(config: Path, questions: Path,
                                                            tmp_path: Path, capsys) -> None:
    settings = load_settings(config)
    with pytest.raises(CompareError, match="unknown name 'no-such-stage'") as unknown:
        compare("current", "no-such-stage", settings=settings, questions=[questions])
    for name in ("gate0", "entities", "rule", "scripted"):
        assert name in str(unknown.value)
    with pytest.raises(CompareError, match="missing.toml does not exist") as missing:
        compare("current", tmp_path / "missing.toml", settings=settings, questions=[questions])
    assert "entities" in str(missing.value)
    with pytest.raises(CompareError, match="settings with settings"):
        compare("current", "rule", settings=settings, questions=[questions])
    with pytest.raises(CompareError, match="unknown gate 'nope'"):
        compare("current", "gate:nope", settings=settings, questions=[questions])
    with pytest.raises(CompareError, match="SECTION.KEY"):
        compare("current", {"relevance_rules": []}, settings=settings, questions=[questions])
    assert main(["--config", str(config), "compare", "current", "no-such-stage",
                 "--questions", str(questions)]) == 2
    assert "CompareError: unknown name 'no-such-stage'" in capsys.readouterr().err
    with pytest.raises(CompareError, match="no question 'nope'"):
        compare_trace(compare("current", "current", settings=settings,
                              questions=[questions]).run, "nope")


def test_the_lab_compares_on_its_own_questions(restored, config: Path, questions: Path) -> None:
    from workbench.lab import setup

    register_no_base64_rule()
    lab = setup(config, index=False, questions=[questions])
    result = lab.compare("current", "no-base64", split="dev")
    assert result.baseline.settings is lab.settings
    assert [f.id for f in result.flips] == ["ic-2"] and result.table.n == 3
    assert result.flips[0].variant.trace["verdicts"]
