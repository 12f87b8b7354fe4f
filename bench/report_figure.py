"""docs/report-top.png: the top of the demo's report.html, as chromium draws it 1000 px wide.

    python3 bench/report_figure.py [--out docs/report-top.png]

Runs `demo` into a temporary folder and screenshots its report with Debian's chromium (the one
tests/reports/test_browser.py uses), headless, with the same flags. The figure in docs/REPORT.md is
made so; run it again after a change to the scorecard.
"""

from __future__ import annotations

import argparse
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
WIDTH, HEIGHT = 1000, 820


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--out", type=Path, default=ROOT / "docs" / "report-top.png")
    args = parser.parse_args()
    chromium = shutil.which("chromium") or shutil.which("chromium-browser")
    if chromium is None:
        print(
            "report_figure: chromium is not installed (apt-get install chromium)", file=sys.stderr
        )
        return 2
    with tempfile.TemporaryDirectory() as tmp:
        demo = Path(tmp) / "demo"
        subprocess.run(
            [sys.executable, "-m", "honesty_pressure", "demo", "--out", str(demo)],
            cwd=ROOT,
            check=True,
            capture_output=True,
        )
        shot = Path(tmp) / "shot.png"
        subprocess.run(
            [
                chromium,
                "--headless",
                "--no-sandbox",
                "--disable-gpu",
                "--hide-scrollbars",
                "--force-device-scale-factor=1",
                "--disable-background-networking",
                "--no-first-run",
                f"--user-data-dir={Path(tmp) / 'profile'}",
                f"--window-size={WIDTH},{HEIGHT}",
                "--virtual-time-budget=3000",
                f"--screenshot={shot}",
                (demo / "report.html").as_uri(),
            ],
            check=True,
            capture_output=True,
            timeout=120,
        )
        args.out.write_bytes(shot.read_bytes())
    print(f"wrote {args.out} ({args.out.stat().st_size:,} bytes)")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
