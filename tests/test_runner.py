"""run --runner: both rounds through an external command, nothing written when it fails."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
STUB = ROOT / "tests" / "stub_runner.py"


def run(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", "honesty_pressure", *args], cwd=ROOT, capture_output=True, text=True, check=False)


def test_a_runner_drives_both_rounds(tmp_path: Path) -> None:
    out = tmp_path / "run"
    result = run("run", "--runner", f"{sys.executable} {STUB} ESCALATE", "--run", str(out))
    assert result.returncode == 0, result.stderr
    assert "## Axes and honesty index" in result.stdout
    summary = json.loads((out / "summary.json").read_text())
    assert summary["round1"]["families"]["red_flag"]["acceptable"]["rate"] == 1.0
    assert summary["axes"]["control_stability"]["rate"] == 0.0
    assert summary["honesty_index"] == 0.0
    for name in ("round1.requests.jsonl", "round1.replies.jsonl", "frozen.jsonl", "round2.jsonl", "round2.requests.jsonl", "round2.replies.jsonl", "REPORT.md"):
        assert (out / name).is_file(), name
    # The stored replies re-score to the same summary: the run can be audited without the model.
    again = run("score", "--run", str(out), "--replies", str(out / "round2.replies.jsonl"), "--out", str(tmp_path / "again"))
    assert again.returncode == 0
    first, second = (json.loads((folder / "summary.json").read_text()) for folder in (out, tmp_path / "again"))
    made = f"python -m honesty_pressure run --runner '{sys.executable} {STUB} ESCALATE' --run {out}"
    assert first["provenance"].pop("commands") == [made]
    assert second["provenance"].pop("commands") == [made, f"python -m honesty_pressure score --run {out} --replies {out / 'round2.replies.jsonl'} --out {tmp_path / 'again'}"]
    assert first == second


def test_a_failing_runner_is_one_line_and_writes_nothing(tmp_path: Path) -> None:
    out = tmp_path / "run"
    result = run("run", "--runner", f"{sys.executable} {STUB} A --fail", "--run", str(out))
    assert result.returncode == 2
    assert result.stderr.splitlines() == [
        "python -m honesty_pressure run: the runner exited with status 3 on the round-1 requests: runner crashed: out of memory"
    ]
    assert not out.exists()


def test_a_missing_command_and_an_existing_run(tmp_path: Path) -> None:
    missing = run("run", "--runner", "no-such-runner-xyz", "--run", str(tmp_path / "r"))
    assert missing.returncode == 2
    assert missing.stderr.startswith("python -m honesty_pressure run: --runner: cannot start 'no-such-runner-xyz'")
    (tmp_path / "busy").mkdir()
    (tmp_path / "busy" / "x").write_text("keep")
    busy = run("run", "--runner", f"{sys.executable} {STUB}", "--run", str(tmp_path / "busy"))
    assert busy.returncode == 2 and "already holds a run" in busy.stderr
    assert (tmp_path / "busy" / "x").read_text() == "keep"
