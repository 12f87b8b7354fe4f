"""The README's test command runs tests.parallel: its shards must hold every test file once."""

from __future__ import annotations

import subprocess
import sys
import time
from pathlib import Path

from tests import parallel


def test_the_shards_hold_every_test_file_exactly_once() -> None:
    files = parallel.test_files()
    for jobs in (1, 2, 3):
        plan = parallel.shards(parallel.units(files), parallel.read_weights(), jobs)
        dealt = [f for shard in plan for f in shard]
        assert sorted(dealt) == files and len(set(dealt)) == len(dealt)
        assert len(plan) <= jobs


def test_files_sharing_a_costly_build_share_a_shard() -> None:
    plan = parallel.shards(parallel.units(parallel.test_files()), parallel.read_weights(), 2)
    where = {f: i for i, shard in enumerate(plan) for f in shard}
    practice = {where[f] for f in where if f.startswith("tests/practice/")}
    demo_users = {where[f] for f in where if parallel.unit_of(f) == "shared-fixtures"}
    assert len(practice) == 1 and len(demo_users) == 1
    assert (
        "tests/reports/test_report_html.py" in where
        and parallel.unit_of("tests/reports/test_report_html.py") == "shared-fixtures"
    )


def test_the_split_is_longest_first_to_the_lightest_shard() -> None:
    groups = {"a": ["a.py"], "b": ["b.py"], "c": ["c.py"], "d": ["d.py"]}
    weights = {"a": 10.0, "b": 6.0, "c": 5.0}  # d is unknown: 2 s
    # a (10) to shard 1, b (6) and c (5) to shard 2, then d (2) to shard 1 (10 < 11)
    assert parallel.shards(groups, weights, 2) == [["a.py", "d.py"], ["b.py", "c.py"]]


def test_weights_are_read_from_a_durations_report() -> None:
    report = "\n".join(
        [
            "12.50s call     tests/cli/test_cli.py::test_a",
            "0.50s setup    tests/cli/test_cli.py::test_b",
            "3.00s call     tests/practice/test_wording.py::test_c[x]",
            "1.00s call     tests/practice/test_decoys.py::test_d",
            "9.00s call     tests/not_a_file.py::test_e",
        ]
    )
    assert parallel.weights_from(report) == {"tests/practice": 4.0, "tests/cli/test_cli.py": 13.0}


def test_each_shard_is_timed_to_its_own_end() -> None:
    # The second process ends first: its time is its own, not the first's, though the first is
    # waited for first when the logs are printed.
    started = time.monotonic()
    slow = subprocess.Popen([sys.executable, "-c", "import time; time.sleep(1.0)"])
    quick = subprocess.Popen([sys.executable, "-c", "pass"])
    slow_s, quick_s = parallel.wall_times([slow, quick], started)
    assert quick_s < slow_s
    assert slow_s >= 1.0
    assert slow.returncode == 0 and quick.returncode == 0


def test_without_bytecode_writes_the_package_is_compiled_once_in_place(tmp_path: Path) -> None:
    # Run as the CI machine runs (-B: PYTHONDONTWRITEBYTECODE): the package is compiled once, in
    # its own __pycache__, and a child (itself writing nothing) finds it there; nothing else of
    # the tree is compiled.
    tree = tmp_path / "tree"
    (tree / "pkg").mkdir(parents=True)
    (tree / "pkg" / "__init__.py").write_text("")
    (tree / "pkg" / "mod.py").write_text("VALUE = 7\n")
    (tree / "other.py").write_text("")
    script = (
        "import subprocess, sys\n"
        "from pathlib import Path\n"
        "from tests import parallel\n"
        f"parallel.compile_once(Path({str(tree)!r}), ['pkg'])\n"
        "code = 'import pkg.mod; print(pkg.mod.__cached__, pkg.mod.VALUE)'\n"
        f"print(subprocess.run([sys.executable, '-B', '-c', code], cwd={str(tree)!r},\n"
        "                     capture_output=True, text=True, check=True).stdout)\n"
    )
    done = subprocess.run(
        [sys.executable, "-B", "-c", script],
        cwd=parallel.ROOT,
        capture_output=True,
        text=True,
        check=True,
    )
    cached, value = done.stdout.split()
    assert value == "7"
    assert Path(cached).parent == tree / "pkg" / "__pycache__" and Path(cached).is_file()
    assert [p.parent for p in tree.rglob("*.pyc")] == [tree / "pkg" / "__pycache__"] * 2
