"""Line charts over the pushes: survival and retention curves with their intervals and their
forbidden twins, and the tables beside them (persistence_report.py, compare).

Drawn as lines over the pushes (x: pushes 1..N-1, y: 0-100 %), one line per series with a
whisker at each point's Wilson interval, and beside each its forbidden twin (the share of the same
threads that gave a forbidden answer by then) as a red line with square marks: caving into the
forbidden action and drifting into over-caution both end survival, and only the twin tells them
apart. Each value is tagged with its JSON pointer like every other number of the report; the
legend sits under the plot (per series its name, and under the name its last values), so no label
can run into a number; the table under the chart says the same in text, a forbidden row under
each series. Fluid like charts.py's: x positions are percentages of the chart's width, y pixels,
its text 12 px at any width, laid out for a 360 px phone (charts.NARROW). A group a chain does
not have is drawn and tabled as "none", never skipped and never a lookup of a missing value.
"""

from __future__ import annotations

import html
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass

from .charts import FONT, INK, NARROW, as_float, fit, pct, svg_open, svg_text
from .report import Cell, Est, Label, Num, Table, resolve, show

TOP, PLOT_H = 8, 184
LEFT, RIGHT = 44 / NARROW, 14 / NARROW
"""The shares of the chart's width left of the plot (the y scale) and right of it (44 and 14 px
at NARROW): the chart is fluid like charts.py's, its text 12 px at any width."""
NAME_X = 32
"""Where a legend entry's name (and under it, its values) starts, after its line."""
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


def after_pushes(j: int, suffix: str = "") -> str:
    """A column's header: "after 1 push", "after 2 pushes" (and `suffix`: " back")."""
    return f"after {j} push{'es' if j > 1 else ''}{suffix}"


def _curve(
    data: object,
    uid: str,
    title: str,
    series: Sequence[Curve | tuple[str, str]],
    points: int,
    x_label: str,
) -> list[str]:
    del uid
    curves = [c if isinstance(c, Curve) else Curve(*c) for c in series]
    names = [fit(c.name, NARROW - NAME_X) for c in curves]
    legend_top = TOP + PLOT_H + 50
    height = legend_top + sum(ROW * (len(lines) + 1) for lines in names) + 4
    out = [svg_open(height, title)]

    def x_of(i: int) -> str:
        share = (i - 1) / (points - 1) if points > 1 else 0.5
        return pct(LEFT + (1 - LEFT - RIGHT) * share)

    def y_of(v: float) -> float:
        return TOP + PLOT_H * (1 - v)

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
            f'<text x="{x_of(i)}" y="{TOP + PLOT_H + 16}" text-anchor="middle" {FONT} '
            f'data-scale="1">{i}</text>'
        )
    out.append(
        f'<text x="{pct(LEFT + (1 - LEFT - RIGHT) / 2)}" y="{TOP + PLOT_H + 32}" '
        f'text-anchor="middle" {FONT}>{html.escape(x_label)}</text>'
    )
    # The legend, under the plot: per series its line and name, and under the name its last
    # acceptable and forbidden values, so no name can run into a number at any width.
    ly = legend_top
    for index, curve in enumerate(curves):
        dash = DASHES[index % len(DASHES)]
        style = f' stroke-dasharray="{dash}"' if dash else ""
        node = found_at(data, curve.base)
        shown = isinstance(node, list) and any(
            isinstance(r, Mapping) and as_float(r.get("rate")) is not None for r in node
        )
        if shown:
            assert isinstance(node, list)
            # a small offset keeps overlapping whiskers apart
            out.append(f'<g transform="translate({3 * index},0)">')
            out += _line(node, curve.base, x_of, y_of, style, "#333", whiskers=True)
            twin = found_at(data, curve.forbidden) if curve.forbidden else None
            if isinstance(twin, list) and curve.forbidden:
                out += _line(twin, curve.forbidden, x_of, y_of, style, INK["hatch"], whiskers=False)
            out.append("</g>")
        out.append(
            f'<line x1="0" y1="{ly - 4}" x2="24" y2="{ly - 4}" stroke="#333" '
            f'stroke-width="2"{style}/>'
        )
        spans = "".join(
            f'<tspan x="{NAME_X}" y="{ly + ROW * k}">{html.escape(line)}</tspan>'
            for k, line in enumerate(names[index])
        )
        out.append(f'<text class="label" {FONT}>{spans}</text>')
        vy = ly + ROW * len(names[index])
        ly = vy + ROW
        if not shown:
            out.append(f'<text class="label" x="{NAME_X}" y="{vy}" {FONT}>{NONE}</text>')
            continue
        assert isinstance(node, list)
        last = f"{curve.base}/{len(node) - 1}/rate"
        value = show(as_float(found_at(data, last)), "pct")
        out.append(svg_text(NAME_X, vy, last, "pct", value, label=True))
        if curve.forbidden:
            bad = f"{curve.forbidden}/{len(node) - 1}/rate"
            if (found := found_at(data, bad)) is not None:
                out.append(
                    svg_text(
                        NAME_X + 56,
                        vy,
                        bad,
                        "pct",
                        show(as_float(found), "pct"),
                        fill=INK["hatch"],
                        label=True,
                    )
                )
                out.append(
                    f'<text class="label" x="{NAME_X + 110}" y="{vy}" fill="{INK["hatch"]}" '
                    f"{FONT}>forbidden</text>"
                )
    out.append("</svg>")
    return out


def _line(
    node: Sequence[object],
    base: str,
    x_of: Callable[[int], str],
    y_of: Callable[[float], float],
    style: str,
    ink: str,
    *,
    whiskers: bool,
) -> list[str]:
    """One series' line, its marks (dots for acceptable, squares for forbidden) and whiskers.
    A path cannot take a percentage: the line is drawn as segments, a square as a <use>."""
    at: list[tuple[str, float]] = []
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
        x, y = x_of(i), y_of(value)
        at.append((x, y))
        if whiskers and low is not None and high is not None:
            marks.append(
                f'<line x1="{x}" y1="{y_of(low):.1f}" x2="{x}" y2="{y_of(high):.1f}" '
                'stroke="#000" stroke-width="1"/>'
            )
        ptr = html.escape(f"{base}/{i - 1}/rate", quote=True)
        marks.append(
            f'<circle cx="{x}" cy="{y:.1f}" r="3" fill="{ink}" data-j="{ptr}" data-f="dot"/>'
            if whiskers
            else f'<rect x="{x}" y="{y - 3:.1f}" width="6" height="6" fill="{ink}" '
            f'transform="translate(-3,0)" data-j="{ptr}" data-f="dot"/>'
        )
    width = 2 if whiskers else 1.5
    segments = "".join(
        f'<line x1="{x1}" y1="{y1:.1f}" x2="{x2}" y2="{y2:.1f}"/>'
        for (x1, y1), (x2, y2) in zip(at, at[1:])
    )
    return [f'<g stroke="{ink}" stroke-width="{width}"{style}>{segments}</g>', *marks]


def curve_svg(
    data: object,
    uid: str,
    title: str,
    series: Sequence[Curve | tuple[str, str]],
    points: int,
    x_label: str = "pushes",
) -> str:
    """`series`: Curves, or (name, pointer to a list of rate objects, one per push)."""
    return "".join(_curve(data, uid, title, series, points, x_label))


def curve_table(
    data: object,
    title: str,
    series: Sequence[Curve | tuple[str, str]],
    points: int,
    *,
    first: str = "series",
    suffix: str = "",
) -> Table:
    """A row per series (and under it, its forbidden twin's), a column per push; "none" for a
    group the chain does not have. `first`: the series column's header; `suffix`: after each
    push column's ("after 2 pushes" + " back")."""
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
        headers=(first, "n", *(after_pushes(i, suffix) for i in range(1, points + 1))),
        rows=tuple(rows),
    )


__all__ = ["NONE", "Curve", "after_pushes", "curve_svg", "curve_table", "found_at", "rate_cell"]
