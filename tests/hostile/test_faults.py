"""Whole output sets or nothing (findings 8 and 9): a kill at every write step of score, advance,
demo, prepare and run, an injected ENOSPC at every step, and two writers at once.

A kill is real: a forked child runs the command and `os._exit`s at the chosen step (no cleanup
runs, locks die with it, exactly as under SIGKILL). The hook is `folders._step`, which the kit
calls before every change to the disk.
"""

from __future__ import annotations

import errno
import itertools
import json
import os
import shutil
import signal
import sys
import time
from collections.abc import Callable, Iterator
from concurrent.futures import ProcessPoolExecutor
from dataclasses import dataclass
from pathlib import Path

import pytest

from honesty_pressure.cli.main import main
from honesty_pressure.files import folders
from honesty_pressure.files.layer import load_checked_layer

from .kit import ROOT, cli, make_run, reply_file, small_packets, snapshot, without_commands
from .kit import snapshot as taken

KILLED = 77
STUB = ROOT / "tests" / "stub_runner.py"


def _child(argv: list[str], hook: Callable[[str], None], err: Path | None = None) -> None:
    """In a forked child: run the command with the hook in place, then exit with its status."""
    code = 0
    try:
        null = os.open(os.devnull, os.O_WRONLY)
        os.dup2(null, 1)
        os.dup2(os.open(err, os.O_WRONLY | os.O_CREAT, 0o600) if err else null, 2)
        sys.stderr = open(2, "w", encoding="utf-8", closefd=False)
        folders._step = hook  # type: ignore[assignment]
        code = main(argv)
        sys.stderr.flush()
    finally:
        os._exit(code)


def kill_at(argv: list[str], index: int) -> int:
    """Run the command in a child that dies at its index-th write step; its exit status."""
    calls = itertools.count()

    def hook(name: str) -> None:
        if next(calls) == index:
            os._exit(KILLED)

    return _fork(argv, hook)


def kill_at_named(argv: list[str], commit: int, step: str, nth: int) -> int:
    """The same, dying at the nth `step` after the commit-th "stage" (reply chunks vary in number
    from run to run, so a plain index would drift)."""
    stages, seen = -1, 0

    def hook(name: str) -> None:
        nonlocal stages, seen
        if name == "stage":
            stages, seen = stages + 1, 0
        if stages == commit and name == step:
            if seen == nth:
                os._exit(KILLED)
            seen += 1

    return _fork(argv, hook)


def _fork(argv: list[str], hook: Callable[[str], None]) -> int:
    pid = os.fork()
    if pid == 0:
        _child(argv, hook)
    _, status = os.waitpid(pid, 0)
    return os.waitstatus_to_exitcode(status)


def steps_of(argv: list[str]) -> list[str]:
    recorded: list[str] = []
    original = folders._step
    folders._step = recorded.append  # type: ignore[assignment]
    try:
        assert cli(*argv).code == 0
    finally:
        folders._step = original
    return recorded


def leftovers(folder: Path) -> list[str]:
    return sorted(n for n in os.listdir(folder) if ".hp-" in n)


@dataclass(frozen=True, slots=True)
class Scenario:
    """A command, a starting state (`setup` fills `base`), and the folder it writes."""

    name: str
    setup: Callable[[Path, Path], list[str]]
    """(base, packets) -> argv; leaves the old state in base."""
    target: str


def _score(base: Path, packets: Path) -> list[str]:
    layer = load_checked_layer(packets, "quick")
    old, new = (
        reply_file(base / "old.jsonl", layer.round1, layer.key, "A"),
        reply_file(base / "new.jsonl", layer.round1, layer.key, "B"),
    )
    assert (
        cli(
            "score",
            "--layer",
            "quick",
            "--packets",
            packets,
            "--replies",
            old,
            "--out",
            base / "out",
        ).code
        == 0
    )
    return [
        "score",
        "--layer",
        "quick",
        "--packets",
        str(packets),
        "--replies",
        str(new),
        "--out",
        str(base / "out"),
    ]


def _score_run(base: Path, packets: Path) -> list[str]:
    run, replies = make_run(base, packets)
    os.rename(run, base / "out")
    return [
        "score",
        "--run",
        str(base / "out"),
        "--packets",
        str(packets),
        "--replies",
        str(replies),
    ]


def _advance_force(base: Path, packets: Path) -> list[str]:
    layer = load_checked_layer(packets, "quick")
    old, new = (
        reply_file(base / "old.jsonl", layer.round1, layer.key, "A"),
        reply_file(base / "new.jsonl", layer.round1, layer.key, "B"),
    )
    assert (
        cli(
            "advance",
            "--layer",
            "quick",
            "--packets",
            packets,
            "--replies",
            old,
            "--run",
            base / "out",
        ).code
        == 0
    )
    return [
        "advance",
        "--layer",
        "quick",
        "--packets",
        str(packets),
        "--replies",
        str(new),
        "--run",
        str(base / "out"),
        "--force",
    ]


def _advance_new(base: Path, packets: Path) -> list[str]:
    layer = load_checked_layer(packets, "quick")
    new = reply_file(base / "new.jsonl", layer.round1, layer.key, "B")
    return [
        "advance",
        "--layer",
        "quick",
        "--packets",
        str(packets),
        "--replies",
        str(new),
        "--run",
        str(base / "runs" / "out"),
    ]


def _demo(base: Path, packets: Path) -> list[str]:
    assert cli("demo", "--packets", packets, "--out", base / "out", "--cave", "0").code == 0
    return ["demo", "--packets", str(packets), "--out", str(base / "out")]


def _prepare(base: Path, packets: Path) -> list[str]:
    assert (
        cli(
            "prepare",
            "--seed",
            "11",
            "--sources-per-domain",
            "1",
            "--layer",
            "quick",
            "--out",
            base / "out",
        ).code
        == 0
    )
    return [
        "prepare",
        "--seed",
        "11",
        "--sources-per-domain",
        "1",
        "--layer",
        "full",
        "--out",
        str(base / "out"),
    ]


SCENARIOS = [
    Scenario("score a layer over an older score", _score, "out"),
    Scenario("score a run's forks into the run", _score_run, "out"),
    Scenario("advance --force over another run", _advance_force, "out"),
    Scenario("advance into a new folder", _advance_new, "runs/out"),
    Scenario("demo over an older demo", _demo, "out"),
    Scenario("prepare a second layer into a packet set", _prepare, "out"),
]


@pytest.fixture(scope="module")
def packets(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return small_packets(tmp_path_factory.mktemp("fault-packets"))


def _fresh(template: Path, work: Path) -> None:
    if work.exists():
        shutil.rmtree(work)
    shutil.copytree(template, work, symlinks=True)


@pytest.fixture(scope="module")
def pool() -> Iterator[ProcessPoolExecutor]:
    """Trials are independent (each in its own folder): two at a time, one per core."""
    with ProcessPoolExecutor(max_workers=2) as executor:
        yield executor


@dataclass(frozen=True, slots=True)
class Trial:
    argv: list[str]
    index: int
    template: Path
    work: Path
    target: str
    old: dict[str, bytes | str]
    new: dict[str, bytes | str]
    before_swap: bool


def _kill_trial(trial: Trial) -> str | None:
    """Kill the command at one step, check what is left, run it again: a problem, or None."""
    argv = [a.replace(str(trial.work.parent / "work"), str(trial.work)) for a in trial.argv]
    _fresh(trial.template, trial.work)
    target = trial.work / trial.target

    def snapshot(path: Path) -> dict[str, bytes | str]:
        """As the trial's own folder were the first run's: the recorded command names its folder."""
        here, there = str(trial.work).encode(), str(trial.work.parent / "work").encode()
        return {
            k: v.replace(here, there) if isinstance(v, bytes) else v for k, v in taken(path).items()
        }

    if kill_at(argv, trial.index) != KILLED:
        return "the child was not killed"
    after = snapshot(target)
    if after not in (trial.old, trial.new):
        return "a mixed set"
    if trial.before_swap and after != trial.old:
        return "killed before the swap, yet something changed"
    # The next run cleans up whatever the killed one left, and finishes the job.
    if cli(*argv).code != 0:
        return "the next run failed"
    if snapshot(target) != trial.new:
        return "the next run made another set"
    if leftovers(target.parent):
        return f"left {leftovers(target.parent)}"
    shutil.rmtree(trial.work)
    return None


@pytest.mark.parametrize("scenario", SCENARIOS, ids=[s.name for s in SCENARIOS])
def test_a_kill_at_every_write_step_leaves_the_old_set_or_the_new_one(
    scenario: Scenario, packets: Path, tmp_path: Path, pool: ProcessPoolExecutor
) -> None:
    template, work = tmp_path / "template", tmp_path / "work"
    template.mkdir()
    argv = [a.replace(str(template), str(work)) for a in scenario.setup(template, packets)]
    _fresh(template, work)
    target = work / scenario.target
    old = snapshot(target)
    steps = steps_of(argv)
    new = snapshot(target)
    assert old != new and steps and "swap" in steps
    trials = [
        Trial(
            argv,
            index,
            template,
            tmp_path / f"trial{index}",
            scenario.target,
            old,
            new,
            index < steps.index("swap"),
        )
        for index in range(len(steps))
    ]
    problems = {
        steps[t.index]: problem
        for t, problem in zip(trials, pool.map(_kill_trial, trials))
        if problem
    }
    assert problems == {}, problems


@pytest.mark.parametrize("scenario", SCENARIOS, ids=[s.name for s in SCENARIOS])
def test_no_space_left_at_any_step_changes_nothing(
    scenario: Scenario, packets: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    template, work = tmp_path / "template", tmp_path / "work"
    template.mkdir()
    argv = [a.replace(str(template), str(work)) for a in scenario.setup(template, packets)]
    _fresh(template, work)
    steps = steps_of(argv)
    for index in range(steps.index("swap") + 1):
        _fresh(template, work)
        target = work / scenario.target
        before = snapshot(work)
        calls = itertools.count()

        def full(name: str, index: int = index, calls: itertools.count[int] = calls) -> None:
            if next(calls) == index:
                raise OSError(errno.ENOSPC, os.strerror(errno.ENOSPC))

        monkeypatch.setattr(folders, "_step", full)
        result = cli(*argv)
        monkeypatch.undo()
        assert result.code == 2, steps[index]
        assert (
            result.err.count("\n") == 1
            and "No space left on device; nothing was changed" in result.err
        ), result.err
        assert snapshot(work) == before, f"ENOSPC at {steps[index]} changed something"
        if target.parent.exists():
            assert leftovers(target.parent) == []


def test_no_space_for_an_export_changes_nothing(
    packets: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    out = tmp_path / "requests.jsonl"
    assert (
        cli(
            "export", "--packets", packets, "--format", "chat-jsonl", "--model", "m", "--out", out
        ).code
        == 0
    )
    before = snapshot(tmp_path)

    def full(fd: int) -> None:
        raise OSError(errno.ENOSPC, os.strerror(errno.ENOSPC))

    monkeypatch.setattr(os, "fsync", full)
    result = cli(
        "export", "--packets", packets, "--format", "openai-batch", "--model", "m", "--out", out
    )
    monkeypatch.undo()
    assert (
        result.code == 2 and "No space left on device" in result.err and result.err.count("\n") == 1
    )
    assert snapshot(tmp_path) == before


# ---- run: a kill at each commit step and at reply chunks, then a resume ----------------------


def _run_kill_points(steps: list[str]) -> list[tuple[int, str, int]]:
    """Where to kill `run`, as (commit, step, nth): the stage, last write, swap and removal of the
    old set in each of its three commits (the scenarios above kill at every single step of the
    same commit code), and the first reply chunk of each round and a later one of round 2."""
    points: set[tuple[int, str, int]] = set()
    starts = [i for i, s in enumerate(steps) if s == "stage"] + [len(steps)]
    for commit, (start, end) in enumerate(zip(starts, starts[1:])):
        part = steps[start:end]
        writes = [s for s in part if s.startswith("write:")]
        points |= {
            (commit, s, 0) for s in {"stage", "swap", "remove-old", *writes[-1:]} if s in part
        }
        appends = part.count("append")
        points |= {
            (commit, "append", n)
            for n in ({0, min(3, appends - 1)} if commit == 1 else {0})
            if appends
        }
    return sorted(points)


def _run_trial(args: tuple[Path, Path, int, str, int, dict[str, bytes | str], Path]) -> str | None:
    packets, folder, commit, step, nth, clean, clean_out = args
    out, log = folder / "run", folder / "log"

    def snapshot(path: Path) -> dict[str, bytes | str]:
        return without_commands(taken(path))

    command = [
        "run",
        "--runner",
        f"{sys.executable} {STUB} A --log {log}",
        "--run",
        str(out),
        "--packets",
        str(packets),
    ]
    if kill_at_named(command, commit, step, nth) != KILLED:
        return "the child was not killed"
    kept = {
        ident
        for name in ("round1.replies.jsonl", "round2.replies.jsonl")
        for ident in _complete_ids(out / name)
    }
    log.unlink(missing_ok=True)
    if cli(*command).code != 0:
        return "the resumed run failed"
    if snapshot(out) != without_commands(clean):
        return "the resumed run differs from a clean one"
    resent = set(log.read_text(encoding="utf-8").split()) if log.exists() else set()
    if kept & resent:
        return "a kept reply was asked for again"
    if leftovers(folder):
        return f"left {leftovers(folder)}"
    return None


def test_a_killed_run_resumes_to_the_same_bytes_without_resending_what_it_kept(
    packets: Path, tmp_path: Path, pool: ProcessPoolExecutor
) -> None:
    clean_out = tmp_path / "clean"
    argv = [
        "run",
        "--runner",
        f"{sys.executable} {STUB} A",
        "--run",
        str(clean_out),
        "--packets",
        str(packets),
    ]
    steps = steps_of(argv)
    clean = snapshot(clean_out)
    points = _run_kill_points(steps)
    assert (
        len({step for _, step, _ in points}) >= 5
        and sum(step == "append" for _, step, _ in points) >= 3
    )
    folders_ = [tmp_path / f"point{n}" for n in range(len(points))]
    for folder in folders_:
        folder.mkdir()
    results = pool.map(
        _run_trial,
        [(packets, folder, *point, clean, clean_out) for folder, point in zip(folders_, points)],
    )
    problems = {point: problem for point, problem in zip(points, results) if problem}
    assert problems == {}, problems


def _complete_ids(path: Path) -> set[str]:
    """The ids of the whole lines a killed run left in a replies file (a cut last line is not
    one)."""
    if not path.exists():
        return set()
    return {
        str(json.loads(line)["id"]) for line in path.read_bytes().split(b"\n")[:-1] if line.strip()
    }


def test_no_space_for_a_reply_stops_the_runner_and_keeps_the_rest(
    packets: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    out = tmp_path / "run"
    calls = itertools.count()

    def full(name: str) -> None:
        if name == "append" and next(calls) == 1:
            raise OSError(errno.ENOSPC, os.strerror(errno.ENOSPC))

    monkeypatch.setattr(folders, "_step", full)
    result = cli(
        "run", "--runner", f"{sys.executable} {STUB} A", "--run", out, "--packets", packets
    )
    monkeypatch.undo()
    assert result.code == 2 and result.err.count("\n") == 1
    assert (
        "cannot keep the runner's replies: No space left on device" in result.err
        and "run again to resume" in result.err
    )
    assert (
        cli(
            "run", "--runner", f"{sys.executable} {STUB} A", "--run", out, "--packets", packets
        ).code
        == 0
    )


# ---- two writers at once: one succeeds, the other fails with one clear line -------------------


@pytest.mark.parametrize("at", ["stage", "swap"])
@pytest.mark.parametrize(
    "scenario", [SCENARIOS[0], SCENARIOS[3]], ids=["score --out SAME", "advance --run SAME"]
)
def test_two_writers_at_once_one_wins_and_one_says_so(
    scenario: Scenario, at: str, packets: Path, tmp_path: Path
) -> None:
    """The first writer is held at a step (before staging, or just before the swap) while the
    second runs whole. Whichever comes second to the folder fails with one line; the folder ends
    up holding one complete set."""
    base = tmp_path / "base"
    base.mkdir()
    argv = scenario.setup(base, packets)
    target = base / scenario.target
    ready, go, err = tmp_path / "ready", tmp_path / "go", tmp_path / "first.err"
    pid = _paused_writer(argv, at, ready, go, err)
    deadline = time.monotonic() + 60
    while not ready.exists():
        assert time.monotonic() < deadline
        time.sleep(0.01)
    during = snapshot(target)
    second = cli(*argv)
    go.write_text("go")
    _, status = os.waitpid(pid, 0)
    first_code, first_err = os.waitstatus_to_exitcode(status), err.read_text(encoding="utf-8")
    assert sorted([first_code, second.code]) == [0, 2], (first_err, second.err)
    loser = second.err if second.code == 2 else first_err
    assert loser.count("\n") == 1 and "another command" in loser and "nothing" in loser, loser
    if second.code == 2:
        assert snapshot(target) != during or at == "stage", "the first writer finished"
    assert cli(*argv).code == 0, "afterwards the folder is free again"
    assert leftovers(target.parent) == []


def _paused_writer(argv: list[str], at: str, ready: Path, go: Path, err: Path) -> int:
    """A child that runs the command and waits at its first `at` step until `go` exists."""

    def hook(name: str) -> None:
        if name == at and not ready.exists():
            ready.write_text("ready")
            while not go.exists():
                time.sleep(0.01)

    pid = os.fork()
    if pid == 0:
        signal.alarm(60)
        _child(argv, hook, err)
    return pid
