"""Leakage: zero for the real pipeline, and the leaky variant's leaks are all counted."""

from __future__ import annotations

import dataclasses
from pathlib import Path

import pandas as pd
import pytest

from workbench.answers import Answer, CheckContext, Mode, answer, leaky_answer
from workbench.config import load_settings
from workbench.gates import QuoteSource
from workbench.retrieval import KeywordEmbedder
from workbench.routing import ScriptedRouter
from workbench.runs import load_run, write_run
from workbench.studies import leakage

BASE = load_settings()
QUESTIONS = {
    "Какая ставка НДС применяется при экспорте товаров?": {"source": "quote"},
    "Какая ставка НДС применяется к экспорту в Казахстане?": {"source": "quote"},
    "How much longer is Base64 text in Kazakhstan?": {"source": "quote"},
    "Who painted the ceiling of the Sistine Chapel?": {"source": "quote"},
    "md5 of abc": {"source": "utility", "utility": "hash.md5", "args": {"text": "abc"}},
    "hmac of x": {"source": "utility", "utility": "hash.hmac_sha256", "args": {"text": "x"}},
}


@pytest.fixture
def setup(small_index, small_corpus: Path):
    settings = dataclasses.replace(
        BASE, paths=dataclasses.replace(BASE.paths, corpus=small_corpus, index=small_index.folder),
        gates=dataclasses.replace(BASE.gates, threshold_bi_encoder_terms=0.2))
    source = QuoteSource(settings, index=small_index, embedder=KeywordEmbedder())
    return settings, source, ScriptedRouter(QUESTIONS)


def test_real_pipeline_leaks_nothing_and_leaky_variant_is_caught(setup) -> None:
    settings, source, router = setup
    real = [answer(q, router, settings, quote_source=source) for q in QUESTIONS]
    leaky = [leaky_answer(q, router, settings, quote_source=source) for q in QUESTIONS]
    assert leakage(real).leaks == 0
    # every quote refusal that had a candidate became a mode-A answer: each one is a leak
    expected = sum(1 for r in leaky if r.answer is not None and r.trace.source_refusal is not None)
    report = leakage(leaky)
    assert expected >= 2
    # the leaky variant also skips the checker on what it does answer: those count too
    assert report.leaks == sum(1 for r in leaky if r.mode == "A") > expected
    assert all("refused" in why or "checker" in why for why in report.reasons)
    context = CheckContext.from_index(source.index, source.corpus)
    rechecked = leakage([r.to_row() for r in leaky], context)
    assert rechecked.leaks == expected  # re-checked now, only the gate-refused answers leak
    assert leakage([r.to_row() for r in real], context).leaks == 0


def test_leakage_reads_run_records(setup, tmp_path) -> None:
    settings, source, router = setup
    rows = pd.DataFrame([leaky_answer(q, router, settings, quote_source=source).to_row()
                         for q in QUESTIONS])
    folder = write_run("answers", rows, results_dir=tmp_path)
    record = load_run(folder)
    assert leakage(record).leaks == leakage(rows).leaks > 0


def test_mode_a_without_evidence_is_a_leak_even_when_right() -> None:
    row = {"mode": "A", "answer_json": Answer(Mode.A, "900150983cd24fb0d6963f7d28e17f72").to_json(),
           "invariants_passed": True}
    report = leakage([row])
    assert report.leaks == 1 and report.reasons == ("mode A without evidence",)
    advisory = {"mode": "B", "answer_json": Answer(Mode.B, "text", (), "note").to_json()}
    assert leakage([advisory]).leaks == 0 and leakage([advisory]).mode_a == 0
