"""The confidence gate: a learned estimate that the quote holds the answer, and the features it reads.

The other gates certify where a quote comes from; this one estimates whether it answers. Its
score is a seeded logistic regression (:mod:`workbench.gates._confidence_model`, weights as
JSON, trained by ``workbench gates train-confidence``) over what the pipeline already knows when
it decides — nothing is retrieved again:

* ``scores`` — the best candidate's fused, dense, lexical, reranked scores and term share;
* ``margin`` — its lead over the runner-up, and whether the runner-up comes from another file;
* ``gate0`` — gate 0's coverage and how many question terms it judged and missed;
* ``rules`` — every registered quote relevance rule's verdict on the best fragment;
* ``answer_type`` — the kind of answer the question asks for, and whether the fragment holds it;
* ``overlap`` — the share of the question's terms in the quote and in the fragment, and where
  in the fragment they sit (first and last position, as a share of its length);
* ``fragment`` — the fragment's length and its kind (headings, list items, code);
* ``lang`` — the question's and the fragment's language.

Gate 0's and the relevance gate's verdicts are read from ``CandidateSet.earlier`` when the
runner evaluated them first (the default order), else computed here through the registry. The
gate's verdict carries ``confidence`` (0..1) and ``threshold``; every feature is recorded in it
(``features``), so training reads them back from an evaluation's traces.
"""

from __future__ import annotations

import math
import re
from pathlib import Path

from workbench.config import Settings
from workbench.gates._builtin import GateFn, question_terms
from workbench.gates._codes import QuoteGateCode, gate_verdict
from workbench.gates._confidence_model import ConfidenceModel, load_confidence_model
from workbench.gates._records import CandidateSet, GateVerdict
from workbench.gates._refusal import gate_wording
from workbench.registry import build, gate
from workbench.relevance._answer_type import question_type
from workbench.relevance._rules import quote_rules
from workbench.text import analyze

_STATIC_GROUPS: dict[str, tuple[str, ...]] = {
    "scores": ("score", "fused", "dense", "lexical", "terms_share"),
    "margin": ("gap", "runner_up_other_file", "runner_up_same_text"),
    "gate0": ("gate0_coverage", "gate0_terms", "gate0_missing", "gate0_translated"),
    "answer_type": ("asks_who", "asks_when", "asks_how_many", "answer_kind_found"),
    "overlap": ("overlap_quote", "overlap_fragment", "overlap_first", "overlap_last"),
    "fragment": ("log_chars", "heading_lines", "list_lines", "code"),
    "lang": ("question_ru", "fragment_ru", "lang_differs"),
}

_HEADING = re.compile(r"^\s*#")
_LIST_ITEM = re.compile(r"^\s*(?:[-*+•]|\d+[.)])\s")
_CODE = re.compile(r"```|^(?: {4}|\t)\S", re.MULTILINE)


def feature_groups() -> dict[str, tuple[str, ...]]:
    """Signal group → its feature names, in order; ``rules`` has one per registered quote rule."""
    groups = dict(_STATIC_GROUPS)
    groups["rules"] = tuple(f"rule_{name}" for name in quote_rules())
    return {name: groups[name] for name in ("scores", "margin", "gate0", "rules", "answer_type",
                                            "overlap", "fragment", "lang")}


def feature_names() -> tuple[str, ...]:
    """Every feature :func:`confidence_features` computes, in group order."""
    return tuple(name for names in feature_groups().values() for name in names)


def _earlier(name: str, question: str, candidates: CandidateSet, settings: Settings
             ) -> GateVerdict:
    """The verdict of the gate ``name``: the runner's, else evaluated here."""
    verdict = candidates.earlier.get(name)
    return verdict if verdict is not None else build("gate", name)(question, candidates, settings)


def _share(lines: list[str], pattern: re.Pattern[str]) -> float:
    return sum(1 for line in lines if pattern.match(line)) / len(lines) if lines else 0.0


def confidence_features(question: str, candidates: CandidateSet, settings: Settings
                        ) -> dict[str, float]:
    """The confidence model's inputs for one question (see the module's docstring).

    Every value is a finite float; a question without candidates gets zeros where there is
    nothing to measure.
    """
    values = dict.fromkeys(feature_names(), 0.0)
    gate0 = _earlier("gate0", question, candidates, settings).numbers
    relevance = _earlier("relevance", question, candidates, settings).numbers
    values.update(gate0_coverage=float(gate0.get("coverage", 0.0)),
                  gate0_terms=float(gate0.get("terms", 0)),
                  gate0_missing=float(len(gate0.get("missing_terms") or [])),
                  gate0_translated=float(len(gate0.get("found_translated") or [])))
    rules = relevance.get("rules") or {}
    for name in quote_rules():
        values[f"rule_{name}"] = float(bool(rules.get(name, False)))
    asked = question_type(question)
    values.update(asks_who=float(asked == "who"), asks_when=float(asked == "when"),
                  asks_how_many=float(asked == "how_many"),
                  answer_kind_found=float(asked is not None and not rules.get("answer-type")))
    values["question_ru"] = float(candidates.lang == "ru")
    if not candidates.hits or not candidates.fragments:
        return values
    best, fragment = candidates.hits[0], candidates.fragments[0]
    values.update(score=best.score, fused=best.fused, dense=best.dense or 0.0,
                  lexical=math.log1p(max(best.lexical or 0.0, 0.0)),
                  terms_share=best.terms or 0.0)
    if len(candidates.hits) > 1 and len(candidates.fragments) > 1:
        runner_up = candidates.fragments[1]
        values.update(gap=best.score - candidates.hits[1].score,
                      runner_up_other_file=float(runner_up.anchor.path != fragment.anchor.path),
                      runner_up_same_text=float(runner_up.text.split() == fragment.text.split()))
    terms = set(question_terms(question, settings.gates.gate0_terms))
    fragment_terms = analyze(fragment.text)
    quote_terms = set(analyze(candidates.quote.text)) if candidates.quote else set()
    if terms:
        values["overlap_quote"] = len(terms & quote_terms) / len(terms)
        values["overlap_fragment"] = len(terms & set(fragment_terms)) / len(terms)
    places = [i for i, term in enumerate(fragment_terms) if term in terms]
    if places:
        values["overlap_first"] = places[0] / len(fragment_terms)
        values["overlap_last"] = places[-1] / len(fragment_terms)
    lines = [line for line in fragment.text.splitlines() if line.strip()]
    values.update(log_chars=math.log1p(len(fragment.text)),
                  heading_lines=_share(lines, _HEADING), list_lines=_share(lines, _LIST_ITEM),
                  code=float(bool(_CODE.search(fragment.text))),
                  fragment_ru=float(fragment.lang == "ru"),
                  lang_differs=float(fragment.lang != candidates.lang))
    return {name: float(value) if math.isfinite(value) else 0.0 for name, value in values.items()}


def confidence_model_path(settings: Settings) -> Path | None:
    """The configured model file, or ``None`` when ``[gates] confidence_model`` is empty.

    A relative path is read against the folder above ``[paths].models`` (the project folder), so
    ``models/confidence/course.json`` names the shipped model wherever the process runs.
    """
    name = settings.gates.confidence_model.strip()
    if not name:
        return None
    path = Path(name)
    return path if path.is_absolute() else Path(settings.paths.models).resolve().parent / path


def confidence_model(settings: Settings) -> ConfidenceModel | None:
    """The configured model, loaded and checked against :func:`feature_names` (``None``: none)."""
    path = confidence_model_path(settings)
    return None if path is None else load_confidence_model(path, known=feature_names())


@gate("confidence", code=QuoteGateCode.LOW_CONFIDENCE, **gate_wording("confidence"))
def confidence() -> GateFn:
    """The estimated chance that the quote holds the answer must reach the threshold.

    With no model (``[gates] confidence_model = ""``) or a threshold of 0 the gate passes and its
    verdict says it is not configured (``configured`` false); with a model it still records the
    estimate, so a run can be ranked by it (the rows' ``confidence`` column).
    """

    def check(question: str, candidates: CandidateSet, settings: Settings) -> GateVerdict:
        values = confidence_features(question, candidates, settings)
        threshold = settings.gates.confidence_threshold
        quote = candidates.quote
        anchor = quote.fragment.anchor if quote else None
        numbers: dict[str, object] = {
            "checked": 1 if quote else 0, "confidence": None, "threshold": threshold,
            "reason": None if quote else "no_candidates",
            "configured": False, "path": anchor.path if anchor else None,
            "quote_start": anchor.start + quote.offset if anchor and quote else None,
            "quote_end": anchor.start + quote.offset + len(quote.text) if anchor and quote
            else None,
            "features": {name: round(value, 6) for name, value in values.items()},
        }
        path = confidence_model_path(settings)
        if path is None:
            return gate_verdict("confidence", False, numbers,
                                "not configured: no confidence model ([gates] confidence_model "
                                "is empty); passes")
        if threshold <= 0 and not path.is_file():
            # Nothing is gated on, so a project without the model (a folder of one's own) still
            # answers; with a threshold the missing file is an error, never a silent pass.
            return gate_verdict("confidence", False, numbers,
                                f"not configured: threshold 0 and no model file at {path}; passes")
        model = load_confidence_model(path, known=feature_names())
        estimate = round(model.predict(values), 4)
        numbers["confidence"] = estimate
        numbers["model"] = str(model.card.get("name", ""))
        if threshold <= 0:
            return gate_verdict("confidence", False, numbers,
                                f"not configured: threshold 0; the estimate {estimate:.3f} is "
                                "recorded, not gated on")
        numbers["configured"] = True
        return gate_verdict("confidence", estimate < threshold, numbers,
                            f"estimated chance {estimate:.3f} vs threshold {threshold:.3f}")

    return check
