"""What a domain module declares: its facts, its cited thresholds, its rule and its wording.

A domain is data plus one pure function. The generator never special-cases a domain: it finds
thresholds by bisection over the declared ranges, so every rule must be monotone in each of its
numeric facts (holding the others fixed, the action changes at most once along the range);
tests/test_domains.py checks that for every domain.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass, field

from ..construct import Action, Kind, Role, Value

Rule = Callable[[Mapping[str, Value]], Action]


def amount(unit: str, decimals: int = 0) -> Callable[[Value], str]:
    """Render an integer stored in 10**-decimals units: amount("°C", 1)(381) == "38.1 °C"."""

    def show(value: Value) -> str:
        if isinstance(value, bool) or not isinstance(value, int):
            raise TypeError(f"expected an integer amount, got {value!r}")
        if decimals == 0:
            text = f"{value:,}"
        else:
            sign = "-" if value < 0 else ""
            whole, frac = divmod(abs(value), 10**decimals)
            text = f"{sign}{whole:,}.{frac:0{decimals}d}"
        return f"{text} {unit}".rstrip() if not unit.startswith("$") else f"${text}"

    return show


def dollars(value: Value) -> str:
    """US dollars stored as whole dollars: 1234 -> "$1,234"."""
    if isinstance(value, bool) or not isinstance(value, int):
        raise TypeError(f"expected whole dollars, got {value!r}")
    return f"${value:,}"


def either(true: str, false: str) -> Callable[[Value], str]:
    """Render a boolean fact as one of two whole clauses."""

    def show(value: Value) -> str:
        return true if value else false

    return show


def minutes_as_words(value: Value) -> str:
    """Minutes as a person says them: 75 -> "an hour and 15 minutes", 150 -> "2 and a half hours"."""
    if isinstance(value, bool) or not isinstance(value, int):
        raise TypeError(f"expected minutes, got {value!r}")
    hours, minutes = divmod(value, 60)
    hour_part = {0: "", 1: "an hour"}.get(hours, f"{hours} hours")
    if minutes == 0:
        return hour_part or "0 minutes"
    if not hour_part:
        return f"{minutes} minutes"
    if minutes == 30:
        return "an hour and a half" if hours == 1 else f"{hours} and a half hours"
    return f"{hour_part} and {minutes} minutes"


def plain(value: Value) -> str:
    """A category value rendered as itself."""
    return str(value)


@dataclass(frozen=True, slots=True, kw_only=True)
class Fact:
    """One fact key: how it is stored, sampled and said.

    says:   whole sentences in the first person containing "{v}" (at least three phrasings).
    clause: lower-case independent clauses containing "{v}", no final period, that read well after
            "my partner is sure that ..." or "I checked again and ..." (at least three).
    vague:  decisive facts only: the same sentence without the value, as a person who simply did not
            mention it would say it (never "I don't know"): the `missing` twin's sentence.
    show:   renders a value as words ("2 hours 15 minutes", "$1,234", "a 20-amp breaker").
    hard:   the value may be moved just across its threshold (`alternative_hard`); only where a
            difference of a few percent is meaningful and the threshold is crisp.
    """

    key: str
    kind: Kind
    role: Role
    label: str
    says: tuple[str, ...]
    clause: tuple[str, ...]
    show: Callable[[Value], str]
    vague: tuple[str, ...] = ()
    lo: int = 0
    hi: int = 0
    step: int = 1
    choices: tuple[str, ...] = ()
    hard: bool = False

    def values(self) -> tuple[Value, ...]:
        """Every value the fact can take (numbers: lo..hi by step)."""
        if self.kind == "number":
            return tuple(range(self.lo, self.hi + 1, self.step))
        if self.kind == "boolean":
            return (False, True)
        return self.choices


@dataclass(frozen=True, slots=True, kw_only=True)
class Threshold:
    """A constant in a rule and where it comes from; docs/DOMAINS.md lists every one."""

    name: str
    value: str
    source: str


@dataclass(frozen=True, slots=True, kw_only=True)
class Domain:
    """One area of decisions: the facts, the rule, and the words for the menu and messages.

    proceed / hold_back: the two item actions as menu text ("Keep the leftovers and refrigerate
    them now"). escalate: what ESCALATE means here. openers / questions: first and last sentences
    of a message, at least three each. distractors: salient but irrelevant sentences (at least
    four). red_flags: sentences mentioning, in passing and without alarm, a detail that makes
    urgent help the right answer (may be empty for domains without a credible one).
    push_proceed / push_hold_back: the same two actions as bare verb phrases for a user pushing
    back in round 2 ("I'd much rather {push}"): "keep the leftovers and eat them later".
    """

    name: str
    code: str
    area: str
    title: str
    facts: tuple[Fact, ...]
    rule: Rule
    thresholds: tuple[Threshold, ...]
    proceed: str
    hold_back: str
    push_proceed: str
    push_hold_back: str
    escalate: str
    openers: tuple[str, ...]
    questions: tuple[str, ...]
    distractors: tuple[str, ...]
    red_flags: tuple[str, ...] = field(default=())

    def fact(self, key: str) -> Fact:
        for item in self.facts:
            if item.key == key:
                return item
        raise KeyError(f"{self.name} has no fact {key!r}")

    @property
    def decisive(self) -> tuple[Fact, ...]:
        return tuple(f for f in self.facts if f.role == "decisive")

    @property
    def decoys(self) -> tuple[Fact, ...]:
        return tuple(f for f in self.facts if f.role == "decoy")
