"""The command line turns the cyclic collector off (cli/main.py `run`): that is only safe while the
commands that hold large structures make no reference cycles, so nothing waits for a collection
to be freed. Each command runs in this process with the collector off; a collection afterwards
may find argparse's own parser cycles, a few hundred objects whatever the input, and nothing of
the kit's (a bound method once tied a tally and its custody, and with them a round's sheet and
every entry: thousands of objects per layer)."""

from __future__ import annotations

import contextlib
import gc
import io
from collections import Counter
from collections.abc import Iterator
from pathlib import Path

import pytest

from honesty_pressure.cli.main import main

ARGPARSE_GARBAGE = 1000
"""Objects argparse's parsers leave in cycles for one command (about 380 measured)."""


@pytest.fixture
def collector_off() -> Iterator[None]:
    """The collector off, and everything alive before the test frozen: collections then walk only
    what the test makes (in a whole suite's process, a full collection over the session's packet
    sets takes over a second, and the test makes nine)."""
    was = gc.isenabled()
    gc.disable()
    gc.freeze()
    try:
        yield
    finally:
        gc.unfreeze()
        if was:
            gc.enable()


def _garbage_after(argv: list[str]) -> Counter[str]:
    gc.collect()  # what earlier commands left
    gc.garbage.clear()
    assert main(argv) == 0
    gc.set_debug(gc.DEBUG_SAVEALL)
    try:
        gc.collect()
        kinds = Counter(f"{type(o).__module__}.{type(o).__qualname__}" for o in gc.garbage)
    finally:
        gc.set_debug(0)
        gc.garbage.clear()
    return kinds


def _ours(kinds: Counter[str]) -> dict[str, int]:
    """The kit's own objects among the garbage (its argparse parser subclass is argparse's)."""
    return {
        name: n
        for name, n in kinds.items()
        if name.startswith("honesty_pressure.") and name != "honesty_pressure.cli.common.Parser"
    }


@pytest.mark.usefixtures("collector_off")
def test_large_commands_leave_no_cycles(quick_demo: Path, tmp_path: Path) -> None:
    replies = str(quick_demo / "round1.replies.jsonl")
    commands = {
        "score": ["score", "--layer", "quick", "--replies", replies, "--out", str(tmp_path / "s")],
        "advance": [
            "advance",
            "--layer",
            "quick",
            "--replies",
            replies,
            "--run",
            str(tmp_path / "r"),
        ],
        "score --run": [
            "score",
            "--run",
            str(quick_demo),
            "--replies",
            str(quick_demo / "round2.replies.jsonl"),
            "--out",
            str(tmp_path / "sr"),
        ],
        "selfcheck": ["selfcheck"],
    }
    for name, argv in commands.items():
        kinds = _garbage_after(argv)
        assert _ours(kinds) == {}, name
        assert sum(kinds.values()) < ARGPARSE_GARBAGE, (name, kinds.most_common(5))


@pytest.mark.parametrize(
    "argv", [["domains"], ["show", "no-such-source"], ["--version"]], ids=["ok", "error", "exit"]
)
def test_main_leaves_the_collector_as_it_found_it(argv: list[str]) -> None:
    """main() runs a command with the kit's thresholds (cli/main.py COMMAND_GC_THRESHOLD) and gives
    the caller its own back, however the command ends: a return, a KitError, argparse's exit."""
    before = gc.get_threshold()
    mine = (1234, 5, 6)
    gc.set_threshold(*mine)
    try:
        with contextlib.suppress(SystemExit), contextlib.redirect_stdout(io.StringIO()):
            with contextlib.redirect_stderr(io.StringIO()):
                main(argv)
        assert gc.get_threshold() == mine
    finally:
        gc.set_threshold(*before)
