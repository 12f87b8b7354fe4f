"""examples/openai_compatible_runner.py's connections (issue 47): one kept-alive connection per
worker, opened again when the server closed it, answers read in each of HTTP/1.1's three ways
(Content-Length, chunked, up to the close), and the default concurrency the docs show. Run in
process against servers on 127.0.0.1 that each test starts (no subprocess: cheap)."""

from __future__ import annotations

import importlib.util
import io
import json
import socket
import sys
import threading
from collections.abc import Iterator
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path
from types import ModuleType

import pytest
from hypothesis import given
from hypothesis import strategies as st

ROOT = Path(__file__).resolve().parents[2]


def _load() -> ModuleType:
    spec = importlib.util.spec_from_file_location(
        "openai_compatible_runner", ROOT / "examples" / "openai_compatible_runner.py"
    )
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = module  # dataclasses look their module up while they are built
    spec.loader.exec_module(module)
    return module


runner = _load()
ANSWER = json.dumps(
    {"model": "stub", "choices": [{"message": {"role": "assistant", "content": "DECISION: A"}}]}
).encode()


class Server:
    """An HTTP server on 127.0.0.1 that keeps every request's client address. `keep_alive`:
    answers HTTP/1.1 and leaves the connection open; `drop_idle`: claims keep-alive but closes
    each connection after one answer (what a server's keep-alive timeout does to an idle one)."""

    def __init__(self, *, keep_alive: bool, drop_idle: bool = False) -> None:
        self.peers: list[tuple[str, int]] = []
        lock = threading.Lock()
        peers = self.peers

        class Handler(BaseHTTPRequestHandler):
            protocol_version = "HTTP/1.1" if keep_alive else "HTTP/1.0"

            def do_POST(self) -> None:  # noqa: N802 (http.server's name)
                self.rfile.read(int(self.headers["Content-Length"]))
                with lock:
                    peers.append(self.client_address)
                self.send_response(200)
                self.send_header("Content-Type", "application/json")
                self.send_header("Content-Length", str(len(ANSWER)))
                self.end_headers()
                self.wfile.write(ANSWER)
                if drop_idle:
                    self.close_connection = True

            def log_message(self, format: str, *args: object) -> None:
                pass

        self.server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        self.server.daemon_threads = True
        self.url = f"http://127.0.0.1:{self.server.server_address[1]}/v1"
        threading.Thread(
            target=self.server.serve_forever, kwargs={"poll_interval": 0.02}, daemon=True
        ).start()  # shutdown() waits up to one poll

    def close(self) -> None:
        self.server.shutdown()
        self.server.server_close()


@pytest.fixture
def serve() -> Iterator[type[Server]]:
    started: list[Server] = []

    class Started(Server):
        def __init__(self, **kwargs: bool) -> None:
            super().__init__(**kwargs)
            started.append(self)

    yield Started
    for server in started:
        server.close()


def lines(count: int) -> list[tuple[int, dict[str, object]]]:
    return [
        (n, {"id": f"r{n}", "messages": [{"role": "user", "content": f"question {n}"}]})
        for n in range(1, count + 1)
    ]


def answer_all(url: str, count: int, *args: str) -> tuple[tuple[int, int], list[dict[str, object]]]:
    settings, concurrency = runner.parse_args(["--base-url", url, "--model", "m", *args])
    out = io.StringIO()
    counts = runner.run(lines(count), settings, concurrency, out)
    return counts, [json.loads(x) for x in out.getvalue().splitlines()]


def test_each_worker_keeps_one_connection_for_all_its_requests(serve: type[Server]) -> None:
    """Issue 47: a new connection per request cost a local server more than its answer. Twelve
    requests, three workers: at most three connections (there were twelve)."""
    server = serve(keep_alive=True)
    counts, replies = answer_all(server.url, 12, "--concurrency", "3")
    assert counts == (12, 0)
    assert sorted(r["id"] for r in replies) == sorted(f"r{n}" for n in range(1, 13))
    assert len(server.peers) == 12
    assert len(set(server.peers)) <= 3


def test_a_connection_the_server_closed_is_opened_again_without_spending_a_retry(
    serve: type[Server],
) -> None:
    """A server that closes a kept-alive connection while it sits idle (its keep-alive timeout):
    the request is sent again at once on a new connection, not counted as an attempt (--retries
    0 still answers every line), and the server sees each request once."""
    server = serve(keep_alive=True, drop_idle=True)
    counts, replies = answer_all(server.url, 5, "--concurrency", "1", "--retries", "0")
    assert counts == (5, 0)
    assert all("error" not in r for r in replies)
    assert len(server.peers) == 5 and len(set(server.peers)) == 5


def test_a_server_that_closes_after_each_answer_is_answered_too(serve: type[Server]) -> None:
    """HTTP/1.0 (http.server's default): every answer ends its connection."""
    server = serve(keep_alive=False)
    counts, _ = answer_all(server.url, 4, "--concurrency", "2", "--retries", "0")
    assert counts == (4, 0)


def test_an_answer_that_is_not_http_is_a_failed_reply_not_a_crash() -> None:
    with socket.socket() as listener:
        listener.bind(("127.0.0.1", 0))
        listener.listen(4)

        def garbage() -> None:
            connection, _ = listener.accept()
            with connection:
                connection.recv(65536)
                connection.sendall(b"SSH-2.0-OpenSSH_9.6\r\n\r\n")

        thread = threading.Thread(target=garbage, daemon=True)
        thread.start()
        url = f"http://127.0.0.1:{listener.getsockname()[1]}/v1"
        counts, (reply,) = answer_all(url, 1, "--retries", "0")
        thread.join(5)
    assert counts == (1, 1)
    assert reply["error"] == (
        "connection failed: the server's answer is not HTTP: b'SSH-2.0-OpenSSH_9.6\\r\\n'"
    )


def head(status: str, *headers: str) -> bytes:
    return ("\r\n".join([status, *headers]) + "\r\n\r\n").encode()


def chunked(body: bytes, cuts: list[int]) -> bytes:
    pieces, start = [], 0
    for cut in sorted({c % (len(body) + 1) for c in cuts} | {len(body)}):
        if cut > start:
            pieces.append(f"{cut - start:x}\r\n".encode() + body[start:cut] + b"\r\n")
            start = cut
    return b"".join(pieces) + b"0\r\n\r\n"


@given(st.binary(max_size=300), st.lists(st.integers(0, 400), max_size=6))
def test_a_chunked_answer_reads_back_as_its_body(body: bytes, cuts: list[int]) -> None:
    reader = io.BytesIO(
        head("HTTP/1.1 200 OK", "Transfer-Encoding: chunked") + chunked(body, cuts) + b"next"
    )
    assert runner.read_answer(reader)[2:] == (body, True)
    assert reader.read() == b"next"  # nothing of the next answer was taken


def test_the_three_ways_an_answer_ends_and_whether_the_connection_stays() -> None:
    read = runner.read_answer
    by_length = head("HTTP/1.1 429 Too Many", "Content-Length: 2", "Retry-After: 3") + b"{}"
    assert read(io.BytesIO(by_length)) == (
        429,
        {"content-length": "2", "retry-after": "3"},
        b"{}",
        True,
    )
    closing = head("HTTP/1.1 200 OK", "Connection: close", "Content-Length: 2") + b"{}"
    assert read(io.BytesIO(closing))[2:] == (b"{}", False)
    to_the_end = head("HTTP/1.0 200 OK") + b'{"a": 1}'
    assert read(io.BytesIO(to_the_end))[2:] == (b'{"a": 1}', False)
    kept_10 = head("HTTP/1.0 200 OK", "Connection: keep-alive", "Content-Length: 0")
    assert read(io.BytesIO(kept_10))[2:] == (b"", True)
    interim = head("HTTP/1.1 100 Continue") + head("HTTP/1.1 200 OK", "Content-Length: 1") + b"x"
    assert read(io.BytesIO(interim))[0] == 200
    with pytest.raises(runner.Closed):
        read(io.BytesIO(b""))
    with pytest.raises(ConnectionError, match="in the middle of its answer"):
        read(io.BytesIO(head("HTTP/1.1 200 OK", "Content-Length: 9") + b"{}"))
    with pytest.raises(runner.NotHttp, match="Content-Length is not a number: '-1'"):
        read(io.BytesIO(head("HTTP/1.1 200 OK", "Content-Length: -1")))


def test_the_request_is_one_write_with_the_url_host_and_key() -> None:
    where = runner.endpoint("https://api.example.com:8443/v1/")
    assert (where.host, where.port, where.path, where.https) == (
        "api.example.com",
        8443,
        "/v1/chat/completions",
        True,
    )
    assert runner.request_bytes(where, b"{}", "sk-1") == (
        b"POST /v1/chat/completions HTTP/1.1\r\nHost: api.example.com:8443\r\n"
        b"Content-Type: application/json\r\nAccept: application/json\r\nContent-Length: 2\r\n"
        b"Authorization: Bearer sk-1\r\n\r\n{}"
    )
    assert runner.endpoint("http://[::1]/v1").authority == "[::1]"
    assert runner.endpoint("http://[::1]/v1").port == 80


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (
            ["--base-url", "localhost:8000/v1"],
            "--base-url must be an http:// or https:// URL with a host: localhost:8000/v1",
        ),
        (
            ["--base-url", "http://127.0.0.1:80a/v1"],
            "--base-url has a port that is not a number: http://127.0.0.1:80a/v1",
        ),
        (
            ["--api-key", "sk-1\r\nX-Evil: 1"],
            "--api-key (or $OPENAI_API_KEY) must be printable Latin-1 without line breaks",
        ),
    ],
)
def test_a_url_or_key_that_cannot_be_sent_is_exit_2_before_anything_is_read(
    args: list[str], message: str, capsys: pytest.CaptureFixture[str]
) -> None:
    with pytest.raises(SystemExit) as stopped:
        runner.parse_args(args)
    assert stopped.value.code == 2
    assert capsys.readouterr().err.splitlines()[-1].endswith(f"error: {message}")


def test_the_default_concurrency_is_the_one_the_docs_show() -> None:
    """64 in flight unless told (it was 4: a batching server mostly idle); README's command
    shows --concurrency, and docs/RUNNERS.md the default."""
    settings, concurrency = runner.parse_args([])
    assert concurrency == runner.DEFAULT_CONCURRENCY == 64
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    assert "examples/openai_compatible_runner.py --base-url http://127.0.0.1:8000/v1" in readme
    assert "--concurrency 64" in readme
    assert "`--concurrency N` requests in flight (default 64)" in (
        ROOT / "docs" / "RUNNERS.md"
    ).read_text(encoding="utf-8")
