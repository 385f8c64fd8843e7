"""Cutting normalised text into fragments that respect paragraphs and sentences.

A fragment is, by default, one paragraph (a run of lines between blank lines). A paragraph
shorter than ``min_chars`` — a heading, a one-line lead-in — is joined to the paragraph after it,
so a heading travels with the text it names. A paragraph longer than ``max_chars`` is cut at
line breaks (list items, table rows) and then at sentence ends, packing whole pieces greedily;
only a single sentence longer than ``max_chars`` is cut at a space. Fragments never overlap and
each is exactly ``text[start:end]``.
"""

from __future__ import annotations

import hashlib
import re
from collections.abc import Iterator

from workbench.corpus._records import Anchor, Fragment
from workbench.text import detect_lang

_BLANK_LINES = re.compile(r"\n[ \t]*\n(?:[ \t]*\n)*")
# A sentence ends at . ! ? … (optionally followed by a closing quote or bracket) before a space
# and an upper-case letter, digit, quote, bracket or list marker.
_SENTENCE_END = re.compile(r"(?<=[.!?…])[»\"')\]]?\s+(?=[A-ZА-ЯЁ0-9«\"'(\[`*\-–—])")


def _strip_span(text: str, start: int, end: int) -> tuple[int, int]:
    while start < end and text[start].isspace():
        start += 1
    while end > start and text[end - 1].isspace():
        end -= 1
    return start, end


def _paragraphs(text: str) -> Iterator[tuple[int, int]]:
    pos = 0
    for match in _BLANK_LINES.finditer(text):
        start, end = _strip_span(text, pos, match.start())
        if end > start:
            yield start, end
        pos = match.end()
    start, end = _strip_span(text, pos, len(text))
    if end > start:
        yield start, end


def _pieces(text: str, start: int, end: int, pattern: re.Pattern[str]) -> list[tuple[int, int]]:
    """Split ``text[start:end]`` at ``pattern`` matches into stripped pieces."""
    out: list[tuple[int, int]] = []
    pos = start
    for match in pattern.finditer(text, start, end):
        s, e = _strip_span(text, pos, match.start())
        if e > s:
            out.append((s, e))
        pos = match.end()
    s, e = _strip_span(text, pos, end)
    if e > s:
        out.append((s, e))
    return out


def sentence_spans(text: str) -> list[tuple[int, int]]:
    """The ``(start, end)`` spans of ``text``'s sentences, stripped, by the fragmenter's rule."""
    return _pieces(text, 0, len(text), _SENTENCE_END)


def _hard_cut(text: str, start: int, end: int, max_chars: int) -> list[tuple[int, int]]:
    out = []
    while end - start > max_chars:
        cut = text.rfind(" ", start + max_chars // 2, start + max_chars)
        if cut <= start:
            cut = start + max_chars
        s, e = _strip_span(text, start, cut)
        if e > s:
            out.append((s, e))
        start = cut
    s, e = _strip_span(text, start, end)
    if e > s:
        out.append((s, e))
    return out


def _pack(spans: list[tuple[int, int]], max_chars: int) -> list[tuple[int, int]]:
    packed: list[tuple[int, int]] = []
    for s, e in spans:
        if packed and e - packed[-1][0] <= max_chars:
            packed[-1] = (packed[-1][0], e)
        else:
            packed.append((s, e))
    return packed


_LINE_BREAK = re.compile(r"\n")


def _split_long(text: str, start: int, end: int, max_chars: int) -> list[tuple[int, int]]:
    if end - start <= max_chars:
        return [(start, end)]
    spans: list[tuple[int, int]] = []
    for ls, le in _pieces(text, start, end, _LINE_BREAK):
        if le - ls <= max_chars:
            spans.append((ls, le))
            continue
        for ss, se in _pieces(text, ls, le, _SENTENCE_END):
            spans.extend(_hard_cut(text, ss, se, max_chars) if se - ss > max_chars else [(ss, se)])
    return _pack(spans, max_chars)


def fragment_spans(text: str, max_chars: int = 700, min_chars: int = 120) -> list[tuple[int, int]]:
    """The ``(start, end)`` spans of ``text``'s fragments, in order."""
    if max_chars < 20 or min_chars < 0 or min_chars > max_chars:
        raise ValueError(f"need 20 <= max_chars and 0 <= min_chars <= max_chars, "
                         f"got max_chars={max_chars}, min_chars={min_chars}")
    spans: list[tuple[int, int]] = []
    pending: int | None = None  # start of short paragraphs waiting to join the next one
    for start, end in _paragraphs(text):
        if pending is not None:
            start = pending
            pending = None
        if end - start < min_chars:
            pending = start
            continue
        spans.extend(_split_long(text, start, end, max_chars))
    if pending is not None:
        tail_end = len(text.rstrip())
        if spans and tail_end - spans[-1][0] <= max_chars:
            spans[-1] = (spans[-1][0], tail_end)
        else:
            spans.extend(_split_long(text, pending, tail_end, max_chars))
    return spans


def fragment_text(path: str, text: str, max_chars: int = 700, min_chars: int = 120) -> list[Fragment]:
    """Cut one file's normalised text into fragments with anchors."""
    fragments = []
    for start, end in fragment_spans(text, max_chars=max_chars, min_chars=min_chars):
        piece = text[start:end]
        digest = hashlib.sha256(piece.encode("utf-8")).hexdigest()
        anchor = Anchor(path=path, start=start, end=end, sha256=digest)
        fragments.append(Fragment(id=f"{path}#{start}-{end}", anchor=anchor, text=piece,
                                  lang=detect_lang(piece)))
    return fragments
