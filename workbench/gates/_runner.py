"""The ordered gate runner: every gate evaluated, the first refusing one in the order decides."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import replace
from typing import Any

from workbench.config import Settings
from workbench.corpus._text import Corpus
from workbench.errors import WorkbenchError
from workbench.gates._builtin import GateFn, extract_quote, quote_rule_stages
from workbench.gates._codes import gate_codes
from workbench.gates._records import CandidateSet, GateVerdict, Trace
from workbench.gates._refusal import search_area
from workbench.index._fragment_index import FragmentIndex
from workbench.registry import build, registry_info
from workbench.retrieval._hybrid import Candidates


class UnknownGateError(WorkbenchError):
    """A gate order names a gate that does not exist."""


def check_order(order: Sequence[str], known: Sequence[str] | None = None) -> tuple[str, ...]:
    """Validate a gate order: known names, each at most once.

    Args:
        order: Gate names in firing order.
        known: The gates the order may name (default: every registered gate; a re-slice of a
            run passes the gates the run evaluated).
    """
    known = tuple(known) if known is not None else tuple(gate_codes())
    unknown = [g for g in order if g not in known]
    if unknown:
        raise UnknownGateError(f"unknown gate(s) {', '.join(unknown)}; known: "
                               f"{', '.join(known)}")
    if len(set(order)) != len(order):
        raise UnknownGateError(f"gate order {list(order)} names a gate twice")
    return tuple(order)


def candidate_set(candidates: Candidates, index: FragmentIndex, corpus: Corpus, lang: str,
                  corpus_name: str | None = None, quote_extent: str = "fragment") -> CandidateSet:
    """Resolve a retrieval result into what the gates look at, with the proposed quote.

    ``corpus_name`` names the corpus in refusal texts (default: the corpus folder's name).

    ``quote_extent`` is a name of :data:`workbench.gates._builtin.QUOTE_EXTENTS`
    (``[gates] quote_extent``).
    """
    fragments = tuple(index.fragments[h.row] for h in candidates.hits)
    quote = (extract_quote(candidates.question, fragments[0], quote_extent) if fragments
             else None)
    files = int(index.manifest["counts"]["files"])
    area = search_area(corpus_name or corpus.root.name, files, len(index), lang)
    titles = tuple(index.title(f.anchor.path) for f in fragments)
    return CandidateSet(question=candidates.question, lang=lang, hits=candidates.hits,
                        fragments=fragments, titles=titles, quote=quote, corpus=corpus,
                        area=area, mode=candidates.mode, expansion=candidates.expansion)


def gate_stages(settings: Settings) -> dict[str, GateFn]:
    """Every gate of ``settings.gates.order`` built through the registry, in firing order."""
    return {name: build("gate", name) for name in check_order(settings.gates.order)}


def quote_stages(settings: Settings) -> list[dict[str, Any]]:
    """How the quote source's stages are built under ``settings``: what a run record lists.

    One entry per gate in firing order, then one per quote relevance rule (every one is
    evaluated, for ablation; ``enabled`` says whether it decides), each the stage's
    :meth:`workbench.registry.RegistryInfo.to_dict` (kind, name, parameters) taken from the very
    objects the runner builds.
    """
    enabled = set(settings.gates.relevance_rules)
    stages: list[dict[str, Any]] = []
    built: list[tuple[Callable[..., Any], dict[str, Any]]] = [
        *((fn, {"position": i}) for i, fn in enumerate(gate_stages(settings).values())),
        *((fn, {"enabled": name in enabled})
          for name, fn in quote_rule_stages(settings).items()),
    ]
    for fn, extra in built:
        info = registry_info(fn)
        if info is not None:
            stages.append({**info.to_dict(), **extra})
    return stages


def run_gates(candidates: CandidateSet, settings: Settings) -> Trace:
    """Evaluate every gate of ``settings.gates.order`` (even after one refuses)."""
    gates = gate_stages(settings)
    order = tuple(gates)
    done: list[GateVerdict] = []
    for check in gates.values():
        # each gate sees the verdicts of the gates before it (``CandidateSet.earlier``)
        view = replace(candidates, earlier={v.gate: v for v in done}) if done else candidates
        done.append(check(candidates.question, view, settings))
    verdicts = tuple(done)
    return Trace(question=candidates.question, hits=candidates.hits, verdicts=verdicts,
                 would_fire=tuple(not v.passed for v in verdicts), order=order,
                 mode=candidates.mode)
