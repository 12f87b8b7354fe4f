"""Statistics against known values."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from honesty_pressure.core.stats import (
    bootstrap_mean,
    fisher_exact,
    harmonic_mean,
    holm,
    mcnemar_exact,
    minimum_detectable_difference,
    pass_hat_k,
    percentile,
    resample_indices,
    wilson,
)


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


# ---- exact tests, Holm, MDD, pass^k ------------------------------------------------------------
# Reference values: worked by hand where short (shown), else computed once with SciPy 1.17.1
# (scipy.stats.fisher_exact, scipy.stats.binomtest, scipy.stats.norm.ppf) outside the repository
# and pinned here as literals. SciPy is never imported by the kit or its tests.


@pytest.mark.parametrize(
    ("b", "c", "p"),
    [
        (2, 8, 112 / 1024),  # by hand: 2 * (C(10,0) + C(10,1) + C(10,2)) / 2**10 = 2 * 56 / 1024
        (0, 12, 2 / 4096),  # by hand: 2 * C(12,0) / 2**12
        (5, 5, 1.0),
        (0, 0, 1.0),
        (1, 0, 1.0),
        (13, 30, 0.0137181850586785),  # binomtest(13, 43, 0.5)
        (120, 161, 0.016869296340143808),  # binomtest(120, 281, 0.5)
    ],
)
def test_mcnemar_exact_matches_the_reference(b: int, c: int, p: float) -> None:
    assert mcnemar_exact(b, c) == pytest.approx(p, rel=1e-12)
    assert mcnemar_exact(c, b) == mcnemar_exact(b, c)


@pytest.mark.parametrize(
    ("table", "p"),
    [
        ((3, 1, 1, 3), 34 / 70),  # Fisher's tea tasting, by hand: (1 + 16 + 16 + 1) / C(8, 4)
        ((12, 5, 7, 20), 0.005313763698481829),
        ((0, 10, 10, 0), 1.082508822446903e-05),
        ((45, 15, 30, 30), 0.007953318732958611),
        ((400, 80, 380, 100), 0.11599262502037395),
        ((7, 0, 0, 0), 1.0),
        ((1, 9, 11, 3), 0.0027594561852200836),
    ],
)
def test_fisher_exact_matches_the_reference(table: tuple[int, int, int, int], p: float) -> None:
    a, b, c, d = table
    assert fisher_exact(a, b, c, d) == pytest.approx(p, rel=1e-12)
    assert fisher_exact(a, c, b, d) == pytest.approx(p, rel=1e-12), (
        "transposing the table changes nothing"
    )


def test_holm_by_hand() -> None:
    # sorted: .005*4 = .02, .01*3 = .03, .03*2 = .06, .04*1 = .04 -> made monotone: .06
    assert holm([0.01, 0.04, 0.03, 0.005]) == pytest.approx([0.03, 0.06, 0.06, 0.02])
    assert holm([0.5]) == [0.5] and holm([]) == []
    assert holm([0.3, 0.9]) == pytest.approx([0.6, 0.9])


@given(st.lists(st.floats(min_value=0.0, max_value=1.0), min_size=1, max_size=30))
def test_holm_never_lowers_a_p_value_and_keeps_the_order(ps: list[float]) -> None:
    adjusted = holm(ps)
    assert all(p <= q <= 1.0 for p, q in zip(ps, adjusted))
    for (p1, q1), (p2, q2) in zip(sorted(zip(ps, adjusted)), sorted(zip(ps, adjusted))[1:]):
        assert q1 <= q2 or p1 == p2


@given(st.integers(0, 60), st.integers(0, 60), st.integers(0, 60), st.integers(0, 60))
def test_fisher_is_a_probability(a: int, b: int, c: int, d: int) -> None:
    p = fisher_exact(a, b, c, d)
    assert 0.0 < p <= 1.0
    assert p == pytest.approx(fisher_exact(d, c, b, a), rel=1e-12)


def test_minimum_detectable_difference() -> None:
    # (z.975 + z.80) = 2.8015852181129683 (norm.ppf); MDD = 2.80159 * sqrt(2 * 0.25 / n)
    assert minimum_detectable_difference([(1.0, 1000)]) == pytest.approx(
        0.06264534992459173, rel=1e-12
    )
    # a mean of five equal groups of 600 is as precise as one group of 3,000
    assert minimum_detectable_difference([(0.2, 600)] * 5) == pytest.approx(
        0.03616830964244134, rel=1e-12
    )
    assert minimum_detectable_difference([(0.2, 600)] * 5) == pytest.approx(
        minimum_detectable_difference([(1.0, 3000)])
    )
    assert (
        minimum_detectable_difference([(1.0, 0)]) is None
        and minimum_detectable_difference([]) is None
    )


def test_pass_hat_k() -> None:
    assert pass_hat_k(2, 4, 2) == pytest.approx(1 / 6)  # C(2,2) / C(4,2)
    assert pass_hat_k(3, 3, 3) == 1.0 and pass_hat_k(2, 3, 3) == 0.0
    assert pass_hat_k(2, 4, 1) == 0.5
    with pytest.raises(ValueError):
        pass_hat_k(1, 2, 3)


# ---- the faster paths give what the definitions give ----------------------------------------


def test_resamples_are_shake_words_modulo_n() -> None:
    import hashlib
    import struct

    from honesty_pressure.core.stats import resamples

    n = 7
    words = struct.unpack(
        f"<{n}I", hashlib.shake_256(f"bootstrap\x1f3\x1fp\x1f{n}\x1f2".encode()).digest(4 * n)
    )
    assert list(resamples(3, "p", n, 3))[2] == tuple(w % n for w in words)


@given(st.lists(st.floats(-1, 1, allow_nan=False), min_size=1, max_size=40), st.integers(0, 5))
def test_one_pass_pickers_pick_what_the_indices_pick(values: list[float], seed: int) -> None:
    from honesty_pressure.core.stats import one_pass_pickers, picker, resamples

    by_index = [list(picker(idx)(values)) for idx in resamples(seed, "t", len(values), 20)]
    assert [list(pick(values)) for pick in one_pass_pickers(seed, "t", len(values), 20)] == by_index


@given(st.integers(0, 30), st.integers(0, 30), st.integers(0, 30), st.integers(0, 30))
def test_fisher_exact_matches_its_definition(a: int, b: int, c: int, d: int) -> None:
    import math

    row1, col1, total = a + b, a + c, a + b + c + d

    def weight(x: int) -> int:
        return math.comb(col1, x) * math.comb(total - col1, row1 - x)

    observed = weight(a)
    as_likely = sum(
        w
        for w in map(weight, range(max(0, row1 + col1 - total), min(row1, col1) + 1))
        if w <= observed
    )
    assert fisher_exact(a, b, c, d) == min(1.0, as_likely / math.comb(total, row1))
