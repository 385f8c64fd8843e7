"""The five gates of the quote source, each a registered pure function.

A gate is ``(question, candidates, settings) -> GateVerdict``; its thresholds come from
``settings.gates``. Every gate is evaluated for every question (see ``_runner``), so each one
must give a meaningful verdict even when another would have refused first.

Each registration carries the gate's facts: its refusal ``code`` and its refusal ``templates``
(one per language; ``{head}`` is the closed-domain statement with the search area, the other
fields are the verdict's numbers). The gate codes, the default order and the refusal texts are
read from these registrations, so the order of the functions below is the default firing order.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from typing import Any

from workbench.config import Settings
from workbench.corpus._fragment import sentence_spans
from workbench.corpus._quote import verify_quote
from workbench.corpus._records import Fragment
from workbench.gates._codes import QuoteGateCode, gate_verdict
from workbench.gates._records import CandidateSet, GateVerdict, Quote
from workbench.registry import build, gate
from workbench.relevance._rules import quote_rules
from workbench.retrieval._lexical import analyze, content_terms

GateFn = Callable[[str, CandidateSet, Settings], GateVerdict]

# Words that shape a question but carry no subject; gate 0 does not look for them.
_QUESTION_WORDS = frozenset(analyze(
    "как какой какая какое какие каков какова сколько почему зачем где когда что чем чего кто "
    "ли можно нужно нельзя надо ли бывает значит называется означает делает происходит "
    "what which how many much why when where who whose does do did can could should would "
    "mean means called happens"))
GATE0_POOL = 3
"""Gate 0 looks for the question's terms in this many best candidates."""


def question_terms(question: str) -> list[str]:
    """The content terms gate 0 looks for: analyzer terms minus question words."""
    return [t for t in content_terms(question) if t not in _QUESTION_WORDS]


@gate("gate0", code=QuoteGateCode.GATE0_NO_LEXICAL_SUPPORT, templates={
    "en": "{head} The {checked} best fragments contain {found} of the {terms} content terms "
          "of the question (coverage {coverage:.2f}, required {min_coverage:.2f}); not found: "
          "{missing_terms}.",
    "ru": "{head} В {checked} лучших фрагментах найдено {found} из {terms} содержательных слов "
          "вопроса (покрытие {coverage:.2f}, требуется {min_coverage:.2f}); не найдены: "
          "{missing_terms}.",
})
def gate0() -> GateFn:
    """No lexical support: too few content terms of the question occur in the best candidates."""

    def check(question: str, candidates: CandidateSet, settings: Settings) -> GateVerdict:
        terms = question_terms(question)
        pool = candidates.fragments[:GATE0_POOL]
        present: set[str] = set()
        for fragment in pool:
            present.update(analyze(fragment.text))
        missing = [t for t in terms if t not in present]
        coverage = 1.0 - len(missing) / len(terms) if terms else 0.0
        minimum = settings.gates.min_lexical_coverage
        fires = not pool or not terms or coverage < minimum
        return gate_verdict("gate0", fires, {
            "checked": len(pool), "terms": len(terms), "found": len(terms) - len(missing),
            "coverage": round(coverage, 4), "min_coverage": minimum, "missing_terms": missing,
        }, f"{len(terms) - len(missing)}/{len(terms)} content terms in the best {len(pool)}")

    return check


@gate("threshold", code=QuoteGateCode.BELOW_THRESHOLD, templates={
    "en": "{head} {checked} fragments were checked, with a maximum relevance of "
          "{best_score:.2f}, while the threshold is {threshold:.2f}.",
    "ru": "{head} Проверено фрагментов: {checked}, максимальная релевантность "
          "{best_score:.2f} при пороге {threshold:.2f}.",
})
def threshold() -> GateFn:
    """The best candidate's score must reach the threshold."""

    def check(question: str, candidates: CandidateSet, settings: Settings) -> GateVerdict:
        best = candidates.hits[0].score if candidates.hits else 0.0
        limit = settings.gates.threshold_for(candidates.mode)
        return gate_verdict("threshold", best < limit, {
            "checked": len(candidates.hits), "best_score": round(best, 4), "threshold": limit,
            "mode": candidates.mode,
        }, f"best {best:.3f} vs threshold {limit:.3f} ({candidates.mode})")

    return check


@gate("disagreement", code=QuoteGateCode.CANDIDATE_DISAGREEMENT, templates={
    "en": "No single passage of {area} can be quoted: the two best fragments come from "
          "different files ({first}, {second}) with relevance {score1:.2f} and {score2:.2f}, "
          "closer than the margin {margin:.3f}.",
    "ru": "Источник ({area}) не даёт одного фрагмента для цитаты: два лучших фрагмента из "
          "разных файлов ({first}, {second}) с релевантностью {score1:.2f} и {score2:.2f} "
          "ближе друг к другу, чем допуск {margin:.3f}.",
})
def disagreement() -> GateFn:
    """The two best candidates come from different files with nearly equal scores.

    When two files compete within ``disagreement_margin`` the ranking cannot tell which one the
    question is about; quoting either would be a coin toss. Two fragments whose text is the same
    (white space aside) do not disagree: documentation repeats a paragraph on many pages, both
    get the same score, and either quote says the same thing.
    """

    def check(question: str, candidates: CandidateSet, settings: Settings) -> GateVerdict:
        margin = settings.gates.disagreement_margin
        if len(candidates.hits) < 2:
            return gate_verdict("disagreement", False, {"checked": len(candidates.hits),
                                                        "margin": margin},
                                "fewer than two candidates")
        first, second = candidates.fragments[0], candidates.fragments[1]
        gap = candidates.hits[0].score - candidates.hits[1].score
        same_text = first.text.split() == second.text.split()
        fires = first.anchor.path != second.anchor.path and gap < margin and not same_text
        return gate_verdict("disagreement", fires, {
            "checked": len(candidates.hits), "same_text": same_text, "first": first.anchor.path,
            "second": second.anchor.path, "gap": round(gap, 4), "margin": margin,
            "scores": [round(candidates.hits[0].score, 4), round(candidates.hits[1].score, 4)],
        }, f"{first.anchor.path} vs {second.anchor.path}, gap {gap:.3f}")

    return check


def quote_rule_stages(settings: Settings) -> dict[str, Callable[..., Any]]:
    """Every registered quote rule built with its ``[gates] rule_params``, in registration order.

    The relevance gate evaluates all of them (so any subset can be ablated from the cache) and
    lets the enabled ones decide; :func:`workbench.registry.registry_info` of each says how it
    was built, which is what a run record lists.
    """
    params = settings.gates.rule_params
    return {name: build("relevance_rule", name, **dict(params.get(name) or {}))
            for name in quote_rules()}


@gate("relevance", code=QuoteGateCode.IRRELEVANT, templates={
    "en": "{head} The best of the fragments checked ({path}) does not mention {missing} from "
          "the question (relevance rule: {rules}).",
    "ru": "{head} Лучший из проверенных фрагментов ({path}) не упоминает {missing} из вопроса "
          "(правило релевантности: {rules}).",
})
def relevance() -> GateFn:
    """The best candidate passes every enabled relevance rule.

    A fragment is read together with its document's title, which scopes every paragraph under it
    (a paragraph of "Russian VAT: rates" need not repeat "Russia"). Every registered quote rule
    is evaluated and recorded (``numbers["rules"]``) so that any subset can be ablated later from
    the cached verdicts; only the enabled ones decide.
    """

    def check(question: str, candidates: CandidateSet, settings: Settings) -> GateVerdict:
        enabled = settings.gates.relevance_rules
        if not candidates.fragments:
            return gate_verdict("relevance", True, {"checked": 0, "rules": {}, "missing": {},
                                                    "enabled": list(enabled), "fired": []},
                                "no candidate to judge")
        title = candidates.titles[0] if candidates.titles else ""
        text = f"{title}\n\n{candidates.fragments[0].text}" if title else candidates.fragments[0].text
        fired: dict[str, bool] = {}
        missing: dict[str, list[str]] = {}
        for name, rule in quote_rule_stages(settings).items():
            verdict = rule(question, text, candidates.lang)
            fired[name] = verdict.fired
            missing[name] = list(verdict.missing)
        deciding = [n for n in enabled if fired.get(n)]
        return gate_verdict("relevance", bool(deciding), {
            "checked": 1, "rules": fired, "missing": missing, "enabled": list(enabled),
            "fired": deciding, "path": candidates.fragments[0].anchor.path,
        }, "fired: " + ", ".join(deciding) if deciding else "no enabled rule fired")

    return check


@gate("verbatim", code=QuoteGateCode.NOT_VERBATIM, templates={
    "en": "The best passage of {area} could not be confirmed word for word in {path} as the "
          "file is now (check: {status}); it is not quoted.",
    "ru": "Лучший фрагмент источника ({area}) не удалось подтвердить дословно в файле {path} "
          "в его нынешнем виде (проверка: {status}); он не цитируется.",
})
def verbatim() -> GateFn:
    """The proposed quote is verbatim in its fragment and in the file as it is now."""

    def check(question: str, candidates: CandidateSet, settings: Settings) -> GateVerdict:
        quote = candidates.quote
        if quote is None:
            return gate_verdict("verbatim", True, {"checked": 0, "status": "no_quote"},
                                "no candidate to quote")
        result = verify_quote(quote.text, quote.fragment, candidates.corpus)
        anchor = quote.fragment.anchor
        return gate_verdict("verbatim", not result.ok, {
            "checked": 1, "status": result.status.value, "path": anchor.path,
            "start": anchor.start, "end": anchor.end, "in_fragment": result.in_fragment,
            "in_file": result.in_file,
        }, result.detail)

    return check


def extract_quote(question: str, fragment: Fragment) -> Quote:
    """The fragment's sentence that shares most content terms with the question.

    Headings are skipped; ties go to the earlier sentence; with no overlap at all the whole
    fragment is the quote. The result is always a substring of the fragment.
    """
    terms = set(question_terms(question))
    text = fragment.text
    best: tuple[int, int, int] | None = None  # (overlap, start, end)
    for start, end in sentence_spans(text):
        for line_start, line_end in _lines(text, start, end):
            piece = text[line_start:line_end]
            if piece.lstrip().startswith("#") or not piece.strip():
                continue
            overlap = len(terms & set(analyze(piece)))
            if best is None or overlap > best[0]:
                best = (overlap, line_start, line_end)
    if best is None or best[0] == 0:
        return Quote(fragment=fragment, text=text, offset=0)
    return Quote(fragment=fragment, text=text[best[1]:best[2]], offset=best[1])


def _lines(text: str, start: int, end: int) -> list[tuple[int, int]]:
    out = []
    for match in re.finditer(r"[^\n]+", text[start:end]):
        s, e = start + match.start(), start + match.end()
        stripped = text[s:e].strip()
        if stripped:
            lead = len(text[s:e]) - len(text[s:e].lstrip())
            out.append((s + lead, s + lead + len(stripped)))
    return out
