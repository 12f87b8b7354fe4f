"""Read a zip member compressed with zstd (method 93), as Inspect AI writes `.eval` logs.

Python 3.14's `zipfile` reads these itself (through the standard library's `compression.zstd`),
so this module is only reached on older Pythons, where `zipfile` raises NotImplementedError. It
reads the member's raw bytes from its local header and inflates them with the optional
`zstandard` package (the `zstd` extra), imported only here and only when such a member is met,
so the kit stays stdlib-only without it. Inspect may write a member as several zstd frames;
all are read. The output is capped at the size the zip declares (and at
limits.MAX_EVAL_MEMBER_BYTES), and its CRC-32 must match, so a lying header or a bomb is an error,
not a memory blow-up.
"""

from __future__ import annotations

import importlib
import io
import struct
import zipfile
import zlib
from typing import Final

from ..core.limits import MAX_EVAL_MEMBER_BYTES

ZSTD_METHOD: Final = 93
EXTRA: Final = "pip install 'honesty_pressure[zstd]'"
_LOCAL_HEADER: Final = struct.Struct("<4sHHHHHIIIHH")
_LOCAL_MAGIC: Final = b"PK\x03\x04"
_CHUNK: Final = 1 << 20


class ZstdUnavailable(Exception):
    """Neither this Python's zipfile nor the `zstandard` package can inflate zstd."""


def _raw_member(archive: zipfile.ZipFile, info: zipfile.ZipInfo) -> bytes:
    """The member's compressed bytes, found through its local file header (read from the archive's
    own file object, so a log read from a pipe works as well as one on disk)."""
    handle = archive.fp
    if handle is None:
        raise ValueError("the archive is closed")
    handle.seek(info.header_offset)
    header = handle.read(_LOCAL_HEADER.size)
    if len(header) != _LOCAL_HEADER.size:
        raise ValueError("truncated local header")
    magic, _, flags, _, _, _, _, _, _, name_length, extra_length = _LOCAL_HEADER.unpack(header)
    if magic != _LOCAL_MAGIC:
        raise ValueError("bad local header")
    if flags & 0x1:
        raise ValueError("encrypted member")
    handle.seek(info.header_offset + _LOCAL_HEADER.size + name_length + extra_length)
    data = handle.read(info.compress_size)
    if len(data) != info.compress_size:
        raise ValueError("truncated member")
    return data


def _inflate(data: bytes, limit: int) -> bytes:
    """Every zstd frame in `data`, at most `limit + 1` bytes of output (one more shows excess)."""
    try:
        zstandard = importlib.import_module("zstandard")
    except ImportError:
        raise ZstdUnavailable from None
    try:
        reader = zstandard.ZstdDecompressor().stream_reader(
            io.BytesIO(data), read_across_frames=True
        )
        out = bytearray()
        while len(out) <= limit:
            chunk = reader.read(min(_CHUNK, limit + 1 - len(out)))
            if not chunk:
                break
            out += chunk
    except zstandard.ZstdError as exc:
        raise ValueError(f"zstd: {exc}") from None
    return bytes(out)


def read_member(archive: zipfile.ZipFile, info: zipfile.ZipInfo) -> bytes:
    """The inflated member; ValueError for a damaged one, ZstdUnavailable without the extra."""
    if info.compress_type != ZSTD_METHOD:
        raise ValueError(f"zip method {info.compress_type} is not zstd")
    if info.file_size > MAX_EVAL_MEMBER_BYTES:
        raise ValueError(
            f"declares {info.file_size:,} bytes, more than the {MAX_EVAL_MEMBER_BYTES:,} this kit "
            "reads from one member"
        )
    data = _inflate(_raw_member(archive, info), info.file_size)
    if len(data) != info.file_size:
        raise ValueError(
            f"inflates to {'more' if len(data) > info.file_size else 'fewer'} bytes than its "
            "header says"
        )
    if zlib.crc32(data) != info.CRC:
        raise ValueError("CRC-32 does not match")
    return data
