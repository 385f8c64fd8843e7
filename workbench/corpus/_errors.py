"""The corpus layer's typed errors."""

from __future__ import annotations

from workbench.errors import WorkbenchError


class CorpusError(WorkbenchError):
    """A problem with a corpus file or path."""


class OutsideCorpusError(CorpusError):
    """A path (or a symlink) that leads outside the corpus root; refused."""


class CorpusFileMissingError(CorpusError):
    """The file an anchor names does not exist (any more)."""


class NotUtf8Error(CorpusError):
    """The file is not valid UTF-8; its offsets cannot be computed without guessing."""

    def __init__(self, path: str, position: int, reason: str) -> None:
        self.path = path
        self.position = position
        super().__init__(
            f"{path}: not valid UTF-8 at byte {position} ({reason}); "
            "re-save it as UTF-8 to index it"
        )


class BinaryFileError(CorpusError):
    """The file holds NUL bytes: binary data, not text."""


class HtmlExtractionError(CorpusError):
    """An HTML file whose text cannot be extracted (unparsable, or empty once its chrome is gone)."""
