"""HTML pages: one documented extraction recipe, offsets into its text, bad pages skipped."""

from __future__ import annotations

from pathlib import Path

import pytest

from workbench.corpus import (
    EXTRACTOR_ID,
    Corpus,
    HtmlExtractionError,
    NotUtf8Error,
    extract_html,
    fragment_text,
    verify_quote,
)
from workbench.corpus._quote import QuoteStatus
from workbench.index import build_index, load_index
from workbench.retrieval import KeywordEmbedder

PAGE = """<!DOCTYPE html><html lang="ru"><head><title>Заголовок окна</title>
<script>var menu = "не текст";</script><style>p {color: red}</style></head>
<body><header><a href="/">Справка</a> Index</header><nav><ul><li>Модуль</li></ul></nav>
<div id="DisplayArea">
<h1>Параметры загрузки</h1>
<p>Задание общих параметров <b>загрузки</b> и сохранения документов.</p>
<p>Выберите <span hidden="true">LibreOffice - Параметры</span><span hidden="true">Сервис -
Параметры</span> - Загрузка/сохранение.</p>
<ul><li>первый пункт</li><li>второй пункт</li></ul>
<div class="navfooter">Предыдущая страница</div>
</div><aside>Закладки</aside><footer>debug info</footer></body></html>
"""


def test_recipe_drops_chrome_and_keeps_the_text() -> None:
    text = extract_html("page.html", PAGE)
    assert text.startswith("Параметры загрузки\n\nЗадание общих параметров загрузки и сохранения")
    for chrome in ("не текст", "color", "Справка", "Модуль", "Закладки", "debug info",
                   "Предыдущая страница", "Заголовок окна"):
        assert chrome not in text
    # hidden platform variants are kept: which one a script would show is not guessed
    assert "LibreOffice - Параметры" in text and "Сервис -" in text
    assert "* первый пункт" in text
    assert not any(line != line.rstrip() for line in text.splitlines())
    assert "\n\n\n" not in text and text.endswith("\n")


def test_the_recipe_is_deterministic_and_named() -> None:
    assert extract_html("a.html", PAGE) == extract_html("b.html", PAGE)
    assert EXTRACTOR_ID.startswith("inscriptis-") and ":strict:" in EXTRACTOR_ID


@pytest.mark.parametrize("markup", ["", "   \n", "<html><head><title>t</title></head></html>",
                                    "<html><body><nav>только меню</nav></body></html>"])
def test_a_page_without_text_is_an_error_not_a_guess(markup: str) -> None:
    with pytest.raises(HtmlExtractionError, match="empty.html"):
        extract_html("empty.html", markup)


def _corpus(tmp_path: Path) -> Path:
    root = tmp_path / "corpus"
    (root / "help").mkdir(parents=True)
    (root / "help" / "page.html").write_text(PAGE, encoding="utf-8")
    (root / "help" / "chrome_only.html").write_text(
        "<html><body><header>шапка</header></body></html>", encoding="utf-8")
    (root / "help" / "latin1.htm").write_bytes("<p>Réglages</p>".encode("latin-1"))
    (root / "help" / "image.png").write_bytes(b"\x89PNG\r\n")
    (root / "notes.md").write_text("# Заметка\n\nОбычный текст.\n", encoding="utf-8")
    return root


def test_corpus_lists_and_reads_html_through_the_recipe(tmp_path: Path) -> None:
    corpus = Corpus(_corpus(tmp_path))
    files, _ = corpus.list_files()
    assert files == ["help/chrome_only.html", "help/latin1.htm", "help/page.html", "notes.md"]
    decoded = corpus.read("help/page.html")
    assert decoded.text == extract_html("help/page.html", PAGE)
    assert decoded.size == len(PAGE.encode("utf-8"))  # the digest is of the raw bytes
    with pytest.raises(NotUtf8Error):
        corpus.read("help/latin1.htm")
    with pytest.raises(HtmlExtractionError):
        corpus.read("help/chrome_only.html")


def test_index_skips_bad_pages_with_a_reason_and_quotes_verify(tmp_path: Path) -> None:
    root = _corpus(tmp_path)
    report = build_index(root, tmp_path / "index", embedder=KeywordEmbedder())
    reasons = {s.path: s.reason for s in report.skipped}
    assert "no text left" in reasons["help/chrome_only.html"]
    assert "not UTF-8" in reasons["help/latin1.htm"]
    index = load_index(tmp_path / "index")
    assert index.manifest["fragmenting"]["html"] == EXTRACTOR_ID
    page = [f for f in index.fragments if f.anchor.path == "help/page.html"]
    text = Corpus(root).read("help/page.html").text
    assert page and all(text[f.anchor.start:f.anchor.end] == f.text for f in page)
    assert [f.text for f in page] == [f.text for f in fragment_text("help/page.html", text,
                                                                    700, 120)]
    check = verify_quote("Задание общих параметров загрузки", page[0], Corpus(root))
    assert check.status is QuoteStatus.VERBATIM
    # an edit to the markup that changes the extracted text is drift, seen by the checker
    (root / "help" / "page.html").write_text(PAGE.replace("загрузки</b>", "выгрузки</b>"),
                                             encoding="utf-8")
    assert verify_quote("Задание общих параметров", page[0], Corpus(root)).status in (
        QuoteStatus.CHANGED, QuoteStatus.DRIFTED)


def test_build_report_times_each_stage(tmp_path: Path) -> None:
    report = build_index(_corpus(tmp_path), tmp_path / "index", embedder=KeywordEmbedder())
    assert list(report.stages) == ["reading", "lexical", "encoding", "dense", "writing"]
    assert all(s >= 0 for s in report.stages.values())
    assert sum(report.stages.values()) <= report.seconds + 1e-6
