"""`run --runner CMD`: drive both rounds through any external command, and survive it.

The command reads request JSONL on stdin (in the chosen export format) and writes reply JSONL on
stdout (in any format `score` reads). Everything lives in the run folder, nothing elsewhere:

- `round<k>.requests.jsonl`: every request of round k, as exported;
- `request.json`: what shaped the requests beyond the packets (format, model, samples, protocol,
  sampling options), so a resume with another `--model` is refused even where the format does not
  write the model into the requests (chat-jsonl, inspect);
- `round<k>.replies.jsonl`: the runner's stdout, appended as it arrives (a paid-for reply is on
  disk as soon as the runner has written it, and survives a crash of the runner or of `run`);
- when round 1 closes: `frozen.jsonl`, `run.json`, `round2.jsonl`, `round2.key.jsonl` (advance);
- when round 2 closes: `records.jsonl`, `summary.json`, `REPORT.md`, `report.html` (score).

Each of those steps is one swap of the whole folder (folders.py). Running `run` again on the same
folder (or with `--resume`) continues where it stopped: a round still open sends only the requests
that have no reply yet (a reply counts for the request whose id it carries, checked against the
request's request_sha256 where its format allows); a closed round is never sent again.

The runner runs in its own process group. An idle timeout (no output for N seconds) and a total
timeout stop the whole group (SIGTERM, then SIGKILL), as do SIGTERM, SIGINT or SIGHUP to `run`;
a small watchdog process stops it too if `run` itself is killed with SIGKILL. Every stop leaves a
run that the next `run` resumes.
"""

from __future__ import annotations

import contextlib
import secrets
import json
import os
import selectors
import shlex
import signal
import subprocess
import sys
import threading
import time
from collections.abc import Iterator, Sequence
from dataclasses import dataclass
from pathlib import Path
from types import FrameType
from typing import Final

from ..rounds.advance import RUN_FILE, build_round, from_layer
from ..core.binding import unbind
from ..core.canonical import jsonl
from ..core.construct import Envelope, Protocol
from ..runners.envelopes import detect_format, read_envelopes
from ..core.errors import Incomplete, InputError, OutputError, UsageError, printable
from ..files import folders
from ..runners.export import ExportFormat, RequestOptions, export_lines
from ..files.folders import FolderWriter, open_writer
from ..core.limits import MAX_PACKET_FILE_BYTES, MAX_SMALL_JSON_BYTES, MAX_UNSCORABLE_SHARE
from .pipeline import COMMANDS_FILE, LARGE, SMALL, ScoreOptions, run_log_bytes, score_run
from ..core.progress import SILENT, Meter, progress
from ..scoring.score import match
from ..runners.envelopes import refused, runner_failed
from ..files.store import JsonObject, PacketFolder, is_file, json_object, jsonl_bytes, keyed_records, open_regular, read_bounded

DEFAULT_IDLE_TIMEOUT: Final = 900
DEFAULT_TIMEOUT: Final = 86400
STOP_GRACE: Final = 2.0
"""Seconds between SIGTERM and SIGKILL."""
TRAIL: Final = 1.0
"""Seconds output may trail the runner's exit (a child of it holding stdout gets no longer)."""
_TICK: Final = 0.2
_STDERR_KEPT: Final = 1 << 16


class Stopped(BaseException):
    """`run` got SIGTERM, SIGINT or SIGHUP: stop the runner, keep what arrived, exit."""

    def __init__(self, signum: int) -> None:
        super().__init__(signum)
        self.signum = signum


@contextlib.contextmanager
def stop_on_signals() -> Iterator[None]:
    """Turn SIGTERM, SIGINT and SIGHUP into Stopped while `run` works, so cleanup code runs."""

    def handler(signum: int, frame: FrameType | None) -> None:
        raise Stopped(signum)

    kept = {}
    for signum in (signal.SIGTERM, signal.SIGINT, signal.SIGHUP):
        with contextlib.suppress(ValueError, OSError):  # not the main thread: leave them be
            kept[signum] = signal.signal(signum, handler)
    try:
        yield
    finally:
        for signum, previous in kept.items():
            signal.signal(signum, previous)


# --- one call of the runner -----------------------------------------------------------------

_WATCHDOG: Final = r"""
import os, signal, sys, time
signal.signal(signal.SIGINT, signal.SIG_IGN)
line = sys.stdin.readline()
if line.strip():
    group = int(line)
    if "done" not in sys.stdin.read():
        for sig in (signal.SIGTERM, signal.SIGKILL):
            try:
                os.killpg(group, sig)
            except OSError:
                break
            time.sleep(1)
"""


class _Watchdog:
    """A tiny process in its own session that stops the runner's group if `run` dies before
    saying "done" (its stdin, our pipe, closes when we die, however we die)."""

    def __init__(self) -> None:
        self.process: subprocess.Popen[bytes] | None = None
        with contextlib.suppress(OSError, ValueError):  # no interpreter to start: run without one
            self.process = subprocess.Popen(
                [sys.executable, "-I", "-S", "-c", _WATCHDOG],
                stdin=subprocess.PIPE,
                stdout=subprocess.DEVNULL,
                stderr=subprocess.DEVNULL,
                start_new_session=True,
            )

    def watch(self, group: int) -> None:
        if self.process is not None and self.process.stdin is not None:
            with contextlib.suppress(OSError, ValueError):
                self.process.stdin.write(f"{group}\n".encode("ascii"))
                self.process.stdin.flush()

    def release(self) -> None:
        if self.process is None or self.process.stdin is None:
            return
        with contextlib.suppress(OSError, ValueError):
            self.process.stdin.write(b"done\n")
            self.process.stdin.close()
        with contextlib.suppress(subprocess.TimeoutExpired):
            self.process.wait(timeout=5)


@dataclass(frozen=True, slots=True)
class Call:
    """How one call of the runner ended."""

    status: int | None
    """Exit status, or None when it was stopped (timeout)."""
    wrote: int
    stderr: str
    stopped: str | None = None


TOKEN_VARIABLE: Final = "HONESTY_PRESSURE_RUNNER"
"""Set in the runner's environment to a token of this call: every descendant inherits it, so one
that left the runner's process group and session (`setsid`) is still found and stopped."""


def _tagged(token: str) -> list[int]:
    """The processes whose environment holds this call's token (Linux /proc; elsewhere none: a
    descendant that calls setsid there is beyond the kit's reach, docs/RUNNERS.md)."""
    mark = f"{TOKEN_VARIABLE}={token}".encode()
    found = []
    try:
        names = os.listdir("/proc")
    except OSError:
        return []
    for name in names:
        if not name.isdigit() or int(name) == os.getpid():
            continue
        try:
            with open(f"/proc/{name}/environ", "rb") as handle:
                if mark in handle.read(1 << 20).split(b"\0"):
                    found.append(int(name))
        except OSError:
            continue
    return found


def _stop_group(process: subprocess.Popen[bytes], token: str = "") -> None:
    """SIGTERM to the runner's whole group (and to any descendant that left it), SIGKILL to
    whatever is left after a grace period."""
    with contextlib.suppress(OSError):
        os.killpg(process.pid, signal.SIGTERM)
    strays = _tagged(token) if token else []
    for pid in strays:
        with contextlib.suppress(OSError):
            os.kill(pid, signal.SIGTERM)
    deadline = time.monotonic() + STOP_GRACE
    while process.poll() is None and time.monotonic() < deadline:
        time.sleep(0.05)
    with contextlib.suppress(OSError):
        os.killpg(process.pid, signal.SIGKILL)
    for pid in _tagged(token) if token else []:
        with contextlib.suppress(OSError):
            os.kill(pid, signal.SIGKILL)
    with contextlib.suppress(subprocess.TimeoutExpired):
        process.wait(timeout=STOP_GRACE)


def _feed(process: subprocess.Popen[bytes], requests: bytes) -> None:
    assert process.stdin is not None
    try:
        process.stdin.write(requests)
    except (BrokenPipeError, OSError, ValueError):
        pass
    finally:
        with contextlib.suppress(OSError, ValueError):
            process.stdin.close()


def call_runner(
    command: Sequence[str], requests: bytes, replies: Path, *, idle_timeout: float, timeout: float, meter: Meter = SILENT
) -> Call:
    """Run the command once with `requests` on stdin, appending its stdout to `replies` as it
    arrives (a tick per reply line) and passing its stderr through to ours as it arrives. Returns
    how it ended; a timeout stops the whole process group."""
    folders.unshared(replies)
    try:
        out = os.open(replies, os.O_WRONLY | os.O_APPEND | os.O_CREAT | os.O_NOFOLLOW | os.O_CLOEXEC, 0o666)
    except OSError as exc:
        raise OutputError(f"cannot keep the runner's replies here: {exc.strerror or exc}", file=str(replies)) from None
    watchdog = _Watchdog()
    token = secrets.token_hex(16)
    try:
        process = subprocess.Popen(
            list(command),
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
            start_new_session=True,
            env={**os.environ, TOKEN_VARIABLE: token},
        )
    except OSError as exc:
        watchdog.release()
        os.close(out)
        raise UsageError(f"--runner: cannot start {command[0]!r}: {exc.strerror or exc}") from None
    watchdog.watch(process.pid)
    feeder = threading.Thread(target=_feed, args=(process, requests), daemon=True)
    feeder.start()
    wrote, kept_err = 0, bytearray()
    stopped: str | None = None
    try:
        assert process.stdout is not None and process.stderr is not None
        selector = selectors.DefaultSelector()
        selector.register(process.stdout, selectors.EVENT_READ, "out")
        selector.register(process.stderr, selectors.EVENT_READ, "err")
        start = last = time.monotonic()
        exited_at: float | None = None
        while selector.get_map():
            now = time.monotonic()
            waits = [_TICK if exited_at is None else exited_at + TRAIL - now]
            if idle_timeout > 0:
                waits.append(last + idle_timeout - now)
            if timeout > 0:
                waits.append(start + timeout - now)
            for key, _ in selector.select(max(0.0, min(waits))):
                chunk = os.read(key.fd, 1 << 16)
                if not chunk:
                    selector.unregister(key.fileobj)
                    continue
                last = time.monotonic()
                if key.data == "out":
                    try:
                        folders._step("append")
                        view = memoryview(chunk)
                        while view:
                            view = view[os.write(out, view) :]
                    except OSError as exc:
                        raise OutputError(
                            f"cannot keep the runner's replies: {exc.strerror or exc}; the runner was stopped, and the "
                            "replies kept so far stay there: run again to resume",
                            file=str(replies),
                        ) from None
                    wrote += len(chunk)
                    meter.tick(chunk.count(b"\n"))
                else:
                    meter.break_line()  # the runner's line never runs into the progress line
                    _pass_through(chunk)
                    if len(kept_err) < _STDERR_KEPT:
                        kept_err += chunk[: _STDERR_KEPT - len(kept_err)]
            now = time.monotonic()
            if process.poll() is not None:
                # Output may trail the exit a little; a child that keeps the pipes open may not
                # keep `run` waiting.
                exited_at = exited_at or now
                if now - exited_at >= TRAIL:
                    break
            elif idle_timeout > 0 and now - last >= idle_timeout:
                stopped = f"it wrote nothing for {idle_timeout:g} s (--idle-timeout)"
                break
            elif timeout > 0 and now - start >= timeout:
                stopped = f"it ran for {timeout:g} s (--timeout)"
                break
        selector.close()
    finally:
        _stop_group(process, token)
        feeder.join(timeout=STOP_GRACE)
        for pipe in (process.stdout, process.stderr):
            if pipe is not None:
                with contextlib.suppress(OSError):
                    pipe.close()
        with contextlib.suppress(OSError):
            os.fsync(out)
        os.close(out)
        watchdog.release()
    return Call(status=None if stopped else process.returncode, wrote=wrote, stderr=kept_err.decode("utf-8", "replace"), stopped=stopped)


def _pass_through(chunk: bytes) -> None:
    """The runner's own stderr, as it arrives: a lab sees its runner's messages and progress."""
    with contextlib.suppress(OSError, ValueError):
        sys.stderr.write(chunk.decode("utf-8", "replace"))
        sys.stderr.flush()


# --- the run folder ---------------------------------------------------------------------------


def _first_line(text: str) -> str:
    lines = [line for line in text.strip().splitlines() if line.strip()]
    return printable(lines[0][:300]) if lines else ""


def _repair_tail(path: Path) -> None:
    """A runner stopped mid-line leaves a partial last line: drop it (its request is sent again).
    A last line that is whole but lacks its newline (a runner that forgot it) gets one."""
    folders.unshared(path)  # a link is refused; a file shared by hard links gets a copy of its own
    if not is_file(path):
        return
    with open_regular(path) as handle:
        data = handle.read()
    if not data or data.endswith(b"\n"):
        return
    cut = data.rfind(b"\n") + 1
    try:
        whole = isinstance(json.loads(data[cut:]), dict)
    except (ValueError, RecursionError):
        whole = False
    folders._step("repair")
    fd = os.open(path, os.O_WRONLY | os.O_APPEND | os.O_NOFOLLOW | os.O_CLOEXEC)  # never through a link
    try:
        if whole:
            os.write(fd, b"\n")
        else:
            os.ftruncate(fd, cut)
    finally:
        os.close(fd)


@dataclass(frozen=True, slots=True, kw_only=True)
class Round:
    """One round of a run: its requests (records and exported lines) and where replies go."""

    k: int
    records: dict[str, JsonObject]
    lines: list[JsonObject]
    run_set: str
    folder: str = ""
    """Where in the run folder the round lives: "" for rounds 1 and 2, round<k>/ after (rounds.py)."""

    @property
    def replies(self) -> str:
        return f"{self.folder}/round{self.k}.replies.jsonl" if self.folder else f"round{self.k}.replies.jsonl"


def _answered(out: Path, round_: Round, retry_failed: bool = False, retry_refused: bool = False) -> dict[tuple[str, int], Envelope]:
    """The replies already in the run folder, checked against the round's requests; with
    `retry_failed`, only those that are an answer (a runner error or a missing reply is owed
    again; a refusal is the model's answer and stays, unless `retry_refused`: then it is owed
    again too, and its retry's answer takes its place)."""
    path = out / round_.replies
    if not _holds_replies(path):
        return {}
    matched = match(read_envelopes(path), round_.records, round_.run_set, retry_refused=retry_refused)
    return {slot: env for slot, env in matched.items() if not (retry_failed and _owed_again(env, retry_refused))}


def _owed_again(env: Envelope, retry_refused: bool) -> bool:
    """Whether `--retry-failed` sends this reply's request again: a runner error always, a refusal
    only with `--retry-refused`."""
    return runner_failed(env) or (retry_refused and refused(env.error))


def _send(
    writer: FolderWriter,
    command: Sequence[str],
    out: Path,
    round_: Round,
    *,
    idle_timeout: float,
    timeout: float,
    retry_failed: bool = False,
    retry_refused: bool = False,
) -> None:
    """Send the round's requests that have no reply yet (with `retry_failed`, no answer yet; with
    `retry_refused` too, no answer but a refusal); the replies land in the run folder, after every
    earlier line, which is never touched."""
    path = out / round_.replies
    _repair_tail(path)
    writer.own_appended(round_.replies)
    answered = _answered(out, round_, retry_failed, retry_refused)
    pending = [line for line in round_.lines if slot_of(line) not in answered]
    label = f"round-{round_.k}"
    if not pending:
        return
    if answered:
        kind = ("an answer other than a refusal" if retry_refused else "an answer") if retry_failed else "a reply"
        print(f"{label}: {len(answered)} of {len(round_.lines)} requests already have {kind} in {path}; sending the other {len(pending)}")
    else:
        print(f"{label}: sending {len(pending)} requests to the runner")
    sys.stdout.flush()
    with progress(f"{label}: replies") as meter:
        meter.expect(len(pending))
        call = call_runner(command, jsonl(pending), path, idle_timeout=idle_timeout, timeout=timeout, meter=meter)
    _repair_tail(path)
    kept = f"the replies it wrote are kept in {path}; run the same command again to resume"
    if call.stopped is not None:
        raise InputError(f"the runner was stopped on the {label} requests: {call.stopped}; {kept}")
    if call.status != 0:
        first = _first_line(call.stderr)
        detail = f": {first}" if first else ""
        raise InputError(f"the runner exited with status {call.status} on the {label} requests{detail}; {kept}")
    if call.wrote == 0:
        raise InputError(f"the runner wrote no replies for the {label} requests (nothing on its stdout); run again to resume")
    # Any bad line is named here, in the file that keeps it.
    now = _answered(out, round_, retry_refused=retry_refused)
    still = [line for line in pending if slot_of(line) not in now]
    if still:
        print(f"{label}: {len(still)} of {len(round_.lines)} requests got no reply (scored as missing)")


def slot_of(line: JsonObject) -> tuple[str, int]:
    """(packet id, sample) of one exported request line."""
    bound = unbind(str(line.get("custom_id", line.get("id"))))
    return bound.packet_id, bound.sample or 0


def _replies_of(out: Path, round_: Round) -> list[Envelope]:
    """Every reply of the round in the run folder, as read (settled by whoever takes them)."""
    path = out / round_.replies
    if not _holds_replies(path):
        return []
    return read_envelopes(path)


def _holds_replies(path: Path) -> bool:
    """Whether a run's replies file holds anything but blank space, read in pieces by the one
    non-blocking reader (a FIFO in its place is refused, not waited on)."""
    if not os.path.lexists(path):
        return False
    with open_regular(path) as handle:
        while chunk := handle.read(1 << 20):
            if chunk.strip():
                return True
    return False


def _read(out: Path, name: str) -> bytes | None:
    if not os.path.lexists(out / name):
        return None
    return read_bounded(out / name, MAX_PACKET_FILE_BYTES)


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
) -> dict[str, bytes]:
    """Both rounds (rounds 2..`rounds` with the sustained protocol: rounds.py), resumable; returns
    round 2's scored files (all of which, and every later round's, are in the run folder).

    Round 1 closes only when its share of requests without an answer (runner errors, no reply)
    is at most `max_unscorable`; past it, `run` stops with Incomplete and round 1 stays open. With
    `retry_failed`, round 1 and round 2 resend only the requests whose reply is a runner error or
    missing (a finished run is scored again with the answers that came back); with `retry_refused`
    too, those whose reply is a refusal, each retry's answer then taking the refusal's place (a
    closed round 1 is never sent again, so its refusals stay)."""
    if retry_refused and not retry_failed:
        raise UsageError("--retry-refused goes with --retry-failed (resend the refusals as well as the failures)")
    from .later_rounds import check_rounds, later_rounds

    check_rounds(rounds, protocol)
    try:
        command = shlex.split(runner)
    except ValueError as exc:
        raise UsageError(f"--runner: cannot split the command ({exc})") from None
    if not command:
        raise UsageError("--runner: give the command to run")
    # `samples` replies per round-1 packet; round 2 forks every one of them, each fork sent once.
    r1_lines = export_lines(list(folder.round1.values()), fmt, model, samples=samples, options=options)
    r1_requests = jsonl(r1_lines)
    shape = request_shape(fmt=fmt, model=model, samples=samples, protocol=protocol, options=options or RequestOptions())
    with stop_on_signals(), open_writer(out, ("run",), replace=force) as writer:
        _start(writer, out, r1_requests, shape, force=force, resume=resume)
        first = Round(k=1, records=folder.round1, lines=r1_lines, run_set=folder.packet_set)
        if _read(out, RUN_FILE) is None:
            _send(writer, command, out, first, idle_timeout=idle_timeout, timeout=timeout, retry_failed=retry_failed, retry_refused=retry_refused)
            _check_round1(out, first, max_unscorable, retry_refused)
            files = build_round(
                from_layer(folder), _replies_of(out, first), protocol=protocol, where=str(out / first.replies), retry_refused=retry_refused
            )
            if command_line is not None:
                files[COMMANDS_FILE] = run_log_bytes(command_line, {first.replies: detect_format(out / first.replies)}, "run")
            requests = keyed_records(jsonl_bytes(files["round2.jsonl"], str(out / "round2.jsonl")), str(out / "round2.jsonl"))
            files["round2.requests.jsonl"] = jsonl(export_lines(list(requests.values()), fmt, model, options=options))
            writer.commit(files, "run", keep=True)
        info = _run_info(out, protocol)
        records = keyed_records(jsonl_bytes(_read(out, "round2.jsonl") or b"", str(out / "round2.jsonl")), str(out / "round2.jsonl"))
        second = Round(k=2, records=records, lines=export_lines(list(records.values()), fmt, model, options=options), run_set=str(info["run_set"]))
        scored = {name: _read(out, name) for name in SCORE_FILES}
        if all(data is not None for data in scored.values()) and not (retry_failed and any(_owed(out, second, retry_refused))):
            # A finished round 2, run again: nothing to send and nothing to change.
            files = {name: data for name, data in scored.items() if data is not None}
        else:
            _send(writer, command, out, second, idle_timeout=idle_timeout, timeout=timeout, retry_failed=retry_failed, retry_refused=retry_refused)
            replies = [out / second.replies] if _replies_of(out, second) else []
            files = score_run(
                out,
                replies,
                folder.folder.parent,
                ScoreOptions(
                    bootstrap_seed=bootstrap_seed,
                    command=command_line,
                    max_unscorable=max_unscorable,
                    retry_refused=retry_refused,
                ),
            )
            writer.commit(files, "run", keep=True)
        if rounds > 2:
            later_rounds(
                writer, out, folder, command, rounds=rounds, protocol=protocol, fmt=fmt, model=model, options=options,
                bootstrap_seed=bootstrap_seed, command_line=command_line, idle_timeout=idle_timeout, timeout=timeout,
            )
    return files


def _owed(out: Path, round_: Round, retry_refused: bool = False) -> tuple[int, int, int]:
    """(runner errors, missing, refusals) among the round's requests: what `--retry-failed` sends
    again (the refusals only with `--retry-refused`; counted only then, else 0)."""
    matched = _answered(out, round_, retry_refused=retry_refused)
    failed = sum(1 for line in round_.lines if (env := matched.get(slot_of(line))) is not None and runner_failed(env))
    missing = sum(1 for line in round_.lines if slot_of(line) not in matched)
    refusals = sum(1 for line in round_.lines if retry_refused and (env := matched.get(slot_of(line))) is not None and refused(env.error))
    return failed, missing, refusals


def _check_round1(out: Path, round_: Round, max_unscorable: float, retry_refused: bool = False) -> None:
    """Round 1 closes only when few enough requests went unanswered: its forks are built from the
    answers, and a fork of a parent without one is never sent, so a failed round 1 would make a
    failed round 2 that no retry could mend."""
    failed, missing, _ = _owed(out, round_, retry_refused)
    if not round_.lines:
        return
    share = (failed + missing) / len(round_.lines)
    if share > max_unscorable:
        raise Incomplete(
            f"round 1 is incomplete: {failed + missing} of {len(round_.lines)} requests got no answer ({failed} runner errors, "
            f"{missing} without a reply: {100 * share:.1f} % > --max-unscorable {max_unscorable:g}); round 1 stays open and every "
            f"reply is kept in {out / round_.replies}: run the same command again with --retry-failed to resend only those"
        )


SCORE_FILES: Final = (*LARGE, *SMALL)
"""What scoring a run writes: all present means the run is finished."""


REQUEST_FILE: Final = "request.json"
"""What shaped a run's requests beyond the packets (docs/schema/request.schema.json)."""


def request_shape(*, fmt: ExportFormat, model: str, samples: int, protocol: Protocol, options: RequestOptions) -> dict[str, object]:
    """Every option of `run` that changes what is sent: a resume must be given the same ones (the
    model is not in a chat-jsonl or inspect request, so the requests' bytes alone cannot tell)."""
    return {"format": fmt, "model": model, "samples": samples, "protocol": protocol, **options.as_json()}


_SHAPE_OPTION: Final = {"format": "--format", "model": "--model", "samples": "--samples", "protocol": "--protocol",
                        "temperature": "--temperature", "max_tokens": "--max-tokens", "body": "--body"}  # fmt: skip


def shape_difference(recorded: JsonObject, given: dict[str, object]) -> str | None:
    """The first option whose value differs from the run's recorded one, in words, or None."""
    for name, option in _SHAPE_OPTION.items():
        if recorded.get(name) != given.get(name):
            return f"{option} {_shown(recorded.get(name))} in the run, {_shown(given.get(name))} here"
    return None


def _shown(value: object) -> str:
    if value is None or value == {}:
        return "unset"
    text = value if isinstance(value, str) else json.dumps(value, sort_keys=True, separators=(",", ":"))
    return text if len(text) <= 80 else text[:77] + "..."


def _start(writer: FolderWriter, out: Path, r1_requests: bytes, shape: dict[str, object], *, force: bool, resume: bool) -> None:
    """A new run (or one --force replaces) starts with its round-1 requests and what shaped them;
    an existing one must be a run that `run` started with the same packets and options."""
    from ..core.canonical import dumps

    existing = writer.existing
    if existing.state != "kit" or force:
        if resume:
            raise UsageError(f"--resume: {out} holds no run to resume")
        writer.commit({"round1.requests.jsonl": r1_requests, REQUEST_FILE: (dumps(shape) + "\n").encode("utf-8")}, "run", keep=False)
        return
    stored = _read(out, "round1.requests.jsonl")
    if stored is None:
        raise OutputError("holds a run made by advance, not by run; choose another --run or pass --force to replace it", file=str(out))
    recorded = read_bounded(out / REQUEST_FILE, MAX_SMALL_JSON_BYTES) if os.path.lexists(out / REQUEST_FILE) else None
    differ = shape_difference(json_object(recorded, str(out / REQUEST_FILE)), shape) if recorded is not None else None
    if differ is None and stored != r1_requests:
        differ = "the round-1 requests differ"
    if differ is not None:
        raise OutputError(
            f"holds a run started with other packets, format or model ({differ}); run it again with those, "
            "choose another --run, or pass --force to start over",
            file=str(out),
        )


def _run_info(out: Path, protocol: Protocol) -> JsonObject:
    from ..files.store import read_json

    info = read_json(out / RUN_FILE)
    if info.get("protocol") != protocol:
        raise OutputError(
            f"holds a run with protocol {info.get('protocol')}, not {protocol}; run it again with that protocol, "
            "choose another --run, or pass --force to start over",
            file=str(out),
        )
    return info


__all__ = ["DEFAULT_IDLE_TIMEOUT", "DEFAULT_TIMEOUT", "Stopped", "call_runner", "run_with_runner"]
