"""The entity rule: every entity of the question must occur in the fragment, at a word boundary.

What counts as an entity of a question (``extract_entities``):

* a literal in backticks — matched exactly, case included (it is code or data);
* a number with a unit (``22%``, ``64 бита``, ``2019 году``, ``10 KiB``) — the number must occur
  with digit boundaries; the unit may be inflected or spelled out, so only the number is matched;
* an identifier: a token that mixes letters and digits (``SHA-384``, ``KOI8-R``, ``IPv6``), a
  camelCase name (``encodeURIComponent``), or a dotted or slashed number (``34.11-94``,
  ``198.18.0.0/15``, ``14.0``) — matched case-insensitively; a hyphen may also be written as a
  space, an underscore or nothing, while ``+ . / :`` are kept as written;
* an abbreviation: two or more capitals, Latin or Cyrillic (``JSON``, ``НДС``, ``ИНН``) — Latin
  ones case-insensitively (and an English plural ``s`` is dropped), Cyrillic ones in capitals,
  optionally followed by a short lower-case ending (``ИНН-а``);
* in a Russian question, any other Latin word (``padding``, ``Excel``) — case-insensitively;
* a proper noun: a capitalised word that does not start a sentence (``Крокфорд``, ``Norway``) —
  a Cyrillic one by its Snowball stem as the start of a word (``Крокфорда``), a Latin one
  case-insensitively with an optional possessive;
* with ``options`` on (the default): a command-line option or flag (``-v``, ``--recursive``,
  ``/S``) standing on its own — matched exactly, case included, and only with its full spelling
  (``-v`` is not found in ``-verbose`` nor as a bare ``v``). With ``options`` on, a single letter
  or a literal without letters and digits is not demanded: a help page that speaks of the ``x``
  axis or of the ``*`` wildcard may write it in a way the extracted text does not keep.

A question may name the document itself ("what does the Levels dialog of GIMP do?"): the file's
title and the parts of its path scope every fragment of it, so an entity found in the
:class:`DocumentScope` is satisfied by any fragment of that file. A capitalised name of four
letters or more inside the name of one of the file's folders counts too: help files sit in a
folder named after the module they describe («Writer» in ``text/swriter/``).

Word boundaries are Cyrillic-aware: a match may not touch a Latin or Cyrillic letter or a digit
on either side (Python's word characters without the underscore). The rule fires when at least one
entity is missing and names every missing one.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from functools import lru_cache

import Stemmer

_LETTER = "A-Za-zА-Яа-яЁё"
_ALNUM = _LETTER + "0-9"
_LEFT = f"(?<![{_ALNUM}])"
_RIGHT = f"(?![{_ALNUM}])"
_BACKTICK = re.compile(r"`([^`]+)`")
_TOKEN = re.compile(f"[{_ALNUM}]+(?:[-–.+/:][{_ALNUM}]+)*")
_UNITS = re.compile(
    r"\s*-?\s*(%|процент\w*|percent|бит\w*|bits?|байт\w*|bytes?|символ\w*|знак\w*|цифр\w*|"
    r"characters?|digits?|дн[еяи]\w*|день|days?|лет|год\w*|years?|месяц\w*|months?|"
    r"час\w*|hours?|минут\w*|minutes?|секунд\w*|seconds?|руб\w*|roubles?|rubles?|"
    r"[KMGT]i?B|[кКмМгГ]и?Б|тысяч\w*|млн|million\w*)(?![A-Za-zА-Яа-яЁё])",
    re.IGNORECASE)
_NUMBER = re.compile(r"(?<![\w.,])(\d+(?:[.,]\d+)?)")
# "-v", "--recursive", "--no-color", "/S": an option stands after a space, a bracket or a quote.
_OPTION = re.compile(r"(?<![^\s(\[«\"'`])(--?[A-Za-z][A-Za-z0-9]*(?:-[A-Za-z0-9]+)*|/[A-Za-z][A-Za-z0-9]{0,7}"
                     r"|/\?)(?![\w/\-])")
_OPTION_EDGE_L = r"(?<![\w\-/])"
_OPTION_EDGE_R = r"(?![\w\-/])"
_SENTENCE_START = re.compile(r"(?:^|[.!?…:;]\s+|[«\"(]\s*)$")
# Capitalised words that begin questions or are not names even mid-sentence.
_NOT_NAMES = frozenset(
    "i a the what which how why when where who whose is are does do can could should would "
    "will may might".split())


@dataclass(frozen=True)
class Entity:
    """One entity of a question and how it is matched."""

    text: str
    """As written in the question."""
    kind: str
    """``literal``, ``number``, ``identifier``, ``abbreviation``, ``latin``, ``proper_noun`` or
    ``option``."""
    pattern: str
    """The regular expression searched for in a fragment."""
    flags: int = 0
    """Its flags."""

    def found_in(self, text: str) -> bool:
        """Whether the entity occurs in ``text``."""
        return _compiled(self.pattern, self.flags).search(text) is not None


@lru_cache(maxsize=4096)
def _compiled(pattern: str, flags: int) -> re.Pattern[str]:
    return re.compile(pattern, flags)


@lru_cache(maxsize=1)
def _ru_stemmer() -> Stemmer.Stemmer:
    return Stemmer.Stemmer("russian")


def _parts_pattern(token: str) -> str:
    """The pattern of an identifier-like token.

    A hyphen may also be written as a space, an underscore or nothing (``SHA-256``, ``sha256``);
    ``+ . / :`` carry meaning (``UTC+3``, ``cmd.exe``) and are kept literally.
    """
    pieces = re.split(r"([-–.+/:])", token)
    out = []
    for piece in pieces:
        if piece in ("-", "–"):
            out.append(r"[-_–\s]?")
        elif piece:
            out.append(re.escape(piece))
    return _LEFT + "".join(out) + _RIGHT


def _is_cyrillic(token: str) -> bool:
    return bool(re.search("[А-Яа-яЁё]", token))


def _is_latin(token: str) -> bool:
    return bool(re.search("[A-Za-z]", token))


def extract_entities(question: str, lang: str | None = None, *,
                     options: bool = True) -> list[Entity]:
    """The entities of ``question`` (see the module docstring), without repeats.

    Args:
        question: The question.
        lang: ``ru`` or ``en``; guessed from the share of Cyrillic letters when ``None``.
        options: Read command-line options as whole entities and demand no single letter and no
            literal without letters or digits (the default); ``False`` keeps every token.
    """
    if lang is None:
        cyr = len(re.findall("[А-Яа-яЁё]", question))
        lang = "ru" if cyr >= 0.3 * max(1, len(re.findall(f"[{_LETTER}]", question))) else "en"
    entities: list[Entity] = []
    seen: set[tuple[str, str]] = set()

    def add(entity: Entity) -> None:
        key = (entity.kind, entity.pattern)
        if key not in seen:
            seen.add(key)
            entities.append(entity)

    for match in _BACKTICK.finditer(question):
        literal = match.group(1)
        if options and _OPTION.fullmatch(literal.strip()):
            add(_option(literal.strip()))
        elif not options or re.search(f"[{_ALNUM}]", literal):
            add(Entity(literal, "literal", re.escape(literal)))
    plain = _BACKTICK.sub(lambda m: " " * len(m.group(0)), question)
    if options:
        for match in _OPTION.finditer(plain):
            add(_option(match.group(1)))
        plain = _OPTION.sub(lambda m: " " * len(m.group(0)), plain)

    for match in _NUMBER.finditer(plain):
        unit = _UNITS.match(plain, match.end())
        if unit:
            number = match.group(1)
            add(Entity(number + unit.group(0), "number",
                       r"(?<![\d.,])" + re.escape(number).replace(r"\.", "[.,]") + r"(?![\d])"))

    for match in _TOKEN.finditer(plain):
        token = match.group(0)
        parts = re.split(r"[-–]", token)
        if len(parts) > 1 and _is_cyrillic(parts[-1]) and not _is_cyrillic(parts[0]):
            # "HTML-ссылка", "IPv6-адрес", "32-битный": the Latin or numeric head is the entity,
            # the Cyrillic tail an ordinary (inflected) word.
            head = "-".join(p for p in parts if not _is_cyrillic(p))
            if head.isdigit():
                continue  # a number glued to a unit word; the number rule above has it
            token = head
        letters = re.sub(f"[^{_LETTER}]", "", token)
        if options and len(token) == 1:
            continue  # "x", "v": a single letter is too short to tell one passage from another
        if not letters:
            if re.fullmatch(r"\d+(?:[.:/]\d+)+(?:[-–]\d+)?", token):
                # "34.11-94", "198.18.0.0/15", "14.0": versions, addresses, standard numbers
                add(Entity(token, "identifier", _parts_pattern(token)))
            continue
        has_digit = any(ch.isdigit() for ch in token)
        if has_digit:
            add(Entity(token, "identifier", _parts_pattern(token), re.IGNORECASE))
            continue
        if len(letters) >= 2 and sum(ch.isupper() for ch in letters) >= 2 and (
                letters.isupper() or letters[:-1].isupper()):
            if _is_latin(token):
                core = token[:-1] if token.endswith("s") and token[:-1].isupper() else token
                add(Entity(token, "abbreviation", _parts_pattern(core) .replace(
                    _RIGHT, "(?:s|'s)?" + _RIGHT), re.IGNORECASE))
            else:
                add(Entity(token, "abbreviation",
                           _LEFT + re.escape(token) + "(?:-?[а-яё]{1,3})?" + _RIGHT))
            continue
        if _is_latin(token) and re.search("[a-z][A-Z]", token):
            # camelCase or mixed case names an API or a product: encodeURIComponent, JavaScript
            add(Entity(token, "identifier", _parts_pattern(token), re.IGNORECASE))
            continue
        if lang == "ru" and _is_latin(token) and not _is_cyrillic(token):
            add(Entity(token, "latin", _parts_pattern(token), re.IGNORECASE))
            continue
        starts_sentence = _SENTENCE_START.search(plain[: match.start()]) is not None
        if (token[0].isupper() and len(letters) >= 2 and not starts_sentence
                and token.lower() not in _NOT_NAMES):
            if _is_cyrillic(token):
                stem = str(_ru_stemmer().stemWord(token.lower().replace("ё", "е")))
                stem_pattern = re.escape(stem).replace("е", "[её]")
                add(Entity(token, "proper_noun", _LEFT + stem_pattern + f"[{_LETTER}]*" + _RIGHT,
                           re.IGNORECASE))
            else:
                # "Russia" / "Russian": a long name is matched by all but its last letter.
                core = token[:-1] if len(token) >= 6 else token
                add(Entity(token, "proper_noun", _LEFT + re.escape(core) + "[A-Za-z]*(?:'s)?"
                           + _RIGHT, re.IGNORECASE))
    return entities


def _option(token: str) -> Entity:
    """A command-line option: its full spelling, case included, not part of a longer one."""
    return Entity(token, "option", _OPTION_EDGE_L + re.escape(token) + _OPTION_EDGE_R)


@dataclass(frozen=True)
class DocumentScope:
    """The document a fragment belongs to: what every fragment of it is about."""

    path: str = ""
    """The file, relative to the corpus root."""
    title: str = ""
    """The file's title: its first heading line (``""`` when it has none)."""

    def parts(self) -> tuple[str, ...]:
        """The path's folders and file name, outermost first, whatever the separator."""
        return tuple(p for p in self.path.replace("\\", "/").split("/") if p)

    def names(self) -> tuple[str, ...]:
        """The title, the path's top folder (the collection) and its file name without extension."""
        parts = self.parts()
        if not parts:
            return (self.title,) if self.title else ()
        stem = parts[-1].rsplit(".", 1)[0] if "." in parts[-1] else parts[-1]
        top = parts[0] if len(parts) > 1 else ""
        return tuple(dict.fromkeys(n for n in (self.title, top, stem) if n))

    def folders(self) -> tuple[str, ...]:
        """The folders of the path, outermost first (``libreoffice``, ``text``, ``swriter``)."""
        return self.parts()[:-1]

    def with_title(self, text: str) -> str:
        """``text`` read under its document's title (a paragraph need not repeat it)."""
        return f"{self.title}\n\n{text}" if self.title else text


@dataclass(frozen=True)
class RuleVerdict:
    """What one relevance rule decided for one (question, fragment) pair."""

    rule: str
    """The rule's registered name."""
    fired: bool
    """True when the rule refuses the fragment."""
    missing: tuple[str, ...] = ()
    """What the fragment lacks (entities, terms)."""
    detail: str = ""
    """A sentence for traces and refusals."""


def missing_entities(question: str, fragment_text: str, lang: str | None = None, *,
                     scope: DocumentScope | None = None, options: bool = True) -> list[str]:
    """The entities of ``question`` that neither ``fragment_text`` nor its ``scope`` contains.

    An entity found in the scope's title or path (:meth:`DocumentScope.names`) names the document
    itself, so every fragment of that document satisfies it; so does a capitalised name inside the
    name of one of its folders (the module the document belongs to).
    """
    names = scope.names() if scope is not None else ()
    folders = [f.lower() for f in scope.folders()] if scope is not None else []
    return [e.text for e in extract_entities(question, lang, options=options)
            if not e.found_in(fragment_text) and not any(e.found_in(n) for n in names)
            and not _in_folder_name(e.text, folders)]


def _in_folder_name(entity: str, folders: list[str]) -> bool:
    """Whether a capitalised Latin name of four letters or more is inside a folder's name.

    Documentation files sit in folders named after the module they describe (``Writer`` in
    ``swriter``, ``Basic`` in ``sbasic``); a lower-case word (``shared``, ``text``) names no
    module.
    """
    word = entity.lower()
    return (len(word) >= 4 and word.isascii() and word.isalpha() and entity[0].isupper()
            and any(word in folder for folder in folders))
