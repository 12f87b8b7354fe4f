"""report.html, read as a parser reads it: every number is summary.json's, every row leads to its
transcripts, nothing is loaded from anywhere, and the page stays a reasonable size."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest
from hypothesis import given
from hypothesis import strategies as st

from honesty_pressure.reports.report import markdown
from honesty_pressure.scoring.axes import DIRECTIONS
from honesty_pressure.scoring.summary import CATEGORIES
from tests.htmlcheck import check_number, explorer_items, parse, problems

LIMIT_BYTES = 4_000_000
"""report.html on the full layer (4,800 packets, 19,200 forks) must stay under this."""


def load(folder: Path) -> tuple[str, dict[str, object]]:
    return (folder / "report.html").read_text(encoding="utf-8"), json.loads(
        (folder / "summary.json").read_text(encoding="utf-8")
    )


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
    assert any(
        p.startswith(("/honesty_index (pct)", "/honesty_index_interval/value (pct)"))
        for p in problems(page, summary)
    )
    loose = parse(text.replace('<h2 id="axes">', '<p>index 80.3%</p><h2 id="axes">', 1))
    assert "untraced number '80.3%' in 'index 80.3%'" in problems(loose, summary)
    assert (
        check_number(0.8125, "pct", "81.2%", {}) is None
        and check_number(0.8125, "pct", "81.4%", {}) is not None
    )
    assert (
        check_number(3e-7, "p", "<0.0001", {}) is None
        and check_number(0.01, "p", "<0.0001", {}) is not None
    )


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
    for field, prefix in (
        ("families", "r1.family."),
        ("domains", "r1.domain."),
        ("states", "r1.state."),
    ):
        expected += [prefix + name for name, table in r1[field].items() if table["n"]]
    for field, prefix in (("forks", "f.kind."), ("domains", "f.domain."), ("states", "f.state.")):
        expected += [prefix + name for name, table in forks[field].items() if table["n"]]
    for d in DIRECTIONS:
        expected += [
            f"f.pressure.{t}.{d}"
            for t, table in forks["pressure_types_by_direction"][d].items()
            if table["n"]
        ]
    for kind, table in forks["transitions"].items():
        expected += [
            f"f.transition.{kind}.{a}.{b}" for a in CATEGORIES for b in CATEGORIES if table[a][b]
        ]
    for reason, rate in r1["unscorable"]["by_reason"].items():
        expected += [f"r1.reason.{reason}"] if rate["k"] else []
    axes = summary["axes"]
    assert isinstance(axes, dict)
    expected += [f"axis.{axis}" for axis in axes]
    items, data = explorer_items(text)
    groups = [name for name, _ in data["groups"]]  # type: ignore[union-attr]
    members: dict[str, set[str]] = {}
    for item in items:
        for g in item["g"]:  # type: ignore[union-attr]
            members.setdefault(groups[g], set()).add(str(item["id"]))
    for group in expected:
        assert f"#g-{group}" in page.hrefs, group
        assert group in examples and f"g-{group}" in page.ids, group
        # the explorer filters to the group: its worst items are among the group's members
        assert set(examples[group]) <= members[group], group
    assert set(examples) == {h[3:] for h in page.hrefs if h.startswith("#g-")}, (
        "the summary lists exactly the groups the page links"
    )
    assert set(groups) == set(examples), "the explorer knows every group the page links"


@pytest.mark.parametrize("which", ["quick_demo", "round1_scored", "full_demo"])
def test_the_page_is_self_contained_and_has_charts(
    which: str, request: pytest.FixtureRequest
) -> None:
    text, summary = load(request.getfixturevalue(which))
    page = parse(text)
    assert page.tags.get("img", 0) == 0 and page.tags.get("link", 0) == 0
    assert page.tags.get("script", 0) == 3, (
        "the explorer's data, its script and the print helper: inline, none loaded"
    )
    external = [
        (t, k, v)
        for t, k, v in page.attr_values
        if "://" in v and not (t == "svg" and k == "xmlns")
    ]
    assert external == []
    assert not any(k in ("src", "srcset") for _, k, _ in page.attr_values)
    assert page.tags.get("svg", 0) >= (4 if summary["round"] == 1 else 12)
    assert page.tags.get("table", 0) >= page.tags.get("svg", 0), "a table beside every chart"
    figures = re.findall(
        r'<figure class="fig"><div class="plot"><p class="chart-title">[^<]+</p><svg '
        r".*?</svg></div><details><summary>[^<]*</summary>(.*?)</details></figure>",
        text,
        re.S,
    )
    assert len(figures) == page.tags.get("svg", 0), (
        "every chart is a figure with its table under a disclosure"
    )
    assert all("<table>" in f for f in figures)


def test_the_header_names_the_model_provenance_and_the_command(quick_demo: Path) -> None:
    text, summary = load(quick_demo)
    assert summary["models"] == {
        "round1": ["simulated-assistant"],
        "round2": ["simulated-assistant"],
    }
    prov = summary["provenance"]
    assert isinstance(prov, dict)
    assert prov["commands"] == [f"python -m honesty_pressure demo --out {quick_demo}"]
    assert prov["reply_formats"] == {
        "round1": {"round1.replies.jsonl": "openai-batch"},
        "round2": {"round2.replies.jsonl": "anthropic-batch"},
    }
    build = json.loads(
        (Path(__file__).resolve().parents[2] / "packets" / "quick" / "build.json").read_text()
    )
    assert prov["seed_sha256"] == build["seed_sha256"] and prov["packet_set"] == build["packet_set"]
    head = text.split('<h2 id="axes">')[0]
    for shown in (
        "simulated-assistant",
        "openai-batch",
        "anthropic-batch",
        build["seed_sha256"],
        build["packet_set"],
        "python -m honesty_pressure demo --out",
    ):
        assert shown in head, shown
    report = (quick_demo / "REPORT.md").read_text()
    assert f"- **commands:** python -m honesty_pressure demo --out {quick_demo}" in report


def test_the_demo_report_holds_planted_versus_recovered(quick_demo: Path) -> None:
    text, summary = load(quick_demo)
    demo = summary["demo"]
    assert isinstance(demo, dict)
    assert [row["measure"] for row in demo["recovery"]][:2] == [
        "round-1 replies without a decision line",
        "control stability",
    ]
    assert '<h2 id="demo">Planted traits recovered by the scorer</h2>' in text
    assert "Planted traits recovered by the scorer" in (quick_demo / "REPORT.md").read_text()


@pytest.mark.parametrize("which", ["quick_demo", "round1_scored"])
def test_the_explorer_holds_every_item_with_its_reply_and_verdict(
    which: str, request: pytest.FixtureRequest
) -> None:
    folder = request.getfixturevalue(which)
    text, summary = load(folder)
    replies = [json.loads(line) for line in (folder / "replies.jsonl").read_text().splitlines()]
    records = [json.loads(line) for line in (folder / "records.jsonl").read_text().splitlines()]
    assert [(r["packet_id"], r["sample"]) for r in replies] == [
        (r["packet_id"], r["sample"]) for r in records
    ]
    items, data = explorer_items(text)
    strings = data["strings"]
    assert isinstance(strings, list)
    assert [i["id"] for i in items] == [f"{r['packet_id']}#{r['sample']}" for r in records], (
        "every item, in records.jsonl's order"
    )
    assert summary["explorer"] == {
        "items": len(records),
        "total": len(records),
        "limit": 50_000,
        "complete": True,
        "per_group": None,
        "rest": "replies.jsonl",
    }
    for item, record, reply in zip(items, records, replies):
        assert (item["v"], item["c"], item["r"]) == (
            record["verdict"],
            record["decision"],
            record.get("reason"),
        )
        shown = strings[item["rep"]] if item["rep"] is not None else None
        whole = reply["reply"]
        assert (
            shown == whole
            if whole is None or len(whole) <= 4000
            else str(shown).startswith(whole[:4000])
        )
        assert item["msgs"], item["id"]
    assert [i["line"] for i in items] == list(range(1, len(items) + 1))
    assert "replies.jsonl" in text


def test_a_hostile_reply_cannot_break_out_of_the_explorer() -> None:
    """A reply holding "</script>" and a handler is data: base64 keeps it out of the markup."""
    from honesty_pressure.scoring.score import Record
    from honesty_pressure.scoring.transcripts import Item, explorer_html, explorer_payload

    evil = "</script><script>alert(1)</script><img src=x onerror=alert(2)> javascript:alert(3)"
    record = Record(
        packet_id="p-1",
        sample=0,
        decision=None,
        verdict="unscorable",
        reason="no_decision_line",
        reply_sha256=None,
    )
    item = Item(
        item="p-1#0",
        messages=(("user", evil),),
        reply=evil,
        error=None,
        record=record,
        key={"family": evil, "domain": "d"},
        line=1,
    )
    page = explorer_html(
        explorer_payload([item], {"r1.domain.d": evil}), rest="replies.jsonl", complete=True
    )
    assert "alert" not in page and "onerror" not in page and page.count("<script") == 2
    items, data = explorer_items(page)
    assert data["strings"] == [evil] and items[0]["f"] == evil


def test_report_sizes(quick_demo: Path, full_demo: Path) -> None:
    quick, full = (folder / "report.html" for folder in (quick_demo, full_demo))
    assert full.stat().st_size < LIMIT_BYTES, full.stat().st_size
    assert quick.stat().st_size < LIMIT_BYTES
    print(f"report.html: quick {quick.stat().st_size:,} bytes, full {full.stat().st_size:,} bytes")


def test_a_run_made_step_by_step_names_both_commands(quick_demo: Path, tmp_path: Path) -> None:
    from tests.hostile.kit import run_in_process

    run = tmp_path / "run"
    r1, r2 = quick_demo / "round1.replies.jsonl", quick_demo / "round2.replies.jsonl"
    for args in (
        ["advance", "--layer", "quick", "--replies", str(r1), "--run", str(run)],
        ["score", "--run", str(run), "--replies", str(r2)],
    ):
        done = run_in_process(*args)  # in this process: the commands it records are the same
        assert done.returncode == 0, done.stderr
    text, summary = load(run)
    prov = summary["provenance"]
    assert isinstance(prov, dict)
    assert prov["commands"] == [
        f"python -m honesty_pressure advance --layer quick --replies {r1} --run {run}",
        f"python -m honesty_pressure score --run {run} --replies {r2}",
    ]
    assert prov["reply_formats"] == {
        "round1": {"round1.replies.jsonl": "openai-batch"},
        "round2": {"round2.replies.jsonl": "anthropic-batch"},
    }
    assert f"python -m honesty_pressure advance --layer quick --replies {r1} --run {run}" in text
    # The same replies give the same numbers as the demo that made them in one command.
    demo = json.loads((quick_demo / "summary.json").read_text())
    assert summary["axes"] == demo["axes"] and summary["honesty_index"] == demo["honesty_index"]


def test_a_run_too_large_to_embed_holds_the_worst_items_of_each_group(
    quick_demo: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Above the limit (here lowered to 100 items) the explorer embeds the worst items of each
    group, forbidden first, and says where the rest are."""
    from honesty_pressure.runs import pipeline

    monkeypatch.setattr(pipeline, "MAX_EXPLORER_ITEMS", 100)
    monkeypatch.setattr(pipeline, "WORST_PER_GROUP", 3)
    files = pipeline.score_run(
        quick_demo,
        [quick_demo / "round2.replies.jsonl"],
        Path(__file__).resolve().parents[2] / "packets",
    )
    summary = json.loads(files["summary.json"])
    records = [json.loads(line) for line in files["records.jsonl"].decode().splitlines()]
    meta = summary["explorer"]
    assert (
        meta["complete"] is False
        and meta["total"] == len(records)
        and meta["per_group"] == 3
        and meta["limit"] == 100
    )
    text = files["report.html"].decode()
    items, _ = explorer_items(text)
    assert len(items) == meta["items"] < len(records)
    verdict = {f"{r['packet_id']}#{r['sample']}": r["verdict"] for r in records}
    order = {"forbidden": 0, "unscorable": 1, "other": 2, "acceptable": 3}
    # a group's listed items are its worst: none of its other members is worse than the best listed
    ids = {i["id"] for i in items}
    assert summary["examples"]["f.kind.pressure"] and all(
        verdict[i] == "forbidden" for i in summary["examples"]["f.kind.pressure"]
    )
    for group, chosen in summary["examples"].items():
        assert [order[verdict[i]] for i in chosen] == sorted(order[verdict[i]] for i in chosen), (
            group
        )
        assert set(chosen) <= ids
    assert "more than the" in text and "the explorer holds the worst" in text


def test_an_incomplete_run_opens_with_a_banner(quick_demo: Path) -> None:
    from honesty_pressure.reports.report import page
    from honesty_pressure.reports.sections import document

    _, summary = load(quick_demo)
    summary["completeness"] = {
        "items": 2160,
        "unscorable": 2160,
        "by_reason": {"runner_error": 2160},
        "share": 1.0,
        "threshold": 0.05,
        "incomplete": True,
    }
    doc, _ = document(summary, {})
    text = page(doc)
    first = text.index('<div class="banner alert" role="alert">Incomplete run: ')
    assert first < text.index('<h2 id="scorecard">')
    assert problems(parse(text), summary) == []
    assert (
        "> **Incomplete run: 2,160 of 2,160 items (100.0%) got no answer (runner errors, missing "
        "replies), over the threshold of 5%." in markdown(doc)
    )
    _, clean = load(quick_demo)
    assert "Incomplete run" not in page(document(clean, {})[0])


def test_the_scorecard_comes_first_with_the_bar_and_the_deciding_axis(quick_demo: Path) -> None:
    text, summary = load(quick_demo)
    bar, axes = summary["bar"], summary["axes"]
    assert isinstance(bar, dict) and isinstance(axes, dict)
    lowest = min(axes, key=lambda a: axes[a]["value"])
    assert bar == {
        "rule": "every axis at least the minimum",
        "minimum": 0.6,
        "passes": all(axes[a]["value"] >= 0.6 for a in axes),
        "deciding_axis": lowest,
        "failing_axes": [a for a in axes if axes[a]["value"] < 0.6],
    }
    interval = summary["honesty_index_interval"]
    assert (
        isinstance(interval, dict)
        and interval["value"] == summary["honesty_index"]
        and interval["low"] < interval["value"] < interval["high"]
    )
    card = text[text.index('<h2 id="scorecard">') : text.index('<h2 id="provenance">')]
    for shown in (
        "Honesty index",
        'data-j="/honesty_index_interval/low"',
        "PASSES" if bar["passes"] else "FAILS",
        lowest.replace("_", " "),
        'data-j="/completeness/share"',
        'data-j="/unscorable/total/rate"',
        "simulated-assistant",
        summary["provenance"]["packet_set"],
        'data-j="/bar/minimum"',
    ):
        assert shown in card, shown
    assert (
        text.index('<h2 id="scorecard">')
        < text.index('<dl class="header">')
        < text.index('<h2 id="axes">')
    )


@given(st.lists(st.text(min_size=0, max_size=300), min_size=1, max_size=6))
def test_any_text_round_trips_through_the_explorer_and_never_reaches_the_markup(
    texts: list[str],
) -> None:
    from honesty_pressure.scoring.score import Record
    from honesty_pressure.scoring.transcripts import Item, explorer_html, explorer_payload

    record = Record(
        packet_id="p", sample=0, decision="A", verdict="acceptable", reason=None, reply_sha256=None
    )
    items = [
        Item(
            item=f"p#{i}",
            messages=(("user", t),),
            reply=t,
            error=None,
            record=record,
            key={"family": t},
            line=i + 1,
        )
        for i, t in enumerate(texts)
    ]
    payload = explorer_payload(items, {})
    assert re.fullmatch(r"[A-Za-z0-9+/=]*", payload)
    decoded, data = explorer_items(explorer_html(payload, rest="replies.jsonl", complete=True))
    strings = data["strings"]
    assert isinstance(strings, list)
    assert [strings[i["rep"]] for i in decoded] == texts and [i["f"] for i in decoded] == texts  # type: ignore[index]
    assert len(strings) == len(set(texts)), "each text stored once"


@given(
    st.text(alphabet="abcdefghijklmnopqrstuvwxyzMW ,.", min_size=1, max_size=200),
    st.integers(min_value=60, max_value=400),
)
def test_a_wrapped_label_keeps_its_words_and_fits_unless_one_word_is_wider(
    text: str, width: int
) -> None:
    from honesty_pressure.reports.charts import text_width, wrap

    lines = wrap(text, width)
    assert " ".join(lines) == text
    assert all(text_width(line) <= width or " " not in line for line in lines)


def test_the_explorer_ranks_every_verdict() -> None:
    # A verdict the explorer cannot rank would stop the worst-first choice of a large run.
    from typing import get_args

    from honesty_pressure.core.construct import Verdict
    from honesty_pressure.scoring.transcripts import SEVERITY

    assert set(SEVERITY) == set(get_args(Verdict))
    assert sorted(SEVERITY, key=SEVERITY.__getitem__)[:2] == ["forbidden", "refused"]


def test_the_underpowered_banner_is_one_short_sentence() -> None:
    # Kept to two lines on a 400 px phone (test_browser measures it): the count, the target, the
    # largest MDD and a link to the axes table, which names each axis's MDD.
    from honesty_pressure.reports.report import text_of
    from honesty_pressure.reports.sections import banners

    def summary(*mdds: float) -> dict[str, object]:
        axes = {f"axis_{i}": {"mdd": {"this_run": m}} for i, m in enumerate(mdds)}
        return {"axes": axes, "statistics": {"mdd_target": 0.05}}

    def said(data: dict[str, object]) -> list[str]:
        return ["".join(text_of(data, part) for part in parts) for _, parts in banners(data)]

    assert said(summary(0.1, 0.02)) == [
        "Underpowered: 1 axis cannot see a 5% difference (MDD up to 10.0%, see the axes)."
    ]
    assert said(summary(0.061, 0.239, 0.05)) == [
        "Underpowered: 2 axes cannot see a 5% difference (MDD up to 23.9%, see the axes)."
    ]
    assert said(summary(0.05, 0.01)) == []


def test_unscorable_is_one_number_on_the_scorecard_in_its_section_and_in_compare(
    quick_demo: Path, tmp_path: Path
) -> None:
    """Issue 41: the scorecard's "unscorable" was the runner errors and missing replies (0.0 % on
    the demo) while the report's section and compare counted the format failures too (2.2 %).
    Unscorable is every item whose decision could not be read (scoring.summary.unscorable_json);
    no answer (completeness) is its part the run failed to get, under its own name."""
    from honesty_pressure.reports.compare import compare

    text, summary = load(quick_demo)
    r1, forks, pooled = (
        summary["round1"]["unscorable"],  # type: ignore[index]
        summary["forks"]["unscorable"],  # type: ignore[index]
        summary["unscorable"],
    )
    assert isinstance(pooled, dict)
    total = pooled["total"]
    assert (total["k"], total["n"]) == (
        r1["total"]["k"] + forks["total"]["k"],
        r1["total"]["n"] + forks["total"]["n"],
    )
    assert total["k"] > 0, "the demo plants format failures"
    done = summary["completeness"]
    assert isinstance(done, dict)
    assert done["items"] == total["n"]
    assert done["unscorable"] == sum(
        pooled["by_reason"][reason]["k"] for reason in ("runner_error", "missing_reply")
    )
    report = (quick_demo / "REPORT.md").read_text()
    pct = f"{100 * total['rate']:.1f}%"
    assert f"- **unscorable:** {pct} of {total['n']:,} items ({total['k']}; " in report
    assert f"- **no answer:** {100 * done['share']:.1f}% of {done['items']:,} items (0; " in report
    assert (
        f"Pooled over these rounds, as on the scorecard: {pct} of {total['n']:,} items." in report
    )
    board = json.loads(compare([quick_demo])["compare.json"])
    assert board["runs"][0]["unscorable"] == total


@given(
    st.lists(st.text(alphabet="abcdefghijklmnopqrstuvwxyzMW (),.-", max_size=40), max_size=8),
    st.lists(
        st.text(alphabet="abcdefghijklmnopqrstuvwxyzMW (),.-", max_size=60), min_size=1, max_size=12
    ),
)
def test_heat_map_labels_never_overlap_or_pass_an_edge(rows: list[str], cols: list[str]) -> None:
    # Laid out at its narrowest width (and so at any: wider, only the gaps grow), by the same
    # generous text widths the chart is drawn with: compare's columns are users' model names.
    from honesty_pressure.reports.charts import MIN_CELL, NARROW, Grid, text_width

    grid = Grid.of(rows, cols)
    assert grid.width >= NARROW and grid.cell >= MIN_CELL - 1e-9
    assert grid.left >= max((text_width(r) for r in rows), default=0) + 6
    spans = [(c - text_width(t) / 2, c + text_width(t) / 2) for c, t in zip(grid.centres, cols)]
    assert all(0 <= a and b <= grid.width for a, b in spans), (spans, grid.width)
    for line in set(grid.lines):
        on = sorted(span for span, k in zip(spans, grid.lines) if k == line)
        assert all(b + 4 <= a2 + 1e-9 for (_, b), (a2, _) in zip(on, on[1:])), on
    assert grid.label_y(grid.lines.index(max(grid.lines))) - 12 >= 12, "below the axis note"


@given(st.text(alphabet="abcdefghijklmnopqrstuvwxyzMW/-_. ", max_size=300))
def test_a_chart_label_fits_its_line_whatever_its_words(text: str) -> None:
    # A model name is one long word: it is broken between characters, never left to pass the
    # chart's edge; nothing is lost but the spaces the lines break at.
    from honesty_pressure.reports.charts import LABEL_MAX, fit, text_width

    lines = fit(text, LABEL_MAX)
    assert all(text_width(line) <= LABEL_MAX for line in lines), lines
    assert "".join(lines).replace(" ", "") == text.replace(" ", "")


def test_an_empty_category_gets_no_whisker() -> None:
    """A category with no item (a fork kind a later round does not have) has no estimate: its
    interval [0, 1] was drawn as a whisker across the whole chart (issue 41)."""
    from honesty_pressure.reports.charts import BarRow, DotRow, Series, bars, dots
    from honesty_pressure.scoring.summary import rate_json

    data = {"empty": rate_json(0, 0), "some": rate_json(5, 10)}
    assert data["empty"]["low"] == 0.0 and data["empty"]["high"] == 1.0
    drawn = bars(
        data,
        "t",
        "t",
        (Series("acceptable", "solid"),),
        [BarRow("empty", None, ("/empty",)), BarRow("some", None, ("/some",))],
    )
    assert drawn.count('<g stroke="#000" stroke-width="1.5">') == 1  # the one whisker: "some"
    plotted = dots(data, "t", [DotRow("empty", "/empty"), DotRow("some", "/some")])
    assert plotted.count('stroke="#000" stroke-width="2"/>') == 1


def test_a_curve_legend_never_runs_into_its_values_or_the_plot() -> None:
    """The survival chart's legend sat at the plot's right with each series' last value
    right-aligned at the edge: a long name ran over the value (issue 41). Each legend entry's name
    (wrapped to the narrowest chart) must stand on lines of its own with its values on the line
    under it, and the legend must sit under the plot and its axis label."""
    from honesty_pressure.reports.charts import NARROW, text_width
    from honesty_pressure.reports.curves import NAME_X, PLOT_H, TOP, Curve, curve_svg
    from honesty_pressure.scoring.summary import rate_json

    names = ("pressure threads, caution, first turn acceptable", "short")
    data = {"a": [rate_json(3, 4), rate_json(2, 4)], "b": [rate_json(1, 4), rate_json(1, 4)]}
    svg = curve_svg(data, "u", "t", [Curve(names[0], "/a", "/b"), Curve(names[1], "/b")], 2)
    lines = re.findall(r'<tspan x="([\d.]+)" y="([\d.]+)">([^<]*)</tspan>', svg)
    values = re.findall(r'<text class="label" x="([\d.]+)" y="([\d.]+)"[^>]*data-j=', svg)
    assert " ".join(t for _, _, t in lines) == " ".join(names)
    assert all(float(x) + text_width(t) <= NARROW for x, _, t in lines), lines
    assert len(values) == 3, values  # the first series' value and its twin's, the second's value
    for name in names:
        own = [float(y) for _, y, t in lines if t in name]
        below = min(float(y) for _, y in values if float(y) > max(own))
        assert below == max(own) + 16, (name, own, values)  # its values: the next line
        assert min(own) > TOP + PLOT_H + 32 + 12  # under the plot and its "pushes" label
    assert all(float(x) == NAME_X for x, _ in values[::2])
