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

Request options (`RequestOptions`: temperature, max tokens, a JSON body merged into every
request) go where each API reads them: the OpenAI `body` (`max_completion_tokens`, the current
name; a server that wants `max_tokens` gets it through `--body`), the Anthropic `params`, and the
top level of a chat-JSONL line (where `examples/openai_compatible_runner.py` reads them). Inspect
takes them on its own command line (`inspect eval --temperature ...`), so an inspect export
refuses them. `shards` cuts a long export into files within each batch API's per-file limits
(`FILE_LIMITS`, from the OpenAI Batch and Anthropic Message Batches documentation).
"""

from __future__ import annotations

import json
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from typing import Final, Literal, get_args

from ..core.arguments import (
    check,
    count,
    count_problem,
    number_problem,
    optional_text,
    text_problem,
)
from ..core.binding import bind
from ..core.construct import Format
from ..core.errors import InputError
from ..core.limits import MAX_SAMPLES

ExportFormat = Literal["openai-batch", "anthropic-batch", "inspect", "chat-jsonl"]
EXPORT_FORMATS: Final[tuple[ExportFormat, ...]] = get_args(ExportFormat)
OPENAI_CHAT_URL: Final = "/v1/chat/completions"

ExportLine = dict[str, object]

FILE_LIMITS: Final[dict[ExportFormat, tuple[int, int]]] = {
    # (requests, bytes) per input file. OpenAI Batch: "up to 50,000 requests, and up to 200 MB";
    # Anthropic Message Batches: "100,000 Message requests or 256 MB, whichever is reached first".
    # Megabytes are read as 10**6 bytes: the smaller reading, and it leaves room for the
    # `{"requests": [...]}` wrapper the Anthropic API body adds around the lines.
    "openai-batch": (50_000, 200_000_000),
    "anthropic-batch": (100_000, 256_000_000),
}
ANTHROPIC_DEFAULT_MAX_TOKENS: Final = 1024
_RESERVED: Final[dict[ExportFormat, frozenset[str]]] = {
    # Keys that say what is asked and of whom: a --body may not replace them.
    "openai-batch": frozenset({"model", "messages"}),
    "anthropic-batch": frozenset({"model", "messages", "system"}),
    "chat-jsonl": frozenset({"id", "messages"}),
    "inspect": frozenset(),
}


ANTHROPIC_PARAMS: Final = frozenset(
    {
        # The fields of MessageCreateParams in the anthropic SDK 2.15.0 (anthropic.types.
        # message_create_params), which `messages.batches.create` takes as each request's `params`.
        # It has no temperature, top_p or top_k: a request with one fails the SDK's type check.
        "cache_control",
        "container",
        "diagnostics",
        "inference_geo",
        "max_tokens",
        "messages",
        "metadata",
        "model",
        "output_config",
        "service_tier",
        "speed",
        "stop_sequences",
        "system",
        "thinking",
        "tool_choice",
        "tools",
        "user_profile_id",
        "workspace_id",
    }
)


TEMPERATURE: Final = (0.0, 2.0, "a number from 0 to 2")
"""A temperature's range and how a refusal words it: `--temperature`, `RequestOptions` and a
`--body` temperature (the range OpenAI's API takes)."""


@dataclass(frozen=True, slots=True, kw_only=True)
class RequestOptions:
    """Sampling options for every exported request; None leaves the API's default."""

    temperature: float | None = None
    max_tokens: int | None = None
    body: dict[str, object] = field(default_factory=dict)

    def __post_init__(self) -> None:
        """Held to what `--temperature`, `--max-tokens` and `--body` accept (an InputError naming
        the argument): the API takes no option the command line refuses."""
        if self.temperature is not None:
            check(number_problem(self.temperature, *TEMPERATURE), "temperature")
        if self.max_tokens is not None:
            check(count_problem(self.max_tokens), "max_tokens")
        check(body_problem(self.body, as_value=True), "body")

    def given(self) -> bool:
        return self.temperature is not None or self.max_tokens is not None or bool(self.body)

    def params(self, fmt: ExportFormat) -> dict[str, object]:
        """What to merge into one request of this format (checked: `check` first)."""
        out: dict[str, object] = {}
        if self.temperature is not None:
            out["temperature"] = self.temperature
        if fmt == "anthropic-batch":
            out["max_tokens"] = (
                self.max_tokens if self.max_tokens is not None else ANTHROPIC_DEFAULT_MAX_TOKENS
            )
        elif self.max_tokens is not None:
            out["max_completion_tokens" if fmt == "openai-batch" else "max_tokens"] = (
                self.max_tokens
            )
        return {**out, **self.body}

    def check(self, fmt: ExportFormat) -> None:
        """ValueError naming the problem: options Inspect cannot take, a bad range, a clash."""
        if fmt == "inspect" and self.given():
            raise ValueError(
                "inspect takes sampling options on its own command line (inspect eval "
                "--temperature T --max-tokens N)"
            )
        if fmt == "anthropic-batch":
            unknown = sorted({"temperature"} if self.temperature is not None else set()) + sorted(
                set(self.body) - ANTHROPIC_PARAMS
            )
            if unknown:
                raise ValueError(
                    f"anthropic-batch requests take no {', '.join(unknown)} (not in the anthropic "
                    "SDK's MessageCreateParams, 2.15.0): leave it out for this format"
                )
        reserved = sorted(_RESERVED[fmt] & set(self.body))
        if reserved:
            raise ValueError(
                f"--body may not set {', '.join(reserved)}: the packets decide what is asked"
            )
        named = {
            "temperature": self.temperature,
            "max_tokens": self.max_tokens,
            "max_completion_tokens": self.max_tokens,
        }
        clash = sorted(k for k, v in named.items() if v is not None and k in self.body)
        if clash:
            raise ValueError(f"--body sets {', '.join(clash)} and so does an option: give it once")

    def as_json(self) -> dict[str, object]:
        """For provenance: what was asked beyond the packets."""
        return {
            "temperature": self.temperature,
            "max_tokens": self.max_tokens,
            "body": dict(self.body),
        }


MAX_BODY_BYTES: Final = 64 * 1024
"""`--body` text: an API's sampling options are a few hundred bytes."""
MAX_BODY_DEPTH: Final = 16
"""Nesting of `--body` (an API's options nest two or three deep)."""
_BODY_RANGES: Final[dict[str, tuple[float, float]]] = {
    "temperature": TEMPERATURE[:2],
    "top_p": (0.0, 1.0),
    "top_k": (0.0, 1e6),
    "max_tokens": (1.0, 1e7),
    "max_completion_tokens": (1.0, 1e7),
    "presence_penalty": (-2.0, 2.0),
    "frequency_penalty": (-2.0, 2.0),
}
_WHOLE: Final = frozenset({"top_k", "max_tokens", "max_completion_tokens"})


def _depth(value: object) -> int:
    deepest, stack = 0, [(value, 1)]
    while stack:
        item, level = stack.pop()
        if isinstance(item, (dict, list)):
            deepest = max(deepest, level)
            if level <= MAX_BODY_DEPTH:
                stack.extend(
                    (v, level + 1) for v in (item.values() if isinstance(item, dict) else item)
                )
    return deepest


def parse_body(text: str) -> dict[str, object]:
    """`--body`: one JSON object, read by the same strict reader as every file (store.loads: no
    duplicate key, NaN, lone surrogate or runaway integer), at most MAX_BODY_BYTES, and then what
    `body_problem` asks of any body; anything else is a ValueError saying so."""
    from ..files.store import loads

    if text_problem(text) is not None:  # a lone surrogate (an undecodable byte of argv)
        raise ValueError("--body is not valid UTF-8 text")
    if len(text.encode("utf-8")) > MAX_BODY_BYTES:
        raise ValueError(f"--body is longer than {MAX_BODY_BYTES // 1024} KiB")
    try:
        value = loads(text, file="--body")
    except InputError as exc:
        raise ValueError(
            f"--body is {exc.problem}"
            if exc.problem.startswith("not valid JSON")
            else f"--body: {exc.problem}"
        ) from None
    problem = body_problem(value)
    if problem is not None or not isinstance(value, dict):  # not a dict: body_problem says so
        raise ValueError(problem)
    return value


def body_problem(value: object, *, as_value: bool = False) -> str | None:
    """Why `value` is not a body the kit merges into requests (`--body`, `RequestOptions.body`),
    or None: a JSON object at most MAX_BODY_DEPTH deep, with the well-known sampling options in
    their APIs' ranges and no key that names a request (`custom_id`, `id`). With `as_value` (a
    body given as a value, not parsed from text), it must also be JSON text within MAX_BODY_BYTES:
    no lone surrogate, NaN or value JSON has no form for."""
    if not isinstance(value, dict):
        return "--body must be a JSON object, for example '{\"top_p\": 0.9}'"
    if _depth(value) > MAX_BODY_DEPTH:
        return f"--body is nested more than {MAX_BODY_DEPTH} deep"
    if as_value:
        try:
            dumped = json.dumps(value, ensure_ascii=False, allow_nan=False)
        except (TypeError, ValueError):
            return "--body must be JSON: text, numbers, true, false, null, lists and objects"
        if text_problem(dumped) is not None:
            return "--body is not valid UTF-8 text"
        if len(dumped.encode("utf-8")) > MAX_BODY_BYTES:
            return f"--body is longer than {MAX_BODY_BYTES // 1024} KiB"
    named = sorted({"custom_id", "id"} & set(value))
    if named:
        return f"--body may not set {', '.join(named)}: the kit names every request"
    for key, (low, high) in _BODY_RANGES.items():
        if key not in value:
            continue
        number = value[key]
        whole = isinstance(number, int) and not isinstance(number, bool)
        if (
            not (whole or (isinstance(number, float) and key not in _WHOLE))
            or not low <= number <= high
        ):
            kind = "a whole number" if key in _WHOLE else "a number"
            return (
                f"--body: {key} must be {kind} from {low:g} to {high:g}, got "
                f"{json.dumps(number)[:40]}"
            )
    return None


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
        raise InputError(f"request record has no string {key!r}", field="records")
    return value


def request_of(record: Mapping[str, object]) -> Request:
    """Pick and check the exportable fields of one request record (a round1.jsonl line)."""
    packet_id = _text_field(record, "packet_id")
    raw = record.get("messages")
    if not isinstance(raw, list) or not raw:
        raise InputError(f"request {packet_id} has no messages", field="records")
    messages = []
    for index, message in enumerate(raw):
        role = message.get("role") if isinstance(message, dict) else None
        content = message.get("content") if isinstance(message, dict) else None
        if role not in ("system", "user", "assistant") or not isinstance(content, str):
            raise InputError(
                f"request {packet_id} message {index} is not a {{role, content}} chat message",
                field="records",
            )
        if text_problem(content) is not None:  # a caller's record: no file could hold it
            raise InputError(
                f"request {packet_id} message {index} is not valid UTF-8 text", field="records"
            )
        if role == "system" and index != 0:
            raise InputError(
                f"request {packet_id} has a system message after the first message",
                field="records",
            )
        messages.append((str(role), content))
    return Request(
        packet_id=packet_id,
        packet_set=_text_field(record, "packet_set"),
        request_sha256=_text_field(record, "request_sha256"),
        messages=tuple(messages),
    )


def chat_messages(request: Request) -> list[dict[str, str]]:
    return [{"role": role, "content": content} for role, content in request.messages]


def _named(model: str | None) -> dict[str, object]:
    """The request's `model` field, or none: without one the runner that sends it chooses."""
    return {} if model is None else {"model": model}


def openai_batch_line(
    custom_id: str, request: Request, model: str | None, params: Mapping[str, object]
) -> ExportLine:
    """One OpenAI Batch API input line (also what `vllm run-batch` reads)."""
    return {
        "custom_id": custom_id,
        "method": "POST",
        "url": OPENAI_CHAT_URL,
        "body": {**_named(model), "messages": chat_messages(request), **params},
    }


def anthropic_batch_line(
    custom_id: str, request: Request, model: str | None, params: Mapping[str, object]
) -> ExportLine:
    """One Message Batches request: the system text goes to `params.system`, not `messages`."""
    out: dict[str, object] = {**_named(model), **params}
    turns = list(request.messages)
    if turns and turns[0][0] == "system":
        out["system"] = turns.pop(0)[1]
    out["messages"] = [{"role": role, "content": content} for role, content in turns]
    return {"custom_id": custom_id, "params": out}


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


def chat_jsonl_line(custom_id: str, request: Request, params: Mapping[str, object]) -> ExportLine:
    return {"id": custom_id, "messages": chat_messages(request), **params}


def export_line(
    fmt: ExportFormat,
    custom_id: str,
    request: Request,
    model: str | None,
    params: Mapping[str, object],
) -> ExportLine:
    if fmt == "openai-batch":
        return openai_batch_line(custom_id, request, model, params)
    if fmt == "anthropic-batch":
        return anthropic_batch_line(custom_id, request, model, params)
    if fmt == "inspect":
        return inspect_line(custom_id, request)
    return chat_jsonl_line(custom_id, request, params)


_REPLY_KEYS: Final = frozenset(
    {"reply", "response", "result", "error", "choices", "output", "completion", "content"}
)


def is_request_line(line: Mapping[str, object]) -> bool:
    """A line of a request file the kit exports, by its whole shape (not by its id alone: a
    batch's paid-for *output* carries the same set-bound ids): an OpenAI or Anthropic batch
    request, an Inspect sample or a chat-jsonl request, with a set-bound id."""
    from ..core.binding import unbind

    keys = set(line)
    ident = line.get("custom_id", line.get("id"))
    try:
        if not isinstance(ident, str) or unbind(ident).packet_set is None:
            return False
    except ValueError:
        return False
    body, params = line.get("body"), line.get("params")
    if keys == {"custom_id", "method", "url", "body"}:
        return (
            line.get("method") == "POST"
            and line.get("url") == OPENAI_CHAT_URL
            and isinstance(body, dict)
            and isinstance(body.get("messages"), list)
        )
    if keys == {"custom_id", "params"}:
        return isinstance(params, dict) and isinstance(params.get("messages"), list)
    if keys == {"id", "input", "metadata"}:
        return isinstance(line.get("input"), list) and isinstance(line.get("metadata"), dict)
    messages = line.get("messages")
    if not (
        "id" in keys
        and "custom_id" not in keys
        and isinstance(messages, list)
        and messages
        and not keys & _REPLY_KEYS
    ):
        return False
    # A chat-jsonl reply is the request with the assistant's turn appended: a request ends with the
    # user's.
    last = messages[-1]
    return isinstance(last, dict) and last.get("role") == "user"


def line_messages(line: Mapping[str, object]) -> tuple[tuple[str, str], ...] | None:
    """The chat messages a request line asks (system first), whatever its format, or None when
    they are not {role, content} text: what must equal a packet's request for the line to be
    the kit's (the model and sampling options around them may differ between two exports)."""
    body, params = line.get("body"), line.get("params")
    if isinstance(body, dict):
        raw: object = body.get("messages")
        head: list[object] = []
    elif isinstance(params, dict):
        raw, system = params.get("messages"), params.get("system")
        head = [{"role": "system", "content": system}] if system is not None else []
    else:
        raw, head = line.get("input", line.get("messages")), []
    if not isinstance(raw, list):
        return None
    out = []
    for message in [*head, *raw]:
        role = message.get("role") if isinstance(message, dict) else None
        content = message.get("content") if isinstance(message, dict) else None
        if not isinstance(role, str) or not isinstance(content, str):
            return None
        out.append((role, content))
    return tuple(out)


def export_format(fmt: str) -> ExportFormat:
    """The export format named `fmt`; `native` and unknown names are an InputError naming `fmt`
    (a ValueError)."""
    for known in EXPORT_FORMATS:
        if known == fmt:
            return known
    raise InputError(
        f"{fmt!r} is not an export format (choose from {', '.join(EXPORT_FORMATS)})", field="fmt"
    )


def export_lines(
    records: Iterable[Mapping[str, object]],
    fmt: Format,
    model: str | None,
    *,
    samples: int = 1,
    max_tokens: int | None = None,
    options: RequestOptions | None = None,
) -> list[ExportLine]:
    """Every record `samples` times (ids `bind(packet_id, packet_set, k)`, k = 0..samples-1).
    `max_tokens` alone is short for `options=RequestOptions(max_tokens=...)`. `model` is written
    into openai-batch and anthropic-batch requests; None leaves it out, for a runner that names
    the model itself (`run` without --model: the batch APIs themselves need one, so `export`
    always gives it); chat-jsonl and inspect lines never carry it."""
    chosen = export_format(fmt)
    count(samples, "samples", MAX_SAMPLES, "samples per packet")  # as `export --samples`
    optional_text(model, "model")  # as `export --model`: it is written into every request
    if options is None:
        options = RequestOptions(max_tokens=max_tokens)
    elif max_tokens is not None:
        check("give max_tokens in the options", "max_tokens")
    try:
        options.check(chosen)
    except ValueError as exc:  # its words name the option, as the CLI shows them
        raise InputError(str(exc)) from None
    if chosen in ("openai-batch", "anthropic-batch") and model == "":
        raise InputError(f"{chosen} requests need a model name")
    params = options.params(chosen)
    lines = []
    for record in records:
        request = request_of(record)
        for sample in range(samples):
            custom_id = bind(request.packet_id, request.packet_set, sample)
            lines.append(export_line(chosen, custom_id, request, model, params))
    return lines


def shards(
    encoded: list[bytes],
    fmt: ExportFormat,
    shard_size: int | None,
    limits: tuple[int, int] | None = None,
) -> list[list[bytes]]:
    """Encoded lines cut into files of at most `shard_size` lines and within the API's per-file
    limits (`limits`, default FILE_LIMITS; none for inspect and chat-jsonl); without
    `shard_size`, one file, or a ValueError when that file would break a limit."""
    count_limit, byte_limit = limits or FILE_LIMITS.get(fmt) or (None, None)
    size = shard_size if shard_size is not None else len(encoded) or 1
    if shard_size is None and byte_limit is not None:
        total = sum(len(line) for line in encoded)
        if (count_limit is not None and len(encoded) > count_limit) or total > byte_limit:
            raise ValueError(
                f"{len(encoded)} requests ({total:,} bytes) exceed one {fmt} input file "
                f"({count_limit:,} requests, {byte_limit:,} bytes): pass --shard-size N"
            )
    if count_limit is not None and size > count_limit:
        raise ValueError(f"--shard-size {size} is above {fmt}'s {count_limit:,} requests per file")
    out: list[list[bytes]] = []
    current: list[bytes] = []
    current_bytes = 0
    for line in encoded:
        if byte_limit is not None and len(line) > byte_limit:
            raise ValueError(f"one request is larger than {fmt}'s {byte_limit:,} bytes per file")
        if current and (
            len(current) >= size
            or (byte_limit is not None and current_bytes + len(line) > byte_limit)
        ):
            out.append(current)
            current, current_bytes = [], 0
        current.append(line)
        current_bytes += len(line)
    if current or not out:
        out.append(current)
    return out


def shard_names(name: str, count: int) -> list[str]:
    """`r1.jsonl` -> `r1.1-of-3.jsonl`, ... (numbered from 1, zero-padded); one shard keeps the
    name."""
    if count == 1:
        return [name]
    stem, dot, suffix = name.rpartition(".")
    if not dot or not stem:
        stem, suffix = name, ""
    width = len(str(count))
    return [
        f"{stem}.{index:0{width}d}-of-{count}{'.' + suffix if suffix else ''}"
        for index in range(1, count + 1)
    ]
