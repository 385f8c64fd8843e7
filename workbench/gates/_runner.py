"""The ordered gate runner: every gate evaluated, the first refusing one in the order decides."""

from __future__ import annotations

from collections.abc import Sequence

from workbench.config import Settings
from workbench.corpus._text import Corpus
from workbench.errors import WorkbenchError
from workbench.gates._builtin import extract_quote
from workbench.gates._codes import GATE_CODES
from workbench.gates._records import CandidateSet, Trace
from workbench.gates._refusal import search_area
from workbench.index._fragment_index import FragmentIndex
from workbench.registry import build
from workbench.retrieval._hybrid import Candidates


class UnknownGateError(WorkbenchError):
    """A gate order names a gate that does not exist."""


def check_order(order: Sequence[str]) -> tuple[str, ...]:
    """Validate a gate order: known names, each at most once."""
    unknown = [g for g in order if g not in GATE_CODES]
    if unknown:
        raise UnknownGateError(f"unknown gate(s) {', '.join(unknown)}; known: "
                               f"{', '.join(GATE_CODES)}")
    if len(set(order)) != len(order):
        raise UnknownGateError(f"gate order {list(order)} names a gate twice")
    return tuple(order)


def candidate_set(candidates: Candidates, index: FragmentIndex, corpus: Corpus, lang: str,
                  corpus_name: str = "course") -> CandidateSet:
    """Resolve a retrieval result into what the gates look at, with the proposed quote."""
    fragments = tuple(index.fragments[h.row] for h in candidates.hits)
    quote = extract_quote(candidates.question, fragments[0]) if fragments else None
    files = int(index.manifest["counts"]["files"])
    area = search_area(corpus_name, files, len(index), lang)
    titles = tuple(index.title(f.anchor.path) for f in fragments)
    return CandidateSet(question=candidates.question, lang=lang, hits=candidates.hits,
                        fragments=fragments, titles=titles, quote=quote, corpus=corpus,
                        area=area, mode=candidates.mode)


def run_gates(candidates: CandidateSet, settings: Settings) -> Trace:
    """Evaluate every gate of ``settings.gates.order`` (even after one refuses)."""
    order = check_order(settings.gates.order)
    verdicts = tuple(build("gate", name)(candidates.question, candidates, settings)
                     for name in order)
    return Trace(question=candidates.question, hits=candidates.hits, verdicts=verdicts,
                 would_fire=tuple(not v.passed for v in verdicts), order=order,
                 mode=candidates.mode)
