"""What the gates see and what they return."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

from workbench.corpus._records import Fragment
from workbench.corpus._text import Corpus
from workbench.retrieval._glossary import GlossaryMatch
from workbench.retrieval._hybrid import Hit


@dataclass(frozen=True)
class GateVerdict:
    """One gate's decision on one question."""

    gate: str
    """The gate's registered name."""
    passed: bool
    """False when the gate would refuse."""
    code: str | None
    """The refusal code when it would refuse, else ``None``."""
    numbers: Mapping[str, Any] = field(default_factory=dict)
    """What it measured: counts, scores, thresholds, missing items."""
    detail: str = ""
    """A sentence for traces."""

    def to_dict(self) -> dict[str, Any]:
        """A JSON-ready form."""
        return {"gate": self.gate, "passed": self.passed, "code": self.code,
                "numbers": dict(self.numbers), "detail": self.detail}


@dataclass(frozen=True)
class Quote:
    """The text the quote source would answer with, and where it sits."""

    fragment: Fragment
    """The fragment it is cut from."""
    text: str
    """A verbatim substring of the fragment (its best-matching sentences)."""
    offset: int
    """Where ``text`` starts inside the fragment."""


@dataclass(frozen=True)
class CandidateSet:
    """Everything a gate may look at for one question."""

    question: str
    """The question as asked."""
    lang: str
    """Its language (``ru`` or ``en``)."""
    hits: tuple[Hit, ...]
    """Ranked candidates, best first."""
    fragments: tuple[Fragment, ...]
    """The fragment of each hit, same order."""
    titles: tuple[str, ...]
    """The document title of each fragment's file (``""`` when the file has none)."""
    quote: Quote | None
    """The proposed quote from the best candidate (``None`` without candidates)."""
    corpus: Corpus
    """The corpus as it is now (for the verbatim gate)."""
    area: str
    """The search area in words: corpus name, files, fragments."""
    mode: str
    """The rerank mode that produced ``hits``."""
    expansion: tuple[GlossaryMatch, ...] = ()
    """The glossary entries retrieval found in the question (``Candidates.expansion``): gate 0
    counts a question term as found when the candidates hold one of its translations."""
    earlier: Mapping[str, GateVerdict] = field(default_factory=dict)
    """The verdicts of the gates evaluated before this one, by gate name: the runner fills it
    (empty elsewhere), so a gate that reads others' verdicts (``confidence``) need not repeat
    their work."""


@dataclass(frozen=True)
class Trace:
    """One question through the gates: every verdict, and the one that decided."""

    question: str
    """The question."""
    hits: tuple[Hit, ...]
    """The candidates the gates saw."""
    verdicts: tuple[GateVerdict, ...]
    """Every gate's verdict, in the configured order (all are evaluated)."""
    would_fire: tuple[bool, ...]
    """``not passed`` of each verdict, same order."""
    order: tuple[str, ...]
    """The configured firing order."""
    mode: str
    """The rerank mode."""

    @property
    def first_firing(self) -> GateVerdict | None:
        """The verdict that refuses under ``order`` (``None`` when every gate passed)."""
        for verdict in self.verdicts:
            if not verdict.passed:
                return verdict
        return None
