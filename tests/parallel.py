"""Run the whole test suite as parallel pytest processes, one per core (stdlib only: the
development tools are pytest, hypothesis and mypy, and nothing else).

    python -m tests.parallel [-j N] [pytest options...]

The test files are dealt into N shards by their measured cost (tests/weights.json, longest
first, each to the lightest shard), so the shards end together. Files that share a costly
session fixture (the scored demos of tests/conftest.py) or a cached corpus (tests/practice/)
stay in one shard, so no build runs twice. Each shard's output is printed whole when it ends,
under a line with its own wall time; the exit status is the first failing shard's (0 when all
pass). Where bytecode is not written (PYTHONDONTWRITEBYTECODE), the package is compiled once
before the shards start, so the processes the tests start do not each compile it again.

    python -m tests.parallel --measure

runs the suite serially with `--durations=0` and rewrites tests/weights.json from it (seconds
per unit, rounded). A file missing from the table counts as 2 s: a new file never breaks the
split, it only balances it less well until the table is refreshed.
"""

from __future__ import annotations

import argparse
import json
import os
import re
import subprocess
import sys
import tempfile
import time
from collections.abc import Mapping, Sequence
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
TESTS = ROOT / "tests"
WEIGHTS = TESTS / "weights.json"
UNKNOWN_SECONDS = 2.0
SHARED_FIXTURES = ("full_demo", "quick_demo", "round1_scored", "runner_runs")
"""Session fixtures of tests/conftest.py that build something costly: their users share a shard."""
NO_TESTS = 5
"""pytest's exit status when a shard collected nothing (a filter matched none of its files)."""


def test_files() -> list[str]:
    return sorted(p.relative_to(ROOT).as_posix() for p in TESTS.rglob("test_*.py"))


def unit_of(path: str) -> str:
    """The unit a test file is scheduled with: its folder for tests/practice (one cached corpus),
    one shared unit for the users of a costly session fixture, else the file itself."""
    if path.startswith("tests/practice/"):
        return "tests/practice"
    text = (ROOT / path).read_text(encoding="utf-8")
    if any(re.search(rf"\b{name}\b", text) for name in SHARED_FIXTURES):
        return "shared-fixtures"
    return path


def units(files: Sequence[str]) -> dict[str, list[str]]:
    out: dict[str, list[str]] = {}
    for path in files:
        out.setdefault(unit_of(path), []).append(path)
    return out


def shards(
    groups: Mapping[str, Sequence[str]], weights: Mapping[str, float], n: int
) -> list[list[str]]:
    """Longest processing time first: each unit, costliest first, to the shard with least work.
    Ties break by name, so the split is the same on every machine."""
    loads = [0.0] * n
    out: list[list[str]] = [[] for _ in range(n)]
    for unit in sorted(groups, key=lambda u: (-weights.get(u, UNKNOWN_SECONDS), u)):
        i = min(range(n), key=lambda k: (loads[k], k))
        loads[i] += weights.get(unit, UNKNOWN_SECONDS)
        out[i].extend(groups[unit])
    return [sorted(s) for s in out if s]


def read_weights() -> dict[str, float]:
    try:
        data = json.loads(WEIGHTS.read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return {}
    return {str(k): float(v) for k, v in data.items()} if isinstance(data, dict) else {}


_DURATION = re.compile(r"^\s*([0-9.]+)s\s+(?:call|setup|teardown)\s+(\S+?\.py)::")


def weights_from(durations: str) -> dict[str, float]:
    """Seconds per unit from pytest's `--durations=0` report."""
    per_unit: dict[str, float] = {}
    cache: dict[str, str] = {}
    for line in durations.splitlines():
        m = _DURATION.match(line)
        if m is None or not (ROOT / m.group(2)).is_file():
            continue
        unit = cache.setdefault(m.group(2), unit_of(m.group(2)))
        per_unit[unit] = per_unit.get(unit, 0.0) + float(m.group(1))
    return {u: round(s, 1) for u, s in sorted(per_unit.items())}


def default_jobs() -> int:
    try:
        cores = len(os.sched_getaffinity(0))
    except AttributeError:  # not on Linux
        cores = os.cpu_count() or 1
    return max(1, min(cores, 4))


def measure(extra: Sequence[str]) -> int:
    done = subprocess.run(
        [sys.executable, "-m", "pytest", "-p", "no:cacheprovider", "-q", "--durations=0", *extra],
        cwd=ROOT,
        capture_output=True,
        text=True,
        check=False,
    )
    sys.stdout.write(done.stdout[-3000:])
    table = weights_from(done.stdout)
    tmp = WEIGHTS.with_suffix(".json.tmp")
    tmp.write_text(json.dumps(table, indent=1, sort_keys=True) + "\n", encoding="utf-8")
    tmp.replace(WEIGHTS)
    print(
        f"wrote {WEIGHTS.relative_to(ROOT)}: {len(table)} units, {sum(table.values()):.0f} s in all"
    )
    return done.returncode


def wall_times(procs: Sequence[subprocess.Popen[bytes]], started: float) -> list[float]:
    """Seconds from `started` until each process ended (polled): a shard's own wall time, so the
    balance of the split can be read off every run, not only off a --measure."""
    ended: dict[int, float] = {}
    while len(ended) < len(procs):
        for i, proc in enumerate(procs):
            if i not in ended and proc.poll() is not None:
                ended[i] = time.monotonic() - started
        if len(ended) < len(procs):
            time.sleep(0.2)
    return [ended[i] for i in range(len(procs))]


COMPILED = ("honesty_pressure",)
"""The source the shards' children import afresh in each process: the kit's own package."""


def compile_once(root: Path = ROOT, sources: Sequence[str] = COMPILED) -> None:
    """Where writing bytecode is switched off (PYTHONDONTWRITEBYTECODE, as on the machines CI runs
    on) and the checkout is fresh, every process compiled the kit's modules it imported, and the
    suite starts over a hundred (each `python -m honesty_pressure` a test runs, besides the
    shards). So the package is compiled once, in place, before the shards start, as an install
    compiles it (`__pycache__` is ignored by git); an up-to-date file is not compiled again.
    Only the package: a bytecode prefix (PYTHONPYCACHEPREFIX) would have kept the checkout
    clean, but moves every module's cache there, the standard library's and pytest's too, which
    every process then compiled again (30 s more CPU for the suite, measured). Where Python
    writes its caches itself, nothing is done."""
    if not sys.flags.dont_write_bytecode:
        return
    subprocess.run(
        [sys.executable, "-m", "compileall", "-q", "-j", "0", *sources],
        cwd=root,
        check=True,
        stdout=subprocess.DEVNULL,
    )


def run(jobs: int, extra: Sequence[str]) -> int:
    plan = shards(units(test_files()), read_weights(), jobs)
    compile_once()
    started = time.monotonic()
    with tempfile.TemporaryDirectory(prefix="hp-shards-") as tmp:
        procs = []
        for i, files in enumerate(plan):
            log = open(Path(tmp) / f"shard{i}.log", "w+", encoding="utf-8")  # noqa: SIM115 (closed below)
            command = [sys.executable, "-m", "pytest", "-p", "no:cacheprovider", *extra, *files]
            procs.append(
                (
                    files,
                    log,
                    subprocess.Popen(command, cwd=ROOT, stdout=log, stderr=subprocess.STDOUT),
                )
            )
        ended = wall_times([proc for _, _, proc in procs], started)
        status = 0
        for i, (files, log, proc) in enumerate(procs):
            code = proc.wait()
            log.seek(0)
            print(
                f"==== shard {i + 1} of {len(plan)}: {len(files)} files, exit {code}, "
                f"{ended[i]:.0f} s ===="
            )
            sys.stdout.write(log.read())
            log.close()
            if code not in (0, NO_TESTS) and status == 0:
                status = code
        print(
            f"==== {len(plan)} shards: "
            f"{'all passed' if status == 0 else f'failed (exit {status})'} ===="
        )
        return status


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(
        prog="python -m tests.parallel", description=__doc__.split("\n\n")[0] if __doc__ else None
    )
    parser.add_argument(
        "-j",
        "--jobs",
        type=int,
        default=default_jobs(),
        help="parallel pytest processes (default: the cores, at most 4)",
    )
    parser.add_argument(
        "--measure", action="store_true", help="run serially and rewrite tests/weights.json"
    )
    args, extra = parser.parse_known_args(argv)
    if args.measure:
        return measure(extra)
    return run(max(1, args.jobs), extra)


if __name__ == "__main__":
    raise SystemExit(main())
