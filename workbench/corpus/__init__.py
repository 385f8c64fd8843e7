"""The corpus layer: safe reading, fragments with anchors, verbatim quotes, drift edits for teaching.

Offsets everywhere are code points of a file's normalised text: decoded as strict UTF-8, the
byte-order mark removed, CRLF and lone CR turned into LF (``normalise_newlines``). A file that
is not UTF-8 or holds binary data is reported and never indexed with guessed offsets; a path or
symlink that leaves the corpus root is refused. HTML pages are read through one documented
extraction recipe (``workbench.corpus._html``) and their offsets index the extracted text.
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
    text_of,
)
from workbench.corpus._errors import HtmlExtractionError
from workbench.corpus._html import EXTRACTOR_ID, HTML_SUFFIXES, extract_html
from workbench.corpus._fragment import detect_lang, fragment_spans, fragment_text
from workbench.corpus._quote import QuoteCheck, QuoteStatus, verify_quote
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
    "EXTRACTOR_ID",
    "HTML_SUFFIXES",
    "Anchor",
    "AppliedEdit",
    "BinaryFileError",
    "Corpus",
    "CorpusError",
    "CorpusFileMissingError",
    "DecodedText",
    "DriftEdit",
    "DriftEditError",
    "EditedCopy",
    "Fragment",
    "HtmlExtractionError",
    "NotUtf8Error",
    "OutsideCorpusError",
    "QuoteCheck",
    "QuoteStatus",
    "apply_drift_edits",
    "detect_lang",
    "extract_html",
    "fragment_spans",
    "fragment_text",
    "normalise_newlines",
    "text_of",
    "verify_quote",
]
