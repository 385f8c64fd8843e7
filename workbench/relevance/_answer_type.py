"""The answer-type rule: a fragment that answers "who", "when" or "how many" holds that kind of thing.

A question's wording says what kind of answer it expects (``question_type``):

* ``who`` — кто (any case: кого, кем, ...) or who/whom/whose: a person or an organisation;
* ``when`` — когда, «в каком году» / «в котором году», or when / what year / which year: a date
  or a year;
* ``how_many`` — сколько, or how many / how much: a number.

The first question word of the question decides (what, which, how, where, why, что, какой, как,
где, почему, ... count too): in "What does the bSync parameter do when set to true?" or «Что
произойдёт, когда ...» the «when» joins two clauses and asks for no date. Russian question words
are reduced to their lemma by pymorphy3 before they are compared, so one lemma stands for every
form of the word. A question of none of these kinds passes.

What the fragment must hold (``answer_kinds``):

* a person or an organisation — a definition of one (:func:`defines_person`: «человек, который…»,
  «лицо, на которое…», «тот, кто…», "a person who …", "a company that …"); in Russian text, a
  ``PER`` or ``ORG`` span of natasha's news NER model; in English text, a capitalised name that
  does not start a sentence (``Crockford``, ``Ecma International``) or an abbreviation of two or
  more capitals;
* a date or a year — a four-digit year from 1000 to 2099 standing alone, a numeric date
  (``01.09.2024``, ``2024-09-01``, ``9/1/2024``), a day or a year with a month's name (the
  month recognised by its lemma in Russian: «сентября» is «сентябрь»), or a century («XIX век»,
  «в 20-м веке», "the 19th century");
* a number — a digit, or a numeral word (pymorphy3's ``NUMR``: «пять», «двух», and the nouns
  that name a number: «тысяча», «дюжина», «половина»; in English the number words from one to
  twelve and the round ones).

Models load once per process (``lru_cache``): natasha's embedding and tagger take about two
seconds, pymorphy3's dictionaries about one.
"""

from __future__ import annotations

import re
from functools import lru_cache
from typing import Any

from workbench.text import detect_lang, lemma, morphology

QUESTION_TYPES: dict[str, str] = {
    "who": "person",
    "when": "date",
    "how_many": "number",
}
"""Question type → the kind of thing its answer holds."""

KIND_NAMES: dict[str, dict[str, str]] = {
    "en": {"person": "a person or an organisation", "date": "a date or a year",
           "number": "a number"},
    "ru": {"person": "человека или организацию", "date": "дату или год", "number": "число"},
}
"""Language → kind → how a text in that language names the kind (as what a question asks for:
the Russian names are in the accusative, «вопрос ждёт в ответе число»)."""

KIND_WORDS: dict[str, str] = KIND_NAMES["en"]
"""How a missing kind is named in a rule's English detail line."""

_RU_WORD = re.compile(r"[А-Яа-яЁё]+")
_WORD = re.compile(r"[A-Za-z]+|[А-Яа-яЁё]+")
_YEAR_WORDS = frozenset(("год", "year"))
_WHICH_WORDS = frozenset(("какой", "который", "what", "which"))
_QUESTION_WORDS = frozenset(
    "who whom whose when what which how where why "
    "кто что когда сколько какой который где почему зачем как куда откуда чей".split())
"""English question words as written (lower-cased), Russian ones by lemma."""

_YEAR = re.compile(r"(?<![\d.,:/-])(1\d{3}|20\d{2})(?![\d.,:/-]\d)")
_NUMERIC_DATE = re.compile(
    r"(?<!\d)(?:\d{1,2}[./]\d{1,2}[./]\d{2,4}|\d{4}-\d{2}-\d{2})(?!\d)")
_EN_MONTH = re.compile(
    r"\b(?:January|February|March|April|May|June|July|August|September|October|November|"
    r"December|Jan|Feb|Mar|Apr|Jun|Jul|Aug|Sep|Sept|Oct|Nov|Dec)\.?\s+\d{1,4}\b|"
    r"\b\d{1,2}\s+(?:January|February|March|April|May|June|July|August|September|October|"
    r"November|December)\b")
_RU_MONTH_LEMMAS = frozenset(
    "январь февраль март апрель май июнь июль август сентябрь октябрь ноябрь декабрь".split())
_CENTURY = re.compile(
    r"\b[IVXL]+\s+(?:век|столети)[а-яё]*|\b\d{1,2}(?:-?[а-я]{1,2})?\s+(?:век|столети)[а-яё]*|"
    r"\b\d{1,2}(?:st|nd|rd|th)\s+century\b|\b(?:first|second|third|fourth|fifth|sixth|seventh|"
    r"eighth|ninth|tenth|eleventh|twelfth|[a-z]+teenth|twentieth|twenty-first)\s+century\b",
    re.IGNORECASE)
"""A century: «XIX век», «в 20-м веке», "the 19th century", "the twentieth century"."""
_RU_NUMBER_LEMMAS = frozenset(
    "тысяча миллион миллиард сотня десяток дюжина половина треть четверть".split())
"""Russian nouns that name a number (pymorphy3 tags them NOUN, not NUMR)."""
_DIGIT = re.compile(r"\d")
_EN_NUMBER_WORD = re.compile(
    r"\b(?:one|two|three|four|five|six|seven|eight|nine|ten|eleven|twelve|dozen|hundred|"
    r"thousand|million|billion|once|twice)\b", re.IGNORECASE)
_EN_NAME = re.compile(r"[A-Z][a-z]+(?:[-'][A-Z]?[a-z]+)?")
_EN_ABBREVIATION = re.compile(r"\b[A-Z]{2,}\b")
# A definition of a person: a noun and a relative clause about it («человек, который…», «лицо,
# на которое…», "a person who …"); a pronoun with «кто» («тот, кто…», «каждый, кто…»).
_RU_RELATIVE = re.compile(
    r"([А-Яа-яЁё]+)\s*,\s*(?:(?:[А-Яа-яЁё]{1,4})\s+)?(котор[А-Яа-яЁё]+|кто|кого|кому|кем|ком)\b")
_RU_PRONOUN_LEMMAS = frozenset("тот каждый любой весь всякий".split())
_RU_ORG_LEMMAS = frozenset(
    "лицо организация компания учреждение предприятие фирма ведомство орган служба агентство "
    "регистратор оператор администратор государство правительство министерство".split())
"""Nouns that name a person or an organisation but that pymorphy3 does not tag animate
(«юридическое лицо», «налоговый орган»)."""
_EN_RELATIVE = re.compile(
    r"\b(?:(?:a|an|the|any|every|each|no|one|some)\s+(?:[a-z-]+\s+){0,2}?[a-z-]+|someone|"
    r"somebody|anyone|anybody|everyone|everybody|nobody|those|people),?\s+(?:who|whom|whose)\b",
    re.IGNORECASE)
_EN_ORG_RELATIVE = re.compile(
    r"\b(?:organi[sz]ations?|compan(?:y|ies)|agenc(?:y|ies)|authorit(?:y|ies)|bod(?:y|ies)|"
    r"institutions?|registr(?:y|ies|ars?)|operators?|governments?|ministr(?:y|ies)|"
    r"departments?|firms?|vendors?|maintainers?),?\s+(?:that|which)\b", re.IGNORECASE)
_SENTENCE_START = re.compile(r"(?:^|[.!?…:;]\s+|\n\s*|[«\"(]\s*)$")
# Capitalised words that are not names wherever they stand.
_EN_NOT_NAMES = frozenset("I The A An This That These Those It".split())


def _question_words(question: str) -> list[str]:
    """The question's words in order: English ones lower-cased, Russian ones by lemma."""
    return [lemma(w.lower()) if detect_lang(w) == "ru" else w.lower()
            for w in _WORD.findall(question)]


def question_type(question: str) -> str | None:
    """``who``, ``when``, ``how_many`` or ``None``, from the first question word (see above)."""
    words = _question_words(question)
    first = next((i for i, w in enumerate(words) if w in _QUESTION_WORDS), None)
    if first is None:
        return None
    word = words[first]
    after = words[first + 1] if first + 1 < len(words) else ""
    before = words[first - 1] if first else ""
    if word == "сколько" or (word == "how" and after in ("many", "much")):
        return "how_many"
    # «в каком году», "in what year", "which year": the year asks for a time, «какой год» may not
    if word in ("когда", "when") or (word in _WHICH_WORDS and after in _YEAR_WORDS
                                      and (before in ("в", "in") or word in ("what", "which"))):
        return "when"
    if word in ("кто", "who", "whom", "whose"):
        return "who"
    return None


@lru_cache(maxsize=1)
def news_embedding() -> Any:
    """Natasha's navec news embedding (250,000 Russian words, 300 dimensions), loaded once.

    The NER tagger reads it here; the span router's navec encoder reads the same table.
    """
    from natasha import NewsEmbedding

    return NewsEmbedding()


@lru_cache(maxsize=1)
def _ner() -> tuple[Any, Any]:
    """Natasha's segmenter and news NER tagger, loaded once."""
    from natasha import NewsNERTagger, Segmenter

    return Segmenter(), NewsNERTagger(news_embedding())


@lru_cache(maxsize=4096)
def ner_spans(text: str) -> tuple[tuple[str, str], ...]:
    """Natasha's named-entity spans of Russian ``text``: ``(type, text)``, type PER/ORG/LOC."""
    from natasha import Doc

    segmenter, tagger = _ner()
    doc = Doc(text)
    doc.segment(segmenter)
    doc.tag_ner(tagger)
    return tuple((span.type, span.text) for span in doc.spans)


def _english_names(text: str) -> list[str]:
    names = [m.group(0) for m in _EN_NAME.finditer(text)
             if m.group(0) not in _EN_NOT_NAMES
             and _SENTENCE_START.search(text[:m.start()]) is None]
    return names + _EN_ABBREVIATION.findall(text)


def _names_person_ru(word: str, relative: str) -> bool:
    """Whether ``word`` before a relative clause (``relative``: «который», «кто») names a person."""
    parses = morphology().parse(word.lower())
    lemmas = {str(p.normal_form).replace("ё", "е") for p in parses}
    if relative.startswith("к") and not relative.startswith("котор"):
        return bool(lemmas & _RU_PRONOUN_LEMMAS) or any(
            "NOUN" in p.tag and "anim" in p.tag for p in parses)
    return bool(lemmas & _RU_ORG_LEMMAS) or any(
        "NOUN" in p.tag and "anim" in p.tag and "inan" not in p.tag for p in parses)


def defines_person(text: str) -> bool:
    """Whether ``text`` defines a person or an organisation by what it does.

    A definition names no one, yet it answers "who": «Налоговый агент — это лицо, на которое
    возложена обязанность…», «человек, который…», «тот, кто подписал…», "a person who …",
    "an organisation that …". In Russian the noun before «который»/«кто» (a preposition may
    stand between: «лицо, на которое») must be animate by pymorphy3's tags or one of the
    nouns that name organisations and legal persons; before «кто» a pronoun also counts
    («тот, кто»). In English a relative "who" after a noun with its determiner ("a person
    who", "the tax agent who") or after "someone", "anyone", "those", "people" names a person
    ("it is unclear who" does not), and an organisation noun before "that"/"which" names an
    organisation.
    """
    if _EN_RELATIVE.search(text) or _EN_ORG_RELATIVE.search(text):
        return True
    return any(_names_person_ru(m.group(1), m.group(2).lower())
               for m in _RU_RELATIVE.finditer(text))


def _has_person(text: str) -> bool:
    if defines_person(text):
        return True
    if detect_lang(text) == "ru":
        return any(kind in ("PER", "ORG") for kind, _ in ner_spans(text))
    return bool(_english_names(text))


def _has_date(text: str) -> bool:
    if (_YEAR.search(text) or _NUMERIC_DATE.search(text) or _EN_MONTH.search(text)
            or _CENTURY.search(text)):
        return True
    words = _RU_WORD.findall(text)
    return any(lemma(w.lower()) in _RU_MONTH_LEMMAS and re.search(
        rf"\d{{1,4}}\s+{re.escape(w)}|{re.escape(w)}\s+\d{{4}}", text) for w in words)


def _has_number(text: str) -> bool:
    if _DIGIT.search(text) or _EN_NUMBER_WORD.search(text):
        return True
    morph = morphology()
    return any("NUMR" in parse.tag or parse.normal_form in _RU_NUMBER_LEMMAS
               for parse in (morph.parse(w.lower())[0] for w in _RU_WORD.findall(text)))


ANSWER_KINDS = {
    "person": _has_person,
    "date": _has_date,
    "number": _has_number,
}
"""Kind → whether a text holds a thing of that kind."""


def missing_answer_kind(question: str, fragment_text: str) -> str | None:
    """The kind of answer ``question`` expects and ``fragment_text`` lacks, or ``None``."""
    kind_of = question_type(question)
    if kind_of is None:
        return None
    kind = QUESTION_TYPES[kind_of]
    return None if ANSWER_KINDS[kind](fragment_text) else kind


__all__ = [
    "ANSWER_KINDS",
    "KIND_NAMES",
    "KIND_WORDS",
    "QUESTION_TYPES",
    "defines_person",
    "missing_answer_kind",
    "ner_spans",
    "question_type",
]
