"""The code sets of the answers layer: the built-in invariants, and the pipeline's own refusals.

The pipeline's refusal texts are a table (:data:`MESSAGES`, a text per language for each code)
that the pipeline reads through :func:`answer_message` and a test renders in both languages.
"""

from __future__ import annotations

import enum
from typing import Any

from workbench.routing._screen import ScreenCode


class Invariant(enum.StrEnum):
    """The built-in invariants: what must hold before a mode-A answer leaves.

    The first two concern the answer as a whole, the others one evidence item of a given kind.
    Which invariants exist, the kind each applies to and the checking order are facts of their
    registrations (``@invariant(name, applies_to=kind)`` in ``_invariants``); this enum names
    the built-in ones, and an invariant registered later needs no member here.
    """

    EVIDENCE_PRESENT = "evidence_present"
    """A mode-A answer carries at least one evidence item."""
    TEXT_FROM_EVIDENCE = "text_from_evidence"
    """Its text is exactly the rendering of its evidence: it says nothing the evidence does not."""
    QUOTE_FILE_EXISTS = "quote_file_exists"
    """The quote's file exists under the corpus root and reads as UTF-8 text."""
    QUOTE_AT_ANCHOR = "quote_at_anchor"
    """The file as it is now holds the quote's text at its anchor, with the anchored digest."""
    QUOTE_IN_INDEX = "quote_in_index"
    """The quote comes from the index it names, inside one of that index's fragments."""
    UTILITY_IN_CATALOG = "utility_in_catalog"
    """The utility id is in the catalog, and the catalog is the one the call was made from."""
    UTILITY_ARGS_ATTACHED = "utility_args_attached"
    """The arguments are attached and satisfy the utility's schema."""
    UTILITY_SAME_RESULT = "utility_same_result"
    """Calling the utility again with those arguments gives the same result."""
    CERTIFICATE_DIGEST = "certificate_digest"
    """The certificate is attached, has a digest, and the digest seals its body."""
    RECHECK_ACCEPTS = "recheck_accepts"
    """The independent re-checker re-derives the certificate from the spec and library as now."""
    CONCLUSION_FOLLOWS = "conclusion_follows"
    """Evaluating the certified specification with the inputs gives the stated conclusion."""


class AnswerCode(enum.StrEnum):
    """Refusal codes the answers pipeline adds to those of the three sources."""

    INVARIANT_FAILED = "INVARIANT_FAILED"
    """An evidence item did not resolve; ``numbers`` name the invariant and the item."""
    ROUTER_REFUSED = "ROUTER_REFUSED"
    """The router chose no source and gave no refusal of its own."""
    UNKNOWN_SPEC = "UNKNOWN_SPEC"
    """The router named a specification that is not in the specification folder."""
    BAD_SPEC_INPUT = "BAD_SPEC_INPUT"
    """The inputs the router bound do not fit the specification's declared inputs."""
    QUOTE_SOURCE_UNAVAILABLE = "QUOTE_SOURCE_UNAVAILABLE"
    """The quote source could not be opened (no index was built for the corpus)."""
    MODE_B_UNAVAILABLE = "MODE_B_UNAVAILABLE"
    """Mode A could not answer, mode B was allowed, but no generator is configured."""
    QUESTION_EMPTY = ScreenCode.QUESTION_EMPTY.value
    """The question has no characters but whitespace; refused before routing."""
    QUESTION_TOO_LONG = ScreenCode.QUESTION_TOO_LONG.value
    """The question is longer than ``[answers].max_question_chars``; refused before routing."""
    ARGUMENT_NOT_IN_QUESTION = "ARGUMENT_NOT_IN_QUESTION"
    """An argument the router bound is not the normalisation of any span of the question."""
    QUESTION_SCRIPT = ScreenCode.QUESTION_SCRIPT.value
    """The question is written mostly in a script other than Latin or Cyrillic; refused before
    routing, since neither the router nor the corpus reads it."""
    QUESTION_TOO_MANY_VALUES = ScreenCode.QUESTION_TOO_MANY_VALUES.value
    """The question offers more values holding digits outside quotes than an argument is ever
    chosen among; refused before routing."""
    SOURCE_NOT_CHOSEN = "SOURCE_NOT_CHOSEN"
    """``ask --source`` forced a source the router could bind nothing for."""


SOURCE_NAMES: dict[str, dict[str, str]] = {
    "en": {"utility": "utility", "quote": "quote", "spec": "specification", "refuse": "refusal"},
    "ru": {"utility": "утилита", "quote": "цитата", "spec": "спецификация", "refuse": "отказ"},
}
"""Language → source (``workbench.routing.Source``) → its name in a refusal text."""

MESSAGES: dict[str, dict[str, str]] = {
    AnswerCode.ROUTER_REFUSED: {
        "en": "The router chose no source for this question.",
        "ru": "Маршрутизатор не выбрал для этого вопроса ни одного источника."},
    AnswerCode.UNKNOWN_SPEC: {
        "en": "No specification with the id “{spec}” is in the specification folder {folder}.",
        "ru": "В папке спецификаций {folder} нет спецификации с идентификатором «{spec}»."},
    AnswerCode.BAD_SPEC_INPUT: {
        "en": "The inputs given ({inputs}) do not fit specification {spec}: {error}",
        "ru": "Переданные входные данные ({inputs}) не подходят к спецификации {spec}; "
              "подробности записаны в числах отказа."},
    AnswerCode.QUOTE_SOURCE_UNAVAILABLE: {
        "en": "The quote source could not be opened: no usable index was found at {index}.",
        "ru": "Источник цитат не удалось открыть: по пути {index} не найден пригодный индекс."},
    f"{AnswerCode.QUOTE_SOURCE_UNAVAILABLE}:no_quote": {
        "en": "The gates passed, but no quote could be taken from the best fragment.",
        "ru": "Проверки пройдены, но взять цитату из лучшего фрагмента не удалось."},
    AnswerCode.SOURCE_NOT_CHOSEN: {
        "en": "The source “{forced}” was required, but the router chose “{chosen}” and bound "
              "nothing for it, so no call was made.",
        "ru": "Требовался источник «{forced}», но маршрутизатор выбрал «{chosen}» и ничего не "
              "связал для требуемого, поэтому вызова не было."},
}
"""Code (or ``code:case``) → language → the refusal text; fields in braces come from the call."""


def answer_message(key: str, lang: str, **fields: Any) -> str:
    """The text of the pipeline's refusal ``key`` in ``lang`` (``ru``, else English).

    ``forced`` and ``chosen``, when given, are sources and are named in ``lang``.
    """
    lang = "ru" if lang == "ru" else "en"
    names = SOURCE_NAMES[lang]
    for source in ("forced", "chosen"):
        if source in fields:
            fields[source] = names.get(str(fields[source]), str(fields[source]))
    return MESSAGES[key][lang].format(**fields)
