"""MANIFEST.sha256: every file under packets/ and controls/, in the format `sha256sum -c` reads.

Lowercase hex, two spaces, the relative POSIX path, LF, sorted by path. Hidden files (editor
droppings, our own temporary files) are not part of the set and are ignored. A private packet
folder written by `prepare --out DIR` carries its own MANIFEST.sha256 (paths relative to DIR), so
its layers can be checked before use just like the committed ones.
"""

from __future__ import annotations

import hashlib
import os
from pathlib import Path, PurePosixPath
from typing import Final

from ..core.canonical import sha256_hex
from ..core.errors import InputError
from ..core.limits import MAX_SMALL_JSON_BYTES, MIB
from .store import is_dir, is_file, open_regular

MANIFEST_NAME: Final = "MANIFEST.sha256"
COVERED: Final = ("packets", "controls")
_CHUNK: Final = 1 << 20


def _walk(base: Path) -> list[Path]:
    """Every regular file below base, never following a link (a loop cannot hang us)."""
    out = []
    for folder, dirs, files in os.walk(base, followlinks=False):
        dirs[:] = [d for d in dirs if not d.startswith(".")]
        out += [Path(folder) / name for name in files if not name.startswith(".")]
    return [p for p in out if is_file(p)]


def covered_files(root: Path, folders: tuple[str, ...] = COVERED) -> list[str]:
    """Relative POSIX paths of every file the manifest must cover, sorted."""
    paths = []
    for folder in folders:
        base = root / folder
        if is_dir(base) and not base.is_symlink():
            paths += [p.relative_to(root).as_posix() for p in _walk(base)]
    return sorted(paths)


def file_sha256(path: Path) -> str:
    """SHA-256 of a file, read in chunks (a big file never sits in memory whole)."""
    digest = hashlib.sha256()
    with open_regular(path) as handle:
        for chunk in iter(lambda: handle.read(_CHUNK), b""):
            digest.update(chunk)
    return digest.hexdigest()


def render(root: Path, files: list[str]) -> bytes:
    return "".join(f"{file_sha256(root / rel)}  {rel}\n" for rel in files).encode("utf-8")


def build(root: Path, folders: tuple[str, ...] = COVERED) -> bytes:
    return render(root, covered_files(root, folders))


def render_bytes(files: dict[str, bytes]) -> bytes:
    """A manifest of files given as bytes (relative path -> content)."""
    return "".join(f"{sha256_hex(data)}  {rel}\n" for rel, data in sorted(files.items())).encode(
        "utf-8"
    )


def _relative(rel: str) -> bool:
    parts = PurePosixPath(rel).parts
    return bool(parts) and not rel.startswith("/") and ".." not in parts and "\\" not in rel


def parse(text: str, name: str = MANIFEST_NAME) -> dict[str, str]:
    entries: dict[str, str] = {}
    for number, line in enumerate(text.split("\n"), start=1):
        if not line:
            continue
        hexdigest, sep, rel = line.partition("  ")
        if (
            not sep
            or len(hexdigest) != 64
            or any(c not in "0123456789abcdef" for c in hexdigest)
            or not rel
        ):
            raise InputError("not a 'sha256  path' line", file=name, line=number)
        if not _relative(rel):
            raise InputError(
                f"{rel} is not a relative path inside the folder", file=name, line=number
            )
        if rel in entries:
            raise InputError(f"{rel} is listed twice", file=name, line=number)
        entries[rel] = hexdigest
    return entries


def read(path: Path) -> dict[str, str]:
    """A manifest file's entries; unreadable, too big, not UTF-8 or malformed is an InputError."""
    try:
        with open_regular(path) as handle:
            data = handle.read(MAX_SMALL_JSON_BYTES + 1)
    except OSError as exc:
        raise InputError(f"cannot read: {exc.strerror or exc}", file=str(path)) from None
    if len(data) > MAX_SMALL_JSON_BYTES:
        raise InputError(f"larger than {MAX_SMALL_JSON_BYTES // MIB} MiB", file=str(path))
    try:
        text = data.decode("utf-8")
    except UnicodeDecodeError as exc:
        raise InputError(f"not valid UTF-8 (byte {exc.start})", file=str(path)) from None
    return parse(text, str(path))


def check(root: Path) -> list[str]:
    """Problems, one per file: a changed hash, a listed file that is gone, a file not listed."""
    path = root / MANIFEST_NAME
    if not is_file(path):
        return [f"{MANIFEST_NAME}: missing"]
    try:
        entries = read(path)
    except InputError as exc:
        return [
            f"{MANIFEST_NAME}: {exc.one_line().removeprefix(str(path) + ':').strip()} (no file "
            "could be checked)"
        ]
    problems = []
    for rel, expected in sorted(entries.items()):
        target = root / rel
        if not is_file(target):
            problems.append(f"{rel}: listed in {MANIFEST_NAME} but missing")
            continue
        try:
            actual = file_sha256(target)
        except (OSError, InputError) as exc:
            problems.append(f"{rel}: cannot read ({exc})")
            continue
        if actual != expected:
            problems.append(f"{rel}: SHA-256 differs from {MANIFEST_NAME}")
    for rel in covered_files(root):
        if rel not in entries:
            problems.append(f"{rel}: not listed in {MANIFEST_NAME}")
    return problems


def manifest_for(packets: Path) -> tuple[Path, str] | None:
    """The manifest that lists a packet folder's files and the prefix its entries carry: the
    folder's own (a private set), else the one beside it (the checkout's, `packets/...`)."""
    own = packets / MANIFEST_NAME
    if is_file(own):
        return own, ""
    real = Path(os.path.realpath(packets))
    beside = real.parent / MANIFEST_NAME
    if is_file(beside):
        return beside, f"{real.name}/"
    return None


def check_layer_files(packets: Path, layer: str, files: dict[str, bytes]) -> None:
    """Each of a layer's files must be listed, with its SHA-256, in the manifest that covers it."""
    found = manifest_for(packets)
    if found is None:
        raise InputError(
            f"no {MANIFEST_NAME} lists these packets (none in this folder or beside it), so they "
            "cannot be checked before use; `prepare --seed N --out DIR` writes a set with its "
            "manifest",
            file=str(packets),
        )
    path, prefix = found
    entries = read(path)
    for name, data in sorted(files.items()):
        where = str(packets / layer / name)
        want = entries.get(f"{prefix}{layer}/{name}")
        if want is None:
            raise InputError(
                f"not listed in {path}, so it cannot be checked before use", file=where
            )
        if sha256_hex(data) != want:
            raise InputError(
                f"SHA-256 differs from {path} (edited after prepare?); `verify` names every "
                "changed file",
                file=where,
            )
