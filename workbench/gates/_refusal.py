"""Refusal texts of the quote source: statements about a closed domain, with numbers.

A refusal says where the system looked and what it measured; it never calls the question's
thesis anything but *not found here*. The wording rule (no false/incorrect, ложн*/неверн*/
неправильн*) is checked by ``workbench.answers.falsehood_words`` in the tests for every code.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from workbench.gates._records import GateVerdict
from workbench.refusal import Refusal, speakable


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


def _list(items: Any, lang: str) -> str:
    kept, hidden = speakable(list(items or []))
    text = ", ".join(str(i) for i in kept) if kept else "—"
    if hidden:
        text += f" (+{hidden} ещё)" if lang == "ru" else f" (+{hidden} more)"
    return text


# One template per code and language; ``{head}`` is the closed-domain statement with the area.
TEMPLATES: dict[str, dict[str, str]] = {
    "GATE0_NO_LEXICAL_SUPPORT": {
        "en": "{head} The {checked} best fragments contain {found} of the {terms} content terms "
              "of the question (coverage {coverage:.2f}, required {min_coverage:.2f}); not found: "
              "{missing_terms}.",
        "ru": "{head} В {checked} лучших фрагментах найдено {found} из {terms} содержательных слов "
              "вопроса (покрытие {coverage:.2f}, требуется {min_coverage:.2f}); не найдены: "
              "{missing_terms}.",
    },
    "BELOW_THRESHOLD": {
        "en": "{head} {checked} fragments were checked, with a maximum relevance of "
              "{best_score:.2f}, while the threshold is {threshold:.2f}.",
        "ru": "{head} Проверено фрагментов: {checked}, максимальная релевантность "
              "{best_score:.2f} при пороге {threshold:.2f}.",
    },
    "CANDIDATE_DISAGREEMENT": {
        "en": "No single passage of {area} can be quoted: the two best fragments come from "
              "different files ({first}, {second}) with relevance {score1:.2f} and {score2:.2f}, "
              "closer than the margin {margin:.3f}.",
        "ru": "Источник ({area}) не даёт одного фрагмента для цитаты: два лучших фрагмента из "
              "разных файлов ({first}, {second}) с релевантностью {score1:.2f} и {score2:.2f} "
              "ближе друг к другу, чем допуск {margin:.3f}.",
    },
    "IRRELEVANT": {
        "en": "{head} The best of the fragments checked ({path}) does not mention {missing} from "
              "the question (relevance rule: {rules}).",
        "ru": "{head} Лучший из проверенных фрагментов ({path}) не упоминает {missing} из вопроса "
              "(правило релевантности: {rules}).",
    },
    "NOT_VERBATIM": {
        "en": "The best passage of {area} could not be confirmed word for word in {path} as the "
              "file is now (check: {status}); it is not quoted.",
        "ru": "Лучший фрагмент источника ({area}) не удалось подтвердить дословно в файле {path} "
              "в его нынешнем виде (проверка: {status}); он не цитируется.",
    },
}
HEADS = {"en": "This is not present in {area}.", "ru": "Этого нет в источнике: {area}."}


def _fields(area: str, n: Mapping[str, Any], lang: str) -> dict[str, Any]:
    scores = list(n.get("scores") or [0.0, 0.0]) + [0.0, 0.0]
    rules = n.get("fired") or []
    missing = [m for r in rules for m in (n.get("missing", {}).get(r) or [])]
    fields: dict[str, Any] = {
        "checked": 0, "found": 0, "terms": 0, "coverage": 0.0, "min_coverage": 0.0,
        "best_score": 0.0, "threshold": 0.0, "margin": 0.0, "first": "—", "second": "—",
        "path": "—", "status": "—",
    }
    fields.update({k: v for k, v in n.items() if k in fields and v is not None})
    fields.update(area=area, head=HEADS[lang].format(area=area), score1=scores[0],
                  score2=scores[1], missing_terms=_list(n.get("missing_terms"), lang),
                  missing=_list(missing, lang), rules=_list(rules, lang))
    return fields


def refusal_from_verdict(verdict: GateVerdict, area: str, lang: str) -> Refusal:
    """The refusal a firing gate produces, in the question's language."""
    code = verdict.code or "UNKNOWN"
    lang = "ru" if lang == "ru" else "en"
    template = TEMPLATES.get(code, {}).get(lang, "{head} " + code)
    text = template.format(**_fields(area, verdict.numbers, lang))
    return Refusal(code=code, area=area, numbers=dict(verdict.numbers), text=text)
