"""Relevance rules: string comparisons that decide whether a candidate relates to the question.

The quote rules (``entities``, ``lang-match``, ``term-coverage``) judge a fragment; the
circumstance rule judges a utility call's argument bindings. All are registered with
``@relevance_rule`` and switched on or off by settings, so every subset can be ablated;
:func:`quote_rules` lists the quote rules from the registry.
"""

from workbench.relevance._circumstance import (
    CircumstanceRule,
    CircumstanceVerdict,
    check_binding,
    circumstance_kind,
    circumstance_rule,
    circumstance_spans,
    question_literal_spans,
    question_literals,
)
from workbench.relevance._entities import (
    DocumentScope,
    Entity,
    RuleVerdict,
    extract_entities,
    missing_entities,
)
from workbench.relevance._rules import QuoteRule, entities, lang_match, quote_rules, term_coverage

__all__ = [
    "CircumstanceRule",
    "CircumstanceVerdict",
    "DocumentScope",
    "Entity",
    "QuoteRule",
    "RuleVerdict",
    "check_binding",
    "circumstance_kind",
    "circumstance_rule",
    "circumstance_spans",
    "entities",
    "extract_entities",
    "lang_match",
    "missing_entities",
    "question_literal_spans",
    "question_literals",
    "quote_rules",
    "term_coverage",
]
