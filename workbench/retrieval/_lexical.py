"""The lexical side: a bilingual analyzer and a BM25 index (bm25s) over its terms.

The analyzer lower-cases, folds ё to е, drops Russian and English stopwords and stems Cyrillic
words with the Russian Snowball stemmer and Latin words with the English one (PyStemmer); tokens
with digits are kept as they are. A hyphenated compound of letters and digits (``SHA-256``,
``windows-1251``) also yields its joined form (``sha256``, ``windows1251``), so a question that
writes it either way meets the text. The same analyzer feeds gate 0, which asks whether the
question's content terms occur in the candidates at all.
"""

from __future__ import annotations

import json
import re
from collections.abc import Callable, Iterable, Sequence
from functools import lru_cache
from pathlib import Path
from typing import NamedTuple

import bm25s
import numpy as np
import pymorphy3
import Stemmer
from bm25s.stopwords import STOPWORDS_EN, STOPWORDS_RUSSIAN

ANALYZER_ID = "ru-en-snowball-v1"
_WORD = re.compile(r"\w+(?:[-‐–]\w+)*", re.UNICODE)
_HYPHEN = re.compile(r"[-‐–]")
_CYRILLIC = re.compile(r"[а-яё]")
_EMPTY_DOC = "\u2400"
"""The one term of a fragment without terms: bm25s rejects an empty document."""
_STOPWORDS = frozenset(w.replace("ё", "е") for w in (*STOPWORDS_RUSSIAN, *STOPWORDS_EN))


@lru_cache(maxsize=2)
def _stemmer(lang: str) -> Stemmer.Stemmer:
    return Stemmer.Stemmer(lang)


@lru_cache(maxsize=200_000)
def _stem(word: str) -> str:
    if any(ch.isdigit() for ch in word):
        return word
    lang = "russian" if _CYRILLIC.search(word) else "english"
    return str(_stemmer(lang).stemWord(word))


def _reduced_parts(compound: str, reduce: Callable[[str], str]) -> tuple[str, ...]:
    """Each part of a word or hyphenated compound, and the parts joined, through ``reduce``."""
    parts = _HYPHEN.split(compound)
    terms = [reduce(part) for part in parts if part and part not in _STOPWORDS and part != "_"]
    if len(parts) > 1:
        joined = "".join(parts)
        if joined not in _STOPWORDS:
            terms.append(reduce(joined))
    return tuple(terms)


@lru_cache(maxsize=200_000)
def _compound_terms(compound: str) -> tuple[str, ...]:
    """The terms of one matched word or hyphenated compound (lower-cased, ё folded)."""
    return _reduced_parts(compound, _stem)


def _words(text: str) -> list[str]:
    return _WORD.findall(text.lower().replace("ё", "е"))


def analyze(text: str) -> list[str]:
    """The lexical terms of ``text``, in order, repeats kept (the input of BM25)."""
    terms: list[str] = []
    for compound in _words(text):
        terms.extend(_compound_terms(compound))
    return terms


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
        for compound in _words(text):
            known = ids_of.get(compound)
            if known is None:
                known = ids_of[compound] = tuple(vocab.setdefault(term, len(vocab))
                                                 for term in _compound_terms(compound))
            ids.extend(known)
        corpus_ids.append(ids or [vocab.setdefault(_EMPTY_DOC, len(vocab))])
    return corpus_ids, vocab


@lru_cache(maxsize=1)
def morphology() -> pymorphy3.MorphAnalyzer:
    """pymorphy3's Russian analyzer (its dictionaries load once, in about a second)."""
    return pymorphy3.MorphAnalyzer(lang="ru")


@lru_cache(maxsize=200_000)
def lemma(word: str) -> str:
    """The dictionary form of a Cyrillic word (pymorphy3's most probable parse), ё folded.

    Latin words are stemmed by the English Snowball stemmer and tokens with digits are kept, as
    in :func:`analyze`: pymorphy3 knows Russian only.
    """
    if not _CYRILLIC.search(word) or any(ch.isdigit() for ch in word):
        return _stem(word)
    return str(morphology().parse(word)[0].normal_form).replace("ё", "е")


@lru_cache(maxsize=200_000)
def _compound_lemmas(compound: str) -> tuple[str, ...]:
    """:func:`_compound_terms` with Russian words reduced to their lemma."""
    return _reduced_parts(compound, lemma)


def analyze_lemmas(text: str) -> list[str]:
    """:func:`analyze` with Russian words reduced to their lemma instead of their Snowball stem.

    A stem cuts inflection by rule and sometimes joins unrelated words or splits one word's
    forms (``шел``/``идти``); a lemma is read from a dictionary. Only gate 0 can use it: the
    BM25 index keeps the stems it was built with.
    """
    terms: list[str] = []
    for compound in _words(text):
        terms.extend(_compound_lemmas(compound))
    return terms


TERM_ANALYZERS: dict[str, Callable[[str], list[str]]] = {
    "stem": analyze,
    "lemma": analyze_lemmas,
}
"""How gate 0 reduces words to terms: Snowball stems (the index's own) or pymorphy3 lemmas."""


def content_terms(text: str, analyzer: Callable[[str], list[str]] = analyze) -> list[str]:
    """The distinct lexical terms of ``text`` in first-seen order (what gate 0 looks for)."""
    return list(dict.fromkeys(analyzer(text)))


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
