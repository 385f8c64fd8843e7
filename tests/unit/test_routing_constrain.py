"""Copy-constrained decoding: the grammar, the token table, the logits processor and the wiring.

The decoding tests drive :class:`CopyConstraint` with a fake model whose logits prefer a scripted
decision (an invented argument value, an id outside the catalog): without the constraint the
invention comes out, which is what makes the constrained half of each test mean something.
"""

from __future__ import annotations

import json
from collections.abc import Callable
from pathlib import Path

import pytest
import torch
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from workbench.cli._router import catalog_name
from workbench.routing import (
    CONSTRAINED_SUFFIX,
    PARSE_FAILURE_CODE,
    PROMPT_FORMATS,
    ChoiceGrammar,
    CopyConstraint,
    RouterDecision,
    RouterSpecError,
    TokenTable,
    TransformersRouter,
    build_router,
    decision_grammar,
    load_tasks,
    parse_decision,
)
from workbench.routing._constrain import Grammar, spec_shapes
from workbench.routing._normalise import derive
from workbench.routing._transformers import REFUSAL_CODES, _Generated, decision_target, load_tokenizer
from workbench.utilities import load_catalog

ROOT = Path(__file__).resolve().parents[2]
SMALL = ROOT / "models" / "routers" / "base-small"
TASKS = ROOT / "corpus" / "questions" / "router_tasks.jsonl"


@pytest.fixture(scope="module")
def tokenizer() -> object:
    return load_tokenizer(SMALL)


@pytest.fixture(scope="module")
def table(tokenizer: object) -> TokenTable:
    return TokenTable.of(tokenizer)


def _grammar(question: str) -> Grammar:
    return decision_grammar(question, REFUSAL_CODES)


# ---------------------------------------------------------------------------------------------
# The grammar


def test_gold_decisions_whose_values_are_copied_are_in_the_grammar() -> None:
    """Every prefix of a reachable gold decision is allowed, and the whole decision is complete."""
    catalog = load_catalog()
    checked = 0
    for item in load_tasks(TASKS):
        gold = item.gold
        args = dict(gold.get("args") or {})
        if gold["source"] == "utility":
            types = {a.name: a.type for a in catalog.schemas[gold["utility"]].arguments}
            if any(derive(item.question, v) is None or (types[k] == "string") != isinstance(v, str)
                   for k, v in args.items()):
                continue  # a value the question does not spell: outside the grammar by design
        if gold["source"] == "spec" and any(
                derive(item.question, v) is None and v not in spec_shapes()[gold["spec"]][k].members
                for k, v in args.items()):
            continue
        grammar = _grammar(item.question)
        target = (" " + decision_target(gold)).encode()
        assert grammar.is_complete(target), target
        assert all(grammar.is_prefix(target[:i]) for i in range(len(target))), target
        checked += 1
    assert checked > 400


@pytest.mark.parametrize(("question", "decision", "complete"), [
    ("MD5 of admin", '{"source":"utility","utility":"hash.md5","args":{"text":"admin"}}', True),
    ("MD5 of admin", '{"source":"utility","utility":"hash.md5","args":{"text":"root"}}', False),
    ("MD5 of admin", '{"source":"utility","utility":"hash.sha999","args":{}}', False),
    ("MD5 of admin", '{"source":"utility","utility":"hash.md5","args":{"txt":"admin"}}', False),
    ("MD5 of admin", '{"source":"utility","utility":"hash.md5","args":{"text":"admin","text":"a"}}', False),
    ("MD5 of admin", '{"source":"refuse","refusal":"OUT_OF_SCOPE"}', True),
    ("MD5 of admin", '{"source":"refuse","refusal":"PARSE_FAILURE"}', False),
    ("MD5 of admin", '{"source":"quote"}', True),
    ("MD5 of admin", '{"source":"oracle"}', False),
    ('MD5 of say "hi"', '{"source":"utility","utility":"hash.md5","args":{"text":"say \\"hi\\""}}', True),
    ("Какой день недели был 12 апреля 1961 года?",
     '{"source":"utility","utility":"date.weekday","args":{"date":"1961-04-12"}}', True),
    ("Какой день недели был 12 апреля 1961 года?",
     '{"source":"utility","utility":"date.weekday","args":{"date":"1961-04-13"}}', False),
    ("hex of rgb 1 500, 20 and двадцать",
     '{"source":"utility","utility":"color.rgb_to_hex","args":{"r":1500,"g":20.0,"b":20}}', True),
    ("hex of rgb 1 500, 20 and двадцать",
     '{"source":"utility","utility":"color.rgb_to_hex","args":{"r":21}}', False),
    ("hex of rgb 2.5", '{"source":"utility","utility":"color.rgb_to_hex","args":{"r":2.5}}', False),
    ("hex of rgb", '{"source":"utility","utility":"color.rgb_to_hex","args":{"r"', False),
    ("hex of rgb", '{"source":"utility","utility":"color.rgb_to_hex","args":{}}', True),
    # a base word gives its number to a base argument only: "hex" is no red channel of 16
    ("hex of rgb", '{"source":"utility","utility":"color.rgb_to_hex","args":{"r":16}}', False),
    ("Переведи 101 из двоичной в десятичную",
     '{"source":"utility","utility":"number.convert_base","args":{"value":"101","from_base":2,'
     '"to_base":10}}', True),
    ("hex of rgb 2.5", '{"source":"utility","utility":"color.rgb_to_hex","args":{"r":"2.5"}}', False),
    ("Продаём детские товары внутри страны",
     '{"source":"spec","spec":"vat.rate_for_supply","args":{"supply_kind":"domestic",'
     '"documents_confirmed":"no","goods_category":"children"}}', True),
    ("Продаём детские товары внутри страны",
     '{"source":"spec","spec":"vat.rate_for_supply","args":{"supply_kind":"abroad"}}', False),
])
def test_the_grammar_accepts_copies_and_known_ids_only(question: str, decision: str,
                                                       complete: bool) -> None:
    grammar = _grammar(question)
    data = decision.encode()
    assert grammar.is_complete(data) is complete
    assert grammar.is_prefix(data) is complete
    assert grammar.is_complete(b" " + data) is complete


def test_a_prefix_may_end_inside_a_character_or_an_escape() -> None:
    grammar = _grammar('Посчитай MD5 от "привет"')
    opening = b'{"source":"utility","utility":"hash.md5","args":{"text":"'
    assert grammar.is_prefix(opening + "при".encode()[:3])  # п and half of р
    assert grammar.is_prefix(opening + b"\\")  # \" follows: the question has a quote
    assert not _grammar("MD5 of admin").is_prefix(opening + b"\\")  # no escape fits there
    assert not grammar.is_prefix(opening + "при".encode()[1:])  # starts inside a character


def test_the_choice_grammar_of_the_first_stage() -> None:
    grammar = ChoiceGrammar(("hash", "quote", "spec", "refuse"))
    assert grammar.is_prefix(b" qu") and grammar.is_complete(b" quote") and grammar.is_complete(b"hash")
    assert not grammar.is_prefix(b"weather") and not grammar.is_complete(b"quotes")


# ---------------------------------------------------------------------------------------------
# Tokens and decoding with a fake model


def test_the_token_table_gives_each_tokens_bytes(tokenizer: object, table: TokenTable) -> None:
    for text in ("Посчитай SHA-256 от строки «привет»", ' {"source":"quote"}', "ёлка 1 500,5"):
        ids = tokenizer.encode(text, add_special_tokens=False)  # type: ignore[attr-defined]
        assert table.text(ids) == text.encode("utf-8")
    assert table.eos and all(table.pieces[i] is None for i in table.eos)


def _fake_model(tokenizer: object, table: TokenTable, target: str,
                seed: int) -> Callable[[list[int]], torch.Tensor]:
    """Logits that spell ``target`` while the output follows it, then prefer closing it."""
    wanted = list(tokenizer.encode(target, add_special_tokens=False))  # type: ignore[attr-defined]
    size = len(table.pieces)
    closers = [i for i, p in enumerate(table.pieces) if p in (b'"', b"}", b'"}', b"}}", b'"}}')]
    noise = torch.randn(64, size, generator=torch.Generator().manual_seed(seed))
    eos = sorted(table.eos)

    def logits(generated: list[int]) -> torch.Tensor:
        scores = noise[len(generated) % 64].clone()
        step = len(generated)
        if generated == wanted[:step]:
            scores[wanted[step] if step < len(wanted) else eos[0]] += 30.0
        else:
            scores[closers + eos] += 8.0
        return scores

    return logits


def _decode(logits: Callable[[list[int]], torch.Tensor], table: TokenTable,
            constraint: CopyConstraint | None, steps: int = 48) -> str:
    prompt = [7, 8, 9]  # the processor looks only past the prompt
    generated: list[int] = []
    for _ in range(steps):
        scores = logits(generated).unsqueeze(0)
        if constraint is not None:
            scores = constraint(torch.tensor([prompt + generated]), scores)
        token = int(scores[0].argmax())
        if token in table.eos:
            break
        generated.append(token)
    return table.text(generated).decode("utf-8", errors="replace")


WORDS = st.text(alphabet="abcdefxyz абвгдеё0123456789-", min_size=1, max_size=12)


@settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(words=WORDS, invented=st.text(alphabet="QWJZЖЩЮ", min_size=2, max_size=6),
       number=st.integers(0, 10**6), seed=st.integers(0, 10**6),
       invent=st.sampled_from(["string", "number", "utility", "refusal"]))
def test_a_constrained_decoder_copies_what_an_unconstrained_one_invents(
        tokenizer: object, table: TokenTable, words: str, invented: str, number: int, seed: int,
        invent: str) -> None:
    question = f"MD5 of {words} and rgb {number}"
    made_up_number = number * 10 + 7  # never a span of the question
    target = {
        "string": {"source": "utility", "utility": "hash.md5", "args": {"text": invented}},
        "number": {"source": "utility", "utility": "color.rgb_to_hex", "args": {"r": made_up_number}},
        "utility": {"source": "utility", "utility": "hash.md5sum", "args": {"text": words}},
        "refusal": {"source": "refuse", "refusal": "NOT_A_CODE"},
    }[invent]
    text = " " + json.dumps(target, ensure_ascii=False, separators=(",", ":"))
    logits = _fake_model(tokenizer, table, text, seed)

    free = parse_decision(_decode(logits, table, None))
    assert free.raw_output == text  # the unconstrained decoder writes the invention
    if invent in ("string", "number"):
        assert any(derive(question, v) is None for v in free.args.values())

    constraint = CopyConstraint(table, _grammar(question), prompt_length=3)
    raw = _decode(logits, table, constraint)
    decision = parse_decision(raw)
    assert isinstance(decision, RouterDecision)
    assert raw != text
    assert decision.utility is None or decision.utility in load_catalog().schemas
    assert decision.refusal is None or decision.refusal.code in (*REFUSAL_CODES, PARSE_FAILURE_CODE)
    for value in decision.args.values():
        assert derive(question, value) is not None, (question, raw)
    if decision.refusal is None or decision.refusal.code != PARSE_FAILURE_CODE:
        assert _grammar(question).is_complete(raw.encode())


def test_the_whole_vocabulary_is_tried_when_no_top_token_fits(table: TokenTable) -> None:
    grammar = _grammar("MD5 of admin")
    constraint = CopyConstraint(table, grammar, prompt_length=0, top_k=1)
    scores = torch.zeros(1, len(table.pieces))
    scores[0, next(i for i, p in enumerate(table.pieces) if p == b"x")] = 5.0  # not a decision
    kept = constraint(torch.zeros(1, 0, dtype=torch.long), scores)
    allowed = [i for i in range(len(table.pieces)) if kept[0, i] > -torch.inf]
    assert constraint.full_scans == 1 and allowed
    assert all(grammar.is_prefix(table.pieces[i] or b"") for i in allowed)


# ---------------------------------------------------------------------------------------------
# The routers


def test_the_two_stage_format_constrains_each_stage() -> None:
    grammars: list[Grammar] = []
    replies = iter(["hash", '{"source":"utility","utility":"hash.md5","args":{"text":"admin"}}'])

    def generate(system: str, user: str, grammar: Callable[[], Grammar]) -> _Generated:
        grammars.append(grammar())
        return _Generated(next(replies), 1, 1)

    decision = PROMPT_FORMATS["two-stage"]("MD5 of admin", generate, None)
    assert decision.utility == "hash.md5"
    first, second = grammars
    assert first.is_complete(b"hash") and first.is_complete(b"quote") and not first.is_prefix(b"md5")
    assert second.is_complete(b'{"source":"utility","utility":"hash.md5","args":{"text":"admin"}}')
    assert second.is_complete(b'{"source":"refuse","refusal":"OUT_OF_SCOPE"}')
    assert not second.is_prefix(b'{"source":"quote"}')
    assert not second.is_prefix(b'{"source":"utility","utility":"text.')  # another category


def test_constrained_names_build_a_constrained_generative_router() -> None:
    with pytest.raises(RouterSpecError, match="generative"):
        build_router("rule" + CONSTRAINED_SUFFIX)
    assert catalog_name("base" + CONSTRAINED_SUFFIX) is None and catalog_name("base") == "base"
    router = build_router(f"transformers:{SMALL}{CONSTRAINED_SUFFIX}")
    assert isinstance(router, TransformersRouter) and router.constrained
    assert not build_router("base-small").constrained
    for question in ("Посчитай MD5 от строки «привет»", "Convert 26.2 miles to kilometers"):
        decision = router.route(question)
        for value in decision.args.values():
            assert derive(question, value) is not None, decision.raw_output
        assert decision.utility is None or decision.utility in load_catalog().schemas
