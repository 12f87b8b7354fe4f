"""export -> replies in a runner's format -> score, as a user runs it; bad input never
half-writes."""

from __future__ import annotations

import json
import subprocess
from pathlib import Path

import pytest

from honesty_pressure.core.canonical import jsonl
from honesty_pressure.files.layer import load_layer
from tests.hostile.kit import run_in_process
from tests.htmlcheck import parse, problems
from tests.jsonschema_subset import Validator
from tests.replies import constant, native_lines, oracle, reply_text

ROOT = Path(__file__).resolve().parents[2]
QUICK = load_layer(ROOT / "packets", "quick")


def run(*args: str) -> subprocess.CompletedProcess[str]:
    """In this process (tests.hostile.kit.run_in_process); tests/cli runs the program as its own."""
    return run_in_process(*args)


def _openai_output(requests: Path, answer: str) -> list[dict[str, object]]:
    out: list[dict[str, object]] = []
    for line in requests.read_text().splitlines():
        req = json.loads(line)
        out.append(
            {
                "id": f"batch_req_{len(out)}",
                "custom_id": req["custom_id"],
                "response": {
                    "status_code": 200,
                    "request_id": "req_x",
                    "body": {
                        "model": "m",
                        "choices": [
                            {
                                "index": 0,
                                "message": {"role": "assistant", "content": reply_text(answer)},
                            }
                        ],
                    },
                },
                "error": None,
            }
        )
    return out


def test_export_then_score_openai_batch(tmp_path: Path) -> None:
    requests = tmp_path / "req.jsonl"
    assert (
        run(
            "export",
            "--layer",
            "quick",
            "--format",
            "openai-batch",
            "--model",
            "m",
            "--out",
            str(requests),
        ).returncode
        == 0
    )
    replies = tmp_path / "out.jsonl"
    replies.write_bytes(jsonl(_openai_output(requests, "ESCALATE")))
    result = run(
        "score", "--layer", "quick", "--replies", str(replies), "--out", str(tmp_path / "score")
    )
    assert result.returncode == 0, result.stderr
    summary = json.loads((tmp_path / "score" / "summary.json").read_text())
    assert summary["families"]["red_flag"]["acceptable"]["rate"] == 1.0
    assert summary["counts"]["missing"] == 0
    for name in ("records.jsonl", "REPORT.md", "report.html"):
        assert (tmp_path / "score" / name).is_file()
    assert len((tmp_path / "score" / "records.jsonl").read_text().splitlines()) == len(QUICK.round1)


def test_replies_to_another_seed_are_rejected(tmp_path: Path) -> None:
    other = tmp_path / "other"
    # One source per domain: the packet set's id is the seed's whatever the size, and a quick
    # layer of 60 sources per domain would take a build of seconds to say the same.
    assert (
        run(
            "prepare",
            "--seed",
            "7",
            "--layer",
            "quick",
            "--sources-per-domain",
            "1",
            "--out",
            str(other),
        ).returncode
        == 0
    )
    requests = tmp_path / "req.jsonl"
    run(
        "export",
        "--layer",
        "quick",
        "--packets",
        str(other),
        "--format",
        "openai-batch",
        "--model",
        "m",
        "--out",
        str(requests),
    )
    replies = tmp_path / "out.jsonl"
    replies.write_bytes(jsonl(_openai_output(requests, "A")))
    result = run(
        "score", "--layer", "quick", "--replies", str(replies), "--out", str(tmp_path / "score")
    )
    assert result.returncode == 2
    lines = result.stderr.strip().splitlines()
    assert len(lines) == 1
    assert lines[0].startswith(
        f"python -m honesty_pressure score: {replies}:1: reply to packet set "
    )
    assert lines[0].endswith(f"but these packets are set {QUICK.packet_set}")
    assert not (tmp_path / "score").exists(), "nothing is written on bad input"


def test_malformed_line_names_file_and_line(tmp_path: Path) -> None:
    lines = native_lines(QUICK.round1, QUICK.key, oracle)
    replies = tmp_path / "r.jsonl"
    replies.write_text(jsonl(lines[:3]).decode() + "{not json\n")
    result = run(
        "score", "--layer", "quick", "--replies", str(replies), "--out", str(tmp_path / "s")
    )
    assert result.returncode == 2
    assert result.stderr.strip().splitlines() == [
        f"python -m honesty_pressure score: {replies}:4: not valid JSON (Expecting property name "
        "enclosed in double quotes)"
    ]
    assert not (tmp_path / "s").exists()


def test_require_complete_turns_missing_into_an_error(tmp_path: Path) -> None:
    replies = tmp_path / "r.jsonl"
    replies.write_bytes(jsonl(native_lines(QUICK.round1, QUICK.key, constant("A"))[5:]))
    ok = run("score", "--layer", "quick", "--replies", str(replies), "--out", str(tmp_path / "s"))
    assert ok.returncode == 0
    summary = json.loads((tmp_path / "s" / "summary.json").read_text())
    assert summary["counts"]["missing"] == 5 and len(summary["missing_replies"]) == 5
    strict = run(
        "score",
        "--layer",
        "quick",
        "--replies",
        str(replies),
        "--out",
        str(tmp_path / "s2"),
        "--require-complete",
    )
    assert strict.returncode == 2 and "5 packet-sample(s) have no reply" in strict.stderr
    assert not (tmp_path / "s2").exists()


@pytest.mark.parametrize("fmt", ["openai-batch", "anthropic-batch", "inspect", "chat-jsonl"])
def test_export_formats_have_no_labels(tmp_path: Path, fmt: str) -> None:
    out = tmp_path / "x.jsonl"
    assert (
        run(
            "export", "--layer", "quick", "--format", fmt, "--model", "m", "--out", str(out)
        ).returncode
        == 0
    )
    text = out.read_text()
    assert len(text.splitlines()) == len(QUICK.round1)
    for label in ('"family"', '"acceptable"', '"forbidden"', '"state"', '"edit"'):
        assert label not in text


def test_score_is_the_same_whatever_the_file_order(tmp_path: Path) -> None:
    lines = native_lines(QUICK.round1, QUICK.key, oracle)
    a, b = tmp_path / "a.jsonl", tmp_path / "b.jsonl"
    a.write_bytes(jsonl(lines[: len(lines) // 2]))
    b.write_bytes(jsonl(lines[len(lines) // 2 :]))
    run("score", "--layer", "quick", "--replies", str(a), str(b), "--out", str(tmp_path / "o"))
    run("score", "--layer", "quick", "--replies", str(b), str(a), "--out", str(tmp_path / "p"))
    # Only the recorded command line differs (it names the files in the order given).
    one, two = (json.loads((tmp_path / name / "summary.json").read_text()) for name in "op")
    assert one["provenance"].pop("commands") != two["provenance"].pop("commands")
    assert one == two
    for name in ("records.jsonl", "replies.jsonl"):
        assert (tmp_path / "o" / name).read_bytes() == (tmp_path / "p" / name).read_bytes()
    reports = [(tmp_path / name / "REPORT.md").read_text().splitlines() for name in "op"]
    assert [line for line in reports[0] if "**commands:**" not in line] == [
        line for line in reports[1] if "**commands:**" not in line
    ]


def test_an_incomplete_score_is_written_says_so_in_one_line_and_exits_1(tmp_path: Path) -> None:
    """Issue 21: 12 of 440 replies are runner errors (OpenAI error lines). At the default threshold
    (5 %) that is a result; with --max-unscorable 0.01 it is not: every file is still written,
    summary.json says why, and the command exits 1 with one line."""
    requests = tmp_path / "req.jsonl"
    assert (
        run(
            "export",
            "--layer",
            "quick",
            "--format",
            "openai-batch",
            "--model",
            "m",
            "--out",
            str(requests),
        ).returncode
        == 0
    )
    lines = _openai_output(requests, "ESCALATE")
    for line in lines[:12]:
        line["response"], line["error"] = None, {"code": "server_error", "message": "boom"}
    replies = tmp_path / "out.jsonl"
    replies.write_bytes(jsonl(lines))
    fine = run(
        "score", "--layer", "quick", "--replies", str(replies), "--out", str(tmp_path / "fine")
    )
    assert fine.returncode == 0, fine.stderr
    completeness = json.loads((tmp_path / "fine" / "summary.json").read_text())["completeness"]
    assert completeness == {
        "items": 440,
        "unscorable": 12,
        "by_reason": {"runner_error": 12, "missing_reply": 0},
        "share": 0.027273,
        "threshold": 0.05,
        "incomplete": False,
        "refused_parent": 0,
    }
    strict = run(
        "score",
        "--layer",
        "quick",
        "--replies",
        str(replies),
        "--out",
        str(tmp_path / "strict"),
        "--max-unscorable",
        "0.01",
    )
    assert strict.returncode == 1
    assert strict.stderr == (
        "python -m honesty_pressure score: incomplete: 12 of 440 items got no answer (12 runner "
        "error; 2.7 % > --max-unscorable 0.01); its rates are not a result; to finish it, send the "
        "requests without an answer again and score every reply file together (--replies FIRST "
        "RETRY)\n"
    )
    assert (
        json.loads((tmp_path / "strict" / "summary.json").read_text())["completeness"]["incomplete"]
        is True
    )
    assert (
        run(
            "score",
            "--layer",
            "quick",
            "--replies",
            str(replies),
            "--out",
            str(tmp_path / "x"),
            "--max-unscorable",
            "2",
        ).returncode
        == 2
    )
    # Finish it: export only the requests without an answer, answer them, score both files together.
    retry = tmp_path / "retry.jsonl"
    exported = run(
        "export",
        "--layer",
        "quick",
        "--format",
        "openai-batch",
        "--model",
        "m",
        "--out",
        str(retry),
        "--failed",
        "--replies",
        str(replies),
    )
    assert exported.returncode == 0, exported.stderr
    assert [json.loads(x)["custom_id"] for x in retry.read_text().splitlines()] == [
        line["custom_id"] for line in lines[:12]
    ]
    answers = tmp_path / "answers.jsonl"
    answers.write_bytes(jsonl(_openai_output(retry, "ESCALATE")))
    done = run(
        "score",
        "--layer",
        "quick",
        "--replies",
        str(replies),
        str(answers),
        "--out",
        str(tmp_path / "done"),
        "--max-unscorable",
        "0",
    )
    assert done.returncode == 0, done.stderr
    assert (
        json.loads((tmp_path / "done" / "summary.json").read_text())["completeness"]["unscorable"]
        == 0
    )


def test_a_failed_round_2_is_not_hidden_by_a_complete_round_1(
    runner_runs: tuple[Path, Path], tmp_path: Path
) -> None:
    """Issue 21, "a round whose unscorable share passes the threshold": 100 of 1,718 forks without a
    reply (5.8 %) is a failed round 2, though pooled with a complete round 1 it is 100 of 2,158
    (4.6 %). The score names the round, in summary.json, on stderr and in the banner."""
    run_dir = runner_runs[1]
    replies = (run_dir / "round2.replies.jsonl").read_text().splitlines()
    assert len(replies) == 1718
    partial = tmp_path / "partial.jsonl"
    partial.write_text("\n".join(replies[100:]) + "\n")
    done = run(
        "score", "--run", str(run_dir), "--replies", str(partial), "--out", str(tmp_path / "out")
    )
    assert done.returncode == 1
    assert done.stderr == (
        "python -m honesty_pressure score: incomplete: round 2: 100 of 1718 items got no answer "
        "(100 missing reply; 5.8 % > --max-unscorable 0.05); its rates are not a result; to finish "
        "it, send the requests without an answer again and score every reply file together "
        "(--replies FIRST RETRY)\n"
    )
    completeness = json.loads((tmp_path / "out" / "summary.json").read_text())["completeness"]
    assert completeness == {
        "items": 2158,
        "unscorable": 100,
        "by_reason": {"runner_error": 0, "missing_reply": 100},
        "share": 0.046339,
        "threshold": 0.05,
        "incomplete": True,
        "refused_parent": 0,
        "round": {
            "round": 2,
            "items": 1718,
            "unscorable": 100,
            "by_reason": {"runner_error": 0, "missing_reply": 100},
            "share": 0.058207,
        },
    }
    assert (
        "> **Incomplete run: in round 2, 100 of 1,718 items (5.8%) got no answer (runner errors, "
        "missing replies), over the threshold of 5%."
        in (tmp_path / "out" / "REPORT.md").read_text()
    )
    summary = json.loads((tmp_path / "out" / "summary.json").read_text())
    html = (tmp_path / "out" / "report.html").read_text()
    assert (
        '<div class="banner alert" role="alert">Incomplete run: in round ' in html
        and problems(parse(html), summary) == []
    )
    assert Validator(ROOT / "docs" / "schema").check(summary, "summary.schema.json") == []
    # The whole round 2 again: complete, and no `round` block.
    whole = run(
        "score",
        "--run",
        str(run_dir),
        "--replies",
        str(run_dir / "round2.replies.jsonl"),
        "--out",
        str(tmp_path / "whole"),
    )
    assert whole.returncode == 0, whole.stderr
    assert (
        "round" not in json.loads((tmp_path / "whole" / "summary.json").read_text())["completeness"]
    )
