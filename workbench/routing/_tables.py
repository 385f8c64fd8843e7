"""The routers' words as data: trigger words and named patterns, loaded once and checked.

Five files of the package hold what the rule router knows, and what the checks every router asks
(:mod:`._asks`, :mod:`._values`) read, so that no rule is code:

- ``synonyms.yaml``, section ``triggers``: the words that name each utility, by utility id (read
  also by the span router's training-line generator, :mod:`._dataset`);
- ``data/patterns.yaml``: the named regular expressions of values' shapes and of cues
  (what a question's data looks like, what points at data elsewhere, what asks for a fact of the
  world);
- ``data/not_a_value.yaml``: the contexts in which a number is no argument's value (a booking's
  number, a room, a time of day, a count of time), read by :mod:`._values`;
- ``data/rule_refusals.yaml`` and ``data/span_refusals.yaml``: each router's refusal texts, in
  English and Russian (worded by :func:`._asks.refusal_text`).

A pattern file maps a name to an entry with these keys (any other key raises
:class:`RuleDataError` naming the file and the entry):

``pattern``
    the regular expression, or instead
``any_of``, ``before``, ``after``
    a list of alternatives joined by ``|`` between ``before`` and ``after`` (each optional), so a
    long alternation reads one alternative a line;
``flags``
    names of :mod:`re` flags (``IGNORECASE``, ``MULTILINE``, ``DOTALL``);
``doc``
    what the pattern finds, with examples;
``role``, ``window``, ``scope``, ``unless_value``, ``value_shape``
    read by the interpreter of ``not_a_value.yaml`` only (:mod:`._values`).

``{{name}}`` in a pattern stands for the text of another entry of the same file (or of a piece the
loader is given, such as the words of degrees): a piece written once is used where it is needed.
Every entry is compiled when the file is loaded, and one that does not compile raises
:class:`RuleDataError` naming the file and the entry.
"""

from __future__ import annotations

import functools
import re
from collections.abc import Mapping
from dataclasses import dataclass
from importlib import resources
from typing import Any

import yaml

from workbench.errors import WorkbenchError
from workbench.relevance import CIRCUMSTANCE_PATTERNS
from workbench.routing._normalise import DEGREE_WORDS, synonym_file
from workbench.utilities import load_catalog

PATTERN_KEYS = frozenset({"pattern", "any_of", "before", "after", "flags", "doc"})
"""The keys every pattern file may use."""
FLAGS: dict[str, re.RegexFlag] = {"IGNORECASE": re.IGNORECASE, "MULTILINE": re.MULTILINE,
                                  "DOTALL": re.DOTALL}
"""The :mod:`re` flags an entry may name."""
_REFERENCE = re.compile(r"\{\{(\w+)\}\}")


class RuleDataError(WorkbenchError, ValueError):
    """A data file of the rule router is malformed: the message names the file and the entry."""


@dataclass(frozen=True)
class PatternEntry:
    """One named entry of a pattern file, compiled."""

    name: str
    """The entry's name in its file."""
    regex: re.Pattern[str]
    """The compiled pattern, its references resolved."""
    options: Mapping[str, Any]
    """The entry's keys beyond the pattern's own (read by the file's interpreter)."""


_LOADER = getattr(yaml, "CSafeLoader", yaml.SafeLoader)
"""libyaml's safe loader where PyYAML was built with it: the pattern file parses ten times faster."""


def _read(filename: str) -> Any:
    try:
        text = resources.files("workbench.routing").joinpath(filename).read_text("utf-8")
        return yaml.load(text, Loader=_LOADER)
    except (OSError, yaml.YAMLError) as exc:
        raise RuleDataError(f"{filename}: cannot be read: {exc}") from exc


def compile_patterns(data: Any, filename: str, *, extra_keys: frozenset[str] = frozenset(),
                     pieces: Mapping[str, str] | None = None) -> dict[str, PatternEntry]:
    """Check and compile the entries of a pattern file (``data``, parsed from ``filename``).

    ``extra_keys`` are the keys an interpreter of the file reads besides :data:`PATTERN_KEYS`;
    ``pieces`` are texts that ``{{name}}`` may stand for besides the file's own entries.
    """
    if not isinstance(data, Mapping):
        raise RuleDataError(f"{filename}: expected a mapping of names to entries, got {type(data).__name__}")
    sources: dict[str, str] = {}
    for name, entry in data.items():
        where = f"{filename}: entry {name!r}"
        if not isinstance(entry, Mapping):
            raise RuleDataError(f"{where}: expected a mapping, got {type(entry).__name__}")
        unknown = set(entry) - PATTERN_KEYS - extra_keys
        if unknown:
            raise RuleDataError(f"{where}: unknown keys {sorted(unknown)}; known: "
                                f"{sorted(PATTERN_KEYS | extra_keys)}")
        if ("pattern" in entry) == ("any_of" in entry):
            raise RuleDataError(f"{where}: give exactly one of 'pattern' and 'any_of'")
        if "pattern" in entry and ("before" in entry or "after" in entry):
            raise RuleDataError(f"{where}: 'before' and 'after' go with 'any_of' only")
        parts = entry["any_of"] if "any_of" in entry else [entry["pattern"]]
        texts = [entry.get("before", ""), *parts, entry.get("after", "")]
        if not isinstance(parts, list) or not parts or not all(isinstance(t, str) for t in texts):
            raise RuleDataError(f"{where}: a pattern is a string, 'any_of' a list of strings")
        sources[str(name)] = texts[0] + "|".join(texts[1:-1]) + texts[-1]
    known = dict(pieces or {})

    def resolve(name: str, seen: tuple[str, ...]) -> str:
        if name in seen:
            raise RuleDataError(f"{filename}: entry {seen[0]!r}: circular reference through {name!r}")
        if name not in sources:
            return known[name]

        def sub(m: re.Match[str]) -> str:
            if m[1] not in sources and m[1] not in known:
                raise RuleDataError(f"{filename}: entry {name!r}: unknown reference {{{{{m[1]}}}}}")
            return resolve(m[1], (*seen, name))
        return _REFERENCE.sub(sub, sources[name])

    compiled = {}
    for name, entry in data.items():
        where = f"{filename}: entry {name!r}"
        flags = entry.get("flags") or []
        if not isinstance(flags, list) or any(f not in FLAGS for f in flags):
            raise RuleDataError(f"{where}: flags must be a list of {sorted(FLAGS)}, got {flags!r}")
        try:
            regex = re.compile(resolve(str(name), ()), functools.reduce(lambda a, f: a | FLAGS[f], flags, 0))
        except re.error as exc:
            raise RuleDataError(f"{where}: the pattern does not compile: {exc}") from exc
        options = {k: v for k, v in entry.items() if k in extra_keys}
        compiled[str(name)] = PatternEntry(str(name), regex, options)
    return compiled


@functools.cache
def pattern_file(filename: str, extra_keys: frozenset[str] = frozenset(),
                 pieces: tuple[tuple[str, str], ...] = ()) -> dict[str, PatternEntry]:
    """The compiled entries of the package's pattern file ``filename`` (read once)."""
    return compile_patterns(_read(filename), filename, extra_keys=extra_keys, pieces=dict(pieces))


def check_triggers(data: Any, filename: str, utilities: frozenset[str]) -> dict[str, tuple[str, ...]]:
    """The ``triggers`` section of ``data`` checked: known utility ids, lower-case words, each once."""
    table = data.get("triggers") if isinstance(data, Mapping) else None
    if not isinstance(table, Mapping):
        raise RuleDataError(f"{filename}: no 'triggers' section mapping utility ids to words")
    out: dict[str, tuple[str, ...]] = {}
    for uid, words in table.items():
        where = f"{filename}: triggers of {uid!r}"
        if uid not in utilities:
            raise RuleDataError(f"{where}: no such utility in the catalog")
        if not isinstance(words, list) or not words or not all(isinstance(w, str) and w for w in words):
            raise RuleDataError(f"{where}: expected a list of words")
        if any(w != w.lower() for w in words) or len(set(words)) != len(words):
            raise RuleDataError(f"{where}: words are lower case and each is written once")
        out[str(uid)] = tuple(words)
    return out


@functools.cache
def triggers() -> dict[str, tuple[str, ...]]:
    """The words that name each utility (``triggers`` of ``synonyms.yaml``), by utility id."""
    return check_triggers(synonym_file(), "synonyms.yaml", frozenset(load_catalog().schemas))


NOT_A_VALUE_KEYS = frozenset({"role", "window", "scope", "unless_value", "value_shape"})
"""The keys the interpreter of ``not_a_value.yaml`` reads (:mod:`._values`)."""


class Patterns:
    """The compiled entries of one pattern file, by name and as attributes (``P.clock.search(q)``)."""

    def __init__(self, entries: Mapping[str, PatternEntry]) -> None:
        self.entries = dict(entries)

    def __getattr__(self, name: str) -> re.Pattern[str]:
        try:
            return self.__dict__["entries"][name].regex
        except KeyError:
            raise AttributeError(f"no pattern named {name!r}") from None

    def prefixed(self, prefix: str) -> dict[str, re.Pattern[str]]:
        """The entries named ``prefix`` + a key (``"shape hash.md5"``), by that key, in file order."""
        return {name.removeprefix(prefix): e.regex for name, e in self.entries.items()
                if name.startswith(prefix)}


def _pieces() -> tuple[tuple[str, str], ...]:
    """The texts from other modules that ``{{name}}`` may stand for in the rule router's files."""
    return (("DEGREE_WORDS", DEGREE_WORDS), ("CIRCUMSTANCES", "|".join(CIRCUMSTANCE_PATTERNS.values())))


REFUSAL_LANGUAGES = ("en", "ru")
"""The languages every refusal text of a router is written in."""


def check_refusal_texts(data: Any, filename: str) -> dict[str, dict[str, str]]:
    """The refusal texts of ``data``: ``CODE`` or ``CODE:number`` to a text in each language (``*`` too)."""
    if not isinstance(data, Mapping) or "*" not in data:
        raise RuleDataError(f"{filename}: expected a mapping of refusal codes to texts, '*' among them")
    out: dict[str, dict[str, str]] = {}
    for key, texts in data.items():
        if not isinstance(texts, Mapping) or set(texts) != set(REFUSAL_LANGUAGES) or not all(
                isinstance(t, str) and t for t in texts.values()):
            raise RuleDataError(f"{filename}: entry {key!r}: expected a text in each of {REFUSAL_LANGUAGES}")
        out[str(key)] = {lang: texts[lang] for lang in REFUSAL_LANGUAGES}
    return out


@functools.cache
def refusal_texts() -> dict[str, dict[str, str]]:
    """``data/rule_refusals.yaml``: the rule router's refusal texts, checked."""
    return check_refusal_texts(_read("data/rule_refusals.yaml"), "data/rule_refusals.yaml")


@functools.cache
def span_refusal_texts() -> dict[str, dict[str, str]]:
    """``data/span_refusals.yaml``: the span router's refusal texts by reason, and an unheld premise's."""
    return check_refusal_texts(_read("data/span_refusals.yaml"), "data/span_refusals.yaml")


@functools.cache
def rule_patterns() -> Patterns:
    """``data/patterns.yaml``: the shapes of values and the cues around them, checked and compiled."""
    return Patterns(pattern_file("data/patterns.yaml", pieces=_pieces()))


ROLES = frozenset({"unnamed", "names_a_thing"})
"""The roles of ``not_a_value.yaml``: an entry without one is read by name."""


def check_not_a_value(entries: Mapping[str, PatternEntry], filename: str) -> Patterns:
    """The entries of a ``not_a_value`` file with their interpreter's keys checked.

    A ``role`` is one of :data:`ROLES`; ``names_a_thing`` takes a whole ``window`` of characters,
    ``scope`` is ``place`` if given, and ``unless_value`` and ``value_shape`` name entries of the file.
    """
    for name, entry in entries.items():
        where, options = f"{filename}: entry {name!r}", entry.options
        role = options.get("role")
        if role is not None and role not in ROLES:
            raise RuleDataError(f"{where}: unknown role {role!r}; known: {sorted(ROLES)}")
        rest = set(options) - {"role"}
        if role != "names_a_thing" and rest:
            raise RuleDataError(f"{where}: {sorted(rest)} go with role names_a_thing only")
        if role == "names_a_thing" and (type(options.get("window")) is not int or options["window"] < 1):
            raise RuleDataError(f"{where}: role names_a_thing needs a window, a whole number of characters")
        if options.get("scope", "place") != "place":
            raise RuleDataError(f"{where}: scope is 'place' or absent, got {options['scope']!r}")
        for key in ("unless_value", "value_shape"):
            if key in options and options[key] not in entries:
                raise RuleDataError(f"{where}: {key} names no entry of the file: {options[key]!r}")
    return Patterns(entries)


@functools.cache
def not_a_value() -> Patterns:
    """``data/not_a_value.yaml``: the contexts in which a number is no value, checked and compiled."""
    filename = "data/not_a_value.yaml"
    return check_not_a_value(pattern_file(filename, NOT_A_VALUE_KEYS, _pieces()), filename)
