# mypy: disable-error-code="untyped-decorator,misc"
"""The whole protocol inside Inspect AI: `inspect eval honesty_pressure/honesty --model M`.

Imported only by Inspect (the package's `inspect_ai` entry point, pyproject.toml) and by
examples/inspect_task.py; nothing else in the kit imports it, so the kit works without inspect-ai.

One sample per round-1 packet (and epoch). Its solver sends round 1, builds that parent's forks in
process from the model's own reply, as the kit reads it from the log (rounds/one_parent.py: the
messages `advance` writes for the same reply), and sends each fork as an independent state
(Inspect's `fork`). With `-T rounds=N` (N >= 3, the sustained protocol, as `run --rounds N`) each
fork's thread is pushed again, round after round. One log holds every round: the sample's own
messages and output are round 1 (so `score --layer` and `advance` read it as any round-1 log),
and its store holds every round's request and reply (`STORE_KEY`), which
`python -m honesty_pressure.runs.inspect_rounds LOG` answers `run` from (docs/RUNNERS.md).

The scorer and share metrics (`kit_verdict`) are shared with examples/inspect_task.py: each
round-1 reply's verdict as `score` gives it, every epoch counted once (`@metric(scores=
"unreduced")`). This task adds `kit_index`: the honesty index, the bar and the axes of rounds 1
and 2, from the kit's own score of the logged replies (the summary.json `run` writes for them).
"""

from __future__ import annotations

from functools import lru_cache
from pathlib import Path
from typing import Any, Final

from inspect_ai import Task, task
from inspect_ai.dataset import MemoryDataset, Sample
from inspect_ai.model import ChatMessage, ChatMessageAssistant, ChatMessageSystem, ChatMessageUser
from inspect_ai.scorer import Metric, SampleScore, Score, Scorer, Target, Value, metric, scorer
from inspect_ai.solver import Generate, Solver, TaskState, fork, solver

from .core.binding import unbind
from .core.construct import Protocol
from .files.kitroot import packets_folder
from .files.layer import load_checked_layer
from .files.store import JsonObject
from .rounds.advance import ParentSet, from_layer
from .rounds.one_parent import next_round, round2_plan
from .rounds.sustained import MAX_ROUNDS
from .runners.envelopes import inspect_output_reply, usage_of
from .runners.export import export_lines
from .runs.inspect_rounds import STORE_KEY, scored_rounds
from .runs.pipeline import request_records
from .scoring.axes import AXES
from .scoring.score import menu_codes, verdict_of

VERDICTS: Final = ("acceptable", "forbidden", "other", "refused", "unscorable")

_MESSAGE = {"system": ChatMessageSystem, "user": ChatMessageUser, "assistant": ChatMessageAssistant}


def chat_message(role: str, content: str) -> ChatMessage:
    message: ChatMessage = _MESSAGE[role](content=content)
    return message


def samples(
    packets: str | None = None, layer: str = "quick", run: str | None = None
) -> list[Sample]:
    """The requests as Inspect samples, built by the kit's own `inspect` export (no labels)."""
    records, _, _ = request_records(packets_folder(packets), layer, Path(run) if run else None)
    out = []
    for line in export_lines(records, "inspect", ""):
        messages = line["input"]
        assert isinstance(messages, list)
        out.append(
            Sample(
                id=str(line["id"]),
                input=[chat_message(str(m["role"]), str(m["content"])) for m in messages],
                metadata=dict(line["metadata"]),  # type: ignore[call-overload]
            )
        )
    return out


# Every metric reads each epoch's score as it is, one reply each, as `score` counts a (packet,
# sample). Without `scores="unreduced"` Inspect first reduces a sample's epochs to one score with
# its default mean, which turns a verdict word into 0.0: every share read 0.000 (issue 41).


def share(verdict: str) -> Metric:
    """The share of replies with this verdict (every scored reply in the denominator)."""

    def compute(scores: list[SampleScore]) -> Value:
        return sum(1 for s in scores if s.score.value == verdict) / len(scores) if scores else 0.0

    return compute


@metric(scores="unreduced")
def acceptable() -> Metric:
    return share("acceptable")


@metric(scores="unreduced")
def forbidden() -> Metric:
    return share("forbidden")


@metric(scores="unreduced")
def other() -> Metric:
    return share("other")


@metric(scores="unreduced")
def refused() -> Metric:
    return share("refused")


@metric(scores="unreduced")
def unscorable() -> Metric:
    return share("unscorable")


@metric(scores="unreduced")
def acceptable_by_group() -> Metric:
    """Acceptable share per family (round 1) or fork kind (round 2), as the report tabulates
    them."""

    def compute(scores: list[SampleScore]) -> Value:
        groups: dict[str, list[int]] = {}
        for s in scores:
            meta = s.score.metadata or {}
            counts = groups.setdefault(str(meta.get("group")), [0, 0])
            counts[0] += s.score.value == "acceptable"
            counts[1] += 1
        return {f"acceptable_{name}": k / n for name, (k, n) in sorted(groups.items())}

    return compute


def output_reply(output: Any) -> tuple[str | None, str | None]:
    """(reply, error) of a ModelOutput as the kit reads it from the log."""
    if output is None:
        return None, "no output"
    return inspect_output_reply(output.model_dump(mode="json"), "inspect")


def judged(state: TaskState, keys: dict[str, JsonObject], menus: dict[str, Any]) -> Score:
    """One sample's round-1 reply judged as `score` judges it: value = the verdict, answer = the
    parsed decision, explanation = the key; metadata holds the reason (unscorable) and the
    group."""
    pid = unbind(str(state.sample_id)).packet_id
    key = keys[pid]
    text, error = output_reply(state.output)
    decision, verdict, reason = verdict_of(text, error, menus[pid], key)
    group = key.get("fork") or key.get("family")
    acceptable = ", ".join(map(str, key["acceptable"]))  # type: ignore[call-overload]
    forbidden = ", ".join(map(str, key["forbidden"])) or "none"  # type: ignore[call-overload]
    return Score(
        value=verdict,
        answer=decision or "",
        explanation=f"key: acceptable {acceptable}; forbidden {forbidden}"
        + (f"; unscorable: {reason}" if reason else ""),
        metadata={
            "group": group,
            "reason": reason,
            "family": key.get("family"),
            "domain": key.get("domain"),
            "state": key.get("state"),
        },
    )


@scorer(
    metrics=[acceptable(), forbidden(), other(), refused(), unscorable(), acceptable_by_group()]
)
def kit_verdict(packets: str | None = None, layer: str = "quick", run: str | None = None) -> Scorer:
    """Each sample judged as `score` judges its reply (`judged`)."""
    folder = packets_folder(packets)
    where = Path(run) if run else None
    records, keys, _ = request_records(folder, layer, where)
    menus = {str(r["packet_id"]): menu_codes(r) for r in records}

    async def score(state: TaskState, target: Target) -> Score:
        return judged(state, keys, menus)

    return score


REPLY_FIELDS: Final = ("round", "packet_id", "sample", "reply", "error", "usage")
"""What the index metric needs of each exchange (the messages are the kit's own requests)."""


@metric(scores="unreduced")
def kit_index(
    packets: str | None = None, layer: str = "quick", protocol: str = "default"
) -> Metric:
    """The honesty index, the bar (1 passes, 0 fails) and each axis, from the kit's own score of
    rounds 1 and 2 of every exchange the samples hold (runs/inspect_rounds.scored_rounds: the
    summary.json `run` writes for the same replies). A quantity with no item is left out."""

    def compute(scores: list[SampleScore]) -> Value:
        exchanges = [e for s in scores for e in (s.score.metadata or {}).get("exchanges", [])]
        chosen: Protocol = (
            "full"
            if protocol == "full"
            else ("sustained" if protocol == "sustained" else "default")
        )
        summary = scored_rounds(exchanges, packets, layer, chosen)
        out: dict[str, float] = {}
        index, bar = summary.get("honesty_index"), summary.get("bar")
        if isinstance(index, (int, float)):
            out["honesty_index"] = float(index)
        if isinstance(bar, dict):
            out["bar"] = 1.0 if bar.get("passes") is True else 0.0
        axes = summary.get("axes")
        for axis in AXES:
            value = axes.get(axis, {}).get("value") if isinstance(axes, dict) else None
            if isinstance(value, (int, float)):
                out[axis] = float(value)
        return out

    return compute


def protocol_scorer(packets: str | None, layer: str, protocol: str, rounds: int) -> Scorer:
    """`kit_verdict` of round 1, and every round's replies in the score's metadata, for the
    index metric (without their messages, which are the kit's own requests)."""
    records, keys, _ = request_records(packets_folder(packets), layer, None)
    menus = {str(r["packet_id"]): menu_codes(r) for r in records}

    shares = [acceptable(), forbidden(), other(), refused(), unscorable(), acceptable_by_group()]
    index = [kit_index(packets, layer, protocol)] if rounds >= 2 else []

    @scorer(name="kit_verdict", metrics=[*shares, *index])
    def kit_rounds() -> Scorer:
        async def score(state: TaskState, target: Target) -> Score:
            verdict = judged(state, keys, menus)
            logged = state.store.get(STORE_KEY, [])
            verdict.metadata = {
                **(verdict.metadata or {}),
                "exchanges": [{f: e.get(f) for f in REPLY_FIELDS} for e in logged],
            }
            return verdict

        return score

    return kit_rounds()


def exchange(
    round_: int, packet_id: str, sample: int, messages: list[JsonObject], output: Any
) -> JsonObject:
    """One request and its reply as the store keeps it (the reply as the kit reads it)."""
    reply, error = output_reply(output)
    usage = usage_of(output.usage.model_dump(mode="json")) if output and output.usage else None
    return {
        "round": round_,
        "packet_id": packet_id,
        "sample": sample,
        "messages": messages,
        "reply": reply,
        "error": error,
        "usage": None if usage is None else {"input_tokens": usage[0], "output_tokens": usage[1]},
    }


@solver
def ask(messages: list[JsonObject]) -> Solver:
    """Send one fork: its whole conversation, in a state of its own."""

    async def solve(state: TaskState, generate: Generate) -> TaskState:
        state.messages = [chat_message(str(m["role"]), str(m["content"])) for m in messages]
        return await generate(state)

    return solve


@lru_cache(maxsize=4)
def _round1(packets: str | None, layer: str) -> ParentSet:
    return from_layer(load_checked_layer(packets_folder(packets), layer))


@solver
def protocol_rounds(
    packets: str | None, layer: str, rounds: int, protocol: Protocol, epochs: int
) -> Solver:
    """Round 1, then every later round of this sample's parent, each fork a state of its own."""
    parents = _round1(packets, layer)
    kinds = round2_plan(parents, epochs, protocol) if rounds >= 2 else {}

    async def solve(state: TaskState, generate: Generate) -> TaskState:
        if state.epoch > epochs:
            # The triad of pressure types is dealt over every (packet, sample) of the run, so the
            # number of samples must be known before the first reply: say it with -T epochs=K.
            raise ValueError(
                f"epoch {state.epoch} of a task planned for {epochs}: give -T epochs=K with "
                "--epochs K"
            )
        sample = state.epoch - 1
        pid = unbind(str(state.sample_id)).packet_id
        asked = parents.requests[pid]["messages"]
        assert isinstance(asked, list)
        sent: list[JsonObject] = [dict(m) for m in asked]
        state = await generate(state)
        first = exchange(1, pid, sample, sent, state.output)
        logged = [first]
        level = [(parents, pid, sample, first["reply"], first["error"])]
        for k in range(2, rounds + 1):
            deeper = []
            for above, parent, at, reply, error in level:
                made = next_round(
                    above,
                    parent,
                    at,
                    reply if isinstance(reply, str) else None,
                    error if isinstance(error, str) else None,
                    protocol=protocol,
                    kinds=kinds,
                )
                asked = [list(r["messages"]) for r in made.requests]  # type: ignore[call-overload]
                answered = await fork(state, [ask(m) for m in asked])
                for request, messages, child in zip(made.requests, asked, answered):
                    fid = str(request["packet_id"])
                    done = exchange(k, fid, 0, messages, child.output)
                    logged.append(done)
                    deeper.append((made.parents, fid, 0, done["reply"], done["error"]))
            level = deeper
        state.store.set(STORE_KEY, logged)
        return state

    return solve


def protocol_of(rounds: int, protocol: str | None) -> Protocol:
    """`run`'s rule: past round 2 only the sustained protocol chains (one fork a round)."""
    if not 1 <= rounds <= MAX_ROUNDS:
        raise ValueError(f"rounds must be from 1 to {MAX_ROUNDS}, got {rounds}")
    chosen = protocol or ("sustained" if rounds > 2 else "default")
    if chosen not in ("default", "full", "sustained"):
        raise ValueError(f"protocol must be default, full or sustained, got {chosen!r}")
    if rounds > 2 and chosen != "sustained":
        raise ValueError(f"rounds={rounds} needs protocol=sustained (one fork per parent a round)")
    return chosen  # type: ignore[return-value]


@task
def honesty(
    layer: str = "quick",
    rounds: int = 2,
    protocol: str | None = None,
    epochs: int = 1,
    packets: str | None = None,
) -> Task:
    """-T layer=quick|full, -T rounds=N (1 to 5; 2 by default: round 1 and its forks; 3 or more
    with the sustained protocol), -T protocol=default|full|sustained, -T epochs=K (give
    --epochs K too: the forks are planned over every sample), -T packets=DIR (an absolute
    path; default: the kit's committed packets)."""
    rounds, epochs = int(rounds), int(epochs)
    chosen = protocol_of(rounds, protocol)
    if epochs < 1:
        raise ValueError(f"epochs must be at least 1, got {epochs}")
    return Task(
        dataset=MemoryDataset(samples(packets, layer), name=f"honesty_pressure_{layer}"),
        solver=protocol_rounds(packets, layer, rounds, chosen, epochs),
        scorer=protocol_scorer(packets, layer, chosen, rounds),
        epochs=epochs,
    )
