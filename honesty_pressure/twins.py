"""Twins: each changes exactly one slot of its source's ledger (DESIGN.md section 3).

For each family the candidates are computed from the rule (which facts can decide, where their
thresholds lie); one candidate is drawn with the source's seeded stream and the draw is recorded
as the twin's `Edit`. A family a source cannot support (a domain without red flags) yields None.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Callable, Mapping

from .construct import Edit, Family, Ledger, Value
from .domains.base import Domain
from .draws import Draw
from .evidence import across_of, boundary, outcomes, with_value

Twin = tuple[Ledger, Edit | None]


def _replace_fact(ledger: Ledger, key: str, value: Value | None) -> Ledger:
    facts = ledger.fact_dict()
    if value is None:
        del facts[key]
    else:
        facts[key] = value
    return dataclasses.replace(ledger, facts=tuple(sorted(facts.items())))


def missing_candidates(domain: Domain, facts: Mapping[str, Value]) -> list[str]:
    """Decisive facts whose value, were it unknown, could go either way."""
    return [
        f.key
        for f in domain.decisive
        if f.key in facts
        and len(outcomes(domain, {k: v for k, v in facts.items() if k != f.key}, (f.key,))) > 1
    ]


def flip_values(domain: Domain, facts: Mapping[str, Value], key: str, *, hard: bool) -> list[Value]:
    """Values of `key` that flip the action: clearly across, or (hard) just across the threshold."""
    fact = domain.fact(key)
    action = domain.rule(facts)
    if fact.kind != "number":
        if hard:
            return []
        return [v for v in fact.values() if v != facts[key] and domain.rule(with_value(facts, key, v)) != action]
    edge = boundary(domain, facts, key)
    if edge is None or (hard and not fact.hard):
        return []
    # Monotone rule: every value past the threshold flips the action, so the range is arithmetic.
    return list(across_of(fact.lo, fact.hi, fact.step, edge, hard=hard))


def flip_candidates(domain: Domain, facts: Mapping[str, Value], *, hard: bool) -> list[str]:
    return [f.key for f in domain.decisive if f.key in facts and flip_values(domain, facts, f.key, hard=hard)]


def _missing(domain: Domain, ledger: Ledger, draw: Draw) -> Twin | None:
    facts = ledger.fact_dict()
    keys = missing_candidates(domain, facts)
    if not keys:
        return None
    key = draw.choice(keys)
    return _replace_fact(ledger, key, None), Edit(slot=key, before=facts[key], after=None)


def _moved(hard: bool) -> Callable[[Domain, Ledger, Draw], Twin | None]:
    def make(domain: Domain, ledger: Ledger, draw: Draw) -> Twin | None:
        facts = ledger.fact_dict()
        keys = flip_candidates(domain, facts, hard=hard)
        if not keys:
            return None
        key = draw.choice(keys)
        value = draw.choice(flip_values(domain, facts, key, hard=hard))
        return _replace_fact(ledger, key, value), Edit(slot=key, before=facts[key], after=value)

    return make


def _conflicting(domain: Domain, ledger: Ledger, draw: Draw) -> Twin | None:
    facts = ledger.fact_dict()
    keys = flip_candidates(domain, facts, hard=False)
    if not keys:
        return None
    key = draw.choice(keys)
    other = draw.choice(flip_values(domain, facts, key, hard=False))
    twin = dataclasses.replace(ledger, conflict=(key, other))
    return twin, Edit(slot="conflict", before=None, after=[key, other])


def _red_flag(domain: Domain, ledger: Ledger, draw: Draw) -> Twin | None:
    if not domain.red_flags:
        return None
    index = draw.below(len(domain.red_flags))
    return dataclasses.replace(ledger, red_flag=index), Edit(slot="red_flag", before=None, after=index)


def _distractor(domain: Domain, ledger: Ledger, draw: Draw) -> Twin | None:
    index = draw.below(len(domain.distractors))
    return dataclasses.replace(ledger, distractor=index), Edit(slot="distractor", before=None, after=index)


def _unchanged(domain: Domain, ledger: Ledger, draw: Draw) -> Twin | None:
    return ledger, None


MAKERS: Mapping[Family, Callable[[Domain, Ledger, Draw], Twin | None]] = {
    "original": _unchanged,
    "paraphrase": _unchanged,
    "distractor": _distractor,
    "missing": _missing,
    "alternative": _moved(hard=False),
    "alternative_hard": _moved(hard=True),
    "conflicting": _conflicting,
    "red_flag": _red_flag,
}


def make_twin(domain: Domain, ledger: Ledger, family: Family, seed: int) -> Twin | None:
    """The family's version of a source ledger, or None if this source cannot have one."""
    return MAKERS[family](domain, ledger, Draw(seed, ledger.source_id, f"twin:{family}"))


def ledger_slots(ledger: Ledger) -> dict[str, object]:
    """Every slot of a ledger by name, for counting what a twin changed."""
    slots: dict[str, object] = dict(ledger.facts)
    slots["conflict"] = ledger.conflict
    slots["red_flag"] = ledger.red_flag
    slots["distractor"] = ledger.distractor
    return slots


def changed_slots(a: Ledger, b: Ledger) -> set[str]:
    sa, sb = ledger_slots(a), ledger_slots(b)
    return {k for k in sa.keys() | sb.keys() if sa.get(k, _ABSENT) != sb.get(k, _ABSENT)}


_ABSENT = object()
