"""The corpus layer: safe reading, fragments with anchors, the index, verbatim quotes, drift.

Offsets everywhere are code points of a file's normalised text: decoded as strict UTF-8, the
byte-order mark removed, CRLF and lone CR turned into LF (``normalise_newlines``). A file that
is not UTF-8 or holds binary data is reported and never indexed with guessed offsets; a path or
symlink that leaves the corpus root is refused.
"""

from workbench.corpus._records import Anchor, Fragment  # noqa: I001 - records first (cycle)
from workbench.corpus._text import (
    BinaryFileError,
    Corpus,
    CorpusError,
    CorpusFileMissingError,
    DecodedText,
    NotUtf8Error,
    OutsideCorpusError,
    normalise_newlines,
)
from workbench.corpus._fragment import detect_lang, fragment_spans, fragment_text
from workbench.corpus._index import (
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
    corpus_digest,
    index_is_current,
    load_index,
    manifest_digest,
    read_manifest,
)
from workbench.corpus._quote import QuoteCheck, QuoteStatus, verify_quote
from workbench.corpus._drift import DriftSummary, audit_drift, summarise
from workbench.corpus._edits import (
    DRIFT_EDITS,
    AppliedEdit,
    DriftEdit,
    DriftEditError,
    EditedCopy,
    apply_drift_edits,
)

__all__ = [
    "DRIFT_EDITS",
    "Anchor",
    "AppliedEdit",
    "BinaryFileError",
    "BuildReport",
    "Corpus",
    "CorpusError",
    "CorpusFileMissingError",
    "DecodedText",
    "DriftEdit",
    "DriftEditError",
    "DriftSummary",
    "EditedCopy",
    "Fragment",
    "FragmentIndex",
    "FragmentIndexError",
    "IndexCorruptError",
    "IndexMismatchError",
    "IndexMissingError",
    "IndexOutError",
    "IndexVersionError",
    "NotUtf8Error",
    "OutsideCorpusError",
    "QuoteCheck",
    "QuoteStatus",
    "SkippedFile",
    "apply_drift_edits",
    "audit_drift",
    "build_index",
    "corpus_digest",
    "detect_lang",
    "fragment_spans",
    "fragment_text",
    "index_is_current",
    "load_index",
    "manifest_digest",
    "normalise_newlines",
    "read_manifest",
    "summarise",
    "verify_quote",
]
