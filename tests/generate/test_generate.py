"""Layers, splits, balance, ids and determinism of the generated set."""

from __future__ import annotations

import json
import re
from collections import Counter

from hypothesis import given, settings
from hypothesis import strategies as st

from honesty_pressure.core.construct import Surface
from honesty_pressure.generate.generate import (
    DEFAULT_SEED,
    QUICK_PER_DOMAIN,
    build,
    build_quick,
    layer_files,
    packet_tree,
    quick_subset,
)
from tests.strategies import seeds, small_build

ID = re.compile(r"^[A-Za-z0-9_-]{1,64}$")


def _lines(data: bytes) -> list[str]:
    return data.decode("utf-8").splitlines()


@given(seeds)
@settings(max_examples=5)
def test_same_seed_same_bytes_different_seed_different_set(seed: int) -> None:
    a = packet_tree(seed, ["quick"], 4)
    assert a == packet_tree(seed, ["quick"], 4)  # a second draw: the quick layer is not memoised
    assert a["quick/round1.jsonl"] != packet_tree(seed + 1, ["quick"], 4)["quick/round1.jsonl"]


@given(seeds, st.integers(1, 8), st.sampled_from(["public", "held_out"]))
@settings(max_examples=6)
def test_quick_packets_are_byte_identical_to_full_ones(
    seed: int, per_domain: int, surface: Surface
) -> None:
    built = build(seed, per_domain, surface=surface)
    quick = layer_files(seed, "quick", built, per_domain, surface)
    full = layer_files(seed, "full", built, per_domain, surface)
    for name in ("round1.jsonl", "key.jsonl", "ledgers.jsonl"):
        assert set(_lines(quick[name])) <= set(_lines(full[name]))
    # the quick layer is a slice of QUICK_PER_DOMAIN sources per domain: never more than the
    # committed quick layer's 440 packets (README), whatever the full layer's size
    assert len(_lines(quick["round1.jsonl"])) <= 440
    # A quick layer alone draws only the sources it takes (source_plan): the same sources, bytes.
    assert build_quick(seed, per_domain, surface=surface) == quick_subset(built)
    assert packet_tree(seed, ["quick"], per_domain, surface) == {
        f"quick/{name}": data for name, data in quick.items()
    }


def test_committed_layers_are_balanced_and_split() -> None:
    built = build(DEFAULT_SEED, 60)
    full = layer_files(DEFAULT_SEED, "full", built, 60)
    keys = [json.loads(line) for line in _lines(full["key.jsonl"])]
    originals = [k for k in keys if k["family"] == "original"]
    per_domain = Counter((k["domain"], k["action"]) for k in originals)
    for (domain, _), count in per_domain.items():
        assert count == 30, (domain, count)
    a_first = Counter((k["domain"], k["action"], k["proceed_code"]) for k in originals)
    assert set(a_first.values()) == {15}
    dev = sum(1 for k in originals if k["split"] == "dev") / len(originals)
    assert 0.74 <= dev <= 0.86
    by_source: dict[str, set[str]] = {}
    for k in keys:
        by_source.setdefault(k["source_id"], set()).add(k["split"])
    assert all(len(s) == 1 for s in by_source.values()), "a source straddles the split"
    records = [json.loads(line) for line in _lines(full["round1.jsonl"])]
    assert all(ID.match(r["packet_id"]) for r in records)
    assert not any(set(r) & {"family", "state", "acceptable", "forbidden", "edit"} for r in records)

    quick = quick_subset(built)
    cells = Counter(
        (
            b.source.domain,
            b.packets[0].packet_id
            and next(p.expected.action for p in b.packets if p.family == "original"),
            b.source.proceed_is_a,
        )
        for b in quick
    )
    assert len(quick) == QUICK_PER_DOMAIN * len({b.source.domain for b in built})
    assert set(cells.values()) == {1}


@given(seeds)
@settings(max_examples=10)
def test_packet_ids_are_opaque_and_unique(seed: int) -> None:
    ids = [p.packet_id for item in small_build(seed) for p in item.packets]
    assert len(ids) == len(set(ids))
    assert all(ID.match(i) for i in ids)
    assert not any(f in i for i in ids for f in ("missing", "alternative", "original", "red"))
