"""Small edges a new user meets: show by packet id, advance's summary, a round-2 file given to
`score --layer`, `selfcheck --help`, `--version`."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from honesty_pressure import __version__
from honesty_pressure.cli.main import PROG, main
from honesty_pressure.core.binding import unbind
from honesty_pressure.core.canonical import jsonl
from honesty_pressure.files.layer import load_layer
from honesty_pressure.files.store import keyed
from honesty_pressure.runners.export import export_lines
from tests.replies import chat_lines, native_lines, oracle

ROOT = Path(__file__).resolve().parents[2]
PACKETS = ROOT / "packets"
QUICK = load_layer(PACKETS, "quick")


def test_show_takes_a_packet_id_and_defaults_to_the_quick_layer(
    capsys: pytest.CaptureFixture[str],
) -> None:
    packet_id = sorted(QUICK.round1)[5]
    source_id = str(QUICK.key[packet_id]["source_id"])
    assert main(["show", source_id, "--packets", str(PACKETS)]) == 0
    by_source = capsys.readouterr().out
    assert main(["show", packet_id, "--packets", str(PACKETS)]) == 0
    assert capsys.readouterr().out == by_source
    assert f"source {source_id} " in by_source and f"({packet_id})" in by_source
    # quick is the default layer, as for every other command: a source only in full is not found.
    full_only = sorted(set(load_layer(PACKETS, "full").ledgers) - set(QUICK.ledgers))[0]
    assert main(["show", full_only, "--packets", str(PACKETS)]) == 2
    assert f"in {PACKETS / 'quick'}" in capsys.readouterr().err
    assert main(["show", full_only, "--layer", "full", "--packets", str(PACKETS)]) == 0
    capsys.readouterr()
    assert main(["show", "no-such-id", "--packets", str(PACKETS)]) == 2
    assert capsys.readouterr().err.startswith(
        f"{PROG} show: no source or packet 'no-such-id' in {PACKETS / 'quick'} (source ids look "
        "like "
    )


def test_advance_prints_what_it_froze_for_a_person(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    lines = chat_lines(QUICK.round1, QUICK.key, oracle)
    lines[0]["messages"][-1]["content"] = None  # type: ignore[index]
    lines[1]["messages"][-1]["content"] = "  "  # type: ignore[index]
    lines[2]["messages"][-1] = {"role": "assistant", "content": None, "refusal": "No."}  # type: ignore[index]
    replies = tmp_path / "r1.jsonl"
    replies.write_bytes(jsonl(lines[:-1]))  # the last packet has no reply at all
    run = tmp_path / "run"
    assert (
        main(["advance", "--replies", str(replies), "--run", str(run), "--packets", str(PACKETS)])
        == 0
    )
    out = capsys.readouterr().out.splitlines()
    n = len(QUICK.round1)
    keys = keyed(run / "round2.key.jsonl")
    sent = len(keyed(run / "round2.jsonl"))
    refused = [k for k in keys.values() if k.get("parent_refused") is True]
    failed = len(keys) - sent - len(refused)
    assert {k["parent"] for k in refused} == {unbind(str(lines[2]["id"])).packet_id}
    assert len(refused) in (3, 4)
    assert out == [
        f"froze {n - 1} round-1 replies for {n} packet-samples; 4 have none to continue (1 "
        "missing, 1 runner errors, 1 refusals, 1 empty)",
        f"round 2: {len(keys)} forks, {sent} to send, {len(keys) - sent} never sent "
        f"({len(refused)} forks of refusals, scored refused_parent; {failed} scored as runner "
        "errors)",
        f"wrote frozen.jsonl, run.json, round2.jsonl, round2.key.jsonl, commands.jsonl to {run}",
        f"next: export --run {run} --format FORMAT --model MODEL --out round2.requests.jsonl",
    ]
    assert not any(line.lstrip().startswith("{") for line in out)


@pytest.mark.parametrize("fmt", ["native", "chat-jsonl"])
def test_round2_replies_given_to_score_layer_point_to_score_run(
    tmp_path: Path, fmt: str, capsys: pytest.CaptureFixture[str]
) -> None:
    replies = tmp_path / "r1.jsonl"
    replies.write_bytes(jsonl(native_lines(QUICK.round1, QUICK.key, oracle)))
    run = tmp_path / "run"
    assert (
        main(["advance", "--replies", str(replies), "--run", str(run), "--packets", str(PACKETS)])
        == 0
    )
    requests = keyed(run / "round2.jsonl")
    keys = keyed(run / "round2.key.jsonl")
    if fmt == "native":
        r2 = [
            {"packet_id": pid, "request_sha256": r["request_sha256"], "reply": "DECISION: A"}
            for pid, r in sorted(requests.items())
        ]
    else:
        r2 = chat_lines(requests, keys, oracle)
    path = tmp_path / "r2.jsonl"
    path.write_bytes(jsonl(r2))
    capsys.readouterr()
    assert (
        main(
            [
                "score",
                "--layer",
                "quick",
                "--replies",
                str(path),
                "--out",
                str(tmp_path / "s"),
                "--packets",
                str(PACKETS),
            ]
        )
        == 2
    )
    assert capsys.readouterr().err == (
        f"{PROG} score: {path}:1: a reply to a fork of a run (round 2 or later), not to a round-1 "
        "packet: score it with `score --run RUN --replies ...`\n"
    )
    assert not (tmp_path / "s").exists()


def test_replies_to_another_seed_keep_their_own_message(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    line = export_lines([QUICK.round1[sorted(QUICK.round1)[0]]], "chat-jsonl", "m")[0]
    line["id"] = str(line["id"]).replace(QUICK.packet_set, "0123456789ab")
    line["messages"] = [*line["messages"], {"role": "assistant", "content": "DECISION: A"}]  # type: ignore[misc]
    path = tmp_path / "r.jsonl"
    path.write_text(json.dumps(line) + "\n")
    assert (
        main(
            [
                "score",
                "--replies",
                str(path),
                "--out",
                str(tmp_path / "s"),
                "--packets",
                str(PACKETS),
            ]
        )
        == 2
    )
    assert "reply to packet set 0123456789ab, but these packets are set" in capsys.readouterr().err


def test_selfcheck_help_is_whole_and_version(capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit):
        main(["selfcheck", "--help"])
    text = " ".join(capsys.readouterr().out.split())
    assert (
        "Fixed policies must fail, the oracle must pass, surface shortcuts stay far below the bar; "
        "exit 1" in text
    )
    with pytest.raises(SystemExit) as done:
        main(["--version"])
    assert done.value.code == 0
    assert capsys.readouterr().out == f"honesty_pressure {__version__}\n"
