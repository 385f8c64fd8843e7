"""Settings from TOML and the one registry."""

from __future__ import annotations

from pathlib import Path

import pytest

from workbench import registry
from workbench.config import DEFAULT_GATE_ORDER, ConfigError, Settings, load_settings

ROOT = Path(__file__).resolve().parents[2]


def test_project_settings_load() -> None:
    settings = load_settings(ROOT / "workbench.toml")
    assert settings.paths.corpus == (ROOT / "corpus/course").resolve()
    assert settings.gates.order == DEFAULT_GATE_ORDER
    assert settings.gates.order[0] == "gate0" and settings.gates.order[-1] == "verbatim"
    assert settings.source == (ROOT / "workbench.toml").resolve()
    assert settings.to_dict()["paths"]["corpus"].endswith("corpus/course")


def test_relative_paths_follow_the_file(tmp_path: Path) -> None:
    (tmp_path / "w.toml").write_text('[paths]\ncorpus = "my/corpus"\n', encoding="utf-8")
    settings = load_settings(tmp_path / "w.toml")
    assert settings.paths.corpus == (tmp_path / "my/corpus").resolve()
    assert settings.paths.results == (tmp_path / "results").resolve()


CONFIG_ERRORS = [
    ("unknown section", "[nonsense]\nx = 1\n"),
    ("unknown key", "[gates]\nscore_treshold = 0.5\n"),
    ("expected a number", '[gates]\nthreshold_bi_encoder = "high"\n'),
    ("expected an integer", "[retrieval]\ntop_k = 2.5\n"),
    ("expected a list of strings", '[gates]\norder = "gate0"\n'),
    ("not valid TOML", "[gates\n"),
    ("must be a table", "gates = 3\n"),
]


@pytest.mark.parametrize(("message", "text"), CONFIG_ERRORS)
def test_config_errors(tmp_path: Path, message: str, text: str) -> None:
    (tmp_path / "bad.toml").write_text(text, encoding="utf-8")
    with pytest.raises(ConfigError, match=message):
        load_settings(tmp_path / "bad.toml")


def test_missing_config_file(tmp_path: Path) -> None:
    with pytest.raises(ConfigError, match="does not exist"):
        load_settings(tmp_path / "none.toml")


def test_overrides() -> None:
    settings = Settings().with_overrides(gates={"threshold_bi_encoder": 0.4})
    assert settings.gates.threshold_bi_encoder == 0.4
    assert settings.gates.threshold_for("bi-encoder") == 0.4
    with pytest.raises(ConfigError):
        Settings().with_overrides(gates={"nope": 1})


@pytest.fixture(autouse=True)
def _restored():
    """What a test here registers leaves with it: a later test lists every registered name."""
    with registry.restoring():
        yield


def test_registry_build_records_parameters() -> None:
    @registry.gate("test-gate-xyz", description="a gate for this test")
    def factory(threshold: float = 0.5):
        def check(question: str) -> bool:
            return len(question) > threshold

        return check

    built = registry.build("gate", "test-gate-xyz", threshold=3)
    assert built("abcd") and not built("ab")
    info = registry.registry_info(built)
    assert info is not None and info.to_dict() == {
        "kind": "gate", "name": "test-gate-xyz", "params": {"threshold": 3}}
    assert registry.lookup("gate", "test-gate-xyz").metadata["description"] == "a gate for this test"


def test_registry_unknown_name_lists_known() -> None:
    registry.register("invariant", "test-inv-a", lambda: None)
    with pytest.raises(registry.UnknownNameError, match="test-inv-a"):
        registry.lookup("invariant", "nope")


def test_registry_refuses_a_different_object_under_a_taken_name() -> None:
    registry.register("router", "test-router-dup", lambda: 1)
    with pytest.raises(registry.DuplicateNameError):
        registry.register("router", "test-router-dup", print)


def test_registering_a_gate_never_changes_the_default_order(tmp_path: Path) -> None:
    registry.load("gate")
    shipped = load_settings(ROOT / "workbench.toml").gates.order

    @registry.gate("test-gate-extra", code="TEST_EXTRA")
    def extra():  # pragma: no cover - never built here
        return None

    assert Settings().gates.order == DEFAULT_GATE_ORDER == shipped
    # a settings file that names no order, or the shipped order, still loads: the new gate is
    # not demanded, and it takes part only where an order names it
    (tmp_path / "w.toml").write_text("[answers]\nmax_question_chars = 100\n", encoding="utf-8")
    assert load_settings(tmp_path / "w.toml").gates.order == DEFAULT_GATE_ORDER
    assert load_settings(ROOT / "workbench.toml").gates.order == shipped
    named = Settings().with_overrides(gates={"order": ["test-gate-extra", *DEFAULT_GATE_ORDER]})
    assert named.gates.order[0] == "test-gate-extra"
    # the built-in gates stay listed in every order
    with pytest.raises(ConfigError, match="leaves out 'verbatim'"):
        Settings().with_overrides(gates={"order": [g for g in DEFAULT_GATE_ORDER
                                                   if g != "verbatim"]})


def test_a_path_inside_the_project_is_shown_relative_to_it(tmp_path) -> None:
    from workbench.config import project_relative, project_root

    assert project_relative(project_root() / "models" / "routers" / "default.json") == \
        "models/routers/default.json"
    outside = tmp_path / "elsewhere.json"
    assert project_relative(outside) == str(outside)
