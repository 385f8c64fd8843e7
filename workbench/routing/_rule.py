"""The rule router: a deterministic keyword/pattern baseline, the floor every model must beat.

It is deliberately simple. A utility is chosen by keyword tables (triggers derived from each
utility id plus hand-written Russian and English synonyms). Every argument is bound to a span of
the question and passes through a declared normaliser (:mod:`._normalise`): quoted/backticked
literals and the text after a colon, numbers in digits or words, dates, IP addresses, and enum
words (charsets, time zones, units, the ``choices`` of a schema); the decision keeps each span in
``arg_spans``, so no value can come out that is not the normalisation of the user's words. A
question that carries the data of two utilities of different categories is refused
(``SEVERAL_REQUESTS``). VAT-rule questions go to the specification that :func:`choose_spec` reads
from the spec's cue words and the inputs the question settles; a chosen spec with an input left
open is refused with ``MISSING_ARGUMENT`` naming the input; other course-subject questions go to
``quote``; a chosen utility whose required argument has no value
is refused with ``MISSING_ARGUMENT``, anything else with ``OUT_OF_SCOPE``.

It is a frozen baseline: its knowledge is data (the ``triggers`` of ``synonyms.yaml``,
``data/patterns.yaml``, ``data/not_a_value.yaml``, its refusal texts in ``data/rule_refusals.yaml``,
loaded and checked by :mod:`._tables`), a
snapshot test holds every decision it makes on the bundled question sets and another its size
in lines of code, which may only come down. Its own code is
:mod:`._rule_offer` (the spans a question offers), :mod:`._rule_bind` (binding them to arguments)
and this module, which chooses; it reads the checks the span router asks too, :mod:`._values`
(where a value stands, and where a number is none) and :mod:`._asks` (what a question asks
besides a call, and which way a decoding or a conversion goes).
"""

from __future__ import annotations

import re
from typing import Any

from workbench.refusal import Refusal
from workbench.registry import router
from workbench.relevance import blank_literals, question_literals
from workbench.routing._asks import (
    DECODING_PAIRS,
    DECODING_VERB,
    SYNONYMS,
    _points_at_own_data,
    asks_about_topic,
    asks_reason_itself,
    asks_world_fact,
    conversion_direction,
    conversion_targets,
    names_charset_of_data,
    not_asked,
    orders_computation,
    premise_text,
    refusal_text,
    unheld_premise,
)
from workbench.routing._normalise import ArgSpan
from workbench.routing._records import RouterDecision, Source
from workbench.routing._rule_bind import bind_arguments
from workbench.routing._screen import screened
from workbench.routing._spec_inputs import SpecEvidence, choose_spec, open_spec_inputs, spec_cues
from workbench.routing._tables import refusal_texts, rule_patterns
from workbench.routing._values import _overlaps, describes_data, holds_shape
from workbench.utilities import UtilitySchema, load_catalog

__all__ = ["SEVERAL_REQUESTS", "RuleRouter", "rule_router"]
"""What other modules use: the router and its refusal code. The checks it shares with the span
router live in :mod:`._asks` and :mod:`._values`, its words in :mod:`._tables`."""

P = rule_patterns()
"""The named patterns of ``data/patterns.yaml``, as attributes (``P.domain``)."""


TARGET_SCORE = 4
"""What naming a conversion's target adds to a utility ``x_to_y`` that scores already and whose
source the question names too, and what naming its source as the target takes away (at least 1
stays)."""


SHAPE_SCORE = 8


REFUSAL_TEXTS = refusal_texts()
"""The rule router's refusal texts (``data/rule_refusals.yaml``): ``CODE:number`` (chosen when the
refusal carries that number) or ``CODE``, then language."""


class RuleRouter:
    """Keyword tables choose; every argument is a span of the question through a normaliser."""

    def __init__(self) -> None:
        self.schemas: dict[str, UtilitySchema] = dict(load_catalog().schemas)
        self.triggers: dict[str, tuple[str, ...]] = {}
        for uid in self.schemas:
            own = uid.split(".", 1)[1]
            auto = (own.lower(),) if "_" not in own else ()
            self.triggers[uid] = tuple(dict.fromkeys(auto + SYNONYMS.get(uid, ())))  # each word once
        # the one-word names of every utility («sha256», "uuid5"): a token that is one names no data
        self._names = frozenset(w for words in self.triggers.values() for w in words if " " not in w)
        # a trigger that begins with a letter begins a word; «% от» follows a digit; a utility's own
        # name is a whole word ("age" is no part of "agency")
        self._patterns = {uid: tuple((w, re.compile(
            (r"(?<![\w])" if w[:1].isalnum() else "") + re.escape(w)
            + (r"(?!\w)" if w == uid.split(".", 1)[1].lower() else ""))) for w in words)
            for uid, words in self.triggers.items()}
        self._last: tuple[str | None, dict[str, int], dict[str, dict[str, ArgSpan]]] = (None, {}, {})

    def _read(self, question: str) -> tuple[str | None, dict[str, int], dict[str, dict[str, ArgSpan]]]:
        """The last question's keyword scores and bindings, read once however often they are asked.

        A decision asks for the scores up to three times and a span router asks again, each for
        the same question; both are functions of the question alone, so the last one's are kept.
        """
        last = self._last
        if last[0] != question:
            last = self._last = (question, self._keyword_scores(question), {})
        return last

    def keyword_scores(self, question: str) -> dict[str, int]:
        """Each utility's keyword score, for the utilities that score at all (:meth:`_keyword_scores`)."""
        return dict(self._read(question)[1])

    def _keyword_scores(self, question: str) -> dict[str, int]:
        """Each utility's keyword score, for the utilities that score at all.

        The letters of its triggers found in the question, plus :data:`SHAPE_SCORE` when the
        question holds data of its shape (:data:`DATA_SHAPES`).
        """
        low = question.lower()
        scores = {}
        for uid, patterns in self._patterns.items():
            # the substring test is the cheap filter; the pattern then checks where the word begins
            score = sum(len(w) for w, pattern in patterns if w in low and any(
                not not_asked(low, m.start()) for m in pattern.finditer(low)))
            if holds_shape(uid, question):
                score += SHAPE_SCORE
            if score:
                scores[uid] = score
        if DECODING_VERB.search(low):
            for encoder, decoder in DECODING_PAIRS:
                if encoder in scores:
                    scores[decoder] = max(scores.get(decoder, 0), scores.pop(encoder) + 1)
        targets = conversion_targets(low)
        if targets:
            for uid in scores:
                direction = conversion_direction(uid, targets)
                if direction > 0 and uid.partition(".")[2].partition("_to_")[0] in low:
                    scores[uid] += TARGET_SCORE
                elif direction < 0:
                    scores[uid] = max(1, scores[uid] - TARGET_SCORE)
        return scores

    def _pick_utility(self, question: str) -> str | None:
        """The utility of the highest keyword score (the first of equals), or None where none scores."""
        scores = self._read(question)[1]
        return max(scores, key=scores.__getitem__, default=None)

    def bind(self, uid: str, question: str) -> dict[str, ArgSpan]:
        """Each argument that a span of the question gives a value for, with that span."""
        bound = self._read(question)[2]
        if uid not in bound:
            bound[uid] = bind_arguments(self.schemas[uid], question, self.triggers[uid],
                                        self._patterns[uid], self._names)
        return dict(bound[uid])

    def utility_decision(self, uid: str, question: str, spans: dict[str, ArgSpan]) -> RouterDecision:
        """The utility decision, or ``SEVERAL_REQUESTS`` when another utility's data is there too."""
        other = self._second_request(uid, question, spans)
        if other is not None:
            return self._refuse(SEVERAL_REQUESTS, question, utilities=[uid, other])
        args = {name: span.value(question) for name, span in spans.items()}
        return RouterDecision(source=Source.UTILITY, category=uid.split(".")[0], utility=uid,
                              args=args, raw_output=uid, arg_spans=spans)

    def _second_request(self, uid: str, question: str, spans: dict[str, ArgSpan]) -> str | None:
        """Another utility of another category that the question also gives all its data for.

        Its trigger words and its bound spans must lie apart from the first utility's, so two
        requests in one question are told from one request that mentions two topics.
        """
        first_spans = [(s.start, s.end) for s in spans.values()]
        category = uid.split(".")[0]
        for other, _ in sorted(self.keyword_scores(question).items(), key=lambda kv: -kv[1]):
            if other.split(".")[0] == category:
                continue
            if set(self.triggers[other]) & set(self.triggers[uid]):
                continue
            bound = self.bind(other, question)
            required = [a.name for a in self.schemas[other].arguments if a.required]
            data = [a.name for a in self.schemas[other].arguments if a.role.value == "data"]
            if not data or any(name not in bound for name in required):
                continue
            theirs = [(bound[n].start, bound[n].end) for n in data if n in bound]
            if theirs and not any(_overlaps(span, first_spans) for span in theirs):
                return other
        return None

    def _spec_decision(self, chosen: SpecEvidence, question: str) -> RouterDecision:
        """The chosen spec with its settled inputs, or a refusal for an input left open.

        ``MISSING_ARGUMENT`` names the first open input that the conclusion depends on.
        """
        missing = open_spec_inputs(chosen.spec, chosen.settled)
        if missing:
            return self._refuse("MISSING_ARGUMENT", question, spec=chosen.spec, missing=missing[0])
        return RouterDecision(source=Source.SPEC, category="vat", spec=chosen.spec,
                              args=dict(chosen.settled), raw_output=chosen.spec)

    def _refuse(self, code: str, question: str, text: str | None = None, **numbers: Any
                ) -> RouterDecision:
        utilities, specs = len(self.schemas), len(spec_cues()) - 1
        if text is None:
            # the text names what is missing (the argument and its utility or spec) or what was
            # checked, from the numbers that go with it, in the question's language
            key = next((f"{code}:{n}" for n in numbers if f"{code}:{n}" in REFUSAL_TEXTS), code)
            text = refusal_text(REFUSAL_TEXTS, key, question,
                                **{"code": code, "utilities": utilities, "specs": specs, **numbers})
        refusal = Refusal(code=code, area=f"rule router ({utilities} utilities, "
                          f"{specs} spec vocabularies)", numbers=numbers, text=text)
        return RouterDecision(source=Source.REFUSE, refusal=refusal, raw_output=code)

    def route(self, question: str) -> RouterDecision:
        """Decide where ``question`` goes by keywords and patterns."""
        screen = screened(question)
        if screen is not None:
            return screen
        low = question.lower()
        # a quoted text is data, and a zone's name («Europe/Stockholm») no word of its own
        out = P.out.search(P.iana_zone_re.sub(" ", blank_literals(question, colon_tail=False)).lower())
        if out:
            return self._refuse("OUT_OF_SCOPE", question, out_of_scope_word=out[0].strip())
        fact = asks_world_fact(question)
        if fact is not None:
            return self._refuse("OUT_OF_SCOPE", question, out_of_scope_word=fact.lower())
        premise = unheld_premise(question)
        if premise is not None:
            return self._refuse("OUT_OF_SCOPE", question, premise_text(premise, question), **premise)
        chosen = choose_spec(question)
        uid = self._pick_utility(question)
        spans = self.bind(uid, question) if uid is not None else {}
        missing = ([a for a in self.schemas[uid].arguments if a.required and a.name not in spans]
                   if uid is not None else [])
        # a spec that would leave an input open gives way to a utility the question gives everything
        if chosen is not None and not (uid is not None and not missing
                                       and open_spec_inputs(chosen.spec, chosen.settled)):
            return self._spec_decision(chosen, question)
        if uid is not None and asks_reason_itself(question):
            # a utility computes and gives no reason; the words that named it name a topic of the
            # course, which may give one ("Why does an INN have 12 digits?")
            return RouterDecision(source=Source.QUOTE, raw_output="quote")
        if uid is not None:
            if not missing:
                return self.utility_decision(uid, question, spans)
            # a charset the text was saved in, or the data described by its parts («символов 80»),
            # is a circumstance of the data and gives none of it
            if missing[0].role.value == "data" and (names_charset_of_data(question, self.schemas[uid])
                                                    or describes_data(question)):
                return self._refuse("ARGUMENT_IS_CIRCUMSTANCE", question, utility=uid,
                                    argument=missing[0].name)
            # a request that points at data it does not give lacks that data, whatever literal
            # it quotes ("The SNILS from the new hire's form: does it check out?")
            if not P.course.search(low) or _points_at_own_data(question, missing) or (
                    not question_literals(question) and not asks_about_topic(question, missing)):
                return self._refuse("MISSING_ARGUMENT", question, utility=uid,
                                    missing=missing[0].name)
        if P.course.search(low) and not orders_computation(question):
            return RouterDecision(source=Source.QUOTE, raw_output="quote")  # an order is no question
        if uid is not None:
            first = next(a.name for a in self.schemas[uid].arguments if a.required)
            return self._refuse("MISSING_ARGUMENT", question, utility=uid, missing=first)
        return self._refuse("OUT_OF_SCOPE", question, keywords_matched=0)

    def route_within(self, question: str, source: Source) -> RouterDecision:
        """The best decision for ``question`` that uses ``source``, or a refusal naming why none.

        What ``ask --source`` calls: the choice of source is the user's; the utility or spec id
        and every argument are still the router's, bound from spans of the question.
        """
        if source is Source.QUOTE:
            return RouterDecision(source=Source.QUOTE, raw_output="quote")
        if source is Source.SPEC:
            chosen = choose_spec(question)
            if chosen is None:
                return self._refuse("NO_SPEC_FOUND", question, specs=len(spec_cues()) - 1)
            return self._spec_decision(chosen, question)
        uid = self._pick_utility(question)
        if uid is None:
            return self._refuse("NO_UTILITY_FOUND", question, utilities=len(self.schemas))
        spans = self.bind(uid, question)
        missing = [a.name for a in self.schemas[uid].arguments if a.required and a.name not in spans]
        if missing:
            return self._refuse("MISSING_ARGUMENT", question, utility=uid, missing=missing[0])
        return self.utility_decision(uid, question, spans)


SEVERAL_REQUESTS = "SEVERAL_REQUESTS"
"""The rule router's refusal of a question that carries the data of two utilities."""


@router("rule")
def rule_router() -> RuleRouter:
    """Build the :class:`RuleRouter` (it has no parameters)."""
    return RuleRouter()
