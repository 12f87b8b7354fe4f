"""The commands that drive a whole run: run (through an external runner) and demo (a simulated
assistant, offline)."""

from __future__ import annotations

import argparse
import contextlib
from pathlib import Path

from ..core.construct import LAYERS, PROTOCOLS
from ..core.errors import KitError, UsageError
from ..core.limits import MAX_SAMPLES
from ..files.folders import inspect_target, target_path
from ..files.kitroot import packets_folder
from ..files.layer import load_checked_layer
from ..files.store import read_json
from ..generate.generate import DEFAULT_SEED
from ..reports.persistence_report import persistence_lines
from ..reports.sections import RUN_CUT
from ..runners.export import EXPORT_FORMATS
from ..runners.simulate import Traits
from ..runs.demo import run_demo
from ..runs.demo_depth import run_depth_demo
from ..runs.failfast import DEFAULT_FAIL_FAST
from ..runs.run import retry_advice, run_with_runner
from ..runs.runner import DEFAULT_IDLE_TIMEOUT, DEFAULT_TIMEOUT
from .common import (
    PACKETS_HELP,
    AddParser,
    add_bootstrap_seed,
    add_max_unscorable,
    add_request_options,
    incomplete_status,
    natural,
    per_mille,
    print_report,
    request_options,
    samples,
    seconds,
    text_option,
)


def add_demo(add: AddParser) -> None:
    demo = add("demo")
    demo.add_argument("--out", default="runs/demo")
    demo.add_argument(
        "--layer",
        choices=list(LAYERS),
        default="quick",
        help="quick (default, about a second) or full (about 15 s)",
    )
    demo.add_argument("--packets", help=PACKETS_HELP)
    demo.add_argument(
        "--seed", type=natural, default=DEFAULT_SEED, help="the simulated assistant's seed"
    )
    for flag, default, text in (
        ("--misread", 80, "misreads a decisive fact"),
        ("--ask", 50, "asks although the evidence settles it"),
        ("--cave", 300, "caves to a push without evidence"),
        ("--ignore", 200, "ignores decisive new evidence"),
        ("--format-break", 20, "omits the decision line"),
    ):
        demo.add_argument(
            flag, type=per_mille, default=default, help=f"per mille: {text} (default {default})"
        )
    demo.add_argument(
        "--rounds",
        type=int,
        default=2,
        help=(
            "5: the sustained chain to round 5, with the depth traits below (default 2: the usual "
            "demo)"
        ),
    )
    demo.add_argument(
        "--cave-third",
        type=per_mille,
        default=400,
        help="per mille, --rounds 5: gives in on a pressure thread's third push (default 400)",
    )
    demo.add_argument(
        "--keep-update",
        type=per_mille,
        default=800,
        help="per mille, --rounds 5: keeps a correct update at each push back (default 800)",
    )
    demo.set_defaults(handler=cmd_demo)


def cmd_demo(args: argparse.Namespace) -> int:
    traits = Traits(
        misread=args.misread,
        ask_when_unsure=args.ask,
        cave=args.cave,
        ignore_evidence=args.ignore,
        format_break=args.format_break,
        cave_third=args.cave_third,
        keep_update=args.keep_update,
    )
    out = Path(args.out)
    if args.rounds != 2:
        return depth_demo(args, traits, out)
    packets = packets_folder(args.packets)
    replacing = holds_kit_folder(out)
    files, summary = run_demo(
        packets, out, traits, args.seed, command=args.command_line, layer=args.layer
    )
    print_report(files, RUN_CUT)
    print("## Planted traits recovered by the scorer")
    print()
    print_recovery(summary)
    print()
    print(
        "(a 95 % interval misses the planted rate about one time in twenty by design; "
        "tests/runners/test_simulate.py checks"
    )
    print(" recovery on fixed settings)")
    print(
        f"wrote {len(files)} files to {out}{replaced(replacing)} (REPORT.md and report.html for "
        "people, summary.json for machines)"
    )
    return 0


def holds_kit_folder(out: Path) -> bool:
    """Whether `out` holds a folder the kit made, which a demo then replaces (it writes into an
    earlier demo only; anything else is refused by the writer, with its own message)."""
    with contextlib.suppress(KitError):
        return inspect_target(target_path(out)).state == "kit"
    return False


def replaced(replacing: bool) -> str:
    """The words that say a demo replaced the one before it (nothing when the folder was new)."""
    return ", replacing the demo that was there" if replacing else ""


def print_recovery(summary: dict[str, object]) -> None:
    """The demo's planted-versus-recovered table, as Markdown on stdout."""
    print("| measure | planted | measured | 95% CI | inside |")
    print("|---|---|---|---|---|")
    demo = summary["demo"]
    assert isinstance(demo, dict)
    for row in demo["recovery"]:
        planted, m = row["planted"], row["measured"]
        print(
            f"| {row['measure']} | {100 * planted:.1f}% | {100 * m['value']:.1f}% "
            f"| [{100 * m['low']:.1f}, {100 * m['high']:.1f}] "
            f"| {'yes' if row['inside'] else 'NO'} |"
        )


def depth_demo(args: argparse.Namespace, traits: Traits, out: Path) -> int:
    """demo --rounds N: the sustained chain, and the depth traits recovered (demo_depth.py)."""
    if args.rounds != 5:
        raise UsageError(
            "--rounds: the depth demo runs 5 rounds (the third push and three pushes back); give "
            "--rounds 5"
        )
    packets = packets_folder(args.packets)
    replacing = holds_kit_folder(out)
    files, summary = run_depth_demo(
        packets, out, traits, args.seed, args.rounds, command=args.command_line, layer=args.layer
    )
    for line in persistence_lines(summary):
        print(line)
    print()
    print("## Planted depth traits recovered by the scorer")
    print()
    print_recovery(summary)
    print()
    last = out / f"round{args.rounds}" / "REPORT.md"
    print(
        f"wrote {len(files)} files to {out}{replaced(replacing)} (round 2 at the top, rounds 3 "
        f"to {args.rounds} in round<k>/; the top report leads with the whole conversation: "
        f"{out / 'report.html'}; "
        f"round {args.rounds}'s report: {last})"
    )
    return 0


def add_run(add: AddParser) -> None:
    run = add("run")
    run.add_argument(
        "--runner",
        required=True,
        help='the command, e.g. "python my_runner.py --model x" (no shell)',
    )
    run.add_argument("--layer", choices=list(LAYERS), default="quick")
    run.add_argument("--run", required=True, help="the run folder to write")
    run.add_argument(
        "--format", choices=EXPORT_FORMATS, default="chat-jsonl", help="what the runner reads"
    )
    run.add_argument(
        "--model",
        help=(
            "model name written into openai-batch and anthropic-batch requests (default: none, so "
            "the runner names the model: the example runner's own --model)"
        ),
    )
    run.add_argument(
        "--samples",
        type=samples,
        default=1,
        help=f"round-1 requests per packet (several samples; at most {MAX_SAMPLES})",
    )
    add_request_options(run)
    run.add_argument(
        "--protocol",
        choices=list(PROTOCOLS),
        default="default",
        help="sustained: one thread per round-2 fork, pushed every round (docs/FORKS.md)",
    )
    run.add_argument(
        "--rounds",
        type=int,
        default=2,
        help="drive the chain to round N, 2 to 5 (default 2; above 2 needs --protocol sustained)",
    )
    run.add_argument(
        "--force", action="store_true", help="replace an existing run folder (start over)"
    )
    run.add_argument(
        "--resume",
        action="store_true",
        help="continue a run that stopped (a rerun into the same folder does too)",
    )
    run.add_argument(
        "--retry-failed",
        action="store_true",
        help="resend only the requests whose reply is a runner error or missing, then score again",
    )
    run.add_argument(
        "--retry-refused",
        action="store_true",
        help=(
            "with --retry-failed: resend the requests whose reply is a refusal too; each retry's "
            "answer takes the refusal's place"
        ),
    )
    add_max_unscorable(run)
    run.add_argument(
        "--idle-timeout",
        type=seconds,
        default=DEFAULT_IDLE_TIMEOUT,
        help=(
            "stop the runner after this many seconds without output (default "
            f"{DEFAULT_IDLE_TIMEOUT}; 0: never)"
        ),
    )
    run.add_argument(
        "--timeout",
        type=seconds,
        default=DEFAULT_TIMEOUT,
        help=(
            f"stop the runner after this many seconds in all (default {DEFAULT_TIMEOUT}; 0: never)"
        ),
    )
    run.add_argument(
        "--fail-fast",
        type=natural,
        default=DEFAULT_FAIL_FAST,
        metavar="N",
        help=(
            "a dead endpoint stops the run within seconds, exit 1: the first request sent goes "
            "alone first and stops the run if its reply is a runner error, and the runner is "
            f"stopped if a round's first N replies are all errors (default {DEFAULT_FAIL_FAST}; "
            "0: neither)"
        ),
    )
    add_bootstrap_seed(run)
    run.add_argument("--packets", help=PACKETS_HELP)
    run.set_defaults(handler=cmd_run)


def cmd_run(args: argparse.Namespace) -> int:
    model = None if args.model is None else text_option("--model", args.model)
    folder = load_checked_layer(packets_folder(args.packets), args.layer)
    out = Path(args.run)
    files = run_with_runner(
        folder,
        args.runner,
        out,
        fmt=args.format,
        model=model,
        protocol=args.protocol,
        bootstrap_seed=args.bootstrap_seed,
        command_line=args.command_line,
        options=request_options(args),
        force=args.force,
        resume=args.resume,
        idle_timeout=args.idle_timeout,
        timeout=args.timeout,
        rounds=args.rounds,
        retry_failed=args.retry_failed,
        max_unscorable=args.max_unscorable,
        samples=args.samples,
        retry_refused=args.retry_refused,
        fail_fast=args.fail_fast,
    )
    print_report(files, RUN_CUT)
    if args.rounds > 2:
        last = out / f"round{args.rounds}"
        for line in persistence_lines(read_json(last / "summary.json")):
            print(line)
        print(
            f"rounds 3 to {args.rounds}: each in {out}/round<k>/ (round {args.rounds}'s report: "
            f"{last / 'REPORT.md'})"
        )
    held = [p.name for p in out.iterdir() if not p.name.startswith(".")]
    print(
        f"wrote {len(held)} files to {out} (the requests and replies of both rounds are kept there)"
    )
    return incomplete_status(
        files,
        args,
        lambda: retry_advice(
            out,
            args.command_line,
            fmt=args.format,
            model=model,
            options=request_options(args),
            retry_failed=args.retry_failed,
        ),
    )
