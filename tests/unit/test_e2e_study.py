"""The end-to-end question set and its study.

The set's golds are checked the way the router task sets are: every utility gold runs and gives
a result, every quote span is in its file, every spec gold concludes. The study's judge is
checked on hand-made outcomes, and ``workbench eval e2e`` prints the per-source table.
"""

from __future__ import annotations

import json
import re
from collections import Counter
from pathlib import Path

import pytest

from workbench import cli
from workbench.config import load_settings
from workbench.fts import Conclusion, evaluate_spec
from workbench.routing import scripted_router
from workbench.studies import OUTCOMES, E2EItem, E2ESetError, load_e2e, run_e2e
from workbench.utilities import call_utility

ROOT = Path(__file__).resolve().parents[2]
SET = ROOT / "corpus" / "questions" / "e2e.jsonl"
ITEMS = load_e2e(SET)
CYRILLIC = re.compile("[а-яё]", re.IGNORECASE)


def test_the_set_covers_every_source_in_both_languages_and_splits() -> None:
    assert len(ITEMS) >= 60
    assert len({item.id for item in ITEMS}) == len(ITEMS)
    cells = Counter((item.source, item.lang, item.split) for item in ITEMS)
    for source in ("utility", "quote", "spec", "refuse"):
        for lang in ("ru", "en"):
            for split in ("dev", "test"):
                assert cells[(source, lang, split)] >= 2, (source, lang, split)
    codes = {item.gold["refusal"] for item in ITEMS if item.source == "refuse"}
    assert {"OUT_OF_SCOPE", "MISSING_ARGUMENT", "ARGUMENT_IS_CIRCUMSTANCE", "SEVERAL_REQUESTS",
            "QUESTION_SCRIPT", "QUESTION_EMPTY"} <= codes
    for item in ITEMS:
        assert item.id.startswith(f"e2e-{item.source[0]}-")
        if item.lang == "ru":
            assert CYRILLIC.search(item.question), item.id


@pytest.mark.parametrize("item", [i for i in ITEMS if i.source == "utility"], ids=lambda i: i.id)
def test_every_utility_gold_runs_against_its_question(item: E2EItem) -> None:
    for gold in [item.gold, *item.gold.get("equivalent", ())]:
        outcome = call_utility(gold["utility"], dict(gold["args"]), question=item.question,
                               lang=item.lang)
        assert outcome.refusal is None, (item.id, outcome.refusal)


def test_every_quote_span_is_in_its_file() -> None:
    for item in ITEMS:
        for gold in item.gold.get("gold", ()) if item.source == "quote" else ():
            text = (ROOT / "corpus" / "course" / gold["path"]).read_text(encoding="utf-8")
            assert gold["span"] in text, item.id


def test_every_spec_gold_concludes() -> None:
    specs = {}
    for path in (ROOT / "corpus" / "specs").glob("*.fts"):
        found = re.search(r"^spec\s+(\S+)", path.read_text(encoding="utf-8"), re.M)
        if found:
            specs[found.group(1)] = path
    for item in ITEMS:
        if item.source == "spec":
            outcome = evaluate_spec(specs[item.gold["spec"]], dict(item.gold["args"]),
                                    ROOT / "corpus" / "morphisms")
            assert isinstance(outcome, Conclusion), item.id


def test_a_bad_line_names_file_and_line(tmp_path: Path) -> None:
    path = tmp_path / "e2e.jsonl"
    path.write_text('{"id": "a", "question": "q", "lang": "en", "split": "dev", '
                    '"gold": {"source": "utility"}}\n', encoding="utf-8")
    with pytest.raises(E2ESetError, match=r"e2e.jsonl:1: gold utility needs utility, args"):
        load_e2e(path)


# --- the judge -----------------------------------------------------------------------------

SHA = "Посчитай SHA-256 от строки привет"
BOM = "Сколько байтов в метке порядка байтов UTF-8?"


def _item(item_id: str, question: str, gold: dict) -> E2EItem:
    return E2EItem(id=item_id, question=question, lang="ru", split="dev", gold=gold)


@pytest.fixture
def settings(small_index, small_corpus: Path, tmp_path: Path, keyword_config):
    return keyword_config(tmp_path, small_corpus, index=small_index.folder,
                          extra="[gates]\nthreshold_bi_encoder_terms = 0.2\n")


def test_each_outcome_class(settings: Path) -> None:
    sha_gold = {"source": "utility", "utility": "hash.sha256", "args": {"text": "привет"}}
    bom_gold = {"source": "quote", "gold": [{"path": "ru/utf8.md",
                                             "span": "состоит из трёх байтов EF BB BF"}]}
    items = [
        _item("right", SHA, sha_gold),
        _item("other-utility", SHA + "!", sha_gold),
        _item("over-refused", BOM, bom_gold),
        _item("quote-right", BOM + "?", bom_gold),
        _item("refused", "Какая погода завтра?", {"source": "refuse", "refusal": "OUT_OF_SCOPE"}),
        _item("answered-a-refusal", SHA + "?", {"source": "refuse", "refusal": "OUT_OF_SCOPE"}),
    ]
    sha = {"source": "utility", "utility": "hash.sha256", "args": {"text": "привет"}}
    md5 = {"source": "utility", "utility": "hash.md5", "args": {"text": "привет"}}
    router = scripted_router({SHA: sha, SHA + "!": md5, BOM + "?": {"source": "quote"},
                              SHA + "?": sha})
    report = run_e2e(load_settings(settings), router=router, items=items, write=False)
    outcomes = dict(zip(report.rows["id"], report.rows["outcome"], strict=True))
    assert outcomes == {"right": "answered correctly", "other-utility": "verified wrong",
                        "over-refused": "over-refused", "quote-right": "answered correctly",
                        "refused": "refused correctly", "answered-a-refusal": "verified wrong"}
    table = report.table.set_index("source")
    assert table.loc["all", "items"] == 6 and table.loc["utility", "verified wrong"] == 1
    assert table.loc["refuse", "same code"] == 0  # NOT_SCRIPTED is not OUT_OF_SCOPE
    assert report.verified_wrong_share == pytest.approx(2 / 6)
    assert [round(x, 4) for x in report.verified_wrong_interval] == [0.0433, 0.7772]
    assert list(table.columns) == ["items", *OUTCOMES, "same code"]


def test_cli_prints_the_table_of_the_whole_set(settings: Path, capsys) -> None:
    assert cli.main(["eval", "e2e", "--config", str(settings), "--router", "rule",
                     "--split", "test", "--show", "3"]) == 0
    out = capsys.readouterr().out
    assert out.startswith("router: rule (named by the caller); split test")
    total = [line for line in out.splitlines() if line.strip().startswith("all")][0].split()
    assert int(total[1]) == sum(item.split == "test" for item in ITEMS)
    assert "verified-wrong answers:" in out and "run record:" in out
    assert re.search(r"of \d+ questions \(exact 95% interval \d+\.\d% to \d+\.\d%\)", out)
    record = next((Path(settings).parent / "results").glob("e2e-*"))
    manifest = json.loads((record / "manifest.json").read_text(encoding="utf-8"))
    assert manifest["kind"] == "e2e" and manifest["router"] == "rule"
    low, high = manifest["summary"]["verified_wrong_interval"]
    assert 0.0 <= low <= manifest["summary"]["verified_wrong_share"] <= high


def test_a_quote_of_a_word_for_word_copy_of_the_gold_span_is_the_golds(tmp_path: Path) -> None:
    from workbench.answers import CheckContext, QuoteEvidence
    from workbench.corpus import Anchor, Corpus
    from workbench.studies._e2e import _Judge

    paragraph = "The byte order mark of UTF-8 is three bytes: EF BB BF."
    (tmp_path / "a.md").write_text(f"# A\n\n{paragraph}\n", encoding="utf-8")
    (tmp_path / "b.md").write_text(f"# B\n\nSee also.\n\n{paragraph}\n", encoding="utf-8")
    (tmp_path / "c.md").write_text("# C\n\nThree bytes.\n", encoding="utf-8")
    judge = _Judge(CheckContext(corpus=Corpus(tmp_path)))
    item = _item("q", "bom?", {"source": "quote", "gold": [{"path": "a.md", "span": paragraph}]})

    def quoted(path: str) -> bool:
        text = (tmp_path / path).read_text(encoding="utf-8") if (tmp_path / path).exists() else ""
        start = max(text.find("EF BB BF"), 0)
        anchor = Anchor(path=path, start=start, end=start + 8, sha256="-")
        return judge.quote(item, QuoteEvidence(anchor=anchor, text="EF BB BF", index_digest="-"))

    assert quoted("a.md") and quoted("b.md")  # the gold file, and a copy of the span in another
    assert not quoted("c.md")  # near words are not the span
    assert not quoted("gone.md")  # a file that is not there holds no gold span
