"""The independent re-checker: agrees with a certificate or names the first field it does not.

It shares no code with the gate beyond the grammar file, which defines the language: it builds
its own parser, walks the raw parse tree with its own interpreter (no AST, no type checker), reads
the library files itself, and computes every digest itself with ``hashlib`` and ``json``. Of the
certificate it trusts nothing; each field is recomputed from the specification text and the
library folder and compared.
"""

from __future__ import annotations

import datetime as dt
import hashlib
import itertools
import json
import random
from decimal import ROUND_HALF_UP, Decimal
from functools import cache, lru_cache
from importlib import resources
from pathlib import Path
from typing import Any

import yaml
from lark import Lark, Token, Tree

from workbench.fts._codes import GateCode
from workbench.fts._problems import Problem

_CHECKS = ["E_SYNTAX", "E_STATIC", "E_PREMISE", "E_EXAMPLE"]
_CAP, _SEED = 4096, 20260101
_Q = {"money": Decimal("0.01"), "percent": Decimal("0.01"), "number": Decimal("0.000001")}


class _Disagree(Exception):
    def __init__(self, field: str, certified: Any, recomputed: Any) -> None:
        super().__init__(field)
        self.field, self.certified, self.recomputed = field, certified, recomputed


def _sha(obj: Any) -> str:
    text = obj if isinstance(obj, str) else json.dumps(
        obj, sort_keys=True, separators=(",", ":"), ensure_ascii=False)
    return hashlib.sha256(text.encode("utf-8")).hexdigest()


@cache  # built once a process: building the LALR tables costs more than a re-check
def _own_parser() -> Lark:
    grammar = resources.files("workbench.fts").joinpath("spec.lark").read_text(encoding="utf-8")
    return Lark(grammar, parser="lalr")


def _text(text: str) -> str:
    return text.lstrip("\ufeff").replace("\r\n", "\n").replace("\r", "\n")


def _dec(token: Any) -> Decimal:
    return Decimal(str(token).replace("_", ""))


def _int(token: Token | Tree) -> int:
    return int(str(token))


def _show(kind: str, value: Any) -> str:
    if kind in _Q:
        q = value.quantize(_Q[kind], rounding=ROUND_HALF_UP)
        if kind == "money":
            return f"{'0.00' if q == 0 else format(q, 'f')} rub"
        plain = format(q.normalize(), "f")
        plain = "0" if plain in ("-0", "") else plain
        return f"{plain} %" if kind == "percent" else plain
    if kind == "bool":
        return "yes" if value else "no"
    if kind == "date":
        return value.isoformat()
    return str(value)


class _Program:
    """The parts of one parse tree the re-checker needs, read straight from the tree."""

    def __init__(self, tree: Tree) -> None:
        header = tree.children[0]
        self.id = ".".join(str(t) for t in header.children[0].children)
        self.version = 1
        for child in header.children[1:]:
            if child.data == "version":
                self.version = _int(child.children[0])
        self.premises: list[tuple[str, str, int | None]] = []
        self.enums: dict[str, list[str]] = {}
        self.inputs: list[tuple[str, str]] = []
        self.defs: dict[str, tuple[str, Tree]] = {}
        self.output: tuple[str, str, list[Tree]] = ("", "", [])
        self.examples: list[tuple[str, bool, list[tuple[str, Any]], Any]] = []
        self.props: list[tuple[str, Any]] = []
        counts = {True: 0, False: 0}
        for item in tree.children[1:]:
            kind, ch = item.data, item.children
            if kind == "premise":
                ref = ".".join(str(t) for t in ch[1].children)
                wanted = _int(ch[2].children[0]) if len(ch) > 2 else None
                self.premises.append((str(ch[0]), ref, wanted))
            elif kind == "type_decl":
                self.enums[str(ch[0])] = [str(t) for t in ch[1:]]
            elif kind == "input_decl":
                self.inputs.append((str(ch[0]), str(ch[1])))
            elif kind == "define":
                self.defs[str(ch[0])] = (str(ch[1]), ch[2])
            elif kind == "output":
                self.output = (str(ch[0]), str(ch[1]), list(ch[2:]))
            elif kind in ("example", "boundary"):
                is_b = kind == "boundary"
                counts[is_b] += 1
                label = str(ch[0])[1:-1] if isinstance(ch[0], Token) else ""
                rest = ch[1:] if isinstance(ch[0], Token) else ch
                label = label or f"{kind} {counts[is_b]}"
                binds = [(str(b.children[0]), b.children[1]) for b in rest[0].children]
                self.examples.append((label, is_b, binds, rest[1]))
            elif kind == "property":
                if isinstance(ch[0], Token):
                    self.props.append((str(ch[0])[1:-1], ch[1]))
                else:
                    self.props.append(("", ch[0]))
        self.props = [(label or f"property {i}", e) for i, (label, e) in enumerate(self.props, 1)]
        self.members = {m for ms in self.enums.values() for m in ms}
        self.types = dict(self.inputs)
        self.types.update({k: v[0] for k, v in self.defs.items()})
        self.types[self.output[0]] = self.output[1]


class _Run:
    """One evaluation of a program for one assignment of inputs; values are ``(kind, value)``."""

    def __init__(self, program: _Program, inputs: dict[str, tuple[str, Any]]) -> None:
        self.p, self.env = program, dict(inputs)
        self.memo: dict[str, tuple[str, Any]] = {}
        self.out: tuple[str, Any] | None = None

    def literal(self, node: Any) -> tuple[str, Any]:
        d = node.data
        if d == "date_lit":
            return ("date", dt.date.fromisoformat(str(node.children[0])))
        if d in ("percent_lit", "money_lit", "number_lit"):
            return (d.split("_")[0], _dec(node.children[0]))
        if d in ("neg_percent", "neg_money", "neg_number"):
            return (d.split("_")[1], -_dec(node.children[0]))
        if d == "yes_lit":
            return ("bool", True)
        if d == "no_lit":
            return ("bool", False)
        return ("member", str(node.children[0]))

    def name(self, name: str, want: str | None = None) -> tuple[str, Any]:
        if want in self.p.enums and name in self.p.enums[want]:
            return ("member", name)
        if name in self.env:
            return self.env[name]
        if name in self.p.defs:
            if name not in self.memo:
                type_name, expr = self.p.defs[name]
                self.memo[name] = self.ev(expr, type_name)
            return self.memo[name]
        if name == self.p.output[0] and self.out is not None:
            return self.out
        return ("member", name)

    def ev(self, node: Any, want: str | None = None) -> tuple[str, Any]:
        d = node.data
        ch = node.children
        if d == "var":
            return self.name(str(ch[0]), want)
        if d in ("and_", "or_", "implies"):
            a = self.ev(ch[0])[1]
            if d == "and_":
                return ("bool", bool(a) and bool(self.ev(ch[1])[1]))
            if d == "or_":
                return ("bool", bool(a) or bool(self.ev(ch[1])[1]))
            return ("bool", (not a) or bool(self.ev(ch[1])[1]))
        if d == "not_":
            return ("bool", not self.ev(ch[0])[1])
        if d == "neg":
            k, v = self.ev(ch[0])
            return (k, -v)
        if d in ("add", "sub", "mul", "div"):
            (ka, a), (kb, b) = self.ev(ch[0]), self.ev(ch[1])
            return self.arith(d, ka, a, kb, b)
        if d == "compare":
            op = str(ch[1].children[0])
            left_t = self._static_type(ch[0])
            right_t = self._static_type(ch[2])
            a = self.ev(ch[0], right_t)[1]
            b = self.ev(ch[2], left_t)[1]
            return ("bool", {"=": a == b, "!=": a != b}.get(op) if op in ("=", "!=") else
                    {"<": lambda: a < b, "<=": lambda: a <= b, ">": lambda: a > b,
                     ">=": lambda: a >= b}[op]())
        if d in ("member_of", "not_member_of"):
            v = self.ev(ch[0])[1]
            inside = v in [str(t) for t in ch[1].children]
            return ("bool", inside if d == "member_of" else not inside)
        return self.literal(node)

    def _static_type(self, node: Any) -> str | None:
        if node.data == "var" and str(node.children[0]) in self.p.types:
            return self.p.types[str(node.children[0])]
        return None

    @staticmethod
    def arith(op: str, ka: str, a: Decimal, kb: str, b: Decimal) -> tuple[str, Any]:
        if op in ("add", "sub"):
            return (ka, a + b if op == "add" else a - b)
        if op == "mul":
            if "percent" in (ka, kb) and "money" in (ka, kb):
                return ("money", a * b / 100)
            kind = ("money" if "money" in (ka, kb)
                    else "percent" if "percent" in (ka, kb) else "number")
            return (kind, a * b)
        if ka == kb:
            return ("number", a / b)
        return (ka, a / b)

    def conclusion(self) -> tuple[tuple[str, Any], int]:
        name, type_name, cases = self.p.output
        for index, case in enumerate(cases, start=1):
            if case.data == "otherwise_case" or self.ev(case.children[0])[1]:
                result = case.children[0 if case.data == "otherwise_case" else 1]
                return self.ev(result, type_name), index
        raise LookupError("no case applies")


def _domain(p: _Program) -> tuple[list[str], list[list[tuple[str, Any]]]]:
    inputs = dict(p.inputs)
    consts: dict[str, list[Any]] = {}
    trees = [t for _, t in p.defs.values()] + [t for _, t in p.props]
    trees += [c.children[0] for c in p.output[2] if c.data == "when_case"]
    for tree in trees:
        for node in tree.iter_subtrees():
            if node.data != "compare":
                continue
            left, right = node.children[0], node.children[2]
            for a, b in ((left, right), (right, left)):
                if (isinstance(a, Tree) and a.data == "var" and str(a.children[0]) in inputs
                        and isinstance(b, Tree)
                        and b.data in ("date_lit", "percent_lit", "money_lit", "number_lit")):
                    consts.setdefault(str(a.children[0]), []).append(_Run(p, {}).literal(b)[1])
    for _, _, binds, _ in p.examples:
        for name, node in binds:
            kind, value = _Run(p, {}).literal(node)
            if kind in ("date", "money", "number", "percent"):
                consts.setdefault(name, []).append(value)
    names: list[str] = []
    values: list[list[tuple[str, Any]]] = []
    defaults: dict[str, list[dt.date | Decimal]] = {"date": [dt.date(2025, 6, 30), dt.date(2026, 6, 30)],
                "money": [Decimal(0), Decimal(1000), Decimal("123456.78")],
                "number": [Decimal(0), Decimal(1), Decimal(10)],
                "percent": [Decimal(0), Decimal(10), Decimal(22)]}
    for name, type_name in p.inputs:
        names.append(name)
        if type_name == "bool":
            values.append([("bool", False), ("bool", True)])
            continue
        if type_name in p.enums:
            values.append([("member", m) for m in p.enums[type_name]])
            continue
        cs = sorted(set(consts.get(name, [])))
        if not cs:
            values.append([(type_name, v) for v in defaults[type_name]])
            continue
        step: Any = dt.timedelta(days=1) if type_name == "date" else (
            Decimal("0.01") if type_name == "money" else Decimal(1))
        pts = {x for c in cs for x in (c - step, c, c + step)}
        for a, b in zip(cs, cs[1:], strict=False):
            pts.add(a + (b - a) // 2 if type_name == "date" else (a + b) / 2)
        values.append([(type_name, v) for v in sorted(pts)])
    return names, values


def _points(names: list[str], values: list[list[Any]]) -> tuple[list[dict[str, Any]], int, bool]:
    size = 1
    for v in values:
        size *= len(v)
    if size <= _CAP:
        return [dict(zip(names, c, strict=True)) for c in itertools.product(*values)], size, False
    out = []
    for index in sorted(random.Random(_SEED).sample(range(size), _CAP)):
        combo = []
        for vals in reversed(values):
            index, pos = divmod(index, len(vals))
            combo.append(vals[pos])
        out.append(dict(zip(names, reversed(combo), strict=True)))
    return out, size, True


@lru_cache(maxsize=4096)
def _entry(text: str) -> tuple[str, int, str, str]:
    """Id, version, status and digest of one entry's text (parsed once per distinct text)."""
    raw = yaml.safe_load(text)
    body = {k: v for k, v in raw.items() if k != "digest"}
    return str(raw["id"]), int(raw["version"]), str(raw["status"]), _sha(body)


def _library(folder: Path) -> dict[str, dict[str, Any]]:
    out = {}
    for path in sorted(folder.glob("*.yaml")):
        # every file is read now; only the parse of a text seen before is skipped
        entry_id, version, status, digest = _entry(path.read_text(encoding="utf-8"))
        out[entry_id] = {"version": version, "status": status, "digest": digest}
    return out


def _same(field: str, certified: Any, recomputed: Any) -> None:
    if certified != recomputed:
        raise _Disagree(field, certified, recomputed)


def _compare(cert: dict[str, Any], text: str, library_dir: Path) -> None:
    text = _text(text)
    _same("format", cert.get("format"), "fts-certificate/1")
    _same("language", cert.get("language"), "fts/1")
    _same("spec_digest", cert.get("spec_digest"), _sha(text))
    program = _Program(_own_parser().parse(text))
    _same("spec_id", cert.get("spec_id"), program.id)
    _same("spec_version", cert.get("spec_version"), program.version)
    library = _library(library_dir)
    premises = []
    for alias, ref, _wanted in program.premises:
        entry = library.get(ref, {"version": None, "digest": None, "status": None})
        if entry["status"] not in ("verified", "derived"):
            raise _Disagree("premises", ref, f"status {entry['status']}")
        premises.append({"alias": alias, "id": ref, "version": entry["version"],
                         "digest": entry["digest"], "status": entry["status"]})
    _same("premises", cert.get("premises"), premises)
    lib_digest = _sha([[k, v["version"], v["digest"]] for k, v in sorted(library.items())])
    _same("library_digest", cert.get("library_digest"), lib_digest)
    _same("checks", cert.get("checks"), _CHECKS)
    examples = []
    for label, is_b, binds, expected in program.examples:
        order = [n for n, _ in program.inputs]
        env = {n: _Run(program, {}).literal(node) for n, node in binds}
        (kind, value), case = _Run(program, env).conclusion()
        exp_kind, exp_value = _Run(program, {}).literal(expected)
        shown = _show(kind if kind != "member" else "member", value)
        wanted = _show(exp_kind, exp_value)
        if shown != wanted:
            raise _Disagree("examples", label, f"computed {shown}, expected {wanted}")
        examples.append({"label": label, "boundary": is_b,
                         "inputs": [[n, _show(*env[n])] for n in order if n in env],
                         "expected": wanted, "actual": shown, "case": case})
    _same("examples", cert.get("examples"), examples)
    names, values = _domain(program)
    points, size, sampled = _points(names, values)
    digest = _sha([[_show(*pt[n]) for n in names] for pt in points])
    props = []
    for label, expr in program.props:
        for pt in points:
            run = _Run(program, pt)
            run.out = run.conclusion()[0]
            if not run.ev(expr)[1]:
                raise _Disagree("properties", label, "does not hold at "
                                + ", ".join(f"{n}={_show(*pt[n])}" for n in names))
        props.append({"label": label, "points": len(points), "domain_size": size,
                      "domain_digest": digest, "sampled": sampled,
                      "seed": _SEED if sampled else None, "held": True})
    _same("properties", cert.get("properties"), props)
    body = {k: v for k, v in cert.items() if k not in ("digest", "created_at")}
    _same("digest", cert.get("digest"), _sha(body))


def recheck(certificate: dict[str, Any], spec_text: str, library_dir: str | Path) -> list[Problem]:
    """Re-derive ``certificate`` from the specification text and the library folder.

    Returns an empty list when every field agrees, else one ``E_RECHECK`` problem naming the
    first field that differs, the certified value and the recomputed one.
    """
    try:
        _compare(dict(certificate), spec_text, Path(library_dir))
    except _Disagree as exc:
        return [Problem(GateCode.E_RECHECK, "recheck_differs", {
            "field": exc.field, "certified": _short(exc.certified),
            "recomputed": _short(exc.recomputed)})]
    except Exception as exc:  # noqa: BLE001 - any failure to re-derive is a disagreement
        return [Problem(GateCode.E_RECHECK, "recheck_differs", {
            "field": "(re-derivation)", "certified": "-",
            "recomputed": f"{type(exc).__name__}: {_short(str(exc))}"})]
    return []


def _short(value: Any) -> str:
    text = value if isinstance(value, str) else json.dumps(value, ensure_ascii=False, default=str)
    return text if len(text) <= 80 else text[:77] + "..."


__all__ = ["recheck"]
