"""The utility doubt: calibrated by Learn-then-Test and recorded as JSON (the span router's refusal
under it is tested with the span router, ``test_routing_span.py``)."""

from __future__ import annotations

import json
from pathlib import Path

import numpy as np
import pandas as pd
import pytest

from workbench.routing._doubt import (
    DOUBT_FILE,
    UtilityDoubt,
    UtilityDoubtError,
    load_utility_doubt,
    write_utility_doubt,
)
from workbench.routing._span import class_output, class_probability
from workbench.stats import RiskControlError, TooFewAnswersError
from workbench.studies._utility_doubt import calibrate_utility_doubt, doubt_outcomes


def _rows(calls: list[tuple[float, bool]], others: int = 0) -> pd.DataFrame:
    """Scored items: a utility call of each (probability, right) and ``others`` refusals."""
    rows = [{"decision": {"source": "utility", "utility": "hash.md5",
                          "raw_output": f"hash.md5 ({p:.3f})"}, "correct": right} for p, right in calls]
    rows += [{"decision": {"source": "refuse", "raw_output": "OUT_OF_SCOPE"}, "correct": True}] * others
    return pd.DataFrame(rows)


def test_a_calls_probability_is_read_from_what_the_span_router_wrote_note_or_none() -> None:
    assert class_probability(class_output("date.weekday", 0.4123)) == pytest.approx(0.412)
    # a converse call adds a note after its class: still a calibration answer, at its class's probability
    noted = class_output("color.rgb_to_hex", 0.245) + ": color.hex_to_rgb, the question asks into its target"
    assert class_probability(noted) == pytest.approx(0.245)
    assert class_probability("OUT_OF_SCOPE") is None and class_probability("") is None
    rows = pd.DataFrame([{"decision": {"source": "utility", "raw_output": noted}, "correct": False}])
    assert doubt_outcomes(rows) == ([pytest.approx(0.245)], [True])


def test_only_utility_calls_are_calibration_answers_and_a_wrong_one_is_any_call_not_right() -> None:
    scores, wrong = doubt_outcomes(_rows([(0.9, True), (0.2, False)], others=3))
    assert scores == [pytest.approx(0.9), pytest.approx(0.2)] and wrong == [False, True]


def test_the_doubt_refuses_the_most_calls_of_which_at_most_beta_would_have_been_right() -> None:
    rng = np.random.default_rng(7)
    sure = [(float(p), bool(rng.random() > 0.1)) for p in rng.uniform(0.5, 1.0, 400)]
    unsure = [(float(p), bool(rng.random() > 0.8)) for p in rng.uniform(0.05, 0.45, 200)]
    doubt = calibrate_utility_doubt(_rows(sure + unsure), router="span-binder-noref", split="rounds 1-2",
                                    tasksets=("a.jsonl",), beta=0.4, delta=0.1)
    assert doubt.no_promise is None and doubt.threshold in (0.45, 0.5) and doubt.calls == 600
    refused = [right for p, right in sure + unsure if round(p, 3) < doubt.threshold]
    assert doubt.refused == len(refused) and doubt.refused_right == refused.count(True)
    assert doubt.refused_right / doubt.refused <= 0.4 and doubt.p_value <= 0.1 / len(doubt.grid)
    assert doubt.wrong == sum(not right for _, right in sure + unsure)
    assert any("doubt 0.45" in line or "doubt 0.5" in line for line in doubt.lines())
    # the sure calls are right nine times in ten: refusing into them would lose more than beta
    stricter = calibrate_utility_doubt(_rows(sure + unsure), router="r", split="s", tasksets=(), beta=0.1)
    assert stricter.threshold < doubt.threshold or stricter.no_promise


def test_where_no_threshold_holds_the_promise_none_is_set_and_the_record_says_why() -> None:
    all_right = _rows([(0.2, True), (0.9, True)] * 40)
    doubt = calibrate_utility_doubt(all_right, router="r", split="s", tasksets=())
    assert doubt.threshold == 0.0 and doubt.no_promise and "no doubt threshold" in doubt.lines()[1]
    with pytest.raises(TooFewAnswersError):
        calibrate_utility_doubt(_rows([(0.9, True)] * 10), router="r", split="s", tasksets=())
    with pytest.raises(RiskControlError):
        calibrate_utility_doubt(_rows([(0.9, True)] * 60), router="r", split="s", tasksets=(), beta=1.0)


def _record(**changes: object) -> UtilityDoubt:
    base = dict(threshold=0.4, router="span-binder-noref", beta=0.4, delta=0.1, grid=(0.35, 0.4), calls=900,
                wrong=120, refused=70, refused_right=20, p_value=0.004, split="held-out rounds 1-16",
                tasksets=("x.jsonl",), run="routers-1")
    return UtilityDoubt(**{**base, **changes})  # type: ignore[arg-type]


def test_a_record_is_written_and_read_back_as_it_was(tmp_path: Path) -> None:
    path = write_utility_doubt(_record(), tmp_path)
    assert path == tmp_path / DOUBT_FILE and load_utility_doubt(tmp_path) == _record()


@pytest.mark.parametrize(("text", "match"), [
    (None, "no utility doubt record"),
    ("{not json", "not a JSON record"),
    ('["a"]', "not a utility doubt record"),
    ('{"threshold": 0.3}', "not a utility doubt record"),
])
def test_a_missing_or_damaged_record_is_a_typed_error(tmp_path: Path, text: str | None, match: str) -> None:
    if text is not None:
        (tmp_path / DOUBT_FILE).parent.mkdir(parents=True)
        (tmp_path / DOUBT_FILE).write_text(text, encoding="utf-8")
    with pytest.raises(UtilityDoubtError, match=match):
        load_utility_doubt(tmp_path)


@pytest.mark.parametrize("threshold", [1.0, -0.1, True, "0.3"])
def test_a_threshold_that_is_no_probability_is_a_typed_error(tmp_path: Path, threshold: object) -> None:
    path = write_utility_doubt(_record(), tmp_path)
    data = json.loads(path.read_text(encoding="utf-8"))
    path.write_text(json.dumps({**data, "threshold": threshold}), encoding="utf-8")
    with pytest.raises(UtilityDoubtError, match="not a probability"):
        load_utility_doubt(tmp_path)


def test_rounds_are_named_as_ranges_or_lists_and_an_unknown_one_is_a_typed_error() -> None:
    from workbench.cli._router import TaskSetError, round_names

    known = [str(n) for n in range(1, 21)]
    assert round_names("1-3,7", known) == ["1", "2", "3", "7"]
    with pytest.raises(TaskSetError, match="no round 21"):
        round_names("19-21", known)
    with pytest.raises(TaskSetError, match="no round"):
        round_names(",", known)


def test_the_doubt_variant_reads_the_shipped_record_and_refuses_one_calibrated_on_another_router(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    from types import SimpleNamespace

    from workbench.routing import _span_variants, with_utility_doubt

    shipped = load_utility_doubt(Path(__file__).resolve().parents[2] / "models")
    assert shipped.router == "span-binder-noref" and 0 < shipped.threshold < 1 and shipped.no_promise is None
    assert shipped.refused_right / shipped.refused <= shipped.beta
    span = SimpleNamespace(utility_doubt=0.0)
    assert with_utility_doubt(span).utility_doubt == shipped.threshold  # type: ignore[arg-type]
    # the registered variant is span-binder-noref under that doubt
    monkeypatch.setattr(_span_variants, "span_binder_noref_router", lambda path, binder: span)
    span.utility_doubt = 0.0
    assert _span_variants.span_binder_noref_doubt_router() is span and span.utility_doubt == shipped.threshold
    write_utility_doubt(_record(router="span-binder"), tmp_path)
    with pytest.raises(UtilityDoubtError, match="calibrated on span-binder, not span-binder-noref"):
        with_utility_doubt(span, tmp_path)  # type: ignore[arg-type]


def test_the_cli_calibrates_on_named_rounds_from_routed_or_recorded_decisions(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    from workbench import cli

    held = tmp_path / "q" / "heldout"
    held.mkdir(parents=True)
    lines, replay = [], []
    for i in range(100):  # the first 40 calls are unsure and mostly wrong, the rest surer and right
        text = f"release-{i}"
        lines.append({"id": f"ho-x-{i}", "question": f"MD5 of `{text}`", "lang": "en", "split": "heldout",
                      "kind": "utility", "gold": {"source": "utility", "utility": "hash.md5",
                                                  "args": {"text": text}}})
        bound = text if i >= 40 or i % 20 == 0 else "other"
        replay.append({"id": f"ho-x-{i}", "raw_output": f"hash.md5 ({0.2 if i < 40 else 0.6:.3f})",
                       "decision": {"source": "utility", "utility": "hash.md5", "args": {"text": bound}}})
    (held / "one.jsonl").write_text("".join(json.dumps(x) + "\n" for x in lines), encoding="utf-8")
    (held / "rounds.json").write_text('{"1": ["one"]}', encoding="utf-8")
    (tmp_path / "r.jsonl").write_text("".join(json.dumps(x) + "\n" for x in replay), encoding="utf-8")
    config = tmp_path / "wb.toml"
    config.write_text(f'[paths]\nquestions = "{tmp_path / "q"}"\nresults = "{tmp_path / "results"}"\n'
                      f'models = "{tmp_path / "models"}"\n', encoding="utf-8")
    router = f"replay:{tmp_path / 'r.jsonl'}"
    assert cli.main(["router", "calibrate-doubt", "--router", router, "--rounds", "1", "--write",
                     "--config", str(config)]) == 0
    out = capsys.readouterr().out
    doubt = load_utility_doubt(tmp_path / "models")
    # the loosest threshold under which the calls are right at most 0.4 of the time: up to 0.6
    assert (doubt.threshold, doubt.refused, doubt.refused_right, doubt.calls) == (0.6, 40, 2, 100)
    assert "doubt 0.6: 40 calls refused, 2 of them right" in out and doubt.split == "held-out round 1"
    # the same decisions read back from the run record give the same doubt, routing nothing again
    assert cli.main(["router", "calibrate-doubt", "--router", router, "--rounds", "1", "--from-run",
                     str(doubt.run), "--config", str(config)]) == 0
    assert "doubt 0.6: 40 calls refused" in capsys.readouterr().out
    assert cli.main(["router", "calibrate-doubt", "--router", "rule", "--rounds", "1", "--from-run",
                     str(doubt.run), "--config", str(config)]) == 2
    assert "holds 0 of the 100 items" in capsys.readouterr().err
    assert cli.main(["router", "calibrate-doubt", "--rounds", "2", "--config", str(config)]) == 2
    assert "no round 2 among the held-out rounds 1" in capsys.readouterr().err
