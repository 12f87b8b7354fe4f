"""Cost and speed of a sustained chain: requests per round and `advance` time per round.

    PYTHONPATH=. python3 bench/sustained.py [--layer quick] [--rounds 5]

Every reply present (the oracle answers, so no parent is without a reply: the most a round can
cost), the sustained protocol, rounds 1..N. For each round: the requests it sends, and the wall
time of the advance that built it (advance.build: freeze, plan, forks, files), the same code
`run --rounds` and `advance --from-run` run. The README's cost table is this command's output.
"""

from __future__ import annotations

import argparse
import time
from pathlib import Path

from honesty_pressure.checks.policies import reply_text
from honesty_pressure.files.layer import load_checked_layer
from honesty_pressure.rounds.advance import build, from_layer, parents_of_round
from honesty_pressure.rounds.chain import answer, envelopes_of
from honesty_pressure.rounds.sustained import MAX_ROUNDS

ROOT = Path(__file__).resolve().parent.parent


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--layer", choices=("quick", "full"), default="quick")
    parser.add_argument("--rounds", type=int, default=MAX_ROUNDS)
    args = parser.parse_args()
    folder = load_checked_layer(ROOT / "packets", args.layer)
    parents = from_layer(folder)
    rows = [(1, len(parents.requests), None)]
    for k in range(1, args.rounds):
        replies = answer(
            parents, lambda request, key, round_: reply_text(str(key["acceptable"][0]))
        )  # type: ignore[index]
        started = time.perf_counter()
        files = build(
            parents, envelopes_of(replies, f"round{k}"), protocol="sustained", where=f"round{k}"
        ).files
        seconds = time.perf_counter() - started
        parents = parents_of_round(parents, files, f"round{k + 1}")
        rows.append((k + 1, len(parents.requests), seconds))
    print(
        f"sustained protocol, {args.layer} layer, rounds 1 to {args.rounds} (every reply present)"
    )
    print("| round | requests | advance (s) |")
    print("|---|---|---|")
    for k, requests, seconds in rows:
        print(f"| {k} | {requests:,} | {'—' if seconds is None else f'{seconds:.2f}'} |")
    print(f"| total | {sum(r for _, r, _ in rows):,} | {sum(s or 0.0 for _, _, s in rows):.2f} |")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
