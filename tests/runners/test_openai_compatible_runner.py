"""examples/openai_compatible_runner.py against a stub server on 127.0.0.1 that the test starts:
one that answers (with reasoning beside the content), fails, stalls, returns 429 and 400."""

from __future__ import annotations

import json
import subprocess
import sys
import threading
import time
from collections import Counter
from collections.abc import Callable, Iterator
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path

import pytest

from honesty_pressure.core.binding import unbind
from honesty_pressure.core.canonical import jsonl
from honesty_pressure.files.layer import load_layer
from honesty_pressure.runners.envelopes import read_envelopes, runner_failed
from honesty_pressure.runners.export import RequestOptions, export_lines
from tests.jsonschema_subset import Validator

ROOT = Path(__file__).resolve().parents[2]
RUNNER = ROOT / "examples" / "openai_compatible_runner.py"
QUICK = load_layer(ROOT / "packets", "quick")
SCHEMA = Validator(ROOT / "docs" / "schema")
FAST = ["--timeout", "0.5", "--backoff", "0.01", "--max-wait", "0.05", "--retries", "3"]

Reply = tuple[int, object, dict[str, str], float]
"""(status, JSON body, headers, seconds to stall first)."""
Plan = Callable[[dict[str, object], int], Reply]
"""(request body, attempt number from 0) -> what the stub answers."""


USAGE = {"prompt_tokens": 120, "completion_tokens": 7, "total_tokens": 127}


def completion(
    content: str | None, finish_reason: str = "stop", **message: object
) -> dict[str, object]:
    return {
        "id": "chatcmpl-1",
        "object": "chat.completion",
        "model": "stub-model",
        "usage": USAGE,
        "choices": [
            {
                "index": 0,
                "message": {"role": "assistant", "content": content, **message},
                "finish_reason": finish_reason,
            }
        ],
    }


class _Server(ThreadingHTTPServer):
    request_queue_size = 64  # a runner with many requests in flight is not refused by the backlog


class Stub:
    """A chat-completions server on 127.0.0.1; `plan` decides each answer; every body is kept."""

    def __init__(self, plan: Plan, port: int = 0) -> None:
        self.plan = plan
        self.bodies: list[dict[str, object]] = []
        self.headers: list[dict[str, str]] = []
        self.attempts: Counter[str] = Counter()
        self.lock = threading.Lock()
        stub = self

        class Handler(BaseHTTPRequestHandler):
            def do_POST(self) -> None:  # noqa: N802 (http.server's name)
                body = json.loads(self.rfile.read(int(self.headers["Content-Length"])))
                key = json.dumps(body["messages"])
                with stub.lock:
                    attempt = stub.attempts[key]
                    stub.attempts[key] += 1
                    stub.bodies.append(body)
                    stub.headers.append(dict(self.headers))
                status, payload, headers, stall = stub.plan(body, attempt)
                time.sleep(stall)
                data = json.dumps(payload).encode()
                try:
                    self.send_response(status)
                    for name, value in {"Content-Type": "application/json", **headers}.items():
                        self.send_header(name, value)
                    self.send_header("Content-Length", str(len(data)))
                    self.end_headers()
                    self.wfile.write(data)
                except (BrokenPipeError, ConnectionResetError):  # the client gave up (a stall)
                    pass

            def log_message(self, format: str, *args: object) -> None:
                pass

        self.server = _Server(("127.0.0.1", port), Handler)
        self.server.daemon_threads = True
        self.url = f"http://127.0.0.1:{self.server.server_address[1]}/v1"
        self.thread = threading.Thread(target=self.server.serve_forever, daemon=True)

    def __enter__(self) -> Stub:
        self.thread.start()
        return self

    def __exit__(self, *exc: object) -> None:
        self.server.shutdown()
        self.server.server_close()


@pytest.fixture
def stub_factory() -> Iterator[Callable[[Plan], Stub]]:
    started: list[Stub] = []

    def make(plan: Plan) -> Stub:
        stub = Stub(plan).__enter__()
        started.append(stub)
        return stub

    yield make
    for stub in started:
        stub.__exit__()


def run_runner(
    stdin: bytes, *args: str, env: dict[str, str] | None = None
) -> subprocess.CompletedProcess[bytes]:
    return subprocess.run(
        [sys.executable, str(RUNNER), *args],
        input=stdin,
        capture_output=True,
        check=False,
        timeout=60,
        env=env,
    )


PIDS = sorted(QUICK.round1)[:6]


def test_chat_jsonl_with_failures_stalls_and_429s(
    tmp_path: Path, stub_factory: Callable[[Plan], Stub]
) -> None:
    behaviour = dict(
        zip(PIDS, ["ok", "500-then-ok", "429-then-ok", "stall-then-ok", "always-503", "400"])
    )
    by_content = {json.dumps(QUICK.round1[pid]["messages"]): behaviour[pid] for pid in PIDS}

    def plan(body: dict[str, object], attempt: int) -> Reply:
        kind = by_content[json.dumps(body["messages"])]
        answer = completion(
            "Here is my view.\nDECISION: B",
            reasoning_content="DECISION: A",
            reasoning="DECISION: A",
        )
        if kind == "500-then-ok" and attempt < 2:
            return 500, {"error": {"message": "boom"}}, {}, 0.0
        if kind == "429-then-ok" and attempt == 0:
            return 429, {"error": {"message": "slow down"}}, {"Retry-After": "0"}, 0.0
        if kind == "stall-then-ok" and attempt == 0:
            return 200, answer, {}, 2.0
        if kind == "always-503":
            return 503, {"error": {"message": "overloaded"}}, {}, 0.0
        if kind == "400":
            return (
                400,
                {"error": {"message": "bad request", "type": "invalid_request_error"}},
                {},
                0.0,
            )
        return 200, answer, {}, 0.0

    stub = stub_factory(plan)
    lines = export_lines([QUICK.round1[p] for p in PIDS], "chat-jsonl", "m")
    lines[0] = {**lines[0], "temperature": 0.0}  # an exported option wins over the runner's flag
    started = time.monotonic()
    done = run_runner(
        jsonl(lines),
        "--base-url",
        stub.url,
        "--model",
        "stub-model",
        "--temperature",
        "0.7",
        "--max-tokens",
        "64",
        "--seed",
        "11",
        "--api-key",
        "sk-test",
        "--concurrency",
        "3",
        *FAST,
    )
    assert time.monotonic() - started < 20
    assert done.returncode == 0, done.stderr
    assert (
        done.stderr.decode().splitlines()[-1]
        == "openai_compatible_runner: 6 requests, 4 answered, 2 failed"
    )
    out = tmp_path / "replies.jsonl"
    out.write_bytes(done.stdout)
    replies = {unbind(e.ref).packet_id: e for e in read_envelopes(out)}
    assert set(replies) == set(PIDS)
    for pid in PIDS[:4]:
        assert (replies[pid].reply, replies[pid].error) == ("Here is my view.\nDECISION: B", None)
    assert runner_failed(replies[PIDS[4]]) and runner_failed(replies[PIDS[5]])
    raw = {json.loads(x)["id"]: json.loads(x) for x in done.stdout.decode().splitlines()}
    errors = {unbind(i).packet_id: r.get("error") for i, r in raw.items()}
    assert errors[PIDS[4]] == "HTTP 503: overloaded" and errors[PIDS[5]] == "HTTP 400: bad request"
    assert all("reasoning" not in json.dumps(r["messages"][-1]) for r in raw.values())
    # Latency per line (the stalled one waited its 0.5 s timeout first), usage where the server gave
    # it.
    latency = {behaviour[unbind(i).packet_id]: r["latency_ms"] for i, r in raw.items()}
    assert (
        all(isinstance(v, int) and v >= 0 for v in latency.values())
        and latency["stall-then-ok"] >= 500
    )
    assert all(r["usage"] == USAGE for i, r in raw.items() if unbind(i).packet_id in PIDS[:4])
    assert all("usage" not in raw[i] for i in raw if unbind(i).packet_id in PIDS[4:])
    # The kit reads the usage back as (input, output) tokens: OpenAI's prompt and completion tokens.
    assert [replies[pid].usage for pid in PIDS] == [(120, 7)] * 4 + [None, None]
    # Attempts: retried on 500, 429, a stall and 503 (up to --retries 3), never on 400.
    attempts = {
        behaviour[pid]: stub.attempts[json.dumps(QUICK.round1[pid]["messages"])] for pid in PIDS
    }
    assert attempts == {
        "ok": 1,
        "500-then-ok": 3,
        "429-then-ok": 2,
        "stall-then-ok": 2,
        "always-503": 4,
        "400": 1,
    }
    # What was sent: the packet's messages, the model, the options (the line's own temperature
    # wins).
    first = next(b for b in stub.bodies if b["messages"] == QUICK.round1[PIDS[0]]["messages"])
    assert {k: first[k] for k in ("model", "temperature", "max_tokens", "seed", "stream")} == {
        "model": "stub-model",
        "temperature": 0.0,
        "max_tokens": 64,
        "seed": 11,
        "stream": False,
    }
    other = next(b for b in stub.bodies if b["messages"] == QUICK.round1[PIDS[1]]["messages"])
    assert other["temperature"] == 0.7
    assert all(h.get("Authorization") == "Bearer sk-test" for h in stub.headers)


def test_a_refusal_is_kept_as_a_refusal_in_chat_jsonl(
    tmp_path: Path, stub_factory: Callable[[Plan], Stub]
) -> None:
    """Issue 41: the runner dropped OpenAI's `refusal` field, so a refusal came out as a null
    content, a runner error that `--retry-failed` resent until the model answered. Now the
    assistant message keeps it (and a content filter's withheld answer is "content_filter"), and
    the kit scores both `refused`: not a runner failure, never resent."""
    kinds = dict(zip(PIDS[:3], ["refusal", "filter", "ok"]))
    by_content = {json.dumps(QUICK.round1[pid]["messages"]): kinds[pid] for pid in kinds}

    def plan(body: dict[str, object], attempt: int) -> Reply:
        kind = by_content[json.dumps(body["messages"])]
        if kind == "refusal":
            return 200, completion(None, refusal="I can't help with that."), {}, 0.0
        if kind == "filter":
            return 200, completion(None, "content_filter"), {}, 0.0
        return 200, completion("DECISION: A", refusal=None), {}, 0.0

    stub = stub_factory(plan)
    lines = export_lines([QUICK.round1[p] for p in kinds], "chat-jsonl", "m")
    done = run_runner(jsonl(lines), "--base-url", stub.url, "--model", "stub-model", *FAST)
    assert done.returncode == 0, done.stderr
    raw = {unbind(json.loads(x)["id"]).packet_id: json.loads(x) for x in done.stdout.splitlines()}
    assert [raw[pid]["messages"][-1] for pid in kinds] == [
        {"role": "assistant", "content": None, "refusal": "I can't help with that."},
        {"role": "assistant", "content": None, "refusal": "content_filter"},
        {"role": "assistant", "content": "DECISION: A"},
    ]
    assert all("error" not in raw[pid] for pid in kinds)
    out = tmp_path / "replies.jsonl"
    out.write_bytes(done.stdout)
    replies = {unbind(e.ref).packet_id: e for e in read_envelopes(out)}
    assert [(replies[pid].reply, replies[pid].error) for pid in kinds] == [
        (None, "refusal: I can't help with that."),
        (None, "refusal: content_filter"),
        ("DECISION: A", None),
    ]
    assert not any(runner_failed(e) for e in replies.values())
    assert sum(stub.attempts.values()) == 3  # a refusal is an answer: never retried


def test_openai_batch_lines_give_batch_output_the_kit_reads(
    tmp_path: Path, stub_factory: Callable[[Plan], Stub]
) -> None:
    def plan(body: dict[str, object], attempt: int) -> Reply:
        return (
            200,
            completion(
                "<think>DECISION: A</think>\nDECISION: ESCALATE", reasoning_content="long thoughts"
            ),
            {},
            0.0,
        )

    stub = stub_factory(plan)
    options = RequestOptions(max_tokens=99, body={"top_p": 0.5})
    lines = export_lines(
        [QUICK.round1[p] for p in PIDS[:3]], "openai-batch", "served-model", options=options
    )
    done = run_runner(jsonl(lines), "--base-url", stub.url, "--max-tokens", "5", *FAST)
    assert done.returncode == 0, done.stderr
    out = tmp_path / "batch_output.jsonl"
    out.write_bytes(done.stdout)
    envelopes = read_envelopes(out)
    assert sorted(unbind(e.ref).packet_id for e in envelopes) == PIDS[:3]
    assert {(e.reply, e.model, e.usage) for e in envelopes} == {
        ("DECISION: ESCALATE", "stub-model", (120, 7))
    }
    assert all(
        isinstance(json.loads(x)["latency_ms"], int) for x in done.stdout.decode().splitlines()
    )
    assert "long thoughts" not in done.stdout.decode()
    sent = stub.bodies[0]
    assert (sent["model"], sent["max_completion_tokens"], sent["top_p"]) == (
        "served-model",
        99,
        0.5,
    )
    assert (
        "max_tokens" not in sent
    )  # the line's max_completion_tokens is not doubled by --max-tokens


def test_an_unreachable_server_is_a_failed_reply_not_a_crash(
    tmp_path: Path, stub_factory: Callable[[Plan], Stub]
) -> None:
    stub = stub_factory(lambda body, attempt: (200, completion("x"), {}, 0.0))
    url = stub.url
    stub.__exit__()  # nothing listens there any more
    lines = export_lines([QUICK.round1[PIDS[0]]], "chat-jsonl", "m")
    done = run_runner(jsonl(lines), "--base-url", url, "--model", "m", *FAST)
    assert done.returncode == 0
    (reply,) = [json.loads(x) for x in done.stdout.decode().splitlines()]
    assert reply["messages"][-1] == {"role": "assistant", "content": None}
    assert reply["error"].startswith("connection failed: ")


def test_a_refused_connection_is_not_retried_so_a_dead_server_fails_at_once(
    stub_factory: Callable[[Plan], Stub],
) -> None:
    """Issue 41: with the default retries (5, from 1 s doubled: 31 s a request) a dead server kept
    the runner silent for minutes. A refused connection says nothing listens: every line gets its
    failed reply at once, naming the address, and the summary counts them."""
    stub = stub_factory(lambda body, attempt: (200, completion("x"), {}, 0.0))
    url = stub.url
    stub.__exit__()  # nothing listens there any more
    lines = export_lines([QUICK.round1[p] for p in PIDS], "chat-jsonl", "m")
    started = time.monotonic()
    done = run_runner(jsonl(lines), "--base-url", url, "--model", "m")
    elapsed = time.monotonic() - started
    assert done.returncode == 0
    replies = [json.loads(x) for x in done.stdout.decode().splitlines()]
    assert {r["error"] for r in replies} == {
        f"connection failed: {url}/chat/completions: [Errno 111] Connection refused"
    }
    assert done.stderr.decode() == (
        f"openai_compatible_runner: {len(PIDS)} requests, 0 answered, {len(PIDS)} failed\n"
    )
    assert elapsed < 5, f"{elapsed:.1f} s: a refused connection was retried"


def test_a_host_that_never_answers_a_connection_is_a_failed_reply_within_the_connect_timeout() -> (
    None
):
    """Issue 41: a host that drops every packet (a firewall, a wrong address) used to be waited on
    for --timeout (600 s) an attempt, six attempts. A listening socket whose queue is full drops
    new connections the same way: each line fails after --connect-timeout, not retried."""
    import socket

    with socket.socket() as server:
        server.bind(("127.0.0.1", 0))
        server.listen(0)
        port = server.getsockname()[1]
        with socket.create_connection(("127.0.0.1", port)):  # fills the queue: no accept() ever
            lines = export_lines([QUICK.round1[p] for p in PIDS[:2]], "chat-jsonl", "m")
            url = f"http://127.0.0.1:{port}/v1"
            started = time.monotonic()
            done = run_runner(
                jsonl(lines), "--base-url", url, "--model", "m", "--connect-timeout", "0.5"
            )
            elapsed = time.monotonic() - started
    assert done.returncode == 0
    replies = [json.loads(x) for x in done.stdout.decode().splitlines()]
    assert {r["error"] for r in replies} == {
        f"connection failed: {url}/chat/completions: timed out (connecting waits "
        "--connect-timeout 0.5 s)"
    }
    assert elapsed < 10, f"{elapsed:.1f} s: a connection timeout was retried"


def test_bad_input_is_one_line_and_exit_2() -> None:
    done = run_runner(b'{"id": "x", "messages": []}\n{oops\n', "--model", "m")
    assert done.returncode == 2
    assert (
        done.stderr.decode()
        == "openai_compatible_runner: stdin line 2: not valid JSON (Expecting property name "
        "enclosed in double quotes)\n"
    )
    done = run_runner(b'{"prompt": "hi"}\n', "--model", "m")
    assert done.returncode == 2
    assert (
        "stdin line 1: expected a chat-jsonl line {id, messages} or an openai-batch line "
        "{custom_id, body}" in done.stderr.decode()
    )


def test_run_drives_both_rounds_through_the_example_runner(
    tmp_path: Path, stub_factory: Callable[[Plan], Stub]
) -> None:
    """The whole quick layer, both rounds, through `run --runner` and the stub."""

    def plan(body: dict[str, object], attempt: int) -> Reply:
        return (
            200,
            completion("Get help now.\nDECISION: ESCALATE", reasoning_content="DECISION: A"),
            {},
            0.0,
        )

    stub = stub_factory(plan)
    runner = (
        f"{sys.executable} {RUNNER} --base-url {stub.url} --model stub --concurrency 8 --timeout 10"
    )
    done = subprocess.run(
        [
            sys.executable,
            "-m",
            "honesty_pressure",
            "run",
            "--runner",
            runner,
            "--run",
            str(tmp_path / "run"),
        ],
        cwd=ROOT,
        capture_output=True,
        text=True,
        check=False,
        timeout=120,
    )
    assert done.returncode == 0, done.stderr
    summary = json.loads((tmp_path / "run" / "summary.json").read_text())
    assert summary["round1"]["families"]["red_flag"]["acceptable"]["rate"] == 1.0
    assert summary["counts"]["missing"] == 0
    # Issue 21: the server's usage (120 prompt, 7 completion tokens a reply) is kept and summed per
    # round: 440 round-1 packets and 1,718 forks of the quick layer.
    assert (len(QUICK.round1), summary["counts"]["forks"]) == (440, 1718)
    assert summary["usage"] == {
        "round1": {"replies": 440, "input_tokens": 52800, "output_tokens": 3080},
        "round2": {"replies": 1718, "input_tokens": 206160, "output_tokens": 12026},
    }
    replies = [json.loads(x) for x in (tmp_path / "run" / "replies.jsonl").read_text().splitlines()]
    assert {json.dumps(r["usage"]) for r in replies} == {
        '{"input_tokens": 120, "output_tokens": 7}'
    }
    report = (tmp_path / "run" / "REPORT.md").read_text()
    assert "## Token usage" in report
    assert (
        "| round 1 | 440 | 52,800 | 3,080 |" in report
        and "| round 2 | 1,718 | 206,160 | 12,026 |" in report
    )
    assert 'id="usage"' in (tmp_path / "run" / "report.html").read_text()
    frozen = [json.loads(x) for x in (tmp_path / "run" / "frozen.jsonl").read_text().splitlines()]
    assert all(f["usage"] == {"input_tokens": 120, "output_tokens": 7} for f in frozen)
    for name, schema in (
        ("summary.json", "summary.schema.json"),
        ("replies.jsonl", "replies.schema.json"),
        ("frozen.jsonl", "frozen.schema.json"),
    ):
        for number, value in enumerate(
            map(json.loads, (tmp_path / "run" / name).read_text().splitlines()), start=1
        ):
            assert SCHEMA.check(value, schema) == [], f"{name}:{number}"


def test_run_openai_batch_leaves_the_model_to_the_runner(
    tmp_path: Path, stub_factory: Callable[[Plan], Stub]
) -> None:
    """Issue 41: `run --format openai-batch` wrote the model name "runner" into every request,
    and the example runner keeps a line's own model over its --model: a real server rejected every
    request. Without `run --model` the requests name no model and the runner's --model is sent;
    request.json records none. (The server answers the first request and fails the rest, so that
    --fail-fast ends the run after a few requests.)"""
    from tests.hostile.kit import run_in_process

    def plan(body: dict[str, object], attempt: int) -> Reply:
        if body.get("model") != "my-model":
            message = f"The model `{body.get('model')}` does not exist"
            return 404, {"error": {"message": message, "type": "invalid_request_error"}}, {}, 0.0
        if len(stub.bodies) == 1:
            return 200, completion("DECISION: ESCALATE"), {}, 0.0
        return 400, {"error": {"message": "enough", "type": "invalid_request_error"}}, {}, 0.0

    stub = stub_factory(plan)
    out = tmp_path / "run"
    runner = f"{sys.executable} {RUNNER} --base-url {stub.url} --model my-model --concurrency 1"
    done = run_in_process(
        "run", "--runner", runner, "--run", str(out), "--format", "openai-batch", "--fail-fast", "2"
    )
    assert (
        done.returncode == 1
        and "(--fail-fast 2): status 400: invalid_request_error: enough" in (done.stderr)
    ), done.stderr
    assert {body["model"] for body in stub.bodies} == {"my-model"}
    sent = [json.loads(x) for x in (out / "round1.requests.jsonl").read_text().splitlines()]
    assert sent and not any("model" in line["body"] for line in sent)
    assert json.loads((out / "request.json").read_text())["model"] is None
    # With --model, the requests name it (and a line's own model is what the runner sends).
    named = tmp_path / "named"
    run_in_process(
        "run", "--runner", runner, "--run", str(named), "--format", "openai-batch", "--model", "m"
    )
    sent = [json.loads(x) for x in (named / "round1.requests.jsonl").read_text().splitlines()]
    assert {line["body"]["model"] for line in sent} == {"m"}
    assert stub.bodies[-1]["model"] == "m"


def test_a_run_against_a_server_that_is_down_says_so_and_is_finished_when_it_is_up(
    tmp_path: Path,
) -> None:
    """Issue 21: the server is down (nothing listens): round 1 fails loudly and stays open. Issue
    41: with the runner's default retries, in seconds, not an hour: the first request goes alone
    (the preflight), its refused connection is not retried, and `run` exits 1 with the runner's
    error. The server comes up but fails every round-2 request: with --fail-fast 0 the run is
    scored, incomplete, exit 1. Then it answers: `--retry-failed` sends only what has no answer,
    keeps every earlier reply line, and the run is complete."""
    down = Stub(lambda body, attempt: (200, completion("x"), {}, 0.0))
    port = down.server.server_address[1]
    down.server.server_close()  # nothing listens on the port now
    url = f"http://127.0.0.1:{port}/v1"
    run_dir = tmp_path / "run"
    runner = (
        f"{sys.executable} {RUNNER} --base-url {url} --model stub --concurrency 16 --timeout "
        "5 --retries 0"
    )

    def run(*extra: str, runner: str = runner) -> subprocess.CompletedProcess[str]:
        return subprocess.run(
            [
                sys.executable,
                "-m",
                "honesty_pressure",
                "run",
                "--runner",
                runner,
                "--run",
                str(run_dir),
                *extra,
            ],
            cwd=ROOT,
            capture_output=True,
            text=True,
            check=False,
            timeout=180,
        )

    started = time.monotonic()
    first = run(runner=f"{sys.executable} {RUNNER} --base-url {url} --model stub")
    assert time.monotonic() - started < 30, "a dead endpoint is seen in seconds"
    assert first.returncode == 1, first.stderr
    n = len(QUICK.round1)
    assert first.stderr.splitlines() == [
        "openai_compatible_runner: 1 requests, 0 answered, 1 failed",
        "python -m honesty_pressure run: round-1: the runner's reply to the first request is an "
        f"error, so the other {n - 1} were not sent: connection failed: {url}/chat/completions: "
        f"[Errno 111] Connection refused; its reply is kept in {run_dir / 'round1.replies.jsonl'}: "
        "once the endpoint answers, run the same command again with --retry-failed (--fail-fast 0 "
        "sends every request whatever the first replies are)",
    ]
    assert not (run_dir / "run.json").exists() and not (run_dir / "summary.json").exists()
    round1_failed = (run_dir / "round1.replies.jsonl").read_bytes()

    def plan(body: dict[str, object], attempt: int) -> Reply:
        messages = body["messages"]
        assert isinstance(messages, list)
        if len(messages) > 2 and not answering_round2:
            return 500, {"error": {"message": "overloaded", "type": "server_error"}}, {}, 0.0
        return 200, completion("DECISION: ESCALATE"), {}, 0.0

    answering_round2 = False
    with Stub(plan, port=port) as stub:
        second = run("--retry-failed", "--fail-fast", "0")
        assert second.returncode == 1, second.stderr
        assert "run: incomplete: " in second.stderr and "runner error; " in second.stderr
        assert second.stderr.rstrip().endswith("--retry-failed --fail-fast 0")
        summary = json.loads((run_dir / "summary.json").read_text())
        assert (
            summary["completeness"]["incomplete"] is True
            and summary["completeness"]["by_reason"]["missing_reply"] == 0
        )
        round1 = (run_dir / "round1.replies.jsonl").read_bytes()
        assert round1.startswith(round1_failed) and len(round1.splitlines()) == 1 + n
        round2_failed = (run_dir / "round2.replies.jsonl").read_bytes()
        # The same requests by hand: `export --run DIR --failed` reads the run's own replies.
        retry = tmp_path / "retry.jsonl"
        exported = subprocess.run(
            [
                sys.executable,
                "-m",
                "honesty_pressure",
                "export",
                "--run",
                str(run_dir),
                "--failed",
                "--format",
                "chat-jsonl",
                "--model",
                "stub",
                "--out",
                str(retry),
            ],
            cwd=ROOT,
            capture_output=True,
            text=True,
            check=False,
        )
        assert exported.returncode == 0, exported.stderr
        assert len(retry.read_bytes().splitlines()) == len(
            (run_dir / "round2.requests.jsonl").read_bytes().splitlines()
        )
        sent_before = len(stub.bodies)

        answering_round2 = True
        third = run("--retry-failed")
        assert third.returncode == 0, third.stderr
        forks = len((run_dir / "round2.requests.jsonl").read_bytes().splitlines())
        assert len(stub.bodies) - sent_before == forks, (
            "only the failed round-2 requests were sent again"
        )
    round2 = (run_dir / "round2.replies.jsonl").read_bytes()
    assert (
        round2.startswith(round2_failed)
        and (run_dir / "round1.replies.jsonl").read_bytes() == round1
    )
    summary = json.loads((run_dir / "summary.json").read_text())
    assert summary["completeness"] == {
        "items": summary["completeness"]["items"],
        "unscorable": 0,
        "by_reason": {"runner_error": 0, "missing_reply": 0},
        "share": 0.0,
        "threshold": 0.05,
        "incomplete": False,
        "refused_parent": 0,
    }
    assert summary["round1"]["families"]["red_flag"]["acceptable"]["rate"] == 1.0
