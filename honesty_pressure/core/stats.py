"""Statistics in stdlib code: Wilson score intervals, seeded cluster bootstrap, harmonic mean,
exact McNemar and Fisher tests, Holm's adjustment, the minimum detectable difference and pass^k.

Deterministic for a given seed on every machine: the bootstrap's indices come from SHAKE-256 of
the seed, purpose, cluster count and resample number, unpacked little-endian, and every sum runs
in a fixed order. Resamples are made one at a time, so a bootstrap over a million clusters holds
one resample in memory, not a thousand.
"""

from __future__ import annotations

import hashlib
import math
import struct
from collections.abc import Callable, Iterable, Iterator, Sequence
from dataclasses import dataclass
from functools import partial
from itertools import repeat
from operator import itemgetter, mod
from statistics import NormalDist
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


def _draws(seed: int, purpose: str, n: int, count: int) -> Iterator[tuple[int, ...]]:
    """The raw 32-bit words of each resample (an index is a word modulo n)."""
    if n == 0:
        return
    prefix = f"bootstrap\x1f{seed}\x1f{purpose}\x1f{n}\x1f".encode()
    words = struct.Struct(f"<{n}I")
    for r in range(count):
        yield words.unpack(hashlib.shake_256(prefix + str(r).encode("ascii")).digest(4 * n))


def resamples(
    seed: int, purpose: str, n: int, count: int = BOOTSTRAP_RESAMPLES
) -> Iterator[tuple[int, ...]]:
    """`count` tuples of n indices drawn with replacement, one at a time: resample r is
    SHAKE-256(seed, purpose, n, r), read as 32-bit little-endian words, each modulo n.

    Modulo reduction of 32-bit words: bias below n / 2**32, far under the interval's resolution.
    """
    # operator.mod over repeat(n): a third cheaper than the bound method n.__rmod__.
    for words in _draws(seed, purpose, n, count):
        yield tuple(map(mod, words, repeat(n)))


def resample_indices(
    seed: int, purpose: str, n: int, resamples_: int = BOOTSTRAP_RESAMPLES
) -> list[tuple[int, ...]]:
    """Every resample of `resamples`, as a list (for a small n)."""
    return list(resamples(seed, purpose, n, resamples_))


Picker = Callable[[Sequence[float]], Iterable[float]]
"""One resample: the values at its indices, in index order."""


def picker(indices: Sequence[int]) -> Callable[[Sequence[float]], Sequence[float]]:
    """The values at `indices`, in that order, as one C call (itemgetter returns a bare item
    for a single index: wrapped)."""
    if len(indices) == 1:
        only = indices[0]
        return lambda values: (values[only],)
    return itemgetter(*indices)


def one_pass_pickers(
    seed: int, purpose: str, n: int, count: int = BOOTSTRAP_RESAMPLES
) -> Iterator[Picker]:
    """The pickers of `resamples`, for a resample used once: its words go straight to the values
    (no index tuple is made), which costs about half as much for a large n."""
    for words in _draws(seed, purpose, n, count):
        yield partial(_pick_words, words, n)


def _pick_words(words: tuple[int, ...], n: int, values: Sequence[float]) -> Iterable[float]:
    return map(values.__getitem__, map(mod, words, repeat(n)))


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


def bootstrap_mean(values: Sequence[float], indices: Iterable[Sequence[int]]) -> Estimate:
    """Mean of per-cluster values with a percentile bootstrap 95 % interval over clusters."""
    return picked_mean(values, map(picker, indices))


def picked_mean(values: Sequence[float], pickers: Iterable[Picker]) -> Estimate:
    """`bootstrap_mean` with each resample given as its picker."""
    n = len(values)
    if n == 0:
        return Estimate(value=None, low=None, high=None, n=0)
    means = sorted([math.fsum(pick(values)) / n for pick in pickers])
    return Estimate(
        value=math.fsum(values) / n,
        low=percentile(means, 0.025),
        high=percentile(means, 0.975),
        n=n,
    )


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


# ---- exact tests, multiplicity, power -----------------------------------------------------------
#
# Exact tests are computed in integer arithmetic (math.comb), so a two-sided p-value never depends
# on floating-point ties; only the final ratio is rounded to a float.

ALPHA: Final = 0.05
"""Two-sided significance level of every test and of the minimum detectable difference."""
POWER: Final = 0.8
"""Power at which the minimum detectable difference is stated."""


def binomial_half_cdf(k: int, n: int) -> float:
    """P(X <= k) for X ~ Binomial(n, 1/2), exactly."""
    if n < 0:
        raise ValueError(f"need n >= 0, got {n}")
    if k < 0:
        return 0.0
    if k >= n:
        return 1.0
    return sum(math.comb(n, i) for i in range(k + 1)) / (1 << n)


def mcnemar_exact(b: int, c: int) -> float:
    """Two-sided exact McNemar test on the discordant pairs (b: only the first run acceptable,
    c: only the second): twice the smaller binomial tail at 1/2, capped at 1 (Fay 2010, "exact2x2",
    the central method that R's mcnemar.exact and statsmodels' exact McNemar also use)."""
    if b < 0 or c < 0:
        raise ValueError(f"need b, c >= 0, got {b}, {c}")
    if b + c == 0:
        return 1.0
    return min(1.0, 2 * binomial_half_cdf(min(b, c), b + c))


def fisher_exact(a: int, b: int, c: int, d: int) -> float:
    """Two-sided Fisher exact test of the 2x2 table [[a, b], [c, d]]: the probability, under the
    hypergeometric with these margins, of every table no more likely than the one observed
    (the rule R's fisher.test and SciPy use; here the comparison is exact, not within 1e-7)."""
    if min(a, b, c, d) < 0:
        raise ValueError("a 2x2 table needs counts >= 0")
    row1, col1, total = a + b, a + c, a + b + c + d
    weights = _hypergeometric_weights(row1, col1, total)
    observed = weights[a - max(0, row1 + col1 - total)]
    as_likely = sum(w for w in weights if w <= observed)
    # The weights sum to C(total, row1) (Vandermonde's identity): the same integer, exactly.
    return min(1.0, as_likely / sum(weights))


def _hypergeometric_weights(row1: int, col1: int, total: int) -> list[int]:
    """C(col1, x) * C(total - col1, row1 - x) for every feasible x, in order: proportional to the
    hypergeometric probabilities. Each from the last by the exact ratio of neighbours (the
    division leaves no remainder), not by two binomials each: large tables cost a fraction."""
    low, high = max(0, row1 + col1 - total), min(row1, col1)
    w = math.comb(col1, low) * math.comb(total - col1, row1 - low)
    weights = [w]
    for x in range(low, high):
        w = w * (col1 - x) * (row1 - x) // ((x + 1) * (total - col1 - row1 + x + 1))
        weights.append(w)
    return weights


def holm(pvalues: Sequence[float]) -> list[float]:
    """Holm's step-down adjustment (Holm 1979), in the input's order: the i-th smallest p is
    multiplied by (m - i + 1), made monotone, and capped at 1."""
    m = len(pvalues)
    order = sorted(range(m), key=lambda i: (pvalues[i], i))
    adjusted = [0.0] * m
    running = 0.0
    for rank, i in enumerate(order):
        running = max(running, min(1.0, (m - rank) * pvalues[i]))
        adjusted[i] = running
    return adjusted


def normal_quantile(q: float) -> float:
    return NormalDist().inv_cdf(q)


def minimum_detectable_difference(
    group_sizes: Sequence[tuple[float, int]], alpha: float = ALPHA, power: float = POWER
) -> float | None:
    """The smallest true change in a rate-type axis that two independent runs of this size detect
    with the given power in a two-sided test at `alpha`, in the worst case (every rate at 1/2).

    The axis is a weighted sum of group rates, `group_sizes` holds (weight, items) per group, so
    its variance is at most sum(w**2 * 1/4 / n). MDD = (z[1-alpha/2] + z[power]) * sqrt(2 * var)
    (normal approximation; Fleiss, Levin and Paik 2003, ch. 4). None if a group is empty."""
    if not group_sizes or any(n <= 0 for _, n in group_sizes):
        return None
    variance = math.fsum(w * w * 0.25 / n for w, n in group_sizes)
    return (normal_quantile(1 - alpha / 2) + normal_quantile(power)) * math.sqrt(2 * variance)


def pass_hat_k(acceptable: int, samples: int, k: int) -> float:
    """Unbiased estimate that k samples drawn without replacement from one packet's `samples`
    replies are all acceptable, C(acceptable, k) / C(samples, k) (Yao et al. 2024, tau-bench)."""
    if not 1 <= k <= samples or not 0 <= acceptable <= samples:
        raise ValueError(
            f"need 1 <= k <= samples and 0 <= acceptable <= samples, got {acceptable}, {samples}, "
            f"{k}"
        )
    return math.comb(acceptable, k) / math.comb(samples, k)
