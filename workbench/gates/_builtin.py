"""The five gates of the quote source, each a registered pure function.

A gate is ``(question, candidates, settings) -> GateVerdict``; its thresholds come from
``settings.gates``. Every gate is evaluated for every question (see ``_runner``), so each one
must give a meaningful verdict even when another would have refused first.

Each registration carries the gate's facts: its refusal ``code`` and its refusal wording
(``templates``, one per language, and ``cases`` keyed by the verdict's ``reason``, both from
``_refusal.WORDING``; ``{head}`` says what was searched, the other fields are the verdict's
numbers). The gate codes, the default order and the refusal texts are
read from these registrations, so the order of the functions below is the default firing order.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Sequence
from functools import lru_cache
from typing import Any, NamedTuple

from workbench.config import Settings
from workbench.corpus._fragment import sentence_spans
from workbench.corpus._quote import verify_quote
from workbench.corpus._records import Fragment
from workbench.gates._codes import QuoteGateCode, gate_verdict
from workbench.gates._records import CandidateSet, GateVerdict, Quote
from workbench.gates._refusal import gate_wording
from workbench.registry import build, gate
from workbench.relevance._entities import DocumentScope
from workbench.relevance._rules import quote_rules
from workbench.retrieval._glossary import GlossaryMatch
from workbench.retrieval._hybrid import Hit
from workbench.text import TERM_ANALYZERS, analyze, content_terms

GateFn = Callable[[str, CandidateSet, Settings], GateVerdict]

# Words that shape a question but carry no subject; gate 0 does not look for them.
_QUESTION_WORDING = (
    "как какой какая какое какие каков какова сколько почему зачем где когда что чем чего кто "
    "ли можно нужно нельзя надо ли бывает значит называется означает делает происходит "
    "what which how many much why when where who whose does do did can could should would "
    "mean means called happens")
GATE0_POOL = 3
"""Gate 0 looks for the question's terms in this many best candidates."""
SCRIPT_PRESENT_SHARE = 0.25
"""A script (Cyrillic, Latin) is present in gate 0's pool when it writes this share of its
letters: a Russian page whose body was left in English has a few Cyrillic headings."""
_CYRILLIC = re.compile("[а-яё]", re.IGNORECASE)
_LATIN = re.compile("[a-z]", re.IGNORECASE)


@lru_cache(maxsize=4)
def _question_words(analyzer: str) -> frozenset[str]:
    return frozenset(TERM_ANALYZERS[analyzer](_QUESTION_WORDING))


def question_terms(question: str, analyzer: str = "stem") -> list[str]:
    """The content terms gate 0 looks for: analyzer terms minus question words.

    Args:
        question: The question.
        analyzer: A name of :data:`workbench.retrieval.TERM_ANALYZERS` (``stem`` or ``lemma``).
    """
    words = _question_words(analyzer)
    return [t for t in content_terms(question, TERM_ANALYZERS[analyzer]) if t not in words]


def term_script(term: str) -> str:
    """``digits`` for a term with a digit, else ``cyrillic`` or ``latin`` by its letters."""
    if any(ch.isdigit() for ch in term):
        return "digits"
    return "cyrillic" if _CYRILLIC.search(term) else "latin"


def pool_scripts(texts: list[str]) -> frozenset[str]:
    """The scripts that write at least :data:`SCRIPT_PRESENT_SHARE` of the letters of ``texts``."""
    joined = " ".join(texts)
    cyr, lat = len(_CYRILLIC.findall(joined)), len(_LATIN.findall(joined))
    total = max(1, cyr + lat)
    return frozenset(name for name, count in (("cyrillic", cyr), ("latin", lat))
                     if count / total >= SCRIPT_PRESENT_SHARE) | {"digits"}


class Gate0Judgement(NamedTuple):
    """Which question terms gate 0 judges, and what else it requires."""

    judged: list[str]
    """The terms whose share found in the pool is the coverage."""
    needs_confidence: bool
    """True when the pool is in another script and the best score must reach the threshold."""


def _judge_all(terms: list[str], scripts: frozenset[str], own: str) -> Gate0Judgement:
    return Gate0Judgement(terms, False)


def _judgeable(terms: list[str], scripts: frozenset[str], own: str) -> list[str]:
    """The terms a pool in ``scripts`` can hold, for a question written in ``own`` script.

    Numbers are written alike in every language, and so are the Latin names (products,
    formats, options) a Russian question carries; a question's other words are judged only
    where their script is present.
    """
    return [t for t in terms if term_script(t) in scripts
            or (own == "cyrillic" and term_script(t) == "latin")]


def _judge_script(terms: list[str], scripts: frozenset[str], own: str) -> Gate0Judgement:
    return Gate0Judgement(_judgeable(terms, scripts, own), False)


def _judge_shared(terms: list[str], scripts: frozenset[str], own: str) -> Gate0Judgement:
    judged = _judgeable(terms, scripts, own)
    return Gate0Judgement(judged, len(judged) < len(terms))


GATE0_COVERAGES: dict[str, Callable[[list[str], frozenset[str], str], Gate0Judgement]] = {
    "all": _judge_all,
    "script": _judge_script,
    "shared": _judge_shared,
}
"""How gate 0 counts coverage when the question and its candidates may differ in language.

* ``all`` — every content term of the question.
* ``script`` — only the terms written in a script present in the pool, and the terms written
  alike in both languages (numbers; the Latin words of a Russian question): a Russian question
  about an English page is judged by its Latin terms and numbers.
* ``shared`` — as ``script``, and when that leaves terms out (the pool is in another language)
  the dense ranking must be confident: the best score must reach the threshold gate's value.
  With no term left to judge, that confidence alone decides.
"""


def _found_translated(expansion: Sequence[GlossaryMatch], missing: list[str], present: set[str],
                      analyzer: Callable[[str], list[str]]) -> list[str]:
    """The ``missing`` terms that the pool holds in translation (see ``CandidateSet.expansion``).

    A term is found when it belongs to a glossary entry of the question and every term of one
    of that entry's translations is in the pool (``present``, through gate 0's ``analyzer``).
    """
    found: set[str] = set()
    for match in expansion if missing else ():
        translated = (analyzer(text) for text in match.translations)
        if any(terms and set(terms) <= present for terms in translated):
            found.update(match.terms)
    # entries are keyed by stems; a lemma (gate0_terms = "lemma") is found through its stem
    return [t for t in missing if t in found or any(s in found for s in analyze(t))]


def _gate0_reason(pool: bool, question_terms: int, judged: int, found: int,
                  coverage_low: bool, unconfident: bool) -> str | None:
    """Why gate 0 fires, the case its refusal text takes (``None`` when it passes)."""
    if not pool:
        return "no_candidates"
    if not question_terms:
        return "no_terms"
    if unconfident and not judged:
        return "other_script"
    if coverage_low:
        return "no_words" if not found else "coverage"
    return "other_script" if unconfident else None


@gate("gate0", code=QuoteGateCode.GATE0_NO_LEXICAL_SUPPORT, **gate_wording("gate0"))
def gate0() -> GateFn:
    """No lexical support: too few content terms of the question occur in the best candidates.

    ``[gates] gate0_terms`` says how words become terms (stems or lemmas), ``gate0_coverage``
    which terms count when the candidates are in another language (:data:`GATE0_COVERAGES`).
    """

    def check(question: str, candidates: CandidateSet, settings: Settings) -> GateVerdict:
        analyzer = settings.gates.gate0_terms
        all_terms = question_terms(question, analyzer)
        pool = candidates.fragments[:GATE0_POOL]
        texts = [fragment.text for fragment in pool]
        own = "cyrillic" if len(_CYRILLIC.findall(question)) >= len(
            _LATIN.findall(question)) else "latin"
        judgement = GATE0_COVERAGES[settings.gates.gate0_coverage](
            all_terms, pool_scripts(texts), own)
        terms = judgement.judged
        present: set[str] = set()
        for text in texts:
            present.update(TERM_ANALYZERS[analyzer](text))
        missing = [t for t in terms if t not in present]
        translated = _found_translated(candidates.expansion, missing, present,
                                       TERM_ANALYZERS[analyzer])
        missing = [t for t in missing if t not in translated]
        best = candidates.hits[0].score if candidates.hits else 0.0
        confident = best >= settings.gates.threshold_for(candidates.mode)
        if judgement.needs_confidence and not terms:
            coverage = 1.0 if confident else 0.0
        else:
            coverage = 1.0 - len(missing) / len(terms) if terms else 0.0
        minimum = settings.gates.min_lexical_coverage
        reason = _gate0_reason(bool(pool), len(all_terms), len(terms), len(terms) - len(missing),
                               coverage < minimum, judgement.needs_confidence and not confident)
        return gate_verdict("gate0", reason is not None, {
            "checked": len(pool), "terms": len(terms), "found": len(terms) - len(missing),
            "coverage": round(coverage, 4), "min_coverage": minimum, "missing_terms": missing,
            "question_terms": len(all_terms), "needs_confidence": judgement.needs_confidence,
            "found_translated": translated, "reason": reason, "best_score": round(best, 4),
            "threshold": settings.gates.threshold_for(candidates.mode),
        }, f"{len(terms) - len(missing)}/{len(terms)} content terms in the best {len(pool)}")

    return check


@gate("threshold", code=QuoteGateCode.BELOW_THRESHOLD, **gate_wording("threshold"))
def threshold() -> GateFn:
    """The best candidate's score must reach the threshold."""

    def check(question: str, candidates: CandidateSet, settings: Settings) -> GateVerdict:
        best = candidates.hits[0].score if candidates.hits else 0.0
        limit = settings.gates.threshold_for(candidates.mode)
        return gate_verdict("threshold", best < limit, {
            "checked": len(candidates.hits), "best_score": round(best, 4), "threshold": limit,
            "mode": candidates.mode,
            "path": candidates.fragments[0].anchor.path if candidates.fragments else None,
            "reason": None if candidates.hits else "no_candidates",
        }, f"best {best:.3f} vs threshold {limit:.3f} ({candidates.mode})")

    return check


def top_two_gap(hits: Sequence[Hit]) -> float | None:
    """The unsigned gap between the scores of the two best hits (``None`` with fewer than two).

    The scores are those the threshold reads (:attr:`Hit.score`). A mode may order the hits by
    another quantity (``bi-encoder-terms`` adds the term share), so the second hit can score
    higher than the first: the gap is their distance, whichever is higher.
    """
    return abs(hits[0].score - hits[1].score) if len(hits) > 1 else None


@gate("disagreement", code=QuoteGateCode.CANDIDATE_DISAGREEMENT, **gate_wording("disagreement"))
def disagreement() -> GateFn:
    """The two best candidates come from different files with nearly equal scores.

    When two files compete within ``disagreement_margin`` the score cannot tell which one the
    question is about; quoting either would be a coin toss. The two are compared by the score
    the threshold reads, unsigned (:func:`top_two_gap`), and the verdict keeps those two scores
    and their gap. Two fragments whose text is the same
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
        gap = top_two_gap(candidates.hits) or 0.0
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


@gate("relevance", code=QuoteGateCode.IRRELEVANT, **gate_wording("relevance"))
def relevance() -> GateFn:
    """The best candidate passes every enabled relevance rule.

    A fragment is read together with its document's scope (file and title), which scopes every
    paragraph under it (a paragraph of "Russian VAT: rates" need not repeat "Russia"). Every
    registered quote rule is evaluated and recorded (``numbers["rules"]``) so that any subset can
    be ablated later from the cached verdicts; only the enabled ones decide.
    """

    def check(question: str, candidates: CandidateSet, settings: Settings) -> GateVerdict:
        enabled = settings.gates.relevance_rules
        if not candidates.fragments:
            return gate_verdict("relevance", True, {"checked": 0, "rules": {}, "missing": {},
                                                    "enabled": list(enabled), "fired": [],
                                                    "reason": "no_candidates"},
                                "no candidate to judge")
        best = candidates.fragments[0]
        scope = DocumentScope(best.anchor.path, candidates.titles[0] if candidates.titles else "")
        fired: dict[str, bool] = {}
        missing: dict[str, list[str]] = {}
        for name, rule in quote_rule_stages(settings).items():
            verdict = rule(question, best.text, candidates.lang, scope)
            fired[name] = verdict.fired
            missing[name] = list(verdict.missing)
        deciding = [n for n in enabled if fired.get(n)]
        return gate_verdict("relevance", bool(deciding), {
            "checked": 1, "rules": fired, "missing": missing, "enabled": list(enabled),
            "fired": deciding, "path": candidates.fragments[0].anchor.path,
        }, "fired: " + ", ".join(deciding) if deciding else "no enabled rule fired")

    return check


# The confidence gate reads the verdicts above and registers here, so it fires before verbatim.
from workbench.gates import _confidence  # noqa: E402, F401, I001


@gate("verbatim", code=QuoteGateCode.NOT_VERBATIM, **gate_wording("verbatim"))
def verbatim() -> GateFn:
    """The proposed quote is verbatim in its fragment and in the file as it is now."""

    def check(question: str, candidates: CandidateSet, settings: Settings) -> GateVerdict:
        quote = candidates.quote
        if quote is None:
            return gate_verdict("verbatim", True, {"checked": 0, "status": "no_quote",
                                                   "reason": "no_candidates"},
                                "no candidate to quote")
        result = verify_quote(quote.text, quote.fragment, candidates.corpus)
        anchor = quote.fragment.anchor
        return gate_verdict("verbatim", not result.ok, {
            "checked": 1, "status": result.status.value, "path": anchor.path,
            "start": anchor.start, "end": anchor.end, "in_fragment": result.in_fragment,
            "in_file": result.in_file,
        }, result.detail)

    return check


def _body_lines(text: str) -> list[tuple[int, int]]:
    """The non-empty lines of ``text`` that are not headings, as (start, end), in order.

    Lines are taken sentence by sentence (:func:`sentence_spans`).
    """
    return [line for start, end in sentence_spans(text) for line in _lines(text, start, end)
            if not text[line[0]:line[1]].lstrip().startswith("#")]


def _best_line(question: str, lines: list[tuple[int, int]], text: str) -> int | None:
    """The index of the line of ``lines`` sharing most content terms with ``question``.

    Ties go to the earlier line; ``None`` when no line shares any term.
    """
    terms = set(question_terms(question))
    overlaps = [len(terms & set(analyze(text[start:end]))) for start, end in lines]
    best = max(range(len(lines)), key=lambda i: (overlaps[i], -i), default=None)
    return best if best is not None and overlaps[best] else None


def _quote_sentence(question: str, fragment: Fragment) -> tuple[int, int]:
    lines = _body_lines(fragment.text)
    best = _best_line(question, lines, fragment.text)
    return lines[best] if best is not None else (0, len(fragment.text))


def _quote_neighbours(question: str, fragment: Fragment) -> tuple[int, int]:
    lines = _body_lines(fragment.text)
    best = _best_line(question, lines, fragment.text)
    if best is None:
        return 0, len(fragment.text)
    return lines[max(best - 1, 0)][0], lines[min(best + 1, len(lines) - 1)][1]


def _quote_fragment(question: str, fragment: Fragment) -> tuple[int, int]:
    lines = _body_lines(fragment.text)
    return (lines[0][0], lines[-1][1]) if lines else (0, len(fragment.text))


QUOTE_EXTENTS: dict[str, Callable[[str, Fragment], tuple[int, int]]] = {
    "sentence": _quote_sentence,
    "neighbours": _quote_neighbours,
    "fragment": _quote_fragment,
}
"""How much of the best fragment a quote takes (``[gates] quote_extent``); each gives offsets.

* ``sentence`` — the line of a sentence that shares most content terms with the question
  (headings skipped, ties to the earlier one; with no shared term at all, the whole fragment).
* ``neighbours`` — that line with the line before it and the line after it.
* ``fragment`` — the whole fragment from its first line that is not a heading to its end.

On the dev split the fragment held a gold span far more often than the one sentence that shares
most words with the question: an answer often follows the sentence that repeats the question's
words («Правило … состоит из трёх частей.» and then the rule).
"""


def extract_quote(question: str, fragment: Fragment, extent: str = "fragment") -> Quote:
    """The part of ``fragment`` quoted for ``question``, as :data:`QUOTE_EXTENTS` says.

    The result is always a substring of the fragment.
    """
    start, end = QUOTE_EXTENTS[extent](question, fragment)
    return Quote(fragment=fragment, text=fragment.text[start:end], offset=start)


def _lines(text: str, start: int, end: int) -> list[tuple[int, int]]:
    out = []
    for match in re.finditer(r"[^\n]+", text[start:end]):
        s, e = start + match.start(), start + match.end()
        stripped = text[s:e].strip()
        if stripped:
            lead = len(text[s:e]) - len(text[s:e].lstrip())
            out.append((s + lead, s + lead + len(stripped)))
    return out
