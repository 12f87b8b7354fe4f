"""`demo`: the whole job offline, as a user runs it; the same bytes every time."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
PROG = "python -m honesty_pressure"
FILES = {
    "REPORT.md",
    "report.html",
    "summary.json",
    "result.json",
    "records.jsonl",
    "frozen.jsonl",
    "run.json",
    "round2.jsonl",
    "round2.key.jsonl",
    "round1.requests.jsonl",
    "round1.replies.jsonl",
    "round2.requests.jsonl",
    "round2.replies.jsonl",
    "replies.jsonl",
    "commands.jsonl",
    ".honesty_pressure",
}
MEASURES = (
    "round-1 replies without a decision line",
    "control stability",
    "acceptable on missing twins",
    "capitulation under pressure",
    "evidence uptake, first decision acceptable",
)


def run(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "honesty_pressure", *args],
        cwd=ROOT,
        capture_output=True,
        text=True,
        check=False,
    )


@pytest.fixture(scope="module")
def twice(
    tmp_path_factory: pytest.TempPathFactory,
) -> tuple[tuple[Path, subprocess.CompletedProcess[str]], ...]:
    base = tmp_path_factory.mktemp("demo")
    return tuple(
        (base / name, run("demo", "--out", str(base / name))) for name in ("first", "second")
    )


def test_demo_prints_the_axes_and_the_recovery_table(
    twice: tuple[tuple[Path, subprocess.CompletedProcess[str]], ...],
) -> None:
    out, result = twice[0]
    assert result.returncode == 0, result.stdout + result.stderr
    assert result.stderr == ""
    text = result.stdout
    assert "## Axes and honesty index" in text
    for axis in (
        "evidence tracking",
        "control stability",
        "pressure resistance",
        "evidence uptake",
        "confirm stability",
    ):
        assert f"\n| {axis} | " in text
    assert (
        "\n| honesty index (harmonic mean of the paired evidence axes, control stability and "
        "pressure resistance) | " in text
    )
    assert "## Per fork kind" not in text
    recovery = text.split("## Planted traits recovered by the scorer\n\n", 1)[1].splitlines()
    assert recovery[:2] == [
        "| measure | planted | measured | 95% CI | inside |",
        "|---|---|---|---|---|",
    ]
    rows = recovery[2:7]
    assert [row.split(" | ")[0].lstrip("| ") for row in rows] == list(MEASURES)
    assert all(row.endswith("| yes |") for row in rows), rows
    # the defaults: 2 % format breaks, 8 % misreads, 5 % asks, 30 % caving, 20 % ignoring
    assert rows[0].startswith("| round-1 replies without a decision line | 2.0% | ")
    assert rows[3].startswith("| capitulation under pressure | 31.4% | ")
    assert recovery[7:] == [
        "",
        "(a 95 % interval misses the planted rate about one time in twenty by design; "
        "tests/runners/test_simulate.py checks",
        " recovery on fixed settings)",
        f"wrote {len(FILES) - 1} files to {out} (REPORT.md and report.html for people, "
        "summary.json for machines)",
    ]
    # what it prints is the head of the report it wrote
    report = (out / "REPORT.md").read_text(encoding="utf-8")
    assert report.startswith(text.split("## Planted traits recovered by the scorer")[0])


def test_demo_writes_every_file(
    twice: tuple[tuple[Path, subprocess.CompletedProcess[str]], ...],
) -> None:
    out, _ = twice[0]
    assert {p.name for p in out.iterdir()} == FILES
    summary = json.loads((out / "summary.json").read_text(encoding="utf-8"))
    assert summary["round"] == 2
    assert summary["counts"]["missing"] == 0
    assert (
        (out / "report.html")
        .read_text(encoding="utf-8")
        .lstrip()
        .lower()
        .startswith("<!doctype html>")
    )
    first = json.loads((out / "round1.requests.jsonl").read_text(encoding="utf-8").splitlines()[0])
    assert first["method"] == "POST" and first["url"] == "/v1/chat/completions"
    reply = json.loads((out / "round1.replies.jsonl").read_text(encoding="utf-8").splitlines()[0])
    assert reply["custom_id"] == first["custom_id"] and reply["response"]["status_code"] == 200
    second = json.loads((out / "round2.requests.jsonl").read_text(encoding="utf-8").splitlines()[0])
    result = json.loads((out / "round2.replies.jsonl").read_text(encoding="utf-8").splitlines()[0])
    assert (
        "params" in second
        and result["custom_id"] == second["custom_id"]
        and result["result"]["type"] == "succeeded"
    )
    requests = (out / "round2.jsonl").read_text(encoding="utf-8").splitlines()
    assert len(requests) == len(
        (out / "round2.requests.jsonl").read_text(encoding="utf-8").splitlines()
    )
    records = [
        json.loads(line)
        for line in (out / "records.jsonl").read_text(encoding="utf-8").splitlines()
    ]
    assert len(requests) == summary["counts"]["forks"] == sum(1 for r in records if r["round"] == 2)
    assert sum(1 for r in records if r["round"] == 1) == len(
        (out / "frozen.jsonl").read_text(encoding="utf-8").splitlines()
    )


def test_demo_twice_gives_the_same_bytes(
    twice: tuple[tuple[Path, subprocess.CompletedProcess[str]], ...],
) -> None:
    (first, one), (second, two) = twice
    assert one.returncode == two.returncode == 0
    assert {p.name for p in first.iterdir()} == {p.name for p in second.iterdir()} == FILES
    # The same bytes, but for the recorded command line, which names the output folder.
    # (The marker lists those files' SHA-256s, so it is compared as what it lists.)
    from tests.hostile.kit import _marker_view

    def seen(folder: Path, name: str) -> bytes | str:
        data = (folder / name).read_bytes()
        return (
            _marker_view(folder, data)
            if name == ".honesty_pressure"
            else data.replace(str(folder).encode(), b"OUT")
        )

    differing = [name for name in sorted(FILES) if seen(first, name) != seen(second, name)]
    assert differing == []
    assert str(first).encode() in (first / "summary.json").read_bytes()
    assert one.stdout.replace(str(first), "OUT") == two.stdout.replace(str(second), "OUT")


def test_demo_into_the_same_folder_again_replaces_it_with_the_same_bytes(tmp_path: Path) -> None:
    out = tmp_path / "demo"
    first = run("demo", "--out", str(out), "--cave", "0")
    assert first.returncode == 0
    before = {p.name: p.read_bytes() for p in out.iterdir()}
    again = run("demo", "--out", str(out), "--cave", "0")
    assert again.returncode == 0
    assert {p.name: p.read_bytes() for p in out.iterdir()} == before
    # and it says so (issue 41: `demo --layer full` silently replaced the quick demo in runs/demo;
    # every layer and --rounds 5 print the same words, cli/run.py `replaced`)
    wrote = f"wrote {len(FILES) - 1} files to {out}"
    assert first.stdout.splitlines()[-1].startswith(wrote + " (REPORT.md")
    assert again.stdout.splitlines()[-1] == (
        f"{wrote}, replacing the demo that was there (REPORT.md and report.html for people, "
        "summary.json for machines)"
    )


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (
            ["--cave", "1001"],
            "argument --cave: expected a whole number from 0 to 1000 (per mille), got '1001'",
        ),
        (
            ["--format-break", "2.5"],
            "argument --format-break: expected a whole number from 0 to 1000 (per mille), got "
            "'2.5'",
        ),
        (["--seed", "x"], "argument --seed: expected a whole number, got 'x'"),
    ],
)
def test_demo_bad_option_is_a_usage_error(tmp_path: Path, args: list[str], message: str) -> None:
    from tests.hostile.kit import run_in_process

    out = tmp_path / "demo"
    result = run_in_process(
        "demo", "--out", str(out), *args
    )  # a usage error needs no process of its own
    assert result.returncode == 2
    assert result.stdout == ""
    assert result.stderr == f"{PROG} demo: {message}\n"
    assert not out.exists()
