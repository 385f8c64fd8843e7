"""Run diffs, the exact McNemar test they share with the router comparison, and the runs verbs."""

from __future__ import annotations

import json
from pathlib import Path

import pandas as pd
import pytest

from workbench import cli
from workbench.config import load_settings
from workbench.digests import folder_digest
from workbench.runs import RunRecordError, latest_run, latest_runs, load_run, runs_df, write_run
from workbench.stats import McNemarResult, _exact_two_sided, mcnemar
from workbench.studies import DIFF_KINDS, diff_runs, record_run

ROOT = Path(__file__).resolve().parents[2]
GATES = ("gate0", "threshold", "disagreement", "relevance", "verbatim")


def gate_rows(outcomes: dict[str, tuple[str, str, bool]]) -> pd.DataFrame:
    """Gate-run rows: id -> (set, the gate that fires or "answered", top fragment is gold)."""
    rows = []
    for number, (qid, (name, fires, gold)) in enumerate(outcomes.items()):
        row = {"id": qid, "set": name, "lang": "ru", "split": "dev" if number % 2 else "test",
               "question": f"вопрос {qid}", "n_hits": 1, "top_score": 0.9, "top_path": "ru/a.md",
               "gate0_coverage": 1.0, "top2_gap": 0.1, "top2_same_file": True,
               "top_is_gold": gold, "answered": fires == "answered"}
        for gate in GATES:
            row[f"wf_{gate}"] = gate == fires
        for rule in ("entities", "lang-match", "term-coverage"):
            row[f"rule_{rule}"] = fires == "relevance" and rule == "entities"
        rows.append(row)
    return pd.DataFrame.from_records(rows)


def router_rows(name: str, correct: list[bool]) -> pd.DataFrame:
    return pd.DataFrame({"router": name, "id": [f"t-{i:02d}" for i in range(len(correct))],
                         "question": [f"q{i}" for i in range(len(correct))],
                         "correct": correct,
                         "error": [None if c else "wrong_source" for c in correct]})


# --- the exact McNemar test ---------------------------------------------------------------------

def test_mcnemar_hand_computed_and_typed() -> None:
    # b=10, c=2: p = 2 * (C(12,0) + C(12,1) + C(12,2)) / 2**12 = 2 * 79 / 4096
    a = [True] * 10 + [False] * 2 + [True] * 5 + [False] * 3
    b = [False] * 10 + [True] * 2 + [True] * 5 + [False] * 3
    result = mcnemar(a, b)
    assert isinstance(result, McNemarResult)
    assert (result.b, result.c, result.statistic) == (10, 2, 2)
    assert result.p_value == pytest.approx(2 * 79 / 4096)
    assert _exact_two_sided(2, 12) == pytest.approx(2 * 79 / 4096)
    assert mcnemar([True], [True]) == (0, 0, 0, 1.0)  # still unpacks and compares as a tuple
    with pytest.raises(ValueError, match="differ in length"):
        mcnemar([True], [True, False])


def test_router_comparison_uses_the_shared_test() -> None:
    from workbench.studies import _diff, _findings
    from workbench.studies import _routers as _compare

    assert _compare.mcnemar is mcnemar and _findings.mcnemar is mcnemar
    assert _diff.mcnemar is mcnemar


# --- diff_runs ----------------------------------------------------------------------------------

def test_gate_diff_lists_flips_both_ways(tmp_path: Path) -> None:
    a = write_run("gates", gate_rows({
        "q1": ("in_corpus", "answered", True),       # correct
        "q2": ("in_corpus", "threshold", True),      # wrong: refused an answerable question
        "q3": ("out_of_corpus", "answered", False),  # wrong: answered
        "q4": ("out_of_corpus", "gate0", False),     # correct
        "q5": ("in_corpus", "answered", False),      # wrong: not from a gold fragment
    }), results_dir=tmp_path, extra={"order": list(GATES), "mode": "bi-encoder"})
    b = write_run("gates", gate_rows({
        "q1": ("in_corpus", "relevance", True),      # correct -> wrong
        "q2": ("in_corpus", "answered", True),       # wrong -> correct
        "q3": ("out_of_corpus", "threshold", False),  # wrong -> correct
        "q4": ("out_of_corpus", "gate0", False),
        "q6": ("in_corpus", "answered", True),       # only in b
    }), results_dir=tmp_path, extra={"order": list(GATES), "mode": "bi-encoder"})
    diff = diff_runs(a.name, b, results_dir=tmp_path)
    assert (diff.kind, diff.paired, diff.only_a, diff.only_b) == ("gates", 4, 1, 1)
    flips = diff.flips.set_index("id")
    assert sorted(flips.index) == ["q1", "q2", "q3"]
    assert flips.loc["q1", ["verdict_a", "verdict_b", "direction"]].tolist() == [
        "correct", "wrong", "regressed"]
    assert flips.loc["q1", ["outcome_a", "outcome_b"]].tolist() == ["answered", "relevance"]
    assert flips.loc["q3", "direction"] == "improved" and flips.loc["q3", "question"] == "вопрос q3"
    assert (diff.test.b, diff.test.c) == (1, 2)
    assert diff.test.p_value == pytest.approx(1.0)
    assert "flipped: 3" in "\n".join(diff.lines())


def test_router_diff_mcnemar_numbers_on_a_hand_made_pair(tmp_path: Path) -> None:
    a_correct = [True] * 10 + [False] * 2 + [True] * 5 + [False] * 3
    b_correct = [False] * 10 + [True] * 2 + [True] * 5 + [False] * 3
    a = write_run("routers", pd.concat([router_rows("rule", a_correct),
                                        router_rows("other", [True] * 20)]), results_dir=tmp_path)
    b = write_run("routers", router_rows("rule", b_correct), results_dir=tmp_path)
    diff = diff_runs(load_run(a), load_run(b), where={"router": "rule"})
    assert diff.paired == 20 and diff.only_a == 0
    assert len(diff.flips) == 12
    assert (diff.flips["direction"] == "regressed").sum() == 10
    assert set(diff.flips.loc[diff.flips["direction"] == "regressed", "outcome_b"]) == {"wrong_source"}
    assert (diff.test.b, diff.test.c) == (10, 2)
    assert diff.test.p_value == pytest.approx(2 * 79 / 4096)
    # without the filter the other router's items are unpaired, not mixed in
    assert diff_runs(a, b).only_a == 20


def test_answers_drift_and_negative_kinds(tmp_path: Path) -> None:
    def answers(leaks: list[bool]) -> pd.DataFrame:
        return pd.DataFrame({"id": ["a", "b"], "set": "in_corpus", "question": ["x", "y"],
                             "mode": ["A", "A"], "leak": leaks,
                             "leak_reason": ["mode A without evidence" if x else "" for x in leaks]})

    diff = diff_runs(write_run("answers", answers([False, False]), results_dir=tmp_path),
                     write_run("answers", answers([True, False]), results_dir=tmp_path))
    assert diff.flips[["id", "verdict_a", "verdict_b", "outcome_b"]].values.tolist() == [
        ["a", "clean", "leak", "mode A without evidence"]]

    def drift(status: str) -> pd.DataFrame:
        return pd.DataFrame({"fragment_id": ["f1", "f2"], "path": ["a.md", "b.md"],
                             "status": ["match", status]})

    diff = diff_runs(write_run("drift", drift("match"), results_dir=tmp_path),
                     write_run("drift", drift("changed"), results_dir=tmp_path))
    assert diff.flips[["fragment_id", "path", "outcome_b"]].values.tolist() == [
        ["f2", "b.md", "changed"]]

    def negative(caught: bool) -> pd.DataFrame:
        return pd.DataFrame({"kind": ["k", "k"], "number": [0, 1], "detail": ["d0", "d1"],
                             "caught": [True, caught], "invariant": ["quote_verbatim", ""]})

    diff = diff_runs(write_run("negative_control", negative(True), results_dir=tmp_path),
                     write_run("negative_control", negative(False), results_dir=tmp_path))
    assert diff.flips["number"].tolist() == [1] and diff.flips["verdict_b"].tolist() == ["passed"]
    assert set(DIFF_KINDS) >= {"gates", "routers", "answers", "drift", "negative_control", "fts"}


def test_diff_errors_are_clear(tmp_path: Path) -> None:
    gates = write_run("gates", gate_rows({"q1": ("in_corpus", "answered", True)}),
                      results_dir=tmp_path)
    routers = write_run("routers", router_rows("rule", [True]), results_dir=tmp_path)
    with pytest.raises(RunRecordError, match="cannot diff a gates run .* with a routers run"):
        diff_runs(gates, routers)
    keyless = write_run("routers", router_rows("rule", [True]).drop(columns=["router"]),
                        results_dir=tmp_path)
    with pytest.raises(RunRecordError, match="lacks the column.*router"):
        diff_runs(routers, keyless)
    twice = write_run("routers", pd.concat([router_rows("rule", [True])] * 2), results_dir=tmp_path)
    with pytest.raises(RunRecordError, match="more than once"):
        diff_runs(routers, twice)
    unit = write_run("unit", pd.DataFrame({"x": [1]}), results_dir=tmp_path)
    with pytest.raises(RunRecordError, match="no item-by-item diff"):
        diff_runs(unit, unit)
    with pytest.raises(RunRecordError, match="neither a folder nor a run id"):
        diff_runs("gates-nosuch", gates, results_dir=tmp_path)


# --- records: digests, model ids, latest runs ---------------------------------------------------

def _settings(tmp_path: Path, corpus: Path):
    config = tmp_path / "wb.toml"
    config.write_text(f'[paths]\ncorpus = "{corpus}"\nindex = "{tmp_path / "idx"}"\n'
                      f'results = "{tmp_path / "results"}"\ncache = "{tmp_path / "cache"}"\n'
                      f'morphisms = "{ROOT / "corpus" / "morphisms"}"\n'
                      '[embedder]\nname = "keyword"\n', encoding="utf-8")
    return load_settings(config)


def test_record_run_records_digests_and_model_ids(small_corpus: Path, tmp_path: Path) -> None:
    from workbench.fts import load_library
    from workbench.utilities import catalog_summary

    settings = _settings(tmp_path, small_corpus)
    folder = record_run("unit", pd.DataFrame({"x": [1]}), settings=settings,
                        digests={"corpus_at_index": "abc"}, models={"router:base": {"digest": "d"}})
    manifest = load_run(folder).manifest
    digests = manifest["digests"]
    assert digests["catalog"] == catalog_summary().digest
    assert digests["library"] == load_library(settings.paths.morphisms).digest
    assert len(digests["corpus"]) == 64 and digests["corpus_at_index"] == "abc"
    assert digests["index"] is None  # no index was built: recorded as absent, not guessed
    assert manifest["models"]["embedder"] == "keyword"
    assert manifest["models"]["reranker"]["mode"] == settings.reranker.mode
    assert manifest["models"]["router:base"] == {"digest": "d"}
    (small_corpus / "ru" / "vat.md").write_text("changed", encoding="utf-8")
    again = load_run(record_run("unit", pd.DataFrame({"x": [1]}), settings=settings)).manifest
    assert again["digests"]["corpus"] != digests["corpus"]


def test_folder_digest_sees_every_file(tmp_path: Path) -> None:
    (tmp_path / "m").mkdir()
    (tmp_path / "m" / "w.bin").write_bytes(b"1")
    first = folder_digest(tmp_path / "m")
    (tmp_path / "m" / "extra.json").write_text("{}", encoding="utf-8")
    assert folder_digest(tmp_path / "m") != first


def test_latest_runs_and_runs_df(tmp_path: Path) -> None:
    assert latest_run("gates", tmp_path) is None and runs_df(tmp_path).empty
    rows = gate_rows({"q1": ("in_corpus", "answered", True)})
    first = write_run("gates", rows, results_dir=tmp_path, extra={"mode": "bi-encoder"})
    cross = write_run("gates", rows, results_dir=tmp_path, extra={"mode": "cross-encoder"})
    second = write_run("gates", rows, results_dir=tmp_path, extra={"mode": "bi-encoder"})
    write_run("drift", pd.DataFrame({"fragment_id": ["f"], "status": ["match"]}),
              results_dir=tmp_path)
    for folder, stamp in ((first, "01"), (cross, "02"), (second, "03")):
        manifest = json.loads((folder / "manifest.json").read_text(encoding="utf-8"))
        manifest["created_at"] = f"2026-01-{stamp}T00:00:00+00:00"
        (folder / "manifest.json").write_text(json.dumps(manifest), encoding="utf-8")
    latest = latest_run("gates", tmp_path)
    assert latest is not None and latest.run_id == second.name
    by_mode = latest_runs("gates", "mode", tmp_path)
    assert {m: r.run_id for m, r in by_mode.items()} == {"bi-encoder": second.name,
                                                          "cross-encoder": cross.name}
    cross_only = latest_run("gates", tmp_path, where={"mode": "cross-encoder"})
    assert cross_only is not None and cross_only.run_id == cross.name
    assert list(runs_df(tmp_path, kind="gates")["run_id"]) == [first.name, cross.name, second.name]


# --- the runs verbs -----------------------------------------------------------------------------

def test_cli_runs_list_and_diff(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    results = tmp_path / "results"
    a = write_run("routers", router_rows("rule", [True, True, False]), results_dir=results)
    b = write_run("routers", router_rows("rule", [True, False, True]), results_dir=results)
    config = tmp_path / "wb.toml"
    config.write_text(f'[paths]\nresults = "{results}"\n', encoding="utf-8")
    assert cli.main(["runs", "list", "--config", str(config)]) == 0
    out = capsys.readouterr().out
    assert a.name in out and b.name in out and "2 run(s)" in out
    assert cli.main(["runs", "list", "--kind", "gates", "--config", str(config)]) == 0
    assert "no run records of kind gates" in capsys.readouterr().out
    assert cli.main(["runs", "diff", a.name, b.name, "--where", "router=rule",
                     "--config", str(config)]) == 0
    out = capsys.readouterr().out
    assert "3 items in both" in out and "flipped: 2" in out and "b=1" in out and "c=1" in out
    assert "rule · t-01: right -> wrong (regressed" in out
    drift = write_run("drift", pd.DataFrame({"fragment_id": ["f"], "status": ["match"]}),
                      results_dir=results)
    assert cli.main(["runs", "diff", a.name, drift.name, "--config", str(config)]) == 2
    assert "RunRecordError" in capsys.readouterr().err
    assert cli.main(["runs", "diff", a.name, b.name, "--where", "oops",
                     "--config", str(config)]) == 2
    assert "COLUMN=VALUE" in capsys.readouterr().err


def test_a_gate_run_without_would_fire_columns_is_refused(tmp_path: Path) -> None:
    rows = pd.DataFrame({"id": ["q1"], "set": ["in_corpus"], "top_is_gold": [True], "n_hits": [3]})
    a = write_run("gates", rows, results_dir=tmp_path)
    b = write_run("gates", rows, results_dir=tmp_path)
    with pytest.raises(RunRecordError, match="holds no wf_<gate> column"):
        diff_runs(a, b)
