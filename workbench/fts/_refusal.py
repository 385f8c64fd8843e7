"""Refusal texts: a gate failure or a detected fallacy as a :class:`workbench.answers.Refusal`.

A refusal names the code, the area that was checked (the morphism library with its size and
digest) and where and why, in English or Russian. It returns the thesis to "not shown"; it never
says the thesis is untrue, and a test holds every message of the table to that rule.
"""

from __future__ import annotations

from typing import Any

from workbench.fts._library import Library
from workbench.fts._messages import render_message
from workbench.fts._problems import Problem
from workbench.refusal import Refusal

TITLES: dict[str, tuple[str, str]] = {
    "E_SYNTAX": ("the text does not parse", "текст не разбирается грамматикой"),
    "E_STATIC": ("names, types and units", "имена, типы и единицы"),
    "E_PREMISE": ("a premise that may not serve", "посылка, которая не может служить основанием"),
    "E_EXAMPLE": ("examples and properties", "примеры и свойства"),
    "E_CERTIFICATE": ("certificate generation", "выпуск сертификата"),
    "E_RECHECK": ("the independent re-check", "независимая перепроверка"),
    "E_LIBRARY": ("library integrity", "целостность библиотеки"),
    "E_UNFORESEEN": ("an unforeseen condition", "непредвиденное условие"),
    "F_CIRCULAR": ("a circle in the foundations", "круг в основаниях"),
    "F_CONVERSE": ("an implication applied in reverse", "импликация применена в обратную сторону"),
    "F_UNCOVERED_BRANCH": ("a case analysis that misses part of the domain",
                           "разбор случаев не покрывает часть области"),
    "F_BOUNDARY": ("a threshold without declared behaviour at the boundary",
                   "порог без объявленного поведения на границе"),
    "F_NAME_CONFLATION": ("one name for a thing and for a statement about it",
                          "одно имя для вещи и для утверждения о ней"),
    "F_OVERLAPPING_CASES": ("cases that overlap with different conclusions",
                            "случаи пересекаются и дают разные выводы"),
    "F_VACUOUS_PROPERTY": ("a property that shows nothing",
                           "свойство, которое ничего не показывает"),
    "F_DANGLING_PREMISE": ("a premise no case rests on",
                           "посылка, на которую не опирается ни один случай"),
}
"""Code -> (English, Russian) short title."""


def area_text(library: Library | None, lang: str, root: str = "") -> str:
    """The checked area: the morphism library, its size and the head of its digest."""
    if library is None:
        return (f"библиотека морфизмов {root} (не прочитана)" if lang == "ru"
                else f"morphism library {root} (not read)")
    n, head = len(library.entries), library.digest[:12]
    if lang == "ru":
        return f"библиотека морфизмов ({n} записей, дайджест {head})"
    return f"morphism library ({n} entries, digest {head})"


def _where(problem: Problem, lang: str) -> str:
    if not problem.line:
        return ""
    if lang == "ru":
        return f" (строка {problem.line}, столбец {problem.column})"
    return f" (line {problem.line}, column {problem.column})"


def _plain(value: Any) -> Any:
    if isinstance(value, str | int | float | bool) or value is None:
        return value
    if isinstance(value, list | tuple):
        return [_plain(v) for v in value]
    if isinstance(value, dict):
        return {str(k): _plain(v) for k, v in value.items()}
    return str(value)


def make_refusal(problem: Problem, spec_id: str, library: Library | None, *, lang: str = "en",
                 total: int = 1, root: str = "") -> Refusal:
    """The refusal for ``problem`` found in specification ``spec_id``."""
    code = str(problem.code)
    en_title, ru_title = TITLES[code]
    detail = render_message(problem.key, problem.params, lang)
    area = area_text(library, lang, root)
    spec = spec_id or ("спецификация" if lang == "ru" else "the specification")
    fallacy = code.startswith("F_")
    if lang == "ru":
        stage = "Структурная проверка нашла" if fallacy else "Проверка остановилась на"
        text = (f"{spec}: не показано. {stage} {code} ({ru_title}); область: {area}. "
                f"{detail}{_where(problem, lang)}. Тезис возвращается в состояние «не показано»; "
                "этот отказ его не опровергает.")
    else:
        stage = "The structural check found" if fallacy else "The gate stopped at"
        text = (f"{spec}: not shown. {stage} {code} ({en_title}); area: {area}. "
                f"{detail}{_where(problem, lang)}. The thesis returns to \"not shown\"; this "
                "refusal does not refute it.")
    numbers = {
        "where": _plain(problem.where()),
        "why": render_message(problem.key, problem.params, "en"),
        "message": problem.key,
        "params": {k: _plain(v) for k, v in problem.params.items()},
        "problems": total,
    }
    return Refusal(code=code, area=area_text(library, "en", root), numbers=numbers, text=text)


__all__ = ["TITLES", "area_text", "make_refusal"]
