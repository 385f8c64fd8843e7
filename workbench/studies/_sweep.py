"""Sweeps: a grid of settings run as Dask tasks, one run record per finished cell, one table.

A grid file (TOML)::

    [sweep]
    name = "threshold-per-mode"             # names the sweep in its records
    sets = ["in_corpus", "out_of_corpus"]   # default: every labelled set
    split = "dev"                           # default: every question
    threshold_points = 21                   # optional: a threshold curve per evaluation

    [grid]
    "reranker.mode" = ["bi-encoder", "none"]
    "gates.order" = [["gate0", "threshold", ...], [...]]
    "gates.relevance_rules" = [["entities"], []]
    "gates.threshold" = [0.8, 0.85]         # the threshold of each cell's own rerank mode

Cells are the product of every axis. Axes of :data:`RESLICE_KEYS` only re-slice cached
verdicts (a gate order, a rule subset, a threshold): those cells are computed on the client from
the evaluation's rows. Axes of :data:`RETRIEVAL_KEYS` change what retrieval returns: one gate
evaluation per combination of them, sent to a Dask worker unless its rows are cached already
(``evaluate_sets_cached``). A cell writes its run record (kind ``sweep-cell``) only once it is
complete; a failed evaluation marks its cells ``failed`` with the error, and the other cells
finish. The sweep then writes one table (kind ``sweep``) that ``runs_df`` and the report read.
"""

from __future__ import annotations

import dataclasses
import hashlib
import itertools
import json
import os
import sys
import tomllib
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, fields
from pathlib import Path
from typing import Any

import pandas as pd
from tqdm.auto import tqdm

from workbench.config import Executor, Retrieval, Settings, number_problem, threshold_key
from workbench.corpus._questions import SETS, SPLITS
from workbench.errors import WorkbenchError
from workbench.studies._analysis import (
    ANSWERED,
    calibration_score,
    first_firing,
    outcome_correctness,
    score_thresholds,
)
from workbench.studies._executor import dask_client
from workbench.studies._gates import evaluate_sets_cached, evaluation_is_cached
from workbench.studies._records import record_run

RESLICE_KEYS: dict[str, str] = {
    "gates.order": "a gate order (a list of every gate)",
    "gates.relevance_rules": "a list of quote relevance rules",
    "gates.threshold": "the threshold of the cell's rerank mode (a number)",
    "gates.min_lexical_coverage": "gate 0's share of the question's terms (a number)",
    "gates.disagreement_margin": "the disagreement gate's margin (a number)",
}
"""Grid keys that only re-slice cached verdicts: computed on the client, never on a worker."""

RETRIEVAL_KEYS: dict[str, str] = {
    "reranker.mode": "a rerank mode",
    "reranker.path": "a cross-encoder folder",
    "paths.index": "an index folder (another corpus)",
    "paths.questions": "a folder of labelled question sets",
    **{f"retrieval.{f.name}": "a retrieval setting" for f in fields(Retrieval)},
}
"""Grid keys that change retrieval: each combination is one gate evaluation, run on a worker."""

SWEEP_KEYS = ("name", "sets", "split", "threshold_points")
"""Keys of the ``[sweep]`` table."""

METRICS = ("hasans_n", "hasans_answered", "hasans_correct", "noans_n", "noans_refused",
           "false_answers", "hasans_correct_share", "noans_refused_share")
"""The figures of one cell: answerable questions (HasAns) answered from a gold fragment against
questions that must be refused (NoAns) refused."""


CONFIRM_CELLS = 1000
"""A grid of more cells runs only when asked for in so many words (``workbench sweep --yes``,
``run_sweep(..., yes=True)``): each cell writes a run record, and a thousand take minutes."""


class SweepGridError(WorkbenchError):
    """A grid file that cannot be run: unknown keys, an empty grid or axis, a bad shape."""


class SweepInterrupted(WorkbenchError):
    """The sweep was stopped (Ctrl-C or SIGTERM); the table of the cells finished was written."""


@dataclass(frozen=True)
class SweepGrid:
    """A parsed grid: the axes of the cells and what the evaluations cover."""

    name: str
    """Names the sweep in its records."""
    sets: tuple[str, ...]
    """Labelled question sets evaluated."""
    split: str | None
    """Only questions of this split, or all."""
    retrieval: tuple[tuple[str, tuple[Any, ...]], ...]
    """Axes that need retrieval (key, values), in file order."""
    reslice: tuple[tuple[str, tuple[Any, ...]], ...]
    """Axes that re-slice cached verdicts (key, values), in file order."""
    threshold_points: int = 0
    """When above 0, each evaluation's cells also sweep this many thresholds over its scores."""

    @property
    def cells(self) -> int:
        """How many cells the grid has: the product of its axes (and of its threshold points)."""
        count = max(self.threshold_points, 1)
        for _, values in self.retrieval + self.reslice:
            count *= len(values)
        return count

    def check_size(self, yes: bool = False) -> None:
        """Refuse a grid past :data:`CONFIRM_CELLS` cells unless ``yes``.

        Raises:
            SweepGridError: Too many cells, with the count and how to ask for them.
        """
        if self.cells > CONFIRM_CELLS and not yes:
            raise SweepGridError(f"{self.name}: {self.cells:,} cells, each a run record; a grid "
                                 f"of more than {CONFIRM_CELLS:,} runs only with --yes")

    @property
    def keys(self) -> tuple[str, ...]:
        """Every axis key, retrieval first."""
        keys = tuple(k for k, _ in self.retrieval + self.reslice)
        return keys + (("gates.threshold",) if self.threshold_points else ())

    def only(self, key: str, values: Sequence[Any]) -> SweepGrid:
        """This grid with the axis ``key`` cut down to ``values`` (those it already holds).

        A notebook at its CI size keeps, say, the configured rerank mode alone: its verdicts are
        the lab's cached gate run, so the curve needs no new retrieval.

        Raises:
            SweepGridError: ``key`` is no axis of the grid, or none of ``values`` is on it.
        """
        axes = dict(self.retrieval + self.reslice)
        if key not in axes:
            raise SweepGridError(f"{self.name}: no axis {key!r}; axes: {', '.join(axes)}")
        kept = tuple(v for v in axes[key] if v in values)
        if not kept:
            raise SweepGridError(f"{self.name}: axis {key!r} holds none of {list(values)!r}")

        def cut(part: tuple[tuple[str, tuple[Any, ...]], ...]) -> tuple[tuple[str, tuple[Any, ...]], ...]:
            return tuple((k, kept if k == key else v) for k, v in part)

        return dataclasses.replace(self, retrieval=cut(self.retrieval), reslice=cut(self.reslice))


def parse_grid(raw: Mapping[str, Any], where: str = "grid") -> SweepGrid:
    """Check and parse a grid's tables (see the module's docstring).

    Raises:
        SweepGridError: An unknown table or key (named, with the known ones), an empty grid,
            an axis with no values, or a ``[sweep]`` value of the wrong type.
    """
    unknown = sorted(set(raw) - {"sweep", "grid"})
    if unknown:
        raise SweepGridError(f"{where}: unknown table(s) {', '.join(unknown)}; known: sweep, grid")
    head = raw.get("sweep", {})
    bad = sorted(set(head) - set(SWEEP_KEYS))
    if bad:
        raise SweepGridError(f"{where}: [sweep] has unknown key {bad[0]!r}; known: "
                             f"{', '.join(SWEEP_KEYS)}")
    axes = raw.get("grid", {})
    points = head.get("threshold_points", 0)
    if not isinstance(points, int) or isinstance(points, bool):
        raise SweepGridError(f"{where}: sweep.threshold_points = {points!r}: expected a whole "
                             "number, 0 or more")
    problem = number_problem("sweep.threshold_points", points)
    if problem is not None:
        raise SweepGridError(f"{where}: {problem}")
    if not axes and not points:
        raise SweepGridError(f"{where}: the grid is empty; add at least one axis under [grid] "
                             f"(e.g. \"reranker.mode\" = [\"bi-encoder\", \"none\"])")
    retrieval: list[tuple[str, tuple[Any, ...]]] = []
    reslice: list[tuple[str, tuple[Any, ...]]] = []
    for key, values in axes.items():
        if key not in RESLICE_KEYS and key not in RETRIEVAL_KEYS:
            raise SweepGridError(f"{where}: unknown grid key {key!r}; known: "
                                 f"{', '.join([*RETRIEVAL_KEYS, *RESLICE_KEYS])}")
        if not isinstance(values, list) or not values:
            raise SweepGridError(f"{where}: grid key {key!r} needs a non-empty list of values "
                                 f"({(RESLICE_KEYS | RETRIEVAL_KEYS)[key]} each)")
        target = reslice if key in RESLICE_KEYS else retrieval
        target.append((key, tuple(tuple(v) if isinstance(v, list) else v for v in values)))
    if points and "gates.threshold" in axes:
        raise SweepGridError(f"{where}: give \"gates.threshold\" values or "
                             "sweep.threshold_points, not both")
    sets = head.get("sets", list(SETS))
    if not isinstance(sets, list) or not sets or not all(isinstance(s, str) for s in sets):
        raise SweepGridError(f"{where}: sweep.sets must be a non-empty list of set names")
    unknown_sets = [s for s in sets if s not in SETS]
    if unknown_sets:
        raise SweepGridError(f"{where}: sweep.sets names {unknown_sets[0][:60]!r}; known: "
                             f"{', '.join(SETS)}")
    split = head.get("split")
    if split is not None and split not in SPLITS:
        raise SweepGridError(f"{where}: sweep.split = {str(split)[:60]!r}; expected one of "
                             f"{', '.join(SPLITS)} (or no split: every question)")
    name = head.get("name", "sweep")
    if not isinstance(name, str) or not name.strip() or len(name) > 200:
        raise SweepGridError(f"{where}: sweep.name must be a short text")
    grid = SweepGrid(name=name, sets=tuple(sets), split=split, retrieval=tuple(retrieval),
                     reslice=tuple(reslice), threshold_points=points)
    problem = number_problem("sweep.cells", grid.cells)
    if problem is not None:
        raise SweepGridError(f"{where}: the grid has {grid.cells:,} cells; "
                             f"{problem.split(': ', 1)[1]}")
    return grid


def load_grid(path: str | os.PathLike[str]) -> SweepGrid:
    """Read and check a grid file.

    Raises:
        SweepGridError: The file is missing, not TOML, or its grid is not one (see
            :func:`parse_grid`).
    """
    file = Path(path)
    try:
        raw = tomllib.loads(file.read_text(encoding="utf-8"))
    except OSError as exc:
        raise SweepGridError(f"{file}: cannot be read ({exc.strerror})") from None
    except (tomllib.TOMLDecodeError, UnicodeDecodeError) as exc:
        raise SweepGridError(f"{file}: not valid TOML ({exc})") from None
    return parse_grid(raw, str(file))


def _overrides(settings: Settings, combo: Mapping[str, Any]) -> Settings:
    sections: dict[str, dict[str, Any]] = {}
    for key, value in combo.items():
        section, name = key.split(".", 1)
        if key == "gates.threshold":
            name = threshold_key(settings.reranker.mode)
        if isinstance(value, tuple):
            value = list(value)
        sections.setdefault(section, {})[name] = value
    return settings.with_overrides(**sections) if sections else settings


Evaluate = Callable[[Settings, tuple[str, ...], "str | None"], pd.DataFrame]
"""Gate rows of an evaluation: ``(settings, sets, split) -> rows``."""
IsCached = Callable[[Settings, tuple[str, ...], "str | None"], bool]
"""Whether an evaluation's rows can be had without retrieval."""


def evaluate_rows(settings: Settings, sets: tuple[str, ...], split: str | None) -> pd.DataFrame:
    """The default evaluation: :func:`evaluate_sets_cached`'s rows (computed or read back)."""
    return evaluate_sets_cached(settings, sets=sets, split=split)[0]


def rows_cached(settings: Settings, sets: tuple[str, ...], split: str | None) -> bool:
    """Whether :func:`evaluate_sets_cached` would read these rows back rather than retrieve."""
    return evaluation_is_cached(settings, sets, split)


def cell_metrics(rows: pd.DataFrame, settings: Settings, grid_keys: Sequence[str]
                 ) -> tuple[dict[str, float | int], pd.DataFrame]:
    """One cell's figures and per-question outcomes, re-sliced from an evaluation's rows.

    Only what the grid varies is re-computed; the rest is the verdict the evaluation cached.
    """
    gates = settings.gates
    order = tuple(gates.order)
    outcome = first_firing(
        rows, order,
        rules=gates.relevance_rules if "gates.relevance_rules" in grid_keys else None,
        threshold=gates.threshold_for(settings.reranker.mode)
        if "gates.threshold" in grid_keys else None,
        min_coverage=gates.min_lexical_coverage
        if "gates.min_lexical_coverage" in grid_keys else None,
        margin=gates.disagreement_margin if "gates.disagreement_margin" in grid_keys else None)
    correct, false_answer = outcome_correctness(rows, outcome)
    answered = outcome == ANSWERED
    has = (rows["set"] == "in_corpus").to_numpy()
    figures: dict[str, float | int] = {
        "hasans_n": int(has.sum()), "hasans_answered": int(answered[has].sum()),
        "hasans_correct": int(correct[has].sum()), "noans_n": int((~has).sum()),
        "noans_refused": int((~answered[~has]).sum()), "false_answers": int(false_answer.sum()),
    }
    figures["hasans_correct_share"] = (figures["hasans_correct"] / figures["hasans_n"]
                                       if figures["hasans_n"] else 0.0)
    figures["noans_refused_share"] = (figures["noans_refused"] / figures["noans_n"]
                                      if figures["noans_n"] else 0.0)
    per_question = pd.DataFrame({"id": rows["id"].to_numpy(), "set": rows["set"].to_numpy(),
                                 "outcome": outcome, "correct": correct,
                                 "false_answer": false_answer})
    return figures, per_question


def _cell_value(value: Any) -> Any:
    return json.dumps(list(value)) if isinstance(value, tuple) else value


@dataclass(frozen=True)
class SweepResult:
    """What :func:`run_sweep` did."""

    table: pd.DataFrame
    """One row per cell: status, error, where its evaluation ran, each axis, the figures and
    its run record."""
    run: Path
    """The sweep's own run record (kind ``sweep``)."""
    failed: int
    """Cells whose evaluation failed."""
    on_workers: int
    """Evaluations sent to the cluster."""
    on_client: int
    """Evaluations whose rows were cached (or that ran here without a cluster)."""

    def summary(self) -> str:
        """One line for the terminal."""
        return (f"sweep: {len(self.table)} cells ({self.failed} failed); evaluations: "
                f"{self.on_workers} on workers, {self.on_client} on the client -> {self.run}")


def _evaluation_name(settings: Settings, grid: SweepGrid) -> str:
    text = json.dumps([settings.to_dict(), grid.sets, grid.split], sort_keys=True, default=str)
    return "sweep-evaluate-" + hashlib.sha256(text.encode()).hexdigest()[:40]


def run_sweep(settings: Settings, grid: SweepGrid, executor: Executor, *,
              evaluate: Evaluate = evaluate_rows, is_cached: IsCached = rows_cached,
              results_dir: str | os.PathLike[str] | None = None,
              progress: bool = False, yes: bool = False) -> SweepResult:
    """Run every cell of ``grid``; see the module's docstring for where each part runs.

    Stopped by Ctrl-C (or a SIGTERM the caller turns into one), the sweep writes the table of
    the cells it finished, marked ``interrupted``, and raises :class:`SweepInterrupted`: every
    cell record on disk is then named by a sweep table.

    Args:
        settings: The base settings every cell starts from.
        grid: The axes (:func:`load_grid`).
        executor: Where evaluations that need retrieval run (``workers = 0`` and no scheduler:
            in this process).
        evaluate: Computes an evaluation's rows; runs on a worker, so it must be importable
            there.
        is_cached: Whether an evaluation's rows are to be had on the client without retrieval.
        results_dir: Where run records go (default ``[paths].results``).
        progress: Show a progress bar over the cells.
        yes: Run a grid of more than :data:`CONFIRM_CELLS` cells.

    Returns:
        The sweep's table and record.

    Raises:
        SweepGridError: The grid is too large without ``yes``, or the results place is a file;
            both before any cell runs.
        SweepInterrupted: Stopped; the finished cells' table was written.
    """
    grid.check_size(yes)
    results = Path(results_dir) if results_dir is not None else None
    place = results if results is not None else Path(settings.paths.results)
    if place.exists() and not place.is_dir() or any(
            a.exists() and not a.is_dir() for a in place.absolute().parents):
        raise SweepGridError(f"the results place {place} is a file, not a folder; run records "
                             "go into a folder ([paths] results or results_dir)")
    retrieval_combos = [dict(zip([k for k, _ in grid.retrieval], values, strict=True))
                        for values in itertools.product(*[v for _, v in grid.retrieval])]
    table: list[dict[str, Any]] = []
    counts = {"client": 0, "workers": 0}
    try:
        _run_cells(settings, grid, executor, evaluate, is_cached, results, progress,
                   retrieval_combos, table, counts)
    except KeyboardInterrupt:
        run = _record_sweep(settings, grid, results, table, counts, interrupted=True)
        raise SweepInterrupted(f"sweep {grid.name} stopped after {len(table)} of "
                               f"{grid.cells} cells; their table: {run}") from None
    frame = _frame(table)
    failed = int((frame["status"] == "failed").sum())
    run = _record_sweep(settings, grid, results, table, counts, interrupted=False)
    return SweepResult(table=frame, run=run, failed=failed, on_workers=counts["workers"],
                       on_client=counts["client"])


def _frame(table: list[dict[str, Any]]) -> pd.DataFrame:
    frame = pd.DataFrame.from_records(table, columns=list(table[0]) if table else ["cell",
                                                                                   "status"])
    return frame.sort_values("cell", kind="stable").reset_index(drop=True)


def _record_sweep(settings: Settings, grid: SweepGrid, results: Path | None,
                  table: list[dict[str, Any]], counts: dict[str, int], *,
                  interrupted: bool) -> Path:
    """The sweep's own record (kind ``sweep``): one row a cell finished."""
    frame = _frame(table)
    failed = int((frame["status"] == "failed").sum())
    return record_run("sweep", frame, settings=settings, results_dir=results,
                      summary={"cells": len(frame), "failed": failed,
                               "evaluations_on_workers": counts["workers"],
                               "evaluations_on_client": counts["client"],
                               **({"interrupted": True, "cells_planned": grid.cells}
                                  if interrupted else {})},
                      extra={"sweep": grid.name,
                             "grid": {k: [_cell_value(v) for v in vs]
                                      for k, vs in grid.retrieval + grid.reslice},
                             "sets": list(grid.sets), "split": grid.split,
                             "threshold_points": grid.threshold_points})


def _run_cells(settings: Settings, grid: SweepGrid, executor: Executor, evaluate: Evaluate,
               is_cached: IsCached, results: Path | None, progress: bool,
               retrieval_combos: list[dict[str, Any]], table: list[dict[str, Any]],
               counts: dict[str, int]) -> None:
    """Every cell's row into ``table`` as it finishes (so an interrupted sweep keeps them)."""
    with dask_client(executor) as client, tqdm(
            desc=f"sweep {grid.name}", unit="cell", disable=not progress, file=sys.stderr) as bar:
        futures: dict[Any, tuple[dict[str, Any], Settings]] = {}
        ready: list[tuple[dict[str, Any], Settings, pd.DataFrame | None, str, str]] = []
        for combo in retrieval_combos:
            try:
                base = _overrides(settings, combo)
                if client is None or is_cached(base, grid.sets, grid.split):
                    counts["client"] += 1
                    rows = evaluate(base, grid.sets, grid.split)
                    ready.append((combo, base, rows, "client", ""))
                else:
                    counts["workers"] += 1
                    future = client.submit(evaluate, base, grid.sets, grid.split,
                                           key=_evaluation_name(base, grid),
                                           retries=executor.retries)
                    futures[future] = (combo, base)
            except Exception as exc:  # noqa: BLE001 - a failed cell is a row, not a failed sweep
                ready.append((combo, settings, None, "client", f"{type(exc).__name__}: {exc}"))
        for combo, base, rows, where, error in ready:
            _cells(grid, combo, base, rows, where, error, results, bar, table)
        if client is not None and futures:
            from distributed import as_completed

            for future in as_completed(list(futures), loop=client.loop):
                combo, base = futures[future]
                try:
                    rows, error = future.result(), ""
                except Exception as exc:  # noqa: BLE001 - the cell records its failure
                    rows, error = None, f"{type(exc).__name__}: {exc}"
                _cells(grid, combo, base, rows, "workers", error, results, bar, table)


def _cells(grid: SweepGrid, combo: dict[str, Any], base: Settings, rows: pd.DataFrame | None,
           where: str, error: str, results: Path | None, bar: Any,
           out: list[dict[str, Any]]) -> None:
    """The rows (and run records) of every re-slice cell of one evaluation, into ``out``."""
    axes = list(grid.reslice)
    if grid.threshold_points:
        axes.append(("gates.threshold",
                     score_thresholds(rows, grid.threshold_points) if rows is not None else (None,)))
    retrieval_index = _retrieval_index(grid, combo)
    for n, values in enumerate(itertools.product(*[v for _, v in axes])):
        cell = dict(zip([k for k, _ in axes], values, strict=True))
        row: dict[str, Any] = {"cell": retrieval_index * 1_000_000 + n, "status": "ok",
                               "error": error, "evaluated_on": where,
                               **{k: _cell_value(v) for k, v in {**combo, **cell}.items()},
                               **dict.fromkeys(METRICS, None), "run": ""}
        if rows is None:
            row["status"] = "failed"
        else:
            try:
                cell_settings = _overrides(base, {k: v for k, v in cell.items() if v is not None})
                figures, per_question = cell_metrics(rows, cell_settings, grid.keys)
                run = record_run("sweep-cell", per_question, settings=cell_settings,
                                 results_dir=results, summary=figures,
                                 extra={"sweep": grid.name,
                                        "cell": {k: _cell_value(v)
                                                 for k, v in {**combo, **cell}.items()}})
            except Exception as exc:  # noqa: BLE001 - the cell records its failure
                row.update(status="failed", error=f"{type(exc).__name__}: {exc}")
            else:
                row.update(figures, run=str(run))
        out.append(row)
        bar.update(1)


def sweep_curves(settings: Settings, grid: SweepGrid, *,
                 splits: Sequence[str | None] = ("dev", "test"),
                 evaluate: Evaluate = evaluate_rows) -> pd.DataFrame:
    """The grid's cells on each split, computed here and written nowhere: a notebook's view.

    Each retrieval combination is evaluated once over every question of ``grid.sets`` (read back
    when that evaluation is cached, as the lab's gate run is), and each split is a filter of its
    rows, so a second split costs no retrieval. The thresholds of a ``threshold_points`` grid
    come from the scores of ``grid.split`` (every question when it is None) and cut every split
    at the same points: a threshold is chosen on one split and read on another. An evaluation
    that fails marks its cells ``failed`` with the error, as in :func:`run_sweep`.

    Args:
        settings: The base settings every cell starts from.
        grid: The axes (:func:`load_grid`).
        splits: The splits to slice (None: every question).
        evaluate: Computes (or reads back) an evaluation's rows.

    Returns:
        One row per split and cell: ``split``, status, error, each axis and :data:`METRICS`.
    """
    records: list[dict[str, Any]] = []
    retrieval_keys = [k for k, _ in grid.retrieval]
    for values in itertools.product(*[v for _, v in grid.retrieval]):
        combo = dict(zip(retrieval_keys, values, strict=True))
        try:
            base = _overrides(settings, combo)
            rows: pd.DataFrame | None = evaluate(base, grid.sets, None)
            error = ""
        except Exception as exc:  # noqa: BLE001 - a failed evaluation is a row, not a failure
            base, rows, error = settings, None, f"{type(exc).__name__}: {exc}"
        axes = list(grid.reslice)
        if grid.threshold_points:
            source = (rows if rows is None or grid.split is None
                      else rows[rows["split"] == grid.split])
            axes.append(("gates.threshold", score_thresholds(source, grid.threshold_points)
                         if source is not None else (None,)))
        for split in splits:
            part = rows if rows is None or split is None else rows[rows["split"] == split]
            for cell_values in itertools.product(*[v for _, v in axes]):
                cell = dict(zip([k for k, _ in axes], cell_values, strict=True))
                row: dict[str, Any] = {"split": split, "status": "ok", "error": error,
                                       **{k: _cell_value(v) for k, v in {**combo, **cell}.items()},
                                       **dict.fromkeys(METRICS, None)}
                if part is None:
                    row["status"] = "failed"
                else:
                    cell_settings = _overrides(base, {k: v for k, v in cell.items()
                                                      if v is not None})
                    row.update(cell_metrics(part.reset_index(drop=True), cell_settings,
                                            grid.keys)[0])
                records.append(row)
    return pd.DataFrame.from_records(records)


def chosen_cells(table: pd.DataFrame, split: str = "dev", by: str = "reranker.mode"
                 ) -> pd.DataFrame:
    """The cell each value of ``by`` would choose on ``split``: the best calibration score.

    The criterion of :func:`~workbench.studies.calibrate_gates`
    (:func:`~workbench.studies.calibration_score`): each kind of question weighs the same however
    many there are and a wrong answer costs what a right one earns; ties go to fewer false
    answers, then to the higher (stricter) threshold.
    """
    done = table[(table["status"] == "ok") & (table["split"] == split)].copy()
    hasans_n = done["hasans_n"].clip(lower=1)
    hasans_wrong = (done["hasans_answered"] - done["hasans_correct"]) / hasans_n
    done["score"] = [calibration_score(c, w, r) for c, w, r in zip(
        done["hasans_correct_share"], hasans_wrong, done["noans_refused_share"], strict=True)]
    keys = ["score", "false_answers", *(["gates.threshold"] if "gates.threshold" in done else [])]
    ranked = done.sort_values(keys, ascending=[False, True, False][:len(keys)], kind="stable")
    return ranked.groupby(by, sort=False).head(1).reset_index(drop=True)


def _retrieval_index(grid: SweepGrid, combo: Mapping[str, Any]) -> int:
    """The position of a retrieval combination in the grid's product: keeps the table in order."""
    index = 0
    for key, values in grid.retrieval:
        index = index * len(values) + values.index(combo[key])
    return index
