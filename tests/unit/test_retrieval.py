"""Lexical analysis, fusion formulas and hybrid search with the exact keyword embedder."""

from __future__ import annotations

import pytest

from workbench.config import Reranker, Retrieval
from workbench.retrieval import (
    FUSIONS,
    RERANK_MODES,
    HybridRetriever,
    KeywordEmbedder,
    LexicalIndex,
    Query,
    Reranked,
    UnknownFusionError,
    UnknownRerankModeError,
    analyze,
    content_terms,
    fuse,
)


def test_analyzer_stems_both_languages_and_joins_compounds() -> None:
    terms = analyze("Ставки НДС и SHA-256 hashes, ёлка")
    assert "ставк" in terms and "ндс" in terms
    assert {"sha", "256", "sha256", "hash"} <= set(terms)
    assert "и" not in terms  # a stopword
    assert "елк" in terms  # ё folded


def test_content_terms_are_distinct_in_order() -> None:
    assert content_terms("utf-8 UTF-8 кодировка") == ["utf", "8", "utf8", "кодировк"]


def test_rrf_matches_the_formula() -> None:
    settings = Retrieval(rrf_k=60)
    fused = fuse("rrf", {1: 9.0, 2: 5.0}, {2: 0.9, 3: 0.8}, settings)
    assert fused[2] == pytest.approx(1 / 62 + 1 / 61)
    assert fused[1] == pytest.approx(1 / 61)
    assert fused[3] == pytest.approx(1 / 62)


def test_weighted_fusion_normalises_each_side() -> None:
    fused = fuse("weighted", {1: 10.0, 2: 0.0}, {2: 1.0, 3: 0.5}, Retrieval(lexical_weight=0.25))
    assert fused[1] == pytest.approx(0.25)
    assert fused[2] == pytest.approx(0.75)
    assert fused[3] == pytest.approx(0.0)


def test_unknown_fusion_lists_the_table() -> None:
    with pytest.raises(UnknownFusionError, match=", ".join(FUSIONS)):
        fuse("borda", {}, {}, Retrieval())


@pytest.mark.parametrize("mode", ["none", "bi-encoder"])
@pytest.mark.parametrize("fusion", ["rrf", "weighted", "lexical", "dense"])
def test_hybrid_finds_the_right_fragment(small_index, mode: str, fusion: str) -> None:
    retriever = HybridRetriever(small_index, KeywordEmbedder(), Retrieval(fusion=fusion),
                                Reranker(mode=mode))
    result = retriever.search("Какая ставка НДС применяется к экспорту товаров?")
    assert result.mode == mode and result.fusion == fusion
    best = small_index.get(result.hits[0].fragment_id)
    assert "Экспорт товаров" in best.text
    assert (result.hits[0].rerank is None) == (mode == "none")


def test_hits_carry_stage_scores(small_index) -> None:
    retriever = HybridRetriever(small_index, KeywordEmbedder(), Retrieval(), Reranker("bi-encoder"))
    hit = retriever.search("Base64 padding equals signs").hits[0]
    assert hit.lexical is not None and hit.lexical > 0
    assert hit.dense is not None and 0 < hit.dense <= 1.0001
    assert hit.score == hit.rerank


def test_cross_encoder_mode_needs_a_model(small_index) -> None:
    with pytest.raises(UnknownRerankModeError, match="path"):
        HybridRetriever(small_index, KeywordEmbedder(), Retrieval(), Reranker("cross-encoder", path=None))
    with pytest.raises(UnknownRerankModeError, match="known"):
        HybridRetriever(small_index, KeywordEmbedder(), Retrieval(), Reranker("colbert"))


def test_the_lexical_build_scores_as_bm25s_over_the_analyzer_terms() -> None:
    """The build numbers each word's terms once; the index is the one bm25s builds from the
    analyzer's terms themselves, empty fragments and hyphenated compounds included."""
    import bm25s

    texts = ["SHA-256 и windows-1251: кодировки.", "", "и в на", "Кодировка base64 и SHA256",
             "ёлка и елка", "The encoding of bytes; encodings."]
    ours = LexicalIndex.build(texts)
    theirs = bm25s.BM25()
    theirs.index([analyze(t) or ["\u2400"] for t in texts], show_progress=False)
    for query in ("sha256", "кодировка", "windows1251", "елка", "encoding bytes"):
        terms = [t for t in analyze(query) if t in theirs.vocab_dict]
        docs, scores = theirs.retrieve([terms], k=len(texts), show_progress=False)
        expected = sorted((int(d), round(float(s), 6)) for d, s in zip(docs[0], scores[0],
                                                                          strict=True) if s > 0)
        got = sorted((hit.row, round(hit.score, 6)) for hit in ours.search(query, len(texts)))
        assert got == expected and got


_QUESTIONS = ["Какая ставка НДС применяется к экспорту товаров?", "Base64 padding equals signs",
              "Сколько байт занимает кириллическая буква в UTF-8?", "What is mojibake?",
              "Как вычесть дни из даты?", "SHA-256 hash of an empty string"]


def test_bi_encoder_terms_scores_the_cosine_and_orders_by_the_term_share_too(small_index) -> None:
    plain = HybridRetriever(small_index, KeywordEmbedder(), Retrieval(), Reranker("bi-encoder"))
    terms = HybridRetriever(small_index, KeywordEmbedder(), Retrieval(),
                            Reranker("bi-encoder-terms", term_weight=0.2))
    for question in _QUESTIONS:
        cosine = {h.row: h.rerank for h in plain.search(question).hits}
        result = terms.search(question)
        assert result.mode == "bi-encoder-terms"
        wanted = set(analyze(question))
        keys = []
        for hit in result.hits:
            # the score thresholds read is the cosine, not the order key
            assert hit.score == hit.rerank and hit.rerank == pytest.approx(cosine[hit.row])
            fragment = small_index.fragments[hit.row]
            held = set(analyze(f"{small_index.title(fragment.anchor.path)}\n{fragment.text}"))
            assert hit.terms == pytest.approx(len(wanted & held) / len(wanted))
            keys.append(hit.rerank + 0.2 * hit.terms)
        assert keys == sorted(keys, reverse=True)
        assert all(h.terms is None for h in plain.search(question).hits)


def test_the_term_weight_moves_the_order_and_zero_leaves_the_cosine_order(
        small_index, monkeypatch) -> None:
    def fixed(retriever, query: Query, rows: list[int]) -> Reranked:
        # the score falls and the term share rises along the pool
        return Reranked([1.0 - 0.01 * i for i in range(len(rows))],
                        [0.1 * i for i in range(len(rows))])

    monkeypatch.setitem(RERANK_MODES, "fixed", fixed)

    def ranks(weight: float) -> tuple[list[float], list[float | None]]:
        retriever = HybridRetriever(small_index, KeywordEmbedder(), Retrieval(),
                                    Reranker("fixed", term_weight=weight))
        hits = retriever.search(_QUESTIONS[0]).hits
        return [h.score for h in hits], [h.terms for h in hits]

    scores, shares = ranks(0.0)
    assert scores == sorted(scores, reverse=True)  # no weight: the score's order
    scores, shares = ranks(0.2)  # 0.2 × 0.1 outweighs the 0.01 steps of the score
    assert shares == sorted(shares, reverse=True) and scores == sorted(scores)
    assert all(s == pytest.approx(1.0 - 10 * t * 0.01) for s, t in zip(scores, shares, strict=True))
