"""Copy-constrained decoding: a generative router may only write a prefix of a valid decision.

While a model writes its decision, :class:`CopyConstraint` (a transformers ``LogitsProcessor``)
keeps only the tokens after which the text is still the beginning of a decision that the grammar
accepts. The grammar (:class:`DecisionGrammar`) is exactly the one-line JSON of
:func:`~workbench.routing._transformers.decision_target`, with an optional leading space::

    {"source":"quote"}
    {"source":"refuse","refusal":CODE}
    {"source":"utility","utility":ID,"args":{"NAME":VALUE,...}}
    {"source":"spec","spec":ID,"args":{"NAME":VALUE,...}}

where CODE is a refusal code the router may use, ID a utility id of the catalog (or a spec id of
``corpus/specs``), NAME an argument of that utility's schema (each at most once, and a number
argument only when the question offers a number, so that no name is begun that no value could
follow), and VALUE is copied from the question:

- a string whose text is a substring of the question, or the output of a normaliser on a span of
  it (a date in ISO form, an enum value; :func:`~workbench.routing._normalise.candidate_spans`);
- a number that a normaliser reads from a span of the question (``1 500`` and «полторы тысячи»
  give 1500; an integral value may be written ``1500`` or ``1500.0``); an ``integer`` argument
  takes only integral ones;
- for a ``boolean`` argument, ``true`` or ``false``; for an input of a specification with a
  declared enum type or ``bool``, one of its members (``export``, ``yes``): those values are part
  of the schema, as the ids are, and no question spells them.

So every argument value that comes out is one :func:`~workbench.routing._normalise.derive`
finds in the question (or a declared member), and no id outside the catalog can come out.

The check is on bytes, so a byte-level BPE token that ends in the middle of a UTF-8 character
(frequent for Cyrillic in a small vocabulary) is judged by the bytes it adds. Each token's bytes
are computed once per tokenizer (:class:`TokenTable`); at each step only the ``top_k`` best
tokens are tried, and the whole vocabulary (best first) only when none of them is allowed.
"""

from __future__ import annotations

import functools
import json
import math
from collections.abc import Callable, Iterable, Iterator, Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Protocol

from workbench.routing._normalise import (
    BASE_ARGS,
    NormaliseError,
    base_spans,
    candidate_spans,
    normalise_base,
)
from workbench.utilities import Catalog, load_catalog

DEFAULT_TOP_K = 50
"""How many of the best tokens are checked at each step before the whole vocabulary is."""

SOURCES: tuple[str, ...] = ("utility", "quote", "spec", "refuse")
"""The sources a decision may name."""

LEADS: tuple[bytes, ...] = (b"", b" ")
"""What may come before the opening brace: the trained routers write a space after ``A:``."""

SPEC_SUFFIXES: dict[str, str] = {"money": " rub", "percent": " %"}
"""The unit a specification's numeric input is written with (as ``spec eval --input`` reads it)."""

_RAN_OUT = -1  # a part of the grammar that the text ends inside of
_ESCAPES = {ord('"'): ord('"'), ord("\\"): ord("\\"), ord("n"): 10, ord("t"): 9, ord("r"): 13}


class Grammar(Protocol):
    """A set of texts, queried by prefix: what a constrained decoder may write."""

    def is_prefix(self, data: bytes) -> bool:
        """Whether ``data`` (UTF-8) begins some text of the set (or is one)."""
        ...

    def is_complete(self, data: bytes) -> bool:
        """Whether ``data`` is a whole text of the set."""
        ...


@dataclass(frozen=True)
class ArgShape:
    """What values one argument of a schema may take under the constraint."""

    kind: str
    """``string``, ``number``, ``integer``, ``boolean`` or ``base`` (an integer that a base word
    of the question may also give, for the arguments of :data:`BASE_ARGS`)."""
    members: tuple[str, ...] = ()
    """Declared values allowed although the question does not spell them (a spec's enum or bool)."""
    suffix: str = ""
    """A unit written after a number copied into a string (``" rub"`` for a spec's money input)."""


Shapes = Mapping[str, Mapping[str, ArgShape]]
"""Utility or spec id -> argument name -> its :class:`ArgShape`."""


def catalog_shapes(catalog: Catalog | None = None) -> dict[str, dict[str, ArgShape]]:
    """The argument shapes of every utility of ``catalog`` (the loaded one by default)."""
    catalog = catalog if catalog is not None else load_catalog()
    kinds = {"integer": "integer", "number": "number", "boolean": "boolean"}
    return {uid: {arg.name: ArgShape("base" if arg.name in BASE_ARGS else kinds.get(arg.type, "string"))
                  for arg in schema.arguments}
            for uid, schema in catalog.schemas.items()}


@functools.cache
def spec_shapes(specs_dir: Path | None = None) -> dict[str, dict[str, ArgShape]]:
    """The input shapes of every specification the routers may name (``corpus/specs`` by default).

    All are strings (``spec eval --input`` reads text); an enum or ``bool`` input also takes its
    members (:func:`~workbench.routing._spec_inputs.spec_types`), a money or percent input a
    copied number followed by its unit.
    """
    from workbench.routing._dataset import EXCLUDED_SPECS
    from workbench.routing._spec_inputs import spec_types

    return {spec: {name: (ArgShape("string", members) if len(members) > 1
                          else ArgShape("string", (), SPEC_SUFFIXES.get(members[0], "")))
                   for name, members in inputs.items()}
            for spec, inputs in spec_types(specs_dir).items() if spec not in EXCLUDED_SPECS}


# ---------------------------------------------------------------------------------------------
# What a question offers


def _number_literals(value: int | float) -> list[str]:
    if isinstance(value, float) and not value.is_integer():
        return [json.dumps(value)]
    whole = int(value)
    return [str(whole), f"{whole}.0"]


@dataclass(frozen=True)
class QuestionValues:
    """The values a question offers: its text, and what the normalisers read from its spans."""

    question: str
    """The question as the router saw it."""
    strings: frozenset[str]
    """Normaliser outputs that are strings (ISO dates, enum values)."""
    numbers: frozenset[str]
    """JSON literals of the numbers the normalisers read."""
    integers: frozenset[str]
    """The literals of :attr:`numbers` whose value is integral."""
    bases: frozenset[str] = frozenset()
    """The literals of the number bases the question names («двоичной», "base 16"), which only
    the arguments of :data:`BASE_ARGS` may take."""

    @classmethod
    def of(cls, question: str) -> QuestionValues:
        """Read every span of ``question`` that some normaliser gives a value for."""
        strings: set[str] = set()
        numbers: set[str] = set()
        integers: set[str] = set()
        for span in candidate_spans(question):
            try:
                value = span.value(question)
            except NormaliseError:
                continue
            if isinstance(value, bool):
                continue
            if isinstance(value, str):
                strings.add(value)
            elif isinstance(value, int | float) and math.isfinite(value):
                literals = _number_literals(value)
                numbers.update(literals)
                if float(value).is_integer():
                    integers.update(literals)
        bases = {str(normalise_base(question[start:end])) for start, end in base_spans(question)}
        return cls(question, frozenset(strings), frozenset(numbers), frozenset(integers),
                   frozenset(bases))


# ---------------------------------------------------------------------------------------------
# The grammar, as a prefix matcher over bytes


def _literal(data: bytes, pos: int, choices: Iterable[bytes]) -> Iterator[int]:
    """End positions of each choice that ``data`` holds at ``pos``; ``_RAN_OUT`` for one it begins."""
    rest = data[pos:]
    for choice in choices:
        if rest.startswith(choice):
            yield pos + len(choice)
        elif choice.startswith(rest):
            yield _RAN_OUT


def _then(ends: Iterable[int], part: Callable[[int], Iterator[int]]) -> Iterator[int]:
    for end in ends:
        if end == _RAN_OUT:
            yield _RAN_OUT
        else:
            yield from part(end)


@dataclass
class DecisionGrammar:
    """The decisions a router may write for one question (see the module's docstring).

    Args:
        values: What the question offers (:meth:`QuestionValues.of`).
        utilities: The utilities that may be named, with their argument shapes.
        specs: The specifications that may be named, with their input shapes.
        refusal_codes: The codes a refusal may carry.
        sources: The sources that may be named.
    """

    values: QuestionValues
    utilities: Shapes
    specs: Shapes
    refusal_codes: Sequence[str]
    sources: Sequence[str] = SOURCES
    _question: bytes = field(init=False, repr=False)
    _openings: tuple[bytes, ...] = field(init=False, repr=False)
    _codes: tuple[bytes, ...] = field(init=False, repr=False)
    _calls: dict[str, tuple[tuple[bytes, Mapping[str, ArgShape]], ...]] = field(init=False, repr=False)
    _literals: dict[str, tuple[bytes, ...]] = field(init=False, repr=False)
    _strings: frozenset[bytes] = field(init=False, repr=False)

    def __post_init__(self) -> None:
        # everything a check compares against is encoded once, not at every step
        self._question = self.values.question.encode("utf-8")
        self._openings = tuple(lead + b'{"source":' for lead in LEADS)
        self._codes = tuple(f"{json.dumps(c)}}}".encode() for c in self.refusal_codes)
        self._calls = {source: tuple((f'{json.dumps(name)},"args":{{'.encode(), args)
                                     for name, args in shapes.items())
                       for source, shapes in (("utility", self.utilities), ("spec", self.specs))}
        self._literals = {
            "boolean": (b"true", b"false"),
            "number": tuple(n.encode() for n in sorted(self.values.numbers)),
            "integer": tuple(n.encode() for n in sorted(self.values.integers)),
            "base": tuple(n.encode() for n in sorted(self.values.integers | self.values.bases))}
        self._strings = frozenset(s.encode() for s in self.values.strings)

    def is_prefix(self, data: bytes) -> bool:
        """Whether ``data`` begins a decision of the grammar (or is one)."""
        return any(end in (_RAN_OUT, len(data)) for end in self._ends(data))

    def is_complete(self, data: bytes) -> bool:
        """Whether ``data`` is a whole decision of the grammar."""
        return any(end == len(data) for end in self._ends(data))

    def _ends(self, data: bytes) -> Iterator[int]:
        return _then(_literal(data, 0, self._openings), lambda pos: self._body(data, pos))

    def _body(self, data: bytes, pos: int) -> Iterator[int]:
        if "quote" in self.sources:
            yield from _literal(data, pos, [b'"quote"}'])
        if "refuse" in self.sources:
            yield from _then(_literal(data, pos, [b'"refuse","refusal":']),
                             lambda p: _literal(data, p, self._codes))
        for source, calls in self._calls.items():
            if source not in self.sources or not calls:
                continue
            yield from _then(_literal(data, pos, [f'"{source}","{source}":'.encode()]),
                             functools.partial(self._call, data, calls=calls))

    def _call(self, data: bytes, pos: int,
              calls: tuple[tuple[bytes, Mapping[str, ArgShape]], ...]) -> Iterator[int]:
        for opening, args in calls:
            for end in _literal(data, pos, [opening]):
                if end == _RAN_OUT:
                    yield _RAN_OUT
                    continue
                yield from _then(self._args(data, end, args, frozenset()),
                                 lambda p: _literal(data, p, [b"}}"]))

    def _args(self, data: bytes, pos: int, args: Mapping[str, ArgShape],
              used: frozenset[str]) -> Iterator[int]:
        yield pos  # no more arguments: the caller closes the object
        separator = "," if used else ""
        for name, shape in args.items():
            if name in used or not self._literals.get(shape.kind, True):
                continue  # a number argument of a question without numbers: no value could follow
            key = f"{separator}{json.dumps(name, ensure_ascii=False)}:".encode()
            for end in _literal(data, pos, [key]):
                if end == _RAN_OUT:
                    yield _RAN_OUT
                    continue
                yield from _then(self._value(data, end, shape),
                                 functools.partial(self._args, data, args=args, used=used | {name}))

    def _value(self, data: bytes, pos: int, shape: ArgShape) -> Iterator[int]:
        if shape.kind in self._literals:
            yield from _literal(data, pos, self._literals[shape.kind])
            return
        extra = self._strings
        if shape.members or shape.suffix:
            extra = extra | {m.encode() for m in shape.members} | {
                (n + shape.suffix).encode() for n in self.values.numbers if shape.suffix}
        yield from self._string(data, pos, extra)

    def _string(self, data: bytes, pos: int, extra: frozenset[bytes]) -> Iterator[int]:
        """A JSON string whose content is in the question or in ``extra``."""
        if pos >= len(data):
            yield _RAN_OUT
            return
        if data[pos] != ord('"'):
            return
        content = bytearray()
        at = pos + 1
        while at < len(data):
            byte = data[at]
            if byte == ord('"'):
                text = bytes(content)
                if text and (text in extra or self._copied(text, whole=True)):
                    yield at + 1
                return
            if byte == ord("\\"):
                if at + 1 >= len(data):  # the text ends inside an escape: one must fit
                    if any(self._open(bytes(content) + bytes([u]), extra) for u in _ESCAPES.values()):
                        yield _RAN_OUT
                    return
                unescaped = _ESCAPES.get(data[at + 1])
                if unescaped is None:
                    return
                content.append(unescaped)
                at += 2
                continue
            if byte < 0x20:
                return  # a raw control character is not JSON
            content.append(byte)
            at += 1
        if self._open(bytes(content), extra):
            yield _RAN_OUT

    def _open(self, text: bytes, extra: frozenset[bytes]) -> bool:
        """Whether a string value whose content begins with ``text`` can still be finished."""
        return self._copied(text, whole=False) or any(x.startswith(text) for x in extra)

    def _copied(self, text: bytes, *, whole: bool) -> bool:
        """Whether ``text`` is a substring of the question (``whole``: of whole characters)."""
        if not text:
            return True
        if 0x80 <= text[0] < 0xC0:
            return False  # starts inside a character
        if whole:
            try:
                return text.decode("utf-8") in self.values.question
            except UnicodeDecodeError:
                return False
        return self._question.find(text) >= 0


@dataclass(frozen=True)
class ChoiceGrammar:
    """One word out of a closed list, after optional white space (the two-stage prompt's first stage)."""

    words: tuple[str, ...]
    """The words that may be written."""

    def _ends(self, data: bytes) -> Iterator[int]:
        start = len(data) - len(data.lstrip())
        return _literal(data, start, [w.encode() for w in self.words])

    def is_prefix(self, data: bytes) -> bool:
        """Whether ``data`` begins one of the words."""
        return any(end in (_RAN_OUT, len(data)) for end in self._ends(data))

    def is_complete(self, data: bytes) -> bool:
        """Whether ``data`` is one of the words."""
        return any(end == len(data) for end in self._ends(data))


def decision_grammar(question: str, refusal_codes: Sequence[str], catalog: Catalog | None = None, *,
                     sources: Sequence[str] = SOURCES, category: str | None = None) -> DecisionGrammar:
    """The grammar of the decisions for ``question``.

    Args:
        question: The question; argument values must be copied from it.
        refusal_codes: The codes a refusal may carry.
        catalog: The utility catalog (the loaded one by default).
        sources: The sources a decision may name.
        category: Only the utilities of this category may be named, when given.
    """
    utilities = catalog_shapes(catalog)
    if category is not None:
        utilities = {uid: args for uid, args in utilities.items() if uid.split(".", 1)[0] == category}
    return DecisionGrammar(QuestionValues.of(question), utilities, spec_shapes(), tuple(refusal_codes),
                           tuple(sources))


# ---------------------------------------------------------------------------------------------
# Tokens and the logits processor


@functools.cache
def _byte_decoder() -> dict[str, int]:
    from transformers.convert_slow_tokenizer import bytes_to_unicode

    return {char: byte for byte, char in bytes_to_unicode().items()}


class _Trie:
    """The token pieces as a byte trie: a pruned walk finds every allowed token at once."""

    __slots__ = ("children", "ids")

    def __init__(self) -> None:
        self.children: dict[int, _Trie] = {}
        self.ids: list[int] = []

    @classmethod
    def of(cls, pieces: Sequence[bytes | None]) -> _Trie:
        root = cls()
        for token_id, piece in enumerate(pieces):
            if not piece:
                continue
            node = root
            for byte in piece:
                node = node.children.setdefault(byte, cls())
            node.ids.append(token_id)
        return root

    def allowed(self, text: bytes, grammar: Grammar) -> list[int]:
        """Every token whose piece keeps ``text`` a prefix; a subtree is left as soon as its path fails."""
        found: list[int] = []
        stack: list[tuple[bytes, _Trie]] = [(text + bytes([b]), child) for b, child in self.children.items()]
        while stack:
            data, node = stack.pop()
            if not grammar.is_prefix(data):
                continue
            found.extend(node.ids)
            stack.extend((data + bytes([b]), child) for b, child in node.children.items())
        return found


@dataclass(frozen=True)
class TokenTable:
    """Each token id's bytes (``None`` for a special token), computed once per tokenizer."""

    pieces: tuple[bytes | None, ...]
    """Token id -> the UTF-8 bytes it adds to the text (``None``: a special token, never allowed)."""
    eos: frozenset[int]
    """End-of-text ids: allowed exactly when the text is complete."""
    trie: _Trie = field(repr=False, compare=False, default_factory=_Trie)
    """The pieces as a byte trie, for the scan of the whole vocabulary."""

    @classmethod
    def of(cls, tokenizer: Any) -> TokenTable:
        """Read every token of a transformers tokenizer (byte-level BPE, or decoded one by one)."""
        size = len(tokenizer)
        special = set(getattr(tokenizer, "all_special_ids", []) or [])
        decoder = _byte_decoder()
        byte_level = type(getattr(getattr(tokenizer, "backend_tokenizer", None), "decoder", None)
                          ).__name__ == "ByteLevel"
        pieces: list[bytes | None] = []
        for token_id, token in enumerate(tokenizer.convert_ids_to_tokens(list(range(size)))):
            if token_id in special or token is None:
                pieces.append(None)
            elif byte_level and all(c in decoder for c in token):
                pieces.append(bytes(decoder[c] for c in token))
            else:
                pieces.append(tokenizer.decode([token_id]).encode("utf-8"))
        eos = tokenizer.eos_token_id
        eos_ids = {eos} if isinstance(eos, int) else set(eos or [])
        return cls(tuple(pieces), frozenset(eos_ids), _Trie.of(pieces))

    def text(self, ids: Iterable[int]) -> bytes:
        """The bytes of a sequence of generated ids (special tokens add nothing)."""
        return b"".join(self.pieces[i] or b"" for i in ids if 0 <= i < len(self.pieces))


class CopyConstraint:
    """A transformers logits processor: only tokens that keep the output a prefix of the grammar.

    Args:
        table: The tokenizer's :class:`TokenTable`.
        grammar: What may be written (:class:`DecisionGrammar` or :class:`ChoiceGrammar`).
        prompt_length: How many ids of each row are the prompt (the rest were generated).
        top_k: How many of the best tokens are tried before the whole vocabulary.
    """

    def __init__(self, table: TokenTable, grammar: Grammar, prompt_length: int,
                 top_k: int = DEFAULT_TOP_K) -> None:
        self.table = table
        self.grammar = grammar
        self.prompt_length = prompt_length
        self.top_k = top_k
        self.full_scans = 0
        """Steps at which no top-k token was allowed and the whole vocabulary was tried."""

    def _allowed(self, text: bytes, token_id: int) -> bool:
        if token_id in self.table.eos:
            return self.grammar.is_complete(text)
        piece = self.table.pieces[token_id] if token_id < len(self.table.pieces) else None
        return bool(piece) and self.grammar.is_prefix(text + piece)  # type: ignore[operator]

    def allowed_ids(self, text: bytes, scores: Any) -> list[int]:
        """The ids that may follow ``text``: those of the top-k allowed, else all allowed ones."""
        import torch

        best = torch.topk(scores, min(self.top_k, int(scores.shape[-1]))).indices
        found = [t for t in (int(i) for i in best) if self._allowed(text, t)]
        if found:
            return found
        self.full_scans += 1
        found = self.table.trie.allowed(text, self.grammar)
        return found + [t for t in self.table.eos if self.grammar.is_complete(text)]

    def __call__(self, input_ids: Any, scores: Any) -> Any:
        """Set every token that would leave the grammar to minus infinity."""
        import torch

        keep = torch.zeros_like(scores, dtype=torch.bool)
        for row in range(scores.shape[0]):
            text = self.table.text(int(t) for t in input_ids[row, self.prompt_length:])
            allowed = self.allowed_ids(text, scores[row])
            if not allowed:  # a dead end the grammar should never reach: let the model stop
                allowed = sorted(self.table.eos) or list(range(int(scores.shape[-1])))
            keep[row, allowed] = True
        return scores.masked_fill(~keep, -math.inf)


__all__ = [
    "DEFAULT_TOP_K",
    "LEADS",
    "SOURCES",
    "ArgShape",
    "ChoiceGrammar",
    "CopyConstraint",
    "DecisionGrammar",
    "Grammar",
    "QuestionValues",
    "TokenTable",
    "catalog_shapes",
    "decision_grammar",
    "spec_shapes",
]
