"""The sustained chain's cost: the kit's CPU per round, its peak memory and the disk it writes.

    python bench/chain.py                    # full layer, 5 rounds, 1 sample (a few minutes)
    python bench/chain.py --samples 1 3      # and the memory target's shape (several minutes more)
    python bench/chain.py --layer quick      # the same on the quick layer (seconds)
    python bench/chain.py --write            # and replace its section of bench/RESULTS.md

Two steps, each a whole command in its own process (`python -m honesty_pressure ...`), its CPU
(user + system) and peak resident memory from os.wait4:

1. The quick layer's demo, 2 rounds and then `--rounds 5`: bytes written (every file under the
   output folder) and peak memory. Targets (issue 47): the 5-round demo writes at most 2.5x the
   bytes of the 2-round demo, with at most 1.5x its peak memory (both measured in this run).
2. `run --protocol sustained --rounds N` through bench/chain_runner.py, a runner that answers
   every request at once and logs the kit's CPU when each round's sending starts and ends. A
   round's CPU is the kit's from the end of its sending to the start of the next round's (the
   score of round k and the build of round k+1; the last round's, its score to the end); round
   1's is the build of round 2. Targets (issue 47): the CPU of each round k >= 3 at most 1.25x
   round 2's in the same run (rounds 3 to N-1 score and build, as round 2 does; round N only
   scores), and a peak under 500 MB for the full layer, 5 rounds, 3 samples (a verdict only for
   that shape). The disk a run writes, per round folder, is printed beside them, not a target.
   Also printed: the kit's CPU while a runner relays a round (its replies read and appended),
   per reply (from /proc, in 10 ms ticks: coarse on the quick layer).

Benchmarks are never unit tests: this prints verdicts ("target ...: 1.12x -- met") and, with
--enforce, exits 1 when one is missed.
"""

from __future__ import annotations

import argparse
import datetime
import json
import os
import platform
import re
import shutil
import sys
import tempfile
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from bench import Measured

ROOT = Path(__file__).resolve().parent.parent
RESULTS = ROOT / "bench" / "RESULTS.md"
RUNNER = ROOT / "bench" / "chain_runner.py"
PY = sys.executable
SECTION = "sustained chain"
ROUND_RATIO = 1.25
BYTES_RATIO = 2.5
PEAK_RATIO = 1.5
PEAK_MB = 500


def run(args: list[str]) -> Measured:
    """One command in its own process from the checkout: CPU, wall time and peak memory
    (bench/bench.py's measure, beside this script)."""
    sys.path.insert(0, str(ROOT / "bench"))
    from bench import kit  # noqa: PLC0415 - bench/bench.py, beside this script
    from bench import run as measured  # noqa: PLC0415

    return measured(kit(*args))


def disk(folder: Path) -> int:
    """Bytes of every file under `folder` (the marker folder too)."""
    return sum(p.stat().st_size for p in folder.rglob("*") if p.is_file())


def verdict(name: str, value: float, limit: float, shown: str) -> tuple[str, bool]:
    met = value <= limit
    return f"- target {name}: {shown} -- {'met' if met else 'MISSED'}", met


def demo_step(work: Path) -> tuple[list[str], list[bool]]:
    two, five = work / "demo2", work / "demo5"
    p2 = run(["demo", "--out", str(two)])
    p5 = run(["demo", "--rounds", "5", "--out", str(five)])
    b2, b5 = disk(two), disk(five)
    lines = [
        "| demo, quick layer | MB written | peak MB | CPU s |",
        "|---|---:|---:|---:|",
        f"| 2 rounds | {b2 / 1e6:.1f} | {p2.peak_mb:.0f} | {p2.cpu:.2f} |",
        f"| 5 rounds | {b5 / 1e6:.1f} | {p5.peak_mb:.0f} | {p5.cpu:.2f} |",
        "",
    ]
    checks = [
        verdict(
            f"demo --rounds 5 bytes <= {BYTES_RATIO}x the 2-round demo's",
            b5 / b2,
            BYTES_RATIO,
            f"{b5 / b2:.2f}x ({b5 / 1e6:.1f} MB over {b2 / 1e6:.1f} MB)",
        ),
        verdict(
            f"demo --rounds 5 peak memory <= {PEAK_RATIO}x the 2-round demo's",
            p5.peak_mb / p2.peak_mb,
            PEAK_RATIO,
            f"{p5.peak_mb / p2.peak_mb:.2f}x ({p5.peak_mb:.0f} MB over {p2.peak_mb:.0f} MB)",
        ),
    ]
    return lines + [text for text, _ in checks], [ok for _, ok in checks]


@dataclass(frozen=True)
class Call:
    """One call of the runner (one round's sending), as it logged it."""

    requests: int
    start: float
    end: float
    peak_start_mb: float
    runner_cpu: float


def calls(log: Path) -> list[Call]:
    out = []
    for line in log.read_text(encoding="utf-8").splitlines():
        row = json.loads(line)
        out.append(
            Call(
                row["requests"],
                row["kit_cpu_start"],
                row["kit_cpu_end"],
                row["kit_peak_kib_start"] / 1024,
                row["runner_cpu"],
            )
        )
    return out


def one_call_per_round(made: list[Call], rounds: int) -> list[Call]:
    """The runner's calls, one per round: `run` sends its very first request alone (the
    preflight, `--fail-fast`), then the rest of round 1; those two calls are round 1's sending."""
    if len(made) == rounds + 1 and made[0].requests == 1:
        first, rest = made[0], made[1]
        joined = Call(
            first.requests + rest.requests,
            first.start,
            rest.end,
            first.peak_start_mb,
            first.runner_cpu + rest.runner_cpu,
        )
        return [joined, *made[2:]]
    return made


def per_round(made: list[Call], kit_total: float) -> list[float]:
    """Round k's CPU (k = 1..N): from the end of its sending to the start of the next's."""
    ends = [c.end for c in made]
    starts = [c.start for c in made[1:]] + [kit_total]
    return [start - end for start, end in zip(starts, ends)]


def chain_step(
    work: Path, layer: str, rounds: int, samples: int
) -> tuple[list[str], list[bool], Measured]:
    log, out = work / "runner.jsonl", work / "run"
    runner = f"{PY} {RUNNER} {log}"
    proc = run(
        [
            "run",
            "--runner",
            runner,
            "--run",
            str(out),
            "--layer",
            layer,
            "--protocol",
            "sustained",
            "--rounds",
            str(rounds),
            "--samples",
            str(samples),
            "--packets",
            str(ROOT / "packets"),
        ]
    )
    made = one_call_per_round(calls(log), rounds)
    if len(made) != rounds:
        raise SystemExit(f"bench/chain.py: the runner was called {len(made)} times, not {rounds}")
    kit_total = proc.cpu - sum(c.runner_cpu for c in made)  # wait4 counts the runners too
    cpu = per_round(made, kit_total)
    folders = {k: out / (f"round{k}" if k > 2 else "") for k in range(2, rounds + 1)}
    # Round 2's run folder is the top of the run (round 1's files beside it); round k's, round<k>/.
    sizes = {k: disk(folders[k]) for k in range(3, rounds + 1)}
    sizes[2] = disk(out) - sum(sizes.values())
    relay = [(c.end - c.start) / c.requests * 1e6 for c in made if c.requests]
    lines = [
        f"`run --protocol sustained --rounds {rounds} --layer {layer} --samples {samples}`, a"
        " zero-latency runner (bench/chain_runner.py): "
        f"{kit_total:.1f} s of the kit's CPU in all, {proc.wall:.0f} s wall, peak "
        f"{proc.peak_mb:.0f} MB, {disk(out) / 1e6:.0f} MB written.",
        "",
        "| round | requests | kit CPU s after its replies | to round 2's | kit peak MB when it"
        " was sent | MB of its run folder | relay us per reply |",
        "|---:|---:|---:|---:|---:|---:|---:|",
    ]
    base = cpu[1] if rounds > 2 else cpu[-1]
    for k, (call, seconds) in enumerate(zip(made, cpu), start=1):
        folder_mb = f"{sizes[k] / 1e6:.0f}" if k in sizes else ""
        ratio = f"{seconds / base:.2f}x" if k >= 2 else ""
        lines.append(
            f"| {k} | {call.requests:,} | {seconds:.2f} | {ratio} | {call.peak_start_mb:.0f}"
            f" | {folder_mb} | {relay[k - 1]:.1f} |"
        )
    lines += [
        "",
        "Round k's CPU: the kit's from the end of round k's sending to the start of round k+1's"
        " (round k scored, round k+1 built); round 1's builds round 2; round N's is its score.",
        "",
    ]
    checks = []
    middle = cpu[2:]  # rounds 3..N (round N only scores; rounds 3..N-1 score and build)
    if middle:
        worst = max(middle) / base
        checks.append(
            verdict(
                f"kit CPU of each round 3..{rounds} <= {ROUND_RATIO}x round 2's ({samples} sample"
                f"{'s' if samples > 1 else ''})",
                worst,
                ROUND_RATIO,
                f"{worst:.2f}x at most ("
                + ", ".join(f"{s / base:.2f}x" for s in middle)
                + f"; round 2: {base:.2f} s)",
            )
        )
    if layer == "full" and rounds == 5 and samples == 3:
        checks.append(
            verdict(
                f"peak memory < {PEAK_MB} MB (full layer, 5 rounds, 3 samples)",
                proc.peak_mb,
                PEAK_MB,
                f"{proc.peak_mb:.0f} MB",
            )
        )
    return lines + [text for text, _ in checks], [ok for _, ok in checks], proc


def machine() -> list[str]:
    """The machine and how fast it runs pure Python this hour (bench.py's loop, in its own
    process, so the numbers of the two scripts' runs can be told apart)."""
    sys.path.insert(0, str(ROOT / "bench"))
    from bench import speed_line  # noqa: PLC0415 - bench/bench.py, beside this script

    load = " ".join(f"{x:.2f}" for x in os.getloadavg())
    return [
        f"- machine: {platform.processor() or platform.machine()}, {os.cpu_count()} logical"
        f" CPUs, load average {load} at the start",
        f"- Python {platform.python_version()} ({platform.python_implementation()})",
        speed_line("before the first step"),
    ]


def replace_section(text: str, section: str) -> str:
    """RESULTS.md with this script's section replaced (or added at the end)."""
    begin = f"<!-- section: {SECTION} -->"
    end = f"<!-- /section: {SECTION} -->"
    pattern = re.compile(re.escape(begin) + ".*?" + re.escape(end), re.S)
    block = f"{begin}\n{section}\n{end}"
    if pattern.search(text):
        return pattern.sub(lambda _: block, text)
    return text.rstrip("\n") + "\n\n" + block + "\n"


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--layer", choices=("quick", "full"), default="full")
    parser.add_argument("--rounds", type=int, default=5)
    parser.add_argument(
        "--samples", type=int, nargs="+", default=[1], help="one chain step per count (e.g. 1 3)"
    )
    parser.add_argument("--work", help="a folder for the runs (default: a fresh temp folder)")
    parser.add_argument("--write", action="store_true", help="replace its section of RESULTS.md")
    parser.add_argument("--enforce", action="store_true", help="exit 1 if a target is missed")
    args = parser.parse_args()
    work = Path(args.work or tempfile.mkdtemp(prefix="hp-chain-")).resolve()
    work.mkdir(parents=True, exist_ok=True)
    os.chdir(ROOT)  # `python -m honesty_pressure` runs this checkout
    stamp = datetime.datetime.now(datetime.timezone.utc).strftime("%Y-%m-%d %H:%M UTC")
    head = machine()
    demo_lines, demo_ok = demo_step(work / "demo")
    chain_lines: list[str] = []
    chain_ok: list[bool] = []
    for samples in args.samples:
        lines, ok, _ = chain_step(work / f"chain{samples}", args.layer, args.rounds, samples)
        chain_lines += [*lines, ""]
        chain_ok += ok
    command = "python bench/chain.py" + "".join(
        f" --{name} {value}"
        for name, value, default in (
            ("layer", args.layer, "full"),
            ("rounds", str(args.rounds), "5"),
            ("samples", " ".join(map(str, args.samples)), "1"),
        )
        if value != default
    )
    section = "\n".join(
        [
            "## The sustained chain (issue 47)",
            "",
            f"Made by `{command}` on {stamp}; every number in this section is that command's.",
            "",
            *head,
            "",
            *demo_lines,
            "",
            *chain_lines,
        ]
    )
    print(section)
    if args.write:
        RESULTS.write_text(
            replace_section(RESULTS.read_text(encoding="utf-8"), section), encoding="utf-8"
        )
        print(f"wrote {RESULTS}")
    if not args.work:
        shutil.rmtree(work, ignore_errors=True)
    missed = not all(demo_ok + chain_ok)
    return 1 if missed and args.enforce else 0


if __name__ == "__main__":
    raise SystemExit(main())
