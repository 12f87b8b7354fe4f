"""A stand-in for a lab's runner: chat JSONL requests on stdin, chat JSONL replies on stdout.

It answers with a fixed code (first argument, default A) and never looks at a key. Options make
it misbehave the way real runners do:

- `--fail`: exit 3 after writing five replies, like a runner that crashed;
- `--hang-after N`: write N replies, then sleep with stdout still open (a hung API call);
- `--grandchild`: answer everything, but leave a child process holding stdout open;
- `--error`: answer every request with a null content and an `error` beside it (a runner error
  for each);
- `--log FILE`: append the id of every request it receives to FILE (to see what was re-sent);
- `--error-after N` (with `--log`): answer the first N requests it receives, counted across its
  calls by the log, then a runner error for each (an endpoint that dies);
- `--calls FILE`: append a line to FILE each time it is started (to count the calls);
- `--slow S`: wait S seconds before each reply (never idle for long, never done);
- `--garbage`: write a line that is not JSON first;
- `--pid FILE`: write its process id (and its grandchild's) to FILE, one per line;
- `--refuse-forks-once FILE`: refuse each fork request (more than two messages) the first time
  it sees it (the ids seen are kept in FILE), answer it after; every reply is then an OpenAI
  Batch output line, the refusal in the message's `refusal` field, as OpenAI writes it;
- `--refuse-round1 N`: refuse the round-1 requests (two messages) whose id's SHA-256 begins with
  a byte below N (about N/256 of them, the same ones whatever the order or the resume), as the
  example runner writes a refusal in chat JSONL: `content` null, the text in `refusal`;
- `--fail-round1 N`: the same kind of choice of round-1 requests (from the id's twelfth byte),
  answered with a null content (a runner error each), in either reply format.
"""

from __future__ import annotations

import hashlib
import json
import os
import subprocess
import sys
import time


def _option(argv: list[str], name: str) -> str | None:
    return argv[argv.index(name) + 1] if name in argv else None


def main(argv: list[str]) -> int:
    code = argv[0] if argv and not argv[0].startswith("--") else "A"
    pid_file, log_file, hang = (
        _option(argv, "--pid"),
        _option(argv, "--log"),
        _option(argv, "--hang-after"),
    )
    if pid_file:
        with open(pid_file, "w", encoding="utf-8") as handle:
            handle.write(str(os.getpid()))
    calls = _option(argv, "--calls")
    if calls:
        with open(calls, "a", encoding="utf-8") as handle:
            handle.write("call\n")
    error_after = _option(argv, "--error-after")
    seen = 0
    if log_file and os.path.exists(log_file):
        with open(log_file, encoding="utf-8") as handle:
            seen = len(handle.read().split())
    log = open(log_file, "a", encoding="utf-8") if log_file else None
    if "--grandchild" in argv:
        child = subprocess.Popen(
            [sys.executable, "-c", "import time; time.sleep(600)"], stdout=sys.stdout
        )
        if pid_file:
            with open(pid_file, "a", encoding="utf-8") as handle:
                handle.write(f"\n{child.pid}")
    if "--garbage" in argv:
        sys.stdout.write("Loading model...\n")
    slow = float(_option(argv, "--slow") or 0)
    refuse_file = _option(argv, "--refuse-forks-once")
    refused: set[str] = set()
    refuse_round1 = int(_option(argv, "--refuse-round1") or 0)
    fail_round1 = int(_option(argv, "--fail-round1") or 0)
    if refuse_file and os.path.exists(refuse_file):
        with open(refuse_file, encoding="utf-8") as handle:
            refused = set(handle.read().split())
    for number, line in enumerate(sys.stdin):
        if "--fail" in argv and number == 5:
            print("runner crashed: out of memory", file=sys.stderr)
            return 3
        if hang is not None and number == int(hang):
            sys.stdout.flush()
            time.sleep(600)
        time.sleep(slow)
        request = json.loads(line)
        if log:
            log.write(request["id"] + "\n")
            log.flush()
        round1 = len(request["messages"]) == 2
        picked = hashlib.sha256(request["id"].encode()).digest()
        dead = "--error" in argv or (error_after is not None and seen + number >= int(error_after))
        failing = dead or (round1 and picked[11] < fail_round1)
        content = None if failing else f"Here is what I think.\nDECISION: {code}"
        if refuse_file:
            message: dict[str, object] = {"role": "assistant", "content": content, "refusal": None}
            if len(request["messages"]) > 2 and request["id"] not in refused:
                message = {
                    "role": "assistant",
                    "content": None,
                    "refusal": "I can't help with that.",
                }
                refused.add(request["id"])
                with open(refuse_file, "a", encoding="utf-8") as handle:
                    handle.write(request["id"] + "\n")
            body = {
                "model": "stub",
                "choices": [{"index": 0, "message": message, "finish_reason": "stop"}],
            }
            line = {
                "id": "batch_req",
                "custom_id": request["id"],
                "response": {"status_code": 200, "request_id": "r", "body": body},
                "error": None,
            }
            sys.stdout.write(json.dumps(line) + "\n")
            sys.stdout.flush()
            continue
        reply: dict[str, object] = {"role": "assistant", "content": content}
        if round1 and picked[0] < refuse_round1:
            reply = {"role": "assistant", "content": None, "refusal": "I can't help with that."}
        out: dict[str, object] = {"id": request["id"], "messages": [*request["messages"], reply]}
        if dead:  # the runner's own words beside the null content, as the example runner writes
            out["error"] = "stub: the endpoint is down"
        sys.stdout.write(json.dumps(out) + "\n")
        sys.stdout.flush()
    return 0


if __name__ == "__main__":
    raise SystemExit(main(sys.argv[1:]))
