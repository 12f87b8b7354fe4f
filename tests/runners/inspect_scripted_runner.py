"""The scripted model of inspect_scripted.py as a `run --runner` command: chat-jsonl requests on
stdin, each answered with the reply that model gives the same messages on their first asking (a
content filter as the model's refusal, one input and one output token), so `run` and the package's
Inspect task see one model (tests/runners/test_inspect_protocol.py). Standard library only."""

from __future__ import annotations

import hashlib
import json
import sys
from pathlib import Path

# The reply table is inspect_scripted.py's, read from its source: that module needs inspect-ai.
_SOURCE = (Path(__file__).resolve().parent / "inspect_scripted.py").read_text(encoding="utf-8")
_START = _SOURCE.index("REPLIES: tuple[tuple[str, str], ...] = (")
_TABLE = _SOURCE[_START : _SOURCE.index("\n)\n", _START) + 3]
_SCOPE: dict[str, object] = {}
exec(_TABLE, _SCOPE)  # noqa: S102  (a literal table of strings, this repository's own file)
REPLIES: tuple[tuple[str, str], ...] = _SCOPE["REPLIES"]  # type: ignore[assignment]


def answer(request: dict[str, object]) -> dict[str, object]:
    messages = request["messages"]
    assert isinstance(messages, list)
    key = json.dumps([str(m["content"]) for m in messages])
    content, stop = REPLIES[hashlib.sha256(key.encode()).digest()[0] % len(REPLIES)]
    reply: dict[str, object] = {"role": "assistant", "content": content}
    if stop == "content_filter":
        reply = {"role": "assistant", "content": None, "refusal": "content_filter"}
    return {
        "id": request["id"],
        "messages": [*messages, reply],
        "usage": {"input_tokens": 1, "output_tokens": 1},
    }


if __name__ == "__main__":
    for line in sys.stdin:
        if line.strip():
            print(json.dumps(answer(json.loads(line))), flush=True)
