"""Speed and memory of the kit's heavy steps, as ratios against a baseline measured in the same run.

Run from the checkout: `python bench/bench.py`. The baseline is the least any step must do with
the full layer's requests: parse every line of packets/full/round1.jsonl and write it back as
canonical JSON. Each step's time is printed as a multiple of that, next to its target; memory is
the tracemalloc peak as a multiple of the bytes the step produces. Exit status 1 if a target is
missed. Targets are for a 2-core machine; ratios, not seconds, so a slower machine still passes.
"""

from __future__ import annotations

import json
import sys
import tempfile
import time
import tracemalloc
from collections.abc import Callable
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from honesty_pressure.advance import advance, from_layer  # noqa: E402
from honesty_pressure.canonical import dumps, jsonl  # noqa: E402
from honesty_pressure.generate import DEFAULT_SEED, packet_tree  # noqa: E402
from honesty_pressure.parse import decision_line  # noqa: E402
from honesty_pressure.pipeline import score_round1  # noqa: E402
from honesty_pressure.store import load_layer  # noqa: E402

TARGETS = {
    # step: (time as a multiple of the baseline, peak memory as a multiple of the output bytes)
    "prepare full layer": (12.0, 6.0),
    "score full round 1": (12.0, 12.0),
    "advance full layer": (25.0, 6.0),
}


def timed(step: Callable[[], object], repeat: int = 3) -> float:
    best = float("inf")
    for _ in range(repeat):
        start = time.perf_counter()
        step()
        best = min(best, time.perf_counter() - start)
    return best


def peak(step: Callable[[], object]) -> int:
    tracemalloc.start()
    step()
    _, top = tracemalloc.get_traced_memory()
    tracemalloc.stop()
    return top


def main() -> int:
    full = load_layer(ROOT / "packets", "full")
    lines = (ROOT / "packets" / "full" / "round1.jsonl").read_text(encoding="utf-8").splitlines()
    baseline = timed(lambda: "".join(dumps(json.loads(line)) + "\n" for line in lines))

    work = Path(tempfile.mkdtemp(prefix="hp-bench-"))
    replies = work / "replies.jsonl"
    replies.write_bytes(
        jsonl(
            {"packet_id": pid, "request_sha256": r["request_sha256"], "reply": decision_line(str(full.key[pid]["acceptable"][0]))}  # type: ignore[index]
            for pid, r in full.round1.items()
        )
    )
    steps: dict[str, Callable[[], dict[str, bytes]]] = {
        "prepare full layer": lambda: packet_tree(DEFAULT_SEED, ["full"]),
        "score full round 1": lambda: score_round1(full, [replies]),
        "advance full layer": lambda: advance(from_layer(full), [replies]),
    }
    print(f"baseline (parse and re-serialise {len(lines)} full-layer requests): {baseline:.3f} s")
    print(f"{'step':<22} {'seconds':>8} {'x baseline':>11} {'target':>7} {'peak MB':>8} {'x output':>9} {'target':>7}")
    missed = []
    for name, step in steps.items():
        seconds = timed(step, repeat=1 if name.startswith("advance") else 3)
        output = sum(len(v) for v in step().values())
        top = peak(step)
        time_target, memory_target = TARGETS[name]
        ratio, mem_ratio = seconds / baseline, top / output
        print(f"{name:<22} {seconds:8.2f} {ratio:11.1f} {time_target:7.1f} {top / 1e6:8.1f} {mem_ratio:9.1f} {memory_target:7.1f}")
        if ratio > time_target or mem_ratio > memory_target:
            missed.append(name)
    for name in missed:
        print(f"MISSED: {name}")
    return 1 if missed else 0


if __name__ == "__main__":
    raise SystemExit(main())
