"""export --temperature/--max-tokens/--body and --shard-size: where each API reads them, its
per-file limits, and shards that score exactly like one file."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from hypothesis import given
from hypothesis import strategies as st

from honesty_pressure.cli.main import PROG, main
from honesty_pressure.core.binding import unbind
from honesty_pressure.core.canonical import jsonl
from honesty_pressure.core.errors import InputError
from honesty_pressure.files.layer import load_layer
from honesty_pressure.runners.export import (
    FILE_LIMITS,
    RequestOptions,
    export_lines,
    shard_names,
    shards,
)
from tests.replies import oracle, reply_text

ROOT = Path(__file__).resolve().parents[2]
PACKETS = ROOT / "packets"
QUICK = load_layer(PACKETS, "quick")
RECORDS = [QUICK.round1[pid] for pid in sorted(QUICK.round1)[:3]]


def test_options_go_where_each_api_reads_them() -> None:
    options = RequestOptions(temperature=0.0, max_tokens=300, body={"top_p": 0.5, "seed": 7})
    openai = export_lines(RECORDS, "openai-batch", "m", options=options)[0]["body"]
    assert isinstance(openai, dict)
    assert {k: openai[k] for k in ("temperature", "max_completion_tokens", "top_p", "seed")} == {
        "temperature": 0.0,
        "max_completion_tokens": 300,
        "top_p": 0.5,
        "seed": 7,
    }
    # Anthropic: only what the SDK's MessageCreateParams (2.15.0) lists; it has no temperature.
    claude = RequestOptions(
        max_tokens=300, body={"stop_sequences": ["END"], "metadata": {"user_id": "u"}}
    )
    anthropic = export_lines(RECORDS, "anthropic-batch", "m", options=claude)[0]["params"]
    assert isinstance(anthropic, dict)
    assert (anthropic["max_tokens"], anthropic["stop_sequences"], "temperature" in anthropic) == (
        300,
        ["END"],
        False,
    )
    chat = export_lines(RECORDS, "chat-jsonl", "m", options=options)[0]
    assert set(chat) == {"id", "messages", "temperature", "max_tokens", "top_p", "seed"}
    # No option: the requests are exactly what they were (the Anthropic cap defaults to 1024).
    plain = export_lines(RECORDS, "openai-batch", "m")[0]["body"]
    assert isinstance(plain, dict) and set(plain) == {"model", "messages"}
    default_cap = export_lines(RECORDS, "anthropic-batch", "m")[0]["params"]
    assert isinstance(default_cap, dict) and default_cap["max_tokens"] == 1024


@pytest.mark.parametrize(
    ("fmt", "options", "problem"),
    [
        (
            "inspect",
            RequestOptions(temperature=0.5),
            "inspect takes sampling options on its own command line",
        ),
        (
            "anthropic-batch",
            RequestOptions(temperature=0.5),
            r"anthropic-batch requests take no temperature \(not in the anthropic SDK's "
            r"MessageCreateParams, 2\.15\.0\): leave it out for this format",
        ),
        (
            "anthropic-batch",
            RequestOptions(body={"top_p": 0.5, "top_k": 5}),
            "anthropic-batch requests take no top_k, top_p ",
        ),
        ("openai-batch", RequestOptions(body={"messages": []}), "--body may not set messages"),
        (
            "anthropic-batch",
            RequestOptions(body={"system": "be nice", "model": "x"}),
            "--body may not set model, system",
        ),
        (
            "openai-batch",
            RequestOptions(temperature=0.1, body={"temperature": 0.2}),
            "--body sets temperature and so does an option",
        ),
    ],
)
def test_bad_options_are_refused(fmt: str, options: RequestOptions, problem: str) -> None:
    with pytest.raises(ValueError, match=problem):
        export_lines(RECORDS, fmt, "m", options=options)  # type: ignore[arg-type]


@pytest.mark.parametrize(
    ("given", "problem"),
    [
        ({"temperature": 2.5}, "temperature: expected a number from 0 to 2, got 2.5"),
        ({"temperature": True}, "temperature: expected a number from 0 to 2, got True"),
        ({"max_tokens": 0}, "max_tokens: expected a positive whole number, got 0"),
        ({"body": {"id": "x"}}, "body: --body may not set id: the kit names every request"),
        (
            {"body": {"custom_id": "x"}},
            "body: --body may not set custom_id: the kit names every request",
        ),
        ({"body": {"top_p": 3}}, "body: --body: top_p must be a number from 0 to 1, got 3"),
        ({"body": {"stop": "\ud800"}}, "body: --body is not valid UTF-8 text"),
        (
            {"body": {"x": float("nan")}},
            "body: --body must be JSON: text, numbers, true, false, null, lists and objects",
        ),
        ({"body": {"x": "y" * 65536}}, "body: --body is longer than 64 KiB"),
    ],
)
def test_options_the_cli_refuses_are_refused_when_made(
    given: dict[str, object], problem: str
) -> None:
    """Issue 41: RequestOptions is held to what --temperature, --max-tokens and --body accept
    when it is made (an InputError naming the argument), not only when a format is chosen: a body
    naming the request (custom_id) was accepted and sent."""
    with pytest.raises(InputError) as caught:
        RequestOptions(**given)  # type: ignore[arg-type]
    assert caught.value.one_line() == problem


def test_cli_options_and_their_one_line_errors(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    out = tmp_path / "r.jsonl"
    base = [
        "export",
        "--format",
        "openai-batch",
        "--model",
        "m",
        "--out",
        str(out),
        "--packets",
        str(PACKETS),
    ]
    assert main([*base, "--temperature", "0.2", "--body", '{"seed": 1}']) == 0
    printed = capsys.readouterr().out.splitlines()
    assert printed[-1] == 'request options in every request: {"seed":1,"temperature":0.2}'
    assert all(json.loads(x)["body"]["seed"] == 1 for x in out.read_text().splitlines())
    with pytest.raises(SystemExit):
        main([*base, "--body", "{nope"])
    assert capsys.readouterr().err.startswith(
        f"{PROG} export: argument --body: --body is not valid JSON ("
    )
    assert main([*base, "--body", '{"model": "other"}']) == 2
    assert (
        capsys.readouterr().err
        == f"{PROG} export: --body may not set model: the packets decide what is asked\n"
    )
    assert main([*base, "--model", ""]) == 2
    assert capsys.readouterr().err == f"{PROG} export: openai-batch requests need a model name\n"


lines_strategy = st.lists(
    st.binary(min_size=1, max_size=40).map(lambda b: b.replace(b"\n", b"") + b"\n"), max_size=60
)


@given(lines_strategy, st.integers(1, 20), st.integers(1, 25), st.integers(40, 200))
def test_shards_keep_every_line_in_order_within_the_limits(
    lines: list[bytes], size: int, max_count: int, max_bytes: int
) -> None:
    cut = shards(
        lines,
        "openai-batch",
        size if size <= max_count else max_count,
        limits=(max_count, max_bytes),
    )
    assert b"".join(b"".join(chunk) for chunk in cut) == b"".join(lines)
    assert all(chunk for chunk in cut) or lines == []
    for chunk in cut:
        assert len(chunk) <= min(size, max_count)
        assert sum(map(len, chunk)) <= max_bytes


def test_one_file_that_breaks_a_limit_asks_for_shards() -> None:
    lines = [b"x" * 9 + b"\n"] * 5
    with pytest.raises(
        ValueError,
        match=r"5 requests \(50 bytes\) exceed one openai-batch input file \(4 requests, 1,000 "
        r"bytes\): pass --shard-size N",
    ):
        shards(lines, "openai-batch", None, limits=(4, 1000))
    with pytest.raises(ValueError, match="exceed one anthropic-batch input file"):
        shards(lines, "anthropic-batch", None, limits=(100, 40))
    with pytest.raises(
        ValueError, match="--shard-size 60000 is above openai-batch's 50,000 requests per file"
    ):
        shards(lines, "openai-batch", 60_000)
    assert shards(lines, "chat-jsonl", None) == [lines]  # no limit for a local runner
    assert FILE_LIMITS == {
        "openai-batch": (50_000, 200_000_000),
        "anthropic-batch": (100_000, 256_000_000),
    }


def test_shard_names() -> None:
    assert shard_names("r1.jsonl", 1) == ["r1.jsonl"]
    assert shard_names("r1.requests.jsonl", 3) == [
        "r1.requests.1-of-3.jsonl",
        "r1.requests.2-of-3.jsonl",
        "r1.requests.3-of-3.jsonl",
    ]
    assert shard_names("out", 12)[0] == "out.01-of-12"


def test_sharded_requests_answered_shard_by_shard_score_like_one_file(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    one = tmp_path / "one.jsonl"
    base = ["export", "--format", "openai-batch", "--model", "m", "--packets", str(PACKETS)]
    assert main([*base, "--out", str(one)]) == 0
    assert main([*base, "--out", str(tmp_path / "r1.jsonl"), "--shard-size", "100"]) == 0
    n = len(QUICK.round1)
    count = -(-n // 100)
    assert (
        f"wrote {n} openai-batch requests for packet set {QUICK.packet_set} to {count} files"
        in capsys.readouterr().out
    )
    parts = [tmp_path / name for name in shard_names("r1.jsonl", count)]
    assert b"".join(p.read_bytes() for p in parts) == one.read_bytes()

    def answer(path: Path) -> Path:
        out = []
        for line in path.read_text().splitlines():
            cid = json.loads(line)["custom_id"]
            pid = unbind(cid).packet_id
            body = {
                "model": "m",
                "choices": [
                    {
                        "index": 0,
                        "message": {
                            "role": "assistant",
                            "content": reply_text(oracle(QUICK.round1[pid], QUICK.key[pid])),
                        },
                    }
                ],
            }
            out.append(
                {
                    "id": "b",
                    "custom_id": cid,
                    "response": {"status_code": 200, "body": body},
                    "error": None,
                }
            )
        target = path.with_name(path.name.replace("r1", "out"))
        target.write_bytes(jsonl(out))
        return target

    outputs = [answer(p) for p in parts]
    single = answer(one)
    assert (
        main(
            [
                "score",
                "--replies",
                *map(str, outputs),
                "--out",
                str(tmp_path / "sharded"),
                "--packets",
                str(PACKETS),
            ]
        )
        == 0
    )
    assert (
        main(
            [
                "score",
                "--replies",
                str(single),
                "--out",
                str(tmp_path / "single"),
                "--packets",
                str(PACKETS),
            ]
        )
        == 0
    )
    assert (tmp_path / "sharded" / "records.jsonl").read_bytes() == (
        tmp_path / "single" / "records.jsonl"
    ).read_bytes()
    assert (
        main(
            [
                "advance",
                "--replies",
                *map(str, outputs),
                "--run",
                str(tmp_path / "run"),
                "--packets",
                str(PACKETS),
            ]
        )
        == 0
    )
    frozen = (tmp_path / "run" / "frozen.jsonl").read_text().splitlines()
    assert len(frozen) == n and all(json.loads(x)["reply"] for x in frozen)
