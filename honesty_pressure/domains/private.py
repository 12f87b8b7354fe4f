"""A lab's own domains (`--domains DIR`): every `*.toml` file of a folder outside the package,
read as `domains check` reads one (a module beside a file is the lab's own code, run on its own
machine), and the record of each file that build.json keeps (docs/CONTRIBUTING.md)."""

from __future__ import annotations

import hashlib
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

from ..core.arguments import path as checked_path
from ..core.domainfiles import DomainFile
from ..core.errors import InputError
from ..core.limits import MAX_DOMAIN_FILE_BYTES
from ..files.store import is_dir, is_file, read_bounded
from . import using
from .base import Domain
from .beside import read_beside

MAX_DOMAIN_FILES = 64
"""More files than this in one folder is a mistake (the wrong folder), not a domain set."""


def load_dir(folder: Path) -> tuple[tuple[Domain, ...], tuple[DomainFile, ...]]:
    """The domains of the folder's `*.toml` files, in the order of their domain names (a file's
    name does not matter), with each file's record. A folder with no domain file, two files of one
    domain name, or two domains of one code is refused."""
    if not is_dir(folder):  # never an exception: a fuzzed name too long for the system included
        raise InputError("--domains: not a folder", file=str(folder))
    try:
        paths = sorted(p for p in folder.iterdir() if p.suffix == ".toml" and is_file(p))
    except OSError as error:
        raise InputError(
            f"--domains: cannot list: {error.strerror or error}", file=str(folder)
        ) from None
    if not paths:
        raise InputError("--domains: no domain file (*.toml) in the folder", file=str(folder))
    if len(paths) > MAX_DOMAIN_FILES:
        raise InputError(f"--domains: more than {MAX_DOMAIN_FILES} domain files", file=str(folder))
    read: list[tuple[Domain, DomainFile]] = []
    for path in paths:
        data = read_bounded(path, MAX_DOMAIN_FILE_BYTES)
        domain = read_beside(path, data)
        record = DomainFile(domain.name, path.name, hashlib.sha256(data).hexdigest())
        read.append((domain, record))
    _distinct(read, folder)
    read.sort(key=lambda pair: pair[0].name)
    return tuple(d for d, _ in read), tuple(r for _, r in read)


def _distinct(read: list[tuple[Domain, DomainFile]], folder: Path) -> None:
    """Packets, keys and templates find a domain by its name and its code: each names one."""
    for attribute in ("name", "code"):
        seen: dict[str, str] = {}
        for domain, record in read:
            value = str(getattr(domain, attribute))
            if value in seen:
                raise InputError(
                    f"--domains: {record.file} and {seen[value]} both declare {attribute} "
                    f"{value!r}",
                    file=str(folder),
                )
            seen[value] = record.file


@contextmanager
def lab_domains(folder: str | Path) -> Iterator[None]:
    """Within the block, every build, read and check of a layer uses the domain files of `folder`
    (what `--domains DIR` does for one command; docs/API.md)."""
    domains, files = load_dir(checked_path(folder, "folder"))
    with using(domains, files):
        yield
