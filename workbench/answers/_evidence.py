"""The answer and its evidence: what a mode-A answer rests on, item by item.

Each evidence kind names its origin so the invariant checker can resolve it again later: a quote
by its anchor in the corpus and the index it was found in, a utility call by its id, arguments and
result in a catalog of a given digest, a specification conclusion by its certificate. All records
round-trip through JSON (``to_dict`` / ``from_dict``) so run records and the negative control can
store them as plain data.
"""

from __future__ import annotations

import enum
import json
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from workbench.corpus._records import Anchor
from workbench.errors import WorkbenchError


def canonical_json(value: Any) -> str:
    """Sorted keys, no whitespace, non-ASCII kept (the catalog's canonical form)."""
    return json.dumps(value, sort_keys=True, separators=(",", ":"), ensure_ascii=False)


class Mode(enum.StrEnum):
    """How an answer may be trusted; a closed set."""

    A = "A"
    """Verified: every word comes from evidence that the invariant checker resolved."""
    B = "B"
    """Advisory: free text of a configured local language model, with no guarantee."""


class EvidenceFormatError(WorkbenchError, ValueError):
    """A stored evidence item or answer whose JSON form cannot be read back."""


@dataclass(frozen=True)
class QuoteEvidence:
    """A verbatim quote from the corpus."""

    anchor: Anchor
    """Where the quote itself sits: file, code-point offsets, sha256 of the quoted text."""
    text: str
    """The quoted text, character for character."""
    index_digest: str
    """The digest of the index the quote was found in."""

    kind = "quote"

    def to_dict(self) -> dict[str, Any]:
        """A JSON-ready form."""
        return {"kind": self.kind, "anchor": self.anchor.to_dict(), "text": self.text,
                "index_digest": self.index_digest}


@dataclass(frozen=True)
class UtilityEvidence:
    """A utility call and its result."""

    utility: str
    """The utility id (``hash.sha256``)."""
    args: Mapping[str, Any]
    """The arguments the call was made with, exactly as given."""
    result: Any
    """The JSON-ready result the call returned."""
    catalog_digest: str
    """The digest of the catalog the utility was called from."""

    kind = "utility"

    def to_dict(self) -> dict[str, Any]:
        """A JSON-ready form."""
        return {"kind": self.kind, "utility": self.utility, "args": dict(self.args),
                "result": self.result, "catalog_digest": self.catalog_digest}


@dataclass(frozen=True)
class SpecEvidence:
    """A conclusion of a certified specification for given inputs."""

    spec_id: str
    """The specification's id (``vat.vat_amount``)."""
    conclusion: str
    """The canonical value of its output for ``inputs``."""
    certificate_digest: str
    """The digest of the certificate that carries the conclusion."""
    inputs: Mapping[str, str] = field(default_factory=dict)
    """The inputs, as text values, the conclusion was evaluated for."""
    certificate: Mapping[str, Any] = field(default_factory=dict)
    """The certificate itself (its JSON form), so the re-checker can re-derive every field."""

    kind = "spec"

    def to_dict(self) -> dict[str, Any]:
        """A JSON-ready form."""
        return {"kind": self.kind, "spec_id": self.spec_id, "conclusion": self.conclusion,
                "certificate_digest": self.certificate_digest, "inputs": dict(self.inputs),
                "certificate": dict(self.certificate)}


Evidence = QuoteEvidence | UtilityEvidence | SpecEvidence
"""One item of evidence: a quote, a utility call, or a specification conclusion."""


def evidence_from_dict(data: Mapping[str, Any]) -> Evidence:
    """Rebuild an evidence item from its ``to_dict`` form; the error names the known kinds."""
    kind = data.get("kind") if isinstance(data, Mapping) else None
    try:
        if kind == "quote":
            a = data["anchor"]
            anchor = Anchor(path=str(a["path"]), start=int(a["start"]), end=int(a["end"]),
                            sha256=str(a["sha256"]))
            return QuoteEvidence(anchor, str(data["text"]), str(data["index_digest"]))
        if kind == "utility":
            return UtilityEvidence(str(data["utility"]), dict(data.get("args") or {}),
                                   data.get("result"), str(data["catalog_digest"]))
        if kind == "spec":
            return SpecEvidence(str(data["spec_id"]), str(data["conclusion"]),
                                str(data["certificate_digest"]), dict(data.get("inputs") or {}),
                                dict(data.get("certificate") or {}))
    except (KeyError, TypeError, ValueError) as exc:
        raise EvidenceFormatError(f"{kind} evidence lacks or mistypes a field: {exc}") from exc
    raise EvidenceFormatError(f"unknown evidence kind {kind!r}; known: quote, utility, spec")


def render_evidence(evidence: Sequence[Evidence]) -> str:
    """The text of a mode-A answer: nothing but its evidence, one item a line.

    A quote is given as quoted; a utility result as canonical JSON after the call; a
    specification conclusion after the specification's id. Because the text is a function of the
    evidence, the checker can hold that a mode-A answer says nothing its evidence does not.
    """
    lines = []
    for item in evidence:
        if isinstance(item, QuoteEvidence):
            lines.append(f"«{item.text}» ({item.anchor.path}:{item.anchor.start}-{item.anchor.end})")
        elif isinstance(item, UtilityEvidence):
            lines.append(f"{item.utility}({canonical_json(dict(item.args))}) = "
                         f"{canonical_json(item.result)}")
        else:
            lines.append(f"{item.spec_id}: {item.conclusion}")
    return "\n".join(lines)


@dataclass(frozen=True)
class Answer:
    """An answer that left the pipeline."""

    mode: Mode
    """A (verified, from evidence only) or B (advisory, generated)."""
    text: str
    """What the user reads; in mode A exactly :func:`render_evidence` of ``evidence``."""
    evidence: tuple[Evidence, ...] = ()
    """What a mode-A answer rests on; empty in mode B."""
    transition_note: str = ""
    """In mode B: why mode A could not answer (its refusal code and sentence)."""

    def __post_init__(self) -> None:
        object.__setattr__(self, "mode", Mode(self.mode))
        object.__setattr__(self, "evidence", tuple(self.evidence))

    def to_dict(self) -> dict[str, Any]:
        """A JSON-ready form."""
        return {"mode": str(self.mode), "text": self.text,
                "evidence": [e.to_dict() for e in self.evidence],
                "transition_note": self.transition_note}

    def to_json(self) -> str:
        """The canonical JSON text (sorted keys), as stored in run records."""
        return canonical_json(self.to_dict())

    @classmethod
    def from_dict(cls, data: Mapping[str, Any]) -> Answer:
        """Rebuild an answer from :meth:`to_dict` output."""
        try:
            mode = Mode(data["mode"])
        except (KeyError, ValueError) as exc:
            raise EvidenceFormatError(f"an answer needs a mode among A, B: {exc}") from exc
        return cls(mode=mode, text=str(data.get("text", "")),
                   evidence=tuple(evidence_from_dict(e) for e in data.get("evidence") or ()),
                   transition_note=str(data.get("transition_note", "")))
