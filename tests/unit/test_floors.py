"""The floors as drawn: text analysis loads no search, the retriever names no index, and the
router figures come from one table that every face reads."""

from __future__ import annotations

import math
import subprocess
import sys
import textwrap
import tomllib
from dataclasses import dataclass
from pathlib import Path
from typing import NamedTuple

import pandas as pd
from router_items import ITEMS

import workbench.corpus
import workbench.retrieval
import workbench.text
from workbench.config import Reranker, Retrieval
from workbench.retrieval import (
    EMPTY_GLOSSARY,
    BilingualGlossary,
    DenseIndex,
    HybridRetriever,
    KeywordEmbedder,
    LexicalIndex,
)
from workbench.routing import (
    HEADLINE_METRICS,
    ROUTER_METRICS,
    RouterDecision,
    ScriptedRouter,
    metric_lines,
)
from workbench.studies import CATALOG_FIGURES, compare_routers
from workbench.widgets._router import SUMMARY_COLUMNS

ROOT = Path(__file__).resolve().parents[2]


# --- text analysis loads no search -----------------------------------------------------------

def test_importing_the_utilities_loads_no_search_library() -> None:
    code = ("import workbench.utilities, sys; "
            "print(sorted(m for m in sys.modules if m.split('.')[0] in ('faiss', 'bm25s'))); "
            "print(sorted(m for m in sys.modules if m.split('.')[:2] in "
            "(['workbench', 'retrieval'], ['workbench', 'index'], ['workbench', 'corpus'])))")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True,
                         cwd=ROOT).stdout.splitlines()
    assert out == ["[]", "[]"]


def test_stopwords_are_bm25s_lists() -> None:
    from bm25s.stopwords import STOPWORDS_EN, STOPWORDS_RUSSIAN

    assert workbench.text.STOPWORDS == {"ru": tuple(STOPWORDS_RUSSIAN), "en": tuple(STOPWORDS_EN)}


def test_moved_names_are_the_same_objects_where_they_were() -> None:
    assert workbench.corpus.detect_lang is workbench.text.detect_lang
    for name in ("analyze", "analyze_lemmas", "content_terms", "lemma", "morphology",
                 "TERM_ANALYZERS"):
        assert getattr(workbench.retrieval, name) is getattr(workbench.text, name), name
    assert workbench.text.detect_lang("Ставка НДС 20%") == "ru"
    assert workbench.text.detect_lang("The VAT rate in England, ставка") == "en"


# --- the retriever is written against a protocol ---------------------------------------------

class _Anchor(NamedTuple):
    path: str


class _Fragment(NamedTuple):
    id: str
    text: str
    anchor: _Anchor


@dataclass
class _BareIndex:
    """An index that is not the index package's: only what the retriever's protocol names."""

    fragments: list[_Fragment]
    lexical: LexicalIndex
    dense: DenseIndex
    glossary: BilingualGlossary = EMPTY_GLOSSARY

    def title(self, path: str) -> str:
        return ""

    def check_embedder(self, embedder_id: str) -> None:
        return None


def test_hybrid_retriever_searches_any_index_of_its_protocol() -> None:
    texts = ["The VAT rate is 20 percent.", "SHA-256 is a hash function.",
             "Кодировка UTF-8 хранит символы."]
    fragments = [_Fragment(f"f{i}", t, _Anchor(f"doc{i}.md")) for i, t in enumerate(texts)]
    embedder = KeywordEmbedder()
    index = _BareIndex(fragments, LexicalIndex.build(texts),
                       DenseIndex.build(embedder.encode_passages(texts), embedder.dim))
    for mode in ("none", "bi-encoder-terms"):
        retriever = HybridRetriever(index, embedder, Retrieval(), Reranker(mode=mode))
        assert retriever.search("which hash is SHA-256?").hits[0].fragment_id == "f1"


# --- the contracts see what they must ---------------------------------------------------------

def _linter_options() -> dict[str, object]:
    config = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))
    return config["tool"]["importlinter"]


def test_a_type_checking_import_across_floors_breaks_the_floors(tmp_path: Path) -> None:
    """With the project's linter options, a type named from a higher floor is a crossing."""
    package = tmp_path / "floorpkg"
    package.mkdir()
    (package / "__init__.py").write_text("", encoding="utf-8")
    (package / "high.py").write_text("class Index: ...\n", encoding="utf-8")
    (package / "low.py").write_text(textwrap.dedent("""\
        from typing import TYPE_CHECKING
        if TYPE_CHECKING:
            from floorpkg.high import Index
        """), encoding="utf-8")
    options = _linter_options()
    config = tmp_path / "linter.toml"
    config.write_text(textwrap.dedent(f"""\
        [tool.importlinter]
        root_package = "floorpkg"
        exclude_type_checking_imports = {str(options["exclude_type_checking_imports"]).lower()}

        [[tool.importlinter.contracts]]
        name = "floors"
        type = "layers"
        layers = ["floorpkg.high", "floorpkg.low"]
        """), encoding="utf-8")
    linter = Path(sys.executable).parent / "lint-imports"
    result = subprocess.run([str(linter), "--config", str(config), "--no-cache"],
                            capture_output=True, text=True, cwd=tmp_path,
                            env={"PYTHONPATH": str(tmp_path), "PATH": str(linter.parent)})
    assert result.returncode == 1, result.stdout + result.stderr
    assert "floorpkg.low is not allowed to import floorpkg.high" in result.stdout


def test_the_faces_and_the_search_free_floors_have_contracts() -> None:
    contracts = _linter_options()["contracts"]
    faces = [c for c in contracts  # type: ignore[attr-defined]
             if c["type"] == "independence" and "workbench.cli" in c["modules"]]
    assert [set(c["modules"]) for c in faces] == [{
        "workbench.cli", "workbench._demo", "workbench.lab", "workbench.report",
        "workbench.widgets"}]
    forbidden = [c for c in contracts  # type: ignore[attr-defined]
                 if c["type"] == "forbidden" and "workbench.utilities" in c["source_modules"]
                 and "faiss" in c["forbidden_modules"]]
    assert len(forbidden) == 1
    assert {"workbench.relevance", "workbench.text"} <= set(forbidden[0]["source_modules"])
    assert {"workbench.retrieval", "workbench.index", "bm25s"} <= set(
        forbidden[0]["forbidden_modules"])


def test_the_span_router_and_the_checks_it_shares_are_forbidden_the_rule_router() -> None:
    contracts = _linter_options()["contracts"]
    span = [c for c in contracts  # type: ignore[attr-defined]
            if c["type"] == "forbidden" and "workbench.routing._span" in c["source_modules"]]
    assert len(span) == 1 and not span[0].get("allow_indirect_imports", False)
    assert {"workbench.routing._asks", "workbench.routing._values", "workbench.routing._binder"} <= set(
        span[0]["source_modules"])
    rule = {"workbench.routing._rule", "workbench.routing._rule_bind", "workbench.routing._rule_offer"}
    assert rule == set(span[0]["forbidden_modules"])


# --- one table of router figures --------------------------------------------------------------

def test_the_metric_table_covers_every_figure_of_a_comparison() -> None:
    router = ScriptedRouter({item.question: RouterDecision.from_dict(item.gold) for item in ITEMS})
    summary = compare_routers({"scripted": router}, ITEMS).summary
    assert set(summary.columns) - {"errors"} == {m.key for m in ROUTER_METRICS}
    assert [m.better for m in ROUTER_METRICS if m.kind == "rate"].count(None) == 0
    assert {m.kind for m in HEADLINE_METRICS} == {"rate"}


def test_every_face_reads_the_one_table() -> None:
    keys = [m.key for m in ROUTER_METRICS]
    assert list(SUMMARY_COLUMNS) == keys
    assert [key for key, _ in CATALOG_FIGURES] == [m.key for m in ROUTER_METRICS if m.figure]


def test_metric_lines_print_shares_numbers_and_gaps() -> None:
    summary = pd.DataFrame({"items": [4], "source_accuracy": [0.75], "latency_p50_ms": [41.25],
                            "over_refusal_rate": [math.nan]}, index=["rule"])
    header, row = metric_lines(summary)
    assert header.split() == ["router", *(part for m in ROUTER_METRICS for part in m.short.split())]
    cells = row.split()
    assert cells[0] == "rule" and cells[1] == "4" and cells[2] == "0.750"
    assert cells[-1] == "41.2"  # a time keeps one decimal
    assert cells[[m.key for m in ROUTER_METRICS].index("over_refusal_rate") + 1] == "-"
