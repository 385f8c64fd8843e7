"""The bilingual analyzer: words to terms by Snowball stems or pymorphy3 lemmas.

The analyzer lower-cases, folds ё to е, drops Russian and English stopwords and stems Cyrillic
words with the Russian Snowball stemmer and Latin words with the English one (PyStemmer); tokens
with digits are kept as they are. A hyphenated compound of letters and digits (``SHA-256``,
``windows-1251``) also yields its joined form (``sha256``, ``windows1251``), so a question that
writes it either way meets the text. The same analyzer feeds the BM25 index, gate 0 (which asks
whether the question's content terms occur in the candidates at all) and the relevance rules.

The stopword lists are bm25s's Russian and English lists, kept as data beside this module
(``stopwords.json``) so that analysing text loads no search library; a test holds them equal.
"""

from __future__ import annotations

import json
import re
from collections.abc import Callable
from functools import lru_cache
from importlib import resources

import pymorphy3
import Stemmer

ANALYZER_ID = "ru-en-snowball-v1"
"""The analyzer's id, written into every lexical index built with it."""
_WORD = re.compile(r"\w+(?:[-‐–]\w+)*", re.UNICODE)
_HYPHEN = re.compile(r"[-‐–]")
_CYRILLIC = re.compile(r"[а-яё]")


def _load_stopwords() -> dict[str, tuple[str, ...]]:
    text = resources.files("workbench.text").joinpath("stopwords.json").read_text(encoding="utf-8")
    return {lang: tuple(words) for lang, words in json.loads(text).items()}


STOPWORDS: dict[str, tuple[str, ...]] = _load_stopwords()
"""Stopwords by language (``ru``, ``en``), as listed (ё not yet folded)."""
_STOPWORDS = frozenset(w.replace("ё", "е") for words in STOPWORDS.values() for w in words)


@lru_cache(maxsize=2)
def _stemmer(lang: str) -> Stemmer.Stemmer:
    return Stemmer.Stemmer(lang)


@lru_cache(maxsize=200_000)
def stem(word: str) -> str:
    """The Snowball stem of a lower-cased word: Russian for Cyrillic, English otherwise.

    A token with a digit is kept as it is.
    """
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
def compound_terms(compound: str) -> tuple[str, ...]:
    """The terms of one matched word or hyphenated compound (lower-cased, ё folded)."""
    return _reduced_parts(compound, stem)


def words(text: str) -> list[str]:
    """The words and hyphenated compounds of ``text``, lower-cased, ё folded to е."""
    return _WORD.findall(text.lower().replace("ё", "е"))


def analyze(text: str) -> list[str]:
    """The lexical terms of ``text``, in order, repeats kept (the input of BM25)."""
    terms: list[str] = []
    for compound in words(text):
        terms.extend(compound_terms(compound))
    return terms


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
        return stem(word)
    return str(morphology().parse(word)[0].normal_form).replace("ё", "е")


@lru_cache(maxsize=200_000)
def _compound_lemmas(compound: str) -> tuple[str, ...]:
    """:func:`compound_terms` with Russian words reduced to their lemma."""
    return _reduced_parts(compound, lemma)


def analyze_lemmas(text: str) -> list[str]:
    """:func:`analyze` with Russian words reduced to their lemma instead of their Snowball stem.

    A stem cuts inflection by rule and sometimes joins unrelated words or splits one word's
    forms (``шел``/``идти``); a lemma is read from a dictionary. Only gate 0 can use it: the
    BM25 index keeps the stems it was built with.
    """
    terms: list[str] = []
    for compound in words(text):
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
