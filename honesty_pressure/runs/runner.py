"""Call the runner: send one round's requests to an external command, and survive it.

The command reads request JSONL on stdin (in the chosen export format) and writes reply JSONL on
stdout (in any format `score` reads). `send` gives it only the round's requests that have no reply
yet and appends what it writes to the round's replies file as it arrives (a paid-for reply is on
disk as soon as the runner has written it, and survives a crash of the runner or of `run`); the
rounds themselves are driven by run.py (rounds 1 and 2) and later_rounds.py (rounds 3..N).

The runner runs in its own process group. An idle timeout (no output for N seconds) and a total
timeout stop the whole group (SIGTERM, then SIGKILL), as do SIGTERM, SIGINT or SIGHUP to `run`;
a small watchdog process stops it too if `run` itself is killed with SIGKILL. Every stop leaves a
run that the next `run` resumes.
"""

from __future__ import annotations

import contextlib
import json
import os
import secrets
import selectors
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

from ..core.binding import unbind
from ..core.canonical import jsonl
from ..core.construct import Envelope
from ..core.errors import (
    Incomplete,
    InputError,
    KitError,
    OutputError,
    Stopped,
    UsageError,
    printable,
)
from ..core.limits import MAX_LINE_BYTES, MAX_PACKET_FILE_BYTES
from ..core.progress import SILENT, Meter, progress
from ..files import folders
from ..files.folders import FolderWriter
from ..files.store import JsonObject, is_file, open_regular, read_bounded
from ..runners.envelopes import read_envelopes, refused, runner_failed
from ..scoring.score import match
from .failfast import FailFast, Watch
from .pipeline import LARGE, SMALL

DEFAULT_IDLE_TIMEOUT: Final = 900
DEFAULT_TIMEOUT: Final = 86400
STOP_GRACE: Final = 2.0
"""Seconds between SIGTERM and SIGKILL."""
TRAIL: Final = 1.0
"""Seconds output may trail the runner's exit (a child of it holding stdout gets no longer)."""
_TICK: Final = 0.2
_STDERR_KEPT: Final = 1 << 16


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
    command: Sequence[str],
    requests: bytes,
    replies: Path,
    *,
    idle_timeout: float,
    timeout: float,
    meter: Meter = SILENT,
    watch: Watch | None = None,
) -> Call:
    """Run the command once with `requests` on stdin, appending its stdout to `replies` as it
    arrives (a tick per reply line, its runner errors counted by `watch`) and passing its stderr
    through to ours as it arrives. Returns how it ended; a timeout stops the whole process group,
    and so does `watch` seeing its first replies all fail (`watch.dead`: --fail-fast)."""
    watch = Watch() if watch is None else watch
    folders.unshared(replies)
    try:
        out = os.open(
            replies, os.O_WRONLY | os.O_APPEND | os.O_CREAT | os.O_NOFOLLOW | os.O_CLOEXEC, 0o666
        )
    except OSError as exc:
        raise OutputError(
            f"cannot keep the runner's replies here: {exc.strerror or exc}", file=str(replies)
        ) from None
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
                            f"cannot keep the runner's replies: {exc.strerror or exc}; the runner "
                            "was stopped, and the replies kept so far stay there: run again to "
                            "resume",
                            file=str(replies),
                        ) from None
                    wrote += len(chunk)
                    replies_in, failed_in = watch.feed(chunk)
                    meter.tick(replies_in, failed=failed_in)
                    if watch.dead and stopped is None:
                        stopped = (
                            f"its first {watch.fail_fast} replies were all errors (--fail-fast)"
                        )
                else:
                    meter.break_line()  # the runner's line never runs into the progress line
                    _pass_through(chunk)
                    if len(kept_err) < _STDERR_KEPT:
                        kept_err += chunk[: _STDERR_KEPT - len(kept_err)]
            now = time.monotonic()
            if stopped is not None:
                break
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
    return Call(
        status=None if stopped else process.returncode,
        wrote=wrote,
        stderr=kept_err.decode("utf-8", "replace"),
        stopped=stopped,
    )


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
    fd = os.open(
        path, os.O_WRONLY | os.O_APPEND | os.O_NOFOLLOW | os.O_CLOEXEC
    )  # never through a link
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
    """Where in the run folder the round lives: "" for rounds 1 and 2, round<k>/ after
    (later_rounds.py)."""

    @property
    def replies(self) -> str:
        return (
            f"{self.folder}/round{self.k}.replies.jsonl"
            if self.folder
            else f"round{self.k}.replies.jsonl"
        )


def answers_of(
    out: Path, round_: Round, retry_failed: bool = False, retry_refused: bool = False
) -> dict[tuple[str, int], Envelope]:
    """The replies already in the run folder, checked against the round's requests; with
    `retry_failed`, only those that are an answer (a runner error or a missing reply is owed
    again; a refusal is the model's answer and stays, unless `retry_refused`: then it is owed
    again too, and its retry's answer takes its place)."""
    return answers_in(replies_of(out, round_), round_, retry_failed, retry_refused)


def answers_in(
    envelopes: Sequence[Envelope],
    round_: Round,
    retry_failed: bool = False,
    retry_refused: bool = False,
) -> dict[tuple[str, int], Envelope]:
    """`answers_of` for replies already read (`replies_of`), so a caller that builds from them
    reads the file once."""
    matched = match(envelopes, round_.records, round_.run_set, retry_refused=retry_refused)
    return _answered(matched, retry_failed, retry_refused)


def _answered(
    matched: dict[tuple[str, int], Envelope], retry_failed: bool, retry_refused: bool
) -> dict[tuple[str, int], Envelope]:
    """The replies that stand (see `answers_of`)."""
    return {
        slot: env
        for slot, env in matched.items()
        if not (retry_failed and _owed_again(env, retry_refused))
    }


def _owed_again(env: Envelope, retry_refused: bool) -> bool:
    """Whether `--retry-failed` sends this reply's request again: a runner error always, a refusal
    only with `--retry-refused`."""
    return runner_failed(env) or (retry_refused and refused(env.error))


def send(
    writer: FolderWriter,
    command: Sequence[str],
    out: Path,
    round_: Round,
    *,
    idle_timeout: float,
    timeout: float,
    retry_failed: bool = False,
    retry_refused: bool = False,
    fail_fast: FailFast | None = None,
) -> None:
    """Send the round's requests that have no reply yet (with `retry_failed`, no answer yet; with
    `retry_refused` too, no answer but a refusal); the replies land in the run folder, after every
    earlier line, which is never touched.

    With `fail_fast` N (0: off; default a FailFast of its own, N = DEFAULT_FAIL_FAST), a dead
    endpoint stops the round within seconds, exit 1, with the runner's own error text: while
    `fail_fast.preflight` is due, the first pending request goes alone first (the runner is
    called with that one line, so any runner that reads its stdin to the end works), its reply
    kept as that request's reply; only when it is not a runner error are the others sent, and the
    runner is stopped if its first N replies to them are all errors."""
    gate = FailFast() if fail_fast is None else fail_fast
    path = out / round_.replies
    writer.check_appended(round_.replies)
    read = _record_replies(writer, out, round_, retry_refused)
    if isinstance(read, InputError):
        raise read
    answered = _answered(read, retry_failed, retry_refused)
    pending = [line for line in round_.lines if slot_of(line) not in answered]
    label = f"round-{round_.k}"
    if not pending:
        return
    if answered:
        kind = (
            ("an answer other than a refusal" if retry_refused else "an answer")
            if retry_failed
            else "a reply"
        )
        print(
            f"{label}: {len(answered)} of {len(round_.lines)} requests already have {kind} in "
            f"{path}; sending the other {len(pending)}"
        )
    else:
        print(f"{label}: sending {len(pending)} requests to the runner")
    sys.stdout.flush()
    first, rest = (pending[:1], pending[1:]) if gate.preflight else ([], pending)
    if first and rest:
        print(f"{label}: the first request goes alone, to check the endpoint (--fail-fast)")
        sys.stdout.flush()
    try:
        with progress(f"{label}: replies") as meter:
            meter.expect(len(pending))
            if first:
                probe = Watch()
                _call(command, first, path, label, idle_timeout, timeout, meter, probe)
                if probe.failures:
                    raise Incomplete(
                        f"{label}: the runner's reply to the first request is an error, so the "
                        f"other {len(rest)} were not sent: {probe.first_error}; "
                        f"{_dead_advice(path, 1)}"
                    )
                gate.probed = True
            if rest:
                watch = Watch(
                    gate.n, every=meter is not SILENT
                )  # failures shown on a terminal only
                _call(command, rest, path, label, idle_timeout, timeout, meter, watch)
    except BaseException:
        # What the runner wrote is recorded however the call ended (a dead endpoint, a stop, a
        # crash), so the next send can check it is unchanged before reading it back.
        with contextlib.suppress(OSError, KitError):  # the stop or failure is what to report
            _record_replies(writer, out, round_, retry_refused)
        raise
    read = _record_replies(writer, out, round_, retry_refused)
    if isinstance(read, InputError):
        raise read  # any bad line is named here, in the file that keeps it
    now = read
    still = [line for line in pending if slot_of(line) not in now]
    if still:
        print(
            f"{label}: {len(still)} of {len(round_.lines)} requests got no reply (scored as "
            "missing)"
        )


def _call(
    command: Sequence[str],
    lines: list[JsonObject],
    path: Path,
    label: str,
    idle_timeout: float,
    timeout: float,
    meter: Meter,
    watch: Watch,
) -> None:
    """One call of the runner with these request lines; a dead endpoint (`watch.dead`), a stop, a
    failed exit or no output at all is an error naming the round."""
    call = call_runner(
        command,
        jsonl(lines),
        path,
        idle_timeout=idle_timeout,
        timeout=timeout,
        meter=meter,
        watch=watch,
    )
    _repair_tail(path)
    if watch.dead:
        n = watch.fail_fast
        first = "first reply was an error" if n == 1 else f"first {n} replies were all errors"
        raise Incomplete(
            f"{label}: the round was stopped, the runner's {first} (--fail-fast {n}): "
            f"{watch.first_error}; {_dead_advice(path, watch.replies)}"
        )
    kept = f"the replies it wrote are kept in {path}; run the same command again to resume"
    if call.stopped is not None:
        raise InputError(f"the runner was stopped on the {label} requests: {call.stopped}; {kept}")
    if call.status != 0:
        first_line = _first_line(call.stderr)
        detail = f": {first_line}" if first_line else ""
        raise InputError(
            f"the runner exited with status {call.status} on the {label} requests{detail}; {kept}"
        )
    if call.wrote == 0:
        raise InputError(
            f"the runner wrote no replies for the {label} requests (nothing on its stdout); run "
            "again to resume"
        )


def _dead_advice(path: Path, replies: int) -> str:
    """What to do after a dead endpoint stopped a round: the failed replies stay (every line the
    runner wrote is kept), so it is `--retry-failed` that sends them again."""
    kept = "its reply is" if replies == 1 else "its replies are"
    return (
        f"{kept} kept in {path}: once the endpoint answers, run the same command again with "
        "--retry-failed (--fail-fast 0 sends every request whatever the first replies are)"
    )


def _record_replies(
    writer: FolderWriter, out: Path, round_: Round, retry_refused: bool = False
) -> dict[tuple[str, int], Envelope] | InputError:
    """What the runner wrote, recorded in the marker however the call ended (a stop, a crash, a
    timeout), so that the next `send` can check it is unchanged before reading it back
    (`check_appended`): whole lines only (a line cut by a stop is dropped, its request sent
    again), and only the lines the kit reads. A line it refuses (a lone surrogate, a count past a
    limit, an id of no request) and those after it are left for the user to mend, as the message
    naming it says, and recorded once they read. Returns the replies read, or the refusal."""
    path = out / round_.replies
    _repair_tail(path)
    try:
        read: dict[tuple[str, int], Envelope] | InputError = answers_of(
            out, round_, retry_refused=retry_refused
        )
        upto = None
    except InputError as exc:
        read, upto = exc, _start_of_line(path, exc.line) if exc.file == str(path) else 0
    writer.own_appended(round_.replies, upto=upto)
    return read


def _start_of_line(path: Path, line: int | None) -> int:
    """The offset of a 1-based line of `path` (0 for no line: nothing past what was recorded)."""
    if line is None:
        return 0
    with open_regular(path) as handle:
        return sum(len(handle.readline(MAX_LINE_BYTES + 1)) for _ in range(line - 1))


def slot_of(line: JsonObject) -> tuple[str, int]:
    """(packet id, sample) of one exported request line."""
    bound = unbind(str(line.get("custom_id", line.get("id"))))
    return bound.packet_id, bound.sample or 0


def replies_of(out: Path, round_: Round) -> list[Envelope]:
    """Every reply of the round in the run folder, as read (settled by whoever takes them)."""
    path = out / round_.replies
    if not _holds_replies(path):
        return []
    return read_envelopes(path)


def has_replies(out: Path, round_: Round) -> bool:
    """Whether the round's replies file holds anything, without parsing it (the score that
    follows parses it, once)."""
    return _holds_replies(out / round_.replies)


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


def read_file(out: Path, name: str) -> bytes | None:
    """A file of the run folder, bounded; None when it is not there (yet)."""
    if not os.path.lexists(out / name):
        return None
    return read_bounded(out / name, MAX_PACKET_FILE_BYTES)


SCORE_FILES: Final = (*LARGE, *SMALL)
"""What scoring a run writes: all present means the run is finished."""


__all__ = [
    "DEFAULT_IDLE_TIMEOUT",
    "DEFAULT_TIMEOUT",
    "SCORE_FILES",
    "Call",
    "Round",
    "Stopped",
    "answers_in",
    "answers_of",
    "call_runner",
    "has_replies",
    "read_file",
    "replies_of",
    "send",
    "slot_of",
    "stop_on_signals",
]
