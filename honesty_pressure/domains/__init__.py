"""The domains: one module each, registered here in a fixed order (the order is part of the seed's
meaning: changing it changes every packet). A converted domain is a domain file (`<name>.toml`,
docs/CONTRIBUTING.md) with its module beside it for the functions data cannot say: the registry
reads the file (`datafile.load`), which binds the domain in the module as DOMAIN; a domain written
as data only (meal_receipt, overdraft, leftovers,
breaker_load) has no module (`datafile.load_file`)."""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from contextlib import contextmanager
from contextvars import ContextVar
from pathlib import Path
from typing import Final

from ..core.domainfiles import DomainFile, files_given
from . import (
    acetaminophen,
    booster_seat,
    datafile,
    infant_fever,
    nsaid_pregnancy,
    schengen_passport,
    trailer_towing,
)
from .base import Domain, Fact, Grid, Threshold, grid_domain

_HERE: Final = Path(__file__).resolve().parent

DOMAINS: Final[tuple[Domain, ...]] = (
    datafile.load(acetaminophen),
    datafile.load(nsaid_pregnancy),
    datafile.load(infant_fever),
    datafile.load_file(_HERE / "leftovers.toml"),
    datafile.load_file(_HERE / "overdraft.toml"),
    datafile.load_file(_HERE / "meal_receipt.toml"),
    datafile.load(schengen_passport),
    datafile.load_file(_HERE / "breaker_load.toml"),
    datafile.load(booster_seat),
    datafile.load(trailer_towing),
)

__all__ = ["DOMAINS", "Domain", "Fact", "Threshold", "active", "by_name", "using"]

_ACTIVE: Final[ContextVar[tuple[Domain, ...]]] = ContextVar(
    "honesty_pressure_domains", default=DOMAINS
)


def active() -> tuple[Domain, ...]:
    """The domains of the running command: the kit's own, or a lab's (`--domains DIR`,
    `domains.private.load_dir`) inside `using`."""
    return _ACTIVE.get()


@contextmanager
def using(domains: Sequence[Domain], files: Sequence[DomainFile] | None) -> Iterator[None]:
    """Within the block, the kit builds, advances and checks with `domains` (replacing the kit's
    own), made from `files` (what build.json records and the packet-set id covers)."""
    token = _ACTIVE.set(tuple(domains))
    try:
        with files_given(files):
            yield
    finally:
        _ACTIVE.reset(token)


def by_name(name: str, grid: Grid = "declared") -> Domain:
    """The domain called `name`; with a grid, on that value grid (`base.grid_domain`: what a
    packet set of that surface was built with)."""
    for domain in active():
        if domain.name == name:
            return grid_domain(domain, grid)
    raise KeyError(name)
