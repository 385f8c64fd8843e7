"""Run records under ``results/``: atomic writes, loaders that return DataFrames."""

from workbench.runs._records import RunRecord, RunRecordError, load_run, runs_df, write_run

__all__ = ["RunRecord", "RunRecordError", "load_run", "runs_df", "write_run"]
