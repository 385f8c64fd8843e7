"""What a router decides, the protocol every router follows, and the scripted router.

A router only *chooses*: a source, a category, a utility or a specification, and arguments; it
never writes the content of an answer. The scripted router replays decisions written down in
advance, keyed by the question's text, so tests and offline demos run without any model.
"""

from __future__ import annotations

import enum
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any, Protocol, runtime_checkable

from workbench.errors import WorkbenchError
from workbench.refusal import Refusal
from workbench.registry import router
from workbench.routing._normalise import ArgSpan
from workbench.utilities import UtilitySchema


class Source(enum.StrEnum):
    """Where a decision sends a question; a closed set."""

    UTILITY = "utility"
    """Call a catalog utility by id with arguments."""
    QUOTE = "quote"
    """Look for a verbatim quote in the corpus."""
    SPEC = "spec"
    """Evaluate a certified specification with inputs."""
    REFUSE = "refuse"
    """Refuse at once: no source fits the question."""


class RouterDecisionError(WorkbenchError, ValueError):
    """A decision that names no known source, or lacks what its source needs."""


@dataclass(frozen=True)
class RouterDecision:
    """One routing decision for one question."""

    source: Source
    """Which source answers: utility, quote, spec, or refuse."""
    category: str | None = None
    """The utility category (or a topic label), when the router names one."""
    utility: str | None = None
    """The utility id, for the utility source."""
    spec: str | None = None
    """The specification id, for the spec source."""
    args: Mapping[str, Any] = field(default_factory=dict)
    """Arguments of the utility or inputs of the specification, as the router bound them."""
    refusal: Refusal | None = None
    """The router's own refusal, for the refuse source."""
    raw_output: str = ""
    """What the router emitted before parsing (empty for routers without text output)."""
    prompt_tokens: int = 0
    """Tokens the router read."""
    output_tokens: int = 0
    """Tokens the router wrote."""
    arg_spans: Mapping[str, ArgSpan] = field(default_factory=dict)
    """For each argument bound from the question: its span and normaliser (empty for routers
    that keep no spans; their values are checked by :func:`underived_arguments` instead)."""

    def __post_init__(self) -> None:
        try:
            object.__setattr__(self, "source", Source(self.source))
        except ValueError:
            known = ", ".join(s.value for s in Source)
            raise RouterDecisionError(f"unknown source {self.source!r}; known: {known}") from None
        if self.source is Source.UTILITY and not self.utility:
            raise RouterDecisionError("a utility decision needs a utility id")
        if self.source is Source.SPEC and not self.spec:
            raise RouterDecisionError("a spec decision needs a specification id")

    def to_dict(self) -> dict[str, Any]:
        """A JSON-ready form."""
        return {
            "source": str(self.source), "category": self.category, "utility": self.utility,
            "spec": self.spec, "args": dict(self.args),
            "refusal": self.refusal.to_dict() if self.refusal else None,
            "raw_output": self.raw_output, "prompt_tokens": self.prompt_tokens,
            "output_tokens": self.output_tokens,
            "arg_spans": {name: span.to_dict() for name, span in self.arg_spans.items()},
        }

    @classmethod
    def from_dict(cls, data: Mapping[str, Any]) -> RouterDecision:
        """Rebuild a decision from :meth:`to_dict` output or from a task set's gold decision.

        A gold refusal names only its code (``"refusal": "MISSING_ARGUMENT"``, with ``missing``
        or ``argument`` beside it); it becomes a :class:`Refusal` whose numbers hold those names.
        """
        refusal = data.get("refusal")
        if isinstance(refusal, str):
            named = {key: data[key] for key in ("utility", "missing", "argument") if key in data}
            refusal = {"code": refusal, "area": "task-set gold decision", "numbers": named,
                       "text": f"The decision is a refusal ({refusal})."}
            data = {k: v for k, v in data.items() if k not in ("utility", "missing", "argument")}
        return cls(
            source=data["source"], category=data.get("category"), utility=data.get("utility"),
            spec=data.get("spec"), args=dict(data.get("args") or {}),
            refusal=Refusal(**refusal) if refusal else None,
            raw_output=str(data.get("raw_output", "")),
            prompt_tokens=int(data.get("prompt_tokens", 0)),
            output_tokens=int(data.get("output_tokens", 0)),
            arg_spans={str(name): ArgSpan.from_dict(span)
                       for name, span in (data.get("arg_spans") or {}).items()},
        )


@runtime_checkable
class Router(Protocol):
    """Anything that turns a question into a :class:`RouterDecision`."""

    def route(self, question: str) -> RouterDecision:
        """Decide where ``question`` goes."""
        ...


class Reference(Protocol):
    """What a learned router reads of a deterministic one it consults (the span router's reference).

    The span router's module imports no other router: it builds its reference by name through the
    registry (``SpanRouterConfig.reference``), so what it takes from the rule router is this
    interface and nothing else.
    """

    schemas: Mapping[str, UtilitySchema]
    """The catalog's utilities, by id."""
    triggers: Mapping[str, tuple[str, ...]]
    """The words that name each utility (its own name among them), by id."""

    def route(self, question: str) -> RouterDecision:
        """The reference router's own decision (the vote, the doubtful quote's refusal)."""
        ...

    def keyword_scores(self, question: str) -> dict[str, int]:
        """Each utility's keyword score, for the utilities that score at all (the prior)."""
        ...

    def bind(self, uid: str, question: str) -> dict[str, ArgSpan]:
        """Each argument of ``uid`` that a span of the question gives a value for."""
        ...

    def utility_decision(self, uid: str, question: str, spans: dict[str, ArgSpan]) -> RouterDecision:
        """The call of ``uid`` with ``spans``, or a refusal where the question holds two requests."""
        ...


class ScriptedRouter:
    """Replays decisions given up front, keyed by the exact question text.

    A question it was not given is sent to the refuse source, so an unscripted question can
    never reach a source by accident.
    """

    def __init__(self, decisions: Mapping[str, RouterDecision | Mapping[str, Any]] | None = None
                 ) -> None:
        self.decisions: dict[str, RouterDecision] = {
            question: d if isinstance(d, RouterDecision) else RouterDecision.from_dict(d)
            for question, d in (decisions or {}).items()
        }

    def route(self, question: str) -> RouterDecision:
        """The scripted decision for ``question``, or a refuse decision when none was given."""
        decision = self.decisions.get(question)
        if decision is not None:
            return decision
        refusal = Refusal(
            code="NOT_SCRIPTED", area=f"scripted router ({len(self.decisions)} questions)",
            numbers={"scripted": len(self.decisions)},
            text=f"This question is not among the {len(self.decisions)} questions the scripted "
                 "router was given, so no source was chosen.")
        return RouterDecision(source=Source.REFUSE, refusal=refusal)


@router("scripted")
def scripted_router(decisions: Mapping[str, Any] | None = None) -> ScriptedRouter:
    """Build a :class:`ScriptedRouter` from ``question -> decision`` (records or dicts)."""
    return ScriptedRouter(decisions)
