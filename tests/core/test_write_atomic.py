"""`write_atomic`: a file appears whole; with `replace=False` it never takes the place of one that
is there already, or that another writer made while it was being written."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from honesty_pressure.core import canonical
from honesty_pressure.core.canonical import write_atomic
from honesty_pressure.core.errors import OutputError


def test_a_new_file_is_written_and_an_old_one_replaced(tmp_path: Path) -> None:
    path = tmp_path / "a" / "f.jsonl"
    write_atomic(path, b"one\n", replace=False)
    assert path.read_bytes() == b"one\n"
    write_atomic(path, b"two\n")
    assert path.read_bytes() == b"two\n"
    assert sorted(p.name for p in path.parent.iterdir()) == ["f.jsonl"]


def test_without_replace_an_existing_file_is_kept(tmp_path: Path) -> None:
    path = tmp_path / "f.jsonl"
    path.write_bytes(b"paid for\n")
    with pytest.raises(OutputError) as caught:
        write_atomic(path, b"new\n", replace=False)
    assert caught.value.one_line() == f"{path}: exists; nothing was changed"
    assert path.read_bytes() == b"paid for\n"


def test_without_replace_a_file_made_meanwhile_is_kept(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    path = tmp_path / "f.jsonl"
    real_fsync = os.fsync

    def another_writer(fd: int) -> None:  # runs after the data is written, before it is linked
        path.write_bytes(b"theirs\n")
        real_fsync(fd)

    monkeypatch.setattr(canonical.os, "fsync", another_writer)
    with pytest.raises(OutputError) as caught:
        write_atomic(path, b"mine\n", replace=False)
    assert caught.value.one_line() == (
        f"{path}: appeared while it was being written; nothing was changed"
    )
    assert path.read_bytes() == b"theirs\n"
    assert sorted(p.name for p in tmp_path.iterdir()) == ["f.jsonl"]
