"""`workbench tool serve` answers every non-blank line with one JSON object and never dies:
hostile lines from a table, a fuzz of random lines, and the real subprocess."""

from __future__ import annotations

import dataclasses
import io
import json
import subprocess

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from test_utilities_protocol import ROOT, serve_command

from workbench.utilities import handle_line, load_catalog, serve

GOOD = '{"id": "last", "tool": "call_utility", "arguments": {"utility": "hash.md5", "args": {"text": "abc"}}}'  # noqa: E501
MD5_ABC = "900150983cd24fb0d6963f7d28e17f72"
DEEP = "[" * 50_000
CATASTROPHIC = json.dumps({"id": "slow", "tool": "call_utility", "arguments": {
    "utility": "regex.match", "args": {"pattern": "(a|aa)+$", "text": "a" * 34 + "b"}}})


def call(rid: str, utility: str, args: str) -> str:
    return (f'{{"id": {rid}, "tool": "call_utility", '
            f'"arguments": {{"utility": {utility}, "args": {args}}}}}')


# (line, the id the reply carries, "result" or the error type, the refusal code if any)
HOSTILE_LINES = [
    ('{"id": "\\ud800", "tool": "list_categories"}', "\ud800", "result", None),
    (call("1", '"\\udfff"', "{}"), 1, "result", "UNKNOWN_UTILITY"),
    (call("2", '"text.reverse"', '{"text": "\\ud800"}'), 2, "result", None),
    (call("3", '"text.reverse"', '{"\\ud800": 1}'), 3, "result", "BAD_ARGUMENT"),
    ('{"id": ' + "1" * 5000 + ', "tool": "list_categories"}', None, "too_large", None),
    (call("4", '"number.to_roman"', '{"n": ' + "7" * 5000 + "}"), None, "too_large", None),
    (call("5", '"number.to_roman"', '{"n": ' + "7" * 300 + "}"), 5, "result", "LIMIT_EXCEEDED"),
    ('{"id": NaN, "tool": "list_categories"}', None, "bad_id", None),
    ('{"id": -Infinity, "tool": "list_categories"}', None, "bad_id", None),
    ('{"id": ' + "1" * 41 + ', "tool": "list_categories"}', None, "bad_id", None),
    ('{"id": [1], "tool": "list_categories"}', None, "bad_id", None),
    (call("6", '"number.to_roman"', '{"n": NaN}'), 6, "result", "BAD_ARGUMENT"),
    (DEEP, None, "too_deep", None),
    (DEEP + "]" * 50_000, None, "too_deep", None),
    ('{"id": 7, "tool": ' + DEEP + "}", None, "too_deep", None),
    ('{"id": 8, "tool": ["list_categories"]}', 8, "bad_request", None),
    ('{"id": 9, "tool": {"a": 1}, "arguments": []}', 9, "bad_request", None),
    (b'{"id": 10, "tool": "\xff\xfe"}'.decode("utf-8", "surrogateescape"), 10, "bad_request",
     None),
    (b'{"id": 11, \xc3\x28}'.decode("utf-8", "surrogateescape"), None, "malformed", None),
    ("\ud800", None, "malformed", None),
    ("null", None, "bad_request", None),
    (call("13", '"regex.match"', json.dumps({"pattern": "^(a+)+$", "text": "a" * 34 + "b"})), 13,
     "result", None),
    (call("12", '"format.yaml_to_json"', json.dumps({"data": "&a [*a, *a]"})), 12, "result",
     "LIMIT_EXCEEDED"),
]


def reply_of(line: str) -> dict:
    text = handle_line(line)
    assert text is not None
    text.encode("utf-8")  # valid UTF-8: a lone surrogate left escaped
    reply = json.loads(text)
    assert isinstance(reply, dict) and ("result" in reply) != ("error" in reply)
    return reply


@pytest.mark.parametrize(("line", "rid", "kind", "code"), HOSTILE_LINES,
                         ids=[f"{i}-{r[2]}" for i, r in enumerate(HOSTILE_LINES)])
def test_hostile_line_gets_one_typed_reply(line, rid, kind, code):
    reply = reply_of(line)
    assert reply["id"] == rid
    if kind == "result":
        assert "result" in reply
        if code is not None:
            assert reply["result"]["refusal"]["code"] == code
    else:
        assert reply["error"]["type"] == kind and reply["error"]["message"]


def test_catastrophic_pattern_is_answered_in_process(monkeypatch):
    catalog = load_catalog()
    monkeypatch.setitem(catalog.schemas, "regex.match",
                        dataclasses.replace(catalog.schemas["regex.match"], call_seconds=0.2))
    reply = reply_of(CATASTROPHIC)
    assert reply["id"] == "slow"
    assert reply["result"]["refusal"]["code"] == "LIMIT_EXCEEDED"


# --- the fuzz ------------------------------------------------------------------------------

ANY_TEXT = st.text(alphabet=st.characters(min_codepoint=0, max_codepoint=0x10FFFF,
                                          blacklist_categories=()), max_size=30)
SCALARS = st.one_of(
    st.none(), st.booleans(), st.floats(allow_nan=True, allow_infinity=True), ANY_TEXT,
    st.integers(), st.integers(min_value=10**4300, max_value=10**4400).map(lambda n: -n),
    st.sampled_from(["\ud800", "\udfff", "a\udc80b", "hash.md5", "text.reverse", "regex.match"]),
)
JSON_SHAPES = st.recursive(
    SCALARS,
    lambda kids: st.one_of(st.lists(kids, max_size=4),
                           st.dictionaries(ANY_TEXT, kids, max_size=4)),
    max_leaves=10,
)
REQUESTS = st.fixed_dictionaries(
    {"tool": st.one_of(st.sampled_from(["list_categories", "describe_category", "call_utility"]),
                       JSON_SHAPES)},
    optional={"id": JSON_SHAPES, "lang": JSON_SHAPES,
              "arguments": st.one_of(
                  JSON_SHAPES,
                  st.fixed_dictionaries({"utility": st.sampled_from(
                      ["hash.md5", "text.reverse", "regex.split", "format.yaml_to_json",
                       "number.to_roman", "nope.nope"])},
                      optional={"args": JSON_SHAPES, "category": JSON_SHAPES}))},
)


def _dumps(value, ensure_ascii: bool) -> str:
    # The encoder itself refuses an integer above 4300 digits: such a line is written by hand.
    try:
        return json.dumps(value, ensure_ascii=ensure_ascii)
    except ValueError:
        return '{"id": ' + "9" * 4400 + "}"


LINES = st.one_of(
    st.binary(max_size=60).map(lambda b: b.decode("utf-8", "surrogateescape")),
    st.binary(max_size=60).map(lambda b: b.decode("utf-8", "replace")),
    ANY_TEXT,
    st.tuples(JSON_SHAPES, st.booleans()).map(lambda v: _dumps(*v)),
    st.tuples(REQUESTS, st.booleans()).map(lambda v: _dumps(*v)),
    st.integers(min_value=1, max_value=60_000).map(lambda n: "[" * n),
    st.integers(min_value=1, max_value=60_000).map(lambda n: '{"id": 1, "tool": ' + "{" * n),
    st.integers(min_value=4000, max_value=6000).map(lambda n: '{"id": ' + "8" * n + "}"),
).map(lambda line: line.replace("\n", " ").replace("\r", " "))


@settings(max_examples=150, deadline=None, derandomize=True,
          suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large])
@given(lines=st.lists(LINES, min_size=1, max_size=6))
def test_fuzzed_lines_each_get_one_reply_and_the_server_lives_on(lines):
    out = io.StringIO()
    count = serve([*lines, GOOD], out)
    replies = out.getvalue().splitlines()
    assert count == len(replies) == sum(1 for line in lines if line.strip()) + 1
    for text in replies:
        text.encode("utf-8")
        assert isinstance(json.loads(text), dict)
    last = json.loads(replies[-1])
    assert last == {"id": "last", "result": {"ok": True, "utility": "hash.md5",
                                             "result": MD5_ABC}}


# --- the real subprocess -------------------------------------------------------------------

def raw(line: str) -> bytes:
    """The bytes of a line: undecodable bytes back as they came, a lone surrogate as CESU-8."""
    try:
        return line.encode("utf-8", "surrogateescape")
    except UnicodeEncodeError:
        return line.encode("utf-8", "surrogatepass")


def test_real_server_answers_every_hostile_line():
    lines = [line for line, *_ in HOSTILE_LINES] + [GOOD, CATASTROPHIC, GOOD]
    data = b"".join(raw(line) + b"\n" for line in lines)
    data += b"\xff\xfe not utf-8 at all\n" + GOOD.encode() + b"\n"
    done = subprocess.run(serve_command(), input=data, capture_output=True, cwd=ROOT,
                          timeout=120)
    assert done.returncode == 0, done.stderr.decode("utf-8", "replace")[-2000:]
    replies = [json.loads(text) for text in done.stdout.decode("utf-8").splitlines()]
    assert len(replies) == len(lines) + 2 and all(isinstance(r, dict) for r in replies)
    by_line = dict(zip(lines, replies, strict=False))
    assert by_line[CATASTROPHIC]["result"]["refusal"]["code"] == "LIMIT_EXCEEDED"
    assert replies[-4]["id"] == "slow" and replies[-2]["error"]["type"] == "malformed"
    for reply in (replies[len(HOSTILE_LINES)], replies[-3], replies[-1]):
        assert reply["id"] == "last" and reply["result"]["result"] == MD5_ABC
