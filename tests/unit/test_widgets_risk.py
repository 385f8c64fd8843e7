"""The risk–coverage operating-point widget over hand-written gate runs.

The rows are those of ``test_risk``'s hand computation with the threshold gate's verdicts
recorded, so the run's own threshold, every point and every flipped question is known; the
widget is driven as its front end drives it (setting its synced traits).
"""

from __future__ import annotations

import json
import time

import numpy as np
import pandas as pd
import pytest

from workbench.stats import exact_interval
from workbench.studies import RiskCoverageError, risk_coverage
from workbench.widgets import (
    RiskOperatingPoint,
    WidgetError,
    export_page,
    risk_operating_point_figure,
    risk_operating_point_state,
)

ORDER = ["gate0", "threshold", "disagreement", "relevance", "confidence", "verbatim"]
OWN = 0.75
"""The threshold the run's threshold gate answered at."""


def _verdicts(score: float, below: bool, irrelevant: bool) -> str:
    """The recorded verdicts of one row: the threshold gate with its numbers, relevance."""
    return json.dumps([
        {"gate": "threshold", "passed": not below, "code": "BELOW_THRESHOLD" if below else None,
         "numbers": {"best_score": score, "threshold": OWN},
         "detail": f"best {score:.3f} vs threshold {OWN:.3f} (bi-encoder)"},
        {"gate": "relevance", "passed": not irrelevant, "code": "IRRELEVANT" if irrelevant else None,
         "numbers": {}, "detail": ""}])


def _rows(items: list[dict], verdicts: bool = True) -> pd.DataFrame:
    """Gate-run rows as ``test_risk`` writes them, with a question text and recorded verdicts."""
    records = []
    for number, item in enumerate(items):
        rank = item.get("rank")
        below = item["score"] < OWN
        irrelevant = item.get("irrelevant", False)
        answered = not below and not irrelevant
        record = {
            "id": f"q{number}", "set": item.get("set", "in_corpus"),
            "split": item.get("split", "dev"), "question": f"question {number}",
            "top_score": item["score"], "top_path": "a.md", "quote": f"quote {number}",
            "n_hits": 10, "gate0_coverage": 1.0, "top2_gap": 0.5, "top2_same_file": False,
            "top2_same_text": False, "gold_rank": rank, "top_is_gold": rank == 1,
            "wf_gate0": False, "wf_threshold": below, "wf_disagreement": False,
            "wf_relevance": irrelevant, "wf_verbatim": False, "wf_confidence": False,
            "answer_mode": "A" if answered else "",
            "answer_code": "" if answered else ("IRRELEVANT" if irrelevant else "BELOW_THRESHOLD"),
            "code": None if answered else ("IRRELEVANT" if irrelevant else "BELOW_THRESHOLD")}
        if verdicts:
            record["verdicts"] = _verdicts(item["score"], below, irrelevant)
        records.append(record)
    frame = pd.DataFrame.from_records(records)
    frame.attrs["order"] = ORDER
    return frame


HAND = [
    {"score": 0.9, "rank": 1},                                       # q0 answered, right
    {"score": 0.8, "set": "out_of_corpus"},                          # q1 answered, wrong
    {"score": 0.7, "rank": 1},                                       # q2 below: right if answered
    {"score": 0.6, "rank": 3, "split": "test"},                      # q3 below: wrong if answered
    {"score": 0.95, "rank": 1, "irrelevant": True},                  # q4 relevance: out of the pool
    {"score": 0.5, "set": "relevance_traps", "irrelevant": True},    # q5 relevance: out of the pool
]
"""The pool is q0..q3 (scores .9 right, .8 wrong, .7 right, .6 wrong); the run answers q0, q1."""


@pytest.fixture
def run() -> tuple[pd.DataFrame, bool]:
    """The hand run, shaped as ``evaluate_sets_cached`` returns it."""
    return _rows(HAND), True


def test_the_default_operating_point_is_the_runs_own(run) -> None:
    state = risk_operating_point_state(run)
    assert state["score"] == "top_score" and state["gate"] == "threshold"
    assert state["threshold"] == OWN and state["own_threshold"] == OWN
    assert state["own_source"] == "the threshold gate's threshold"
    own = risk_coverage(run[0], "top_score").run
    for point in (state["chosen"], state["run"]):
        assert (point["answers"], point["wrong"], point["right"]) == (own.answers, own.wrong, own.right)
        assert point["risk"] == own.risk and point["coverage"] == own.coverage
        assert point["interval"] == pytest.approx(list(own.interval), abs=1e-9)
    assert state["n_flips"] == 0 and state["flips"] == []
    assert state["curve"]["threshold"] == [0.9, 0.8, 0.7, 0.6]
    assert state["chosen"]["index"] == 1  # 0.75 answers as the point at 0.8
    json.dumps(state, allow_nan=False)


def test_without_recorded_verdicts_the_run_answered_at_its_lowest_answered_score() -> None:
    state = risk_operating_point_state(_rows(HAND, verdicts=False))
    assert state["threshold"] == 0.8 and state["own_source"] == "the lowest score the run answered at"
    assert state["n_flips"] == 0


def test_a_lower_threshold_flips_the_questions_it_admits(run) -> None:
    state = risk_operating_point_state(run, threshold=0.6)
    # by hand: q2 (0.7, gold first) and q3 (0.6, gold third) become answered
    flips = [(f["id"], f["change"], f["right"], f["score"]) for f in state["flips"]]
    assert flips == [("q2", "answered", True, 0.7), ("q3", "answered", False, 0.6)]
    assert state["flip_counts"] == {"answered_right": 1, "answered_wrong": 1,
                                    "refused_right": 0, "refused_wrong": 0}
    chosen = state["chosen"]
    assert (chosen["answers"], chosen["wrong"], chosen["right"]) == (4, 2, 2)
    assert chosen["risk"] == 0.5 and chosen["coverage"] == 0.5  # 2 of 4 answerable
    assert chosen["interval"] == pytest.approx(list(exact_interval(2, 4)), abs=1e-9)
    assert chosen["index"] == 3
    first = state["flips"][0]
    assert (first["set"], first["split"], first["question"]) == ("in_corpus", "dev", "question 2")


def test_a_higher_threshold_withdraws_answers(run) -> None:
    state = risk_operating_point_state(run, threshold=0.85)
    assert [(f["id"], f["change"], f["right"]) for f in state["flips"]] == [("q1", "refused", False)]
    assert state["chosen"]["risk"] == 0.0 and state["chosen"]["answers"] == 1
    assert state["flip_counts"]["refused_wrong"] == 1


def test_one_split_only(run) -> None:
    state = risk_operating_point_state(run, threshold=0.6, split="test")
    assert state["split"] == "test" and state["questions"] == 1
    assert [f["id"] for f in state["flips"]] == ["q3"]


def test_the_trace_of_a_flipped_question_comes_from_the_cached_row(run) -> None:
    state = risk_operating_point_state(run, threshold=0.6, selected="q3")
    trace = state["trace"]
    assert trace["id"] == "q3" and trace["question"] == "question 3" and trace["recorded"]
    own, chosen = trace["sides"]
    assert (own["side"], own["outcome"], own["good"]) == ("baseline", "refused", False)
    assert own["fields"]["code"] == "BELOW_THRESHOLD" and own["fields"]["quote"] == "quote 3"
    assert (chosen["side"], chosen["outcome"], chosen["good"]) == ("variant", "answered wrong", False)
    threshold = next(v for v in chosen["verdicts"] if v["gate"] == "threshold")
    assert threshold["passed"] and threshold["numbers"] == {"top_score": 0.6, "threshold": 0.6}
    assert chosen["fields"]["code"] is None
    # the recorded verdict is untouched on the run's side; the lines are SideTrace's, as printed
    assert next(v for v in own["verdicts"] if v["gate"] == "threshold")["passed"] is False
    assert own["lines"][0] == "baseline: refused (not)"
    assert any("threshold: pass" in line for line in chosen["lines"])


@pytest.mark.parametrize(("arguments", "error", "message"), [
    ({"score": "n_hits"}, WidgetError, "unknown score 'n_hits'; scores: top_score, confidence"),
    ({"score": "confidence"}, RiskCoverageError, "no 'confidence' column"),
    ({"threshold": "high"}, WidgetError, "threshold = 'high': a threshold is a number"),
    ({"threshold": float("nan")}, WidgetError, "a threshold is a finite number"),
    ({"threshold": True}, WidgetError, "a threshold is a number"),
    ({"split": "train"}, WidgetError, "unknown split 'train'; splits: dev, test"),
    ({"selected": "q99"}, WidgetError, "no question 'q99'"),
])
def test_bad_inputs_give_a_typed_error(run, arguments: dict, error: type, message: str) -> None:
    with pytest.raises(error, match=message):
        risk_operating_point_state(run, **arguments)


def test_the_widget_follows_its_traits(run) -> None:
    widget = RiskOperatingPoint(run)
    assert widget.threshold is None and widget.state["threshold"] == OWN
    widget.step(2)  # the slider, two points towards more answers: 0.8 -> 0.6
    assert widget.threshold == 0.6 and widget.state["n_flips"] == 2
    widget.show_trace("q2")  # a click on the flipped row
    assert widget.selected == "q2" and widget.state["trace"]["id"] == "q2"
    widget.threshold = None  # "the run's own point"
    assert widget.state["n_flips"] == 0
    widget.split = "test"  # a question of another split is closed
    assert widget.selected == "" and widget.state["trace"] is None
    widget.score = "confidence"  # the rows carry no such score: the last good state stays
    assert "no 'confidence' column" in widget.error and widget.state["score"] == "top_score"
    with pytest.raises(WidgetError, match="no question 'q99'"):
        widget.show_trace("q99")
    figure = widget.figure()  # the test split alone: q3, refused by the run and at 0.75
    assert [t.name for t in figure.data] == ["top_score, test split"]
    page = export_page(widget)
    assert "RiskOperatingPoint" in page and '"_static_export": true' in page


def test_the_figure_is_the_reports(run) -> None:
    state = risk_operating_point_state(run, threshold=0.6)
    figure = risk_operating_point_figure(state)
    names = [t.name for t in figure.data]
    assert names == ["top_score", "top_score: operating point", "top_score ≥ 0.6000"]
    assert list(figure.data[0].x) == [0.25, 0.25, 0.5, 0.5]
    assert (figure.data[1].x[0], figure.data[1].y[0]) == (0.25, 0.5)
    assert (figure.data[2].x[0], figure.data[2].y[0]) == (0.5, 0.5)


def _many(n: int, seed: int = 7) -> pd.DataFrame:
    """``n`` questions shaped like a course run: answerable ones mostly ranked right and scored
    higher, a third that must be refused, a tenth refused by relevance, two splits."""
    rng = np.random.default_rng(seed)
    items = []
    for number in range(n):
        must_refuse = rng.random() < 0.35
        gold_first = not must_refuse and rng.random() < 0.8
        score = rng.beta(5, 2) if gold_first else rng.beta(2, 4)
        items.append({"score": round(float(score), 6),
                      "set": ("out_of_corpus" if number % 3 else "relevance_traps") if must_refuse
                      else "in_corpus",
                      "rank": None if must_refuse else (1 if gold_first else int(rng.integers(2, 14))),
                      "irrelevant": bool(rng.random() < 0.1),
                      "split": "dev" if number % 2 else "test"})
    return _rows(items)


def test_a_threshold_move_answers_in_under_100_ms_on_thousands_of_rows() -> None:
    # the bar of bench/bench_widgets.py: one click, from the trait change to the new state, under
    # 100 ms. Each threshold is a first visit (nothing remembered for it) on each of three
    # widgets; the best of the three is kept, so a busy machine's stray pause does not decide it
    rows = _many(4000)
    widgets = [RiskOperatingPoint(rows) for _ in range(3)]
    curve = widgets[0].curve["threshold"]
    assert len(curve) > 3000
    thresholds = [t for t in curve[:: len(curve) // 8] if t is not None]
    clicks = [min(_timed(lambda w=w, t=t: setattr(w, "threshold", t)) for w in widgets)
              for t in thresholds]
    assert widgets[0].state["n_flips"] > 0 and widgets[0].error == ""
    opens = [min(_timed(lambda w=w, q=q: w.show_trace(q)) for w in widgets)
             for q in [f["id"] for f in widgets[0].state["flips"][:3]]]
    cold = min(_timed(lambda: risk_operating_point_state(rows, threshold=0.5, selected="q1"))
               for _ in range(3))
    assert max(clicks) < 0.1, f"threshold moves took {[round(1000 * c, 1) for c in clicks]} ms"
    assert max(opens) < 0.1, f"opening a trace took {[round(1000 * c, 1) for c in opens]} ms"
    assert cold < 0.1, f"the state function with nothing remembered took {1000 * cold:.1f} ms"


def _timed(action) -> float:
    started = time.perf_counter()
    action()
    return time.perf_counter() - started
