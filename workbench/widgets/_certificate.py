"""The certificate view: what an FTS certificate records, and whether it still holds now.

The certificate's fields are shown as recorded; whether its digest seals its body is
recomputed with :func:`workbench.fts.digest_of`, and whether the independent re-checker
(:func:`workbench.fts.recheck`) re-derives it from the specification and the library as they
are now is asked again on every refresh. Given inputs, the certified specification is evaluated
with :func:`workbench.fts.evaluate_spec`.
"""

from __future__ import annotations

import json
import os
from collections.abc import Mapping
from pathlib import Path
from typing import Any

import traitlets

from workbench.answers import CheckContext
from workbench.config import load_settings
from workbench.fts import (
    CERTIFIED_CHECKS,
    Certificate,
    Conclusion,
    FtsError,
    Spec,
    digest_of,
    evaluate_spec,
    parse,
    recheck,
)
from workbench.widgets._assets import COMMON_CSS, esm
from workbench.widgets._base import StateWidget, WidgetError, jsonable

CertificateLike = Mapping[str, Any] | Certificate | str | os.PathLike[str]
"""A certificate as JSON data, a :class:`~workbench.fts.Certificate`, or the path of its JSON."""


def load_certificate(certificate: CertificateLike) -> dict[str, Any]:
    """The JSON form of ``certificate``; a malformed record raises a :class:`WidgetError`."""
    if isinstance(certificate, Certificate):
        return certificate.to_dict()
    if isinstance(certificate, str | os.PathLike):
        path = Path(certificate)
        try:
            data = json.loads(path.read_text(encoding="utf-8"))
        except (OSError, UnicodeDecodeError, ValueError) as exc:
            raise WidgetError(f"cannot read a certificate from {path}: {exc}") from exc
    elif isinstance(certificate, Mapping):
        data = dict(certificate)
    else:
        raise WidgetError("expected a certificate: its JSON data, a Certificate or the path of its"
                          f" JSON; got {type(certificate).__name__}")
    if not isinstance(data, dict):
        raise WidgetError("a certificate is a JSON object")
    try:
        Certificate.from_dict(data)
    except FtsError as exc:
        raise WidgetError(f"not a certificate record: {exc}") from exc
    return data


def _dirs(specs_dir: str | os.PathLike[str] | None,
          library_dir: str | os.PathLike[str] | None) -> tuple[Path, Path]:
    if specs_dir is None or library_dir is None:
        paths = load_settings().paths
        specs_dir = specs_dir if specs_dir is not None else paths.specs
        library_dir = library_dir if library_dir is not None else paths.morphisms
    return Path(specs_dir), Path(library_dir)


def _conclusion(path: Path, inputs: Mapping[str, str], library: Path,
                digest: str) -> dict[str, Any]:
    try:
        outcome = evaluate_spec(path, {str(k): str(v) for k, v in inputs.items()}, library)
    except FtsError as exc:
        return {"inputs": dict(inputs), "error": str(exc)}
    if not isinstance(outcome, Conclusion):
        return {"inputs": dict(inputs),
                "error": f"the specification is not certified now ({outcome.code})"}
    return {"inputs": dict(inputs), "output": outcome.output, "value": outcome.value,
            "case": outcome.case, "premises": list(outcome.premises),
            "certificate_digest": outcome.certificate_digest,
            "same_certificate": outcome.certificate_digest == digest}


def certificate_state(certificate: CertificateLike, specs_dir: str | os.PathLike[str] | None = None,
                      library_dir: str | os.PathLike[str] | None = None,
                      inputs: Mapping[str, str] | None = None) -> dict[str, Any]:
    """What the certificate view shows, re-checked against the files as they are now.

    Args:
        certificate: The certificate (JSON data, a ``Certificate`` or the path of its JSON).
        specs_dir: Where its specification is looked up by id (default: the settings').
        library_dir: The morphism library (default: the settings').
        inputs: Input values (text) to evaluate the certified specification for.

    Returns:
        JSON-ready state: the recorded fields (checks, premises, examples with their inputs and
        conclusions, properties, digests), ``sealed`` (the digest seals the body), ``recheck``
        (whether the re-checker accepts it, or the first field it differs on), the
        specification's declared inputs, and the conclusion for ``inputs`` when given.
    """
    data = load_certificate(certificate)
    specs, library = _dirs(specs_dir, library_dir)
    body = {k: v for k, v in data.items() if k not in ("digest", "created_at")}
    digest = str(data.get("digest", ""))
    spec_id = str(data["spec_id"])
    path = CheckContext(specs_dir=specs, library_dir=library).spec_file(spec_id)
    declared: list[dict[str, str]] = []
    if path is None:
        check = {"accepted": False, "spec_path": None,
                 "message": f"no specification {spec_id!r} in {specs}"}
    else:
        text = path.read_text(encoding="utf-8")
        problems = recheck(data, text, library)
        parsed = parse(text)
        if isinstance(parsed, Spec):
            declared = [{"name": i.name, "type": i.type_name} for i in parsed.inputs]
        if problems:
            params = problems[0].params
            check = {"accepted": False, "spec_path": path.name, "field": params.get("field"),
                     "certified": params.get("certified"), "recomputed": params.get("recomputed"),
                     "message": f"the re-checker differs on {params.get('field')}: certified "
                                f"{params.get('certified')}, recomputed {params.get('recomputed')}"}
        else:
            check = {"accepted": True, "spec_path": path.name,
                     "message": "the re-checker re-derives every field"}
    recorded = [str(c) for c in data.get("checks", [])]
    examples = [{"label": e["label"], "boundary": e["boundary"],
                 "inputs": ", ".join(f"{n}={v}" for n, v in e["inputs"]),
                 "expected": e["expected"], "actual": e["actual"], "case": e["case"],
                 "ok": e["expected"] == e["actual"]} for e in data.get("examples", [])]
    conclusion = None
    if inputs:
        conclusion = (_conclusion(path, inputs, library, digest) if path is not None
                      else {"inputs": dict(inputs), "error": check["message"]})
    return jsonable({
        "spec_id": spec_id, "spec_version": data.get("spec_version"),
        "format": data.get("format"), "language": data.get("language"),
        "spec_digest": data.get("spec_digest"), "library_digest": data.get("library_digest"),
        "digest": digest, "created_at": data.get("created_at"),
        "sealed": bool(digest) and digest_of(body) == digest,
        "checks": [{"code": c, "recorded": c in recorded} for c in CERTIFIED_CHECKS]
                  + [{"code": c, "recorded": True} for c in recorded if c not in CERTIFIED_CHECKS],
        "premises": list(data.get("premises", [])),
        "examples": examples,
        "properties": list(data.get("properties", [])),
        "recheck": check,
        "declared_inputs": declared,
        "conclusion": conclusion,
    })


_JS = r"""
function yesNo(ok, yes, no) {
  return h("span", {class: "wb-badge " + (ok ? "wb-pass" : "wb-fail")}, ok ? yes : no);
}

function draw(model) {
  const st = model.get("state") || {};
  if (!st.spec_id) return banner(model);
  const frozen = isStatic(model);
  const rc = st.recheck;
  const kv = (pairs) => h("div", {class: "wb-kv"},
    pairs.map(([k, v]) => [h("span", {}, k), h("span", {class: "wb-mono"}, fmt(v))]));
  const checks = table([{key: "code", label: "gate check"},
    {key: "recorded", label: "recorded as passed", render: (r) => (r.recorded ? "pass" : "absent"),
     cls: (r) => (r.recorded ? "wb-pass" : "wb-fail")}], st.checks, {rowKey: (r) => r.code});
  const premises = table([{key: "alias"}, {key: "id"}, {key: "version", num: true},
    {key: "status"},
    {key: "digest", render: (r) => h("span", {class: "wb-mono"}, r.digest.slice(0, 16) + "…")}],
    st.premises);
  const examples = table([{key: "label"}, {key: "boundary"}, {key: "inputs"},
    {key: "expected"}, {key: "actual", label: "conclusion"}, {key: "case", num: true},
    {key: "ok", label: "", render: (r) => (r.ok ? "pass" : "fail"),
     cls: (r) => (r.ok ? "wb-pass" : "wb-fail")}],
    st.examples);
  const properties = table([{key: "label"}, {key: "points", num: true},
    {key: "domain_size", label: "domain", num: true}, {key: "sampled"}, {key: "seed"},
    {key: "held", render: (r) => (r.held ? "pass" : "fail"), cls: (r) => (r.held ? "wb-pass" : "wb-fail")}],
    st.properties);
  const given = st.conclusion ? st.conclusion.inputs : {};
  const values = {};
  const form = h("div", {class: "wb-controls"},
    st.declared_inputs.map((i) => h("label", {}, `${i.name} (${i.type}) `,
      h("input", {type: "text", name: i.name, size: 14, disabled: frozen,
        value: given[i.name] ?? "",
        oninput: (e) => { values[i.name] = e.target.value; }}))),
    h("button", {disabled: frozen || !st.declared_inputs.length, "data-action": "evaluate",
      onclick: () => {
        commit(model, {inputs: {...given, ...values}});
      }}, "evaluate"));
  const c = st.conclusion;
  const conclusion = !c ? h("div", {class: "wb-note"}, "Give every input to see the certified conclusion.")
    : c.error ? h("div", {class: "wb-error"}, c.error)
    : h("p", {class: "wb-conclusion"}, `${c.output} = `, h("b", {}, c.value),
        ` (case ${c.case}; premises ${c.premises.join(", ")}) `,
        yesNo(c.same_certificate, "carried by this certificate", "carried by another certificate"));
  return [
    banner(model),
    h("h3", {}, `Certificate of ${st.spec_id} v${st.spec_version}`),
    h("div", {class: "wb-controls"},
      yesNo(st.sealed, "digest seals the body", "digest does not seal the body"),
      yesNo(rc.accepted, "re-checker accepts", "re-checker refuses"),
      h("button", {disabled: frozen, "data-action": "recheck",
        onclick: () => commit(model, {recheck: (model.get("recheck") || 0) + 1})}, "re-check now")),
    h("div", {class: rc.accepted ? "wb-note" : "wb-error"}, rc.message),
    kv([["digest", st.digest], ["spec digest", st.spec_digest], ["library digest", st.library_digest],
        ["format", `${st.format} / ${st.language}`], ["specification", rc.spec_path]]),
    h("h4", {}, "Checks"), checks,
    h("h4", {}, "Premises"), premises,
    h("h4", {}, "Examples: inputs and conclusions"), examples,
    h("h4", {}, "Properties"), properties,
    h("h4", {}, "Evaluate for inputs"), form, conclusion,
  ];
}

function render({ model, el }) {
  return mount(model, el, draw, ["state", "error"]);
}

export default { render };
"""


class CertificateView(StateWidget):
    """An FTS certificate: checks, inputs and conclusions, digests, and the re-checker's verdict.

    Args:
        certificate: Its JSON data, a ``workbench.fts.Certificate`` or the path of its JSON.
        specs_dir: Where its specification is found by id (default: the settings').
        library_dir: The morphism library (default: the settings').
        inputs: Input values to evaluate the certified specification for (optional).
    """

    _esm = esm(_JS)
    _css = COMMON_CSS
    _inputs = ("inputs", "recheck")

    inputs = traitlets.Dict().tag(sync=True)
    """Input name -> text value to evaluate the specification for ({} for none)."""
    recheck = traitlets.Int(0).tag(sync=True)
    """Bumped by the front end to ask the re-checker again, against the files as they are now."""

    def __init__(self, certificate: CertificateLike, specs_dir: str | os.PathLike[str] | None = None,
                 library_dir: str | os.PathLike[str] | None = None,
                 inputs: Mapping[str, str] | None = None, **kwargs: Any) -> None:
        self._certificate = load_certificate(certificate)
        self._specs_dir, self._library_dir = _dirs(specs_dir, library_dir)
        super().__init__(inputs=dict(inputs or {}), **kwargs)

    def _compute(self) -> dict[str, Any]:
        return certificate_state(self._certificate, self._specs_dir, self._library_dir,
                                 self.inputs or None)


__all__ = ["CertificateView", "certificate_state", "load_certificate"]
