"""Writing a score or an advance into its folder: the step after every input has been checked.

`write_scoring` streams a checked score (pipeline.py) into a folder, swapped in whole;
`write_run` commits an advance's files into a run folder, refusing to mix two runs;
`advance_log` is the commands.jsonl an advance records; `spool_folder` is where a score keeps its
lines until they are written in order. The CLI and any Python caller share them.
"""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path

from ..core.errors import InputError
from ..core.limits import MAX_PACKET_FILE_BYTES
from ..files.folders import FolderWriter, Kind, target_path
from ..files.store import is_file, read_bounded
from ..rounds.advance import FROZEN_FILE, RUN_FILE
from ..runners.envelopes import ReplyFile
from .pipeline import LARGE, SMALL, Scoring, by_file_name, run_log_bytes

__all__ = ["advance_log", "spool_folder", "write_run", "write_scoring"]


def spool_folder(out: Path) -> Path | None:
    """Where a score keeps its lines until they are written in order: beside the output folder
    (the same disk as the output), if that folder's parent exists; else the system's temp folder."""
    parent = target_path(out).parent
    return parent if parent.is_dir() else None


def write_scoring(
    writer: FolderWriter, scoring: Scoring, kind: Kind, *, keep: bool
) -> dict[str, bytes]:
    """Stream a checked score into the writer's folder, swapped in whole; the files written, by
    name (the large ones as empty bytes: they were never held)."""
    try:
        with writer.staged({}, kind, keep=keep, streamed=(*LARGE, *SMALL)) as stage:
            small = scoring.write(stage)
            stage.add(small)
    finally:
        scoring.close()
    return {**dict.fromkeys(LARGE, b""), **small}


def advance_log(command: str, reads: Sequence[ReplyFile]) -> bytes:
    """commands.jsonl for a run: the advance command and the format of the replies it froze."""
    formats = by_file_name([read.path for read in reads], [read.format for read in reads])
    return run_log_bytes(command, formats, "advance")


def write_run(writer: FolderWriter, run: Path, files: dict[str, bytes], *, force: bool) -> None:
    """Commit an advance's files. The run's identity is its frozen replies and its run.json
    (protocol, parents): if either differs, writing into it would mix two runs, so only --force
    may replace it, whole."""
    differs = []
    if writer.existing.state == "kit":
        for name in (FROZEN_FILE, RUN_FILE):
            path = run / name
            if not is_file(path) or read_bounded(path, MAX_PACKET_FILE_BYTES) != files[name]:
                differs.append(name)
    if differs and not force:
        what = (
            "different frozen replies"
            if FROZEN_FILE in differs
            else "another protocol or parent set"
        )
        raise InputError(
            f"this run already holds {what}; choose another --run or pass --force to replace the "
            "whole run",
            file=str(run / differs[0]),
        )
    writer.commit(files, "run", keep=not differs)
