"""What a domain module declares: its facts, its cited thresholds, its rule, its world and its
wording.

A domain is data plus a few pure functions. The generator never special-cases a domain: it finds
thresholds by bisection over the declared ranges, so every rule must be monotone in each of its
numeric facts (holding the others fixed, the action changes at most once along the range);
tests/domains/test_domains.py checks that for every domain.

Every sentence slot is a `Say`: a public half of phrasings, used by the committed packet sets and
by default, and a held-out half that only `prepare --held-out` uses, so a lab's private set can
face text no one could have trained on (DESIGN.md section 8). The two halves never mix in one set.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from typing import Final, Literal

from ..core.construct import Action, Extra, Kind, Role, Value
from ..core.draws import Draw

Rule = Callable[[Mapping[str, Value]], Action]
Also = Callable[[Mapping[str, Value]], frozenset[Extra]]
World = Callable[[Draw], dict[str, Value]]
Coherence = Callable[[Mapping[str, Value]], tuple[str, ...]]

MIN_PHRASINGS: Final = 3
"""Each half of a sentence slot has at least this many phrasings (a paraphrase needs a second)."""


@dataclass(frozen=True, slots=True)
class Say:
    """One sentence slot's phrasings: `public` for committed and default sets, `held_out` for
    `prepare --held-out` only."""

    public: tuple[str, ...]
    held_out: tuple[str, ...]

    def half(self, held_out: bool) -> tuple[str, ...]:
        return self.held_out if held_out else self.public

    def __len__(self) -> int:
        return len(self.public)

    @property
    def every(self) -> tuple[str, ...]:
        return self.public + self.held_out


def say(public: tuple[str, ...] | list[str], held_out: tuple[str, ...] | list[str]) -> Say:
    return Say(tuple(public), tuple(held_out))


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
    """Minutes as a person says them: 75 -> "an hour and 15 minutes", 150 -> "2 and a half
    hours"."""
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


@dataclass(frozen=True, slots=True, kw_only=True, eq=False)
class Fact:
    """One fact key: how it is stored, drawn and said.

    says:    whole first-person sentences containing "{v}".
    clause:  lower-case independent clauses containing "{v}", no final period, that read well after
             "I checked again, and ..." (round-2 evidence) and inside `second`.
    vague:   the same sentence without the value, as a person who simply did not mention it would
             say it (never "I don't know"); used by `missing` (decisive) and `vague_decoy` (decoy or
             a decisive fact the others already settle), so the frame never tells the two apart.
    second:  whole sentences containing "{c}" (a `clause` with the other value): a plausible second
             source reporting this fact differently ("My husband, who counted the pills with me,
             thinks {c}."); used by `conflicting` and `conflicting_decoy`.
    recheck: lower-case clauses giving the reason for new information about this fact in round 2
             ("I counted what's left in the bottle again", "the nurse weighed her this morning");
             they must read well before ", and <clause>" with a changed or an unchanged value.
    show:    renders a value as words ("2 hours and 15 minutes", "$1,234", "a 20-amp breaker").
    margin:  numbers: the measurement margin in stored units (a home thermometer, a bathroom
             scale, a nameplate); no value on the `proceed` side of a threshold is generated
             within it, and `margin_why` says where the figure comes from.
    drift:   numbers: the largest plausible difference between two reports of this fact, or
             between a report and its correction, in stored units (a re-dated ultrasound moves
             weeks by at most 2, a re-measured height by about an inch). Conflicts and round-2
             corrections never move a value further.
    hard:    the value may be moved just across its threshold (`alternative_hard`).
    held_out_shift: numbers: how a held-out set's values differ from a public set's
             (`value_grid`). 0, the default, splits the declared grid in two halves that
             alternate step by step (public: lo..hi values v with v // step even; held-out: odd),
             so neither set ever shows a value string of the other. A shift (0 < shift < step)
             keeps the public grid whole and moves the held-out one by the shift instead: for a
             fact whose round values must stay round in public (a towing rating) and that shares
             its unit with a fact of another step.
    asked:   a decisive fact practice always needs stated, even where the kit's values of it would
             all give one answer (which product a dose is of: outside the kit's three labels is
             every other product with acetaminophen in it). It is never left vague as a moot
             negative control (`vague_decoy`); issue 18.
    """

    key: str
    kind: Kind
    role: Role
    label: str
    says: Say
    clause: Say
    vague: Say
    second: Say
    recheck: Say
    show: Callable[[Value], str]
    lo: int = 0
    hi: int = 0
    step: int = 1
    choices: tuple[str, ...] = ()
    margin: int = 0
    margin_why: str = ""
    drift: int = 0
    hard: bool = False
    held_out_shift: int = 0
    declared: int = 0
    """Set by `grid_fact` only: the declared step, when a value grid's step is coarser."""
    declared_values: tuple[Value, ...] = ()
    """Set by `grid_fact` only: the declared grid, on which thresholds are found (a margin is
    measured from the true threshold, not from the nearest value of one grid)."""
    asked: bool = False

    every: tuple[Value, ...] = field(init=False, repr=False, compare=False)

    def __post_init__(self) -> None:
        # Derived once: the generator asks for a fact's values millions of times.
        if self.kind == "number":
            every: tuple[Value, ...] = tuple(range(self.lo, self.hi + 1, self.step))
        elif self.kind == "boolean":
            every = (False, True)
        else:
            every = self.choices
        object.__setattr__(self, "every", every)

    @property
    def scale(self) -> tuple[Value, ...]:
        """The declared grid: what a threshold is bisected over, whichever value grid is drawn."""
        return self.declared_values or self.every

    @property
    def declared_step(self) -> int:
        """The step the domain declared (the resolution margins and distances are measured in)."""
        return self.declared or self.step

    def values(self) -> tuple[Value, ...]:
        """Every value the fact can take (numbers: lo..hi by step)."""
        return self.every


@dataclass(frozen=True, slots=True, kw_only=True)
class Threshold:
    """A constant in a rule, where it comes from, and how practitioners apply it.

    `source` quotes or points at the cited text; `practice` says how the field applies it where
    that is stricter than (or reads differently from) the sentence. docs/DOMAINS.md lists both.
    """

    name: str
    value: str
    source: str
    practice: str = ""


@dataclass(frozen=True, slots=True, kw_only=True)
class Detail:
    """An extra sentence: a tempting distractor or a benign (worrying-sounding, non-urgent) detail.
    `why` says why it does not change the rule's answer."""

    name: str
    says: Say
    why: str


@dataclass(frozen=True, slots=True, kw_only=True)
class RedFlag:
    """A detail that makes urgent help the right answer, mentioned in passing and without alarm.

    why:     the guidance that makes it a red flag (cited).
    stop_ok: that guidance is to stop rather than to get urgent help, so holding back is
             acceptable beside ESCALATE.
    """

    name: str
    says: Say
    why: str
    stop_ok: bool = False


def _no_extra(facts: Mapping[str, Value]) -> frozenset[Extra]:
    return frozenset()


def _no_constraints(facts: Mapping[str, Value]) -> tuple[str, ...]:
    return ()


def no_once_seen(facts: Mapping[str, Value]) -> bool:
    return False


@dataclass(frozen=True, slots=True, kw_only=True, eq=False, repr=False)
class Domain:
    """One area of decisions: the facts, the rule, the world they come from, and the words.

    rule:      the cited rule's action; monotone in each numeric fact.
    also:      the codes practice accepts beside the rule's action on a settled state ("hold_back"
               where caution is also right, "escalate" where urgent care is also right).
    once_seen: the facts whose guidance is "once seen, act" (a rectal reading of 38.0 °C or more
               at 12 weeks or younger: the baby is seen whatever a later reading says). Any report
               of them (the stated value or a second report) makes the rule's urgent codes
               acceptable and proceeding forbidden, and no later round un-says them: such a parent
               gets no `evidence_change` (as an escalation parent), and a confirmation keeps them.
    doubt:     when not empty, the cited guidance that doubt means holding back ("when in doubt,
               throw it out"): `hold_back` is then acceptable beside `ASK <fact>` on an
               insufficient or contradictory state. Empty: only ASK is acceptable there.
    world:     draws every fact together, so facts that go together (a child's age, height and
               belt fit) are coherent by construction.
    coherent:  the names of the joint constraints a (possibly partial) ledger violates: a twin, a
               conflict or a round-2 correction never makes an incoherent world.
    proceed / hold_back / escalate: the menu texts. push_proceed / push_hold_back: the same two
               actions as bare verb phrases ("keep the leftovers for tomorrow"); risk: the proceed
               action as a gerund phrase that takes a singular verb ("eating the leftovers
               tomorrow"), for a user who doubts an assessment that it is safe.
    notes:     paragraphs for docs/DOMAINS.md: the practice reading, the margins, the world
               constraints, what the rule leaves out and why.

    Domains compare and hash by identity (each is one module constant), so the rule-derived
    functions of a (domain, ledger) can be memoised cheaply.
    """

    name: str
    code: str
    area: str
    title: str
    facts: tuple[Fact, ...]
    rule: Rule
    thresholds: tuple[Threshold, ...]
    world: World
    proceed: str
    hold_back: str
    escalate: str
    push_proceed: str
    push_hold_back: str
    risk: str
    openers: Say
    questions: Say
    distractors: tuple[Detail, ...]
    red_flags: tuple[RedFlag, ...]
    benign_flags: tuple[Detail, ...]
    also: Also = _no_extra
    coherent: Coherence = _no_constraints
    once_seen: Callable[[Mapping[str, Value]], bool] = no_once_seen
    doubt: str = ""
    notes: tuple[str, ...] = field(default=())

    def __repr__(self) -> str:
        return f"Domain({self.name!r})"

    def fact(self, key: str) -> Fact:
        try:
            return self._by_key[key]
        except KeyError:
            raise KeyError(f"{self.name} has no fact {key!r}") from None

    decisive: tuple[Fact, ...] = field(init=False, repr=False)
    decoys: tuple[Fact, ...] = field(init=False, repr=False)
    _by_key: Mapping[str, Fact] = field(init=False, repr=False)

    def __post_init__(self) -> None:
        # Derived once: the generator asks for these millions of times.
        object.__setattr__(self, "decisive", tuple(f for f in self.facts if f.role == "decisive"))
        object.__setattr__(self, "decoys", tuple(f for f in self.facts if f.role == "decoy"))
        object.__setattr__(self, "_by_key", {f.key: f for f in reversed(self.facts)})


# ---- value grids: what a public set and a held-out set may draw (issue 25) -----------------------

Grid = Literal["declared", "public", "held_out"]


def grid_fact(fact: Fact, grid: Grid) -> Fact:
    """The fact restricted to one value grid. The two grids of a number fact never share a value
    (so never a value string): a held-out set's numbers are ones no public set ever shows, and a
    value-to-side table learned from public keys has nothing to look up. Booleans and categories
    have no second grid (their few values are the story itself)."""
    if not has_held_out_grid(fact) or grid == "declared":
        return fact
    if fact.held_out_shift:
        if grid == "public":
            return fact
        return dataclasses.replace(
            fact, lo=fact.lo + fact.held_out_shift, hi=fact.hi, declared_values=fact.every
        )
    parity = 0 if grid == "public" else 1
    lo = fact.lo if (fact.lo // fact.step) % 2 == parity else fact.lo + fact.step
    return dataclasses.replace(
        fact, lo=lo, step=2 * fact.step, declared=fact.step, declared_values=fact.every
    )


SPLIT_DRIFT_STEPS: Final = 4
"""A number fact's declared grid is split in two only when its drift spans at least this many
declared steps: each half then still has a correction within the drift on either side of a
threshold (two steps of the half's grid), so round 2 can continue every source."""


def has_held_out_grid(fact: Fact) -> bool:
    """Whether a held-out set draws this fact from values no public set uses: a number fact with
    a shift, or whose drift leaves room to split its grid. A count the story keeps small (pills,
    drinks, weeks of pregnancy) has neither: its values are shared, and docs/DESIGN.md says so."""
    if fact.kind != "number":
        return False
    return bool(fact.held_out_shift) or fact.drift >= SPLIT_DRIFT_STEPS * fact.step


def on_grid(fact: Fact, value: int, step: int, draw: Draw) -> int:
    """A value a domain's world drew on the declared grid (of `step`), moved onto the fact's
    grid: kept when it is on it, else to a grid value at most one declared step away (a seeded
    choice between the two neighbours), so the world's distribution barely moves. The generator
    re-checks coherence and margins after it, as for any world."""
    if fact.lo <= value <= fact.hi and (value - fact.lo) % fact.step == 0:
        return value
    below = value - (value - fact.lo) % fact.step
    options = [
        v for v in (below, below + fact.step) if fact.lo <= v <= fact.hi and abs(v - value) <= step
    ]
    if not options:
        return (
            fact.lo if value < fact.lo else fact.lo + (fact.hi - fact.lo) // fact.step * fact.step
        )
    return options[draw.below(len(options))] if len(options) > 1 else options[0]


_GRIDS: dict[tuple[Domain, Grid], Domain] = {}
"""grid_domain's results, keyed by the domain object itself (a Domain hashes by identity): the key
holds its domain alive, so no other domain can take its place. An id() key could be reused by a
domain made after a first one was freed, and be handed the first one's facts and world."""


def grid_domain(domain: Domain, grid: Grid) -> Domain:
    """The domain with every number fact on one value grid, and a world that draws onto it: what
    the generator, round 2 and every check use for a set of that surface (public sets the public
    grid, `--held-out` sets the held-out one). One object per (domain, grid), so caches keyed by
    domain identity stay valid."""
    if grid == "declared":
        return domain
    found = _GRIDS.get((domain, grid))
    if found is not None:
        return found
    facts = tuple(grid_fact(f, grid) for f in domain.facts)
    numbers = [(f, declared.step) for f, declared in zip(facts, domain.facts) if f.kind == "number"]
    world = domain.world

    def drawn(draw: Draw) -> dict[str, Value]:
        values = world(draw)
        for fact, step in numbers:
            value = values.get(fact.key)
            if isinstance(value, int) and not isinstance(value, bool):
                values[fact.key] = on_grid(fact, value, step, draw)
        return values

    made = dataclasses.replace(domain, facts=facts, world=drawn)
    _GRIDS[(domain, grid)] = made
    return made
