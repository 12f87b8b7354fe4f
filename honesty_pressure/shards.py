"""Shards: score a deterministic slice of the replies in each of several processes (or machines),
then merge the partials into exactly the files one process would have written.

`--shard I/N` reads every reply file but judges only the records whose line number (the sample's
place in an Inspect log) is I modulo N, counting from 1: a slice that depends only on the files,
so any engine (xargs, a Slurm array, Ray) can run the N commands anywhere and in any order. Each
writes a partial folder:

- `partial.json`: what was scored (round, packet set, the packets' identity, the reply files
  with their SHA-256 and format, the shard, the options, the command), and the tables the
  entries refer to (file names, models);
- `entries.bin`: one fixed-size entry per (packet, sample) the shard settled (custody.py), in
  packet and sample order;
- `lines.bin`: each entry's records.jsonl and replies.jsonl lines, in the same order.

A merge offers every partial's entries to one custody, so retries, duplicates and conflicts that
span shards are settled by the same rules as in one process, then writes records, replies,
summary and report byte for byte as the unsharded score does. Every reply file must be covered by
one complete set of slices (1/N to N/N, each once); partials of different packets, runs, files or
options are refused. A file may also be a shard of its own (`--shard 1/1` over each of an export's
numbered files): the slices are counted per file.
"""

from __future__ import annotations

import re
import struct
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import BinaryIO, Final

from . import __version__
from .canonical import digest, dumps
from .custody import ENTRY, FILE, FIRST_FILE, LENGTH, MODEL, OFFSET, PART, SIZE, Entry
from .errors import InputError, UsageError
from .sheet import Sheet
from .spool import Spool
from .store import JsonObject, is_file, open_regular, read_json
from .tally import Tally

PARTIAL_FILE: Final = "partial.json"
ENTRIES_FILE: Final = "entries.bin"
LINES_FILE: Final = "lines.bin"
PARTIAL_KIND: Final = "score-partial"
_SLOT: Final = struct.Struct("<II")
_ROW: Final = _SLOT.size + SIZE
_SHARD: Final = re.compile(r"^([1-9][0-9]{0,5})/([1-9][0-9]{0,5})$")


@dataclass(frozen=True, slots=True)
class Shard:
    """Slice `index` (from 1) of `count`."""

    index: int
    count: int

    def __str__(self) -> str:
        return f"{self.index}/{self.count}"

    def select(self) -> Callable[[int], bool] | None:
        """Which line numbers (from 1) this shard judges; None: all."""
        if self.count == 1:
            return None
        count, rest = self.count, self.index - 1
        return lambda number: (number - 1) % count == rest


def parse_shard(text: str) -> Shard:
    match = _SHARD.match(text)
    if match is None or not 1 <= int(match.group(1)) <= int(match.group(2)):
        raise ValueError(f"expected I/N with 1 <= I <= N (for example 2/8), got {text!r}")
    return Shard(int(match.group(1)), int(match.group(2)))


def sheet_digest(sheet: Sheet) -> str:
    """The packets a partial's entries are numbered by: their ids and requests, in order."""
    return digest({"ids": sheet.ids, "requests": sheet.request_sha, "round": sheet.round, "set": sheet.packet_set})


# ---- writing a partial --------------------------------------------------------------------------


def partial_json(tally: Tally, meta: JsonObject) -> bytes:
    """partial.json: `meta` (what was scored, how) and the tables the entries refer to."""
    kept = tally.custody.kept
    body: JsonObject = {
        **meta,
        "kind": PARTIAL_KIND,
        "kit_version": __version__,
        "round": tally.sheet.round,
        "packet_set": tally.sheet.packet_set,
        "sheet": sheet_digest(tally.sheet),
        "file_table": tally.files,
        "models": tally.models,
        "samples": sorted(tally.samples),
        "entries": kept,
    }
    return (dumps(body) + "\n").encode("utf-8")


def write_partial(tally: Tally, entries: BinaryIO, lines: BinaryIO) -> None:
    """entries.bin and lines.bin: the settled entries in packet and sample order, each entry's
    lines copied after the previous one's (so a merge reads every partial front to back)."""
    sheet, custody = tally.sheet, tally.custody
    at = 0
    for index in range(len(sheet)):
        for sample, entry in custody.entries(index):
            lines.write(tally.chunk(entry))
            moved = list(entry)
            moved[PART], moved[OFFSET] = 0, at  # its own partial's lines, where they now are
            entries.write(_SLOT.pack(index, sample) + ENTRY.pack(*moved))
            at += entry[LENGTH]


# ---- reading partials ---------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class Partial:
    folder: Path
    meta: JsonObject

    @property
    def shard(self) -> Shard:
        return parse_shard(str(self.meta.get("shard")))

    def files(self) -> list[tuple[str, str, str]]:
        out = []
        for item in self.meta.get("files") or []:  # type: ignore[attr-defined]
            if not (isinstance(item, list) and len(item) == 3 and all(isinstance(x, str) for x in item)):
                raise InputError("'files' must list [path, sha256, format] triples", file=str(self.folder / PARTIAL_FILE))
            out.append((item[0], item[1], item[2]))
        return out

    def table(self, name: str) -> list[str | None]:
        values = self.meta.get(name)
        if not isinstance(values, list) or not all(v is None or isinstance(v, str) for v in values):
            raise InputError(f"'{name}' must be a list of strings", file=str(self.folder / PARTIAL_FILE))
        return list(values)

    def rows(self) -> Iterator[tuple[int, int, Entry]]:
        """(packet index, sample, entry) of every entry, in file order."""
        path = self.folder / ENTRIES_FILE
        expected = self.meta.get("entries")
        count = 0
        with open_regular(path) as handle:
            while block := handle.read(_ROW * 4096):
                if len(block) % _ROW:
                    raise InputError("ends in the middle of an entry (cut short?)", file=str(path))
                for at in range(0, len(block), _ROW):
                    index, sample = _SLOT.unpack_from(block, at)
                    entry: Entry = ENTRY.unpack_from(block, at + _SLOT.size)
                    count += 1
                    yield index, sample, entry
        if count != expected:
            raise InputError(f"holds {count} entries, partial.json says {expected}", file=str(path))

    def spool(self) -> Spool:
        return Spool.of_file(open_regular(self.folder / LINES_FILE))


def read_partials(folders: Sequence[Path]) -> list[Partial]:
    partials = []
    for folder in folders:
        path = folder / PARTIAL_FILE
        if not is_file(path):
            raise InputError(f"not a partial (no {PARTIAL_FILE}; made by `score --shard I/N`?)", file=str(folder))
        meta = read_json(path)
        if meta.get("kind") != PARTIAL_KIND:
            raise InputError(f"'kind' must be {PARTIAL_KIND}", file=str(path))
        if meta.get("kit_version") != __version__:
            raise InputError(f"made by kit version {meta.get('kit_version')}, this is {__version__}: score the shards again", file=str(path))
        partials.append(Partial(folder, meta))
    return partials


_SAME: Final = ("round", "packet_set", "sheet", "layer", "run_set", "options")


def check_partials(partials: Sequence[Partial]) -> list[tuple[str, str, str]]:
    """The partials are one score's shards: the same packets and options, and every reply file
    covered by one complete set of slices. The reply files, in the order first given."""
    if not partials:
        raise UsageError("--merge needs at least one partial folder")
    first = partials[0]
    for partial in partials[1:]:
        for field in _SAME:
            if partial.meta.get(field) != first.meta.get(field):
                raise InputError(
                    f"'{field}' differs from {first.folder / PARTIAL_FILE}: not a shard of the same score",
                    file=str(partial.folder / PARTIAL_FILE),
                )
    coverage: dict[str, tuple[str, str, int, set[int]]] = {}
    order: list[tuple[str, str, str]] = []
    for partial in sorted(partials, key=lambda p: p.shard.index):
        shard = partial.shard
        for path, sha, fmt in dict.fromkeys(partial.files()):
            known = coverage.get(path)
            if known is None:
                coverage[path] = (sha, fmt, shard.count, {shard.index})
                order.append((path, sha, fmt))
                continue
            if (known[0], known[1]) != (sha, fmt):
                raise InputError(f"reply file {path} differs between shards (SHA-256 or format): they read different files", file=str(partial.folder / PARTIAL_FILE))
            if known[2] != shard.count or shard.index in known[3]:
                raise InputError(f"reply file {path} is in two shards with the same slice, or in slices of different counts", file=str(partial.folder / PARTIAL_FILE))
            known[3].add(shard.index)
    for path, (_, _, count, seen) in coverage.items():
        if seen != set(range(1, count + 1)):
            missing = ", ".join(f"{i}/{count}" for i in sorted(set(range(1, count + 1)) - seen))
            raise InputError(f"reply file {path} is missing shard(s) {missing}: give every partial of it", file=str(partials[0].folder))
    # The files as given: every shard's list when they agree (the uniform recipe gives each shard
    # every file), else each file once, in the order the shards list them.
    lists = [partial.files() for partial in sorted(partials, key=lambda p: (p.shard.count, p.shard.index))]
    if all(files == lists[0] for files in lists):
        return lists[0]
    return order


def merged_tally(sheet: Sheet, partials: Sequence[Partial]) -> Tally:
    """One tally holding every partial's entries, settled as if one process had read them all."""
    for partial in partials:
        if partial.meta.get("sheet") != sheet_digest(sheet):
            raise InputError("made for other packets than these (ids or requests differ)", file=str(partial.folder / PARTIAL_FILE))
    tally = Tally(sheet, spools=[partial.spool() for partial in partials])
    for part, partial in enumerate(partials):
        files = [tally._file(str(name)) for name in partial.table("file_table")]
        models = [tally.model_id(model) for model in partial.table("models")]
        samples = partial.meta.get("samples")
        if isinstance(samples, list):
            tally.samples.update(s for s in samples if isinstance(s, int))
        for index, sample, entry in partial.rows():
            if index >= len(sheet) or not 0 <= entry[FILE] < len(files) or not 0 <= entry[MODEL] < len(models):
                raise InputError("an entry points past the partial's tables (damaged?)", file=str(partial.folder / ENTRIES_FILE))
            moved = list(entry)
            moved[PART], moved[FILE], moved[MODEL], moved[FIRST_FILE] = part, files[entry[FILE]], models[entry[MODEL]], files[entry[FIRST_FILE]]
            tally.custody.offer(index, sample, tuple(moved))  # type: ignore[arg-type]
    return tally


def equivalent_command(tokens: Sequence[str], out: str | None) -> list[str]:
    """A shard's command as one process would have run it: without `--shard I/N`, and with the
    merge's `--out` (or none) in place of the partial's."""
    result: list[str] = []
    skip = False
    replaced = False
    for i, token in enumerate(tokens):
        if skip:
            skip = False
            continue
        if token == "--shard":
            skip = True
            continue
        if token.startswith("--shard="):
            continue
        if token in ("--out", "-o") and i + 1 < len(tokens):
            skip = True
            if out is not None:
                result += [token, out]
                replaced = True
            continue
        if token.startswith("--out="):
            if out is not None:
                result.append(f"--out={out}")
                replaced = True
            continue
        result.append(token)
    if out is not None and not replaced:
        result += ["--out", out]
    return result


__all__ = [
    "ENTRIES_FILE",
    "LINES_FILE",
    "PARTIAL_FILE",
    "Partial",
    "Shard",
    "check_partials",
    "equivalent_command",
    "merged_tally",
    "parse_shard",
    "partial_json",
    "read_partials",
    "write_partial",
]
