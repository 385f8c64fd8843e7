"""Ordinary edits to a copy of the course, to watch the drift audit react (notebook 06).

Each edit is a small pure function over a file's text in :data:`DRIFT_EDITS`, named and labelled
so a notebook can offer them as choices. :func:`apply_drift_edits` applies the chosen ones to a
*copy* of the course and says what it changed; it refuses to touch the corpus the copy was made
from, because the index, the gate verdicts and the published figures all rest on those files.
"""

from __future__ import annotations

import os
from collections.abc import Callable, Iterable
from dataclasses import dataclass
from pathlib import Path

from workbench.errors import WorkbenchError

NOTE = "\nA short note added by the editor.\n"
"""The paragraph the ``note`` edit inserts under a file's title."""

VAT_RATE_BEFORE = "по ставке 28%"
VAT_RATE_AFTER = "по ставке 25%"


class DriftEditError(WorkbenchError):
    """A drift edit was asked of an unknown name, a missing file, or the shipped corpus."""


@dataclass(frozen=True)
class DriftEdit:
    """One edit of the table: which file, what a person would call it, and the change itself."""

    path: str
    """The file it edits, relative to the course root."""
    label: str
    """What a notebook shows for it."""
    change: Callable[[str], str | None]
    """The file's text -> its new text, or ``None`` to delete the file."""


@dataclass(frozen=True)
class AppliedEdit:
    """What one edit did to the copy."""

    name: str
    """The edit's name in :data:`DRIFT_EDITS`."""
    path: str
    """The file, relative to the copy's root."""
    action: str
    """``edited`` or ``deleted``."""
    chars_before: int
    """The file's length in characters before the edit."""
    chars_after: int
    """Its length after (0 once deleted)."""


@dataclass(frozen=True)
class EditedCopy:
    """A copy of the course after :func:`apply_drift_edits`."""

    root: Path
    """The copy's root folder."""
    edits: tuple[AppliedEdit, ...]
    """The edits applied, in table order."""

    @property
    def paths(self) -> tuple[str, ...]:
        """The files touched, in table order."""
        return tuple(edit.path for edit in self.edits)

    def line(self) -> str:
        """One line: each edit's name, file and what happened to it."""
        if not self.edits:
            return "no edits: the copy is the course as shipped"
        return "; ".join(f"{e.name}: {e.path} {e.action} ({e.chars_before} -> {e.chars_after} chars)"
                         for e in self.edits)


def _note_under_title(text: str) -> str:
    title_end = text.find("\n") + 1
    if title_end == 0:
        raise DriftEditError("the file has no title line to put a note under")
    return text[:title_end] + NOTE + text[title_end:]


def _correct_vat_rate(text: str) -> str:
    found = text.count(VAT_RATE_BEFORE)
    if found != 1:
        raise DriftEditError(f"«{VAT_RATE_BEFORE}» occurs {found} times; the edit changes exactly one")
    return text.replace(VAT_RATE_BEFORE, VAT_RATE_AFTER)


def _delete(text: str) -> None:
    return None


DRIFT_EDITS: dict[str, DriftEdit] = {
    "note": DriftEdit("en/01_unicode_utf8.md", "a note under the title of en/01_unicode_utf8.md",
                      _note_under_title),
    "number": DriftEdit("ru/47_nds_rates.md", "28% corrected to 25% in ru/47_nds_rates.md",
                        _correct_vat_rate),
    "delete": DriftEdit("en/08_base64_base32_hex.md", "en/08_base64_base32_hex.md deleted", _delete),
}
"""Three ordinary edits: text inserted near the top, one number corrected, a file deleted."""


def _same_or_inside(path: Path, folder: Path) -> bool:
    return path == folder or folder in path.parents


def apply_drift_edits(root: str | os.PathLike[str], names: Iterable[str] = tuple(DRIFT_EDITS), *,
                      shipped: str | os.PathLike[str] | None = None) -> EditedCopy:
    """Apply the named edits of :data:`DRIFT_EDITS` to the course copy at ``root``.

    Args:
        root: The root of a copy of the course (``Lab.scratch_corpus()`` makes one).
        names: Which edits, by name; each is applied once, in table order.
        shipped: The corpus the copy was made from; editing it, or a folder inside it, is refused.

    Returns:
        The copy's root and what each edit did.

    Raises:
        DriftEditError: An unknown edit name, a root that is not a folder or is the shipped
            corpus, a file the copy lacks, or a text the edit does not fit.
    """
    chosen = set(names)
    unknown = sorted(chosen - set(DRIFT_EDITS))
    if unknown:
        raise DriftEditError(f"unknown drift edit(s) {', '.join(map(repr, unknown))}; known: "
                             f"{', '.join(DRIFT_EDITS)}")
    folder = Path(root).resolve()
    if not folder.is_dir():
        raise DriftEditError(f"{root} is not a folder holding a copy of the course")
    if shipped is not None and _same_or_inside(folder, Path(shipped).resolve()):
        raise DriftEditError(f"{root} is the shipped corpus; edit a copy of it instead")
    # every edit is worked out before any file changes, so a refusal leaves the copy untouched
    planned: list[tuple[str, Path, str, str | None]] = []
    for name, edit in DRIFT_EDITS.items():
        if name not in chosen:
            continue
        target = folder / edit.path
        if not target.is_file():
            raise DriftEditError(f"{name}: {edit.path} is not in the copy at {root}")
        text = target.read_text(encoding="utf-8")
        try:
            planned.append((name, target, text, edit.change(text)))
        except DriftEditError as exc:
            raise DriftEditError(f"{name}: {edit.path}: {exc}") from None
    applied = []
    for name, target, text, new in planned:
        path = DRIFT_EDITS[name].path
        if new is None:
            target.unlink()
            applied.append(AppliedEdit(name, path, "deleted", len(text), 0))
        else:
            target.write_text(new, encoding="utf-8")
            applied.append(AppliedEdit(name, path, "edited", len(text), len(new)))
    return EditedCopy(Path(root), tuple(applied))
