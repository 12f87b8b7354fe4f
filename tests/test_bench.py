"""bench/: the arithmetic of its verdicts and the floors it measures against (never its timings:
benchmarks are not unit tests)."""

from __future__ import annotations

import json
import math
from pathlib import Path
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from honesty_pressure.core import stats
from tests.benchload import load_bench

bench = load_bench("bench")
baselines = load_bench("baselines")


@settings(max_examples=40, deadline=None)
@given(
    n=st.integers(min_value=1, max_value=400),
    seed=st.integers(min_value=0, max_value=2**31),
    shares=st.lists(st.sampled_from([-1.0, -0.5, 0.0, 1 / 3, 1.0]), min_size=1, max_size=7),
)
def test_the_bootstrap_floor_draws_and_sums_as_the_kit_does(
    n: int, seed: int, shares: list[float]
) -> None:
    """The floor taken off `score --run` is the kit's own statistic in another stdlib form: the
    same draws, the same sums to the bit (so it is a floor of that work, not of other work)."""
    values = [shares[i % len(shares)] for i in range(n)]
    prefix = f"bootstrap\x1f{seed}\x1fclusters\x1f{n}\x1f".encode()
    kit = [math.fsum(pick(values)) for pick in stats.one_pass_pickers(seed, "clusters", n, 3)]
    assert [baselines.resample_sum(prefix, n, r, values) for r in range(3)] == kit
    assert baselines.RESAMPLES == stats.BOOTSTRAP_RESAMPLES


def test_the_floor_reads_the_kit_s_words_on_any_byte_order(monkeypatch: pytest.MonkeyPatch) -> None:
    """Where memoryview.cast would read other words (a big-endian machine), the floor unpacks them
    as the kit does: the same sums either way."""
    values = [float(i % 5) - 2.0 for i in range(257)]
    prefix = b"bootstrap\x1f7\x1fclusters\x1f257\x1f"
    cast = [baselines.resample_sum(prefix, 257, r, values) for r in range(4)]
    monkeypatch.setattr(baselines, "_CAST", False)
    assert [baselines.resample_sum(prefix, 257, r, values) for r in range(4)] == cast
    kit = [math.fsum(pick(values)) for pick in stats.one_pass_pickers(7, "clusters", 257, 4)]
    assert cast == kit


def _proc(label: str, cpus: list[float]) -> Any:
    return bench.Proc(["true"], label, runs=[bench.Measured(cpu=c, peak_mb=100.0) for c in cpus])


def _run_step(
    command: list[float], own: list[float], advance: list[float], first: list[float]
) -> Any:
    return bench.Step(
        "score --run full layer",
        18_496,
        _proc("score", command),
        _proc("parse-write floor", [1.0] * len(command)),
        parts=[_proc("advance", advance), _proc("score", first)],
        own=_proc("bootstrap floor", own),
        targets=[bench.Target("sum", bench.RUN_SUM_TARGET, "score --run less its floor <= 1.25x")],
    )


def test_score_run_is_held_to_its_sum_less_its_bootstraps_floor() -> None:
    step = _run_step([7.7, 7.9, 7.5], [0.75, 0.8, 0.7], [3.9, 4.0, 3.8], [2.0, 2.1, 1.9])
    expected = [(7.7 - 0.75) / 5.9, (7.9 - 0.8) / 6.1, (7.5 - 0.7) / 5.7]  # 1.178, 1.164, 1.193
    assert step.repeats(step.targets[0]) == pytest.approx(expected)
    assert step.sum_ratio == pytest.approx(expected[0])
    assert step.written_ratio == pytest.approx(7.7 / 5.9)
    assert step.verdicts() == [
        (
            "target score --run less its floor <= 1.25x: 1.18x (repeats 1.18, 1.16, 1.19;"
            " medians 7.70 s less 0.75 s over 3.90 s + 2.00 s) -- met",
            True,
        )
    ]


def test_the_floor_is_taken_off_not_allowed_a_quarter_more() -> None:
    """Bootstraps slower than their floor eat into the 25 %: 8.2 s over 3.9 + 2.0 s, with 0.75 s
    of floor, misses ((8.2 - 0.75) / 5.9 = 1.263x), where a sum that counted the floor as a third
    part would let it through (8.2 / 6.65 = 1.233x); 0.05 s less of the command meets it."""
    step = _run_step([8.2] * 3, [0.75] * 3, [3.9] * 3, [2.0] * 3)
    ((line, met),) = step.verdicts()
    assert not met and line.endswith("-- MISSED") and ": 1.26x (" in line
    step = _run_step([8.12] * 3, [0.75] * 3, [3.9] * 3, [2.0] * 3)
    ((line, met),) = step.verdicts()
    assert met and ": 1.249x (" in line


def test_as_written_prints_the_issue_s_ratio_with_nothing_taken_off() -> None:
    step = _run_step([7.7, 7.9, 7.5], [0.75, 0.8, 0.7], [3.9, 4.0, 3.8], [2.0, 2.1, 1.9])
    assert bench.as_written([], [step]) == [
        "- score --run <= 1.25x its advance rebuild + a round-1 score of 18,496 replies:"
        " 1.31x (repeats 1.31, 1.30, 1.32)"
    ]


def test_the_bootstrap_clusters_are_the_run_summary_s(tmp_path: Path) -> None:
    summary = tmp_path / "summary.json"
    forks = {"pressure_effect": {"clusters": 3591}, "evidence_contrast": {"clusters": 5926}}
    summary.write_text(json.dumps({"forks": forks, "honesty_index_interval": {"clusters": 600}}))
    assert bench.bootstrap_clusters(summary) == [3591, 5926, 600]
