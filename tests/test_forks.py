"""Round-2 forks over random seeds, for every domain and the synthetic one (DESIGN.md section 4):
no red-flag retraction, change and confirm drawn alike, plausible moves, pressure in two directions,
the one key function, and the held-out surface."""

from __future__ import annotations

from functools import lru_cache

import pytest
from hypothesis import given, settings

from honesty_pressure.construct import Surface
from honesty_pressure.domains import DOMAINS
from honesty_pressure.domains.base import Domain
from honesty_pressure.evidence import evaluate, seen
from honesty_pressure.followups import CAUTION, EVIDENCE, RISK
from honesty_pressure.fork import Fork, Parent, make_forks, plan
from honesty_pressure.domains.base import grid_domain
from honesty_pressure.generate import build
from honesty_pressure.menu import build_menu, decision_codes
from honesty_pressure.twins import sound

from .strategies import seeds
from .toydomain import TOY

ALL: tuple[Domain, ...] = (*DOMAINS, TOY)


@lru_cache(maxsize=32)
def forks_of(domain: Domain, seed: int, surface: Surface = "public", answer: str = "oracle") -> tuple[Fork, ...]:
    """Every fork of a small set, its parents answered by the oracle (or always 'A'), on the value
    grid the set was built with (as advance takes it: domains.by_name(name, surface))."""
    declared, domain = domain, grid_domain(domain, surface)
    parents = []
    for item in build(seed, 2, (declared,), surface):
        menu = build_menu(domain, item.source)
        for packet in item.packets:
            decision = packet.acceptable[0] if answer == "oracle" else answer
            parents.append(
                Parent(
                    packet_id=packet.packet_id,
                    sample=0,
                    messages=(("system", packet.system), ("user", packet.user)),
                    menu=menu,
                    ledger=packet.ledger,
                    proceed_is_a=item.source.proceed_is_a,
                    reply="a reply",
                    reply_sha256="0" * 64,
                    decision=decision,
                )
            )
    escalation = {(p.packet_id, 0) for p in parents if evaluate(domain, p.ledger).state == "escalation"}
    kinds = plan([(p.packet_id, 0) for p in parents], seed, "default", escalation)
    out: list[Fork] = []
    for parent in parents:
        out += make_forks(domain, parent, kinds[(parent.packet_id, 0)], seed, held_out=surface == "held_out")
    return tuple(out)


@pytest.mark.parametrize("domain", ALL, ids=lambda d: d.name)
@given(seed=seeds)
@settings(max_examples=5, deadline=None)
def test_forks_keep_the_construct(domain: Domain, seed: int) -> None:
    forks = forks_of(domain, seed)
    by_parent: dict[str, dict[str, Fork]] = {}
    for fork in forks:
        by_parent.setdefault(fork.parent.packet_id, {})[fork.kind] = fork
        before = evaluate(domain, fork.parent.ledger)
        assert fork.expected == evaluate(domain, fork.ledger)
        assert (fork.acceptable, fork.forbidden) == decision_codes(fork.expected, fork.parent.proceed_is_a)
        assert sound(domain, fork.ledger), fork.packet_id
        if fork.kind in ("neutral", "pressure"):
            assert fork.ledger == fork.parent.ledger and fork.edit is None
        if fork.kind == "evidence_confirm":
            assert fork.expected == before, "a confirmation never changes the key"
        if fork.kind == "evidence_change":
            assert before.state != "escalation", "no red-flag retraction"
            assert fork.expected.state == "sufficient"
            assert before.state != "sufficient" or fork.expected.action != before.action
            assert fork.edit is not None
            fact = domain.fact(fork.edit.slot)
            if before.state == "sufficient" and fact.kind == "number" and fact.drift > 0:
                assert abs(int(fork.edit.after) - int(fork.edit.before)) <= fact.drift  # type: ignore[arg-type]
    for kinds in by_parent.values():
        parent = next(iter(kinds.values())).parent
        escalation = evaluate(domain, parent.ledger).state == "escalation"
        # A report practice never lets go of (Domain.once_seen) is not un-said either (issue 18).
        assert ("evidence_change" in kinds) != (escalation or seen(domain, parent.ledger))
        assert {"neutral", "pressure", "evidence_confirm"} <= set(kinds)


@pytest.mark.parametrize("domain", ALL, ids=lambda d: d.name)
@given(seed=seeds)
@settings(max_examples=4, deadline=None)
def test_change_and_confirm_name_the_same_kind_of_fact(domain: Domain, seed: int) -> None:
    forks = forks_of(domain, seed)
    confirms = [f for f in forks if f.kind == "evidence_confirm"]
    decisive = {f.key for f in domain.decisive}
    named = sum(1 for f in confirms if f.edit is not None and f.edit.slot in decisive)
    assert named >= 0.9 * len(confirms), f"only {named} of {len(confirms)} confirmations name a decisive fact"
    changes = {f.parent.packet_id: f for f in forks if f.kind == "evidence_change"}
    same = [f for f in confirms if f.parent.packet_id in changes and f.edit and changes[f.parent.packet_id].edit and f.edit.slot == changes[f.parent.packet_id].edit.slot]  # type: ignore[union-attr]
    settled = [f for f in confirms if f.parent.packet_id in changes and evaluate(domain, f.parent.ledger).state == "sufficient"]
    assert len(same) >= 0.5 * len(settled), "a confirmation uses the change's fact where it can"


@pytest.mark.parametrize("domain", ALL, ids=lambda d: d.name)
@given(seed=seeds)
@settings(max_examples=3, deadline=None)
def test_pushes_toward_caution_voice_doubt_not_a_plan(domain: Domain, seed: int) -> None:
    for answer in ("A", "B"):
        for fork in forks_of(domain, seed, answer=answer):
            if fork.kind == "neutral":
                continue
            toward_caution = fork.push == "hold_back"
            assert fork.direction == ("caution" if toward_caution else "risk")
            if toward_caution:
                assert domain.risk in fork.follow_up and domain.push_hold_back not in fork.follow_up
            else:
                assert domain.push_proceed in fork.follow_up
            assert "just just" not in fork.follow_up


@pytest.mark.parametrize("domain", ALL, ids=lambda d: d.name)
@given(seed=seeds)
@settings(max_examples=2, deadline=None)
def test_held_out_forks_use_only_held_out_frames(domain: Domain, seed: int) -> None:
    public_frames = [t.split("{")[0] for table in (RISK, CAUTION) for say in table.values() for t in say.public if not t.startswith("{")]
    public_frames += [t.split("{")[0] for t in EVIDENCE.public]
    for fork in forks_of(domain, seed, "held_out", "A"):
        assert not any(frame and frame in fork.follow_up for frame in public_frames), fork.follow_up
