"""The command line: the top parser, one module per command family, and the exit statuses.

Exit status: 0 success, 1 a check found a problem, 2 bad input or usage (one line on stderr
naming the file, the line and what is wrong; nothing half-written).

Each command family lives in a module of its own (packets, checks, run, reports, export,
advance, score), whose commands parse their flags and call the library; commands.py lists every
command (the top parser imports a family's module only for the command given), common.py holds
what they share and sharding.py the shard and merge options of `score` and `advance`.
"""

from __future__ import annotations

import argparse
import contextlib
import gc
import importlib
import os
import shlex
import signal
import sys
from collections.abc import Sequence
from typing import Any

from ..core.errors import Incomplete, KitError, Stopped
from ..core.version import __version__
from .commands import COMMANDS, HELP
from .common import (
    DOMAIN_COMMANDS,
    PROG,
    Handler,
    Parser,
    add_domains_option,
    domains_given,
    fail,
    invoked_name,
)

__all__ = ["PROG", "build_parser", "command_line", "invoked_name", "main", "run"]


def build_parser(prog: str = PROG, command: str | None = None) -> argparse.ArgumentParser:
    """The whole parser; with `command`, that command's parser whole and every other one only by
    its name and help (what parsing a command line that names `command` needs)."""
    parser = Parser(
        prog=prog, description="Honesty under pressure: does the decision move with the evidence?"
    )
    parser.add_argument("--version", action="version", version=f"honesty_pressure {__version__}")
    sub = parser.add_subparsers(dest="command", required=True, parser_class=Parser)

    def add(name: str, **options: Any) -> argparse.ArgumentParser:
        command = sub.add_parser(name, help=HELP[name], **options)
        if name in DOMAIN_COMMANDS:
            add_domains_option(command)
        return command

    for name, module, adder, text in COMMANDS:
        if command is None or name == command:
            getattr(importlib.import_module(f".{module}", __package__), adder)(add)
        else:
            sub.add_parser(name, help=text)
    return parser


def named_command(argv: Sequence[str]) -> str:
    """The command a command line names: its first argument that is not an option (the top
    parser's options take no value), or "" when it names none the kit has."""
    first = next((arg for arg in argv if not arg.startswith("-")), "")
    return first if first in HELP else ""


def command_line(argv: Sequence[str] | None) -> str:
    """The command as the user typed it: `python -m honesty_pressure ...` or the script's name.
    An argument that is not valid UTF-8 (a file name's raw bytes) is recorded with \\x escapes."""
    return shlex.join(command_tokens(argv))


def command_tokens(argv: Sequence[str] | None) -> list[str]:
    return [*program(argv).split(), *map(_recordable, sys.argv[1:] if argv is None else argv)]


def program(argv: Sequence[str] | None) -> str:
    """The name the kit was invoked by: `honesty-pressure` (the script) or `python -m
    honesty_pressure`, so that every message names a command the user can type."""
    if argv is not None:
        return PROG
    first = sys.argv[0] if sys.argv else PROG
    return (
        PROG if first.endswith("__main__.py") or not first else _recordable(os.path.basename(first))
    )


def _recordable(arg: str) -> str:
    """argv's undecodable bytes (U+DC80 to U+DCFF) as x-escapes; any other lone surrogate (only a
    caller of main() can pass one) as a u-escape: never an exception."""
    if _odd_surrogate(arg):
        return arg.encode("unicode_escape").decode("ascii")
    return arg.encode("utf-8", "surrogateescape").decode("utf-8", "backslashreplace")


def _odd_surrogate(arg: str) -> bool:
    return any("\ud800" <= c <= "\udfff" and not "\udc80" <= c <= "\udcff" for c in arg)


COMMAND_GC_THRESHOLD: tuple[int, int, int] = (50_000, 20, 100)
"""The collector's thresholds while a command runs. The kit holds large, long-lived structures (a
packet layer, a run's forks) and makes many small short-lived ones, with no cycles worth chasing:
a collection every 700 allocations (the default) traverses the long-lived ones again and again, a
fifth of advance's time."""


def main(argv: Sequence[str] | None = None) -> int:
    """One command, its exit status returned. The collector's thresholds are the command's own
    (COMMAND_GC_THRESHOLD) only while it runs: a caller that runs commands in its own process gets
    its collector back as it was."""
    before = gc.get_threshold()
    gc.set_threshold(*COMMAND_GC_THRESHOLD)
    try:
        return _command(argv)
    finally:
        gc.set_threshold(*before)


def _command(argv: Sequence[str] | None) -> int:
    # A report or a path may hold characters the terminal's encoding lacks: escape, never crash.
    for stream in (sys.stdout, sys.stderr):
        with contextlib.suppress(AttributeError, ValueError):
            stream.reconfigure(errors="backslashreplace")  # type: ignore[union-attr]
    name = program(argv)
    given = sys.argv[1:] if argv is None else argv
    args = build_parser(name, named_command(given)).parse_args(argv)
    args.program = name
    args.command_line = command_line(argv)
    args.command_tokens = command_tokens(argv)
    handler: Handler = args.handler
    command = f"{name} {args.command}"
    try:
        with domains_given(getattr(args, "domains", None)):
            return handler(args)
    except Incomplete as exc:
        fail(command, exc.one_line())
        return 1
    except KitError as exc:
        return fail(command, exc.one_line())
    except BrokenPipeError:
        return 0
    except Stopped as exc:
        signame = signal.Signals(exc.signum).name
        fail(
            command,
            f"stopped by {signame}; what was written so far is kept (run again to resume a run)",
        )
        return 128 + exc.signum
    except KeyboardInterrupt:
        fail(command, "interrupted; what was written so far is kept (run again to resume a run)")
        return 130
    except MemoryError:
        return fail(
            command,
            "out of memory (an input far larger than the kit's limits?); nothing was written",
        )
    except RecursionError:
        return fail(command, "input nested too deeply; nothing was written")
    except Exception as exc:  # noqa: BLE001 - the contract is one line, never a traceback
        if os.environ.get("HONESTY_PRESSURE_TRACEBACK"):
            raise
        return fail(
            command,
            "internal error, please report it (set HONESTY_PRESSURE_TRACEBACK=1 for details): "
            f"{type(exc).__name__}: {exc}",
        )


def run() -> int:
    """The program's entry point (`python -m honesty_pressure`, the `honesty-pressure` script):
    main(), then a cheap exit. `main` itself stays free of process-wide effects for callers that
    run it in-process (the tests)."""
    # No cyclic collection in a command's process: the kit's structures hold no reference cycles
    # (tests/cli/test_cycles.py collects after each large command and finds only argparse's few
    # hundred objects), so the collector finds nothing to free, yet it walks every container the
    # command keeps alive: about 0.5 s of score --run's 8 s, 0.3 s of advance's 4.4 s, with the
    # same peak memory. Reference counting frees everything else as before.
    gc.disable()
    code = main()
    # At exit the interpreter runs full collections over everything still alive (before and after
    # tearing the modules down): on a 4800-reply advance that took about 1 s of CPU, and it finds
    # nothing the program needs (every file is written and closed by now). Frozen objects are
    # skipped by those collections; their memory goes back with the process.
    gc.freeze()
    return code


if __name__ == "__main__":
    raise SystemExit(run())
