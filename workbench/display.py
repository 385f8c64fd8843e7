"""Plain text that is safe to print on a terminal, whatever a question or a file contained.

A question comes from whoever typed it and a quote from whatever the corpus holds, so either may
carry characters that a terminal obeys instead of showing: escape sequences that clear the screen
or rename the window (``ESC [2J``, ``ESC ] 0;title BEL``), a carriage return that lets a later
line overwrite an earlier one, C1 controls, or bidirectional overrides (U+202E) that make text
read in a different order than it is stored. :func:`inert` renders each such character as a
visible escape, so what is printed is what was there.
"""

from __future__ import annotations

import unicodedata

_SHORT = {"\t": "\\t", "\n": "\\n", "\r": "\\r"}

# Cc: C0 and C1 controls and DEL; Cf: format characters (bidi embeddings, overrides and isolates,
# zero-width characters, the byte order mark); Zl/Zp: line and paragraph separators; Cs: lone
# surrogates, which a command line with undecodable bytes produces and which print cannot encode.
_UNSAFE_CATEGORIES = frozenset({"Cc", "Cf", "Zl", "Zp", "Cs"})


def _escape(char: str) -> str:
    short = _SHORT.get(char)
    if short is not None:
        return short
    point = ord(char)
    if point <= 0xFF:
        return f"\\x{point:02x}"
    if point <= 0xFFFF:
        return f"\\u{point:04x}"
    return f"\\U{point:08x}"


def is_inert(char: str) -> bool:
    """Whether a terminal shows ``char`` as itself (it is not a control or format character)."""
    return unicodedata.category(char) not in _UNSAFE_CATEGORIES


def inert(text: str, *, keep: str = "") -> str:
    r"""``text`` with every control and format character rendered as a visible escape.

    ESC becomes the four characters ``\x1b``, a carriage return ``\r``, U+202E ``\u202e``.
    Backslashes already in ``text`` are left alone, so applying :func:`inert` twice gives the
    same text as once.

    Args:
        text: What is about to be printed.
        keep: Characters to print as they are where the layout needs them, e.g. ``"\n\t"`` for a
            block of several lines; by default nothing is kept, so one value stays on one line.

    Returns:
        Text with no character a terminal would act on, except those in ``keep``.
    """
    return "".join(c if c in keep or is_inert(c) else _escape(c) for c in text)


__all__ = ["inert", "is_inert"]
