"""Fuzzing the parser and the gate: random and mutated texts always end in a code."""

from __future__ import annotations

from pathlib import Path

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from workbench.fts import GATE_ORDER, Problem, Spec, detect_fallacies, load_library, parse, run_gate

ROOT = Path(__file__).resolve().parents[2]
LIB = ROOT / "corpus" / "morphisms"
LIBRARY = load_library(LIB)
SEEDS = [p.read_text(encoding="utf-8") for p in sorted((ROOT / "corpus" / "specs").glob("*.fts"))]
TOKENS = ["when", "otherwise", "->", "because", "and", "or", "not", "in", "{", "}", "=", ">=",
          "<", "%", "rub", "2026-01-01", "0", "180", "yes", "no", "implies", "(", ")", "*", "/",
          "example", "boundary", "property", ":", "=>", ",", "premise", "input", "define", "\n"]
CODES = set(GATE_ORDER)


def _check(text: str) -> None:
    parsed = parse(text)
    assert isinstance(parsed, Spec | Problem)
    result = run_gate(text, LIB)
    assert result.passed or result.code in CODES
    if isinstance(parsed, Spec):
        detect_fallacies(parsed, LIBRARY)


@settings(max_examples=60, deadline=None, suppress_health_check=list(HealthCheck))
@given(st.text(max_size=120))
def test_random_text(text):
    _check(text)


@settings(max_examples=120, deadline=None, suppress_health_check=list(HealthCheck))
@given(st.sampled_from(SEEDS), st.data())
def test_mutated_specs(seed, data):
    text = seed
    for _ in range(data.draw(st.integers(1, 3))):
        op = data.draw(st.sampled_from(["delete", "insert", "replace", "swap"]))
        pos = data.draw(st.integers(0, max(len(text) - 1, 0)))
        if op == "delete":
            length = data.draw(st.integers(1, 12))
            text = text[:pos] + text[pos + length:]
        elif op == "insert":
            text = text[:pos] + " " + data.draw(st.sampled_from(TOKENS)) + " " + text[pos:]
        elif op == "replace":
            text = text[:pos] + data.draw(st.sampled_from(TOKENS)) + text[pos + 4:]
        else:
            lines = text.split("\n")
            i = data.draw(st.integers(0, len(lines) - 1))
            j = data.draw(st.integers(0, len(lines) - 1))
            lines[i], lines[j] = lines[j], lines[i]
            text = "\n".join(lines)
    _check(text)
