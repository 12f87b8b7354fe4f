"""rounds/one_parent.py: one parent's next round built alone is advance's, byte for byte.

The Inspect task of the whole protocol (honesty_pressure/inspect_task.py) sends each sample's
forks as soon as its own reply is in, so it cannot wait for a whole-set advance. Each fork's
request and key must still be what `advance` writes for the same replies: otherwise the kit,
which rebuilds the chain from the log's round-1 replies, would score other forks than the ones
the model was sent. Only the run set differs (a digest of every reply, unknown to one sample).
"""

from __future__ import annotations

from functools import cache
from pathlib import Path

import pytest

from honesty_pressure.core.binding import bind
from honesty_pressure.core.construct import Envelope, Protocol
from honesty_pressure.files.layer import load_layer
from honesty_pressure.files.store import JsonObject
from honesty_pressure.rounds.advance import ParentSet, build, from_layer, parents_of_round
from honesty_pressure.rounds.one_parent import UNBOUND, next_round, round2_plan

ROOT = Path(__file__).resolve().parents[2]
REPLIES = ("Go ahead.\nDECISION: A", "Hold off.\nDECISION: B", "Get help.\nDECISION: ESCALATE")


@cache
def parents() -> ParentSet:
    return from_layer(load_layer(ROOT / "packets", "quick"))


def reply_of(pid: str, sample: int) -> tuple[str | None, str | None]:
    """A reply of every kind a parent can have: each decision, a refusal, a runner error, none."""
    pick = (sum(map(ord, pid)) + sample) % 6
    if pick == 3:
        return None, "refusal: content_filter"
    if pick == 4:
        return None, "HTTP 500"
    return ("I would rather not say." if pick == 5 else REPLIES[pick]), None


def envelope(pid: str, packet_set: str, sample: int) -> Envelope:
    reply, error = reply_of(pid, sample)
    return Envelope(
        ref=bind(pid, packet_set, sample),
        reply=reply,
        error=error,
        request_sha256=None,
        request_messages=None,
        model=None,
        sample=0,
        file="replies.jsonl",
        line=1,
    )


def unbound(records: list[JsonObject]) -> list[JsonObject]:
    """The records without the run set, the one field a parent alone cannot know."""
    return sorted(
        ({k: v for k, v in r.items() if k != "packet_set"} for r in records),
        key=lambda r: str(r["packet_id"]),
    )


@pytest.mark.parametrize("protocol", ["default", "sustained"])
def test_round2_alone_is_advance_s_round2(protocol: Protocol) -> None:
    """Two samples of every quick packet: the triad is dealt over all 880 (packet, sample)
    pairs, and each parent built alone gives advance's requests and keys."""
    first = parents()
    envelopes = [envelope(pid, first.parent_set, s) for pid in first.requests for s in (0, 1)]
    whole = build(first, envelopes, protocol=protocol)
    kinds = round2_plan(first, 2, protocol)
    requests: list[JsonObject] = []
    keys: list[JsonObject] = []
    for pid in first.requests:
        for sample in (0, 1):
            made = next_round(
                first, pid, sample, *reply_of(pid, sample), protocol=protocol, kinds=kinds
            )
            assert {r["packet_set"] for r in made.requests} <= {UNBOUND}
            assert made.parents.round == 2 and set(made.parents.requests) == {
                str(r["packet_id"]) for r in made.requests
            }
            requests += made.requests
            keys += made.keys
    # A refusal's and a runner error's forks are keyed but never sent, as in advance.
    assert len(keys) > len(requests) > 0
    assert unbound(requests) == unbound(whole.requests)
    assert sorted(keys, key=lambda k: str(k["packet_id"])) == whole.keys


def test_a_sustained_round_3_alone_is_advance_s() -> None:
    """Round 3 of the sustained protocol: each round-2 fork, continued alone, gives the fork
    advance grows from the same round-2 replies."""
    first = parents()
    envelopes = [envelope(pid, first.parent_set, 0) for pid in first.requests]
    second = build(first, envelopes, protocol="sustained")
    level = parents_of_round(first, second.files, "run")
    third = build(
        level, [envelope(f, level.parent_set, 0) for f in level.requests], protocol="sustained"
    )
    kinds = round2_plan(first, 1, "sustained")
    requests: list[JsonObject] = []
    for pid in first.requests:
        made = next_round(first, pid, 0, *reply_of(pid, 0), protocol="sustained", kinds=kinds)
        for fork in made.parents.requests:
            requests += next_round(
                made.parents, fork, 0, *reply_of(fork, 0), protocol="sustained"
            ).requests
    assert unbound(requests) == unbound(third.requests) and third.requests


def test_round2_needs_its_plan() -> None:
    first = parents()
    pid = min(first.requests)
    with pytest.raises(ValueError, match=f"no planned forks for {pid} sample 1"):
        next_round(
            first,
            pid,
            1,
            "DECISION: A",
            None,
            protocol="default",
            kinds=round2_plan(first, 1, "default"),
        )
    with pytest.raises(ValueError, match="samples must be at least 1, got 0"):
        round2_plan(first, 0, "default")
