"""The domains: one module each, registered here in a fixed order (the order is part of the seed's
meaning: changing it changes every packet)."""

from __future__ import annotations

from typing import Final

from . import leftovers
from .base import Domain, Fact, Threshold

DOMAINS: Final[tuple[Domain, ...]] = (leftovers.DOMAIN,)

__all__ = ["DOMAINS", "Domain", "Fact", "Threshold", "by_name"]


def by_name(name: str) -> Domain:
    for domain in DOMAINS:
        if domain.name == name:
            return domain
    raise KeyError(name)
