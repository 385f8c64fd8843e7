"""The records of the corpus layer: where a fragment sits, and the fragment itself."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any


@dataclass(frozen=True)
class Anchor:
    """Where a fragment sits in its file.

    Offsets count code points of the file's *normalised* text (see ``workbench.corpus``): the
    UTF-8 byte-order mark removed, CRLF and lone CR turned into LF. ``text[start:end]`` of that
    normalised text is the fragment, character for character.
    """

    path: str
    """The file, relative to the corpus root, with forward slashes."""
    start: int
    """First code point of the fragment."""
    end: int
    """One past the last code point."""
    sha256: str
    """Hex sha256 of the fragment's text encoded as UTF-8."""

    def to_dict(self) -> dict[str, Any]:
        """A JSON-ready form."""
        return {"path": self.path, "start": self.start, "end": self.end, "sha256": self.sha256}


@dataclass(frozen=True)
class Fragment:
    """A quotable piece of a corpus file."""

    id: str
    """``path#start-end``: readable and unique within one index."""
    anchor: Anchor
    """Where the text sits in its file."""
    text: str
    """The exact text of ``anchor`` at indexing time."""
    lang: str
    """``ru`` or ``en``, by the share of Cyrillic letters."""

    def to_dict(self) -> dict[str, Any]:
        """A JSON-ready form: one row of the fragment store."""
        return {
            "id": self.id,
            "path": self.anchor.path,
            "start": self.anchor.start,
            "end": self.anchor.end,
            "sha256": self.anchor.sha256,
            "lang": self.lang,
            "text": self.text,
        }

    @classmethod
    def from_dict(cls, row: dict[str, Any]) -> Fragment:
        """Rebuild a fragment from its stored JSON line."""
        anchor = Anchor(path=row["path"], start=int(row["start"]), end=int(row["end"]),
                        sha256=row["sha256"])
        return cls(id=row["id"], anchor=anchor, text=row["text"], lang=row["lang"])
