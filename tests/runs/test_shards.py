"""Shards made by separate processes merge into the unsharded output, byte for byte: a round-1
score, a run's score, an advance; an export's numbered files scored one shard each; and a merge
of partials that do not make one whole is refused with one line."""

from __future__ import annotations

import json
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from honesty_pressure.core.binding import unbind
from honesty_pressure.core.canonical import jsonl
from honesty_pressure.core.errors import InputError
from honesty_pressure.files.layer import load_layer
from honesty_pressure.runners.export import export_lines
from honesty_pressure.runners.export import shards as export_shards
from honesty_pressure.runs.pipeline import ReplyFiles, ScoreOptions, round_from_tally, score_round
from honesty_pressure.runs.shards import check_partials, merged_tally, read_partials
from honesty_pressure.scoring.sheet import Sheet
from tests.replies import oracle, reply_text
from tests.scoring.test_streaming import QUICK, _shard_partials

ROOT = Path(__file__).resolve().parents[2]


def kit(*args: str | Path) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "honesty_pressure", *map(str, args)],
        cwd=ROOT,
        capture_output=True,
        text=True,
        check=False,
    )


def ok(*args: str | Path) -> None:
    done = kit(*args)
    assert done.returncode == 0, done.stderr


def same_folders(a: Path, b: Path) -> None:
    names = sorted(p.name for p in a.iterdir())
    assert names == sorted(p.name for p in b.iterdir())
    for name in names:
        if (a / name).is_file():
            assert (a / name).read_bytes() == (b / name).read_bytes(), name


def test_round1_shards_from_separate_processes_merge_byte_for_byte(
    quick_demo: Path, tmp_path: Path
) -> None:
    replies = quick_demo / "round1.replies.jsonl"
    out = tmp_path / "score"
    ok("score", "--layer", "quick", "--replies", replies, "--out", out)
    whole = tmp_path / "whole"
    out.rename(whole)
    for i in (1, 2, 3):
        ok(
            "score",
            "--layer",
            "quick",
            "--replies",
            replies,
            "--shard",
            f"{i}/3",
            "--out",
            tmp_path / f"p{i}",
        )
    ok("score", "--merge", tmp_path / "p3", tmp_path / "p1", tmp_path / "p2", "--out", out)
    same_folders(out, whole)  # the recorded command too: the one the shards stand for


def test_run_shards_merge_byte_for_byte(quick_demo: Path, tmp_path: Path) -> None:
    run = tmp_path / "run"
    shutil.copytree(quick_demo, run)
    replies = run / "round2.replies.jsonl"
    out = tmp_path / "scored"
    ok("score", "--run", run, "--replies", replies, "--out", out)
    whole = tmp_path / "whole"
    out.rename(whole)
    for i in (1, 2):
        ok(
            "score",
            "--run",
            run,
            "--replies",
            replies,
            "--shard",
            f"{i}/2",
            "--out",
            tmp_path / f"p{i}",
        )
    ok("score", "--merge", tmp_path / "p1", tmp_path / "p2", "--run", run, "--out", out)
    same_folders(out, whole)


def test_advance_shards_merge_into_the_run_one_advance_makes(
    quick_demo: Path, tmp_path: Path
) -> None:
    replies = quick_demo / "round1.replies.jsonl"
    run = tmp_path / "run"
    ok("advance", "--layer", "quick", "--replies", replies, "--run", run)
    whole = tmp_path / "whole"
    run.rename(whole)
    for i in (1, 2):
        ok(
            "advance",
            "--layer",
            "quick",
            "--replies",
            replies,
            "--shard",
            f"{i}/2",
            "--out",
            tmp_path / f"a{i}",
        )
    ok("advance", "--merge", tmp_path / "a2", tmp_path / "a1", "--run", run)
    same_folders(run, whole)
    missing = kit("advance", "--merge", tmp_path / "a2", "--run", tmp_path / "other")
    assert (
        missing.returncode == 2
        and missing.stderr.count("\n") == 1
        and "need every shard 1/2 to 2/2" in missing.stderr
    )


def test_an_exports_numbered_files_scored_one_shard_each_merge_into_the_whole(
    tmp_path: Path,
) -> None:
    """export --shard-size cuts the requests into numbered files; a lab runs each, scores each
    reply file as a shard of its own (1/1) and merges: the score of all the files together."""
    lines = export_lines(list(QUICK.round1.values()), "chat-jsonl", "m", samples=2)
    cut = export_shards([jsonl([line]) for line in lines], "chat-jsonl", 150)
    assert [len(chunk) for chunk in cut] == [150] * (len(lines) // 150) + [len(lines) % 150]
    paths = []
    for index, chunk in enumerate(cut, start=1):
        replies = []
        for raw in chunk:
            line = json.loads(raw)
            pid = unbind(str(line["id"])).packet_id
            replies.append(
                {
                    **line,
                    "messages": [
                        *line["messages"],
                        {
                            "role": "assistant",
                            "content": reply_text(oracle(QUICK.round1[pid], QUICK.key[pid])),
                        },
                    ],
                }
            )
        path = tmp_path / f"replies.{index}-of-{len(cut)}.jsonl"
        path.write_bytes(jsonl(replies))
        paths.append(path)
    whole = score_round(QUICK, paths, ScoreOptions(bootstrap_seed=1))
    folders = []
    for index, path in enumerate(paths):
        (tmp_path / f"s{index}").mkdir()
        made = _shard_partials(tmp_path / f"s{index}", [path], 1)
        assert isinstance(made, list)
        folders += made
    partials = read_partials(list(reversed(folders)))
    given = check_partials(partials)
    tally = merged_tally(Sheet(1, QUICK.packet_set, QUICK.round1, QUICK.key), partials)
    tally.finish()
    scoring = round_from_tally(
        QUICK,
        tally,
        ReplyFiles(tuple((Path(p), s, f) for p, s, f in given)),
        ScoreOptions(bootstrap_seed=1),
    )
    try:
        merged = scoring.files()
    finally:
        scoring.close()
    assert merged == whole


def test_partials_that_are_not_one_whole_are_refused(tmp_path: Path) -> None:
    lines = [
        {
            "packet_id": pid,
            "request_sha256": QUICK.round1[pid]["request_sha256"],
            "reply": "DECISION: A",
        }
        for pid in sorted(QUICK.round1)
    ]
    path = tmp_path / "r.jsonl"
    path.write_bytes(jsonl(lines))
    other = tmp_path / "o.jsonl"
    other.write_bytes(jsonl(lines[:10]))
    folders = _shard_partials(tmp_path, [path], 3)
    assert isinstance(folders, list)
    with pytest.raises(InputError, match=r"missing shard\(s\) 2/3"):
        check_partials(read_partials([folders[0], folders[2]]))
    with pytest.raises(InputError, match="two shards with the same slice"):
        check_partials(read_partials([folders[0], folders[0], folders[1], folders[2]]))
    (tmp_path / "x").mkdir()
    odd = _shard_partials(tmp_path / "x", [other], 3)
    assert isinstance(odd, list)
    with pytest.raises(InputError, match="missing shard"):
        check_partials(read_partials([folders[0], folders[1], odd[2]]))
    full = load_layer(ROOT / "packets", "full")
    with pytest.raises(InputError, match="made for other packets"):
        merged_tally(Sheet(1, full.packet_set, full.round1, full.key), read_partials(folders))
    refused = kit("score", "--merge", folders[0], folders[1], "--out", tmp_path / "out")
    assert (
        refused.returncode == 2
        and refused.stderr.count("\n") == 1
        and "missing shard(s) 3/3" in refused.stderr
    )
