"""Reasoning is not the reply: leading think blocks and reasoning fields never reach the
decision."""

from __future__ import annotations

import dataclasses
import json
from pathlib import Path

import pytest
from hypothesis import given
from hypothesis import strategies as st

from honesty_pressure.core.binding import bind
from honesty_pressure.core.canonical import jsonl
from honesty_pressure.core.parse import Parsed, answer_text, decision_line, parse_decision
from honesty_pressure.files.layer import load_layer
from honesty_pressure.rounds.advance import advance, from_layer
from honesty_pressure.runners.envelopes import read_envelopes

ROOT = Path(__file__).resolve().parents[2]
QUICK = load_layer(ROOT / "packets", "quick")
MENU = ["A", "B", "ASK minutes_out", "ESCALATE", "DECLINE"]


@pytest.mark.parametrize(
    ("reply", "answer"),
    [
        ("<think>DECISION: A</think>\n\nDECISION: B", "DECISION: B"),
        ("<thinking>\nmaybe A\n</thinking>DECISION: B", "DECISION: B"),
        ("  <Think>a</think> <think>b</think>\nDECISION: B", "DECISION: B"),
        ("<reasoning>A?</reasoning>\nDECISION: B", "DECISION: B"),
        ("<think>DECISION: A, out of tokens", ""),  # never closed: all reasoning
        (
            "the template opened it\nDECISION: A\n</think>\n\nDECISION: B",
            "DECISION: B",
        ),  # pre-filled <think>
        (
            "DECISION: B\n<think>aside</think>",
            "DECISION: B\n<think>aside</think>",
        ),  # only a leading block
        ("No tags here.\nDECISION: B", "No tags here.\nDECISION: B"),
        ("", ""),
    ],
)
def test_answer_text_examples(reply: str, answer: str) -> None:
    assert answer_text(reply) == answer


def test_a_draft_decision_in_reasoning_never_counts() -> None:
    assert parse_decision("<think>DECISION: A\nno wait</think>\nDECISION: B", MENU) == Parsed(
        decision="B", reason=None
    )
    assert parse_decision("<think>DECISION: A</think>", MENU) == Parsed(
        decision=None, reason="empty_reply"
    )
    assert parse_decision("<think>DECISION: A</think>\nI'd keep it.", MENU) == Parsed(
        decision=None, reason="no_decision_line"
    )


no_tags = st.text(st.characters(exclude_categories=["Cs"]), max_size=120).filter(
    lambda t: "<" not in t
)
prose = no_tags.filter(lambda t: "decision" not in t.lower())


@given(
    no_tags,
    st.sampled_from(MENU),
    st.sampled_from(MENU),
    st.sampled_from(["think", "thinking", "THINK"]),
    prose,
)
def test_whatever_the_reasoning_says_the_answer_decides(
    draft_text: str, draft: str, final: str, tag: str, after: str
) -> None:
    reply = (
        f"<{tag}>{draft_text}\n{decision_line(draft)}\n</{tag}>\n{after}\n{decision_line(final)}"
    )
    assert parse_decision(reply, MENU) == Parsed(decision=final, reason=None)


@given(st.text(max_size=200))
def test_answer_text_is_idempotent_and_leaves_tagless_text_alone(text: str) -> None:
    once = answer_text(text)
    assert answer_text(once) == once
    if "<" not in text:
        assert once == text


def _openai_line(pid: str, message: dict[str, object]) -> dict[str, object]:
    body = {
        "model": "deepseek-r1",
        "choices": [{"index": 0, "message": message, "finish_reason": "stop"}],
    }
    return {
        "id": "b",
        "custom_id": bind(pid, QUICK.packet_set),
        "response": {"status_code": 200, "body": body},
        "error": None,
    }


def test_reasoning_fields_beside_content_are_ignored(tmp_path: Path) -> None:
    pids = sorted(QUICK.round1)[:4]
    lines = [
        _openai_line(
            pids[0],
            {
                "role": "assistant",
                "content": "Keep it.\nDECISION: B",
                "reasoning_content": "DECISION: A",
            },
        ),
        _openai_line(
            pids[1],
            {
                "role": "assistant",
                "content": "<think>DECISION: A</think>\nDECISION: B",
                "reasoning": "x",
            },
        ),
        _openai_line(
            pids[2],
            {
                "role": "assistant",
                "content": None,
                "reasoning_content": "DECISION: A and then I ran out",
            },
        ),
        _openai_line(pids[3], {"role": "assistant", "content": "", "reasoning": "DECISION: A"}),
    ]
    lines[2]["response"]["body"]["choices"][0]["finish_reason"] = "length"  # type: ignore[index]
    path = tmp_path / "vllm.jsonl"
    path.write_bytes(jsonl(lines))
    got = [(e.reply, e.error) for e in read_envelopes(path)]
    assert got == [
        ("Keep it.\nDECISION: B", None),
        ("DECISION: B", None),
        (None, "null content (finish_reason: length, reasoning only)"),
        ("", None),
    ]


def test_anthropic_thinking_blocks_and_chat_think_tags(tmp_path: Path) -> None:
    pid = sorted(QUICK.round1)[0]
    content = [
        {"type": "thinking", "thinking": "DECISION: A", "signature": "sig"},
        {"type": "redacted_thinking", "data": "opaque"},
        {"type": "text", "text": "DECISION: B"},
    ]
    message = {
        "type": "message",
        "role": "assistant",
        "model": "claude",
        "content": content,
        "stop_reason": "end_turn",
    }
    path = tmp_path / "a.jsonl"
    path.write_bytes(
        jsonl(
            [
                {
                    "custom_id": bind(pid, QUICK.packet_set),
                    "result": {"type": "succeeded", "message": message},
                }
            ]
        )
    )
    assert read_envelopes(path)[0].reply == "DECISION: B"
    messages = [
        *QUICK.round1[pid]["messages"],
        {"role": "assistant", "content": "<think>\nDECISION: A\n</think>\n\nDECISION: B"},
    ]  # type: ignore[misc]
    path.write_bytes(jsonl([{"id": bind(pid, QUICK.packet_set), "messages": messages}]))
    assert read_envelopes(path)[0].reply == "DECISION: B"


def test_forks_carry_the_answer_without_its_reasoning(tmp_path: Path) -> None:
    """The assistant turn sent back in round 2 is the answer the user saw, reasoning removed."""
    pids = sorted(QUICK.round1)[:2]
    lines = [
        {
            "packet_id": pids[0],
            "request_sha256": QUICK.round1[pids[0]]["request_sha256"],
            "reply": "<think>DECISION: A</think>\n\nDECISION: B",
        },
        {
            "packet_id": pids[1],
            "request_sha256": QUICK.round1[pids[1]]["request_sha256"],
            "reply": "<think>only thinking</think>",
        },
    ]
    path = tmp_path / "r1.jsonl"
    path.write_bytes(jsonl(lines))
    parents = dataclasses.replace(from_layer(QUICK), requests={p: QUICK.round1[p] for p in pids})
    files = advance(parents, [path])
    frozen = {
        json.loads(x)["packet_id"]: json.loads(x)
        for x in files["frozen.jsonl"].decode().splitlines()
    }
    assert frozen[pids[0]]["reply"] == "DECISION: B" and frozen[pids[0]]["decision"] == "B"
    assert frozen[pids[1]]["reply"] == "" and frozen[pids[1]]["reason"] == "empty_reply"
    requests = [json.loads(x) for x in files["round2.jsonl"].decode().splitlines()]
    assert requests and all(
        r["parent"] == pids[0] for r in requests
    )  # the reasoning-only parent is not sendable
    assert all(
        r["messages"][-2] == {"role": "assistant", "content": "DECISION: B"} for r in requests
    )
