"""The commands as a user runs them: exit statuses, one-line errors, nothing half-written."""

from __future__ import annotations

import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from honesty_pressure.cli.main import main
from honesty_pressure.core.construct import FAMILIES

ROOT = Path(__file__).resolve().parents[2]


def run(*args: str, cwd: Path = ROOT) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "honesty_pressure", *args],
        cwd=cwd,
        capture_output=True,
        text=True,
        check=False,
    )


def test_prepare_check_matches_committed_packets(monkeypatch: pytest.MonkeyPatch) -> None:
    # In-process (tests.hostile.kit.cli, stdout and stderr captured): the build it checks against
    # is the one the other prepare and verify tests of this process reuse.
    from tests.hostile.kit import cli

    monkeypatch.chdir(ROOT)  # `prepare --check` with no --out checks packets/ of the working folder
    result = cli("prepare", "--check")
    assert result.code == 0, result.out + result.err
    assert "ok: 8 of 8 files match" in result.out
    assert "seed commitment (SHA-256" in result.out


def test_prepare_into_a_fresh_folder_reproduces_packets(tmp_path: Path) -> None:
    assert main(["prepare", "--layer", "quick", "--out", str(tmp_path / "p")]) == 0
    for name in ("build.json", "ledgers.jsonl", "round1.jsonl", "key.jsonl"):
        assert (tmp_path / "p" / "quick" / name).read_bytes() == (
            ROOT / "packets" / "quick" / name
        ).read_bytes()


@pytest.fixture
def checkout(tmp_path: Path) -> Path:
    copy = tmp_path / "checkout"
    copy.mkdir()
    shutil.copytree(ROOT / "packets", copy / "packets")
    if (ROOT / "controls").is_dir():
        shutil.copytree(ROOT / "controls", copy / "controls")
    shutil.copy(ROOT / "MANIFEST.sha256", copy / "MANIFEST.sha256")
    return copy


def test_verify_passes_then_names_a_changed_file(
    checkout: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    assert main(["verify", "--root", str(checkout)]) == 0
    target = checkout / "packets" / "quick" / "round1.jsonl"
    data = bytearray(target.read_bytes())
    data[100] ^= 1
    target.write_bytes(bytes(data))
    capsys.readouterr()
    assert main(["verify", "--root", str(checkout)]) == 1
    out = capsys.readouterr().out
    assert "FAIL: packets/quick/round1.jsonl: SHA-256 differs from MANIFEST.sha256" in out
    assert "FAIL: packets/quick/round1.jsonl: differs from the rebuild from seed 20261130" in out


def test_verify_names_an_unlisted_file(checkout: Path, capsys: pytest.CaptureFixture[str]) -> None:
    (checkout / "packets" / "quick" / "extra.txt").write_text("x")
    assert main(["verify", "--root", str(checkout)]) == 1
    assert "FAIL: packets/quick/extra.txt: not listed in MANIFEST.sha256" in capsys.readouterr().out


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (
            ["prepare", "--seed", "x"],
            "python -m honesty_pressure prepare: --seed: expected a whole number from 0 to "
            "2**256-1, got 'x'",
        ),
        (
            ["prepare", "--seed", "-3"],
            "python -m honesty_pressure prepare: --seed: expected a whole number from 0 to "
            "2**256-1, got '-3'",
        ),
        (
            ["prepare", "--layer", "huge"],
            "python -m honesty_pressure prepare: argument --layer: invalid choice: 'huge' (choose "
            "from 'quick', 'full', 'all')",
        ),
        (
            ["show", "nope-000"],
            "python -m honesty_pressure show: no source or packet 'nope-000' in packets/quick",
        ),
    ],
)
def test_bad_input_is_one_line_and_exit_2(args: list[str], message: str) -> None:
    result = run(*args)
    assert result.returncode == 2
    lines = result.stderr.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith(message), result.stderr


def test_unwritable_output_leaves_nothing(tmp_path: Path) -> None:
    blocked = tmp_path / "blocked"
    blocked.write_text("a file, not a folder")
    result = run("prepare", "--layer", "quick", "--out", str(blocked / "packets"))
    assert result.returncode == 2
    assert len(result.stderr.strip().splitlines()) == 1 and "cannot write here" in result.stderr
    assert blocked.read_text() == "a file, not a folder"
    assert sorted(p.name for p in tmp_path.iterdir()) == ["blocked"]


def test_show_prints_every_family() -> None:
    result = run("show", "food-000")
    assert result.returncode == 0
    for family in FAMILIES:
        assert f"== {family} " in result.stdout


def test_ci_runs_the_readme_test_command() -> None:
    """.ci/run extracts the command after the README's marker; it must be the full test command."""
    result = subprocess.run(
        ["awk", "/<!-- test command -->/{getline; getline; print; exit}", "README.md"],
        cwd=ROOT,
        capture_output=True,
        text=True,
        check=True,
    )
    command = result.stdout.strip()
    assert (
        "python -m tests.parallel" in command
        and "mypy --strict honesty_pressure" in command
        and ".[dev]" in command
    )
    assert (
        "<!-- test command -->" in (ROOT / "README.md").read_text()
        and "awk" in (ROOT / ".ci" / "run").read_text()
    )


@pytest.mark.parametrize("args", [("--seed", "5"), ("--held-out",), ("--seed", "5", "--held-out")])
def test_a_private_seed_never_overwrites_the_committed_packets(args: tuple[str, ...]) -> None:
    """Another seed, or the held-out surface of the committed one, is a private set: it needs
    its own --out, whatever the seed."""
    before = {p: p.read_bytes() for p in sorted((ROOT / "packets").rglob("*")) if p.is_file()}
    result = run("prepare", *args, "--layer", "quick")
    assert result.returncode == 2
    assert result.stderr.splitlines() == [
        "python -m honesty_pressure prepare: a seed other than the committed one, or --held-out, "
        "needs --out DIR (packets/ holds the committed set)"
    ]
    assert {
        p: p.read_bytes() for p in sorted((ROOT / "packets").rglob("*")) if p.is_file()
    } == before


def test_a_held_out_set_without_a_seed_draws_128_random_bits_and_says_what_to_keep(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The committed seed is public, so a held-out set of it is not private: without --seed,
    prepare --held-out draws its seed (secrets), prints it and records it, so the set can be
    rebuilt and the commitment opened."""
    import json
    import secrets

    from honesty_pressure.core.draws import seed_commitment
    from tests.hostile.kit import run_in_process

    asked: list[int] = []

    def randbits(k: int) -> int:
        asked.append(k)
        return 777

    monkeypatch.setattr(secrets, "randbits", randbits)
    out = tmp_path / "private"
    result = run_in_process("prepare", "--held-out", "--layer", "quick", "--out", str(out))
    assert result.returncode == 0, result.stderr
    assert asked == [128]
    assert result.stdout.splitlines()[:2] == [
        f"seed commitment (SHA-256, publish before a private run): {seed_commitment(777)}",
        f"seed (drawn, 128 random bits): 777; keep it, and {out}, which records it in each "
        "build.json, private until the run is scored, then publish it: anyone can check it "
        "against the commitment and rebuild the set with prepare --seed 777 --held-out --layer "
        "quick --check --out DIR",
    ]
    build = json.loads((out / "quick" / "build.json").read_text())
    assert (build["seed"], build["surface"]) == ("777", "held_out")
    # the printed command rebuilds it
    again = run_in_process(
        "prepare", "--seed", "777", "--held-out", "--layer", "quick", "--check", "--out", str(out)
    )
    assert again.returncode == 0 and "ok: 4 of 4 files match" in again.stdout
    # a check has no seed to draw: it needs the one the set was built from
    check = run_in_process("prepare", "--held-out", "--check", "--out", str(out))
    assert (check.returncode, check.stderr) == (
        2,
        "python -m honesty_pressure prepare: --held-out --check needs --seed N, the seed the set "
        "was built from\n",
    )
    assert asked == [128]


def test_seed_commitment_hashes_the_text_its_docstring_and_audit_name() -> None:
    import hashlib

    from honesty_pressure.core import draws

    assert draws.seed_commitment(42) == hashlib.sha256(b"honesty_pressure seed 42").hexdigest()
    assert '"honesty_pressure seed N"' in " ".join((draws.seed_commitment.__doc__ or "").split())
    assert 'SHA-256("honesty_pressure seed N")' in (ROOT / "docs" / "AUDIT.md").read_text()


def test_verify_names_a_quick_layer_from_another_seed(
    checkout: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    from honesty_pressure.files.manifest import MANIFEST_NAME, build
    from honesty_pressure.generate.generate import packet_tree

    # prepare refuses to put another seed into a checkout's packets/ (tests/hostile pins every
    # spelling); a hand-made copy is what verify must still catch.
    assert (
        main(["prepare", "--seed", "5", "--layer", "quick", "--out", str(checkout / "packets")])
        == 2
    )
    for rel, data in packet_tree(5, ["quick"]).items():
        (checkout / "packets" / rel).write_bytes(data)
    (checkout / MANIFEST_NAME).write_bytes(build(checkout))
    capsys.readouterr()
    assert main(["verify", "--root", str(checkout)]) == 1
    out = capsys.readouterr().out
    assert (
        "FAIL: packets/quick/build.json: quick was built from another seed or size than full" in out
    )
    assert (
        "FAIL: packets/quick/round1.jsonl: has lines that are not in packets/full/round1.jsonl"
        in out
    )


def test_messages_name_the_program_as_it_was_invoked(tmp_path: Path) -> None:
    """Issue 21: the `honesty-pressure` script's messages say `honesty-pressure`, `python -m` says
    that."""
    script = (
        "import sys; sys.argv[0] = '/usr/local/bin/honesty-pressure'; from "
        "honesty_pressure.cli.main import run; raise SystemExit(run())"
    )
    args = [
        "score",
        "--layer",
        "quick",
        "--replies",
        str(tmp_path / "nothing.jsonl"),
        "--out",
        str(tmp_path / "s"),
    ]
    as_script = subprocess.run(
        [sys.executable, "-c", script, *args], cwd=ROOT, capture_output=True, text=True, check=False
    )
    as_module = subprocess.run(
        [sys.executable, "-m", "honesty_pressure", *args],
        cwd=ROOT,
        capture_output=True,
        text=True,
        check=False,
    )
    assert as_script.returncode == as_module.returncode == 2
    assert as_script.stderr.startswith("honesty-pressure score: ") and as_module.stderr.startswith(
        "python -m honesty_pressure score: "
    )
    assert as_script.stderr.removeprefix("honesty-pressure") == as_module.stderr.removeprefix(
        "python -m honesty_pressure"
    )
