"""`answer` (a round's requests asked of a Python callable, the replies written as chat JSONL)
and `simulated_assistant` (demo's simulated assistant as such a callable): what the file holds,
byte for byte, and each bad input refused with one line naming the file, nothing written."""

from __future__ import annotations

import dataclasses
import json
from pathlib import Path

import pytest

from honesty_pressure.core.canonical import jsonl
from honesty_pressure.core.errors import InputError, KitError, OutputError, UsageError
from honesty_pressure.files.layer import load_checked_layer
from honesty_pressure.rounds.advance import ParentSet, from_layer
from honesty_pressure.runners.envelopes import read_envelopes
from honesty_pressure.runners.export import export_lines
from honesty_pressure.runners.simulate import DEMO_TRAITS, Traits, reply
from honesty_pressure.runs.answer import answer, simulated_assistant
from honesty_pressure.runs.pipeline import score_round

ROOT = Path(__file__).resolve().parents[2]
PACKETS = ROOT / "packets"
QUICK = load_checked_layer(PACKETS, "quick")
FIRST = list(QUICK.round1)[:3]
SMALL = dataclasses.replace(
    from_layer(QUICK),
    requests={pid: QUICK.round1[pid] for pid in FIRST},
    keys={pid: QUICK.key[pid] for pid in FIRST},
)
"""Three round-1 packets as a round (a ParentSet), for the tests that need no whole layer."""


def asked(pid: str) -> list[dict[str, str]]:
    """The messages of a round-1 request, as an assistant gets them."""
    messages = QUICK.round1[pid]["messages"]
    assert isinstance(messages, list)
    return [dict(m) for m in messages]


def last_words(messages: list[dict[str, str]]) -> str:
    """An assistant that repeats the last five characters of the user's message."""
    return "you said: " + messages[-1]["content"][-5:]


def test_answer_writes_each_request_and_its_reply_as_chat_jsonl(tmp_path: Path) -> None:
    out = answer(SMALL, last_words, str(tmp_path / "replies.jsonl"), model="echo-1", samples=2)
    assert out == tmp_path / "replies.jsonl"
    expected = []
    for line in export_lines(list(SMALL.requests.values()), "chat-jsonl", "", samples=2):
        messages = line["messages"]
        assert isinstance(messages, list)
        text = last_words(messages)
        expected.append({**line, "messages": [*messages, {"role": "assistant", "content": text}]})
        expected[-1]["model"] = "echo-1"
    assert out.read_bytes() == jsonl(expected)
    first = json.loads(out.read_text(encoding="utf-8").splitlines()[0])
    assert sorted(first) == ["id", "messages", "model"]
    assert first["id"].startswith(FIRST[0] + "_")
    assert first["messages"][-1] == {
        "role": "assistant",
        "content": "you said: " + asked(FIRST[0])[-1]["content"][-5:],
    }
    envelopes = read_envelopes(out)
    assert len(envelopes) == 6
    assert {e.model for e in envelopes} == {"echo-1"}
    assert [e.reply for e in envelopes[:2]] == [first["messages"][-1]["content"]] * 2


def test_a_layer_is_answered_in_file_order_and_scores(tmp_path: Path) -> None:
    seen: list[str] = []

    def recorder(messages: list[dict[str, str]]) -> str:
        seen.append(messages[1]["content"])
        messages.clear()  # the assistant gets a copy: what it does to it changes no line
        return "I would rather not say."

    out = answer(QUICK, recorder, tmp_path / "r1.jsonl")
    assert seen == [asked(pid)[1]["content"] for pid in QUICK.round1]
    lines = out.read_text(encoding="utf-8").splitlines()
    assert len(lines) == len(QUICK.round1) == 440
    assert "model" not in json.loads(lines[0])
    summary = json.loads(score_round(QUICK, [out])["summary.json"])
    assert summary["counts"]["replies"] == 440
    assert summary["counts"]["missing"] == 0


def test_no_reply_is_a_null_content_which_scores_as_a_runner_error(tmp_path: Path) -> None:
    out = answer(SMALL, lambda messages: None, tmp_path / "r.jsonl")
    line = json.loads(out.read_text(encoding="utf-8").splitlines()[0])
    assert line["messages"][-1] == {"role": "assistant", "content": None}
    assert [e.error for e in read_envelopes(out)] == ["null content"] * 3


def test_a_reply_that_is_not_text_is_refused_and_nothing_is_written(tmp_path: Path) -> None:
    out = tmp_path / "r.jsonl"
    with pytest.raises(InputError) as caught:
        answer(SMALL, lambda messages: 42, out)  # type: ignore[arg-type, return-value]
    pid = FIRST[0]
    assert caught.value.one_line().startswith(
        f"{out}: assistant: answered request {pid}_"
    ) and caught.value.one_line().endswith(
        " with int, not text (or None for no reply); nothing was written"
    )
    assert not out.exists()


def test_an_error_in_the_assistant_reaches_the_caller_with_nothing_written(
    tmp_path: Path,
) -> None:
    calls = []

    def flaky(messages: list[dict[str, str]]) -> str:
        calls.append(1)
        if len(calls) == 2:
            raise TimeoutError("the API timed out")
        return "fine"

    with pytest.raises(TimeoutError, match="timed out"):
        answer(SMALL, flaky, tmp_path / "r.jsonl")
    assert list(tmp_path.iterdir()) == []


def test_an_existing_file_is_never_replaced(tmp_path: Path) -> None:
    out = tmp_path / "r.jsonl"
    out.write_bytes(b"paid-for replies\n")
    with pytest.raises(OutputError) as caught:
        answer(SMALL, last_words, out)
    assert caught.value.one_line() == (
        f"{out}: exists; replies are never replaced: give answer a new file"
    )
    assert out.read_bytes() == b"paid-for replies\n"
    link = tmp_path / "link.jsonl"
    link.symlink_to(tmp_path / "nowhere.jsonl")
    with pytest.raises(OutputError) as caught:
        answer(SMALL, last_words, link)
    assert caught.value.one_line() == (
        f"{link}: is a symbolic link; the kit never writes through one"
    )
    assert not (tmp_path / "nowhere.jsonl").exists()


def test_a_folder_the_packets_and_a_missing_folder_are_refused(tmp_path: Path) -> None:
    with pytest.raises(OutputError) as caught:
        answer(SMALL, last_words, tmp_path)
    assert caught.value.one_line() == f"{tmp_path}: is a folder; give a file name for the replies"
    inside = PACKETS / "quick" / "replies.jsonl"
    with pytest.raises(OutputError) as caught:
        answer(SMALL, last_words, inside)
    assert caught.value.one_line() == (
        f"{inside}: is inside the packet layer {(PACKETS / 'quick').resolve()}; write elsewhere"
    )
    assert not inside.exists()
    missing = tmp_path / "no" / "such" / "r.jsonl"
    answer(SMALL, last_words, missing)  # the folders are made, as an export makes them
    assert len(missing.read_text(encoding="utf-8").splitlines()) == 3


def test_samples_below_one_and_an_empty_model_name_are_refused(tmp_path: Path) -> None:
    out = tmp_path / "r.jsonl"
    with pytest.raises(InputError) as caught:
        answer(SMALL, last_words, out, samples=0)
    assert caught.value.one_line() == "samples: expected a positive whole number, got 0"
    with pytest.raises(InputError) as caught:
        answer(SMALL, last_words, out, model="")
    assert caught.value.one_line() == "model: name the assistant, or leave it None"
    assert not out.exists()


def test_the_simulated_assistant_replies_as_simulated_reply_does() -> None:
    traits = Traits(misread=500, format_break=300)
    assistant = simulated_assistant(QUICK, traits, 11)
    for pid, request in list(QUICK.round1.items())[:40]:
        assert assistant(asked(pid)) == reply(request, QUICK.key[pid], traits, 11)
    second = FIRST[1]
    assert simulated_assistant(SMALL, DEMO_TRAITS, 7)(asked(second)) == reply(
        QUICK.round1[second], QUICK.key[second], DEMO_TRAITS, 7
    )


def test_the_simulated_assistant_knows_only_its_own_round() -> None:
    assistant = simulated_assistant(SMALL, DEMO_TRAITS, 7)
    with pytest.raises(UsageError) as caught:
        assistant(asked(list(QUICK.round1)[5]))
    assert caught.value.one_line() == (
        "these messages are no request of the round this simulated assistant was made for "
        "(make one for each round)"
    )


def test_a_round_the_simulated_assistant_cannot_serve_is_refused() -> None:
    a, b, c = FIRST
    twin = dict(SMALL.requests[b])
    twin["messages"] = SMALL.requests[a]["messages"]
    same = dataclasses.replace(SMALL, requests={**SMALL.requests, b: twin})
    with pytest.raises(UsageError) as caught:
        simulated_assistant(same, DEMO_TRAITS, 7)
    assert caught.value.one_line() == (
        f"requests {a} and {b} ask the same messages: an assistant given only the messages "
        "cannot tell them apart"
    )
    keyless = dataclasses.replace(SMALL, keys={a: SMALL.keys[a]})
    with pytest.raises(UsageError) as caught:
        simulated_assistant(keyless, DEMO_TRAITS, 7)
    assert caught.value.one_line() == (
        f"request {b} has no key: the simulated assistant reads the key"
    )
    broken = dataclasses.replace(SMALL, requests={c: {**SMALL.requests[c], "messages": "hi"}})
    with pytest.raises(KitError) as raised:
        simulated_assistant(broken, DEMO_TRAITS, 7)
    assert raised.value.one_line() == f"request {c} has no list of {{role, content}} chat messages"


def test_a_parent_set_and_its_layer_are_answered_alike(tmp_path: Path) -> None:
    whole: ParentSet = from_layer(QUICK)
    one = answer(whole, simulated_assistant(whole, DEMO_TRAITS, 7), tmp_path / "a.jsonl")
    two = answer(QUICK, simulated_assistant(QUICK, DEMO_TRAITS, 7), tmp_path / "b.jsonl")
    assert one.read_bytes() == two.read_bytes()
