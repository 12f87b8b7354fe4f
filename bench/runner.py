"""Speed of the example runner against a server that answers at once, and of `run`'s relay.

    python bench/runner.py                  # prints the section; --write puts it in RESULTS.md
    python bench/runner.py --requests 5000 --repeats 1 --relay-layer quick   # a quick look

Two steps, each a whole process timed from start to exit (wall time; CPU from os.wait4), the
measured processes alternating so that a busy hour on a shared machine falls on both:

- **the example runner** (examples/openai_compatible_runner.py, `--concurrency 64`) and its
  baseline, a minimal standard-library asyncio client (bench/runner_baseline.py, 64 keep-alive
  connections), each sending the same `--requests` chat-jsonl lines (the full layer's round 1,
  repeated) to a stub OpenAI-compatible server on 127.0.0.1 (bench/runner_stub.py: HTTP/1.1
  keep-alive, the same answer at once, in its own process). The ratio is the runner's
  requests/s over the baseline's in the same repeat, the median over the repeats. Target (issue
  47): at least 0.80. The runner at its old default of 4 in flight is printed beside it, not a
  target;
- **`run`'s relay**: `python -m honesty_pressure run --runner "python bench/zero_runner.py"`,
  rounds 1 and 2 of `--relay-layer` with one sample, against the same runner alone on the
  layer's round-1 requests: requests/s each. No target: issue 47 measured 537 requests/s through
  `run` where the runner alone did 8,780, the time being the fixed work between the rounds (the
  advance, the scores) and reply files parsed more than once, which is the chain's part of the
  issue; this step says where it stands.

Every process is bounded: the stub stops when the bench closes its stdin or after
`--lifetime` seconds, and each measured process is killed after `--limit` seconds. A run that
does not answer every request is an error, not a number. Benchmarks are never unit tests.
"""

from __future__ import annotations

import argparse
import os
import platform
import shlex
import statistics
import subprocess
import sys
import tempfile
import time
from dataclasses import dataclass
from pathlib import Path

BENCH = Path(__file__).resolve().parent
ROOT = BENCH.parent
RUNNER = ROOT / "examples" / "openai_compatible_runner.py"
TARGET = 0.80
SECTION = "## The example runner and run's relay (bench/runner.py)"


@dataclass(frozen=True, slots=True)
class Timed:
    wall: float
    cpu: float
    peak_mb: float
    lines: int
    """Lines the process wrote on stdout."""
    errors: bool
    """Whether any of them carries an error."""


def timed(command: list[str], stdin: Path | None, limit: float, cwd: Path = ROOT) -> Timed:
    """Runs `command` to its end (killed after `limit` seconds): wall, CPU and peak memory, and
    what it wrote counted, not kept (this process stays small: a child's peak memory starts from
    its parent's)."""
    with tempfile.TemporaryFile() as out, tempfile.TemporaryFile() as err:
        source = stdin.open("rb") if stdin is not None else subprocess.DEVNULL
        started = time.perf_counter()
        process = subprocess.Popen(command, stdin=source, stdout=out, stderr=err, cwd=cwd)
        deadline = started + limit
        while True:
            pid, status, usage = os.wait4(process.pid, os.WNOHANG)
            if pid:
                break
            if time.perf_counter() > deadline:
                process.kill()
                process.wait()
                raise SystemExit(f"bench/runner.py: {shlex.join(command)} ran past {limit:g} s")
            time.sleep(0.005)
        wall = time.perf_counter() - started
        process.returncode = os.waitstatus_to_exitcode(status)
        if stdin is not None:
            source.close()  # type: ignore[union-attr]
        if process.returncode != 0:
            err.seek(0)
            raise SystemExit(
                f"bench/runner.py: {shlex.join(command)} exited {process.returncode}: "
                f"{err.read()[-400:].decode(errors='replace')}"
            )
        out.seek(0)
        lines, errors = 0, False
        for line in out:
            lines += 1
            errors = errors or b'"error"' in line
    return Timed(wall, usage.ru_utime + usage.ru_stime, usage.ru_maxrss / 1024, lines, errors)


def answered(result: Timed, requests: int, what: str) -> None:
    """A measured run counts only when every request got its answer."""
    if result.lines != requests or result.errors:
        raise SystemExit(
            f"bench/runner.py: {what} wrote {result.lines} replies of {requests}"
            + (", some of them errors" if result.errors else "")
        )


class Stub:
    """bench/runner_stub.py in its own process, for the length of a `with`."""

    def __init__(self, lifetime: float, delay: float = 0.0) -> None:
        self.process = subprocess.Popen(
            [sys.executable, str(BENCH / "runner_stub.py"), "--lifetime", str(lifetime)]
            + ["--delay", str(delay)],
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
        )
        assert self.process.stdout is not None
        port = self.process.stdout.readline().strip().decode()
        self.url = f"http://127.0.0.1:{port}/v1"

    def __enter__(self) -> Stub:
        return self

    def __exit__(self, *exc: object) -> None:
        assert self.process.stdin is not None
        self.process.stdin.close()  # the stub's signal to stop
        try:
            self.process.wait(timeout=10)
        except subprocess.TimeoutExpired:
            self.process.kill()
            self.process.wait()


def export(layer: str, out: Path) -> int:
    """The layer's round-1 requests as chat-jsonl (one sample); the number of lines."""
    subprocess.run(
        [sys.executable, "-m", "honesty_pressure", "export", "--layer", layer]
        + ["--format", "chat-jsonl", "--model", "stub-model", "--out", str(out)],
        cwd=ROOT,
        check=True,
        capture_output=True,
    )
    return out.read_bytes().count(b"\n")


def repeated(source: Path, requests: int, out: Path) -> None:
    """`requests` lines: the source's, over again as often as it takes."""
    lines = source.read_bytes().splitlines(keepends=True)
    with out.open("wb") as sink:
        for i in range(requests):
            sink.write(lines[i % len(lines)])


def ratio_line(name: str, ratios: list[float]) -> str:
    ratio = statistics.median(ratios)
    verdict = "met" if ratio >= TARGET else "MISSED"
    each = ", ".join(f"{r:.2f}" for r in ratios)
    return (
        f"- target {name} >= {TARGET:.2f}x the baseline's: {ratio:.2f}x (repeats {each}) "
        f"-- {verdict}"
    )


def client_step(args: argparse.Namespace, work: Path) -> list[str]:
    """The example runner at 64 and at 4 in flight, and the asyncio baseline at 64."""
    full = work / "full.requests.jsonl"
    export("full", full)
    requests = work / "bench.requests.jsonl"
    repeated(full, args.requests, requests)
    rows: dict[str, list[Timed]] = {"baseline": [], "runner": [], "runner4": []}
    ratios: list[float] = []
    with Stub(args.lifetime) as stub:
        common = ["--base-url", stub.url, "--model", "stub-model"]
        commands = {
            "baseline": [sys.executable, str(BENCH / "runner_baseline.py"), *common]
            + ["--concurrency", "64"],
            "runner": [sys.executable, str(args.script), *common, "--concurrency", "64"],
            "runner4": [sys.executable, str(args.script), *common, "--concurrency", "4"],
        }
        for _ in range(args.repeats):
            for name, command in commands.items():
                result = timed(command, requests, args.limit)
                answered(result, args.requests, name)
                rows[name].append(result)
            ratios.append(rows["baseline"][-1].wall / rows["runner"][-1].wall)
    names = {
        "baseline": "minimal asyncio client (bench/runner_baseline.py), 64 in flight",
        "runner": "example runner, --concurrency 64",
        "runner4": "example runner, --concurrency 4 (the old default)",
    }
    per_request = {
        name: statistics.median(r.cpu for r in results) / args.requests * 1e6
        for name, results in rows.items()
    }
    cpu_ratio = per_request["runner"] / per_request["baseline"]
    out = [
        ratio_line("example runner's requests/s at 64 in flight", ratios),
        f"- CPU per request (not a target): the runner's {per_request['runner']:.0f} us over the "
        f"baseline's {per_request['baseline']:.0f} us, {cpu_ratio:.2f}x. Where the client's CPU "
        "is all that limits it (a machine with a core to spare for each, a server faster than "
        f"both), its requests/s would be about {1 / cpu_ratio:.2f}x the baseline's.",
        "",
        f"{args.requests:,} requests a run (the full layer's round 1, repeated), "
        f"{args.repeats} repeats, medians:",
        "",
        "| client | requests/s | wall s | CPU s | CPU per request (us) | peak MB |",
        "|---|---:|---:|---:|---:|---:|",
    ]
    for name, results in rows.items():
        wall = statistics.median(r.wall for r in results)
        cpu = statistics.median(r.cpu for r in results)
        peak = max(r.peak_mb for r in results)
        out.append(
            f"| {names[name]} | {args.requests / wall:,.0f} | {wall:.2f} | {cpu:.2f} | "
            f"{cpu / args.requests * 1e6:.0f} | {peak:.0f} |"
        )
    return out


def latency_step(args: argparse.Namespace, work: Path) -> list[str]:
    """The example runner at 64 and at 4 in flight against a server that takes --delay seconds an
    answer, however many are in flight (a batching server, up to its batch size)."""
    requests = work / "latency.requests.jsonl"
    repeated(work / "full.requests.jsonl", args.latency_requests, requests)
    out = [
        f"Against a server that takes {args.delay * 1000:g} ms an answer, however many are in "
        f"flight (as a batching server answers up to its batch size), {args.latency_requests:,} "
        "requests, one run each (not a target: why the default is 64, docs/RUNNERS.md):",
        "",
        "| client | requests/s | wall s |",
        "|---|---:|---:|",
    ]
    with Stub(args.lifetime, args.delay) as stub:
        for concurrency in (64, 4):
            command = [sys.executable, str(args.script), "--base-url", stub.url]
            command += ["--model", "stub-model", "--concurrency", str(concurrency)]
            result = timed(command, requests, args.limit)
            answered(result, args.latency_requests, f"the runner at {concurrency}")
            out.append(
                f"| example runner, --concurrency {concurrency} | "
                f"{args.latency_requests / result.wall:,.0f} | {result.wall:.2f} |"
            )
    return out


def relay_step(args: argparse.Namespace, work: Path) -> list[str]:
    """`run` through the zero-latency runner, rounds 1 and 2, against the runner alone."""
    layer_requests = work / f"{args.relay_layer}.requests.jsonl"
    count = export(args.relay_layer, layer_requests)
    zero = [sys.executable, str(BENCH / "zero_runner.py")]
    alone = timed(zero, layer_requests, args.limit)
    answered(alone, count, "zero_runner.py")
    run_folder = work / "relay"
    command = [sys.executable, "-m", "honesty_pressure", "run", "--run", str(run_folder)]
    command += ["--layer", args.relay_layer, "--format", "chat-jsonl", "--force"]
    command += ["--runner", shlex.join(zero)]
    through = timed(command, None, args.limit)
    sent = sum((run_folder / f"round{k}.replies.jsonl").read_bytes().count(b"\n") for k in (1, 2))
    return [
        "`run` relaying a runner that answers at once (bench/zero_runner.py), the "
        f"{args.relay_layer} layer, one sample, rounds 1 and 2 (not a target; one run each):",
        "",
        "| what | requests | wall s | CPU s | requests/s | requests per CPU s | peak MB |",
        "|---|---:|---:|---:|---:|---:|---:|",
        f"| the runner alone, round 1 | {count:,} | {alone.wall:.2f} | {alone.cpu:.2f} | "
        f"{count / alone.wall:,.0f} | {count / alone.cpu:,.0f} | {alone.peak_mb:.0f} |",
        f"| `run --runner` it, rounds 1 and 2 | {sent:,} | {through.wall:.2f} | "
        f"{through.cpu:.2f} | {sent / through.wall:,.0f} | {sent / through.cpu:,.0f} | "
        f"{through.peak_mb:.0f} |",
        "",
        "(`run`'s CPU includes the runner's and every process it waited for; on a shared machine"
        " the wall time is",
        "the CPU time stretched by the load.)",
    ]


def with_section(results: str, section: str) -> str:
    """RESULTS.md with this bench's section in place of the one before, or at the end."""
    head, found, _ = results.partition(SECTION)
    return (head.rstrip("\n") if found else results.rstrip("\n")) + "\n\n" + section


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--requests", type=int, default=20_000, help="a client run's requests")
    parser.add_argument("--repeats", type=int, default=5)
    parser.add_argument("--delay", type=float, default=0.02, help="the slow server's seconds")
    parser.add_argument("--latency-requests", type=int, default=1_000)
    parser.add_argument("--relay-layer", choices=("quick", "full"), default="full")
    parser.add_argument("--script", type=Path, default=RUNNER, help="the runner to measure")
    parser.add_argument("--limit", type=float, default=600.0, help="seconds a process may run")
    parser.add_argument("--lifetime", type=float, default=1800.0, help="seconds the stub lives")
    parser.add_argument("--write", action="store_true", help="put the section in RESULTS.md")
    args = parser.parse_args()
    started = time.strftime("%Y-%m-%d %H:%M UTC", time.gmtime())
    with tempfile.TemporaryDirectory(prefix="hp-bench-runner-") as folder:
        work = Path(folder)
        clients = client_step(args, work)
        latency = latency_step(args, work)
        relay = relay_step(args, work)
    load = " ".join(f"{x:.2f}" for x in os.getloadavg())
    section = "\n".join(
        [
            SECTION,
            "",
            f"Made by `python bench/runner.py` on {started}; every number is produced by that "
            f"command. {platform.processor() or platform.machine()}, {os.cpu_count()} logical "
            f"CPUs, Python {platform.python_version()}; load average {load} at the end (the "
            "machine is shared).",
            "",
            *clients,
            "",
            *latency,
            "",
            *relay,
        ]
    )
    print(section)
    if args.write:
        results = BENCH / "RESULTS.md"
        results.write_text(with_section(results.read_text(encoding="utf-8"), section) + "\n")
        print(f"wrote {results}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
