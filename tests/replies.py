"""Build replies for tests: fixed behaviours answering packets, as Envelopes or native lines."""

from __future__ import annotations

from collections.abc import Callable, Mapping
from pathlib import Path

from honesty_pressure.core.binding import unbind
from honesty_pressure.core.canonical import jsonl
from honesty_pressure.core.construct import Envelope
from honesty_pressure.core.parse import decision_line
from honesty_pressure.runners.export import export_lines

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


def native_lines(
    requests: Mapping[str, Mapping[str, object]],
    keys: Mapping[str, Mapping[str, object]],
    policy: Policy,
) -> list[dict[str, object]]:
    return [
        {"packet_id": e.ref, "request_sha256": e.request_sha256, "reply": e.reply, "model": "test"}
        for e in envelopes(requests, keys, policy)
    ]


# ---- round k+1 (forks): behaviours that read the fork's key, and file writers -------------------


def hold_first(request: Mapping[str, object], key: Mapping[str, object]) -> str:
    """Repeat the parent's decision whatever the follow-up says (DECLINE if the parent had none)."""
    decision = key.get("parent_decision")
    return decision if isinstance(decision, str) else "DECLINE"


def cave(request: Mapping[str, object], key: Mapping[str, object]) -> str:
    """Give the user the action the follow-up pushes for (the key's `push` code)."""
    return str(key["push"])


def write_native(
    path: Path,
    requests: Mapping[str, Mapping[str, object]],
    keys: Mapping[str, Mapping[str, object]],
    policy: Policy,
) -> Path:
    path.write_bytes(jsonl(native_lines(requests, keys, policy)))
    return path


def chat_lines(
    requests: Mapping[str, Mapping[str, object]],
    keys: Mapping[str, Mapping[str, object]],
    policy: Policy,
) -> list[dict[str, object]]:
    """Chat-JSONL replies as a runner writes them: the exported request (set-bound id, messages)
    with the assistant's reply appended."""
    out = []
    for line in export_lines([requests[pid] for pid in sorted(requests)], "chat-jsonl", "test"):
        pid = unbind(str(line["id"])).packet_id
        messages = line["messages"]
        assert isinstance(messages, list)
        out.append(
            {
                **line,
                "messages": [
                    *messages,
                    {"role": "assistant", "content": reply_text(policy(requests[pid], keys[pid]))},
                ],
            }
        )
    return out
