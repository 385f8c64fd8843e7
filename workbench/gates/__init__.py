"""The refusal gates of the quote source: registered pure functions run in a configured order.

Importing this package registers the six built-in gates (``gate0``, ``threshold``,
``disagreement``, ``relevance``, ``confidence``, ``verbatim``) and the quote relevance rules.
Each gate's code and refusal templates are facts of its registration: :func:`gate_codes` and
:func:`default_order` read them from the registry when called, so a gate registered later is
seen like a built-in one. ``QuoteSource`` runs questions end to end; ``evaluate_sets`` keeps
every verdict of the labelled sets, and the analysis functions re-slice such a run without
touching retrieval.
"""

from workbench.gates._builtin import GATE0_POOL, GateFn, extract_quote, question_terms, quote_rule_stages
from workbench.gates._codes import (
    QuoteGateCode,
    default_order,
    gate_codes,
    gate_templates,
    gate_verdict,
)
from workbench.gates._confidence import (
    confidence_features,
    confidence_model,
    confidence_model_path,
    feature_groups,
    feature_names,
)
from workbench.gates._confidence_model import (
    ConfidenceModel,
    ConfidenceModelError,
    load_confidence_model,
)
from workbench.gates._quote_source import QuoteResult, QuoteSource
from workbench.gates._records import CandidateSet, GateVerdict, Quote, Trace
from workbench.gates._refusal import refusal_from_verdict, refusal_templates, search_area
from workbench.gates._runner import (
    UnknownGateError,
    candidate_set,
    check_order,
    gate_stages,
    quote_stages,
    run_gates,
)

__all__ = [
    "GATE0_POOL",
    "CandidateSet",
    "ConfidenceModel",
    "ConfidenceModelError",
    "GateFn",
    "GateVerdict",
    "Quote",
    "QuoteGateCode",
    "QuoteResult",
    "QuoteSource",
    "Trace",
    "UnknownGateError",
    "candidate_set",
    "check_order",
    "confidence_features",
    "confidence_model",
    "confidence_model_path",
    "default_order",
    "extract_quote",
    "feature_groups",
    "feature_names",
    "gate_codes",
    "gate_stages",
    "gate_templates",
    "gate_verdict",
    "load_confidence_model",
    "question_terms",
    "quote_rule_stages",
    "quote_stages",
    "refusal_from_verdict",
    "refusal_templates",
    "run_gates",
    "search_area",
]
