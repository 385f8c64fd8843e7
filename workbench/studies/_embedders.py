"""Choosing the dense encoder by measurement: recall@k of dense-only and hybrid retrieval.

For each embedder the course corpus is indexed (embeddings come from the cache when present),
every answerable question is searched, and a question counts as recalled at ``k`` when one of
the first ``k`` fragments overlaps its gold span. Encoding speed is measured on the same
fragments. The numbers go to the model catalog.
"""

from __future__ import annotations

import dataclasses
import time
from collections.abc import Sequence
from pathlib import Path

import pandas as pd

from workbench.config import Reranker, Settings
from workbench.corpus._questions import load_questions
from workbench.corpus._text import Corpus
from workbench.index._fragment_index import build_index, load_index
from workbench.retrieval._embedders import make_embedder
from workbench.retrieval._hybrid import HybridRetriever


def recall_table(settings: Settings, embedders: Sequence[str], k: int = 10,
                 split: str | None = None, speed_sample: int = 64,
                 work_dir: Path | None = None) -> pd.DataFrame:
    """One row per (embedder, retrieval, language): recall@1, recall@k, and encoding speed."""
    corpus = Corpus(settings.paths.corpus)
    questions = load_questions(settings.paths.questions / "in_corpus.jsonl", corpus, split=split)
    work = work_dir or settings.paths.cache / "embedder-comparison"
    rows = []
    for name in embedders:
        embedder = make_embedder(name)
        folder = work / embedder.id.replace(":", "_").replace("/", "_")
        build_index(settings.paths.corpus, folder, embedder=embedder,
                    fragmenting=settings.fragmenting, cache_root=settings.paths.cache)
        index = load_index(folder)
        sample = [f.text for f in index.fragments[:speed_sample]]
        started = time.perf_counter()
        embedder.encode_passages(sample)
        per_second = len(sample) / (time.perf_counter() - started)
        for fusion in ("dense", "rrf"):
            retrieval = dataclasses.replace(settings.retrieval, fusion=fusion, top_k=k)
            retriever = HybridRetriever(index, embedder, retrieval, Reranker(mode="none"))
            results = retriever.search_many([q.question for q in questions], top_k=k)
            ranks = []
            for q, result in zip(questions, results, strict=True):
                rank = next((i for i, h in enumerate(result.hits, start=1)
                             if any(g.overlaps(index.fragments[h.row].anchor.path,
                                               index.fragments[h.row].anchor.start,
                                               index.fragments[h.row].anchor.end)
                                    for g in q.gold)), None)
                ranks.append((q.lang, rank))
            for lang in ("ru", "en", "all"):
                picked = [r for lg, r in ranks if lang in ("all", lg)]
                rows.append({
                    "embedder": name, "embedder_id": embedder.id,
                    "retrieval": "dense-only" if fusion == "dense" else "hybrid (rrf)",
                    "lang": lang, "questions": len(picked),
                    "recall@1": sum(1 for r in picked if r == 1) / max(1, len(picked)),
                    f"recall@{k}": sum(1 for r in picked if r is not None) / max(1, len(picked)),
                    "passages_per_s": per_second,
                })
    return pd.DataFrame.from_records(rows)
