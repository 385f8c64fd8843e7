"""Sweeps: grid files, cells re-sliced on the client, evaluations on workers, failures as rows."""

from __future__ import annotations

import os
import sys
from pathlib import Path

import cloudpickle
import numpy as np
import pandas as pd
import pytest

from workbench.cli import main
from workbench.config import Executor, Settings, load_settings
from workbench.gates import default_order
from workbench.runs import runs_df
from workbench.studies import (
    SweepGridError,
    chosen_cells,
    load_grid,
    parse_grid,
    run_sweep,
    sweep_curves,
    threshold_sweep,
)

# the worker processes import this module's functions by value: tests/ is not on their path
cloudpickle.register_pickle_by_value(sys.modules[__name__])


def synthetic_rows(settings: Settings, sets: tuple[str, ...], split: str | None) -> pd.DataFrame:
    """Gate rows that depend on the rerank mode only, as a real evaluation's would."""
    if settings.retrieval.top_k == 7:
        raise RuntimeError("retrieval broke for top_k 7")
    rng = np.random.default_rng(len(settings.reranker.mode))
    n = 300
    frame = pd.DataFrame({
        "id": [f"q{i}" for i in range(n)],
        "set": rng.choice(["in_corpus", "out_of_corpus", "relevance_traps"], size=n),
        "lang": "ru", "split": "dev", "question": "q", "top_path": "a.md", "n_hits": 10,
        "top_score": rng.random(n), "top_is_gold": rng.random(n) < 0.8,
        "gate0_coverage": rng.random(n), "top2_gap": rng.random(n) / 10,
        "top2_same_file": rng.random(n) < 0.5,
    })
    for gate in default_order():
        frame[f"wf_{gate}"] = rng.random(n) < 0.2
    for rule in ("entities", "lang-match"):
        frame[f"rule_{rule}"] = rng.random(n) < 0.2
    frame["wf_relevance"] = frame["rule_entities"]
    return frame


def never_cached(settings: Settings, sets: tuple[str, ...], split: str | None) -> bool:
    return False


def rows_killing_the_worker_once(settings: Settings, sets: tuple[str, ...],
                                 split: str | None) -> pd.DataFrame:
    """Kills the worker process the first time it runs (a crash mid-task), then evaluates."""
    marker = Path(settings.paths.cache) / f"killed-{settings.reranker.mode}"
    if not marker.exists():
        marker.write_text("once", encoding="utf-8")
        os._exit(1)
    return synthetic_rows(settings, sets, split)


@pytest.fixture
def settings(tmp_path: Path) -> Settings:
    return load_settings().with_overrides(paths={"results": str(tmp_path / "results"),
                                                 "cache": str(tmp_path / "cache")})


GRID = {"sweep": {"name": "t", "split": "dev"},
        "grid": {"reranker.mode": ["bi-encoder", "none"], "gates.threshold": [0.2, 0.8],
                 "gates.relevance_rules": [["entities"], []]}}


def test_every_cell_is_resliced_and_recorded(settings: Settings, tmp_path: Path) -> None:
    result = run_sweep(settings, parse_grid(GRID), Executor(), evaluate=synthetic_rows,
                       is_cached=never_cached, results_dir=tmp_path / "results")
    table = result.table
    assert len(table) == 8 and result.failed == 0
    assert (table["evaluated_on"] == "client").all() and result.on_client == 2
    for mode in ("bi-encoder", "none"):
        rows = synthetic_rows(settings.with_overrides(reranker={"mode": mode}), (), None)
        curve = threshold_sweep(rows, thresholds=[0.2, 0.8]).set_index("threshold")
        for t in (0.2, 0.8):
            cell = table[(table["reranker.mode"] == mode) & (table["gates.threshold"] == t)
                         & (table["gates.relevance_rules"] == '["entities"]')].iloc[0]
            assert cell["hasans_correct"] == curve.loc[t, "hasans_correct"]
            assert cell["noans_refused"] == curve.loc[t, "noans_refused"]
    loose = table[table["gates.relevance_rules"] == "[]"]["noans_refused"].sum()
    strict = table[table["gates.relevance_rules"] == '["entities"]']["noans_refused"].sum()
    assert strict > loose  # a rule switched off refuses less
    cells = runs_df(tmp_path / "results", kind="sweep-cell")
    assert len(cells) == 8
    sweeps = runs_df(tmp_path / "results", kind="sweep")
    assert sweeps["summary.cells"].tolist() == [8]


def test_threshold_points_give_a_curve_per_rerank_mode(settings: Settings,
                                                       tmp_path: Path) -> None:
    grid = parse_grid({"sweep": {"threshold_points": 5},
                       "grid": {"reranker.mode": ["bi-encoder", "none"]}})
    table = run_sweep(settings, grid, Executor(), evaluate=synthetic_rows,
                      is_cached=never_cached, results_dir=tmp_path / "results").table
    for _, curve in table.groupby("reranker.mode"):
        assert len(curve) == 5
        assert curve["gates.threshold"].is_monotonic_increasing
        assert curve["noans_refused"].is_monotonic_increasing
        assert curve["hasans_answered"].is_monotonic_decreasing


def test_a_failing_cell_is_a_row_and_the_others_finish(settings: Settings,
                                                       tmp_path: Path) -> None:
    grid = parse_grid({"grid": {"retrieval.top_k": [10, 7], "reranker.mode": ["none", "nonsense"],
                                "gates.threshold": [0.5]}})
    result = run_sweep(settings, grid, Executor(), evaluate=synthetic_rows,
                       is_cached=never_cached, results_dir=tmp_path / "results")
    table = result.table.set_index(["retrieval.top_k", "reranker.mode"])
    assert table.loc[(10, "none"), "status"] == "ok"
    assert "retrieval broke for top_k 7" in table.loc[(7, "none"), "error"]
    assert "nonsense" in table.loc[(10, "nonsense"), "error"]
    assert result.failed == 3
    assert table.loc[(7, "none"), "run"] == "" and pd.isna(table.loc[(7, "none"), "hasans_n"])
    assert len(runs_df(tmp_path / "results", kind="sweep-cell")) == 1  # only complete cells


GRID_ERRORS: list[tuple[str, dict]] = [
    ("unknown grid key 'gates.treshold'", {"grid": {"gates.treshold": [0.5]}}),
    ("the grid is empty", {"sweep": {"name": "x"}}),
    ("the grid is empty", {}),
    ("'reranker.mode' needs a non-empty list", {"grid": {"reranker.mode": []}}),
    ("[sweep] has unknown key 'spilt'", {"sweep": {"spilt": "dev"}, "grid": {"gates.order": [[]]}}),
    ("unknown table(s) grids", {"grids": {}}),
    ("not both", {"sweep": {"threshold_points": 3}, "grid": {"gates.threshold": [0.1]}}),
]
"""(message, grid) rows: the error each grid gets."""


@pytest.mark.parametrize(("message", "raw"), GRID_ERRORS)
def test_grid_errors_name_the_key(message: str, raw: dict) -> None:
    with pytest.raises(SweepGridError) as caught:
        parse_grid(raw)
    assert message in str(caught.value)


def test_the_command_line_refuses_a_grid_with_an_unknown_key(tmp_path: Path, small_corpus: Path,
                                                             keyword_config, capsys) -> None:
    grid = tmp_path / "grid.toml"
    grid.write_text('[grid]\n"reranker.moed" = ["none"]\n', encoding="utf-8")
    config = keyword_config(tmp_path, small_corpus)
    assert main(["sweep", str(grid), "--config", str(config)]) == 2
    assert "'reranker.moed'" in capsys.readouterr().err


def test_the_shipped_grids_parse() -> None:
    root = Path(__file__).resolve().parents[2]
    grids = sorted((root / "sweeps").glob("*.toml"))
    assert grids
    for path in grids:
        assert load_grid(path).keys


@pytest.mark.slow
@pytest.mark.timeout(180)
def test_a_worker_killed_mid_task_costs_a_retry_not_a_record(settings: Settings,
                                                            tmp_path: Path) -> None:
    from distributed import LocalCluster

    grid = parse_grid({"grid": {"reranker.mode": ["bi-encoder", "none"],
                                "gates.threshold": [0.3, 0.6]}})
    (tmp_path / "cache").mkdir()
    # the cell evaluated on the client must not kill the test: its marker is there already
    (tmp_path / "cache" / "killed-none").write_text("never", encoding="utf-8")
    with LocalCluster(n_workers=1, threads_per_worker=1, processes=True,
                      dashboard_address=":0") as cluster:
        result = run_sweep(settings, grid, Executor(scheduler=cluster.scheduler_address),
                           evaluate=rows_killing_the_worker_once,
                           is_cached=lambda s, sets, split: s.reranker.mode == "none",
                           results_dir=tmp_path / "results")
    assert (tmp_path / "cache" / "killed-bi-encoder").exists()  # the worker did die once
    assert result.failed == 0 and result.on_workers == 1
    table = result.table
    assert (table.loc[table["reranker.mode"] == "bi-encoder", "evaluated_on"] == "workers").all()
    assert (table.loc[table["reranker.mode"] == "none", "evaluated_on"] == "client").all()
    # the retried evaluation gives the very figures an undisturbed sweep gives
    expected = run_sweep(settings, grid, Executor(), evaluate=synthetic_rows,
                         is_cached=never_cached, results_dir=tmp_path / "again").table
    pd.testing.assert_series_equal(table["hasans_correct"], expected["hasans_correct"])
    assert len(runs_df(tmp_path / "results", kind="sweep-cell")) == 4


def test_the_report_draws_the_latest_sweep(settings: Settings, tmp_path: Path) -> None:
    from workbench.report import build_report, report_sections

    grid = parse_grid({"sweep": {"threshold_points": 4},
                       "grid": {"reranker.mode": ["bi-encoder", "none"],
                                "retrieval.top_k": [10, 7]}})
    run_sweep(settings, grid, Executor(), evaluate=synthetic_rows, is_cached=never_cached,
              results_dir=tmp_path / "results")
    section = {s.key: s for s in report_sections(tmp_path / "results")}["sweep"]
    assert not section.missing
    assert "fig-sweep" in section.body and "retrieval broke for top_k 7" in section.body
    assert "fig-sweep" in build_report(tmp_path / "results").read_text(encoding="utf-8")


def scored_rows(scores: list[float]) -> pd.DataFrame:
    """Answerable questions answered from gold unless the threshold refuses them."""
    rows = synthetic_rows(load_settings(), (), None).head(len(scores)).copy()
    rows["set"], rows["top_score"], rows["top_is_gold"] = "in_corpus", scores, True
    for gate in default_order():
        rows[f"wf_{gate}"] = False
    return rows.reset_index(drop=True)


def test_the_top_threshold_still_answers_the_best_scored_question(settings: Settings,
                                                                  tmp_path: Path) -> None:
    # the course's best bi-encoder score: rounded to nearest, the top threshold (0.9492) lay above
    # it and the curve ended in a drop to nothing that no threshold at the best score gives
    rows = scored_rows([0.80, 0.85, 0.90, 0.9491847157478333])
    grid = parse_grid({"sweep": {"threshold_points": 21}, "grid": {"reranker.mode": ["none"]}})
    table = run_sweep(settings, grid, Executor(), evaluate=lambda s, sets, split: rows,
                      is_cached=never_cached, results_dir=tmp_path / "results").table
    top = table.sort_values("gates.threshold").iloc[-1]
    assert top["gates.threshold"] <= 0.9491847157478333 and top["hasans_answered"] == 1


def test_coarse_scores_give_distinct_thresholds(settings: Settings, tmp_path: Path) -> None:
    # fused rank scores (mode none) take a few values near 2/61: 21 points collapse to fewer
    levels = [1 / 61 + 1 / (61 + k) for k in range(4)]
    rows = scored_rows([levels[i % 4] for i in range(40)])
    grid = parse_grid({"sweep": {"threshold_points": 21}, "grid": {"reranker.mode": ["none"]}})
    table = run_sweep(settings, grid, Executor(), evaluate=lambda s, sets, split: rows,
                      is_cached=never_cached, results_dir=tmp_path / "results").table
    assert table["gates.threshold"].is_unique and len(table) < 21


def split_rows(settings: Settings, sets: tuple[str, ...], split: str | None) -> pd.DataFrame:
    """Synthetic rows with a dev and a test half; refuses to be asked for one split only."""
    assert split is None, "the curves evaluate every question once and slice the splits"
    rows = synthetic_rows(settings, sets, split)
    rows["split"] = np.where(np.arange(len(rows)) % 2 == 0, "dev", "test")
    return rows


def test_sweep_curves_slice_each_split_from_one_evaluation(settings: Settings) -> None:
    grid = parse_grid({"sweep": {"threshold_points": 5, "split": "dev"},
                       "grid": {"reranker.mode": ["bi-encoder", "none", "nonsense"]}})
    calls: list[str] = []

    def evaluate(s: Settings, sets: tuple[str, ...], split: str | None) -> pd.DataFrame:
        calls.append(s.reranker.mode)
        return split_rows(s, sets, split)

    table = sweep_curves(settings, grid, splits=("dev", "test"), evaluate=evaluate)
    assert calls == ["bi-encoder", "none"]  # one evaluation a mode serves both splits
    failed = table[table["reranker.mode"] == "nonsense"]  # a mode the settings refuse
    assert (failed["status"] == "failed").all() and "nonsense" in failed["error"].iloc[0]
    for mode in ("bi-encoder", "none"):
        rows = split_rows(settings.with_overrides(reranker={"mode": mode}), (), None)
        dev = table[(table["reranker.mode"] == mode) & (table["split"] == "dev")]
        test = table[(table["reranker.mode"] == mode) & (table["split"] == "test")]
        # the thresholds come from the dev scores and cut the test split at the same points
        assert dev["gates.threshold"].tolist() == test["gates.threshold"].tolist()
        assert dev["gates.threshold"].max() <= rows.loc[rows["split"] == "dev", "top_score"].max()
        for split, part in (("dev", dev), ("test", test)):
            expected = threshold_sweep(rows[rows["split"] == split],
                                       thresholds=part["gates.threshold"].tolist())
            assert part["hasans_correct"].tolist() == expected["hasans_correct"].tolist()
            assert part["noans_refused"].tolist() == expected["noans_refused"].tolist()


def test_chosen_cells_take_the_best_score_then_fewer_false_answers_then_the_higher_threshold(
        ) -> None:
    table = pd.DataFrame({
        "split": ["dev"] * 6 + ["test"],
        "status": ["ok"] * 5 + ["failed", "ok"],
        "reranker.mode": ["a", "a", "a", "a", "b", "b", "b"],
        "gates.threshold": [0.05, 0.1, 0.2, 0.3, 0.5, 0.6, 0.7],
        "hasans_n": [10] * 7,
        "hasans_answered": [10, 9, 8, 8, 5, 10, 10],
        "hasans_correct": [9, 8, 8, 8, 5, 10, 10],
        "hasans_correct_share": [0.9, 0.8, 0.8, 0.8, 0.5, 1.0, 1.0],
        "noans_refused_share": [0.4, 0.5, 0.5, 0.5, 0.5, 1.0, 1.0],
        "false_answers": [7, 6, 5, 5, 5, 0, 0],
    })
    chosen = chosen_cells(table, "dev").set_index("reranker.mode")
    # 0.05 has the largest sum of shares (1.3) but buys it with a wrong answer on each kind:
    # 0.9 - 0.1 + 0.4 - 0.6 = 0.6 against 0.8 - 0 + 0.5 - 0.5 = 0.8 for 0.2 and 0.3
    assert chosen.loc["a", "gates.threshold"] == 0.3  # 0.1 scores 0.7; 0.2 ties 0.3: the stricter
    assert chosen.loc["b", "gates.threshold"] == 0.5  # the failed and the test cells are not read


def test_calibration_score_charges_a_wrong_answer_what_a_right_one_earns() -> None:
    from workbench.studies import calibration_score

    assert calibration_score(1.0, 0.0, 1.0) == 2.0
    assert calibration_score(0.0, 0.0, 0.5) == 0.0  # nothing answered, half refused
    # one more right and one more wrong answer on the answerable side gain nothing
    assert calibration_score(0.6, 0.2, 0.9) == pytest.approx(calibration_score(0.5, 0.1, 0.9))
    # an answered must-refuse question costs twice its share: the refusal lost and the answer
    assert calibration_score(0.5, 0.0, 0.9) - calibration_score(0.5, 0.0, 0.8) == pytest.approx(0.2)


def test_a_grid_cut_to_one_value_keeps_the_other_axes() -> None:
    from workbench.studies import SweepGridError, parse_grid

    grid = parse_grid({"sweep": {"name": "g", "threshold_points": 5},
                       "grid": {"reranker.mode": ["bi-encoder", "none"],
                                "gates.order": [["gate0", "threshold"]]}})
    one = grid.only("reranker.mode", ["bi-encoder"])
    assert dict(one.retrieval)["reranker.mode"] == ("bi-encoder",)
    assert one.reslice == grid.reslice and one.threshold_points == 5
    with pytest.raises(SweepGridError, match="no axis"):
        grid.only("reranker.kind", ["x"])
    with pytest.raises(SweepGridError, match="holds none"):
        grid.only("reranker.mode", ["cross-encoder"])
