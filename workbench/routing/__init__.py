"""Routing: the decision record, the router protocol and the scripted router.

A router reads a question and chooses a source (utility, quote, spec, or refuse) with the id and
arguments that source needs. The scripted router replays decisions given up front; the rule router
is the keyword/pattern baseline; ``score_decision``/``evaluate_router``/``summarise`` score them.
"""

from workbench.routing._records import (
    Router,
    RouterDecision,
    RouterDecisionError,
    ScriptedRouter,
    Source,
    scripted_router,
)
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

__all__ = ["ERROR_TYPES", "PARSE_FAILURE_CODE", "ItemScore", "Router", "RouterDecision",
           "RouterDecisionError", "RuleRouter", "ScriptedRouter", "Source", "TaskItem",
           "evaluate_router", "load_tasks", "rule_router", "score_decision", "scripted_router",
           "summarise"]
