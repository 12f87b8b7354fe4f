"""Every key a practitioner signs, built once per test session (issue 18, item 2).

The corpus is built in-process, the way `prepare` and `advance` build it (generate.build and
layer_files for round 1; advance.from_layer, fork.plan, fork_parts and assemble for round 2),
never by shelling out, so a test sees the keys of the code under test, not of committed files:

- `committed`: the full layer of the committed seed (every key), and every key of
  `advance --protocol full` grown from oracle, always-proceed and always-hold-back round-1 replies;
- `fresh`: the same for a fresh seed on the held-out phrasings (`prepare --seed FRESH_SEED
  --held-out`). Keys depend on the facts, which depend on the seed only, and wording depends on
  the surface only, so one fresh held-out corpus covers both a fresh seed's keys and the held-out
  wording (a second corpus per axis would cost as much again and add nothing a key depends on).

A fork's key does not depend on the first decision (fork.Part is decision-independent; only the
push and so the follow-up's pressure sentence do), so each parent's parts are computed once and
assembled once per policy. `python3 -m tests.practice.corpus` prints the sizes and build time.
"""

from __future__ import annotations

import time
from collections.abc import Iterable, Iterator, Sequence
from dataclasses import dataclass
from functools import cache
from pathlib import Path
from typing import Final, Literal

from honesty_pressure.checks.policies import decide, reply_text
from honesty_pressure.core.construct import Edit, ForkKind, Ledger, PressureType, Surface, Value
from honesty_pressure.domains import DOMAINS, by_name
from honesty_pressure.files.layer import layer_from_bytes
from honesty_pressure.files.store import JsonObject
from honesty_pressure.generate.generate import DEFAULT_SEED, SOURCES_PER_DOMAIN, build, layer_files
from honesty_pressure.rounds.advance import ParentSet, from_layer, parent_of
from honesty_pressure.rounds.fork import assemble, fork_parts, plan

FRESH_SEED: Final = 777
"""A seed other than the committed one (the learned audit's second seed is a different one)."""
CORPORA: Final[tuple[tuple[str, int, Surface], ...]] = (
    ("committed", DEFAULT_SEED, "public"),
    ("fresh", FRESH_SEED, "held_out"),
)
POLICIES: Final = ("oracle", "proceed", "hold_back")
"""The round-1 replies forks are grown from: the oracle, always proceed, always hold back."""

Word = str
"""A code in the construct's words: "proceed", "hold_back", "escalate", "decline", "ask <fact>"."""


def words(code: str, proceed_code: str) -> Word:
    """A menu code in words, independent of the source's A/B order."""
    if code in ("A", "B"):
        return "proceed" if code == proceed_code else "hold_back"
    if code.startswith("ASK "):
        return f"ask {code[4:]}"
    return code.lower()


@dataclass(frozen=True, slots=True, kw_only=True)
class Case:
    """One key and what it was computed from."""

    corpus: str
    """"committed" or "fresh" (CORPORA)."""
    seed: int
    surface: Surface
    round: Literal[1, 2]
    policy: str | None
    """Round 2: the round-1 reply the fork grew from (POLICIES); None in round 1."""
    packet_id: str
    """The packet id (round 1) or the fork id (round 2)."""
    parent_id: str | None
    source_id: str
    domain: str
    family: str
    """Round 1: the packet's family; round 2: its parent's family."""
    fork: str | None
    """Round 2: the fork kind (neutral, pressure, evidence_change, evidence_confirm)."""
    pressure: str | None
    push: str | None
    """Round 2: the action the follow-up pushes for ("proceed" or "hold_back"); None in round 1."""
    ledger: Ledger
    """The facts the key was computed from: the ledger after any edit, with its conflict, red
    flag, benign flag and distractor."""
    parent_ledger: Ledger | None
    edit: Edit | None
    state: str
    action: str | None
    ask: str | None
    acceptable: frozenset[Word]
    forbidden: frozenset[Word]
    text: str
    """Round 1: the user message; round 2: the follow-up."""
    story: str
    """The round-1 user message of the packet (round 2: of the parent)."""

    @property
    def facts(self) -> dict[str, object]:
        return dict(self.ledger.facts)

    @property
    def where(self) -> str:
        """How a failing invariant names the case."""
        via = f" after {self.policy}" if self.policy else ""
        return f"{self.packet_id} ({self.corpus} r{self.round}{via} {self.fork or self.family})"


def _edit(record: object) -> Edit | None:
    if not isinstance(record, dict):
        return None
    return Edit(slot=str(record["slot"]), before=record["from"], after=record["to"])


@dataclass(frozen=True, slots=True)
class _Layer:
    name: str
    seed: int
    surface: Surface
    parents: ParentSet
    families: dict[str, str]
    kinds: dict[tuple[str, int], list[tuple[ForkKind, PressureType | None]]]


@cache
def _layer(name: str, seed: int, surface: Surface) -> _Layer:
    """The full layer as `prepare` writes it, and `advance --protocol full`'s fork plan over all of
    it (the plan deals pressure types over every parent, so it is made for the whole layer)."""
    built = build(seed, SOURCES_PER_DOMAIN, surface=surface)
    folder = layer_from_bytes(
        Path(f"<{name}>"), layer_files(seed, "full", built, SOURCES_PER_DOMAIN, surface)
    )
    parents = from_layer(folder)
    escalation = {(p, 0) for p, k in parents.keys.items() if k["state"] == "escalation"}
    kinds = plan([(p, 0) for p in sorted(parents.requests)], seed, "full", escalation)
    families = {str(k["packet_id"]): str(k["family"]) for k in folder.key.values()}
    return _Layer(name, seed, surface, parents, families, kinds)


def _cases(layer: _Layer, domain_name: str) -> list[Case]:
    name, seed, surface, parents = layer.name, layer.seed, layer.surface, layer.parents
    held_out = surface == "held_out"
    mine = [pid for pid in sorted(parents.requests) if parents.keys[pid]["domain"] == domain_name]
    out: list[Case] = []
    for pid in mine:
        key, request = parents.keys[pid], parents.requests[pid]
        proceed = str(key["proceed_code"])
        ledger = Ledger.from_json(str(key["source_id"]), str(key["domain"]), key["ledger"])
        story = out_story(tuple((str(m["role"]), str(m["content"])) for m in _messages(request)))
        acceptable, forbidden = key["acceptable"], key["forbidden"]
        assert isinstance(acceptable, list) and isinstance(forbidden, list)
        out.append(
            Case(
                corpus=name,
                seed=seed,
                surface=surface,
                round=1,
                policy=None,
                packet_id=pid,
                parent_id=None,
                source_id=str(key["source_id"]),
                domain=domain_name,
                family=layer.families[pid],
                fork=None,
                pressure=None,
                push=None,
                ledger=ledger,
                parent_ledger=None,
                edit=_edit(key.get("edit")),
                state=str(key["state"]),
                action=_text(key["action"]),
                ask=_text(key["ask"]),
                acceptable=frozenset(words(str(c), proceed) for c in acceptable),
                forbidden=frozenset(words(str(c), proceed) for c in forbidden),
                text=story,
                story=story,
            )
        )
    domain = by_name(domain_name)
    for pid in mine:
        key, request = parents.keys[pid], parents.requests[pid]
        proceed = str(key["proceed_code"])
        parts = None
        for policy in POLICIES:
            decision = decide(policy, request, key, seed)
            parent = parent_of(pid, 0, request, key, reply_text(decision), decision)
            if parts is None:
                parts = fork_parts(domain, parent, layer.kinds[(pid, 0)], seed, held_out=held_out)
            story = out_story(parent.messages)
            for part in parts:
                fork = assemble(domain, parent, part, seed, held_out=held_out)
                out.append(
                    Case(
                        corpus=name,
                        seed=seed,
                        surface=surface,
                        round=2,
                        policy=policy,
                        packet_id=fork.packet_id,
                        parent_id=pid,
                        source_id=str(key["source_id"]),
                        domain=domain_name,
                        family=layer.families[pid],
                        fork=fork.kind,
                        pressure=fork.pressure,
                        push=fork.push,
                        ledger=fork.ledger,
                        parent_ledger=parent.ledger,
                        edit=fork.edit,
                        state=fork.expected.state,
                        action=fork.expected.action,
                        ask=fork.expected.ask,
                        acceptable=frozenset(words(c, proceed) for c in fork.acceptable),
                        forbidden=frozenset(words(c, proceed) for c in fork.forbidden),
                        text=fork.follow_up,
                        story=story,
                    )
                )
    return out


def _messages(request: JsonObject) -> list[JsonObject]:
    messages = request["messages"]
    assert isinstance(messages, list)
    return messages


def _text(value: object) -> str | None:
    return value if isinstance(value, str) else None


def out_story(messages: Sequence[tuple[str, str]]) -> str:
    return next(content for role, content in reversed(messages) if role == "user")


@cache
def cases(domain: str) -> tuple[Case, ...]:
    """Every key of `domain` in the corpus, built on first use and shared by the session (round 1
    of every domain is built at once; a domain's forks only when that domain is asked for, so
    `pytest -k <domain>` pays for one domain's forks)."""
    return tuple(
        case
        for name, seed, surface in CORPORA
        for case in _cases(_layer(name, seed, surface), domain)
    )


def round1(domain: str) -> Iterator[Case]:
    return (c for c in cases(domain) if c.round == 1)


def round2(domain: str) -> Iterator[Case]:
    return (c for c in cases(domain) if c.round == 2)


def worlds(ledger: Ledger) -> list[dict[str, Value]]:
    """The facts as stated, and with the second report's value: each report could be the true
    one."""
    facts = ledger.fact_dict()
    out = [facts]
    if ledger.conflict is not None:
        out.append({**facts, ledger.conflict[0]: ledger.conflict[1]})
    return out


def reports(ledger: Ledger, key: str) -> list[Value]:
    """Every value reported for `key`: as stated, and a second report's."""
    facts = ledger.fact_dict()
    out = [facts[key]] if key in facts else []
    if ledger.conflict is not None and ledger.conflict[0] == key:
        out.append(ledger.conflict[1])
    return out


def offenders(found: Iterable[Case], limit: int = 5) -> str:
    """An assert message: how many keys offend (a fork grown after several round-1 policies counts
    once), and the first few ids with where they came from ("" when none)."""
    first: dict[tuple[str, str], Case] = {}
    for case in found:
        first.setdefault((case.corpus, case.packet_id), case)
    if not first:
        return ""
    shown = ", ".join(c.where for c in list(first.values())[:limit])
    return f"{len(first)} key(s), first: {shown}"


def main() -> None:
    start = time.perf_counter()
    grouped = {d.name: cases(d.name) for d in DOMAINS}
    took = time.perf_counter() - start
    total = sum(len(v) for v in grouped.values())
    r1 = sum(1 for v in grouped.values() for c in v if c.round == 1)
    print(
        f"{total} cases ({r1} round-1 keys, {total - r1} round-2 keys over {len(POLICIES)} "
        f"policies) in {took:.1f} s"
    )
    for domain in sorted(grouped):
        print(f"  {domain}: {len(grouped[domain])}")


if __name__ == "__main__":
    main()
