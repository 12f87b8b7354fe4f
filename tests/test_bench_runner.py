"""bench/runner.py's arithmetic and where its section goes (never its timings: benchmarks are
not unit tests)."""

from __future__ import annotations

from pathlib import Path

from tests.benchload import load_bench

runner = load_bench("runner")
bench = load_bench("bench")


def test_the_verdict_is_the_median_ratio_against_080() -> None:
    assert runner.ratio_line("x", [0.7, 0.81, 0.9]) == (
        "- target x >= 0.80x the baseline's: 0.81x (repeats 0.70, 0.81, 0.90) -- met"
    )
    assert runner.ratio_line("x", [0.7, 0.79, 0.9]).endswith(
        "0.79x (repeats 0.70, 0.79, 0.90) -- MISSED"
    )


def test_the_runner_section_replaces_its_last_numbers_and_bench_py_keeps_it(tmp_path: Path) -> None:
    first = runner.with_section("# Results\n\nscore numbers\n", f"{runner.SECTION}\n\nold\n")
    assert first == f"# Results\n\nscore numbers\n\n{runner.SECTION}\n\nold\n"
    second = runner.with_section(first, f"{runner.SECTION}\n\nnew")
    assert second == f"# Results\n\nscore numbers\n\n{runner.SECTION}\n\nnew"
    results = tmp_path / "RESULTS.md"
    results.write_text(second + "\n", encoding="utf-8")
    assert bench.kept_sections(results) == f"\n{runner.SECTION}\n\nnew\n"
    assert bench.kept_sections(tmp_path / "none.md") == ""
    assert runner.SECTION in bench.OTHER_SECTIONS
