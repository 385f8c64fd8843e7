"""Routing: the decision record, the router protocol and the scripted router.

A router reads a question and chooses a source (utility, quote, spec, or refuse) with the id and
arguments that source needs. Only the scripted router lives here for now; it replays decisions
given up front, for tests and offline demos.
"""

from workbench.routing._records import (
    Router,
    RouterDecision,
    RouterDecisionError,
    ScriptedRouter,
    Source,
    scripted_router,
)

__all__ = ["Router", "RouterDecision", "RouterDecisionError", "ScriptedRouter", "Source",
           "scripted_router"]
