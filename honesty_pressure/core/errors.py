"""One error hierarchy for the kit: every bad input becomes a KitError that names where it is.

The CLI turns any KitError into one line on stderr and exit status 2, so the message format is
part of the contract and tests pin it. A file name may hold any byte but `/` and NUL, a newline
included: names are shown with control characters and undecodable bytes escaped, so the message
stays one line whatever the name.
"""

from __future__ import annotations


def printable(text: str) -> str:
    """`text` with control characters, lone surrogates (undecodable bytes in a file name) and
    other unprintable characters escaped as `\\n`, `\\x1b`, `\\udcff`: always one line."""
    if text.isprintable():
        return text
    return "".join(
        c if c.isprintable() else c.encode("unicode_escape", "backslashreplace").decode("ascii")
        for c in text
    )


def as_text(text: str) -> str:
    """A path or name as text any file can hold: an undecodable byte of a file name (a lone
    surrogate, `\\udcff`) as its escape, so writing it as UTF-8 never fails."""
    return text.encode("utf-8", "backslashreplace").decode("utf-8")


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
        return printable(f"{where}{field}{self.problem}")


class UsageError(KitError, ValueError):
    """A command-line option or argument is not valid."""


class InputError(KitError, ValueError):
    """An input file is malformed or does not belong to this packet set."""


class OutputError(KitError, OSError):
    """The output location cannot be written; nothing was written."""


class BusyError(OutputError):
    """Another command is writing (or reading) the same folder right now; nothing was written."""


class Incomplete(KitError):
    """A run or score whose share of items without an answer passes `--max-unscorable`: what was
    written is kept (the report says it is incomplete), and the command exits 1, not 2."""


class Stopped(BaseException):
    """`run` got SIGTERM, SIGINT or SIGHUP: stop the runner, keep what arrived, exit (here, not in
    runs.runner, so that the CLI can catch it without importing the runner for every command)."""

    def __init__(self, signum: int) -> None:
        super().__init__(signum)
        self.signum = signum
