"""Run records: one folder per run under ``results/``, written atomically, read back as frames.

A run folder holds ``manifest.json`` (the kind of run, the resolved settings, digests of what it
ran on, versions, the git commit, a summary) and ``rows.parquet`` (one row per item). It is
written in a temporary folder and renamed into place, so a killed run never leaves half a record.
"""

from __future__ import annotations

import json
import os
import platform
import shutil
import subprocess
import uuid
from collections.abc import Mapping
from dataclasses import dataclass
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

import pandas as pd

from workbench import __version__
from workbench.config import Settings
from workbench.errors import WorkbenchError


class RunRecordError(WorkbenchError):
    """A run folder that is missing or incomplete."""


@dataclass(frozen=True)
class RunRecord:
    """A run read back from disk."""

    folder: Path
    """The run's folder."""
    manifest: dict[str, Any]
    """What the run was: kind, settings, digests, versions, summary."""
    rows: pd.DataFrame
    """One row per item."""

    @property
    def run_id(self) -> str:
        """The folder name."""
        return self.folder.name


def _git_commit(cwd: Path) -> str | None:
    try:
        out = subprocess.run(["git", "rev-parse", "HEAD"], cwd=cwd, capture_output=True,
                             text=True, timeout=5, check=False)
    except (OSError, subprocess.SubprocessError):
        return None
    return out.stdout.strip() or None


def _versions() -> dict[str, str]:
    versions = {"workbench": __version__, "python": platform.python_version()}
    for name in ("numpy", "pandas", "torch", "transformers", "sentence_transformers", "faiss",
                 "bm25s"):
        try:
            module = __import__(name)
        except ImportError:
            continue
        versions[name] = str(getattr(module, "__version__", "?"))
    return versions


def new_run_id(kind: str) -> str:
    """``<kind>-<UTC time>-<6 hex>``: sortable by time and unique."""
    stamp = datetime.now(UTC).strftime("%Y%m%dT%H%M%S")
    return f"{kind}-{stamp}-{uuid.uuid4().hex[:6]}"


def write_run(kind: str, rows: pd.DataFrame, *, settings: Settings | None = None,
              digests: Mapping[str, str] | None = None, summary: Mapping[str, Any] | None = None,
              extra: Mapping[str, Any] | None = None, results_dir: Path | None = None) -> Path:
    """Write a run record and return its folder."""
    root = Path(results_dir) if results_dir is not None else (
        settings.paths.results if settings is not None else Path("results"))
    root.mkdir(parents=True, exist_ok=True)
    run_id = new_run_id(kind)
    manifest = {
        "run_id": run_id,
        "kind": kind,
        "created_at": datetime.now(UTC).isoformat(timespec="seconds"),
        "settings": settings.to_dict() if settings is not None else None,
        "digests": dict(digests or {}),
        "versions": _versions(),
        "git_commit": _git_commit(Path(__file__).resolve().parent),
        "summary": dict(summary or {}),
        "rows": len(rows),
        **dict(extra or {}),
    }
    staging = root / f".{run_id}.partial"
    staging.mkdir()
    try:
        table = rows.copy(deep=False)
        table.attrs = {}  # in-memory extras (e.g. a summary object) belong in the manifest
        table.to_parquet(staging / "rows.parquet", index=False)
        (staging / "manifest.json").write_text(
            json.dumps(manifest, ensure_ascii=False, indent=1, default=str), encoding="utf-8")
        final = root / run_id
        os.replace(staging, final)
    except BaseException:
        shutil.rmtree(staging, ignore_errors=True)
        raise
    return final


def load_run(folder: str | os.PathLike[str]) -> RunRecord:
    """Read one run folder."""
    path = Path(folder)
    manifest_file = path / "manifest.json"
    rows_file = path / "rows.parquet"
    if not manifest_file.is_file() or not rows_file.is_file():
        raise RunRecordError(f"{path} is not a complete run record (manifest.json + rows.parquet)")
    manifest = json.loads(manifest_file.read_text(encoding="utf-8"))
    return RunRecord(folder=path, manifest=manifest, rows=pd.read_parquet(rows_file))


def runs_df(results_dir: str | os.PathLike[str] = "results") -> pd.DataFrame:
    """One row per complete run under ``results_dir``: id, kind, time, commit, rows, summary."""
    root = Path(results_dir)
    records = []
    for manifest_file in sorted(root.glob("*/manifest.json")):
        manifest = json.loads(manifest_file.read_text(encoding="utf-8"))
        records.append({
            "run_id": manifest.get("run_id", manifest_file.parent.name),
            "kind": manifest.get("kind"),
            "created_at": manifest.get("created_at"),
            "git_commit": manifest.get("git_commit"),
            "rows": manifest.get("rows"),
            **{f"summary.{k}": v for k, v in (manifest.get("summary") or {}).items()},
        })
    return pd.DataFrame.from_records(records)
