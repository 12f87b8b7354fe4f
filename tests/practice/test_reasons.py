"""Issue 18, item 5: round-2 reasons agree with their edits, and no correction contradicts the
story's premise.

- Size: a correction moves a number by no more than the fact's plausible drift (a re-dated scan by
  at most 2 weeks, a re-measured height by about an inch).
- Sign: where a reason says which way a value can move ("we measured him again in bare feet" can
  only make a child shorter, "we drained the water tank" a camper lighter), the edit moves that way
  or not at all. `DIRECTIONS` lists, per domain, (fact, reason pattern, sign).
- Premise: a value the story pins down is never corrected (a scan done "earlier today" is not
  re-dated by weeks). `PREMISES` lists, per domain, (fact, which told values are pinned, why); a
  pinned value is neither corrected in round 2 nor contradicted by a second report in round 1.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from typing import Final

import pytest

from honesty_pressure.core.construct import Value
from honesty_pressure.domains import DOMAINS, by_name

from .corpus import Case, cases, offenders, round2

NAMES = [d.name for d in DOMAINS]

DIRECTIONS: Final[dict[str, tuple[tuple[str, re.Pattern[str], int], ...]]] = {
    "booster_seat": (("height_in", re.compile(r"bare feet|without (his )?shoes", re.I), -1),),
    "trailer_towing": (("trailer_lb", re.compile(r"drain", re.I), -1),),
}
"""Reasons that fix a direction: the new value is on that side of the old one (or equal)."""

PREMISES: Final[dict[str, tuple[tuple[str, Callable[[Value], bool], str], ...]]] = {
    "nsaid_pregnancy": (
        (
            "weeks_since_scan",
            lambda v: v == 0,
            "a scan done earlier today cannot be re-dated by weeks",
        ),
    ),
}
"""Told values no correction or second report may move."""


def _number(value: object) -> int | None:
    return value if isinstance(value, int) and not isinstance(value, bool) else None


def _moved(case: Case) -> tuple[str, int, int] | None:
    """A correction of a stated number in round 2: (fact, before, after)."""
    if case.round != 2 or case.edit is None:
        return None
    before, after = _number(case.edit.before), _number(case.edit.after)
    if before is None or after is None:
        return None
    return case.edit.slot, before, after


@pytest.mark.parametrize("domain", NAMES)
def test_a_correction_moves_a_number_by_a_plausible_amount(domain: str) -> None:
    spec = by_name(domain)
    bad = [
        c
        for c in round2(domain)
        if (m := _moved(c)) is not None
        and spec.fact(m[0]).drift
        and abs(m[2] - m[1]) > spec.fact(m[0]).drift
    ]
    assert not bad, offenders(bad)


@pytest.mark.parametrize("domain", NAMES)
def test_a_reason_agrees_with_the_sign_of_its_edit(domain: str) -> None:
    rules = DIRECTIONS.get(domain, ())
    bad = []
    for case in round2(domain):
        moved = _moved(case)
        if moved is None:
            continue
        key, before, after = moved
        for fact, pattern, sign in rules:
            if fact == key and pattern.search(case.text) and (after - before) * sign < 0:
                bad.append(case)
    assert not bad, offenders(bad)


@pytest.mark.parametrize("domain", NAMES)
def test_a_correction_never_contradicts_the_premise(domain: str) -> None:
    rules = PREMISES.get(domain, ())
    bad = []
    for case in cases(domain):
        told = (case.parent_ledger or case.ledger).fact_dict()
        for fact, pinned, _ in rules:
            if fact not in told or not pinned(told[fact]):
                continue
            if (
                case.round == 2
                and case.edit is not None
                and case.edit.slot == fact
                and case.edit.after != told[fact]
            ):
                bad.append(case)
            if (
                case.round == 1
                and case.ledger.conflict is not None
                and case.ledger.conflict[0] == fact
            ):
                bad.append(case)
    assert not bad, offenders(bad)


def test_the_tables_name_real_facts() -> None:
    for domain, rules in DIRECTIONS.items():
        for fact, _, sign in rules:
            assert by_name(domain).fact(fact).kind == "number" and sign in (-1, 1)
    for domain, premises in PREMISES.items():
        for fact, _, why in premises:
            assert by_name(domain).fact(fact) and why
