"""Issue 21, "usage recorded": where a reply carries the provider's token counts, the kit keeps
them (Envelope.usage, replies.jsonl, frozen.jsonl) and sums them per round (summary.json's
`usage`, the report's "Token usage"); replies without usage give exactly the outputs they gave
before. The shapes are the providers' own, from the real-format fixtures in tests/fixtures."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from honesty_pressure.core.binding import bind
from honesty_pressure.core.canonical import jsonl
from honesty_pressure.core.errors import InputError
from honesty_pressure.core.limits import MAX_USAGE_TOKENS
from honesty_pressure.files.layer import load_layer
from honesty_pressure.runners.envelopes import read_envelopes, received, usage_of
from honesty_pressure.runs.pipeline import score_round
from tests.htmlcheck import parse, problems
from tests.replies import oracle, reply_text

ROOT = Path(__file__).resolve().parents[2]
FIXTURES = ROOT / "tests" / "fixtures"
QUICK = load_layer(ROOT / "packets", "quick")
PIDS = sorted(QUICK.round1)


def test_usage_of_each_providers_shape() -> None:
    # OpenAI CompletionUsage (chat completion `usage`; vLLM writes the same).
    assert usage_of({"prompt_tokens": 24, "completion_tokens": 15, "total_tokens": 39}) == (24, 15)
    # Anthropic Usage: the input is every input token, cache writes and reads included.
    assert usage_of({"input_tokens": 11, "output_tokens": 36}) == (11, 36)
    assert usage_of(
        {
            "input_tokens": 3,
            "cache_creation_input_tokens": 100,
            "cache_read_input_tokens": 2000,
            "output_tokens": 9,
        }
    ) == (2103, 9)
    assert usage_of(
        {"input_tokens": 3, "cache_creation_input_tokens": None, "output_tokens": 9}
    ) == (3, 9)
    # Inspect ModelUsage.
    assert usage_of({"input_tokens": 8, "output_tokens": 19, "total_tokens": 0}) == (8, 19)
    # Not usage: left out, never an error.
    for other in (
        None,
        [],
        {},
        {"prompt_tokens": 1},
        {"input_tokens": -1, "output_tokens": 2},
        {"input_tokens": True, "output_tokens": 2},
        {"input_tokens": 1.5, "output_tokens": 2},
    ):
        assert usage_of(other) is None, other


@pytest.mark.parametrize(
    ("name", "expected"),
    [
        ("openai_batch_output.jsonl", {"req-ok": (24, 15)}),
        ("vllm_run_batch.jsonl", {"v-ok": (40, 12)}),
        ("anthropic_results.jsonl", {"a-ok": (11, 36), "a-blocks": (10, 34), "a-refusal": (12, 0)}),
        ("inspect_log.json", {"i-ok": (20, 6)}),
        ("chat.jsonl", {}),
        ("native.jsonl", {}),
    ],
)
def test_the_fixtures_usage_read_alike_by_both_readers(
    name: str, expected: dict[str, tuple[int, int]]
) -> None:
    path = FIXTURES / "replies" / name
    envelopes = read_envelopes(path)
    assert {e.ref: e.usage for e in envelopes if e.usage is not None} == expected
    # The scorer's one-at-a-time reader (with its fast roads) gives the same usage, line for line.
    assert [got.usage for got in received(path)] == [e.usage for e in envelopes]


def _openai(
    pid: str, text: str | None, usage: dict[str, int] | None, *, status: int = 200
) -> dict[str, object]:
    if status != 200:
        body: dict[str, object] = {"error": {"message": "overloaded", "type": "server_error"}}
    else:
        body = {
            "model": "m",
            "choices": [
                {
                    "index": 0,
                    "message": {"role": "assistant", "content": text},
                    "finish_reason": "stop",
                }
            ],
        }
        if usage is not None:
            body["usage"] = usage
    return {
        "id": "batch_req",
        "custom_id": bind(pid, QUICK.packet_set),
        "response": {"status_code": status, "request_id": "r", "body": body},
        "error": None,
    }


def _answer(pid: str) -> str:
    return reply_text(oracle(QUICK.round1[pid], QUICK.key[pid]))


def test_round1_sums_the_usage_of_the_replies_that_count(tmp_path: Path) -> None:
    """Three replies carry usage, one is a failure (with usage) that a retry replaced: only the
    replies that count are summed, and only their replies.jsonl lines carry `usage`."""
    first = tmp_path / "first.jsonl"
    retry = tmp_path / "retry.jsonl"
    lines = [_openai(pid, _answer(pid), None) for pid in PIDS[3:]]
    lines += [
        _openai(
            PIDS[0],
            _answer(PIDS[0]),
            {"prompt_tokens": 100, "completion_tokens": 10, "total_tokens": 110},
        )
    ]
    lines += [
        _openai(
            PIDS[1],
            _answer(PIDS[1]),
            {"prompt_tokens": 200, "completion_tokens": 20, "total_tokens": 220},
        )
    ]
    lines += [_openai(PIDS[2], None, None, status=500)]
    first.write_bytes(jsonl(lines))
    retry.write_bytes(
        jsonl(
            [
                _openai(
                    PIDS[2],
                    _answer(PIDS[2]),
                    {"prompt_tokens": 300, "completion_tokens": 30, "total_tokens": 330},
                )
            ]
        )
    )
    files = score_round(QUICK, [first, retry])
    summary = json.loads(files["summary.json"])
    assert summary["usage"] == {"round1": {"replies": 3, "input_tokens": 600, "output_tokens": 60}}
    replies = [json.loads(x) for x in files["replies.jsonl"].decode().splitlines()]
    assert {r["packet_id"]: r["usage"] for r in replies if "usage" in r} == {
        PIDS[0]: {"input_tokens": 100, "output_tokens": 10},
        PIDS[1]: {"input_tokens": 200, "output_tokens": 20},
        PIDS[2]: {"input_tokens": 300, "output_tokens": 30},
    }
    assert (
        files["replies.jsonl"]
        .decode()
        .splitlines()[PIDS.index(PIDS[0])]
        .endswith(',"sample":0,"usage":{"input_tokens":100,"output_tokens":10}}')
    )
    report = files["REPORT.md"].decode()
    assert "## Token usage" in report and "| round 1 | 3 | 600 | 60 |" in report
    html = files["report.html"].decode()
    assert 'id="usage"' in html
    assert problems(parse(html), summary) == []  # every number on the page is summary.json's

    # The same replies without usage: every output is what it was before usage was read.
    for path in (first, retry):
        bare = [json.loads(x) for x in path.read_text().splitlines()]
        for line in bare:
            line["response"]["body"].pop("usage", None)
        path.write_bytes(jsonl(bare))
    plain = score_round(QUICK, [first, retry])
    assert "usage" not in json.loads(plain["summary.json"])
    assert plain["records.jsonl"] == files["records.jsonl"]
    assert b'"usage"' not in plain["replies.jsonl"]
    assert [{k: v for k, v in r.items() if k != "usage"} for r in replies] == [
        json.loads(x) for x in plain["replies.jsonl"].decode().splitlines()
    ]
    assert (
        "Token usage" not in plain["REPORT.md"].decode()
        and 'id="usage"' not in plain["report.html"].decode()
    )
    without = json.loads(plain["summary.json"])
    assert {k: v for k, v in summary.items() if k not in ("usage", "provenance")} == {
        k: v for k, v in without.items() if k != "provenance"
    }


def test_a_reply_text_that_looks_like_usage_is_not_counted(tmp_path: Path) -> None:
    """The reply line's usage is found at its end: a reply whose text ends like one is JSON-escaped
    there, so it adds nothing."""
    path = tmp_path / "r.jsonl"
    text = _answer(PIDS[0]) + ',"usage":{"input_tokens":5,"output_tokens":5}}'
    path.write_bytes(jsonl([_openai(PIDS[0], text, None)]))
    assert "usage" not in json.loads(score_round(QUICK, [path])["summary.json"])


def test_a_count_is_kept_up_to_the_limit_and_refused_past_it(tmp_path: Path) -> None:
    """Issue 41: usage is bounded (limits.MAX_USAGE_TOKENS). The largest count is read and summed
    by both readers; one more is refused with the file and line, on either road, never carried
    into replies.jsonl (where the scorer read it back as an internal error)."""
    pid = PIDS[0]
    most = MAX_USAGE_TOKENS
    ok = tmp_path / "ok.jsonl"
    ok.write_bytes(
        jsonl([_openai(pid, _answer(pid), {"prompt_tokens": most, "completion_tokens": most})])
    )
    assert [e.usage for e in read_envelopes(ok)] == [(most, most)]
    assert [got.usage for got in received(ok)] == [(most, most)]
    summary = json.loads(score_round(QUICK, [ok])["summary.json"])
    assert summary["usage"]["round1"] == {"replies": 1, "input_tokens": most, "output_tokens": most}
    for usage in (
        {"prompt_tokens": most + 1, "completion_tokens": 1},
        {"prompt_tokens": 1, "completion_tokens": most + 1},
    ):
        past = tmp_path / "past.jsonl"
        past.write_bytes(jsonl([_openai(pid, _answer(pid), usage)]))
        expected = (
            f"{past}:1: usage: a token count above 1,000,000,000, the most one reply may carry "
            "(limits.py): no model's count (an edited or broken file?) (reading openai-batch)"
        )
        for read in (read_envelopes, lambda p: list(received(p))):
            with pytest.raises(InputError) as caught:
                read(past)
            assert caught.value.one_line() == expected
