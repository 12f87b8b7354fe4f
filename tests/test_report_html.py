"""report.html, read as a parser reads it: every number is summary.json's, every row leads to its
transcripts, nothing is loaded from anywhere, and the page stays a reasonable size."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from honesty_pressure.axes import DIRECTIONS
from honesty_pressure.summary import CATEGORIES

from .htmlcheck import check_number, parse, problems

LIMIT_BYTES = 1_500_000
"""report.html on the full layer (4,800 packets, 19,200 forks) must stay under this."""


def load(folder: Path) -> tuple[str, dict[str, object]]:
    return (folder / "report.html").read_text(encoding="utf-8"), json.loads((folder / "summary.json").read_text(encoding="utf-8"))


@pytest.mark.parametrize("which", ["quick_demo", "round1_scored", "full_demo"])
def test_every_number_shown_is_the_summarys(which: str, request: pytest.FixtureRequest) -> None:
    text, summary = load(request.getfixturevalue(which))
    page = parse(text)
    assert len(page.tagged) > 200
    assert problems(page, summary) == []


def test_the_check_catches_a_number_that_is_not_the_summarys(quick_demo: Path) -> None:
    text, summary = load(quick_demo)
    index = summary["honesty_index"]
    assert isinstance(index, float)
    shown = f"{100 * index:.1f}%"
    wrong = f"{100 * index + 0.2:.1f}%"
    page = parse(text.replace(f'data-f="pct">{shown}<', f'data-f="pct">{wrong}<', 1))
    assert any(p.startswith("/honesty_index (pct)") for p in problems(page, summary))
    loose = parse(text.replace("<h2 id=\"axes\">", "<p>index 80.3%</p><h2 id=\"axes\">", 1))
    assert "untraced number '80.3%' in 'index 80.3%'" in problems(loose, summary)
    assert check_number(0.8125, "pct", "81.2%", {}) is None and check_number(0.8125, "pct", "81.4%", {}) is not None
    assert check_number(3e-7, "p", "<0.0001", {}) is None and check_number(0.01, "p", "<0.0001", {}) is not None


@pytest.mark.parametrize("which", ["quick_demo", "full_demo"])
def test_every_group_links_to_its_transcripts(which: str, request: pytest.FixtureRequest) -> None:
    text, summary = load(request.getfixturevalue(which))
    page = parse(text)
    targets = {h[1:] for h in page.hrefs if h.startswith("#")}
    assert all(h.startswith("#") for h in page.hrefs), "links stay inside the page"
    assert targets <= page.ids, sorted(targets - page.ids)[:5]
    examples = summary["examples"]
    assert isinstance(examples, dict)
    expected = []
    r1, forks = summary["round1"], summary["forks"]
    assert isinstance(r1, dict) and isinstance(forks, dict)
    for field, prefix in (("families", "r1.family."), ("domains", "r1.domain."), ("states", "r1.state.")):
        expected += [prefix + name for name, table in r1[field].items() if table["n"]]
    for field, prefix in (("forks", "f.kind."), ("domains", "f.domain."), ("states", "f.state.")):
        expected += [prefix + name for name, table in forks[field].items() if table["n"]]
    for d in DIRECTIONS:
        expected += [f"f.pressure.{t}.{d}" for t, table in forks["pressure_types_by_direction"][d].items() if table["n"]]
    for kind, table in forks["transitions"].items():
        expected += [f"f.transition.{kind}.{a}.{b}" for a in CATEGORIES for b in CATEGORIES if table[a][b]]
    for reason, rate in r1["unscorable"]["by_reason"].items():
        expected += [f"r1.reason.{reason}"] if rate["k"] else []
    axes = summary["axes"]
    assert isinstance(axes, dict)
    expected += [f"axis.{axis}" for axis in axes]
    for group in expected:
        assert f"#g-{group}" in page.hrefs, group
        assert group in examples and f"g-{group}" in page.ids, group
        for item in examples[group]:
            assert "i-" + item.replace("#", "-s") in page.ids, (group, item)
    assert set(examples) == {h[3:] for h in page.hrefs if h.startswith("#g-")}, "the summary lists exactly the groups the page links"


@pytest.mark.parametrize("which", ["quick_demo", "round1_scored", "full_demo"])
def test_the_page_is_self_contained_and_has_charts(which: str, request: pytest.FixtureRequest) -> None:
    text, summary = load(request.getfixturevalue(which))
    page = parse(text)
    assert page.tags.get("script", 0) == 0 and page.tags.get("img", 0) == 0 and page.tags.get("link", 0) == 0
    external = [(t, k, v) for t, k, v in page.attr_values if "://" in v and not (t == "svg" and k == "xmlns")]
    assert external == []
    assert not any(k in ("src", "srcset") for _, k, _ in page.attr_values)
    assert page.tags.get("svg", 0) >= (4 if summary["round"] == 1 else 12)
    assert page.tags.get("table", 0) >= page.tags.get("svg", 0), "a table beside every chart"


def test_the_header_names_the_model_provenance_and_the_command(quick_demo: Path) -> None:
    text, summary = load(quick_demo)
    assert summary["models"] == {"round1": ["simulated-assistant"], "round2": ["simulated-assistant"]}
    prov = summary["provenance"]
    assert isinstance(prov, dict)
    assert prov["commands"] == [f"python -m honesty_pressure demo --out {quick_demo}"]
    assert prov["reply_formats"] == {"round1": {"round1.replies.jsonl": "openai-batch"}, "round2": {"round2.replies.jsonl": "anthropic-batch"}}
    build = json.loads((Path(__file__).resolve().parent.parent / "packets" / "quick" / "build.json").read_text())
    assert prov["seed_sha256"] == build["seed_sha256"] and prov["packet_set"] == build["packet_set"]
    head = text.split('<h2 id="axes">')[0]
    for shown in ("simulated-assistant", "openai-batch", "anthropic-batch", build["seed_sha256"], build["packet_set"], "python -m honesty_pressure demo --out"):
        assert shown in head, shown
    report = (quick_demo / "REPORT.md").read_text()
    assert f"- **commands:** python -m honesty_pressure demo --out {quick_demo}" in report


def test_the_demo_report_holds_planted_versus_recovered(quick_demo: Path) -> None:
    text, summary = load(quick_demo)
    demo = summary["demo"]
    assert isinstance(demo, dict)
    assert [row["measure"] for row in demo["recovery"]][:2] == ["round-1 replies without a decision line", "control stability"]
    assert '<h2 id="demo">Planted traits recovered by the scorer</h2>' in text
    assert "Planted traits recovered by the scorer" in (quick_demo / "REPORT.md").read_text()


def test_transcripts_are_sampled_and_the_full_replies_stay_in_the_folder(quick_demo: Path) -> None:
    text, summary = load(quick_demo)
    replies = [json.loads(line) for line in (quick_demo / "replies.jsonl").read_text().splitlines()]
    records = [json.loads(line) for line in (quick_demo / "records.jsonl").read_text().splitlines()]
    assert [(r["packet_id"], r["sample"]) for r in replies] == [(r["packet_id"], r["sample"]) for r in records]
    assert all(r["reply_sha256"] == s["reply_sha256"] for r, s in zip(replies, records))
    shown = summary["examples_shown"]
    assert isinstance(shown, int) and 20 < shown < len(records) / 4
    assert text.count('<div class="item verbatim"') == shown
    assert "replies.jsonl" in text and "sampled" in text.lower()


def test_report_sizes(quick_demo: Path, full_demo: Path) -> None:
    quick, full = (folder / "report.html" for folder in (quick_demo, full_demo))
    assert full.stat().st_size < LIMIT_BYTES, full.stat().st_size
    assert quick.stat().st_size < LIMIT_BYTES
    print(f"report.html: quick {quick.stat().st_size:,} bytes, full {full.stat().st_size:,} bytes")


def test_a_run_made_step_by_step_names_both_commands(quick_demo: Path, tmp_path: Path) -> None:
    import subprocess
    import sys

    run = tmp_path / "run"
    r1, r2 = quick_demo / "round1.replies.jsonl", quick_demo / "round2.replies.jsonl"
    for args in (["advance", "--layer", "quick", "--replies", str(r1), "--run", str(run)], ["score", "--run", str(run), "--replies", str(r2)]):
        done = subprocess.run([sys.executable, "-m", "honesty_pressure", *args], cwd=Path(__file__).resolve().parent.parent, capture_output=True, text=True, check=False)
        assert done.returncode == 0, done.stderr
    text, summary = load(run)
    prov = summary["provenance"]
    assert isinstance(prov, dict)
    assert prov["commands"] == [
        f"python -m honesty_pressure advance --layer quick --replies {r1} --run {run}",
        f"python -m honesty_pressure score --run {run} --replies {r2}",
    ]
    assert prov["reply_formats"] == {"round1": {"round1.replies.jsonl": "openai-batch"}, "round2": {"round2.replies.jsonl": "anthropic-batch"}}
    assert f"python -m honesty_pressure advance --layer quick --replies {r1} --run {run}" in text
    # The same replies give the same numbers as the demo that made them in one command.
    demo = json.loads((quick_demo / "summary.json").read_text())
    assert summary["axes"] == demo["axes"] and summary["honesty_index"] == demo["honesty_index"]
