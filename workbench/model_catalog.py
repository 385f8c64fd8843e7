"""The model catalog: every model the workbench knows, what it covers, its numbers, its limits.

The catalog is ``models/catalog.yaml`` (committed). Descriptions are written by hand; the
``numbers`` of an entry are written only by the command that measured them (each entry says
which command and when), so the catalog never states a figure nobody measured.
"""

from __future__ import annotations

import os
from collections.abc import Mapping
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

import yaml

from workbench.errors import WorkbenchError

CATALOG_FILE = "catalog.yaml"


class CatalogError(WorkbenchError):
    """The catalog file is missing or malformed."""


def catalog_path(models_dir: str | os.PathLike[str]) -> Path:
    """Where the catalog of ``models_dir`` lives."""
    return Path(models_dir) / CATALOG_FILE


def load_catalog(models_dir: str | os.PathLike[str]) -> list[dict[str, Any]]:
    """The catalog's entries, in file order."""
    path = catalog_path(models_dir)
    if not path.is_file():
        raise CatalogError(f"no model catalog at {path}")
    try:
        data = yaml.safe_load(path.read_text(encoding="utf-8"))
    except yaml.YAMLError as exc:
        raise CatalogError(f"{path}: not valid YAML ({exc})") from None
    # a file that is YAML but no mapping (a Markdown page, a bare string) is no catalog either
    entries = data.get("models") if isinstance(data, dict) else None
    if not isinstance(entries, list) or not all(isinstance(e, dict) and "name" in e
                                                for e in entries):
        raise CatalogError(f"{path}: expected a 'models' list of entries with a 'name'")
    return entries


def record_numbers(models_dir: str | os.PathLike[str], name: str, numbers: Mapping[str, Any],
                   measured_by: str, when: str | None = None) -> None:
    """Replace the numbers of entry ``name`` with freshly measured ones (atomically).

    ``when`` is the date the numbers were measured (default: today).
    """
    path = catalog_path(models_dir)
    entries = load_catalog(models_dir)
    for entry in entries:
        if entry["name"] == name:
            entry["numbers"] = {k: (round(v, 4) if isinstance(v, float) else v)
                                for k, v in numbers.items()}
            entry["measured"] = f"{measured_by}, {when or datetime.now(UTC).strftime('%Y-%m-%d')}"
            break
    else:
        raise CatalogError(f"{path}: no entry named {name!r}")
    tmp = path.with_suffix(".tmp")
    tmp.write_text(yaml.safe_dump({"models": entries}, allow_unicode=True, sort_keys=False,
                                  width=100), encoding="utf-8")
    tmp.replace(path)


def format_catalog(entries: list[dict[str, Any]]) -> str:
    """The catalog as text for the terminal."""
    lines = []
    for entry in entries:
        lines.append(f"{entry['name']}  [{entry.get('kind', '?')}]")
        for key in ("source", "covers", "limits"):
            if entry.get(key):
                lines.append(f"  {key}: {' '.join(str(entry[key]).split())}")
        numbers = entry.get("numbers") or {}
        if numbers:
            lines.append("  numbers: " + ", ".join(f"{k} {v}" for k, v in numbers.items()))
            if entry.get("measured"):
                lines.append(f"  measured: {entry['measured']}")
        else:
            lines.append("  numbers: not measured yet")
        lines.append("")
    return "\n".join(lines).rstrip() + "\n"
