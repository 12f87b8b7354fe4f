"""Where one command's CPU goes, phase by phase: the kit's command run in-process, each named phase
timed where the command calls it.

    python bench/phases.py [--repeats 2] -- score --run RUN --replies FILE --out OUT

Each repeat is a process of its own (`--once`, which this script calls itself with), run as the
`honesty-pressure` entry point runs a command: the cyclic collector off. A phase's CPU
(`time.process_time`, user + system) is summed over its calls in the command; the table gives,
per phase, the lowest and highest over the repeats, and the whole command's. Phases nest (the
paired contrasts are part of the fork summary), so the column does not add up to the total.

The phases are the steps of `score` and `score --run` (runs/pipeline.py) where docs/SCALE.md says
`score --run` spends beyond its sum; a phase the command never calls shows 0.00. `bench/bench.py
--work W` keeps the benchmark's files in W: W/run is the full layer's run and
W/r2-native-18690.jsonl its fork replies, W/r1-native-18496.jsonl the round-1 file of as many
replies that the target compares with.
"""

from __future__ import annotations

import argparse
import gc
import importlib
import json
import subprocess
import sys
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))  # the checkout's package, installed or not
PHASES: tuple[tuple[str, str, str], ...] = (
    ("the chain check: the round rebuilt byte for byte", "runs.pipeline", "check_chain"),
    ("reading and judging the replies", "scoring.tally", "Tally.read"),
    ("the fork summary (fork_cells)", "runs.pipeline", "fork_cells"),
    ("- its paired contrasts (paired_contrast)", "scoring.summary", "paired_contrast"),
    ("the round-1 summary (round1_cells)", "runs.pipeline", "round1_cells"),
    ("the honesty index's interval (index_estimate)", "runs.pipeline", "index_estimate"),
    ("the sheets (Sheet)", "scoring.sheet", "Sheet.__init__"),
    ("records.jsonl and replies.jsonl (write_items)", "runs.pipeline", "write_items"),
    ("the explorer's items (shown_items)", "runs.pipeline", "shown_items"),
    ("the report (document)", "runs.pipeline", "document"),
)


def timed(spent: dict[str, float], name: str, fn: Callable[..., Any]) -> Callable[..., Any]:
    def wrapper(*args: Any, **kwargs: Any) -> Any:
        start = time.process_time()
        try:
            return fn(*args, **kwargs)
        finally:
            spent[name] = spent.get(name, 0.0) + time.process_time() - start

    return wrapper


def once(command: list[str]) -> dict[str, float]:
    """One run of the command in this process, each phase wrapped where it is looked up."""
    spent: dict[str, float] = {}
    for label, module, attribute in PHASES:
        owner: Any = importlib.import_module(f"honesty_pressure.{module}")
        *path, name = attribute.split(".")
        for part in path:
            owner = getattr(owner, part)
        setattr(owner, name, timed(spent, label, getattr(owner, name)))
    from honesty_pressure.cli.main import main

    gc.disable()  # as the entry point runs a command (cli/main.py run)
    start = time.process_time()
    code = main(command)
    spent["the whole command"] = time.process_time() - start
    if code != 0:
        raise SystemExit(f"the command exited {code}: {' '.join(command)}")
    return spent


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--repeats", type=int, default=2, help="processes, one run each")
    parser.add_argument("--once", action="store_true", help=argparse.SUPPRESS)
    parser.add_argument("command", nargs=argparse.REMAINDER, help="the kit's command, after --")
    args = parser.parse_args()
    command = args.command[1:] if args.command[:1] == ["--"] else args.command
    if not command:
        parser.error("give the command after --")
    if args.once:
        print(json.dumps(once(command)))
        return 0
    runs = []
    for _ in range(args.repeats):
        done = subprocess.run(
            [sys.executable, __file__, "--once", "--", *command],
            cwd=ROOT,
            capture_output=True,
            text=True,
            check=True,
        )
        runs.append(json.loads(done.stdout.splitlines()[-1]))
    print(f"{' '.join(command)} ({args.repeats} runs, CPU s, lowest-highest)")
    print("| phase | CPU s |")
    print("|---|---:|")
    for label in ["the whole command", *(label for label, _, _ in PHASES)]:
        values = [run.get(label, 0.0) for run in runs]
        print(f"| {label} | {min(values):.2f}-{max(values):.2f} |")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
