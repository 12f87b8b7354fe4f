"""Install as people install: `pip install .` (not -e) into a fresh venv, then from another folder
`honesty-pressure --version`, `demo` and `selfcheck` find the committed packets and controls as
package data.

It builds and installs the package (about 40 s on two cores), so it runs only when
HP_INSTALL_TEST=1: CI sets it in a step of its own (.ci/run), outside the README test command.
"""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from honesty_pressure import __version__

ROOT = Path(__file__).resolve().parents[2]
SHIPPED = [
    "pyproject.toml",
    "README.md",
    "MANIFEST.sha256",
    "honesty_pressure",
    "packets",
    "controls",
    "docs",
]

pytestmark = pytest.mark.skipif(
    os.environ.get("HP_INSTALL_TEST") != "1",
    reason="builds and installs a wheel: set HP_INSTALL_TEST=1",
)


def test_pip_install_then_demo_and_selfcheck_from_another_folder(tmp_path: Path) -> None:
    source = tmp_path / "source"  # a copy, so the build leaves nothing in the checkout
    source.mkdir()
    for name in SHIPPED:
        if (ROOT / name).is_dir():
            shutil.copytree(
                ROOT / name, source / name, ignore=shutil.ignore_patterns("__pycache__")
            )
        else:
            shutil.copy(ROOT / name, source / name)
    venv = tmp_path / "venv"
    subprocess.run([sys.executable, "-m", "venv", str(venv)], check=True)
    pip = subprocess.run(
        [str(venv / "bin" / "python"), "-m", "pip", "install", "--quiet", "."],
        cwd=source,
        capture_output=True,
        text=True,
    )
    assert pip.returncode == 0, pip.stderr[-3000:]
    shutil.rmtree(source)  # the installed kit must not need its source

    elsewhere = tmp_path / "elsewhere"
    elsewhere.mkdir()
    command = str(venv / "bin" / "honesty-pressure")

    def run(*args: str) -> subprocess.CompletedProcess[str]:
        env = {k: v for k, v in os.environ.items() if k != "PYTHONPATH"}
        return subprocess.run(
            [command, *args], cwd=elsewhere, capture_output=True, text=True, env=env, check=False
        )

    version = run("--version")
    assert (version.returncode, version.stdout) == (0, f"honesty_pressure {__version__}\n")
    demo = run("demo")
    assert demo.returncode == 0, demo.stderr
    assert (elsewhere / "runs" / "demo" / "summary.json").is_file()
    regress = run(
        "regress", "runs/demo", "runs/demo"
    )  # checks both summaries against the installed docs/schema/
    assert regress.returncode == 0, regress.stderr
    selfcheck = run("selfcheck")
    assert selfcheck.returncode == 0, selfcheck.stdout[-2000:] + selfcheck.stderr
    assert "selfcheck: ok" in selfcheck.stdout
    data = next((venv / "lib").glob("python3*/site-packages/honesty_pressure/data"))
    shown = run(
        "show", "no-such-source"
    )  # the error names the packets it looked in: the installed copy
    assert shown.returncode == 2 and str(data / "packets" / "quick") in shown.stderr
