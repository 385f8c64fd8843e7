"""The lexical side: a BM25 index (bm25s) over the terms of the bilingual analyzer.

The analyzer itself (stopwords, Snowball stems, hyphenated compounds, pymorphy3 lemmas) lives in
:mod:`workbench.text`, below search, so text analysis loads no search library; this module numbers
its terms and hands them to bm25s.
"""

from __future__ import annotations

import json
from collections.abc import Iterable, Sequence
from pathlib import Path
from typing import NamedTuple

import bm25s
import numpy as np

from workbench.text import ANALYZER_ID, analyze, compound_terms, words

_EMPTY_DOC = "\u2400"
"""The one term of a fragment without terms: bm25s rejects an empty document."""


def _term_ids(texts: Sequence[str]) -> tuple[list[list[int]], dict[str, int]]:
    """Each text's terms as vocabulary ids, and the vocabulary: the analyzer's terms, numbered.

    A word is analyzed once per build, not once per occurrence (a corpus repeats its words), and
    bm25s gets ids, so it does not walk every term again to number them.
    """
    vocab: dict[str, int] = {}
    ids_of: dict[str, tuple[int, ...]] = {}
    corpus_ids: list[list[int]] = []
    for text in texts:
        ids: list[int] = []
        for compound in words(text):
            known = ids_of.get(compound)
            if known is None:
                known = ids_of[compound] = tuple(vocab.setdefault(term, len(vocab))
                                                 for term in compound_terms(compound))
            ids.extend(known)
        corpus_ids.append(ids or [vocab.setdefault(_EMPTY_DOC, len(vocab))])
    return corpus_ids, vocab


class LexicalHit(NamedTuple):
    """One lexical candidate."""

    row: int
    """Position of the fragment in the index's fragment list."""
    score: float
    """Its BM25 score."""


class LexicalIndex:
    """BM25 over analyzed fragments, saved as bm25s's JSON and ``.npy`` files (no pickle)."""

    def __init__(self, model: bm25s.BM25 | None, size: int) -> None:
        self._model = model  # None for an empty corpus: bm25s cannot index zero documents
        self.size = size
        vocab = getattr(model, "vocab_dict", None) or {}
        self._vocab: dict[str, int] = dict(vocab)

    @classmethod
    def build(cls, texts: Sequence[str], show_progress: bool = False) -> LexicalIndex:
        """Index ``texts`` (one per fragment, in index order)."""
        if not texts:
            return cls(None, 0)
        model = bm25s.BM25()
        model.index(_term_ids(texts), show_progress=show_progress)
        return cls(model, len(texts))

    def save(self, folder: Path) -> None:
        """Write bm25s's arrays and vocabulary into ``folder``."""
        folder.mkdir(parents=True, exist_ok=True)
        if self._model is not None:
            self._model.save(str(folder), allow_pickle=False, show_progress=False)
        (folder / "workbench_lexical.json").write_text(
            json.dumps({"analyzer": ANALYZER_ID, "size": self.size}), encoding="utf-8"
        )

    @classmethod
    def load(cls, folder: Path) -> LexicalIndex:
        """Read an index written by :meth:`save`."""
        meta = json.loads((folder / "workbench_lexical.json").read_text(encoding="utf-8"))
        if int(meta["size"]) == 0:
            return cls(None, 0)
        model = bm25s.BM25.load(str(folder), allow_pickle=False, show_progress=False)
        return cls(model, int(meta["size"]))

    def search(self, query: str, k: int) -> list[LexicalHit]:
        """The ``k`` best fragments for ``query`` with a positive score."""
        terms = [t for t in analyze(query) if t in self._vocab]
        if not terms or self._model is None:
            return []
        k = min(k, self.size)
        docs, scores = self._model.retrieve([terms], k=k, show_progress=False, n_threads=1)
        return [LexicalHit(int(d), float(s)) for d, s in zip(docs[0], scores[0], strict=True)
                if s > 0]

    def search_many(self, queries: Iterable[str], k: int) -> list[list[LexicalHit]]:
        """:meth:`search` for several queries."""
        return [self.search(q, k) for q in queries]


def term_presence(terms: Sequence[str], texts: Sequence[str]) -> np.ndarray:
    """For each term, whether it occurs among the analyzed terms of any of ``texts``."""
    seen: set[str] = set()
    for text in texts:
        seen.update(analyze(text))
    return np.array([t in seen for t in terms], dtype=bool)
