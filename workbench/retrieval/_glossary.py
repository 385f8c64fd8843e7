"""A bilingual glossary a corpus brings, to carry a question into the language of its answer.

Documentation is often written in one language and asked about in another, and half-translated
help mixes both on one page. A question that says "DATEDIF" meets no word of a page titled
«РАЗНДАТ», and a small multilingual encoder does not bridge names of functions, menu items and
options reliably. Software that ships translated documentation also ships its interface's
message catalogs (gettext ``.mo``/``.po``): thousands of reviewed term pairs, written by the
translators of the very pages in the corpus. A glossary read from them is data nobody here wrote.

Use: the question's terms are matched against the glossary's entries (longest first, over the
lexical analyzer's stems, so «быструю маску» meets "Быстрая маска"); the translations of the
matched entries widen the lexical query (the dense query stays the question as asked), and gate 0
counts a question term as found when the candidates hold one of its translations. They never
enter a quote or an answer.

On disk (``glossary.json`` in an index folder) a glossary is plain JSON: its format, the sha256
and pair count of each catalog it was read from, and the pairs.
"""

from __future__ import annotations

import json
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from functools import cached_property
from pathlib import Path
from typing import Any, NamedTuple

from workbench.digests import sha256_file
from workbench.errors import WorkbenchError
from workbench.text import analyze

GLOSSARY_FORMAT = "workbench-glossary"
GLOSSARY_VERSION = 1
CATALOG_SUFFIXES = (".mo", ".po", ".tsv")
"""What :func:`read_catalogs` reads: gettext catalogs, compiled or not, and two-column TSV."""
MAX_ENTRY_WORDS = 4
"""The longest entry matched, in analyzed terms (longer interface strings are sentences)."""
MAX_CHARS = (60, 80)
"""Longest source and translation kept: longer catalog strings are messages, not terms."""
_MARKUP = ("%", "$", "{", "<", "\\")
"""A string with any of these is a format string or markup, not a term."""


class GlossaryError(WorkbenchError):
    """A catalog or a stored glossary that cannot be read; the message names the file."""


def _clean(text: str) -> str:
    """A catalog string without mnemonic marks (``~`` in LibreOffice, ``_`` in GTK) or ellipses."""
    text = text.replace("~", "").replace("_", "").replace("…", "").replace("...", "")
    return " ".join(text.split()).strip(" :")


def _is_term(text: str, limit: int) -> bool:
    return 0 < len(text) <= limit and not any(mark in text for mark in _MARKUP)


def _key(text: str) -> tuple[str, ...]:
    """The analyzed terms of an entry; empty when none of them is a word of three letters."""
    terms = tuple(analyze(text))
    return terms if any(len(t) >= 3 and t.isalpha() for t in terms) else ()


class GlossaryMatch(NamedTuple):
    """One glossary entry found in a question."""

    terms: tuple[str, ...]
    """The question's analyzed terms that make up the entry."""
    translations: tuple[str, ...]
    """The other side of every pair with that entry, as the catalogs write it."""


@dataclass(frozen=True)
class BilingualGlossary:
    """Term pairs, matched in both directions."""

    pairs: tuple[tuple[str, str], ...] = ()
    """(source, translation) as the catalogs give them, cleaned, without duplicates."""
    sources: tuple[dict[str, Any], ...] = ()
    """One ``{"file", "sha256", "pairs"}`` per catalog read."""

    def __len__(self) -> int:
        return len(self.pairs)

    @cached_property
    def _entries(self) -> dict[tuple[str, ...], tuple[str, ...]]:
        """Each side's analyzed terms -> the other sides written with them."""
        entries: dict[tuple[str, ...], set[str]] = {}
        for source, translation in self.pairs:
            left, right = _key(source), _key(translation)
            if left and right and left != right:
                entries.setdefault(left, set()).add(translation)
                entries.setdefault(right, set()).add(source)
        return {k: tuple(sorted(v)) for k, v in entries.items()}

    def matches(self, text: str) -> tuple[GlossaryMatch, ...]:
        """The entries found in ``text``, in the order of the text; of two that overlap, the longer."""
        if not self.pairs:
            return ()
        terms = analyze(text)
        used: set[int] = set()
        found = []
        for size in range(min(MAX_ENTRY_WORDS, len(terms)), 0, -1):
            for start in range(len(terms) - size + 1):
                span = set(range(start, start + size))
                key = tuple(terms[start:start + size])
                if key in self._entries and not span & used:
                    used |= span
                    found.append((start, GlossaryMatch(key, self._entries[key])))
        return tuple(match for _, match in sorted(found))

    def to_json(self) -> dict[str, Any]:
        """The stored form."""
        return {"format": GLOSSARY_FORMAT, "version": GLOSSARY_VERSION,
                "sources": list(self.sources), "pairs": [list(p) for p in self.pairs]}

    def save(self, path: Path) -> None:
        """Write the stored form as UTF-8 JSON."""
        path.write_text(json.dumps(self.to_json(), ensure_ascii=False), encoding="utf-8")

    @classmethod
    def load(cls, path: Path) -> BilingualGlossary:
        """Read what :meth:`save` wrote.

        Raises:
            GlossaryError: Not UTF-8 JSON, not a glossary, another version, or a pair that is not
                two strings; the message names the file.
        """
        try:
            raw = json.loads(path.read_bytes().decode("utf-8"))
        except (OSError, UnicodeDecodeError, json.JSONDecodeError) as exc:
            raise GlossaryError(f"{path} cannot be read as a glossary ({exc})") from None
        if not isinstance(raw, dict) or raw.get("format") != GLOSSARY_FORMAT:
            raise GlossaryError(f"{path} is not a workbench glossary")
        if raw.get("version") != GLOSSARY_VERSION:
            raise GlossaryError(f"{path} is glossary version {raw.get('version')!r}; this "
                                f"workbench reads version {GLOSSARY_VERSION}")
        pairs, sources = raw.get("pairs"), raw.get("sources")
        if not isinstance(pairs, list) or not isinstance(sources, list):
            raise GlossaryError(f"{path}: 'pairs' and 'sources' must be arrays")
        for number, pair in enumerate(pairs):
            if (not isinstance(pair, list) or len(pair) != 2
                    or not all(isinstance(p, str) and p for p in pair)):
                raise GlossaryError(f"{path}: pair {number} is not two non-empty strings")
        return cls(pairs=tuple((a, b) for a, b in pairs), sources=tuple(sources))


EMPTY_GLOSSARY = BilingualGlossary()
"""The glossary of a corpus that brings none: it matches nothing."""


def _catalog_pairs(path: Path) -> list[tuple[str, str]]:
    """Raw (source, translation) pairs of one catalog."""
    if path.suffix == ".tsv":
        try:
            lines = path.read_bytes().decode("utf-8").splitlines()
        except UnicodeDecodeError as exc:
            raise GlossaryError(f"{path} is not UTF-8 (byte {exc.start})") from None
        out = []
        for number, line in enumerate(lines, start=1):
            if not line.strip() or line.startswith("#"):
                continue
            cells = line.split("\t")
            if len(cells) != 2:
                raise GlossaryError(f"{path}:{number}: a line needs two tab-separated cells, "
                                    f"found {len(cells)}")
            out.append((cells[0], cells[1]))
        return out
    from babel.messages.mofile import read_mo
    from babel.messages.pofile import read_po

    try:
        with path.open("rb") as handle:
            catalog = read_mo(handle) if path.suffix == ".mo" else read_po(handle)
    except Exception as exc:  # babel raises struct, Unicode and its own errors on a bad file
        raise GlossaryError(f"{path} is not a readable gettext catalog "
                            f"({type(exc).__name__}: {exc})") from None
    out = []
    for message in catalog:
        ids = message.id if isinstance(message.id, (tuple, list)) else (message.id,)
        strings = (message.string if isinstance(message.string, (tuple, list))
                   else (message.string,))
        if ids and strings and ids[0] and strings[0]:
            out.append((str(ids[0]), str(strings[0])))
    return out


def _catalog_files(paths: Iterable[str | Path]) -> list[Path]:
    """The catalogs named by ``paths``: files as given, folders searched for every suffix.

    Raises:
        GlossaryError: A path that does not exist, or a file of another kind.
    """
    files: list[Path] = []
    for given in paths:
        path = Path(given)
        if path.is_dir():
            files += sorted(p for p in path.rglob("*") if p.is_file()
                            and p.suffix in CATALOG_SUFFIXES)
        elif path.is_file():
            if path.suffix not in CATALOG_SUFFIXES:
                raise GlossaryError(f"{path}: a glossary is read from "
                                    f"{', '.join(CATALOG_SUFFIXES)} files")
            files.append(path)
        else:
            raise GlossaryError(f"{path} does not exist")
    return files


def read_catalogs(paths: Sequence[str | Path]) -> BilingualGlossary:
    """A glossary of every term pair in the catalogs at ``paths`` (files or folders).

    A pair is kept when both sides are short (at most :data:`MAX_CHARS`), carry no format
    marks or markup, and differ; mnemonic marks and ellipses are removed first.

    Raises:
        GlossaryError: A path that does not exist or a catalog that cannot be read.
    """
    pairs: dict[tuple[str, str], None] = {}
    sources = []
    for path in _catalog_files(paths):
        kept = 0
        for source, translation in _catalog_pairs(path):
            source, translation = _clean(source), _clean(translation)
            if (_is_term(source, MAX_CHARS[0]) and _is_term(translation, MAX_CHARS[1])
                    and source.casefold() != translation.casefold()):
                if (source, translation) not in pairs:
                    kept += 1
                pairs[(source, translation)] = None
        sources.append({"file": path.name, "sha256": sha256_file(path), "pairs": kept})
    return BilingualGlossary(pairs=tuple(pairs), sources=tuple(sources))
