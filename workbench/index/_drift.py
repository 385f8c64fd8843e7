"""The drift audit: every fragment of an index checked against the files as they are now.

Each fragment gets one status: ``match`` (its text at its anchor), ``drifted`` (its text
elsewhere in the file), ``changed`` (gone from a file that still exists, or the file is no longer
UTF-8 text) or ``missing_file``. Only ``match`` can still be quoted. Each file is read once.
"""

from __future__ import annotations

import os
import time
from collections import Counter
from dataclasses import dataclass
from pathlib import Path

import pandas as pd

from workbench.corpus._quote import locate
from workbench.corpus._records import Fragment
from workbench.corpus._text import Corpus, CorpusError, CorpusFileMissingError
from workbench.index._fragment_index import (
    FragmentIndex,
    load_fragments,
    read_manifest,
    verify_artifacts,
)

STATUSES = ("match", "drifted", "changed", "missing_file")
COLUMNS = ["fragment_id", "path", "start", "end", "status", "current_start", "current_end",
           "detail"]


@dataclass(frozen=True)
class DriftSummary:
    """The counts of one audit."""

    total: int
    """Fragments audited."""
    match: int
    """At their anchor: quotable."""
    drifted: int
    """Elsewhere in their file."""
    changed: int
    """Gone from a file that exists."""
    missing_file: int
    """Their file is gone."""
    missing_files: int
    """Distinct files that are gone."""
    seconds: float
    """Time the audit took."""

    @property
    def quotable_share(self) -> float:
        """Share of the index that can be quoted today (``match`` only)."""
        return self.match / self.total if self.total else 1.0

    @property
    def drift_share(self) -> float:
        """Share of the index that moved on (everything but ``match``)."""
        return 1.0 - self.quotable_share if self.total else 0.0

    def line(self) -> str:
        """One line for the terminal."""
        return (f"drift: {self.total} fragments — match {self.match}, drifted {self.drifted}, "
                f"changed {self.changed}, missing_file {self.missing_file} "
                f"({self.missing_files} files); quotable {self.match}/{self.total} "
                f"({100 * self.quotable_share:.1f}%), drift {100 * self.drift_share:.1f}%")


def audit_fragments(fragments: list[Fragment], corpus: Corpus) -> pd.DataFrame:
    """Classify each fragment against ``corpus``; one row per fragment (see ``COLUMNS``)."""
    texts: dict[str, str | None] = {}
    problems: dict[str, str] = {}
    rows: list[tuple[object, ...]] = []
    for fragment in fragments:
        anchor = fragment.anchor
        if anchor.path not in texts:
            try:
                texts[anchor.path] = corpus.read(anchor.path).text
            except CorpusFileMissingError:
                texts[anchor.path] = None
                problems[anchor.path] = "missing"
            except CorpusError as exc:  # binary, not UTF-8, outside the root, a folder
                texts[anchor.path] = None
                problems[anchor.path] = str(exc)
        current = texts[anchor.path]
        if current is None:
            if problems[anchor.path] == "missing":
                rows.append((fragment.id, anchor.path, anchor.start, anchor.end, "missing_file",
                             None, None, "file no longer exists"))
            else:
                rows.append((fragment.id, anchor.path, anchor.start, anchor.end, "changed",
                             None, None, problems[anchor.path]))
            continue
        if current[anchor.start:anchor.end] == fragment.text:
            rows.append((fragment.id, anchor.path, anchor.start, anchor.end, "match",
                         anchor.start, anchor.end, ""))
            continue
        moved = locate(current, fragment.text, anchor.start)
        if moved != -1:
            rows.append((fragment.id, anchor.path, anchor.start, anchor.end, "drifted", moved,
                         moved + len(fragment.text), "text at other offsets"))
        else:
            rows.append((fragment.id, anchor.path, anchor.start, anchor.end, "changed", None,
                         None, "text no longer in the file"))
    frame = pd.DataFrame.from_records(rows, columns=COLUMNS)
    frame["status"] = pd.Categorical(frame["status"], categories=list(STATUSES))
    frame["current_start"] = frame["current_start"].astype("Int64")
    frame["current_end"] = frame["current_end"].astype("Int64")
    return frame


def audit_drift(index: FragmentIndex | str | os.PathLike[str],
                corpus: Corpus | str | os.PathLike[str] | None = None) -> pd.DataFrame:
    """Audit an index (a loaded one or a folder) against a corpus (default: where it was built).

    Reading a folder checks the manifest (its own digest included) and every artifact's digest
    before anything in it is trusted, above all ``corpus_root``: an edited index is reported as
    damaged, never audited against whatever folder it now names. Only the manifest and
    ``fragments.jsonl`` are then loaded; the search arrays are not needed to audit. The summary
    is in ``frame.attrs["summary"]`` (a :class:`DriftSummary`).

    Raises:
        IndexMissingError: There is no index in the folder.
        IndexCorruptError: The manifest or an artifact was edited, truncated or is missing.
        IndexVersionError: The index is of another format version.
    """
    started = time.perf_counter()
    if isinstance(index, FragmentIndex):
        fragments, manifest = index.fragments, index.manifest
    else:
        folder = Path(index)
        manifest = read_manifest(folder)
        verify_artifacts(folder, manifest)
        fragments = load_fragments(folder, expected=int(manifest["counts"]["fragments"]))
    if corpus is None:
        corpus = Corpus(manifest["corpus_root"])
    elif not isinstance(corpus, Corpus):
        corpus = Corpus(corpus)
    frame = audit_fragments(fragments, corpus)
    frame.attrs["summary"] = summarise(frame, time.perf_counter() - started)
    return frame


def summarise(frame: pd.DataFrame, seconds: float = 0.0) -> DriftSummary:
    """Counts of an audit table."""
    counts = Counter(frame["status"].astype(str))
    missing_files = frame.loc[frame["status"] == "missing_file", "path"].nunique()
    return DriftSummary(total=len(frame), match=counts["match"], drifted=counts["drifted"],
                        changed=counts["changed"], missing_file=counts["missing_file"],
                        missing_files=int(missing_files), seconds=seconds)
