"""Calling a utility: the argument checker, the refusal wording, and the call itself.

A call either returns a result or a :class:`workbench.answers.Refusal` with one of the five
:class:`UtilityCode` codes; it never raises on any JSON-typed input. The checks run in this order,
and the first that fails decides: the id is known; the arguments form an object whose names the
schema declares; every required argument has a value; every value is within its declared size
limits and has its declared type; the circumstance-versus-data rule (:mod:`workbench.relevance`,
used here and nowhere else in this package) accepts the binding when a question is given; the
function accepts the values within the schema's ``call_seconds`` (see :mod:`._limits`).
"""

from __future__ import annotations

import functools
import json
import math
import re
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from typing import Any

import yaml

from workbench import registry
from workbench.refusal import Refusal, falsehood_words
from workbench.relevance import CircumstanceVerdict
from workbench.utilities._catalog import load_catalog
from workbench.utilities._codes import UtilityCode
from workbench.utilities._limits import (
    MAX_INT_DIGITS,
    LimitExceeded,
    call_within,
    integer_digits,
    measure,
)
from workbench.utilities._schema import Argument, BadArgument, UtilitySchema

LANGS = ("en", "ru")
MAX_NUMBER = 1e100

# The wording of every refusal, per code and language. Each states what was not done inside the
# catalog and names the argument; none judges the question itself (the wording test loops here).
MESSAGES: dict[UtilityCode, dict[str, str]] = {
    UtilityCode.UNKNOWN_UTILITY: {
        "en": "No utility with the id “{utility}” is among the {utilities} utilities of the "
        "catalog ({categories} categories); category “{category}” lists {in_category}.",
        "ru": "Утилиты с идентификатором «{utility}» нет среди {utilities} утилит каталога "
        "({categories} категорий); в категории «{category}» их {in_category}.",
    },
    UtilityCode.MISSING_ARGUMENT: {
        "en": "The call to {utility} was not made: its required argument “{argument}” "
        "({expected_text}) has no value{detail}.",
        "ru": "Вызов {utility} не выполнен: у обязательного аргумента «{argument}» "
        "({expected_text}) нет значения{detail}.",
    },
    UtilityCode.ARGUMENT_IS_CIRCUMSTANCE: {
        "en": "The call to {utility} was not made: the data argument “{argument}” is bound to "
        "“{value}”, which in the question names a circumstance ({kind}), not data to compute on.",
        "ru": "Вызов {utility} не выполнен: аргумент данных «{argument}» связан со значением "
        "«{value}», которое в вопросе называет обстоятельство ({kind}), а не данные для "
        "вычисления.",
    },
    UtilityCode.BAD_ARGUMENT: {
        "en": "The call to {utility} gave no result: argument “{argument}” needs {expected_text}.",
        "ru": "Вызов {utility} не дал результата: аргументу «{argument}» нужно: {expected_text}.",
    },
    UtilityCode.AMBIGUOUS_ARGUMENT: {
        "en": "The call to {utility} was not made: two values of the question could be its "
        "argument “{argument}”, “{value}” and “{second}”, and the binder scored them too close to "
        "choose. Say which of the two is meant.",
        "ru": "Вызов {utility} не выполнен: аргументом «{argument}» могут быть два значения из "
        "вопроса, «{value}» и «{second}», и их оценки слишком близки, чтобы выбрать. Уточните, "
        "какое из двух имеется в виду.",
    },
    UtilityCode.LIMIT_EXCEEDED: {
        "en": "The call to {utility} gave no result: {measured}, while its declared limit "
        "“{limit}” is {bound}.",
        "ru": "Вызов {utility} не дал результата: {measured}, а его объявленный предел "
        "«{limit}» равен {bound}.",
    },
}
# What was measured against each named limit, per language; "at_least" marks a count that
# stopped as soon as it passed the limit (see ``_limits.measure``).
MEASURED: dict[str, dict[str, str]] = {
    "max_chars": {
        "en": "argument “{argument}” holds {at_least}{value} characters",
        "ru": "в аргументе «{argument}» {at_least}{value} символов",
    },
    "max_digits": {
        "en": "argument “{argument}” has {value} digits",
        "ru": "в аргументе «{argument}» {value} цифр",
    },
    "max_items": {
        "en": "argument “{argument}” holds {at_least}{value} values",
        "ru": "аргумент «{argument}» содержит {at_least}{value} значений",
    },
    "max_depth": {
        "en": "argument “{argument}” nests {at_least}{value} levels deep",
        "ru": "аргумент «{argument}» вложен на {at_least}{value} уровней",
    },
    "max_results": {
        "en": "argument “{argument}” gives {at_least}{value} matches",
        "ru": "аргумент «{argument}» даёт {at_least}{value} совпадений",
    },
    "yaml_nodes": {
        "en": "the YAML of argument “{argument}” expands to {at_least}{value} nodes",
        "ru": "YAML из аргумента «{argument}» разворачивается в {at_least}{value} узлов",
    },
    "call_seconds": {
        "en": "the call was stopped after {value} s",
        "ru": "вызов остановлен через {value} с",
    },
}
MEASURED_ANY = {"en": "the measured size is {at_least}{value}", "ru": "измерено {at_least}{value}"}
AT_LEAST = {"en": "at least ", "ru": "не менее "}
DETAILS = {
    "placeholder": {
        "en": " in the question (“{value}” only points at it)",
        "ru": " в вопросе («{value}» лишь указывает на него)",
    },
}
KIND_RU = {
    "charset": "кодировка", "hash": "алгоритм хеширования", "time zone": "часовой пояс",
    "format": "формат", "normalisation form": "форма нормализации", "standard": "стандарт",
    "unit": "единица измерения", "base": "система счисления", "case": "регистр",
}  # fmt: skip
TYPE_WORDS = {
    "string": ("a string", "строка"),
    "integer": (f"an integer of at most {MAX_INT_DIGITS} digits", "целое число"),
    "number": ("a finite number", "конечное число"),
    "boolean": ("true or false", "true или false"),
    "array": ("a JSON array", "массив JSON"),
    "object": ("a JSON object", "объект JSON"),
}
# Exceptions a utility may raise on values outside its domain that it did not foresee by name.
DOMAIN_ERRORS: tuple[type[BaseException], ...] = (
    ValueError, ArithmeticError, LookupError, RecursionError, re.error, yaml.YAMLError,
)  # fmt: skip


@dataclass(frozen=True)
class CallOutcome:
    """The outcome of one utility call: a result or a refusal, never both."""

    utility: str
    """The id that was called."""
    args: Mapping[str, Any]
    """The arguments as given."""
    result: Any = None
    """The JSON-ready result when the call was made."""
    refusal: Refusal | None = None
    """The refusal when it was not."""
    numbers: Mapping[str, Any] = field(default_factory=dict)
    """Extra facts (the circumstance verdict, when a question was judged)."""

    @property
    def ok(self) -> bool:
        """True when a result came back."""
        return self.refusal is None

    def to_dict(self) -> dict[str, Any]:
        """The protocol form: ``{"ok": true, "result": ...}`` or ``{"ok": false, ...}``."""
        if self.refusal is None:
            return {"ok": True, "utility": self.utility, "result": self.result}
        return {"ok": False, "utility": self.utility, "refusal": self.refusal.to_dict()}


def _expected(arg: Argument | None, lang: str) -> str:
    if arg is None:
        return "—"
    en, ru = TYPE_WORDS[arg.type]
    return ru if lang == "ru" else en


ECHO_LIMIT = 60
WITHHELD = {"en": "(a value not repeated here)", "ru": "(значение здесь не повторяется)"}


def _echo(value: Any, lang: str) -> Any:
    """A caller's value as a refusal text may repeat it: shortened, or withheld.

    A value holding a word the wording rule bans is withheld: a refusal never asserts
    falsehood, not even by quoting the caller. The ``numbers`` keep the value unchanged.
    """
    if not isinstance(value, str):
        return value
    if falsehood_words(value):
        return WITHHELD[lang]
    return value if len(value) <= ECHO_LIMIT else value[: ECHO_LIMIT - 1] + "…"


def refuse(code: UtilityCode, lang: str = "en", **facts: Any) -> Refusal:
    """A refusal of ``code`` whose text is filled from :data:`MESSAGES` and ``facts``."""
    lang = lang if lang in LANGS else "en"
    catalog = load_catalog()
    values = {
        "utilities": len(catalog.schemas),
        "categories": len(catalog.categories),
        "detail": "",
        "category": "",
        "in_category": 0,
        "argument": "",
        "expected": "",
        "value": "",
        "second": "",
        "kind": "",
        "utility": "",
        "limit": "",
        "bound": "",
    }
    values.update({k: _echo(v, lang) for k, v in facts.items() if v is not None})
    measured = MEASURED.get(str(facts.get("limit")), MEASURED_ANY)[lang]
    at_least = AT_LEAST[lang] if facts.get("at_least") else ""
    values["measured"] = measured.format(
        argument=values["argument"], value=values["value"], at_least=at_least
    )
    values.setdefault("expected_text", values["expected"])
    if facts.get("reason") in DETAILS:
        values["detail"] = DETAILS[facts["reason"]][lang].format(value=values["value"])
    if lang == "ru" and values["kind"] in KIND_RU:
        values["kind"] = KIND_RU[values["kind"]]
    text = MESSAGES[code][lang].format(**values)
    numbers = {k: v for k, v in facts.items() if k != "expected_text"}
    numbers["catalog_utilities"] = values["utilities"]
    return Refusal(code=str(code), area=catalog.area(lang), numbers=numbers, text=text)


def _over_limit(arg: Argument, value: Any) -> LimitExceeded | None:
    """The first declared size limit ``value`` breaks, measured before any conversion."""
    limits = arg.limits()
    if arg.type == "string" and isinstance(value, str) and len(value) > limits["max_chars"]:
        return LimitExceeded("max_chars", len(value), limits["max_chars"], arg.name)
    if arg.type == "integer" and isinstance(value, int) and not isinstance(value, bool):
        digits = integer_digits(value)
        if digits > MAX_INT_DIGITS:
            return LimitExceeded("max_digits", digits, MAX_INT_DIGITS, arg.name)
    if arg.type in ("array", "object") and isinstance(value, list | dict):
        counts = measure(value, limits["max_items"], limits["max_chars"], limits["max_depth"])
        for name, count in zip(("max_items", "max_chars", "max_depth"), counts, strict=True):
            if count > limits[name]:
                return LimitExceeded(name, count, limits[name], arg.name, at_least=True)
    return None


def _limit_refusal(uid: str, exc: LimitExceeded, lang: str) -> Refusal:
    return refuse(
        UtilityCode.LIMIT_EXCEEDED,
        lang,
        utility=uid,
        argument=exc.argument,
        limit=exc.limit,
        value=exc.value,
        bound=exc.bound,
        **({"at_least": True} if exc.at_least else {}),
    )


def _coerce(arg: Argument, value: Any) -> tuple[bool, Any]:
    """(accepted, value in the declared type); lenient only where no meaning can change."""
    t = arg.type
    if t == "string":
        if isinstance(value, bool):
            return False, None
        if isinstance(value, int) and abs(value) < 10**MAX_INT_DIGITS:
            return True, str(value)
        return isinstance(value, str), value
    if t == "integer":
        if isinstance(value, bool):
            return False, None
        if isinstance(value, int):
            return abs(value) < 10**MAX_INT_DIGITS, value
        if isinstance(value, float) and math.isfinite(value) and value.is_integer():
            return abs(value) < 10**MAX_INT_DIGITS, int(value)
        if isinstance(value, str) and re.fullmatch(r"\s*[+-]?\d{1,40}\s*", value):
            return True, int(value)
        return False, None
    if t == "number":
        if isinstance(value, bool):
            return False, None
        if isinstance(value, int):
            return abs(value) <= MAX_NUMBER, value
        if isinstance(value, float):
            return math.isfinite(value) and abs(value) <= MAX_NUMBER, value
        if isinstance(value, str) and re.fullmatch(r"\s*[+-]?(\d+([.,]\d*)?|[.,]\d+)\s*", value):
            number = float(value.strip().replace(",", "."))
            return abs(number) <= MAX_NUMBER, number
        return False, None
    if t == "boolean":
        if isinstance(value, bool):
            return True, value
        if isinstance(value, str) and value.strip().lower() in ("true", "false"):
            return True, value.strip().lower() == "true"
        return False, None
    if t == "array":
        return isinstance(value, list), value
    return isinstance(value, dict), value


@functools.cache
def _circumstance_rule() -> Callable[..., CircumstanceVerdict]:
    # Built through the registry so a run record lists the rule exactly as other rules are listed.
    rule: Callable[..., CircumstanceVerdict] = registry.build("relevance_rule", "circumstance")
    return rule


def check_arguments(
    schema: UtilitySchema,
    args: Any,
    question: str | None = None,
    lang: str = "en",
) -> tuple[dict[str, Any], Refusal | None, CircumstanceVerdict | None]:
    """Validate ``args`` against ``schema`` (and the question, when given).

    Returns:
        ``(kwargs, refusal, verdict)``: the keyword arguments with defaults filled when every
        check passed (``refusal`` is ``None``), else the refusal; ``verdict`` is the
        circumstance rule's verdict when a question was judged.
    """
    uid = schema.id
    if not isinstance(args, Mapping):
        return (
            {},
            refuse(
                UtilityCode.BAD_ARGUMENT,
                lang,
                utility=uid,
                argument="args",
                expected="a JSON object of arguments",
            ),
            None,
        )
    for name in args:
        if not isinstance(name, str) or schema.argument(name) is None:
            known = ", ".join(a.name for a in schema.arguments) or "(none)"
            return (
                {},
                refuse(
                    UtilityCode.BAD_ARGUMENT,
                    lang,
                    utility=uid,
                    argument=str(name),
                    expected=f"an argument name among: {known}",
                ),
                None,
            )
    kwargs: dict[str, Any] = {}
    for arg in schema.arguments:
        value = args.get(arg.name)
        if value is None:
            if arg.required:
                return (
                    {},
                    refuse(
                        UtilityCode.MISSING_ARGUMENT,
                        lang,
                        utility=uid,
                        argument=arg.name,
                        expected=arg.type,
                        expected_text=_expected(arg, lang),
                    ),
                    None,
                )
            if arg.default is not None:
                kwargs[arg.name] = arg.default
            continue
        over = _over_limit(arg, value)
        if over is not None:
            return {}, _limit_refusal(uid, over, lang), None
        accepted, coerced = _coerce(arg, value)
        if not accepted:
            return (
                {},
                refuse(
                    UtilityCode.BAD_ARGUMENT,
                    lang,
                    utility=uid,
                    argument=arg.name,
                    expected=arg.type,
                    expected_text=_expected(arg, lang),
                ),
                None,
            )
        kwargs[arg.name] = coerced
    verdict = None
    if question is not None:
        roles = {a.name: str(a.role) for a in schema.arguments}
        given = {k: v for k, v in args.items() if v is not None}
        verdict = _circumstance_rule()(question, given, roles)
        if not verdict.passed:
            code = (
                UtilityCode.ARGUMENT_IS_CIRCUMSTANCE
                if verdict.reason == "circumstance"
                else UtilityCode.MISSING_ARGUMENT
            )
            failed = schema.argument(verdict.argument or "")
            return (
                {},
                refuse(
                    code,
                    lang,
                    utility=uid,
                    argument=verdict.argument,
                    expected=failed.type if failed else None,
                    expected_text=_expected(failed, lang),
                    value=verdict.value,
                    kind=verdict.kind,
                    reason=verdict.reason,
                ),
                verdict,
            )
    return kwargs, None, verdict


def _jsonable(value: Any) -> bool:
    try:
        json.dumps(value, allow_nan=False)
    except (TypeError, ValueError):
        return False
    return True


def call_utility(
    utility: Any,
    args: Any = None,
    *,
    question: str | None = None,
    lang: str = "en",
) -> CallOutcome:
    """Check the arguments and call the utility; never raises on JSON-typed input.

    Args:
        utility: The utility id (``hash.sha256``).
        args: The arguments as a JSON object (``None`` means no arguments).
        question: The question the arguments were extracted from; when given, the
            circumstance-versus-data rule judges every ``data`` argument against it.
        lang: ``"en"`` or ``"ru"``: the language of a refusal's text.

    Returns:
        A :class:`CallOutcome` holding the result or the refusal.
    """
    catalog = load_catalog()
    args = {} if args is None else args
    uid = utility if isinstance(utility, str) else repr(utility)
    shown_args = dict(args) if isinstance(args, Mapping) else {"args": args}
    schema = catalog.schemas.get(uid)
    if schema is None:
        category = uid.split(".", 1)[0]
        return CallOutcome(
            uid,
            shown_args,
            refusal=refuse(
                UtilityCode.UNKNOWN_UTILITY,
                lang,
                utility=uid,
                category=category,
                in_category=len(catalog.in_category(category)),
            ),
        )
    kwargs, refusal, verdict = check_arguments(schema, args, question, lang)
    facts = {"circumstance": verdict.to_dict()} if verdict is not None else {}
    if refusal is not None:
        return CallOutcome(uid, shown_args, refusal=refusal, numbers=facts)
    try:
        result = call_within(schema.call_seconds, catalog.functions[uid], **kwargs)
    except LimitExceeded as exc:
        refusal = _limit_refusal(uid, exc, lang)
    except BadArgument as exc:
        refusal = refuse(
            UtilityCode.BAD_ARGUMENT,
            lang,
            utility=uid,
            argument=exc.argument,
            expected=exc.expected,
        )
    except DOMAIN_ERRORS:
        refusal = refuse(
            UtilityCode.BAD_ARGUMENT,
            lang,
            utility=uid,
            argument="args",
            expected="values within the utility's domain",
        )
    else:
        if _jsonable(result):
            return CallOutcome(uid, shown_args, result=result, numbers=facts)
        refusal = refuse(
            UtilityCode.BAD_ARGUMENT,
            lang,
            utility=uid,
            argument="args",
            expected="values whose result is a finite JSON value",
        )
    return CallOutcome(uid, shown_args, refusal=refusal, numbers=facts)
