"""A runner for any OpenAI-compatible chat server on your own machine (vLLM, llama.cpp server,
Ollama, SGLang, ...): request JSONL on stdin, replies on stdout, standard library only.

    python -m honesty_pressure run --run runs/mine \\
        --runner "python examples/openai_compatible_runner.py \\
                  --base-url http://127.0.0.1:8000/v1 --model my-model"

    python -m honesty_pressure export --format chat-jsonl --model my-model --out r1.jsonl
    python examples/openai_compatible_runner.py --model my-model < r1.jsonl > r1.replies.jsonl

Input lines are what `export` writes in either of two formats:

- chat-jsonl `{"id", "messages", ...options}`: the reply is the same line with the assistant's
  message appended (`content` null when the request failed, with an `error` beside it; when the
  model declined, `content` null and its `refusal` in the message, as OpenAI writes it, or
  "content_filter" where the server's filter withheld the answer), the server's token `usage`
  where it gave one;
- openai-batch `{"custom_id", "method", "url", "body"}`: the reply is an OpenAI Batch output line
  (`response` with the status and body, the body's `usage` included, or `error`), as the Batch
  API writes it.

Either reply carries `latency_ms`, the milliseconds from the first attempt to the answer (retries
and waits included). The kit keeps the token usage in replies.jsonl and sums it per round
(docs/SCORING.md, "Usage"); the latency stays in the reply file.

Both are formats `score` and `advance` read. Reasoning is kept out of the reply: the message's
`reasoning_content`, `reasoning` and `reasoning_details` fields are dropped (a `<think>` block
in `content` is left for the kit, which cuts it off itself).

Each request is POSTed to `<base url>/chat/completions` with `--concurrency` in flight (default
64), each worker on one HTTP/1.1 connection that it keeps open between its requests and opens
again when the server has closed it; a reply is encoded before the output lock, which is held only
for the write (bench/runner.py measures this against a minimal asyncio client). Proxy variables
($HTTP_PROXY, ...) are not used: the runner talks to the URL it is given. A 429, a
5xx, a timeout or a dropped connection is retried up to `--retries` times, waiting `--backoff`
seconds doubled each time (or the server's Retry-After, when shorter than `--max-wait`); any other
failure, or the last retry's, is written as a failed reply, so the kit scores it as a runner error
and a later run can resend only those (docs/SCORING.md, "Retries"). An address where nothing
answers (connection refused, no route to the host, a host name that does not resolve, no
connection within `--connect-timeout` seconds) is not retried: a dead server gets a failed reply
for every line at once, not after minutes of waits, and `run` stops at the first one (its
preflight, docs/RUNNERS.md). Replies are written as they
arrive, one line each, flushed. A request line's own options (`temperature`, `max_tokens`, ...,
from `export --temperature/--max-tokens/--body`) win over `--temperature`, `--max-tokens` and
`--seed`, which fill in the ones a line does not set. Exit status 0 when every line was answered
(failures included), 2 for a malformed input line or bad arguments.
"""

from __future__ import annotations

import argparse
import errno
import functools
import json
import os
import socket
import ssl
import sys
import threading
import time
import urllib.parse
from collections.abc import Iterator, Sequence
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass
from queue import Empty, SimpleQueue
from typing import BinaryIO, Final, TextIO

RETRY_STATUSES: Final = frozenset({408, 409, 429, 500, 502, 503, 504})
REASONING_FIELDS: Final = ("reasoning_content", "reasoning", "reasoning_details")
DEFAULT_BASE_URL: Final = "http://127.0.0.1:8000/v1"
DEFAULT_CONCURRENCY: Final = 64
"""Requests in flight unless --concurrency says otherwise. A local server batches what is in
flight (vLLM, by default, hundreds of sequences at once): 4 in flight left it mostly idle,
a full 2-round run at 0.5 s an answer about 67 minutes where 64 take about 4. 64 threads cost
this process about a third more CPU a request than 4 (handing the interpreter lock between
them), little beside a model's answer; bench/runner.py measures the runner at 64 in flight
against a minimal asyncio client. A server with fewer slots queues the rest, which costs nothing
but the --timeout a queued request waits through: give it its slots (docs/RUNNERS.md)."""

Json = dict[str, object]


@dataclass(frozen=True, slots=True, kw_only=True)
class Settings:
    base_url: str
    api_key: str | None
    model: str | None
    temperature: float | None
    max_tokens: int | None
    seed: int | None
    timeout: float
    connect_timeout: float
    retries: int
    backoff: float
    max_wait: float


@dataclass(frozen=True, slots=True)
class Outcome:
    """What the server said: a status and its parsed body, or why there was no answer (no
    status)."""

    status: int | None
    body: Json | None
    error: str | None = None
    retry_after: str | None = None
    unreachable: bool = False
    """Nothing answers at the address (connection refused, no route, no such host): not retried."""


class BadInput(Exception):
    """A request line this runner cannot send."""


# --- one request -------------------------------------------------------------------------------


def chat_body(line: Json, settings: Settings) -> tuple[str, Json]:
    """(reply id, the /chat/completions body) for one input line of either format."""
    if "custom_id" in line:
        body = line.get("body")
        if not isinstance(body, dict) or not isinstance(line["custom_id"], str):
            raise BadInput("an openai-batch line needs a string custom_id and a body object")
        request = dict(body)
        ident = line["custom_id"]
    elif "id" in line and "messages" in line:
        request = {k: v for k, v in line.items() if k != "id"}
        ident = str(line["id"])
    else:
        raise BadInput(
            "expected a chat-jsonl line {id, messages} or an openai-batch line {custom_id, body}"
        )
    if not isinstance(request.get("messages"), list):
        raise BadInput("messages must be a list")
    if settings.model is not None and "model" not in request:
        request["model"] = settings.model
    if not isinstance(request.get("model"), str):
        raise BadInput("no model: pass --model")
    for key, value in (
        ("temperature", settings.temperature),
        ("max_tokens", settings.max_tokens),
        ("seed", settings.seed),
    ):
        if (
            value is not None
            and key not in request
            and not (key == "max_tokens" and "max_completion_tokens" in request)
        ):
            request[key] = value
    request["stream"] = False
    return ident, request


class Unconnected(Exception):
    """No connection could be made: `reason` is the socket's error."""

    def __init__(self, reason: OSError) -> None:
        super().__init__(str(reason))
        self.reason = reason


class NotHttp(Exception):
    """The server's answer is not an HTTP/1.x response this runner can read."""


class Closed(ConnectionError):
    """The server closed the connection before the answer's first byte."""

    def __str__(self) -> str:
        return "Remote end closed connection without response"


@dataclass(frozen=True, slots=True)
class Endpoint:
    """Where requests go: `<base url>/chat/completions`, split once."""

    https: bool
    host: str
    port: int
    path: str
    authority: str
    """The Host header: the URL's host and port as written."""
    url: str


def endpoint(base_url: str) -> Endpoint:
    """The chat-completions endpoint under `base_url`; ValueError for a URL this runner cannot
    reach (no http:// or https://, no host, a port that is not a number)."""
    url = f"{base_url.rstrip('/')}/chat/completions"
    parts = urllib.parse.urlsplit(url)
    if parts.scheme not in ("http", "https") or not parts.hostname:
        raise ValueError(f"--base-url must be an http:// or https:// URL with a host: {base_url}")
    try:
        port = parts.port
    except ValueError:
        raise ValueError(f"--base-url has a port that is not a number: {base_url}") from None
    https = parts.scheme == "https"
    return Endpoint(
        https=https,
        host=parts.hostname,
        port=port if port is not None else (443 if https else 80),
        path=parts.path + (f"?{parts.query}" if parts.query else ""),
        authority=parts.netloc.rpartition("@")[2],
        url=url,
    )


_MAX_LINE: Final = 65536
"""The longest status or header line read (http.client's limit)."""


def read_answer(reader: BinaryIO) -> tuple[int, dict[str, str], bytes, bool]:
    """(status, headers by lower-case name, body, whether the connection stays open) of one
    HTTP/1.x response: a body by Content-Length, chunked, or up to the connection's close.

    This and `request_bytes` are the part of HTTP/1.1 a chat-completions answer uses. http.client
    parses every answer's headers through the email package and sends the headers and the body
    in two writes: at a server that answers at once, the answer's headers were the largest part
    of the runner's own CPU a request after the JSON."""
    while True:
        line = reader.readline(_MAX_LINE + 1)
        if not line:
            raise Closed()
        version, _, rest = line.rstrip(b"\r\n").partition(b" ")
        code = rest[:3]
        if not version.startswith(b"HTTP/1.") or not code.isdigit():
            raise NotHttp(f"the server's answer is not HTTP: {line[:80]!r}")
        headers = _headers(reader)
        status = int(code)
        if not 100 <= status < 200:  # an interim answer (100 Continue) is followed by the real one
            break
    connection = headers.get("connection", "").lower()
    keep = "keep-alive" in connection if version == b"HTTP/1.0" else "close" not in connection
    if status in (204, 304):
        return status, headers, b"", keep
    if "chunked" in headers.get("transfer-encoding", "").lower():
        return status, headers, _chunks(reader), keep
    length = headers.get("content-length")
    if length is None:
        return status, headers, reader.read(), False  # the body ends where the connection does
    if not length.strip().isdigit():
        raise NotHttp(f"the server's Content-Length is not a number: {length[:40]!r}")
    return status, headers, _exactly(reader, int(length)), keep


def _headers(reader: BinaryIO) -> dict[str, str]:
    headers: dict[str, str] = {}
    while True:
        line = reader.readline(_MAX_LINE + 1)
        if not line:
            raise ConnectionError("the server closed the connection in the middle of its answer")
        if line in (b"\r\n", b"\n"):
            return headers
        name, colon, value = line.decode("latin-1").partition(":")
        if not colon or len(line) > _MAX_LINE:
            raise NotHttp(f"the server's answer has a malformed header line: {line[:80]!r}")
        headers[name.strip().lower()] = value.strip()


def _exactly(reader: BinaryIO, size: int) -> bytes:
    data = reader.read(size)
    if len(data) < size:
        raise ConnectionError("the server closed the connection in the middle of its answer")
    return data


def _chunks(reader: BinaryIO) -> bytes:
    parts: list[bytes] = []
    while True:
        line = reader.readline(_MAX_LINE + 1)
        try:
            size = int(line.split(b";", 1)[0].strip(), 16)
        except ValueError:
            raise NotHttp(
                f"the server's answer has a malformed chunk size: {line[:40]!r}"
            ) from None
        if size == 0:
            _headers(reader)  # the trailer, up to its blank line
            return b"".join(parts)
        parts.append(_exactly(reader, size))
        _exactly(reader, 2)  # the CRLF after each chunk


def request_bytes(where: Endpoint, data: bytes, api_key: str | None) -> bytes:
    """One POST, headers and body in one write: two small writes on one connection wait on
    each other (Nagle's algorithm and the server's delayed acknowledgement)."""
    head = (
        f"POST {where.path} HTTP/1.1\r\nHost: {where.authority}\r\n"
        f"Content-Type: application/json\r\nAccept: application/json\r\n"
        f"Content-Length: {len(data)}\r\n"
    )
    if api_key:
        head += f"Authorization: Bearer {api_key}\r\n"
    return (head + "\r\n").encode("latin-1") + data


@functools.cache
def _tls() -> ssl.SSLContext:
    return ssl.create_default_context()


class Channel:
    """One worker's connection to the server, kept open between its requests (HTTP/1.1
    keep-alive): a new connection per request is a TCP (and TLS) set-up each time, on both sides,
    where a local server answers in milliseconds. Opened on first use, and again whenever the
    server closed it."""

    def __init__(self, where: Endpoint, settings: Settings) -> None:
        self.where = where
        self.settings = settings
        self.sock: socket.socket | None = None
        self.reader: BinaryIO | None = None

    def _open(self) -> tuple[socket.socket, BinaryIO]:
        """A connection made within --connect-timeout (TLS included), whose socket then waits
        --timeout for everything after."""
        where, settings = self.where, self.settings
        try:
            sock = socket.create_connection(
                (where.host, where.port), timeout=settings.connect_timeout
            )
            if where.https:
                sock = _tls().wrap_socket(sock, server_hostname=where.host)
        except OSError as exc:
            raise Unconnected(exc) from None
        sock.settimeout(settings.timeout)
        sock.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)
        return sock, sock.makefile("rb")

    def close(self) -> None:
        if self.reader is not None:
            self.reader.close()
        if self.sock is not None:
            self.sock.close()
        self.sock = self.reader = None

    def exchange(self, data: bytes) -> tuple[int, bytes, str | None]:
        """(status, body, Retry-After) of one POST. A reused connection that the server closed
        while it sat idle (its keep-alive timeout) is opened again and the request sent once more
        at once: the server never read it, so it is not an attempt. Any other failure closes the
        connection (a late answer must not be read as the next request's) and is raised."""
        reused = self.sock is not None
        if reused:
            try:
                return self._exchange(data)
            except (Closed, BrokenPipeError, ConnectionResetError):
                pass
        return self._exchange(data)

    def _exchange(self, data: bytes) -> tuple[int, bytes, str | None]:
        if self.sock is None or self.reader is None:
            self.sock, self.reader = self._open()
        try:
            self.sock.sendall(request_bytes(self.where, data, self.settings.api_key))
            status, headers, body, keep = read_answer(self.reader)
        except BaseException:
            self.close()
            raise
        if not keep:
            self.close()
        return status, body, headers.get("retry-after")


def post(request: Json, settings: Settings, channel: Channel) -> Outcome:
    """One attempt. A failure to get an HTTP answer at all is an Outcome with no status."""
    url = channel.where.url
    try:
        status, raw, retry_after = channel.exchange(json.dumps(request).encode("utf-8"))
    except Unconnected as exc:
        if isinstance(exc.reason, TimeoutError):
            # A host that drops every packet (a firewall, a wrong address) answers nothing,
            # however long one waits.
            return Outcome(
                None,
                None,
                f"connection failed: {url}: timed out (connecting waits "
                f"--connect-timeout {settings.connect_timeout:g} s)",
                unreachable=True,
            )
        if _unreachable(exc.reason):
            return Outcome(None, None, f"connection failed: {url}: {exc.reason}", unreachable=True)
        return Outcome(None, None, f"connection failed: {exc.reason}")
    except TimeoutError:
        return Outcome(None, None, f"timed out after {settings.timeout:g} s")
    except (OSError, NotHttp) as exc:
        return Outcome(None, None, f"connection failed: {exc}")
    return Outcome(status, _json_body(raw), retry_after=retry_after)


_NO_ROUTE: Final = frozenset({errno.EHOSTUNREACH, errno.ENETUNREACH})


def _unreachable(reason: object) -> bool:
    """Whether a failure to connect says that nothing is there to answer: a refused connection
    (no server listens on the port), no route to the host, or a host name that does not resolve.
    Retrying those only makes a dead endpoint silent for minutes (--retries 5 doubled from
    --backoff 1 is 31 s a request); a dropped connection or a timeout is retried as before."""
    if isinstance(reason, ConnectionRefusedError):
        return True
    if isinstance(reason, socket.gaierror):
        return reason.errno != socket.EAI_AGAIN  # a temporary failure of the resolver is retried
    return isinstance(reason, OSError) and reason.errno in _NO_ROUTE


def _json_body(raw: bytes) -> Json | None:
    try:
        value = json.loads(raw.decode("utf-8"))
    except (UnicodeDecodeError, json.JSONDecodeError):
        return None
    return value if isinstance(value, dict) else None


def _wait(attempt: int, outcome: Outcome, settings: Settings) -> float:
    """Seconds before the next attempt: the server's Retry-After if it is a number within
    --max-wait, else --backoff doubled per attempt (capped at --max-wait)."""
    if outcome.retry_after:
        try:
            asked = float(outcome.retry_after)
        except ValueError:
            asked = -1.0
        if 0 <= asked <= settings.max_wait:
            return asked
    return float(min(settings.backoff * 2**attempt, settings.max_wait))


def ask(request: Json, settings: Settings, channel: Channel) -> Outcome:
    """Send with retries: a 429, 5xx, timeout or dropped connection is tried again; an address
    where nothing answers is not (`_unreachable`)."""
    outcome = Outcome(None, None, "not sent")
    for attempt in range(settings.retries + 1):
        outcome = post(request, settings, channel)
        retryable = (
            outcome.status is None and not outcome.unreachable
        ) or outcome.status in RETRY_STATUSES
        if not retryable or attempt == settings.retries:
            return outcome
        time.sleep(_wait(attempt, outcome, settings))
    return outcome


# --- replies in the kit's formats --------------------------------------------------------------


def without_reasoning(body: Json) -> Json:
    """The completion with every message's reasoning fields removed."""
    choices = body.get("choices")
    if not isinstance(choices, list):
        return body
    clean = []
    for choice in choices:
        if isinstance(choice, dict) and isinstance(choice.get("message"), dict):
            message = {k: v for k, v in choice["message"].items() if k not in REASONING_FIELDS}
            choice = {**choice, "message": message}
        clean.append(choice)
    return {**body, "choices": clean}


def _failure_text(outcome: Outcome) -> str:
    if outcome.status is None:
        return outcome.error or "no answer"
    detail = outcome.body.get("error") if outcome.body else None
    if isinstance(detail, dict):
        detail = detail.get("message")
    return f"HTTP {outcome.status}" + (f": {detail}" if isinstance(detail, str) and detail else "")


def batch_reply(ident: str, outcome: Outcome, index: int, latency: float | None = None) -> Json:
    """An OpenAI Batch output line (platform.openai.com/docs/api-reference/batch/request-output),
    the server's `usage` inside its body as the Batch API keeps it, and `latency_ms` beside it."""
    out: Json
    if outcome.status is None:
        out = {
            "id": f"batch_req_{index}",
            "custom_id": ident,
            "response": None,
            "error": {"code": "runner_error", "message": _failure_text(outcome)},
        }
    else:
        body = (
            without_reasoning(outcome.body)
            if outcome.body is not None
            else {"error": {"message": "the server's answer was not JSON"}}
        )
        out = {
            "id": f"batch_req_{index}",
            "custom_id": ident,
            "response": {"status_code": outcome.status, "request_id": "", "body": body},
            "error": None,
        }
    if latency is not None:
        out["latency_ms"] = latency_ms(latency)
    return out


def latency_ms(seconds: float) -> int:
    """Whole milliseconds, rounded: a reply's latency as the runner records it."""
    return int(round(seconds * 1000))


def refusal_of(message: object, finish_reason: object) -> str | None:
    """The model's refusal in a chat completion's message: its `refusal` text (OpenAI's field), or
    "content_filter" when the server's filter withheld the answer; None for anything else."""
    if not isinstance(message, dict):
        return None
    refusal = message.get("refusal")
    if isinstance(refusal, str) and refusal:
        return refusal
    if message.get("content") is None and finish_reason == "content_filter":
        return "content_filter"
    return None


def chat_reply(line: Json, request: Json, outcome: Outcome, latency: float | None = None) -> Json:
    """The chat-jsonl line with the assistant's message appended (null content on failure, with the
    model's `refusal` beside it when it declined: the kit scores that `refused`, never a runner
    error to resend), the server's token `usage` where it gave one, and `latency_ms`: milliseconds
    from the first attempt to the answer, retries and waits included."""
    messages = list(line["messages"])  # type: ignore[call-overload]
    content: object = None
    refusal: str | None = None
    error: str | None = None
    model = request.get("model")
    usage: object = None
    if outcome.status == 200 and outcome.body is not None:
        body = without_reasoning(outcome.body)
        model = body.get("model", model)
        usage = body.get("usage")
        choices = body.get("choices")
        choice = (
            choices[0]
            if isinstance(choices, list) and choices and isinstance(choices[0], dict)
            else {}
        )
        message = choice.get("message")
        content = message.get("content") if isinstance(message, dict) else None
        refusal = refusal_of(message, choice.get("finish_reason"))
        if refusal is not None:
            content = None
        elif not isinstance(content, (str, list)):
            content, error = None, "no content in the answer"
    else:
        error = _failure_text(outcome)
    reply: Json = {"role": "assistant", "content": content}
    if refusal is not None:
        reply["refusal"] = refusal
    out: Json = {"id": line["id"], "messages": [*messages, reply], "model": model}
    if error is not None:
        out["error"] = error
    if isinstance(usage, dict):
        out["usage"] = usage
    if latency is not None:
        out["latency_ms"] = latency_ms(latency)
    return out


# --- the loop ----------------------------------------------------------------------------------


def read_lines(stream: Iterator[str]) -> Iterator[tuple[int, Json]]:
    for number, text in enumerate(stream, start=1):
        if not text.strip():
            continue
        try:
            value = json.loads(text)
        except json.JSONDecodeError as exc:
            raise BadInput(f"stdin line {number}: not valid JSON ({exc.msg})") from None
        if not isinstance(value, dict):
            raise BadInput(f"stdin line {number}: expected a JSON object")
        yield number, value


def run(
    lines: list[tuple[int, Json]], settings: Settings, concurrency: int, out: TextIO
) -> tuple[int, int]:
    """Answer every line, writing each reply as it arrives; (answered, failed)."""
    where = endpoint(settings.base_url)
    prepared = []
    for number, line in lines:
        try:
            prepared.append((line, *chat_body(line, settings)))
        except BadInput as exc:
            raise BadInput(f"stdin line {number}: {exc}") from None
    todo: SimpleQueue[tuple[int, tuple[Json, str, Json]]] = SimpleQueue()
    for item in enumerate(prepared):
        todo.put(item)
    lock = threading.Lock()
    failed = 0

    def worker() -> None:
        """Takes lines until none are left, all through one connection of its own."""
        nonlocal failed
        channel = Channel(where, settings)
        try:
            while True:
                try:
                    index, (line, ident, request) = todo.get_nowait()
                except Empty:
                    return
                started = time.monotonic()
                outcome = ask(request, settings, channel)
                latency = time.monotonic() - started
                reply = (
                    batch_reply(ident, outcome, index, latency)
                    if "custom_id" in line
                    else chat_reply(line, request, outcome, latency)
                )
                # Serialised before the lock: the lock is held only for the write, so the other
                # workers are not kept waiting while this one encodes its reply.
                text = json.dumps(reply, ensure_ascii=False) + "\n"
                with lock:
                    failed += outcome.status != 200
                    out.write(text)
                    out.flush()
        finally:
            channel.close()

    workers = min(concurrency, len(prepared))
    with ThreadPoolExecutor(max_workers=max(workers, 1)) as pool:
        for future in [pool.submit(worker) for _ in range(workers)]:
            future.result()
    return len(prepared), failed


def parse_args(argv: Sequence[str]) -> tuple[Settings, int]:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0] if __doc__ else None)
    parser.add_argument(
        "--base-url",
        default=os.environ.get("OPENAI_BASE_URL", DEFAULT_BASE_URL),
        help=f"default $OPENAI_BASE_URL or {DEFAULT_BASE_URL}",
    )
    parser.add_argument(
        "--api-key",
        default=os.environ.get("OPENAI_API_KEY"),
        help="default $OPENAI_API_KEY (none: no Authorization header)",
    )
    parser.add_argument(
        "--model", help="model name for lines without one (chat-jsonl lines have none)"
    )
    parser.add_argument("--temperature", type=float, help="for lines that do not set one")
    parser.add_argument(
        "--max-tokens",
        type=int,
        help="for lines that set neither max_tokens nor max_completion_tokens",
    )
    parser.add_argument(
        "--seed",
        type=int,
        help="for lines that do not set one (servers that honour it are reproducible)",
    )
    parser.add_argument(
        "--concurrency",
        type=int,
        default=DEFAULT_CONCURRENCY,
        help=(
            f"requests in flight, each on a connection of its own (default {DEFAULT_CONCURRENCY}; "
            "a server that answers one at a time: its number of slots)"
        ),
    )
    parser.add_argument(
        "--timeout", type=float, default=600.0, help="seconds per attempt (default 600)"
    )
    parser.add_argument(
        "--connect-timeout",
        type=float,
        default=10.0,
        help=(
            "seconds to wait for a connection (default 10): a host that drops every packet is a "
            "failed reply, not retried"
        ),
    )
    parser.add_argument(
        "--retries",
        type=int,
        default=5,
        help=(
            "further attempts after a 429, 5xx, timeout or dropped connection (default 5; a "
            "refused connection is not retried)"
        ),
    )
    parser.add_argument(
        "--backoff",
        type=float,
        default=1.0,
        help="seconds before the first retry, doubled each time (default 1)",
    )
    parser.add_argument(
        "--max-wait", type=float, default=60.0, help="longest wait between attempts (default 60)"
    )
    args = parser.parse_args(argv)
    try:
        endpoint(args.base_url)
    except ValueError as exc:
        parser.error(str(exc))
    if args.api_key and not _header_safe(args.api_key):
        parser.error("--api-key (or $OPENAI_API_KEY) must be printable Latin-1 without line breaks")
    if (
        args.concurrency < 1
        or args.retries < 0
        or args.timeout <= 0
        or args.connect_timeout <= 0
        or args.backoff < 0
    ):
        parser.error(
            "--concurrency must be >= 1, --retries >= 0, --timeout and --connect-timeout > 0, "
            "--backoff >= 0"
        )
    settings = Settings(
        base_url=args.base_url,
        api_key=args.api_key,
        model=args.model,
        temperature=args.temperature,
        max_tokens=args.max_tokens,
        seed=args.seed,
        timeout=args.timeout,
        connect_timeout=args.connect_timeout,
        retries=args.retries,
        backoff=args.backoff,
        max_wait=args.max_wait,
    )
    return settings, args.concurrency


def _header_safe(value: str) -> bool:
    """Whether `value` can go into a header line as it is: a line break in it would end the
    header (and start another one of its own)."""
    return all(" " <= c <= "\xff" and c != "\x7f" for c in value)


def main(argv: Sequence[str] | None = None) -> int:
    settings, concurrency = parse_args(sys.argv[1:] if argv is None else argv)
    try:
        lines = list(read_lines(iter(sys.stdin)))
        answered, failed = run(lines, settings, concurrency, sys.stdout)
    except BadInput as exc:
        sys.stderr.write(f"openai_compatible_runner: {exc}\n")
        return 2
    sys.stderr.write(
        f"openai_compatible_runner: {answered} requests, {answered - failed} answered, {failed} "
        "failed\n"
    )
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
