"""Reading corpus files safely: one decoding, one newline normalisation, no escape from the root.

The normalisation (applied once, everywhere offsets are computed or checked):

1. the bytes are decoded as strict UTF-8 — a file that is not valid UTF-8 is reported with the
   byte position of the first bad sequence and is never indexed with guessed offsets;
2. a leading byte-order mark (U+FEFF) is removed;
3. every CRLF pair and every lone CR becomes LF.

Offsets are then code points of the resulting string (Python ``str`` indices). An HTML file
goes through one more, documented step: its text is extracted (``workbench.corpus._html``), and
offsets index into the extracted text.
"""

from __future__ import annotations

import hashlib
import os
from dataclasses import dataclass
from pathlib import Path, PurePosixPath

from workbench.corpus._errors import (
    BinaryFileError,
    CorpusError,
    CorpusFileMissingError,
    NotUtf8Error,
    OutsideCorpusError,
)
from workbench.corpus._html import HTML_SUFFIXES, extract_html, is_html

TEXT_SUFFIXES = (".md", ".txt")
"""Files read as plain text."""
INDEXED_SUFFIXES = TEXT_SUFFIXES + HTML_SUFFIXES
"""Every file name (lower-cased) that the corpus lists: plain text, and HTML through its recipe."""
_BINARY_SNIFF = 8192


@dataclass(frozen=True)
class DecodedText:
    """One file's text after decoding and newline normalisation."""

    path: str
    """Relative POSIX path inside the corpus."""
    text: str
    """The normalised text that offsets index into."""
    sha256: str
    """Hex sha256 of the raw bytes as read (what changed on disk)."""
    size: int
    """Raw size in bytes."""


def normalise_newlines(text: str) -> str:
    """Drop a leading BOM and turn CRLF / CR into LF (the corpus's one normalisation)."""
    if text.startswith("\ufeff"):
        text = text[1:]
    if "\r" in text:
        text = text.replace("\r\n", "\n").replace("\r", "\n")
    return text


def decode_bytes(path: str, raw: bytes) -> str:
    """Decode ``raw`` per the module's rules, or raise a typed error naming the file."""
    if b"\x00" in raw[:_BINARY_SNIFF] or (len(raw) > _BINARY_SNIFF and b"\x00" in raw):
        raise BinaryFileError(f"{path}: binary file (NUL bytes); skipped")
    try:
        text = raw.decode("utf-8")
    except UnicodeDecodeError as exc:
        raise NotUtf8Error(path, exc.start, exc.reason) from None
    return normalise_newlines(text)


def text_of(path: str, raw: bytes) -> str:
    """The text that offsets index into: decoded and normalised, then extracted if HTML.

    Raises:
        BinaryFileError, NotUtf8Error: see :func:`decode_bytes`.
        HtmlExtractionError: an HTML file with no extractable text (see ``corpus._html``).
    """
    text = decode_bytes(path, raw)
    return normalise_newlines(extract_html(path, text)) if is_html(path) else text


def _check_relative(rel: str) -> PurePosixPath:
    pure = PurePosixPath(rel.replace("\\", "/"))
    if pure.is_absolute() or rel.startswith(("/", "\\")) or (len(rel) > 1 and rel[1] == ":"):
        raise OutsideCorpusError(f"{rel!r}: absolute paths are refused; anchors are relative")
    if any(part == ".." for part in pure.parts):
        raise OutsideCorpusError(f"{rel!r}: '..' would leave the corpus root; refused")
    if not pure.parts:
        raise OutsideCorpusError(f"{rel!r}: empty path")
    return pure


class Corpus:
    """A folder of text files, read only through paths that stay inside it."""

    def __init__(self, root: str | os.PathLike[str]) -> None:
        root_path = Path(root)
        if not root_path.is_dir():
            raise CorpusError(f"corpus root {root_path} is not a folder")
        self.root = root_path.resolve()

    def __repr__(self) -> str:
        return f"Corpus({str(self.root)!r})"

    def resolve(self, rel: str) -> Path:
        """The absolute path of ``rel``; refuses anything that leaves the root, symlinks included."""
        pure = _check_relative(rel)
        candidate = self.root.joinpath(*pure.parts)
        resolved = candidate.resolve()
        if resolved != self.root and self.root not in resolved.parents:
            raise OutsideCorpusError(f"{rel!r} resolves to {resolved}, outside {self.root}; refused")
        return resolved

    def read(self, rel: str) -> DecodedText:
        """Read and normalise one file as it is *now*."""
        path = self.resolve(rel)
        try:
            raw = path.read_bytes()
        except FileNotFoundError:
            raise CorpusFileMissingError(f"{rel}: no such file under {self.root}") from None
        except IsADirectoryError:
            raise CorpusError(f"{rel}: is a folder, not a file") from None
        text = text_of(rel, raw)
        return DecodedText(path=rel, text=text, sha256=hashlib.sha256(raw).hexdigest(),
                           size=len(raw))

    def list_files(self) -> tuple[list[str], list[tuple[str, str]]]:
        """Every ``.md``/``.txt``/HTML file under the root (sorted), and the skipped ones with a reason.

        Hidden folders are not entered. A symlink that leads outside the root is skipped and
        reported, never followed.
        """
        found: list[str] = []
        skipped: list[tuple[str, str]] = []
        for dirpath, dirnames, filenames in os.walk(self.root, followlinks=False):
            dirnames[:] = sorted(d for d in dirnames if not d.startswith("."))
            base = Path(dirpath)
            for dirname in list(dirnames):
                full = base / dirname
                if full.is_symlink():
                    rel = full.relative_to(self.root).as_posix()
                    skipped.append((rel + "/", "symlinked folder; not followed"))
                    dirnames.remove(dirname)
            for name in sorted(filenames):
                if name.startswith("."):
                    continue
                full = base / name
                rel = full.relative_to(self.root).as_posix()
                if not name.lower().endswith(INDEXED_SUFFIXES):
                    continue
                if full.is_symlink():
                    try:
                        self.resolve(rel)
                    except OutsideCorpusError:
                        skipped.append((rel, "symlink leaves the corpus root; refused"))
                        continue
                found.append(rel)
        return sorted(found), skipped
