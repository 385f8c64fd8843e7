"""Running every executable example of the catalog in-process."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from workbench.utilities._call import call_utility
from workbench.utilities._catalog import load_catalog
from workbench.utilities._schema import Example


@dataclass(frozen=True)
class ExampleFailure:
    """One example whose call did not return the expected result."""

    example: str
    """The example id (``hash.sha256#1``)."""
    expected: Any
    """The result written in the catalog."""
    got: Any
    """What the call returned: the result, or the refusal as a dict."""

    def to_dict(self) -> dict[str, Any]:
        """A JSON-ready form."""
        return {"example": self.example, "expected": self.expected, "got": self.got}


@dataclass(frozen=True)
class ExampleReport:
    """The outcome of running every example."""

    total: int
    """Examples run."""
    passed: int
    """Examples whose result equals the expected one."""
    failed: int
    """Examples that did not."""
    failures: tuple[ExampleFailure, ...] = field(default=())
    """Each failed example with what it returned."""

    def to_dict(self) -> dict[str, Any]:
        """A JSON-ready form."""
        return {
            "total": self.total,
            "passed": self.passed,
            "failed": self.failed,
            "failures": [f.to_dict() for f in self.failures],
        }


def all_examples() -> list[Example]:
    """Every example of the catalog, in utility id order."""
    return [e for s in load_catalog().schemas.values() for e in s.examples]


def results_equal(expected: Any, got: Any) -> bool:
    """Equality as JSON would see it: 30 equals 30.0, but True is not 1."""
    if isinstance(expected, bool) or isinstance(got, bool):
        return type(expected) is type(got) and expected == got
    if isinstance(expected, dict) and isinstance(got, dict):
        return expected.keys() == got.keys() and all(
            results_equal(v, got[k]) for k, v in expected.items()
        )
    if isinstance(expected, list) and isinstance(got, list):
        return len(expected) == len(got) and all(
            results_equal(a, b) for a, b in zip(expected, got, strict=True)
        )
    return bool(expected == got)


def run_example(example: Example) -> ExampleFailure | None:
    """Run one example; ``None`` when it passes."""
    outcome = call_utility(example.utility, dict(example.args))
    got = outcome.result if outcome.ok else outcome.to_dict()
    if outcome.ok and results_equal(example.result, got):
        return None
    return ExampleFailure(example=example.id, expected=example.result, got=got)


def run_examples() -> ExampleReport:
    """Run every example in-process and report the counts and the failures."""
    examples = all_examples()
    failures = tuple(f for f in (run_example(e) for e in examples) if f is not None)
    return ExampleReport(
        total=len(examples),
        passed=len(examples) - len(failures),
        failed=len(failures),
        failures=failures,
    )
