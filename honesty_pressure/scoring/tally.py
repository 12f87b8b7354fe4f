"""Score replies one at a time: read, match, judge, spool, settle; then write everything in order.

A `Tally` reads reply files (or a shard's slice of them) and keeps, per (packet, sample), one
settled entry (custody.py) and the two output lines of its reply in a spool (spool.py). Memory
holds the packets, an entry per slot and the summary's counts: never a reply. Errors are found
in the same order as when every reply was read first and matched after: a malformed line stops
at once, a reply that does not belong (another packet set, an unknown packet, a request that
does not match) is reported once every file has been read, and two different replies for one
slot after that.

Writing (`write_items`) walks the packets in order and every sample for each, copying each kept
reply's lines out of the spool (runs of neighbouring lines in one read) and making the line of
every slot with no reply; it feeds the transcript sampler and gathers the per-packet cells the
summary is computed from. `shown_items` then reads back the few items the report shows.
"""

from __future__ import annotations

import hashlib
import json
from collections.abc import Callable, Iterable, Iterator, Mapping, Sequence
from dataclasses import dataclass, field
from functools import partial
from pathlib import Path
from typing import Final, Protocol

from ..core.binding import split_ref
from ..core.construct import Format, Split
from ..core.errors import InputError
from ..core.progress import SILENT, Meter
from ..files.spool import Spool
from ..runners.envelopes import Received, Replies, ReplyFile, each_source, failed
from .custody import (
    ANSWER,
    CODE,
    LENGTH,
    MODEL,
    OFFSET,
    PART,
    PRESENT,
    RECORD,
    REFUSAL,
    Custody,
    Entry,
)
from .score import Record, request_digest
from .sheet import USAGE_END, Sheet, json_text
from .summary import Cell
from .transcripts import PER_GROUP, SEVERITY, Item, Sampler, groups_of, item_id

ForkCheck = Callable[[Received], bool]
"""For round 1: does a reply that did not match answer a fork (then the message says so)?"""


@dataclass(slots=True)
class _Mismatch:
    error: InputError | None = None
    fork: tuple[str, int] | None = None


def _spooled_chunk(spools: Sequence[Spool], entry: Entry) -> bytes:
    """An entry's spooled lines (its records.jsonl line, then its replies.jsonl line)."""
    return spools[entry[PART]].read(entry[OFFSET], entry[LENGTH])


def _spooled_line(
    spools: Sequence[Spool], entry: Entry
) -> tuple[str | None, str | None, str | None]:
    """The reply, error and reply digest of an entry, from its spooled replies.jsonl line."""
    text = _spooled_chunk(spools, entry)[entry[RECORD] :].decode("utf-8")
    line = json.loads(text)  # a str skips json's encoding detection
    return line["reply"], line["error"], line["reply_sha256"]


def _spooled_texts(spools: Sequence[Spool], entry: Entry) -> tuple[str | None, str | None]:
    """The reply and error of an entry (what custody compares)."""
    return _spooled_line(spools, entry)[:2]


class Tally:
    """One round's replies, read from any number of files, settled slot by slot."""

    def __init__(
        self,
        sheet: Sheet,
        *,
        spool_folder: Path | None = None,
        spools: Sequence[Spool] = (),
        retry_refused: bool = False,
    ) -> None:
        self.sheet = sheet
        self.part = 0
        self.spools: list[Spool] = list(spools) or [Spool(spool_folder)]
        """Where each part's lines are: a tally that reads has one; a merge, one per partial."""
        self.spool = self.spools[0]
        self.files: list[str] = []
        self._file_index: dict[str, int] = {}
        self.models: list[str | None] = [None]
        self._model_index: dict[str | None, int] = {None: 0}
        self._model_json: list[str] = ["null"]
        self.custody = Custody(
            len(sheet),
            self.files,
            self.models,
            partial(_spooled_texts, self.spools),
            retry_refused=retry_refused,
        )
        # Custody reads texts back through the spools, not through this tally: a bound method
        # would make tally and custody a cycle, and the sheet, the spools and every entry would
        # then wait for the cyclic collector (which the command line turns off) to be freed.
        self.retry_refused = retry_refused
        """A refusal gives way to an answer (`--retry-refused`: the refusals were sent again)."""
        self.samples: set[int] = set()
        self.reads: list[ReplyFile] = []
        """Each reply file as read (path, format, SHA-256 of the bytes parsed), in the order
        given."""
        self._mismatch = _Mismatch()

    # --- reading ---------------------------------------------------------------------------

    def _file(self, name: str) -> int:
        found = self._file_index.get(name)
        if found is None:
            found = self._file_index[name] = len(self.files)
            self.files.append(name)
        return found

    def model_id(self, model: str | None) -> int:
        found = self._model_index.get(model)
        if found is None:
            found = self._model_index[model] = len(self.models)
            self.models.append(model)
            self._model_json.append(json_text(model))
        return found

    def read(
        self,
        paths: Sequence[Path],
        fmt: Format | None,
        *,
        select: Callable[[int], bool] | None = None,
        meter: Meter = SILENT,
        forks: ForkCheck | None = None,
    ) -> None:
        """Every reply of every file (or, with `select`, of the lines it picks), in file order."""
        meter.expect(len(paths))
        for source in each_source(paths):
            replies = Replies(source, fmt, select)
            self.take(replies, forks)
            self.reads.append(replies.file)
            meter.tick(1)

    def take(self, replies: Iterable[Received], forks: ForkCheck | None = None) -> None:
        """Match, judge and keep each reply (the scorer's inner loop: kept flat on purpose)."""
        sheet, custody, spool, samples, mismatch = (
            self.sheet,
            self.custody,
            self.spool,
            self.samples,
            self._mismatch,
        )
        index_of, expected_of, packet_set = sheet.index.get, sheet.request_sha, sheet.packet_set
        judge, lines = sheet.judge, sheet.lines
        file_index, model_index, model_json, part = (
            self._file_index,
            self._model_index,
            self._model_json,
            self.part,
        )
        sha256 = hashlib.sha256
        append, offer = spool.append, custody.offer
        for received_ in replies:
            ref, sample, request_sha256, messages = (
                received_.ref,
                received_.sample,
                received_.request_sha256,
                received_.request_messages,
            )
            pid, bound_set, bound_sample = split_ref(ref)
            index = index_of(pid)
            expected = None if index is None else expected_of[index]
            if (
                (bound_set is not None and bound_set != packet_set)
                or expected is None
                or (request_sha256 is not None and request_sha256 != expected)
                or (messages is not None and request_digest(pid, messages) != expected)
                or (bound_sample and sample)
            ):
                self._not_matched(received_, pid, bound_set, expected, forks)
                continue
            if mismatch.error is not None:
                continue  # nothing more is kept; reading goes on, as a malformed line still wins
            assert index is not None
            slot_sample = bound_sample or sample
            reply, error, model = received_.reply, received_.error, received_.model
            code = judge(index, reply, error)
            sha = None if reply is None else sha256(reply.encode("utf-8")).hexdigest()
            m = model_index.get(model)
            if m is None:
                m = self.model_id(model)
            chunk, record = lines(
                index, slot_sample, code, reply, error, model_json[m], sha, received_.usage
            )
            file, line = received_.file, received_.line
            f = file_index.get(file)
            if f is None:
                f = self._file(file)
            flags = ANSWERED if error is None else (PRESENT if failed(error) else REFUSED)
            entry: Entry = (
                flags,
                code,
                part,
                f,
                line,
                m,
                f,
                line,
                append(chunk),
                record,
                len(chunk),
            )
            offer(index, slot_sample, entry)
            if slot_sample not in samples:
                samples.add(slot_sample)

    def _not_matched(
        self,
        got: Received,
        pid: str,
        bound_set: str | None,
        expected: str | None,
        forks: ForkCheck | None,
    ) -> None:
        """Remember the first reply that does not belong (and, for round 1, the first that answers
        a fork): reported once every file has been read."""
        mismatch = self._mismatch
        if forks is not None and mismatch.fork is None and forks(got):
            mismatch.fork = (got.file, got.line)
        if mismatch.error is not None:
            return
        sample, request_sha256, messages = got.sample, got.request_sha256, got.request_messages
        bound_sample = split_ref(got.ref)[2]
        if bound_set is not None and bound_set != self.sheet.packet_set:
            problem = (
                f"reply to packet set {bound_set}, but these packets are set "
                f"{self.sheet.packet_set}"
            )
        elif expected is None:
            problem = f"reply to unknown packet {pid!r} (not in this packet set)"
        elif request_sha256 is not None and request_sha256 != expected:
            problem = f"request_sha256 does not match packet {pid}"
        elif messages is not None and request_digest(pid, messages) != expected:
            problem = f"the request echoed in the reply is not packet {pid}'s request"
        else:
            assert bound_sample and sample
            problem = "sample given both in the id and in the record"
        mismatch.error = InputError(problem, file=got.file, line=got.line)

    def finish(self, fork_message: str | None = None) -> None:
        """Raise what reading found: the first reply that does not belong (as a reply to a fork,
        with `fork_message`, if one answers a fork), then two different replies for one slot."""
        mismatch = self._mismatch
        if mismatch.error is not None:
            if fork_message is not None and mismatch.fork is not None:
                raise InputError(
                    fork_message, file=mismatch.fork[0], line=mismatch.fork[1]
                ) from mismatch.error
            raise mismatch.error
        self.custody.check(self.sheet.ids)

    # --- what was kept -----------------------------------------------------------------------

    def chunk(self, entry: Entry) -> bytes:
        return _spooled_chunk(self.spools, entry)

    def spooled(self, entry: Entry) -> tuple[str | None, str | None, str | None]:
        return _spooled_line(self.spools, entry)

    def model_names(self) -> list[str]:
        """The models of the replies that count (summary.json's `models`)."""
        used = {
            self.models[entry[MODEL]]
            for index in range(len(self.sheet))
            for _, entry in self.custody.entries(index)
        }
        return sorted(m for m in used if m)


# ---- writing ------------------------------------------------------------------------------------


class Writer(Protocol):
    def write(self, data: bytes | memoryview, /) -> object: ...


@dataclass(slots=True)
class Section:
    """One round of a score's output: its sheet, its settled replies, the samples every packet
    is owed, and (for the shortcut audit) the one split it counts."""

    sheet: Sheet
    tally: Tally
    samples: tuple[int, ...]
    split: Split | None = None

    def spool(self, part: int) -> Spool:
        return self.tally.spools[part]

    def included(self) -> list[int]:
        keys = self.sheet.keys
        return [
            i
            for i in range(len(self.sheet))
            if self.split is None or keys[i].get("split") == self.split
        ]

    def missing(self) -> Iterator[tuple[str, int]]:
        """(packet, sample) of every slot owed a reply that has none (before any split filter)."""
        sheet, custody = self.sheet, self.tally.custody
        for index in range(len(sheet)):
            if sheet.sendable(index):
                for sample in self.samples:
                    if not custody.holds(index, sample):
                        yield sheet.ids[index], sample


@dataclass(slots=True)
class Written:
    """What the output pass gathered: per section, its cells (for the summary) and its count of
    records; and the transcript sampler."""

    cells: list[list[Cell]] = field(default_factory=list)
    records: list[int] = field(default_factory=list)
    sampler: Sampler | None = None
    groups: dict[str, tuple[str, ...]] = field(default_factory=dict)
    """Each item's report groups, when asked for (the explorer embeds every item)."""
    usage: list[UsageTotal] = field(default_factory=list)
    """Per section, the token counts of the replies that count (summary.json's `usage`)."""


@dataclass(slots=True)
class UsageTotal:
    """The token usage of one round's replies that count: how many carried usage, and their sums."""

    replies: int = 0
    input_tokens: int = 0
    output_tokens: int = 0

    def add(self, line: memoryview) -> None:
        """Count a replies.jsonl line's `usage`, if it has one: a line with usage ends `}}` (the
        usage object, then the line's), one without ends with its sample number and `}`."""
        if len(line) < 3 or line[-3] != 0x7D:
            return
        found = USAGE_END.search(line, max(0, len(line) - _USAGE_TAIL))
        if found is None:
            raise RuntimeError("Sheet.reply_line writes usage in one form only")
        self.replies += 1
        self.input_tokens += int(found[1])
        self.output_tokens += int(found[2])


_USAGE_TAIL: Final = 128
"""Bytes at the end of a replies.jsonl line that hold its usage (two counts, far under this)."""


_WRITE_RUN: Final = 1 << 20
"""Bytes of lines gathered before they are written (one write per file, not two per reply)."""
_AHEAD: Final = 1 << 16
"""How far a reader reads ahead along a run of chunks read in spool order, at most."""
_LEAST_AHEAD: Final = 1 << 12
"""... and at least (a page: below it a window saves too few reads)."""
_WAYS: Final = 64
"""Read-ahead windows kept at once, at least: one per interleaved run."""
_WINDOWS_BYTES: Final = _WAYS * _AHEAD
"""What the windows hold at most (4 MiB; past 1,024 runs, a page each): with more runs than
_WAYS, each window is smaller."""
ANSWERED: Final = PRESENT | ANSWER
REFUSED: Final = PRESENT | ANSWER | REFUSAL


class _Reader:
    """Reads chunks from spools, reading ahead along each run of chunks that follow one another.

    Replies are spooled in file order and copied out in (packet, sample) order. A reply file in
    sample order (every packet's sample 0, then every sample 1, ...) makes one run per sample,
    interleaved: a window per run turns a read per chunk into a read per _AHEAD bytes. A chunk
    that continues no window is read alone (and opens one), so replies in random order cost no
    more than a read per chunk, as before. `runs` is how many runs to expect (the samples of a
    packet): a million replies are 209 samples of 4,800 packets, and with a window for only 64 of
    their runs every chunk was read alone (a million reads). The windows share one budget, so
    more runs make each window smaller, not the memory larger."""

    def __init__(self, runs: int) -> None:
        # (spool, offset the window's next chunk would start at) -> (window bytes, their offset)
        self._windows: dict[tuple[int, int], tuple[memoryview, int]] = {}
        self._ways = max(_WAYS, 2 * runs)
        self._ahead = max(_LEAST_AHEAD, min(_AHEAD, _WINDOWS_BYTES // self._ways))

    def read(self, spool: Spool, offset: int, length: int) -> memoryview:
        windows = self._windows
        found = windows.pop((id(spool), offset), None)
        if found is not None and offset + length <= found[1] + len(found[0]):
            data, start = found
        elif found is not None:  # a run goes on past its window: read ahead along it
            data, start = (
                memoryview(spool.read(offset, max(length, min(self._ahead, spool.size - offset)))),
                offset,
            )
        else:
            data, start = memoryview(spool.read(offset, length)), offset
        windows[(id(spool), offset + length)] = (data, start)
        if len(windows) > self._ways:
            del windows[next(iter(windows))]  # the window left longest ago
        return data[offset - start : offset - start + length]


class _Copier:
    """Copies spooled chunks to records.jsonl and replies.jsonl, gathering the lines of many
    replies into one write per file."""

    def __init__(self, records: Writer, replies: Writer, runs: int) -> None:
        self.records, self.replies = records, replies
        self._reader = _Reader(runs)
        self._records: list[bytes | memoryview] = []
        self._replies: list[bytes | memoryview] = []
        self._size = 0

    def add(self, spool: Spool, offset: int, length: int, record: int) -> memoryview:
        """Copy one spooled reply's lines; its replies.jsonl line is returned (for its usage)."""
        chunk = self._reader.read(spool, offset, length)
        reply = chunk[record:]
        self._records.append(chunk[:record])
        self._replies.append(reply)
        self._size += length
        if self._size >= _WRITE_RUN:
            self.flush()
        return reply

    def direct(self, record: str, reply: str) -> None:
        self._records.append(record.encode("utf-8"))
        self._replies.append(reply.encode("utf-8"))
        self._size += len(record) + len(reply)
        if self._size >= _WRITE_RUN:
            self.flush()

    def flush(self) -> None:
        if self._records:
            self.records.write(b"".join(self._records))
            self.replies.write(b"".join(self._replies))
        self._records, self._replies, self._size = [], [], 0


class _Ranks:
    """transcripts.rank for one seed, hashing only the item part."""

    def __init__(self, seed: int) -> None:
        self._base = hashlib.sha256(f"transcript\x1f{seed}\x1f".encode())

    def __call__(self, item: str) -> str:
        h = self._base.copy()
        h.update(item.encode("utf-8"))
        return h.hexdigest()


def write_items(
    sections: Sequence[Section],
    records: Writer,
    replies: Writer,
    *,
    seed: int,
    per_group: int = PER_GROUP,
    keep_groups: bool = False,
) -> Written:
    """records.jsonl and replies.jsonl, line for line, packets in order and every sample of each;
    the transcript sampler fed as the items go by (worst verdict first, then by seeded hash); the
    cells of each section."""
    copier = _Copier(records, replies, max((len(s.samples) for s in sections), default=1))
    sampler = Sampler(seed, per_group)
    rank = _Ranks(seed)
    out = Written(sampler=sampler)
    for section in sections:
        sheet, custody = section.sheet, section.tally.custody
        samples = section.samples
        cells: list[Cell] = []
        count = 0
        usage = UsageTotal()
        groups: dict[tuple[int, int], tuple[str, tuple[str, ...]]] = {}
        names: dict[str, str] = {}
        for index in section.included():
            pid, key, table = sheet.ids[index], sheet.keys[index], sheet.outcomes[index]
            missing = sheet.missing_code(index)
            codes = []
            for sample in samples:
                entry = custody.get(index, sample)
                if entry is None:
                    code = missing
                    copier.direct(
                        sheet.record_line(index, sample, code, None),
                        sheet.reply_line(index, sample, None, None, "null", None),
                    )
                else:
                    code = entry[CODE]
                    usage.add(
                        copier.add(
                            section.spool(entry[PART]), entry[OFFSET], entry[LENGTH], entry[RECORD]
                        )
                    )
                codes.append(code)
                item = item_id(pid, sample)
                mine = groups.get((index, code))
                if mine is None:
                    decision, verdict, reason = table[code]
                    record = Record(
                        packet_id=pid,
                        sample=sample,
                        decision=decision,
                        verdict=verdict,
                        reason=reason,
                        reply_sha256=None,
                    )
                    mine = groups[(index, code)] = (
                        SEVERITY[verdict],
                        tuple(names.setdefault(g, g) for g in groups_of(record, key)),
                    )
                sampler.offer_ranked(mine[0] + rank(item), item, mine[1])
                if keep_groups:
                    out.groups[item] = mine[1]
            count += len(codes)
            cells.append(Cell(pid, key, samples, tuple(table[code] for code in codes)))
        out.cells.append(cells)
        out.records.append(count)
        out.usage.append(usage)
    copier.flush()
    return out


def item_count(sections: Sequence[Section]) -> int:
    """How many records (items) the sections write."""
    return sum(len(section.included()) * len(section.samples) for section in sections)


def shown_items(
    sections: Sequence[Section],
    wanted: set[str] | None,
    groups: Mapping[str, tuple[str, ...]] | None = None,
) -> dict[str, Item]:
    """The items the report shows (None: every item), read back from the spools, with their line
    in replies.jsonl, in records.jsonl's order; `groups` gives each item's report groups where
    the output pass kept them (else they are worked out again)."""
    shown: dict[str, Item] = {}
    line = 0
    for section in sections:
        sheet, custody, tally = section.sheet, section.tally.custody, section.tally
        for index in section.included():
            pid, key = sheet.ids[index], sheet.keys[index]
            request = sheet.requests.get(pid)
            for sample in section.samples:
                line += 1
                name = item_id(pid, sample)
                if wanted is not None and name not in wanted:
                    continue
                entry = custody.get(index, sample)
                reply: str | None
                error: str | None
                sha: str | None
                if entry is None:
                    code = sheet.missing_code(index)
                    reply, error = (
                        None,
                        (
                            "missing reply"
                            if key.get("sendable") is not False
                            else "never sent: the parent was a refusal"
                            if key.get("parent_refused") is True
                            else "never sent: the parent had no reply"
                        ),
                    )
                    sha = None
                else:
                    code = entry[CODE]
                    reply, error, sha = tally.spooled(entry)
                decision, verdict, reason = sheet.outcomes[index][code]
                record = Record(
                    packet_id=pid,
                    sample=sample,
                    decision=decision,
                    verdict=verdict,
                    reason=reason,
                    reply_sha256=sha,
                )
                mine = groups.get(name) if groups is not None else None
                shown[name] = Item(
                    item=name,
                    messages=(),
                    request=request,
                    reply=reply,
                    error=error,
                    record=record,
                    key=key,
                    line=line,
                    groups=mine if mine is not None else tuple(groups_of(record, key)),
                )
    return shown


def owed_samples(*tallies: Tally) -> tuple[int, ...]:
    """Every sample index seen for any packet (at least sample 0): each packet is owed all of
    them."""
    seen: set[int] = {0}
    for tally in tallies:
        seen |= tally.samples
    return tuple(sorted(seen))


def usage_json(sections: Sequence[Section], written: Written) -> dict[str, object]:
    """summary.json's `usage`, per round: how many of the replies that count carried token usage
    and their input and output tokens summed. Empty (no `usage` key at all) when no reply carried
    any, so a summary of replies without usage is what it always was."""
    totals = list(zip((section.sheet.round for section in sections), written.usage))
    if not any(total.replies for _, total in totals):
        return {}
    return {
        "usage": {
            f"round{k}": {
                "replies": total.replies,
                "input_tokens": total.input_tokens,
                "output_tokens": total.output_tokens,
            }
            for k, total in totals
        }
    }
