"""Which run records a report is built from, how it names their splits, and how to make the rest.

A report is built from one *complete set* of runs:

- the runs named on the command line (``--runs``), or the runs of a named suite (``--suite``);
- else the latest complete ``workbench demo`` suite (a suite with its completion marker);
- else, on a project of one's own where no demo ran, the latest run of each study **on the same
  data**: the newest run that names its data (a gate or answers run: the index digest and the
  question files with their sha256) is the anchor, and a run of any other study joins the set only
  when the index it ran on and the question files it read are the anchor's, where it records them.

So a report never mixes an evaluation of one index or question file with the study of another,
and a section whose study has no run in the set gives the command that runs it on this project.
"""

from __future__ import annotations

import json
import os
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pandas as pd

from workbench.errors import WorkbenchError
from workbench.report._html import esc
from workbench.runs import RunRecord, latest_run, latest_runs, latest_suite, scan_runs


class ReportError(WorkbenchError):
    """The report cannot be written (e.g. the results folder is not a folder)."""


ANCHOR_KINDS: tuple[str, ...] = ("gates", "answers")
"""Kinds of run whose data (index and question files) a set of runs is matched to."""


@dataclass(frozen=True)
class RunData:
    """What a run ran on, as its manifest records it: the index and the question files."""

    index: str | None
    """The index digest (``digests.index``), if recorded."""
    questions: tuple[tuple[str, str], ...]
    """``(path, sha256)`` of each question file read, in order; empty if none recorded."""

    @classmethod
    def of(cls, manifest: Mapping[str, Any]) -> RunData:
        """The data a manifest names."""
        index = (manifest.get("digests") or {}).get("index")
        files = manifest.get("questions") or []
        return cls(index=str(index) if index else None,
                   questions=tuple((str(q.get("path", "")), str(q.get("sha256", "")))
                                   for q in files if isinstance(q, Mapping)))

    def matches(self, other: RunData) -> bool:
        """Whether two runs ran on the same data, as far as both record it."""
        same_index = self.index is None or other.index is None or self.index == other.index
        same_files = not self.questions or not other.questions or self.questions == other.questions
        return same_index and same_files


@dataclass(frozen=True)
class ReportScope:
    """Which run records a report is built from: one suite, named runs, or one project's data."""

    root: Path
    """The results folder."""
    suite: str | None = None
    """Only the runs of this suite (the manifest's ``suite``)."""
    among: frozenset[str] | None = None
    """Only these run ids."""
    anchor: str | None = None
    """The run whose data the set was matched to (a set of one's own, without a suite)."""
    data: RunData | None = None
    """The anchor's data: index digest and question files."""
    named: bool = False
    """Whether ``among`` are the runs named on the command line."""

    def run(self, kind: str) -> RunRecord | None:
        """The newest run of ``kind`` in scope."""
        return latest_run(kind, self.root, where=self._where(), among=self.among)

    def runs(self, kind: str, by: str) -> dict[Any, RunRecord]:
        """The newest run of ``kind`` in scope for each value of the manifest field ``by``."""
        return latest_runs(kind, by, self.root, where=self._where(), among=self.among)

    def runs_with_split(self, kind: str, by: str, split: str) -> dict[Any, RunRecord]:
        """Per value of ``by``, the newest run of ``kind`` in scope whose rows hold ``split``.

        A run recorded with another split is passed over; the rows of the rest are checked.
        """
        listing = scan_runs(self.root, kind).runs if self.root.is_dir() else pd.DataFrame()
        if listing.empty:
            return {}
        keep = listing["split"].isna() | listing["split"].eq(split)
        if self.suite:
            keep &= listing["suite"].eq(self.suite)
        if self.among is not None:
            keep &= listing["run_id"].isin(self.among)
        found: dict[Any, RunRecord] = {}
        candidates = set(listing.loc[keep, "run_id"])
        while candidates:
            newest = latest_runs(kind, by, self.root, among=candidates)
            for value, record in newest.items():
                candidates.discard(record.run_id)
                if value not in found and "split" in record.rows.columns and (
                        record.rows["split"] == split).any():
                    found[value] = record
            if not newest:
                break
        return {v: found[v] for v in sorted(found, key=lambda v: (v is None, str(v)))}

    def _where(self) -> dict[str, Any] | None:
        return {"suite": self.suite} if self.suite else None

    @property
    def question_files(self) -> tuple[str, ...]:
        """The question files of the set's anchor (paths as recorded), if any."""
        return tuple(path for path, _ in self.data.questions) if self.data else ()

    def command(self, study: str) -> str:
        """The command that makes a run of ``study`` for this report's data.

        A demo suite is remade by ``workbench demo``; a project of one's own gets the verb that
        runs that one study on its own settings and question files.
        """
        if self.suite and not self.named:
            return "workbench demo"
        files = " ".join(_shown_path(p) for p in self.question_files)
        gates = "workbench eval gates" + (f" --questions {files}" if files else "")
        commands = {
            "gates": gates, "answers": gates, "selection": gates,
            "ablation": gates + " --split dev",
            "e2e": "workbench eval e2e",
            "routers": "workbench eval routers rule span",
            "heldout": "workbench demo  (the held-out rounds are scored by the demo)",
            "drift": "workbench audit drift",
            "fts": "workbench demo  (the specifications' run is written by the demo only)",
            "negative_control": "workbench negative-control",
            "sweep": "workbench sweep GRID.toml  (e.g. sweeps/threshold_per_mode.toml)",
        }
        return commands.get(study, "workbench demo")

    def describe(self) -> str:
        """What the page is built from, as the header says it (HTML)."""
        if self.named and self.among is not None:
            return "the runs named on the command line: " + ", ".join(
                f"<code>{esc(r)}</code>" for r in sorted(self.among))
        if self.suite:
            return f"suite <code>{esc(self.suite)}</code> (the runs of one <code>workbench demo</code>)"
        if self.anchor is None:
            return "nothing: there are no run records here"
        parts = []
        if self.data and self.data.index:
            parts.append(f"index <code>{esc(self.data.index[:12])}</code>")
        if self.question_files:
            parts.append("question files " + ", ".join(
                f"<code>{esc(Path(p).name)}</code>" for p in self.question_files))
        on = f" ({'; '.join(parts)})" if parts else ""
        return (f"the latest run of each study on the data of run <code>{esc(self.anchor)}</code>"
                f"{on}; no complete <code>workbench demo</code> suite here")


def _shown_path(path: str) -> str:
    """A question file's path as a command line takes it: relative to here when below it."""
    try:
        return str(Path(path).resolve().relative_to(Path.cwd().resolve()))
    except ValueError:
        return path


def _manifest(root: Path, run_id: str) -> dict[str, Any]:
    try:
        loaded = json.loads((root / run_id / "manifest.json").read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return {}
    return loaded if isinstance(loaded, dict) else {}


def same_data_scope(root: Path) -> ReportScope:
    """The latest run of each study on the data of the newest gate or answers run (module doc)."""
    listing = scan_runs(root).runs if root.is_dir() else pd.DataFrame()
    if listing.empty:
        return ReportScope(root)
    manifests = {run_id: _manifest(root, run_id) for run_id in listing["run_id"]}
    ordered = list(listing["run_id"])  # oldest first
    anchors = [r for r in ordered if manifests[r].get("kind") in ANCHOR_KINDS]
    anchor = (anchors or ordered)[-1]
    data = RunData.of(manifests[anchor])
    members = frozenset(r for r in ordered if RunData.of(manifests[r]).matches(data))
    return ReportScope(root, among=members, anchor=anchor, data=data)


def report_scope(results_dir: str | os.PathLike[str] = "results", *, suite: str | None = None,
                 runs: Sequence[str] | None = None) -> ReportScope:
    """The runs a report is built from.

    ``runs`` if given, else ``suite``, else the latest complete demo suite, else the latest run
    of each study on the same data (:func:`same_data_scope`).

    Raises:
        ReportError: A named run or suite is not under ``results_dir``.
    """
    root = Path(results_dir)
    listing = scan_runs(root) if root.is_dir() else None
    known = listing.runs if listing is not None else pd.DataFrame(columns=["run_id", "suite"])
    if runs:
        damaged = {s.folder.name: s.reason for s in (listing.skipped if listing else ())}
        hurt = [f"run {run} is damaged ({damaged[run]})" for run in runs if run in damaged]
        if hurt:
            raise ReportError(f"{'; '.join(hurt)}; rerun it or name another run")
        unknown = sorted(set(runs) - set(known["run_id"]))
        if unknown:
            raise ReportError(f"no run {', '.join(unknown)} under {root} (`workbench runs list`)")
        return ReportScope(root, among=frozenset(runs), named=True)
    if suite:
        if suite not in set(known["suite"].dropna()):
            raise ReportError(f"no run of suite {suite} under {root} (`workbench runs list` "
                              "shows each run's suite)")
        return ReportScope(root, suite=suite)
    latest = latest_suite(root)
    return ReportScope(root, suite=latest) if latest else same_data_scope(root)


def split_label(record: RunRecord) -> str:
    """The split a run's rows hold, as it recorded it: ``test split``, ``dev split``, ``both splits``.

    The manifest's own ``split`` wins; a run that recorded none is read from its rows' ``split``
    column, so a run over one split is never called both.
    """
    recorded = record.manifest.get("split")
    if recorded:
        return f"{recorded} split"
    rows = record.rows
    present = sorted(set(rows["split"].dropna().astype(str))) if "split" in rows.columns else []
    if not present:
        return "every question (no split recorded)"
    if len(present) == 1:
        return f"{present[0]} split"
    return "both splits" if present == ["dev", "test"] else "splits " + ", ".join(present)


def split_labels(records: Sequence[RunRecord]) -> str:
    """One label for several runs: theirs when they agree, each named otherwise."""
    labels = list(dict.fromkeys(split_label(r) for r in records))
    return labels[0] if len(labels) == 1 else "; ".join(labels)


__all__ = ["ANCHOR_KINDS", "ReportError", "ReportScope", "RunData", "report_scope",
           "same_data_scope", "split_label", "split_labels"]
