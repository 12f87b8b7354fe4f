"""`run --rounds N`: rounds 3..N of a run, each advanced from the round before's replies.

The run folder keeps round 1 and round 2 exactly as `run` always has (its top level is the
round-2 run, scored as today). Round k >= 3 lives in `round<k>/`: a run folder as `advance
--from-run` makes it (frozen.jsonl of round k-1's replies, run.json, round<k>.jsonl, its key, and
chain.json, which names the round-(k-1) run beside it by path and digest), with
`round<k>.requests.jsonl`, `round<k>.replies.jsonl` and, once its replies are in, the scored
files (records.jsonl, summary.json, REPORT.md, report.html). So `score --run RUN/round<k>`,
`export --run`, `advance --from-run` and `compare` work on any round, and
every round is checked as today: the score of round k checks the whole chain byte for byte (the
rounds this call built by their digests, the others rebuilt), reading each earlier round once.

Every step is one swap of the whole folder (folders.py), and each is taken only when its
files are missing, so `run` again resumes at any point: a round whose folder exists is not
advanced again, a round still open sends only requests without a reply, a scored round is done.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Final

from ..core.canonical import jsonl
from ..core.construct import Protocol
from ..core.errors import UsageError
from ..files.folders import FolderWriter
from ..files.layer import PacketFolder
from ..files.store import files_digest, json_object
from ..rounds.advance import (
    RUN_FILE,
    Built,
    ParentSet,
    build,
    from_layer,
    parents_of_round,
    run_files,
)
from ..rounds.runcheck import CHAIN_FILE, Vouch, link_bytes, vouch
from ..rounds.sustained import MAX_ROUNDS, MIN_ROUNDS, NAME
from ..runners.export import ExportFormat, RequestOptions, export_lines
from .conversation import depth_json
from .failfast import FailFast
from .pipeline import ScoreOptions, score_run
from .runner import SCORE_FILES, Round, has_replies, read_file, replies_of, send

CHAINED_PROTOCOLS: Final = (NAME,)
"""Protocols `run` chains past round 2. The default protocol makes four forks per parent every
round (440 x 4^(N-1) requests on the quick layer), so a deeper default chain is built by hand
with `advance --from-run`, where each round's cost is seen before it is sent."""


def check_rounds(rounds: int, protocol: Protocol) -> None:
    if not MIN_ROUNDS <= rounds <= MAX_ROUNDS:
        raise UsageError(f"--rounds must be from {MIN_ROUNDS} to {MAX_ROUNDS}")
    if rounds > 2 and protocol not in CHAINED_PROTOCOLS:
        raise UsageError(
            f"--rounds {rounds} needs --protocol {NAME} (one fork per parent and round); the "
            f"{protocol} protocol grows four-fold or more per round: chain it by hand with advance "
            "--from-run"
        )


def folder_of(k: int) -> str:
    """Where round k's run lives inside the run folder ("" for round 2: the top level)."""
    return "" if k == 2 else f"round{k}"


def parents_of_built(parents: ParentSet, made: Built, where: str) -> ParentSet:
    """The round `made` (built from `parents`) as the parents of the next, from its records
    (what `parents_of_round` reads back from its files, without parsing them)."""
    k = parents.round + 1
    info = json_object(made.files[RUN_FILE], f"{where}/{RUN_FILE}")
    return ParentSet(
        round=k,
        layer=str(info.get("layer")),
        packet_set=str(info.get("packet_set")),
        parent_set=str(info.get("run_set")),
        seed=int(str(info.get("seed"))),
        surface=parents.surface,
        requests={str(record["packet_id"]): record for record in made.requests},
        keys={str(record["packet_id"]): record for record in made.keys},
        source=files_digest(made.files, run_files(k)),
    )


def link_of(k: int, sha256: str) -> bytes:
    """Round k's chain.json: the round-(k-1) run beside it in the run folder (`sha256`: the
    digest of its run files)."""
    path = ".." if k == 3 else f"../{folder_of(k - 1)}"
    return link_bytes(k - 1, sha256, path)


def later_rounds(
    writer: FolderWriter,
    out: Path,
    folder: PacketFolder,
    command: Sequence[str],
    *,
    rounds: int,
    protocol: Protocol,
    fmt: ExportFormat,
    model: str | None,
    options: RequestOptions | None,
    bootstrap_seed: int,
    command_line: str | None,
    idle_timeout: float,
    timeout: float,
    top: ScoreOptions,
    fail_fast: FailFast | None = None,
    built: Sequence[Vouch] = (),
) -> dict[str, bytes]:
    """Rounds 3..`rounds` of a run whose round 2 is scored (with `top`); then the top (round 2's)
    score again, leading with the whole chain's result (`refresh_top`). Returns the top's scored
    files. `built`: the digests of round 2 if the caller built it (each score's check compares
    with them instead of building round 2 again)."""
    level = {name: read_file(out, name) or b"" for name in run_files(2)}
    parents = parents_of_round(from_layer(folder), level, str(out))
    # Only the digest of the round before is kept (for the next chain.json), never its files.
    level_sha256 = files_digest(level, run_files(2))
    del level
    files: dict[str, bytes] = {}
    # The rounds this call builds, as digests (a few per round, never the rounds themselves):
    # each score's check compares with them instead of building them again.
    vouched: list[Vouch] = list(built)
    for k in range(3, rounds + 1):
        sub = folder_of(k)
        here = out / sub
        latest: list[Built] = []
        if read_file(here, RUN_FILE) is None:
            previous = Round(
                k=k - 1,
                records=parents.requests,
                lines=[],
                run_set=parents.parent_set,
                folder=folder_of(k - 1),
            )
            where = str(out / previous.replies)
            made = build(parents, replies_of(out, previous), protocol=protocol, where=where)
            known = vouch(made)
            if known is not None:
                vouched.append(known)
            round_files = {
                **made.files,
                f"round{k}.requests.jsonl": jsonl(
                    export_lines(made.requests, fmt, model, options=options)
                ),
                CHAIN_FILE: link_of(k, level_sha256),
            }
            writer.commit(
                {f"{sub}/{name}": data for name, data in round_files.items()}, "run", keep=True
            )
            level_sha256 = files_digest(made.files, run_files(k))
            # The round's records as built are its files' (the check below holds them to it):
            # the next parents and the score's sheet use them, never a parse of the files.
            parents = parents_of_built(parents, made, str(here))
            latest = [dataclasses.replace(made, files={})]
            del made, round_files
        else:
            level = {name: read_file(here, name) or b"" for name in run_files(k)}
            parents = parents_of_round(parents, level, str(here))
            level_sha256 = files_digest(level, run_files(k))
            del level
        scored = {name: read_file(here, name) for name in SCORE_FILES}
        if all(data is not None for data in scored.values()):
            files = {name: data for name, data in scored.items() if data is not None}
            continue
        lines = export_lines(list(parents.requests.values()), fmt, model, options=options)
        current = Round(
            k=k, records=parents.requests, lines=lines, run_set=parents.parent_set, folder=sub
        )
        send(
            writer,
            command,
            out,
            current,
            idle_timeout=idle_timeout,
            timeout=timeout,
            fail_fast=fail_fast,
        )
        replies = [out / current.replies] if has_replies(out, current) else []
        del lines, current  # sent: only the parents are needed past this point
        files = score_run(
            here,
            replies,
            folder.folder.parent,
            ScoreOptions(bootstrap_seed=bootstrap_seed, command=command_line),
            built=[*vouched, *latest],
        )
        writer.commit({f"{sub}/{name}": data for name, data in files.items()}, "run", keep=True)
    return refresh_top(writer, out, folder, rounds, files, top, built=vouched)


def refresh_top(
    writer: FolderWriter,
    out: Path,
    folder: PacketFolder,
    rounds: int,
    last: Mapping[str, bytes],
    options: ScoreOptions,
    *,
    built: Sequence[Vouch] = (),
) -> dict[str, bytes]:
    """The run folder's top report (round 2's) is the one a lab opens first, and round 2 was
    scored before any later round existed: once round N is scored, round 2 is scored again with
    round N's result in its summary's `depth` (conversation.depth_json), so its report leads with
    the whole conversation and links every round's. Done only when that `depth` is not already
    the top's (a finished run, run again, changes nothing). `built`: the digests of the rounds
    the caller built (round 2's, if it did: its check compares with them, not a rebuild)."""
    depth = depth_json(json_object(last["summary.json"], str(out / f"round{rounds}")), rounds)
    current = {name: read_file(out, name) for name in SCORE_FILES}
    summary = current.get("summary.json")
    if summary is not None and json_object(summary, str(out)).get("depth") == depth:
        return {name: data for name, data in current.items() if data is not None}
    second = Round(k=2, records={}, lines=[], run_set="")  # where round 2's replies are
    files = score_run(
        out,
        [out / second.replies] if has_replies(out, second) else [],  # as run.py scored it
        folder.folder.parent,
        options,
        amend=lambda made: made.__setitem__("depth", depth),
        built=built,
    )
    writer.commit(files, "run", keep=True)
    return files


__all__ = ["CHAINED_PROTOCOLS", "check_rounds", "folder_of", "later_rounds", "refresh_top"]
