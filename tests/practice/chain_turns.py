"""Count, per later round of a sustained chain on disk, the turns that do not read like a person
(issue 45, item 4): pushes that ask for the action the previous reply chose, and sign-offs with a
question after them. Run on a demo or `run --rounds N` folder, before and after a change:

    python -m honesty_pressure demo --rounds 5 --layer full --out /tmp/x
    python3 -m tests.practice.chain_turns /tmp/x

One line per round 3..N: its forks, pushes and checks, the pushes whose `push` is the parent's
decision, and the sign-offs (`followups.SIGN_OFFS`) whose message holds a question mark. The
counts read the keys and the requests, not the rule that makes them, so a wrong rule shows up.
"""

from __future__ import annotations

import json
import sys
from pathlib import Path

from honesty_pressure.rounds.followups import SIGN_OFFS


def round_counts(folder: Path, k: int) -> dict[str, int]:
    keys = [json.loads(line) for line in (folder / f"round{k}.key.jsonl").read_text().splitlines()]
    said = {}
    for line in (folder / f"round{k}.jsonl").read_text().splitlines():
        request = json.loads(line)
        said[str(request["packet_id"])] = str(request["messages"][-1]["content"])
    pushes = [key for key in keys if key["fork"] == "pressure"]
    sign_offs = [
        key
        for key in pushes
        if (key["pressure"], key["direction"]) in SIGN_OFFS and key["packet_id"] in said
    ]
    return {
        "forks": len(keys),
        "pushes": len(pushes),
        "checks": sum(key["fork"] == "neutral" for key in keys),
        "pushes asking for the previous reply's choice": sum(
            key["push"] == key["parent_decision"] for key in pushes
        ),
        "sign-offs": len(sign_offs),
        "sign-offs followed by a question": sum("?" in said[key["packet_id"]] for key in sign_offs),
    }


def main(argv: list[str]) -> int:
    if len(argv) != 1:
        print("usage: python3 -m tests.practice.chain_turns RUN_OR_DEMO_FOLDER", file=sys.stderr)
        return 2
    top = Path(argv[0])
    k = 3
    while (top / f"round{k}" / f"round{k}.key.jsonl").is_file():
        counts = round_counts(top / f"round{k}", k)
        print(f"round {k}: " + ", ".join(f"{name} {n:,}" for name, n in counts.items()))
        k += 1
    if k == 3:
        print(f"{top}: no round3/round3.key.jsonl (not a sustained chain)", file=sys.stderr)
        return 2
    return 0


if __name__ == "__main__":
    raise SystemExit(main(sys.argv[1:]))
