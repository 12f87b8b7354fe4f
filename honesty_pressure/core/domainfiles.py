"""The domain files a packet set was built from, when a lab gave its own (`--domains DIR`).

A set built from the kit's own domains records none: those are pinned by the generator and kit
version build.json already records, and so the committed packets keep their bytes. A set built
from a lab's folder records each file (domain name, file name, SHA-256) in build.json, and folds
the digests into its packet-set id, so every later command knows the files by content and
refuses other ones (docs/AUDIT.md). The files given to the running command are held here, below
every stage that reads a layer, as plain records; the domains themselves are in
`domains.active()`."""

from __future__ import annotations

from collections.abc import Iterator, Mapping, Sequence
from contextlib import contextmanager
from contextvars import ContextVar
from dataclasses import dataclass
from typing import Final

from .errors import InputError


@dataclass(frozen=True)
class DomainFile:
    name: str
    """The domain's name, as its file declares it."""
    file: str
    """The file's name in the folder it was given from."""
    sha256: str
    """The SHA-256 (hex) of the file's bytes."""

    def as_json(self) -> dict[str, str]:
        return {"name": self.name, "file": self.file, "sha256": self.sha256}


_GIVEN: Final[ContextVar[tuple[DomainFile, ...] | None]] = ContextVar(
    "honesty_pressure_domain_files", default=None
)


def given_files() -> tuple[DomainFile, ...] | None:
    """The domain files the running command was given (None: the kit's own domains)."""
    return _GIVEN.get()


@contextmanager
def files_given(files: Sequence[DomainFile] | None) -> Iterator[None]:
    """Within the block, `given_files()` is `files` (`domains.using` sets it with the domains)."""
    token = _GIVEN.set(None if files is None else tuple(files))
    try:
        yield
    finally:
        _GIVEN.reset(token)


def commitment(files: Sequence[DomainFile] | None) -> list[str] | None:
    """What the packet-set id covers of the domain files: their digests in order, no names (a
    renamed file is the same file)."""
    return None if files is None else [f.sha256 for f in files]


def _entries(recorded: object) -> list[tuple[str, str]]:
    """(name, sha256) of each file build.json records (what is not a record reads as '?')."""
    if not isinstance(recorded, list):
        return []
    return [
        (str(r.get("name", "?")), str(r.get("sha256", "?"))) if isinstance(r, dict) else ("?", "?")
        for r in recorded
    ]


def check_recorded(build: Mapping[str, object], where: str) -> None:
    """The domain files a layer's build.json records must be, by content, the ones given: one
    clear line otherwise (an InputError naming `where`)."""
    recorded = build.get("domain_files")
    given = given_files()
    if recorded is None and given is None:
        return
    if recorded is None:
        raise InputError(
            "this packet set was built from the kit's own domains; run it without --domains",
            file=where,
        )
    entries = _entries(recorded)
    names = ", ".join(name for name, _ in entries)
    if given is None:
        raise InputError(
            f"this packet set was built from private domain files ({names}); give --domains DIR "
            "with those files",
            file=where,
        )
    if [digest for _, digest in entries] == commitment(given):
        return
    theirs = {f.sha256 for f in given}
    for name, digest in entries:
        if digest not in theirs:
            raise InputError(
                f"domain {name}: no file given under --domains has the SHA-256 build.json "
                f"records ({digest[:12]}...); the domain files differ from the ones this set was "
                "built from",
                file=where,
            )
    raise InputError(
        f"--domains gives other domain files than the ones this set was built from ({names})",
        file=where,
    )
