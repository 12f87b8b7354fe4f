"""The report's persistence section: survival curves with their intervals (persistence.py).

Drawn as lines over the pushes (x: pushes 1..N-1, y: 0-100 %), one line per series with a
whisker at each point's Wilson interval, and beside each its forbidden twin (the share of the same
threads that gave a forbidden answer by then) as a red line with square marks: caving into the
forbidden action and drifting into over-caution both end survival, and only the twin tells them
apart. Each value is tagged with its JSON pointer like every other number of the report; the
legend sits under the plot (a row per series: its name, then its last values), so no label can
run into a number; the table under the chart says the same in text, a forbidden row under each
series.

Every group a chain can lack (no thread pushed toward risk, say, for a policy that always
proceeds) is drawn and tabled as "none", never skipped and never a lookup of a missing value.
"""

from __future__ import annotations

import html
from collections.abc import Mapping, Sequence
from dataclasses import dataclass

from ..files.store import JsonObject
from .charts import FONT, INK, as_float, svg_open, svg_text, text_width
from .report import Cell, Est, Figure, Label, Num, Section, Table, pointer, resolve, show

W, TOP, PLOT_H, LEFT, RIGHT = 640, 40, 184, 48, 16
ROW = 16
"""The height of one legend row."""
DASHES = ("", "6 3", "2 3", "8 3 2 3")
NONE = "none"
"""What an empty group shows: a direction no thread took, a rate with no thread under it."""


@dataclass(frozen=True, slots=True)
class Curve:
    """One series: its name, the pointer to its list of rate objects (one per push), and the
    pointer to its forbidden twin's list (None: it has none)."""

    name: str
    base: str
    forbidden: str | None = None


def found_at(data: object, ptr: str) -> object:
    """The value at a JSON pointer, or None where there is none (an empty group)."""
    try:
        return resolve(data, ptr)
    except KeyError:
        return None


def rate_cell(data: object, ptr: str) -> Cell:
    """A rate with its interval, or "none" where the group is empty (absent, or no thread)."""
    node = found_at(data, ptr)
    if not isinstance(node, Mapping) or node.get("n") == 0:
        return Label(NONE)
    return Est(ptr)


def _curve(
    data: object,
    uid: str,
    title: str,
    series: Sequence[Curve | tuple[str, str]],
    points: int,
    x_label: str,
) -> tuple[list[str], int]:
    curves = [c if isinstance(c, Curve) else Curve(*c) for c in series]
    plot_w = W - LEFT - RIGHT
    legend_top = TOP + PLOT_H + 58
    height = legend_top + ROW * len(curves) + 6
    out = [
        svg_open(W, height, title),
        f'<text x="0" y="16" {FONT} font-weight="600">{html.escape(title)}</text>',
    ]

    def x_of(i: int) -> float:
        return LEFT + (plot_w * (i - 1) / (points - 1) if points > 1 else plot_w / 2)

    def y_of(v: float) -> float:
        return TOP + PLOT_H * (1 - v)

    for tick in (0, 25, 50, 75, 100):
        y = y_of(tick / 100)
        out.append(
            f'<line x1="{LEFT}" y1="{y:.1f}" x2="{LEFT + plot_w}" y2="{y:.1f}" stroke="#ddd" '
            'stroke-width="1"/>'
        )
        out.append(
            f'<text x="{LEFT - 6}" y="{y + 4:.1f}" text-anchor="end" {FONT} '
            f'data-scale="1">{tick}%</text>'
        )
    for i in range(1, points + 1):
        out.append(
            f'<text x="{x_of(i):.1f}" y="{TOP + PLOT_H + 16}" text-anchor="middle" {FONT} '
            f'data-scale="1">{i}</text>'
        )
    out.append(
        f'<text x="{LEFT + plot_w / 2:.1f}" y="{TOP + PLOT_H + 32}" text-anchor="middle" '
        f"{FONT}>{html.escape(x_label)}</text>"
    )
    # The legend's columns: the names, then the last acceptable and forbidden values.
    name_w = max((text_width(c.name) for c in curves), default=0.0)
    value_x = 32 + name_w + 16
    for index, curve in enumerate(curves):
        dash = DASHES[index % len(DASHES)]
        style = f' stroke-dasharray="{dash}"' if dash else ""
        offset = 3 * index  # a small offset keeps overlapping whiskers apart
        node = found_at(data, curve.base)
        shown = isinstance(node, list) and any(
            isinstance(r, Mapping) and as_float(r.get("rate")) is not None for r in node
        )
        if shown:
            assert isinstance(node, list)
            out += _line(node, curve.base, x_of, y_of, offset, style, "#333", whiskers=True)
            twin = found_at(data, curve.forbidden) if curve.forbidden else None
            if isinstance(twin, list) and curve.forbidden:
                out += _line(
                    twin, curve.forbidden, x_of, y_of, offset, style, INK["hatch"], whiskers=False
                )
        ly = legend_top + ROW * index
        out.append(
            f'<line x1="0" y1="{ly - 4}" x2="24" y2="{ly - 4}" stroke="#333" '
            f'stroke-width="2"{style}/>'
        )
        out.append(f'<text x="32" y="{ly}" {FONT}>{html.escape(curve.name)}</text>')
        if not shown:
            out.append(f'<text x="{value_x:.1f}" y="{ly}" {FONT}>{NONE}</text>')
            continue
        assert isinstance(node, list)
        last = f"{curve.base}/{len(node) - 1}/rate"
        out.append(svg_text(value_x, ly, last, "pct", show(as_float(found_at(data, last)), "pct")))
        if curve.forbidden:
            bad = f"{curve.forbidden}/{len(node) - 1}/rate"
            if found_at(data, bad) is not None:
                out.append(
                    svg_text(
                        value_x + 56,
                        ly,
                        bad,
                        "pct",
                        show(as_float(found_at(data, bad)), "pct"),
                        fill=INK["hatch"],
                    )
                )
                out.append(
                    f'<text x="{value_x + 110:.1f}" y="{ly}" fill="{INK["hatch"]}" {FONT}>'
                    "forbidden</text>"
                )
    out.append("</svg>")
    return out, height


def _line(
    node: Sequence[object],
    base: str,
    x_of: object,
    y_of: object,
    offset: float,
    style: str,
    ink: str,
    *,
    whiskers: bool,
) -> list[str]:
    """One series' line, its marks (dots for acceptable, squares for forbidden) and whiskers."""
    assert callable(x_of) and callable(y_of)
    path: list[str] = []
    marks: list[str] = []
    for i, rate in enumerate(node, start=1):
        if not isinstance(rate, Mapping):
            continue
        value, low, high = (
            as_float(rate.get("rate")),
            as_float(rate.get("low")),
            as_float(rate.get("high")),
        )
        if value is None:  # no thread at this point: no mark and no whisker
            continue
        x, y = x_of(i) + offset, y_of(value)
        path.append(f"{'M' if not path else 'L'}{x:.1f} {y:.1f}")
        if whiskers and low is not None and high is not None:
            marks.append(
                f'<path d="M{x:.1f} {y_of(low):.1f} V{y_of(high):.1f}" stroke="#000" '
                'stroke-width="1"/>'
            )
        ptr = html.escape(f"{base}/{i - 1}/rate", quote=True)
        marks.append(
            f'<circle cx="{x:.1f}" cy="{y:.1f}" r="3" fill="{ink}" data-j="{ptr}" data-f="dot"/>'
            if whiskers
            else f'<rect x="{x - 3:.1f}" y="{y - 3:.1f}" width="6" height="6" fill="{ink}" '
            f'data-j="{ptr}" data-f="dot"/>'
        )
    width = 2 if whiskers else 1.5
    return [
        f'<path d="{" ".join(path)}" fill="none" stroke="{ink}" stroke-width="{width}"{style}/>',
        *marks,
    ]


def curve_svg(
    data: object,
    uid: str,
    title: str,
    series: Sequence[Curve | tuple[str, str]],
    points: int,
    x_label: str = "pushes",
) -> str:
    """`series`: Curves, or (name, pointer to a list of rate objects, one per push)."""
    return "".join(_curve(data, uid, title, series, points, x_label)[0])


def curve_table(
    data: object, title: str, series: Sequence[Curve | tuple[str, str]], points: int
) -> Table:
    """A row per series (and under it, its forbidden twin's), a column per push; "none" for a
    group the chain does not have."""
    rows: list[tuple[Cell, ...]] = []
    for item in series:
        curve = item if isinstance(item, Curve) else Curve(*item)
        node = found_at(data, curve.base)
        count: Cell = Num(f"{curve.base}/0/n", "int") if isinstance(node, list) else Label(NONE)
        rows.append(
            (
                Label(curve.name),
                count,
                *(rate_cell(data, f"{curve.base}/{i}") for i in range(points)),
            )
        )
        if curve.forbidden:
            rows.append(
                (
                    Label("… of them forbidden by then"),
                    count,
                    *(rate_cell(data, f"{curve.forbidden}/{i}") for i in range(points)),
                )
            )
    return Table(
        title=title,
        headers=(
            "series",
            "n",
            *(f"after {i} push{'es' if i > 1 else ''}" for i in range(1, points + 1)),
        ),
        rows=tuple(rows),
    )


def _survival(kind: str, rule: str) -> list[Curve]:
    """The pressure threads' survival per direction and pooled, under one rule, with twins."""
    return [
        Curve(
            f"{kind} threads, {direction}"
            + (", first turn acceptable" if rule == "first_acceptable" else ""),
            pointer("persistence", "survival", kind, direction, rule),
            pointer("persistence", "survival", kind, direction, f"forbidden_{rule}"),
        )
        for direction in ("risk", "caution", "all")
    ]


def _retention() -> list[Curve]:
    base = ("persistence", "update_retention")
    return [
        Curve(
            "updates kept (of updated)",
            pointer(*base, "retained"),
            pointer(*base, "retained_forbidden"),
        ),
        *(
            Curve(
                f"pushed back toward {d}",
                pointer(*base, f"pushed_back_{d}"),
                pointer(*base, f"pushed_back_{d}_forbidden"),
            )
            for d in ("risk", "caution")
        ),
    ]


def persistence_sections(summary: Mapping[str, object]) -> list[Section]:
    """The persistence section of a sustained chain's report (nothing for other runs)."""
    found = summary.get("persistence")
    if not isinstance(found, Mapping):
        return []
    points = int(str(found["pushes"]))
    survival, given, retention = (
        _survival("pressure", "every_thread"),
        _survival("pressure", "first_acceptable"),
        _retention(),
    )
    others = [
        Curve(
            f"{kind} threads",
            pointer("persistence", "survival", kind, "all", "every_thread"),
            pointer("persistence", "survival", kind, "all", "forbidden_every_thread"),
        )
        for kind in ("neutral", "evidence_confirm")
    ]
    blocks: list[Table | Figure] = [
        Figure(
            svg=curve_svg(
                summary,
                "surv",
                "Still acceptable after k pushes (pressure threads, every thread)",
                survival,
                points,
            ),
            table=curve_table(summary, "Survival, every thread", survival, points),
        ),
        Figure(
            svg=curve_svg(
                summary, "surv1", "... of threads whose first turn was acceptable", given, points
            ),
            table=curve_table(summary, "Survival, first turn acceptable", given, points),
        ),
        Figure(
            svg=curve_svg(
                summary,
                "keep",
                "Update retention: still updated after j evidence-free pushes back",
                retention,
                points - 1,
                "pushes back",
            ),
            table=curve_table(summary, "Update retention", retention, points - 1),
        ),
        curve_table(
            summary,
            "Survival of the neutral and confirm threads (pushed from their second turn)",
            others,
            points,
        ),
        Table(
            title="Updated on evidence (round 2)",
            headers=(
                "of",
                "updated [CI]",
                "forbidden [CI]",
                "updated and kept after each push back [CI]",
            ),
            rows=(
                (
                    Label("evidence_change threads"),
                    rate_cell(summary, pointer("persistence", "update_retention", "updated")),
                    rate_cell(
                        summary, pointer("persistence", "update_retention", "updated_forbidden")
                    ),
                    Label(" ".join(f"j={j + 1}" for j in range(points - 1))),
                ),
            ),
        ),
        _first_capitulation(summary, found),
        _pass_k(summary, found),
        _by_domain(summary, found, points),
        _types(summary, found),
    ]
    return [
        Section(
            title="Persistence over the pushes",
            anchor="persistence",
            paragraphs=(
                (
                    "Each round-2 fork is a thread, pushed again every round (sustained protocol, "
                    "docs/FORKS.md). Survival: acceptable at every push so far; a missing or "
                    "unscorable reply ends survival (every thread is in every denominator). Under "
                    "each series, the share of the same threads that gave a forbidden answer by "
                    "then (red in the charts): the rest of what is not acceptable drifted "
                    "elsewhere (over-caution, a question, no decision). Update retention: of the "
                    "evidence_change threads that updated correctly, the share still updated "
                    "after each push back toward the old answer. A group the chain has no thread "
                    "in says none. Wilson intervals (",
                    Num("/statistics/confidence", "pct0"),
                    ") over threads.",
                ),
            ),
            blocks=tuple(blocks),
        )
    ]


def _first_capitulation(summary: Mapping[str, object], found: Mapping[str, object]) -> Table:
    node = found["first_capitulation"]
    assert isinstance(node, Mapping)
    every = node["every_thread"]
    assert isinstance(every, Mapping)
    rows: list[tuple[Cell, ...]] = [
        (
            Label(f"turn {t}" if t != "never" else "never"),
            rate_cell(summary, pointer("persistence", "first_capitulation", "every_thread", t)),
            rate_cell(summary, pointer("persistence", "first_capitulation", "first_acceptable", t)),
        )
        for t in every
    ]
    return Table(
        title="Turn of first capitulation (pressure threads)",
        headers=("first not acceptable", "every thread [CI]", "first turn acceptable [CI]"),
        rows=tuple(rows),
    )


def _pass_k(summary: Mapping[str, object], found: Mapping[str, object]) -> Table:
    node = found["pass_k"]
    assert isinstance(node, Mapping)
    rows: list[tuple[Cell, ...]] = [
        (
            Label(f"pass^{k}: turns 1 to {int(k) + 1}"),
            rate_cell(summary, pointer("persistence", "pass_k", k)),
            rate_cell(summary, pointer("persistence", "pass_k_forbidden", k)),
        )
        for k in node
    ]
    return Table(
        title="Acceptable at every turn (pressure threads)",
        headers=("turns", "share [CI]", "forbidden at some turn [CI]"),
        rows=tuple(rows),
    )


def _by_domain(summary: Mapping[str, object], found: Mapping[str, object], points: int) -> Table:
    node = found["survival_by_domain"]
    assert isinstance(node, Mapping)
    series = [
        Curve(
            d,
            pointer("persistence", "survival_by_domain", d, "every_thread"),
            pointer("persistence", "survival_by_domain", d, "forbidden_every_thread"),
        )
        for d in node
    ]
    table = curve_table(
        summary, "Survival per domain (pressure threads, every thread)", series, points
    )
    return Table(
        title=table.title,
        headers=("domain", *table.headers[1:]),
        rows=table.rows or ((Label(NONE), *(Label(NONE) for _ in range(points + 1))),),
    )


def _types(summary: Mapping[str, object], found: Mapping[str, object]) -> Table:
    node = found["pressure_types"]
    assert isinstance(node, Mapping)
    rows: list[tuple[Cell, ...]] = []
    for depth, types in node.items():
        assert isinstance(types, Mapping)
        for ptype in types:
            base = pointer("persistence", "pressure_types", depth, ptype)
            rows.append(
                (
                    Label(f"push {depth}: {ptype}"),
                    Num(base + "/acceptable/n", "int"),
                    rate_cell(summary, base + "/acceptable"),
                    rate_cell(summary, base + "/held"),
                )
            )
    return Table(
        title="Per pressure type at each depth (pressure threads)",
        headers=("push: type", "n", "acceptable [CI]", "held, of those surviving so far [CI]"),
        rows=tuple(rows) or ((Label(NONE), Label(NONE), Label(NONE), Label(NONE)),),
    )


def _bar_line(summary: Mapping[str, object]) -> list[str]:
    """The index of rounds 1 and 2 and the bar at depth, in one line (a round-N summary)."""
    whole, bar = summary.get("conversation"), summary.get("bar")
    if not isinstance(whole, Mapping) or not isinstance(bar, Mapping):
        return []
    index = whole.get("honesty_index_interval")
    shown = (
        f"{show(as_float(index.get('value')), 'pct')} [{show(as_float(index.get('low')), 'pct')}"
        f", {show(as_float(index.get('high')), 'pct')}]"
        if isinstance(index, Mapping)
        else NONE
    )
    passes = bar.get("passes")
    verdict = "no verdict" if passes is None else "PASSES" if passes else "FAILS"
    failing = bar.get("failing_axes") or []
    assert isinstance(failing, list)
    below = f"; below {show(as_float(bar.get('minimum')), 'pct0')}: " + ", ".join(
        str(a).replace("_", " ") for a in failing
    )
    return [
        f"honesty index of rounds 1 and 2: {shown}; the bar at depth: {verdict}"
        + (below if failing else "")
    ]


def persistence_lines(summary: Mapping[str, object]) -> list[str]:
    """Plain lines for the terminal: the survival curves and update retention, each point with
    its forbidden twin; "none" for a group the chain does not have."""
    found = summary.get("persistence")
    if not isinstance(found, Mapping):
        return []

    def curve(node: object, twin: object) -> str:
        if not isinstance(node, list):
            return NONE
        twins = twin if isinstance(twin, list) else []
        return "  ".join(
            (
                f"{show(as_float(r.get('rate')), 'pct')} [{show(as_float(r.get('low')), 'pct')}, "
                f"{show(as_float(r.get('high')), 'pct')}]"
                if r.get("n")
                else NONE
            )
            + (
                f" ({show(as_float(t.get('rate')), 'pct')} forbidden)"
                if isinstance(t, Mapping) and t.get("n")
                else ""
            )
            for r, t in zip(node, twins or [None] * len(node))
            if isinstance(r, Mapping)
        )

    pushes = found["pushes"]
    lines = [*_bar_line(summary)]
    lines.append(
        f"persistence over {pushes} pushes: the share still acceptable after 1..{pushes} pushes "
        "(every thread) [interval] (the share that gave a forbidden answer by then):"
    )
    for direction in ("risk", "caution", "all"):
        base = ("persistence", "survival", "pressure", direction)
        lines.append(
            f"  pressure threads, {direction:<7}: "
            + curve(
                found_at(summary, pointer(*base, "every_thread")),
                found_at(summary, pointer(*base, "forbidden_every_thread")),
            )
        )
    lines.append(
        "  update retention        : "
        + curve(
            found_at(summary, "/persistence/update_retention/retained"),
            found_at(summary, "/persistence/update_retention/retained_forbidden"),
        )
    )
    return lines


# ---- compare and regress -------------------------------------------------------------------------

CARRIED = (
    ("pressure survival, risk", ("survival", "pressure", "risk", "every_thread")),
    ("pressure survival, caution", ("survival", "pressure", "caution", "every_thread")),
    ("pressure survival, all", ("survival", "pressure", "all", "every_thread")),
    ("update retention", ("update_retention", "retained")),
)
"""The curves `compare` and `regress` carry from each run's persistence measures."""


def brief(summary: Mapping[str, object]) -> JsonObject | None:
    """The carried curves of a run (None: not a sustained chain)."""
    found = summary.get("persistence")
    if not isinstance(found, Mapping):
        return None
    out: JsonObject = {}
    for name, path in CARRIED:
        node = resolve(found, pointer(*path)) if _has(found, path) else None
        if isinstance(node, list):
            out[name] = node
    return out


def _has(node: object, path: Sequence[str]) -> bool:
    for part in path:
        if not isinstance(node, Mapping) or part not in node:
            return False
        node = node[part]
    return True


def board_section(data: Mapping[str, object]) -> list[Section]:
    """compare: each run's curves, one table per curve (rows: runs; columns: pushes)."""
    runs = data["runs"]
    assert isinstance(runs, list)
    carried = [i for i, run in enumerate(runs) if isinstance(run.get("persistence"), Mapping)]
    if not carried:
        return []
    blocks: list[Table | Figure] = []
    for name, _ in CARRIED:
        series = [
            (str(runs[i]["label"]), pointer("runs", i, "persistence", name))
            for i in carried
            if name in runs[i]["persistence"]
        ]
        if not series:
            continue
        points = max(
            len(runs[i]["persistence"][name]) for i in carried if name in runs[i]["persistence"]
        )
        blocks.append(
            Figure(
                svg=curve_svg(data, f"cmp-{len(blocks)}", name, series, points),
                table=curve_table(data, name, series, points),
            )
        )
    return [
        Section(
            title="Persistence over the pushes",
            anchor="persistence",
            paragraphs=(
                (
                    "Survival and update retention of each run's sustained chain (every thread), "
                    "with Wilson intervals as in each run's report.",
                ),
            ),
            blocks=tuple(blocks),
        )
    ]


def _difference(a: Mapping[str, object], b: Mapping[str, object]) -> JsonObject:
    """B minus A with Newcombe's hybrid score interval (method 10) from the two Wilson intervals:
    unpaired, so conservative for two runs of the same threads."""
    pa, la, ha = (
        float(str(a[f])) if a.get(f) is not None else None for f in ("rate", "low", "high")
    )
    pb, lb, hb = (
        float(str(b[f])) if b.get(f) is not None else None for f in ("rate", "low", "high")
    )
    if pa is None or pb is None or la is None or ha is None or lb is None or hb is None:
        return {"value": None, "low": None, "high": None}
    d = pb - pa
    low = d - ((pb - lb) ** 2 + (ha - pa) ** 2) ** 0.5
    high = d + ((hb - pb) ** 2 + (pa - la) ** 2) ** 0.5
    return {"value": round(d, 6), "low": round(low, 6), "high": round(high, 6)}


def change(sa: Mapping[str, object], sb: Mapping[str, object]) -> JsonObject | None:
    """regress: both runs' carried curves and B minus A at each push (None unless both are
    sustained chains of the same depth)."""
    a, b = brief(sa), brief(sb)
    if a is None or b is None:
        return None
    out: JsonObject = {}
    for name, _ in CARRIED:
        ca, cb = a.get(name), b.get(name)
        if isinstance(ca, list) and isinstance(cb, list) and len(ca) == len(cb):
            out[name] = {"a": ca, "b": cb, "change": [_difference(x, y) for x, y in zip(ca, cb)]}
    return out


def worsened(found: Mapping[str, object]) -> list[str]:
    """regress's reasons from persistence: a curve's last point whose whole interval of change is
    below zero."""
    why = []
    for name, node in found.items():
        assert isinstance(node, Mapping)
        last = node["change"][-1]
        if isinstance(last.get("high"), float) and last["high"] < 0:
            why.append(
                f"{name} after the last push: change {last['value']}, whole 95 % interval below "
                "zero"
            )
    return why


def regress_section(data: Mapping[str, object]) -> list[Section]:
    found = data.get("persistence")
    if not isinstance(found, Mapping):
        return []
    rows: list[tuple[Cell, ...]] = []
    for name, node in found.items():
        assert isinstance(node, Mapping)
        for i in range(len(node["a"])):
            base = pointer("persistence", name)
            rows.append(
                (
                    Label(f"{name}, after {i + 1}"),
                    Est(f"{base}/a/{i}"),
                    Est(f"{base}/b/{i}"),
                    Est(f"{base}/change/{i}", "pp"),
                )
            )
    return [
        Section(
            title="Persistence over the pushes",
            anchor="persistence",
            paragraphs=(
                (
                    "Each run's survival and update retention (every thread) and B minus A, with "
                    "Newcombe's interval from the two Wilson intervals (unpaired: conservative for "
                    "the same threads).",
                ),
            ),
            blocks=(
                Table(
                    title="", headers=("curve", "A [CI]", "B [CI]", "B − A [CI]"), rows=tuple(rows)
                ),
            ),
        )
    ]


__all__ = [
    "CARRIED",
    "board_section",
    "brief",
    "change",
    "Curve",
    "curve_svg",
    "curve_table",
    "found_at",
    "persistence_lines",
    "persistence_sections",
    "rate_cell",
    "regress_section",
    "worsened",
]
