"""The refusal codes of the quote source's gates, read from the registry.

Each gate declares its code where it registers (``@gate("gate0", code=...)``); the name → code
map is derived from those registrations at call time, so a gate registered later (in a test or a
notebook) is a gate like the built-in ones. The default firing order is not: registering a gate
never changes it, and a gate of one's own fires where a ``[gates] order`` names it. A gate that
declares a ``code`` is one of the quote source's gates.
"""

from __future__ import annotations

from collections.abc import Mapping
from enum import StrEnum
from typing import Any

from workbench import registry
from workbench.config import DEFAULT_GATE_ORDER
from workbench.gates._records import GateVerdict


class QuoteGateCode(StrEnum):
    """The codes of the built-in gates; each gate owns exactly one code.

    The set is closed for the built-in gates, whose refusal texts and tests name these codes. A
    gate added by a researcher declares a code string of its own and need not extend it.
    """

    GATE0_NO_LEXICAL_SUPPORT = "GATE0_NO_LEXICAL_SUPPORT"
    """Too few of the question's content terms occur in the best candidates at all."""
    BELOW_THRESHOLD = "BELOW_THRESHOLD"
    """The best candidate's score is under the threshold."""
    CANDIDATE_DISAGREEMENT = "CANDIDATE_DISAGREEMENT"
    """The best candidates come from different files with nearly equal scores."""
    IRRELEVANT = "IRRELEVANT"
    """A relevance rule fired on the best candidate; the rule's name is in the verdict."""
    LOW_CONFIDENCE = "LOW_CONFIDENCE"
    """The learned estimate that the quote holds the answer is under the calibrated threshold."""
    NOT_VERBATIM = "NOT_VERBATIM"
    """``verify_quote`` failed: not in the fragment, or not in the file as it is now."""


def gate_codes() -> dict[str, str]:
    """Gate name → the code it refuses with, for every registered gate, in registration order."""
    registry.load("gate")
    return {name: str(code) for name, code in registry.metadata_of("gate", "code").items()}


def default_order() -> tuple[str, ...]:
    """The default firing order: the built-in gates (:data:`workbench.config.DEFAULT_GATE_ORDER`).

    Registering a gate never changes it; a gate of one's own fires where a ``[gates] order``
    names it.
    """
    return DEFAULT_GATE_ORDER


def gate_templates(name: str) -> dict[str, str]:
    """The refusal templates (language → text) the gate ``name`` registered (empty if none)."""
    registry.load("gate")
    return dict(registry.lookup("gate", name).metadata.get("templates") or {})


def gate_verdict(name: str, fires: bool, numbers: Mapping[str, Any], detail: str) -> GateVerdict:
    """The verdict of the gate ``name``, carrying its registered code when it fires.

    Args:
        name: The gate's registered name.
        fires: True when the gate would refuse.
        numbers: What it measured (the refusal template reads its fields from these).
        detail: A sentence for traces.
    """
    code = str(registry.lookup("gate", name).metadata["code"]) if fires else None
    return GateVerdict(gate=name, passed=not fires, code=code, numbers=dict(numbers),
                       detail=detail)
