"""Re-slicing a cached gate run: attribution to any order, overlaps, rule ablation, thresholds.

Everything here reads the rows written by ``evaluate_sets`` (a DataFrame or a run record) and
never touches retrieval: a new gate order, rule subset or threshold is a few vectorised passes
over boolean columns. A run says itself which gates and rules it evaluated: one ``wf_<gate>``
column per gate and one ``rule_<rule>`` column per quote rule (:func:`evaluated_gates`,
:func:`evaluated_rules`), so a gate or rule registered after these functions were written is
re-sliced like the built-in ones.

Correctness is judged row by row, deterministically: an answerable question (``in_corpus``) is
answered correctly when the quoted fragment overlaps a gold span; any answer to an
``out_of_corpus`` or ``relevance_traps`` question, or an answer from a fragment without gold,
is a false answer.
"""

from __future__ import annotations

from collections.abc import Sequence
from itertools import combinations
from typing import Any

import numpy as np
import pandas as pd

from workbench.config import Gates
from workbench.errors import WorkbenchError
from workbench.gates._runner import check_order

ANSWERED = "answered"


class UnknownRuleError(WorkbenchError):
    """A rule subset names a relevance rule the run holds no flag for."""


def _rows(run: Any) -> pd.DataFrame:
    rows = getattr(run, "rows", run)
    if not isinstance(rows, pd.DataFrame):
        raise TypeError("expected a gate run (DataFrame of rows or a run record)")
    return rows


def evaluated_gates(run: Any) -> tuple[str, ...]:
    """The gates the run evaluated: its ``wf_<gate>`` columns, in column order."""
    return tuple(c[len("wf_"):] for c in _rows(run).columns if c.startswith("wf_"))


def evaluated_rules(run: Any) -> tuple[str, ...]:
    """The quote relevance rules the run evaluated: its ``rule_<rule>`` columns, in column order."""
    return tuple(c[len("rule_"):] for c in _rows(run).columns if c.startswith("rule_"))


def run_order(run: Any, order: Sequence[str] | None = None) -> tuple[str, ...]:
    """The gate order to use: ``order`` checked, else the run's recorded order, else its columns.

    An order may name only gates the run evaluated (the error lists them).
    """
    gates = evaluated_gates(run)
    if order is not None:
        return check_order(order, gates)
    manifest = getattr(run, "manifest", {}) or {}
    stored = manifest.get("order") or _rows(run).attrs.get("order")
    return check_order(stored, gates) if stored else gates


def run_rules(run: Any) -> tuple[str, ...]:
    """The relevance rules the run was evaluated with.

    When it does not say (rows without a record), the settings' default rules that it evaluated:
    rows made before a default rule existed hold no flag for it.
    """
    manifest = getattr(run, "manifest", {}) or {}
    settings = manifest.get("settings") or {}
    rules = (settings.get("gates") or {}).get("relevance_rules")
    if rules is not None:
        return tuple(rules)
    rows = getattr(run, "rows", run)
    if isinstance(rows, pd.DataFrame):
        evaluated = set(evaluated_rules(rows))
        return tuple(rule for rule in Gates().relevance_rules if rule in evaluated)
    return Gates().relevance_rules


def fire_columns(rows: pd.DataFrame, rules: Sequence[str] | None = None,
                 threshold: float | None = None, min_coverage: float | None = None,
                 margin: float | None = None) -> dict[str, np.ndarray]:
    """Would-fire flags per gate; rules, threshold, gate 0's coverage or the margin replaced if given.

    One entry per gate the rows evaluated. Replacements are recomputed from the cached numbers of
    each row (scores, coverage, the gap between the two best candidates), never from retrieval;
    each belongs to one built-in gate and applies when the run evaluated that gate.

    Raises:
        UnknownRuleError: ``rules`` names a rule the rows hold no ``rule_<name>`` flag for.
    """
    fire = {g: rows[f"wf_{g}"].to_numpy(dtype=bool) for g in evaluated_gates(rows)}
    no_hits = rows["n_hits"].to_numpy() == 0
    if min_coverage is not None and "gate0" in fire:
        fire["gate0"] = no_hits | (rows["gate0_coverage"].to_numpy(dtype=float) < min_coverage)
    if margin is not None and "disagreement" in fire:
        # unsigned, as the gate reads it; rows written when the gap was signed read the same
        gap = np.abs(rows["top2_gap"].astype(float).fillna(np.inf).to_numpy())
        # two best fragments with the same text agree (the gate's own exemption); rows written
        # before that column existed read as different texts
        same_text = (rows["top2_same_text"].fillna(False).to_numpy(dtype=bool)
                     if "top2_same_text" in rows.columns else np.zeros(len(rows), dtype=bool))
        fire["disagreement"] = (~rows["top2_same_file"].to_numpy(dtype=bool) & ~same_text
                                & (gap < margin))
    if rules is not None and "relevance" in fire:
        known = evaluated_rules(rows)
        unknown = [r for r in rules if r not in known]
        if unknown:
            raise UnknownRuleError(f"the run holds no flag for relevance rule(s) "
                                   f"{', '.join(unknown)}; it evaluated: {', '.join(known)}")
        relevance = no_hits.copy()
        for rule in rules:
            relevance |= rows[f"rule_{rule}"].to_numpy(dtype=bool)
        fire["relevance"] = relevance
    if threshold is not None and "threshold" in fire:
        fire["threshold"] = rows["top_score"].to_numpy(dtype=float) < threshold
    return fire


def first_firing(rows: pd.DataFrame, order: Sequence[str], rules: Sequence[str] | None = None,
                 threshold: float | None = None, min_coverage: float | None = None,
                 margin: float | None = None) -> np.ndarray:
    """For each row, the first gate of ``order`` that fires, or ``"answered"``."""
    fire = fire_columns(rows, rules, threshold, min_coverage, margin)
    outcome = np.full(len(rows), ANSWERED, dtype=object)
    undecided = np.ones(len(rows), dtype=bool)
    for gate in order:
        hit = undecided & fire[gate]
        outcome[hit] = gate
        undecided &= ~hit
    return outcome


def outcome_correctness(rows: pd.DataFrame, outcome: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """Per question: answered correctly (in-corpus, gold on top) and answered where it should not be."""
    answered = outcome == ANSWERED
    answerable = (rows["set"] == "in_corpus").to_numpy()
    gold = rows["top_is_gold"].fillna(False).to_numpy(dtype=bool)
    correct = answered & answerable & gold
    false_answer = answered & ~(answerable & gold)
    return correct, false_answer


def gate_attribution(run: Any, order: Sequence[str] | None = None,
                     rules: Sequence[str] | None = None,
                     threshold: float | None = None) -> pd.DataFrame:
    """First-firing counts per set under ``order`` (default: the run's own), from cached verdicts.

    Columns: ``n``, one per gate in order, ``answered``, ``answered_correct`` and
    ``false_answers``; one row per set and a total row ``all``.
    """
    rows = _rows(run)
    order = run_order(run, order)
    outcome = first_firing(rows, order, rules, threshold)
    correct, false_answer = outcome_correctness(rows, outcome)
    sets = rows["set"].to_numpy()
    records = []
    for name in [*dict.fromkeys(sets), "all"]:
        mask = np.ones(len(rows), dtype=bool) if name == "all" else sets == name
        record: dict[str, Any] = {"set": name, "n": int(mask.sum())}
        for gate in order:
            record[gate] = int((outcome[mask] == gate).sum())
        record[ANSWERED] = int((outcome[mask] == ANSWERED).sum())
        record["answered_correct"] = int(correct[mask].sum())
        record["false_answers"] = int(false_answer[mask].sum())
        records.append(record)
    return pd.DataFrame.from_records(records).set_index("set")


def firing_line(attribution: pd.DataFrame, name: str, order: Sequence[str]) -> str:
    """``out_of_corpus 173: gate0 113, threshold 59, ..., answered 0`` for one set."""
    row = attribution.loc[name]
    parts = [f"{gate} {int(row[gate])}" for gate in order]
    parts.append(f"answered {int(row[ANSWERED])}")
    line = f"{name} {int(row['n'])}: " + ", ".join(parts)
    if name == "in_corpus":
        line += f" (correct anchor {int(row['answered_correct'])})"
    return line


def would_fire_matrix(run: Any) -> pd.DataFrame:
    """Which questions each gate alone would refuse: one boolean column per gate, by id."""
    rows = _rows(run)
    fire = fire_columns(rows, rules=run_rules(run))
    frame = pd.DataFrame({gate: fire[gate] for gate in evaluated_gates(rows)})
    frame.insert(0, "set", rows["set"].to_numpy())
    frame.index = pd.Index(rows["id"].to_numpy(), name="id")
    return frame


def fire_overlaps(matrix: pd.DataFrame, set_name: str | None = None) -> pd.DataFrame:
    """Gate × gate: how many questions both would refuse (the diagonal: each gate alone)."""
    data = matrix if set_name is None else matrix[matrix["set"] == set_name]
    gates = [c for c in data.columns if c != "set"]
    values = data[gates].to_numpy(dtype=int)
    return pd.DataFrame(values.T @ values, index=gates, columns=gates)


def rule_ablation(run: Any, rules: Sequence[str] | None = None, split: str | None = None,
                  order: Sequence[str] | None = None) -> pd.DataFrame:
    """Every subset of ``rules``: false answers eliminated and correct answers broken.

    ``rules`` defaults to every rule the run evaluated (its ``rule_<name>`` columns). Both are
    counted against the run with no relevance rule at all, question by question.
    """
    rows = _rows(run)
    rules = tuple(rules) if rules is not None else evaluated_rules(run)
    if split is not None:
        rows = rows[rows["split"] == split]
    order = run_order(run, order)
    base = first_firing(rows, order, rules=())
    base_correct, base_false = outcome_correctness(rows, base)
    records = []
    for size in range(len(rules) + 1):
        for subset in combinations(rules, size):
            outcome = first_firing(rows, order, rules=subset)
            correct, false_answer = outcome_correctness(rows, outcome)
            records.append({
                "rules": "+".join(subset) if subset else "(none)",
                "n_rules": size,
                "false_answers": int(false_answer.sum()),
                "eliminated": int((base_false & ~false_answer).sum()),
                "correct": int(correct.sum()),
                "broken": int((base_correct & ~correct).sum()),
            })
    return pd.DataFrame.from_records(records)


def flipped_questions(run: Any, rules: Sequence[str], against: Sequence[str] = (),
                      order: Sequence[str] | None = None) -> pd.DataFrame:
    """The questions whose outcome differs between rule subsets ``against`` and ``rules``."""
    rows = _rows(run)
    order = run_order(run, order)
    before = first_firing(rows, order, rules=against)
    after = first_firing(rows, order, rules=rules)
    changed = before != after
    out = rows.loc[changed, ["id", "set", "lang", "question", "top_path"]].copy()
    out["before"] = before[changed]
    out["after"] = after[changed]
    return out.reset_index(drop=True)


def score_thresholds(rows: pd.DataFrame, points: int = 41) -> tuple[float, ...]:
    """Up to ``points`` distinct thresholds from the 2% quantile of the best scores to their maximum.

    Each is rounded *down* to 4 decimals: rounded to nearest, the top one can land above the best
    score and refuse every question (on the course, 0.94918 became 0.9492), which draws a drop to
    nothing that no threshold at the best score would give. Scores on a coarse scale (the fused
    rank scores of mode ``none``) give fewer distinct thresholds than ``points``.
    """
    scores = rows["top_score"].astype(float)
    if scores.empty:
        return ()
    low, high = float(scores.quantile(0.02)), float(scores.max())
    floored = np.floor(np.linspace(low, high, points) * 10_000) / 10_000
    return tuple(float(t) for t in np.unique(floored))


def threshold_sweep(run: Any, thresholds: Sequence[float] | None = None,
                    order: Sequence[str] | None = None) -> pd.DataFrame:
    """Answered-correct and refused counts on answerable (HasAns) and unanswerable (NoAns) sets.

    One row per threshold, with the two shares a curve plots (``hasans_correct_share``,
    ``noans_refused_share``); the thresholds default to :func:`score_thresholds` of the run's
    own scores, so a sweep sits on the scale of its rerank mode.
    """
    rows = _rows(run)
    order = run_order(run, order)
    if thresholds is None:
        thresholds = score_thresholds(rows)
    has_ans = (rows["set"] == "in_corpus").to_numpy()
    records = []
    for t in thresholds:
        outcome = first_firing(rows, order, threshold=float(t))
        correct, false_answer = outcome_correctness(rows, outcome)
        refused = outcome != ANSWERED
        records.append({
            "threshold": float(t),
            "hasans_n": int(has_ans.sum()),
            "hasans_correct": int(correct[has_ans].sum()),
            "hasans_wrong": int(false_answer[has_ans].sum()),
            "hasans_refused": int(refused[has_ans].sum()),
            "noans_n": int((~has_ans).sum()),
            "noans_refused": int(refused[~has_ans].sum()),
            "noans_answered": int((~refused[~has_ans]).sum()),
        })
    table = pd.DataFrame.from_records(records)
    if not table.empty:
        table["hasans_correct_share"] = table["hasans_correct"] / table["hasans_n"].clip(lower=1)
        table["noans_refused_share"] = table["noans_refused"] / table["noans_n"].clip(lower=1)
    return table


def calibration_score(hasans_correct: float, hasans_wrong: float, noans_refused: float) -> float:
    """What calibration maximises: right outcomes minus wrong answers, each kind weighed the same.

    The arguments are shares of their own kind: answerable questions answered from a gold
    fragment, answerable ones answered from another fragment, unanswerable ones refused. On each
    kind a wrong answer subtracts what a right outcome adds: a verified quote that does not
    answer is worse than a refusal, so a setting that answers one more question right and one
    more wrong scores no better than one that refuses both.
    """
    noans_answered = 1.0 - noans_refused
    return float((hasans_correct - hasans_wrong) + (noans_refused - noans_answered))


def calibrate_gates(run: Any, split: str = "dev", order: Sequence[str] | None = None,
                    rules: Sequence[str] | None = None,
                    thresholds: Sequence[float] | None = None,
                    coverages: Sequence[float] = (0.0, 0.3, 0.4, 0.5, 0.55, 0.6, 0.65, 0.7, 0.75),
                    margins: Sequence[float] = (0.0, 0.005, 0.01, 0.02, 0.03, 0.05),
                    ) -> pd.DataFrame:
    """Grid of (coverage, threshold, margin) on one split, best first.

    The score is :func:`calibration_score`: each kind of question weighs the same however many
    there are, and a wrong answer costs as much as a right one earns, so no cell wins by buying
    coverage with wrong answers. Exact ties go to fewer false answers, then to the stricter
    setting (higher coverage, margin, threshold): where the dev split cannot tell two cells
    apart, the one that refuses more is the safer guess on questions it has not seen.
    """
    rows = _rows(run)
    rows = rows[rows["split"] == split] if split else rows
    order = run_order(run, order)
    if thresholds is None:
        low, high = float(rows["top_score"].quantile(0.02)), float(rows["top_score"].max())
        thresholds = [0.0, *np.round(np.linspace(low, high, 40), 4)]
    has_ans = (rows["set"] == "in_corpus").to_numpy()
    no_ans = ~has_ans
    records = []
    for coverage in coverages:
        for margin in margins:
            for t in thresholds:
                outcome = first_firing(rows, order, rules=rules, threshold=float(t),
                                       min_coverage=coverage, margin=margin)
                correct, false_answer = outcome_correctness(rows, outcome)
                refused = outcome != ANSWERED
                hasans = correct[has_ans].mean() if has_ans.any() else 0.0
                hasans_wrong = false_answer[has_ans].mean() if has_ans.any() else 0.0
                noans = refused[no_ans].mean() if no_ans.any() else 0.0
                records.append({"min_coverage": coverage, "threshold": float(t),
                                "margin": margin, "hasans_correct": float(hasans),
                                "noans_refused": float(noans),
                                "score": calibration_score(hasans, hasans_wrong, noans),
                                "false_answers": int(false_answer.sum())})
    table = pd.DataFrame.from_records(records)
    return table.sort_values(["score", "false_answers", "min_coverage", "margin", "threshold"],
                             ascending=[False, True, False, False, False],
                             kind="stable").reset_index(drop=True)


def _flip_counts(rows: pd.DataFrame, order: Sequence[str], before: Sequence[str],
                 after: Sequence[str]) -> tuple[int, int]:
    """False answers eliminated and correct answers broken going from rules ``before`` to ``after``."""
    base_correct, base_false = outcome_correctness(rows, first_firing(rows, order, rules=before))
    correct, false_answer = outcome_correctness(rows, first_firing(rows, order, rules=after))
    return int((base_false & ~false_answer).sum()), int((base_correct & ~correct).sum())


def rule_report(run: Any, split: str = "dev", enabled: Sequence[str] | None = None) -> list[str]:
    """One line per quote rule the run evaluated: its effect alone and on top of the others.

    A rule earns its place when, added to the others, it eliminates more false answers than it
    breaks correct ones; a rule that eliminates nothing is pure risk on unseen data.
    """
    rows = _rows(run)
    rows = rows[rows["split"] == split] if split else rows
    order = run_order(run, None)
    enabled = tuple(enabled) if enabled is not None else run_rules(run)
    lines = []
    for rule in evaluated_rules(rows):
        alone = _flip_counts(rows, order, (), (rule,))
        others = tuple(r for r in enabled if r != rule)
        eliminated, broken = _flip_counts(rows, order, others, (*others, rule))
        state = "on" if rule in enabled else "off"
        if eliminated == 0:
            why = "eliminates no false answer beyond the other rules: pure risk on unseen data"
        elif broken >= eliminated:
            why = "breaks at least as many correct answers as it eliminates false ones"
        else:
            why = "eliminates more false answers than it breaks"
        context = f" on top of {'+'.join(others)}" if others else ""
        lines.append(f"{rule} [{state}]: alone eliminates {alone[0]} false / breaks {alone[1]} "
                     f"correct; {context.strip() or 'by itself'}: {eliminated} / {broken} — {why}")
    return lines


def headline(run: Any, split: str | None = "test", order: Sequence[str] | None = None
             ) -> dict[str, float]:
    """The three reported shares on ``split``.

    Answerable questions answered from a gold fragment, out-of-corpus questions refused,
    relevance traps refused.
    """
    rows = _rows(run)
    order = run_order(run, order)
    if split:
        rows = rows[rows["split"] == split]
    outcome = first_firing(rows, order)
    correct, _ = outcome_correctness(rows, outcome)
    out: dict[str, float] = {}
    for name, key in (("in_corpus", "answered_correct"), ("out_of_corpus", "refused"),
                      ("relevance_traps", "refused")):
        mask = (rows["set"] == name).to_numpy()
        if mask.any():
            value = correct[mask].mean() if key == "answered_correct" else (
                outcome[mask] != ANSWERED).mean()
            out[f"{name} {key}"] = float(value)
    return out


def report_lines(run: Any, order: Sequence[str], enabled_rules: Sequence[str],
                 split: str | None = None) -> list[str]:
    """What the terminal shows of a gate run.

    A firing line per set, the test-split shares and the rule report on dev (the parts that the
    run's ``split`` covers).
    """
    attribution = gate_attribution(run, order)
    lines = ["  " + firing_line(attribution, name, order) for name in attribution.index
             if name != "all"]
    if split in (None, "test"):
        shares = headline(run, "test", order)
        lines.append("  test split: " + ", ".join(f"{k} {100 * v:.1f}%"
                                                  for k, v in shares.items()))
    if split in (None, "dev"):
        lines.append("relevance rules (ablation on the dev split, from the cached verdicts):")
        lines.extend("  " + line for line in rule_report(run, "dev", enabled_rules))
    return lines
