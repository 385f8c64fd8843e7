"""The drift audit of the whole scale corpus (>= 30,000 fragments) against a naive audit.

The scale corpus is indexed (lexical and keyword-hashed vectors only: the audit reads fragments,
not vectors), then a copy of it is edited — a few files deleted, some rewritten, some shifted —
and audited twice: by ``audit_drift`` (each file read once) and by the naive way (the file
re-read and decoded for every fragment). Both must agree row for row.
"""

from __future__ import annotations

import shutil
import tempfile
import time
from pathlib import Path

from _common import SCALE_CORPUS, peak_mb, print_table, timed
from make_scale_corpus import build as build_scale_corpus

from workbench.corpus._text import normalise_newlines
from workbench.index import audit_drift, build_index, load_index


def naive_audit(fragments: list, root: Path) -> list[str]:
    """Re-read the file for every fragment (what the audit must beat)."""
    out = []
    for fragment in fragments:
        path = root / fragment.anchor.path
        if not path.exists():
            out.append("missing_file")
            continue
        text = normalise_newlines(path.read_bytes().decode("utf-8"))
        a = fragment.anchor
        if text[a.start:a.end] == fragment.text:
            out.append("match")
        elif fragment.text in text:
            out.append("drifted")
        else:
            out.append("changed")
    return out


def main() -> None:
    build_scale_corpus()
    work = Path(tempfile.mkdtemp(prefix="wb-drift-"))
    try:
        corpus = work / "corpus"
        shutil.copytree(SCALE_CORPUS, corpus)
        report = build_index(corpus, work / "idx", embedder="keyword", cache_root=work / "cache")
        index = load_index(work / "idx")
        files = sorted(corpus.rglob("*.md"))
        for path in files[:4]:
            path.unlink()
        for path in files[4:40]:
            path.write_text("# Preface added later\n\n" + path.read_text(encoding="utf-8"),
                            encoding="utf-8")
        for path in files[40:60]:
            text = path.read_text(encoding="utf-8")
            path.write_text(text.replace(". ", ".  ", 40), encoding="utf-8")
        ours, frame = timed(lambda: audit_drift(index, corpus), repeat=3)
        naive, naive_status = timed(lambda: naive_audit(index.fragments, corpus))
        assert list(frame["status"].astype(str)) == naive_status, "audits disagree"
        summary = frame.attrs["summary"]
        print_table(f"drift audit of {len(index)} fragments ({report.files} files)", [
            {"stage": "audit_drift (each file read once)", "seconds": ours,
             "naive_s": naive, "ratio": naive / ours, "fragments_per_s": len(index) / ours},
        ])
        print(summary.line())
        print(f"under 2 s: {'yes' if ours < 2 else 'NO'} ({ours:.2f} s)")
        print(f"bench_drift: peak memory {peak_mb():.0f} MiB")
    finally:
        shutil.rmtree(work, ignore_errors=True)


if __name__ == "__main__":
    started = time.perf_counter()
    main()
    print(f"bench_drift: {time.perf_counter() - started:.0f} s in all")
