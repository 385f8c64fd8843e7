"""Answers: the records every source shares, the pipeline, the invariant checker, leakage.

A mode-A answer is built only from evidence (a verbatim quote, a utility call, a certified
specification's conclusion) and leaves only when every invariant holds for every item; a mode-B
answer is advisory text from a configured local language model and is labelled so. The negative
control spoils thousands of genuine answers and publishes the checker's verdict on each;
``forge`` spoils one, the same way.
"""

import importlib
from typing import Any

from workbench.answers._codes import ANSWER_INVARIANTS, INVARIANTS_BY_KIND, AnswerCode, Invariant
from workbench.answers._evidence import (
    Answer,
    Evidence,
    EvidenceFormatError,
    Mode,
    QuoteEvidence,
    SpecEvidence,
    UtilityEvidence,
    evidence_from_dict,
    render_evidence,
)

# The refusal record and the wording rule come first: the sources import them from here while
# the modules below import the sources.
from workbench.answers._records import Refusal  # noqa: I001
from workbench.answers._wording import FALSEHOOD_PATTERN, falsehood_words, speakable

# The pipeline, the checker and the negative control import every source, and every source
# imports the refusal record from this package; they are loaded on first use to break the cycle.
_LAZY = {
    "workbench.answers._context": ("CheckContext",),
    "workbench.answers._invariants": ("Cell", "InvariantReport", "InvariantRow", "check_answer",
                                      "check_evidence", "refusal_from_report"),
    "workbench.answers._generator": ("Generator", "GeneratorError", "TransformersGenerator"),
    "workbench.answers._pipeline": ("AnswerResult", "AnswerTrace", "answer", "answer_rows",
                                    "leaky_answer"),
    "workbench.answers._leakage": ("LeakageReport", "leakage"),
    "workbench.answers._from_quotes": ("answers_from_gate_rows", "quote_answer"),
    "workbench.answers._forgers": ("FORGERS", "KIND_SOURCE", "Forgery", "ForgeryError",
                                   "ForgeryKind", "Pools", "forge", "forge_many"),
    "workbench.answers._negative": ("NegativeControlReport", "build_forgeries", "catch_rates",
                                    "check_forgeries", "run_negative_control"),
}
_WHERE = {name: module for module, names in _LAZY.items() for name in names}


def __getattr__(name: str) -> Any:
    module = _WHERE.get(name)
    if module is None:
        raise AttributeError(f"module 'workbench.answers' has no attribute {name!r}")
    value = getattr(importlib.import_module(module), name)
    globals()[name] = value
    return value


__all__ = [
    "answers_from_gate_rows",
    "quote_answer",
    "ANSWER_INVARIANTS",
    "FALSEHOOD_PATTERN",
    "FORGERS",
    "INVARIANTS_BY_KIND",
    "KIND_SOURCE",
    "Answer",
    "AnswerCode",
    "AnswerResult",
    "AnswerTrace",
    "Cell",
    "CheckContext",
    "Evidence",
    "EvidenceFormatError",
    "Forgery",
    "ForgeryError",
    "ForgeryKind",
    "Generator",
    "GeneratorError",
    "Invariant",
    "InvariantReport",
    "InvariantRow",
    "LeakageReport",
    "Mode",
    "NegativeControlReport",
    "Pools",
    "QuoteEvidence",
    "Refusal",
    "SpecEvidence",
    "TransformersGenerator",
    "UtilityEvidence",
    "answer",
    "answer_rows",
    "build_forgeries",
    "catch_rates",
    "check_answer",
    "check_evidence",
    "check_forgeries",
    "evidence_from_dict",
    "falsehood_words",
    "forge",
    "forge_many",
    "leakage",
    "leaky_answer",
    "refusal_from_report",
    "render_evidence",
    "run_negative_control",
    "speakable",
]
