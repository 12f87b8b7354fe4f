"""Which reply counts for each (packet, sample), decided one reply at a time (docs/SCORING.md,
"Retries").

`score.settle` decides from every envelope of a slot at once; this is the same decision made
incrementally, so no reply has to be kept: a slot holds one fixed-size entry (the reply that
counts so far, a digest of its content, where it came from and where its lines are spooled).
The rules, whatever the order of files and lines:

- a runner failure gives way to a reply (a retry: the answer counts);
- among identical replies, the smallest by model, then file, then line is kept; among failures
  only, the smallest by reply, error text, model, file and line;
- two different replies (a refusal is a reply) are a chain-of-custody error, which names the
  earliest place (by file name, then line) of the second content and the earliest of the first;
- with `retry_refused` (`--retry-refused`: the refusals were sent again), a refusal gives way to a
  reply and a failure to it; among refusals only, the smallest as among failures.

Each rule is a choice of a minimum, so offering replies in any order, or settling slices of the
replies separately (shards) and offering their survivors, ends in the same entry. A second reply
for a slot is rare (a retry, a file given twice), so contents are compared by reading both
replies back, not by keeping a digest of every one.
"""

from __future__ import annotations

import hashlib
import json
import struct
from collections.abc import Callable, Iterator, Sequence
from typing import Final

from ..core.errors import InputError

REFUSAL_RETRY_HINT: Final = "; if one is a retry of a refusal, pass --retry-refused"
"""Added to the chain-of-custody error when one of the two replies is a refusal (score.settle's
too)."""

ENTRY: Final = struct.Struct("<BBHIIIIIQII")
"""flags, outcome code, part (which spool), file, line, model, first file, first line, offset,
record-line length, chunk length: 40 bytes a slot."""
SIZE: Final = ENTRY.size
PRESENT: Final = 1
ANSWER: Final = 2
"""A reply (or a refusal); without it, a runner failure."""
REFUSAL: Final = 4
"""A refusal (with ANSWER): with `retry_refused` it gives way to an answer, and a failure to it."""

Entry = tuple[int, int, int, int, int, int, int, int, int, int, int]
FLAGS: Final = 0
CODE: Final = 1
PART: Final = 2
FILE: Final = 3
LINE: Final = 4
MODEL: Final = 5
FIRST_FILE: Final = 6
FIRST_LINE: Final = 7
OFFSET: Final = 8
RECORD: Final = 9
LENGTH: Final = 10
Place = tuple[str, int]
Texts = Callable[[Entry], "tuple[str | None, str | None]"]
"""An entry's reply and error text, read back from its spooled line (only two failures need
them)."""


class Custody:
    """The settled entry of every (packet index, sample) offered so far."""

    def __init__(
        self,
        packets: int,
        files: Sequence[str],
        models: Sequence[str | None],
        texts: Texts,
        *,
        retry_refused: bool = False,
    ) -> None:
        self._tables: list[bytearray | None] = [None] * packets
        self._files = files
        self._models = models
        self._texts = texts
        self.conflicts: dict[tuple[int, int], dict[bytes, Place]] = {}
        self.refusal_conflicts: set[tuple[int, int]] = set()
        """Conflicts where one reply is a refusal: the error says how a retried refusal is
        scored."""
        self.kept = 0
        self._answer = ANSWER | REFUSAL if retry_refused else ANSWER
        """The flags that make an entry an answer: with `retry_refused`, ANSWER without REFUSAL."""

    def offer(self, index: int, sample: int, entry: Entry) -> None:
        table = self._tables[index]
        at = sample * SIZE
        if table is None:  # grown here, with no call: nearly every offer is a slot's first
            table = self._tables[index] = bytearray(at + SIZE)
        elif len(table) < at + SIZE:
            table += bytes(at + SIZE - len(table))
        if not table[at]:
            ENTRY.pack_into(table, at, *entry)
            self.kept += 1
            return
        old: Entry = ENTRY.unpack_from(table, at)
        new = self._settle((index, sample), old, entry)
        if new is not old:
            ENTRY.pack_into(table, at, *new)

    def get(self, index: int, sample: int) -> Entry | None:
        table = self._tables[index]
        at = sample * SIZE
        if table is None or len(table) < at + SIZE or not table[at]:
            return None
        return ENTRY.unpack_from(table, at)

    def holds(self, index: int, sample: int) -> bool:
        """Whether a slot has an entry: `get(...) is not None` without unpacking it."""
        table = self._tables[index]
        at = sample * SIZE
        return table is not None and len(table) >= at + SIZE and table[at] != 0

    def entries(self, index: int) -> Iterator[tuple[int, Entry]]:
        """(sample, entry) of one packet, by sample."""
        table = self._tables[index]
        if table is None:
            return
        for sample in range(len(table) // SIZE):
            if table[sample * SIZE]:
                yield sample, ENTRY.unpack_from(table, sample * SIZE)

    def _place(self, entry: Entry) -> Place:
        return self._files[entry[FIRST_FILE]], entry[FIRST_LINE]

    def _order(self, entry: Entry) -> tuple[str, str, int]:
        return self._models[entry[MODEL]] or "", self._files[entry[FILE]], entry[LINE]

    def _rank(self, entry: Entry) -> int:
        """2 an answer, 1 a refusal that gives way (`retry_refused`), 0 a runner failure."""
        flags = entry[FLAGS] & self._answer
        return 2 if flags == ANSWER else (1 if flags else 0)

    def _settle(self, slot: tuple[int, int], old: Entry, new: Entry) -> Entry:
        old_rank, new_rank = self._rank(old), self._rank(new)
        if old_rank == new_rank == 2:
            old_content, new_content = self._content(old), self._content(new)
            if old_content != new_content or slot in self.conflicts:
                if (old[FLAGS] | new[FLAGS]) & REFUSAL and old_content != new_content:
                    self.refusal_conflicts.add(slot)
                places = self.conflicts.setdefault(slot, {old_content: self._place(old)})
                place = self._place(new)
                if new_content not in places or place < places[new_content]:
                    places[new_content] = place
                if old_content != new_content:
                    return old  # two different replies: raised by `check` once everything is read
            first = old if self._place(old) <= self._place(new) else new
            kept = new if self._order(new) < self._order(old) else old
            if first is kept:
                return kept
            return (*kept[:FIRST_FILE], first[FIRST_FILE], first[FIRST_LINE], *kept[OFFSET:])
        if new_rank != old_rank:
            return new if new_rank > old_rank else old
        return new if self._failure_order(new) < self._failure_order(old) else old

    def _content(self, entry: Entry) -> bytes:
        """What two replies must share to be the same reply: the reply text and any error text."""
        return hashlib.sha256(json.dumps(self._texts(entry)).encode("utf-8")).digest()

    def _failure_order(self, entry: Entry) -> tuple[str, str, str, str, int]:
        reply, error = self._texts(entry)
        return (reply or "", error or "", *self._order(entry))

    def check(self, ids: Sequence[str]) -> None:
        """Two different replies for one slot: the first such slot, by packet and sample, is an
        error naming the later place (settle's message, word for word)."""
        if not self.conflicts:
            return
        index, sample = min(self.conflicts, key=lambda slot: (ids[slot[0]], slot[1]))
        first, other = sorted(self.conflicts[(index, sample)].values())[:2]
        hint = REFUSAL_RETRY_HINT if (index, sample) in self.refusal_conflicts else ""
        raise InputError(
            f"a different reply for packet {ids[index]} sample {sample} is already in "
            f"{first[0]}:{first[1]}{hint}",
            file=other[0],
            line=other[1],
        )
