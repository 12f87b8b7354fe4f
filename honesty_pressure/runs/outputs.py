"""Writing a score or an advance into its folder: the step after every input has been checked.

`write_scoring` streams a checked score (pipeline.py) into a folder, swapped in whole;
`advance_files` makes an advance's files from reply files and `write_run` commits them into a run
folder, refusing to mix two runs (`advance_into` is the two for a Python caller, who gets back the
round written); `advance_log` is the commands.jsonl an advance records; `spool_folder` is where a
score keeps its lines until they are written in order. The CLI and any Python caller share them.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from pathlib import Path

from ..core.arguments import choice, optional_text, path, paths
from ..core.construct import PROTOCOLS, Format, Protocol
from ..core.errors import InputError, UsageError
from ..core.limits import MAX_PACKET_FILE_BYTES
from ..core.progress import SILENT, Meter
from ..files.folders import FolderWriter, Kind, open_writer, target_path
from ..files.store import StrPath, is_file, read_bounded
from ..rounds.advance import FROZEN_FILE, RUN_FILE, ParentSet, advance_round, parents_of_round
from ..rounds.runcheck import relink
from ..runners.envelopes import ReplyFile, read_replies
from .pipeline import COMMANDS_FILE, LARGE, SMALL, Scoring, by_file_name, run_log_bytes

__all__ = [
    "advance_files",
    "advance_into",
    "advance_log",
    "spool_folder",
    "write_run",
    "write_scoring",
]


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
    # from_run names the parent run by its own path; the run names it relative to itself.
    writer.commit(relink(files, run), "run", keep=not differs)


def advance_files(
    parents: ParentSet,
    replies: Sequence[Path],
    *,
    chain: Mapping[str, bytes],
    fmt: Format | None,
    protocol: Protocol,
    require_complete: bool,
    retry_refused: bool,
    command: str | None,
    meter: Meter = SILENT,
) -> dict[str, bytes]:
    """What an advance writes into its run folder: the replies frozen and the next round built
    (frozen.jsonl, run.json, roundK.jsonl, roundK.key.jsonl), the chain.json that names the
    parents' run (`from_run`'s, for parents past round 1) and, with a `command`, its
    commands.jsonl."""
    # As `advance --protocol` holds it, before any read; the command is written into a file.
    choice(protocol, "protocol", PROTOCOLS)
    optional_text(command, "command")
    envelopes, reads = read_replies(paths(replies, "replies"), fmt)
    made = advance_round(
        parents,
        envelopes,
        protocol=protocol,
        require_complete=require_complete,
        where=str(replies[0]) if replies else None,
        meter=meter,
        retry_refused=retry_refused,
    )
    files = {**made.files, **chain}
    if command is not None:
        files[COMMANDS_FILE] = advance_log(command, reads)
    return files


def advance_into(
    parents: ParentSet,
    replies: Sequence[StrPath],
    run: StrPath,
    *,
    chain: Mapping[str, bytes] | None = None,
    fmt: Format | None = None,
    protocol: Protocol = "default",
    require_complete: bool = False,
    retry_refused: bool = False,
    force: bool = False,
    command: str | None = None,
) -> ParentSet:
    """`advance --run RUN` in Python: freeze the replies to `parents`, build the next round and
    write it into the run folder `run` (made if absent), with the CLI's rules: only a folder the
    kit made is written, a run that holds other frozen replies or parents is refused unless
    `force` replaces it whole, and the set appears whole or not at all. Returns the round written
    (its forks to send and their keys, by packet id), as `from_run` would read it back: the
    parents of the round after. Parents past round 1 (`from_run`'s) come with its chain file."""
    if parents.round > 1 and not chain:
        raise UsageError(
            f"parents of round {parents.round} come from a run: pass the chain files from_run "
            "gave with them (chain=), which the new run carries"
        )
    if parents.round == 1 and chain:
        raise UsageError("a layer's packets carry no chain: chain= goes with from_run's parents")
    folder = path(run, "run")
    with open_writer(folder, ("run",), replace=force) as writer:
        files = advance_files(
            parents,
            paths(replies, "replies"),
            chain=chain or {},
            fmt=fmt,
            protocol=protocol,
            require_complete=require_complete,
            retry_refused=retry_refused,
            command=command,
        )
        write_run(writer, folder, files, force=force)
    return parents_of_round(parents, files, str(folder))
