"""Labelled question sets: JSONL files in ``corpus/questions/``, gold spans resolved to anchors.

Every line is one JSON object with at least ``id``, ``set``, ``question``, ``lang`` and
``split`` (``dev``, ``test`` or ``heldout``). Answerable questions carry ``gold``: a list of
``{"path", "span"}`` where ``span`` is verbatim text of the file; relevance traps carry ``near``
(the fragment that looks right) and ``missing_entity``. Spans are located in the file's
normalised text when the set is loaded, so gold anchors never go stale silently: a span that is
no longer in its file is an error that names the file, the line and the question. A verbatim
copy of a gold span in another file of the corpus is gold too (:func:`with_copies`): documentation
sets repeat paragraphs from page to page, and a quote of the copy holds the same words.

The bundled sets are three files named after their ``set``; a file of one's own (any name, any
folder, for any corpus) holds lines of the same format, each with its ``set``, and is loaded by
:func:`load_question_files` the same way.
"""

from __future__ import annotations

import dataclasses
import json
import os
from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from workbench.config import Answers
from workbench.corpus._text import Corpus, CorpusError
from workbench.errors import WorkbenchError

SETS = ("in_corpus", "out_of_corpus", "relevance_traps")
SPLITS = ("dev", "test", "heldout")
"""``dev`` is tuned on, ``test`` reported on; ``heldout`` is scored once, as written, and never
trained, tuned or calibrated on (the generalization figure of ``corpus/questions/heldout/``)."""


class QuestionSetError(WorkbenchError):
    """A question set line that is malformed or whose gold span is not in its file."""


REQUIRED = ("id", "set", "question", "lang", "split")
"""The fields every line carries."""

LANGS = ("ru", "en")
"""The languages a labelled question may be in: those the system under study is built for."""

MAX_QUESTION_CHARS = Answers().max_question_chars
"""The longest question read by default: the pipeline's own limit (``[answers]``), so a set
never holds a question that ``ask`` would refuse for its length."""

_TEXT_FIELDS = ("topic", "why")
"""Optional fields that are text when present."""


def _has_lone_surrogate(text: str) -> bool:
    return any("\ud800" <= c <= "\udfff" for c in text)


def _field_problem(row: dict[str, Any], max_chars: int) -> str | None:
    """What is wrong with a line's fields' types and values, or None (checked before use)."""
    qid = row["id"]
    if isinstance(qid, bool) or not isinstance(qid, str | int) or not str(qid).strip():
        return f"'id' is a non-empty string, not {qid!r:.60}"
    if len(str(qid)) > 200:
        return "'id' is longer than 200 characters"
    for key in ("set", "split", "lang"):
        if not isinstance(row[key], str):
            return f"{key!r} is a string, not {row[key]!r:.60}"
    question = row["question"]
    if not isinstance(question, str):
        return f"'question' is a string, not {question!r:.60}"
    if not question.strip():
        return "'question' is empty"
    if len(question) > max_chars:
        return (f"'question' has {len(question):,} characters; the limit is {max_chars:,} "
                "([answers] max_question_chars, as for ask)")
    if _has_lone_surrogate(question):
        return "'question' holds a lone surrogate (\\ud800-\\udfff), which is no character"
    if row["lang"] not in LANGS:
        return f"lang {row['lang'][:20]!r} is not one of {', '.join(LANGS)}"
    for key in _TEXT_FIELDS:
        if key in row and not isinstance(row[key], str):
            return f"{key!r} is a string, not {row[key]!r:.60}"
    if row.get("missing_entity") is not None and not isinstance(row["missing_entity"], str):
        return "'missing_entity' is a string or null"
    if row.get("near") is not None and not isinstance(row["near"], dict):
        return "'near' is a {path, span} object or null"
    return None


@dataclass(frozen=True)
class GoldSpan:
    """Where the answer to a question sits."""

    path: str
    """File relative to the corpus root."""
    start: int
    """First code point of the span in the normalised text."""
    end: int
    """One past its last code point."""
    text: str
    """The span itself."""
    copy: bool = False
    """A verbatim copy of a labelled span, found in another file (:func:`with_copies`)."""

    def overlaps(self, path: str, start: int, end: int) -> bool:
        """Whether a fragment at ``path[start:end]`` covers any part of the span."""
        return path == self.path and start < self.end and self.start < end


@dataclass(frozen=True)
class Question:
    """One labelled question."""

    id: str
    """Unique within all sets."""
    set: str
    """``in_corpus``, ``out_of_corpus`` or ``relevance_traps``."""
    question: str
    """The text as a learner would ask it."""
    lang: str
    """``ru`` or ``en``."""
    split: str
    """``dev`` (tuning) or ``test`` (reporting)."""
    topic: str = ""
    """A short subject label."""
    gold: tuple[GoldSpan, ...] = ()
    """Spans that answer it (answerable questions only)."""
    near: GoldSpan | None = None
    """For a trap: the fragment that looks right."""
    missing_entity: str | None = None
    """For a trap: the entity of the question the corpus lacks."""
    why: str = ""
    """Why the corpus does not answer it (unanswerable sets)."""
    extra: dict[str, Any] = field(default_factory=dict)
    """Any other fields of the line."""

    @property
    def answerable(self) -> bool:
        """The corpus holds the answer."""
        return self.set == "in_corpus"


def _resolve(corpus: Corpus, item: dict[str, Any], where: str, cache: dict[str, str]
             ) -> GoldSpan:
    """``item``'s span located in its file; ``where`` (``FILE:LINE: id``) starts every error."""
    try:
        path, span = item["path"], item["span"]
    except (KeyError, TypeError):
        raise QuestionSetError(f"{where}: a gold entry needs 'path' and 'span'") from None
    if not isinstance(path, str) or not isinstance(span, str) or not span:
        raise QuestionSetError(f"{where}: a gold entry's 'path' and 'span' are non-empty text")
    if path not in cache:
        try:
            cache[path] = corpus.read(path).text
        except CorpusError as exc:
            raise QuestionSetError(f"{where}: {exc}") from None
    start = cache[path].find(span)
    if start == -1:
        raise QuestionSetError(
            f"{where}: span {span[:60]!r} is not in {path} (was the file edited?)")
    return GoldSpan(path=path, start=start, end=start + len(span), text=span)


def load_questions(path: str | os.PathLike[str], corpus: Corpus | str | os.PathLike[str],
                   split: str | None = None, *, max_chars: int = MAX_QUESTION_CHARS
                   ) -> list[Question]:
    """Read one JSONL set, resolving gold and near spans against ``corpus``.

    Every field is type-checked before it is used: a number or null where text belongs, an
    empty question, one over ``max_chars`` (the limit of ``ask``) or holding a lone surrogate,
    and a ``lang`` outside :data:`LANGS` are each an error that names the file and line.

    Raises:
        QuestionSetError: The file is missing or not UTF-8, or a line is malformed (named).
    """
    corpus = corpus if isinstance(corpus, Corpus) else Corpus(corpus)
    file = Path(path)
    if not file.is_file():
        raise QuestionSetError(f"question set {file} does not exist")
    try:
        text = file.read_text(encoding="utf-8")
    except (OSError, UnicodeDecodeError) as exc:
        raise QuestionSetError(f"{file}: cannot be read as UTF-8 text ({exc})") from None
    cache: dict[str, str] = {}
    out: list[Question] = []
    seen: set[str] = set()
    for number, line in enumerate(text.splitlines(), start=1):
        if not line.strip():
            continue
        try:
            row = json.loads(line)
        except json.JSONDecodeError as exc:
            raise QuestionSetError(f"{file}:{number}: not JSON ({exc})") from None
        if not isinstance(row, dict):
            raise QuestionSetError(f"{file}:{number}: a line is one JSON object")
        missing = [k for k in REQUIRED if k not in row]
        if missing:
            raise QuestionSetError(f"{file}:{number}: missing {', '.join(missing)}")
        problem = _field_problem(row, max_chars)
        if problem is not None:
            raise QuestionSetError(f"{file}:{number}: {problem}")
        qid = str(row["id"])
        if qid in seen:
            raise QuestionSetError(f"{file}:{number}: duplicate id {qid}")
        seen.add(qid)
        if row["split"] not in SPLITS:
            raise QuestionSetError(f"{file}:{number}: split must be one of {', '.join(SPLITS)}")
        if row["set"] not in SETS:
            raise QuestionSetError(f"{file}:{number}: set {str(row['set'])[:40]!r} is not one of "
                                   f"{', '.join(SETS)}")
        if split is not None and row["split"] != split:
            continue
        where = f"{file}:{number}: {qid}"
        gold_items = row.get("gold", [])
        if not isinstance(gold_items, list):
            raise QuestionSetError(f"{where}: 'gold' is a list of {{path, span}} objects")
        gold = tuple(_resolve(corpus, g, where, cache) for g in gold_items)
        if row["set"] == "in_corpus" and not gold:
            raise QuestionSetError(f"{file}:{number}: an in_corpus question needs gold spans")
        near = _resolve(corpus, row["near"], where, cache) if row.get("near") else None
        known = {"id", "set", "question", "lang", "split", "topic", "gold", "near",
                 "missing_entity", "why"}
        out.append(Question(
            id=qid, set=row["set"], question=row["question"], lang=row["lang"],
            split=row["split"], topic=row.get("topic", ""), gold=gold, near=near,
            missing_entity=row.get("missing_entity"), why=row.get("why", ""),
            extra={k: v for k, v in row.items() if k not in known}))
    return out


def set_files(questions_dir: str | os.PathLike[str], sets: Sequence[str] = SETS
              ) -> tuple[Path, ...]:
    """The files of the bundled ``sets``: ``<name>.jsonl`` in ``questions_dir``, in set order."""
    unknown = [name for name in sets if name not in SETS]
    if unknown:
        raise QuestionSetError(f"unknown question set(s) {', '.join(unknown)}; "
                               f"known: {', '.join(SETS)}")
    return tuple(Path(questions_dir) / f"{name}.jsonl" for name in sets)


_TEXTS: dict[tuple[str, str], tuple[tuple[int, int], str]] = {}
"""Normalised texts read by :func:`with_copies`, by root and path, with the modification time and
size they were read at: an edited file is read again and replaces its entry."""


def _texts(corpus: Corpus) -> list[tuple[str, str]]:
    """Every readable file of ``corpus`` with its normalised text (unreadable ones are left out)."""
    out = []
    for rel in corpus.list_files()[0]:
        key = (str(corpus.root), rel)
        try:
            stat = corpus.resolve(rel).stat()
            stamp = (stat.st_mtime_ns, stat.st_size)
            if key not in _TEXTS or _TEXTS[key][0] != stamp:
                _TEXTS[key] = (stamp, corpus.read(rel).text)
        except (CorpusError, OSError):
            continue
        out.append((rel, _TEXTS[key][1]))
    return out


def with_copies(questions: Sequence[Question], corpus: Corpus) -> list[Question]:
    """``questions`` with each verbatim copy of a gold span in another file added to its gold.

    A copy is the span's exact text at its first place in another file of ``corpus`` (the
    texts as :meth:`Corpus.read` gives them); it is marked ``copy`` and comes after the labelled
    spans. Only gold spans are copied, never ``near``.
    """
    spans = {g.text for q in questions for g in q.gold}
    if not spans:
        return list(questions)
    found: dict[str, list[tuple[str, int]]] = {}
    for rel, text in _texts(corpus):
        for span in spans:
            start = text.find(span)
            if start != -1:
                found.setdefault(span, []).append((rel, start))
    out = []
    for q in questions:
        labelled = {g.path for g in q.gold}
        copies = tuple(GoldSpan(path=rel, start=start, end=start + len(g.text), text=g.text,
                                copy=True)
                       for g in q.gold if not g.copy for rel, start in found.get(g.text, ())
                       if rel not in labelled)
        out.append(dataclasses.replace(q, gold=q.gold + tuple(dict.fromkeys(copies)))
                   if copies else q)
    return out


def load_question_files(files: Sequence[str | os.PathLike[str]],
                        corpus: Corpus | str | os.PathLike[str], split: str | None = None,
                        *, copies: bool = True, max_chars: int = MAX_QUESTION_CHARS
                        ) -> list[Question]:
    """All questions of ``files``, in file order; an id is unique across all of them.

    With ``copies`` (the default) each gold span's verbatim copies in other files are gold too
    (:func:`with_copies`). ``max_chars`` is the longest question read (:func:`load_questions`).
    """
    corpus = corpus if isinstance(corpus, Corpus) else Corpus(corpus)
    out: list[Question] = []
    first: dict[str, Path] = {}
    for file in files:
        for question in load_questions(file, corpus, split=split, max_chars=max_chars):
            if question.id in first:
                raise QuestionSetError(f"{file}: id {question.id} is also in {first[question.id]}")
            first[question.id] = Path(file)
            out.append(question)
    return with_copies(out, corpus) if copies else out


def load_sets(questions_dir: str | os.PathLike[str], corpus: Corpus | str | os.PathLike[str],
              sets: tuple[str, ...] = SETS, split: str | None = None) -> list[Question]:
    """All questions of ``sets`` (``<name>.jsonl`` in ``questions_dir``), in set order."""
    return load_question_files(set_files(questions_dir, sets), corpus, split=split)
