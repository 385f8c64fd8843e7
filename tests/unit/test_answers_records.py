"""Answer and evidence records, the router decision and the scripted router."""

from __future__ import annotations

import json

import pytest

from workbench import registry
from workbench.answers import (
    Answer,
    EvidenceFormatError,
    Mode,
    QuoteEvidence,
    SpecEvidence,
    UtilityEvidence,
    evidence_from_dict,
    render_evidence,
)
from workbench.corpus import Anchor
from workbench.routing import Router, RouterDecision, RouterDecisionError, ScriptedRouter, Source

QUOTE = QuoteEvidence(Anchor("en/a.md", 3, 8, "0" * 64), "hello", "d" * 64)
UTILITY = UtilityEvidence("hash.md5", {"text": "abc"}, "900150983cd24fb0d6963f7d28e17f72", "c" * 64)
SPEC = SpecEvidence("vat.vat_amount", "22000.00 rub", "e" * 64, {"tax_base": "100000.00 rub"},
                    {"digest": "e" * 64})


@pytest.mark.parametrize("item", [QUOTE, UTILITY, SPEC], ids=["quote", "utility", "spec"])
def test_evidence_round_trips_through_json(item) -> None:
    again = evidence_from_dict(json.loads(json.dumps(item.to_dict())))
    assert again == item


def test_answer_round_trips_and_text_is_the_rendering() -> None:
    answer = Answer(Mode.A, render_evidence([QUOTE, UTILITY, SPEC]), (QUOTE, UTILITY, SPEC))
    assert Answer.from_dict(json.loads(answer.to_json())) == answer
    assert answer.text.splitlines()[0].startswith("«hello» (en/a.md:3-8)")
    assert "vat.vat_amount: 22000.00 rub" in answer.text


@pytest.mark.parametrize("bad", [{"kind": "rumour"}, {"kind": "quote"}, {"kind": "utility"}, []])
def test_unreadable_evidence_is_a_typed_error(bad) -> None:
    with pytest.raises(EvidenceFormatError):
        evidence_from_dict(bad)


def test_answer_without_a_mode_is_a_typed_error() -> None:
    with pytest.raises(EvidenceFormatError, match="A, B"):
        Answer.from_dict({"text": "x"})


def test_decision_checks_its_source() -> None:
    with pytest.raises(RouterDecisionError, match="utility, quote, spec, refuse"):
        RouterDecision(source="oracle")
    with pytest.raises(RouterDecisionError):
        RouterDecision(source="utility")
    with pytest.raises(RouterDecisionError):
        RouterDecision(source="spec")
    decision = RouterDecision(source="utility", utility="hash.md5", args={"text": "a"})
    assert decision.source is Source.UTILITY
    assert RouterDecision.from_dict(json.loads(json.dumps(decision.to_dict()))) == decision


def test_scripted_router_replays_and_refuses_the_unscripted() -> None:
    router = registry.build("router", "scripted",
                            decisions={"q": {"source": "quote"}})
    assert isinstance(router, ScriptedRouter) and isinstance(router, Router)
    assert router.route("q").source is Source.QUOTE
    other = router.route("something else")
    assert other.source is Source.REFUSE and other.refusal.code == "NOT_SCRIPTED"
    assert registry.registry_info(router).name == "scripted"
