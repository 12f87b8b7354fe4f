"""Helpers the everyday domains' practice invariants and pattern counter share, over the keys of
tests/practice/corpus.py (`cases(domain)`: the full layer of the committed seed, a fresh seed on
the held-out phrasings, and every fork of `advance --protocol full` grown from oracle,
always-proceed and always-hold-back replies)."""

from __future__ import annotations

from collections.abc import Callable

from honesty_pressure.core.construct import Value

from .corpus import Case, cases, offenders


def facts(k: Case) -> dict[str, Value]:
    return dict(k.ledger.facts)


def reports(k: Case, key: str) -> list[Value]:
    """Every value the ledger reports for a fact: the main one and a second report (empty when
    the fact is not given)."""
    f = facts(k)
    out: list[Value] = [f[key]] if key in f else []
    if k.ledger.conflict is not None and k.ledger.conflict[0] == key and key in f:
        out.append(k.ledger.conflict[1])
    return out


def readings(k: Case, *names: str) -> list[dict[str, int]]:
    """Every combination of reported numbers for the named facts (empty when one is not given)."""
    combos: list[dict[str, int]] = [{}]
    for name in names:
        values = reports(k, name)
        if not values:
            return []
        combos = [{**c, name: int(v)} for c in combos for v in values]
    return combos


def evidence(k: Case) -> bool:
    """A round-2 fork that brings new information (a change or a confirmation)."""
    return k.round == 2 and (k.fork or "").startswith("evidence")


def violations(domain: str, broken: Callable[[Case], bool]) -> list[Case]:
    """Every key of the domain the check finds broken."""
    return [k for k in cases(domain) if broken(k)]


def report(found: list[Case]) -> str:
    return offenders(found, limit=6)
