"""The rule router: a deterministic keyword/pattern baseline, the floor every model must beat.

It is deliberately simple. A utility is chosen by keyword tables (triggers derived from each
utility id plus hand-written Russian and English synonyms); arguments are pulled from the question
by small extractors (quoted/backticked literals and the text after a colon, numbers, dates, IP
addresses, charsets, time zones, units). VAT-rule questions go to a specification when they match a
spec's vocabulary, other course-subject questions go to ``quote``; a chosen utility whose required
argument has no value is refused with ``MISSING_ARGUMENT``, anything else with ``OUT_OF_SCOPE``.
"""

from __future__ import annotations

import re
from typing import Any

from workbench.refusal import Refusal
from workbench.registry import router
from workbench.relevance import question_literals
from workbench.routing._records import RouterDecision, Source
from workbench.utilities import UtilitySchema, load_catalog

SYNONYMS: dict[str, tuple[str, ...]] = {
    "hash.sha256": ("sha-256", "sha256"), "hash.sha1": ("sha-1", "sha1"),
    "hash.sha512": ("sha-512", "sha512"), "hash.sha384": ("sha-384", "sha384"),
    "hash.sha224": ("sha-224", "sha224"), "hash.sha3_256": ("sha3-256", "sha3"),
    "hash.md5": ("md5",), "hash.crc32": ("crc32", "crc-32"), "hash.adler32": ("adler-32", "adler32"),
    "hash.blake2b": ("blake2b", "blake2"), "hash.hmac_sha256": ("hmac",),
    "encoding.base64_encode": ("base64", "в base64", "base64-encode"),
    "encoding.base64_decode": ("из base64", "раскодируй base64", "decode base64", "написано в base64"),
    "encoding.base64url_encode": ("url-safe base64", "base64url"),
    "encoding.base32_encode": ("base32",), "encoding.base32_decode": ("из base32",),
    "encoding.hex_encode": ("в hex", "to hex", "hex-encode"), "encoding.hex_decode": ("из hex",),
    "encoding.url_encode": ("для url", "url-encode", "percent-encode"),
    "encoding.url_decode": ("из url", "url-decode", "percent-decode"),
    "encoding.html_escape": ("для вставки в html", "escape for html", "html-escape"),
    "encoding.html_unescape": ("сущности обратно", "html entities", "unescape"),
    "encoding.punycode_encode": ("idna", "punycode"), "encoding.punycode_decode": ("из punycode",),
    "encoding.rot13": ("rot13", "rot-13"),
    "charset.fix_mojibake": ("кракозябр", "mojibake"), "charset.utf8_length": ("байт в utf-8",),
    "charset.codepoints": ("кодовые точки", "code point"), "charset.char_names": ("unicode-имена",
                                                                                   "unicode name"),
    "charset.normalize": ("нормализ", "nfc", "nfd"), "charset.transcode": ("перекодируй", "transcode"),
    "charset.decode": ("раскодируй байты", "decode the bytes"),
    "charset.encode": ("какие байты", "which bytes"), "charset.byte_length": ("сколько байт",
                                                                               "how many bytes"),
    "text.stats": ("статистик", "statistics"), "text.word_count": ("сколько слов", "how many words",
                                                                   "word count"),
    "text.slugify": ("slug",), "text.transliterate": ("латиниц", "транслит", "transliterat"),
    "text.change_case": ("регистр", "snake_case", "camelcase", "заглавной", "uppercase", "lowercase"),
    "text.levenshtein": ("левенштейн", "levenshtein"), "text.count_substring": ("сколько раз",
                                                                                 "how many times"),
    "text.is_palindrome": ("палиндром", "palindrome"), "text.reverse": ("задом наперёд", "reverse"),
    "text.dedupe_lines": ("повторяющиеся строки", "duplicate lines"),
    "text.sort_lines": ("отсортируй строки", "sort the lines"),
    "text.collapse_whitespace": ("лишние пробелы", "whitespace"),
    "format.json_to_yaml": ("json в yaml", "json to yaml"), "format.yaml_to_json": ("yaml",),
    "format.csv_to_json": ("csv в json", "csv to json"), "format.json_to_csv": ("в csv", "to csv"),
    "format.json_pretty": ("pretty", "отформатируй json", "с отступ"),
    "format.json_minify": ("одну строку", "minify"), "format.csv_to_markdown": ("markdown",),
    "format.json_sort_keys": ("ключи", "sort the keys"), "format.json_validate": ("валидный json",
                                                                                   "valid json"),
    "number.convert_base": ("систем", "binary", "octal", "двоичн", "шестнадцатерич"),
    "number.to_roman": ("римск", "roman numeral"), "number.from_roman": ("what number is",
                                                                         "какое число"),
    "number.to_words_ru": ("словами", "прописью"), "number.to_words_en": ("in words",),
    "number.round": ("округли", "round"), "number.percent_of": ("percent of", "процентов от"),
    "number.gcd": ("нод", "greatest common divisor", "gcd"), "number.is_prime": ("простое", "prime"),
    "date.diff_days": ("сколько дней между", "how many days from", "days between"),
    "date.add_days": ("через", "дней после", "days after"),
    "date.add_months": ("месяца после", "месяцев после", "months after"),
    "date.weekday": ("день недели", "day of the week", "weekday"),
    "date.to_unix": ("в unix", "to unix"), "date.from_unix": ("метк", "timestamp"),
    "date.convert_timezone": ("когда в", "time zone"), "date.iso_week": ("iso-недел", "iso week"),
    "date.is_leap_year": ("високосн", "leap year"), "date.business_days": ("будних", "business days",
                                                                            "рабочих дней"),
    "date.age": ("полных лет", "how old"), "date.day_of_year": ("day of the year", "день года"),
    "date.days_in_month": ("дней в месяце", "days in"),
    "address.parse_ru": ("разбери адрес", "разложи на части"), "address.normalize_ru": (
        "адрес к стандартному", "normalize the address"),
    "address.validate_postcode_ru": ("индекс",), "address.extract_postcode": ("почтовые индексы",
                                                                              "postcodes"),
    "address.format_ru": ("собери строку адреса",),
    "id.validate_inn": ("инн", "inn"), "id.validate_snils": ("снилс", "snils"),
    "id.validate_bik": ("бик", "bik"), "id.validate_kpp": ("кпп", "kpp"),
    "id.validate_ogrn": ("огрн", "ogrn"), "id.validate_iban": ("iban",),
    "id.validate_isbn": ("isbn",), "id.validate_ean13": ("ean",), "id.luhn_check": ("luhn", "луна"),
    "id.uuid5": ("uuid v5", "uuid5"), "id.uuid3": ("uuid v3", "uuid3"),
    "net.cidr_info": ("сети", "subnet", "network"), "net.ip_in_network": ("входит ли", "is the ip"),
    "net.ip_to_int": ("целое число", "to an integer"), "net.int_to_ip": ("в ip", "to an ip"),
    "net.mac_normalize": ("mac",), "net.parse_url": ("url на части", "parse the url", "разбери url"),
    "net.ipv6_expand": ("разверни", "expand"), "net.ipv6_compress": ("сожми ipv6", "compress"),
    "net.prefix_to_netmask": ("netmask", "маска для"),
    "color.hex_to_rgb": ("rgb values", "rgb у цвета"), "color.rgb_to_hex": ("hex",),
    "color.rgb_to_hsl": ("hsl",), "color.rgb_to_cmyk": ("cmyk",), "color.contrast_ratio": (
        "contrast", "контраст"),
    "units.length": ("дюйм", "сантиметр", "inch", "метр", "mile", "миль", "feet"),
    "units.mass": ("фунт", "килограмм", "kilogram", "тонн", "pound"),
    "units.temperature": ("цельси", "celsius", "fahrenheit", "kelvin", "°f", "°c"),
    "units.data_size": ("tib", "gib", "мегабайт", "гигабайт"), "units.area": ("square", "квадрат"),
    "money.vat_add": ("начисли ндс", "add vat"), "money.vat_extract": ("выдели ндс", "extract vat"),
    "money.percent_change": ("на сколько процентов", "percent change"),
    "money.loan_payment": ("платёж по кредиту", "monthly payment", "loan"),
    "money.amount_in_words_ru": ("прописью", "in russian words"),
    "money.compound_interest": ("вклад", "compound", "капитализац"),
    "money.discount": ("скидк", "discount"),
    "regex.find_all": ("find all", "find every", "все вхождения"), "regex.match": ("совпадёт",
                                                                                   "match"),
    "regex.replace": ("replace", "замени"), "regex.escape": ("escape", "экранируй"),
    "regex.split": ("раздели по", "split"),
}
"""Hand-written triggers per utility id (lower case, matched as substrings)."""

CHARSETS = ("windows-1251", "cp1251", "koi8-r", "cp866", "utf-8", "utf-16", "latin-1", "iso-8859-5")
TIMEZONES = {"europe/moscow": "Europe/Moscow", "utc": "UTC", "asia/novosibirsk": "Asia/Novosibirsk",
             "europe/london": "Europe/London", "asia/yekaterinburg": "Asia/Yekaterinburg"}
UNITS = {"дюйм": "in", "inch": "in", "сантиметр": "cm", "centimet": "cm", "фунт": "lb", "pound": "lb",
         "килограмм": "kg", "kilogram": "kg", "тонн": "t", "цельси": "C", "celsius": "C",
         "fahrenheit": "F", "°f": "F", "kelvin": "K", "tib": "TiB", "tb": "TB", "square feet": "ft2",
         "square metre": "m2"}
MONTHS = {"январ": 1, "феврал": 2, "март": 3, "апрел": 4, "ма": 5, "июн": 6, "июл": 7, "август": 8,
          "сентябр": 9, "октябр": 10, "ноябр": 11, "декабр": 12, "january": 1, "february": 2,
          "march": 3, "april": 4, "may": 5, "june": 6, "july": 7, "august": 8, "september": 9,
          "october": 10, "november": 11, "december": 12}
SPECS: dict[str, tuple[str, ...]] = {
    "vat.rate_for_supply": ("экспорт", "export"),
    "vat.standard_rate_by_date": ("отгрузк", "shipped on"),
    "vat.invoice_deadline": ("счёт-фактур", "invoice"),
    "vat.services_exemption": ("149",),
    "vat.turnover_exemption": ("выручк", "revenue"),
    "vat.estimated_rate": ("аванс", "предоплат", "advance"),
    "vat.volume_bonus_base": ("премия", "bonus"),
    "vat.reduced_rate_by_category": ("reduced", "льготн", "категор"),
}
"""Spec ids and the vocabulary that sends a VAT-rule question to them (first match wins)."""
VAT_WORDS = ("ндс", "vat", "налог на добавленную")
COURSE_WORDS = ("unicode", "юникод", "utf", "json", "csv", "xml", "ipv", "iso", "unix", "base32",
                "base64", "crc", "снилс", "инн", "кпп", "iban", "бик", "индекс", "postcode", "фиас",
                "fias", "rfc", "високосн", "leap", "bom", "ндс", "vat", "адрес", "счёт", "account",
                "сортировк", "ёж", "form-encoded", "entities", "праздник", "кодировк", "encoding")
OUT_WORDS = ("погод", "weather", "курс", "биткоин", "bitcoin", "акци", "stock", "будет в 20",
             "will", "франц", "france", "казахстан", "стоит", "фильм", "стихотворени", "poem")

_DATE_ISO = re.compile(r"\b(\d{4})-(\d{2})-(\d{2})(?:[ T](\d{2}):(\d{2}))?")
_DATE_DOT = re.compile(r"\b(\d{2})\.(\d{2})\.(\d{4})\b")
_DATE_WORDS = re.compile(r"\b(\d{1,2})\s+([а-яёa-z]+)\s+(\d{4})", re.IGNORECASE)
_NUMBER = re.compile(r"(?<![\w.#])-?\d{1,3}(?:[ \u00a0,]\d{3})+(?:[.,]\d+)?(?![\d])"
                     r"|(?<![\w.#])-?\d+(?:[.,]\d+)?")
_TOKEN = re.compile(r"(?<![\w#])#?[\w][\w\-:./]*\d[\w\-:./]*|#[0-9a-fA-F]{3,8}\b")
_PERCENT = re.compile(r"(\d+(?:[.,]\d+)?)\s*%")
_IP = re.compile(r"\b\d{1,3}(?:\.\d{1,3}){3}(?:/\d{1,2})?\b")


def _dates(question: str) -> list[str]:
    found: list[tuple[int, str]] = []
    for m in _DATE_ISO.finditer(question):
        iso = f"{m[1]}-{m[2]}-{m[3]}"
        found.append((m.start(), iso + (f"T{m[4]}:{m[5]}:00" if m[4] else "")))
    for m in _DATE_DOT.finditer(question):
        found.append((m.start(), f"{m[3]}-{m[2]}-{m[1]}"))
    for m in _DATE_WORDS.finditer(question):
        word = m[2].lower()
        month = next((n for stem, n in sorted(MONTHS.items(), key=lambda kv: -len(kv[0]))
                      if word.startswith(stem)), None)
        if month:
            found.append((m.start(), f"{m[3]}-{month:02d}-{int(m[1]):02d}"))
    return [d for _, d in sorted(found)]


def _numbers(question: str) -> list[int | float]:
    stripped = _IP.sub(" ", _DATE_ISO.sub(" ", _DATE_DOT.sub(" ", question)))
    out: list[int | float] = []
    for m in _NUMBER.finditer(stripped):
        raw = m.group(0)
        if re.fullmatch(r"-?\d{1,3}(?:,\d{3})+", raw) or re.search(r"[ \u00a0]\d{3}", raw):
            raw = re.sub(r"[ \u00a0,](?=\d{3})", "", raw)
        raw = raw.replace(",", "") if "." in raw else raw.replace(",", ".")
        value = float(raw)
        out.append(int(value) if value.is_integer() and "." not in raw else value)
    return out


class RuleRouter:
    """Keyword tables and small extractors; no model, no tuning to individual items."""

    def __init__(self) -> None:
        catalog = load_catalog()
        self.schemas: dict[str, UtilitySchema] = dict(catalog.schemas)
        self.triggers: dict[str, tuple[str, ...]] = {}
        for uid in self.schemas:
            own = uid.split(".", 1)[1]
            auto = (own.lower(),) if "_" not in own else ()
            self.triggers[uid] = auto + SYNONYMS.get(uid, ())

    def _pick_utility(self, low: str) -> str | None:
        best, best_score = None, 0
        for uid, words in self.triggers.items():
            score = sum(len(w) for w in words if re.search(r"(?<![\w])" + re.escape(w), low))
            if score > best_score:
                best, best_score = uid, score
        return best

    def _bind(self, uid: str, question: str) -> dict[str, Any]:
        schema = self.schemas[uid]
        low = question.lower()
        literals = question_literals(question)
        head, colon, tail = question.partition(":")
        if colon and tail.strip()[:1] in {"{", "["} or "\n" in tail.strip():
            literals = [tail.strip()] + [x for x in literals if x != tail.strip()]
        tokens = [t.rstrip(".?") for t in _TOKEN.findall(question)]
        percents = [float(p.replace(",", ".")) for p in _PERCENT.findall(question)]
        percents_int: list[int | float] = [int(p) if p.is_integer() else p for p in percents]
        numbers = _numbers(question)
        dates = _dates(question)
        ips = _IP.findall(question)
        args: dict[str, Any] = {}
        if any(a.name in {"rate", "percent", "annual_rate"} for a in schema.arguments):
            for value in percents_int:
                if value in numbers:
                    numbers.remove(value)
        own = self.triggers[uid]
        tokens = [t for t in tokens if t.lower() not in CHARSETS and not any(w in t.lower() for w in own)]
        charsets = [c for c in CHARSETS if c in low]
        zones = [v for k, v in TIMEZONES.items() if k in low]
        units = [v for _, v in sorted((low.index(k), v) for k, v in UNITS.items() if k in low)]
        for arg in schema.arguments:
            name = arg.name
            if name in {"charset", "from_charset", "to_charset"}:
                if charsets:
                    args[name] = charsets.pop(0)
            elif name in {"tz", "from_tz", "to_tz"}:
                if zones:
                    args[name] = zones.pop(0)
            elif name in {"from_unit", "to_unit"}:
                if units:
                    args[name] = units.pop(0)
            elif name in {"date", "start", "end", "birth_date", "on_date", "datetime"}:
                if dates:
                    args[name] = dates.pop(0)
            elif name in {"ip", "cidr"}:
                if ips:
                    args[name] = ips.pop(0)
            elif name in {"rate", "percent", "annual_rate"} and percents_int:
                args[name] = percents_int.pop(0)
            elif arg.type in {"integer", "number"} and arg.role.value == "data" or (
                    arg.type in {"integer", "number"} and arg.required):
                if numbers:
                    value = numbers.pop(0)
                    args[name] = int(value) if arg.type == "integer" else value
            elif arg.role.value == "data" and arg.type == "string":
                if literals:
                    args[name] = literals.pop(0)
                elif tokens:
                    args[name] = tokens.pop(0)
        return args

    def _refuse(self, code: str, question: str, **numbers: Any) -> RouterDecision:
        refusal = Refusal(code=code, area=f"rule router ({len(self.schemas)} utilities, "
                          f"{len(SPECS)} spec vocabularies)", numbers=numbers,
                          text=f"The rule router found no source for this question ({code}).")
        return RouterDecision(source=Source.REFUSE, refusal=refusal, raw_output=code)

    def route(self, question: str) -> RouterDecision:
        """Decide where ``question`` goes by keywords and patterns."""
        low = question.lower()
        if any(w in low for w in OUT_WORDS):
            return self._refuse("OUT_OF_SCOPE", question)
        if any(w in low for w in VAT_WORDS) and not question_literals(question):
            for spec, words in SPECS.items():
                if any(w in low for w in words):
                    return RouterDecision(source=Source.SPEC, category="vat", spec=spec,
                                          raw_output=spec)
        uid = self._pick_utility(low)
        if uid is not None:
            args = self._bind(uid, question)
            missing = [a.name for a in self.schemas[uid].arguments if a.required and a.name not in args]
            if not missing:
                return RouterDecision(source=Source.UTILITY, category=uid.split(".")[0], utility=uid,
                                      args=args, raw_output=uid)
            if not any(w in low for w in COURSE_WORDS) or len(question_literals(question)) == 0 and \
                    not any(c in question for c in "?？"):
                return self._refuse("MISSING_ARGUMENT", question, utility=uid, missing=missing[0])
        if any(w in low for w in COURSE_WORDS):
            return RouterDecision(source=Source.QUOTE, raw_output="quote")
        if uid is not None:
            missing = [a.name for a in self.schemas[uid].arguments if a.required]
            return self._refuse("MISSING_ARGUMENT", question, utility=uid, missing=missing[0])
        return self._refuse("OUT_OF_SCOPE", question)


@router("rule")
def rule_router() -> RuleRouter:
    """Build the :class:`RuleRouter` (it has no parameters)."""
    return RuleRouter()
