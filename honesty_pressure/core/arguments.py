"""The values an option or an argument may take, checked once for the command line and the API.

The command line reads each option as text (cli/common.py's argparse types parse it, then ask
here); the Python API takes values and asks here too (`check`, `count`, `choice`, `text`, ...).
So a value the CLI refuses is refused in Python with the same words, as an InputError naming
the argument (`samples: at most 1000 samples per packet, got 1001`), never accepted to fail
later (738 MB of requests the scorer then refuses, an empty summary, a raw UnicodeEncodeError).
"""

from __future__ import annotations

import math
import os
from collections.abc import Sequence
from pathlib import Path
from typing import TypeVar

from .errors import InputError

T = TypeVar("T", bound=str)


def _shown(value: object) -> str:
    text = repr(value)
    return text if len(text) <= 40 else text[:37] + "..."


def count_problem(
    value: object,
    high: int | None = None,
    what: str = "",
    *,
    low: int = 1,
    shown: str | None = None,
) -> str | None:
    """Why `value` is not a whole number from `low` (1 or 0) to `high` (`what` names the unit),
    or None: the words of the CLI's `positive`, `natural` and `bounded` types (`shown`: what is
    not a number as the user wrote it, the option's text)."""
    if not isinstance(value, int) or isinstance(value, bool) or value < low:
        kind = "a positive whole number" if low >= 1 else "a whole number"
        return f"expected {kind}, got {shown or _shown(value)}"
    if high is not None and value > high:
        return f"at most {high} {what}, got {value}"
    return None


def number_problem(
    value: object, low: float, high: float, what: str, *, shown: str | None = None
) -> str | None:
    """Why `value` is not a number from `low` to `high` (`what`: "a number from 0 to 2"), or
    None: the words of the CLI's `number_from` types."""
    number = value if isinstance(value, (int, float)) and not isinstance(value, bool) else math.nan
    if not low <= number <= high:
        return f"expected {what}, got {shown or _shown(value)}"
    return None


def choice_problem(value: object, choices: Sequence[str]) -> str | None:
    """Why `value` is not one of `choices`, or None (argparse's `choices=` in the API's words)."""
    if isinstance(value, str) and value in choices:
        return None
    return f"expected one of {', '.join(choices)}, got {_shown(value)}"


def text_problem(value: object) -> str | None:
    """Why `value` cannot be written into a file as text, or None: not a string, or a string
    with a lone surrogate (an undecodable byte of argv arrives as one; no UTF-8 file holds it)."""
    if not isinstance(value, str):
        return f"expected text, got {type(value).__name__}"
    try:
        value.encode("utf-8")
    except UnicodeEncodeError:
        return "not valid UTF-8 text"
    return None


def path_problem(value: object) -> str | None:
    """Why `value` is not a file or folder name this system can use, or None: a string or a path
    object whose text the file system can encode (an undecodable byte of argv arrives as a
    surrogate the encoding takes back; any other lone surrogate has no bytes to name a file)."""
    if not isinstance(value, (str, os.PathLike)):
        return f"expected a path (a string or a path object), got {type(value).__name__}"
    try:
        os.fsencode(value)
    except UnicodeEncodeError:
        return "not a name a file can have (a lone surrogate)"
    except TypeError:  # a path object that does not give text or bytes
        return f"expected a path (a string or a path object), got {type(value).__name__}"
    return None


def check(problem: str | None, name: str) -> None:
    """Raise the API's error for `problem`: an InputError naming the argument `name`."""
    if problem is not None:
        raise InputError(problem, field=name)


def count(value: int, name: str, high: int | None = None, what: str = "", *, low: int = 1) -> int:
    check(count_problem(value, high, what, low=low), name)
    return value


def choice(value: T, name: str, choices: Sequence[T]) -> T:
    check(choice_problem(value, choices), name)
    return value


def text(value: str, name: str) -> str:
    check(text_problem(value), name)
    return value


def optional_text(value: str | None, name: str) -> str | None:
    return None if value is None else text(value, name)


def path(value: str | os.PathLike[str], name: str) -> Path:
    """A file or folder argument as a Path (the API takes a string or a path object)."""
    check(path_problem(value), name)
    return Path(value)


def paths(values: Sequence[str | os.PathLike[str]], name: str) -> list[Path]:
    """Several file arguments (reply files) as Paths."""
    if isinstance(values, (str, bytes, os.PathLike)):
        raise InputError("expected a list of paths, got one path", field=name)
    return [path(value, name) for value in values]


__all__ = [
    "check",
    "choice",
    "choice_problem",
    "count",
    "count_problem",
    "number_problem",
    "optional_text",
    "path",
    "path_problem",
    "paths",
    "text",
    "text_problem",
]
