"""The learned binder: a seeded logistic ranker picks, for each weighed argument, one of its candidates.

Candidates are the spans a declared normaliser reads as a value of the argument
(:mod:`._binder_candidates`); each (argument, candidate) pair is scored from named 0/1 features
(:mod:`._binder_features`) by a logistic regression whose weights are a JSON table
(``models/binder/binder.json``; no pickle). The best candidate is bound where its probability
reaches one half. Where a candidate of another value scores within the calibrated margin
(:attr:`BinderModel.margin`) of it, the binder binds neither: the call is refused with
``AMBIGUOUS_ARGUMENT``, naming both values, so the person asking can say which one is meant.

Arguments the binder does not weigh (texts, enums, units, bases) keep the span a reference
binding gives, except where a text has two readings (:data:`READINGS`, :func:`reading_refusal`):
a span that another text argument's span overlaps (a regex's text cut from the line its pattern
was bound to), or one that holds a shorter reading of its own (:data:`TEXT_READINGS`: a quoted
literal with words beside it, a title to escape with a remark after it, a list with a remark
under it). That is refused as ambiguous too, naming both readings. The
reference's choice is also one feature of a weighed argument unless the model was trained
without it (:attr:`BinderModel.reference`), which is how its worth is measured.
"""

from __future__ import annotations

import itertools
import json
import math
from collections.abc import Callable, Mapping
from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import Any, NamedTuple

from workbench.config import project_root
from workbench.errors import WorkbenchError
from workbench.refusal import Refusal
from workbench.routing._asks import refusal_lang
from workbench.routing._binder_candidates import (
    Candidate,
    TooManyCandidates,
    candidates,
    last_line_apart,
    lead_in_colon,
    named_fit,
    quoted_within,
    same_value,
    set_in_quotes,
    weighed,
)
from workbench.routing._binder_features import argument_place, pair_features
from workbench.routing._normalise import ArgSpan
from workbench.utilities import MESSAGES, TEXT_FORMS, Argument, UtilityCode, UtilitySchema

DEFAULT_PATH = Path("models/binder/binder.json")
"""Where the committed weights live, relative to the project root."""
FORMAT = 2
"""The weights file's format version (format 1 files load as feature set 1)."""
FEATURES = 2
"""The feature set :func:`candidate_features` computes now. Set 1 weights were trained ranking a
later argument's candidates without the spans earlier arguments took; they are ranked so still."""
BIND_PROBABILITY = 0.5
"""The least probability at which the best candidate is bound (below it the argument is left absent)."""
AMBIGUOUS_ARGUMENT = UtilityCode.AMBIGUOUS_ARGUMENT.value
"""The refusal code of two close candidates (a utility refusal code, :class:`UtilityCode`)."""
TOO_MANY_SPANS = UtilityCode.BAD_ARGUMENT.value
"""The refusal code of a question that offers more spans than the binder weighs."""
TOO_MANY_TEXT = {
    "en": ("The question offers {found} {what} for {argument} of {utility}; the binder weighs at "
           "most {limit}, so it called nothing."),
    "ru": ("Вопрос даёт {found} ({what}) для аргумента {argument} утилиты {utility}; обученный "
           "связыватель взвешивает не больше {limit}, поэтому вызова не было."),
}
"""The refusal text of a question with more spans than the binder weighs, in each language."""


class BinderError(WorkbenchError, ValueError):
    """A binder weights file that is missing, damaged or of another format."""


@dataclass(frozen=True)
class BinderModel:
    """A logistic ranker over named features, as saved."""

    weights: dict[str, float]
    """Each feature's weight."""
    bias: float
    """The intercept."""
    margin: float = 0.0
    """Below this score gap between the best candidate and the best one of another value the
    argument is ambiguous (0: never)."""
    reference: bool = True
    """Whether the reference binding's choice is a feature."""
    seed: int = 13
    """The seed of the generated lines and of the solver."""
    trained_on: dict[str, int] = field(default_factory=dict)
    """How many lines of each kind it was trained on (``dev``, ``generated``) and how many pairs."""
    calibration: dict[str, Any] = field(default_factory=dict)
    """How :attr:`margin` was chosen (Learn then Test: alpha, delta, counts), or why none was."""
    features: int = FEATURES
    """The feature set the weights were trained on (:data:`FEATURES`)."""

    def score(self, features: list[str]) -> float:
        """The logit of one pair."""
        return self.bias + sum(self.weights.get(f, 0.0) for f in features)

    def save(self, path: str | Path) -> Path:
        """Write the model as JSON (sorted keys, so a retrain shows as a readable diff)."""
        out = Path(path)
        out.parent.mkdir(parents=True, exist_ok=True)
        out.write_text(json.dumps({"format": FORMAT, **asdict(self)}, ensure_ascii=False, indent=1,
                                  sort_keys=True) + "\n", encoding="utf-8")
        return out

    @classmethod
    def load(cls, path: str | Path) -> BinderModel:
        """Read a model :meth:`save` wrote.

        Raises:
            BinderError: The file is missing, not JSON, of another format, or its weights are not numbers.
        """
        try:
            data = json.loads(Path(path).read_text(encoding="utf-8"))
        except (OSError, ValueError) as exc:
            raise BinderError(f"no binder weights in {path}: {exc}") from exc
        version = data.pop("format", None) if isinstance(data, dict) else None
        if version not in (1, FORMAT):
            raise BinderError(f"{path} is no binder weights file of format 1 or {FORMAT}")
        if version == 1:
            data["features"] = 1
        try:
            model = cls(**data)
            weights = {str(k): float(v) for k, v in model.weights.items()}
            bias, margin = float(model.bias), float(model.margin)
        except (TypeError, ValueError, AttributeError) as exc:
            raise BinderError(f"{path}: {exc}") from exc
        if not all(math.isfinite(v) for v in [*weights.values(), bias, margin]):
            raise BinderError(f"{path} holds a weight that is not a finite number")
        if model.features not in (1, FEATURES):
            raise BinderError(f"{path}: feature set {model.features} is not 1 or {FEATURES}")
        return cls(weights, bias, margin, bool(model.reference), int(model.seed),
                   dict(model.trained_on), dict(model.calibration), int(model.features))


class Scored(NamedTuple):
    """A candidate with its logit."""

    candidate: Candidate
    """The span and its value."""
    score: float
    """The model's logit."""


class ArgumentChoice(NamedTuple):
    """How one weighed argument was chosen."""

    argument: str
    """Its name."""
    ranked: list[Scored]
    """Its candidates, best first."""
    margin: float
    """The logit gap to the best candidate of another value (``inf`` with none)."""


@dataclass(frozen=True)
class Binding:
    """What binding one utility to one question gives."""

    spans: dict[str, ArgSpan]
    """Each bound argument's span."""
    choices: tuple[ArgumentChoice, ...] = ()
    """How each weighed argument was chosen."""
    refusal: Refusal | None = None
    """``AMBIGUOUS_ARGUMENT`` or a too-many-spans refusal; then no call is made."""
    set_aside: dict[str, tuple[str, ...]] = field(default_factory=dict)
    """The spans set aside for their form, as written, by argument: an identifier's candidates of
    another form (:func:`~._binder_candidates.named_fit`) where none was left to bind, and a text's
    span without its declared form (:meth:`LearnedBinder._formed`). What a refusal names as checked."""

    @property
    def least_margin(self) -> float:
        """The smallest margin of a bound weighed argument (``inf`` with none): the call's score."""
        return min((c.margin for c in self.choices if c.argument in self.spans), default=math.inf)


ReferenceBinding = Callable[[UtilitySchema, str], Mapping[str, ArgSpan]]
"""A binding the learned one starts from: spans by argument name."""


def _shown(value: Any) -> str:
    return value if isinstance(value, str) else f"{value:g}" if isinstance(value, float) else str(value)


class LearnedBinder:
    """Binds a utility's arguments: learned for the weighed ones, the reference's spans for the rest."""

    def __init__(self, model: BinderModel, reference: ReferenceBinding | None = None) -> None:
        self.model = model
        self.reference = reference

    def rank(self, schema: UtilitySchema, question: str, name: str, found: list[Candidate],
             chosen: ArgSpan | None, given: dict[str, tuple[int, int]] | None = None,
             taken: set[tuple[int, int]] | frozenset[tuple[int, int]] = frozenset(),
             unfit: frozenset[tuple[int, int]] = frozenset()) -> ArgumentChoice:
        """Score ``found`` as argument ``name`` of ``schema``, best first.

        ``given`` are the spans of the arguments the binder does not weigh (a unit, a charset): they
        are read as features. ``taken`` are spans weighed arguments already took: their candidates
        are scored in place, as in training, and then left out of the choice; so are the ``unfit``
        spans, an identifier's candidates of another form.
        """
        scored = [Scored(cand, self.model.score(features)) for cand, features in zip(
            found, candidate_features(schema, question, name, found, chosen, self.model.reference,
                                      given or {}), strict=True)
                  if not any(cand.span.start < e and s < cand.span.end for s, e in taken)
                  and (cand.span.start, cand.span.end) not in unfit]
        scored.sort(key=lambda s: -s.score)
        rival = next((s.score for s in scored[1:] if not same_value(s.candidate.value,
                                                                      scored[0].candidate.value)), None)
        margin = math.inf if rival is None else scored[0].score - rival
        return ArgumentChoice(name, scored, margin)

    def bind(self, schema: UtilitySchema, question: str) -> Binding:
        """Each argument of ``schema`` a span of ``question`` gives, or a refusal naming why none is bound."""
        ref = dict(self.reference(schema, question)) if self.reference is not None else {}
        spans = {name: span for name, span in ref.items()
                 if not weighed(next(a for a in schema.arguments if a.name == name))}
        set_aside = self._formed(schema, question, spans)
        given = {name: (s.start, s.end) for name, s in spans.items()}
        taken: set[tuple[int, int]] = set()
        choices: list[ArgumentChoice] = []
        lang = refusal_lang(question)
        texts = [(arg, spans[arg.name]) for arg in schema.arguments if arg.name in spans
                 and arg.type == "string" and not arg.choices and spans[arg.name].normaliser == "text"]
        for (arg, span), (other, wider) in itertools.permutations(texts, 2):
            if span.start < wider.end and wider.start < span.end and (
                    span.end - span.start <= wider.end - wider.start):  # one span is not two arguments
                return Binding(spans, (), reading_refusal(
                    schema.id, arg.name, question[span.start:span.end],
                    question[wider.start:wider.end], "nested", lang, other=other.name))
        for (arg, span), (reading, shorter) in itertools.product(texts, TEXT_READINGS.items()):
            inner = shorter(arg, question, span)
            if inner is not None:  # the shorter reading or the whole run: the person asking says which
                return Binding(spans, (), reading_refusal(
                    schema.id, arg.name, question[inner[0]:inner[1]], question[span.start:span.end],
                    reading, lang))
        for arg in schema.arguments:
            if not weighed(arg):
                continue
            found = candidates(arg, question, ref.get(arg.name))
            if isinstance(found, TooManyCandidates):
                return Binding(spans, tuple(choices), self._too_many(schema, found, lang))
            spans_out = [*given.values(), *taken] if self.model.features < 2 else given.values()
            found = [c for c in found if not any(c.span.start < e and s < c.span.end for s, e in spans_out)]
            unfit = [c.span for c in found if not named_fit(schema.id, arg, question, c.span)]
            choice = self.rank(schema, question, arg.name, found, ref.get(arg.name), given, taken,
                               frozenset((s.start, s.end) for s in unfit))
            if not choice.ranked:
                if unfit:
                    set_aside[arg.name] = tuple(question[s.start:s.end] for s in unfit)
                continue
            choices.append(choice)
            best = choice.ranked[0]
            if 1.0 / (1.0 + math.exp(-best.score)) < BIND_PROBABILITY:
                continue
            if choice.margin < self.model.margin:
                rival = next(s for s in choice.ranked[1:]
                             if not same_value(s.candidate.value, best.candidate.value))
                return Binding(spans, tuple(choices), ambiguity_refusal(
                    schema.id, arg.name, best.candidate.value, rival.candidate.value, choice.margin,
                    self.model.margin, lang))
            spans[arg.name] = best.candidate.span
            taken.add((best.candidate.span.start, best.candidate.span.end))
        return Binding(spans, tuple(choices), set_aside=set_aside)

    @staticmethod
    def _formed(schema: UtilitySchema, question: str, spans: dict[str, ArgSpan]
                ) -> dict[str, tuple[str, ...]]:
        """Hold each text argument that declares a form (:attr:`Argument.form`) to it, in place.

        The value is the longest span of the question of that form that overlaps the reference's
        span: a table cut after its first row, or a misread line cut at its first comma, is taken
        whole. A form sought within the reference's span (an address, a name to transliterate)
        only cuts it: the sentence after it is left out. A span that overlaps none and lacks the
        form gives way to the question's longest span of it (a table below the request, where the
        reference bound a number above it) where the form moves (:attr:`TextForm.moves`); with
        none, or where it does not, it is left unbound. Returns the spans set aside, by argument.
        """
        aside: dict[str, tuple[str, ...]] = {}
        for arg in schema.arguments:
            span = spans.get(arg.name)
            if arg.form is None or TEXT_FORMS[arg.form].asks:
                continue
            at = (span.start, span.end) if span is not None else None
            fits = at is not None and arg.has_form(question[at[0]:at[1]])
            form = TEXT_FORMS[arg.form]
            if form.within:  # a cut of the bound span, never more than it
                whole = ([] if at is None else
                         [(at[0] + s, at[0] + e) for s, e in form.find(question[at[0]:at[1]])])
            else:
                whole = form.find(question)
            near = [w for w in whole if at is not None and w[0] < at[1] and at[0] < w[1]]
            chosen = near[0] if near else None if fits or not form.moves else whole[0] if whole else None
            if chosen is not None and chosen != at:
                spans[arg.name] = ArgSpan(chosen[0], chosen[1], "text")
            elif chosen is None and at is not None and not fits:
                del spans[arg.name]
            if at is not None and spans.get(arg.name) is not span:
                aside[arg.name] = (question[at[0]:at[1]],)
        return aside

    @staticmethod
    def _too_many(schema: UtilitySchema, found: TooManyCandidates, lang: str) -> Refusal:
        return Refusal(code=TOO_MANY_SPANS, area="learned binder (spans weighed)",
                       numbers={"utility": schema.id, "argument": found.argument, "found": found.found,
                                "limit": found.limit},
                       text=TOO_MANY_TEXT[lang].format(found=found.found, what=found.what,
                                                       argument=found.argument, utility=schema.id,
                                                       limit=found.limit))


def _phrase_within(arg: Argument, question: str, span: ArgSpan) -> tuple[int, int] | None:
    """The first clause of a phrase (a form that asks, :attr:`TextForm.asks`) ``span`` holds more than.

    ``None`` where the span is the phrase whole, is set in quote marks or has no such form.
    «Smith & Sons Cup. The old one was fine» bound for an HTML escape has two readings, the title
    and the whole run, and nothing in the span says which; a span set in quote marks is whole.
    """
    if arg.form is None or not TEXT_FORMS[arg.form].asks or set_in_quotes(question, span):
        return None
    start, end = TEXT_FORMS[arg.form].find(question[span.start:span.end])[0]
    return None if (start, end) == (0, span.end - span.start) else (span.start + start, span.start + end)


def candidate_features(schema: UtilitySchema, question: str, name: str, found: list[Candidate],
                       chosen: ArgSpan | None, use_reference: bool, given: dict[str, tuple[int, int]]
                       ) -> list[list[str]]:
    """The features of each of ``found`` as argument ``name`` (one place for binding and training).

    ``chosen`` is the reference binding's span, read only where ``use_reference``; ``given`` the
    spans of the arguments the binder does not weigh, by name.
    """
    arg = next(a for a in schema.arguments if a.name == name)
    others = [a for a in schema.arguments if a.name != name]
    place = argument_place(arg, schema.arguments)
    at = (chosen.start, chosen.end) if chosen is not None else None
    return [pair_features(question, arg, others, cand, i, len(found),
                          (cand.span.start, cand.span.end) == at if use_reference else None,
                          place=place, given=given)
            for i, cand in enumerate(found)]


def ambiguity_refusal(utility: str, argument: str, first: Any, second: Any, margin: float,
                      threshold: float, lang: str = "en") -> Refusal:
    """The ``AMBIGUOUS_ARGUMENT`` refusal naming both values, in ``lang`` (``en`` or ``ru``).

    The text is the utility refusal table's (:data:`workbench.utilities.MESSAGES`); the margin and
    the threshold it fell under are in ``numbers``.
    """
    template = MESSAGES[UtilityCode.AMBIGUOUS_ARGUMENT]
    text = template.get(lang, template["en"]).format(utility=utility, argument=argument,
                                                     value=_shown(first), second=_shown(second))
    return Refusal(code=AMBIGUOUS_ARGUMENT, area="learned binder (candidates of one argument)",
                   numbers={"utility": utility, "argument": argument, "values": [first, second],
                            "margin": round(margin, 4), "threshold": threshold},
                   text=text)


TEXT_READINGS: Mapping[str, Callable[[Argument, str, ArgSpan], tuple[int, int] | None]] = {
    "quoted": lambda arg, question, span: quoted_within(question, span),
    "phrase": _phrase_within,
    "last_line": lambda arg, question, span: last_line_apart(question, span),
    "lead_in": lambda arg, question, span: lead_in_colon(question, span),
}
"""The shorter reading a text span may hold besides itself, by why it has two, in the order they
are sought: a quoted literal with words beside it, a phrase with words after its first clause, a
block whose last line is set apart from the lines above it, a span ending with the colon that
leads in the rest of the message."""
READINGS = (*TEXT_READINGS, "nested")
"""Why a text has two readings: one of :data:`TEXT_READINGS`, or a span that another argument's
span holds."""
READINGS_TEXT = {
    "en": ("The call to {utility} was not made: its argument “{argument}” can be read two ways in "
           "the question, “{value}” or “{second}”, and nothing in it says which. Say which is meant."),
    "ru": ("Вызов {utility} не выполнен: аргумент «{argument}» читается в вопросе двумя способами, "
           "«{value}» или «{second}», и ничто в вопросе не говорит, какой из них. Уточните, какой "
           "имеется в виду."),
}
"""The text of an ``AMBIGUOUS_ARGUMENT`` refusal of two readings (no scores compared), by language."""


def reading_refusal(utility: str, argument: str, first: str, second: str, reading: str,
                    lang: str = "en", other: str | None = None) -> Refusal:
    """The ``AMBIGUOUS_ARGUMENT`` refusal of a text with two readings (:data:`READINGS`).

    ``numbers`` name the argument, both readings and why there are two; ``other`` is the argument
    whose span holds this one's (a regex's pattern bound to the line its text was cut from).
    """
    numbers: dict[str, Any] = {"utility": utility, "argument": argument, "values": [first, second],
                               "reading": reading}
    if other is not None:
        numbers["held_by"] = other
    text = READINGS_TEXT.get(lang, READINGS_TEXT["en"]).format(
        utility=utility, argument=argument, value=first, second=second)
    return Refusal(code=AMBIGUOUS_ARGUMENT, area="learned binder (readings of one text)",
                   numbers=numbers, text=text)


def load_binder(path: str | Path | None = None, reference: ReferenceBinding | None = None) -> LearnedBinder:
    """The learned binder from its weights (``models/binder/binder.json`` by default)."""
    return LearnedBinder(BinderModel.load(path or project_root() / DEFAULT_PATH), reference)


__all__ = ["AMBIGUOUS_ARGUMENT", "READINGS", "TEXT_READINGS", "ArgumentChoice", "BinderError", "BinderModel",
           "Binding", "LearnedBinder", "ambiguity_refusal", "candidate_features", "load_binder",
           "reading_refusal"]
