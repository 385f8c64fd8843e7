"""Schema records of the catalog and the decorator that registers a utility with its schema.

Every utility is a pure function of keyword arguments. Its :class:`UtilitySchema` says what each
argument is (type, required flag, role, default, description in Russian and English), what the
result is, and carries at least one executable :class:`Example`. The schema travels in the
registry entry's metadata under ``"schema"``, so ``registry.lookup("utility", id)`` finds both.
"""

from __future__ import annotations

import codecs
import csv
import re
from collections.abc import Callable, Iterator, Mapping, Sequence
from dataclasses import dataclass, field
from types import MappingProxyType
from typing import Any, NamedTuple, TypeVar

from workbench.errors import WorkbenchError
from workbench.registry import utility
from workbench.utilities._codes import Role
from workbench.utilities._limits import CALL_SECONDS, MAX_DEPTH, MAX_INT_DIGITS, MAX_ITEMS

F = TypeVar("F", bound=Callable[..., Any])

ARG_TYPES: tuple[str, ...] = ("string", "integer", "number", "boolean", "array", "object")
"""The JSON types an argument may declare."""

RESULT_TYPES: tuple[str, ...] = ARG_TYPES
"""The JSON types a result may have."""

MAX_TEXT = 200_000
"""The longest string argument a utility accepts, in code points (keeps every call bounded)."""


class BadArgument(WorkbenchError, ValueError):
    """A utility was given a value outside its domain; becomes a ``BAD_ARGUMENT`` refusal."""

    def __init__(self, argument: str | None, expected: str) -> None:
        self.argument = argument
        self.expected = expected
        super().__init__(f"argument {argument!r}: expected {expected}")


TABLE_DELIMITERS = ",;\t"
"""The delimiters a CSV table is read with when its lines are looked for in a longer text."""


def _fields(line: str, delimiter: str) -> int:
    if line.rstrip().endswith(("?", ":", "!")):  # a request or a remark, not a row
        return 0
    try:
        return len(next(csv.reader([line], delimiter=delimiter), []))
    except csv.Error:  # a quote left open: no row of a table
        return 0


def table_spans(text: str) -> list[tuple[int, int]]:
    """The runs of ``text`` that are CSV tables: two lines or more in a row with as many fields each.

    Fields are counted by :mod:`csv` with each of :data:`TABLE_DELIMITERS`, two at least; the run
    starts at its first line and ends at its last one's last character. A line that ends as a
    question, a colon's lead-in or an exclamation is a request, no row ("Turn this into a table
    (week 6, shops 1-3)?" above the header), and a line with another number of fields than the
    header ends the table.
    """
    lines, at = [], 0
    for line in text.split("\n"):
        lines.append((at, at + len(line.rstrip()), line))
        at += len(line) + 1
    found: list[tuple[int, int]] = []
    for delimiter in TABLE_DELIMITERS:
        counts = [_fields(line, delimiter) for _, _, line in lines]
        start = 0
        for i in range(1, len(lines) + 1):
            if i < len(lines) and counts[i] == counts[start] and counts[i] >= 2:
                continue
            if i - start >= 2 and counts[start] >= 2:
                found.append((lines[start][0], lines[i - 1][1]))
            start = i
    return sorted(found, key=lambda s: (s[0] - s[1], s[0]))


class TextForm(NamedTuple):
    """A form a text argument may declare (:attr:`Argument.form`)."""

    find: Callable[[str], list[tuple[int, int]]]
    """The spans of a text that have the form, longest first: each a whole value."""
    within: bool = False
    """Whether its spans are sought inside the span a binding chose (a cut of it, an address
    without the sentence after it) rather than over the whole message."""
    moves: bool = True
    """Whether a binding of no span of the form gives way to the message's longest span of it (a
    table below the request); where not, a span of it is only taken where it overlaps the binding's
    (a Base64 string bound short of its end), and the form never binds a span of its own."""
    asks: bool = False
    """Whether a binding's span that holds more than the form's span has two readings, the form's
    and the whole, so that the binder asks which (``AMBIGUOUS_ARGUMENT``) instead of cutting."""


CLAUSE_END = re.compile(r"[.!?;:](?=\s|$)|[(\[]|\s[—–-]\s|\n")
"""Where a clause may end: a full stop, a question or exclamation mark, a semicolon or colon before
a space, a bracket, a dash set apart, a line break (a form that reads an abbreviation's or an
initial's full stop as none says so itself)."""
_FOREIGN_WORD = re.compile(r"(?<![\w-])[\w-]*[A-Za-z0-9][\w-]*")
_CYRILLIC = re.compile(r"[А-Яа-яЁё]")
_INITIAL = re.compile(r"(?:^|\s)\w$")


def _clause_ends(text: str, start: int = 0) -> Iterator[re.Match[str]]:
    """The clause ends of ``text`` (:data:`CLAUSE_END`) from ``start`` on, but an initial's full stop."""
    for stop in CLAUSE_END.finditer(text, start):
        if not (stop[0] == "." and _INITIAL.search(text, 0, stop.start())):
            yield stop


def cyrillic_run(text: str) -> list[tuple[int, int]]:
    """The Cyrillic text that ``text`` holds first, or nothing where it holds no Cyrillic letter.

    It runs from its first Cyrillic letter to the first clause end (a full stop, a question or
    exclamation mark, a semicolon or colon before a space, a bracket, a dash set apart, a line
    break) or the first word in Latin letters or with a digit: «Воробьёв Евгений. Водитель» gives
    the name, «Дмитрий Журавлёв, our steward supervisor» too. An initial's full stop («И. Петров»)
    ends nothing.
    """
    first = _CYRILLIC.search(text)
    if first is None:
        return []
    start = first.start()
    end = next((stop.start() for stop in _clause_ends(text, start)), len(text))
    foreign = _FOREIGN_WORD.search(text, start, end)
    if foreign is not None:
        end = foreign.start()
    end = start + len(text[start:end].rstrip(" ,;:—–-"))
    return [(start, end)] if _CYRILLIC.search(text, start, end) else []


_WORDS = re.compile(r"[^\W\d_]{2,}")


def first_clause(text: str) -> list[tuple[int, int]]:
    """``text`` up to its first clause end that words follow, or the whole of it where none does.

    A text a utility takes as one value (what a hash, an encoding or a case change is given) runs
    to a clause end (:data:`CLAUSE_END`) only where the message goes on in words after it: «Smith &
    Sons Cup. The old one was fine» gives «Smith & Sons Cup», "Hello, world!" the whole. An
    initial's full stop ends nothing, and neither does a mark the text opens with («(sheet 2)»).
    """
    for stop in _clause_ends(text):
        end = len(text[:stop.start()].rstrip(" ,;:—–-"))
        if end and _WORDS.search(text, stop.end()):
            return [(0, end)]
    return [(0, len(text))]


_TEXT_FORMS: dict[str, TextForm] = {
    "table": TextForm(table_spans),
    "cyrillic": TextForm(cyrillic_run, within=True),
    "phrase": TextForm(first_clause, within=True, asks=True),
}
TEXT_FORMS: Mapping[str, TextForm] = MappingProxyType(_TEXT_FORMS)
"""The forms a text argument may declare, by name (a module adds its own with :func:`text_form`)."""


def text_form(name: str, *, within: bool = False, moves: bool = True
              ) -> Callable[[Callable[[str], list[tuple[int, int]]]], Callable[[str], list[tuple[int, int]]]]:
    """Register the decorated finder as the text form ``name`` (:class:`TextForm`)."""
    def register(find: Callable[[str], list[tuple[int, int]]]) -> Callable[[str], list[tuple[int, int]]]:
        if name in _TEXT_FORMS:
            raise ValueError(f"text form {name!r} is registered twice")
        _TEXT_FORMS[name] = TextForm(find, within, moves)
        return find
    return register


def form_spans(form: str, text: str) -> list[tuple[int, int]]:
    """The spans of ``text`` that have ``form`` (:data:`TEXT_FORMS`)."""
    return TEXT_FORMS[form].find(text)


@dataclass(frozen=True)
class Argument:
    """One argument of a utility."""

    name: str
    """The keyword name (fixed: outside callers bind it by name)."""
    type: str
    """One of :data:`ARG_TYPES`."""
    role: Role
    """``data`` (what is computed on) or ``circumstance`` (how it is computed)."""
    en: str
    """What the argument is, in English."""
    ru: str
    """What the argument is, in Russian."""
    required: bool = True
    """Whether a call without it is refused with ``MISSING_ARGUMENT``."""
    default: Any = None
    """The value used when an optional argument is absent (``None``: absent means absent)."""
    choices: tuple[Any, ...] = ()
    """The closed set of accepted values, when there is one."""
    max_chars: int | None = None
    """The most characters a value may hold (for an array or object: all its strings and keys
    together); ``None`` takes :data:`MAX_TEXT`."""
    max_items: int | None = None
    """The most values an array or object may hold, nested ones counted; ``None`` takes
    :data:`workbench.utilities._limits.MAX_ITEMS`."""
    shape: str | None = None
    """For an identifier: the form every value has whatever its check digits, as a regular
    expression over the value with its spaces and hyphens removed and its letters in capitals
    (an ИНН is ``\\d{10}|\\d{12}``). A value of another form fails the check whatever its digits; a
    binder reads it to tell the identifier from the other numbers of a message. ``None``: no
    fixed form."""

    form: str | None = None
    """For a text: the name of the form every meaningful value has (:data:`TEXT_FORMS`: a CSV
    table is two lines or more with as many fields each, a text to transliterate is the Cyrillic
    clause it opens with). The utility still answers a value without it; a binder reads it to
    tell the data from the other words of a message. ``None``: any text."""

    def limits(self) -> dict[str, int]:
        """The size limits that hold for this argument, by name; derived from the type.

        A string has ``max_chars``; an integer ``max_digits``; an array or object ``max_items``,
        ``max_chars`` and ``max_depth``; a number or boolean is fixed in size.
        """
        chars = self.max_chars if self.max_chars is not None else MAX_TEXT
        if self.type == "string":
            return {"max_chars": chars}
        if self.type == "integer":
            return {"max_digits": MAX_INT_DIGITS}
        if self.type in ("array", "object"):
            items = self.max_items if self.max_items is not None else MAX_ITEMS
            return {"max_items": items, "max_chars": chars, "max_depth": MAX_DEPTH}
        return {}

    def to_json_schema(self, lang: str = "en") -> dict[str, Any]:
        """This argument as a JSON-schema property."""
        prop: dict[str, Any] = {
            "type": self.type,
            "description": self.ru if lang == "ru" else self.en,
        }
        if self.choices:
            prop["enum"] = list(self.choices)
        if not self.required and self.default is not None:
            prop["default"] = self.default
        limits = self.limits()
        if self.type == "string":
            prop["maxLength"] = limits["max_chars"]
        elif self.type == "array":
            prop["maxItems"] = limits["max_items"]
        elif self.type == "object":
            prop["maxProperties"] = limits["max_items"]
        prop["x-role"] = str(self.role)
        if self.shape is not None:  # not "pattern": a value of another form is answered, not refused
            prop["x-shape"] = self.shape
        if self.form is not None:
            prop["x-form"] = self.form
        return prop

    def has_form(self, value: str) -> bool:
        """Whether ``value`` has this text's :attr:`form` (always, where it has none)."""
        return self.form is None or bool(form_spans(self.form, value))

    def fits_shape(self, value: str) -> bool:
        """Whether ``value`` has this identifier's :attr:`shape` (always, where it has none)."""
        return self.shape is None or re.fullmatch(
            self.shape, re.sub(r"[\s-]", "", value).upper()) is not None

    def to_dict(self) -> dict[str, Any]:
        """A JSON-ready form (used by the catalog digest)."""
        return {
            "name": self.name,
            "type": self.type,
            "role": str(self.role),
            "required": self.required,
            "default": self.default,
            "choices": list(self.choices),
            "limits": self.limits(),
            "en": self.en,
            "ru": self.ru,
            **({"shape": self.shape} if self.shape is not None else {}),
            **({"form": self.form} if self.form is not None else {}),
        }


@dataclass(frozen=True)
class Example:
    """An executable example: calling the utility with ``args`` must return ``result``."""

    utility: str
    """The utility id."""
    number: int
    """Its position among the utility's examples, from 1."""
    args: Mapping[str, Any]
    """The arguments, as a router would bind them."""
    result: Any
    """The expected result, checked by hand."""

    @property
    def id(self) -> str:
        """A stable id such as ``hash.sha256#1``."""
        return f"{self.utility}#{self.number}"

    def to_dict(self) -> dict[str, Any]:
        """A JSON-ready form."""
        return {
            "id": self.id,
            "utility": self.utility,
            "args": dict(self.args),
            "result": self.result,
        }


@dataclass(frozen=True)
class UtilitySchema:
    """The typed description of one utility."""

    id: str
    """``category.name``."""
    category: str
    """The category id (the part before the dot)."""
    en: str
    """What it computes, in English."""
    ru: str
    """What it computes, in Russian."""
    arguments: tuple[Argument, ...]
    """The arguments in declaration order."""
    result: str
    """The JSON type of the result."""
    examples: tuple[Example, ...] = field(default=())
    """At least one executable example."""
    call_seconds: float = CALL_SECONDS
    """The time one call may take before it is stopped with ``LIMIT_EXCEEDED``."""

    def argument(self, name: str) -> Argument | None:
        """The argument called ``name``, or ``None``."""
        for arg in self.arguments:
            if arg.name == name:
                return arg
        return None

    def parameters(self, lang: str = "en") -> dict[str, Any]:
        """The arguments as a JSON schema (an ``object`` with properties)."""
        return {
            "type": "object",
            "properties": {a.name: a.to_json_schema(lang) for a in self.arguments},
            "required": [a.name for a in self.arguments if a.required],
            "additionalProperties": False,
        }

    def describe(self, lang: str = "en") -> dict[str, Any]:
        """What ``describe_category`` shows a router for this utility."""
        return {
            "utility": self.id,
            "description": self.ru if lang == "ru" else self.en,
            "parameters": self.parameters(lang),
            "result": self.result,
            "call_seconds": self.call_seconds,
        }

    def to_dict(self) -> dict[str, Any]:
        """A JSON-ready form with both languages and the examples (used by the digest)."""
        return {
            "id": self.id,
            "category": self.category,
            "en": self.en,
            "ru": self.ru,
            "arguments": [a.to_dict() for a in self.arguments],
            "result": self.result,
            "call_seconds": self.call_seconds,
            "examples": [e.to_dict() for e in self.examples],
        }


def data(name: str, type: str, en: str, ru: str, **kwargs: Any) -> Argument:
    """A ``data`` argument (what the utility computes on)."""
    return Argument(name=name, type=type, role=Role.DATA, en=en, ru=ru, **kwargs)


def circ(name: str, type: str, en: str, ru: str, **kwargs: Any) -> Argument:
    """A ``circumstance`` argument (how the utility computes)."""
    return Argument(name=name, type=type, role=Role.CIRCUMSTANCE, en=en, ru=ru, **kwargs)


def ex(args: Mapping[str, Any], result: Any) -> tuple[Mapping[str, Any], Any]:
    """An example literal: ``args`` and the expected ``result``."""
    return (dict(args), result)


def define(
    uid: str,
    *,
    en: str,
    ru: str,
    args: Sequence[Argument] = (),
    result: str = "string",
    examples: Sequence[tuple[Mapping[str, Any], Any]] = (),
    call_seconds: float = CALL_SECONDS,
) -> Callable[[F], F]:
    """Register the decorated pure function as utility ``uid`` with its schema.

    Args:
        uid: ``category.name``.
        en: What it computes, in English.
        ru: What it computes, in Russian.
        args: Its arguments (see :func:`data` and :func:`circ`).
        result: The JSON type of the result.
        examples: ``(args, result)`` pairs, at least one.
        call_seconds: The time one call may take.

    Returns:
        A decorator that registers the function with ``@utility`` and returns it unchanged.
    """
    category = uid.split(".", 1)[0]
    if result not in RESULT_TYPES or not examples or any(a.type not in ARG_TYPES for a in args):
        raise ValueError(f"utility {uid}: result type, argument types and examples are required")
    schema = UtilitySchema(
        id=uid,
        category=category,
        en=en,
        ru=ru,
        arguments=tuple(args),
        result=result,
        examples=tuple(
            Example(utility=uid, number=i, args=a, result=r) for i, (a, r) in enumerate(examples, 1)
        ),
        call_seconds=call_seconds,
    )

    def wrap(fn: F) -> F:
        return utility(uid, schema=schema)(fn)

    return wrap


def charset_codec(charset: str, argument: str = "charset") -> str:
    """The canonical codec name of ``charset``; text codecs only (no rot13, no zlib)."""
    try:
        info = codecs.lookup(charset)
    except (LookupError, TypeError, ValueError):
        raise BadArgument(argument, "a charset name such as utf-8, windows-1251, koi8-r") from None
    if not getattr(info, "_is_text_encoding", True):
        raise BadArgument(argument, "a text charset, not a transform codec")
    return info.name


def encode_text(text: str, charset: str = "utf-8", argument: str = "text") -> bytes:
    """``text`` in ``charset``; a character the charset lacks is a bad argument."""
    codec = charset_codec(charset)
    try:
        return text.encode(codec)
    except UnicodeError:
        raise BadArgument(argument, f"text that {codec} can represent") from None


def decode_bytes(raw: bytes, charset: str = "utf-8", argument: str = "data") -> str:
    """``raw`` decoded with ``charset``; undecodable bytes are a bad argument."""
    codec = charset_codec(charset)
    try:
        return raw.decode(codec)
    except UnicodeError:
        raise BadArgument(argument, f"bytes that decode as {codec}") from None


__all__ = [
    "ARG_TYPES",
    "MAX_TEXT",
    "RESULT_TYPES",
    "Argument",
    "BadArgument",
    "Example",
    "UtilitySchema",
    "charset_codec",
    "circ",
    "data",
    "decode_bytes",
    "define",
    "encode_text",
    "ex",
]
