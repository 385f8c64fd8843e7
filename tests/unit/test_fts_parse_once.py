"""The spec gate reads the library files at every check but parses a text it has seen only once.

A spec question used to cost over a second: each check parsed every library entry twice (the
gate and the independent re-checker) and built the re-checker's LALR tables again. The files
are still read at every check, so an entry edited on disk is seen at the next one.
"""

from __future__ import annotations

import shutil
from pathlib import Path

import yaml

from workbench.fts import check_spec, load_library

ROOT = Path(__file__).resolve().parents[2]
LIB = ROOT / "corpus" / "morphisms"
SPECS = ROOT / "corpus" / "specs"


def _count_yaml_parses(monkeypatch) -> list[int]:
    calls = [0]
    real = yaml.safe_load

    def counting(stream):
        calls[0] += 1
        return real(stream)

    monkeypatch.setattr(yaml, "safe_load", counting)
    return calls


def test_a_second_check_parses_no_library_text_again(tmp_path: Path, monkeypatch) -> None:
    library = tmp_path / "morphisms"
    shutil.copytree(LIB, library)
    spec = sorted(SPECS.glob("*.fts"))[0]
    first = check_spec(spec, library)
    calls = _count_yaml_parses(monkeypatch)
    second = check_spec(spec, library)
    assert calls[0] == 0
    assert (second.passed, second.code) == (first.passed, first.code)
    assert second.certificate == first.certificate


def test_an_entry_edited_on_disk_is_seen_at_the_next_load(tmp_path: Path) -> None:
    library = tmp_path / "morphisms"
    shutil.copytree(LIB, library)
    before = load_library(library)
    path = sorted(library.glob("*.yaml"))[0]
    raw = yaml.safe_load(path.read_text(encoding="utf-8"))
    raw["version"] = int(raw["version"]) + 1
    path.write_text(yaml.safe_dump(raw, allow_unicode=True, sort_keys=False), encoding="utf-8")
    after = load_library(library)
    entry = str(raw["id"])
    assert after.entries[entry].version == before.entries[entry].version + 1
    assert after.digest != before.digest
    # a caller that changes what it was given does not change the next load
    after.entries[entry].raw["version"] = 999
    assert load_library(library).entries[entry].version == raw["version"]
