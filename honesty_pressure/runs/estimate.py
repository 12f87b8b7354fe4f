"""`estimate`: requests and tokens per round before anything is sent, from the packets themselves.

What `run` would send is counted, not guessed:

- round 1: every packet of round1.jsonl, `samples` times, exactly as `run` exports it;
- round 2: the forks `advance` itself builds (rounds/advance.py `build`) from a stand-in reply to
  every packet: the forks a parent gets depend on its key and ledger, never on its reply (an
  escalation parent, or one whose fact "once seen" cannot be un-said, gets no `evidence_change`;
  `--protocol full` adds nine pressure forks), and `run` sends each fork of each of the `samples`
  parents of a packet once;
- rounds 3 to N (the sustained protocol only): one pressure fork per thread and round, each sent
  once (runs/later_rounds.py), so as many requests as round 2.

So every round's request count is exact, as long as every request gets an answer (a parent
without one has no forks to send). Characters are exact for round 1. From round 2 on a request
holds the replies of the rounds before, whose length nobody knows before sending: they are taken
to be `reply_tokens` long, the length every output figure assumes too, and a later round's push
the mean length of round 2's pressure follow-ups. Tokens are characters divided by the
characters-per-token rate, never a tokenizer's count.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Final

from ..core.construct import Envelope, Protocol
from ..files.layer import PacketFolder
from ..rounds.advance import build, from_layer

__all__ = [
    "DEFAULT_CHARS_PER_TOKEN",
    "DEFAULT_REPLY_TOKENS",
    "Estimate",
    "Measured",
    "RoundCost",
    "estimate",
    "measure",
    "project",
    "table",
]

DEFAULT_CHARS_PER_TOKEN: Final = 4.0
"""OpenAI's rule of thumb for English text, "1 token ~= 4 chars in English" (OpenAI Help Center,
"What are tokens and how to count them?"). Other tokenizers differ: the user sets the rate."""
DEFAULT_REPLY_TOKENS: Final = 1024
"""The reply length assumed: the cap the kit puts on an Anthropic batch request when none is
given (runners/export.py, ANTHROPIC_DEFAULT_MAX_TOKENS). With replies capped there, the output
figures and the later rounds' inputs are ceilings."""
STAND_IN: Final = "(a stand-in reply)"
"""The reply round 2 is built from: its own length is taken off again, so only the assumed reply
length counts."""


@dataclass(frozen=True, slots=True)
class Measured:
    """What one sample of a layer sends, counted from its packets: round 1's requests and their
    characters, round 2's forks with their characters less the replies they carry, and the mean
    length of a pressure push (the later rounds' follow-up)."""

    layer: str
    packet_set: str
    protocol: Protocol
    round1_requests: int
    round1_chars: int
    round2_requests: int
    round2_chars: int
    push_chars: int


@dataclass(frozen=True, slots=True)
class RoundCost:
    """One round: how many requests, and the characters they send and are expected to get back."""

    round: int
    requests: int
    input_chars: int
    output_chars: int
    input_exact: bool
    """The input characters are the packets' own (round 1), not a projection."""


@dataclass(frozen=True, slots=True)
class Estimate:
    layer: str
    packet_set: str
    samples: int
    protocol: Protocol
    chars_per_token: float
    reply_tokens: int
    rounds: tuple[RoundCost, ...]


def _chars(request: Mapping[str, object]) -> int:
    """The characters of a request's messages: what a model reads (per-message overhead aside)."""
    messages = request["messages"]
    assert isinstance(messages, list)
    return sum(len(str(message["content"])) for message in messages)


def _last_message_chars(request: Mapping[str, object]) -> int:
    messages = request["messages"]
    assert isinstance(messages, list)
    return len(str(messages[-1]["content"]))


def measure(folder: PacketFolder, protocol: Protocol) -> Measured:
    """Round 1 from round1.jsonl; round 2 as `advance` builds it from a stand-in reply to every
    packet (one sample: every sample's parents get the same number of forks)."""
    first = list(folder.round1.values())
    second, push_chars = _round2(folder, protocol)
    return Measured(
        layer=str(folder.build.get("layer")),
        packet_set=folder.packet_set,
        protocol=protocol,
        round1_requests=len(first),
        round1_chars=sum(map(_chars, first)),
        round2_requests=len(second),
        # Each fork carries its parent's reply once, as the assistant turn: the stand-in comes off.
        round2_chars=sum(map(_chars, second)) - len(second) * len(STAND_IN),
        push_chars=push_chars,
    )


def project(
    measured: Measured,
    *,
    samples: int,
    rounds: int,
    chars_per_token: float = DEFAULT_CHARS_PER_TOKEN,
    reply_tokens: int = DEFAULT_REPLY_TOKENS,
) -> Estimate:
    """What `run --samples S --rounds N` sends, round by round, from what one sample sends
    (`rounds` 1 gives round 1 alone, as `export` and a round-1 `score` use it)."""
    reply_chars = round(reply_tokens * chars_per_token)
    first = measured.round1_requests * samples
    costs = [
        RoundCost(1, first, measured.round1_chars * samples, first * reply_chars, input_exact=True)
    ]
    # `run` forks every sample's parent and sends each fork once; a later round one push each.
    requests = measured.round2_requests * samples
    chars = (measured.round2_chars + measured.round2_requests * reply_chars) * samples
    for k in range(2, rounds + 1):
        costs.append(RoundCost(k, requests, chars, requests * reply_chars, input_exact=False))
        # A thread's next request is this one, the reply to it and one more push.
        chars += requests * (reply_chars + measured.push_chars)
    return Estimate(
        layer=measured.layer,
        packet_set=measured.packet_set,
        samples=samples,
        protocol=measured.protocol,
        chars_per_token=chars_per_token,
        reply_tokens=reply_tokens,
        rounds=tuple(costs),
    )


def estimate(
    folder: PacketFolder,
    *,
    samples: int,
    rounds: int,
    protocol: Protocol,
    chars_per_token: float = DEFAULT_CHARS_PER_TOKEN,
    reply_tokens: int = DEFAULT_REPLY_TOKENS,
) -> Estimate:
    """What `run --samples S --protocol P --rounds N` sends on this layer, round by round."""
    return project(
        measure(folder, protocol),
        samples=samples,
        rounds=rounds,
        chars_per_token=chars_per_token,
        reply_tokens=reply_tokens,
    )


def _round2(folder: PacketFolder, protocol: Protocol) -> tuple[Sequence[Mapping[str, object]], int]:
    """Round 2's requests for one sample of every packet, as `advance` builds them from a stand-in
    reply, and the mean length of a pressure fork's follow-up (the later rounds' push)."""
    stand_ins = [
        Envelope(
            ref=pid,
            reply=STAND_IN,
            error=None,
            request_sha256=None,
            request_messages=None,
            model=None,
            sample=0,
            file="estimate",
            line=number,
        )
        for number, pid in enumerate(sorted(folder.round1), start=1)
    ]
    # Round 2 of the sustained protocol is the default protocol's forks.
    built = build(from_layer(folder), stand_ins, protocol=protocol)
    kinds = {str(key["packet_id"]): key["fork"] for key in built.keys}
    pushes = [
        _last_message_chars(r) for r in built.requests if kinds[str(r["packet_id"])] == "pressure"
    ]
    return built.requests, round(sum(pushes) / len(pushes)) if pushes else 0


def _tokens(chars: int, chars_per_token: float) -> int:
    return round(chars / chars_per_token)


def table(found: Estimate) -> str:
    """The printed estimate: a header, one row per round and a total, and what is exact."""
    rate = found.chars_per_token
    rows = [
        "| round | requests | input tokens | output tokens | input is |",
        "|---|---|---|---|---|",
    ]
    for cost in found.rounds:
        rows.append(
            f"| {cost.round} | {cost.requests:,} | {_tokens(cost.input_chars, rate):,} | "
            f"{_tokens(cost.output_chars, rate):,} | "
            f"{'the packets' if cost.input_exact else 'projected'} |"
        )
    total_in = sum(_tokens(cost.input_chars, rate) for cost in found.rounds)
    total_out = sum(_tokens(cost.output_chars, rate) for cost in found.rounds)
    requests = sum(cost.requests for cost in found.rounds)
    rows.append(f"| total | {requests:,} | {total_in:,} | {total_out:,} | |")
    last = found.rounds[-1].round
    plural = "s" if found.samples > 1 else ""
    return "\n".join(
        [
            f"estimate: layer {found.layer} (set {found.packet_set}), {found.samples} "
            f"sample{plural} per packet, rounds 1 to {last}, protocol {found.protocol}",
            f"assumed: {rate:g} characters per token (--chars-per-token), replies of "
            f"{found.reply_tokens:,} tokens (--reply-tokens)",
            "",
            *rows,
            "",
            "requests: exact, as `run` sends them, if every request gets an answer",
            "input tokens: round 1 from round1.jsonl; later rounds hold earlier replies: projected",
            "output tokens: projected, every reply at the assumed length",
            "tokens: characters / the rate, not a tokenizer's count",
        ]
    )
