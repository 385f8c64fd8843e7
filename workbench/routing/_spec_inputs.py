"""A specification's inputs bound from the question's words, never guessed.

Every router that names a specification binds its inputs here, so the rule router and the span
router read a question the same way:

- a ``date`` input takes a date span of the question (:func:`date_spans`), in order;
- a number or ``money`` input takes a non-negative number span (:func:`number_spans`), in order,
  written as the spec language reads it (``"366000 rub"`` for money); a money input takes first
  a number written with a currency («2 400 000 рублей»), so «за три месяца» is not an amount;
- an enum or ``bool`` input takes the member that the question's words name, through the declared
  vocabulary ``spec_inputs`` of ``synonyms.yaml`` (words per input name, shared by the specs
  that share the name). Overlapping words resolve to the longer, so «не подтверждены» reads "no"
  before «подтверждены» can read "yes"; words that name two different members leave the input
  absent.

An input the question does not settle stays absent, and the spec source refuses the call for its
missing input: a member is never filled in because it is the most frequent one.

Which specification a question asks about is read the same way (:func:`choose_spec`): each spec
declares the words that say what it concludes (``spec_cues`` of ``synonyms.yaml``), and a spec
scores by the distinct cue words the question holds plus how many of its inputs the question
settles (:func:`spec_evidence`). A spec whose inputs are all settled outranks one that leaves some
open, so «экспорт хлеба без документов» goes to the rate for a supply (three inputs settled), not to
the zero-rate rule (two).
"""

from __future__ import annotations

import functools
import re
from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path
from types import MappingProxyType

from workbench.config import project_root
from workbench.fts import EvalError, FtsError, Spec, open_inputs, parse, parse_value
from workbench.routing._normalise import (
    NormaliseError,
    Vocabulary,
    build_vocabulary,
    date_spans,
    normalise_date,
    normalise_number,
    number_spans,
    percent_spans,
    reads_decimal_comma,
    synonym_file,
)

NUMBER_KINDS = frozenset({"number", "money", "integer", "percent"})
"""Spec input types read from a number span."""
_DAY_WORD = re.compile(r"\s*-?\s*(?:\w+\s+)?(?:days?|дн(?:ей|я)|день|сут(?:ок|ки))(?!\w)", re.IGNORECASE)
"""What follows a count of days: "9 days", «7 календарных дней», "40-day"."""
_SAME_DAY = re.compile(r"(?<!\w)(?:on\s+the\s+(?:same\s+)?day\s+of|the\s+same\s+day|в\s+тот\s+же\s+день"
                       r"|в\s+день\s+(?:отгрузки|поставки|экспорта|передачи|оказания))(?!\w)", re.IGNORECASE)
"""Words that put two events on one day: "issued on the day of shipment" is 0 days after it."""
_CURRENCY = re.compile(r"\s*(?:₽|руб|р\.|rub|roubles?|rubles?|RUB)", re.IGNORECASE)
"""A currency written right after a number: the number is an amount of money."""


CUE_WEIGHT = 1.0
"""Score of each unit of cue weight (:attr:`SpecEvidence.cues`)."""
SETTLED_WEIGHT = 2.0
"""Score of a spec whose inputs the question settles in full (scaled by the share settled)."""
INPUT_WEIGHT = 1.0
"""Score of each input the question settles (a spec that reads more of the question ranks first)."""
MIN_SPEC_SCORE = 4.0
"""The least score :func:`choose_spec` accepts: on dev every spec question whose inputs are
settled scores 4.5 or more, and no other question more than 3.5."""
MIN_SPEC_CUES = 1.0
"""The least cue weight :func:`choose_spec` accepts: words shared with other specs («дней» with
two, «invoice» with three) must add up to one word that names the spec alone."""


@dataclass(frozen=True)
class SpecEvidence:
    """What the question says about one specification."""

    spec: str
    cues: float
    """The weight of the spec's cue words in the question (each 1/k for a word k specs declare),
    plus one for a word of the tax's name."""
    settled: Mapping[str, str]
    """The inputs the question settles (:func:`bind_spec_inputs`); read-only, since the evidence
    for a question is remembered and shared."""
    inputs: int
    """How many inputs the spec declares."""

    @property
    def score(self) -> float:
        """Cue words, plus the share of inputs settled, plus the count settled (weights above)."""
        share = len(self.settled) / self.inputs if self.inputs else 0.0
        return CUE_WEIGHT * self.cues + SETTLED_WEIGHT * share + INPUT_WEIGHT * len(self.settled)


@functools.cache
def spec_cues() -> dict[str, Vocabulary]:
    """The declared cue words of each spec a question can ask about, by spec id (``synonyms.yaml``).

    Key ``""`` holds ``spec_domain``, the words that name the tax all of them are about.
    """
    loaded = synonym_file()
    table = {"": loaded.get("spec_domain") or [], **(loaded.get("spec_cues") or {})}
    return {spec: build_vocabulary(spec, {spec: words}, own_names=False) for spec, words in table.items()}


@functools.cache
def _reason_words() -> Vocabulary:
    return build_vocabulary("spec_reason", {"reason": synonym_file().get("spec_reason") or []},
                            own_names=False)


def asks_reason(question: str) -> bool:
    """Whether ``question`` asks for a reason («почему», "why"; ``spec_reason`` of ``synonyms.yaml``).

    A reason is what neither a spec's conclusion nor a utility's result gives.
    """
    return bool(_reason_words().separate_spans(question))


@functools.cache
def _cue_weights() -> dict[str, float]:
    """Each cue word's weight: 1 over the number of specs that declare it."""
    counts: dict[str, int] = {}
    for spec, vocabulary in spec_cues().items():
        for word in {w for w, _, _ in vocabulary.words} if spec else ():
            counts[word] = counts.get(word, 0) + 1
    return {word: 1 / n for word, n in counts.items()}


def spec_evidence(question: str) -> list[SpecEvidence]:
    """The evidence for every spec with a cue word in ``question``, best first.

    Ties go to the spec that settles more inputs, then by id. A question that asks for a reason
    («почему», "why"; ``spec_reason`` of ``synonyms.yaml``) has no spec evidence at all, and one
    that states a percentage («по ставке 10%», "the 10% rate") none for a spec that concludes a
    percentage: it gives the rate rather than asking for it.
    """
    types = spec_types()
    cues = spec_cues()
    if asks_reason(question):
        return []
    weights = _cue_weights()
    domain = 1.0 if cues[""].separate_spans(question) else 0.0
    stated = bool(percent_spans(question))
    parsed = _default_specs()
    found = []
    for spec, vocabulary in cues.items():
        if stated and spec in parsed and parsed[spec].outputs and parsed[spec].output.type_name == "percent":
            continue  # the question states a rate, so it does not ask for one
        own = vocabulary.words_in(question) if spec in types else set()
        if own:
            settled = MappingProxyType(bind_spec_inputs(spec, question, types))
            found.append(SpecEvidence(spec, round(sum(weights[w] for w in own) + domain, 4), settled,
                                      len(types[spec])))
    return sorted(found, key=lambda e: (-e.score, -len(e.settled), e.spec))


@functools.lru_cache(maxsize=512)
def choose_spec(question: str) -> SpecEvidence | None:
    """The spec ``question`` asks about, or None.

    None where the best spec falls short of :data:`MIN_SPEC_SCORE` or :data:`MIN_SPEC_CUES`, and
    where no word of the tax's name is there and the cue words weigh no more than the least.
    Remembered: the rule router and the span router's spec prior both ask about the same question.
    """
    ranked = spec_evidence(question)
    best = ranked[0] if ranked else None
    if not best or best.score < MIN_SPEC_SCORE or best.cues < MIN_SPEC_CUES:
        return None
    if best.cues <= MIN_SPEC_CUES and not spec_cues()[""].separate_spans(question):
        # without the tax's name, two words other specs share («срок», «дней») are no topic: «60
        # календарных дней от поставки 17.06.2025 — какое число крайний срок?» counts days
        return None
    return best


@functools.cache
def spec_vocabularies() -> dict[str, Vocabulary]:
    """The declared words of each closed spec input, by input name (``synonyms.yaml``)."""
    table = synonym_file().get("spec_inputs") or {}
    return {name: build_vocabulary(name, values or {}, own_names=False) for name, values in table.items()}


def spec_types(specs_dir: Path | None = None) -> dict[str, dict[str, tuple[str, ...]]]:
    """Per spec id: input name -> the members of its type (``bool`` -> yes/no, else the type name)."""
    return dict(_spec_types(specs_dir or project_root() / "corpus" / "specs"))


@functools.cache
def _spec_types(folder: Path) -> dict[str, dict[str, tuple[str, ...]]]:
    found: dict[str, dict[str, tuple[str, ...]]] = {}
    for spec in _parsed_specs(folder).values():
        enums = {t.name: t.members for t in spec.types}
        found[spec.id] = {i.name: enums.get(i.type_name, ("yes", "no") if i.type_name == "bool"
                                             else (i.type_name,)) for i in spec.inputs}
    return found


@functools.cache
def _default_specs() -> dict[str, Spec]:
    return _parsed_specs(project_root() / "corpus" / "specs")


@functools.cache
def _parsed_specs(folder: Path) -> dict[str, Spec]:
    found: dict[str, Spec] = {}
    for path in sorted(folder.glob("*.fts")):
        spec = parse(path.read_text(encoding="utf-8"))
        if isinstance(spec, Spec):
            found[spec.id] = spec
    return found


def open_spec_inputs(spec_id: str, settled: Mapping[str, str], specs_dir: Path | None = None
                     ) -> tuple[str, ...]:
    """The inputs of ``spec_id`` absent from ``settled`` that its conclusion depends on.

    Empty when the settled inputs decide the conclusion alone (:func:`workbench.fts.open_inputs`):
    «периодика, продаваемая в России» needs no word on export documents. A settled value its type
    does not read leaves every absent input open. A spec that is not in the folder has nothing to
    judge by: empty too, and the spec source refuses it by its id.
    """
    spec = (_parsed_specs(specs_dir) if specs_dir else _default_specs()).get(spec_id)
    if spec is None:
        return ()
    enums = {t.name: t.members for t in spec.types}
    absent = tuple(i.name for i in spec.inputs if i.name not in settled)
    try:
        values = {i.name: parse_value(i.type_name, str(settled[i.name]), enums.get(i.type_name, ()))
                  for i in spec.inputs if i.name in settled}
        return open_inputs(spec, values)
    except (EvalError, FtsError, ValueError, ArithmeticError):
        return absent


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
    numbers: list[tuple[int | float, bool, bool, bool]] = []  # value, currency, percentage, days
    percents = {start for start, _ in percent_spans(question)}
    for start, end in number_spans(question):
        try:
            value = normalise_number(question[start:end], decimal_comma=reads_decimal_comma(question))
        except NormaliseError:
            continue
        if value >= 0:
            numbers.append((value, bool(_CURRENCY.match(question, end)), start in percents,
                            bool(_DAY_WORD.match(question, end))))
    args: dict[str, str] = {}
    for name, members in inputs.items():
        kind = members[0] if len(members) == 1 else "enum"
        if kind == "date":
            if dates:
                args[name] = dates.pop(0)
        elif kind in NUMBER_KINDS:
            # a percentage is only a percent input's ("VAT at 20%" gives no count of days), and an
            # amount of money is the first number written with a currency, if any is
            fits = [i for i, (_, _, pct, _) in enumerate(numbers) if pct == (kind == "percent")]
            if name.startswith("days"):
                # a count of days is written with its word ("9 days after the supply"); a bare
                # figure is an amount or a rate («The invoice is 2 400 net»), and "on the day of
                # shipment" is none at all
                fits = [i for i in fits if numbers[i][3]]
                if not fits and _SAME_DAY.search(question):
                    args[name] = "0"
            if fits:
                cash = [i for i in fits if numbers[i][1]] if kind == "money" else []
                value = numbers.pop((cash or fits)[0])[0]
                digits = str(int(value)) if float(value).is_integer() else repr(value)
                args[name] = f"{digits} rub" if kind == "money" else digits
        else:
            member = named_member(name, members, question)
            if member is not None:
                args[name] = member
    return args
