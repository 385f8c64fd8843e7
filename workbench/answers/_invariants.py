"""The invariant checker: every evidence item must resolve before a mode-A answer leaves.

The checker is a plain function, :func:`check_answer`, over an answer and a ``CheckContext``
(``_context.py``: the corpus as it is now, the index the quotes came from, the specification
folder and the morphism library; the catalog is the loaded one). It evaluates every applicable
invariant of every item, even after one failed, so the report shows the whole picture: one row
for the answer as a whole and one row per evidence item, one column per registered invariant.
Each invariant is a small function registered with ``@invariant(name, applies_to=kind)``; the
registrations are the source of truth: which invariants apply to a row of each kind, and the
checking order (the order they register in), are read from the registry when a check runs, so
an invariant registered later is checked like the built-in ones.
"""

from __future__ import annotations

import hashlib
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pandas as pd

from workbench import registry
from workbench.answers._codes import AnswerCode, Invariant
from workbench.answers._context import CheckContext
from workbench.answers._evidence import (
    Answer,
    Evidence,
    Mode,
    QuoteEvidence,
    SpecEvidence,
    UtilityEvidence,
    render_evidence,
)
from workbench.corpus import CorpusError, CorpusFileMissingError, OutsideCorpusError
from workbench.errors import WorkbenchError
from workbench.fts import EvalError, FtsError, check_spec, digest_of, evaluate, recheck

# the text forms of FTS values, exactly as evaluate_spec reads and writes them
from workbench.fts._values import parse_value, render
from workbench.refusal import Refusal, falsehood_words
from workbench.registry import invariant, lookup
from workbench.utilities import call_utility, canonical_json, check_arguments, load_catalog
from workbench.utilities import results_equal as _results_equal


def invariant_names() -> tuple[str, ...]:
    """Every registered invariant, in registration order: the checking order."""
    registry.load("invariant")
    return tuple(entry.name for entry in registry.registered("invariant"))


def invariants_by_kind() -> dict[str, tuple[str, ...]]:
    """Row kind (``answer``, ``quote``, ``utility``, ``spec``...) → its invariants, in checking order.

    Derived from each registration's ``applies_to``.
    """
    registry.load("invariant")
    by_kind: dict[str, tuple[str, ...]] = {}
    for name, kind in registry.metadata_of("invariant", "applies_to").items():
        by_kind[str(kind)] = (*by_kind.get(str(kind), ()), name)
    return by_kind


def invariants_for(kind: str) -> tuple[str, ...]:
    """The invariants that apply to a row of ``kind``, in checking order (empty if none)."""
    return invariants_by_kind().get(kind, ())


@dataclass(frozen=True)
class Cell:
    """One invariant on one row: passed, failed, or not applicable, with the reason."""

    passed: bool | None
    """True or False; ``None`` when the invariant does not apply to the row's kind."""
    reason: str = ""
    """What was compared, in a few words."""

    def to_dict(self) -> dict[str, Any]:
        """A JSON-ready form."""
        return {"passed": self.passed, "reason": self.reason}


PASS = "pass"
FAIL = "fail"


@dataclass(frozen=True)
class InvariantRow:
    """The invariants of one row: the answer as a whole, or one evidence item."""

    item: str
    """``answer`` or ``evidence[i]``."""
    kind: str
    """``answer``, ``quote``, ``utility`` or ``spec``."""
    cells: Mapping[str, Cell]
    """Every registered invariant, applicable or not, in checking order."""

    @property
    def passed(self) -> bool:
        """No applicable invariant failed."""
        return all(c.passed is not False for c in self.cells.values())

    @property
    def first_failure(self) -> tuple[str, str] | None:
        """The first failed invariant and its reason, in checking order."""
        for name, cell in self.cells.items():
            if cell.passed is False:
                return name, cell.reason
        return None


@dataclass(frozen=True)
class InvariantReport:
    """The checker's report on one answer."""

    mode: Mode
    """The answer's mode; a mode-B answer is advisory and its report holds no checks."""
    rows: tuple[InvariantRow, ...]
    """The answer row, then one row per evidence item."""

    @property
    def passed(self) -> bool:
        """Every applicable invariant of every row held."""
        return all(r.passed for r in self.rows)

    @property
    def first_failure(self) -> tuple[str, str, str] | None:
        """``(item, invariant, reason)`` of the first failure, row by row."""
        for row in self.rows:
            failure = row.first_failure
            if failure is not None:
                return row.item, failure[0], failure[1]
        return None

    @property
    def failed_invariants(self) -> list[str]:
        """Every invariant that failed on some row, in checking order, once each."""
        failed = {name for r in self.rows for name, c in r.cells.items() if c.passed is False}
        return [name for name in self.invariants if name in failed]

    @property
    def invariants(self) -> tuple[str, ...]:
        """The invariants the report's rows hold a cell for, in checking order."""
        return tuple(self.rows[0].cells) if self.rows else invariant_names()

    def to_frame(self) -> pd.DataFrame:
        """One row per item, one column per invariant (``pass``, ``fail: reason`` or empty)."""
        names = self.invariants
        records = []
        for row in self.rows:
            record: dict[str, Any] = {"item": row.item, "kind": row.kind}
            for name in names:
                cell = row.cells.get(name, NOT_APPLICABLE)
                record[str(name)] = ("" if cell.passed is None else PASS if cell.passed
                                     else f"{FAIL}: {cell.reason}")
            records.append(record)
        return pd.DataFrame.from_records(records, columns=["item", "kind", *map(str, names)])

    def to_dict(self) -> dict[str, Any]:
        """A JSON-ready form."""
        return {"mode": str(self.mode), "passed": self.passed, "rows": [
            {"item": r.item, "kind": r.kind,
             "cells": {str(k): c.to_dict() for k, c in r.cells.items() if c.passed is not None}}
            for r in self.rows]}


InvariantFn = Callable[[Any, CheckContext], Cell]


def _ok(reason: str) -> Cell:
    return Cell(True, reason)


def _fail(reason: str) -> Cell:
    return Cell(False, reason)


# --- the answer as a whole ----------------------------------------------------------------------

@invariant(Invariant.EVIDENCE_PRESENT, applies_to="answer")
def evidence_present(answer: Answer, context: CheckContext) -> Cell:
    """A mode-A answer carries evidence."""
    if answer.evidence:
        return _ok(f"{len(answer.evidence)} item(s)")
    return _fail("a mode-A answer with no evidence item")


@invariant(Invariant.TEXT_FROM_EVIDENCE, applies_to="answer")
def text_from_evidence(answer: Answer, context: CheckContext) -> Cell:
    """The text is the rendering of the evidence, nothing more."""
    if answer.text == render_evidence(answer.evidence):
        return _ok("text is the rendering of the evidence")
    return _fail("text differs from the rendering of its evidence")


# --- quotes -------------------------------------------------------------------------------------

@invariant(Invariant.QUOTE_FILE_EXISTS, applies_to="quote")
def quote_file_exists(item: QuoteEvidence, context: CheckContext) -> Cell:
    """The anchored file exists under the corpus root."""
    try:
        context.read(item.anchor.path)
    except OutsideCorpusError:
        return _fail(f"{item.anchor.path!r} leaves the corpus root")
    except CorpusFileMissingError:
        return _fail(f"{item.anchor.path!r} does not exist under the corpus root")
    except CorpusError as exc:
        return _fail(f"{item.anchor.path!r} cannot be read: {type(exc).__name__}")
    return _ok(f"{item.anchor.path} exists")


@invariant(Invariant.QUOTE_AT_ANCHOR, applies_to="quote")
def quote_at_anchor(item: QuoteEvidence, context: CheckContext) -> Cell:
    """The file now holds the text at the anchor, and the anchor's digest is the text's."""
    a = item.anchor
    if not item.text or a.end - a.start != len(item.text) or a.start < 0:
        return _fail(f"anchor {a.start}-{a.end} does not span the {len(item.text)} quoted characters")
    if hashlib.sha256(item.text.encode("utf-8")).hexdigest() != a.sha256:
        return _fail("the anchor's sha256 is not the digest of the quoted text")
    try:
        now = context.read(a.path)
    except CorpusError:
        return _fail(f"{a.path!r} cannot be read now")
    if now[a.start:a.end] != item.text:
        moved = now.find(item.text)
        where = f"it sits at {moved}" if moved != -1 else "the file no longer holds it"
        return _fail(f"{a.path}:{a.start}-{a.end} holds other text now; {where}")
    return _ok(f"verbatim at {a.path}:{a.start}-{a.end}")


@invariant(Invariant.QUOTE_IN_INDEX, applies_to="quote")
def quote_in_index(item: QuoteEvidence, context: CheckContext) -> Cell:
    """The quote lies inside a fragment of the index it names."""
    if context.index_digest is None:
        return _fail("no index is loaded to resolve the quote against")
    if item.index_digest != context.index_digest:
        return _fail(f"index digest {item.index_digest[:12]} is not the loaded index "
                     f"{context.index_digest[:12]}")
    a = item.anchor
    for fragment in context.fragments_by_path.get(a.path, ()):
        f = fragment.anchor
        if f.start <= a.start and a.end <= f.end:
            if fragment.text[a.start - f.start:a.end - f.start] == item.text:
                return _ok(f"inside fragment {fragment.id}")
            return _fail(f"fragment {fragment.id} holds other text at the anchor")
    return _fail(f"no fragment of the index covers {a.path}:{a.start}-{a.end}")


# --- utilities ----------------------------------------------------------------------------------

@invariant(Invariant.UTILITY_IN_CATALOG, applies_to="utility")
def utility_in_catalog(item: UtilityEvidence, context: CheckContext) -> Cell:
    """The id is in the catalog the call was made from."""
    catalog = load_catalog()
    if item.utility not in catalog.schemas:
        return _fail(f"no utility {item.utility!r} among the {len(catalog.schemas)} of the catalog")
    if item.catalog_digest != catalog.digest:
        return _fail(f"catalog digest {item.catalog_digest[:12]} is not the loaded catalog "
                     f"{catalog.digest[:12]}")
    return _ok(f"{item.utility} in catalog {catalog.digest[:12]}")


@invariant(Invariant.UTILITY_ARGS_ATTACHED, applies_to="utility")
def utility_args_attached(item: UtilityEvidence, context: CheckContext) -> Cell:
    """The arguments are attached and fit the schema."""
    schema = load_catalog().schemas.get(item.utility)
    if schema is None:
        return _fail("no schema to check the arguments against")
    _kwargs, refusal, _verdict = check_arguments(schema, item.args)
    if refusal is not None:
        return _fail(f"{refusal.code} on argument {refusal.numbers.get('argument')!r}")
    return _ok(f"{len(item.args)} argument(s) fit the schema")


@invariant(Invariant.UTILITY_SAME_RESULT, applies_to="utility")
def utility_same_result(item: UtilityEvidence, context: CheckContext) -> Cell:
    """Calling the utility again gives the same result."""
    key = canonical_json([item.utility, dict(item.args)])
    outcome = context.memo("call", key, lambda: call_utility(item.utility, dict(item.args)))
    if not outcome.ok:
        return _fail(f"re-execution refused with {outcome.refusal.code}")
    if not _results_equal(item.result, outcome.result):
        return _fail("re-execution gives another result")
    return _ok("re-execution gives the same result")


# --- specification conclusions ------------------------------------------------------------------

def _certificate_body(certificate: Mapping[str, Any]) -> dict[str, Any]:
    return {k: v for k, v in certificate.items() if k not in ("digest", "created_at")}


@invariant(Invariant.CERTIFICATE_DIGEST, applies_to="spec")
def certificate_digest(item: SpecEvidence, context: CheckContext) -> Cell:
    """The certificate is attached, and its digest seals its body."""
    if not item.certificate_digest:
        return _fail("no certificate digest")
    if not item.certificate:
        return _fail("no certificate attached")
    if item.certificate.get("digest") != item.certificate_digest:
        return _fail("the evidence names another digest than its certificate")
    if digest_of(_certificate_body(item.certificate)) != item.certificate_digest:
        return _fail("the digest does not seal the certificate's body")
    return _ok(f"certificate {item.certificate_digest[:12]} sealed")


def _recheck(context: CheckContext, certificate: dict[str, Any], path: Path) -> list[str]:
    text = path.read_text(encoding="utf-8")
    problems = recheck(certificate, text, context.library_dir or "")
    return [f"{p.params.get('field')}: {p.params.get('recomputed')}" for p in problems]


@invariant(Invariant.RECHECK_ACCEPTS, applies_to="spec")
def recheck_accepts(item: SpecEvidence, context: CheckContext) -> Cell:
    """The independent re-checker re-derives the certificate from the spec and library now."""
    path = context.spec_file(item.spec_id)
    if path is None:
        return _fail(f"no specification {item.spec_id!r} in the specification folder")
    if context.library_dir is None:
        return _fail("no morphism library is configured")
    if not item.certificate:
        return _fail("no certificate to re-check")
    body = _certificate_body(item.certificate)
    sealed = {**body, "digest": digest_of(body)}
    # The re-checker compares the digest last, as the seal of a body it has already re-derived;
    # re-checking the resealed body once and comparing the digest here gives the same verdict
    # while letting a batch reuse the expensive re-derivation.
    problems = context.memo("recheck", canonical_json([str(path), sealed]),
                            lambda: _recheck(context, sealed, path))
    if problems:
        return _fail(f"re-checker differs on {problems[0]}")
    if item.certificate.get("digest") != sealed["digest"]:
        return _fail("re-checker differs on digest")
    return _ok("re-checker agrees on every field")


def _conclude(context: CheckContext, path: Path, inputs: dict[str, str]) -> tuple[str, str] | str:
    """What :func:`workbench.fts.evaluate_spec` returns, with the gate run once per context.

    The steps are those of ``evaluate_spec``; only the gate's verdict is shared between the
    inputs of one specification, since it depends on the specification and the library alone.
    """
    verdict = context.memo("gate", str(path), lambda: check_spec(path, context.library_dir or ""))
    if not verdict.passed or verdict.gate.spec is None:
        return f"the specification is not certified now ({verdict.code})"
    spec = verdict.gate.spec
    enums = {t.name: t.members for t in spec.types}
    declared = {i.name: i.type_name for i in spec.inputs}
    if not set(inputs) <= set(declared):
        return f"the inputs are not the declared ones ({', '.join(declared)})"
    try:
        values = {n: parse_value(t, inputs[n], enums.get(t, ())) for n, t in declared.items() if n in inputs}
        value, _case = evaluate(spec, values)  # an input left out must be one that does not matter
    except EvalError as exc:
        if exc.key == "missing_value":
            return f"the conclusion depends on input(s) left out ({exc.params.get('name')})"
        return f"evaluation refused: {exc.key}"
    except (FtsError, WorkbenchError, ValueError, ArithmeticError, LookupError) as exc:
        return f"evaluation refused: {type(exc).__name__}"
    return render(spec.output.type_name, value), verdict.certificate_digest or ""


@invariant(Invariant.CONCLUSION_FOLLOWS, applies_to="spec")
def conclusion_follows(item: SpecEvidence, context: CheckContext) -> Cell:
    """Evaluating the certified specification with the inputs gives the conclusion."""
    path = context.spec_file(item.spec_id)
    if path is None:
        return _fail(f"no specification {item.spec_id!r} in the specification folder")
    inputs = {str(k): str(v) for k, v in item.inputs.items()}
    got = context.memo("conclude", canonical_json([str(path), inputs]),
                       lambda: _conclude(context, path, inputs))
    if isinstance(got, str):
        return _fail(got)
    value, digest = got
    if value != item.conclusion:
        return _fail(f"the specification concludes {value} for these inputs")
    if digest != item.certificate_digest:
        return _fail("the conclusion is carried by another certificate now")
    return _ok(f"concludes {value}")


# --- the checker --------------------------------------------------------------------------------

NOT_APPLICABLE = Cell(None)


def _row(item: str, kind: str, subject: Any, context: CheckContext,
         applicable: Sequence[str]) -> InvariantRow:
    cells: dict[str, Cell] = {}
    for name in invariant_names():
        if name not in applicable:
            cells[name] = NOT_APPLICABLE
            continue
        check: InvariantFn = lookup("invariant", name).obj
        try:
            cells[name] = check(subject, context)
        except Exception as exc:  # noqa: BLE001 - evidence that breaks a check does not resolve
            cells[name] = _fail(f"the check could not run: {type(exc).__name__}")
    return InvariantRow(item=item, kind=kind, cells=cells)


def check_evidence(item: Evidence, context: CheckContext, label: str = "evidence") -> InvariantRow:
    """Every invariant of one evidence item."""
    kind = getattr(item, "kind", "unknown")
    applicable = invariants_for(kind) if kind != "answer" else ()
    if not applicable:
        cells: dict[str, Cell] = {name: NOT_APPLICABLE for name in invariant_names()}
        cells[Invariant.EVIDENCE_PRESENT] = _fail(f"evidence of unknown kind {kind!r}")
        return InvariantRow(label, str(kind), cells)
    return _row(label, kind, item, context, applicable)


def check_answer(answer: Answer, context: CheckContext) -> InvariantReport:
    """The invariant report of ``answer``: every applicable invariant of every row.

    A mode-B answer is advisory: it claims nothing, so its report has no rows and passes.
    """
    if answer.mode is not Mode.A:
        return InvariantReport(answer.mode, ())
    rows = [_row("answer", "answer", answer, context, invariants_for("answer"))]
    rows += [check_evidence(item, context, f"evidence[{i}]") for i, item in enumerate(answer.evidence)]
    return InvariantReport(answer.mode, tuple(rows))


def refusal_from_report(report: InvariantReport, lang: str = "en") -> Refusal:
    """The refusal an answer turns into when an invariant failed; names the invariant."""
    failure = report.first_failure
    if failure is None:
        raise ValueError("the report passed; there is nothing to refuse")
    item, name, reason = failure
    if falsehood_words(reason):  # a reason never carries a banned word into a refusal's text
        reason = "(details in the report)"
    failed = sum(1 for r in report.rows for c in r.cells.values() if c.passed is False)
    items = len(report.rows) - 1
    if lang == "ru":
        area = f"проверка инвариантов ({items} элементов доказательства)"
        text = (f"Ответ в режиме A не выдан: инвариант «{name}» не выполнен для {item} "
                f"({reason}); всего невыполненных проверок: {failed}.")
    else:
        area = f"invariant checker ({items} evidence items)"
        text = (f"No mode-A answer was given: invariant “{name}” did not hold for {item} "
                f"({reason}); failed checks in all: {failed}.")
    return Refusal(code=str(AnswerCode.INVARIANT_FAILED), area=area,
                   numbers={"invariant": str(name), "item": item, "reason": reason,
                            "failed_checks": failed, "evidence_items": items}, text=text)
