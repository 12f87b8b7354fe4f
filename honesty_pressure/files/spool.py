"""Bytes written once and read back by place: where a streaming score keeps the lines it made.

Replies arrive in file order and leave in (packet, sample) order. Each judged reply's two output
lines (records.jsonl, replies.jsonl) are appended here as they are made, and copied out in order
at the end: memory holds a place per reply, never the reply. A spool stays in memory up to
`MEMORY_BYTES` and then moves to an anonymous temporary file (unlinked at once, gone when the
process ends); a shard's partial keeps its spool as a file.
"""

from __future__ import annotations

import os
import tempfile
from pathlib import Path
from typing import BinaryIO, Final

from ..core.errors import OutputError

MEMORY_BYTES: Final = 8 << 20
_FLUSH: Final = 1 << 20


class Spool:
    """Append-only bytes, readable by (offset, size) at any time."""

    def __init__(self, folder: Path | None = None, *, memory: int | None = None) -> None:
        memory = MEMORY_BYTES if memory is None else memory
        self._folder = folder
        self._file: BinaryIO | None = None
        self._tail = bytearray()  # what is not in the file yet
        self._flushed = 0  # bytes in the file
        self._limit = memory  # the tail's size at which it moves to (or is flushed to) the file

    @classmethod
    def of_file(cls, handle: BinaryIO) -> Spool:
        """A spool over an existing file (a partial's), read only."""
        spool = cls()
        spool._file = handle
        handle.seek(0, os.SEEK_END)
        spool._flushed = handle.tell()
        return spool

    @property
    def size(self) -> int:
        return self._flushed + len(self._tail)

    def append(self, chunk: bytes) -> int:
        """Add a chunk; its offset."""
        tail = self._tail
        offset = self._flushed + len(tail)
        tail += chunk
        if len(tail) > self._limit:
            if self._file is None:
                self._to_file()
            else:
                self._flush()
        return offset

    def _to_file(self) -> None:
        folder = self._folder if self._folder is not None and self._folder.is_dir() else None
        try:
            self._file = tempfile.TemporaryFile(dir=folder, buffering=0)  # noqa: SIM115 - closed by close()
        except OSError as exc:
            raise OutputError(
                f"cannot make a temporary file: {exc.strerror or exc}",
                file=str(folder or tempfile.gettempdir()),
            ) from None
        self._limit = _FLUSH
        self._flush()

    def _flush(self) -> None:
        assert self._file is not None
        try:
            view = memoryview(self._tail)
            while view:
                view = view[self._file.write(view) or 0 :]
        except OSError as exc:
            raise OutputError(
                f"cannot write a temporary file: {exc.strerror or exc}",
                file=str(self._folder or tempfile.gettempdir()),
            ) from None
        self._flushed += len(self._tail)
        self._tail = bytearray()

    def read(self, offset: int, size: int) -> bytes:
        """`size` bytes from `offset` (a chunk, or a run of chunks written one after another)."""
        if offset >= self._flushed:
            start = offset - self._flushed
            return bytes(self._tail[start : start + size])
        assert self._file is not None
        inside = min(size, self._flushed - offset)
        head = os.pread(self._file.fileno(), inside, offset)
        while len(head) < inside:  # a short read (a signal, a network file system)
            more = os.pread(self._file.fileno(), inside - len(head), offset + len(head))
            if not more:
                raise OutputError(
                    "a temporary file came back shorter than it was written",
                    file=str(self._folder or tempfile.gettempdir()),
                )
            head += more
        return head if inside == size else head + bytes(self._tail[: size - inside])

    def close(self) -> None:
        if self._file is not None:
            self._file.close()
            self._file = None
