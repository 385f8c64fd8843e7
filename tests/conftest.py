"""Shared fixtures: a small bilingual corpus written fresh for each test that needs one."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

os.environ.setdefault("HF_HUB_OFFLINE", "1")

ROOT = Path(__file__).resolve().parent.parent

SMALL_CORPUS = {
    "ru/utf8.md": (
        "# UTF-8\n\n"
        "Кодировка UTF-8 записывает каждый символ Unicode одним, двумя, тремя или четырьмя "
        "байтами. Латиница ASCII занимает один байт, а буквы кириллицы — по два байта.\n\n"
        "Метка порядка байтов в UTF-8 состоит из трёх байтов EF BB BF. Её ставят в начало файла "
        "некоторые редакторы Windows, хотя для UTF-8 она не нужна.\n"
    ),
    "ru/vat.md": (
        "# НДС\n\n"
        "Основная ставка НДС в России с 1 января 2026 года составляет 22 процента. Пониженная "
        "ставка 10 процентов применяется к перечисленным продуктам питания и детским товарам.\n\n"
        "Экспорт товаров облагается НДС по ставке 0 процентов при условии, что экспорт "
        "подтверждён документами, перечисленными в статье 165 Налогового кодекса.\n"
    ),
    "en/base64.md": (
        "# Base64\n\n"
        "Base64 turns every three bytes of input into four characters from a 64-character "
        "alphabet, so the encoded text is about a third longer than the original data.\n\n"
        "When the input length is not a multiple of three, Base64 pads the output with one or "
        "two equals signs so that its length is always a multiple of four.\n"
    ),
}


def write_corpus(root: Path, files: dict[str, str] | None = None) -> Path:
    """Write ``files`` (default: the small corpus) under ``root`` and return it."""
    for rel, text in (files or SMALL_CORPUS).items():
        path = root / rel
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(text, encoding="utf-8")
    return root


@pytest.fixture
def small_corpus(tmp_path: Path) -> Path:
    """A fresh copy of the small corpus."""
    return write_corpus(tmp_path / "corpus")


@pytest.fixture
def small_index(small_corpus: Path, tmp_path: Path):
    """The small corpus indexed with the exact keyword embedder."""
    from workbench.index import build_index, load_index

    build_index(small_corpus, tmp_path / "index", embedder="keyword",
                cache_root=tmp_path / "cache")
    return load_index(tmp_path / "index")


@pytest.fixture
def make_corpus():
    """``make_corpus(root, files)`` writes a corpus of one's own (see ``write_corpus``)."""
    return write_corpus


def write_keyword_config(tmp_path: Path, corpus: Path, *, index: Path | None = None,
                         extra: str = "") -> Path:
    """A settings file for ``corpus`` with the exact keyword embedder.

    The index (unless given), results and caches go under ``tmp_path``; the specs, the morphism
    library, the models and the question sets are the project's own. ``extra`` is TOML appended
    after ``[embedder]`` (e.g. a ``[gates]`` table).
    """
    config = tmp_path / "wb.toml"
    folder = index if index is not None else tmp_path / "idx"
    config.write_text(
        "[paths]\n"
        f'corpus = "{corpus.as_posix()}"\nindex = "{folder.as_posix()}"\n'
        f'questions = "{(ROOT / "corpus" / "questions").as_posix()}"\n'
        f'specs = "{(ROOT / "corpus" / "specs").as_posix()}"\n'
        f'morphisms = "{(ROOT / "corpus" / "morphisms").as_posix()}"\n'
        f'models = "{(ROOT / "models").as_posix()}"\n'
        f'results = "{(tmp_path / "results").as_posix()}"\n'
        f'cache = "{(tmp_path / "cache").as_posix()}"\n'
        '[embedder]\nname = "keyword"\n' + extra, encoding="utf-8")
    return config


@pytest.fixture
def keyword_config():
    """``keyword_config(tmp_path, corpus)`` writes a keyword-embedder settings file (see above)."""
    return write_keyword_config
