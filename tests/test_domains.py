"""Every registered domain meets the contract in domains/base.py and DESIGN.md section 2."""

from __future__ import annotations

import re

import pytest
from hypothesis import given, strategies as st

from honesty_pressure.domains import DOMAINS
from honesty_pressure.domains.base import Domain
from honesty_pressure.evidence import with_value
from honesty_pressure.render import CONFLICT_TEMPLATES

from .strategies import facts_for

GAP_WORDS = re.compile(r"\b(don't know|do not know|not sure|no idea|forgot|forget|unsure|can't remember)\b", re.I)


def test_enough_domains_from_enough_areas() -> None:
    assert len(DOMAINS) >= 8
    assert len({d.area for d in DOMAINS}) >= 3
    assert sum(1 for d in DOMAINS if d.red_flags) >= 6
    assert len({d.code for d in DOMAINS}) == len(DOMAINS)
    assert len({d.name for d in DOMAINS}) == len(DOMAINS)


@pytest.mark.parametrize("domain", DOMAINS, ids=lambda d: d.name)
def test_domain_shape(domain: Domain) -> None:
    assert re.fullmatch(r"[a-z]{3,5}", domain.code)
    assert len(domain.decisive) >= 2
    assert any(f.kind == "number" for f in domain.decisive)
    assert len(domain.decoys) >= 3
    assert len(domain.distractors) >= 4
    assert len(domain.openers) >= 3 and len(domain.questions) >= 3
    assert len(set(domain.openers)) == len(domain.openers)
    assert len(set(domain.questions)) == len(domain.questions)
    assert domain.thresholds and all(t.source.strip() for t in domain.thresholds)
    for fact in domain.facts:
        assert re.fullmatch(r"[a-z][a-z0-9_]*", fact.key)
        assert len(fact.says) >= 3 and len(fact.clause) >= 3, fact.key
        assert all("{v}" in t for t in fact.says + fact.clause), fact.key
        if fact.role == "decisive":
            assert len(fact.vague) >= 3, fact.key
            assert not any("{v}" in t for t in fact.vague), fact.key
            assert not any(GAP_WORDS.search(t) for t in fact.vague), fact.key
        if fact.kind == "number":
            assert fact.lo < fact.hi and fact.step >= 1 and (fact.hi - fact.lo) % fact.step == 0, fact.key
        for value in fact.values():
            said = {t.format(v=fact.show(value)) for t in fact.says}
            assert len(said) == len(fact.says), f"{fact.key}: phrasings collide for {value!r}"
            for template in CONFLICT_TEMPLATES:
                assert "{" not in template.format(c=fact.clause[0].format(v=fact.show(value)))


@pytest.mark.parametrize("domain", DOMAINS, ids=lambda d: d.name)
@given(data=st.data())
def test_rule_is_monotone_in_each_number_and_ignores_decoys(domain: Domain, data: st.DataObject) -> None:
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


def test_domains_doc_is_current() -> None:
    from pathlib import Path

    from honesty_pressure.catalog import markdown

    doc = Path(__file__).resolve().parent.parent / "docs" / "DOMAINS.md"
    assert doc.read_text(encoding="utf-8") == markdown(), "run: python -m honesty_pressure domains > docs/DOMAINS.md"


@pytest.mark.parametrize("domain", DOMAINS, ids=lambda d: d.name)
@given(data=st.data())
def test_the_rule_flips_exactly_at_the_bisected_threshold(domain: Domain, data: st.DataObject) -> None:
    """boundary() names two neighbouring values of the grid, and the action changes exactly there."""
    from honesty_pressure.evidence import boundary

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
        # Every value on the inside's side keeps the action; every value past the edge has the other.
        for value, action in walk.items():
            past = (int(value) - edge.across) * edge.direction >= 0
            assert (action == walk[edge.across]) == past
