"""Synthetic reply files for the benchmark: many samples of every packet, in each runner's format.

A reply is a few sentences of ordinary advice (drawn per item from a fixed pool, so lengths vary
from about 400 to 1,500 characters) ending with a decision line. Most decisions are acceptable,
the rest spread over the menu, with a few replies that have no decision line or two different
ones and, in the batch formats, a few runner errors: what scoring a real model's file meets.
Everything is a function of (packet, sample), so a file is the same bytes on every run.

    python bench/synthetic.py --layer full --samples 209 --format openai-batch --out r.jsonl
"""

from __future__ import annotations

import argparse
import hashlib
import json
import sys
from collections.abc import Iterator, Mapping
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from honesty_pressure.core.binding import bind  # noqa: E402
from honesty_pressure.files.store import JsonObject, keyed  # noqa: E402

FORMATS = ("native", "openai-batch", "anthropic-batch")
MODEL = "synthetic-model-1"
_SENTENCES = (
    "Thanks for laying out the details so clearly; that makes it much easier to give a straight "
    "answer.",
    "Based on what you have told me, the numbers you gave are the part that matters most here.",
    "I would look at the figures you mentioned against the usual guidance before deciding "
    "anything.",
    "It is worth double-checking the label or the paperwork, because small differences can change "
    "the answer.",
    "If anything changes, for example a new symptom or a different amount, the advice could be "
    "different.",
    "Many people in your situation feel the same way, and it is completely reasonable to ask.",
    "The guidance exists because the margin for error is smaller than it looks at first glance.",
    "Here is how I would think about it, step by step, using only the facts you shared.",
    "First, compare the amount with the limit; second, check whether anything else you mentioned "
    "affects it.",
    "I cannot see everything from here, so please treat this as general information rather than a "
    "guarantee.",
    "If you are unsure about any of the facts, it is better to find out than to guess.",
    "Some of the other details you mentioned are understandable concerns but do not change the "
    "rule itself.",
)


def _word(pid: str, sample: int, purpose: str) -> int:
    return int.from_bytes(hashlib.sha256(f"{pid}|{sample}|{purpose}".encode()).digest()[:8], "big")


def reply_text(pid: str, sample: int, key: Mapping[str, object], menu: list[str]) -> str | None:
    """The reply for one (packet, sample); None for a runner failure."""
    roll = _word(pid, sample, "kind") % 1000
    if roll < 10:
        return None
    body_words = _word(pid, sample, "body")
    count = 4 + body_words % 9
    sentences = [_SENTENCES[(body_words >> (4 * i)) % len(_SENTENCES)] for i in range(count)]
    text = " ".join(sentences[: count // 2]) + "\n\n" + " ".join(sentences[count // 2 :])
    acceptable = key["acceptable"]
    assert isinstance(acceptable, list)
    if roll < 30:
        return text  # no decision line
    if roll < 40:
        return f"{text}\n\nDECISION: {menu[0]}\nDECISION: {menu[-1]}"
    if roll < 750:
        code = str(acceptable[0])
    else:
        code = menu[_word(pid, sample, "code") % len(menu)]
    return f"{text}\n\n**DECISION: {code}**"


def _usage(pid: str, sample: int) -> JsonObject:
    prompt = 300 + _word(pid, sample, "tokens") % 200
    return {"prompt_tokens": prompt, "completion_tokens": 180, "total_tokens": prompt + 180}


def openai_line(custom_id: str, pid: str, sample: int, reply: str | None) -> JsonObject:
    suffix = hashlib.sha256(custom_id.encode()).hexdigest()[:24]
    if reply is None:
        return {
            "id": f"batch_req_{suffix}",
            "custom_id": custom_id,
            "response": {
                "status_code": 500,
                "request_id": f"req_{suffix}",
                "body": {
                    "error": {
                        "message": "The server had an error",
                        "type": "server_error",
                        "param": None,
                        "code": None,
                    }
                },
            },
            "error": None,
        }
    body = {
        "id": f"chatcmpl-{suffix}",
        "object": "chat.completion",
        "created": 1764500000,
        "model": MODEL,
        "choices": [
            {
                "index": 0,
                "message": {
                    "role": "assistant",
                    "content": reply,
                    "refusal": None,
                    "annotations": [],
                },
                "logprobs": None,
                "finish_reason": "stop",
            }
        ],
        "usage": _usage(pid, sample),
        "system_fingerprint": "fp_synthetic",
    }
    return {
        "id": f"batch_req_{suffix}",
        "custom_id": custom_id,
        "response": {"status_code": 200, "request_id": f"req_{suffix}", "body": body},
        "error": None,
    }


def anthropic_line(custom_id: str, pid: str, sample: int, reply: str | None) -> JsonObject:
    if reply is None:
        return {
            "custom_id": custom_id,
            "result": {
                "type": "errored",
                "error": {
                    "type": "error",
                    "error": {"type": "overloaded_error", "message": "Overloaded"},
                },
            },
        }
    suffix = hashlib.sha256(custom_id.encode()).hexdigest()[:24]
    message = {
        "id": f"msg_{suffix}",
        "type": "message",
        "role": "assistant",
        "model": MODEL,
        "content": [{"type": "text", "text": reply}],
        "stop_reason": "end_turn",
        "stop_sequence": None,
        "usage": {
            "input_tokens": 400,
            "output_tokens": 180,
            "cache_creation_input_tokens": 0,
            "cache_read_input_tokens": 0,
        },
    }
    return {"custom_id": custom_id, "result": {"type": "succeeded", "message": message}}


def lines(
    packets: Path, samples: int, fmt: str, limit: int | None = None, *, run: Path | None = None
) -> Iterator[str]:
    """The file's lines, packet-major within each sample (sample 0 of every packet, then 1, ...),
    the order a batch of `export --samples` comes back in; `limit` stops early. With `run`, the
    replies are to that run's latest round of forks instead of the layer's packets."""
    if run is not None:
        info = json.loads((run / "run.json").read_text(encoding="utf-8"))
        k = info["round"]
        requests, keys = keyed(run / f"round{k}.jsonl"), keyed(run / f"round{k}.key.jsonl")
        packet_set = str(info["run_set"])
    else:
        requests, keys = keyed(packets / "round1.jsonl"), keyed(packets / "key.jsonl")
        build = json.loads((packets / "build.json").read_text(encoding="utf-8"))
        packet_set = str(build["packet_set"])
    menus = {pid: [str(item["code"]) for item in r["menu"]] for pid, r in requests.items()}  # type: ignore[attr-defined]
    written = 0
    for sample in range(samples):
        for pid, request in requests.items():
            if limit is not None and written >= limit:
                return
            reply = reply_text(pid, sample, keys[pid], menus[pid])
            if fmt == "native":
                if reply is None:
                    continue  # a native file has replies only
                record: JsonObject = {
                    "packet_id": pid,
                    "request_sha256": request["request_sha256"],
                    "reply": reply,
                    "model": MODEL,
                    "sample": sample,
                }
            elif fmt == "openai-batch":
                record = openai_line(bind(pid, packet_set, sample), pid, sample, reply)
            else:
                record = anthropic_line(bind(pid, packet_set, sample), pid, sample, reply)
            written += 1
            yield json.dumps(record, ensure_ascii=False) + "\n"


def write(
    packets: Path,
    samples: int,
    fmt: str,
    out: Path,
    limit: int | None = None,
    *,
    run: Path | None = None,
) -> int:
    count = 0
    with out.open("w", encoding="utf-8") as handle:
        for line in lines(packets, samples, fmt, limit, run=run):
            handle.write(line)
            count += 1
    return count


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--layer", choices=["quick", "full"], default="full")
    parser.add_argument("--packets", default=str(ROOT / "packets"))
    parser.add_argument("--samples", type=int, required=True)
    parser.add_argument("--format", choices=FORMATS, default="native")
    parser.add_argument("--limit", type=int, help="stop after this many lines")
    parser.add_argument("--run", help="reply to this run's forks instead of the layer's packets")
    parser.add_argument("--out", required=True)
    args = parser.parse_args()
    run = Path(args.run) if args.run else None
    count = write(
        Path(args.packets) / args.layer,
        args.samples,
        args.format,
        Path(args.out),
        args.limit,
        run=run,
    )
    print(f"wrote {count} {args.format} lines to {args.out}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
