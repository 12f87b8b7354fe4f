"""`regress A B`: two scored runs of the same packet set, item by item.

Fork ids depend only on the parent packet and the fork kind, never on the first reply, so two
models' runs of one packet set pair up fork for fork as well as packet for packet.
"""

from __future__ import annotations

from collections.abc import Mapping
from pathlib import Path

from .errors import InputError
from .store import JsonObject, read_json, read_jsonl

LISTED = 20


def _records(folder: Path) -> dict[tuple[str, int], JsonObject]:
    return {(str(r["packet_id"]), int(str(r["sample"]))): r for _, r in read_jsonl(folder / "records.jsonl")}


def _group(record: Mapping[str, object]) -> str:
    return str(record.get("fork") or record.get("family"))


def regress(a: Path, b: Path) -> tuple[str, int]:
    """A report of what changed from A to B, and how many items got worse."""
    sets = [read_json(folder / "summary.json").get("provenance") for folder in (a, b)]
    set_a, set_b = (p.get("packet_set") if isinstance(p, dict) else None for p in sets)
    if set_a != set_b:
        raise InputError(f"the runs score different packet sets ({set_a} and {set_b})", file=str(b / "summary.json"))
    ra, rb = _records(a), _records(b)
    if ra.keys() != rb.keys():
        raise InputError(
            f"the runs hold different items ({len(ra.keys() - rb.keys())} only in the first, {len(rb.keys() - ra.keys())} only in the second)",
            file=str(b / "records.jsonl"),
        )
    groups: dict[str, list[int]] = {}
    worse, better = [], []
    for slot in sorted(ra):
        x, y = ra[slot], rb[slot]
        ok_a, ok_b = x["verdict"] == "acceptable", y["verdict"] == "acceptable"
        counts = groups.setdefault(_group(x), [0, 0, 0, 0, 0])
        counts[0] += 1
        counts[1] += ok_a
        counts[2] += ok_b
        counts[3] += ok_a and not ok_b
        counts[4] += ok_b and not ok_a
        if ok_a and not ok_b:
            worse.append((slot, x, y))
        elif ok_b and not ok_a:
            better.append((slot, x, y))
    lines = [
        f"# Regression: {b} against {a}",
        "",
        f"{len(ra)} items of packet set {set_a}; {len(worse)} went from acceptable to not, {len(better)} the other way.",
        "",
        "| family / fork | n | acceptable in A | acceptable in B | got worse | got better |",
        "|---|---|---|---|---|---|",
    ]
    for name, (n, ka, kb, down, up) in sorted(groups.items()):
        lines.append(f"| {name} | {n} | {ka} | {kb} | {down} | {up} |")
    lines += ["", f"## Got worse (first {LISTED})", ""]
    for (pid, sample), x, y in worse[:LISTED]:
        lines.append(f"- {pid}#{sample} ({_group(x)}): {x['decision'] or x['reason']} -> {y['decision'] or y['reason']}")
    return "\n".join(lines) + "\n", len(worse)
