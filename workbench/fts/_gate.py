"""The FTS gate: eight checks in a fixed order; the first that fails stops the specification.

The checks are a table (code -> step) walked in :data:`GATE_ORDER`. Each step reads and extends
one :class:`_Run` and returns its problems. The gate never raises: any unexpected exception
becomes ``E_UNFORESEEN`` naming the step it happened in. A library that cannot be read at all
stops the gate with ``E_LIBRARY`` at the first step that needs it.
"""

from __future__ import annotations

import traceback
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from workbench.fts._ast import Spec
from workbench.fts._canonical import digest_of, sha256_hex
from workbench.fts._certificate import (
    CERTIFIED_CHECKS,
    Certificate,
    ExampleResult,
    PremiseRef,
    PropertyResult,
    seal_certificate,
)
from workbench.fts._codes import GATE_ORDER, GateCode
from workbench.fts._eval import EvalError, Evaluator, domain
from workbench.fts._library import Library, load_library, verify
from workbench.fts._parser import LANGUAGE, normalise_text, parse
from workbench.fts._premises import check_premises
from workbench.fts._problems import CertificateError, LibraryError, Problem
from workbench.fts._recheck import recheck
from workbench.fts._refusal import make_refusal
from workbench.fts._static import check_static
from workbench.fts._values import from_literal, render
from workbench.refusal import Refusal

G = GateCode


@dataclass
class _Run:
    """The state one gate run builds up step by step."""

    text: str
    library_dir: Path
    spec: Spec | None = None
    library: Library | None = None
    examples: list[ExampleResult] = field(default_factory=list)
    properties: list[PropertyResult] = field(default_factory=list)
    certificate: Certificate | None = None


@dataclass(frozen=True)
class GateResult:
    """What the gate concluded about one specification."""

    spec_id: str
    """The specification's id (empty when it did not parse)."""
    passed: bool
    """Whether all eight checks passed."""
    code: GateCode | None
    """The code of the check that failed (``None`` when passed)."""
    problem: Problem | None
    """The first problem of that check: where and why."""
    problems: tuple[Problem, ...]
    """Every problem that check found."""
    certificate: Certificate | None
    """The certificate (set once generated, even if a later check failed)."""
    library: Library | None
    """The library the check read."""
    spec: Spec | None
    """The parsed specification (``None`` when it did not parse)."""
    library_dir: str = ""
    """The library folder."""

    def refusal(self, lang: str = "en") -> Refusal | None:
        """The refusal for a failed gate (``None`` when passed)."""
        if self.problem is None:
            return None
        return make_refusal(self.problem, self.spec_id, self.library, lang=lang,
                            total=len(self.problems), root=self.library_dir)


def _need_library(run: _Run) -> Library:
    if run.library is None:
        run.library = load_library(run.library_dir)
    return run.library


def _step_syntax(run: _Run) -> list[Problem]:
    parsed = parse(run.text)
    if isinstance(parsed, Problem):
        return [parsed]
    run.spec = parsed
    return []


def _step_static(run: _Run) -> list[Problem]:
    assert run.spec is not None  # noqa: S101 - set by the previous step
    return check_static(run.spec)


def _step_premise(run: _Run) -> list[Problem]:
    assert run.spec is not None  # noqa: S101
    return check_premises(run.spec, _need_library(run))


def _literal_value(kind: str, value: Any) -> Any:
    return value if kind == "member" else from_literal(kind, value)


def _step_example(run: _Run) -> list[Problem]:
    spec = run.spec
    assert spec is not None  # noqa: S101
    out_type = spec.output.type_name
    types = {i.name: i.type_name for i in spec.inputs}
    for ex in spec.examples:
        inputs = {name: _literal_value(lit.kind, lit.value) for name, lit in ex.bindings}
        expected = render(out_type, _literal_value(ex.expected.kind, ex.expected.value))
        where = {"example": ex.label}
        try:
            value, case = Evaluator(spec, inputs).conclude()
        except EvalError as exc:
            if exc.key == "no_case_applies":
                return [Problem(G.E_EXAMPLE, "example_no_case", where, ex.line, ex.column)]
            return [Problem(G.E_EXAMPLE, "example_error",
                            {**where, "reason": exc.key.replace("_", " ")}, ex.line, ex.column)]
        actual = render(out_type, value)
        if actual != expected:
            return [Problem(G.E_EXAMPLE, "example_differs", {
                **where, "expected": expected, "actual": actual, "case": case},
                ex.line, ex.column)]
        run.examples.append(ExampleResult(
            label=ex.label, boundary=ex.boundary,
            inputs=tuple((i.name, render(types[i.name], inputs[i.name]))
                         for i in spec.inputs if i.name in inputs),
            expected=expected, actual=actual, case=case))
    if not spec.properties:
        return []
    dom = domain(spec)
    points = dom.points()
    shown = [[render(types[n], pt[n]) for n in dom.names] for pt in points]
    dom_digest = digest_of(shown)
    for prop in spec.properties:
        for pt, row in zip(points, shown, strict=True):
            point_text = ", ".join(f"{n}={v}" for n, v in zip(dom.names, row, strict=True))
            try:
                held = Evaluator(spec, pt).holds(prop.expr)
            except EvalError as exc:
                return [Problem(G.E_EXAMPLE, "property_error", {
                    "property": prop.label, "point": point_text,
                    "reason": exc.key.replace("_", " ")}, prop.line, prop.column)]
            if not held:
                return [Problem(G.E_EXAMPLE, "property_fails", {
                    "property": prop.label, "point": point_text, "points": len(points)},
                    prop.line, prop.column)]
        run.properties.append(PropertyResult(
            label=prop.label, points=len(points), domain_size=dom.size, domain_digest=dom_digest,
            sampled=dom.sampled, seed=dom.seed, held=True))
    return []


def build_certificate(run: _Run) -> Certificate:
    """Assemble and seal the certificate of a run whose first four checks passed."""
    spec, library = run.spec, run.library
    assert spec is not None and library is not None  # noqa: S101
    premises = tuple(
        PremiseRef(p.alias, p.ref, library.entries[p.ref].version,
                   library.entries[p.ref].computed_digest, library.entries[p.ref].status)
        for p in spec.premises
    )
    draft = Certificate(
        spec_id=spec.id, spec_version=spec.version,
        spec_digest=sha256_hex(normalise_text(run.text)), premises=premises,
        library_digest=library.digest, checks=CERTIFIED_CHECKS,
        examples=tuple(run.examples), properties=tuple(run.properties), language=LANGUAGE)
    return seal_certificate(draft)


def _step_certificate(run: _Run) -> list[Problem]:
    try:
        run.certificate = build_certificate(run)
    except CertificateError as exc:
        return [Problem(G.E_CERTIFICATE, "certificate_failed", {"reason": str(exc)})]
    return []


def _step_recheck(run: _Run) -> list[Problem]:
    assert run.certificate is not None  # noqa: S101
    return recheck(run.certificate.to_dict(), run.text, run.library_dir)


def _step_library(run: _Run) -> list[Problem]:
    return verify(_need_library(run))


STEPS: dict[GateCode, Callable[[_Run], list[Problem]]] = {
    G.E_SYNTAX: _step_syntax,
    G.E_STATIC: _step_static,
    G.E_PREMISE: _step_premise,
    G.E_EXAMPLE: _step_example,
    G.E_CERTIFICATE: _step_certificate,
    G.E_RECHECK: _step_recheck,
    G.E_LIBRARY: _step_library,
}
"""Code -> the check that can fail with it; ``E_UNFORESEEN`` has no step of its own."""


def run_gate(text: str, library_dir: str | Path) -> GateResult:
    """Put the specification ``text`` through the gate against the library at ``library_dir``."""
    run = _Run(text=text, library_dir=Path(library_dir))

    def result(code: GateCode | None, problems: list[Problem]) -> GateResult:
        return GateResult(
            spec_id=run.spec.id if run.spec is not None else "",
            passed=code is None, code=code, problem=problems[0] if problems else None,
            problems=tuple(problems), certificate=run.certificate, library=run.library,
            spec=run.spec, library_dir=str(library_dir))

    for code in GATE_ORDER:
        step = STEPS.get(code)
        if step is None:
            continue
        try:
            problems = step(run)
        except LibraryError as exc:
            return result(G.E_LIBRARY, [Problem(G.E_LIBRARY, "library_unreadable",
                                                {"reason": str(exc)})])
        except Exception as exc:  # noqa: BLE001 - the gate never raises: that is its contract
            frame = traceback.extract_tb(exc.__traceback__)[-1]
            return result(G.E_UNFORESEEN, [Problem(G.E_UNFORESEEN, "unforeseen", {
                "step": str(code), "reason": f"{type(exc).__name__}: {exc}"[:200],
                "at": f"{Path(frame.filename).name}:{frame.lineno}"})])
        if problems:
            first = problems[0].code
            return result(first if isinstance(first, GateCode) else code, problems)
    return result(None, [])


__all__ = ["STEPS", "GateResult", "build_certificate", "run_gate"]
