"""What the invariant checker resolves evidence against: :class:`CheckContext`.

A context holds the corpus as it is now, the fragments of the index the quotes came from and
that index's digest, the specification folder and the morphism library. It reads each file once
and remembers expensive results (re-executions, re-checks, gate verdicts) under a table and key,
so a batch of answers is checked against one consistent snapshot of the world.
"""

from __future__ import annotations

import hashlib
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any

from workbench.config import Settings
from workbench.corpus import Corpus, CorpusError, Fragment, fragment_text
from workbench.errors import WorkbenchError
from workbench.fts import Spec, parse
from workbench.index import FragmentIndex, load_index


class CheckContext:
    """What the invariants resolve evidence against, read once per context.

    A context reads each corpus file once and remembers re-executions and re-checks, so a batch
    of answers (a run, the negative control) is checked quickly; build a new context to see
    files that changed after it was made.
    """

    def __init__(self, *, corpus: Corpus | None = None, fragments: Sequence[Fragment] = (),
                 index_digest: str | None = None, specs_dir: str | Path | None = None,
                 library_dir: str | Path | None = None) -> None:
        self.corpus = corpus
        self.index_digest = index_digest
        self.specs_dir = Path(specs_dir) if specs_dir is not None else None
        self.library_dir = Path(library_dir) if library_dir is not None else None
        self.fragments_by_path: dict[str, list[Fragment]] = {}
        for fragment in fragments:
            self.fragments_by_path.setdefault(fragment.anchor.path, []).append(fragment)
        self._texts: dict[str, str | WorkbenchError] = {}
        self._spec_files: dict[str, Path] | None = None
        self._memo: dict[tuple[str, str], Any] = {}

    @classmethod
    def from_index(cls, index: FragmentIndex, corpus: Corpus, *, specs_dir: str | Path | None = None,
                   library_dir: str | Path | None = None) -> CheckContext:
        """A context over a loaded index and the corpus it was built from."""
        return cls(corpus=corpus, fragments=index.fragments, index_digest=index.digest,
                   specs_dir=specs_dir, library_dir=library_dir)

    @classmethod
    def for_index(cls, index: FragmentIndex, corpus: Corpus, settings: Settings) -> CheckContext:
        """The context that checks answers quoted from ``index`` against ``corpus`` now.

        Specifications and the morphism library come from the settings' paths. Every face and
        study that checks answers of a quote source builds its context here.
        """
        return cls.from_index(index, corpus, specs_dir=settings.paths.specs,
                              library_dir=settings.paths.morphisms)

    @classmethod
    def from_settings(cls, settings: Settings, index: FragmentIndex | None = None) -> CheckContext:
        """A context from the settings' paths; without a built index no quote can resolve."""
        paths = settings.paths
        corpus = Corpus(paths.corpus) if Path(paths.corpus).is_dir() else None
        if index is None and (Path(paths.index) / "manifest.json").is_file():
            index = load_index(paths.index)
        return cls(corpus=corpus, fragments=index.fragments if index is not None else (),
                   index_digest=index.digest if index is not None else None,
                   specs_dir=paths.specs, library_dir=paths.morphisms)

    @staticmethod
    def fragments_of(corpus: Corpus, max_chars: int = 700, min_chars: int = 120) -> list[Fragment]:
        """Fragment every file of ``corpus`` without any model (as an index would)."""
        files, _skipped = corpus.list_files()
        return [f for rel in files
                for f in fragment_text(rel, corpus.read(rel).text, max_chars, min_chars)]

    @staticmethod
    def fragments_digest(fragments: Sequence[Fragment]) -> str:
        """A digest over fragment ids and text digests, for a context without an index folder."""
        lines = "".join(f"{f.id}\t{f.anchor.sha256}\n" for f in fragments)
        return hashlib.sha256(lines.encode("utf-8")).hexdigest()

    def read(self, path: str) -> str:
        """The normalised text of ``path`` now (read once); raises the corpus error."""
        if path not in self._texts:
            if self.corpus is None:
                self._texts[path] = CorpusError("no corpus root is configured")
            else:
                try:
                    self._texts[path] = self.corpus.read(path).text
                except CorpusError as exc:
                    self._texts[path] = exc
        value = self._texts[path]
        if isinstance(value, WorkbenchError):
            raise value
        return value

    def spec_file(self, spec_id: str) -> Path | None:
        """The specification file whose declared id is ``spec_id``."""
        if self._spec_files is None:
            self._spec_files = {}
            if self.specs_dir is not None and self.specs_dir.is_dir():
                for path in sorted(self.specs_dir.glob("*.fts")):
                    try:
                        parsed = parse(path.read_text(encoding="utf-8"))
                    except (OSError, UnicodeDecodeError):
                        continue
                    if isinstance(parsed, Spec):  # a spec that does not parse has no id
                        self._spec_files.setdefault(parsed.id, path)
        return self._spec_files.get(spec_id)

    def memo(self, table: str, key: str, compute: Callable[[], Any]) -> Any:
        """``compute()`` once per ``(table, key)`` in this context."""
        slot = (table, key)
        if slot not in self._memo:
            self._memo[slot] = compute()
        return self._memo[slot]
