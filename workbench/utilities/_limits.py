"""Declared limits of every utility call: argument sizes, call time, and what breaking one raises.

Sizes are declared per argument in the schema (:class:`workbench.utilities._schema.Argument`,
with defaults derived from the type) and measured here, before any call, by the common argument
checker. Time is bounded by a deadline that the common call path arms around EVERY utility:

* on the main thread an interval timer (``SIGALRM``) raises :class:`CallTimeout` in the running
  frame;
* on any other thread a watchdog thread raises it asynchronously in the calling thread
  (``PyThreadState_SetAsyncExc``), since signals reach the main thread only.

Both land between two bytecodes, so a single C call runs to its end: a regular-expression match,
a power of a big integer, a hash of a long text. The utilities cooperate with that: patterns run
in the ``regex`` module with a ``timeout=`` taken from :func:`remaining`, integers and texts
handed to C code are bounded by the size limits, and YAML is read by the pure-Python loader with
a cap on its expansion. A deadline fires once; :class:`CallTimeout` derives from
``BaseException`` so that no ``except Exception`` inside a utility or a library swallows it.
"""

from __future__ import annotations

import ctypes
import math
import signal
import threading
import time
from collections.abc import Callable
from typing import Any

from workbench.errors import WorkbenchError

CALL_SECONDS = 2.0
"""The default time of one call, in seconds (a schema may declare its own)."""

MAX_INT_DIGITS = 40
"""The most decimal digits an ``integer`` argument may have (bounds big-integer arithmetic)."""

MAX_ITEMS = 10_000
"""The default number of values an ``array`` or ``object`` argument holds, nested ones counted."""

MAX_DEPTH = 32
"""How deep an ``array`` or ``object`` argument may nest."""


class LimitExceeded(WorkbenchError):
    """A call broke a declared limit; becomes a ``LIMIT_EXCEEDED`` refusal naming it."""

    def __init__(
        self,
        limit: str,
        value: Any,
        bound: Any,
        argument: str | None = None,
        *,
        at_least: bool = False,
    ) -> None:
        self.limit = limit
        """The limit's name: ``call_seconds``, ``max_chars``, ``yaml_nodes``..."""
        self.value = value
        """What was measured (characters, values, seconds spent, nodes)."""
        self.bound = bound
        """The declared limit."""
        self.argument = argument
        """The argument measured, when the limit is on one."""
        self.at_least = at_least
        """Whether counting stopped once past the bound (``value`` is then a lower bound)."""
        about = f"argument {argument!r}: " if argument else ""
        super().__init__(f"{about}limit {limit!r} is {bound}, measured {value}")


class CallTimeout(BaseException):  # noqa: N818 - raised by a timer, not a bug report
    """Raised inside a running utility when its deadline passes (see the module docstring)."""


_local = threading.local()


def deadline_passed() -> LimitExceeded:
    """The ``call_seconds`` refusal for a utility that saw its deadline pass in C code.

    A ``regex`` match stopped by its ``timeout=`` raises ``TimeoutError`` instead of letting
    the timer fire; the utility turns it into this.
    """
    seconds = getattr(_local, "seconds", CALL_SECONDS)
    started = getattr(_local, "started", None)
    spent = time.perf_counter() - started if started is not None else seconds
    return LimitExceeded("call_seconds", round(spent, 3), seconds)


def remaining(default: float = CALL_SECONDS) -> float:
    """Seconds left before this thread's deadline; ``default`` when no call is bounded."""
    end = getattr(_local, "end", None)
    if end is None:
        return default
    return max(end - time.perf_counter(), 0.001)


def _async_raise(thread_id: int, exc: type[BaseException] | None) -> None:
    # CPython's documented hook for raising in another thread; None clears a pending one.
    ctypes.pythonapi.PyThreadState_SetAsyncExc(
        ctypes.c_ulong(thread_id), ctypes.py_object(exc) if exc is not None else None
    )


class _Guard:
    """One armed deadline in one thread; ``disarm`` may run twice and restores what it found."""

    def __init__(self, seconds: float) -> None:
        self.seconds = seconds
        self.started = time.perf_counter()
        self.armed = False
        self.fired = False
        self.lock = threading.Lock()
        self.stop = threading.Event()
        self.thread_id = threading.get_ident()
        self.on_main = threading.current_thread() is threading.main_thread() and hasattr(
            signal, "setitimer"
        )
        self.previous_handler: Any = None
        self.previous_timer: tuple[float, float] = (0.0, 0.0)

    def spent(self) -> float:
        return time.perf_counter() - self.started

    def _on_alarm(self, signum: int, frame: Any) -> None:
        if self.armed and not self.fired:
            self.fired = True
            raise CallTimeout

    def _watch(self) -> None:
        if self.stop.wait(self.seconds):
            return
        with self.lock:
            if self.armed and not self.fired:
                self.fired = True
                _async_raise(self.thread_id, CallTimeout)

    def arm(self) -> None:
        self.started = time.perf_counter()
        _local.end = self.started + self.seconds
        _local.started, _local.seconds = self.started, self.seconds
        self.armed = True
        if self.on_main:
            try:
                self.previous_handler = signal.signal(signal.SIGALRM, self._on_alarm)
            except ValueError:  # the main thread of a sub-interpreter takes no handlers
                self.on_main = False
        if self.on_main:
            self.previous_timer = signal.setitimer(signal.ITIMER_REAL, self.seconds)
        else:
            threading.Thread(target=self._watch, name="utility-deadline", daemon=True).start()

    def disarm(self) -> None:
        if not self.armed:
            return
        with self.lock:
            self.armed = False
        _local.end = _local.started = None
        if self.on_main:
            signal.setitimer(signal.ITIMER_REAL, 0)
            handler = self.previous_handler
            signal.signal(signal.SIGALRM, handler if handler is not None else signal.SIG_DFL)
            left, interval = self.previous_timer
            if left > 0:  # someone else's alarm was running: give it back what is left of it
                signal.setitimer(signal.ITIMER_REAL, max(left - self.spent(), 0.001), interval)
        else:
            self.stop.set()
            if self.fired:
                _async_raise(self.thread_id, None)


def call_within(seconds: float, fn: Callable[..., Any], /, **kwargs: Any) -> Any:
    """``fn(**kwargs)`` under a deadline of ``seconds``.

    A call made while another deadline of this thread is armed runs under that one (the outer
    deadline already bounds it).

    Raises:
        LimitExceeded: ``call_seconds`` when the deadline passed before ``fn`` returned.
    """
    if getattr(_local, "end", None) is not None:
        return fn(**kwargs)
    guard = _Guard(seconds)
    try:
        try:
            guard.arm()
            return fn(**kwargs)
        finally:
            guard.disarm()
    except CallTimeout:
        # The timer fires once, so this second disarm (for a first one it cut short) is safe.
        guard.disarm()
        if not guard.fired:
            raise
        raise LimitExceeded("call_seconds", round(guard.spent(), 3), seconds) from None


def integer_digits(value: int) -> int:
    """Decimal digits of ``value`` without ``str()`` (which refuses above 4300 digits)."""
    magnitude = abs(value)
    if magnitude < 10:
        return 1
    digits = int(magnitude.bit_length() * math.log10(2)) + 1
    if magnitude < 10 ** (digits - 1):
        digits -= 1
    return digits


def measure(value: Any, max_items: int, max_chars: int, max_depth: int) -> tuple[int, int, int]:
    """``(values, characters, depth)`` of a JSON-shaped value, nested values included.

    Iterative, and it stops as soon as one count passes its limit (that count is then a lower
    bound), so a hostile value, even one whose lists share themselves, costs no more than the
    limit it breaks.
    """
    values = chars = depth = 0
    stack: list[tuple[Any, int]] = [(value, 1)]
    while stack and values <= max_items and chars <= max_chars and depth <= max_depth:
        item, level = stack.pop()
        depth = max(depth, level)
        if isinstance(item, str):
            chars += len(item)
        elif isinstance(item, dict):
            values += len(item)
            chars += sum(len(k) for k in item if isinstance(k, str))
            if values <= max_items:
                stack.extend((child, level + 1) for child in item.values())
        elif isinstance(item, list | tuple):
            values += len(item)
            if values <= max_items:
                stack.extend((child, level + 1) for child in item)
    return values, chars, depth


__all__ = [
    "CALL_SECONDS",
    "MAX_DEPTH",
    "MAX_INT_DIGITS",
    "MAX_ITEMS",
    "CallTimeout",
    "LimitExceeded",
    "call_within",
    "deadline_passed",
    "integer_digits",
    "measure",
    "remaining",
]
