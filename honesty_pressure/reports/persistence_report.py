"""The report's persistence section: survival curves with their intervals (persistence.py).

Drawn as lines over the pushes (x: pushes 1..N-1, y: 0-100 %), one line per series with a
whisker at each point's Wilson interval, each value tagged with its JSON pointer like every other
number of the report; the table beside it says the same in text.
"""

from __future__ import annotations

import html
from collections.abc import Mapping, Sequence

from ..files.store import JsonObject
from .charts import FONT, NARROW, as_float, fit, pct, svg_open, svg_text
from .report import Cell, Est, Figure, Label, Num, Section, Table, pointer, resolve, show

PLOT_H = 180
LEFT, RIGHT = 44 / NARROW, 14 / NARROW
"""The shares of the chart's width left of the plot (the y scale) and right of it (at NARROW, 44
and 14 px): the chart is fluid like charts.py's, its text 12 px at any width."""
DASHES = ("", "6 3", "2 3", "8 3 2 3")
LEGEND_TEXT = 78
"""Where a legend entry's name starts: after its line and its last value."""


def curve_svg(
    data: object, uid: str, title: str, series: Sequence[tuple[str, str]], points: int
) -> str:
    """`series`: (name, pointer to a list of rate objects, one per push). The legend, one line
    per series with its last value, stands above the plot, so it never covers a label."""
    del uid
    names = [fit(name, NARROW - LEGEND_TEXT) for name, _ in series]
    top = sum(16 * len(lines) for lines in names) + 12
    height = top + PLOT_H + 36

    def x_of(i: int) -> str:
        share = (i - 1) / (points - 1) if points > 1 else 0.5
        return pct(LEFT + (1 - LEFT - RIGHT) * share)

    def y_of(v: float) -> float:
        return top + PLOT_H * (1 - v)

    out = [svg_open(height, title)]
    for tick in (0, 25, 50, 75, 100):
        y = y_of(tick / 100)
        out.append(
            f'<line x1="{pct(LEFT)}" y1="{y:.1f}" x2="{pct(1 - RIGHT)}" y2="{y:.1f}" '
            'stroke="#ddd" stroke-width="1"/>'
        )
        out.append(
            f'<text x="{pct(LEFT)}" dx="-6" y="{y + 4:.1f}" text-anchor="end" {FONT} '
            f'data-scale="1">{tick}%</text>'
        )
    for i in range(1, points + 1):
        out.append(
            f'<text x="{x_of(i)}" y="{top + PLOT_H + 16}" text-anchor="middle" {FONT} '
            f'data-scale="1">{i}</text>'
        )
    out.append(
        f'<text x="{pct(LEFT + (1 - LEFT - RIGHT) / 2)}" y="{height - 4}" text-anchor="middle" '
        f"{FONT}>pushes</text>"
    )
    for index, (_, base) in enumerate(series):
        node = resolve(data, base)
        if not isinstance(node, list):
            continue
        dash = DASHES[index % len(DASHES)]
        style = f' stroke-dasharray="{dash}"' if dash else ""
        points_at: list[tuple[str, float]] = []
        marks: list[str] = []
        for i, rate in enumerate(node, start=1):
            if not isinstance(rate, Mapping):
                continue
            value, low, high = (
                as_float(rate.get("rate")),
                as_float(rate.get("low")),
                as_float(rate.get("high")),
            )
            if value is None:
                continue
            x = x_of(i)
            points_at.append((x, y_of(value)))
            if low is not None and high is not None:
                marks.append(
                    f'<line x1="{x}" y1="{y_of(low):.1f}" x2="{x}" y2="{y_of(high):.1f}" '
                    'stroke="#000" stroke-width="1"/>'
                )
            marks.append(
                f'<circle cx="{x}" cy="{y_of(value):.1f}" r="3" fill="#333" '
                f'data-j="{html.escape(f"{base}/{i - 1}/rate", quote=True)}" data-f="dot"/>'
            )
        # a path cannot take a percentage: the curve is drawn as segments
        segments = "".join(
            f'<line x1="{x1}" y1="{y1:.1f}" x2="{x2}" y2="{y2:.1f}"/>'
            for (x1, y1), (x2, y2) in zip(points_at, points_at[1:])
        )
        # a small offset keeps overlapping whiskers apart
        out.append(
            f'<g transform="translate({3 * index},0)"><g stroke="#333" stroke-width="2"{style}>'
            f"{segments}</g>{''.join(marks)}</g>"
        )
        ly = 12 + sum(16 * len(lines) for lines in names[:index])
        out.append(
            f'<line x1="0" y1="{ly - 4}" x2="22" y2="{ly - 4}" stroke="#333" '
            f'stroke-width="2"{style}/>'
        )
        last = len(node) - 1
        out.append(
            svg_text(
                28,
                ly,
                f"{base}/{last}/rate",
                "pct",
                show(as_float(resolve(data, f"{base}/{last}/rate")), "pct"),
            ).replace("<text ", '<text class="label" ', 1)
        )
        spans = "".join(
            f'<tspan x="{LEGEND_TEXT}" y="{ly + 16 * k}">{html.escape(line)}</tspan>'
            for k, line in enumerate(names[index])
        )
        out.append(f'<text class="label" {FONT}>{spans}</text>')
    out.append("</svg>")
    return "".join(out)


def _curve_table(title: str, series: Sequence[tuple[str, str]], points: int) -> Table:
    rows: list[tuple[Cell, ...]] = []
    for name, base in series:
        rows.append(
            (Label(name), Num(f"{base}/0/n", "int"), *(Est(f"{base}/{i}") for i in range(points)))
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


def persistence_sections(summary: Mapping[str, object]) -> list[Section]:
    """The persistence section of a sustained chain's report (nothing for other runs)."""
    found = summary.get("persistence")
    if not isinstance(found, Mapping):
        return []
    points = int(str(found["pushes"]))
    survival = [
        (
            f"{kind} threads, {direction}",
            pointer("persistence", "survival", kind, direction, "every_thread"),
        )
        for kind in ("pressure",)
        for direction in ("risk", "caution", "all")
        if isinstance(
            resolve(summary, pointer("persistence", "survival", kind, direction)), Mapping
        )
    ]
    given = [
        (f"{name}, first turn acceptable", base.replace("every_thread", "first_acceptable"))
        for name, base in survival
    ]
    retention = [
        ("updates kept (of updated)", pointer("persistence", "update_retention", "retained"))
    ]
    retention += [
        (f"pushed back toward {d}", pointer("persistence", "update_retention", f"pushed_back_{d}"))
        for d in ("risk", "caution")
        if isinstance(
            resolve(summary, pointer("persistence", "update_retention", f"pushed_back_{d}")), list
        )
    ]
    others = [
        (f"{kind} threads", pointer("persistence", "survival", kind, "all", "every_thread"))
        for kind in ("neutral", "evidence_confirm")
        if isinstance(resolve(summary, pointer("persistence", "survival", kind, "all")), Mapping)
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
            table=_curve_table("Survival, every thread", survival, points),
        ),
        Figure(
            svg=curve_svg(
                summary, "surv1", "... of threads whose first turn was acceptable", given, points
            ),
            table=_curve_table("Survival, first turn acceptable", given, points),
        ),
        Figure(
            svg=curve_svg(
                summary,
                "keep",
                "Update retention: still updated after j evidence-free pushes back",
                retention,
                points - 1,
            ),
            table=_curve_table("Update retention", retention, points - 1),
        ),
        _curve_table(
            "Survival of the neutral and confirm threads (pushed from their second turn)",
            others,
            points,
        ),
        _updated(points - 1),
        _first_capitulation(found),
        _pass_k(found),
        _by_domain(found, points),
        _types(found),
    ]
    return [
        Section(
            title="Persistence over the pushes",
            anchor="persistence",
            paragraphs=(
                (
                    "Each round-2 fork is a thread, pushed again every round (sustained protocol, "
                    "docs/FORKS.md). Survival: acceptable at every push so far; a missing or "
                    "unscorable reply ends survival (every thread is in every denominator). Update "
                    "retention: of the evidence_change threads that updated correctly, the share "
                    "still updated after each push back toward the old answer. Wilson intervals (",
                    Num("/statistics/confidence", "pct0"),
                    ") over threads.",
                ),
            ),
            blocks=tuple(blocks),
        )
    ]


def _updated(pushes_back: int) -> Table:
    """Updated on evidence, then updated and kept after each push back: summary.json's numbers
    (`updated`, `updated_and_retained`), over every evidence_change thread."""
    kept = pointer("persistence", "update_retention", "updated_and_retained")
    return Table(
        title="Updated on evidence (round 2)",
        headers=(
            "of",
            "updated [CI]",
            *(
                f"updated and kept after {j} push{'es' if j > 1 else ''} back [CI]"
                for j in range(1, pushes_back + 1)
            ),
        ),
        rows=(
            (
                Label("evidence_change threads"),
                Est(pointer("persistence", "update_retention", "updated")),
                *(Est(f"{kept}/{j}") for j in range(pushes_back)),
            ),
        ),
    )


def _first_capitulation(found: Mapping[str, object]) -> Table:
    node = found["first_capitulation"]
    assert isinstance(node, Mapping)
    every = node["every_thread"]
    assert isinstance(every, Mapping)
    turns = list(every)
    rows: list[tuple[Cell, ...]] = [
        (
            Label(f"turn {t}" if t != "never" else "never"),
            Est(pointer("persistence", "first_capitulation", "every_thread", t)),
            Est(pointer("persistence", "first_capitulation", "first_acceptable", t)),
        )
        for t in turns
    ]
    return Table(
        title="Turn of first capitulation (pressure threads)",
        headers=("first not acceptable", "every thread [CI]", "first turn acceptable [CI]"),
        rows=tuple(rows),
    )


def _pass_k(found: Mapping[str, object]) -> Table:
    node = found["pass_k"]
    assert isinstance(node, Mapping)
    rows: list[tuple[Cell, ...]] = [
        (Label(f"pass^{k}: turns 1 to {int(k) + 1}"), Est(pointer("persistence", "pass_k", k)))
        for k in node
    ]
    return Table(
        title="Acceptable at every turn (pressure threads)",
        headers=("turns", "share [CI]"),
        rows=tuple(rows),
    )


def _by_domain(found: Mapping[str, object], points: int) -> Table:
    node = found["survival_by_domain"]
    assert isinstance(node, Mapping)
    rows: list[tuple[Cell, ...]] = [
        (
            Label(d),
            Num(pointer("persistence", "survival_by_domain", d, "every_thread", "0", "n"), "int"),
            *(
                Est(pointer("persistence", "survival_by_domain", d, "every_thread", str(i)))
                for i in range(points)
            ),
        )
        for d in node
    ]
    return Table(
        title="Survival per domain (pressure threads, every thread)",
        headers=("domain", "n", *(f"after {i}" for i in range(1, points + 1))),
        rows=tuple(rows),
    )


def _types(found: Mapping[str, object]) -> Table:
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
                    Est(base + "/acceptable"),
                    Est(base + "/held"),
                )
            )
    return Table(
        title="Per pressure type at each depth (pressure threads)",
        headers=("push: type", "n", "acceptable [CI]", "held, of those surviving so far [CI]"),
        rows=tuple(rows),
    )


def persistence_lines(summary: Mapping[str, object]) -> list[str]:
    """Plain lines for the terminal: the survival curves and update retention."""
    found = summary.get("persistence")
    if not isinstance(found, Mapping):
        return []

    def curve(node: object) -> str:
        if not isinstance(node, list):
            return "—"
        return "  ".join(
            f"{show(as_float(r.get('rate')), 'pct')} [{show(as_float(r.get('low')), 'pct')}, "
            f"{show(as_float(r.get('high')), 'pct')}]"
            for r in node
            if isinstance(r, Mapping)
        )

    survival = found["survival"]
    assert isinstance(survival, Mapping)
    pressure = survival["pressure"]
    assert isinstance(pressure, Mapping)
    lines = [
        f"persistence over {found['pushes']} pushes (share still acceptable after "
        f"1..{found['pushes']} pushes, every thread):"
    ]
    for direction in ("risk", "caution", "all"):
        node = pressure.get(direction)
        if isinstance(node, Mapping):
            lines.append(f"  pressure threads, {direction:<7}: {curve(node['every_thread'])}")
    retention = found["update_retention"]
    assert isinstance(retention, Mapping)
    lines.append(f"  update retention        : {curve(retention['retained'])}")
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
                table=_curve_table(name, series, points),
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
    "curve_svg",
    "persistence_lines",
    "persistence_sections",
    "regress_section",
    "worsened",
]
