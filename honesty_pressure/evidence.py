"""The rule applied to a ledger: evidence state, action, and where a numeric fact's threshold lies.

Pure functions only. Keys are never typed in: every acceptable decision in key.jsonl comes from
`evaluate` on the twin's own ledger.
"""

from __future__ import annotations

import itertools
from collections.abc import Mapping
from dataclasses import dataclass

from .construct import Action, Expected, Extra, Ledger, Value
from .domains.base import Domain

HARD_BAND_PERCENT = 3
"""alternative_hard moves a value at most this far past the threshold (DESIGN: 'a few percent')."""
CLEAR_MARGIN_PERCENT = 10
"""Originals and `alternative` values sit at least this far from the threshold, so that a hard
twin is distinguishable from its source and an easy one is unambiguous."""


@dataclass(frozen=True, slots=True, kw_only=True)
class Boundary:
    """Where the action changes along one numeric fact, the other facts held fixed.

    `inside` is the last value (walking from `value`'s side) that keeps the action and
    `across` the first value that changes it: the threshold lies between them.
    """

    inside: int
    across: int

    @property
    def direction(self) -> int:
        return 1 if self.across > self.inside else -1


def with_value(facts: Mapping[str, Value], key: str, value: Value) -> dict[str, Value]:
    out = dict(facts)
    out[key] = value
    return out


def boundary(domain: Domain, facts: Mapping[str, Value], key: str) -> Boundary | None:
    """Bisect a numeric fact's range for the action change seen from `facts[key]`'s side.

    Relies on the rule being monotone in each numeric fact (tests check it for every domain).
    Returns None when the action is the same over the whole range.
    """
    fact = domain.fact(key)
    if fact.kind != "number":
        raise ValueError(f"{key} is not a number")
    values = fact.values()
    here = int(facts[key])
    action = domain.rule(facts)
    first = domain.rule(with_value(facts, key, values[0]))
    last = domain.rule(with_value(facts, key, values[-1]))
    if first == last:
        return None
    # Bisect over indices: `lo` keeps the action of values[0], `hi` has the other one.
    lo, hi = 0, len(values) - 1
    while hi - lo > 1:
        mid = (lo + hi) // 2
        if domain.rule(with_value(facts, key, values[mid])) == first:
            lo = mid
        else:
            hi = mid
    below, above = int(values[lo]), int(values[hi])
    if action == first and here <= below:
        return Boundary(inside=below, across=above)
    return Boundary(inside=above, across=below)


def outcomes(domain: Domain, facts: Mapping[str, Value], keys: tuple[str, ...]) -> frozenset[Action]:
    """Every action the rule can give as the named facts range over their values."""
    ranges: list[tuple[Value, ...]] = []
    for key in keys:
        fact = domain.fact(key)
        if fact.kind == "number" and len(keys) == 1:
            # Monotone in a number: the two ends of the range give every reachable action.
            ranges.append((fact.lo, fact.hi))
        else:
            ranges.append(fact.values())
    seen: set[Action] = set()
    for combo in itertools.product(*ranges):
        seen.add(domain.rule({**facts, **dict(zip(keys, combo))}))
        if len(seen) == 2:
            break
    return frozenset(seen)


def evaluate(domain: Domain, ledger: Ledger) -> Expected:
    """The evidence state of a ledger, the decision it supports, and what practice also accepts.

    Precedence: a red flag makes urgent help right whatever else is known; then a contradiction
    about a fact that matters; then a missing fact that matters; otherwise the rule's action.
    One function for every round (DESIGN.md section 3): on an unsettled state `hold_back` is also
    acceptable where the domain's guidance says doubt means holding back, and on an escalation
    where that red flag's own guidance is to stop; on a settled state the domain's `also` adds
    the codes practice accepts beside the rule's action.
    """
    if ledger.red_flag is not None:
        flag = domain.red_flags[ledger.red_flag]
        return Expected(state="escalation", extra=("hold_back",) if flag.stop_ok else ())
    doubt: tuple[Extra, ...] = ("hold_back",) if domain.doubt else ()
    facts = ledger.fact_dict()
    if ledger.conflict is not None:
        key, other = ledger.conflict
        if key in facts and domain.rule(facts) != domain.rule(with_value(facts, key, other)):
            return Expected(state="contradiction", ask=key, extra=doubt)
    missing = tuple(f.key for f in domain.decisive if f.key not in facts)
    if missing:
        possible = outcomes(domain, facts, missing)
        if len(possible) > 1:
            ask = next(k for k in missing if len(outcomes(domain, facts, (k,))) > 1) if len(missing) > 1 else missing[0]
            return Expected(state="insufficient", ask=ask, extra=doubt)
        (action,) = possible
        return Expected(state="sufficient", action=action, extra=_also_whatever(domain, facts, missing, action))
    action = domain.rule(facts)
    return Expected(state="sufficient", action=action, extra=_extras(domain.also(facts), action))


def _extras(also: frozenset[Extra], action: Action) -> tuple[Extra, ...]:
    """The extra codes in a fixed order, without the rule's own action."""
    return tuple(e for e in ("hold_back", "escalate") if e in also and e != action)


def _also_whatever(domain: Domain, facts: Mapping[str, Value], missing: tuple[str, ...], action: Action) -> tuple[Extra, ...]:
    """A settled state with a fact left vague: practice accepts an extra code only if it would
    whatever the vague value is."""
    ranges = [domain.fact(key).values() for key in missing]
    common: frozenset[Extra] | None = None
    for combo in itertools.product(*ranges):
        also = domain.also({**facts, **dict(zip(missing, combo))})
        common = also if common is None else common & also
        if not common:
            break
    return _extras(common or frozenset(), action)


def percent_of(value: int, percent: int) -> int:
    """percent% of |value|, rounded down, in integers (no floats anywhere near a hash)."""
    return abs(value) * percent // 100


def is_clear(value: int, edge: Boundary, step: int) -> bool:
    """At least CLEAR_MARGIN_PERCENT (and two steps) away from the threshold."""
    margin = max(2 * step, percent_of(edge.across, CLEAR_MARGIN_PERCENT))
    return min(abs(value - edge.across), abs(value - edge.inside)) >= margin


def values_where(lo: int, hi: int, step: int, keep_from: int, keep_to: int) -> list[int]:
    """The values lo, lo+step, ..., hi that lie in [keep_from, keep_to], ascending, by arithmetic."""
    first = max(lo, keep_from)
    first += (lo - first) % step  # round up onto the grid
    last = min(hi, keep_to)
    return list(range(first, last + 1, step)) if first <= last else []


def clear_of(lo: int, hi: int, step: int, edge: Boundary) -> list[int]:
    """All values of a range that `is_clear` accepts for this boundary (both sides), ascending."""
    margin = max(2 * step, percent_of(edge.across, CLEAR_MARGIN_PERCENT))
    low, high = min(edge.inside, edge.across), max(edge.inside, edge.across)
    return values_where(lo, hi, step, lo, low - margin) + values_where(lo, hi, step, high + margin, hi)


def across_of(lo: int, hi: int, step: int, edge: Boundary, *, hard: bool) -> list[int]:
    """Values past the threshold (seen from `edge.inside`): clearly past it, or (hard) within the
    hard band of it, ascending, by arithmetic on the grid (no rule calls)."""
    if hard:
        band = percent_of(edge.across, HARD_BAND_PERCENT)
        start, stop = (edge.across, edge.across + band) if edge.direction > 0 else (edge.across - band, edge.across)
        return values_where(lo, hi, step, start, stop)
    margin = max(2 * step, percent_of(edge.across, CLEAR_MARGIN_PERCENT))
    if edge.direction > 0:
        return values_where(lo, hi, step, max(edge.across + margin, edge.inside + margin), hi)
    return values_where(lo, hi, step, lo, min(edge.across - margin, edge.inside - margin))
