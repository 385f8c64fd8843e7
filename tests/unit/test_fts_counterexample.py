"""The limit of the formal layer: the export-VAT counterexample."""

from __future__ import annotations

from pathlib import Path

from workbench.fts import export_vat_counterexample, load_library, recheck

ROOT = Path(__file__).resolve().parents[2]
LIB = ROOT / "corpus" / "morphisms"
SPECS = ROOT / "corpus" / "specs"


def test_counterexample_stops_at_premise_and_passes_when_flipped():
    before = {p.name: p.read_bytes() for p in LIB.iterdir()}
    report = export_vat_counterexample(SPECS, LIB)
    assert report.shipped.code == "E_PREMISE" and not report.shipped.passed
    assert report.shipped.gate.problem.params["entry"] == "vat.export.standard_rate"
    assert report.flipped.passed and report.flipped.code is None
    assert report.flipped.fallacies == ()
    assert report.flipped.certificate_digest and len(report.flipped.certificate_digest) == 64
    assert report.conclusion == "22 %"
    assert report.demonstrates_limit
    assert {p.name: p.read_bytes() for p in LIB.iterdir()} == before
    assert load_library(LIB).entries["vat.export.standard_rate"].status == "rejected"


def test_flipped_certificate_does_not_recheck_against_the_shipped_library():
    report = export_vat_counterexample(SPECS, LIB)
    text = (SPECS / "export_vat_counterexample.fts").read_text(encoding="utf-8")
    problems = recheck(report.flipped.certificate.to_dict(), text, LIB)
    assert problems and problems[0].code == "E_RECHECK"


def test_counterexample_refusal_does_not_call_the_thesis_untrue():
    from workbench.refusal import falsehood_words

    for lang in ("en", "ru"):
        report = export_vat_counterexample(SPECS, LIB, lang=lang)
        assert falsehood_words(report.shipped.refusal.text) == []


def test_counterexample_uses_default_settings_paths():
    report = export_vat_counterexample()
    assert report.demonstrates_limit
