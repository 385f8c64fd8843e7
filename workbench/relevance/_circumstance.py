"""The circumstance-versus-data rule: is a ``data`` argument bound to data the question carries?

A utility argument has a role. A ``data`` argument is what the utility computes on (the text to
hash, the date to shift); a ``circumstance`` says how (the charset, the time zone, the unit).
A router that reads "compute the statistics of the text in windows-1251" may bind ``text`` to
``"windows-1251"`` or to ``"the text in windows-1251"``: the question names a charset and holds
no text at all. Running the utility would produce a verified-looking answer about the wrong thing,
so the binding is refused instead.

The rule is string analysis of the question, with word boundaries; no model is asked. For each
``data`` argument whose value is a string or a number, in order:

1. **No question, or a non-scalar value** (list, object, boolean): nothing to judge; it passes.
2. **Quoted or after a colon.** If the value (stripped, case-insensitively) equals a literal of
   the question, or occurs in one at word boundaries outside any circumstance name, it is data
   (``quoted``). Literals are text in straight or typographic quotes (``"…"``, ``'…'``, ``«…»``,
   ``“…”``), in backticks, and everything after the first colon.
3. **Empty.** An empty value is a placeholder (``placeholder``) unless the question holds an
   empty literal such as ``""``.
4. **Only names a circumstance.** The value is split into words; articles, prepositions and the
   generic nouns that merely point at data ("text", "string", «текст», «строка», "encoding",
   «кодировке», ...) are dropped. If what remains is empty and a circumstance name was among the
   words, or if every remaining word is a circumstance name (a charset, a time zone, a data
   format, a unit, a hash algorithm, a normalisation form, a transliteration standard), the value
   is a circumstance (``circumstance``, with the ``kind``). If only generic nouns were there
   ("the text", «строку»), the value points at data the question does not hold
   (``placeholder``).
5. **Found only inside a circumstance.** If the value occurs in the question at word boundaries,
   and every occurrence lies inside a circumstance name (``1251`` inside ``windows-1251``, ``8``
   inside ``utf-8``), it is a circumstance.
6. Otherwise it is data (``data``): it appears in the question outside any circumstance name, or
   it was derived by the router (a normalised date), which this rule does not second-guess.

The first failing argument decides the verdict. The same rule serves every caller (the utility
argument checker calls it in one place); it is registered as ``@relevance_rule("circumstance")``.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import Any, Protocol

from workbench.registry import relevance_rule

# Names that only ever say *how*: each pattern matches one whole word (hyphens, dots, slashes and
# digits inside it are part of the word). Kinds are reported in the verdict.
CIRCUMSTANCE_PATTERNS: dict[str, str] = {
    "charset": (
        r"(?:windows|win|cp)[-_ ]?12[5][0-8]|cp[-_ ]?866|ibm[-_ ]?866|koi8[-_ ]?[rut]|"
        r"utf[-_ ]?(?:8|16|32)(?:[-_ ]?(?:le|be|sig))?|us[-_ ]?ascii|ascii|latin[-_ ]?1|"
        r"iso[-_ ]?8859[-_ ]?\d{1,2}|mac[-_ ]?cyrillic|ucs[-_ ]?2|кои[-_ ]?8[-_ ]?р?"
    ),
    "hash": (
        r"md5|sha[-_ ]?(?:1|224|256|384|512)|sha3[-_ ]?(?:224|256|384|512)|blake2[bs]|"
        r"crc[-_ ]?32|adler[-_ ]?32|hmac"
    ),
    "time zone": (
        r"(?:Africa|America|Antarctica|Asia|Atlantic|Australia|Europe|Indian|Pacific|Etc)"
        r"/[A-Za-z_]+(?:/[A-Za-z_]+)?|(?:UTC|GMT)(?:[+-]\d{1,2}(?::?\d{2})?)?|MSK|CET|CEST|"
        r"EET|EST|EDT|PST|PDT|CST|MST"
    ),
    "format": (
        r"json|yaml|yml|csv|tsv|xml|markdown|html|base64|base32|hex|punycode|url|iso[-_ ]?8601"
    ),
    "normalisation form": r"nf(?:k)?[cd]",
    "standard": r"icao|гост|gost|7\.79[-–]2000|iso[-_ ]?9",
    "unit": (
        r"km|cm|mm|mi|ft|yd|kg|mg|lb|lbs|oz|kib|mib|gib|tib|kb|mb|gb|tb|kbit|mbit|gbit|"
        r"celsius|fahrenheit|kelvin|°[cf]|км|см|мм|кг|мг|гб|мб|кб|"
        r"цельси\w*|фаренгейт\w*|кельвин\w*|мил[ья]\w*|дюйм\w*|фут\w*|фунт\w*|сот(?:ка|ки|ок)"
    ),
    "base": (
        r"binary|octal|decimal|hexadecimal|двоичн\w*|восьмеричн\w*|десятичн\w*|"
        r"шестнадцатеричн\w*"
    ),
    "case": r"uppercase|lowercase|camelcase|snake_case|kebab-case|pascalcase",
}
_WORD_EDGE_L = r"(?<![\w\-/.])"
_WORD_EDGE_R = r"(?![\w\-/])"
CIRCUMSTANCE_RE: dict[str, re.Pattern[str]] = {
    kind: re.compile(f"{_WORD_EDGE_L}(?:{pattern}){_WORD_EDGE_R}", re.IGNORECASE)
    for kind, pattern in CIRCUMSTANCE_PATTERNS.items()
}

# Words that carry no data of their own: articles, prepositions, conjunctions ("text and its
# background" goes on with the sentence), and nouns that only point at the data ("the text",
# «строку») or at the circumstance ("encoding", «в кодировке»).
GENERIC_WORDS = re.compile(
    r"(?:the|a|an|of|in|into|to|from|for|with|by|on|at|as|using|this|that|its|my|given|and|or|but|"
    r"text|texts|string|strings|line|data|value|input|message|word|phrase|content|"
    r"encoding|encoded|charset|character|set|code|page|codepage|format|formatted|time|zone|"
    r"timezone|unit|units|hash|digest|checksum|number|base|standard|form|case|mode|"
    r"в|во|на|из|для|по|к|с|со|и|или|но|о|об|от|до|этот|эта|это|этой|этого|этом|эту|данный|данная|"
    r"текст\w*|строк\w*|данн\w*|значени\w*|сообщени\w*|слов\w*|фраз\w*|содержим\w*|"
    r"кодировк\w*|кодов\w*|страниц\w*|формат\w*|часов\w*|пояс\w*|зон\w*|единиц\w*|хеш\w*|хэш\w*|"
    r"сумм\w*|числ\w*|основани\w*|систем\w*|счислени\w*|стандарт\w*|форм\w*|регистр\w*)",
    re.IGNORECASE,
)
_VALUE_WORD = re.compile(r"[\w°][\w\-/.+:°]*", re.UNICODE)
# a single quote opens after no letter and closes before none, and one between two letters is an
# apostrophe: "What's the MD5 of 'flaw'?" holds one literal, not "s the MD5 of ", and
# "'Madam, I'm Adam'" holds the whole phrase
_LITERALS = re.compile(r"\"([^\"]*)\"|«([^»]*)»|“([^”]*)”|„([^“”]*)[“”]|`([^`]*)`"
                       r"|(?<!\w)'((?:[^']|(?<=\w)'(?=\w))*)'(?!\w)")


class CircumstanceRule(Protocol):
    """The rule's call signature."""

    def __call__(
        self, question: str | None, binding: Mapping[str, Any], roles: Mapping[str, str]
    ) -> CircumstanceVerdict:
        """Judge ``binding`` (argument -> value) against ``question`` using ``roles``."""
        ...


@dataclass(frozen=True)
class CircumstanceVerdict:
    """What the rule decided for one binding."""

    passed: bool
    """True when every data argument is bound to data the question holds (or cannot be judged)."""
    argument: str | None = None
    """The first data argument that failed, if any."""
    value: str | None = None
    """Its value as text."""
    reason: str = "data"
    """``data``, ``quoted``, ``no_question``, ``circumstance`` or ``placeholder``."""
    kind: str | None = None
    """For ``circumstance``: what the value names (charset, time zone, format, unit, ...)."""

    def to_dict(self) -> dict[str, Any]:
        """A JSON-ready form for traces."""
        return {
            "passed": self.passed,
            "argument": self.argument,
            "value": self.value,
            "reason": self.reason,
            "kind": self.kind,
        }


def circumstance_kind(word: str) -> str | None:
    """The kind of circumstance ``word`` names on its own, or ``None``."""
    token = word.strip(" .,;:!?()[]")
    for kind, pattern in CIRCUMSTANCE_RE.items():
        if pattern.fullmatch(token):
            return kind
    return None


def circumstance_spans(question: str) -> list[tuple[int, int, str]]:
    """Every circumstance name in ``question``: (start, end, kind)."""
    spans = []
    for kind, pattern in CIRCUMSTANCE_RE.items():
        spans += [(m.start(), m.end(), kind) for m in pattern.finditer(question)]
    return sorted(spans)


def _quoted_spans(question: str) -> list[tuple[int, int]]:
    found = []
    for m in _LITERALS.finditer(question):
        group = next(i for i, g in enumerate(m.groups(), start=1) if g is not None)
        found.append((m.start(group), m.end(group)))
    return found


def first_colon(question: str) -> int:
    """Where the first colon outside the quoted literals stands, or -1.

    It is the colon that may introduce data: the one in `{"user":42}` is part of that literal, and
    one inside a word ("14:20", "backup-01:/srv", "https://") joins the word's parts.
    """
    return _colon_outside(question, _quoted_spans(question))


def _colon_outside(question: str, quoted: list[tuple[int, int]]) -> int:
    colons = [i for i, ch in enumerate(question)
              if ch == ":" and not any(s <= i < e for s, e in quoted)
              and not (question[i - 1:i].strip() and question[i + 1:i + 2].strip())]
    if len(colons) > 1 and _LABEL.match(question[:colons[0] + 1]):
        between = question[colons[0] + 1:colons[1]]
        if not any(mark in between for mark in "{[\n") and len(between.split()) >= 3:
            return colons[1]  # "IT: compute SHA-256 …: LOT-17;A": the first names who writes
    return colons[0] if colons else -1


_LABEL = re.compile(r"\s*[^\W\d_][\w.-]*(?:\s+[\w.-]+){0,2}\s*:$")
"""Up to three words that open a message and end in a colon: who writes («Бухгалтерия:», "IT:",
"Lab tech here:"), where a later colon, after a sentence of the request, introduces the data."""


OPENING_QUOTES = "«\"'`“„"
"""The marks a quoted literal opens with (:func:`question_literal_spans` also gives the text after a
colon, which opens with none)."""


def question_literal_spans(question: str) -> list[tuple[int, int]]:
    """Where the quoted and backticked literals, and the text after the first colon, lie.

    Each span is ``(start, end)`` in code points of ``question``, the quote marks left out and
    the text after the colon stripped of surrounding whitespace.
    """
    found = _quoted_spans(question)
    at = _colon_outside(question, found)
    head, tail = question[:max(at, 0)], question[at + 1:]
    # "12:30" or "https://" is not a colon that introduces data
    if (
        at >= 0
        and tail.strip()
        and not (head[-1:].isdigit() and tail[:1].isdigit())
        and not (tail.startswith("//"))
    ):
        start = at + 1 + (len(tail) - len(tail.lstrip()))
        found.append((start, len(question) - (len(tail) - len(tail.rstrip()))))
    return found


def blank_literals(question: str, *, colon_tail: bool = True) -> str:
    """``question`` with its literals blanked out, so that words inside them are not read as asked.

    ``colon_tail=False`` keeps the text after the first colon, which a question may ask in
    ("Question: who owns 8.8.8.8?"), and blanks only the quoted and backticked literals.
    """
    masked = list(question)
    for start, end in question_literal_spans(question):
        if colon_tail or question[start - 1:start] in OPENING_QUOTES:
            masked[start:end] = " " * (end - start)
    return "".join(masked)


def question_literals(question: str) -> list[str]:
    """Quoted and backticked literals, and the text after the first colon."""
    return [question[start:end] for start, end in question_literal_spans(question)]


def _as_text(value: Any) -> str | None:
    if isinstance(value, bool) or not isinstance(value, str | int | float):
        return None  # lists, objects, booleans and nulls carry no phrase to judge
    if isinstance(value, str):
        return value
    if abs(value) > 1e100:
        return None
    if isinstance(value, float):
        return str(int(value)) if value.is_integer() else repr(value)
    return str(value)


def _occurrences(haystack: str, value: str) -> list[str | None]:
    """For each word-bounded occurrence of ``value``: the circumstance kind around it, or None."""
    spans = circumstance_spans(haystack)
    pattern = rf"(?<!\w){re.escape(value)}(?!\w)"
    return [
        next((k for s, e, k in spans if s <= m.start() and m.end() <= e), None)
        for m in re.finditer(pattern, haystack, re.IGNORECASE)
    ]


def _judge(question: str, value: str) -> tuple[str, str | None]:
    text = value.strip()
    folded = text.casefold()
    for literal in question_literals(question):
        # the whole literal, or a word-bounded part of it that is not itself a circumstance name
        if folded == literal.strip().casefold() or (
            folded and any(k is None for k in _occurrences(literal, text))
        ):
            return "quoted", None
    if not text:
        return "placeholder", None
    words = [w.rstrip(".,;:!?") for w in _VALUE_WORD.findall(text)]
    words = [w for w in words if w]
    kinds = [circumstance_kind(w) for w in words]
    remaining = [
        (w, k)
        for w, k in zip(words, kinds, strict=True)
        if k is not None or not GENERIC_WORDS.fullmatch(w)
    ]
    named = [k for k in kinds if k is not None]
    if not remaining:
        return ("circumstance", named[0]) if named else ("placeholder", None)
    if all(k is not None for _, k in remaining):
        return "circumstance", remaining[0][1]
    inside = _occurrences(question, text)
    if inside and all(k is not None for k in inside):
        return "circumstance", inside[0]
    return "data", None


def check_binding(
    question: str | None, binding: Mapping[str, Any], roles: Mapping[str, str]
) -> CircumstanceVerdict:
    """Apply the rule to every ``data`` argument of ``binding``; the first failure decides.

    Args:
        question: The user's question, or ``None`` for a direct call (which always passes).
        binding: Argument name -> bound value.
        roles: Argument name -> ``"data"`` or ``"circumstance"``; unknown names count as data.

    Returns:
        A :class:`CircumstanceVerdict`.
    """
    if not question or not question.strip():
        return CircumstanceVerdict(passed=True, reason="no_question")
    for name, value in binding.items():
        if roles.get(name, "data") != "data":
            continue
        text = _as_text(value)
        if text is None:
            continue
        reason, kind = _judge(question, text)
        if reason in ("circumstance", "placeholder"):
            return CircumstanceVerdict(
                passed=False, argument=name, value=text, reason=reason, kind=kind
            )
    return CircumstanceVerdict(passed=True)


@relevance_rule(
    "circumstance",
    applies_to="utility",
    description="a data argument must be bound to data, not to a "
    "phrase of the question that names a circumstance",
)
def circumstance_rule() -> Callable[
    [str | None, Mapping[str, Any], Mapping[str, str]], CircumstanceVerdict
]:
    """Factory of the circumstance-versus-data rule (it has no parameters)."""
    return check_binding


__all__ = [
    "CIRCUMSTANCE_PATTERNS",
    "CircumstanceRule",
    "CircumstanceVerdict",
    "check_binding",
    "circumstance_kind",
    "circumstance_rule",
    "circumstance_spans",
    "question_literals",
]
