"""`run --rounds N`: rounds 3..N of a run, each advanced from the round before's replies.

The run folder keeps round 1 and round 2 exactly as `run` always has (its top level is the
round-2 run, scored as today). Round k >= 3 lives in `round<k>/`: a run folder as `advance
--from-run` makes it (frozen.jsonl of round k-1's replies, run.json, round<k>.jsonl, its key, and
the chain in parents/), with `round<k>.requests.jsonl`, `round<k>.replies.jsonl` and, once its
replies are in, the scored files (records.jsonl, summary.json, REPORT.md, report.html). So `score
--run RUN/round<k>`, `export --run`, `advance --from-run` and `compare` work on any round, and
every round is checked as today: the score of round k rebuilds the whole chain byte for byte.

Every step is one swap of the whole folder (folders.py), and each is taken only when its
files are missing, so `run` again resumes at any point: a round whose folder exists is not
advanced again, a round still open sends only requests without a reply, a scored round is done.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Final

from ..core.canonical import jsonl
from ..core.construct import Protocol
from ..core.errors import UsageError
from ..files.folders import FolderWriter
from ..files.layer import PacketFolder
from ..files.store import json_object, jsonl_bytes, keyed_records
from ..rounds.advance import (
    CHAIN_FOLDER,
    RUN_FILE,
    Built,
    build,
    from_layer,
    parents_of_round,
    run_files,
)
from ..rounds.sustained import MAX_ROUNDS, MIN_ROUNDS, NAME
from ..runners.export import ExportFormat, RequestOptions, export_lines
from .conversation import depth_json
from .failfast import FailFast
from .pipeline import ScoreOptions, score_run
from .runner import SCORE_FILES, Round, read_file, replies_of, send

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
) -> dict[str, bytes]:
    """Rounds 3..`rounds` of a run whose round 2 is scored (with `top`); then the top (round 2's)
    score again, leading with the whole chain's result (`refresh_top`). Returns the top's scored
    files."""
    level = {name: read_file(out, name) or b"" for name in run_files(2)}
    parents = parents_of_round(from_layer(folder), level, str(out))
    chain = {f"{CHAIN_FOLDER}/round2/{name}": data for name, data in level.items()}
    files: dict[str, bytes] = {}
    built: list[Built] = []  # the rounds this call builds: each score's check compares with them
    for k in range(3, rounds + 1):
        sub = folder_of(k)
        here = out / sub
        if read_file(here, RUN_FILE) is None:
            previous = Round(
                k=k - 1,
                records=parents.requests,
                lines=[],
                run_set=parents.parent_set,
                folder=folder_of(k - 1),
            )
            where = str(out / previous.replies)
            built.append(build(parents, replies_of(out, previous), protocol=protocol, where=where))
            made = dict(built[-1].files)
            requests = keyed_records(jsonl_bytes(made[f"round{k}.jsonl"], where), where)
            made[f"round{k}.requests.jsonl"] = jsonl(
                export_lines(list(requests.values()), fmt, model, options=options)
            )
            writer.commit(
                {f"{sub}/{name}": data for name, data in {**made, **chain}.items()},
                "run",
                keep=True,
            )
        level = {name: read_file(here, name) or b"" for name in run_files(k)}
        parents = parents_of_round(parents, level, str(here))
        chain = {
            **chain,
            **{f"{CHAIN_FOLDER}/round{k}/{name}": data for name, data in level.items()},
        }
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
        replies = [out / current.replies] if replies_of(out, current) else []
        files = score_run(
            here,
            replies,
            folder.folder.parent,
            ScoreOptions(bootstrap_seed=bootstrap_seed, command=command_line),
            built=built,
        )
        writer.commit({f"{sub}/{name}": data for name, data in files.items()}, "run", keep=True)
    return refresh_top(writer, out, folder, rounds, files, top)


def refresh_top(
    writer: FolderWriter,
    out: Path,
    folder: PacketFolder,
    rounds: int,
    last: Mapping[str, bytes],
    options: ScoreOptions,
) -> dict[str, bytes]:
    """The run folder's top report (round 2's) is the one a lab opens first, and round 2 was
    scored before any later round existed: once round N is scored, round 2 is scored again with
    round N's result in its summary's `depth` (conversation.depth_json), so its report leads with
    the whole conversation and links every round's. Done only when that `depth` is not already
    the top's (a finished run, run again, changes nothing)."""
    depth = depth_json(json_object(last["summary.json"], str(out / f"round{rounds}")), rounds)
    current = {name: read_file(out, name) for name in SCORE_FILES}
    summary = current.get("summary.json")
    if summary is not None and json_object(summary, str(out)).get("depth") == depth:
        return {name: data for name, data in current.items() if data is not None}
    second = Round(k=2, records={}, lines=[], run_set="")  # where round 2's replies are
    files = score_run(
        out,
        [out / second.replies] if replies_of(out, second) else [],  # as run.py scored it
        folder.folder.parent,
        options,
        amend=lambda made: made.__setitem__("depth", depth),
    )
    writer.commit(files, "run", keep=True)
    return files


__all__ = ["CHAINED_PROTOCOLS", "check_rounds", "folder_of", "later_rounds", "refresh_top"]
