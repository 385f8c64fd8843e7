"""Fusion of lexical and dense candidate lists: small pure functions in a name→function table.

Each function takes the two ranked lists as ``{row: score}`` dicts in rank order plus the
retrieval settings, and returns ``{row: fused score}``.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping

from workbench.config import Retrieval
from workbench.errors import WorkbenchError

Ranked = Mapping[int, float]
FusionFn = Callable[[Ranked, Ranked, Retrieval], dict[int, float]]


class UnknownFusionError(WorkbenchError):
    """A fusion name that is not in the table."""


def reciprocal_rank_fusion(lexical: Ranked, dense: Ranked, settings: Retrieval) -> dict[int, float]:
    """RRF: ``sum 1 / (k + rank)`` over the lists a row appears in.

    Cormack, Clarke and Büttcher, "Reciprocal Rank Fusion outperforms Condorcet and individual
    rank learning methods", SIGIR 2009; ``k = 60`` is their constant.
    """
    fused: dict[int, float] = {}
    for ranked in (lexical, dense):
        for rank, row in enumerate(ranked, start=1):
            fused[row] = fused.get(row, 0.0) + 1.0 / (settings.rrf_k + rank)
    return fused


def _min_max(scores: Ranked) -> dict[int, float]:
    if not scores:
        return {}
    low, high = min(scores.values()), max(scores.values())
    span = high - low
    return {row: (s - low) / span if span > 0 else 1.0 for row, s in scores.items()}


def weighted_score_fusion(lexical: Ranked, dense: Ranked, settings: Retrieval) -> dict[int, float]:
    """Convex combination of min-max normalised scores (CombSUM with weights).

    Fox and Shaw, "Combination of Multiple Searches", TREC-2, 1994; a row missing from one list
    scores 0 there. ``lexical_weight`` is the lexical share.
    """
    lex, den = _min_max(lexical), _min_max(dense)
    w = settings.lexical_weight
    return {row: w * lex.get(row, 0.0) + (1.0 - w) * den.get(row, 0.0)
            for row in set(lex) | set(den)}


def lexical_only(lexical: Ranked, dense: Ranked, settings: Retrieval) -> dict[int, float]:
    """The lexical list alone (for ablations)."""
    return dict(lexical)


def dense_only(lexical: Ranked, dense: Ranked, settings: Retrieval) -> dict[int, float]:
    """The dense list alone (for ablations and the embedder comparison)."""
    return dict(dense)


FUSIONS: dict[str, FusionFn] = {
    "rrf": reciprocal_rank_fusion,
    "weighted": weighted_score_fusion,
    "lexical": lexical_only,
    "dense": dense_only,
}


def fuse(name: str, lexical: Ranked, dense: Ranked, settings: Retrieval) -> dict[int, float]:
    """Apply the fusion method ``name``; the error lists the table's keys."""
    try:
        fn = FUSIONS[name]
    except KeyError:
        raise UnknownFusionError(
            f"unknown fusion {name!r}; known: {', '.join(FUSIONS)}") from None
    return fn(lexical, dense, settings)
