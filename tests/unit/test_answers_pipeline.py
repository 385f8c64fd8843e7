"""The pipeline: every refusal path, and mode A never degrading silently."""

from __future__ import annotations

import dataclasses
from pathlib import Path

import pytest

from workbench.answers import (
    AnswerCode,
    CheckContext,
    Invariant,
    Mode,
    TransformersGenerator,
    answer,
)
from workbench.config import load_settings
from workbench.corpus import Corpus
from workbench.gates import QuoteSource
from workbench.refusal import falsehood_words
from workbench.retrieval import KeywordEmbedder
from workbench.routing import RouterDecision, ScriptedRouter

BASE = load_settings()

ANSWERED = {
    "Какая ставка НДС применяется при экспорте товаров?": {"source": "quote"},
    "md5 of abc": {"source": "utility", "utility": "hash.md5", "args": {"text": "abc"}},
    "VAT on 100000 rub": {"source": "spec", "spec": "vat.vat_amount",
                          "args": {"tax_base": "100000.00 rub", "reduced_goods": "no"}},
    # export documents do not matter to a domestic sale: the conclusion holds without them
    "rate for newspapers sold at home": {
        "source": "spec", "spec": "vat.rate_for_supply",
        "args": {"supply_kind": "domestic", "goods_category": "periodicals"}},
}

# question -> (decision, expected mode-A refusal code): every way mode A can stop
REFUSALS = {
    "Какая ставка НДС применяется к экспорту в Казахстане?": ({"source": "quote"}, "IRRELEVANT"),
    "Who painted the ceiling of the Sistine Chapel?": ({"source": "quote"},
                                                       "GATE0_NO_LEXICAL_SUPPORT"),
    "md6 of abc": ({"source": "utility", "utility": "hash.md6", "args": {"text": "abc"}},
                   "UNKNOWN_UTILITY"),
    "hmac of x": ({"source": "utility", "utility": "hash.hmac_sha256", "args": {"text": "x"}},
                  "MISSING_ARGUMENT"),
    "compute the statistics of the text in windows-1251": (
        {"source": "utility", "utility": "text.stats", "args": {"text": "windows-1251"}},
        "ARGUMENT_IS_CIRCUMSTANCE"),
    "sha256 of a list": ({"source": "utility", "utility": "hash.sha256", "args": {"text": ["a"]}},
                         "BAD_ARGUMENT"),
    "a spec nobody wrote": ({"source": "spec", "spec": "vat.nothing"}, "UNKNOWN_SPEC"),
    "VAT with no inputs": ({"source": "spec", "spec": "vat.vat_amount", "args": {}},
                           "BAD_SPEC_INPUT"),
    "rate for exported newspapers": ({"source": "spec", "spec": "vat.rate_for_supply",
                                      "args": {"supply_kind": "export", "goods_category": "periodicals"}},
                                     "BAD_SPEC_INPUT"),
    "VAT on exports at 22%": ({"source": "spec", "spec": "vat.export_counterexample",
                               "args": {}}, "E_PREMISE"),
    "the router says no": ({"source": "refuse"}, "ROUTER_REFUSED"),
}
UNSCRIPTED = "a question nobody scripted"


class FakeGenerator:
    """A generator that needs no model: echoes a fixed advisory sentence."""

    model_id = "fake"

    def generate(self, question: str) -> str:
        return f"Advisory: {question}"


@pytest.fixture
def settings(small_index, small_corpus: Path):
    return dataclasses.replace(
        BASE, paths=dataclasses.replace(BASE.paths, corpus=small_corpus, index=small_index.folder),
        gates=dataclasses.replace(BASE.gates, threshold_bi_encoder_terms=0.2))


@pytest.fixture
def source(settings, small_index) -> QuoteSource:
    return QuoteSource(settings, index=small_index, embedder=KeywordEmbedder())


@pytest.fixture
def router() -> ScriptedRouter:
    decisions = dict(ANSWERED)
    decisions.update({q: d for q, (d, _code) in REFUSALS.items()})
    return ScriptedRouter(decisions)


@pytest.mark.parametrize("question", list(ANSWERED))
def test_each_source_answers_in_mode_a_with_a_passing_report(question, router, settings,
                                                              source) -> None:
    result = answer(question, router, settings, quote_source=source)
    assert result.answer is not None, result.refusal
    assert result.answer.mode is Mode.A and len(result.answer.evidence) == 1
    assert result.trace.report is not None and result.trace.report.passed
    assert result.trace.steps[0].startswith("route: ")
    row = result.to_row()
    assert row["mode"] == "A" and row["invariants_passed"] is True and not row["refused"]


@pytest.mark.parametrize("question", [*REFUSALS, UNSCRIPTED])
def test_mode_a_never_degrades_silently(question, router, settings, source) -> None:
    expected = REFUSALS[question][1] if question in REFUSALS else "NOT_SCRIPTED"
    # not allowed: a refusal, never an answer of any mode
    plain = answer(question, router, settings, quote_source=source)
    assert plain.answer is None and plain.refusal.code == expected
    assert plain.trace.mode_a_refusal.code == expected
    assert not falsehood_words(plain.refusal.text)
    # allowed, but no generator configured: mode B says it is unavailable, keeping the reason
    unavailable = answer(question, router, settings, quote_source=source, allow_mode_b=True)
    assert unavailable.answer is None
    assert unavailable.refusal.code == AnswerCode.MODE_B_UNAVAILABLE
    assert unavailable.refusal.numbers["mode_a_code"] == expected
    assert expected in unavailable.refusal.text
    # allowed with a generator: an explicit transition to B whose note says why A could not
    moved = answer(question, router, settings, quote_source=source, allow_mode_b=True,
                   generator=FakeGenerator())
    assert moved.answer.mode is Mode.B and moved.answer.evidence == ()
    assert expected in moved.answer.transition_note
    assert any(step.startswith("transition to mode B") for step in moved.trace.steps)


def test_an_invariant_failure_turns_the_answer_into_a_refusal(router, settings, source,
                                                               small_corpus) -> None:
    question = next(iter(ANSWERED))
    context = CheckContext(corpus=Corpus(small_corpus))  # no index: quotes cannot resolve
    result = answer(question, router, settings, quote_source=source, context=context)
    assert result.answer is None and result.refusal.code == AnswerCode.INVARIANT_FAILED
    assert result.refusal.numbers["invariant"] == Invariant.QUOTE_IN_INDEX
    assert result.trace.report is not None and not result.trace.report.passed
    allowed = answer(question, router, settings, quote_source=source, context=context,
                     allow_mode_b=True, generator=FakeGenerator())
    assert allowed.answer.mode is Mode.B and "INVARIANT_FAILED" in allowed.answer.transition_note


def test_a_missing_index_is_a_refusal(router, settings, tmp_path) -> None:
    missing = dataclasses.replace(settings, paths=dataclasses.replace(settings.paths,
                                                                      index=tmp_path / "none"))
    result = answer(next(iter(ANSWERED)), router, missing)
    assert result.refusal.code == AnswerCode.QUOTE_SOURCE_UNAVAILABLE


def test_default_settings_have_no_generator() -> None:
    assert BASE.generator.path is None


def _tiny_model(folder: Path) -> Path:
    from tokenizers import Tokenizer, models, pre_tokenizers
    from transformers import GPT2Config, GPT2LMHeadModel, PreTrainedTokenizerFast

    words = ["[UNK]", "[EOS]", "the", "rate", "of", "vat", "is", "what", "export", "?", "a", "b"]
    tokenizer = Tokenizer(models.WordLevel({w: i for i, w in enumerate(words)}, unk_token="[UNK]"))
    tokenizer.pre_tokenizer = pre_tokenizers.Whitespace()
    fast = PreTrainedTokenizerFast(tokenizer_object=tokenizer, unk_token="[UNK]",
                                   eos_token="[EOS]")
    fast.save_pretrained(folder)
    config = GPT2Config(vocab_size=len(words), n_positions=64, n_embd=32, n_layer=1, n_head=2,
                        bos_token_id=1, eos_token_id=1)
    GPT2LMHeadModel(config).save_pretrained(folder)
    return folder


def test_a_configured_local_model_writes_mode_b(router, settings, source, tmp_path) -> None:
    folder = _tiny_model(tmp_path / "tiny")
    configured = dataclasses.replace(
        settings, generator=dataclasses.replace(settings.generator, path=folder, max_new_tokens=5))
    result = answer("what is the rate of vat ?", ScriptedRouter({}), configured, allow_mode_b=True,
                    quote_source=source)
    assert result.answer.mode is Mode.B and isinstance(result.answer.text, str)
    assert "NOT_SCRIPTED" in result.answer.transition_note
    again = TransformersGenerator(folder, max_new_tokens=5).generate("what is the rate of vat ?")
    assert again == result.answer.text  # greedy decoding: the same question, the same text


def test_decisions_can_be_records(settings, source) -> None:
    router = ScriptedRouter({"md5 of abc": RouterDecision(source="utility", utility="hash.md5",
                                                          args={"text": "abc"})})
    result = answer("md5 of abc", router, settings, quote_source=source)
    assert result.answer.evidence[0].result == "900150983cd24fb0d6963f7d28e17f72"


def test_describe_shows_mode_evidence_and_report(router, settings, source) -> None:
    shown = answer("md5 of abc", router, settings, quote_source=source).describe()
    assert "mode A" in shown and "evidence[0]" in shown and "utility_same_result" in shown
    refused = answer("md6 of abc", router, settings, quote_source=source).describe()
    assert "refusal: UNKNOWN_UTILITY" in refused
    moved = answer("md6 of abc", router, settings, quote_source=source, allow_mode_b=True,
                   generator=FakeGenerator()).describe()
    assert "mode B (advisory" in moved and "UNKNOWN_UTILITY" in moved


def test_the_spec_route_runs_the_fts_gate_once(router, settings, source, monkeypatch) -> None:
    # once at the source, and once more in the invariant checker, which trusts nothing the
    # source did; the source used to run it a second time to evaluate the inputs
    import workbench.fts._api as fts_api

    calls = []
    real = fts_api.check_text

    def counting(*args, **kwargs):
        calls.append(kwargs.get("path"))
        return real(*args, **kwargs)

    monkeypatch.setattr(fts_api, "check_text", counting)
    result = answer("VAT on 100000 rub", router, settings, quote_source=source)
    assert result.mode == "A" and result.answer.evidence[0].conclusion
    assert len(calls) == 2
