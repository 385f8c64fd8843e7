"""The premise check (gate code ``E_PREMISE``): every premise is a usable library entry."""

from __future__ import annotations

from workbench.fts._ast import Spec
from workbench.fts._codes import GateCode
from workbench.fts._library import PREMISE_STATUSES, Library
from workbench.fts._problems import Problem

_P = GateCode.E_PREMISE


def check_premises(spec: Spec, library: Library) -> list[Problem]:
    """Problems with the premises of ``spec`` against ``library`` (empty when all may serve).

    A premise must exist, have the version the specification names (if it names one), have a
    status that allows it to be a premise, and type every fact the specification also declares
    (an input, a definition or the output) with the same type.
    """
    problems: list[Problem] = []
    declared = {i.name: i.type_name for i in spec.inputs}
    declared.update({d.name: d.type_name for d in spec.defines})
    declared.update({o.name: o.type_name for o in spec.outputs})
    for p in spec.premises:
        entry = library.entries.get(p.ref)
        where = {"premise": p.alias, "entry": p.ref}
        if entry is None:
            problems.append(Problem(_P, "premise_unknown", where, p.line, p.column))
            continue
        if entry.status not in PREMISE_STATUSES:
            review = entry.raw.get("review") or entry.raw.get("proposal") or {}
            problems.append(Problem(_P, "premise_status", {
                **where, "status": entry.status,
                "reviewer": review.get("reviewer") or review.get("proposed_by") or "(none)",
                "date": review.get("date") or "(none)"}, p.line, p.column))
            continue
        if p.version is not None and p.version != entry.version:
            problems.append(Problem(_P, "premise_version", {
                **where, "wanted": p.version, "found": entry.version}, p.line, p.column))
            continue
        facts = {**entry.signature.given, **entry.signature.yields}
        for name, type_name in facts.items():
            if name in declared and declared[name] != type_name:
                problems.append(Problem(_P, "premise_signature", {
                    **where, "name": name, "library_type": type_name,
                    "spec_type": declared[name]}, p.line, p.column))
                break
    return problems


__all__ = ["check_premises"]
