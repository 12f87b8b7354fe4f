"""Minimal pairs: two items that read the same once the decisive value is masked (DESIGN.md 6a).

A **round-1 pair** is a source's `original` and one of its crossing twins (`alternative`,
`alternative_hard`); a **round-2 pair** is a triad's `evidence_change` and `evidence_confirm`.
A pair is *decisive* when the premise of the paired bar holds:

- the two texts are equal once the decisive value's rendering is replaced by one mask (same frame,
  sentence order and other facts; round 2: the same pressure sentence, frame and reason);
- the two values have the same **shape**: a number's rendering with every digit replaced by 0,
  so both have the same digit count and separators ("4,250 mg" and "3,875 mg" are both
  "0,000 mg"); a boolean or a category is masked whole and has no shape left to compare;
- their acceptable sets are disjoint.

Then a policy that does not read the decisive value sees the same request twice and answers it
the same way, so at most one member is acceptable: it scores 0 on the paired axes. A pair that
cannot be made decisive (no same-shape value fits the margins and keys, practice accepting a code
on both sides) is scored per item and counted as not decisive in build.json; it never counts in a
paired axis. `premise` is the one test; generation uses it to mark pairs and every command that
builds or reads a layer uses it to check them, so a breach is found wherever it comes from.
"""

from __future__ import annotations

import json
import re
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from functools import lru_cache
from typing import Final, Literal

from ..core.construct import Value
from ..domains.base import Domain

MASK: Final = "\u27e8value\u27e9"
"""What stands for the decisive value in a masked text (a string no phrasing contains)."""
CROSSING: Final = ("alternative", "alternative_hard")
"""The round-1 families paired with their source's original."""
EVIDENCE_PAIR: Final = ("evidence_change", "evidence_confirm")
BOUND: Final = "a policy that does not read the decisive value scores 0 on the paired axes"

Problem = Literal[
    "masked texts differ",
    "shapes differ",
    "acceptable sets overlap",
    "value not shown",
    "not a decisive fact",
]
_DIGIT = re.compile(r"[0-9]")


@lru_cache(maxsize=1 << 14, typed=True)
def shape(domain: Domain, key: str, value: Value) -> str:
    """What a reader blind to the value still sees of it: digits as 0 for a number, nothing for
    a boolean or a category (its whole rendering is masked). Memoised (domains hash by identity,
    `typed` keeps 1, 1.0 and True apart): the generator asks it of every candidate value of every
    twin, about 800,000 times for the committed seed."""
    fact = domain.fact(key)
    return _DIGIT.sub("0", fact.show(value)) if fact.kind == "number" else ""


def masked(text: str, shown: str) -> set[str]:
    """Every way of masking one occurrence of `shown` in `text` (MASK in its place). An
    occurrence inside a longer number ("9 weeks" in "19 weeks") is not one. Two texts differ only
    in the value when some masking of one equals some masking of the other: the value may also
    appear, as itself, in another fact's sentence."""
    if not shown:
        return set()
    pattern = r"(?<![0-9])(?<![0-9][.,])" + re.escape(shown) + r"(?![0-9])(?![.,][0-9])"
    return {text[: m.start()] + MASK + text[m.end() :] for m in re.finditer(pattern, text)}


def premise(
    domain: Domain,
    key: str,
    texts: tuple[str, str],
    values: tuple[Value, Value],
    acceptable: tuple[Sequence[str], Sequence[str]],
) -> Problem | None:
    """Why two items are not a decisive pair about `key` (None: they are)."""
    fact = next((f for f in domain.decisive if f.key == key), None)
    if fact is None:
        return "not a decisive fact"
    a, b = (masked(text, fact.show(value)) for text, value in zip(texts, values))
    if not a or not b:
        return "value not shown"
    if not a & b:
        return "masked texts differ"
    if shape(domain, key, values[0]) != shape(domain, key, values[1]):
        return "shapes differ"
    if set(acceptable[0]) & set(acceptable[1]):
        return "acceptable sets overlap"
    return None


def same_shape_first(domain: Domain, key: str, like: Value, values: Iterable[Value]) -> list[Value]:
    """`values` with those of `like`'s shape first (each part in its given order): generation
    takes the first that fits, so a pair is decisive wherever a same-shape value fits at all."""
    want = shape(domain, key, like)
    same: list[Value] = []
    other: list[Value] = []
    for value in values:
        (same if shape(domain, key, value) == want else other).append(value)
    return same + other


# ---- checking a layer's pairs from its files ---------------------------------------------------


@dataclass(frozen=True, slots=True, kw_only=True)
class PairCount:
    """Pairs of one domain (or of all): how many there are and how many are decisive."""

    pairs: int = 0
    decisive: int = 0

    def plus(self, decisive: bool) -> PairCount:
        return PairCount(pairs=self.pairs + 1, decisive=self.decisive + decisive)

    def as_json(self) -> dict[str, object]:
        share = f"{100 * self.decisive / self.pairs:.1f}" if self.pairs else None
        return {"pairs": self.pairs, "decisive": self.decisive, "decisive_percent": share}


def _user_text(request: Mapping[str, object]) -> str:
    messages = request.get("messages")
    assert isinstance(messages, list) and messages, "a request has messages"
    last = messages[-1]
    assert isinstance(last, Mapping)
    return str(last.get("content", ""))


def _head(request: Mapping[str, object]) -> list[object]:
    """Everything a request shows but its last message (system, earlier turns) and its menu."""
    messages = request.get("messages")
    assert isinstance(messages, list)
    return [messages[:-1], request.get("menu")]


def _members(key: Mapping[str, object]) -> tuple[str, Value, Value] | None:
    edit = key.get("edit")
    if not isinstance(edit, Mapping) or not isinstance(edit.get("slot"), str):
        return None
    return str(edit["slot"]), edit.get("from"), edit.get("to")  # type: ignore[return-value]


def round1_pairs(
    domains: Mapping[str, Domain],
    requests: Mapping[str, Mapping[str, object]],
    keys: Mapping[str, Mapping[str, object]],
) -> tuple[dict[str, PairCount], list[str]]:
    """Every round-1 pair of a layer: counts per domain, and one problem per pair whose key
    marks it decisive (`minimal_pair`) but whose texts, shapes or sets break the premise, or
    that the premise holds for but the key does not mark (a marking the scorer would miss)."""
    originals = {
        str(k["source_id"]): pid
        for pid, k in keys.items()
        if k.get("family") == "original" and k.get("fork") is None
    }
    counts: dict[str, PairCount] = {}
    problems = []
    for pid in sorted(keys):
        key = keys[pid]
        if key.get("family") not in CROSSING or key.get("fork") is not None:
            continue
        domain = domains[str(key["domain"])]
        partner = originals.get(str(key["source_id"]))
        marked = key.get("minimal_pair") is True
        found = _members(key)
        why: str | None
        if partner is None or found is None:
            why = "no original or no edit"
        elif _head(requests[partner]) != _head(requests[pid]):
            why = "system message or menu differ"
        else:
            slot, before, after = found
            why = premise(
                domain,
                slot,
                (_user_text(requests[partner]), _user_text(requests[pid])),
                (before, after),
                (_codes(keys[partner]), _codes(key)),
            )
        if marked and why is not None:
            problems.append(
                f"{pid} ({key['family']} of {key['source_id']}): marked a minimal pair, but {why}"
            )
        elif not marked and why is None:
            problems.append(
                f"{pid} ({key['family']} of {key['source_id']}): a minimal pair the key does not "
                "mark"
            )
        counts[domain.name] = counts.get(domain.name, PairCount()).plus(marked)
    return counts, problems


def round2_pairs(
    domains: Mapping[str, Domain],
    examples: Iterable[tuple[Mapping[str, object], Mapping[str, object]]],
) -> tuple[PairCount, list[str]]:
    """Every triad's change/confirm pair among round-k forks given as (request, key): the count,
    and one problem per marked pair that breaks the premise (or unmarked pair that keeps it)."""
    triads: dict[
        tuple[str, object, object], dict[str, tuple[Mapping[str, object], Mapping[str, object]]]
    ] = {}
    for request, key in examples:
        if key.get("fork") in EVIDENCE_PAIR:
            triads.setdefault(
                (str(key["parent"]), key.get("parent_sample"), key.get("pressure")), {}
            )[str(key["fork"])] = (request, key)
    count = PairCount()
    problems = []
    for triad in sorted(triads, key=str):
        members = triads[triad]
        if "evidence_change" not in members:
            continue  # an escalation parent: no change fork, listed by fork_pairs' caller
        (req_c, key_c), (req_f, key_f) = (
            members["evidence_change"],
            members.get("evidence_confirm", members["evidence_change"]),
        )
        marked = key_c.get("minimal_pair") is True
        if marked != (key_f.get("minimal_pair") is True):
            problems.append(
                f"{key_c['packet_id']}: the change and the confirm of one triad disagree on "
                "minimal_pair"
            )
        a, b = _members(key_c), _members(key_f)
        why: str | None
        if a is None or b is None or a[0] != b[0]:
            why = "the two forks name different facts"
        elif _head(req_c) != _head(req_f):
            why = "the parent's messages or menu differ"
        else:
            why = premise(
                domains[str(key_c["domain"])],
                a[0],
                (_user_text(req_c), _user_text(req_f)),
                (a[2], b[2]),
                (_codes(key_c), _codes(key_f)),
            )
        if marked and why is not None:
            problems.append(
                f"{key_c['packet_id']} and {key_f['packet_id']} (triad of {triad[0]}): marked a "
                f"minimal pair, but {why}"
            )
        elif not marked and why is None:
            problems.append(
                f"{key_c['packet_id']} and {key_f['packet_id']} (triad of {triad[0]}): a minimal "
                "pair the keys do not mark"
            )
        count = count.plus(marked)
    return count, problems


def _codes(key: Mapping[str, object]) -> list[str]:
    acceptable = key.get("acceptable")
    return [str(c) for c in acceptable] if isinstance(acceptable, list) else []


def total(counts: Mapping[str, PairCount]) -> PairCount:
    return PairCount(
        pairs=sum(c.pairs for c in counts.values()),
        decisive=sum(c.decisive for c in counts.values()),
    )


# ---- the premise checked on a layer (prepare, verify, selfcheck) -------------------------------


@dataclass(frozen=True, slots=True, kw_only=True)
class PremiseCheck:
    """Every minimal pair of one layer (round 1) and of its round-2 forks, when built: counts and
    breaches. A breach is exit status 1 wherever it is found."""

    round1: Mapping[str, PairCount]
    round2: PairCount | None
    escalation_parents: int
    problems: tuple[str, ...]
    once_seen_parents: int = 0
    """Parents with a confirm fork and no change fork that are not escalations: a report practice
    never lets go of (Domain.once_seen) is never un-said either (fork.fork_parts)."""

    def line(self) -> str:
        """What selfcheck prints: the bound, and the pairs it rests on."""
        one = total(self.round1)
        text = f"{BOUND}: {one.decisive} of {one.pairs} round-1 pairs decisive"
        if self.round2 is not None:
            text += (
                f", {self.round2.decisive} of {self.round2.pairs} round-2 change/confirm "
                f"pairs ({self.escalation_parents} escalation parents"
            )
            text += (
                f" and {self.once_seen_parents} once-seen parents have no change fork)"
                if self.once_seen_parents
                else " have no change fork)"
            )
        return text + (
            "; premise holds on every pair"
            if not self.problems
            else f"; {len(self.problems)} pairs break the premise"
        )


def _domains() -> Mapping[str, Domain]:
    from ..domains import active  # here: the domain modules import this package's base

    return {d.name: d for d in active()}


def check_layer(
    requests: Mapping[str, Mapping[str, object]],
    keys: Mapping[str, Mapping[str, object]],
    forks: Iterable[tuple[Mapping[str, object], Mapping[str, object]]] | None = None,
    *,
    where: str = "",
) -> PremiseCheck:
    """The premise on every round-1 pair of a layer and, given its round-2 forks as (request,
    key), on every change/confirm pair."""
    domains = _domains()
    counts, problems = round1_pairs(domains, requests, keys)
    second: PairCount | None = None
    escalation = once_seen = 0
    if forks is not None:
        listed = list(forks)
        second, more = round2_pairs(domains, listed)
        problems += more
        kinds: dict[tuple[object, object], set[object]] = {}
        states: dict[tuple[object, object], object] = {}
        for _, key in listed:
            parent = (key.get("parent"), key.get("parent_sample"))
            kinds.setdefault(parent, set()).add(key.get("fork"))
            states[parent] = key.get("parent_state")
        # A triad without a change fork: an escalation parent (a red flag is never retracted) or a
        # once-seen report (fork_parts); counted apart, so neither is mistaken for the other.
        unchanged = [
            p for p, k in kinds.items() if "evidence_confirm" in k and "evidence_change" not in k
        ]
        escalation = sum(1 for p in unchanged if states[p] == "escalation")
        once_seen = len(unchanged) - escalation
    prefix = f"{where}: " if where else ""
    return PremiseCheck(
        round1=counts,
        round2=second,
        escalation_parents=escalation,
        problems=tuple(prefix + p for p in problems),
        once_seen_parents=once_seen,
    )


def check_files(files: Mapping[str, bytes], *, where: str = "") -> PremiseCheck:
    """`check_layer` on one layer's round1.jsonl and key.jsonl as bytes (prepare checks what it is
    about to write)."""

    def keyed(data: bytes) -> dict[str, Mapping[str, object]]:
        out: dict[str, Mapping[str, object]] = {}
        for line in data.decode("utf-8").splitlines():
            record = json.loads(line)
            out[str(record["packet_id"])] = record
        return out

    return check_layer(keyed(files["round1.jsonl"]), keyed(files["key.jsonl"]), where=where)
