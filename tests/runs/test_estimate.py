"""`estimate`: requests and tokens per round, counted from the packets before anything is sent."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from honesty_pressure.files.layer import load_checked_layer
from honesty_pressure.runs.estimate import Measured, estimate, project
from tests.hostile.kit import run_in_process

ROOT = Path(__file__).resolve().parents[2]
PROG = "python -m honesty_pressure estimate"

QUICK_TABLE = """\
estimate: layer quick (set 03d2afed6247), 1 sample per packet, rounds 1 to 2, protocol default
assumed: 4 characters per token (--chars-per-token), replies of 1,024 tokens (--reply-tokens)

| round | requests | input tokens | output tokens | input is |
|---|---|---|---|---|
| 1 | 440 | 164,250 | 450,560 | the packets |
| 2 | 1,718 | 2,467,809 | 1,759,232 | projected |
| total | 2,158 | 2,632,059 | 2,209,792 | |

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


def test_the_readme_shows_the_table_the_command_prints() -> None:
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    table = [line for line in QUICK_TABLE.splitlines() if line.startswith("|")]
    assert "\n".join(table) in readme


QUICK = Measured(
    layer="quick",
    packet_set="03d2afed6247",
    protocol="sustained",
    round1_requests=440,
    round1_chars=657_000,
    round2_requests=1718,
    round2_chars=2_800_000,
    push_chars=150,
)


@settings(max_examples=60, deadline=None)
@given(
    samples=st.integers(1, 64),
    rounds=st.integers(1, 5),
    rate=st.floats(0.5, 20.0),
    reply=st.integers(1, 100_000),
)
def test_the_projection_scales_as_run_sends(
    samples: int, rounds: int, rate: float, reply: int
) -> None:
    """Every round after the first sends as many requests as round 2, `samples` times one
    sample's; each reply is the assumed length; a request grows by a reply and a push per round;
    and the first rounds do not depend on how many follow."""
    found = project(QUICK, samples=samples, rounds=rounds, chars_per_token=rate, reply_tokens=reply)
    reply_chars = round(reply * rate)
    assert [cost.round for cost in found.rounds] == list(range(1, rounds + 1))
    assert [cost.requests for cost in found.rounds] == [440 * samples] + [1718 * samples] * (
        rounds - 1
    )
    assert all(cost.output_chars == cost.requests * reply_chars for cost in found.rounds)
    assert found.rounds[0].input_chars == 657_000 * samples
    for before, after in zip(found.rounds[1:], found.rounds[2:]):
        assert after.input_chars - before.input_chars == before.requests * (reply_chars + 150)
    deepest = project(QUICK, samples=samples, rounds=5, chars_per_token=rate, reply_tokens=reply)
    assert deepest.rounds[:rounds] == found.rounds
