"""Source two end to end: retrieval, the gates in order, and a quote or a refusal with numbers.

``QuoteSource`` loads the index, the embedder and (in cross-encoder mode) the reranker once and
answers any number of questions with them.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from workbench.config import Settings
from workbench.corpus._fragment import detect_lang
from workbench.corpus._text import Corpus
from workbench.gates._records import CandidateSet, Quote, Trace
from workbench.gates._refusal import refusal_from_verdict
from workbench.gates._runner import candidate_set, run_gates
from workbench.index._fragment_index import FragmentIndex, load_index
from workbench.refusal import Refusal
from workbench.retrieval._embedders import Embedder, make_embedder
from workbench.retrieval._hybrid import HybridRetriever


@dataclass(frozen=True)
class QuoteResult:
    """One question through source two."""

    question: str
    """The question."""
    lang: str
    """Its language."""
    candidates: CandidateSet
    """What the gates saw."""
    trace: Trace
    """Every verdict in the configured order."""
    quote: Quote | None
    """The verbatim quote, when every gate passed."""
    refusal: Refusal | None
    """The refusal of the first firing gate, otherwise ``None``."""

    @property
    def answered(self) -> bool:
        """True when a quote leaves."""
        return self.quote is not None


class QuoteSource:
    """Answer questions from the corpus with verbatim quotes, or refuse with numbers."""

    def __init__(self, settings: Settings, *, index: FragmentIndex | None = None,
                 embedder: Embedder | None = None, corpus: Corpus | None = None,
                 corpus_name: str | None = None) -> None:
        self.settings = settings
        self.index = index or load_index(settings.paths.index)
        self.embedder = embedder or make_embedder(settings.embedder.name)
        self.corpus = corpus or Corpus(settings.paths.corpus)
        # named by its own name: the argument, the settings, else the corpus folder's name
        self.corpus_name = corpus_name or settings.paths.corpus_name or self.corpus.root.name
        self.retriever = HybridRetriever(self.index, self.embedder, settings.retrieval,
                                         settings.reranker)

    def ask_many(self, questions: Sequence[str], langs: Sequence[str | None] | None = None,
                 settings: Settings | None = None) -> list[QuoteResult]:
        """Answer several questions (dense queries are encoded together)."""
        settings = settings or self.settings
        langs = list(langs) if langs is not None else [None] * len(questions)
        results = []
        for candidates, lang in zip(self.retriever.search_many(list(questions)), langs,
                                    strict=True):
            lang = lang or detect_lang(candidates.question)
            view = candidate_set(candidates, self.index, self.corpus, lang, self.corpus_name,
                                 settings.gates.quote_extent)
            results.append(self.decide(view, settings))
        return results

    def ask(self, question: str, lang: str | None = None) -> QuoteResult:
        """Answer one question."""
        return self.ask_many([question], [lang])[0]

    @staticmethod
    def decide(view: CandidateSet, settings: Settings) -> QuoteResult:
        """Run the gates over a candidate set and turn the trace into a quote or a refusal."""
        trace = run_gates(view, settings)
        first = trace.first_firing
        if first is None:
            return QuoteResult(view.question, view.lang, view, trace, view.quote, None)
        refusal = refusal_from_verdict(first, view.area, view.lang)
        return QuoteResult(view.question, view.lang, view, trace, None, refusal)
