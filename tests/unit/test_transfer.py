"""The bound under shift: a threshold learnt on one run's dev split, held against another's test.

Rows are drawn with a known link between the confidence score and a wrong answer, so the
threshold the promise picks, the answers it admits on the target and the shift check's verdict
can each be computed beside the study's and compared.
"""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pandas as pd
import pytest

from workbench.stats import NoPromise, RiskBound, learn_then_test
from workbench.studies import RiskCoverageError, Transfer, promise_transfer

ORDER = ["gate0", "threshold", "disagreement", "relevance", "confidence", "verbatim"]


def _rows(split: str, n: int, *, seed: int, shift: float = 0.0, refuse: int = 0) -> pd.DataFrame:
    """``n`` answerable questions (gold first for about three in four, the right ones scoring
    higher) and ``refuse`` must-refuse ones scoring low; every gate passes each of them."""
    rng = np.random.default_rng(seed)
    gold = rng.random(n) < 0.75
    score = np.where(gold, rng.uniform(0.45, 1.0, n), rng.uniform(0.0, 0.6, n)) - shift
    records = [{"id": f"{split}{i}", "set": "in_corpus", "split": split, "top_is_gold": bool(g),
                "confidence": float(s)} for i, (g, s) in enumerate(zip(gold, score, strict=True))]
    records += [{"id": f"{split}r{i}", "set": "out_of_corpus", "split": split,
                 "top_is_gold": False, "confidence": float(s)}
                for i, s in enumerate(rng.uniform(0.0, 0.5, refuse) - shift)]
    frame = pd.DataFrame.from_records(records)
    frame = frame.assign(top_score=frame["confidence"], n_hits=10, gate0_coverage=1.0,
                         top2_gap=0.5, top2_same_file=False, top2_same_text=False,
                         gold_rank=np.where(frame["top_is_gold"], 1, 4), wf_gate0=False,
                         wf_threshold=False, wf_disagreement=False, wf_relevance=False,
                         wf_confidence=False, wf_verbatim=False, answer_mode="A", answer_code="")
    frame.attrs["order"] = ORDER
    return frame


def test_in_domain_the_threshold_is_learn_then_tests_and_the_target_is_counted_by_hand() -> None:
    calibration = _rows("dev", 400, seed=1, refuse=40)
    target = _rows("test", 300, seed=2, refuse=30)
    got = promise_transfer(calibration, target, alpha=0.05, delta=0.1, calibrated_on="a",
                           applied_to="b")
    scores = calibration["confidence"].to_numpy()
    wrong = ~calibration["top_is_gold"].to_numpy()
    expected = learn_then_test(scores, wrong, 0.05, 0.1, 30)
    assert isinstance(got.bound, RiskBound) and got.bound == expected
    answered = target["confidence"].to_numpy() >= expected.threshold
    right = target["top_is_gold"].to_numpy()
    assert got.answers == int(answered.sum())
    assert got.wrong == int((answered & ~right).sum())
    assert got.coverage == pytest.approx((answered & right).sum() / 300)
    refusals = target["set"].eq("out_of_corpus").to_numpy()
    assert got.must_refuse_refused == pytest.approx((refusals & ~answered).sum() / 30)
    assert got.kept is True and got.shift is not None and got.shift.shifted is False
    assert "shift check: no difference found" in got.line()
    assert got.to_dict()["bound"]["kind"] == "RiskBound"


def test_on_shifted_scores_the_check_warns_and_the_realised_risk_is_reported() -> None:
    calibration = _rows("dev", 400, seed=1, refuse=40)
    target = _rows("test", 300, seed=3, shift=0.25)
    got = promise_transfer(calibration, target, alpha=0.05, delta=0.1)
    assert got.shift is not None and got.shift.shifted is True
    assert "WARNING" in got.line()
    assert got.realised is not None and f"{got.wrong} of {got.answers} wrong" in got.line()


def test_only_the_named_splits_count() -> None:
    calibration = pd.concat([_rows("dev", 400, seed=1), _rows("test", 50, seed=9, shift=0.5)])
    calibration.attrs["order"] = ORDER
    target = pd.concat([_rows("dev", 100, seed=8, shift=-0.5), _rows("test", 300, seed=2)])
    target.attrs["order"] = ORDER
    split = promise_transfer(calibration, target, alpha=0.05, delta=0.1)
    alone = promise_transfer(_rows("dev", 400, seed=1), _rows("test", 300, seed=2), alpha=0.05,
                             delta=0.1)
    assert (split.bound, split.answers, split.wrong) == (alone.bound, alone.answers, alone.wrong)


def test_no_threshold_that_holds_is_no_promise_and_no_answer() -> None:
    calibration = _rows("dev", 60, seed=4)
    calibration["top_is_gold"] = False  # every answer wrong: nothing can be promised
    got = promise_transfer(calibration, _rows("test", 100, seed=2), alpha=0.05, delta=0.1)
    assert isinstance(got.bound, NoPromise) and got.answers == 0 and got.kept is None
    assert "no promise" in got.line()


def test_sides_that_cannot_be_compared_are_typed_errors() -> None:
    calibration, target = _rows("dev", 100, seed=1), _rows("test", 100, seed=2)
    with pytest.raises(RiskCoverageError, match="known scores"):
        promise_transfer(calibration, target, alpha=0.05, delta=0.1, score="bm25")
    with pytest.raises(RiskCoverageError, match="target rows"):
        promise_transfer(calibration, target.drop(columns="confidence"), alpha=0.05, delta=0.1)
    with pytest.raises(RiskCoverageError, match="calibration rows"):
        promise_transfer(calibration, target, alpha=0.05, delta=0.1, calibration_split="test")
    assert isinstance(promise_transfer(calibration, target, alpha=0.2, delta=0.2), Transfer)


def test_the_transfer_verb_reads_two_gate_runs_and_prints_the_promise_and_its_realisation(
        tmp_path, capsys) -> None:
    import json

    from workbench import cli
    from workbench.runs import write_run

    course = write_run("gates", _rows("dev", 400, seed=1, refuse=40), results_dir=tmp_path,
                       extra={"order": ORDER})
    other = write_run("gates", _rows("test", 300, seed=3, shift=0.25), results_dir=tmp_path,
                      extra={"order": ORDER})
    assert cli.main(["gates", "transfer", "--calibrate", str(course), "--apply", str(other),
                     "--risk", "0.05", "--names", "course", "outside", "--json"]) == 0
    out = capsys.readouterr().out.splitlines()
    expected = promise_transfer(_rows("dev", 400, seed=1, refuse=40),
                                _rows("test", 300, seed=3, shift=0.25), alpha=0.05, delta=0.1,
                                calibrated_on="course", applied_to="outside")
    assert out[0] == expected.line() and "WARNING" in out[0]
    assert json.loads(out[-1])["answers"] == expected.answers
    # without names, each side is named by its run id
    assert cli.main(["gates", "transfer", "--calibrate", str(course), "--apply", str(other),
                     "--risk", "0.05"]) == 0
    named = capsys.readouterr().out.splitlines()[0]
    assert Path(str(course)).name in named and Path(str(other)).name in named
    assert cli.main(["gates", "transfer", "--calibrate", str(course), "--apply", str(other),
                     "--risk", "0.05", "--names", "course"]) == 2
    assert "--names takes one name per calibration run" in capsys.readouterr().err
    assert cli.main(["gates", "transfer", "--calibrate", str(course), "--apply", str(other),
                     "--risk", "1.5"]) == 2
    assert "alpha" in capsys.readouterr().err.lower()
