"""One registered function in one file: a new gate or rule reaches every place the registry feeds.

A gate registered here (as a researcher would in a notebook or a module of their own, see
``docs/extending.md``) is evaluated for every question, gets its ``wf_<gate>`` column, is
credited by attribution, can be switched off in the gate-order explorer, is listed in the run
record's stages and in the report. A relevance rule is likewise evaluated, ablated, recorded
with the parameters ``[gates] rule_params`` gave it, and shown by the rule panel and the report.
Both are unregistered when their test ends (``registry.restoring``).

The second half walks every registered gate, rule, router and invariant: each is built or called
once and appears where it must (gate codes and templates, rule columns, invariant lists).
"""

from __future__ import annotations

import dataclasses
import json
import re
from collections.abc import Iterator
from pathlib import Path

import pandas as pd
import pytest
from evidence_helpers import quote_evidence, spec_evidence, utility_evidence

from workbench import registry
from workbench.answers import (
    Answer,
    Cell,
    CheckContext,
    Mode,
    QuoteEvidence,
    check_answer,
    invariant_names,
    invariants_by_kind,
    invariants_for,
    render_evidence,
)
from workbench.config import ConfigError, Settings
from workbench.corpus import Corpus
from workbench.gates import (
    CandidateSet,
    GateFn,
    GateVerdict,
    QuoteSource,
    candidate_set,
    default_order,
    gate_codes,
    gate_templates,
    gate_verdict,
    quote_stages,
    refusal_from_verdict,
)
from workbench.refusal import falsehood_words
from workbench.relevance import DocumentScope, QuoteRule, RuleVerdict, quote_rules
from workbench.report._build import ablation_section, gates_section
from workbench.retrieval import KeywordEmbedder
from workbench.routing import RouterDecision, Source, build_router
from workbench.runs import load_run
from workbench.studies import (
    diff_runs,
    evaluate_sets,
    evaluated_gates,
    evaluated_rules,
    first_firing,
    gate_attribution,
    record_run,
    rule_ablation,
    rule_report,
    run_order,
    would_fire_matrix,
)
from workbench.widgets import (
    GateOrderExplorer,
    gate_order_state,
    rule_ablation_state,
    rule_catalog,
)

QUESTIONS = {
    "in_corpus": [
        {"id": "ic-1", "question": "Из скольких байтов состоит метка порядка байтов в UTF-8?",
         "lang": "ru", "split": "dev", "topic": "utf8",
         "gold": [{"path": "ru/utf8.md", "span": "состоит из трёх байтов EF BB BF"}]},
        {"id": "ic-2", "question": "How does Base64 pad the output when the input is short?",
         "lang": "en", "split": "dev", "topic": "base64",
         "gold": [{"path": "en/base64.md", "span": "pads the output with one or two equals signs"}]},
    ],
    "out_of_corpus": [
        {"id": "oc-1", "question": "Какая ставка НДС в Казахстане?", "lang": "ru", "split": "dev",
         "topic": "vat", "why": "only Russia's rates are in the corpus"},
        {"id": "oc-2", "question": "Какая основная ставка НДС в России действовала в 2019 году?",
         "lang": "ru", "split": "dev", "topic": "vat", "why": "the corpus gives the 2026 rate"},
    ],
}


# --- what a researcher writes: one registered function each (mirrored in docs/extending.md) ----

def register_short_question_gate() -> None:
    """The gate of ``docs/extending.md``: a question of few words says too little to quote on."""

    @registry.gate("short-question", code="QUESTION_TOO_SHORT", templates={
        "en": "The question is too short to look for a quote in {area}: it has {words} words, "
              "and at least {minimum} are needed.",
        "ru": "Вопрос слишком короткий, чтобы искать цитату в источнике ({area}): в нём "
              "{words} слов, а нужно не меньше {minimum}.",
    })
    def short_question(minimum: int = 6) -> GateFn:
        """A question of fewer than ``minimum`` words."""

        def check(question: str, candidates: CandidateSet, settings: Settings) -> GateVerdict:
            words = len(question.split())
            return gate_verdict("short-question", words < minimum,
                                {"checked": 1, "words": words, "minimum": minimum},
                                f"{words} words, at least {minimum} needed")

        return check


_NUMBER = re.compile(r"\d+(?:[.,]\d+)?")


def register_numbers_rule() -> None:
    """The rule of ``docs/extending.md``: the question's numbers occur in the fragment."""

    @registry.relevance_rule("numbers", applies_to="quote",
                             description="the numbers of the question occur in the fragment")
    def numbers(min_share: float = 1.0) -> QuoteRule:
        """At least ``min_share`` of the question's numbers occur in the fragment."""

        def rule(question: str, fragment_text: str, lang: str,
                 scope: DocumentScope) -> RuleVerdict:
            wanted = _NUMBER.findall(question)
            present = set(_NUMBER.findall(fragment_text))
            missing = tuple(n for n in wanted if n not in present)
            share = 1.0 - len(missing) / len(wanted) if wanted else 1.0
            return RuleVerdict("numbers", share < min_share, missing,
                               f"{len(wanted) - len(missing)}/{len(wanted)} numbers of the "
                               f"question in the fragment")

        return rule


def register_quote_has_words_invariant() -> None:
    """The invariant of ``docs/extending.md``: a quote holds at least one word."""

    @registry.invariant("quote_has_words", applies_to="quote")
    def quote_has_words(item: QuoteEvidence, context: CheckContext) -> Cell:
        """Whitespace or punctuation alone is no evidence."""
        if any(ch.isalnum() for ch in item.text):
            return Cell(True, f"{len(item.text.split())} word(s)")
        return Cell(False, "the quote holds no word")


class AlwaysQuote:
    """The router of ``docs/extending.md``: every question goes to the quote source."""

    def route(self, question: str) -> RouterDecision:
        return RouterDecision(source=Source.QUOTE)


def register_always_quote_router() -> None:
    @registry.router("always-quote")
    def always_quote() -> AlwaysQuote:
        """Build the router (it has no parameters)."""
        return AlwaysQuote()


# --- fixtures ------------------------------------------------------------------------------------

@pytest.fixture
def restored() -> Iterator[None]:
    """Whatever a test registers leaves with it."""
    with registry.restoring():
        yield


@pytest.fixture
def questions(tmp_path: Path) -> Path:
    folder = tmp_path / "questions"
    folder.mkdir()
    for name, items in QUESTIONS.items():
        lines = [json.dumps({**item, "set": name}, ensure_ascii=False) for item in items]
        (folder / f"{name}.jsonl").write_text("\n".join(lines) + "\n", encoding="utf-8")
    return folder


def _settings(small_index, small_corpus: Path, questions: Path, tmp_path: Path,
              **gates) -> Settings:
    base = Settings()
    settings = dataclasses.replace(
        base, paths=dataclasses.replace(base.paths, corpus=small_corpus, index=small_index.folder,
                                        questions=questions, results=tmp_path / "results",
                                        cache=tmp_path / "cache"),
        embedder=dataclasses.replace(base.embedder, name="keyword"),
        gates=dataclasses.replace(base.gates, threshold_bi_encoder_terms=0.2))
    return settings.with_overrides(gates=gates) if gates else settings


def _evaluate(settings: Settings, small_index) -> pd.DataFrame:
    source = QuoteSource(settings, index=small_index, embedder=KeywordEmbedder())
    return evaluate_sets(settings, sets=tuple(QUESTIONS), source=source)


def _record(settings: Settings, rows: pd.DataFrame, tmp_path: Path) -> Path:
    return record_run("gates", rows, settings=settings, results_dir=tmp_path / "results",
                      extra={"order": list(settings.gates.order), "mode": "bi-encoder",
                             "split": None, "sets": list(QUESTIONS)})


# --- the acceptance tests --------------------------------------------------------------------

def test_a_gate_registered_in_one_place_reaches_every_view(restored, small_index, small_corpus,
                                                           questions, tmp_path) -> None:
    before = default_order()
    register_short_question_gate()
    assert gate_codes()["short-question"] == "QUESTION_TOO_SHORT"
    # registering never changes the default order: the gate takes part where an order names it
    assert default_order() == before == Settings().gates.order
    assert "short-question" not in before
    order = ["short-question", *before]
    settings = _settings(small_index, small_corpus, questions, tmp_path, order=order)

    # evaluation: every question has the gate's flag, and the pipeline refuses with its code
    rows = _evaluate(settings, small_index)
    assert "wf_short-question" in rows.columns
    assert evaluated_gates(rows) == tuple(order)
    fired = dict(zip(rows["id"], rows["wf_short-question"], strict=True))
    assert fired == {"ic-1": False, "ic-2": False, "oc-1": True, "oc-2": False}
    oc1 = rows.set_index("id").loc["oc-1"]
    assert oc1["code"] == "QUESTION_TOO_SHORT"
    assert "в нём 5 слов" in oc1["refusal_text"] and falsehood_words(oc1["refusal_text"]) == []
    assert oc1["answer_source_code"] == "QUESTION_TOO_SHORT"

    # attribution: the run's own order, the gate credited first, counts that add up
    assert run_order(rows) == tuple(order)
    attribution = gate_attribution(rows)
    assert list(attribution.columns[1:1 + len(order)]) == order
    assert attribution.loc["out_of_corpus", "short-question"] == 1
    assert (attribution[order].sum(axis=1) + attribution["answered"] == attribution["n"]).all()
    assert "short-question" in would_fire_matrix(rows).columns

    # ablation: with the gate switched off its question falls to the gates behind it
    without = [g for g in order if g != "short-question"]
    assert "short-question" in set(first_firing(rows, order))
    assert "short-question" not in set(first_firing(rows, without))
    assert rule_ablation(rows, order=order)["n_rules"].max() == len(quote_rules())

    # the gate-order explorer: listed with its code and a colour, and it can be switched off
    state = gate_order_state(rows)
    assert state["order"] == order and state["codes"]["short-question"] == "QUESTION_TOO_SHORT"
    assert state["colors"]["short-question"]
    assert [r["short-question"] for r in state["attribution"] if r["set"] == "all"] == [1]
    assert "short-question" in state["overlaps"]["gates"]
    widget = GateOrderExplorer(rows)
    widget.toggle("short-question", False)
    assert "short-question" not in widget.state["active_order"]
    widget.move("short-question", +(len(order) - 1))
    assert widget.state["order"][-1] == "short-question"

    # the run record: the stages it built, the gate re-sliced from the record read back
    folder = _record(settings, rows, tmp_path)
    manifest = json.loads((folder / "manifest.json").read_text(encoding="utf-8"))
    gates = [s for s in manifest["stages"] if s["kind"] == "gate"]
    assert [s["name"] for s in gates] == order
    assert gates[0] == {"kind": "gate", "name": "short-question", "params": {}, "position": 0}
    record = load_run(folder)
    assert gate_attribution(record).loc["all", "short-question"] == 1
    second = _record(settings, rows, tmp_path)
    assert diff_runs(folder, second).paired == len(rows)

    # the report: the gate is a column of the firing table and a stage of the record
    html = gates_section(tmp_path / "results").body
    assert "short-question" in html and "Stages built: gates short-question &gt; gate0" in html


def test_a_rule_registered_in_one_place_reaches_every_view(restored, small_index, small_corpus,
                                                           questions, tmp_path) -> None:
    register_numbers_rule()
    assert quote_rules()[-1] == "numbers"
    settings = _settings(small_index, small_corpus, questions, tmp_path,
                         relevance_rules=["entities", "numbers"],
                         rule_params={"numbers": {"min_share": 0.5}})
    with pytest.raises(ConfigError, match="the rule 'numbers' has no parameter 'share'"):
        settings.with_overrides(gates={"rule_params": {"numbers": {"share": 0.5}}})

    # evaluation: every question has the rule's flag; the 2019 question lacks its number
    rows = _evaluate(settings, small_index)
    assert evaluated_rules(rows) == quote_rules()
    flags = dict(zip(rows["id"], rows["rule_numbers"], strict=True))
    assert flags["oc-2"] and not flags["ic-1"]
    verdicts = json.loads(rows.set_index("id").loc["oc-2", "verdicts"])
    relevance = next(v for v in verdicts if v["gate"] == "relevance")
    assert relevance["numbers"]["rules"]["numbers"] is True
    assert relevance["numbers"]["missing"]["numbers"] == ["2019"]

    # ablation: every subset of the evaluated rules, the new one among them
    table = rule_ablation(rows).set_index("rules")
    assert len(table) == 2 ** len(quote_rules()) and "numbers" in table.index
    record_rows = rows.copy()
    lines = rule_report(record_rows, "dev", ("entities", "numbers"))
    assert any(line.startswith("numbers [on]") for line in lines)

    # the rule panel lists it as switchable and ablates it
    catalog = {r["name"]: r for r in rule_catalog(rows)}
    assert catalog["numbers"]["available"] and catalog["numbers"]["applies_to"] == "quote"
    state = rule_ablation_state(rows, rules=["numbers"])
    assert state["current"] == "numbers"
    assert any(r["name"] == "numbers" and r["enabled"] for r in state["rules"])

    # the run record lists the rule with the parameters it was built with
    folder = _record(settings, rows, tmp_path)
    manifest = json.loads((folder / "manifest.json").read_text(encoding="utf-8"))
    rules = {s["name"]: s for s in manifest["stages"] if s["kind"] == "relevance_rule"}
    assert rules["numbers"] == {"kind": "relevance_rule", "name": "numbers",
                                "params": {"min_share": 0.5}, "enabled": True}
    assert rules["lang-match"]["enabled"] is False
    assert manifest["settings"]["gates"]["rule_params"] == {"numbers": {"min_share": 0.5}}

    # the report's ablation table has a row for it
    assert "numbers" in ablation_section(tmp_path / "results").body
    assert "numbers (min_share=0.5)" in gates_section(tmp_path / "results").body


def test_rule_params_reach_the_rule(small_index, small_corpus, questions, tmp_path) -> None:
    """``[gates] rule_params`` builds the rule with its own parameters, as the stages say."""
    question = "How does Base64 pad the output when the input is short?"
    loose = _settings(small_index, small_corpus, questions, tmp_path,
                      rule_params={"term-coverage": {"min_share": 0.0}})
    strict = loose.with_overrides(gates={"rule_params": {"term-coverage": {"min_share": 1.0}}})
    source = QuoteSource(loose, index=small_index, embedder=KeywordEmbedder())

    def coverage_fired(settings: Settings) -> bool:
        trace = source.ask_many([question], settings=settings)[0].trace
        return next(v for v in trace.verdicts if v.gate == "relevance").numbers["rules"][
            "term-coverage"]

    assert not coverage_fired(loose) and coverage_fired(strict)
    stage = next(s for s in quote_stages(strict) if s["name"] == "term-coverage")
    assert stage["params"] == {"min_share": 1.0} and stage["enabled"] is False


def test_an_invariant_registered_in_one_place_is_checked(restored, context) -> None:
    register_quote_has_words_invariant()
    assert invariants_for("quote")[-1] == "quote_has_words"
    item = quote_evidence(context)
    report = check_answer(Answer(Mode.A, render_evidence((item,)), (item,)), context)
    assert report.passed and "quote_has_words" in report.to_frame().columns
    assert report.rows[1].cells["quote_has_words"].reason.endswith("word(s)")
    blank = dataclasses.replace(item, text=" , ")
    failed = check_answer(Answer(Mode.A, render_evidence((blank,)), (blank,)), context)
    assert "quote_has_words" in failed.failed_invariants


def test_a_router_registered_in_one_place_is_built_by_name(restored) -> None:
    register_always_quote_router()
    router = build_router("always-quote")
    assert router.route("anything").source is Source.QUOTE
    assert registry.registry_info(router).name == "always-quote"


def test_unregister_and_restoring_undo_a_registration() -> None:
    with registry.restoring():
        register_short_question_gate()
        assert "short-question" in gate_codes()
        registry.unregister("gate", "short-question")
        assert "short-question" not in gate_codes()
        register_short_question_gate()
    assert "short-question" not in gate_codes()
    with pytest.raises(registry.UnknownNameError, match="short-question"):
        registry.unregister("gate", "short-question")


# --- every registered stage is built once and appears where it must ---------------------------

@pytest.fixture
def view(small_index, small_corpus: Path, questions, tmp_path) -> tuple[Settings, CandidateSet]:
    settings = _settings(small_index, small_corpus, questions, tmp_path)
    source = QuoteSource(settings, index=small_index, embedder=KeywordEmbedder())
    candidates = source.retriever.search_many(["Какая ставка НДС применяется при экспорте?"])[0]
    return settings, candidate_set(candidates, small_index, Corpus(small_corpus), "ru")


def test_every_registered_gate_is_built_and_has_code_and_templates(view) -> None:
    settings, candidates = view
    registry.load("gate")
    codes = gate_codes()
    assert tuple(codes) == default_order() == Settings().gates.order
    for name, code in codes.items():
        check = registry.build("gate", name)
        verdict = check(candidates.question, candidates, settings)
        assert verdict.gate == name and verdict.numbers
        forced = dataclasses.replace(verdict, passed=False, code=code)
        templates = gate_templates(name)
        assert set(templates) == {"ru", "en"}, name
        for lang in ("ru", "en"):
            refusal = refusal_from_verdict(forced, candidates.area, lang)
            assert refusal.code == code and falsehood_words(refusal.text) == []
            assert "{" not in refusal.text, refusal.text
        assert registry.registry_info(check).to_dict() == {"kind": "gate", "name": name,
                                                           "params": {}}


def test_every_registered_rule_is_built_and_evaluated(view) -> None:
    settings, candidates = view
    registry.load("relevance_rule")
    kinds = registry.metadata_of("relevance_rule", "applies_to")
    assert set(kinds) == set(registry.names("relevance_rule"))
    relevance = registry.build("gate", "relevance")(candidates.question, candidates, settings)
    for name, applies_to in kinds.items():
        rule = registry.build("relevance_rule", name)
        if applies_to == "quote":
            verdict = rule(candidates.question, candidates.fragments[0].text, "ru",
                           DocumentScope(candidates.fragments[0].anchor.path))
            assert verdict.rule == name
            # the relevance gate evaluated it, and its stage is in the record
            assert name in relevance.numbers["rules"]
            assert any(s["name"] == name for s in quote_stages(settings))
        else:
            assert applies_to == "utility", name
            assert rule("сколько будет 2+2", {"text": "2+2"}, {"text": "data"}).passed


def test_every_registered_router_is_built(tmp_path: Path) -> None:
    registry.load("router")
    replay = tmp_path / "replay.jsonl"
    replay.write_text(json.dumps({"id": "x", "question": "q", "decision": {"source": "quote"}})
                      + "\n", encoding="utf-8")
    builds = {
        "rule": ({}, None),
        "scripted": ({"decisions": {"q": {"source": "quote"}}}, None),
        "replay": ({"path": str(replay)}, None),
        # the one router that needs model weights: built on a folder without any, it refuses
        # in its own typed error, which is what a run with a bad model path reports
        "transformers": ({"path": str(tmp_path / "no-model")}, "TransformersRouterError"),
        # so does the span router: a folder without weights is its own typed error
        "span": ({"path": str(tmp_path / "no-weights")}, "SpanRouterError"),
        # and so do the span router's learned-binder variants, before their binder loads
        "span-binder": ({"path": str(tmp_path / "no-weights")}, "SpanRouterError"),
        "span-binder-noref": ({"path": str(tmp_path / "no-weights")}, "SpanRouterError"),
        "span-binder-noref-doubt": ({"path": str(tmp_path / "no-weights")}, "SpanRouterError"),
    }
    assert set(builds) == set(registry.names("router")), "add the new router's build here"
    for name, (params, error) in builds.items():
        if error is not None:
            with pytest.raises(Exception) as caught:
                registry.build("router", name, **params)
            assert type(caught.value).__name__ == error
            continue
        router = registry.build("router", name, **params)
        assert isinstance(router.route("q"), RouterDecision)
        assert registry.registry_info(router).name == name


def test_every_registered_invariant_is_listed_and_checked(context, certificate) -> None:
    by_kind = invariants_by_kind()
    names = invariant_names()
    assert sorted(n for group in by_kind.values() for n in group) == sorted(names)
    assert set(by_kind) == {"answer", "quote", "utility", "spec"}
    for kind, group in by_kind.items():
        for name in group:
            assert registry.lookup("invariant", name).metadata["applies_to"] == kind
    items = (quote_evidence(context), utility_evidence(), spec_evidence(certificate))
    report = check_answer(Answer(Mode.A, render_evidence(items), items), context)
    assert list(report.to_frame().columns[2:]) == list(names)
    # every invariant was called on a row of its kind, and held on genuine evidence
    for row in report.rows:
        assert row.passed, row
        assert {n for n, c in row.cells.items() if c.passed is not None} == set(by_kind[row.kind])
    assert {r.kind for r in report.rows} == set(by_kind)
