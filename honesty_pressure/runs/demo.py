"""`demo`: the whole job end to end, offline, with the simulated assistant standing in for a model.

Round 1 goes out as OpenAI Batch requests and comes back as Batch output; round 2 goes out as
Anthropic Message Batches requests and comes back as their results: the same files a lab's runner
would exchange. The scorer must recover the traits planted in the simulated assistant.
"""

from __future__ import annotations

import json
from collections.abc import Mapping, Sequence
from pathlib import Path

from ..core.binding import unbind
from ..core.canonical import jsonl
from ..core.stats import wilson
from ..files.folders import open_writer
from ..files.layer import load_checked_layer
from ..files.store import JsonObject, jsonl_bytes, keyed_records
from ..rounds.advance import build, from_layer
from ..runners.envelopes import read_envelopes_bytes
from ..runners.export import export_lines
from ..runners.simulate import Traits, reply
from .pipeline import COMMANDS_FILE, ScoreOptions, run_log_bytes, score_run


def _openai_output(line: Mapping[str, object], text: str) -> dict[str, object]:
    return {
        "id": f"batch_req_{line['custom_id']}",
        "custom_id": line["custom_id"],
        "response": {
            "status_code": 200,
            "request_id": f"req_{line['custom_id']}",
            "body": {
                "object": "chat.completion",
                "model": "simulated-assistant",
                "choices": [
                    {
                        "index": 0,
                        "message": {"role": "assistant", "content": text},
                        "finish_reason": "stop",
                    }
                ],
            },
        },
        "error": None,
    }


def _anthropic_result(line: Mapping[str, object], text: str) -> dict[str, object]:
    return {
        "custom_id": line["custom_id"],
        "result": {
            "type": "succeeded",
            "message": {
                "type": "message",
                "role": "assistant",
                "model": "simulated-assistant",
                "content": [{"type": "text", "text": text}],
                "stop_reason": "end_turn",
            },
        },
    }


def answer_batch(
    requests: Sequence[JsonObject],
    keys: Mapping[str, JsonObject],
    fmt: str,
    traits: Traits,
    seed: int,
) -> tuple[bytes, bytes]:
    """(exported request file, the runner's output file) for one round."""
    by_id = {str(r["packet_id"]): r for r in requests}
    lines = export_lines(list(requests), fmt, "simulated-assistant")  # type: ignore[arg-type]
    outputs = []
    for line in lines:
        pid = unbind(str(line["custom_id"])).packet_id
        text = reply(by_id[pid], keys[pid], traits, seed)
        outputs.append(
            _openai_output(line, text) if fmt == "openai-batch" else _anthropic_result(line, text)
        )
    return jsonl(lines), jsonl(outputs)


def expected_rates(traits: Traits) -> dict[str, float]:
    """What the scorer should measure, from the planted rates alone."""
    f, m, a, c, i = (
        x / 1000
        for x in (
            traits.format_break,
            traits.misread,
            traits.ask_when_unsure,
            traits.cave,
            traits.ignore_evidence,
        )
    )
    return {
        "round-1 replies without a decision line": f,
        "control stability": (1 - f) * (1 - m) * (1 - a),
        "acceptable on missing twins": (1 - f) * (1 - m),
        "capitulation under pressure": f + (1 - f) * c,
        "evidence uptake, first decision acceptable": (1 - f) * (1 - i),
    }


def measured_rates(summary: Mapping[str, object]) -> dict[str, dict[str, object]]:
    r1 = summary["round1"]
    forks = summary["forks"]
    assert isinstance(r1, dict) and isinstance(forks, dict)
    return {
        "round-1 replies without a decision line": r1["unscorable"]["by_reason"][
            "no_decision_line"
        ],
        "control stability": r1["axes"]["control_stability"],
        "acceptable on missing twins": r1["families"]["missing"]["acceptable"],
        "capitulation under pressure": forks["capitulation"]["pressure"],
        "evidence uptake, first decision acceptable": forks["acceptable_given_first_acceptable"][
            "evidence_change"
        ],
    }


def recovery_table(
    traits: Traits, summary: Mapping[str, object]
) -> list[tuple[str, float, float, float, float, bool]]:
    """(measure, planted, measured, low, high, inside) for each planted trait."""
    return recovered(expected_rates(traits), measured_rates(summary))


def recovered(
    expected: Mapping[str, float], measured: Mapping[str, Mapping[str, object]]
) -> list[tuple[str, float, float, float, float, bool]]:
    """(measure, planted, measured, low, high, inside) for each planted rate and its measured
    rate."""
    rows = []
    for name, planted in expected.items():
        rate = measured[name]
        k, n = int(str(rate["k"])), int(str(rate["n"]))
        interval = wilson(k, n)
        value = k / n if n else 0.0
        rows.append(
            (
                name,
                planted,
                value,
                interval.low,
                interval.high,
                interval.low <= planted <= interval.high,
            )
        )
    return rows


def recovery_json(traits: Traits, summary: Mapping[str, object]) -> JsonObject:
    """The planted-versus-recovered table as summary.json holds it (the report shows it too)."""
    return {
        "traits_per_mille": {
            "misread": traits.misread,
            "ask_when_unsure": traits.ask_when_unsure,
            "cave": traits.cave,
            "ignore_evidence": traits.ignore_evidence,
            "format_break": traits.format_break,
        },
        "recovery": recovery_rows(recovery_table(traits, summary)),
    }


def recovery_rows(
    table: Sequence[tuple[str, float, float, float, float, bool]],
) -> list[JsonObject]:
    """The planted-versus-recovered rows as summary.json holds them."""
    return [
        {
            "measure": name,
            "planted": round(planted, 6),
            "measured": {"value": round(value, 6), "low": round(low, 6), "high": round(high, 6)},
            "inside": inside,
        }
        for name, planted, value, low, high, inside in table
    ]


def run_demo(
    packets: Path,
    out: Path,
    traits: Traits,
    seed: int,
    command: str | None = None,
    layer: str = "quick",
) -> tuple[dict[str, bytes], JsonObject]:
    """Both rounds and the score, written to `out` as one set (a previous demo there is replaced;
    any other folder is refused). Nothing is written outside `out` but its staging folder."""
    folder = load_checked_layer(packets, layer)
    with open_writer(out, ("demo",), replace=True) as writer:
        files: dict[str, bytes] = {}
        files["round1.requests.jsonl"], files["round1.replies.jsonl"] = answer_batch(
            list(folder.round1.values()), folder.key, "openai-batch", traits, seed
        )
        first = read_envelopes_bytes(
            files["round1.replies.jsonl"], str(out / "round1.replies.jsonl")
        )
        built = build(from_layer(folder), first)
        files.update(built.files)
        if command is not None:
            files[COMMANDS_FILE] = run_log_bytes(
                command, {"round1.replies.jsonl": "openai-batch"}, "demo"
            )
        requests = [r for _, r in jsonl_bytes(files["round2.jsonl"], "round2.jsonl")]
        keys = keyed_records(
            jsonl_bytes(files["round2.key.jsonl"], "round2.key.jsonl"), "round2.key.jsonl"
        )
        files["round2.requests.jsonl"], files["round2.replies.jsonl"] = answer_batch(
            requests, keys, "anthropic-batch", traits, seed
        )

        def amend(summary: dict[str, object]) -> None:
            summary["demo"] = recovery_json(traits, summary)

        with writer.staged(files, "demo", keep=False) as stage:
            scored = score_run(
                stage.path,
                [stage.path / "round2.replies.jsonl"],
                packets,
                ScoreOptions(bootstrap_seed=seed, command=command),
                amend=amend,
                built=[built],
            )
            stage.add(scored)
    files.update(scored)
    summary = json.loads(files["summary.json"])
    assert isinstance(summary, dict)
    return files, summary
