"""Issue 40 item 1: the ids a runner sees carry nothing (DESIGN.md 6a, "What the bound assumes").

A runner that reads a whole round sees every id at once. Over a fresh seed, per domain, no id
feature (its leading or trailing hex digit, its length, its place in the file, which is sorted by
id) predicts the family, the fork kind or the key beyond chance, and the ids of one source, or of
one parent's forks, share nothing that ids of unrelated items do not: no prefix, no digits, no
mask, no neighbourhood in the file. The ids are pure functions of (seed, item), so the family and
fork-kind checks need no packets built; the key check uses the committed full layer (memoised)
and a fresh seed's quick layer.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable, Hashable, Sequence
from functools import lru_cache

import pytest

from honesty_pressure.core.construct import ForkKind, PressureType
from honesty_pressure.domains import DOMAINS
from honesty_pressure.generate.generate import (
    DEFAULT_SEED,
    SOURCES_PER_DOMAIN,
    build,
    build_quick,
    packet_ids,
    split_of,
)
from honesty_pressure.rounds.fork import fork_id, fork_origin, plan
from tests.keys import id_parent

FRESH_SEED = 402_617_113_907
MARGIN = 0.10
"""The most a feature's lookup may beat the majority label on the held-back split: several
standard errors of a test split of 132 to 240 ids, and far below what any real leak gives."""

Item = tuple[str, str, str, Hashable]
"""(id, domain, group: the source or the parent, label)."""


def _source_ids(domain_code: str) -> list[str]:
    return [f"{domain_code}-{n:03d}" for n in range(SOURCES_PER_DOMAIN)]


@lru_cache(maxsize=1)
def round1_items() -> tuple[Item, ...]:
    """Every packet id of the fresh seed's full layer with its family."""
    return tuple(
        (ident, domain.name, source, family)
        for domain in DOMAINS
        for source in _source_ids(domain.code)
        for family, ident in packet_ids(FRESH_SEED, source).items()
    )


@lru_cache(maxsize=1)
def round2_items() -> tuple[Item, ...]:
    """Every fork id of the default protocol over the fresh seed's full layer (one sample; the
    red-flag packets as escalation parents), with its fork kind."""
    domain_of = {ident: domain for ident, domain, _, _ in round1_items()}
    escalation = {(ident, 0) for ident, _, _, family in round1_items() if family == "red_flag"}
    kinds = plan([(i, 0) for i in domain_of], FRESH_SEED, "default", escalation)
    return tuple(
        (fork_id(FRESH_SEED, id_parent(parent, 0), kind, pressure), domain_of[parent], parent, kind)
        for (parent, _), forks in kinds.items()
        for kind, pressure in forks
    )


@lru_cache(maxsize=1)
def round3_items() -> tuple[Item, ...]:
    """Round 3's fork ids (a neutral and a pressure continuation of each of 3,000 round-2
    forks): a later round's ids are made the same way, from ids 5 digits longer."""
    parents = [(ident, domain) for ident, domain, _, _ in round2_items()[:3000]]
    continued: tuple[tuple[ForkKind, PressureType | None], ...] = (
        ("neutral", None),
        ("pressure", "social_pressure"),
    )
    return tuple(
        (fork_id(FRESH_SEED, id_parent(parent, 0), kind, pressure), domain, parent, kind)
        for parent, domain in parents
        for kind, pressure in continued
    )


def _features(items: Sequence[Item]) -> dict[str, Callable[[str], Hashable]]:
    """What a runner can read off one id: its digits, its length, its place in the file."""
    rank = {ident: n for n, ident in enumerate(sorted(i[0] for i in items))}
    return {
        "first hex digit": lambda ident: ident[0],
        "last hex digit": lambda ident: ident[-1],
        "two last hex digits": lambda ident: ident[-2:],
        "length": len,
        "place in the file (tenths)": lambda ident: 10 * rank[ident] // len(rank),
    }


def _lookup_gain(items: Sequence[Item], feature: Callable[[str], Hashable]) -> float:
    """Accuracy over the majority label of a feature-value -> label table fitted on the `dev`
    groups and scored on the `test` groups (a group never straddles the split)."""
    train = [i for i in items if split_of(i[2]) == "dev"]
    test = [i for i in items if split_of(i[2]) == "test"]
    table: dict[Hashable, Counter[Hashable]] = {}
    for ident, _, _, label in train:
        table.setdefault(feature(ident), Counter())[label] += 1
    majority = Counter(label for *_, label in train).most_common(1)[0][0]
    right = sum(
        1
        for ident, _, _, label in test
        if (table[feature(ident)].most_common(1)[0][0] if feature(ident) in table else majority)
        == label
    )
    baseline = max(Counter(label for *_, label in test).values())
    return (right - baseline) / len(test)


def _assert_no_feature_predicts(items: Sequence[Item], what: str) -> None:
    features = _features(items)
    gains = {
        (domain.name, name): _lookup_gain([i for i in items if i[1] == domain.name], feature)
        for domain in DOMAINS
        for name, feature in features.items()
    }
    over = {k: round(v, 3) for k, v in gains.items() if v > MARGIN}
    assert not over, f"id features that predict the {what} beyond chance: {over}"


def test_round1_ids_are_sixteen_hex_digits_that_name_no_source() -> None:
    items = round1_items()
    assert len({i[0] for i in items}) == len(items) == len(DOMAINS) * SOURCES_PER_DOMAIN * 11
    for ident, _, source, _ in items:
        assert len(ident) == 16 and set(ident) <= set("0123456789abcdef"), ident
        assert source.split("-")[0] not in ident


def test_no_round1_id_feature_predicts_the_family() -> None:
    _assert_no_feature_predicts(round1_items(), "family")


def test_no_fork_id_feature_predicts_the_fork_kind() -> None:
    items = round2_items()
    assert {len(i[0]) for i in items} == {21}
    _assert_no_feature_predicts(items, "fork kind")


def _key_items(built_sets: Sequence[Sequence[object]]) -> list[Item]:
    out: list[Item] = []
    for built in built_sets:
        for item in built:
            for packet in item.packets:  # type: ignore[attr-defined]
                label = (packet.expected.state, packet.expected.action)
                out.append((packet.packet_id, packet.ledger.domain, packet.source_id, label))
    return out


@pytest.mark.parametrize("seed", [DEFAULT_SEED, FRESH_SEED], ids=["committed full", "fresh quick"])
def test_no_round1_id_feature_predicts_the_key(seed: int) -> None:
    built = build(seed) if seed == DEFAULT_SEED else build_quick(seed)
    items = _key_items([built])
    if seed == FRESH_SEED:
        # 44 ids a domain: only the pooled lookup has the numbers to say anything.
        for name, feature in _features(items).items():
            assert _lookup_gain(items, feature) <= MARGIN, name
    else:
        _assert_no_feature_predicts(items, "key")


def _shared(a: str, b: str) -> tuple[int, int]:
    """(common prefix length, hex digits equal at equal places) of two ids."""
    prefix = next((n for n, (x, y) in enumerate(zip(a, b)) if x != y), min(len(a), len(b)))
    return prefix, sum(x == y for x, y in zip(a, b))


def _within_and_across(items: Sequence[Item]) -> tuple[float, float, float, float]:
    """Mean common prefix and equal digits of two ids of one group, and of two ids of
    neighbouring groups in a fixed order (unrelated items, the same number of pairs)."""
    groups: dict[str, list[str]] = {}
    for ident, _, group, _ in items:
        groups.setdefault(group, []).append(ident)
    names = sorted(groups)
    within = [_shared(a, b) for g in names for a, b in zip(groups[g], groups[g][1:])]
    across = [
        _shared(a, b) for g, h in zip(names, names[1:]) for a, b in zip(groups[g], groups[h][1:])
    ]

    def mean(pairs: list[tuple[int, int]], at: int) -> float:
        return sum(p[at] for p in pairs) / len(pairs)

    return mean(within, 0), mean(across, 0), mean(within, 1), mean(across, 1)


@pytest.mark.parametrize("rounds", ["round 1", "round 2", "round 3"])
def test_the_ids_of_one_source_or_parent_share_nothing(rounds: str) -> None:
    items = {"round 1": round1_items, "round 2": round2_items, "round 3": round3_items}[rounds]()
    assert len({len(i[0]) for i in items}) == 1
    prefix_in, prefix_out, equal_in, equal_out = _within_and_across(items)
    # Random hex: a common prefix of 1/15 of a digit on average, and one digit in 16 equal.
    assert prefix_in < 0.15 and prefix_out < 0.15, (prefix_in, prefix_out)
    assert abs(equal_in - equal_out) < 0.1, (equal_in, equal_out)


def test_a_parents_forks_share_no_mask() -> None:
    # Issue 40's finding: every fork of a parent was (sample * 32 + slot) XOR one mask, so any two
    # of them differed only in their last five bits, and enumerating the slot's parameters named
    # the change fork. Now two forks of one parent agree in their last 20 bits' high 15 (the
    # old sample field) as often as unrelated ids do: 1 in 32,768.
    by_parent: dict[str, list[int]] = {}
    for ident, _, parent, _ in round2_items():
        by_parent.setdefault(parent, []).append(int(ident[-5:], 16))
    same = sum(
        (a ^ b) < 32 for suffixes in by_parent.values() for a, b in zip(suffixes, suffixes[1:])
    )
    assert same <= 3, same


def test_the_file_order_does_not_group_a_source() -> None:
    # round1.jsonl (and every later round's file) is sorted by id: a keyed shuffle. A source's
    # packets sit as far apart as random places do (a third of the file on average), not side
    # by side as when ids began with the source id.
    items = round1_items()
    rank = {ident: n for n, ident in enumerate(sorted(i[0] for i in items))}
    groups: dict[str, list[int]] = {}
    for ident, _, source, _ in items:
        groups.setdefault(source, []).append(rank[ident])
    gaps = [abs(a - b) for places in groups.values() for a, b in zip(places, places[1:])]
    assert 0.3 < sum(gaps) / len(gaps) / len(items) < 0.37


def test_the_kit_maps_a_fork_id_back_with_the_seed() -> None:
    for ident, _, parent, kind in round2_items()[:500]:
        origin = fork_origin(FRESH_SEED, ident)
        assert origin is not None and origin[0] == parent and origin[1] == 0
        assert origin[2][0] == kind
    assert fork_origin(FRESH_SEED + 1, round2_items()[0][0]) != fork_origin(
        FRESH_SEED, round2_items()[0][0]
    )
    assert fork_origin(FRESH_SEED, "not-an-id") is None
