"""Refusal texts of the quote source: statements about a closed domain, with numbers.

A refusal says where the system looked and what it measured; it never calls the question's
thesis anything but *not found here*. The wording rule (no false/incorrect, ложн*/неверн*/
неправильн*) is checked by ``workbench.answers.falsehood_words`` in the tests for every code.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from workbench.gates._codes import gate_codes, gate_templates
from workbench.gates._records import GateVerdict
from workbench.refusal import Refusal, speakable
from workbench.registry import UnknownNameError


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


# The templates themselves are registered with each gate (``@gate(..., templates=...)``);
# ``{head}`` is the closed-domain statement with the area.
HEADS = {"en": "This is not present in {area}.", "ru": "Этого нет в источнике: {area}."}


class _Fields(dict[str, Any]):
    """Template fields; one a verdict did not measure reads as a dash rather than failing."""

    def __missing__(self, key: str) -> str:
        return "—"


def _fields(area: str, n: Mapping[str, Any], lang: str) -> _Fields:
    scores = list(n.get("scores") or [0.0, 0.0]) + [0.0, 0.0]
    rules = n.get("fired") or []
    missing = [m for r in rules for m in (n.get("missing", {}).get(r) or [])]
    fields = _Fields({
        "checked": 0, "found": 0, "terms": 0, "coverage": 0.0, "min_coverage": 0.0,
        "best_score": 0.0, "threshold": 0.0, "margin": 0.0, "first": "—", "second": "—",
        "path": "—", "status": "—",
    })
    # every number a gate measured is a field, so a gate's own template can name its own numbers
    fields.update({k: v for k, v in n.items() if v is not None})
    fields.update(area=area, head=HEADS[lang].format(area=area), score1=scores[0],
                  score2=scores[1], missing_terms=_list(n.get("missing_terms"), lang),
                  missing=_list(missing, lang), rules=_list(rules, lang))
    return fields


def refusal_templates() -> dict[str, dict[str, str]]:
    """Code → language → template, for every registered gate that declared templates."""
    return {code: gate_templates(name) for name, code in gate_codes().items()
            if gate_templates(name)}


def refusal_from_verdict(verdict: GateVerdict, area: str, lang: str) -> Refusal:
    """The refusal a firing gate produces, in the question's language.

    The text comes from the templates the gate registered; a gate that registered none (or a
    verdict of a gate no longer registered, read back from a record) says its code.
    """
    code = verdict.code or "UNKNOWN"
    lang = "ru" if lang == "ru" else "en"
    try:
        templates = gate_templates(verdict.gate)
    except UnknownNameError:
        templates = {}
    template = templates.get(lang, "{head} " + code)
    text = template.format_map(_fields(area, verdict.numbers, lang))
    return Refusal(code=code, area=area, numbers=dict(verdict.numbers), text=text)
