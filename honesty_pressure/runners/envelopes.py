"""Read reply files into Envelopes: the native form and what real runners write (DESIGN.md section
5).

Each format has one short function turning one record (a JSONL line, or one Inspect sample) into
an Envelope. A runner's own failure (HTTP error, expiry, null content) is an Envelope with
`reply=None` and a short `error` text, so it is scored as unscorable; a refusal (a `refusal`
field, Anthropic's `refusal` stop reason, a `content_filter` finish or stop reason, an Inspect
moderation error or refused part) is one too, with an error starting "refusal", scored `refused`; a
record of the wrong shape is an InputError naming file, line and field, so it can never be silently
dropped.

Shapes were written from each format's public documentation, not from our exporter:

- native: DESIGN.md section 5.
- openai-batch: OpenAI's "request output object", the per-line object of the batch output and
  error files (platform.openai.com/docs/api-reference/batch/request-output): `id`, `custom_id`,
  `response` {`status_code`, `request_id`, `body`} or null, `error` {`code`, `message`} or null;
  an HTTP error arrives as a non-2xx `status_code` with `body.error` {`message`, `type`, `param`,
  `code`} (openai/openai-openapi issue #302). The body is a chat completion whose
  `choices[0].message` has `content` (string or null) and `refusal`. `vllm run-batch` writes the
  same object (vllm/entrypoints/openai/run_batch.py, BatchRequestOutput): on failure `error` is a
  plain string or an ErrorResponse and `response` has `status_code` 400 and no body.
- anthropic-batch: "Retrieve Message Batch results" (docs.anthropic.com/en/api/
  retrieving-message-batch-results) and the SDK's MessageBatchIndividualResponse: `custom_id` and
  `result` of type `succeeded` (with `message`: `content` blocks, `stop_reason`, `model`),
  `errored` (`error`: an ErrorResponse {`type`: "error", `error`: {`type`, `message`}}),
  `canceled` or `expired`. StopReason includes "refusal".
- inspect: Inspect AI log files (inspect.aisi.org.uk/eval-logs.html; inspect_ai.log EvalLog,
  EvalSample, ModelOutput): a `.json` log {`version`, `status`, `eval`, `samples`} or a `.eval` zip
  of `header.json` (or `_journal/start.json`) plus `samples/<id>_epoch_<n>.json`. A sample has
  `id`, `epoch`, `input` (string or chat messages), `output` {`model`, `choices`, `completion`,
  `error`}, `error` (EvalError {`message`, `traceback`}) and `attachments` referenced as
  `attachment://<hash>`. Text content parts are {`type`: "text", `text`, `refusal`?}.
- chat-jsonl: {`id`, `messages`: [..., {`role`: "assistant", `content`, `refusal`?}]}: a
  non-empty `refusal` (OpenAI's message field, as examples/openai_compatible_runner.py keeps it)
  is a refusal, a null `content` without one a runner error.

Reasoning is never part of a reply: only `content` text is read (the `reasoning_content` and
`reasoning` fields that vLLM, DeepSeek, Ollama or OpenRouter put beside it, Anthropic `thinking` and
`redacted_thinking` blocks and Inspect `reasoning` parts are skipped), and a leading `<think>`
block is cut off (`parse.answer_text`) before the reply is frozen or scored.
"""

from __future__ import annotations

import hashlib
import io
import json
import os
import re
import stat
import zipfile
import zlib
from collections.abc import Callable, Iterable, Iterator, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any, BinaryIO, Final, NamedTuple, cast

from ..core import arguments
from ..core.arguments import check, choice_problem
from ..core.binding import split_ref, unbind
from ..core.construct import FORMATS, Envelope, Format, Usage
from ..core.errors import InputError
from ..core.limits import (
    MAX_EVAL_MEMBER_BYTES,
    MAX_EVAL_TOTAL_BYTES,
    MAX_JSON_BYTES,
    MAX_LINE_BYTES,
    MAX_REPLY_CHARS,
    MAX_SAMPLES,
    MAX_STREAM_BYTES,
    MAX_USAGE_TOKENS,
    MIB,
)
from ..core.parse import answer_text
from ..files.store import (
    JsonObject,
    LineCount,
    iter_jsonl,
    json_object,
    loads,
    open_regular,
    read_bounded,
)
from ..files.zipzstd import EXTRA, ZSTD_METHOD, ZstdUnavailable, read_member

_SHA256: Final = re.compile(r"^[0-9a-fA-F]{64}$")
_SAMPLE_ENTRY: Final = re.compile(r"^samples/[^/]+\.json$")
_HEADER_ENTRIES: Final = ("header.json", "_journal/start.json", "start.json")
_ZIP_MAGIC: Final = b"PK\x03\x04"
_ATTACHMENT: Final = "attachment://"
_MAX_TEXT: Final = 300
_REASONING_FIELDS: Final = ("reasoning_content", "reasoning")
_REFUSAL: Final = "refusal"
_CONTENT_FILTER: Final = "content_filter"
"""OpenAI's finish_reason and Inspect's stop_reason when a content filter withheld the answer."""

Select = Callable[[int], bool]
"""Which records of a file to read, by line number (or sample index in an Inspect log): a shard."""


@dataclass(frozen=True, slots=True)
class _At:
    """Where one record sits (file, 1-based line) and which format it is read as."""

    file: str
    line: int
    fmt: Format

    def bad(self, field: str, problem: str) -> InputError:
        return InputError(
            f"{problem} (reading {self.fmt})", file=self.file, line=self.line, field=field or None
        )


# --- small typed accessors -------------------------------------------------------------------


def _int(value: object) -> int | None:
    """The value if it is a JSON integer (not a boolean), else None."""
    return value if isinstance(value, int) and not isinstance(value, bool) else None


def _join(prefix: str, key: str) -> str:
    return f"{prefix}.{key}" if prefix else key


def _obj(value: object, at: _At, field: str) -> JsonObject:
    if not isinstance(value, dict):
        raise at.bad(field, "must be an object")
    return value


def _need(record: JsonObject, key: str, at: _At, prefix: str = "") -> object:
    if key not in record:
        raise at.bad(_join(prefix, key), "is missing")
    return record[key]


def _req_str(record: JsonObject, key: str, at: _At, prefix: str = "") -> str:
    value = _need(record, key, at, prefix)
    if not isinstance(value, str):
        raise at.bad(_join(prefix, key), "must be a string")
    return value


def _opt_str(record: JsonObject, key: str, at: _At, prefix: str = "") -> str | None:
    """An optional string field; absent, null and "" all read as None."""
    value = record.get(key)
    if value is None:
        return None
    if not isinstance(value, str):
        raise at.bad(_join(prefix, key), "must be a string or null")
    return value or None


def _short(text: str) -> str:
    """One line, at most _MAX_TEXT characters: error texts end up in summaries."""
    flat = " ".join(text.split())
    return flat if len(flat) <= _MAX_TEXT else flat[: _MAX_TEXT - 1] + "…"


def _error_text(error: object) -> str:
    """`type: message` from the common error shapes (OpenAI, vLLM, Anthropic, Inspect), else
    JSON."""
    if isinstance(error, dict):
        inner = error.get("error")
        if "message" not in error and isinstance(inner, (dict, str)):
            return _error_text(inner)
        kind = error.get("type") if isinstance(error.get("type"), str) else error.get("code")
        parts = [p for p in (kind, error.get("message")) if isinstance(p, str) and p]
        text = ": ".join(parts) if parts else json.dumps(error, sort_keys=True, ensure_ascii=False)
    else:
        text = error if isinstance(error, str) else json.dumps(error, ensure_ascii=False)
    return _short(text) or "unspecified error"


def usage_of(value: object) -> Usage | None:
    """(input, output) tokens of a reply's usage object, or None when it carries none.

    OpenAI's CompletionUsage {`prompt_tokens`, `completion_tokens`, `total_tokens`} (a chat
    completion's `usage`, so an OpenAI Batch output line's `response.body.usage`; vLLM and the
    example runner write the same); Anthropic's Usage {`input_tokens`, `output_tokens`,
    `cache_creation_input_tokens`, `cache_read_input_tokens`} (a Message's `usage`), whose input is
    the sum of the three input counts, as Anthropic bills them; Inspect's ModelUsage
    {`input_tokens`, `output_tokens`, ...} as it gives them. Usage only describes a reply: one of
    another shape (a count that is not a whole number >= 0) is left out, never a reason to refuse
    it."""
    if not isinstance(value, dict):
        return None
    if "prompt_tokens" in value or "completion_tokens" in value:
        read, written = _int(value.get("prompt_tokens")), _int(value.get("completion_tokens"))
    else:
        read, written = _int(value.get("input_tokens")), _int(value.get("output_tokens"))
        for cached in ("cache_creation_input_tokens", "cache_read_input_tokens"):
            extra = value.get(cached)
            if extra is not None and read is not None:
                count = _int(extra)
                read = None if count is None or count < 0 else read + count
    if read is None or written is None or read < 0 or written < 0:
        return None
    return read, written


USAGE_PAST_LIMIT: Final = (
    f"a token count above {MAX_USAGE_TOKENS:,}, the most one reply may carry (limits.py): no "
    "model's count (an edited or broken file?)"
)


def usage_within(usage: Usage | None) -> bool:
    """Whether a reply's token counts are within MAX_USAGE_TOKENS (no usage is within)."""
    return usage is None or (usage[0] <= MAX_USAGE_TOKENS and usage[1] <= MAX_USAGE_TOKENS)


def _inspect_usage(record: JsonObject, output: JsonObject) -> Usage | None:
    """An EvalSample's token counts: its `model_usage` summed over models (every call the sample
    made), else its output's `usage`."""
    per_model = record.get("model_usage")
    if isinstance(per_model, dict) and per_model:
        counts = [usage_of(value) for value in per_model.values()]
        if all(count is not None for count in counts):
            return sum(c[0] for c in counts if c is not None), sum(
                c[1] for c in counts if c is not None
            )
        return None
    return usage_of(output.get("usage"))


def _content_text(content: object, at: _At, field: str) -> str:
    """A message's text: a string, or its text parts/blocks joined with newlines (others
    ignored)."""
    if isinstance(content, str):
        return content
    if not isinstance(content, list):
        raise at.bad(field, "must be a string or a list of content parts")
    texts = []
    for index, part in enumerate(content):
        block = _obj(part, at, f"{field}[{index}]")
        if block.get("type") == "text":
            texts.append(_req_str(block, "text", at, f"{field}[{index}]"))
    return "\n".join(texts)


def _envelope(
    ref: str,
    at: _At,
    *,
    reply: str | None = None,
    error: str | None = None,
    model: str | None = None,
    sample: int = 0,
    request_sha256: str | None = None,
    request_messages: tuple[tuple[str, str], ...] | None = None,
    usage: Usage | None = None,
) -> Envelope:
    highest = max(sample, unbind(ref).sample or 0)
    if highest >= MAX_SAMPLES:
        raise at.bad(
            "sample",
            f"{highest} is past the limit: at most {MAX_SAMPLES} samples per packet (0 to "
            f"{MAX_SAMPLES - 1})",
        )
    if not usage_within(usage):
        raise at.bad("usage", USAGE_PAST_LIMIT)
    answer = None if reply is None else answer_text(reply)
    for field, text in (("reply", answer), ("error", error)):
        if text is not None and len(text) > MAX_REPLY_CHARS:
            raise at.bad(
                field,
                f"{len(text):,} characters, past the limit of {MAX_REPLY_CHARS:,} for one reply "
                "(limits.py: what one sample may hold)",
            )
    return Envelope(
        ref=ref,
        reply=answer,
        error=error,
        request_sha256=request_sha256,
        request_messages=request_messages,
        model=model,
        sample=sample,
        file=at.file,
        line=at.line,
        usage=usage,
    )


def runner_failed(envelope: Envelope) -> bool:
    """True when the runner got no answer from the model (an error, expiry, null content), so a
    retry's reply may take its place; a refusal is the model's answer and is never replaced."""
    return failed(envelope.error)


def failed(error: str | None) -> bool:
    """`runner_failed` for an envelope's error text."""
    return error is not None and not refused(error)


def refused(error: str | None) -> bool:
    """Whether an envelope's error text is a refusal (the model's answer: verdict `refused`)."""
    return error is not None and (error == _REFUSAL or error.startswith(f"{_REFUSAL}:"))


# --- one function per format -----------------------------------------------------------------


def native_envelope(record: JsonObject, at: _At) -> Envelope:
    """`{"packet_id", "request_sha256", "reply", "model"?, "sample"?}` (DESIGN.md section 5)."""
    ref = _req_str(record, "packet_id", at)
    if not ref:
        raise at.bad("packet_id", "must not be empty")
    digest = _req_str(record, "request_sha256", at)
    if not _SHA256.match(digest):
        raise at.bad("request_sha256", "must be 64 hexadecimal digits")
    reply = _req_str(record, "reply", at)
    raw_sample = record.get("sample")
    sample = 0 if raw_sample is None else _int(raw_sample)
    if sample is None or sample < 0:
        raise at.bad("sample", "must be an integer >= 0")
    model = _opt_str(record, "model", at)
    return _envelope(
        ref, at, reply=reply, model=model, sample=sample, request_sha256=digest.lower()
    )


def openai_batch_envelope(record: JsonObject, at: _At) -> Envelope:
    """One line of an OpenAI Batch output or error file, or of `vllm run-batch` output."""
    ref = _req_str(record, "custom_id", at)
    raw_response = record.get("response")
    response = None if raw_response is None else _obj(raw_response, at, "response")
    raw_status = None if response is None else response.get("status_code")
    status = None if raw_status is None else _int(raw_status)
    if raw_status is not None and status is None:
        raise at.bad("response.status_code", "must be an integer")
    prefix = f"status {status}: " if status is not None else ""
    error = record.get("error")
    if error is not None:
        return _envelope(ref, at, error=prefix + _error_text(error))
    if response is None:
        return _envelope(ref, at, error="no response and no error")
    body = response.get("body")
    if status is not None and not 200 <= status < 300:
        return _envelope(
            ref, at, error=prefix + (_error_text(body) if body is not None else "no response body")
        )
    if body is None:
        return _envelope(ref, at, error=prefix + "no response body")
    return _chat_completion(ref, _obj(body, at, "response.body"), at)


def _chat_completion(ref: str, body: JsonObject, at: _At) -> Envelope:
    """The reply in a chat.completion body: choices[0].message.content, unless refused or null."""
    model = _opt_str(body, "model", at, "response.body")
    if "choices" not in body and "error" in body:
        return _envelope(ref, at, error=_error_text(body), model=model)
    choices = _need(body, "choices", at, "response.body")
    if not isinstance(choices, list):
        raise at.bad("response.body.choices", "must be a list")
    if not choices:
        return _envelope(ref, at, error="no choices in response", model=model)
    choice = _obj(choices[0], at, "response.body.choices[0]")
    where = "response.body.choices[0].message"
    message = _obj(_need(choice, "message", at, "response.body.choices[0]"), at, where)
    refusal = _opt_str(message, "refusal", at, where)
    if refusal:
        return _envelope(
            ref,
            at,
            error=_short(f"{_REFUSAL}: {refusal}"),
            model=model,
            usage=usage_of(body.get("usage")),
        )
    content = message.get("content")
    if content is None and choice.get("finish_reason") == _CONTENT_FILTER:
        # The provider's filter withheld the answer: a refusal (verdict `refused`), not a failure.
        return _envelope(
            ref,
            at,
            error=f"{_REFUSAL}: {_CONTENT_FILTER}",
            model=model,
            usage=usage_of(body.get("usage")),
        )
    if content is None:
        finish = choice.get("finish_reason")
        notes = [f"finish_reason: {finish}"] if isinstance(finish, str) else []
        # A reasoning model that ran out of tokens while thinking leaves only its reasoning.
        notes += ["reasoning only"] if any(message.get(k) for k in _REASONING_FIELDS) else []
        detail = f" ({', '.join(notes)})" if notes else ""
        return _envelope(
            ref,
            at,
            error=_short(f"null content{detail}"),
            model=model,
            usage=usage_of(body.get("usage")),
        )
    return _envelope(
        ref,
        at,
        reply=_content_text(content, at, f"{where}.content"),
        model=model,
        usage=usage_of(body.get("usage")),
    )


def anthropic_batch_envelope(record: JsonObject, at: _At) -> Envelope:
    """One line of Anthropic Message Batches results
    (`succeeded`/`errored`/`canceled`/`expired`)."""
    ref = _req_str(record, "custom_id", at)
    result = _obj(_need(record, "result", at), at, "result")
    kind = _need(result, "type", at, "result")
    if kind in ("canceled", "expired"):
        return _envelope(ref, at, error=str(kind))
    if kind == "errored":
        error = result.get("error")
        return _envelope(
            ref, at, error="errored" if error is None else f"errored: {_error_text(error)}"
        )
    if kind != "succeeded":
        raise at.bad("result.type", "must be succeeded, errored, canceled or expired")
    message = _obj(_need(result, "message", at, "result"), at, "result.message")
    model = _opt_str(message, "model", at, "result.message")
    usage = usage_of(message.get("usage"))
    if message.get("stop_reason") == "refusal":
        return _envelope(ref, at, error=_REFUSAL, model=model, usage=usage)
    text = _content_text(
        _need(message, "content", at, "result.message"), at, "result.message.content"
    )
    return _envelope(ref, at, reply=text, model=model, usage=usage)


def _chat_message(value: object, at: _At, field: str) -> tuple[str, str]:
    message = _obj(value, at, field)
    role = _req_str(message, "role", at, field)
    return role, _content_text(_need(message, "content", at, field), at, f"{field}.content")


def _chat_refusal(last: object, at: _At, field: str) -> str | None:
    """The refusal error of a chat-jsonl reply whose assistant message carries a non-empty
    `refusal` (as OpenAI's message does, and examples/openai_compatible_runner.py keeps it), else
    None. Checked before the content, as in a chat completion: a refusal is never a reply."""
    if not isinstance(last, dict) or last.get("role") != "assistant":
        return None
    refusal = _opt_str(last, "refusal", at, field)
    return _short(f"{_REFUSAL}: {refusal}") if refusal else None


def chat_jsonl_envelope(record: JsonObject, at: _At) -> Envelope:
    """`{"id", "messages": [..., assistant]}`: the last message is the reply, the rest the
    request."""
    ident = _need(record, "id", at)
    if not (isinstance(ident, str) or _int(ident) is not None):
        raise at.bad("id", "must be a string")
    messages = _need(record, "messages", at)
    if not isinstance(messages, list) or not messages:
        raise at.bad("messages", "must be a non-empty list of messages")
    last = messages[-1]
    model = record.get("model")
    model_name = model if isinstance(model, str) and model else None
    pairs = [_chat_message(m, at, f"messages[{i}]") for i, m in enumerate(messages[:-1])]
    refusal = _chat_refusal(last, at, f"messages[{len(messages) - 1}]")
    if refusal is not None:
        # The model declined (OpenAI's `refusal` field, kept by the runner): the model's answer,
        # scored `refused` as on the batch road, never a runner error to resend.
        return _envelope(
            str(ident),
            at,
            error=refusal,
            model=model_name,
            request_messages=tuple(pairs),
            usage=usage_of(record.get("usage")),
        )
    # A runner that got no text back writes the assistant message with a null content: that is a
    # runner error (as in the batch formats), not a malformed file.
    if isinstance(last, dict) and last.get("role") == "assistant" and last.get("content") is None:
        return _envelope(
            str(ident),
            at,
            error="null content",
            model=model_name,
            request_messages=tuple(pairs),
            usage=usage_of(record.get("usage")),
        )
    role, reply = _chat_message(last, at, f"messages[{len(messages) - 1}]")
    if role != "assistant":
        raise at.bad(
            f"messages[{len(messages) - 1}].role",
            f"the last message must be the assistant's reply, not {_short(role)!r}",
        )
    return _envelope(
        str(ident),
        at,
        reply=reply,
        model=model_name,
        request_messages=tuple(pairs),
        usage=usage_of(record.get("usage")),
    )


# --- Inspect AI logs -------------------------------------------------------------------------


def _resolve(value: object, attachments: JsonObject) -> object:
    """Replace `attachment://<hash>` strings by the sample's attachment text (as Inspect does)."""
    if isinstance(value, str):
        if value.startswith(_ATTACHMENT):
            found = attachments.get(value[len(_ATTACHMENT) :])
            return found if isinstance(found, str) else value
        return value
    if isinstance(value, list):
        return [_resolve(v, attachments) for v in value]
    if isinstance(value, dict):
        return {k: _resolve(v, attachments) for k, v in value.items()}
    return value


def _lenient_text(content: object) -> str | None:
    if isinstance(content, str):
        return content
    if not isinstance(content, list):
        return None
    texts = []
    for part in content:
        if not isinstance(part, dict):
            return None
        if part.get("type") == "text":
            text = part.get("text")
            if not isinstance(text, str):
                return None
            texts.append(text)
    return "\n".join(texts)


def _inspect_request(value: object) -> tuple[tuple[str, str], ...] | None:
    """The sample input as (role, text) pairs when it is a list of chat messages, else None."""
    if not isinstance(value, list) or not value:
        return None
    pairs = []
    for message in value:
        if not isinstance(message, dict) or not isinstance(message.get("role"), str):
            return None
        text = _lenient_text(message.get("content"))
        if text is None:
            return None
        pairs.append((str(message["role"]), text))
    return tuple(pairs)


def _inspect_output(output: JsonObject, at: _At) -> tuple[str | None, str | None]:
    """(reply, error) from a ModelOutput: a moderation `error` or refused text part is a refusal."""
    refused = _opt_str(output, "error", at, "output")
    if refused:
        return None, _short(f"{_REFUSAL}: {refused}")
    choices = output.get("choices", [])
    if not isinstance(choices, list):
        raise at.bad("output.choices", "must be a list")
    content: object = None
    if choices:
        choice = _obj(choices[0], at, "output.choices[0]")
        message = _obj(
            _need(choice, "message", at, "output.choices[0]"), at, "output.choices[0].message"
        )
        content = _need(message, "content", at, "output.choices[0].message")
        for part in content if isinstance(content, list) else []:
            if isinstance(part, dict) and part.get("refusal") is True:
                return None, _short(f"{_REFUSAL}: {_lenient_text([part]) or ''}")
        if (
            choice.get("stop_reason") == _CONTENT_FILTER
            or output.get("stop_reason") == _CONTENT_FILTER
        ):
            return None, f"{_REFUSAL}: {_CONTENT_FILTER}"
    completion = output.get("completion")
    if isinstance(completion, str) and completion:
        return completion, None
    if choices:
        return _content_text(content, at, "output.choices[0].message.content"), None
    return "", None


_TOO_DEEP: Final = "JSON nested too deeply"
"""A value nested deeper than the reader's walk can follow (the JSON layer parses up to Python's
own limit, about 990 levels; walking a value needs a frame or two per level): the same words as
the JSON layer's, with the file and line."""


def inspect_sample_envelope(sample: object, log_model: str | None, at: _At) -> Envelope:
    """One EvalSample (`_inspect_sample`), a sample too deep to walk refused with its place."""
    try:
        return _inspect_sample(sample, log_model, at)
    except RecursionError:
        raise at.bad("", _TOO_DEEP) from None


def _inspect_sample(sample: object, log_model: str | None, at: _At) -> Envelope:
    """One EvalSample: ref = id, sample = epoch - 1, reply from `output`, `error` as runner
    error."""
    record = _obj(sample, at, "sample")
    ident = _need(record, "id", at)
    if not (isinstance(ident, str) or _int(ident) is not None):
        raise at.bad("id", "must be a string or an integer")
    epoch = _int(_need(record, "epoch", at))
    if epoch is None or epoch < 1:
        raise at.bad("epoch", "must be an integer >= 1")
    attachments = record.get("attachments")
    table: JsonObject = attachments if isinstance(attachments, dict) else {}
    raw_output = _resolve(record.get("output"), table)
    output = {} if raw_output is None else _obj(raw_output, at, "output")
    model = log_model or _opt_str(output, "model", at, "output")
    request = _inspect_request(_resolve(record.get("input"), table))
    error = record.get("error")
    reply: str | None = None
    failure: str | None = f"sample error: {_error_text(error)}" if error is not None else None
    if error is None:
        reply, failure = _inspect_output(output, at)
    return _envelope(
        str(ident),
        at,
        reply=reply,
        error=failure,
        model=model,
        sample=epoch - 1,
        request_messages=request,
        usage=_inspect_usage(record, output),
    )


def _log_model(header: object) -> str | None:
    """`eval.model` of a log header, if it is there."""
    if isinstance(header, dict):
        spec = header.get("eval")
        if isinstance(spec, dict) and isinstance(spec.get("model"), str) and spec["model"]:
            return str(spec["model"])
    return None


def _inspect_json(
    path: Path, log: JsonObject, select: Select | None = None, count: LineCount | None = None
) -> Iterator[Envelope]:
    """A `.json` Inspect log: "line" is the 1-based index of the sample in `samples`."""
    samples = log.get("samples")
    if samples is None:
        return
    if not isinstance(samples, list):
        raise InputError("'samples' must be a list (reading inspect)", file=str(path))
    if count is not None:
        count.nonempty = len(samples)
    model = _log_model(log)
    for index, sample in enumerate(samples, start=1):
        if select is None or select(index):
            yield inspect_sample_envelope(sample, model, _At(str(path), index, "inspect"))


def _zip_json(archive: zipfile.ZipFile, name: str, file: str, line: int | None) -> object:
    where = f"{file}:{name}"
    try:
        data = _member_bytes(archive, name, where, line)
    except NotImplementedError:  # a method this Python's zipfile lacks: zstd before 3.14
        data = _zstd_member(archive, name, file, line)
    except (zipfile.BadZipFile, zlib.error, RuntimeError, OSError, EOFError) as exc:
        raise InputError(f"cannot read this zip entry ({exc})", file=where, line=line) from None
    try:
        text = data.decode("utf-8")
    except UnicodeDecodeError as exc:
        raise InputError(f"not valid JSON ({exc})", file=where, line=line) from None
    return loads(text, file=where, line=line)


_BOMB_PRONE: Final = (zipfile.ZIP_BZIP2, zipfile.ZIP_LZMA)
"""zipfile inflates these without an output bound per read: a small member can fill memory."""


def _member_bytes(archive: zipfile.ZipFile, name: str, where: str, line: int | None) -> bytes:
    """A member's bytes, read in chunks and refused past MAX_EVAL_MEMBER_BYTES (the declared size
    is checked first; the reads stop there even if the header lies)."""
    info = archive.getinfo(name)
    if info.compress_type in _BOMB_PRONE:
        raise InputError(
            "compressed with bzip2 or lzma, which Inspect never writes; refused as a possible zip "
            "bomb",
            file=where,
            line=line,
        )
    if info.file_size > MAX_EVAL_MEMBER_BYTES:
        raise InputError(
            f"inflates to {info.file_size} bytes, more than {MAX_EVAL_MEMBER_BYTES // MIB} MiB",
            file=where,
            line=line,
        )
    chunks: list[bytes] = []
    total = 0
    with archive.open(info) as handle:
        while chunk := handle.read(1 << 16):
            total += len(chunk)
            if total > MAX_EVAL_MEMBER_BYTES:
                raise InputError(
                    f"inflates to more than {MAX_EVAL_MEMBER_BYTES // MIB} MiB",
                    file=where,
                    line=line,
                )
            chunks.append(chunk)
    return b"".join(chunks)


def _zstd_member(archive: zipfile.ZipFile, name: str, file: str, line: int | None) -> bytes:
    """A zstd member (Inspect's default) through the `zstd` extra; one clear line without it. The
    same bound as any member: the declared size and the output are capped."""
    where = f"{file}:{name}"
    convert = f"convert the log first: inspect log convert --to json --output-dir DIR {file}"
    info = archive.getinfo(name)
    if info.compress_type != ZSTD_METHOD:
        raise InputError(
            f"compressed with zip method {info.compress_type}, which this kit cannot read; "
            f"{convert}",
            file=where,
            line=line,
        )
    if info.file_size > MAX_EVAL_MEMBER_BYTES:
        raise InputError(
            f"inflates to {info.file_size} bytes, more than {MAX_EVAL_MEMBER_BYTES // MIB} MiB",
            file=where,
            line=line,
        )
    try:
        return read_member(archive, info)
    except ZstdUnavailable:
        raise InputError(
            "compressed with zstd (Inspect's default), which Python before 3.14 reads only with "
            f"the zstd extra: {EXTRA}; or {convert}",
            file=where,
            line=line,
        ) from None
    except (ValueError, OSError) as exc:
        raise InputError(f"cannot read this zip entry ({exc})", file=where, line=line) from None


def _inspect_zip(
    source: ReplySource, select: Select | None = None, count: LineCount | None = None
) -> Iterator[Envelope]:
    """A `.eval` zip: each `samples/<id>_epoch_<n>.json` in sorted order; file is `<zip>:<entry>`.
    Members are read one at a time (and, with `select`, only the selected ones)."""
    path = source.path
    try:
        archive = zipfile.ZipFile(source.open())
    except (zipfile.BadZipFile, OSError, EOFError, ValueError, RuntimeError):
        raise InputError("not a valid .eval log (not a zip archive)", file=str(path)) from None
    with archive:
        names = archive.namelist()
        header = next((h for h in _HEADER_ENTRIES if h in names), None)
        entries = sorted(n for n in names if _SAMPLE_ENTRY.match(n))
        inflated = sum(
            archive.getinfo(n).file_size for n in [*entries, *([header] if header else [])]
        )
        if inflated > MAX_EVAL_TOTAL_BYTES:
            raise InputError(
                f"its entries inflate to {inflated} bytes, more than {MAX_EVAL_TOTAL_BYTES // MIB} "
                "MiB",
                file=str(path),
            )
        model = _log_model(_zip_json(archive, header, str(path), None)) if header else None
        if count is not None:
            count.nonempty = len(entries)
        for index, name in enumerate(entries, start=1):
            if select is None or select(index):
                yield inspect_sample_envelope(
                    _zip_json(archive, name, str(path), index),
                    model,
                    _At(f"{path}:{name}", index, "inspect"),
                )


def inspect_output_reply(output: JsonObject, where: str) -> tuple[str | None, str | None]:
    """(reply, error) of one Inspect ModelOutput (as JSON) exactly as `score` reads it from a log:
    a refusal as the model's refusal, the reasoning block cut off. The Inspect task freezes and
    forks from this (honesty_pressure/inspect_task.py), so its forks are the ones the kit builds
    from the log."""
    reply, error = _inspect_output(output, _At(where, 1, "inspect"))
    return (None if reply is None else answer_text(reply)), error


def inspect_log_samples(path: str | Path) -> Iterator[tuple[JsonObject, str]]:
    """Each sample of an Inspect log (`.eval` or `.json`) as its JSON object, with where it is
    (`<log>:<entry>` or `<log>:<index>`), for what a sample holds beyond its reply (the Inspect
    task's later rounds, in its store: runs/inspect_rounds.py)."""
    source = _source(Path(path))
    if _is_zip(source):
        with zipfile.ZipFile(source.open()) as archive:
            for index, name in enumerate(
                sorted(n for n in archive.namelist() if _SAMPLE_ENTRY.match(n)), start=1
            ):
                at = _At(f"{source.path}:{name}", index, "inspect")
                yield _obj(_zip_json(archive, name, str(source.path), index), at, "sample"), at.file
        return
    log = json_object(_json_data(source), str(source.path))
    samples = log.get("samples") if _is_inspect_log(log) else None
    if not isinstance(samples, list):
        raise InputError("not an Inspect log with a list of samples", file=str(source.path))
    for index, sample in enumerate(samples, start=1):
        at = _At(str(source.path), index, "inspect")
        yield _obj(sample, at, "sample"), f"{source.path}:{index}"


@dataclass(frozen=True, slots=True)
class ReplySource:
    """A reply file opened for reading: a regular file is read from disk as often as needed;
    anything else (a pipe such as /dev/stdin, a device) is read once, whole and bounded, into
    `data`, so detecting its format does not use it up. The bytes live in this value only: a
    pipe read again later is a new source (nothing is kept between calls)."""

    path: Path
    data: bytes | None

    @classmethod
    def of(cls, path: str | Path) -> ReplySource:
        return _source(Path(path))

    def open(self) -> BinaryIO:
        if self.data is not None:
            return io.BytesIO(self.data)
        return open_regular(
            self.path
        )  # regular when it was looked at: never a FIFO's blocking open

    def head(self, size: int = 4096) -> bytes:
        with self.open() as handle:
            try:
                return handle.read(size)
            except OSError as exc:
                raise InputError(
                    f"cannot read: {exc.strerror or exc}", file=str(self.path)
                ) from None

    def sha256(self) -> str:
        """SHA-256 of the whole file, read for it alone (what a zip, read out of order, needs)."""
        if self.data is not None:
            return hashlib.sha256(self.data).hexdigest()
        digest = hashlib.sha256()
        with self.open() as handle:
            for chunk in iter(lambda: handle.read(_CHUNK), b""):
                digest.update(chunk)
        return digest.hexdigest()


_JSON_START: Final = re.compile(rb"^(?:\xef\xbb\xbf)?[ \t\r\n]*(?:[{\[]|$)")
_CHUNK: Final = 1 << 20


def _source(path: Path) -> ReplySource:
    where = str(path)
    try:
        info = os.stat(path)
    except FileNotFoundError:
        raise InputError("file not found", file=where) from None
    except OSError as exc:
        raise InputError(f"cannot read: {exc.strerror or exc}", file=where) from None
    if stat.S_ISDIR(info.st_mode):
        raise InputError("is a folder, not a file", file=where)
    if stat.S_ISREG(info.st_mode):
        return ReplySource(path, None)
    chunks: list[bytes] = []
    total = 0
    try:
        with path.open("rb") as handle:
            while chunk := handle.read(_CHUNK):
                if not chunks and not (
                    chunk.startswith(_ZIP_MAGIC) or _JSON_START.match(chunk[:4096])
                ):
                    raise InputError(
                        "does not start like JSON, JSONL or a zip: not a reply file", file=where
                    )
                total += len(chunk)
                if total > MAX_STREAM_BYTES:
                    raise InputError(
                        f"more than {MAX_STREAM_BYTES // MIB} MiB from a stream; save it to a file "
                        "first",
                        file=where,
                    )
                chunks.append(chunk)
    except OSError as exc:
        raise InputError(f"cannot read: {exc.strerror or exc}", file=where) from None
    return ReplySource(path, b"".join(chunks))


def each_source(paths: Iterable[str | Path]) -> Iterator[ReplySource]:
    """Each path opened as a source, in order. A path named again within the same call is the
    same source (a pipe, read once, serves each time it is named), as reading it twice would be
    for a regular file; nothing outlives the call."""
    seen: dict[str, ReplySource] = {}
    for path in paths:
        found = seen.get(str(path))
        if found is None:
            found = seen[str(path)] = _source(Path(path))
        yield found


class _HashingRaw(io.RawIOBase):
    """A regular file's raw reads, each chunk fed to a SHA-256 as it passes: under a
    BufferedReader, the lines are read by C code and only each 1 MiB refill comes through here,
    so a file is hashed by the reading that parses it, never read a second time for its digest."""

    def __init__(self, raw: io.RawIOBase) -> None:
        super().__init__()
        self._raw = raw
        self.digest = hashlib.sha256()

    def readable(self) -> bool:
        return True

    def readinto(self, buffer: Any) -> int:
        got = self._raw.readinto(buffer) or 0
        if got:
            self.digest.update(memoryview(buffer)[:got])
        return got

    def close(self) -> None:
        self._raw.close()
        super().close()


class _Hashed:
    """A source opened for one reading whose bytes are hashed as they are read (`sha256()` once
    the reading is done: what is left unread is read into the digest first)."""

    def __init__(self, source: ReplySource) -> None:
        if source.data is not None:
            self.handle: BinaryIO = io.BytesIO(source.data)
            self._raw: _HashingRaw | None = None
            self._data = source.data
        else:
            plain = cast(io.BufferedReader, open_regular(source.path))
            self._raw = _HashingRaw(plain.detach())
            self.handle = io.BufferedReader(self._raw, _CHUNK)
            self._data = b""

    def sha256(self) -> str:
        if self._raw is None:
            return hashlib.sha256(self._data).hexdigest()
        while self.handle.read(_CHUNK):
            pass
        return self._raw.digest.hexdigest()

    def __enter__(self) -> _Hashed:
        return self

    def __exit__(self, *exc: object) -> None:
        self.handle.close()


def _is_zip(source: ReplySource) -> bool:
    return source.path.suffix == ".eval" or source.head(4) == _ZIP_MAGIC


def _json_data(source: ReplySource) -> bytes:
    """The file's bytes for one JSON object (an Inspect `.json` log), bounded by MAX_JSON_BYTES."""
    if source.data is not None:
        return source.data
    if source.path.stat().st_size > MAX_JSON_BYTES:
        raise InputError(
            f"larger than {MAX_JSON_BYTES // MIB} MiB for one JSON log; use the .eval format",
            file=str(source.path),
        )
    return read_bounded(source.path, MAX_JSON_BYTES)


def _whole_json(source: ReplySource) -> JsonObject:
    """The file as one JSON object (an Inspect `.json` log), bounded by MAX_JSON_BYTES."""
    return json_object(_json_data(source), str(source.path))


def _is_inspect_log(value: JsonObject | None) -> bool:
    return value is not None and ("samples" in value or "eval" in value)


def _read_inspect(
    source: ReplySource, select: Select | None = None, count: LineCount | None = None
) -> tuple[Iterator[Envelope], Callable[[], str]]:
    """The samples of an Inspect log, and how to get the SHA-256 of the bytes they were read from
    (a `.json` log's own bytes; a zip, read out of order, is hashed in a pass of its own)."""
    if _is_zip(source):
        return _inspect_zip(source, select, count), source.sha256
    data = b""
    try:
        data = _json_data(source)
        log: JsonObject | None = json_object(data, str(source.path))
    except InputError:
        log = None
    if log is None or not _is_inspect_log(log):
        raise InputError(
            "not an Inspect log (expected a .eval zip or a JSON object with 'eval' and 'samples')",
            file=str(source.path),
        )
    return _inspect_json(source.path, log, select, count), lambda: hashlib.sha256(data).hexdigest()


# --- detection and the public entry points ---------------------------------------------------

LineReader = Callable[[JsonObject, _At], Envelope]

LINE_READERS: Final[dict[Format, LineReader]] = {
    "native": native_envelope,
    "openai-batch": openai_batch_envelope,
    "anthropic-batch": anthropic_batch_envelope,
    "chat-jsonl": chat_jsonl_envelope,
}


def format_of_line(record: JsonObject) -> Format | None:
    """Which JSONL format a line's keys announce, or None."""
    keys = set(record)
    if {"result", "custom_id"} <= keys:
        return "anthropic-batch"
    if "custom_id" in keys and ("response" in keys or "error" in keys):
        return "openai-batch"
    if {"messages", "id"} <= keys:
        return "chat-jsonl"
    if {"packet_id", "reply"} <= keys:
        return "native"
    return None


def _first_line(source: ReplySource) -> tuple[int, JsonObject | None, str, bool]:
    """(its line number, the first non-empty line as an object or None, why it is not one,
    whether anything follows it); line number 0 when the file holds nothing."""
    with source.open() as handle:
        number = 0
        while True:
            raw = handle.readline(MAX_LINE_BYTES + 1)
            if not raw:
                return 0, None, "", False
            number += 1
            if raw.strip(b"\xef\xbb\xbf \t\r\n"):
                break
        more = bool(handle.read(1 << 16).strip())
    if len(raw) > MAX_LINE_BYTES:
        return number, None, f"line longer than {MAX_LINE_BYTES // MIB} MiB", True
    try:
        text = raw.removeprefix(b"\xef\xbb\xbf").decode("utf-8")
    except UnicodeDecodeError:
        return number, None, "not valid UTF-8", more
    try:
        value = loads(text, file=str(source.path), line=number)
    except InputError as exc:
        return number, None, exc.problem, more
    if not isinstance(value, dict):
        return number, None, "expected a JSON object", more
    return number, value, "", more


def _sniff(source: ReplySource) -> Format:
    if _is_zip(source):
        return "inspect"
    number, first, problem, more = _first_line(source)
    if number == 0:
        raise InputError("no replies in file", file=str(source.path))
    if first is None or (_is_inspect_log(first) and not more):
        # Not a JSON object on its own line (a pretty-printed Inspect log?), or a one-line log.
        try:
            if _is_inspect_log(_whole_json(source)):
                return "inspect"
        except InputError:
            pass
        if first is None:
            raise InputError(problem, file=str(source.path), line=number)
    found = format_of_line(first)
    if found is None:
        keys = ", ".join(sorted(first)[:8]) or "none"
        raise InputError(
            f"cannot tell the reply format from this line (keys: {_short(keys)})",
            file=str(source.path),
            line=number,
        )
    return found


def _read(source: ReplySource, fmt: Format) -> tuple[list[Envelope], str]:
    if fmt == "inspect":
        samples, sha256 = _read_inspect(source)
        envelopes = list(samples)
        return envelopes, sha256()
    reader = LINE_READERS[fmt]
    name = str(source.path)
    with _Hashed(source) as hashed:
        envelopes = [
            reader(record, _At(name, number, fmt))
            for number, record in iter_jsonl(hashed.handle, name)
        ]
        return envelopes, hashed.sha256()


class ReplyFile(NamedTuple):
    """One reply file as one reading read it: the path as given, the format it was read as, and
    the SHA-256 of the bytes that reading parsed (hashed while it read them)."""

    path: Path
    format: Format
    sha256: str


def detect_format(path: str | Path | ReplySource) -> Format:
    """`.eval`/zip or a JSON log object -> inspect; else the first non-empty JSONL line's keys."""
    return _sniff(path if isinstance(path, ReplySource) else _source(Path(path)))


def read_envelopes_bytes(data: bytes, name: str, fmt: Format | None = None) -> list[Envelope]:
    """The same from bytes already in memory (`name` is the file they stand for, in messages)."""
    envelopes, _ = read_file(ReplySource(Path(name), data), fmt)
    return envelopes


def reply_format(fmt: Format | None) -> None:
    """A reply format asked for is one the kit reads (None: detect each file's), else an
    InputError naming `fmt`, as `--format`'s choices hold it on the command line."""
    if fmt is not None:
        check(choice_problem(fmt, FORMATS), "fmt")


def read_envelopes(path: str | Path, fmt: Format | None = None) -> list[Envelope]:
    """Every reply in one file, in file order; `fmt` forces a format instead of detecting it."""
    reply_format(fmt)
    envelopes, _ = read_file(_source(arguments.path(path, "path")), fmt)
    return envelopes


def read_file(source: ReplySource, fmt: Format | None = None) -> tuple[list[Envelope], ReplyFile]:
    """Every reply of one opened file, and the file as read (its format and digest)."""
    chosen = _sniff(source) if fmt is None else fmt
    envelopes, sha256 = _read(source, chosen)
    if not envelopes:
        raise InputError("no replies in file", file=str(source.path))
    return envelopes, ReplyFile(source.path, chosen, sha256)


def read_replies(
    paths: Sequence[str | Path], fmt: Format | None = None
) -> tuple[list[Envelope], list[ReplyFile]]:
    """Every reply of every file, in order, and each file as read (one entry per path given; a
    path given twice is read once, see `each_source`)."""
    reply_format(fmt)
    envelopes: list[Envelope] = []
    files: list[ReplyFile] = []
    done: dict[str, tuple[list[Envelope], ReplyFile]] = {}
    for source in each_source(paths):
        found = done.get(str(source.path))
        if found is None:
            found = done[str(source.path)] = read_file(source, fmt)
        envelopes += found[0]
        files.append(found[1])
    return envelopes, files


# --- one reply at a time, for scoring millions -------------------------------------------------
#
# Scoring reads each reply once and keeps none: `Replies` yields `Received` records instead of
# Envelopes, and the common record of each format (a plain success) is read by a fast function
# that accepts only what the format's reader above would read to the same values. Any other
# record (an error, a refusal, content parts, anything malformed) goes through that reader, so
# every message and every edge case stays the reader's own. tests/runners/test_parsers_agree.py
# proves the two roads agree on every kind of line (the same record or the same error).


class Received(NamedTuple):
    """One reply as scoring reads it: an Envelope's fields, file and line first (a NamedTuple, so
    it is made and read at a tuple's speed)."""

    file: str
    line: int
    ref: str
    reply: str | None
    error: str | None
    model: str | None
    sample: int
    request_sha256: str | None
    request_messages: tuple[tuple[str, str], ...] | None
    usage: Usage | None


def received_of(env: Envelope) -> Received:
    return Received(
        env.file,
        env.line,
        env.ref,
        env.reply,
        env.error,
        env.model,
        env.sample,
        env.request_sha256,
        env.request_messages,
        env.usage,
    )


def _answer(reply: str) -> str:
    return answer_text(reply) if "<" in reply else reply  # no reasoning tag without a "<"


def _fast_native(record: JsonObject, file: str, line: int) -> Received | None:
    ref, digest, reply = record.get("packet_id"), record.get("request_sha256"), record.get("reply")
    sample, model = record.get("sample", 0), record.get("model")
    if (
        type(ref) is str
        and ref
        and type(digest) is str
        and len(digest) == 64
        and _SHA256.match(digest)
        and type(reply) is str
        and (sample is None or (type(sample) is int and sample >= 0))
        and (model is None or type(model) is str)
    ):
        return Received(
            file,
            line,
            ref,
            _answer(reply),
            None,
            model or None,
            sample or 0,
            digest.lower(),
            None,
            None,
        )
    return None


def _fast_openai(record: JsonObject, file: str, line: int) -> Received | None:
    ref, response = record.get("custom_id"), record.get("response")
    if type(ref) is not str or record.get("error") is not None or type(response) is not dict:
        return None
    status, body = response.get("status_code"), response.get("body")
    if (
        not (status is None or (type(status) is int and 200 <= status < 300))
        or type(body) is not dict
    ):
        return None
    model, choices = body.get("model"), body.get("choices")
    if (
        not (model is None or type(model) is str)
        or type(choices) is not list
        or not choices
        or type(choices[0]) is not dict
    ):
        return None
    message = choices[0].get("message")
    if type(message) is not dict:
        return None
    content, refusal = message.get("content"), message.get("refusal")
    if type(content) is not str or not (refusal is None or refusal == ""):
        return None
    usage = usage_of(body.get("usage"))
    if usage is not None and (usage[0] > MAX_USAGE_TOKENS or usage[1] > MAX_USAGE_TOKENS):
        return None  # the reader names it (usage_within, written out: once per reply)
    return Received(file, line, ref, _answer(content), None, model or None, 0, None, None, usage)


def _fast_anthropic(record: JsonObject, file: str, line: int) -> Received | None:
    ref, result = record.get("custom_id"), record.get("result")
    if type(ref) is not str or type(result) is not dict or result.get("type") != "succeeded":
        return None
    message = result.get("message")
    if type(message) is not dict:
        return None
    model, content = message.get("model"), message.get("content")
    if (
        not (model is None or type(model) is str)
        or message.get("stop_reason") == "refusal"
        or type(content) is not list
    ):
        return None
    texts = []
    for block in content:
        if type(block) is not dict:
            return None
        if block.get("type") == "text":
            text = block.get("text")
            if type(text) is not str:
                return None
            texts.append(text)
    usage = usage_of(message.get("usage"))
    if usage is not None and (usage[0] > MAX_USAGE_TOKENS or usage[1] > MAX_USAGE_TOKENS):
        return None  # the reader names it (usage_within, written out: once per reply)
    return Received(
        file, line, ref, _answer("\n".join(texts)), None, model or None, 0, None, None, usage
    )


def _fast_chat(record: JsonObject, file: str, line: int) -> Received | None:
    ident, messages, model = record.get("id"), record.get("messages"), record.get("model")
    if type(ident) is not str or type(messages) is not list or not messages:
        return None
    pairs = []
    for message in messages:
        if type(message) is not dict:
            return None
        role, content = message.get("role"), message.get("content")
        if type(role) is not str or type(content) is not str:
            return None
        pairs.append((role, content))
    role, reply = pairs.pop()
    refusal = messages[-1].get("refusal")
    if role != "assistant" or not (refusal is None or refusal == ""):
        return None
    usage = usage_of(record.get("usage"))
    if usage is not None and (usage[0] > MAX_USAGE_TOKENS or usage[1] > MAX_USAGE_TOKENS):
        return None  # the reader names it (usage_within, written out: once per reply)
    return Received(
        file,
        line,
        ident,
        _answer(reply),
        None,
        model if type(model) is str and model else None,
        0,
        None,
        tuple(pairs),
        usage,
    )


FastReader = Callable[[JsonObject, str, int], "Received | None"]
"""A format's fast road: the record of a plain success, read to what the format's reader gives
(file and line given), or None for anything else (the reader then reads it)."""

FAST_READERS: Final[dict[Format, FastReader]] = {
    "native": _fast_native,
    "openai-batch": _fast_openai,
    "anthropic-batch": _fast_anthropic,
    "chat-jsonl": _fast_chat,
}


def _bound_sample_allowed(ref: str) -> bool:
    """The sample an exported id carries (`..._s<k>`, 0 if none) is below MAX_SAMPLES. Only the
    ids that could fail are split: an exported id's sample has at most four digits
    (`binding._BOUND`), and one of MAX_SAMPLES (1,000) or more has four, so only an id ending in
    `_s` and four characters is split (`unbind`, making no BoundId; 1.3 us a batch reply)."""
    return ref[-6:-4] != "_s" or (split_ref(ref)[2] or 0) < MAX_SAMPLES


def read_line(record: JsonObject, file: str, line: int, fmt: Format) -> Received:
    """One JSONL record as scoring reads it: the fast road where it applies (within the limits
    on samples and reply length), else the format's reader (its values, or its error)."""
    fast = FAST_READERS.get(fmt)
    got = fast(record, file, line) if fast is not None else None
    if got is not None:
        if (
            got.sample < MAX_SAMPLES
            and _bound_sample_allowed(got.ref)
            and (got.reply is None or len(got.reply) <= MAX_REPLY_CHARS)
        ):
            return got
    return received_of(LINE_READERS[fmt](record, _At(file, line, fmt)))


class Replies:
    """One reading of one reply file: iterate it (once) for every reply, one at a time in file
    order, as `read_envelopes` reads them (the same values, the same errors at the same places);
    `select` reads only a shard's records. Once the replies are all read, `file` is the file as
    this reading read it: its format and the SHA-256 of the bytes parsed (hashed while read)."""

    def __init__(
        self, source: ReplySource, fmt: Format | None = None, select: Select | None = None
    ) -> None:
        reply_format(fmt)
        self.source = source
        self.format: Format = _sniff(source) if fmt is None else fmt
        self._select = select
        self._file: ReplyFile | None = None

    @property
    def file(self) -> ReplyFile:
        if self._file is None:
            raise RuntimeError("the file's digest is known once every reply has been read")
        return self._file

    def __iter__(self) -> Iterator[Received]:
        source, chosen, select = self.source, self.format, self._select
        name = str(source.path)
        count = LineCount()
        if chosen == "inspect":
            samples, sha256 = _read_inspect(source, select, count)
            for env in samples:
                yield received_of(env)
            digest = sha256()
        else:
            reader, fast = LINE_READERS[chosen], FAST_READERS[chosen]
            with _Hashed(source) as hashed:
                for number, record in iter_jsonl(hashed.handle, name, select, count):
                    # Written out (read_line, inlined: this runs once per reply of a million-reply
                    # score); the place (`_At`) is made only for the reader, never on the fast road.
                    got = fast(record, name, number)
                    if got is not None:
                        if (
                            got.sample < MAX_SAMPLES
                            and _bound_sample_allowed(got.ref)
                            and (got.reply is None or len(got.reply) <= MAX_REPLY_CHARS)
                        ):
                            yield got
                            continue
                    yield received_of(reader(record, _At(name, number, chosen)))
                digest = hashed.sha256()
        if not count.nonempty:
            raise InputError("no replies in file", file=name)
        self._file = ReplyFile(source.path, chosen, digest)


def received(
    path: str | Path, fmt: Format | None = None, select: Select | None = None
) -> Iterator[Received]:
    """Every reply of one file, one at a time (`Replies`, for a caller that needs no digest)."""
    reply_format(fmt)
    yield from Replies(_source(Path(path)), fmt, select)
