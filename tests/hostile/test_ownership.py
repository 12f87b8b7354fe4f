"""Issue 20, "own by content, not by name": one case per finding, named after it. Every case
was first seen failing on main (data lost, a merge that said yes, a hang, a traceback, minutes
of work), and each pins the refusal: exit 2, one line naming the file, nothing changed.

All on the small seeded set (one source per domain), in-process, so the file takes seconds.
"""

from __future__ import annotations

import argparse
import json
import os
import shutil
import struct
import subprocess
import sys
import threading
import time
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from honesty_pressure.core.binding import bind
from honesty_pressure.core.canonical import jsonl
from honesty_pressure.files.layer import load_checked_layer

from ..replies import chat_lines, constant, native_lines
from .kit import (
    PROG,
    ROOT,
    Result,
    advance_force,
    cli,
    make_run,
    one_line_naming,
    reply_file,
    small_packets,
    snapshot,
)

STUB = ROOT / "tests" / "stub_runner.py"


@pytest.fixture(scope="module")
def packets(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return small_packets(tmp_path_factory.mktemp("ownership-packets"))


@pytest.fixture(scope="module")
def scored(packets: Path, tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A round-1 score folder (copied by each case that changes it)."""
    base = tmp_path_factory.mktemp("ownership-score")
    layer = load_checked_layer(packets, "quick")
    replies = reply_file(base / "r1.jsonl", layer.round1, layer.key)
    assert (
        cli(
            "score",
            "--layer",
            "quick",
            "--packets",
            packets,
            "--replies",
            replies,
            "--out",
            base / "score",
        ).code
        == 0
    )
    return base / "score"


def _copy(folder: Path, to: Path) -> Path:
    shutil.copytree(folder, to, symlinks=True)
    return to


def _score_into(packets: Path, out: Path, tmp_path: Path, code: str = "B") -> object:
    layer = load_checked_layer(packets, "quick")
    replies = reply_file(tmp_path / f"again-{code}.jsonl", layer.round1, layer.key, code)
    return cli(
        "score", "--layer", "quick", "--packets", packets, "--replies", replies, "--out", out
    )


# ---- data loss -----------------------------------------------------------------------------------


@pytest.mark.parametrize("fmt", ["openai-batch", "anthropic-batch", "chat-jsonl"])
def test_data_loss_export_out_over_a_batch_output(packets: Path, tmp_path: Path, fmt: str) -> None:
    """A paid-for batch output carries the requests' set-bound ids: it is still never replaced."""
    layer = load_checked_layer(packets, "quick")
    ids = [bind(pid, layer.packet_set) for pid in layer.round1]
    if fmt == "openai-batch":
        lines = [
            {
                "id": f"batch_req_{n}",
                "custom_id": i,
                "response": {"status_code": 200, "body": {"choices": []}},
                "error": None,
            }
            for n, i in enumerate(ids)
        ]
    elif fmt == "anthropic-batch":
        lines = [
            {"custom_id": i, "result": {"type": "succeeded", "message": {"content": []}}}
            for i in ids
        ]
    else:
        lines = [dict(line) for line in chat_lines(layer.round1, layer.key, constant("A"))]
    output = tmp_path / "batch_output.jsonl"
    output.write_bytes(jsonl(lines))
    before = output.read_bytes()
    result = cli(
        "export",
        "--layer",
        "quick",
        "--packets",
        packets,
        "--format",
        fmt,
        "--model",
        "m",
        "--out",
        output,
    )
    assert "is not a request file the kit exported" in one_line_naming(
        result, "export", str(output)
    )
    assert output.read_bytes() == before
    # A request file the kit exported is still replaced (by the same command, or another model).
    requests = tmp_path / "requests.jsonl"
    assert (
        cli(
            "export",
            "--layer",
            "quick",
            "--packets",
            packets,
            "--format",
            fmt,
            "--model",
            "m",
            "--out",
            requests,
        ).code
        == 0
    )
    assert (
        cli(
            "export",
            "--layer",
            "quick",
            "--packets",
            packets,
            "--format",
            fmt,
            "--model",
            "n",
            "--out",
            requests,
        ).code
        == 0
    )


@pytest.mark.parametrize("name", ["REPORT.md", "records.jsonl"])
def test_data_loss_a_user_folder_under_a_kit_file_name(
    packets: Path, scored: Path, tmp_path: Path, name: str
) -> None:
    out = _copy(scored, tmp_path / "score")
    (out / name).unlink()
    (out / name).mkdir()
    (out / name / "notes.md").write_text("mine\n")
    before = snapshot(out)
    line = one_line_naming(_score_into(packets, out, tmp_path), "score", str(out))  # type: ignore[arg-type]
    assert name in line
    assert snapshot(out) == before


def test_data_loss_a_score_marker_copied_into_a_run(
    packets: Path, scored: Path, tmp_path: Path
) -> None:
    run, _ = make_run(tmp_path, packets)
    shutil.copy(scored / ".honesty_pressure", run / ".honesty_pressure")
    before = snapshot(run)
    line = one_line_naming(_score_into(packets, run, tmp_path), "score", str(run))  # type: ignore[arg-type]
    assert "its files contradict (an edited or copied marker)" in line
    assert (
        snapshot(run) == before
        and (run / "run.json").is_file()
        and (run / "frozen.jsonl").is_file()
    )


@pytest.mark.parametrize("command", ["demo", "regress", "shard"])
def test_data_loss_an_edited_marker_kind_lets_a_writer_replace_a_run(
    packets: Path, scored: Path, tmp_path: Path, command: str
) -> None:
    run, _ = make_run(tmp_path, packets)
    marker = json.loads((run / ".honesty_pressure").read_text())
    kind = {"demo": "demo", "regress": "report", "shard": "partial"}[command]
    marker["kind"] = kind
    (run / ".honesty_pressure").write_text(
        json.dumps(marker, sort_keys=True, separators=(",", ":")) + "\n"
    )
    before = snapshot(run)
    layer = load_checked_layer(packets, "quick")
    replies = reply_file(tmp_path / "r.jsonl", layer.round1, layer.key)
    argv = {
        "demo": ["demo", "--packets", packets, "--out", run],
        "regress": ["regress", scored, scored, "--out", run],
        "shard": [
            "score",
            "--layer",
            "quick",
            "--packets",
            packets,
            "--replies",
            replies,
            "--shard",
            "1/2",
            "--out",
            run,
        ],
    }[command]
    result = cli(*argv)
    one_line_naming(result, argv[0], str(run))  # type: ignore[arg-type]
    assert snapshot(run) == before


def test_data_loss_advance_force_deletes_a_users_round2_replies(
    packets: Path, tmp_path: Path
) -> None:
    run, replies2 = make_run(tmp_path, packets)
    shutil.copy(
        replies2, run / "round2.replies.jsonl"
    )  # the user keeps the model's replies with the run
    before = snapshot(run)
    result = advance_force(run, packets, tmp_path)
    assert "round2.replies.jsonl" in one_line_naming(result, "advance", str(run))
    assert snapshot(run) == before


def test_data_loss_a_hard_linked_backup_changes_when_the_run_resumes(
    packets: Path, tmp_path: Path
) -> None:
    out, backup = tmp_path / "run", tmp_path / "backup"
    assert (
        cli(
            "run",
            "--runner",
            f"{sys.executable} {STUB} A --fail",
            "--run",
            out,
            "--packets",
            packets,
        ).code
        == 2
    )
    replies = out / "round1.replies.jsonl"
    with replies.open("ab") as handle:
        handle.write(b'{"custom_id": "half a li')  # a runner killed mid-line: the resume cuts it
    subprocess.run(["cp", "-al", str(out), str(backup)], check=True)
    before = snapshot(backup)
    assert (
        cli(
            "run", "--runner", f"{sys.executable} {STUB} A", "--run", out, "--packets", packets
        ).code
        == 0
    )
    assert snapshot(backup) == before, (
        "the backup's replies were appended or cut through the shared inode"
    )
    assert os.stat(out / "round1.replies.jsonl").st_nlink == 1


def test_data_loss_a_forged_old_folder_beside_a_missing_target(
    scored: Path, packets: Path, tmp_path: Path
) -> None:
    from honesty_pressure.files.folders import _sibling_prefix

    target = tmp_path / "score"
    forged = tmp_path / f"{_sibling_prefix(target)}old-x"
    forged.mkdir()
    (forged / "thesis.tex").write_text("a year of work\n")
    result = _score_into(packets, target, tmp_path)
    assert result.code == 0  # type: ignore[attr-defined]
    assert (forged / "thesis.tex").read_text() == "a year of work\n", "left where it was, untouched"
    assert not (target / "thesis.tex").exists() and (target / "summary.json").is_file()


def test_data_loss_a_kit_folder_stays_replaceable_and_an_edited_file_blocks_it(
    packets: Path, scored: Path, tmp_path: Path
) -> None:
    """The other side of ownership by content: the kit's own set is replaced, an edited one not."""
    out = _copy(scored, tmp_path / "score")
    assert _score_into(packets, out, tmp_path).code == 0  # type: ignore[attr-defined]
    with (out / "REPORT.md").open("a") as handle:
        handle.write("my notes\n")
    before = snapshot(out)
    line = one_line_naming(_score_into(packets, out, tmp_path, "A"), "score", str(out))  # type: ignore[arg-type]
    assert "REPORT.md, changed since the kit wrote it" in line
    assert snapshot(out) == before


# ---- silent wrong: edited partials ---------------------------------------------------------------


@pytest.fixture(scope="module")
def partials(packets: Path, tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, Path]:
    base = tmp_path_factory.mktemp("ownership-partials")
    layer = load_checked_layer(packets, "quick")
    replies = reply_file(base / "r1.jsonl", layer.round1, layer.key)
    for i in (1, 2):
        argv = [
            "score",
            "--layer",
            "quick",
            "--packets",
            packets,
            "--replies",
            replies,
            "--shard",
            f"{i}/2",
            "--out",
            base / f"p{i}",
        ]
        assert cli(*argv).code == 0
    return base / "p1", base / "p2"


def _edit_entries(folder: Path, change: str) -> None:
    data = bytearray((folder / "entries.bin").read_bytes())
    row = 8 + struct.calcsize("<BBHIIIIIQII")
    if change == "outcome":
        data[8 + 1] ^= 1
    elif change == "outcome-255":
        data[8 + 1] = 255
    elif change == "offset":
        struct.pack_into("<Q", data, (len(data) // row - 1) * row + 8 + 24, 10**9)
    (folder / "entries.bin").write_bytes(bytes(data))


def _edit(folder: Path, change: str) -> None:
    if change in ("outcome", "outcome-255", "offset"):
        _edit_entries(folder, change)
    elif change == "verdict":
        data = (folder / "lines.bin").read_bytes()
        for a, b in ((b'"acceptable"', b'"xcceptable"'), (b'"forbidden"', b'"xorbidden"')):
            if a in data:
                data = data.replace(a, b, 1)
                break
        (folder / "lines.bin").write_bytes(data)
    else:
        meta = json.loads((folder / "partial.json").read_text())
        if change == "samples":
            meta["samples"] = [0, 999999]
        elif change == "shard":
            meta["shard"] = "3/2"
        (folder / "partial.json").write_text(
            json.dumps(meta, sort_keys=True, separators=(",", ":")) + "\n"
        )


@pytest.mark.parametrize(
    "change", ["outcome", "outcome-255", "offset", "verdict", "samples", "shard"]
)
def test_silent_wrong_an_edited_score_partial_merges(
    packets: Path, partials: tuple[Path, Path], tmp_path: Path, change: str
) -> None:
    one, two = _copy(partials[0], tmp_path / "p1"), _copy(partials[1], tmp_path / "p2")
    _edit(one, change)
    out = tmp_path / "merged"
    result = cli("score", "--merge", one, two, "--packets", packets, "--out", out)
    assert "never merged" in one_line_naming(result, "score", str(one))
    assert not out.exists()


def test_silent_wrong_advance_merge_with_a_swapped_key(packets: Path, tmp_path: Path) -> None:
    layer = load_checked_layer(packets, "quick")
    replies = reply_file(tmp_path / "r1.jsonl", layer.round1, layer.key)
    shards = []
    for i in (1, 2):
        shards.append(tmp_path / f"a{i}")
        assert (
            cli(
                "advance",
                "--layer",
                "quick",
                "--packets",
                packets,
                "--replies",
                replies,
                "--shard",
                f"{i}/2",
                "--out",
                shards[-1],
            ).code
            == 0
        )
    keys = (shards[0] / "round2.key.jsonl").read_text().splitlines(keepends=True)
    assert len(keys) >= 2
    keys[0], keys[1] = keys[1], keys[0]
    (shards[0] / "round2.key.jsonl").write_text("".join(keys))
    result = cli("advance", "--merge", *shards, "--packets", packets, "--run", tmp_path / "run")
    assert "never merged" in one_line_naming(result, "advance", str(shards[0]))
    assert not (tmp_path / "run").exists()


# ---- hangs and unbounded reads -------------------------------------------------------------------


def _in_time(*argv: str | Path, seconds: float = 20) -> object:
    box: list[object] = []
    thread = threading.Thread(target=lambda: box.append(cli(*argv)), daemon=True)
    thread.start()
    thread.join(seconds)
    assert box, f"{argv[0]} hung"
    return box[0]


@pytest.mark.parametrize("command", ["regress", "compare"])
@pytest.mark.parametrize("name", ["summary.json", "records.jsonl"])
def test_hangs_a_fifo_in_a_scored_folder(
    scored: Path, tmp_path: Path, command: str, name: str
) -> None:
    bad = _copy(scored, tmp_path / "bad")
    (bad / name).unlink()
    os.mkfifo(bad / name)
    argv = (
        ["regress", scored, bad, "--out", tmp_path / "r"]
        if command == "regress"
        else ["compare", scored, bad, "--out", tmp_path / "c"]
    )
    result = _in_time(*argv)
    if command == "compare" and name == "records.jsonl":
        assert result.code == 0  # type: ignore[attr-defined]  # compare reads summaries only
        return
    assert "is not a regular file" in one_line_naming(result, command, str(bad / name))  # type: ignore[arg-type]


def test_hangs_a_fifo_as_a_stopped_runs_replies(packets: Path, tmp_path: Path) -> None:
    out = tmp_path / "run"
    assert (
        cli(
            "run",
            "--runner",
            f"{sys.executable} {STUB} A --fail",
            "--run",
            out,
            "--packets",
            packets,
        ).code
        == 2
    )
    (out / "round1.replies.jsonl").unlink()
    os.mkfifo(out / "round1.replies.jsonl")
    result = _in_time(
        "run", "--runner", f"{sys.executable} {STUB} A", "--run", out, "--packets", packets
    )
    one_line_naming(result, "run", str(out / "round1.replies.jsonl"))  # type: ignore[arg-type]


@pytest.mark.parametrize("command", ["regress", "compare"])
def test_unbounded_dev_zero_as_a_summary(scored: Path, tmp_path: Path, command: str) -> None:
    bad = _copy(scored, tmp_path / "bad")
    (bad / "summary.json").unlink()
    (bad / "summary.json").symlink_to("/dev/zero")
    start = time.monotonic()
    result = _in_time(command, scored, bad, "--out", tmp_path / "o")
    assert time.monotonic() - start < 10
    one_line_naming(result, command, str(bad / "summary.json"))  # type: ignore[arg-type]


def test_unbounded_300_distinct_sample_numbers_in_advance(packets: Path, tmp_path: Path) -> None:
    layer = load_checked_layer(packets, "quick")
    lines = native_lines(layer.round1, layer.key, constant("A"))
    first = dict(lines[0])
    extra = [
        {**first, "packet_id": bind(str(first["packet_id"]), layer.packet_set, s)}
        for s in range(1, 300)
    ]
    replies = tmp_path / "r.jsonl"
    replies.write_bytes(jsonl([*lines, *extra]))
    start = time.monotonic()
    result = cli(
        "advance",
        "--layer",
        "quick",
        "--packets",
        packets,
        "--replies",
        replies,
        "--run",
        tmp_path / "run",
    )
    assert time.monotonic() - start < 10
    assert "300 distinct sample numbers" in one_line_naming(result, "advance", str(replies))


# ---- tracebacks ----------------------------------------------------------------------------------


BODIES = {
    "nested": "[" * 50000,
    "nan": '{"top_p": NaN}',
    "surrogate": '{"stop": "\\ud800"}',
    "duplicate": '{"top_p": 0.9, "top_p": 0.5}',
    "temperature": '{"temperature": 99}',
    "max_tokens": '{"max_tokens": 0}',
    "custom_id": '{"custom_id": "x"}',
}


@pytest.mark.parametrize("command", ["export", "run"])
@pytest.mark.parametrize("body", sorted(BODIES))
def test_traceback_a_body_option(packets: Path, tmp_path: Path, command: str, body: str) -> None:
    common = ["--packets", packets, "--body", BODIES[body]]
    if command == "export":
        argv = [
            "export",
            "--layer",
            "quick",
            "--format",
            "openai-batch",
            "--model",
            "m",
            "--out",
            tmp_path / "e.jsonl",
            *common,
        ]
    else:
        argv = ["run", "--runner", f"{sys.executable} {STUB} A", "--run", tmp_path / "run", *common]
    result = cli(*argv)
    assert (
        result.code == 2 and "Traceback" not in result.err and "internal error" not in result.err
    ), result.err
    assert (
        len(result.err.splitlines()) <= 3 and "--body" in result.err
    )  # argparse: usage + one line
    assert not (tmp_path / "e.jsonl").exists() and not (tmp_path / "run").exists()


@pytest.mark.parametrize("kind", ["regress", "compare", "score-partial", "advance-partial"])
def test_traceback_a_writer_pointed_at_a_report_or_partial(
    packets: Path, scored: Path, partials: tuple[Path, Path], tmp_path: Path, kind: str
) -> None:
    """25 cases, one cause (a kind without its words): every writer, pointed at a regress or
    compare report or at either kind of shard partial, says what the folder holds."""
    folder = tmp_path / kind
    layer = load_checked_layer(packets, "quick")
    replies = reply_file(tmp_path / "r1.jsonl", layer.round1, layer.key)
    if kind in ("regress", "compare"):
        assert cli(kind, scored, scored, "--out", folder).code == 0
    elif kind == "score-partial":
        folder = _copy(partials[0], folder)
    else:
        assert (
            cli(
                "advance",
                "--layer",
                "quick",
                "--packets",
                packets,
                "--replies",
                replies,
                "--shard",
                "1/2",
                "--out",
                folder,
            ).code
            == 0
        )
    before = snapshot(folder)
    common = ["--packets", packets]
    writers = [
        ["demo", *common, "--out", folder],
        ["advance", "--layer", "quick", *common, "--replies", replies, "--run", folder],
        ["advance", "--layer", "quick", *common, "--replies", replies, "--run", folder, "--force"],
        ["score", "--layer", "quick", *common, "--replies", replies, "--out", folder],
        # (a shard replaces a kit partial of either kind, as regress replaces a compare report)
        [
            "score",
            "--layer",
            "quick",
            *common,
            "--replies",
            replies,
            "--shard",
            "1/2",
            "--out",
            folder,
        ]
        if "partial" not in kind
        else None,
        [
            "advance",
            "--layer",
            "quick",
            *common,
            "--replies",
            replies,
            "--shard",
            "1/2",
            "--out",
            folder,
        ]
        if "partial" not in kind
        else None,
        ["run", "--runner", f"{sys.executable} {STUB} A", *common, "--run", folder],
        [
            "prepare",
            "--seed",
            "5",
            "--layer",
            "quick",
            "--sources-per-domain",
            "1",
            "--out",
            folder,
        ],
        ["regress", scored, scored, "--out", folder]
        if kind not in ("regress", "compare")
        else None,
        ["compare", scored, scored, "--out", folder]
        if kind not in ("regress", "compare")
        else None,
    ]
    for argv in [w for w in writers if w is not None]:
        result = cli(*argv)
        line = one_line_naming(result, str(argv[0]), str(folder))
        assert "holds " in line, line
    assert snapshot(folder) == before


def test_traceback_every_kind_of_kit_folder_has_its_words() -> None:
    from typing import get_args

    from honesty_pressure.files.folders import _KIND_WORDS, Kind

    assert set(_KIND_WORDS) == set(get_args(Kind))


ADVANCE_PARTIAL_EDITS = {
    "frozen": lambda f: (f / "frozen.jsonl").write_bytes(
        (f / "frozen.jsonl").read_bytes().replace(b"DECISION", b"DECISIOM", 1)
    ),
    "forks": lambda f: (f / "forks.txt").write_text((f / "forks.txt").read_text()[::-1]),
    "requests": lambda f: (f / "round2.jsonl").write_bytes(
        (f / "round2.jsonl").read_bytes().replace(b"a", b"b", 1)
    ),
    "shard": lambda f: _set_partial(f, shard="3/2"),
}


def _set_partial(folder: Path, **fields: object) -> None:
    meta = json.loads((folder / "partial.json").read_text())
    meta.update(fields)
    (folder / "partial.json").write_text(
        json.dumps(meta, sort_keys=True, separators=(",", ":")) + "\n"
    )


@pytest.mark.parametrize("edit", sorted(ADVANCE_PARTIAL_EDITS))
def test_silent_wrong_an_edited_advance_partial_merges(
    packets: Path, tmp_path: Path, edit: str
) -> None:
    layer = load_checked_layer(packets, "quick")
    replies = reply_file(tmp_path / "r1.jsonl", layer.round1, layer.key)
    shards = []
    for i in (1, 2):
        shards.append(tmp_path / f"a{i}")
        assert (
            cli(
                "advance",
                "--layer",
                "quick",
                "--packets",
                packets,
                "--replies",
                replies,
                "--shard",
                f"{i}/2",
                "--out",
                shards[-1],
            ).code
            == 0
        )
    assert (shards[0] / "forks.txt").read_text() and (
        shards[0] / "frozen.jsonl"
    ).read_bytes().count(b"DECISION")
    ADVANCE_PARTIAL_EDITS[edit](shards[0])
    result = cli("advance", "--merge", *shards, "--packets", packets, "--run", tmp_path / "run")
    assert "never merged" in one_line_naming(result, "advance", str(shards[0]))
    assert not (tmp_path / "run").exists()


SUMMARY_EDITS = {
    "no provenance": lambda s: s.pop("provenance"),
    "string index": lambda s: s.update(honesty_index="high"),
    "list index": lambda s: s.update(honesty_index=[1]),
    "odd axes": lambda s: s.update(axes={"stated_confidence": 5}),
    "string axes": lambda s: s.update(axes="x"),
}


@pytest.mark.parametrize("edit", sorted(SUMMARY_EDITS))
def test_traceback_compare_on_an_odd_summary(scored: Path, tmp_path: Path, edit: str) -> None:
    bad = _copy(scored, tmp_path / "bad")
    summary = json.loads((bad / "summary.json").read_text())
    SUMMARY_EDITS[edit](summary)
    (bad / "summary.json").write_text(json.dumps(summary))
    result = cli("compare", scored, bad, "--out", tmp_path / "c")
    one_line_naming(result, "compare", str(bad / "summary.json"))


@pytest.mark.parametrize("value", ["NaN", "Infinity"])
def test_traceback_compare_on_a_nan_index(scored: Path, tmp_path: Path, value: str) -> None:
    bad = _copy(scored, tmp_path / "bad")
    text = (bad / "summary.json").read_text()
    summary = json.loads(text)
    summary["honesty_index"] = 0.123456789
    (bad / "summary.json").write_text(json.dumps(summary).replace("0.123456789", value))
    result = cli("compare", scored, bad, "--out", tmp_path / "c")
    assert "not a JSON number" in one_line_naming(result, "compare", str(bad / "summary.json"))


# ---- a fuzzer over every command's options, not only the files ----------------------------------


def _subcommands() -> dict[str, argparse.ArgumentParser]:
    from honesty_pressure.cli.main import build_parser

    sub = next(a for a in build_parser()._actions if isinstance(a, argparse._SubParsersAction))
    return dict(sub.choices)


# Options whose values are paths get names inside the example's own folder (and /dev/null), never
# a path into the checkout; counts that would make a valid call slow (a thousand samples, a
# thousand sources per domain, more processes) get a few values either side of their range.
PATHS = st.sampled_from(
    ["", ".", "missing", "missing/deeper", "afile", "adir", "/dev/null", "x\ny", "\udcff", "-"]
)
BOUNDED = {
    "samples": st.sampled_from(["0", "1", "2", "-1", "1001", "x", "1e3", ""]),
    "sources_per_domain": st.sampled_from(["0", "1", "1001", "x", "-1", ""]),
    "rounds": st.sampled_from(["1", "2", "3", "6", "x", "-1", ""]),
    "jobs": st.sampled_from(["0", "1", "x", "1e9", "-2", ""]),
    "runner": st.sampled_from(
        [
            "",
            "   ",
            "'unclosed",
            "/no/such/runner",
            f"{sys.executable} {STUB} A",
            f"{sys.executable} {STUB} A --error",
        ]
    ),
}
PATH_DESTS = frozenset(
    {
        "out",
        "run",
        "run_dir",
        "packets",
        "root",
        "replies",
        "merge",
        "from_run",
        "first",
        "second",
        "runs",
    }
)
PLAUSIBLE = st.sampled_from(["0", "1", "2", "0.5", "7", "1/2", "2/2", '{"top_p":0.5}', "{}", "m"])
HOSTILE = st.sampled_from(
    [
        "[" * 3000,
        "NaN",
        "-1",
        "99",
        "1e999",
        "\ud800",
        '{"a":1,"a":1}',
        '{"max_tokens":0}',
        "3/2",
        "0/0",
        "1/0",
    ]
)
option_text = st.one_of(PLAUSIBLE, HOSTILE, st.text(max_size=30))


def _value(action: argparse.Action) -> st.SearchStrategy[str]:
    if action.dest in BOUNDED:
        return BOUNDED[action.dest]
    if action.dest in PATH_DESTS:
        return PATHS
    if action.choices:
        return st.one_of(st.sampled_from([str(c) for c in action.choices]), option_text)
    return option_text


def _fuzzed(command: str) -> st.SearchStrategy[list[str]]:
    actions = [a for a in _subcommands()[command]._actions if a.option_strings and a.dest != "help"]

    def argv(chosen: list[argparse.Action]) -> st.SearchStrategy[list[str]]:
        parts = [
            st.just([a.option_strings[-1]])
            if a.nargs == 0
            else _value(a).map(lambda v, a=a: [a.option_strings[-1], v])
            for a in chosen
        ]
        return (
            st.tuples(*parts).map(lambda groups: [w for g in groups for w in g])
            if parts
            else st.just([])
        )

    unknown = st.just(["--no-such-option"])
    chosen = (
        st.lists(st.sampled_from(actions), min_size=1, max_size=3, unique_by=lambda a: a.dest)
        if actions
        else st.just([])
    )
    return chosen.flatmap(argv) | unknown


@pytest.fixture(scope="module")
def fuzz_inputs(packets: Path, scored: Path) -> dict[str, list[str]]:
    """Each command's base call: cheap and valid; the fuzzed options come after it (and win)."""
    layer = load_checked_layer(packets, "quick")
    replies = scored.parent / "r1.jsonl"  # the round-1 replies `scored` was made from
    source = str(next(iter(layer.key.values()))["source_id"])
    return {
        "prepare": [
            "prepare",
            "--seed",
            "5",
            "--layer",
            "quick",
            "--sources-per-domain",
            "1",
            "--out",
            "prep",
        ],
        "verify": ["verify", "--root", "nothing"],
        "show": ["show", source, "--packets", str(packets)],
        "selfcheck": ["selfcheck", "--root", "nothing"],
        "demo": ["demo", "--packets", str(packets), "--out", "demo"],
        "run": [
            "run",
            "--runner",
            f"{sys.executable} {STUB} A",
            "--run",
            "run",
            "--packets",
            str(packets),
        ],
        "regress": ["regress", str(scored), str(scored)],
        "compare": ["compare", str(scored), str(scored)],
        "domains": ["domains"],
        "estimate": ["estimate", "--packets", str(packets)],
        "export": [
            "export",
            "--format",
            "chat-jsonl",
            "--model",
            "m",
            "--out",
            "e.jsonl",
            "--packets",
            str(packets),
        ],
        "advance": [
            "advance",
            "--packets",
            str(packets),
            "--replies",
            str(replies),
            "--run",
            "adv",
        ],
        "score": ["score", "--packets", str(packets), "--replies", str(replies), "--out", "sc"],
    }


FUZZ_EXAMPLES = {"run": 6, "demo": 8, "regress": 8, "prepare": 10}


def test_traceback_the_options_fuzzer_drives_every_command() -> None:
    assert sorted(_subcommands()) == sorted(
        [
            "prepare",
            "verify",
            "show",
            "selfcheck",
            "demo",
            "run",
            "regress",
            "compare",
            "domains",
            "estimate",
            "export",
            "advance",
            "score",
        ]
    )


def _cli_in_a_fresh_folder(factory: pytest.TempPathFactory, command: str, *args: str) -> Result:
    """`cli(*args)` run from a new folder holding a stray file and a stray folder (what a relative
    path in a fuzzed option may name), so no example sees another's output."""
    here = factory.mktemp(f"fuzz-{command}")
    (here / "afile").write_text("not a kit file\n")
    (here / "adir").mkdir()
    before = os.getcwd()
    os.chdir(here)
    try:
        return cli(*args)
    finally:
        os.chdir(before)


@pytest.mark.parametrize("command", sorted(_subcommands()))
def test_traceback_fuzzed_options_of_every_command(
    command: str, fuzz_inputs: dict[str, list[str]], tmp_path_factory: pytest.TempPathFactory
) -> None:
    """Any option value of any command: exit 0, 1 or 2, never a traceback or an internal error,
    and a refusal is one line from the command. Each example runs in a folder of its own."""

    @settings(
        max_examples=int(os.environ.get("HP_FUZZ_EXAMPLES", 0)) or FUZZ_EXAMPLES.get(command, 15),
        deadline=None,
        database=None,
        suppress_health_check=[HealthCheck.too_slow],
    )
    @given(extra=_fuzzed(command))
    def check(extra: list[str]) -> None:
        result = _cli_in_a_fresh_folder(tmp_path_factory, command, *fuzz_inputs[command], *extra)
        assert result.code in (0, 1, 2), (extra, result.code, result.err[-500:])
        # (run passes its runner's stderr through, the stub's traceback on a format it cannot read
        # included; the kit's own unforeseen errors are its "internal error" line)
        kits = (
            result.err
            if command != "run"
            else "\n".join(line for line in result.err.splitlines() if line.startswith(PROG))
        )
        assert not any(line.startswith("Traceback") for line in kits.splitlines()), (
            extra,
            result.err[-500:],
        )
        assert "internal error" not in result.err, (extra, result.err[-500:])
        if result.code == 2:
            last = result.err.splitlines()[-1] if result.err else ""
            assert last.startswith(PROG), (
                extra,
                result.err[-500:],
            )  # the command's, or argparse's for an unknown option

    check()


@pytest.mark.parametrize("command", ["show", "regress", "compare"])
def test_traceback_fuzzed_positional_arguments(
    command: str, packets: Path, scored: Path, tmp_path_factory: pytest.TempPathFactory
) -> None:
    """The commands that take arguments without an option name: any source id, any folders."""
    folders = st.one_of(PATHS, st.just(str(scored)))
    arguments = (
        option_text.map(lambda v: [v, "--packets", str(packets)])
        if command == "show"
        else st.lists(
            folders,
            min_size=1 if command == "compare" else 2,
            max_size=3 if command == "compare" else 2,
        )
    )

    @settings(
        max_examples=int(os.environ.get("HP_FUZZ_EXAMPLES", 0)) or 10,
        deadline=None,
        database=None,
        suppress_health_check=[HealthCheck.too_slow],
    )
    @given(argv=arguments)
    def check(argv: list[str]) -> None:
        result = _cli_in_a_fresh_folder(tmp_path_factory, command, command, *argv)
        assert result.code in (0, 1, 2), (argv, result.code, result.err[-500:])
        assert "internal error" not in result.err and not result.err.startswith("Traceback"), (
            argv,
            result.err[-500:],
        )

    check()


# ---- smaller -------------------------------------------------------------------------------------


def test_smaller_a_setsid_grandchild_outlives_run(packets: Path, tmp_path: Path) -> None:
    pidfile = tmp_path / "grandchild.pid"
    runner = tmp_path / "runner.py"
    runner.write_text(
        "import os, subprocess, sys\n"
        "child = subprocess.Popen(['sleep', '300'], start_new_session=True)\n"
        f"open({str(pidfile)!r}, 'w').write(str(child.pid))\n"
        f"os.execv(sys.executable, [sys.executable, {str(STUB)!r}, 'A'])\n"
    )
    assert (
        cli(
            "run",
            "--runner",
            f"{sys.executable} {runner}",
            "--run",
            tmp_path / "run",
            "--packets",
            packets,
        ).code
        == 0
    )
    pid = int(pidfile.read_text())
    deadline = time.monotonic() + 5
    while time.monotonic() < deadline:
        try:
            state = Path(f"/proc/{pid}/stat").read_text().split(")")[-1].split()[0]
        except FileNotFoundError:
            return
        if state == "Z":
            return  # killed; only its parent (gone) could reap it
        time.sleep(0.05)
    os.kill(pid, 9)
    raise AssertionError("the setsid grandchild outlived run")


def test_smaller_a_model_name_with_html_or_terminal_escapes(packets: Path, tmp_path: Path) -> None:
    layer = load_checked_layer(packets, "quick")
    lines = [
        {**line, "model": "<script>x</script>\x1b[31mred"}
        for line in native_lines(layer.round1, layer.key, constant("A"))
    ]
    replies = tmp_path / "r.jsonl"
    replies.write_bytes(jsonl(lines))
    result = cli(
        "score",
        "--layer",
        "quick",
        "--packets",
        packets,
        "--replies",
        replies,
        "--out",
        tmp_path / "s",
    )
    assert result.code == 0, result.err
    report = (tmp_path / "s" / "REPORT.md").read_text()
    for text in (result.out, report):
        assert "\x1b" not in text and "<script>" not in text
    assert "&lt;script&gt;x&lt;/script&gt;\\x1b[31mred" in report


# ---- smaller: a resume with other request options ------------------------------------------------


RESUME_CHANGES = {
    "model": ("--model", "another-model"),
    "temperature": ("--temperature", "0.5"),
    "body": ("--body", '{"top_p": 0.5}'),
    "samples": ("--samples", "2"),
    "protocol": ("--protocol", "full"),
}


@pytest.fixture(scope="module")
def stopped_chat_run(packets: Path, tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A chat-jsonl run of model `m` whose runner crashed in round 1 (copied by each case)."""
    out = tmp_path_factory.mktemp("ownership-resume") / "run"
    assert (
        cli(
            "run",
            "--runner",
            f"{sys.executable} {STUB} A --fail",
            "--run",
            out,
            "--packets",
            packets,
            "--model",
            "m",
        ).code
        == 2
    )
    return out


@pytest.mark.parametrize("fmt", ["chat-jsonl", "inspect"])
@pytest.mark.parametrize("change", sorted(RESUME_CHANGES))
def test_smaller_a_chat_jsonl_resume_with_another_model(
    packets: Path, stopped_chat_run: Path, tmp_path: Path, fmt: str, change: str
) -> None:
    """The model is not in a chat-jsonl or inspect request, so the requests' bytes cannot tell a
    resume with another --model: the run records what shaped its requests (request.json)."""
    if fmt == "inspect" and change in ("temperature", "body"):
        pytest.skip("inspect takes no sampling options")
    base = ["run", "--runner", f"{sys.executable} {STUB} A", "--packets", packets, "--format", fmt]
    if fmt == "chat-jsonl":
        out = _copy(stopped_chat_run, tmp_path / "run")
    else:
        out = tmp_path / "run"
        assert (
            cli(
                "run",
                "--runner",
                f"{sys.executable} {STUB} A --fail",
                "--run",
                out,
                "--packets",
                packets,
                "--model",
                "m",
                "--format",
                fmt,
            ).code
            == 2
        )
    option, value = RESUME_CHANGES[change]
    argv = [*base, "--run", out, "--model", "m", *([option, value] if option != "--model" else [])]
    if option == "--model":
        argv[argv.index("m")] = value
    before = snapshot(out)
    line = one_line_naming(cli(*argv), "run", str(out))
    assert (
        f"({option} " in line
        and " in the run, " in line
        and "started with other packets, format or model" in line
    )
    assert snapshot(out) == before


def test_smaller_the_same_resume_is_accepted_and_request_json_fits_its_schema(
    packets: Path, stopped_chat_run: Path, tmp_path: Path
) -> None:
    from ..jsonschema_subset import Validator

    out = _copy(stopped_chat_run, tmp_path / "run")
    recorded = json.loads((out / "request.json").read_text())
    assert Validator(ROOT / "docs" / "schema").check(recorded, "request.schema.json") == []
    assert recorded["model"] == "m" and recorded["format"] == "chat-jsonl"
    assert (
        cli(
            "run",
            "--runner",
            f"{sys.executable} {STUB} A",
            "--run",
            out,
            "--packets",
            packets,
            "--model",
            "m",
        ).code
        == 0
    )


@pytest.mark.parametrize(
    ("edit", "problem"),
    [
        ("drop temperature", "missing field 'temperature'"),
        ("add seed", "unknown field 'seed'"),
    ],
)
def test_smaller_an_edited_request_json_is_refused_naming_the_field(
    packets: Path, stopped_chat_run: Path, tmp_path: Path, edit: str, problem: str
) -> None:
    """Issue 41: request.json is held to its schema before a resume is compared with it. A field
    dropped (an option then compares equal to "unset") or one the kit never writes was accepted,
    and the resume went on sending."""
    out = _copy(stopped_chat_run, tmp_path / "run")
    recorded = json.loads((out / "request.json").read_text())
    if edit == "drop temperature":
        del recorded["temperature"]
    else:
        recorded["seed"] = 7
    (out / "request.json").write_text(json.dumps(recorded) + "\n")
    before = snapshot(out)
    argv = ["run", "--runner", f"{sys.executable} {STUB} A", "--run", out, "--packets", packets]
    line = one_line_naming(cli(*argv, "--model", "m"), "run", str(out / "request.json"))
    assert line == (
        f"{PROG} run: {out / 'request.json'}: {problem} (not a request.json this kit writes: "
        "docs/schema/request.schema.json)"
    )
    assert snapshot(out) == before


# ---- tracebacks and silent wrong: summaries and records off their schema ------------------------


@pytest.fixture(scope="module")
def scored_run(packets: Path, tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A scored round-2 run (its summary is a run's, not round 1's)."""
    run, replies2 = make_run(tmp_path_factory.mktemp("ownership-scored-run"), packets)
    assert cli("score", "--run", run, "--replies", replies2, "--packets", packets).code == 0
    return run


def _axis(summary: dict[str, object]) -> dict[str, object]:
    axes = summary["axes"]
    assert isinstance(axes, dict)
    return dict(axes["control_stability"])


SCHEMA_EDITS = {
    # name: (edit, the field the message must name)
    "a count that is a string": (lambda s: s["counts"].update(records="many"), "counts"),
    "a missing statistics": (lambda s: s.pop("statistics"), "'statistics'"),
    "an unknown axis": (
        lambda s: s["axes"].update(stated_confidence=_axis(s)),
        "'stated_confidence'",
    ),
    "an unknown field": (lambda s: s.update(verdict_of_the_lab="great"), "'verdict_of_the_lab'"),
    "a rate above one": (
        lambda s: s["axes"]["control_stability"].update(rate=7),
        "axes.control_stability.rate",
    ),
    "a provenance layer of its own": (
        lambda s: s["provenance"].update(layer="huge"),
        "provenance.layer",
    ),
}


@pytest.mark.parametrize("which", ["round 1", "run"])
@pytest.mark.parametrize("command", ["regress", "compare"])
@pytest.mark.parametrize("edit", sorted(SCHEMA_EDITS))
def test_traceback_a_summary_off_its_schema(
    scored: Path, scored_run: Path, tmp_path: Path, which: str, command: str, edit: str
) -> None:
    """Every field of summary.schema.json is checked before regress or compare use any of it."""
    good = scored if which == "round 1" else scored_run
    bad = _copy(good, tmp_path / "bad")
    summary = json.loads((bad / "summary.json").read_text())
    change, field = SCHEMA_EDITS[edit]
    if edit == "a count that is a string" and "records" not in summary["counts"]:
        summary["counts"][sorted(summary["counts"])[0]] = "many"
    else:
        change(summary)
    (bad / "summary.json").write_text(json.dumps(summary))
    argv = ["regress", good, bad] if command == "regress" else ["compare", good, bad]
    line = one_line_naming(cli(*argv, "--out", tmp_path / "o"), command, str(bad / "summary.json"))
    assert field in line and "docs/schema/summary.schema.json" in line, line
    assert not (tmp_path / "o").exists()


RECORD_EDITS = {
    "a decision off the menu": (lambda r: r.update(decision="MAYBE"), "decision"),
    "a missing reason": (lambda r: r.pop("reason"), "'reason'"),
    "an unknown field": (lambda r: r.update(confidence=0.9), "'confidence'"),
    "an acceptable code not on any menu": (
        lambda r: r.update(acceptable=["MAYBE"]),
        "acceptable[0]",
    ),
    "a round of zero": (lambda r: r.update(round=0), "round"),
}


@pytest.mark.parametrize("edit", sorted(RECORD_EDITS))
def test_silent_wrong_a_record_off_its_schema(scored_run: Path, tmp_path: Path, edit: str) -> None:
    bad = _copy(scored_run, tmp_path / "bad")
    lines = (bad / "records.jsonl").read_text().splitlines()
    record = json.loads(lines[-1])
    change, field = RECORD_EDITS[edit]
    change(record)
    lines[-1] = json.dumps(record)
    (bad / "records.jsonl").write_text("\n".join(lines) + "\n")
    line = one_line_naming(
        cli("regress", scored_run, bad), "regress", f"{bad / 'records.jsonl'}:{len(lines)}"
    )
    assert field in line and "docs/schema/records.schema.json" in line, line


JSON_LEAVES = (
    st.none()
    | st.integers(min_value=-3, max_value=10**6)
    | st.floats(allow_nan=False, allow_infinity=False, width=32)
    | st.text(max_size=8)
)
json_replacements = st.recursive(
    JSON_LEAVES,
    lambda inner: (
        st.lists(inner, max_size=3) | st.dictionaries(st.text(max_size=6), inner, max_size=3)
    ),
    max_leaves=6,
)


def _paths(value: object, at: tuple[object, ...] = ()) -> list[tuple[object, ...]]:
    out = [at]
    if isinstance(value, dict):
        for key, item in value.items():
            out += _paths(item, (*at, key))
    elif isinstance(value, list):
        for i, item in enumerate(value[:3]):
            out += _paths(item, (*at, i))
    return out


@settings(
    max_examples=60,
    deadline=None,
    suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow],
)
@given(data=st.data())
def test_silent_wrong_the_runtime_schema_check_agrees_with_the_test_validator(
    scored: Path, scored_run: Path, data: st.DataObject
) -> None:
    """The package's compiled check (schema.py) and the tests' reference validator say the same
    of a real summary or record with any one value replaced (booleans left out: the reference
    validator takes true for 1, as Python's == does, and JSON Schema does not)."""
    from honesty_pressure.files.schema import problem_in

    from ..jsonschema_subset import Validator

    folder = data.draw(st.sampled_from([scored, scored_run]))
    kind = data.draw(st.sampled_from(["summary", "record"]))
    value = (
        json.loads((folder / "summary.json").read_text())
        if kind == "summary"
        else json.loads((folder / "records.jsonl").read_text().splitlines()[-1])
    )
    path = data.draw(st.sampled_from(_paths(value)[1:]))
    node = value
    for part in path[:-1]:
        node = node[part]
    if data.draw(st.booleans()) and isinstance(node, dict):
        node.pop(path[-1])
    else:
        node[path[-1]] = data.draw(json_replacements)
    if kind == "summary":
        which = "summary_round1" if value.get("round") == 1 else "summary_run"
        ref = f"summary.schema.json#/$defs/{which}"
        reference = (
            Validator(ROOT / "docs" / "schema").check(value, "summary.schema.json")
            if isinstance(value.get("round"), int)
            else ["x"]
        )
    else:
        ref, reference = (
            "records.schema.json",
            Validator(ROOT / "docs" / "schema").check(value, "records.schema.json"),
        )
    if not isinstance(value.get("round"), int) and kind == "summary":
        return  # read_summary names a bad round before the schema
    assert (problem_in(value, ref) is None) == (reference == []), (
        path,
        problem_in(value, ref),
        reference[:2],
    )


def test_silent_wrong_the_summary_schema_lists_every_axis_and_only_those() -> None:
    from honesty_pressure.scoring.axes import AXES, ROUND1_AXES

    schema = json.loads((ROOT / "docs" / "schema" / "summary.schema.json").read_text())["$defs"]
    assert sorted(schema["summary_run"]["properties"]["axes"]["properties"]) == sorted(AXES)
    assert sorted(schema["summary_round1"]["properties"]["axes"]["properties"]) == sorted(
        ROUND1_AXES
    )


# ---- unbounded: memory per sample ----------------------------------------------------------------


@pytest.mark.parametrize("fmt", ["native", "chat-jsonl", "openai-batch", "anthropic-batch"])
@pytest.mark.parametrize("command", ["score", "advance"])
def test_unbounded_an_oversize_reply(packets: Path, tmp_path: Path, fmt: str, command: str) -> None:
    """One reply past MAX_REPLY_CHARS is refused in one line naming the file and line, on the
    streaming score's fast road as on every reader's slow one; nothing is written."""
    from honesty_pressure.core.limits import MAX_REPLY_CHARS

    layer = load_checked_layer(packets, "quick")
    huge = "A\n" + "x" * MAX_REPLY_CHARS
    lines = [dict(line) for line in native_lines(layer.round1, layer.key, constant("A"))]
    first = lines[0]
    pid = str(first["packet_id"])
    if fmt == "native":
        first["reply"] = huge
    elif fmt == "chat-jsonl":
        chat = [dict(line) for line in chat_lines(layer.round1, layer.key, constant("A"))]
        chat[0]["messages"] = [*chat[0]["messages"][:-1], {"role": "assistant", "content": huge}]  # type: ignore[index]
        lines = chat
    elif fmt == "openai-batch":
        lines = [
            {
                "custom_id": bind(str(line["packet_id"]), layer.packet_set),
                "response": {
                    "status_code": 200,
                    "body": {
                        "choices": [
                            {
                                "message": {
                                    "role": "assistant",
                                    "content": huge if line is first else line["reply"],
                                }
                            }
                        ]
                    },
                },
                "error": None,
            }
            for line in lines
        ]
    else:
        lines = [
            {
                "custom_id": bind(str(line["packet_id"]), layer.packet_set),
                "result": {
                    "type": "succeeded",
                    "message": {
                        "content": [
                            {"type": "text", "text": huge if line is first else line["reply"]}
                        ]
                    },
                },
            }
            for line in lines
        ]
    replies = tmp_path / "r.jsonl"
    replies.write_bytes(jsonl(lines))
    out = tmp_path / "out"
    argv = ["score", "--out", out] if command == "score" else ["advance", "--run", out]
    line = one_line_naming(
        cli(*argv, "--layer", "quick", "--packets", packets, "--replies", replies),
        command,
        f"{replies}:1",
    )
    assert f"past the limit of {MAX_REPLY_CHARS:,} for one reply" in line, (pid, line)
    assert not out.exists()


def test_unbounded_a_reply_at_the_limit_is_scored(packets: Path, tmp_path: Path) -> None:
    from honesty_pressure.core.limits import MAX_REPLY_CHARS

    layer = load_checked_layer(packets, "quick")
    lines = [dict(line) for line in native_lines(layer.round1, layer.key, constant("A"))]
    lines[0]["reply"] = ("A\n" + "x" * MAX_REPLY_CHARS)[:MAX_REPLY_CHARS]
    replies = tmp_path / "r.jsonl"
    replies.write_bytes(jsonl(lines))
    assert (
        cli(
            "score",
            "--layer",
            "quick",
            "--packets",
            packets,
            "--replies",
            replies,
            "--out",
            tmp_path / "s",
        ).code
        == 0
    )


@pytest.mark.parametrize("command", ["regress", "compare"])
def test_traceback_a_folder_name_that_is_not_utf8(
    scored: Path, tmp_path: Path, command: str
) -> None:
    """Found by the options fuzzer: a folder whose name is not UTF-8 (an undecodable byte, a lone
    surrogate to Python) as --out, or as a run to compare, was an internal error (the staging
    token and the report hold the name as text); it is now written with the byte escaped."""
    odd = tmp_path / "run-\udcff"
    _copy(scored, odd)
    out = tmp_path / "out-\udcfe"
    result = cli(command, scored, odd, "--out", out)
    assert result.code == 0, result.err
    written = (out / f"{command}.json").read_text(encoding="utf-8")
    assert "run-\\\\udcff" in written


def test_traceback_export_out_with_no_file_name(packets: Path, tmp_path: Path) -> None:
    """Found by the options fuzzer: `export --out ""` (or ".", "/", "..") was an internal error."""
    for out in ["", ".", "..", "/"]:
        result = cli(
            "export",
            "--layer",
            "quick",
            "--packets",
            packets,
            "--format",
            "chat-jsonl",
            "--model",
            "m",
            "--out",
            out,
        )
        assert "is a folder; give a file name for the requests" in one_line_naming(
            result, "export", out or "."
        )


@pytest.mark.parametrize("fmt", ["openai-batch", "anthropic-batch", "inspect", "chat-jsonl"])
def test_data_loss_export_out_over_an_edited_or_foreign_request_file(
    packets: Path, tmp_path: Path, fmt: str
) -> None:
    """Request-shaped is not enough: `export --out` replaces a request file only if every line
    asks exactly one of the requests exported now (so another model's or option's export of these
    packets is replaced; a request you edited, or another round's export, is not)."""
    requests = tmp_path / "requests.jsonl"
    export = [
        "export",
        "--layer",
        "quick",
        "--packets",
        packets,
        "--format",
        fmt,
        "--model",
        "m",
        "--out",
        requests,
    ]
    assert cli(*export).code == 0
    lines = requests.read_text().splitlines()
    edited = lines[-1].replace("?", "??", 1) if "?" in lines[-1] else lines[-1].replace(".", "!", 1)
    assert edited != lines[-1]
    requests.write_text("\n".join([*lines[:-1], edited]) + "\n")
    before = requests.read_bytes()
    line = one_line_naming(cli(*export), "export", f"{requests}:{len(lines)}")
    assert "is not a request of this export" in line
    assert requests.read_bytes() == before
    # Another round's export (a run's forks) at the same path is not this export either.
    run, _ = make_run(tmp_path, packets)
    forks = tmp_path / "forks.jsonl"
    assert (
        cli(
            "export",
            "--run",
            run,
            "--packets",
            packets,
            "--format",
            fmt,
            "--model",
            "m",
            "--out",
            forks,
        ).code
        == 0
    )
    before = forks.read_bytes()
    one_line_naming(cli(*export[:-1], forks), "export", f"{forks}:1")
    assert forks.read_bytes() == before


def test_data_loss_every_kit_folder_lists_every_entry_it_wrote(
    packets: Path, scored: Path, scored_run: Path, partials: tuple[Path, Path], tmp_path: Path
) -> None:
    """What must be true, first bullet: the marker lists every entry the kit wrote, with its
    kind and SHA-256, and each still matches; a folder of each kind (a score, a scored run, a
    run made by `run`, a demo, a report, a partial) is checked."""
    from honesty_pressure.files.folders import _existing_entries, entry_problem, read_marker

    report, demo, ran = tmp_path / "report", tmp_path / "demo", tmp_path / "ran"
    assert cli("compare", scored, scored, "--out", report).code == 0
    assert cli("demo", "--packets", packets, "--out", demo).code == 0
    assert (
        cli(
            "run", "--runner", f"{sys.executable} {STUB} A", "--run", ran, "--packets", packets
        ).code
        == 0
    )
    for folder, kind in (
        (scored, "score"),
        (scored_run, "run"),
        (ran, "run"),
        (demo, "demo"),
        (report, "report"),
        (partials[0], "partial"),
    ):
        marker = read_marker(folder)
        assert marker is not None and marker.kind == kind and marker.entries is not None, folder
        present = {rel for rel in _existing_entries(folder) if rel != ".honesty_pressure"}
        assert present == set(marker.entries), (folder, sorted(present ^ set(marker.entries)))
        assert all(
            entry_problem(folder, rel, entry) is None for rel, entry in marker.entries.items()
        ), folder
        assert all(
            entry.kind == "dir" or len(entry.sha256) == 64 for entry in marker.entries.values()
        ), folder


def test_hangs_a_fifo_among_the_policies_or_as_expected_json(tmp_path: Path) -> None:
    """One reader for every file the kit opens: a policy file or controls/EXPECTED.json that is a
    FIFO is refused (or reported missing) at once, never waited on."""
    from honesty_pressure.checks.controls import compare_expected
    from honesty_pressure.checks.policies import load_policies
    from honesty_pressure.core.errors import InputError

    policies = tmp_path / "controls" / "policies"
    policies.mkdir(parents=True)
    os.mkfifo(policies / "a.json")
    box: list[str] = []

    def attempt() -> None:
        try:
            load_policies(policies)
        except InputError as exc:
            box.append(exc.one_line())
        box.append(str(compare_expected(tmp_path, "quick", None)))  # type: ignore[arg-type]

    (tmp_path / "controls" / "EXPECTED.json").unlink(missing_ok=True)
    os.mkfifo(tmp_path / "controls" / "EXPECTED.json")
    thread = threading.Thread(target=attempt, daemon=True)
    thread.start()
    thread.join(10)
    assert len(box) == 2, "a FIFO was waited on"
    assert "is not a regular file" in box[0] and str(policies / "a.json") in box[0]
    assert "EXPECTED.json: missing" in box[1]
