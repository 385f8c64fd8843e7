"""The verbatim check, twofold: in the fragment as indexed, and in the file as it is now.

The second half exists because an index can outlive its corpus: when a file is rewritten after
indexing, the stored fragment may still read well while the file no longer says it. Only a quote
that passes both halves may leave as mode-A evidence.
"""

from __future__ import annotations

from dataclasses import dataclass
from enum import StrEnum

from workbench.corpus._records import Fragment
from workbench.corpus._text import (
    BinaryFileError,
    Corpus,
    CorpusError,
    CorpusFileMissingError,
    NotUtf8Error,
    OutsideCorpusError,
)


class QuoteStatus(StrEnum):
    """Outcome of :func:`verify_quote`; only ``VERBATIM`` may be quoted."""

    VERBATIM = "verbatim"
    """The quote is in the fragment and the fragment is at its anchor in the current file."""
    NOT_IN_FRAGMENT = "not_in_fragment"
    """The quote is not a substring of the fragment as indexed."""
    DRIFTED = "drifted"
    """The fragment's text is still in the file, but at other offsets."""
    CHANGED = "changed"
    """The file exists but no longer contains the fragment's text."""
    MISSING_FILE = "missing_file"
    """The anchored file no longer exists."""
    UNREADABLE = "unreadable"
    """The file is no longer UTF-8 text (binary or another encoding)."""
    OUTSIDE_CORPUS = "outside_corpus"
    """The anchor's path leaves the corpus root; refused without reading."""


@dataclass(frozen=True)
class QuoteCheck:
    """The result of the twofold verbatim check."""

    status: QuoteStatus
    """Which half failed, if any."""
    in_fragment: bool
    """First half: the quote is a substring of the fragment as indexed."""
    in_file: bool
    """Second half: the fragment's text is at its anchor in the file now."""
    quote_start: int | None
    """Where the quote starts in the current file (when both halves hold)."""
    current_start: int | None
    """Where the fragment's text sits now, when it moved (``DRIFTED``) or stayed."""
    current_end: int | None
    """End of that span."""
    detail: str
    """A sentence for traces and refusals."""

    @property
    def ok(self) -> bool:
        """Both halves hold."""
        return self.status is QuoteStatus.VERBATIM


def locate(text: str, needle: str, near: int) -> int:
    """Position of ``needle`` in ``text`` closest to ``near`` (-1 when absent)."""
    best = -1
    pos = text.find(needle)
    while pos != -1:
        if best == -1 or abs(pos - near) < abs(best - near):
            best = pos
        if pos > near:
            break
        pos = text.find(needle, pos + 1)
    return best


def verify_quote(quote: str, fragment: Fragment, corpus: Corpus) -> QuoteCheck:
    """Check ``quote`` against ``fragment`` and against the fragment's file as it is now."""
    anchor = fragment.anchor
    offset = fragment.text.find(quote) if quote else -1
    in_fragment = offset != -1
    if not in_fragment:
        return QuoteCheck(QuoteStatus.NOT_IN_FRAGMENT, False, False, None, None, None,
                          f"the quote is not a substring of fragment {fragment.id}")
    try:
        current = corpus.read(anchor.path).text
    except OutsideCorpusError as exc:
        return QuoteCheck(QuoteStatus.OUTSIDE_CORPUS, True, False, None, None, None, str(exc))
    except CorpusFileMissingError:
        return QuoteCheck(QuoteStatus.MISSING_FILE, True, False, None, None, None,
                          f"{anchor.path} no longer exists under {corpus.root}")
    except (NotUtf8Error, BinaryFileError) as exc:
        return QuoteCheck(QuoteStatus.UNREADABLE, True, False, None, None, None, str(exc))
    except CorpusError as exc:
        return QuoteCheck(QuoteStatus.UNREADABLE, True, False, None, None, None, str(exc))
    if current[anchor.start:anchor.end] == fragment.text:
        return QuoteCheck(QuoteStatus.VERBATIM, True, True, anchor.start + offset, anchor.start,
                          anchor.end, f"verbatim in {anchor.path} at {anchor.start}-{anchor.end}")
    moved = locate(current, fragment.text, anchor.start)
    if moved != -1:
        end = moved + len(fragment.text)
        return QuoteCheck(QuoteStatus.DRIFTED, True, False, None, moved, end,
                          f"{anchor.path} changed: the text moved from {anchor.start}-{anchor.end}"
                          f" to {moved}-{end}; the index is stale")
    return QuoteCheck(QuoteStatus.CHANGED, True, False, None, None, None,
                      f"{anchor.path} changed: the fragment's text is no longer in the file")
