"""report.html in a real browser: Debian's chromium, headless, renders the demo run's and the full
layer's page; the screenshot must not be blank and the page must log nothing to the console.

Skipped only where chromium is absent; CI (.ci/run) installs it, so there it runs. A page with a
script error and nothing drawn is rendered too, to show that both checks can fail.
"""

from __future__ import annotations

import shutil
import struct
import subprocess
import zlib
from pathlib import Path

import pytest

CHROMIUM = shutil.which("chromium") or shutil.which("chromium-browser")
pytestmark = pytest.mark.skipif(CHROMIUM is None, reason="chromium is not installed (CI installs Debian's chromium)")
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
    "--window-size=1280,1600",
)
ROWS_CHECKED = 700


def render(page: Path, tmp: Path) -> tuple[bytes, list[str]]:
    """(the screenshot's PNG bytes, the console messages chromium logged)."""
    shot = tmp / "shot.png"
    assert CHROMIUM is not None
    done = subprocess.run(
        [CHROMIUM, *FLAGS, f"--user-data-dir={tmp / 'profile'}", f"--screenshot={shot}", page.resolve().as_uri()],
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
        kind, line = raw[y * (stride + 1)], bytearray(raw[y * (stride + 1) + 1 : (y + 1) * (stride + 1)])
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
    inked = sum(1 for row in rows[::7] for i in range(0, len(row), bpp * 5) if min(row[i : i + 3]) < 200)
    total = sum(len(row) // (bpp * 5) for row in rows[::7])
    return len(colours) < 3 or inked < total * 0.005


def test_a_broken_page_fails_both_checks(tmp_path: Path) -> None:
    page = tmp_path / "bad.html"
    page.write_text('<!doctype html><html><head><meta charset="utf-8"><title>x</title></head><body><script>undefinedFunction();</script></body></html>')
    png, console = render(page, tmp_path)
    assert blank(png)
    assert any("undefinedFunction is not defined" in line for line in console)


@pytest.mark.parametrize("which", ["quick_demo", "full_demo"])
def test_report_renders_in_chromium(which: str, request: pytest.FixtureRequest, tmp_path: Path) -> None:
    folder = request.getfixturevalue(which)
    png, console = render(folder / "report.html", tmp_path)
    assert console == []
    assert not blank(png)
