"""Read a scored folder's files back (summary.json, records.jsonl, replies.jsonl) for `regress`
and `compare`, refusing anything malformed with one line that names the file and line.

These files are outputs of the kit, but a user may hand over anything: a folder where a file
should be, a truncated or hand-edited record, JSON nested a million deep, a gigabyte on one line.
Limits (documented in docs/REPORT.md): a summary of at most MAX_SUMMARY_BYTES, lines of at most
MAX_LINE_BYTES.
"""

from __future__ import annotations

import json
import os
from collections.abc import Iterator, Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Final

from ..core.construct import Verdict
from ..core.errors import InputError
from .schema import require
from .store import is_dir, is_file, json_object, loads, open_regular, read_bounded

MAX_SUMMARY_BYTES: Final = 16 * 1024 * 1024
MAX_LINE_BYTES: Final = 1024 * 1024
VERDICTS: Final[tuple[Verdict, ...]] = ("acceptable", "forbidden", "other", "refused", "unscorable")
Slot = tuple[str, int]


def read_summary(folder: Path) -> dict[str, object]:
    """summary.json of a scored folder, read by the kit's one bounded, non-blocking, strict reader
    (a FIFO or /dev/zero in its place is refused at once, not waited on or read to gigabytes)."""
    path = folder / "summary.json"
    if not is_dir(folder):
        raise InputError("not a folder (give a run or score output folder)", file=str(folder))
    if not os.path.lexists(path):
        raise InputError("file not found (score the run first)", file=str(path))
    try:
        data = read_bounded(path, MAX_SUMMARY_BYTES)
    except InputError as exc:
        if exc.problem.startswith("larger than"):
            raise InputError(
                f"larger than {MAX_SUMMARY_BYTES // (1024 * 1024)} MiB: not a summary the kit "
                "wrote",
                file=str(path),
            ) from None
        raise
    summary = json_object(data, str(path))
    check_summary(summary, str(path))
    return summary


def check_summary(summary: Mapping[str, object], where: str) -> None:
    """The whole summary held to docs/schema/summary.schema.json (a round-1 summary or a run's,
    by its round) before regress or compare use any of it: a wrong type, a missing field or an
    axis the kit does not measure is one line naming the file and the field."""
    round_ = summary.get("round")
    if not isinstance(round_, int) or isinstance(round_, bool) or round_ < 1:
        raise InputError(
            "'round' must be a whole number from 1 (not a summary the kit wrote)", file=where
        )
    shape = "summary_round1" if round_ == 1 else "summary_run"
    require(summary, f"summary.schema.json#/$defs/{shape}", file=where, what="a summary")


def lines(path: Path) -> Iterator[tuple[int, dict[str, object]]]:
    """(line number, object) per non-empty line, each line at most MAX_LINE_BYTES, parsed by the
    kit's one strict parser (store.loads) from a file opened without blocking (open_regular)."""
    with open_regular(path) as handle:
        number = 0
        while True:
            try:
                raw = handle.readline(MAX_LINE_BYTES + 1)
            except OSError as exc:
                raise InputError(
                    f"cannot read: {exc.strerror or exc}", file=str(path), line=number + 1
                ) from None
            if not raw:
                return
            number += 1
            if len(raw) > MAX_LINE_BYTES:
                raise InputError(
                    f"line longer than {MAX_LINE_BYTES // 1024} KiB", file=str(path), line=number
                )
            try:
                text = raw.decode("utf-8")
            except UnicodeDecodeError:
                raise InputError("not valid UTF-8", file=str(path), line=number) from None
            if not text.strip():
                continue
            value = loads(text, file=str(path), line=number)
            if not isinstance(value, dict):
                raise InputError("expected a JSON object", file=str(path), line=number)
            yield number, value


@dataclass(frozen=True, slots=True, kw_only=True)
class Verdicts:
    """One folder's records.jsonl, checked: every record by its (packet, sample) slot."""

    path: Path
    records: dict[Slot, Mapping[str, object]]
    line_of: dict[Slot, int]


def _need_str(record: Mapping[str, object], field: str, path: Path, number: int) -> str:
    value = record.get(field)
    if not isinstance(value, str) or not value:
        raise InputError(f"missing string field {field!r}", file=str(path), line=number)
    return value


def read_verdicts(folder: Path) -> Verdicts:
    path = folder / "records.jsonl"
    records: dict[Slot, Mapping[str, object]] = {}
    line_of: dict[Slot, int] = {}
    for number, record in lines(path):
        packet_id = _need_str(record, "packet_id", path, number)
        sample = record.get("sample")
        if not isinstance(sample, int) or isinstance(sample, bool) or sample < 0:
            raise InputError(
                f"'sample' must be a whole number, got {json.dumps(sample)[:40]}",
                file=str(path),
                line=number,
            )
        if record.get("verdict") not in VERDICTS:
            raise InputError(
                f"'verdict' must be one of {', '.join(VERDICTS)}", file=str(path), line=number
            )
        decision = record.get("decision")
        if decision is not None and not isinstance(decision, str):
            raise InputError("'decision' must be a string or null", file=str(path), line=number)
        require(record, "records.schema.json", file=str(path), line=number, what="a record")
        slot = (packet_id, sample)
        seen = records.get(slot)
        if seen is not None:
            if seen != record:
                raise InputError(
                    f"a different record for {packet_id} sample {sample} is already on line "
                    f"{line_of[slot]}",
                    file=str(path),
                    line=number,
                )
            continue
        records[slot] = record
        line_of[slot] = number
    if not records:
        raise InputError("no records", file=str(path))
    return Verdicts(path=path, records=records, line_of=line_of)


def replies_for(folder: Path, slots: set[Slot]) -> dict[Slot, tuple[int, str | None, str | None]]:
    """(line, reply, error) of the wanted slots from replies.jsonl; {} if the folder has none (a
    folder scored by an older kit). Streams the file: only the wanted replies are kept."""
    path = folder / "replies.jsonl"
    if not is_file(path) or not slots:
        return {}
    out: dict[Slot, tuple[int, str | None, str | None]] = {}
    for number, line in lines(path):
        sample = line.get("sample")
        slot = (str(line.get("packet_id")), sample if isinstance(sample, int) else -1)
        if slot in slots:
            reply, error = line.get("reply"), line.get("error")
            out[slot] = (
                number,
                reply if isinstance(reply, str) else None,
                error if isinstance(error, str) else None,
            )
    return out


def requests_for(paths: list[Path], ids: set[str]) -> dict[str, dict[str, object]]:
    """The wanted requests (by packet_id) from whichever of these request files exist."""
    out: dict[str, dict[str, object]] = {}
    for path in paths:
        if not is_file(path) or not ids:
            continue
        for _, record in lines(path):
            pid = record.get("packet_id")
            if isinstance(pid, str) and pid in ids:
                out.setdefault(pid, record)
    return out
