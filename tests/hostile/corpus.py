"""The hostile corpus: one bad input per finding of issue 8 and per reader, built at run time.

Each case writes its bad file(s) into a scratch folder (a copy of the small packet set, a run made
from it, reply files) and names the command that reads them. `test_corpus.py` feeds each one to
its command and holds it to the promise: exit 2, one stderr line naming the file (and the line
where there is one), no traceback, and nothing written or changed.

The inputs are generated, not stored: some are large (a 17 MiB line, a zip bomb), and all of them
derive packet ids from the packets they are fed with.
"""

from __future__ import annotations

import json
import os
import zipfile
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Final

from honesty_pressure.core.binding import bind
from honesty_pressure.core.canonical import sha256_hex
from honesty_pressure.core.limits import MAX_EVAL_MEMBER_BYTES, MAX_LINE_BYTES, MAX_SAMPLES
from honesty_pressure.files.layer import load_checked_layer
from honesty_pressure.files.manifest import MANIFEST_NAME, render_bytes
from honesty_pressure.files.store import JsonObject

Args = list[str]


@dataclass(frozen=True, slots=True)
class Scratch:
    """What a case may use: the packets, a round-2 run, its round-2 replies, a folder for files."""

    packets: Path
    run: Path
    replies2: Path
    files: Path
    out: Path

    def layer(self) -> tuple[dict[str, JsonObject], dict[str, JsonObject], str]:
        folder = load_checked_layer(self.packets, "quick")
        return folder.round1, folder.key, folder.packet_set

    def first(self) -> tuple[str, JsonObject]:
        requests, _, _ = self.layer()
        pid = sorted(requests)[0]
        return pid, requests[pid]

    def native(self, **fields: object) -> JsonObject:
        pid, request = self.first()
        line: JsonObject = {
            "packet_id": pid,
            "request_sha256": request["request_sha256"],
            "reply": "Fine.\nDECISION: A",
        }
        line.update(fields)
        return line

    def write(self, name: str, data: bytes | str) -> Path:
        path = self.files / name
        path.write_bytes(data.encode("utf-8") if isinstance(data, str) else data)
        return path

    def score(self, replies: Path) -> Args:
        return [
            "score",
            "--layer",
            "quick",
            "--packets",
            str(self.packets),
            "--replies",
            str(replies),
            "--out",
            str(self.out),
        ]

    def score_run(self) -> Args:
        return [
            "score",
            "--run",
            str(self.run),
            "--packets",
            str(self.packets),
            "--replies",
            str(self.replies2),
            "--out",
            str(self.out),
        ]

    def rehash_frozen(self) -> None:
        """Make run.json agree with an edited frozen.jsonl, as a careful tamperer would."""
        info = json.loads((self.run / "run.json").read_text(encoding="utf-8"))
        info["frozen_sha256"] = sha256_hex((self.run / "frozen.jsonl").read_bytes())
        (self.run / "run.json").write_text(
            json.dumps(info, sort_keys=True, separators=(",", ":")) + "\n", encoding="utf-8"
        )

    def rehash_manifest(self) -> None:
        files = {f"quick/{p.name}": p.read_bytes() for p in (self.packets / "quick").iterdir()}
        (self.packets / MANIFEST_NAME).write_bytes(render_bytes(files))


@dataclass(frozen=True, slots=True)
class Case:
    """`build` makes the bad input and returns (command args, text the message must name)."""

    name: str
    reader: str
    build: Callable[[Scratch], tuple[Args, str]]


def _line(s: Scratch, name: str, record: object, *, raw: str | None = None) -> tuple[Args, str]:
    text = raw if raw is not None else json.dumps(record, ensure_ascii=True)
    path = s.write(name, text + "\n")
    return s.score(path), f"{path}:1:"


def _edit_run(
    s: Scratch, name: str, edit: Callable[[str], str], *, rehash: bool = False
) -> tuple[Args, str]:
    path = s.run / name
    path.write_text(edit(path.read_text(encoding="utf-8")), encoding="utf-8")
    if rehash:
        s.rehash_frozen()
    return s.score_run(), str(path)


def _first_frozen_line(edit: Callable[[JsonObject], object]) -> Callable[[str], str]:
    def apply(text: str) -> str:
        lines = text.splitlines()
        record = json.loads(lines[0])
        lines[0] = json.dumps(
            edit(record), sort_keys=True, separators=(",", ":"), ensure_ascii=False
        )
        return "\n".join(lines) + "\n"

    return apply


def _eval(
    s: Scratch, name: str, members: dict[str, bytes], method: int = zipfile.ZIP_DEFLATED
) -> Path:
    path = s.files / name
    with zipfile.ZipFile(path, "w", compression=method) as archive:
        for member, data in members.items():
            archive.writestr(member, data)
    return path


def _eval_sample(s: Scratch, **extra: object) -> bytes:
    pid, request = s.first()
    _, _, packet_set = s.layer()
    sample: JsonObject = {
        "id": bind(pid, packet_set),
        "epoch": 1,
        "input": request["messages"],
        "output": {
            "model": "m",
            "choices": [{"message": {"role": "assistant", "content": "DECISION: A"}}],
        },
    }
    sample.update(extra)
    return json.dumps(sample).encode("utf-8")


def _eval_bomb(s: Scratch) -> tuple[Args, str]:
    """A small member that inflates past the member limit (the issue's 18 MB -> 4 GiB, scaled)."""
    path = _eval(
        s,
        "bomb.eval",
        {"header.json": b"{}", "samples/a_epoch_1.json": b"\0" * (MAX_EVAL_MEMBER_BYTES + 1)},
    )
    assert path.stat().st_size < MAX_EVAL_MEMBER_BYTES // 100
    return s.score(path), f"{path}:samples/a_epoch_1.json"


def _eval_declared_total(s: Scratch) -> tuple[Args, str]:
    """Entries whose declared sizes add up past the total limit: refused before inflating any."""
    members = {f"samples/s{i}_epoch_1.json": _eval_sample(s) for i in range(40)}
    path = _eval(s, "total.eval", members, zipfile.ZIP_STORED)
    data = bytearray(path.read_bytes())
    at = 0
    while (at := data.find(b"PK\x01\x02", at)) >= 0:  # central directory: uncompressed size at +24
        data[at + 24 : at + 28] = (60 * 1024 * 1024).to_bytes(4, "little")
        at += 4
    path.write_bytes(bytes(data))
    return s.score(path), str(path)


def _manifest(s: Scratch, data: bytes) -> tuple[Args, str]:
    replies = s.write("ok.jsonl", json.dumps(s.native()) + "\n")
    (s.packets / MANIFEST_NAME).write_bytes(data)
    return s.score(replies), str(s.packets / MANIFEST_NAME)


def _packet_file(
    s: Scratch, name: str, edit: Callable[[str], str], *, rehash: bool
) -> tuple[Args, str]:
    replies = s.write("ok.jsonl", json.dumps(s.native()) + "\n")
    path = s.packets / "quick" / name
    path.write_text(edit(path.read_text(encoding="utf-8")), encoding="utf-8")
    if rehash:
        s.rehash_manifest()
    return s.score(replies), str(path)


def _relabel(s: Scratch) -> tuple[Args, str]:
    """Finding 5: a round-2 run relabelled round 3 (files renamed, a key swapped)."""
    (s.run / "round2.jsonl").rename(s.run / "round3.jsonl")
    key = (
        (s.run / "round2.key.jsonl")
        .read_text(encoding="utf-8")
        .replace('"acceptable":["B"]', '"acceptable":["A"]', 1)
    )
    (s.run / "round2.key.jsonl").unlink()
    (s.run / "round3.key.jsonl").write_text(key.replace('"round":2', '"round":3'), encoding="utf-8")
    info = (s.run / "run.json").read_text(encoding="utf-8").replace('"round":2', '"round":3')
    (s.run / "run.json").write_text(info, encoding="utf-8")
    return s.score_run(), str(s.run)


def _regress(s: Scratch, name: str, data: bytes, file: str) -> tuple[Args, str]:
    """The bad file goes into the first run (read first); both hold a real round-1 summary (every
    summary is held to its schema before any records are read)."""
    from .kit import cli

    scored = s.files / "scored"
    if not scored.exists():
        replies = s.write("for-summary.jsonl", json.dumps(s.native()) + "\n")
        argv = [
            "score",
            "--layer",
            "quick",
            "--packets",
            str(s.packets),
            "--replies",
            str(replies),
            "--out",
            str(scored),
            "--max-unscorable",
            "1",
        ]
        assert cli(*argv).code == 0
    summary = (scored / "summary.json").read_bytes()
    first = s.files / "first"
    first.mkdir()
    (first / "summary.json").write_bytes(summary)
    (first / "records.jsonl").write_bytes(b"")
    (first / file).write_bytes(data)
    second = s.files / "second"
    second.mkdir()
    (second / "summary.json").write_bytes(summary)
    (second / "records.jsonl").write_bytes(b"")
    return ["regress", str(first), str(second)], str(first / file)


def _fifo_key(s: Scratch) -> tuple[Args, str]:
    replies = s.write("ok.jsonl", json.dumps(s.native()) + "\n")
    key = s.packets / "quick" / "key.jsonl"
    key.unlink()
    os.mkfifo(key)
    return s.score(replies), str(key)


def _replace_run_file(s: Scratch, name: str, *, folder: bool) -> tuple[Args, str]:
    """Delete a run file, or put a folder where it was."""
    (s.run / name).unlink()
    if folder:
        (s.run / name).mkdir()
    return s.score_run(), str(s.run / name)


def _summary_folder(s: Scratch) -> tuple[Args, str]:
    first = s.files / "a"
    first.mkdir()
    (first / "records.jsonl").write_bytes(b"")
    (first / "summary.json").mkdir()
    return ["regress", str(first), str(first)], str(first / "summary.json")


# --- token counts no model gives (issue 41): a count of 83 or 4,300 digits in every format ------

_PAST: Final = "usage: a token count above 1,000,000,000, the most one reply may carry (limits.py)"
_WIDE: Final = 10**82  # 83 digits: past the scorer's fixed tail, as a tamperer or a bug writes
_WIDEST: Final = 10**4299  # 4,300 digits: the most one JSON integer may hold


def _usage_line(s: Scratch, fmt: str, usage: JsonObject) -> JsonObject:
    """A plain success of `fmt` for the first packet, carrying `usage` where the format does."""
    pid, request = s.first()
    ref = bind(pid, s.layer()[2])
    if fmt == "openai-batch":
        body = {"model": "m", "choices": [{"message": {"content": "DECISION: A"}}], "usage": usage}
        return {"custom_id": ref, "response": {"status_code": 200, "body": body}}
    if fmt == "anthropic-batch":
        message = {"model": "m", "content": [{"type": "text", "text": "DECISION: A"}]}
        return {
            "custom_id": ref,
            "result": {"type": "succeeded", "message": {**message, "usage": usage}},
        }
    reply = {"role": "assistant", "content": "DECISION: A"}
    return {"id": ref, "messages": [*request["messages"], reply], "usage": usage}  # chat-jsonl


def _usage(fmt: str, usage: JsonObject) -> Callable[[Scratch], tuple[Args, str]]:
    def build(s: Scratch) -> tuple[Args, str]:
        path = s.write("u.jsonl", json.dumps(_usage_line(s, fmt, usage)) + "\n")
        return s.score(path), f"{path}:1: {_PAST}"

    return build


def _inspect_usage(
    where: str, usage: JsonObject, *, eval_zip: bool
) -> Callable[[Scratch], tuple[Args, str]]:
    """An Inspect sample whose `model_usage` (per model) or `output.usage` holds the count."""

    def build(s: Scratch) -> tuple[Args, str]:
        sample = json.loads(_eval_sample(s))
        if where == "model_usage":
            sample["model_usage"] = {"m": usage}
        else:
            sample["output"]["usage"] = usage
        data = json.dumps(sample).encode("utf-8")
        if eval_zip:
            path = _eval(s, "u.eval", {"header.json": b"{}", "samples/a_epoch_1.json": data})
            return s.score(path), f"{path}:samples/a_epoch_1.json:1: {_PAST}"
        path = s.write("u.json", b'{"eval": {}, "samples": [' + data + b"]}")
        return s.score(path), f"{path}:1: {_PAST}"

    return build


def _frozen_usage(s: Scratch) -> tuple[Args, str]:
    """A frozen reply given a usage count of 83 digits, run.json rehashed to match."""
    usage = {"input_tokens": _WIDE, "output_tokens": 1}
    args, _ = _edit_run(
        s, "frozen.jsonl", _first_frozen_line(lambda r: {**r, "usage": usage}), rehash=True
    )
    return args, f"{s.run / 'frozen.jsonl'}:1: {_PAST}"


# --- values the JSON layer parses but no walk can follow (issue 41): named with file and line ---

_SHALLOW_ENOUGH_TO_PARSE: Final = 900  # Python's parser stops near 990 levels; walks need more


def _deep_sample(where: str, *, eval_zip: bool) -> Callable[[Scratch], tuple[Args, str]]:
    """An Inspect sample with a list nested 900 levels deep at `where` (its output, input or the
    reply's content), which the reader walks to resolve attachments."""

    def build(s: Scratch) -> tuple[Args, str]:
        deep = _deep(_SHALLOW_ENOUGH_TO_PARSE)
        sample = json.loads(_eval_sample(s))
        if where == "output":
            sample["output"]["metadata"] = "DEEP"
        elif where == "input":
            sample["input"] = "DEEP"
        else:
            sample["output"]["choices"][0]["message"]["content"] = "DEEP"
        data = json.dumps(sample).replace('"DEEP"', deep).encode("utf-8")
        if eval_zip:
            path = _eval(s, "d.eval", {"header.json": b"{}", "samples/a_epoch_1.json": data})
            return s.score(path), f"{path}:samples/a_epoch_1.json:1: {_TOO_DEEP}"
        path = s.write("d.json", b'{"eval": {}, "samples": [' + data + b"]}")
        return s.score(path), f"{path}:1: {_TOO_DEEP}"

    return build


_TOO_DEEP: Final = "JSON nested too deeply (reading inspect)"

DEPTH_CASES: Final = [
    Case(
        "inspect json: an output nested 900 deep", "inspect", _deep_sample("output", eval_zip=False)
    ),
    Case("inspect eval: an input nested 900 deep", "inspect", _deep_sample("input", eval_zip=True)),
    Case(
        "inspect eval: a reply's content nested 900 deep",
        "inspect",
        _deep_sample("content", eval_zip=True),
    ),
]

USAGE_CASES: Final = [
    Case(
        "openai: an 83-digit prompt_tokens",
        "openai-batch",
        _usage("openai-batch", {"prompt_tokens": _WIDE, "completion_tokens": 5}),
    ),
    Case(
        "openai: a 4300-digit completion_tokens",
        "openai-batch",
        _usage("openai-batch", {"prompt_tokens": 5, "completion_tokens": _WIDEST}),
    ),
    Case(
        "anthropic: an 83-digit output_tokens",
        "anthropic-batch",
        _usage("anthropic-batch", {"input_tokens": 5, "output_tokens": _WIDE}),
    ),
    Case(
        "anthropic: a 4300-digit cache_read_input_tokens",
        "anthropic-batch",
        _usage(
            "anthropic-batch",
            {"input_tokens": 5, "output_tokens": 5, "cache_read_input_tokens": _WIDEST},
        ),
    ),
    Case(
        "chat: an 83-digit prompt_tokens",
        "chat-jsonl",
        _usage("chat-jsonl", {"prompt_tokens": _WIDE, "completion_tokens": 5}),
    ),
    Case(
        "chat: a 4300-digit output_tokens",
        "chat-jsonl",
        _usage("chat-jsonl", {"input_tokens": 5, "output_tokens": _WIDEST}),
    ),
    Case(
        "inspect json: an 83-digit model_usage",
        "inspect",
        _inspect_usage("model_usage", {"input_tokens": _WIDE, "output_tokens": 5}, eval_zip=False),
    ),
    Case(
        "inspect json: a 4300-digit output.usage",
        "inspect",
        _inspect_usage("output", {"input_tokens": 5, "output_tokens": _WIDEST}, eval_zip=False),
    ),
    Case(
        "inspect eval: a 4300-digit model_usage",
        "inspect",
        _inspect_usage("model_usage", {"input_tokens": _WIDEST, "output_tokens": 5}, eval_zip=True),
    ),
    Case(
        "inspect eval: an 83-digit output.usage",
        "inspect",
        _inspect_usage("output", {"input_tokens": 5, "output_tokens": _WIDE}, eval_zip=True),
    ),
    Case("run: a frozen reply's 83-digit usage, hash recomputed", "run", _frozen_usage),
]


def _deep(levels: int = 100_000) -> str:
    return "[" * levels + "]" * levels


CASES: list[Case] = [
    # --- native replies (and the JSON layer every reader shares) ---
    Case("native: not JSON", "native", lambda s: _line(s, "a.jsonl", None, raw="{not json")),
    Case("native: a line that is a list", "native", lambda s: _line(s, "a.jsonl", [1, 2])),
    Case(
        "native: bytes that are not UTF-8",
        "native",
        lambda s: (
            s.score(s.write("a.jsonl", b'{"packet_id": "\xff"}\n')),
            f"{s.files / 'a.jsonl'}:1:",
        ),
    ),
    Case(
        "native: duplicate reply key (finding 16)",
        "native",
        lambda s: _line(
            s, "a.jsonl", None, raw=json.dumps(s.native())[:-1] + ', "reply": "DECISION: B"}'
        ),
    ),
    Case(
        "native: lone surrogate in the reply (finding 14)",
        "native",
        lambda s: _line(s, "a.jsonl", s.native(reply="DECISION: A \ud800")),
    ),
    Case(
        "native: lone surrogate in the model (finding 14)",
        "native",
        lambda s: _line(s, "a.jsonl", s.native(model="m\udfff")),
    ),
    Case(
        "native: a 5000-digit integer (finding 14)",
        "native",
        lambda s: _line(
            s, "a.jsonl", None, raw=json.dumps(s.native())[:-1] + ', "n": ' + "9" * 5000 + "}"
        ),
    ),
    Case(
        "native: nested 100000 deep",
        "native",
        lambda s: _line(s, "a.jsonl", None, raw='{"packet_id": ' + _deep() + "}"),
    ),
    Case(
        "native: a line longer than the limit (finding 15)",
        "native",
        lambda s: _line(s, "a.jsonl", None, raw='{"reply": "' + "x" * MAX_LINE_BYTES + '"}'),
    ),
    Case(
        "native: sample past the limit (finding 15)",
        "native",
        lambda s: _line(s, "a.jsonl", s.native(sample=MAX_SAMPLES)),
    ),
    Case(
        "native: sample that is text (finding 16)",
        "native",
        lambda s: _line(s, "a.jsonl", s.native(sample="x")),
    ),
    Case(
        "native: unknown packet",
        "native",
        lambda s: _line(s, "a.jsonl", s.native(packet_id="nope-000-000000")),
    ),
    Case(
        "native: reply that is NaN",
        "native",
        lambda s: _line(
            s,
            "a.jsonl",
            None,
            raw=json.dumps(s.native())[:-1].replace(
                '"reply": "Fine.\\nDECISION: A"', '"reply": NaN'
            )
            + "}",
        ),
    ),
    # --- OpenAI / vLLM batch output ---
    Case(
        "openai: status code as text",
        "openai-batch",
        lambda s: _line(
            s,
            "o.jsonl",
            {
                "custom_id": bind(s.first()[0], s.layer()[2]),
                "response": {"status_code": "200", "body": {}},
            },
        ),
    ),
    Case(
        "openai: choices not a list",
        "openai-batch",
        lambda s: _line(
            s,
            "o.jsonl",
            {
                "custom_id": bind(s.first()[0], s.layer()[2]),
                "response": {"status_code": 200, "body": {"choices": {}}},
            },
        ),
    ),
    Case(
        "openai: duplicate custom_id key",
        "openai-batch",
        lambda s: _line(
            s,
            "o.jsonl",
            None,
            raw='{"custom_id": "a", "custom_id": "b", "response": null, "error": null}',
        ),
    ),
    Case(
        "openai: lone surrogate in content",
        "openai-batch",
        lambda s: _line(
            s,
            "o.jsonl",
            {
                "custom_id": bind(s.first()[0], s.layer()[2]),
                "response": {
                    "status_code": 200,
                    "body": {"choices": [{"message": {"content": "\udc80"}}]},
                },
            },
        ),
    ),
    Case(
        "openai: huge integer in usage",
        "openai-batch",
        lambda s: _line(
            s,
            "o.jsonl",
            None,
            raw='{"custom_id": "a", "response": {"status_code": 200, "body": {"usage": '
            + "1" * 4400
            + "}}}",
        ),
    ),
    # --- Anthropic batch results ---
    Case(
        "anthropic: unknown result type",
        "anthropic-batch",
        lambda s: _line(s, "b.jsonl", {"custom_id": "a", "result": {"type": "finished"}}),
    ),
    Case(
        "anthropic: content not a list",
        "anthropic-batch",
        lambda s: _line(
            s,
            "b.jsonl",
            {"custom_id": "a", "result": {"type": "succeeded", "message": {"content": 5}}},
        ),
    ),
    Case(
        "anthropic: lone surrogate in text",
        "anthropic-batch",
        lambda s: _line(
            s,
            "b.jsonl",
            {
                "custom_id": "a",
                "result": {
                    "type": "succeeded",
                    "message": {"content": [{"type": "text", "text": "\ud83d"}]},
                },
            },
        ),
    ),
    # --- chat JSONL ---
    Case(
        "chat: no messages",
        "chat-jsonl",
        lambda s: _line(s, "c.jsonl", {"id": "a", "messages": []}),
    ),
    Case(
        "chat: last message not the assistant's",
        "chat-jsonl",
        lambda s: _line(s, "c.jsonl", {"id": "a", "messages": [{"role": "user", "content": "u"}]}),
    ),
    Case(
        "chat: duplicate messages key",
        "chat-jsonl",
        lambda s: _line(
            s,
            "c.jsonl",
            None,
            raw='{"id": "a", "messages": [], "messages": [{"role": "assistant", "content": "x"}]}',
        ),
    ),
    # --- Inspect logs ---
    Case(
        "inspect json: samples not a list",
        "inspect",
        lambda s: (s.score(p := s.write("log.json", '{"eval": {}, "samples": 5}')), str(p)),
    ),
    Case(
        "inspect json: epoch 0",
        "inspect",
        lambda s: (
            s.score(
                p := s.write(
                    "log.json",
                    json.dumps({"eval": {}, "samples": [json.loads(_eval_sample(s, epoch=0))]}),
                )
            ),
            f"{p}:1:",
        ),
    ),
    Case(
        "inspect json: lone surrogate",
        "inspect",
        lambda s: (
            s.score(
                p := s.write("log.json", json.dumps({"eval": {"model": "\ud800"}, "samples": []}))
            ),
            str(p),
        ),
    ),
    Case(
        "inspect eval: not a zip",
        "inspect",
        lambda s: (s.score(p := s.write("x.eval", "hello")), str(p)),
    ),
    Case(
        "inspect eval: a member that is not JSON",
        "inspect",
        lambda s: (
            s.score(p := _eval(s, "j.eval", {"samples/a_epoch_1.json": b"{oops"})),
            f"{p}:samples/a_epoch_1.json:1:",
        ),
    ),
    Case("inspect eval: zip bomb member (finding 15)", "inspect", _eval_bomb),
    Case(
        "inspect eval: declared sizes past the total (finding 15)", "inspect", _eval_declared_total
    ),
    Case(
        "inspect eval: lzma member",
        "inspect",
        lambda s: (
            s.score(
                p := _eval(
                    s, "l.eval", {"samples/a_epoch_1.json": _eval_sample(s)}, zipfile.ZIP_LZMA
                )
            ),
            f"{p}:samples/a_epoch_1.json",
        ),
    ),
    Case(
        "stream: /dev/zero (finding 15)",
        "stream",
        lambda s: (s.score(Path("/dev/zero")), "/dev/zero"),
    ),
    # --- run files (score --run) ---
    Case(
        "run: frozen.jsonl edited",
        "run",
        lambda s: _edit_run(
            s, "frozen.jsonl", lambda t: t.replace("DECISION: A", "DECISION: B", 1)
        ),
    ),
    Case(
        "run: frozen line without packet_id, hash recomputed (finding 16)",
        "run",
        lambda s: _edit_run(
            s,
            "frozen.jsonl",
            _first_frozen_line(lambda r: {k: v for k, v in r.items() if k != "packet_id"}),
            rehash=True,
        ),
    ),
    Case(
        "run: frozen line nested deep, hash recomputed (finding 16)",
        "run",
        lambda s: _edit_run(
            s, "frozen.jsonl", lambda t: '{"packet_id": ' + _deep() + "}\n" + t, rehash=True
        ),
    ),
    Case(
        "run: frozen sample as text, hash recomputed",
        "run",
        lambda s: _edit_run(
            s, "frozen.jsonl", _first_frozen_line(lambda r: {**r, "sample": "x"}), rehash=True
        ),
    ),
    Case(
        "run: key edited",
        "run",
        lambda s: _edit_run(
            s,
            "round2.key.jsonl",
            lambda t: t.replace('"acceptable":[', '"acceptable":["DECLINE",', 1),
        ),
    ),
    Case(
        "run: request edited",
        "run",
        lambda s: _edit_run(s, "round2.jsonl", lambda t: t.replace("?", "!", 1)),
    ),
    Case("run: relabelled as round 3 (finding 5)", "run", _relabel),
    Case(
        "run: round far past any chain",
        "run",
        lambda s: _edit_run(s, "run.json", lambda t: t.replace('"round":2', '"round":1000000000')),
    ),
    Case(
        "run: layer that walks out of the packets",
        "run",
        lambda s: _edit_run(
            s, "run.json", lambda t: t.replace('"layer":"quick"', '"layer":"../../etc"')
        ),
    ),
    Case("run: run.json a list", "run", lambda s: _edit_run(s, "run.json", lambda t: "[]")),
    Case(
        "run: run.json with a duplicate key",
        "run",
        lambda s: _edit_run(s, "run.json", lambda t: t[:-2] + ',"round":3}\n'),
    ),
    Case(
        "run: round2.jsonl deleted",
        "run",
        lambda s: _replace_run_file(s, "round2.jsonl", folder=False),
    ),
    Case(
        "run: run.json is a folder", "run", lambda s: _replace_run_file(s, "run.json", folder=True)
    ),
    # --- the packets: MANIFEST.sha256, build.json, key.jsonl (score --layer checks them first) ---
    Case("manifest: not UTF-8 (finding 16)", "manifest", lambda s: _manifest(s, b"\xff\xfe\n")),
    Case(
        "manifest: a malformed line", "manifest", lambda s: _manifest(s, b"not a manifest line\n")
    ),
    Case(
        "manifest: a path out of the folder",
        "manifest",
        lambda s: _manifest(s, ("0" * 64 + "  ../../etc/passwd\n").encode()),
    ),
    Case("manifest: the layer not listed", "manifest", lambda s: _manifest(s, b"")),
    Case(
        "key.jsonl edited (finding 7)",
        "packets",
        lambda s: _packet_file(
            s,
            "key.jsonl",
            lambda t: t.replace('"acceptable":[', '"acceptable":["DECLINE",', 1),
            rehash=False,
        ),
    ),
    Case(
        "build.json with a duplicate key, manifest recomputed",
        "build.json",
        lambda s: _packet_file(
            s, "build.json", lambda t: t[:-2] + ',"packet_set":"x"}\n', rehash=True
        ),
    ),
    Case(
        "build.json not an object, manifest recomputed",
        "build.json",
        lambda s: _packet_file(s, "build.json", lambda t: "[1]\n", rehash=True),
    ),
    Case(
        "packets: a FIFO where key.jsonl should be (found by our attack pass: a hang)",
        "packets",
        lambda s: _fifo_key(s),
    ),
    Case(
        "packets: a path longer than the system allows (found by our attack pass)",
        "packets",
        lambda s: (
            s.score(s.files / "r.jsonl")[:4]
            + [str(s.files / ("a" * 5000)), "--replies", "r", "--out", str(s.out)],
            "a" * 5000 + "/quick",
        ),
    ),
    # --- regress inputs (the JSON layer under them) ---
    Case("regress: summary.json is a folder (finding 16)", "regress", lambda s: _summary_folder(s)),
    Case(
        "regress: records nested deep (finding 16)",
        "regress",
        lambda s: _regress(
            s, "deep", ('{"packet_id": ' + _deep() + "}\n").encode(), "records.jsonl"
        ),
    ),
    Case(
        "regress: records with a duplicate key",
        "regress",
        lambda s: _regress(s, "dup", b'{"packet_id": "a", "packet_id": "b"}\n', "records.jsonl"),
    ),
    Case(
        "regress: a huge summary.json (finding 16)",
        "regress",
        lambda s: _regress(s, "huge", b'{"x": "' + b"y" * (17 << 20) + b'"}', "summary.json"),
    ),
    # --- options that reach files ---
    Case(
        "run: --runner with an open quote (finding 16)",
        "options",
        lambda s: (
            ["run", "--runner", "python3 'x", "--run", str(s.out), "--packets", str(s.packets)],
            "--runner",
        ),
    ),
    Case(
        "run: --run is a file (finding 16)",
        "options",
        lambda s: (
            [
                "run",
                "--runner",
                "true",
                "--run",
                str(s.write("file", "x")),
                "--packets",
                str(s.packets),
            ],
            str(s.files / "file"),
        ),
    ),
    Case(
        "export: --model not UTF-8 (finding 16)",
        "options",
        lambda s: (
            [
                "export",
                "--packets",
                str(s.packets),
                "--format",
                "chat-jsonl",
                "--model",
                "\udcff",
                "--out",
                str(s.out),
            ],
            "--model",
        ),
    ),
    Case(
        "export: --samples past the limit (finding 15)",
        "options",
        lambda s: (
            [
                "export",
                "--packets",
                str(s.packets),
                "--format",
                "chat-jsonl",
                "--model",
                "m",
                "--samples",
                "100000",
                "--out",
                str(s.out),
            ],
            "--samples",
        ),
    ),
    Case(
        "score: a file name with a newline (finding 16)",
        "options",
        lambda s: (s.score(s.write("bad\nname.jsonl", "{not json\n")), "bad\\nname.jsonl:1:"),
    ),
    Case(
        "prepare: --sources-per-domain past the limit (finding 15)",
        "options",
        lambda s: (
            ["prepare", "--seed", "3", "--sources-per-domain", "60000000", "--out", str(s.out)],
            "--sources-per-domain",
        ),
    ),
]
CASES += USAGE_CASES + DEPTH_CASES
