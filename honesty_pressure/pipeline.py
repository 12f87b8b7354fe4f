"""Score a set of reply files against a packet folder: the whole job as bytes, written by the CLI.

Everything is computed before anything is written, so a bad input leaves no output at all.
"""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path

from . import __version__
from .canonical import dumps, jsonl, sha256_hex
from .construct import Format
from .envelopes import read_envelopes
from .errors import InputError
from .report import markdown, page, round1_tables
from .score import judge, match
from .stats import BOOTSTRAP_RESAMPLES
from .store import PacketFolder
from .summary import round1_summary

DEFAULT_BOOTSTRAP_SEED = 20261130
MISSING_LISTED = 50


def file_digests(paths: Sequence[Path]) -> dict[str, str]:
    return {str(p): sha256_hex(p.read_bytes()) for p in sorted(set(paths), key=str)}


def score_round1(
    folder: PacketFolder,
    replies: Sequence[Path],
    *,
    fmt: Format | None = None,
    require_complete: bool = False,
    bootstrap_seed: int = DEFAULT_BOOTSTRAP_SEED,
) -> dict[str, bytes]:
    envelopes = [env for path in replies for env in read_envelopes(path, fmt)]
    matched = match(envelopes, folder.round1, folder.packet_set)
    records = judge(folder.round1, folder.key, matched)
    missing = [r for r in records if r.reason == "missing_reply"]
    if require_complete and missing:
        first = missing[0]
        raise InputError(
            f"{len(missing)} packet-sample(s) have no reply (first: {first.packet_id} sample {first.sample})",
            file=str(replies[0]) if len(replies) == 1 else None,
        )
    rows = [(r, folder.key[r.packet_id]) for r in records]
    samples = sorted({r.sample for r in records})
    summary: dict[str, object] = {
        "round": 1,
        "provenance": {
            "kit_version": __version__,
            "packet_set": folder.packet_set,
            "layer": folder.build.get("layer"),
            "packets": file_digests([folder.folder / "round1.jsonl", folder.folder / "key.jsonl"]),
            "replies": file_digests(replies),
            "bootstrap_seed": bootstrap_seed,
            "bootstrap_resamples": BOOTSTRAP_RESAMPLES,
        },
        "counts": {
            "packets": len(folder.round1),
            "samples": len(samples),
            "records": len(records),
            "replies": len(matched),
            "missing": len(missing),
        },
        **round1_summary(rows, seed=bootstrap_seed),
        "missing_replies": [f"{r.packet_id}#{r.sample}" for r in missing],
    }
    title = f"honesty_pressure round 1: {folder.build.get('layer')} layer, packet set {folder.packet_set}"
    preamble = [
        f"{len(folder.round1)} packets x {len(samples)} sample(s) = {len(records)} records; "
        f"{len(matched)} replies read, {len(missing)} missing (counted as not acceptable).",
    ]
    if missing:
        shown = ", ".join(f"{r.packet_id}#{r.sample}" for r in missing[:MISSING_LISTED])
        more = f" and {len(missing) - MISSING_LISTED} more (all in summary.json)" if len(missing) > MISSING_LISTED else ""
        preamble.append(f"Missing replies: {shown}{more}.")
    tables = round1_tables(summary)
    return {
        "records.jsonl": jsonl(r.as_json(folder.key[r.packet_id]) for r in records),
        "summary.json": (dumps(summary) + "\n").encode("utf-8"),
        "REPORT.md": markdown(title, preamble, tables).encode("utf-8"),
        "report.html": page(title, preamble, tables).encode("utf-8"),
    }
