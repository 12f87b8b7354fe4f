"""Properties of twins, negative controls and keys over random seeds, for every domain (and a
synthetic one that exercises every feature), on small generated sets."""

from __future__ import annotations

import re
from functools import lru_cache

import pytest
from hypothesis import given, settings

from honesty_pressure.core.construct import TWIN_FAMILIES, Ledger, Surface
from honesty_pressure.domains import DOMAINS
from honesty_pressure.domains.base import Domain, grid_domain
from honesty_pressure.generate.evidence import edge, evaluate, outcomes, placed
from honesty_pressure.generate.generate import Built, build
from honesty_pressure.generate.menu import action_code, decision_codes
from honesty_pressure.generate.render import word_count
from honesty_pressure.generate.twins import changed_slots, coherent, continuable
from tests.strategies import seeds
from tests.toydomain import TOY

ALL: tuple[Domain, ...] = (*DOMAINS, TOY)
UNCHANGED_KEY = (
    "original",
    "paraphrase",
    "distractor",
    "vague_decoy",
    "conflicting_decoy",
    "benign_flag",
)


@lru_cache(maxsize=64)
def built(domain: Domain, seed: int, surface: Surface = "public") -> tuple[Built, ...]:
    return tuple(build(seed, 2, (domain,), surface))


def _sentences(text: str) -> list[str]:
    return [s for s in re.split(r"(?<=[.?!])\s+", text) if s]


def _numbers_placed(domain: Domain, ledger: Ledger) -> list[str]:
    """Decisive numbers that sit within their margin on the proceed side (there must be none)."""
    facts = ledger.fact_dict()
    if not all(f.key in facts for f in domain.decisive):
        return []
    bad = []
    reported = [facts] + (
        [{**facts, ledger.conflict[0]: ledger.conflict[1]}] if ledger.conflict else []
    )
    for values in reported:
        for fact in domain.decisive:
            if fact.kind == "number":
                at = edge(domain, values, fact.key)
                if at is not None and not placed(fact, at, int(values[fact.key]), "allowed"):
                    bad.append(f"{fact.key}={values[fact.key]}")
    return bad


@pytest.mark.parametrize("domain", ALL, ids=lambda d: d.name)
@given(seed=seeds)
@settings(max_examples=8, deadline=None)
def test_each_twin_changes_one_slot_and_the_key_is_the_one_key_function(
    domain: Domain, seed: int
) -> None:
    items = built(domain, seed)
    domain = grid_domain(domain, "public")  # what the packets were drawn with (issue 25)
    for item in items:
        original = item.source.ledger
        for packet in item.packets:
            changed = changed_slots(original, packet.ledger)
            if packet.family in ("original", "paraphrase"):
                assert changed == set()
            else:
                assert len(changed) == 1, (packet.packet_id, packet.family, changed)
                assert packet.edit is not None and packet.edit.slot in changed
            expected = evaluate(domain, packet.ledger)
            assert packet.expected == expected
            assert (packet.acceptable, packet.forbidden) == decision_codes(
                expected, item.source.proceed_is_a
            )
            assert coherent(domain, packet.ledger.fact_dict()), (
                packet.packet_id,
                domain.coherent(packet.ledger.fact_dict()),
            )
            assert not _numbers_placed(domain, packet.ledger), (
                packet.packet_id,
                _numbers_placed(domain, packet.ledger),
            )
            assert continuable(domain, packet.ledger), packet.packet_id


@pytest.mark.parametrize("domain", ALL, ids=lambda d: d.name)
@given(seed=seeds)
@settings(max_examples=8, deadline=None)
def test_families_do_what_they_say(domain: Domain, seed: int) -> None:
    items = built(domain, seed)
    domain = grid_domain(domain, "public")  # what the packets were drawn with (issue 25)
    for item in items:
        facts = item.source.ledger.fact_dict()
        action = domain.rule(facts)
        by_family = {p.family: p for p in item.packets}
        original = by_family["original"]
        proceed = action_code("proceed", item.source.proceed_is_a)
        for packet in item.packets:
            edit = packet.edit
            if packet.family in UNCHANGED_KEY:
                # Negative controls and controls: the key is exactly the original's.
                assert (packet.expected, packet.acceptable, packet.forbidden) == (
                    original.expected,
                    original.acceptable,
                    original.forbidden,
                )
            if packet.family == "alternative" and "alternative_hard" in by_family:
                assert packet.ledger != by_family["alternative_hard"].ledger, (
                    "an easy and a hard twin never coincide"
                )
            if packet.family == "missing":
                assert edit is not None and edit.after is None
                assert packet.expected.state == "insufficient" and packet.expected.ask == edit.slot
                rest = {k: v for k, v in facts.items() if k != edit.slot}
                assert outcomes(domain, rest, (edit.slot,)) == {"proceed", "hold_back"}
            elif packet.family == "vague_decoy":
                assert edit is not None and edit.after is None
                fact = domain.fact(edit.slot)
                # A decoy, or a decisive fact the others settle.
                rest = {k: v for k, v in facts.items() if k != edit.slot}
                assert fact.role == "decoy" or outcomes(domain, rest, (edit.slot,)) == {action}
            elif packet.family in ("alternative", "alternative_hard"):
                assert edit is not None and packet.expected.action not in (None, action)
                fact = domain.fact(edit.slot)
                if fact.kind == "number":
                    at = edge(domain, facts, edit.slot)
                    assert at is not None
                    how = "hard" if packet.family == "alternative_hard" else "clear"
                    assert placed(fact, at, int(edit.after), how), (packet.packet_id, edit)  # type: ignore[arg-type]
                    assert packet.family == "alternative" or fact.hard
                else:
                    assert packet.family == "alternative"
            elif packet.family in ("conflicting", "conflicting_decoy"):
                assert packet.ledger.conflict is not None
                key, other = packet.ledger.conflict
                fact = domain.fact(key)
                if fact.kind == "number" and fact.drift > 0:
                    assert (
                        abs(int(other) - int(facts[key])) <= fact.drift
                    )  # a plausible discrepancy
                straddles = domain.rule({**facts, key: other}) != action
                if packet.family == "conflicting":
                    assert straddles and fact.role == "decisive"
                    assert packet.expected.state == "contradiction" and packet.expected.ask == key
                else:
                    assert not straddles
            elif packet.family == "red_flag":
                flag = domain.red_flags[packet.ledger.red_flag]  # type: ignore[index]
                hold = action_code("hold_back", item.source.proceed_is_a)
                assert packet.expected.state == "escalation"
                assert packet.acceptable == (("ESCALATE", hold) if flag.stop_ok else ("ESCALATE",))
                assert packet.forbidden == (proceed,)
            if packet.expected.state in ("insufficient", "contradiction"):
                assert packet.forbidden == (proceed,)
                assert (
                    action_code("hold_back", item.source.proceed_is_a) in packet.acceptable
                ) == bool(domain.doubt)


@pytest.mark.parametrize("domain", ALL, ids=lambda d: d.name)
@given(seed=seeds)
@settings(max_examples=5, deadline=None)
def test_text_edits_touch_only_the_edited_sentence(domain: Domain, seed: int) -> None:
    for item in built(domain, seed):
        by_family = {p.family: p for p in item.packets}
        assert len({(p.menu, p.system) for p in item.packets}) == 1
        original = _sentences(by_family["original"].user)
        paraphrase = _sentences(by_family["paraphrase"].user)
        assert not set(original) & set(paraphrase), (
            "a paraphrase shares a sentence with its original"
        )
        for family in (
            *TWIN_FAMILIES,
            "distractor",
            "vague_decoy",
            "conflicting_decoy",
            "benign_flag",
        ):
            if family not in by_family:
                continue
            twin = _sentences(by_family[family].user)
            only_twin = [s for s in twin if s not in original]
            only_orig = [s for s in original if s not in twin]
            assert len(only_twin) == 1 and len(only_orig) <= 1, (family, only_twin, only_orig)
        for packet in item.packets:
            assert 40 <= word_count(packet.user) <= 160 or domain is TOY, (
                packet.packet_id,
                word_count(packet.user),
            )


@pytest.mark.parametrize("domain", ALL, ids=lambda d: d.name)
@given(seed=seeds)
@settings(max_examples=3, deadline=None)
def test_held_out_sets_share_no_sentence_with_public_ones(domain: Domain, seed: int) -> None:
    public = {s for item in built(domain, seed) for p in item.packets for s in _sentences(p.user)}
    held = {
        s
        for item in built(domain, seed, "held_out")
        for p in item.packets
        for s in _sentences(p.user)
    }
    assert not public & held, sorted(public & held)[:3]
    same = [
        (a.packet_id, b.packet_id)
        for x, y in zip(built(domain, seed), built(domain, seed, "held_out"))
        for a, b in zip(x.packets, y.packets)
    ]
    assert all(a == b for a, b in same), "the held-out set is the same worlds, said differently"
