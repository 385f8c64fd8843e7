"""Routing: the decision record, the router protocol, routers, scoring and training data.

A router reads a question and chooses a source (utility, quote, spec, or refuse) with the id and
arguments that source needs. The scripted router replays decisions given up front, the replay
router reads decisions made elsewhere, and the rule router is the keyword/pattern baseline.
``score_decision``/``evaluate_router``/``summarise`` score them item by item,
``compare_routers`` and ``mcnemar`` compare them, and ``generate_training_data`` builds the
seeded training lines for the routers trained here.
"""

from workbench.routing._compare import (
    FAILURE_CLASSES,
    RouterComparison,
    compare_routers,
    disagreements,
    mcnemar,
)
from workbench.routing._dataset import (
    DatasetBuildError,
    TrainingData,
    build_training_data,
    generate_training_data,
    write_training_data,
)
from workbench.routing._records import (
    Router,
    RouterDecision,
    RouterDecisionError,
    ScriptedRouter,
    Source,
    scripted_router,
)
from workbench.routing._replay import ReplayFileError, ReplayRecord, ReplayRouter, replay_router
from workbench.routing._rule import RuleRouter, rule_router
from workbench.routing._score import (
    ERROR_TYPES,
    PARSE_FAILURE_CODE,
    ItemScore,
    TaskItem,
    evaluate_router,
    load_tasks,
    score_decision,
    summarise,
)

__all__ = [
    "ERROR_TYPES",
    "FAILURE_CLASSES",
    "PARSE_FAILURE_CODE",
    "DatasetBuildError",
    "ItemScore",
    "ReplayFileError",
    "ReplayRecord",
    "ReplayRouter",
    "Router",
    "RouterComparison",
    "RouterDecision",
    "RouterDecisionError",
    "RuleRouter",
    "ScriptedRouter",
    "Source",
    "TaskItem",
    "TrainingData",
    "build_training_data",
    "compare_routers",
    "disagreements",
    "evaluate_router",
    "generate_training_data",
    "load_tasks",
    "mcnemar",
    "replay_router",
    "rule_router",
    "score_decision",
    "scripted_router",
    "summarise",
    "write_training_data",
]
