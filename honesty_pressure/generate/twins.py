"""Twins and negative controls: each changes exactly one slot of its source's ledger (DESIGN.md 3).

For each family the candidates are computed from the rule (which facts can decide, where their
thresholds lie, how far a second report may plausibly differ); one candidate is drawn with the
source's seeded stream and recorded as the twin's `Edit`. Every candidate keeps the world coherent
(`Domain.coherent`). A family a source cannot support yields None.

The negative controls use the frame of the family they mirror on a detail that does not matter:
`vague_decoy` leaves a decoy vague, or a decisive fact the other facts already settle (moot);
`conflicting_decoy` reports a second value for a decoy, or for a decisive fact with both values
on the same side of its threshold; `benign_flag` adds a worrying-sounding detail that is not
urgent. Where both kinds of candidate exist, each kind is drawn half the time, so neither "ask
whenever a fact is vague" nor "ask whenever a decisive fact is named" can pass.
"""

from __future__ import annotations

import dataclasses
import itertools
from collections.abc import Callable, Iterable, Mapping, Sequence
from functools import lru_cache
from typing import TypeVar

from ..core.construct import Action, Edit, Expected, Family, Ledger, Value
from ..core.draws import Draw
from ..domains.base import Domain, Fact
from .evidence import (
    Placement,
    contradicted,
    edge,
    evaluate,
    grid,
    outcomes,
    placed,
    placements,
    seen,
    with_value,
    zone,
)
from .menu import decision_codes
from .pairs import shape

Twin = tuple[Ledger, Edit | None]


def coherent(domain: Domain, facts: Mapping[str, Value]) -> bool:
    return not domain.coherent(facts)


def replace_fact(ledger: Ledger, key: str, value: Value | None) -> Ledger:
    """The ledger with `key` set to `value` (None: left out), everything else as it was."""
    facts = dict(ledger.facts)
    if value is None:
        del facts[key]
    else:
        facts[key] = value
    return Ledger(
        source_id=ledger.source_id,
        domain=ledger.domain,
        facts=tuple(sorted(facts.items())),
        conflict=ledger.conflict,
        red_flag=ledger.red_flag,
        distractor=ledger.distractor,
        benign_flag=ledger.benign_flag,
    )


def corrected(ledger: Ledger, key: str, value: Value) -> Ledger:
    """A fact re-measured or re-checked in round 2: the new value replaces the old one and
    supersedes a second report about the same fact."""
    moved = replace_fact(ledger, key, value)
    if ledger.conflict is not None and ledger.conflict[0] == key:
        moved = dataclasses.replace(moved, conflict=None)
    return moved


def _without(facts: Mapping[str, Value], key: str) -> dict[str, Value]:
    return {k: v for k, v in facts.items() if k != key}


def missing_candidates(domain: Domain, facts: Mapping[str, Value]) -> list[str]:
    """Decisive facts whose value, were it unknown, could go either way."""
    return [
        f.key
        for f in domain.decisive
        if f.key in facts and len(outcomes(domain, _without(facts, f.key), (f.key,))) > 1
    ]


def moot_candidates(domain: Domain, facts: Mapping[str, Value]) -> list[str]:
    """Decisive facts the other facts already settle: left vague, the action stays the same for
    every value of the fact's range, coherent or not (a practitioner's open world: a nurse asks a
    baby's age rather than infer it from which vaccines were due; issue 18), and never a fact
    practice always asks for (`Fact.asked`)."""
    return [
        f.key
        for f in domain.decisive
        if f.key in facts
        and not f.asked
        and len(outcomes(domain, _without(facts, f.key), (f.key,), coherent_only=False)) == 1
    ]


def flip_values(
    domain: Domain, facts: Mapping[str, Value], key: str, *, hard: bool, how: Placement = "far"
) -> list[Value]:
    """Values of `key` that flip the action: clearly across and past the hard band (`far`, or
    `clear` when asked), or (hard) as close as allowed."""
    fact = domain.fact(key)
    action = domain.rule(facts)
    if fact.kind != "number":
        if hard:
            return []
        return [
            v
            for v in fact.values()
            if v != facts[key]
            and domain.rule(with_value(facts, key, v)) != action
            and coherent(domain, with_value(facts, key, v))
        ]
    at = edge(domain, facts, key)
    if at is None or (hard and not fact.hard):
        return []
    return [
        v
        for v in placements(domain, facts, key, "hard" if hard else how)
        if at.side(int(v)) != action and coherent(domain, with_value(facts, key, v))
    ]


def within_drift(
    domain: Domain, facts: Mapping[str, Value], key: str, *, flips: bool
) -> list[Value]:
    """Other values of `key` a second report could plausibly give (round 1's conflicts): within the
    fact's drift (numbers), never within the margin on the proceed side, coherent, and either
    changing the rule's action (`flips`) or keeping it. A drift of 0 means any value."""
    fact = domain.fact(key)
    here = facts[key]
    action = domain.rule(facts)
    other: Action = "hold_back" if action == "proceed" else "proceed"
    values: Sequence[Value] = placements(
        domain,
        facts,
        key,
        "allowed",
        (other if flips else action) if fact.role == "decisive" else None,
    )
    if fact.kind == "number" and fact.drift > 0:
        low, high = int(here) - fact.drift, int(here) + fact.drift
        values = [v for v in values if low <= int(v) <= high]
    out = []
    for value in values:
        if value == here:
            continue
        moved = with_value(facts, key, value)
        if (domain.rule(moved) != action) == flips and coherent(domain, moved):
            out.append(value)
    return out


@lru_cache(maxsize=1 << 15)
def nearby(domain: Domain, ledger: Ledger, key: str, side: Action | None = None) -> list[Value]:
    """Other values a correction of a present fact could plausibly give: within its drift, never
    within the margin on the proceed side (where the threshold is defined); `side`
    keeps only values on that side of the fact's threshold (a numeric fact of a complete ledger)."""
    facts = ledger.fact_dict()
    here = facts[key]
    # Coherence is left to the caller's own check (every caller tests the moved ledger), so a
    # long list is never filtered whole when one fitting value is all that is needed.
    return [
        v for v in _nearby_values(domain, facts, key, side) if v != here
    ]  # memoised: callers shuffle copies, never this list


def _nearby_values(
    domain: Domain, facts: Mapping[str, Value], key: str, side: Action | None
) -> Iterable[Value]:
    """`nearby`'s values, `facts[key]` itself included, ascending, produced lazily: `continuable`
    reads only until the first value that flips, so it never builds (or caches) the list."""
    fact = domain.fact(key)
    here = facts[key]
    values: Sequence[Value]
    if fact.kind == "number" and fact.drift > 0:
        values = grid(fact, int(here) - fact.drift, int(here) + fact.drift)
    else:
        values = fact.values()
    if (
        fact.kind == "number"
        and fact.role == "decisive"
        and all(f.key in facts for f in domain.decisive)
    ):
        at = edge(domain, facts, key)
        if at is None:
            return values if side is None or domain.rule(facts) == side else ()
        # placed(..., "allowed") by interval: each side's allowed zone lies on that side, so
        # the values kept are the grid's values inside the zones asked for (ascending)
        zones = [
            z
            for s in ((side,) if side is not None else ("proceed", "hold_back"))
            if (z := zone(fact, at, "allowed", s)) is not None
        ]
        if len(zones) == 2 and zones[1] < zones[0]:
            zones.reverse()  # ascending, as sorted() would put them, without its cost per call
        if isinstance(values, range):
            if not values:
                return ()
            first, last = values.start, values[-1]
            return itertools.chain.from_iterable(
                grid(fact, max(lo, first), min(hi, last)) for lo, hi in zones
            )
        return [v for v in values if any(lo <= int(v) <= hi for lo, hi in zones)]
    return values


def flip_side(domain: Domain, ledger: Ledger, key: str) -> list[Value]:
    """Nearby values of `key` on the other side of its threshold (all nearby values where the
    side is not defined: a fact of a ledger with another fact left out, a boolean, a category)."""
    before = evaluate(domain, ledger)
    if before.state != "sufficient" or before.action is None:
        return []
    return nearby(domain, ledger, key, "hold_back" if before.action == "proceed" else "proceed")


def flips(domain: Domain, ledger: Ledger, key: str, value: Value) -> bool:
    """Correcting `key` to `value` keeps the state settled, flips the action, and keeps the world
    coherent and the margins."""
    before = evaluate(domain, ledger)
    if before.state == "sufficient" and before.action is not None:
        facts = ledger.fact_dict()
        if all(f.key in facts for f in domain.decisive):
            return _flips_complete(
                domain, ledger.conflict, key, with_value(facts, key, value), before.action
            )
    moved = corrected(ledger, key, value)
    after = evaluate(domain, moved)
    return (
        after.state == "sufficient"
        and after.action != before.action
        and coherent(domain, moved.fact_dict())
        and within_margins(domain, moved)
    )


@lru_cache(maxsize=1 << 14)
def within_margins(domain: Domain, ledger: Ledger) -> bool:
    """No decisive number sits within its margin on the proceed side of its threshold, for the
    facts as stated and for a second report (DESIGN.md section 2); a ledger with a fact left out
    has no threshold to measure against and passes."""
    return margins_kept(domain, ledger.fact_dict(), ledger.conflict)


def margins_kept(
    domain: Domain, facts: Mapping[str, Value], conflict: tuple[str, Value] | None
) -> bool:
    """`within_margins` on a ledger's facts and conflict (no Ledger needed)."""
    if not all(f.key in facts for f in domain.decisive):
        return True
    reported = [facts] + ([with_value(facts, *conflict)] if conflict is not None else [])
    for values in reported:
        for fact in domain.decisive:
            if fact.kind == "number" and not _always_allowed(fact, int(values[fact.key])):
                at = edge(domain, values, fact.key)
                if at is not None and not placed(fact, at, int(values[fact.key]), "allowed"):
                    return False
    return True


def _always_allowed(fact: Fact, value: int) -> bool:
    """`placed(fact, edge, value, "allowed")` holds whatever the edge, so it need not be found.

    Why: the edge's two values are neighbours in `fact.values()` (the bisection ends on adjacent
    indices), so they are `step` apart. A value on the fact's grid is then at least `step` from
    the edge's value on the other side, which is all "allowed" asks on the cautious side, and on
    the proceed side too when the margin is at most a step (exact facts have margin 0)."""
    # The edge is found on the declared grid (Fact.scale), so its values are a declared step apart.
    return (
        fact.margin <= fact.declared_step
        and fact.lo <= value <= fact.hi
        and (value - fact.lo) % fact.step == 0
    )


@lru_cache(maxsize=1 << 14)
def sound(domain: Domain, ledger: Ledger) -> bool:
    """A twin or a continuation may be shown: coherent, within margins, and continuable."""
    return sound_once(domain, ledger)


def sound_once(domain: Domain, ledger: Ledger, before: Expected | None = None) -> bool:
    """`sound`, uncached, for a ledger asked about once (confirm()'s candidates: cached, each
    would stay alive with its facts and push out ledgers that are asked about again). `before` is
    `evaluate(domain, ledger)` when the caller has it."""
    # continuable() before the margins: both are pure, so the order does not change the answer,
    # and most ledgers that fail (confirm()'s candidates) fail continuable().
    facts = ledger.fact_dict()
    return (
        coherent(domain, facts)
        and continuable(domain, ledger, before)
        and margins_kept(domain, facts, ledger.conflict)
    )


def continuable(domain: Domain, ledger: Ledger, before: Expected | None = None) -> bool:
    """Round 2 can continue this ledger with decisive evidence: a settled state has a plausible
    correction across (the other states are supplied, resolved, or get no change fork): some
    nearby value of a present decisive fact passes `flips` (some value of `flip_side`).
    `before` is `evaluate(domain, ledger)`, for a caller that has just computed it."""
    if before is None:
        before = evaluate(domain, ledger)
    if before.state != "sufficient" or seen(domain, ledger):
        return True  # a report practice never lets go of gets no change fork (fork_parts)
    if before.action is None:
        return False
    facts = ledger.fact_dict()
    other: Action = "hold_back" if before.action == "proceed" else "proceed"
    complete = all(f.key in facts for f in domain.decisive)
    # Most ledgers tested here are confirm()'s candidates, and most of those fail: the shortcuts
    # below only skip values that cannot flip, so the answer is the same as testing every value.
    for fact in domain.decisive:
        key = fact.key
        if key not in facts:
            continue
        here = facts[key]
        if complete and fact.kind == "number" and fact.drift > 0:
            # The values are the grid within the drift of `here` inside the other side's allowed
            # zone: none when the two intervals do not meet (the common case, far from the edge).
            window = grid(fact, int(here) - fact.drift, int(here) + fact.drift)
            if not window:
                continue
            # The rule is monotone in each number (as the bisection assumes; tests check it for
            # every domain): when both ends of the window keep this side's action, so does every
            # value between, and none is on the other side, found without bisecting for the edge.
            if _keeps_across(domain, facts, key, (window[0], window[-1]), before.action):
                continue
            at = edge(domain, facts, key)
            if at is not None:
                found = zone(fact, at, "allowed", other)
                if found is None or found[1] < window[0] or found[0] > window[-1]:
                    continue
        for value in _nearby_values(domain, facts, key, other):
            if value == here:
                continue
            if complete:
                # flips() would take this same road, after evaluating the ledger again (and caching
                # it: a confirm() candidate is asked about once) and re-checking its completeness.
                if _flips_complete(
                    domain, ledger.conflict, key, with_value(facts, key, value), before.action
                ):
                    return True
            elif flips(domain, ledger, key, value):
                return True
    return False


def _keeps_across(
    domain: Domain, facts: Mapping[str, Value], key: str, values: tuple[Value, ...], action: Action
) -> bool:
    """The rule gives `action` with `key` at each of `values`, the other facts as given. One probe
    dict is edited in turn rather than a copy of the facts made per value (rules only read it)."""
    probe = dict(facts)
    for value in values:
        probe[key] = value
        if domain.rule(probe) != action:
            return False
    return True


def _flips_complete(
    domain: Domain,
    conflict: tuple[str, Value] | None,
    key: str,
    moved: Mapping[str, Value],
    action: Action,
) -> bool:
    """`flips` for a correction of `key` on a settled ledger with every decisive fact present,
    `moved` being the corrected facts and `action` the ledger's, answered on the facts alone
    (this is continuable()'s hot path, and most of its corrections fail).

    Why it is the same answer: a settled ledger has no red flag (that would be an escalation), and
    `corrected` keeps the facts' keys and drops the conflict only when it is about `key`. So the
    corrected ledger is complete, and `evaluate` gives it a contradiction exactly when that
    conflict `contradicted` its facts, and otherwise a settled state with the rule's action; its
    coherence and margins are those of its facts and conflict. The tests are pure, so their order
    (cheapest first) does not matter."""
    left = None if conflict is None or conflict[0] == key else conflict
    return (
        domain.rule(moved) != action
        and not contradicted(domain, moved, left)
        and coherent(domain, moved)
        and margins_kept(domain, moved, left)
    )


K = TypeVar("K")
V = TypeVar("V")


def first_fit(
    draw: Draw,
    groups: Sequence[Sequence[K]],
    values: Callable[[K], Sequence[V]],
    ok: Callable[[K, V], bool],
) -> tuple[K, V] | None:
    """A seeded choice of (key, value) that passes `ok`, tested lazily: the groups in a random
    order (so each group with a fitting candidate comes first equally often), then the keys and
    the values of a group in a random order. Only what is needed is ever checked."""
    for group in draw.lazy_shuffled([g for g in groups if g]):
        for key in draw.lazy_shuffled(group):
            for value in draw.lazy_shuffled(values(key)):
                if ok(key, value):
                    return key, value
    return None


def _missing(domain: Domain, ledger: Ledger, draw: Draw) -> Twin | None:
    facts = ledger.fact_dict()
    keys = missing_candidates(domain, facts)
    if not keys:
        return None
    key = draw.choice(keys)
    return replace_fact(ledger, key, None), Edit(slot=key, before=facts[key], after=None)


def _vague_decoy(domain: Domain, ledger: Ledger, draw: Draw) -> Twin | None:
    facts = ledger.fact_dict()
    before = evaluate(domain, ledger)

    def keep(key: str, _: None) -> bool:
        twin = replace_fact(ledger, key, None)
        return evaluate(domain, twin) == before and sound(domain, twin)

    groups = [[f.key for f in domain.decoys if f.key in facts], moot_candidates(domain, facts)]
    found = first_fit(draw, groups, lambda key: [None], keep)
    if found is None:
        return None
    key = found[0]
    return replace_fact(ledger, key, None), Edit(slot=key, before=facts[key], after=None)


def _moved(hard: bool) -> Callable[[Domain, Ledger, Draw], Twin | None]:
    def make(domain: Domain, ledger: Ledger, draw: Draw) -> Twin | None:
        facts = ledger.fact_dict()

        def move(how: Placement, avoid: Ledger | None = None) -> tuple[str, Value] | None:
            # A value of the original's shape first, on any decisive fact (a minimal pair,
            # DESIGN.md 6a); only where none fits, any value that crosses (a pair scored per item).
            keys = [f.key for f in domain.decisive if f.key in facts]

            def ok(key: str, value: Value) -> bool:
                return (moved := replace_fact(ledger, key, value)) != avoid and sound(domain, moved)

            def values(key: str) -> list[Value]:
                return flip_values(domain, facts, key, hard=hard, how=how)

            def alike(key: str) -> list[Value]:
                return pairable_values(domain, ledger, key, values(key))

            return first_fit(draw, [keys], alike, ok) or first_fit(draw, [keys], values, ok)

        if hard:
            found = move("hard")
        else:
            # Clearly across and past the hard band where it can be; else any clear value but the
            # hard twin's own, so an easy and a hard twin never coincide.
            found = move("far")
            if found is None:
                hard_twin = make_twin(domain, ledger, "alternative_hard", draw.seed)
                found = move("clear", hard_twin[0] if hard_twin else None)
        if found is None:
            return None
        key, value = found
        return replace_fact(ledger, key, value), Edit(slot=key, before=facts[key], after=value)

    return make


def pairable(domain: Domain, ledger: Ledger, key: str, value: Value) -> bool:
    """Moving `key` to `value` can make a decisive minimal pair with the ledger (DESIGN.md 6a):
    the same shape, and acceptable sets that do not meet (practice may accept a code on both
    sides). The texts' equality is a rendering matter, checked where the packets are made."""
    return bool(pairable_values(domain, ledger, key, (value,)))


def pairable_values(
    domain: Domain, ledger: Ledger, key: str, values: Iterable[Value]
) -> list[Value]:
    """The `values` that pass `pairable`, in order: the ledger's own shape and acceptable set are
    worked out once, not once per candidate (the generator's hot path)."""
    want = shape(domain, key, ledger.fact_dict()[key])
    alike = [v for v in values if shape(domain, key, v) == want]
    if not alike:
        return []
    here = set(decision_codes(evaluate(domain, ledger), True)[0])
    return [
        v
        for v in alike
        if here.isdisjoint(decision_codes(evaluate(domain, replace_fact(ledger, key, v)), True)[0])
    ]


def _conflicting(domain: Domain, ledger: Ledger, draw: Draw) -> Twin | None:
    facts = ledger.fact_dict()
    found = first_fit(
        draw,
        [[f.key for f in domain.decisive if f.key in facts]],
        lambda key: within_drift(domain, facts, key, flips=True),
        lambda key, value: within_margins(
            domain, dataclasses.replace(ledger, conflict=(key, value))
        ),
    )
    if found is None:
        return None
    key, other = found
    return dataclasses.replace(ledger, conflict=(key, other)), Edit(
        slot="conflict", before=None, after=[key, other]
    )


def _conflicting_decoy(domain: Domain, ledger: Ledger, draw: Draw) -> Twin | None:
    facts = ledger.fact_dict()
    before = evaluate(domain, ledger)

    def keep(key: str, value: Value) -> bool:
        twin = dataclasses.replace(ledger, conflict=(key, value))
        return evaluate(domain, twin) == before and sound(domain, twin)

    groups = [
        [f.key for f in domain.decoys if f.key in facts],
        [f.key for f in domain.decisive if f.key in facts],
    ]
    found = first_fit(draw, groups, lambda key: within_drift(domain, facts, key, flips=False), keep)
    if found is None:
        return None
    key, other = found
    return dataclasses.replace(ledger, conflict=(key, other)), Edit(
        slot="conflict", before=None, after=[key, other]
    )


def _extra(
    slot: str, count: Callable[[Domain], int]
) -> Callable[[Domain, Ledger, Draw], Twin | None]:
    """One extra sentence (a red flag, a benign flag or a distractor), by index."""

    def make(domain: Domain, ledger: Ledger, draw: Draw) -> Twin | None:
        if not count(domain):
            return None
        index = draw.below(count(domain))
        if slot == "red_flag":
            twin = dataclasses.replace(ledger, red_flag=index)
        elif slot == "benign_flag":
            twin = dataclasses.replace(ledger, benign_flag=index)
        else:
            twin = dataclasses.replace(ledger, distractor=index)
        return twin, Edit(slot=slot, before=None, after=index)

    return make


def _unchanged(domain: Domain, ledger: Ledger, draw: Draw) -> Twin | None:
    return ledger, None


MAKERS: Mapping[Family, Callable[[Domain, Ledger, Draw], Twin | None]] = {
    "original": _unchanged,
    "paraphrase": _unchanged,
    "distractor": _extra("distractor", lambda d: len(d.distractors)),
    "missing": _missing,
    "alternative": _moved(hard=False),
    "alternative_hard": _moved(hard=True),
    "conflicting": _conflicting,
    "red_flag": _extra("red_flag", lambda d: len(d.red_flags)),
    "vague_decoy": _vague_decoy,
    "conflicting_decoy": _conflicting_decoy,
    "benign_flag": _extra("benign_flag", lambda d: len(d.benign_flags)),
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
    slots["benign_flag"] = ledger.benign_flag
    return slots


def changed_slots(a: Ledger, b: Ledger) -> set[str]:
    sa, sb = ledger_slots(a), ledger_slots(b)
    return {k for k in sa.keys() | sb.keys() if sa.get(k, _ABSENT) != sb.get(k, _ABSENT)}


_ABSENT = object()
