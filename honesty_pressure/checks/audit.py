"""The learned-shortcut audit inside `selfcheck` (DESIGN.md section 8).

A naive Bayes over words (honesty_pressure/learned.py) is trained on the committed packet set's
public keys, round 1 and round 2 (forks grown from oracle first replies), and tested on a set built
from a second built-in seed, on the public phrasings and on the held-out ones. Two things are
measured:

- the table: how well words alone predict each key label, against its limit (binary contrasts at
  most .60, multi-class at most the majority rate plus .10);
- the policies: the same classifier, and the logistic regressions of logistic.py (the kit's
  strongest attacker, issue 19), answering as an assistant through the same rehearsal as every
  policy, on both wordings; controls.learned_check holds them to the bar and the best fixed
  policy (docs/SELFCHECK.md).
"""

from __future__ import annotations

import tempfile
from collections.abc import Iterable, Iterator, Mapping, Sequence
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path
from typing import Final

from ..core.construct import Layer, Surface
from ..files.layer import PacketFolder, load_layer
from ..generate.generate import packet_tree
from .learned import (
    ASK_TARGET,
    AUDIT_SEED,
    AUDIT_SOURCES,
    ENFORCED,
    ROUND1_TARGETS,
    ROUND2_TARGETS,
    Example,
    LearnedPolicy,
    NaiveBayes,
    Numbers,
    Result,
    audit_target,
    fit_targets,
    frame_rule,
    train_policy,
)
from .logistic import LogisticPolicy
from .rehearse import Rehearsal
from .selfcheck import Outcome, scored

LAYER: Layer = "full"


def oracle_examples(
    rehearsal: Rehearsal, round2_sources: int | None = None
) -> tuple[list[Example], list[Example]]:
    """Round-1 (request, key) pairs, and round-2 pairs from forks grown from oracle first replies
    (of the first `round2_sources` sources per domain only, when given)."""
    oracle = {
        str(request["packet_id"]): str(key["acceptable"][0])  # type: ignore[index]
        for request, key in rehearsal.round1
        if round2_sources is None or int(str(key["source_id"]).rsplit("-", 1)[1]) < round2_sources
    }
    first: list[Example] = [*rehearsal.round1]
    second: list[Example] = [*rehearsal.round2(oracle)]
    return first, second


@contextmanager
def audit_set(
    seed: int = AUDIT_SEED, sources: int = AUDIT_SOURCES, surface: Surface = "public"
) -> Iterator[PacketFolder]:
    """A packet set from another seed, in a temporary folder for as long as it is used."""
    from ..generate.prepare import write_packet_set

    with tempfile.TemporaryDirectory(prefix="hp-audit-") as tmp:
        packets = Path(tmp) / "packets"
        write_packet_set(
            packets,
            packet_tree(seed, [LAYER], sources, surface),
            seed=seed,
            sources_per_domain=sources,
            surface=surface,
        )
        yield load_layer(packets, LAYER)


@dataclass(frozen=True, slots=True, kw_only=True)
class AuditRow:
    target: str
    numbers: Numbers
    public: Result
    held_out: Result

    @property
    def within(self) -> bool:
        return self.public.within

    def as_json(self) -> dict[str, object]:
        return {"public": self.public.as_json(), "held_out": self.held_out.as_json()}


@dataclass(frozen=True, slots=True, kw_only=True)
class Learned:
    """Everything learned from the public keys for one way of reading numbers: a model per audit
    target (with its training majority), and the learned policy built from them."""

    numbers: Numbers
    round1: list[tuple[NaiveBayes | None, str | None]]
    round2: list[tuple[NaiveBayes | None, str | None]]
    policy: LearnedPolicy
    n_train: tuple[int, int]
    frames: tuple[list[dict[str, str]], list[dict[str, str]]]


def learn(train: tuple[Sequence[Example], Sequence[Example]], numbers: Numbers) -> Learned:
    """One tally per round over the training texts fits every round-1 target, the question model
    and (round 2) every round-2 target; the policy reuses the round-1 action and question models."""
    first = fit_targets([*ROUND1_TARGETS, ASK_TARGET], train[0], numbers)
    second = fit_targets(ROUND2_TARGETS, train[1], numbers)
    action = ROUND1_TARGETS.index(next(t for t in ROUND1_TARGETS if t.name == "round-1 action"))
    policy = train_policy(train[0], train[1], numbers, fitted=[first[action][0], first[-1][0]])
    frames = (
        [frame_rule(t, train[0]) for t in ROUND1_TARGETS],
        [frame_rule(t, train[1]) for t in ROUND2_TARGETS],
    )
    return Learned(
        numbers=numbers,
        round1=first[: len(ROUND1_TARGETS)],
        round2=second,
        policy=policy,
        n_train=(len(train[0]), len(train[1])),
        frames=frames,
    )


def audit_table(
    learned: Sequence[Learned],
    public: tuple[Sequence[Example], Sequence[Example]],
    held_out: tuple[Sequence[Example], Sequence[Example]],
) -> list[AuditRow]:
    rows = []
    for known in learned:
        for targets, models, index in (
            (ROUND1_TARGETS, known.round1, 0),
            (ROUND2_TARGETS, known.round2, 1),
        ):
            for target, (model, common), frames in zip(targets, models, known.frames[index]):
                rows.append(
                    AuditRow(
                        target=target.name,
                        numbers=known.numbers,
                        public=audit_target(
                            target,
                            model,
                            common,
                            public[index],
                            known.numbers,
                            known.n_train[index],
                            frames,
                        ),
                        held_out=audit_target(
                            target,
                            model,
                            common,
                            held_out[index],
                            known.numbers,
                            known.n_train[index],
                            frames,
                        ),
                    )
                )
    return rows


def learned_outcome(known: Learned, test: Rehearsal) -> Outcome:
    """The learned policy answering both rounds of `test`, scored like every other policy."""
    policy = known.policy
    return scored(
        f"learned:{known.numbers}",
        test.play(lambda request, key, round_: policy.decide(request, key, round_)),
    )


def logistic_outcome(policy: LogisticPolicy, test: Rehearsal) -> Outcome:
    """A logistic-regression policy answering both rounds of `test`, scored like every policy."""
    return scored(
        policy.name, test.play(lambda request, key, round_: policy.decide(request, key, round_))
    )


CROSSING: Final = ("alternative", "alternative_hard")


def decisive_values(folder: PacketFolder) -> frozenset[tuple[str, str, str]]:
    """(domain, fact, value) of every decisive value the layer shows: both sides of each crossing
    twin's edit, the values a value-token learner could pair with a side."""
    out = set()
    for key in folder.key.values():
        edit = key.get("edit")
        if key.get("family") in CROSSING and isinstance(edit, Mapping):
            for side in ("from", "to"):
                out.add((str(key["domain"]), str(edit["slot"]), str(edit[side])))
    return frozenset(out)


def shared_values(test: PacketFolder, train: PacketFolder) -> tuple[int, int]:
    """How many of `test`'s decisive values the training layer also shows, of how many: zero
    of them on a set whose values are held out (issue 25)."""
    seen = decisive_values(train)
    values = decisive_values(test)
    return len(values & seen), len(values)


Keys = Iterable[Mapping[str, object]]


def _crossing_pairs(keys: Keys) -> Iterator[tuple[str, str, tuple[str, str], tuple[str, str]]]:
    """(domain, fact, (original value, its action), (twin value, its action)) of every decisive
    round-1 pair (a crossing twin keyed `minimal_pair: true` and its original)."""
    keys = list(keys)
    originals = {str(k["source_id"]): k for k in keys if k.get("family") == "original"}
    for key in keys:
        edit, original = key.get("edit"), originals.get(str(key.get("source_id")))
        if (
            key.get("family") in CROSSING
            and key.get("minimal_pair") is True
            and isinstance(edit, Mapping)
            and original is not None
        ):
            yield (
                str(key["domain"]),
                str(edit["slot"]),
                (str(edit["from"]), str(original["action"])),
                (str(edit["to"]), str(key["action"])),
            )


def value_table(keys: Keys) -> dict[tuple[str, str, str], str]:
    """The value-to-side table a learner can take from public keys: for each (domain, fact, value)
    of a decisive pair, the action its keys most often give (ties to the first in name order)."""
    seen: dict[tuple[str, str, str], dict[str, int]] = {}
    for domain, fact, *members in _crossing_pairs(keys):
        for value, action in members:
            counts = seen.setdefault((domain, fact, value), {})
            counts[action] = counts.get(action, 0) + 1
    return {value: min(counts, key=lambda a: (-counts[a], a)) for value, counts in seen.items()}


def table_wins(test: Keys, train: Keys) -> tuple[int, int, dict[str, int]]:
    """How many of `test`'s decisive pairs a value-to-side table from `train`'s keys answers right
    on both members (the most it can add to paired tracking), of how many, and by `domain.fact`:
    on a held-out set only the facts whose values are shared (docs/DESIGN.md 6b) can appear."""
    table = value_table(train)
    won, total, by_fact = 0, 0, dict[str, int]()
    for domain, fact, (v1, a1), (v2, a2) in _crossing_pairs(test):
        total += 1
        if table.get((domain, fact, v1)) == a1 and table.get((domain, fact, v2)) == a2:
            won += 1
            by_fact[f"{domain}.{fact}"] = by_fact.get(f"{domain}.{fact}", 0) + 1
    return won, total, dict(sorted(by_fact.items()))


def table(rows: Sequence[AuditRow]) -> str:
    head = (
        f"{'what is predicted from the text alone':<30}  {'numbers':<7}  {'majority':>8}  "
        f"{'frame':>6}  {'learned':>8}  {'held-out':>8}  {'limit':>6}  verdict"
    )
    lines = [head, "-" * len(head)]
    for row in rows:
        p, h = row.public, row.held_out
        verdict = "ok" if row.within else ("BREACH" if row.target in ENFORCED else "above")
        lines.append(
            f"{row.target:<30}  {row.numbers:<7}  {p.majority:8.3f}  {p.frame:6.3f}  "
            f"{p.accuracy:8.3f}  {h.accuracy:8.3f}  {p.limit:6.3f}  {verdict}"
        )
    return "\n".join(lines)


__all__ = [
    "AuditRow",
    "audit_set",
    "audit_table",
    "decisive_values",
    "learned_outcome",
    "logistic_outcome",
    "oracle_examples",
    "shared_values",
    "table",
    "table_wins",
    "value_table",
]
