"""Reading corpus files: one normalisation, exact offsets, typed errors, no escape from the root."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from workbench.corpus import (
    BinaryFileError,
    Corpus,
    CorpusFileMissingError,
    NotUtf8Error,
    OutsideCorpusError,
    fragment_text,
    normalise_newlines,
)


@pytest.mark.parametrize(
    ("raw", "expected"),
    [
        ("a\r\nb", "a\nb"),
        ("a\rb", "a\nb"),
        ("\ufeffa\r\n\r\nb\r", "a\n\nb\n"),
        ("plain\n", "plain\n"),
    ],
)
def test_normalise_newlines(raw: str, expected: str) -> None:
    assert normalise_newlines(raw) == expected


def test_crlf_and_bom_offsets_are_exact(tmp_path: Path) -> None:
    body = "Первый абзац, достаточно длинный, чтобы стоять отдельно от заголовка выше него.\r\n"
    (tmp_path / "crlf.md").write_bytes(
        "\ufeff# Заголовок\r\n\r\n".encode() + body.encode() + b"\r\n" + body.encode())
    corpus = Corpus(tmp_path)
    decoded = corpus.read("crlf.md")
    assert "\r" not in decoded.text and not decoded.text.startswith("\ufeff")
    fragments = fragment_text("crlf.md", decoded.text, max_chars=200, min_chars=20)
    assert fragments, "a CRLF file must still produce fragments"
    for fragment in fragments:
        a = fragment.anchor
        assert decoded.text[a.start:a.end] == fragment.text
    assert fragments[-1].text == body.strip()


def test_non_utf8_is_reported_with_position(tmp_path: Path) -> None:
    (tmp_path / "cp1251.md").write_bytes("Привет".encode("cp1251"))
    with pytest.raises(NotUtf8Error) as info:
        Corpus(tmp_path).read("cp1251.md")
    assert info.value.position == 0
    assert "UTF-8" in str(info.value)


def test_binary_file_is_refused(tmp_path: Path) -> None:
    (tmp_path / "blob.txt").write_bytes(b"PK\x03\x04\x00\x00binary")
    with pytest.raises(BinaryFileError):
        Corpus(tmp_path).read("blob.txt")


def test_empty_file_reads_as_empty(tmp_path: Path) -> None:
    (tmp_path / "empty.md").write_bytes(b"")
    decoded = Corpus(tmp_path).read("empty.md")
    assert decoded.text == "" and decoded.size == 0
    assert fragment_text("empty.md", decoded.text) == []


@pytest.mark.parametrize("bad", ["../outside.md", "/etc/passwd", "ru/../../x.md", "..", ""])
def test_paths_that_leave_the_root_are_refused(tmp_path: Path, bad: str) -> None:
    (tmp_path / "corpus").mkdir()
    with pytest.raises(OutsideCorpusError):
        Corpus(tmp_path / "corpus").resolve(bad)


def test_symlink_out_of_root_is_refused_and_skipped(tmp_path: Path) -> None:
    root = tmp_path / "corpus"
    root.mkdir()
    secret = tmp_path / "secret.md"
    secret.write_text("outside text", encoding="utf-8")
    os.symlink(secret, root / "link.md")
    os.symlink(tmp_path, root / "up")
    corpus = Corpus(root)
    with pytest.raises(OutsideCorpusError):
        corpus.read("link.md")
    files, skipped = corpus.list_files()
    assert files == []
    assert {p for p, _ in skipped} == {"link.md", "up/"}


def test_symlink_inside_root_is_followed(tmp_path: Path) -> None:
    root = tmp_path / "corpus"
    root.mkdir()
    (root / "real.md").write_text("inside", encoding="utf-8")
    os.symlink(root / "real.md", root / "alias.md")
    assert Corpus(root).read("alias.md").text == "inside"


def test_missing_file_is_typed(tmp_path: Path) -> None:
    with pytest.raises(CorpusFileMissingError):
        Corpus(tmp_path).read("nope.md")


def test_list_files_only_text_and_not_hidden(tmp_path: Path) -> None:
    for rel in ["a.md", "b.txt", "c.pdf", ".hidden.md", ".git/x.md", "sub/d.md"]:
        path = tmp_path / rel
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text("x", encoding="utf-8")
    files, skipped = Corpus(tmp_path).list_files()
    assert files == ["a.md", "b.txt", "sub/d.md"]
    assert skipped == []
