"""Every registered domain meets the contract in domains/base.py and DESIGN.md section 2."""

from __future__ import annotations

import re
from dataclasses import replace

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from honesty_pressure.checks.domaincheck import phrasing_slots
from honesty_pressure.core.draws import Draw
from honesty_pressure.domains import DOMAINS, by_name
from honesty_pressure.domains.base import MIN_PHRASINGS, Domain, Say, grid_domain
from honesty_pressure.generate.evidence import boundary, with_value
from tests.rendering import GAP_WORDS, rendering_problems
from tests.strategies import facts_for
from tests.toydomain import TOY

ALARM_WORDS = re.compile(
    r"\b(emergency|urgent|dangerous|alarming|scary|terrifying|911|panic)\b", re.I
)


def test_enough_domains_from_enough_areas() -> None:
    assert len(DOMAINS) >= 8
    assert len({d.area for d in DOMAINS}) >= 3
    assert all(len(d.red_flags) >= 3 and len(d.benign_flags) >= 3 for d in DOMAINS)
    assert len({d.code for d in DOMAINS}) == len(DOMAINS)
    assert len({d.name for d in DOMAINS}) == len(DOMAINS)


@pytest.mark.parametrize("domain", DOMAINS, ids=lambda d: d.name)
def test_domain_shape(domain: Domain) -> None:
    assert re.fullmatch(r"[a-z]{3,5}", domain.code)
    assert len(domain.decisive) >= 2
    assert any(f.kind == "number" for f in domain.decisive)
    assert len(domain.decoys) >= 2
    assert len(domain.distractors) >= 4
    assert domain.thresholds and all(
        t.source.strip() and t.practice.strip() for t in domain.thresholds
    )
    assert all(f.why.strip() for f in domain.red_flags) and all(
        d.why.strip() for d in domain.benign_flags + domain.distractors
    )
    assert (
        domain.risk
        and domain.push_proceed
        and domain.push_hold_back
        and not domain.push_proceed.startswith("just ")
    )
    for name, say in phrasing_slots(domain):
        assert len(say.public) >= MIN_PHRASINGS and len(say.held_out) >= MIN_PHRASINGS, name
        assert len(set(say.every)) == len(say.every), f"{name}: a phrasing repeats"
        assert not set(say.public) & set(say.held_out), f"{name}: the halves share a phrasing"
    for fact in domain.facts:
        assert re.fullmatch(r"[a-z][a-z0-9_]*", fact.key)
        assert all("{v}" in t for t in fact.says.every + fact.clause.every), fact.key
        assert all("{c}" in t for t in fact.second.every), fact.key
        assert not any("{" in t for t in fact.vague.every + fact.recheck.every), fact.key
        assert not any(GAP_WORDS.search(t) for t in fact.vague.every), fact.key
        if fact.kind == "number":
            assert fact.lo < fact.hi and fact.step >= 1 and (fact.hi - fact.lo) % fact.step == 0, (
                fact.key
            )
            assert fact.margin >= 0 and fact.drift >= 0, fact.key
            assert fact.margin == 0 or fact.margin_why.strip(), (
                f"{fact.key}: a margin needs its source"
            )
        for value in fact.values():
            said = {t.format(v=fact.show(value)) for t in fact.says.every}
            assert len(said) == len(fact.says.every), f"{fact.key}: phrasings collide for {value!r}"
            clause = fact.clause.public[0].format(v=fact.show(value))
            assert all("{" not in t.format(c=clause) for t in fact.second.every)
    for flag in domain.red_flags:
        assert not any(ALARM_WORDS.search(t) for t in flag.says.every), (
            f"red flag {flag.name} is said with alarm"
        )


@pytest.mark.parametrize("domain", DOMAINS, ids=lambda d: d.name)
def test_every_phrasing_renders_for_every_value(domain: Domain) -> None:
    """One check of every domain's words, in place of a copy in each tests/test_domain_*.py."""
    assert rendering_problems(domain) == []


def test_rendering_problems_name_each_broken_phrasing() -> None:
    """The shared check can fail: a copy of leftovers with broken words is reported line by line."""
    domain = by_name("leftovers")
    fact = domain.facts[0]
    broken = replace(
        fact,
        vague=Say(("I forgot  the time",) + fact.vague.public[1:], fact.vague.held_out),
        second=Say(("{c} and {c}.",) + fact.second.public[1:], fact.second.held_out),
        recheck=Say(fact.recheck.public[:2] + ("Since then.",), fact.recheck.held_out),
    )
    assert rendering_problems(
        replace(domain, facts=(broken, *domain.facts[1:]), benign_flags=domain.benign_flags[:2])
    ) == [
        "too few red flags, benign flags or distractors",
        "minutes_out.vague: 'I forgot  the time'",
        "minutes_out.vague: a gap word in 'I forgot  the time'",
        "minutes_out.second: not one sentence with one {c}: '{c} and {c}.'",
        "minutes_out.recheck: not a lower-case clause: 'Since then.'",
    ]


@pytest.mark.parametrize("domain", DOMAINS, ids=lambda d: d.name)
def test_rule_reads_only_the_decisive_facts_in_drawn_worlds(domain: Domain) -> None:
    """Every value of every decoy, in 300 drawn worlds, leaves the rule's action where it was."""
    for i in range(300):
        facts = domain.world(Draw(7, f"case-{i}", "world"))
        action = domain.rule(facts)
        for fact in domain.decoys:
            for value in fact.values():
                assert domain.rule({**facts, fact.key: value}) == action, (fact.key, value)


@pytest.mark.parametrize("domain", (*DOMAINS, TOY), ids=lambda d: d.name)
def test_worlds_are_on_the_grid_and_coherent(domain: Domain) -> None:
    for i in range(300):
        facts = domain.world(Draw(1, f"world-{i}", "world"))
        assert set(facts) == {f.key for f in domain.facts}
        for fact in domain.facts:
            assert facts[fact.key] in fact.values() and isinstance(facts[fact.key], bool) == (
                fact.kind == "boolean"
            ), fact.key
        assert not domain.coherent(facts), domain.coherent(facts)


@pytest.mark.parametrize("domain", (*DOMAINS, TOY), ids=lambda d: d.name)
@given(data=st.data())
@settings(max_examples=60)
def test_rule_is_monotone_in_each_number_and_ignores_decoys(
    domain: Domain, data: st.DataObject
) -> None:
    facts = data.draw(facts_for(domain))
    action = domain.rule(facts)  # type: ignore[arg-type]
    for fact in domain.decoys:
        other = data.draw(st.sampled_from(fact.values()))
        assert domain.rule(with_value(facts, fact.key, other)) == action  # type: ignore[arg-type]
    for fact in domain.decisive:
        if fact.kind != "number":
            continue
        walk = [domain.rule(with_value(facts, fact.key, v)) for v in fact.values()]  # type: ignore[arg-type]
        changes = sum(1 for a, b in zip(walk, walk[1:]) if a != b)
        assert changes <= 1, f"{fact.key} is not monotone"


@pytest.mark.parametrize("domain", (*DOMAINS, TOY), ids=lambda d: d.name)
@given(data=st.data())
@settings(max_examples=40)
def test_the_rule_flips_exactly_at_the_bisected_threshold(
    domain: Domain, data: st.DataObject
) -> None:
    """boundary() names two neighbouring values of the grid, and the action changes exactly
    there."""
    facts = data.draw(facts_for(domain))
    for fact in domain.decisive:
        if fact.kind != "number":
            continue
        edge = boundary(domain, facts, fact.key)  # type: ignore[arg-type]
        walk = {v: domain.rule(with_value(facts, fact.key, v)) for v in fact.values()}  # type: ignore[arg-type]
        if edge is None:
            assert len(set(walk.values())) == 1
            continue
        assert abs(edge.across - edge.inside) == fact.step
        assert walk[edge.inside] == domain.rule(facts) != walk[edge.across]  # type: ignore[arg-type]
        for value, action in walk.items():
            past = (int(value) - edge.across) * edge.direction >= 0
            assert (action == walk[edge.across]) == past


def test_domains_doc_is_current() -> None:
    from pathlib import Path

    from honesty_pressure.generate.catalog import markdown

    doc = Path(__file__).resolve().parents[2] / "docs" / "DOMAINS.md"
    assert doc.read_text(encoding="utf-8") == markdown(), (
        "run: python -m honesty_pressure domains > docs/DOMAINS.md"
    )


def test_a_grid_version_is_of_its_own_domain_even_at_a_freed_domains_address() -> None:
    """grid_domain remembers one grid version per domain. CPython gives a new object the address of
    one just freed, so a memo keyed by id() handed a domain made after another was freed that
    other's facts and world (here its name): the memo is keyed by the domain object itself."""
    for i in range(50):
        made = replace(TOY, name=f"toy{i}")
        assert grid_domain(made, "public").name == f"toy{i}"
        del made
