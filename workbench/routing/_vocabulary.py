"""Enum vocabularies: the words that name a value of an argument, and one lookup over them.

The words come from ``synonyms.yaml`` (its ``vocabularies`` section and the other sections a
normaliser reads by name), the ``choices`` the utility schemas declare, the unit utility's own
names and the IANA time zones; every router and the learned binder read them through
:func:`vocabularies`, so a word is declared once. :class:`NormaliseError`, the error of every
normaliser, is declared here, below them all.
"""

from __future__ import annotations

import functools
import re
import zoneinfo
from collections.abc import Iterator, Mapping, Sequence
from dataclasses import dataclass
from importlib import resources
from typing import Any

import yaml

from workbench.errors import WorkbenchError
from workbench.text import analyze
from workbench.utilities import load_catalog, unit_names


class NormaliseError(WorkbenchError, ValueError):
    """A span that the named normaliser gives no value for, or a normaliser that does not exist."""

@functools.cache
def _word_pattern(word: str, stem: bool) -> re.Pattern[str]:
    """A vocabulary word as a pattern.

    A ``*`` inside a phrase («продукт* питания») and a final stem take any letters; spaces match any
    run of spaces.
    """
    letters = r"[^\W\d_]*"
    parts = [letters if piece == "*" else r"\s+" if piece.isspace() else re.escape(piece)
             for piece in re.split(r"(\s+|\*)", word) if piece]
    return re.compile("".join(parts) + (letters if stem else ""), re.IGNORECASE)


@functools.cache
def _bounded_pattern(word: str, stem: bool) -> re.Pattern[str]:
    """:func:`_word_pattern` as a whole word: no letter, digit or hyphen on either side."""
    return re.compile(rf"(?<![\w-]){_word_pattern(word, stem).pattern}(?![\w-])", re.IGNORECASE)


@dataclass(frozen=True)
class Vocabulary:
    """One enum vocabulary: values and the words that name them."""

    name: str
    """``charset``, ``unit``, ... or ``<utility>.<argument>``."""
    words: tuple[tuple[str, str, bool], ...]
    """``(word, value, is_stem)``, longest word first, words case-folded; a ``*`` left inside a
    word («продукт* питания») stands for any letters there."""

    def lookup(self, text: str) -> str:
        """The value ``text`` names.

        Raises:
            NormaliseError: No word of the vocabulary is ``text`` (or, for a stem, begins it).
        """
        folded = " ".join(text.split()).casefold()
        for word, value, stem in self.words:
            if _word_pattern(word, stem).fullmatch(folded):
                return value
        raise NormaliseError(f"{text!r} names no value of the {self.name} vocabulary")

    def spans(self, question: str) -> Iterator[tuple[int, int]]:
        """Every span of ``question`` that names a value, longest word first."""
        folded = question.casefold()
        for word, _, stem in self.words:
            if word.split("*", 1)[0].split(maxsplit=1)[0] not in folded:
                continue  # the cheap filter: the word's first piece is nowhere in the question
            for m in _bounded_pattern(word, stem).finditer(question):
                yield m.start(), m.end()

    def words_in(self, question: str) -> set[str]:
        """The declared words that name a value in ``question`` (over :meth:`separate_spans`)."""
        found = set()
        for start, end in self.separate_spans(question):
            text = " ".join(question[start:end].split()).casefold()
            found |= {word for word, _, stem in self.words if _word_pattern(word, stem).fullmatch(text)}
        return found

    def separate_spans(self, question: str) -> list[tuple[int, int]]:
        """The spans that name a value, in order, an overlapped one dropped for the earlier-longer.

        «не подтверждены» is kept and the «подтверждены» inside it dropped.
        """
        kept: list[tuple[int, int]] = []
        for start, end in sorted(self.spans(question), key=lambda s: (s[0], -s[1])):
            if not any(start < e and s < end for s, e in kept):
                kept.append((start, end))
        return kept


@functools.cache
def synonym_file() -> dict[str, Any]:
    """``synonyms.yaml``, read once: every section (``vocabularies``, ``bases``, ``spec_inputs``...).

    Callers copy what they change; the parsed file is shared.
    """
    text = resources.files("workbench.routing").joinpath("synonyms.yaml").read_text("utf-8")
    return dict(yaml.safe_load(text))


def _synonym_table() -> dict[str, dict[str, list[str]]]:
    return {name: {value: list(words or []) for value, words in (values or {}).items()}
            for name, values in synonym_file()["vocabularies"].items()}


@functools.cache
def vocabularies() -> dict[str, Vocabulary]:
    """Every enum vocabulary: ``synonyms.yaml`` plus one per argument with declared ``choices``."""
    table = _synonym_table()
    units = table.setdefault("unit", {})
    for alias, code in unit_names().items():
        # the units utility's own names: a word of four letters or more also takes its endings
        # («километров», "miles"); a shorter one («км», "kg") must stand alone, and one letter
        # («м», "c") is too common in ordinary text to name a unit at all; nor is a name that
        # the lexical analyzer drops as a stopword
        if len(alias) >= 2 and analyze(alias):  # "are" (the unit of area) is also a stopword
            units.setdefault(code, []).append(alias + "*" if len(alias) >= 4 and alias.isalpha() else alias)
    zones = table.setdefault("timezone", {})
    for zone in sorted(zoneinfo.available_timezones()):  # every IANA zone names itself: "Asia/Tokyo"
        if "/" in zone:
            zones.setdefault(zone, [])
            # and a city of a continent names its zone ("Warsaw time", "in New York"), unless the
            # city's name is an ordinary word too ("Phoenix", "Jersey")
            region, _, city = zone.partition("/")
            words = city.replace("_", " ").casefold()
            if (region in CITY_REGIONS and "/" not in city and words not in COMMON_CITY_WORDS
                    and len(words) >= 4):
                zones[zone].append(words)
    for uid, schema in load_catalog().schemas.items():
        for arg in schema.arguments:
            if arg.choices:
                table.setdefault(f"{uid}.{arg.name}", {})
                for choice in arg.choices:
                    table[f"{uid}.{arg.name}"].setdefault(str(choice), [])
    return {name: build_vocabulary(name, values or {}) for name, values in table.items()}


CITY_REGIONS = frozenset({"Europe", "Asia", "America", "Africa", "Australia"})
"""The IANA regions whose zones a city's name stands for (not the islands and stations of the oceans)."""
COMMON_CITY_WORDS = frozenset({"phoenix", "jersey", "regina", "nome", "denver", "monterrey", "nassau",
                               "chicago", "detroit", "boise", "juneau", "tell city", "center", "knox",
                               "marengo", "vevay", "winamac", "petersburg", "vincennes", "beulah",
                               "new salem", "louisville", "monticello", "grand turk", "kralendijk"})
"""City names of zones that a question says for something else (a name, a team, a brand)."""


def build_vocabulary(name: str, values: Mapping[str, Sequence[str] | None], *,
                     own_names: bool = True) -> Vocabulary:
    """A vocabulary from ``value -> words`` (a word ending in ``*`` is a stem).

    With ``own_names`` a value also names itself, unless it is a short word of ordinary text
    ("in", "t", "C") that has synonyms.
    """
    words: dict[str, tuple[str, bool]] = {}
    for value, synonyms in values.items():
        own = [str(value)] if own_names and (len(str(value)) >= 3 or not synonyms) else []
        for word in [*own, *(synonyms or [])]:
            stem = word.endswith("*")
            words.setdefault(word.rstrip("*").casefold(), (str(value), stem))
    ordered = sorted(((w, v, s) for w, (v, s) in words.items()), key=lambda t: (-len(t[0]), t[0]))
    return Vocabulary(name, tuple(ordered))


def vocabulary_for(utility: str, argument: str) -> str | None:
    """The vocabulary an argument's values come from, if it has one."""
    own = f"{utility}.{argument}"
    if own in vocabularies():
        return own
    for vocabulary, names in VOCABULARY_ARGUMENTS.items():
        if argument in names:
            return vocabulary
    return None


VOCABULARY_ARGUMENTS: dict[str, frozenset[str]] = {
    "charset": frozenset({"charset", "from_charset", "to_charset"}),
    "timezone": frozenset({"tz", "from_tz", "to_tz"}),
    "unit": frozenset({"from_unit", "to_unit"}),
    "regex_flags": frozenset({"flags"}),
    "uuid_namespace": frozenset({"namespace"}),
    "delimiter": frozenset({"delimiter"}),
}
"""Arguments without declared ``choices`` whose values a shared vocabulary gives."""
