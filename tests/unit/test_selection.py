"""Selection errors: verified answers from the wrong place, counted per set and held to the targets."""

from __future__ import annotations

import json

import pandas as pd

from workbench.corpus._questions import GoldSpan
from workbench.studies import DEFINITION, TARGETS, selection_errors

GATES = ["gate0", "threshold", "disagreement", "relevance", "verbatim"]


def answer(path: str, start: int, end: int) -> str:
    return json.dumps({"mode": "A", "text": "", "evidence": [
        {"kind": "quote", "text": "q", "anchor": {"path": path, "start": start, "end": end}}]})


def rows() -> pd.DataFrame:
    """q1 right; q2 from a gold fragment but another sentence; q3 from a fragment without gold;
    q4 refused; q5 an out-of-corpus question answered; q6 a trap refused."""
    plan = [("q1", "in_corpus", True, True, (0, 10), "test"),
            ("q2", "in_corpus", True, True, (50, 60), "test"),
            ("q3", "in_corpus", True, False, (200, 210), "test"),
            ("q4", "in_corpus", False, False, None, "dev"),
            ("q5", "out_of_corpus", True, False, (300, 310), "test"),
            ("q6", "relevance_traps", False, False, None, "test")]
    out = []
    for qid, name, answered, on_gold, at, split in plan:
        out.append({"id": qid, "set": name, "split": split, "question": f"question {qid}",
                    "answer_mode": "A" if answered else None, "top_is_gold": on_gold,
                    "top_fragment": "a.md#0-100", "quote": "q" if answered else None,
                    "answer_json": answer("a.md", *at) if at else None,
                    "verdicts": json.dumps([{"gate": "gate0", "passed": True, "code": None,
                                             "detail": "3/3 terms"}]),
                    **{f"wf_{g}": not answered and g == "threshold" for g in GATES}})
    return pd.DataFrame.from_records(out)


GOLD = {"q1": (GoldSpan("a.md", 0, 20, "gold one"),), "q2": (GoldSpan("a.md", 0, 20, "gold two"),),
        "q3": (GoldSpan("b.md", 0, 20, "gold three"),), "q4": (GoldSpan("a.md", 0, 5, "x"),)}


def test_wrong_answers_are_counted_per_set_at_the_fragment_level() -> None:
    report = selection_errors(rows(), leaks=0)
    table = report.per_set
    assert table.loc["in_corpus", "verified answers"] == 3
    assert table.loc["in_corpus", "answered wrong"] == 1  # q3: its fragment holds no gold span
    assert table.loc["out_of_corpus", "answered wrong"] == 1  # any answer to it is wrong
    assert table.loc["relevance_traps", "answered wrong"] == 0
    assert (report.answered_wrong, report.verified) == (2, 4)
    assert list(report.wrong["id"]) == ["q3", "q5"]
    assert "quote misses gold span" not in table.columns  # no gold given: not measured
    assert "gate0: passed" in report.wrong.iloc[0]["verdicts"]


def test_gold_spans_add_the_quote_level_count_and_show_the_span() -> None:
    report = selection_errors(rows(), gold=GOLD, leaks=0)
    assert report.per_set.loc["in_corpus", "quote misses gold span"] == 1  # q2
    assert report.answered_wrong == 2  # the figure the targets use does not change
    wrong = report.wrong.set_index("id")
    assert wrong.loc["q2", "level"] == "quote"
    assert "gold two" in wrong.loc["q2", "gold"]
    assert "must be refused" in wrong.loc["q5", "gold"]


def test_every_target_is_checked_on_its_split() -> None:
    checks = {c.target.key: c for c in selection_errors(rows(), leaks=0).targets}
    assert set(checks) == {t.key for t in TARGETS}
    assert (checks["in_corpus"].numerator, checks["in_corpus"].denominator) == (2, 3)  # q4 is dev
    assert checks["in_corpus"].met is False
    assert checks["out_of_corpus"].value == 0.0 and checks["out_of_corpus"].met is False
    assert checks["relevance_traps"].met is True
    assert checks["leakage"].met is True
    assert "NOT met" in checks["in_corpus"].line()


def test_leakage_target_unmeasured_without_a_count() -> None:
    checks = {c.target.key: c for c in selection_errors(rows()).targets}
    assert checks["leakage"].met is None
    assert "not measured" in checks["leakage"].line()


def test_the_definition_names_both_kinds_of_wrong_answer() -> None:
    assert "must be refused" in DEFINITION and "gold span" in DEFINITION


def test_the_terminal_lines_give_the_count_per_set_and_each_target() -> None:
    lines = selection_errors(rows(), gold=GOLD, leaks=0).lines()
    assert lines[0].startswith("answered wrong (selection errors): 2 of 4 verified answers")
    assert "out_of_corpus 1/1" in lines[0] and "both splits" in lines[0]
    assert "1 more answerable ones quote a part of the fragment beside the gold span" in lines[1]
    assert sum("target" in line for line in lines[3:]) == len(TARGETS)
