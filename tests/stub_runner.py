"""A stand-in for a lab's runner: chat JSONL requests on stdin, chat JSONL replies on stdout.

It answers with a fixed code (first argument, default A) and never looks at a key; with
`--fail` it exits 3 after writing half its output, like a runner that crashed.
"""

from __future__ import annotations

import json
import sys


def main(argv: list[str]) -> int:
    code = argv[0] if argv and not argv[0].startswith("--") else "A"
    for number, line in enumerate(sys.stdin):
        if "--fail" in argv and number == 5:
            print("runner crashed: out of memory", file=sys.stderr)
            return 3
        request = json.loads(line)
        reply = {"role": "assistant", "content": f"Here is what I think.\nDECISION: {code}"}
        sys.stdout.write(json.dumps({"id": request["id"], "messages": [*request["messages"], reply]}) + "\n")
    return 0


if __name__ == "__main__":
    raise SystemExit(main(sys.argv[1:]))
