"""Text analysis: language detection, Snowball stems, pymorphy3 lemmas, the bilingual analyzer.

It stands below search and below the corpus: the BM25 index, gate 0, the relevance rules and the
router's normalisers all read words through it, and it imports no search library, so a caller
that only analyses text (the utilities' relevance checks) loads neither FAISS nor bm25s.
"""

from workbench.text._lang import detect_lang
from workbench.text._plural import ru_plural
from workbench.text._terms import (
    ANALYZER_ID,
    STOPWORDS,
    TERM_ANALYZERS,
    analyze,
    analyze_lemmas,
    compound_terms,
    content_terms,
    lemma,
    morphology,
    stem,
    words,
)

__all__ = [
    "ru_plural",
    "ANALYZER_ID",
    "STOPWORDS",
    "TERM_ANALYZERS",
    "analyze",
    "analyze_lemmas",
    "compound_terms",
    "content_terms",
    "detect_lang",
    "lemma",
    "morphology",
    "stem",
    "words",
]
