"""Router training data: seeded question/decision lines built from the catalog, specs and corpus.

Every line is ``{"question", "lang", "gold"}`` with a gold decision shaped as in
``corpus/questions/router_tasks.jsonl``. Five kinds of line are built, each by one function of
:data:`BUILDERS`: utility calls (the catalog's schemas and executable examples, with values varied
from small seeded pools and questions worded from paraphrase templates in Russian and English),
quote questions (the ``dev`` split of ``in_corpus.jsonl`` only), spec questions (the ids, inputs
and worked examples of ``corpus/specs/*.fts``), and the three refusals (out of scope, a required
argument absent, a circumstance standing where data should be).

Utility questions are worded three ways, so that a model meets more than one style: the schema's
description inside a lead-in that fits its grammar, the short names people use for a utility (the
rule router's trigger words, ``triggers`` of ``synonyms.yaml``), and the ``dev`` split of
the router task set and the red-team set, with argument values swapped where a value stands in the
question verbatim. Every utility gold is executed through :func:`workbench.utilities.call_utility`
with its question, and every refusal gold is checked the same way; a line that does not behave is
dropped and counted. No question text of the ``test`` split of either set is ever emitted, so
the test split stays unseen.

The phrasings are data, not code: the YAML files of ``routing/wording/``, read and checked once
by :func:`workbench.routing._wording.load_wording`. Spec files are read with the spec language's
own parser (:func:`workbench.fts.parse`).
"""

from __future__ import annotations

import json
import os
import random
import re
import tempfile
from collections import Counter
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from functools import cache
from pathlib import Path
from typing import Any

from workbench.config import project_root
from workbench.errors import WorkbenchError
from workbench.fts import Spec, parse
from workbench.routing._tables import triggers
from workbench.routing._wording import TaskForms, load_wording
from workbench.utilities import Catalog, UtilityCode, call_utility, load_catalog
from workbench.utilities._schema import Argument, UtilitySchema

DEFAULT_LINES = 35_000
DEFAULT_REFUSAL_SHARE = 0.238
DEFAULT_SEED = 13
RU_SHARE = 0.55
# How the answerable lines and the refusals divide among their kinds.
ANSWER_SHARES = {"utility": 0.76, "quote": 0.12, "spec": 0.12}
REFUSAL_SHARES = {"out_of_scope": 0.4, "missing_argument": 0.35, "argument_is_circumstance": 0.25}
MAX_TRIES_PER_LINE = 50
# How a utility line is worded: from a dev task, from a short name, or from the schema's description.
UTILITY_STYLES = {"dev": 0.35, "name": 0.3, "description": 0.35}
DEV_SHARE_SPEC = 0.4
"""Share of spec lines taken from the dev split of the task set instead of the spec files."""
DEV_SHARE_REFUSAL = 0.35
"""Share of refusal lines taken from the dev split of the task and red-team sets."""
TASK_SETS = ("router_tasks.jsonl", "red_team.jsonl")
TRAINING_SETS = (*TASK_SETS, "router_coverage.jsonl")
"""The sets whose ``dev`` lines train a router: the task and red-team sets, then
``router_coverage.jsonl`` (dev only: two requests for each utility the others hardly ask for)."""


class DatasetBuildError(WorkbenchError, ValueError):
    """The generator was asked for something it cannot build (bad share, missing sources)."""


def _default_specs_dir() -> Path:
    return project_root() / "corpus" / "specs"


def _default_questions_dir() -> Path:
    return project_root() / "corpus" / "questions"


@dataclass(frozen=True)
class SpecCase:
    """One worked case of a spec: its id, titles, a label and the input values."""

    spec: str
    """The spec id (``vat.rate_for_supply``)."""
    title_ru: str
    """The Russian half of the spec's title."""
    title_en: str
    """The English half of the spec's title."""
    label: str
    """The case's label as written in the spec file."""
    args: dict[str, str]
    """Every input of the spec with its value as ``spec eval --input`` accepts it."""


@dataclass(frozen=True)
class TrainingData:
    """The generated lines with what was dropped on the way."""

    rows: list[dict[str, Any]]
    """The lines, in the order they are written."""
    dropped: dict[str, int] = field(default_factory=dict)
    """Candidate lines dropped, per reason (a gold that did not execute, an overlap...)."""

    def counts(self) -> dict[str, Any]:
        """Lines per kind and per language, and the refusal share."""
        kinds = Counter(_kind_of(r["gold"]) for r in self.rows)
        langs = Counter(r["lang"] for r in self.rows)
        refusals = sum(1 for r in self.rows if r["gold"]["source"] == "refuse")
        return {
            "lines": len(self.rows),
            "kinds": dict(sorted(kinds.items())),
            "langs": dict(sorted(langs.items())),
            "refusal_share": refusals / len(self.rows) if self.rows else 0.0,
            "dropped": dict(self.dropped),
        }


def _kind_of(gold: dict[str, Any]) -> str:
    if gold["source"] == "refuse":
        return str(gold["refusal"])
    return str(gold["source"])


# ---------------------------------------------------------------------------------------------
# Utility questions: values varied from small pools, the description inside a fitting lead-in


def _vary_value(arg: Argument, value: Any, rng: random.Random) -> Any:
    """A value of the same kind as ``value`` from a small pool, or ``value`` itself."""
    if arg.choices or str(arg.role) != "data":
        return value
    if arg.type == "string" and arg.name == "text" and rng.random() < 0.6:
        return rng.choice(load_wording().utility.text_values)
    if arg.type == "string" and isinstance(value, str) and re.fullmatch(r"\d{4}-\d{2}-\d{2}", value):
        return f"{rng.randint(2019, 2027)}-{rng.randint(1, 12):02d}-{rng.randint(1, 28):02d}"
    if arg.type == "integer" and isinstance(value, int) and rng.random() < 0.5:
        top = max(2, abs(value) * 2)
        return rng.randint(1, top)
    if arg.type == "number" and isinstance(value, int | float) and rng.random() < 0.5:
        ceiling = max(2.0, abs(float(value)) * 2)
        drawn = round(rng.uniform(1, ceiling), rng.choice((0, 0, 2)))
        return int(drawn) if float(drawn).is_integer() else drawn
    return value


def _first_word(text: str) -> str:
    words = text.split()
    return words[0].casefold() if words else ""


def _is_verb(word: str, forms: TaskForms) -> bool:
    if word in forms.verbs:
        return True
    # An infinitive ending counts only after at least one more word character (``быть``, not ``ть``).
    return bool(re.fullmatch(r"\w+", word)) and any(
        word.endswith(ending) and len(word) > len(ending) for ending in forms.verb_endings
    )


def _task_form(schema: UtilitySchema, lang: str) -> str:
    """``verb``, ``whether``, ``how`` or ``noun``: which lead-ins fit the description's grammar."""
    forms = load_wording().utility.task_forms[lang]
    text = _task_text(schema, lang)
    first = _first_word(text)
    if first in forms.how:
        return "how"
    if first in forms.whether:
        return "whether"
    if _is_verb(first, forms):
        return "verb"
    if any(f" {particle} " in f" {text} " for particle in forms.whether_particles):
        return "whether"
    return "noun"


def _task_text(schema: UtilitySchema, lang: str) -> str:
    """The description without its final stop, and without a leading article when it is a noun."""
    forms = load_wording().utility.task_forms[lang]
    text = (schema.ru if lang == "ru" else schema.en).rstrip(".")
    first = _first_word(text)
    if first in forms.how or first in forms.whether or _is_verb(first, forms):
        return text
    for article in forms.articles:
        if text.startswith(f"{article} "):
            return text[len(article) + 1 :]
    return text


def _lead(schema: UtilitySchema, lang: str, rng: random.Random) -> str:
    """The utility's description inside a lead-in that fits its grammar."""
    wording = load_wording().utility
    task = _task_text(schema, lang)
    form = _task_form(schema, lang)
    leads = wording.form_leads[form] if form in wording.form_leads else wording.noun_leads[schema.category]
    return rng.choice(leads[lang]).format(task=task, Task=task[:1].upper() + task[1:])


def _render_value(arg: Argument, value: Any, lang: str, rng: random.Random) -> str:
    text = json.dumps(value, ensure_ascii=False) if isinstance(value, bool) else str(value)
    if str(arg.role) != "data":
        return text
    opening, closing = rng.choice(load_wording().utility.quote_marks[lang])
    if closing in text or "\n" in text:
        return text
    return f"{opening}{text}{closing}"


def _utility_question(schema: UtilitySchema, args: dict[str, Any], lang: str, rng: random.Random) -> str:
    head = _lead(schema, lang, rng)
    given = [a for a in schema.arguments if a.name in args]
    if len(given) == 1 and str(given[0].role) == "data":
        body = _render_value(given[0], args[given[0].name], lang, rng)
    else:
        parts = [
            f"{(a.ru if lang == 'ru' else a.en)} — {_render_value(a, args[a.name], lang, rng)}" for a in given
        ]
        body = "; ".join(parts)
    return f"{head}{rng.choice(load_wording().utility.arg_joiners[lang])}{body}"


def _named_question(schema: UtilitySchema, args: dict[str, Any], lang: str, rng: random.Random) -> str:
    """A short question that calls the utility by a name people use for it (``md5``, ``slug``)."""
    names = triggers()[schema.id]
    fitting = [n for n in names if bool(re.search("[а-яё]", n)) == (lang == "ru")]
    name = rng.choice(fitting or names)
    given = [a for a in schema.arguments if a.name in args]
    if len(given) == 1:
        body = _render_value(given[0], args[given[0].name], lang, rng)
    else:
        body = ", ".join(f"{(a.ru if lang == 'ru' else a.en)} {_render_value(a, args[a.name], lang, rng)}"
                         for a in given)
    template = rng.choice(load_wording().utility.name_templates[lang])
    return template.format(name=name, Name=name[:1].upper() + name[1:], body=body)


# ---------------------------------------------------------------------------------------------
# Builders: one per kind of line


@dataclass
class _Context:
    catalog: Catalog
    rng: random.Random
    quotes: list[tuple[str, str]]
    specs: list[SpecCase]
    dropped: Counter[str]
    dev_tasks: dict[str, list[dict[str, Any]]] = field(default_factory=dict)
    """Dev-split task items by kind of line (``utility``, ``spec``, the refusal kinds)."""


def _lang(rng: random.Random) -> str:
    return "ru" if rng.random() < RU_SHARE else "en"


def _utility_line(ctx: _Context) -> dict[str, Any] | None:
    rng = ctx.rng
    style = rng.choices(list(UTILITY_STYLES), weights=list(UTILITY_STYLES.values()))[0]
    if style == "dev" and ctx.dev_tasks.get("utility"):
        return _dev_utility_line(ctx)
    examples = [e for s in ctx.catalog.schemas.values() for e in s.examples
                if style != "name" or e.utility in triggers()]
    example = rng.choice(examples)
    schema = ctx.catalog.schemas[example.utility]
    args = {}
    for name, value in example.args.items():
        arg = schema.argument(name)
        args[name] = _vary_value(arg, value, rng) if arg is not None else value
    lang = _lang(rng)
    if style == "name" and schema.id in triggers():
        question = _named_question(schema, args, lang, rng)
    else:
        question = _utility_question(schema, args, lang, rng)
    outcome = call_utility(schema.id, args, question=question, lang=lang)
    if not outcome.ok:
        ctx.dropped["utility_gold_refused"] += 1
        return None
    gold = {"source": "utility", "utility": schema.id, "args": args}
    return {"question": question, "lang": lang, "gold": gold}


def _dev_utility_line(ctx: _Context) -> dict[str, Any] | None:
    """A dev task's utility question, its data values swapped where they stand in it verbatim."""
    rng = ctx.rng
    item = rng.choice(ctx.dev_tasks["utility"])
    gold = item["gold"]
    schema = ctx.catalog.schemas.get(gold["utility"])
    if schema is None:
        ctx.dropped["dev_unknown_utility"] += 1
        return None
    question, args = item["question"], dict(gold.get("args") or {})
    for name, value in list(args.items()):
        arg = schema.argument(name)
        literal = str(value)
        if arg is None or isinstance(value, bool) or len(literal) < 2 or question.count(literal) != 1:
            continue
        new = _vary_value(arg, value, rng)
        if new != value:
            question, args[name] = question.replace(literal, str(new)), new
    outcome = call_utility(schema.id, args, question=question, lang=item["lang"])
    if not outcome.ok:
        ctx.dropped["utility_gold_refused"] += 1
        return None
    return {"question": _with_opener(question, item["lang"], rng), "lang": item["lang"],
            "gold": {"source": "utility", "utility": schema.id, "args": args}}


def _with_opener(question: str, lang: str, rng: random.Random) -> str:
    """The question, sometimes behind a short polite opener (its first letter lowered)."""
    opener = rng.choice(load_wording().openers[lang])
    if opener and question[:1].isupper() and not question[:2].isupper():
        question = question[0].lower() + question[1:]
    return f"{opener}{question}"


def _dev_line(ctx: _Context, kind: str) -> dict[str, Any] | None:
    """A dev task of ``kind`` as it stands, sometimes behind an opener; ``None`` when there is none."""
    items = ctx.dev_tasks.get(kind)
    if not items:
        return None
    item = ctx.rng.choice(items)
    return {"question": _with_opener(item["question"], item["lang"], ctx.rng), "lang": item["lang"],
            "gold": dict(item["gold"])}


def load_dev_tasks(questions_dir: str | Path | None = None) -> dict[str, list[dict[str, Any]]]:
    """The ``dev`` items of the training sets (:data:`TRAINING_SETS`), by kind of line.

    The kinds are those of :data:`BUILDERS` (``utility``, ``quote``, ``spec`` and the refusal kinds
    in lower case, ``out_of_scope``...). The ``test`` split is never read here.
    """
    folder = Path(questions_dir) if questions_dir is not None else _default_questions_dir()
    found: dict[str, list[dict[str, Any]]] = {}
    for name in TRAINING_SETS:
        file = folder / name
        if not file.is_file():
            continue
        for line in file.read_text(encoding="utf-8").splitlines():
            if not line.strip():
                continue
            item = json.loads(line)
            if item.get("split") != "dev":
                continue
            found.setdefault(_kind_of(item["gold"]).lower(), []).append(item)
    return found


def _quote_line(ctx: _Context) -> dict[str, Any] | None:
    if not ctx.quotes:
        return None
    text, lang = ctx.rng.choice(ctx.quotes)
    return {"question": _with_opener(text, lang, ctx.rng), "lang": lang, "gold": {"source": "quote"}}


def _spec_line(ctx: _Context) -> dict[str, Any] | None:
    if ctx.dev_tasks.get("spec") and (not ctx.specs or ctx.rng.random() < DEV_SHARE_SPEC):
        return _dev_line(ctx, "spec")
    if not ctx.specs:
        return None
    case = ctx.rng.choice(ctx.specs)
    lang = _lang(ctx.rng)
    pairs = ", ".join(f"{k} = {v}" for k, v in case.args.items())
    title = case.title_ru if lang == "ru" else case.title_en
    template = ctx.rng.choice(load_wording().spec_templates[lang])
    question = template.format(title=title, label=case.label, pairs=pairs)
    gold = {"source": "spec", "spec": case.spec, "args": dict(case.args)}
    return {"question": question, "lang": lang, "gold": gold}


def _out_of_scope_line(ctx: _Context) -> dict[str, Any] | None:
    if ctx.rng.random() < DEV_SHARE_REFUSAL and ctx.dev_tasks.get("out_of_scope"):
        return _dev_line(ctx, "out_of_scope")
    lang = _lang(ctx.rng)
    wording = load_wording().refusals
    # One value of every placeholder is drawn, in the order written, whichever the question uses.
    fill = {k: ctx.rng.choice(v) for k, v in wording.out_of_scope_fill.items()}
    question = ctx.rng.choice(wording.out_of_scope[lang]).format(**fill)
    return {"question": question, "lang": lang, "gold": {"source": "refuse", "refusal": "OUT_OF_SCOPE"}}


def _missing_line(ctx: _Context) -> dict[str, Any] | None:
    rng = ctx.rng
    if rng.random() < DEV_SHARE_REFUSAL and ctx.dev_tasks.get("missing_argument"):
        return _dev_line(ctx, "missing_argument")
    schema = rng.choice(list(ctx.catalog.schemas.values()))
    data = [a for a in schema.arguments if a.required and str(a.role) == "data"]
    if not data or len(schema.arguments) > 2:
        return None
    missing = data[0]
    lang = _lang(rng)
    template = rng.choice(load_wording().refusals.missing[lang])
    task_plain = _task_text(schema, lang)
    question = template.format(task=_lead(schema, lang, rng), task_plain=task_plain)
    # Another argument the question does not hold is absent as well: only single-argument
    # utilities and a data argument with one circumstance are used, so the missing one is first.
    others = [a for a in schema.arguments if a is not missing and a.required]
    if others:
        return None
    outcome = call_utility(schema.id, {}, question=question, lang=lang)
    refusal = outcome.refusal
    if refusal is None or refusal.code != str(UtilityCode.MISSING_ARGUMENT):
        ctx.dropped["missing_not_refused"] += 1
        return None
    gold = {"source": "refuse", "refusal": "MISSING_ARGUMENT", "utility": schema.id,
            "missing": missing.name}  # fmt: skip
    return {"question": question, "lang": lang, "gold": gold}


def _circumstance_line(ctx: _Context) -> dict[str, Any] | None:
    rng = ctx.rng
    if rng.random() < DEV_SHARE_REFUSAL and ctx.dev_tasks.get("argument_is_circumstance"):
        return _dev_line(ctx, "argument_is_circumstance")
    wording = load_wording().refusals
    schema = rng.choice(list(ctx.catalog.schemas.values()))
    data = [a for a in schema.arguments if a.required and str(a.role) == "data"]
    circ = [a for a in schema.arguments if a.name in wording.circumstance_values]
    if len(data) != 1 or not circ:
        return None
    lang = _lang(rng)
    value = rng.choice(wording.circumstance_values[circ[0].name])
    task = _lead(schema, lang, rng)
    question = rng.choice(wording.circumstance[lang]).format(task=task, value=value)
    args: dict[str, Any] = {data[0].name: value}
    if circ[0].required:
        args[circ[0].name] = value
    outcome = call_utility(schema.id, args, question=question, lang=lang)
    refusal = outcome.refusal
    if refusal is None or refusal.code != str(UtilityCode.ARGUMENT_IS_CIRCUMSTANCE):
        ctx.dropped["circumstance_not_refused"] += 1
        return None
    gold = {"source": "refuse", "refusal": "ARGUMENT_IS_CIRCUMSTANCE", "utility": schema.id,
            "argument": data[0].name}  # fmt: skip
    return {"question": question, "lang": lang, "gold": gold}


Builder = Callable[[_Context], "dict[str, Any] | None"]
BUILDERS: dict[str, Builder] = {
    "utility": _utility_line,
    "quote": _quote_line,
    "spec": _spec_line,
    "out_of_scope": _out_of_scope_line,
    "missing_argument": _missing_line,
    "argument_is_circumstance": _circumstance_line,
}


# ---------------------------------------------------------------------------------------------
# Sources

# The export counterexample is stopped by its gate; it is never a gold.
EXCLUDED_SPECS = frozenset({"vat.export_counterexample"})
# The parser names a case written without a label ``example N`` or ``boundary N``; such a case has
# no wording of its author's to put in a question.
_UNLABELLED = re.compile(r"(example|boundary) \d+")


def _input_text(kind: str, value: Any) -> str:
    """A literal of a worked case as ``spec eval --input`` reads it (``250000 rub``, ``yes``)."""
    if kind == "bool":
        return "yes" if value else "no"
    if kind == "date":
        return str(value.isoformat())
    if kind in ("number", "money", "percent"):
        # ``f`` keeps the digits as written (``2000000.01``, ``0.50``), without separators or exponent
        digits = format(value, "f")
        return {"money": f"{digits} rub", "percent": f"{digits} %"}.get(kind, digits)
    return str(value)


def load_spec_cases(specs_dir: str | Path | None = None) -> list[SpecCase]:
    """Every labelled worked case (``example`` and ``boundary``) of the spec files, by file name.

    Each file is read with the spec language's own parser (:func:`workbench.fts.parse`). A file
    that does not parse, a spec of :data:`EXCLUDED_SPECS`, a case without a label and a case that
    does not bind every input exactly offer no case.
    """
    folder = Path(specs_dir) if specs_dir is not None else _default_specs_dir()
    cases: list[SpecCase] = []
    for path in sorted(folder.glob("*.fts")):
        spec = parse(path.read_text(encoding="utf-8"))
        if not isinstance(spec, Spec) or spec.id in EXCLUDED_SPECS:
            continue
        ru, _, en = spec.title.partition(" / ")
        inputs = [i.name for i in spec.inputs]
        for case in spec.examples:
            values = dict(case.bindings)
            if _UNLABELLED.fullmatch(case.label) or set(values) != set(inputs):
                continue
            args = {name: _input_text(values[name].kind, values[name].value) for name in inputs}
            cases.append(SpecCase(spec.id, ru.strip(), (en or ru).strip(), case.label, args))
    return cases


def load_dev_quotes(path: str | Path | None = None) -> list[tuple[str, str]]:
    """``(question, lang)`` of the ``dev`` split of ``in_corpus.jsonl`` (never the test split)."""
    file = Path(path) if path is not None else _default_questions_dir() / "in_corpus.jsonl"
    rows = [json.loads(line) for line in file.read_text(encoding="utf-8").splitlines() if line.strip()]
    return [(r["question"], r["lang"]) for r in rows if r.get("split") == "dev"]


def held_out_questions(questions_dir: str | Path | None = None) -> frozenset[str]:
    """The ``test``-split question texts of the router task and red-team sets, folded for comparison."""
    folder = Path(questions_dir) if questions_dir is not None else _default_questions_dir()
    found: set[str] = set()
    for name in TASK_SETS:
        file = folder / name
        if not file.is_file():
            continue
        for line in file.read_text(encoding="utf-8").splitlines():
            if line.strip() and json.loads(line).get("split") != "dev":
                found.add(_fold(json.loads(line)["question"]))
    return frozenset(found)


def _fold(text: str) -> str:
    return " ".join(text.split()).casefold()


@cache
def _openers_folded() -> tuple[str, ...]:
    """The non-empty openers, folded and followed by a space, longest first."""
    openers = {_fold(o) + " " for phrasings in load_wording().openers.values() for o in phrasings if o}
    return tuple(sorted(openers, key=len, reverse=True))


def _fold_core(text: str) -> str:
    """The folded question with a polite opener (``openers.yaml``) taken off its front."""
    folded = _fold(text)
    for opener in _openers_folded():
        if folded.startswith(opener):
            return folded[len(opener):]
    return folded


# ---------------------------------------------------------------------------------------------
# The generator


def _quotas(lines: int, refusal_share: float) -> dict[str, int]:
    refusals = round(lines * refusal_share)
    answers = lines - refusals
    quotas: dict[str, int] = {}
    for shares, total in ((ANSWER_SHARES, answers), (REFUSAL_SHARES, refusals)):
        names = list(shares)
        for name in names[1:]:
            quotas[name] = round(total * shares[name])
        quotas[names[0]] = total - sum(quotas[n] for n in names[1:])
    return quotas


def build_training_data(
    catalog: Catalog | None = None,
    *,
    lines: int = DEFAULT_LINES,
    refusal_share: float = DEFAULT_REFUSAL_SHARE,
    seed: int = DEFAULT_SEED,
    specs_dir: str | Path | None = None,
    quote_questions: str | Path | None = None,
    questions_dir: str | Path | None = None,
) -> TrainingData:
    """Seeded router training lines ``{"question", "lang", "gold"}``, with what was dropped.

    Args:
        catalog: The utility catalog (the loaded one by default).
        lines: How many lines to produce.
        refusal_share: The share of refusal lines (``0`` builds the no-refusal variant).
        seed: The seed; the same seed gives the same lines.
        specs_dir: The folder of ``*.fts`` spec files (``corpus/specs``).
        quote_questions: The ``in_corpus.jsonl`` whose ``dev`` questions become quote lines.
        questions_dir: The folder of the router task sets: their dev split is worded into lines,
            their test split is never emitted.

    Returns:
        The lines in order (each gold shaped as in ``router_tasks.jsonl``) and, per reason, the
        candidate lines dropped on the way.

    Raises:
        DatasetBuildError: On a share outside [0, 1], a non-positive size, or a kind of line
            that cannot be built.
    """
    if not 0.0 <= refusal_share <= 1.0:
        raise DatasetBuildError(f"refusal_share must lie in [0, 1], got {refusal_share}")
    if lines < 1:
        raise DatasetBuildError(f"lines must be positive, got {lines}")
    ctx = _Context(
        catalog=catalog if catalog is not None else load_catalog(),
        rng=random.Random(seed),
        quotes=load_dev_quotes(quote_questions),
        specs=load_spec_cases(specs_dir),
        dropped=Counter(),
        dev_tasks=load_dev_tasks(questions_dir),
    )
    held_out = held_out_questions(questions_dir)
    quotas = _quotas(lines, refusal_share)
    if not ctx.quotes:
        quotas["utility"] += quotas.pop("quote")
    if not ctx.specs:
        quotas["utility"] += quotas.pop("spec")
    plan = [kind for kind, count in quotas.items() for _ in range(count)]
    ctx.rng.shuffle(plan)
    rows: list[dict[str, Any]] = []
    for kind in plan:
        for _ in range(MAX_TRIES_PER_LINE):
            row = BUILDERS[kind](ctx)
            if row is None:
                continue
            if _fold_core(row["question"]) in held_out:
                ctx.dropped["held_out_overlap"] += 1
                continue
            rows.append(row)
            break
        else:
            raise DatasetBuildError(f"could not build a {kind} line in {MAX_TRIES_PER_LINE} tries")
    return TrainingData(rows=rows, dropped=dict(sorted(ctx.dropped.items())))


def generate_training_data(catalog: Catalog | None = None, **options: Any) -> list[dict[str, Any]]:
    """The lines of :func:`build_training_data` (same arguments) without the drop counts."""
    return build_training_data(catalog, **options).rows


def write_training_data(
    path: str | Path, rows: Sequence[dict[str, Any]] | None = None, **kwargs: Any
) -> Path:
    """Write lines as JSONL atomically (a temporary file renamed into place).

    Args:
        path: The target file.
        rows: The lines to write; when ``None`` they are generated with ``kwargs``
            (the keyword arguments of :func:`generate_training_data`).
        **kwargs: Passed to :func:`generate_training_data` when ``rows`` is ``None``.

    Returns:
        The path written.
    """
    target = Path(path)
    data = rows if rows is not None else generate_training_data(**kwargs)
    target.parent.mkdir(parents=True, exist_ok=True)
    handle, temp = tempfile.mkstemp(dir=target.parent, prefix=f".{target.name}.", suffix=".tmp")
    try:
        with os.fdopen(handle, "w", encoding="utf-8", newline="\n") as out:
            for row in data:
                out.write(json.dumps(row, ensure_ascii=False, sort_keys=False) + "\n")
        os.replace(temp, target)
    except BaseException:
        Path(temp).unlink(missing_ok=True)
        raise
    return target
