"""Speed and memory of the commands people run, each as a multiple of a baseline measured beside it.

    python bench/bench.py            # every step, the growth curve to 1M replies; writes bench/RESULTS.md
    python bench/bench.py --quick    # the same steps on smaller files (a few minutes; no RESULTS.md)

Every step runs a whole command in its own process (`python -m honesty_pressure ...`), alternating
with its baseline process (bench/baselines.py), several times; a step's ratio is the median over
those pairs of (command CPU) / (baseline CPU), CPU being user + system time of the process
(os.wait4), and its peak memory the largest resident set of its runs. Baselines:

- `score` steps: the reply-file baseline of issue 13, a plain script that json.loads every line of
  the same reply file and runs one regex search for "DECISION:" per reply;
- beside each `score` step, two floors that are not targets: the parse-write floor (reading the
  inputs and writing the outputs score writes, nothing else) and the verdict floor (only what no
  scorer can skip per reply: parse, digest, the decision line, a count; bench/baselines.py);
- `advance` and `score --run`: the parse-and-write baseline, a plain script that json.loads every
  line of the command's input files and json.dumps every record of the files it writes.

Reply files are made by bench/synthetic.py from the committed full layer (4,800 packets, many
samples each), in the work folder (--work, default a fresh temporary folder; give one to keep the
files between runs). Exit status 1 if a target is missed. Targets (issue 13): `score` at most 2x
its baseline for native, OpenAI Batch and Anthropic results files, under 200 MB for a million
replies; `advance` and `score --run` at most 5x theirs; `selfcheck` under 10 s and `selfcheck
--layer full` under 60 s, `verify` under 20 s and `verify --full` under two minutes, wall time on
the committed checkout (their baseline parses the packet files they read). Benchmarks are never
unit tests.
"""

from __future__ import annotations

import argparse
import datetime
import os
import platform
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
BENCH = ROOT / "bench"
PY = sys.executable
PACKETS = ROOT / "packets"
FULL = PACKETS / "full"
LAYER_FILES = [FULL / name for name in ("build.json", "round1.jsonl", "key.jsonl", "ledgers.jsonl")]
SCORE_TARGET = 2.0
RUN_TARGET = 5.0
MEMORY_TARGET_MB = 200.0
VERIFY_FULL_SECONDS = 120.0  # "an auditor can run in a minute or two": both layers and the learned audit
MILLION = 1_003_200  # 209 samples of 4,800 packets, the file


@dataclass
class Measured:
    cpu: float
    peak_mb: float
    wall: float = 0.0


@dataclass
class Step:
    name: str
    replies: int | None
    command: list[str]
    baseline: list[str]
    target: float | None
    memory_target_mb: float | None = None
    seconds_target: float | None = None
    before: Callable[[], None] = lambda: None
    floor: list[str] | None = None
    least: list[str] | None = None
    runs: list[tuple[Measured, Measured]] = field(default_factory=list)
    floors: list[float] = field(default_factory=list)
    leasts: list[float] = field(default_factory=list)

    @property
    def ratio(self) -> float:
        # a baseline's measured part can round to 0 s (selfcheck quick reads four small files)
        return statistics.median(c.cpu / max(b.cpu, 0.001) for c, b in self.runs)

    @property
    def cpu(self) -> float:
        return statistics.median(c.cpu for c, _ in self.runs)

    @property
    def baseline_cpu(self) -> float:
        return statistics.median(b.cpu for _, b in self.runs)

    @property
    def floor_ratio(self) -> float | None:
        """Command CPU over the parse-write floor's (reading the inputs, writing the outputs the
        command writes), median over the pairs: what the command costs beyond moving its bytes."""
        if not self.floors:
            return None
        return statistics.median(c.cpu / max(f, 0.001) for (c, _), f in zip(self.runs, self.floors))

    @property
    def least_ratio(self) -> float | None:
        """The verdict floor's CPU over the baseline's, median over the pairs: how much of the
        target the least possible scorer already spends before it writes a byte."""
        if not self.leasts:
            return None
        return statistics.median(v / max(b.cpu, 0.001) for (_, b), v in zip(self.runs, self.leasts))

    @property
    def wall(self) -> float:
        return statistics.median(c.wall for c, _ in self.runs)

    @property
    def peak_mb(self) -> float:
        return max(c.peak_mb for c, _ in self.runs)

    def missed(self) -> list[str]:
        out = []
        if self.target is not None and self.ratio > self.target:
            out.append(f"{self.name}: {self.ratio:.2f}x its baseline, target {self.target:.1f}x")
        if self.memory_target_mb is not None and self.peak_mb > self.memory_target_mb:
            out.append(f"{self.name}: peak {self.peak_mb:.0f} MB, target {self.memory_target_mb:.0f} MB")
        if self.seconds_target is not None and self.wall > self.seconds_target:
            out.append(f"{self.name}: {self.wall:.1f} s wall, target {self.seconds_target:.0f} s")
        return out


def run(command: list[str], *, reads_cpu: bool = False) -> Measured:
    """One process, to its end: its CPU (user + system; or, for a baseline, the CPU it reports
    for its measured part) and its peak resident set."""
    with tempfile.TemporaryFile() as out, tempfile.TemporaryFile() as err:
        start = time.monotonic()
        proc = subprocess.Popen(command, cwd=ROOT, stdout=out, stderr=err)
        _, status, usage = os.wait4(proc.pid, 0)
        wall = time.monotonic() - start
        proc.returncode = os.waitstatus_to_exitcode(status)
        if proc.returncode != 0:
            err.seek(0)
            raise SystemExit(f"failed ({proc.returncode}): {' '.join(command)}\n{err.read().decode(errors='replace')}")
        cpu = usage.ru_utime + usage.ru_stime
        if reads_cpu:
            out.seek(0)
            cpu = float(out.read().decode().split()[-1])
    return Measured(cpu=cpu, peak_mb=usage.ru_maxrss / 1024, wall=wall)


def kit(*args: str | Path) -> list[str]:
    return [PY, "-m", "honesty_pressure", *map(str, args)]


def base(*args: str | Path) -> list[str]:
    return [PY, str(BENCH / "baselines.py"), *map(str, args)]


def reply_file(work: Path, fmt: str, count: int, *, run_dir: Path | None = None, samples: int | None = None) -> Path:
    """A synthetic reply file of `count` lines (made once per work folder, by bench/synthetic.py
    in a process of its own: this one stays small, as a child's peak memory counts its parent's
    at the fork)."""
    name = f"{'r2' if run_dir else 'r1'}-{fmt}-{count}.jsonl"
    path = work / name
    if not path.is_file():
        tmp = path.with_suffix(".tmp")
        per = 4800 if run_dir is None else lines_in(run_dir / "round2.jsonl")
        n = samples or -(-count // per)
        extra = ["--run", str(run_dir)] if run_dir else []
        subprocess.run([PY, str(BENCH / "synthetic.py"), "--samples", str(n), "--format", fmt, "--limit", str(count), "--out", str(tmp), *extra], check=True, cwd=ROOT, stdout=subprocess.DEVNULL)
        tmp.rename(path)
    return path


def lines_in(path: Path) -> int:
    with path.open("rb") as handle:
        return sum(1 for _ in handle)


def score_floor(work: Path, replies: Path) -> list[str]:
    """The parse-write floor of `score` on a reply file: json.loads every line of the layer and the
    replies, json.dumps every line of the records, replies and summary that score writes (a
    reference score, made once per work folder, supplies them)."""
    reference = work / f"scored-{replies.stem}"
    if not (reference / "summary.json").is_file():
        shutil.rmtree(reference, ignore_errors=True)
        run(kit("score", "--layer", "full", "--replies", replies, "--out", reference))
    outputs = [reference / name for name in ("records.jsonl", "replies.jsonl", "summary.json")]
    return base("parse-write", "--inputs", *LAYER_FILES, replies, "--outputs", *outputs)


def fresh(path: Path) -> Callable[[], None]:
    return lambda: shutil.rmtree(path, ignore_errors=True)


def steps(work: Path, quick: bool) -> tuple[list[Step], list[Step]]:
    """(the steps with targets, the growth curve)."""
    out = work / "out"
    size = 20_000 if quick else 100_000
    formats = [
        Step(
            f"score {fmt}",
            size,
            kit("score", "--layer", "full", "--replies", path, "--out", out),
            base("replies", fmt, path),
            SCORE_TARGET,
            before=fresh(out),
            floor=score_floor(work, path),
            least=base("verdicts", fmt, path),
        )
        for fmt in ("native", "openai-batch", "anthropic-batch")
        for path in [reply_file(work, fmt, size)]
    ]
    growth = []
    for count in [10_000, 100_000] + ([] if quick else [MILLION]):
        path = reply_file(work, "native", count)
        growth.append(
            Step(
                f"score native {count:,}",
                count,
                kit("score", "--layer", "full", "--replies", path, "--out", out),
                base("replies", "native", path),
                SCORE_TARGET,
                MEMORY_TARGET_MB if count >= MILLION else None,
                before=fresh(out),
                floor=score_floor(work, path),
                least=base("verdicts", "native", path),
            )
        )
    # advance and score --run on the full layer: a reference run made once, then timed runs.
    first = reply_file(work, "native", 4800, samples=1)
    reference = work / "run"
    if not (reference / "round2.key.jsonl").is_file():
        shutil.rmtree(reference, ignore_errors=True)
        run(kit("advance", "--layer", "full", "--replies", first, "--run", reference))
    second = reply_file(work, "native", lines_in(reference / "round2.jsonl"), run_dir=reference)
    scored = work / "run-scored"
    if not (scored / "summary.json").is_file():
        run(kit("score", "--run", reference, "--replies", second, "--out", scored))
    run_files = [reference / name for name in ("run.json", "frozen.jsonl", "round2.jsonl", "round2.key.jsonl", "commands.jsonl")]
    advanced = work / "advanced"
    targets = formats + [
        Step(
            "advance full layer",
            4800,
            kit("advance", "--layer", "full", "--replies", first, "--run", advanced),
            base("parse-write", "--inputs", *LAYER_FILES, first, "--outputs", *run_files[:4]),
            RUN_TARGET,
            before=fresh(advanced),
        ),
        Step(
            "score --run full layer",
            lines_in(second),
            kit("score", "--run", reference, "--replies", second, "--out", out),
            base("parse-write", "--inputs", *LAYER_FILES, *run_files, second, "--outputs", *(scored / n for n in ("records.jsonl", "replies.jsonl", "summary.json"))),
            RUN_TARGET,
            before=fresh(out),
        ),
    ]
    return targets, growth


def checks() -> list[Step]:
    """selfcheck and verify as an auditor runs them, on the committed checkout. Their targets are
    wall seconds on two cores (issue 13); the baseline beside them parses every file they read
    and writes the file they check against (controls/EXPECTED.json), as the other steps' does."""
    layer = [PACKETS / "quick" / name for name in ("build.json", "round1.jsonl", "key.jsonl", "ledgers.jsonl")]
    both = layer + LAYER_FILES
    expected = ROOT / "controls" / "EXPECTED.json"
    return [
        Step("selfcheck quick", None, kit("selfcheck"), base("parse-write", "--inputs", *layer, "--outputs", expected), None, seconds_target=10),
        Step("selfcheck full", None, kit("selfcheck", "--layer", "full"), base("parse-write", "--inputs", *LAYER_FILES, "--outputs", expected), None, seconds_target=60),
        Step("verify", None, kit("verify"), base("parse-write", "--inputs", *both, "--outputs", expected), None, seconds_target=20),
        Step("verify --full", None, kit("verify", "--full"), base("parse-write", "--inputs", *both, "--outputs", expected), None, seconds_target=VERIFY_FULL_SECONDS),
    ]


def measure(step: Step, repeats: int) -> None:
    for i in range(repeats):
        pair: list[Measured] = []
        order = ("command", "baseline") if i % 2 == 0 else ("baseline", "command")
        for which in order:
            if which == "command":
                step.before()
                pair.insert(0, run(step.command))
            else:
                pair.append(run(step.baseline, reads_cpu=True))
        command, baseline = pair if len(pair) == 2 else (pair[0], pair[1])
        step.runs.append((command, baseline))
        if step.floor is not None:
            step.floors.append(run(step.floor, reads_cpu=True).cpu)
        if step.least is not None:
            step.leasts.append(run(step.least, reads_cpu=True).cpu)
        print(f"  {step.name}: run {i + 1}: {command.cpu:.2f} s vs {baseline.cpu:.2f} s, peak {command.peak_mb:.0f} MB", flush=True)


def machine() -> list[str]:
    model = "unknown CPU"
    try:
        for line in Path("/proc/cpuinfo").read_text().splitlines():
            if line.startswith("model name"):
                model = line.split(":", 1)[1].strip()
                break
    except OSError:
        pass
    memory = ""
    try:
        kb = int(next(line for line in Path("/proc/meminfo").read_text().splitlines() if line.startswith("MemTotal")).split()[1])
        memory = f", {kb / 1024 / 1024:.1f} GiB RAM"
    except (OSError, StopIteration, ValueError):
        pass
    load = ", load average {:.2f} {:.2f} {:.2f} at the start".format(*os.getloadavg()) if hasattr(os, "getloadavg") else ""
    return [
        f"- machine: {model}, {os.cpu_count()} logical CPUs{memory}{load}",
        f"- system: {platform.platform()}; Python {platform.python_version()} ({platform.python_implementation()})",
    ]


def table(rows: list[Step]) -> list[str]:
    out = [
        "| step | replies | command CPU s | wall s | baseline CPU s | ratio (median of pairs) | target | ratio to parse-write floor | verdict floor / baseline | peak MB | verdict |",
        "|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---|",
    ]
    for s in rows:
        target = ", ".join(
            t
            for t in (
                f"{s.target:.0f}x" if s.target else "",
                f"{s.memory_target_mb:.0f} MB" if s.memory_target_mb else "",
                f"{s.seconds_target:.0f} s wall" if s.seconds_target else "",
            )
            if t
        )
        verdict = "MISSED" if s.missed() else "ok"
        count = f"{s.replies:,}" if s.replies else ""
        floor = "" if s.floor_ratio is None else f"{s.floor_ratio:.2f}x"
        least = "" if s.least_ratio is None else f"{s.least_ratio:.2f}x"
        out.append(f"| {s.name} | {count} | {s.cpu:.2f} | {s.wall:.2f} | {s.baseline_cpu:.2f} | {s.ratio:.2f}x | {target} | {floor} | {least} | {s.peak_mb:.0f} | {verdict} |")
    return out


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--quick", action="store_true", help="smaller files, fewer runs, no 1M step, no RESULTS.md")
    parser.add_argument("--work", help="folder for the reply files and outputs (kept; default: a temporary folder)")
    parser.add_argument("--repeats", type=int, help="runs of each step (default 5, 3 for the million, 2 with --quick)")
    parser.add_argument("--results", default=str(BENCH / "RESULTS.md"), help="where a full run records itself")
    args = parser.parse_args()
    work = Path(args.work) if args.work else Path(tempfile.mkdtemp(prefix="hp-bench-"))
    work.mkdir(parents=True, exist_ok=True)
    started = datetime.datetime.now(datetime.timezone.utc)
    header = machine()
    print("\n".join(header))
    print(f"making reply files in {work} ...", flush=True)
    targets, growth = steps(work, args.quick)
    targets += checks()
    for step in targets + growth:
        heavy = (step.replies or 0) >= MILLION or step.seconds_target is not None
        repeats = args.repeats or (2 if args.quick else 3 if heavy else 5)
        print(f"{step.name} ({repeats} pairs)", flush=True)
        measure(step, repeats)
    lines = ["## Steps", "", *table(targets), "", "## Growth (score, native replies, full layer)", "", *table(growth), ""]
    lines += [
        "| replies | CPU s | per reply (us) | ratio | peak MB |",
        "|---:|---:|---:|---:|---:|",
        *(f"| {s.replies:,} | {s.cpu:.2f} | {1e6 * s.cpu / (s.replies or 1):.1f} | {s.ratio:.2f}x | {s.peak_mb:.0f} |" for s in growth),
        "",
    ]
    missed = [m for s in targets + growth for m in s.missed()]
    lines += ["## Missed targets", "", *(f"- {m}" for m in missed)] if missed else ["All targets met."]
    print("\n".join(lines))
    if not args.quick:
        command = "python bench/bench.py" + (f" --repeats {args.repeats}" if args.repeats else "")
        load = ", load average {:.2f} {:.2f} {:.2f} at the end".format(*os.getloadavg()) if hasattr(os, "getloadavg") else ""
        text = [
            "# Benchmark results (the last full run)",
            "",
            f"Made by `{command}` on {started:%Y-%m-%d %H:%M} UTC; every number is produced by that command.",
            "",
            *header,
            f"- finished{load}",
            "",
            "Ratios are command CPU over baseline CPU, per alternating pair, median over the pairs (bench/bench.py",
            "says what each baseline does). Targets are issue 13's. Beside each `score` step, its ratio to the",
            "parse-write floor: json.loads of the layer and the reply file, json.dumps of the records, replies and",
            "summary that score writes (no matching, parsing, digests or statistics): what moving the bytes alone costs.",
            "And the verdict floor over the baseline: a plain script doing only what no scorer can skip (json.loads,",
            "a SHA-256 per reply kept per (id, sample), the last DECISION line, a count per id), with no layer and no",
            "output: the share of a 2x target that is spent before anything is matched, judged or written.",
            "",
            *lines,
        ]
        Path(args.results).write_text("\n".join(text) + "\n", encoding="utf-8")
        print(f"wrote {args.results}")
    if not args.work:
        shutil.rmtree(work, ignore_errors=True)
    return 1 if missed else 0


if __name__ == "__main__":
    raise SystemExit(main())
