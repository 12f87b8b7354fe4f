"""The two roads through a reply file agree (issue 24): the strict reader of each format
(`read_envelopes`, one `*_envelope` function per format) and the streaming road that scoring
takes (`Replies`: a fast function per format for a plain success, the strict reader for anything
else) give the same record, or the same error at the same place, on every input.

Lines are generated in every JSONL format, valid and not: plain successes, refusals, runner
errors, HTTP errors, content parts, reasoning blocks and tags, bound ids with samples near the
limit, replies near the length limit, unicode, huge and wrong-typed numbers, missing fields and
fields of the wrong type anywhere in the record, duplicate keys, blank lines and a byte order
mark. The digest a reading reports is the SHA-256 of the bytes it read, whether they came from a
pipe (held in memory) or a regular file (hashed through the buffered reader as it is read).
"""

from __future__ import annotations

import hashlib
import json
from pathlib import Path
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from honesty_pressure.core.binding import unbind
from honesty_pressure.core.construct import Format
from honesty_pressure.core.errors import InputError
from honesty_pressure.core.limits import MAX_REPLY_CHARS, MAX_SAMPLES
from honesty_pressure.files.store import jsonl_bytes
from honesty_pressure.runners.envelopes import (
    FAST_READERS,
    Received,
    Replies,
    ReplySource,
    read_envelopes,
    read_envelopes_bytes,
    read_file,
    read_line,
    received_of,
)

FIXTURES = Path(__file__).resolve().parents[1] / "fixtures" / "replies"
JSONL_FORMATS: list[Format] = ["native", "openai-batch", "anthropic-batch", "chat-jsonl"]
MANY = settings(max_examples=max(100, settings().max_examples), deadline=None)
"""At least 100 files per format (the thorough profile's 300 when it is loaded)."""

# --- pieces ----------------------------------------------------------------------------------

anything = st.recursive(
    st.none()
    | st.booleans()
    | st.integers(min_value=-(10**40), max_value=10**40)
    | st.floats(allow_nan=False)
    | st.text(max_size=12),
    lambda inner: (
        st.lists(inner, max_size=3) | st.dictionaries(st.text(max_size=8), inner, max_size=3)
    ),
    max_leaves=8,
)
"""Any JSON value: what a field of the wrong type holds."""

texts = st.one_of(
    st.text(max_size=40),
    st.sampled_from(
        [
            "",
            " ",
            "\n",
            "DECISION: A",
            "Go ahead.\nDECISION: B",
            "<think>hmm</think>DECISION: A",
            "<think>never closed",
            "é\u2028ß ✓ 😀 DECISION: C",
            "\u0000",
            "a" * 300,
        ]
    ),
    st.sampled_from([MAX_REPLY_CHARS - 1, MAX_REPLY_CHARS, MAX_REPLY_CHARS + 1]).map(
        lambda n: "x" * n
    ),
    st.sampled_from([MAX_REPLY_CHARS]).map(lambda n: "<think>" + "y" * 20 + "</think>" + "x" * n),
)
samples: st.SearchStrategy[Any] = st.one_of(
    st.integers(min_value=-2, max_value=5),
    st.sampled_from([MAX_SAMPLES - 1, MAX_SAMPLES, MAX_SAMPLES + 1, 10**30]),
    st.sampled_from([None, True, False, 1.0, "1", [], {}]),
)
ids = st.one_of(
    st.sampled_from(
        [
            "food-000-0ce52d",
            "p",
            "",
            "p_abc123def456",
            "p_abc123def456_s3",
            f"p_abc123def456_s{MAX_SAMPLES - 1}",
            f"p_abc123def456_s{MAX_SAMPLES}",
            "x_s",
            "_s7",
        ]
    ),
    st.text(max_size=20),
)
models: st.SearchStrategy[Any] = st.sampled_from(
    [None, "", "gpt-4o", "claude-sonnet-4-5", 5, [], {"name": "m"}]
)
digests = st.one_of(
    st.sampled_from(["a" * 64, "A" * 64, "0123456789abcdef" * 4, "a" * 63, "g" * 64, "", 7, None]),
    st.text(alphabet="0123456789abcdefABCDEF", min_size=64, max_size=64),
)
usages = st.one_of(
    st.none(),
    st.fixed_dictionaries(
        {
            "prompt_tokens": st.integers(-1, 10**6),
            "completion_tokens": st.integers(-1, 10**6),
            "total_tokens": st.integers(0, 10),
        }
    ),
    st.fixed_dictionaries(
        {"input_tokens": st.integers(-1, 10**6), "output_tokens": st.integers(-1, 10**6)},
        optional={
            "cache_creation_input_tokens": st.integers(-1, 50) | st.none() | st.just("3"),
            "cache_read_input_tokens": st.integers(0, 50),
        },
    ),
    anything,
)
errors = st.one_of(
    st.fixed_dictionaries(
        {"code": st.sampled_from(["rate_limit", "server_error", 429]), "message": texts}
    ),
    st.fixed_dictionaries(
        {
            "type": st.just("error"),
            "error": st.fixed_dictionaries({"type": st.just("overloaded_error"), "message": texts}),
        }
    ),
    texts,
    anything,
)
parts = st.lists(
    st.one_of(
        st.fixed_dictionaries({"type": st.just("text"), "text": texts}),
        st.fixed_dictionaries(
            {
                "type": st.sampled_from(["thinking", "redacted_thinking", "image", "reasoning"]),
                "thinking": texts,
            }
        ),
        st.fixed_dictionaries({"type": st.just("text"), "text": anything}),
        anything,
    ),
    max_size=3,
)
contents = st.one_of(texts, texts, st.none(), parts, anything)


def _maybe(
    record: dict[str, Any], key: str, value: st.SearchStrategy[Any]
) -> st.SearchStrategy[dict[str, Any]]:
    """The record with `key` set to a drawn value, or without it."""
    return st.one_of(st.just(record), value.map(lambda v: {**record, key: v}))


# --- one strategy per format, valid first, then damaged ------------------------------------------


@st.composite
def native(draw: st.DrawFn) -> dict[str, Any]:
    record: dict[str, Any] = {
        "packet_id": draw(ids),
        "request_sha256": draw(digests),
        "reply": draw(texts),
    }
    if draw(st.booleans()):
        record["model"] = draw(models)
    if draw(st.booleans()):
        record["sample"] = draw(samples)
    return record


@st.composite
def openai_batch(draw: st.DrawFn) -> dict[str, Any]:
    message: dict[str, Any] = {"role": "assistant", "content": draw(contents)}
    if draw(st.booleans()):
        message["refusal"] = draw(st.sampled_from([None, "", "I can't help with that.", 5]))
    if draw(st.booleans()):
        message[draw(st.sampled_from(["reasoning_content", "reasoning"]))] = draw(texts)
    choice: dict[str, Any] = {
        "index": 0,
        "message": message,
        "finish_reason": draw(st.sampled_from(["stop", "length", "content_filter", None, 3])),
    }
    body: Any = draw(
        st.one_of(
            st.fixed_dictionaries(
                {
                    "model": models,
                    "choices": st.one_of(
                        st.just([choice]), st.just([]), st.just([choice, choice]), anything
                    ),
                },
                optional={"usage": usages},
            ),
            st.fixed_dictionaries({"error": errors}),
            st.none(),
            anything,
        )
    )
    status = draw(
        st.sampled_from([200, 200, 201, 299, 300, 400, 429, 500, None, "200", True, 200.0])
    )
    response: Any = draw(
        st.one_of(
            st.just({"status_code": status, "request_id": "req", "body": body}), st.none(), anything
        )
    )
    record: dict[str, Any] = {"id": "batch_req_1", "custom_id": draw(ids), "response": response}
    record["error"] = draw(st.one_of(st.none(), st.none(), errors))
    return record


@st.composite
def anthropic_batch(draw: st.DrawFn) -> dict[str, Any]:
    kind = draw(
        st.sampled_from(
            ["succeeded", "succeeded", "succeeded", "errored", "canceled", "expired", "unknown", 5]
        )
    )
    message: dict[str, Any] = {
        "model": draw(models),
        "content": draw(st.one_of(parts, parts, contents)),
        "stop_reason": draw(st.sampled_from(["end_turn", "max_tokens", "refusal", None, 1])),
    }
    if draw(st.booleans()):
        message["usage"] = draw(usages)
    result: dict[str, Any] = {"type": kind}
    if draw(st.integers(0, 4)):
        result["message"] = draw(st.one_of(st.just(message), st.just(message), anything))
    if kind == "errored" or draw(st.booleans()):
        result["error"] = draw(st.one_of(st.none(), errors))
    return {
        "custom_id": draw(ids),
        "result": draw(st.one_of(st.just(result), st.just(result), anything)),
    }


@st.composite
def chat_jsonl(draw: st.DrawFn) -> dict[str, Any]:
    turns = draw(
        st.lists(
            st.fixed_dictionaries(
                {"role": st.sampled_from(["system", "user", "assistant"]), "content": contents}
            ),
            max_size=3,
        )
    )
    last = {
        "role": draw(st.sampled_from(["assistant", "assistant", "user", 7])),
        "content": draw(contents),
    }
    if draw(st.booleans()):
        # OpenAI's message field, which the example runner keeps: a refusal beside any content.
        last["refusal"] = draw(st.one_of(st.none(), st.just(""), texts, anything))
    record: dict[str, Any] = {
        "id": draw(st.one_of(ids, st.integers(-5, 10**20), st.none())),
        "messages": draw(st.one_of(st.just([*turns, last]), st.just([]), anything)),
    }
    if draw(st.booleans()):
        record["model"] = draw(models)
    if draw(st.booleans()):
        record["usage"] = draw(usages)
    return record


STRATEGIES: dict[Format, st.SearchStrategy[dict[str, Any]]] = {
    "native": native(),
    "openai-batch": openai_batch(),
    "anthropic-batch": anthropic_batch(),
    "chat-jsonl": chat_jsonl(),
}


@st.composite
def damaged(draw: st.DrawFn, record: dict[str, Any]) -> dict[str, Any]:
    """The record with one field, at any depth, removed or given a value of another type."""
    path: list[Any] = []
    node: Any = record
    while isinstance(node, dict) and node and draw(st.booleans()):
        key = draw(st.sampled_from(sorted(node)))
        path.append(key)
        node = node[key]
    if not path:
        return record
    out: dict[str, Any] = json.loads(json.dumps(record))
    parent = out
    for key in path[:-1]:
        parent = parent[key]
    if draw(st.booleans()):
        del parent[path[-1]]
    else:
        parent[path[-1]] = draw(anything)
    return out


def lines_of(fmt: Format) -> st.SearchStrategy[bytes]:
    """A file of 1..4 records of `fmt` (some damaged), with the odd raw line between them."""
    record = STRATEGIES[fmt].flatmap(lambda r: st.one_of(st.just(r), damaged(r)))
    encoded = st.tuples(record, st.booleans()).map(lambda ra: json.dumps(ra[0], ensure_ascii=ra[1]))
    raw = st.sampled_from(
        [
            "",
            "   ",
            '{"packet_id": "a", "packet_id": "b", "request_sha256": "'
            + "a" * 64
            + '", "reply": "x"}',
            '{"custom_id": "a", "custom_id": "a", "result": {"type": "canceled"}}',
            '{"packet_id": "p", "request_sha256": "'
            + "a" * 64
            + '", "reply": "x", "sample": '
            + "9" * 5000
            + "}",
            '{"packet_id": "p", "request_sha256": "' + "a" * 64 + '", "reply": "\\ud800"}',
            '{"id": "p", "messages": [{"role": "assistant", "content": NaN}]}',
            "[1, 2]",
            "not json",
        ]
    )
    line = st.one_of(encoded, encoded, encoded, raw)
    return st.tuples(st.lists(line, min_size=1, max_size=4), st.booleans()).map(
        lambda lb: (
            (b"\xef\xbb\xbf" if lb[1] else b"")
            + "".join(f"{text}\n" for text in lb[0]).encode("utf-8", "surrogatepass")
        )
    )


# --- the two roads -------------------------------------------------------------------------------

Outcome = tuple[str, object]


def strict(data: bytes, name: str, fmt: Format | None) -> Outcome:
    try:
        return "read", [received_of(env) for env in read_envelopes_bytes(data, name, fmt)]
    except InputError as exc:
        return "error", exc.one_line()


def streamed(data: bytes, name: str, fmt: Format | None) -> Outcome:
    got: list[Received] = []
    try:
        replies = Replies(ReplySource(Path(name), data), fmt)
        got.extend(replies)
    except InputError as exc:
        return "error", exc.one_line()
    assert replies.file.sha256 == hashlib.sha256(data).hexdigest()
    assert replies.file.format == (fmt or replies.format)
    return "read", got


def line_by_line(data: bytes, name: str, fmt: Format) -> Outcome:
    """`read_line` (the fast road with its fallback, one record at a time) on each parsed line."""
    try:
        return "read", [
            read_line(record, name, number, fmt) for number, record in jsonl_bytes(data, name)
        ]
    except InputError as exc:
        return "error", exc.one_line()


@MANY
@given(data=st.data())
@pytest.mark.parametrize("fmt", JSONL_FORMATS)
def test_the_strict_and_the_streaming_readers_agree_on_every_line(
    fmt: Format, data: st.DataObject
) -> None:
    text = data.draw(lines_of(fmt))
    name = "replies.jsonl"
    expected = strict(text, name, fmt)
    assert streamed(text, name, fmt) == expected
    assert streamed(text, name, None) == strict(text, name, None)
    if expected[0] == "read":
        assert line_by_line(text, name, fmt) == expected


@MANY
@given(data=st.data())
@pytest.mark.parametrize("fmt", JSONL_FORMATS)
def test_a_fast_reader_takes_only_what_the_strict_reader_reads_the_same(
    fmt: Format, data: st.DataObject
) -> None:
    """Record by record: whenever the fast road accepts a record (within the limits), the strict
    reader reads that record to exactly the same values."""
    record = data.draw(STRATEGIES[fmt].flatmap(lambda r: st.one_of(st.just(r), damaged(r))))
    fast = FAST_READERS[fmt](record, "r.jsonl", 1)
    line = json.dumps(record).encode("utf-8")
    expected = strict(line, "r.jsonl", fmt)
    within = (
        fast is not None
        and fast.sample < MAX_SAMPLES
        and (unbind(fast.ref).sample or 0) < MAX_SAMPLES
        and len(fast.reply or "") <= MAX_REPLY_CHARS
    )
    if within:
        assert expected == ("read", [fast])
    assert line_by_line(line, "r.jsonl", fmt) == expected


@pytest.mark.parametrize("name", sorted(p.name for p in FIXTURES.iterdir()))
def test_every_fixture_reads_the_same_both_ways_and_is_hashed_as_read(name: str) -> None:
    path = FIXTURES / name
    replies = Replies(ReplySource.of(path))
    assert list(replies) == [received_of(env) for env in read_envelopes(path)]
    envelopes, file = read_file(ReplySource.of(path))
    assert replies.file == file
    assert file.sha256 == hashlib.sha256(path.read_bytes()).hexdigest()


def test_a_regular_file_is_hashed_by_the_reading_even_past_one_buffer_and_for_a_shard(
    tmp_path: Path,
) -> None:
    """A file of several MiB, read as a shard (every other line): the digest is still of every
    byte, taken by the one reading (the lines not selected pass through the hash too)."""
    line = {"packet_id": "p", "request_sha256": "a" * 64, "reply": "DECISION: A " + "z" * 2000}
    data = b"".join(json.dumps({**line, "sample": n % 5}).encode() + b"\n" for n in range(3000))
    path = tmp_path / "big.jsonl"
    path.write_bytes(data + b"\n\n")
    replies = Replies(ReplySource.of(path), None, lambda number: number % 2 == 0)
    assert len(list(replies)) == 1500
    assert replies.file.sha256 == hashlib.sha256(data + b"\n\n").hexdigest()
    with pytest.raises(RuntimeError):
        _ = Replies(ReplySource.of(path)).file  # known only once read


def test_a_pipe_named_twice_is_read_once_and_a_new_source_reads_afresh(tmp_path: Path) -> None:
    """No reading is remembered between calls: the bytes of a pipe live in its ReplySource."""
    from honesty_pressure.runners.envelopes import each_source, read_replies

    path = tmp_path / "r.jsonl"
    path.write_bytes(
        json.dumps({"packet_id": "p", "request_sha256": "a" * 64, "reply": "DECISION: A"}).encode()
        + b"\n"
    )
    first, second = each_source([path, path])
    assert first is second
    envelopes, files = read_replies([path, path])
    assert len(envelopes) == 2 and files[0] == files[1]
    path.write_bytes(
        json.dumps({"packet_id": "q", "request_sha256": "b" * 64, "reply": "DECISION: B"}).encode()
        + b"\n"
    )
    assert [env.ref for env in read_envelopes(path)] == ["q"]
