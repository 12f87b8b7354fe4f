"""The next round of one parent at a time, as `advance` builds it for the whole set.

An Inspect task runs each sample on its own: round 1's reply of one (packet, sample) is in hand
long before the others, and the task sends that parent's forks at once (honesty_pressure/
inspect_task.py). This module builds them from that one reply with advance's own steps (the
parent as `freeze` makes it, the forks as `grow` makes them, the request lines as `fork_lines`
writes them), so each fork's messages are the bytes `advance` writes for the same reply.

Two things differ from a whole-set advance, and neither reaches a message. The run set that
binds the next round's ids is a digest of every frozen reply, unknown while one sample runs: the
records carry `packet_set` "" and the kit binds the replies when it reads the log back. The
triad's pressure type is dealt over a seeded order of every (packet, sample) of round 1, known
before any reply (the packets and the number of samples): `round2_plan` deals it once, as
`plan` deals it inside advance. Later rounds of the sustained protocol plan each parent alone.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Mapping, Sequence
from dataclasses import dataclass

from ..core.construct import ForkKind, PressureType, Protocol
from ..core.parse import parse_decision
from ..files.store import JsonObject
from ..runners.envelopes import refused as is_refusal
from ..scoring.score import menu_codes
from . import sustained
from .advance import Frozen, ParentSet, fork_lines, grow, parent_of
from .fork import plan

Kinds = dict[tuple[str, int], list[tuple[ForkKind, PressureType | None]]]

UNBOUND = ""
"""The run set of a round built one parent at a time: unknown until every reply is in."""


@dataclass(frozen=True, slots=True)
class NextRound:
    """One parent's forks: the requests to send (sendable forks only, as round{k+1}.jsonl holds
    them) and every fork's key, and the parents they make for the round after."""

    requests: list[JsonObject]
    keys: list[JsonObject]
    parents: ParentSet


def round2_plan(parents: ParentSet, samples: int, protocol: Protocol) -> Kinds:
    """Which forks each round-1 (packet, sample) gets, as advance deals them over a layer whose
    replies hold samples 0..samples-1."""
    if samples < 1:
        raise ValueError(f"samples must be at least 1, got {samples}")
    everyone = [(pid, s) for pid in sorted(parents.requests) for s in range(samples)]
    escalation = {(pid, s) for pid, s in everyone if parents.keys[pid]["state"] == "escalation"}
    return plan(everyone, parents.seed, protocol, escalation)


def next_round(
    parents: ParentSet,
    packet_id: str,
    sample: int,
    reply: str | None,
    error: str | None,
    *,
    protocol: Protocol,
    kinds: Mapping[tuple[str, int], Sequence[tuple[ForkKind, PressureType | None]]] | None = None,
) -> NextRound:
    """The forks of one parent from its reply (None with `error`, a runner error or a refusal as
    the kit reads it). Round 1's parents need `kinds` (round2_plan); a later round of the
    sustained protocol plans its parent alone, as advance does."""
    request, key = parents.requests[packet_id], parents.keys[packet_id]
    decision = parse_decision(reply, menu_codes(request), runner_error=error is not None).decision
    parent = parent_of(packet_id, sample, request, key, reply, decision, refused=is_refusal(error))
    slot = (packet_id, sample)
    threads: dict[tuple[str, int], sustained.Thread] = {}
    if protocol == "sustained" and parents.round >= 2:
        planned, threads = sustained.continue_plan(
            [parent], parents.keys, parents.seed, parents.round + 1
        )
    else:
        if kinds is None or slot not in kinds:
            raise ValueError(f"no planned forks for {packet_id} sample {sample}")
        planned = {slot: list(kinds[slot])}
        if protocol == "sustained":
            threads = sustained.round2_threads(planned)
    frozen = Frozen(b"", [parent], UNBOUND, planned, protocol, threads)
    forks = grow(parents, frozen, [parent], where=None)
    requests, _, keys = fork_lines(parents, frozen, forks)
    following = dataclasses.replace(
        parents,
        round=parents.round + 1,
        parent_set=UNBOUND,
        requests={str(r["packet_id"]): r for r in requests},
        keys={str(k["packet_id"]): k for k in keys},
        source="",
    )
    return NextRound(requests, keys, following)


__all__ = ["UNBOUND", "Kinds", "NextRound", "next_round", "round2_plan"]
