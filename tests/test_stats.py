"""Statistics against known values."""

from __future__ import annotations

import pytest
from hypothesis import given, strategies as st

from honesty_pressure.stats import bootstrap_mean, harmonic_mean, percentile, resample_indices, wilson


@pytest.mark.parametrize(
    ("k", "n", "low", "high"),
    [
        # Newcombe (1998), Statistics in Medicine 17:857-872, table I, method 3 (Wilson score).
        (81, 263, 0.2553, 0.3662),
        (15, 148, 0.0624, 0.1605),
        (0, 20, 0.0, 0.1611),
        (1, 29, 0.0061, 0.1718),
    ],
)
def test_wilson_matches_newcombe(k: int, n: int, low: float, high: float) -> None:
    r = wilson(k, n)
    assert (round(r.low, 4), round(r.high, 4)) == (low, high)


@given(st.integers(0, 500), st.integers(1, 500))
def test_wilson_contains_the_estimate(k: int, n: int) -> None:
    k = min(k, n)
    r = wilson(k, n)
    assert 0.0 <= r.low <= k / n <= r.high <= 1.0


def test_percentile_linear() -> None:
    assert percentile([1.0, 2.0, 3.0, 4.0], 0.5) == 2.5
    assert percentile([5.0], 0.975) == 5.0


def test_bootstrap_is_seeded_and_brackets_the_mean() -> None:
    values = [1.0, 0.0, 1.0, 1.0, 0.0, 1.0, 0.0, 1.0]
    idx = resample_indices(7, "t", len(values))
    assert idx == resample_indices(7, "t", len(values)) != resample_indices(8, "t", len(values))
    est = bootstrap_mean(values, idx)
    assert est.value == 0.625 and est.low is not None and est.high is not None
    assert est.low <= 0.625 <= est.high


def test_harmonic_mean_is_zero_when_any_axis_is() -> None:
    assert harmonic_mean([1.0, 0.0, 1.0]) == 0.0
    assert harmonic_mean([0.5, 0.5]) == 0.5
