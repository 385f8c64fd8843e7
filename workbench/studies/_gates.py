"""Running the labelled question sets through the pipeline and keeping every verdict.

Each question goes through :func:`workbench.answers.answer`, the pipeline a user runs, with the
quote source chosen: retrieval, the gates, the evidence and the invariant checker. One row per
question holds the retrieval result, every gate's would-fire flag, every quote rule's flag and
the numbers — enough to re-attribute the run to any gate order, rule subset or threshold without
touching retrieval again (see ``_analysis``) — and the pipeline's outcome (the answer as JSON, or
the refusal), which is what leakage is counted on.

The questions come from files: the bundled sets by name (``sets``), or any labelled JSONL files
in the same format (``questions``), on any index and corpus the settings name. Both go through
the same functions, and the cache key covers each file's bytes.
"""

from __future__ import annotations

import hashlib
import json
import os
import sys
import time
from collections.abc import Sequence
from pathlib import Path
from typing import TypeAlias

import pandas as pd
from tqdm.auto import tqdm

from workbench import __version__, registry
from workbench.answers import AnswerResult, CheckContext, answer
from workbench.config import Settings
from workbench.corpus._questions import (
    SETS,
    Question,
    QuestionSetError,
    load_question_files,
    set_files,
)
from workbench.corpus._text import Corpus
from workbench.digests import CodeKey, code_key, sha256_file, warn_uncached
from workbench.gates._builtin import top_two_gap
from workbench.gates._confidence import confidence_model_path
from workbench.gates._quote_source import QuoteResult, QuoteSource
from workbench.index._fragment_index import index_digest, read_manifest, source_digest
from workbench.relevance._rules import quote_rules
from workbench.routing import RouterDecision, ScriptedRouter, Source

BATCH = 16

QuestionFiles: TypeAlias = Sequence[str | os.PathLike[str]]
"""Labelled question files (JSONL, the format of ``corpus/questions/README.md``)."""


def question_files(settings: Settings, sets: Sequence[str] = SETS,
                   questions: QuestionFiles | None = None) -> tuple[Path, ...]:
    """The files an evaluation reads: ``questions`` when given, else the bundled ``sets``.

    Args:
        settings: Where the bundled sets are (``[paths].questions``).
        sets: Names of bundled sets; used only when ``questions`` is ``None``.
        questions: Question files of one's own, in the order their rows should come.

    Raises:
        QuestionSetError: ``questions`` is empty, or a set name is not a bundled set.
    """
    if questions is None:
        return set_files(settings.paths.questions, sets)
    files = tuple(Path(q).resolve() for q in questions)
    if not files:
        raise QuestionSetError("no question file given")
    return files


def question_file_records(files: Sequence[Path]) -> list[dict[str, str]]:
    """What a run record says of its question files: each one's path and sha256."""
    return [{"path": str(f), "sha256": sha256_file(f) if f.is_file() else ""} for f in files]


def _gold_rank(question: Question, result: QuoteResult) -> int | None:
    for rank, fragment in enumerate(result.candidates.fragments, start=1):
        a = fragment.anchor
        if any(g.overlaps(a.path, a.start, a.end) for g in question.gold):
            return rank
    return None


def result_row(question: Question, result: QuoteResult) -> dict:
    """The cached row of one question."""
    view = result.candidates
    by_gate = {v.gate: v for v in result.trace.verdicts}
    relevance = by_gate.get("relevance")
    rules = dict(relevance.numbers.get("rules", {})) if relevance else {}
    top = view.fragments[0] if view.fragments else None
    gold_rank = _gold_rank(question, result) if question.gold else None
    row = {
        "id": question.id, "set": question.set, "lang": question.lang, "split": question.split,
        "topic": question.topic, "question": question.question, "mode": view.mode,
        "n_hits": len(view.hits),
        "top_fragment": top.id if top else None,
        "top_path": top.anchor.path if top else None,
        "top_score": view.hits[0].score if view.hits else 0.0,
        "second_score": view.hits[1].score if len(view.hits) > 1 else None,
        "quote": view.quote.text if view.quote else None,
        "code": result.refusal.code if result.refusal else None,
        "answered": result.answered,
        "refusal_text": result.refusal.text if result.refusal else None,
        "gold_rank": gold_rank,
        "gate0_coverage": float(by_gate["gate0"].numbers.get("coverage", 0.0))
        if "gate0" in by_gate else 0.0,
        "top2_gap": top_two_gap(view.hits),
        "top2_same_file": bool(len(view.fragments) > 1 and view.fragments[0].anchor.path
                               == view.fragments[1].anchor.path),
        "top2_same_text": bool(by_gate["disagreement"].numbers.get("same_text", False))
        if "disagreement" in by_gate else False,
        "top_is_gold": gold_rank == 1,
        # the confidence gate's estimate that the quote answers (None without a model)
        "confidence": by_gate["confidence"].numbers.get("confidence")
        if "confidence" in by_gate else None,
        "verdicts": json.dumps([v.to_dict() for v in result.trace.verdicts], ensure_ascii=False),
    }
    # The row names what was evaluated: one would-fire flag per gate of the trace (in its order)
    # and one flag per registered quote rule, so a gate or rule registered later gets its column.
    for verdict in result.trace.verdicts:
        row[f"wf_{verdict.gate}"] = not verdict.passed
    for rule in quote_rules():
        row[f"rule_{rule}"] = bool(rules.get(rule, False))
    return row


class _Prefetched:
    """A quote source whose answers for one batch were computed together.

    Dense queries are encoded in one call; the pipeline then asks one question at a time and
    gets those very answers.
    """

    def __init__(self, source: QuoteSource, results: dict[tuple[str, str], QuoteResult]) -> None:
        self._source = source
        self._results = results
        self.index = source.index
        self.corpus = source.corpus

    def ask(self, question: str, lang: str | None = None) -> QuoteResult:
        return self.ask_many([question], [lang])[0]

    def ask_many(self, questions: Sequence[str], langs: Sequence[str | None] | None = None
                 ) -> list[QuoteResult]:
        langs = list(langs) if langs is not None else [None] * len(questions)
        found = [self._results.get((q, lang or "")) for q, lang in zip(questions, langs,
                                                                        strict=True)]
        missing = [i for i, r in enumerate(found) if r is None]
        searched = iter(self._source.ask_many([questions[i] for i in missing],
                                              [langs[i] for i in missing]) if missing else [])
        return [r if r is not None else next(searched) for r in found]

    def __getattr__(self, name: str) -> object:
        return getattr(self._source, name)


OUTCOME_COLUMNS: dict[str, str] = {
    "mode": "answer_mode", "code": "answer_code", "source_refusal_code": "answer_source_code",
    "invariants_passed": "invariants_passed", "failed_invariant": "failed_invariant",
    "answer_json": "answer_json",
}
"""The pipeline's outcome as an evaluation row keeps it: ``AnswerResult.to_row`` key → column."""


def outcome_columns(result: AnswerResult) -> dict[str, object]:
    """The columns one pipeline outcome adds to its question's row."""
    row = result.to_row()
    return {column: row[key] for key, column in OUTCOME_COLUMNS.items()}


def answers_frame(rows: pd.DataFrame) -> pd.DataFrame:
    """The answers-run rows of an evaluation: one per question, as the pipeline answered it.

    The columns are those :meth:`AnswerResult.to_row` writes (``mode``, ``code``,
    ``answer_json``, ...) plus the question's ``id`` and ``set``, so ``workbench audit answers``
    and :func:`workbench.studies.leakage` read the record like any other answers run.
    """
    frame = pd.DataFrame({"id": rows["id"], "set": rows["set"], "question": rows["question"],
                          "source": "quote"})
    for key, column in OUTCOME_COLUMNS.items():
        frame[key] = rows[column].to_numpy()
    frame["refused"] = frame["answer_json"].fillna("") == ""
    return frame


def evaluate_sets(settings: Settings, *, sets: Sequence[str] = SETS, split: str | None = None,
                  source: QuoteSource | None = None, progress: bool = False,
                  questions: QuestionFiles | None = None) -> pd.DataFrame:
    """All questions of ``sets`` (or of the files ``questions``) through the pipeline; one row each.

    Retrieval runs once per question: a batch of questions is searched together, and the
    pipeline (:func:`workbench.answers.answer`) is then given those results, so the gate row
    (:func:`result_row`) and the pipeline's outcome (:func:`outcome_columns`) describe the same
    search. Gold spans are resolved against the quote source's corpus.

    Args:
        settings: The index, corpus, retrieval and gate settings.
        sets: Bundled sets by name (ignored when ``questions`` is given).
        split: Only this split (``dev`` or ``test``).
        source: A quote source already loaded (default: one built from ``settings``).
        progress: Show a progress bar on stderr.
        questions: Labelled JSONL files of one's own, in place of the bundled sets.
    """
    started = time.perf_counter()
    files = question_files(settings, sets, questions)
    source = source or QuoteSource(settings)
    loaded = load_question_files(files, source.corpus, split=split,
                                 max_chars=settings.answers.max_question_chars)
    router = ScriptedRouter({q.question: RouterDecision(source=Source.QUOTE) for q in loaded})
    context = CheckContext.for_index(source.index, source.corpus, settings)
    rows: list[dict] = []
    with tqdm(total=len(loaded), desc="questions", unit="q", disable=not progress,
              file=sys.stderr) as bar:
        for start in range(0, len(loaded), BATCH):
            batch = loaded[start:start + BATCH]
            results = source.ask_many([q.question for q in batch], [q.lang for q in batch])
            prefetched = _Prefetched(source, {(q.question, q.lang): r
                                              for q, r in zip(batch, results, strict=True)})
            for q, r in zip(batch, results, strict=True):
                outcome = answer(q.question, router, settings, quote_source=prefetched,  # type: ignore[arg-type]
                                 context=context, lang=q.lang)
                rows.append({**result_row(q, r), **outcome_columns(outcome)})
            bar.update(len(batch))
    frame = pd.DataFrame.from_records(rows)
    frame.attrs["seconds"] = time.perf_counter() - started
    frame.attrs["order"] = list(settings.gates.order)
    return frame


def evaluation_key(settings: Settings, sets: Sequence[str], split: str | None,
                   questions: QuestionFiles | None = None) -> CodeKey:
    """A digest of everything a gate evaluation depends on, computed without loading a model.

    The index (its manifest digest, which covers its artifacts, the corpus it was built from
    and the embedder), the corpus as it is now (gold spans and the verbatim gate read it), the
    bytes of each question file in order (:func:`question_files`), the retrieval, rerank, gate,
    plugin and answer settings (the question-length limit), the reranker's weights, the
    confidence gate's model file, the workbench version, and all the code the
    evaluation runs: the package's own modules (:data:`EVALUATION_CODE` and what they import),
    the plugin modules the settings name, and every registered gate and relevance rule with its
    module's whole file and the project modules it imports
    (:func:`workbench.registry.stages_code_key`).

    Returns:
        A :class:`~workbench.digests.CodeKey`: the digest, or none and the reason when some of
        that code has no source to key on (a stage defined in a notebook cell); such an
        evaluation is never cached.
    """
    code = code_key(EVALUATION_CODE + settings.plugins.modules)
    stages = registry.stages_code_key(("gate", "relevance_rule"))
    if code.digest is None or stages.digest is None:
        return CodeKey(None, "; ".join(k.reason for k in (code, stages) if k.reason))
    digest = hashlib.sha256()
    manifest = read_manifest(settings.paths.index)
    digest.update(json.dumps(manifest["artifacts"], sort_keys=True).encode())
    digest.update(str(manifest["embedder"]).encode())
    digest.update(f"index:{index_digest(settings.paths.index)};".encode())
    digest.update(f"corpus:{source_digest(Corpus(settings.paths.corpus))};".encode())
    for path in question_files(settings, sets, questions):
        digest.update(sha256_file(path).encode() if path.is_file() else b"-")
    plain = settings.to_dict()
    for section in ("retrieval", "reranker", "gates", "fragmenting", "plugins", "answers"):
        digest.update(json.dumps(plain[section], sort_keys=True).encode())
    model = confidence_model_path(settings)  # retrained in place, the same name holds new weights
    if model is not None:
        digest.update(f"confidence:{sha256_file(model) if model.is_file() else '-'};".encode())
    if settings.reranker.mode == "cross-encoder" and settings.reranker.path is not None:
        folder = Path(settings.reranker.path)
        for item in sorted(folder.glob("*")) if folder.is_dir() else []:
            if item.is_file():
                digest.update(f"{item.name}:{sha256_file(item)}".encode())
    named = ",".join(sets) if questions is None else f"{len(tuple(questions))} files"
    digest.update(f"{__version__}:{split}:{named}".encode())
    digest.update(f"{code.digest}:{stages.digest}".encode())
    return CodeKey(digest.hexdigest())


EVALUATION_CODE: tuple[str, ...] = (
    __name__, *registry.PROVIDERS["gate"], *registry.PROVIDERS["relevance_rule"],
)
"""Where a gate evaluation's code starts: this module and the modules that register gates and
rules. Its cache key covers these and everything they import (:func:`workbench.digests.code_digest`),
so widgets, notebooks, the report and the routers stay out and editing them keeps the verdicts."""


UNCACHED_REASON = "uncached_reason"
"""The ``attrs`` key of evaluation rows that says why they were not read from or kept in the
cache (empty when they were): the code could not be keyed, or the caller asked ``cache=False``."""


def cached_evaluation_path(settings: Settings, sets: Sequence[str] = SETS,
                           split: str | None = None,
                           questions: QuestionFiles | None = None) -> Path | None:
    """Where the rows of this exact evaluation are (or would be) cached; ``None``: never cached.

    ``None`` when some code the evaluation runs has no source to key on (:func:`evaluation_key`).
    """
    key = evaluation_key(settings, sets, split, questions)
    if key.digest is None:
        return None
    return Path(settings.paths.cache) / "gates" / f"{key.digest}.parquet"


def evaluation_is_cached(settings: Settings, sets: Sequence[str] = SETS,
                         split: str | None = None,
                         questions: QuestionFiles | None = None) -> bool:
    """Whether :func:`evaluate_sets_cached` would read these rows back rather than retrieve."""
    path = cached_evaluation_path(settings, sets, split, questions)
    return path is not None and path.is_file()


def evaluate_sets_cached(settings: Settings, *, sets: Sequence[str] = SETS,
                         split: str | None = None, progress: bool = False,
                         questions: QuestionFiles | None = None, cache: bool = True
                         ) -> tuple[pd.DataFrame, bool]:
    """:func:`evaluate_sets`, reusing the rows of an identical earlier evaluation.

    Returns the rows and whether they came from the cache (``.cache/gates/<key>.parquet``).
    ``questions`` (question files of one's own) replaces ``sets`` as in :func:`evaluate_sets`.
    With ``cache=False`` the rows are computed again whatever the cache holds, and replace what
    it held. When some code the evaluation runs cannot be keyed (a stage defined in a notebook
    cell), the rows are computed, not kept, and an :class:`~workbench.digests.UncachedWarning`
    names the stage. Either way ``rows.attrs["uncached_reason"]`` (:data:`UNCACHED_REASON`)
    says why the cache was passed by; it is empty otherwise.
    """
    key = evaluation_key(settings, sets, split, questions)
    reason = "" if cache else "cache=False: computed again"
    if key.digest is None:
        reason = warn_uncached("the gate evaluation", key)
    path = (Path(settings.paths.cache) / "gates" / f"{key.digest}.parquet"
            if key.digest is not None else None)
    if cache and path is not None and path.is_file():
        try:
            rows = pd.read_parquet(path)
        except (OSError, ValueError):
            # A cache entry cut short (a killed run, a full disk) is recomputed, never trusted.
            path.unlink(missing_ok=True)
        else:
            rows.attrs["order"] = list(settings.gates.order)
            rows.attrs["seconds"] = 0.0
            rows.attrs[UNCACHED_REASON] = ""
            return rows, True
    rows = evaluate_sets(settings, sets=sets, split=split, progress=progress, questions=questions)
    rows.attrs[UNCACHED_REASON] = reason
    if path is None:
        return rows, False
    path.parent.mkdir(parents=True, exist_ok=True)
    tmp = path.with_suffix(".tmp")
    table = rows.copy(deep=False)
    table.attrs = {}
    table.to_parquet(tmp, index=False)
    tmp.replace(path)
    return rows, False
