"""The root of every typed error the workbench raises on bad input.

The CLI prints any :class:`WorkbenchError` as one clear line and exits with status 2; anything
else is a bug and keeps its traceback.
"""


class WorkbenchError(Exception):
    """Bad input or state that the user can fix; the message says what to do."""


__all__ = ["WorkbenchError"]
