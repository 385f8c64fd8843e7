"""The record every check returns when something is wrong, and the typed errors of the package."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

from workbench.errors import WorkbenchError


@dataclass(frozen=True)
class Problem:
    """One finding of a check: which code, which message of the table, where, and its details."""

    code: str
    """A gate code (``E_*``) or a fallacy code (``F_*``)."""
    key: str
    """The message key in :data:`workbench.fts.MESSAGES`."""
    params: Mapping[str, Any] = field(default_factory=dict)
    """The values the message template is filled with (names, types, numbers, a witness point)."""
    line: int = 0
    """Line in the specification (0 when the problem has no single place)."""
    column: int = 0
    """Column in the specification (0 when the problem has no single place)."""

    def where(self) -> dict[str, Any]:
        """The location part of the refusal numbers."""
        out: dict[str, Any] = {}
        if self.line:
            out["line"] = self.line
            out["column"] = self.column
        for key in ("case", "premise", "example", "property", "entry", "field", "name"):
            if key in self.params:
                out[key] = self.params[key]
        return out


class FtsError(WorkbenchError):
    """Bad input to the FTS layer: an unreadable file, an unknown input name, a bad value."""


class LibraryError(FtsError):
    """The morphism library cannot be read: a missing folder, a malformed entry file."""


class CertificateError(FtsError):
    """A certificate could not be built or read back canonically."""


__all__ = ["CertificateError", "FtsError", "LibraryError", "Problem"]
