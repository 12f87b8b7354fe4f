"""bench/chain.py: the arithmetic of the sustained chain's verdicts and how its section goes into
bench/RESULTS.md (never its timings: benchmarks are not unit tests)."""

from __future__ import annotations

from pathlib import Path

from hypothesis import given, settings
from hypothesis import strategies as st

from tests.benchload import load_bench

chain = load_bench("chain")


def test_a_rounds_cpu_runs_from_the_end_of_its_sending_to_the_next_start() -> None:
    calls = [
        chain.Call(440, 0.5, 0.6, 30.0, 0.1),
        chain.Call(1718, 5.0, 5.5, 80.0, 0.2),
        chain.Call(1718, 17.0, 17.25, 90.0, 0.2),
    ]
    # Round 1: 0.6 -> 5.0; round 2: 5.5 -> 17.0; round 3 (the last): 17.25 -> the kit's total.
    assert chain.per_round(calls, 20.0) == [5.0 - 0.6, 17.0 - 5.5, 20.0 - 17.25]


def test_a_verdict_is_met_at_the_limit_and_missed_past_it() -> None:
    assert chain.verdict("x <= 1.25x", 1.25, 1.25, "1.25x") == (
        "- target x <= 1.25x: 1.25x -- met",
        True,
    )
    assert chain.verdict("x", 1.26, 1.25, "1.26x") == ("- target x: 1.26x -- MISSED", False)


@settings(max_examples=30, deadline=None)
@given(
    before=st.text(alphabet="ab #\n-|", max_size=60),
    first=st.text(alphabet="xyz", min_size=1, max_size=40),
    second=st.text(alphabet="pq\n", min_size=1, max_size=40),
)
def test_its_section_of_results_is_replaced_never_repeated(
    before: str, first: str, second: str
) -> None:
    once = chain.replace_section(before, first)
    again = chain.replace_section(once, second)
    begin, end = f"<!-- section: {chain.SECTION} -->", f"<!-- /section: {chain.SECTION} -->"
    assert again.count(begin) == 1 and again.count(end) == 1
    assert f"{begin}\n{second}\n{end}" in again and first not in again.split(begin)[1]
    assert again.split(begin)[0] == once.split(begin)[0]  # what bench.py wrote is kept


def test_bench_py_keeps_the_chain_section_when_it_rewrites_results(tmp_path: Path) -> None:
    bench = load_bench("bench")
    results = tmp_path / "RESULTS.md"
    assert bench.kept_sections(results) == ""
    results.write_text(chain.replace_section("# Benchmark results\n\nold\n", "## chain\n\n| 1 |"))
    begin, end = f"<!-- section: {chain.SECTION} -->", f"<!-- /section: {chain.SECTION} -->"
    assert bench.kept_sections(results) == f"\n{begin}\n## chain\n\n| 1 |\n{end}\n"


def test_the_preflight_call_is_part_of_round_1s_sending() -> None:
    preflight = chain.Call(1, 0.5, 0.55, 30.0, 0.05)
    rest = chain.Call(439, 0.6, 0.7, 31.0, 0.1)
    second = chain.Call(1718, 5.0, 5.5, 80.0, 0.2)
    joined = chain.one_call_per_round([preflight, rest, second], 2)
    assert joined[1:] == [second]
    assert (joined[0].requests, joined[0].start, joined[0].end) == (440, 0.5, 0.7)
    assert joined[0].runner_cpu == 0.05 + 0.1 and joined[0].peak_start_mb == 30.0
    # Without a preflight (--fail-fast 0), one call per round already.
    assert chain.one_call_per_round([rest, second], 2) == [rest, second]
