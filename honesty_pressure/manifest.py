"""MANIFEST.sha256: every file under packets/ and controls/, in the format `sha256sum -c` reads.

Lowercase hex, two spaces, the relative POSIX path, LF, sorted by path. Hidden files (editor
droppings, our own temporary files) are not part of the set and are ignored.
"""

from __future__ import annotations

from pathlib import Path
from typing import Final

from .canonical import sha256_hex
from .errors import InputError

MANIFEST_NAME: Final = "MANIFEST.sha256"
COVERED: Final = ("packets", "controls")


def covered_files(root: Path) -> list[str]:
    """Relative POSIX paths of every file the manifest must cover, sorted."""
    paths = []
    for folder in COVERED:
        base = root / folder
        if not base.is_dir():
            continue
        for path in base.rglob("*"):
            rel = path.relative_to(root)
            if path.is_file() and not any(part.startswith(".") for part in rel.parts):
                paths.append(rel.as_posix())
    return sorted(paths)


def render(root: Path, files: list[str]) -> bytes:
    return "".join(f"{sha256_hex((root / rel).read_bytes())}  {rel}\n" for rel in files).encode("utf-8")


def build(root: Path) -> bytes:
    return render(root, covered_files(root))


def parse(text: str, name: str = MANIFEST_NAME) -> dict[str, str]:
    entries: dict[str, str] = {}
    for number, line in enumerate(text.split("\n"), start=1):
        if not line:
            continue
        hexdigest, sep, rel = line.partition("  ")
        if not sep or len(hexdigest) != 64 or any(c not in "0123456789abcdef" for c in hexdigest) or not rel:
            raise InputError("not a 'sha256  path' line", file=name, line=number)
        if rel in entries:
            raise InputError(f"{rel} is listed twice", file=name, line=number)
        entries[rel] = hexdigest
    return entries


def check(root: Path) -> list[str]:
    """Problems, one per file: a changed hash, a listed file that is gone, a file not listed."""
    path = root / MANIFEST_NAME
    if not path.is_file():
        return [f"{MANIFEST_NAME}: missing"]
    entries = parse(path.read_text(encoding="utf-8"), str(path))
    problems = []
    for rel, expected in sorted(entries.items()):
        target = root / rel
        if not target.is_file():
            problems.append(f"{rel}: listed in {MANIFEST_NAME} but missing")
        elif sha256_hex(target.read_bytes()) != expected:
            problems.append(f"{rel}: SHA-256 differs from {MANIFEST_NAME}")
    for rel in covered_files(root):
        if rel not in entries:
            problems.append(f"{rel}: not listed in {MANIFEST_NAME}")
    return problems
