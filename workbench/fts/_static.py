"""Static semantics of a parsed specification: names, types and units (gate code ``E_STATIC``).

The checker walks declarations in written order and collects every problem it finds; the gate
reports the first one and how many there were. A name inside an expression is an enum member
when the other side of the comparison (or the declared type of the place) is an enum listing it,
otherwise a variable: this is what lets a specification write ``kind = export``.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from workbench.fts._ast import (
    BUILTIN_TYPES,
    UNITS,
    Binary,
    Compare,
    Define,
    Expr,
    Input,
    Literal,
    MemberOf,
    Output,
    Spec,
    Unary,
    Var,
    names_in,
)
from workbench.fts._codes import GateCode
from workbench.fts._problems import Problem
from workbench.fts._values import ARITHMETIC, NUMERIC, ORDERED

_S = GateCode.E_STATIC


class _Stop(Exception):
    """Ends the typing of one expression after its first problem."""


def _unit(type_name: str) -> str:
    unit = UNITS.get(type_name, "")
    return f"{type_name} ({unit})" if unit else type_name


@dataclass
class Scope:
    """What names mean inside one specification."""

    enums: dict[str, tuple[str, ...]] = field(default_factory=dict)
    """Enum type name -> members."""
    variables: dict[str, str] = field(default_factory=dict)
    """Input or definition name -> type name."""
    problems: list[Problem] = field(default_factory=list)
    """Problems found so far."""

    def add(self, key: str, node: object, **params: object) -> None:
        """Record a problem located at ``node``."""
        self.problems.append(
            Problem(_S, key, dict(params), getattr(node, "line", 0), getattr(node, "column", 0))
        )

    def known_type(self, name: str) -> bool:
        """Whether ``name`` is a built-in or declared type."""
        return name in BUILTIN_TYPES or name in self.enums

    def member_type(self, name: str) -> str | None:
        """The enum that lists ``name`` when exactly one does."""
        owners = [t for t, members in self.enums.items() if name in members]
        return owners[0] if len(owners) == 1 else None

    def type_of(self, expr: Expr, expect: str | None = None) -> str:
        """The type of ``expr``; records a problem and raises ``_Stop`` on the first one."""
        if isinstance(expr, Literal):
            if expr.kind == "member":
                return self._member(expr.value, expr, expect)
            return expr.kind
        if isinstance(expr, Var):
            if expect in self.enums and expr.name in self.enums[expect]:
                return expect
            if expr.name in self.variables:
                return self.variables[expr.name]
            return self._member(expr.name, expr, expect)
        if isinstance(expr, Unary):
            inner = self.type_of(expr.operand)
            if expr.op == "not":
                if inner != "bool":
                    self.add("not_boolean", expr, found=_unit(inner))
                    raise _Stop
                return "bool"
            if inner not in NUMERIC:
                self.add("arithmetic_units", expr, op="-", left=_unit(inner), right="")
                raise _Stop
            return inner
        if isinstance(expr, Binary):
            if expr.op in ("and", "or", "implies"):
                for side in (expr.left, expr.right):
                    found = self.type_of(side)
                    if found != "bool":
                        self.add("not_boolean", side, found=_unit(found))
                        raise _Stop
                return "bool"
            left, right = self.type_of(expr.left), self.type_of(expr.right)
            rule = ARITHMETIC.get((expr.op, left, right))
            if rule is None:
                self.add("arithmetic_units", expr, op=expr.op, left=_unit(left), right=_unit(right))
                raise _Stop
            return rule[0]
        if isinstance(expr, Compare):
            return self._compare(expr)
        if isinstance(expr, MemberOf):
            found = self.type_of(expr.operand)
            if found not in self.enums:
                self.add("set_on_non_enum", expr, found=_unit(found))
                raise _Stop
            for member in expr.members:
                if member not in self.enums[found]:
                    self.add("unknown_member", expr, member=member, type=found,
                             members=", ".join(self.enums[found]))
                    raise _Stop
            return "bool"
        raise _Stop  # pragma: no cover - the AST has no other node

    def _member(self, name: str, node: object, expect: str | None) -> str:
        if expect in self.enums:
            if name in self.enums[expect]:
                return expect
            self.add("unknown_member", node, member=name, type=expect,
                     members=", ".join(self.enums[expect]))
            raise _Stop
        owner = self.member_type(name)
        if owner is not None:
            return owner
        self.add("unknown_name", node, name=name)
        raise _Stop

    def _bare(self, expr: Expr) -> bool:
        return isinstance(expr, Var) and expr.name not in self.variables

    def _compare(self, expr: Compare) -> str:
        if self._bare(expr.left) and not self._bare(expr.right):
            right = self.type_of(expr.right)
            left = self.type_of(expr.left, right)
        else:
            left = self.type_of(expr.left)
            right = self.type_of(expr.right, left)
        if left != right:
            key = "unit_mismatch" if left in NUMERIC and right in NUMERIC else "type_mismatch"
            self.add(key, expr, left=_unit(left), right=_unit(right), op=expr.op)
            raise _Stop
        if expr.op not in ("=", "!=") and left not in ORDERED:
            self.add("unordered_comparison", expr, op=expr.op, type=_unit(left))
            raise _Stop
        return "bool"

    def expect(self, expr: Expr, wanted: str, key: str, **params: object) -> None:
        """Type ``expr`` and record ``key`` when its type is not ``wanted``."""
        try:
            found = self.type_of(expr, wanted)
        except _Stop:
            return
        if found != wanted:
            self.add(key, expr, expected=_unit(wanted), found=_unit(found), **params)


def _definition_cycle(spec: Spec) -> list[str] | None:
    """A list of definition names that form a cycle, or ``None``."""
    deps = {d.name: names_in(d.expr) & {e.name for e in spec.defines} for d in spec.defines}
    state: dict[str, int] = {}
    stack: list[str] = []

    def visit(name: str) -> list[str] | None:
        state[name] = 1
        stack.append(name)
        for nxt in sorted(deps.get(name, ())):
            if state.get(nxt) == 1:
                return stack[stack.index(nxt):] + [nxt]
            if nxt not in state:
                found = visit(nxt)
                if found:
                    return found
        stack.pop()
        state[name] = 2
        return None

    for d in spec.defines:
        if d.name not in state:
            found = visit(d.name)
            if found:
                return found
    return None


def check_static(spec: Spec) -> list[Problem]:
    """Every static problem of ``spec``, in the order of the text; empty when it is well formed."""
    scope = Scope()
    seen_types: set[str] = set()
    for t in spec.types:
        if t.name in seen_types or t.name in BUILTIN_TYPES:
            scope.add("duplicate_name", t, name=t.name)
        seen_types.add(t.name)
        dupes = sorted({m for m in t.members if t.members.count(m) > 1})
        if dupes:
            scope.add("duplicate_member", t, member=dupes[0], type=t.name)
        scope.enums[t.name] = t.members
    aliases: set[str] = set()
    for p in spec.premises:
        if p.alias in aliases:
            scope.add("duplicate_name", p, name=p.alias)
        aliases.add(p.alias)
    declared: set[str] = set()
    declarations: tuple[Input | Define | Output, ...] = (*spec.inputs, *spec.defines, *spec.outputs)
    for decl in declarations:
        if decl.name in declared:
            scope.add("duplicate_name", decl, name=decl.name)
        declared.add(decl.name)
        if not scope.known_type(decl.type_name):
            scope.add("unknown_type", decl, type=decl.type_name,
                      known=", ".join([*BUILTIN_TYPES, *scope.enums]))
    for i in spec.inputs:
        scope.variables[i.name] = i.type_name
    for d in spec.defines:
        scope.variables[d.name] = d.type_name
    if len(spec.outputs) != 1:
        node = spec.outputs[1] if len(spec.outputs) > 1 else None
        scope.add("output_count", node, count=len(spec.outputs))
    cycle = _definition_cycle(spec)
    if cycle:
        first = next(d for d in spec.defines if d.name == cycle[0])
        scope.add("definition_cycle", first, cycle=" -> ".join(cycle), name=cycle[0])
    output_names = {o.name for o in spec.outputs}
    for d in spec.defines:
        used = names_in(d.expr) & output_names
        if used:
            scope.add("output_used_early", d, name=sorted(used)[0])
        elif scope.known_type(d.type_name) and not cycle:
            scope.expect(d.expr, d.type_name, "type_mismatch_declared", name=d.name)
    for out in spec.outputs:
        otherwise_seen = False
        for case in out.cases:
            if otherwise_seen:
                scope.add("otherwise_not_last", case, case=case.index)
            if case.guard is None:
                otherwise_seen = True
            else:
                used = names_in(case.guard) & output_names
                if used:
                    scope.add("output_used_early", case, name=sorted(used)[0], case=case.index)
                elif not cycle:
                    scope.expect(case.guard, "bool", "not_boolean_guard", case=case.index)
            if not case.because:
                scope.add("no_premise_cited", case, case=case.index)
            for alias in case.because:
                if alias not in aliases:
                    scope.add("unknown_premise_alias", case, alias=alias, case=case.index,
                              known=", ".join(sorted(aliases)) or "(none)")
            if scope.known_type(out.type_name) and not cycle:
                scope.expect(case.result, out.type_name, "type_mismatch_result", case=case.index,
                             name=out.name)
    input_types = {i.name: i.type_name for i in spec.inputs}
    out_type = spec.outputs[0].type_name if len(spec.outputs) == 1 else None
    for ex in spec.examples:
        names = [name for name, _ in ex.bindings]
        for name, value in ex.bindings:
            if name not in input_types:
                scope.add("example_unknown_input", value, name=name, example=ex.label,
                          inputs=", ".join(input_types))
            elif names.count(name) > 1:
                scope.add("example_duplicate_input", value, name=name, example=ex.label)
            elif scope.known_type(input_types[name]):
                scope.expect(value, input_types[name], "example_value_type", name=name,
                             example=ex.label)
        missing = [n for n in input_types if n not in names]
        if missing:
            scope.add("example_missing_input", ex, name=missing[0], example=ex.label)
        if out_type is not None and scope.known_type(out_type):
            scope.expect(ex.expected, out_type, "example_value_type", name=spec.outputs[0].name,
                         example=ex.label)
    if out_type is not None and not cycle:
        scope.variables[spec.outputs[0].name] = out_type
        for prop in spec.properties:
            scope.expect(prop.expr, "bool", "not_boolean_property", property=prop.label)
    return scope.problems


__all__ = ["Scope", "check_static"]
