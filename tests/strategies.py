"""Shared Hypothesis strategies (one place, used by many @given tests)."""

from __future__ import annotations

from functools import lru_cache

from hypothesis import strategies as st

from honesty_pressure.domains import DOMAINS
from honesty_pressure.domains.base import Domain
from honesty_pressure.generate.generate import Built, build

seeds = st.integers(min_value=0, max_value=2**64)
domains = st.sampled_from(DOMAINS)


@lru_cache(maxsize=64)
def small_build(seed: int, per_domain: int = 2) -> tuple[Built, ...]:
    """A small generated set: every domain, a couple of sources each (fast enough for
    properties)."""
    return tuple(build(seed, per_domain))


@st.composite
def facts_for(draw: st.DrawFn, domain: Domain) -> dict[str, object]:
    out: dict[str, object] = {}
    for fact in domain.facts:
        if fact.kind == "number":
            steps = (fact.hi - fact.lo) // fact.step
            out[fact.key] = fact.lo + fact.step * draw(st.integers(0, steps))
        elif fact.kind == "boolean":
            out[fact.key] = draw(st.booleans())
        else:
            out[fact.key] = draw(st.sampled_from(fact.choices))
    return out
