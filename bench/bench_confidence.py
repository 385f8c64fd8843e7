"""The confidence gate's cost: the gates with and without it, on the course's own candidate sets.

Retrieval runs once for every bundled question (the course index, the shipped settings); the
gates are then run over those very candidate sets, first in the shipped order without the
confidence gate, then with it (model loaded, threshold 0, so the estimate is computed for every
question). The target is at most 1 ms added per question. Each pass is repeated and the best
wall time kept; peak memory is the Python allocations' peak (``tracemalloc``) during one pass.
"""

from __future__ import annotations

import dataclasses
import os
import time
import tracemalloc
from collections.abc import Sequence

from _common import ROOT, peak_mb, print_table

from workbench.config import Settings, load_settings
from workbench.corpus._questions import load_question_files, set_files
from workbench.gates import CandidateSet, QuoteSource, run_gates

REPEAT = 3
TARGET_MS = 1.0


def _pass(views: Sequence[CandidateSet], settings: Settings) -> float:
    started = time.perf_counter()
    for view in views:
        run_gates(view, settings)
    return time.perf_counter() - started


def _best(views: Sequence[CandidateSet], settings: Settings) -> float:
    _pass(views[:5], settings)  # rule models and the confidence model load once, outside the clock
    return min(_pass(views, settings) for _ in range(REPEAT))


def _peak_kib(views: Sequence[CandidateSet], settings: Settings) -> float:
    tracemalloc.start()
    _pass(views, settings)
    peak = tracemalloc.get_traced_memory()[1]
    tracemalloc.stop()
    return peak / 1024


def main() -> None:
    os.environ.setdefault("HF_HUB_OFFLINE", "1")
    shipped = load_settings(ROOT / "workbench.toml")
    source = QuoteSource(shipped)
    questions = load_question_files(set_files(shipped.paths.questions), source.corpus)
    views = [result.candidates for result in source.ask_many(
        [q.question for q in questions], [q.lang for q in questions])]
    without = dataclasses.replace(shipped, gates=dataclasses.replace(
        shipped.gates, order=tuple(g for g in shipped.gates.order if g != "confidence")))
    with_gate = dataclasses.replace(shipped, gates=dataclasses.replace(
        shipped.gates, order=tuple(without.gates.order[:-1]) + ("confidence", "verbatim")))
    n = len(views)
    base = _best(views, without) / n * 1000
    full = _best(views, with_gate) / n * 1000
    added = full - base
    print_table(f"the gates over {n} candidate sets of the course (best of {REPEAT})", [
        {"gates": " > ".join(without.gates.order), "ms per question": base,
         "peak KiB": _peak_kib(views, without)},
        {"gates": " > ".join(with_gate.gates.order), "ms per question": full,
         "peak KiB": _peak_kib(views, with_gate)},
    ])
    print_table("the confidence gate", [
        {"measure": "added per question (ms)", "value": added},
        {"measure": "ratio with / without", "value": full / base},
        {"measure": f"target: at most {TARGET_MS:g} ms added", "value":
            "met" if added <= TARGET_MS else "missed"},
        {"measure": "process peak RSS (MiB)", "value": peak_mb()},
    ])


if __name__ == "__main__":
    main()
