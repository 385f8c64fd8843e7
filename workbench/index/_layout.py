"""Where an index build, a report or an overlay may write: the index folder's names, and the checks.

An index folder holds only the names of :data:`INDEX_ENTRIES` and a manifest of ours; a build
replaces only such a folder, an empty one or nothing (:func:`check_out_folder`). A file the
workbench writes (the HTML report, the figures record, a calibrated overlay) replaces only a
file of its own kind, recognised from its text (:func:`check_out_file`). Both refuse before
anything is written.
"""

from __future__ import annotations

import json
import os
from collections.abc import Callable, Sequence
from pathlib import Path

from workbench.errors import WorkbenchError

FORMAT = "workbench-fragment-index"
# 2: the manifest carries its own digest, so an edited corpus_root or artifact digest is caught
# 3: the fragments live in a columnar Parquet store instead of JSON lines (the drift audit at
#    55,752 fragments spent 1.1 s parsing fragments.jsonl; the Parquet columns load in 0.13 s)
FORMAT_VERSION = 3
MANIFEST = "manifest.json"
FRAGMENTS = "fragments.parquet"
LEXICAL = "lexical"
DENSE = "dense.faiss"
GLOSSARY = "glossary.json"
SELF_DIGEST = "manifest_sha256"
INDEX_ENTRIES = frozenset({MANIFEST, FRAGMENTS, LEXICAL, DENSE, GLOSSARY})
"""Every name a build puts in an index folder; a folder holding anything else is not an index."""
_OLDER_ENTRIES = frozenset({"fragments.jsonl"})
"""Names earlier formats put there: an index of an older format is still one a build replaces."""


class FragmentIndexError(WorkbenchError):
    """Base of the index errors."""


class IndexOutError(FragmentIndexError):
    """The folder asked for as the index's place is one a build must not replace."""


def _overlaps(a: Path, b: Path) -> bool:
    return a == b or a in b.parents or b in a.parents


def _is_index_folder(folder: Path) -> bool:
    """Whether ``folder`` holds an index a build wrote: only index names, a manifest of ours.

    Old formats and damaged artifacts still count (a rebuild is how they get fixed); a manifest
    that does not parse does not, since nothing then says the folder was ours.
    """
    names = {entry.name for entry in folder.iterdir()}
    if MANIFEST not in names or not names <= INDEX_ENTRIES | _OLDER_ENTRIES:
        return False
    try:
        manifest = json.loads((folder / MANIFEST).read_bytes().decode("utf-8"))
    except (OSError, ValueError):  # UnicodeDecodeError and JSONDecodeError are ValueErrors
        return False
    return isinstance(manifest, dict) and manifest.get("format") == FORMAT


def check_out_folder(out_dir: str | os.PathLike[str], corpus_root: Path,
                     cache_folder: Path | None = None) -> Path:
    """The resolved ``out_dir`` if a build may put an index there; refuses before any write.

    A build may replace an index it wrote, fill an empty folder or create a new one. It refuses
    a file (or a symlink to one), a folder that holds anything but an index, an ``out`` equal to,
    inside or around the corpus (symlinks resolved), and one that overlaps the embedding cache.

    Raises:
        IndexOutError: The place is one the build must not replace; nothing was touched.
    """
    given = Path(out_dir)
    out = given.resolve()
    root = corpus_root.resolve()
    where = f"--out {given}" + (f" (resolves to {out})" if out != given.absolute() else "")
    if out == root or root in out.parents:
        raise IndexOutError(f"{where} is inside the corpus {root}; the index must live outside "
                            "the files it indexes; choose a folder beside the corpus")
    if out in root.parents:
        raise IndexOutError(f"{where} holds the corpus {root}; replacing it would delete the "
                            "corpus; choose a folder beside the corpus")
    if cache_folder is not None and _overlaps(out, cache_folder.resolve()):
        raise IndexOutError(f"{where} overlaps the embedding cache {cache_folder.resolve()}; "
                            "choose another --out or cache folder")
    for ancestor in out.parents:
        if ancestor.exists():
            if not ancestor.is_dir():
                raise IndexOutError(f"{where}: {ancestor} is a file, not a folder; "
                                    "choose a folder path")
            break
    if out.exists() and not out.is_dir():
        raise IndexOutError(f"{where} is a file; a build writes a folder and never replaces a "
                            "file; choose a new or empty folder")
    if out.is_dir() and any(out.iterdir()) and not _is_index_folder(out):
        names = sorted(entry.name for entry in out.iterdir())
        held = ", ".join(names[:3]) + (f" and {len(names) - 3} more" if len(names) > 3 else "")
        raise IndexOutError(f"{where} is a folder that is not a workbench index (it holds "
                            f"{held}); a build replaces only an index it wrote; "
                            "choose a new or empty folder")
    return out


def _is_figures(head: str) -> bool:
    try:
        record = json.loads(head)
    except ValueError:
        return False
    return isinstance(record, dict) and {"suite", "version"} <= set(record)


WRITTEN_FILES: dict[str, Callable[[str], bool]] = {
    "report": lambda head: head.startswith("<!DOCTYPE html>")
    and "<title>digit-workbench report</title>" in head[:2048],
    "figures record": _is_figures,
    "gates overlay": lambda head: head.startswith("# tuned by `workbench gates calibrate`"),
}
"""How each kind of file the workbench writes is recognised from its text: a file of that kind
may be replaced, any other file may not (the report's ``<title>``, the figures record's keys,
the comment that opens a calibrated overlay)."""


def check_out_file(path: str | os.PathLike[str], kind: str, *,
                   protected: Sequence[Path] = ()) -> Path:
    """``path`` if a ``kind`` file (:data:`WRITTEN_FILES`) may be written there; refuses first.

    The file twin of :func:`check_out_folder`: a new file, or one the workbench wrote of the
    same kind, may be (re)written. A folder, a file of anything else (a corpus page, notes, a
    settings file), a path under a file, and a path inside a ``protected`` folder (the corpus)
    are refused before anything is written.

    Raises:
        IndexOutError: The place is one the workbench must not write; nothing was touched.
    """
    given = Path(path)
    out = given.resolve()
    where = f"{given}" + (f" (resolves to {out})" if out != given.absolute() else "")
    for root in protected:
        if out == root.resolve() or root.resolve() in out.parents:
            raise IndexOutError(f"{where} is inside {root.resolve()}; write the {kind} outside "
                                "the corpus")
    for ancestor in out.parents:
        if ancestor.exists():
            if not ancestor.is_dir():
                raise IndexOutError(f"{where}: {ancestor} is a file, not a folder")
            break
    if out.is_dir():
        raise IndexOutError(f"{where} is a folder; the {kind} is a file: name a file")
    if out.exists():
        try:
            with out.open("rb") as handle:
                head = handle.read(1 << 24).decode("utf-8", errors="replace")
        except OSError as exc:
            raise IndexOutError(f"{where} cannot be read ({exc.strerror})") from None
        if not WRITTEN_FILES[kind](head):
            raise IndexOutError(f"{where} exists and is not a {kind} the workbench wrote; it "
                                "replaces only its own: choose a new path")
    return out
