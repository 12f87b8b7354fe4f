"""A zero-latency runner for bench/chain.py: chat JSONL requests in, chat JSONL replies out.

    python bench/chain_runner.py LOG

It answers every request at once (DECISION: A or B, chosen by the id's SHA-256, so threads go
both ways) and appends one line to LOG per call: the CPU seconds (user + system) and the peak
resident memory of the process that called it (the kit's `run`) when it started and when it
ended, and its own CPU seconds. `run` calls it once per round, so bench/chain.py reads from LOG
how much CPU the kit spent between one round's last reply and the next round's first request.
"""

from __future__ import annotations

import hashlib
import json
import os
import resource
import sys


def kit_usage() -> tuple[float, int]:
    """(CPU seconds, peak resident KiB) of the parent process, from /proc."""
    parent = os.getppid()
    with open(f"/proc/{parent}/stat", encoding="ascii") as handle:
        fields = handle.read().rsplit(")", 1)[1].split()
    ticks = os.sysconf("SC_CLK_TCK")
    cpu = (int(fields[11]) + int(fields[12])) / ticks  # utime, stime (fields 14 and 15)
    peak = 0
    with open(f"/proc/{parent}/status", encoding="ascii") as handle:
        for line in handle:
            if line.startswith("VmHWM:"):
                peak = int(line.split()[1])
    return cpu, peak


def main(argv: list[str]) -> int:
    log = argv[0]
    start_cpu, start_peak = kit_usage()
    requests = 0
    out = sys.stdout
    for line in sys.stdin:
        request = json.loads(line)
        code = "A" if hashlib.sha256(request["id"].encode()).digest()[0] < 128 else "B"
        reply = {"role": "assistant", "content": f"Here is what I think.\nDECISION: {code}"}
        out.write(json.dumps({"id": request["id"], "messages": [*request["messages"], reply]}))
        out.write("\n")
        requests += 1
    out.flush()
    end_cpu, end_peak = kit_usage()
    own = resource.getrusage(resource.RUSAGE_SELF)
    record = {
        "requests": requests,
        "kit_cpu_start": start_cpu,
        "kit_cpu_end": end_cpu,
        "kit_peak_kib_start": start_peak,
        "kit_peak_kib_end": end_peak,
        "runner_cpu": own.ru_utime + own.ru_stime,
    }
    with open(log, "a", encoding="utf-8") as handle:
        handle.write(json.dumps(record) + "\n")
    return 0


if __name__ == "__main__":
    raise SystemExit(main(sys.argv[1:]))
