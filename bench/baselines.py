"""The baselines every step of bench.py is a multiple of, each a plain script of what no scorer can
skip, run as its own process so that it is timed as the commands are.

    python bench/baselines.py replies FORMAT FILE
        json.loads every line of a reply file and one regex search for "DECISION:" in each reply
        (the baseline issue 13 names for `score`).
    python bench/baselines.py parse-write --inputs FILE... --outputs FILE...
        json.loads every line of the command's input files, and json.dumps every record of the
        files the command wrote, into a scratch file (read before the clock starts): the least a
        command that reads those inputs and writes those outputs must do (for `advance` and
        `score --run`).
    python bench/baselines.py verdicts FORMAT FILE
        the verdict floor: the least any scorer that keeps its promises must do per reply, and
        nothing more: json.loads the line, take its id and reply, SHA-256 the reply and keep one
        digest per (id, sample) (duplicate detection), find the last "DECISION:" line with one
        regex, count decisions per id. No layer, no matching, no verdict sets, no output files:
        a lower bound for `score`, reported beside the baseline (what 2x of it can hold).
    python bench/baselines.py bootstrap --clusters N...
        the fork statistics' floor: for each cluster count, the percentile bootstrap of a mean
        over N clusters as the kit draws it (1,000 resamples, each N SHAKE-256 words modulo N,
        the values at those indices summed exactly with fsum, the means sorted and cut at 2.5 and
        97.5 %), in the fastest stdlib form found (bench/bootstrap_forms.py: the words read
        through memoryview.cast). `score --run` makes this bootstrap for its two paired contrasts
        and the honesty index's interval, and a round-1 `score` makes none of them: this floor
        is taken off `score --run`'s CPU before its ratio to its sum (docs/SCALE.md).

Each prints the CPU seconds (user + system) of its measured part on its last line; the start of
the interpreter is not counted, which only makes the baseline smaller.
"""

from __future__ import annotations

import argparse
import hashlib
import json
import math
import os
import re
import struct
import sys
import tempfile
from itertools import repeat
from operator import mod
from typing import Final

DECISION = re.compile(r"DECISION:")


def reply_of(record: dict, fmt: str) -> str:  # type: ignore[type-arg]
    """The reply text, by the shortest road each format allows (failures give "")."""
    try:
        if fmt == "native":
            return str(record["reply"])
        if fmt == "openai-batch":
            return str(record["response"]["body"]["choices"][0]["message"]["content"])
        if fmt == "anthropic-batch":
            return "\n".join(
                b["text"] for b in record["result"]["message"]["content"] if b.get("type") == "text"
            )
        return str(record["messages"][-1]["content"])
    except (KeyError, IndexError, TypeError):
        return ""


def id_of(record: dict, fmt: str) -> tuple[str, int]:  # type: ignore[type-arg]
    """(request id, sample) by the shortest road each format allows."""
    if fmt == "native":
        return str(record.get("packet_id")), int(record.get("sample") or 0)
    if fmt in ("openai-batch", "anthropic-batch"):
        return str(record.get("custom_id")), 0
    return str(record.get("id")), 0


LAST_DECISION = re.compile(r"DECISION:[ \t]*([A-Za-z_]+)")


def cpu() -> float:
    t = os.times()
    return t.user + t.system


def replies(fmt: str, path: str) -> float:
    start = cpu()
    with open(path, "rb") as handle:
        for line in handle:
            DECISION.search(reply_of(json.loads(line), fmt))
    return cpu() - start


def verdicts(fmt: str, path: str) -> float:
    start = cpu()
    seen: dict[tuple[str, int], bytes] = {}
    counts: dict[tuple[str, str | None], int] = {}
    sha256 = hashlib.sha256
    with open(path, "rb") as handle:
        for line in handle:
            record = json.loads(line)
            key, reply = id_of(record, fmt), reply_of(record, fmt)
            digest = sha256(reply.encode("utf-8")).digest()
            if seen.setdefault(key, digest) != digest:
                raise SystemExit(f"two different replies for {key}")
            at = reply.rfind("DECISION:")
            found = LAST_DECISION.match(reply, at) if at >= 0 else None
            tally = (key[0], found.group(1) if found else None)
            counts[tally] = counts.get(tally, 0) + 1
    return cpu() - start


def parse_write(inputs: list[str], outputs: list[str]) -> float:
    wanted = []
    for path in outputs:
        with open(path, "rb") as handle:
            data = handle.read()
        wanted.append(
            [json.loads(data)]
            if path.endswith(".json")
            else [json.loads(line) for line in data.splitlines() if line.strip()]
        )
    start = cpu()
    for path in inputs:
        with open(path, "rb") as handle:
            if path.endswith(".json"):
                json.loads(handle.read())
            else:
                for line in handle:
                    if line.strip():
                        json.loads(line)
    with tempfile.TemporaryDirectory(prefix="hp-baseline-") as tmp:
        for index, records in enumerate(wanted):
            with open(os.path.join(tmp, str(index)), "wb") as handle:
                for record in records:
                    handle.write(
                        (
                            json.dumps(
                                record, sort_keys=True, separators=(",", ":"), ensure_ascii=False
                            )
                            + "\n"
                        ).encode("utf-8")
                    )
    return cpu() - start


RESAMPLES = 1000  # honesty_pressure.core.stats.BOOTSTRAP_RESAMPLES


_CAST: Final = sys.byteorder == "little" and struct.calcsize("I") == 4
"""Whether memoryview.cast("I") reads the kit's words (4-byte little-endian) as they are."""


def picked_sum(digest: bytes, n: int, values: list[float]) -> float:
    """The exact sum of the values at one resample's indices: its words (4-byte little-endian, as
    the kit reads them, core/stats.py) each modulo n, read through memoryview.cast where the
    machine's words are the kit's, else unpacked as the kit unpacks them."""
    words = memoryview(digest).cast("I") if _CAST else struct.unpack(f"<{n}I", digest)
    return math.fsum(map(values.__getitem__, map(mod, words, repeat(n))))


def resample_sum(prefix: bytes, n: int, r: int, values: list[float]) -> float:
    """`picked_sum` of resample r: n SHAKE-256 words of (prefix, r), as the kit draws them
    (tests/test_bench.py holds it to the kit's sums)."""
    return picked_sum(hashlib.shake_256(prefix + b"%d" % r).digest(4 * n), n, values)


def bootstrap(clusters: list[int]) -> float:
    start = cpu()
    for n in clusters:
        # Values of the contrasts' kind (differences of whole-number shares); what they are does
        # not change the work, which is the draws, the picks and the exact sums.
        values = [float(i % 3 - 1) for i in range(n)]
        prefix = f"bootstrap\x1ffloor\x1f{n}\x1f".encode()
        means = sorted(resample_sum(prefix, n, r, values) / n for r in range(RESAMPLES))
        _ = means[int(0.025 * (RESAMPLES - 1))], means[int(0.975 * (RESAMPLES - 1))]
    return cpu() - start


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    sub = parser.add_subparsers(dest="kind", required=True)
    r = sub.add_parser("replies")
    r.add_argument("format")
    r.add_argument("file")
    v = sub.add_parser("verdicts")
    v.add_argument("format")
    v.add_argument("file")
    pw = sub.add_parser("parse-write")
    pw.add_argument("--inputs", nargs="+", required=True)
    pw.add_argument("--outputs", nargs="+", required=True)
    b = sub.add_parser("bootstrap")
    b.add_argument("--clusters", nargs="+", type=int, required=True)
    args = parser.parse_args()
    if args.kind == "replies":
        seconds = replies(args.format, args.file)
    elif args.kind == "verdicts":
        seconds = verdicts(args.format, args.file)
    elif args.kind == "bootstrap":
        seconds = bootstrap(args.clusters)
    else:
        seconds = parse_write(args.inputs, args.outputs)
    print(f"{seconds:.6f}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
