"""The relevance rules of the quote source, registered by name.

Each registered factory returns a rule: a pure function ``(question, fragment_text, lang, scope)
-> RuleVerdict``, where ``scope`` is the fragment's :class:`DocumentScope` (its file and title).
None of them asks a model anything; they compare strings.

* ``entities`` — the question's entities must all occur in the fragment or name its document
  (``_entities``).
* ``lang-match`` — the fragment must be written in the question's language. A learner who asks
  in Russian is answered from the Russian material; a cross-language hit is a sign that the
  corpus lacks the matching passage.
* ``answer-type`` — a who/when/how-many question needs a person or organisation, a date or
  year, a number in the fragment (``_answer_type``).
* ``term-coverage`` — at least ``min_share`` of the question's distinct content terms (the
  lexical analyzer's stems) must occur in the fragment itself, not only somewhere among the
  candidates (which is what gate 0 asks).

A rule registered with ``applies_to="quote"`` is a quote rule: :func:`quote_rules` reads them
from the registry when called, so the relevance gate evaluates a rule registered later (in a
test or a notebook) like these. Its factory's keyword parameters are set by the settings'
``[gates] rule_params`` table.
"""

from __future__ import annotations

from collections.abc import Callable

from workbench import registry
from workbench.registry import relevance_rule
from workbench.relevance._answer_type import KIND_WORDS, missing_answer_kind
from workbench.relevance._entities import DocumentScope, RuleVerdict, missing_entities
from workbench.text import analyze, content_terms, detect_lang

QuoteRule = Callable[[str, str, str, DocumentScope], RuleVerdict]
"""``rule(question, fragment_text, lang, scope) -> RuleVerdict``."""


@relevance_rule("entities", applies_to="quote",
                description="every entity of the question occurs in the fragment")
def entities(options: bool = True, document_scope: bool = True) -> QuoteRule:
    """Build the entity rule.

    Args:
        options: Read ``-v``/``--recursive``/``/S`` as whole, case-sensitive entities and demand
            no single letter or punctuation-only literal (``False``: every token is demanded).
        document_scope: An entity naming the fragment's document (its title, collection folder or
            file name) is satisfied by any fragment of it (``False``: only the title, read as
            the fragment's first line, counts).
    """

    def rule(question: str, fragment_text: str, lang: str, scope: DocumentScope) -> RuleVerdict:
        if document_scope:
            missing = missing_entities(question, fragment_text, lang, scope=scope,
                                       options=options)
        else:
            missing = missing_entities(question, scope.with_title(fragment_text), lang,
                                       options=options)
        detail = ("all entities of the question occur in the fragment" if not missing
                  else "not in the fragment: " + ", ".join(missing))
        return RuleVerdict("entities", bool(missing), tuple(missing), detail)

    return rule


@relevance_rule("lang-match", applies_to="quote",
                description="the fragment is in the question's language")
def lang_match() -> QuoteRule:
    """Build the language rule."""

    def rule(question: str, fragment_text: str, lang: str, scope: DocumentScope) -> RuleVerdict:
        fragment_lang = detect_lang(scope.with_title(fragment_text))
        fired = fragment_lang != lang
        return RuleVerdict("lang-match", fired, (lang,) if fired else (),
                           f"question in {lang}, fragment in {fragment_lang}")

    return rule


@relevance_rule("term-coverage", applies_to="quote",
                description="enough of the question's content terms occur in the fragment")
def term_coverage(min_share: float = 0.5) -> QuoteRule:
    """Build the coverage rule with its minimum share."""

    def rule(question: str, fragment_text: str, lang: str, scope: DocumentScope) -> RuleVerdict:
        terms = content_terms(question)
        present = set(analyze(scope.with_title(fragment_text)))
        missing = tuple(t for t in terms if t not in present)
        share = 1.0 - len(missing) / len(terms) if terms else 1.0
        return RuleVerdict("term-coverage", share < min_share, missing,
                           f"{len(terms) - len(missing)}/{len(terms)} content terms in the "
                           f"fragment (share {share:.2f}, minimum {min_share:.2f})")

    return rule


@relevance_rule("answer-type", applies_to="quote",
                description="a who/when/how-many question finds a person or organisation, a "
                "date or year, a number in the fragment")
def answer_type() -> QuoteRule:
    """Build the answer-type rule."""

    def rule(question: str, fragment_text: str, lang: str, scope: DocumentScope) -> RuleVerdict:
        kind = missing_answer_kind(question, fragment_text)
        if kind is None:
            return RuleVerdict("answer-type", False, (),
                               "the fragment holds the kind of answer asked for, or the "
                               "question asks for no particular kind")
        # the kind's key, named in each language by the refusal text (``KIND_NAMES``)
        return RuleVerdict("answer-type", True, (kind,),
                           f"the question asks for {KIND_WORDS[kind]}; the fragment has none")

    return rule


def quote_rules() -> tuple[str, ...]:
    """Every registered quote relevance rule, in registration order (the ablation order)."""
    registry.load("relevance_rule")
    kinds = registry.metadata_of("relevance_rule", "applies_to")
    return tuple(name for name, applies_to in kinds.items() if applies_to == "quote")
