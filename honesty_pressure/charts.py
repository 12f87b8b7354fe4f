"""Inline SVG charts: rates with interval whiskers, and the decision transition heat map.

Readable without colour: acceptable bars are solid, forbidden bars hatched, every bar carries its
number as text, and a heat-map cell prints its count. Every value label is tagged with its JSON
pointer like any number in the report, and every bar and cell links to the transcripts behind it.
"""

from __future__ import annotations

import html
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Final, Literal

from .report import is_number, num_html, resolve, show

Style = Literal["solid", "hatch", "outline"]

LABEL_W: Final = 250
PLOT_W: Final = 330
VALUE_W: Final = 70
BAR_H: Final = 12
FONT: Final = 'font-family="system-ui,sans-serif" font-size="12"'


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
        return 'fill="#333"'
    if style == "hatch":
        return f'fill="url(#{uid}-hatch)" stroke="#333" stroke-width="1"'
    return 'fill="#fff" stroke="#333" stroke-width="1"'


def _defs(uid: str) -> str:
    return (
        f'<defs><pattern id="{uid}-hatch" width="6" height="6" patternUnits="userSpaceOnUse" patternTransform="rotate(45)">'
        '<rect width="6" height="6" fill="#fff"/><line x1="0" y1="0" x2="0" y2="6" stroke="#333" stroke-width="2.5"/></pattern></defs>'
    )


def _text(x: float, y: float, ptr: str, fmt: str, value: str, anchor: str = "start", fill: str = "#111") -> str:
    inner = num_html(ptr, fmt, value)[len("<span ") : -len("</span>")]  # reuse the tagging: data-j=".." data-f="..">text
    attrs, _, text = inner.partition(">")
    return f'<text x="{x:.1f}" y="{y:.1f}" text-anchor="{anchor}" fill="{fill}" {FONT} {attrs}>{text}</text>'


def _value_of(node: object) -> tuple[str, float | None, float | None, float | None]:
    assert isinstance(node, Mapping)
    key = "value" if "value" in node else "rate"
    v, lo, hi = node.get(key), node.get("low"), node.get("high")
    return key, _float(v), _float(lo), _float(hi)


def _float(x: object) -> float | None:
    return float(x) if isinstance(x, (int, float)) and is_number(x) else None


def bars(data: object, uid: str, title: str, series: Sequence[Series], rows: Sequence[BarRow]) -> str:
    """Horizontal bars on a 0-100 % scale, one bar per series in each row, whiskers at the 95 %
    interval; the number at the bar's end is the value (tagged), "—" where there is none."""
    per_row = len(series) * (BAR_H + 3) + 10
    top, legend_h = 34, 18
    height = top + legend_h + per_row * len(rows) + 22
    width = LABEL_W + PLOT_W + VALUE_W
    x0 = LABEL_W
    out = [
        f'<svg xmlns="http://www.w3.org/2000/svg" width="{width}" height="{height}" viewBox="0 0 {width} {height}" role="img" '
        f'aria-label="{html.escape(title, quote=True)}">',
        _defs(uid),
        f'<text x="0" y="16" {FONT} font-weight="600">{html.escape(title)}</text>',
    ]
    lx = 0.0
    for s in series:
        out.append(f'<rect x="{lx:.1f}" y="{top - 8}" width="14" height="10" {_fill(s.style, uid)}/>')
        out.append(f'<text x="{lx + 18:.1f}" y="{top + 1}" {FONT}>{html.escape(s.name)}</text>')
        lx += 30 + 7 * len(s.name)
    if any(r.marker for r in rows):
        out.append(f'<path d="M{lx + 6:.1f} {top - 9} l5 5 l-5 5 l-5 -5 z" fill="#fff" stroke="#000" stroke-width="1.5"/>')
        out.append(f'<text x="{lx + 16:.1f}" y="{top + 1}" {FONT}>planted</text>')
    plot_top = top + legend_h
    plot_bottom = plot_top + per_row * len(rows)
    for tick in (0, 25, 50, 75, 100):
        x = x0 + PLOT_W * tick / 100
        out.append(f'<line x1="{x:.1f}" y1="{plot_top - 4}" x2="{x:.1f}" y2="{plot_bottom}" stroke="#ccc" stroke-width="1"/>')
        out.append(f'<text x="{x:.1f}" y="{plot_bottom + 14}" text-anchor="middle" {FONT} data-scale="1">{tick}%</text>')
    for index, row in enumerate(rows):
        y = plot_top + index * per_row + 4
        group = [f'<text x="{LABEL_W - 8}" y="{y + per_row / 2:.1f}" text-anchor="end" {FONT}>{html.escape(row.label)}</text>']
        for s_index, (s, base) in enumerate(zip(series, row.bases)):
            by = y + s_index * (BAR_H + 3)
            if base is None:
                continue
            key, value, low, high = _value_of(resolve(data, base))
            if value is not None:
                group.append(
                    f'<rect x="{x0}" y="{by:.1f}" width="{PLOT_W * value:.1f}" height="{BAR_H}" {_fill(s.style, uid)} '
                    f'data-j="{html.escape(base + "/" + key, quote=True)}" data-f="bar"><title>{html.escape(row.label)}, {s.name}</title></rect>'
                )
            if low is not None and high is not None:
                mid = by + BAR_H / 2
                xl, xh = x0 + PLOT_W * low, x0 + PLOT_W * high
                group.append(
                    f'<path d="M{xl:.1f} {mid:.1f} H{xh:.1f} M{xl:.1f} {mid - 4:.1f} V{mid + 4:.1f} M{xh:.1f} {mid - 4:.1f} V{mid + 4:.1f}" '
                    'stroke="#000" stroke-width="1.5" fill="none"/>'
                )
            group.append(_text(x0 + PLOT_W + 6, by + BAR_H - 2, f"{base}/{key}", "pct", show(value, "pct")))
        if row.marker is not None:
            planted = resolve(data, row.marker)
            if is_number(planted):
                assert isinstance(planted, (int, float))
                mx, my = x0 + PLOT_W * planted, y + BAR_H / 2
                group.append(f'<path d="M{mx:.1f} {my - 6:.1f} l6 6 l-6 6 l-6 -6 z" fill="#fff" stroke="#000" stroke-width="1.5"/>')
        body = "".join(group)
        out.append(f'<a href="{html.escape(row.link, quote=True)}">{body}</a>' if row.link else f"<g>{body}</g>")
    out.append("</svg>")
    return "".join(out)


def heatmap(data: object, uid: str, title: str, base: str, categories: Sequence[str], link_of: Mapping[tuple[str, str], str]) -> str:
    """Rows: the first decision; columns: the second. Darker is more; the count is printed."""
    cell, left, top = 58, 96, 60
    table = resolve(data, base)
    assert isinstance(table, Mapping)
    counts = {(a, b): int(str(table[a][b])) for a in categories for b in categories if a in table and b in table[a]}
    most = max(counts.values(), default=0) or 1
    width, height = left + cell * len(categories) + 10, top + cell * len(categories) + 10
    out = [
        f'<svg xmlns="http://www.w3.org/2000/svg" width="{width}" height="{height}" viewBox="0 0 {width} {height}" role="img" '
        f'aria-label="{html.escape(title, quote=True)}">',
        f'<text x="0" y="14" {FONT} font-weight="600">{html.escape(title)}</text>',
        f'<text x="{left}" y="30" {FONT}>second decision →</text>',
    ]
    for j, b in enumerate(categories):
        out.append(f'<text x="{left + cell * j + cell / 2:.1f}" y="{top - 6}" text-anchor="middle" {FONT}>{html.escape(b.replace("_", " "))}</text>')
    for i, a in enumerate(categories):
        y = top + cell * i
        out.append(f'<text x="{left - 6}" y="{y + cell / 2 + 4:.1f}" text-anchor="end" {FONT}>{html.escape(a.replace("_", " "))}</text>')
        for j, b in enumerate(categories):
            x = left + cell * j
            count = counts.get((a, b), 0)
            shade = round(255 - 215 * count / most)
            ink = "#fff" if shade < 130 else "#111"
            rect = f'<rect x="{x}" y="{y}" width="{cell - 2}" height="{cell - 2}" fill="rgb({shade},{shade},{shade})" stroke="#999"/>'
            label = _text(x + cell / 2 - 1, y + cell / 2 + 4, f"{base}/{a}/{b}", "int", show(count, "int"), "middle", ink)
            link = link_of.get((a, b))
            out.append(f'<a href="{html.escape(link, quote=True)}">{rect}{label}</a>' if link and count else rect + label)
    out.append("</svg>")
    return "".join(out)
