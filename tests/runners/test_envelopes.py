"""Reply import: every format's documented shapes, errors included, and nothing but InputError on
junk."""

from __future__ import annotations

import copy
import json
import sys
import tempfile
import zipfile
from pathlib import Path
from typing import Any

import pytest
from hypothesis import given
from hypothesis import strategies as st

from honesty_pressure.core.binding import unbind
from honesty_pressure.core.construct import FORMATS, Envelope, Format
from honesty_pressure.core.errors import InputError
from honesty_pressure.core.limits import MAX_SAMPLES
from honesty_pressure.runners.envelopes import (
    _bound_sample_allowed,
    detect_format,
    read_envelopes,
    refused,
)

FIXTURES = Path(__file__).resolve().parents[1] / "fixtures" / "replies"


def summary(envelopes: list[Envelope]) -> list[tuple[int, str, str | None, str | None, int]]:
    return [(e.line, e.ref, e.reply, e.error, e.sample) for e in envelopes]


def write(path: Path, lines: list[object]) -> Path:
    path.write_text("".join(json.dumps(line) + "\n" for line in lines), encoding="utf-8")
    return path


# --- each format's fixture ---------------------------------------------------------------------


def test_native_fixture() -> None:
    path = FIXTURES / "native.jsonl"
    envelopes = read_envelopes(path)
    assert summary(envelopes) == [
        (1, "food-000-0ce52d", "Throw the leftovers away.\nDECISION: A", None, 0),
        (2, "food-001-1a2b3c", "How long was it out?\n\nDECISION: ASK minutes_out", None, 2),
        (
            4,
            "food-002-4d5e6f_976c16bf72fa",
            "",
            None,
            0,
        ),  # line 3 is blank: numbering is the file's
    ]
    first = envelopes[0]
    assert (
        first.request_sha256 == "ff33106abf9b8d61e034285ee61b7cdbb38aa314baadecd31b1954a372881c2d"
    )
    assert (
        first.model == "example-model-1"
        and first.file == str(path)
        and first.request_messages is None
    )
    assert envelopes[1].request_sha256 is not None and envelopes[1].request_sha256.startswith(
        "aaaa"
    )  # lowercased
    assert envelopes[1].model is None and envelopes[2].model is None


def test_openai_batch_fixture() -> None:
    envelopes = read_envelopes(FIXTURES / "openai_batch_output.jsonl")
    assert summary(envelopes) == [
        (1, "req-ok", "Refrigerate it now.\nDECISION: B", None, 0),
        (2, "req-parts", "Call poison control.\nDECISION: ESCALATE", None, 0),
        (3, "req-refusal", None, "refusal: I'm sorry, I can't help with that.", 0),
        (
            4,
            "req-null",
            None,
            "refusal: content_filter",
            0,
        ),  # a content filter withheld it: a refusal
        (
            5,
            "req-400",
            None,
            "status 400: invalid_request_error: This model's maximum context length is 128000 "
            "tokens.",
            0,
        ),
        (
            6,
            "req-expired",
            None,
            "batch_expired: This request could not be executed before the completion window "
            "expired.",
            0,
        ),
    ]
    assert [e.model for e in envelopes] == [
        "gpt-4o-mini-2024-07-18",
        "gpt-4o-mini-2024-07-18",
        "gpt-4o-2024-08-06",
        "gpt-4o-mini-2024-07-18",
        None,
        None,
    ]
    assert all(e.request_sha256 is None and e.request_messages is None for e in envelopes)


def test_vllm_run_batch_fixture() -> None:
    path = FIXTURES / "vllm_run_batch.jsonl"
    assert detect_format(path) == "openai-batch"
    envelopes = read_envelopes(path)
    assert summary(envelopes) == [
        (1, "v-ok", "Better safe than sorry.\nDECISION: A", None, 0),
        (2, "v-stream", None, "status 400: Request must not be sent in stream mode", 0),
        (
            3,
            "v-nested",
            None,
            "status 400: BadRequestError: This model's maximum context length is 8192 tokens.",
            0,
        ),
        (
            4,
            "v-flat",
            None,
            "status 404: NotFoundError: The model `other-model` does not exist.",
            0,
        ),
    ]
    assert envelopes[0].model == "meta-llama/Meta-Llama-3-8B-Instruct"


def test_anthropic_batch_fixture() -> None:
    envelopes = read_envelopes(FIXTURES / "anthropic_results.jsonl")
    assert summary(envelopes) == [
        (1, "a-ok", "It has been out too long.\nDECISION: A", None, 0),
        (
            2,
            "a-blocks",
            "Here is my view.\nDECISION: ASK room_temp_f",
            None,
            0,
        ),  # thinking block ignored
        (3, "a-errored", None, "errored: invalid_request_error: max_tokens: Field required", 0),
        (4, "a-canceled", None, "canceled", 0),
        (5, "a-expired", None, "expired", 0),
        (6, "a-refusal", None, "refusal", 0),
    ]
    assert [e.model for e in envelopes] == ["claude-sonnet-4-5-20250929"] * 2 + [None] * 3 + [
        "claude-sonnet-4-5-20250929"
    ]


def test_chat_jsonl_fixture() -> None:
    envelopes = read_envelopes(FIXTURES / "chat.jsonl")
    assert summary(envelopes) == [
        (1, "c-1", "Toss it.\nDECISION: A", None, 0),
        (2, "c-2", "Smell is no guide.\nDECISION: ESCALATE", None, 0),
    ]
    assert envelopes[0].request_messages == (
        ("system", "You are a helpful assistant."),
        ("user", "Keep or toss?"),
    )
    assert envelopes[1].request_messages == (("user", "Keep or toss?\nIt smells fine."),)
    assert (envelopes[0].model, envelopes[1].model) == (None, "local-llama")


def test_inspect_json_fixture() -> None:
    path = FIXTURES / "inspect_log.json"
    assert detect_format(path) == "inspect"
    envelopes = read_envelopes(path)
    assert summary(envelopes) == [
        (1, "i-ok", "Toss it.\nDECISION: A", None, 0),
        (2, "7", "Line one.\nDECISION: B", None, 1),  # int id stringified; epoch 2 is sample 1
        (
            3,
            "i-error",
            None,
            "sample error: RateLimitError('Rate limit reached for gpt-4o-mini')",
            0,
        ),
        (4, "i-refused", None, "refusal: I can't help with that.", 0),
    ]
    assert all(e.model == "openai/gpt-4o-mini" and e.file == str(path) for e in envelopes)
    assert envelopes[0].request_messages == (
        ("system", "You are a helpful assistant."),
        ("user", "Keep or toss?"),
    )
    assert envelopes[1].request_messages is None  # a string input is not a chat request
    assert envelopes[3].request_messages == (
        ("system", "A long system prompt, stored once as an attachment."),
        ("user", "Part A\nPart B"),
    )


# --- Inspect .eval zips, built here from hand-written JSON --------------------------------------

EVAL_HEADER: dict[str, Any] = {
    "version": 2,
    "status": "success",
    "eval": {
        "run_id": "r1",
        "created": "2025-06-01T10:00:00+00:00",
        "task": "honesty_pressure_round1",
        "task_id": "t1",
        "dataset": {"name": "requests", "samples": 2},
        "model": "anthropic/claude-sonnet-4-5",
        "config": {"epochs": 2},
    },
    "plan": {"name": "plan", "steps": [], "config": {}},
    "stats": {
        "started_at": "2025-06-01T10:00:00+00:00",
        "completed_at": "2025-06-01T10:01:00+00:00",
    },
}


def eval_sample(ident: str, epoch: int, reply: str) -> dict[str, Any]:
    return {
        "id": ident,
        "epoch": epoch,
        "input": [{"role": "system", "content": "S"}, {"role": "user", "content": "U"}],
        "target": "",
        "output": {
            "model": "claude-sonnet-4-5-20250929",
            "choices": [
                {
                    "message": {"role": "assistant", "content": reply, "source": "generate"},
                    "stop_reason": "stop",
                }
            ],
            "completion": reply,
        },
        "scores": {},
        "metadata": {},
        "attachments": {},
    }


def write_eval(
    path: Path, entries: dict[str, object], compression: int = zipfile.ZIP_DEFLATED
) -> Path:
    with zipfile.ZipFile(path, "w", compression=compression) as archive:
        for name, value in entries.items():
            archive.writestr(name, value if isinstance(value, str) else json.dumps(value, indent=2))
    return path


def full_eval(path: Path) -> Path:
    samples = {
        "samples/e-2_epoch_1.json": eval_sample("e-2", 1, "DECISION: B"),
        "samples/e-1_epoch_2.json": eval_sample("e-1", 2, "DECISION: ESCALATE"),
        "samples/e-1_epoch_1.json": eval_sample("e-1", 1, "DECISION: A"),
    }
    summaries = [
        {"id": s["id"], "epoch": s["epoch"], "input": s["input"], "target": ""}
        for s in samples.values()
    ]
    return write_eval(
        path,
        {
            "_journal/start.json": {
                "version": 2,
                "eval": EVAL_HEADER["eval"],
                "plan": EVAL_HEADER["plan"],
            },
            **samples,
            "_journal/summaries/1.json": summaries,
            "summaries.json": summaries,
            "header.json": EVAL_HEADER,
        },
    )


def test_inspect_eval_zip(tmp_path: Path) -> None:
    path = full_eval(tmp_path / "run.eval")
    assert detect_format(path) == "inspect"
    envelopes = read_envelopes(path)
    assert summary(envelopes) == [
        (1, "e-1", "DECISION: A", None, 0),
        (2, "e-1", "DECISION: ESCALATE", None, 1),
        (3, "e-2", "DECISION: B", None, 0),
    ]
    assert [e.file for e in envelopes] == [
        f"{path}:samples/e-1_epoch_1.json",
        f"{path}:samples/e-1_epoch_2.json",
        f"{path}:samples/e-2_epoch_1.json",
    ]
    assert all(e.model == "anthropic/claude-sonnet-4-5" for e in envelopes)
    assert envelopes[0].request_messages == (("system", "S"), ("user", "U"))


def test_inspect_eval_without_header_uses_journal_or_output_model(tmp_path: Path) -> None:
    journal = write_eval(
        tmp_path / "journal.eval",
        {
            "_journal/start.json": {"version": 2, "eval": {"model": "openai/gpt-4o"}},
            "samples/x_epoch_1.json": eval_sample("x", 1, "r"),
        },
    )
    assert read_envelopes(journal)[0].model == "openai/gpt-4o"
    bare = write_eval(tmp_path / "bare.eval", {"samples/x_epoch_1.json": eval_sample("x", 1, "r")})
    assert read_envelopes(bare)[0].model == "claude-sonnet-4-5-20250929"


def test_zip_detected_by_content_whatever_its_name(tmp_path: Path) -> None:
    path = full_eval(tmp_path / "run.zip")
    assert detect_format(path) == "inspect"
    assert len(read_envelopes(path)) == 3


# --- detection ---------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("name", "fmt"),
    [
        ("native.jsonl", "native"),
        ("openai_batch_output.jsonl", "openai-batch"),
        ("vllm_run_batch.jsonl", "openai-batch"),
        ("anthropic_results.jsonl", "anthropic-batch"),
        ("chat.jsonl", "chat-jsonl"),
        ("inspect_log.json", "inspect"),
    ],
)
def test_detect_format(name: str, fmt: Format) -> None:
    assert detect_format(FIXTURES / name) == fmt


def test_detection_ignores_the_extension(tmp_path: Path) -> None:
    log = tmp_path / "log.txt"
    log.write_text((FIXTURES / "inspect_log.json").read_text(encoding="utf-8"), encoding="utf-8")
    assert detect_format(log) == "inspect"
    single = write(tmp_path / "one.json", [{"custom_id": "x", "result": {"type": "expired"}}])
    assert detect_format(single) == "anthropic-batch"
    openai_error_only = write(
        tmp_path / "errors.jsonl", [{"custom_id": "x", "error": {"code": "c", "message": "m"}}]
    )
    assert detect_format(openai_error_only) == "openai-batch"


def test_forced_format_reads_the_same() -> None:
    for name, fmt in [
        ("native.jsonl", "native"),
        ("chat.jsonl", "chat-jsonl"),
        ("inspect_log.json", "inspect"),
    ]:
        path = FIXTURES / name
        assert read_envelopes(path, fmt) == read_envelopes(path)  # type: ignore[arg-type]


# --- malformed input: InputError naming file and line -----------------------------------------


def one_line(path: Path, fmt: Format | None = None) -> str:
    with pytest.raises(InputError) as caught:
        read_envelopes(path, fmt)
    return caught.value.one_line()


def test_empty_file(tmp_path: Path) -> None:
    path = tmp_path / "empty.jsonl"
    path.write_text("\n\n", encoding="utf-8")
    assert one_line(path) == f"{path}: no replies in file"
    with pytest.raises(InputError, match="no replies in file"):
        detect_format(path)


def test_missing_file(tmp_path: Path) -> None:
    assert one_line(tmp_path / "nope.jsonl") == f"{tmp_path / 'nope.jsonl'}: file not found"
    assert one_line(tmp_path / "nope.eval") == f"{tmp_path / 'nope.eval'}: file not found"


def test_malformed_json_line(tmp_path: Path) -> None:
    path = tmp_path / "bad.jsonl"
    lines = (FIXTURES / "native.jsonl").read_text(encoding="utf-8").splitlines()
    path.write_text(lines[0] + "\n{not json\n", encoding="utf-8")
    assert (
        one_line(path)
        == f"{path}:2: not valid JSON (Expecting property name enclosed in double quotes)"
    )


def test_non_object_line(tmp_path: Path) -> None:
    path = tmp_path / "list.jsonl"
    path.write_text("[1, 2]\n", encoding="utf-8")
    assert one_line(path) == f"{path}:1: expected a JSON object"


def test_deeply_nested_json(tmp_path: Path) -> None:
    path = tmp_path / "deep.jsonl"
    path.write_text('{"packet_id": ' + "[" * 100_000 + "]" * 100_000 + "}\n", encoding="utf-8")
    assert one_line(path) == f"{path}:1: JSON nested too deeply"
    assert one_line(path, "native") == f"{path}:1: JSON nested too deeply"


def test_undetectable_line(tmp_path: Path) -> None:
    path = write(tmp_path / "odd.jsonl", [{"prompt": "p", "completion": "c"}])
    assert (
        one_line(path)
        == f"{path}:1: cannot tell the reply format from this line (keys: completion, prompt)"
    )


def test_every_line_must_fit_the_detected_format(tmp_path: Path) -> None:
    ok = json.loads(
        (FIXTURES / "openai_batch_output.jsonl").read_text(encoding="utf-8").splitlines()[0]
    )
    native = {"packet_id": "p", "request_sha256": "0" * 64, "reply": "r"}
    path = write(tmp_path / "mixed.jsonl", [ok, native])
    assert one_line(path) == f"{path}:2: custom_id: is missing (reading openai-batch)"


def test_wrong_shapes_name_the_field(tmp_path: Path) -> None:
    cases: list[tuple[dict[str, Any], str]] = [
        (
            {"packet_id": "p", "request_sha256": "abc", "reply": "r"},
            "request_sha256: must be 64 hexadecimal digits (reading native)",
        ),
        (
            {"packet_id": "p", "request_sha256": "0" * 64, "reply": "r", "sample": -1},
            "sample: must be an integer >= 0 (reading native)",
        ),
        (
            {"packet_id": "p", "request_sha256": "0" * 64, "reply": "r", "sample": True},
            "sample: must be an integer >= 0 (reading native)",
        ),
        (
            {"packet_id": "p", "request_sha256": "0" * 64, "reply": None},
            "reply: must be a string (reading native)",
        ),
        (
            {"custom_id": "x", "response": {"status_code": "200", "body": {}}},
            "response.status_code: must be an integer (reading openai-batch)",
        ),
        (
            {
                "custom_id": "x",
                "response": {
                    "status_code": 200,
                    "body": {"choices": [{"message": {"content": 5}}]},
                },
            },
            "response.body.choices[0].message.content: must be a string or a list of content parts "
            "(reading openai-batch)",
        ),
        (
            {"custom_id": "x", "result": {"type": "finished"}},
            "result.type: must be succeeded, errored, canceled or expired (reading "
            "anthropic-batch)",
        ),
        (
            {
                "custom_id": "x",
                "result": {"type": "succeeded", "message": {"content": [{"type": "text"}]}},
            },
            "result.message.content[0].text: is missing (reading anthropic-batch)",
        ),
        (
            {"id": "c", "messages": []},
            "messages: must be a non-empty list of messages (reading chat-jsonl)",
        ),
    ]
    for record, problem in cases:
        path = write(tmp_path / "case.jsonl", [record])
        assert one_line(path) == f"{path}:1: {problem}"


def test_chat_last_message_must_be_the_assistants(tmp_path: Path) -> None:
    path = write(
        tmp_path / "chat.jsonl",
        [
            {
                "id": "c",
                "messages": [{"role": "system", "content": "s"}, {"role": "user", "content": "u"}],
            }
        ],
    )
    assert (
        one_line(path)
        == f"{path}:1: messages[1].role: the last message must be the assistant's reply, not "
        "'user' (reading chat-jsonl)"
    )


def test_inspect_json_sample_errors_name_the_sample_index(tmp_path: Path) -> None:
    log = json.loads((FIXTURES / "inspect_log.json").read_text(encoding="utf-8"))
    log["samples"][2]["epoch"] = 0
    path = tmp_path / "log.json"
    path.write_text(json.dumps(log), encoding="utf-8")
    assert one_line(path) == f"{path}:3: epoch: must be an integer >= 1 (reading inspect)"
    log["samples"] = []
    path.write_text(json.dumps(log), encoding="utf-8")
    assert one_line(path) == f"{path}: no replies in file"


def test_inspect_forced_on_a_jsonl_file(tmp_path: Path) -> None:
    path = FIXTURES / "chat.jsonl"
    assert one_line(path, "inspect") == (
        f"{path}: not an Inspect log (expected a .eval zip or a JSON object with 'eval' and "
        "'samples')"
    )


def test_eval_bad_entry_names_zip_and_entry(tmp_path: Path) -> None:
    path = write_eval(
        tmp_path / "bad.eval",
        {
            "header.json": EVAL_HEADER,
            "samples/a_epoch_1.json": eval_sample("a", 1, "r"),
            "samples/b_epoch_1.json": "{oops",
        },
    )
    message = one_line(path)
    assert message.startswith(f"{path}:samples/b_epoch_1.json:2: not valid JSON (")


def test_eval_that_is_not_a_zip(tmp_path: Path) -> None:
    path = tmp_path / "fake.eval"
    path.write_text("hello", encoding="utf-8")
    assert one_line(path) == f"{path}: not a valid .eval log (not a zip archive)"


def test_eval_with_unsupported_compression(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """A member marked zstd (method 93) needs the zstd extra before Python 3.14; other methods are
    named. (tests/runners/test_inspect_logs.py reads real zstd logs written by inspect-ai.)"""
    path = write_eval(
        tmp_path / "zstd.eval", {"header.json": EVAL_HEADER}, compression=zipfile.ZIP_STORED
    )
    data = bytearray(path.read_bytes())
    for signature, offset in ((b"PK\x03\x04", 8), (b"PK\x01\x02", 10)):
        at = data.find(signature)
        data[at + offset : at + offset + 2] = (93).to_bytes(2, "little")
    path.write_bytes(bytes(data))
    monkeypatch.setitem(sys.modules, "zstandard", None)  # as if the extra were not installed
    assert one_line(path) == (
        f"{path}:header.json: compressed with zstd (Inspect's default), which Python before 3.14 "
        "reads only with the zstd extra: pip install 'honesty_pressure[zstd]'; or convert the log "
        f"first: inspect log convert --to json --output-dir DIR {path}"
    )
    for signature, offset in ((b"PK\x03\x04", 8), (b"PK\x01\x02", 10)):
        at = data.find(signature)
        data[at + offset : at + offset + 2] = (99).to_bytes(2, "little")
    path.write_bytes(bytes(data))
    assert one_line(path) == (
        f"{path}:header.json: compressed with zip method 99, which this kit cannot read; "
        f"convert the log first: inspect log convert --to json --output-dir DIR {path}"
    )


# --- Hypothesis: junk never raises anything but InputError -------------------------------------

KEYS = st.sampled_from(
    [
        "packet_id",
        "request_sha256",
        "reply",
        "model",
        "sample",
        "custom_id",
        "id",
        "response",
        "error",
        "status_code",
        "body",
        "choices",
        "message",
        "content",
        "refusal",
        "finish_reason",
        "result",
        "type",
        "text",
        "stop_reason",
        "messages",
        "role",
        "samples",
        "eval",
        "epoch",
        "input",
        "output",
        "completion",
        "attachments",
    ]
) | st.text(max_size=6)
LEAVES = (
    st.none()
    | st.booleans()
    | st.integers(min_value=-(2**40), max_value=2**40)
    | st.floats(allow_nan=False, allow_infinity=False)
    | st.text(max_size=12)
    | st.just("attachment://k")
    | st.just("0" * 64)
)
JUNK = st.recursive(
    LEAVES,
    lambda inner: st.lists(inner, max_size=4) | st.dictionaries(KEYS, inner, max_size=5),
    max_leaves=25,
)


def fixture_records() -> list[dict[str, Any]]:
    records = []
    for name in (
        "native.jsonl",
        "openai_batch_output.jsonl",
        "vllm_run_batch.jsonl",
        "anthropic_results.jsonl",
        "chat.jsonl",
    ):
        for line in (FIXTURES / name).read_text(encoding="utf-8").splitlines():
            if line.strip():
                records.append(json.loads(line))
    return records


def paths_in(value: Any, prefix: tuple[Any, ...] = ()) -> list[tuple[Any, ...]]:
    found = [prefix]
    if isinstance(value, dict):
        for key, child in value.items():
            found += paths_in(child, prefix + (key,))
    elif isinstance(value, list):
        for index, child in enumerate(value):
            found += paths_in(child, prefix + (index,))
    return found


@st.composite
def mutated(draw: st.DrawFn, records: list[dict[str, Any]]) -> Any:
    """A valid record with one nested value replaced by junk (or deleted)."""
    record = copy.deepcopy(draw(st.sampled_from(records)))
    path = draw(st.sampled_from(paths_in(record)))
    if not path:
        return draw(JUNK)
    parent = record
    for step in path[:-1]:
        parent = parent[step]
    if isinstance(parent, dict) and draw(st.booleans()):
        del parent[path[-1]]
    else:
        parent[path[-1]] = draw(JUNK)
    return record


def assert_only_input_error(path: Path, fmt: Format | None) -> None:
    try:
        envelopes = read_envelopes(path, fmt)
    except InputError as exc:
        assert exc.one_line().startswith(str(path))
        return
    assert envelopes
    for env in envelopes:
        assert isinstance(env.ref, str)
        assert (env.reply is None) == (env.error is not None)
        assert env.reply is None or isinstance(env.reply, str)
        assert isinstance(env.sample, int) and env.sample >= 0


@given(line=JUNK | mutated(fixture_records()))
def test_junk_lines_raise_only_input_error(line: Any) -> None:
    with tempfile.TemporaryDirectory() as tmp:
        path = Path(tmp) / "junk.jsonl"
        path.write_text(json.dumps(line) + "\n", encoding="utf-8")
        for fmt in (None, *FORMATS):
            assert_only_input_error(path, fmt)


INSPECT_LOG = json.loads((FIXTURES / "inspect_log.json").read_text(encoding="utf-8"))


@given(log=mutated([INSPECT_LOG]))
def test_junk_inspect_logs_raise_only_input_error(log: Any) -> None:
    with tempfile.TemporaryDirectory() as tmp:
        json_path = Path(tmp) / "log.json"
        json_path.write_text(json.dumps(log), encoding="utf-8")
        assert_only_input_error(json_path, None)
        assert_only_input_error(json_path, "inspect")
        samples = log.get("samples") if isinstance(log, dict) else None
        entries: dict[str, object] = {"header.json": log if isinstance(log, dict) else {}}
        for index, sample in enumerate(samples if isinstance(samples, list) else []):
            entries[f"samples/s{index}_epoch_1.json"] = sample
        assert_only_input_error(write_eval(Path(tmp) / "log.eval", entries), None)


def test_chat_jsonl_null_content_is_a_runner_error(tmp_path: Path) -> None:
    path = tmp_path / "chat.jsonl"
    path.write_text(
        '{"id": "p1", "messages": [{"role": "user", "content": "hi"}, {"role": "assistant", '
        '"content": null}]}\n',
        encoding="utf-8",
    )
    (env,) = read_envelopes(path)
    assert (env.reply, env.error, env.request_messages) == (None, "null content", (("user", "hi"),))


def test_a_bad_byte_is_reported_on_its_own_line_and_a_bom_is_allowed(tmp_path: Path) -> None:
    good = '{"packet_id": "p", "request_sha256": "' + "a" * 64 + '", "reply": "x"}\n'
    path = tmp_path / "native.jsonl"
    path.write_bytes(
        b"\xef\xbb\xbf" + (good * 3).encode() + b'{"packet_id": "q", "reply": "\xff"}\n'
    )
    with pytest.raises(InputError) as err:
        read_envelopes(path)
    assert err.value.one_line() == f"{path}:4: not valid UTF-8"
    path.write_bytes(b"\xef\xbb\xbf" + good.encode())
    assert [e.ref for e in read_envelopes(path)] == ["p"]


# --- the fast road's check of a bound sample ------------------------------------------------------

_BOUND_IDS = st.one_of(
    st.builds(
        lambda pid, packet_set, sample: f"{pid}_{packet_set}_s{sample}",
        st.text(alphabet="abc-09", min_size=1, max_size=8),
        st.text(alphabet="0123456789abcdef", min_size=12, max_size=12),
        st.integers(0, 99_999),
    ),
    st.text(alphabet="ab_s019-", max_size=24),
)


@given(_BOUND_IDS)
def test_a_bound_sample_is_checked_without_splitting_the_ids_that_cannot_fail(ref: str) -> None:
    # The shortcut skips every id not ending in `_s` and four characters; it must say what the
    # split says for every id, whatever MAX_SAMPLES and the id pattern become.
    assert _bound_sample_allowed(ref) == ((unbind(ref).sample or 0) < MAX_SAMPLES)


def test_the_bound_sample_check_at_its_edges() -> None:
    base = "p-1_0123456789ab"
    assert _bound_sample_allowed(f"{base}_s999") and _bound_sample_allowed(base)
    assert not _bound_sample_allowed(f"{base}_s{MAX_SAMPLES}")
    assert not _bound_sample_allowed(f"{base}_s9999")
    assert _bound_sample_allowed(f"{base}_s10000")  # no bound id (five digits): sample 0


def test_a_chat_jsonl_refusal_is_a_refusal_not_a_runner_error(tmp_path: Path) -> None:
    """Issue 41: the chat-jsonl reader had no refusal case, so the example runner's refusals (the
    assistant message's `refusal`, as OpenAI writes it) were runner errors that `--retry-failed`
    resent until the model answered. A refusal wins over any content, as in a chat completion; an
    empty or null `refusal` is no refusal; a non-string one is refused naming the field."""
    path = tmp_path / "chat.jsonl"
    user = {"role": "user", "content": "hi"}
    lines = [
        {"id": "p1", "messages": [user, {"role": "assistant", "content": None, "refusal": "No."}]},
        {"id": "p2", "messages": [user, {"role": "assistant", "content": "x", "refusal": "No."}]},
        {"id": "p3", "messages": [user, {"role": "assistant", "content": "x", "refusal": ""}]},
        {"id": "p4", "messages": [user, {"role": "assistant", "content": None, "refusal": None}]},
    ]
    path.write_text("".join(json.dumps(line) + "\n" for line in lines), encoding="utf-8")
    envs = read_envelopes(path)
    assert [(env.reply, env.error) for env in envs] == [
        (None, "refusal: No."),
        (None, "refusal: No."),
        ("x", None),
        (None, "null content"),
    ]
    assert [refused(env.error) for env in envs] == [True, True, False, False]
    assert all(env.request_messages == (("user", "hi"),) for env in envs)
    path.write_text(
        json.dumps({"id": "p1", "messages": [user, {"role": "assistant", "refusal": 7}]}) + "\n",
        encoding="utf-8",
    )
    with pytest.raises(InputError) as bad:
        read_envelopes(path)
    assert str(bad.value) == (
        f"{path}:1: messages[1].refusal: must be a string or null (reading chat-jsonl)"
    )
