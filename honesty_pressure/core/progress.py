"""Progress on long work: one line on stderr, redrawn in place, only when stderr is a terminal.

`progress(label)` is a context manager giving a Meter: `expect(total)` once the amount of work
is known, `tick(n)` as it is done (`tick(n, failed=f)` when f of them failed: a runner's
errors). The line shows done/total, how many failed (once any has), the rate and the time left,
and ends with the total time. When the stream is not a terminal (a pipe, a file, CI, the tests)
nothing at all is written. Library code takes a Meter and defaults to `SILENT`, so it never draws
on its own; only the CLI passes a live one.
"""

from __future__ import annotations

import sys
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from typing import Final, Protocol, TextIO

REDRAW_SECONDS: Final = 0.1


class Meter(Protocol):
    def expect(self, total: int) -> None:
        """The amount of work, once it is known (it may grow: several files, several phases)."""

    def tick(self, n: int = 1, failed: int = 0) -> None:
        """`n` more units done, `failed` of them failures (a runner's errors, shown on the line:
        a dead endpoint is seen at once, not after the whole round)."""

    def break_line(self) -> None:
        """End the line drawn so far, so that other text on the same stream (a runner's stderr)
        starts on a line of its own; the next tick draws the line again below it."""


class _Silent:
    def expect(self, total: int) -> None:
        pass

    def tick(self, n: int = 1, failed: int = 0) -> None:
        pass

    def break_line(self) -> None:
        pass


SILENT: Final[Meter] = _Silent()


def _duration(seconds: float) -> str:
    whole = int(seconds + 0.5)
    if whole < 60:
        return f"{whole}s"
    if whole < 3600:
        return f"{whole // 60}m{whole % 60:02d}s"
    return f"{whole // 3600}h{whole % 3600 // 60:02d}m"


@dataclass(slots=True)
class Progress:
    """The state of one progress line; `line()` is a pure function of it and the clock."""

    label: str
    stream: TextIO
    total: int = 0
    clock: Callable[[], float] = time.monotonic
    done: int = 0
    failed: int = 0
    started: float = field(default=0.0)
    drawn_at: float = field(default=float("-inf"))
    width: int = 0

    def line(self, now: float) -> str:
        elapsed = max(now - self.started, 1e-9)
        rate = self.done / elapsed
        share = f" ({100 * self.done // self.total}%)" if self.total > 0 else ""
        text = f"{self.label}: {self.done}/{self.total}{share}{self._failures()}"
        if self.done and elapsed >= REDRAW_SECONDS:
            text += f", {rate:.1f}/s" if rate < 100 else f", {rate:.0f}/s"
            if 0 < self.done < self.total:
                text += f", {_duration((self.total - self.done) / rate)} left"
        return text

    def expect(self, total: int) -> None:
        self.total = total

    def _failures(self) -> str:
        return f", {self.failed} failed" if self.failed else ""

    def tick(self, n: int = 1, failed: int = 0) -> None:
        self.done += n
        self.failed += failed
        now = self.clock()
        if now - self.drawn_at >= REDRAW_SECONDS or self.done >= self.total:
            self._draw(self.line(now))
            self.drawn_at = now

    def break_line(self) -> None:
        if self.width:
            self.stream.write("\n")
            self.stream.flush()
            self.width = 0
            self.drawn_at = float("-inf")

    def finish(self) -> None:
        now = self.clock()
        self._draw(
            f"{self.label}: {self.done}/{self.total}{self._failures()} in "
            f"{_duration(now - self.started)}"
        )
        self.stream.write("\n")
        self.stream.flush()

    def _draw(self, text: str) -> None:
        # Pad over what the last line left, so a shorter line leaves no trailing characters.
        self.stream.write("\r" + text.ljust(self.width))
        self.stream.flush()
        self.width = len(text)


@contextmanager
def progress(
    label: str,
    total: int = 0,
    *,
    stream: TextIO | None = None,
    clock: Callable[[], float] = time.monotonic,
) -> Iterator[Meter]:
    """A Meter that draws on `stream` (default stderr) when it is a terminal, else `SILENT`."""
    out = sys.stderr if stream is None else stream
    if not _is_terminal(out):
        yield SILENT
        return
    state = Progress(label=label, stream=out, total=total, clock=clock, started=clock())
    try:
        yield state
    finally:
        state.finish()


def _is_terminal(stream: TextIO) -> bool:
    try:
        return stream.isatty()
    except (AttributeError, ValueError):  # a closed or odd stream is not a terminal
        return False
