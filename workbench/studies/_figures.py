"""The measured figures of one suite of runs, as one JSON-ready record.

The README's measured block, the report and the notebooks' prose quote these figures; they are
computed here from run records only, so a figure has one source. ``workbench report --markdown``
writes them to ``docs/figures.json`` (committed, so a clean clone has them) and renders the
README block from that file.
"""

from __future__ import annotations

import json
import os
from collections.abc import Mapping
from pathlib import Path
from typing import Any

import pandas as pd

from workbench.answers import ForgeryKind
from workbench.routing import ROUTER_METRICS
from workbench.routing._transformers import TRAINING_RECORD
from workbench.runs import RunRecord
from workbench.stats import format_p
from workbench.studies._analysis import headline
from workbench.studies._e2e import OUTCOMES, SOURCES, outcome_table, verified_wrong_interval
from workbench.studies._selection import gold_for_run, selection_errors

EXPECTED_TO_PASS: tuple[str, ...] = (ForgeryKind.VALID_EVIDENCE_OTHER_QUESTION.value,)
"""Forgery kinds the invariant checker is not built to catch: it tests where evidence comes
from, not whether it fits the question, so another question's valid evidence passes."""

FIGURES_VERSION = 2
"""The layout of the figures record; a change of layout bumps it."""

CATALOG_FIGURES: tuple[tuple[str, str], ...] = tuple(
    (metric.key, metric.figure) for metric in ROUTER_METRICS if metric.figure is not None)
"""A router comparison's summary figure -> its label in ``models/catalog.yaml``
(``workbench.routing.ROUTER_METRICS``)."""

CATALOG_DIGITS = 4
"""Decimals a catalog number keeps."""


def _round(value: Any) -> Any:
    if isinstance(value, float):
        return None if pd.isna(value) else round(value, CATALOG_DIGITS)
    if hasattr(value, "item"):  # numpy scalars
        return _round(value.item())
    return value


def _training(folder: Path | None) -> dict[str, Any] | None:
    """The flat figures of a model folder's training record, or None without one."""
    if folder is None or not (folder / TRAINING_RECORD).is_file():
        return None
    record = json.loads((folder / TRAINING_RECORD).read_text(encoding="utf-8"))
    return {k: v for k, v in record.items() if isinstance(v, int | float) and not isinstance(v, bool)}


def _model_folder(models_dir: Path, *candidates: Path) -> Path | None:
    """The first candidate that holds a training record.

    A folder under models/ comes before the path a run recorded, which may be another checkout's.
    """
    for folder in candidates:
        if (folder / TRAINING_RECORD).is_file():
            return folder
    return None


def _leaks(record: RunRecord | None) -> tuple[int | None, int | None]:
    if record is None:
        return None, None
    rows = record.rows
    mode_a = int(rows["mode"].eq("A").sum()) if "mode" in rows.columns else None
    if "leak" in rows.columns:
        return int(rows["leak"].astype(bool).sum()), mode_a
    total = (record.manifest.get("summary") or {}).get("leakage")
    return (int(total) if total is not None else None), mode_a


def quote_figures(gates: RunRecord, answers: RunRecord | None) -> dict[str, Any]:
    """One rerank mode: the test-split shares, the selection errors, leakage and the targets."""
    leaks, mode_a = _leaks(answers)
    report = selection_errors(gates, gold=gold_for_run(gates), leaks=leaks, answered=mode_a)
    per_set = report.per_set
    return {
        "run": gates.run_id, "answers_run": answers.run_id if answers is not None else None,
        "shares_test": {k: round(v, 6) for k, v in headline(gates, "test").items()},
        "answered_wrong": report.answered_wrong, "verified": report.verified,
        "wrong_per_set": {str(k): int(v) for k, v in per_set["answered wrong"].items()
                          if k != "all"},
        "quote_misses_gold_span": (int(per_set.loc["all", "quote misses gold span"])
                                   if report.gold_known else None),
        "leakage": leaks, "mode_a": mode_a,
        "targets": [c.to_dict() for c in report.targets],
    }


def negative_figures(record: RunRecord) -> dict[str, Any]:
    """The negative control: caught overall, and without the kinds expected to pass."""
    rows = record.rows
    summary = record.manifest.get("summary") or {}
    expected = rows["kind"].isin(EXPECTED_TO_PASS)
    return {
        "run": record.run_id, "forgeries": len(rows), "caught": int(rows["caught"].sum()),
        "expected_to_pass": list(EXPECTED_TO_PASS),
        "expected_to_pass_forgeries": int(expected.sum()),
        "expected_to_pass_caught": int(rows.loc[expected, "caught"].sum()),
        "forgeries_without": int((~expected).sum()),
        "caught_without": int(rows.loc[~expected, "caught"].sum()),
        "genuine": summary.get("genuine"), "genuine_passed": summary.get("genuine_passed"),
    }


def router_figures(record: RunRecord, models_dir: str | os.PathLike[str] = "models"
                   ) -> dict[str, Any]:
    """The router comparison: each router's figures, every paired test and every finding.

    A router trained here also carries its training record's figures.
    """
    summary = record.manifest.get("summary") or {}
    tests = record.manifest.get("mcnemar_all") or []
    models = record.manifest.get("models") or {}
    root = Path(models_dir)

    def training(name: str) -> dict[str, Any] | None:
        recorded = (models.get(f"router:{name}") or {}).get("path")
        return _training(_model_folder(root, root / "routers" / name,
                                       *([Path(recorded)] if recorded else [])))

    return {
        "run": record.run_id, "split": record.manifest.get("split"),
        "tasksets": list(record.manifest.get("tasksets") or []),
        "routers": {name: {**{key: figures.get(key) for key, _ in CATALOG_FIGURES},
                           "training": training(name)}
                    for name, figures in summary.items()},
        "findings": [{"claim": f.get("claim"), "routers": list(f.get("routers") or []),
                      "holds": f.get("holds"), "verdict": f.get("verdict")}
                     for f in record.manifest.get("findings") or []],
        "mcnemar": [{"a": t.get("router_a"), "b": t.get("router_b"), "b_count": t.get("b"),
                     "c_count": t.get("c"), "p": t.get("p_value"),
                     "p_text": format_p(t["p_value"]) if t.get("p_value") is not None else None}
                    for t in tests],
    }


def reranker_figures(record: RunRecord, models_dir: str | os.PathLike[str] = "models"
                     ) -> dict[str, Any]:
    """The cross-encoder's gate run: its test-split shares, top-1 gold rate and threshold.

    Its training record's figures come along when the model's folder is here.
    """
    rows = record.rows
    reranker = (record.manifest.get("models") or {}).get("reranker") or {}
    recorded = Path(str(reranker["path"])) if reranker.get("path") else None
    folder = _model_folder(Path(models_dir), *([Path(models_dir) / recorded.name, recorded]
                                               if recorded is not None else []))
    gold = rows[rows["set"] == "in_corpus"] if "set" in rows.columns else rows.iloc[0:0]
    threshold = ((record.manifest.get("settings") or {}).get("gates") or {}).get(
        "threshold_cross_encoder")
    return {
        "run": record.run_id, "name": recorded.name if recorded is not None else None,
        "shares_test": {k: round(v, 6) for k, v in headline(record, "test").items()},
        "top_is_gold_in_corpus": (round(float(gold["top_is_gold"].mean()), 6)
                                  if "top_is_gold" in gold.columns and len(gold) else None),
        "threshold": threshold, "training": _training(folder),
    }


def e2e_figures(record: RunRecord) -> dict[str, Any]:
    """The end-to-end run: per gold source, the count of each outcome class.

    The questions answered verified-wrong are listed by id (the report's traces carry it), with the
    exact 95% interval of their share of all questions.
    """
    rows = record.rows
    table = outcome_table(rows).set_index("source")
    wrong = rows[rows["outcome"] == "verified wrong"]
    return {
        "run": record.run_id, "router": record.manifest.get("router"),
        "router_reason": record.manifest.get("router_reason"),
        "split": (record.manifest.get("summary") or {}).get("split"),
        "per_source": {source: {"items": int(table.loc[source, "items"]),
                                **{o: int(table.loc[source, o]) for o in OUTCOMES},
                                "same code": int(table.loc[source, "same code"])}
                       for source in [*SOURCES, "all"]},
        "verified_wrong": [{"id": str(r["id"]), "source": str(r["source"])}
                           for _, r in wrong.iterrows()],
        "verified_wrong_interval": [round(x, 4) for x in verified_wrong_interval(rows)],
    }


def catalog_figures(routers: dict[str, Any] | None, reranker: dict[str, Any] | None
                    ) -> dict[str, dict[str, Any]]:
    """The numbers ``models/catalog.yaml`` records per entry.

    They come from the routers' and the cross-encoder's figures; each router's label names the
    split it was measured on.
    """
    out: dict[str, dict[str, Any]] = {}
    if routers:
        split = routers.get("split") or "all"
        for name, figures in routers["routers"].items():
            numbers = {f"{split} {label}": _round(figures.get(key))
                       for key, label in CATALOG_FIGURES if key in figures}
            training = figures.get("training") or {}
            if training:
                numbers.update({"parameters": training.get("parameters"),
                                "training seconds (2 cores)": _round(training.get("seconds")),
                                "final training loss": _round(training.get("final_loss"))})
            out[name] = numbers
    if reranker and reranker.get("name"):
        numbers = {f"test {k}": _round(v) for k, v in reranker["shares_test"].items()}
        numbers["top-1 fragment holds the gold span (all in_corpus)"] = _round(
            reranker["top_is_gold_in_corpus"])
        numbers["threshold (tuned on dev)"] = reranker["threshold"]
        out[str(reranker["name"])] = numbers
    return out


def suite_figures(*, suite: str | None, gates: Mapping[Any, RunRecord],
                  answers: Mapping[Any, RunRecord], negative: RunRecord | None,
                  routers: RunRecord | None, e2e: RunRecord | None = None,
                  models_dir: str | os.PathLike[str] = "models") -> dict[str, Any]:
    """Every measured figure of one suite, by rerank mode where it has one.

    Args:
        suite: The suite's id (``None`` when the runs belong to none).
        gates: The gate run of each rerank mode.
        answers: The answers run of each rerank mode (its leak verdicts).
        negative: The negative-control run.
        routers: The router comparison run.
        e2e: The end-to-end run.
        models_dir: Where the trained models' folders (and their training records) are.
    """
    commits = {str(r.manifest.get("git_commit")) for r in [*gates.values(), *answers.values()]
               if r.manifest.get("git_commit")}
    router_part = router_figures(routers, models_dir) if routers is not None else None
    cross = gates.get("cross-encoder")
    reranker = reranker_figures(cross, models_dir) if cross is not None else None
    return {
        "version": FIGURES_VERSION, "suite": suite,
        "commit": sorted(commits)[0][:10] if len(commits) == 1 else None,
        "quote": {str(mode): quote_figures(record, answers.get(mode))
                  for mode, record in gates.items()},
        "negative_control": negative_figures(negative) if negative is not None else None,
        "routers": router_part, "reranker": reranker,
        "e2e": e2e_figures(e2e) if e2e is not None else None,
        "catalog": catalog_figures(router_part, reranker),
    }


__all__ = ["CATALOG_FIGURES", "EXPECTED_TO_PASS", "FIGURES_VERSION",
           "catalog_figures", "e2e_figures", "negative_figures", "quote_figures",
           "reranker_figures", "router_figures", "suite_figures"]
