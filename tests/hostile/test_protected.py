"""Protected paths (findings 1 to 4): every writing command, given the checkout, its packets/ or
controls/, the kit's own package folder, a home folder, a link to a folder of user files, or a
regular file, refuses with one line and changes nothing anywhere."""

from __future__ import annotations

import os
import shutil
import sys
from collections.abc import Callable
from pathlib import Path

import pytest

from .kit import ROOT, cli, small_packets, snapshot

STUB = ROOT / "tests" / "stub_runner.py"
PACKAGE = ROOT / "honesty_pressure"


@pytest.fixture(scope="module")
def world(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A checkout (packets, controls, MANIFEST, a .git folder, a README), a home folder and a
    folder of user files with a link to it, a regular file, and a small packet set to read from."""
    base = tmp_path_factory.mktemp("world")
    checkout = base / "checkout"
    checkout.mkdir()
    for name in ("packets", "controls"):
        shutil.copytree(ROOT / name, checkout / name)
    shutil.copy(ROOT / "MANIFEST.sha256", checkout / "MANIFEST.sha256")
    (checkout / ".git").mkdir()
    (checkout / ".git" / "HEAD").write_text("ref: refs/heads/main\n")
    (checkout / "README.md").write_text("# a checkout\n")
    home = base / "home"
    (home / "documents").mkdir(parents=True)
    (home / ".bashrc").write_text("export X=1\n")
    (home / "documents" / "taxes.txt").write_text("keep me\n")
    (base / "userdata").mkdir()
    (base / "userdata" / "thesis.tex").write_text("\\documentclass{article}\n")
    (base / "link").symlink_to(base / "userdata")
    (base / "file.txt").write_text("a user's file\n")
    small_packets(base / "inputs")
    replies = base / "inputs" / "replies.jsonl"
    replies.write_text("", encoding="utf-8")
    return base


TARGETS: dict[str, Callable[[Path], Path]] = {
    "the checkout": lambda w: w / "checkout",
    "packets/": lambda w: w / "checkout" / "packets",
    "a layer inside packets/": lambda w: w / "checkout" / "packets" / "quick",
    "controls/": lambda w: w / "checkout" / "controls",
    "the package folder": lambda w: PACKAGE,
    "a home folder": lambda w: w / "home",
    "a link to user files": lambda w: w / "link",
    "a regular file": lambda w: w / "file.txt",
    ".git": lambda w: w / "checkout" / ".git",
}

COMMANDS: dict[str, Callable[[Path, Path], list[str]]] = {
    "prepare": lambda w, t: [
        "prepare",
        "--seed",
        "5",
        "--sources-per-domain",
        "1",
        "--layer",
        "quick",
        "--out",
        str(t),
    ],
    "score": lambda w, t: [
        "score",
        "--layer",
        "quick",
        "--packets",
        str(w / "inputs" / "packets"),
        "--replies",
        str(w / "inputs" / "replies.jsonl"),
        "--out",
        str(t),
    ],
    "score --run": lambda w, t: [
        "score",
        "--run",
        str(w / "inputs"),
        "--packets",
        str(w / "inputs" / "packets"),
        "--replies",
        str(w / "inputs" / "replies.jsonl"),
        "--out",
        str(t),
    ],
    "advance --force": lambda w, t: [
        "advance",
        "--layer",
        "quick",
        "--packets",
        str(w / "inputs" / "packets"),
        "--replies",
        str(w / "inputs" / "replies.jsonl"),
        "--run",
        str(t),
        "--force",
    ],
    "run --force": lambda w, t: [
        "run",
        "--runner",
        f"{sys.executable} {STUB}",
        "--packets",
        str(w / "inputs" / "packets"),
        "--run",
        str(t),
        "--force",
    ],
    "demo": lambda w, t: ["demo", "--packets", str(w / "inputs" / "packets"), "--out", str(t)],
    "export": lambda w, t: [
        "export",
        "--packets",
        str(w / "inputs" / "packets"),
        "--format",
        "chat-jsonl",
        "--model",
        "m",
        "--out",
        str(t),
    ],
    "selfcheck --write-expected": lambda w, t: [
        "selfcheck",
        "--write-expected",
        "--root",
        str(t),
        "--jobs",
        "1",
    ],
}


def everything(world: Path) -> dict[str, object]:
    return {"world": snapshot(world), "package": snapshot(PACKAGE)}


@pytest.mark.parametrize("target", TARGETS, ids=list(TARGETS))
@pytest.mark.parametrize("command", COMMANDS, ids=list(COMMANDS))
def test_a_writing_command_refuses_a_protected_path(command: str, target: str, world: Path) -> None:
    if command == "selfcheck --write-expected" and target == "the checkout":
        pytest.skip("recording controls/EXPECTED.json in a checkout is what this command is for")
    path = TARGETS[target](world)
    before = everything(world)
    result = cli(*COMMANDS[command](world, path))
    assert result.code == 2, (result.code, result.out, result.err)
    lines = result.err.splitlines()
    assert (
        len(lines) == 1 and "Traceback" not in result.err and "internal error" not in result.err
    ), result.err
    assert everything(world) == before, f"{command} changed something when given {target}"


SPELLINGS = [
    "packets",
    "./packets",
    "packets/",
    "packets/.",
    "packets//",
    "packets/quick/..",
    "../checkout/packets",
    "{abs}/packets",
    "pk",
]


@pytest.mark.parametrize("spelling", SPELLINGS)
def test_another_seed_never_lands_in_the_committed_packets_under_any_spelling(
    spelling: str, world: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Finding 4: `prepare --seed 5 --out packets` in any spelling (pk is a link to packets/)."""
    checkout = world / "checkout"
    link = checkout / "pk"
    if not link.is_symlink():
        link.symlink_to("packets")
    monkeypatch.chdir(checkout)
    before = everything(world)
    result = cli(
        "prepare",
        "--seed",
        "5",
        "--sources-per-domain",
        "1",
        "--out",
        spelling.format(abs=checkout),
    )
    assert result.code == 2 and result.err.count("\n") == 1, result.err
    assert everything(world) == before


def test_the_committed_seed_may_still_refresh_the_committed_packets(
    world: Path, monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    checkout = tmp_path / "checkout"
    shutil.copytree(world / "checkout", checkout, symlinks=True)
    monkeypatch.chdir(checkout)
    before = snapshot(checkout)
    result = cli("prepare")
    assert result.code == 0, result.err
    assert "and refreshed MANIFEST.sha256" in result.out
    assert snapshot(checkout) == before, "the same seed writes the same bytes"
    assert not any(".hp-" in name for name in os.listdir(checkout))
