"""Utility calls through one `workbench tool serve` process against one process per call.

Every catalog example goes through a single long-lived server (the protocol a router uses);
a sample of them also runs as one `workbench tool call` process each, the naive baseline. Both
run in the same invocation; the table gives calls per second, the ratio and peak memory.
Run: python bench/bench_utilities.py [--rounds 3] [--sample 8]
"""

from __future__ import annotations

import argparse
import json
import os
import resource
import subprocess
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from workbench.utilities import all_examples, results_equal  # noqa: E402


def command() -> list[str]:
    exe = Path(sys.executable).with_name("workbench")
    return [str(exe)] if exe.exists() else [sys.executable, "-m", "workbench.cli"]


def through_serve(examples, rounds: int) -> tuple[float, float, int, int]:
    """(startup seconds, calls per second, calls, mismatches) for one server process."""
    env = {**os.environ, "PYTHONIOENCODING": "utf-8"}
    started = time.perf_counter()
    proc = subprocess.Popen([*command(), "tool", "serve"], stdin=subprocess.PIPE,
                            stdout=subprocess.PIPE, text=True, encoding="utf-8", bufsize=1,
                            cwd=ROOT, env=env)
    assert proc.stdin and proc.stdout
    # one warm-up request measures the start (imports, catalog load)
    proc.stdin.write(json.dumps({"id": 0, "tool": "list_categories"}) + "\n")
    proc.stdin.flush()
    proc.stdout.readline()
    startup = time.perf_counter() - started
    calls = mismatches = 0
    t0 = time.perf_counter()
    for _ in range(rounds):
        for e in examples:
            calls += 1
            line = json.dumps({"id": calls, "tool": "call_utility",
                               "arguments": {"utility": e.utility, "args": dict(e.args)}},
                              ensure_ascii=False)
            proc.stdin.write(line + "\n")
            proc.stdin.flush()
            reply = json.loads(proc.stdout.readline())
            payload = reply["result"]
            if not (reply["id"] == calls and payload["ok"]
                    and results_equal(e.result, payload["result"])):
                mismatches += 1
    elapsed = time.perf_counter() - t0
    proc.stdin.close()
    proc.wait(timeout=30)
    return startup, calls / elapsed, calls, mismatches


def one_process_per_call(examples) -> tuple[float, int, int]:
    """(calls per second, calls, mismatches), one `workbench tool call` process each."""
    mismatches = 0
    t0 = time.perf_counter()
    for e in examples:
        done = subprocess.run([*command(), "tool", "call", e.utility, "--args",
                               json.dumps(dict(e.args), ensure_ascii=False)],
                              capture_output=True, text=True, encoding="utf-8", cwd=ROOT,
                              timeout=60)
        if done.returncode != 0 or not results_equal(e.result, json.loads(done.stdout)):
            mismatches += 1
    return len(examples) / (time.perf_counter() - t0), len(examples), mismatches


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rounds", type=int, default=3, help="passes over every example")
    parser.add_argument("--sample", type=int, default=8, help="examples for the baseline")
    args = parser.parse_args()
    examples = all_examples()
    step = max(1, len(examples) // args.sample)
    sample = examples[::step][: args.sample]

    startup, served_rate, served_calls, served_bad = through_serve(examples, args.rounds)
    naive_rate, naive_calls, naive_bad = one_process_per_call(sample)
    self_kib = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
    child_kib = resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss

    rows = [
        ("mode", "calls", "calls/s", "mismatches"),
        ("tool serve (1 process)", str(served_calls), f"{served_rate:,.0f}", str(served_bad)),
        ("tool call (process per call)", str(naive_calls), f"{naive_rate:,.2f}", str(naive_bad)),
    ]
    widths = [max(len(r[i]) for r in rows) for i in range(4)]
    for row in rows:
        print("  ".join(cell.ljust(w) for cell, w in zip(row, widths, strict=True)))
    print(f"ratio serve / process-per-call: {served_rate / naive_rate:,.0f}x")
    print(f"server start (imports + catalog): {startup:.2f} s; "
          f"{len(examples)} examples x {args.rounds} rounds")
    print(f"peak RSS: this process {self_kib / 1024:.1f} MiB, "
          f"largest child {child_kib / 1024:.1f} MiB")
    return 0 if served_bad == naive_bad == 0 else 1


if __name__ == "__main__":
    sys.exit(main())
