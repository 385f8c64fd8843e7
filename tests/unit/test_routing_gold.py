from __future__ import annotations

from pathlib import Path

from workbench.routing import RouterDecision, ScriptedRouter, evaluate_router, load_tasks, summarise

QUESTIONS = Path(__file__).resolve().parents[2] / "corpus" / "questions"


def test_every_gold_decision_loads_and_a_router_replaying_them_is_always_right() -> None:
    items = load_tasks(QUESTIONS / "router_tasks.jsonl") + load_tasks(QUESTIONS / "red_team.jsonl")
    decisions = {item.question: RouterDecision.from_dict(item.gold) for item in items}
    refusals = [d for d in decisions.values() if d.source == "refuse"]
    assert refusals and all(d.refusal is not None and d.refusal.code for d in refusals)
    missing = next(d for d in refusals if d.refusal is not None and d.refusal.code == "MISSING_ARGUMENT")
    assert missing.refusal is not None and "missing" in missing.refusal.numbers
    frame = evaluate_router(ScriptedRouter(decisions), items)
    figures = summarise(frame)
    assert bool(frame["correct"].all()), frame[~frame["correct"]][["id", "error"]].head()
    assert figures["conscious_refusal_rate"] == 1.0 and figures["source_accuracy"] == 1.0


def test_a_recorded_decision_still_round_trips() -> None:
    gold = {"source": "refuse", "refusal": "OUT_OF_SCOPE"}
    decision = RouterDecision.from_dict(gold)
    assert RouterDecision.from_dict(decision.to_dict()) == decision


def test_incorrect_answers_are_the_items_answered_and_not_right_of_every_kind() -> None:
    """The share counts each answer error (ANSWER_ERRORS), never a refusal or a parse failure."""
    import pandas as pd

    from workbench.routing._score import ANSWER_ERRORS, ERROR_TYPES

    refusing = {"false_refusal": "refuse", "parse_failure": "refuse"}
    rows = [{"gold_source": "utility", "source": refusing.get(error, "utility"), "correct": False,
             "error": error, "kind": "utility", "decision": None, "gold": {}} for error in ERROR_TYPES]
    rows.append({"gold_source": "utility", "source": "utility", "correct": True, "error": None,
                 "kind": "utility", "decision": None, "gold": {}})
    figures = summarise(pd.DataFrame(rows))
    assert ANSWER_ERRORS == set(ERROR_TYPES) - set(refusing) and len(ANSWER_ERRORS) == 6
    assert figures["incorrect_answer_rate"] == 6 / len(rows)
