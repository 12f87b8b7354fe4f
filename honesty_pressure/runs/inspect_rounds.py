"""Every round of one Inspect log of the whole protocol, answered back to `run`.

`inspect eval honesty_pressure/honesty` (honesty_pressure/inspect_task.py) sends round 1 and
every later round inside one log: each sample's store holds the requests it sent, round by round,
and the replies as the kit reads them. The round-1 replies are the log's samples as any Inspect
log's, so `score --layer` and `advance` read them as before; the later rounds are bound to a run
set that only a whole-set advance knows, so the kit scores the log by playing `run` against it:

    honesty-pressure run --runner "python -m honesty_pressure.runs.inspect_rounds LOG" \
        --run RUN --rounds 3 --protocol sustained --samples K

This module is that runner: it reads chat-jsonl requests on stdin and answers each from the log,
by packet id and sample (the kit's `unbind` of the request's id), and only when the request's
messages are the ones the log says were sent: the forks `run` builds from the log's round-1
replies must be the forks the task sent, byte for byte, or the runner stops (exit 2, one line).
A request the log never sent (a sample that errored in Inspect) gets a failed reply, which
`run` counts and `--retry-failed` resends once the log is retried.
"""

from __future__ import annotations

import json
import sys
import tempfile
from collections.abc import Iterable, Iterator, Mapping, Sequence
from pathlib import Path
from typing import Final

from ..core.binding import bind, unbind
from ..core.canonical import dumps
from ..core.construct import Protocol
from ..core.errors import InputError, KitError
from ..files.kitroot import packets_folder
from ..files.layer import load_checked_layer
from ..files.store import JsonObject
from ..rounds.advance import from_layer
from ..runners.envelopes import inspect_log_samples
from ..runners.envelopes import refused as is_refusal
from .outputs import advance_into
from .pipeline import ScoreOptions, score_run

STORE_KEY: Final = "honesty_pressure:rounds"
"""Where the Inspect task keeps a sample's exchanges: a list of {round, packet_id, sample,
messages, reply, error, usage}, in the order they were sent."""

REFUSAL_PREFIX: Final = "refusal: "

Slot = tuple[str, int]


def logged_exchanges(logs: Iterable[str | Path]) -> dict[Slot, JsonObject]:
    """Every exchange the logs' samples hold, by (packet id, sample). A sample that errored holds
    none; a later log (an `eval-retry`) replaces an earlier one's exchange of the same slot."""
    found: dict[Slot, JsonObject] = {}
    for log in logs:
        for sample, where in inspect_log_samples(log):
            if sample.get("error") is not None:
                continue
            store = sample.get("store")
            exchanges = store.get(STORE_KEY) if isinstance(store, dict) else None
            if exchanges is None:
                continue
            if not isinstance(exchanges, list):
                raise InputError(f"store entry {STORE_KEY!r} is not a list", file=where)
            for item in exchanges:
                if not isinstance(item, dict) or not isinstance(item.get("packet_id"), str):
                    raise InputError(f"an exchange in {STORE_KEY!r} has no packet id", file=where)
                sample_no = item.get("sample")
                if not isinstance(sample_no, int) or isinstance(sample_no, bool):
                    raise InputError(f"an exchange in {STORE_KEY!r} has no sample", file=where)
                found[(item["packet_id"], sample_no)] = item
    return found


def reply_line(request: JsonObject, exchange: JsonObject | None) -> JsonObject:
    """The chat-jsonl reply to one request line: the request's messages and the model's answer
    (content null with an error for a failure, a `refusal` for the model's refusal)."""
    messages = list(request["messages"])  # type: ignore[call-overload]
    out: JsonObject = {"id": request["id"]}
    if exchange is None:
        out["messages"] = [*messages, {"role": "assistant", "content": None}]
        out["error"] = "not in the Inspect log (an errored sample?)"
        return out
    reply, error = exchange.get("reply"), exchange.get("error")
    answer: JsonObject = {"role": "assistant", "content": reply if isinstance(reply, str) else None}
    if isinstance(error, str) and is_refusal(error):
        answer["refusal"] = error[len(REFUSAL_PREFIX) :] if error != "refusal" else "refusal"
    elif isinstance(error, str):
        out["error"] = error
    out["messages"] = [*messages, answer]
    if isinstance(exchange.get("usage"), dict):
        out["usage"] = exchange["usage"]
    return out


def answer_lines(lines: Iterable[str], found: dict[Slot, JsonObject]) -> Iterator[str]:
    """Each request line's reply line, in order."""
    for number, text in enumerate(lines, start=1):
        if not text.strip():
            continue
        request = json.loads(text)
        if not isinstance(request, dict) or not isinstance(request.get("messages"), list):
            raise InputError("a request line must be chat-jsonl", file="<stdin>", line=number)
        bound = unbind(str(request.get("id")))
        exchange = found.get((bound.packet_id, bound.sample or 0))
        if exchange is not None and exchange.get("messages") != request["messages"]:
            raise InputError(
                f"packet {bound.packet_id} sample {bound.sample or 0}: the log sent other "
                "messages than this request's (a log of other packets, another protocol or "
                "other epochs?)",
                file="<stdin>",
                line=number,
            )
        yield dumps(reply_line(request, exchange)) + "\n"


def reply_file(
    path: Path, requests: Mapping[str, JsonObject], packet_set: str, exchanges: Iterable[JsonObject]
) -> Path:
    """A chat-jsonl reply file of one round: each exchange of a packet of `requests`, its id bound
    to the round's set, its messages the kit's own request (a runner's reply, as `run` keeps it)."""
    lines = []
    for exchange in exchanges:
        pid, sample = str(exchange["packet_id"]), exchange["sample"]
        if pid in requests and isinstance(sample, int):
            request = {"id": bind(pid, packet_set, sample), "messages": requests[pid]["messages"]}
            lines.append(dumps(reply_line(request, exchange)) + "\n")
    path.write_text("".join(lines), encoding="utf-8")
    return path


def scored_rounds(
    exchanges: Sequence[JsonObject], packets: str | None, layer: str, protocol: Protocol
) -> JsonObject:
    """summary.json of rounds 1 and 2 of these exchanges, as `run` writes it (the top level of its
    run folder: the honesty index, the axes with their intervals, the bar): round 1 advanced into
    a run folder and its forks scored, in a temporary folder, by the kit's own steps. What the
    Inspect task's metrics show (inspect_task.kit_index)."""
    if not any(e.get("round") == 1 for e in exchanges):
        return {}  # nothing to score yet (Inspect computes metrics while samples run too)
    folder = load_checked_layer(packets_folder(packets), layer)
    first = from_layer(folder)
    with tempfile.TemporaryDirectory(prefix="hp-inspect-") as temp:
        where = Path(temp)
        replies1 = reply_file(
            where / "round1.replies.jsonl",
            first.requests,
            first.parent_set,
            (e for e in exchanges if e.get("round") == 1),
        )
        forks = advance_into(first, [replies1], where / "run", protocol=protocol)
        replies2 = reply_file(
            where / "round2.replies.jsonl",
            forks.requests,
            forks.parent_set,
            (e for e in exchanges if e.get("round") == 2),
        )
        # No fork answered yet: every fork is scored missing, as `run` scores an empty round.
        given = [replies2] if replies2.stat().st_size else []
        files = score_run(where / "run", given, folder.folder.parent, ScoreOptions())
    summary = json.loads(files["summary.json"])
    assert isinstance(summary, dict)
    return summary


def main(argv: Sequence[str] | None = None) -> int:
    logs = list(sys.argv[1:] if argv is None else argv)
    if not logs:
        print(
            "usage: python -m honesty_pressure.runs.inspect_rounds LOG [LOG ...]", file=sys.stderr
        )
        return 2
    try:
        found = logged_exchanges(logs)
        for line in answer_lines(sys.stdin, found):
            sys.stdout.write(line)
            sys.stdout.flush()
    except KitError as exc:
        print(f"inspect_rounds: {exc.one_line()}", file=sys.stderr)
        return 2
    except json.JSONDecodeError as exc:
        print(f"inspect_rounds: <stdin>: not JSON ({exc.msg})", file=sys.stderr)
        return 2
    return 0


__all__ = [
    "STORE_KEY",
    "answer_lines",
    "logged_exchanges",
    "main",
    "reply_file",
    "reply_line",
    "scored_rounds",
]

if __name__ == "__main__":
    sys.exit(main())
