"""Write request records in the input formats real runners read (DESIGN.md section 5).

A request record is a line of round1.jsonl (round-2 records have the same keys, with the
messages system, user, assistant, user). Export lines are built only from its `packet_id`,
`packet_set`, `messages` (role and content, nothing else) and `request_sha256`, so no key label
(family, state, acceptable, forbidden, edit) can reach a runner. Every exported id is
`binding.bind(packet_id, packet_set, sample)`, which fits Anthropic's `^[A-Za-z0-9_-]{1,64}$`.

Formats, from each one's public documentation:

- openai-batch: OpenAI's "request input object", one per line of a batch input file
  (platform.openai.com/docs/api-reference/batch/request-input): `custom_id`, `method` "POST",
  `url` "/v1/chat/completions", `body` {`model`, `messages`}. `vllm run-batch` reads the same
  lines (docs.vllm.ai, run-batch / BatchRequestInput).
- anthropic-batch: one item of `requests` in "Create a Message Batch"
  (docs.anthropic.com/en/api/creating-message-batches): `custom_id` and `params`, the Messages
  API parameters `model`, `max_tokens`, top-level `system` text and alternating `messages`.
- inspect: an Inspect AI dataset sample (inspect.aisi.org.uk/datasets.html, Sample): `id`,
  `input` as a list of chat messages (system included), `metadata`; no `target`, so no label.
- chat-jsonl: `{"id", "messages"}`, the common chat-JSONL shape.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from typing import Final, Literal, get_args

from .binding import bind
from .construct import Format

ExportFormat = Literal["openai-batch", "anthropic-batch", "inspect", "chat-jsonl"]
EXPORT_FORMATS: Final[tuple[ExportFormat, ...]] = get_args(ExportFormat)
OPENAI_CHAT_URL: Final = "/v1/chat/completions"

ExportLine = dict[str, object]


@dataclass(frozen=True, slots=True)
class Request:
    """The only fields of a request record that an export may use."""

    packet_id: str
    packet_set: str
    request_sha256: str
    messages: tuple[tuple[str, str], ...]


def _text_field(record: Mapping[str, object], key: str) -> str:
    value = record.get(key)
    if not isinstance(value, str) or not value:
        raise ValueError(f"request record has no string {key!r}")
    return value


def request_of(record: Mapping[str, object]) -> Request:
    """Pick and check the exportable fields of one request record (a round1.jsonl line)."""
    packet_id = _text_field(record, "packet_id")
    raw = record.get("messages")
    if not isinstance(raw, list) or not raw:
        raise ValueError(f"request {packet_id} has no messages")
    messages = []
    for index, message in enumerate(raw):
        role = message.get("role") if isinstance(message, dict) else None
        content = message.get("content") if isinstance(message, dict) else None
        if role not in ("system", "user", "assistant") or not isinstance(content, str):
            raise ValueError(f"request {packet_id} message {index} is not a {{role, content}} chat message")
        if role == "system" and index != 0:
            raise ValueError(f"request {packet_id} has a system message after the first message")
        messages.append((str(role), content))
    return Request(
        packet_id=packet_id,
        packet_set=_text_field(record, "packet_set"),
        request_sha256=_text_field(record, "request_sha256"),
        messages=tuple(messages),
    )


def chat_messages(request: Request) -> list[dict[str, str]]:
    return [{"role": role, "content": content} for role, content in request.messages]


def openai_batch_line(custom_id: str, request: Request, model: str) -> ExportLine:
    """One OpenAI Batch API input line (also what `vllm run-batch` reads)."""
    return {
        "custom_id": custom_id,
        "method": "POST",
        "url": OPENAI_CHAT_URL,
        "body": {"model": model, "messages": chat_messages(request)},
    }


def anthropic_batch_line(custom_id: str, request: Request, model: str, max_tokens: int) -> ExportLine:
    """One Message Batches request: the system text goes to `params.system`, not `messages`."""
    params: dict[str, object] = {"model": model, "max_tokens": max_tokens}
    turns = list(request.messages)
    if turns and turns[0][0] == "system":
        params["system"] = turns.pop(0)[1]
    params["messages"] = [{"role": role, "content": content} for role, content in turns]
    return {"custom_id": custom_id, "params": params}


def inspect_line(custom_id: str, request: Request) -> ExportLine:
    """One Inspect AI dataset sample (JSONL): chat-message input, metadata, and no target."""
    return {
        "id": custom_id,
        "input": chat_messages(request),
        "metadata": {
            "packet_id": request.packet_id,
            "packet_set": request.packet_set,
            "request_sha256": request.request_sha256,
        },
    }


def chat_jsonl_line(custom_id: str, request: Request) -> ExportLine:
    return {"id": custom_id, "messages": chat_messages(request)}


def export_line(fmt: ExportFormat, custom_id: str, request: Request, model: str, max_tokens: int) -> ExportLine:
    if fmt == "openai-batch":
        return openai_batch_line(custom_id, request, model)
    if fmt == "anthropic-batch":
        return anthropic_batch_line(custom_id, request, model, max_tokens)
    if fmt == "inspect":
        return inspect_line(custom_id, request)
    return chat_jsonl_line(custom_id, request)


def export_format(fmt: str) -> ExportFormat:
    """The export format named `fmt`; `native` and unknown names are a ValueError."""
    for known in EXPORT_FORMATS:
        if known == fmt:
            return known
    raise ValueError(f"{fmt!r} is not an export format (choose from {', '.join(EXPORT_FORMATS)})")


def export_lines(
    records: Iterable[Mapping[str, object]],
    fmt: Format,
    model: str,
    *,
    samples: int = 1,
    max_tokens: int = 1024,
) -> list[ExportLine]:
    """Every record `samples` times (ids `bind(packet_id, packet_set, k)`, k = 0..samples-1)."""
    chosen = export_format(fmt)
    if samples < 1:
        raise ValueError("samples must be at least 1")
    if max_tokens < 1:
        raise ValueError("max_tokens must be at least 1")
    if chosen in ("openai-batch", "anthropic-batch") and not model:
        raise ValueError(f"{chosen} requests need a model name")
    lines = []
    for record in records:
        request = request_of(record)
        for sample in range(samples):
            custom_id = bind(request.packet_id, request.packet_set, sample)
            lines.append(export_line(chosen, custom_id, request, model, max_tokens))
    return lines
