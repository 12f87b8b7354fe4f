"""`run` against real misbehaving runners (processes, not mocks): hanging, slow, crashing, a child
that keeps stdout open, runner errors for everything, junk on stdout; and `run` itself stopped by
SIGTERM or SIGKILL. Each leaves a resumable run that never re-sends an answered request, and
nothing outside the run folder (findings 10 to 13)."""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import time
from collections import Counter
from pathlib import Path

import pytest

from honesty_pressure.core.binding import unbind
from honesty_pressure.files.layer import load_layer
from honesty_pressure.files.store import read_jsonl

from .kit import PROG, ROOT, Result, cli, one_line_naming, small_packets, snapshot, without_commands

STUB = ROOT / "tests" / "stub_runner.py"


def runner(*options: str) -> str:
    return " ".join([sys.executable, str(STUB), *options])


@pytest.fixture(scope="module")
def packets(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return small_packets(tmp_path_factory.mktemp("runner-packets"))


def run_cli(packets: Path, out: Path, command: str, *extra: str) -> Result:
    return cli("run", "--runner", command, "--run", out, "--packets", packets, *extra)


def alive(pid: int) -> bool:
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    # A zombie (exited, not yet reaped by its parent) is not alive for our purpose.
    try:
        with open(f"/proc/{pid}/stat", encoding="ascii") as handle:
            return handle.read().split(") ", 1)[1][0] != "Z"
    except OSError:
        return True


def pids(path: Path) -> list[int]:
    return [int(x) for x in path.read_text(encoding="ascii").split()]


def gone(pid: int, within: float = 5.0) -> bool:
    deadline = time.monotonic() + within
    while time.monotonic() < deadline:
        if not alive(pid):
            return True
        time.sleep(0.05)
    return False


def answered(path: Path) -> set[str]:
    return {str(r.get("id")) for _, r in read_jsonl(path)} if path.exists() else set()


@pytest.fixture(scope="module")
def clean(packets: Path, tmp_path_factory: pytest.TempPathFactory) -> dict[str, bytes | str]:
    """A run that went through without trouble: what every resumed run must end up as."""
    out = tmp_path_factory.mktemp("clean") / "run"
    result = run_cli(packets, out, runner("A"))
    assert result.code == 0, result.err
    return snapshot(out)


def test_a_hanging_runner_is_stopped_and_the_run_resumes_without_resending(
    packets: Path, clean: dict[str, bytes | str], tmp_path: Path
) -> None:
    out, pid_file, log = tmp_path / "run", tmp_path / "pid", tmp_path / "log"
    start = time.monotonic()
    result = run_cli(
        packets,
        out,
        runner("A", "--hang-after", "7", "--pid", str(pid_file)),
        "--idle-timeout",
        "1",
    )
    assert time.monotonic() - start < 30
    line = one_line_naming(result, "run", str(out / "round1.replies.jsonl"))
    assert (
        "it wrote nothing for 1 s (--idle-timeout)" in line
        and "run the same command again to resume" in line
    )
    assert gone(pids(pid_file)[0]), "the hung runner was stopped"
    first = answered(out / "round1.replies.jsonl")
    assert len(first) == 1 + 7, "the preflight's reply (its own call) and the seven after it"
    # Resume: only the requests without a reply go out; the result is the clean run's, byte for
    # byte.
    result = run_cli(packets, out, runner("A", "--log", str(log)))
    assert result.code == 0, result.err
    assert "round-1: 8 of " in result.out and "requests already have a reply" in result.out
    sent = Counter(log.read_text(encoding="utf-8").split())
    assert not first & set(sent), "an answered request was sent again"
    assert max(sent.values()) == 1
    assert without_commands(snapshot(out)) == without_commands(clean)


def test_a_runner_that_never_stops_talking_meets_the_total_timeout(
    packets: Path, tmp_path: Path
) -> None:
    out, pid_file = tmp_path / "run", tmp_path / "pid"
    result = run_cli(
        packets,
        out,
        runner("A", "--slow", "0.2", "--pid", str(pid_file)),
        "--idle-timeout",
        "0",
        "--timeout",
        "1.5",
    )
    assert result.code == 2 and "it ran for 1.5 s (--timeout)" in result.err, result.err
    assert gone(pids(pid_file)[0])
    assert 0 < len(answered(out / "round1.replies.jsonl")) < 80


def test_a_child_that_keeps_stdout_open_does_not_hang_run(
    packets: Path, clean: dict[str, bytes | str], tmp_path: Path
) -> None:
    out, pid_file = tmp_path / "run", tmp_path / "pid"
    start = time.monotonic()
    result = run_cli(packets, out, runner("A", "--grandchild", "--pid", str(pid_file)))
    assert result.code == 0, result.err
    assert time.monotonic() - start < 30
    assert all(gone(pid) for pid in pids(pid_file)), "the runner's whole process group was stopped"
    assert without_commands(snapshot(out)) == without_commands(clean)


def test_a_crashed_runner_resumes_where_it_stopped(
    packets: Path, clean: dict[str, bytes | str], tmp_path: Path
) -> None:
    out, log = tmp_path / "run", tmp_path / "log"
    result = run_cli(packets, out, runner("A", "--fail"))
    assert (
        result.code == 2
        and "exited with status 3 on the round-1 requests: runner crashed: out of memory"
        in result.err
    )
    kept = answered(out / "round1.replies.jsonl")
    assert len(kept) == 1 + 5, "the preflight's reply (its own call) and the five after it"
    assert run_cli(packets, out, runner("A", "--log", str(log)), "--resume").code == 0
    sent = log.read_text(encoding="utf-8").split()
    assert not kept & set(sent) and len(sent) == len(set(sent))
    assert without_commands(snapshot(out)) == without_commands(clean)
    # A finished run resumed sends nothing at all, and stays as it is.
    log.unlink()
    finished = snapshot(out)
    assert (
        cli(
            "run", "--runner", runner("A", "--log", str(log)), "--run", out, "--packets", packets
        ).code
        == 0
    )
    assert not log.exists() and snapshot(out) == finished


def test_runner_errors_for_every_round1_request_are_scored_with_every_fork_unsendable(
    packets: Path, tmp_path: Path
) -> None:
    """Finding 13: no round-2 request exists, so the runner is not called for round 2 at all.
    Issue 21: by default such a round 1 stays open (exit 1, nothing scored); a lab that wants the
    score of a failed round anyway raises --max-unscorable to 1 (and, issue 41, turns off the
    preflight that stops a run whose first reply is a runner error: --fail-fast 0)."""
    out, log = tmp_path / "run", tmp_path / "log"
    refused = run_cli(packets, out, runner("A", "--error"))
    assert (
        refused.code == 1
        and "the runner's reply to the first request is an error" in refused.err
        and not (out / "summary.json").exists()
    )
    result = run_cli(
        packets,
        out,
        runner("A", "--error", "--log", str(log)),
        "--max-unscorable",
        "1",
        "--retry-failed",
        "--fail-fast",
        "0",
    )
    assert result.code == 0, result.err
    assert "## Axes and honesty index" in result.out
    sent = log.read_text(encoding="utf-8").split()
    layer_set = unbind(sent[0]).packet_set
    round1 = load_layer(packets, "quick").round1
    assert sorted(unbind(i).packet_id for i in sent) == sorted(round1), "only round 1 was sent"
    assert all(unbind(i).packet_set == layer_set for i in sent)
    records = [r for _, r in read_jsonl(out / "records.jsonl")]
    forks = [r for r in records if r["round"] == 2]
    assert forks and all(
        r["verdict"] == "unscorable" and r["reason"] == "runner_error" for r in forks
    )
    assert (out / "round2.jsonl").read_bytes() == b""
    summary = json.loads((out / "summary.json").read_text(encoding="utf-8"))
    assert summary["counts"]["forks"] == len(forks)


def test_junk_from_the_runner_is_named_in_the_file_that_keeps_it(
    packets: Path, tmp_path: Path
) -> None:
    out = tmp_path / "run"
    result = run_cli(packets, out, runner("A", "--garbage"))
    replies = out / "round1.replies.jsonl"
    assert result.code == 2 and result.err.startswith(f"{PROG} run: {replies}:1: not valid JSON"), (
        result.err
    )
    assert replies.read_text(encoding="utf-8").startswith("Loading model...\n"), (
        "the evidence is kept"
    )


def test_resume_needs_a_run_and_a_run_needs_the_same_settings(
    packets: Path, tmp_path: Path
) -> None:
    out = tmp_path / "run"
    result = run_cli(packets, out, runner("A"), "--resume")
    assert result.code == 2 and "holds no run to resume" in result.err
    assert not out.exists()
    assert run_cli(packets, out, runner("A", "--fail")).code == 2
    before = snapshot(out)
    result = run_cli(packets, out, runner("A"), "--format", "openai-batch")
    assert result.code == 2 and "started with other packets, format or model" in result.err
    assert snapshot(out) == before


def _start_run(packets: Path, out: Path, pid_file: Path, tmp_path: Path) -> subprocess.Popen[bytes]:
    env = {**os.environ, "TMPDIR": str(tmp_path / "tmp")}
    (tmp_path / "tmp").mkdir()
    # The preflight's reply (its own call of the runner), then two more before the runner hangs.
    command = runner("A", "--hang-after", "2", "--pid", str(pid_file))
    process = subprocess.Popen(
        [
            sys.executable,
            "-m",
            "honesty_pressure",
            "run",
            "--runner",
            command,
            "--run",
            str(out),
            "--packets",
            str(packets),
        ],
        cwd=ROOT,
        env=env,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.PIPE,
    )
    deadline = time.monotonic() + 30
    while len(answered(out / "round1.replies.jsonl")) < 3:
        assert time.monotonic() < deadline and process.poll() is None, "run did not get going"
        time.sleep(0.05)
    return process


@pytest.mark.parametrize("sig", [signal.SIGTERM, signal.SIGKILL], ids=["SIGTERM", "SIGKILL"])
def test_stopping_run_stops_the_runner_and_leaves_nothing_outside_the_run(
    sig: signal.Signals, packets: Path, clean: dict[str, bytes | str], tmp_path: Path
) -> None:
    """Finding 11."""
    out, pid_file = tmp_path / "run", tmp_path / "pid"
    process = _start_run(packets, out, pid_file, tmp_path)
    process.send_signal(sig)
    process.wait(timeout=30)
    assert process.stderr is not None
    if sig == signal.SIGTERM:
        assert process.returncode == 128 + sig
        assert process.stderr.read().decode().startswith(f"{PROG} run: stopped by SIGTERM")
    assert gone(pids(pid_file)[0], within=10), "the runner outlived run"
    assert sorted(p.name for p in tmp_path.iterdir()) == ["pid", "run", "tmp"]
    assert list((tmp_path / "tmp").iterdir()) == [], "no temporary folder anywhere"
    assert len(answered(out / "round1.replies.jsonl")) == 3
    assert run_cli(packets, out, runner("A")).code == 0
    assert without_commands(snapshot(out)) == without_commands(clean)
