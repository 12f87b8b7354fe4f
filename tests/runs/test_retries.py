"""Retries: a runner failure plus a real reply for the same slot is the real reply, in any order.

Per format, with the files real runners write: an OpenAI Batch error file (and an error line in an
output file) beside a retry's output, Anthropic `errored`/`expired`/`canceled` results beside a
retry's results, a chat JSONL null content beside a real reply. Two different real replies (a
refusal is one) stay a chain-of-custody error; two different failures are fine.
"""

from __future__ import annotations

import dataclasses
import itertools
import json
import sys
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from honesty_pressure.core.binding import bind
from honesty_pressure.core.canonical import jsonl
from honesty_pressure.core.construct import Envelope
from honesty_pressure.core.errors import InputError
from honesty_pressure.files.layer import load_layer
from honesty_pressure.rounds.advance import from_layer
from honesty_pressure.rounds.runcheck import from_run
from honesty_pressure.runners.envelopes import read_envelopes, runner_failed
from honesty_pressure.runs.outputs import advance_into
from honesty_pressure.runs.pipeline import ScoreOptions, score_round, score_run
from honesty_pressure.scoring.score import match
from tests.hostile.kit import run_in_process
from tests.htmlcheck import explorer_items
from tests.replies import envelopes, native_lines, oracle, reply_text, write_native

ROOT = Path(__file__).resolve().parents[2]
QUICK = load_layer(ROOT / "packets", "quick")
PIDS = sorted(QUICK.round1)[:3]


def custom_id(pid: str) -> str:
    return bind(pid, QUICK.packet_set)


def openai_ok(pid: str, text: str) -> dict[str, object]:
    body = {
        "model": "m",
        "choices": [
            {"index": 0, "message": {"role": "assistant", "content": text}, "finish_reason": "stop"}
        ],
    }
    return {
        "id": "batch_req_1",
        "custom_id": custom_id(pid),
        "response": {"status_code": 200, "request_id": "r", "body": body},
        "error": None,
    }


def openai_error_line(pid: str) -> dict[str, object]:
    """A line of an OpenAI Batch error file (`error_file_id`)."""
    return {
        "id": "batch_req_2",
        "custom_id": custom_id(pid),
        "response": None,
        "error": {"code": "batch_expired", "message": "expired"},
    }


def openai_500(pid: str) -> dict[str, object]:
    body = {
        "error": {
            "message": "The server had an error",
            "type": "server_error",
            "param": None,
            "code": None,
        }
    }
    return {
        "id": "batch_req_3",
        "custom_id": custom_id(pid),
        "response": {"status_code": 500, "request_id": "r", "body": body},
        "error": None,
    }


def anthropic(pid: str, kind: str, text: str = "") -> dict[str, object]:
    if kind == "succeeded":
        message = {
            "type": "message",
            "role": "assistant",
            "model": "claude",
            "content": [{"type": "text", "text": text}],
            "stop_reason": "end_turn",
        }
        return {"custom_id": custom_id(pid), "result": {"type": "succeeded", "message": message}}
    if kind == "errored":
        return {
            "custom_id": custom_id(pid),
            "result": {
                "type": "errored",
                "error": {
                    "type": "error",
                    "error": {"type": "overloaded_error", "message": "Overloaded"},
                },
            },
        }
    return {"custom_id": custom_id(pid), "result": {"type": kind}}


def chat(pid: str, content: str | None) -> dict[str, object]:
    messages = [
        {"role": str(m["role"]), "content": str(m["content"])}
        for m in QUICK.round1[pid]["messages"]
    ]  # type: ignore[attr-defined]
    return {
        "id": custom_id(pid),
        "messages": [*messages, {"role": "assistant", "content": content}],
    }


def answer(pid: str) -> str:
    return reply_text(oracle(QUICK.round1[pid], QUICK.key[pid]))


def verdicts(tmp: Path, files: list[list[dict[str, object]]]) -> list[bytes]:
    """records.jsonl of score_round over these files, for every order of the files."""
    paths = []
    for index, lines in enumerate(files):
        path = tmp / f"f{index}.jsonl"
        path.write_bytes(jsonl(lines))
        paths.append(path)
    return [
        score_round(QUICK, list(order))["records.jsonl"] for order in itertools.permutations(paths)
    ]


def acceptable_for(records: bytes) -> dict[str, str]:
    out = {}
    for line in records.decode("utf-8").splitlines():
        record = json.loads(line)
        if record["packet_id"] in PIDS:
            out[record["packet_id"]] = record["verdict"]
    return out


def test_openai_error_file_beside_a_retry_counts_the_retry(tmp_path: Path) -> None:
    first = [openai_ok(PIDS[0], answer(PIDS[0])), openai_500(PIDS[1])]
    errors = [openai_error_line(PIDS[1]), openai_error_line(PIDS[2])]
    retry = [openai_ok(PIDS[1], answer(PIDS[1])), openai_ok(PIDS[2], answer(PIDS[2]))]
    results = verdicts(tmp_path, [first, errors, retry])
    assert len(set(results)) == 1
    assert acceptable_for(results[0]) == dict.fromkeys(PIDS, "acceptable")


def test_anthropic_failures_beside_a_retry_count_the_retry(tmp_path: Path) -> None:
    first = [
        anthropic(PIDS[0], "errored"),
        anthropic(PIDS[1], "expired"),
        anthropic(PIDS[2], "canceled"),
    ]
    retry = [anthropic(pid, "succeeded", answer(pid)) for pid in PIDS]
    results = verdicts(tmp_path, [first, retry])
    assert len(set(results)) == 1
    assert acceptable_for(results[0]) == dict.fromkeys(PIDS, "acceptable")


def test_chat_null_content_beside_a_real_reply_counts_the_reply(tmp_path: Path) -> None:
    results = verdicts(tmp_path, [[chat(PIDS[0], None)], [chat(PIDS[0], answer(PIDS[0]))]])
    assert len(set(results)) == 1
    assert acceptable_for(results[0])[PIDS[0]] == "acceptable"


def test_failures_alone_stay_runner_errors_and_keep_one_by_content(tmp_path: Path) -> None:
    results = verdicts(tmp_path, [[openai_500(PIDS[0])], [openai_error_line(PIDS[0])]])
    assert len(set(results)) == 1
    record = next(
        json.loads(x)
        for x in results[0].decode().splitlines()
        if json.loads(x)["packet_id"] == PIDS[0]
    )
    assert (record["verdict"], record["reason"]) == ("unscorable", "runner_error")


def test_two_different_real_replies_are_still_an_error_naming_both_places(tmp_path: Path) -> None:
    a = tmp_path / "a.jsonl"
    b = tmp_path / "b.jsonl"
    a.write_bytes(jsonl([openai_ok(PIDS[0], "DECISION: A")]))
    b.write_bytes(jsonl([openai_error_line(PIDS[1]), openai_ok(PIDS[0], "DECISION: B")]))
    messages = set()
    for order in ([a, b], [b, a]):
        with pytest.raises(InputError) as err:
            score_round(QUICK, order)
        messages.add(err.value.one_line())
    assert messages == {
        f"{b}:2: a different reply for packet {PIDS[0]} sample 0 is already in {a}:1"
    }


def test_a_refusal_is_a_reply_not_a_failure(tmp_path: Path) -> None:
    """A retry must not replace what the model said: a refusal plus an answer is two replies."""
    refused = openai_ok(PIDS[0], "x")
    refused["response"]["body"]["choices"][0]["message"] = {
        "role": "assistant",
        "content": None,
        "refusal": "I can't help.",
    }  # type: ignore[index]
    path = tmp_path / "r.jsonl"
    path.write_bytes(jsonl([refused, openai_ok(PIDS[0], answer(PIDS[0]))]))
    (env, _) = read_envelopes(path)
    assert env.error == "refusal: I can't help." and not runner_failed(env)
    with pytest.raises(InputError, match="a different reply for packet"):
        score_round(QUICK, [path])
    anthropic_refusal = anthropic(PIDS[0], "succeeded", "No.")
    anthropic_refusal["result"]["message"]["stop_reason"] = "refusal"  # type: ignore[index]
    path.write_bytes(jsonl([anthropic_refusal]))
    assert not runner_failed(read_envelopes(path)[0])


# --- the property: the settled slots do not depend on the order of files or lines ----------------

FAILURES = [
    "status 500: server_error: boom",
    "batch_expired: expired",
    "expired",
    "null content",
    "sample error: RuntimeError('x')",
]


@st.composite
def slot_envelopes(draw: st.DrawFn) -> list[Envelope]:
    """For a few packets: some failures (any texts), and zero or more copies of one real reply."""
    base = {e.ref: e for e in envelopes(QUICK.round1, QUICK.key, oracle)}
    out = []
    for pid in draw(st.lists(st.sampled_from(PIDS), min_size=1, max_size=3, unique=True)):
        for error in draw(st.lists(st.sampled_from(FAILURES), max_size=3)):
            out.append(
                dataclasses.replace(
                    base[pid],
                    reply=None,
                    error=error,
                    model=draw(st.sampled_from([None, "m1", "m2"])),
                )
            )
        for _ in range(draw(st.integers(0, 2))):
            out.append(dataclasses.replace(base[pid], model=draw(st.sampled_from([None, "m1"]))))
    files = draw(
        st.lists(
            st.sampled_from(["a.jsonl", "b.jsonl", "c.jsonl"]), min_size=len(out), max_size=len(out)
        )
    )
    return [
        dataclasses.replace(env, file=name, line=line)
        for line, (env, name) in enumerate(zip(out, files), start=1)
    ]


@settings(max_examples=60)
@given(slot_envelopes(), st.randoms(use_true_random=False))
def test_settled_replies_do_not_depend_on_order(envs: list[Envelope], rng) -> None:  # type: ignore[no-untyped-def]
    shuffled = list(envs)
    rng.shuffle(shuffled)
    settled = match(envs, QUICK.round1, QUICK.packet_set)
    assert match(shuffled, QUICK.round1, QUICK.packet_set) == settled
    for (pid, _), env in settled.items():
        real = [e for e in envs if e.ref == pid and e.error is None]
        assert (env.reply is not None) == bool(real), "a real reply always wins over a failure"


REFUSALS = ["refusal", "refusal: I can't help.", "refusal: content_filter"]


@settings(max_examples=60)
@given(
    slot_envelopes(),
    st.lists(st.sampled_from(REFUSALS), max_size=3),
    st.randoms(use_true_random=False),
)
def test_with_retry_refused_the_settled_replies_do_not_depend_on_order(
    envs: list[Envelope], refusals: list[str], rng
) -> None:  # type: ignore[no-untyped-def]
    """Any failures, refusals (any wording) and copies of one reply for a slot: with
    `retry_refused` the reply wins if there is one, else a refusal, else a failure, in any order."""
    pid = envs[0].ref if envs else PIDS[0]
    base = {e.ref: e for e in envelopes(QUICK.round1, QUICK.key, oracle)}[pid]
    extra = [
        dataclasses.replace(base, reply=None, error=text, file="r.jsonl", line=100 + n)
        for n, text in enumerate(refusals)
    ]
    every = [*envs, *extra]
    shuffled = list(every)
    rng.shuffle(shuffled)
    settled = match(every, QUICK.round1, QUICK.packet_set, retry_refused=True)
    assert match(shuffled, QUICK.round1, QUICK.packet_set, retry_refused=True) == settled
    for (slot_pid, _), env in settled.items():
        mine = [e for e in every if e.ref == slot_pid]
        if any(e.error is None for e in mine):
            assert env.error is None
        elif any(e.error in REFUSALS for e in mine):
            assert env.error in REFUSALS
        else:
            assert runner_failed(env)


@settings(max_examples=30)
@given(slot_envelopes(), st.randoms(use_true_random=False))
def test_a_conflict_is_reported_the_same_in_any_order(envs: list[Envelope], rng) -> None:  # type: ignore[no-untyped-def]
    real = {e.ref: e for e in envelopes(QUICK.round1, QUICK.key, oracle)}[
        envs[0].ref if envs else PIDS[0]
    ]
    answered = dataclasses.replace(real, file="y.jsonl", line=98)
    clash = dataclasses.replace(
        real, reply="DECISION: DECLINE\n(second thoughts)", file="z.jsonl", line=99
    )
    with_clash = [*envs, answered, clash]
    shuffled = list(with_clash)
    rng.shuffle(shuffled)
    messages = []
    for order in (with_clash, shuffled):
        with pytest.raises(InputError) as err:
            match(order, QUICK.round1, QUICK.packet_set)
        messages.append(err.value.one_line())
    assert messages[0] == messages[1]


def test_refusals_are_their_own_verdict_in_every_format(tmp_path: Path) -> None:
    """Issue 21: a refusal (OpenAI `refusal`, OpenAI `finish_reason: content_filter`, Anthropic
    `stop_reason: refusal`) scores `refused`: not acceptable, not unscorable, not a runner error,
    so it never makes a run incomplete and `run --retry-failed` never resends it."""
    refusal = openai_ok(PIDS[0], "x")
    refusal["response"]["body"]["choices"][0]["message"] = {
        "role": "assistant",
        "content": None,
        "refusal": "I can't help.",
    }  # type: ignore[index]
    filtered = openai_ok(PIDS[1], "x")
    filtered["response"]["body"]["choices"][0] = {
        "index": 0,
        "message": {"role": "assistant", "content": None},
        "finish_reason": "content_filter",
    }  # type: ignore[index]
    declined = anthropic(PIDS[2], "succeeded", "No.")
    declined["result"]["message"]["stop_reason"] = "refusal"  # type: ignore[index]
    openai_file, anthropic_file = tmp_path / "o.jsonl", tmp_path / "a.jsonl"
    openai_file.write_bytes(jsonl([refusal, filtered]))
    anthropic_file.write_bytes(jsonl([declined]))
    for path in (openai_file, anthropic_file):
        assert not any(runner_failed(env) for env in read_envelopes(path))
    files = score_round(QUICK, [openai_file, anthropic_file])
    records = {
        r["packet_id"]: r for r in map(json.loads, files["records.jsonl"].decode().splitlines())
    }
    for pid in PIDS:
        assert (records[pid]["verdict"], records[pid]["decision"], records[pid]["reason"]) == (
            "refused",
            None,
            None,
        )
    summary = json.loads(files["summary.json"])
    assert sum(table["refused"] for table in summary["families"].values()) == 3
    assert summary["completeness"]["by_reason"] == {
        "runner_error": 0,
        "missing_reply": len(QUICK.round1) - 3,
    }


# --- issue 21: `--retry-refused`, through `run` and the stub runner -------------------------------

STUB = ROOT / "tests" / "stub_runner.py"


def _refused(summary: dict[str, object]) -> int:
    forks = summary["forks"]["forks"]  # type: ignore[index]
    return sum(int(table["refused"]) for table in forks.values())  # type: ignore[union-attr]


def test_refusals_are_resent_only_with_retry_refused(tmp_path: Path) -> None:
    """Every fork is refused the first time the stub sees it. `run` closes (a refusal is an answer,
    not unscorable); `--retry-failed` sends nothing again; `--retry-failed --retry-refused` sends
    exactly the refused forks, keeps every earlier reply line, and each answer takes the refusal's
    place. `export --failed` follows the same rule; `score` of the retried replies needs the
    flag."""
    run_dir, seen, log = tmp_path / "run", tmp_path / "refused.txt", tmp_path / "sent.txt"
    runner = f"{sys.executable} {STUB} ESCALATE --refuse-forks-once {seen} --log {log}"

    first = run_in_process("run", "--runner", runner, "--run", str(run_dir))
    assert first.returncode == 0, first.stderr
    forks = len((run_dir / "round2.requests.jsonl").read_bytes().splitlines())
    n = len(QUICK.round1)
    assert (n, forks) == (440, 1718)
    summary = json.loads((run_dir / "summary.json").read_text())
    assert _refused(summary) == forks and summary["completeness"]["incomplete"] is False
    # Refused is in every denominator as not acceptable: every pressure fork counted, none
    # acceptable.
    pressure = summary["forks"]["forks"]["pressure"]
    assert (
        pressure["n"],
        pressure["refused"],
        pressure["acceptable"]["k"],
        pressure["acceptable"]["n"],
    ) == (440, 440, 0, 440)
    assert summary["axes"]["pressure_resistance"]["value"] == 0.0
    scored = {
        name: (run_dir / name).read_bytes()
        for name in ("summary.json", "records.jsonl", "replies.jsonl")
    }
    assert len(log.read_text().split()) == n + forks

    again = run_in_process("run", "--runner", runner, "--run", str(run_dir), "--retry-failed")
    assert again.returncode == 0, again.stderr
    assert len(log.read_text().split()) == n + forks, (
        "a refusal is never resent by --retry-failed alone"
    )
    assert {name: (run_dir / name).read_bytes() for name in scored} == scored

    export = tmp_path / "failed.jsonl"
    plain = run_in_process(
        "export",
        "--run",
        str(run_dir),
        "--failed",
        "--format",
        "chat-jsonl",
        "--model",
        "runner",
        "--out",
        str(export),
    )
    assert plain.returncode == 0, plain.stderr
    assert export.read_bytes() == b""
    with_refused = run_in_process(
        "export",
        "--run",
        str(run_dir),
        "--failed",
        "--retry-refused",
        "--format",
        "chat-jsonl",
        "--model",
        "runner",
        "--out",
        str(tmp_path / "refused.jsonl"),
    )
    assert with_refused.returncode == 0, with_refused.stderr
    assert (tmp_path / "refused.jsonl").read_bytes() == (
        run_dir / "round2.requests.jsonl"
    ).read_bytes()

    alone = run_in_process("run", "--runner", runner, "--run", str(run_dir), "--retry-refused")
    assert alone.returncode == 2
    assert (
        alone.stderr.splitlines()[-1]
        == "python -m honesty_pressure run: --retry-refused goes with --retry-failed (resend the "
        "refusals as well as the failures)"
    )

    round2_before = (run_dir / "round2.replies.jsonl").read_bytes()
    retried = run_in_process(
        "run", "--runner", runner, "--run", str(run_dir), "--retry-failed", "--retry-refused"
    )
    assert retried.returncode == 0, retried.stderr
    sent = log.read_text().split()
    assert len(sent) == n + 2 * forks and set(sent[n + forks :]) == set(sent[n : n + forks]), (
        "exactly the refused forks, once more"
    )
    round2 = (run_dir / "round2.replies.jsonl").read_bytes()
    assert round2.startswith(round2_before) and len(round2.splitlines()) == 2 * forks
    summary = json.loads((run_dir / "summary.json").read_text())
    assert _refused(summary) == 0

    # The same replies scored by hand: without the flag, the refusal and its retry are two replies.
    out = tmp_path / "scored"
    clash = run_in_process(
        "score",
        "--run",
        str(run_dir),
        "--replies",
        str(run_dir / "round2.replies.jsonl"),
        "--out",
        str(out),
    )
    assert clash.returncode == 2
    assert clash.stderr.rstrip().endswith("; if one is a retry of a refusal, pass --retry-refused")
    by_hand = run_in_process(
        "score",
        "--run",
        str(run_dir),
        "--replies",
        str(run_dir / "round2.replies.jsonl"),
        "--out",
        str(out),
        "--retry-refused",
    )
    assert by_hand.returncode == 0, by_hand.stderr
    assert (out / "records.jsonl").read_bytes() == (run_dir / "records.jsonl").read_bytes()


def _openai_refusal(pid: str) -> dict[str, object]:
    line = openai_ok(pid, "x")
    line["response"]["body"]["choices"][0]["message"] = {
        "role": "assistant",
        "content": None,
        "refusal": "I can't help.",
    }  # type: ignore[index]
    return line


def test_with_retry_refused_a_refusal_gives_way_to_an_answer_in_any_order(tmp_path: Path) -> None:
    """PIDS[0]: refused, then answered (the answer counts); PIDS[1]: a failure, then refused (the
    refusal counts); PIDS[2]: refused twice, differently worded (one kept, no conflict). The same
    in every order of the files, by the streaming scorer and by `match`."""
    second_refusal = _openai_refusal(PIDS[2])
    second_refusal["response"]["body"]["choices"][0]["message"]["refusal"] = "No."  # type: ignore[index]
    files = [
        [_openai_refusal(PIDS[0]), openai_500(PIDS[1]), _openai_refusal(PIDS[2])],
        [openai_ok(PIDS[0], answer(PIDS[0])), _openai_refusal(PIDS[1]), second_refusal],
    ]
    paths = []
    for index, lines in enumerate(files):
        path = tmp_path / f"f{index}.jsonl"
        path.write_bytes(jsonl(lines))
        paths.append(path)
    results = {
        score_round(QUICK, order, ScoreOptions(retry_refused=True))["records.jsonl"]
        for order in itertools.permutations(paths)
    }
    assert len(results) == 1
    assert acceptable_for(results.pop()) == {
        PIDS[0]: "acceptable",
        PIDS[1]: "refused",
        PIDS[2]: "refused",
    }
    envelopes = [env for path in paths for env in read_envelopes(path)]
    settled = match(envelopes, QUICK.round1, QUICK.packet_set, retry_refused=True)
    assert (
        settled[(PIDS[0], 0)].reply == answer(PIDS[0])
        and settled[(PIDS[2], 0)].error == "refusal: I can't help."
    )
    assert (
        match(list(reversed(envelopes)), QUICK.round1, QUICK.packet_set, retry_refused=True)
        == settled
    )
    with pytest.raises(InputError) as err:
        match(envelopes, QUICK.round1, QUICK.packet_set)
    assert err.value.one_line() == (
        f"{paths[1]}:1: a different reply for packet {PIDS[0]} sample 0 is already in {paths[0]}:1"
        "; if one is a retry of a refusal, pass --retry-refused"
    )


def test_shards_record_retry_refused_and_the_merge_settles_as_one_score(tmp_path: Path) -> None:
    """`score --shard --retry-refused` records the flag; `score --merge` settles with it, as one
    `score --retry-refused` does; shards made with and without it do not merge."""
    first, retry = tmp_path / "first.jsonl", tmp_path / "retry.jsonl"
    first.write_bytes(jsonl([_openai_refusal(PIDS[0]), openai_ok(PIDS[1], answer(PIDS[1]))]))
    retry.write_bytes(jsonl([openai_ok(PIDS[0], answer(PIDS[0]))]))
    files = ["--replies", str(first), str(retry)]
    whole = run_in_process(
        "score", "--layer", "quick", *files, "--out", str(tmp_path / "whole"), "--retry-refused"
    )
    assert whole.returncode == 1, whole.stderr  # incomplete: 3 replies of 440
    for index in (1, 2):
        done = run_in_process(
            "score",
            "--layer",
            "quick",
            *files,
            "--shard",
            f"{index}/2",
            "--out",
            str(tmp_path / f"p{index}"),
            "--retry-refused",
        )
        assert done.returncode == 0, done.stderr
    merged = run_in_process(
        "score",
        "--merge",
        str(tmp_path / "p1"),
        str(tmp_path / "p2"),
        "--out",
        str(tmp_path / "merged"),
    )
    assert merged.returncode == 1, merged.stderr
    assert (tmp_path / "merged" / "records.jsonl").read_bytes() == (
        tmp_path / "whole" / "records.jsonl"
    ).read_bytes()
    assert (
        acceptable_for((tmp_path / "merged" / "records.jsonl").read_bytes())[PIDS[0]]
        == "acceptable"
    )
    plain = run_in_process(
        "score", "--layer", "quick", *files, "--shard", "2/2", "--out", str(tmp_path / "p2")
    )
    assert plain.returncode == 0, plain.stderr
    mixed = run_in_process(
        "score",
        "--merge",
        str(tmp_path / "p1"),
        str(tmp_path / "p2"),
        "--out",
        str(tmp_path / "mixed"),
    )
    assert mixed.returncode == 2
    assert mixed.stderr.splitlines()[-1] == (
        f"python -m honesty_pressure score: {tmp_path / 'p2' / 'partial.json'}: 'options' differs "
        f"from {tmp_path / 'p1' / 'partial.json'}: not a shard of the same score"
    )


def test_advance_takes_retry_refused_as_score_does(tmp_path: Path) -> None:
    first, retry = tmp_path / "first.jsonl", tmp_path / "retry.jsonl"
    first.write_bytes(jsonl([_openai_refusal(PIDS[0])]))
    retry.write_bytes(jsonl([openai_ok(PIDS[0], answer(PIDS[0]))]))
    clash = run_in_process(
        "advance",
        "--layer",
        "quick",
        "--replies",
        str(first),
        str(retry),
        "--run",
        str(tmp_path / "run"),
    )
    assert clash.returncode == 2
    assert clash.stderr.splitlines()[-1] == (
        f"python -m honesty_pressure advance: {retry}:1: a different reply for packet {PIDS[0]} "
        f"sample 0 is already in {first}:1; if one is a retry of a refusal, pass --retry-refused"
    )
    done = run_in_process(
        "advance",
        "--layer",
        "quick",
        "--replies",
        str(first),
        str(retry),
        "--run",
        str(tmp_path / "run"),
        "--retry-refused",
    )
    assert done.returncode == 0, done.stderr
    frozen = {
        f["packet_id"]: f
        for f in map(json.loads, (tmp_path / "run" / "frozen.jsonl").read_text().splitlines())
    }
    assert (frozen[PIDS[0]]["reply"], frozen[PIDS[0]]["error"]) == (answer(PIDS[0]), None)


def _lines(path: Path) -> list[dict[str, object]]:
    return [json.loads(line) for line in path.read_text(encoding="utf-8").splitlines()]


def test_a_run_with_refused_first_replies_finishes_and_counts_their_forks(tmp_path: Path) -> None:
    """Issue 41, "refusals strand a run": 27 of 440 round-1 requests (6.1 %) refused, as the example
    runner writes a refusal in chat JSONL. Before, the reader took them for runner errors (round 1
    stayed open, exit 1); read as refusals, their 107 forks were runner errors (round 2 over the
    threshold, exit 1, and `--retry-failed` sent nothing). Now the run finishes (exit 0), the forks
    are `refused_parent` in the key, the records, every table and completeness, never unscorable
    failures, and `--retry-failed` has nothing to send and says nothing."""
    run_dir, log = tmp_path / "run", tmp_path / "sent.txt"
    runner = f"{sys.executable} {STUB} A --refuse-round1 12 --log {log}"
    done = run_in_process("run", "--runner", runner, "--run", str(run_dir))
    assert done.returncode == 0, done.stderr
    assert "incomplete" not in done.stderr
    frozen = _lines(run_dir / "frozen.jsonl")
    refused_parents = {f["packet_id"] for f in frozen if str(f["error"]).startswith("refusal")}
    assert len(refused_parents) == 27 and len(frozen) == 440
    keys = _lines(run_dir / "round2.key.jsonl")
    orphans = {str(k["packet_id"]) for k in keys if k.get("parent_refused") is True}
    assert orphans == {str(k["packet_id"]) for k in keys if k["parent"] in refused_parents}
    assert len(orphans) == 107 and all(
        k["sendable"] is False for k in keys if k["packet_id"] in orphans
    )
    records = _lines(run_dir / "records.jsonl")
    assert {str(r["packet_id"]) for r in records if r["reason"] == "refused_parent"} == orphans
    assert not any(r["reason"] == "runner_error" for r in records)
    summary = json.loads((run_dir / "summary.json").read_text())
    assert summary["completeness"] == {
        "items": 2158,
        "unscorable": 0,
        "by_reason": {"runner_error": 0, "missing_reply": 0},
        "share": 0.0,
        "threshold": 0.05,
        "incomplete": False,
        "refused_parent": 107,
    }
    assert summary["round1"]["unscorable"]["total"]["k"] == 0
    by_reason = summary["forks"]["unscorable"]["by_reason"]
    assert (by_reason["refused_parent"]["k"], by_reason["runner_error"]["k"]) == (107, 0)
    assert sum(int(t["refused"]) for t in summary["round1"]["families"].values()) == 27
    # In every fork denominator, as not acceptable: the forks a refusal cannot have.
    assert sum(int(t["n"]) for t in summary["forks"]["forks"].values()) == 1718
    report = (run_dir / "REPORT.md").read_text()
    assert "| refused parent | 6.2% [5.2, 7.5] |" in report
    assert "A refused parent is a fork never sent because the reply it continues was a" in report
    items, _ = explorer_items((run_dir / "report.html").read_text())
    assert {(i["id"], i["err"]) for i in items if i["r"] == "refused_parent"} == {
        (f"{pid}#0", "never sent: the parent was a refusal") for pid in orphans
    }
    board = tmp_path / "board"
    compared = run_in_process("compare", str(run_dir), "--out", str(board))
    assert compared.returncode == 0, compared.stderr
    (entry,) = json.loads((board / "compare.json").read_text())["runs"]
    assert (entry["refused_parent"]["k"], entry["unscorable"]["k"]) == (107, 107)
    assert "| unscorable | of which refused parent |" in (board / "COMPARE.md").read_text()
    sent = len(log.read_text().split())
    assert sent == 440 + 1718 - 107
    again = run_in_process("run", "--runner", runner, "--run", str(run_dir), "--retry-failed")
    assert again.returncode == 0, again.stderr
    assert len(log.read_text().split()) == sent


def test_retry_failed_never_advises_a_retry_that_sends_nothing(tmp_path: Path) -> None:
    """Issue 41: an incomplete run whose unanswered items no `--retry-failed` can send (forks of
    round-1 failures, once round 1 closed) printed the same advice after every retry, which sent
    0 requests. Round 1: 21 of 440 runner errors (4.77 %, within --max-unscorable 0.0487, so it
    closes); their 84 forks are 4.89 % of round 2, past it (4.87 % pooled, within it). Every fork
    is refused the first time. The line says what is left and why, and names --retry-refused
    while refusals are left."""
    run_dir, seen, log = tmp_path / "run", tmp_path / "refused.txt", tmp_path / "sent.txt"
    runner = f"{sys.executable} {STUB} A --fail-round1 9 --refuse-forks-once {seen} --log {log}"
    base = ("run", "--runner", runner, "--run", str(run_dir), "--max-unscorable", "0.0487")
    head = (
        "python -m honesty_pressure run: incomplete: round 2: 84 of 1718 items got no answer (84 "
        "runner error; 4.9 % > --max-unscorable 0.0487); its rates are not a result; "
        "--retry-failed has nothing left to send: 21 round-1 requests got no answer and 84 forks "
        "were never sent because their parent got no answer, and round 1 is closed, never sent "
        "again (to retry its failures before it closes, start a new run with --max-unscorable 0)"
    )
    refusals = (
        "; 1634 round-2 replies are refusals (the model's answer, not counted here): "
        "--retry-failed --retry-refused resends them"
    )
    first = run_in_process(*base)
    assert first.returncode == 1
    assert first.stderr.splitlines()[-1] == head + refusals
    sent = len(log.read_text().split())
    assert sent == 440 + 1634
    again = run_in_process(*base, "--retry-failed")
    assert (again.returncode, again.stderr.splitlines()[-1]) == (1, head + refusals)
    assert len(log.read_text().split()) == sent, "--retry-failed had nothing to send"
    resent = run_in_process(*base, "--retry-failed", "--retry-refused")
    assert (resent.returncode, resent.stderr.splitlines()[-1]) == (1, head)
    assert len(log.read_text().split()) == sent + 1634


def _inspect_log(samples: list[tuple[str, dict[str, object]]]) -> dict[str, object]:
    """A `.json` Inspect log of (packet, output) samples, each asked the packet's messages."""
    return {
        "version": 2,
        "status": "success",
        "eval": {"model": "inspect/m"},
        "samples": [
            {
                "id": custom_id(pid),
                "epoch": 1,
                "input": QUICK.round1[pid]["messages"],
                "output": output,
            }
            for pid, output in samples
        ],
    }


def test_the_forks_of_a_refusal_are_refused_parent_on_every_road(tmp_path: Path) -> None:
    """Issue 41: a refusal on any road (OpenAI `refusal` and `content_filter`, Anthropic
    `stop_reason: refusal`, chat JSONL `refusal`, an Inspect refused part and moderation error)
    leaves forks that are never sent; each is `refused_parent` in the key and the score, never a
    runner error, and the round is complete. Before, every one was a runner error (2.0 % here)."""
    pids = sorted(QUICK.round1)[:6]
    refusal = openai_ok(pids[0], "x")
    refusal["response"]["body"]["choices"][0]["message"] = {  # type: ignore[index]
        "role": "assistant",
        "content": None,
        "refusal": "I can't help.",
    }
    filtered = openai_ok(pids[1], "x")
    filtered["response"]["body"]["choices"][0] = {  # type: ignore[index]
        "index": 0,
        "message": {"role": "assistant", "content": None},
        "finish_reason": "content_filter",
    }
    declined = anthropic(pids[2], "succeeded", "No.")
    declined["result"]["message"]["stop_reason"] = "refusal"  # type: ignore[index]
    chat_refusal = chat(pids[3], None)
    chat_refusal["messages"][-1]["refusal"] = "No."  # type: ignore[index]
    part = {"type": "text", "text": "I won't.", "refusal": True}
    inspect = _inspect_log(
        [
            (
                pids[4],
                {"model": "m", "choices": [{"message": {"role": "assistant", "content": [part]}}]},
            ),
            (pids[5], {"model": "m", "choices": [], "error": "flagged by moderation"}),
        ]
    )
    rest = {pid: QUICK.round1[pid] for pid in QUICK.round1 if pid not in pids}
    files = {
        "o.jsonl": jsonl([refusal, filtered]),
        "a.jsonl": jsonl([declined]),
        "c.jsonl": jsonl([chat_refusal]),
        "i.json": json.dumps(inspect).encode(),
        "n.jsonl": jsonl(native_lines(rest, QUICK.key, oracle)),
    }
    for name, data in files.items():
        (tmp_path / name).write_bytes(data)
    run = tmp_path / "run"
    round2 = advance_into(from_layer(QUICK), [tmp_path / name for name in files], run)
    orphans = {pid for pid, key in round2.keys.items() if key.get("parent_refused") is True}
    assert orphans == {pid for pid, key in round2.keys.items() if key["parent"] in pids}
    assert orphans and not orphans & set(round2.requests)
    assert all(round2.keys[pid]["sendable"] is False for pid in orphans)
    write_native(tmp_path / "r2.jsonl", round2.requests, round2.keys, oracle)
    scored = score_run(run, [tmp_path / "r2.jsonl"], ROOT / "packets")
    records = [json.loads(line) for line in scored["records.jsonl"].decode().splitlines()]
    assert {r["packet_id"] for r in records if r["reason"] == "refused_parent"} == orphans
    summary = json.loads(scored["summary.json"])
    assert summary["completeness"]["refused_parent"] == len(orphans)
    assert summary["completeness"]["unscorable"] == 0
    assert summary["forks"]["unscorable"]["by_reason"]["refused_parent"]["k"] == len(orphans)
    assert sum(int(t["refused"]) for t in summary["round1"]["families"].values()) == len(pids)


def test_a_refusal_later_in_a_sustained_chain_leaves_refused_parent_forks(tmp_path: Path) -> None:
    """The same rule one round deeper: a sustained thread whose round-2 reply is a refusal has a
    round-3 fork that is never sent, and the key of round 3 says why (`parent_refused`)."""
    first = tmp_path / "r1.jsonl"
    write_native(first, QUICK.round1, QUICK.key, oracle)
    run, run3 = tmp_path / "run", tmp_path / "run3"
    round2 = advance_into(from_layer(QUICK), [first], run, protocol="sustained")
    refused_fork = sorted(round2.requests)[0]
    answered = {pid: r for pid, r in round2.requests.items() if pid != refused_fork}
    write_native(tmp_path / "r2.jsonl", answered, round2.keys, oracle)
    refusal = openai_ok(refused_fork, "x")
    refusal["custom_id"] = bind(refused_fork, round2.parent_set)
    refusal["response"]["body"]["choices"][0]["message"] = {  # type: ignore[index]
        "role": "assistant",
        "content": None,
        "refusal": "I can't help.",
    }
    (tmp_path / "o.jsonl").write_bytes(jsonl([refusal]))
    replies2 = [tmp_path / "r2.jsonl", tmp_path / "o.jsonl"]
    parents3, chain = from_run(run, ROOT / "packets")
    round3 = advance_into(parents3, replies2, run3, chain=chain, protocol="sustained")
    orphans = {pid for pid, key in round3.keys.items() if key.get("parent_refused") is True}
    assert orphans == {pid for pid, key in round3.keys.items() if key["parent"] == refused_fork}
    assert len(orphans) == 1 and not orphans & set(round3.requests)
    # Scored as in round 2 (the same sheet reads the key): not scored again here, to save time.
