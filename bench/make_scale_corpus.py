"""Build the scale corpus for benchmarks: >= 30,000 fragments of varied bilingual text.

Sentences are taken from the course corpus and recombined with a fixed seed into paragraphs of
two to five sentences, with numbers varied, across a few hundred files. The result lives in
``bench/scale_corpus/`` (git-ignored) and is rebuilt only when missing or when ``--force``.
"""

from __future__ import annotations

import argparse
import random
import re
import shutil

from _common import ROOT, SCALE_CORPUS

FILES = 300
PARAGRAPHS_PER_FILE = 105
_SENTENCE = re.compile(r"(?<=[.!?])\s+")


def _sentences() -> list[str]:
    out: list[str] = []
    for path in sorted((ROOT / "corpus" / "course").rglob("*.md")):
        for paragraph in path.read_text(encoding="utf-8").split("\n\n"):
            paragraph = " ".join(paragraph.split())
            if paragraph.startswith(("#", "|", "-", "*")) or len(paragraph) < 40:
                continue
            out.extend(s for s in _SENTENCE.split(paragraph) if 30 <= len(s) <= 300)
    if len(out) < 200:  # an empty course corpus still yields a usable benchmark
        words = ("кодировка байт символ ставка налог дата индекс адрес сеть маска hash byte "
                 "charset rate tax date index address network mask").split()
        rng = random.Random(7)
        out.extend(" ".join(rng.choice(words) for _ in range(12)).capitalize() + "."
                   for _ in range(2000))
    return out


def build(force: bool = False) -> int:
    """Write the corpus; returns the number of paragraphs written."""
    marker = SCALE_CORPUS / ".complete"
    if marker.is_file() and not force:
        return int(marker.read_text())
    shutil.rmtree(SCALE_CORPUS, ignore_errors=True)
    rng = random.Random(20260809)
    sentences = _sentences()
    total = 0
    for f in range(FILES):
        folder = SCALE_CORPUS / ("ru" if f % 3 else "en")
        folder.mkdir(parents=True, exist_ok=True)
        paragraphs = []
        for p in range(PARAGRAPHS_PER_FILE):
            picked = rng.sample(sentences, rng.randint(2, 5))
            text = " ".join(picked)
            text = re.sub(r"\d+", lambda m: str(int(m.group(0)) + rng.randint(0, 9)), text)
            paragraphs.append(f"{text} [{f}.{p}]")
        (folder / f"doc_{f:04d}.md").write_text(
            f"# Document {f}\n\n" + "\n\n".join(paragraphs) + "\n", encoding="utf-8")
        total += len(paragraphs)
    marker.write_text(str(total))
    return total


if __name__ == "__main__":
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--force", action="store_true")
    print(f"scale corpus: {build(parser.parse_args().force)} paragraphs in {SCALE_CORPUS}")
