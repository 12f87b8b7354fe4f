"""The baseline for bench/runner.py: a minimal standard-library asyncio client.

    python bench/runner_baseline.py --base-url http://127.0.0.1:PORT/v1 --model m \
        --concurrency 64 < requests.jsonl > replies.jsonl

What any OpenAI-compatible client must do per request and nothing more: the chat-jsonl line's
body as JSON, a POST on one of `--concurrency` keep-alive connections, the status line, headers
and body read back, the answer parsed, and the line with the assistant's message appended written
and flushed, as the example runner writes it. No retries, no timeouts, no checks: the floor the
example runner (threads, http.client, retries, latency, usage) is measured against.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import sys
import urllib.parse


async def client(
    host: str, port: int, path: str, model: str, todo: asyncio.Queue[bytes], out: list[int]
) -> None:
    reader, writer = await asyncio.open_connection(host, port)
    while not todo.empty():
        line = json.loads(todo.get_nowait())
        body = json.dumps({**{k: v for k, v in line.items() if k != "id"}, "model": model}).encode()
        writer.write(
            f"POST {path} HTTP/1.1\r\nHost: {host}\r\nContent-Type: application/json\r\n"
            f"Content-Length: {len(body)}\r\n\r\n".encode()
            + body
        )
        head = await reader.readuntil(b"\r\n\r\n")
        length = next(
            int(h.split(b":", 1)[1])
            for h in head.split(b"\r\n")
            if h.lower().startswith(b"content-length:")
        )
        answer = json.loads(await reader.readexactly(length))
        message = answer["choices"][0]["message"]
        reply = {"id": line["id"], "messages": [*line["messages"], message], "model": model}
        sys.stdout.write(json.dumps(reply, ensure_ascii=False) + "\n")
        sys.stdout.flush()
        out[0] += 1
    writer.close()


async def main(base_url: str, model: str, concurrency: int) -> int:
    parts = urllib.parse.urlsplit(f"{base_url.rstrip('/')}/chat/completions")
    todo: asyncio.Queue[bytes] = asyncio.Queue()
    for text in sys.stdin.buffer:
        if text.strip():
            todo.put_nowait(text)
    done = [0]
    assert parts.hostname is not None and parts.port is not None
    await asyncio.gather(
        *(
            client(parts.hostname, parts.port, parts.path, model, todo, done)
            for _ in range(min(concurrency, todo.qsize()))
        )
    )
    return done[0]


if __name__ == "__main__":
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--base-url", required=True)
    parser.add_argument("--model", required=True)
    parser.add_argument("--concurrency", type=int, default=64)
    args = parser.parse_args()
    answered = asyncio.run(main(args.base_url, args.model, args.concurrency))
    sys.stderr.write(f"runner_baseline: {answered} requests answered\n")
