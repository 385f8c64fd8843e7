"""A cache key covers all the code a run executes outside the package, or nothing is cached.

A researcher's rule lives in a module of their own project (here a folder under ``tmp_path``),
calls a helper of that module and a function of a second project module. Editing any of the
three and reloading gives a new key, so no edit is ever answered from a stale entry; code that
has no source to key on (a rule defined at a prompt, a compiled extension, a file edited since it
was loaded) makes the evaluation uncached, with a warning and a reason the caller can read.
"""

from __future__ import annotations

import dataclasses
import importlib
import json
import sys
import uuid
from collections.abc import Iterator
from pathlib import Path
from types import ModuleType

import pandas as pd
import pytest

from workbench import registry
from workbench.config import Settings
from workbench.digests import UncachedWarning, code_key
from workbench.gates import QuoteSource
from workbench.retrieval import KeywordEmbedder
from workbench.studies import _gates as gates_study
from workbench.studies import _router_study as router_study

KINDS: tuple[registry.Kind, ...] = ("gate", "relevance_rule")

RULE = '''
from workbench.registry import relevance_rule
from workbench.relevance import RuleVerdict

import {shared}


def helper(text):
    return {helper}


@relevance_rule("{name}", applies_to="quote")
def factory():
    def rule(question, fragment_text, lang, scope):
        fires = helper(fragment_text) or {shared}.fires(fragment_text)
        return RuleVerdict("{name}", bool(fires), (), "{version}")

    return rule
'''

SHARED = '''
def fires(text):
    return {body}
'''


class Project:
    """A project folder on ``sys.path`` whose modules a test writes, imports and edits."""

    def __init__(self, folder: Path) -> None:
        self.folder = folder
        tag = uuid.uuid4().hex[:8]
        self.rule_module, self.shared_module = f"own_rules_{tag}", f"own_shared_{tag}"
        self.rule = f"own-rule-{tag}"

    def write(self, helper: str = "False", shared: str = "False", version: str = "v1") -> None:
        (self.folder / f"{self.shared_module}.py").write_text(
            SHARED.format(body=shared), encoding="utf-8")
        (self.folder / f"{self.rule_module}.py").write_text(
            RULE.format(shared=self.shared_module, helper=helper, name=self.rule,
                        version=version), encoding="utf-8")
        importlib.invalidate_caches()

    def load(self, *, reload: str | None = None) -> ModuleType:
        """Import the rule module (first time), or reload ``reload`` after an edit."""
        if reload is not None:
            importlib.reload(sys.modules[reload])
            if reload == self.shared_module:
                return sys.modules[self.rule_module]
        if self.rule_module in sys.modules:
            return importlib.reload(sys.modules[self.rule_module])
        return importlib.import_module(self.rule_module)

    def run(self, text: str) -> bool:
        """What the registered rule decides on ``text`` now."""
        rule = registry.build("relevance_rule", self.rule)
        return bool(rule("q", text, "en", None).fired)


@pytest.fixture
def project(tmp_path: Path, monkeypatch) -> Iterator[Project]:
    folder = tmp_path / "project"
    folder.mkdir()
    monkeypatch.syspath_prepend(str(folder))
    monkeypatch.setattr(sys, "dont_write_bytecode", True)  # an edit within a second is seen
    own = Project(folder)
    with registry.restoring():
        yield own
    for name in (own.rule_module, own.shared_module):
        sys.modules.pop(name, None)


def test_editing_a_helper_a_second_module_or_the_rule_gives_a_new_key(project) -> None:
    project.write()
    project.load()
    probe = "Base64 pads the output"
    cache: dict[str | None, bool] = {}
    keys, stale = [], 0
    edits = [
        {},  # as written
        {"helper": "'Base64' in text"},  # the helper of the rule's own module
        {"helper": "'Base64' in text", "shared": "'pads' in text"},  # the second project module
        {"helper": "'Base64' in text", "shared": "'pads' in text", "version": "v2"},  # the rule
    ]
    for step, edit in enumerate(edits):
        if step:
            project.write(**edit)
            project.load(reload=project.shared_module if "shared" in edit and edit["shared"] !=
                         edits[step - 1].get("shared") else None)
        key = registry.stages_code_key(KINDS)
        assert key.cacheable, key.reason
        fresh = project.run(probe)
        if key.digest in cache and cache[key.digest] != fresh:
            stale += 1
        cache[key.digest] = fresh
        keys.append(key.digest)
    assert len(set(keys)) == len(edits) and stale == 0
    # the key is stable while nothing changes
    assert registry.stages_code_key(KINDS).digest == keys[-1]


def test_the_second_module_counts_through_the_rule_module_it_is_imported_by(project) -> None:
    project.write()
    module = project.load()
    before = code_key(stages={"rule": module.factory})
    (project.folder / f"{project.shared_module}.py").write_text(
        SHARED.format(body="True"), encoding="utf-8")
    importlib.reload(sys.modules[project.shared_module])
    after = code_key(stages={"rule": module.factory})
    assert before.cacheable and after.cacheable and before.digest != after.digest


def test_a_file_edited_but_not_reloaded_is_not_keyed(project) -> None:
    project.write()
    project.load()
    assert registry.stages_code_key(KINDS).cacheable
    project.write(helper="'Base64' in text")  # the process still runs the old helper
    key = registry.stages_code_key(KINDS)
    assert key.digest is None
    assert project.rule_module in key.reason and "changed since this process loaded it" in key.reason


def test_a_rule_defined_at_a_prompt_names_itself_and_is_not_keyed() -> None:
    namespace: dict[str, object] = {"__name__": "__main__"}
    exec(compile("def factory():\n    return lambda q, t, lang, scope: None\n", "<stdin>", "exec"),
         namespace)
    with registry.restoring():
        registry.relevance_rule("typed-at-a-prompt", applies_to="quote")(namespace["factory"])
        key = registry.stages_code_key(KINDS)
    assert key.digest is None and "relevance rule 'typed-at-a-prompt'" in key.reason
    assert "<stdin>" in key.reason


def test_a_module_without_a_file_is_not_keyed() -> None:
    scratch = ModuleType("scratch_without_file")
    exec("def factory():\n    return None\n", scratch.__dict__)
    sys.modules[scratch.__name__] = scratch
    try:
        key = code_key(stages={"gate 'x'": scratch.factory})
    finally:
        del sys.modules[scratch.__name__]
    assert key.digest is None and "has no source file" in key.reason and "gate 'x'" in key.reason


def test_a_compiled_extension_of_the_project_is_not_keyed(project) -> None:
    project.write()
    rule_file = project.folder / f"{project.rule_module}.py"
    rule_file.write_text(rule_file.read_text(encoding="utf-8") + "\n\ndef later():\n"
                         "    import fastpart  # a compiled module of the project\n",
                         encoding="utf-8")
    (project.folder / "fastpart.cpython-311-x86_64-linux-gnu.so").write_bytes(b"\x7fELF")
    (project.folder / "fastpart.so").write_bytes(b"\x7fELF")
    importlib.invalidate_caches()
    project.load()
    key = registry.stages_code_key(KINDS)
    assert key.digest is None and "fastpart" in key.reason and "no Python source" in key.reason


def test_library_modules_stay_out_and_project_modules_count(project) -> None:
    project.write()
    module = project.load()
    # pandas and json are installed or standard: editing the project is what moves the key
    assert code_key(["json", "pandas"]).digest == code_key([]).digest
    assert code_key([project.rule_module]).digest != code_key([]).digest
    assert code_key(stages={"rule": module.factory}).cacheable


# --- through the gate evaluation and the lab -----------------------------------------------------


QUESTIONS = [
    {"id": "ic-1", "set": "in_corpus", "question": "How does Base64 pad the output?",
     "lang": "en", "split": "test", "topic": "base64",
     "gold": [{"path": "en/base64.md", "span": "pads the output with one or two equals signs"}]},
    {"id": "ic-2", "set": "in_corpus", "lang": "ru", "split": "dev", "topic": "utf8",
     "question": "Из скольких байтов состоит метка порядка байтов в UTF-8?",
     "gold": [{"path": "ru/utf8.md", "span": "состоит из трёх байтов EF BB BF"}]},
]


@pytest.fixture
def settings(small_index, small_corpus: Path, tmp_path: Path, monkeypatch) -> Settings:
    folder = tmp_path / "questions"
    folder.mkdir()
    (folder / "in_corpus.jsonl").write_text(
        "".join(json.dumps(q, ensure_ascii=False) + "\n" for q in QUESTIONS), encoding="utf-8")
    monkeypatch.setattr(gates_study, "QuoteSource",
                        lambda s: QuoteSource(s, index=small_index, embedder=KeywordEmbedder()))
    base = Settings()
    return dataclasses.replace(
        base, paths=dataclasses.replace(base.paths, corpus=small_corpus, index=small_index.folder,
                                        questions=folder, cache=tmp_path / "cache"),
        gates=dataclasses.replace(base.gates, threshold_bi_encoder_terms=0.2))


def _uncached(settings: Settings) -> pd.DataFrame:
    return gates_study.evaluate_sets(settings, sets=("in_corpus",))


def test_an_edited_helper_is_never_answered_from_the_cache(project, settings) -> None:
    project.write()
    project.load()
    first, cached = gates_study.evaluate_sets_cached(settings, sets=("in_corpus",))
    assert not cached and first.attrs["uncached_reason"] == ""
    assert gates_study.evaluate_sets_cached(settings, sets=("in_corpus",))[1]
    project.write(helper="'Base64' in text")
    project.load()
    rows, cached = gates_study.evaluate_sets_cached(settings, sets=("in_corpus",))
    column = f"rule_{project.rule}"
    assert not cached
    assert (rows[column] != _uncached(settings)[column]).sum() == 0
    assert rows[column].tolist() != first[column].tolist()  # the edit changed a verdict


def test_an_uncacheable_stage_is_computed_warned_and_not_kept(settings) -> None:
    namespace: dict[str, object] = {"__name__": "__main__"}
    exec(compile("from workbench.relevance import RuleVerdict\n"
                 "def factory():\n"
                 "    return lambda q, t, lang, scope: RuleVerdict('from-a-cell', False)\n",
                 "<ipython-input-1>", "exec"), namespace)
    with registry.restoring():
        registry.relevance_rule("from-a-cell", applies_to="quote")(namespace["factory"])
        assert gates_study.cached_evaluation_path(settings, ("in_corpus",)) is None
        for _ in range(2):
            with pytest.warns(UncachedWarning, match="relevance rule 'from-a-cell'"):
                rows, cached = gates_study.evaluate_sets_cached(settings, sets=("in_corpus",))
            assert not cached and "from-a-cell" in rows.attrs["uncached_reason"]
    assert not (Path(settings.paths.cache) / "gates").exists()


def test_cache_false_computes_again_and_replaces_the_entry(settings, monkeypatch) -> None:
    calls = []
    real = gates_study.evaluate_sets

    def counting(*args, **kwargs):
        calls.append(1)
        return real(*args, **kwargs)

    monkeypatch.setattr(gates_study, "evaluate_sets", counting)
    gates_study.evaluate_sets_cached(settings, sets=("in_corpus",))
    assert gates_study.evaluate_sets_cached(settings, sets=("in_corpus",))[1] and len(calls) == 1
    rows, cached = gates_study.evaluate_sets_cached(settings, sets=("in_corpus",), cache=False)
    assert not cached and len(calls) == 2 and "cache=False" in rows.attrs["uncached_reason"]
    assert gates_study.evaluate_sets_cached(settings, sets=("in_corpus",))[1] and len(calls) == 2


def test_lab_gate_run_takes_cache_false(settings, monkeypatch) -> None:
    from workbench.lab import Lab

    lab = Lab(settings=settings, questions=(Path(settings.paths.questions) / "in_corpus.jsonl",))
    assert lab.gate_run().attrs["cached"] is False
    assert lab.gate_run().attrs["cached"] is True
    again = lab.gate_run(cache=False)
    assert again.attrs["cached"] is False and again.attrs["uncached_reason"]


class _Stop(Exception):
    pass


def test_cli_no_cache_computes_again(settings, monkeypatch) -> None:
    from workbench import cli
    from workbench.cli import _gates as cli_gates

    asked = []

    def fake(settings, **kwargs):
        asked.append(kwargs["cache"])
        raise _Stop

    monkeypatch.setattr(cli_gates, "evaluate_sets_cached", fake)
    monkeypatch.setattr(cli, "load_settings", lambda config: settings)
    monkeypatch.setattr("workbench.studies._calibration.evaluate_sets_cached", fake)
    for argv, expected in ((["eval", "gates", "--sets", "in_corpus", "--no-cache"], False),
                           (["eval", "gates", "--sets", "in_corpus"], True),
                           (["gates", "calibrate", "--sets", "in_corpus", "--no-cache"], False),
                           (["gates", "calibrate", "--sets", "in_corpus"], True)):
        with pytest.raises(_Stop):
            cli.main(argv)
        assert asked[-1] is expected
    assert len(asked) == 4


def test_the_router_study_key_covers_registered_stages(project) -> None:
    before = router_study.router_code_key()
    project.write()
    project.load()
    after = router_study.router_code_key()
    assert before.cacheable and after.cacheable and before.digest != after.digest
    namespace: dict[str, object] = {"__name__": "__main__"}
    exec(compile("def factory():\n    return None\n", "<stdin>", "exec"), namespace)
    registry.router("typed-router")(namespace["factory"])
    assert router_study.router_code_key().digest is None
    assert router_study._cache_key([], [], "test") is None
