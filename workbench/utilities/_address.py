"""Address category: Russian postal addresses parsed, normalised, formatted; postcodes.

The parser is a small rule set over comma-separated parts: each part is recognised by its marker
(``г.``, ``ул.``, ``д.``, ``корп.``, ``кв.``, a region word) or, failing that, by its shape (six
digits, a bare house number, a known federal city). It reads what is written; it does not look
anything up in an address register.
"""

from __future__ import annotations

import re
from typing import Any

from workbench.utilities._schema import CLAUSE_END, BadArgument, data, define, ex, text_form

POSTCODE = re.compile(r"(?<!\d)([1-6]\d{5})(?!\d)")
FEDERAL_CITIES = ("Москва", "Санкт-Петербург", "Севастополь")
CITY_MARKER = re.compile(r"^(?:г\.|г\s|город\s)\s*(.+)$", re.IGNORECASE)
# Street types: every spelling -> the abbreviation used in a normalised address.
STREET_TYPES = {
    "ул": "ул.", "улица": "ул.", "пр-кт": "пр-кт", "пр-т": "пр-кт", "просп": "пр-кт",
    "проспект": "пр-кт", "пер": "пер.", "переулок": "пер.", "ш": "ш.", "шоссе": "ш.",
    "наб": "наб.", "набережная": "наб.", "пл": "пл.", "площадь": "пл.", "б-р": "б-р",
    "бульвар": "б-р", "проезд": "проезд", "аллея": "аллея", "туп": "туп.", "тупик": "туп.",
    "мкр": "мкр.", "микрорайон": "мкр.",
}  # fmt: skip
_TYPE_ALT = "|".join(sorted((re.escape(k) for k in STREET_TYPES), key=len, reverse=True))
STREET_PREFIX = re.compile(rf"^({_TYPE_ALT})\.?\s+(.+)$", re.IGNORECASE)
STREET_SUFFIX = re.compile(rf"^(.+?)\s+({_TYPE_ALT})\.?$", re.IGNORECASE)
REGION_WORDS = {"область": "обл.", "обл": "обл.", "край": "край", "республика": "Респ.",
                "респ": "Респ.", "автономный округ": "АО", "ао": "АО"}  # fmt: skip
REGION = re.compile(
    r"(?:^|\s)(область|обл\.?|край|республика|респ\.?|автономный округ|АО)(?:\s|$)", re.IGNORECASE
)
NUM = r"(\d+[а-яё]?(?:/\d+[а-яё]?)?)"
HOUSE = re.compile(rf"(?:^|\s)(?:дом|д\.?)\s*{NUM}(?=$|[\s,]|к)", re.IGNORECASE)
BUILDING = re.compile(
    r"(?:(?<=\d)|(?:^|\s))(корпус|корп\.?|к\.?|строение|стр\.?)\s*(\d+[а-яё]?)", re.IGNORECASE
)
FLAT = re.compile(r"(?:^|\s)(?:квартира|кв\.?)\s*(\d+[а-яё]?)", re.IGNORECASE)
BARE_HOUSE = re.compile(rf"^{NUM}$", re.IGNORECASE)
POSTCODE_INSIDE = re.compile(r"(?<!\d)(\d{6})(?!\d)")
FIELDS = ("postcode", "region", "city", "street", "house", "building", "flat")
ADDRESS = data("address", "string", "the postal address", "почтовый адрес", form="address")
ABBREVIATED = re.compile(r"(?:^|[\s,.])(?:г|гор|ул|д|кв|обл|корп|к|стр|оф|пр|пр-т|пр-кт|просп|наб|пер|пл|ш|"
                         r"мкр|пос|п|с|р-н|респ|б-р|туп|лит|эт|пом|каб|влд|им)$", re.IGNORECASE)
"""A word that ends in an abbreviation's full stop (``г.``, ``ул.``, ``кв.``): no sentence ends there."""
ADDRESS_FIELDS = 2
"""The fewest parts the parser must read for a text to hold an address."""


def _read_fields(text: str) -> dict[str, Any]:
    return {k: v for k, v in parse(text).items() if k != "other" and v is not None}


@text_form("address", within=True)
def address_spans(text: str) -> list[tuple[int, int]]:
    """The address that ``text`` opens with, or nothing where the parser reads fewer than two parts.

    It runs up to the first clause end after which no part of an address follows.

    «443099, г. Самара, ул. Молодогвардейская, д. 151, кв. 45. Заявитель ждёт у окна» gives the
    address up to «кв. 45»: the sentence after it adds no part. A full stop after an abbreviation
    (``г.``, ``кв.``) ends no clause, and no comma is a clause end (``оф. 310`` at the end of an
    address stays with it, though the parser leaves it in ``other``).
    """
    text = text[:2000]
    whole = _read_fields(text)
    if len(whole) < ADDRESS_FIELDS:
        return []
    for end in CLAUSE_END.finditer(text):
        at = end.start()
        if end[0] == "." and ABBREVIATED.search(text, 0, at):
            continue
        head = text[:at].rstrip(" ,;")
        if head and _read_fields(head) == whole:
            return [(0, len(head))]
    return [(0, len(text.rstrip(" ,;.")))]


def _title(name: str) -> str:
    name = " ".join(name.split())
    return name[:1].upper() + name[1:] if name.islower() else name


def _building(kind: str, number: str) -> str:
    return ("стр. " if kind.lower().startswith("стр") else "корп. ") + number


def _region(part: str) -> str:
    def repl(m: re.Match[str]) -> str:
        word = m.group(1).lower().rstrip(".")
        return m.group(0).replace(m.group(1), REGION_WORDS.get(word, m.group(1)))

    text = REGION.sub(repl, " ".join(part.split()))
    if text.startswith("Респ."):
        return text
    return text[:1].upper() + text[1:]


def parse(address: str) -> dict[str, Any]:
    """The components of ``address``; absent ones are ``None``, leftovers go to ``other``."""
    if len(address) > 2000:
        raise BadArgument("address", "an address of at most 2000 characters")
    out: dict[str, Any] = dict.fromkeys(FIELDS)
    other: list[str] = []
    queue = [" ".join(raw.split()).strip(" ;") for raw in address.split(",")]
    while queue:
        part = queue.pop(0)
        if not part:
            continue
        if out["postcode"] is None and re.fullmatch(r"\d{6}", part):
            out["postcode"] = part
            continue
        postcode = POSTCODE_INSIDE.search(part)
        if out["postcode"] is None and postcode and part != postcode.group(1):
            # an address written without commas: take the postcode out and read on
            out["postcode"] = postcode.group(1)
            queue.insert(0, " ".join((part[:postcode.start()] + " " + part[postcode.end():]).split()))
            continue
        if out["region"] is None and REGION.search(part) and not CITY_MARKER.match(part):
            out["region"] = _region(part)
            continue
        city = CITY_MARKER.match(part)
        if city and out["city"] is None:
            out["city"] = _title(city.group(1).strip())
            continue
        if out["city"] is None and part.lower() in (c.lower() for c in FEDERAL_CITIES):
            out["city"] = next(c for c in FEDERAL_CITIES if c.lower() == part.lower())
            continue
        found = False
        for pattern in (STREET_PREFIX, STREET_SUFFIX):
            m = pattern.match(part)
            if m and out["street"] is None:
                kind, name = (
                    (m.group(1), m.group(2))
                    if pattern is STREET_PREFIX
                    else (m.group(2), m.group(1))
                )
                if re.search(r"\d", name) and not re.search(r"[а-яё]{3}", name, re.IGNORECASE):
                    continue
                words = name.split()
                if out["city"] is None and len(words) > 1 and words[-1].lower() in (
                        c.lower() for c in FEDERAL_CITIES):
                    # "улица Ленина Москва": a federal city written after the street
                    out["city"] = next(c for c in FEDERAL_CITIES if c.lower() == words[-1].lower())
                    name = " ".join(words[:-1])
                out["street"] = f"{STREET_TYPES[kind.lower().rstrip('.')]} {_title(name)}"
                found = True
                break
        if found:
            continue
        m = BARE_HOUSE.match(part)
        if m and out["house"] is None:
            out["house"] = m.group(1)
            continue
        spans: list[tuple[int, int]] = []
        house = HOUSE.search(part)
        if house and out["house"] is None:
            out["house"] = house.group(1)
            spans.append(house.span())
        for b in BUILDING.finditer(part):
            if out["building"] is None:
                out["building"] = _building(b.group(1), b.group(2))
                spans.append(b.span())
        flat = FLAT.search(part)
        if flat and out["flat"] is None:
            out["flat"] = flat.group(1)
            spans.append(flat.span())
        if spans:
            # whatever the house, building and flat did not cover is read on, never dropped
            rest = part
            for start, end in sorted(spans, reverse=True):
                rest = rest[:start] + " " + rest[end:]
            rest = " ".join(rest.split()).strip(" ;")
            if rest:
                queue.insert(0, rest)
            continue
        if out["city"] is None and re.fullmatch(
            r"[А-ЯЁа-яё][а-яё-]+(?:[ -][А-ЯЁа-яё][а-яё-]+)*", part
        ):
            out["city"] = _title(part)
            continue
        other.append(part)
    out["other"] = other
    return out


def format_parts(parts: dict[str, Any]) -> str:
    """One line in postal order: postcode, region, city, street, house, building, flat."""
    pieces: list[str] = []
    if parts.get("postcode"):
        pieces.append(str(parts["postcode"]))
    if parts.get("region"):
        pieces.append(str(parts["region"]))
    if parts.get("city"):
        city = str(parts["city"])
        pieces.append(city if CITY_MARKER.match(city) else f"г. {city}")
    if parts.get("street"):
        pieces.append(str(parts["street"]))
    if parts.get("house"):
        pieces.append(f"д. {parts['house']}")
    if parts.get("building"):
        b = str(parts["building"])
        pieces.append(b if not b[:1].isdigit() else f"корп. {b}")
    if parts.get("flat"):
        pieces.append(f"кв. {parts['flat']}")
    return ", ".join(pieces)


@define(
    "address.parse_ru",
    en="split a Russian postal address into postcode, region, city, street, house, building, flat",
    ru="разобрать российский адрес: индекс, регион, город, улица, дом, корпус/строение, квартира",
    args=[ADDRESS],
    result="object",
    examples=[
        ex(
            {"address": "125009, г. Москва, ул. Тверская, д. 7, кв. 12"},
            {
                "postcode": "125009",
                "region": None,
                "city": "Москва",
                "street": "ул. Тверская",
                "house": "7",
                "building": None,
                "flat": "12",
                "other": [],
            },
        ),
        ex(
            {
                "address": "Московская область, г. Химки, Ленинский проспект, дом 1, корпус 2, "
                "квартира 34, 141400"
            },
            {
                "postcode": "141400",
                "region": "Московская обл.",
                "city": "Химки",
                "street": "пр-кт Ленинский",
                "house": "1",
                "building": "корп. 2",
                "flat": "34",
                "other": [],
            },
        ),
    ],
)
def parse_ru(address: str) -> dict[str, Any]:
    """Components with normalised markers; ``other`` lists the parts no rule recognised."""
    return parse(address)


@define(
    "address.normalize_ru",
    en="rewrite a Russian address in the standard order with standard abbreviations",
    ru="привести российский адрес к стандартному порядку и сокращениям",
    args=[ADDRESS],
    examples=[
        ex(
            {"address": "москва, тверская ул, 7, кв 12, 125009"},
            "125009, г. Москва, ул. Тверская, д. 7, кв. 12",
        ),
        ex(
            {"address": "кв 14 дом 7 улица Ленина Москва 101000"},
            "101000, г. Москва, ул. Ленина, д. 7, кв. 14",
        ),
    ],
)
def normalize_ru(address: str) -> str:
    """Parse, then format; unrecognised parts are appended at the end unchanged."""
    parts = parse(address)
    return ", ".join([p for p in [format_parts(parts), *parts["other"]] if p])


@define(
    "address.format_ru",
    en="compose a Russian postal address line from its components",
    ru="составить строку российского адреса из компонентов",
    args=[
        data("city", "string", "the city", "город"),
        data("postcode", "string", "the postcode", "почтовый индекс", required=False),
        data("region", "string", "the region", "регион", required=False),
        data("street", "string", "the street with its type", "улица с типом", required=False),
        data("house", "string", "the house number", "номер дома", required=False),
        data(
            "building", "string", "the building (корп./стр.)", "корпус или строение", required=False
        ),
        data("flat", "string", "the flat number", "номер квартиры", required=False),
    ],
    examples=[
        ex(
            {
                "postcode": "190000",
                "city": "Санкт-Петербург",
                "street": "ул. Садовая",
                "house": "1",
                "flat": "3",
            },
            "190000, г. Санкт-Петербург, ул. Садовая, д. 1, кв. 3",
        ),
    ],
)
def format_ru(
    city: str,
    postcode: str | None = None,
    region: str | None = None,
    street: str | None = None,
    house: str | None = None,
    building: str | None = None,
    flat: str | None = None,
) -> str:
    """Postal order; ``г.``, ``д.``, ``кв.`` are added where the value lacks them."""
    return format_parts(
        {
            "postcode": postcode,
            "region": region,
            "city": city,
            "street": street,
            "house": house,
            "building": building,
            "flat": flat,
        }
    )


@define(
    "address.validate_postcode_ru",
    en="whether a Russian postcode is well formed (six digits, first 1-6)",
    ru="корректен ли по форме российский почтовый индекс (шесть цифр, первая 1-6)",
    args=[data("postcode", "string", "the postcode", "почтовый индекс",
                shape=r"\d{6}")],
    result="object",
    examples=[
        ex({"postcode": "101000"}, {"valid": True, "postcode": "101000"}),
        ex({"postcode": "1010000"}, {"valid": False, "postcode": None}),
    ],
)
def validate_postcode_ru(postcode: str) -> dict[str, Any]:
    """Form only: six digits whose first digit is 1 to 6 (no register lookup)."""
    text = postcode.strip().replace(" ", "")
    ok = re.fullmatch(r"[1-6]\d{5}", text) is not None
    return {"valid": ok, "postcode": text if ok else None}


@define(
    "address.extract_postcode",
    en="find Russian postcodes in a text",
    ru="найти российские почтовые индексы в тексте",
    args=[data("text", "string", "the text", "текст")],
    result="array",
    examples=[
        ex(
            {"text": "Отправьте на 190000, Санкт-Петербург, или на 620014; тел. 8123456789"},
            ["190000", "620014"],
        ),
    ],
)
def extract_postcode(text: str) -> list[str]:
    """Standalone six-digit numbers starting with 1 to 6, in order of appearance."""
    return POSTCODE.findall(text)
