"""Certificates: what a passed specification was checked against, sealed by a digest.

The digest is the sha256 of the canonical JSON of every field except ``digest`` and
``created_at`` (a time, if any, stays outside the digested part, so a certificate is
reproducible byte for byte). Certificates are stored as JSON; nothing is pickled.
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from workbench.fts._canonical import canonical_json, digest_of
from workbench.fts._problems import CertificateError

CERTIFICATE_FORMAT = "fts-certificate/1"
"""The format tag of a certificate."""
CERTIFIED_CHECKS: tuple[str, ...] = ("E_SYNTAX", "E_STATIC", "E_PREMISE", "E_EXAMPLE")
"""The gate checks a certificate records as passed; the re-check and the library check follow."""


@dataclass(frozen=True)
class PremiseRef:
    """One premise as the certificate pins it."""

    alias: str
    """The alias the specification cites."""
    id: str
    """The library id."""
    version: int
    """The entry's version."""
    digest: str
    """The entry's digest."""
    status: str
    """``verified`` or ``derived``."""


@dataclass(frozen=True)
class ExampleResult:
    """An evaluated author's example or boundary declaration."""

    label: str
    """The example's label."""
    boundary: bool
    """Whether it was written as ``boundary``."""
    inputs: tuple[tuple[str, str], ...]
    """Input name and canonical value, in declaration order of the inputs."""
    expected: str
    """The canonical expected conclusion."""
    actual: str
    """The canonical computed conclusion."""
    case: int
    """The case that gave the conclusion."""


@dataclass(frozen=True)
class PropertyResult:
    """A declared property checked over the input domain."""

    label: str
    """The property's label."""
    points: int
    """How many points were evaluated."""
    domain_size: int
    """The size of the full domain."""
    domain_digest: str
    """Digest of the evaluated points (canonical values, in order)."""
    sampled: bool
    """Whether a seeded sample stood in for the full domain."""
    seed: int | None
    """The sample's seed."""
    held: bool
    """Whether the property held at every evaluated point."""


@dataclass(frozen=True)
class Certificate:
    """The certificate of a specification that passed the gate."""

    spec_id: str
    """The specification's id."""
    spec_version: int
    """Its declared version."""
    spec_digest: str
    """sha256 of its normalised text."""
    premises: tuple[PremiseRef, ...]
    """Each premise's id, version and digest."""
    library_digest: str
    """The library digest at certification time."""
    checks: tuple[str, ...]
    """The gate checks passed before certification."""
    examples: tuple[ExampleResult, ...]
    """Evaluated examples."""
    properties: tuple[PropertyResult, ...]
    """Evaluated properties."""
    digest: str = ""
    """sha256 of the canonical body (every field but this one and ``created_at``)."""
    format: str = CERTIFICATE_FORMAT
    """The format tag."""
    language: str = "fts/1"
    """The FTS language version."""
    created_at: str | None = None
    """An optional time stamp, outside the digest."""

    @property
    def results(self) -> dict[str, Any]:
        """Examples and properties together, as JSON-ready data."""
        body = self.body()
        return {"examples": body["examples"], "properties": body["properties"]}

    def body(self) -> dict[str, Any]:
        """The digested part, as JSON-ready data."""
        return {
            "format": self.format,
            "language": self.language,
            "spec_id": self.spec_id,
            "spec_version": self.spec_version,
            "spec_digest": self.spec_digest,
            "premises": [
                {"alias": p.alias, "id": p.id, "version": p.version, "digest": p.digest,
                 "status": p.status} for p in self.premises
            ],
            "library_digest": self.library_digest,
            "checks": list(self.checks),
            "examples": [
                {"label": e.label, "boundary": e.boundary, "inputs": [list(i) for i in e.inputs],
                 "expected": e.expected, "actual": e.actual, "case": e.case}
                for e in self.examples
            ],
            "properties": [
                {"label": p.label, "points": p.points, "domain_size": p.domain_size,
                 "domain_digest": p.domain_digest, "sampled": p.sampled, "seed": p.seed,
                 "held": p.held} for p in self.properties
            ],
        }

    def to_dict(self) -> dict[str, Any]:
        """The whole certificate as JSON-ready data."""
        out = self.body()
        out["digest"] = self.digest
        if self.created_at is not None:
            out["created_at"] = self.created_at
        return out

    def to_json(self) -> str:
        """Canonical JSON text of :meth:`to_dict`."""
        return canonical_json(self.to_dict())

    @classmethod
    def from_dict(cls, data: Mapping[str, Any]) -> Certificate:
        """Read a certificate back (raises :class:`CertificateError` on a malformed record)."""
        try:
            return cls(
                spec_id=str(data["spec_id"]),
                spec_version=int(data["spec_version"]),
                spec_digest=str(data["spec_digest"]),
                premises=tuple(PremiseRef(str(p["alias"]), str(p["id"]), int(p["version"]),
                                          str(p["digest"]), str(p["status"]))
                               for p in data["premises"]),
                library_digest=str(data["library_digest"]),
                checks=tuple(str(c) for c in data["checks"]),
                examples=tuple(ExampleResult(str(e["label"]), bool(e["boundary"]),
                                             tuple((str(a), str(b)) for a, b in e["inputs"]),
                                             str(e["expected"]), str(e["actual"]), int(e["case"]))
                               for e in data["examples"]),
                properties=tuple(PropertyResult(str(p["label"]), int(p["points"]),
                                                int(p["domain_size"]), str(p["domain_digest"]),
                                                bool(p["sampled"]), p["seed"], bool(p["held"]))
                                 for p in data["properties"]),
                digest=str(data.get("digest", "")),
                format=str(data.get("format", "")),
                language=str(data.get("language", "")),
                created_at=data.get("created_at"),
            )
        except (KeyError, TypeError, ValueError) as exc:
            raise CertificateError(f"not a certificate record: {exc!r}") from exc

    @classmethod
    def from_json(cls, text: str) -> Certificate:
        """Read a certificate from JSON text."""
        try:
            return cls.from_dict(json.loads(text))
        except ValueError as exc:
            raise CertificateError(f"not JSON: {exc}") from exc


def seal_certificate(draft: Certificate) -> Certificate:
    """``draft`` with its digest filled in; checks that it reads back to the same digest."""
    try:
        digest = digest_of(draft.body())
    except (TypeError, ValueError) as exc:
        raise CertificateError(
            f"the certificate body does not serialise canonically: {exc}") from exc
    sealed = Certificate(**{**draft.__dict__, "digest": digest})
    again = Certificate.from_json(sealed.to_json())
    if digest_of(again.body()) != digest or again.digest != digest:
        raise CertificateError("the certificate does not read back to the same digest")
    return sealed


__all__ = [
    "CERTIFICATE_FORMAT",
    "CERTIFIED_CHECKS",
    "Certificate",
    "ExampleResult",
    "PremiseRef",
    "PropertyResult",
    "seal_certificate",
]
