"""Round k+1 from frozen round-k replies: independent forks, each one follow-up (DESIGN.md section
4).

A fork's request is its parent's messages, the frozen reply verbatim, and one user follow-up;
nothing else, and no fork sees another. The follow-up pushes for the other action when the first
decision was A or B, for `proceed` otherwise; a push toward caution voices doubt about the
assessment, a push toward risk the wish to go ahead. After an evidence follow-up the ledger is
edited and the key recomputed by the same key function as round 1.

`evidence_change` and `evidence_confirm` are drawn alike: both name a decisive fact (a decoy only
where no decisive fact can be re-stated), both give that fact's own reason for the new
information, a confirmation uses the change's fact where it can and moves it by about the same
amount, and every value stays within the fact's plausible drift. Escalation parents get no
`evidence_change`: a symptom already told cannot plausibly be un-said.
"""

from __future__ import annotations

import dataclasses
import re
from collections.abc import Callable, Collection, Sequence
from dataclasses import dataclass
from typing import Final

from ..core.canonical import sha256_hex
from ..core.construct import (
    PRESSURE_TYPES,
    Action,
    Edit,
    Expected,
    ForkKind,
    Ledger,
    MenuItem,
    PressureType,
    Protocol,
    Value,
)
from ..core.draws import Draw, permute, unpermute
from ..domains.base import Domain
from ..generate.evidence import evaluate, evaluate_uncached, placements, seen, with_value
from ..generate.menu import decision_codes
from ..generate.pairs import premise, same_shape_first, shape
from ..generate.render import clause, pick
from ..generate.twins import (
    corrected,
    first_fit,
    flip_side,
    flips,
    nearby,
    replace_fact,
    sound,
    sound_once,
)
from .followups import (
    CLOSING,
    EVIDENCE,
    NEUTRAL,
    SIGN_OFFS,
    Direction,
    follow_up,
    pressure_sentence,
)

JsonObject = dict[str, object]


@dataclass(frozen=True, slots=True, kw_only=True)
class Parent:
    """A packet of round k with its frozen reply: what forks grow from."""

    packet_id: str
    sample: int
    messages: tuple[tuple[str, str], ...]
    menu: tuple[MenuItem, ...]
    ledger: Ledger
    proceed_is_a: bool
    reply: str | None
    reply_sha256: str | None
    decision: str | None
    refused: bool = False
    """The reply is a refusal: its forks are never sent and score `refused_parent`, not
    `runner_error` (a refusal is the model's answer, not the runner's failure)."""


@dataclass(frozen=True, slots=True, kw_only=True)
class Fork:
    packet_id: str
    parent: Parent
    kind: ForkKind
    pressure: PressureType | None
    push: Action
    direction: Direction
    ledger: Ledger
    expected: Expected
    acceptable: tuple[str, ...]
    forbidden: tuple[str, ...]
    edit: Edit | None
    follow_up: str
    minimal_pair: bool | None = None

    @property
    def messages(self) -> tuple[tuple[str, str], ...]:
        assert self.parent.reply is not None, "a fork needs its parent's reply"
        return (*self.parent.messages, ("assistant", self.parent.reply), ("user", self.follow_up))


def push_direction(decision: str | None, proceed_is_a: bool) -> Action:
    """The action the user pushes for: the other one after A or B, `proceed` after anything else."""
    if decision in ("A", "B"):
        chose_proceed = (decision == "A") == proceed_is_a
        return "hold_back" if chose_proceed else "proceed"
    return "proceed"


def plan(
    parents: Sequence[tuple[str, int]],
    seed: int,
    protocol: Protocol,
    escalation: Collection[tuple[str, int]] = (),
) -> dict[tuple[str, int], list[tuple[ForkKind, PressureType | None]]]:
    """Which forks each parent gets. The triad's pressure type is dealt round-robin over a seeded
    order of the parents, so every type appears equally often (within one). An escalation parent's
    triad has no `evidence_change` (no red-flag retraction)."""
    order = sorted(parents, key=lambda p: sha256_hex(f"{seed}|triad|{p[0]}|{p[1]}"))
    out: dict[tuple[str, int], list[tuple[ForkKind, PressureType | None]]] = {}
    for index, parent in enumerate(order):
        triad = PRESSURE_TYPES[index % len(PRESSURE_TYPES)]
        forks: list[tuple[ForkKind, PressureType | None]] = [("neutral", None), ("pressure", triad)]
        if parent not in escalation:
            forks.append(("evidence_change", triad))
        forks.append(("evidence_confirm", triad))
        if protocol == "full":
            forks += [("pressure", t) for t in PRESSURE_TYPES if t != triad]
        out[parent] = forks
    return out


FORK_SLOTS: Final = 32
"""More than the (kind, pressure type) pairs one parent can get: neutral, and each of the ten
types for pressure, evidence_change and evidence_confirm (31)."""
_FORK_PAIRS: Final[tuple[tuple[ForkKind, PressureType | None], ...]] = (
    ("neutral", None),
    *(
        (kind, pressure)
        for kind in ("pressure", "evidence_change", "evidence_confirm")
        for pressure in PRESSURE_TYPES
    ),
)
assert len(_FORK_PAIRS) < FORK_SLOTS


FORK_ID_BITS: Final = 20
"""What a fork adds to its parent's id: 15 bits of sample and 5 of (kind, pressure) slot, so a
fork id is 5 hex digits longer than its parent's."""
_SAMPLE_BITS: Final = 15
_HEX_ID: Final = re.compile(r"\A[0-9a-f]{16,}\Z")
"""A packet id the kit made: round 1's are 16 hex digits, and each later round's 5 more."""


def fork_id(seed: int, parent: Parent, kind: ForkKind, pressure: PressureType | None) -> str:
    """Opaque and unique by construction: a keyed permutation (draws.permute, keyed by the seed) of
    (parent id, sample, kind and pressure), as lowercase hex 5 digits longer than the parent's.

    The encoding is injective (the parent's id as a number of its width, then the sample and the
    slot in bits of their own), and a permutation keeps it so: no two forks of a round share an
    id. Through the permutation the forks of one parent share nothing, no prefix, no mask, no
    digit, so neither the parent nor the kind can be read from the id without the seed; the kit
    maps an id back with `fork_origin`, or through the round's key."""
    if not 0 <= parent.sample < 1 << _SAMPLE_BITS:
        raise ValueError(f"sample {parent.sample} is out of range for a fork id")
    if not _HEX_ID.match(parent.packet_id):
        raise ValueError(f"{parent.packet_id!r} is not a packet id the kit made")
    bits = 4 * len(parent.packet_id) + FORK_ID_BITS
    index = _FORK_PAIRS.index((kind, pressure))
    value = (int(parent.packet_id, 16) << FORK_ID_BITS) | (parent.sample << 5) | index
    return f"{permute(f'{seed}|fork-id', value, bits):0{bits // 4}x}"


def fork_origin(
    seed: int, ident: str
) -> tuple[str, int, tuple[ForkKind, PressureType | None]] | None:
    """What a fork id names: (parent id, sample, (kind, pressure)), or None where the id is no
    fork id of this seed (not hex, too short, or naming no (kind, pressure) pair)."""
    if len(ident) < 21 or not _HEX_ID.match(ident):
        return None
    bits = 4 * len(ident) - FORK_ID_BITS
    value = unpermute(f"{seed}|fork-id", int(ident, 16), bits + FORK_ID_BITS)
    index = value & (FORK_SLOTS - 1)
    if index >= len(_FORK_PAIRS):
        return None
    parent = f"{value >> FORK_ID_BITS:0{bits // 4}x}"
    return parent, (value >> 5) & ((1 << _SAMPLE_BITS) - 1), _FORK_PAIRS[index]


@dataclass(frozen=True, slots=True, kw_only=True)
class Move:
    """New information about one fact: the edited ledger, the edit, and the fact and value said."""

    ledger: Ledger
    edit: Edit
    key: str
    value: Value


def _supplied_value(domain: Domain, ledger: Ledger, key: str, draw: Draw) -> Value:
    """A value supplied for a missing fact: drawn uniformly among those clear of its threshold
    that leave a sound ledger (coherent, within margins, correctable again next round), tested
    lazily in a seeded order (the first that passes a random order is a uniform choice)."""
    fact = domain.fact(key)
    probe = with_value(ledger.fact_dict(), key, fact.values()[0])
    for value in draw.lazy_shuffled(placements(domain, probe, key, "clear")):
        if sound(domain, replace_fact(ledger, key, value)):
            return value
    return draw.choice(fact.values())


def change(domain: Domain, ledger: Ledger, expected: Expected, draw: Draw) -> Move | None:
    """A new decisive fact: supplies the missing value, resolves the contradiction, or corrects a
    value across its threshold by a plausible amount (within the fact's drift), so the state stays
    settled and the action flips. None on an escalation state or where nothing can plausibly
    change."""
    facts = ledger.fact_dict()
    if expected.state == "escalation":
        return None
    if expected.state == "contradiction" and ledger.conflict is not None:
        key, other = ledger.conflict
        value = draw.choice([facts[key], other])
        edited = dataclasses.replace(replace_fact(ledger, key, value), conflict=None)
        return Move(
            ledger=edited,
            edit=Edit(slot=key, before=[facts[key], other], after=value),
            key=key,
            value=value,
        )
    if expected.state == "insufficient" and expected.ask is not None:
        key = expected.ask
        value = _supplied_value(domain, ledger, key, draw)
        return Move(
            ledger=replace_fact(ledger, key, value),
            edit=Edit(slot=key, before=None, after=value),
            key=key,
            value=value,
        )
    # A uniform choice of fact among those with a plausible correction across, then of value,
    # found lazily: the first fit of a random order is a uniform choice among the fits. A
    # correction the confirmation can mirror comes first (a minimal pair, DESIGN.md 6a), as
    # round 1's twins take a pairable value first; only where none exists, any that flips.
    present = sorted(f.key for f in domain.decisive if f.key in facts)
    mirrors = _mirrors(domain, ledger, expected)

    def values(key: str) -> list[Value]:
        return flip_side(domain, ledger, key)

    def crosses(key: str, value: Value) -> bool:
        return flips(domain, ledger, key, value)

    found = first_fit(
        draw, [present], values, lambda key, value: crosses(key, value) and mirrors(key, value)
    )
    if found is None:
        found = first_fit(draw, [present], values, crosses)
    if found is None:
        return None
    key, value = found
    return Move(
        ledger=corrected(ledger, key, value),
        edit=Edit(slot=key, before=facts[key], after=value),
        key=key,
        value=value,
    )


def _mirrors(domain: Domain, ledger: Ledger, expected: Expected) -> Callable[[str, Value], bool]:
    """Whether a correction of a settled ledger's `key` to `value` can be the change of a decisive
    minimal pair: its key meets none of the ledger's codes (a confirmation keeps the ledger's key
    exactly, so the two keys are disjoint only then), and some value `confirm` may take for the
    same fact has the same shape. Which confirming shapes exist is found once per fact."""
    facts = ledger.fact_dict()
    before = set(decision_codes(expected, True)[0])  # disjointness does not depend on the A/B order
    complete = all(f.key in facts for f in domain.decisive)
    keep_side = expected.action if complete else None
    shapes: dict[str, set[str]] = {}

    def confirming(key: str) -> set[str]:
        if key not in shapes:
            # The values confirm() draws from for this fact (the value re-stated, or a nearby one
            # on the same side), each shape kept once one of its values keeps the key.
            found: set[str] = set()
            for value in (facts[key], *nearby(domain, ledger, key, keep_side)):
                form = shape(domain, key, value)
                if form not in found and _keeps(domain, ledger, expected, key, value):
                    found.add(form)
            shapes[key] = found
        return shapes[key]

    def mirrors(key: str, value: Value) -> bool:
        if (
            set(decision_codes(evaluate_uncached(domain, corrected(ledger, key, value)), True)[0])
            & before
        ):
            return False
        return shape(domain, key, value) in confirming(key)

    return mirrors


def _keeps(domain: Domain, ledger: Ledger, expected: Expected, key: str, value: Value) -> bool:
    """The value leaves the key exactly as it was, and the ledger sound (coherent, within margins,
    and continuable: a next round can still correct a value across)."""
    moved = corrected(ledger, key, value)
    # Uncached throughout: each candidate is a new ledger, asked about once.
    return evaluate_uncached(domain, moved) == expected and sound_once(domain, moved, expected)


def confirm(
    domain: Domain, ledger: Ledger, expected: Expected, draw: Draw, like: Move | None
) -> Move:
    """New information that leaves the key as it was: a decisive value re-stated or corrected on
    the same side. It names the change's fact where it can, moved by about the change's amount,
    so fact, magnitude and reason come from one distribution; a decoy only where no decisive fact
    can be re-stated."""
    facts = ledger.fact_dict()
    # Re-checking the fact a contradiction is about would resolve it (that is a change).
    conflicted = (
        ledger.conflict[0]
        if ledger.conflict is not None and expected.state == "contradiction"
        else None
    )
    decisive = [f.key for f in domain.decisive if f.key in facts and f.key != conflicted]

    complete = all(f.key in facts for f in domain.decisive)
    keep_side = expected.action if expected.state == "sufficient" and complete else None

    def values(key: str) -> list[Value]:
        # On a settled, complete ledger only values on the same side can keep the key.
        options = draw.shuffled([facts[key], *nearby(domain, ledger, key, keep_side)])  # a new list
        if (
            like is not None
            and like.key == key
            and domain.fact(key).kind == "number"
            and isinstance(like.edit.before, int)
        ):
            target, here = abs(int(like.value) - int(like.edit.before)), int(facts[key])
            options.sort(
                key=lambda v: abs(abs(int(v) - here) - target)
            )  # stable: ties stay shuffled
        if like is not None and like.key == key:
            # The change's shape first: the pair then differs only in the value (DESIGN.md 6a).
            options = same_shape_first(domain, key, like.value, options)
        return options

    def fits(key: str, value: Value) -> bool:
        return _keeps(domain, ledger, expected, key, value)

    found = None
    if like is not None and like.key in decisive:
        found = next(((like.key, v) for v in values(like.key) if fits(like.key, v)), None)
    if found is None:
        found = first_fit(draw, [decisive], values, fits)
    if found is None:
        decoys = [f.key for f in domain.decoys if f.key in facts]
        found = first_fit(draw, [decoys], values, fits) or (decoys[0], facts[decoys[0]])
    key, value = found
    return Move(
        ledger=corrected(ledger, key, value),
        edit=Edit(slot=key, before=facts[key], after=value),
        key=key,
        value=value,
    )


def evidence_sentence(domain: Domain, move: Move, index: int, held_out: bool) -> str:
    fact = domain.fact(move.key)
    frame = pick(EVIDENCE, index, held_out)
    return frame.format(
        r=pick(fact.recheck, index, held_out),
        c=clause(domain, move.key, move.value, index, held_out),
    )


@dataclass(frozen=True, slots=True, kw_only=True)
class Part:
    """What a fork is whatever the first decision was: its kind, the edited ledger and the key, the
    evidence it carries, and its phrasing draws. Only the push (and so the follow-up's pressure
    sentence) depends on the first decision, so these are computed once per parent."""

    kind: ForkKind
    pressure: PressureType | None
    ledger: Ledger
    expected: Expected
    acceptable: tuple[str, ...]
    forbidden: tuple[str, ...]
    edit: Edit | None
    evidence: str | None
    pressure_index: int
    closing_index: int
    minimal_pair: bool | None = None
    """evidence_change and evidence_confirm only: whether the triad's two are a decisive minimal
    pair (pairs.premise on their evidence sentences and keys); None for the other kinds."""


def fork_parts(
    domain: Domain,
    parent: Parent,
    kinds: Sequence[tuple[ForkKind, PressureType | None]],
    seed: int,
    *,
    held_out: bool = False,
) -> list[Part]:
    """The decision-independent part of each fork of `parent`."""
    expected_before = evaluate(domain, parent.ledger)
    parts = []
    changes: dict[PressureType | None, Move | None] = {}
    item = f"{parent.packet_id}#{parent.sample}"
    phrasings: dict[PressureType | None, tuple[int, int, int]] = {}
    for kind, pressure in kinds:
        if kind == "evidence_change" and seen(domain, parent.ledger):
            # "Once seen, act" (Domain.once_seen): no later reading un-says such a report, as no
            # later message un-says a red flag; the parent's triad keeps its neutral, pressure and
            # confirm forks.
            continue
        # The triad shares one phrasing draw: the same push with and without decisive evidence.
        # (A fresh Draw of the same purpose gives the same three numbers, so they are drawn once.)
        if pressure not in phrasings:
            phrasing = Draw(seed, item, f"phrasing:{pressure}")
            phrasings[pressure] = phrasing.below(6), phrasing.below(6), phrasing.below(6)
        pressure_index, evidence_index, closing_index = phrasings[pressure]
        ledger, edit, said = parent.ledger, None, None
        if kind in ("evidence_change", "evidence_confirm"):
            if pressure not in changes:
                changes[pressure] = change(
                    domain,
                    parent.ledger,
                    expected_before,
                    Draw(seed, item, f"fork:evidence_change:{pressure}"),
                )
            changed = changes[pressure]
            if kind == "evidence_change":
                if changed is None:
                    raise ValueError(
                        f"{parent.ledger.source_id}: no decisive fact can plausibly change"
                    )
                move = changed
            else:
                move = confirm(
                    domain,
                    parent.ledger,
                    expected_before,
                    Draw(seed, item, f"fork:evidence_confirm:{pressure}"),
                    changed,
                )
            ledger, edit, said = (
                move.ledger,
                move.edit,
                evidence_sentence(domain, move, evidence_index, held_out),
            )
        expected = evaluate(domain, ledger)
        acceptable, forbidden = decision_codes(expected, parent.proceed_is_a)
        parts.append(
            Part(
                kind=kind,
                pressure=pressure,
                ledger=ledger,
                expected=expected,
                acceptable=acceptable,
                forbidden=forbidden,
                edit=edit,
                evidence=said,
                pressure_index=pressure_index,
                closing_index=closing_index,
            )
        )
    return _mark_pairs(domain, parts)


def _mark_pairs(domain: Domain, parts: list[Part]) -> list[Part]:
    """Each triad's change and confirm marked as a decisive minimal pair or not: the same fact,
    evidence sentences equal once the value is masked, the same shape, disjoint keys. (The rest
    of the follow-up, the pressure sentence and the closing, is drawn once per triad.)"""
    by_triad: dict[PressureType | None, dict[ForkKind, int]] = {}
    for index, part in enumerate(parts):
        if part.kind in ("evidence_change", "evidence_confirm"):
            by_triad.setdefault(part.pressure, {})[part.kind] = index
    out = list(parts)
    for members in by_triad.values():
        decisive = False
        if len(members) == 2:
            a, b = out[members["evidence_change"]], out[members["evidence_confirm"]]
            if (
                a.edit is not None
                and b.edit is not None
                and a.edit.slot == b.edit.slot
                and a.evidence
                and b.evidence
            ):
                values = (a.edit.after, b.edit.after)
                if not any(isinstance(v, list) or v is None for v in values):
                    decisive = (
                        premise(
                            domain,
                            a.edit.slot,
                            (a.evidence, b.evidence),
                            values,  # type: ignore[arg-type]
                            (a.acceptable, b.acceptable),
                        )
                        is None
                    )
        for index in members.values():
            out[index] = dataclasses.replace(out[index], minimal_pair=decisive)
    return out


def assemble(
    domain: Domain,
    parent: Parent,
    part: Part,
    seed: int,
    *,
    held_out: bool = False,
    push: Action | None = None,
    sign_off_last: bool = False,
) -> Fork:
    """A fork from its part and the parent's first decision: the push and the follow-up. `push`
    overrides the direction the decision gives (a sustained thread keeps its own: sustained.py).
    With `sign_off_last` (sustained rounds 3 on), a sign-off push ends its message (SIGN_OFFS)."""
    if push is None:
        push = push_direction(parent.decision, parent.proceed_is_a)
    direction: Direction = "caution" if push == "hold_back" else "risk"
    closing = pick(CLOSING, part.closing_index, held_out)
    if part.kind == "neutral":
        text = pick(NEUTRAL, part.closing_index, held_out)
    else:
        assert part.pressure is not None, "every fork but neutral carries a pressure type"
        push_text = domain.push_proceed if push == "proceed" else domain.push_hold_back
        text = follow_up(
            pressure=pressure_sentence(
                part.pressure,
                direction,
                part.pressure_index,
                held_out,
                push=push_text,
                risk=domain.risk,
            ),
            evidence=part.evidence,
            closing=None if sign_off_last and (part.pressure, direction) in SIGN_OFFS else closing,
        )
    return Fork(
        packet_id=fork_id(seed, parent, part.kind, part.pressure),
        parent=parent,
        kind=part.kind,
        pressure=part.pressure,
        push=push,
        direction=direction,
        ledger=part.ledger,
        expected=part.expected,
        acceptable=part.acceptable,
        forbidden=part.forbidden,
        edit=part.edit,
        follow_up=text,
        minimal_pair=part.minimal_pair,
    )


def make_forks(
    domain: Domain,
    parent: Parent,
    kinds: Sequence[tuple[ForkKind, PressureType | None]],
    seed: int,
    *,
    held_out: bool = False,
    push: Action | None = None,
    sign_off_last: bool = False,
) -> list[Fork]:
    parts = fork_parts(domain, parent, kinds, seed, held_out=held_out)
    return [
        assemble(
            domain, parent, part, seed, held_out=held_out, push=push, sign_off_last=sign_off_last
        )
        for part in parts
    ]
