"""The ground floor's digests: files, folders, and the code digest that follows imports."""

from __future__ import annotations

import pytest

from workbench import digests, registry
from workbench.digests import code_digest, code_modules, folder_digest, sha256_file


@pytest.fixture
def package(tmp_path, monkeypatch):
    """A throwaway ``workbench`` package the code digest reads instead of the real one."""
    root = tmp_path / "workbench"
    (root / "core").mkdir(parents=True)
    (root / "views").mkdir()
    (root / "__init__.py").write_text("", encoding="utf-8")
    (root / "core" / "__init__.py").write_text("", encoding="utf-8")
    (root / "views" / "__init__.py").write_text("", encoding="utf-8")
    (root / "core" / "study.py").write_text(
        "from workbench.core import helper\n\n"
        "def run():\n    from workbench.core.late import value  # inside a function\n"
        "    return helper.x + value\n", encoding="utf-8")
    (root / "core" / "helper.py").write_text("x = 1\n", encoding="utf-8")
    (root / "core" / "late.py").write_text("value = 2\n", encoding="utf-8")
    (root / "views" / "chart.py").write_text("from workbench.core import study\n", encoding="utf-8")
    monkeypatch.setattr(digests, "PACKAGE_ROOT", root)
    digests._closure.cache_clear()
    yield root
    digests._closure.cache_clear()


def test_code_digest_follows_imports_at_any_depth_and_nothing_else(package) -> None:
    roots = ["workbench.core.study"]
    assert set(code_modules(roots)) == {"workbench", "workbench.core", "workbench.core.study",
                                       "workbench.core.helper", "workbench.core.late"}
    before = code_digest(roots)
    (package / "views" / "chart.py").write_text("# a view that imports the study\n", encoding="utf-8")
    assert code_digest(roots) == before
    (package / "core" / "late.py").write_text("value = 3\n", encoding="utf-8")
    assert code_digest(roots) != before


def test_code_digest_covers_the_tables_a_covered_package_reads(package) -> None:
    roots = ["workbench.core.study"]
    (package / "core" / "data").mkdir()
    (package / "core" / "data" / "patterns.yaml").write_text("a: 1\n", encoding="utf-8")
    (package / "core" / "synonyms.yaml").write_text("b: 1\n", encoding="utf-8")
    (package / "views" / "colours.json").write_text("{}", encoding="utf-8")
    before = code_digest(roots)
    (package / "views" / "colours.json").write_text('{"a": 1}', encoding="utf-8")
    assert code_digest(roots) == before  # a package the study does not import
    (package / "core" / "data" / "patterns.yaml").write_text("a: 2\n", encoding="utf-8")
    moved = code_digest(roots)
    assert moved != before
    (package / "core" / "synonyms.yaml").write_text("b: 2\n", encoding="utf-8")
    assert code_digest(roots) != moved
    assert digests.package_data(["workbench.core.study"]) == (
        package / "core" / "data" / "patterns.yaml", package / "core" / "synonyms.yaml")


def test_the_gate_evaluation_key_covers_the_registered_rules_but_not_the_views() -> None:
    from workbench.studies._gates import EVALUATION_CODE

    modules = set(code_modules(EVALUATION_CODE))
    for provider in (*registry.PROVIDERS["gate"], *registry.PROVIDERS["relevance_rule"]):
        assert provider in modules
    assert "workbench.relevance._entities" in modules
    assert not any(m.startswith(("workbench.widgets", "workbench.report", "workbench.cli"))
                   for m in modules)


def test_folder_digest_sees_added_changed_and_removed_files(tmp_path) -> None:
    (tmp_path / "a.txt").write_text("a", encoding="utf-8")
    first = folder_digest(tmp_path)
    (tmp_path / "b.txt").write_text("b", encoding="utf-8")
    second = folder_digest(tmp_path)
    (tmp_path / "b.txt").write_text("c", encoding="utf-8")
    third = folder_digest(tmp_path)
    (tmp_path / "b.txt").unlink()
    assert len({first, second, third}) == 3 and folder_digest(tmp_path) == first
    assert sha256_file(tmp_path / "a.txt") == (
        "ca978112ca1bbdcafac231b39a23dc4da786eff8147c4e72b9807785afee48bb")


def test_a_parent_reached_only_through_a_submodule_is_not_followed(package) -> None:
    pkg = package / "pkg"
    pkg.mkdir()
    (pkg / "__init__.py").write_text("from workbench.pkg import other\n", encoding="utf-8")
    (pkg / "other.py").write_text("Y = 1\n", encoding="utf-8")
    (pkg / "leaf.py").write_text("Z = 1\n", encoding="utf-8")
    (package / "user.py").write_text("import workbench.pkg\n", encoding="utf-8")
    assert set(code_modules(["workbench.pkg.leaf"])) == {"workbench", "workbench.pkg",
                                                         "workbench.pkg.leaf"}
    before = code_digest(["workbench.pkg.leaf"])
    (pkg / "other.py").write_text("Y = 2\n", encoding="utf-8")  # a sibling: the leaf keeps its key
    assert code_digest(["workbench.pkg.leaf"]) == before
    assert "workbench.pkg.other" in code_modules(["workbench.user"])  # imported by name: followed
