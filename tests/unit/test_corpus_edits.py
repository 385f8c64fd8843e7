"""The drift edits notebook 06 makes to a copy of the course: what they change and what they refuse."""

from __future__ import annotations

import re
import shutil
from pathlib import Path

import pytest

from workbench.config import load_settings
from workbench.corpus import (
    DRIFT_EDITS,
    DriftEditError,
    apply_drift_edits,
)
from workbench.errors import WorkbenchError

COURSE = Path(load_settings().paths.corpus)


@pytest.fixture
def copy(tmp_path: Path) -> Path:
    target = tmp_path / "course"
    shutil.copytree(COURSE, target)
    return target


def _texts(root: Path) -> dict[str, str]:
    return {str(p.relative_to(root)): p.read_text(encoding="utf-8")
            for p in sorted(root.rglob("*")) if p.is_file()}


def test_the_three_edits_change_the_copy_only(copy: Path) -> None:
    shipped = _texts(COURSE)
    edited = apply_drift_edits(copy, ["delete", "note", "number"], shipped=COURSE)
    assert [e.name for e in edited.edits] == list(DRIFT_EDITS)  # table order
    assert edited.root == copy and edited.paths == tuple(e.path for e in DRIFT_EDITS.values())
    note, number, delete = edited.edits
    unicode_now = (copy / note.path).read_text(encoding="utf-8")
    title, rest = shipped[note.path].split("\n", 1)
    assert unicode_now == f"{title}\n\nA short note added by the editor.\n{rest}"
    assert note.action == "edited" and note.chars_after - note.chars_before == 35
    vat_now = (copy / number.path).read_text(encoding="utf-8")
    assert "по ставке 25%" in vat_now and "по ставке 28%" not in vat_now
    assert len(vat_now) == len(shipped[number.path]) and number.chars_after == number.chars_before
    assert not (copy / delete.path).exists() and delete.action == "deleted"
    assert delete.chars_after == 0
    untouched = set(shipped) - set(edited.paths)
    assert {k: v for k, v in _texts(copy).items() if k in untouched} == {
        k: shipped[k] for k in untouched}
    assert _texts(COURSE) == shipped
    assert "note: en/01_unicode_utf8.md edited" in edited.line()


def test_no_edit_names_leave_the_copy_as_shipped(copy: Path) -> None:
    edited = apply_drift_edits(copy, [])
    assert edited.edits == () and "as shipped" in edited.line()
    assert _texts(copy) == _texts(COURSE)


def test_every_edit_has_a_label_and_a_course_file() -> None:
    for name, edit in DRIFT_EDITS.items():
        assert (COURSE / edit.path).is_file(), name
        assert edit.path in edit.label or edit.path.split("/")[-1] in edit.label


def _no_title(copy: Path) -> Path:
    (copy / "en/01_unicode_utf8.md").write_text("one line, no title", encoding="utf-8")
    return copy


def _vat_twice(copy: Path) -> Path:
    path = copy / "ru/47_nds_rates.md"
    path.write_text(path.read_text(encoding="utf-8") + "\nпо ставке 28%\n", encoding="utf-8")
    return copy


def _without(rel: str):
    def prepare(copy: Path) -> Path:
        (copy / rel).unlink()
        return copy
    return prepare


# (what the refusal says, edit names, how the root is prepared) — the bad inputs of the edits
REFUSALS = [
    ("unknown drift edit(s) 'typo'; known: note, number, delete", ["note", "typo"], lambda c: c),
    ("unknown drift edit(s) ''", [""], lambda c: c),
    ("is not a folder", ["note"], lambda c: c / "en/01_unicode_utf8.md"),
    ("is not a folder", ["note"], lambda c: c / "nowhere"),
    ("is the shipped corpus", ["note"], lambda c: COURSE),
    ("is the shipped corpus", ["delete"], lambda c: COURSE / "en"),
    ("delete: en/08_base64_base32_hex.md is not in the copy", ["delete"],
     _without("en/08_base64_base32_hex.md")),
    ("number: ru/47_nds_rates.md: «по ставке 28%» occurs 0 times", ["number"],
     lambda c: (apply_drift_edits(c, ["number"]), c)[1]),
    ("occurs 2 times", ["note", "number"], _vat_twice),
    ("note: en/01_unicode_utf8.md: the file has no title line", ["note"], _no_title),
]


@pytest.mark.parametrize(("message", "names", "prepare"), REFUSALS,
                         ids=[f"{i}-{'+'.join(r[1]) or 'empty'}" for i, r in enumerate(REFUSALS)])
def test_a_refused_edit_changes_nothing(message, names, prepare, copy: Path) -> None:
    root = prepare(copy)
    before, shipped = _texts(copy), _texts(COURSE)
    with pytest.raises(DriftEditError, match=re.escape(message)) as caught:
        apply_drift_edits(root, names, shipped=COURSE)
    assert isinstance(caught.value, WorkbenchError)
    assert _texts(copy) == before and _texts(COURSE) == shipped
