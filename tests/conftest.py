from __future__ import annotations

import os

from hypothesis import HealthCheck, settings

# Two cores: keep property runs modest by default; HYPOTHESIS_PROFILE=thorough for more.
settings.register_profile(
    "default", max_examples=25, deadline=None, suppress_health_check=[HealthCheck.too_slow]
)
settings.register_profile(
    "thorough", max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow]
)
settings.load_profile(os.environ.get("HYPOTHESIS_PROFILE", "default"))


# ---- one build of each full-size packet set per test process -------------------------------
# generate.build memoises the last two sets asked for (functools.lru_cache on a pure function: the
# bound suits a user's process, and a full-size set holds about 100 MB). A test process asks for
# the committed set in a dozen files, with property tests drawing dozens of small sets between
# them, so with two slots it drew the committed set (about 5 s of CPU) four or five times per
# shard. Here the same pure function is memoised with a few slots for full-size sets and two for
# smaller ones: what any call returns is unchanged, only how often it is computed.

import functools  # noqa: E402

from honesty_pressure.domains import DOMAINS as _DOMAINS  # noqa: E402
from honesty_pressure.generate import generate as _generate  # noqa: E402

# The committed set (default seed, every domain) has slots of its own: the one-domain sets of the
# domain tests are full-size too, and would otherwise push it out between the verify tests.
_draw = _generate._build.__wrapped__  # type: ignore[attr-defined]
_committed_sets = functools.lru_cache(maxsize=2)(_draw)
_full_sets = functools.lru_cache(maxsize=6)(_draw)
_small_sets = functools.lru_cache(maxsize=2)(_draw)
_COMMITTED = (_generate.DEFAULT_SEED, _generate.SOURCES_PER_DOMAIN, _DOMAINS)


@functools.wraps(_draw)
def _build(seed: int, sources_per_domain: int, domains: tuple[object, ...], surface: str) -> object:
    if (seed, sources_per_domain, domains) == _COMMITTED:
        memo = _committed_sets
    elif sources_per_domain >= _generate.SOURCES_PER_DOMAIN:
        memo = _full_sets
    else:
        memo = _small_sets
    return memo(seed, sources_per_domain, domains, surface)


def _cache_clear() -> None:
    _committed_sets.cache_clear()
    _full_sets.cache_clear()
    _small_sets.cache_clear()


_build.cache_clear = _cache_clear  # type: ignore[attr-defined]
_generate._build = _build  # type: ignore[assignment]


# ---- scored runs shared by the report, schema and browser tests ---------------------------------
# The full-layer demo takes about 15 s. When a collected test needs it, it starts in the background
# as soon as collection ends, so it runs beside the other tests on the second core.

import gc  # noqa: E402
import shutil  # noqa: E402
import subprocess  # noqa: E402
import sys  # noqa: E402
import tempfile  # noqa: E402
from collections.abc import Iterator  # noqa: E402
from pathlib import Path  # noqa: E402

import pytest  # noqa: E402

ROOT = Path(__file__).resolve().parent.parent
_FULL: dict[str, object] = {}


def _start_full_demo() -> None:
    tmp = Path(tempfile.mkdtemp(prefix="hp-full-demo-"))
    out = tmp / "full"
    command = [
        sys.executable,
        "-m",
        "honesty_pressure",
        "demo",
        "--layer",
        "full",
        "--out",
        str(out),
    ]
    proc = subprocess.Popen(command, cwd=ROOT, stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    _FULL.update(proc=proc, out=out, tmp=tmp)


def pytest_collection_finish(session: pytest.Session) -> None:
    if any("full_demo" in getattr(item, "fixturenames", ()) for item in session.items):
        _start_full_demo()


def pytest_sessionfinish(session: pytest.Session, exitstatus: int) -> None:
    proc = _FULL.get("proc")
    if isinstance(proc, subprocess.Popen) and proc.poll() is None:
        proc.kill()
        proc.wait()
    tmp = _FULL.get("tmp")
    if isinstance(tmp, Path):
        shutil.rmtree(tmp, ignore_errors=True)


def pytest_configure(config: pytest.Config) -> None:
    """The test process collects as a command does (cli/main.py COMMAND_GC_THRESHOLD) from its
    start: main() now gives its caller the collector back as it found it, and the session's
    fixtures and memoised builds are the large, long-lived heap those thresholds are for (before,
    the first in-process command left them set for the rest of the process)."""
    del config
    from honesty_pressure.cli.main import COMMAND_GC_THRESHOLD

    gc.set_threshold(*COMMAND_GC_THRESHOLD)


@pytest.hookimpl(tryfirst=True)
def pytest_unconfigure(config: pytest.Config) -> None:
    """One full collection, then every object left is frozen (gc.freeze) before pytest's own
    cleanup, which collects again and again to report late unraisable exceptions: over a heap
    that holds several full packet sets (the build memo, the session fixtures), each of its
    passes took about 1.6 s, 8 s of a shard's wall time after its last test. The one collection
    here still finds the last tests' garbage; pytest's passes then walk only what is new."""
    del config
    gc.collect()
    gc.freeze()


@pytest.fixture(scope="session")
def full_demo() -> Path:
    """`demo --layer full`: 4,800 round-1 packets and 19,200 forks, scored."""
    if "proc" not in _FULL:
        _start_full_demo()
    proc, out = _FULL["proc"], _FULL["out"]
    assert isinstance(proc, subprocess.Popen) and isinstance(out, Path)
    stdout, stderr = proc.communicate()
    assert proc.returncode == 0, stderr.decode()
    return out


def _cli(*args: str) -> None:
    done = subprocess.run(
        [sys.executable, "-m", "honesty_pressure", *args],
        cwd=ROOT,
        capture_output=True,
        text=True,
        check=False,
    )
    assert done.returncode == 0, done.stderr


@pytest.fixture(scope="session")
def quick_demo(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """`demo` on the quick layer, as a user runs it."""
    out = tmp_path_factory.mktemp("quick-demo") / "demo"
    _cli("demo", "--out", str(out))
    return out


@pytest.fixture(scope="session")
def round1_scored(quick_demo: Path, tmp_path_factory: pytest.TempPathFactory) -> Path:
    """`score --layer quick` of the demo's round-1 replies: a round-1-only report."""
    out = tmp_path_factory.mktemp("round1") / "scored"
    _cli(
        "score",
        "--layer",
        "quick",
        "--replies",
        str(quick_demo / "round1.replies.jsonl"),
        "--out",
        str(out),
    )
    return out


@pytest.fixture(scope="session")
def runner_runs(tmp_path_factory: pytest.TempPathFactory) -> Iterator[tuple[Path, Path]]:
    """Two runs of the quick layer through the stub runner: always ESCALATE, always A."""
    base = tmp_path_factory.mktemp("runner-runs")
    for code in ("ESCALATE", "A"):
        _cli(
            "run",
            "--runner",
            f"{sys.executable} {ROOT / 'tests' / 'stub_runner.py'} {code}",
            "--run",
            str(base / code),
        )
    yield base / "ESCALATE", base / "A"
