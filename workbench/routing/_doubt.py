"""The utility doubt: the class probability under which a span router calls no utility.

The span classifier answers whichever class is likeliest, however unlikely (its ``threshold`` is 0),
so a question whose words point weakly at several utilities still gets one of them called, and a
call of the wrong utility returns a result as surely as a right one. The doubt refuses such a call
with ``BELOW_THRESHOLD``, naming the utility and both numbers: it says that the router was not sure
enough, never that the question asks for nothing.

The threshold is not chosen by hand. :func:`workbench.studies.calibrate_utility_doubt` runs the
router on a calibration split and labels each utility call right or wrong (the wrong utility, a
wrong, missing or unexpected value, a call where a refusal or a quote was due). The class
probability is a weak signal of a wrong call (the classifier is often sure and wrong on wording it
was not trained on), so no threshold promises a small share of wrong calls among those kept. What
it can promise is the other side: among the calls it refuses, at most ``beta`` would have been
right, with probability ``1 - delta`` (Learn-then-Test on a fixed grid of thresholds, Bonferroni
over the grid). With ``beta`` 0.4, each right call it loses comes with at least one and a half wrong
calls it prevents. The record names the split, the router, the counts and the promise, and a
variant reads its threshold from it (:func:`load_utility_doubt`).
"""

from __future__ import annotations

import json
import math
from dataclasses import asdict, dataclass, fields
from pathlib import Path
from typing import Any

from workbench.errors import WorkbenchError
from workbench.stats import format_p

DOUBT_FILE = "binder/utility-doubt.json"
"""Where the calibration record lies, under the models folder."""
DOUBTED_ROUTER = "span-binder-noref"
"""The router whose calls the shipped doubt is calibrated on, and the one its variant doubts."""


class UtilityDoubtError(WorkbenchError, ValueError):
    """A utility doubt record is missing or cannot be read; the message names the file and why."""


@dataclass(frozen=True)
class UtilityDoubt:
    """A calibrated utility doubt and what it was calibrated on."""

    threshold: float
    """Below this probability of its class a utility is not called (0: no promise held, none set)."""
    router: str
    """The router whose calls were labelled (the doubt is read by that router's variant)."""
    beta: float
    """The promised most share of right calls among the calls refused."""
    delta: float
    """The probability the promise may fail."""
    grid: tuple[float, ...]
    """The thresholds tested (each at ``delta`` over their number)."""
    calls: int
    """Utility calls the router made on the calibration split."""
    wrong: int
    """Of them, wrong (any kind)."""
    refused: int
    """Calls under the threshold: the ones the doubt refuses."""
    refused_right: int
    """Of them, right: the right answers the doubt costs."""
    p_value: float
    """The binomial p-value at the threshold (1 where no promise held)."""
    split: str
    """The calibration split in words (the held-out rounds it is made of)."""
    tasksets: tuple[str, ...]
    """Its task sets."""
    run: str | None = None
    """The run record of the calibration's decisions."""
    no_promise: str | None = None
    """Why no threshold holds the promise (``None`` where one does)."""

    def lines(self) -> list[str]:
        """What the calibration found, in a few lines."""
        head = (f"{self.router} on {self.split}: {self.calls} utility calls, {self.wrong} wrong "
                f"({self.wrong / self.calls:.3f})" if self.calls else f"{self.router}: no utility call")
        if self.no_promise:
            return [head, f"no doubt threshold promises at most {self.beta:g} right calls among those "
                          f"refused: {self.no_promise}"]
        share = self.refused_right / max(self.refused, 1)
        return [head, f"doubt {self.threshold:g}: {self.refused} calls refused, {self.refused_right} of them "
                      f"right ({share:.3f}), {self.refused - self.refused_right} wrong; "
                      f"at most {self.beta:g} right with probability {1 - self.delta:g} "
                      f"(p={format_p(self.p_value)}, {len(self.grid)} thresholds tested)"]


def write_utility_doubt(doubt: UtilityDoubt, models: str | Path) -> Path:
    """Write ``doubt`` where its variant reads it; returns the file."""
    path = Path(models) / DOUBT_FILE
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(json.dumps(asdict(doubt), ensure_ascii=False, indent=1) + "\n", encoding="utf-8")
    return path


def load_utility_doubt(models: str | Path) -> UtilityDoubt:
    """The calibration record under ``models``.

    Raises:
        UtilityDoubtError: No record (calibrate it first), or one that is not a record of this
            shape, or a threshold outside [0, 1).
    """
    path = Path(models) / DOUBT_FILE
    if not path.is_file():
        raise UtilityDoubtError(f"{path}: no utility doubt record; `workbench router calibrate-doubt "
                                "--write` calibrates one")
    try:
        data: Any = json.loads(path.read_text(encoding="utf-8"))
    except (UnicodeDecodeError, json.JSONDecodeError) as exc:
        raise UtilityDoubtError(f"{path}: not a JSON record ({exc})") from None
    names = {f.name for f in fields(UtilityDoubt)}
    required = names - {"run", "no_promise"}
    if not isinstance(data, dict) or not required <= set(data) or set(data) - names:
        raise UtilityDoubtError(f"{path}: not a utility doubt record (fields: {', '.join(sorted(names))})")
    threshold = data["threshold"]
    if not isinstance(threshold, (int, float)) or isinstance(threshold, bool) or not (
            math.isfinite(threshold) and 0 <= threshold < 1):
        raise UtilityDoubtError(f"{path}: threshold {threshold!r} is not a probability in [0, 1)")
    return UtilityDoubt(**{**data, "tasksets": tuple(data["tasksets"]), "grid": tuple(data["grid"])})


__all__ = ["DOUBTED_ROUTER", "DOUBT_FILE", "UtilityDoubt", "UtilityDoubtError", "load_utility_doubt",
           "write_utility_doubt"]
