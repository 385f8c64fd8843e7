"""The coverage report on a small temporary dataset."""

from __future__ import annotations

import json

import pytest

from workbench.utilities import DatasetError, coverage_report, load_catalog


def test_catalog_alone_has_an_example_everywhere():
    report = coverage_report()
    assert report.without_example == ()
    assert report.catalog_utilities == len(load_catalog().schemas)
    assert report.dataset is None
    assert "without an example: 0" in report.render()


def test_dataset_coverage(tmp_path):
    rows = [
        {"question": "sha256 of abc", "utility": "hash.sha256", "args": {"text": "abc"}},
        {"question": "md5 of x", "gold": {"source": "utility", "utility": "hash.md5"}},
        {"question": "what is VAT", "gold": {"source": "quote"}},
        {"question": "old id", "utility": "hash.sha0"},
        {"question": "sha256 again", "utility": "hash.sha256"},
    ]
    path = tmp_path / "router.jsonl"
    path.write_text("\n".join(json.dumps(r) for r in rows) + "\n\nnot json\n[1]\n",
                    encoding="utf-8")
    report = coverage_report(path)
    n = len(load_catalog().schemas)
    assert report.dataset_lines == 7
    assert report.unreadable_lines == 2
    assert report.utility_lines == 4
    assert report.dataset_utilities == 2
    assert report.unknown_in_dataset == ("hash.sha0",)
    assert len(report.without_training) == n - 2
    assert "hash.sha256" not in report.without_training
    assert report.lines_per_utility["hash.sha256"] == 2
    text = report.render()
    assert f"catalog {n} utilities | dataset 2 utilities" in text
    assert "unknown id in dataset: hash.sha0" in text
    assert json.dumps(report.to_dict())


def test_missing_dataset_is_a_typed_error(tmp_path):
    with pytest.raises(DatasetError):
        coverage_report(tmp_path / "absent.jsonl")
