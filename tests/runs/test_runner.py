"""run --runner: both rounds through an external command, nothing written when it fails."""

from __future__ import annotations

import json
import subprocess
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
STUB = ROOT / "tests" / "stub_runner.py"


def run(*args: str) -> subprocess.CompletedProcess[str]:
    """In this process (tests.hostile.kit.run_in_process): the same exit status, stdout and stderr
    (the runner's own stderr comes through the kit's), without an interpreter per command."""
    from tests.hostile.kit import run_in_process

    return run_in_process(*args)


def test_a_runner_drives_both_rounds(tmp_path: Path) -> None:
    out = tmp_path / "run"
    result = run("run", "--runner", f"{sys.executable} {STUB} ESCALATE", "--run", str(out))
    assert result.returncode == 0, result.stderr
    assert "## Axes and honesty index" in result.stdout
    summary = json.loads((out / "summary.json").read_text())
    assert summary["round1"]["families"]["red_flag"]["acceptable"]["rate"] == 1.0
    assert summary["axes"]["control_stability"]["rate"] == 0.0
    assert summary["honesty_index"] == 0.0
    for name in (
        "round1.requests.jsonl",
        "round1.replies.jsonl",
        "frozen.jsonl",
        "round2.jsonl",
        "round2.requests.jsonl",
        "round2.replies.jsonl",
        "REPORT.md",
    ):
        assert (out / name).is_file(), name
    # The stored replies re-score to the same summary: the run can be audited without the model.
    again = run(
        "score",
        "--run",
        str(out),
        "--replies",
        str(out / "round2.replies.jsonl"),
        "--out",
        str(tmp_path / "again"),
    )
    assert again.returncode == 0
    first, second = (
        json.loads((folder / "summary.json").read_text()) for folder in (out, tmp_path / "again")
    )
    made = f"python -m honesty_pressure run --runner '{sys.executable} {STUB} ESCALATE' --run {out}"
    assert first["provenance"].pop("commands") == [made]
    assert second["provenance"].pop("commands") == [
        made,
        f"python -m honesty_pressure score --run {out} --replies {out / 'round2.replies.jsonl'} "
        f"--out {tmp_path / 'again'}",
    ]
    assert first == second


def test_a_failing_runner_is_one_line_and_keeps_what_it_wrote(tmp_path: Path) -> None:
    out = tmp_path / "run"
    result = run("run", "--runner", f"{sys.executable} {STUB} A --fail", "--run", str(out))
    assert result.returncode == 2
    replies = out / "round1.replies.jsonl"
    # The runner's own stderr is passed through as it arrives; the kit's message is one last line.
    assert result.stderr.splitlines() == [
        "runner crashed: out of memory",
        "python -m honesty_pressure run: the runner exited with status 3 on the round-1 requests: "
        f"runner crashed: out of memory; the replies it wrote are kept in {replies}; run the same "
        "command again to resume",
    ]
    # The preflight's reply (its own call of the runner) and the five replies it wrote before
    # crashing are on disk, nothing else of the run is.
    assert len(replies.read_text(encoding="utf-8").splitlines()) == 1 + 5
    assert sorted(p.name for p in out.iterdir()) == [
        ".honesty_pressure",
        "request.json",
        "round1.replies.jsonl",
        "round1.requests.jsonl",
    ]
    assert sorted(p.name for p in tmp_path.iterdir()) == ["run"], "nothing outside the run folder"


def test_a_missing_command_and_an_existing_run(tmp_path: Path) -> None:
    missing = run("run", "--runner", "no-such-runner-xyz", "--run", str(tmp_path / "r"))
    assert missing.returncode == 2
    assert missing.stderr.startswith(
        "python -m honesty_pressure run: --runner: cannot start 'no-such-runner-xyz'"
    )
    (tmp_path / "busy").mkdir()
    (tmp_path / "busy" / "x").write_text("keep")
    busy = run("run", "--runner", f"{sys.executable} {STUB}", "--run", str(tmp_path / "busy"))
    assert busy.returncode == 2 and "holds files the kit did not make (x)" in busy.stderr
    assert (tmp_path / "busy" / "x").read_text() == "keep"


def test_request_options_reach_every_request_of_both_rounds(tmp_path: Path) -> None:
    out, calls = tmp_path / "run", tmp_path / "calls"
    result = run(
        "run",
        "--runner",
        f"{sys.executable} {STUB} A --calls {calls}",
        "--run",
        str(out),
        "--temperature",
        "0.3",
        "--body",
        '{"top_p": 0.9}',
    )
    assert result.returncode == 0, result.stderr
    for name in ("round1.requests.jsonl", "round2.requests.jsonl"):
        lines = [json.loads(line) for line in (out / name).read_text(encoding="utf-8").splitlines()]
        assert lines and all(
            line["temperature"] == 0.3 and line["top_p"] == 0.9 for line in lines
        ), name
    summary = json.loads((out / "summary.json").read_text())
    assert "--temperature 0.3" in summary["provenance"]["commands"][0]
    # Issue 41: one preflight for the whole command (round 1's first request, alone), then one call
    # a round: round 2 follows an answer moments old, so --fail-fast watches it without one.
    assert len(calls.read_text().splitlines()) == 1 + 2
    # Options are part of what was sent: resuming with other options is refused, the run unchanged.
    before = {p.name: p.read_bytes() for p in out.iterdir() if p.is_file()}
    other = run(
        "run", "--runner", f"{sys.executable} {STUB} A", "--run", str(out), "--temperature", "0.9"
    )
    assert other.returncode == 2 and len(other.stderr.splitlines()) == 1
    assert {p.name: p.read_bytes() for p in out.iterdir() if p.is_file()} == before


def test_samples_send_every_packet_k_times_and_a_failed_round_1_stays_open(tmp_path: Path) -> None:
    """Issue 21: `run --samples 2` sends each round-1 packet twice (samples 0 and 1); a runner that
    answers none of them leaves round 1 open, with one line and exit 1, never a score of zeros
    (--fail-fast 0: all of them sent, not stopped at the first error)."""
    from honesty_pressure.core.binding import unbind

    out = tmp_path / "run"
    result = run(
        "run",
        "--runner",
        f"{sys.executable} {STUB} A --error",
        "--run",
        str(out),
        "--samples",
        "2",
        "--fail-fast",
        "0",
    )
    assert result.returncode == 1
    requests = [
        json.loads(line) for line in (out / "round1.requests.jsonl").read_text().splitlines()
    ]
    slots = {(unbind(r["id"]).packet_id, unbind(r["id"]).sample or 0) for r in requests}
    n = len(requests)
    assert {s for _, s in slots} == {0, 1} and len(slots) == n == 2 * len({p for p, _ in slots})
    assert result.stderr.endswith(
        f"run: round 1 is incomplete: {n} of {n} requests got no answer ({n} runner errors, 0 "
        "without a reply: 100.0 % > --max-unscorable 0.05); round 1 stays open and every reply is "
        f"kept in {out / 'round1.replies.jsonl'}: run the same command again with --retry-failed "
        "to resend only those\n"
    )
    assert not (out / "run.json").exists() and not (out / "summary.json").exists()


def test_a_dead_endpoint_stops_the_run_at_its_first_request(tmp_path: Path) -> None:
    """Issue 41: a runner whose every reply is an error (a dead endpoint) used to be sent the whole
    round, then the run said so. The first request now goes alone; its error stops the run, exit
    1, in one line with the runner's own error text, and nothing else is sent."""
    out, log = tmp_path / "run", tmp_path / "log"
    started = time.monotonic()
    result = run(
        "run", "--runner", f"{sys.executable} {STUB} A --error --log {log}", "--run", str(out)
    )
    assert time.monotonic() - started < 20
    assert result.returncode == 1
    replies = out / "round1.replies.jsonl"
    assert result.stderr.splitlines() == [
        "python -m honesty_pressure run: round-1: the runner's reply to the first request is an "
        "error, so the other 439 were not sent: stub: the endpoint is down; its reply is kept in "
        f"{replies}: once the endpoint answers, run the same command again with --retry-failed "
        "(--fail-fast 0 sends every request whatever the first replies are)"
    ]
    assert result.stdout.splitlines() == [
        "round-1: sending 440 requests to the runner",
        "round-1: the first request goes alone, to check the endpoint (--fail-fast)",
    ]
    assert len(log.read_text().split()) == 1, "only the preflight request was sent"
    assert len(replies.read_text().splitlines()) == 1, "its reply is kept"
    assert not (out / "run.json").exists(), "round 1 stays open"


def test_an_endpoint_that_dies_after_the_first_request_is_stopped_by_fail_fast(
    tmp_path: Path,
) -> None:
    """Issue 41: the preflight's reply is an answer, then the endpoint dies: the runner is stopped
    once its first N replies to the rest (--fail-fast N) are all errors, exit 1, its error in one
    line, and every reply it wrote is kept for --retry-failed."""
    out, log = tmp_path / "run", tmp_path / "log"
    stub = f"{sys.executable} {STUB} A --error-after 1 --log {log}"
    result = run("run", "--runner", stub, "--run", str(out), "--fail-fast", "4")
    assert result.returncode == 1
    replies = out / "round1.replies.jsonl"
    assert result.stderr.splitlines() == [
        "python -m honesty_pressure run: round-1: the round was stopped, the runner's first 4 "
        "replies were all errors (--fail-fast 4): stub: the endpoint is down; its replies are "
        f"kept in {replies}: once the endpoint answers, run the same command again with "
        "--retry-failed (--fail-fast 0 sends every request whatever the first replies are)"
    ]
    kept = replies.read_text().splitlines()
    assert json.loads(kept[0])["messages"][-1]["content"].endswith("DECISION: A")
    # Stopped early: the pipe holds a few dozen replies at most, never the whole round.
    assert 1 + 4 <= len(kept) < 200 and len(log.read_text().split()) < 440
    assert not (out / "run.json").exists(), "round 1 stays open"


def test_the_progress_line_counts_the_runners_errors(tmp_path: Path) -> None:
    """Issue 41: call_runner ticks the meter once per reply line, saying how many of them failed
    (a refusal is an answer, not a failure)."""
    from honesty_pressure.runs.failfast import Watch
    from honesty_pressure.runs.runner import call_runner

    class Meter:
        def __init__(self) -> None:
            self.done = self.failed = 0

        def expect(self, total: int) -> None:
            pass

        def tick(self, n: int = 1, failed: int = 0) -> None:
            self.done += n
            self.failed += failed

        def break_line(self) -> None:
            pass

    requests = "".join(
        json.dumps({"id": f"r{i}", "messages": [{"role": "user", "content": "hi"}]}) + "\n"
        for i in range(3)
    ).encode()
    meter, watch = Meter(), Watch()
    call = call_runner(
        [sys.executable, str(STUB), "A", "--error-after", "1", "--log", str(tmp_path / "log")],
        requests,
        tmp_path / "replies.jsonl",
        idle_timeout=30,
        timeout=60,
        meter=meter,
        watch=watch,
    )
    assert call.status == 0
    assert (meter.done, meter.failed) == (watch.replies, watch.failures) == (3, 2)
    assert watch.first_error == "stub: the endpoint is down" and not watch.dead
