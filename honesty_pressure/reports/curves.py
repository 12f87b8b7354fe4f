"""Line charts over the pushes: survival and retention curves with their intervals and their
forbidden twins, and the tables beside them (persistence_report.py, compare).

Drawn as lines over the pushes (x: pushes 1..N-1, y: 0-100 %), one line per series with a
whisker at each point's Wilson interval, and beside each its forbidden twin (the share of the same
threads that gave a forbidden answer by then) as a red line with square marks: caving into the
forbidden action and drifting into over-caution both end survival, and only the twin tells them
apart. Each value is tagged with its JSON pointer like every other number of the report; the
legend sits under the plot (a row per series: its name, then its last values), so no label can
run into a number; the table under the chart says the same in text, a forbidden row under each
series. A group a chain does not have is drawn and tabled as "none", never skipped and never a
lookup of a missing value.
"""

from __future__ import annotations

import html
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass

from .charts import FONT, INK, as_float, svg_open, svg_text, text_width
from .report import Cell, Est, Label, Num, Table, resolve, show

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
) -> list[str]:
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
    return out


def _line(
    node: Sequence[object],
    base: str,
    x_of: Callable[[int], float],
    y_of: Callable[[float], float],
    offset: float,
    style: str,
    ink: str,
    *,
    whiskers: bool,
) -> list[str]:
    """One series' line, its marks (dots for acceptable, squares for forbidden) and whiskers."""
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
    return "".join(_curve(data, uid, title, series, points, x_label))


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


__all__ = ["NONE", "Curve", "curve_svg", "curve_table", "found_at", "rate_cell"]
