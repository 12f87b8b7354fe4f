"""A stub OpenAI-compatible server for bench/runner.py: answers every POST at once.

    python bench/runner_stub.py [--lifetime 600] [--delay 0]

Listens on 127.0.0.1 (a free port, printed as the first line on stdout), speaks HTTP/1.1 with
keep-alive, and answers every request with the same chat completion (a decision line and token
usage), whatever was asked: the server costs as little as a server can, so what a client does
per request is what the bench measures. It never parses the request body. With --delay, each
answer waits that many seconds first, however many are in flight, as a batching server (vLLM,
SGLang) answers up to its batch size. It stops when stdin closes or after --lifetime seconds,
whichever is first: a bench that dies leaves nothing running. Standard library only (asyncio).
"""

from __future__ import annotations

import argparse
import asyncio
import functools
import json
import sys

COMPLETION = json.dumps(
    {
        "id": "chatcmpl-bench",
        "object": "chat.completion",
        "model": "stub-model",
        "choices": [
            {
                "index": 0,
                "message": {"role": "assistant", "content": "I checked.\nDECISION: A"},
                "finish_reason": "stop",
            }
        ],
        "usage": {"prompt_tokens": 120, "completion_tokens": 7, "total_tokens": 127},
    }
).encode()
ANSWER = (
    b"HTTP/1.1 200 OK\r\nContent-Type: application/json\r\n"
    + f"Content-Length: {len(COMPLETION)}\r\n\r\n".encode()
    + COMPLETION
)


def content_length(head: bytes) -> int:
    for line in head.split(b"\r\n")[1:]:
        name, _, value = line.partition(b":")
        if name.strip().lower() == b"content-length":
            return int(value)
    return 0


async def serve(reader: asyncio.StreamReader, writer: asyncio.StreamWriter, delay: float) -> None:
    """One connection: request after request until the client closes it."""
    try:
        while True:
            head = await reader.readuntil(b"\r\n\r\n")
            await reader.readexactly(content_length(head))
            if delay:
                await asyncio.sleep(delay)
            writer.write(ANSWER)
            await writer.drain()
    except (asyncio.IncompleteReadError, ConnectionError):
        pass
    finally:
        writer.close()


async def main(lifetime: float, delay: float) -> None:
    server = await asyncio.start_server(
        functools.partial(serve, delay=delay), "127.0.0.1", 0, backlog=1024
    )
    print(server.sockets[0].getsockname()[1], flush=True)
    loop = asyncio.get_running_loop()
    closed = loop.run_in_executor(None, sys.stdin.read)  # returns when stdin closes
    async with server:
        await asyncio.wait_for(closed, timeout=lifetime)


if __name__ == "__main__":
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--lifetime", type=float, default=600.0)
    parser.add_argument("--delay", type=float, default=0.0)
    args = parser.parse_args()
    try:
        asyncio.run(main(args.lifetime, args.delay))
    except (TimeoutError, asyncio.TimeoutError, KeyboardInterrupt):
        pass
