"""The index never costs the user data, and a damaged index is a typed error that names the file.

Three parts: where a build refuses to write (``--out`` rows, run through the CLI, with the whole
tree compared byte for byte after the refusal); what loading says about each kind of damage (one
table, one loop); and the drift audit, which checks the index before it trusts ``corpus_root``.
"""

from __future__ import annotations

import json
import os
import re
import shutil
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pyarrow as pa
import pyarrow.parquet as pq
import pytest

from workbench import cli
from workbench.index import (
    FragmentIndexError,
    IndexCorruptError,
    IndexMissingError,
    IndexOutError,
    IndexVersionError,
    audit_drift,
    build_index,
    load_index,
    manifest_digest,
    read_manifest,
)

# ---------------------------------------------------------------------------------------------
# helpers


def snapshot(root: Path) -> dict[str, tuple[str, bytes | str | None]]:
    """Every entry under ``root``: kind and bytes (files), target (links); folders by name."""
    tree: dict[str, tuple[str, bytes | str | None]] = {}
    for dirpath, dirnames, filenames in os.walk(root, followlinks=False):
        base = Path(dirpath)
        for name in dirnames + filenames:
            path = base / name
            rel = path.relative_to(root).as_posix()
            if path.is_symlink():
                tree[rel] = ("link", os.readlink(path))
            elif path.is_dir():
                tree[rel] = ("dir", None)
            else:
                tree[rel] = ("file", path.read_bytes())
    return tree


def keyword_build(corpus: Path, out: Path, tmp_path: Path) -> None:
    build_index(corpus, out, embedder="keyword", cache_root=tmp_path / "cache")


# ---------------------------------------------------------------------------------------------
# 1. where a build refuses to write: rows of (message fragment, setup -> (--corpus, --out))

Setup = Callable[[Path, Path], tuple[Path, Path]]


def _notes_folder(tmp: Path, corpus: Path) -> tuple[Path, Path]:
    (tmp / "notes" / "sub").mkdir(parents=True)
    (tmp / "notes" / "plans.md").write_text("my notes", encoding="utf-8")
    (tmp / "notes" / "sub" / "deep.txt").write_text("more", encoding="utf-8")
    return corpus, tmp / "notes"


def _index_with_notes(tmp: Path, corpus: Path) -> tuple[Path, Path]:
    keyword_build(corpus, tmp / "built", tmp)
    (tmp / "built" / "notes.md").write_text("kept beside the index", encoding="utf-8")
    return corpus, tmp / "built"


def _foreign_manifest(tmp: Path, corpus: Path) -> tuple[Path, Path]:
    (tmp / "app").mkdir()
    (tmp / "app" / "manifest.json").write_text('{"name": "a web app"}', encoding="utf-8")
    return corpus, tmp / "app"


def _unreadable_manifest(tmp: Path, corpus: Path) -> tuple[Path, Path]:
    (tmp / "app").mkdir()
    (tmp / "app" / "manifest.json").write_bytes(b"\xff\xfe not json")
    return corpus, tmp / "app"


def _a_file(tmp: Path, corpus: Path) -> tuple[Path, Path]:
    (tmp / "out.txt").write_text("a file the user keeps", encoding="utf-8")
    return corpus, tmp / "out.txt"


def _link_to_file(tmp: Path, corpus: Path) -> tuple[Path, Path]:
    (tmp / "target.txt").write_text("a file the user keeps", encoding="utf-8")
    (tmp / "link").symlink_to(tmp / "target.txt")
    return corpus, tmp / "link"


def _link_to_notes(tmp: Path, corpus: Path) -> tuple[Path, Path]:
    _notes_folder(tmp, corpus)
    (tmp / "link").symlink_to(tmp / "notes", target_is_directory=True)
    return corpus, tmp / "link"


def _under_a_file(tmp: Path, corpus: Path) -> tuple[Path, Path]:
    (tmp / "out.txt").write_text("a file the user keeps", encoding="utf-8")
    return corpus, tmp / "out.txt" / "idx"


def _the_corpus(tmp: Path, corpus: Path) -> tuple[Path, Path]:
    return corpus, corpus


def _new_folder_in_corpus(tmp: Path, corpus: Path) -> tuple[Path, Path]:
    return corpus, corpus / "idx"


def _folder_of_corpus(tmp: Path, corpus: Path) -> tuple[Path, Path]:
    return corpus, corpus / "ru"


def _around_the_corpus(tmp: Path, corpus: Path) -> tuple[Path, Path]:
    return corpus, tmp


def _link_to_corpus(tmp: Path, corpus: Path) -> tuple[Path, Path]:
    (tmp / "link").symlink_to(corpus, target_is_directory=True)
    return corpus, tmp / "link"


def _corpus_by_link(tmp: Path, corpus: Path) -> tuple[Path, Path]:
    (tmp / "link").symlink_to(corpus, target_is_directory=True)
    return tmp / "link", corpus / "idx"


def _the_cache(tmp: Path, corpus: Path) -> tuple[Path, Path]:
    return corpus, tmp / "cache"  # the config's cache: vectors would land inside the index


OUT_REFUSALS: list[tuple[str, Setup]] = [
    ("is a folder that is not a workbench index (it holds plans.md, sub)", _notes_folder),
    ("is a folder that is not a workbench index", _index_with_notes),
    ("is a folder that is not a workbench index (it holds manifest.json)", _foreign_manifest),
    ("is a folder that is not a workbench index", _unreadable_manifest),
    ("is a folder that is not a workbench index", _link_to_notes),
    ("is a file; a build writes a folder and never replaces a file", _a_file),
    ("is a file; a build writes a folder and never replaces a file", _link_to_file),
    ("out.txt is a file, not a folder", _under_a_file),
    ("is inside the corpus", _the_corpus),
    ("is inside the corpus", _new_folder_in_corpus),
    ("is inside the corpus", _folder_of_corpus),
    ("is inside the corpus", _link_to_corpus),
    ("is inside the corpus", _corpus_by_link),
    ("holds the corpus", _around_the_corpus),
    ("overlaps the embedding cache", _the_cache),
]


@pytest.mark.parametrize(("fragment", "setup"), OUT_REFUSALS,
                         ids=[setup.__name__.strip("_") for _, setup in OUT_REFUSALS])
def test_cli_build_refuses_and_touches_nothing(fragment: str, setup: Setup, small_corpus: Path,
                                               tmp_path: Path, keyword_config, capsys) -> None:
    config = keyword_config(tmp_path, small_corpus)
    corpus, out = setup(tmp_path, small_corpus)
    before = snapshot(tmp_path)
    capsys.readouterr()
    code = cli.main(["index", "build", "--corpus", str(corpus), "--out", str(out),
                     "--embedder", "keyword", "--quiet", "--config", str(config)])
    err = capsys.readouterr().err
    assert code == 2
    assert err.count("\n") == 1 and err.startswith("workbench: IndexOutError: --out ")
    assert fragment in err
    assert snapshot(tmp_path) == before  # no staging folder, no cache, no rename, no deletion


def test_build_refuses_before_any_write(small_corpus: Path, tmp_path: Path) -> None:
    _notes_folder(tmp_path, small_corpus)
    before = snapshot(tmp_path)
    with pytest.raises(IndexOutError, match="not a workbench index"):
        build_index(small_corpus, tmp_path / "notes", embedder="keyword")  # default cache place
    assert snapshot(tmp_path) == before


def test_ensure_index_is_protected_too(small_corpus: Path, tmp_path: Path, keyword_config) -> None:
    from workbench.config import load_settings
    from workbench.index import ensure_index

    settings = load_settings(keyword_config(tmp_path, small_corpus))
    (tmp_path / "idx").mkdir()
    (tmp_path / "idx" / "thesis.md").write_text("years of work", encoding="utf-8")
    before = snapshot(tmp_path)
    with pytest.raises(IndexOutError, match="not a workbench index"):
        ensure_index(settings, progress=False)
    assert snapshot(tmp_path) == before


def test_an_empty_folder_and_an_index_are_replaced(small_corpus: Path, tmp_path: Path) -> None:
    (tmp_path / "idx").mkdir()
    keyword_build(small_corpus, tmp_path / "idx", tmp_path)
    first = read_manifest(tmp_path / "idx")
    (small_corpus / "en/new.md").write_text("A new page about checksums and their digests.",
                                            encoding="utf-8")
    keyword_build(small_corpus, tmp_path / "idx", tmp_path)
    assert read_manifest(tmp_path / "idx")["counts"]["files"] == first["counts"]["files"] + 1
    assert sorted(p.name for p in tmp_path.iterdir()) == ["cache", "corpus", "idx"]


def test_an_index_of_an_older_format_is_replaced(small_corpus: Path, tmp_path: Path) -> None:
    keyword_build(small_corpus, tmp_path / "idx", tmp_path)
    path = tmp_path / "idx" / "manifest.json"
    manifest = json.loads(path.read_text(encoding="utf-8"))
    manifest["format_version"] = 1
    del manifest["manifest_sha256"]
    path.write_text(json.dumps(manifest), encoding="utf-8")
    with pytest.raises(IndexVersionError, match=r"format 1; .*rebuild it"):
        load_index(tmp_path / "idx")
    keyword_build(small_corpus, tmp_path / "idx", tmp_path)
    load_index(tmp_path / "idx")


def test_an_index_of_json_lines_asks_for_a_rebuild_and_is_replaced(small_corpus: Path,
                                                                   tmp_path: Path) -> None:
    """Format 2 kept its fragments in fragments.jsonl; such a folder is still one a build
    replaces, and every reader says to rebuild it."""
    folder = tmp_path / "idx"
    keyword_build(small_corpus, folder, tmp_path)
    rows = pq.read_table(folder / "fragments.parquet").to_pylist()
    (folder / "fragments.parquet").unlink()
    (folder / "fragments.jsonl").write_text(
        "".join(json.dumps(row, ensure_ascii=False) + "\n" for row in rows), encoding="utf-8")
    edit_manifest(_set("format_version", to=2))(folder)
    for read in (load_index, audit_drift):
        with pytest.raises(IndexVersionError, match=r"format 2; this workbench reads format 3; "
                                                    r"rebuild it"):
            read(folder)
    keyword_build(small_corpus, folder, tmp_path)
    assert sorted(p.name for p in folder.iterdir()) == ["dense.faiss", "fragments.parquet",
                                                        "lexical", "manifest.json"]
    assert len(load_index(folder)) == 6


def test_sibling_folders_of_the_same_name_are_left_alone(small_corpus: Path, tmp_path: Path,
                                                         monkeypatch) -> None:
    keyword_build(small_corpus, tmp_path / "idx", tmp_path)
    pid = os.getpid()
    theirs = [tmp_path / f"idx.building-{pid}", tmp_path / f"idx.old-{pid}",
              tmp_path / f"idx.building-{pid}-taken", tmp_path / f"idx.old-{pid}-taken"]
    for folder in theirs:
        folder.mkdir()
        (folder / "keep.md").write_text(folder.name, encoding="utf-8")
    # the first name drawn for both the staging and the retired folder is one that exists
    tokens = iter(["taken", "fresh1", "taken", "fresh2"])
    monkeypatch.setattr("workbench.index._fragment_index.secrets.token_hex", lambda n: next(tokens))
    keyword_build(small_corpus, tmp_path / "idx", tmp_path)
    for folder in theirs:
        assert (folder / "keep.md").read_text(encoding="utf-8") == folder.name
    assert sorted(p.name for p in tmp_path.glob("idx*")) == sorted(["idx"] + [
        f.name for f in theirs])
    load_index(tmp_path / "idx")


class NoteWritingEmbedder:
    """Writes a note into the index folder while it encodes, as a user might meanwhile."""

    def __init__(self, folder: Path) -> None:
        from workbench.retrieval import KeywordEmbedder

        self._inner = KeywordEmbedder()
        self.id, self.dim, self.folder = self._inner.id, self._inner.dim, folder

    def encode_passages(self, texts: list[str]) -> Any:
        (self.folder / "note.md").write_text("written during the build", encoding="utf-8")
        return self._inner.encode_passages(texts)


def test_a_note_written_during_the_build_is_kept(small_corpus: Path, tmp_path: Path) -> None:
    keyword_build(small_corpus, tmp_path / "idx", tmp_path)
    before = (tmp_path / "idx" / "manifest.json").read_bytes()
    with pytest.raises(IndexOutError, match="not a workbench index"):
        build_index(small_corpus, tmp_path / "idx", embedder=NoteWritingEmbedder(tmp_path / "idx"),
                    cache_root=tmp_path / "other-cache")
    assert (tmp_path / "idx" / "note.md").is_file()
    assert (tmp_path / "idx" / "manifest.json").read_bytes() == before
    assert sorted(p.name for p in tmp_path.glob("idx*")) == ["idx"]  # staging removed


def test_a_failed_write_leaves_the_previous_index_and_no_staging(small_corpus: Path,
                                                                 tmp_path: Path,
                                                                 monkeypatch) -> None:
    keyword_build(small_corpus, tmp_path / "idx", tmp_path)
    before = snapshot(tmp_path / "idx")

    def disk_full(path: Path, payload: object) -> None:
        raise OSError(28, "No space left on device")

    monkeypatch.setattr("workbench.index._fragment_index._write_json_atomic", disk_full)
    with pytest.raises(OSError, match="No space"):
        keyword_build(small_corpus, tmp_path / "idx", tmp_path)
    assert snapshot(tmp_path / "idx") == before
    assert sorted(p.name for p in tmp_path.glob("idx*")) == ["idx"]


# ---------------------------------------------------------------------------------------------
# 2. damage: rows of (error type, message fragment, damage done to a freshly built index)

Damage = Callable[[Path], None]


def _manifest(folder: Path) -> dict[str, Any]:
    return dict(json.loads((folder / "manifest.json").read_text(encoding="utf-8")))


def edit_manifest(change: Callable[[dict[str, Any]], object], *, reseal: bool = True) -> Damage:
    """Change the manifest; ``reseal`` recomputes its own digest, as a careful forger would."""
    def damage(folder: Path) -> None:
        manifest = _manifest(folder)
        change(manifest)
        if reseal:
            manifest["manifest_sha256"] = manifest_digest(manifest)
        (folder / "manifest.json").write_text(json.dumps(manifest), encoding="utf-8")
    return damage


def manifest_bytes(data: bytes) -> Damage:
    def damage(folder: Path) -> None:
        (folder / "manifest.json").write_bytes(data)
    return damage


def rewrite(rel: str, change: Callable[[bytes], bytes], *, agree: bool = False) -> Damage:
    """Change an artifact's bytes; ``agree`` updates the manifest to match, so the loaders
    themselves (not the digest check) meet the damage, as with ``load_index(verify=False)``."""
    def damage(folder: Path) -> None:
        path = folder / rel
        path.write_bytes(change(path.read_bytes()))
        if agree:
            import hashlib

            def record(manifest: dict[str, Any]) -> None:
                manifest["artifacts"][rel] = {"sha256": hashlib.sha256(path.read_bytes())
                                              .hexdigest(), "bytes": path.stat().st_size}
            edit_manifest(record)(folder)
    return damage


def retable(change: Callable[[pa.Table], pa.Table]) -> Damage:
    """Rewrite the fragment store as a readable Parquet file of other rows or columns, with a
    manifest that agrees, so the store's own checks (not the digest) meet the damage."""
    def damage(folder: Path) -> None:
        path = folder / "fragments.parquet"
        pq.write_table(change(pq.read_table(path)), path)
        rewrite("fragments.parquet", lambda b: b, agree=True)(folder)
    return damage


def half(data: bytes) -> bytes:
    return data[:len(data) // 2]


def remove(rel: str) -> Damage:
    def damage(folder: Path) -> None:
        target = folder / rel
        shutil.rmtree(target) if target.is_dir() else target.unlink()
    return damage


def _set(*path: str, to: object) -> Callable[[dict[str, Any]], None]:
    """Set the value at ``path`` (keys from the top) in a manifest; ``to=...`` deletes it."""
    def change(manifest: dict[str, Any]) -> None:
        *parents, last = path
        node = manifest
        for key in parents:
            node = node[key]
        if to is ...:
            del node[last]
        else:
            node[last] = to
    return change


DAMAGE: list[tuple[type[FragmentIndexError], str, Damage]] = [
    # the manifest as a file
    (IndexMissingError, "(no manifest.json)", remove("manifest.json")),
    (IndexCorruptError, "manifest.json is not UTF-8 (byte 1)", manifest_bytes(b'{\xff"}')),
    (IndexCorruptError, "manifest.json is not readable JSON", manifest_bytes(b'{"format": ')),
    (IndexCorruptError, "manifest.json is not a workbench index manifest", manifest_bytes(b"[]")),
    (IndexCorruptError, "manifest.json is not a workbench index manifest",
     manifest_bytes(b'{"name": "a web app"}')),
    (IndexVersionError, "has index format 99; this workbench reads format 3",
     edit_manifest(_set("format_version", to=99), reseal=False)),
    # edits after the build: caught by the manifest's own digest
    (IndexCorruptError, "lacks its own digest 'manifest_sha256'",
     edit_manifest(_set("manifest_sha256", to=...), reseal=False)),
    (IndexCorruptError, "does not match its own digest",
     edit_manifest(_set("corpus_root", to="/somewhere/else"), reseal=False)),
    (IndexCorruptError, "does not match its own digest",
     edit_manifest(_set("artifacts", "dense.faiss", to={"sha256": "0" * 64, "bytes": 1}),
                   reseal=False)),
    (IndexCorruptError, "does not match its own digest",
     edit_manifest(_set("counts", "fragments", to=1), reseal=False)),
    # fields of the wrong shape (resealed, so the shape check itself answers)
    (IndexCorruptError, "'artifacts' is an array, not an object",
     edit_manifest(lambda m: m.update(artifacts=sorted(m["artifacts"])))),
    (IndexCorruptError, "'artifacts' has 'dense.faiss' as a string",
     edit_manifest(_set("artifacts", "dense.faiss", to="0" * 64))),
    (IndexCorruptError, "'artifacts' has no sha256 hex digest for 'dense.faiss'",
     edit_manifest(_set("artifacts", "dense.faiss", "sha256", to="abc"))),
    (IndexCorruptError, "'artifacts' has 'dense.faiss' 'bytes' = '12', not a whole number",
     edit_manifest(_set("artifacts", "dense.faiss", "bytes", to="12"))),
    (IndexCorruptError, "'artifacts' names '../corpus/en/base64.md'",
     edit_manifest(_set("artifacts", "../corpus/en/base64.md", to={"sha256": "0" * 64,
                                                                   "bytes": 1}))),
    (IndexCorruptError, "'artifacts' does not list dense.faiss",
     edit_manifest(_set("artifacts", "dense.faiss", to=...))),
    (IndexCorruptError, "'counts' lacks 'fragments'",
     edit_manifest(_set("counts", "fragments", to=...))),
    (IndexCorruptError, "'counts' is an array", edit_manifest(_set("counts", to=[3, 6, 0]))),
    (IndexCorruptError, "'counts' has 'fragments' = '6', not a whole number",
     edit_manifest(_set("counts", "fragments", to="6"))),
    (IndexCorruptError, "'counts' has 'fragments' = True",
     edit_manifest(_set("counts", "fragments", to=True))),
    (IndexCorruptError, "'counts' has 'fragments' = 6.0",
     edit_manifest(_set("counts", "fragments", to=6.0))),
    (IndexCorruptError, "'counts' has 'files' = -1", edit_manifest(_set("counts", "files", to=-1))),
    (IndexCorruptError, "'embedder' is absent", edit_manifest(_set("embedder", to=...))),
    (IndexCorruptError, "'embedder' has 'dim' = '512'",
     edit_manifest(_set("embedder", "dim", to="512"))),
    (IndexCorruptError, "'embedder' lacks a string 'id'",
     edit_manifest(_set("embedder", "id", to=7))),
    (IndexCorruptError, "'corpus_root' is a number", edit_manifest(_set("corpus_root", to=3))),
    (IndexCorruptError, "'corpus_digest' is a string, not a sha256 hex digest",
     edit_manifest(_set("corpus_digest", to="abc"))),
    (IndexCorruptError, "'fragmenting' is an array", edit_manifest(_set("fragmenting", to=[]))),
    (IndexCorruptError, "'files' is null", edit_manifest(_set("files", to=None))),
    # artifacts: missing, truncated, edited (the digest check answers)
    (IndexCorruptError, "fragments.parquet is missing", remove("fragments.parquet")),
    (IndexCorruptError, "fragments.parquet has", rewrite("fragments.parquet", half)),
    (IndexCorruptError, "dense.faiss has", rewrite("dense.faiss", half)),
    (IndexCorruptError, "lexical/data.csc.index.npy has",
     rewrite("lexical/data.csc.index.npy", half)),
    (IndexCorruptError, "lexical/vocab.index.json does not match its digest",
     rewrite("lexical/vocab.index.json", lambda b: b.replace(b"base64", b"BASE64"))),
    # the same damage with a manifest that agrees: the loaders answer, naming the artifact
    (IndexCorruptError, "fragments.parquet cannot be read",
     rewrite("fragments.parquet", half, agree=True)),
    (IndexCorruptError, "fragments.parquet cannot be read",
     rewrite("fragments.parquet", lambda b: b"[]\n", agree=True)),
    (IndexCorruptError, "fragments.parquet cannot be read",
     rewrite("fragments.parquet", lambda b: b + b"\xff", agree=True)),
    (IndexCorruptError, "5 fragments, the manifest says 6",
     retable(lambda t: t.slice(0, 5))),
    (IndexCorruptError, "fragments.parquet lacks the column 'text'",
     retable(lambda t: t.drop_columns(["text"]))),
    (IndexCorruptError, "fragments.parquet: column 'start' holds string, not int64",
     retable(lambda t: t.set_column(2, "start", t.column("start").cast(pa.string())))),
    (IndexCorruptError, "fragments.parquet: column 'text' has 1 empty values",
     retable(lambda t: t.set_column(6, "text", pa.array(
         [None, *t.column("text").to_pylist()[1:]], pa.string())))),
    (IndexCorruptError, "dense.faiss cannot be read", rewrite("dense.faiss", half, agree=True)),
    (IndexCorruptError, "dense.faiss cannot be read",
     rewrite("dense.faiss", lambda b: b"", agree=True)),
    (IndexCorruptError, "lexical/ cannot be read",
     rewrite("lexical/data.csc.index.npy", lambda b: b"", agree=True)),
    (IndexCorruptError, "lexical/ cannot be read",
     rewrite("lexical/indptr.csc.index.npy", half, agree=True)),
    (IndexCorruptError, "lexical/ cannot be read",
     rewrite("lexical/vocab.index.json", half, agree=True)),
    (IndexCorruptError, "lexical/ cannot be read",
     rewrite("lexical/workbench_lexical.json", lambda b: b"[]", agree=True)),
]


@pytest.mark.parametrize(("error", "fragment", "damage"), DAMAGE,
                         ids=[f"{i:02d}-{row[1][:40]}" for i, row in enumerate(DAMAGE)])
def test_damage_is_a_typed_error_naming_the_file(error: type[FragmentIndexError], fragment: str,
                                                 damage: Damage, small_corpus: Path,
                                                 tmp_path: Path) -> None:
    folder = tmp_path / "index"
    keyword_build(small_corpus, folder, tmp_path)
    assert read_manifest(folder)["counts"]["fragments"] == 6  # the rows' numbers rely on it
    damage(folder)
    with pytest.raises(error, match=re.escape(fragment)) as caught:
        load_index(folder)
    message = str(caught.value)
    assert type(caught.value) is error
    assert str(folder) in message and "workbench index build --out" in message


def test_a_fresh_manifest_carries_its_own_digest(small_index) -> None:
    manifest = small_index.manifest
    assert manifest["format_version"] == 3
    assert manifest["manifest_sha256"] == manifest_digest(manifest)


# ---------------------------------------------------------------------------------------------
# 3. the drift audit checks the index before it trusts corpus_root


def _decoy(tmp_path: Path, small_corpus: Path) -> Path:
    """A copy of the corpus elsewhere: audited against it, everything would match."""
    decoy = tmp_path / "decoy"
    shutil.copytree(small_corpus, decoy)
    (small_corpus / "en/base64.md").unlink()  # the real corpus has drifted
    return decoy


@pytest.mark.parametrize(("fragment", "tamper"), [
    ("does not match its own digest",
     lambda decoy: edit_manifest(_set("corpus_root", to=str(decoy)), reseal=False)),
    ("fragments.parquet does not match its digest",
     lambda decoy: rewrite("fragments.parquet", lambda b: b.replace(b"Base64", b"Base65"))),
    ("dense.faiss has", lambda decoy: rewrite("dense.faiss", half)),
], ids=["corpus_root", "fragments", "dense"])
def test_drift_refuses_a_tampered_index(fragment: str, tamper: Callable[[Path], Damage],
                                        small_corpus: Path, tmp_path: Path, capsys) -> None:
    folder = tmp_path / "index"
    keyword_build(small_corpus, folder, tmp_path)
    tamper(_decoy(tmp_path, small_corpus))(folder)
    with pytest.raises(IndexCorruptError, match=re.escape(fragment)):
        audit_drift(folder)
    capsys.readouterr()
    code = cli.main(["audit", "drift", "--index", str(folder), "--no-record"])
    captured = capsys.readouterr()
    assert code == 2 and "drift:" not in captured.out
    assert captured.err.count("\n") == 1
    assert captured.err.startswith("workbench: IndexCorruptError:") and fragment in captured.err


def test_drift_reads_the_fragment_store_only(small_corpus: Path, tmp_path: Path) -> None:
    """A same-size edit of the search arrays is the loader's to catch (its digest); the audit
    never opens them, so it neither hashes them nor refuses over them."""
    folder = tmp_path / "index"
    keyword_build(small_corpus, folder, tmp_path)
    path = folder / "dense.faiss"
    data = bytearray(path.read_bytes())
    data[-5] ^= 0xFF
    path.write_bytes(bytes(data))
    summary = audit_drift(folder).attrs["summary"]
    assert summary.total == summary.match == 6
    with pytest.raises(IndexCorruptError, match="dense.faiss does not match its digest"):
        load_index(folder)


def test_drift_of_a_sound_index_uses_its_corpus(small_corpus: Path, tmp_path: Path) -> None:
    folder = tmp_path / "index"
    keyword_build(small_corpus, folder, tmp_path)
    _decoy(tmp_path, small_corpus)
    summary = audit_drift(folder).attrs["summary"]
    assert summary.missing_files == 1 and summary.match == summary.total - summary.missing_file
