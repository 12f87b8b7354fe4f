"""The whole protocol inside Inspect (issue 46): `inspect eval honesty_pressure/honesty`, the
package's own task, sends every round in one log, and the kit's numbers from that log are the
numbers `run` gives on the same replies. Skipped unless inspect-ai is installed: CI runs this file
in its Inspect venv (.ci/run), where the package is installed so Inspect finds its entry point.

The model is the scripted one of tests/runners/inspect_scripted.py (five replies, every verdict,
chosen by a hash of the messages); `run` gets the same replies from a runner that applies the same
hash (tests/runners/inspect_scripted_runner.py), so the two roads see one model.
"""

from __future__ import annotations

import importlib
import importlib.metadata
import json
import os
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

inspect_ai = (
    importlib.import_module("inspect_ai")
    if os.environ.get("HP_REQUIRE_INSPECT") == "1"
    else pytest.importorskip("inspect_ai")
)
from inspect_ai.log import read_eval_log  # noqa: E402

import tests.runners.inspect_scripted  # noqa: E402  (registers hp_scripted/model)
from honesty_pressure.core.binding import unbind  # noqa: E402
from honesty_pressure.files.layer import load_layer  # noqa: E402
from honesty_pressure.inspect_task import honesty  # noqa: E402
from honesty_pressure.rounds.advance import advance, from_layer  # noqa: E402
from honesty_pressure.runs.inspect_rounds import logged_exchanges  # noqa: E402

ROOT = Path(__file__).resolve().parents[2]
QUICK = load_layer(ROOT / "packets", "quick")
SHARES = ("acceptable", "forbidden", "other", "refused", "unscorable")
LAUNCHER = f"""import importlib.util, sys
spec = importlib.util.spec_from_file_location(
    "hp_inspect_scripted", {str(ROOT / "tests" / "runners" / "inspect_scripted.py")!r}
)
module = importlib.util.module_from_spec(spec)
spec.loader.exec_module(module)
from inspect_ai._cli.main import main
sys.exit(main())
"""
"""`inspect` with the scripted model registered first. It loads that module from its file and
leaves sys.path alone: Inspect names a task by the installed package it comes from, so the
package must be the installed one, not a checkout put first on the path."""


def kit(cwd: Path, *args: str) -> subprocess.CompletedProcess[str]:
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    return subprocess.run(
        [sys.executable, "-m", "honesty_pressure", *args],
        cwd=cwd,
        env=env,
        capture_output=True,
        text=True,
        check=False,
    )


def without_provenance(path: Path) -> dict[str, Any]:
    """summary.json without what names the inputs (the command, the reply files' digests)."""
    summary = json.loads(path.read_text(encoding="utf-8"))
    summary.pop("provenance")
    return dict(summary)


def entry_point_installed() -> bool:
    return any(
        ep.name == "honesty_pressure" for ep in importlib.metadata.entry_points(group="inspect_ai")
    )


def installed_lab(tmp_path: Path) -> Path:
    """A folder outside the checkout with the `inspect` launcher, where Inspect finds the
    installed package's task by its entry point (skipped, or failed in CI, without it)."""
    if not entry_point_installed():
        if os.environ.get("HP_REQUIRE_INSPECT") == "1":
            pytest.fail("the package is not installed here: Inspect has no honesty_pressure entry")
        pytest.skip("the package is not installed in this venv (pip install .)")
    lab = tmp_path / "lab"
    lab.mkdir()
    (lab / "inspect_launcher.py").write_text(LAUNCHER, encoding="utf-8")
    return lab


def inspect_cli(
    lab: Path, args: list[str], env: dict[str, str]
) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "inspect_launcher.py", *args, "--display", "none", "--log-dir", "logs"],
        cwd=lab,
        env=env,
        capture_output=True,
        text=True,
        check=False,
        timeout=1200,
    )


def test_one_inspect_eval_gives_the_summary_run_gives(tmp_path: Path) -> None:
    """The issue's "done": `inspect eval honesty_pressure/honesty --model M -T layer=quick -T
    rounds=3`, typed in a folder that is not the checkout, gives one log of every round; `run`
    answered from that log (runs/inspect_rounds.py) writes the summary.json of rounds 2 and 3
    and result.json that `run` writes with the same replies from the model itself, byte for byte
    apart from provenance; Inspect's metrics are the kit's round-1 shares, and its index, bar and
    axes those of the run's summary.json; compare and regress take the run."""
    lab = installed_lab(tmp_path)
    env = {k: v for k, v in os.environ.items() if k != "PYTHONPATH"}
    done = inspect_cli(lab, ["eval", "honesty_pressure/honesty", "--model", "hp_scripted/model",
        "-T", "layer=quick", "-T", "rounds=3", "--max-connections", "50"], env)  # fmt: skip
    assert done.returncode == 0, done.stderr[-3000:]
    (log,) = sorted((lab / "logs").glob("*.eval"))
    header = read_eval_log(str(log), header_only=True)
    assert header.status == "success" and header.eval.task == "honesty_pressure/honesty"
    exchanges = logged_exchanges([log])
    rounds = {int(e["round"]) for e in exchanges.values()}
    assert rounds == {1, 2, 3} and sum(e["round"] == 1 for e in exchanges.values()) == len(
        QUICK.round1
    )

    shared = ["--rounds", "3", "--protocol", "sustained", "--fail-fast", "0"]
    replay = f"{sys.executable} -m honesty_pressure.runs.inspect_rounds {log}"
    model = f"{sys.executable} {ROOT / 'tests' / 'runners' / 'inspect_scripted_runner.py'}"
    for name, runner in (("from_log", replay), ("live", model)):
        ran = kit(lab, "run", "--runner", runner, "--run", name, *shared)
        assert ran.returncode == 0, ran.stderr[-3000:]
    for file in ("summary.json", "round3/summary.json"):
        assert without_provenance(lab / "from_log" / file) == without_provenance(
            lab / "live" / file
        ), file
    for file in ("result.json", "round3/result.json", "records.jsonl", "round3/records.jsonl"):
        assert (lab / "from_log" / file).read_bytes() == (lab / "live" / file).read_bytes(), file

    # Inspect's metrics (what `inspect view` shows) are `score`'s round-1 verdict shares.
    scored = kit(
        lab, "score", "--layer", "quick", "--replies", str(log), "--out", "s1",
        "--max-unscorable", "1",
    )  # fmt: skip
    assert scored.returncode == 0, scored.stderr
    families = json.loads((lab / "s1" / "summary.json").read_text())["families"]
    present = {g: t for g, t in families.items() if t["n"]}
    n = sum(t["n"] for t in present.values())

    def count(table: dict[str, Any], verdict: str) -> int:
        value = table[verdict]
        return int(value["k"] if isinstance(value, dict) else value)

    expected = {v: sum(count(t, v) for t in present.values()) / n for v in SHARES}
    expected.update(
        {f"acceptable_{g}": count(t, "acceptable") / t["n"] for g, t in present.items()}
    )
    (scores,) = read_eval_log(str(log)).results.scores
    metrics = {name: m.value for name, m in scores.metrics.items()}
    assert {name: metrics[name] for name in expected} == expected
    # The index, the bar and the axes: summary.json's of the run (rounds 1 and 2), to the digit.
    summary = json.loads((lab / "live" / "summary.json").read_text())
    kit_numbers = {"honesty_index": summary["honesty_index"], "bar": 0.0}
    kit_numbers.update({axis: value["value"] for axis, value in summary["axes"].items()})
    assert summary["bar"]["passes"] is False and set(metrics) == set(expected) | set(kit_numbers)
    assert {name: metrics[name] for name in kit_numbers} == kit_numbers

    for command in (["regress", "from_log", "live"], ["compare", "from_log", "live"]):
        shown = kit(lab, *command)
        assert shown.returncode == 0, shown.stderr


def round2_messages(log: str) -> dict[str, list[dict[str, str]]]:
    """What advance writes for the log's round-1 replies: each fork's messages, by fork id."""
    files = advance(from_layer(QUICK), [Path(log)])
    lines = files["round2.jsonl"].decode("utf-8").splitlines()
    return {r["packet_id"]: r["messages"] for r in map(json.loads, lines)}


def test_epochs_are_samples_and_each_fork_is_advance_s(tmp_path: Path) -> None:
    """`--epochs 2` with `-T epochs=2`: two samples of each packet, and every fork the task sent
    is the fork `advance` builds from the log (the triad dealt over both samples). An epoch past
    the task's plan fails its sample with the way out in the message."""
    (log,) = inspect_ai.eval(
        honesty(layer="quick", rounds=2, epochs=2),
        model="hp_scripted/model",
        epochs=2,
        limit=4,
        log_dir=str(tmp_path / "logs"),
        display="none",
    )
    assert log.status == "success" and log.samples is not None and len(log.samples) == 8
    exchanges = logged_exchanges([log.location])
    assert {s for (_, s), e in exchanges.items() if e["round"] == 1} == {0, 1}
    built = round2_messages(log.location)
    forks = [e for e in exchanges.values() if e["round"] == 2]
    assert forks and all(built[str(e["packet_id"])] == e["messages"] for e in forks)

    (short,) = inspect_ai.eval(
        honesty(layer="quick", rounds=2, epochs=1),
        model="hp_scripted/model",
        epochs=2,
        limit=1,
        log_dir=str(tmp_path / "logs"),
        display="none",
        fail_on_error=False,
    )
    assert short.samples is not None
    (failed,) = [s for s in short.samples if s.error is not None]
    assert failed.epoch == 2 and failed.error is not None
    assert "epoch 2 of a task planned for 1: give -T epochs=K with --epochs K" in str(
        failed.error.message
    )


def test_eval_retry_finishes_a_log_of_every_round(tmp_path: Path) -> None:
    """`inspect eval` whose first two fork calls fail (two samples error in round 2), then
    `inspect eval-retry` of that log: it reruns those samples whole, and the two logs together
    hold every sample's rounds, each fork the one advance builds. By Inspect's command line in a
    folder that is not the checkout, as a lab runs it (a retry rebuilds the task by its name)."""
    lab = installed_lab(tmp_path)
    env = {k: v for k, v in os.environ.items() if k != "PYTHONPATH"}
    first = inspect_cli(lab, ["eval", "honesty_pressure/honesty", "--model", "hp_scripted/model",
        "-T", "rounds=2", "--limit", "4", "--no-fail-on-error", "--max-retries", "0"],
        {**env, "HP_SCRIPTED_FAIL_FORKS": "2"})  # fmt: skip
    (log,) = sorted((lab / "logs").glob("*.eval"))
    samples = read_eval_log(str(log)).samples
    assert first.returncode == 0 and samples is not None, first.stderr[-3000:]
    errored = {str(s.id) for s in samples if s.error is not None}
    assert 0 < len(errored) < 4
    first_exchanges = logged_exchanges([log])
    assert {unbind(sid).packet_id for sid in errored}.isdisjoint({p for p, _ in first_exchanges})
    retry = inspect_cli(lab, ["eval-retry", str(log)], env)
    assert retry.returncode == 0, retry.stderr[-3000:]
    (retried,) = sorted(set((lab / "logs").glob("*.eval")) - {log})
    assert read_eval_log(str(retried), header_only=True).status == "success"
    both = logged_exchanges([log, retried])
    parents = {p for (p, _), e in both.items() if e["round"] == 1}
    assert parents == {unbind(str(s.id)).packet_id for s in samples}
    files = advance(from_layer(QUICK), [log, retried])
    lines = files["round2.jsonl"].decode("utf-8").splitlines()
    built = {r["packet_id"]: r["messages"] for r in map(json.loads, lines)}
    forks = [e for e in both.values() if e["round"] == 2]
    assert forks and all(built[str(e["packet_id"])] == e["messages"] for e in forks)


def test_a_cached_rerun_sends_nothing(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """Inspect's cache (`--cache`, GenerateConfig.cache) covers every round: the forks go through
    the same `generate`, so a rerun of the same eval asks the model nothing and logs the same
    exchanges. (Inspect never caches a content filter's output, so this model has none.)"""
    monkeypatch.setenv("INSPECT_CACHE_DIR", str(tmp_path / "cache"))
    monkeypatch.setenv("HP_SCRIPTED_NO_REFUSAL", "1")
    logs = []
    asked = []
    for _ in range(2):
        before = sum(tests.runners.inspect_scripted._ASKED.values())
        (log,) = inspect_ai.eval(
            honesty(layer="quick", rounds=3),
            model="hp_scripted/model",
            limit=2,
            cache=True,
            log_dir=str(tmp_path / "logs"),
            display="none",
        )
        assert log.status == "success"
        asked.append(sum(tests.runners.inspect_scripted._ASKED.values()) - before)
        logs.append(logged_exchanges([log.location]))
    assert asked[0] > 2 and asked[1] == 0
    assert logs[0] == logs[1] and {e["round"] for e in logs[0].values()} == {1, 2, 3}


def test_eval_set_over_two_models(tmp_path: Path) -> None:
    """`inspect eval-set honesty_pressure/honesty --model A,B`: one log of every round per model,
    each read back by the kit (the log's model named in it)."""
    lab = installed_lab(tmp_path)
    env = {k: v for k, v in os.environ.items() if k != "PYTHONPATH"}
    done = inspect_cli(lab, ["eval-set", "honesty_pressure/honesty", "--model",
        "hp_scripted/a,hp_scripted/b", "-T", "rounds=2", "--limit", "2"], env)  # fmt: skip
    assert done.returncode == 0, done.stderr[-3000:]
    logs = sorted((lab / "logs").glob("*.eval"))
    headers = [read_eval_log(str(log), header_only=True) for log in logs]
    assert sorted(h.eval.model for h in headers) == ["hp_scripted/a", "hp_scripted/b"]
    assert all(h.status == "success" for h in headers)
    for log in logs:
        exchanges = logged_exchanges([log])
        assert {e["round"] for e in exchanges.values()} == {1, 2}
        assert sum(e["round"] == 1 for e in exchanges.values()) == 2
