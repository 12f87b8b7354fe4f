"""The package's public API (docs/API.md): every exported name resolves, and the doc's whole-run
script is ten lines of code, runs as written and prints what it says (so the doc cannot rot)."""

from __future__ import annotations

import importlib.util
import json
import os
import re
import subprocess
import sys
from pathlib import Path

import pytest

import honesty_pressure

ROOT = Path(__file__).resolve().parents[2]
API_DOC = ROOT / "docs" / "API.md"


def test_every_exported_name_resolves() -> None:
    assert "__version__" in honesty_pressure.__all__
    for name in honesty_pressure.__all__:
        assert getattr(honesty_pressure, name) is not None, name
    assert set(honesty_pressure.__all__) <= set(dir(honesty_pressure))


def test_an_unknown_name_is_an_attribute_error() -> None:
    try:
        honesty_pressure.no_such_name  # type: ignore[attr-defined]  # noqa: B018
    except AttributeError as exc:
        assert "no_such_name" in str(exc)
    else:
        raise AssertionError("expected AttributeError")


def test_the_doc_names_every_exported_name() -> None:
    text = API_DOC.read_text(encoding="utf-8")
    for name in honesty_pressure.__all__:
        assert f"`{name}" in text, name


def test_importing_the_package_loads_no_stage() -> None:
    """`import honesty_pressure` (and so `python -m honesty_pressure --help`'s first step) stays
    cheap: the public names are imported on first use."""
    code = (
        "import sys, honesty_pressure; print(sorted(m for m in sys.modules if "
        "m.startswith('honesty_pressure')))"
    )
    done = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, check=True, env=_env()
    )
    assert json.loads(done.stdout.replace("'", '"')) == [
        "honesty_pressure",
        "honesty_pressure.core",
        "honesty_pressure.core.version",
    ]


def script() -> str:
    text = API_DOC.read_text(encoding="utf-8")
    found = re.search(r"<!-- api script -->\n```python\n(.*?)```", text, re.DOTALL)
    assert found is not None, "docs/API.md lost its script"
    return found.group(1)


def code_lines(text: str) -> list[str]:
    """The lines of a script that hold code: not blank, not only a comment."""
    return [
        line for line in text.splitlines() if line.strip() and not line.lstrip().startswith("#")
    ]


def test_the_doc_script_is_ten_lines_of_code_as_ruff_formats_it() -> None:
    """Issue 24: "a ten-line script that does a whole run", imports included, in the style the
    kit's own code keeps (ruff format, line length 100), so no line is crammed past it."""
    text = script()
    assert len(code_lines(text)) <= 10, "\n".join(code_lines(text))
    assert all(len(line) <= 100 for line in text.splitlines())
    if importlib.util.find_spec("ruff") is None:
        pytest.skip("ruff is not installed (the style gate's own check)")
    done = subprocess.run(
        [sys.executable, "-m", "ruff", "format", "--stdin-filename", "script.py", "-"],
        input=text,
        capture_output=True,
        text=True,
        check=True,
        cwd=ROOT,
    )
    assert done.stdout == text


def test_code_lines_counts_code_only() -> None:
    assert code_lines("import json\n\n# a comment\n    # indented\nx = 1  # trailing\n") == [
        "import json",
        "x = 1  # trailing",
    ]


def test_the_doc_script_does_a_whole_run(tmp_path: Path) -> None:
    (tmp_path / "script.py").write_text(script(), encoding="utf-8")
    done = subprocess.run(
        [sys.executable, "script.py"],
        cwd=tmp_path,
        capture_output=True,
        text=True,
        check=False,
        env=_env(),
    )
    assert done.returncode == 0, done.stderr
    lines = done.stdout.splitlines()
    assert len(lines) == 2, done.stdout
    assert lines[0].startswith("round 1 axes: {'control_stability': ")
    index = float(lines[1].removeprefix("honesty index: "))
    assert 0 < index < 1
    # The run folder the script wrote is one `score --run` accepts, and it scored the same.
    summary = json.loads(
        _kit(
            "score", "--run", "run", "--replies", "round2.replies.jsonl", "--out", "s", cwd=tmp_path
        )
    )
    assert summary["honesty_index"] == index


def _kit(*args: str, cwd: Path) -> str:
    done = subprocess.run(
        [sys.executable, "-m", "honesty_pressure", *args],
        cwd=cwd,
        capture_output=True,
        text=True,
        check=False,
        env=_env(),
    )
    assert done.returncode == 0, done.stderr
    return (cwd / "s" / "summary.json").read_text(encoding="utf-8")


def _env() -> dict[str, str]:
    return {
        **os.environ,
        "PYTHONPATH": os.pathsep.join([str(ROOT), os.environ.get("PYTHONPATH", "")]),
    }
