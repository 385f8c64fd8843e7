"""Relevance rules: string comparisons that decide whether a candidate relates to the question.

The quote rules (``entities``, ``lang-match``, ``answer-type``, ``term-coverage``) judge a fragment; the
circumstance rule judges a utility call's argument bindings. All are registered with
``@relevance_rule`` and switched on or off by settings, so every subset can be ablated;
:func:`quote_rules` lists the quote rules from the registry.
"""

from workbench.relevance._answer_type import missing_answer_kind, news_embedding, question_type
from workbench.relevance._circumstance import (
    CIRCUMSTANCE_PATTERNS,
    GENERIC_WORDS,
    OPENING_QUOTES,
    CircumstanceRule,
    CircumstanceVerdict,
    blank_literals,
    check_binding,
    circumstance_kind,
    circumstance_rule,
    circumstance_spans,
    first_colon,
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
from workbench.relevance._rules import (
    QuoteRule,
    answer_type,
    entities,
    lang_match,
    quote_rules,
    term_coverage,
)

__all__ = [
    "CIRCUMSTANCE_PATTERNS",
    "GENERIC_WORDS",
    "CircumstanceRule",
    "CircumstanceVerdict",
    "DocumentScope",
    "Entity",
    "QuoteRule",
    "RuleVerdict",
    "answer_type",
    "check_binding",
    "circumstance_kind",
    "circumstance_rule",
    "circumstance_spans",
    "entities",
    "extract_entities",
    "OPENING_QUOTES",
    "blank_literals",
    "first_colon",
    "lang_match",
    "missing_answer_kind",
    "missing_entities",
    "news_embedding",
    "question_literal_spans",
    "question_literals",
    "question_type",
    "quote_rules",
    "term_coverage",
]
