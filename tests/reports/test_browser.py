"""report.html in a real browser: Debian's chromium, headless, renders the demo run's and the full
layer's page; the screenshot must not be blank and the page must log nothing to the console.

At 1400 px and at 400 px (a phone) a probe script, added to a copy of the page, checks with the
DOM that every chart label lies inside its chart, that no chart is wider than its box (none
scrolls: charts are fluid), that no element reaches past the viewport unless a box of its own
scrolls it (a table), that text is at least 11 px (SVG text as drawn), that the underpowered
banner takes at most two lines, and that the explorer's search finds an item by its id. Screenshots of both
widths are taken; the demo printed to PDF must fit in PRINT_PAGES pages. A page of the explorer
alone, opened by a link with a malformed "#" escape, must still start and find a refusal by its
text.

Skipped only where chromium is absent; CI (.ci/run) installs it, so there it runs. A page with a
script error and nothing drawn is rendered too, and a page that breaks each DOM check, to show
that the checks can fail.
"""

from __future__ import annotations

import json
import os
import re
import shutil
import struct
import subprocess
import zlib
from pathlib import Path

import pytest

CHROMIUM = shutil.which("chromium") or shutil.which("chromium-browser")
pytestmark = pytest.mark.skipif(
    CHROMIUM is None, reason="chromium is not installed (CI installs Debian's chromium)"
)
FLAGS = (
    "--headless",
    "--no-sandbox",
    "--disable-gpu",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    "--no-first-run",
    "--disable-quic",
    "--enable-logging=stderr",
    "--v=0",
    "--hide-scrollbars",
    "--force-device-scale-factor=1",
)
ROWS_CHECKED = 700
PRINT_PAGES = 20
"""The demo's report, printed with the explorer collapsed, fits in this many pages."""
WIDTHS = (1400, 400)


def render(page: Path, tmp: Path, width: int = 1280, height: int = 1600) -> tuple[bytes, list[str]]:
    """(the screenshot's PNG bytes, the console messages chromium logged)."""
    shot = tmp / f"shot-{width}.png"
    assert CHROMIUM is not None
    done = subprocess.run(
        [
            CHROMIUM,
            *FLAGS,
            f"--window-size={width},{height}",
            "--virtual-time-budget=5000",
            f"--user-data-dir={tmp / 'profile'}",
            f"--screenshot={shot}",
            page.resolve().as_uri(),
        ],
        capture_output=True,
        text=True,
        timeout=120,
        check=False,
    )
    assert done.returncode == 0, done.stderr[-2000:]
    console = [line for line in done.stderr.splitlines() if ":CONSOLE" in line]
    return shot.read_bytes(), console


def pixels(png: bytes, rows: int) -> tuple[int, list[bytes]]:
    """(bytes per pixel, the first `rows` rows unfiltered) of an 8-bit RGB or RGBA PNG."""
    assert png[:8] == b"\x89PNG\r\n\x1a\n"
    pos, idat, header = 8, [], b""
    while pos < len(png):
        (length,) = struct.unpack(">I", png[pos : pos + 4])
        kind, body = png[pos + 4 : pos + 8], png[pos + 8 : pos + 8 + length]
        if kind == b"IHDR":
            header = body
        elif kind == b"IDAT":
            idat.append(body)
        pos += 12 + length
    width, height, depth, colour = struct.unpack(">IIBB", header[:10])
    assert depth == 8 and colour in (2, 6), (depth, colour)
    bpp = 3 if colour == 2 else 4
    stride = width * bpp
    raw = zlib.decompressobj().decompress(b"".join(idat), (stride + 1) * min(rows, height))
    out, prev = [], bytes(stride)
    for y in range(min(rows, height)):
        kind, line = (
            raw[y * (stride + 1)],
            bytearray(raw[y * (stride + 1) + 1 : (y + 1) * (stride + 1)]),
        )
        for i in range(stride):
            a = line[i - bpp] if i >= bpp else 0
            b, c = prev[i], prev[i - bpp] if i >= bpp else 0
            if kind == 1:
                line[i] = (line[i] + a) & 255
            elif kind == 2:
                line[i] = (line[i] + b) & 255
            elif kind == 3:
                line[i] = (line[i] + (a + b) // 2) & 255
            elif kind == 4:
                p = a + b - c
                pa, pb, pc = abs(p - a), abs(p - b), abs(p - c)
                line[i] = (line[i] + (a if pa <= pb and pa <= pc else b if pb <= pc else c)) & 255
        prev = bytes(line)
        out.append(prev)
    return bpp, out


def blank(png: bytes) -> bool:
    """True when the top of the screenshot is one colour or almost all white."""
    bpp, rows = pixels(png, ROWS_CHECKED)
    colours = {row[i : i + 3] for row in rows[::7] for i in range(0, len(row), bpp * 5)}
    inked = sum(
        1 for row in rows[::7] for i in range(0, len(row), bpp * 5) if min(row[i : i + 3]) < 200
    )
    total = sum(len(row) // (bpp * 5) for row in rows[::7])
    return len(colours) < 3 or inked < total * 0.005


def test_a_broken_page_fails_both_checks(tmp_path: Path) -> None:
    page = tmp_path / "bad.html"
    page.write_text(
        "<!doctype html><html><head><meta "
        'charset="utf-8"><title>x</title></head><body><script>undefinedFunction();</script></body></html>'
    )
    png, console = render(page, tmp_path)
    assert blank(png)
    assert any("undefinedFunction is not defined" in line for line in console)


@pytest.mark.parametrize("which", ["quick_demo", "full_demo"])
def test_report_renders_in_chromium(
    which: str, request: pytest.FixtureRequest, tmp_path: Path
) -> None:
    folder = request.getfixturevalue(which)
    png, console = render(folder / "report.html", tmp_path)
    assert console == []
    assert not blank(png)


# ---- DOM checks ---------------------------------------------------------------------------------

PROBE = r"""
(function(){
var ID = %s;
function out(r){var p=document.createElement('pre');p.id='probe-result';p.textContent=JSON.stringify(r);document.body.appendChild(p)}
function shown(node){for(var e=node;e&&e!==document.body;e=e.parentElement){var s=getComputedStyle(e);if(s.display==='none'||s.visibility==='hidden')return false;
 if(e.tagName==='DETAILS'&&!e.open&&e!==node)return !!(e.firstElementChild&&e.firstElementChild.tagName==='SUMMARY'&&e.firstElementChild.contains(node))}return true}
function scrolls(e){for(e=e.parentElement;e&&e!==document.body;e=e.parentElement){var o=getComputedStyle(e).overflowX;if(o==='auto'||o==='scroll'||o==='hidden')return true}return false}
function checks(){var r={width:innerWidth,page:document.documentElement.scrollWidth,clipped:[],overflow:[],small:[]};
 document.querySelectorAll('svg.chart').forEach(function(svg){var s=svg.getBoundingClientRect(),vb=svg.viewBox.baseVal,scale=vb&&vb.width?s.width/vb.width:1;
  svg.querySelectorAll('text').forEach(function(t){var b=t.getBoundingClientRect();
   if(b.left<s.left-0.5||b.top<s.top-0.5||b.right>s.right+0.5||b.bottom>s.bottom+0.5)r.clipped.push(t.textContent+' in '+svg.getAttribute('aria-label'));
   var px=parseFloat(getComputedStyle(t).fontSize)*scale;if(px<11-0.01&&r.small.length<5)r.small.push(t.textContent+' '+px.toFixed(1)+'px')})});
 r.scrolled=[].filter.call(document.querySelectorAll('.plot'),function(p){return p.scrollWidth>p.clientWidth+1}).map(function(p){return (p.querySelector('svg')||p).getAttribute('aria-label')});
 document.querySelectorAll('body *').forEach(function(e){if(!shown(e)||e.closest('svg'))return;var b=e.getBoundingClientRect();
  if(b.width&&b.right>innerWidth+1&&!scrolls(e)&&r.overflow.length<5)r.overflow.push(e.tagName+'.'+e.className+' right '+Math.round(b.right));
  if(e.childNodes.length&&[].some.call(e.childNodes,function(n){return n.nodeType===3&&n.textContent.trim()})){var px=parseFloat(getComputedStyle(e).fontSize);
   if(px<11&&r.small.length<5)r.small.push(e.tagName+' '+px+'px')}});
 r.banners=[].map.call(document.querySelectorAll('.banner'),function(b){var s=getComputedStyle(b),inner=b.getBoundingClientRect().height-
  ['paddingTop','paddingBottom','borderTopWidth','borderBottomWidth'].reduce(function(a,k){return a+parseFloat(s[k])},0);return Math.round(inner/parseFloat(s.lineHeight))});
 return r}
addEventListener('load',function(){var st=document.getElementById('x-status'),n=0;if(!st)return out(checks());
 (function wait(){if(!/items match/.test(st.textContent)&&n++<200)return setTimeout(wait,50);
  var r=checks();r.status=st.textContent;var q=document.getElementById('x-q');q.value=ID;q.dispatchEvent(new Event('input'));
  setTimeout(function(){var cards=document.querySelectorAll('#x-list details');r.found=[].map.call(cards,function(c){return c.id});r.after=st.textContent;
   if(!cards.length)return out(r);cards[0].open=true;
   setTimeout(function(){var pres=cards[0].querySelectorAll('pre');r.why=(cards[0].querySelector('.why')||{}).textContent||'';r.pre=pres.length;
    r.reply=pres.length?pres[pres.length-1].textContent:'';out(r)},200)},600)})()})})();
"""


def probe(page: Path, tmp: Path, width: int, item: str, fragment: str = "") -> dict[str, object]:
    """The probe's findings on a copy of `page` rendered `width` px wide, opened at `fragment`
    (a link's "#..." part) and searched for `item` (an id or any text)."""
    copy = tmp / f"probe-{width}.html"
    text = page.read_text(encoding="utf-8")
    copy.write_text(
        text.replace(
            "</body></html>", f"<script>{PROBE % json.dumps(item)}</script></body></html>"
        ),
        encoding="utf-8",
    )
    assert CHROMIUM is not None
    done = subprocess.run(
        [
            CHROMIUM,
            *FLAGS,
            f"--window-size={width},1200",
            "--virtual-time-budget=8000",
            f"--user-data-dir={tmp / 'profile'}",
            "--dump-dom",
            copy.as_uri() + fragment,
        ],
        capture_output=True,
        text=True,
        timeout=120,
        check=False,
    )
    assert done.returncode == 0, done.stderr[-2000:]
    found = re.search(r'<pre id="probe-result">(.*?)</pre>', done.stdout, re.S)
    assert found, done.stdout[-500:]
    result = json.loads(
        found.group(1)
        .replace("&quot;", '"')
        .replace("&lt;", "<")
        .replace("&gt;", ">")
        .replace("&amp;", "&")
    )
    assert isinstance(result, dict)
    return result


def an_item(folder: Path) -> str:
    """The last record's item id (an item no filter shows first)."""
    last = json.loads((folder / "records.jsonl").read_text(encoding="utf-8").splitlines()[-1])
    return f"{last['packet_id']}#{last['sample']}"


@pytest.mark.parametrize("width", WIDTHS)
def test_labels_fit_nothing_overflows_text_is_readable_and_the_search_finds_an_item(
    quick_demo: Path, tmp_path: Path, width: int
) -> None:
    item = an_item(quick_demo)
    r = probe(quick_demo / "report.html", tmp_path, width, item)
    assert r["clipped"] == [], r["clipped"]
    assert r["overflow"] == [] and r["page"] == r["width"], (r["overflow"], r["page"])
    assert r["small"] == [], r["small"]
    assert r["scrolled"] == [], ("charts that do not fit: they scroll in their box", r["scrolled"])
    banners = r["banners"]  # the quick layer's one banner, "underpowered": two lines at most
    assert isinstance(banners, list) and len(banners) == 1, banners
    assert 1 <= banners[0] <= (2 if width == 400 else 1), banners
    assert re.fullmatch(r"\d+ of \d+ items match; showing the first 50\.", str(r["status"])), r[
        "status"
    ]
    assert r["found"] == ["i-" + item.replace("#", "-s")], r["found"]
    assert str(r["after"]).startswith("1 of "), r["after"]
    assert str(r["why"]).startswith("why: decision ") or str(r["why"]).startswith(
        "why: unscorable"
    ), r["why"]
    assert isinstance(r["pre"], int) and r["pre"] >= 3, "the conversation and the reply"
    png, console = render(quick_demo / "report.html", tmp_path, width, 2400)
    assert console == [] and not blank(png)
    keep = os.environ.get("HP_SCREENSHOTS")
    if keep:  # HP_SCREENSHOTS=DIR keeps the screenshots (docs/REPORT.md's figure is made so)
        Path(keep).mkdir(parents=True, exist_ok=True)
        (Path(keep) / f"report-{width}.png").write_bytes(png)


def test_the_probe_sees_a_clipped_label_an_overflow_and_small_text(
    quick_demo: Path, tmp_path: Path
) -> None:
    """The same checks on a page broken four ways must report each."""
    page = tmp_path / "broken.html"
    text = (quick_demo / "report.html").read_text(encoding="utf-8")
    text = text.replace('<tspan x="0" y="', '<tspan x="-40" y="', 1)
    wide = text.replace('style="min-width:340px"', 'style="min-width:900px"', 1)
    assert wide != text
    text = wide
    text = text.replace(
        "</h1>", '</h1><div style="width:3000px;font-size:8px">too wide and too small</div>', 1
    )
    page.write_text(text, encoding="utf-8")
    r = probe(page, tmp_path, 400, an_item(quick_demo))
    assert r["clipped"] and r["overflow"] and r["small"]
    assert r["scrolled"] == ["The axes: acceptable (solid) and forbidden (hatched), with intervals"]
    assert any("too wide" in "".join(map(str, r["small"])) or "DIV" in str(s) for s in r["small"])


def test_the_demo_prints_with_each_chart_beside_its_table(quick_demo: Path, tmp_path: Path) -> None:
    pdf = tmp_path / "report.pdf"
    assert CHROMIUM is not None
    done = subprocess.run(
        [
            CHROMIUM,
            *FLAGS,
            "--no-pdf-header-footer",
            f"--user-data-dir={tmp_path / 'profile'}",
            f"--print-to-pdf={pdf}",
            (quick_demo / "report.html").as_uri(),
        ],
        capture_output=True,
        text=True,
        timeout=120,
        check=False,
    )
    assert done.returncode == 0, done.stderr[-2000:]
    pages = len(re.findall(rb"/Type\s*/Page\b(?!s)", pdf.read_bytes()))
    print(f"report.html of the demo prints to {pages} pages")
    assert 3 <= pages <= PRINT_PAGES, pages


def explorer_page(tmp: Path) -> Path:
    """A page of the explorer alone, over four items: an answer, a refusal, a runner error and a
    fork its refused parent could not have."""
    from honesty_pressure.scoring.score import Record
    from honesty_pressure.scoring.transcripts import Item, explorer_html, explorer_payload

    def item(
        n: int, verdict: str, reply: str | None, error: str | None, reason: str | None = None
    ) -> Item:
        record = Record(
            packet_id=f"p-{n}",
            sample=0,
            decision="A" if reply else None,
            verdict=verdict,  # type: ignore[arg-type]
            reason=reason,  # type: ignore[arg-type]
            reply_sha256=None,
        )
        return Item(
            item=f"p-{n}#0",
            messages=(("system", "the menu"), ("user", "the ledger")),
            reply=reply,
            error=error,
            record=record,
            key={"family": "source", "acceptable": ["A"], "forbidden": ["B"]},
            line=n,
        )

    items = [
        item(1, "acceptable", "DECISION: A", None),
        item(2, "refused", None, "refusal: I can't help with Dosing Questions"),
        item(3, "unscorable", None, "HTTP 503 from the server", "runner_error"),
        item(4, "unscorable", None, "never sent: the parent was a refusal", "refused_parent"),
    ]
    page = tmp / "explorer.html"
    body = explorer_html(explorer_payload(items, {}), rest="replies.jsonl", complete=True)
    page.write_text(
        f'<!doctype html><html><head><meta charset="utf-8"><title>x</title></head><body>{body}'
        "</body></html>",
        encoding="utf-8",
    )
    return page


def test_the_explorer_starts_on_a_malformed_link_and_finds_a_refusal_by_its_text(
    tmp_path: Path,
) -> None:
    """A shared link whose "#" part is no valid escape (decodeURIComponent throws) must not stop
    the explorer, and a refused reply is found by its text and says why it is refused."""
    page = explorer_page(tmp_path)
    r = probe(page, tmp_path, 400, "dosing questions", "#%E0%A4%A")
    assert r["status"] == "4 of 4 items match.", r["status"]
    assert r["found"] == ["i-p-2-s0"], r["found"]
    assert r["after"] == "1 of 4 items match.", r["after"]
    assert r["why"] == (
        "why: refused: the model declined to answer; a refusal is its answer, counted on its own "
        "and never acceptable"
    ), r["why"]
    assert r["reply"] == "refusal: I can't help with Dosing Questions", r["reply"]


def test_the_explorer_says_why_a_fork_of_a_refusal_has_no_reply(tmp_path: Path) -> None:
    """refused_parent is an unscorable reason, but no decision was ever asked for: the card says
    the fork was never sent because its parent refused."""
    r = probe(explorer_page(tmp_path), tmp_path, 400, "p-4#0")
    assert r["found"] == ["i-p-4-s0"], r["found"]
    assert r["why"] == (
        "why: unscorable (refused parent): its parent reply was a refusal, so this fork was never "
        "sent; it counts as not acceptable and never makes the run incomplete"
    ), r["why"]
    assert r["reply"] == "[no reply: never sent: the parent was a refusal]", r["reply"]


def test_the_board_the_regression_and_the_survival_curves_fit_a_phone(
    quick_demo: Path, tmp_path: Path
) -> None:
    """compare's dots and its model-by-family map, regress's change chart and a survival chart
    (drawn on made-up rates, with a legend name that must wrap) on one page at 400 px: no chart
    scrolls in its box, no label passes its chart's edge, no text is under 11 px."""
    from honesty_pressure.reports.curves import Curve, curve_svg
    from tests.hostile.kit import run_in_process

    for command in ("compare", "regress"):
        done = run_in_process(command, quick_demo, quick_demo, "--out", tmp_path / command)
        assert done.returncode == 0, done.stderr
    rates = [{"rate": r, "low": r - 0.1, "high": r + 0.1, "n": 40} for r in (0.7, 0.6, 0.45, 0.4)]
    curve = curve_svg(
        {"a": rates, "b": rates[::-1]},
        "c",
        "Still acceptable after k pushes",
        [Curve("pressure threads, caution, first turn acceptable", "/a", "/b"), ("all", "/b")],
        4,
    )
    regress = (tmp_path / "regress" / "regress.html").read_text(encoding="utf-8")
    figures = re.findall(r'<figure class="fig">.*?</figure>', regress, re.S)
    figures.append(f'<figure class="fig"><div class="plot">{curve}</div></figure>')
    page = tmp_path / "boards.html"
    board = (tmp_path / "compare" / "compare.html").read_text(encoding="utf-8")
    page.write_text(
        board.replace("</body></html>", "".join(figures) + "</body></html>"), encoding="utf-8"
    )
    r = probe(page, tmp_path, 400, "")
    labels = re.findall(r'<svg [^>]*aria-label="([^"]*)"', page.read_text(encoding="utf-8"))
    assert "Acceptable per model and family" in labels and len(labels) >= 10, labels
    assert r["clipped"] == [] and r["small"] == [], r
    assert r["scrolled"] == [] and r["overflow"] == [] and r["page"] == r["width"], r
