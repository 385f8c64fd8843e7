"""Risk and coverage: the curve and its area, Learn-then-Test's bound, the shift check, calibrate.

The curve is checked on rows small enough to compute by hand; the bound against a brute-force
search with exact fractions and against its guarantee on draws with a known risk; calibrate on
synthetic rows whose best grid cell would switch every gate off.
"""

from __future__ import annotations

import functools
import json
import math
from fractions import Fraction

import numpy as np
import pandas as pd
import pytest

from workbench.config import Promise, load_settings, overlay_settings
from workbench.stats import (
    NoPromise,
    RiskBound,
    RiskControlError,
    TooFewAnswersError,
    answers_needed,
    learn_then_test,
)
from workbench.studies import (
    CalibrationSetError,
    RiskCoverageError,
    SwitchedOffError,
    promise_check,
    risk_coverage,
    shift_check,
)
from workbench.studies import _calibration as calibration

ORDER = ["gate0", "threshold", "disagreement", "relevance", "confidence", "verbatim"]


def _rows(items: list[dict]) -> pd.DataFrame:
    """Gate-run rows: each item gives set, score, gold rank, relevance firing, the answer mode."""
    records = []
    for number, item in enumerate(items):
        rank = item.get("rank")
        records.append({
            "id": f"q{number}", "set": item.get("set", "in_corpus"),
            "split": item.get("split", "dev"), "top_score": item["score"],
            "n_hits": 10, "gate0_coverage": item.get("coverage", 1.0),
            "top2_gap": item.get("gap", 0.5), "top2_same_file": False,
            "top2_same_text": False, "gold_rank": rank, "top_is_gold": rank == 1,
            "wf_gate0": False, "wf_threshold": item.get("below", False),
            "wf_disagreement": False, "wf_relevance": item.get("irrelevant", False),
            "wf_verbatim": False, "wf_confidence": False, "answer_mode": item.get("mode", "A"),
            "answer_code": item.get("code", "")})
    frame = pd.DataFrame.from_records(records)
    frame.attrs["order"] = ORDER
    return frame


HAND = [
    {"score": 0.9, "rank": 1},                                   # right
    {"score": 0.8, "set": "out_of_corpus"},                      # wrong: must be refused
    {"score": 0.7, "rank": 1, "below": True, "mode": "", "code": "BELOW_THRESHOLD"},  # right
    {"score": 0.6, "rank": 3, "below": True, "mode": "", "code": "BELOW_THRESHOLD"},  # wrong
    {"score": 0.95, "rank": 1, "irrelevant": True, "mode": "", "code": "IRRELEVANT"},
    {"score": 0.5, "set": "relevance_traps", "irrelevant": True, "mode": "", "code": "IRRELEVANT"},
]
"""Four answers in the pool (.9 right, .8 wrong, .7 right, .6 wrong); two refused by relevance;
four answerable questions (three with gold ranked first, one with gold third)."""


def test_curve_and_area_match_the_hand_computation() -> None:
    curve = risk_coverage(_rows(HAND), levels=(0.01, 0.34, 0.5))
    assert curve.score == "top_score" and curve.pool == 4 and curve.answerable == 4
    got = [(p.threshold, p.answers, p.wrong, p.right, round(p.risk, 6), p.coverage)
           for p in curve.points]
    assert got == [(0.9, 1, 0, 1, 0.0, 0.25), (0.8, 2, 1, 1, 0.5, 0.25),
                   (0.7, 3, 1, 2, round(1 / 3, 6), 0.5), (0.6, 4, 2, 2, 0.5, 0.5)]
    assert curve.aurc == pytest.approx((0 + 1 / 2 + 1 / 3 + 1 / 2) / 4)
    assert curve.aurc_best == pytest.approx((0 + 0 + 1 / 3 + 1 / 2) / 4)
    at = {a.level: (a.coverage, a.threshold, a.answers, a.wrong) for a in curve.at_risk}
    assert at == {0.01: (0.25, 0.9, 1, 0), 0.34: (0.5, 0.7, 3, 1), 0.5: (0.5, 0.7, 3, 1)}
    c = curve.ceilings
    assert (c.gold_first, c.gold_in_top, c.pool) == (0.75, 1.0, 0.5)
    run = curve.run  # the pipeline answered the first two only
    assert (run.answers, run.wrong, run.right, run.coverage) == (2, 1, 1, 0.25)
    assert curve.frame()["risk"].tolist() == pytest.approx([0, 0.5, 1 / 3, 0.5])
    assert "AURC 0.3333" in "\n".join(curve.lines())


def test_tied_scores_are_admitted_together() -> None:
    rows = _rows([{"score": 0.9, "rank": 1}, {"score": 0.9, "set": "out_of_corpus"},
                  {"score": 0.5, "rank": 1}])
    curve = risk_coverage(rows)
    assert [(p.answers, p.wrong) for p in curve.points] == [(2, 1), (3, 1)]
    assert curve.aurc == pytest.approx((0.5 + 0.5 + 1 / 3) / 3)


def test_an_answer_without_a_score_ranks_last_and_the_record_stays_json() -> None:
    rows = _rows(HAND)
    rows["confidence"] = [0.9, 0.1, 0.8, None, 0.5, 0.5]
    curve = risk_coverage(rows)
    assert curve.points[-1].threshold == -math.inf and curve.points[-1].answers == 4
    assert json.loads(json.dumps(curve.to_dict(), allow_nan=False))["points"][-1]["threshold"] \
        is None


def test_a_question_refused_for_another_reason_stays_out_of_the_pool() -> None:
    rows = _rows([*HAND, {"score": 0.99, "rank": 1, "mode": "", "code": "INVARIANT_FAILED"}])
    assert risk_coverage(rows).pool == 4


def test_confidence_ranks_when_the_rows_carry_it() -> None:
    rows = _rows(HAND)
    rows["confidence"] = [0.9, 0.1, 0.8, 0.2, 0.5, 0.5]  # right answers first
    curve = risk_coverage(rows)
    assert curve.score == "confidence"
    assert curve.aurc == pytest.approx(curve.aurc_best)
    assert risk_coverage(rows, "top_score").aurc > curve.aurc


def test_curve_errors_are_typed() -> None:
    with pytest.raises(RiskCoverageError, match="no 'confidence' column"):
        risk_coverage(_rows(HAND), "confidence")
    with pytest.raises(RiskCoverageError, match="no answerable question"):
        risk_coverage(_rows([{"score": 0.5, "set": "out_of_corpus"}]))


def _brute_force(scores: list[float], wrong: list[bool], alpha: float, delta: float
                 ) -> tuple[float, int, int] | None:
    """The same search written out with exact fractions: threshold, answers, wrong (or None)."""
    a = Fraction(alpha)
    needed = 1
    while (1 - a) ** needed > Fraction(delta):
        needed += 1
    chosen = None
    started = False
    for t in sorted(set(scores), reverse=True):
        n = sum(1 for s in scores if s >= t)
        k = sum(1 for s, w in zip(scores, wrong, strict=True) if s >= t and w)
        if n < needed and not started:
            continue
        started = True
        p = sum(math.comb(n, i) * a ** i * (1 - a) ** (n - i) for i in range(k + 1))
        if p > Fraction(delta):
            break
        chosen = (t, n, k)
    return chosen


@pytest.mark.parametrize("seed", range(40))
def test_learn_then_test_agrees_with_a_brute_force_search(seed: int) -> None:
    rng = np.random.default_rng(seed)
    n = int(rng.integers(30, 160))
    scores = [round(float(s), 2) for s in rng.random(n)]  # rounded: ties happen
    wrong = [bool(rng.random() < 0.3 * (1 - s)) for s in scores]
    alpha = float(rng.choice([0.05, 0.1, 0.2]))
    delta = float(rng.choice([0.05, 0.1, 0.2]))
    got = learn_then_test(scores, wrong, alpha, delta, min_answers=10)
    expected = _brute_force(scores, wrong, alpha, delta)
    if expected is None:
        assert isinstance(got, NoPromise)
    else:
        assert isinstance(got, RiskBound)
        assert (got.threshold, got.answers, got.wrong) == expected
        assert got.p_value <= delta


def test_the_bound_holds_on_draws_with_a_known_risk() -> None:
    # scores uniform on [0, 1], wrong with probability 0.4 (1 - s)²: answering where s >= t has
    # risk 0.4 (1 - t)² / 3, at most 0.05 exactly where t >= 1 - sqrt(0.375), about 0.388
    rng = np.random.default_rng(7)
    alpha, delta, draws, broken, promised = 0.05, 0.1, 400, 0, 0
    for _ in range(draws):
        scores = rng.random(400)
        wrong = rng.random(400) < 0.4 * (1 - scores) ** 2
        bound = learn_then_test(scores, wrong, alpha, delta, min_answers=50)
        if isinstance(bound, RiskBound):
            promised += 1
            broken += 0.4 * (1 - bound.threshold) ** 2 / 3 > alpha
    assert promised > draws / 2  # the test has power here ...
    assert 0 < broken / draws <= delta + 0.03  # ... and fails at most delta of the time


def test_answers_needed_is_the_smallest_count_that_can_reject() -> None:
    for alpha, delta in ((0.05, 0.1), (0.1, 0.1), (0.01, 0.05), (0.2, 0.5)):
        n = answers_needed(alpha, delta)
        assert (1 - alpha) ** n <= delta < (1 - alpha) ** (n - 1)


LEVEL_ERRORS: list[tuple[str, list[tuple[float, float]]]] = [
    ("alpha = ", [(0.0, 0.1), (1.0, 0.1), (-0.1, 0.1), (float("nan"), 0.1), (1.5, 0.1)]),
    ("delta = ", [(0.05, 0.0), (0.05, 1.0), (0.05, 2.0), (0.05, float("nan"))]),
]
"""Each message, and the (alpha, delta) pairs that must raise it."""


@pytest.mark.parametrize(("message", "pairs"), LEVEL_ERRORS)
def test_levels_outside_the_open_interval_are_typed_errors(message: str, pairs) -> None:
    for alpha, delta in pairs:
        with pytest.raises(RiskControlError, match=message):
            learn_then_test([0.5] * 100, [False] * 100, alpha, delta, 10)


def test_too_few_answers_names_the_counts() -> None:
    with pytest.raises(TooFewAnswersError, match="12 answered calibration question.*3 of them "
                                                 "wrong.*at least 50"):
        learn_then_test([0.5] * 12, [True] * 3 + [False] * 9, 0.05, 0.1, 50)
    with pytest.raises(RiskControlError, match="3 scores and 2"):
        learn_then_test([0.1, 0.2, 0.3], [True, False], 0.05, 0.1, 1)
    with pytest.raises(RiskControlError, match="not finite"):
        learn_then_test([0.1, float("nan")], [True, False], 0.05, 0.1, 1)


def test_no_threshold_is_no_promise_never_a_threshold() -> None:
    every_one_wrong = learn_then_test(np.linspace(0, 1, 100), [True] * 100, 0.05, 0.1, 10)
    assert isinstance(every_one_wrong, NoPromise)
    assert (every_one_wrong.answers, every_one_wrong.wrong) == (45, 45)
    too_few_to_reject = learn_then_test(np.linspace(0, 1, 30), [False] * 30, 0.05, 0.1, 10)
    assert isinstance(too_few_to_reject, NoPromise) and "45" in too_few_to_reject.reason


def test_shift_check_warns_on_shifted_scores_and_not_on_the_same() -> None:
    rng = np.random.default_rng(3)
    calibration = rng.normal(0.85, 0.03, 300)
    same = shift_check(calibration, calibration, threshold=0.87)
    alike = shift_check(calibration, rng.normal(0.85, 0.03, 200), threshold=0.87)
    moved = shift_check(calibration, rng.normal(0.82, 0.03, 200), threshold=0.87)
    assert same.shifted is False and alike.shifted is False
    assert moved.shifted is True and moved.p_value is not None and moved.p_value < 0.05
    assert "WARNING" in moved.lines()[0] and "cannot be assumed" in moved.lines()[0]
    assert "WARNING" not in alike.lines()[0]
    # the share above the threshold alone can say so: same shape, a share far from the promise's
    few_above = shift_check(calibration, np.full(200, 0.86), threshold=0.87)
    assert few_above.shifted is True and few_above.share_run == 0.0
    nothing = shift_check(calibration, [], threshold=0.87)
    assert nothing.shifted is None and "nothing to compare" in nothing.lines()[0]
    with pytest.raises(RiskCoverageError, match="level"):
        shift_check(calibration, calibration, 0.87, level=1.0)


# -- calibrate -----------------------------------------------------------------------------

def _calibration_rows(answerable: int, refuse: int, score: float = 0.9, low: int = 0,
                      close: int = 0, sparse: int = 0) -> pd.DataFrame:
    """Answerable questions all on gold (``low`` more at a score of 0, ``close`` more with a
    runner-up 0.005 behind, ``sparse`` more holding a fifth of the question's terms); must-refuse
    ones all refused by relevance. With each of the three, the grid's best cell answers them all
    by switching the threshold, the disagreement gate and gate 0 off."""
    items = [{"score": score, "rank": 1} for _ in range(answerable)]
    items += [{"score": 0.0, "rank": 1} for _ in range(low)]
    items += [{"score": score, "rank": 1, "gap": 0.005} for _ in range(close)]
    items += [{"score": score, "rank": 1, "coverage": 0.2} for _ in range(sparse)]
    items += [{"score": score, "set": "out_of_corpus", "irrelevant": True, "mode": "",
               "code": "IRRELEVANT"} for _ in range(refuse)]
    return _rows(items)


@pytest.fixture
def fake_rows(monkeypatch):
    chosen: dict[str, pd.DataFrame] = {}

    def evaluate(settings, *, sets, split, progress, questions, cache=True):
        rows = chosen["rows"]
        return rows[rows["split"] == split].reset_index(drop=True), True

    monkeypatch.setattr(calibration, "evaluate_sets_cached", evaluate)
    # a smaller grid keeps the tests fast; each axis still holds 0, the value that switches off
    monkeypatch.setattr(calibration, "calibrate_gates", functools.partial(
        calibration.calibrate_gates, coverages=(0.0, 0.5), margins=(0.0, 0.01)))
    monkeypatch.setattr(calibration, "read_manifest", lambda folder: {"corpus_digest": "c0ffee"})
    return chosen


def test_calibrate_never_writes_a_switched_off_gate_unless_told(fake_rows) -> None:
    settings = load_settings()
    fake_rows["rows"] = _calibration_rows(22, 25, low=1, close=1, sparse=1)
    grid_best = calibration.calibrate_gates(fake_rows["rows"], order=ORDER).iloc[0]
    assert calibration.switched_off(grid_best) == ("threshold", "disagreement", "gate0")
    kept = calibration.calibrate(settings)
    assert kept.declined == ("threshold", "disagreement", "gate0")
    assert kept.threshold > 0 and kept.disagreement_margin > 0 and kept.min_lexical_coverage > 0
    assert " = 0.0\n" not in kept.to_toml()
    allowed = calibration.calibrate(settings, allow_off=True)
    assert allowed.declined == () and allowed.threshold == 0.0


def test_calibrate_refuses_a_small_split_naming_the_counts(fake_rows) -> None:
    fake_rows["rows"] = _calibration_rows(12, 5)
    with pytest.raises(CalibrationSetError, match="12 answerable and 5 must-refuse.*at least 20"):
        calibration.calibrate(load_settings())
    assert calibration.calibrate(load_settings(), min_per_kind=5).n_questions == 17


def test_calibrate_with_a_risk_writes_a_promise_the_settings_read(fake_rows, tmp_path) -> None:
    settings = load_settings()
    fake_rows["rows"] = _calibration_rows(60, 25)
    result = calibration.calibrate(settings, risk=0.05, delta=0.1)
    assert isinstance(result.bound, RiskBound) and result.promise is not None
    # every cell ties here and a tie goes to the stricter one: no gate is switched off
    assert result.threshold == result.bound.threshold == 0.9 and result.declined == ()
    assert result.promise_coverage == 1.0  # all 60 answerable answered from gold at 0.9
    written = overlay_settings(settings, result.write(tmp_path / "gates.toml"))
    promise = written.promise
    assert (promise.alpha, promise.delta, promise.answers, promise.wrong) == (0.05, 0.1, 60, 0)
    assert promise.threshold == 0.9 and promise.corpus_digest == "c0ffee"
    assert promise.scores == (0.9,) * 60 and len(promise.calibration_digest) == 64
    assert written.gates.threshold_for(settings.reranker.mode) == 0.9
    # on the corpus it was made on, it carries; on another it does not, and says so
    rows = fake_rows["rows"]
    here = promise_check(rows, written, corpus="c0ffee")
    assert here.carries and (here.answers, here.wrong) == (60, 0)
    assert here.shift is not None and here.shift.shifted is False
    elsewhere = promise_check(rows, written, corpus="beef")
    assert not elsewhere.carries and "does not carry" in "\n".join(elsewhere.lines())
    other_gates = written.with_overrides(gates={"disagreement_margin": 0.3})
    assert "[gates] settings differ" in promise_check(rows, other_gates,
                                                      corpus="c0ffee").reasons[0]


def test_a_promise_on_a_score_the_rows_lack_is_a_typed_error(fake_rows) -> None:
    fake_rows["rows"] = _calibration_rows(60, 25)
    with pytest.raises(RiskCoverageError, match="no 'confidence' score"):
        calibration.calibrate(load_settings(), risk=0.05, score="confidence")
    fake_rows["rows"]["confidence"] = None
    with pytest.raises(RiskCoverageError, match="is its model there"):
        calibration.calibrate(load_settings(), risk=0.05, score="confidence")


def test_a_promise_whose_threshold_switches_the_gate_off_is_refused(fake_rows) -> None:
    fake_rows["rows"] = _calibration_rows(60, 25, low=30)
    with pytest.raises(SwitchedOffError, match="is 0.0, which switches the threshold gate off"):
        calibration.calibrate(load_settings(), risk=0.05)
    allowed = calibration.calibrate(load_settings(), risk=0.05, allow_off=True)
    assert allowed.threshold == 0.0 and allowed.promise is not None
    fake_rows["rows"] = _calibration_rows(30, 25, score=0.0)  # no cell keeps every gate on
    with pytest.raises(SwitchedOffError, match="every cell of the grid"):
        calibration.calibrate(load_settings())


def test_calibrate_without_a_possible_promise_returns_no_promise(fake_rows) -> None:
    fake_rows["rows"] = _calibration_rows(30, 25)
    with pytest.raises(TooFewAnswersError, match="30 answered calibration question"):
        calibration.calibrate(load_settings(), risk=0.05, delta=0.1)
    result = calibration.calibrate(load_settings(), risk=0.05, delta=0.1, min_answers=20)
    assert isinstance(result.bound, NoPromise) and result.promise is None
    assert "[promise]" not in result.to_toml()
    with pytest.raises(RiskControlError, match="alpha = 1.5"):
        calibration.calibrate(load_settings(), risk=1.5)


def test_the_promise_section_checks_its_numbers(tmp_path) -> None:
    from workbench.config import ConfigError

    bad = tmp_path / "bad.toml"
    bad.write_text("[promise]\nalpha = 1.5\nscores = [0.5, \"x\"]\n", encoding="utf-8")
    with pytest.raises(ConfigError, match="promise.scores: expected a list of finite numbers"):
        overlay_settings(load_settings(), bad)
    bad.write_text("[promise]\nalpha = 1.5\n", encoding="utf-8")
    with pytest.raises(ConfigError, match="promise.alpha = 1.5"):
        overlay_settings(load_settings(), bad)
    assert Promise().alpha == 0.0  # no promise unless one is written


# -- the command line ----------------------------------------------------------------------

CLI_QUESTIONS = [
    {"id": "ic-1", "set": "in_corpus", "lang": "ru", "split": "dev", "topic": "utf8",
     "question": "Из скольких байтов состоит метка порядка байтов в UTF-8?",
     "gold": [{"path": "ru/utf8.md", "span": "состоит из трёх байтов EF BB BF"}]},
    {"id": "ic-2", "set": "in_corpus", "lang": "en", "split": "test", "topic": "base64",
     "question": "How does Base64 pad the output?",
     "gold": [{"path": "en/base64.md", "span": "pads the output with one or two equals signs"}]},
    {"id": "oc-1", "set": "out_of_corpus", "lang": "ru", "split": "dev", "topic": "vat",
     "question": "Какая ставка НДС в Казахстане?"},
]


def test_eval_gates_prints_and_records_risk_and_says_a_promise_does_not_carry(
        small_index, tmp_path, keyword_config, capsys) -> None:
    from workbench import cli
    from workbench.runs import load_run

    promise = ('[promise]\nalpha = 0.05\ndelta = 0.1\nscore = "top_score"\nmode = "bi-encoder"\n'
               f'threshold = 0.2\nanswers = 60\nsplit = "dev"\ncorpus_digest = "{"0" * 64}"\n'
               "scores = [0.5, 0.6]\n")
    config = keyword_config(tmp_path, small_index.folder.parent / "corpus",
                            index=small_index.folder, extra=promise)
    own = tmp_path / "own.jsonl"
    own.write_text("".join(json.dumps(q, ensure_ascii=False) + "\n" for q in CLI_QUESTIONS),
                   encoding="utf-8")
    assert cli.main(["eval", "gates", "--config", str(config), "--mode", "bi-encoder",
                     "--quiet", "--questions", str(own)]) == 0
    out = capsys.readouterr().out
    score = "confidence" if "confidence" in load_settings(config).gates.order else "top_score"
    assert f"risk and coverage (answers ranked by {score}, dev split: 2 questions" in out
    assert f"risk and coverage (answers ranked by {score}, test split: 1 question," in out
    assert "AURC" in out and "coverage at risk ≤1%" in out and "gold ranked first" in out
    assert ("it does not carry to this run: the promise was made on corpus 000000000000, this "
            f"run's index holds corpus {small_index.corpus_digest[:12]}") in out
    summary = load_run(out.split("run record:")[1].strip()).manifest["summary"]
    assert set(summary["risk_coverage"]) == {"dev", "test"}
    assert summary["risk_coverage"]["dev"]["answerable"] == 1
    assert summary["promise"]["carries"] is False
    if score == "confidence":  # the shipped order by score beside the learned one
        assert "  against top_score: AURC" in out
        assert set(summary["risk_coverage_top_score"]) == {"dev", "test"}


def test_a_curve_beside_its_baseline_gives_the_ratio_of_areas() -> None:
    rows = _rows(HAND)
    rows["confidence"] = [0.9, 0.1, 0.8, 0.2, 0.5, 0.5]
    learned, shipped = risk_coverage(rows, "confidence"), risk_coverage(rows, "top_score")
    assert learned.aurc_ratio(shipped) == pytest.approx(learned.aurc / shipped.aurc)
    assert learned.baseline_line(shipped).startswith(
        f"  against top_score: AURC {shipped.aurc:.4f}, {learned.aurc / shipped.aurc:.2f}× its area")
