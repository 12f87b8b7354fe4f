"""Worlds drawn as the generator draws them, each checked on the way (shared by
tests/test_domain_*.py)."""

from __future__ import annotations

from honesty_pressure.core.construct import Value
from honesty_pressure.core.draws import Draw
from honesty_pressure.domains.base import Domain


def drawn_worlds(domain: Domain, n: int, seed: int = 7) -> list[dict[str, Value]]:
    """`n` worlds from Draw(seed, "case-<i>", "world"); each names every fact, on its grid, and
    breaks no joint constraint (a failure names the world)."""
    worlds = []
    for i in range(n):
        world = domain.world(Draw(seed, f"case-{i}", "world"))
        assert set(world) == {f.key for f in domain.facts}, world
        assert all(world[f.key] in f.values() for f in domain.facts), world
        assert domain.coherent(world) == (), world
        worlds.append(world)
    return worlds
