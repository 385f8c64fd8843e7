"""The refusal gates of the quote source: registered pure functions run in a configured order.

Importing this package registers the five built-in gates (``gate0``, ``threshold``,
``disagreement``, ``relevance``, ``verbatim``) and the quote relevance rules. ``QuoteSource``
runs questions end to end; ``evaluate_sets`` keeps every verdict of the labelled sets, and the
analysis functions re-slice such a run without touching retrieval.
"""

from workbench.gates._builtin import GATE0_POOL, extract_quote, question_terms
from workbench.gates._codes import DEFAULT_ORDER, GATE_CODES, QuoteGateCode
from workbench.gates._quote_source import QuoteResult, QuoteSource
from workbench.gates._records import CandidateSet, GateVerdict, Quote, Trace
from workbench.gates._refusal import plural_ru, refusal_from_verdict, search_area
from workbench.gates._runner import UnknownGateError, candidate_set, check_order, run_gates

__all__ = [
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
    "candidate_set",
    "check_order",
    "extract_quote",
    "plural_ru",
    "question_terms",
    "refusal_from_verdict",
    "run_gates",
    "search_area",
]
