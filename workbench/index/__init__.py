"""The fragment index: a corpus cut into fragments, searchable lexically and densely, on disk.

An index is a folder with no pickle in it: ``manifest.json`` (versions, the digest of every
indexed file, the embedder, the build parameters, a digest of every artifact and of the manifest
itself), ``fragments.parquet``, the lexical arrays and ``dense.faiss``. Building replaces only an
index it wrote; loading checks every digest and fails with a typed error that names the file.
The drift audit reads the index's fragments back against the corpus files as they are now.

This floor stands on ``corpus`` (files, text, fragments, anchors) and ``retrieval`` (analyzers,
embedders, search), which know nothing of it.
"""

from workbench.index._drift import DriftSummary, audit_drift, summarise
from workbench.index._ensure import ensure_index
from workbench.index._fragment_index import (
    BuildReport,
    FragmentIndex,
    FragmentIndexError,
    IndexCorruptError,
    IndexMismatchError,
    IndexMissingError,
    IndexOutError,
    IndexVersionError,
    SkippedFile,
    build_index,
    index_corpus_root,
    index_digest,
    index_is_current,
    load_index,
    manifest_digest,
    read_manifest,
    source_digest,
)

__all__ = [
    "BuildReport",
    "DriftSummary",
    "FragmentIndex",
    "FragmentIndexError",
    "IndexCorruptError",
    "IndexMismatchError",
    "IndexMissingError",
    "IndexOutError",
    "IndexVersionError",
    "SkippedFile",
    "audit_drift",
    "build_index",
    "ensure_index",
    "index_corpus_root",
    "index_digest",
    "index_is_current",
    "load_index",
    "manifest_digest",
    "read_manifest",
    "source_digest",
    "summarise",
]
