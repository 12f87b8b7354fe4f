"""examples/inspect_task.py under inspect-ai itself: round 1 from the packets, round 2 from a run,
each log straight into `score` / `advance`. Skipped unless inspect-ai is installed: CI runs this
file in a venv of its own (.ci/run); the core tests never need inspect-ai.

mockllm/model counts tokens with tiktoken, which downloads its tables; offline (CI) that fails,
so the scripted outputs carry their own usage. `--limit` keeps each round to a few samples.
"""

from __future__ import annotations

import importlib
import json
import os
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

# CI's inspect step sets HP_REQUIRE_INSPECT=1, so a broken install fails there instead of skipping.
inspect_ai = (
    importlib.import_module("inspect_ai")
    if os.environ.get("HP_REQUIRE_INSPECT") == "1"
    else pytest.importorskip("inspect_ai")
)
from inspect_ai.model import GenerateConfig, ModelAPI, ModelOutput, ModelUsage, get_model, modelapi  # noqa: E402

from honesty_pressure.core.binding import unbind  # noqa: E402
from honesty_pressure.files.layer import load_layer  # noqa: E402
from honesty_pressure.files.store import keyed  # noqa: E402
from honesty_pressure.runners.envelopes import read_envelopes  # noqa: E402

ROOT = Path(__file__).resolve().parents[2]
TASK = "examples/inspect_task.py"  # Inspect wants a path relative to the working folder
QUICK = load_layer(ROOT / "packets", "quick")
LIMIT = 12


def scripted(text: str) -> Any:
    def answer(input: Any, tools: Any, tool_choice: Any, config: Any) -> ModelOutput:
        output = ModelOutput.from_content(model="mockllm/model", content=text)
        output.usage = ModelUsage(input_tokens=1, output_tokens=1, total_tokens=2)
        return output

    return answer


def inspect_eval(tmp: Path, name: str, text: str, **task_args: str) -> Path:
    (log,) = inspect_ai.eval(
        TASK,
        task_args=task_args,
        model=get_model("mockllm/model", custom_outputs=scripted(text)),
        epochs=2,
        limit=LIMIT,
        log_dir=str(tmp / name),
        display="none",
    )
    assert log.status == "success"
    return Path(log.location)


def kit(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "honesty_pressure", *args],
        cwd=ROOT,
        capture_output=True,
        text=True,
        check=False,
    )


def test_both_rounds_through_inspect(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(ROOT)
    first = inspect_eval(
        tmp_path,
        "r1",
        "<think>DECISION: A</think>\nGet help now.\nDECISION: ESCALATE",
        packets=str(ROOT / "packets"),
    )
    envelopes = read_envelopes(
        first
    )  # the default .eval, zstd members: inspect-ai brings zstandard
    assert len(envelopes) == 2 * LIMIT and {e.sample for e in envelopes} == {0, 1}
    assert {e.reply for e in envelopes} == {"Get help now.\nDECISION: ESCALATE"}
    assert {e.usage for e in envelopes} == {
        (1, 1)
    }  # the sample's model_usage, as Inspect logged it
    assert all(e.request_messages is not None for e in envelopes)  # the echoed request is checked
    assert {unbind(e.ref).packet_set for e in envelopes} == {QUICK.packet_set}
    assert len({unbind(e.ref).packet_id for e in envelopes}) == LIMIT and all(
        unbind(e.ref).packet_id in QUICK.round1 for e in envelopes
    )

    # --limit keeps the log to a few packets: a partial run on purpose, so past the threshold.
    score = kit(
        "score",
        "--layer",
        "quick",
        "--replies",
        str(first),
        "--out",
        str(tmp_path / "s1"),
        "--max-unscorable",
        "1",
    )
    assert score.returncode == 0, score.stderr
    records = [json.loads(x) for x in (tmp_path / "s1" / "records.jsonl").read_text().splitlines()]
    scored = [r for r in records if r["reason"] != "missing_reply"]
    assert len(scored) == 2 * LIMIT and {r["decision"] for r in scored} == {"ESCALATE"}

    run = tmp_path / "run"
    advance = kit("advance", "--layer", "quick", "--replies", str(first), "--run", str(run))
    assert advance.returncode == 0, advance.stderr
    requests = keyed(run / "round2.jsonl")
    assert requests

    second = inspect_eval(
        tmp_path,
        "r2",
        "I still think so.\nDECISION: ESCALATE",
        run=str(run),
        packets=str(ROOT / "packets"),
    )
    forks = read_envelopes(second)
    assert {unbind(e.ref).packet_id for e in forks} <= set(requests)
    assert all(
        e.request_messages is not None and e.request_messages[-2][0] == "assistant" for e in forks
    )
    scored2 = kit("score", "--run", str(run), "--replies", str(second), "--max-unscorable", "1")
    assert scored2.returncode == 0, scored2.stderr
    summary = json.loads((run / "summary.json").read_text())
    assert summary["round"] == 2 and summary["counts"]["forks"] == len(
        keyed(run / "round2.key.jsonl")
    )
    # Issue 21: the tokens of each round, round 1's kept through frozen.jsonl (1 in, 1 out a
    # sample).
    assert summary["usage"] == {
        "round1": {"replies": 2 * LIMIT, "input_tokens": 2 * LIMIT, "output_tokens": 2 * LIMIT},
        "round2": {"replies": len(forks), "input_tokens": len(forks), "output_tokens": len(forks)},
    }


def test_the_inspect_command_line_takes_the_task_args(tmp_path: Path) -> None:
    """`inspect eval examples/inspect_task.py -T ...` as a lab types it (mockllm's default output;
    offline its token count fails, which the log records as sample errors: both are read)."""
    done = subprocess.run(
        [
            sys.executable,
            "-m",
            "inspect_ai",
            "eval",
            TASK,
            "-T",
            "layer=quick",
            "--model",
            "mockllm/model",
            "--limit",
            "3",
            "--log-dir",
            str(tmp_path / "logs"),
            "--display",
            "none",
            "--no-fail-on-error",
        ],
        cwd=ROOT,
        capture_output=True,
        text=True,
        check=False,
        timeout=120,
    )
    assert done.returncode == 0, done.stderr[-2000:]
    (log,) = sorted((tmp_path / "logs").glob("*.eval"))
    envelopes = read_envelopes(log)
    assert len(envelopes) == 3
    assert {unbind(e.ref).packet_set for e in envelopes} == {QUICK.packet_set}
    for env in envelopes:
        assert env.reply == "Default output from mockllm/model" or (env.error or "").startswith(
            "sample error: "
        )
    partial = kit("score", "--layer", "quick", "--replies", str(log), "--out", str(tmp_path / "s"))
    assert partial.returncode == 1 and "score: incomplete: " in partial.stderr, (
        "3 of 440 packets is not a result"
    )
    assert (
        kit(
            "score",
            "--layer",
            "quick",
            "--replies",
            str(log),
            "--out",
            str(tmp_path / "s2"),
            "--max-unscorable",
            "1",
        ).returncode
        == 0
    )


_CALLS: dict[str, int] = {}


def _flaky(input: Any, tools: Any, tool_choice: Any, config: Any) -> ModelOutput:
    """Every third request fails the first time it is sent (a server that is down for a moment)."""
    key = json.dumps([str(m.content) for m in input])
    _CALLS[key] = _CALLS.get(key, 0) + 1
    if _CALLS[key] == 1 and len(_CALLS) % 3 == 0:
        raise RuntimeError("the server is down")
    output = ModelOutput.from_content(
        model="hp_flaky/model", content="Checking.\nDECISION: ESCALATE"
    )
    output.usage = ModelUsage(input_tokens=1, output_tokens=1, total_tokens=2)
    return output


class _FlakyAPI(ModelAPI):  # type: ignore[misc]
    """A custom model by name, so `eval_retry` (which rebuilds the model from the log) finds it:
    mockllm's `custom_outputs` is a Python object the log cannot hold."""

    def __init__(
        self,
        model_name: str,
        base_url: str | None = None,
        api_key: str | None = None,
        config: GenerateConfig | None = None,
        **model_args: Any,
    ) -> None:
        super().__init__(model_name, base_url, api_key, [], config or GenerateConfig())

    async def generate(self, input: Any, tools: Any, tool_choice: Any, config: Any) -> ModelOutput:
        return _flaky(input, tools, tool_choice, config)


@modelapi(name="hp_flaky")  # type: ignore[misc]
def _flaky_provider() -> type[ModelAPI]:
    return _FlakyAPI


def test_the_kit_verdict_is_in_the_log_and_eval_retry_finishes_a_log_with_errors(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Issue 21: every sample carries the kit's verdict, parsed decision and key (what `inspect
    view` shows), with metrics per verdict and family; a log whose samples errored is finished by
    `eval_retry`, and the kit scores both logs, the retry's replies counting. No network."""
    from inspect_ai import eval_retry

    monkeypatch.chdir(ROOT)
    (log,) = inspect_ai.eval(
        TASK,
        task_args={"packets": str(ROOT / "packets")},
        model="hp_flaky/model",
        limit=LIMIT,
        log_dir=str(tmp_path / "logs"),
        display="none",
        fail_on_error=False,
    )
    assert log.samples is not None
    errored = [s for s in log.samples if s.error is not None]
    assert 0 < len(errored) < LIMIT
    for sample in log.samples:
        if sample.error is not None:
            continue
        assert sample.scores is not None
        score = sample.scores["kit_verdict"]
        key = QUICK.key[unbind(str(sample.id)).packet_id]
        assert score.answer == "ESCALATE"
        assert score.value == (
            "acceptable"
            if "ESCALATE" in key["acceptable"]
            else "forbidden"
            if "ESCALATE" in key["forbidden"]
            else "other"
        )  # type: ignore[operator]
        assert score.explanation is not None and score.explanation.startswith(
            f"key: acceptable {', '.join(key['acceptable'])}"
        )  # type: ignore[arg-type]
        assert score.metadata is not None and score.metadata["group"] == key["family"]
    assert log.results is not None
    metrics = log.results.scores[0].metrics
    families = {
        QUICK.key[unbind(str(s.id)).packet_id]["family"] for s in log.samples if s.error is None
    }
    assert set(metrics) == {"acceptable", "forbidden", "refused", "unscorable"} | {
        f"acceptable_{f}" for f in families
    }
    assert metrics["unscorable"].value == 0.0 and 0.0 <= metrics["acceptable"].value <= 1.0

    (retried,) = eval_retry(log.location, log_dir=str(tmp_path / "logs"), display="none")
    assert (
        retried.status == "success"
        and retried.samples is not None
        and all(s.error is None for s in retried.samples)
    )
    scored = kit(
        "score",
        "--layer",
        "quick",
        "--replies",
        log.location,
        retried.location,
        "--out",
        str(tmp_path / "s"),
        "--max-unscorable",
        "1",
    )
    assert scored.returncode == 0, scored.stderr
    records = [json.loads(x) for x in (tmp_path / "s" / "records.jsonl").read_text().splitlines()]
    answered = [r for r in records if r["reason"] != "missing_reply"]
    assert len(answered) == LIMIT and {r["decision"] for r in answered} == {"ESCALATE"}, (
        "the retry's reply counts where the first errored"
    )
