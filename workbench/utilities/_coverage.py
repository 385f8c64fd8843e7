"""Coverage: utilities without an example, and how a router dataset covers the catalog.

A dataset is JSON lines; a line names its utility in a top-level ``utility`` field or inside a
gold decision (any object-valued field holding ``utility``, e.g. ``{"gold": {"utility": ...}}``).
Lines without a utility (quotes, specs, refusals) are counted apart. The report puts the catalog's
count and the dataset's count side by side, so the two can never disagree silently.
"""

from __future__ import annotations

import dataclasses
import json
from collections import Counter
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from workbench.errors import WorkbenchError
from workbench.utilities._catalog import load_catalog


class DatasetError(WorkbenchError, OSError):
    """The dataset file cannot be read."""


@dataclass(frozen=True)
class CoverageReport:
    """What the catalog and a dataset cover."""

    catalog_utilities: int
    """Utilities in the catalog."""
    catalog_examples: int
    """Executable examples in the catalog."""
    without_example: tuple[str, ...]
    """Utilities with no executable example."""
    dataset: str | None = None
    """The dataset file, if one was read."""
    dataset_lines: int = 0
    """Lines read from it (blank lines skipped)."""
    utility_lines: int = 0
    """Lines that name a utility."""
    unreadable_lines: int = 0
    """Lines that are not a JSON object."""
    dataset_utilities: int = 0
    """Distinct catalog utilities the dataset trains."""
    without_training: tuple[str, ...] = ()
    """Catalog utilities with no dataset line."""
    unknown_in_dataset: tuple[str, ...] = ()
    """Ids in the dataset the catalog does not hold."""
    lines_per_utility: dict[str, int] = field(default_factory=dict)
    """Dataset lines per named id."""

    def to_dict(self) -> dict[str, Any]:
        """A JSON-ready form."""
        return {
            "catalog_utilities": self.catalog_utilities,
            "catalog_examples": self.catalog_examples,
            "without_example": list(self.without_example),
            "dataset": self.dataset,
            "dataset_lines": self.dataset_lines,
            "utility_lines": self.utility_lines,
            "unreadable_lines": self.unreadable_lines,
            "dataset_utilities": self.dataset_utilities,
            "without_training": list(self.without_training),
            "unknown_in_dataset": list(self.unknown_in_dataset),
            "lines_per_utility": dict(self.lines_per_utility),
        }

    def render(self) -> str:
        """Plain text for the CLI: both counts on one line, then each list."""
        lines = [
            f"catalog: {self.catalog_utilities} utilities, {self.catalog_examples} examples; "
            f"without an example: {len(self.without_example)}"
        ]
        lines += [f"  no example: {u}" for u in self.without_example]
        if self.dataset is not None:
            lines.append(
                f"catalog {self.catalog_utilities} utilities | dataset {self.dataset_utilities} "
                f"utilities ({self.utility_lines} of {self.dataset_lines} lines name one; "
                f"{self.unreadable_lines} unreadable)"
            )
            lines.append(
                f"without training lines: {len(self.without_training)}; "
                f"unknown to the catalog: {len(self.unknown_in_dataset)}"
            )
            lines += [f"  no training lines: {u}" for u in self.without_training]
            lines += [f"  unknown id in dataset: {u}" for u in self.unknown_in_dataset]
        return "\n".join(lines)


def _utility_of(row: dict[str, Any]) -> str | None:
    value = row.get("utility")
    if isinstance(value, str) and value:
        return value
    for nested in row.values():
        if (
            isinstance(nested, dict)
            and isinstance(nested.get("utility"), str)
            and nested["utility"]
        ):
            return str(nested["utility"])
    return None


def coverage_report(dataset: str | Path | None = None) -> CoverageReport:
    """Utilities without an example and, with a JSONL ``dataset``, its coverage of the catalog."""
    catalog = load_catalog()
    base = CoverageReport(
        catalog_utilities=len(catalog.schemas),
        catalog_examples=catalog.example_count,
        without_example=tuple(u for u, s in catalog.schemas.items() if not s.examples),
    )
    if dataset is None:
        return base
    path = Path(dataset)
    try:
        text = path.read_text(encoding="utf-8")
    except (OSError, UnicodeDecodeError) as exc:
        raise DatasetError(f"cannot read dataset {path}: {exc}") from None
    counts: Counter[str] = Counter()
    lines = unreadable = 0
    for raw in text.splitlines():
        if not raw.strip():
            continue
        lines += 1
        try:
            row = json.loads(raw)
        except json.JSONDecodeError:
            unreadable += 1
            continue
        if not isinstance(row, dict):
            unreadable += 1
            continue
        uid = _utility_of(row)
        if uid is not None:
            counts[uid] += 1
    known = set(catalog.schemas)
    return dataclasses.replace(
        base,
        dataset=str(path),
        dataset_lines=lines,
        utility_lines=sum(counts.values()),
        unreadable_lines=unreadable,
        dataset_utilities=len(known & set(counts)),
        without_training=tuple(sorted(known - set(counts))),
        unknown_in_dataset=tuple(sorted(set(counts) - known)),
        lines_per_utility=dict(sorted(counts.items())),
    )
