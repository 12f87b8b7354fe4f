"""`demo --rounds N`: the demo through a sustained chain, and the two traits only depth can show.

As `demo` (round 1 as OpenAI Batch, round 2 as Anthropic Message Batches), with the sustained
protocol, then rounds 3..N alternating the two formats, each in `round<k>/` as `run --rounds`
lays them out. Every round 3..N is scored as `run --rounds` scores it (each score rebuilds and
checks the whole chain); round N's summary holds the persistence measures, and the planted "caves
on the third push" and "keeps its update" traits must be recovered from them (beside the round-2
traits, from the round-2 score at the top, which is scored last so that it leads with round N's
result and links every round's report).
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from pathlib import Path

from ..files.folders import open_writer
from ..files.layer import load_checked_layer
from ..files.store import JsonObject, json_object
from ..rounds.advance import CHAIN_FOLDER, Built, build, from_layer, parents_of_round, run_files
from ..runners.envelopes import read_envelopes_bytes
from ..runners.simulate import Traits
from .conversation import depth_json
from .demo import answer_batch, recovered, recovery_json, recovery_rows
from .pipeline import COMMANDS_FILE, ScoreOptions, run_log_bytes, score_run


def expected_depth_rates(traits: Traits) -> dict[str, float]:
    """What the persistence measures should show, from the planted rates alone (every reply
    misses its decision line at the format-break rate, whatever the round)."""
    f, t, r = traits.format_break / 1000, traits.cave_third / 1000, traits.keep_update / 1000
    return {
        "held at the second push, of threads that survived the first": 1 - f,
        "held at the third push, of threads that survived the second": (1 - f) * (1 - t),
        "held at the fourth push, of threads that survived the third": 1 - f,
        "update kept at the first push back": (1 - f) * r,
        "update kept at the third push back, of those kept so far": (1 - f) * r,
    }


def measured_depth_rates(summary: Mapping[str, object]) -> dict[str, Mapping[str, object]]:
    found = summary["persistence"]
    assert isinstance(found, Mapping)
    # Only where giving in shows: pushes for an answer the key does not accept.
    held = found["survival"]["pressure"]["all"]["held_pressed"]
    kept = found["update_retention"]["kept_pressed"]
    return {
        "held at the second push, of threads that survived the first": held[1],
        "held at the third push, of threads that survived the second": held[2],
        "held at the fourth push, of threads that survived the third": held[3],
        "update kept at the first push back": kept[0],
        "update kept at the third push back, of those kept so far": kept[2],
    }


def depth_recovery(traits: Traits, summary: Mapping[str, object]) -> list[JsonObject]:
    return recovery_rows(recovered(expected_depth_rates(traits), measured_depth_rates(summary)))


def run_depth_demo(
    packets: Path,
    out: Path,
    traits: Traits,
    seed: int,
    rounds: int,
    command: str | None = None,
    layer: str = "quick",
) -> tuple[dict[str, bytes], JsonObject]:
    """Rounds 1..`rounds` (>= 5 for the third push and three pushes back) and round N's score."""
    folder = load_checked_layer(packets, layer)
    files: dict[str, bytes] = {}
    files["round1.requests.jsonl"], files["round1.replies.jsonl"] = answer_batch(
        list(folder.round1.values()), folder.key, "openai-batch", traits, seed
    )
    first = read_envelopes_bytes(files["round1.replies.jsonl"], str(out / "round1.replies.jsonl"))
    parents = from_layer(folder)
    built: list[Built] = [build(parents, first, protocol="sustained")]
    files.update(built[0].files)
    if command is not None:
        files[COMMANDS_FILE] = run_log_bytes(
            command, {"round1.replies.jsonl": "openai-batch"}, "demo"
        )
    parents = parents_of_round(parents, files, str(out))
    chain = {f"{CHAIN_FOLDER}/round2/{name}": files[name] for name in run_files(2)}
    where, fmt = "", "anthropic-batch"
    for k in range(2, rounds + 1):
        sub = f"round{k}/" if k > 2 else ""
        replies = f"{sub}round{k}.replies.jsonl"
        files[f"{sub}round{k}.requests.jsonl"], files[replies] = answer_batch(
            list(parents.requests.values()), parents.keys, fmt, traits, seed
        )
        if k == rounds:
            where = sub
            break
        envelopes = read_envelopes_bytes(files[replies], str(out / replies))
        built.append(build(parents, envelopes, protocol="sustained"))
        made = built[-1].files
        nxt = f"round{k + 1}/"
        files.update({f"{nxt}{name}": data for name, data in {**made, **chain}.items()})
        parents = parents_of_round(parents, made, str(out / nxt))
        chain = {
            **chain,
            **{f"{CHAIN_FOLDER}/round{k + 1}/{name}": made[name] for name in run_files(k + 1)},
        }
        fmt = "openai-batch" if fmt == "anthropic-batch" else "anthropic-batch"

    def amend(summary: dict[str, object]) -> None:
        summary["demo"] = {
            "traits_per_mille": {
                "cave_third": traits.cave_third,
                "keep_update": traits.keep_update,
            },
            "recovery": depth_recovery(traits, summary),
        }

    with open_writer(out, ("demo",), replace=True) as writer:
        with writer.staged(files, "demo", keep=False) as stage:
            # Every later round is scored, as `run --rounds` scores it, round N with the depth
            # traits; then the top (round 2's), which leads with round N's result.
            scores: dict[str, bytes] = {}
            for k in range(3, rounds + 1):
                here = stage.path / f"round{k}"
                scored = score_run(
                    here,
                    [here / f"round{k}.replies.jsonl"],
                    packets,
                    ScoreOptions(bootstrap_seed=seed, command=command),
                    amend=amend if k == rounds else None,
                    built=built,
                )
                scores.update({f"round{k}/{name}": data for name, data in scored.items()})
            depth = depth_json(json_object(scored["summary.json"], str(out / where)), rounds)

            def amend_round2(summary: dict[str, object]) -> None:
                summary["demo"] = recovery_json(traits, summary)
                summary["depth"] = depth

            top = score_run(
                stage.path,
                [stage.path / "round2.replies.jsonl"],
                packets,
                ScoreOptions(bootstrap_seed=seed, command=command),
                amend=amend_round2,
                built=built,
            )
            stage.add(top)
            stage.add(scores)
    files.update(top)
    files.update(scores)
    summary = json.loads(scored["summary.json"])
    assert isinstance(summary, dict)
    return files, summary


__all__ = ["depth_recovery", "expected_depth_rates", "run_depth_demo"]
