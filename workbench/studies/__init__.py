"""Studies: the orchestration every face calls, each a typed function over the floors below.

A study runs questions, routers or forgeries through the pipeline's parts and returns a typed
result; the command line, the demo, the lab, the report, the widgets and the notebooks only call
these functions and format what they return, so a loop over questions, a pairing of two runs or a
cache key exists once.

- gate evaluation of labelled question sets, cached by content digests (``evaluate_sets_cached``),
  and its re-slicing without retrieval (``run_order``, ``rule_ablation``, ``threshold_sweep``,
  ``calibrate_gates``);
- router comparisons and the three router findings of the system under study;
- the negative control (spoiled answers against the invariant checker) and leakage;
- the dense-encoder recall table and the cross-encoder's training;
- the end-to-end study: questions through ``ask``'s own path, judged per gold source.
"""

from workbench.studies._analysis import (
    ANSWERED,
    UnknownRuleError,
    calibrate_gates,
    evaluated_gates,
    evaluated_rules,
    fire_overlaps,
    firing_line,
    first_firing,
    flipped_questions,
    gate_attribution,
    headline,
    outcome_correctness,
    report_lines,
    rule_ablation,
    rule_report,
    run_order,
    run_rules,
    threshold_sweep,
    would_fire_matrix,
)
from workbench.studies._diff import (
    DIFF_KINDS,
    FLIP_COLUMNS,
    DiffKind,
    RunDiff,
    Verdicts,
    diff_runs,
)
from workbench.studies._e2e import (
    E2E_SET,
    OUTCOMES,
    E2EItem,
    E2EReport,
    E2ESetError,
    judge,
    load_e2e,
    outcome_table,
    run_e2e,
)
from workbench.studies._embedders import (
    recall_table,
)
from workbench.studies._findings import (
    Finding,
    finding_lines,
    findings_frame,
    router_findings,
    vocabulary_tokens,
)
from workbench.studies._gates import (
    OUTCOME_COLUMNS,
    answers_frame,
    evaluate_sets,
    evaluate_sets_cached,
    outcome_columns,
    result_row,
)
from workbench.studies._leakage import (
    LeakageReport,
    leakage,
)
from workbench.studies._negative import (
    NegativeControlReport,
    build_forgeries,
    catch_rates,
    check_forgeries,
    run_negative_control,
)
from workbench.studies._records import STAGED_KINDS, model_ids, record_run, standard_digests
from workbench.studies._reranker import (
    RerankerTrainingError,
    TrainingConfig,
    TrainingReport,
    build_pairs,
    train_reranker,
)
from workbench.studies._router_study import (
    BASELINE,
    PairedTest,
    RouterStudy,
    study_routers,
)
from workbench.studies._routers import (
    FAILURE_CLASSES,
    RouterComparison,
    compare_pair,
    compare_routers,
    disagreements,
    paired_outcomes,
)

__all__ = [
    "E2E_SET",
    "OUTCOMES",
    "E2EItem",
    "E2EReport",
    "E2ESetError",
    "judge",
    "load_e2e",
    "outcome_table",
    "run_e2e",
    "ANSWERED",
    "BASELINE",
    "DIFF_KINDS",
    "DiffKind",
    "FAILURE_CLASSES",
    "FLIP_COLUMNS",
    "Finding",
    "LeakageReport",
    "NegativeControlReport",
    "OUTCOME_COLUMNS",
    "PairedTest",
    "RerankerTrainingError",
    "RouterComparison",
    "RouterStudy",
    "RunDiff",
    "STAGED_KINDS",
    "TrainingConfig",
    "TrainingReport",
    "UnknownRuleError",
    "Verdicts",
    "answers_frame",
    "build_forgeries",
    "build_pairs",
    "calibrate_gates",
    "catch_rates",
    "check_forgeries",
    "compare_pair",
    "compare_routers",
    "diff_runs",
    "disagreements",
    "evaluate_sets",
    "evaluate_sets_cached",
    "evaluated_gates",
    "evaluated_rules",
    "finding_lines",
    "findings_frame",
    "fire_overlaps",
    "firing_line",
    "first_firing",
    "flipped_questions",
    "gate_attribution",
    "headline",
    "leakage",
    "model_ids",
    "outcome_columns",
    "outcome_correctness",
    "paired_outcomes",
    "recall_table",
    "record_run",
    "report_lines",
    "result_row",
    "rule_ablation",
    "rule_report",
    "run_negative_control",
    "run_order",
    "run_rules",
    "router_findings",
    "standard_digests",
    "study_routers",
    "threshold_sweep",
    "train_reranker",
    "vocabulary_tokens",
    "would_fire_matrix",
]
