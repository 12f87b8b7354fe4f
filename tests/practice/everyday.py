"""Every key of one domain, as the practice invariants and the pattern counter read them.

`keys(domain)` is every round-1 packet of the full layer (committed seed, 60 sources a domain)
and every round-2 fork of `advance --protocol full` grown from three reply policies (the oracle's
first acceptable code, always proceed, always hold back), and the same for a fresh seed and for
the held-out surface. Each key carries the ledger, the codes in the construct's words (independent
of the A/B order), the text the user wrote, and for a fork its parent's ledger and edit, so a
failing check names the packet or fork id. Built once per domain per process.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from functools import lru_cache

from honesty_pressure.construct import Edit, Expected, Ledger, Surface, Value
from honesty_pressure.domains import by_name
from honesty_pressure.evidence import evaluate
from honesty_pressure.fork import Parent, make_forks, plan
from honesty_pressure.generate import DEFAULT_SEED, SOURCES_PER_DOMAIN, build
from honesty_pressure.menu import action_code, build_menu

FRESH_SEED = 7_130_911
"""A seed no committed file uses: the checks must hold beyond the committed layer."""
POLICIES = ("oracle", "proceed", "hold_back")


@dataclass(frozen=True, slots=True)
class Key:
    id: str
    domain: str
    layer: str  # "committed", "fresh" (FRESH_SEED) or "held_out"
    where: str  # "round1" or "round2:<policy>"
    family: str  # a packet's family, or a fork's kind
    pressure: str | None
    ledger: Ledger
    expected: Expected
    acceptable: frozenset[str]
    forbidden: frozenset[str]
    text: str  # the user's message (round 1) or follow-up (round 2)
    parent: Ledger | None
    edit: Edit | None


def words(code: str, proceed_is_a: bool) -> str:
    if code in ("A", "B"):
        return "proceed" if (code == "A") == proceed_is_a else "hold_back"
    if code.startswith("ASK "):
        return f"ask {code[4:]}"
    return code.lower()


def _set(seed: int, surface: Surface, domain_name: str, sources: int, layer: str = "committed") -> list[Key]:
    domain = by_name(domain_name)
    out: list[Key] = []
    parents: dict[str, list[Parent]] = {p: [] for p in POLICIES}
    for item in build(seed, sources, (domain,), surface):
        a = item.source.proceed_is_a
        menu = build_menu(domain, item.source)
        for packet in item.packets:
            out.append(
                Key(
                    id=packet.packet_id, domain=domain_name, layer=layer, where="round1", family=packet.family, pressure=None,
                    ledger=packet.ledger, expected=packet.expected,
                    acceptable=frozenset(words(c, a) for c in packet.acceptable),
                    forbidden=frozenset(words(c, a) for c in packet.forbidden),
                    text=packet.user, parent=None, edit=packet.edit,
                )
            )
            for policy in POLICIES:
                decision = packet.acceptable[0] if policy == "oracle" else action_code(policy, a)  # type: ignore[arg-type]
                parents[policy].append(
                    Parent(
                        packet_id=packet.packet_id, sample=0, messages=(("system", packet.system), ("user", packet.user)),
                        menu=menu, ledger=packet.ledger, proceed_is_a=a, reply="A reply.", reply_sha256="0" * 64,
                        decision=decision,
                    )
                )
    for policy, group in parents.items():
        escalation = {(p.packet_id, 0) for p in group if evaluate(domain, p.ledger).state == "escalation"}
        kinds = plan([(p.packet_id, 0) for p in group], seed, "full", escalation)
        for parent in group:
            for fork in make_forks(domain, parent, kinds[(parent.packet_id, 0)], seed, held_out=surface == "held_out"):
                a = parent.proceed_is_a
                out.append(
                    Key(
                        id=fork.packet_id, domain=domain_name, layer=layer, where=f"round2:{policy}", family=fork.kind,
                        pressure=fork.pressure, ledger=fork.ledger, expected=fork.expected,
                        acceptable=frozenset(words(c, a) for c in fork.acceptable),
                        forbidden=frozenset(words(c, a) for c in fork.forbidden),
                        text=fork.follow_up, parent=parent.ledger, edit=fork.edit,
                    )
                )
    return out


@lru_cache(maxsize=16)
def keys(domain_name: str, full: bool = True) -> tuple[Key, ...]:
    """The committed full layer, a fresh seed and the held-out surface (fewer sources for the
    last two, which only widen what the checks see)."""
    out = _set(DEFAULT_SEED, "public", domain_name, SOURCES_PER_DOMAIN)
    if full:
        out += _set(FRESH_SEED, "public", domain_name, 20, "fresh")
        out += _set(DEFAULT_SEED, "held_out", domain_name, 20, "held_out")
    return tuple(out)


def facts(k: Key) -> dict[str, Value]:
    return dict(k.ledger.facts)


def reports(k: Key, key: str) -> list[Value]:
    """Every value the ledger reports for a fact: the main one and a second report (empty when
    the fact is not given)."""
    f = facts(k)
    out: list[Value] = [f[key]] if key in f else []
    if k.ledger.conflict is not None and k.ledger.conflict[0] == key and key in f:
        out.append(k.ledger.conflict[1])
    return out


def readings(k: Key, *names: str) -> list[dict[str, int]]:
    """Every combination of reported numbers for the named facts (empty when one is not given)."""
    combos: list[dict[str, int]] = [{}]
    for name in names:
        values = reports(k, name)
        if not values:
            return []
        combos = [{**c, name: int(v)} for c in combos for v in values]
    return combos


def violations(domain: str, broken: Callable[[Key], bool]) -> list[str]:
    """The ids (with where they come from) of every key the check finds broken."""
    return [f"{k.id} ({k.layer}, {k.where}, {k.family})" for k in keys(domain) if broken(k)]


def report(found: list[str]) -> str:
    return f"{len(found)} keys, e.g. " + ", ".join(found[:6])
