"""The refusal gates of the quote source: registered pure functions run in a configured order.

Importing this package registers the five built-in gates (``gate0``, ``threshold``,
``disagreement``, ``relevance``, ``verbatim``) and the quote relevance rules. ``QuoteSource``
runs questions end to end; ``evaluate_sets`` keeps every verdict of the labelled sets, and the
analysis functions re-slice such a run without touching retrieval.
"""

from workbench.gates._analysis import (
    ANSWERED,
    calibrate_gates,
    fire_overlaps,
    firing_line,
    first_firing,
    flipped_questions,
    gate_attribution,
    headline,
    outcome_correctness,
    report_lines,
    rule_ablation,
    rule_report,
    run_order,
    run_rules,
    threshold_sweep,
    would_fire_matrix,
)
from workbench.gates._builtin import GATE0_POOL, extract_quote, question_terms
from workbench.gates._codes import DEFAULT_ORDER, GATE_CODES, QuoteGateCode
from workbench.gates._eval import code_digest, evaluate_sets, evaluate_sets_cached, result_row
from workbench.gates._quote_source import QuoteResult, QuoteSource
from workbench.gates._records import CandidateSet, GateVerdict, Quote, Trace
from workbench.gates._refusal import plural_ru, refusal_from_verdict, search_area
from workbench.gates._runner import UnknownGateError, candidate_set, check_order, run_gates

__all__ = [
    "ANSWERED",
    "DEFAULT_ORDER",
    "GATE0_POOL",
    "GATE_CODES",
    "CandidateSet",
    "GateVerdict",
    "Quote",
    "QuoteGateCode",
    "QuoteResult",
    "QuoteSource",
    "Trace",
    "UnknownGateError",
    "calibrate_gates",
    "candidate_set",
    "check_order",
    "code_digest",
    "evaluate_sets",
    "evaluate_sets_cached",
    "extract_quote",
    "fire_overlaps",
    "first_firing",
    "firing_line",
    "flipped_questions",
    "gate_attribution",
    "headline",
    "outcome_correctness",
    "plural_ru",
    "question_terms",
    "refusal_from_verdict",
    "report_lines",
    "result_row",
    "rule_ablation",
    "rule_report",
    "run_gates",
    "run_order",
    "run_rules",
    "search_area",
    "threshold_sweep",
    "would_fire_matrix",
]
