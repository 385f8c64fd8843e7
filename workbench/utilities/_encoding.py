"""Encoding category: base64/base32/hex, URL and HTML escaping, punycode, ROT13."""

from __future__ import annotations

import base64
import binascii
import codecs
import html
import re
import urllib.parse

from workbench.utilities._schema import (
    BadArgument,
    circ,
    data,
    decode_bytes,
    define,
    encode_text,
    ex,
    text_form,
)

TEXT = data("text", "string", "the text to encode", "текст, который нужно закодировать", form="phrase")
DATA = data("data", "string", "the encoded data to decode", "закодированные данные")
BASE64_DATA = data("data", "string", "the encoded data to decode", "закодированные данные",
                   form="base64")
CHARSET = circ(
    "charset",
    "string",
    "the charset of the text's bytes",
    "кодировка байтов текста",
    required=False,
    default="utf-8",
)
_HEX_SEPARATORS = re.compile(r"[\s:]|0x", re.IGNORECASE)
_BASE64_RUN = re.compile(r"(?<![\w+/=-])[A-Za-z0-9+/_-]{4,}={0,2}(?![\w+/=-])")


@text_form("base64", moves=False)
def base64_spans(text: str) -> list[tuple[int, int]]:
    """The runs of ``text`` in the Base64 alphabet (standard or URL-safe, padding at the end), longest first.

    A run reads as encoded bytes (:func:`_encoded`). A string bound short of its end stopped at a
    mark a word does not hold: the ``+`` of «0JzQsNGCINCyINGC0YDQuCDRhdC+0LTQsA==» is inside its
    run, so the run is the whole string.
    """
    runs = [(m.start(), m.end()) for m in _BASE64_RUN.finditer(text) if _encoded(m[0])]
    return sorted(runs, key=lambda s: (s[0] - s[1], s[0]))


def _encoded(run: str) -> bool:
    """Whether a run reads as encoded bytes, not a word.

    It holds a letter, and a digit, a ``+/=`` mark or a capital after its first character
    («SGVsbG8=», «c2VjcmV0»; not «configuration» or «2025»).
    """
    return any(c.isalpha() for c in run) and any(
        c.isdigit() or c in "+/=" or c.isupper() for c in run[1:])


@define(
    "encoding.base64_encode",
    en="Base64 of a text's bytes",
    ru="Base64 байтов текста",
    args=[TEXT, CHARSET],
    examples=[ex({"text": "Hello"}, "SGVsbG8="), ex({"text": "Привет"}, "0J/RgNC40LLQtdGC")],
)
def base64_encode(text: str, charset: str = "utf-8") -> str:
    """Standard base64 with padding (RFC 4648 section 4)."""
    return base64.b64encode(encode_text(text, charset)).decode("ascii")


@define(
    "encoding.base64url_encode",
    en="URL-safe base64 of a text's bytes",
    ru="Base64 для URL (алфавит с - и _) байтов текста",
    args=[TEXT, CHARSET],
    examples=[ex({"text": "??>"}, "Pz8-")],
)
def base64url_encode(text: str, charset: str = "utf-8") -> str:
    """The URL- and filename-safe alphabet (RFC 4648 section 5), with padding."""
    return base64.urlsafe_b64encode(encode_text(text, charset)).decode("ascii")


@define(
    "encoding.base64_decode",
    en="decode base64 (standard or URL-safe) to text",
    ru="декодировать Base64 (обычный или URL-вариант) в текст",
    args=[BASE64_DATA, CHARSET],
    examples=[ex({"data": "SGVsbG8="}, "Hello"), ex({"data": "0J/RgNC40LLQtdGC"}, "Привет")],
)
def base64_decode(data: str, charset: str = "utf-8") -> str:
    """Decode base64; missing padding is restored, whitespace ignored."""
    compact = "".join(data.split()).replace("-", "+").replace("_", "/")
    compact += "=" * (-len(compact) % 4)
    try:
        raw = base64.b64decode(compact, validate=True)
    except (binascii.Error, ValueError):
        raise BadArgument("data", "base64 text (A-Z, a-z, 0-9, +, /, =)") from None
    return decode_bytes(raw, charset)


@define(
    "encoding.base32_encode",
    en="Base32 of a text's bytes",
    ru="Base32 байтов текста",
    args=[TEXT, CHARSET],
    examples=[ex({"text": "foobar"}, "MZXW6YTBOI======")],
)
def base32_encode(text: str, charset: str = "utf-8") -> str:
    """Base32 with padding (RFC 4648 section 6; the example is from its test vectors)."""
    return base64.b32encode(encode_text(text, charset)).decode("ascii")


@define(
    "encoding.base32_decode",
    en="decode base32 to text",
    ru="декодировать Base32 в текст",
    args=[DATA, CHARSET],
    examples=[ex({"data": "MZXW6YQ="}, "foob")],
)
def base32_decode(data: str, charset: str = "utf-8") -> str:
    """Decode base32, case-insensitively, restoring missing padding."""
    compact = "".join(data.split()).upper()
    compact += "=" * (-len(compact) % 8)
    try:
        raw = base64.b32decode(compact)
    except (binascii.Error, ValueError):
        raise BadArgument("data", "base32 text (A-Z, 2-7, =)") from None
    return decode_bytes(raw, charset)


@define(
    "encoding.hex_encode",
    en="hex of a text's bytes",
    ru="шестнадцатеричная запись байтов текста",
    args=[TEXT, CHARSET],
    examples=[ex({"text": "abc"}, "616263"), ex({"text": "Привет"}, "d09fd180d0b8d0b2d0b5d182")],
)
def hex_encode(text: str, charset: str = "utf-8") -> str:
    """Lower-case hex, two digits a byte, no separators."""
    return encode_text(text, charset).hex()


def parse_hex(value: str, argument: str = "data") -> bytes:
    """Bytes from hex digits; spaces, colons and ``0x`` prefixes are ignored."""
    compact = _HEX_SEPARATORS.sub("", value)
    try:
        return bytes.fromhex(compact)
    except ValueError:
        raise BadArgument(argument, "an even number of hex digits (0-9, a-f)") from None


@define(
    "encoding.hex_decode",
    en="decode hex bytes to text",
    ru="декодировать шестнадцатеричные байты в текст",
    args=[DATA, CHARSET],
    examples=[ex({"data": "d09fd180d0b8d0b2d0b5d182"}, "Привет")],
)
def hex_decode(data: str, charset: str = "utf-8") -> str:
    """Decode hex digits (separators allowed) and then the bytes in ``charset``."""
    return decode_bytes(parse_hex(data), charset)


@define(
    "encoding.url_encode",
    en="percent-encode a text for a URL component",
    ru="процентное кодирование текста для части URL",
    args=[TEXT],
    examples=[ex({"text": "a b&c=д"}, "a%20b%26c%3D%D0%B4")],
)
def url_encode(text: str) -> str:
    """Percent-encode every byte outside the unreserved set (RFC 3986), UTF-8."""
    return urllib.parse.quote(encode_text(text), safe="")


@define(
    "encoding.url_decode",
    en="decode percent-encoding of a URL component",
    ru="раскодировать процентное кодирование URL",
    args=[DATA],
    examples=[ex({"data": "%D0%BF%D1%80%D0%B8%D0%B2%D0%B5%D1%82%20mir"}, "привет mir")],
)
def url_decode(data: str) -> str:
    """Decode ``%XX`` sequences as UTF-8; a ``+`` stays a plus (it is a space only in forms)."""
    try:
        return urllib.parse.unquote(data, errors="strict")
    except UnicodeError:
        raise BadArgument("data", "percent-escapes of UTF-8 bytes") from None


@define(
    "encoding.html_escape",
    en="escape &, <, >, quotes for HTML",
    ru="экранировать &, <, > и кавычки для HTML",
    args=[TEXT],
    examples=[
        ex(
            {"text": '<a href="x">Tom & Jerry</a>'},
            "&lt;a href=&quot;x&quot;&gt;Tom &amp; Jerry&lt;/a&gt;",
        )
    ],
)
def html_escape(text: str) -> str:
    """Escape the five characters that matter in HTML text and attributes."""
    return html.escape(text, quote=True)


@define(
    "encoding.html_unescape",
    en="replace HTML entities with characters",
    ru="заменить HTML-сущности символами",
    args=[DATA],
    examples=[ex({"data": "&lt;p&gt;&copy; 2024 &#8212; &amp;"}, "<p>© 2024 — &")],
)
def html_unescape(data: str) -> str:
    """Named and numeric character references (HTML5 rules)."""
    return html.unescape(data)


def _idna_labels(domain: str, encode: bool) -> str:
    labels = domain.strip().rstrip(".").split(".")
    if not labels or any(not label for label in labels):
        raise BadArgument("domain", "a domain name with non-empty labels")
    out = []
    for label in labels:
        try:
            if encode:
                out.append(
                    label.lower()
                    if label.isascii()
                    else "xn--" + label.lower().encode("punycode").decode("ascii")
                )
            elif label.lower().startswith("xn--"):
                out.append(label[4:].encode("ascii").decode("punycode"))
            else:
                out.append(label)
        except (UnicodeError, ValueError):
            raise BadArgument("domain", "labels that punycode can represent") from None
    return ".".join(out)


@define(
    "encoding.punycode_encode",
    en="IDNA/punycode form of an internationalised domain",
    ru="запись интернационального домена в punycode (IDNA)",
    args=[data("domain", "string", "the domain name", "доменное имя")],
    examples=[
        ex({"domain": "пример.рф"}, "xn--e1afmkfd.xn--p1ai"),
        ex({"domain": "bücher.de"}, "xn--bcher-kva.de"),
    ],
)
def punycode_encode(domain: str) -> str:
    """Encode each non-ASCII label with punycode (RFC 3492) and the ``xn--`` prefix."""
    return _idna_labels(domain, encode=True)


@define(
    "encoding.punycode_decode",
    en="Unicode form of a punycode domain",
    ru="домен из punycode в Unicode",
    args=[data("domain", "string", "the domain in punycode", "домен в punycode")],
    examples=[ex({"domain": "xn--d1acufc.xn--p1ai"}, "домен.рф")],
)
def punycode_decode(domain: str) -> str:
    """Decode each ``xn--`` label (RFC 3492)."""
    return _idna_labels(domain, encode=False)


@define(
    "encoding.rot13",
    en="ROT13 of the Latin letters of a text",
    ru="ROT13 латинских букв текста",
    args=[TEXT],
    examples=[ex({"text": "Hello, World"}, "Uryyb, Jbeyq")],
)
def rot13(text: str) -> str:
    """Rotate A-Z and a-z by 13; everything else is unchanged."""
    return codecs.encode(text, "rot13")
