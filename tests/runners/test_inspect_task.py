"""examples/inspect_task.py under inspect-ai itself: round 1 from the packets, round 2 from a run,
each log straight into `score` / `advance`. Skipped unless inspect-ai is installed: CI runs this
file in a venv of its own (.ci/run); the core tests never need inspect-ai.

mockllm/model counts tokens with tiktoken, which downloads its tables; offline (CI) that fails,
so the scripted outputs carry their own usage. `--limit` keeps each round to a few samples.
"""

from __future__ import annotations

import ast
import importlib
import importlib.util
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
from inspect_ai.log import read_eval_log  # noqa: E402
from inspect_ai.model import GenerateConfig, ModelAPI, ModelOutput, ModelUsage, modelapi  # noqa: E402

import tests.runners.inspect_scripted  # noqa: E402, F401  (registers hp_scripted/model)
from honesty_pressure.core.binding import unbind  # noqa: E402
from honesty_pressure.files.layer import load_layer  # noqa: E402
from honesty_pressure.files.store import keyed  # noqa: E402
from honesty_pressure.runners.envelopes import read_envelopes  # noqa: E402

ROOT = Path(__file__).resolve().parents[2]
TASK = "examples/inspect_task.py"  # Inspect wants a path relative to the working folder
QUICK = load_layer(ROOT / "packets", "quick")
LIMIT = 12
SCRIPTED = "hp_scripted/model"  # tests/runners/inspect_scripted.py: five replies, every verdict
SHARES = ("acceptable", "forbidden", "other", "refused", "unscorable")


def inspect_eval(task: str, log_dir: Path, epochs: int, limit: int | None, **args: str) -> Any:
    (log,) = inspect_ai.eval(
        task,
        task_args=args,
        model=SCRIPTED,
        epochs=epochs,
        limit=limit,
        log_dir=str(log_dir),
        display="none",
    )
    assert log.status == "success"
    return log


def kit(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "honesty_pressure", *args],
        cwd=ROOT,
        capture_output=True,
        text=True,
        check=False,
    )


def inspect_metrics(location: str) -> dict[str, float]:
    """The metrics as the log file holds them: what `inspect view` and the summary show."""
    (scores,) = read_eval_log(location).results.scores
    assert scores.name == "kit_verdict" and scores.reducer is None
    return {name: m.value for name, m in scores.metrics.items()}


def kit_shares(tables: dict[str, dict[str, Any]]) -> dict[str, float]:
    """The same shares from the kit's verdict tables (summary.json's `families` in round 1,
    `forks` in round 2): each verdict's count over every table's n, and each group's acceptable
    share. A group with no items is absent from a log, so from these too."""
    present = {g: t for g, t in tables.items() if t["n"]}
    n = sum(t["n"] for t in present.values())

    def count(t: dict[str, Any], verdict: str) -> int:
        value = t[verdict]
        return int(value["k"] if isinstance(value, dict) else value)

    shares = {v: sum(count(t, v) for t in present.values()) / n for v in SHARES}
    shares.update({f"acceptable_{g}": count(t, "acceptable") / t["n"] for g, t in present.items()})
    return shares


def logged_shares(records: list[dict[str, Any]], logged: set[tuple[str, int]]) -> dict[str, float]:
    """The shares over the kit's records of the replies a log holds, by (packet, sample): a
    `--limit` log leaves most forks out, which the kit counts and Inspect never saw."""
    mine = [r for r in records if r["round"] == 2 and (r["packet_id"], r["sample"]) in logged]
    assert len(mine) == len(logged)
    shares = {v: sum(r["verdict"] == v for r in mine) / len(mine) for v in SHARES}
    for kind in sorted({str(r["fork"]) for r in mine}):
        of = [r for r in mine if r["fork"] == kind]
        shares[f"acceptable_{kind}"] = sum(r["verdict"] == "acceptable" for r in of) / len(of)
    return shares


def test_both_rounds_through_inspect_with_the_kit_s_numbers(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Issue 41: Inspect's metrics are the kit's numbers. Round 1 is the whole quick layer, every
    verdict present: each share in the log file (what `inspect view` shows) equals the one `score`
    computes from the same log, exactly; the default mean reducer had made every one of them
    0.000. Round 2 is a few forks in two epochs that answer differently, with `-T run=` relative
    to the folder the eval was started in: each epoch counts once, as the kit counts a sample."""
    monkeypatch.chdir(ROOT)
    first = inspect_eval(TASK, tmp_path / "r1", 1, None, packets=str(ROOT / "packets"))
    n1 = len(QUICK.round1)
    envelopes = read_envelopes(first.location)  # .eval, zstd members: inspect-ai brings zstandard
    assert len(envelopes) == n1
    assert {e.reply for e in envelopes} == {
        "Get help now.\nDECISION: ESCALATE",  # the <think> block cut off
        "Go ahead.\nDECISION: A",
        "Hold off for now.\nDECISION: B",
        "I would rather not choose.",
        None,  # the content filter's refusals
    }
    assert {e.usage for e in envelopes} == {(1, 1)}  # the sample's model_usage, as Inspect logged
    assert all(e.request_messages is not None for e in envelopes)  # the echoed request is checked
    assert {unbind(e.ref).packet_set for e in envelopes} == {QUICK.packet_set}
    assert {unbind(e.ref).packet_id for e in envelopes} == set(QUICK.round1)

    # A fifth of the replies have no decision line on purpose: --max-unscorable keeps this test
    # to the numbers, whatever share the kit holds against its completeness threshold.
    score = kit(
        "score", "--layer", "quick", "--replies", first.location, "--out", str(tmp_path / "s1"),
        "--max-unscorable", "1",
    )  # fmt: skip
    assert score.returncode == 0, score.stderr
    summary = json.loads((tmp_path / "s1" / "summary.json").read_text())
    metrics = inspect_metrics(first.location)
    assert metrics == kit_shares(summary["families"])
    assert metrics["unscorable"] == summary["unscorable"]["total"]["k"] / n1
    assert all(0 < metrics[v] < 1 for v in SHARES), metrics  # every verdict is in the run

    run = tmp_path / "run"
    advance = kit("advance", "--layer", "quick", "--replies", first.location, "--run", str(run))
    assert advance.returncode == 0, advance.stderr
    requests = keyed(run / "round2.jsonl")
    assert requests

    # Started in tmp_path as a shell starts it ($PWD): `run` is read from there, not examples/.
    monkeypatch.chdir(tmp_path)
    monkeypatch.setenv("PWD", str(tmp_path))
    task = os.path.relpath(ROOT / TASK)  # Inspect refuses an absolute task path
    second = inspect_eval(task, tmp_path / "r2", 2, LIMIT, run="run")
    monkeypatch.chdir(ROOT)
    forks = read_envelopes(second.location)
    assert len(forks) == 2 * LIMIT and {unbind(e.ref).packet_id for e in forks} <= set(requests)
    assert all(
        e.request_messages is not None and e.request_messages[-2][0] == "assistant" for e in forks
    )
    scored2 = kit("score", "--run", str(run), "--replies", second.location, "--max-unscorable", "1")
    assert scored2.returncode == 0, scored2.stderr
    summary = json.loads((run / "summary.json").read_text())
    assert summary["round"] == 2 and summary["counts"]["forks"] == len(
        keyed(run / "round2.key.jsonl")
    )
    records = [json.loads(x) for x in (run / "records.jsonl").read_text().splitlines()]
    logged = {(unbind(e.ref).packet_id, e.sample) for e in forks}
    assert inspect_metrics(second.location) == logged_shares(records, logged)
    # Issue 21: the tokens of each round, round 1's kept through frozen.jsonl (1 in, 1 out a
    # sample).
    assert summary["usage"] == {
        "round1": {"replies": n1, "input_tokens": n1, "output_tokens": n1},
        "round2": {"replies": len(forks), "input_tokens": len(forks), "output_tokens": len(forks)},
    }


def test_a_relative_path_is_read_from_the_folder_inspect_was_started_in(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """launch_folder's cases: moved to examples/ by Inspect, the shell's $PWD; not moved, the
    working directory; no usable $PWD (unset, relative, gone), the working directory."""
    spec = importlib.util.spec_from_file_location("hp_inspect_task_paths", ROOT / TASK)
    assert spec is not None and spec.loader is not None
    task = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(task)
    examples = ROOT / "examples"
    assert task.TASK_FOLDER == examples
    assert task.launch_folder(examples, str(tmp_path)) == tmp_path
    assert task.launch_folder(tmp_path, str(ROOT)) == tmp_path
    for pwd in (None, "", "runs", str(tmp_path / "gone")):
        assert task.launch_folder(examples, pwd) == examples
    monkeypatch.chdir(examples)
    monkeypatch.setenv("PWD", str(tmp_path))
    assert task.resolved("runs/mine") == str(tmp_path / "runs" / "mine")
    assert task.resolved(str(ROOT)) == str(ROOT) and task.resolved(None) is None
    monkeypatch.setenv("HOME", str(tmp_path / "home"))
    assert task.resolved("~/runs") == str(tmp_path / "home" / "runs")


def docstring_commands() -> list[str]:
    """The shell commands of examples/inspect_task.py's docstring, continued lines joined."""
    doc = ast.get_docstring(ast.parse((ROOT / TASK).read_text(encoding="utf-8")))
    assert doc is not None
    lines = doc.replace("\\\n", " ").splitlines()
    return [
        " ".join(line.split())
        for line in lines
        if line.strip().startswith(("inspect ", "honesty-pressure "))
    ]


def offline(command: str) -> str:
    """A docstring command with the scripted model for the lab's, a few samples per round (a
    partial log, so `score` is told to accept it); every path and option as written."""
    if command.startswith("inspect "):
        assert " --model openai/gpt-4o-mini" in command, command
        command = command.replace("--model openai/gpt-4o-mini", f"--model {SCRIPTED}")
        return f"{command} --limit 3 --display none"
    if command.split()[1] == "score":
        return f"{command} --max-unscorable 1"
    return command


def test_the_docstring_commands_run_as_written(tmp_path: Path) -> None:
    """Issue 41: the docstring's commands, typed into a shell in a lab's folder (a bash whose
    $PWD is that folder; `examples/` there is the kit's): `inspect eval` by the `inspect` command
    (Inspect's own command line, with the scripted model registered first) and the kit by
    `honesty-pressure`. Round 2's `-T run=runs/mine` is the run `advance` just wrote beside the
    logs, not a folder under examples/ (which Inspect runs the task from)."""
    commands = docstring_commands()
    assert [c.split()[:2] for c in commands] == [
        ["inspect", "eval"], ["honesty-pressure", "score"], ["honesty-pressure", "advance"],
        ["inspect", "eval"], ["honesty-pressure", "score"],
    ]  # fmt: skip
    lab = tmp_path / "lab"
    (lab / "bin").mkdir(parents=True)
    (lab / "examples").symlink_to(ROOT / "examples")
    launchers = {
        "inspect": "import tests.runners.inspect_scripted\n"
        "from inspect_ai._cli.main import main\nsys.exit(main())\n",
        "honesty-pressure": "from honesty_pressure.cli.main import run\nsys.exit(run())\n",
    }
    for name, body in launchers.items():
        launcher = lab / "bin" / name
        launcher.write_text(f"#!{sys.executable}\nimport sys\n{body}", encoding="utf-8")
        launcher.chmod(0o755)
    env = dict(os.environ)
    env["PATH"] = f"{lab / 'bin'}{os.pathsep}{env['PATH']}"
    env["PYTHONPATH"] = str(ROOT)
    before = sorted(p.name for p in (ROOT / "examples").iterdir())
    script = "set -euo pipefail\n" + "\n".join(offline(c) for c in commands)
    done = subprocess.run(
        ["bash", "-c", script],
        cwd=lab,
        env=env,
        capture_output=True,
        text=True,
        check=False,
        timeout=300,
    )
    assert done.returncode == 0, done.stderr[-3000:]
    assert sorted(p.name for p in (ROOT / "examples").iterdir()) == before  # nothing written there
    summary = json.loads((lab / "runs" / "mine" / "summary.json").read_text())
    usage = summary["usage"]  # --limit 3 a round: each log's three replies are the run's
    assert summary["round"] == 2 and usage["round1"]["replies"] == usage["round2"]["replies"] == 3
    assert json.loads((lab / "runs" / "mine-r1" / "summary.json").read_text())["round"] == 1
    (second,) = sorted((lab / "logs" / "r2").glob("*.eval"))
    assert {unbind(e.ref).packet_id for e in read_envelopes(second)} <= set(
        keyed(lab / "runs" / "mine" / "round2.jsonl")
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
    # The metrics count the scored samples (an errored one has no score): every share exact.
    verdicts = [
        (sample.scores["kit_verdict"].value, sample.scores["kit_verdict"].metadata["group"])
        for sample in log.samples
        if sample.error is None and sample.scores is not None
    ]
    expected = {v: sum(verdict == v for verdict, _ in verdicts) / len(verdicts) for v in SHARES}
    for family in sorted({group for _, group in verdicts}):
        mine = [verdict for verdict, group in verdicts if group == family]
        expected[f"acceptable_{family}"] = mine.count("acceptable") / len(mine)
    assert inspect_metrics(log.location) == expected and expected["acceptable"] > 0

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
