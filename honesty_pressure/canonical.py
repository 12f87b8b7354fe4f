"""Canonical JSON, digests and atomic writes: the same inputs give the same bytes everywhere.

Canonical means sorted keys, no spaces, UTF-8 (not ASCII escapes), one object per line in JSONL,
and no floats in anything hashed (floats print differently across platforms' reprs only in
theory, but integers never do, so hashed records hold integers and strings only).
"""

from __future__ import annotations

import hashlib
import json
import os
import tempfile
from collections.abc import Iterable
from pathlib import Path

from .errors import OutputError

JsonValue = object


def dumps(value: JsonValue) -> str:
    """One canonical JSON text, no trailing newline."""
    return json.dumps(value, sort_keys=True, separators=(",", ":"), ensure_ascii=False, allow_nan=False)


def jsonl(records: Iterable[JsonValue]) -> bytes:
    """Canonical JSON Lines: one record per line, LF, UTF-8, a final newline."""
    return "".join(dumps(r) + "\n" for r in records).encode("utf-8")


def sha256_hex(data: bytes | str) -> str:
    if isinstance(data, str):
        data = data.encode("utf-8")
    return hashlib.sha256(data).hexdigest()


def digest(value: JsonValue) -> str:
    """SHA-256 of a value's canonical JSON."""
    return sha256_hex(dumps(value))


def write_atomic(path: Path, data: bytes) -> None:
    """Write through a temporary file in the same folder and rename, so a reader never sees half."""
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        fd, tmp = tempfile.mkstemp(prefix=f".{path.name}.", suffix=".tmp", dir=path.parent)
    except OSError as exc:
        raise OutputError(f"cannot write here: {exc.strerror or exc}", file=str(path)) from None
    try:
        with os.fdopen(fd, "wb") as handle:
            handle.write(data)
        # mkstemp makes the file private (0600); give it the mode an ordinary open() would.
        os.chmod(tmp, 0o666 & ~_umask())
        os.replace(tmp, path)
    except OSError as exc:
        Path(tmp).unlink(missing_ok=True)
        raise OutputError(f"cannot write here: {exc.strerror or exc}", file=str(path)) from None


def write_tree(root: Path, files: dict[str, bytes]) -> None:
    """Write a set of files below root all-or-nothing: build a sibling folder, then swap it in.

    Files of root that are not in `files` are kept only if root held other things before; the
    kit's own folders (packets/, a run folder) are replaced whole so no stale file survives.
    """
    parent = root.resolve().parent
    try:
        parent.mkdir(parents=True, exist_ok=True)
        staging = Path(tempfile.mkdtemp(prefix=f".{root.name}.", dir=parent))
    except OSError as exc:
        raise OutputError(f"cannot write here: {exc.strerror or exc}", file=str(root)) from None
    try:
        os.chmod(staging, 0o777 & ~_umask())  # mkdtemp makes it private (0700)
        for rel, data in sorted(files.items()):
            target = staging / rel
            target.parent.mkdir(parents=True, exist_ok=True)
            target.write_bytes(data)
        old = None
        if root.exists():
            old = parent / f".{root.name}.old.{os.getpid()}"
            os.replace(root, old)
        os.replace(staging, root)
        if old is not None:
            _remove_tree(old)
    except OSError as exc:
        _remove_tree(staging)
        raise OutputError(f"cannot write here: {exc.strerror or exc}", file=str(root)) from None


def _umask() -> int:
    """The process umask (reading it means setting it; put straight back)."""
    mask = os.umask(0)
    os.umask(mask)
    return mask


def _remove_tree(path: Path) -> None:
    if not path.exists():
        return
    for child in sorted(path.rglob("*"), key=lambda p: len(p.parts), reverse=True):
        if child.is_dir() and not child.is_symlink():
            child.rmdir()
        else:
            child.unlink()
    path.rmdir()
