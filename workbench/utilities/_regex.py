r"""Regex category: search, find all, replace, split with Python regular expressions.

Patterns run in the ``regex`` module rather than ``re``: its matcher takes a ``timeout=``, and
each call passes what is left of the call's deadline (:func:`._limits.remaining`), so a pattern
that backtracks without end (``(a|aa)+$`` on a long run of ``a``) is stopped inside the C matcher
on any thread, where the deadline's timer could not reach it. ``regex`` in its default
``VERSION0`` keeps the semantics of ``re`` for the syntax both accept (flags, groups, ``\1`` and
``\g<name>`` in replacements, zero-width matches in split and replace). Where they differ:
``regex`` also accepts syntax that ``re`` rejects (``\p{L}`` Unicode properties,
variable-length look-behind, fuzzy matching ``(?:abc){e<=1}``, ``(?r)`` reverse search), its
error messages word a bad pattern differently, and ``\B`` matches the empty text (``re`` finds
no match there; this was the one difference a differential run of random patterns of the shared
syntax over short texts turned up). The ``regex.escape`` utility keeps
``re.escape``: it matches nothing, so it needs no timeout.
"""

from __future__ import annotations

import re
from typing import Any

import regex

from workbench.utilities._limits import LimitExceeded, deadline_passed, remaining
from workbench.utilities._schema import BadArgument, circ, data, define, ex

FLAGS = {"i": regex.IGNORECASE, "m": regex.MULTILINE, "s": regex.DOTALL, "x": regex.VERBOSE}
MAX_PATTERN = 1000
MAX_RESULTS = 10_000
PATTERN = circ(
    "pattern",
    "string",
    "the regular expression (Python syntax)",
    "регулярное выражение (синтаксис Python)",
    max_chars=MAX_PATTERN,
)
TEXT = data("text", "string", "the text to search", "текст, в котором ищут")
FLAG_ARG = circ(
    "flags",
    "string",
    "letters of flags: i, m, s, x",
    "флаги буквами: i, m, s, x",
    required=False,
    default="",
)


def compile_pattern(pattern: str, flags: str = "") -> regex.Pattern[str]:
    """Compile with the flag letters; a syntax error is a bad argument naming the pattern."""
    value = 0
    for letter in flags.lower():
        if letter not in FLAGS:
            raise BadArgument("flags", "letters from: " + ", ".join(FLAGS))
        value |= FLAGS[letter]
    try:
        return regex.compile(pattern, value)
    except (regex.error, OverflowError, RecursionError, ValueError):
        raise BadArgument("pattern", "a valid Python regular expression") from None


@define(
    "regex.match",
    en="the first match of a pattern in a text, with its groups",
    ru="первое совпадение шаблона в тексте и его группы",
    args=[PATTERN, TEXT, FLAG_ARG],
    result="object",
    examples=[
        ex(
            {"pattern": r"(\d{4})-(\d{2})-(\d{2})", "text": "Deadline 2024-08-09, sharp"},
            {
                "matched": True,
                "match": "2024-08-09",
                "start": 9,
                "end": 19,
                "groups": ["2024", "08", "09"],
                "named": {},
            },
        ),
        ex(
            {"pattern": r"(?P<word>кот)", "text": "Кот и пёс", "flags": "i"},
            {
                "matched": True,
                "match": "Кот",
                "start": 0,
                "end": 3,
                "groups": ["Кот"],
                "named": {"word": "Кот"},
            },
        ),
    ],
)
def match(pattern: str, text: str, flags: str = "") -> dict[str, Any]:
    """Search anywhere (not only at the start); offsets are code points."""
    try:
        m = compile_pattern(pattern, flags).search(text, timeout=remaining())
    except TimeoutError:
        raise deadline_passed() from None
    if m is None:
        return {
            "matched": False,
            "match": None,
            "start": None,
            "end": None,
            "groups": [],
            "named": {},
        }
    return {
        "matched": True,
        "match": m.group(0),
        "start": m.start(),
        "end": m.end(),
        "groups": list(m.groups()),
        "named": m.groupdict(),
    }


@define(
    "regex.find_all",
    en="every non-overlapping match of a pattern in a text",
    ru="все непересекающиеся совпадения шаблона в тексте",
    args=[PATTERN, TEXT, FLAG_ARG],
    result="array",
    examples=[ex({"pattern": r"\d+", "text": "a1b22c333"}, ["1", "22", "333"])],
)
def find_all(pattern: str, text: str, flags: str = "") -> list[str]:
    """The whole matched text of each match (groups are not split out)."""
    out = []
    try:
        for m in compile_pattern(pattern, flags).finditer(text, timeout=remaining()):
            out.append(m.group(0))
            if len(out) > MAX_RESULTS:
                raise LimitExceeded("max_results", len(out), MAX_RESULTS, "pattern", at_least=True)
    except TimeoutError:
        raise deadline_passed() from None
    return out


@define(
    "regex.replace",
    en="replace every match of a pattern (\\1 or \\g<name> refer to groups)",
    ru="заменить все совпадения шаблона (\\1 или \\g<name> — ссылки на группы)",
    args=[
        PATTERN,
        data("replacement", "string", "the replacement text", "текст замены"),
        TEXT,
        FLAG_ARG,
    ],
    examples=[
        ex(
            {
                "pattern": r"(\w+)@(\w+)\.com",
                "replacement": r"\2 at \1",
                "text": "mail bob@example.com now",
            },
            "mail example at bob now",
        ),
    ],
)
def replace(pattern: str, replacement: str, text: str, flags: str = "") -> str:
    """Python ``re.sub`` semantics."""
    compiled = compile_pattern(pattern, flags)
    try:
        return compiled.sub(replacement, text, timeout=remaining())
    except TimeoutError:
        raise deadline_passed() from None
    except (regex.error, IndexError, ValueError):
        raise BadArgument("replacement", "group references that exist in the pattern") from None


@define(
    "regex.split",
    en="split a text at every match of a pattern",
    ru="разбить текст по совпадениям шаблона",
    args=[PATTERN, TEXT, FLAG_ARG],
    result="array",
    examples=[ex({"pattern": r"[,;]\s*", "text": "a, b;c"}, ["a", "b", "c"])],
)
def split(pattern: str, text: str, flags: str = "") -> list[str | None]:
    """Python ``re.split``; captured separators are kept in the list."""
    try:
        return compile_pattern(pattern, flags).split(text, timeout=remaining())
    except TimeoutError:
        raise deadline_passed() from None


@define(
    "regex.escape",
    en="escape a text so that it matches literally in a pattern",
    ru="экранировать текст, чтобы он совпадал буквально внутри шаблона",
    args=[data("text", "string", "the literal text", "буквальный текст")],
    examples=[ex({"text": "a.b*c"}, r"a\.b\*c"), ex({"text": "1+1=2"}, r"1\+1=2")],
)
def escape(text: str) -> str:
    """Python ``re.escape``."""
    return re.escape(text)
