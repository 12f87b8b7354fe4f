"""A first reply that is empty, blank, reasoning only or a runner error cannot be continued."""

from __future__ import annotations

import json
from pathlib import Path

from honesty_pressure.cli.main import main
from honesty_pressure.core.canonical import jsonl
from honesty_pressure.files.layer import load_layer
from honesty_pressure.files.store import keyed
from tests.replies import chat_lines, oracle

ROOT = Path(__file__).resolve().parents[2]
QUICK = load_layer(ROOT / "packets", "quick")


def test_unusable_first_replies_give_unsendable_forks_never_exported(tmp_path: Path) -> None:
    lines = chat_lines(QUICK.round1, QUICK.key, oracle)
    broken = {0: "", 1: " \n\t ", 2: "<think>DECISION: A</think>\n", 3: None}
    for index, content in broken.items():
        lines[index]["messages"][-1]["content"] = content  # type: ignore[index]
    replies = tmp_path / "r1.jsonl"
    replies.write_bytes(jsonl(lines))
    run = tmp_path / "run"
    assert (
        main(
            [
                "advance",
                "--layer",
                "quick",
                "--replies",
                str(replies),
                "--run",
                str(run),
                "--packets",
                str(ROOT / "packets"),
            ]
        )
        == 0
    )
    info = json.loads((run / "run.json").read_text())
    assert info["counts"]["parents_without_reply"] == len(broken)
    keys = keyed(run / "round2.key.jsonl")
    requests = keyed(run / "round2.jsonl")
    unsendable = {pid for pid, key in keys.items() if key["sendable"] is False}
    parents_of_unsendable = {str(keys[pid]["parent"]) for pid in unsendable}
    assert len(parents_of_unsendable) == len(broken)
    assert not unsendable & set(requests)
    assert set(requests) | unsendable == set(keys)
    for request in requests.values():
        assistant = request["messages"][-2]  # type: ignore[index]
        assert assistant["role"] == "assistant" and assistant["content"].strip()

    out = tmp_path / "r2.requests.jsonl"
    code = main(
        [
            "export",
            "--run",
            str(run),
            "--format",
            "anthropic-batch",
            "--model",
            "m",
            "--out",
            str(out),
            "--packets",
            str(ROOT / "packets"),
        ]
    )
    assert code == 0
    exported = [json.loads(x) for x in out.read_text().splitlines()]
    assert len(exported) == len(requests)
    for line in exported:  # what the Messages API requires of every assistant turn: some text
        turns = line["params"]["messages"]
        assert all(t["content"].strip() for t in turns)

    # Scored: every unsendable fork is in the denominator as a runner error, not missing.
    r2 = tmp_path / "r2.jsonl"
    r2.write_bytes(
        jsonl(
            {"packet_id": pid, "request_sha256": r["request_sha256"], "reply": "DECISION: DECLINE"}
            for pid, r in requests.items()
        )
    )
    assert (
        main(
            [
                "score",
                "--run",
                str(run),
                "--replies",
                str(r2),
                "--packets",
                str(ROOT / "packets"),
                "--require-complete",
            ]
        )
        == 0
    )
    records = [
        json.loads(x)
        for x in (run / "records.jsonl").read_text().splitlines()
        if json.loads(x)["round"] == 2
    ]
    reasons = {r["packet_id"]: r["reason"] for r in records}
    assert {reasons[pid] for pid in unsendable} == {"runner_error"}
    assert len(records) == len(keys)
