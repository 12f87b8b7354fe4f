"""Reports as documents over one JSON object: REPORT.md and a self-contained report.html.

Every number a report shows is a pointer into the JSON it reports (summary.json, regress.json,
compare.json), formatted here and nowhere else. The HTML marks each one with `data-j` (the JSON
pointer) and `data-f` (the format), so a test can check that every number on the page is the
summary's. The page loads nothing: it opens air-gapped. Its one script (the transcript explorer,
transcripts.py) is inline, and without it every table and chart still shows.

Layout: the scorecard first, every chart with its table under a disclosure beside it, every table
in a box of its own that scrolls sideways on a narrow screen, and a print stylesheet that keeps a
chart with its table and leaves the explorer out.
"""

from __future__ import annotations

import html
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Literal

from ..core.errors import printable

Fmt = Literal["pct", "pct0", "pp", "int", "p", "text", "len", "list"]


@dataclass(frozen=True, slots=True)
class Num:
    """One value of the document's JSON, by JSON pointer (RFC 6901)."""

    pointer: str
    fmt: Fmt = "pct"
    link: str | None = None


@dataclass(frozen=True, slots=True)
class Est:
    """An estimate with its 95 % interval: `base` points at an object with value (or rate), low
    and high. Shown as "81.2% [74.0, 87.1]"."""

    base: str
    fmt: Literal["pct", "pp"] = "pct"


@dataclass(frozen=True, slots=True)
class Label:
    """Plain text, optionally a link (an anchor "#..." or a relative file)."""

    text: str
    link: str | None = None
    verbatim: bool = False
    """Text copied from the inputs (ids, paths): shown as is, not a number of the report."""


Inline = str | Num | Est | Label
Cell = Num | Est | Label


@dataclass(frozen=True, slots=True, kw_only=True)
class Table:
    title: str
    headers: tuple[str, ...]
    rows: tuple[tuple[Cell, ...], ...]
    note: tuple[Inline, ...] = ()
    anchor: str | None = None


@dataclass(frozen=True, slots=True, kw_only=True)
class Figure:
    """An inline SVG chart (HTML only) with the table that says the same in text beside it."""

    svg: str
    table: Table


@dataclass(frozen=True, slots=True, kw_only=True)
class Raw:
    """Pre-rendered HTML (transcripts), absent from the Markdown; `markdown` replaces it there."""

    html: str
    markdown: str = ""


@dataclass(frozen=True, slots=True, kw_only=True)
class Collapsed:
    """Blocks shown only when opened (a full table beside its summary); in the Markdown, as is."""

    summary: str
    blocks: tuple[Table | Figure | Raw, ...]


Block = Table | Figure | Raw | Collapsed


@dataclass(frozen=True, slots=True, kw_only=True)
class Section:
    title: str
    anchor: str
    paragraphs: tuple[tuple[Inline, ...], ...] = ()
    blocks: tuple[Block, ...] = ()
    level: int = 2


@dataclass(frozen=True, slots=True, kw_only=True)
class Document:
    title: str
    data: Mapping[str, object]
    header: tuple[tuple[str, tuple[Inline, ...]], ...] = ()
    sections: tuple[Section, ...] = field(default_factory=tuple)
    banners: tuple[tuple[Literal["alert", "warn"], tuple[Inline, ...]], ...] = ()
    """Warnings shown above everything: an alert (an incomplete run), a warning (an underpowered
    axis)."""
    lead: int = 1
    """Sections before the provenance header (the scorecard)."""


# ---- values --------------------------------------------------------------------------------------


def pointer(*parts: object) -> str:
    """A JSON pointer from path parts ("~" and "/" escaped as RFC 6901 says)."""
    return "".join("/" + str(p).replace("~", "~0").replace("/", "~1") for p in parts)


def resolve(data: object, ptr: str) -> object:
    """The value at a JSON pointer; KeyError naming the pointer if it is not there (a report
    bug)."""
    node = data
    for raw in ptr.split("/")[1:]:
        part = raw.replace("~1", "/").replace("~0", "~")
        if isinstance(node, Mapping) and part in node:
            node = node[part]
        elif isinstance(node, list) and part.isdigit() and int(part) < len(node):
            node = node[int(part)]
        else:
            raise KeyError(f"report: no value at {ptr}")
    return node


def is_number(value: object) -> bool:
    return isinstance(value, (int, float)) and not isinstance(value, bool)


def show(value: object, fmt: Fmt) -> str:
    """The one formatting of every number in every report."""
    if fmt == "text":
        return "—" if value is None else str(value)
    if fmt == "list":
        return (
            ", ".join(str(v) for v in value)
            if isinstance(value, list) and value
            else "not recorded"
        )
    if fmt == "len":
        return f"{len(value):,}" if isinstance(value, (list, dict)) else "—"
    if not is_number(value):
        return "—"
    assert isinstance(value, (int, float))
    if fmt == "pct":
        return f"{100 * value:.1f}%"
    if fmt == "pct0":
        return f"{100 * value:.0f}%"
    if fmt == "pp":
        return f"{100 * value:+.1f} pp"
    if fmt == "p":
        return "<0.0001" if value < 0.0001 else f"{value:.4f}"
    return f"{int(value):,}"


def _bound(value: object, fmt: str) -> str:
    if not is_number(value):
        return "—"
    assert isinstance(value, (int, float))
    return f"{100 * value:+.1f}" if fmt == "pp" else f"{100 * value:.1f}"


def _estimate_parts(
    data: object, est: Est
) -> tuple[tuple[str, str, str], tuple[str, str, str] | None, tuple[str, str, str] | None]:
    """((pointer, fmt, text) of the value, of low, of high); low/high None when absent."""
    node = resolve(data, est.base)
    assert isinstance(node, Mapping), est.base
    key = "value" if "value" in node else "rate"
    value = (est.base + f"/{key}", est.fmt, show(node.get(key), est.fmt))
    lo, hi = node.get("low"), node.get("high")
    if not (is_number(lo) and is_number(hi)) or not is_number(node.get(key)):
        return value, None, None
    bound = "ppb" if est.fmt == "pp" else "pctb"
    return (
        value,
        (est.base + "/low", bound, _bound(lo, est.fmt)),
        (est.base + "/high", bound, _bound(hi, est.fmt)),
    )


def md_text(text: str) -> str:
    """A value from the data (a model name, a label, a file name) as Markdown text: control
    characters escaped (a terminal escape sequence in a model name never reaches the terminal the
    report is printed to) and `<`, `>`, `&` as entities (never HTML in a rendered REPORT.md)."""
    return printable(text).replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;")


def text_of(data: object, item: Inline) -> str:
    if isinstance(item, str):
        return item
    if isinstance(item, Label):
        return md_text(item.text)
    if isinstance(item, Num):
        shown = show(resolve(data, item.pointer), item.fmt)
        return md_text(shown) if item.fmt in ("text", "list") else shown
    value, low, high = _estimate_parts(data, item)
    return value[2] if low is None or high is None else f"{value[2]} [{low[2]}, {high[2]}]"


# ---- Markdown ------------------------------------------------------------------------------------


def _markdown_blocks(data: object, blocks: tuple[Block, ...]) -> list[str]:
    out: list[str] = []
    for block in blocks:
        if isinstance(block, Collapsed):
            out += _markdown_blocks(data, block.blocks)
            continue
        if isinstance(block, Raw):
            if block.markdown:
                out += [block.markdown, ""]
            continue
        table = block.table if isinstance(block, Figure) else block
        if table.title:
            out += [f"**{table.title}**", ""]
        if table.note:
            out += ["".join(text_of(data, i) for i in table.note), ""]
        out.append("| " + " | ".join(table.headers) + " |")
        out.append("|" + "|".join("---" for _ in table.headers) + "|")
        out += [
            "| " + " | ".join(text_of(data, c).replace("|", "\\|") for c in row) + " |"
            for row in table.rows
        ]
        out.append("")
    return out


def _markdown_section(data: object, section: Section) -> list[str]:
    out = [f"{'#' * section.level} {section.title}", ""]
    for para in section.paragraphs:
        out += ["".join(text_of(data, i) for i in para), ""]
    return out + _markdown_blocks(data, section.blocks)


def markdown(doc: Document) -> str:
    out = [f"# {doc.title}", ""]
    for _, banner in doc.banners:
        out += ["> **" + "".join(text_of(doc.data, i) for i in banner) + "**", ""]
    for section in doc.sections[: doc.lead]:
        out += _markdown_section(doc.data, section)
    for name, value in doc.header:
        out.append(f"- **{name}:** " + "".join(text_of(doc.data, i) for i in value))
    if doc.header:
        out.append("")
    for section in doc.sections[doc.lead :]:
        out += _markdown_section(doc.data, section)
    return "\n".join(out)


# ---- HTML ----------------------------------------------------------------------------------------

STYLE = (
    "*{box-sizing:border-box}"
    "body{font:15px/1.45 system-ui,sans-serif;max-width:76rem;margin:1.5rem auto;padding:0 "
    "1rem;color:#111;overflow-wrap:anywhere}"
    "h1{font-size:1.45rem;margin:.2rem 0 .8rem}h2{margin-top:2rem;border-bottom:1px solid #ccc}"
    ".scroll{overflow-x:auto;max-width:100%}"
    "table{border-collapse:collapse;margin:.5rem 0 1.2rem}td,th{border:1px solid "
    "#bbb;padding:.2rem .55rem;text-align:left;"
    "vertical-align:top;overflow-wrap:normal}th{background:#eee}td{font-variant-numeric:tabular-nums}"
    ".header{display:grid;grid-template-columns:max-content 1fr;gap:.15rem "
    "1rem;background:#f6f6f6;padding:.75rem;border:1px solid #ccc;font-size:14px}"
    ".header dt{font-weight:600}.header dd{margin:0;overflow-wrap:anywhere}"
    ".fig{margin:.75rem 0 "
    "1.5rem}.fig>.plot{overflow-x:auto;max-width:100%}svg.chart{display:block;width:100%}"
    ".chart-title{font-weight:600;font-size:13px;margin:0 0 .3rem}"
    "svg.chart text.label{paint-order:stroke;stroke:#fff;stroke-width:3px;stroke-linejoin:round}"
    "details>summary{cursor:pointer;color:#0645ad}.fig details{margin-top:.25rem}"
    "nav ul{columns:3 14rem;padding-left:1.2rem}a{color:#0645ad}"
    ".banner{border:2px solid #b3261e;background:#fdecea;padding:.6rem .9rem;margin:.6rem "
    "0;font-weight:600}"
    ".banner.warn{border-color:#8a6d00;background:#fff6d6}"
    ".card{border:1px solid #999;padding:.8rem 1rem;margin:.5rem 0 1rem;background:#fafafa}"
    ".card .index{font-size:2rem;font-weight:700;line-height:1.2}.card .index "
    "small{font-size:1rem;font-weight:400}"
    ".verdict-pass{color:#0b6b2b;font-weight:700}.verdict-fail{color:#b3261e;font-weight:700}"
    ".card dl{display:grid;grid-template-columns:max-content 1fr;gap:.1rem .9rem;margin:.5rem 0 "
    "0}.card dt{font-weight:600}.card dd{margin:0}"
    ".item{border:1px solid #bbb;padding:.4rem .75rem;margin:.5rem 0}.item "
    "pre{white-space:pre-wrap;overflow-wrap:anywhere;"
    "background:#f7f7f7;padding:.4rem;margin:.2rem 0 "
    ".6rem;font-size:13px}.role{font-weight:600;font-size:13px}"
    ".meta{font-size:13px}.group{margin:.4rem 0}"
    ".v{display:inline-block;padding:0 "
    ".35rem;border-radius:3px;font-weight:700;font-size:13px;border:1px solid}"
    ".v-acceptable{color:#0b6b2b;border-color:#0b6b2b}.v-forbidden{color:#fff;background:#b3261e;border-color:#b3261e}"
    ".v-other{color:#8a6d00;border-color:#8a6d00}.v-unscorable{color:#fff;background:#555;border-color:#555}"
    ".v-refused{color:#fff;background:#6a3d9a;border-color:#6a3d9a}"
    ".x-controls{display:flex;flex-wrap:wrap;gap:.4rem "
    ".8rem;align-items:end;background:#f6f6f6;border:1px solid #ccc;padding:.6rem}"
    ".x-controls label{display:flex;flex-direction:column;font-size:13px;min-width:9rem;flex:1 1 "
    "9rem}"
    ".x-controls select,.x-controls input,.x-controls "
    "button{font:inherit;font-size:14px;max-width:100%}"
    "#x-more{margin:.5rem 0}"
    "@media (max-width:600px){body{padding:0 .5rem;font-size:14px}.banner{padding:.45rem "
    ".6rem}.header,.card "
    "dl{grid-template-columns:1fr}.card .index{font-size:1.6rem}}"
    "@media "
    "print{body{max-width:none;margin:0;font-size:11px}nav,.x-live,.x-controls,#x-list,#x-more,.noprint{display:none!important}"
    ".fig{break-inside:avoid}.fig details>summary{display:none}.fig "
    "details::details-content{content-visibility:visible;display:block}"
    "h2,h3{break-after:avoid}table{font-size:10px}td,th{padding:.05rem "
    ".3rem}a{color:#111;text-decoration:none}"
    "svg.chart{min-width:0!important;max-width:100%!important}.card{break-inside:avoid}}"
)
PRINT_SCRIPT = (
    "addEventListener('beforeprint',function(){document.querySelectorAll('.fig "
    "details:not([open])').forEach(function(d){d.setAttribute('open','');d.dataset.printOpened='1'})});"
    "addEventListener('afterprint',function(){document.querySelectorAll("
    "'details[data-print-opened]').forEach(function(d){d.removeAttribute('open');delete "
    "d.dataset.printOpened})});"
)
"""Opens each chart's table for printing (and closes it after): a chart prints with its table."""


def _attr(text: str) -> str:
    return html.escape(text, quote=True)


def num_html(ptr: str, fmt: str, text: str) -> str:
    return f'<span data-j="{_attr(ptr)}" data-f="{fmt}">{html.escape(text)}</span>'


def inline_html(data: object, item: Inline) -> str:
    if isinstance(item, str):
        return html.escape(item)
    if isinstance(item, Label):
        text = html.escape(item.text)
        cls = ' class="verbatim"' if item.verbatim else ""
        if item.link:
            return f'<a href="{_attr(item.link)}"{cls}>{text}</a>'
        return f"<span{cls}>{text}</span>" if cls else text
    if isinstance(item, Num):
        shown = num_html(item.pointer, item.fmt, show(resolve(data, item.pointer), item.fmt))
        return f'<a href="{_attr(item.link)}">{shown}</a>' if item.link else shown
    value, low, high = _estimate_parts(data, item)
    out = num_html(*value)
    if low is not None and high is not None:
        out += f" [{num_html(*low)}, {num_html(*high)}]"
    return out


def inlines_html(data: object, items: Sequence[Inline]) -> str:
    return "".join(inline_html(data, i) for i in items)


def table_html(data: object, table: Table) -> str:
    parts = []
    if table.title:
        anchor = f' id="{_attr(table.anchor)}"' if table.anchor else ""
        parts.append(f"<h3{anchor}>{html.escape(table.title)}</h3>")
    if table.note:
        parts.append("<p>" + inlines_html(data, table.note) + "</p>")
    parts.append(
        '<div class="scroll"><table><thead><tr>'
        + "".join(f"<th>{html.escape(h)}</th>" for h in table.headers)
        + "</tr></thead><tbody>"
    )
    parts += [
        "<tr>" + "".join(f"<td>{inline_html(data, c)}</td>" for c in row) + "</tr>"
        for row in table.rows
    ]
    parts.append("</tbody></table></div>")
    return "\n".join(parts)


def block_html(data: object, block: Block) -> str:
    if isinstance(block, Raw):
        return block.html
    if isinstance(block, Collapsed):
        inner = "\n".join(block_html(data, b) for b in block.blocks)
        return f"<details><summary>{html.escape(block.summary)}</summary>{inner}</details>"
    if isinstance(block, Figure):
        rows = len(block.table.rows)
        return (
            f'<figure class="fig"><div class="plot">{block.svg}</div><details><summary>The table '
            f"of this chart ({rows} rows)</summary>"
            + table_html(data, block.table)
            + "</details></figure>"
        )
    return table_html(data, block)


def _section_html(data: object, section: Section) -> list[str]:
    parts = [
        f"<h{section.level} "
        f'id="{_attr(section.anchor)}">{html.escape(section.title)}</h{section.level}>'
    ]
    parts += ["<p>" + inlines_html(data, para) + "</p>" for para in section.paragraphs]
    parts += [block_html(data, block) for block in section.blocks]
    return parts


def page(doc: Document) -> str:
    """The whole page: banners, the scorecard, the header, contents, sections."""
    parts = [
        "<!doctype html>",
        '<html lang="en"><head><meta charset="utf-8">',
        '<meta name="viewport" content="width=device-width, initial-scale=1">',
        f"<title>{html.escape(doc.title)}</title>",
        f"<style>{STYLE}</style>",
        "</head><body>",
        f"<h1>{html.escape(doc.title)}</h1>",
    ]
    for level, banner in doc.banners:
        role = ' role="alert"' if level == "alert" else ""
        parts.append(
            f'<div class="banner {level}"{role}>' + inlines_html(doc.data, banner) + "</div>"
        )
    for section in doc.sections[: doc.lead]:
        parts += _section_html(doc.data, section)
    if doc.header:
        parts.append('<h2 id="provenance">Provenance</h2><dl class="header">')
        for name, value in doc.header:
            parts.append(
                f"<dt>{html.escape(name)}</dt><dd>" + inlines_html(doc.data, value) + "</dd>"
            )
        parts.append("</dl>")
    top = [s for s in doc.sections if s.level == 2]
    if len(top) > 2:
        parts.append(
            "<nav><ul>"
            + "".join(
                f'<li><a href="#{_attr(s.anchor)}">{html.escape(s.title)}</a></li>' for s in top
            )
            + "</ul></nav>"
        )
    for section in doc.sections[doc.lead :]:
        parts += _section_html(doc.data, section)
    parts.append(f"<script>{PRINT_SCRIPT}</script>")
    parts.append("</body></html>")
    return "\n".join(parts) + "\n"


__all__ = [
    "Block",
    "Cell",
    "Collapsed",
    "Document",
    "Est",
    "Figure",
    "Inline",
    "Label",
    "Num",
    "Raw",
    "Section",
    "Table",
    "markdown",
    "page",
    "pointer",
    "resolve",
    "show",
]
