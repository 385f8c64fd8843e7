"""The input check every route starts with: an empty, over-long or unreadable question.

The answer pipeline runs it before any router, and a router that is used on its own (in a
comparison, say) runs the same check, so one question gets one refusal code whatever reads it.
"""

from __future__ import annotations

import unicodedata
from enum import StrEnum

from workbench.corpus import detect_lang
from workbench.corpus._questions import MAX_QUESTION_CHARS
from workbench.refusal import Refusal
from workbench.relevance import blank_literals, question_literal_spans
from workbench.routing._binder_candidates import MAX_CANDIDATES
from workbench.routing._records import RouterDecision, Source
from workbench.text import ru_plural


class ScreenCode(StrEnum):
    """Why a question was refused before any source was chosen."""

    QUESTION_EMPTY = "QUESTION_EMPTY"
    """The question has no characters but whitespace."""
    QUESTION_TOO_LONG = "QUESTION_TOO_LONG"
    """The question is longer than the limit."""
    QUESTION_SCRIPT = "QUESTION_SCRIPT"
    """The question is written mostly in a script other than Latin or Cyrillic."""
    QUESTION_TOO_MANY_VALUES = "QUESTION_TOO_MANY_VALUES"
    """The question offers more values (words holding a digit) outside quotes than an argument
    is ever chosen among."""


SCRIPT_SHARE = 0.5
"""The least share of a question's letters (outside quoted data) that are Latin or Cyrillic."""
MAX_VALUES = MAX_CANDIDATES
"""The most values (words holding a digit) a question may offer outside quoted data: no argument
is chosen among more (:data:`workbench.routing._binder_candidates.MAX_CANDIDATES`), and a message
of fifty figures would leave a router to guess which one is meant. The bundled question sets offer
at most 13."""
_AREA = "question input, checked before routing"


def script_share(question: str) -> tuple[int, float]:
    """Letters outside quoted literals, and the share of them that are Latin or Cyrillic."""
    inside = question_literal_spans(question)
    letters = read = 0
    for at, char in enumerate(question):
        if not char.isalpha() or any(s <= at < e for s, e in inside):
            continue
        letters += 1
        name = unicodedata.name(char, "")
        read += name.startswith(("LATIN", "CYRILLIC"))
    return letters, (read / letters if letters else 1.0)


def unquoted_values(question: str) -> int:
    """How many whitespace-separated words holding a digit lie outside the question's quotes and backticks.

    A colon's tail counts: «НДС 20% с суммы: 17621 8840 …» offers every figure after the colon as
    the amount, where «CRC32 для "1 2 3 …"» offers one text.
    """
    # a split, not a pattern: «\S*\d\S*» tries every start of a long word without a digit (30 ms
    # for 2,000 letters, quadratic in the word's length)
    return sum(1 for word in blank_literals(question, colon_tail=False).split()
               if any(char.isdecimal() for char in word))


def _values_refusal(question: str, values: int, lang: str | None) -> Refusal:
    if (lang or detect_lang(question)) == "ru":
        text = (f"В вопросе {values} {ru_plural(values, ('значение', 'значения', 'значений'))} с "
                f"цифрами вне кавычек, больше предела в {MAX_VALUES}: "
                "маршрутизатор не выбирает аргумент из стольких, поэтому вопрос не передан дальше. "
                "Данные в кавычках читаются как одно значение.")
    else:
        text = (f"The question offers {values} values holding digits outside quotes, more than the "
                f"limit of {MAX_VALUES}: no argument is chosen among so many, so the question was "
                "passed to neither the router nor the search. Data in quotes is read as one value.")
    return Refusal(code=str(ScreenCode.QUESTION_TOO_MANY_VALUES), area=_AREA,
                   numbers={"values": values, "limit": MAX_VALUES}, text=text)


def _script_refusal(question: str, letters: int, share: float) -> Refusal:
    return Refusal(
        code=str(ScreenCode.QUESTION_SCRIPT), area=_AREA,
        numbers={"letters": letters, "latin_or_cyrillic_share": round(share, 3),
                 "least_share": SCRIPT_SHARE},
        text=(f"Only {share:.0%} of the question's {letters} letters are Latin or Cyrillic "
              f"(at least {SCRIPT_SHARE:.0%} are needed): the router, the catalog and the corpus "
              "read Russian and English only, so the question was passed to none of them. "
              "Вопрос написан не кириллицей и не латиницей, поэтому не передан дальше."))


def screen_question(question: str, limit: int, lang: str | None = None) -> Refusal | None:
    """The input check before routing: an empty, over-long, unreadable or crowded question is refused.

    ``limit`` is the longest question read (``[answers].max_question_chars`` in the pipeline).

    Search time grows with the question's length, so a question of hundreds of kilobytes would
    hold the pipeline a long time only to be refused by a gate. A question in a script that
    neither the router nor the course reads (Chinese, say) is refused in both languages, since
    its own language is not one a refusal is written in. A question offering more than
    :data:`MAX_VALUES` values outside quotes is refused before any model reads it.
    """
    chars = len(question)
    empty = not question.strip()
    if not empty and chars <= limit:
        letters, share = script_share(question)
        if letters and share < SCRIPT_SHARE:
            return _script_refusal(question, letters, share)
        values = unquoted_values(question)
        if values > MAX_VALUES:
            return _values_refusal(question, values, lang)
        return None
    lang = lang or detect_lang(question[:limit])
    area = _AREA
    if empty:
        text = ("Вопрос пуст: в нём нет ничего, кроме пробелов, поэтому искать нечего."
                if lang == "ru" else
                "The question is empty (whitespace only), so there is nothing to look for.")
        return Refusal(code=str(ScreenCode.QUESTION_EMPTY), area=area,
                       numbers={"chars": chars}, text=text)
    if lang == "ru":
        text = (f"В вопросе {chars} символов, больше предела в {limit} "
                "([answers].max_question_chars), поэтому он не передан ни маршрутизатору, "
                "ни поиску.")
    else:
        text = (f"The question has {chars} characters, more than the limit of {limit} "
                "([answers].max_question_chars), so it was passed to neither the router nor "
                "the search.")
    return Refusal(code=str(ScreenCode.QUESTION_TOO_LONG), area=area,
                   numbers={"chars": chars, "limit": limit}, text=text)


def screened(question: str, limit: int | None = None) -> RouterDecision | None:
    """A router's own input check: :func:`screen_question` as a refusal decision, or ``None``.

    Every router runs it first, so a router used on its own (in a comparison, say) refuses what
    the pipeline would, under one code, before any rule or model reads the question.
    """
    refusal = screen_question(question, MAX_QUESTION_CHARS if limit is None else limit)
    if refusal is None:
        return None
    return RouterDecision(source=Source.REFUSE, refusal=refusal, raw_output=refusal.code)


__all__ = ["MAX_VALUES", "SCRIPT_SHARE", "ScreenCode", "screen_question", "screened", "script_share",
           "unquoted_values"]
