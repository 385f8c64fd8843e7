"""Run records under ``results/``: atomic writes, loaders that return DataFrames, run diffs."""

from workbench.runs._records import (
    DamagedRunError,
    DamagedRunWarning,
    RunListing,
    RunRecord,
    RunRecordError,
    SkippedRun,
    latest_run,
    latest_runs,
    load_run,
    resolve_run,
    runs_df,
    scan_runs,
    write_run,
)

__all__ = [
    "DamagedRunError",
    "DamagedRunWarning",
    "RunListing",
    "RunRecord",
    "RunRecordError",
    "SkippedRun",
    "latest_run",
    "latest_runs",
    "load_run",
    "resolve_run",
    "runs_df",
    "scan_runs",
    "write_run",
]
