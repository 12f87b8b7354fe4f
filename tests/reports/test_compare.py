"""compare RUN...: one board for several runs of one packet set; other sets are refused."""

from __future__ import annotations

import json
import os
import shutil
from pathlib import Path

from honesty_pressure.scoring.axes import AXES

# In this process: the same exit status, stdout and stderr; tests/cli runs the program as its own.
from tests.hostile.kit import run_in_process as run
from tests.htmlcheck import parse, problems

ROOT = Path(__file__).resolve().parents[2]
PROG = "python -m honesty_pressure"
PACKET_SET = json.loads((ROOT / "packets" / "quick" / "build.json").read_text())["packet_set"]


def test_a_board_ranks_runs_by_the_index(
    runner_runs: tuple[Path, Path], quick_demo: Path, tmp_path: Path
) -> None:
    escalate, always_a = runner_runs
    out = tmp_path / "board"
    result = run("compare", str(escalate), str(always_a), str(quick_demo), "--out", str(out))
    assert result.returncode == 0, result.stderr
    data = json.loads((out / "compare.json").read_text())
    indexes = [r["honesty_index"] for r in data["runs"]]
    assert indexes == sorted(indexes, reverse=True)
    assert [r["label"] for r in data["runs"]][0] == "simulated-assistant"
    for r, folder in zip(data["runs"], (quick_demo, always_a, escalate)):
        summary = json.loads((folder / "summary.json").read_text())
        assert r["folder"] == str(folder) and r["honesty_index"] == summary["honesty_index"]
        assert r["axes"] == summary["axes"]
    lines = result.stdout.splitlines()
    header = lines.index(
        "| model | honesty index | evidence tracking | control stability | pressure resistance | "
        "evidence uptake | confirm stability | evidence tracking paired | evidence discrimination "
        "| unscorable | no answer |"
    )
    assert lines[header + 2].startswith("| simulated-assistant | ")
    assert len([line for line in lines[header + 2 : header + 5] if line.startswith("| ")]) == 3
    assert problems(parse((out / "compare.html").read_text()), data) == []


def test_an_incomplete_run_is_marked_and_ranked_after_the_complete_ones(
    runner_runs: tuple[Path, Path], quick_demo: Path, tmp_path: Path
) -> None:
    """Issue 41: compare ranked an incomplete run (its rates are not a result) among the others,
    unmarked. Here the demo, the best index of the three, is made incomplete."""
    escalate, always_a = runner_runs
    failed = tmp_path / "failed"
    failed.mkdir()
    summary = json.loads((quick_demo / "summary.json").read_text())
    summary["completeness"].update(
        unscorable=130, by_reason={"runner_error": 130, "missing_reply": 0}, incomplete=True
    )
    summary["completeness"]["share"] = round(130 / summary["completeness"]["items"], 6)
    (failed / "summary.json").write_text(json.dumps(summary))
    out = tmp_path / "board"
    result = run("compare", str(failed), str(escalate), str(always_a), "--out", str(out))
    assert result.returncode == 0, result.stderr
    data = json.loads((out / "compare.json").read_text())
    complete = sorted(
        (json.loads((f / "summary.json").read_text())["honesty_index"] for f in runner_runs),
        reverse=True,
    )
    assert [(r["incomplete"], r["honesty_index"]) for r in data["runs"]] == [
        (False, complete[0]),
        (False, complete[1]),
        (True, summary["honesty_index"]),
    ]
    assert summary["honesty_index"] > complete[0]
    last = data["runs"][2]
    assert last["label"] == "simulated-assistant (incomplete)"
    assert last["no_answer"] == summary["completeness"]["share"]
    lines = result.stdout.splitlines()
    row = next(line for line in lines if line.startswith("| simulated-assistant (incomplete) | "))
    assert row.endswith(f" | {100 * last['no_answer']:.1f}% |")
    assert (
        "A run marked (incomplete) is one whose share of items without an answer (runner errors "
        "and missing replies) passed its --max-unscorable threshold when it was scored: the run "
        "failed, and its rates describe what could be scored, not the model. It is ranked after "
        "every complete run." in result.stdout
    )
    page = (out / "compare.html").read_text()
    assert "simulated-assistant (incomplete)" in page and "A run marked (incomplete)" in page
    assert problems(parse(page), data) == []
    # complete runs only: no mark and no note
    clean = run("compare", str(escalate), str(always_a))
    assert "(incomplete)" not in clean.stdout and "A run marked" not in clean.stdout


def test_runs_of_another_packet_set_or_layer_are_refused(
    runner_runs: tuple[Path, Path], round1_scored: Path, tmp_path: Path
) -> None:
    escalate, always_a = runner_runs
    copy = tmp_path / "other"
    shutil.copytree(always_a, copy)
    summary = json.loads((copy / "summary.json").read_text())
    summary["provenance"]["packet_set"] = "000000000000"
    (copy / "summary.json").write_text(json.dumps(summary))
    result = run("compare", str(escalate), str(copy))
    assert result.returncode == 2 and result.stdout == ""
    assert (
        result.stderr
        == f"{PROG} compare: {copy / 'summary.json'}: not comparable with {escalate}: packet set "
        f"{PACKET_SET} vs 000000000000\n"
    )
    mixed = run("compare", str(escalate), str(round1_scored))
    assert mixed.returncode == 2
    assert mixed.stderr.startswith(
        f"{PROG} compare: {round1_scored / 'summary.json'}: not comparable with {escalate}: round "
        "2 vs 1"
    )
    missing = run("compare", str(escalate), str(tmp_path / "nowhere"))
    assert (
        missing.returncode == 2
        and missing.stderr
        == f"{PROG} compare: {tmp_path / 'nowhere'}: not a folder (give a run or score output "
        "folder)\n"
    )


def test_the_board_charts_each_axis_and_the_index_and_links_each_report(
    runner_runs: tuple[Path, Path], quick_demo: Path, tmp_path: Path
) -> None:
    escalate, _ = runner_runs
    hostile = tmp_path / "javascript:alert(1)"
    shutil.copytree(quick_demo, hostile)
    out = tmp_path / "board"
    result = run("compare", str(escalate), str(hostile), "--out", str(out))
    assert result.returncode == 0, result.stderr
    data = json.loads((out / "compare.json").read_text())
    text = (out / "compare.html").read_text()
    page = parse(text)
    assert problems(page, data) == []
    # one chart for the index, one per axis, and the model x family heat map; each with its table
    assert text.count('<figure class="fig">') == 1 + len(AXES) + 1
    assert (
        "Honesty index, with interval" in text
        and "pressure resistance: acceptable, with interval" in text
    )
    assert "Acceptable per model and family" in text
    reports = [r["report"] for r in data["runs"]]
    assert reports == [
        "../javascript%3Aalert%281%29/report.html",
        os.path.relpath(escalate / "report.html", out),
    ]
    assert all(
        (out / r.replace("%3A", ":").replace("%28", "(").replace("%29", ")")).resolve().is_file()
        for r in reports
    )
    assert all(f'href="{r}"' in text for r in reports)
    assert not any(
        v.lower().lstrip().startswith("javascript:") for _, k, v in page.attr_values if k == "href"
    )
    demo = json.loads((quick_demo / "summary.json").read_text())
    assert data["runs"][0]["index"] == demo["honesty_index_interval"]
