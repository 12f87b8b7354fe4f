"""`demo --rounds N`: the demo through a sustained chain, and the two traits only depth can show.

As `demo` (round 1 as OpenAI Batch, round 2 as Anthropic Message Batches), with the sustained
protocol, then rounds 3..N alternating the two formats, each in `round<k>/` as `run --rounds`
lays them out. Every round 3..N is scored as `run --rounds` scores it (each score checks the whole
chain); round N's summary holds the persistence measures, and the planted "caves on the third
push" and "keeps its update" traits must be recovered from them (beside the round-2 traits, from
the round-2 score at the top, which is scored last so that it leads with round N's result and
links every round's report). Each round goes to disk as soon as it is made, so the demo holds
about two rounds at a time.
"""

from __future__ import annotations

import json
from collections.abc import Callable, Mapping
from pathlib import Path

from ..files.folders import Stage, open_writer
from ..files.layer import PacketFolder, load_checked_layer
from ..files.store import JsonObject, files_digest, json_object
from ..rounds.advance import build, from_layer, run_files
from ..rounds.runcheck import CHAIN_FILE, Vouch, vouch
from ..runners.envelopes import read_envelopes_bytes
from ..runners.simulate import Traits
from .conversation import depth_json
from .demo import answer_batch, recovered, recovery_json, recovery_rows
from .later_rounds import link_of, parents_of_built
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
    """Rounds 1..`rounds` (>= 5 for the third push and three pushes back) and round N's score.

    Each round's files go into the staging folder as soon as they are made and are then let go,
    so only the round being built and the one before it are held, whatever the rounds; the
    scores check the chain against the digests of the rounds built here. Returns every file
    written, by name (a round's files, and the scores of rounds 3..N-1, as empty bytes: they were
    not held), and round N's summary.
    """
    folder = load_checked_layer(packets, layer)
    written: dict[str, bytes] = {}

    def amend(summary: dict[str, object]) -> None:
        summary["demo"] = {
            "traits_per_mille": {
                "cave_third": traits.cave_third,
                "keep_update": traits.keep_update,
            },
            "recovery": depth_recovery(traits, summary),
        }

    def put(stage: Stage, files: dict[str, bytes]) -> None:
        stage.add(files)
        written.update(dict.fromkeys(files, b""))

    with open_writer(out, ("demo",), replace=True) as writer:
        with writer.staged({}, "demo", keep=False) as stage:
            vouched = play_depth(stage, put, folder, out, traits, seed, rounds, command)
            # Every later round is scored, as `run --rounds` scores it, round N with the depth
            # traits; then the top (round 2's), which leads with round N's result. A round's
            # score goes into the stage when it is made (round N's is held: it is returned).
            where = f"round{rounds}/"
            scored: dict[str, bytes] = {}
            for k in range(3, rounds + 1):
                here = stage.path / f"round{k}"
                scored = score_run(
                    here,
                    [here / f"round{k}.replies.jsonl"],
                    packets,
                    ScoreOptions(bootstrap_seed=seed, command=command),
                    amend=amend if k == rounds else None,
                    built=vouched,
                )
                if k < rounds:
                    put(stage, {f"round{k}/{name}": data for name, data in scored.items()})
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
                built=vouched,
            )
            stage.add(top)
            stage.add({f"{where}{name}": data for name, data in scored.items()})
    written.update(top)
    written.update({f"{where}{name}": data for name, data in scored.items()})
    summary = json.loads(scored["summary.json"])
    assert isinstance(summary, dict)
    return written, summary


def play_depth(
    stage: Stage,
    put: Callable[[Stage, dict[str, bytes]], None],
    folder: PacketFolder,
    out: Path,
    traits: Traits,
    seed: int,
    rounds: int,
    command: str | None,
) -> list[Vouch]:
    """Rounds 1..`rounds` answered and advanced into the stage (round 2 at the top, round k >= 3
    in round<k>/ with its chain.json naming the round before); the digests of every round built."""
    files: dict[str, bytes] = {}
    files["round1.requests.jsonl"], files["round1.replies.jsonl"] = answer_batch(
        list(folder.round1.values()), folder.key, "openai-batch", traits, seed
    )
    first = read_envelopes_bytes(files["round1.replies.jsonl"], str(out / "round1.replies.jsonl"))
    parents = from_layer(folder)
    made = build(parents, first, protocol="sustained")
    del first
    vouched = [v for v in [vouch(made)] if v is not None]
    files.update(made.files)
    if command is not None:
        files[COMMANDS_FILE] = run_log_bytes(
            command, {"round1.replies.jsonl": "openai-batch"}, "demo"
        )
    parents = parents_of_built(parents, made, str(out))
    level_sha256 = files_digest(made.files, run_files(2))
    del made
    fmt = "anthropic-batch"
    for k in range(2, rounds + 1):
        sub = f"round{k}/" if k > 2 else ""
        replies = f"{sub}round{k}.replies.jsonl"
        files[f"{sub}round{k}.requests.jsonl"], files[replies] = answer_batch(
            list(parents.requests.values()), parents.keys, fmt, traits, seed
        )
        if k == rounds:
            break
        envelopes = read_envelopes_bytes(files[replies], str(out / replies))
        made = build(parents, envelopes, protocol="sustained")
        del envelopes
        vouched += [v for v in [vouch(made)] if v is not None]
        nxt = f"round{k + 1}/"
        put(stage, files)
        files = {f"{nxt}{name}": data for name, data in made.files.items()}
        files[f"{nxt}{CHAIN_FILE}"] = link_of(k + 1, level_sha256)
        parents = parents_of_built(parents, made, str(out / nxt))
        level_sha256 = files_digest(made.files, run_files(k + 1))
        del made
        fmt = "openai-batch" if fmt == "anthropic-batch" else "anthropic-batch"
    put(stage, files)
    return vouched


__all__ = ["depth_recovery", "expected_depth_rates", "run_depth_demo"]
