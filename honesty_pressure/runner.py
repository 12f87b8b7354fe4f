"""`run --runner CMD`: drive both rounds through any external command.

The command reads request JSONL on stdin (in the chosen export format) and writes reply JSONL on
stdout (in any format `score` reads). The kit writes what it sent and what came back into the run
folder, so the run can be re-scored or audited without running the model again. Everything is
built in a temporary folder and moved into place only when both rounds have succeeded.
"""

from __future__ import annotations

import shlex
import subprocess
import tempfile
from collections.abc import Sequence
from pathlib import Path

from .advance import advance, from_layer
from .canonical import jsonl, write_tree
from .construct import Protocol
from .errors import InputError, UsageError
from .export import ExportFormat, export_lines
from .envelopes import detect_format
from .pipeline import COMMANDS_FILE, run_log_bytes, score_run
from .store import JsonObject, PacketFolder, read_jsonl


def call_runner(command: Sequence[str], requests: bytes, label: str) -> bytes:
    """Run the command once with the requests on stdin; its stdout is the replies."""
    try:
        done = subprocess.run(list(command), input=requests, capture_output=True, check=False)
    except OSError as exc:
        raise UsageError(f"--runner: cannot start {command[0]!r}: {exc.strerror or exc}") from None
    if done.returncode != 0:
        first = done.stderr.decode("utf-8", "replace").strip().splitlines()[:1]
        detail = f": {first[0]}" if first else ""
        raise InputError(f"the runner exited with status {done.returncode} on the {label} requests{detail}")
    if not done.stdout.strip():
        raise InputError(f"the runner wrote no replies for the {label} requests")
    return done.stdout


def run_with_runner(
    folder: PacketFolder,
    runner: str,
    out: Path,
    *,
    fmt: ExportFormat = "chat-jsonl",
    model: str = "runner",
    protocol: Protocol = "default",
    bootstrap_seed: int,
    command_line: str | None = None,
) -> dict[str, bytes]:
    command = shlex.split(runner)
    if not command:
        raise UsageError("--runner: give the command to run")
    files: dict[str, bytes] = {}
    with tempfile.TemporaryDirectory(prefix="hp-run-") as tmp:
        work = Path(tmp)
        files["round1.requests.jsonl"] = jsonl(export_lines(list(folder.round1.values()), fmt, model))
        files["round1.replies.jsonl"] = call_runner(command, files["round1.requests.jsonl"], "round-1")
        (work / "round1.replies.jsonl").write_bytes(files["round1.replies.jsonl"])
        files.update(advance(from_layer(folder), [work / "round1.replies.jsonl"], protocol=protocol))
        if command_line is not None:
            files[COMMANDS_FILE] = run_log_bytes(command_line, {"round1.replies.jsonl": detect_format(work / "round1.replies.jsonl")}, "run")
        for name, data in files.items():
            (work / name).write_bytes(data)
        requests: list[JsonObject] = [r for _, r in read_jsonl(work / "round2.jsonl")]
        files["round2.requests.jsonl"] = jsonl(export_lines(requests, fmt, model))
        files["round2.replies.jsonl"] = call_runner(command, files["round2.requests.jsonl"], "round-2")
        (work / "round2.replies.jsonl").write_bytes(files["round2.replies.jsonl"])
        files.update(score_run(work, [work / "round2.replies.jsonl"], folder.folder.parent, bootstrap_seed=bootstrap_seed, command=command_line))
    write_tree(out, files)
    return files
