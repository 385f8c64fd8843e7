"""The twofold verbatim check and the drift audit, including edits made after indexing."""

from __future__ import annotations

import dataclasses
from pathlib import Path

import pytest

from workbench.corpus import Corpus, QuoteStatus, verify_quote
from workbench.index import audit_drift


def _fragment(index, path: str, contains: str):
    return next(f for f in index.fragments if f.anchor.path == path and contains in f.text)


def test_verbatim_quote_passes_both_halves(small_index, small_corpus: Path) -> None:
    fragment = _fragment(small_index, "ru/vat.md", "22 процента")
    check = verify_quote("составляет 22 процента", fragment, Corpus(small_corpus))
    assert check.ok and check.in_fragment and check.in_file
    text = (small_corpus / "ru/vat.md").read_text(encoding="utf-8")
    assert text[check.quote_start:check.quote_start + 22] == "составляет 22 процента"


def test_quote_not_in_fragment(small_index, small_corpus: Path) -> None:
    fragment = _fragment(small_index, "ru/vat.md", "22 процента")
    check = verify_quote("составляет 20 процентов", fragment, Corpus(small_corpus))
    assert check.status is QuoteStatus.NOT_IN_FRAGMENT and not check.ok


def test_file_rewritten_after_indexing(small_index, small_corpus: Path) -> None:
    fragment = _fragment(small_index, "ru/vat.md", "22 процента")
    path = small_corpus / "ru/vat.md"
    path.write_text(path.read_text(encoding="utf-8").replace("22 процента", "двадцать два"),
                    encoding="utf-8")
    check = verify_quote("Основная ставка НДС", fragment, Corpus(small_corpus))
    assert check.status is QuoteStatus.CHANGED
    assert check.in_fragment and not check.in_file


def test_text_moved_reports_where(small_index, small_corpus: Path) -> None:
    fragment = _fragment(small_index, "en/base64.md", "three bytes")
    path = small_corpus / "en/base64.md"
    path.write_text("Inserted line.\n\n" + path.read_text(encoding="utf-8"), encoding="utf-8")
    check = verify_quote("three bytes", fragment, Corpus(small_corpus))
    assert check.status is QuoteStatus.DRIFTED
    assert check.current_start == fragment.anchor.start + len("Inserted line.\n\n")


def test_deleted_file(small_index, small_corpus: Path) -> None:
    fragment = _fragment(small_index, "en/base64.md", "three bytes")
    (small_corpus / "en/base64.md").unlink()
    assert verify_quote("three bytes", fragment, Corpus(small_corpus)).status is (
        QuoteStatus.MISSING_FILE)


def test_file_turned_binary(small_index, small_corpus: Path) -> None:
    fragment = _fragment(small_index, "en/base64.md", "three bytes")
    (small_corpus / "en/base64.md").write_bytes(b"\x00\x00")
    assert verify_quote("three bytes", fragment, Corpus(small_corpus)).status is (
        QuoteStatus.UNREADABLE)


def test_anchor_leaving_the_root_is_refused(small_index, small_corpus: Path) -> None:
    fragment = _fragment(small_index, "en/base64.md", "three bytes")
    evil = dataclasses.replace(fragment, anchor=dataclasses.replace(fragment.anchor,
                                                                    path="../../etc/passwd"))
    check = verify_quote("three bytes", evil, Corpus(small_corpus))
    assert check.status is QuoteStatus.OUTSIDE_CORPUS and not check.ok


def test_audit_classifies_all_four(small_index, small_corpus: Path) -> None:
    vat = small_corpus / "ru/vat.md"
    vat.write_text(vat.read_text(encoding="utf-8").replace("статье 165", "статье 165.1"),
                   encoding="utf-8")  # one fragment changed
    utf = small_corpus / "ru/utf8.md"
    utf.write_text("# Новое начало\n\n" + utf.read_text(encoding="utf-8"), encoding="utf-8")
    (small_corpus / "en/base64.md").unlink()
    frame = audit_drift(small_index, small_corpus)
    status = dict(zip(frame["fragment_id"], frame["status"].astype(str), strict=True))
    by_path = {}
    for fid, value in status.items():
        by_path.setdefault(fid.split("#")[0], set()).add(value)
    assert by_path["en/base64.md"] == {"missing_file"}
    assert "changed" in by_path["ru/vat.md"] and "match" in by_path["ru/vat.md"]
    assert by_path["ru/utf8.md"] <= {"drifted", "changed"} and "drifted" in by_path["ru/utf8.md"]
    summary = frame.attrs["summary"]
    assert summary.total == len(small_index)
    assert summary.match + summary.drifted + summary.changed + summary.missing_file == summary.total
    assert summary.missing_files == 1
    assert "quotable" in summary.line()
    drifted = frame[frame["status"] == "drifted"].iloc[0]
    text = utf.read_text(encoding="utf-8")
    fragment = small_index.get(drifted["fragment_id"])
    assert text[drifted["current_start"]:drifted["current_end"]] == fragment.text


def test_audit_from_folder_uses_recorded_corpus(small_index) -> None:
    frame = audit_drift(small_index.folder)
    assert set(frame["status"].astype(str)) == {"match"}
    assert list(frame.columns)[:5] == ["fragment_id", "path", "start", "end", "status"]


def test_audit_file_turned_non_utf8(small_index, small_corpus: Path) -> None:
    (small_corpus / "ru/utf8.md").write_bytes("UTF-8 текст".encode("cp1251"))
    frame = audit_drift(small_index, small_corpus)
    rows = frame[frame["path"] == "ru/utf8.md"]
    assert set(rows["status"].astype(str)) == {"changed"}
    assert rows["detail"].str.contains("UTF-8").all()


@pytest.mark.parametrize("edit", ["delete", "rewrite"])
def test_edit_between_indexing_and_quoting_is_counted(small_index, small_corpus: Path,
                                                      edit: str) -> None:
    path = small_corpus / "ru/utf8.md"
    fragment = _fragment(small_index, "ru/utf8.md", "EF BB BF")
    if edit == "delete":
        path.unlink()
    else:
        path.write_text("Совсем другой текст.", encoding="utf-8")
    assert not verify_quote("EF BB BF", fragment, Corpus(small_corpus)).ok
    summary = audit_drift(small_index, small_corpus).attrs["summary"]
    assert summary.match < summary.total
