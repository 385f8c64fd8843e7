"""Declared limits: every call is bounded in argument size and time, and a call over a limit
gets a LIMIT_EXCEEDED refusal that names the limit and its numbers."""

from __future__ import annotations

import dataclasses
import signal
import threading

import pytest

from workbench.refusal import falsehood_words
from workbench.utilities import UtilityCode, call_utility, check_arguments, load_catalog
from workbench.utilities._codes import Role
from workbench.utilities._format import MAX_YAML_NODES
from workbench.utilities._limits import MAX_DEPTH, MAX_ITEMS, call_within
from workbench.utilities._schema import MAX_TEXT, Argument, UtilitySchema

# "Billion laughs": nine levels of nine aliases, 9**9 strings once unfolded.
BOMB = "\n".join(
    ['a: &a ["lol","lol","lol","lol","lol","lol","lol","lol","lol"]']
    + [f"{c}: &{c} [" + ",".join([f"*{p}"] * 9) + "]"
       for p, c in zip("abcdefgh", "bcdefghi", strict=True)]
)
CATASTROPHIC = {"pattern": "(a|aa)+$", "text": "a" * 34 + "b"}

# (utility, args, limit, argument, measured value, bound); the deadline rows shrink the
# utility's call_seconds so that they stop at once.
LIMITS = [
    ("text.reverse", {"text": "a" * (MAX_TEXT + 1)}, "max_chars", "text", MAX_TEXT + 1, MAX_TEXT),
    ("hash.sha256", {"text": "я" * 250_000}, "max_chars", "text", 250_000, MAX_TEXT),
    ("regex.match", {"pattern": "a" * 1001, "text": "a"}, "max_chars", "pattern", 1001, 1000),
    ("number.to_roman", {"n": 10**50}, "max_digits", "n", 51, 40),
    ("number.is_prime", {"n": -(10**40)}, "max_digits", "n", 41, 40),
    ("number.to_words_en", {"n": 10**4999}, "max_digits", "n", 5000, 40),
    ("format.yaml_to_json", {"data": BOMB}, "yaml_nodes", "data", MAX_YAML_NODES + 1,
     MAX_YAML_NODES),
    ("format.yaml_to_json", {"data": "&a [*a]"}, "yaml_nodes", "data", MAX_YAML_NODES + 1,
     MAX_YAML_NODES),
    ("regex.find_all", {"pattern": "", "text": "a" * 20_000}, "max_results", "pattern", 10_001,
     10_000),
    ("regex.match", CATASTROPHIC, "call_seconds", None, None, 0.2),
    ("regex.find_all", CATASTROPHIC, "call_seconds", None, None, 0.2),
    ("regex.replace", {**CATASTROPHIC, "replacement": "x"}, "call_seconds", None, None, 0.2),
    ("regex.split", CATASTROPHIC, "call_seconds", None, None, 0.2),
]


def shorten(monkeypatch, uid: str, seconds: float) -> None:
    # The catalog of this moment: another test may have rebuilt the cached one.
    catalog = load_catalog()
    monkeypatch.setitem(catalog.schemas, uid,
                        dataclasses.replace(catalog.schemas[uid], call_seconds=seconds))


def in_thread(fn):
    box = []
    worker = threading.Thread(target=lambda: box.append(fn()))
    worker.start()
    worker.join(timeout=60)
    assert not worker.is_alive() and box
    return box[0]


@pytest.mark.parametrize(("uid", "args", "limit", "argument", "value", "bound"), LIMITS,
                         ids=[f"{r[0]}-{r[2]}-{i}" for i, r in enumerate(LIMITS)])
@pytest.mark.parametrize("lang", ["en", "ru"])
def test_limit_refusal_names_the_limit_and_its_numbers(monkeypatch, uid, args, limit, argument,
                                                       value, bound, lang):
    if limit == "call_seconds":
        shorten(monkeypatch, uid, bound)
    refusal = call_utility(uid, args, lang=lang).refusal
    assert refusal is not None and refusal.code == UtilityCode.LIMIT_EXCEEDED
    numbers = refusal.numbers
    assert (numbers["limit"], numbers.get("argument"), numbers["bound"]) == (limit, argument, bound)
    if value is not None:
        assert numbers["value"] == value and str(value) in refusal.text
    else:  # the time spent: at least the deadline, and said in the text
        assert numbers["value"] >= bound and str(numbers["value"]) in refusal.text
    assert limit in refusal.text and str(bound) in refusal.text
    if argument is not None:
        assert argument in refusal.text
    assert falsehood_words(refusal.text) == []
    assert any("а" <= ch <= "я" for ch in refusal.text.lower()) is (lang == "ru")


def test_an_argument_at_its_limit_is_accepted():
    assert call_utility("text.reverse", {"text": "ab" * (MAX_TEXT // 2)}).ok
    assert call_utility("number.gcd", {"a": 10**40 - 1, "b": 3}).result == 3


def spin(**kwargs):
    while True:
        pass


@pytest.mark.parametrize("where", ["main thread", "worker thread"])
def test_a_pure_python_loop_is_stopped_on_any_thread(monkeypatch, where):
    monkeypatch.setitem(load_catalog().functions, "text.reverse", spin)
    shorten(monkeypatch, "text.reverse", 0.1)

    def call():
        return call_utility("text.reverse", {"text": "abc"})

    outcome = call() if where == "main thread" else in_thread(call)
    assert outcome.refusal.code == UtilityCode.LIMIT_EXCEEDED
    assert outcome.refusal.numbers["limit"] == "call_seconds"
    # The thread lives on and calls normally afterwards: nothing of the deadline is left over.
    monkeypatch.undo()
    assert call_utility("text.reverse", {"text": "abc"}).result == "cba"


def test_a_catastrophic_pattern_is_stopped_off_the_main_thread(monkeypatch):
    # Off the main thread no signal reaches the C matcher; its own timeout must stop it.
    shorten(monkeypatch, "regex.match", 0.2)
    outcome = in_thread(lambda: call_utility("regex.match", CATASTROPHIC))
    assert outcome.refusal.code == UtilityCode.LIMIT_EXCEEDED


def test_a_deadline_hands_back_the_alarm_it_found():
    fired = []
    previous = signal.signal(signal.SIGALRM, lambda *a: fired.append(a))
    signal.setitimer(signal.ITIMER_REAL, 300)
    try:
        assert call_utility("hash.md5", {"text": "abc"}).ok
        assert signal.getsignal(signal.SIGALRM) is not None and fired == []
        assert 0 < signal.getitimer(signal.ITIMER_REAL)[0] <= 300
    finally:
        signal.setitimer(signal.ITIMER_REAL, 0)
        signal.signal(signal.SIGALRM, previous)
    assert call_utility("hash.md5", {"text": "abc"}).ok
    assert signal.getitimer(signal.ITIMER_REAL)[0] == 0


def test_a_nested_call_runs_under_the_outer_deadline():
    assert call_within(5.0, lambda: call_within(5.0, lambda: 7)) == 7


def test_a_utility_that_catches_exception_cannot_swallow_the_deadline(monkeypatch):
    def stubborn(**kwargs):
        try:
            spin()
        except Exception:  # noqa: BLE001 - the point: the deadline is not an Exception
            return "swallowed"

    monkeypatch.setitem(load_catalog().functions, "text.reverse", stubborn)
    shorten(monkeypatch, "text.reverse", 0.1)
    assert call_utility("text.reverse", {"text": "x"}).refusal.code == UtilityCode.LIMIT_EXCEEDED


def test_yaml_within_the_bound_still_unfolds_aliases_and_merges():
    result = call_utility("format.yaml_to_json",
                          {"data": "a: &x {k: 1}\nb: {<<: *x, j: 2}\nc: [*x, *x]"}).result
    assert result == '{"a": {"k": 1}, "b": {"k": 1, "j": 2}, "c": [{"k": 1}, {"k": 1}]}'


# Array and object arguments: no catalog utility declares one yet, so the checker is tried on
# a schema built here. (value, the limit it breaks, the measured value)
ROWS = Argument("rows", "array", Role.DATA, "rows", "строки", max_items=40, max_chars=10)
SCHEMA = UtilitySchema("t.rows", "t", "rows", "строки", (ROWS,), "string")
shared: list = []
for _ in range(100):
    shared = [shared, shared]  # 2**100 values once unfolded, 200 objects in memory
looped: list = []
looped.append(looped)
SIZES = [
    (list(range(41)), "max_items", 41),
    ([[0] * 20, [1] * 20], "max_items", 42),
    (["abcdef", "ghijk"], "max_chars", 11),
    ([{"abcdefghij": "k"}], "max_chars", 11),
    (shared, "max_items", 42),
    (looped, "max_depth", MAX_DEPTH + 1),
]


@pytest.mark.parametrize(("value", "limit", "measured"), SIZES,
                         ids=[f"{r[1]}-{i}" for i, r in enumerate(SIZES)])
def test_array_sizes_are_checked_before_the_call(value, limit, measured):
    _, refusal, _ = check_arguments(SCHEMA, {"rows": value})
    assert refusal is not None and refusal.code == UtilityCode.LIMIT_EXCEEDED
    assert (refusal.numbers["limit"], refusal.numbers["value"]) == (limit, measured)
    assert refusal.numbers["at_least"] is True and "at least" in refusal.text


def test_limits_are_visible_in_the_schema_a_router_sees():
    described = load_catalog().schemas["regex.match"].describe()
    props = described["parameters"]["properties"]
    assert props["pattern"]["maxLength"] == 1000 and props["text"]["maxLength"] == MAX_TEXT
    assert described["call_seconds"] == load_catalog().schemas["regex.match"].call_seconds > 0
    assert ROWS.to_json_schema()["maxItems"] == 40
    assert ROWS.limits() == {"max_items": 40, "max_chars": 10, "max_depth": MAX_DEPTH}
    obj = dataclasses.replace(ROWS, type="object", max_items=None)
    assert obj.to_json_schema()["maxProperties"] == MAX_ITEMS
    assert load_catalog().schemas["number.to_roman"].to_dict()["arguments"][0]["limits"] == {
        "max_digits": 40}
