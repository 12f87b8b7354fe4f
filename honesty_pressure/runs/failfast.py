"""The runner's replies as they arrive: how many, how many failed, and when to stop (`--fail-fast`).

runner.call_runner appends the runner's stdout to the round's replies file as it comes; a Watch
reads the same bytes, line by line, so that the progress line counts the runner's errors as they
come and `run` stops a runner whose first N replies are all errors (a dead endpoint: an API
server that is down, a wrong address, a revoked key) instead of waiting out the whole round. A
FailFast holds `--fail-fast` over one `run`: the first request that `run` sends goes alone (the
preflight), once per invocation; every call of the runner after it is watched.

A line is judged as `score` reads it (envelopes.read_line): a runner error is an error that is
not a refusal (a refusal is the model's answer). A line the kit cannot read is neither an answer
nor an error here: the round's own reading, once the runner is done, names it in its file.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Final

from ..core.limits import MAX_LINE_BYTES
from ..files.store import loads
from ..runners.envelopes import failed, format_of_line, read_line

DEFAULT_FAIL_FAST: Final = 10
"""`run --fail-fast`'s default: ten errors and no answer at the start of a round is no model's
behaviour but a dead endpoint's, and at the example runner's default concurrency (4) it is three
waves of requests, so a runner that retries each request for a while still stops early."""
_MAX_TEXT: Final = 300


@dataclass(slots=True)
class FailFast:
    """`run --fail-fast N` (0: off) over one invocation of `run`. The first request it sends goes
    alone (`preflight`): the endpoint has not been heard from yet. Once one has been answered,
    the later rounds of the same invocation go without one (the endpoint answered moments ago, and
    their first N replies are watched all the same); a resume is a new invocation and probes
    again."""

    n: int = DEFAULT_FAIL_FAST
    probed: bool = False

    @property
    def preflight(self) -> bool:
        return self.n > 0 and not self.probed


@dataclass(slots=True)
class Watch:
    """Counts the replies in a stream of runner output and says when the first `fail_fast` of
    them are all runner errors (0: never). With `every` False, only those first ones are read as
    JSON and judged (the rest only counted): no progress line shows the failures, and a run of a
    million replies need not parse each twice."""

    fail_fast: int = 0
    every: bool = True
    replies: int = 0
    failures: int = 0
    first_error: str = ""
    """The runner's own error text of its first failed reply (what a dead endpoint says)."""
    dead: bool = False
    """The first `fail_fast` replies were all errors."""
    _partial: bytearray = field(default_factory=bytearray)
    _skipping: bool = False

    def feed(self, chunk: bytes) -> tuple[int, int]:
        """Read a piece of the runner's stdout; (replies, failures) among the lines it ends."""
        replies, failures = self.replies, self.failures
        start = 0
        while (end := chunk.find(b"\n", start)) >= 0:
            piece = chunk[start:end]
            if not self._skipping:
                self._partial += piece
                self._line(bytes(self._partial))
            self._partial.clear()
            self._skipping = False
            start = end + 1
        rest = chunk[start:]
        if not self._skipping:
            self._partial += rest
            if len(self._partial) > MAX_LINE_BYTES:  # never held whole: not a reply the kit reads
                self._partial.clear()
                self._skipping = True
        return self.replies - replies, self.failures - failures

    def _line(self, line: bytes) -> None:
        if not line.strip():
            return
        self.replies += 1
        error = runner_error(line) if self.every or self.replies <= self.fail_fast else None
        if error is not None:
            self.failures += 1
            self.first_error = self.first_error or error
        if self.fail_fast and self.replies == self.fail_fast:
            self.dead = self.failures == self.replies


def runner_error(line: bytes) -> str | None:
    """The error text of one reply line when it is a runner error, else None (an answer, a
    refusal, or a line the kit cannot read: that one is named by the round's own reading)."""
    try:
        record = loads(line.decode("utf-8").removeprefix("\ufeff"), file="runner stdout")
        fmt = format_of_line(record) if isinstance(record, dict) else None
        if fmt is None or not isinstance(record, dict):
            return None
        error = read_line(record, "runner stdout", 1, fmt).error
    except Exception:  # noqa: BLE001 - a line the watch cannot judge is the round's to name
        return None
    if not failed(error):
        return None
    # The kit reads a chat-jsonl failure from its null content alone ("null content"); the
    # runner's own words for it, where it wrote them beside, say what is wrong with the endpoint.
    own = record.get("error") if fmt == "chat-jsonl" else None
    return _short(own) if isinstance(own, str) and own.strip() else error


def _short(text: str) -> str:
    """One line of at most _MAX_TEXT characters (a server may put a whole page in an error)."""
    flat = " ".join(text.split())
    return flat if len(flat) <= _MAX_TEXT else flat[: _MAX_TEXT - 1] + "…"


__all__ = ["DEFAULT_FAIL_FAST", "FailFast", "Watch", "runner_error"]
