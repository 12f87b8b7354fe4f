"""Canonical JSON, digests and atomic file writes: the same inputs give the same bytes everywhere.

Canonical means sorted keys, no spaces, UTF-8 (not ASCII escapes), one object per line in JSONL,
and no floats in anything hashed (floats print differently across platforms' reprs only in
theory, but integers never do, so hashed records hold integers and strings only).
"""

from __future__ import annotations

import hashlib
import io
import json
import os
import stat
import tempfile
from collections.abc import Callable, Iterable
from pathlib import Path

from .errors import OutputError

JsonValue = object


def dumps(value: JsonValue) -> str:
    """One canonical JSON text, no trailing newline."""
    if _C_ENCODE is None:
        return _ENCODER.encode(value)
    return "".join(_C_ENCODE(value, 0))


_ENCODER = json.JSONEncoder(
    sort_keys=True, separators=(",", ":"), ensure_ascii=False, allow_nan=False
)
"""What json.dumps(value, sort_keys=True, separators=(",", ":"), ensure_ascii=False,
allow_nan=False) makes and calls for each value, made once: an encoder keeps no state between calls
(each encode has its own circular-reference markers), and a round's key file is ~26,000 calls."""

_make_c_encoder: Callable[..., Callable[[object, int], list[str]]] | None = getattr(
    json.encoder, "c_make_encoder", None
)
_C_ENCODE = (
    None
    if _make_c_encoder is None
    else _make_c_encoder(
        None,  # no circular-reference markers: the kit's values are trees (a cycle would recurse)
        _ENCODER.default,
        json.encoder.encode_basestring,
        None,  # indent
        ":",
        ",",
        True,  # sort_keys
        False,  # skipkeys
        False,  # allow_nan
    )
)
"""`_ENCODER`'s C encoder, made once: `encode` makes one per call (and markers to find cycles),
a third of the time of encoding a records.jsonl line (4.1 against 2.9 us). The same bytes: it
is the encoder `encode` itself calls."""


def json_text(value: str | None) -> str:
    """A string (or None) as `dumps` writes it: a piece for lines built from pieces, where a
    line's fixed parts are encoded once and only what changes is encoded per line."""
    return "null" if value is None else _text(value)


_text = json.encoder.encode_basestring  # not ASCII-escaped: what dumps writes for a string


def jsonl(records: Iterable[JsonValue]) -> bytes:
    """Canonical JSON Lines: one record per line, LF, UTF-8, a final newline (encoded line by line
    into one buffer: a large file is held once, not as its text and again as its bytes)."""
    out = io.BytesIO()
    for r in records:
        out.write((dumps(r) + "\n").encode("utf-8"))
    return out.getvalue()


def sha256_hex(data: bytes | str) -> str:
    if isinstance(data, str):
        data = data.encode("utf-8")
    return hashlib.sha256(data).hexdigest()


def digest(value: JsonValue) -> str:
    """SHA-256 of a value's canonical JSON."""
    return sha256_hex(dumps(value))


def write_atomic(path: Path, data: bytes, *, replace: bool = True) -> None:
    """Write through a temporary file in the same folder and rename, so a reader never sees half.

    A symbolic link or a folder at `path` is refused (the kit never writes through a link); a
    pipe or a device (`/dev/stdout`) is written straight through, as there is nothing to replace.
    With `replace=False` anything at `path` is refused, and the finished file is linked into
    place (which fails if another writer made `path` meanwhile) instead of renamed over it.
    """
    try:
        info = os.lstat(path)
    except FileNotFoundError:
        info = None
    except OSError as exc:
        raise OutputError(f"cannot write here: {exc.strerror or exc}", file=str(path)) from None
    if info is not None and not replace:
        raise OutputError("exists; nothing was changed", file=str(path))
    if info is not None and stat.S_ISLNK(info.st_mode):
        raise OutputError("is a symbolic link; the kit never writes through one", file=str(path))
    if info is not None and stat.S_ISDIR(info.st_mode):
        raise OutputError("is a folder, not a file", file=str(path))
    if info is not None and not stat.S_ISREG(info.st_mode):
        _write_through(path, data)
        return
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        fd, tmp = tempfile.mkstemp(prefix=f".{path.name[:40]}.", suffix=".tmp", dir=path.parent)
    except OSError as exc:
        raise OutputError(f"cannot write here: {exc.strerror or exc}", file=str(path)) from None
    try:
        with os.fdopen(fd, "wb") as handle:
            handle.write(data)
            handle.flush()
            os.fsync(handle.fileno())
        # mkstemp makes the file private (0600); give it the mode an ordinary open() would.
        os.chmod(tmp, 0o666 & ~_umask())
        if replace:
            os.replace(tmp, path)
        else:
            os.link(tmp, path, follow_symlinks=False)
            os.unlink(tmp)
    except FileExistsError:
        Path(tmp).unlink(missing_ok=True)
        raise OutputError(
            "appeared while it was being written; nothing was changed", file=str(path)
        ) from None
    except OSError as exc:
        Path(tmp).unlink(missing_ok=True)
        raise OutputError(
            f"cannot write here: {exc.strerror or exc}; nothing was changed", file=str(path)
        ) from None


def _write_through(path: Path, data: bytes) -> None:
    try:
        with open(path, "wb") as handle:
            handle.write(data)
    except BrokenPipeError:
        raise
    except OSError as exc:
        raise OutputError(f"cannot write here: {exc.strerror or exc}", file=str(path)) from None


def _umask() -> int:
    """The process umask (reading it means setting it; put straight back)."""
    mask = os.umask(0)
    os.umask(mask)
    return mask
