"""Inline SVG charts: rates with interval whiskers, dots with intervals, and heat maps.

Readable without colour: acceptable bars are solid, forbidden bars hatched (colour and pattern
both, so a grey print still tells them apart), every bar carries its number as text, and a
heat-map cell prints its count. Every value label is tagged with its JSON pointer like any number
in the report, and every bar and cell links to the items behind it.

Fluid, not scaled: a chart has no viewBox. Its x positions are percentages of its width and its y
positions pixels, so it is as wide as the page at any width, from a 360 px phone to a desktop,
and its text is always 12 px (a chart scaled down to a phone would shrink its text, and one kept
from shrinking would scroll). It is laid out for the narrowest page, NARROW px: each row's label
sits on a line of its own above its bars, wrapped to that width, and a heat map's column label
that would touch the one before it moves up a line (Grid). The title is HTML above the chart, so
it wraps as text does.
"""

from __future__ import annotations

import html
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Final, Literal

from .report import is_number, num_html, resolve, show

Style = Literal["solid", "hatch", "outline"]

NARROW: Final = 340
"""The narrowest width (CSS px) a chart is laid out for: the page of a 360 px phone. A chart is
never drawn narrower (below it, it scrolls in its own box)."""
PLOT_SHARE: Final = 0.85
"""Share of a bar chart's width that is the 0-100 % scale; the rest holds the values (51 px at
NARROW, wider than "100.0%")."""
BAR_H: Final = 13
LINE_H: Final = 14
"""A label line's height."""
FONT_PX: Final = 12
FONT: Final = f'font-family="system-ui,sans-serif" font-size="{FONT_PX}"'
LABEL_MAX: Final = NARROW - 8
"""Widest label line; a longer label wraps."""
CELL_H: Final = 34
MIN_CELL: Final = 44
"""A heat-map cell is never narrower than this at NARROW (it prints "100.0%")."""
INK: Final = {"solid": "#1f4e9c", "hatch": "#b3261e", "outline": "#333"}
"""Blue for acceptable, red for forbidden; the hatch, not the colour, is what a grey print keeps."""


def text_width(text: str) -> float:
    """A generous estimate of `text`'s width at 12 px in a sans-serif system font: wide letters
    (capitals, m, w) count more, narrow ones (i, l, punctuation) less, so no label is clipped."""
    wide, narrow = set("MWmw@%"), set("il.,:;'|!()[] ")
    return sum(9.5 if c in wide or c.isupper() else 4.0 if c in narrow else 7.0 for c in text)


def wrap(text: str, width: float) -> list[str]:
    """`text` in lines no wider than `width` (by `text_width`), breaking at spaces."""
    lines: list[str] = []
    for word in text.split(" "):
        if lines and text_width(lines[-1] + " " + word) <= width:
            lines[-1] += " " + word
        else:
            lines.append(word)
    return lines or [""]


def pct(share: float) -> str:
    """An x position or width as a percentage of the chart's width (0.5 -> "50.00%")."""
    return f"{100 * share:.2f}%"


def svg_open(height: float, title: str, *, least: float = NARROW, most: float | None = None) -> str:
    """A chart's title (HTML, which wraps) and its root: as wide as its box, at least `least` px
    (at most `most` px, for a chart that would only get emptier), `height` px tall."""
    widest = f";max-width:{most:.0f}px" if most is not None else ""
    return (
        f'<p class="chart-title">{html.escape(title)}</p>'
        f'<svg xmlns="http://www.w3.org/2000/svg" class="chart" width="100%" '
        f'height="{height:.0f}" style="min-width:{least:.0f}px{widest}" role="img" '
        f'aria-label="{html.escape(title, quote=True)}">'
    )


@dataclass(frozen=True, slots=True)
class Series:
    name: str
    style: Style


@dataclass(frozen=True, slots=True)
class BarRow:
    """One labelled row: per series, a pointer to an estimate (value or rate, low, high) or None;
    `marker` points at a plain number drawn as a diamond (a planted rate)."""

    label: str
    link: str | None
    bases: tuple[str | None, ...]
    marker: str | None = None


def _fill(style: Style, uid: str) -> str:
    if style == "solid":
        return f'fill="{INK["solid"]}"'
    if style == "hatch":
        return f'fill="url(#{uid}-hatch)" stroke="{INK["hatch"]}" stroke-width="1"'
    return 'fill="#fff" stroke="#333" stroke-width="1"'


def _defs(uid: str) -> str:
    """The hatch of forbidden bars, and the diamond of planted rates: a path cannot take a
    percentage, so the diamond is drawn once here and placed by <use x="..%">."""
    return (
        f'<defs><pattern id="{uid}-hatch" width="6" height="6" patternUnits="userSpaceOnUse" '
        'patternTransform="rotate(45)"><rect width="6" height="6" fill="#fff"/><line x1="0" y1="0" '
        f'x2="0" y2="6" stroke="{INK["hatch"]}" stroke-width="2.5"/></pattern>'
        f'<path id="{uid}-diamond" d="M0 -6 l6 6 l-6 6 l-6 -6 z" fill="#fff" stroke="#000" '
        'stroke-width="1.5"/></defs>'
    )


def svg_text(
    x: float | str,
    y: float,
    ptr: str,
    fmt: str,
    value: str,
    anchor: str = "start",
    fill: str = "#111",
    *,
    label: bool = False,
    dx: int = 0,
) -> str:
    """An SVG <text> carrying the same data-j/data-f tagging as the tables' numbers (num_html);
    `x` in user units, or as a percentage of the chart's width (`pct`). `label`: of class
    "label" (a white halo keeps it readable over lines); `dx`: shifted that many px."""
    inner = num_html(ptr, fmt, value)[
        len("<span ") : -len("</span>")
    ]  # reuse the tagging: data-j=".." data-f="..">text
    attrs, _, text = inner.partition(">")
    at = x if isinstance(x, str) else f"{x:.1f}"
    cls = ('class="label" ' if label else "") + (f'dx="{dx}" ' if dx else "")
    return (
        f'<text {cls}x="{at}" y="{y:.1f}" text-anchor="{anchor}" fill="{fill}" {FONT} '
        f"{attrs}>{text}</text>"
    )


def fit(text: str, width: float) -> list[str]:
    """`text` in lines no wider than `width`: wrapped at spaces, and a word wider than the line
    (a model name like "org/model-name-v2-instruct") broken between characters."""
    lines: list[str] = []
    for line in wrap(text, width):
        while text_width(line) > width and len(line) > 1:
            cut = max((n for n in range(1, len(line)) if text_width(line[:n]) <= width), default=1)
            lines.append(line[:cut])
            line = line[cut:]
        lines.append(line)
    return lines


def label_lines(label: str) -> list[str]:
    """A row label's lines: one, or as many as it takes to stay within LABEL_MAX."""
    return fit(label, LABEL_MAX)


def _row_label(y: float, lines: Sequence[str]) -> str:
    """A row's label, left-aligned on lines of its own, the first line's baseline at `y`."""
    spans = "".join(
        f'<tspan x="0" y="{y + LINE_H * i:.1f}">{html.escape(line)}</tspan>'
        for i, line in enumerate(lines)
    )
    return f'<text class="label" {FONT}>{spans}</text>'


def _value_of(node: object) -> tuple[str, float | None, float | None, float | None]:
    assert isinstance(node, Mapping)
    key = "value" if "value" in node else "rate"
    v, lo, hi = node.get(key), node.get("low"), node.get("high")
    return key, as_float(v), as_float(lo), as_float(hi)


def as_float(x: object) -> float | None:
    """A JSON number as a float; anything else (null, a string, a bool) as None."""
    return float(x) if isinstance(x, (int, float)) and is_number(x) else None


def _interval(low: str, high: str, mid: float, width: float) -> str:
    """A whisker from `low` to `high` (percentages) at height `mid`, with end caps."""
    return (
        f'<g stroke="#000" stroke-width="{width:g}"><line x1="{low}" y1="{mid:.1f}" x2="{high}" '
        f'y2="{mid:.1f}"/><line x1="{low}" y1="{mid - 4:.1f}" x2="{low}" y2="{mid + 4:.1f}"/>'
        f'<line x1="{high}" y1="{mid - 4:.1f}" x2="{high}" y2="{mid + 4:.1f}"/></g>'
    )


def _legend(
    series: Sequence[Series], uid: str, extra: Sequence[tuple[str, str]] = ()
) -> tuple[list[str], float]:
    """The legend's marks and its height: its entries left to right, onto a new line where the
    next would pass NARROW. `extra`: (a shape with {x} and {y} for its place, its name)."""
    out: list[str] = []
    lx, top = 0.0, 12
    entries: list[tuple[str, float, Series | str]] = [
        (s.name, 30 + text_width(s.name), s) for s in series
    ]
    entries += [(name, 30 + text_width(name), shape) for shape, name in extra]
    for name, width, mark in entries:
        if lx and lx + width - 12 > NARROW:
            lx, top = 0.0, top + 18
        if isinstance(mark, Series):
            out.append(
                f'<rect x="{lx:.1f}" y="{top - 8}" width="14" height="10" '
                f"{_fill(mark.style, uid)}/>"
            )
            text_x = lx + 18
        else:
            out.append(mark.replace("{x}", f"{lx + 6:.1f}").replace("{y}", str(top - 9)))
            text_x = lx + 16
        out.append(
            f'<text class="label" x="{text_x:.1f}" y="{top + 1}" {FONT}>{html.escape(name)}</text>'
        )
        lx += width
    return out, top + 6


def bars(
    data: object,
    uid: str,
    title: str,
    series: Sequence[Series],
    rows: Sequence[BarRow],
    *,
    bar: tuple[str, str] | None = None,
) -> str:
    """Horizontal bars on a 0-100 % scale, one bar per series in each row under the row's label,
    whiskers at the 95 % interval; the number at the right is the value (tagged), "—" where there
    is none. `bar`: (pointer to a rate, its name) drawn as a dashed vertical line (the kit's pass
    bar)."""
    lines = [label_lines(r.label) for r in rows]
    marker = '<path d="M{x} {y} l5 5 l-5 5 l-5 -5 z" fill="#fff" stroke="#000" stroke-width="1.5"/>'
    legend, legend_h = _legend(
        series, uid, [(marker, "planted")] if any(r.marker for r in rows) else []
    )
    heights = [LINE_H * len(ls) + 3 + len(series) * (BAR_H + 3) + 7 for ls in lines]
    plot_top = legend_h + (18 if bar is not None else 6)
    plot_bottom = plot_top + sum(heights)
    out = [svg_open(plot_bottom + 20, title), _defs(uid), *legend]
    for tick in (0, 25, 50, 75, 100):
        x = pct(PLOT_SHARE * tick / 100)
        out.append(
            f'<line x1="{x}" y1="{plot_top - 4}" x2="{x}" y2="{plot_bottom}" stroke="#ccc" '
            'stroke-width="1"/>'
        )
        out.append(
            f'<text x="{x}" y="{plot_bottom + 14}" '
            f'text-anchor="{"start" if tick == 0 else "middle"}" {FONT} '
            f'data-scale="1">{tick}%</text>'
        )
    if bar is not None:
        value = resolve(data, bar[0])
        if is_number(value):
            assert isinstance(value, (int, float))
            x = pct(PLOT_SHARE * value)
            out.append(
                f'<line x1="{x}" y1="{plot_top - 6}" x2="{x}" y2="{plot_bottom}" '
                'stroke="#000" stroke-width="1.5" stroke-dasharray="5 3"/>'
            )
            out.append(
                svg_text(x, plot_top - 8, bar[0], "pct0", show(value, "pct0"), label=True, dx=3)
            )
            out.append(
                f'<text class="label" x="{x}" dx="-3" y="{plot_top - 8}" text-anchor="end" '
                f"{FONT}>{html.escape(bar[1])}</text>"
            )
    y = float(plot_top)
    for index, row in enumerate(rows):
        group = [_row_label(y + 11, lines[index])]
        bars_top = y + LINE_H * len(lines[index]) + 3
        for s_index, (s, base) in enumerate(zip(series, row.bases)):
            by = bars_top + s_index * (BAR_H + 3)
            if base is None:
                continue
            key, value, low, high = _value_of(resolve(data, base))
            if value is not None:
                group.append(
                    f'<rect x="0" y="{by:.1f}" width="{pct(PLOT_SHARE * value)}" '
                    f'height="{BAR_H}" {_fill(s.style, uid)} data-plot="{100 * PLOT_SHARE:g}" '
                    f'data-j="{html.escape(base + "/" + key, quote=True)}" '
                    f'data-f="bar"><title>{html.escape(row.label)}, '
                    f"{html.escape(s.name)}</title></rect>"
                )
            if value is not None and low is not None and high is not None:
                # no estimate (no item in the category): no whisker, where 0-100 % would be drawn
                group.append(
                    _interval(pct(PLOT_SHARE * low), pct(PLOT_SHARE * high), by + BAR_H / 2, 1.5)
                )
            group.append(
                svg_text(
                    pct(PLOT_SHARE),
                    by + BAR_H - 2,
                    f"{base}/{key}",
                    "pct",
                    show(value, "pct"),
                    label=True,
                    dx=6,
                )
            )
        if row.marker is not None:
            planted = resolve(data, row.marker)
            if is_number(planted):
                assert isinstance(planted, (int, float))
                group.append(
                    f'<use href="#{uid}-diamond" x="{pct(PLOT_SHARE * planted)}" '
                    f'y="{bars_top + BAR_H / 2:.1f}"/>'
                )
        body = "".join(group)
        out.append(
            f'<a href="{html.escape(row.link, quote=True)}">{body}</a>'
            if row.link
            else f"<g>{body}</g>"
        )
        y += heights[index]
    out.append("</svg>")
    return "".join(out)


@dataclass(frozen=True, slots=True)
class DotRow:
    """One row of a dot-and-interval chart: a pointer to an estimate (value, low, high)."""

    label: str
    base: str | None
    link: str | None = None


def dots(
    data: object,
    title: str,
    rows: Sequence[DotRow],
    *,
    fmt: Literal["pct", "pp"] = "pct",
    span: tuple[float, float] = (0.0, 1.0),
) -> str:
    """A dot at each estimate with its 95 % interval as a line, under the row's label: rates on
    0-100 %, or changes in percentage points on `span` with a line at zero."""
    lines = [label_lines(r.label) for r in rows]
    values = [_value_of(resolve(data, r.base)) if r.base is not None else None for r in rows]
    widest = max((text_width(show(v[1], fmt)) for v in values if v is not None), default=0.0)
    share = 1 - (max(widest, text_width("100.0%")) + 10) / NARROW
    lo_s, hi_s = span
    heights = [LINE_H * len(ls) + 22 for ls in lines]
    top = 6
    bottom = top + sum(heights)

    def x_of(v: float) -> str:
        return pct(share * (min(max(v, lo_s), hi_s) - lo_s) / (hi_s - lo_s))

    out = [svg_open(bottom + 20, title)]
    steps = 4
    for i in range(steps + 1):
        v = lo_s + (hi_s - lo_s) * i / steps
        x = x_of(v)
        out.append(
            f'<line x1="{x}" y1="{top}" x2="{x}" y2="{bottom}" '
            f'stroke="{"#000" if fmt == "pp" and abs(v) < 1e-9 else "#ccc"}" stroke-width="1"/>'
        )
        tick = f"{100 * v:+.0f}" if fmt == "pp" else f"{100 * v:.0f}%"
        out.append(
            f'<text x="{x}" y="{bottom + 14}" text-anchor="{"start" if i == 0 else "middle"}" '
            f'{FONT} data-scale="1">{tick}</text>'
        )
    y = float(top)
    for index, row in enumerate(rows):
        group = [_row_label(y + 11, lines[index])]
        mid = y + LINE_H * len(lines[index]) + 9
        found = values[index]
        if row.base is not None and found is not None:
            key, value, low, high = found
            if value is not None and low is not None and high is not None:
                group.append(
                    f'<line x1="{x_of(low)}" y1="{mid:.1f}" x2="{x_of(high)}" y2="{mid:.1f}" '
                    'stroke="#000" stroke-width="2"/>'
                )
            if value is not None:
                group.append(
                    f'<circle cx="{x_of(value)}" cy="{mid:.1f}" r="5" fill="{INK["solid"]}" '
                    'stroke="#000"/>'
                )
            group.append(
                svg_text(
                    pct(share),
                    mid + 4,
                    f"{row.base}/{key}",
                    fmt,
                    show(value, fmt),
                    label=True,
                    dx=8,
                )
            )
        body = "".join(group)
        out.append(
            f'<a href="{html.escape(row.link, quote=True)}">{body}</a>'
            if row.link
            else f"<g>{body}</g>"
        )
        y += heights[index]
    out.append("</svg>")
    return "".join(out)


def heatmap(
    data: object,
    uid: str,
    title: str,
    base: str,
    categories: Sequence[str],
    link_of: Mapping[tuple[str, str], str],
    *,
    columns: Sequence[str] | None = None,
    fmt: Literal["int", "pct"] = "int",
    axis_note: str = "second decision →",
    row_labels: Sequence[str] | None = None,
    column_labels: Sequence[str] | None = None,
    transpose: bool = False,
) -> str:
    """Rows (the first decision), columns (the second; or `columns`). Darker is more; the count
    (or rate) is printed in each cell. `base`/row/column points at a number, or at a rate or an
    estimate whose value is drawn; a cell with nothing there shows "—". `transpose` draws the
    columns as rows (a long list of columns fits a phone as rows); `axis_note` names what is then
    across."""
    del uid
    cols = list(columns if columns is not None else categories)
    rows_shown = list(
        row_labels if row_labels is not None else (a.replace("_", " ") for a in categories)
    )
    cols_shown = list(
        column_labels if column_labels is not None else (b.replace("_", " ") for b in cols)
    )
    values: dict[tuple[str, str], tuple[str, float]] = {}
    for a in categories:
        for b in cols:
            ptr = f"{base}/{a}/{b}"
            try:
                v = resolve(data, ptr)
            except KeyError:
                continue
            if isinstance(v, Mapping):
                key = "rate" if "rate" in v else "value"
                ptr, v = f"{ptr}/{key}", v.get(key)
            if is_number(v):
                assert isinstance(v, (int, float))
                values[(a, b)] = (ptr, float(v))
    most = (max((v for _, v in values.values()), default=0) or 1) if fmt == "int" else 1.0
    row_keys, col_keys = (cols, list(categories)) if transpose else (list(categories), cols)
    if transpose:
        rows_shown, cols_shown = cols_shown, rows_shown

    def at(row: str, col: str) -> tuple[str, str]:
        return (col, row) if transpose else (row, col)

    grid = Grid.of(rows_shown, cols_shown)
    out = [
        svg_open(grid.height(len(row_keys)), title, least=grid.width, most=grid.most),
        f'<text class="label" x="{grid.x(grid.left)}" y="12" {FONT}>'
        f"{html.escape(axis_note)}</text>",
    ]
    for j, b in enumerate(cols_shown):
        out.append(
            f'<text class="label" x="{grid.x(grid.centres[j])}" y="{grid.label_y(j)}" '
            f'text-anchor="middle" {FONT}>{html.escape(b)}</text>'
        )
    for i, a in enumerate(row_keys):
        y = grid.top + CELL_H * i
        out.append(
            f'<text class="label" x="{grid.x(grid.left - 6)}" y="{y + CELL_H / 2 + 4:.1f}" '
            f'text-anchor="end" {FONT}>{html.escape(rows_shown[i])}</text>'
        )
        for j, b in enumerate(col_keys):
            left = grid.left + grid.cell * j
            middle, text_y = grid.x(left + grid.cell / 2 - 1), y + CELL_H / 2 + 4
            found = values.get(at(a, b))
            shade = round(255 - 215 * (found[1] if found else 0) / most)
            ink = "#fff" if shade < 130 else "#111"
            rect = (
                f'<rect x="{grid.x(left)}" y="{y}" width="{grid.x(grid.cell - 2)}" '
                f'height="{CELL_H - 2}" fill="rgb({shade},{shade},{shade})" stroke="#999"/>'
            )
            if found is None:
                out.append(
                    rect
                    + f'<text x="{middle}" y="{text_y:.1f}" text-anchor="middle" {FONT}>—</text>'
                )
                continue
            ptr, value = found
            label = svg_text(
                middle,
                text_y,
                ptr,
                fmt,
                show(value if fmt == "pct" else int(value), fmt),
                "middle",
                ink,
            )
            link = link_of.get(at(a, b))
            out.append(
                f'<a href="{html.escape(link, quote=True)}">{rect}{label}</a>'
                if link and value
                else rect + label
            )
    out.append("</svg>")
    return "".join(out)


@dataclass(frozen=True, slots=True)
class Grid:
    """A heat map's layout, in px at its narrowest width `width`; drawn as percentages of it, so
    wider it stretches while its text keeps its size, and nothing that fits at `width` overlaps
    or passes an edge at any width above it."""

    width: float
    left: float
    """The row labels' column."""
    cell: float
    centres: tuple[float, ...]
    """Each column label's centre: its column's, moved in where it would pass an edge."""
    lines: tuple[int, ...]
    """Each column label's line, 0 the one nearest the cells: a label that would touch the one
    before it on a line goes to the next line (a narrow column under a long label)."""
    most: float
    """Widest drawn: cells about as wide as their labels, and a little more."""

    @staticmethod
    def of(rows: Sequence[str], cols: Sequence[str]) -> Grid:
        left = max((text_width(a) for a in rows), default=0) + 14
        widths = [text_width(c) for c in cols]
        count = max(len(cols), 1)
        width = max(NARROW, left + MIN_CELL * count + 10, max(widths, default=0) + 4)
        cell = (width - left - 10) / count
        centres = [
            min(max(left + cell * (j + 0.5), w / 2 + 1), width - 2 - w / 2)
            for j, w in enumerate(widths)
        ]
        ends: list[float] = []  # the right edge of the last label on each line
        lines: list[int] = []
        for centre, w in zip(centres, widths):
            line = next((k for k, end in enumerate(ends) if end + 4 <= centre - w / 2), len(ends))
            if line == len(ends):
                ends.append(0.0)
            ends[line] = centre + w / 2
            lines.append(line)
        most = (left + max(64.0, max(widths, default=0) + 12) * len(cols) + 10) * 1.2
        return Grid(width, left, cell, tuple(centres), tuple(lines), max(most, width))

    @property
    def top(self) -> float:
        return 20 + LINE_H * (max(self.lines, default=0) + 1) + 4

    def height(self, rows: int) -> float:
        return self.top + CELL_H * rows + 6

    def x(self, px: float) -> str:
        return pct(px / self.width)

    def label_y(self, j: int) -> float:
        return self.top - 6 - LINE_H * self.lines[j]
