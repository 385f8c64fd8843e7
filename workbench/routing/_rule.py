"""The rule router: a deterministic keyword/pattern baseline, the floor every model must beat.

It is deliberately simple. A utility is chosen by keyword tables (triggers derived from each
utility id plus hand-written Russian and English synonyms). Every argument is bound to a span of
the question and passes through a declared normaliser (:mod:`._normalise`): quoted/backticked
literals and the text after a colon, numbers in digits or words, dates, IP addresses, and enum
words (charsets, time zones, units, the ``choices`` of a schema); the decision keeps each span in
``arg_spans``, so no value can come out that is not the normalisation of the user's words. A
question that carries the data of two utilities of different categories is refused
(``SEVERAL_REQUESTS``). VAT-rule questions go to the specification that :func:`choose_spec` reads
from the spec's cue words and the inputs the question settles; a chosen spec with an input left
open is refused with ``MISSING_ARGUMENT`` naming the input; other course-subject questions go to
``quote``; a chosen utility whose required argument has no value
is refused with ``MISSING_ARGUMENT``, anything else with ``OUT_OF_SCOPE``.
"""

from __future__ import annotations

import functools
import re
from typing import Any

from workbench.config import project_root
from workbench.fts import PREMISE_STATUSES, Library, load_library
from workbench.refusal import Refusal
from workbench.registry import router
from workbench.relevance import (
    CIRCUMSTANCE_PATTERNS,
    GENERIC_WORDS,
    OPENING_QUOTES,
    blank_literals,
    circumstance_spans,
    first_colon,
    question_literal_spans,
    question_literals,
)
from workbench.retrieval import lemma, morphology
from workbench.routing._normalise import (
    BASE_ARGS,
    CODE_ARGUMENTS,
    DEGREE_WORDS,
    DURATION_ARGS,
    ArgSpan,
    NormaliseError,
    base_spans,
    date_spans,
    duration_unit_after,
    month_spans,
    normalise,
    normalise_date,
    number_spans,
    percent_spans,
    period_spans,
    place_spans,
    range_start_spans,
    synonym_file,
    time_first_spans,
    unit_letter_spans,
    vocabularies,
    vocabulary_for,
)
from workbench.routing._records import RouterDecision, Source
from workbench.routing._rule_data import triggers
from workbench.routing._spec_inputs import (
    SpecEvidence,
    asks_reason,
    choose_spec,
    open_spec_inputs,
    spec_cues,
)
from workbench.utilities import DIGIT_COUNTS, Argument, UtilitySchema, call_utility, load_catalog, unit_codes

SYNONYMS: dict[str, tuple[str, ...]] = triggers()
"""The words that name each utility, by utility id (``triggers`` of ``synonyms.yaml``)."""

DECODING_PAIRS: tuple[tuple[str, str], ...] = (
    ("encoding.base64_encode", "encoding.base64_decode"),
    ("encoding.base32_encode", "encoding.base32_decode"),
    ("encoding.hex_encode", "encoding.hex_decode"),
    ("encoding.url_encode", "encoding.url_decode"),
    ("encoding.punycode_encode", "encoding.punycode_decode"),
)
"""An encoder and its decoder: where a decoding verb stands anywhere in the question ("Decode the
Base64 blob …", or asks what a string holds: «Что там закодировано?»), the decoder scores above
whatever the encoder's words scored."""
DECODING_VERB = re.compile(r"(?<!\w)(?:decod|декодир|раскодир|turn\s+(?:it\s+|this\s+|that\s+)?back\s+into"
                           r"|что\s+(?:\w+\s+){0,2}закодирован|what(?:['’]s|\s+is|\s+was)\s+(?:\w+\s+){0,2}encoded)",
                           re.IGNORECASE)
_TARGET = re.compile(r"(?<!\w)(?:to|into|as|в|во)\s+(?:an?\s+|the\s+|формат\s+)?([a-z][a-z0-9]*)(?!\w)")
"""The format a conversion is asked into: "hue 45 … to RGB", «rgb(255, 165, 0) в HSL»."""


def conversion_targets(question: str) -> set[str]:
    """The formats ``question`` asks a conversion into (:data:`_TARGET`): {"hsl"} for "… to HSL"."""
    return {m[1] for m in _TARGET.finditer(question.lower())}


def conversion_direction(uid: str, targets: set[str]) -> int:
    """Which way ``targets`` (:func:`conversion_targets`) read the conversion ``uid`` (``x_to_y``).

    1 where they name its target y and not its source x, -1 where they name x and not y (the
    question asks the other way round), 0 otherwise and for a utility that converts nothing.
    """
    source, to, target = uid.partition(".")[2].partition("_to_")
    if to and target in targets and source not in targets:
        return 1
    if to and source in targets and target not in targets:
        return -1
    return 0


TARGET_SCORE = 4
"""What naming a conversion's target adds to a utility ``x_to_y`` that scores already and whose
source the question names too, and what naming its source as the target takes away (at least 1
stays)."""

ROMAN_NUMERAL = r"M{0,4}(?:CM|CD|D?C{0,3})(?:XC|XL|L?X{0,3})(?:IX|IV|V?I{0,3})"
"""A Roman numeral from I to MMMMCMXCIX in capitals (and the empty string: callers require a letter)."""

_COLOUR_DIGITS = r"(?:[0-9A-Fa-f]{6}|[0-9A-Fa-f]{3})"
_HEX_COLOUR = re.compile(rf"#{_COLOUR_DIGITS}|(?=\d*[A-Fa-f]){_COLOUR_DIGITS}")
"""A hex colour: with its «#», or without it where a letter shows it is hex ("0f0"; not "100")."""
DATA_ALPHABETS: dict[str, re.Pattern[str]] = {
    "encoding.base32_decode": re.compile(r"[A-Za-z2-7]+=*"),
    "encoding.base64_decode": re.compile(r"[A-Za-z0-9+/]+={0,2}"),
    # percent-encoded text holds no space: "%D0%9A%D1%81 what does it say?" is the value and a question
    "encoding.url_decode": re.compile(r"\S+"),
    "encoding.hex_decode": re.compile(r"[0-9A-Fa-f]{2}(?:[\s:]?[0-9A-Fa-f]{2})*"),
    "encoding.punycode_decode": re.compile(r"[A-Za-z0-9.-]*xn--[A-Za-z0-9.-]*", re.IGNORECASE),
    # a domain is one word with a dot: «пример.рф», not the name of a shop
    "encoding.punycode_encode": re.compile(r"[^\s.]+(?:\.[^\s.]+)+"),
    # an IBAN opens with its country's two letters and two check digits, in groups of four or not
    "id.validate_iban": re.compile(r"[A-Za-z]{2}\d{2}(?: ?[A-Za-z0-9]{1,4})+"),
    # six bytes of hex, with or without separators: not "IPv6", which a MAC request may name, nor
    # the text after a ticket's own colon ("Ticket #4471: … MAC from the sticker is A4-5E-…")
    # a number in a base holds no space: «задание 3: перевести 101101 …» is a task, not its number
    "number.convert_base": re.compile(r"[-+]?(?:0[xXbBoO])?[0-9A-Za-z]+"),
    # a CSV holds its fields' separator or its lines: "43" of "43 trucks" is no table
    "format.csv_to_json": re.compile(r"(?s).*[,;\t|\n].*"),
    "net.mac_normalize": re.compile(r"(?:[0-9A-Fa-f]{2}[-:.]?){5}[0-9A-Fa-f]{2}"
                                    r"|[0-9A-Fa-f]{4}\.[0-9A-Fa-f]{4}\.[0-9A-Fa-f]{4}"),
    # a hex colour: in "grey text #767676 on a #ffffff background" the two colours are the data
    "color.hex_to_rgb": _HEX_COLOUR,
    "color.contrast_ratio": _HEX_COLOUR,
}
"""The letters a utility's data is written in: a span outside them is not its data («радуга» is no
Base32, «Продукты у дома» no domain), so a decoder chosen for a word to encode binds nothing."""

_ANY_COLOUR = rf"(?<![\w&])#{_COLOUR_DIGITS}(?!\w)"
_SURE_COLOUR = r"(?<![\w&])#(?:[0-9A-Fa-f]{6}|(?=\d*[A-Fa-f])[0-9A-Fa-f]{3})(?!\w)"  # six, or a letter
_IANA_ZONE = (r"(?<![\w/])(?:Africa|America|Antarctica|Asia|Atlantic|Australia|Europe|Indian|Pacific)"
              r"/[A-Za-z_]+(?:/[A-Za-z_]+)?(?![\w/])")
_IANA_ZONE_RE = re.compile(_IANA_ZONE)
_CSV_FIELDS = r"[^\n,;{}\[\]:]+(?:[,;][^\n,;{}\[\]:]*)+"
_CSV_LINES = re.compile(rf"(?m)^{_CSV_FIELDS}\n{_CSV_FIELDS}$")
_MOJIBAKE_1251 = (r"[РС][\u0400-\u045F\u0490\u0491\u00A0-\u00BF\u2013-\u2022\u2026\u2030\u2039"
                  r"\u203A\u20AC\u2116\u2122]")
"""One letter of UTF-8 Cyrillic read as windows-1251: a capital Р or С and the byte after it."""
_MOJIBAKE_1252 = (r"[ÐÑ][\u0080-\u00BF\u0152\u0153\u0160\u0161\u0178\u017D\u017E\u0192\u02C6\u02DC"
                  r"\u2013-\u2022\u2026\u2030\u2039\u203A\u20AC\u2122]")
"""The same read as latin-1 or windows-1252: Ð or Ñ and the byte after it."""
DATA_SHAPES: dict[str, re.Pattern[str]] = {
    # two lines in a row of fields parted by commas or semicolons, no brace or colon in them: a table
    "format.csv_to_json": _CSV_LINES, "format.csv_to_markdown": _CSV_LINES,
    # a Roman numeral of two letters or more, written in capitals: MCMLXXXIV, XIV
    "number.from_roman": re.compile(rf"(?<![\w])(?=[MDCLXVI]{{2,}}(?![\w])){ROMAN_NUMERAL}(?![\w])"),
    # an internationalised domain label in its ASCII form
    "encoding.punycode_decode": re.compile(r"(?<![\w-])xn--[a-z0-9-]+", re.IGNORECASE),
    # a colour written as hsl(h, s, l): only the HSL-to-RGB conversion takes one
    "color.hsl_to_rgb": re.compile(r"(?<![\w])hsl\(\s*\d", re.IGNORECASE),
    # a MAC address: six pairs of hex digits joined by one separator, or three groups of four
    # joined by dots (AA-BB-CC-11-22-33, aa:bb:cc:11:22:33, aabb.cc11.2233); an IPv6 address has
    # eight groups or a "::", so it never takes this shape
    "net.mac_normalize": re.compile(
        r"(?<![\w:.-])(?:[0-9A-Fa-f]{2}([-:])(?:[0-9A-Fa-f]{2}\1){4}[0-9A-Fa-f]{2}"
        r"|[0-9A-Fa-f]{4}\.[0-9A-Fa-f]{4}\.[0-9A-Fa-f]{4})(?![\w:-]|\.\w)"),
    # an IPv6 address written out in full, eight groups of four hex digits: only the compression
    # has anything to do with it (2a02:06b8:0000:0000:0000:0000:0000:0feb)
    "net.ipv6_compress": re.compile(r"(?<![\w:])[0-9A-Fa-f]{4}(?::[0-9A-Fa-f]{4}){7}(?![\w:])"),
    # an IPv4 address and, after it, a network in CIDR form: only the membership test takes both
    "net.ip_in_network": re.compile(r"(?<![\w.])\d{1,3}(?:\.\d{1,3}){3}(?![\w./])[^\n]*?"
                                    r"(?<![\w.])\d{1,3}(?:\.\d{1,3}){3}/\d{1,2}(?!\d)"),
    # two percent-encoded bytes or more in a row: %D0%BA
    "encoding.url_decode": re.compile(r"(?:%[0-9A-Fa-f]{2}){2,}"),
    # two hex colours, each with its «#» («#222222 on #eeeeee»): only the contrast of a foreground
    # with a background takes two colours; one of them has six digits or a hex letter, so that
    # "issue #123 and #456" are no colours
    "color.contrast_ratio": re.compile(rf"{_SURE_COLOUR}[^\n]*?{_ANY_COLOUR}"
                                       rf"|{_ANY_COLOUR}[^\n]*?{_SURE_COLOUR}"),
    # Base64 with its padding: eight letters or more of both cases, closed by «=» or «==»
    # ("dGhhbmtzIGZvciB0aGUgaGVscCE="); Base32 writes capitals only
    "encoding.base64_decode": re.compile(r"(?<![\w+/=])(?=[A-Za-z0-9+/]*[a-z])(?=[A-Za-z0-9+/]*[A-Z])"
                                         r"[A-Za-z0-9+/]{8,}={1,2}(?![\w+/=])"),
    # a temperature by its unit's letter and the unit asked into ("350 F for the oven. What's that
    # in C?", «−40 F в C»): only the temperature conversion takes the bare letters F, C and K
    "units.temperature": re.compile(
        rf"(?<![\w.,])[-−]?\d+(?:[.,]\d+)?\s?(?:°|{DEGREE_WORDS}\s)?\s?[FCK](?![\w°])[^\n]*?(?<![\w])"
        r"(?:in|to|into|в)\s+"
        r"(?:°?[FCK](?![\w°])|celsius|fahrenheit|kelvin|цельси|фаренгейт|кельвин)", re.IGNORECASE),
    # an IBAN: two capital letters of its country, two check digits, then groups of four
    "id.validate_iban": re.compile(r"(?<![\w])[A-Z]{2}\d{2}(?: ?[A-Z0-9]{4}){3,7}(?: ?[A-Z0-9]{1,3})?"
                                   r"(?![\w])"),
    # a name in camelCase ("maxUpstreamRetries"): only the change of case takes one (the word
    # "camelCase" is its mode, and one span is never two values)
    "text.change_case": re.compile(r"(?<![\w-])[a-z]{2,}(?:[A-Z][a-z0-9]+)+(?![\w-])"),
    # two time zones by their IANA names: only a conversion from one zone to another takes two
    "date.convert_timezone": re.compile(rf"{_IANA_ZONE}[^\n]*?{_IANA_ZONE}"),
    # a percent of a number: «15% от 3 400», "12.5% of 640" (VAT is added "to" an amount)
    "number.percent_of": re.compile(r"(?<![\w.,])\d+(?:[.,]\d+)?\s?%\s+(?:of|от)\s+(?:the\s+)?\d"),
    # UTF-8 Cyrillic read as windows-1251: every other letter a capital Р or С («РЎРїР°СЃ»)
    # (the second letter of a pair is what windows-1251 gives bytes 80-BF: Cyrillic or a sign)
    # and read as latin-1 or windows-1252: every other letter Ð or Ñ («Ð¡ÐµÑ€Ð³ÐµÐ¹»)
    # (a short word of pairs after a run is the same text: «РЎРїР°СЃРёР±Рѕ Р·Р° Р·Р°РєР°Р·», «за»)
    "charset.fix_mojibake": re.compile(
        rf"(?:{_MOJIBAKE_1251}){{3,}}(?:[ \t](?:{_MOJIBAKE_1251})+(?![^\s.,;:!?]))*"
        rf"|(?:{_MOJIBAKE_1252}){{3,}}(?:[ \t](?:{_MOJIBAKE_1252})+(?![^\s.,;:!?]))*"),
}
"""Data whose shape only one utility takes: a question holding it scores for that utility as a
trigger of :data:`SHAPE_SCORE` letters would, wherever its words are."""
SHAPE_SCORE = 8

def holds_shape(uid: str, question: str) -> bool:
    """Whether ``question`` holds data of the shape only ``uid`` takes (:data:`DATA_SHAPES`).

    Not where every match is one word of a quoted text that has plain words besides: the "CI" of
    "a slug for «Ten Tips for Faster CI Pipelines»" is a word of the title, which is the data, not
    a Roman numeral. A quoted text all of whose words touch a match (a mojibake name, a
    percent-encoded run) still holds the shape.
    """
    shape = DATA_SHAPES.get(uid)
    if shape is None:
        return False
    matches = [m.span() for m in shape.finditer(question)]
    if not matches:
        return False
    literals = [(s, e) for s, e in question_literal_spans(question) if _opens_quote(question, s)]
    for start, end in matches:
        inside = [(s, e) for s, e in literals if s <= start and end <= e and (s, e) != (start, end)]
        if not inside:
            return True
        s, e = inside[0]
        words = [(s + w.start(), s + w.end()) for w in re.finditer(r"\S+", question[s:e])]
        if all(_overlaps(word, matches) for word in words if re.search(r"[^\W\d_]", question[slice(*word)])):
            return True
    return False

CHARSETS = ("windows-1251", "cp1251", "koi8-r", "cp866", "utf-8", "utf-16", "latin-1", "iso-8859-5",
            "gb2312", "gbk", "gb18030", "big5", "shift_jis", "euc-kr")
COURSE_WORDS = ("unicode", "юникод", "utf", "json", "csv", "xml", "ipv", "iso", "unix", "base32",
                "base64", "crc", "снилс", "инн", "кпп", "iban", "бик", "огрн", "snils", "inn", "kpp",
                "bik", "ogrn", "индекс", "postcode", "фиас", "isbn", "ean", "barcode", "штрихкод",
                "штрих-код",
                "fias", "rfc", "високосн", "leap", "bom", "ндс", "vat", "адрес", "счёт", "account",
                "сортировк", "ёж", "form-encoded", "entities", "праздник", "кодировк", "encoding")
OUT_WORDS = ("погод", "weather", "курс", "биткоин", "bitcoin", "акци", "stock",
             "стоит", "worth", "фильм", "стихотворени", "poem")


def _word_starts(words: tuple[str, ...]) -> re.Pattern[str]:
    """Any of ``words`` where a word begins.

    So «стоит» is not found in «состоит», nor «акци» in «транзакции», nor «ёж» in «платёж».
    """
    return re.compile(r"(?<!\w)(?:" + "|".join(map(re.escape, words)) + ")")


_COURSE = _word_starts(COURSE_WORDS)
_OUT = _word_starts(OUT_WORDS)

DATE_ARGS = frozenset({"date", "start", "end", "birth_date", "on_date", "datetime"})
"""Arguments bound to a date span."""
PERCENT_ARGS = frozenset({"rate", "percent", "annual_rate"})
"""Arguments bound to the number before a percent sign."""
TAIL_ARGS = frozenset({"text", "data"})
"""String data arguments that may take the one word after a cue such as «строки» or "word"."""

# a token with a digit in it; the "=" that pads Base64 ("aGk=") ends it where it ends a word, and a
# semicolon or a bar between two words joins them («PAT-55812;2025-10-01;CBC;OK»,
# "booking58213|2025-07-14|412" are one record)
_TOKEN_CHAR = r"(?:[\w\-:./@]|[;|](?=\w))"
_TOKEN = re.compile(rf"(?<![\w#@])#?[\w]{_TOKEN_CHAR}*\d{_TOKEN_CHAR}*(?:={{1,6}}(?![\w=]))?"
                    r"|#[0-9a-fA-F]{3,8}\b")
_BETWEEN = re.compile(r"(?<!\w)(?:between|между|are)\s+([^\s«»\"'`,;]+)\s+(?:and|и)\s+([^\s«»\"'`,;]+?)"
                      r"(?:[.?!]*\s*$|(?=\?)|(?=\s+(?:in|by|по)\s))", re.IGNORECASE)
"""Two unquoted words compared at the end of a question or before the measure: "the edit distance
between recieve and receive", "How far apart are recieve_payment and receive_payment in
Levenshtein distance?", «расстояние Левенштейна между кот и кит»."""
PAIR_ARGS = ("a", "b")
_DOMAIN = re.compile(r"(?<![\w.@/-])[\w-]+(?:\.[\w-]+)*\.[^\W\d_]{2,}(?![\w.-])")
"""A domain name: words joined by dots, the last of two letters or more («пример.рф», "bücher.de")."""
_NUMERO = re.compile(r"(?:№|(?<!\w)No\.|(?<!\w)nr\.|(?<!\w)(?:ticket|order|issue|invoice|case|заказ\w*"
                     r"|тикет\w*|заявк\w*|сч[её]т\w*|обращени\w*)\s*#)\s*$", re.IGNORECASE)
"""The sign that makes the number after it a name: «счёт № 118», "invoice No. 42", "ticket #5521"."""
_CLOCK = re.compile(r"(?<![\w:.])(?:[01]?\d|2[0-3]):[0-5]\d(?::[0-5]\d)?(?![\w:])")
"""A time of day («переслал на почту в 14:20», "around 02:15"): when a thing happened, no value."""
_RECORD_NOUN = re.compile(r"(?<!\w)(?:тикет\w*|ticket|line|port|порт[аеу]?|vlan|commit|коммит\w*"
                          r"|page|стр\.|страниц[аеуы]|clause|пункт\w*|п\.|section|раздел\w*|полис\w*|policy"
                          r"|карт[аеуы]|медкарт\w*|silo|силос\w*|wagon|вагон\w*|truck|sample|проб[аеуы]|batch"
                          r"|парти[яиюе]|gate|bay|брон[ьиеяю]\w*|booking|reservation|id|item|полос[аеуы]"
                          r"|наряд\w*|work\s+order|заказ\w*|order|читател\w*|reader|фонд\w*|полк[аиеу]"
                          r"|shelf|инв\.|inv\.|inventory|шифр\w*|лицев\w*(?:\s+сч[её]т\w*)?|(?-i:ЛС)|account"
                          r"|абитуриент\w*|applicant|блок\w*|block|комн\.|заявлени\w*|групп\w*)\s*$",
                          re.IGNORECASE)
"""A noun that numbers a record or a part of one: "line 8812", «тикет 4471», "port 22", "clause 2.1",
«по наряду 1204», «заказ 880», «Читатель 004512», «с полки 12-Б»,
«полис 0012-55-778», «карта 7781» (a patient's card: a bank card's number, of 12 digits or more, is
data, :data:`_CARD_DIGITS`)."""
_CARD_DIGITS = re.compile(r"(?:\d[ -]?){12}")
"""A bank card's number: twelve digits or more, in groups or not."""
_PHONE = re.compile(r"(?<![\w+])\+\d[\d\s()-]{7,}\d(?!\d)|(?<![\w+])8\s?\(\d{3,5}\)\s?\d[\d-]{4,8}\d(?!\d)")
"""A phone number with its country's code or a long-distance 8 («Тел. +7 343 200-15-15», «8 (843)
212-45-67»): no utility reads one, so no part of it is a value."""
_SCHOOL_CLASS = re.compile(r"(?<![\w-])(?:[1-9]|1[01])\s?[А-ЯЁ](?![\w-])"
                           r"|(?:\(|(?<!\w)(?:of|from|with|for|in|class|form|group|grade)\s)((?:[1-9]|1[01])[A-Z])(?![\w-])"
                           r"|(?<![\w-])((?:[1-9]|1[01])[A-Z])(?=\)|\s+(?:group|class|pupils)(?!\w))")
"""A school's class: «10А», «8 Б», and "9A" (a hex number's shape too) only in brackets, after "of",
"from", "with", "for", "in", "class", "form", "group" or "grade", or before "group": which pupils,
no value (the class is the match's group where a word before it is matched)."""
_ROOM_AFTER = re.compile(r"(?<![\w.,])\d{1,4}(?=\s*-?(?:м|й)?\s+(?:кабинет|аудитори)\w*)")
"""A room's number before its noun («в 304 кабинете»): a place, no value."""
_HEADCOUNT = re.compile(r"(?<![\w.,])\d{1,4}(?=\s*(?:персон\w*|человек\w*|гост(?:ей|я|ям)|взросл\w*"
                        r"|дет(?:ей|и)|pax|adults?|guests?|people|persons|rooms?|номер(?:ов|а))(?!\w))",
                        re.IGNORECASE)
"""A count of people or rooms («банкет на 35 персон», "14 pax, 7 rooms"): who comes, no value."""
_EXPIRY = re.compile(r"(?<!\w)(?:expiry|expires|exp\.?|valid\s+thru|срок\s+действия|действует\s+до)\s*:?\s*"
                     r"((?:0[1-9]|1[0-2])/\d\d)(?![\d/])", re.IGNORECASE)
"""A card's expiry («expiry 09/27»): a month and a year, no number of the card (the match's group)."""
_PLATE_LETTER = "[АВЕКМНОРСТУХABEKMHOPCTYX]"
_PLATE = re.compile(rf"(?<!\w){_PLATE_LETTER}\s?\d{{3}}\s?{_PLATE_LETTER}{{2}}\s?\d{{2,3}}(?!\w)")
"""A Russian vehicle's plate, in Cyrillic or in the Latin letters of the same shape («Е 901 ТН 23»,
"M 512 OP 93"): a truck's name, no value."""
_DOCUMENT_NUMBER = re.compile(r"(?<![\w/])\d{1,6}/(?:19|20)\d\d(?![\w/])")
"""A number over a year is a document's («к договору 77/2025»): neither part is a quantity."""
ADDRESS_WITH_FLATS = frozenset({"address.format_ru", "address.parse_ru", "address.normalize_ru"})
"""The utilities that read a flat's or a house's number as a part of the address they work on; for
the others («Проверь индекс: начинается на 636, комната 305») a place's number is no value."""
_PLACE_NOUN = re.compile(r"(?<!\w)(?:кв\.?|квартир\w*|flat|apt\.?|apartment|дом[ауе]?|д\.|house|офис\w*"
                         r"|office|room|комнат\w*|этаж\w*|floor|каб\.?|кабинет\w*"
                         r"|(?:гост[ьяюе]\w*|guest)\s+(?:в|из|in|from)|зал[аеу]|hall|бокс[аеу]?)\s*$",
                         re.IGNORECASE)
"""The same for a place: «кв. 48», "flat 112", «дом 5» (parts of an address to the address utilities),
a guest's room («гость в 507», «гостя из 415»), a hall («зала 3», not «Зал 240 м²», an area) and a
service's bay («в боксе 3»)."""
_TIME_COUNT = re.compile(r"\s*(?:минут\w*|мин\.|час(?:а|ов)?|секунд\w*|сек\.|дн(?:я|ей)|день|суток|недел\w*"
                         r"|месяц\w*|мес\.?|год(?:а|у)?|лет|years?|months?|weeks?|days?|hours?|minutes?|mins?"
                         r"|seconds?|secs?)(?!\w)", re.IGNORECASE)
"""A unit of time after a number: «3 года», "20 minutes" count time, no amount or identifier."""
_THROUGH = re.compile(r"(?<!\w)через\s+$", re.IGNORECASE)
"""«минут через 20»: the number after «через» is a span of time too."""


_DAY_MONTH = re.compile(r"(?:0[1-9]|[12]\d|3[01])\.(?:0[1-9]|1[0-2])")
_DATE_PREPOSITION = re.compile(r"(?<!\w)(?:от|с|со|до|по|на|к|from|on|until|by)\s+$", re.IGNORECASE)
"""«расписка от 21.03»: a day and a month after a preposition of time are a date, no number."""
_CLOCK_AFTER = re.compile(r",?\s+(?:(?:в|at)\s+)?" + _CLOCK.pattern, re.IGNORECASE)


def _day_and_month(question: str, start: int, end: int) -> bool:
    """Whether ``question[start:end]`` is a day and a month («21.03»), no number or identifier.

    It stands after a preposition of time («от 21.03») or before a time of day («к кардиологу
    14.10 в 10:30»).
    """
    return _DAY_MONTH.fullmatch(question, start, end) is not None and bool(
        _DATE_PREPOSITION.search(question, max(0, start - 8), start) or _CLOCK_AFTER.match(question, end))


_HOST = re.compile(r"[a-z][a-z0-9]*(?:-[a-z0-9]+){2,}")
_HOST_PLACE = re.compile(r"(?<!\w)(?:on|at|of|from|host|server|на|с|хост\w*|сервер\w*)\s+$", re.IGNORECASE)
"""A host's name where a thing sits or runs ("on web-fra-03", "port 3 of olt-nsk-2"): the name of
a machine, not its data."""


_PARTS_AFTER = re.compile(r"[\s-]*(?:hex\s+)?(?:digits?|characters?|chars?|letters?|символ\w*|знак\w*|цифр\w*"
                          r"|букв\w*)(?!\w)", re.IGNORECASE)
"""The parts a number counts when it stands before them ("12 hex digits", «16 цифр»): no quantity."""


_BOUND_WORDS = (r"under|below|over|above|less\s+than|more\s+than|at\s+most|at\s+least|не\s+более|не\s+менее"
                r"|меньше|больше")
_BOUND = re.compile(rf"(?<!\w)(?:{_BOUND_WORDS})\s+$", re.IGNORECASE)
"""A bound on a value ("somewhere under 80", «не более 50»): where the value lies, not the value."""


_GRADE = re.compile(r"\s*(?:кл\.|класс\w*|сорт\w*|grade|class)(?!\w)", re.IGNORECASE)
"""A number before a grade's noun («пшеница 4 кл.», "grade 3" written after) names the grade."""


_DEGREES_AFTER = re.compile(rf"\s?(?:°|{DEGREE_WORDS}(?!\w))", re.IGNORECASE)


def _unit_starts(question: str, accepted: frozenset[str] | set[str] | None = None) -> list[int]:
    """Where the units of measure ``question`` names begin (of the ``accepted`` codes, if given)."""
    return [start for start, end in vocabularies()["unit"].spans(question)
            if accepted is None or ArgSpan(start, end, "enum:unit").value(question) in accepted]


def _written_in_unit(question: str, end: int, units: list[int]) -> bool:
    """Whether one of the units beginning at ``units`` is written right after a value ending at ``end``."""
    return any(ADJACENT_GAP.match(question[end:u]) for u in units if u >= end)


def _measured(question: str, span: tuple[int, int]) -> bool:
    """Whether a unit of measure follows the number at ``span`` («72 градуса», "5 km"): a measure."""
    return (_DEGREES_AFTER.match(question, span[1]) is not None
            or _written_in_unit(question, span[1], _unit_starts(question)))


def _no_quantity(question: str, span: tuple[int, int], name: str) -> bool:
    """Whether the number at ``span`` is no value of argument ``name``, though a number.

    «3 года», «через 20» count time (left to an argument that counts time, or a year), «12 hex
    digits» counts the data's parts (the places of a rounding are its own), "under 80" bounds it,
    and a year is no measure («72 градуса по Фаренгейту … високосный ли 2032 год»).
    """
    return ((name != "year" and _counts_time(question, span))
            or (name == "year" and _measured(question, span))
            or _GRADE.match(question, span[1]) is not None
            or (name != "digits" and _PARTS_AFTER.match(question, span[1]) is not None)
            or _BOUND.search(question, max(0, span[0] - 14), span[0]) is not None)


def _counts_time(question: str, span: tuple[int, int]) -> bool:
    """Whether the number at ``span`` counts a span of time (:data:`_TIME_COUNT`, :data:`_THROUGH`).

    Four digits before «год» or "year" name a year of the calendar («2025 год»), no count.
    """
    unit = _TIME_COUNT.match(question, span[1])
    if unit and re.fullmatch(r"[12]\d{3}", question[span[0]:span[1]]) and re.match(
            r"\s*(?:год|year)", unit[0], re.IGNORECASE):
        return False
    return bool(unit or _THROUGH.search(question, max(0, span[0] - 8), span[0]))


_LINE_NUMBER = re.compile(r"(?<!\w)строк[аеи]\s*$", re.IGNORECASE)
"""«строка 12044,» numbers a line of a file where a comma or a bracket closes the number; «хеш строки
12345» hashes the string."""


def _numbered(question: str, start: int, place: bool) -> bool:
    """Whether the value at ``start`` names a thing, no quantity or data of its own.

    It stands after a numbering sign («№», "ticket #", :data:`_NUMERO`), after a record's noun
    (:data:`_RECORD_NOUN`, :data:`_LINE_NUMBER`) or, with ``place``, after a place's.
    """
    head = max(0, start - 24)
    record = _RECORD_NOUN.search(question, head, start)
    if record and record[0].lower().startswith(("карт", "медкарт")) and _CARD_DIGITS.match(question, start):
        record = None
    return bool(_NUMERO.search(question, head, start) or record
                or (_LINE_NUMBER.search(question, head, start) and re.match(r"\d+\s*[,;)]", question[start:]))
                or (place and _PLACE_NOUN.search(question, head, start)))


_COUNTED = re.compile(r"(?:\s+|-)(?:(?:hex|hexadecimal|шестнадцатеричн\w*)\s+)?"
                      r"(?:символ|знак|значн|цифр|букв|байт|бит|слов|строк|страниц|character|char|digit|letter|byte|bit|word|line|page|kb|mb|kib|mib"
                      r"|кб|мб|килобайт|мегабайт)", re.IGNORECASE)
"""A noun or adjective after a number that makes it a count of the data's parts: «пароль из 12
символов», «12-значный ИНН», "a 10-digit INN" give the data's size, not the data."""


_COUNTED_BEFORE = re.compile(r"(?<!\w)(?:символ|знак|цифр|букв|character|digit|letter)\w*\s*[:=]?\s*$",
                             re.IGNORECASE)
"""The same nouns right before the number: «символов 80», "characters: 80"."""


def _opens_quote(question: str, start: int) -> bool:
    """Whether an opening quote mark stands right before ``start`` (a quoted literal begins there)."""
    return question[start - 1:start] in OPENING_QUOTES


def _quoted_text(question: str, span: tuple[int, int]) -> bool:
    """Whether ``span`` is a quoted text of two sentences or more: a text, whatever figures it holds.

    'give me the stats: "The collection comprises 214 letters … Most were acquired …"' quotes the
    abstract; the count in it is a part of it, not a description of it.
    """
    return _opens_quote(question, span[0]) and _SENTENCE_END.search(
        question, span[0], span[1]) is not None


def _counts_within(question: str, start: int, end: int) -> bool:
    """Whether a token of ``question[start:end]`` counts the data's parts (:func:`_counts_parts`)."""
    return _COUNT_IN_WORDS.search(question, start, end) is not None or any(
        _counts_parts(question, m.start(), m[0]) for m in _COUNT.finditer(question, start, end))


_COUNT_IN_WORDS = re.compile(
    r"(?<!\w)(?:одно|двух|тр[её]х|четыр[её]х|пяти|шести|семи|восьми|девяти|десяти|одиннадцати|двенадцати"
    r"|тринадцати|четырнадцати|пятнадцати|шестнадцати|двадцати)значн\w*"
    r"|(?<!\w)(?:символ|знак|цифр|букв|байт|слов|строк)\w*\s+(?:по\s+\d+|(?:на|под|около)\s+[а-яё]{3,})"
    r"|(?<!\w)(?:около|примерно|приблизительно)\s+[а-яё]{3,}\s+(?:символ|знак|цифр|букв|байт)\w*"
    r"|(?<!\w)(?:about|around|roughly)\s+[a-z]{3,}\s+(?:characters|chars|digits|letters|bytes)(?!\w)"
    r"|(?<!\w)(?:one|two|three|four|five|six|seven|eight|nine|ten|eleven|twelve|thirteen|sixteen|twenty)"
    r"-(?:digit|character|char|letter)(?!\w)"
    r"|(?<!\w)(?:two|three|four|five|six|seven|eight|nine|ten)\s+(?:lines|sentences|paragraphs)(?!\w)"
    r"|(?<!\w)(?:две|три|четыре|пять|шесть|семь|восемь|девять|десять)\s+(?:строк|предложени|абзац)\w*"
    r"|(?<!\w)(?:примерно|около|приблизительно|почти)\s+(?:на\s+)?(?:пол\s*)?(?:страниц|лист|абзац)\w*"
    r"|(?<!\w)(?:about|around|roughly|almost)\s+(?:a|one|half\s+a)\s+(?:page|paragraph)s?(?!\w)",
    re.IGNORECASE)
"""A rough count in words of the data's parts: «строка символов на сорок», "about forty characters",
"three lines", «примерно на страницу» (a text's lines or pages counted, where it is not written)."""
_STANDS_IN = re.compile(r"(?:он|она|оно|они|it|it's|they|they're)(?!\w)", re.IGNORECASE)
"""A pronoun that opens a text in place of the value it describes: «он в Казани», "it has 12 digits"."""
_COUNT = re.compile(r"(?<![\w.,])\d+(?:-[^\W\d_]+)?")
"""A count written in digits, alone or joined to its noun ("10-digit")."""


def _counts_parts(question: str, start: int, text: str) -> bool:
    """Whether the token ``text`` at ``start`` is a count of the data's parts (:data:`_COUNTED`).

    Digits alone with the noun after them («12 символов»), or joined to it by a hyphen ("10-digit"),
    or the noun right before them («символов 80»).
    """
    digits = re.match(r"\d+", text)
    return digits is not None and text[digits.end():digits.end() + 1] in {"", "-"} and bool(
        _COUNTED.match(question, start + digits.end()) or _COUNTED_BEFORE.search(question, 0, start))
_FEW = r"(?:\d{1,2}|one|two|three|four|five|six|одн[аи]|две|два|три|четыре|пять|шесть)"
_PART_OF_VALUE = re.compile(r"(?<![\w])(?:start(?:s|ing)?|begin(?:s|ning)?|end(?:s|ing)?|opens?|closes?)"
                            r"\s+(?:with|in)\s+[«\"'`“„]?$|(?<![\w])beginning\s+[«\"'`“„]?$"
                            r"|(?<![\w])(?:начина|заканчива|оканчива|конча)\w*\s+(?:на|с|со)\s+[«\"'`“„]?$"
                            rf"|(?<![\w])(?:first|last|final)\s+{_FEW}(?:\s+(?:digits?|characters?|letters?))?"
                            r"\s*(?:are|is|[—–:-])?\s*$"
                            rf"|(?<![\w])(?:перв|последн)\w*\s+{_FEW}(?:\s+(?:цифр|знак|символ|букв)\w*)?"
                            r"\s*(?:[—–:-]\s*)?$"
                            r"|(?<![\w])(?:перв|последн)\w*\s*[—–:-]?\s*$|(?<![\w])starts?\s+$"
                            r"|(?<![\w])(?:в\s+конце|at\s+the\s+end)\s*[—–:-]?\s*$"
                            r"|(?<![\w])(?:контрольн\w+\s+(?:число|цифр\w*|разряд\w*)|check\s+digits?)\s*[—–:-]?\s*$",
                            re.IGNORECASE)
"""What a value starts or ends with is a part of it ("starts with 460", «начинается на 16», "the
last two digits are 37", «последние две — 37»), no value."""
_STANDARD_NAME = re.compile(r"(?<![\w])(?:гост|gost|iso|rfc|ieee)\s*(?:р\s*)?$", re.IGNORECASE)
"""The number after a standard's name is its number («ГОСТ 7.79», "ISO 8601", "RFC 4122"), no data."""
_CONTAINER = re.compile(r"(?<!\w)(?:папк\w*|folder|файл\w*|file|лист\w*|sheet|канал\w*|channel|чат\w*|chat)"
                        r"\s*$", re.IGNORECASE)
"""A quoted name after a folder, a file or a channel («в папке «Сделки»») names where data is kept."""
_FILE_NAME = re.compile(r"[\w-]+\.(?:pdf|docx?|xlsx?|pptx?|odt|ods|rtf|txt|zip|rar|7z|tar|gz|png|jpe?g|gif"
                        r"|svg|mp[34]|avi|mov|wav|exe|iso|bin|log)", re.IGNORECASE)
"""The name of a file: a request about «файл report2024.pdf» names the file, its content is not
in the question."""
_CODE_PREFIX = re.compile(r"(?<![\w])(?!(?:USD|EUR|RUB|RUR|CNY|KZT|GBP|BYN|UAH|CHF|JPY|PLN)\s)"
                          r"[A-Z]{2,4}\s?$")
"""Capitals before a long number make it an identifier: a container «TGHU 7730415», a plate "WGM
48213" (a currency's code before an amount does not)."""
_FULL_NAME = re.compile(r"(?<![\w-])[А-ЯЁ][а-яё]+(?:-[А-ЯЁ][а-яё]+)?\s+[А-ЯЁ][а-яё]+\s+[А-ЯЁ][а-яё]+"
                        r"(?:вич|вна|ична|инична)(?![\w-])")
"""A Russian full name: surname, given name and patronymic («Шарафутдинов Рустем Ильдарович»)."""


def _name_only(question: str, span: tuple[int, int]) -> tuple[int, int]:
    """``span`` cut to the full name it opens with (:data:`_FULL_NAME`), where a comma or a bracket follows.

    What comes after the name is a remark about the person («, 8А. Мама ждёт к 16:00.»).
    """
    name = _FULL_NAME.match(question, span[0], span[1])
    if name is not None and re.match(r"\s*[,(]", question[name.end():span[1]]):
        return span[0], name.end()
    return span


ONE_SENTENCE_DATA = frozenset({"text.transliterate", "text.slugify", "encoding.url_encode"})
"""Utilities whose data is a name, a title or a file's name: one sentence, no remark in brackets."""


def _one_sentence(question: str, span: tuple[int, int]) -> tuple[int, int]:
    """``span`` cut after its first sentence where that holds no digit and the rest holds one.

    «…ICAO: Жанибеков Ерлан Сейтжанович. Номер 305, заезд в 14:00.», «slug: Кремль закроют на
    реставрацию. Материал id 40877»: the sentences with figures after a name or a title are
    remarks about the booking or the page, no part of it.

    A remark in brackets with a figure at the end of an unquoted tail is cut as well: «Замена ремня
    ГРМ (цену 6 500 в адрес не надо).», «Письма_1834.pdf (скан 36 стр.)»; a quoted title keeps its
    brackets ("Ten Tips for Faster CI Pipelines (2025 Edition)").
    """
    stop = _SENTENCE_END.search(question, span[0], span[1])
    if stop is not None and not re.search(r"\d", question[span[0]:stop.start()]) and re.search(
            r"\d", question[stop.end():span[1]]):
        return span[0], stop.start()
    remark = _BRACKETED_REMARK.search(question, span[0], span[1])
    if remark is not None and remark.start() > span[0] and not _opens_quote(question, span[0]):
        return span[0], remark.start()
    return span


_BRACKETED_REMARK = re.compile(r"\s+\([^()]*\d[^()]*\)[.!]?$")
"""A remark in brackets holding a figure, closing a span: «(скан 36 стр.)»."""


_SINCE_YEAR = re.compile(r"(?<!\w)(?:since|с|со|начиная\s+с)\s+(?:19|20)\d\d$", re.IGNORECASE)
"""A year after "since" or «с» ends here: where a count starts, no quantity of its own."""
_CURRENCY_AFTER = re.compile(r"\s*(?:руб\w*|р\.|₽|rub\b|rur\b|eur\b|euros?\b|€|usd\b|\$|dollars?\b"
                             r"|тенге|kzt\b|cny\b|юан\w*)", re.IGNORECASE)
"""A currency right after a number: the number is a sum of money, no identifier."""
_IN_YEAR = re.compile(r"(?<!\w)(?:in|в)\s+(?:19|20)\d\d$", re.IGNORECASE)
"""A year after "in" («в») beside the figures of a change: when each was counted ("18 420 in 2023 and
21 305 in 2024"), no figure of its own."""
_UP_TO = re.compile(r"(?<!\w)(?:up\s+to|until|till|до)\s+(?:the\s+)?$", re.IGNORECASE)
"""The words before a date that end a span of time: "up to 2025-05-19", «до 19.05.2025»."""
_DAY_GAP = re.compile(r"\s+(?:of\s+)?", re.IGNORECASE)
"""What stands between the day of a date and its month's name: «1 мая», "12 of May"."""
_FORM_RUN = re.compile(r"(?<![^\s«»\"'<>`(])[^\s«»\"'<>`=&]+=[^\s«»\"'<>`&]*"
                       r"(?:&[^\s«»\"'<>`=&]+=[^\s«»\"'<>`&]*)+")
"""A run of form-encoded pairs without spaces (``amount=4500&order=A-1187``): one value."""
_GLUE = frozenset("=&/?+")
"""Characters that join a token to its neighbours in a longer run (a query string, a path)."""
# whole values that contain a space: a run of hex bytes «cf f0 e8», a SNILS «112-233-445 95», a
# card number in groups of four «4111 1111 1111 1111», an IBAN in groups of four "GB82 WEST 1234 …"
_SPACED_TOKEN = re.compile(r"(?<![\w-])(?:(?=[0-9a-fA-F ]*\d)[0-9a-fA-F]{2}(?: [0-9a-fA-F]{2})+"
                           r"|\d{3}-\d{3}-\d{3}[ -]\d{2}|\d{4}(?: \d{4}){2,4}"
                           r"|[A-Z]{2}\d{2}(?: [A-Z0-9]{4}){2,7}(?: [A-Z0-9]{1,3})?)(?![\w-])")
# a JSON object (one level of nesting) or array written inline
_JSON_BLOCK = re.compile(r"\{[^{}]*(?:\{[^{}]*\}[^{}]*)*\}|\[[^\[\]{}]*\]")
_URL = re.compile(r"(?<![\w])(?:https?|ftp)://[^\s«»\"'<>`]+", re.IGNORECASE)
"""A URL with its path, query and fragment; the punctuation that ends a sentence is not part of it."""
_PERCENT_RUN = re.compile(r"[^\s«»\"'<>`]*(?:%[0-9A-Fa-f]{2}){2,}[^\s«»\"'<>`]*")
"""A run without spaces that holds percent-encoded bytes (``%D0%BA%D0%BE``): one value."""
_IPV6 = re.compile(r"(?<![\w:.])[0-9A-Fa-f]{0,4}(?::[0-9A-Fa-f]{0,4}){2,7}(?![\w:])")
_ROMAN = re.compile(rf"(?<![\w-])(?=[IVXLCDM]){ROMAN_NUMERAL}(?![\w-])")
_QUOTE_MARKS = " \t«»\"'`“”„"
# «в строке «…»», "in the string '…'": the literal that follows names the text searched
_TEXT_CUE = re.compile(r"(?:строк[аеиу]|текст[аеу]?|слов[аеоу]|string|text|word|\bin|(?<!\w)в)\W{0,3}$",
                       re.IGNORECASE)
_ADDRESS_CUE = re.compile(r"(?:адрес\w*|address)(?:\s+[^\s:]+){0,2}\s*:\s*$", re.IGNORECASE)
"""The noun of an address and the colon that introduces it («адрес на части:», "address:")."""
ADJACENT_GAP = re.compile(r"^[\s(\[°]{0,3}$")
"""What may stand between a value and the unit or zone it is written in («5,5 дюймах», "09:00 (UTC)")."""
DIRECTED_PAIRS = (("from_unit", "to_unit"), ("from_tz", "to_tz"))
"""Argument pairs whose *from* member is the one written right after the value."""
_CYRILLIC = re.compile(r"[а-яё]", re.IGNORECASE)
_IP = re.compile(r"\b\d{1,3}(?:\.\d{1,3}){3}(?:/\d{1,2})?\b")
# what may follow an unquoted value that ends the question: a polite word, a dash and a second
# clause («MD5 от admin — какой он?») or a comma and a clause of condition or reason («слова
# электрификация, если поле принимает 32?»), then closing marks
_TAIL_END = (r"(?:\s*,?\s*(?:пожалуйста|please)|\s+[—–-]\s+[^\n]*"
             r"|\s*,\s*(?:если|когда|чтобы|потому|так\s+как|if|when|because|since|so\s+that)(?!\w)[^\n]*)?"
             r"[\s?.!]*$")
_CUE_NOUN = (r"строк[аиуе]?|слов[аоуе]?|текст[аеу]?|фраз[аыуе]|токен[аеу]?|фамили[юяи]"
             r"|string|word|text|token|phrase|surname")
"""The nouns that name the data written right after them: «слова кот», "the string hello"."""
# "of the string hello", «от строки привет», "the word banana, please": one word after a cue
# "the surname Щербаков by GOST": one circumstance named after the word («по ГОСТ», "in UTF-8") ends
# it too, and so does the English verb of a size ("does the string naïve take in UTF-8?")
_TAIL = re.compile(rf"(?<!\w)(?:{_CUE_NOUN})\s+([^\s«»\"'`,]+?)"
                   r"(?:\s+(?:take|takes|use|uses|need|needs|occupy|occupies)(?:\s+up)?)?"
                   r"(?:\s+(?:по|в|во|in|by|using|with)\s+(?:" + "|".join(CIRCUMSTANCE_PATTERNS.values())
                   + r"))?" + _TAIL_END, re.IGNORECASE)
# "for the name example.org in the DNS namespace", «для имени пример.рф»: the one word after
# the noun "name", anywhere in the question (the name a UUID is made from)
_NAMED = re.compile(r"(?<!\w)(?:name|имени|имя)\s+([^\s«»\"'`,;]+)", re.IGNORECASE)
# «от фразы добрый вечер», "the phrase good morning?": a phrase or a sentence is several words,
# the rest of the question (its question mark left out)
_PHRASE_TAIL = re.compile(r"(?<!\w)(?:фраз[аыуе]|предложени[еяю]|текст[аеу]?|phrase|sentence|text)\s+"
                          r"([^\s«»\"'`:][^«»\"'`:\n]*?)[\s?]*$", re.IGNORECASE)
# "the blake2b digest of hello?", «MD5 от admin»: one word after the utility's own name
_DIGEST_NOUN = r"(?:[\s-]+(?:digest|hash|checksum|sum|code|хеш|хэш|дайджест|сумм[аы]))?"
_OF = r"\s+(?:of|for|от|для)\s+"
# the width of an indent: a count of spaces ("4-space indent", «в 2 пробела»), or a number written
# right after the word ("indent of 4", «отступ 3»)
_INDENT = re.compile(r"(?<![\w.,])(\d{1,2})[\s-]*(?:spaces?|пробел\w*)(?!\w)"
                     r"|(?<!\w)(?:indent\w*|отступ\w*)\s*(?:of\s+|в\s+|=\s*|:\s*)?(\d{1,2})(?![\w.,])",
                     re.IGNORECASE)
# "Turn Hello into Base32", "Convert My Project Name to kebab case": the words between an order
# that opens the question and "into"/"to"/«в», where the utility's name or an enum word follows
_ORDER = re.compile(r"^\s*(?:please\s+)?(?:turn|convert|change|make|encode|transform|rewrite|"
                    r"переведи|преврати|сделай|конвертируй|закодируй|приведи|перепиши)\s+",
                    re.IGNORECASE)
_DATA_NOUN = re.compile(rf"(?:the\s+)?(?:{_CUE_NOUN})\s+", re.IGNORECASE)
"""A noun that names the data written after it, where it opens the data: «фамилию Щука», "the word Hello"."""
_INTO = re.compile(r"\s+(?:into|to|в|во|к)\s+(?:the\s+)?", re.IGNORECASE)
POINTING_WORDS = frozenset({"выше", "ниже", "этой", "этого", "этот", "эту", "моего", "моей", "мой",
                            "его", "её", "above", "below", "this", "that", "it", "mine", "my"})
"""Words that point at data instead of being data: never bound as a value."""
OWNER_WORDS = re.compile(
    r"(?<!\w)(?:(?:мо|тво)(?:[йяеёию]|его|ей|ему|им|их|ём|ем)|(?:наш|ваш)(?:[аеиу]|его|ей|ему|им|их|ем)?"
    r"|my|our|your|his|her|their|the\s+(?:[^\W\d_]+\s+)?[^\W\d_]+(?:'s|’s|s'))(?!\w)",
    re.IGNORECASE)
"""Possessives: a request about *my* card, *his* invoice, *the supplier's* IBAN or *the new hire's*
form points at data someone has and the question does not give."""
ELSEWHERE_WORDS = re.compile(
    r"(?<!\w)(?:above|attached|выше|вложени[еия]|прикрепл[её]нн\w*|приложен\w*|указан\w*"
    r"|(?:I|you|we|they|he|she)\s+(?:sent|pasted|shared|forwarded|uploaded|showed|put|saved|mentioned)"
    r"|скинул\w*|скидывал\w*|прислал\w*|присылал\w*|переслал\w*|пересланн\w*"
    r"|(?:в|из)\s+(?:прошл|предыдущ|прежн)\w*\s+(?:заказ|письм|сообщени|счет|счёт|раз)\w*"
    r"|(?:my|our|the|your)\s+(?:previous|last|earlier)\s+(?:message|email|order|invoice|ticket)s?"
    r"|printed\s+on\s+(?:the|a|an|its|their|our)|напечатан\w*\s+на"
    # where it sits, or that the asker has not got it at hand
    r"|(?:it's|it\s+is|they're|they\s+are)\s+(?:sitting\s+|somewhere\s+|still\s+)?(?:in|on)\s+"
    r"(?:the|a|an|ticket|her|his|their|our|my)|somewhere\s+in\s+(?:the|our|my|her|his|their)"
    r"|(?:don't|do\s+not|doesn't|does\s+not)\s+have\s+(?:it|them|that|the\s+\w+)\s+(?:handy|to\s+hand|on\s+me)"
    r"|dig\s+(?:(?:it|them|the\s+\w+(?:\s+\w+)?)\s+)?out|(?:haven't|didn't|did\s+not|have\s+not)\s+"
    r"(?:copied|written\s+down|noted\s+down)"
    r"|(?:возьми|возьмите|бери|берите|глянь|гляньте)\s+(?:\w+\s+)?(?:из|в|во)"
    r"|не\s+(?:переписал|записал|скопировал|сохранил)\w*|(?:нет\s+под\s+рукой|под\s+рукой\s+нет)"
    # a file on a drive or in a folder, a scan, and data someone will give later
    r"|лежит\s+(?:на|в|во|у)|в\s+папк\w+|(?:on|in)\s+the\s+shared\s+(?:drive|folder)|в\s+скан\w*"
    r"|in\s+the\s+scan|продиктует|will\s+dictate|I'll\s+(?:paste|send)|(?:paste|send)\s+it\s+later"
    r"|(?:скину|скинет|пришлю|пришлёт|пришлет|скажу|сообщу|назову)\s+(?:\w+\s+){0,2}?(?:позже|потом|после\s+\w+)"
    r"|на\s+оборот\w*|в\s+(?:квитанци\w*|выписк\w*|анкет\w*|карточк\w*|1с|1c|описи)|(?:in|from)\s+1c"
    r"|(?:in|on)\s+the\s+portal|на\s+портал\w*|in\s+(?:my|the|our)\s+mailbox"
    r"|в\s+сам(?:ом|ой)\s+\w+|записан\w*\s+(?:в|у)"
    # a record kept in a system: a hotel's, a site's, a news agency's
    r"|on\s+file|(?:in|on)\s+the\s+(?:wire|pms|cms|crm)|(?:в|из)\s+(?:cms|crm|pms|црм)"
    # a photo, a mailbox, a logbook, another computer, a memory that fails, a sum to come
    r"|на\s+фото\w*|(?:in|on)\s+the\s+photo|(?:у\s+\w+\s+)?в\s+почте|не\s+помн\w*|(?:don't|do\s+not|can't)\s+remember"
    r"|(?:is|are)\s+(?:still\s+)?(?:in|on)\s+the\s+(?:\w+\s+)?(?:log\s?book|journal|ledger|pc|computer|laptop|desktop)"
    r"|(?:don't|do\s+not)\s+want\s+to\s+paste|будет\s+после|I'll\s+forward|in\s+(?:my|the|her|his)\s+inbox"
    r")(?!\w)",
    re.IGNORECASE)
"""Words that place the data somewhere the question is not: "the JSON in the ticket above",
«файл лежит на общем диске», «ИНН в скане», «Гульнара продиктует», "I'll paste it later",
«договор во вложении», «дата, указанная в приказе», "the log I pasted", "the file I put on the
shared drive", «адрес, который я скидывал в чат», «тот же, что в прошлом заказе», "the number
from my previous message", "it's sitting in ticket #5521", "somewhere in the brandbook", "I'll dig
out the log line later", «итог возьми из самой накладной», «цифры я не переписал»."""


def points_at_data_elsewhere(question: str) -> bool:
    """Whether ``question`` points at data it does not hold.

    The data is the asker's own (:data:`OWNER_WORDS`) or placed elsewhere (:data:`ELSEWHERE_WORDS`).
    """
    return bool(OWNER_WORDS.search(question) or ELSEWHERE_WORDS.search(question))


def _points_at_own_data(question: str, missing: list[Argument]) -> bool:
    """Whether a request that lacks ``missing`` points at data of the asker's own it does not give.

    A possessive («мой», "our") is in the question and a required *data* argument is missing:
    "Is the INN on our invoice valid?" names an INN it does not write, where "How many digits
    does an INN have?" asks about INNs in general.
    """
    return any(a.role.value == "data" for a in missing) and points_at_data_elsewhere(question)


DEIXIS = re.compile(
    r"(?<!\w)(?:я|мне|меня|мной|этот|эта|эту|эти|этого|этой|этому|этим|этих|этом|сейчас|сегодня"
    r"|i|me|i'm|it|this|these|those|now|today)(?!\w)", re.IGNORECASE)
"""Words that point at the asker, at a thing in front of them or at the present moment: "Which ISO
week is it in?" asks about a date it does not give."""


def names_charset_of_data(question: str, schema: UtilitySchema) -> bool:
    """Whether ``question`` names the charset of a text while ``schema`` is no charset utility.

    «Какой SHA-256 у файла, выгруженного в кодировке windows-1251?»: a noun names the text
    (:data:`_SAVED_DATA`), and without the text the charset it was saved in describes the data a
    hash or an encoder needs and gives none of it (a hash reads the charset only to encode a text
    it is given). The charset family works on the charset itself: "How many bytes does a letter
    take in UTF-16?" names what it measures.
    """
    return schema.category != "charset" and _SAVED_DATA.search(question) is not None and names_charset(
        question)


def describes_data(question: str) -> bool:
    """Whether ``question`` describes a value by its parts.

    How many it has («он 12-значный», "13 digits"), or what it starts or ends with ("starts with
    460", «начинается на 16»). Where the value itself is missing, such words name circumstances
    of the data, not the data.
    """
    return _COUNT_IN_WORDS.search(question) is not None or any(
        _part_of_value(question, m.start(), m[0].rstrip(".?"))
        for m in [*_TOKEN.finditer(question), *_COUNT.finditer(question)])


def _part_of_value(question: str, start: int, text: str) -> bool:
    """Whether the token ``text`` at ``start`` is a part of a value, no value of its own.

    It counts the value's parts (:func:`_counts_parts`) or is what the value starts or ends with
    (:data:`_PART_OF_VALUE`).
    """
    return _counts_parts(question, start, text) or _PART_OF_VALUE.search(
        question, max(0, start - 20), start) is not None


def names_charset(question: str) -> bool:
    """Whether ``question`` names a charset (a circumstance of the kind ``charset``)."""
    return any(kind == "charset" for _, _, kind in circumstance_spans(question))


_SAVED_DATA = re.compile(r"(?<!\w)(?:текст\w*|строк\w*|файл\w*|сообщени\w*|фраз\w*|имя|имени|слов[аоуе]?"
                         r"|texts?|strings?|files?|messages?|lines?|names?|words?|phrases?)(?!\w)",
                         re.IGNORECASE)
"""Nouns for data saved in a charset: the charset of "the text" describes it, where "the byte order
mark EF BB BF in UTF-8" asks about the charset itself."""


def asks_about_topic(question: str, missing: list[Argument]) -> bool:
    """Whether a question that lacks ``missing`` asks about its topic rather than for a call.

    It names a subject of the course («ИНН», "Unicode"), quotes no literal, ends as a question,
    and points neither at data of the asker's own nor at anything in front of them
    (:data:`DEIXIS`): "How many digits does an INN have?" is a question for the corpus, where
    "Check this INN" and "Is our INN valid?" are requests missing their data. Both routers
    send the first to the quote source and refuse the others with ``MISSING_ARGUMENT``.
    """
    return (_COURSE.search(question.lower()) is not None and not question_literals(question)
            and any(c in question for c in "?？") and not _points_at_own_data(question, missing)
            and DEIXIS.search(question) is None)


_DIGIT_NOUN = re.compile(r"\s*-?\s*(?:digit|цифр|знак|символ|значн)", re.IGNORECASE)
_VAT = re.compile(r"(?<!\w)(?:ндс|vat)(?!\w)", re.IGNORECASE)


def _figure(question: str, span: tuple[int, int]) -> float | None:
    try:
        return float(normalise("number", question[span[0]:span[1]]))
    except NormaliseError:
        return None


def vat_rates_held(library: Library) -> frozenset[float]:
    """The VAT rates, in percent, that the premise entries of ``library`` state.

    An entry that yields a percentage and may be a premise (verified or derived) states its
    rates in its statement («22 %»); a rejected or proposed entry holds none.
    """
    held: set[float | None] = set()
    for entry in library.entries.values():
        if entry.status in PREMISE_STATUSES and "percent" in entry.signature.yields.values():
            statement = entry.statement.get("en", "")
            held.update(_figure(statement, span) for span in percent_spans(statement))
    return frozenset(rate for rate in held if rate is not None)


@functools.cache
def held_vat_rates() -> frozenset[float]:
    """:func:`vat_rates_held` of the project's morphism library."""
    return vat_rates_held(load_library(project_root() / "corpus" / "morphisms"))


def asks_reason_itself(question: str) -> bool:
    """Whether ``question`` asks why (:func:`asks_reason`) outside its quoted literals.

    'Apply ROT13 to "Why did the chicken cross the road?"' asks for a call, not a reason, and
    so does "no idea why it's encoded: … can you decode it?" (:data:`_UNASKED_WHY`).
    """
    return asks_reason(_UNASKED_WHY.sub(" ", blank_literals(question)))


_UNASKED_WHY = re.compile(r"(?<!\w)(?:no\s+idea|not\s+sure|(?:don't|do\s+not)\s+know)\s+why"
                          r"|(?:не\s+знаю|без\s+понятия|непонятно|не\s+понимаю),?\s+(?:почему|зачем)",
                          re.IGNORECASE)
"""A why the asker has no answer to, said in passing ("no idea why it's encoded"): no question."""


_FOREIGN_COUNTRY = (r"(?:belarus|kazakhstan|armenia|kyrgyzstan|uzbekistan|georgia|ukraine|germany|france"
                    r"|italy|spain|poland|china|turkey|finland|latvia|lithuania|estonia|serbia|the\s+uk"
                    r"|britain|the\s+us|the\s+usa)")
"""A country other than Russia, named in English: its VAT is its own law, not the course's."""
_FOREIGN_COUNTRY_IN = (r"(?:беларуси|белоруссии|казахстане|армении|киргизии|кыргызстане|узбекистане|грузии"
                       r"|украине|германии|франции|италии|испании|польше|китае|турции|финляндии|латвии"
                       r"|литве|эстонии|сербии|великобритании|сша)")
"""The same countries in Russian, in the case that says where («в Беларуси»): «в Казахстан» is
where goods go, and the export's rate is the course's."""
_WORLD_FACT = re.compile(
    # who owns, registered, issued or runs a thing
    r"(?<!\w)(?:who\s+(?:owns|registered|issued|is\s+the\s+owner)|whom\s+does\s+\S+\s+belong|whois"
    r"|which\s+(?:bank|company|issuer)\s+issued|who\s+(?:runs|heads|is\s+the\s+(?:ceo|director|head))"
    r"|owner\s+of|registered\s+to|кому\s+принадлеж\w*|кто\s+(?:владеет|владелец|зарегистрировал|выпустил)"
    r"|какой\s+банк\s+выпустил|кто\s+(?:сейчас\s+)?(?:генеральн\w+\s+)?(?:директор|руководит|возглавляет)"
    r"|на\s+кого\s+(?:зарегистрирован\w*|оформлен\w*)"
    r"|whose\s+(?:mobile|phone|number|ip|domain|site|website|e-?mail|account|card)"
    r"|чей\s+(?:это\s+)?(?:номер|телефон|сайт|домен)"
    # where a thing is on the network or on the map, or what a search online would find
    r"|(?:look\s+up|check|find|search)\s+(?:\S+\s+){0,5}?online|look\s+up\s+where"
    r"|(?:найди|поищи|посмотри|проверь)\s+(?:\S+\s+){0,5}?в\s+интернете"
    r"|(?:which|what)\s+country\s+(?:is|are|was|does|do)|hosted\s+in|resolves?\s+to"
    r"|в\s+какой\s+стране\s+(?:находится|расположен\w*|размещ\w*)"
    # how long a parcel travels, and what to answer someone: a carrier's times and a reply are
    # no computation and no course text
    r"|(?:сколько|как\s+долго)\s+(?:\w+\s+){0,2}?(?:ид[её]т|едет|везут|доставля\w*)\s+(?:\w+\s+)?"
    r"(?:посылк|заказ|груз|письм|отправлени)\w*|когда\s+(?:\w+\s+)?(?:придёт|придет|доставят|приедет)"
    r"\s+(?:\w+\s+)?(?:посылк|заказ|груз|письм|отправлени)\w*"
    r"|how\s+long\s+(?:does|will|do)\s+(?:\w+\s+){0,3}?(?:delivery|shipping|parcel|package|order|shipment)"
    r"\w*\s+(?:\S+\s+){0,4}?take|when\s+will\s+(?:\w+\s+){0,2}?(?:parcel|package|order|shipment)\s+arrive"
    r"|что\s+(?:мне\s+)?(?:ему|ей|им|клиенту|клиентке|покупателю)\s+(?:\w+\s+)?ответить"
    r"|what\s+(?:should|do|shall|can)\s+(?:i|we)\s+(?:reply|answer|tell|write\s+back)"
    r"|how\s+(?:should|do|shall)\s+(?:i|we)\s+(?:reply|answer|respond)"
    # whether a day is a holiday of a country: a calendar of the world, no computation
    r"|(?:public|bank|national)\s+holiday|праздничн\w+\s+ли|нерабоч\w+\s+ли"
    r"|(?:official|public)\s+(?:non-?working|rest)\s+day|gets?\s+a\s+day\s+off"
    r"|официальн\w*\s+(?:выходн|нерабоч)\w*"
    # a rate set by a bank, and a foreign country's tax: facts of the world the course does not hold
    r"|exchange\s+rate|курс\w*\s+(?:цб|центробанк\w*|валют\w*|евро|доллар\w*|юан\w*)"
    r"|(?:цб|центробанк\w*|central\s+bank)\s+(?:\w+\s+){0,2}?(?:установил\w*|set|курс\w*)"
    rf"|(?:vat|ндс)\s+(?:\w+\s+){{0,3}}?(?:does|do|in|of)\s+(?:the\s+)?{_FOREIGN_COUNTRY}"
    rf"|{_FOREIGN_COUNTRY}\s+(?:charges?|levies|applies)\s+(?:\w+\s+){{0,2}}?vat"
    rf"|(?:ндс|налог\w*)\s+(?:\w+\s+){{0,2}}?(?:в|во)\s+{_FOREIGN_COUNTRY_IN}"
    # whether a firm can be trusted, what may be done to an employee by law, and a person's pay:
    # judgements, legal advice and facts no source holds
    r"|(?:reliable|trustworthy|legit|legitimate)\s+(?:agency|company|firm|partner|supplier|contractor"
    r"|counterparty|business|vendor|employer)|can\s+(?:we|i)\s+trust"
    r"|(?:надёжн|надежн|благонадёжн|благонадежн)\w*\s+ли|можно\s+ли\s+(?:ему|ей|им)?\s*доверя\w*"
    r"|можно\s+ли\s+(?:\w+\s+)?(?:уволить|сократить|не\s+выплачивать|лишить\s+премии)"
    r"|(?:can|may)\s+(?:we|i)\s+(?:legally\s+)?(?:fire|dismiss|lay\s+off)"
    r"|(?:какой|какая|каков\w*)\s+(?:\w+\s+)?(?:оклад|зарплат\w*)\s+у"
    r"|what(?:'s|\s+is)\s+(?:the\s+)?salary\s+of|(?:how\s+much\s+does|what\s+does)\s+\w+(?:\s+\w+)?\s+earn"
    # a duty's rate, where a vehicle or a load is now, and another country's holidays
    r"|(?:ввозн\w+|импортн\w+|таможенн\w+|экспортн\w+)\s+пошлин\w*|(?:customs|import|export)\s+dut(?:y|ies)"
    r"|where\s+is\s+(?:the\s+|our\s+|my\s+)?(?:truck|lorry|parcel|package|shipment|container|driver|load)"
    r"|где\s+(?:сейчас\s+)?(?:наша\s+|наш\s+)?(?:машина|фура|груз|контейнер|водитель|посылка)"
    rf"|праздник\w*\s+в\s+{_FOREIGN_COUNTRY_IN}|holidays?\s+in\s+{_FOREIGN_COUNTRY}"
    # a question put to a colleague by name: «Марина, ты … отправила?»
    r"|^\W*[А-ЯЁA-Z][а-яёa-z]+,\s+(?:ты|did\s+you|have\s+you)(?!\w)"
    # the postcode that serves a place: a lookup in the post's registry, no computation
    r"|(?:which|what)\s+(?:postal\s+code|post\s?code|zip(?:\s?code)?)\s+(?:serves|covers|belongs\s+to)"
    r"|(?:какой|каким)\s+(?:почтов\w+\s+)?индекс\s+(?:обслуживает|у\s+(?:дома|здания|улицы))"
    # who a number or a name belongs to, and whose a registration is
    r"|who\s+does\s+(?:\S+\s+){1,6}?belong\s+to|(?:which|what)\s+(?:company|firm|business|organi[sz]ation)"
    r"\s+is\s+registered|registered\s+under|какая\s+(?:компания|организация|фирма)\s+(?:зарегистрирован\w*|"
    r"владеет)"
    # whether a host answers or a service is down now, what a program listens on by default, and
    # why a rule of the past was changed: the state of the world and its history
    r"|пингу\w*|(?:is|are)\s+there\s+(?:an?\s+)?(?:\w+\s+){0,2}?(?:outage|downtime)"
    r"|(?:is|are)\s+\S+\s+(?:up|down|reachable)\s+(?:right\s+)?now|доступ\w+\s+ли\s+(?:\S+\s+)?сейчас"
    r"|(?:port|порт\w*)\s+(?:\S+\s+){0,6}?(?:by\s+default|по\s+умолчанию)|default\s+port"
    r"|зачем\s+(?:\w+\s+){0,2}?(?:поменял\w*|изменил\w*|перев[её]л\w*)|why\s+did\s+they\s+change"
    # a property's registered value and encumbrances, a state fee, a tax on a sale, a bank's key
    # rate and today's rate of a currency, what a law changed and what it requires: registries,
    # rates and legal advice, no computation
    r"|кадастров\w+\s+стоимост\w*|cadastral\s+value|обременени\w*|encumbranc\w*|госпошлин\w*"
    r"|state\s+(?:duty|fee)|(?:какой|какая|сколько)\s+(?:\w+\s+){0,2}?ндфл|key\s+rate|ключев\w+\s+ставк\w*"
    r"|(?:usd|eur|cny|rub|доллар\w*|евро|юан\w*)\s+(?:to|/|к)\s+(?:usd|eur|cny|rub|рубл\w*)\s+(?:rate|курс)"
    # a figure of a time to come: "What will the VAT rate be in 2035?", «Какой будет НДС в 2030?»,
    # "Will the VAT rate go up again next year?"
    r"|(?:will\s+(?:\S+\s+){0,5}?be\s+in|будет\s+(?:\S+\s+){0,3}?в)\s+20\d\d(?!\d)"
    r"|will\s+(?:\S+\s+){0,6}?next\s+(?:year|month|quarter)"
    r"|rate\s+today|курс\s+(?:на\s+)?сегодня|(?:что|what)\s+(?:\w+\s+)?(?:поменял\w*|изменил\w*|changed)"
    r"\s+(?:\w+\s+)?(?:в\s+закон\w*|in\s+the\s+law)|нужно\s+ли\s+(?:\w+\s+)?(?:нотариальн\w+|согласи\w*)"
    r"|open\s+on\s+(?:saturday|sunday|monday|tuesday|wednesday|thursday|friday|weekends?|holidays?)"
    # what the law allows, a visa, and the mark a piece of work deserves
    r"|по\s+закону|законно\s+ли|is\s+it\s+legal|(?:need|needs|require)\s+an?\s+visa|нужна\s+ли\s+виза"
    r"|would\s+you\s+give\s+(?:this|it|him|her|them)|какую\s+оценку"
    # a price on a market, a partner's reliability, and what the assistant thinks should be done
    r"|(?:current|today's|market|spot|fob|cif)\s+(?:\S+\s+){0,3}?price|(?:рыночн|текущ)\w+\s+цен\w*"
    r"|(?:is|are)\s+(?:the\s+)?(?:\S+\s+){0,4}?(?:reliable|trustworthy)(?!\w)|do\s+you\s+think\s+(?:we|i)\s+should"
    r"|как\s+(?:ты\s+)?думаешь"
    # a dose, a diagnosis and which doctor to see: medical advice, which no source gives
    r"|(?:right|correct|safe|usual|recommended|max(?:imum)?)\s+(?:daily\s+)?dos(?:e|age)|dosage|дозировк\w*"
    r"|(?:какую|какая|какой|сколько)\s+(?:\w+\s+)?доз[аыу]?|(?:is|are)\s+(?:that|this|it|these)\s+"
    r"(?:a\s+sign\s+of\s+)?(?:hypo|hyper)(?:thyroid|glyc|tensi|kal|natr)\w*|диагноз\w*|(?:whether|should\s+(?:she|he|i|we))\s+"
    r"(?:to\s+)?start\s+(?:taking\s+)?[a-z]+(?:ine|ol|in|ide|one)\b"
    r"|к\s+(?:терапевт|лор|кардиолог|невролог|хирург|педиатр|окулист|офтальмолог|гинеколог|уролог|эндокринолог"
    r"|врач)\w*\s+или\s+(?:к\s+)?\w+"
    # whether a thing is genuine, what is wrong with a machine, a maker's figures, a reply to write,
    # a book's summary, what may legally be done, and who wrote a letter
    r"|genuine|подлинн\w*|новодел\w*|what's\s+wrong\s+with|что\s+с\s+ним\s+не\s+так|torque\s+spec\w*"
    r"|момент\w*\s+затяжки|напиши\s+(?:\w+\s+)?ответ|summari[sz]e|перескажи|кратк\w+\s+содержани\w*"
    r"|(?:can|may)\s+(?:we|i)\s+legally|кто\s+мог\s+написать|should\s+we\s+switch"
    # a right in law, who pays, a tariff, the cheapest bank, today's rate, a letter's mark
    r"|имеет\s+ли\s+право|вправе\s+ли|have\s+the\s+right|(?:кто|who)\s+(?:платит|оплачивает|отвечает|pays|is\s+responsible)"
    r"|тариф\w*|tariffs?|(?:which|what)\s+bank\s+(?:charges|offers|has)|today's\s+(?:\S+\s+){0,4}?rate"
    r"|rate\s+(?:this|the|my)\s+(?:\S+\s+){0,2}?out\s+of|оцени\s+(?:\S+\s+){0,2}?(?:письм|текст|эсс)\w*"
    # whether a claim is true, who said a quote, and a text put into another language
    r"|правда\s+ли|is\s+it\s+true|(?:кто|who)\s+(?:на\s+самом\s+деле\s+|really\s+|actually\s+)?"
    r"(?:автор\s+(?:цитаты|слов|фразы)|said|wrote\s+(?:the|this)\s+(?:quote|line))"
    r"|translate\s+(?:\S+\s+){0,6}?(?:into|to)\s+(?:russian|english|german|french|spanish|chinese|serbian"
    r"|georgian|vietnamese|turkish|arabic)"
    r"|переведи\w*\s+(?:\S+\s+){0,6}?на\s+(?:русский|английский|немецкий|французский|испанский|китайский"
    r"|сербский|грузинский|вьетнамский|турецкий|арабский)"
    # a judgement of a secret: "Is 'Tr0ub4dor&3' a good password?"
    r"|(?:is|was)\s+\S.{0,40}?\s+(?:a\s+)?(?:good|strong|weak|bad|safe|secure)\s+(?:password|passphrase)"
    r"|(?:хороший|надёжный|надежный|сильный|слабый)\s+(?:ли\s+)?пароль"
    # a digest taken back to its text: a hash is one-way
    r"|(?:reverse|decrypt|crack|un-?hash)\s+(?:this\s+|the\s+|that\s+|an?\s+)?(?:md5|sha[-\w]*|hash\w*)"
    r"|(?:расшифр\w*|взлома\w*|обратить)\s+(?:этот\s+)?(?:md5|sha[-\w]*|хеш\w*|хэш\w*)"
    r"|(?:what\s+was|what's|what\s+is|recover|find)\s+the\s+original\s+password"
    r"|(?:исходный|оригинальный|первоначальный)\s+пароль)(?!\w)",
    re.IGNORECASE)
_NAMED_LOOKUP = re.compile(
    r"(?<!\w)(?:(?:какой|какие|каков\w*|скажи|подскажи)\s+(?:\w+\s+)?(?:инн|огрн|кпп|снилс|бик|ip-адрес"
    r"|ip|индекс|телефон|iban)\w*\s+(?:\w+\s+)?у\s+\w+"
    r"|what(?:'s|\s+is|\s+are)\s+(?:the\s+)?(?:post\s?code|zip\s?code|inn|ip(?:\s+address)?|iban"
    r"|phone\s+number|tax\s+number|ogrn)\s+(?:of|for)\s+(?:the\s+)?(?-i:[A-ZА-ЯЁ])\w*"
    r"|(?:which|what)\s+(?:inn|ogrn|kpp|post\s?code|zip\s?code|ip(?:\s+address)?|iban|phone\s+number)"
    r"\s+(?:does|do|did)\s+(?:the\s+)?(?-i:[A-ZА-ЯЁ])\w*"
    r"|найди\s+(?:\w+\s+)?(?:инн|огрн|кпп|бик|индекс|телефон)\w*\s+.{0,40}?по\s+(?:\w+\s+)?"
    r"(?:названию|имени|фамилии))",
    re.IGNORECASE)
"""The identifier or the address of a named body, place or site, asked where the question holds no
digit: «Какой ИНН у Сбербанка?», "What's the postcode for Harbour Street in Whitstable?". No utility
looks a name up; with a digit there («Какой индекс у адреса «125009, Москва»?») the data is given."""
_ACTION = re.compile(
    r"^\W*(?:please\s+|пожалуйста,?\s+)?(?:deploy|e-?mail|ping|book|schedule|restart|reboot|install"
    r"|publish|order|buy|pay|call|forward|send|задеплой|выкати|отправь|перешли|позвони|закажи|оплати"
    r"|забронируй|опубликуй|установи|перезагрузи)(?!\w)(?!\s+(?:me|us|мне|нам|with|is|was)(?!\w))",
    re.IGNORECASE)
"""An order for an action in the world, opening the request: "Deploy build 4.12.3 to staging",
«Отправь платёжку поставщику». A utility computes; it sends, books and deploys nothing."""


_NOT_ASKED = re.compile(r"(?:\bnot|n't)\s+(?:asking|looking)\s+(?:you\s+)?(?:to\s+|for\s+|about\s+)?$"
                        r"|(?<!\w)не\s+(?:прошу|спрашиваю)\s+(?:тебя\s+|вас\s+)?$", re.IGNORECASE)
"""What sets a request aside before it is named: "I'm not asking who owns it", «не прошу
расшифровать»; the words after it are no request."""


def not_asked(question: str, start: int) -> bool:
    """Whether the words at ``start`` come right after :data:`_NOT_ASKED` (a request set aside)."""
    return _NOT_ASKED.search(question[max(0, start - 40):start]) is not None


_JUDGEMENT = re.compile(
    r"(?<!\w)(?:(?:which|what)\s+(?:\w+\s+){0,3}?(?:is|are|would\s+be)\s+(?:a\s+|the\s+)?(?:better|best|safer"
    r"|safest|cheaper|cheapest|nicer|more\s+\w+|most\s+\w+)|should\s+i\b[^?]*\bor\b"
    r"|(?:что|какой|какая|какое|кто)\s+(?:\w+\s+){0,2}?(?:лучше|выгоднее|надёжнее|надежнее|безопаснее)"
    r"|стоит\s+ли)(?!\w)", re.IGNORECASE)
"""A judgement between options or of a course of action: "Which is better for a programmer, a
ThinkPad or a MacBook?", "Should I take ibuprofen or paracetamol?" Where the course's words are
there ("which hash is safest for passwords?") the course may answer, so it is left to it."""


def asks_world_fact(question: str) -> str | None:
    """The words, outside the quoted literals, that ask for a fact, a judgement or an action, or None.

    A judgement (:data:`_JUDGEMENT`) is asked outside the course's words.

    "Who owns the IP address 93.184.216.34?", «Кому принадлежит домен yandex.ru?», "Which country
    is 185.199.108.153 hosted in?", "Which bank issued the card …?", "Can you reverse this MD5?",
    "Deploy build 4.12.3 to staging", «Какой ИНН у Сбербанка?» (:data:`_NAMED_LOOKUP`): the owner,
    issuer or place of an address, a domain or a
    number is a fact of the world that no utility computes from the question and the course does
    not hold, a hash is not taken back to its text, and no utility acts in the world; both
    routers refuse these as out of scope before any class is chosen.
    """
    text = blank_literals(question, colon_tail=False)
    found = (_WORLD_FACT.search(text) or _ACTION.search(text)
             or (None if re.search(r"\d", question) else _NAMED_LOOKUP.search(text))
             or (None if _COURSE.search(text.lower()) else _JUDGEMENT.search(text)))
    if found and not_asked(text, found.start()):
        return None
    return found[0].strip(" \t.,!?:;-") if found else None


def unheld_premise(question: str) -> dict[str, Any] | None:
    """The figure a why-question takes as given where no source holds it, and the figures held.

    "Why does a СНИЛС have 13 digits?" asks the reason for a length that the catalog's validator
    never accepts (:data:`~workbench.utilities.DIGIT_COUNTS`: 11); "Why is the reduced VAT rate
    5 percent?" for a rate that no premise entry of the morphism library states
    (:func:`held_vat_rates`). No source gives a reason for a figure it does not hold, and a
    quote about СНИЛС would answer another question, so both routers refuse it. A why-question
    whose figure is held («Почему в ОГРН 13 цифр?») or that states none is left to the routers.
    So is a question that opens by taking a figure as given ("Given that VAT is 25% in Russia, …",
    «Раз НДС в России 25%, …», :data:`_PREMISE_CLAUSE`): what follows rests on it.
    """
    if not asks_reason_itself(question) and not _PREMISE_CLAUSE.match(question):
        return None
    low = question.lower()
    named = sorted((m.start(), uid) for uid in DIGIT_COUNTS for name in SYNONYMS[uid]
                   for m in re.finditer(rf"(?<!\w){re.escape(name)}(?!\w)", low))
    for start, end in number_spans(question) if named else ():
        stated = _figure(question, (start, end)) if _DIGIT_NOUN.match(question, end) else None
        if stated is None:
            continue
        before = [uid for at, uid in named if at < start]
        uid = before[-1] if before else named[0][1]
        if stated not in DIGIT_COUNTS[uid]:
            return {"premise": f"digits that {uid} reads", "stated": stated, "held": list(DIGIT_COUNTS[uid])}
    rates = [r for r in (_figure(question, span) for span in percent_spans(question))
             if r is not None]
    if rates and _VAT.search(question) and not set(rates) & held_vat_rates():
        return {"premise": "VAT rate, percent", "stated": rates[0],
                "held": sorted(held_vat_rates())}
    return _uncomputed_premise(question)


_LEAP_PREMISE = re.compile(r"(?<![\w.])(\d{4})\s+(?:is|was|will\s+be)\s+(?:a\s+)?leap\s+year"
                           r"|(?<![\w.])(\d{4})(?:\s+год)?\s*(?:[—–-]\s*)?високосн", re.IGNORECASE)
"""A year stated to be a leap year: "2025 is a leap year", «2025 год високосный»."""
_WEEKDAY_PREMISE = re.compile(
    r"\s*(?:is|was|falls\s+on|будет|был[аио]?|приходится\s+на|[—–-])\s*(?:an?\s+)?(monday|tuesday|wednesday"
    r"|thursday|friday|saturday|sunday|понедельник|вторник|сред[ау]|четверг|пятниц[ау]|суббот[ау]|воскресенье)"
    r"(?!\w)", re.IGNORECASE)
"""A weekday stated right after a date: "2025-03-10 is a Sunday", «10.03.2025 — воскресенье»."""
_WEEKDAY_STEMS = ("mon", "tue", "wed", "thu", "fri", "sat", "sun", "пон", "вто", "сре", "чет", "пят",
                  "суб", "вос")


def _uncomputed_premise(question: str) -> dict[str, Any] | None:
    """A premise about the calendar that the date utilities compute otherwise, or None.

    "Since 2025 is a leap year, …" or "Given that 2025-03-10 is a Sunday, …": the premise is
    checked by calling ``date.is_leap_year`` or ``date.weekday``, and where the utility gives
    another answer, what follows rests on nothing a source holds.
    """
    for m in _LEAP_PREMISE.finditer(question):
        year = int(m[1] or m[2])
        outcome = call_utility("date.is_leap_year", {"year": year})
        if outcome.ok and outcome.result is False:
            return {"premise": "a leap year", "stated": year, "held": ["not a leap year"],
                    "utility": "date.is_leap_year"}
    for start, end in date_spans(question):
        said = _WEEKDAY_PREMISE.match(question, end)
        if said is None:
            continue
        try:
            day = normalise_date(question[start:end])
        except NormaliseError:
            continue
        outcome = call_utility("date.weekday", {"date": day})
        stated = _WEEKDAY_STEMS.index(said[1][:3].lower()) % 7
        if outcome.ok and str(outcome.result)[:3].lower() != _WEEKDAY_STEMS[stated]:
            return {"premise": f"the weekday of {day}", "stated": said[1], "held": [outcome.result],
                    "utility": "date.weekday"}
    return None


_PREMISE_CLAUSE = re.compile(r"\W*(?:given\s+that|since|seeing\s+that|раз|поскольку|так\s+как"
                             r"|учитывая,?\s+что)(?!\w)", re.IGNORECASE)
"""An opening that takes what follows as given: "Given that …", "Since …", «Раз …», «Поскольку …»."""


def premise_text(premise: dict[str, Any]) -> str:
    """The refusal's words for :func:`unheld_premise`'s finding."""
    if "utility" in premise:
        computed = ", ".join(str(h) for h in premise["held"])
        return (f"The question takes {premise['stated']} as {premise['premise']}, and "
                f"{premise['utility']} computes {computed}, so what follows rests on nothing a "
                "source holds.")
    held = ", ".join(f"{h:g}" for h in premise["held"])
    return (f"The question rests on a figure no source holds ({premise['premise']}: "
            f"{premise['stated']:g}; the sources hold {held}), so no source answers it.")


_OPENING_WORD = re.compile(r"^\W*(?:(?:please|kindly|пожалуйста)\W+)?([\w-]+)", re.IGNORECASE)


@functools.cache
def _order_words() -> tuple[frozenset[str], frozenset[str]]:
    """The Russian verbs of telling and the English verbs of an order (``synonyms.yaml``)."""
    table = synonym_file()
    return (frozenset(table.get("order_telling_ru") or ()),
            frozenset(w.lower() for w in table.get("order_verbs_en") or ()))


def orders_computation(question: str) -> bool:
    """Whether ``question`` opens with an order to compute, convert or check something.

    A Russian question opens with an imperative (pymorphy3's most probable parse) that is no verb
    of telling («Раскодируй ссылку…», not «Объясни, почему…»), or with a word the dictionary lacks
    that ends as an imperative does («Распарси»); an English one with a verb of
    ``order_verbs_en`` ("Decrypt this ciphertext", not "Explain why"); a polite word before it is
    passed over. One that asks for a reason (:func:`asks_reason`) is no order. A quote says what
    the course says and carries out no order of the kind.
    """
    match = _OPENING_WORD.match(question)
    if match is None or asks_reason(question):
        return False
    word = match[1].lower()
    telling, verbs = _order_words()
    if re.search(r"[а-яё]", word):
        if "impr" in morphology().parse(word)[0].tag:
            return lemma(word) not in telling
        # a verb of the trade the dictionary lacks («Распарси этот JSON», «Пропарси лог») has the
        # ending of an imperative
        return not morphology().word_is_known(word) and bool(re.search(r"(?:[иь]|[аеоуя]й)(?:те)?$", word))
    return word in verbs


def _overlaps(span: tuple[int, int], taken: list[tuple[int, int]]) -> bool:
    return any(span[0] < e and s < span[1] for s, e in taken)


def _quoted_name(question: str, start: int, end: int) -> bool:
    """Whether the quoted literal ``question[start:end]`` is a name: a model, a product, a firm.

    Three words at most, one of them a word of letters that opens with a capital («Альпика 28»,
    "Nova 2"): the number in it is part of the name, no quantity of the request.
    """
    words = question[start:end].split()
    return _opens_quote(question, start) and len(words) <= 3 and any(
        w[:1].isupper() and w.isalpha() for w in words) and any(any(c.isdigit() for c in w) for w in words)


_ONE_LINE = re.compile(r"(?<!\w)(?:(?:this|the)\s+line|эт[ауо]\s+строк[аиу])"
                       r"(?:\s+(?:exactly|ровно|целиком))?\s*:$", re.IGNORECASE)
"""The one line a colon introduces ("this line exactly:", «эту строку:»)."""


class _Offer:
    """The spans one question offers, by kind, in order; binding takes them one by one."""

    def __init__(self, question: str, schema: UtilitySchema, own: tuple[str, ...],
                 own_patterns: tuple[tuple[str, re.Pattern[str]], ...] = (),
                 names: frozenset[str] = frozenset()) -> None:
        low = question.lower()
        colon = first_colon(question)
        literals = _blocks_whole(question, _tail_resolved(
            question, [(s, e) for s, e in question_literal_spans(question) if e > s], colon))
        tail = question[colon + 1:].strip()
        if colon >= 0 and "\n" in tail and _ONE_LINE.search(question, 0, colon + 1):
            # "sha256 of this line exactly:" names one line: the lines after it are remarks
            start = colon + 1 + len(question[colon + 1:]) - len(question[colon + 1:].lstrip())
            literals = [(s, question.index("\n", start) if s == start else e) for s, e in literals]
        if colon >= 0 and (tail[:1] in {"{", "["} or "\n" in tail) and literals:
            block = literals.pop()  # the block after the colon comes first
            literals.insert(0, block)
        self.literals = literals
        # what an address starts or ends with ("ends with ::1") is a part of it
        ips = [(m.start(), m.end()) for m in _IP.finditer(question)] + _ipv6_spans(question)
        self.ips = sorted(ip for ip in ips if not _PART_OF_VALUE.search(question, max(0, ip[0] - 20), ip[0]))
        self.romans = [(m.start(), m.end()) for m in _ROMAN.finditer(question)]
        self.dates = date_spans(question)
        self.date_spans = tuple(self.dates)  # every date, kept while binding takes from self.dates
        self.range_starts = range_start_spans(question)
        self.months = month_spans(question)
        self.percents = percent_spans(question)
        wants_percent = any(a.name in PERCENT_ARGS for a in schema.arguments)
        self.bases = (base_spans(question)
                      if any(a.name in BASE_ARGS for a in schema.arguments) else [])
        avoid = self.ips + (self.percents if wants_percent else []) + self.bases
        # a number after «№» or "No." numbers a thing (an invoice, a house), and one before a
        # month's name is the day of a date: neither is a quantity
        quoted_names = [(s, e) for s, e in question_literal_spans(question) if _quoted_name(question, s, e)]
        # a time of day, a phone number, a vehicle's plate, a document's number, a school's class,
        # a room and a number after a record's noun ("line 8812", «кв. 48») name when, whom and
        # what, no value; an address utility reads a flat's number as a part of its address
        unnamed = [m.span(m.lastindex or 0)
                   for pattern in (_CLOCK, _PHONE, _PLATE, _DOCUMENT_NUMBER, _SCHOOL_CLASS, _ROOM_AFTER,
                                   _HEADCOUNT, _EXPIRY)
                   for m in pattern.finditer(question)]
        self.unnamed = unnamed
        place = schema.id not in ADDRESS_WITH_FLATS
        self.numbers = [n for n in number_spans(question) if not _overlaps(n, avoid + unnamed)
                        and not _numbered(question, n[0], place)
                        and not _PART_OF_VALUE.search(question, max(0, n[0] - 20), n[0])
                        and not _day_and_month(question, *n)
                        and not (n[1] - n[0] >= 5 and _CODE_PREFIX.search(question, 0, n[0]))
                        and not any(s <= n[0] and n[1] <= e for s, e in quoted_names)
                        and not any(_DAY_GAP.fullmatch(question, n[1], m) for m, _ in self.months)]
        # number words count only where the digits run out: in "my two favourite numbers are 84
        # and 126" the two counts the numbers, it is none of them
        digits = [n for n in self.numbers if not question[n[0]].isalpha()]
        if len(digits) < len(self.numbers) and len(digits) >= sum(
                1 for a in schema.arguments if a.type in {"integer", "number"}
                and (a.role.value == "data" or a.required)
                and a.name not in PERCENT_ARGS | BASE_ARGS):
            self.numbers = digits
        tokens = [(m.start(), m.end()) for m in _SPACED_TOKEN.finditer(question)]
        for m in _URL.finditer(question):  # a whole URL, its query string too
            tokens.append((m.start(), m.start() + len(m[0].rstrip(".,;:!?)"))))
        for m in [*_PERCENT_RUN.finditer(question), *_FORM_RUN.finditer(question)]:
            span = (m.start(), m.start() + len(m[0].rstrip(".,;:!?)")))
            if not _overlaps(span, tokens):
                tokens.append(span)
        own_words = {word for name in own for word in name.split()}
        whole_numbers = number_spans(question, words=False)
        for m in _TOKEN.finditer(question):
            text = m[0].rstrip(".?")
            if text.endswith(":") and not text.endswith("::"):  # "EAN 4601234567893: 13 digits"
                text = text[:-1]
            # glued into a longer run on both sides («state=42&next=/home»), it is a piece of a
            # value, not one
            if question[m.start() - 1:m.start()] in _GLUE and question[m.start() + len(text):][:1] in _GLUE:
                continue
            # a charset, a word of the utility's own names ("Base64" in "decode this base64") or
            # the name of any utility ("UUID5" asked of the version-3 one) names no data
            if text.lower() in CHARSETS or text.lower() in own_words or text.lower() in names or any(
                    w in text.lower() for w in own):
                continue
            end = m.start() + len(text)
            # a part of a date («12» of "12 May 1990") or of a number (the «200» of "3,200"), a
            # count of the data's parts («из 12 символов») and a file's name are no data of their own
            whole = next(((s, e) for s, e in whole_numbers
                          if s <= m.start() and end <= e and (s, e) != (m.start(), end)), None)
            if whole is not None and not _overlaps(whole, tokens + self.bases + unnamed):
                tokens.append(whole)  # "SHA-256 of 3,200": the whole number is the token
            if (whole is not None
                    or (text[:1] == "#" and _NUMERO.search(question, 0, m.start() + 1))  # "ticket #5521"
                    or _overlaps((m.start(), end), unnamed) or _day_and_month(question, m.start(), end)
                    or _numbered(question, m.start(), place)  # «договора № 112/25», «тикет 4471»
                    or (_HOST.fullmatch(text)
                        and _HOST_PLACE.search(question, max(0, m.start() - 10), m.start()))
                    or (text.isdigit() and _counts_time(question, (m.start(), end)))
                    or any(s <= m.start() and end <= e and (s, e) != (m.start(), end) for s, e in self.dates)
                    or _part_of_value(question, m.start(), text)
                    or _STANDARD_NAME.search(question, max(0, m.start() - 8), m.start())
                    or _FILE_NAME.fullmatch(text)):
                continue
            if not _overlaps((m.start(), end), tokens + self.bases):
                tokens.append((m.start(), end))
        self.tokens = sorted(tokens)
        self.schema, self.own, self.own_patterns = schema, own, own_patterns
        self._tail: list[tuple[int, int]] | None = None
        self.low = low
        # a comma is the decimal mark in Russian («3,141»), a thousands separator in English
        self.number_style = "-ru" if _CYRILLIC.search(question) else ""
        self.vocab: dict[str, list[tuple[int, int]]] = {}
        between = _BETWEEN.search(question)
        # the pair compared, when no quoted literal gives it and both words may be data
        self.pair = ([between.span(1), between.span(2)] if between and not literals and all(
            _plain_data(question, *between.span(g)) for g in (1, 2)) else [])
        self.question = question

    def vocabulary(self, name: str) -> list[tuple[int, int]]:
        """The spans that name a value of vocabulary ``name``, in order, without overlaps."""
        if name not in self.vocab:
            self.vocab[name] = vocabularies()[name].separate_spans(self.question)
        return self.vocab[name]

    def unit_letters(self) -> list[tuple[int, int]]:
        """The single letters that name a unit where they stand (:func:`unit_letter_spans`)."""
        if "unit-letter" not in self.vocab:
            self.vocab["unit-letter"] = unit_letter_spans(self.question)
        return self.vocab["unit-letter"]

    def tail(self) -> list[tuple[int, int]]:
        """Unquoted data, best first: the last resort of a text argument, found when first asked.

        What :func:`_tail_spans`, :func:`_between_order_and_target`,
        :func:`_after_opening_name` and :func:`_cyrillic_in_english` read, in that order.
        """
        if self._tail is None:
            names = "|".join(re.escape(w) for w in sorted(self.own, key=len, reverse=True) if w)
            targets = self._targets()
            # words that count their own parts («три слова, длина 27 символов») describe the data
            self._tail = [span for span in (_tail_spans(self.question, names)
                                            + _between_order_and_target(self.question, targets)
                                            + _after_opening_name(self.question, names, targets)
                                            + _cyrillic_in_english(self.question))
                          if not _counts_within(self.question, *span)
                          # nor are what a value begins with ("begins with Гали") the value
                          and not _PART_OF_VALUE.search(self.question, max(0, span[0] - 21), span[0])
                          # nor a class, a phone or a plate alone («MD5 для 10А»)
                          and not any(s <= span[0] and span[1] <= e for s, e in self.unnamed)]
        return self._tail

    def _targets(self) -> list[int]:
        """Where the utility's own names and the words of its enum vocabularies start."""
        starts = [m.start() for _, pattern in self.own_patterns for m in pattern.finditer(self.low)]
        for arg in self.schema.arguments:
            vocabulary = vocabulary_for(self.schema.id, arg.name)
            if vocabulary is not None:
                # not self.vocabulary(): binding takes its spans out of that list one by one
                starts += [start for start, _ in vocabularies()[vocabulary].separate_spans(self.question)]
        return starts


def _tail_spans(question: str, names: str) -> list[tuple[int, int]]:
    """Unquoted data that ends the question, best first: the last resort of a text argument.

    A phrase, a sentence or a text named as such is the rest of the question
    (:data:`_PHRASE_TAIL`) where :func:`_plain_data` allows it: not «текста из письма», not «фразы
    привет в UTF-8» (where the data ends and the circumstance begins is not guessed). One word
    follows a cue (:data:`_TAIL`: «слова», "string") or one of the utility's own ``names`` (a
    regular-expression alternation) and "of" («MD5 от admin»), under the same guard.
    """
    found: list[tuple[int, int]] = []
    phrase = _PHRASE_TAIL.search(question)
    if phrase and _plain_data(question, *phrase.span(1)):
        found.append(phrase.span(1))
    found += [span for span in _cue_named(question) if span not in found]
    if names:
        own = re.compile(rf"(?<!\w)(?:{names}){_DIGEST_NOUN}{_OF}([^\s«»\"'`,]+?){_TAIL_END}", re.IGNORECASE)
        match = own.search(question)
        if match and match.span(1) not in found and _plain_data(question, *match.span(1)):
            found.append(match.span(1))
    return found


_APPROXIMATELY = re.compile(rf"(?:about|around|roughly|approximately|almost|nearly|~|около|примерно"
                            rf"|приблизительно|порядка|почти|{_BOUND_WORDS})\s*$", re.IGNORECASE)
_COUNT_NOUN = re.compile(r"\s*(?:rows?|lines?|characters?|chars?|words?|bytes?|kb|mb|gb|pages?|digits?"
                         r"|symbols?|letters?|entries|items?|records?|columns?|строк\w*|символ\w*|слов\w*"
                         r"|байт\w*|кб|мб|страниц\w*|запис\w*|знак\w*|цифр\w*|букв\w*|столб\w*)(?!\w)",
                         re.IGNORECASE)
_COUNTED_KIND = re.compile(r"\s+\w+\s+(?:characters?|chars?|letters?|символ\w*|букв\w*)(?!\w)",
                           re.IGNORECASE)  # "40 Cyrillic characters", «12 латинских букв»


def _figure_about_data(question: str, span: tuple[int, int]) -> bool:
    """Whether the bare number at ``span`` is a figure about the data, not the data.

    It is approximate ("about 40 Cyrillic characters", «около 300») or counts a part of the data
    ("300 rows with Windows line endings", «12 строк»): a text is never written so.
    """
    start, end = span
    if not question[start:end].isdigit():
        return False
    return bool(_APPROXIMATELY.search(question[max(0, start - 16):start])
                or _COUNT_NOUN.match(question, end) or _COUNTED_KIND.match(question, end))


def _cue_named(question: str) -> list[tuple[int, int]]:
    """The one word a cue noun names as the data (:data:`_TAIL`): «слова электрификация», "the word banana".

    Not a genitive that says whose string it is (:func:`_only_genitive`), and only where
    :func:`_plain_data` allows it. Named so, it is the data before a bare number the question
    holds («…, если поле принимает 32?»: the 32 is a limit).
    """
    match = _TAIL.search(question)
    if match and _plain_data(question, *match.span(1), file_name=True) and not _only_genitive(match[1]):
        return [match.span(1)]
    return []


def _only_genitive(word: str) -> bool:
    """Whether a Russian word is a genitive in every parse: «строки браузера», «текста документа».

    After a cue noun such a word says whose string or text it is (the browser's, the document's),
    where the data itself stands in the nominative or accusative («слова кот», «фамилию Кузнецова»).
    """
    if not re.fullmatch(r"[А-Яа-яЁё-]+", word):
        return False
    return all("gent" in parse.tag for parse in morphology().parse(word.lower()))


_PATTERN_CUE = re.compile(r"(?<!\w)(?:регулярк\w*|регулярн\w+\s+выражени\w*|regexp?|pattern|шаблон\w*"
                          r"|match(?:es)?\s+of)"
                          r":?\s+(\S+)", re.IGNORECASE)
_REPLACEMENT_CUE = re.compile(r"(?<!\w)(?:replacement|замен[аоуы]|подстановк[аоуи])\s*:?\s+(\S+)",
                              re.IGNORECASE)
_SUBSTRING_CUE = re.compile(r"(?<!\w)(?:occurrences?\s+of|instances?\s+of|вхождени\w*)\s+([^\s«»\"'`,;]+)"
                            r"(?=\s+(?:in|в|во)\s)", re.IGNORECASE)
"""The unquoted substring named before the text it is counted in: "occurrences of na in the word
banana", «вхождений ан в слове банан»."""
_REPLACED_BY = re.compile(r"(?:(?<!\w)(?:with|by|на)|->|→|=>)\s*[«\"'`“„]?$", re.IGNORECASE)
"""The word or arrow written before the literal that replaces a match: "with `shade`", «на `_`»."""
_REGEX_MARK = re.compile(r"[\\\[\](){}*+?^$|]")


WORD_COUNTS = frozenset({"text.word_count"})
"""Utilities that count the words of a text: a bare number is never that text ("the draft? It is
capped at 250 words" names a limit)."""
ESCAPED_DATA = frozenset({"regex.escape"})
"""Utilities whose data is text to be escaped: an unquoted run that holds a mark of a regular
expression is their data, where no literal or token gives it (:func:`_marked_runs`)."""
_MARKED_RUN = re.compile(r"(?<!\S)\S*(?:[\\\[\](){}*+^$|]|\w\.\w)\S*")


def _marked_runs(question: str, own: tuple[str, ...]) -> list[tuple[int, int]]:
    """Unquoted runs that hold a mark of a regular expression, neighbours joined into one.

    "Escape the special characters in a.b*c" gives «a.b*c», «строку a+b (c)» gives «a+b (c)»:
    two such runs one space apart are one value. A question mark or full stop that ends the
    question is left out. The run must follow a word that introduces data (:data:`_TEXT_CUE`),
    one of the utility's ``own`` names ("Escape [abc].*") or a colon: in "match the literal text
    price (USD) + tax" the data begins before the marks, and where it begins is not guessed.
    """
    def introduced(start: int) -> bool:
        before = question[max(0, start - 24):start].lower().rstrip()
        return bool(_TEXT_CUE.search(before) or before.endswith(":")
                    or any(before.endswith(word) for word in own))

    found: list[tuple[int, int]] = []
    for m in _MARKED_RUN.finditer(question):
        start, end = m.start(), m.end()
        if end == len(question.rstrip()):
            end = start + len(m[0].rstrip("?.!"))
        if end <= start or any(mark in m[0] for mark in "«»\"`“”„"):
            continue
        if found and question[found[-1][1]:start] == " ":
            found[-1] = (found[-1][0], end)
        else:
            found.append((start, end))
    return [span for span in found if introduced(span[0])]


def _cued_value(question: str, cue: re.Pattern[str], literals: list[tuple[int, int]],
                mark: re.Pattern[str] | None = None) -> list[tuple[int, int]]:
    r"""The unquoted run written right after the name of its argument, outside every quoted literal.

    «Найди числа в "abc 12" по регулярке \d+» and "pattern (\d+)-(\d+), replacement \2"
    name a pattern and a replacement. Where ``mark`` is given the run must hold it (a pattern a
    mark of a regular expression, so "the pattern my colleague sent" is none). A comma or
    semicolon after it ends it, and so does the question mark that ends the question.
    """
    found = []
    for m in cue.finditer(question):
        start, end = m.span(1)
        text = m[1].rstrip(",;")
        if end == len(question):
            text = text.rstrip("?.!")
        end = start + len(text)
        if (text and (mark is None or mark.search(text)) and text[0] not in "«\"“'`"
                and not any(ls <= start < le and question[ls - 1:ls] in "«\"'`“„"
                            for ls, le in literals)):
            found.append((start, end))
    return found


def _named_word(question: str) -> list[tuple[int, int]]:
    """The word after the noun "name" (:data:`_NAMED`), its closing punctuation left out."""
    found = []
    for m in _NAMED.finditer(question):
        start, end = m.start(1), m.start(1) + len(m[1].rstrip(".?!:"))
        if end > start and _plain_data(question, start, end):
            found.append((start, end))
    return found


_DESCRIBED_AFTER = re.compile(r"[?.!]\s+" + _STANDS_IN.pattern, re.IGNORECASE)
"""A sentence that opens with a pronoun after the words: «в тексте согласия? он на русском, примерно на
страницу» names a document and says what it is like; no text is written there."""


def _plain_data(question: str, start: int, end: int, *, file_name: bool = False) -> bool:
    """Whether the unquoted words ``question[start:end]`` may be data.

    They neither point at data («выше», "this") nor begin with a word that names none («из»,
    "the") nor hold a quoted literal ("matches of `[0-9]+`": the literal is the pattern, and the
    text is missing) nor a circumstance (an encoding, a time zone), nor are they a possessive
    («нашего») or hold a file's name (:data:`_FILE_NAME`; «MD5 файла report.pdf» asks about its
    content), unless ``file_name`` allows one: after a noun that names a string («для строки
    отчёт_март_2025.xlsx») the name is the data.
    """
    text = question[start:end]
    words = {w.lower() for w in re.findall(r"\w+", text)}
    if (not words or words & POINTING_WORDS or DEIXIS.search(text) or OWNER_WORDS.search(text)
            or (not file_name and any(_FILE_NAME.fullmatch(word.strip(" ,.;:!?"))
                                      for word in text.split()))):
        return False
    if any(mark in text for mark in "«»\"`“”„"):  # a quoted literal in it is the data, if any is
        return False
    if GENERIC_WORDS.fullmatch(text.split()[0]):
        return False
    if _DESCRIBED_AFTER.search(text):  # «…ПД? он на русском»: the next sentence describes a text not given
        return False
    return not any(s < end and start < e for s, e, _ in circumstance_spans(question))


def _between_order_and_target(question: str, targets: list[int]) -> list[tuple[int, int]]:
    """The words between an opening order and "into"/«в» followed by one of ``targets``.

    ``targets`` are where the utility's own name or a word of one of its enum vocabularies starts:
    "Turn Hello into Base32" gives «Hello», "Convert it to YAML" nothing (it points).
    """
    order = _ORDER.match(question)
    if not order or not targets:
        return []
    # the noun that names the data is not a part of it: «Переведи фамилию Щука в латиницу»
    named = _DATA_NOUN.match(question, order.end())
    start = named.end() if named else order.end()
    for into in _INTO.finditer(question, start):
        if into.end() in targets:
            if into.start() > start and _plain_data(question, start, into.start()):
                return [(start, into.start())]
            return []
    return []


_CYRILLIC_RUN = re.compile(r"[А-Яа-яЁё]+(?:[\s'’-]+[А-Яа-яЁё]+)*")


def _cyrillic_in_english(question: str) -> list[tuple[int, int]]:
    """The one run of Cyrillic words in a question otherwise written in Latin letters.

    "Transliterate Жуков into Latin letters using the GOST standard": in an English sentence the
    Russian words are what it works on. Not where there are two runs (which one is the data is not
    guessed), nor where the English words are fewer than three or than the Russian ones
    («Какую длину ключа … для HMAC-SHA256?» is a Russian question), nor where
    :func:`_plain_data` refuses the run.
    """
    runs = list(_CYRILLIC_RUN.finditer(question))
    if len(runs) != 1:
        return []
    start, end = runs[0].span()
    english = len(re.findall(r"(?<![\w-])[A-Za-z]+(?![\w-])", question))  # plain words, no "SHA256"
    if english < 3 or english <= len(question[start:end].split()):
        return []
    return [(start, end)] if _plain_data(question, start, end) else []


def _after_opening_name(question: str, names: str, targets: list[int]) -> list[tuple[int, int]]:
    """The rest of a request that opens with the utility's own name: "HTML-escape <b>bold</b>".

    Not when the question asks (it ends in «?»), nor when the rest names the utility or one of its
    enum words again ("Transliterate Жуков the way a passport does": where the data ends is not
    guessed), nor where :func:`_plain_data` refuses it ("md5 of this", «base64 для текста …»).
    """
    text = question.rstrip()
    if not names or text.endswith("?"):
        return []
    opening = re.match(rf"\s*(?:please\s+)?(?:{names})\w*[\s:]+", text, re.IGNORECASE)
    if not opening or opening.end() >= len(text):
        return []
    start, end = opening.end(), len(text)
    if any(start <= t < end for t in targets) or not _plain_data(question, start, end):
        return []
    return [(start, end)]


def _tail_resolved(question: str, literals: list[tuple[int, int]], colon: int
                   ) -> list[tuple[int, int]]:
    """The literals with the text after the colon reconciled with the quotes inside it.

    A JSON value or several lines after the colon is one value whatever quotes it holds; a tail
    that only wraps one quoted literal («…») is that literal; a tail around one quote and more
    text (``5 < 7 && "кавычки"``) is the data, the quote a part of it, unless the tail ends in a
    question mark (`` md5 of "letmein"?``, «сколько байт займёт «Щука»?»): then it is the question
    itself, asked about the quote; a tail around two or more quotes is a list of them, not one value.
    ``colon`` is :func:`~workbench.relevance.first_colon` of the question.
    """
    if colon < 0 or not literals:
        return literals
    tail = literals[-1]
    if tail[0] <= colon:
        return literals  # the colon introduced no tail (a time, a URL)
    mark = _DETACHED_MARK.search(question, tail[0], tail[1])
    if mark is not None:  # "…%D1%8C ?": the question's own mark, set apart, is no part of the data
        tail = (tail[0], mark.start())
        literals = literals[:-1] + [tail]
    inside = [lit for lit in literals[:-1] if tail[0] <= lit[0] and lit[1] <= tail[1]]
    if not inside:
        if _QUESTION_OPENING.match(question, tail[0]) and question[:tail[1]].rstrip().endswith("?"):
            return literals[:-1]  # "chmod question: what does octal 755 look like?" asks; it is no data
        return literals[:-1] + [_without_closing_question(question, tail)]
    outside = [lit for lit in literals[:-1] if lit not in inside]
    block = question[tail[0]:tail[1]]
    if block[:1] in {"{", "["}:  # JSON: the quotes are inside one value, which ends where it closes
        end = _closing(block)
        if end is not None and re.search(r"[^\W\d_]", block[end:]):
            tail = (tail[0], tail[0] + end)  # "{…} — can you turn it into YAML?"
        return outside + [tail]
    if "\n" in block:
        return outside + [_without_closing_question(question, tail)]  # lines: one value
    if (len(inside) > 1 or block.strip(_QUOTE_MARKS) == question[slice(*inside[0])]
            or block.rstrip().endswith("?") or _quote_then_sentence(question, tail, inside[0])):
        return outside + inside
    return outside + [tail]


_DETACHED_MARK = re.compile(r"(?<=\S)\s+[?!]+$")
_QUESTION_OPENING = re.compile(
    r"(?:what|how|which|why|when|where|who|is|are|does|do|can|could|какой|какая|какое|какие|сколько"
    r"|как|что|почему|зачем|где|когда|кто)(?!\w)", re.IGNORECASE)
"""The words a question opens with: the text after a colon that opens with one and ends with «?»
is the question itself."""


def _quote_then_sentence(question: str, tail: tuple[int, int], quote: tuple[int, int]) -> bool:
    """Whether the tail opens with the quote and a new sentence or an order follows it.

    «…: «Отгрузку разделите на два адреса…». Выпишите все индексы из этого текста»: the quote
    is the data and the sentence after it the request; so is an order after the closing mark
    («клиент пишет: «…» выдерни индексы из сообщения»).
    """
    if question[tail[0]:quote[0]].strip(_QUOTE_MARKS) != "":
        return False
    if _NEXT_SENTENCE.match(question, quote[1]) is not None:
        return True
    after = question[quote[1]:tail[1]].lstrip(_QUOTE_MARKS + " ,—–-")
    return bool(after) and question[quote[1]:quote[1] + 1] in _QUOTE_MARKS and orders_computation(after)


_NEXT_SENTENCE = re.compile(r"[»\"'`”]?\s*[.!;?—–]\s+[A-ZА-ЯЁ]")


def _without_closing_question(question: str, tail: tuple[int, int]) -> tuple[int, int]:
    r"""The lines of a tail without a last line that asks about them.

    "Here it is:\n<the abstract>\nHow many words is that?": the last line, a question of three
    words or more, is the request, not a part of the data; so is a new sentence after one word
    ("…: Ёжик. Give me its bytes in koi8-r.").
    """
    block = question[tail[0]:tail[1]]
    head, _, last = block.rstrip().rpartition("\n")
    if head.strip() and last.strip().endswith("?") and len(last.split()) >= 3:
        return tail[0], tail[0] + len(head.rstrip())
    # "here's the word from it: Ёжик. Give me its bytes in koi8-r.": one word, then a new sentence,
    # which says what to do with it
    one = _ONE_WORD_THEN_SENTENCE.match(block)
    if one is not None:
        return tail[0] + one.start(1), tail[0] + one.end(1)
    # "…: ДМИТРИЕВ ПАВЕЛ СЕРГЕЕВИЧ. Сделай каждое слово с заглавной": a sentence that orders
    # what to do with the words before it is no part of them
    for stop in _SENTENCE_END.finditer(block):
        if orders_computation(block[stop.end():]):
            return tail[0], tail[0] + stop.start()
    # "…: Жукова Светлана Игоревна — это для справки в посольство": why it is needed is no part of it
    purpose = _PURPOSE_CLAUSE.search(block) or _BACK_REFERENCE.search(block)
    if purpose is not None:
        return tail[0], tail[0] + purpose.start()
    return tail


_ONE_WORD_THEN_SENTENCE = re.compile(r"\s*(\S+?)[.!]\s+(?=[A-ZА-ЯЁ])")
_SENTENCE_END = re.compile(r"(?<=[^\W\d_]{2})[.!]\s+(?=[A-ZА-ЯЁ])")
"""Where a sentence ends: a word of two letters or more, its stop, a capital (not «ул. Ленина»)."""
_PURPOSE_CLAUSE = re.compile(r"\s+[—–-]\s+(?:(?:это|it's|it\s+is|this\s+is|that's)\s+)?(?:для|нужно|надо|for)"
                             r"(?!\w)", re.IGNORECASE)
"""A dash and what the value is for: «— это для справки», "— it's for the visa file"."""
_BACK_REFERENCE = re.compile(r"\s+[—–]\s+(?:\S+\s+){0,2}?(?:it|them|его|её|ее|их)(?!\w)", re.IGNORECASE)
"""A dash and an order that points back at the value: "— url-encode it please", «— переведи его»."""


def _closing(block: str) -> int | None:
    """Where the JSON object or array that opens ``block`` closes (the index after it), or None.

    Brackets inside JSON strings do not count; a block that never closes gives None.
    """
    depth, in_string, escaped = 0, False, False
    for i, ch in enumerate(block):
        if in_string:
            escaped, in_string = (not escaped and ch == "\\"), in_string and (escaped or ch != '"')
        elif ch == '"':
            in_string = True
        elif ch in "{[":
            depth += 1
        elif ch in "}]":
            depth -= 1
            if depth == 0:
                return i + 1
    return None


def _blocks_whole(question: str, literals: list[tuple[int, int]]) -> list[tuple[int, int]]:
    """The literals with every JSON object or array of the question as one value.

    ``{"a": 1,}`` written without a colon before it holds the quoted literal ``a``; the block is
    the value and its quotes are a part of it.
    """
    out = list(literals)
    for m in _JSON_BLOCK.finditer(question):
        block = (m.start(), m.end())
        inside = [lit for lit in out if block[0] <= lit[0] and lit[1] <= block[1] and lit != block]
        if not inside:
            continue
        out = [lit for lit in out if lit not in inside]
        if not any(lit[0] <= block[0] and block[1] <= lit[1] for lit in out):
            out.append(block)
    return sorted(out)


def _ipv6_spans(question: str) -> list[tuple[int, int]]:
    """IPv6 addresses: eight groups, or fewer with one «::» (never a time such as 10:00:00)."""
    found = []
    for m in _IPV6.finditer(question):
        text = m[0]
        if text.count("::") == 1 or (text.count(":") == 7 and "::" not in text):
            if any(c.isalpha() for c in text) or "::" in text:
                found.append((m.start(), m.end()))
    return found


def _cued_first(literals: list[tuple[int, int]], question: str, cue: re.Pattern[str] | None = None) -> None:
    """Move the literal that follows «в строке», "in the string" to the front (it is the text).

    With ``cue``, the literal that follows it: «рубрика «Обратная связь». Разбери адрес на
    части: 603005, …» (:data:`_ADDRESS_CUE`) gives the address after its noun, not the rubric.
    """
    pattern, reach = (cue, 32) if cue else (_TEXT_CUE, 16)
    for i, (start, _) in enumerate(literals):
        if i and pattern.search(question[max(0, start - reach):start]):
            literals.insert(0, literals.pop(i))
            return


REPAIRED_DATA = frozenset({"charset.fix_mojibake"})
"""Utilities that repair their data: a span is their data only where calling them changes it."""


def _repaired(spans: list[tuple[int, int]], question: str, uid: str) -> list[tuple[int, int]]:
    """The spans that ``uid`` (:data:`REPAIRED_DATA`) changes.

    «UTF-8 прочитали как cp1251» is correct Russian, which no misreading undone gives back, so it
    is no garbled text. A span that the repair does not take whole is tried up to a dash set apart
    by spaces («Р“РµРјРѕРіР»РѕР±РёРЅ 132 Рі/Р» — почини пожалуйста»): the words after it are a remark.
    """
    kept = []
    for start, end in spans:
        dash = _REMARK_DASH.search(question, start, end)
        for stop in (end, dash.start()) if dash else (end,):
            text = question[start:stop]
            outcome = call_utility(uid, {"text": text})
            if outcome.ok and outcome.result != text:
                kept.append((start, stop))
                break
    return kept


_REMARK_DASH = re.compile(r"\s+[—–]\s+")


def _in_alphabet(spans: list[tuple[int, int]], question: str, alphabet: re.Pattern[str]
                 ) -> list[tuple[int, int]]:
    """The spans whose whole text is written in the utility's alphabet (:data:`DATA_ALPHABETS`)."""
    return [span for span in spans if alphabet.fullmatch(question, span[0], span[1])]


def _shaped_first(spans: list[tuple[int, int]], question: str, shape: re.Pattern[str]) -> None:
    """Move the spans that hold data of the utility's shape (:data:`DATA_SHAPES`) to the front."""
    spans.sort(key=lambda span: shape.search(question, span[0], span[1]) is None)


def _shape_runs(question: str, shape: re.Pattern[str]) -> list[tuple[int, int]]:
    """The unquoted runs of ``shape``, neighbours one space apart joined into one value.

    "her name shows up as Р•Р»РµРЅР° РЎРѕРєРѕР»РѕРІР°. Can you …": the two words of mojibake are
    the one text to repair, though no quote or digit marks them as data.
    """
    found: list[tuple[int, int]] = []
    for m in shape.finditer(question):
        if found and m.start() < found[-1][1]:
            continue  # a run inside the word the last one was carried to («купли-продажи»)
        end = m.end()
        while end < len(question) and not question[end].isspace() and question[end] not in ".,;:!?»”\")":
            end += 1  # the rest of the word the run ends in, not the quote or bracket closing it
        if found and re.fullmatch(r"[ \t]", question[found[-1][1]:m.start()]):
            found[-1] = (found[-1][0], end)
        else:
            found.append((m.start(), end))
    return found


_INTO_UNIT = re.compile(r"(?<!\w)(?:in|into|to|в|во)\s+$", re.IGNORECASE)


_FROM = re.compile(r"(?<!\w)(?:from|с|со)\s+$", re.IGNORECASE)
_TO = re.compile(r"(?<!\w)(?:to|до)\s+$", re.IGNORECASE)


def _from_to_first(numbers: list[tuple[int, int]], question: str) -> None:
    """Move the numbers after "from" and "to" («с», «до») to the front, in that order.

    "Yield on field 7 went from 52.4 c/ha last year to 61.9": the old and the new value are
    the ones the change runs between, not the field's number.
    """
    start = next((n for n in numbers if _FROM.search(question, max(0, n[0] - 6), n[0])), None)
    end = next((n for n in numbers if start is not None and n[0] > start[1]
                and _TO.search(question, max(0, n[0] - 4), n[0])), None)
    if start is not None and end is not None:
        numbers[:] = [start, end] + [n for n in numbers if n not in (start, end)]


def _measured_first(numbers: list[tuple[int, int]], question: str, uid: str) -> None:
    """Move the numbers written right before a unit that conversion ``uid`` accepts to the front.

    In "Pallet 4 of 6 - gross weight 1,850 lb" the value is the number the unit measures.
    """
    units = _unit_starts(question, unit_codes()[uid])
    numbers.sort(key=lambda n: not _written_in_unit(question, n[1], units))


def _orient(uid: str, question: str, bound: dict[str, ArgSpan], first: str, second: str) -> None:
    """Swap a *from*/*to* pair when only the *to* value is written right after the data value.

    «Сколько сантиметров в 5,5 дюймах?» names the target unit first; the unit written after the
    number is the one the number is in. Any span naming the same value counts, so
    "Москве … 09:00 (Europe/Moscow)" is read as the zone of the time.
    """
    vocabulary = vocabulary_for(uid, first)
    if vocabulary is None:
        return
    values = [span.end for name, span in bound.items()
              if name not in (first, second) and not span.normaliser.startswith("enum:")]
    if first == "from_tz":  # "a call at 14:00 Kaliningrad time on 15 October": the zone of the clock
        values += [m.end() for m in _CLOCK.finditer(question)]
    adjacent = set()
    for start, end in vocabularies()[vocabulary].spans(question):
        if any(start >= v and ADJACENT_GAP.match(question[v:start]) for v in values):
            try:
                adjacent.add(ArgSpan(start, end, f"enum:{vocabulary}").value(question))
            except NormaliseError:
                continue
    if bound[second].value(question) in adjacent and bound[first].value(question) not in adjacent:
        bound[first], bound[second] = bound[second], bound[first]


_TO_BASE = re.compile(r"(?:\b(?:to|into|in)|(?<!\w)(?:в|во|на|по))\s+(?:the\s+)?$", re.IGNORECASE)
_FROM_BASE = re.compile(r"(?:\bfrom|(?<!\w)(?:из|с|со))\s+(?:the\s+)?$", re.IGNORECASE)


def _base_for(name: str, bases: list[tuple[int, int]], question: str) -> ArgSpan | None:
    """The span naming the base ``name`` asks for, or None.

    "from"/«из» marks the source, "to"/"in"/«в»/«по» the target, and an unmarked one is the
    source if none is marked, else the target: «шестнадцатеричное 1A2 переведи в десятичную»
    reads 16 as the source and 10 as the target; "Convert 255 to base 2" names only the
    target, so the source stays absent (and the router refuses ``MISSING_ARGUMENT``).
    """
    def marked(pattern: re.Pattern[str]) -> list[tuple[int, int]]:
        return [(s, e) for s, e in bases if pattern.search(question[max(0, s - 12):s])]

    targets, sources = marked(_TO_BASE), marked(_FROM_BASE)
    plain = [span for span in bases if span not in targets and span not in sources]
    source = (sources or plain)[:1]
    if name == "from_base":
        chosen = source
    else:
        chosen = (targets or [span for span in plain if span not in source])[:1]
    return ArgSpan(chosen[0][0], chosen[0][1], "base") if chosen else None


_BEFORE_BASE = re.compile(r"(?<![\w-])([0-9A-Fa-f]+)\s+(?:from|in|из|в)\s+(?:the\s+)?$", re.IGNORECASE)
"""Digits written right before the base they are in: "ff from base 16", "ff in decimal"; digits of
base 16 at least, a whole word, so "it in binary" is none."""


def _digits_before_base(question: str, bases: list[tuple[int, int]]) -> list[tuple[int, int]]:
    """The digits written just before "from"/"in"/«из» and a base (:data:`_BEFORE_BASE`).

    "Convert ff from base 16 to base 2" gives «ff», which holds no decimal digit, so no token took it.
    """
    found = []
    for start, _ in bases:
        match = _BEFORE_BASE.search(question, 0, start)
        if match and match.span(1) not in found:
            found.append(match.span(1))
    return found


def _value_or_none(question: str, span: tuple[int, int], normaliser: str) -> Any:
    """The value ``normaliser`` gives the span, or None where it gives none."""
    try:
        return ArgSpan(*span, normaliser).value(question)
    except NormaliseError:
        return None


def _take(spans: list[tuple[int, int]], question: str, normaliser: str
          ) -> tuple[ArgSpan, Any] | None:
    """The first span of ``spans`` the normaliser gives a value for (taken out of the list)."""
    while spans:
        start, end = spans.pop(0)
        span = ArgSpan(start, end, normaliser)
        try:
            return span, span.value(question)
        except NormaliseError:
            continue
    return None


def _take_unit(name: str, offer: _Offer, accepted: frozenset[str] | set[str]) -> tuple[ArgSpan, Any] | None:
    """The unit a conversion's ``from_unit`` or ``to_unit`` takes (taken out of the offer).

    Its names, and its single letters where they stand as units ("350 F … in C"), in the
    question's order; a unit of another quantity is none ("kg" of a data size). The unit after
    the word that asks into one ("What is that in pounds?") is the target, and the source only
    where no other is written.
    """
    question = offer.question
    candidates = [ArgSpan(*s, "enum:unit") for s in offer.vocabulary("unit")]
    candidates += [ArgSpan(*s, "unit-letter") for s in offer.unit_letters()]
    own = sorted((c for c in candidates if c.value(question) in accepted), key=lambda c: c.start)
    into = [c for c in own if _INTO_UNIT.search(question[max(0, c.start - 8):c.start])]
    rest = [c for c in own if c not in into]
    for span in (into + rest if name == "to_unit" else rest + into):
        (offer.unit_letters() if span.normaliser == "unit-letter" else offer.vocabulary("unit")).remove(
            (span.start, span.end))
        return span, span.value(question)
    return None


def _take_duration(numbers: list[tuple[int, int]], question: str, unit: str, plain: str
                   ) -> tuple[ArgSpan, Any] | None:
    """The first number that counts ``unit`` (taken out of the list).

    One written with a unit of time is read with it («на 5 лет» is 60 months, :func:`normalise_duration`),
    and is passed over where that unit holds no whole number of ``unit`` («2 месяца» as days); a
    bare number is read as ``plain``.
    """
    while numbers:
        start, end = numbers.pop(0)
        after = duration_unit_after(question, end)
        span = ArgSpan(start, after[0], f"duration-{unit}") if after else ArgSpan(start, end, plain)
        try:
            value = span.value(question)
        except NormaliseError:
            continue
        if plain.startswith("integer") and not isinstance(value, int):
            continue  # «1,5 дня» is no whole number of days
        return span, value
    return None


class RuleRouter:
    """Keyword tables choose; every argument is a span of the question through a normaliser."""

    def __init__(self) -> None:
        catalog = load_catalog()
        self.schemas: dict[str, UtilitySchema] = dict(catalog.schemas)
        self.triggers: dict[str, tuple[str, ...]] = {}
        for uid in self.schemas:
            own = uid.split(".", 1)[1]
            auto = (own.lower(),) if "_" not in own else ()
            self.triggers[uid] = tuple(dict.fromkeys(auto + SYNONYMS.get(uid, ())))  # each word once
        # the one-word names of every utility («sha256», "uuid5"): a token that is one names no data
        self._names = frozenset(w for words in self.triggers.values() for w in words if " " not in w)
        # a trigger that begins with a letter begins a word; «% от» follows a digit; a utility's own
        # name is a whole word ("age" is no part of "agency")
        self._patterns = {uid: tuple((w, re.compile(
            (r"(?<![\w])" if w[:1].isalnum() else "") + re.escape(w)
            + (r"(?!\w)" if w == uid.split(".", 1)[1].lower() else ""))) for w in words)
            for uid, words in self.triggers.items()}

    def _scores(self, question: str) -> dict[str, int]:
        """Each utility's keyword score, for the utilities that score at all.

        The letters of its triggers found in the question, plus :data:`SHAPE_SCORE` when the
        question holds data of its shape (:data:`DATA_SHAPES`).
        """
        low = question.lower()
        scores = {}
        for uid, patterns in self._patterns.items():
            # the substring test is the cheap filter; the pattern then checks where the word begins
            score = sum(len(w) for w, pattern in patterns if w in low and any(
                not not_asked(low, m.start()) for m in pattern.finditer(low)))
            if holds_shape(uid, question):
                score += SHAPE_SCORE
            if score:
                scores[uid] = score
        if DECODING_VERB.search(low):
            for encoder, decoder in DECODING_PAIRS:
                if encoder in scores:
                    scores[decoder] = max(scores.get(decoder, 0), scores.pop(encoder) + 1)
        targets = conversion_targets(low)
        if targets:
            for uid in scores:
                direction = conversion_direction(uid, targets)
                if direction > 0 and uid.partition(".")[2].partition("_to_")[0] in low:
                    scores[uid] += TARGET_SCORE
                elif direction < 0:
                    scores[uid] = max(1, scores[uid] - TARGET_SCORE)
        return scores

    def _pick_utility(self, question: str) -> str | None:
        best, best_score = None, 0
        for uid, score in self._scores(question).items():
            if score > best_score:
                best, best_score = uid, score
        return best

    def _bind(self, uid: str, question: str) -> dict[str, ArgSpan]:
        """Each argument that a span of the question gives a value for, with that span."""
        schema = self.schemas[uid]
        offer = _Offer(question, schema, self.triggers[uid], self._patterns[uid], self._names)
        bound: dict[str, ArgSpan] = {}
        # a month binds first: in "month 2 of 2023" the year must not take the 2
        for arg in sorted(schema.arguments, key=lambda a: a.name != "month"):
            name = arg.name
            vocabulary = vocabulary_for(uid, name)
            taken: tuple[ArgSpan, Any] | None = None
            if name in BASE_ARGS:
                span = _base_for(name, offer.bases, question)
                taken = None if span is None else (span, span.value(question))
            elif vocabulary is not None:
                spans = offer.vocabulary(vocabulary)
                accepted = unit_codes().get(uid) if vocabulary == "unit" else None
                if accepted is None:
                    # of two modes, the one named last is asked for, the first the text as it is:
                    # "came in all lowercase, give me title case", «из нижнего регистра в верхний»
                    taken = _take(spans[::-1] if name == "mode" else spans, question, f"enum:{vocabulary}")
                    if taken is not None:  # «in Moscow (Europe/Moscow)»: a value named twice is one
                        spans[:] = [s for s in spans if _value_or_none(question, s, f"enum:{vocabulary}")
                                    != taken[1]]
                else:  # a unit of another quantity is no unit of this conversion ("kg" of a data size)
                    taken = _take_unit(name, offer, accepted)
                    if taken is not None:  # «12 соток (ares)»: a unit named twice is one
                        for kind, spans in (("enum:unit", offer.vocabulary("unit")),
                                            ("unit-letter", offer.unit_letters())):
                            spans[:] = [s for s in spans if _value_or_none(question, s, kind) != taken[1]]
            elif name in DATE_ARGS:
                # «с 1 по 31 марта 2026»: the first day takes its month and year from the end
                # and a date after "up to" or «до» ends a span of time, never starts it
                dates = ([d for d in offer.dates if not _UP_TO.search(question, max(0, d[0] - 12), d[0])]
                         if name == "start" else offer.dates)
                # and a moment's time may stand before its date ("at 15:30 … on 21.10.2025")
                taken = ((_take(offer.range_starts, question, "date-range-start")
                          if name == "start" else None)
                         or (_take(time_first_spans(question), question, "datetime-time-first")
                             if name == "datetime" else None)
                         or _take(dates, question, "date"))
                if taken is not None and taken[0].normaliser == "datetime-time-first":
                    offer.dates = [d for d in offer.dates if d[1] != taken[0].end]
                elif taken is not None and (taken[0].start, taken[0].end) in offer.dates:
                    offer.dates.remove((taken[0].start, taken[0].end))
            elif name in {"ip", "cidr"}:
                # a network is written with its prefix length, an address without one: in "is
                # 172.16.40.9 inside our office subnet?" the address is no network
                taken = _take([s for s in offer.ips if ("/" in question[s[0]:s[1]]) == (name == "cidr")],
                              question, "text")
            elif name == "roman":
                taken = _take([r for r in offer.romans if r[1] - r[0] >= 2], question, "text")
            elif name == "pattern":
                # a regular expression is written between backticks when the question has one
                ticked = [lit for lit in offer.literals if question[lit[0] - 1:lit[0]] == "`"]
                if ticked:
                    offer.literals.remove(ticked[0])
                    offer.literals.insert(0, ticked[0])
                # else one written unquoted right after its name («по регулярке \d+»)
                cued = [] if ticked else _cued_value(question, _PATTERN_CUE, offer.literals, _REGEX_MARK)
                taken = _take(cued, question, "text") or _take(offer.literals, question, "text")
            elif name == "replacement":
                # what replaces a match is named as such: «на `_`», "with `shade`", "replacement \2";
                # a literal without such a word is the text or the pattern, never the replacement
                cued = _cued_value(question, _REPLACEMENT_CUE, offer.literals) or [
                    lit for lit in offer.literals
                    if _REPLACED_BY.search(question[max(0, lit[0] - 16):lit[0]])]
                taken = _take(cued, question, "text")
                if taken is not None and (taken[0].start, taken[0].end) in offer.literals:
                    offer.literals.remove((taken[0].start, taken[0].end))
            elif name == "month":  # a month's name first, else a number 1-12
                taken = (_take(offer.months, question, "month")
                         or _take(offer.numbers, question, "month"))
            elif name == "digits" and (places := place_spans(question)):  # «до сотых»
                taken = _take(places, question, "places")
            elif name == "periods_per_year" and (periods := period_spans(question)):
                taken = _take(periods, question, "periods")  # «с ежемесячной капитализацией»
            elif name == "indent":  # "4-space indent", «с отступом в 2 пробела»
                taken = _take([m.span(g) for m in _INDENT.finditer(question) for g in (1, 2) if m[g]],
                              question, "integer")
            elif name in PERCENT_ARGS and (offer.percents or name == "percent"):
                # "15% of 2,400" gives its percentage a sign; a bare number beside another
                # ("from 3,200 to 4,100") is no percentage of it
                taken = _take(offer.percents, question, "number" + offer.number_style)
            elif name in DURATION_ARGS and arg.type in {"integer", "number"}:
                taken = _take_duration(offer.numbers, question, name, arg.type + offer.number_style)
            elif arg.type in {"integer", "number"} and (arg.role.value == "data" or arg.required):
                if name != "year":  # "seconds since 1970", «с 2019 года»: a year the count starts from
                    # and «3 года», «через 20» count time, no amount
                    offer.numbers = [n for n in offer.numbers if not _SINCE_YEAR.search(question, 0, n[1])
                                     and not (name in {"old", "new"} and _IN_YEAR.search(question, 0, n[1]))]
                if uid in unit_codes() and name == "value":
                    _measured_first(offer.numbers, question, uid)
                if name == "old":
                    _from_to_first(offer.numbers, question)
                taken = _take([n for n in offer.numbers if not _no_quantity(question, n, name)],
                              question, arg.type + offer.number_style)
                if taken is not None:
                    offer.numbers.remove((taken[0].start, taken[0].end))
            elif arg.role.value == "data" and arg.type == "string":
                # a quoted text that itself says the data is elsewhere («адрес тот же, что в
                # прошлом заказе») points at the data and is none
                # and so does one that counts its own parts («адрес: одна строка, символов 80»),
                # and one that opens by standing in for a value of a form («адрес: он в Казани, с
                # корпусом») where the value is no free text
                # and one that is what the value starts or ends with ("starts with 'Nsk'")
                offer.literals = [lit for lit in offer.literals
                                  if not ELSEWHERE_WORDS.search(question, lit[0], lit[1])
                                  and not (_counts_within(question, *lit) and not _quoted_text(question, lit))
                                  and not _PART_OF_VALUE.search(question, max(0, lit[0] - 21), lit[0])
                                  and not _CONTAINER.search(question, max(0, lit[0] - 12), max(0, lit[0] - 1))
                                  and (name in TAIL_ARGS or not _STANDS_IN.match(question, lit[0]))]
                if name in TAIL_ARGS:  # «…ИКАО: Гарипова Алсу Ринатовна, 8А. Мама ждёт»: the name
                    offer.literals = [_name_only(question, lit) for lit in offer.literals]
                if uid in ONE_SENTENCE_DATA:
                    offer.literals = [_one_sentence(question, lit) for lit in offer.literals]
                if name == "text":
                    _cued_first(offer.literals, question)
                if name == "address":
                    _cued_first(offer.literals, question, _ADDRESS_CUE)
                if uid in DATA_SHAPES:
                    _shaped_first(offer.literals, question, DATA_SHAPES[uid])
                    _shaped_first(offer.tokens, question, DATA_SHAPES[uid])
                if name == "domain":  # «пример.рф» holds no digit, so no token took it
                    offer.tokens = sorted(set(offer.tokens) | {
                        (m.start(), m.end()) for m in _DOMAIN.finditer(question)})
                if uid in DATA_ALPHABETS:
                    offer.literals = _in_alphabet(offer.literals, question, DATA_ALPHABETS[uid])
                    offer.tokens = _in_alphabet(offer.tokens, question, DATA_ALPHABETS[uid])
                if uid in REPAIRED_DATA:  # a text the repair leaves as it is was never misread
                    offer.literals = _repaired(offer.literals, question, uid)
                    offer.tokens = _repaired(offer.tokens, question, uid)
                if (name in TAIL_ARGS and ELSEWHERE_WORDS.search(question)) or uid in WORD_COUNTS:
                    # "the essay I attached? The limit is 500": with the text kept elsewhere, a bare
                    # number or date the question holds is a figure about it, not the text
                    offer.tokens = [t for t in offer.tokens if any(c.isalpha() for c in question[t[0]:t[1]])]
                if name in TAIL_ARGS:
                    # "about 40 Cyrillic characters", "300 rows": a figure about the data
                    offer.tokens = [t for t in offer.tokens if not _figure_about_data(question, t)]
                if name in TAIL_ARGS and _cue_named(question):
                    # a word its noun names as the data comes before a bare number («у слова
                    # электрификация, если поле принимает 32?»: the 32 is a limit, not the text)
                    offer.tokens = [t for t in offer.tokens if not question[t[0]:t[1]].isdigit()]
                kind = "code" if name in CODE_ARGUMENTS else "text"
                if kind == "code":  # a whole date ("2025-01-31") is a date, never an identifier,
                    # and a sum with its currency ("Invoice for 96 000 rub.") is money
                    offer.tokens = [t for t in offer.tokens if t not in offer.date_spans
                                    and not _CURRENCY_AFTER.match(question, t[1])]
                # the word after "name" is named as the data: it comes before a bare token
                # ("a version-5 UUID for the name example.org")
                named = _named_word(question) if name == "name" else []
                named_modes = [span for a in schema.arguments if a.name == "mode"
                               and (mode := vocabulary_for(uid, a.name)) is not None
                               for span in vocabularies()[mode].separate_spans(question)]
                # and it is chosen inside a literal too («UUID v3: пространство URL, имя x.org»)
                if named and any(ls <= named[0][0] and named[0][1] <= le for ls, le in offer.literals[:1]):
                    offer.literals.pop(0)
                taken = (_take(offer.literals, question, kind)
                         or (_take(offer.pair, question, kind) if name in PAIR_ARGS else None)
                         or _take(named, question, kind)
                         # a full name with its patronymic is one value («Шарафутдинов Рустем Ильдарович»)
                         or (_take([m.span() for m in _FULL_NAME.finditer(question)], question, kind)
                             if name in TAIL_ARGS else None)
                         or _take(offer.tokens, question, kind)
                         # a run of the data's shape that names a mode ("camelCase to snake_case")
                         # is that mode, whichever of the two was taken
                         or (_take([r for r in _shape_runs(question, DATA_SHAPES[uid])
                                    if not _overlaps(r, named_modes)], question, kind)
                             if uid in DATA_SHAPES and name in TAIL_ARGS else None)
                         or _take(_digits_before_base(question, offer.bases), question, kind)
                         or (_take(_marked_runs(question, self.triggers[uid]), question, kind)
                             if uid in ESCAPED_DATA else None)
                         or (_take(_cued_value(question, _SUBSTRING_CUE, offer.literals), question, kind)
                             if name == "substring" else None)
                         or (_take(_in_alphabet(offer.tail(), question, DATA_ALPHABETS[uid])
                                   if uid in DATA_ALPHABETS else _repaired(offer.tail(), question, uid)
                                   if uid in REPAIRED_DATA else offer.tail(), question, kind)
                             # with the data kept elsewhere, unquoted words describe it
                             if name in TAIL_ARGS and not ELSEWHERE_WORDS.search(question) else None))
            if taken is not None:
                bound[name] = taken[0]
        for first, second in DIRECTED_PAIRS:
            if first in bound and second in bound:
                _orient(uid, question, bound, first, second)
        # one span is one value: a text argument that took the very span of another argument
        # (a literal `12` that is also the pattern) is left unbound rather than guessed
        for name in [n for n, span in bound.items() if span.normaliser == "text"]:
            span = bound[name]
            if any(other != name and (s.start, s.end) == (span.start, span.end)
                   for other, s in bound.items()):
                del bound[name]
        return bound

    def _decision(self, uid: str, question: str, spans: dict[str, ArgSpan]) -> RouterDecision:
        """The utility decision, or ``SEVERAL_REQUESTS`` when another utility's data is there too."""
        other = self._second_request(uid, question, spans)
        if other is not None:
            refusal = Refusal(
                code=SEVERAL_REQUESTS, area="rule router (one utility a question)",
                numbers={"utilities": [uid, other]},
                text=f"The question gives the data of two utilities, {uid} and {other}; the "
                     "router binds one request a question, so it called neither.")
            return RouterDecision(source=Source.REFUSE, refusal=refusal, raw_output=SEVERAL_REQUESTS)
        args = {name: span.value(question) for name, span in spans.items()}
        return RouterDecision(source=Source.UTILITY, category=uid.split(".")[0], utility=uid,
                              args=args, raw_output=uid, arg_spans=spans)

    def _second_request(self, uid: str, question: str, spans: dict[str, ArgSpan]) -> str | None:
        """Another utility of another category that the question also gives all its data for.

        Its trigger words and its bound spans must lie apart from the first utility's, so two
        requests in one question are told from one request that mentions two topics.
        """
        first = list(spans.values())
        first_spans = [(s.start, s.end) for s in first]
        category = uid.split(".")[0]
        for other, _ in sorted(self._scores(question).items(), key=lambda kv: -kv[1]):
            if other.split(".")[0] == category:
                continue
            if set(self.triggers[other]) & set(self.triggers[uid]):
                continue
            bound = self._bind(other, question)
            required = [a.name for a in self.schemas[other].arguments if a.required]
            data = [a.name for a in self.schemas[other].arguments if a.role.value == "data"]
            if not data or any(name not in bound for name in required):
                continue
            theirs = [(bound[n].start, bound[n].end) for n in data if n in bound]
            if theirs and not any(_overlaps(span, first_spans) for span in theirs):
                return other
        return None

    def _spec_decision(self, chosen: SpecEvidence, question: str) -> RouterDecision:
        """The chosen spec with its settled inputs, or a refusal for an input left open.

        ``MISSING_ARGUMENT`` names the first open input that the conclusion depends on.
        """
        missing = open_spec_inputs(chosen.spec, chosen.settled)
        if missing:
            return self._refuse("MISSING_ARGUMENT", question, spec=chosen.spec, missing=missing[0])
        return RouterDecision(source=Source.SPEC, category="vat", spec=chosen.spec,
                              args=dict(chosen.settled), raw_output=chosen.spec)

    def _refuse(self, code: str, question: str, text: str | None = None, **numbers: Any
                ) -> RouterDecision:
        refusal = Refusal(code=code, area=f"rule router ({len(self.schemas)} utilities, "
                          f"{len(spec_cues()) - 1} spec vocabularies)", numbers=numbers,
                          text=text or f"The rule router found no source for this question ({code}).")
        return RouterDecision(source=Source.REFUSE, refusal=refusal, raw_output=code)

    def route(self, question: str) -> RouterDecision:
        """Decide where ``question`` goes by keywords and patterns."""
        low = question.lower()
        # a quoted text is data, and a zone's name («Europe/Stockholm») no word of its own
        out = _OUT.search(_IANA_ZONE_RE.sub(" ", blank_literals(question, colon_tail=False)).lower())
        if out:
            return self._refuse("OUT_OF_SCOPE", question, out_of_scope_word=out[0].strip())
        fact = asks_world_fact(question)
        if fact is not None:
            return self._refuse("OUT_OF_SCOPE", question, out_of_scope_word=fact.lower())
        premise = unheld_premise(question)
        if premise is not None:
            return self._refuse("OUT_OF_SCOPE", question, premise_text(premise), **premise)
        chosen = choose_spec(question)
        uid = self._pick_utility(question)
        spans = self._bind(uid, question) if uid is not None else {}
        missing = ([a for a in self.schemas[uid].arguments if a.required and a.name not in spans]
                   if uid is not None else [])
        # a spec that would leave an input open gives way to a utility the question gives everything
        if chosen is not None and not (uid is not None and not missing
                                       and open_spec_inputs(chosen.spec, chosen.settled)):
            return self._spec_decision(chosen, question)
        if uid is not None and asks_reason_itself(question):
            # a utility computes and gives no reason; the words that named it name a topic of the
            # course, which may give one ("Why does an INN have 12 digits?")
            return RouterDecision(source=Source.QUOTE, raw_output="quote")
        if uid is not None:
            if not missing:
                return self._decision(uid, question, spans)
            if missing[0].role.value == "data" and names_charset_of_data(question, self.schemas[uid]):
                return self._refuse("ARGUMENT_IS_CIRCUMSTANCE", question, utility=uid,
                                    argument=missing[0].name)
            # a request that points at data it does not give lacks that data, whatever literal
            # it quotes ("The SNILS from the new hire's form: does it check out?")
            # and one that describes the data by its parts («символов 80») gives none of it
            if not _COURSE.search(low) or _points_at_own_data(question, missing) or (
                    not question_literals(question) and not asks_about_topic(question, missing)) or (
                    missing[0].role.value == "data" and describes_data(question)):
                if missing[0].role.value == "data" and describes_data(question):
                    return self._refuse("ARGUMENT_IS_CIRCUMSTANCE", question, utility=uid,
                                        argument=missing[0].name)
                return self._refuse("MISSING_ARGUMENT", question, utility=uid,
                                    missing=missing[0].name)
        if _COURSE.search(low) and not orders_computation(question):
            return RouterDecision(source=Source.QUOTE, raw_output="quote")  # an order is no question
        if uid is not None:
            first = next(a.name for a in self.schemas[uid].arguments if a.required)
            return self._refuse("MISSING_ARGUMENT", question, utility=uid, missing=first)
        return self._refuse("OUT_OF_SCOPE", question, keywords_matched=0)

    def route_within(self, question: str, source: Source) -> RouterDecision:
        """The best decision for ``question`` that uses ``source``, or a refusal naming why none.

        What ``ask --source`` calls: the choice of source is the user's; the utility or spec id
        and every argument are still the router's, bound from spans of the question.
        """
        if source is Source.QUOTE:
            return RouterDecision(source=Source.QUOTE, raw_output="quote")
        if source is Source.SPEC:
            chosen = choose_spec(question)
            if chosen is None:
                return self._refuse("NO_SPEC_FOUND", question, specs=len(spec_cues()) - 1)
            return self._spec_decision(chosen, question)
        uid = self._pick_utility(question)
        if uid is None:
            return self._refuse("NO_UTILITY_FOUND", question, utilities=len(self.schemas))
        spans = self._bind(uid, question)
        missing = [a.name for a in self.schemas[uid].arguments if a.required and a.name not in spans]
        if missing:
            return self._refuse("MISSING_ARGUMENT", question, utility=uid, missing=missing[0])
        return self._decision(uid, question, spans)


SEVERAL_REQUESTS = "SEVERAL_REQUESTS"
"""The rule router's refusal of a question that carries the data of two utilities."""


@router("rule")
def rule_router() -> RuleRouter:
    """Build the :class:`RuleRouter` (it has no parameters)."""
    return RuleRouter()
