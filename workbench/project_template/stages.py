"""Stages of one's own: one relevance rule and one gate, registered by name.

The settings beside this file name this module under ``[plugins] modules``, so it is imported
whenever they load and every verb, notebook and report can use what it registers by name.
Registering changes no default: the rule takes part once ``[gates] relevance_rules`` lists it,
the gate once ``[gates] order`` does (see the commented lines in ``workbench.toml``). Every
registered quote rule is still evaluated and kept as a ``rule_<name>`` column, so an ablation
can try it before it is switched on. The public API is described in the workbench's
``docs/extending.md``.
"""

from __future__ import annotations

import re

from workbench.config import Settings
from workbench.gates import CandidateSet, GateFn, GateVerdict, gate_verdict
from workbench.registry import gate, relevance_rule
from workbench.relevance import DocumentScope, QuoteRule, RuleVerdict

_NUMBER = re.compile(r"\d+(?:[.,]\d+)?")


@relevance_rule("project-numbers", applies_to="quote",
                description="the numbers of the question occur in the fragment")
def project_numbers(min_share: float = 1.0) -> QuoteRule:
    """Fires when under ``min_share`` of the question's numbers occur in the fragment."""

    def rule(question: str, fragment_text: str, lang: str, scope: DocumentScope) -> RuleVerdict:
        wanted = _NUMBER.findall(question)
        present = set(_NUMBER.findall(fragment_text))
        missing = tuple(n for n in wanted if n not in present)
        share = 1.0 - len(missing) / len(wanted) if wanted else 1.0
        return RuleVerdict("project-numbers", share < min_share, missing,
                           f"{len(wanted) - len(missing)}/{len(wanted)} numbers of the "
                           "question in the fragment")

    return rule


@gate("project-min-words", code="QUESTION_TOO_SHORT", templates={
    "en": "The question is too short to look for a quote in {area}: it has {words} words, "
          "and at least {minimum} are needed.",
    "ru": "Вопрос слишком короткий, чтобы искать цитату в источнике ({area}): в нём "
          "{words} слов, а нужно не меньше {minimum}.",
})
def project_min_words(minimum: int = 3) -> GateFn:
    """Fires on a question of fewer than ``minimum`` words."""

    def check(question: str, candidates: CandidateSet, settings: Settings) -> GateVerdict:
        words = len(question.split())
        return gate_verdict("project-min-words", words < minimum,
                            {"checked": 1, "words": words, "minimum": minimum},
                            f"{words} words, at least {minimum} needed")

    return check
