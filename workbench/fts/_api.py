"""The public entry points of FTS.

Check a specification or a folder, verify the library, evaluate a certified specification, and
run the export-VAT counterexample that shows where the formal layer ends.
"""

from __future__ import annotations

import tempfile
from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from workbench.fts._certificate import Certificate
from workbench.fts._eval import EvalError, evaluate
from workbench.fts._fallacies import detect_fallacies
from workbench.fts._gate import GateResult, run_gate
from workbench.fts._library import copy_with_status, load_library, verify
from workbench.fts._problems import FtsError, Problem
from workbench.fts._refusal import make_refusal
from workbench.fts._values import parse_value, render
from workbench.refusal import Refusal

COUNTEREXAMPLE_SPEC = "export_vat_counterexample.fts"
"""The file name of the counterexample in the specs folder."""
COUNTEREXAMPLE_ENTRY = "vat.export.standard_rate"
"""The rejected entry the counterexample rests on."""


@dataclass(frozen=True)
class SpecVerdict:
    """The verdict on one specification: the gate, then the fallacy detector."""

    spec_id: str
    """The specification's id (empty when it did not parse)."""
    path: str
    """The file it was read from (empty for text)."""
    passed: bool
    """Gate passed and no fallacy found: the conclusion may be used, with the certificate."""
    code: str | None
    """The gate code that stopped it, else the first fallacy code, else ``None``."""
    certificate_digest: str | None
    """The certificate's digest when the gate passed."""
    fallacies: tuple[str, ...]
    """Every fallacy code found (also for a specification the gate stopped, if it parsed)."""
    refusal: Refusal | None
    """The refusal in the requested language when not passed."""
    gate: GateResult
    """The full gate result (certificate, problems, parsed spec)."""

    @property
    def certificate(self) -> Certificate | None:
        """The certificate (when the gate passed)."""
        return self.gate.certificate if self.gate.passed else None

    def to_dict(self) -> dict[str, Any]:
        """A JSON-ready summary."""
        return {
            "spec_id": self.spec_id, "path": self.path, "passed": self.passed, "code": self.code,
            "certificate_digest": self.certificate_digest, "fallacies": list(self.fallacies),
            "refusal": self.refusal.to_dict() if self.refusal else None,
        }


def check_text(text: str, library_dir: str | Path, *, lang: str = "en",
               path: str = "") -> SpecVerdict:
    """Gate and fallacy detector over specification ``text``."""
    gate = run_gate(text, library_dir)
    fallacies: list[Problem] = []
    if gate.spec is not None:
        try:
            library = gate.library or load_library(library_dir)
        except FtsError:
            library = None
        fallacies = detect_fallacies(gate.spec, library)
    refusal = gate.refusal(lang)
    code: str | None = str(gate.code) if gate.code is not None else None
    if gate.passed and fallacies:
        code = str(fallacies[0].code)
        refusal = make_refusal(fallacies[0], gate.spec_id, gate.library, lang=lang,
                               total=len(fallacies), root=str(library_dir))
    return SpecVerdict(
        spec_id=gate.spec_id, path=path, passed=gate.passed and not fallacies, code=code,
        certificate_digest=gate.certificate.digest if gate.passed and gate.certificate else None,
        fallacies=tuple(str(f.code) for f in fallacies), refusal=refusal, gate=gate)


def check_spec(path: str | Path, library_dir: str | Path, *, lang: str = "en") -> SpecVerdict:
    """Gate and fallacy detector over the specification file at ``path``."""
    file = Path(path)
    try:
        text = file.read_text(encoding="utf-8")
    except (OSError, UnicodeDecodeError) as exc:
        raise FtsError(f"cannot read specification {file}: {exc}") from exc
    return check_text(text, library_dir, lang=lang, path=str(file))


def check_all_specs(specs_dir: str | Path, library_dir: str | Path, *,
                    lang: str = "en") -> list[SpecVerdict]:
    """Every ``*.fts`` in ``specs_dir``, in name order."""
    folder = Path(specs_dir)
    if not folder.is_dir():
        raise FtsError(f"specification folder {folder} does not exist")
    return [check_spec(p, library_dir, lang=lang) for p in sorted(folder.glob("*.fts"))]


@dataclass(frozen=True)
class LibraryReport:
    """The library's status counts, digest and integrity."""

    root: str
    """The folder."""
    entries: int
    """Number of entries."""
    counts: Mapping[str, int]
    """Status -> number of entries."""
    digest: str
    """The library digest computed now."""
    intact: bool
    """Whether the integrity check found nothing."""
    problems: tuple[Problem, ...]
    """What the integrity check found."""

    def summary(self) -> str:
        """``29 entries: 18 verified, 3 derived, 3 proposed, 5 rejected; library digest …``."""
        parts = ", ".join(f"{n} {status}" for status, n in self.counts.items())
        return f"{self.entries} entries: {parts}; library digest {self.digest}"


def verify_library(library_dir: str | Path) -> LibraryReport:
    """Load and integrity-check the library at ``library_dir``."""
    library = load_library(library_dir)
    problems = verify(library)
    return LibraryReport(str(library_dir), len(library.entries), library.counts(), library.digest,
                         not problems, tuple(problems))


@dataclass(frozen=True)
class Conclusion:
    """The conclusion of a certified specification for given inputs."""

    spec_id: str
    """The specification."""
    output: str
    """The output's name."""
    value: str
    """The canonical value."""
    case: int
    """The case that gave it."""
    premises: tuple[str, ...]
    """The library ids that case rests on."""
    certificate_digest: str
    """The certificate that carries it."""


def evaluate_spec(path: str | Path, inputs: Mapping[str, str],
                  library_dir: str | Path) -> Conclusion | SpecVerdict:
    """The conclusion for ``inputs`` (text values), or the verdict that refuses the spec."""
    verdict = check_spec(path, library_dir)
    if not verdict.passed:
        return verdict
    return conclude(verdict, inputs)


def conclude(verdict: SpecVerdict, inputs: Mapping[str, str]) -> Conclusion:
    """The conclusion of a specification that passed the gate, for ``inputs`` (text values).

    An input may be left out where the conclusion does not depend on it (``open_inputs``).
    The gate is not run again: a caller that already holds the passing verdict (the answer
    pipeline, which also needs its certificate) evaluates it here.

    Raises:
        FtsError: The verdict did not pass, or an input is unknown, missing or out of its type.
    """
    spec = verdict.gate.spec
    if not verdict.passed or spec is None:
        raise FtsError(f"specification refused ({verdict.code}); there is nothing to conclude")
    enums = {t.name: t.members for t in spec.types}
    declared = {i.name: i.type_name for i in spec.inputs}
    unknown = sorted(set(inputs) - set(declared))
    if unknown:
        raise FtsError(f"unknown input(s) {', '.join(unknown)}; inputs: {', '.join(declared)}")
    values = {n: parse_value(t, inputs[n], enums.get(t, ())) for n, t in declared.items() if n in inputs}
    try:
        value, case = evaluate(spec, values)
    except EvalError as exc:
        if exc.key != "missing_value":
            raise
        raise FtsError(f"missing input(s) {exc.params['name']}") from None
    aliases = {p.alias: p.ref for p in spec.premises}
    cited = spec.output.cases[case - 1].because
    return Conclusion(spec.id, spec.output.name, render(spec.output.type_name, value), case,
                      tuple(aliases[a] for a in cited), verdict.certificate_digest or "")


@dataclass(frozen=True)
class CounterexampleReport:
    """Both verdicts of the export-VAT counterexample."""

    shipped: SpecVerdict
    """Against the library as shipped: stops at ``E_PREMISE`` (the premise was rejected)."""
    flipped: SpecVerdict
    """Against a scratch copy with that one entry marked verified: passes, with a certificate."""
    entry: str
    """The flipped entry."""
    conclusion: str
    """What the flipped run concludes for an export supply (the standard rate)."""

    @property
    def demonstrates_limit(self) -> bool:
        """Shipped stops at E_PREMISE; flipped passes every check and finds no fallacy."""
        return (self.shipped.code == "E_PREMISE" and self.flipped.passed
                and not self.flipped.fallacies and self.flipped.certificate_digest is not None)


def export_vat_counterexample(specs_dir: str | Path | None = None,
                              library_dir: str | Path | None = None, *,
                              lang: str = "en") -> CounterexampleReport:
    """Run the export-VAT counterexample against the library and against a flipped scratch copy.

    The specification taxes an export supply at the standard rate. With the shipped library it
    stops at ``E_PREMISE``: a reviewer rejected its premise. In a temporary copy where that one
    entry is marked verified, the same text passes every check, gets a certificate, and the
    fallacy detector finds nothing: the formal layer guarantees the conclusion only as far as
    the premises hold, and the review of the premise is where the subject matter is decided.
    """
    if specs_dir is None or library_dir is None:
        from workbench.config import load_settings

        paths = load_settings().paths
        specs_dir = specs_dir or paths.specs
        library_dir = library_dir or paths.morphisms
    spec_path = Path(specs_dir) / COUNTEREXAMPLE_SPEC
    shipped = check_spec(spec_path, library_dir, lang=lang)
    with tempfile.TemporaryDirectory(prefix="fts-scratch-") as tmp:
        scratch = Path(tmp) / "morphisms"
        copy_with_status(library_dir, scratch, COUNTEREXAMPLE_ENTRY, "verified",
                         reviewer="scratch copy for the demonstration")
        flipped = check_spec(spec_path, scratch, lang=lang)
        outcome = evaluate_spec(spec_path, {"supply_kind": "export"}, scratch)
    conclusion = outcome.value if isinstance(outcome, Conclusion) else "(refused)"
    return CounterexampleReport(shipped, flipped, COUNTEREXAMPLE_ENTRY, conclusion)


__all__ = [
    "COUNTEREXAMPLE_ENTRY",
    "COUNTEREXAMPLE_SPEC",
    "Conclusion",
    "CounterexampleReport",
    "LibraryReport",
    "SpecVerdict",
    "check_all_specs",
    "check_spec",
    "check_text",
    "evaluate_spec",
    "export_vat_counterexample",
    "verify_library",
]
