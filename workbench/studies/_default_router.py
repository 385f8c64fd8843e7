"""Which router ``ask`` takes by default, chosen on held-out sets with paired tests.

A router becomes the default only when the held-out items show it, not by one item. The choice is
made on a router comparison of the held-out sets (questions scored as written, never trained or
tuned on) in two steps:

1. **Safety.** A wrong answer is the worst outcome: the right utility with a wrong value executes
   and passes every check, and so does the wrong utility, or a call where a refusal or a quote was
   due (:data:`workbench.routing._score.ANSWER_ERRORS`). So the routers with the fewest wrong
   answers are found first: every router whose wrong answers are not significantly more than
   those of the safest one (the exact McNemar test on the items each answered wrong, paired by
   item) stays in; the others are out. (Until round 20 this step counted the wrong values alone;
   a router that turns wrong utilities into refusals, ``span-binder-noref-doubt``, was then
   indistinguishable from one that calls them.)
2. **Gain over the baseline.** Among those, a router replaces the baseline (the frozen rule
   router) only when it is right on significantly more items than the baseline (exact McNemar on
   correctness, the level divided among the candidates, Bonferroni). Of several such, the one
   right on the most items is taken. Without one, the baseline stays.

The choice is written as JSON beside the routers (:data:`workbench.answers.DEFAULT_ROUTER_FILE`)
with every test that made it, and ``ask`` reads it from there.
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from dataclasses import asdict, dataclass
from pathlib import Path
from typing import Any

import pandas as pd

from workbench.answers import DEFAULT_ROUTER_FILE, DefaultRouterRecord
from workbench.config import project_relative
from workbench.errors import WorkbenchError
from workbench.routing._score import ANSWER_ERRORS
from workbench.stats import format_p, mcnemar
from workbench.studies._routers import RouterComparison, paired_outcomes

LEVEL = 0.05
"""The level of every paired test of the choice."""


class DefaultRouterError(WorkbenchError, ValueError):
    """A default router cannot be chosen from the comparison given; the message says why."""


@dataclass(frozen=True)
class PairedCount:
    """One paired test of the choice: ``router`` against ``against`` on one outcome."""

    router: str
    against: str
    outcome: str
    """``wrong_answer`` (step 1) or ``correct`` (step 2)."""
    router_count: int
    """Items with the outcome for ``router``."""
    against_count: int
    """Items with the outcome for ``against``."""
    p_value: float
    """The exact two-sided McNemar p-value on the paired items."""
    level: float
    """The level the p-value was held to."""

    @property
    def significant(self) -> bool:
        """Whether the two differ at :attr:`level`."""
        return self.p_value < self.level


@dataclass(frozen=True)
class DefaultChoice:
    """The default router and every test that chose it."""

    router: str
    baseline: str
    items: int
    """Held-out items every router was scored on."""
    safest: str
    """The router with the fewest wrong answers."""
    safety: tuple[PairedCount, ...]
    """Step 1: each router against the safest on wrong answers."""
    gains: tuple[PairedCount, ...]
    """Step 2: each safe router against the baseline on correct items."""
    reason: str
    """One line: why this router."""

    def record(self, tasksets: Sequence[str], run: str | None = None) -> DefaultRouterRecord:
        """The record ``ask`` reads (:func:`workbench.answers.best_router`)."""
        return DefaultRouterRecord(
            router=self.router, reason=self.reason, baseline=self.baseline, items=self.items,
            tasksets=tuple(project_relative(t) for t in tasksets), run=run,
            tests=tuple(asdict(test) for test in (*self.safety, *self.gains)))

    def lines(self) -> list[str]:
        """The two steps, one line a test, then the choice."""
        out = [f"safety: wrong answers against the safest ({self.safest}), paired, "
               f"exact McNemar at {self.safety[0].level if self.safety else LEVEL:g}:"]
        out += [f"  {t.router}: {t.router_count} against {t.against_count}, p={format_p(t.p_value)}"
                f"{' — out' if t.significant and t.router_count > t.against_count else ''}"
                for t in self.safety]
        out.append(f"gain: items right against the baseline ({self.baseline}), paired, exact "
                   f"McNemar, Bonferroni over {len(self.gains)}:")
        out += [f"  {t.router}: {t.router_count} against {t.against_count}, p={format_p(t.p_value)} "
                f"(level {t.level:.3g}){' — better' if _better(t) else ''}" for t in self.gains]
        out.append(f"default router: {self.router} — {self.reason}")
        return out


def _better(test: PairedCount) -> bool:
    return test.significant and test.router_count > test.against_count


def _wrong_answer(errors: pd.Series) -> pd.Series:
    """Which items were answered wrong (their error is one of :data:`ANSWER_ERRORS`)."""
    return errors.isin(ANSWER_ERRORS)


def _outcome(rows: pd.DataFrame, router: str, against: str, outcome: str,
             level: float) -> PairedCount:
    paired = paired_outcomes(rows, router, against)
    if outcome == "wrong_answer":
        mine = _wrong_answer(paired["error_a"]).to_numpy()
        theirs = _wrong_answer(paired["error_b"]).to_numpy()
    else:
        mine = paired["correct_a"].astype(bool).to_numpy()
        theirs = paired["correct_b"].astype(bool).to_numpy()
    test = mcnemar(list(mine), list(theirs))
    return PairedCount(router, against, outcome, int(mine.sum()), int(theirs.sum()),
                       float(test.p_value), level)


def choose_default_router(comparison: RouterComparison | pd.DataFrame, *,
                          baseline: str = "rule", level: float = LEVEL) -> DefaultChoice:
    """Choose the default router from a comparison on held-out items (see the module's text).

    Raises:
        DefaultRouterError: The comparison lacks the baseline or a second router, the routers
            were not scored on the same items, or the level is outside (0, 1).
    """
    if not 0 < level < 1:
        raise DefaultRouterError(f"the level must lie in (0, 1), not {level}")
    rows = comparison.items if isinstance(comparison, RouterComparison) else comparison
    routers = list(dict.fromkeys(rows["router"]))
    if baseline not in routers:
        raise DefaultRouterError(f"the baseline {baseline!r} is not in the comparison "
                                 f"({', '.join(routers) or 'no router'})")
    if len(routers) < 2:
        raise DefaultRouterError("a choice needs the baseline and at least one other router")
    ids = {router: frozenset(rows.loc[rows["router"] == router, "id"]) for router in routers}
    if len(set(ids.values())) != 1:
        raise DefaultRouterError("the routers were not scored on the same items")
    wrong = {router: int(_wrong_answer(rows.loc[rows["router"] == router, "error"]).sum())
             for router in routers}
    # the fewest wrong answers; a tie goes to the baseline, then to the first named
    safest = min(routers, key=lambda r: (wrong[r], r != baseline, routers.index(r)))
    safety = tuple(_outcome(rows, r, safest, "wrong_answer", level)
                   for r in routers if r != safest)
    unsafe = {t.router for t in safety if t.significant and t.router_count > t.against_count}
    safe = [r for r in routers if r not in unsafe]
    candidates = [r for r in safe if r != baseline]
    share = level / max(len(candidates), 1)
    gains = tuple(_outcome(rows, r, baseline, "correct", share) for r in candidates)
    better = [t for t in gains if _better(t)]
    n = len(next(iter(ids.values())))
    if baseline in unsafe:
        router = safest
        reason = (f"the baseline {baseline} gave significantly more wrong answers "
                  f"({wrong[baseline]}) than {safest} ({wrong[safest]}) on {n} held-out items")
    elif better:
        best = max(better, key=lambda t: (t.router_count, -wrong[t.router]))
        router = best.router
        reason = (f"right on {best.router_count} of {n} held-out items against the baseline's "
                  f"{best.against_count} (p={format_p(best.p_value)}), with {wrong[router]} "
                  f"wrong answers, not significantly more than {safest}'s {wrong[safest]}")
    else:
        router = baseline
        reason = (f"no router was right on significantly more of the {n} held-out items than "
                  f"the baseline without significantly more wrong answers")
    return DefaultChoice(router, baseline, n, safest, safety, gains, reason)


def write_default_router(choice: DefaultChoice, models: str | Path, tasksets: Sequence[str],
                         run: str | None = None) -> Path:
    """Write the choice where ``ask`` reads it; returns the file."""
    path = Path(models) / DEFAULT_ROUTER_FILE
    path.parent.mkdir(parents=True, exist_ok=True)
    record: dict[str, Any] = asdict(choice.record(tasksets, run))
    path.write_text(json.dumps(record, ensure_ascii=False, indent=1) + "\n", encoding="utf-8")
    return path


__all__ = ["LEVEL", "DefaultChoice", "DefaultRouterError", "PairedCount",
           "choose_default_router", "write_default_router"]
