"""The refusal codes of the quote source's gates (a closed set), in default firing order."""

from __future__ import annotations

from enum import StrEnum


class QuoteGateCode(StrEnum):
    """Why the quote source refused; each gate owns exactly one code."""

    GATE0_NO_LEXICAL_SUPPORT = "GATE0_NO_LEXICAL_SUPPORT"
    """Too few of the question's content terms occur in the best candidates at all."""
    BELOW_THRESHOLD = "BELOW_THRESHOLD"
    """The best candidate's score is under the threshold."""
    CANDIDATE_DISAGREEMENT = "CANDIDATE_DISAGREEMENT"
    """The best candidates come from different files with nearly equal scores."""
    IRRELEVANT = "IRRELEVANT"
    """A relevance rule fired on the best candidate; the rule's name is in the verdict."""
    NOT_VERBATIM = "NOT_VERBATIM"
    """``verify_quote`` failed: not in the fragment, or not in the file as it is now."""


GATE_CODES: dict[str, QuoteGateCode] = {
    "gate0": QuoteGateCode.GATE0_NO_LEXICAL_SUPPORT,
    "threshold": QuoteGateCode.BELOW_THRESHOLD,
    "disagreement": QuoteGateCode.CANDIDATE_DISAGREEMENT,
    "relevance": QuoteGateCode.IRRELEVANT,
    "verbatim": QuoteGateCode.NOT_VERBATIM,
}
"""Gate name → the code it refuses with."""

DEFAULT_ORDER: tuple[str, ...] = tuple(GATE_CODES)
