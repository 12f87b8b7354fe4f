"""One error hierarchy for the kit: every bad input becomes a KitError that names where it is.

The CLI turns any KitError into one line on stderr and exit status 2, so the message format is
part of the contract and tests pin it.
"""

from __future__ import annotations


class KitError(Exception):
    """A problem with the user's input or invocation; carries the file, line and field."""

    def __init__(
        self,
        problem: str,
        *,
        file: str | None = None,
        line: int | None = None,
        field: str | None = None,
    ) -> None:
        self.problem = problem
        self.file = file
        self.line = line
        self.field = field
        super().__init__(self.one_line())

    def one_line(self) -> str:
        where = ""
        if self.file is not None:
            where = self.file
            if self.line is not None:
                where += f":{self.line}"
            where += ": "
        field = f"{self.field}: " if self.field else ""
        return f"{where}{field}{self.problem}"


class UsageError(KitError, ValueError):
    """A command-line option or argument is not valid."""


class InputError(KitError, ValueError):
    """An input file is malformed or does not belong to this packet set."""


class OutputError(KitError, OSError):
    """The output location cannot be written; nothing was written."""
