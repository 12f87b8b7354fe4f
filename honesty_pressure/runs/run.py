"""`run --runner CMD`: drive both rounds through any external command, resumably.

The command reads request JSONL on stdin (in the chosen export format) and writes reply JSONL on
stdout (in any format `score` reads); runner.py calls it, one round at a time. Everything lives in
the run folder, nothing elsewhere:

- `round<k>.requests.jsonl`: every request of round k, as exported;
- `request.json`: what shaped the requests beyond the packets (format, model, samples, protocol,
  sampling options), so a resume with another `--model` is refused even where the format does not
  write the model into the requests (chat-jsonl, inspect);
- `round<k>.replies.jsonl`: the runner's stdout, appended as it arrives (a paid-for reply is on
  disk as soon as the runner has written it, and survives a crash of the runner or of `run`);
- when round 1 closes: `frozen.jsonl`, `run.json`, `round2.jsonl`, `round2.key.jsonl` (advance);
- when round 2 closes: `records.jsonl`, `summary.json`, `REPORT.md`, `report.html` (score);
- rounds 3..N, with `--rounds N`: in `round<k>/` (later_rounds.py).

Each of those steps is one swap of the whole folder (folders.py). Running `run` again on the same
folder (or with `--resume`) continues where it stopped: a round still open sends only the requests
that have no reply yet (a reply counts for the request whose id it carries, checked against the
request's request_sha256 where its format allows); a closed round is never sent again.
"""

from __future__ import annotations

import json
import os
import shlex
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Final

from ..core.canonical import dumps, jsonl
from ..core.construct import Envelope, Protocol
from ..core.errors import Incomplete, OutputError, UsageError
from ..core.limits import MAX_SMALL_JSON_BYTES, MAX_UNSCORABLE_SHARE
from ..files.folders import FolderWriter, open_writer
from ..files.layer import PacketFolder
from ..files.schema import require
from ..files.store import (
    JsonObject,
    json_object,
    jsonl_bytes,
    keyed_records,
    read_bounded,
    read_json,
)
from ..rounds.advance import FROZEN_FILE, RUN_FILE, build, from_layer
from ..rounds.runcheck import Vouch, vouch
from ..runners.envelopes import detect_format, refused, runner_failed
from ..runners.export import ExportFormat, RequestOptions, export_lines
from .failfast import DEFAULT_FAIL_FAST, FailFast
from .later_rounds import check_rounds, later_rounds
from .pipeline import COMMANDS_FILE, ScoreOptions, run_log_bytes, score_run
from .runner import (
    DEFAULT_IDLE_TIMEOUT,
    DEFAULT_TIMEOUT,
    SCORE_FILES,
    Round,
    answers_in,
    answers_of,
    has_replies,
    read_file,
    replies_of,
    send,
    slot_of,
    stop_on_signals,
)


def run_with_runner(
    folder: PacketFolder,
    runner: str,
    out: Path,
    *,
    fmt: ExportFormat = "chat-jsonl",
    model: str | None = None,
    protocol: Protocol = "default",
    bootstrap_seed: int,
    command_line: str | None = None,
    options: RequestOptions | None = None,
    force: bool = False,
    resume: bool = False,
    idle_timeout: float = DEFAULT_IDLE_TIMEOUT,
    timeout: float = DEFAULT_TIMEOUT,
    rounds: int = 2,
    retry_failed: bool = False,
    max_unscorable: float = MAX_UNSCORABLE_SHARE,
    samples: int = 1,
    retry_refused: bool = False,
    fail_fast: int = DEFAULT_FAIL_FAST,
) -> dict[str, bytes]:
    """Both rounds (rounds 2..`rounds` with the sustained protocol: later_rounds.py), resumable;
    returns round 2's scored files (all of which, and every later round's, are in the run folder).

    Round 1 closes only when its share of requests without an answer (runner errors, no reply)
    is at most `max_unscorable`; past it, `run` stops with Incomplete and round 1 stays open. With
    `retry_failed`, round 1 and round 2 resend only the requests whose reply is a runner error or
    missing (a finished run is scored again with the answers that came back); with `retry_refused`
    too, those whose reply is a refusal, each retry's answer then taking the refusal's place (a
    closed round 1 is never sent again, so its refusals stay). With `fail_fast` N (0: off), the
    first request this call sends goes alone first and a runner error in its reply stops the run,
    as do N errors and no answer at the start of any round's others (runner.send): a dead endpoint
    is Incomplete within seconds."""
    if retry_refused and not retry_failed:
        raise UsageError(
            "--retry-refused goes with --retry-failed (resend the refusals as well as the failures)"
        )
    check_rounds(rounds, protocol)
    gate = FailFast(fail_fast)  # one preflight for the whole call, shared by its rounds
    try:
        command = shlex.split(runner)
    except ValueError as exc:
        raise UsageError(f"--runner: cannot split the command ({exc})") from None
    if not command:
        raise UsageError("--runner: give the command to run")
    # `samples` replies per round-1 packet; round 2 forks every one of them, each fork sent once.
    r1_lines = export_lines(
        list(folder.round1.values()), fmt, model, samples=samples, options=options
    )
    r1_requests = jsonl(r1_lines)
    shape = request_shape(
        fmt=fmt,
        model=model,
        samples=samples,
        protocol=protocol,
        options=options or RequestOptions(),
    )
    with stop_on_signals(), open_writer(out, ("run",), replace=force) as writer:
        _start(writer, out, r1_requests, shape, force=force, resume=resume)
        first = Round(k=1, records=folder.round1, lines=r1_lines, run_set=folder.packet_set)
        # Round 2's digests, when this call builds it: its score's check, and every later
        # round's, compares with them instead of building it again (the round itself is let go).
        built: list[Vouch] = []
        second: Round | None = None  # round 2's requests, when this call builds them
        if read_file(out, RUN_FILE) is None:
            send(
                writer,
                command,
                out,
                first,
                idle_timeout=idle_timeout,
                timeout=timeout,
                retry_failed=retry_failed,
                retry_refused=retry_refused,
                fail_fast=gate,
            )
            answered = replies_of(out, first)  # read once: checked, then built from
            _check_round1(out, first, answered, max_unscorable, retry_refused)
            made = build(
                from_layer(folder),
                answered,
                protocol=protocol,
                where=str(out / first.replies),
                retry_refused=retry_refused,
            )
            del answered
            built += [v for v in [vouch(made)] if v is not None]
            files = dict(made.files)
            if command_line is not None:
                files[COMMANDS_FILE] = run_log_bytes(
                    command_line, {first.replies: detect_format(out / first.replies)}, "run"
                )
            # round2.jsonl's records as built (never a parse of the bytes just made from them),
            # exported once for round2.requests.jsonl and the round `send` takes
            lines = export_lines(made.requests, fmt, model, options=options)
            files["round2.requests.jsonl"] = jsonl(lines)
            records = {str(record["packet_id"]): record for record in made.requests}
            del made
            writer.commit(files, "run", keep=True)
            run_set = str(_run_info(out, protocol)["run_set"])
            second = Round(k=2, records=records, lines=lines, run_set=run_set)
            del records, lines
        if second is None:
            second = _second(out, _run_info(out, protocol), fmt, model, options)
        scoring = ScoreOptions(
            bootstrap_seed=bootstrap_seed,
            command=command_line,
            max_unscorable=max_unscorable,
            retry_refused=retry_refused,
        )
        scored = {name: read_file(out, name) for name in SCORE_FILES}
        if all(data is not None for data in scored.values()) and not (
            retry_failed and any(_owed(out, second, retry_refused))
        ):
            # A finished round 2, run again: nothing to send and nothing to change.
            files = {name: data for name, data in scored.items() if data is not None}
            del second
        else:
            send(
                writer,
                command,
                out,
                second,
                idle_timeout=idle_timeout,
                timeout=timeout,
                retry_failed=retry_failed,
                retry_refused=retry_refused,
                fail_fast=gate,
            )
            replies = [out / second.replies] if has_replies(out, second) else []
            del second  # sent: its records and lines are not held through the score
            files = score_run(out, replies, folder.folder.parent, scoring, built=built)
            writer.commit(files, "run", keep=True)
        if rounds > 2:
            files = later_rounds(
                writer,
                out,
                folder,
                command,
                rounds=rounds,
                protocol=protocol,
                fmt=fmt,
                model=model,
                options=options,
                bootstrap_seed=bootstrap_seed,
                command_line=command_line,
                idle_timeout=idle_timeout,
                timeout=timeout,
                top=scoring,
                fail_fast=gate,
                built=built,
            )
    return files


def _second(
    out: Path,
    info: JsonObject,
    fmt: ExportFormat,
    model: str | None,
    options: RequestOptions | None,
) -> Round:
    """Round 2 of a run folder whose round 1 is closed: its requests as `run` sends them."""
    records = keyed_records(
        jsonl_bytes(read_file(out, "round2.jsonl") or b"", str(out / "round2.jsonl")),
        str(out / "round2.jsonl"),
    )
    return Round(
        k=2,
        records=records,
        lines=export_lines(list(records.values()), fmt, model, options=options),
        run_set=str(info["run_set"]),
    )


def retry_advice(
    out: Path,
    command_line: str,
    *,
    fmt: ExportFormat,
    model: str | None,
    options: RequestOptions | None,
    retry_failed: bool,
) -> str:
    """How to finish an incomplete run, said only as far as it is true: `--retry-failed` when it
    would send something; else why nothing is left to send (round 1's failures and the forks they
    left unsent, which a closed round 1 never sends again, and the refusals `--retry-refused`
    would resend), so the advice never sends nothing."""
    second = _second(out, read_json(out / RUN_FILE), fmt, model, options)
    # Read as `--retry-refused` reads: a refusal retried on purpose gives way to its answer.
    failed, missing, refusals = _owed(out, second, retry_refused=True)
    if failed + missing:
        again = command_line if retry_failed else f"{command_line} --retry-failed"
        return f"to resend only the requests without an answer, run: {again}"
    lost = [
        f"{count} {what}"
        for count, what in (
            (_round1_failures(out), "round-1 requests got no answer"),
            (_unsent(out), "forks were never sent because their parent got no answer"),
        )
        if count
    ]
    line = "--retry-failed has nothing left to send"
    if lost:
        line += (
            f": {' and '.join(lost)}, and round 1 is closed, never sent again (to retry its "
            "failures before it closes, start a new run with --max-unscorable 0)"
        )
    if refusals:
        line += (
            f"; {refusals} round-2 replies are refusals (the model's answer, not counted here): "
            "--retry-failed --retry-refused resends them"
        )
    return line


def _round1_failures(out: Path) -> int:
    """Round-1 requests frozen without an answer (a runner error or no reply; not a refusal)."""
    frozen = jsonl_bytes(read_file(out, FROZEN_FILE) or b"", str(out / FROZEN_FILE))
    return sum(
        1 for _, line in frozen if line.get("error") is not None and not refused(str(line["error"]))
    )


def _unsent(out: Path) -> int:
    """Round-2 forks never sent because their parent got no answer (not those of a refusal)."""
    keys = jsonl_bytes(read_file(out, "round2.key.jsonl") or b"", str(out / "round2.key.jsonl"))
    return sum(
        1
        for _, key in keys
        if key.get("sendable") is False and key.get("parent_refused") is not True
    )


def _owed(out: Path, round_: Round, retry_refused: bool = False) -> tuple[int, int, int]:
    """(runner errors, missing, refusals) among the round's requests: what `--retry-failed` sends
    again (the refusals only with `--retry-refused`; counted only then, else 0)."""
    return _counted(round_, answers_of(out, round_, retry_refused=retry_refused), retry_refused)


def _counted(
    round_: Round, matched: Mapping[tuple[str, int], Envelope], retry_refused: bool
) -> tuple[int, int, int]:
    """`_owed` of the round's replies as matched."""
    failed = sum(
        1
        for line in round_.lines
        if (env := matched.get(slot_of(line))) is not None and runner_failed(env)
    )
    missing = sum(1 for line in round_.lines if slot_of(line) not in matched)
    refusals = sum(
        1
        for line in round_.lines
        if retry_refused and (env := matched.get(slot_of(line))) is not None and refused(env.error)
    )
    return failed, missing, refusals


def _check_round1(
    out: Path,
    round_: Round,
    replies: Sequence[Envelope],
    max_unscorable: float,
    retry_refused: bool = False,
) -> None:
    """Round 1 closes only when few enough requests went unanswered: its forks are built from the
    answers (`replies`, as read from its replies file), and a fork of a parent without one is
    never sent, so a failed round 1 would make a failed round 2 that no retry could mend."""
    matched = answers_in(replies, round_, retry_refused=retry_refused)
    failed, missing, _ = _counted(round_, matched, retry_refused)
    if not round_.lines:
        return
    share = (failed + missing) / len(round_.lines)
    if share > max_unscorable:
        raise Incomplete(
            f"round 1 is incomplete: {failed + missing} of {len(round_.lines)} requests got no "
            f"answer ({failed} runner errors, {missing} without a reply: {100 * share:.1f} % > "
            f"--max-unscorable {max_unscorable:g}); round 1 stays open and every reply is kept in "
            f"{out / round_.replies}: run the same command again with --retry-failed to resend "
            "only those"
        )


REQUEST_FILE: Final = "request.json"
"""What shaped a run's requests beyond the packets (docs/schema/request.schema.json)."""


def request_shape(
    *,
    fmt: ExportFormat,
    model: str | None,
    samples: int,
    protocol: Protocol,
    options: RequestOptions,
) -> dict[str, object]:
    """Every option of `run` that changes what is sent: a resume must be given the same ones (the
    model is not in a chat-jsonl or inspect request, so the requests' bytes alone cannot tell).
    The model is null when `run` was given none: the runner chose it."""
    return {
        "format": fmt,
        "model": model,
        "samples": samples,
        "protocol": protocol,
        **options.as_json(),
    }


_SHAPE_OPTION: Final = {
    "format": "--format", "model": "--model", "samples": "--samples", "protocol": "--protocol",
    "temperature": "--temperature", "max_tokens": "--max-tokens", "body": "--body",
}  # fmt: skip


def shape_difference(recorded: JsonObject, given: dict[str, object]) -> str | None:
    """The first option whose value differs from the run's recorded one, in words, or None."""
    for name, option in _SHAPE_OPTION.items():
        if recorded.get(name) != given.get(name):
            return (
                f"{option} {_shown(recorded.get(name))} in the run, {_shown(given.get(name))} here"
            )
    return None


def _shown(value: object) -> str:
    if value is None or value == {}:
        return "unset"
    text = (
        value
        if isinstance(value, str)
        else json.dumps(value, sort_keys=True, separators=(",", ":"))
    )
    return text if len(text) <= 80 else text[:77] + "..."


def _start(
    writer: FolderWriter,
    out: Path,
    r1_requests: bytes,
    shape: dict[str, object],
    *,
    force: bool,
    resume: bool,
) -> None:
    """A new run (or one --force replaces) starts with its round-1 requests and what shaped them;
    an existing one must be a run that `run` started with the same packets and options."""
    existing = writer.existing
    if existing.state != "kit" or force:
        if resume:
            raise UsageError(f"--resume: {out} holds no run to resume")
        writer.commit(
            {
                "round1.requests.jsonl": r1_requests,
                REQUEST_FILE: (dumps(shape) + "\n").encode("utf-8"),
            },
            "run",
            keep=False,
        )
        return
    stored = read_file(out, "round1.requests.jsonl")
    if stored is None:
        raise OutputError(
            "holds a run made by advance, not by run; choose another --run or pass --force to "
            "replace it",
            file=str(out),
        )
    recorded = (
        read_bounded(out / REQUEST_FILE, MAX_SMALL_JSON_BYTES)
        if os.path.lexists(out / REQUEST_FILE)
        else None
    )
    differ = (
        shape_difference(_recorded_shape(out, recorded), shape) if recorded is not None else None
    )
    if differ is None and stored != r1_requests:
        differ = "the round-1 requests differ"
    if differ is not None:
        raise OutputError(
            f"holds a run started with other packets, format or model ({differ}); run it again "
            "with those, choose another --run, or pass --force to start over",
            file=str(out),
        )


def _recorded_shape(out: Path, data: bytes) -> JsonObject:
    """The run's request.json, held to its schema before it is compared: an edited one without a
    field (so that a different option compares equal to "unset") or with one the kit never writes
    is refused, naming the field, instead of deciding a resume."""
    where = str(out / REQUEST_FILE)
    recorded = json_object(data, where)
    require(recorded, "request.schema.json", file=where, what="a request.json")
    return recorded


def _run_info(out: Path, protocol: Protocol) -> JsonObject:
    info = read_json(out / RUN_FILE)
    if info.get("protocol") != protocol:
        raise OutputError(
            f"holds a run with protocol {info.get('protocol')}, not {protocol}; run it again with "
            "that protocol, choose another --run, or pass --force to start over",
            file=str(out),
        )
    return info


__all__ = ["REQUEST_FILE", "request_shape", "retry_advice", "run_with_runner", "shape_difference"]
