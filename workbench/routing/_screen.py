"""The input check every route starts with: an empty, over-long or unreadable question.

The answer pipeline runs it before any router, and a router that is used on its own (in a
comparison, say) runs the same check, so one question gets one refusal code whatever reads it.
"""

from __future__ import annotations

import unicodedata
from enum import StrEnum

from workbench.corpus import detect_lang
from workbench.refusal import Refusal
from workbench.relevance import question_literal_spans


class ScreenCode(StrEnum):
    """Why a question was refused before any source was chosen."""

    QUESTION_EMPTY = "QUESTION_EMPTY"
    """The question has no characters but whitespace."""
    QUESTION_TOO_LONG = "QUESTION_TOO_LONG"
    """The question is longer than the limit."""
    QUESTION_SCRIPT = "QUESTION_SCRIPT"
    """The question is written mostly in a script other than Latin or Cyrillic."""


SCRIPT_SHARE = 0.5
"""The least share of a question's letters (outside quoted data) that are Latin or Cyrillic."""


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


def _script_refusal(question: str, letters: int, share: float) -> Refusal:
    return Refusal(
        code=str(ScreenCode.QUESTION_SCRIPT), area="question input, checked before routing",
        numbers={"letters": letters, "latin_or_cyrillic_share": round(share, 3),
                 "least_share": SCRIPT_SHARE},
        text=(f"Only {share:.0%} of the question's {letters} letters are Latin or Cyrillic "
              f"(at least {SCRIPT_SHARE:.0%} are needed): the router, the catalog and the corpus "
              "read Russian and English only, so the question was passed to none of them. "
              "Вопрос написан не кириллицей и не латиницей, поэтому не передан дальше."))


def screen_question(question: str, limit: int, lang: str | None = None) -> Refusal | None:
    """The input check before routing: an empty, over-long or unreadable question is refused.

    ``limit`` is the longest question read (``[answers].max_question_chars`` in the pipeline).

    Search time grows with the question's length, so a question of hundreds of kilobytes would
    hold the pipeline a long time only to be refused by a gate. A question in a script that
    neither the router nor the course reads (Chinese, say) is refused in both languages, since
    its own language is not one a refusal is written in.
    """
    chars = len(question)
    empty = not question.strip()
    if not empty and chars <= limit:
        letters, share = script_share(question)
        if letters and share < SCRIPT_SHARE:
            return _script_refusal(question, letters, share)
        return None
    lang = lang or detect_lang(question[:limit])
    area = "question input, checked before routing"
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


__all__ = ["SCRIPT_SHARE", "ScreenCode", "screen_question", "script_share"]
