"""Issue 18, item 3: decoys never decide, in the kit's closed world or in a practitioner's open one.

A negative control (a vague decoy, a second value for a decoy, a benign flag, a distractor, a
paraphrase) keeps its source's key; the slot a vague or conflicting decoy touches is a decoy or a
decisive fact no value of which could change the answer; and with every decoy fact at every value
of its range, the rule's action and what practice also accepts stay as they are (so a decoy named
or moved in round 2 cannot decide either).
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping

import pytest

from honesty_pressure.core.construct import Value
from honesty_pressure.domains import DOMAINS, by_name
from honesty_pressure.generate.evidence import outcomes

from .corpus import Case, cases, offenders, round1, round2

NAMES = [d.name for d in DOMAINS]
CONTROLS = ("paraphrase", "distractor", "vague_decoy", "conflicting_decoy", "benign_flag")


def _key(case: Case) -> tuple[str, frozenset[str], frozenset[str]]:
    return case.state, case.acceptable, case.forbidden


def _originals(items: Iterable[Case]) -> dict[tuple[str, str], Case]:
    return {(c.corpus, c.source_id): c for c in items if c.family == "original"}


@pytest.mark.parametrize("domain", NAMES)
def test_negative_controls_keep_the_original_key(domain: str) -> None:
    originals = _originals(round1(domain))
    bad = [
        c
        for c in round1(domain)
        if c.family in CONTROLS and _key(c) != _key(originals[(c.corpus, c.source_id)])
    ]
    assert not bad, offenders(bad)


def _slot(case: Case) -> str | None:
    """The fact a vague or conflicting decoy touches."""
    if case.edit is None:
        return None
    if case.edit.slot == "conflict":
        after = case.edit.after
        assert isinstance(after, list)
        return str(after[0])
    return case.edit.slot


def _moot_in_the_open(domain: str, facts: Mapping[str, Value], key: str) -> bool:
    """No value of `key` in its whole range (coherent or not) changes the rule's action."""
    others = {k: v for k, v in facts.items() if k != key}
    return len(outcomes(by_name(domain), others, (key,), coherent_only=False)) == 1


@pytest.mark.parametrize("domain", NAMES)
def test_a_vague_decoy_never_removes_a_fact_that_decides(domain: str) -> None:
    """A decisive fact left vague must be moot in the open world: no value of its whole range
    changes the answer (the closed world's coherence may not stand in for it: a nurse asks a
    baby's age, she does not infer it from which vaccines were due). A second report of a
    decisive fact is a decoy only when both values give the same key (the test above)."""
    spec = by_name(domain)
    decisive = {f.key for f in spec.decisive}
    originals = _originals(round1(domain))
    bad = []
    for case in round1(domain):
        if case.family != "vague_decoy":
            continue
        slot = _slot(case)
        assert slot is not None
        if slot in decisive and (
            spec.fact(slot).asked
            or not _moot_in_the_open(
                domain, originals[(case.corpus, case.source_id)].ledger.fact_dict(), slot
            )
        ):
            bad.append(case)
    assert not bad, offenders(bad)


@pytest.mark.parametrize("domain", NAMES)
def test_no_decoy_value_changes_the_answer_in_the_open_world(domain: str) -> None:
    """Every complete set of facts in the corpus, every decoy at every value of its range."""
    spec = by_name(domain)
    decisive = [f.key for f in spec.decisive]
    seen: dict[tuple[tuple[str, Value], ...], Case] = {}
    for case in cases(domain):
        items = case.ledger.facts
        if items not in seen and all(k in dict(items) for k in decisive):
            seen[items] = case
    bad = []
    for items, case in seen.items():
        facts: dict[str, Value] = dict(items)
        answer = (spec.rule(facts), spec.also(facts))
        for decoy in spec.decoys:
            if any(
                (spec.rule(moved := {**facts, decoy.key: v}), spec.also(moved)) != answer
                for v in decoy.values()
            ):
                bad.append(case)
                break
    assert not bad, offenders(bad)


@pytest.mark.parametrize("domain", NAMES)
def test_round_two_news_about_a_decoy_keeps_the_key(domain: str) -> None:
    decoys = {f.key for f in by_name(domain).decoys}
    parents = {(c.corpus, c.packet_id): c for c in round1(domain)}
    bad = [
        c
        for c in round2(domain)
        if c.edit is not None
        and c.edit.slot in decoys
        and _key(c) != _key(parents[(c.corpus, str(c.parent_id))])
    ]
    assert not bad, offenders(bad)
