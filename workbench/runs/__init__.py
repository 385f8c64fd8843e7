"""Run records under ``results/``: atomic writes, loaders that return DataFrames, run diffs."""

from workbench.runs._diff import DIFF_KINDS, FLIP_COLUMNS, DiffKind, RunDiff, Verdicts, diff_runs
from workbench.runs._records import (
    DamagedRunError,
    DamagedRunWarning,
    RunListing,
    RunRecord,
    RunRecordError,
    SkippedRun,
    folder_digest,
    latest_run,
    latest_runs,
    load_run,
    resolve_run,
    runs_df,
    scan_runs,
    write_run,
)

__all__ = [
    "DIFF_KINDS",
    "FLIP_COLUMNS",
    "DamagedRunError",
    "DamagedRunWarning",
    "DiffKind",
    "RunDiff",
    "RunListing",
    "RunRecord",
    "RunRecordError",
    "SkippedRun",
    "Verdicts",
    "diff_runs",
    "folder_digest",
    "latest_run",
    "latest_runs",
    "load_run",
    "resolve_run",
    "runs_df",
    "scan_runs",
    "write_run",
]
