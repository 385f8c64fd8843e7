"""A specification's inputs bound from the question's words, never guessed.

Every router that names a specification binds its inputs here, so the rule router and the span
router read a question the same way:

- a ``date`` input takes a date span of the question (:func:`date_spans`), in order;
- a number or ``money`` input takes a non-negative number span (:func:`number_spans`), written as
  the spec language reads it (``"366000 rub"`` for money);
- an enum or ``bool`` input takes the member that the question's words name, through the declared
  vocabulary ``spec_inputs`` of ``synonyms.yaml`` (words per input name, shared by the specs
  that share the name). Overlapping words resolve to the longer, so «не подтверждены» reads "no"
  before «подтверждены» can read "yes"; words that name two different members leave the input
  absent.

An input the question does not settle stays absent, and the spec source refuses the call for its
missing input: a member is never filled in because it is the most frequent one.
"""

from __future__ import annotations

import functools
import re
from importlib import resources
from pathlib import Path

import yaml

from workbench.config import project_root
from workbench.fts import Spec, parse
from workbench.routing._normalise import (
    NormaliseError,
    Vocabulary,
    build_vocabulary,
    date_spans,
    normalise_date,
    normalise_number,
    number_spans,
)

NUMBER_KINDS = frozenset({"number", "money", "integer", "percent"})
"""Spec input types read from a number span."""
_CYRILLIC = re.compile(r"[а-яё]", re.IGNORECASE)


@functools.cache
def spec_vocabularies() -> dict[str, Vocabulary]:
    """The declared words of each closed spec input, by input name (``synonyms.yaml``)."""
    text = resources.files("workbench.routing").joinpath("synonyms.yaml").read_text("utf-8")
    table = yaml.safe_load(text).get("spec_inputs") or {}
    return {name: build_vocabulary(name, values or {}, own_names=False) for name, values in table.items()}


def spec_types(specs_dir: Path | None = None) -> dict[str, dict[str, tuple[str, ...]]]:
    """Per spec id: input name -> the members of its type (``bool`` -> yes/no, else the type name)."""
    return dict(_spec_types(specs_dir or project_root() / "corpus" / "specs"))


@functools.cache
def _spec_types(folder: Path) -> dict[str, dict[str, tuple[str, ...]]]:
    found: dict[str, dict[str, tuple[str, ...]]] = {}
    for path in sorted(folder.glob("*.fts")):
        spec = parse(path.read_text(encoding="utf-8"))
        if not isinstance(spec, Spec):
            continue
        enums = {t.name: t.members for t in spec.types}
        found[spec.id] = {i.name: enums.get(i.type_name, ("yes", "no") if i.type_name == "bool"
                                             else (i.type_name,)) for i in spec.inputs}
    return found


def named_member(name: str, members: tuple[str, ...], question: str) -> str | None:
    """The one member of ``members`` that the question's words name for input ``name``, or None."""
    vocabulary = spec_vocabularies().get(name)
    if vocabulary is None:
        return None
    named = set()
    for start, end in vocabulary.separate_spans(question):
        try:
            named.add(vocabulary.lookup(question[start:end]))
        except NormaliseError:
            continue
    named &= set(members)
    return named.pop() if len(named) == 1 else None


def bind_spec_inputs(spec: str, question: str, types: dict[str, dict[str, tuple[str, ...]]] | None = None
                     ) -> dict[str, str]:
    """Each input of ``spec`` that the question settles, as the spec language reads it."""
    inputs = (types if types is not None else spec_types()).get(spec, {})
    dates = []
    for start, end in date_spans(question):
        try:
            dates.append(normalise_date(question[start:end]))
        except NormaliseError:
            continue
    numbers: list[int | float] = []
    for start, end in number_spans(question):
        try:
            value = normalise_number(question[start:end], decimal_comma=bool(_CYRILLIC.search(question)))
        except NormaliseError:
            continue
        if value >= 0:
            numbers.append(value)
    args: dict[str, str] = {}
    for name, members in inputs.items():
        kind = members[0] if len(members) == 1 else "enum"
        if kind == "date":
            if dates:
                args[name] = dates.pop(0)
        elif kind in NUMBER_KINDS:
            if numbers:
                value = numbers.pop(0)
                digits = str(int(value)) if float(value).is_integer() else repr(value)
                args[name] = f"{digits} rub" if kind == "money" else digits
        else:
            member = named_member(name, members, question)
            if member is not None:
                args[name] = member
    return args
