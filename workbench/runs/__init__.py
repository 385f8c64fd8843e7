"""Run records under ``results/``: atomic writes, loaders that return DataFrames, run diffs."""

from workbench.runs._diff import DIFF_KINDS, FLIP_COLUMNS, DiffKind, RunDiff, Verdicts, diff_runs
from workbench.runs._records import (
    RunRecord,
    RunRecordError,
    folder_digest,
    latest_run,
    latest_runs,
    load_run,
    resolve_run,
    runs_df,
    write_run,
)

__all__ = [
    "DIFF_KINDS",
    "FLIP_COLUMNS",
    "DiffKind",
    "RunDiff",
    "RunRecord",
    "RunRecordError",
    "Verdicts",
    "diff_runs",
    "folder_digest",
    "latest_run",
    "latest_runs",
    "load_run",
    "resolve_run",
    "runs_df",
    "write_run",
]
