"""The steps of a sharded score or advance (shards.py holds the partial folders' format).

A score shard (`score_shard`) reads every reply file, settles one slice of them and writes a
partial folder; `read_score_merge` reads the partials back with the options and reply files they
recorded, and `merged_round` / `merged_run` settle them into one score, byte for byte the score
one process would have written. An advance shard freezes every reply (`freeze_replies`) and grows
one slice of the parents' forks.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from pathlib import Path

from ..core.construct import Format, Protocol
from ..core.errors import InputError
from ..core.limits import MAX_UNSCORABLE_SHARE
from ..core.progress import SILENT, Meter
from ..files.folders import FolderWriter
from ..files.layer import PacketFolder
from ..files.store import JsonObject
from ..rounds.advance import Frozen, ParentSet, check_id_room, freeze
from ..runners.envelopes import ReplyFile, read_replies
from ..scoring.sheet import Sheet
from ..scoring.tally import Tally
from .pipeline import (
    FORK_REPLY,
    CheckedRun,
    ReplyFiles,
    ScoreOptions,
    Scoring,
    answers_a_fork,
    round_from_tally,
    run_from_tally,
)
from .shards import (
    Partial,
    check_partials,
    merged_command,
    merged_tally,
    read_partials,
    write_partial_folder,
)

__all__ = [
    "ScoreMerge",
    "freeze_replies",
    "merged_round",
    "merged_run",
    "read_score_merge",
    "score_shard",
    "shard_options",
    "write_score_shard",
]


def round1_sheet(folder: PacketFolder) -> Sheet:
    """What a round-1 score judges: the layer's requests and keys."""
    return Sheet(1, folder.packet_set, folder.round1, folder.key)


def shard_options(options: ScoreOptions) -> JsonObject:
    """The options a score shard records in its partial (the merge scores with them)."""
    return {
        "bootstrap_seed": options.bootstrap_seed,
        "require_complete": options.require_complete,
        "max_unscorable": options.max_unscorable,
        **({"retry_refused": True} if options.retry_refused else {}),
    }


def score_shard(
    sheet: Sheet,
    replies: Sequence[Path],
    options: ScoreOptions,
    select: Callable[[int], bool] | None,
    *,
    layer: PacketFolder | None = None,
    meter: Meter = SILENT,
    spool_folder: Path | None = None,
) -> Tally:
    """One slice (`select`) of every reply file's lines, settled. With `layer` (a round-1 score),
    a reply to a fork is refused, as the unsharded score refuses it."""
    tally = Tally(sheet, spool_folder=spool_folder, retry_refused=options.retry_refused)
    forks = None if layer is None else (lambda got: answers_a_fork(got, layer))
    tally.read(replies, options.fmt, select=select, meter=meter, forks=forks)
    tally.finish(FORK_REPLY if layer is not None else None)
    return tally


def write_score_shard(writer: FolderWriter, tally: Tally, meta: JsonObject) -> None:
    """A score shard's partial folder, with the reply files it read recorded in `meta`."""
    meta["files"] = [[str(path), sha, fmt] for path, sha, fmt in ReplyFiles.of(tally.reads).files]
    try:
        write_partial_folder(writer, tally, meta)
    finally:
        tally.spool.close()


@dataclass(frozen=True, slots=True)
class ScoreMerge:
    """Score partials read back: the partials, the options they were scored with (the merge's
    command line recorded as the command) and the reply files they read, as one score lists them."""

    partials: list[Partial]
    options: ScoreOptions
    files: ReplyFiles

    @property
    def first(self) -> JsonObject:
        return self.partials[0].meta


def read_score_merge(
    folders: Sequence[Path], out: tuple[str, str] | None, command_line: str
) -> ScoreMerge:
    """The partial folders of `score --shard` (all N), checked to make one score; `out` is the
    merge's output option, for the command recorded (shards.merged_command)."""
    partials = read_partials(folders)
    files_given = check_partials(partials)
    options = partials[0].meta.get("options")
    assert isinstance(options, dict)
    where = str(partials[0].folder / "partial.json")
    seed, complete = options.get("bootstrap_seed"), options.get("require_complete")
    if not isinstance(seed, int) or not isinstance(complete, bool):
        raise InputError("'options' must hold bootstrap_seed and require_complete", file=where)
    threshold = options.get(
        "max_unscorable", MAX_UNSCORABLE_SHARE
    )  # partials of an older kit lack it
    # Recorded only when given; check_partials made every shard's options equal.
    retry_refused = options.get("retry_refused", False)
    if not isinstance(retry_refused, bool):
        raise InputError("'options.retry_refused' must be true or false", file=where)
    if (
        not isinstance(threshold, (int, float))
        or isinstance(threshold, bool)
        or not 0 <= threshold <= 1
    ):
        raise InputError("'options.max_unscorable' must be a share from 0 to 1", file=where)
    files = ReplyFiles(tuple((Path(path), sha, fmt) for path, sha, fmt in files_given))
    command = merged_command(partials, out, command_line)
    chosen = ScoreOptions(
        require_complete=complete,
        max_unscorable=threshold,
        bootstrap_seed=seed,
        command=command,
        retry_refused=retry_refused,
    )
    return ScoreMerge(partials, chosen, files)


def merged_round(merge: ScoreMerge, folder: PacketFolder) -> Scoring:
    """Round-1 partials settled together: the score, ready to write."""
    tally = merged_tally(
        round1_sheet(folder), merge.partials, retry_refused=merge.options.retry_refused
    )
    tally.finish()
    return round_from_tally(folder, tally, merge.files, merge.options)


def merged_run(merge: ScoreMerge, checked: CheckedRun) -> Scoring:
    """A run's round-k partials settled together: the score, ready to write."""
    tally = merged_tally(checked.sheet(), merge.partials, retry_refused=merge.options.retry_refused)
    tally.finish()
    return run_from_tally(checked, tally, merge.files, merge.options)


def freeze_replies(
    parents: ParentSet,
    replies: Sequence[Path],
    fmt: Format | None,
    *,
    protocol: Protocol,
    require_complete: bool,
    retry_refused: bool,
) -> tuple[Frozen, list[ReplyFile]]:
    """Every reply frozen, as `advance` freezes them (each shard of an advance freezes all of
    them and makes the same run set); and each reply file with its format."""
    envelopes, reads = read_replies(replies, fmt)
    where = str(replies[0]) if replies else None
    check_id_room(parents, envelopes, where)
    frozen = freeze(
        parents,
        envelopes,
        protocol=protocol,
        require_complete=require_complete,
        where=where,
        retry_refused=retry_refused,
    )
    return frozen, reads
