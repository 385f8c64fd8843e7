"""Every message the FTS layer can put into a refusal, in English and Russian.

The table doubles as test data (one test loops over it): each row names its code, the two
templates, and specifications that must produce exactly this message. Rows without bad inputs
(library tampering, a failing certificate step) are exercised by dedicated tests.
Templates never call a thesis untrue; a test checks every row in both languages.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

_HEAD = "spec t.rate\npremise p26 = vat.rate.standard_2026\npremise p19 = vat.rate.standard_2019\n"
_CASES = ("output rate : percent\n  when d >= 2026-01-01 -> 22 % because p26\n"
          "  otherwise -> 20 % because p19\n")


def _spec(inputs: str = "input d : date\n", extra: str = "",
          cases: str = _CASES, head: str = _HEAD) -> str:
    return head + inputs + cases + extra


_EX = "example: d = 2026-01-01 => 22 %\n"


@dataclass(frozen=True)
class Message:
    """One row of the table."""

    key: str
    """The key problems carry."""
    code: str
    """The gate or fallacy code it belongs to."""
    en: str
    """English template (``str.format`` fields from the problem's params)."""
    ru: str
    """Russian template."""
    bad_inputs: tuple[str, ...] = ()
    """Specification texts that must stop with this key (gate codes) or show it (fallacies)."""


_ROWS: tuple[Message, ...] = (
    # --- E_SYNTAX --------------------------------------------------------------------------
    Message("unexpected_character", "E_SYNTAX",
            "the character {char!r} cannot stand here; expected {expected}",
            "символ {char!r} не может стоять здесь; ожидалось: {expected}",
            ("spec t input d $ date", "spec t.rate\ninput d : date\noutput r : percent\n"
             "  when d >= 2026-01-01 -> 22 ? because p\n")),
    Message("unexpected_token", "E_SYNTAX",
            "{token!r} cannot stand here; expected {expected}",
            "{token!r} не может стоять здесь; ожидалось: {expected}",
            ("spec t input d : date output r : percent when d >= -> 1 %",
             "spec t premise = vat.rate.standard_2026", "input d : date",
             _spec(cases="output rate : percent\n  when -> 22 % because p26\n"))),
    Message("unexpected_end", "E_SYNTAX",
            "the text ends too early; expected {expected}",
            "текст обрывается; ожидалось: {expected}",
            ("spec t input d :", "spec", "", _spec(cases="output rate : percent\n"))),
    Message("bad_date", "E_SYNTAX",
            "{text} is not a calendar date",
            "{text} — не календарная дата",
            (_spec(cases="output rate : percent\n  when d >= 2026-02-30 -> 22 % because p26\n"
                   "  otherwise -> 20 % because p19\n"),)),
    # --- E_STATIC --------------------------------------------------------------------------
    Message("duplicate_name", "E_STATIC",
            "the name {name} is declared twice",
            "имя {name} объявлено дважды",
            (_spec(inputs="input d : date\ninput d : date\n"),
             _spec(head=_HEAD + "premise p26 = vat.rate.standard_2019\n"),
             _spec(inputs="type date = {a, b}\ninput d : date\n"))),
    Message("duplicate_member", "E_STATIC",
            "the type {type} lists {member} twice",
            "тип {type} перечисляет {member} дважды",
            (_spec(inputs="type k = {a, b, a}\ninput d : date\n"),)),
    Message("unknown_type", "E_STATIC",
            "the type {type} is not declared; known types: {known}",
            "тип {type} не объявлен; известные типы: {known}",
            (_spec(inputs="input d : datum\n"), _spec(inputs="input d : date\ninput k : kind\n"))),
    Message("unknown_name", "E_STATIC",
            "the name {name} is not declared",
            "имя {name} не объявлено",
            (_spec(cases="output rate : percent\n  when supply_date >= 2026-01-01 -> 22 % "
                         "because p26\n  otherwise -> 20 % because p19\n"),
             _spec(extra="property: rate = 22 % or x\n"))),
    Message("unknown_member", "E_STATIC",
            "{member} is not a member of {type} ({members})",
            "{member} не входит в тип {type} ({members})",
            (_spec(inputs="type k = {a, b}\ninput d : date\ninput x : k\n",
                   cases="output rate : percent\n  when x = c -> 22 % because p26\n"
                         "  otherwise -> 20 % because p19\n"),
             _spec(inputs="type k = {a, b}\ninput d : date\ninput x : k\n",
                   cases="output rate : percent\n  when x in {a, c} -> 22 % because p26\n"
                         "  otherwise -> 20 % because p19\n"))),
    Message("type_mismatch", "E_STATIC",
            "{left} is compared with {right}",
            "{left} сравнивается с {right}",
            (_spec(cases="output rate : percent\n  when d = yes -> 22 % because p26\n"
                         "  otherwise -> 20 % because p19\n"),)),
    Message("unit_mismatch", "E_STATIC",
            "units differ: {left} {op} {right}",
            "единицы не совпадают: {left} {op} {right}",
            (_spec(inputs="input d : date\ninput m : money\n",
                   cases="output rate : percent\n  when m >= 22 % -> 22 % because p26\n"
                         "  otherwise -> 20 % because p19\n"),
             _spec(extra="property: rate >= 100 rub\n"))),
    Message("arithmetic_units", "E_STATIC",
            "cannot compute {left} {op} {right}",
            "нельзя вычислить {left} {op} {right}",
            (_spec(inputs="input d : date\ninput m : money\n"
                          "define x : money = m + 1 %\n"),
             _spec(cases="output rate : percent\n  when d >= 2026-01-01 -> 22 % + 1 rub "
                         "because p26\n  otherwise -> 20 % because p19\n"))),
    Message("not_boolean", "E_STATIC",
            "a yes/no value is needed here, found {found}",
            "здесь нужно значение да/нет, найдено {found}",
            (_spec(cases="output rate : percent\n  when not d -> 22 % because p26\n"
                         "  otherwise -> 20 % because p19\n"),)),
    Message("set_on_non_enum", "E_STATIC",
            "a set of members applies to an enumeration, found {found}",
            "набор значений применим к перечислению, найдено {found}",
            (_spec(cases="output rate : percent\n  when d in {a} -> 22 % because p26\n"
                         "  otherwise -> 20 % because p19\n"),)),
    Message("unordered_comparison", "E_STATIC",
            "{op} does not apply to {type}",
            "{op} не применимо к {type}",
            (_spec(inputs="input d : date\ninput b : bool\n",
                   cases="output rate : percent\n  when b < yes -> 22 % because p26\n"
                         "  otherwise -> 20 % because p19\n"),)),
    Message("type_mismatch_declared", "E_STATIC",
            "{name} is declared {expected} but computes {found}",
            "{name} объявлено как {expected}, а вычисляется {found}",
            (_spec(extra="define x : bool = d\n"),)),
    Message("type_mismatch_result", "E_STATIC",
            "case {case} concludes {found}, the output {name} is {expected}",
            "случай {case} даёт {found}, а вывод {name} имеет тип {expected}",
            (_spec(cases="output rate : percent\n  when d >= 2026-01-01 -> 22 rub because p26\n"
                         "  otherwise -> 20 % because p19\n"),)),
    Message("not_boolean_guard", "E_STATIC",
            "the condition of case {case} is {found}, not yes/no",
            "условие случая {case} имеет тип {found}, а не да/нет",
            (_spec(cases="output rate : percent\n  when d -> 22 % because p26\n"
                         "  otherwise -> 20 % because p19\n"),)),
    Message("not_boolean_property", "E_STATIC",
            "the property {property} is {found}, not yes/no",
            "свойство {property} имеет тип {found}, а не да/нет",
            (_spec(extra="property: rate\n"),)),
    Message("output_count", "E_STATIC",
            "a specification concludes exactly one output; found {count}",
            "спецификация выводит ровно один результат; найдено {count}",
            (_spec(cases=""), _spec(extra="output other : percent\n  otherwise -> 1 % "
                                          "because p26\n"))),
    Message("output_used_early", "E_STATIC",
            "the output {name} is used before it is concluded (only properties may use it)",
            "вывод {name} используется до того, как получен (его используют только свойства)",
            (_spec(extra="define x : bool = rate = 22 %\n"),)),
    Message("definition_cycle", "E_STATIC",
            "definitions depend on each other in a circle: {cycle}",
            "определения зависят друг от друга по кругу: {cycle}",
            (_spec(extra="define a : bool = b\ndefine b : bool = a\n"),)),
    Message("otherwise_not_last", "E_STATIC",
            "case {case} follows otherwise and can never apply",
            "случай {case} стоит после otherwise и никогда не применится",
            (_spec(cases="output rate : percent\n  otherwise -> 20 % because p19\n"
                         "  when d >= 2026-01-01 -> 22 % because p26\n"),)),
    Message("no_premise_cited", "E_STATIC",
            "case {case} cites no premise (a conclusion needs a library entry after because)",
            "случай {case} не ссылается ни на одну посылку (после because нужна запись библиотеки)",
            (_spec(cases="output rate : percent\n  when d >= 2026-01-01 -> 22 %\n"
                         "  otherwise -> 20 % because p19\n"),)),
    Message("unknown_premise_alias", "E_STATIC",
            "case {case} cites {alias}, which no premise declares (declared: {known})",
            "случай {case} ссылается на {alias}, но такой посылки нет (объявлены: {known})",
            (_spec(cases="output rate : percent\n  when d >= 2026-01-01 -> 22 % because p2026\n"
                         "  otherwise -> 20 % because p19\n"),)),
    Message("example_unknown_input", "E_STATIC",
            "{example} sets {name}, which is not an input (inputs: {inputs})",
            "{example} задаёт {name}, но это не вход (входы: {inputs})",
            (_spec(extra="example: d = 2026-01-01, x = 1 => 22 %\n"),)),
    Message("example_duplicate_input", "E_STATIC",
            "{example} sets {name} twice",
            "{example} задаёт {name} дважды",
            (_spec(extra="example: d = 2026-01-01, d = 2026-01-02 => 22 %\n"),)),
    Message("example_missing_input", "E_STATIC",
            "{example} does not set the input {name}",
            "{example} не задаёт вход {name}",
            (_spec(inputs="input d : date\ninput m : money\n", extra=_EX),)),
    Message("example_value_type", "E_STATIC",
            "{example}: {name} must be {expected}, found {found}",
            "{example}: {name} должно иметь тип {expected}, найдено {found}",
            (_spec(extra="example: d = 100 rub => 22 %\n"),
             _spec(extra="example: d = 2026-01-01 => 22 rub\n"))),
    # --- E_PREMISE -------------------------------------------------------------------------
    Message("premise_unknown", "E_PREMISE",
            "premise {premise} names {entry}, which the library does not hold",
            "посылка {premise} ссылается на {entry}, которой нет в библиотеке",
            (_spec(head=_HEAD.replace("vat.rate.standard_2019", "vat.rate.standard_2019x")),)),
    Message("premise_status", "E_PREMISE",
            "premise {premise} ({entry}) has the status {status} (reviewer: {reviewer}, "
            "{date}); only verified and derived entries may be premises",
            "посылка {premise} ({entry}) имеет статус {status} (проверяющий: {reviewer}, "
            "{date}); посылкой может быть только проверенная или выведенная запись",
            (_spec(head=_HEAD.replace("vat.rate.standard_2019", "vat.rate.by_contract_date")),
             _spec(head=_HEAD + "premise h = vat.rate.hotel_zero\n"))),
    Message("premise_version", "E_PREMISE",
            "premise {premise} wants version {wanted} of {entry}; the library holds {found}",
            "посылка {premise} требует версию {wanted} записи {entry}; в библиотеке версия {found}",
            (_spec(head=_HEAD.replace("standard_2019\n", "standard_2019 @ 2\n")),)),
    Message("premise_signature", "E_PREMISE",
            "premise {premise} ({entry}) types {name} as {library_type}, the specification "
            "as {spec_type}",
            "посылка {premise} ({entry}) задаёт {name} тип {library_type}, а спецификация — "
            "{spec_type}",
            (_spec(inputs="input d : date\ninput supply_date : number\n"),)),
    # --- E_EXAMPLE -------------------------------------------------------------------------
    Message("example_differs", "E_EXAMPLE",
            "{example} expects {expected}, the specification gives {actual} (case {case})",
            "{example} ожидает {expected}, спецификация даёт {actual} (случай {case})",
            (_spec(extra="example: d = 2025-12-31 => 22 %\n"),
             _spec(extra="boundary \"new year\": d = 2026-01-01 => 20 %\n"))),
    Message("example_no_case", "E_EXAMPLE",
            "{example}: no case applies to these inputs",
            "{example}: ни один случай не применим к этим входам",
            (_spec(cases="output rate : percent\n  when d >= 2026-01-01 -> 22 % because p26\n",
                   extra="example: d = 2025-01-01 => 20 %\n"),)),
    Message("example_error", "E_EXAMPLE",
            "{example} cannot be evaluated: {reason}",
            "{example} не вычисляется: {reason}",
            (_spec(cases="output rate : percent\n  when d >= 2026-01-01 -> 22 % / 0 because p26\n"
                         "  otherwise -> 20 % because p19\n", extra=_EX),)),
    Message("property_fails", "E_EXAMPLE",
            "the property {property} does not hold at {point} ({points} points checked)",
            "свойство {property} не выполняется в точке {point} (проверено точек: {points})",
            (_spec(extra="property \"always 22\": rate = 22 %\n"),
             _spec(extra="property: d < 2026-01-01 implies rate = 22 %\n"))),
    Message("property_error", "E_EXAMPLE",
            "the property {property} cannot be evaluated at {point}: {reason}",
            "свойство {property} не вычисляется в точке {point}: {reason}",
            (_spec(cases="output rate : percent\n  when d >= 2026-01-01 -> 22 % because p26\n",
                   extra="property: rate = 22 %\n"),)),
    # --- E_CERTIFICATE, E_RECHECK ------------------------------------------------------------
    Message("certificate_failed", "E_CERTIFICATE",
            "the certificate could not be generated: {reason}",
            "сертификат не удалось выпустить: {reason}"),
    Message("recheck_differs", "E_RECHECK",
            "the re-checker does not agree on {field}: certified {certified}, recomputed "
            "{recomputed}",
            "перепроверка не согласна в поле {field}: в сертификате {certified}, пересчитано "
            "{recomputed}"),
    # --- E_LIBRARY -------------------------------------------------------------------------
    Message("library_unreadable", "E_LIBRARY",
            "the library cannot be read: {reason}",
            "библиотеку не удаётся прочитать: {reason}"),
    Message("library_entry_digest", "E_LIBRARY",
            "entry {entry} has the stored digest {stored}, its content gives {computed}",
            "у записи {entry} записан дайджест {stored}, а содержимое даёт {computed}"),
    Message("library_digest", "E_LIBRARY",
            "the manifest holds the library digest {stored}, the {entries} entries give "
            "{computed}",
            "в манифесте записан дайджест библиотеки {stored}, а {entries} записей дают "
            "{computed}"),
    Message("library_composition", "E_LIBRARY",
            "derived entry {entry} does not type-check as a composition: {reason}",
            "выведенная запись {entry} не проходит проверку типов композиции: {reason}"),
    Message("library_review_missing", "E_LIBRARY",
            "entry {entry} lacks {field} of its review",
            "у записи {entry} нет поля проверки: {field}"),
    Message("library_status", "E_LIBRARY",
            "entry {entry} has the unknown status {status}",
            "у записи {entry} неизвестный статус {status}"),
    Message("library_duplicate", "E_LIBRARY",
            "the id {entry} occurs in more than one entry file",
            "идентификатор {entry} встречается в нескольких файлах"),
    # --- E_UNFORESEEN ----------------------------------------------------------------------
    Message("unforeseen", "E_UNFORESEEN",
            "an unforeseen condition stopped the check during {step}: {reason}",
            "проверку остановило непредвиденное условие на шаге {step}: {reason}"),
    # --- fallacies -------------------------------------------------------------------------
    Message("circular_definition", "F_CIRCULAR",
            "definitions rest on themselves: {cycle}",
            "определения опираются сами на себя: {cycle}",
            (_spec(extra="define a : bool = b\ndefine b : bool = a\n"),)),
    Message("circular_thesis", "F_CIRCULAR",
            "the thesis {entry} is among its own foundations via premise {premise}: {chain}",
            "тезис {entry} входит в собственные основания через посылку {premise}: {chain}",
            ("spec t.goods establishes vat.rate.reduced_10\n"
             "type goods_category = {food, children, periodicals, medical, other}\n"
             "premise c = vat.rate.by_goods_category\n"
             "input goods_category : goods_category\noutput rate : percent\n"
             "  when goods_category != other -> 10 % because c\n"
             "  otherwise -> 22 % because c\n"
             "example: goods_category = food => 10 %\n",)),
    Message("converse", "F_CONVERSE",
            "case {case} takes {conclusion}, the conclusion of premise {premise} ({entry}), as "
            "a condition to reach {condition}, one of that premise's conditions",
            "случай {case} берёт {conclusion} — вывод посылки {premise} ({entry}) — как условие, "
            "чтобы получить {condition}, одно из условий этой посылки",
            ("spec t.reverse\npremise z = vat.rate.zero_export\n"
             "input rate : percent\noutput zero_rate_confirmed : bool\n"
             "  when rate = 0 % -> yes because z\n  otherwise -> no because z\n"
             "example: rate = 0 % => yes\n",)),
    Message("uncovered", "F_UNCOVERED_BRANCH",
            "no case applies at {point} ({cases} cases, {points} domain points)",
            "ни один случай не применим в точке {point} (случаев: {cases}, точек: {points})",
            (_spec(cases="output rate : percent\n  when d >= 2026-01-01 -> 22 % because p26\n"
                         "  when d < 2025-01-01 -> 20 % because p19\n",
                   extra=_EX + "example: d = 2024-12-31 => 20 %\n"),)),
    Message("boundary", "F_BOUNDARY",
            "{name} {op} {threshold}: no example or boundary declaration puts {name} exactly at "
            "{threshold}",
            "{name} {op} {threshold}: ни пример, ни объявление boundary не ставит {name} ровно "
            "на {threshold}",
            (_spec(extra="example: d = 2026-03-01 => 22 %\n"),)),
    Message("name_conflation", "F_NAME_CONFLATION",
            "{name} names {thing} and also {statement}",
            "имя {name} обозначает и вещь ({thing}), и утверждение ({statement})",
            ("spec t.kind\ntype supply_kind = {domestic, export}\n"
             "premise e = vat.rate.export_confirmed\npremise s = vat.rate.standard_2026\n"
             "input supply_kind : supply_kind\ninput export : bool\noutput rate : percent\n"
             "  when supply_kind = export and export -> 0 % because e\n"
             "  otherwise -> 22 % because s\n"
             "example: supply_kind = export, export = yes => 0 %\n",)),
    Message("overlapping", "F_OVERLAPPING_CASES",
            "cases {case} and {other_case} both apply at {point} and conclude {first} and {second}",
            "случаи {case} и {other_case} оба применимы в точке {point} и дают {first} и {second}",
            (_spec(cases="output rate : percent\n  when d >= 2026-01-01 -> 22 % because p26\n"
                         "  when d >= 2019-01-01 -> 20 % because p19\n  otherwise -> 18 % "
                         "because p19\n", extra=_EX + "example: d = 2019-01-01 => 20 %\n"),)),
    Message("vacuous_unrelated", "F_VACUOUS_PROPERTY",
            "the property {property} never mentions the output {name}, so it shows nothing "
            "about the conclusion",
            "свойство {property} не упоминает вывод {name} и ничего не показывает о выводе",
            (_spec(extra=_EX + "property: d >= 2026-01-01 or d < 2026-01-01\n"),)),
    Message("vacuous_condition", "F_VACUOUS_PROPERTY",
            "the condition of property {property} holds at none of {points} domain points",
            "условие свойства {property} не выполняется ни в одной из {points} точек области",
            (_spec(extra=_EX + "property: d >= 2026-01-01 and d < 2026-01-01 implies "
                               "rate = 18 %\n"),)),
    Message("dangling_premise", "F_DANGLING_PREMISE",
            "premise {premise} ({entry}) supports no case",
            "посылка {premise} ({entry}) не поддерживает ни одного случая",
            (_spec(head=_HEAD + "premise r = vat.rate.reduced_10\n", extra=_EX),)),
)

MESSAGES: Mapping[str, Message] = {row.key: row for row in _ROWS}
"""Message key -> row."""


def render_message(key: str, params: Mapping[str, Any], lang: str = "en") -> str:
    """The message ``key`` in ``lang`` (``en`` or ``ru``) filled with ``params``."""
    row = MESSAGES[key]
    template = row.ru if lang == "ru" else row.en
    values = {k: (", ".join(map(str, v)) if isinstance(v, list | tuple) else v)
              for k, v in params.items()}
    try:
        return template.format(**values)
    except (KeyError, IndexError, ValueError):
        return template + " " + ", ".join(f"{k}={v}" for k, v in sorted(values.items()))


__all__ = ["MESSAGES", "Message", "render_message"]
