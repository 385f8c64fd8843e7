"""FTS: executable specifications over reviewed morphisms, a gate and a fallacy detector.

A specification names its premises from the morphism library, declares typed inputs and one
output, defines the conclusion by cases, and carries examples and properties. The gate applies
eight checks in order (:class:`GateCode`) and certifies what passes; the fallacy detector applies
eight algorithms (:class:`FallacyCode`). Every refusal returns the thesis to "not shown". The
export-VAT counterexample (:func:`export_vat_counterexample`) shows the limit: a premise that a
person rejected is the only thing that stops a well-formed but wrong specification.
"""

from workbench.fts._api import (
    COUNTEREXAMPLE_ENTRY,
    COUNTEREXAMPLE_SPEC,
    Conclusion,
    CounterexampleReport,
    LibraryReport,
    SpecVerdict,
    check_all_specs,
    check_spec,
    check_text,
    conclude,
    evaluate_spec,
    export_vat_counterexample,
    verify_library,
)
from workbench.fts._ast import Spec
from workbench.fts._canonical import canonical_json, digest_of, sha256_hex
from workbench.fts._certificate import (
    CERTIFIED_CHECKS,
    Certificate,
    ExampleResult,
    PremiseRef,
    PropertyResult,
)
from workbench.fts._codes import GATE_ORDER, GateCode
from workbench.fts._eval import Domain, EvalError, domain, evaluate, open_inputs
from workbench.fts._fallacies import DETECTORS, detect_fallacies
from workbench.fts._fallacy_codes import FALLACY_ORDER, FallacyCode
from workbench.fts._gate import STEPS, GateResult, run_gate
from workbench.fts._library import (
    PREMISE_STATUSES,
    Entry,
    Library,
    Signature,
    Status,
    compose,
    copy_with_status,
    load_library,
    seal,
    verify,
)
from workbench.fts._messages import MESSAGES, Message, render_message
from workbench.fts._parser import LANGUAGE, grammar_text, parse
from workbench.fts._problems import CertificateError, FtsError, LibraryError, Problem
from workbench.fts._recheck import recheck
from workbench.fts._refusal import TITLES, make_refusal
from workbench.fts._static import check_static
from workbench.fts._values import parse_value, render

__all__ = [
    "CERTIFIED_CHECKS",
    "COUNTEREXAMPLE_ENTRY",
    "COUNTEREXAMPLE_SPEC",
    "DETECTORS",
    "FALLACY_ORDER",
    "GATE_ORDER",
    "LANGUAGE",
    "MESSAGES",
    "PREMISE_STATUSES",
    "STEPS",
    "TITLES",
    "Certificate",
    "CertificateError",
    "Conclusion",
    "CounterexampleReport",
    "Domain",
    "Entry",
    "ExampleResult",
    "FallacyCode",
    "FtsError",
    "GateCode",
    "GateResult",
    "Library",
    "LibraryError",
    "LibraryReport",
    "Message",
    "PremiseRef",
    "Problem",
    "PropertyResult",
    "Signature",
    "Spec",
    "SpecVerdict",
    "Status",
    "canonical_json",
    "check_all_specs",
    "check_spec",
    "check_static",
    "check_text",
    "compose",
    "copy_with_status",
    "detect_fallacies",
    "digest_of",
    "domain",
    "EvalError",
    "evaluate",
    "open_inputs",
    "parse_value",
    "render",
    "conclude",
    "evaluate_spec",
    "export_vat_counterexample",
    "grammar_text",
    "load_library",
    "make_refusal",
    "parse",
    "recheck",
    "render_message",
    "run_gate",
    "seal",
    "sha256_hex",
    "verify",
    "verify_library",
]
