"""Hash category: digests and checksums of a text, hashed as UTF-8 unless a charset is given."""

from __future__ import annotations

import hashlib
import hmac
import zlib

from workbench.utilities._schema import circ, data, define, encode_text, ex

TEXT = data("text", "string", "the text to hash", "текст, который нужно захешировать", form="phrase")
CHARSET = circ(
    "charset",
    "string",
    "the charset the text is hashed in",
    "кодировка, в которой хешируется текст",
    required=False,
    default="utf-8",
)


def _hex(name: str, text: str, charset: str) -> str:
    return hashlib.new(name, encode_text(text, charset)).hexdigest()


@define(
    "hash.md5",
    en="MD5 digest of a text, hex",
    ru="MD5-хеш текста в шестнадцатеричном виде",
    args=[TEXT, CHARSET],
    examples=[
        ex({"text": "abc"}, "900150983cd24fb0d6963f7d28e17f72"),
        ex({"text": ""}, "d41d8cd98f00b204e9800998ecf8427e"),
    ],
)
def md5(text: str, charset: str = "utf-8") -> str:
    """MD5 of ``text`` (RFC 1321)."""
    return _hex("md5", text, charset)


@define(
    "hash.sha1",
    en="SHA-1 digest of a text, hex",
    ru="SHA-1-хеш текста в шестнадцатеричном виде",
    args=[TEXT, CHARSET],
    examples=[ex({"text": "abc"}, "a9993e364706816aba3e25717850c26c9cd0d89d")],
)
def sha1(text: str, charset: str = "utf-8") -> str:
    """SHA-1 of ``text`` (FIPS 180-4)."""
    return _hex("sha1", text, charset)


@define(
    "hash.sha224",
    en="SHA-224 digest of a text, hex",
    ru="SHA-224-хеш текста в шестнадцатеричном виде",
    args=[TEXT, CHARSET],
    examples=[ex({"text": "abc"}, "23097d223405d8228642a477bda255b32aadbce4bda0b3f7e36c9da7")],
)
def sha224(text: str, charset: str = "utf-8") -> str:
    """SHA-224 of ``text`` (FIPS 180-4)."""
    return _hex("sha224", text, charset)


@define(
    "hash.sha256",
    en="SHA-256 digest of a text, hex",
    ru="SHA-256-хеш текста в шестнадцатеричном виде",
    args=[TEXT, CHARSET],
    examples=[
        ex({"text": "abc"}, "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad"),
        ex(
            {"text": "Привет", "charset": "windows-1251"},
            "103beab85aff4f8b5fbd13298ad26f48d02301d684cce645785f30f07197b310",
        ),
    ],
)
def sha256(text: str, charset: str = "utf-8") -> str:
    """SHA-256 of ``text`` (FIPS 180-4)."""
    return _hex("sha256", text, charset)


@define(
    "hash.sha384",
    en="SHA-384 digest of a text, hex",
    ru="SHA-384-хеш текста в шестнадцатеричном виде",
    args=[TEXT, CHARSET],
    examples=[
        ex(
            {"text": "abc"},
            "cb00753f45a35e8bb5a03d699ac65007272c32ab0eded1631a8b605a43ff5bed"
            "8086072ba1e7cc2358baeca134c825a7",
        )
    ],
)
def sha384(text: str, charset: str = "utf-8") -> str:
    """SHA-384 of ``text`` (FIPS 180-4)."""
    return _hex("sha384", text, charset)


@define(
    "hash.sha512",
    en="SHA-512 digest of a text, hex",
    ru="SHA-512-хеш текста в шестнадцатеричном виде",
    args=[TEXT, CHARSET],
    examples=[
        ex(
            {"text": "abc"},
            "ddaf35a193617abacc417349ae20413112e6fa4e89a97ea20a9eeee64b55d39a"
            "2192992a274fc1a836ba3c23a3feebbd454d4423643ce80e2a9ac94fa54ca49f",
        )
    ],
)
def sha512(text: str, charset: str = "utf-8") -> str:
    """SHA-512 of ``text`` (FIPS 180-4)."""
    return _hex("sha512", text, charset)


@define(
    "hash.sha3_256",
    en="SHA3-256 digest of a text, hex",
    ru="SHA3-256-хеш текста в шестнадцатеричном виде",
    args=[TEXT, CHARSET],
    examples=[
        ex({"text": "abc"}, "3a985da74fe225b2045c172d6bd390bd855f086e3e9d525b46bfe24511431532")
    ],
)
def sha3_256(text: str, charset: str = "utf-8") -> str:
    """SHA3-256 of ``text`` (FIPS 202)."""
    return _hex("sha3_256", text, charset)


@define(
    "hash.blake2b",
    en="BLAKE2b-512 digest of a text, hex",
    ru="BLAKE2b-512-хеш текста в шестнадцатеричном виде",
    args=[TEXT, CHARSET],
    examples=[
        ex(
            {"text": "abc"},
            "ba80a53f981c4d0d6a2797b69f12f6e94c212f14685ac4b74b12bb6fdbffa2d1"
            "7d87c5392aab792dc252d5de4533cc9518d38aa8dbf1925ab92386edd4009923",
        )
    ],
)
def blake2b(text: str, charset: str = "utf-8") -> str:
    """BLAKE2b with a 64-byte digest (RFC 7693)."""
    return _hex("blake2b", text, charset)


@define(
    "hash.crc32",
    en="CRC-32 checksum of a text, 8 hex digits",
    ru="контрольная сумма CRC-32 текста, 8 шестнадцатеричных цифр",
    args=[TEXT, CHARSET],
    examples=[ex({"text": "123456789"}, "cbf43926")],
)
def crc32(text: str, charset: str = "utf-8") -> str:
    """CRC-32 as used by zip and PNG (the check value of "123456789" is cbf43926)."""
    return f"{zlib.crc32(encode_text(text, charset)) & 0xFFFFFFFF:08x}"


@define(
    "hash.adler32",
    en="Adler-32 checksum of a text, 8 hex digits",
    ru="контрольная сумма Adler-32 текста, 8 шестнадцатеричных цифр",
    args=[TEXT, CHARSET],
    examples=[ex({"text": "Wikipedia"}, "11e60398")],
)
def adler32(text: str, charset: str = "utf-8") -> str:
    """Adler-32 (RFC 1950)."""
    return f"{zlib.adler32(encode_text(text, charset)) & 0xFFFFFFFF:08x}"


@define(
    "hash.hmac_sha256",
    en="HMAC-SHA256 of a text under a key, hex",
    ru="HMAC-SHA256 текста с ключом, в шестнадцатеричном виде",
    args=[TEXT, data("key", "string", "the secret key", "секретный ключ", form="phrase"), CHARSET],
    examples=[
        ex(
            {"text": "what do ya want for nothing?", "key": "Jefe"},
            "5bdcc146bf60754e6a042426089575c75a003f089d2739839dec58b964ec3843",
        )
    ],
)
def hmac_sha256(text: str, key: str, charset: str = "utf-8") -> str:
    """HMAC with SHA-256 (RFC 2104; the example is RFC 4231 test case 2)."""
    mac = hmac.new(encode_text(key, charset, "key"), encode_text(text, charset), hashlib.sha256)
    return mac.hexdigest()
