"""The streaming score writes what reading every reply first would have: records, replies and
errors are held to `score.match` and `score.judge` (which settle and judge whole lists), for reply
files full of retries, duplicates, failures, refusals and samples, in any order of files and
lines, whether the spool stays in memory or moves to a file, and whether the replies are read
in one process or in shards."""

from __future__ import annotations

import random
from pathlib import Path

import pytest
from hypothesis import given
from hypothesis import strategies as st

from honesty_pressure.core.binding import bind
from honesty_pressure.core.canonical import jsonl
from honesty_pressure.core.errors import InputError
from honesty_pressure.files import spool as spool_module
from honesty_pressure.files.folders import open_writer
from honesty_pressure.files.layer import load_layer
from honesty_pressure.runners.envelopes import read_envelopes
from honesty_pressure.runs.pipeline import ReplyFiles, ScoreOptions, round_from_tally, score_round
from honesty_pressure.runs.shards import (
    Shard,
    check_partials,
    merged_tally,
    read_partials,
    write_partial_folder,
)
from honesty_pressure.scoring import tally as tally_module
from honesty_pressure.scoring.axes import direction
from honesty_pressure.scoring.score import judge, match
from honesty_pressure.scoring.sheet import Sheet
from honesty_pressure.scoring.tally import Tally
from honesty_pressure.scoring.transcripts import reply_lines

ROOT = Path(__file__).resolve().parents[2]
QUICK = load_layer(ROOT / "packets", "quick")
PIDS = sorted(QUICK.round1)[:6]


def _ok(pid: str, sample: int, text: str, model: str = "m") -> dict[str, object]:
    body = {
        "model": model,
        "choices": [
            {"index": 0, "message": {"role": "assistant", "content": text}, "finish_reason": "stop"}
        ],
    }
    return {
        "custom_id": bind(pid, QUICK.packet_set, sample),
        "response": {"status_code": 200, "body": body},
        "error": None,
    }


def _failed(pid: str, sample: int, message: str) -> dict[str, object]:
    return {
        "custom_id": bind(pid, QUICK.packet_set, sample),
        "response": None,
        "error": {"code": "server_error", "message": message},
    }


def _refused(pid: str, sample: int, why: str) -> dict[str, object]:
    body = {
        "model": "m",
        "choices": [
            {
                "index": 0,
                "message": {"role": "assistant", "content": None, "refusal": why},
                "finish_reason": "stop",
            }
        ],
    }
    return {
        "custom_id": bind(pid, QUICK.packet_set, sample),
        "response": {"status_code": 200, "body": body},
        "error": None,
    }


TEXTS = [
    "Fine.\nDECISION: A",
    "DECISION: B",
    "**DECISION: ESCALATE**",
    "no line here",
    "DECISION: A\nDECISION: B",
    "<think>DECISION: A</think>DECISION: DECLINE",
    "   ",
]


@st.composite
def reply_sets(draw: st.DrawFn) -> list[list[dict[str, object]]]:
    """Up to three files of openai-batch lines for a few packets and samples: answers (a slot's
    answers mostly agree, so most sets are valid), failures and refusals, each maybe twice."""
    slots = draw(
        st.lists(
            st.tuples(st.sampled_from(PIDS), st.integers(0, 2)), min_size=1, max_size=8, unique=True
        )
    )
    lines: list[dict[str, object]] = []
    for pid, sample in slots:
        text = draw(st.sampled_from(TEXTS))
        for _ in range(draw(st.integers(1, 3))):
            kind = draw(st.sampled_from(["ok", "ok", "ok", "failed", "refused", "other"]))
            if kind == "ok":
                lines.append(_ok(pid, sample, text, draw(st.sampled_from(["m", "n"]))))
            elif kind == "failed":
                lines.append(_failed(pid, sample, draw(st.sampled_from(["expired", "overloaded"]))))
            elif kind == "refused":
                lines.append(_refused(pid, sample, "no"))
            else:
                lines.append(_ok(pid, sample, draw(st.sampled_from(TEXTS))))
    files = draw(st.integers(1, 3))
    out: list[list[dict[str, object]]] = [[] for _ in range(files)]
    for line in lines:
        out[draw(st.integers(0, files - 1))].append(line)
    return [f for f in out if f] or [lines]


def _write(tmp: Path, files: list[list[dict[str, object]]]) -> list[Path]:
    paths = []
    for i, lines in enumerate(files):
        path = tmp / f"r{i}.jsonl"
        path.write_bytes(jsonl(lines))
        paths.append(path)
    return paths


def _expected(paths: list[Path]) -> tuple[bytes, bytes] | str:
    """records.jsonl and replies.jsonl as the whole-list functions make them, or their error."""
    envelopes = [env for path in paths for env in read_envelopes(path)]
    try:
        matched = match(envelopes, QUICK.round1, QUICK.packet_set)
    except InputError as exc:
        return exc.one_line()
    records = judge(QUICK.round1, QUICK.key, matched)
    lines = []
    for r in records:
        key = QUICK.key[r.packet_id]
        record = r.as_json(key)
        d = direction(key)
        if d is not None:
            record["direction"] = d
        lines.append(record)
    envs = [matched.get((r.packet_id, r.sample)) for r in records]
    replies = reply_lines(
        (r, 1, e.reply if e else None, e.error if e else None, e.model if e else None)
        for r, e in zip(records, envs)
    )
    return jsonl(lines), replies


def _streamed(paths: list[Path]) -> tuple[bytes, bytes] | str:
    try:
        files = score_round(QUICK, paths)
    except InputError as exc:
        return exc.one_line()
    return files["records.jsonl"], files["replies.jsonl"]


@given(reply_sets(), st.randoms(use_true_random=False))
def test_streamed_score_matches_the_whole_list_functions_in_any_order(
    tmp_path_factory: pytest.TempPathFactory,
    files: list[list[dict[str, object]]],
    rng: random.Random,
) -> None:
    tmp = tmp_path_factory.mktemp("replies")
    paths = _write(tmp, files)
    expected = _expected(paths)
    assert _streamed(paths) == expected
    shuffled = [list(lines) for lines in files]
    for lines in shuffled:
        rng.shuffle(lines)
    rng.shuffle(shuffled)
    again = _write(tmp_path_factory.mktemp("shuffled"), shuffled)
    got = _streamed(again)
    if isinstance(expected, str):
        assert isinstance(got, str)  # the same error (its places are this order's own files)
        assert (
            got.split(": ", 1)[-1].split(" is already in")[0]
            == expected.split(": ", 1)[-1].split(" is already in")[0]
        )
    else:
        assert got == expected


def test_a_spool_that_moves_to_a_file_writes_the_same(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Lines in memory, or in a temporary file flushed every few hundred bytes (chunks and runs of
    chunks read back across the flush point): the same output."""
    lines = [
        _ok(pid, s, TEXTS[(i + s) % 3])
        for i, pid in enumerate(sorted(QUICK.round1))
        for s in range(2)
    ]
    lines.append(_ok(PIDS[0], 0, TEXTS[0]))  # a duplicate: read back while settling
    paths = _write(tmp_path, [lines[1::2], lines[::2]])
    in_memory = score_round(QUICK, paths)
    monkeypatch.setattr(spool_module, "MEMORY_BYTES", 1000)
    monkeypatch.setattr(spool_module, "_FLUSH", 777)
    assert score_round(QUICK, paths) == in_memory


@pytest.mark.parametrize("order", ["samples", "shuffled"])
def test_read_ahead_windows_write_the_same(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, order: str
) -> None:
    """Replies in sample order (interleaved runs of the spool), or shuffled (runs of one chunk
    that open windows, evicted while others go on), copied out through read-ahead windows that
    are small, few and written in small batches: the same output as with the defaults."""
    lines = [
        _ok(pid, s, TEXTS[(i + s) % 3])
        for s in range(3)
        for i, pid in enumerate(sorted(QUICK.round1))
    ]
    if order == "shuffled":
        random.Random(7).shuffle(lines)
    paths = _write(tmp_path, [lines])
    expected = score_round(QUICK, paths)
    monkeypatch.setattr(spool_module, "MEMORY_BYTES", 1000)
    monkeypatch.setattr(spool_module, "_FLUSH", 777)
    monkeypatch.setattr(tally_module, "_AHEAD", 700)
    monkeypatch.setattr(tally_module, "_WAYS", 2)
    monkeypatch.setattr(tally_module, "_WRITE_RUN", 900)
    assert score_round(QUICK, paths) == expected


@pytest.mark.parametrize("samples", [3, 12, 40])
def test_more_samples_than_windows_still_read_ahead(
    monkeypatch: pytest.MonkeyPatch, samples: int
) -> None:
    """Chunks spooled sample by sample and copied out packet by packet (one run per sample), with
    more samples than the fewest windows (a million replies are 209 samples, against 64): a window
    per run is kept, each smaller, so the spool is read a window at a time, not a chunk at a time
    (before, with more runs than windows, every chunk was read alone: a million reads)."""
    monkeypatch.setattr(tally_module, "_WAYS", 4)
    monkeypatch.setattr(tally_module, "_WINDOWS_BYTES", 4 * 4096)
    monkeypatch.setattr(tally_module, "_LEAST_AHEAD", 256)
    packets = 50
    spool = spool_module.Spool(memory=1000)
    reads: list[int] = []
    real_read = spool.read

    def counted(offset: int, size: int) -> bytes:
        reads.append(size)
        return real_read(offset, size)

    monkeypatch.setattr(spool, "read", counted)
    place = {}
    for sample in range(samples):
        for packet in range(packets):
            chunk = f"{packet:03d}/{sample:03d}:".encode() + b"x" * 23  # 32 bytes
            place[(packet, sample)] = (spool.append(chunk), chunk)
    reader = tally_module._Reader(samples)
    for packet in range(packets):
        for sample in range(samples):
            offset, chunk = place[(packet, sample)]
            assert bytes(reader.read(spool, offset, len(chunk))) == chunk
    window = max(256, min(tally_module._AHEAD, 4 * 4096 // max(4, 2 * samples)))
    chunks = packets * samples
    # A read per window along each run, and the first chunk of each run read alone.
    assert len(reads) <= samples + -(-chunks * 32 // window) + samples
    assert len(reads) < chunks / 4
    spool.close()


def _shard_partials(tmp: Path, paths: list[Path], count: int) -> list[Path] | str:
    folders = []
    for index in range(1, count + 1):
        tally = Tally(Sheet(1, QUICK.packet_set, QUICK.round1, QUICK.key))
        tally.read(paths, None, select=Shard(index, count).select())
        try:
            tally.finish()
        except InputError as exc:
            return exc.one_line()
        folder = tmp / f"p{index}"
        files = [[str(p), sha, fmt] for p, sha, fmt in ReplyFiles.of(tally.reads).files]
        meta: dict[str, object] = {
            "shard": f"{index}/{count}",
            "layer": "quick",
            "run": None,
            "files": files,
            "options": {"bootstrap_seed": 1, "require_complete": False},
        }
        with open_writer(folder, ("partial",), replace=True) as writer:
            write_partial_folder(writer, tally, meta)
        folders.append(folder)
    return folders


def _merged(folders: list[Path]) -> dict[str, bytes] | str:
    partials = read_partials(folders)
    given = check_partials(partials)
    try:
        tally = merged_tally(Sheet(1, QUICK.packet_set, QUICK.round1, QUICK.key), partials)
        tally.finish()
    except InputError as exc:
        return exc.one_line()
    scoring = round_from_tally(
        QUICK,
        tally,
        ReplyFiles(tuple((Path(p), s, f) for p, s, f in given)),
        ScoreOptions(bootstrap_seed=1),
    )
    try:
        return scoring.files()
    finally:
        scoring.close()


@given(reply_sets(), st.integers(1, 4))
def test_shards_merged_write_the_unsharded_score_byte_for_byte(
    tmp_path_factory: pytest.TempPathFactory, files: list[list[dict[str, object]]], count: int
) -> None:
    """Retries, duplicates and conflicts that span shards are settled as in one process."""
    tmp = tmp_path_factory.mktemp("shards")
    paths = _write(tmp, files)
    try:
        whole: dict[str, bytes] | str = score_round(QUICK, paths, ScoreOptions(bootstrap_seed=1))
    except InputError as exc:
        whole = exc.one_line()
    partials = _shard_partials(tmp, paths, count)
    if isinstance(partials, str):  # a conflict inside one shard stops that shard
        assert isinstance(whole, str) and "is already in" in partials
        return
    assert _merged(partials) == whole  # the same files, or the same error (words and places)
