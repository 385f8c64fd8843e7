"""Every widget's own front-end code, rendered once in headless Chromium from ``export_html``.

The page has no kernel and no network: each test checks what the DOM shows, that nothing was
logged as an error and nothing was fetched, and leaves a screenshot in ``tmp_path``.
"""

from __future__ import annotations

import hashlib
import json
from pathlib import Path

import pandas as pd
import pytest

from workbench.answers import Answer, CheckContext, Mode, QuoteEvidence, UtilityEvidence, render_evidence
from workbench.config import load_settings
from workbench.corpus import Anchor, Corpus
from workbench.fts import check_spec
from workbench.gates import default_order
from workbench.index import audit_drift
from workbench.routing import RouterDecision, RuleRouter, ScriptedRouter, TaskItem
from workbench.studies import compare_routers
from workbench.utilities import load_catalog
from workbench.widgets import (
    CertificateView,
    DriftView,
    GateOrderExplorer,
    InvariantChecker,
    RiskOperatingPoint,
    RouterComparisonPanel,
    RuleAblationPanel,
)

# a browser start and seven page loads: about ten seconds together
pytestmark = pytest.mark.slow

SETTINGS = load_settings()


def _gate_run() -> pd.DataFrame:
    records = []
    flags = [("in_corpus", ("gate0", "threshold"), ()), ("in_corpus", (), ()),
             ("out_of_corpus", ("threshold",), ()), ("out_of_corpus", (), ("lang-match",)),
             ("relevance_traps", ("relevance",), ("entities",))]
    for i, (set_name, fires, rules) in enumerate(flags):
        row = {"id": f"q{i}", "set": set_name, "lang": "ru", "split": "dev",
               "question": f"Вопрос номер {i}", "top_path": "a.md", "n_hits": 10,
               "top_score": 0.9, "top_is_gold": True}
        row.update({f"wf_{g}": g in fires for g in default_order()})
        row.update({f"rule_{r}": r in rules for r in ("entities", "lang-match", "term-coverage")})
        records.append(row)
    return pd.DataFrame(records)


def test_gate_order_explorer(open_export, tmp_path: Path) -> None:
    shown = open_export(GateOrderExplorer((_gate_run(), True)), "gates")
    page = shown.page
    assert page.locator('tr.wb-gate[data-key="gate0"]').count() == 1
    assert "GATE0_NO_LEXICAL_SUPPORT" in page.locator('tr[data-key="gate0"]').inner_text()
    total = page.locator('tr[data-key="all"]').inner_text().split()
    assert total[:3] == ["all", "5", "1"]  # 5 questions, gate0 stops one first
    assert page.locator("svg.wb-bars rect[data-gate]").count() >= 3
    assert page.locator('button[data-action="up"]').first.is_disabled()  # a static snapshot
    page.screenshot(path=tmp_path / "gates.png", full_page=True)
    shown.assert_clean()


def test_rule_ablation_panel(open_export, tmp_path: Path) -> None:
    run = _gate_run()
    shown = open_export(RuleAblationPanel(run, rules=["entities", "lang-match"]), "rules")
    page = shown.page
    current = page.locator("tr.wb-current")
    assert current.count() == 1 and current.get_attribute("data-key") == "entities+lang-match"
    assert page.locator('tr[data-key="q3"]').inner_text().endswith("answered → relevance")
    assert page.locator('[data-rule="circumstance"] input').is_disabled()
    assert "eliminates 2 false answers" in page.locator(".wb-summary").inner_text()
    page.screenshot(path=tmp_path / "rules.png", full_page=True)
    shown.assert_clean()


def test_router_comparison_panel(open_export, tmp_path: Path) -> None:
    sha = {"source": "utility", "utility": "hash.sha256", "args": {"text": "привет"}}
    items = [TaskItem("t-1", "Посчитай SHA-256 от строки «привет»", "ru", "dev", "utility", sha),
             TaskItem("t-2", "Посчитай sha256 моего пароля", "ru", "test", "red_team",
                      {"source": "refuse", "refusal": "MISSING_ARGUMENT",
                       "utility": "hash.sha256", "missing": "text"})]
    scripted = ScriptedRouter({items[0].question: RouterDecision.from_dict(sha),
                               items[1].question: RouterDecision.from_dict(
                                   dict(sha, args={"text": "пароль"}))})
    comparison = compare_routers({"rule": RuleRouter(), "scripted": scripted}, items)
    shown = open_export(RouterComparisonPanel(comparison), "routers")
    page = shown.page
    assert page.locator('tr[data-key="rule"]').count() >= 1
    assert "b = 1" in page.locator(".wb-mcnemar").inner_text()
    assert page.locator('tr[data-key="t-2"] td.wb-fail').count() == 1
    page.screenshot(path=tmp_path / "routers.png", full_page=True)
    shown.assert_clean()


def test_drift_view(open_export, small_index, small_corpus: Path, tmp_path: Path) -> None:
    path = small_corpus / "en" / "base64.md"
    path.write_text("A new first line.\n\n" + path.read_text(encoding="utf-8"), encoding="utf-8")
    shown = open_export(DriftView(audit_drift(small_index, small_corpus)), "drift")
    page = shown.page
    assert "drifted" in page.locator('[data-status="drifted"]').locator("xpath=..").inner_text()
    assert page.locator("td.wb-fail", has_text="drifted").count() >= 1
    assert page.locator('tr[data-key="en/base64.md"]').count() == 1
    page.screenshot(path=tmp_path / "drift.png", full_page=True)
    shown.assert_clean()


@pytest.fixture(scope="module")
def certificate() -> dict:
    verdict = check_spec(Path(SETTINGS.paths.specs) / "vat_amount.fts", SETTINGS.paths.morphisms)
    return verdict.certificate.to_dict()


def test_certificate_view(open_export, certificate, tmp_path: Path) -> None:
    example = certificate["examples"][0]
    shown = open_export(CertificateView(certificate, inputs=dict(example["inputs"])), "certificate")
    page = shown.page
    assert page.get_by_text("re-checker accepts").count() == 1
    assert page.get_by_text(certificate["digest"]).count() == 1
    assert example["actual"] in page.locator(".wb-conclusion").inner_text()
    page.screenshot(path=tmp_path / "certificate.png", full_page=True)
    shown.assert_clean()


def test_invariant_checker_highlights_the_anchor_and_opens_items(open_export, small_corpus: Path,
                                                                 tmp_path: Path) -> None:
    corpus = Corpus(small_corpus)
    fragments = CheckContext.fragments_of(corpus)
    context = CheckContext(corpus=corpus, fragments=fragments,
                           index_digest=CheckContext.fragments_digest(fragments))
    fragment = fragments[-1]
    text = fragment.text[10:60]
    start = fragment.anchor.start + 10
    quote = QuoteEvidence(Anchor(fragment.anchor.path, start, start + len(text),
                                 hashlib.sha256(text.encode()).hexdigest()), text,
                          context.index_digest)
    wrong = UtilityEvidence("hash.md5", {"text": "abc"}, "0" * 32, load_catalog().digest)
    evidence = (quote, wrong)
    widget = InvariantChecker(Answer(Mode.A, render_evidence(evidence), evidence), context)
    widget.show_item(0)
    shown = open_export(widget, "invariants")
    page = shown.page
    assert page.locator("mark.wb-anchor").inner_text() == text
    assert page.locator('tr[data-key="evidence[0]"] td.wb-pass').count() == 3
    failed = page.locator('tr[data-key="evidence[1]"] td.wb-fail')
    assert failed.count() == 1 and "another result" in failed.inner_text()
    page.locator('tr[data-key="evidence[1]"]').click()  # opening an item needs no kernel
    detail = page.locator(".wb-detail")
    assert detail.get_attribute("data-kind") == "utility"
    assert "900150983cd24fb0d6963f7d28e17f72" in detail.inner_text()  # the re-executed result
    page.screenshot(path=tmp_path / "invariants.png", full_page=True)
    shown.assert_clean()


def _risk_run() -> pd.DataFrame:
    """Four answers in the pool (scores .9 right, .8 wrong, .7 right, .6 wrong); the run's
    threshold gate answered at 0.75, so it answered the first two."""
    records = []
    for i, (set_name, score, gold) in enumerate([("in_corpus", 0.9, True),
                                                 ("out_of_corpus", 0.8, False),
                                                 ("in_corpus", 0.7, True),
                                                 ("in_corpus", 0.6, False)]):
        below = score < 0.75
        verdicts = [{"gate": "threshold", "passed": not below,
                     "code": "BELOW_THRESHOLD" if below else None,
                     "numbers": {"best_score": score, "threshold": 0.75},
                     "detail": f"best {score:.3f} vs threshold 0.750"}]
        row = {"id": f"q{i}", "set": set_name, "lang": "ru", "split": "dev",
               "question": f"Вопрос номер {i}", "top_path": "a.md", "quote": f"Цитата {i}",
               "n_hits": 10, "top_score": score, "top_is_gold": gold, "gold_rank": 1 if gold else 3,
               "code": "BELOW_THRESHOLD" if below else None, "verdicts": json.dumps(verdicts)}
        row.update({f"wf_{g}": g == "threshold" and below for g in default_order()})
        records.append(row)
    return pd.DataFrame(records)


def test_risk_operating_point(open_export, tmp_path: Path) -> None:
    widget = RiskOperatingPoint(_risk_run(), threshold=0.6, selected="q3")
    shown = open_export(widget, "risk")
    page = shown.page
    assert page.locator('svg.wb-risk-chart [data-point="run"]').count() == 1
    assert page.locator('svg.wb-risk-chart [data-point="chosen"]').count() == 1
    assert "4 answers, 2 wrong: risk 50.0%" in page.locator(".wb-summary").inner_text()
    assert page.locator('tr[data-key="q2"]').inner_text().split("\t")[-2:] == ["answered", "right"]
    assert page.locator('tr[data-key="q3"] td.wb-fail').count() == 1
    trace = page.locator('[data-trace="q3"]')  # the trace computed before the export
    assert "BELOW_THRESHOLD" in trace.locator('[data-side="baseline"]').inner_text()
    assert "the chosen point" in trace.locator('[data-side="variant"]').inner_text()
    assert page.locator('input[data-action="slide"]').is_disabled()  # a static snapshot
    page.locator('tr[data-key="q2"]').click()  # another row's trace needs the kernel
    assert "open the widget in a notebook" in page.locator(".wb-root").inner_text()
    page.screenshot(path=tmp_path / "risk.png", full_page=True)
    shown.assert_clean()
