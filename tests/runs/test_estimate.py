"""`estimate`: requests and tokens per round, counted from the packets before anything is sent."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from honesty_pressure.files.layer import load_checked_layer
from honesty_pressure.runs.estimate import estimate
from tests.hostile.kit import run_in_process

ROOT = Path(__file__).resolve().parents[2]
PROG = "python -m honesty_pressure estimate"

QUICK_TABLE = """\
estimate: layer quick (set 2268b6b28c0f), 1 sample per packet, rounds 1 to 2, protocol default
assumed: 4 characters per token (--chars-per-token), replies of 1,024 tokens (--reply-tokens)

| round | requests | input tokens | output tokens | input is |
|---|---|---|---|---|
| 1 | 440 | 164,250 | 450,560 | the packets |
| 2 | 1,718 | 2,468,223 | 1,759,232 | projected |
| total | 2,158 | 2,632,473 | 2,209,792 | |

requests: exact, as `run` sends them, if every request gets an answer
input tokens: round 1 from round1.jsonl; later rounds hold earlier replies: projected
output tokens: projected, every reply at the assumed length
tokens: characters / the rate, not a tokenizer's count
"""


def test_the_quick_layers_table() -> None:
    done = run_in_process("estimate")
    assert (done.returncode, done.stderr) == (0, "")
    assert done.stdout == QUICK_TABLE


def _lines(path: Path) -> list[dict[str, object]]:
    return [json.loads(line) for line in path.read_text(encoding="utf-8").splitlines()]


def test_rounds_1_and_2_are_what_the_demo_sent(quick_demo: Path) -> None:
    """Round 1's requests and characters are those the demo exported; round 2's requests are the
    forks `advance` wrote for the demo's replies (whose decisions the estimate never saw)."""
    folder = load_checked_layer(ROOT / "packets", "quick")
    found = estimate(folder, samples=1, rounds=2, protocol="default")
    first, second = found.rounds
    sent = _lines(quick_demo / "round1.requests.jsonl")
    assert first.requests == len(sent) == 440
    assert first.input_chars == sum(
        len(m["content"])
        for line in sent
        for m in line["body"]["messages"]  # type: ignore[index]
    )
    forks = _lines(quick_demo / "round2.jsonl")
    assert second.requests == len(forks) == len(_lines(quick_demo / "round2.requests.jsonl"))
    assert second.requests == 1718
    # Each fork request holds its parent's messages, the reply and a follow-up: at the demo's
    # own mean reply length, the projection is the demo's characters within half a per cent (the
    # follow-up's wording depends on the direction of the push, which depends on the reply).
    replies = {
        str(r["packet_id"]): len(str(r["reply"])) for r in _lines(quick_demo / "frozen.jsonl")
    }
    demo_chars = sum(len(str(m["content"])) for f in forks for m in f["messages"])  # type: ignore[attr-defined]
    mean_reply = sum(replies[str(f["parent"])] for f in forks) / len(forks)
    projected = second.input_chars - second.requests * (4 * 1024 - mean_reply)
    assert abs(projected - demo_chars) / demo_chars < 0.005


@pytest.mark.parametrize(
    ("args", "counts"),
    [
        (["--samples", "2", "--rounds", "3", "--protocol", "sustained"], ["880", "3,436", "3,436"]),
        (["--rounds", "1"], ["440"]),
    ],
)
def test_samples_and_rounds_as_run_sends_them(args: list[str], counts: list[str]) -> None:
    """`run --samples 2 --protocol sustained --rounds 3` on the quick layer sent 880, 3,436 and
    3,436 requests (the stub runner, 2026-12-06): each fork of each sample's parent is sent once,
    and a sustained round after the second sends one push per thread."""
    done = run_in_process("estimate", *args)
    assert done.returncode == 0, done.stderr
    rows = [line.split(" | ") for line in done.stdout.splitlines() if line[2:3].isdigit()]
    assert [row[1] for row in rows] == counts


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (
            ["--rounds", "3"],
            "--rounds 3 needs --protocol sustained (one fork per parent and round); the default "
            "protocol grows four-fold or more per round: chain it by hand with advance --from-run",
        ),
        (["--rounds", "0"], "--rounds must be from 1 to 5"),
        (
            ["--chars-per-token", "0"],
            "argument --chars-per-token: expected a number of characters per token from 0.5 to "
            "20, got '0'",
        ),
    ],
)
def test_usage_errors(args: list[str], message: str) -> None:
    done = run_in_process("estimate", *args)
    assert (done.returncode, done.stdout) == (2, "")
    assert done.stderr == f"{PROG}: {message}\n"


def test_a_rate_and_a_reply_length_scale_the_tokens() -> None:
    """Halving the characters per token doubles every token figure (to rounding); the requests do
    not move."""
    folder = load_checked_layer(ROOT / "packets", "quick")
    one = estimate(folder, samples=1, rounds=1, protocol="default", reply_tokens=100)
    two = estimate(
        folder, samples=1, rounds=1, protocol="default", reply_tokens=100, chars_per_token=2.0
    )
    assert one.rounds[0].requests == two.rounds[0].requests
    assert one.rounds[0].input_chars == two.rounds[0].input_chars
    assert one.rounds[0].output_chars == 440 * 400 and two.rounds[0].output_chars == 440 * 200


def test_the_readme_shows_the_table_the_command_prints() -> None:
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    table = [line for line in QUICK_TABLE.splitlines() if line.startswith("|")]
    assert "\n".join(table) in readme
