"""``workbench init``: the project folder, its settings, and ``ask``'s router on it."""

from __future__ import annotations

import sys
from pathlib import Path

import pytest

from workbench import registry
from workbench.answers import (
    BUNDLED_COURSE,
    QUOTE_ONLY,
    QuoteOnly,
    default_router,
    is_bundled_course,
    resolve_router,
)
from workbench.cli import main
from workbench.cli._init import ProjectExistsError, init_project, template_files
from workbench.config import Settings, default_config_path, load_settings
from workbench.corpus._questions import load_questions
from workbench.refusal import falsehood_words
from workbench.routing import RouterSpecError, RuleRouter, Source

ROOT = Path(__file__).resolve().parents[2]


@pytest.fixture
def fresh_plugins():
    """Each test imports the project's own ``stages`` module afresh and takes back what it registered."""
    with registry.restoring():
        yield
        sys.modules.pop("stages", None)
    sys.modules.pop("stages", None)


def test_init_writes_the_template_and_its_settings_load(tmp_path, fresh_plugins, monkeypatch):
    project = init_project(tmp_path / "debian guide")
    assert project.name == "debian-guide"
    assert set(project.written) == set(template_files())
    folder = project.folder
    for rel in ("workbench.toml", "stages.py", "corpus/example.md", "questions/in_corpus.jsonl",
                "questions/out_of_corpus.jsonl", "questions/relevance_traps.jsonl"):
        assert (folder / rel).is_file(), rel
    monkeypatch.delenv("WORKBENCH_CONFIG", raising=False)
    monkeypatch.chdir(folder / "corpus")  # found from a subfolder upwards
    assert default_config_path() == folder / "workbench.toml"
    settings = load_settings()
    assert settings.source == folder / "workbench.toml"
    assert settings.paths.corpus == folder / "corpus"
    assert settings.paths.index == folder / ".cache" / "index" / "debian-guide"
    assert settings.paths.questions == folder / "questions"
    assert settings.paths.corpus_name == "debian-guide"
    assert settings.plugins.modules == ("stages",)
    # the stages.py the settings name registered its rule and its gate
    assert "project-numbers" in registry.names("relevance_rule")
    assert "project-min-words" in registry.names("gate")
    # the commented examples are valid settings too
    ordered = settings.with_overrides(gates={
        "order": ["project-min-words", "gate0", "threshold", "disagreement", "relevance",
                  "confidence", "verbatim"],
        "relevance_rules": ["entities", "answer-type", "project-numbers"]})
    assert ordered.gates.order[0] == "project-min-words"
    # the example lines load as labelled sets, gold spans found in the example page
    for name in ("in_corpus", "out_of_corpus", "relevance_traps"):
        questions = load_questions(folder / "questions" / f"{name}.jsonl", folder / "corpus")
        assert len(questions) == 1


def test_the_header_says_how_settings_are_found(tmp_path):
    text = (init_project(tmp_path / "p").folder / "workbench.toml").read_text(encoding="utf-8")
    assert "from the\n# current folder upwards" in text
    assert "$WORKBENCH_CONFIG" in text and "calibration.toml" in text


@pytest.mark.parametrize("existing", [
    {"workbench.toml": "[paths]\n"},
    {"notes.txt": "mine"},
    {"corpus/example.md": "my own page"},
])
def test_init_refuses_a_folder_it_did_not_write_and_overwrites_nothing(tmp_path, existing):
    folder = tmp_path / "p"
    for rel, text in existing.items():
        (folder / rel).parent.mkdir(parents=True, exist_ok=True)
        (folder / rel).write_text(text, encoding="utf-8")
    with pytest.raises(ProjectExistsError, match="nothing was written"):
        init_project(folder)
    assert sorted(p.relative_to(folder).as_posix() for p in folder.rglob("*") if p.is_file()) \
        == sorted(existing)
    for rel, text in existing.items():
        assert (folder / rel).read_text(encoding="utf-8") == text


def test_init_refuses_a_file_and_an_existing_project(tmp_path, capsys):
    path = tmp_path / "f"
    path.write_text("x", encoding="utf-8")
    with pytest.raises(ProjectExistsError, match="is a file"):
        init_project(path)
    init_project(tmp_path / "p")
    assert main(["init", str(tmp_path / "p")]) == 2
    assert "ProjectExistsError" in capsys.readouterr().err


def test_init_finishes_an_unfinished_init(tmp_path):
    folder = tmp_path / "p"
    (folder / "corpus").mkdir(parents=True)
    (folder / "corpus" / "example.md").write_bytes(template_files()["corpus/example.md"])
    project = init_project(folder)
    assert "corpus/example.md" not in project.written
    assert "workbench.toml" in project.written


def test_init_verb_prints_the_files_and_next_steps(tmp_path, capsys):
    assert main(["init", str(tmp_path / "p")]) == 0
    out = capsys.readouterr().out
    assert "stages.py" in out and "workbench index build" in out


def _settings(corpus: Path, router: str = "") -> Settings:
    base = Settings()
    return base.with_overrides(paths={"corpus": str(corpus), "models": str(ROOT / "models")},
                               answers={"router": router})


def test_own_corpus_routes_to_the_quote_source_by_default(tmp_path):
    own = _settings(tmp_path)
    assert not is_bundled_course(tmp_path) and is_bundled_course(BUNDLED_COURSE)
    assert default_router(own).name == QUOTE_ONLY
    router = resolve_router(None, own)
    assert isinstance(router, QuoteOnly)
    assert router.route("Как установить пакет?").source is Source.QUOTE
    # a utility held to by --source still gets a router that binds arguments
    assert default_router(own, "utility").name != QUOTE_ONLY
    # on the course, the catalog's choice as before
    assert default_router(_settings(BUNDLED_COURSE)).name != QUOTE_ONLY


def test_the_settings_name_the_router(tmp_path):
    assert isinstance(resolve_router(None, _settings(tmp_path, "rule")), RuleRouter)
    assert isinstance(resolve_router(None, _settings(BUNDLED_COURSE, QUOTE_ONLY)), QuoteOnly)
    with pytest.raises(RouterSpecError, match=r"\[answers\] router"):
        resolve_router(None, _settings(tmp_path, "no-such-router"))


@pytest.mark.parametrize(("question", "code", "named"), [
    ("Посчитай SHA-256", "MISSING_ARGUMENT", ["hash.sha256", "text"]),
    ("Compute the SHA-256", "MISSING_ARGUMENT", ["hash.sha256", "text"]),
    ("Как установить пакет?", "OUT_OF_SCOPE", ["126 утилит", "тем курса"]),
    ("How do I configure apt sources?", "OUT_OF_SCOPE", ["126 utilities", "topic words"]),
    ("Какая погода в Москве?", "OUT_OF_SCOPE", ["«погод»"]),
])
def test_a_rule_router_refusal_names_what_is_missing_or_what_was_checked(question, code, named):
    decision = RuleRouter().route(question)
    assert decision.refusal is not None and decision.refusal.code == code
    for part in named:
        assert part in decision.refusal.text
    assert not falsehood_words(decision.refusal.text)


def test_a_rule_router_refusal_held_to_a_source_names_what_was_checked():
    router = RuleRouter()
    spec = router.route_within("Как установить пакет?", Source.SPEC)
    utility = router.route_within("Как установить пакет?", Source.UTILITY)
    assert spec.refusal is not None and "спецификаций" in spec.refusal.text
    assert utility.refusal is not None and "утилит" in utility.refusal.text
