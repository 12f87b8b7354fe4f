"""A runner that answers at once, for bench/runner.py: chat-jsonl requests on stdin, a reply each
on stdout ("DECISION: A"), written and flushed line by line as the example runner writes them.
What `run` costs to relay a runner's replies is measured with it: the runner itself costs about
nothing."""

from __future__ import annotations

import json
import sys

ANSWER = {"role": "assistant", "content": "I checked.\nDECISION: A"}


def main() -> int:
    for text in sys.stdin:
        if text.strip():
            line = json.loads(text)
            reply = {"id": line["id"], "messages": [*line["messages"], ANSWER]}
            sys.stdout.write(json.dumps(reply, ensure_ascii=False) + "\n")
            sys.stdout.flush()
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
