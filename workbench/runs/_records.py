"""Run records: one folder per run under ``results/``, written atomically, read back as frames.

A run folder holds ``manifest.json`` (the kind of run, the resolved settings, digests of what it
ran on, versions, the git commit, a summary) and ``rows.parquet`` (one row per item). It is
written in a temporary folder and renamed into place, so a killed run never leaves half a record.
"""

from __future__ import annotations

import contextlib
import contextvars
import json
import os
import platform
import shutil
import subprocess
import uuid
import warnings
from collections.abc import Collection, Iterable, Iterator, Mapping
from dataclasses import dataclass
from datetime import UTC, datetime
from importlib import metadata
from pathlib import Path
from typing import Any

import pandas as pd

from workbench import __version__
from workbench.config import Settings
from workbench.errors import WorkbenchError


class RunRecordError(WorkbenchError):
    """A run folder that is missing, incomplete or damaged."""


class DamagedRunError(RunRecordError):
    """A file of a run record that is missing or cannot be read; the message names the file."""

    def __init__(self, path: Path, why: str) -> None:
        super().__init__(f"{path} {why}; the run record is damaged: run it again, or remove "
                         f"{path.parent} from the results folder")
        self.path = path
        """The file that could not be read."""
        self.why = why
        """What is wrong with it, without the file name."""


class DamagedRunWarning(UserWarning):
    """A loader over many runs skipped a damaged run record (it names the folder and why)."""


@dataclass(frozen=True)
class SkippedRun:
    """A run folder that a loader over many runs left out."""

    folder: Path
    """The run's folder."""
    reason: str
    """Why, in one line that names the damaged file."""


MANIFEST = "manifest.json"
"""The file name of a run's manifest."""
ROWS = "rows.parquet"
"""The file name of a run's rows."""

_MANIFEST_FIELDS: dict[str, tuple[bool, tuple[type, ...], str]] = {
    "kind": (True, (str,), "a string"),
    "run_id": (False, (str,), "a string"),
    "summary": (False, (dict, type(None)), "an object"),
    "settings": (False, (dict, type(None)), "an object"),
    "digests": (False, (dict, type(None)), "an object"),
    "models": (False, (dict, type(None)), "an object"),
}
"""Manifest field -> (required, accepted JSON types, their name): what the loaders rely on."""

_JSON_TYPES: dict[type, str] = {list: "an array", str: "a string", int: "a number",
                                float: "a number", bool: "a boolean", type(None): "null",
                                dict: "an object"}


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


_PACKAGES: dict[str, tuple[str, ...]] = {
    "numpy": ("numpy",), "pandas": ("pandas",), "torch": ("torch",),
    "transformers": ("transformers",), "sentence_transformers": ("sentence-transformers",),
    "faiss": ("faiss-cpu", "faiss-gpu", "faiss"), "bm25s": ("bm25s",), "plotly": ("plotly",),
}
"""Name in the manifest -> distributions that provide it (the first one installed is recorded)."""


def _versions() -> dict[str, str]:
    # Read from the installed distributions: importing torch just for its version costs seconds.
    versions = {"workbench": __version__, "python": platform.python_version()}
    for name, distributions in _PACKAGES.items():
        for distribution in distributions:
            try:
                versions[name] = metadata.version(distribution)
            except metadata.PackageNotFoundError:
                continue
            break
    return versions


def new_run_id(kind: str) -> str:
    """``<kind>-<UTC time>-<6 hex>``: sortable by time and unique."""
    stamp = datetime.now(UTC).strftime("%Y%m%dT%H%M%S")
    return f"{kind}-{stamp}-{uuid.uuid4().hex[:6]}"


SUITES = "suites"
"""The folder under the results folder that holds one marker per complete suite."""

_SUITE: contextvars.ContextVar[str | None] = contextvars.ContextVar("workbench_suite", default=None)


def new_suite_id(kind: str = "demo") -> str:
    """``<kind>-<UTC time>-<6 hex>``: the id one ``workbench demo`` gives all its runs."""
    return new_run_id(kind)


def current_suite() -> str | None:
    """The suite the runs written now belong to, or ``None`` outside :func:`suite`."""
    return _SUITE.get()


@contextlib.contextmanager
def suite(suite_id: str) -> Iterator[str]:
    """Every run written inside this block names ``suite_id`` in its manifest (``suite``).

    The runs of one ``workbench demo`` are one suite, so the report can be built from exactly
    those runs rather than from whatever ran last.
    """
    token = _SUITE.set(suite_id)
    try:
        yield suite_id
    finally:
        _SUITE.reset(token)


def mark_suite_complete(suite_id: str, results_dir: str | os.PathLike[str],
                        kind: str = "demo") -> Path:
    """Write ``<results>/suites/<suite_id>.json``: the suite ran to its end. Returns its path.

    It lists the suite's run ids; it is written atomically, so a suite killed halfway has no
    marker and is never taken for complete.
    """
    root = Path(results_dir)
    runs = [str(m["run_id"]) for m in _scan(root)[0] if m.get("suite") == suite_id]
    folder = root / SUITES
    folder.mkdir(parents=True, exist_ok=True)
    path = folder / f"{suite_id}.json"
    staging = folder / f".{suite_id}.partial"
    staging.write_text(json.dumps({
        "suite": suite_id, "kind": kind,
        "completed_at": datetime.now(UTC).isoformat(timespec="milliseconds"), "runs": runs},
        ensure_ascii=False, indent=1), encoding="utf-8")
    os.replace(staging, path)
    return path


def complete_suites(results_dir: str | os.PathLike[str] = "results",
                    kind: str | None = "demo") -> list[dict[str, Any]]:
    """The markers of every complete suite (of ``kind``; any with ``None``), oldest first."""
    folder = Path(results_dir) / SUITES
    markers = []
    for path in sorted(folder.glob("*.json")) if folder.is_dir() else []:
        try:
            marker = json.loads(path.read_text(encoding="utf-8"))
        except (OSError, ValueError):
            continue  # a damaged marker does not make its suite complete
        if isinstance(marker, dict) and marker.get("suite") and (
                kind is None or marker.get("kind") == kind):
            markers.append(marker)
    return sorted(markers, key=lambda m: (str(m.get("completed_at")), str(m["suite"])))


def latest_suite(results_dir: str | os.PathLike[str] = "results",
                 kind: str | None = "demo") -> str | None:
    """The id of the newest complete suite (default: of ``workbench demo``), or ``None``."""
    markers = complete_suites(results_dir, kind)
    return str(markers[-1]["suite"]) if markers else None


def write_run(kind: str, rows: pd.DataFrame, *, settings: Settings | None = None,
              digests: Mapping[str, str | None] | None = None,
              summary: Mapping[str, Any] | None = None,
              extra: Mapping[str, Any] | None = None, results_dir: Path | None = None,
              models: Mapping[str, Any] | None = None,
              digest_problems: Mapping[str, str] | None = None) -> Path:
    """Write a run record and return its folder.

    This floor knows nothing of what a run ran on: the caller passes the digests and model ids
    (:func:`workbench.studies.record_run` computes the standard ones from the settings).

    Args:
        kind: The kind of run (``gates``, ``answers``, ``routers``, ``drift``, ...).
        rows: One row per item.
        settings: The resolved settings the run used.
        digests: Further digests (e.g. ``corpus_at_index``), or ones the caller already has.
        summary: The run's headline figures.
        extra: Further top-level manifest fields (e.g. ``order``, ``mode``).
        results_dir: Where run folders go (default ``[paths].results``, else ``results``).
        models: Further model ids (e.g. every router's folder and digest).
        digest_problems: Why a digest could not be computed, by name.

    Returns:
        The run's folder, ``<results>/<kind>-<UTC time>-<6 hex>``.
    """
    root = Path(results_dir) if results_dir is not None else (
        settings.paths.results if settings is not None else Path("results"))
    root.mkdir(parents=True, exist_ok=True)
    run_id = new_run_id(kind)
    all_digests = dict(digests or {})
    all_models = dict(models or {})
    problems = dict(digest_problems or {})
    manifest = {
        "run_id": run_id,
        "kind": kind,
        # milliseconds: two runs of one second (a cached step run twice) still sort by time
        "created_at": datetime.now(UTC).isoformat(timespec="milliseconds"),
        "settings": settings.to_dict() if settings is not None else None,
        "digests": all_digests,
        "models": all_models,
        "versions": _versions(),
        "git_commit": _git_commit(Path(__file__).resolve().parent),
        "summary": dict(summary or {}),
        "rows": len(rows),
        **({"suite": _SUITE.get()} if _SUITE.get() else {}),
        **({"digest_problems": problems} if problems else {}),
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


def _read_manifest(folder: Path) -> dict[str, Any]:
    """The manifest of ``folder``, checked for the fields the loaders rely on.

    Raises:
        DamagedRunError: It is missing, not UTF-8, not JSON, not an object, or a field that the
            loaders read is missing or of the wrong type.
    """
    path = folder / MANIFEST
    if not path.is_file():
        raise DamagedRunError(path, "is missing")
    try:
        text = path.read_bytes().decode("utf-8")
    except UnicodeDecodeError as exc:
        raise DamagedRunError(path, f"is not UTF-8 text (byte {exc.start})") from exc
    except OSError as exc:
        raise DamagedRunError(path, f"cannot be read ({exc.strerror or exc})") from exc
    try:
        manifest = json.loads(text)
    except json.JSONDecodeError as exc:
        raise DamagedRunError(path, f"is not JSON ({exc.msg} at line {exc.lineno} column "
                                    f"{exc.colno})") from exc
    if not isinstance(manifest, dict):
        raise DamagedRunError(path, f"holds {_JSON_TYPES.get(type(manifest), 'a value')}, "
                                    "not a JSON object")
    for name, (required, types, wanted) in _MANIFEST_FIELDS.items():
        if name not in manifest:
            if required:
                raise DamagedRunError(path, f"lacks the field {name!r}")
            continue
        if not isinstance(manifest[name], types):
            found = _JSON_TYPES.get(type(manifest[name]), "a value")
            raise DamagedRunError(path, f"has {name!r} as {found}, not {wanted}")
    return manifest


def _rows_problem(path: Path, exc: BaseException) -> DamagedRunError:
    """What is wrong with a rows file that pyarrow could not read, in the words of the table."""
    if path.stat().st_size == 0:
        return DamagedRunError(path, "is empty (0 bytes)")
    detail = str(exc).splitlines()[0] if str(exc) else type(exc).__name__
    return DamagedRunError(path, f"is not a readable parquet table, cut short or damaged ({detail})")


def _check_rows(folder: Path) -> None:
    """Read only the footer of ``rows.parquet``: enough to catch a missing, empty or cut file.

    Raises:
        DamagedRunError: The footer cannot be read.
    """
    import pyarrow
    import pyarrow.parquet

    path = folder / ROWS
    if not path.is_file():
        raise DamagedRunError(path, "is missing")
    try:
        pyarrow.parquet.read_metadata(path)
    except (OSError, ValueError, pyarrow.ArrowException) as exc:
        raise _rows_problem(path, exc) from exc


def _read_rows(folder: Path) -> pd.DataFrame:
    """The rows of ``folder``.

    Raises:
        DamagedRunError: ``rows.parquet`` is missing, empty, cut short or otherwise unreadable.
    """
    import pyarrow

    path = folder / ROWS
    _check_rows(folder)
    try:
        return pd.read_parquet(path)
    except (OSError, ValueError, pyarrow.ArrowException) as exc:
        # a sound footer over damaged pages: the pages are read only here
        raise _rows_problem(path, exc) from exc


def load_run(folder: str | os.PathLike[str]) -> RunRecord:
    """Read one run folder.

    Raises:
        RunRecordError: ``folder`` is not a folder.
        DamagedRunError: Its manifest or its rows are missing or cannot be read.
    """
    path = Path(folder)
    if not path.is_dir():
        raise RunRecordError(f"{path} is not a run folder (one holds {MANIFEST} + {ROWS})")
    manifest = _read_manifest(path)
    return RunRecord(folder=path, manifest=manifest, rows=_read_rows(path))


def resolve_run(run: RunRecord | str | os.PathLike[str],
                results_dir: str | os.PathLike[str] = "results") -> RunRecord:
    """A run given as a record, a folder, or a run id under ``results_dir``."""
    if isinstance(run, RunRecord):
        return run
    path = Path(run)
    if not path.is_dir() and (Path(results_dir) / path).is_dir():
        path = Path(results_dir) / path
    if not path.is_dir():
        raise RunRecordError(f"no run {str(run)!r}: neither a folder nor a run id under "
                             f"{results_dir} (`workbench runs list` shows them)")
    return load_run(path)


def _scan(root: Path) -> tuple[list[dict[str, Any]], list[SkippedRun]]:
    """Every sound run's manifest under ``root``, oldest first (by time, then id), and the rest.

    A folder counts as a run record when it holds a manifest or rows; one whose manifest or
    rows footer cannot be read is left out and reported. Dot folders are runs still being
    written (``write_run`` stages there), so they are not looked at.
    """
    manifests = []
    skipped = []
    folders = sorted(p for p in root.iterdir() if p.is_dir()) if root.is_dir() else []
    for folder in folders:
        if folder.name.startswith(".") or not (
                (folder / MANIFEST).exists() or (folder / ROWS).exists()):
            continue
        try:
            manifest = _read_manifest(folder)
            _check_rows(folder)
        except DamagedRunError as exc:
            skipped.append(SkippedRun(folder=folder, reason=f"{exc.path.name} {exc.why}"))
            continue
        manifest.setdefault("run_id", folder.name)
        manifest["_folder"] = folder
        manifests.append(manifest)
    return sorted(manifests, key=lambda m: (_created(m), str(m["run_id"]))), skipped


def _manifests(root: Path) -> list[dict[str, Any]]:
    """:func:`_scan` for the loaders that return records: each skipped run is a warning."""
    manifests, skipped = _scan(root)
    _warn(skipped)
    return manifests


def _warn(skipped: Iterable[SkippedRun], stacklevel: int = 4) -> None:
    """One warning per skipped run; ``stacklevel`` points it at the caller of the public loader."""
    for run in skipped:
        warnings.warn(f"skipped {run.folder}: {run.reason}", DamagedRunWarning,
                      stacklevel=stacklevel)


def _created(manifest: Mapping[str, Any]) -> datetime:
    """When a run was written (the earliest possible time when the manifest does not say)."""
    try:
        stamp = datetime.fromisoformat(str(manifest.get("created_at")))
    except ValueError:
        return datetime.min.replace(tzinfo=UTC)
    return stamp if stamp.tzinfo else stamp.replace(tzinfo=UTC)


LISTED: tuple[str, ...] = ("suite", "corpus", "index", "mode", "split", "sets")
"""What a listing says of each run beyond its id, kind and time: the suite it belongs to, the
corpus and index digests it ran on, the rerank mode, the split and the question or task sets."""


@dataclass(frozen=True)
class RunListing:
    """The run records under a results folder: the sound ones as a frame, the damaged ones apart."""

    runs: pd.DataFrame
    """One row per sound run, oldest first (the columns of :func:`runs_df`)."""
    skipped: tuple[SkippedRun, ...]
    """The run folders left out because their manifest or rows cannot be read."""


def scan_runs(results_dir: str | os.PathLike[str] = "results", kind: str | None = None) -> RunListing:
    """Every run under ``results_dir``: the sound ones as :func:`runs_df` gives them, and the skipped.

    A damaged record (a manifest that is not a JSON object with a ``kind``, a rows file that is
    missing, empty or cut short) does not stop the listing; it is returned in ``skipped``.

    Args:
        results_dir: The folder that holds the run folders.
        kind: Only runs of this kind (damaged runs are reported whatever their kind).
    """
    manifests, skipped = _scan(Path(results_dir))
    records = []
    for manifest in manifests:
        if kind is not None and manifest.get("kind") != kind:
            continue
        records.append({
            "run_id": manifest["run_id"],
            "kind": manifest.get("kind"),
            "created_at": manifest.get("created_at"),
            "git_commit": manifest.get("git_commit"),
            "rows": manifest.get("rows"),
            "suite": manifest.get("suite"),
            "corpus": (manifest.get("digests") or {}).get("corpus"),
            "index": (manifest.get("digests") or {}).get("index"),
            "mode": manifest.get("mode"),
            "split": manifest.get("split"),
            "sets": ",".join(manifest.get("tasksets") or manifest.get("sets") or []) or None,
            **{f"summary.{k}": v for k, v in (manifest.get("summary") or {}).items()},
        })
    frame = pd.DataFrame.from_records(
        records, columns=None if records else ["run_id", "kind", "created_at", "git_commit", "rows",
                                               *LISTED])
    return RunListing(runs=frame, skipped=tuple(skipped))


def runs_df(results_dir: str | os.PathLike[str] = "results", kind: str | None = None) -> pd.DataFrame:
    """One row per sound run under ``results_dir``, oldest first.

    Columns: id, kind, time, commit, rows, and one ``summary.<key>`` column per summary figure.
    A damaged run record is left out with a :class:`DamagedRunWarning` that names it;
    :func:`scan_runs` returns those apart instead.

    Args:
        results_dir: The folder that holds the run folders.
        kind: Only runs of this kind.
    """
    listing = scan_runs(results_dir, kind)
    _warn(listing.skipped, stacklevel=3)
    return listing.runs


def latest_run(kind: str, results_dir: str | os.PathLike[str] = "results",
               where: Mapping[str, Any] | None = None,
               among: Collection[str] | None = None) -> RunRecord | None:
    """The newest sound run of ``kind``, or ``None`` when there is none.

    A damaged run record is passed over with a :class:`DamagedRunWarning`, so an older sound
    run of the kind is returned instead.

    Args:
        kind: The kind of run.
        results_dir: The folder that holds the run folders.
        where: Top-level manifest fields the run must have, e.g. ``{"mode": "cross-encoder"}``
            or ``{"suite": "demo-..."}``.
        among: Only these run ids.
    """
    for manifest in reversed(_manifests(Path(results_dir))):
        if manifest.get("kind") != kind or (among is not None and manifest["run_id"] not in among):
            continue
        if where and any(manifest.get(k) != v for k, v in where.items()):
            continue
        record = _load_or_warn(manifest["_folder"])
        if record is not None:
            return record
    return None


def _load_or_warn(folder: Path) -> RunRecord | None:
    """The run in ``folder``, or ``None`` with a warning when its pages are damaged.

    The scan read only the footers, so a damaged page shows up here, when the rows are read.
    """
    try:
        return load_run(folder)
    except DamagedRunError as exc:
        _warn([SkippedRun(folder=folder, reason=f"{exc.path.name} {exc.why}")])
        return None


def latest_runs(kind: str, by: str, results_dir: str | os.PathLike[str] = "results",
                where: Mapping[str, Any] | None = None, among: Collection[str] | None = None
                ) -> dict[Any, RunRecord]:
    """The newest sound run of ``kind`` for each value of the manifest field ``by``.

    For example ``latest_runs("gates", "mode")`` gives the newest gate run of each rerank mode.
    Runs without the field are grouped under ``None``. Values come out in sorted order.

    Args:
        kind: The kind of run.
        by: A top-level manifest field.
        results_dir: The folder that holds the run folders.
        where: Top-level manifest fields the runs must have (e.g. ``{"suite": ...}``).
        among: Only these run ids.
    """
    newest: dict[Any, RunRecord] = {}
    for manifest in reversed(_manifests(Path(results_dir))):
        value = manifest.get(by)
        if manifest.get("kind") != kind or value in newest:
            continue
        if where and any(manifest.get(k) != v for k, v in where.items()):
            continue
        if among is not None and manifest["run_id"] not in among:
            continue  # newest first, so the first sound run of each value wins
        record = _load_or_warn(manifest["_folder"])
        if record is not None:
            newest[value] = record
    return {value: newest[value] for value in sorted(newest, key=lambda v: (v is None, str(v)))}
