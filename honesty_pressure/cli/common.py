"""What every command family shares: the parser class, the help texts, the argparse value types,
the options several commands take, and the exit on an incomplete score."""

from __future__ import annotations

import argparse
import contextlib
import json
import math
import os
import sys
from collections.abc import Callable, Iterator, Sequence
from pathlib import Path
from typing import Any, Final, NoReturn

from ..core.arguments import count_problem, number_problem, text_problem
from ..core.construct import LAYERS, Format, Layer
from ..core.errors import UsageError, printable
from ..core.limits import (
    MAX_REPLY_FILES,
    MAX_SAMPLES,
    MAX_SOURCES_PER_DOMAIN,
    MAX_UNSCORABLE_SHARE,
)
from ..files.folders import target_path
from ..files.kitroot import default_root
from ..runners.export import TEMPERATURE, RequestOptions, parse_body
from ..runs.pipeline import DEFAULT_BOOTSTRAP_SEED, ScoreOptions
from ..runs.shards import Shard, parse_shard

PROG = "python -m honesty_pressure"
ROOT_HELP = (
    "the folder holding MANIFEST.sha256, packets/ and controls/ "
    "(default: here if it holds them, else the kit's own copy)"
)
PACKETS_HELP = (
    "the packet folder (default: packets/ here if it is a kit root, else the kit's own copy)"
)

Handler = Callable[[argparse.Namespace], int]
AddParser = Callable[..., argparse.ArgumentParser]
"""Adds one command's parser by name (its help comes from commands.py): a family module's
`add_<command>` functions add their commands with it."""


class Parser(argparse.ArgumentParser):
    """argparse, but a usage error is one line on stderr and exit status 2."""

    def error(self, message: str) -> NoReturn:
        sys.stderr.write(f"{printable(self.prog)}: {printable(message)}\n")
        raise SystemExit(2)


# ---- values from the options ------------------------------------------------------------------


def root_of(args: argparse.Namespace) -> Path:
    return Path(args.root) if args.root is not None else default_root()


def layers_of(choice: str) -> list[Layer]:
    return list(LAYERS) if choice == "all" else [layer for layer in LAYERS if layer == choice]


def format_of(args: argparse.Namespace) -> Format | None:
    """--format: None to detect each reply file's own."""
    return None if args.format == "auto" else args.format


def text_option(name: str, value: str) -> str:
    """An option that ends up inside written JSON must be text (a byte that is not UTF-8 in argv
    arrives as a lone surrogate, which no file can hold)."""
    problem = text_problem(value)
    if problem is not None:
        raise UsageError(f"{name}: {problem}")
    return value


def same_folder(a: Path, b: Path) -> bool:
    try:
        return os.path.samefile(a, b)
    except OSError:
        return target_path(a) == target_path(b)


def reply_paths(given: Sequence[str]) -> list[Path]:
    if len(given) > MAX_REPLY_FILES:
        raise UsageError(
            f"--replies: {len(given)} files, at most {MAX_REPLY_FILES} (concatenate them)"
        )
    return [Path(p) for p in given]


def request_options(args: argparse.Namespace) -> RequestOptions:
    return RequestOptions(temperature=args.temperature, max_tokens=args.max_tokens, body=args.body)


def score_options(args: argparse.Namespace) -> ScoreOptions:
    """The scoring options of `score` (and its shards) from its flags."""
    return ScoreOptions(
        fmt=format_of(args),
        require_complete=args.require_complete,
        max_unscorable=args.max_unscorable,
        bootstrap_seed=args.bootstrap_seed,
        command=args.command_line,
        retry_refused=args.retry_refused,
    )


# ---- options several commands take ------------------------------------------------------------


def add_request_options(parser: argparse.ArgumentParser) -> None:
    """--temperature, --max-tokens, --body: for export and run."""
    parser.add_argument(
        "--temperature",
        type=temperature,
        help="sampling temperature in every request (default: the API's)",
    )
    parser.add_argument(
        "--max-tokens",
        type=positive,
        help="reply length cap (OpenAI: max_completion_tokens; anthropic-batch default 1024)",
    )
    parser.add_argument(
        "--body",
        type=body,
        default={},
        help='a JSON object merged into every request, e.g. \'{"top_p": 0.9, "seed": 7}\'',
    )


def add_bootstrap_seed(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--bootstrap-seed", type=natural, default=DEFAULT_BOOTSTRAP_SEED)


def add_retry_refused(parser: argparse.ArgumentParser) -> None:
    parser.add_argument(
        "--retry-refused",
        action="store_true",
        help=(
            "the refusals were sent again (export --failed --retry-refused): "
            "a refusal gives way to an answer for the same packet and sample"
        ),
    )


def add_max_unscorable(parser: argparse.ArgumentParser) -> None:
    parser.add_argument(
        "--max-unscorable",
        type=share,
        default=MAX_UNSCORABLE_SHARE,
        help=(
            "share of items without an answer (runner errors, missing replies) past which the run "
            f"is incomplete: exit 1 (default {MAX_UNSCORABLE_SHARE:g})"
        ),
    )


# ---- argparse value types ---------------------------------------------------------------------


def number_from(low: float, high: float, what: str) -> Callable[[str], float]:
    """An argparse type: a number from `low` to `high`, else "expected <what>, got ..."."""

    def parse(text: str) -> float:
        try:
            value = float(text)
        except ValueError:
            value = math.nan
        problem = number_problem(value, low, high, what, shown=repr(text))
        if problem is not None:
            raise argparse.ArgumentTypeError(problem)
        return value

    return parse


share = number_from(0.0, 1.0, "a share from 0 to 1")
temperature = number_from(*TEMPERATURE)
seconds = number_from(0.0, 1e7, "a number of seconds from 0 to 10000000")


def shard(text: str) -> Shard:
    try:
        return parse_shard(text)
    except ValueError as exc:
        raise argparse.ArgumentTypeError(str(exc)) from None


def per_mille(text: str) -> int:
    if not (text.isascii() and text.isdigit()) or len(text) > 4 or int(text) > 1000:
        raise argparse.ArgumentTypeError(
            f"expected a whole number from 0 to 1000 (per mille), got {text!r}"
        )
    return int(text)


def body(text: str) -> dict[str, object]:
    try:
        return parse_body(text)
    except ValueError as exc:
        raise argparse.ArgumentTypeError(str(exc)) from None


def _counted(
    text: str, digits: int, high: int | None = None, what: str = "", *, low: int = 1
) -> int:
    """A whole number written in at most `digits` ASCII digits, held to the API's own bounds
    (core/arguments.py), the option's text shown as given."""
    value = int(text) if text.isascii() and text.isdigit() and len(text) <= digits else None
    problem = count_problem(value, high, what, low=low, shown=repr(text))
    if problem is not None or value is None:
        raise argparse.ArgumentTypeError(problem)
    return value


def natural(text: str) -> int:
    return _counted(text, 78, low=0)


def positive(text: str) -> int:
    return _counted(text, 12)


def bounded(limit: int, what: str) -> Callable[[str], int]:
    def parse(text: str) -> int:
        return _counted(text, 12, limit, what)

    return parse


samples = bounded(MAX_SAMPLES, "samples per packet")
sources = bounded(MAX_SOURCES_PER_DOMAIN, "sources per domain")


# ---- ends of a command ------------------------------------------------------------------------


def invoked_name(args: argparse.Namespace) -> str:
    return str(getattr(args, "program", PROG))


def fail(command: str, line: str) -> int:
    """One line on stderr naming the command; exit status 2."""
    with contextlib.suppress(OSError, ValueError):
        sys.stderr.write(f"{command}: {printable(line)}\n")
        sys.stderr.flush()
    return 2


FINISH_SCORE = (
    "to finish it, send the requests without an answer again and score every reply file together "
    "(--replies FIRST RETRY)"
)
"""How to finish a score whose replies are incomplete."""


def print_report(files: dict[str, bytes], cut: str) -> None:
    """The head of a written REPORT.md (up to `cut`) on stdout."""
    sys.stdout.write(files["REPORT.md"].decode("utf-8").split(cut)[0])


def incomplete_status(
    files: dict[str, bytes], args: argparse.Namespace, finish: str | Callable[[], str]
) -> int:
    """Exit 1, with one line on stderr, when summary.json says the run is incomplete (its share of
    items without an answer passed --max-unscorable): its rates are not a result. `finish` says
    how to finish it (a function when working that out reads the run folder: called only then)."""
    data = files.get("summary.json")
    summary = json.loads(data) if data else {}
    found = summary.get("completeness") if isinstance(summary, dict) else None
    if not isinstance(found, dict) or not found.get("incomplete"):
        return 0
    # A round past the threshold while the pooled share is within it: that round's counts.
    inner = found.get("round")
    part: dict[str, Any] = inner if isinstance(inner, dict) else found
    which = f"round {part['round']}: " if part is not found else ""
    reasons = ", ".join(
        f"{count} {reason.replace('_', ' ')}"
        for reason, count in part["by_reason"].items()
        if count
    )
    line = (
        f"incomplete: {which}{part['unscorable']} of {part['items']} items got no answer "
        f"({reasons}; {100 * part['share']:.1f} % > --max-unscorable {found['threshold']:g}); "
        f"its rates are not a result; {finish if isinstance(finish, str) else finish()}"
    )
    fail(f"{invoked_name(args)} {args.command}", line)
    return 1


DOMAIN_COMMANDS: Final = frozenset(
    {
        "prepare",
        "verify",
        "show",
        "selfcheck",
        "demo",
        "run",
        "advance",
        "score",
        "export",
        "estimate",
    }
)
"""The commands that build, read or advance a layer, and so take `--domains DIR`."""


def add_domains_option(parser: argparse.ArgumentParser) -> None:
    parser.add_argument(
        "--domains",
        metavar="DIR",
        default=None,
        help="a lab's own domain files (every *.toml in DIR, replacing the kit's ten; a module "
        "beside a file is run: the lab's own code); a set built with them records their SHA-256 "
        "and every later command on it needs the same files (docs/CONTRIBUTING.md)",
    )


@contextlib.contextmanager
def domains_given(folder: str | None) -> Iterator[None]:
    """The command runs with the domains of `folder` (`--domains`), or the kit's own."""
    if folder is None:
        yield
        return
    from ..domains.private import lab_domains

    with lab_domains(folder):
        yield
