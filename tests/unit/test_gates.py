"""The five gates, the ordered runner, refusals with numbers, and cached re-attribution."""

from __future__ import annotations

import dataclasses
from pathlib import Path

import numpy as np
import pandas as pd
import pytest

from workbench.config import Settings, load_settings
from workbench.corpus._records import Anchor, Fragment
from workbench.gates import (
    CandidateSet,
    QuoteSource,
    UnknownGateError,
    check_order,
    default_order,
    extract_quote,
    gate_codes,
    refusal_from_verdict,
    refusal_templates,
)
from workbench.gates._builtin import QUOTE_EXTENTS
from workbench.refusal import falsehood_words
from workbench.retrieval import KeywordEmbedder
from workbench.studies import (
    first_firing,
    gate_attribution,
    rule_ablation,
    threshold_sweep,
    would_fire_matrix,
)
from workbench.studies._analysis import fire_overlaps


def _settings(corpus: Path, index: Path, **gates) -> Settings:
    base = Settings()
    return dataclasses.replace(
        base,
        paths=dataclasses.replace(base.paths, corpus=corpus, index=index),
        gates=dataclasses.replace(base.gates, threshold_bi_encoder_terms=0.2, **gates),
    )


@pytest.fixture
def source(small_index, small_corpus: Path) -> QuoteSource:
    return QuoteSource(_settings(small_corpus, small_index.folder), index=small_index,
                       embedder=KeywordEmbedder())


def test_answer_is_a_verbatim_quote(source: QuoteSource, small_corpus: Path) -> None:
    result = source.ask("Какая ставка НДС применяется при экспорте товаров?")
    assert result.answered, result.refusal
    assert result.trace.would_fire == (False,) * len(default_order())
    quote = result.quote
    text = (small_corpus / quote.fragment.anchor.path).read_text(encoding="utf-8")
    start = quote.fragment.anchor.start + quote.offset
    assert text[start:start + len(quote.text)] == quote.text
    assert "экспорт" in quote.text.lower()


def test_missing_entity_fires_relevance(source: QuoteSource) -> None:
    result = source.ask("Какая ставка НДС применяется к экспорту в Казахстане?")
    assert result.refusal is not None and result.refusal.code == "IRRELEVANT"
    verdict = result.trace.first_firing
    assert verdict.numbers["fired"] == ["entities"]
    assert "Казахстане" in verdict.numbers["missing"]["entities"]
    assert "Казахстане" in result.refusal.text


def test_unrelated_question_stops_at_gate0(source: QuoteSource) -> None:
    result = source.ask("Who painted the ceiling of the Sistine Chapel?")
    assert result.refusal.code == "GATE0_NO_LEXICAL_SUPPORT"
    numbers = result.refusal.numbers
    assert numbers["found"] < numbers["terms"] and "paint" in numbers["missing_terms"]


def test_every_gate_is_evaluated_after_a_refusal(source: QuoteSource) -> None:
    result = source.ask("Who painted the ceiling of the Sistine Chapel?")
    assert [v.gate for v in result.trace.verdicts] == list(default_order())
    assert len(result.trace.would_fire) == len(default_order()) == 6
    assert all(v.numbers for v in result.trace.verdicts)


def test_threshold_and_disagreement_come_from_settings(source: QuoteSource) -> None:
    question = "Base64 pads the output with equals signs"
    strict = dataclasses.replace(source.settings, gates=dataclasses.replace(
        source.settings.gates, threshold_bi_encoder_terms=1.01))
    assert source.ask_many([question], settings=strict)[0].refusal.code == "BELOW_THRESHOLD"
    loose = dataclasses.replace(source.settings, gates=dataclasses.replace(
        source.settings.gates, disagreement_margin=10.0))
    result = source.ask_many(["байт кодировка ставка base64"], settings=loose)[0]
    verdict = next(v for v in result.trace.verdicts if v.gate == "disagreement")
    assert verdict.numbers["first"] != verdict.numbers["second"]
    assert not verdict.passed


def test_file_edited_after_indexing_fires_verbatim(source: QuoteSource,
                                                   small_corpus: Path) -> None:
    path = small_corpus / "ru/vat.md"
    path.write_text(path.read_text(encoding="utf-8").replace("экспорт", "вывоз"),
                    encoding="utf-8")
    result = source.ask("Какая ставка НДС применяется при экспорте товаров?")
    assert result.refusal.code == "NOT_VERBATIM"
    assert result.refusal.numbers["status"] == "changed"


def test_order_is_data(source: QuoteSource) -> None:
    question = "Who painted the ceiling of the Sistine Chapel?"
    reordered = dataclasses.replace(source.settings, gates=dataclasses.replace(
        source.settings.gates, order=("threshold", "relevance", "gate0")))
    result = source.ask_many([question], settings=reordered)[0]
    assert [v.gate for v in result.trace.verdicts] == ["threshold", "relevance", "gate0"]
    with pytest.raises(UnknownGateError, match="known"):
        check_order(["gate0", "oracle"])
    with pytest.raises(UnknownGateError, match="twice"):
        check_order(["gate0", "gate0"])


def test_extract_quote_skips_headings_and_prefers_overlap(small_index) -> None:
    fragment = next(f for f in small_index.fragments if f.text.startswith("# Base64"))
    for extent in QUOTE_EXTENTS:
        quote = extract_quote("How long is Base64 output compared with the original data?",
                              fragment, extent)
        assert not quote.text.startswith("#")
        assert fragment.text[quote.offset:quote.offset + len(quote.text)] == quote.text


RULE_PAGE = ("# Leap years\n\nThe Gregorian leap year rule has three parts. A year divisible by 4 "
             "is a leap year. Years divisible by 100 are not, unless divisible by 400. The Julian "
             "calendar kept only the first part.")


def test_quote_extents_take_the_sentence_its_neighbours_or_the_fragment() -> None:
    fragment = Fragment(id="en/leap.md#0-1", lang="en", text=RULE_PAGE,
                        anchor=Anchor(path="en/leap.md", start=0, end=len(RULE_PAGE), sha256="0"))
    question = "What is the Gregorian leap year rule?"
    sentence = extract_quote(question, fragment, "sentence").text
    assert sentence == "The Gregorian leap year rule has three parts."  # the words, not the rule
    neighbours = extract_quote(question, fragment, "neighbours").text
    assert neighbours == ("The Gregorian leap year rule has three parts. A year divisible by 4 "
                          "is a leap year.")
    whole = extract_quote(question, fragment, "fragment")
    assert whole.text == RULE_PAGE.removeprefix("# Leap years\n\n")  # the heading is left out
    assert whole.offset == len("# Leap years\n\n")
    assert extract_quote(question, fragment).text == whole.text  # the shipped default


def test_quote_extent_setting_reaches_the_quote_source(source: QuoteSource) -> None:
    question = "Какая основная ставка НДС в России с 2026 года?"
    quotes = {}
    for extent in ("sentence", "fragment"):
        settings = dataclasses.replace(source.settings, gates=dataclasses.replace(
            source.settings.gates, quote_extent=extent))
        quotes[extent] = source.ask_many([question], settings=settings)[0].candidates.quote
    assert quotes["sentence"].fragment == quotes["fragment"].fragment
    assert quotes["sentence"].text in quotes["fragment"].text
    assert len(quotes["sentence"].text) < len(quotes["fragment"].text)


# --- refusal wording: every code, both languages -------------------------------------------

NUMBERS = {
    "checked": 10, "terms": 4, "found": 1, "coverage": 0.25, "min_coverage": 0.5,
    "missing_terms": ["экспорт", "ставк"], "best_score": 0.31, "threshold": 0.55, "first": "a.md",
    "second": "b.md", "scores": [0.8, 0.79], "margin": 0.02, "fired": ["entities"],
    "missing": {"entities": ["SHA-384"]}, "path": "ru/a.md", "status": "changed",
    "confidence": 0.41,
}


@pytest.mark.parametrize("code", list(gate_codes().values()))
@pytest.mark.parametrize("lang", ["ru", "en"])
def test_refusal_text_has_code_area_numbers_and_no_falsehood(code: str, lang: str) -> None:
    from workbench.gates import GateVerdict, search_area

    gate = next(g for g, c in gate_codes().items() if c == code)
    verdict = GateVerdict(gate=gate, passed=False, code=code, numbers=NUMBERS)
    area = search_area("course", 42, 598, lang)
    refusal = refusal_from_verdict(verdict, area, lang)
    assert refusal.code == code and refusal.area == area and refusal.numbers
    assert any(ch.isdigit() for ch in refusal.text)
    assert falsehood_words(refusal.text) == []
    assert ("42 файла" in refusal.text) == (lang == "ru")


@pytest.mark.parametrize("text", ["This claim is false.", "Ответ неверный", "ЛОЖНО",
                                  "неправильного", "Incorrectly stated", "ложь"])
def test_the_wording_check_can_fail(text: str) -> None:
    assert falsehood_words(text)


# --- cached analysis --------------------------------------------------------------------------

def _synthetic_rows(n: int = 500, seed: int = 0) -> pd.DataFrame:
    rng = np.random.default_rng(seed)
    sets = rng.choice(["in_corpus", "out_of_corpus", "relevance_traps"], size=n)
    frame = pd.DataFrame({
        "id": [f"q{i}" for i in range(n)], "set": sets, "lang": "ru", "split": "dev",
        "question": "q", "top_path": "a.md", "n_hits": 10,
        "top_score": rng.random(n), "top_is_gold": rng.random(n) < 0.8,
    })
    for gate in default_order():
        frame[f"wf_{gate}"] = rng.random(n) < 0.3
    for rule in ("entities", "lang-match", "term-coverage"):
        frame[f"rule_{rule}"] = rng.random(n) < 0.2
    frame["wf_relevance"] = frame["rule_entities"]
    return frame


def test_attribution_counts_add_up_and_follow_the_order() -> None:
    rows = _synthetic_rows()
    a = gate_attribution(rows, default_order())
    b = gate_attribution(rows, tuple(reversed(default_order())))
    for table in (a, b):
        assert (table[list(default_order())].sum(axis=1) + table["answered"] == table["n"]).all()
    assert (a["answered"] == b["answered"]).all()  # the order moves blame, not outcomes
    assert a.loc["all", "gate0"] != b.loc["all", "gate0"]
    expected_gate0 = int(rows["wf_gate0"].sum())
    assert a.loc["all", "gate0"] == expected_gate0


def test_every_order_reslices_the_same_cached_rows() -> None:
    # Speed is measured in bench/bench_gates.py; here: any order, from the flags alone.
    import itertools

    rows = _synthetic_rows(500)[["id", "set", "n_hits", "top_score", "top_is_gold",
                                 *[f"wf_{g}" for g in default_order()],
                                 *[f"rule_{r}" for r in ("entities", "lang-match", "term-coverage")]]]
    answered = None
    for order in itertools.permutations(default_order()):
        table = gate_attribution(rows, order)
        assert (table[list(order)].sum(axis=1) + table["answered"] == table["n"]).all()
        answered = table["answered"] if answered is None else answered
        assert (table["answered"] == answered).all()


def test_toggling_a_gate_off() -> None:
    rows = _synthetic_rows()
    outcome = first_firing(rows, ("gate0",))
    assert set(outcome) <= {"gate0", "answered"}
    assert (outcome == "gate0").sum() == rows["wf_gate0"].sum()


def test_rule_ablation_counts_against_no_rules() -> None:
    rows = _synthetic_rows()
    table = rule_ablation(rows).set_index("rules")
    assert table.loc["(none)", "eliminated"] == 0 and table.loc["(none)", "broken"] == 0
    assert len(table) == 8
    all_rules = table.loc["entities+lang-match+term-coverage"]
    assert all_rules["eliminated"] >= table.loc["entities", "eliminated"]
    assert all_rules["false_answers"] <= table.loc["(none)", "false_answers"]


def test_threshold_sweep_is_monotone() -> None:
    sweep = threshold_sweep(_synthetic_rows(), thresholds=[0.0, 0.5, 1.01])
    assert list(sweep["noans_refused"]) == sorted(sweep["noans_refused"])
    assert sweep.iloc[-1]["hasans_correct"] == 0


def test_threshold_sweep_defaults_to_the_runs_own_scores_and_plots_as_it_is() -> None:
    from workbench.plots import sweep_curve_figure

    rows = _synthetic_rows()
    sweep = threshold_sweep(rows)
    scores = rows["top_score"]
    assert sweep["threshold"].between(scores.quantile(0.02) - 1e-4, scores.max()).all()
    assert sweep["threshold"].is_monotonic_increasing and len(sweep) > 1
    assert (sweep["hasans_correct_share"] == sweep["hasans_correct"] / sweep["hasans_n"]).all()
    assert (sweep["noans_refused_share"] == sweep["noans_refused"] / sweep["noans_n"]).all()
    sweep["mode"] = "bi-encoder"
    figure = sweep_curve_figure(sweep, "mode", "dev")
    assert list(figure.data[0].x) == list(sweep["noans_refused_share"])


def test_would_fire_matrix_and_overlaps() -> None:
    rows = _synthetic_rows()
    matrix = would_fire_matrix(rows)
    assert list(matrix.columns) == ["set", *default_order()]
    overlaps = fire_overlaps(matrix)
    assert overlaps.loc["gate0", "gate0"] == rows["wf_gate0"].sum()
    assert (overlaps.to_numpy() == overlaps.to_numpy().T).all()


def test_project_settings_order_is_the_default() -> None:
    settings = load_settings()
    assert settings.gates.order == default_order()


def test_words_echoed_from_the_question_are_screened() -> None:
    from workbench.gates import GateVerdict, search_area
    from workbench.refusal import speakable

    assert speakable(["неправильн", "умнож"]) == (["умнож"], 1)
    verdict = GateVerdict(gate="gate0", passed=False, code="GATE0_NO_LEXICAL_SUPPORT",
                          numbers={**NUMBERS, "missing_terms": ["неправильн", "false", "умнож"]})
    for lang in ("ru", "en"):
        text = refusal_from_verdict(verdict, search_area("c", 1, 2, lang), lang).text
        assert falsehood_words(text) == [] and "умнож" in text and "+2" in text


def test_rule_report_explains_on_and_off() -> None:
    from workbench.studies import rule_report

    rows = _synthetic_rows()
    rows["split"] = "dev"
    rows["rule_lang-match"] = False  # a rule that never fires eliminates nothing
    lines = rule_report(rows, "dev", ("entities",))
    assert len(lines) == 3
    assert lines[0].startswith("entities [on]")
    assert lines[1].startswith("lang-match [off]") and "pure risk" in lines[1]
    assert "on top of entities" in lines[2]


def test_headline_shares() -> None:
    from workbench.studies import headline

    rows = _synthetic_rows()
    rows["split"] = "test"
    shares = headline(rows, "test", default_order())
    assert set(shares) == {"in_corpus answered_correct", "out_of_corpus refused",
                           "relevance_traps refused"}
    outcome = first_firing(rows, default_order())
    ooc = (rows["set"] == "out_of_corpus").to_numpy()
    assert shares["out_of_corpus refused"] == pytest.approx((outcome[ooc] != "answered").mean())


def test_every_code_has_a_template_in_both_languages() -> None:
    templates = refusal_templates()
    assert set(templates) == set(gate_codes().values())
    assert all(set(t) == {"ru", "en"} for t in templates.values())


def test_document_title_scopes_its_paragraphs(tmp_path: Path, make_corpus) -> None:
    from workbench.index import build_index, load_index

    corpus = make_corpus(tmp_path / "c", {"en/vat.md": (
        "# Russian VAT: rates\n\n"
        "The standard rate is 22 percent from 1 January 2026 for most supplies of goods and "
        "services, and the reduced rate of 10 percent applies to listed food and children's goods."
        "\n\nExports are taxed at zero percent when documents confirm them, which the exporter "
        "collects within 180 days of placing the goods under the export customs procedure.\n")})
    build_index(corpus, tmp_path / "i", embedder="keyword", cache_root=tmp_path / "x")
    index = load_index(tmp_path / "i")
    assert index.title("en/vat.md") == "Russian VAT: rates"
    source = QuoteSource(_settings(corpus, index.folder), index=index, embedder=KeywordEmbedder())
    ok = source.ask("Which documents confirm the zero rate for exports from Russia?")
    trace = {v.gate: v for v in ok.trace.verdicts}
    assert trace["relevance"].passed, trace["relevance"].numbers
    other = source.ask("Which documents confirm the zero rate for exports from Kazakhstan?")
    relevance = {v.gate: v for v in other.trace.verdicts}["relevance"]
    assert not relevance.passed and "Kazakhstan" in relevance.numbers["missing"]["entities"]


def test_unmarked_heading_and_file_name_scope_a_page(tmp_path: Path, make_corpus) -> None:
    from workbench.index import build_index, load_index

    body = ("Этот диалог меняет яркость тёмных и светлых участков изображения, а ползунки "
            "задают входные и выходные значения для каждого канала отдельно.")
    corpus = make_corpus(tmp_path / "c", {
        "gimp/gimp-tool-levels.txt": f"Уровни\n\n{body}\n",
        "gimp/notes.txt": f"{body} Так и задумано.\n",
    })
    build_index(corpus, tmp_path / "i", embedder="keyword", cache_root=tmp_path / "x")
    index = load_index(tmp_path / "i")
    # text read from HTML marks no heading: a short first line is the title, a paragraph is not
    assert index.title("gimp/gimp-tool-levels.txt") == "Уровни"
    assert index.title("gimp/notes.txt") == ""
    source = QuoteSource(_settings(corpus, index.folder), index=index, embedder=KeywordEmbedder())
    result = source.ask("Что меняет диалог Levels в GIMP для яркости изображения?")
    relevance = {v.gate: v for v in result.trace.verdicts}["relevance"]
    assert relevance.numbers["path"] == "gimp/gimp-tool-levels.txt"
    assert relevance.numbers["missing"]["entities"] == [], relevance.numbers


def test_evaluation_cache_key_follows_its_inputs(small_index, small_corpus: Path,
                                                 tmp_path: Path) -> None:
    from workbench.studies._gates import evaluation_key

    questions = tmp_path / "q"
    questions.mkdir()
    (questions / "in_corpus.jsonl").write_text("", encoding="utf-8")
    settings = _settings(small_corpus, small_index.folder)
    settings = dataclasses.replace(settings, paths=dataclasses.replace(
        settings.paths, questions=questions))
    key = evaluation_key(settings, ["in_corpus"], None)
    assert key == evaluation_key(settings, ["in_corpus"], None)
    stricter = dataclasses.replace(settings, gates=dataclasses.replace(
        settings.gates, threshold_bi_encoder_terms=0.9))
    assert evaluation_key(stricter, ["in_corpus"], None) != key
    (questions / "in_corpus.jsonl").write_text('{"id": "x"}\n', encoding="utf-8")
    assert evaluation_key(settings, ["in_corpus"], None) != key
    assert evaluation_key(settings, ["in_corpus"], "dev") != evaluation_key(
        settings, ["in_corpus"], None)
    # the confidence model's bytes, not only its name: retrained in place, it is another run
    model = tmp_path / "confidence.json"
    model.write_text("{}", encoding="utf-8")
    with_model = dataclasses.replace(settings, gates=dataclasses.replace(
        settings.gates, confidence_model=str(model)))
    before = evaluation_key(with_model, ["in_corpus"], None)
    model.write_text('{"retrained": true}', encoding="utf-8")
    assert evaluation_key(with_model, ["in_corpus"], None) != before
    # and the question-length limit every evaluated question is held to
    shorter = dataclasses.replace(settings, answers=dataclasses.replace(
        settings.answers, max_question_chars=100))
    assert evaluation_key(shorter, ["in_corpus"], None) != evaluation_key(
        settings, ["in_corpus"], None)


def test_a_reslice_names_only_what_the_run_evaluated() -> None:
    from workbench.studies import UnknownRuleError, evaluated_gates, evaluated_rules, run_order

    rows = _synthetic_rows().drop(columns=["wf_verbatim", "rule_lang-match"])
    assert evaluated_gates(rows) == tuple(g for g in default_order() if g != "verbatim")
    assert evaluated_rules(rows) == ("entities", "term-coverage")
    known = "known: gate0, threshold, disagreement, relevance, confidence$"
    with pytest.raises(UnknownGateError, match=known):
        run_order(rows, ["verbatim", "gate0"])
    with pytest.raises(UnknownRuleError, match="lang-match; it evaluated: entities, term-coverage"):
        rule_ablation(rows, rules=["entities", "lang-match"])


def _two_candidates(tmp_path: Path, first_text: str, second_text: str,
                    scores: tuple[float, float] = (0.9, 0.9)) -> CandidateSet:
    from workbench.corpus import Anchor, Corpus, Fragment
    from workbench.retrieval import Hit

    def fragment(path: str, text: str) -> Fragment:
        return Fragment(id=f"{path}#0-{len(text)}", anchor=Anchor(path, 0, len(text), "0" * 64),
                        text=text, lang="en")

    hits = tuple(Hit(f"f{i}", i, 1.0, score, 0.5, score) for i, score in enumerate(scores))
    return CandidateSet(question="q", lang="en", hits=hits,
                        fragments=(fragment("a/one.html", first_text),
                                   fragment("b/two.html", second_text)),
                        titles=("", ""), quote=None, corpus=Corpus(tmp_path), area="test",
                        mode="bi-encoder")


def test_disagreement_needs_two_different_texts(tmp_path: Path) -> None:
    from workbench.registry import build

    check = build("gate", "disagreement")
    same = _two_candidates(tmp_path, "This function ignores text cells.",
                           "This function  ignores\ntext cells.")
    verdict = check("q", same, Settings())
    assert verdict.passed and verdict.numbers["same_text"] is True
    different = _two_candidates(tmp_path, "This function ignores text cells.",
                                "This function counts text cells.")
    verdict = check("q", different, Settings())
    assert not verdict.passed and verdict.numbers["same_text"] is False


def test_a_reslice_with_the_runs_own_numbers_keeps_the_same_text_exemption(
        tmp_path: Path, make_corpus) -> None:
    from workbench.corpus._questions import Question
    from workbench.index import build_index, load_index
    from workbench.studies import result_row

    shared = ("Padding: Base64 output is padded with equals signs so that its length is a "
              "multiple of four characters.")
    corpus = make_corpus(tmp_path / "corpus", {
        "mail/base64.md": f"# Base64\n\n{shared}\n", "web/base64.md": f"# Base64\n\n{shared}\n",
        "three.md": "# Hashes\n\nA hash maps any input to a fixed-size digest of bytes.\n"})
    build_index(corpus, tmp_path / "index", embedder="keyword", cache_root=tmp_path / "cache")
    settings = _settings(corpus, tmp_path / "index")
    source = QuoteSource(settings, index=load_index(tmp_path / "index"),
                         embedder=KeywordEmbedder())
    question = Question("a1", "in_corpus", "Why is Base64 output padded with equals signs?",
                        "en", "dev")
    result = source.ask(question.question, lang="en")
    rows = pd.DataFrame([result_row(question, result)])
    # the two best fragments tie in score, in two files, with the same text: they agree
    assert rows.loc[0, "top2_gap"] == 0 and not rows.loc[0, "top2_same_file"]
    assert rows.loc[0, "top2_same_text"] and not rows.loc[0, "wf_disagreement"]
    gates = settings.gates
    outcome = first_firing(rows, gates.order, threshold=gates.threshold_for(result.candidates.mode),
                           min_coverage=gates.min_lexical_coverage,
                           margin=gates.disagreement_margin)
    assert rows.loc[0, "answered"] and outcome.tolist() == ["answered"]
    # the same row without the exemption's column (an older run record) reads as a disagreement
    older = first_firing(rows.drop(columns="top2_same_text"), gates.order,
                         margin=gates.disagreement_margin)
    assert older.tolist() == ["disagreement"]


@pytest.mark.parametrize(("scores", "fires"), [
    ((0.9, 0.921), False),  # the second scores higher (a mode orders by more than the score)
    ((0.921, 0.9), False),
    ((0.9, 0.905), True),
    ((0.905, 0.9), True),
])
def test_disagreement_reads_the_unsigned_gap_of_the_score_it_shows(
        tmp_path: Path, scores: tuple[float, float], fires: bool) -> None:
    from workbench.gates import search_area
    from workbench.registry import build

    candidates = _two_candidates(tmp_path, "This function ignores text cells.",
                                 "This function counts text cells.", scores)
    settings = Settings().with_overrides(gates={"disagreement_margin": 0.01})
    verdict = build("gate", "disagreement")("q", candidates, settings)
    assert verdict.passed is not fires
    assert verdict.numbers["scores"] == list(scores)
    assert verdict.numbers["gap"] == pytest.approx(abs(scores[0] - scores[1]))
    if fires:
        text = refusal_from_verdict(verdict, search_area("c", 2, 2, "ru"), "ru").text
        first, second = (f"{s:.4f}" for s in scores)
        assert f"{first} и {second}: разница 0.0050 меньше допуска " \
               f"{settings.gates.disagreement_margin:.4f}" in text


def test_a_reslice_reads_the_gap_unsigned() -> None:
    rows = _synthetic_rows(20)
    rows["top2_same_file"] = False
    rows["top2_same_text"] = False
    rows["top2_gap"] = -0.021  # a row written when the gap was signed: the second scored higher
    assert (first_firing(rows, ("disagreement",), margin=0.01) == "answered").all()
    assert (first_firing(rows, ("disagreement",), margin=0.03) == "disagreement").all()


def test_calibration_does_not_buy_coverage_with_wrong_answers() -> None:
    from workbench.studies import calibrate_gates

    # two answerable questions at 0.9 and 0.5 (the lower one quotes the wrong fragment), one
    # more at 0.3 from gold, and two must-refuse questions at 0.2: a threshold of 0.3 answers
    # one more question right and one more wrong than 0.9 and must not win for it (on the
    # summed shares, 2/3 + 1 against 1/3 + 1, it did)
    rows = pd.DataFrame({
        "id": ["a", "b", "c", "d", "e"], "split": "dev",
        "set": ["in_corpus", "in_corpus", "in_corpus", "out_of_corpus", "out_of_corpus"],
        "top_score": [0.9, 0.5, 0.3, 0.2, 0.2],
        "top_is_gold": [True, False, True, False, False], "n_hits": 10, "gate0_coverage": 1.0,
        "top2_gap": 1.0, "top2_same_file": False, "top2_same_text": False,
    })
    for gate in default_order():
        rows[f"wf_{gate}"] = False
    table = calibrate_gates(rows, order=("threshold",), thresholds=[0.2, 0.3, 0.5, 0.9],
                            coverages=(0.0,), margins=(0.0,)).set_index("threshold")
    assert table.index[0] == 0.9  # the tie goes to fewer false answers
    assert table.loc[0.3, "score"] == pytest.approx(table.loc[0.9, "score"])
    assert table.loc[0.5, "score"] == pytest.approx(table.loc[0.9, "score"] - 1 / 3)
    assert table.loc[0.2, "score"] == pytest.approx(-2 / 3)
    # where the dev split cannot tell two cells apart, the stricter one is chosen
    tied = calibrate_gates(rows, order=("gate0", "threshold", "disagreement"),
                           thresholds=[0.85, 0.9], coverages=(0.3, 0.5), margins=(0.005, 0.01))
    assert tied.iloc[0][["min_coverage", "margin", "threshold"]].tolist() == [0.5, 0.01, 0.9]
