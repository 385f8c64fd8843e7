"""Hybrid retrieval: lexical and dense candidates, fused, then reranked.

The rerank stage has four modes, in a name→function table:

* ``cross-encoder`` — a sentence-transformers CrossEncoder folder scores each (question,
  fragment) pair as a whole; the logit goes through a sigmoid so scores lie in (0, 1);
* ``bi-encoder`` — the cosine of the embedder's query and fragment vectors;
* ``bi-encoder-terms`` — the same cosine is the score, but the order is by the cosine plus
  ``[reranker].term_weight`` times the share of the lexical query's terms (the question widened
  by its glossary entries) found in the fragment or its document's title: among fragments the
  cosine ranks close together, the one that names what the question names comes first. Its
  threshold still reads the cosine, so a fragment that merely repeats the question's words
  is not made more confident; when the term share lifts a fragment above one with a higher
  cosine from another file, the gap the disagreement gate reads is negative, and the two files
  disagree;
* ``none`` — no rerank; candidates keep their fused order and ``rerank`` stays empty.

The mode travels with every hit list (``Candidates.mode``) and so into every trace.
"""

from __future__ import annotations

import json
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any, NamedTuple, Protocol

import numpy as np

from workbench.config import Reranker, Retrieval
from workbench.errors import WorkbenchError
from workbench.retrieval._dense import DenseIndex
from workbench.retrieval._embedders import Embedder
from workbench.retrieval._fusion import fuse
from workbench.retrieval._glossary import BilingualGlossary, GlossaryMatch
from workbench.retrieval._lexical import LexicalIndex
from workbench.text import analyze
from workbench.translit import GOST_B, transliterate_table


class AnchorLike(Protocol):
    """What the retriever reads of a fragment's anchor."""

    @property
    def path(self) -> str:
        """The file the fragment was cut from, relative to the corpus root."""
        ...


class FragmentLike(Protocol):
    """What the retriever reads of a fragment (``workbench.corpus.Fragment`` has it)."""

    @property
    def id(self) -> str:
        """The fragment's id in the index."""
        ...

    @property
    def text(self) -> str:
        """The fragment's text."""
        ...

    @property
    def anchor(self) -> AnchorLike:
        """Where the text sits in its file."""
        ...


class SearchableIndex(Protocol):
    """What the hybrid retriever needs of an index.

    Its fragments in row order, a lexical and a dense side over them, a glossary, document titles
    and the embedder its vectors came from. ``workbench.index.FragmentIndex`` is one; the index
    floor stands above this one, so the retriever names only what it calls.
    """

    @property
    def fragments(self) -> Sequence[FragmentLike]:
        """The fragments, in the rows the lexical and dense sides return."""
        ...

    @property
    def lexical(self) -> LexicalIndex:
        """BM25 over the fragments."""
        ...

    @property
    def dense(self) -> DenseIndex:
        """The fragments' vectors."""
        ...

    @property
    def glossary(self) -> BilingualGlossary:
        """The bilingual glossary that widens the lexical query."""
        ...

    def title(self, path: str) -> str:
        """The document title of ``path`` ("" when it has none)."""
        ...

    def check_embedder(self, embedder_id: str) -> None:
        """Raise when the vectors came from another embedder than ``embedder_id``."""
        ...


class UnknownRerankModeError(WorkbenchError):
    """A rerank mode that is not in the table, or cross-encoder mode without a model."""


class Hit(NamedTuple):
    """One candidate fragment with its score at every stage."""

    fragment_id: str
    """The fragment's id in the index."""
    row: int
    """Its row in the index."""
    lexical: float | None
    """BM25 score, when the lexical side found it."""
    dense: float | None
    """Cosine to the question, when the dense side found it."""
    fused: float
    """Score after fusion."""
    rerank: float | None
    """Score after reranking (``None`` in mode ``none``)."""
    terms: float | None = None
    """Share of the lexical query's terms in the fragment and its document's title, in the
    modes that order by it (``bi-encoder-terms``); ``None`` elsewhere."""

    @property
    def score(self) -> float:
        """The score thresholds compare: rerank when there is one, else fused."""
        return self.rerank if self.rerank is not None else self.fused


@dataclass(frozen=True)
class Candidates:
    """The ranked hits for one question and how they were produced."""

    question: str
    """The question as asked."""
    hits: tuple[Hit, ...]
    """Best first, at most ``top_k``."""
    mode: str
    """The rerank mode."""
    fusion: str
    """The fusion method."""
    lexical_count: int
    """Candidates the lexical side returned."""
    dense_count: int
    """Candidates the dense side returned."""
    expansion: tuple[GlossaryMatch, ...] = ()
    """The entries of the index's bilingual glossary found in the question (none without a
    glossary): their translations widen the lexical query, and gate 0 looks for them in the
    candidates; they never reach a quote."""


class Query(NamedTuple):
    """One question as the rerank stage sees it."""

    question: str
    """The question as asked."""
    vector: np.ndarray
    """The embedder's query vector of the question."""
    lexical: str
    """The lexical query: the question widened by its glossary entries (:func:`widened`)."""


class Reranked(NamedTuple):
    """What a rerank mode gives for a pool of candidates, in pool order."""

    scores: list[float]
    """The scores thresholds compare."""
    terms: list[float] | None = None
    """Term shares that join the order (weighted by ``[reranker].term_weight``), or ``None``."""


RerankFn = Callable[["HybridRetriever", Query, list[int]], Reranked | None]


def _rerank_none(retriever: HybridRetriever, query: Query, rows: list[int]) -> Reranked | None:
    return None


def _cosines(retriever: HybridRetriever, query: Query, rows: list[int]) -> list[float]:
    vectors = retriever.index.dense.vectors(rows)
    return [float(v) for v in vectors @ query.vector] if rows else []


def _rerank_bi_encoder(retriever: HybridRetriever, query: Query,
                       rows: list[int]) -> Reranked | None:
    return Reranked(_cosines(retriever, query, rows))


def _rerank_bi_encoder_terms(retriever: HybridRetriever, query: Query,
                             rows: list[int]) -> Reranked | None:
    terms = set(analyze(query.lexical))
    shares = [len(terms & retriever.fragment_terms(row)) / len(terms) if terms else 0.0
              for row in rows]
    return Reranked(_cosines(retriever, query, rows), shares)


def _rerank_cross_encoder(retriever: HybridRetriever, query: Query,
                          rows: list[int]) -> Reranked | None:
    model = retriever.cross_encoder()
    prepare = retriever.cross_encoder_input
    pairs = [(prepare(query.question), prepare(retriever.index.fragments[r].text)) for r in rows]
    if not pairs:
        return Reranked([])
    logits = np.asarray(model.predict(pairs, show_progress_bar=False), dtype=np.float64)
    return Reranked([float(s) for s in 1.0 / (1.0 + np.exp(-logits.reshape(-1)))])


def _identity(text: str) -> str:
    return text


def _transliterate(text: str) -> str:
    return transliterate_table(text, GOST_B, gost=True)


INPUT_TRANSFORMS: dict[str, Callable[[str], str]] = {
    "none": _identity,
    "gost-7.79-b": _transliterate,
}
"""How text is prepared for a cross-encoder; a model trained here records its transform."""


def input_transform(folder: Path) -> Callable[[str], str]:
    """The input transform a CrossEncoder folder was trained with (``none`` for outside models)."""
    meta = folder / "workbench_training.json"
    name = "none"
    if meta.is_file():
        name = json.loads(meta.read_text(encoding="utf-8")).get("config", {}).get(
            "input_transform", "none")
    try:
        return INPUT_TRANSFORMS[name]
    except KeyError:
        raise UnknownRerankModeError(f"{meta}: unknown input transform {name!r}; known: "
                                     f"{', '.join(INPUT_TRANSFORMS)}") from None


RERANK_MODES: dict[str, RerankFn] = {
    "cross-encoder": _rerank_cross_encoder,
    "bi-encoder": _rerank_bi_encoder,
    "bi-encoder-terms": _rerank_bi_encoder_terms,
    "none": _rerank_none,
}


def widened(question: str, expansion: Sequence[GlossaryMatch]) -> str:
    """The lexical query: the question, then the translations of its glossary entries."""
    words = dict.fromkeys(word for match in expansion for word in match.translations)
    return f"{question} ({'; '.join(words)})" if words else question


class HybridRetriever:
    """Search one index with one embedder; models load once and stay."""

    def __init__(self, index: SearchableIndex, embedder: Embedder,
                 retrieval: Retrieval | None = None, reranker: Reranker | None = None) -> None:
        index.check_embedder(embedder.id)
        self.index = index
        self.embedder = embedder
        self.retrieval = retrieval or Retrieval()
        self.reranker = reranker or Reranker()
        if self.reranker.mode not in RERANK_MODES:
            raise UnknownRerankModeError(
                f"unknown rerank mode {self.reranker.mode!r}; known: {', '.join(RERANK_MODES)}")
        if self.reranker.mode == "cross-encoder" and self.reranker.path is None:
            raise UnknownRerankModeError(
                "rerank mode cross-encoder needs [reranker].path: a CrossEncoder model folder")
        self._cross_encoder: Any = None
        self.cross_encoder_input: Callable[[str], str] = _identity
        self._fragment_terms: dict[int, frozenset[str]] = {}

    def fragment_terms(self, row: int) -> frozenset[str]:
        """The lexical terms of a fragment and of its document's title, analyzed once."""
        terms = self._fragment_terms.get(row)
        if terms is None:
            fragment = self.index.fragments[row]
            terms = frozenset(analyze(f"{self.index.title(fragment.anchor.path)}\n"
                                      f"{fragment.text}"))
            self._fragment_terms[row] = terms
        return terms

    def cross_encoder(self) -> Any:
        """The CrossEncoder of cross-encoder mode, loaded on first use."""
        if self._cross_encoder is None:
            from sentence_transformers import CrossEncoder

            path = Path(str(self.reranker.path))
            if not path.is_dir():
                raise UnknownRerankModeError(f"cross-encoder folder {path} does not exist; "
                                             "train one with `workbench reranker train`")
            self._cross_encoder = CrossEncoder(str(path), device="cpu", local_files_only=True)
            self.cross_encoder_input = input_transform(path)
        return self._cross_encoder

    def search_many(self, questions: Sequence[str], top_k: int | None = None) -> list[Candidates]:
        """Candidates for each question (dense queries are encoded in one batch)."""
        top_k = top_k or self.retrieval.top_k
        glossary = self.index.glossary
        expansions = [glossary.matches(q) for q in questions]
        # the dense query stays the question itself: widening it too moved the best candidate
        # off the gold fragment more often than onto it (outside help corpus, dev split), and
        # the bi-encoder's threshold was calibrated on questions as asked
        qvecs = self.embedder.encode_queries(list(questions))
        dense_lists = self.index.dense.search(qvecs, self.retrieval.dense_k)
        rerank = RERANK_MODES[self.reranker.mode]
        out = []
        for question, expansion, qvec, dense_hits in zip(questions, expansions, qvecs,
                                                         dense_lists, strict=True):
            query = Query(question, qvec, widened(question, expansion))
            lexical_hits = self.index.lexical.search(query.lexical, self.retrieval.lexical_k)
            lexical = {h.row: h.score for h in lexical_hits}
            dense = {h.row: h.score for h in dense_hits}
            fused = fuse(self.retrieval.fusion, lexical, dense, self.retrieval)
            # Rerank a generous pool, then keep top_k by the final score.
            pool = sorted(fused, key=lambda r: (-fused[r], r))[: max(self.retrieval.rerank_pool,
                                                                      top_k)]
            reranked = rerank(self, query, pool)
            scores = None if reranked is None else reranked.scores
            terms = None if reranked is None else reranked.terms
            keys = scores if terms is None or scores is None else [
                score + self.reranker.term_weight * share
                for score, share in zip(scores, terms, strict=True)]
            if keys is not None:
                order = sorted(range(len(pool)), key=lambda i: (-keys[i], pool[i]))
            else:
                order = list(range(len(pool)))
            hits = tuple(
                Hit(fragment_id=self.index.fragments[pool[i]].id, row=pool[i],
                    lexical=lexical.get(pool[i]), dense=dense.get(pool[i]), fused=fused[pool[i]],
                    rerank=None if scores is None else scores[i],
                    terms=None if terms is None else terms[i])
                for i in order[:top_k])
            out.append(Candidates(question=question, hits=hits, mode=self.reranker.mode,
                                  fusion=self.retrieval.fusion, lexical_count=len(lexical),
                                  dense_count=len(dense), expansion=expansion))
        return out

    def search(self, question: str, top_k: int | None = None) -> Candidates:
        """Candidates for one question."""
        return self.search_many([question], top_k)[0]
