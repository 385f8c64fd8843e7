"""Refusal texts of the quote source: what was searched, what was found, why it was not enough.

A refusal of the quote source states only what was checked. The threshold, disagreement and
relevance gates found fragments that were not good enough, so their texts give the best score
against the threshold, the two close scores and their gap, or the relevance rule's finding; they
never say that the thing asked about is absent from the corpus. Gate 0 alone may speak of
absence, and then of the question's words in the fragments it read, never of the fact.

Every text is in one language, the question's: the names of answer kinds, rule findings,
languages and check outcomes come from the tables below, one entry per language. The corpus is
named by its own name (``[paths] corpus_name``, else its folder's name), never called a course.

The wording is data: :data:`WORDING` holds each gate's templates, one row per case, with the
verdict numbers that draw each case; the gates register their rows (``@gate(...,
**gate_wording(name))``) and a test renders every example of every row. The wording rule (no
false/incorrect, ложн*/неверн*/неправильн*) is checked by ``workbench.refusal.falsehood_words``.
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from typing import Any, NamedTuple

from workbench import registry
from workbench.gates._codes import gate_codes, gate_templates
from workbench.gates._records import GateVerdict
from workbench.refusal import Refusal, speakable
from workbench.registry import UnknownNameError
from workbench.relevance._answer_type import KIND_NAMES
from workbench.text import ru_plural


def search_area(name: str, files: int, fragments: int, lang: str) -> str:
    """The search area in words: the corpus by its own name, with its files and fragments."""
    if lang == "ru":
        return (f"корпус «{name}» ({files} {ru_plural(files, ('файл', 'файла', 'файлов'))}, "
                f"{fragments} {ru_plural(fragments, ('фрагмент', 'фрагмента', 'фрагментов'))})")
    return (f"the corpus “{name}” ({files} file{'' if files == 1 else 's'}, "
            f"{fragments} fragment{'' if fragments == 1 else 's'})")


HEADS = {"en": "Searched {area}.", "ru": "Просмотрен {area}."}
"""The opening of a refusal (``{head}``): what was searched, and nothing about what is in it."""

ABSENCE_PATTERN = re.compile(
    r"(нет\s+в\s+(?:источник|корпус|материал|курс)\w*|эт(?:ого|ой|их)\s+нет|отсутству\w*|"
    r"нет\s+(?:сведений|информации|данных|ответа)|не\s+(?:содерж|освещ|описыва)\w*\s+"
    r"(?:этого|этот|эту|ответ)\w*|not\s+present|is\s+not\s+(?:in|covered)|absent|"
    r"no\s+information|(?:does|do)\s+not\s+(?:cover|contain\s+(?:this|that|it|the\s+answer))|"
    r"nothing\s+(?:in|about))",
    re.IGNORECASE | re.UNICODE)
"""A refusal that says the thing asked about is absent from the corpus (not merely unconfirmed)."""


def absence_claims(text: str) -> list[str]:
    """The phrases of ``text`` that claim the thing asked about is absent (empty: none)."""
    return [m.group(0) for m in ABSENCE_PATTERN.finditer(text)]


class Wording(NamedTuple):
    """One case of a gate's refusal text: its templates, and the verdicts that draw it."""

    gate: str
    """The registered gate whose refusal this is."""
    case: str
    """``""`` for the gate's default text, else the ``reason`` its verdict numbers carry."""
    en: str
    """The English template (``{head}`` opens it; the other fields are the verdict's numbers)."""
    ru: str
    """The Russian template."""
    examples: tuple[Mapping[str, Any], ...]
    """Verdict numbers that draw this case: the test data of the wording test."""
    words_absent: bool = False
    """The text says that words of the question are absent from the fragments read (gate 0
    alone, when no content word was found)."""


_GATE0 = {"checked": 3, "terms": 3, "found": 1, "coverage": 0.3333, "min_coverage": 0.5,
          "missing_terms": ["экспорт", "ставк"], "best_score": 0.84, "threshold": 0.8672}
_TOP = {"checked": 10, "best_score": 0.8151, "threshold": 0.8672, "path": "ru/vat.md"}

WORDING: tuple[Wording, ...] = (
    Wording(
        "gate0", "",
        "{head} The best fragments ({checked} checked) hold {found} of the {terms} content "
        "words of the question (share {coverage:.2f}, at least {min_coverage:.2f} needed); "
        "not among them: {missing_terms}.",
        "{head} Содержательных слов в вопросе: {terms}; в лучших фрагментах (проверено: "
        "{checked}) найдено из них: {found} (доля {coverage:.2f}, нужно не меньше "
        "{min_coverage:.2f}); не встретились: {missing_terms}.",
        ({**_GATE0, "reason": "coverage"}, {**_GATE0, "missing_terms": ["неправильн", "умнож"]})),
    Wording(
        "gate0", "no_words",
        "{head} None of the best fragments ({checked} checked) contains the content words of "
        "the question: {missing_terms}.",
        "{head} Ни один из лучших фрагментов (проверено: {checked}) не содержит "
        "содержательных слов вопроса: {missing_terms}.",
        ({**_GATE0, "found": 0, "coverage": 0.0, "reason": "no_words",
          "missing_terms": ["ceil", "paint", "sistin", "chapel"]},),
        words_absent=True),
    Wording(
        "gate0", "other_script",
        "{head} The best fragments ({checked} checked) are written in another script than "
        "the question, so its words can be matched there only in part; a quote then needs a "
        "score of at least {threshold:.4f}, and the best fragment scored {best_score:.4f}.",
        "{head} Лучшие фрагменты (проверено: {checked}) написаны другим алфавитом, чем "
        "вопрос, и сверить с ними его слова можно лишь отчасти; тогда цитате нужна оценка "
        "не ниже {threshold:.4f}, а лучший фрагмент набрал {best_score:.4f}.",
        ({**_GATE0, "terms": 0, "found": 0, "reason": "other_script"},)),
    Wording(
        "gate0", "no_terms",
        "{head} The question has no content words (question words aside) to match against "
        "the best fragments ({checked} checked).",
        "{head} В вопросе нет содержательных слов (кроме вопросительных), по которым можно "
        "сверить лучшие фрагменты (проверено: {checked}).",
        ({**_GATE0, "terms": 0, "found": 0, "reason": "no_terms"},)),
    Wording(
        "gate0", "no_candidates",
        "{head} The search returned no fragment to check.",
        "{head} Поиск не вернул ни одного фрагмента для проверки.",
        ({"checked": 0, "terms": 2, "found": 0, "reason": "no_candidates"},)),
    Wording(
        "threshold", "",
        "{head} The best fragment found ({path}, of {checked} checked) scored "
        "{best_score:.4f} against a threshold of {threshold:.4f}: too low to quote.",
        "{head} Лучший из найденных фрагментов ({path}, проверено: {checked}) набрал "
        "{best_score:.4f} при пороге {threshold:.4f}: для цитаты этого мало.",
        (_TOP, {**_TOP, "checked": 1})),
    Wording(
        "threshold", "no_candidates",
        "{head} The search returned no fragment to score against the threshold of "
        "{threshold:.4f}.",
        "{head} Поиск не вернул ни одного фрагмента, который можно было бы сравнить с "
        "порогом {threshold:.4f}.",
        ({"checked": 0, "best_score": 0.0, "threshold": 0.8672, "reason": "no_candidates"},)),
    Wording(
        "disagreement", "",
        "{head} The two best fragments come from different files ({first} and {second}) "
        "with scores {score1:.4f} and {score2:.4f}: their gap of {gap:.4f} is under the "
        "margin of {margin:.4f}, so the score cannot tell which one to quote.",
        "{head} Два лучших фрагмента взяты из разных файлов ({first} и {second}) и набрали "
        "{score1:.4f} и {score2:.4f}: разница {gap:.4f} меньше допуска {margin:.4f}, и по "
        "оценке нельзя выбрать, какой из них цитировать.",
        ({"checked": 10, "first": "ru/a.md", "second": "ru/b.md", "scores": [0.9012, 0.9081],
          "gap": 0.0069, "margin": 0.01},)),
    Wording(
        "relevance", "",
        "{head} The best fragment found ({path}) did not pass the relevance check: "
        "{findings}.",
        "{head} Лучший из найденных фрагментов ({path}) не прошёл проверку релевантности: "
        "{findings}.",
        ({"checked": 1, "path": "ru/vat.md", "fired": ["entities"],
          "missing": {"entities": ["SHA-384", "Казахстане"]}},
         {"checked": 1, "path": "en/json.md", "fired": ["answer-type", "lang-match"],
          "missing": {"answer-type": ["person"], "lang-match": ["ru"]}},
         {"checked": 1, "path": "ru/vat.md", "fired": ["term-coverage", "answer-type"],
          "missing": {"term-coverage": ["экспорт"], "answer-type": ["a number"]}},
         {"checked": 1, "path": "ru/vat.md", "fired": ["short-fragment"], "missing": {}})),
    Wording(
        "relevance", "no_candidates",
        "{head} The search returned no fragment to judge for relevance.",
        "{head} Поиск не вернул ни одного фрагмента, релевантность которого можно было бы "
        "проверить.",
        ({"checked": 0, "fired": [], "missing": {}, "reason": "no_candidates"},)),
    Wording(
        "confidence", "",
        "{head} The best fragment found ({path}) was weighed by the confidence model: the "
        "estimated chance that it answers the question is {confidence:.2f}, below the "
        "calibrated {threshold:.2f}, so it is not quoted.",
        "{head} Лучший из найденных фрагментов ({path}) оценён моделью уверенности: оценка "
        "вероятности того, что он отвечает на вопрос, {confidence:.2f} — ниже "
        "откалиброванного порога {threshold:.2f}, поэтому он не цитируется.",
        ({"checked": 1, "path": "ru/vat.md", "confidence": 0.41, "threshold": 0.62},
         {"checked": 1, "path": "en/json.md", "confidence": 0.0, "threshold": 0.8561})),
    Wording(
        "confidence", "no_candidates",
        "{head} The search returned no fragment to weigh; the estimated chance of an answer "
        "is {confidence:.2f}, below the calibrated {threshold:.2f}.",
        "{head} Поиск не вернул ни одного фрагмента для оценки; оценка вероятности ответа "
        "{confidence:.2f} — ниже откалиброванного порога {threshold:.2f}.",
        ({"checked": 0, "confidence": 0.05, "threshold": 0.62, "reason": "no_candidates"},)),
    Wording(
        "verbatim", "",
        "{head} The best fragment could not be confirmed word for word in {path} as the file "
        "is now: {status_text}. It is not quoted.",
        "{head} Лучший фрагмент не удалось подтвердить дословно в файле {path} в его "
        "нынешнем виде: {status_text}. Он не цитируется.",
        tuple({"checked": 1, "path": "ru/vat.md", "status": status} for status in (
            "not_in_fragment", "drifted", "changed", "missing_file", "unreadable",
            "outside_corpus"))),
    Wording(
        "verbatim", "no_candidates",
        "{head} The search returned no fragment to take a quote from.",
        "{head} Поиск не вернул ни одного фрагмента, из которого можно было бы взять цитату.",
        ({"checked": 0, "status": "no_quote", "reason": "no_candidates"},)),
)
"""Every case of every built-in gate's refusal text, with the verdict numbers that draw it."""


def gate_wording(gate: str) -> dict[str, Any]:
    """The registration metadata of ``gate``'s wording, from :data:`WORDING`.

    ``templates`` maps a language to the default text, ``cases`` a verdict's ``reason`` to its
    texts by language.
    """
    rows = [row for row in WORDING if row.gate == gate]
    default = next(row for row in rows if not row.case)
    return {"templates": {"en": default.en, "ru": default.ru},
            "cases": {row.case: {"en": row.en, "ru": row.ru} for row in rows if row.case}}


RULE_FINDINGS: dict[str, dict[str, str]] = {
    "entities": {"en": "its text does not contain the names of the question: {items}",
                 "ru": "в его тексте не встречаются названия из вопроса: {items}"},
    "lang-match": {"en": "it is not written in the question's language ({language})",
                   "ru": "он написан не на языке вопроса ({language})"},
    "answer-type": {"en": "the question asks for {kind}, and the rule found none in its text",
                    "ru": "вопрос ждёт в ответе {kind}, а правило не нашло такого в его тексте"},
    "term-coverage": {"en": "too few of the question's words occur in its text; not among "
                            "them: {items}",
                      "ru": "в его тексте мало слов вопроса; не встретились: {items}"},
}
"""Relevance rule → language → its finding, in words (``{items}``: what the rule missed)."""

OTHER_RULE = {"en": "a relevance rule registered outside the package fired ({rule})",
              "ru": "сработало правило релевантности, добавленное вне пакета (№ {number} в "
                    "списке сработавших)"}
"""The finding of a rule :data:`RULE_FINDINGS` does not name (its name is in the numbers)."""

LANGUAGES: dict[str, dict[str, str]] = {
    "en": {"en": "English", "ru": "Russian"},
    "ru": {"en": "английский", "ru": "русский"},
}
"""Language → language code → the language's name in it."""

QUOTE_CHECKS: dict[str, dict[str, str]] = {
    "not_in_fragment": {"en": "the quote does not match the fragment as indexed",
                        "ru": "цитата не совпала с текстом фрагмента в индексе"},
    "drifted": {"en": "the fragment's text now stands at other offsets of the file",
                "ru": "текст фрагмента стоит теперь в другом месте файла"},
    "changed": {"en": "the file has changed and no longer holds the fragment's text",
                "ru": "файл изменился, и текста фрагмента в нём больше нет"},
    "missing_file": {"en": "the file is no longer at that path",
                     "ru": "по этому пути файла больше нет"},
    "unreadable": {"en": "the file no longer reads as UTF-8 text",
                   "ru": "файл больше не читается как текст в UTF-8"},
    "outside_corpus": {"en": "the anchor's path leads outside the corpus folder",
                       "ru": "путь якоря ведёт за пределы папки корпуса"},
    "no_quote": {"en": "no quote was proposed", "ru": "цитата не была предложена"},
}
"""``verify_quote`` outcome → language → what it found, in words."""


def _list(items: Any, lang: str) -> str:
    kept, hidden = speakable(list(items or []))
    text = ", ".join(str(i) for i in kept) if kept else "—"
    if hidden:
        text += f" (+{hidden} ещё)" if lang == "ru" else f" (+{hidden} more)"
    return text


def _kind_name(item: str, lang: str) -> str:
    """An answer kind in ``lang``: from its key, or from its English name (older records)."""
    english = KIND_NAMES["en"]
    key = item if item in english else next((k for k, v in english.items() if v == item), None)
    return KIND_NAMES[lang][key] if key is not None else item


def rule_findings(fired: Any, missing: Mapping[str, Any], lang: str) -> str:
    """What each fired relevance rule found, in ``lang``, joined with semicolons."""
    parts = []
    for number, rule in enumerate(fired or [], start=1):
        items = list(missing.get(rule) or [])
        template = RULE_FINDINGS.get(rule, OTHER_RULE)[lang]
        parts.append(template.format(
            items=_list(items, lang), rule=rule, number=number,
            language=LANGUAGES[lang].get(str(items[0]) if items else "", "—"),
            kind=_kind_name(str(items[0]), lang) if items else "—"))
    return "; ".join(parts) if parts else "—"


class _Fields(dict[str, Any]):
    """Template fields; one a verdict did not measure reads as a dash rather than failing."""

    def __missing__(self, key: str) -> str:
        return "—"


def _fields(area: str, n: Mapping[str, Any], lang: str) -> _Fields:
    scores = list(n.get("scores") or [0.0, 0.0]) + [0.0, 0.0]
    missing = n.get("missing") or {}
    status = str(n.get("status") or "")
    gap = n.get("gap")
    fields = _Fields({
        "checked": 0, "found": 0, "terms": 0, "coverage": 0.0, "min_coverage": 0.0,
        "best_score": 0.0, "threshold": 0.0, "margin": 0.0,
        "first": "—", "second": "—", "path": "—", "status": "—",
    })
    # every number a gate measured is a field, so a gate's own template can name its own numbers
    fields.update({k: v for k, v in n.items() if v is not None})
    # the gap is unsigned: a record written when the gate signed it shows its size
    fields.update(area=area, head=HEADS[lang].format(area=area), score1=scores[0],
                  gap=abs(float(gap) if gap is not None else scores[0] - scores[1]),
                  score2=scores[1], missing_terms=_list(n.get("missing_terms"), lang),
                  missing=_list([m for r in n.get("fired") or [] for m in missing.get(r) or []],
                                lang),
                  findings=rule_findings(n.get("fired"), missing, lang),
                  status_text=QUOTE_CHECKS.get(status, {}).get(lang, status or "—"))
    return fields


def refusal_templates() -> dict[str, dict[str, str]]:
    """Code → language → default template, for every registered gate that declared templates."""
    return {code: gate_templates(name) for name, code in gate_codes().items()
            if gate_templates(name)}


def _template(verdict: GateVerdict, lang: str, code: str) -> str:
    """The template of the verdict's case (its ``reason``), else the gate's default one."""
    registry.load("gate")
    try:
        entry = registry.lookup("gate", verdict.gate)
    except UnknownNameError:
        return "{head} " + code
    cases = entry.metadata.get("cases") or {}
    case = cases.get(str(verdict.numbers.get("reason"))) or {}
    templates = entry.metadata.get("templates") or {}
    return str(case.get(lang) or templates.get(lang) or "{head} " + code)


def refusal_from_verdict(verdict: GateVerdict, area: str, lang: str) -> Refusal:
    """The refusal a firing gate produces, in the question's language.

    The text comes from the templates the gate registered (the case its verdict's ``reason``
    names, else the default one); a gate that registered none (or a verdict of a gate no longer
    registered, read back from a record) says its code.
    """
    code = verdict.code or "UNKNOWN"
    lang = "ru" if lang == "ru" else "en"
    text = _template(verdict, lang, code).format_map(_fields(area, verdict.numbers, lang))
    return Refusal(code=code, area=area, numbers=dict(verdict.numbers), text=text)
