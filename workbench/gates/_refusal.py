"""Refusal texts of the quote source: statements about a closed domain, with numbers.

A refusal says where the system looked and what it measured; it never calls the question's
thesis anything but *not found here*. The wording rule (no false/incorrect, ложн*/неверн*/
неправильн*) is checked by ``workbench.answers.falsehood_words`` in the tests for every code.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from workbench.answers._records import Refusal
from workbench.answers._wording import speakable
from workbench.gates._records import GateVerdict


def plural_ru(n: int, one: str, few: str, many: str) -> str:
    """The Russian plural form for ``n`` (1 файл, 2 файла, 5 файлов)."""
    n = abs(n)
    if n % 10 == 1 and n % 100 != 11:
        return one
    if 2 <= n % 10 <= 4 and not 12 <= n % 100 <= 14:
        return few
    return many


def search_area(name: str, files: int, fragments: int, lang: str) -> str:
    """The search area in words."""
    if lang == "ru":
        return (f"материалы курса «{name}»: {files} {plural_ru(files, 'файл', 'файла', 'файлов')}, "
                f"{fragments} {plural_ru(fragments, 'фрагмент', 'фрагмента', 'фрагментов')}")
    return f"the «{name}» course materials: {files} files, {fragments} fragments"


def _list(items: Any, lang: str = "en") -> str:
    kept, hidden = speakable(list(items or []))
    text = ", ".join(str(i) for i in kept) if kept else "—"
    if hidden:
        text += f" (+{hidden} ещё)" if lang == "ru" else f" (+{hidden} more)"
    return text


def _en(code: str, area: str, n: Mapping[str, Any]) -> str:
    head = f"This is not present in {area}."
    if code == "GATE0_NO_LEXICAL_SUPPORT":
        return (f"{head} The {n.get('checked', 0)} best fragments contain "
                f"{n.get('found', 0)} of the {n.get('terms', 0)} content terms of the question "
                f"(coverage {n.get('coverage', 0):.2f}, required {n.get('min_coverage', 0):.2f}); "
                f"not found: {_list(n.get('missing_terms'))}.")
    if code == "BELOW_THRESHOLD":
        return (f"{head} {n.get('checked', 0)} fragments were checked, with a maximum relevance "
                f"of {n.get('best_score', 0):.2f}, while the threshold is "
                f"{n.get('threshold', 0):.2f}.")
    if code == "CANDIDATE_DISAGREEMENT":
        scores = n.get("scores", [0, 0])
        return (f"No single passage of {area} can be quoted: the two best fragments come from "
                f"different files ({n.get('first')}, {n.get('second')}) with relevance "
                f"{scores[0]:.2f} and {scores[1]:.2f}, closer than the margin "
                f"{n.get('margin', 0):.2f}.")
    if code == "IRRELEVANT":
        rules = n.get("fired") or []
        missing = [m for r in rules for m in (n.get("missing", {}).get(r) or [])]
        return (f"{head} The best of the fragments checked ({n.get('path')}) does not mention "
                f"{_list(missing)} from the question (relevance rule: {_list(rules)}).")
    if code == "NOT_VERBATIM":
        return (f"The best passage of {area} could not be confirmed word for word in "
                f"{n.get('path')} as the file is now (check: {n.get('status')}); it is not "
                f"quoted.")
    return f"{head} Code {code}."


def _ru(code: str, area: str, n: Mapping[str, Any]) -> str:
    head = f"Этого нет в источнике: {area}."
    if code == "GATE0_NO_LEXICAL_SUPPORT":
        return (f"{head} В {n.get('checked', 0)} лучших фрагментах найдено {n.get('found', 0)} "
                f"из {n.get('terms', 0)} содержательных слов вопроса (покрытие "
                f"{n.get('coverage', 0):.2f}, требуется {n.get('min_coverage', 0):.2f}); "
                f"не найдены: {_list(n.get('missing_terms'), 'ru')}.")
    if code == "BELOW_THRESHOLD":
        return (f"{head} Проверено фрагментов: {n.get('checked', 0)}, максимальная "
                f"релевантность {n.get('best_score', 0):.2f} при пороге "
                f"{n.get('threshold', 0):.2f}.")
    if code == "CANDIDATE_DISAGREEMENT":
        scores = n.get("scores", [0, 0])
        return (f"Источник ({area}) не даёт одного фрагмента для цитаты: два лучших фрагмента "
                f"из разных файлов ({n.get('first')}, {n.get('second')}) с релевантностью "
                f"{scores[0]:.2f} и {scores[1]:.2f} ближе друг к другу, чем допуск "
                f"{n.get('margin', 0):.2f}.")
    if code == "IRRELEVANT":
        rules = n.get("fired") or []
        missing = [m for r in rules for m in (n.get("missing", {}).get(r) or [])]
        return (f"{head} Лучший из проверенных фрагментов ({n.get('path')}) не упоминает "
                f"{_list(missing, 'ru')} из вопроса (правило релевантности: {_list(rules, 'ru')}).")
    if code == "NOT_VERBATIM":
        return (f"Лучший фрагмент источника ({area}) не удалось подтвердить дословно в файле "
                f"{n.get('path')} в его нынешнем виде (проверка: {n.get('status')}); он не "
                f"цитируется.")
    return f"{head} Код {code}."


def refusal_from_verdict(verdict: GateVerdict, area: str, lang: str) -> Refusal:
    """The refusal a firing gate produces, in the question's language."""
    code = verdict.code or "UNKNOWN"
    text = _ru(code, area, verdict.numbers) if lang == "ru" else _en(code, area, verdict.numbers)
    return Refusal(code=code, area=area, numbers=dict(verdict.numbers), text=text)
