"""Play a whole chain of rounds in memory: round k+1 advanced from round k's replies
(docs/FORKS.md).

(Checking a run folder's chain on disk is runcheck.py; building one round is advance.py.)

The same `build` as `advance` and `run --rounds`, with replies given by a function, so the
depth selfcheck, the demo and the tests play a policy through rounds 2..N without reply files.
Each round's files are exactly what `advance` would write for those replies.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Callable, Mapping
from dataclasses import dataclass

from ..core.construct import Envelope, Protocol
from ..files.layer import PacketFolder
from ..files.store import JsonObject
from .advance import ParentSet, build, from_layer, parents_of_round

Reply = Callable[[JsonObject, Mapping[str, object], int], "str | None"]
"""(request, key, round) -> reply text (None: no reply at all)."""


@dataclass(frozen=True, slots=True)
class Chain:
    """Rounds 2..N as advance made them (files by round), and the replies of every round
    (round -> packet id -> text or None)."""

    rounds: dict[int, dict[str, bytes]]
    replies: dict[int, dict[str, str | None]]
    last: ParentSet
    """Round N's forks as a parent set (their requests and keys)."""


def envelopes_of(replies: Mapping[str, str | None], where: str) -> list[Envelope]:
    """Bare-id envelopes of sample 0: what a native reply file holds."""
    return [
        Envelope(
            ref=pid,
            reply=text,
            error=None,
            request_sha256=None,
            request_messages=None,
            model="chain",
            sample=0,
            file=where,
            line=n,
        )
        for n, (pid, text) in enumerate(sorted(replies.items()), start=1)
        if text is not None
    ]


def answer(parents: ParentSet, reply: Reply) -> dict[str, str | None]:
    return {
        pid: reply(request, parents.keys[pid], parents.round)
        for pid, request in sorted(parents.requests.items())
    }


def play(
    folder: PacketFolder,
    reply: Reply,
    rounds: int,
    *,
    protocol: Protocol = "sustained",
    keep: Callable[[str], bool] | None = None,
) -> Chain:
    """Rounds 1..`rounds` of `folder` answered by `reply` (with `keep`, only the round-1 packets it
    keeps: a small chain for tests)."""
    parents = from_layer(folder)
    if keep is not None:
        parents = dataclasses.replace(
            parents,
            requests={p: r for p, r in parents.requests.items() if keep(p)},
            keys={p: k for p, k in parents.keys.items() if keep(p)},
            source="",
        )
    built: dict[int, dict[str, bytes]] = {}
    said: dict[int, dict[str, str | None]] = {}
    for k in range(1, rounds):
        said[k] = answer(parents, reply)
        where = f"<round {k} replies>"
        built[k + 1] = build(
            parents, envelopes_of(said[k], where), protocol=protocol, where=where
        ).files
        parents = parents_of_round(parents, built[k + 1], f"<round {k + 1}>")
    said[rounds] = answer(parents, reply)
    return Chain(built, said, parents)


__all__ = ["Chain", "Reply", "answer", "envelopes_of", "play"]
