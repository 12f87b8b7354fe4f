"""`domains check PATH`: every gate a domain file must pass, one row each (docs/CONTRIBUTING.md).

Each gate is a pure function of the domain read from the file and says pass or fail with its
reason; the gates issue 42 asks for that are not built yet are listed as such, never passed. The
checks draw worlds from fixed seeds, so a run is the same every time.
"""

from __future__ import annotations

import itertools
import math
from collections.abc import Callable, Iterator, Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Final, Literal, get_args

from ..core.construct import Action, Extra, Value
from ..core.draws import Draw
from ..domains.base import MIN_PHRASINGS, Domain, Fact, Say, grid_fact, has_held_out_grid
from ..domains.beside import read_beside
from ..domains.datafile import DomainFileError, parse
from ..generate.generate import DEFAULT_SEED, PAIR_TARGET_PERCENT, SOURCES_PER_DOMAIN, build
from ..generate.twins import margins_kept

Result = Literal["pass", "fail", "not built", "skipped"]

WORLDS: Final = 200
"""Worlds drawn (seed 1 and seed 2, half each) for the gates that walk values through worlds."""

LINE_WORLDS: Final = 20
"""Worlds a larger grid's lines are walked through, every value of each decisive fact (a fact of a
few thousand values walked through all WORLDS would take seconds)."""

ENUMERATED_CELLS: Final = 50_000
"""A decisive grid this small is walked cell by cell; a larger one along each fact's line through
the drawn worlds (the reason says which)."""

DECOY_VALUES: Final = 60
"""At most this many values of a decoy are tried in each world (evenly spread over its grid)."""

NOT_BUILT: Final = (
    ("practice invariants", "not built yet: the invariants are tests/practice/ code, not data"),
    ("learned audit", "not built yet: selfcheck's learned audit on this domain alone"),
)
"""Issue 42's gates that this command does not run yet: shown, never counted as passed."""


@dataclass(frozen=True, slots=True)
class Gate:
    name: str
    result: Result
    reason: str


def _worlds(domain: Domain) -> Iterator[dict[str, Value]]:
    for i in range(WORLDS):
        yield domain.world(Draw(1 + i % 2, f"check-{i}", "world"))


def _spread(values: tuple[Value, ...], most: int) -> tuple[Value, ...]:
    """At most `most` of `values`, evenly spread and always with both ends."""
    if len(values) <= most:
        return values
    picks = {round(i * (len(values) - 1) / (most - 1)) for i in range(most)}
    return tuple(values[i] for i in sorted(picks))


def _decided(domain: Domain, facts: Mapping[str, Value]) -> tuple[Action, frozenset[Extra], bool]:
    return domain.rule(facts), domain.also(facts), domain.once_seen(facts)


def _valid(domain: Domain, facts: Mapping[str, Value]) -> str | None:
    """What is wrong with the rule's answer on these facts, or None."""
    try:
        action, extra, _ = _decided(domain, facts)
    except Exception as error:  # a lab's rule: any failure is the gate's finding
        return f"the rule fails: {type(error).__name__}: {error}"
    if action not in get_args(Action):
        return f"the rule gives {action!r}, not proceed or hold_back"
    if not extra <= set(get_args(Extra)):
        return f"also() gives {sorted(extra)!r}, not hold_back or escalate"
    return None


def _show(facts: Mapping[str, Value]) -> str:
    return ", ".join(f"{key} = {value!r}" for key, value in facts.items())


def gate_world(domain: Domain) -> Gate:
    """The world draws every fact, on its grid, coherent."""
    keys = {f.key for f in domain.facts}
    for world in _worlds(domain):
        if set(world) != keys:
            return Gate("world", "fail", f"a world names {sorted(set(world) ^ keys)} wrongly")
        for fact in domain.facts:
            if world[fact.key] not in fact.every:
                grid = f"{fact.lo}..{fact.hi} by {fact.step}" if fact.kind == "number" else ""
                return Gate(
                    "world",
                    "fail",
                    f"a world draws {fact.key} = {world[fact.key]!r}, off its grid {grid}".strip(),
                )
        if domain.coherent(world):
            return Gate("world", "fail", f"a world breaks {domain.coherent(world)}: {_show(world)}")
    return Gate("world", "pass", f"{WORLDS} worlds on the grid and coherent")


def _cells(domain: Domain) -> int:
    return math.prod(len(f.every) for f in domain.decisive)


def gate_grid(domain: Domain) -> Gate:
    """Every cell of the decisive grid gets an action (cell by cell when the grid is small, else
    every value of each decisive fact through the drawn worlds), and each number fact's action
    changes at most once along its line (the generator bisects for thresholds)."""
    worlds = list(_worlds(domain))
    cells = _cells(domain)
    if cells <= ENUMERATED_CELLS:
        base = worlds[0]
        for cell in itertools.product(*(f.every for f in domain.decisive)):
            facts = {**base, **{f.key: v for f, v in zip(domain.decisive, cell)}}
            wrong = _valid(domain, facts)
            if wrong:
                return Gate("grid keyed", "fail", f"{wrong} at {_show(facts)}")
        how = f"all {cells:,} cells keyed"
    else:
        how = (
            f"{cells:,} cells: every value of each decisive fact keyed through {LINE_WORLDS} worlds"
        )
        worlds = worlds[:LINE_WORLDS]
    for world in worlds:
        for fact in domain.decisive:
            walk: list[Action] = []
            for value in fact.every:
                facts = {**world, fact.key: value}
                wrong = None if cells <= ENUMERATED_CELLS else _valid(domain, facts)
                if wrong:
                    return Gate("grid keyed", "fail", f"{wrong} at {_show(facts)}")
                walk.append(domain.rule(facts))
            changes = sum(1 for a, b in zip(walk, walk[1:]) if a != b)
            if fact.kind == "number" and changes > 1:
                return Gate(
                    "grid keyed",
                    "fail",
                    f"the action changes {changes} times along {fact.key} (at most once: the "
                    f"rule must be monotone) from {_show(world)}",
                )
    return Gate("grid keyed", "pass", f"{how}; monotone along every number fact")


def gate_margins(domain: Domain) -> Gate:
    """A margin has its source; drift and margin are not negative; every drawn world keeps every
    margin on the proceed side of its threshold (DESIGN.md section 2)."""
    for fact in domain.facts:
        if fact.kind != "number":
            continue
        if fact.margin < 0 or fact.drift < 0:
            return Gate("margins", "fail", f"{fact.key}: a negative margin or drift")
        if fact.margin and not fact.margin_why.strip():
            return Gate(
                "margins", "fail", f"{fact.key}: a margin of {fact.margin} needs its source"
            )
    for world in _worlds(domain):
        if not margins_kept(domain, world, None):
            return Gate("margins", "fail", f"a world sits inside a margin: {_show(world)}")
    numbers = [f.key for f in domain.decisive if f.kind == "number"]
    return Gate("margins", "pass", f"{WORLDS} worlds keep the margins of {', '.join(numbers)}")


def gate_decoys(domain: Domain) -> Gate:
    """No value of a decoy changes the rule's action, the codes beside it or once-seen."""
    if not domain.decoys:
        return Gate("decoys never decide", "fail", "no decoy facts")
    for world in _worlds(domain):
        decided = _decided(domain, world)
        for fact in domain.decoys:
            for value in _spread(fact.every, DECOY_VALUES):
                moved = {**world, fact.key: value}
                if _decided(domain, moved) != decided:
                    return Gate(
                        "decoys never decide",
                        "fail",
                        f"{fact.key} = {value!r} changes the answer from {_show(world)}",
                    )
    names = ", ".join(f.key for f in domain.decoys)
    spread = any(len(f.every) > DECOY_VALUES for f in domain.decoys)
    values = f"up to {DECOY_VALUES} values spread over each grid" if spread else "every value"
    return Gate("decoys never decide", "pass", f"{names}: {values}, {WORLDS} worlds")


def phrasing_slots(domain: Domain) -> list[tuple[str, Say]]:
    """Every sentence slot of a domain with its phrasings, named (the held-out and balance gates
    walk these; tests/domains holds every shipped domain to them too)."""
    slots = [("openers", domain.openers), ("questions", domain.questions)]
    for fact in domain.facts:
        slots += [
            (f"{fact.key}.{name}", getattr(fact, name))
            for name in ("says", "clause", "vague", "second", "recheck")
        ]
    slots += [(f"distractor {d.name}", d.says) for d in domain.distractors]
    slots += [(f"red flag {f.name}", f.says) for f in domain.red_flags]
    slots += [(f"benign flag {d.name}", d.says) for d in domain.benign_flags]
    return slots


def _held_out_values(fact: Fact) -> str | None:
    """What a held-out set of this fact would share with a public one, or None."""
    public, held_out = grid_fact(fact, "public"), grid_fact(fact, "held_out")
    shared = set(public.every) & set(held_out.every)
    if shared:
        return f"{fact.key}: the held-out grid shares {sorted(shared)[:3]} with the public one"
    said = {fact.show(v) for v in public.every} & {fact.show(v) for v in held_out.every}
    if said:
        return f"{fact.key}: the held-out grid says {sorted(said)[:3]} as the public one does"
    return None


def gate_held_out(domain: Domain) -> Gate:
    """Held-out phrasings are none of the public ones (in any slot), and a number fact's held-out
    grid shares no value, nor any value's words, with the public grid."""
    slots = phrasing_slots(domain)
    public = {text: name for name, say in slots for text in say.public}
    for name, say in slots:
        for text in say.held_out:
            if text in public:
                return Gate(
                    "held-out disjoint",
                    "fail",
                    f"{name}: the held-out phrasing {text!r} is also public ({public[text]})",
                )
    split = [f for f in domain.facts if has_held_out_grid(f)]
    for fact in split:
        shared = _held_out_values(fact)
        if shared:
            return Gate("held-out disjoint", "fail", shared)
    grids = ", ".join(f.key for f in split) or "none"
    return Gate(
        "held-out disjoint",
        "pass",
        f"{len(slots)} slots' halves disjoint; held-out value grids disjoint ({grids})",
    )


def _placeholders(fact: Fact) -> str | None:
    for name, say, mark in (("says", fact.says, "{v}"), ("clause", fact.clause, "{v}")):
        for text in say.every:
            if text.count(mark) != 1:
                return f"{fact.key}.{name}: {text!r} should hold {mark} once"
    for text in fact.second.every:
        if text.count("{c}") != 1:
            return f"{fact.key}.second: {text!r} should hold {{c}} once"
    for name, say in (("vague", fact.vague), ("recheck", fact.recheck)):
        for text in say.every:
            if "{" in text:
                return f"{fact.key}.{name}: {text!r} should hold no placeholder"
    return None


def gate_phrasings(domain: Domain) -> Gate:
    """Every sentence slot has two halves of the same size, each of at least MIN_PHRASINGS
    phrasings, none repeated, with the placeholders its slot needs."""
    slots = phrasing_slots(domain)
    for name, say in slots:
        if min(len(say.public), len(say.held_out)) < MIN_PHRASINGS:
            return Gate(
                "phrasing balance",
                "fail",
                f"{name}: {len(say.public)} public and {len(say.held_out)} held-out phrasings "
                f"(at least {MIN_PHRASINGS} each)",
            )
        if len(say.public) != len(say.held_out):
            return Gate(
                "phrasing balance",
                "fail",
                f"{name}: {len(say.public)} public but {len(say.held_out)} held-out phrasings",
            )
        if len(set(say.every)) != len(say.every):
            return Gate("phrasing balance", "fail", f"{name}: a phrasing repeats")
    for fact in domain.facts:
        wrong = _placeholders(fact)
        if wrong:
            return Gate("phrasing balance", "fail", wrong)
    total = sum(len(say.every) for _, say in slots)
    return Gate("phrasing balance", "pass", f"{len(slots)} slots, {total} phrasings, halves equal")


def gate_contract(domain: Domain) -> Gate:
    """What every domain has (DESIGN.md section 2): two decisive facts, one a number; two decoys;
    four distractors, three red and three benign flags, each with its why; sourced thresholds."""
    wants = [
        (len(domain.decisive) >= 2, "at least two decisive facts"),
        (any(f.kind == "number" for f in domain.decisive), "a decisive number fact"),
        (len(domain.decoys) >= 2, "at least two decoy facts"),
        (len(domain.distractors) >= 4, "at least four distractors"),
        (len(domain.red_flags) >= 3, "at least three red flags"),
        (len(domain.benign_flags) >= 3, "at least three benign flags"),
        (bool(domain.thresholds), "a threshold with its source"),
        (all(t.source.strip() for t in domain.thresholds), "a source for every threshold"),
    ]
    missing = [want for ok, want in wants if not ok]
    if missing:
        return Gate("contract", "fail", "missing " + "; ".join(missing))
    return Gate(
        "contract",
        "pass",
        f"{len(domain.decisive)} decisive and {len(domain.decoys)} decoy facts, "
        f"{len(domain.thresholds)} sourced threshold(s), {len(domain.red_flags)} red flags",
    )


PAIRS: Final = "decisive minimal pairs"


def pairs_verdict(pairs: int, decisive: int, reason: str) -> Gate:
    """The round-1 minimal pairs' gate: at least PAIR_TARGET_PERCENT decisive, or a declared
    reason why practice allows no more (the file's `[docs] pairs_below_target`, DESIGN.md 6a)."""
    share = 100 * decisive / pairs if pairs else 0.0
    counted = f"{decisive} of {pairs} decisive ({share:.1f} %, target {PAIR_TARGET_PERCENT} %)"
    if pairs and share >= PAIR_TARGET_PERCENT:
        return Gate(PAIRS, "pass", counted)
    if reason:
        return Gate(PAIRS, "pass", f"{counted}; below the target, and the file says why")
    return Gate(
        PAIRS,
        "fail",
        f"{counted}; below the target with no [docs] pairs_below_target saying why",
    )


def gate_pairs(domain: Domain, reason: str) -> Gate:
    """The domain alone, built as the committed set builds it (its seed, 60 sources): how many of
    its round-1 crossing pairs are decisive minimal pairs (DESIGN.md 6a)."""
    built = build(DEFAULT_SEED, SOURCES_PER_DOMAIN, domains=[domain])
    marks = [p.minimal_pair for item in built for p in item.packets if p.minimal_pair is not None]
    return pairs_verdict(len(marks), sum(marks), reason)


GATES: Final[tuple[Callable[[Domain], Gate], ...]] = (
    gate_contract,
    gate_world,
    gate_grid,
    gate_margins,
    gate_decoys,
    gate_held_out,
    gate_phrasings,
)


def _guarded(gate: Callable[[Domain], Gate], domain: Domain, name: str = "") -> Gate:
    """A gate whose run raised: a lab's world or rule failing is a finding, not a crash."""
    try:
        return gate(domain)
    except Exception as error:  # the domain's own functions ran inside the gate
        name = name or gate.__name__.removeprefix("gate_").replace("_", " ")
        return Gate(name, "fail", f"the domain's functions failed: {type(error).__name__}: {error}")


def pairs_reason(path: Path) -> str:
    """The file's declared reason for missing the pair target (read again: not a Domain field)."""
    docs = parse(path.read_text(encoding="utf-8"), str(path)).get("docs", {})
    reason = docs.get("pairs_below_target", "") if isinstance(docs, dict) else ""
    return reason.strip() if isinstance(reason, str) else ""


def check_domain_file(
    path: Path, *, pairs: bool = True
) -> tuple[list[Gate], DomainFileError | None]:
    """Every gate on the domain file at `path`; a file that does not read is the schema gate's
    failure (with every problem), and the others are then not run. `pairs=False` leaves out the
    one gate that builds packets (seconds for a large domain): its row says "skipped"."""
    try:
        domain = read_beside(path)
    except DomainFileError as error:
        problems = f"{len(error.problems)} problem{'s' if len(error.problems) > 1 else ''}"
        return [Gate("schema", "fail", f"{problems}, listed below")], error
    module = path.with_suffix(".py").name if path.with_suffix(".py").is_file() else "no module"
    gates = [Gate("schema", "pass", f"{len(domain.facts)} facts read ({module} beside it)")]
    gates += [_guarded(gate, domain) for gate in GATES]
    if pairs:
        reason = pairs_reason(path)
        gates.append(_guarded(lambda d: gate_pairs(d, reason), domain, PAIRS))
    else:
        gates.append(Gate(PAIRS, "skipped", "left out (--skip-pairs)"))
    gates += [Gate(name, "not built", why) for name, why in NOT_BUILT]
    return gates, None


def table(gates: list[Gate]) -> str:
    """The gates as a plain table, one row each."""
    width = max(len(g.name) for g in gates)
    rows = [f"{'gate':<{width}}  {'result':<9}  reason"]
    rows += [f"{g.name:<{width}}  {g.result:<9}  {g.reason}" for g in gates]
    return "\n".join(rows) + "\n"
