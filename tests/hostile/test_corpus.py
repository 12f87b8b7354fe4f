"""Every bad input of the corpus, fed to the command that reads it: exit 2, one stderr line that
names the file (and line where there is one), no traceback, nothing written or changed."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest

from .corpus import CASES, Case, Scratch
from .kit import cli, make_run, one_line_naming, small_packets, snapshot


@pytest.fixture(scope="module")
def pristine(tmp_path_factory: pytest.TempPathFactory) -> Path:
    base = tmp_path_factory.mktemp("pristine")
    packets = small_packets(base)
    make_run(base, packets)
    return base


@pytest.fixture
def scratch(pristine: Path, tmp_path: Path) -> Scratch:
    base = tmp_path / "scratch"
    shutil.copytree(pristine, base, symlinks=True)
    (base / "files").mkdir()
    return Scratch(
        packets=base / "packets",
        run=base / "run",
        replies2=base / "r2.jsonl",
        files=base / "files",
        out=base / "out",
    )


@pytest.mark.parametrize("case", CASES, ids=[c.name for c in CASES])
def test_a_bad_input_is_one_line_and_changes_nothing(case: Case, scratch: Scratch) -> None:
    args, where = case.build(scratch)
    base = scratch.packets.parent
    before = snapshot(base)
    result = cli(*args)
    one_line_naming(result, args[0], where)
    assert snapshot(base) == before, "a refused command changed something"
    assert not scratch.out.exists()


def test_the_corpus_covers_every_reader() -> None:
    readers = {c.reader for c in CASES}
    assert readers >= {
        "native",
        "openai-batch",
        "anthropic-batch",
        "chat-jsonl",
        "inspect",
        "stream",
        "run",
        "manifest",
        "packets",
        "build.json",
        "regress",
        "options",
    }
