"""The held-out sets: well formed, executable, far from every other set, and never trained on.

``corpus/questions/heldout/`` holds sets written by people outside the team and scored once, as
written, before anything was changed for them (``corpus/questions/heldout/README.md``). Their
split is ``heldout``: no training set, calibration or generator reads it.
"""

from __future__ import annotations

import difflib
import json
import random
import re
from collections import Counter
from pathlib import Path
from typing import Any

import numpy as np
import pytest
from rapidfuzz import fuzz, process

from workbench.config import load_settings
from workbench.corpus._questions import SPLITS, QuestionSetError, load_questions
from workbench.routing._dataset import TRAINING_SETS, load_dev_tasks
from workbench.routing._score import load_tasks
from workbench.routing._span import written_sets
from workbench.routing._span_train import _training_lines
from workbench.utilities import call_utility, load_catalog

ROOT = Path(__file__).resolve().parents[2]
QUESTIONS = load_settings(ROOT / "workbench.toml").paths.questions
HELDOUT = QUESTIONS / "heldout"
SETS = sorted(HELDOUT.glob("*.jsonl"))
NEAR = 0.75
"""A line this close (difflib ratio, case-folded) to a line of another set is a near duplicate."""

KINDS = {"utility": "utility", "red_team": "refuse", "quote": "quote"}
REFUSAL_KEYS = {
    "OUT_OF_SCOPE": {"source", "refusal"},
    "MISSING_ARGUMENT": {"source", "refusal", "utility", "missing"},
    "ARGUMENT_IS_CIRCUMSTANCE": {"source", "refusal", "utility", "argument"},
}


def _rows(path: Path) -> list[dict[str, Any]]:
    return [json.loads(line) for line in path.read_text(encoding="utf-8").splitlines()]


def _prefix(row_id: str) -> str:
    return row_id.rsplit("-", 1)[0]


def test_eight_sets_of_300_lines_a_third_english_each_with_its_own_prefix() -> None:
    assert len(SETS) >= 8
    rows = [r for path in SETS for r in _rows(path)]
    assert len(rows) >= 300
    assert Counter(r["lang"] for r in rows)["en"] >= len(rows) / 3
    assert len({r["id"] for r in rows}) == len(rows)
    prefixes = [{_prefix(r["id"]) for r in _rows(path)} for path in SETS]
    assert all(len(p) == 1 for p in prefixes) and len(set().union(*prefixes)) == len(SETS)


@pytest.mark.parametrize("path", SETS, ids=lambda p: p.stem)
def test_lines_are_heldout_and_every_gold_is_exact(path: Path) -> None:
    schemas = load_catalog().schemas
    rows = _rows(path)
    kinds = Counter(r["kind"] for r in rows)
    assert kinds["utility"] >= len(rows) / 2 and kinds["red_team"] >= 10 and kinds["quote"] >= 2
    for row in rows:
        rid = row["id"]
        assert set(row) == {"id", "question", "lang", "split", "kind", "gold"}, rid
        assert re.fullmatch(r"ho-[a-z]{3}-\d{3}", rid), rid
        assert row["split"] == "heldout" and row["lang"] in {"ru", "en"}, rid
        assert row["question"] == row["question"].strip(), rid
        gold = row["gold"]
        assert gold["source"] == KINDS[row["kind"]], rid
        if gold["source"] == "utility":
            assert set(gold) == {"source", "utility", "args"}, rid
            outcome = call_utility(gold["utility"], gold["args"], question=row["question"],
                                   lang=row["lang"])
            assert outcome.refusal is None, f"{rid}: {outcome.refusal.code}"
            assert "text" not in gold["args"] or gold["args"]["text"] in row["question"], rid
        elif gold["source"] == "refuse":
            assert set(gold) == REFUSAL_KEYS[gold["refusal"]], rid
            if gold["refusal"] != "OUT_OF_SCOPE":
                name = gold.get("missing") or gold["argument"]
                argument = schemas[gold["utility"]].argument(name)
                assert argument is not None, rid
                assert argument.required if "missing" in gold else str(argument.role) == "data", rid
        else:
            assert gold == {"source": "quote"}, rid


def _near(question: str, others: list[tuple[str, str]]) -> tuple[float, str]:
    """The closest of ``others`` by difflib's ratio, taken both ways round (it is not symmetric).

    rapidfuzz's Indel ratio (twice the longest common subsequence over both lengths) is never
    below difflib's (whose matching blocks are one common subsequence), so it passes over, in C,
    every line that cannot reach :data:`NEAR`; difflib decides the few that can.
    """
    folded = question.casefold()
    best = (0.0, "")
    candidates = process.extract(folded, [other for _, other in others], scorer=fuzz.ratio,
                                 score_cutoff=NEAR * 100 - 1e-6, limit=None)
    for other, _, i in candidates:
        best = max(best, (_difflib_ratio(other, folded), f"{others[i][0]}: {other}"))
    return best


SCORED_NEAR = frozenset({("ho-plt-042", "cycles.jsonl"), ("ho-cyc-005", "planetarium.jsonl"),
                         ("ho-trp-038", "pottery.jsonl"), ("ho-pot-036", "trampolinepark.jsonl")})
"""Two pairs (a line, the set of its near line), each seen from both sides, found only after round
20 was scored as written (its writers' check read case and one direction only): kept as scored, so
that the files hold the lines the round's figures are of (``heldout/README.md``, twentieth round)."""


def _difflib_ratio(a: str, b: str) -> float:
    return max(difflib.SequenceMatcher(None, a, b, autojunk=False).ratio(),
               difflib.SequenceMatcher(None, b, a, autojunk=False).ratio())


@pytest.mark.slow
def test_no_line_is_a_near_duplicate_of_a_line_of_another_set() -> None:
    files = sorted(QUESTIONS.glob("*.jsonl")) + SETS
    lines = [(path, r["id"], r["question"].casefold()) for path in files for r in _rows(path)]
    texts = [q for _, _, q in lines]
    held = [i for i, (path, _, _) in enumerate(lines) if path in SETS]
    # _near's prefilter for every held-out line at once, on every core: a whole-number score a
    # point under NEAR keeps each pair that difflib could find near, and difflib decides those
    prefilter = process.cdist([texts[i] for i in held], texts, scorer=fuzz.ratio, dtype=np.uint8,
                              score_cutoff=int(NEAR * 100) - 1, workers=-1)
    found, kept = [], set()
    for row, i in enumerate(held):
        best = (0.0, "")
        for j in np.flatnonzero(prefilter[row]):
            if lines[j][0] != lines[i][0]:
                best = max(best, (_difflib_ratio(texts[j], texts[i]), f"{lines[j][0].name}: {texts[j]}"))
        ratio, where = best
        pair = (lines[i][1], where.split(":", 1)[0])
        if ratio >= NEAR and pair in SCORED_NEAR:
            kept.add(pair)
        elif ratio >= NEAR:
            found.append(f"{lines[i][1]} {ratio:.3f} {where}")
    assert not found, "\n".join(found)
    assert kept == SCORED_NEAR  # each kept line is still near: the list names no line in vain


def test_the_prefilter_never_passes_over_a_pair_difflib_finds_near() -> None:
    rng = random.Random(7)
    words = "посчитай ндс сумма 12 500 счёт заказ the total of invoice vat sha256 «текст» date".split()
    for _ in range(300):
        a = " ".join(rng.choice(words) for _ in range(rng.randint(2, 9)))
        b = " ".join(rng.choice(words) for _ in range(rng.randint(2, 9)))
        slow = max(difflib.SequenceMatcher(None, a, b, autojunk=False).ratio(),
                   difflib.SequenceMatcher(None, b, a, autojunk=False).ratio())
        assert fuzz.ratio(a, b) / 100 >= slow - 1e-9, (a, b)
        near = _near(a, [("x", b)])[0]
        assert (near >= NEAR) is (slow >= NEAR) and (near == slow or near == 0.0), (a, b)


def test_the_near_duplicate_check_finds_a_reworded_line() -> None:
    others = [("a.jsonl", "посчитай статистику текста в кодировке windows-1251")]
    assert _near("Посчитай статистику текста инструкции в кодировке windows-1251.", others)[0] >= NEAR
    assert _near("Which VAT rate applies to medical devices in Russia?", others)[0] < NEAR


def test_the_question_loader_takes_heldout_and_a_dev_load_leaves_it_out(tmp_path: Path) -> None:
    assert "heldout" in SPLITS
    (tmp_path / "c").mkdir()
    (tmp_path / "c/a.md").write_text("some text", encoding="utf-8")
    line = '{{"id": "{0}", "set": "out_of_corpus", "question": "q{0}", "lang": "en", "split": "{1}"}}'
    file = tmp_path / "q.jsonl"
    file.write_text(line.format("d", "dev") + "\n" + line.format("h", "heldout") + "\n",
                    encoding="utf-8")
    assert [q.id for q in load_questions(file, tmp_path / "c")] == ["d", "h"]
    assert [q.id for q in load_questions(file, tmp_path / "c", split="dev")] == ["d"]
    file.write_text(line.format("t", "train") + "\n", encoding="utf-8")
    with pytest.raises(QuestionSetError, match="one of dev, test, heldout"):
        load_questions(file, tmp_path / "c")


def _task_line(rid: str, split: str, question: str) -> str:
    return json.dumps({"id": rid, "question": question, "lang": "en", "split": split,
                       "kind": "utility", "gold": {"source": "utility", "utility": "hash.md5",
                                                   "args": {"text": question[-3:]}}})


def test_training_and_the_generator_read_no_heldout_line(tmp_path: Path) -> None:
    for name in (*TRAINING_SETS, "router_written.jsonl"):
        (tmp_path / name).write_text(
            _task_line(f"{name}-d", "dev", f"md5 of dev{name}") + "\n"
            + _task_line(f"{name}-h", "heldout", f"md5 of held{name}") + "\n", encoding="utf-8")
    assert "router_written.jsonl" in written_sets(tmp_path)
    for written in (False, True):
        questions = [r["question"] for r in _training_lines(0, 0, tmp_path, written=written)]
        assert questions and not [q for q in questions if "held" in q]
    assert not [i for items in load_dev_tasks(tmp_path).values() for i in items
                if "held" in i["question"]]
    # no bundled held-out question is among the lines a router trains on, written sets included
    heldout = {item.question for path in SETS for item in load_tasks(path)}
    assert not heldout & {r["question"] for r in _training_lines(0, 0, written=True)}
