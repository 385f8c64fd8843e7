"""The evidence widgets: the invariant checker over one answer, and the certificate view."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from evidence_helpers import (
    answer_of,
    quote_evidence,
    spec_evidence,
    utility_evidence,
)

from workbench.answers import (
    Answer,
    Mode,
    QuoteEvidence,
    check_answer,
)
from workbench.corpus import Anchor
from workbench.fts import digest_of
from workbench.widgets import (
    CertificateView,
    InvariantChecker,
    WidgetError,
    certificate_state,
    invariant_state,
)

# --- invariant checker ------------------------------------------------------------------------

def test_every_item_against_every_invariant_with_details(context, certificate) -> None:
    answer = answer_of(quote_evidence(context), utility_evidence(), spec_evidence(certificate))
    widget = InvariantChecker(answer, context)
    state = widget.state
    assert state["passed"] is True and state["refusal"] is None
    assert [r["item"] for r in state["rows"]] == ["answer", "evidence[0]", "evidence[1]",
                                                  "evidence[2]"]
    report = check_answer(answer, context)
    for row, expected in zip(state["rows"], report.rows, strict=True):
        assert set(row["cells"]) == {str(k) for k, c in expected.cells.items() if c.passed is not None}
        assert all(c["passed"] for c in row["cells"].values())
    quote, utility, spec = (i["detail"] for i in state["items"])
    # the quote's file around its anchor, the anchor itself highlighted
    assert quote["context"]["anchor"] == answer.evidence[0].text and quote["at_anchor"] is True
    assert quote["context"]["before"] and quote["context"]["from"] >= 0
    # the utility executed again
    assert utility["recorded"] == utility["reexecuted"] == "900150983cd24fb0d6963f7d28e17f72"
    assert utility["args"] == {"text": "abc"} and utility["same"] is True
    # the certificate's checks and digest
    assert spec["checks"] == certificate["checks"] and spec["digest"] == certificate["digest"]
    assert spec["sealed"] is True
    json.dumps(state, allow_nan=False)


def test_a_failed_invariant_names_its_reason_and_opens_the_item(context, certificate) -> None:
    answer = answer_of(quote_evidence(context), utility_evidence(result="0" * 32))
    widget = InvariantChecker(answer, context)
    assert widget.state["passed"] is False
    failure = widget.state["first_failure"]
    assert failure["item"] == "evidence[1]" and failure["invariant"] == "utility_same_result"
    assert widget.selected == 1  # the first failing item is open
    cell = widget.state["rows"][2]["cells"]["utility_same_result"]
    assert cell == {"passed": False, "reason": "re-execution gives another result"}
    assert widget.state["items"][1]["detail"]["same"] is False
    assert "utility_same_result" in widget.state["refusal"]
    widget.show_item(0)  # a click on the quote's row
    assert widget.selected == 0
    with pytest.raises(WidgetError, match="no evidence item 5"):
        widget.show_item(5)


def test_recheck_sees_the_file_as_it_is_now(context, small_corpus: Path) -> None:
    widget = InvariantChecker(answer_of(quote_evidence(context)), context)
    assert widget.state["passed"] is True
    path = small_corpus / "en" / "base64.md"
    path.write_text("Edited first.\n" + path.read_text(encoding="utf-8"), encoding="utf-8")
    widget.recheck += 1  # the "re-check now" button
    assert widget.state["passed"] is False
    assert widget.state["first_failure"]["invariant"] == "quote_at_anchor"
    assert widget.state["items"][0]["detail"]["at_anchor"] is False


def test_a_quote_outside_the_corpus_is_never_read(context, tmp_path: Path) -> None:
    secret = tmp_path / "secret.md"
    secret.write_text("do not show", encoding="utf-8")
    evidence = QuoteEvidence(Anchor("../secret.md", 0, 4, "x"), "do n", context.index_digest)
    state = invariant_state(answer_of(evidence), context)
    detail = state["items"][0]["detail"]
    assert "cannot be opened" in detail["error"] and "context" not in detail
    assert "do not show" not in json.dumps(state)


def test_an_anchor_past_the_end_is_reported(context) -> None:
    evidence = QuoteEvidence(Anchor("en/base64.md", 10 ** 6, 10 ** 6 + 3, "x"), "abc",
                             context.index_digest)
    detail = invariant_state(answer_of(evidence), context, window=20)["items"][0]["detail"]
    assert "outside the file" in detail["error"]
    assert len(detail["context"]["before"]) == 20 and detail["context"]["anchor"] == ""


def test_mode_b_answers_claim_nothing(context) -> None:
    state = InvariantChecker(Answer(Mode.B, "free text", transition_note="BELOW_THRESHOLD"),
                             context).state
    assert state["mode"] == "B" and state["rows"] == [] and state["passed"] is True
    with pytest.raises(WidgetError, match="expected a workbench.answers.Answer"):
        InvariantChecker("text", context)


def test_a_pipeline_result_or_a_stored_answer_is_accepted(context) -> None:
    from workbench.answers import AnswerResult, AnswerTrace
    from workbench.refusal import Refusal
    from workbench.routing import RouterDecision

    answer = answer_of(utility_evidence())
    decision = RouterDecision.from_dict({"source": "utility", "utility": "hash.md5",
                                         "args": {"text": "abc"}})
    trace = AnswerTrace("md5 of abc", decision, ("route",))
    expected = invariant_state(answer, context)
    assert InvariantChecker(AnswerResult("md5 of abc", answer, None, trace), context).state == expected
    assert invariant_state(answer.to_dict(), context) == expected  # as a run record stores it
    refused = AnswerResult("q", None, Refusal("MISSING_ARGUMENT", "catalog", {}, "text"), trace)
    with pytest.raises(WidgetError, match=r"refused this question \(MISSING_ARGUMENT\)"):
        InvariantChecker(refused, context)


# --- certificate view -------------------------------------------------------------------------

def _reseal(cert: dict, **changes) -> dict:
    body = {k: v for k, v in cert.items() if k not in ("digest", "created_at")}
    body.update(changes)
    return {**body, "digest": digest_of(body)}


def test_certificate_checks_digest_and_recheck(certificate, tmp_path: Path) -> None:
    path = tmp_path / "cert.json"
    path.write_text(json.dumps(certificate), encoding="utf-8")
    view = CertificateView(path)  # the path of its JSON
    state = view.state
    assert state["spec_id"] == "vat.vat_amount" and state["digest"] == certificate["digest"]
    assert state["sealed"] is True and state["recheck"]["accepted"] is True
    assert [c["code"] for c in state["checks"]] == certificate["checks"]
    assert all(c["recorded"] for c in state["checks"])
    assert [e["actual"] for e in state["examples"]] == [e["actual"] for e in certificate["examples"]]
    assert {i["name"] for i in state["declared_inputs"]} == {"tax_base", "reduced_goods"}
    assert state["conclusion"] is None


def test_a_spoiled_certificate_is_refused_by_the_rechecker(certificate) -> None:
    spoiled = _reseal(certificate, spec_version=7)
    state = certificate_state(spoiled)
    assert state["sealed"] is True  # resealed: the digest holds
    assert state["recheck"]["accepted"] is False and state["recheck"]["field"] == "spec_version"
    broken = {**certificate, "spec_version": 2}
    assert certificate_state(broken)["sealed"] is False


def test_evaluating_inputs_gives_the_certified_conclusion(certificate) -> None:
    view = CertificateView(certificate)
    example = certificate["examples"][0]
    view.inputs = dict(example["inputs"])  # the evaluate button
    conclusion = view.state["conclusion"]
    assert conclusion["value"] == example["actual"]
    assert conclusion["same_certificate"] is True
    view.inputs = {"tax_base": "100.00 rub"}
    assert "missing input" in view.state["conclusion"]["error"]
    view.recheck += 1
    assert view.state["recheck"]["accepted"] is True


def test_a_malformed_certificate_is_refused(tmp_path: Path) -> None:
    with pytest.raises(WidgetError, match="not a certificate record"):
        CertificateView({"spec_id": "x"})
    bad = tmp_path / "bad.json"
    bad.write_text("{", encoding="utf-8")
    with pytest.raises(WidgetError, match="cannot read a certificate"):
        CertificateView(bad)
