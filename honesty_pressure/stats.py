"""Statistics in stdlib code: Wilson score intervals, seeded cluster bootstrap, harmonic mean.

Deterministic for a given seed on every machine: the bootstrap's indices come from SHAKE-256 of
the seed and purpose, unpacked little-endian, and every sum runs in a fixed order.
"""

from __future__ import annotations

import hashlib
import math
import struct
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Final

Z95: Final = 1.959963984540054
"""The 97.5th percentile of the standard normal: a two-sided 95 % interval."""
BOOTSTRAP_RESAMPLES: Final = 1000


@dataclass(frozen=True, slots=True, kw_only=True)
class Rate:
    k: int
    n: int
    low: float
    high: float

    @property
    def value(self) -> float | None:
        return self.k / self.n if self.n else None


def wilson(k: int, n: int, z: float = Z95) -> Rate:
    """Wilson score interval for k successes in n trials (Wilson 1927; Newcombe 1998, method 3)."""
    if not 0 <= k <= n:
        raise ValueError(f"need 0 <= k <= n, got k={k}, n={n}")
    if n == 0:
        return Rate(k=0, n=0, low=0.0, high=1.0)
    p = k / n
    z2 = z * z
    centre = (p + z2 / (2 * n)) / (1 + z2 / n)
    half = (z / (1 + z2 / n)) * math.sqrt(p * (1 - p) / n + z2 / (4 * n * n))
    low, high = max(0.0, centre - half), min(1.0, centre + half)
    # At the edges the interval closes exactly on 0 or 1 (floating error would leave 1e-17).
    return Rate(k=k, n=n, low=0.0 if k == 0 else low, high=1.0 if k == n else high)


def resample_indices(seed: int, purpose: str, n: int, resamples: int = BOOTSTRAP_RESAMPLES) -> list[tuple[int, ...]]:
    """`resamples` lists of n indices drawn with replacement, from SHAKE-256(seed, purpose).

    Modulo reduction of 32-bit words: bias below n / 2**32, far under the interval's resolution.
    """
    if n == 0:
        return []
    stream = hashlib.shake_256(f"bootstrap\x1f{seed}\x1f{purpose}\x1f{n}".encode("utf-8")).digest(4 * n * resamples)
    words = struct.unpack(f"<{n * resamples}I", stream)
    return [tuple(w % n for w in words[r * n : (r + 1) * n]) for r in range(resamples)]


def percentile(sorted_values: Sequence[float], q: float) -> float:
    """Linear interpolation between closest ranks (numpy's default 'linear' method)."""
    if not sorted_values:
        raise ValueError("percentile of nothing")
    pos = (len(sorted_values) - 1) * q
    lo = math.floor(pos)
    hi = min(lo + 1, len(sorted_values) - 1)
    return sorted_values[lo] + (sorted_values[hi] - sorted_values[lo]) * (pos - lo)


@dataclass(frozen=True, slots=True, kw_only=True)
class Estimate:
    value: float | None
    low: float | None
    high: float | None
    n: int


def bootstrap_mean(values: Sequence[float], indices: Sequence[tuple[int, ...]]) -> Estimate:
    """Mean of per-cluster values with a percentile bootstrap 95 % interval over clusters."""
    n = len(values)
    if n == 0:
        return Estimate(value=None, low=None, high=None, n=0)
    means = sorted(math.fsum(map(values.__getitem__, idx)) / n for idx in indices)
    return Estimate(value=math.fsum(values) / n, low=percentile(means, 0.025), high=percentile(means, 0.975), n=n)


def harmonic_mean(values: Sequence[float]) -> float:
    """Zero if any value is zero: a policy failing one axis fails the index."""
    if not values:
        raise ValueError("harmonic mean of nothing")
    if any(v <= 0 for v in values):
        return 0.0
    # Scaled by the smallest value: 1/v overflows for a subnormal rate, low/v never does.
    low = min(values)
    return len(values) * low / math.fsum(low / v for v in values)


def rounded(x: float | None, digits: int = 6) -> float | None:
    return None if x is None else round(x, digits)
