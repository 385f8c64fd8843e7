"""The held-out rounds scored by every router that loads here: the generalization figures.

``corpus/questions/heldout/rounds.json`` names the sets of each round (a round is written after the
last one had been scored, to test what it chose). Each round is a router study of its own on the
``heldout`` split (:func:`workbench.studies.study_routers`, cached like any other), so the figures
of one round never mix with another's.
"""

from __future__ import annotations

import json
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pandas as pd

from workbench.config import Settings
from workbench.errors import WorkbenchError
from workbench.routing import shared_query_vectors
from workbench.studies._router_study import RouterChoice, RouterStudy, study_routers

ROUNDS_FILE = Path("heldout") / "rounds.json"
"""Where the rounds are named, under ``[paths].questions``."""


class HeldOutError(WorkbenchError, ValueError):
    """A rounds file that is missing, damaged or names a set that is not there."""


def heldout_rounds(questions: str | Path) -> dict[str, tuple[Path, ...]]:
    """Each round's set files, by round name, from ``questions/heldout/rounds.json``."""
    path = Path(questions) / ROUNDS_FILE
    try:
        data = json.loads(path.read_text(encoding="utf-8"))
    except FileNotFoundError:
        raise HeldOutError(f"{path}: no held-out rounds are named here") from None
    except (OSError, ValueError) as exc:
        raise HeldOutError(f"{path}: not a JSON object of rounds ({exc})") from None
    if not isinstance(data, dict) or not data or not all(
            isinstance(v, list) and v and all(isinstance(n, str) for n in v) for v in data.values()):
        raise HeldOutError(f"{path}: expected {{round: [set name, ...]}} with at least one set a round")
    rounds = {}
    for name, sets in data.items():
        files = tuple(path.parent / f"{s}.jsonl" for s in sets)
        absent = [f.name for f in files if not f.is_file()]
        if absent:
            raise HeldOutError(f"{path}: round {name} names sets that are not there: {', '.join(absent)}")
        rounds[str(name)] = files
    return rounds


@dataclass(frozen=True)
class HeldOutStudy:
    """Every round's router study."""

    rounds: dict[str, RouterStudy]
    """The study of each round, by round name."""

    @property
    def items(self) -> pd.DataFrame:
        """Every round's rows, with the round in a ``round`` column."""
        return pd.concat([study.comparison.items.assign(round=name)
                          for name, study in self.rounds.items()], ignore_index=True)

    def summary(self) -> dict[str, Any]:
        """Per round: its sets and each router's figures (JSON-ready)."""
        return {name: {"tasksets": [p.name for p in study.tasksets],
                       "routers": json.loads(study.comparison.summary.to_json(orient="index"))}
                for name, study in self.rounds.items()}


def study_heldout(settings: Settings, *, span_folders: Sequence[Path] = (),
                  candidates: Mapping[str, RouterChoice] | Sequence[RouterChoice] = (),
                  progress: Callable[[str], None] | None = None) -> HeldOutStudy:
    """The rule router, the span folders and the candidates on each held-out round, apart.

    The span routers that read one encoder share its query vectors here
    (:func:`workbench.routing.shared_query_vectors`): a held-out round reports no latency.
    """
    rounds = heldout_rounds(settings.paths.questions)
    with shared_query_vectors():
        return HeldOutStudy({name: study_routers(settings, (), tasksets=files, split="heldout",
                                                 span_folders=span_folders, candidates=candidates,
                                                 progress=progress)
                             for name, files in rounds.items()})


__all__ = ["ROUNDS_FILE", "HeldOutError", "HeldOutStudy", "heldout_rounds", "study_heldout"]
