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

import heapq
import os
import re
import shlex
import struct
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Final

from ..core.canonical import digest, dumps, jsonl, sha256_hex
from ..core.errors import InputError, UsageError
from ..core.limits import MAX_PACKET_FILE_BYTES, MAX_SAMPLES
from ..core.version import __version__
from ..files.folders import FolderWriter, unchanged_problem
from ..files.spool import Spool
from ..files.store import JsonObject, is_file, open_regular, read_bounded, read_json
from ..rounds.advance import (
    FROZEN_FILE,
    RUN_FILE,
    Frozen,
    ParentSet,
    fork_lines,
    run_info,
    sendable,
)
from ..rounds.fork import Fork
from ..scoring.custody import (
    CODE,
    ENTRY,
    FILE,
    FIRST_FILE,
    LENGTH,
    MODEL,
    OFFSET,
    PART,
    RECORD,
    SIZE,
    Entry,
)
from ..scoring.sheet import Sheet
from ..scoring.tally import Tally, Writer

PARTIAL_FILE: Final = "partial.json"
ENTRIES_FILE: Final = "entries.bin"
LINES_FILE: Final = "lines.bin"
PARTIAL_KIND: Final = "score-partial"
_SLOT: Final = struct.Struct("<II")
_ROW: Final = _SLOT.size + SIZE
_SHARD: Final = re.compile(r"^([1-9][0-9]{0,5})/([1-9][0-9]{0,5})$")


@dataclass(frozen=True, slots=True, order=True)
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


def file_digests(folder: Path, names: Sequence[str]) -> dict[str, str]:
    """SHA-256 of each named file of a partial (read without following a link)."""
    from ..files.folders import file_sha256

    out = {}
    for name in names:
        sha = file_sha256(folder / name)
        if sha is None:
            raise InputError("missing, or not a regular file", file=str(folder / name))
        out[name] = sha
    return out


def parse_shard(text: str) -> Shard:
    match = _SHARD.match(text)
    if match is None or not 1 <= int(match.group(1)) <= int(match.group(2)):
        raise ValueError(f"expected I/N with 1 <= I <= N (for example 2/8), got {text!r}")
    return Shard(int(match.group(1)), int(match.group(2)))


def sheet_digest(sheet: Sheet) -> str:
    """The packets a partial's entries are numbered by: their ids and requests, in order."""
    return digest(
        {
            "ids": sheet.ids,
            "requests": sheet.request_sha,
            "round": sheet.round,
            "set": sheet.packet_set,
        }
    )


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


def write_partial(tally: Tally, entries: Writer, lines: Writer) -> None:
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


def write_partial_folder(writer: FolderWriter, tally: Tally, meta: JsonObject) -> None:
    """A shard's partial folder, swapped in whole: entries.bin and lines.bin streamed, then
    partial.json recording their digests (its own proof for the merge), then the marker."""
    with writer.staged(
        {}, "partial", keep=False, streamed=(ENTRIES_FILE, LINES_FILE, PARTIAL_FILE)
    ) as stage:
        with stage.stream(ENTRIES_FILE) as entries, stage.stream(LINES_FILE) as lines:
            write_partial(tally, entries, lines)
        digests = {name: stage.written[name].sha256 for name in (ENTRIES_FILE, LINES_FILE)}
        stage.add({PARTIAL_FILE: partial_json(tally, {**meta, "digests": digests})})


# ---- reading partials ---------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class Partial:
    folder: Path
    meta: JsonObject

    @property
    def shard(self) -> Shard:
        try:
            return parse_shard(str(self.meta.get("shard")))
        except ValueError as exc:
            raise InputError(f"'shard': {exc}", file=str(self.folder / PARTIAL_FILE)) from None

    def files(self) -> list[tuple[str, str, str]]:
        out = []
        for item in self.meta.get("files") or []:  # type: ignore[attr-defined]
            if not (
                isinstance(item, list) and len(item) == 3 and all(isinstance(x, str) for x in item)
            ):
                raise InputError(
                    "'files' must list [path, sha256, format] triples",
                    file=str(self.folder / PARTIAL_FILE),
                )
            out.append((item[0], item[1], item[2]))
        return out

    def table(self, name: str) -> list[str | None]:
        values = self.meta.get(name)
        if not isinstance(values, list) or not all(v is None or isinstance(v, str) for v in values):
            raise InputError(
                f"'{name}' must be a list of strings", file=str(self.folder / PARTIAL_FILE)
            )
        return list(values)

    def rows(self) -> Iterator[tuple[int, int, Entry]]:
        """(packet index, sample, entry) of every entry, in file order, each in range: packet and
        sample order, samples the partial lists, lines one after another inside lines.bin."""
        path = self.folder / ENTRIES_FILE
        expected = self.meta.get("entries")
        samples = self.samples()
        try:
            size = os.stat(self.folder / LINES_FILE).st_size
        except OSError:
            raise InputError("missing", file=str(self.folder / LINES_FILE)) from None
        count, offset, last = 0, 0, (-1, -1)
        with open_regular(path) as handle:
            while block := handle.read(_ROW * 4096):
                if len(block) % _ROW:
                    raise InputError("ends in the middle of an entry (cut short?)", file=str(path))
                for at in range(0, len(block), _ROW):
                    index, sample = _SLOT.unpack_from(block, at)
                    entry: Entry = ENTRY.unpack_from(block, at + _SLOT.size)
                    count += 1
                    if (index, sample) <= last or sample not in samples:
                        raise InputError(
                            f"entry {count} is out of order or of a sample partial.json does not "
                            "list (damaged?)",
                            file=str(path),
                        )
                    if (
                        entry[OFFSET] != offset
                        or entry[RECORD] > entry[LENGTH]
                        or offset + entry[LENGTH] > size
                    ):
                        raise InputError(
                            f"entry {count} points outside lines.bin (damaged?)", file=str(path)
                        )
                    last, offset = (index, sample), offset + entry[LENGTH]
                    yield index, sample, entry
        if offset != size:
            raise InputError(
                f"holds {size - offset} bytes no entry points to (damaged?)",
                file=str(self.folder / LINES_FILE),
            )
        if count != expected:
            raise InputError(f"holds {count} entries, partial.json says {expected}", file=str(path))

    def samples(self) -> frozenset[int]:
        values = self.meta.get("samples")
        if not isinstance(values, list) or not all(
            isinstance(v, int) and not isinstance(v, bool) and 0 <= v < MAX_SAMPLES for v in values
        ):
            raise InputError(
                f"'samples' must list sample numbers from 0 to {MAX_SAMPLES - 1}",
                file=str(self.folder / PARTIAL_FILE),
            )
        return frozenset(values)

    def spool(self) -> Spool:
        return Spool.of_file(open_regular(self.folder / LINES_FILE))


def read_partials(folders: Sequence[Path], kind: str = PARTIAL_KIND) -> list[Partial]:
    """The partials of `score --shard` (or, with kind ADVANCE_KIND, of `advance --shard`), each
    made by this very kit version: a shard scored by another version is not one of this merge."""
    verb = "advance" if kind == ADVANCE_KIND else "score"
    partials = []
    for folder in folders:
        path = folder / PARTIAL_FILE
        if not is_file(path):
            raise InputError(
                f"not a partial (no {PARTIAL_FILE}; made by `{verb} --shard I/N`?)",
                file=str(folder),
            )
        meta = read_json(path)
        if meta.get("kind") != kind:
            raise InputError(
                f"'kind' must be {kind} (a partial of `{verb} --shard`)", file=str(path)
            )
        if meta.get("kit_version") != __version__:
            raise InputError(
                f"made by kit version {meta.get('kit_version')}, this is {__version__}: {verb} the "
                "shards again",
                file=str(path),
            )
        # Its own proof: the marker lists every file the shard wrote, unchanged, and partial.json
        # the digests of the files it describes (a hand-edited partial is never merged).
        problem = unchanged_problem(folder, "partial")
        if problem is not None:
            raise InputError(
                f"{problem}: an edited or damaged partial is never merged; {verb} this shard again",
                file=str(folder),
            )
        recorded = meta.get("digests")
        k = meta.get("round")
        names = (
            (ENTRIES_FILE, LINES_FILE)
            if kind == PARTIAL_KIND
            else (FROZEN_FILE, FORKS_FILE, f"round{k}.jsonl", f"round{k}.key.jsonl")
        )
        if (
            not isinstance(recorded, dict)
            or sorted(recorded) != sorted(names)
            or file_digests(folder, names) != recorded
        ):
            raise InputError(
                "its files do not match the digests partial.json records: an edited or damaged "
                f"partial is never merged; {verb} this shard again",
                file=str(path),
            )
        partial = Partial(folder, meta)
        partial.shard  # noqa: B018 - refused here, in one line, if it is not I/N
        partials.append(partial)
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
                    f"'{field}' differs from {first.folder / PARTIAL_FILE}: not a shard of the "
                    "same score",
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
                raise InputError(
                    f"reply file {path} differs between shards (SHA-256 or format): they read "
                    "different files",
                    file=str(partial.folder / PARTIAL_FILE),
                )
            if known[2] != shard.count or shard.index in known[3]:
                raise InputError(
                    f"reply file {path} is in two shards with the same slice, or in slices of "
                    "different counts",
                    file=str(partial.folder / PARTIAL_FILE),
                )
            known[3].add(shard.index)
    for path, (_, _, count, seen) in coverage.items():
        if seen != set(range(1, count + 1)):
            missing = ", ".join(f"{i}/{count}" for i in sorted(set(range(1, count + 1)) - seen))
            raise InputError(
                f"reply file {path} is missing shard(s) {missing}: give every partial of it",
                file=str(partials[0].folder),
            )
    # The files as given: every shard's list when they agree (the uniform recipe gives each shard
    # every file), else each file once, in the order the shards list them.
    lists = [
        partial.files()
        for partial in sorted(partials, key=lambda p: (p.shard.count, p.shard.index))
    ]
    if all(files == lists[0] for files in lists):
        return lists[0]
    return order


def merged_tally(
    sheet: Sheet, partials: Sequence[Partial], *, retry_refused: bool = False
) -> Tally:
    """One tally holding every partial's entries, settled as if one process had read them all
    (with `retry_refused`, as `score --retry-refused` settles: the shards recorded it)."""
    for partial in partials:
        if partial.meta.get("sheet") != sheet_digest(sheet):
            raise InputError(
                "made for other packets than these (ids or requests differ)",
                file=str(partial.folder / PARTIAL_FILE),
            )
    tally = Tally(
        sheet, spools=[partial.spool() for partial in partials], retry_refused=retry_refused
    )
    for part, partial in enumerate(partials):
        files = [tally._file(str(name)) for name in partial.table("file_table")]
        models = [tally.model_id(model) for model in partial.table("models")]
        samples = partial.meta.get("samples")
        if isinstance(samples, list):
            tally.samples.update(s for s in samples if isinstance(s, int))
        for index, sample, entry in partial.rows():
            if (
                index >= len(sheet)
                or not 0 <= entry[FILE] < len(files)
                or not 0 <= entry[FIRST_FILE] < len(files)
                or not 0 <= entry[MODEL] < len(models)
                or entry[CODE] >= len(sheet.outcomes[index])
            ):
                raise InputError(
                    "an entry points past the partial's tables (damaged?)",
                    file=str(partial.folder / ENTRIES_FILE),
                )
            moved = list(entry)
            moved[PART], moved[FILE], moved[MODEL], moved[FIRST_FILE] = (
                part,
                files[entry[FILE]],
                models[entry[MODEL]],
                files[entry[FIRST_FILE]],
            )
            tally.custody.offer(index, sample, tuple(moved))  # type: ignore[arg-type]
    return tally


def equivalent_command(tokens: Sequence[str], out: tuple[str, str] | None) -> list[str]:
    """A shard's command as one process would have run it: without `--shard I/N`, and with the
    merge's output option (`--out DIR` for a score, `--run RUN` for an advance; or none) where the
    shard had its `--out`."""
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
        if (token == "--out" and i + 1 < len(tokens)) or token.startswith("--out="):
            skip = token == "--out"
            if out is not None:
                result += list(out)
                replaced = True
            continue
        result.append(token)
    if out is not None and not replaced:
        result += list(out)
    return result


def merged_command(
    partials: Sequence[Partial], out: tuple[str, str] | None, merge_command: str
) -> str:
    """The command a merged output records: the one the shards stand for when they agree (then
    the merge writes what one process would have written), else every command that was run."""
    commands = []
    for partial in partials:
        tokens = partial.meta.get("command")
        if isinstance(tokens, list) and all(isinstance(t, str) for t in tokens):
            command = shlex.join(equivalent_command(tokens, out))
            if command not in commands:
                commands.append(command)
    if len(commands) == 1:
        return commands[0]
    ran = [shlex.join(t) for p in partials if isinstance(t := p.meta.get("command"), list)]
    return " ; ".join([*ran, merge_command])


# ---- advance shards -----------------------------------------------------------------------------

ADVANCE_KIND: Final = "advance-partial"
FORKS_FILE: Final = "forks.txt"


def advance_partial_files(
    parents: ParentSet, frozen: Frozen, forks: Sequence[Fork], meta: JsonObject
) -> dict[str, bytes]:
    """A shard of an advance: the frozen replies (every shard freezes all of them), its parents'
    forks (requests, keys, and their ids in order with whether each was sent), partial.json."""
    k = parents.round + 1
    requests, lines, keys = fork_lines(parents, frozen, forks)
    body: JsonObject = {
        **meta,
        "kind": ADVANCE_KIND,
        "kit_version": __version__,
        "round": k,
        "parents": parents.source,
        "run": run_info(parents, frozen, len(forks), len(requests)),
    }
    ids = "".join(f"{fork.packet_id}\t{1 if sendable(fork.parent) else 0}\n" for fork in forks)
    files = {
        FROZEN_FILE: frozen.data,
        f"round{k}.jsonl": lines,
        f"round{k}.key.jsonl": jsonl(keys),
        FORKS_FILE: ids.encode("utf-8"),
    }
    body["digests"] = {name: sha256_hex(data) for name, data in sorted(files.items())}
    return {PARTIAL_FILE: (dumps(body) + "\n").encode("utf-8"), **files}


_ADVANCE_SAME: Final = ("round", "parents", "files", "options", "layer")


def merge_advance(partials: Sequence[Partial]) -> dict[str, bytes]:
    """The run files one `advance` would have written, from all N shards of it: frozen.jsonl,
    run.json (counts summed) and the forks of every shard in id order."""
    if not partials:
        raise UsageError("--merge needs at least one partial folder")
    first = partials[0]
    for partial in partials:  # read_advance_partials has checked each one's kind
        for field in _ADVANCE_SAME:
            if partial.meta.get(field) != first.meta.get(field):
                raise InputError(
                    f"'{field}' differs from {first.folder / PARTIAL_FILE}: not a shard of the "
                    "same advance",
                    file=str(partial.folder / PARTIAL_FILE),
                )
        info = partial.meta.get("run")
        first_info = first.meta.get("run")
        if (
            not isinstance(info, dict)
            or not isinstance(first_info, dict)
            or {**info, "counts": None} != {**first_info, "counts": None}
        ):
            raise InputError(
                "froze other replies or another protocol than the other shards",
                file=str(partial.folder / PARTIAL_FILE),
            )
    shards = sorted(partial.shard for partial in partials)
    count = shards[0].count
    if [s.index for s in shards] != list(range(1, count + 1)) or any(
        s.count != count for s in shards
    ):
        raise InputError(
            f"need every shard 1/{count} to {count}/{count} once, got "
            f"{', '.join(map(str, shards))}",
            file=str(first.folder),
        )
    info = dict(first.meta["run"])  # type: ignore[call-overload]
    k = int(str(info["round"]))
    frozen = read_bounded(first.folder / FROZEN_FILE, MAX_PACKET_FILE_BYTES)
    if sha256_hex(frozen) != info.get("frozen_sha256"):
        raise InputError(
            "does not match the frozen_sha256 its partial.json records",
            file=str(first.folder / FROZEN_FILE),
        )
    streams = []
    forks = requests = 0
    for partial in partials:
        ids = (
            read_bounded(partial.folder / FORKS_FILE, MAX_PACKET_FILE_BYTES)
            .decode("utf-8")
            .splitlines()
        )
        request_lines = read_bounded(
            partial.folder / f"round{k}.jsonl", MAX_PACKET_FILE_BYTES
        ).splitlines(keepends=True)
        key_lines = read_bounded(
            partial.folder / f"round{k}.key.jsonl", MAX_PACKET_FILE_BYTES
        ).splitlines(keepends=True)
        sent = [line.endswith("\t1") for line in ids]
        if len(key_lines) != len(ids) or len(request_lines) != sum(sent):
            raise InputError(
                "its forks, requests and keys do not line up (damaged?)", file=str(partial.folder)
            )
        forks += len(ids)
        requests += len(request_lines)
        streams.append(_fork_rows(ids, sent, request_lines, key_lines))
    merged_requests: list[bytes] = []
    merged_keys: list[bytes] = []
    last = None
    for fork_id, request, key in heapq.merge(*streams, key=lambda row: row[0]):
        if fork_id == last:
            raise InputError(f"fork {fork_id} is in two shards", file=str(first.folder))
        last = fork_id
        if request is not None:
            merged_requests.append(request)
        merged_keys.append(key)
    counts = dict(info["counts"])
    counts.update(forks=forks, requests=requests)
    info["counts"] = counts
    return {
        FROZEN_FILE: frozen,
        RUN_FILE: (dumps(info) + "\n").encode("utf-8"),
        f"round{k}.jsonl": b"".join(merged_requests),
        f"round{k}.key.jsonl": b"".join(merged_keys),
    }


def _fork_rows(
    ids: list[str], sent: list[bool], requests: list[bytes], keys: list[bytes]
) -> Iterator[tuple[str, bytes | None, bytes]]:
    request = iter(requests)
    for line, was_sent, key in zip(ids, sent, keys):
        yield line.split("\t", 1)[0], next(request) if was_sent else None, key


def read_advance_partials(folders: Sequence[Path]) -> list[Partial]:
    return read_partials(folders, ADVANCE_KIND)


__all__ = [
    "ADVANCE_KIND",
    "FORKS_FILE",
    "advance_partial_files",
    "merge_advance",
    "merged_command",
    "read_advance_partials",
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
    "write_partial_folder",
]
