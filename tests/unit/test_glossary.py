"""The bilingual glossary: read from catalogs, matched in questions, stored with an index, and
used by the lexical search and gate 0."""

from __future__ import annotations

import dataclasses
import json
from pathlib import Path

import pytest
from babel.messages.catalog import Catalog
from babel.messages.mofile import write_mo

from workbench.config import Settings
from workbench.corpus import Anchor, Fragment
from workbench.gates import CandidateSet
from workbench.index import IndexCorruptError, build_index, ensure_index, load_index
from workbench.registry import build
from workbench.retrieval import (
    EMPTY_GLOSSARY,
    BilingualGlossary,
    GlossaryError,
    GlossaryMatch,
    Hit,
    HybridRetriever,
    KeywordEmbedder,
    read_catalogs,
    widened,
)

PAIRS = (("Quick Mask", "Быстрая маска"), ("DATEDIF", "РАЗНДАТ"),
         ("Unsharp Mask", "Нерезкая маска"), ("Save", "Сохранить"))


def _mo(path: Path, messages: dict[str, str]) -> Path:
    catalog = Catalog(locale="ru")
    for source, translation in messages.items():
        catalog.add(source, translation)
    with path.open("wb") as handle:
        write_mo(handle, catalog)
    return path


def test_catalogs_give_clean_term_pairs(tmp_path: Path) -> None:
    _mo(tmp_path / "ui.mo", {"~Save As...": "Сохранить ~как…", "_Feather": "_Растушевать",
                             "%s files selected": "Выбрано файлов: %s",
                             "LibreOffice": "LibreOffice"})
    (tmp_path / "extra.tsv").write_text("# a comment\nDATEDIF\tРАЗНДАТ\n", encoding="utf-8")
    glossary = read_catalogs([tmp_path])
    assert set(glossary.pairs) == {("Save As", "Сохранить как"), ("Feather", "Растушевать"),
                                   ("DATEDIF", "РАЗНДАТ")}
    assert [s["file"] for s in glossary.sources] == ["extra.tsv", "ui.mo"]
    assert all(len(s["sha256"]) == 64 for s in glossary.sources)


def _translations(glossary: BilingualGlossary, text: str) -> list[tuple[str, ...]]:
    return [match.translations for match in glossary.matches(text)]


def test_entries_match_both_ways_and_through_inflection() -> None:
    glossary = BilingualGlossary(pairs=PAIRS)
    assert glossary.matches("What does DATEDIF count?") == (
        GlossaryMatch(("datedif",), ("РАЗНДАТ",)),)
    assert _translations(glossary, "Как включить быструю маску?") == [("Quick Mask",)]
    # the longest entry wins, so "Unsharp Mask" is not also read as a mask of another kind
    assert _translations(glossary, "Where is Unsharp Mask?") == [("Нерезкая маска",)]
    # in the order of the text
    assert _translations(glossary, "Save the Quick Mask") == [("Сохранить",), ("Быстрая маска",)]
    assert glossary.matches("Сколько стоит хлеб?") == ()
    assert EMPTY_GLOSSARY.matches("What does DATEDIF count?") == ()


def test_the_lexical_query_carries_each_translation_once() -> None:
    twice = (GlossaryMatch(("datedif",), ("РАЗНДАТ",)), GlossaryMatch(("разндат",), ("РАЗНДАТ",)))
    assert widened("DATEDIF or РАЗНДАТ?", twice) == "DATEDIF or РАЗНДАТ? (РАЗНДАТ)"
    assert widened("Plain?", ()) == "Plain?"


@pytest.mark.parametrize("content, message", [
    (b"\xff\xfe", "cannot be read"),
    (b"[1, 2]", "not a workbench glossary"),
    (json.dumps({"format": "workbench-glossary", "version": 9, "pairs": [], "sources": []})
     .encode(), "version 9"),
    (json.dumps({"format": "workbench-glossary", "version": 1, "pairs": [["a"]],
                 "sources": []}).encode(), "pair 0"),
])
def test_a_damaged_glossary_file_is_a_typed_error(tmp_path: Path, content: bytes,
                                                  message: str) -> None:
    path = tmp_path / "glossary.json"
    path.write_bytes(content)
    with pytest.raises(GlossaryError, match=message):
        BilingualGlossary.load(path)


def test_bad_catalogs_are_refused_by_name(tmp_path: Path) -> None:
    with pytest.raises(GlossaryError, match="does not exist"):
        read_catalogs([tmp_path / "missing.mo"])
    (tmp_path / "notes.txt").write_text("x", encoding="utf-8")
    with pytest.raises(GlossaryError, match=r"\.mo, \.po, \.tsv"):
        read_catalogs([tmp_path / "notes.txt"])
    (tmp_path / "broken.mo").write_bytes(b"\x00" * 40)
    with pytest.raises(GlossaryError, match="broken.mo is not a readable gettext catalog"):
        read_catalogs([tmp_path / "broken.mo"])
    (tmp_path / "three.tsv").write_text("a\tb\tc\n", encoding="utf-8")
    with pytest.raises(GlossaryError, match="three.tsv:1: a line needs two"):
        read_catalogs([tmp_path / "three.tsv"])


@pytest.fixture
def glossary_index(make_corpus, tmp_path: Path):
    corpus = make_corpus(tmp_path / "corpus", {
        "datedif.md": "# РАЗНДАТ\n\nФункция РАЗНДАТ считает разность двух дат в днях, месяцах "
                      "или годах, без учёта знака.\n",
        "days.md": "# DAYS\n\nThe DAYS function counts the days between two dates, whatever "
                   "the interval between them.\n",
    })
    glossary = BilingualGlossary(pairs=PAIRS)
    build_index(corpus, tmp_path / "index", embedder="keyword", cache_root=tmp_path / "cache",
                glossary=glossary)
    return load_index(tmp_path / "index")


def test_the_index_keeps_its_glossary_and_the_search_uses_it(glossary_index) -> None:
    assert glossary_index.glossary.pairs == PAIRS
    assert glossary_index.manifest["glossary"]["pairs"] == len(PAIRS)
    retriever = HybridRetriever(glossary_index, KeywordEmbedder())
    found = retriever.search("What does DATEDIF give?")
    assert [m.translations for m in found.expansion] == [("РАЗНДАТ",)]
    assert glossary_index.fragments[found.hits[0].row].anchor.path == "datedif.md"
    # without the glossary the English question has no word of the Russian page
    bare = dataclasses.replace(glossary_index, glossary=EMPTY_GLOSSARY)
    lexical = bare.lexical.search("What does DATEDIF give?", 5)
    assert all(bare.fragments[h.row].anchor.path != "datedif.md" for h in lexical)


def test_a_truncated_glossary_is_a_corrupt_index(glossary_index) -> None:
    path = glossary_index.folder / "glossary.json"
    path.write_bytes(path.read_bytes()[:-10])
    with pytest.raises(IndexCorruptError, match="glossary.json"):
        load_index(glossary_index.folder)


def _gate0(question: str, text: str, glossary: BilingualGlossary):
    fragment = Fragment(id="f0", anchor=Anchor("a.html", 0, len(text), "0" * 64), text=text,
                        lang="ru")
    hit = Hit(fragment_id="f0", row=0, lexical=None, dense=None, fused=0.9, rerank=0.9)
    candidates = CandidateSet(question=question, lang="en", hits=(hit,), fragments=(fragment,),
                              titles=("",), quote=None, corpus=None,  # type: ignore[arg-type]
                              area="test", mode="bi-encoder",
                              expansion=glossary.matches(question))
    return build("gate", "gate0")(question, candidates, Settings())


def test_gate0_counts_a_term_found_in_translation() -> None:
    question = "How do I turn on Quick Mask?"
    page = "Быстрая маска включается кнопкой в левом нижнем углу окна; turn it on there."
    without = _gate0(question, page, EMPTY_GLOSSARY)
    assert not without.passed
    with_glossary = _gate0(question, page, BilingualGlossary(pairs=PAIRS))
    assert with_glossary.passed, with_glossary.numbers
    assert sorted(with_glossary.numbers["found_translated"]) == ["mask", "quick"]
    # a translation the candidates lack finds nothing
    elsewhere = _gate0(question, "Кнопка в левом нижнем углу окна; turn it on there.",
                       BilingualGlossary(pairs=PAIRS))
    assert not elsewhere.passed and elsewhere.numbers["found_translated"] == []


def _stale(index, tmp_path: Path) -> Settings:
    """Settings for ``index`` whose corpus has changed since the build."""
    corpus = tmp_path / "corpus"
    (corpus / "days.md").write_text("# DAYS\n\nThe DAYS function, now rewritten.\n",
                                    encoding="utf-8")
    base = Settings()
    return dataclasses.replace(
        base, paths=dataclasses.replace(base.paths, corpus=corpus, index=index.folder,
                                        cache=tmp_path / "cache"),
        embedder=dataclasses.replace(base.embedder, name="keyword"))


def test_a_rebuild_of_a_stale_index_keeps_its_glossary(glossary_index, tmp_path: Path) -> None:
    settings = _stale(glossary_index, tmp_path)
    line = ensure_index(settings, progress=False)
    assert "was not kept" not in line
    assert load_index(glossary_index.folder).glossary.pairs == PAIRS
    # a damaged glossary is not carried over, and the build says so
    (glossary_index.folder / "glossary.json").write_text("{", encoding="utf-8")
    (Path(settings.paths.corpus) / "days.md").write_text("# DAYS\n\nChanged again, twice.\n",
                                                          encoding="utf-8")
    line = ensure_index(settings, progress=False)
    assert "glossary was not kept" in line and "--glossary" in line
    assert not load_index(glossary_index.folder).glossary
