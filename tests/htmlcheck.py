"""Read a report page with html.parser and check every number it shows against its JSON.

A number on the page is either tagged (`data-j` = a JSON pointer, `data-f` = its format) and then
must equal the JSON's value as displayed, or it sits in text copied from the inputs (`verbatim`:
transcripts and ids), in a chart's fixed scale (`data-scale`) or in a heading. Anywhere else a
decimal, a percentage or a number of two digits or more is a number nobody can trace: a failure.
"""

from __future__ import annotations

import base64
import json
import re
import zlib
from collections.abc import Mapping
from dataclasses import dataclass, field
from html.parser import HTMLParser

VOID = {"meta", "br", "img", "link", "input", "hr", "col", "source", "wbr"}
HEADINGS = {"h1", "h2", "h3", "h4", "h5", "h6", "th", "title", "style", "script", "summary"}
NUMBER = re.compile(r"[-+]?\d[\d,]*(?:\.\d+)?\s?%?")
ALLOWED = ("SHA-256",)


@dataclass
class Page(HTMLParser):
    tagged: list[tuple[str, str, str, dict[str, str]]] = field(default_factory=list)
    loose: list[str] = field(default_factory=list)
    ids: set[str] = field(default_factory=set)
    hrefs: list[str] = field(default_factory=list)
    tags: dict[str, int] = field(default_factory=dict)
    attr_values: list[tuple[str, str, str]] = field(default_factory=list)
    _stack: list[tuple[str, dict[str, str]]] = field(default_factory=list)
    _text: list[list[str]] = field(default_factory=list)

    def __post_init__(self) -> None:
        HTMLParser.__init__(self, convert_charrefs=True)

    def _open(self, tag: str, attrs: list[tuple[str, str | None]]) -> dict[str, str]:
        a = {k: v or "" for k, v in attrs}
        self.tags[tag] = self.tags.get(tag, 0) + 1
        if "id" in a:
            assert a["id"] not in self.ids, f"duplicate id {a['id']}"
            self.ids.add(a["id"])
        if "href" in a:
            self.hrefs.append(a["href"])
        self.attr_values += [(tag, k, v) for k, v in a.items()]
        return a

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        a = self._open(tag, attrs)
        if tag in VOID:
            return
        self._stack.append((tag, a))
        self._text.append([])

    def handle_startendtag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        self._open(tag, attrs)

    def handle_endtag(self, tag: str) -> None:
        if tag in VOID:
            return
        assert self._stack and self._stack[-1][0] == tag, (
            f"unbalanced </{tag}> in {[t for t, _ in self._stack][-5:]}"
        )
        _, a = self._stack.pop()
        text = "".join(self._text.pop())
        if "data-j" in a:
            self.tagged.append((a["data-j"], a.get("data-f", ""), text, a))
        elif self._text:
            self._text[-1].append(text)

    def handle_data(self, data: str) -> None:
        if not self._stack:
            return
        self._text[-1].append(data)
        excluded = any(
            t in HEADINGS
            or "data-j" in a
            or "data-scale" in a
            or "verbatim" in a.get("class", "").split()
            for t, a in self._stack
        )
        if not excluded:
            self.loose.append(data)


EXPLORER_DATA = re.compile(
    r'<script type="application/octet-stream" id="x-data"[^>]*>([^<]*)</script>'
)


def explorer_items(text: str) -> tuple[list[dict[str, object]], dict[str, object]]:
    """The explorer's embedded items (each as a dict of its fields) and the whole payload, decoded
    as the page's script decodes them: base64, then zlib ("deflate"), then JSON."""
    found = EXPLORER_DATA.findall(text)
    assert len(found) == 1, f"{len(found)} explorer payloads"
    data = json.loads(zlib.decompress(base64.b64decode(found[0])))
    assert isinstance(data, dict)
    fields = data["fields"]
    return [dict(zip(fields, row)) for row in data["items"]], data


def parse(text: str) -> Page:
    page = Page()
    page.feed(text)
    page.close()
    return page


def resolve(data: object, pointer: str) -> object:
    node = data
    for raw in pointer.split("/")[1:]:
        part = raw.replace("~1", "/").replace("~0", "~")
        node = node[int(part)] if isinstance(node, list) else node[part]  # type: ignore[index]
    return node


def _close(shown: float, value: float, places: int) -> bool:
    return abs(shown - value) <= 0.5 * 10.0**-places + 1e-9


def check_number(value: object, fmt: str, text: str, attrs: Mapping[str, str]) -> str | None:
    """None if `text` shows `value` in format `fmt`; else what is wrong. Independent of the kit's
    own formatting: it parses what is shown and compares with the value."""
    if fmt == "bar":
        return (
            None
            if isinstance(value, (int, float))
            and abs(float(attrs["width"].rstrip("%")) / float(attrs["data-plot"]) - value) < 0.002
            else f"bar width {attrs.get('width')} for {value}"
        )
    if value is None:
        return None if text in ("—", "not recorded") else f"{text!r} shown for null"
    if fmt == "text":
        return None if text == str(value) else f"{text!r} != {value!r}"
    if fmt == "list":
        assert isinstance(value, list)
        return (
            None
            if text == (", ".join(map(str, value)) or "not recorded")
            else f"{text!r} != {value!r}"
        )
    if fmt == "len":
        assert isinstance(value, (list, dict))
        return None if int(text.replace(",", "")) == len(value) else f"{text!r} != len {len(value)}"
    assert isinstance(value, (int, float)) and not isinstance(value, bool), (fmt, value)
    clean = text.replace(",", "").replace(" pp", "").rstrip("%")
    if fmt == "int":
        return None if int(clean) == value else f"{text!r} != {value}"
    if fmt == "p":
        ok = value < 0.0001 if text == "<0.0001" else _close(float(clean), value, 4)
        return None if ok else f"{text!r} != {value}"
    if fmt in ("pct", "pctb", "pp", "ppb"):
        if fmt in ("pct",) and not text.endswith("%"):
            return f"{text!r} lacks %"
        return None if _close(float(clean), 100 * value, 1) else f"{text!r} != {value}"
    if fmt == "pct0":
        return None if _close(float(clean), 100 * value, 0) else f"{text!r} != {value}"
    return f"unknown format {fmt!r}"


def problems(page: Page, data: object) -> list[str]:
    out = []
    for pointer, fmt, text, attrs in page.tagged:
        try:
            value = resolve(data, pointer)
        except (KeyError, IndexError, TypeError):
            out.append(f"{pointer}: not in the JSON")
            continue
        wrong = check_number(value, fmt, text.strip(), attrs)
        if wrong:
            out.append(f"{pointer} ({fmt}): {wrong}")
    for text in page.loose:
        for allowed in ALLOWED:
            text = text.replace(allowed, "")
        for match in NUMBER.finditer(text):
            token = match.group().strip()
            digits = token.lstrip("+-").rstrip("%").strip().replace(",", "")
            if "." in token or "%" in token or "," in token or int(digits) >= 10:
                out.append(f"untraced number {token!r} in {text.strip()[:80]!r}")
    return out
