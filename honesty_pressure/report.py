"""Reports as documents over one JSON object: REPORT.md and a self-contained report.html.

Every number a report shows is a pointer into the JSON it reports (summary.json, regress.json,
compare.json), formatted here and nowhere else. The HTML marks each one with `data-j` (the JSON
pointer) and `data-f` (the format), so a test can check that every number on the page is the
summary's. The page has no scripts and loads nothing: it opens air-gapped.
"""

from __future__ import annotations

import html
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Literal, Union

from .errors import printable

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


Inline = Union[str, Num, Est, Label]
Cell = Union[Num, Est, Label]


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


Block = Union[Table, Figure, Raw]


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


# ---- values ---------------------------------------------------------------------------------------


def pointer(*parts: object) -> str:
    """A JSON pointer from path parts ("~" and "/" escaped as RFC 6901 says)."""
    return "".join("/" + str(p).replace("~", "~0").replace("/", "~1") for p in parts)


def resolve(data: object, ptr: str) -> object:
    """The value at a JSON pointer; KeyError naming the pointer if it is not there (a report bug)."""
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
        return ", ".join(str(v) for v in value) if isinstance(value, list) and value else "not recorded"
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


def _estimate_parts(data: object, est: Est) -> tuple[tuple[str, str, str], tuple[str, str, str] | None, tuple[str, str, str] | None]:
    """((pointer, fmt, text) of the value, of low, of high); low/high None when absent."""
    node = resolve(data, est.base)
    assert isinstance(node, Mapping), est.base
    key = "value" if "value" in node else "rate"
    value = (est.base + f"/{key}", est.fmt, show(node.get(key), est.fmt))
    lo, hi = node.get("low"), node.get("high")
    if not (is_number(lo) and is_number(hi)) or not is_number(node.get(key)):
        return value, None, None
    bound = "ppb" if est.fmt == "pp" else "pctb"
    return value, (est.base + "/low", bound, _bound(lo, est.fmt)), (est.base + "/high", bound, _bound(hi, est.fmt))


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


# ---- Markdown -------------------------------------------------------------------------------------


def markdown(doc: Document) -> str:
    out = [f"# {doc.title}", ""]
    for name, value in doc.header:
        out.append(f"- **{name}:** " + "".join(text_of(doc.data, i) for i in value))
    if doc.header:
        out.append("")
    for section in doc.sections:
        out += [f"{'#' * section.level} {section.title}", ""]
        for para in section.paragraphs:
            out += ["".join(text_of(doc.data, i) for i in para), ""]
        for block in section.blocks:
            if isinstance(block, Raw):
                if block.markdown:
                    out += [block.markdown, ""]
                continue
            table = block.table if isinstance(block, Figure) else block
            if table.title:
                out += [f"**{table.title}**", ""]
            if table.note:
                out += ["".join(text_of(doc.data, i) for i in table.note), ""]
            out.append("| " + " | ".join(table.headers) + " |")
            out.append("|" + "|".join("---" for _ in table.headers) + "|")
            out += ["| " + " | ".join(text_of(doc.data, c).replace("|", "\\|") for c in row) + " |" for row in table.rows]
            out.append("")
    return "\n".join(out)


# ---- HTML -----------------------------------------------------------------------------------------

STYLE = (
    "body{font:15px/1.45 system-ui,sans-serif;max-width:74rem;margin:2rem auto;padding:0 1rem;color:#111}"
    "table{border-collapse:collapse;margin:.5rem 0 1.5rem}td,th{border:1px solid #bbb;padding:.2rem .55rem;text-align:left;"
    "vertical-align:top}th{background:#eee}td{font-variant-numeric:tabular-nums}"
    ".header{display:grid;grid-template-columns:max-content 1fr;gap:.15rem 1rem;background:#f6f6f6;padding:.75rem;border:1px solid #ccc}"
    ".header dt{font-weight:600}.header dd{margin:0;overflow-wrap:anywhere}"
    ".fig{display:flex;flex-wrap:wrap;gap:1.5rem;align-items:flex-start}.fig svg{flex:0 0 auto;max-width:100%}"
    "nav ul{columns:3}a{color:#0645ad}"
    ".item{border:1px solid #bbb;padding:.5rem .75rem;margin:.75rem 0}.item pre{white-space:pre-wrap;overflow-wrap:anywhere;"
    "background:#f7f7f7;padding:.4rem;margin:.2rem 0 .6rem;font-size:13px}.role{font-weight:600;font-size:13px}"
    ".meta{font-size:13px}.group{margin:.4rem 0}"
)


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


def table_html(data: object, table: Table) -> str:
    parts = []
    if table.title:
        anchor = f' id="{_attr(table.anchor)}"' if table.anchor else ""
        parts.append(f"<h3{anchor}>{html.escape(table.title)}</h3>")
    if table.note:
        parts.append("<p>" + "".join(inline_html(data, i) for i in table.note) + "</p>")
    parts.append("<table><thead><tr>" + "".join(f"<th>{html.escape(h)}</th>" for h in table.headers) + "</tr></thead><tbody>")
    parts += ["<tr>" + "".join(f"<td>{inline_html(data, c)}</td>" for c in row) + "</tr>" for row in table.rows]
    parts.append("</tbody></table>")
    return "\n".join(parts)


def page(doc: Document) -> str:
    """The whole page: header, contents, sections."""
    parts = [
        "<!doctype html>",
        '<html lang="en"><head><meta charset="utf-8">',
        '<meta name="viewport" content="width=device-width, initial-scale=1">',
        f"<title>{html.escape(doc.title)}</title>",
        f"<style>{STYLE}</style>",
        "</head><body>",
        f"<h1>{html.escape(doc.title)}</h1>",
    ]
    if doc.header:
        parts.append('<dl class="header">')
        for name, value in doc.header:
            parts.append(f"<dt>{html.escape(name)}</dt><dd>" + "".join(inline_html(doc.data, i) for i in value) + "</dd>")
        parts.append("</dl>")
    top = [s for s in doc.sections if s.level == 2]
    if len(top) > 2:
        parts.append("<nav><ul>" + "".join(f'<li><a href="#{_attr(s.anchor)}">{html.escape(s.title)}</a></li>' for s in top) + "</ul></nav>")
    for section in doc.sections:
        parts.append(f'<h{section.level} id="{_attr(section.anchor)}">{html.escape(section.title)}</h{section.level}>')
        parts += ["<p>" + "".join(inline_html(doc.data, i) for i in para) + "</p>" for para in section.paragraphs]
        for block in section.blocks:
            if isinstance(block, Raw):
                parts.append(block.html)
            elif isinstance(block, Figure):
                parts.append('<div class="fig">' + block.svg + "<div>" + table_html(doc.data, block.table) + "</div></div>")
            else:
                parts.append(table_html(doc.data, block))
    parts.append("</body></html>")
    return "\n".join(parts) + "\n"


__all__ = [
    "Block",
    "Cell",
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
