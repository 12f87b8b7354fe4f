"""Inline SVG charts: rates with interval whiskers, dots with intervals, and heat maps.

Readable without colour: acceptable bars are solid, forbidden bars hatched (colour and pattern
both, so a grey print still tells them apart), every bar carries its number as text, and a
heat-map cell prints its count. Every value label is tagged with its JSON pointer like any number
in the report, and every bar and cell links to the items behind it.

Labels are never clipped: their width is measured (a generous per-character estimate of the
12 px system font) and the label column is made as wide as the longest one; a label longer than
LABEL_MAX wraps onto a second line. A chart is as wide as the page (`width: 100%`) and never
narrower than its text stays readable at (11 px and up): on a phone it scrolls in its own box.
"""

from __future__ import annotations

import html
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Final, Literal

from .report import is_number, num_html, resolve, show

Style = Literal["solid", "hatch", "outline"]

PLOT_W: Final = 720
VALUE_W: Final = 64
BAR_H: Final = 13
FONT_PX: Final = 12
MIN_FONT_PX: Final = 11.5
"""A chart is never drawn narrower than makes its 12-unit text this many CSS pixels."""
FONT: Final = f'font-family="system-ui,sans-serif" font-size="{FONT_PX}"'
LABEL_MAX: Final = 300
"""Widest label column; a longer label wraps onto a second line."""
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


def svg_open(width: float, height: float, title: str, *, grow: float | None = None) -> str:
    """A chart's root: as wide as its box (at most `grow` times its drawn width, for a chart that
    would only get taller), never narrower than keeps its text readable."""
    least = round(width * MIN_FONT_PX / FONT_PX)
    most = f";max-width:{round(width * grow)}px" if grow is not None else ""
    return (
        f'<svg xmlns="http://www.w3.org/2000/svg" class="chart" viewBox="0 0 {width:.0f} '
        f'{height:.0f}" style="min-width:{least}px{most}" role="img" '
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
    return (
        f'<defs><pattern id="{uid}-hatch" width="6" height="6" patternUnits="userSpaceOnUse" '
        'patternTransform="rotate(45)"><rect width="6" height="6" fill="#fff"/><line x1="0" y1="0" '
        f'x2="0" y2="6" stroke="{INK["hatch"]}" stroke-width="2.5"/></pattern></defs>'
    )


def svg_text(
    x: float, y: float, ptr: str, fmt: str, value: str, anchor: str = "start", fill: str = "#111"
) -> str:
    """An SVG <text> carrying the same data-j/data-f tagging as the tables' numbers (num_html)."""
    inner = num_html(ptr, fmt, value)[
        len("<span ") : -len("</span>")
    ]  # reuse the tagging: data-j=".." data-f="..">text
    attrs, _, text = inner.partition(">")
    return (
        f'<text x="{x:.1f}" y="{y:.1f}" text-anchor="{anchor}" fill="{fill}" {FONT} '
        f"{attrs}>{text}</text>"
    )


def _label(x: float, y_mid: float, lines: Sequence[str]) -> str:
    """A right-aligned label of one or two lines centred on `y_mid`."""
    first = y_mid + 4 - 7 * (len(lines) - 1)
    spans = "".join(
        f'<tspan x="{x:.1f}" y="{first + 14 * i:.1f}">{html.escape(line)}</tspan>'
        for i, line in enumerate(lines)
    )
    return f'<text class="label" text-anchor="end" {FONT}>{spans}</text>'


def _value_of(node: object) -> tuple[str, float | None, float | None, float | None]:
    assert isinstance(node, Mapping)
    key = "value" if "value" in node else "rate"
    v, lo, hi = node.get(key), node.get("low"), node.get("high")
    return key, as_float(v), as_float(lo), as_float(hi)


def as_float(x: object) -> float | None:
    """A JSON number as a float; anything else (null, a string, a bool) as None."""
    return float(x) if isinstance(x, (int, float)) and is_number(x) else None


def label_column(labels: Sequence[str]) -> tuple[float, list[list[str]]]:
    """The label column's width and each label's lines."""
    widest = max((text_width(label) for label in labels), default=0.0)
    width = min(widest, LABEL_MAX) + 12
    return width, [
        wrap(label, LABEL_MAX) if text_width(label) > LABEL_MAX else [label] for label in labels
    ]


def _legend(
    out: list[str],
    series: Sequence[Series],
    uid: str,
    top: int,
    extra: Sequence[tuple[str, str]] = (),
) -> None:
    lx = 0.0
    for s in series:
        out.append(
            f'<rect x="{lx:.1f}" y="{top - 8}" width="14" height="10" {_fill(s.style, uid)}/>'
        )
        out.append(
            f'<text class="label" x="{lx + 18:.1f}" y="{top + 1}" '
            f"{FONT}>{html.escape(s.name)}</text>"
        )
        lx += 30 + text_width(s.name)
    for shape, name in extra:
        out.append(shape.replace("{x}", f"{lx + 6:.1f}").replace("{y}", str(top - 9)))
        out.append(
            f'<text class="label" x="{lx + 16:.1f}" y="{top + 1}" {FONT}>{html.escape(name)}</text>'
        )
        lx += 30 + text_width(name)


def bars(
    data: object,
    uid: str,
    title: str,
    series: Sequence[Series],
    rows: Sequence[BarRow],
    *,
    bar: tuple[str, str] | None = None,
) -> str:
    """Horizontal bars on a 0-100 % scale, one bar per series in each row, whiskers at the 95 %
    interval; the number at the bar's end is the value (tagged), "—" where there is none.
    `bar`: (pointer to a rate, its name) drawn as a dashed vertical line (the kit's pass bar)."""
    label_w, lines = label_column([r.label for r in rows])
    per_row = max(
        len(series) * (BAR_H + 3) + 10, max((len(ls) for ls in lines), default=1) * 14 + 8
    )
    top, legend_h = 34, 18
    height = top + legend_h + per_row * len(rows) + 22
    width = label_w + PLOT_W + VALUE_W
    x0 = label_w
    out = [
        svg_open(width, height, title),
        _defs(uid),
        f'<text class="label" x="0" y="16" {FONT} font-weight="600">{html.escape(title)}</text>',
    ]
    marker = '<path d="M{x} {y} l5 5 l-5 5 l-5 -5 z" fill="#fff" stroke="#000" stroke-width="1.5"/>'
    _legend(out, series, uid, top, [(marker, "planted")] if any(r.marker for r in rows) else [])
    plot_top = top + legend_h
    plot_bottom = plot_top + per_row * len(rows)
    for tick in (0, 25, 50, 75, 100):
        x = x0 + PLOT_W * tick / 100
        out.append(
            f'<line x1="{x:.1f}" y1="{plot_top - 4}" x2="{x:.1f}" y2="{plot_bottom}" stroke="#ccc" '
            'stroke-width="1"/>'
        )
        out.append(
            f'<text x="{x:.1f}" y="{plot_bottom + 14}" text-anchor="middle" {FONT} '
            f'data-scale="1">{tick}%</text>'
        )
    if bar is not None:
        value = resolve(data, bar[0])
        if is_number(value):
            assert isinstance(value, (int, float))
            x = x0 + PLOT_W * value
            out.append(
                f'<line x1="{x:.1f}" y1="{plot_top - 6}" x2="{x:.1f}" y2="{plot_bottom}" '
                'stroke="#000" stroke-width="1.5" stroke-dasharray="5 3"/>'
            )
            out.append(
                svg_text(x + 3, plot_top - 8, bar[0], "pct0", show(value, "pct0")).replace(
                    "<text ", '<text class="label" ', 1
                )
            )
            out.append(
                f'<text class="label" x="{x - 3:.1f}" y="{plot_top - 8}" text-anchor="end" '
                f"{FONT}>{html.escape(bar[1])}</text>"
            )
    for index, row in enumerate(rows):
        y = plot_top + index * per_row + 4
        group = [_label(label_w - 8, y + (per_row - 10) / 2, lines[index])]
        for s_index, (s, base) in enumerate(zip(series, row.bases)):
            by = y + s_index * (BAR_H + 3)
            if base is None:
                continue
            key, value, low, high = _value_of(resolve(data, base))
            if value is not None:
                group.append(
                    f'<rect x="{x0:.1f}" y="{by:.1f}" width="{PLOT_W * value:.1f}" '
                    f'height="{BAR_H}" {_fill(s.style, uid)} data-plot="{PLOT_W}" '
                    f'data-j="{html.escape(base + "/" + key, quote=True)}" '
                    f'data-f="bar"><title>{html.escape(row.label)}, '
                    f"{html.escape(s.name)}</title></rect>"
                )
            if value is not None and low is not None and high is not None:
                # no estimate (no item in the category): no whisker, where 0-100 % would be drawn
                mid = by + BAR_H / 2
                xl, xh = x0 + PLOT_W * low, x0 + PLOT_W * high
                group.append(
                    f'<path d="M{xl:.1f} {mid:.1f} H{xh:.1f} M{xl:.1f} {mid - 4:.1f} '
                    f'V{mid + 4:.1f} M{xh:.1f} {mid - 4:.1f} V{mid + 4:.1f}" stroke="#000" '
                    'stroke-width="1.5" fill="none"/>'
                )
            group.append(
                svg_text(
                    x0 + PLOT_W + 6, by + BAR_H - 2, f"{base}/{key}", "pct", show(value, "pct")
                ).replace("<text ", '<text class="label" ', 1)
            )
        if row.marker is not None:
            planted = resolve(data, row.marker)
            if is_number(planted):
                assert isinstance(planted, (int, float))
                mx, my = x0 + PLOT_W * planted, y + BAR_H / 2
                group.append(
                    f'<path d="M{mx:.1f} {my - 6:.1f} l6 6 l-6 6 l-6 -6 z" fill="#fff" '
                    'stroke="#000" stroke-width="1.5"/>'
                )
        body = "".join(group)
        out.append(
            f'<a href="{html.escape(row.link, quote=True)}">{body}</a>'
            if row.link
            else f"<g>{body}</g>"
        )
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
    """A dot at each estimate with its 95 % interval as a line: rates on 0-100 %, or changes in
    percentage points on `span` with a line at zero."""
    label_w, lines = label_column([r.label for r in rows])
    per_row = max(22, max((len(ls) for ls in lines), default=1) * 14 + 8)
    top = 30
    height = top + per_row * len(rows) + 24
    width = label_w + PLOT_W + VALUE_W + 40
    x0, lo_s, hi_s = label_w, span[0], span[1]

    def x_of(v: float) -> float:
        return x0 + PLOT_W * (min(max(v, lo_s), hi_s) - lo_s) / (hi_s - lo_s)

    out = [
        svg_open(width, height, title),
        f'<text class="label" x="0" y="16" {FONT} font-weight="600">{html.escape(title)}</text>',
    ]
    steps = 4
    for i in range(steps + 1):
        v = lo_s + (hi_s - lo_s) * i / steps
        x = x_of(v)
        out.append(
            f'<line x1="{x:.1f}" y1="{top - 4}" x2="{x:.1f}" y2="{top + per_row * len(rows)}" '
            f'stroke="{"#000" if fmt == "pp" and abs(v) < 1e-9 else "#ccc"}" stroke-width="1"/>'
        )
        tick = f"{100 * v:+.0f}" if fmt == "pp" else f"{100 * v:.0f}%"
        out.append(
            f'<text x="{x:.1f}" y="{top + per_row * len(rows) + 14}" text-anchor="middle" {FONT} '
            f'data-scale="1">{tick}</text>'
        )
    for index, row in enumerate(rows):
        y = top + index * per_row + per_row / 2
        group = [_label(label_w - 8, y - 4, lines[index])]
        if row.base is not None:
            key, value, low, high = _value_of(resolve(data, row.base))
            if value is not None and low is not None and high is not None:
                group.append(
                    f'<path d="M{x_of(low):.1f} {y:.1f} H{x_of(high):.1f}" stroke="#000" '
                    'stroke-width="2" fill="none"/>'
                )
            if value is not None:
                group.append(
                    f'<circle cx="{x_of(value):.1f}" cy="{y:.1f}" r="5" fill="{INK["solid"]}" '
                    'stroke="#000"/>'
                )
            group.append(
                svg_text(
                    x0 + PLOT_W + 8, y + 4, f"{row.base}/{key}", fmt, show(value, fmt)
                ).replace("<text ", '<text class="label" ', 1)
            )
        body = "".join(group)
        out.append(
            f'<a href="{html.escape(row.link, quote=True)}">{body}</a>'
            if row.link
            else f"<g>{body}</g>"
        )
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
) -> str:
    """Rows (the first decision), columns (the second; or `columns`). Darker is more; the count
    (or rate) is printed in each cell. `base`/row/column points at a number, or at a rate or an
    estimate whose value is drawn; a cell with nothing there shows "—"."""
    del uid
    cols = list(columns if columns is not None else categories)
    rows_shown = list(
        row_labels if row_labels is not None else (a.replace("_", " ") for a in categories)
    )
    cols_shown = list(
        column_labels if column_labels is not None else (b.replace("_", " ") for b in cols)
    )
    cell = max(64.0, max((text_width(c) for c in cols_shown), default=0) + 12)
    left = max((text_width(a) for a in rows_shown), default=0) + 14
    top = 60
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
    width, height = left + cell * len(cols) + 10, top + cell * len(categories) + 10
    out = [
        svg_open(width, height, title, grow=1.2),
        f'<text class="label" x="0" y="14" {FONT} font-weight="600">{html.escape(title)}</text>',
        f'<text class="label" x="{left:.1f}" y="30" {FONT}>{html.escape(axis_note)}</text>',
    ]
    for j, b in enumerate(cols_shown):
        out.append(
            f'<text class="label" x="{left + cell * j + cell / 2:.1f}" y="{top - 6}" '
            f'text-anchor="middle" {FONT}>{html.escape(b)}</text>'
        )
    for i, a in enumerate(categories):
        y = top + cell * i
        out.append(
            f'<text class="label" x="{left - 6:.1f}" y="{y + cell / 2 + 4:.1f}" text-anchor="end" '
            f"{FONT}>{html.escape(rows_shown[i])}</text>"
        )
        for j, b in enumerate(cols):
            x = left + cell * j
            found = values.get((a, b))
            shade = round(255 - 215 * (found[1] if found else 0) / most)
            ink = "#fff" if shade < 130 else "#111"
            rect = (
                f'<rect x="{x:.1f}" y="{y}" width="{cell - 2:.1f}" height="{cell - 2:.1f}" '
                f'fill="rgb({shade},{shade},{shade})" stroke="#999"/>'
            )
            if found is None:
                out.append(
                    rect + f'<text x="{x + cell / 2 - 1:.1f}" y="{y + cell / 2 + 4:.1f}" '
                    f'text-anchor="middle" {FONT}>—</text>'
                )
                continue
            ptr, value = found
            label = svg_text(
                x + cell / 2 - 1,
                y + cell / 2 + 4,
                ptr,
                fmt,
                show(value if fmt == "pct" else int(value), fmt),
                "middle",
                ink,
            )
            link = link_of.get((a, b))
            out.append(
                f'<a href="{html.escape(link, quote=True)}">{rect}{label}</a>'
                if link and value
                else rect + label
            )
    out.append("</svg>")
    return "".join(out)
