"""Routing: the decision record, the router protocol, routers, scoring and training data.

A router reads a question and chooses a source (utility, quote, spec, or refuse) with the id and
arguments that source needs. The scripted router replays decisions given up front, the replay
router reads decisions made elsewhere, and the rule router is the keyword/pattern baseline.
``score_decision``/``evaluate_router``/``summarise`` score them item by item,
``compare_routers`` and ``mcnemar`` compare them, the normalisers turn a span of the question
into an argument value (``normalise``, ``underived_arguments``), the copy constraint keeps a
generative router's output to decisions whose values come from the question (``CopyConstraint``,
``decision_grammar``; a router name ending in ``+constrained``), and ``generate_training_data`` builds the
seeded training lines for the routers trained here.
"""

from workbench.routing._binder import (
    AMBIGUOUS_ARGUMENT,
    BinderError,
    BinderModel,
    Binding,
    LearnedBinder,
    ambiguity_refusal,
    load_binder,
)
from workbench.routing._build import CONSTRAINED_SUFFIX, RouterSpecError, build_router
from workbench.routing._constrain import (
    ArgShape,
    ChoiceGrammar,
    CopyConstraint,
    DecisionGrammar,
    QuestionValues,
    TokenTable,
    decision_grammar,
)
from workbench.routing._dataset import (
    DatasetBuildError,
    TrainingData,
    build_training_data,
    generate_training_data,
    write_training_data,
)
from workbench.routing._metrics import (
    HEADLINE_METRICS,
    ROUTER_METRIC,
    ROUTER_METRICS,
    RouterMetric,
    metric_cell,
    metric_lines,
)
from workbench.routing._normalise import (
    NORMALISERS,
    ArgSpan,
    NormaliseError,
    Underived,
    candidate_spans,
    derive,
    normalise,
    underived_arguments,
    vocabularies,
)
from workbench.routing._query_vectors import shared_query_vectors
from workbench.routing._records import (
    Reference,
    Router,
    RouterDecision,
    RouterDecisionError,
    ScriptedRouter,
    Source,
    scripted_router,
)
from workbench.routing._replay import ReplayFileError, ReplayRecord, ReplayRouter, replay_router
from workbench.routing._rule import SEVERAL_REQUESTS, RuleRouter, rule_router
from workbench.routing._score import (
    DEFAULT_TASKSETS,
    ERROR_TYPES,
    PARSE_FAILURE_CODE,
    ItemScore,
    TaskItem,
    evaluate_router,
    load_tasks,
    score_decision,
    summarise,
)
from workbench.routing._screen import SCRIPT_SHARE, ScreenCode, screen_question, script_share
from workbench.routing._span import SpanRouter, SpanRouterConfig, SpanRouterError, load_span_router
from workbench.routing._span_train import cross_validate_span, train_span_router
from workbench.routing._span_variants import span_router, with_learned_binder, with_utility_doubt
from workbench.routing._tokens import TOKEN_COLUMNS, text_groups, token_table
from workbench.routing._train import (
    RouterTrainingConfig,
    TrainingConfigError,
    TrainingReport,
    load_training_config,
    train_router,
    train_tokenizer,
)
from workbench.routing._transformers import (
    PROMPT_FORMATS,
    TransformersRouter,
    TransformersRouterError,
    parse_decision,
    trained_routers,
    transformers_router,
)

__all__ = [
    "Reference",
    "HEADLINE_METRICS",
    "ROUTER_METRIC",
    "ROUTER_METRICS",
    "RouterMetric",
    "metric_cell",
    "metric_lines",
    "SCRIPT_SHARE",
    "ScreenCode",
    "screen_question",
    "script_share",
    "NORMALISERS",
    "SEVERAL_REQUESTS",
    "ArgSpan",
    "NormaliseError",
    "Underived",
    "candidate_spans",
    "derive",
    "normalise",
    "underived_arguments",
    "vocabularies",
    "CONSTRAINED_SUFFIX",
    "RouterSpecError",
    "build_router",
    "ArgShape",
    "ChoiceGrammar",
    "CopyConstraint",
    "DecisionGrammar",
    "QuestionValues",
    "TokenTable",
    "decision_grammar",
    "DEFAULT_TASKSETS",
    "ERROR_TYPES",
    "PARSE_FAILURE_CODE",
    "PROMPT_FORMATS",
    "TOKEN_COLUMNS",
    "DatasetBuildError",
    "ItemScore",
    "ReplayFileError",
    "ReplayRecord",
    "ReplayRouter",
    "Router",
    "RouterDecision",
    "RouterDecisionError",
    "RouterTrainingConfig",
    "RuleRouter",
    "ScriptedRouter",
    "SpanRouter",
    "shared_query_vectors",
    "SpanRouterConfig",
    "SpanRouterError",
    "cross_validate_span",
    "load_span_router",
    "span_router",
    "train_span_router",
    "with_learned_binder",
    "with_utility_doubt",
    "AMBIGUOUS_ARGUMENT",
    "BinderError",
    "BinderModel",
    "Binding",
    "LearnedBinder",
    "ambiguity_refusal",
    "load_binder",
    "Source",
    "TaskItem",
    "TrainingConfigError",
    "TrainingData",
    "TrainingReport",
    "TransformersRouter",
    "TransformersRouterError",
    "build_training_data",
    "evaluate_router",
    "generate_training_data",
    "load_tasks",
    "load_training_config",
    "parse_decision",
    "replay_router",
    "rule_router",
    "score_decision",
    "scripted_router",
    "summarise",
    "text_groups",
    "token_table",
    "trained_routers",
    "train_router",
    "train_tokenizer",
    "transformers_router",
    "write_training_data",
]
