"""The rule router's decisions on every bundled question, held against a committed snapshot.

The rule router is a frozen baseline: no rule is written for a question set any more, and a
change of its code or of its data tables (``workbench/routing/data/``, ``synonyms.yaml``) must
leave its decisions as they were, or show each one that moved. The snapshot,
``tests/unit/snapshots/rule_router.jsonl``, holds one line per question id of every set under
``corpus/questions`` (``*.jsonl`` and the ``heldout/`` sets; every split): a digest of the
question and the decision
(source, category, utility or spec, arguments, refusal code and numbers).

A deliberate change rewrites it::

    WORKBENCH_UPDATE_SNAPSHOT=1 .venv/bin/python -m pytest tests/unit/test_routing_rule_snapshot.py -q

and the diff of the snapshot file is then the list of decisions that moved, to be reviewed and
committed with the change that moved them.
"""

from __future__ import annotations

import hashlib
import io
import json
import os
import tokenize
from pathlib import Path
from typing import Any

import pytest

from workbench.routing import RouterDecision, RuleRouter

ROOT = Path(__file__).resolve().parents[2]
RULE_MODULES = tuple(ROOT / "workbench" / "routing" / name
                     for name in ("_rule.py", "_rule_bind.py", "_rule_offer.py"))
"""The rule router's own code; the checks it shares with the span router live elsewhere."""
RULE_CODE_LINES = 796
"""The most lines of code the rule router may hold: its size now. It may only come down; a rule
written for a question set would show here as well as in the snapshot."""
QUESTIONS = ROOT / "corpus" / "questions"
SNAPSHOT = Path(__file__).resolve().parent / "snapshots" / "rule_router.jsonl"
UPDATE_ENV = "WORKBENCH_UPDATE_SNAPSHOT"


def _question_digest(question: str) -> str:
    return hashlib.sha256(question.encode("utf-8")).hexdigest()[:12]


def bundled_questions(folder: Path = QUESTIONS) -> list[dict[str, str]]:
    """Every line of every question set under ``folder``: its id, its set and its question.

    A set in a subfolder is named by its path (``heldout/notary``).
    """
    rows = []
    for path in sorted(folder.rglob("*.jsonl")):
        for line in path.read_text(encoding="utf-8").splitlines():
            if line.strip():
                record = json.loads(line)
                name = path.relative_to(folder).with_suffix("").as_posix()
                rows.append({"id": record["id"], "set": name, "question": record["question"]})
    return rows


def decision_record(decision: RouterDecision) -> dict[str, Any]:
    """What the snapshot keeps of a decision: everything but the refusal's wording and the spans.

    Empty fields are left out, so that a quote is ``{"source": "quote"}``.
    """
    refusal = decision.refusal
    record = {"source": str(decision.source), "category": decision.category, "utility": decision.utility,
              "spec": decision.spec, "args": dict(decision.args),
              "refusal": refusal.code if refusal else None,
              "numbers": dict(refusal.numbers) if refusal else None}
    return {key: value for key, value in record.items() if value not in (None, {})}


def snapshot_lines(router: RuleRouter, rows: list[dict[str, str]]) -> list[dict[str, Any]]:
    """One snapshot line per question, in the order of ``rows``."""
    return [{"id": row["id"], "set": row["set"], "q": _question_digest(row["question"]),
             "decision": decision_record(router.route(row["question"]))} for row in rows]


def _dumps(line: dict[str, Any]) -> str:
    return json.dumps(line, ensure_ascii=False, sort_keys=True, separators=(",", ":"))


def _show(decision: dict[str, Any] | None) -> str:
    if decision is None:
        return "(none)"
    if decision["source"] == "refuse":
        return f"refuse {decision['refusal']} {json.dumps(decision.get('numbers', {}), ensure_ascii=False)}"
    target = decision.get("utility") or decision.get("spec") or ""
    args = json.dumps(decision["args"], ensure_ascii=False) if decision.get("args") else ""
    return " ".join(part for part in (decision["source"], target, args) if part)


def snapshot_diff(before: list[dict[str, Any]], after: list[dict[str, Any]],
                  questions: dict[str, str]) -> list[str]:
    """Readable lines for every id whose question or decision differs (id, question, before -> after)."""
    old = {line["id"]: line for line in before}
    new = {line["id"]: line for line in after}
    out = []
    for qid in sorted(old.keys() | new.keys()):
        a, b = old.get(qid), new.get(qid)
        if a is not None and b is not None and a == b:
            continue
        if a is not None and b is not None and a["q"] != b["q"]:
            change = "question text changed"
        elif a is None:
            change = "new question, not in the snapshot"
        elif b is None:
            change = "question gone from the sets"
        else:
            change = "decision changed"
        out.append(f"{qid} [{(b or a)['set']}] {change}: {questions.get(qid, '')!r}\n"
                   f"    before: {_show(a['decision'] if a else None)}\n"
                   f"    after:  {_show(b['decision'] if b else None)}")
    return out


def read_snapshot(path: Path = SNAPSHOT) -> list[dict[str, Any]]:
    """The committed snapshot's lines."""
    return [json.loads(line) for line in path.read_text(encoding="utf-8").splitlines() if line.strip()]


def write_snapshot(lines: list[dict[str, Any]], path: Path = SNAPSHOT) -> None:
    """Write ``lines`` as the snapshot (sorted by id so that a diff of the file reads well)."""
    path.parent.mkdir(parents=True, exist_ok=True)
    body = "".join(_dumps(line) + "\n" for line in sorted(lines, key=lambda line: line["id"]))
    path.write_text(body, encoding="utf-8")


@pytest.fixture(scope="module")
def routed() -> tuple[list[dict[str, Any]], dict[str, str]]:
    rows = bundled_questions()
    return snapshot_lines(RuleRouter(), rows), {row["id"]: row["question"] for row in rows}


def test_rule_router_decisions_match_the_snapshot(routed) -> None:
    lines, questions = routed
    if os.environ.get(UPDATE_ENV) == "1":
        write_snapshot(lines)
    diff = snapshot_diff(read_snapshot(), lines, questions)
    assert not diff, (f"{len(diff)} rule-router decisions differ from {SNAPSHOT.name} "
                      f"(rewrite it with {UPDATE_ENV}=1 if the change is meant):\n" + "\n".join(diff))


def test_the_snapshot_covers_every_bundled_question(routed) -> None:
    lines, questions = routed
    assert len(lines) == len(questions) > 3000  # one line per id: ids are unique across the sets
    assert any(line["set"].startswith("heldout/") for line in lines)
    assert {line["id"] for line in read_snapshot()} == set(questions)


def test_the_diff_names_the_question_and_both_decisions() -> None:
    before = [{"id": "x-1", "set": "s", "q": _question_digest("md5 of abc"),
               "decision": {"source": "utility", "category": "hash", "utility": "hash.md5",
                            "args": {"text": "abc"}}}]
    after = [dict(before[0], decision={"source": "refuse", "refusal": "OUT_OF_SCOPE",
                                       "numbers": {"keywords_matched": 0}})]
    diff = snapshot_diff(before, after, {"x-1": "md5 of abc"})
    assert diff == ["x-1 [s] decision changed: 'md5 of abc'\n"
                    '    before: utility hash.md5 {"text": "abc"}\n'
                    '    after:  refuse OUT_OF_SCOPE {"keywords_matched": 0}']
    assert snapshot_diff(before, before, {}) == []
    assert "new question" in snapshot_diff([], before, {})[0]


def test_the_snapshot_round_trips(tmp_path: Path) -> None:
    line = {"id": "b", "set": "s", "q": "0", "decision": {"source": "quote", "args": {"n": 1.5}}}
    write_snapshot([line, dict(line, id="a")], tmp_path / "s.jsonl")
    assert [x["id"] for x in read_snapshot(tmp_path / "s.jsonl")] == ["a", "b"]
    assert read_snapshot(tmp_path / "s.jsonl")[1] == line


def code_lines(source: str) -> int:
    """The lines of ``source`` that hold code: not blank, not only a comment, a docstring or a
    string continued from the line before."""
    skip = {tokenize.COMMENT, tokenize.NL, tokenize.NEWLINE, tokenize.INDENT, tokenize.DEDENT,
            tokenize.STRING, tokenize.ENDMARKER}
    lines: set[int] = set()
    for token in tokenize.generate_tokens(io.StringIO(source).readline):
        if token.type not in skip:
            lines.update(range(token.start[0], token.end[0] + 1))
    return len(lines)


def test_code_lines_count_code_only() -> None:
    source = 'def f(x):\n    """Doc.\n\n    More."""\n    # a comment\n\n    return (x +\n            1)\n'
    assert code_lines(source) == 3
    assert code_lines(source + "y = f(2)\n") == 4


def test_the_rule_router_does_not_grow() -> None:
    total = sum(code_lines(path.read_text(encoding="utf-8")) for path in RULE_MODULES)
    assert total <= RULE_CODE_LINES, (
        f"the rule router holds {total} lines of code, more than its frozen {RULE_CODE_LINES}: "
        "it is a baseline, and a rule written for a question set does not belong in it")
