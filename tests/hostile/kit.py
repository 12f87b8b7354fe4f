"""Shared helpers for the hostile-input and fault tests: a small packet set built from a seed,
a run made from it, in-process CLI calls that capture stdout and stderr, and folder snapshots.

Nothing here hard-codes a packet id or count: every test derives them from the packets it uses.
"""

from __future__ import annotations

import contextlib
import io
import json
import os
import re
import subprocess
import sys
from dataclasses import dataclass
from pathlib import Path

from honesty_pressure.cli.main import main
from honesty_pressure.core.canonical import jsonl
from honesty_pressure.files.layer import load_checked_layer
from honesty_pressure.files.store import JsonObject, keyed
from honesty_pressure.generate.generate import packet_tree
from honesty_pressure.generate.prepare import write_packet_set

from ..replies import chat_lines, constant, native_lines

ROOT = Path(__file__).resolve().parents[2]
PROG = "python -m honesty_pressure"
SMALL_SEED = 7


@dataclass(frozen=True, slots=True)
class Result:
    code: int
    out: str
    err: str


def cli(*args: str | Path) -> Result:
    """main() in this process, as a user would call it; never raises (that would be a traceback)."""
    out, err = io.StringIO(), io.StringIO()
    with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
        try:
            code = main([str(a) for a in args])
        except SystemExit as exc:  # argparse usage errors
            code = int(exc.code or 0)
    return Result(code, out.getvalue(), err.getvalue())


def run_in_process(*args: str | Path, cwd: Path = ROOT) -> subprocess.CompletedProcess[str]:
    """`python -m honesty_pressure ARGS` run from `cwd`, called in this process (cli above): the
    same exit status, stdout and stderr as the program's own process, without an interpreter and the
    kit's imports per call, and sharing the memoised packet builds. For a test that is not about
    the process boundary (a signal, an exit, separate processes)."""
    with contextlib.chdir(cwd):
        result = cli(*args)
    return subprocess.CompletedProcess(
        [sys.executable, "-m", "honesty_pressure", *map(str, args)],
        result.code,
        result.out,
        result.err,
    )


_COMMAND = re.compile(rb"python -m honesty_pressure[^<\n]*")


def without_commands(snap: dict[str, bytes | str]) -> dict[str, bytes | str]:
    """A snapshot with the recorded command lines set aside (they name the folder and the runner
    used, which differ between a resumed run and a clean one; everything else must not)."""
    out: dict[str, bytes | str] = {}
    for name, value in snap.items():
        if name.endswith("commands.jsonl"):
            continue
        if isinstance(value, bytes) and name.endswith("summary.json"):
            summary = json.loads(value)
            summary.get("provenance", {}).pop("commands", None)
            value = json.dumps(summary, sort_keys=True).encode()
        elif isinstance(value, bytes) and name.endswith((".md", ".html")):
            value = _COMMAND.sub(b"COMMAND", value)
        out[name] = value
    return out


def _marker_view(folder: Path, data: bytes) -> bytes | str:
    """A marker as what it says: its kind, and each listed entry with its kind and whether the
    folder's entry still matches it (the digests themselves name files whose bytes hold the
    folder's path, which differs between copies of one scenario)."""
    from honesty_pressure.files.folders import entry_problem, read_marker

    marker = read_marker(folder)
    if marker is None or marker.entries is None:
        return data
    listed = [
        f"{rel}={entry.kind}:{'ok' if entry_problem(folder, rel, entry) is None else 'changed'}"
        for rel, entry in sorted(marker.entries.items())
    ]
    return f"<marker {marker.kind}: {' '.join(listed)}>"


def snapshot(path: Path) -> dict[str, bytes | str]:
    """Everything at and below `path`, links as links (never followed), hidden files included
    (a marker as what it lists, see _marker_view)."""
    if os.path.islink(path):
        return {".": f"-> {os.readlink(path)}"}
    if path.is_file():
        return {".": path.read_bytes()}
    out: dict[str, bytes | str] = {}
    if not path.is_dir():
        return out
    for folder, dirs, files in os.walk(path, followlinks=False):
        base = Path(folder)
        for name in dirs + files:
            item = base / name
            rel = str(item.relative_to(path))
            if item.is_symlink():
                out[rel] = f"-> {os.readlink(item)}"
            elif item.is_file():
                out[rel] = item.read_bytes()
                if name == ".honesty_pressure":
                    out[rel] = _marker_view(base, out[rel])  # type: ignore[arg-type]
            else:
                out[rel] = "<dir>"
    return out


def small_packets(folder: Path) -> Path:
    """A quick layer of one source per domain from a seed, with its MANIFEST.sha256."""
    packets = folder / "packets"
    write_packet_set(
        packets, packet_tree(SMALL_SEED, ["quick"], 1), seed=SMALL_SEED, sources_per_domain=1
    )
    return packets


def reply_file(
    path: Path,
    requests: dict[str, JsonObject],
    keys: dict[str, JsonObject],
    code: str = "A",
    fmt: str = "native",
) -> Path:
    lines = (
        native_lines(requests, keys, constant(code))
        if fmt == "native"
        else chat_lines(requests, keys, constant(code))
    )
    path.write_bytes(jsonl(lines))
    return path


def make_run(folder: Path, packets: Path) -> tuple[Path, Path]:
    """A round-2 run of the small set and a reply file for its forks."""
    layer = load_checked_layer(packets, "quick")
    r1 = reply_file(folder / "r1.jsonl", layer.round1, layer.key)
    run = folder / "run"
    assert (
        cli("advance", "--layer", "quick", "--packets", packets, "--replies", r1, "--run", run).code
        == 0
    )
    r2 = reply_file(
        folder / "r2.jsonl", keyed(run / "round2.jsonl"), keyed(run / "round2.key.jsonl"), "B"
    )
    return run, r2


def one_line_naming(result: Result, command: str, where: str) -> str:
    """The promise for bad input: exit 2, one stderr line from the command, naming the file."""
    assert result.code == 2, (result.code, result.err)
    lines = result.err.splitlines()
    assert len(lines) == 1, result.err
    assert lines[0].startswith(f"{PROG} {command}: "), lines[0]
    assert "Traceback" not in result.err and "internal error" not in result.err, lines[0]
    assert where in lines[0], (where, lines[0])
    return lines[0]


def advance_force(run: Path, packets: Path, folder: Path) -> Result:
    """`advance --force` over `run` with other round-1 replies (a whole-run replacement)."""
    layer = load_checked_layer(packets, "quick")
    other = reply_file(folder / "other.jsonl", layer.round1, layer.key, "B")
    return cli(
        "advance",
        "--layer",
        "quick",
        "--packets",
        packets,
        "--replies",
        other,
        "--run",
        run,
        "--force",
    )
