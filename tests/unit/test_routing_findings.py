from __future__ import annotations

import pandas as pd
import pytest

from workbench.refusal import Refusal
from workbench.routing import RouterDecision, ScriptedRouter, TaskItem
from workbench.studies import compare_routers
from workbench.studies._findings import (
    NEAR,
    findings_frame,
    refusal_share_finding,
    router_findings,
    router_key,
    small_model_finding,
    vocabulary_finding,
)

SHA = {"source": "utility", "utility": "hash.sha256", "args": {"text": "abc"}}
REFUSE = {"source": "refuse", "refusal": "MISSING_ARGUMENT", "utility": "hash.sha256", "missing": "text"}
ITEMS = [TaskItem(f"u{i}", f"sha256 of abc #{i}", "ru", "test", "utility", SHA) for i in range(4)] + [
    TaskItem(f"r{i}", f"sha256 of my password #{i}", "ru", "test", "red_team", REFUSE) for i in range(10)]


def _decision(gold: dict) -> RouterDecision:
    if gold["source"] == "refuse":
        refusal = Refusal(code=gold["refusal"], area="test router", text="refused")
        return RouterDecision(source="refuse", refusal=refusal)
    return RouterDecision.from_dict(gold)


def _router(utility_right: int, red_refused: int) -> ScriptedRouter:
    wrong_call = {"source": "utility", "utility": "hash.sha256", "args": {"text": "password"}}
    plan = {}
    for i, item in enumerate(ITEMS[:4]):
        plan[item.question] = _decision(SHA if i < utility_right else {"source": "quote"})
    for i, item in enumerate(ITEMS[4:]):
        plan[item.question] = _decision(
            {"source": "refuse", "refusal": "MISSING_ARGUMENT"} if i < red_refused else wrong_call)
    return ScriptedRouter(plan)


def _comparison(**routers: tuple[int, int]):
    return compare_routers({f"transformers:models/routers/{name.replace('_', '-')}": _router(*spec)
                            for name, spec in routers.items()}, ITEMS)


def test_router_key_finds_a_folder_name() -> None:
    comparison = _comparison(base=(4, 10))
    assert router_key(comparison, "base") == "transformers:models/routers/base"
    assert router_key(comparison, "ru-vocab") is None


def test_refusal_share_holds_only_with_a_significant_gain() -> None:
    strong = refusal_share_finding(_comparison(base=(4, 10), base_no_refusals=(4, 0)))
    assert strong.holds is True and strong.numbers["mcnemar b"] == 10 and strong.numbers["mcnemar p"] < 0.05
    weak = refusal_share_finding(_comparison(base=(4, 6), base_no_refusals=(4, 5)))
    assert weak.holds is False and "0.600" in weak.verdict and "0.500" in weak.verdict


def test_small_model_is_near_within_the_margin() -> None:
    near = small_model_finding(_comparison(base=(4, 10), base_small=(2, 10)))
    assert near.holds is True
    far = small_model_finding(_comparison(base=(4, 10), base_small=(4, 8)))
    assert far.holds is False and far.numbers["conscious refusal base"] - far.numbers[
        "conscious refusal base-small"] > NEAR


def test_vocabulary_needs_savings_and_opposite_moves() -> None:
    comparison = _comparison(base=(2, 5), ru_vocab=(4, 3))
    tokens = pd.DataFrame([{"tokenizer": "ru-vocab", "group": "prompt ru", "savings": 0.2}])
    finding = vocabulary_finding(comparison, tokens)
    assert finding.numbers["token savings prompt ru"] == pytest.approx(0.2)
    # arguments improve (2/4 -> 4/4) while source accuracy does not (7/14 both): they move apart
    assert finding.numbers["argument exact match ru-vocab"] == 1.0
    assert finding.numbers["source accuracy ru-vocab"] == finding.numbers["source accuracy base"] == 0.5
    assert finding.holds is True and "20.0% fewer tokens" in finding.verdict
    assert "opposite directions" in finding.verdict
    together = vocabulary_finding(_comparison(base=(2, 5), ru_vocab=(4, 10)), tokens)
    assert together.holds is False and "same direction" in together.verdict
    none_saved = vocabulary_finding(comparison, tokens.assign(savings=-0.1))
    assert none_saved.holds is False


def test_missing_routers_are_reported_not_invented() -> None:
    findings = router_findings(_comparison(base=(4, 10)))
    assert [f.holds for f in findings] == [None, None, None]
    assert all("not measured" in f.verdict for f in findings)
    frame = findings_frame(findings)
    assert list(frame.columns) == ["claim", "router", "against", "holds", "verdict"] and len(frame) == 3


def test_findings_cli_without_trained_routers_says_how_to_train(tmp_path) -> None:
    import argparse

    from workbench.cli._router_train import _findings
    from workbench.config import load_settings
    from workbench.errors import WorkbenchError

    args = argparse.Namespace(models=str(tmp_path), split="test", taskset=None)
    with pytest.raises(WorkbenchError, match="router train"):
        _findings(args, load_settings())


def test_a_comparison_without_red_team_items_leaves_the_refusal_findings_unmeasured() -> None:
    routers = {"transformers:m/base": _router(4, 10), "transformers:m/base-small": _router(2, 10),
               "transformers:m/base-no-refusals": _router(4, 0)}
    utility_only = compare_routers(routers, ITEMS[:4])
    findings = router_findings(utility_only)
    assert findings[1].holds is None and findings[2].holds is None
    assert "no red-team item" in findings[1].verdict


def test_lines_and_records_say_the_state_in_words(tmp_path) -> None:
    import json

    from workbench.studies import finding_lines, vocabulary_tokens

    findings = router_findings(_comparison(base=(4, 10), base_no_refusals=(4, 0)))
    lines = finding_lines(findings)
    assert lines[0].startswith("finding 1 (not measured)") and lines[1].startswith("finding 2 (holds)")
    record = json.loads(json.dumps([f.to_dict() for f in findings]))
    assert record[1]["routers"] == ["base", "base-no-refusals"] and record[1]["holds"] is True
    assert vocabulary_tokens({"base": tmp_path}, ITEMS) is None


def _span_comparison(**routers: tuple[int, int]):
    return compare_routers({f"span:models/routers/{name.replace('_', '-')}": _router(*spec)
                            for name, spec in routers.items()}, ITEMS)


def test_the_span_family_is_measured_by_the_same_findings() -> None:
    from workbench.studies._findings import span_findings

    comparison = _span_comparison(span=(4, 10), span_navec=(2, 10), span_minilm=(4, 8),
                                  span_no_refusals=(4, 0))
    encoder, refusals, small = span_findings(comparison)
    # navec loses two utility items and no refusal: source and arguments move together
    assert encoder.routers == ("span-navec", "span") and encoder.numbers["russian items"] == 14
    assert encoder.numbers["argument exact match ru span-navec"] == 0.5
    assert encoder.holds is False and "in the same direction" in encoder.verdict
    assert refusals.routers == ("span", "span-no-refusals") and refusals.holds is True
    assert small.routers == ("span-minilm", "span") and small.numbers["conscious refusal span-minilm"] == 0.8
    assert small.holds is False  # 0.8 against 1.0 is more than NEAR below


def test_a_span_finding_without_its_routers_is_not_measured() -> None:
    from workbench.studies._findings import span_findings

    assert all(f.holds is None for f in span_findings(_span_comparison(span=(4, 10))))


def test_span_findings_cli_without_the_variants_says_how_to_train(tmp_path) -> None:
    import argparse

    from workbench.cli._router_train import _findings
    from workbench.config import load_settings
    from workbench.errors import WorkbenchError

    args = argparse.Namespace(models=str(tmp_path), split="test", taskset=None, family="span")
    with pytest.raises(WorkbenchError, match="train-span"):
        _findings(args, load_settings())
