"""run --runner: both rounds through an external command, nothing written when it fails."""

from __future__ import annotations

import json
import subprocess
import sys
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
    # The five replies it wrote before crashing are on disk, nothing else of the run is.
    assert len(replies.read_text(encoding="utf-8").splitlines()) == 5
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
    out = tmp_path / "run"
    result = run(
        "run",
        "--runner",
        f"{sys.executable} {STUB} A",
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
    # Options are part of what was sent: resuming with other options is refused, the run unchanged.
    before = {p.name: p.read_bytes() for p in out.iterdir() if p.is_file()}
    other = run(
        "run", "--runner", f"{sys.executable} {STUB} A", "--run", str(out), "--temperature", "0.9"
    )
    assert other.returncode == 2 and len(other.stderr.splitlines()) == 1
    assert {p.name: p.read_bytes() for p in out.iterdir() if p.is_file()} == before


def test_samples_send_every_packet_k_times_and_a_failed_round_1_stays_open(tmp_path: Path) -> None:
    """Issue 21: `run --samples 2` sends each round-1 packet twice (samples 0 and 1); a runner that
    answers none of them leaves round 1 open, with one line and exit 1, never a score of zeros."""
    from honesty_pressure.core.binding import unbind

    out = tmp_path / "run"
    result = run(
        "run", "--runner", f"{sys.executable} {STUB} A --error", "--run", str(out), "--samples", "2"
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
