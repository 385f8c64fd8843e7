"""What a question asks besides a call: data kept elsewhere, a fact of the world, a premise, an order.

And which way it asks: to decode rather than encode (:data:`DECODING_VERB`), a conversion into
which format (:func:`conversion_targets`). The rule router and the span router both ask these
before any utility is chosen or bound.
"""

from __future__ import annotations

import functools
import re
from collections.abc import Mapping
from typing import Any

from workbench.config import project_root
from workbench.corpus import detect_lang
from workbench.fts import PREMISE_STATUSES, Library, load_library
from workbench.relevance import (
    blank_literals,
    circumstance_spans,
    question_literals,
)
from workbench.routing._normalise import (
    NormaliseError,
    date_spans,
    normalise,
    normalise_date,
    number_spans,
    percent_spans,
    synonym_file,
)
from workbench.routing._spec_inputs import (
    asks_reason,
)
from workbench.routing._tables import rule_patterns, span_refusal_texts, triggers
from workbench.text import lemma, morphology
from workbench.utilities import DIGIT_COUNTS, Argument, UtilitySchema, call_utility

P = rule_patterns()
"""The named patterns of ``data/patterns.yaml``."""
SYNONYMS: dict[str, tuple[str, ...]] = triggers()
"""The words that name each utility, by utility id (``triggers`` of ``synonyms.yaml``)."""


OWNER_WORDS = P.owner_words
"""Possessives: a request about *my* card or *the supplier's* IBAN points at data someone has."""
ELSEWHERE_WORDS = P.elsewhere_words
"""Words that place the data somewhere the question is not ("the JSON in the ticket above")."""


DECODING_PAIRS: tuple[tuple[str, str], ...] = (
    ("encoding.base64_encode", "encoding.base64_decode"),
    ("encoding.base32_encode", "encoding.base32_decode"),
    ("encoding.hex_encode", "encoding.hex_decode"),
    ("encoding.url_encode", "encoding.url_decode"),
    ("encoding.punycode_encode", "encoding.punycode_decode"),
)
"""An encoder and its decoder: where a decoding verb stands anywhere in the question ("Decode the
Base64 blob …", or asks what a string holds: «Что там закодировано?»), the decoder scores above
whatever the encoder's words scored."""


DECODING_VERB = P.decoding_verb
"""A verb of decoding, or a question of what a string holds («Что там закодировано?»)."""


def conversion_targets(question: str) -> set[str]:
    """The formats ``question`` asks a conversion into (:data:`P.target`): {"hsl"} for "… to HSL"."""
    return {m[1] for m in P.target.finditer(question.lower())}


def conversion_direction(uid: str, targets: set[str]) -> int:
    """Which way ``targets`` (:func:`conversion_targets`) read the conversion ``uid`` (``x_to_y``).

    1 where they name its target y and not its source x, -1 where they name x and not y (the
    question asks the other way round), 0 otherwise and for a utility that converts nothing.
    """
    source, to, target = uid.partition(".")[2].partition("_to_")
    if to and target in targets and source not in targets:
        return 1
    if to and source in targets and target not in targets:
        return -1
    return 0



def points_at_data_elsewhere(question: str) -> bool:
    """Whether ``question`` points at data it does not hold.

    The data is the asker's own (:data:`OWNER_WORDS`) or placed elsewhere (:data:`ELSEWHERE_WORDS`).
    """
    return bool(OWNER_WORDS.search(question) or ELSEWHERE_WORDS.search(question))


def _points_at_own_data(question: str, missing: list[Argument]) -> bool:
    """Whether a request that lacks ``missing`` points at data of the asker's own it does not give.

    A possessive («мой», "our") is in the question and a required *data* argument is missing:
    "Is the INN on our invoice valid?" names an INN it does not write, where "How many digits
    does an INN have?" asks about INNs in general.
    """
    return any(a.role.value == "data" for a in missing) and points_at_data_elsewhere(question)


def names_charset_of_data(question: str, schema: UtilitySchema) -> bool:
    """Whether ``question`` names the charset of a text while ``schema`` is no charset utility.

    «Какой SHA-256 у файла, выгруженного в кодировке windows-1251?»: a noun names the text
    (:data:`P.saved_data`), and without the text the charset it was saved in describes the data a
    hash or an encoder needs and gives none of it (a hash reads the charset only to encode a text
    it is given). The charset family works on the charset itself: "How many bytes does a letter
    take in UTF-16?" names what it measures.
    """
    return schema.category != "charset" and P.saved_data.search(question) is not None and names_charset(
        question)


def names_charset(question: str) -> bool:
    """Whether ``question`` names a charset (a circumstance of the kind ``charset``)."""
    return any(kind == "charset" for _, _, kind in circumstance_spans(question))


def asks_about_topic(question: str, missing: list[Argument]) -> bool:
    """Whether a question that lacks ``missing`` asks about its topic rather than for a call.

    It names a subject of the course («ИНН», "Unicode"), quotes no literal, ends as a question,
    and points neither at data of the asker's own nor at anything in front of them
    (:data:`P.deixis`): "How many digits does an INN have?" is a question for the corpus, where
    "Check this INN" and "Is our INN valid?" are requests missing their data. Both routers
    send the first to the quote source and refuse the others with ``MISSING_ARGUMENT``.
    """
    return (P.course.search(question.lower()) is not None and not question_literals(question)
            and any(c in question for c in "?？") and not _points_at_own_data(question, missing)
            and P.deixis.search(question) is None)


def _figure(question: str, span: tuple[int, int]) -> float | None:
    try:
        return float(normalise("number", question[span[0]:span[1]]))
    except NormaliseError:
        return None


def vat_rates_held(library: Library) -> frozenset[float]:
    """The VAT rates, in percent, that the premise entries of ``library`` state.

    An entry that yields a percentage and may be a premise (verified or derived) states its
    rates in its statement («22 %»); a rejected or proposed entry holds none.
    """
    held: set[float | None] = set()
    for entry in library.entries.values():
        if entry.status in PREMISE_STATUSES and "percent" in entry.signature.yields.values():
            statement = entry.statement.get("en", "")
            held.update(_figure(statement, span) for span in percent_spans(statement))
    return frozenset(rate for rate in held if rate is not None)


@functools.cache
def held_vat_rates() -> frozenset[float]:
    """:func:`vat_rates_held` of the project's morphism library."""
    return vat_rates_held(load_library(project_root() / "corpus" / "morphisms"))


def asks_reason_itself(question: str) -> bool:
    """Whether ``question`` asks why (:func:`asks_reason`) outside its quoted literals.

    'Apply ROT13 to "Why did the chicken cross the road?"' asks for a call, not a reason, and
    so does "no idea why it's encoded: … can you decode it?" (:data:`P.unasked_why`).
    """
    return asks_reason(P.unasked_why.sub(" ", blank_literals(question)))


def not_asked(question: str, start: int) -> bool:
    """Whether the words at ``start`` come right after :data:`P.not_asked` (a request set aside)."""
    return P.not_asked.search(question[max(0, start - 40):start]) is not None


def asks_world_fact(question: str) -> str | None:
    """The words, outside the quoted literals, that ask for a fact, a judgement or an action, or None.

    A judgement (:data:`P.judgement`) is asked outside the course's words.

    "Who owns the IP address 93.184.216.34?", «Кому принадлежит домен yandex.ru?», "Which country
    is 185.199.108.153 hosted in?", "Which bank issued the card …?", "Can you reverse this MD5?",
    "Deploy build 4.12.3 to staging", «Какой ИНН у Сбербанка?» (:data:`P.named_lookup`): the owner,
    issuer or place of an address, a domain or a
    number is a fact of the world that no utility computes from the question and the course does
    not hold, a hash is not taken back to its text, and no utility acts in the world; both
    routers refuse these as out of scope before any class is chosen.
    """
    text = blank_literals(question, colon_tail=False)
    found = (P.world_fact.search(text) or P.action.search(text)
             or (None if re.search(r"\d", question) else P.named_lookup.search(text))
             or (None if P.course.search(text.lower()) else P.judgement.search(text)))
    if found and not_asked(text, found.start()):
        return None
    return found[0].strip(" \t.,!?:;-") if found else None


def unheld_premise(question: str) -> dict[str, Any] | None:
    """The figure a why-question takes as given where no source holds it, and the figures held.

    "Why does a СНИЛС have 13 digits?" asks the reason for a length that the catalog's validator
    never accepts (:data:`~workbench.utilities.DIGIT_COUNTS`: 11); "Why is the reduced VAT rate
    5 percent?" for a rate that no premise entry of the morphism library states
    (:func:`held_vat_rates`). No source gives a reason for a figure it does not hold, and a
    quote about СНИЛС would answer another question, so both routers refuse it. A why-question
    whose figure is held («Почему в ОГРН 13 цифр?») or that states none is left to the routers.
    So is a question that opens by taking a figure as given ("Given that VAT is 25% in Russia, …",
    «Раз НДС в России 25%, …», :data:`P.premise_clause`): what follows rests on it.
    """
    if not asks_reason_itself(question) and not P.premise_clause.match(question):
        return None
    low = question.lower()
    named = sorted((m.start(), uid) for uid in DIGIT_COUNTS for name in SYNONYMS[uid]
                   for m in re.finditer(rf"(?<!\w){re.escape(name)}(?!\w)", low))
    for start, end in number_spans(question) if named else ():
        stated = _figure(question, (start, end)) if P.digit_noun.match(question, end) else None
        if stated is None:
            continue
        before = [uid for at, uid in named if at < start]
        uid = before[-1] if before else named[0][1]
        if stated not in DIGIT_COUNTS[uid]:
            return {"premise": f"digits that {uid} reads", "stated": stated, "held": list(DIGIT_COUNTS[uid])}
    rates = [r for r in (_figure(question, span) for span in percent_spans(question))
             if r is not None]
    if rates and P.vat.search(question) and not set(rates) & held_vat_rates():
        return {"premise": "VAT rate, percent", "stated": rates[0],
                "held": sorted(held_vat_rates())}
    return _uncomputed_premise(question)


_WEEKDAY_STEMS = ("mon", "tue", "wed", "thu", "fri", "sat", "sun", "пон", "вто", "сре", "чет", "пят",
                  "суб", "вос")


def _uncomputed_premise(question: str) -> dict[str, Any] | None:
    """A premise about the calendar that the date utilities compute otherwise, or None.

    "Since 2025 is a leap year, …" or "Given that 2025-03-10 is a Sunday, …": the premise is
    checked by calling ``date.is_leap_year`` or ``date.weekday``, and where the utility gives
    another answer, what follows rests on nothing a source holds.
    """
    for m in P.leap_premise.finditer(question):
        year = int(m[1] or m[2])
        outcome = call_utility("date.is_leap_year", {"year": year})
        if outcome.ok and outcome.result is False:
            return {"premise": "a leap year", "stated": year, "held": ["not a leap year"],
                    "utility": "date.is_leap_year"}
    for start, end in date_spans(question):
        said = P.weekday_premise.match(question, end)
        if said is None:
            continue
        try:
            day = normalise_date(question[start:end])
        except NormaliseError:
            continue
        outcome = call_utility("date.weekday", {"date": day})
        stated = _WEEKDAY_STEMS.index(said[1][:3].lower()) % 7
        if outcome.ok and str(outcome.result)[:3].lower() != _WEEKDAY_STEMS[stated]:
            return {"premise": f"the weekday of {day}", "stated": said[1], "held": [outcome.result],
                    "utility": "date.weekday"}
    return None


def refusal_lang(question: str) -> str:
    """The language a refusal of ``question`` is written in: Russian for a Russian question, else English."""
    return "ru" if detect_lang(question) == "ru" else "en"


def refusal_text(texts: Mapping[str, Mapping[str, str]], key: str, question: str, **fields: Any) -> str:
    """The text of ``key`` in ``texts`` (``*`` where it has none), filled from ``fields``.

    In the language of ``question``: how each router words a refusal from its table.
    """
    return texts.get(key, texts["*"])[refusal_lang(question)].format(**fields)


def premise_text(premise: dict[str, Any], question: str) -> str:
    """The refusal's words for :func:`unheld_premise`'s finding, in the language of ``question``."""
    if "utility" in premise:
        computed = ", ".join(str(h) for h in premise["held"])
        return refusal_text(span_refusal_texts(), "premise_utility", question,
                            **{**premise, "computed": computed})
    held = ", ".join(f"{h:g}" for h in premise["held"])
    return refusal_text(span_refusal_texts(), "premise_figure", question,
                        **{**premise, "stated": f"{premise['stated']:g}", "held": held})


@functools.cache
def _order_words() -> tuple[frozenset[str], frozenset[str]]:
    """The Russian verbs of telling and the English verbs of an order (``synonyms.yaml``)."""
    table = synonym_file()
    return (frozenset(table.get("order_telling_ru") or ()),
            frozenset(w.lower() for w in table.get("order_verbs_en") or ()))


def orders_computation(question: str) -> bool:
    """Whether ``question`` opens with an order to compute, convert or check something.

    A Russian question opens with an imperative (pymorphy3's most probable parse) that is no verb
    of telling («Раскодируй ссылку…», not «Объясни, почему…»), or with a word the dictionary lacks
    that ends as an imperative does («Распарси»); an English one with a verb of
    ``order_verbs_en`` ("Decrypt this ciphertext", not "Explain why"); a polite word before it is
    passed over. One that asks for a reason (:func:`asks_reason`) is no order. A quote says what
    the course says and carries out no order of the kind.
    """
    match = P.opening_word.match(question)
    if match is None or asks_reason(question):
        return False
    word = match[1].lower()
    telling, verbs = _order_words()
    if re.search(r"[а-яё]", word):
        if "impr" in morphology().parse(word)[0].tag:
            return lemma(word) not in telling
        # a verb of the trade the dictionary lacks («Распарси этот JSON», «Пропарси лог») has the
        # ending of an imperative
        return not morphology().word_is_known(word) and bool(re.search(r"(?:[иь]|[аеоуя]й)(?:те)?$", word))
    return word in verbs
