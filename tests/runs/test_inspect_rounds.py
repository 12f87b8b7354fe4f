"""runs/inspect_rounds.py: the runner that answers `run` from an Inspect log of every round.

The logs here are written by hand in Inspect's `.json` form (no inspect-ai needed); the log the
package's Inspect task writes, and `run` against it, are in tests/runners/
test_inspect_protocol.py (under inspect-ai, in CI's Inspect step).
"""

from __future__ import annotations

import ast
import io
import json
from pathlib import Path

import pytest

from honesty_pressure.core.binding import bind
from honesty_pressure.files.layer import load_layer
from honesty_pressure.runners.envelopes import read_envelopes
from honesty_pressure.runs import inspect_rounds
from honesty_pressure.runs.inspect_rounds import (
    STORE_KEY,
    answer_lines,
    logged_exchanges,
    scored_rounds,
)

SET = "0123456789ab"
ASKED = [{"role": "user", "content": "Which one?"}]


def exchange(pid: str, sample: int, reply: str | None, error: str | None) -> dict[str, object]:
    return {
        "round": 1,
        "packet_id": pid,
        "sample": sample,
        "messages": ASKED,
        "reply": reply,
        "error": error,
        "usage": {"input_tokens": 3, "output_tokens": 2},
    }


def write_log(path: Path, samples: list[dict[str, object]]) -> Path:
    path.write_text(json.dumps({"eval": {"model": "m"}, "samples": samples}), encoding="utf-8")
    return path


def sample(
    ident: str, epoch: int, *exchanges: dict[str, object], error: object = None
) -> dict[str, object]:
    return {"id": ident, "epoch": epoch, "error": error, "store": {STORE_KEY: list(exchanges)}}


def replies(found: dict[tuple[str, int], dict[str, object]], *ids: str) -> list[dict[str, object]]:
    lines = [json.dumps({"id": i, "messages": ASKED}) for i in ids]
    return [json.loads(line) for line in answer_lines(lines, found)]


def test_each_request_is_answered_as_the_log_holds_it(tmp_path: Path) -> None:
    """A reply, a refusal, a runner error and a request the log never sent (its sample errored):
    each comes back in chat-jsonl as the kit reads it, usage kept, and a retried log's exchange
    takes the place of the first log's."""
    first = write_log(
        tmp_path / "a.json",
        [
            sample(bind("p1", SET), 1, exchange("p1", 0, "DECISION: A", None)),
            sample(bind("p1", SET), 2, exchange("p1", 1, None, "refusal: content_filter")),
            sample(bind("p2", SET), 1, exchange("p2", 0, None, "HTTP 500")),
            sample(
                bind("p3", SET), 1, exchange("p3", 0, "DECISION: B", None), error={"message": "x"}
            ),
        ],
    )
    retry = write_log(
        tmp_path / "b.json", [sample(bind("p2", SET), 1, exchange("p2", 0, "DECISION: B", None))]
    )
    assert set(logged_exchanges([first])) == {("p1", 0), ("p1", 1), ("p2", 0)}
    found = logged_exchanges([first, retry])
    out = replies(found, bind("p1", SET), bind("p1", SET, 1), bind("p2", SET), bind("p3", SET))
    file = tmp_path / "replies.jsonl"
    file.write_text("".join(json.dumps(line) + "\n" for line in out), encoding="utf-8")
    read = read_envelopes(file)
    assert [(e.reply, e.error, e.usage) for e in read] == [
        ("DECISION: A", None, (3, 2)),
        (None, "refusal: content_filter", (3, 2)),
        ("DECISION: B", None, (3, 2)),
        (None, "null content", None),
    ]
    assert out[3]["error"] == "not in the Inspect log (an errored sample?)"


def test_a_request_the_log_did_not_send_stops_the_runner(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    """Other messages under the same id: the kit's forks are not the ones the model was sent
    (another protocol, other epochs), so the runner stops with one line, exit 2."""
    log = write_log(
        tmp_path / "a.json", [sample(bind("p1", SET), 1, exchange("p1", 0, "DECISION: A", None))]
    )
    other = json.dumps({"id": bind("p1", SET), "messages": [{"role": "user", "content": "Other?"}]})
    monkeypatch.setattr("sys.stdin", io.StringIO(other + "\n"))
    assert inspect_rounds.main([str(log)]) == 2
    captured = capsys.readouterr()
    assert captured.out == ""
    assert captured.err == (
        "inspect_rounds: <stdin>:1: packet p1 sample 0: the log sent other messages than this "
        "request's (a log of other packets, another protocol or other epochs?)\n"
    )
    assert inspect_rounds.main([]) == 2
    assert capsys.readouterr().err.startswith(
        "usage: python -m honesty_pressure.runs.inspect_rounds"
    )


def test_a_store_that_is_not_the_task_s_is_refused(tmp_path: Path) -> None:
    log = write_log(
        tmp_path / "a.json", [{"id": bind("p1", SET), "epoch": 1, "store": {STORE_KEY: {}}}]
    )
    with pytest.raises(Exception, match=f"store entry '{STORE_KEY}' is not a list"):
        logged_exchanges([log])


def test_only_the_inspect_task_imports_inspect_ai() -> None:
    """The package works without inspect-ai: only honesty_pressure/inspect_task.py imports it,
    and no module of the kit imports that one (Inspect does, through the entry point)."""
    package = Path(__file__).resolve().parents[2] / "honesty_pressure"
    importers, task_importers = set(), set()
    for path in sorted(package.rglob("*.py")):
        text = path.read_text(encoding="utf-8")
        if "inspect_ai" not in text and "inspect_task" not in text:
            continue  # no import of either can hide in a file without its name (parsing is slow)
        for node in ast.walk(ast.parse(text)):
            names = (
                [a.name for a in node.names]
                if isinstance(node, ast.Import)
                else [node.module or ""]
                if isinstance(node, ast.ImportFrom)
                else []
            )
            rel = path.relative_to(package).as_posix()
            if any(n == "inspect_ai" or n.startswith("inspect_ai.") for n in names):
                importers.add(rel)
            if any(n.endswith("inspect_task") for n in names) or (
                isinstance(node, ast.ImportFrom)
                and any(a.name == "inspect_task" for a in node.names)
            ):
                task_importers.add(rel)
    assert importers == {"inspect_task.py"} and task_importers == set()


def test_the_index_metric_scores_what_is_in_so_far() -> None:
    """Inspect computes metrics while samples still run: with no round-1 reply there is nothing
    to score ({}), and with round 1 but no fork answered every fork is scored missing, as `run`
    scores an empty round (before, an empty round-2 file stopped the whole eval)."""
    pid = min(load_layer(Path(__file__).resolve().parents[2] / "packets", "quick").round1)
    assert scored_rounds([], None, "quick", "default") == {}
    summary = scored_rounds([exchange(pid, 0, "DECISION: A", None)], None, "quick", "default")
    assert summary["round"] == 2 and summary["counts"]["forks"] == summary["counts"]["records"]
    assert summary["honesty_index"] == 0.0
