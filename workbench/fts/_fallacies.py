"""The structural fallacy detector: eight algorithms over a parsed specification.

Each detector takes the parsed :class:`~workbench.fts._ast.Spec` (and, where a premise's
signature matters, the library) and returns problems with an ``F_*`` code. The detector runs on
any parsed specification, also one the gate stopped; it never evaluates the truth of a premise,
only the shape of the argument.
"""

from __future__ import annotations

from collections.abc import Callable

from workbench.fts._ast import Define, Input, Output, Spec, names_in
from workbench.fts._eval import EvalError, Evaluator, domain, thresholds
from workbench.fts._fallacy_codes import FALLACY_ORDER, FallacyCode
from workbench.fts._library import Library
from workbench.fts._problems import Problem
from workbench.fts._static import _definition_cycle
from workbench.fts._values import render

F = FallacyCode


def _point_text(spec: Spec, point: dict) -> str:
    types = {i.name: i.type_name for i in spec.inputs}
    return ", ".join(f"{k}={render(types[k], v)}" for k, v in point.items())


def circular(spec: Spec, library: Library | None) -> list[Problem]:
    """A definition cycle, or the thesis among its own (transitive) foundations."""
    cycle = _definition_cycle(spec)
    if cycle:
        first = next(d for d in spec.defines if d.name == cycle[0])
        return [Problem(F.F_CIRCULAR, "circular_definition",
                        {"cycle": " -> ".join(cycle), "name": cycle[0]}, first.line, first.column)]
    if spec.establishes is None:
        return []
    for p in spec.premises:
        chain = _foundations(p.ref, library, [p.ref])
        if chain is not None and spec.establishes in chain:
            path = chain[: chain.index(spec.establishes) + 1]
            return [Problem(F.F_CIRCULAR, "circular_thesis",
                            {"premise": p.alias, "entry": spec.establishes,
                             "chain": " -> ".join(path)}, p.line, p.column)]
    return []


def _foundations(ref: str, library: Library | None, seen: list[str]) -> list[str]:
    """``ref`` followed by everything its derived entries are composed of, depth first."""
    out = [ref]
    entry = library.entries.get(ref) if library is not None else None
    if entry is not None:
        for part in entry.composed_of:
            if part not in seen:
                out += _foundations(part, library, [*seen, part])
    return out


def converse(spec: Spec, library: Library | None) -> list[Problem]:
    """A case that concludes a premise's condition from the premise's conclusion."""
    if library is None or len(spec.outputs) != 1:
        return []
    aliases = {p.alias: p.ref for p in spec.premises}
    out = spec.output
    for case in out.cases:
        if case.guard is None:
            continue
        guard_names = names_in(case.guard)
        for alias in case.because:
            entry = library.entries.get(aliases.get(alias, ""))
            if entry is None:
                continue
            taken = sorted(guard_names & set(entry.signature.yields))
            if out.name in entry.signature.given and taken:
                return [Problem(F.F_CONVERSE, "converse", {
                    "case": case.index, "premise": alias, "entry": entry.id,
                    "conclusion": taken[0], "condition": out.name}, case.line, case.column)]
    return []


def _evaluable(spec: Spec) -> bool:
    from workbench.fts._static import check_static

    return len(spec.outputs) == 1 and not check_static(spec)


def uncovered(spec: Spec, library: Library | None) -> list[Problem]:
    """A point of the input domain at which no case holds (no ``otherwise``)."""
    if not _evaluable(spec) or any(c.guard is None for c in spec.output.cases):
        return []
    dom = domain(spec)
    for point in dom.points():
        ev = Evaluator(spec, point)
        try:
            if not any(ev.value(c.guard) for c in spec.output.cases if c.guard is not None):
                return [Problem(F.F_UNCOVERED_BRANCH, "uncovered", {
                    "point": _point_text(spec, point), "points": len(dom.points()),
                    "cases": len(spec.output.cases)}, spec.output.line, spec.output.column)]
        except EvalError:
            continue
    return []


def boundary(spec: Spec, library: Library | None) -> list[Problem]:
    """A threshold in a guard or definition with no example exactly at it."""
    declared: dict[str, set] = {}
    for ex in spec.examples:
        for name, lit in ex.bindings:
            declared.setdefault(name, set()).add(lit.value)
    for name, found in thresholds(spec, include_properties=False).items():
        for value, node in found:
            if value not in declared.get(name, set()):
                types = {i.name: i.type_name for i in spec.inputs}
                from workbench.fts._values import from_literal

                kind = "date" if types.get(name) == "date" else types.get(name, "number")
                shown = render(kind, from_literal(kind, value))
                return [Problem(F.F_BOUNDARY, "boundary", {
                    "name": name, "threshold": shown, "op": node.op}, node.line, node.column)]
    return []


def name_conflation(spec: Spec, library: Library | None) -> list[Problem]:
    """One name for a thing and for a statement about a thing."""
    things: dict[str, str] = {}
    for t in spec.types:
        for m in t.members:
            things.setdefault(m, f"a member of {t.name}")
    valued: tuple[Input | Output, ...] = (*spec.inputs, *spec.outputs)
    for named in valued:
        if named.type_name != "bool":
            things.setdefault(named.name, f"a {named.type_name} value")
    statements: list[tuple[str, str, object]] = []
    declarations: tuple[Input | Define | Output, ...] = (*spec.inputs, *spec.defines, *spec.outputs)
    for decl in declarations:
        if decl.type_name == "bool":
            statements.append((decl.name, "a yes/no statement", decl))
    for p in spec.premises:
        statements.append((p.alias, "a premise", p))
    for prop in spec.properties:
        statements.append((prop.label, "a property", prop))
    for name, what, node in statements:
        if name in things:
            return [Problem(F.F_NAME_CONFLATION, "name_conflation", {
                "name": name, "thing": things[name], "statement": what},
                getattr(node, "line", 0), getattr(node, "column", 0))]
    return []


def overlapping(spec: Spec, library: Library | None) -> list[Problem]:
    """Two cases that both hold at a point and conclude differently there."""
    if not _evaluable(spec):
        return []
    guarded = [(c, c.guard) for c in spec.output.cases if c.guard is not None]
    for point in domain(spec).points():
        ev = Evaluator(spec, point)
        try:
            held = [c for c, guard in guarded if ev.value(guard)]
            if len(held) < 2:
                continue
            first = ev.result(held[0].result, spec.output.type_name)
            for other in held[1:]:
                second = ev.result(other.result, spec.output.type_name)
                if render(spec.output.type_name, first) != render(spec.output.type_name, second):
                    return [Problem(F.F_OVERLAPPING_CASES, "overlapping", {
                        "case": held[0].index, "other_case": other.index,
                        "point": _point_text(spec, point),
                        "first": render(spec.output.type_name, first),
                        "second": render(spec.output.type_name, second)},
                        other.line, other.column)]
        except EvalError:
            continue
    return []


def vacuous(spec: Spec, library: Library | None) -> list[Problem]:
    """A property that never mentions the output, or whose condition never holds."""
    if len(spec.outputs) != 1:
        return []
    out_name = spec.output.name
    for prop in spec.properties:
        if out_name not in names_in(prop.expr):
            return [Problem(F.F_VACUOUS_PROPERTY, "vacuous_unrelated",
                            {"property": prop.label, "name": out_name}, prop.line, prop.column)]
    if not _evaluable(spec):
        return []
    points = domain(spec).points()
    for prop in spec.properties:
        expr = prop.expr
        if not (hasattr(expr, "op") and getattr(expr, "op", "") == "implies"):
            continue
        condition = expr.left  # type: ignore[union-attr]
        try:
            if not any(Evaluator(spec, pt).holds(condition) for pt in points):
                return [Problem(F.F_VACUOUS_PROPERTY, "vacuous_condition",
                                {"property": prop.label, "points": len(points)},
                                prop.line, prop.column)]
        except EvalError:
            continue
    return []


def dangling(spec: Spec, library: Library | None) -> list[Problem]:
    """A declared premise that no case cites."""
    cited = {alias for o in spec.outputs for c in o.cases for alias in c.because}
    for p in spec.premises:
        if p.alias not in cited:
            return [Problem(F.F_DANGLING_PREMISE, "dangling_premise",
                            {"premise": p.alias, "entry": p.ref}, p.line, p.column)]
    return []


DETECTORS: dict[FallacyCode, Callable[[Spec, Library | None], list[Problem]]] = {
    F.F_CIRCULAR: circular,
    F.F_CONVERSE: converse,
    F.F_UNCOVERED_BRANCH: uncovered,
    F.F_BOUNDARY: boundary,
    F.F_NAME_CONFLATION: name_conflation,
    F.F_OVERLAPPING_CASES: overlapping,
    F.F_VACUOUS_PROPERTY: vacuous,
    F.F_DANGLING_PREMISE: dangling,
}
"""Code -> its algorithm, in reporting order."""


def detect_fallacies(spec: Spec, library: Library | None = None) -> list[Problem]:
    """Every fallacy found in ``spec`` (at most one per code), in :data:`FALLACY_ORDER`."""
    found: list[Problem] = []
    for code in FALLACY_ORDER:
        found.extend(DETECTORS[code](spec, library))
    return found


__all__ = ["DETECTORS", "detect_fallacies"]
