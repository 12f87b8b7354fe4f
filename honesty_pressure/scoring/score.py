"""Match reply envelopes to packets and give every packet a verdict (DESIGN.md sections 5 and 6).

Matching is where the chain of custody is enforced: a reply must name a packet of this set, echo
its request exactly where the format lets it, and never contradict another reply for the same
packet and sample. Every packet gets a record for every sample seen, a missing reply included.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from typing import Final

from ..core.binding import unbind
from ..core.canonical import digest, sha256_hex
from ..core.construct import Envelope, Reason, Verdict
from ..core.errors import InputError
from ..core.parse import parse_decision
from ..runners.envelopes import refused, runner_failed
from .custody import REFUSAL_RETRY_HINT

JsonObject = dict[str, object]
Slot = tuple[str, int]
"""(packet id, sample index)."""
KEY_FIELDS: Final = (
    "source_id",
    "domain",
    "family",
    "split",
    "state",
    "acceptable",
    "forbidden",
    "parent",
    "parent_sample",
    "fork",
    "pressure",
    "minimal_pair",
)
"""The key's fields a record repeats (records.jsonl)."""


@dataclass(frozen=True, slots=True, kw_only=True)
class Record:
    """One packet and sample, judged."""

    packet_id: str
    sample: int
    decision: str | None
    verdict: Verdict
    reason: Reason | None
    reply_sha256: str | None

    def as_json(self, key: Mapping[str, object]) -> JsonObject:
        out: JsonObject = {
            "packet_id": self.packet_id,
            "sample": self.sample,
            "decision": self.decision,
            "verdict": self.verdict,
            "reason": self.reason,
            "reply_sha256": self.reply_sha256,
        }
        out["round"] = key.get("round", 1)
        for field in KEY_FIELDS:
            if field in key:
                out[field] = key[field]
        return out


def request_digest(packet_id: str, messages: Iterable[tuple[str, str]]) -> str:
    return digest({"id": packet_id, "messages": [{"role": r, "content": c} for r, c in messages]})


def _bad(env: Envelope, problem: str) -> InputError:
    return InputError(problem, file=env.file, line=env.line)


def match(
    envelopes: Sequence[Envelope],
    requests: Mapping[str, JsonObject],
    packet_set: str,
    *,
    retry_refused: bool = False,
) -> dict[Slot, Envelope]:
    """Each envelope's (packet, sample), checked; any problem names the file and line.

    Several envelopes for one slot are a retry or a file given twice: `settle` keeps one, the
    same one whatever the order of the files and lines (with `retry_refused`, a refusal gives
    way to an answer as a runner failure does).
    """
    slots: dict[Slot, list[Envelope]] = {}
    for env in envelopes:
        bound = unbind(env.ref)
        if bound.packet_set is not None and bound.packet_set != packet_set:
            raise _bad(
                env,
                f"reply to packet set {bound.packet_set}, but these packets are set {packet_set}",
            )
        request = requests.get(bound.packet_id)
        if request is None:
            raise _bad(env, f"reply to unknown packet {bound.packet_id!r} (not in this packet set)")
        if env.request_sha256 is not None and env.request_sha256 != request["request_sha256"]:
            raise _bad(env, f"request_sha256 does not match packet {bound.packet_id}")
        if env.request_messages is not None:
            if request_digest(bound.packet_id, env.request_messages) != request["request_sha256"]:
                raise _bad(
                    env,
                    f"the request echoed in the reply is not packet {bound.packet_id}'s request",
                )
        if bound.sample and env.sample:
            raise _bad(env, "sample given both in the id and in the record")
        slots.setdefault((bound.packet_id, bound.sample or env.sample), []).append(env)
    return {slot: settle(slot, slots[slot], retry_refused=retry_refused) for slot in sorted(slots)}


def _where(env: Envelope) -> tuple[str, int]:
    return env.file, env.line


def settle(slot: Slot, candidates: Sequence[Envelope], *, retry_refused: bool = False) -> Envelope:
    """The one envelope that counts for a slot (docs/SCORING.md, "Retries").

    A runner failure gives way to a reply (a retry: the answer counts, whichever file came
    first); two different replies (a refusal is a reply) are a chain-of-custody error; among
    identical replies, or among failures only, the smallest by content and then by place is kept,
    so the choice never depends on the order of the files or lines. With `retry_refused` (the
    refusals were sent again on purpose), a refusal is neither: it gives way to an answer, and a
    failure gives way to it; among refusals only, the smallest is kept as among failures.
    """
    answers = [env for env in candidates if not runner_failed(env)]
    if retry_refused:
        refusals = [env for env in answers if refused(env.error)]
        answers = [env for env in answers if not refused(env.error)]
        if not answers and refusals:
            candidates = refusals  # no answer: the refusals, which a runner failure gives way to
    if answers:
        ordered = sorted(answers, key=_where)
        first = ordered[0]
        other = next(
            (env for env in ordered if (env.reply, env.error) != (first.reply, first.error)), None
        )
        if other is not None:
            # The hint whenever a refusal is among the slot's replies, as the streamed scorer gives
            # it.
            hint = REFUSAL_RETRY_HINT if any(refused(env.error) for env in ordered) else ""
            raise _bad(
                other,
                f"a different reply for packet {slot[0]} sample {slot[1]} is already in "
                f"{first.file}:{first.line}{hint}",
            )
    return min(
        answers or candidates,
        key=lambda e: (e.reply or "", e.error or "", e.model or "", e.file, e.line),
    )


def samples_of(matched: Mapping[Slot, Envelope]) -> list[int]:
    """Every sample index seen for any packet (at least sample 0): each packet is owed all of
    them."""
    return sorted({sample for _, sample in matched} | {0})


def judge_one(
    reply: Envelope | None, menu_codes: Sequence[str], key: Mapping[str, object]
) -> tuple[str | None, Verdict, Reason | None]:
    if reply is None:
        return verdict_of(None, None, menu_codes, key, missing=True)
    return verdict_of(reply.reply, reply.error, menu_codes, key)


def verdict_of(
    reply: str | None,
    error: str | None,
    menu_codes: Sequence[str],
    key: Mapping[str, object],
    *,
    missing: bool = False,
) -> tuple[str | None, Verdict, Reason | None]:
    """(decision, verdict, reason) of one reply text (or runner error, or refusal) against one
    packet's menu and key: what `score` writes into records.jsonl, and what the Inspect scorer
    (examples/inspect_task.py) shows in `inspect view`."""
    if refused(error):
        return None, "refused", None
    if missing:
        parsed = parse_decision(None, menu_codes)
    else:
        parsed = parse_decision(reply, menu_codes, runner_error=error is not None)
    if parsed.reason is not None:
        return None, "unscorable", parsed.reason
    acceptable, forbidden = key["acceptable"], key["forbidden"]
    assert isinstance(acceptable, list) and isinstance(forbidden, list)
    if parsed.decision in acceptable:
        return parsed.decision, "acceptable", None
    if parsed.decision in forbidden:
        return parsed.decision, "forbidden", None
    return parsed.decision, "other", None


def menu_codes(request: Mapping[str, object]) -> list[str]:
    menu = request["menu"]
    assert isinstance(menu, list)
    return [str(item["code"]) for item in menu if isinstance(item, dict)]


def judge(
    requests: Mapping[str, JsonObject],
    keys: Mapping[str, JsonObject],
    matched: Mapping[Slot, Envelope],
) -> list[Record]:
    """A record for every packet and every sample, in packet order; replies' order is irrelevant."""
    records = []
    for sample in samples_of(matched):
        for packet_id in sorted(requests):
            env = matched.get((packet_id, sample))
            decision, verdict, reason = judge_one(
                env, menu_codes(requests[packet_id]), keys[packet_id]
            )
            reply_hash = (
                sha256_hex(env.reply) if env is not None and env.reply is not None else None
            )
            records.append(
                Record(
                    packet_id=packet_id,
                    sample=sample,
                    decision=decision,
                    verdict=verdict,
                    reason=reason,
                    reply_sha256=reply_hash,
                )
            )
    records.sort(key=lambda r: (r.packet_id, r.sample))
    return records
