"""The morphism library: entries, their statuses, digests, typed composition and integrity.

A library is a folder of entry files (``*.yaml``, one entry each) and a manifest
``library.json`` holding the number of entries and the library digest. An entry's digest is the
sha256 of the canonical JSON of the entry without its ``digest`` field; the library digest is the
sha256 of the canonical JSON of the sorted ``(id, version, digest)`` list, computed from the
entries as they are now. A signature is a typed morphism: the facts it is ``given`` (name ->
type) and the facts it ``yields``.

Statuses: ``verified`` (a person reviewed it against a source: reviewer, date and source are
required), ``derived`` (composed of verified entries, in order; the composition must
type-check), ``proposed`` (not reviewed yet) and ``rejected`` (a person reviewed it and did not
accept it). Only ``verified`` and ``derived`` entries may be premises.
"""

from __future__ import annotations

import copy
import enum
import json
import shutil
from collections import Counter
from collections.abc import Mapping
from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path
from typing import Any

import yaml

from workbench.fts._canonical import digest_of
from workbench.fts._codes import GateCode
from workbench.fts._problems import LibraryError, Problem

MANIFEST = "library.json"
"""The manifest's file name inside a library folder."""
LIBRARY_FORMAT = "fts-library/1"
"""The manifest's format tag."""


class Status(enum.StrEnum):
    """The review status of a library entry."""

    VERIFIED = "verified"
    """Reviewed by a person against a cited source; may be a premise."""
    DERIVED = "derived"
    """Composed of verified entries by typed composition; may be a premise."""
    PROPOSED = "proposed"
    """Written down but not reviewed; may not be a premise."""
    REJECTED = "rejected"
    """Reviewed by a person and not accepted; may not be a premise."""


PREMISE_STATUSES: frozenset[str] = frozenset({Status.VERIFIED, Status.DERIVED})
"""Statuses that allow an entry to serve as a premise."""
_REQUIRED = ("id", "version", "status", "signature", "statement")


@dataclass(frozen=True)
class Signature:
    """A typed morphism: what an entry is given and what it yields."""

    given: Mapping[str, str]
    """Fact name -> type name of the conditions."""
    yields: Mapping[str, str]
    """Fact name -> type name of the conclusions."""

    def render(self) -> str:
        """``a: t, b: u -> c: v``."""
        def side(m: Mapping[str, str]) -> str:
            return ", ".join(f"{k}: {v}" for k, v in m.items())
        return f"{side(self.given)} -> {side(self.yields)}"


@dataclass(frozen=True)
class Entry:
    """One library entry as read from its file."""

    id: str
    """The dotted id specifications cite."""
    version: int
    """Raised whenever the statement or signature changes."""
    status: str
    """A :class:`Status` value."""
    signature: Signature
    """The typed morphism."""
    statement: Mapping[str, str]
    """The statement in Russian (``ru``) and English (``en``)."""
    stored_digest: str
    """The digest written in the file."""
    computed_digest: str
    """The digest of the entry as it is now."""
    raw: Mapping[str, Any]
    """Every field as read (source, review, composition...)."""
    path: str
    """The file name inside the library folder."""

    @property
    def composed_of(self) -> tuple[str, ...]:
        """For a derived entry, the ids it is composed of, in order."""
        return tuple(self.raw.get("composed_of") or ())


@dataclass(frozen=True)
class Library:
    """A loaded library."""

    root: str
    """The folder it was read from."""
    entries: Mapping[str, Entry]
    """Id -> entry."""
    manifest: Mapping[str, Any] | None
    """The parsed manifest (``None`` when it is missing)."""
    digest: str
    """The library digest computed from the entries as they are now."""
    duplicates: tuple[str, ...] = ()
    """Ids that occur in more than one file."""

    def counts(self) -> dict[str, int]:
        """Entries per status, every status listed."""
        c = Counter(e.status for e in self.entries.values())
        return {s.value: c.get(s.value, 0) for s in Status}

    def area(self) -> str:
        """The refusal area naming this library."""
        return f"morphism library ({len(self.entries)} entries, digest {self.digest[:12]})"


def entry_digest(raw: Mapping[str, Any]) -> str:
    """The digest of an entry: canonical JSON of every field except ``digest``."""
    return digest_of({k: v for k, v in raw.items() if k != "digest"})


def library_digest(entries: Mapping[str, Entry]) -> str:
    """The library digest over ``(id, version, computed digest)`` of every entry."""
    return digest_of([[e.id, e.version, e.computed_digest] for _, e in sorted(entries.items())])


@lru_cache(maxsize=4096)
def _parse(text: str) -> Any:
    """The YAML of an entry's text, parsed once per distinct text (callers get a deep copy)."""
    return yaml.safe_load(text)


def _read_entry(path: Path) -> dict[str, Any]:
    try:
        # every file is read now; only the parse of a text seen before is skipped
        raw = copy.deepcopy(_parse(path.read_text(encoding="utf-8")))
    except (OSError, UnicodeDecodeError, yaml.YAMLError) as exc:
        raise LibraryError(f"{path.name}: cannot be read as YAML ({exc})") from exc
    if not isinstance(raw, dict):
        raise LibraryError(f"{path.name}: an entry must be a mapping")
    missing = [k for k in _REQUIRED if k not in raw]
    if missing:
        raise LibraryError(f"{path.name}: missing field(s) {', '.join(missing)}")
    sig = raw["signature"]
    if not isinstance(sig, dict) or not isinstance(sig.get("given"), dict) or not isinstance(
        sig.get("yields"), dict
    ):
        raise LibraryError(f"{path.name}: signature needs 'given' and 'yields' mappings")
    try:
        digest_of(raw)  # dates left unquoted by hand would not serialise: say so here
    except (TypeError, ValueError) as exc:
        raise LibraryError(
            f"{path.name}: a value is not plain JSON data ({exc}); quote dates") from exc
    return raw


def load_library(root: str | Path) -> Library:
    """Read every entry of the library at ``root`` (integrity is checked by :func:`verify`)."""
    folder = Path(root)
    if not folder.is_dir():
        raise LibraryError(f"morphism library folder {folder} does not exist")
    entries: dict[str, Entry] = {}
    duplicates: list[str] = []
    for path in sorted(folder.glob("*.yaml")):
        raw = _read_entry(path)
        sig = raw["signature"]
        entry = Entry(
            id=str(raw["id"]),
            version=int(raw["version"]),
            status=str(raw["status"]),
            signature=Signature(
                {str(k): str(v) for k, v in sig["given"].items()},
                {str(k): str(v) for k, v in sig["yields"].items()},
            ),
            statement={str(k): str(v) for k, v in dict(raw["statement"]).items()},
            stored_digest=str(raw.get("digest", "")),
            computed_digest=entry_digest(raw),
            raw=raw,
            path=path.name,
        )
        if entry.id in entries:
            duplicates.append(entry.id)
        entries[entry.id] = entry
    manifest = None
    if (folder / MANIFEST).is_file():
        try:
            manifest = json.loads((folder / MANIFEST).read_text(encoding="utf-8"))
        except (OSError, ValueError) as exc:
            raise LibraryError(f"{MANIFEST}: cannot be read as JSON ({exc})") from exc
        if not isinstance(manifest, dict):
            raise LibraryError(f"{MANIFEST}: must be a JSON object")
    return Library(str(folder), entries, manifest, library_digest(entries), tuple(duplicates))


def compose(signatures: list[Signature]) -> tuple[Signature | None, str]:
    """Compose signatures left to right; returns the result, or ``None`` and the reason.

    ``f: A -> B`` then ``g: C -> D`` composes when every fact of ``B`` that ``g`` is given has the
    same type in both, and ``B`` feeds ``g`` at least one fact; the composite is given ``A`` plus
    whatever ``g`` needs beyond ``B``, and yields ``D``.
    """
    if not signatures:
        return None, "nothing to compose"
    current = signatures[0]
    for n, nxt in enumerate(signatures[1:], start=2):
        shared = set(current.yields) & set(nxt.given)
        if not shared:
            return None, f"step {n} is given none of the facts step {n - 1} yields"
        for name in sorted(shared):
            if current.yields[name] != nxt.given[name]:
                return None, (f"{name} is yielded as {current.yields[name]} "
                              f"but step {n} is given {nxt.given[name]}")
        given = dict(current.given)
        for name, type_name in nxt.given.items():
            if name not in shared:
                if name in given and given[name] != type_name:
                    return None, f"{name} is given as {given[name]} and as {type_name}"
                given[name] = type_name
        current = Signature(given, dict(nxt.yields))
    return current, ""


def verify(library: Library) -> list[Problem]:
    """Every integrity problem of ``library`` (empty when it is intact)."""
    lib = GateCode.E_LIBRARY
    problems: list[Problem] = []
    for dup in library.duplicates:
        problems.append(Problem(lib, "library_duplicate", {"entry": dup}))
    for entry in sorted(library.entries.values(), key=lambda e: e.id):
        if entry.status not in {s.value for s in Status}:
            problems.append(Problem(lib, "library_status",
                                    {"entry": entry.id, "status": entry.status}))
        if entry.stored_digest != entry.computed_digest:
            problems.append(Problem(lib, "library_entry_digest", {
                "entry": entry.id, "stored": entry.stored_digest[:12] or "(none)",
                "computed": entry.computed_digest[:12]}))
        review = entry.raw.get("review") or {}
        needed: list[str] = []
        if entry.status in (Status.VERIFIED, Status.REJECTED):
            needed = [k for k in ("reviewer", "date") if not review.get(k)]
            if entry.status == Status.VERIFIED and not entry.raw.get("source"):
                needed.append("source")
        if needed:
            problems.append(Problem(lib, "library_review_missing",
                                    {"entry": entry.id, "field": ", ".join(needed)}))
        if entry.status == Status.DERIVED:
            problems.extend(_check_derived(library, entry))
    manifest = library.manifest or {}
    stored = str(manifest.get("digest", ""))
    if stored != library.digest or manifest.get("entries") != len(library.entries):
        problems.append(Problem(lib, "library_digest", {
            "stored": stored[:12] or "(none)", "computed": library.digest[:12],
            "entries": len(library.entries)}))
    return problems


def _check_derived(library: Library, entry: Entry) -> list[Problem]:
    lib = GateCode.E_LIBRARY
    parts = entry.composed_of
    if len(parts) < 2:
        return [Problem(lib, "library_composition",
                        {"entry": entry.id, "reason": "a derived entry names at least two parts"})]
    sigs = []
    for part in parts:
        other = library.entries.get(part)
        if other is None:
            return [Problem(lib, "library_composition",
                            {"entry": entry.id, "reason": f"part {part} is not in the library"})]
        if other.status != Status.VERIFIED:
            return [Problem(lib, "library_composition", {
                "entry": entry.id, "reason": f"part {part} is {other.status}, not verified"})]
        sigs.append(other.signature)
    composite, reason = compose(sigs)
    if composite is None:
        return [Problem(lib, "library_composition", {"entry": entry.id, "reason": reason})]
    if dict(composite.given) != dict(entry.signature.given) or dict(composite.yields) != dict(
        entry.signature.yields
    ):
        return [Problem(lib, "library_composition", {
            "entry": entry.id,
            "reason": f"the parts compose to {composite.render()}, "
                      f"the entry declares {entry.signature.render()}"})]
    return []


def _dump(raw: Mapping[str, Any]) -> str:
    return yaml.safe_dump(dict(raw), allow_unicode=True, sort_keys=False, width=96)


def seal(root: str | Path) -> Library:
    """Write every entry's digest into its file and the library digest into the manifest.

    This is what a reviewer runs after changing an entry; it does not review anything.
    """
    folder = Path(root)
    for path in sorted(folder.glob("*.yaml")):
        raw = _read_entry(path)
        raw.pop("digest", None)
        raw["digest"] = entry_digest(raw)
        path.write_text(_dump(raw), encoding="utf-8")
    library = load_library(folder)
    manifest = {"format": LIBRARY_FORMAT, "entries": len(library.entries), "digest": library.digest}
    (folder / MANIFEST).write_text(json.dumps(manifest, indent=2) + "\n", encoding="utf-8")
    return load_library(folder)


def copy_with_status(source: str | Path, target: str | Path, entry_id: str, status: str,
                     *, reviewer: str = "scratch copy", date: str = "2026-01-01") -> Library:
    """Copy a library to ``target`` with one entry's status changed, then reseal the copy.

    Used by the export-VAT demonstration: the shipped files are never touched.
    """
    src, dst = Path(source), Path(target)
    if dst.resolve() == src.resolve():
        raise LibraryError("the scratch copy must go to another folder than the library itself")
    shutil.copytree(src, dst, dirs_exist_ok=True)
    matches = [p for p in sorted(dst.glob("*.yaml")) if _read_entry(p).get("id") == entry_id]
    if not matches:
        raise LibraryError(f"no entry {entry_id!r} in {src}")
    raw = _read_entry(matches[0])
    raw["status"] = status
    review = dict(raw.get("review") or {})
    review.update({"reviewer": reviewer, "date": date, "verdict": status})
    raw["review"] = review
    raw.setdefault("source", "scratch copy: no source")
    matches[0].write_text(_dump(raw), encoding="utf-8")
    return seal(dst)


__all__ = [
    "LIBRARY_FORMAT",
    "MANIFEST",
    "PREMISE_STATUSES",
    "Entry",
    "Library",
    "Signature",
    "Status",
    "compose",
    "copy_with_status",
    "entry_digest",
    "library_digest",
    "load_library",
    "seal",
    "verify",
]
