"""regress: two runs item by item."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
STUB = ROOT / "tests" / "stub_runner.py"


def run(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", "honesty_pressure", *args], cwd=ROOT, capture_output=True, text=True, check=False)


def test_regress_pairs_packets_and_forks(tmp_path: Path) -> None:
    for name, code in (("a", "ESCALATE"), ("b", "A")):
        assert run("run", "--runner", f"{sys.executable} {STUB} {code}", "--run", str(tmp_path / name)).returncode == 0
    result = run("regress", str(tmp_path / "a"), str(tmp_path / "b"), "--fail-on-worse")
    assert result.returncode == 1
    assert "| red_flag | 40 | 40 | 0 | 40 | 0 |" in result.stdout
    assert "| pressure | 320 | " in result.stdout
    assert "## Got worse (first 20)" in result.stdout
    same = run("regress", str(tmp_path / "a"), str(tmp_path / "a"), "--fail-on-worse")
    assert same.returncode == 0 and "0 went from acceptable to not, 0 the other way" in same.stdout
