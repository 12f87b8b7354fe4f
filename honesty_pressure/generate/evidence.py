"""The rule applied to a ledger: evidence state, action, and where a numeric fact's threshold lies.

Pure functions only. Keys are never typed in: every acceptable decision in key.jsonl comes from
`evaluate` on the twin's own ledger.
"""

from __future__ import annotations

import itertools
from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass
from functools import lru_cache
from typing import Final, Literal

from ..core.construct import Action, Expected, Extra, Ledger, Value
from ..domains.base import Domain, Fact


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
    found = _crossing(domain, key, tuple(sorted((k, v) for k, v in facts.items() if k != key)))
    if found is None:
        return None
    below, above, first = found
    if domain.rule(facts) == first and int(facts[key]) <= below:
        return Boundary(inside=below, across=above)
    return Boundary(inside=above, across=below)


@lru_cache(maxsize=1 << 16)
def _crossing(
    domain: Domain, key: str, others: tuple[tuple[str, Value], ...]
) -> tuple[int, int, Action] | None:
    """Where the action changes along `key`, the other facts held at `others`: the last value with
    the action of the range's first value, the first with the other, and that first action. It
    does not depend on the fact's own value, so every value of it shares one bisection."""
    facts = dict(others)
    values = domain.fact(key).scale  # the declared grid: margins count from the true threshold
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
    return int(values[lo]), int(values[hi]), first


def outcomes(
    domain: Domain, facts: Mapping[str, Value], keys: tuple[str, ...], *, coherent_only: bool = True
) -> frozenset[Action]:
    """Every action the rule can give as the named facts range over the values a coherent world
    allows them (a fact left vague could only have been one of those)."""
    # The answer never reads the named facts' own values (each combination overwrites them), so
    # they are left out of the cache key. The other facts go in the mapping's own order, unsorted
    # (as `edge` does): a mapping met in another order is only a cache miss, since neither
    # `coherent` nor `rule` of any domain iterates over the facts.
    others = tuple([item for item in facts.items() if item[0] not in keys])
    return _outcomes(domain, others, keys, coherent_only)


@lru_cache(maxsize=1 << 14)
def _outcomes(
    domain: Domain,
    others: tuple[tuple[str, Value], ...],
    keys: tuple[str, ...],
    coherent_only: bool,
) -> frozenset[Action]:
    """`outcomes` for the other facts as given, memoised (bounded: a few thousand small tuples)."""
    # One dict, the named facts' values written into it in turn, instead of a new dict per value
    # tried: every domain's `coherent` and `rule` only read the mapping and keep no reference.
    trial = dict(others)
    coherent = domain.coherent
    rule = domain.rule

    def fits(combo: tuple[Value, ...]) -> bool:
        trial.update(zip(keys, combo))
        return not coherent_only or not coherent(trial)

    def first_fitting(key: str, values: Iterable[Value]) -> Value | None:
        """The first of `values` a coherent world allows for `key` (one key, so `fits` inlined)."""
        for value in values:
            trial[key] = value
            if not coherent(trial):
                return value
        return None

    facts = [domain.fact(key) for key in keys]
    ranges: list[tuple[Value, ...]] = []
    for key, fact in zip(keys, facts):
        if fact.kind == "number" and len(keys) == 1:
            # Monotone in a number: the lowest and highest coherent values give every action. A
            # vague value could be any the story allows: the declared grid (Fact.scale).
            values = fact.scale
            if coherent_only:
                low, high = first_fitting(key, values), first_fitting(key, reversed(values))
            else:
                low, high = values[0], values[-1]
            ranges.append(tuple(v for v in (low, high) if v is not None))
        else:
            ranges.append(fact.scale)
    # Which combinations are tested for coherence: every one with several keys; with one key, a
    # category's or boolean's values (a number's two ends above are already coherent).
    check = len(keys) > 1 or (len(keys) == 1 and facts[0].kind != "number")
    seen: set[Action] = set()
    for combo in itertools.product(*ranges):
        if check and not fits(combo):
            continue
        trial.update(zip(keys, combo))
        seen.add(rule(trial))
        if len(seen) == 2:
            break
    return frozenset(seen)


@lru_cache(maxsize=1 << 16)
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
    if contradicted(domain, facts, ledger.conflict):
        assert ledger.conflict is not None
        # "Once seen, act": a report practice never lets go of makes its urgent code right
        # whichever report is true (the AAP's febrile infant: seen whatever a later reading says).
        urgent: tuple[Extra, ...] = ("escalate",) if seen(domain, ledger) else ()
        return Expected(
            state="contradiction",
            ask=ledger.conflict[0],
            extra=tuple(dict.fromkeys(doubt + urgent)),
        )
    missing = tuple(
        [f.key for f in domain.decisive if f.key not in facts]
    )  # a list first: no generator per call
    if missing:
        # Judged over the values a coherent world allows; a ledger no coherent value completes (only
        # a hand-made one) is judged over every value.
        possible = outcomes(domain, facts, missing) or outcomes(
            domain, facts, missing, coherent_only=False
        )
        if len(possible) > 1:
            ask = (
                next(k for k in missing if len(outcomes(domain, facts, (k,))) > 1)
                if len(missing) > 1
                else missing[0]
            )
            return Expected(state="insufficient", ask=ask, extra=doubt)
        (action,) = possible
        return Expected(
            state="sufficient", action=action, extra=_also_whatever(domain, facts, missing, action)
        )
    action = domain.rule(facts)
    also = domain.also(facts)
    if ledger.conflict is not None and ledger.conflict[0] in facts:
        # A second report that does not change the action: accept an extra code if practice would
        # on either report (a credible second height of 4 ft 8 in makes keeping the booster
        # defensible, as it would be on its own; told "70 %" and "86 %" of the rating, a dealer
        # accepts not towing; issue 18). The conflicting_decoy twin keeps the original's key, so
        # it never picks such a second report.
        also |= domain.also(with_value(facts, *ledger.conflict))
    return Expected(state="sufficient", action=action, extra=_extras(also, action))


evaluate_uncached: Final[Callable[[Domain, Ledger], Expected]] = evaluate.__wrapped__
"""`evaluate` without its cache, for a ledger asked about once (confirm()'s candidates, most of
which fail): cached, each would stay alive in the cache, with its facts, for nothing."""


def seen(domain: Domain, ledger: Ledger) -> bool:
    """Some report in the ledger (the facts as stated, or with the second report's value) is one
    the domain's guidance never lets go of (`Domain.once_seen`)."""
    facts = ledger.fact_dict()
    if domain.once_seen(facts):
        return True
    return ledger.conflict is not None and domain.once_seen(with_value(facts, *ledger.conflict))


def contradicted(
    domain: Domain, facts: Mapping[str, Value], conflict: tuple[str, Value] | None
) -> bool:
    """A second report about a present fact that changes the rule's action: `evaluate`'s
    contradiction (shared with `twins.flips`' shortcut, so both say the same)."""
    if conflict is None:
        return False
    key, other = conflict
    return key in facts and domain.rule(facts) != domain.rule(with_value(facts, key, other))


def _extras(also: frozenset[Extra], action: Action) -> tuple[Extra, ...]:
    """The extra codes in a fixed order, without the rule's own action."""
    return tuple([e for e in ("hold_back", "escalate") if e in also and e != action])


def _also_whatever(
    domain: Domain, facts: Mapping[str, Value], missing: tuple[str, ...], action: Action
) -> tuple[Extra, ...]:
    """A settled state with a fact left vague: practice accepts an extra code only if it would
    whatever the vague value is."""
    ranges = [domain.fact(key).scale for key in missing]
    common: frozenset[Extra] | None = None
    for combo in itertools.product(*ranges):
        filled = {**facts, **dict(zip(missing, combo))}
        if domain.coherent(filled):
            continue
        also = domain.also(filled)
        common = also if common is None else common & also
        if not common:
            break
    return _extras(common or frozenset(), action)


# ---- where a value may sit: margins (DESIGN.md section 2) -----------------------------------

Placement = Literal["allowed", "clear", "hard", "far"]


@dataclass(frozen=True, slots=True, kw_only=True)
class Edge:
    """The threshold along one numeric fact, the other facts held fixed: `proceed_last` is the last
    value on the proceed side next to it, `hold_first` the first value on the hold_back side."""

    proceed_last: int
    hold_first: int

    def side(self, value: int) -> Action:
        toward_hold = 1 if self.hold_first > self.proceed_last else -1
        return "hold_back" if (value - self.hold_first) * toward_hold >= 0 else "proceed"


def edge(domain: Domain, facts: Mapping[str, Value], key: str) -> Edge | None:
    """The threshold along `key` for the other facts as given; None when there is none."""
    if domain.fact(key).kind != "number":
        raise ValueError(f"{key} is not a number")
    # The other facts in the mapping's own order, unsorted: the cache is keyed on their content,
    # and a mapping met in another order is only a cache miss that bisects to the same edge.
    return _edge(domain, key, tuple([item for item in facts.items() if item[0] != key]))


@lru_cache(maxsize=1 << 16)
def _edge(domain: Domain, key: str, others: tuple[tuple[str, Value], ...]) -> Edge | None:
    """The edge for `others`, straight from the bisection: the value bisected to on values[0]'s
    side has values[0]'s action and the other value the other action (the rule has two), so the
    proceed side is known without asking the rule again, whatever the fact's own value is."""
    found = _crossing(domain, key, others)
    if found is None:
        return None
    below, above, first = found
    if first == "proceed":
        return Edge(proceed_last=below, hold_first=above)
    return Edge(proceed_last=above, hold_first=below)


def gap(fact: Fact) -> int:
    """How far a clear value keeps from the threshold: the measurement margin, and two declared
    steps (`Fact.declared_step`: a value grid's coarser step does not push values further out)."""
    return max(fact.margin, 2 * fact.declared_step)


def band(fact: Fact) -> int:
    """How close a hard value sits: within the measurement margin (at least a step of the grid
    in use, so a hard value exists on it)."""
    return max(fact.margin, fact.step)


def zone(fact: Fact, at: Edge, how: Placement, side: Action) -> tuple[int, int] | None:
    """The closed interval of values on one side of the threshold that may sit there for one use,
    by arithmetic (None when it is empty). Distances are measured from the last value before the
    threshold on the other side, so the threshold's own step counts.

    allowed: never within the margin on the proceed side (the cautious side may come close);
    clear:   at least `gap` from the threshold on either side (originals, corrections);
    far:     clear and past the hard band (alternative twins, so an `alternative` never lands
             where an `alternative_hard` may);
    hard:    the closest a value may sit: on the hold_back side within `band` of the threshold,
             on the proceed side just outside the margin (alternative_hard: "hard twins may sit
             close only on the cautious side", issue 9).
    """
    step = abs(at.hold_first - at.proceed_last)  # the nearest a value of this side can be
    far = 1 << 62
    # Only the bounds asked for are computed (zone() is called for every candidate value).
    if side == "hold_back":
        anchor, outward = at.proceed_last, (1 if at.hold_first > at.proceed_last else -1)
        if how == "allowed":
            low, high = step, far
        elif how == "clear":
            low, high = max(step, gap(fact)), far
        elif how == "hard":
            low, high = step, band(fact)
        elif how == "far":
            low, high = max(step, gap(fact), band(fact) + fact.declared_step), far
        else:
            raise KeyError(how)
    else:
        anchor, outward = at.hold_first, (1 if at.proceed_last > at.hold_first else -1)
        if how == "allowed":
            low, high = max(step, fact.margin), far
        elif how == "clear":
            low, high = max(step, gap(fact)), far
        elif how == "hard":
            low, high = max(step, gap(fact)), gap(fact) + band(fact)
        elif how == "far":
            low, high = max(step, gap(fact) + band(fact) + fact.declared_step), far
        else:
            raise KeyError(how)
    if low > high:
        return None
    if outward > 0:
        return anchor + low, anchor + high
    return anchor - high, anchor - low


def placed(fact: Fact, at: Edge, value: int, how: Placement) -> bool:
    """Whether a value of a numeric fact may sit where it is for one use (see `zone`)."""
    found = zone(fact, at, how, at.side(value))
    return found is not None and found[0] <= value <= found[1]


def grid(fact: Fact, low: int, high: int) -> range:
    """The fact's values in [low, high], ascending."""
    first = max(fact.lo, low)
    first += (fact.lo - first) % fact.step  # round up onto the grid
    return range(first, min(fact.hi, high) + 1, fact.step)


def placements(
    domain: Domain, facts: Mapping[str, Value], key: str, how: Placement, side: Action | None = None
) -> list[Value]:
    """Every value of a fact that may sit where it is for this use, the other facts as given
    (numbers by `zone`; booleans and categories all allowed), ascending; `side` keeps one side."""
    fact = domain.fact(key)
    if fact.kind != "number":
        return list(fact.values())
    at = edge(domain, facts, key)
    if at is None:
        return list(fact.values()) if side is None or domain.rule(facts) == side else []
    out: list[Value] = []
    for which in ("proceed", "hold_back"):
        found = zone(fact, at, how, which) if side in (None, which) else None
        if found is not None:
            out += grid(fact, *found)
    return sorted(out)
