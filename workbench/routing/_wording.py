"""The wording of router training lines, read once from the YAML files in ``routing/wording/``.

The phrasings the generator of :mod:`workbench.routing._dataset` draws from (lead-ins around a
utility's description, short-name templates, openers, spec and refusal questions, value pools)
are data beside it, so that an edit of the wording is an edit of a data file and the generator
reads as logic. Each file is checked as it loads: its keys, that every list of phrasings holds
strings and at least one of them, and that a template names only the placeholders its builder
fills. A file that fails raises :class:`WordingFileError` naming the file, the place and the fault.
"""

from __future__ import annotations

import string
from collections.abc import Collection, Mapping
from dataclasses import dataclass
from functools import cache
from importlib import resources
from importlib.resources.abc import Traversable
from typing import Any, NoReturn

import yaml

from workbench.errors import WorkbenchError

LANGS = ("ru", "en")
"""The languages every table of phrasings is written in."""
FORMS = ("verb", "how", "whether")
"""The grammatical forms of a description that have lead-ins of their own (others are nouns)."""

LEAD_FIELDS = frozenset({"task", "Task"})
NAME_FIELDS = frozenset({"name", "Name", "body"})
MISSING_FIELDS = frozenset({"task", "task_plain"})
CIRCUMSTANCE_FIELDS = frozenset({"task", "value"})
SPEC_FIELDS = frozenset({"title", "label", "pairs"})

ByLang = Mapping[str, tuple[str, ...]]
"""Phrasings per language (``ru``, ``en``)."""


class WordingFileError(WorkbenchError, ValueError):
    """A wording file of the training-data generator is missing, unreadable or misshapen."""


@dataclass(frozen=True)
class TaskForms:
    """How the first word of a utility description tells which lead-ins fit it (one language)."""

    verbs: frozenset[str]
    """First words that make the description a verb phrase (``convert``)."""
    verb_endings: tuple[str, ...]
    """Infinitive endings that make a first word a verb (``ть``), after at least one more character."""
    how: frozenset[str]
    """First words of a ``how`` description (``how``, ``сколько``)."""
    whether: frozenset[str]
    """First words of a ``whether`` description (``whether``, ``является``)."""
    whether_particles: tuple[str, ...]
    """Words that make the description a ``whether`` question wherever they stand (``ли``)."""
    articles: tuple[str, ...]
    """Articles taken off the front of a noun description (``the``)."""


@dataclass(frozen=True)
class UtilityWording:
    """The wording of a utility question (``utility.yaml``)."""

    text_values: tuple[str, ...]
    """Texts drawn for a ``text`` argument in place of a catalog example's value."""
    task_forms: Mapping[str, TaskForms]
    """Per language, how a description's first word chooses its lead-ins."""
    noun_leads: Mapping[str, ByLang]
    """Per catalog category, the lead-ins of a noun description (``{task}``, ``{Task}``)."""
    form_leads: Mapping[str, ByLang]
    """Per form of :data:`FORMS`, its lead-ins (``{task}``, ``{Task}``)."""
    arg_joiners: ByLang
    """What stands between the lead-in and the argument values."""
    quote_marks: Mapping[str, tuple[tuple[str, str], ...]]
    """Per language, the opening and closing marks put around a data value."""
    name_templates: ByLang
    """Short questions around a name of the utility (``{name}``, ``{Name}``, ``{body}``)."""


@dataclass(frozen=True)
class RefusalWording:
    """The wording of the three refusal lines (``refusals.yaml``)."""

    out_of_scope: ByLang
    """Questions no source answers; their placeholders are keys of :attr:`out_of_scope_fill`."""
    out_of_scope_fill: Mapping[str, tuple[str, ...]]
    """Values per placeholder of the out-of-scope questions, in the order they are drawn."""
    missing: ByLang
    """Requests whose data the question does not hold (``{task}``, ``{task_plain}``)."""
    circumstance: ByLang
    """Requests naming a circumstance where the data should stand (``{task}``, ``{value}``)."""
    circumstance_values: Mapping[str, tuple[str, ...]]
    """Per circumstance argument (``charset``, ``tz``), the values drawn into those requests."""


@dataclass(frozen=True)
class Wording:
    """Every table of phrasings the training-data generator draws from."""

    utility: UtilityWording
    """Utility questions (``utility.yaml``)."""
    refusals: RefusalWording
    """Refusal questions (``refusals.yaml``)."""
    openers: ByLang
    """Polite openers in front of a quote question or a dev task (``openers.yaml``)."""
    spec_templates: ByLang
    """Questions around a worked case of a spec (``spec.yaml``, ``{title}``, ``{label}``, ``{pairs}``)."""


class _Reader:
    """Checks the parsed content of one file; every fault names the file and the place."""

    def __init__(self, file: Traversable) -> None:
        self.file = file

    def fail(self, where: str, what: str) -> NoReturn:
        raise WordingFileError(f"wording file {self.file}: {where}: {what}")

    def table(self, value: Any, where: str, keys: Collection[str] | None = None) -> dict[str, Any]:
        """A mapping with string keys; exactly ``keys`` when they are given."""
        if not isinstance(value, dict) or not value:
            self.fail(where, f"expected a mapping with entries, found {_kind(value)}")
        for key in value:
            if not isinstance(key, str):
                self.fail(where, f"key {key!r} is not a string")
        if keys is not None:
            missing = [k for k in keys if k not in value]
            unknown = [k for k in value if k not in keys]
            if missing:
                self.fail(where, f"missing key {missing[0]!r}")
            if unknown:
                self.fail(where, f"unknown key {unknown[0]!r} (expected: {', '.join(keys)})")
        return value

    def texts(
        self, value: Any, where: str, fields: Collection[str] | None = None, *, allow_empty: bool = False
    ) -> tuple[str, ...]:
        """A list of strings; each a template naming only ``fields`` when they are given."""
        if not isinstance(value, list) or (not value and not allow_empty):
            self.fail(where, f"expected a list of strings with at least one entry, found {_kind(value)}")
        for i, item in enumerate(value):
            if not isinstance(item, str):
                self.fail(f"{where}[{i}]", f"expected a string, found {_kind(item)}")
            if fields is not None:
                self._check_template(item, f"{where}[{i}]", fields)
        return tuple(value)

    def by_lang(
        self, value: Any, where: str, fields: Collection[str] | None = None
    ) -> dict[str, tuple[str, ...]]:
        """Phrasings per language of :data:`LANGS`."""
        table = self.table(value, where, LANGS)
        return {lang: self.texts(items, f"{where}.{lang}", fields) for lang, items in table.items()}

    def pairs(self, value: Any, where: str) -> tuple[tuple[str, str], ...]:
        """A list of ``[opening, closing]`` pairs of strings."""
        if not isinstance(value, list) or not value:
            self.fail(where, f"expected a list of pairs with at least one entry, found {_kind(value)}")
        for i, item in enumerate(value):
            if not (isinstance(item, list) and len(item) == 2 and all(isinstance(s, str) for s in item)):
                self.fail(f"{where}[{i}]", f"expected a pair of strings, found {item!r}")
        return tuple((a, b) for a, b in value)

    def _check_template(self, text: str, where: str, fields: Collection[str]) -> None:
        try:
            named = [name for _, name, _, _ in string.Formatter().parse(text) if name is not None]
        except ValueError as exc:
            self.fail(where, f"not a template ({exc}): {text!r}")
        for name in named:
            if name not in fields:
                known = ", ".join(sorted(fields))
                self.fail(where, f"placeholder {{{name}}} is not one of {known}: {text!r}")


def _kind(value: Any) -> str:
    if isinstance(value, list | dict) and not value:
        return f"an empty {type(value).__name__}"
    return type(value).__name__


def _load(folder: Traversable, name: str) -> tuple[_Reader, dict[str, Any]]:
    file = folder.joinpath(name)
    reader = _Reader(file)
    try:
        text = file.read_text(encoding="utf-8")
    except (OSError, UnicodeDecodeError) as exc:
        raise WordingFileError(f"wording file {file} cannot be read: {exc}") from None
    try:
        data = yaml.safe_load(text)
    except yaml.YAMLError as exc:
        mark = getattr(exc, "problem_mark", None)
        place = f"line {mark.line + 1}" if mark is not None else "the file"
        reader.fail(place, f"not valid YAML ({getattr(exc, 'problem', None) or exc})")
    return reader, reader.table(data, "top level")


def _task_forms(reader: _Reader, value: Any, where: str) -> TaskForms:
    keys = ("verbs", "verb_endings", "how", "whether", "whether_particles", "articles")
    table = reader.table(value, where, keys)
    words = {k: reader.texts(table[k], f"{where}.{k}", allow_empty=True) for k in keys}
    return TaskForms(
        verbs=frozenset(words["verbs"]),
        verb_endings=words["verb_endings"],
        how=frozenset(words["how"]),
        whether=frozenset(words["whether"]),
        whether_particles=words["whether_particles"],
        articles=words["articles"],
    )


def _utility(folder: Traversable) -> UtilityWording:
    keys = ("text_values", "task_forms", "noun_leads", "form_leads", "arg_joiners", "quote_marks",
            "name_templates")  # fmt: skip
    reader, data = _load(folder, "utility.yaml")
    reader.table(data, "top level", keys)
    forms = reader.table(data["task_forms"], "task_forms", LANGS)
    nouns = reader.table(data["noun_leads"], "noun_leads")
    leads = reader.table(data["form_leads"], "form_leads", FORMS)
    marks = reader.table(data["quote_marks"], "quote_marks", LANGS)
    return UtilityWording(
        text_values=reader.texts(data["text_values"], "text_values"),
        task_forms={lang: _task_forms(reader, v, f"task_forms.{lang}") for lang, v in forms.items()},
        noun_leads={c: reader.by_lang(v, f"noun_leads.{c}", LEAD_FIELDS) for c, v in nouns.items()},
        form_leads={f: reader.by_lang(v, f"form_leads.{f}", LEAD_FIELDS) for f, v in leads.items()},
        arg_joiners=reader.by_lang(data["arg_joiners"], "arg_joiners"),
        quote_marks={lang: reader.pairs(v, f"quote_marks.{lang}") for lang, v in marks.items()},
        name_templates=reader.by_lang(data["name_templates"], "name_templates", NAME_FIELDS),
    )


def _refusals(folder: Traversable) -> RefusalWording:
    keys = ("out_of_scope", "out_of_scope_fill", "missing", "circumstance", "circumstance_values")
    reader, data = _load(folder, "refusals.yaml")
    reader.table(data, "top level", keys)
    fill = reader.table(data["out_of_scope_fill"], "out_of_scope_fill")
    circumstance = reader.table(data["circumstance_values"], "circumstance_values")
    return RefusalWording(
        out_of_scope=reader.by_lang(data["out_of_scope"], "out_of_scope", fill),
        out_of_scope_fill={k: reader.texts(v, f"out_of_scope_fill.{k}") for k, v in fill.items()},
        missing=reader.by_lang(data["missing"], "missing", MISSING_FIELDS),
        circumstance=reader.by_lang(data["circumstance"], "circumstance", CIRCUMSTANCE_FIELDS),
        circumstance_values={k: reader.texts(v, f"circumstance_values.{k}") for k, v in circumstance.items()},
    )


def _by_lang_file(folder: Traversable, name: str, key: str, fields: Collection[str] | None) -> ByLang:
    reader, data = _load(folder, name)
    reader.table(data, "top level", (key,))
    return reader.by_lang(data[key], key, fields)


@cache
def load_wording(folder: Traversable | None = None) -> Wording:
    """Every table of phrasings of the training-data generator, read and checked once per folder.

    Args:
        folder: The folder of ``utility.yaml``, ``refusals.yaml``, ``openers.yaml`` and
            ``spec.yaml``; the package's own ``routing/wording`` by default.

    Returns:
        The checked tables.

    Raises:
        WordingFileError: When a file is missing, unreadable, not YAML, or not shaped as
            described in this module (the message names the file and the place).
    """
    where = folder if folder is not None else resources.files("workbench.routing").joinpath("wording")
    return Wording(
        utility=_utility(where),
        refusals=_refusals(where),
        openers=_by_lang_file(where, "openers.yaml", "openers", None),
        spec_templates=_by_lang_file(where, "spec.yaml", "templates", SPEC_FIELDS),
    )


__all__ = [
    "LANGS",
    "RefusalWording",
    "TaskForms",
    "UtilityWording",
    "Wording",
    "WordingFileError",
    "load_wording",
]
