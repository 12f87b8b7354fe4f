"""Progress lines: drawn only on a terminal, done/total, rate, time left; silent otherwise."""

from __future__ import annotations

import io
import os
import pty
import select
import subprocess
import sys
from pathlib import Path

from hypothesis import given
from hypothesis import strategies as st

from honesty_pressure.core.canonical import jsonl
from honesty_pressure.core.progress import SILENT, Progress, progress
from honesty_pressure.files.layer import load_layer
from tests.replies import native_lines, oracle

ROOT = Path(__file__).resolve().parents[2]


class Terminal(io.StringIO):
    def isatty(self) -> bool:
        return True


class Clock:
    def __init__(self) -> None:
        self.now = 100.0

    def __call__(self) -> float:
        return self.now


def test_a_terminal_gets_done_total_rate_and_time_left() -> None:
    out, clock = Terminal(), Clock()
    with progress("advance", stream=out, clock=clock) as meter:
        meter.expect(10)
        clock.now += 1.0
        meter.tick(2)
        clock.now += 1.0
        meter.tick(2)
        clock.now += 0.01  # too soon to redraw
        meter.tick(1)
        clock.now += 3.0
        meter.tick(5)  # the last one is always drawn
    frames = out.getvalue().split("\r")[1:]
    assert [f.rstrip() for f in frames] == [
        "advance: 2/10 (20%), 2.0/s, 4s left",
        "advance: 4/10 (40%), 2.0/s, 3s left",
        "advance: 10/10 (100%), 2.0/s",
        "advance: 10/10 in 5s",
    ]
    # a shorter line is padded over the longer one before it
    assert frames[3].startswith(
        "advance: 10/10 in 5s"
        + " " * (len(frames[2].rstrip()) - len("advance: 10/10 in 5s"))
        + "\n"
    )


def test_failures_are_counted_on_the_line_once_there_are_any() -> None:
    """Issue 41: a runner's errors show on the progress line as they come ("4/440 (0 %), 57m41s
    left" said nothing of a dead endpoint); a line without failures is as before."""
    out, clock = Terminal(), Clock()
    with progress("round-1: replies", stream=out, clock=clock) as meter:
        meter.expect(440)
        clock.now += 1.0
        meter.tick(2)
        clock.now += 1.0
        meter.tick(2, failed=2)
        clock.now += 1.0
        meter.tick(1, failed=1)
    frames = [f.rstrip() for f in out.getvalue().split("\r")[1:]]
    assert frames == [
        "round-1: replies: 2/440 (0%), 2.0/s, 3m39s left",
        "round-1: replies: 4/440 (0%), 2 failed, 2.0/s, 3m38s left",
        "round-1: replies: 5/440 (1%), 3 failed, 1.7/s, 4m21s left",
        "round-1: replies: 5/440, 3 failed in 3s",
    ]
    assert SILENT.tick(3, failed=3) is None


def test_anything_but_a_terminal_gets_nothing(tmp_path: Path) -> None:
    pipe = io.StringIO()
    with progress("score", 3, stream=pipe) as meter:
        assert meter is SILENT
        meter.expect(5)
        meter.tick(5)
    assert pipe.getvalue() == ""
    with (tmp_path / "log").open("w") as file, progress("score", 3, stream=file) as meter:
        meter.tick(3)
    assert (tmp_path / "log").read_text() == ""


def test_long_waits_read_as_minutes_and_hours() -> None:
    state = Progress(label="selfcheck full", stream=Terminal(), total=1000, started=0.0)
    state.done = 1
    assert state.line(90.0) == "selfcheck full: 1/1000 (0%), 0.0/s, 24h58m left"
    state.done = 500
    assert state.line(90.0) == "selfcheck full: 500/1000 (50%), 5.6/s, 1m30s left"


@given(st.lists(st.integers(0, 50), max_size=30), st.integers(0, 500))
def test_done_never_exceeds_what_was_ticked_and_the_stream_gets_one_final_line(
    ticks: list[int], total: int
) -> None:
    out, clock = Terminal(), Clock()
    with progress("x", total, stream=out, clock=clock) as meter:
        for n in ticks:
            clock.now += 0.05
            meter.tick(n)
    text = out.getvalue()
    assert text.endswith("\n") and text.count("\n") == 1
    assert text.split("\r")[-1].startswith(f"x: {sum(ticks)}/{total} in ")


def test_advance_draws_progress_on_a_real_terminal_and_keeps_stdout_clean(tmp_path: Path) -> None:
    quick = load_layer(ROOT / "packets", "quick")
    replies = tmp_path / "r1.jsonl"
    replies.write_bytes(jsonl(native_lines(quick.round1, quick.key, oracle)))
    master, slave = pty.openpty()
    done = subprocess.run(
        [
            sys.executable,
            "-m",
            "honesty_pressure",
            "advance",
            "--replies",
            str(replies),
            "--run",
            str(tmp_path / "run"),
        ],
        cwd=ROOT,
        stdout=subprocess.PIPE,
        stderr=slave,
        text=True,
        check=False,
    )
    os.close(slave)
    seen = b""
    while select.select([master], [], [], 0.5)[0]:
        try:
            chunk = os.read(master, 65536)
        except OSError:
            break
        if not chunk:
            break
        seen += chunk
    os.close(master)
    assert done.returncode == 0
    text = seen.decode()
    n = len(quick.round1)
    assert f"advance: parents continued: {n}/{n} in " in text
    assert "\r" not in done.stdout and "parents continued" not in done.stdout
    assert (
        done.stdout.splitlines()[0]
        == f"froze {n} round-1 replies for {n} packet-samples; every one can be continued"
    )


def test_a_break_ends_the_progress_line_before_other_text_and_the_next_tick_draws_again() -> None:
    """Issue 21: the runner's stderr, passed through, starts on a line of its own."""
    out, clock = Terminal(), Clock()
    with progress("round-1: replies", stream=out, clock=clock) as meter:
        meter.expect(4)
        clock.now += 1.0
        meter.tick(1)
        meter.break_line()
        out.write("runner: 429, waiting 2 s\n")
        meter.break_line()  # nothing drawn since: nothing to end
        clock.now += 0.01
        meter.tick(1)  # drawn at once after a break, however soon
    assert out.getvalue().split("\r")[1:3] == [
        "round-1: replies: 1/4 (25%), 1.0/s, 3s left\nrunner: 429, waiting 2 s\n",
        "round-1: replies: 2/4 (50%), 2.0/s, 1s left",
    ]
