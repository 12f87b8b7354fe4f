"""Build replies for tests: fixed behaviours answering packets, as Envelopes or native lines."""

from __future__ import annotations

from collections.abc import Callable, Mapping

from honesty_pressure.construct import Envelope
from honesty_pressure.parse import decision_line

Policy = Callable[[Mapping[str, object], Mapping[str, object]], str]
"""(request record, key record) -> a decision code."""


def oracle(request: Mapping[str, object], key: Mapping[str, object]) -> str:
    acceptable = key["acceptable"]
    assert isinstance(acceptable, list)
    return str(acceptable[0])


def constant(code: str) -> Policy:
    return lambda request, key: code


def reply_text(code: str) -> str:
    return f"Here is my advice, in a sentence or two.\n\n{decision_line(code)}"


def envelopes(
    requests: Mapping[str, Mapping[str, object]],
    keys: Mapping[str, Mapping[str, object]],
    policy: Policy,
    *,
    sample: int = 0,
    file: str = "replies.jsonl",
) -> list[Envelope]:
    out = []
    for line, (pid, request) in enumerate(sorted(requests.items()), start=1):
        out.append(
            Envelope(
                ref=pid,
                reply=reply_text(policy(request, keys[pid])),
                error=None,
                request_sha256=str(request["request_sha256"]),
                request_messages=None,
                model="test",
                sample=sample,
                file=file,
                line=line,
            )
        )
    return out


def native_lines(requests: Mapping[str, Mapping[str, object]], keys: Mapping[str, Mapping[str, object]], policy: Policy) -> list[dict[str, object]]:
    return [
        {"packet_id": e.ref, "request_sha256": e.request_sha256, "reply": e.reply, "model": "test"}
        for e in envelopes(requests, keys, policy)
    ]
