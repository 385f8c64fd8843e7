"""Regex category: search, find all, replace, split with Python regular expressions."""

from __future__ import annotations

import re
from typing import Any

from workbench.utilities._schema import BadArgument, circ, data, define, ex

FLAGS = {"i": re.IGNORECASE, "m": re.MULTILINE, "s": re.DOTALL, "x": re.VERBOSE}
MAX_PATTERN = 1000
MAX_RESULTS = 10_000
PATTERN = circ(
    "pattern",
    "string",
    "the regular expression (Python syntax)",
    "регулярное выражение (синтаксис Python)",
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


def compile_pattern(pattern: str, flags: str = "") -> re.Pattern[str]:
    """Compile with the flag letters; a syntax error is a bad argument naming the pattern."""
    if len(pattern) > MAX_PATTERN:
        raise BadArgument("pattern", f"a pattern of at most {MAX_PATTERN} characters")
    value = 0
    for letter in flags.lower():
        if letter not in FLAGS:
            raise BadArgument("flags", "letters from: " + ", ".join(FLAGS))
        value |= FLAGS[letter]
    try:
        return re.compile(pattern, value)
    except (re.error, OverflowError, RecursionError):
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
    m = compile_pattern(pattern, flags).search(text)
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
    for m in compile_pattern(pattern, flags).finditer(text):
        out.append(m.group(0))
        if len(out) > MAX_RESULTS:
            raise BadArgument("pattern", f"a pattern with at most {MAX_RESULTS} matches")
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
        return compiled.sub(replacement, text)
    except (re.error, IndexError):
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
    return compile_pattern(pattern, flags).split(text)


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
