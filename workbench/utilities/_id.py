"""Id category: check digits of Russian and international identifiers, name-based UUIDs.

Every validator returns an object whose ``valid`` says whether the check digits (and the form)
agree; where a check digit exists the expected one is returned, so a mistyped number can be
told apart from a malformed one.
"""

from __future__ import annotations

import re
import uuid
from collections.abc import Mapping
from types import MappingProxyType
from typing import Any

from workbench.utilities._schema import BadArgument, circ, data, define, ex

NON_DIGITS = re.compile(r"[\s-]")
NAMESPACES = {
    "dns": uuid.NAMESPACE_DNS,
    "url": uuid.NAMESPACE_URL,
    "oid": uuid.NAMESPACE_OID,
    "x500": uuid.NAMESPACE_X500,
}
DIGIT_COUNTS: Mapping[str, tuple[int, ...]] = MappingProxyType({
    "id.validate_inn": (10, 12),
    "id.validate_snils": (11,),
    "id.validate_ogrn": (13, 15),
    "id.validate_ean13": (13,),
})
"""How many digits an identifier has, by the validator that reads it: a number of any other
length fails its validator whatever its digits (an ИНН has 10 digits for an organisation and 12
for a person, an ОГРН 13 and an ОГРНИП 15)."""
INN_WEIGHTS = {
    10: [2, 4, 10, 3, 5, 9, 4, 6, 8],
    11: [7, 2, 4, 10, 3, 5, 9, 4, 6, 8],
    12: [3, 7, 2, 4, 10, 3, 5, 9, 4, 6, 8],
}


KPP_SHAPE = r"\d{4}[0-9A-Z]{2}\d{3}"
IBAN_SHAPE = r"[A-Z]{2}\d{2}[A-Z0-9]{10,30}"
ISBN10_SHAPE, ISBN13_SHAPE = r"\d{9}[\dX]", r"\d{13}"


def _counted(uid: str) -> str:
    """The shape (:attr:`Argument.shape`) of an identifier of :data:`DIGIT_COUNTS` digits."""
    return "|".join(rf"\d{{{n}}}" for n in DIGIT_COUNTS[uid])


def _digits(value: str) -> str:
    return NON_DIGITS.sub("", value.strip())


def _weighted(digits: str, weights: list[int]) -> int:
    return sum(int(d) * w for d, w in zip(digits, weights, strict=False))


@define(
    "id.validate_inn",
    en="check the check digits of a Russian ИНН (10 digits: organisation, 12: person)",
    ru="проверить контрольные цифры ИНН (10 цифр — организация, 12 — физлицо)",
    args=[data("inn", "string", "the ИНН", "ИНН", shape=_counted("id.validate_inn"))],
    result="object",
    examples=[
        ex({"inn": "7707083893"}, {"valid": True, "kind": "legal_entity", "expected_check": "3"}),
        ex({"inn": "7707083894"}, {"valid": False, "kind": "legal_entity", "expected_check": "3"}),
        ex({"inn": "500100732259"}, {"valid": True, "kind": "individual", "expected_check": "59"}),
        ex({"inn": "12345"}, {"valid": False, "kind": None, "expected_check": None}),
    ],
)
def validate_inn(inn: str) -> dict[str, Any]:
    """Weighted sums mod 11, then mod 10 (the ФНС algorithm)."""
    d = _digits(inn)
    if not d.isdigit() or len(d) not in DIGIT_COUNTS["id.validate_inn"]:
        return {"valid": False, "kind": None, "expected_check": None}
    if len(d) == 10:
        check = str(_weighted(d, INN_WEIGHTS[10]) % 11 % 10)
        return {"valid": d[9] == check, "kind": "legal_entity", "expected_check": check}
    c11 = str(_weighted(d, INN_WEIGHTS[11]) % 11 % 10)
    c12 = str(_weighted(d[:10] + c11, INN_WEIGHTS[12]) % 11 % 10)
    return {"valid": d[10:] == c11 + c12, "kind": "individual", "expected_check": c11 + c12}


@define(
    "id.validate_snils",
    en="check the control number of a СНИЛС",
    ru="проверить контрольное число СНИЛС",
    args=[data("snils", "string", "the СНИЛС (11 digits)", "СНИЛС (11 цифр)",
               shape=_counted("id.validate_snils"))],
    result="object",
    examples=[
        ex({"snils": "112-233-445 95"}, {"valid": True, "expected_check": "95"}),
        ex({"snils": "112-233-445 96"}, {"valid": False, "expected_check": "95"}),
    ],
)
def validate_snils(snils: str) -> dict[str, Any]:
    """Digits weighted 9..1; a sum of 100 or 101 gives 00, above that it is taken mod 101."""
    d = _digits(snils)
    if not d.isdigit() or len(d) not in DIGIT_COUNTS["id.validate_snils"]:
        return {"valid": False, "expected_check": None}
    total = _weighted(d[:9], list(range(9, 0, -1)))
    if total > 101:
        total %= 101
    check = "00" if total in (100, 101) else f"{total:02d}"
    return {"valid": d[9:] == check, "expected_check": check}


@define(
    "id.validate_ogrn",
    en="check the check digit of an ОГРН (13 digits) or ОГРНИП (15 digits)",
    ru="проверить контрольную цифру ОГРН (13 цифр) или ОГРНИП (15 цифр)",
    args=[data("ogrn", "string", "the ОГРН or ОГРНИП", "ОГРН или ОГРНИП",
               shape=_counted("id.validate_ogrn"))],
    result="object",
    examples=[
        ex({"ogrn": "1027700132195"}, {"valid": True, "kind": "ogrn", "expected_check": "5"}),
        ex({"ogrn": "304500116000157"}, {"valid": True, "kind": "ogrnip", "expected_check": "7"}),
    ],
)
def validate_ogrn(ogrn: str) -> dict[str, Any]:
    """The number without its last digit, mod 11 (ОГРН) or mod 13 (ОГРНИП), then mod 10."""
    d = _digits(ogrn)
    if not d.isdigit() or len(d) not in DIGIT_COUNTS["id.validate_ogrn"]:
        return {"valid": False, "kind": None, "expected_check": None}
    modulus, kind = (11, "ogrn") if len(d) == 13 else (13, "ogrnip")
    check = str(int(d[:-1]) % modulus % 10)
    return {"valid": d[-1] == check, "kind": kind, "expected_check": check}


@define(
    "id.validate_kpp",
    en="check the form of a КПП (4 digits, 2 digits or capitals, 3 digits)",
    ru="проверить формат КПП (4 цифры, 2 цифры или заглавные буквы, 3 цифры)",
    args=[data("kpp", "string", "the КПП", "КПП", shape=KPP_SHAPE)],
    result="object",
    examples=[ex({"kpp": "773601001"}, {"valid": True, "tax_office": "7736", "reason": "01"})],
)
def validate_kpp(kpp: str) -> dict[str, Any]:
    """Form only (a КПП has no check digit): tax office, reason code, serial number."""
    d = kpp.strip()
    if re.fullmatch(KPP_SHAPE, d) is None:
        return {"valid": False, "tax_office": None, "reason": None}
    return {"valid": True, "tax_office": d[:4], "reason": d[4:6]}


@define(
    "id.validate_bik",
    en="check the form of a Russian bank БИК (9 digits starting 04)",
    ru="проверить формат БИК банка (9 цифр, начинается с 04)",
    args=[data("bik", "string", "the БИК", "БИК", shape=r"\d{9}")],
    result="object",
    examples=[
        ex({"bik": "044525225"}, {"valid": True, "region": "45"}),
        ex({"bik": "44525225"}, {"valid": False, "region": None}),
    ],
)
def validate_bik(bik: str) -> dict[str, Any]:
    """Form only: country code 04, then the ОКАТО region code, division and bank number."""
    d = _digits(bik)
    ok = re.fullmatch(r"04\d{7}", d) is not None
    return {"valid": ok, "region": d[2:4] if ok else None}


def _luhn_sum(digits: str) -> int:
    total = 0
    for i, ch in enumerate(reversed(digits)):
        n = int(ch)
        if i % 2 == 1:
            n = n * 2 - 9 if n > 4 else n * 2
        total += n
    return total


@define(
    "id.luhn_check",
    en="Luhn (mod 10) check of a card or other number",
    ru="проверка номера (например, карты) по алгоритму Луна",
    args=[data("number", "string", "the digits", "цифры номера")],
    result="object",
    examples=[
        ex({"number": "4111 1111 1111 1111"}, {"valid": True, "check_digit": "1"}),
        ex({"number": "4111111111111112"}, {"valid": False, "check_digit": "1"}),
        ex({"number": "79927398713"}, {"valid": True, "check_digit": "3"}),
    ],
)
def luhn_check(number: str) -> dict[str, Any]:
    """ISO/IEC 7812-1 Annex B; ``check_digit`` is the one the other digits call for."""
    d = _digits(number)
    if not d.isdigit() or len(d) < 2:
        return {"valid": False, "check_digit": None}
    expected = str((10 - _luhn_sum(d[:-1] + "0") % 10) % 10)
    return {"valid": _luhn_sum(d) % 10 == 0, "check_digit": expected}


@define(
    "id.validate_iban",
    en="check an IBAN (ISO 13616 mod-97)",
    ru="проверить IBAN (ISO 13616, mod 97)",
    args=[data("iban", "string", "the IBAN", "IBAN", shape=IBAN_SHAPE)],
    result="object",
    examples=[
        ex({"iban": "GB82 WEST 1234 5698 7654 32"}, {"valid": True, "country": "GB"}),
        ex({"iban": "DE89370400440532013000"}, {"valid": True, "country": "DE"}),
        ex({"iban": "GB82WEST12345698765431"}, {"valid": False, "country": "GB"}),
    ],
)
def validate_iban(iban: str) -> dict[str, Any]:
    """Move the first four characters to the end, letters to 10..35, the number mod 97 is 1."""
    s = re.sub(r"\s", "", iban).upper()
    if re.fullmatch(IBAN_SHAPE, s) is None:
        return {"valid": False, "country": None}
    number = int("".join(str(int(c, 36)) for c in s[4:] + s[:4]))
    return {"valid": number % 97 == 1, "country": s[:2]}


@define(
    "id.validate_isbn",
    en="check an ISBN-10 or ISBN-13",
    ru="проверить ISBN-10 или ISBN-13",
    args=[data("isbn", "string", "the ISBN", "ISBN", shape=f"{ISBN10_SHAPE}|{ISBN13_SHAPE}")],
    result="object",
    examples=[
        ex({"isbn": "978-0-306-40615-7"}, {"valid": True, "kind": "ISBN-13"}),
        ex({"isbn": "0-306-40615-2"}, {"valid": True, "kind": "ISBN-10"}),
        ex({"isbn": "978-0-306-40615-8"}, {"valid": False, "kind": "ISBN-13"}),
    ],
)
def validate_isbn(isbn: str) -> dict[str, Any]:
    """ISBN-10: weights 10..1 mod 11 (X is 10); ISBN-13: weights 1,3 mod 10."""
    s = _digits(isbn).upper()
    if re.fullmatch(ISBN10_SHAPE, s):
        total = sum((10 - i) * (10 if c == "X" else int(c)) for i, c in enumerate(s))
        return {"valid": total % 11 == 0, "kind": "ISBN-10"}
    if re.fullmatch(ISBN13_SHAPE, s):
        total = sum(int(c) * (3 if i % 2 else 1) for i, c in enumerate(s))
        return {"valid": total % 10 == 0, "kind": "ISBN-13"}
    return {"valid": False, "kind": None}


@define(
    "id.validate_ean13",
    en="check the check digit of an EAN-13 barcode",
    ru="проверить контрольную цифру штрихкода EAN-13",
    args=[data("code", "string", "the 13 digits", "13 цифр штрихкода",
               shape=_counted("id.validate_ean13"))],
    result="object",
    examples=[
        ex({"code": "4006381333931"}, {"valid": True, "expected_check": "1"}),
        ex({"code": "4006381333932"}, {"valid": False, "expected_check": "1"}),
    ],
)
def validate_ean13(code: str) -> dict[str, Any]:
    """Weights 1 and 3 from the left over the first 12 digits."""
    d = _digits(code)
    if not d.isdigit() or len(d) not in DIGIT_COUNTS["id.validate_ean13"]:
        return {"valid": False, "expected_check": None}
    total = sum(int(c) * (3 if i % 2 else 1) for i, c in enumerate(d[:12]))
    check = str((10 - total % 10) % 10)
    return {"valid": d[12] == check, "expected_check": check}


def _namespace(value: str) -> uuid.UUID:
    key = value.strip().lower()
    if key in NAMESPACES:
        return NAMESPACES[key]
    try:
        return uuid.UUID(key)
    except ValueError:
        raise BadArgument("namespace", "dns, url, oid, x500 or a UUID") from None


NAMESPACE = circ(
    "namespace",
    "string",
    "dns, url, oid, x500 or a UUID",
    "пространство имён: dns, url, oid, x500 или UUID",
)
NAME = data("name", "string", "the name", "имя", form="phrase")


@define(
    "id.uuid5",
    en="name-based UUID version 5 (SHA-1)",
    ru="UUID версии 5 из имени (SHA-1)",
    args=[NAMESPACE, NAME],
    examples=[
        ex({"namespace": "dns", "name": "python.org"}, "886313e1-3b8a-5372-9b90-0c9aee199e5d"),
    ],
)
def uuid5(namespace: str, name: str) -> str:
    """RFC 4122 section 4.3 with SHA-1; the same inputs always give the same UUID."""
    return str(uuid.uuid5(_namespace(namespace), name))


@define(
    "id.uuid3",
    en="name-based UUID version 3 (MD5)",
    ru="UUID версии 3 из имени (MD5)",
    args=[NAMESPACE, NAME],
    examples=[
        ex({"namespace": "dns", "name": "python.org"}, "6fa459ea-ee8a-3ca4-894e-db77e160355e"),
    ],
)
def uuid3(namespace: str, name: str) -> str:
    """RFC 4122 section 4.3 with MD5."""
    return str(uuid.uuid3(_namespace(namespace), name))
