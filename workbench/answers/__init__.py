"""Answers: the records every source shares, the pipeline, the invariant checker, leakage.

A mode-A answer is built only from evidence (a verbatim quote, a utility call, a certified
specification's conclusion) and leaves only when every invariant holds for every item; a mode-B
answer is advisory text from a configured local language model and is labelled so. The negative
control spoils thousands of genuine answers and publishes the checker's verdict on each;
``forge`` spoils one, the same way. ``ask`` answers a question as the user asked it (the
router named or the best one by the model catalog, optionally held to one source); every face
goes through it.
"""

from workbench.answers._ask import (
    ASK_BATCH,
    BUNDLED_COURSE,
    DEFAULT_ROUTER_FILE,
    FALLBACK_ROUTER,
    QUOTE_ONLY,
    DefaultRouterFileError,
    DefaultRouterRecord,
    ForcedSource,
    QuoteOnly,
    RouterChoice,
    ask,
    ask_many,
    best_router,
    default_router,
    is_bundled_course,
    load_default_router,
    resolve_router,
)
from workbench.answers._codes import AnswerCode, Invariant
from workbench.answers._context import CheckContext
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
from workbench.answers._forgers import (
    FORGERS,
    KIND_SOURCE,
    Forgery,
    ForgeryError,
    ForgeryKind,
    Pools,
    forge,
    forge_many,
)
from workbench.answers._generator import Generator, GeneratorError, TransformersGenerator
from workbench.answers._invariants import (
    Cell,
    InvariantReport,
    InvariantRow,
    check_answer,
    check_evidence,
    invariant_names,
    invariants_by_kind,
    invariants_for,
    refusal_from_report,
)
from workbench.answers._pipeline import (
    AnswerResult,
    AnswerTrace,
    answer,
    answer_many,
    answer_rows,
    leaky_answer,
)
from workbench.refusal import FALSEHOOD_PATTERN, Refusal, falsehood_words, speakable

__all__ = [
    "ASK_BATCH",
    "BUNDLED_COURSE",
    "FALLBACK_ROUTER",
    "QUOTE_ONLY",
    "DEFAULT_ROUTER_FILE",
    "DefaultRouterFileError",
    "DefaultRouterRecord",
    "ForcedSource",
    "QuoteOnly",
    "RouterChoice",
    "ask",
    "ask_many",
    "best_router",
    "load_default_router",
    "default_router",
    "is_bundled_course",
    "resolve_router",
    "FALSEHOOD_PATTERN",
    "FORGERS",
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
    "Mode",
    "Pools",
    "QuoteEvidence",
    "Refusal",
    "SpecEvidence",
    "TransformersGenerator",
    "UtilityEvidence",
    "answer",
    "answer_many",
    "answer_rows",
    "check_answer",
    "check_evidence",
    "evidence_from_dict",
    "falsehood_words",
    "forge",
    "forge_many",
    "invariant_names",
    "invariants_by_kind",
    "invariants_for",
    "leaky_answer",
    "refusal_from_report",
    "render_evidence",
    "speakable",
]
