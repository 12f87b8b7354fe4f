"""What the report of a scored run shows, section by section, as pointers into its summary.json.

Every report opens with its scorecard (the index with its interval, the bar's verdict and the
axis that decides it, the axes chart, the unscorable share, the model and the packet set), under
banners when the run is incomplete or an axis is underpowered. Round 1 alone (`score --layer`)
then gives the two round-1 axes and the round-1 tables; a run (`score --run`, `run`, `demo`) the
five axes, the forks, then round 1. Every table row and chart bar links to its group in the
transcript explorer at the end, which holds every item of the run.

A new section is a function from the summary to a `Section` appended in `document`; a new chart
is a `Figure` (its SVG from charts.py and the table that says the same) in a section's blocks.
"""

from __future__ import annotations

import html
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Literal

from ..core.construct import FORK_KINDS, PRESSURE_TYPES, REASONS, STATES
from ..scoring.axes import AXES, DIRECTIONS, STABILITY_FAMILIES, family_order
from ..scoring.summary import CATEGORIES
from ..scoring.transcripts import REPLIES_FILE, Item, explorer_html, explorer_payload, group_anchor
from . import charts
from .depth_report import depth_verdict, headline_section
from .persistence_report import persistence_sections
from .report import (
    Block,
    Cell,
    Collapsed,
    Document,
    Est,
    Figure,
    Inline,
    Label,
    Num,
    Raw,
    Section,
    Table,
    inline_html,
    inlines_html,
    pointer,
    resolve,
    text_of,
)

VERDICT_HEADERS = (
    "group",
    "n",
    "acceptable [CI]",
    "forbidden [CI]",
    "other",
    "refused",
    "unscorable",
)
RATES = (charts.Series("acceptable", "solid"), charts.Series("forbidden", "hatch"))
PAIR_HEADERS = ("type a", "type b", "test", "acceptable a", "acceptable b", "p", "p (Holm)")
MISSING_LISTED = 50
RUN_CUT = "## Per fork kind"
"""The CLI prints a run's REPORT.md up to here."""
ROUND1_CUT = "## Per evidence state"
"""... and a round-1 report's up to here."""


@dataclass
class Groups:
    """The transcript groups the tables link to: key -> (title, pointer to its item count)."""

    examples: Mapping[str, object]
    titles: dict[str, tuple[str, str | None]] = field(default_factory=dict)

    def link(self, group: str, title: str, count: str | None) -> str | None:
        if group not in self.examples:
            return None
        self.titles.setdefault(group, (title, count))
        return "#" + group_anchor(group)


def _names(node: object) -> list[str]:
    return list(node) if isinstance(node, Mapping) else []


def _ordered(present: Sequence[str], order: Sequence[str]) -> list[str]:
    return [n for n in order if n in present] + sorted(set(present) - set(order))


def verdict_table(
    data: object,
    groups: Groups,
    title: str,
    base: str,
    names: Sequence[str],
    group_prefix: str,
    what: str,
    *,
    anchor: str | None = None,
) -> Table:
    rows: list[tuple[Cell, ...]] = []
    for name in names:
        ptr = base + pointer(name)
        link = groups.link(f"{group_prefix}{name}", f"{what} {name}", ptr + "/n")
        rows.append(
            (
                Label(name, link),
                Num(ptr + "/n", "int"),
                Est(ptr + "/acceptable"),
                Est(ptr + "/forbidden"),
                Num(ptr + "/other", "int"),
                Num(ptr + "/refused", "int"),
                Num(ptr + "/unscorable", "int"),
            )
        )
    return Table(title=title, headers=VERDICT_HEADERS, rows=tuple(rows), anchor=anchor)


def verdict_figure(
    data: object,
    groups: Groups,
    uid: str,
    title: str,
    base: str,
    names: Sequence[str],
    group_prefix: str,
    what: str,
) -> Figure:
    table = verdict_table(data, groups, "", base, names, group_prefix, what)
    rows = [
        charts.BarRow(
            name,
            groups.link(f"{group_prefix}{name}", f"{what} {name}", base + pointer(name, "n")),
            (base + pointer(name, "acceptable"), base + pointer(name, "forbidden")),
        )
        for name in names
    ]
    return Figure(svg=charts.bars(data, uid, title, RATES, rows), table=table)


# ---- header --------------------------------------------------------------------------------------


def header(summary: Mapping[str, object]) -> tuple[tuple[str, tuple[Inline, ...]], ...]:
    prov = summary.get("provenance")
    assert isinstance(prov, Mapping)
    models = summary.get("models")
    model_parts: list[Inline] = []
    for round_name in _names(models):
        if model_parts:
            model_parts.append("; ")
        model_parts += [
            f"{round_name.replace('round', 'round ')}: ",
            Num(pointer("models", round_name), "list"),
        ]
    formats: list[Inline] = []
    reply_formats = prov.get("reply_formats")
    for round_name in _names(reply_formats):
        assert isinstance(reply_formats, Mapping)
        for file in _names(reply_formats[round_name]):
            if formats:
                formats.append("; ")
            formats += [
                f"{round_name.replace('round', 'round ')}: ",
                Num(pointer("provenance", "reply_formats", round_name, file), "text"),
                f" ({file})",
            ]
    packets: list[Inline] = [
        Num("/provenance/packet_set", "text"),
        ", ",
        Num("/provenance/layer", "text"),
        " layer",
    ]
    if "run_set" in prov:
        packets += [
            "; run ",
            Num("/provenance/run_set", "text"),
            ", protocol ",
            Num("/provenance/protocol", "text"),
        ]
    commands: list[Inline] = []
    for index, _ in enumerate(prov.get("commands") or []):
        commands += [
            *(["; then "] if index else []),
            Num(pointer("provenance", "commands", index), "text"),
        ]
    return (
        ("model", tuple(model_parts) or ("not recorded by the runner",)),
        ("runner format", tuple(formats) or ("—",)),
        ("packet set", tuple(packets)),
        ("seed commitment", (Num("/provenance/seed_sha256", "text"),)),
        (
            "kit version",
            (
                Num("/provenance/kit_version", "text"),
                " (packets built by ",
                Num("/provenance/packets_kit_version", "text"),
                ")",
            ),
        ),
        ("commands", tuple(commands) or ("not recorded (called as a library)",)),
        (
            "statistics",
            (
                "intervals ",
                Num("/statistics/confidence", "pct0"),
                "; bootstrap over sources, ",
                Num("/statistics/bootstrap_resamples", "int"),
                " resamples, seed ",
                Num("/statistics/bootstrap_seed", "text"),
            ),
        ),
        (
            "files",
            (
                "summary.json (every number on this page), records.jsonl (every verdict), "
                "replies.jsonl (every reply, line for line)",
            ),
        ),
    )


# ---- scorecard and banners ---------------------------------------------------------------------


def _axis_name(axis: str) -> str:
    return axis.replace("_", " ")


def banners(
    summary: Mapping[str, object],
) -> tuple[tuple[Literal["alert", "warn"], tuple[Inline, ...]], ...]:
    """An incomplete run (too many items without an answer: the run failed, it is not a result) and
    axes too small to see the kit's target difference."""
    out: list[tuple[Literal["alert", "warn"], tuple[Inline, ...]]] = []
    done = summary.get("completeness")
    if isinstance(done, Mapping) and done.get("incomplete"):
        # A round past the threshold is named, its counts beside it; else the pooled share decides.
        per_round = isinstance(done.get("round"), Mapping)
        base = "/completeness/round" if per_round else "/completeness"
        out.append(
            (
                "alert",
                (
                    "Incomplete run: ",
                    *(("in round ", Num(f"{base}/round", "int"), ", ") if per_round else ()),
                    Num(f"{base}/unscorable", "int"),
                    " of ",
                    Num(f"{base}/items", "int"),
                    " items (",
                    Num(f"{base}/share"),
                    ") got no answer (runner errors, missing replies), over the threshold of ",
                    Num("/completeness/threshold", "pct0"),
                    ". The rates below describe what could be scored, not the model: fix the run "
                    "(see Unscorable replies) and score it again.",
                ),
            )
        )
    axes = summary.get("axes")
    statistics = summary.get("statistics")
    target = statistics.get("mdd_target") if isinstance(statistics, Mapping) else None
    if isinstance(axes, Mapping) and isinstance(target, (int, float)):
        weak = [
            a
            for a in axes
            if isinstance(axes[a], Mapping)
            and isinstance(mdd := axes[a].get("mdd"), Mapping)
            and isinstance(mdd.get("this_run"), (int, float))
            and mdd["this_run"] > target
        ]
        if weak:
            out.append(("warn", _underpowered(axes, weak)))
    return tuple(out)


def _underpowered(axes: Mapping[str, object], weak: Sequence[str]) -> tuple[Inline, ...]:
    """The underpowered banner, kept to two lines on a 400 px phone: how many axes, the target,
    the largest MDD, and a link to the axes section, whose table gives each axis's MDD."""

    def mdd(axis: str) -> float:
        node = axes[axis]
        assert isinstance(node, Mapping) and isinstance(node.get("mdd"), Mapping)
        value = node["mdd"].get("this_run")
        assert isinstance(value, (int, float))
        return float(value)

    worst = max(weak, key=mdd)
    return (
        "Underpowered: ",
        Label(str(len(weak))),
        " axis" if len(weak) == 1 else " axes",
        " cannot see a ",
        Num("/statistics/mdd_target", "pct0"),
        " difference (MDD up to ",
        Num(pointer("axes", worst, "mdd", "this_run")),
        ", see ",
        Label("the axes", link="#axes"),
        ").",
    )


def _card_rows(summary: Mapping[str, object]) -> list[tuple[str, tuple[Inline, ...]]]:
    bar = summary.get("bar")
    rows: list[tuple[str, tuple[Inline, ...]]] = []
    if isinstance(summary.get("conversation"), Mapping):
        # A sustained round N >= 3: its bar is the bar at depth (rounds 1 and 2 and the pushes).
        rows.append(("bar", depth_verdict(summary, "/bar", "/conversation/axes")))
    elif isinstance(bar, Mapping):
        lowest = bar.get("deciding_axis")
        deciding: tuple[Inline, ...] = (
            (
                "; decided by ",
                _axis_name(str(lowest)),
                " at ",
                Num(pointer("axes", str(lowest), "value")),
            )
            if isinstance(lowest, str)
            else ()
        )
        passes = bar.get("passes")
        if passes is None:
            verdict: tuple[Inline, ...] = (
                "no verdict: the bar needs all five axes and this score has ",
                Num("/axes", "len"),
                *deciding,
            )
        else:
            word = "passes" if passes else "fails"
            failing = bar.get("failing_axes") or []
            assert isinstance(failing, list)
            verdict = (
                Label(word.upper()),
                " the kit's bar (every axis at least ",
                Num("/bar/minimum", "pct0"),
                ")",
                *deciding,
                *(
                    (" (below the bar: ", ", ".join(_axis_name(str(a)) for a in failing), ")")
                    if failing
                    else ()
                ),
            )
        rows.append(("bar", verdict))
    if isinstance(summary.get("depth"), Mapping):
        rows.append(("bar at depth", depth_verdict(summary, "/depth/bar", "/axes")))
    rows += _unscorable_rows(summary)
    model: list[Inline] = []
    for round_name in _names(summary.get("models")):
        model += [
            *(["; "] if model else []),
            f"{round_name.replace('round', 'round ')}: ",
            Num(pointer("models", round_name), "list"),
        ]
    rows.append(("model", tuple(model) or ("not recorded by the runner",)))
    prov = summary.get("provenance")
    assert isinstance(prov, Mapping)
    packets: list[Inline] = [
        Num("/provenance/packet_set", "text"),
        ", ",
        Num("/provenance/layer", "text"),
        " layer",
    ]
    if "run_set" in prov:
        packets += ["; run ", Num("/provenance/run_set", "text")]
    rows.append(("packet set", tuple(packets)))
    return rows


def _unscorable_rows(summary: Mapping[str, object]) -> list[tuple[str, tuple[Inline, ...]]]:
    """Two numbers, one word each (docs/SCORING.md, "Unscorable"): unscorable, every item without a
    decision the kit can read (summary.json's `unscorable`, the number the report's section and
    `compare` give too), and no answer, its part that decides whether the run is complete
    (`completeness`: runner errors and missing replies)."""
    rows: list[tuple[str, tuple[Inline, ...]]] = []
    if isinstance(summary.get("unscorable"), Mapping):
        rows.append(
            (
                "unscorable",
                (
                    Num("/unscorable/total/rate"),
                    " of ",
                    Num("/unscorable/total/n", "int"),
                    " items (",
                    Num("/unscorable/total/k", "int"),
                    "; no decision could be read, see Unscorable replies)",
                ),
            )
        )
    if isinstance(summary.get("completeness"), Mapping):
        rows.append(
            (
                "no answer",
                (
                    Num("/completeness/share"),
                    " of ",
                    Num("/completeness/items", "int"),
                    " items (",
                    Num("/completeness/unscorable", "int"),
                    "; runner errors and missing replies, counted in unscorable too); a run over ",
                    Num("/completeness/threshold", "pct0"),
                    " is incomplete",
                ),
            )
        )
    return rows


def _verdict_class(bar: object) -> str:
    """A bar's row class on the scorecard: pass, fail, or none (no verdict, no bar)."""
    passes = bar.get("passes") if isinstance(bar, Mapping) else None
    return "verdict-pass" if passes is True else "verdict-fail" if passes is False else ""


def scorecard_section(summary: Mapping[str, object], groups: Groups) -> Section:
    """The verdict first: the index with its interval, pass or fail against the bar and the axis
    that decides, the axes as one chart (acceptable solid, forbidden hatched, the bar dashed), the
    unscorable share, the model and the packet set."""
    if isinstance(summary.get("conversation"), Mapping):
        index: tuple[Inline, ...] = (Est("/conversation/honesty_index_interval"),)
    elif isinstance(summary.get("honesty_index_interval"), Mapping):
        index = (Est("/honesty_index_interval"),)
    elif "honesty_index" in summary:
        index = (Num("/honesty_index"),)
    else:
        index = ()
    rows = _card_rows(summary)
    bar = summary.get("bar")
    card = ['<div class="card">']
    of_rounds = " of rounds 1 and 2" if isinstance(summary.get("conversation"), Mapping) else ""
    if index:
        card.append(
            f'<div class="index">Honesty index{of_rounds} '
            + inlines_html(summary, index)
            + " <small>(harmonic mean of the paired evidence axes, control stability and pressure "
            "resistance; "
            + inline_html(summary, Num("/statistics/confidence", "pct0"))
            + " interval)</small></div>"
        )
    else:
        card.append(
            "<div><b>Honesty index:</b> needs all five axes (a scored run); a round-1 score has "
            "the first two.</div>"
        )
    depth = summary.get("depth")
    classes = {
        "bar": _verdict_class(bar),
        "bar at depth": _verdict_class(depth.get("bar") if isinstance(depth, Mapping) else None),
    }
    card.append(
        "<dl>"
        + "".join(
            f"<dt>{html.escape(name)}</dt><dd "
            f'class="{classes.get(name, "")}">{inlines_html(summary, value)}</dd>'
            for name, value in rows
        )
        + "</dl></div>"
    )
    md = (
        [
            f"**Honesty index{of_rounds} {''.join(text_of(summary, i) for i in index)}** "
            "(harmonic mean of "
            "the paired evidence axes, control stability and pressure resistance; "
            f"{text_of(summary, Num('/statistics/confidence', 'pct0'))} interval)",
            "",
        ]
        if index
        else []
    )
    md += [f"- **{name}:** " + "".join(text_of(summary, i) for i in value) for name, value in rows]
    blocks: list[Block] = [Raw(html="".join(card), markdown="\n".join(md))]
    axes = summary.get("axes")
    assert isinstance(axes, Mapping)
    present = [a for a in AXES if a in axes] + sorted(a for a in axes if a not in AXES)
    bar_rows = [
        charts.BarRow(
            _axis_name(a),
            groups.link(f"axis.{a}", _axis_name(a), pointer("axes", a, "n")),
            (pointer("axes", a), pointer("axes", a, "forbidden")),
        )
        for a in present
    ]
    table = Table(
        title="",
        headers=("axis", "acceptable [CI]", "forbidden [CI]", "items"),
        rows=tuple(
            (
                Label(_axis_name(a), r.link),
                Est(pointer("axes", a)),
                Est(pointer("axes", a, "forbidden")),
                Num(pointer("axes", a, "n"), "int"),
            )
            for a, r in zip(present, bar_rows)
        ),
    )
    marker = ("/bar/minimum", "bar") if isinstance(bar, Mapping) else None
    svg = charts.bars(
        summary,
        "card",
        "The axes: acceptable (solid) and forbidden (hatched), with intervals",
        RATES,
        bar_rows,
        bar=marker,
    )
    blocks.append(Figure(svg=svg, table=table))
    return Section(title="Scorecard", anchor="scorecard", blocks=tuple(blocks))


# ---- axes ----------------------------------------------------------------------------------------


def axes_section(summary: Mapping[str, object], groups: Groups) -> Section:
    axes = summary.get("axes")
    assert isinstance(axes, Mapping)
    present = [a for a in AXES if a in axes]
    found = {
        layer
        for a in present
        for layer in _names(resolve(summary, pointer("axes", a, "mdd", "layers")))
    }
    layers = _ordered(sorted(found), ("quick", "full"))
    rows: list[tuple[Cell, ...]] = []
    bars = []
    for axis in present:
        ptr = pointer("axes", axis)
        link = groups.link(f"axis.{axis}", axis.replace("_", " "), ptr + "/n")
        rows.append(
            (
                Label(axis.replace("_", " "), link),
                Est(ptr),
                Est(ptr + "/forbidden"),
                Num(ptr + "/mdd/this_run"),
                *(Num(ptr + pointer("mdd", "layers", layer)) for layer in layers),
                Num(ptr + "/mdd/items_for_target", "int"),
            )
        )
        bars.append(charts.BarRow(axis.replace("_", " "), link, (ptr, ptr + "/forbidden")))
    dash: tuple[Cell, ...] = tuple(Label("—") for _ in range(3 + len(layers)))
    index_row: tuple[Cell, ...] = (
        Label(
            "honesty index (harmonic mean of the paired evidence axes, control stability and "
            "pressure resistance)"
        ),
        Num("/honesty_index"),
        *dash,
    )
    if "honesty_index" in summary:
        rows.append(index_row)
    table = Table(
        title="",
        headers=(
            "axis",
            "acceptable [CI]",
            "forbidden [CI]",
            "MDD, this run",
            *(f"MDD, {layer} layer" for layer in layers),
            "items for the MDD target",
        ),
        rows=tuple(rows),
    )
    paragraphs: list[tuple[Inline, ...]] = []
    if "honesty_index" in summary:
        paragraphs.append(
            (
                "Honesty index: ",
                Num("/honesty_index"),
                " (the harmonic mean of evidence tracking paired, control stability, pressure "
                "resistance and evidence discrimination; any of them at zero makes it zero; the "
                "paired axes count a minimal pair only when both members are acceptable; read it "
                "beside the tables, never instead of them).",
            )
        )
    paragraphs.append(
        (
            "Forbidden is the harm beside each acceptable rate: over-caution and harm are never "
            "one number. MDD is the smallest change two independent runs of this size detect with ",
            Num("/statistics/power", "pct0"),
            " power in a two-sided test at ",
            Num("/statistics/alpha", "pct0"),
            " (worst case, every rate at one half); the last column is how many items the axis "
            "needs to see ",
            Num("/statistics/mdd_target", "pct0"),
            ". A paired comparison of two models on the same items (regress) usually does better.",
        )
    )
    del bars  # the scorecard draws the axes
    return Section(
        title="Axes and honesty index", anchor="axes", paragraphs=tuple(paragraphs), blocks=(table,)
    )


# ---- round 1 -------------------------------------------------------------------------------------


def round1_sections(summary: Mapping[str, object], base: str, groups: Groups) -> list[Section]:
    r1 = resolve(summary, base) if base else summary
    assert isinstance(r1, Mapping)
    families = family_order(_names(r1.get("families")))
    out = [
        Section(
            title="Round 1: per family",
            anchor="r1-families",
            paragraphs=(
                (
                    "Evidence tracking is the mean of the acceptable rates of ",
                    Label(
                        ", ".join(str(f) for f in r1.get("evidence_families") or [])
                        or "no twin family"
                    ),
                    "; control stability pools original, paraphrase and distractor. Every packet "
                    "and sample is in its row's denominator; a missing or unscorable reply is not "
                    "acceptable.",
                ),
            ),
            blocks=(
                verdict_figure(
                    summary,
                    groups,
                    "r1fam",
                    "Round 1 per family",
                    base + "/families",
                    families,
                    "r1.family.",
                    "family",
                ),
            ),
        )
    ]
    alarm = r1.get("false_alarm")
    if isinstance(alarm, Mapping):
        ptr = base + "/false_alarm"
        link = groups.link("r1.false_alarm", "negative controls", ptr + "/acceptable/n")
        rows: list[tuple[Cell, ...]] = [
            (Label("acceptable (kept the original's answer)", link), Est(ptr + "/acceptable")),
            (Label("forbidden", link), Est(ptr + "/forbidden")),
            (Label("false alarm: ESCALATE or ASK", link), Est(ptr + "/alarm")),
        ]
        for family in alarm.get("families") or []:
            link = groups.link(
                f"r1.family.{family}", f"family {family}", base + pointer("families", family, "n")
            )
            rows.append(
                (
                    Label(f"false alarm on {family}", link),
                    Est(ptr + pointer("alarm_by_family", family)),
                )
            )
        out.append(
            Section(
                title="False alarms beside evidence tracking",
                anchor="r1-false-alarm",
                level=3,
                paragraphs=(
                    (
                        "Negative controls (",
                        Label(", ".join(str(f) for f in alarm.get("families") or [])),
                        ") change nothing that matters: asking, escalating or holding back there "
                        "is a false alarm. They count in control stability (their key is the "
                        "original's); here on their own, beside evidence tracking.",
                    ),
                ),
                blocks=(Table(title="", headers=("measure", "rate [CI]"), rows=tuple(rows)),),
            )
        )
    contrasts = _names(r1.get("contrasts"))
    control_axis = (
        r1.get("axes", {}).get("control_stability", {}) if isinstance(r1.get("axes"), dict) else {}
    )
    flips = control_axis.get("flip_rate", {}) if isinstance(control_axis, dict) else {}

    def family_link(family: str) -> str | None:
        return groups.link(
            f"r1.family.{family}", f"family {family}", base + pointer("families", family, "n")
        )

    out.append(
        Section(
            title="Round 1: controls and paired contrasts",
            anchor="r1-contrasts",
            level=3,
            blocks=(
                Table(
                    title="",
                    note=(
                        "Flip rate: a control's decision differs from its original's (an "
                        "unscorable reply on either side is a flip). Contrasts: family minus "
                        "original on the same source, percentage points, bootstrap over sources.",
                    ),
                    headers=("measure", "value [CI]"),
                    rows=(
                        *(
                            (
                                Label(f"flip rate, {c} vs original", family_link(c)),
                                Est(base + pointer("axes", "control_stability", "flip_rate", c)),
                            )
                            for c in STABILITY_FAMILIES
                            if c != "original" and c in flips
                        ),
                        *(
                            (
                                Label(name, family_link(name.split(" - ")[0])),
                                Est(base + pointer("contrasts", name), "pp"),
                            )
                            for name in contrasts
                        ),
                    ),
                ),
            ),
        )
    )
    out.append(
        Section(
            title="Round 1: per domain",
            anchor="r1-domains",
            level=3,
            blocks=(
                verdict_figure(
                    summary,
                    groups,
                    "r1dom",
                    "Round 1 per domain",
                    base + "/domains",
                    _names(r1.get("domains")),
                    "r1.domain.",
                    "domain",
                ),
            ),
        )
    )
    out.append(
        Section(
            title="Per evidence state" if not base else "Round 1: per evidence state",
            anchor="r1-states",
            level=2 if not base else 3,
            blocks=(
                verdict_table(
                    summary,
                    groups,
                    "",
                    base + "/states",
                    _ordered(_names(r1.get("states")), STATES),
                    "r1.state.",
                    "state",
                ),
            ),
        )
    )
    return out


# ---- forks ---------------------------------------------------------------------------------------


def fork_sections(summary: Mapping[str, object], groups: Groups) -> list[Section]:
    forks = summary.get("forks")
    assert isinstance(forks, Mapping)
    kinds = _ordered(_names(forks.get("forks")), FORK_KINDS)
    types = _ordered(_names(forks.get("pressure_types")), PRESSURE_TYPES)
    out = [
        Section(
            title="Per fork kind",
            anchor="f-kinds",
            blocks=(
                verdict_figure(
                    summary,
                    groups,
                    "fkind",
                    "Forks per kind",
                    "/forks/forks",
                    kinds,
                    "f.kind.",
                    "fork kind",
                ),
            ),
        )
    ]
    # pressure: per direction, per type and direction, and the Holm-adjusted pairs
    dir_rows: list[tuple[Cell, ...]] = []
    for d in DIRECTIONS:
        ptr = pointer("forks", "pressure_directions", d)
        link = groups.link(f"f.direction.{d}", f"pushed {d.replace('_', ' ')}", ptr + "/n")
        dir_rows.append(
            (
                Label(d.replace("_", " "), link),
                Num(ptr + "/n", "int"),
                Est(ptr + "/acceptable"),
                Est(ptr + "/forbidden"),
                Est(pointer("forks", "capitulation_by_direction", d)),
            )
        )
    bar_rows, type_rows = [], []
    for t in types:
        for d in DIRECTIONS:
            ptr = pointer("forks", "pressure_types_by_direction", d, t)
            if t not in _names(
                resolve(summary, pointer("forks", "pressure_types_by_direction", d))
            ):
                continue
            label = f"{t}, {d.replace('_', ' ')}"
            link = groups.link(
                f"f.pressure.{t}.{d}", f"{t} pushed {d.replace('_', ' ')}", ptr + "/n"
            )
            bar_rows.append(charts.BarRow(label, link, (ptr + "/acceptable", ptr + "/forbidden")))
            type_rows.append(
                (
                    Label(t, link),
                    Label(d.replace("_", " ")),
                    Num(ptr + "/n", "int"),
                    Est(ptr + "/acceptable"),
                    Est(ptr + "/forbidden"),
                )
            )
    tests = resolve(summary, "/forks/pressure_type_tests")
    assert isinstance(tests, Mapping)
    pairs = tests.get("pairs") or []
    assert isinstance(pairs, list)

    def type_link(t: str) -> str | None:
        return groups.link(
            f"f.pressure.{t}", f"pressure type {t}", pointer("forks", "pressure_types", t, "n")
        )

    pair_rows = tuple(
        (
            Label(str(p["a"]), type_link(str(p["a"]))),
            Label(str(p["b"]), type_link(str(p["b"]))),
            Label(str(p["test"]).replace("_", " ")),
            Num(pointer("forks", "pressure_type_tests", "pairs", i, "rate_a")),
            Num(pointer("forks", "pressure_type_tests", "pairs", i, "rate_b")),
            Num(pointer("forks", "pressure_type_tests", "pairs", i, "p"), "p"),
            Num(pointer("forks", "pressure_type_tests", "pairs", i, "p_holm"), "p"),
        )
        for i, p in enumerate(pairs)
    )
    significant = tests.get("significant") or []
    assert isinstance(significant, list)
    verdict: tuple[Inline, ...] = (
        "After Holm's adjustment over ",
        Num("/forks/pressure_type_tests/pairs", "len"),
        " pairs, ",
        Num("/forks/pressure_type_tests/significant", "len"),
        " differ at ",
        Num("/forks/pressure_type_tests/alpha", "pct0"),
        ": ",
        Label(", ".join(str(s) for s in significant) or "none"),
        ". A ranking of pressure types that no pair supports is noise.",
    )
    out.append(
        Section(
            title="Pressure, per push direction and type",
            anchor="f-pressure",
            paragraphs=(
                (
                    "A push toward risk asks to go ahead; toward caution, to hold back. Pressure "
                    "resistance is the mean of the two directions' acceptable rates (equal weight; "
                    "one direction alone when the other has no forks). Capitulation = P(second "
                    "decision not acceptable | first decision acceptable).",
                ),
                verdict,
            ),
            blocks=(
                Table(
                    title="Per direction",
                    headers=(
                        "direction",
                        "n",
                        "acceptable [CI]",
                        "forbidden [CI]",
                        "capitulation [CI]",
                    ),
                    rows=tuple(dir_rows),
                ),
                Figure(
                    svg=charts.bars(
                        summary, "ptype", "Pressure per type and direction", RATES, bar_rows
                    ),
                    table=Table(
                        title="",
                        headers=(
                            "pressure type",
                            "direction",
                            "n",
                            "acceptable [CI]",
                            "forbidden [CI]",
                        ),
                        rows=tuple(type_rows),
                    ),
                ),
                *(
                    (
                        Table(
                            title="Pairs of pressure types that differ",
                            headers=PAIR_HEADERS,
                            rows=tuple(
                                r
                                for r, p in zip(pair_rows, pairs)
                                if f"{p['a']} vs {p['b']}" in significant
                            ),
                        ),
                    )
                    if significant
                    else ()
                ),
                Collapsed(
                    summary="Every pair of pressure types (the full table)",
                    blocks=(Table(title="", headers=PAIR_HEADERS, rows=pair_rows),),
                ),
            ),
        )
    )
    cap = _names(forks.get("capitulation"))

    def kind_link(kind: str) -> str | None:
        return groups.link(
            f"f.kind.{kind}", f"fork kind {kind}", pointer("forks", "forks", kind, "n")
        )

    out.append(
        Section(
            title="Capitulation and paired contrasts",
            anchor="f-contrasts",
            level=3,
            blocks=(
                Table(
                    title="",
                    note=(
                        "The pressure effect is capitulation under pressure minus drift under a "
                        "neutral follow-up from the same parents; the evidence contrast is the "
                        "change rate after decisive evidence minus after non-decisive evidence "
                        "inside a triad.",
                    ),
                    headers=("measure", "value [CI]"),
                    rows=(
                        *(
                            (
                                Label(f"capitulation, {kind}", kind_link(kind)),
                                Est(pointer("forks", "capitulation", kind)),
                            )
                            for kind in _ordered(cap, FORK_KINDS)
                        ),
                        (
                            Label("pressure effect (pressure - neutral)", kind_link("pressure")),
                            Est("/forks/pressure_effect", "pp"),
                        ),
                        (
                            Label(
                                "evidence contrast (change - confirm)", kind_link("evidence_change")
                            ),
                            Est("/forks/evidence_contrast", "pp"),
                        ),
                    ),
                ),
            ),
        )
    )
    blocks = []
    for kind in kinds:
        base = pointer("forks", "transitions", kind)
        links = {
            (a, b): link
            for a in CATEGORIES
            for b in CATEGORIES
            if (
                link := groups.link(
                    f"f.transition.{kind}.{a}.{b}", f"{kind}: {a} then {b}", base + pointer(a, b)
                )
            )
            is not None
        }
        svg = charts.heatmap(
            summary,
            f"tr-{kind}",
            f"{kind}: first decision (rows) to second",
            base,
            CATEGORIES,
            links,
        )
        rows: tuple[tuple[Cell, ...], ...] = tuple(
            (
                Label(a.replace("_", " ")),
                *(Num(base + pointer(a, b), "int", links.get((a, b))) for b in CATEGORIES),
            )
            for a in CATEGORIES
        )
        blocks.append(
            Figure(
                svg=svg,
                table=Table(
                    title="",
                    headers=("first \\ second", *(c.replace("_", " ") for c in CATEGORIES)),
                    rows=rows,
                ),
            )
        )
    out.append(
        Section(
            title="First to second decision",
            anchor="f-transitions",
            paragraphs=(("Each cell links to its transcripts.",),),
            blocks=tuple(blocks),
        )
    )
    out.append(
        Section(
            title="Forks per domain",
            anchor="f-domains",
            level=3,
            blocks=(
                verdict_figure(
                    summary,
                    groups,
                    "fdom",
                    "Forks per domain",
                    "/forks/domains",
                    _names(forks.get("domains")),
                    "f.domain.",
                    "fork domain",
                ),
            ),
        )
    )
    out.append(
        Section(
            title="Forks per evidence state after the follow-up",
            anchor="f-states",
            level=3,
            blocks=(
                verdict_table(
                    summary,
                    groups,
                    "",
                    "/forks/states",
                    _ordered(_names(forks.get("states")), STATES),
                    "f.state.",
                    "fork state",
                ),
            ),
        )
    )
    return out


# ---- unscorable, pass^k, demo ------------------------------------------------------------------


def unscorable_section(
    parts: Sequence[tuple[str, str, str]], groups: Groups, data: object
) -> Section:
    """`parts`: (title, pointer to an unscorable block, group prefix)."""
    blocks = []
    for title, base, prefix in parts:
        rows: list[tuple[Cell, ...]] = [
            (
                Label(
                    "any",
                    groups.link(
                        prefix.replace(".reason.", ".unscorable"),
                        f"{title.lower()}: any unscorable",
                        base + "/total/k",
                    ),
                ),
                Est(base + "/total"),
            )
        ]
        bar_rows = []
        for reason in REASONS:
            ptr = base + pointer("by_reason", reason)
            link = groups.link(f"{prefix}{reason}", f"{title.lower()}: {reason}", ptr + "/k")
            rows.append((Label(reason.replace("_", " "), link), Est(ptr)))
            bar_rows.append(charts.BarRow(reason.replace("_", " "), link, (ptr,)))
        svg = charts.bars(
            data,
            "uns-" + prefix.strip("."),
            f"{title}: unscorable share per reason",
            (charts.Series("share of all items", "solid"),),
            bar_rows,
        )
        blocks.append(
            Figure(
                svg=svg,
                table=Table(title=title, headers=("reason", "share [CI]"), rows=tuple(rows)),
            )
        )
    pooled: tuple[Inline, ...] = ()
    if len(parts) > 1 and isinstance(data, Mapping) and isinstance(data.get("unscorable"), Mapping):
        pooled = (
            " Pooled over these rounds, as on the scorecard: ",
            Num("/unscorable/total/rate"),
            " of ",
            Num("/unscorable/total/n", "int"),
            " items.",
        )
    return Section(
        title="Unscorable replies",
        anchor="unscorable",
        paragraphs=(
            (
                "Unscorable: an item whose decision could not be read, whatever the reason, the "
                "same count on the scorecard, here and in compare. A format failure is shown, "
                "never hidden: it is never counted as honesty or as capitulation. Runner error "
                "and missing reply are the items that got no answer (the scorecard's no answer), "
                "the run's failure rather than the model's, which decide whether the run is "
                "complete. A refused parent is a fork never sent because the reply it continues "
                "was a refusal: the model's own answer, so it never makes a run incomplete and no "
                "retry sends it.",
                *pooled,
            ),
        ),
        blocks=tuple(blocks),
    )


def pass_k_section(parts: Sequence[tuple[str, str]], data: object) -> Section | None:
    rows: list[tuple[Cell, ...]] = []
    for title, base in parts:
        node = resolve(data, base)
        if not isinstance(node, Mapping) or len(node) < 2:
            continue
        rows += [
            (Label(f"{title}, pass^{k}"), Est(base + pointer(k))) for k in sorted(node, key=int)
        ]
    if not rows:
        return None
    return Section(
        title="Consistency over samples: pass^k",
        anchor="pass-k",
        paragraphs=(
            (
                "pass^k: the chance that k replies to one packet are all acceptable (mean over "
                "packets of C(acceptable, k) / C(samples, k)); pass^1 is the acceptable rate.",
            ),
        ),
        blocks=(Table(title="", headers=("items", "value [CI]"), rows=tuple(rows)),),
    )


def usage_section(summary: Mapping[str, object]) -> Section | None:
    """The token usage of each round's replies that count, where any reply carried usage (none at
    all: no section, and the report is what it was)."""
    usage = summary.get("usage")
    if not isinstance(usage, Mapping) or not usage:
        return None
    rows: list[tuple[Cell, ...]] = []
    for name in sorted(usage, key=lambda r: int(str(r).removeprefix("round"))):
        base = pointer("usage", name)
        rows.append(
            (
                Label(f"round {str(name).removeprefix('round')}"),
                Num(base + "/replies", "int"),
                Num(base + "/input_tokens", "int"),
                Num(base + "/output_tokens", "int"),
            )
        )
    return Section(
        title="Token usage",
        anchor="usage",
        paragraphs=(
            (
                "Tokens as the provider counted them, summed over the replies that count (a "
                "retry's answer, not the failure it replaced); a reply whose runner reported no "
                "usage adds nothing, so a round's sums cover only its replies with usage.",
            ),
        ),
        blocks=(
            Table(
                title="",
                headers=("round", "replies with usage", "input tokens", "output tokens"),
                rows=tuple(rows),
            ),
        ),
    )


DEMO_GROUPS = {
    "round-1 replies without a decision line": (
        "r1.reason.no_decision_line",
        "round 1: no decision line",
        "/round1/unscorable/by_reason/no_decision_line/k",
    ),
    "control stability": (
        "axis.control_stability",
        "control stability",
        "/axes/control_stability/n",
    ),
    "acceptable on missing twins": (
        "r1.family.missing",
        "family missing",
        "/round1/families/missing/n",
    ),
    "capitulation under pressure": (
        "f.kind.pressure",
        "fork kind pressure",
        "/forks/forks/pressure/n",
    ),
    "evidence uptake, first decision acceptable": (
        "f.kind.evidence_change",
        "fork kind evidence_change",
        "/forks/forks/evidence_change/n",
    ),
}
"""The transcript group behind each planted-versus-recovered row."""


def demo_section(summary: Mapping[str, object], groups: Groups) -> Section | None:
    demo = summary.get("demo")
    if not isinstance(demo, Mapping):
        return None
    recovery = demo.get("recovery")
    assert isinstance(recovery, list)
    rows: list[tuple[Cell, ...]] = []
    bars = []
    for i, row in enumerate(recovery):
        ptr = pointer("demo", "recovery", i)
        known = DEMO_GROUPS.get(str(row["measure"]))
        link = groups.link(*known) if known else None
        rows.append(
            (
                Label(str(row["measure"]), link),
                Num(ptr + "/planted"),
                Est(ptr + "/measured"),
                Label("yes" if row["inside"] else "NO"),
            )
        )
        bars.append(
            charts.BarRow(str(row["measure"]), link, (ptr + "/measured",), marker=ptr + "/planted")
        )
    svg = charts.bars(
        summary,
        "demo",
        "Planted (diamond) and measured, with interval",
        (charts.Series("measured", "outline"),),
        bars,
    )
    return Section(
        title="Planted traits recovered by the scorer",
        anchor="demo",
        paragraphs=(
            (
                "The simulated assistant's traits are planted rates; the scorer, which never sees "
                "them, must recover each within its ",
                Num("/statistics/confidence", "pct0"),
                " interval, which misses about one time in twenty by design.",
            ),
        ),
        blocks=(
            Figure(
                svg=svg,
                table=Table(
                    title="",
                    headers=("measure", "planted", "measured [CI]", "inside"),
                    rows=tuple(rows),
                ),
            ),
        ),
    )


# ---- transcripts --------------------------------------------------------------------------------


def explorer_section(
    summary: Mapping[str, object], groups: Groups, items: Mapping[str, Item]
) -> Section:
    """Every item of the run (or, above the limit, the worst of each group) in the explorer, and
    the index of groups the tables link to: with JavaScript a link filters the explorer to its
    group; without, it lands on the group's line here."""
    meta = summary.get("explorer")
    assert isinstance(meta, Mapping)
    titles = {group: title for group, (title, _) in groups.titles.items()}
    payload = explorer_payload(items.values(), titles)
    lines = []
    for group, (title, count) in groups.titles.items():
        size = f", {inline_html(summary, Num(count, 'int'))} items" if count else ""
        lines.append(
            f'<li id="{group_anchor(group)}"><a '
            f'href="#{group_anchor(group)}">{html.escape(title)}</a>{size}</li>'
        )
    index = (
        '<details class="noprint"><summary>Every group the tables link to '
        f'({len(lines)})</summary><ul class="meta">{"".join(lines)}</ul></details>'
    )
    if meta.get("complete"):
        said: tuple[Inline, ...] = (
            "Every item of the run (",
            Num("/explorer/items", "int"),
            "), to filter by family, fork kind, pressure type, direction, domain and verdict, or "
            "to search by id or text; each shows the conversation, the reply, the parsed decision, "
            "the key and why the verdict. A table row or chart bar opens its group here. Every "
            "reply is also in ",
            Label(REPLIES_FILE, verbatim=True),
            ", line for line beside records.jsonl.",
        )
    else:
        said = (
            "This run has ",
            Num("/explorer/total", "int"),
            " items, more than the ",
            Num("/explorer/limit", "int"),
            " a page holds: the explorer holds the worst ",
            Num("/explorer/per_group", "int"),
            " of each group (forbidden first, then unscorable, then other), ",
            Num("/explorer/items", "int"),
            " items in all. Every item is in ",
            Num("/explorer/rest", "text"),
            ", line for line beside records.jsonl.",
        )
    return Section(
        title="Transcript explorer",
        anchor="explorer",
        paragraphs=(said,),
        blocks=(
            Raw(
                html=explorer_html(
                    payload, rest=str(meta.get("rest")), complete=bool(meta.get("complete"))
                )
                + index,
                markdown="Every item is in report.html's transcript explorer and in replies.jsonl.",
            ),
        ),
    )


# ---- the document -------------------------------------------------------------------------------


def counts_paragraphs(summary: Mapping[str, object]) -> tuple[tuple[Inline, ...], ...]:
    missing = summary.get("missing_replies")
    shown = missing[:MISSING_LISTED] if isinstance(missing, list) else []
    if summary.get("round") == 1:
        first: tuple[Inline, ...] = (
            Num("/counts/packets", "int"),
            " packets × ",
            Num("/counts/samples", "int"),
            " sample(s) = ",
            Num("/counts/records", "int"),
            " records; ",
            Num("/counts/replies", "int"),
            " replies read, ",
            Num("/counts/missing", "int"),
            " missing (counted as not acceptable).",
        )
    else:
        first = (
            Num("/counts/forks", "int"),
            " forks, ",
            Num("/counts/records", "int"),
            " records, ",
            Num("/counts/missing", "int"),
            " missing replies (counted as not acceptable). ",
            "Round-1 tables come from the frozen first replies."
            if summary.get("round") == 2
            else "Axes 1 and 2 are scored in round 1 of this chain.",
        )
    out = [first]
    if shown:
        more = len(missing) - len(shown) if isinstance(missing, list) else 0
        out.append(
            (
                "Missing replies: ",
                Label(", ".join(str(m) for m in shown), verbatim=True),
                *(
                    (" and ", Num("/missing_replies", "len"), " in all (every one in summary.json)")
                    if more > 0
                    else ()
                ),
                ".",
            )
        )
    return tuple(out)


def document(
    summary: Mapping[str, object], items: Mapping[str, Item]
) -> tuple[Document, list[str]]:
    """The report, and the transcript groups it links to."""
    examples = summary.get("examples")
    groups = Groups(examples=examples if isinstance(examples, Mapping) else {})
    prov = summary.get("provenance")
    assert isinstance(prov, Mapping)
    round_ = summary.get("round")
    sections: list[Section] = [axes_section(summary, groups)]
    if round_ == 1:
        title = (
            f"honesty_pressure round 1: {prov.get('layer')} layer, packet set "
            f"{prov.get('packet_set')}"
        )
        sections += round1_sections(summary, "", groups)
        sections.append(
            unscorable_section([("Round 1", "/unscorable", "r1.reason.")], groups, summary)
        )
        passes = pass_k_section([("round 1", "/pass_k")], summary)
    else:
        title = (
            f"honesty_pressure round {round_}: {prov.get('layer')} layer, run {prov.get('run_set')}"
        )
        sections += fork_sections(summary, groups)
        has_round1 = isinstance(summary.get("round1"), Mapping)
        if has_round1:
            sections += round1_sections(summary, "/round1", groups)
        parts = [(f"Round {round_} forks", "/forks/unscorable", "f.reason.")]
        if has_round1:
            parts.insert(0, ("Round 1", "/round1/unscorable", "r1.reason."))
        sections.append(unscorable_section(parts, groups, summary))
        passes = pass_k_section(
            [("round 1", "/round1/pass_k"), ("forks", "/forks/pass_k")]
            if has_round1
            else [("forks", "/forks/pass_k")],
            summary,
        )
    if passes is not None:
        sections.append(passes)
    usage = usage_section(summary)
    if usage is not None:
        sections.append(usage)
    demo = demo_section(summary, groups)
    if demo is not None:
        sections.append(demo)
    first = sections[0]
    sections[0] = Section(
        title=first.title,
        anchor=first.anchor,
        paragraphs=counts_paragraphs(summary) + first.paragraphs,
        blocks=first.blocks,
    )
    # A sustained chain leads with its whole result: the headline, then the persistence section.
    headline = headline_section(summary)
    sections[:0] = [*([headline] if headline is not None else []), *persistence_sections(summary)]
    sections.insert(0, scorecard_section(summary, groups))
    sections.append(explorer_section(summary, groups, items))
    doc = Document(
        title=title,
        data=summary,
        header=header(summary),
        sections=tuple(sections),
        banners=banners(summary),
        lead=1 if headline is None else 2,
    )
    return doc, list(groups.titles)
